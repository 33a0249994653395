//! WS-Security interop with gSOAP 2.8's own wsse plugin (`wsseapi.c` on OpenSSL), the peer in
//! `tests/peers/gsoap/wsse/` ([`peers::gsoap_wsse`]).
//!
//! * `gsoap_wsse_peer_self_check`: gSOAP's client against gSOAP's server, no soapgen involved, so
//!   that the peer is known to verify, decrypt, sign and encrypt (every block cipher, both key
//!   transports) before soapgen is judged by it; and that its checks can fail.
//! * soapgen's signed requests (WSS 1.1 §8, X.509 Token Profile 1.1 BinarySecurityToken with a
//!   DirectReference; RSA-SHA256 with SHA-256 and with SHA-1 digests) are accepted at `/sign`;
//!   unsigned, tampered, untrusted and expired requests are refused with a fault; gSOAP's signed
//!   responses are verified by soapgen's default policy (a signing client requires a signed Body
//!   and Timestamp from a certificate its TrustStore trusts).
//! * `gsoap_and_soapgen_sign_and_encrypt_both_ways`: soapgen's signed and encrypted requests are
//!   verified and decrypted by gSOAP at `/sign-encrypt/<alg>`, and gSOAP's signed and encrypted
//!   responses (every block cipher gSOAP has, RSA-OAEP and RSA-1_5) are verified and decrypted
//!   by soapgen.

use std::process::{Command, Output, Stdio};
use std::time::Duration;

use base64::Engine as _;
use soapgen_runtime::wss::{
    AlgorithmPolicy, BlockEncryption, DigestAlgorithm, EncryptionOrder, KeyTransport, TrustStore,
    WssConfig, WssError, X509Encryptor, X509Signer,
};
use soapgen_runtime::{Client, Error, FromXml, Operation, SoapVersion};
use soapgen_tests::peers;
use soapgen_tests::pki::test_pki;
use soapgen_tests::recording::Recording;
use soapgen_tests::wss::uri::{RSA_SHA1, RSA_SHA256, SHA1, SHA256};
use soapgen_tests::wss::{cert, credential, text_request};

const NS: &str = "urn:soapgen:wsse";
const CHECKED_SIGNED: &str = "timestamp,signature,body-signed,timestamp-signed";

/// `EchoTextResponse` of `tests/peers/gsoap/wsse/wsse.wsdl`.
#[derive(Debug, Clone, PartialEq, FromXml)]
#[xml(namespace = "urn:soapgen:wsse")]
struct EchoTextResponse {
    text: String,
    checked: String,
    signer: String,
}

// --------------------------------------------------------------------------
// gSOAP client against gSOAP server
// --------------------------------------------------------------------------

/// Runs the gSOAP client (`tests/peers/gsoap/wsse/client.c`) with the test PKI and `args`.
fn gsoap_client(url: &str, args: &[&str]) -> Output {
    gsoap_client_as("client", "server", url, args)
}

/// The gSOAP client signing as `who` (`client`, `stranger`) and expecting `peer`'s response.
fn gsoap_client_as(who: &str, peer: &str, url: &str, args: &[&str]) -> Output {
    let pki = test_pki();
    Command::new(peers::gsoap_wsse_client())
        .arg("--url")
        .arg(url)
        .arg("--cert")
        .arg(pki.path(&format!("{who}.pem")))
        .arg("--key")
        .arg(pki.path(&format!("{who}.key")))
        .arg("--ca")
        .arg(pki.path("ca.pem"))
        .arg("--peer-cert")
        .arg(pki.path(&format!("{peer}.pem")))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run the gSOAP wsse client")
}

/// The `key=value` lines of a successful client run.
fn fields(out: &Output, what: &str, peer: &peers::Peer) -> Vec<(String, String)> {
    assert!(
        out.status.success(),
        "{what}: gSOAP client failed ({})\n--- stderr ---\n{}\n--- peer ---\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr),
        peer.stderr_output()
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

fn field<'a>(fields: &'a [(String, String)], key: &str) -> &'a str {
    fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no {key}= in {fields:?}"))
}

