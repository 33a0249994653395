//! Apache CXF 4.2 as the service, enforcing the WS-SecurityPolicy of its own system tests' WSDLs
//! (the CXF policy corpus: `x509/DoubleItX509.wsdl`, `ut/DoubleItUt.wsdl`), with soapgen clients
//! configured by hand to meet each port's policy ([`soapgen_tests::peers::cxf`]):
//!
//! * AsymmetricBinding, Basic128 (RSA-SHA1, SHA-1, AES-128-CBC, RSA-OAEP), Timestamp, Body signed
//!   and encrypted both ways: `DoubleItAsymmetricIssuerSerialPort` (the recipient named by
//!   IssuerSerial), `DoubleItAsymmetricThumbprintPort` (by SHA-1 thumbprint): CXF verifies and
//!   decrypts soapgen's request, soapgen CXF's response.
//! * TransportBinding over HTTPS with a UsernameToken supporting token: `DoubleItPlaintextPort`
//!   (PasswordText) and `DoubleItHashedPort` (PasswordDigest); CXF's responses carry a Timestamp.
//! * `DoubleItAsymmetricSHA256Port` (Basic128Sha256: SHA-256 digests) both ways, and
//!   `DoubleItTransportEndorsingPort` (HTTPS with an endorsing X.509 signature; its responses
//!   carry a Timestamp, TLS protects them).
//! * In [`symmetric`]: the SymmetricBinding ports with an X.509 ProtectionToken (HMAC-SHA1, the
//!   request key wrapped for the service, derived keys), both ways.
//! * In [`protection`], both ways: `DoubleItAsymmetricEncryptBeforeSigningPort` (encrypt, then
//!   sign; the Body's key of the responses named by a standalone ReferenceList after the
//!   signature), `DoubleItAsymmetricEncryptSignaturePort` (`sp:EncryptSignature`),
//!   `DoubleItAsymmetricProtectTokensPort`, `DoubleItAsymmetricUsernameTokenPort` (an encrypted
//!   UsernameToken), `DoubleItAsymmetricPKIPathPort`, `DoubleItAsymmetricEndorsingPort`, and the
//!   Security header layouts.
//! * Requests that break a policy, refused by CXF with its fault naming the assertion not met.
//!
//! One CXF peer serves every test of this binary: it publishes all ports of both WSDLs (and of
//! `saml/DoubleItSaml.wsdl`, whose ports it must report as skipped) once.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use soapgen_runtime::fault::Fault;
use soapgen_runtime::transport::TrustAnchors;
use soapgen_runtime::wss::{
    BlockEncryption, DigestAlgorithm, EncryptionOrder, KeyReference, KeyTransport,
    SignatureAlgorithm, TrustStore, UsernameToken, WssConfig, X509Encryptor, X509Signer,
};
use soapgen_runtime::{soap_client, Client, Error};
use soapgen_tests::peers::{self, Peer};
use soapgen_tests::pki::{self, test_pki};
use soapgen_tests::recording::Recording;
use soapgen_tests::wss::{cert, credential, path_str, strs, STOREPASS};

mod protection;
mod secure_conversation;
mod swa;
mod symmetric;
mod username_derived;

/// The DoubleIt portType of the corpus's `DoubleItLogical.wsdl`: document/literal wrapped, the
/// wrappers' children unqualified (the schema has no `elementFormDefault`), `soapAction=""`.
#[soap_client(
    namespace = "http://www.example.org/schema/DoubleIt",
    element_form = "unqualified"
)]
trait DoubleIt {
    #[soap(
        name = "DoubleIt",
        action = "",
        response = "DoubleItResponse",
        result = "doubledNumber"
    )]
    async fn double_it(&self, #[soap(rename = "numberToDouble")] number: i32)
        -> Result<i32, Error>;
}

const X509_WSDL: &str = "org/apache/cxf/systest/ws/x509/DoubleItX509.wsdl";
const UT_WSDL: &str = "org/apache/cxf/systest/ws/ut/DoubleItUt.wsdl";
const SAML_WSDL: &str = "org/apache/cxf/systest/ws/saml/DoubleItSaml.wsdl";
const SWA_WSDL: &str = "org/apache/cxf/systest/ws/swa/DoubleItSwa.wsdl";
const UT_DERIVED_WSDL: &str = "org/apache/cxf/systest/ws/ut/DoubleItUtDerived.wsdl";
const WSSC_WSDL: &str = "org/apache/cxf/systest/ws/wssc/DoubleItWSSC.wsdl";

