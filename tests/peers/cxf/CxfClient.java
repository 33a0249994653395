// Apache CXF's dynamic JAX-WS client as a SOAP client for soapgen's interop tests: it reads a
// service's WSDL from a URL, generates and compiles the JAXB classes of its types at run time
// (CXF's JaxWsDynamicClientFactory, with XJC, as `wsdl2java` would at build time), and calls
// document/literal operations with typed request objects.
//
//   java -cp <classes>:<jars> CxfClient WSDL_URL SERVICE PORT [options] CALL...
//
// SERVICE and PORT are local names (the namespace is the WSDL's targetNamespace). Each CALL is
// OPERATION=JSON: the operation's request element (the wrapper of a document/literal operation)
// as a JSON object whose keys are the element's child and attribute names, converted to the
// JAXB class CXF generated for it (Jackson, with JAXB's annotations for names). One JSON line
// per call on stdout, in order:
//   {"result": {...}}   the response element as JSON (same conventions)
//   {"fault": {"declared": "X_Exception", "code": ..., "message": "...", "detail": {...}}}
//                       a fault the WSDL declares: the exception CXF generated for it, its
//                       detail the JAXB fault bean as JSON
//   {"fault": {"code": "{ns}local", "subcodes": ["{ns}local", ...], "message": "...",
//              "detail": "<xml>"}}   any other SOAP fault (SOAP 1.2 Sender faults at HTTP 400
//                       too: CXF's process_fault_on_http_400 is set)
//   {"error": "..."}    anything else (a response that fails WS-Security checks, a transport
//                       error), the exception's class and message; its stack trace on stderr
// Requests go as the wrapper element's JAXB object: JAX-WS's Holders of in/out parameters
// are not used.
// Values: xs:base64Binary as a base64 string (a DataHandler's bytes for MTOM-optimized
// elements), xs:dateTime and the other calendar types as their lexical form, xs:decimal as a
// JSON number or string.
//
// Options:
//   --mtom                        send MTOM (SOAP MTOM 1.0): CXF optimizes base64Binary values
//                                 marked xmime:expectedContentTypes into MIME parts
//   --user NAME --password PW     a UsernameToken (PasswordDigest with Nonce and Created) in
//                                 every request, by WSS4J's interceptor (CXF's WS-Security
//                                 without a policy)
//   --keystore client.p12 --storepass PW [--alias A] --ca ca.pem
//                                 a Timestamp and the Body signed with the key A of the PKCS#12
//                                 store (RSA-SHA256, SHA-256 digests, its certificate as a
//                                 BinarySecurityToken), and every response required to carry a
//                                 Timestamp and a signature by a certificate ca.pem issued
//
// Needs: OpenJDK 17 (a JDK: the JAXB classes are compiled at run time) and the jars build.sh
// resolves with Maven (Apache CXF 4.2, JAXB's XJC, Jackson).

import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.module.jakarta.xmlbind.JakartaXmlBindAnnotationModule;

import jakarta.activation.DataHandler;
import jakarta.activation.DataSource;

import org.apache.cxf.binding.soap.SoapFault;
import org.apache.cxf.endpoint.Client;
import org.apache.cxf.jaxws.endpoint.dynamic.JaxWsDynamicClientFactory;
import org.apache.cxf.jaxws.interceptors.HolderInInterceptor;
import org.apache.cxf.jaxws.interceptors.HolderOutInterceptor;
import org.apache.cxf.service.model.BindingOperationInfo;
import org.apache.cxf.service.model.MessagePartInfo;
import org.apache.cxf.ws.security.wss4j.WSS4JInInterceptor;
import org.apache.cxf.ws.security.wss4j.WSS4JOutInterceptor;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.common.ext.WSPasswordCallback;
import org.w3c.dom.Element;

public final class CxfClient {
    private CxfClient() {}

    static final String WSU =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