/// Runs the client with `--dump-response` and returns the fields and the raw response.
fn gsoap_client_dump(
    peer: &peers::Peer,
    path: &str,
    args: &[&str],
    tag: &str,
) -> (Vec<(String, String)>, String) {
    let dump = test_pki()
        .dir()
        .join(format!("gsoap-wsse-{}-{tag}.http", std::process::id()));
    let mut all = args.to_vec();
    let dump_arg = dump.to_str().unwrap().to_owned();
    all.extend(["--dump-response", dump_arg.as_str()]);
    let out = gsoap_client(&peer.url(path), &all);
    let f = fields(&out, &format!("{path} {args:?}"), peer);
    let raw = std::fs::read_to_string(&dump).unwrap();
    let _ = std::fs::remove_file(&dump);
    (f, raw)
}

fn client_ski_b64() -> String {
    let cred = credential("client");
    let ski = cred
        .certificate()
        .subject_key_identifier()
        .expect("the test client certificate has a SubjectKeyIdentifier");
    base64::engine::general_purpose::STANDARD.encode(ski)
}

#[test]
fn gsoap_wsse_peer_self_check() {
    let p = peers::gsoap_wsse();
    // Signed both ways, no encryption; RSA-SHA256 + SHA-256 by default.
    let text = "signed ünïcödé & <x>";
    let (f, raw) = gsoap_client_dump(&p, "/sign", &["--text", text], "sign");
    assert_eq!(field(&f, "text"), text);
    assert_eq!(field(&f, "checked"), CHECKED_SIGNED);
    assert_eq!(
        field(&f, "signer"),
        "CN=soapgen test client,O=soapgen tests"
    );
    assert_eq!(field(&f, "response-checked"), CHECKED_SIGNED);
    assert_eq!(
        field(&f, "response-signer"),
        "CN=soapgen test server,O=soapgen tests"
    );
    assert_eq!(field(&f, "response-signature-method"), RSA_SHA256);
    assert_eq!(field(&f, "response-digest-method"), SHA256);
    assert_eq!(raw.matches("<ds:Reference ").count(), 2, "{raw}");
    assert!(!raw.contains("<xenc:"), "{raw}");

    // The client's own RSA-SHA1 request, and ?sig=rsa-sha1 for the response.
    let out = gsoap_client(&p.url("/sign?sig=rsa-sha1"), &["--sig", "rsa-sha1"]);
    let f = fields(&out, "rsa-sha1", &p);
    assert_eq!(field(&f, "checked"), CHECKED_SIGNED);
    assert_eq!(field(&f, "response-signature-method"), RSA_SHA1);
    assert_eq!(field(&f, "response-digest-method"), SHA1);

    // /plain: nothing required of the request, the response signed all the same.
    let out = gsoap_client(&p.url("/plain"), &[]);
    let f = fields(&out, "plain", &p);
    assert_eq!(field(&f, "checked"), "none");
    assert_eq!(field(&f, "response-checked"), CHECKED_SIGNED);

    // Encrypted both ways: every block cipher of the plugin, both key transports, the request's
    // and the response's algorithms chosen independently.
    let ski = client_ski_b64();
    let algs = [
        ("aes128-cbc", "http://www.w3.org/2001/04/xmlenc#aes128-cbc"),
        ("aes192-cbc", "http://www.w3.org/2001/04/xmlenc#aes192-cbc"),
        ("aes256-cbc", "http://www.w3.org/2001/04/xmlenc#aes256-cbc"),
        ("3des", "http://www.w3.org/2001/04/xmlenc#tripledes-cbc"),
        ("aes128-gcm", "http://www.w3.org/2009/xmlenc11#aes128-gcm"),
        ("aes192-gcm", "http://www.w3.org/2009/xmlenc11#aes192-gcm"),
        ("aes256-gcm", "http://www.w3.org/2009/xmlenc11#aes256-gcm"),
    ];
    for (i, (alg, uri)) in algs.iter().enumerate() {
        let (request_alg, _) = algs[(i + 3) % algs.len()];
        for (kt, kt_uri) in [
            (
                "rsa-oaep",
                "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
            ),
            ("rsa-1_5", "http://www.w3.org/2001/04/xmlenc#rsa-1_5"),
        ] {
            let path = format!("/sign-encrypt/{alg}?kt={kt}");
            let (f, raw) = gsoap_client_dump(
                &p,
                &path,
                &[
                    "--encrypt",
                    request_alg,
                    "--key-transport",
                    kt,
                    "--require-encrypted-response",
                    "--text",
                    "secret",
                ],
                &format!("{alg}-{kt}"),
            );
            assert_eq!(field(&f, "text"), "secret", "{path}");
            assert_eq!(
                field(&f, "checked"),
                format!("{CHECKED_SIGNED},decrypted"),
                "{path}"
            );
            assert_eq!(
                field(&f, "response-checked"),
                format!("{CHECKED_SIGNED},decrypted"),
                "{path}"
            );
            // What went over the wire: the response Body encrypted with `alg`, its key with `kt`
            // for the client certificate named by its SubjectKeyIdentifier.
            assert!(
                raw.contains(&format!("<xenc:EncryptionMethod Algorithm=\"{uri}\"")),
                "{path}: {raw}"
            );
            assert!(
                raw.contains(&format!("<xenc:EncryptionMethod Algorithm=\"{kt_uri}\"")),
                "{path}: {raw}"
            );
            assert!(
                raw.contains("#X509SubjectKeyIdentifier\">"),
                "{path}: {raw}"
            );
            assert!(
                raw.contains(&format!(">{ski}</wsse:KeyIdentifier>")),
                "{path}: {raw}"
            );
            assert!(
                !raw.contains(">secret<"),
                "{path}: plaintext on the wire: {raw}"
            );
        }
    }
    // /sign-encrypt without a block cipher in the path: an encrypted request, a signed response.
    let out = gsoap_client(&p.url("/sign-encrypt"), &["--encrypt", "aes128-cbc"]);
    let f = fields(&out, "sign-encrypt", &p);
    assert_eq!(field(&f, "checked"), format!("{CHECKED_SIGNED},decrypted"));
    assert_eq!(field(&f, "response-checked"), CHECKED_SIGNED);

    // The checks can fail, on both sides.
    let refused = |out: Output, what: &str, needle: &str| {
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(1), "{what}: {err}");
        assert!(err.contains(needle), "{what}: {needle:?} not in {err}");
    };
    refused(
        gsoap_client(&p.url("/sign-encrypt/aes128-cbc"), &[]),
        "unencrypted request",
        "the SOAP Body was not encrypted",
    );
    refused(
        gsoap_client_as(
            "client",
            "client",
            &p.url("/sign-encrypt"),
            &["--encrypt", "aes128-cbc"],
        ),
        "request encrypted for another certificate than the server's",
        "soap_mec_upd_dec() failed",
    );
    refused(
        gsoap_client_as("stranger", "server", &p.url("/sign"), &[]),
        "untrusted signer",
        "Invalid certificate",
    );
    refused(
        gsoap_client(&p.url("/sign"), &["--require-encrypted-response"]),
        "response not encrypted",
        "the response Body was not encrypted",
    );
    refused(
        gsoap_client_as("client", "client", &p.url("/sign"), &[]),
        "response signer is not the expected one",
        "another certificate than --peer-cert",
    );
    refused(
        gsoap_client(&p.url("/nowhere"), &[]),
        "unknown path",
        "unknown path",
    );
}

