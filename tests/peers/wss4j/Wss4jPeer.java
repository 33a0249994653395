// WS-Security peer for soapgen's interop tests: Apache WSS4J 1.6.19 (Debian's libwss4j-java, with
// Santuario 2.1.7) behind the JDK's own HTTP server.
//
//   java -cp <classes>:<jars> Wss4jPeer --port 0 [--exit-with-parent] [--user NAME:PASSWORD]...
//                                       [--ca ca.pem] [--cert known.pem]...
//                                       [--decrypt store.p12:password]
//
// Prints "LISTENING <port>" once bound. Every POST is a SOAP 1.1 or 1.2 request whose wsse:Security
// header is processed by WSSecurityEngine.processSecurityHeader with a password callback that knows
// the --user pairs and, with --ca, a Merlin crypto whose trust store holds that CA (signatures are
// then verified and their certificate checked against it) and whose key store also holds each
// --cert (for signatures that identify their certificate by a KeyIdentifier instead of sending it). Nothing is lenient on top of WSS4J's own
// defaults: a Timestamp is checked (strict, future TTL 60 s), a UsernameToken is authenticated.
// With --decrypt, EncryptedKeys are unwrapped with the private key of that PKCS#12 store (a second
// Merlin crypto, WSS4J's decryption crypto) and the EncryptedData they list are decrypted.
//
// Reply: a fault (HTTP 500, faultcode = WSS4J's, faultstring = its message) if processing failed or
// there was no Security header; otherwise, for the first child <X> of the request Body,
// <XResponse><XResult> with
//   <text>     the request's <text> element, echoed
//   <actions>  what WSS4J processed, in order: "TS", "BST", "UT", "SIGN", "ENCR" (comma separated)
//   <user>     the UsernameToken's user, <passwordType> its Type ("PasswordDigest" / "PasswordText")
//   <signed>   for a signature: the local names of the signed elements (comma separated)
//   <signer>   for a signature: the certificate's subject DN
// all in the request's namespace, qualified. The first path segment chooses the reply's own
// Security header: /echo a WSS4J Timestamp (TTL 300 s); /no-timestamp none; /expired a Timestamp
// created 600 s ago that expired 300 s ago; /future one created an hour from now.
//
// Needs: openjdk-17-jdk-headless (javac, java), libwss4j-java, libxml-security-java,
// libcommons-logging-java, libslf4j-java (see .ci/install-peers.sh).

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.Executors;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.apache.ws.security.WSConstants;
import org.apache.ws.security.WSDataRef;
import org.apache.ws.security.WSPasswordCallback;
import org.apache.ws.security.WSSConfig;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.WSSecurityException;
import org.apache.ws.security.WSUsernameTokenPrincipal;
import org.apache.ws.security.components.crypto.Crypto;
import org.apache.ws.security.components.crypto.Merlin;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecTimestamp;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

public final class Wss4jPeer {
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    private static final String WSU =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";

    private static final Map<String, String> USERS = new HashMap<>();
    private static Crypto crypto;
    private static Crypto decryptCrypto;
    private static String decryptPassword;