/// The UsernameToken account CXF's password callback knows.
pub(crate) const USER: (&str, &str) = ("alice", "s3cret & ünï");

/// The CXF peer of this test binary: the test PKI's `server.p12` its key, `ca.pem` its trust
/// anchor, `client.pem` known, the account [`USER`], and a TLS key for 127.0.0.1 issued by the
/// test CA.
pub(crate) fn cxf() -> &'static Peer {
    static PEER: OnceLock<Peer> = OnceLock::new();
    PEER.get_or_init(|| {
        start_cxf(
            &[
                X509_WSDL,
                UT_WSDL,
                SAML_WSDL,
                SWA_WSDL,
                UT_DERIVED_WSDL,
                WSSC_WSDL,
            ],
            &[],
        )
    })
}

/// A CXF peer publishing every port of `wsdls` (paths in the policy corpus), with the keys and
/// account of [`cxf`] and the options `extra` (`peers::cxf` documents them).
pub(crate) fn start_cxf(wsdls: &[&str], extra: &[String]) -> Peer {
    {
        let pki = test_pki();
        let wsdls = peers::cxf_policy_wsdls(wsdls);
        let tls = tls_keystore();
        let path = |name: &str| path_str(&pki.path(name)).to_owned();
        let mut args: Vec<String> = vec![
            "--keystore".into(),
            path("server.p12"),
            "--storepass".into(),
            STOREPASS.into(),
            "--alias".into(),
            "server".into(),
            "--ca".into(),
            path("ca.pem"),
            "--cert".into(),
            path("client.pem"),
            "--user".into(),
            format!("{}:{}", USER.0, USER.1),
            "--tls-keystore".into(),
            path_str(&tls).into(),
            "--tls-storepass".into(),
            STOREPASS.into(),
        ];
        for w in &wsdls {
            args.extend(["--wsdl".into(), path_str(w).into()]);
        }
        args.extend(extra.iter().cloned());
        let args = strs(&args);
        peers::cxf(&args)
    }
}

/// A PKCS#12 store (password `changeit`) of a TLS server key for 127.0.0.1 issued by the test CA.
/// Made once per process: the peers of this binary start at once.
fn tls_keystore() -> std::path::PathBuf {
    static STORE: OnceLock<std::path::PathBuf> = OnceLock::new();
    STORE.get_or_init(make_tls_keystore).clone()
}

fn make_tls_keystore() -> std::path::PathBuf {
    let stem = pki::leaf_with_extensions(
        "cxf-tls",
        "4545",
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n\
         extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1\n",
    );
    let dir = test_pki().dir();
    let p12 = dir.join(format!("{stem}.p12"));
    if !p12.is_file() {
        let (pem, key) = (format!("{stem}.pem"), format!("{stem}.key"));
        let tmp = format!("{stem}.p12.tmp");
        pki::openssl(
            dir,
            &[
                "pkcs12",
                "-export",
                "-in",
                &pem,
                "-inkey",
                &key,
                "-name",
                "tls",
                "-passout",
                "pass:changeit",
                "-out",
                &tmp,
            ],
        );
        std::fs::rename(dir.join(&tmp), &p12).expect("rename the TLS store");
    }
    p12
}

/// `DoubleIt(number)` at `url` through a client configured with `wss`: over plain HTTP through a
/// [`Recording`] transport, over HTTPS with the test CA as trust anchor. The result, and what went
/// over the wire (plain HTTP only) for failure messages.
pub(super) async fn double_it(
    url: &str,
    wss: WssConfig,
    number: i32,
) -> (Result<i32, Error>, String) {
    double_it_via(url, wss, number, Arc::new(Recording::new())).await
}