// --------------------------------------------------------------------------
// soapgen's signed requests
// --------------------------------------------------------------------------

/// Signs as `who`; trusts the test CA for the responses' signatures.
fn signing(who: &str, digest: DigestAlgorithm, ttl: Duration) -> WssConfig {
    WssConfig::new()
        .timestamp(ttl)
        .sign(X509Signer::new(credential(who)).digest(digest))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
}

fn op(version: SoapVersion) -> Operation {
    Operation::new("EchoText", "urn:soapgen:wsse#EchoText", version)
}

/// `EchoText(text)` in `version` through `client`.
async fn echo(
    client: &Client,
    version: SoapVersion,
    text: &str,
) -> Result<EchoTextResponse, Error> {
    let request = text_request(client, &[("w", NS)], "EchoText", text);
    client
        .call(&op(version), request, EchoTextResponse::read_xml)
        .await
}

/// `EchoText(text)` over SOAP 1.1 through `client`.
async fn echo11(client: &Client, text: &str) -> Result<EchoTextResponse, Error> {
    echo(client, SoapVersion::Soap11, text).await
}

fn client_for(url: String, wss: Option<WssConfig>, wire: &std::sync::Arc<Recording>) -> Client {
    let mut b = Client::builder(url).transport(wire.clone());
    if let Some(wss) = wss {
        b = b.wss(wss);
    }
    b.build().unwrap()
}

/// A client for `url` signing as `who` with SHA-256 digests and a Timestamp of `ttl` (see
/// [`signing`]), over `wire`.
fn signed_client(
    url: String,
    who: &str,
    ttl: Duration,
    wire: &std::sync::Arc<Recording>,
) -> Client {
    client_for(url, Some(signing(who, DigestAlgorithm::Sha256, ttl)), wire)
}

