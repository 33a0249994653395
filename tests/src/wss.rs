//! Shared pieces of the WS-Security tests and benchmarks: the test PKI's certificates and
//! credentials as soapgen types ([`cert`], [`credential`]), the `Echo` request envelope a soapgen
//! client writes without sending it ([`request`], [`request_with`], [`text_envelope`]), the WSS4J
//! peer's key arguments ([`wss4j_keys`]) and the peer started as the Scenario 3 server
//! ([`wss4j_scenario3_server`]), a raw SOAP POST that bypasses soapgen's client
//! ([`post_raw`]), the namespace and algorithm URIs of hand-made messages ([`uri`]), the client
//! configuration of the inbound checks ([`client_wss`]) and a KeyInfo rewritten to carry the
//! certificate itself ([`str_as_x509data`]).
//!
//! ```no_run
//! use soapgen_runtime::wss::{WssConfig, X509Signer};
//! use soapgen_runtime::SoapVersion;
//! use soapgen_tests::wss::{credential, request};
//!
//! let wss = WssConfig::new().sign(X509Signer::new(credential("client")));
//! let xml = request(wss, SoapVersion::Soap11, "hello");
//! ```

use std::path::Path;

use std::time::Duration;

use soapgen_runtime::message::Request;
use soapgen_runtime::wss::{Certificate, TrustStore, WssConfig, X509Credential, X509Signer};
use soapgen_runtime::xml::{Name, XmlWriter};
use soapgen_runtime::{Client, EncodeError, Operation, SoapVersion};

use crate::peers::{self, Peer};
use crate::pki::test_pki;

/// Namespace and algorithm URIs that the WS-Security tests write into hand-made messages and
/// look for in soapgen's, spelled out here rather than taken from the runtime, so that a wrong
/// constant there cannot pass a test.
pub mod uri {
    /// SOAP 1.1 envelope.
    pub const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
    /// WSS 1.0 `wsse:` (secext).
    pub const WSSE: &str =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";
    /// WSS 1.0 `wsu:` (utility: Id, Timestamp).
    pub const WSU: &str =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd";
    /// XML-DSig `ds:`.
    pub const DS: &str = "http://www.w3.org/2000/09/xmldsig#";
    /// Exclusive XML Canonicalization 1.0.
    pub const EXC: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";
    /// X.509 Token Profile: an X.509 v3 certificate token.
    pub const X509V3: &str =
        "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";
    /// WSS: a token's base64 EncodingType.
    pub const B64: &str = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary";
    /// RSA PKCS#1 v1.5 with SHA-1 (XML-DSig).
    pub const RSA_SHA1: &str = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
    /// RSA PKCS#1 v1.5 with SHA-256 (RFC 6931 §2.3.2).
    pub const RSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
    /// ECDSA with SHA-256 (RFC 6931 §2.3.6).
    pub const ECDSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
    /// ECDSA with SHA-384 (RFC 6931 §2.3.6).
    pub const ECDSA_SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384";
    /// SHA-1 digest (XML-DSig).
    pub const SHA1: &str = "http://www.w3.org/2000/09/xmldsig#sha1";
    /// SHA-256 digest (XML-Enc).
    pub const SHA256: &str = "http://www.w3.org/2001/04/xmlenc#sha256";
    /// SHA-384 digest (RFC 6931 §2.1.3).
    pub const SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#sha384";
}

/// The client side of the inbound checks: a 300 s Timestamp, signing as the test PKI's `client`,
/// the test CA (`ca.pem`) trusted for the responses' signatures.
pub fn client_wss() -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
}

