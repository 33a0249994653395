// WS-Security peer for soapgen's interop tests: Apache WSS4J 1.6.19 (Debian's libwss4j-java, with
// Santuario 2.1.7) behind the JDK's own HTTP server, plus three command-line modes.
//
// Server mode (default):
//   java -cp <classes>:<jars> Wss4jPeer --port 0 [--exit-with-parent] [--user NAME:PASSWORD]...
//        [--ca ca.pem] [--cert known.pem]... [--keystore server.p12 --storepass changeit --alias server]
//        [--encrypt-for client.pem] [--reply-user NAME:PASSWORD]
//
// Prints "LISTENING <port>" once bound. Every POST is a SOAP 1.1 or 1.2 request whose wsse:Security
// header is processed by WSSecurityEngine.processSecurityHeader with a password callback that knows
// the --user pairs (and the --alias key's --storepass) and, with --ca or --keystore, a Merlin crypto:
// trust store = the --ca certificate (signatures are then verified and their certificate checked
// against it), key store = the --keystore PKCS#12 store (its key decrypts requests and signs
// responses) plus each --cert (for signatures that identify their certificate by a KeyIdentifier
// instead of sending it). Nothing is lenient on top of WSS4J's own defaults: a Timestamp is checked
// (strict, future TTL 60 s), a UsernameToken is authenticated.
//
// Reply: a fault (HTTP 500, faultcode = WSS4J's, faultstring = its message) if processing failed or
// there was no Security header; otherwise, for the first child <X> of the (decrypted) request Body,
// <XResponse><XResult> with
//   <text>       the request's <text> element, echoed
//   <actions>    what WSS4J processed, in order: "TS", "BST", "UT", "SIGN", "ENC" (comma separated)
//   <user>       the UsernameToken's user, <passwordType> its Type ("PasswordDigest" / "PasswordText")
//   <signed>     for a signature: the local names of the signed elements (comma separated)
//   <signer>     for a signature: the certificate's subject DN
//   <encrypted>  for decryption: the local names of the decrypted elements (comma separated)
// all in the request's namespace, qualified. The path chooses the reply's own Security header
// (see secure()): /echo a WSS4J Timestamp (TTL 300 s); /no-timestamp none; /expired a Timestamp
// created 600 s ago that expired 300 s ago; /future one created an hour from now;
// /ut-digest-reply a Timestamp and a UsernameToken PasswordDigest (Nonce, Created) of --reply-user;
// /scenario3/<alg>[?sig=rsa-sha1|rsa-sha256&kt=oaep|rsa15&order=sign-encrypt|encrypt-sign] the
// WSS "Scenario 3" shape: Timestamp, a signature of Body + Timestamp with the --alias key (its
// certificate in a BinarySecurityToken, DirectReference; RSA-SHA1/SHA-1 by default, RSA-SHA256/
// SHA-256 with sig=rsa-sha256), and the Body content encrypted with <alg> (aes128-cbc, aes256-cbc,
// 3des, aes128-gcm, aes256-gcm) under a key transported (RSA-OAEP by default, RSA-1_5 with kt=rsa15)
// to --encrypt-for, which is identified by its SubjectKeyIdentifier; signed then encrypted by
// default, encrypted then signed with order=encrypt-sign. A request to /scenario3/* must itself have
// its Body signed and its Body encrypted (checked on WSS4J's results, by element, since WSS4J does
// not insist), or the reply is a fault.
//
// --make-request <profile> [--text T] [--ns URI] [--soap12] + the key options above: prints to stdout
//   the bytes of a request <Echo><text>T</text></Echo> (namespace --ns, default urn:soapgen:wss)
//   secured by WSS4J as the server would secure a reply to path /<profile>: scenario3/<alg>[?...]
//   as above (signed with --alias, encrypted for --encrypt-for), ut-digest (Timestamp + UsernameToken
//   PasswordDigest of --reply-user, or of the first --user), echo (Timestamp only), and
//   signed/<token>[?confirm=<base64>] (make-request only): a Timestamp and a signature of Body +
//   Timestamp (RSA-SHA256/SHA-256) with the --alias key, its certificate in a BinarySecurityToken
//   (DirectReference): token x509 the certificate alone (X509v3), pkipath the key store's whole
//   chain for the alias (X509PKIPathv1); with confirm=, also a WSS 1.1 SignatureConfirmation
//   (§8.5) of that SignatureValue, signed too ("none" for one without a Value). As a server path,
//   /signed/<token>?confirm=request confirms what WSS4J verified, as WSS4J's handler does with
//   ENABLE_SIGNATURE_CONFIRMATION: one SignatureConfirmation per SignatureValue of the request
//   (one without a Value when the request had none); &confirm-signed=no leaves the
//   confirmations out of the signature.
// --process [<path>] + the key options: reads a message from stdin, processes its Security header as
//   the server does (and, for a path /scenario3/*, checks the same requirements), and prints
//   name=value lines: actions, user, passwordType, signed, signer, encrypted, text (the first <text>
//   element in the processed Body). Exit status 1 with "FAULT <message>" on stderr when WSS4J (or
//   the /scenario3 check) refused it.
// --bench <millis-per-case> + the key options (the --keystore key must be able to decrypt what is
//   encrypted for --encrypt-for): see bench().
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
import java.util.Arrays;
import java.util.Base64;
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
import org.apache.ws.security.WSEncryptionPart;
import org.apache.ws.security.WSPasswordCallback;
import org.apache.ws.security.WSSConfig;
import org.apache.ws.security.WSSecurityEngine;
import org.apache.ws.security.WSSecurityEngineResult;
import org.apache.ws.security.WSSecurityException;
import org.apache.ws.security.WSUsernameTokenPrincipal;
import org.apache.ws.security.components.crypto.Crypto;
import org.apache.ws.security.components.crypto.Merlin;
import org.apache.ws.security.message.WSSecEncrypt;
import org.apache.ws.security.message.WSSecHeader;
import org.apache.ws.security.message.WSSecSignature;
import org.apache.ws.security.message.WSSecSignatureConfirmation;
import org.apache.ws.security.message.WSSecTimestamp;
import org.apache.ws.security.message.WSSecUsernameToken;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