#[tokio::test]
async fn gsoap_accepts_soapgen_signed_requests() {
    let p = peers::gsoap_wsse();
    let wire = std::sync::Arc::new(Recording::new());
    for digest in [DigestAlgorithm::Sha256, DigestAlgorithm::Sha1] {
        for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
            let wss = signing("client", digest, Duration::from_secs(300));
            let c = client_for(p.url("/sign"), Some(wss), &wire);
            let text = "signed ünïcödé & <markup> \"q\"\r\n\ttabs";
            let v = echo(&c, version, text).await.unwrap_or_else(|e| {
                panic!(
                    "{digest:?} {version}: {e}\n--- request ---\n{}\n--- peer ---\n{}",
                    wire.last_request(),
                    p.stderr_output()
                )
            });
            let xml = wire.last_request();
            assert!(xml.contains(digest.uri()), "{xml}");
            assert!(xml.contains(RSA_SHA256), "{xml}");
            // soapgen writes the CR as `&#13;` (XML 1.0 §2.11 would otherwise turn it into LF).
            assert_eq!(v.text, text, "{digest:?} {version}");
            assert_eq!(v.checked, CHECKED_SIGNED, "{digest:?} {version}");
            assert_eq!(v.signer, "CN=soapgen test client,O=soapgen tests");
            // gSOAP's response is signed, and soapgen verified it (or `send` had failed).
            let resp = wire.last_response();
            assert!(resp.contains("<ds:Signature"), "{resp}");
            assert!(resp.contains(RSA_SHA256), "{resp}");
        }
    }
    // /plain takes an unsigned request and still signs its response (RSA-SHA1 on request). Its
    // wsse:Security block is mustUnderstand: a client without WS-Security does not process it,
    // so the call fails naming it (SOAP 1.1 §4.2.3), unless the caller says it handles it.
    let c = client_for(p.url("/plain?sig=rsa-sha1"), None, &wire);
    let e = echo11(&c, "plain").await.unwrap_err();
    assert!(
        matches!(&e, Error::Header(h) if matches!(&h.kind,
            soapgen_runtime::header::HeaderErrorKind::MustUnderstand { local_name, .. } if local_name == "Security")),
        "{e:?}"
    );
    let c = Client::builder(p.url("/plain?sig=rsa-sha1"))
        .transport(wire.clone())
        .understood_header(soapgen_runtime::wss::WSSE_NS, "Security")
        .build()
        .unwrap();
    let v = echo11(&c, "plain").await.unwrap();
    assert_eq!((v.text.as_str(), v.checked.as_str()), ("plain", "none"));
    let resp = wire.last_response();
    assert!(
        resp.contains("<ds:Signature") && resp.contains(RSA_SHA1),
        "{resp}"
    );
}

/// The fault of a refused `EchoText(text)`: its text and its detail's XML.
async fn refused(client: &Client, text: &str, what: &str) -> String {
    let e = echo11(client, text).await.expect_err(what);
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("{what}: expected a fault, got {e}"));
    format!(
        "{f} / detail: {}",
        f.detail.as_ref().map(|d| d.xml.as_str()).unwrap_or("")
    )
}