/// `xml` (a message soapgen signed, its signer in a `wsse:BinarySecurityToken`) with the
/// signature's `ds:KeyInfo` holding the token's certificate as `ds:X509Data/ds:X509Certificate`
/// instead of the SecurityTokenReference: the form verifiers without WSS token support (xmlsec1)
/// read. Panics if `xml` has no token or no KeyInfo.
pub fn str_as_x509data(xml: &str) -> String {
    let bst = xml
        .find("<wsse:BinarySecurityToken")
        .expect("a BinarySecurityToken");
    let start = bst + xml[bst..].find('>').expect("its start tag") + 1;
    let end = start + xml[start..].find('<').expect("its end tag");
    let ki = xml.find("<ds:KeyInfo").expect("a ds:KeyInfo");
    let ki_content = ki + xml[ki..].find('>').expect("its start tag") + 1;
    let ki_end = xml.find("</ds:KeyInfo>").expect("its end tag");
    format!(
        "{}<ds:X509Data><ds:X509Certificate>{}</ds:X509Certificate></ds:X509Data>{}",
        &xml[..ki_content],
        &xml[start..end],
        &xml[ki_end..]
    )
}

/// The namespace of the `Echo` operation of [`request`] (and of the WSS4J peer's service).
pub const ECHO_NS: &str = "urn:soapgen:wss";

/// The certificate of the test PKI's PEM file `name` (e.g. `"ca.pem"`, `"server.pem"`;
/// X.509 Token Profile 1.1 §3.1), named `name` in errors. Panics if it does not load.
pub fn cert(name: &str) -> Certificate {
    Certificate::from_pem(&test_pki().read(name), name)
        .unwrap_or_else(|e| panic!("test certificate {name}: {e}"))
}

/// The credential (certificate and private key) `who` of the test PKI: `{who}.pem` and
/// `{who}.key` (e.g. `"client"`, `"server"`, `"stranger"`). Panics if it does not load.
pub fn credential(who: &str) -> X509Credential {
    let pki = test_pki();
    X509Credential::from_pem(
        &pki.read(&format!("{who}.pem")),
        &pki.read(&format!("{who}.key")),
    )
    .unwrap_or_else(|e| panic!("test credential {who}: {e}"))
}

/// The `Echo` operation (action `urn:soapgen:wss#Echo`) in `version`.
pub const fn echo_operation(version: SoapVersion) -> Operation {
    Operation::new("Echo", "urn:soapgen:wss#Echo", version)
}

/// Writes `<{ns}name><{ns}text>text</{ns}text></{ns}name>` (`ns` declared by the caller).
///
/// # Errors
///
/// The writer's [`EncodeError`].
pub fn text_element(
    w: &mut XmlWriter,
    ns: &str,
    name: &str,
    text: &str,
) -> Result<(), EncodeError> {
    w.start_element(Name::new(ns, name))?;
    w.simple_element(Name::new(ns, "text"), text)?;
    w.end_element()
}

/// The request `<prefix:{name}><prefix:text>text</prefix:text></prefix:{name}>` as `client`
/// writes it, the first of `namespaces` (declared on the Envelope) the elements' `(prefix,
/// namespace)`. Panics if the client cannot write it.
pub fn text_request(
    client: &Client,
    namespaces: &'static [(&'static str, &'static str)],
    name: &str,
    text: &str,
) -> Request {
    let mut req = client.request(namespaces);
    text_element(req.body_writer(), namespaces[0].1, name, text).expect("body");
    req.finish().expect("finish")
}

/// The finished envelope `client` writes for `op` with the Body
/// `<prefix:{op.name}><prefix:text>text</prefix:text></prefix:{op.name}>` ([`text_request`]),
/// without sending it. Panics if the client cannot write it.
pub fn text_envelope(
    client: &Client,
    op: &Operation,
    namespaces: &'static [(&'static str, &'static str)],
    text: &str,
) -> String {
    let request = text_request(client, namespaces, op.name, text);
    client.message(op, &request).expect("envelope").envelope
}

/// A client for an unused address (`http://127.0.0.1:9/`) configured with `wss`, for writing
/// requests without sending them.
pub fn offline_client(wss: WssConfig) -> Client {
    Client::builder("http://127.0.0.1:9/")
        .wss(wss)
        .build()
        .expect("client")
}

