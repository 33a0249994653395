// Apache CXF as a WS-SecurityPolicy peer for soapgen's interop tests: every port of every service
// of the WSDL files given is published on 127.0.0.1 with CXF's WS-Policy engine on, so CXF
// enforces each port's effective policy on requests and applies it to responses, as a CXF service
// built from that WSDL would. The operation behind every port is DoubleIt: numberToDouble in,
// doubledNumber = 2 x numberToDouble out; or, for a payload named echo (the IPingService of the
// WS-Security interop WSDLs), echo: request in, the same text out as echoResult; or, for a
// PingRequest (the IPingService of WCF's WS-SecureConversation interop WSDLs), its Ping's
// scenario, origin and text out in a PingResponse. DoubleIt3 (the
// SwA WSDL's) is answered only if one of the request's attachments, as the service gets it from
// CXF, starts with numberToDouble's decimal text and a space.
//
//   java -cp <classes>:<jars> CxfPeer --port 0 [--exit-with-parent] --wsdl A.wsdl [--wsdl B.wsdl]...
//        [--keystore service.p12 --storepass changeit [--alias service]] [--ca ca.pem]...
//        [--cert known.pem]... [--user NAME:PASSWORD]... [--tls-keystore tls.p12 --tls-storepass pw]
//        [--generic-faults]
//
// Prints "LISTENING <port>" on stdout once every port is published, then serves until killed
// (with --exit-with-parent: until its parent process is gone too).
//
// Paths: a port is served at /<WSDL file name without .wsdl>/<port name>, e.g.
// /DoubleItX509/DoubleItAsymmetricIssuerSerialPort; a GET of that path with ?wsdl returns the WSDL.
// The soap:address of the WSDL is ignored. A WSDL's imports are resolved relative to its file:
// lay the files out so that they resolve.
//
// Keys (all optional; a port whose policy needs a key that is missing fails on each request, with
// CXF's fault):
//   --keystore/--storepass/--alias  the service's own key and certificate (PKCS#12; alias: the
//        store's first key entry when not given). It signs responses, decrypts requests and is the
//        certificate requests are encrypted for. Its password is also the key's.
//   --ca   a certificate trusted as a trust anchor for the signatures of requests (repeatable).
//   --cert a certificate the peer holds without trusting it as an anchor (repeatable): a request
//        signature may name it by KeyIdentifier or IssuerSerial instead of carrying it.
//   Responses are encrypted for the certificate that signed the request (CXF's "useReqSigCert"),
//   or, with --encrypt-for client.pem, for that certificate (policies that encrypt requests
//   without signing them leave the peer no signer to encrypt for).
//   --user the UsernameToken accounts the password callback knows (repeatable).
//   --tls-keystore/--tls-storepass a TLS server key (PKCS#12). The one port then speaks both plain
//        HTTP and HTTPS (Jetty detects a TLS ClientHello on each connection), so ports whose policy
//        has an HttpsToken (TransportBinding) are reachable at https://127.0.0.1:<port>/... while
//        CXF refuses them over plain HTTP. No client certificate is asked for.
//
// Faults: a request that fails the policy is answered with CXF's own SOAP fault. CXF replaces the
// reason of a WS-Security processing error by one generic sentence unless
// security.return.security.error is set; the peer sets it (CXF's own switch) so that the fault
// names what failed, and --generic-faults leaves CXF's default.
//
// Ports the peer cannot serve are left out with one stderr line each, "SKIPPED <path>: <why>":
// those whose policy needs a token issuer or a KDC this peer does not have (sp:IssuedToken,
// sp:SamlToken, sp:KerberosToken, sp:SpnegoContextToken), those whose policy CXF cannot build (it
// would serve them with less than the WSDL says; see policyProblems) and those CXF refuses to
// publish. A port whose WSDL attaches no policy (CXF's own tests configure some ports' policies
// elsewhere) is served without one, as its WSDL says.
// Every published port gets one line "PUBLISHED <path> <service QName> <port name>".
//
// Algorithm suites: CXF's, and Basic128RsaSha512 of CXF's custom namespace, which CXF's own
// tests register with a suite loader of their own (PeerSuiteLoader does the same here).
//
// Needs: OpenJDK 17 and the jars build.sh resolves with Maven (Apache CXF 4.2 and what it pulls
// in: WSS4J, Santuario, Neethi, Jetty 12).