#[tokio::test]
async fn gsoap_refuses_unsigned_tampered_and_untrusted_requests() {
    let p = peers::gsoap_wsse();
    let wire = std::sync::Arc::new(Recording::new());
    let url = p.url("/sign");

    // No Security header at all; a Timestamp but no signature.
    let c = client_for(url.clone(), None, &wire);
    let f = refused(&c, "x", "no security").await;
    assert!(f.contains("no wsu:Timestamp"), "{f}");
    let c = client_for(
        url.clone(),
        Some(WssConfig::new().timestamp(Duration::from_secs(300))),
        &wire,
    );
    let f = refused(&c, "x", "unsigned").await;
    assert!(f.contains("no ds:Signature"), "{f}");
    // The Body as signed, then changed on the way: the digest no longer matches.
    let c = signed_client(url.clone(), "client", Duration::from_secs(300), &wire);
    // The message untouched is accepted: only the change makes the difference.
    let ok = echo11(&c, "pay 10").await.unwrap();
    assert_eq!(ok.checked, CHECKED_SIGNED);
    let tamper = std::sync::Arc::new(Recording::rewriting(|xml| {
        xml.replace(">pay 10<", ">pay 99<")
    }));
    let c = signed_client(url.clone(), "client", Duration::from_secs(300), &tamper);
    let f = refused(&c, "pay 10", "tampered body").await;
    assert!(f.contains("FailedCheck"), "{f}");
    assert!(tamper.last_request().contains(">pay 99<"));
    // The Timestamp changed (a later Expires).
    let tamper = std::sync::Arc::new(Recording::rewriting(|xml| {
        let at = xml.find("<wsu:Expires>").unwrap() + "<wsu:Expires>".len();
        let mut tampered = xml.to_owned();
        tampered.replace_range(at..at + 4, "2099");
        tampered
    }));
    let c = signed_client(url.clone(), "client", Duration::from_secs(300), &tamper);
    let f = refused(&c, "x", "tampered timestamp").await;
    assert!(f.contains("FailedCheck"), "{f}");
    // A valid signature by a certificate that does not chain to the CA.
    let c = signed_client(url.clone(), "stranger", Duration::from_secs(300), &wire);
    let f = refused(&c, "x", "stranger").await;
    // The plugin's words: the token referenced by the signature did not verify against the CA.
    assert!(
        f.contains("SecurityTokenUnavailable") && f.contains("Invalid certificate"),
        "{f}"
    );
    // Signed but not encrypted, where the policy wants the Body encrypted.
    let c = signed_client(
        p.url("/sign-encrypt"),
        "client",
        Duration::from_secs(300),
        &wire,
    );
    let f = refused(&c, "x", "not encrypted").await;
    assert!(f.contains("the SOAP Body was not encrypted"), "{f}");
    // No answer to a refused request is signed.
    assert!(!wire.last_response().contains("<ds:Signature"));
}

#[tokio::test]
async fn gsoap_refuses_an_expired_timestamp() {
    let p = peers::gsoap_wsse();
    // Each request held back 50 ms after it is signed.
    let wire = std::sync::Arc::new(Recording::with_delay(Duration::from_millis(50)));
    // A 1 ms time to live: expired on arrival.
    let c = signed_client(p.url("/sign"), "client", Duration::from_millis(1), &wire);
    let f = refused(&c, "late", "expired").await;
    assert!(f.contains("MessageExpired") || f.contains("expired"), "{f}");
    // The same signer with a time to live that covers the trip is accepted.
    let c = signed_client(p.url("/sign"), "client", Duration::from_secs(60), &wire);
    let v = echo11(&c, "on time").await.unwrap();
    assert_eq!(v.checked, CHECKED_SIGNED);
}