/// The request envelope a client configured with `wss` writes for an `Echo` of `text` (namespace
/// [`ECHO_NS`], prefix `tns`), without sending it.
pub fn request(wss: WssConfig, version: SoapVersion, text: &str) -> String {
    request_with(wss, version, |w| text_element(w, ECHO_NS, "Echo", text))
}

/// The request envelope a client configured with `wss` writes for the `Echo` operation with the
/// Body content `body` writes ([`ECHO_NS`] declared as `tns`), without sending it.
pub fn request_with(
    wss: WssConfig,
    version: SoapVersion,
    body: impl FnOnce(&mut XmlWriter) -> Result<(), EncodeError>,
) -> String {
    let client = offline_client(wss);
    let mut req = client.request(&[("tns", ECHO_NS)]);
    body(req.body_writer()).expect("body");
    let request = req.finish().expect("finish");
    client
        .message(&echo_operation(version), &request)
        .expect("envelope")
        .envelope
}

/// A path as `&str` (the test PKI's paths are UTF-8).
pub fn path_str(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The password of the test PKI's PKCS#12 stores (see [`crate::pki`]).
pub const STOREPASS: &str = "changeit";

/// The WSS4J peer's crypto arguments (for [`peers::wss4j`], [`peers::wss4j_make_request`],
/// [`peers::wss4j_process`]): the test PKI's PKCS#12 store `{alias}.p12` holding the key of
/// `alias`, and the trust anchor file `ca` of the test PKI (e.g. `"ca.pem"`):
/// `--keystore <dir>/{alias}.p12 --storepass changeit --alias {alias} --ca <dir>/{ca}`.
/// Borrow them with [`strs`].
pub fn wss4j_keys(alias: &str, ca: &str) -> Vec<String> {
    let pki = test_pki();
    vec![
        "--keystore".into(),
        path_str(&pki.path(&format!("{alias}.p12"))).into(),
        "--storepass".into(),
        STOREPASS.into(),
        "--alias".into(),
        alias.into(),
        "--ca".into(),
        path_str(&pki.path(ca)).into(),
    ]
}

/// `args` as `&str`s, for the peers' `&[&str]` arguments.
pub fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The WSS4J peer as the Scenario 3 server: its own key in `server.p12` (see [`wss4j_keys`]) to
/// sign replies and decrypt requests, replies encrypted for `client.pem`, the test CA (`ca.pem`)
/// its signature trust anchor; `extra` arguments appended. See [`peers::wss4j`].
pub fn wss4j_scenario3_server(extra: &[&str]) -> Peer {
    let mut args = wss4j_keys("server", "ca.pem");
    args.push("--encrypt-for".into());
    args.push(path_str(&test_pki().path("client.pem")).into());
    let mut args = strs(&args);
    args.extend_from_slice(extra);
    peers::wss4j(&args)
}

/// POSTs `body` to `path` on `peer` over one HTTP/1.1 connection (`Connection: close`) as a SOAP
/// 1.1 request (`text/xml`, SOAPAction `urn:soapgen:wss#Echo`; SOAP 1.1 §6.1.1) or a SOAP 1.2 one
/// (`application/soap+xml`; SOAP 1.2 Part 2 §7), bypassing soapgen's client: the HTTP status
/// and the response body. Panics if the exchange fails or the answer is not HTTP.
pub fn post_raw(peer: &Peer, path: &str, version: SoapVersion, body: &[u8]) -> (u16, String) {
    let content_type = match version {
        SoapVersion::Soap11 => "text/xml; charset=utf-8",
        SoapVersion::Soap12 => "application/soap+xml; charset=utf-8",
    };
    let mut headers = vec![("Content-Type", content_type)];
    if version == SoapVersion::Soap11 {
        headers.push(("SOAPAction", "\"urn:soapgen:wss#Echo\""));
    }
    let resp = crate::http::post(peer, path, &headers, body);
    (
        resp.status,
        String::from_utf8_lossy(&resp.body).into_owned(),
    )
}