    static final class Options {
        String wsdl;
        String service;
        String port;
        boolean mtom;
        String user;
        String password;
        String keystore;
        String storepass;
        String alias;
        String ca;
        List<String[]> calls = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        Logger.getLogger("org.apache.cxf").setLevel(Level.SEVERE);
        Options o = parse(args);
        String ns = targetNamespace(o.wsdl);
        // The JAXB classes are compiled in this process: CXF's factory sets them as the thread's
        // context class loader, which Jackson must use too.
        Client client = JaxWsDynamicClientFactory.newInstance()
            .createClient(o.wsdl, new QName(ns, o.service), new QName(ns, o.port));
        // Requests go as the wrapper element's object (the operation as the WSDL has it), so
        // JAX-WS's Holders of in/out parameters (a part in both the request and the response
        // wrapper) have no place: their interceptors are left out.
        client.getEndpoint().getInInterceptors().removeIf(i -> i instanceof HolderInInterceptor);
        client.getEndpoint().getOutInterceptors().removeIf(i -> i instanceof HolderOutInterceptor);
        // SOAP 1.2 Part 2 §7.5.2.2 answers a Sender fault with HTTP 400, which CXF reads as a
        // fault only when told to (by default it reports an HTTP error).
        client.getRequestContext().put("org.apache.cxf.transport.process_fault_on_http_400", true);
        if (o.mtom) {
            client.getEndpoint().put("mtom-enabled", Boolean.TRUE);
        }
        secure(client, o);
        ObjectMapper json = mapper();
        for (String[] call : o.calls) {
            System.out.println(json.writeValueAsString(call(client, json, call[0], call[1])));
            System.out.flush();
        }
        client.destroy();
    }