/// [`double_it`] through `recording` (over plain HTTP).
pub(super) async fn double_it_via(
    url: &str,
    wss: WssConfig,
    number: i32,
    recording: Arc<Recording>,
) -> (Result<i32, Error>, String) {
    let builder = Client::builder(url).wss(wss);
    let client = if url.starts_with("https:") {
        builder.trust_anchors(TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem"))
    } else {
        builder.transport(recording.clone())
    };
    let client = DoubleItClient::from_client(client.build().expect("client"));
    let result = client.double_it(number).await;
    let wire = match recording.exchanges().last() {
        Some(x) => format!(
            "--- request ---\n{}\n--- response ---\n{}",
            x.request, x.response
        ),
        None => String::new(),
    };
    (result, wire)
}

/// `DoubleIt(number)` that must succeed: `2 × number`, or a panic with the error, the exchange and
/// CXF's log.
pub(super) async fn doubled(url: String, wss: WssConfig, number: i32) -> i32 {
    doubled_on_the_wire(url, wss, number).await.0
}

/// [`doubled`], and the request and the response as recorded (plain HTTP only).
pub(super) async fn doubled_on_the_wire(
    url: String,
    wss: WssConfig,
    number: i32,
) -> (i32, String, String) {
    let (result, wire) = double_it(&url, wss, number).await;
    let value = result
        .unwrap_or_else(|e| panic!("{url}: {e}\n{wire}\n--- CXF ---\n{}", cxf().stderr_output()));
    let (request, response) = wire
        .strip_prefix("--- request ---\n")
        .and_then(|w| w.split_once("\n--- response ---\n"))
        .unwrap_or_default();
    (value, request.to_owned(), response.to_owned())
}

/// The SOAP fault CXF answered `DoubleIt(number)` with, sent with `wss`; a panic if the call did
/// not end in a fault.
pub(super) async fn refused(url: String, wss: WssConfig, number: i32) -> Fault {
    match double_it(&url, wss, number).await {
        (Ok(v), wire) => panic!("{url}: CXF accepted the request ({v})\n{wire}"),
        (Err(e), wire) => match e.fault() {
            Some(f) => f.clone(),
            None => panic!(
                "{url}: not a fault: {e}\n{wire}\n--- CXF ---\n{}",
                cxf().stderr_output()
            ),
        },
    }
}

/// The reason of the fault of [`refused`].
pub(super) async fn fault_reason(url: String, wss: WssConfig, number: i32) -> String {
    refused(url, wss, number).await.reason
}

/// CXF's log once it holds `line` (CXF may log a refusal after it has sent the fault), or as it
/// is after 10 s.
pub(super) async fn cxf_log_with(line: &str) -> String {
    for _ in 0..100 {
        let log = cxf().stderr_output();
        if log.contains(line) {
            return log;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    cxf().stderr_output()
}

pub(super) fn x509_port(port: &str) -> String {
    cxf().url(&format!("/DoubleItX509/{port}"))
}

/// What the AsymmetricBinding ports with Basic128 want of a request, and of their responses: a
/// Timestamp; a signature of Body and Timestamp by the client's key (its certificate sent as a
/// BinarySecurityToken: the InitiatorToken is `AlwaysToRecipient`) with RSA-SHA1 and SHA-1
/// digests; the Body content encrypted with AES-128-CBC under a key wrapped by RSA-OAEP for the
/// service's certificate, named by `recipient` (the RecipientToken is `Never` included). The
/// responses must be signed by the service (its certificate known, as it is not sent) and encrypted
/// for the client, with a Timestamp.
pub(super) fn asymmetric_basic128(recipient: KeyReference, order: EncryptionOrder) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(
            X509Signer::new(credential("client"))
                .signature_algorithm(SignatureAlgorithm::RsaSha1)
                .digest(DigestAlgorithm::Sha1),
        )
        .encrypt(basic128_encryptor(recipient, order))
        .trust(
            TrustStore::new()
                .anchor(cert("ca.pem"))
                .known_certificate(cert("server.pem")),
        )
        .require_timestamp(true)
        .require_signature(true)
        .require_encryption(true)
}

/// Basic128's encryption for the service's certificate, named by `recipient`: AES-128-CBC,
/// RSA-OAEP.
pub(super) fn basic128_encryptor(recipient: KeyReference, order: EncryptionOrder) -> X509Encryptor {
    X509Encryptor::new(cert("server.pem"))
        .block_encryption(BlockEncryption::Aes128Cbc)
        .key_transport(KeyTransport::RsaOaepMgf1Sha1)
        .key_reference(recipient)
        .expect("the server certificate has what the reference needs")
        .order(order)
}

#[tokio::test]
async fn asymmetric_issuer_serial_both_ways() {
    let url = x509_port("DoubleItAsymmetricIssuerSerialPort");
    let wss = asymmetric_basic128(
        KeyReference::X509IssuerSerial,
        EncryptionOrder::SignThenEncrypt,
    );
    let (value, request, response) = doubled_on_the_wire(url.clone(), wss.clone(), 25).await;
    assert_eq!(value, 50);
    // The RecipientToken (never included) named by IssuerSerial both ways: by soapgen for the key
    // it encrypts, by CXF for its signature; the response's key for the client likewise (the
    // InitiatorToken requires IssuerSerial references too).
    assert!(request.contains("<ds:X509IssuerSerial>"), "{request}");
    assert!(
        response.matches("X509IssuerSerial>").count() >= 4
            && !response.contains("BinarySecurityToken"),
        "{response}"
    );
    assert_eq!(doubled(url, wss, -21).await, -42);
}

#[tokio::test]
async fn asymmetric_thumbprint_both_ways() {
    let url = x509_port("DoubleItAsymmetricThumbprintPort");
    let wss = asymmetric_basic128(
        KeyReference::ThumbprintSha1,
        EncryptionOrder::SignThenEncrypt,
    );
    let (value, request, response) = doubled_on_the_wire(url, wss, 1_000_000).await;
    assert_eq!(value, 2_000_000);
    let thumbprint = "#ThumbprintSHA1\"";
    assert!(request.contains(thumbprint), "{request}");
    assert!(
        response.matches(thumbprint).count() >= 2 && !response.contains("BinarySecurityToken"),
        "{response}"
    );
}

/// `DoubleItAsymmetricSHA256Port`: AlgorithmSuite Basic128Sha256 (SHA-256 digests; the
/// asymmetric signature stays RSA-SHA1, which is all WSS4J accepts for it), no reference
/// requirements (soapgen names the service's certificate by its SKI).
#[tokio::test]
async fn asymmetric_basic128sha256_both_ways() {
    let url = x509_port("DoubleItAsymmetricSHA256Port");
    let sha256_digests = X509Signer::new(credential("client"))
        .signature_algorithm(SignatureAlgorithm::RsaSha1)
        .digest(DigestAlgorithm::Sha256);
    let wss = asymmetric_basic128(
        KeyReference::SubjectKeyIdentifier,
        EncryptionOrder::SignThenEncrypt,
    )
    .sign(sha256_digests);
    let (value, request, response) = doubled_on_the_wire(url.clone(), wss.clone(), 12).await;
    assert_eq!(value, 24);
    let sha256 = "DigestMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#sha256\"";
    assert!(request.contains(sha256), "{request}");
    assert!(response.contains(sha256), "{response}");
    // SHA-1 digests are not Basic128Sha256's.
    let sha1 = wss.sign(
        X509Signer::new(credential("client"))
            .signature_algorithm(SignatureAlgorithm::RsaSha1)
            .digest(DigestAlgorithm::Sha1),
    );
    let fault = refused(url, sha1, 1).await;
    assert_eq!(fault.code.local_name, "InvalidSecurity", "{fault:?}");
}

#[tokio::test]
async fn asymmetric_requests_that_break_the_policy_are_refused() {
    let url = x509_port("DoubleItAsymmetricIssuerSerialPort");
    let good = || {
        asymmetric_basic128(
            KeyReference::X509IssuerSerial,
            EncryptionOrder::SignThenEncrypt,
        )
    };
    // No Timestamp: IncludeTimestamp is not met.
    let no_timestamp = WssConfig::new()
        .sign(
            X509Signer::new(credential("client"))
                .signature_algorithm(SignatureAlgorithm::RsaSha1)
                .digest(DigestAlgorithm::Sha1),
        )
        .encrypt(
            X509Encryptor::new(cert("server.pem"))
                .block_encryption(BlockEncryption::Aes128Cbc)
                .key_reference(KeyReference::X509IssuerSerial)
                .unwrap(),
        )
        .trust(TrustStore::new().anchor(cert("ca.pem")));
    let reason = fault_reason(url.clone(), no_timestamp, 1).await;
    assert!(
        reason.contains("These policy alternatives can not be satisfied")
            && reason.contains("IncludeTimestamp"),
        "{reason}"
    );
    // Signed but not encrypted: EncryptedParts Body is not met.
    let not_encrypted = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(
            X509Signer::new(credential("client"))
                .signature_algorithm(SignatureAlgorithm::RsaSha1)
                .digest(DigestAlgorithm::Sha1),
        )
        .trust(TrustStore::new().anchor(cert("ca.pem")));
    let reason = fault_reason(url.clone(), not_encrypted, 1).await;
    assert!(
        reason.contains("EncryptedParts") && reason.contains("Soap Body is not ENCRYPTED"),
        "{reason}"
    );
    // Encrypted but not signed: SignedParts Body is not met.
    let not_signed = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .encrypt(
            X509Encryptor::new(cert("server.pem"))
                .block_encryption(BlockEncryption::Aes128Cbc)
                .key_reference(KeyReference::X509IssuerSerial)
                .unwrap(),
        );
    let reason = fault_reason(url.clone(), not_signed, 1).await;
    assert!(
        reason.contains("SignedParts") && reason.contains("Soap Body is not SIGNED"),
        "{reason}"
    );
    // RSA-SHA256 is not Basic128's asymmetric signature algorithm. WSS4J refuses it with its
    // generic InvalidSecurity fault (security.return.security.error or not) and names the
    // algorithm in CXF's log only.
    let sha256 = good().sign(X509Signer::new(credential("client")));
    let fault = refused(url, sha256, 1).await;
    assert_eq!(fault.code.local_name, "InvalidSecurity", "{fault:?}");
    assert_eq!(
        fault.reason,
        "An error was discovered processing the <wsse:Security> header"
    );
    let log = cxf_log_with(
        "SignatureMethod http://www.w3.org/2001/04/xmldsig-more#rsa-sha256 does not match required values",
    )
    .await;
    assert!(
        log.contains("SignatureMethod http://www.w3.org/2001/04/xmldsig-more#rsa-sha256 does not match required values"),
        "{log}"
    );
    // And the port still serves a request that meets it.
    let url = x509_port("DoubleItAsymmetricIssuerSerialPort");
    assert_eq!(doubled(url, good(), 3).await, 6);
}

#[tokio::test]
async fn thumbprint_and_encrypt_before_signing_refuse_what_breaks_them() {
    // The thumbprint port with the client's certificate named by its thumbprint instead of sent:
    // the InitiatorToken is AlwaysToRecipient.
    let url = x509_port("DoubleItAsymmetricThumbprintPort");
    let not_included = asymmetric_basic128(
        KeyReference::ThumbprintSha1,
        EncryptionOrder::SignThenEncrypt,
    )
    .sign(
        X509Signer::new(credential("client"))
            .signature_algorithm(SignatureAlgorithm::RsaSha1)
            .digest(DigestAlgorithm::Sha1)
            .key_reference(KeyReference::ThumbprintSha1)
            .unwrap(),
    );
    let reason = fault_reason(url, not_included, 1).await;
    assert!(
        reason.contains("X509Token: An incorrect X.509 Token Type is detected"),
        "{reason}"
    );
    // The encrypt-before-signing port with a request signed before it was encrypted.
    let url = x509_port("DoubleItAsymmetricEncryptBeforeSigningPort");
    let wrong_order = asymmetric_basic128(
        KeyReference::SubjectKeyIdentifier,
        EncryptionOrder::SignThenEncrypt,
    );
    let reason = fault_reason(url, wrong_order, 1).await;
    assert!(
        reason.contains("EncryptBeforeSigning"),
        "{reason}\n{}",
        cxf().stderr_output()
    );
}

/// What the TransportBinding ports of `DoubleItUt.wsdl` want: HTTPS, a Timestamp, and `token` as
/// the supporting token; the responses must carry a Timestamp (CXF adds one: IncludeTimestamp).
fn transport_with(token: UsernameToken) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .username_token(token)
        .require_timestamp(true)
}

fn ut_port(port: &str) -> String {
    cxf().https_url(&format!("/DoubleItUt/{port}"))
}

#[tokio::test]
async fn transport_binding_with_a_plaintext_username_token() {
    let wss = transport_with(UsernameToken::text(USER.0, USER.1));
    assert_eq!(doubled(ut_port("DoubleItPlaintextPort"), wss, 21).await, 42);
}

#[tokio::test]
async fn transport_binding_with_a_hashed_username_token() {
    let wss = transport_with(UsernameToken::digest(USER.0, USER.1));
    assert_eq!(doubled(ut_port("DoubleItHashedPort"), wss, 50).await, 100);
}

/// `DoubleItTransportEndorsingPort` (of `DoubleItX509.wsdl`): HTTPS, a Timestamp, and an X.509
/// EndorsingSupportingToken: soapgen's signature (Timestamp and Body, RSA-SHA1, its certificate
/// sent) endorses the message. The responses carry a Timestamp and no signature (the transport
/// protects them), so this client requires none; without the endorsing signature CXF refuses.
#[tokio::test]
async fn transport_binding_with_an_endorsing_x509_signature() {
    let url = cxf().https_url("/DoubleItX509/DoubleItTransportEndorsingPort");
    let endorsing = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(
            X509Signer::new(credential("client"))
                .signature_algorithm(SignatureAlgorithm::RsaSha1)
                .digest(DigestAlgorithm::Sha1),
        )
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .require_signature(false)
        .require_timestamp(true);
    assert_eq!(doubled(url.clone(), endorsing, 33).await, 66);
    let plain = WssConfig::new().timestamp(Duration::from_secs(300));
    let reason = fault_reason(url, plain, 1).await;
    assert!(
        reason.contains("EndorsingSupportingTokens: The received token does not match the endorsing supporting token requirement"),
        "{reason}"
    );
}

#[tokio::test]
async fn transport_requests_that_break_the_policy_are_refused() {
    let good = || transport_with(UsernameToken::text(USER.0, USER.1));
    // Over plain HTTP: the HttpsToken is not met.
    let plain = cxf().url("/DoubleItUt/DoubleItPlaintextPort");
    let reason = fault_reason(plain, good(), 1).await;
    assert!(
        reason.contains("HttpsToken") && reason.contains("TLS is not enabled"),
        "{reason}"
    );
    // No UsernameToken.
    let no_token = WssConfig::new().timestamp(Duration::from_secs(300));
    let reason = fault_reason(ut_port("DoubleItPlaintextPort"), no_token, 1).await;
    assert!(
        reason.contains("SupportingTokens") && reason.contains("UsernameToken"),
        "{reason}"
    );
    // No Timestamp.
    let no_timestamp = WssConfig::new()
        .username_token(UsernameToken::text(USER.0, USER.1))
        .require_timestamp(false);
    let reason = fault_reason(ut_port("DoubleItPlaintextPort"), no_timestamp, 1).await;
    assert!(reason.contains("IncludeTimestamp"), "{reason}");
    // A PasswordText token where the policy asks for a hashed password.
    let reason = fault_reason(ut_port("DoubleItHashedPort"), good(), 1).await;
    assert!(
        reason.contains("UsernameToken: Password hashing policy not enforced"),
        "{reason}"
    );
    // A wrong password.
    let wrong = transport_with(UsernameToken::text(USER.0, "not the password"));
    let reason = fault_reason(ut_port("DoubleItPlaintextPort"), wrong, 1).await;
    assert_eq!(
        reason,
        "The security token could not be authenticated or authorized"
    );
}

#[tokio::test]
async fn every_port_is_published_or_reported_skipped() {
    let log = cxf().stderr_output();
    for port in [
        "/DoubleItX509/DoubleItAsymmetricIssuerSerialPort",
        "/DoubleItX509/DoubleItAsymmetricThumbprintPort",
        "/DoubleItX509/DoubleItAsymmetricEncryptBeforeSigningPort",
        "/DoubleItUt/DoubleItPlaintextPort",
        "/DoubleItUt/DoubleItHashedPort",
    ] {
        assert!(
            log.contains(&format!("PUBLISHED {port} ")),
            "{port}:\n{log}"
        );
    }
    // The custom algorithm suite CXF's own tests register, the peer registers too.
    assert!(
        log.contains("PUBLISHED /DoubleItX509/DoubleItAsymmetricSHA512Port "),
        "{log}"
    );
    // The SAML WSDL's ports need a SAML issuer the peer has not: each is published or skipped
    // with the reason.
    let saml = peers::cxf_policy_corpus()
        .join("src/test/resources")
        .join(SAML_WSDL);
    let ports = std::fs::read_to_string(saml)
        .unwrap()
        .matches("<wsdl:port ")
        .count();
    let listed = |prefix: &str| {
        log.lines()
            .filter(|l| l.starts_with(prefix))
            .collect::<Vec<_>>()
    };
    let skipped = listed("SKIPPED /DoubleItSaml/");
    let published = listed("PUBLISHED /DoubleItSaml/");
    assert!(
        skipped.iter().any(|l| l
            .ends_with("an sp:SamlToken needs a SAML issuer (callback or STS): the peer has none")),
        "{log}"
    );
    assert_eq!(skipped.len() + published.len(), ports, "{log}");
}