public final class Wss4jPeer {
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    private static final String WSU =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    private static final String XMLNS = "http://www.w3.org/2000/xmlns/";
    private static final String RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";

    private static final Map<String, String> USERS = new HashMap<>();
    /** Merlin: trust store = --ca, key store = --keystore (+ --cert); null without both. */
    private static Crypto crypto;
    /** The --keystore key: its alias and password (signs, decrypts). */
    private static String keyAlias;
    private static String keyPass = "";
    /** The certificate replies (or --make-request requests) are encrypted for. */
    private static X509Certificate encryptFor;
    /** The UsernameToken a reply (or a --make-request request) carries. */
    private static String utUser;
    private static String utPass;

    /** A request refused by the peer's own policy on top of WSS4J (a fault, like WSS4J's). */
    static final class PolicyException extends Exception {
        PolicyException(String message) { super(message); }
    }

    /** What processSecurityHeader verified. */
    static final class Verified {
        final List<String> actions = new ArrayList<>();
        String user = "", pwType = "", signer = "";
        final List<String> signed = new ArrayList<>();
        final List<String> encrypted = new ArrayList<>();
        final List<Element> signedElements = new ArrayList<>();
        final List<Element> encryptedElements = new ArrayList<>();
        final List<byte[]> signatureValues = new ArrayList<>();
    }