    public static void main(String[] args) throws Exception {
        int port = 0;
        boolean exitWithParent = false;
        String ca = null;
        List<String> known = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port": port = Integer.parseInt(args[++i]); break;
                case "--exit-with-parent": exitWithParent = true; break;
                case "--user": {
                    String u = args[++i];
                    int c = u.indexOf(':');
                    USERS.put(u.substring(0, c), u.substring(c + 1));
                    break;
                }
                case "--ca": ca = args[++i]; break;
                case "--cert": known.add(args[++i]); break;
                case "--decrypt": {
                    // store.p12:password -- the PKCS#12 store with the private key that
                    // EncryptedKeys are wrapped for.
                    String d = args[++i];
                    int c = d.lastIndexOf(':');
                    decryptPassword = d.substring(c + 1);
                    KeyStore ks = KeyStore.getInstance("PKCS12");
                    try (InputStream in = new FileInputStream(d.substring(0, c))) {
                        ks.load(in, decryptPassword.toCharArray());
                    }
                    Merlin m = new Merlin();
                    m.setKeyStore(ks);
                    decryptCrypto = m;
                    break;
                }
                default:
                    System.err.println("unknown argument " + args[i]);
                    System.exit(2);
            }
        }
        WSSConfig.init();
        if (ca != null) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            try (InputStream in = new FileInputStream(ca)) {
                X509Certificate cert = (X509Certificate)
                    CertificateFactory.getInstance("X.509").generateCertificate(in);
                trust.setCertificateEntry("ca", cert);
            }
            for (int k = 0; k < known.size(); k++) {
                try (InputStream in = new FileInputStream(known.get(k))) {
                    X509Certificate cert = (X509Certificate)
                        CertificateFactory.getInstance("X.509").generateCertificate(in);
                    trust.setCertificateEntry("known" + k, cert);
                }
            }
            Merlin merlin = new Merlin();
            merlin.setTrustStore(trust);
            merlin.setKeyStore(trust);
            crypto = merlin;
        }
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.createContext("/", Wss4jPeer::handle);
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.start();
        System.out.println("LISTENING " + server.getAddress().getPort());
        System.out.flush();
        if (exitWithParent) {
            ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
            Thread watch = new Thread(() -> {
                while (parent == null || parent.isAlive()) {
                    try { Thread.sleep(300); } catch (InterruptedException e) { return; }
                }
                System.exit(0);
            });
            watch.setDaemon(true);
            watch.start();
        }
    }

    private static void handle(HttpExchange ex) {
        try {
            byte[] body = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getPath();
            byte[] reply;
            int status = 200;
            String soapNs = SOAP11;
            try {
                Document doc = parse(body);
                soapNs = doc.getDocumentElement().getNamespaceURI();
                reply = process(doc, soapNs, path);
            } catch (WSSecurityException e) {
                status = 500;
                String code = e.getFaultCode() == null ? "Security" : e.getFaultCode().getLocalPart();
                reply = fault(soapNs, code, e.getMessage());
                System.err.println("wss4j-peer: rejected: " + e.getMessage());
            } catch (Exception e) {
                status = 500;
                reply = fault(soapNs, "Error", e.toString());
                System.err.println("wss4j-peer: error: " + e);
            }
            String ct = SOAP12.equals(soapNs)
                ? "application/soap+xml; charset=utf-8" : "text/xml; charset=utf-8";
            ex.getResponseHeaders().set("Content-Type", ct);
            ex.sendResponseHeaders(status, reply.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(reply);
            }
        } catch (Exception e) {
            System.err.println("wss4j-peer: " + e);
        } finally {
            ex.close();
        }
    }

    private static Document parse(byte[] body) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        DocumentBuilder b = f.newDocumentBuilder();
        return b.parse(new ByteArrayInputStream(body));
    }

    private static byte[] process(Document doc, String soapNs, String path) throws Exception {
        WSSecurityEngine engine = new WSSecurityEngine();
        WSSConfig config = WSSConfig.getNewInstance();
        engine.setWssConfig(config);
        CallbackHandler cb = (Callback[] callbacks) -> {
            for (Callback c : callbacks) {
                if (c instanceof WSPasswordCallback
                        && ((WSPasswordCallback) c).getUsage() == WSPasswordCallback.DECRYPT) {
                    ((WSPasswordCallback) c).setPassword(decryptPassword);
                } else if (c instanceof WSPasswordCallback) {
                    WSPasswordCallback pc = (WSPasswordCallback) c;
                    String pw = USERS.get(pc.getIdentifier());
                    if (pw != null) {
                        pc.setPassword(pw);
                    }
                }
            }
        };
        List<WSSecurityEngineResult> results = engine.processSecurityHeader(doc, null, cb, crypto, decryptCrypto);
        if (results == null || results.isEmpty()) {
            throw new WSSecurityException("the request has no wsse:Security header");
        }
        List<String> actions = new ArrayList<>();
        String user = "", pwType = "", signer = "";
        List<String> signed = new ArrayList<>();
        // WSS4J returns results last-processed first.
        for (int i = results.size() - 1; i >= 0; i--) {
            WSSecurityEngineResult r = results.get(i);
            int action = (Integer) r.get(WSSecurityEngineResult.TAG_ACTION);
            if (action == WSConstants.UT || action == WSConstants.UT_NOPASSWORD) {
                actions.add("UT");
                WSUsernameTokenPrincipal p =
                    (WSUsernameTokenPrincipal) r.get(WSSecurityEngineResult.TAG_PRINCIPAL);
                user = p.getName();
                String t = p.getPasswordType();
                pwType = t == null ? "" : t.substring(t.indexOf('#') + 1);
            } else if (action == WSConstants.TS) {
                actions.add("TS");
            } else if (action == WSConstants.BST) {
                actions.add("BST");
            } else if (action == WSConstants.ENCR) {
                actions.add("ENCR");
            } else if (action == WSConstants.SIGN) {
                actions.add("SIGN");
                X509Certificate cert =
                    (X509Certificate) r.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
                if (cert != null) {
                    signer = cert.getSubjectX500Principal().getName();
                }
                @SuppressWarnings("unchecked")
                List<WSDataRef> refs = (List<WSDataRef>) r.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
                if (refs != null) {
                    for (WSDataRef ref : refs) {
                        signed.add(ref.getName().getLocalPart());
                    }
                }
            } else {
                actions.add("action-" + action);
            }
        }

        Element body = firstChild(doc.getDocumentElement(), soapNs, "Body");
        Element op = body == null ? null : firstElement(body.getFirstChild());
        if (op == null) {
            throw new Exception("no operation element in the Body");
        }
        String ns = op.getNamespaceURI() == null ? "" : op.getNamespaceURI();
        String text = "";
        for (Node n = op.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && "text".equals(n.getLocalName())) {
                text = n.getTextContent();
            }
        }

        Document out = parse(("<e:Envelope xmlns:e=\"" + soapNs + "\"><e:Body/></e:Envelope>")
            .getBytes(StandardCharsets.UTF_8));
        Element outBody = firstChild(out.getDocumentElement(), soapNs, "Body");
        String name = op.getLocalName();
        Element resp = out.createElementNS(ns, "r:" + name + "Response");
        Element result = out.createElementNS(ns, "r:" + name + "Result");
        resp.appendChild(result);
        outBody.appendChild(resp);
        add(out, result, ns, "text", text);
        add(out, result, ns, "actions", String.join(",", actions));
        add(out, result, ns, "user", user);
        add(out, result, ns, "passwordType", pwType);
        add(out, result, ns, "signed", String.join(",", signed));
        add(out, result, ns, "signer", signer);

        String mode = path.replaceAll("^/+", "").split("/", 2)[0];
        if (!mode.equals("no-timestamp")) {
            WSSecHeader secHeader = new WSSecHeader();
            secHeader.setMustUnderstand(true);
            secHeader.insertSecurityHeader(out);
            WSSecTimestamp ts = new WSSecTimestamp();
            ts.setTimeToLive(300);
            ts.build(out, secHeader);
            long now = System.currentTimeMillis();
            if (mode.equals("expired")) {
                setTimes(ts.getElement(), now - 600_000, now - 300_000);
            } else if (mode.equals("future")) {
                setTimes(ts.getElement(), now + 3_600_000, now + 3_900_000);
            }
        }
        return serialize(out);
    }

    private static void setTimes(Element ts, long created, long expires) {
        SimpleDateFormat f = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'");
        f.setTimeZone(TimeZone.getTimeZone("UTC"));
        for (Node n = ts.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && WSU.equals(n.getNamespaceURI())) {
                if ("Created".equals(n.getLocalName())) {
                    n.setTextContent(f.format(new Date(created)));
                } else if ("Expires".equals(n.getLocalName())) {
                    n.setTextContent(f.format(new Date(expires)));
                }
            }
        }
    }

    private static void add(Document d, Element parent, String ns, String name, String value) {
        Element e = d.createElementNS(ns, "r:" + name);
        e.setTextContent(value);
        parent.appendChild(e);
    }

    private static Element firstChild(Element parent, String ns, String local) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ns.equals(n.getNamespaceURI()) && local.equals(n.getLocalName())) {
                return (Element) n;
            }
        }
        return null;
    }

    private static Element firstElement(Node n) {
        for (; n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                return (Element) n;
            }
        }
        return null;
    }

    private static byte[] serialize(Document doc) throws Exception {
        Transformer t = TransformerFactory.newInstance().newTransformer();
        t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        t.transform(new DOMSource(doc), new StreamResult(buf));
        return buf.toByteArray();
    }

    private static byte[] fault(String soapNs, String code, String message) {
        String msg = message == null ? "" : message
            .replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        String xml;
        if (SOAP12.equals(soapNs)) {
            xml = "<e:Envelope xmlns:e=\"" + SOAP12 + "\"><e:Body><e:Fault><e:Code><e:Value>e:Sender"
                + "</e:Value></e:Code><e:Reason><e:Text xml:lang=\"en\">" + code + ": " + msg
                + "</e:Text></e:Reason></e:Fault></e:Body></e:Envelope>";
        } else {
            xml = "<e:Envelope xmlns:e=\"" + SOAP11 + "\"><e:Body><e:Fault><faultcode>e:Client."
                + code + "</faultcode><faultstring>" + code + ": " + msg
                + "</faultstring></e:Fault></e:Body></e:Envelope>";
        }
        return xml.getBytes(StandardCharsets.UTF_8);
    }
}