#[tokio::test]
async fn gsoap_and_soapgen_sign_and_encrypt_both_ways() {
    let p = peers::gsoap_wsse();
    let wire = std::sync::Arc::new(Recording::new());
    let policy = AlgorithmPolicy::default()
        .allow(BlockEncryption::TripleDesCbc.uri())
        .allow(KeyTransport::Rsa15.uri());
    // (path, what soapgen encrypts the request with) — the response uses the path's cipher.
    // Key transport RSA-1_5: gSOAP 2.8.124's mecevp writes and reads `rsa-oaep-mgf1p` but performs
    // RSA PKCS#1 v1.5 (its "OAEP" EncryptedKey decrypts with `openssl pkeyutl -pkeyopt
    // rsa_padding_mode:pkcs1`, not with oaep), so only real RSA-1_5 interoperates; see
    // `gsoap_mislabelled_oaep_is_refused` below. Sign-then-encrypt only: gSOAP decrypts the Body
    // as it parses it and then verifies the signature over the plaintext, so it refuses an
    // encrypt-then-sign request ("The signature or decryption was invalid").
    let rsa15 = KeyTransport::Rsa15;
    let cases: &[(&str, BlockEncryption, KeyTransport, EncryptionOrder)] = &[
        (
            "aes128-cbc?kt=rsa-1_5",
            BlockEncryption::Aes128Cbc,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes192-cbc?kt=rsa-1_5",
            BlockEncryption::Aes192Cbc,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes256-cbc?kt=rsa-1_5",
            BlockEncryption::Aes256Cbc,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "3des?kt=rsa-1_5",
            BlockEncryption::TripleDesCbc,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes128-gcm?kt=rsa-1_5",
            BlockEncryption::Aes128Gcm,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes256-gcm?kt=rsa-1_5",
            BlockEncryption::Aes256Gcm,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes128-cbc?kt=rsa-1_5&sig=rsa-sha1",
            BlockEncryption::Aes128Cbc,
            rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
    ];
    // SOAP 1.1 only: gSOAP's plugin refuses a signed and encrypted SOAP 1.2 Body ("The signature
    // or decryption was invalid") — as its verify_body refuses every signed SOAP 1.2 message —
    // while WSS4J accepts soapgen's SOAP 1.2 ones (tests/tests/wss/wss4j/interop.rs).
    {
        let version = SoapVersion::Soap11;
        for (path, block, transport, order) in cases {
            let wss = signing("client", DigestAlgorithm::Sha256, Duration::from_secs(300))
                .encrypt(
                    X509Encryptor::new(cert("server.pem"))
                        .block_encryption(*block)
                        .key_transport(*transport)
                        .order(*order),
                )
                .algorithms(policy.clone());
            let c = client_for(p.url(&format!("/sign-encrypt/{path}")), Some(wss), &wire);
            let text = format!("secret {path} ünï & <x>");
            let v = echo(&c, version, &text).await.unwrap_or_else(|e| {
                panic!(
                    "{path} {version}: {e}\n--- request ---\n{}\n--- response ---\n{}\n--- peer ---\n{}",
                    wire.last_request(),
                    wire.last_response(),
                    p.stderr_output()
                )
            });
            let xml = wire.last_request();
            assert!(
                !xml.contains("secret "),
                "the request is not encrypted: {xml}"
            );
            // gSOAP verified and decrypted soapgen's request ...
            assert_eq!(v.text, text);
            assert!(
                v.checked.contains("decrypted") && v.checked.contains("body-signed"),
                "{path}: {v:?}"
            );
            // ... and soapgen decrypted and verified gSOAP's (it was encrypted on the wire).
            let resp = wire.last_response();
            assert!(
                resp.contains("EncryptedData") && !resp.contains("secret "),
                "{path}: {resp}"
            );
        }
    }
    // A response encrypted with 3DES and RSA-1_5 is refused by a client whose policy does not
    // allow them.
    let wss = signing("client", DigestAlgorithm::Sha256, Duration::from_secs(300))
        .encrypt(X509Encryptor::new(cert("server.pem")).key_transport(KeyTransport::Rsa15));
    let c = client_for(p.url("/sign-encrypt/3des?kt=rsa-1_5"), Some(wss), &wire);
    let e = echo11(&c, "x").await.unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(**w, WssError::AlgorithmNotAllowed { .. })),
        "{e}"
    );
    // A signing client that trusts only the stranger refuses gSOAP's signature.
    let wss = signing("client", DigestAlgorithm::Sha256, Duration::from_secs(300))
        .trust(TrustStore::new().anchor(cert("stranger.pem")));
    let c = client_for(p.url("/sign"), Some(wss), &wire);
    let e = echo11(&c, "x").await.unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(**w, WssError::UntrustedCertificate { .. })),
        "{e}"
    );
}

/// gSOAP 2.8.124 (mecevp on OpenSSL 3) labels its key transport `rsa-oaep-mgf1p` but performs RSA
/// PKCS#1 v1.5, both ways: it cannot decrypt a real RSA-OAEP EncryptedKey, and soapgen cannot
/// decrypt its "OAEP" one — which must fail as the one DecryptionFailed, not be accepted as OAEP.
#[tokio::test]
async fn gsoap_mislabelled_oaep_is_refused() {
    let p = peers::gsoap_wsse();
    let wire = std::sync::Arc::new(Recording::new());
    // soapgen's real OAEP request: gSOAP fails to decrypt it.
    let wss = signing("client", DigestAlgorithm::Sha256, Duration::from_secs(300))
        .encrypt(X509Encryptor::new(cert("server.pem")));
    let c = client_for(p.url("/sign-encrypt/aes128-cbc"), Some(wss), &wire);
    let f = refused(&c, "x", "real OAEP").await;
    assert!(f.contains("padding check failed"), "{f}");
    // gSOAP's "OAEP" response (to an RSA-1_5 request it can read): DecryptionFailed.
    let wss = signing("client", DigestAlgorithm::Sha256, Duration::from_secs(300))
        .encrypt(X509Encryptor::new(cert("server.pem")).key_transport(KeyTransport::Rsa15))
        .algorithms(AlgorithmPolicy::default().allow(KeyTransport::Rsa15.uri()));
    let c = client_for(p.url("/sign-encrypt/aes128-cbc"), Some(wss), &wire);
    let e = echo11(&c, "x").await.unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if **w == WssError::DecryptionFailed),
        "{e}"
    );
    assert!(wire.last_response().contains("rsa-oaep-mgf1p"));
}