import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.io.StringReader;
import java.net.InetAddress;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.logging.Level;
import java.util.logging.Logger;

import javax.security.auth.callback.Callback;
import javax.security.auth.callback.CallbackHandler;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.Source;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMResult;
import javax.xml.transform.dom.DOMSource;

import jakarta.xml.ws.Provider;
import jakarta.xml.ws.Service;
import jakarta.xml.ws.ServiceMode;
import jakarta.xml.ws.WebServiceException;
import jakarta.xml.ws.WebServiceContext;
import jakarta.xml.ws.WebServiceProvider;
import jakarta.xml.ws.handler.MessageContext;

import org.apache.cxf.Bus;
import org.apache.cxf.BusFactory;
import org.apache.cxf.jaxws.EndpointImpl;
import org.apache.cxf.message.Exchange;
import org.apache.cxf.message.ExchangeImpl;
import org.apache.cxf.message.Message;
import org.apache.cxf.message.MessageImpl;
import org.apache.cxf.service.model.BindingOperationInfo;
import org.apache.cxf.service.model.EndpointInfo;
import org.apache.cxf.transport.Destination;
import org.apache.cxf.transport.servlet.CXFNonSpringServlet;
import org.apache.cxf.ws.policy.PolicyEngine;
import org.apache.cxf.ws.security.policy.custom.AlgorithmSuiteLoader;
import org.apache.cxf.ws.security.policy.custom.DefaultAlgorithmSuiteLoader;
import org.apache.cxf.ws.security.SecurityConstants;
import org.apache.wss4j.common.crypto.Crypto;
import org.apache.wss4j.common.crypto.Merlin;
import org.apache.wss4j.common.ext.WSPasswordCallback;
import org.apache.wss4j.policy.SPConstants;
import org.apache.wss4j.policy.model.AbstractSecurityAssertion;
import org.apache.wss4j.policy.model.AlgorithmSuite;
import org.apache.neethi.Assertion;
import org.apache.neethi.Policy;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.DetectorConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

public final class CxfPeer {
    static final String WSDL_NS = "http://schemas.xmlsoap.org/wsdl/";
    static final String WSP_NS = "http://www.w3.org/ns/ws-policy";
    static final String WSP_OLD_NS = "http://schemas.xmlsoap.org/ws/2004/09/policy";
    static final String WSU_NS =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    static final String DOUBLEIT_NS = "http://www.example.org/schema/DoubleIt";

    /** Policy assertions (local names) whose tokens this peer has no issuer or KDC for. */
    static final Map<String, String> UNSERVED = Map.of(
        "IssuedToken", "an sp:IssuedToken needs a security token service: the peer has none",
        "SamlToken", "an sp:SamlToken needs a SAML issuer (callback or STS): the peer has none",
        "KerberosToken", "an sp:KerberosToken needs a Kerberos KDC: the peer has none",
        "SpnegoContextToken", "an sp:SpnegoContextToken needs a Kerberos KDC: the peer has none");

    /** The command line. */
    static final class Options {
        int port;
        boolean exitWithParent;
        boolean genericFaults;
        final List<String> wsdls = new ArrayList<>();
        String keystore;
        String storepass = "";
        String alias;
        final List<String> cas = new ArrayList<>();
        final List<String> certs = new ArrayList<>();
        String encryptFor;
        final Map<String, String> users = new HashMap<>();
        String tlsKeystore;
        String tlsStorepass = "";
    }

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        if (o.exitWithParent) {
            watchParent();
        }
        quietLogging();
        Bus bus = BusFactory.newInstance().createBus();
        BusFactory.setDefaultBus(bus);
        PolicyEngine engine = bus.getExtension(PolicyEngine.class);
        if (engine == null) {
            fail("CXF's policy engine (cxf-rt-ws-policy) is not on the class path");
        }
        engine.setEnabled(true);
        bus.setExtension(new PeerSuiteLoader(), AlgorithmSuiteLoader.class);

        Server server = new Server();
        ServerConnector connector = connector(server, o);
        server.addConnector(connector);
        CXFNonSpringServlet servlet = new CXFNonSpringServlet();
        servlet.setBus(bus);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        context.addServlet(new ServletHolder(servlet), "/*");
        server.setHandler(context);
        server.start();