    static Options parse(String[] args) {
        Options o = new Options();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--mtom": o.mtom = true; break;
                case "--user": o.user = value(args, ++i, a); break;
                case "--password": o.password = value(args, ++i, a); break;
                case "--keystore": o.keystore = value(args, ++i, a); break;
                case "--storepass": o.storepass = value(args, ++i, a); break;
                case "--alias": o.alias = value(args, ++i, a); break;
                case "--ca": o.ca = value(args, ++i, a); break;
                default:
                    if (a.startsWith("--")) {
                        fail("unknown option " + a);
                    }
                    positional.add(a);
            }
        }
        if (positional.size() < 4) {
            fail("usage: CxfClient WSDL_URL SERVICE PORT [options] OPERATION=JSON...");
        }
        o.wsdl = positional.get(0);
        o.service = positional.get(1);
        o.port = positional.get(2);
        for (String c : positional.subList(3, positional.size())) {
            int eq = c.indexOf('=');
            if (eq <= 0) {
                fail("a call is OPERATION=JSON: " + c);
            }
            o.calls.add(new String[] {c.substring(0, eq), c.substring(eq + 1)});
        }
        if ((o.user == null) != (o.password == null)) {
            fail("--user and --password go together");
        }
        if (o.keystore != null && (o.storepass == null || o.ca == null)) {
            fail("--keystore needs --storepass and --ca");
        }
        return o;
    }

    static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a value");
        }
        return args[i];
    }

    /** The targetNamespace of the WSDL at `url`. */
    static String targetNamespace(String url) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(url).getDocumentElement().getAttribute("targetNamespace");
    }

    /** One call: the request converted to the operation's JAXB class, the answer back to JSON. */
    static Map<String, Object> call(Client client, ObjectMapper json, String operation, String args) {
        Map<String, Object> out = new HashMap<>();
        try {
            BindingOperationInfo op = null;
            for (BindingOperationInfo b : client.getEndpoint().getEndpointInfo().getBinding()
                    .getOperations()) {
                if (b.getName().getLocalPart().equals(operation)) {
                    op = b;
                }
            }
            if (op == null) {
                throw new IllegalArgumentException("no operation " + operation);
            }
            Class<?> type = op.getInput().getMessageParts().get(0).getTypeClass();
            Object request = json.readValue(args, type);
            out.put("result", response(json, op, client.invoke(op, request)));
        } catch (SoapFault f) {
            Map<String, Object> fault = new HashMap<>();
            fault.put("code", f.getFaultCode().toString());
            List<String> subcodes = new ArrayList<>();
            if (f.getSubCodes() != null) {
                for (QName q : f.getSubCodes()) {
                    subcodes.add(q.toString());
                }
            }
            fault.put("subcodes", subcodes);
            fault.put("message", f.getMessage());
            fault.put("detail", f.getDetail() == null ? null : xml(f.getDetail()));
            out.put("fault", fault);
        } catch (Exception e) {
            SoapFault soap = soapFault(e);
            Object info = faultInfo(e);
            if (info != null) {
                // A declared fault: CXF's generated exception, its detail as the JAXB fault bean.
                Map<String, Object> fault = new HashMap<>();
                fault.put("code", soap == null ? null : soap.getFaultCode().toString());
                fault.put("message", e.getMessage());
                fault.put("declared", e.getClass().getSimpleName());
                fault.put("detail", json.valueToTree(info));
                out.put("fault", fault);
                return out;
            }
            e.printStackTrace();
            Throwable t = e;
            StringBuilder why = new StringBuilder();
            while (t != null) {
                if (why.length() > 0) {
                    why.append(": ");
                }
                why.append(t.getClass().getSimpleName()).append(' ').append(t.getMessage());
                t = t.getCause();
            }
            out.put("error", why.toString());
        }
        return out;
    }

    /**
     * The response element as JSON: CXF gives the wrapper's children (a document/literal
     * wrapped operation's output parts, in order), which are put back under their names.
     */
    static Object response(ObjectMapper json, BindingOperationInfo op, Object[] result) {
        if (result == null || result.length == 0) {
            return null;
        }
        Class<?> wrapper = op.getOutput().getMessageParts().get(0).getTypeClass();
        if (result.length == 1 && wrapper != null && wrapper.isInstance(result[0])) {
            return json.valueToTree(result[0]);
        }
        if (!op.isUnwrappedCapable()) {
            return json.valueToTree(result[0]);
        }
        List<MessagePartInfo> parts = op.getUnwrappedOperation().getOutput().getMessageParts();
        Map<String, Object> element = new LinkedHashMap<>();
        for (int i = 0; i < result.length && i < parts.size(); i++) {
            element.put(parts.get(i).getConcreteName().getLocalPart(), json.valueToTree(result[i]));
        }
        return element;
    }

    /** The SOAP fault behind `e`, if any. */
    static SoapFault soapFault(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SoapFault) {
                return (SoapFault) t;
            }
        }
        return null;
    }

    /** The fault bean of a JAX-WS fault exception (its getFaultInfo()), if `e` is one. */
    static Object faultInfo(Exception e) {
        try {
            return e.getClass().getMethod("getFaultInfo").invoke(e);
        } catch (ReflectiveOperationException x) {
            return null;
        }
    }

    /** JSON in and out with JAXB's names, and the JAXB value types Jackson does not know. */
    static ObjectMapper mapper() {
        ObjectMapper m = new ObjectMapper();
        m.registerModule(new JakartaXmlBindAnnotationModule());
        m.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true);
        SimpleModule values = new SimpleModule();
        values.addSerializer(XMLGregorianCalendar.class, new JsonSerializer<XMLGregorianCalendar>() {
            @Override
            public void serialize(XMLGregorianCalendar v, JsonGenerator g, SerializerProvider p)
                    throws IOException {
                g.writeString(v.toXMLFormat());
            }
        });
        values.addDeserializer(XMLGregorianCalendar.class,
            new JsonDeserializer<XMLGregorianCalendar>() {
                @Override
                public XMLGregorianCalendar deserialize(JsonParser p, DeserializationContext c)
                        throws IOException {
                    try {
                        return DatatypeFactory.newInstance().newXMLGregorianCalendar(p.getText());
                    } catch (Exception e) {
                        throw new IOException(e);
                    }
                }
            });
        values.addSerializer(DataHandler.class, new JsonSerializer<DataHandler>() {
            @Override
            public void serialize(DataHandler v, JsonGenerator g, SerializerProvider p)
                    throws IOException {
                try (InputStream in = v.getInputStream()) {
                    g.writeString(Base64.getEncoder().encodeToString(in.readAllBytes()));
                }
            }
        });
        values.addDeserializer(DataHandler.class, new JsonDeserializer<DataHandler>() {
            @Override
            public DataHandler deserialize(JsonParser p, DeserializationContext c)
                    throws IOException {
                return new DataHandler(new Bytes(Base64.getDecoder().decode(p.getText())));
            }
        });
        m.registerModule(values);
        return m;
    }

    /** Bytes as a DataSource (application/octet-stream). */
    static final class Bytes implements DataSource {
        final byte[] data;

        Bytes(byte[] data) {
            this.data = data;
        }

        @Override
        public InputStream getInputStream() {
            return new ByteArrayInputStream(data);
        }

        @Override
        public OutputStream getOutputStream() throws IOException {
            throw new IOException("read only");
        }

        @Override
        public String getContentType() {
            return "application/octet-stream";
        }

        @Override
        public String getName() {
            return "data";
        }
    }

    /** WSS4J's interceptors, as the options say (CXF's WS-Security without a policy). */
    static void secure(Client client, Options o) throws Exception {
        if (o.user == null && o.keystore == null) {
            return;
        }
        Map<String, Object> out = new HashMap<>();
        List<String> actions = new ArrayList<>();
        if (o.user != null) {
            actions.add("UsernameToken");
            out.put("user", o.user);
            out.put("passwordType", "PasswordDigest");
            out.put("addUsernameTokenNonce", "true");
            out.put("addUsernameTokenCreated", "true");
        }
        String alias = null;
        Merlin crypto = null;
        if (o.keystore != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = new FileInputStream(o.keystore)) {
                keys.load(in, o.storepass.toCharArray());
            }
            alias = o.alias != null ? o.alias : firstKey(keys);
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = new FileInputStream(o.ca)) {
                trust.setCertificateEntry("ca",
                    (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in));
            }
            crypto = new Merlin();
            crypto.setKeyStore(keys);
            crypto.setTrustStore(trust);
            actions.add("Timestamp");
            actions.add("Signature");
            out.put("signatureUser", alias);
            out.put("signaturePropRefId", "crypto");
            out.put("crypto", crypto);
            out.put("signatureKeyIdentifier", "DirectReference");
            // The Timestamp and the Body ("{}{}Body": the envelope's own namespace).
            out.put("signatureParts", "{}{" + WSU + "}Timestamp;{}{}Body");
            out.put("signatureAlgorithm", "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
            out.put("signatureDigestAlgorithm", "http://www.w3.org/2001/04/xmlenc#sha256");
        }
        final String keyAlias = alias;
        CallbackHandler passwords = (Callback[] callbacks) -> {
            for (Callback c : callbacks) {
                WSPasswordCallback pc = (WSPasswordCallback) c;
                if (o.user != null && o.user.equals(pc.getIdentifier())) {
                    pc.setPassword(o.password);
                } else if (keyAlias != null && keyAlias.equals(pc.getIdentifier())) {
                    pc.setPassword(o.storepass);
                }
            }
        };
        out.put("action", String.join(" ", actions));
        out.put("passwordCallbackRef", passwords);
        client.getOutInterceptors().add(new WSS4JOutInterceptor(out));
        if (crypto != null) {
            Map<String, Object> in = new HashMap<>();
            in.put("action", "Timestamp Signature");
            in.put("signatureVerificationPropRefId", "crypto");
            in.put("crypto", crypto);
            in.put("passwordCallbackRef", passwords);
            client.getInInterceptors().add(new WSS4JInInterceptor(in));
        }
    }

    static String firstKey(KeyStore keys) throws Exception {
        Enumeration<String> aliases = keys.aliases();
        while (aliases.hasMoreElements()) {
            String a = aliases.nextElement();
            if (keys.isKeyEntry(a)) {
                return a;
            }
        }
        fail("no key in the keystore");
        return null;
    }

    static String xml(Element e) {
        try {
            StringWriter w = new StringWriter();
            javax.xml.transform.Transformer t = TransformerFactory.newInstance().newTransformer();
            t.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            t.transform(new DOMSource(e), new StreamResult(w));
            return w.toString();
        } catch (Exception x) {
            return "<unprintable: " + x + ">";
        }
    }

    static void fail(String message) {
        System.err.println("cxf-client: " + message);
        System.exit(2);
    }
}