    public static void main(String[] args) throws Exception {
        int port = 0;
        boolean exitWithParent = false;
        String ca = null, keystore = null, storepass = "", encryptForPath = null;
        String mode = "serve", modeArg = null, text = "hello", ns = "urn:soapgen:wss";
        boolean soap12 = false;
        List<String> known = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port": port = Integer.parseInt(args[++i]); break;
                case "--exit-with-parent": exitWithParent = true; break;
                case "--user": {
                    String[] u = pair(args[++i]);
                    USERS.put(u[0], u[1]);
                    if (utUser == null) { utUser = u[0]; utPass = u[1]; }
                    break;
                }
                case "--reply-user": {
                    String[] u = pair(args[++i]);
                    utUser = u[0];
                    utPass = u[1];
                    break;
                }
                case "--ca": ca = args[++i]; break;
                case "--cert": known.add(args[++i]); break;
                case "--keystore": keystore = args[++i]; break;
                case "--storepass": storepass = args[++i]; break;
                case "--alias": keyAlias = args[++i]; break;
                case "--encrypt-for": encryptForPath = args[++i]; break;
                case "--make-request": mode = "make-request"; modeArg = args[++i]; break;
                case "--process":
                    mode = "process";
                    if (i + 1 < args.length && !args[i + 1].startsWith("--")) { modeArg = args[++i]; }
                    break;
                case "--bench": mode = "bench"; modeArg = args[++i]; break;
                case "--text": text = args[++i]; break;
                case "--ns": ns = args[++i]; break;
                case "--soap12": soap12 = true; break;
                default:
                    System.err.println("unknown argument " + args[i]);
                    System.exit(2);
            }
        }
        keyPass = storepass;
        WSSConfig.init();
        if (encryptForPath != null) {
            encryptFor = readCert(encryptForPath);
        }
        if (ca != null || keystore != null) {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            if (ca != null) {
                trust.setCertificateEntry("ca", readCert(ca));
            }
            KeyStore keys = trust;
            if (keystore != null) {
                keys = KeyStore.getInstance("PKCS12");
                try (InputStream in = new FileInputStream(keystore)) {
                    keys.load(in, storepass.toCharArray());
                }
                if (keyAlias == null) {
                    keyAlias = keys.aliases().nextElement();
                }
            }
            for (int k = 0; k < known.size(); k++) {
                keys.setCertificateEntry("known" + k, readCert(known.get(k)));
            }
            Merlin merlin = new Merlin();
            merlin.setTrustStore(trust);
            merlin.setKeyStore(keys);
            crypto = merlin;
        }
        switch (mode) {
            case "make-request": {
                Document d = echoRequest(soap12 ? SOAP12 : SOAP11, ns, text);
                String[] pq = splitQuery(modeArg);
                secure(d, d.getDocumentElement().getNamespaceURI(), "/" + pq[0], query(pq[1]));
                System.out.write(serialize(d));
                System.out.flush();
                return;
            }
            case "process": {
                Document d = parse(System.in.readAllBytes());
                String soapNs = d.getDocumentElement().getNamespaceURI();
                try {
                    Verified v = verify(d, soapNs);
                    if (modeArg != null) {
                        requireFor(modeArg, d, soapNs, v);
                    }
                    System.out.println("actions=" + String.join(",", v.actions));
                    System.out.println("user=" + v.user);
                    System.out.println("passwordType=" + v.pwType);
                    System.out.println("signed=" + String.join(",", v.signed));
                    System.out.println("signer=" + v.signer);
                    System.out.println("encrypted=" + String.join(",", v.encrypted));
                    System.out.println("text=" + requestText(d, soapNs));
                } catch (WSSecurityException | PolicyException e) {
                    System.err.println("FAULT " + e.getMessage());
                    System.exit(1);
                }
                return;
            }
            case "bench":
                bench(Long.parseLong(modeArg));
                return;
            default:
                break;
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

    private static String[] pair(String s) {
        int c = s.indexOf(':');
        if (c < 0) {
            throw new IllegalArgumentException("expected NAME:PASSWORD, got " + s);
        }
        return new String[] {s.substring(0, c), s.substring(c + 1)};
    }

    private static X509Certificate readCert(String path) throws Exception {
        try (InputStream in = new FileInputStream(path)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    /** "a/b?x=y" -> {"a/b", "x=y"}; no '?' -> {s, ""}. */
    private static String[] splitQuery(String s) {
        int q = s.indexOf('?');
        return q < 0 ? new String[] {s, ""} : new String[] {s.substring(0, q), s.substring(q + 1)};
    }

    private static Map<String, String> query(String q) {
        Map<String, String> m = new HashMap<>();
        if (q == null || q.isEmpty()) {
            return m;
        }
        for (String kv : q.split("&")) {
            int e = kv.indexOf('=');
            if (e < 0) {
                m.put(kv, "");
            } else {
                // Percent-decoded ('+' kept: a base64 value may hold one).
                m.put(kv.substring(0, e), java.net.URLDecoder.decode(
                    kv.substring(e + 1).replace("+", "%2B"), StandardCharsets.UTF_8));
            }
        }
        return m;
    }

    private static Document echoRequest(String soapNs, String ns, String text) throws Exception {
        Document d = parse(("<e:Envelope xmlns:e=\"" + soapNs + "\"><e:Body/></e:Envelope>")
            .getBytes(StandardCharsets.UTF_8));
        Element body = firstChild(d.getDocumentElement(), soapNs, "Body");
        Element echo = d.createElementNS(ns, "w:Echo");
        // Declared explicitly: encryption serializes the Body content on its own, without the
        // namespace fix-up of the final serialization.
        echo.setAttributeNS(XMLNS, "xmlns:w", ns);
        Element t = d.createElementNS(ns, "w:text");
        t.setTextContent(text);
        echo.appendChild(t);
        body.appendChild(echo);
        return d;
    }

    private static void handle(HttpExchange ex) {
        try {
            byte[] body = ex.getRequestBody().readAllBytes();
            String path = ex.getRequestURI().getPath();
            Map<String, String> q = query(ex.getRequestURI().getRawQuery());
            byte[] reply;
            int status = 200;
            String soapNs = SOAP11;
            try {
                Document doc = parse(body);
                soapNs = doc.getDocumentElement().getNamespaceURI();
                reply = process(doc, soapNs, path, q);
            } catch (WSSecurityException e) {
                status = 500;
                String code = e.getFaultCode() == null ? "Security" : e.getFaultCode().getLocalPart();
                reply = fault(soapNs, code, e.getMessage());
                System.err.println("wss4j-peer: rejected: " + e.getMessage());
            } catch (PolicyException e) {
                status = 500;
                reply = fault(soapNs, "InvalidSecurity", e.getMessage());
                System.err.println("wss4j-peer: rejected: " + e.getMessage());
            } catch (Exception e) {
                status = 500;
                reply = fault(soapNs, "Error", e.toString());
                System.err.println("wss4j-peer: error: " + e);
                e.printStackTrace();
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

    private static CallbackHandler callbacks() {
        return (Callback[] cbs) -> {
            for (Callback c : cbs) {
                if (c instanceof WSPasswordCallback) {
                    WSPasswordCallback pc = (WSPasswordCallback) c;
                    String pw = USERS.get(pc.getIdentifier());
                    if (pw == null && keyAlias != null && keyAlias.equals(pc.getIdentifier())) {
                        pw = keyPass;
                    }
                    if (pw != null) {
                        pc.setPassword(pw);
                    }
                }
            }
        };
    }

    /** processSecurityHeader (decrypting with the --keystore key) and what it reported. */
    private static Verified verify(Document doc, String soapNs) throws Exception {
        WSSecurityEngine engine = new WSSecurityEngine();
        WSSConfig config = WSSConfig.getNewInstance();
        engine.setWssConfig(config);
        List<WSSecurityEngineResult> results =
            engine.processSecurityHeader(doc, null, callbacks(), crypto, crypto);
        if (results == null || results.isEmpty()) {
            throw new WSSecurityException("the request has no wsse:Security header");
        }
        Verified v = new Verified();
        // WSS4J returns results last-processed first.
        for (int i = results.size() - 1; i >= 0; i--) {
            WSSecurityEngineResult r = results.get(i);
            int action = (Integer) r.get(WSSecurityEngineResult.TAG_ACTION);
            @SuppressWarnings("unchecked")
            List<WSDataRef> refs = (List<WSDataRef>) r.get(WSSecurityEngineResult.TAG_DATA_REF_URIS);
            if (action == WSConstants.UT || action == WSConstants.UT_NOPASSWORD) {
                v.actions.add("UT");
                WSUsernameTokenPrincipal p =
                    (WSUsernameTokenPrincipal) r.get(WSSecurityEngineResult.TAG_PRINCIPAL);
                v.user = p.getName();
                String t = p.getPasswordType();
                v.pwType = t == null ? "" : t.substring(t.indexOf('#') + 1);
            } else if (action == WSConstants.TS) {
                v.actions.add("TS");
            } else if (action == WSConstants.BST) {
                v.actions.add("BST");
            } else if (action == WSConstants.SIGN) {
                v.actions.add("SIGN");
                byte[] sv = (byte[]) r.get(WSSecurityEngineResult.TAG_SIGNATURE_VALUE);
                if (sv != null) {
                    v.signatureValues.add(sv);
                }
                X509Certificate cert =
                    (X509Certificate) r.get(WSSecurityEngineResult.TAG_X509_CERTIFICATE);
                if (cert != null) {
                    v.signer = cert.getSubjectX500Principal().getName();
                }
                if (refs != null) {
                    for (WSDataRef ref : refs) {
                        v.signed.add(ref.getName().getLocalPart());
                        v.signedElements.add(ref.getProtectedElement());
                    }
                }
            } else if (action == WSConstants.ENCR) {
                v.actions.add("ENC");
                if (refs != null) {
                    for (WSDataRef ref : refs) {
                        v.encrypted.add(ref.getName().getLocalPart());
                        v.encryptedElements.add(ref.getProtectedElement());
                    }
                }
            } else {
                v.actions.add("action-" + action);
            }
        }
        return v;
    }

    /**
     * The peer's own policy for a path: /scenario3/* requests must have had their Body signed and
     * their Body (content) encrypted -- by element, not by name: WSS4J reports what it verified
     * and decrypted but does not insist on anything.
     */
    private static void requireFor(String path, Document doc, String soapNs, Verified v)
            throws PolicyException {
        String mode = path.replaceAll("^/+", "").split("/", 2)[0];
        if (!mode.equals("scenario3")) {
            return;
        }
        Element body = firstChild(doc.getDocumentElement(), soapNs, "Body");
        boolean signedBody = false, encryptedBody = false;
        for (Element e : v.signedElements) {
            signedBody |= e != null && e == body;
        }
        for (Element e : v.encryptedElements) {
            // Content encryption reports the Body, element encryption of its child that child.
            encryptedBody |= e != null && (e == body || e.getParentNode() == body);
        }
        if (!signedBody) {
            throw new PolicyException("scenario3: the request's Body is not signed");
        }
        if (!encryptedBody) {
            throw new PolicyException("scenario3: the request's Body is not encrypted");
        }
    }

    private static String requestText(Document doc, String soapNs) {
        Element body = firstChild(doc.getDocumentElement(), soapNs, "Body");
        Element op = body == null ? null : firstElement(body.getFirstChild());
        if (op == null) {
            return "";
        }
        // <Echo><text> in a request, <EchoResponse><EchoResult><text> in a reply.
        Node t = op.getElementsByTagNameNS("*", "text").item(0);
        return t == null ? "" : t.getTextContent();
    }

    private static byte[] process(Document doc, String soapNs, String path, Map<String, String> q)
            throws Exception {
        Verified v = verify(doc, soapNs);
        requireFor(path, doc, soapNs, v);

        Element body = firstChild(doc.getDocumentElement(), soapNs, "Body");
        Element op = body == null ? null : firstElement(body.getFirstChild());
        if (op == null) {
            throw new Exception("no operation element in the Body");
        }
        String ns = op.getNamespaceURI() == null ? "" : op.getNamespaceURI();
        String text = requestText(doc, soapNs);

        Document out = parse(("<e:Envelope xmlns:e=\"" + soapNs + "\"><e:Body/></e:Envelope>")
            .getBytes(StandardCharsets.UTF_8));
        Element outBody = firstChild(out.getDocumentElement(), soapNs, "Body");
        String name = op.getLocalName();
        Element resp = out.createElementNS(ns, "r:" + name + "Response");
        resp.setAttributeNS(XMLNS, "xmlns:r", ns);
        Element result = out.createElementNS(ns, "r:" + name + "Result");
        resp.appendChild(result);
        outBody.appendChild(resp);
        add(out, result, ns, "text", text);
        add(out, result, ns, "actions", String.join(",", v.actions));
        add(out, result, ns, "user", v.user);
        add(out, result, ns, "passwordType", v.pwType);
        add(out, result, ns, "signed", String.join(",", v.signed));
        add(out, result, ns, "signer", v.signer);
        add(out, result, ns, "encrypted", String.join(",", v.encrypted));

        secure(out, soapNs, path, q, v.signatureValues);
        return serialize(out);
    }

    /**
     * Adds the Security header that `path` names (see the file comment) to `doc`; used for replies
     * and for --make-request requests alike.
     */
    private static void secure(Document doc, String soapNs, String path, Map<String, String> q)
            throws Exception {
        secure(doc, soapNs, path, q, new ArrayList<>());
    }

    /** As above; `requestValues` are the SignatureValues of the request being answered. */
    private static void secure(Document doc, String soapNs, String path, Map<String, String> q,
            List<byte[]> requestValues) throws Exception {
        String[] segs = path.replaceAll("^/+", "").split("/", 3);
        String mode = segs[0];
        if (mode.equals("no-timestamp")) {
            return;
        }
        WSSecHeader secHeader = new WSSecHeader();
        secHeader.setMustUnderstand(true);
        secHeader.insertSecurityHeader(doc);
        if (mode.equals("ut-digest-reply") || mode.equals("ut-digest")) {
            if (utUser == null) {
                throw new Exception(mode + " needs --reply-user NAME:PASSWORD");
            }
            WSSecUsernameToken ut = new WSSecUsernameToken();
            ut.setPasswordType(WSConstants.PASSWORD_DIGEST);
            ut.setUserInfo(utUser, utPass);
            ut.addNonce();
            ut.addCreated();
            ut.build(doc, secHeader);
        }
        WSSecTimestamp ts = new WSSecTimestamp();
        ts.setTimeToLive(300);
        ts.build(doc, secHeader);
        long now = System.currentTimeMillis();
        if (mode.equals("expired")) {
            setTimes(ts.getElement(), now - 600_000, now - 300_000);
        } else if (mode.equals("future")) {
            setTimes(ts.getElement(), now + 3_600_000, now + 3_900_000);
        }
        if (mode.equals("signed")) {
            signed(doc, soapNs, secHeader, segs.length > 1 ? segs[1] : "x509", q.get("confirm"),
                !"no".equals(q.get("confirm-signed")), requestValues);
            return;
        }
        if (!mode.equals("scenario3")) {
            return;
        }
        if (segs.length < 2) {
            throw new Exception("scenario3 needs an algorithm: /scenario3/<alg>");
        }
        if (crypto == null || keyAlias == null || encryptFor == null) {
            throw new Exception("scenario3 needs --keystore, --alias and --encrypt-for");
        }
        String sym;
        switch (segs[1]) {
            case "aes128-cbc": sym = WSConstants.AES_128; break;
            case "aes256-cbc": sym = WSConstants.AES_256; break;
            case "3des": sym = WSConstants.TRIPLE_DES; break;
            case "aes128-gcm": sym = WSConstants.AES_128_GCM; break;
            case "aes256-gcm": sym = WSConstants.AES_256_GCM; break;
            default: throw new Exception("unknown scenario3 algorithm " + segs[1]);
        }
        String sig = q.getOrDefault("sig", "rsa-sha1");
        String kt = q.getOrDefault("kt", "oaep");
        String order = q.getOrDefault("order", "sign-encrypt");
        if (!sig.equals("rsa-sha1") && !sig.equals("rsa-sha256")) {
            throw new Exception("unknown sig=" + sig);
        }
        if (!kt.equals("oaep") && !kt.equals("rsa15")) {
            throw new Exception("unknown kt=" + kt);
        }
        if (order.equals("sign-encrypt")) {
            sign(doc, soapNs, secHeader, sig);
            encrypt(doc, soapNs, secHeader, sym, kt);
        } else if (order.equals("encrypt-sign")) {
            encrypt(doc, soapNs, secHeader, sym, kt);
            sign(doc, soapNs, secHeader, sig);
        } else {
            throw new Exception("unknown order=" + order);
        }
    }

    private static void sign(Document doc, String soapNs, WSSecHeader secHeader, String sig)
            throws Exception {
        WSSecSignature s = new WSSecSignature();
        s.setUserInfo(keyAlias, keyPass);
        s.setKeyIdentifierType(WSConstants.BST_DIRECT_REFERENCE);
        if (sig.equals("rsa-sha256")) {
            s.setSignatureAlgorithm(RSA_SHA256);
            s.setDigestAlgo(WSConstants.SHA256);
        }
        List<WSEncryptionPart> parts = new ArrayList<>();
        parts.add(new WSEncryptionPart("Body", soapNs, ""));
        parts.add(new WSEncryptionPart("Timestamp", WSU, ""));
        s.setParts(parts);
        s.build(doc, crypto, secHeader);
    }

    /** The signed/<token> profile (see the file comment). */
    private static void signed(Document doc, String soapNs, WSSecHeader secHeader, String token,
            String confirm, boolean signConfirmations, List<byte[]> requestValues)
            throws Exception {
        if (crypto == null || keyAlias == null) {
            throw new Exception("signed/<token> needs --keystore and --alias");
        }
        if (!token.equals("x509") && !token.equals("pkipath")) {
            throw new Exception("unknown token " + token + " (x509 or pkipath)");
        }
        List<WSEncryptionPart> parts = new ArrayList<>();
        parts.add(new WSEncryptionPart("Body", soapNs, ""));
        parts.add(new WSEncryptionPart("Timestamp", WSU, ""));
        List<byte[]> values = new ArrayList<>();
        if (confirm == null) {
            // no confirmation
        } else if (confirm.equals("request")) {
            values.addAll(requestValues);
            if (values.isEmpty()) {
                values.add(null);
            }
        } else {
            values.add(confirm.equals("none") ? null : Base64.getDecoder().decode(confirm));
        }
        for (byte[] value : values) {
            WSSecSignatureConfirmation sc = new WSSecSignatureConfirmation();
            sc.build(doc, value, secHeader);
            if (signConfirmations) {
                parts.add(new WSEncryptionPart(sc.getId()));
            }
        }
        WSSecSignature s = new WSSecSignature();
        s.setUserInfo(keyAlias, keyPass);
        s.setKeyIdentifierType(WSConstants.BST_DIRECT_REFERENCE);
        s.setUseSingleCertificate(token.equals("x509"));
        s.setSignatureAlgorithm(RSA_SHA256);
        s.setDigestAlgo(WSConstants.SHA256);
        s.setParts(parts);
        s.build(doc, crypto, secHeader);
    }

    private static void encrypt(Document doc, String soapNs, WSSecHeader secHeader, String sym,
            String kt) throws Exception {
        WSSecEncrypt e = new WSSecEncrypt();
        e.setUseThisCert(encryptFor);
        e.setKeyIdentifierType(WSConstants.SKI_KEY_IDENTIFIER);
        e.setSymmetricEncAlgorithm(sym);
        e.setKeyEnc(kt.equals("rsa15") ? WSConstants.KEYTRANSPORT_RSA15 : WSConstants.KEYTRANSPORT_RSAOEP);
        List<WSEncryptionPart> parts = new ArrayList<>();
        parts.add(new WSEncryptionPart("Body", soapNs, "Content"));
        e.setParts(parts);
        e.build(doc, crypto, secHeader);
    }

    // --------------------------------------------------------------------------------------------
    // Benchmark
    //
    // In-process, one thread. Cases (printed as "BENCH <case> <median nanoseconds>"):
    //   s3-build-<size>    parse the unsecured request envelope (Body = <w:Echo xmlns:w="urn:bench">
    //                      <w:text> + <size> ASCII bytes 'a'..'z' + </w:text></w:Echo>, SOAP 1.1) into a
    //                      DOM, add Timestamp (300 s), sign Body + Timestamp (RSA-SHA1, SHA-1, exclusive
    //                      C14N, BST DirectReference, the --keystore key), encrypt the Body content
    //                      (AES-128-CBC, key by RSA-OAEP for --encrypt-for, SKI), serialize to bytes;
    //   s3-process-<size>  parse those bytes into a DOM and processSecurityHeader them (decrypt with the
    //                      --keystore key, verify the signature and the signer's chain to --ca, check
    //                      the Timestamp) plus this peer's Scenario-3 check that Body was signed and
    //                      encrypted;
    //   ...-gcm-...        the same with AES-256-GCM instead of AES-128-CBC.
    // <size> = 1k (1024 bytes of text) and 100k (102400 bytes). Each case first runs for <millis> as
    // JIT warm-up (all cases are warmed up before the first is timed), then is timed per iteration
    // for <millis> more (at least 5 iterations); the median is printed.
    // --------------------------------------------------------------------------------------------

    private static String benchEnvelope(int size) {
        StringBuilder b = new StringBuilder(size + 256);
        b.append("<soapenv:Envelope xmlns:soapenv=\"").append(SOAP11).append("\"><soapenv:Body>")
            .append("<w:Echo xmlns:w=\"urn:bench\"><w:text>");
        for (int i = 0; i < size; i++) {
            b.append((char) ('a' + i % 26));
        }
        b.append("</w:text></w:Echo></soapenv:Body></soapenv:Envelope>");
        return b.toString();
    }

    interface Case {
        void run() throws Exception;
    }

    private static void runFor(long millis, Case c) throws Exception {
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            c.run();
        }
    }

    private static long median(long millis, Case c) throws Exception {
        List<Long> times = new ArrayList<>();
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end || times.size() < 5) {
            long t0 = System.nanoTime();
            c.run();
            times.add(System.nanoTime() - t0);
        }
        long[] a = times.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a[a.length / 2];
    }

    private static void bench(long millis) throws Exception {
        if (crypto == null || keyAlias == null || encryptFor == null) {
            throw new Exception("--bench needs --keystore, --alias, --encrypt-for and --ca");
        }
        String[][] algs = {{"", "aes128-cbc"}, {"-gcm", "aes256-gcm"}};
        int[] sizes = {1024, 102400};
        List<String> names = new ArrayList<>();
        List<Case> cases = new ArrayList<>();
        for (String[] alg : algs) {
            for (int size : sizes) {
                String label = (size / 1024) + "k";
                byte[] plain = benchEnvelope(size).getBytes(StandardCharsets.UTF_8);
                String profile = "/scenario3/" + alg[1];
                Map<String, String> q = new HashMap<>();
                Case build = () -> {
                    Document d = parse(plain);
                    secure(d, SOAP11, profile, q);
                    serialize(d);
                };
                Document d = parse(plain);
                secure(d, SOAP11, profile, q);
                byte[] secured = serialize(d);
                Case process = () -> {
                    Document m = parse(secured);
                    Verified v = verify(m, SOAP11);
                    requireFor(profile, m, SOAP11, v);
                };
                names.add("s3" + alg[0] + "-build-" + label);
                cases.add(build);
                names.add("s3" + alg[0] + "-process-" + label);
                cases.add(process);
            }
        }
        // Warm every case up first (the JIT compiles shared code once), then time each.
        for (Case c : cases) {
            runFor(millis, c);
        }
        for (int k = 0; k < cases.size(); k++) {
            System.out.println("BENCH " + names.get(k) + " " + median(millis, cases.get(k)));
            System.out.flush();
        }
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