        Map<String, Object> security = securityProperties(o);
        int published = 0;
        for (String wsdl : o.wsdls) {
            published += publishAll(bus, new File(wsdl), security);
        }
        if (published == 0) {
            fail("no port was published");
        }
        System.out.println("LISTENING " + connector.getLocalPort());
        System.out.flush();
        server.join();
    }

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--exit-with-parent")) {
                o.exitWithParent = true;
                continue;
            }
            if (a.equals("--generic-faults")) {
                o.genericFaults = true;
                continue;
            }
            if (i + 1 >= args.length) {
                fail("missing value after " + a);
            }
            String v = args[++i];
            switch (a) {
                case "--port": o.port = Integer.parseInt(v); break;
                case "--wsdl": o.wsdls.add(v); break;
                case "--keystore": o.keystore = v; break;
                case "--storepass": o.storepass = v; break;
                case "--alias": o.alias = v; break;
                case "--ca": o.cas.add(v); break;
                case "--cert": o.certs.add(v); break;
                case "--encrypt-for": o.encryptFor = v; break;
                case "--user": {
                    int colon = v.indexOf(':');
                    if (colon <= 0) {
                        fail("--user wants NAME:PASSWORD, got " + v);
                    }
                    o.users.put(v.substring(0, colon), v.substring(colon + 1));
                    break;
                }
                case "--tls-keystore": o.tlsKeystore = v; break;
                case "--tls-storepass": o.tlsStorepass = v; break;
                default: fail("unknown argument " + a);
            }
        }
        if (o.wsdls.isEmpty()) {
            fail("give at least one --wsdl");
        }
        return o;
    }

    /**
     * CXF and Jetty log through java.util.logging: warnings only, one line each (an exception by
     * its class and message, its causes after "<-"; no stack traces).
     */
    static void quietLogging() {
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        java.util.logging.Formatter oneLine = new java.util.logging.Formatter() {
            @Override
            public String format(java.util.logging.LogRecord r) {
                StringBuilder b = new StringBuilder();
                b.append(r.getLevel()).append(' ').append(r.getLoggerName()).append(": ")
                    .append(formatMessage(r));
                for (Throwable t = r.getThrown(); t != null; t = t.getCause()) {
                    b.append(t == r.getThrown() ? " " : " <- ").append(t);
                    if (t.getCause() == null) {
                        // Where the innermost one was thrown: what a message alone does not say.
                        StackTraceElement[] at = t.getStackTrace();
                        for (int i = 0; i < Math.min(3, at.length); i++) {
                            b.append(" at ").append(at[i]);
                        }
                    }
                }
                return b.toString().replace('\n', ' ') + System.lineSeparator();
            }
        };
        for (java.util.logging.Handler h : root.getHandlers()) {
            h.setLevel(Level.WARNING);
            h.setFormatter(oneLine);
        }
    }

    /** 127.0.0.1:port, plain HTTP, or plain HTTP and HTTPS (detected) with a TLS key. */
    static ServerConnector connector(Server server, Options o) throws Exception {
        HttpConfiguration config = new HttpConfiguration();
        config.setSendServerVersion(false);
        ServerConnector connector;
        if (o.tlsKeystore == null) {
            connector = new ServerConnector(server, new HttpConnectionFactory(config));
        } else {
            SecureRequestCustomizer secure = new SecureRequestCustomizer();
            // The test certificates name 127.0.0.1, clients send no SNI for an IP address.
            secure.setSniHostCheck(false);
            config.addCustomizer(secure);
            SslContextFactory.Server tls = new SslContextFactory.Server();
            tls.setKeyStorePath(new File(o.tlsKeystore).getAbsolutePath());
            tls.setKeyStoreType("PKCS12");
            tls.setKeyStorePassword(o.tlsStorepass);
            HttpConnectionFactory http = new HttpConnectionFactory(config);
            SslConnectionFactory ssl = new SslConnectionFactory(tls, http.getProtocol());
            ConnectionFactory detector = new DetectorConnectionFactory(ssl);
            connector = new ServerConnector(server, detector, http);
        }
        connector.setHost(InetAddress.getLoopbackAddress().getHostAddress());
        connector.setPort(o.port);
        return connector;
    }

    /** The endpoint properties every port gets: keys, trust, accounts, detailed faults. */
    static Map<String, Object> securityProperties(Options o) throws Exception {
        Map<String, Object> p = new HashMap<>();
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (int i = 0; i < o.cas.size(); i++) {
            trust.setCertificateEntry("ca" + i, readCert(o.cas.get(i)));
        }
        KeyStore keys = KeyStore.getInstance("PKCS12");
        String alias = null;
        if (o.keystore != null) {
            try (InputStream in = new FileInputStream(o.keystore)) {
                keys.load(in, o.storepass.toCharArray());
            }
            alias = o.alias != null ? o.alias : firstKey(keys);
        } else {
            keys.load(null, null);
        }
        for (int i = 0; i < o.certs.size(); i++) {
            keys.setCertificateEntry("known" + i, readCert(o.certs.get(i)));
        }
        Merlin merlin = new Merlin();
        merlin.setKeyStore(keys);
        merlin.setTrustStore(trust);
        Crypto crypto = merlin;
        p.put(SecurityConstants.SIGNATURE_CRYPTO, crypto);
        p.put(SecurityConstants.ENCRYPT_CRYPTO, crypto);
        if (alias != null) {
            p.put(SecurityConstants.SIGNATURE_USERNAME, alias);
        }
        if (o.encryptFor != null) {
            keys.setCertificateEntry("encrypt-for", readCert(o.encryptFor));
            p.put(SecurityConstants.ENCRYPT_USERNAME, "encrypt-for");
        } else {
            p.put(SecurityConstants.ENCRYPT_USERNAME, "useReqSigCert");
        }
        p.put(SecurityConstants.CALLBACK_HANDLER, passwords(o, alias));
        if (!o.genericFaults) {
            p.put(SecurityConstants.RETURN_SECURITY_ERROR, Boolean.TRUE);
        }
        return p;
    }

    static String firstKey(KeyStore keys) throws Exception {
        for (Enumeration<String> e = keys.aliases(); e.hasMoreElements();) {
            String a = e.nextElement();
            if (keys.isKeyEntry(a)) {
                return a;
            }
        }
        fail("the --keystore holds no private key");
        return null;
    }

    /** The --user accounts, and the key's password (the store's) for its alias. */
    static CallbackHandler passwords(Options o, String alias) {
        Map<String, String> users = new HashMap<>(o.users);
        String keyPass = o.storepass;
        return callbacks -> {
            for (Callback c : callbacks) {
                if (!(c instanceof WSPasswordCallback)) {
                    throw new UnsupportedCallbackException(c);
                }
                WSPasswordCallback pc = (WSPasswordCallback) c;
                String id = pc.getIdentifier();
                if (pc.getUsage() == WSPasswordCallback.USERNAME_TOKEN) {
                    if (users.containsKey(id)) {
                        pc.setPassword(users.get(id));
                    }
                } else if (id != null && id.equals(alias)) {
                    pc.setPassword(keyPass);
                }
            }
        };
    }

    /**
     * What CXF's own systest configures for a port besides its policy (the endpoint's properties
     * in that test's server.xml), where the policy alone cannot be served without it.
     */
    static Map<String, Object> serverConfiguration(String portName) {
        Map<String, Object> p = new HashMap<>();
        if (portName.equals("DoubleItGCM192Port")) {
            // gcm/server.xml: the Basic Security Profile (R5620) allows no AES-192, which
            // Basic192GCM encrypts with, so CXF's test turns its BSP checks off here.
            p.put("ws-security.is-bsp-compliant", "false");
        }
        return p;
    }

    /** Publishes every port of every service of `wsdl`; the number published. */
    static int publishAll(Bus bus, File wsdl, Map<String, Object> security) throws Exception {
        String stem = wsdl.getName().replaceFirst("\\.wsdl$", "");
        String location = wsdl.getAbsoluteFile().toURI().toString();
        Document doc = parseFile(wsdl);
        int published = 0;
        for (Element service : children(doc.getDocumentElement(), WSDL_NS, "service")) {
            QName serviceName = new QName(
                doc.getDocumentElement().getAttribute("targetNamespace"),
                service.getAttribute("name"));
            for (Element port : children(service, WSDL_NS, "port")) {
                String portName = port.getAttribute("name");
                String path = "/" + stem + "/" + portName;
                Set<String> names = new LinkedHashSet<>();
                Set<String> ids = new LinkedHashSet<>();
                portPolicies(doc, service, port, names, ids);
                String why = unserved(names);
                if (why != null) {
                    System.err.println("SKIPPED " + path + ": " + why);
                    continue;
                }
                try {
                    EndpointImpl ep = new EndpointImpl(bus, new DoubleIt());
                    ep.setWsdlLocation(location);
                    ep.setServiceName(serviceName);
                    ep.setEndpointName(new QName(serviceName.getNamespaceURI(), portName));
                    Map<String, Object> properties = new HashMap<>(security);
                    properties.putAll(serverConfiguration(portName));
                    ep.setProperties(properties);
                    ep.publish(path);
                    // JAX-WS maps SwA parts (mime:multipartRelated) to the parameters of a typed
                    // service; a Provider has none (its attachments stay in the message, as
                    // WSS4J left them), and the mapping fails on it.
                    ep.getServer().getEndpoint().getInInterceptors()
                        .removeIf(i -> i instanceof org.apache.cxf.jaxws.interceptors.SwAInInterceptor);
                    ep.getServer().getEndpoint().getOutInterceptors()
                        .removeIf(i -> i instanceof org.apache.cxf.jaxws.interceptors.SwAOutInterceptor);
                    String broken = policyProblems(bus, ep, ids);
                    if (broken != null) {
                        ep.stop();
                        System.err.println("SKIPPED " + path + ": CXF cannot build its policy: "
                            + broken);
                        continue;
                    }
                    System.err.println("PUBLISHED " + path + " " + serviceName + " " + portName);
                    published++;
                } catch (RuntimeException e) {
                    System.err.println("SKIPPED " + path + ": CXF cannot publish it: " + e);
                }
            }
        }
        System.err.flush();
        return published;
    }

    /**
     * What CXF's policy engine warned about while it built the effective policies of `ep` (its
     * endpoint, and each operation's request and response), or null. A policy CXF cannot build
     * (an assertion it has no builder for, such as a custom algorithm suite that CXF's own tests
     * register) is left out with a warning, and the port would run with less than its WSDL says:
     * such a port is not served. CXF builds every policy of the document when it resolves one,
     * so only its warnings about the policies the port refers to (`ids`) count. The policies are
     * computed as for a first request and then forgotten, so that requests compute their own.
     */
    static String policyProblems(Bus bus, EndpointImpl ep, Set<String> ids) {
        PolicyEngine engine = bus.getExtension(PolicyEngine.class);
        EndpointInfo ei = ep.getServer().getEndpoint().getEndpointInfo();
        Destination destination = ep.getServer().getDestination();
        Message probe = new MessageImpl();
        Exchange exchange = new ExchangeImpl();
        probe.setExchange(exchange);
        exchange.setInMessage(probe);
        List<String> warnings = new ArrayList<>();
        java.util.logging.Handler recorder = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                String text = new java.util.logging.SimpleFormatter().formatMessage(r);
                for (String id : ids) {
                    if (r.getLevel().intValue() >= Level.WARNING.intValue()
                        && text.contains("'" + id + "'")) {
                        warnings.add(text);
                        return;
                    }
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger policyLog = Logger.getLogger("org.apache.cxf.ws.policy");
        policyLog.addHandler(recorder);
        // The warnings that matter end up in the SKIPPED line; CXF repeats the others per port.
        policyLog.setUseParentHandlers(false);
        try {
            engine.getServerEndpointPolicy(ei, destination, probe);
            for (BindingOperationInfo boi : ei.getBinding().getOperations()) {
                engine.getEffectiveServerRequestPolicy(ei, boi, probe);
                if (boi.getOutput() != null) {
                    engine.getEffectiveServerResponsePolicy(ei, boi, destination, null, probe);
                    engine.setEffectiveServerResponsePolicy(ei, boi, null);
                }
                engine.setEffectiveServerRequestPolicy(ei, boi, null);
            }
            engine.setServerEndpointPolicy(ei, null);
        } catch (RuntimeException e) {
            warnings.add(e.toString());
        } finally {
            policyLog.removeHandler(recorder);
            policyLog.setUseParentHandlers(true);
        }
        return warnings.isEmpty() ? null : String.join("; ", warnings);
    }

    /**
     * The local names of the elements of the policies that apply to `port` (attached to it, its
     * service or its binding and the binding's operations and messages, following local
     * wsp:PolicyReferences) into `names`, and the wsu:Ids of the policies referred to into `ids`.
     */
    static void portPolicies(Document doc, Element service, Element port, Set<String> names,
                             Set<String> ids) {
        Map<String, Element> byId = policiesById(doc);
        collectAssertions(service, byId, names, ids);
        collectAssertions(port, byId, names, ids);
        String binding = localPart(port.getAttribute("binding"));
        for (Element b : children(doc.getDocumentElement(), WSDL_NS, "binding")) {
            if (b.getAttribute("name").equals(binding)) {
                collectAssertions(b, byId, names, ids);
            }
        }
    }

    /** Why the peer cannot serve a port with these policy assertions, or null. */
    static String unserved(Set<String> names) {
        for (String name : names) {
            if (UNSERVED.containsKey(name)) {
                return UNSERVED.get(name);
            }
        }
        return null;
    }

    /** The wsp:Policy elements of the document by wsu:Id. */
    static Map<String, Element> policiesById(Document doc) {
        Map<String, Element> byId = new TreeMap<>();
        for (String ns : new String[] {WSP_NS, WSP_OLD_NS}) {
            NodeList all = doc.getElementsByTagNameNS(ns, "Policy");
            for (int i = 0; i < all.getLength(); i++) {
                Element p = (Element) all.item(i);
                String id = p.getAttributeNS(WSU_NS, "Id");
                if (!id.isEmpty()) {
                    byId.put(id, p);
                }
            }
        }
        return byId;
    }

    /** Local names of every element under `e`, following local wsp:PolicyReferences. */
    static void collectAssertions(Element e, Map<String, Element> byId, Set<String> names,
                                  Set<String> followed) {
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (!(n instanceof Element)) {
                continue;
            }
            Element c = (Element) n;
            names.add(c.getLocalName());
            if ("PolicyReference".equals(c.getLocalName())) {
                String uri = c.getAttribute("URI");
                String id = uri.startsWith("#") ? uri.substring(1) : uri;
                Element target = byId.get(id);
                if (target != null && followed.add(id)) {
                    collectAssertions(target, byId, names, followed);
                }
            }
            collectAssertions(c, byId, names, followed);
        }
    }

    /**
     * The algorithm suites of CXF's own system tests that CXF does not register by default, as
     * those tests register them with suite loaders of their own (all in CXF's custom namespace):
     * `Basic128RsaSha512`: SHA-512 digests, RSA-SHA512 signatures, AES-128-CBC, RSA-OAEP;
     * `Basic256GCMMGFSHA256`: SHA-1 digests, AES-256-GCM, and the key wrapped by XML-Enc 1.1's
     * RSA-OAEP with MGF1-SHA-256; `Basic256GCMMGFSHA256Digest`: the same with SHA-256 digests,
     * OAEP's included. Every other suite is CXF's default loader's.
     */
    static final class PeerSuiteLoader implements AlgorithmSuiteLoader {
        static final String CUSTOM_NS = "http://cxf.apache.org/custom/security-policy";

        @Override
        public AlgorithmSuite getAlgorithmSuite(
                Bus bus, SPConstants.SPVersion version, Policy nested) {
            java.util.Iterator<List<Assertion>> alternatives = nested.getAlternatives();
            while (alternatives.hasNext()) {
                for (Assertion a : alternatives.next()) {
                    if (CUSTOM_NS.equals(a.getName().getNamespaceURI())
                        && PeerSuites.NAMES.contains(a.getName().getLocalPart())) {
                        return new PeerSuites(version, nested);
                    }
                }
            }
            return new DefaultAlgorithmSuiteLoader().getAlgorithmSuite(bus, version, nested);
        }
    }

    /** The suites {@link PeerSuiteLoader} adds to WSS4J's table of suites by name. */
    static final class PeerSuites extends AlgorithmSuite {
        static final Set<String> NAMES =
            Set.of("Basic128RsaSha512", "Basic256GCMMGFSHA256", "Basic256GCMMGFSHA256Digest");
        static final String SHA1 = "http://www.w3.org/2000/09/xmldsig#sha1";
        static final String SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
        static final String AES256_GCM = "http://www.w3.org/2009/xmlenc11#aes256-gcm";
        static final String RSA_OAEP_11 = "http://www.w3.org/2009/xmlenc11#rsa-oaep";
        static final String MGF1_SHA256 = "http://www.w3.org/2009/xmlenc11#mgf1sha256";

        /** AES-256-GCM with RSA-OAEP (MGF1-SHA-256) key transport, `digest` for signatures. */
        static AlgorithmSuiteType gcmMgfSha256(String name, String digest) {
            AlgorithmSuiteType t = new AlgorithmSuiteType(name, digest, AES256_GCM,
                SPConstants.KW_AES256, RSA_OAEP_11, SPConstants.P_SHA1_L256,
                SPConstants.P_SHA1_L192, 256, 192, 256, 256, 1024, 4096);
            t.setMGFAlgo(MGF1_SHA256);
            return t;
        }

        static {
            ALGORITHM_SUITE_TYPES.put("Basic256GCMMGFSHA256",
                gcmMgfSha256("Basic256GCMMGFSHA256", SHA1));
            AlgorithmSuiteType digest = gcmMgfSha256("Basic256GCMMGFSHA256Digest", SHA256);
            // OAEP's own digest too (WSS4J's encryption digest; SHA-1 otherwise).
            digest.setEncryptionDigest(SHA256);
            ALGORITHM_SUITE_TYPES.put("Basic256GCMMGFSHA256Digest", digest);
            AlgorithmSuiteType sha512 = new AlgorithmSuiteType("Basic128RsaSha512",
                "http://www.w3.org/2001/04/xmlenc#sha512", SPConstants.AES128,
                SPConstants.KW_AES128, SPConstants.KW_RSA_OAEP, SPConstants.P_SHA1_L128,
                SPConstants.P_SHA1_L128, 128, 128, 128, 128, 1024, 4096);
            sha512.setAsymmetricSignature("http://www.w3.org/2001/04/xmldsig-more#rsa-sha512");
            ALGORITHM_SUITE_TYPES.put("Basic128RsaSha512", sha512);
        }

        PeerSuites(SPConstants.SPVersion version, Policy nested) {
            super(version, nested);
        }

        @Override
        protected AbstractSecurityAssertion cloneAssertion(Policy nested) {
            return new PeerSuites(getVersion(), nested);
        }

        /** A suite of the custom namespace: WSS4J hands each such assertion here. */
        @Override
        protected void parseCustomAssertion(Assertion assertion) {
            String name = assertion.getName().getLocalPart();
            if (NAMES.contains(name)) {
                AlgorithmSuiteType type = new AlgorithmSuiteType(ALGORITHM_SUITE_TYPES.get(name));
                type.setNamespace(assertion.getName().getNamespaceURI());
                setAlgorithmSuiteType(type);
            }
        }
    }

    /**
     * The operation of any port: DoubleIt (the first numberToDouble of the payload, doubled) or,
     * for the WS-Security interop WSDLs' IPingService, echo (its request returned as echoResult
     * in an echoResponse of the request's namespace).
     */
    @WebServiceProvider
    @ServiceMode(Service.Mode.PAYLOAD)
    public static final class DoubleIt implements Provider<Source> {
        @jakarta.annotation.Resource
        WebServiceContext context;

        @Override
        public Source invoke(Source request) {
            Document in = toDocument(request);
            Element root = in.getDocumentElement();
            String xml;
            if ("PingRequest".equals(root.getLocalName())) {
                // The IPingService of WCF's WS-SecureConversation interop WSDLs: a PingRequest
                // wrapping a Ping (scenario, origin, text); the same three returned in a
                // PingResponse wrapping a PingResponse of the Ping namespace.
                String ping = "http://xmlsoap.org/Ping";
                StringBuilder b = new StringBuilder("<w:PingResponse xmlns:w=\""
                    + root.getNamespaceURI() + "\"><p:PingResponse xmlns:p=\"" + ping + "\">");
                for (String child : new String[] {"scenario", "origin", "text"}) {
                    NodeList c = root.getElementsByTagNameNS(ping, child);
                    String text = c.getLength() == 0 ? "" : c.item(0).getTextContent();
                    b.append("<p:").append(child).append('>')
                        .append(text.replace("&", "&amp;").replace("<", "&lt;"))
                        .append("</p:").append(child).append('>');
                }
                xml = b.append("</p:PingResponse></w:PingResponse>").toString();
            } else if ("echo".equals(root.getLocalName())) {
                NodeList r = root.getElementsByTagNameNS("*", "request");
                String text = r.getLength() == 0 ? "" : r.item(0).getTextContent();
                xml = "<ns2:echoResponse xmlns:ns2=\"" + root.getNamespaceURI() + "\"><echoResult>"
                    + text.replace("&", "&amp;").replace("<", "&lt;")
                    + "</echoResult></ns2:echoResponse>";
            } else {
                NodeList n = in.getElementsByTagNameNS("*", "numberToDouble");
                if (n.getLength() == 0) {
                    throw new WebServiceException("no numberToDouble in the request");
                }
                long value;
                try {
                    value = Long.parseLong(n.item(0).getTextContent().trim());
                } catch (NumberFormatException e) {
                    throw new WebServiceException("numberToDouble is not an integer", e);
                }
                if ("DoubleIt3".equals(root.getLocalName())) {
                    checkAttachments(value);
                }
                xml = "<ns2:DoubleItResponse xmlns:ns2=\"" + DOUBLEIT_NS + "\"><doubledNumber>"
                    + (2 * value) + "</doubledNumber></ns2:DoubleItResponse>";
            }
            try {
                DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
                f.setNamespaceAware(true);
                Document out = f.newDocumentBuilder()
                    .parse(new org.xml.sax.InputSource(new StringReader(xml)));
                return new DOMSource(out);
            } catch (Exception e) {
                throw new WebServiceException(e);
            }
        }

        /**
         * DoubleIt3 (the SwA WSDL's operation) is answered only if one of the request's
         * attachments, as CXF hands them to the service (verified and decrypted), starts with
         * numberToDouble's decimal text and a space: the test's proof that the bytes arrived
         * whole. (CXF's map may list the root part too, empty.)
         */
        void checkAttachments(long value) {
            Object found = context == null ? null
                : context.getMessageContext().get(MessageContext.INBOUND_MESSAGE_ATTACHMENTS);
            Map<?, ?> attachments = found instanceof Map<?, ?> m ? m : Map.of();
            byte[] expected = (value + " ").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            List<String> seen = new ArrayList<>();
            for (Map.Entry<?, ?> e : attachments.entrySet()) {
                byte[] data;
                try (InputStream in = ((jakarta.activation.DataHandler) e.getValue()).getInputStream()) {
                    data = in.readAllBytes();
                } catch (java.io.IOException ex) {
                    throw new WebServiceException("attachment " + e.getKey() + " unreadable", ex);
                }
                if (data.length >= expected.length && java.util.Arrays.equals(
                        data, 0, expected.length, expected, 0, expected.length)) {
                    return;
                }
                seen.add(e.getKey() + " (" + data.length + " bytes)");
            }
            throw new WebServiceException("no attachment starts with \"" + value + " \": " + seen);
        }
    }

    static Document toDocument(Source s) {
        try {
            DOMResult r = new DOMResult();
            TransformerFactory.newInstance().newTransformer().transform(s, r);
            Node node = r.getNode();
            return node instanceof Document ? (Document) node : node.getOwnerDocument();
        } catch (Exception e) {
            throw new WebServiceException("unreadable request payload", e);
        }
    }

    static Document parseFile(File f) throws Exception {
        DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
        dbf.setNamespaceAware(true);
        dbf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return dbf.newDocumentBuilder().parse(f);
    }

    static List<Element> children(Element parent, String ns, String local) {
        List<Element> out = new ArrayList<>();
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ns.equals(n.getNamespaceURI())
                && local.equals(n.getLocalName())) {
                out.add((Element) n);
            }
        }
        return out;
    }

    static String localPart(String qname) {
        int colon = qname.indexOf(':');
        return colon < 0 ? qname : qname.substring(colon + 1);
    }

    static X509Certificate readCert(String path) throws Exception {
        try (InputStream in = new FileInputStream(path)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** Exits when the parent process is gone (the test binary was killed). */
    static void watchParent() {
        ProcessHandle parent = ProcessHandle.current().parent().orElse(null);
        Thread t = new Thread(() -> {
            while (parent != null && parent.isAlive()) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
            System.exit(0);
        }, "parent-watch");
        t.setDaemon(true);
        t.start();
    }

    static void fail(String message) {
        System.err.println("cxf-peer: " + message);
        System.exit(2);
    }
}
