//! WSS 1.1 §8.5 SignatureConfirmation against Apache WSS4J 1.6.19: soapgen signs a request, the
//! WSS4J peer verifies it (`processSecurityHeader`) and answers with a signed response that
//! confirms the request's SignatureValues with `WSSecSignatureConfirmation` (what WSS4J's handler
//! does with `ENABLE_SIGNATURE_CONFIRMATION`) — or, on other paths, with a wrong, missing,
//! unsigned or Value-less confirmation, each of which soapgen must refuse with its own error
//! when `WssConfig::signature_confirmation(true)` is set.
//!
//! Keys: `soapgen_tests::pki` (openssl, at test time): the client signs with `client.pem`, the
//! peer with `server.p12`, both issued by the test CA.

use std::time::Duration;

use soapgen_runtime::wss::{TrustStore, UtcTime, WssConfig, WssError, X509Signer};
use soapgen_runtime::{Error, SoapVersion};
use soapgen_tests::wss::{
    cert, credential, echo_operation, offline_client, post_raw, text_request,
    wss4j_scenario3_server, ECHO_NS,
};
use soapgen_tests::wss4j_service::{echo11, echo12};

/// A client that signs its requests (Timestamp, Body; `client.pem`), trusts the test CA and, with
/// `confirm`, requires SignatureConfirmation.
fn signing(confirm: bool) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .signature_confirmation(confirm)
}

fn security(e: &Error) -> &WssError {
    match e {
        Error::Security(w) => w,
        other => panic!("expected a WS-Security error, got {other}"),
    }
}

#[tokio::test]
async fn wss4j_confirms_the_request_signature_and_soapgen_checks_it() {
    let peer = wss4j_scenario3_server(&[]);
    // WSS4J confirms what it verified: accepted, over SOAP 1.1 and 1.2.
    let good = peer.url("/signed/x509?confirm=request");
    let r = echo11(good.clone(), signing(true), "hello".into())
        .await
        .unwrap_or_else(|e| panic!("SOAP 1.1: {e}"));
    assert_eq!(r.text, "hello");
    assert!(r.signed.contains("Body"), "WSS4J verified {}", r.signed);
    let r = echo12(good, signing(true), "hello 1.2".into())
        .await
        .unwrap_or_else(|e| panic!("SOAP 1.2: {e}"));
    assert_eq!(r.text, "hello 1.2");

    // A confirmation of another value (a 2048-bit signature's size, but not the request's).
    let other = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode([0x5au8; 256])
    };
    let wrong = peer.url(&format!(
        "/signed/x509?confirm={}",
        other.replace('+', "%2B")
    ));
    let e = echo11(wrong, signing(true), "x".into()).await.unwrap_err();
    assert!(
        matches!(security(&e), WssError::SignatureConfirmationMismatch(m) if m.contains("not a SignatureValue of the request")),
        "{e}"
    );

    // No confirmation at all: refused when asked for, accepted when not (the default, as
    // WSS4J's enableSignatureConfirmation).
    let none = peer.url("/signed/x509");
    let e = echo11(none.clone(), signing(true), "x".into())
        .await
        .unwrap_err();
    assert_eq!(
        security(&e),
        &WssError::MissingSignatureConfirmation {
            unconfirmed: 1,
            sent: 1
        },
        "{e}"
    );
    echo11(none, signing(false), "x".into()).await.unwrap();
    assert!(!WssConfig::new().requires_signature_confirmation());

    // The right value, but outside the response's signature.
    let unsigned = peer.url("/signed/x509?confirm=request&confirm-signed=no");
    let e = echo11(unsigned, signing(true), "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(security(&e), WssError::UnsignedSignatureConfirmation(_)),
        "{e}"
    );

    // The "no signature" form (no Value) answering a signed request.
    let valueless = peer.url("/signed/x509?confirm=none");
    let e = echo11(valueless, signing(true), "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(security(&e), WssError::SignatureConfirmationMismatch(m) if m.contains("has no Value")),
        "{e}"
    );
}

#[tokio::test]
async fn an_unsigned_request_takes_only_the_no_signature_form() {
    let peer = wss4j_scenario3_server(&[]);
    // The client does not sign but requires signed responses and their confirmations: WSS4J
    // verified no signature, so it answers with one SignatureConfirmation without Value (§8.5).
    let cfg = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .require_signature(true)
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .signature_confirmation(true);
    let r = echo11(
        peer.url("/signed/x509?confirm=request"),
        cfg.clone(),
        "plain".into(),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.text, "plain");
    assert_eq!(r.signed, "", "the request was not signed");
    // A Value confirms a signature the request never carried.
    let e = echo11(peer.url("/signed/x509?confirm=AAECAwQ%3D"), cfg, "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(security(&e), WssError::SignatureConfirmationMismatch(m) if m.contains("was not signed")),
        "{e}"
    );
}

#[test]
fn a_captured_exchange_is_checked_with_the_request_signatures() {
    let peer = wss4j_scenario3_server(&[]);
    let cfg = signing(true);
    let client = offline_client(cfg.clone());
    let op = echo_operation(SoapVersion::Soap11);
    let request = client
        .message(
            &op,
            &text_request(&client, &[("tns", ECHO_NS)], "Echo", "captured"),
        )
        .unwrap();
    // The captured request's SignatureValues (XML-DSig §4.3), as a user would take them from it.
    let signature_values = signature_values(&request.envelope);
    assert_eq!(signature_values.len(), 1);
    assert_eq!(signature_values[0].len(), 256, "RSA-2048");
    let (status, reply) = post_raw(
        &peer,
        "/signed/x509?confirm=request",
        SoapVersion::Soap11,
        request.envelope.as_bytes(),
    );
    assert_eq!(status, 200, "{reply}");
    assert!(reply.contains("SignatureConfirmation"), "{reply}");

    // Against another request's signature: refused (checked first, so nothing is remembered).
    let mut other = signature_values.clone();
    other[0][0] ^= 1;
    let e = cfg
        .check_response_to(reply.as_bytes(), &other, UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::SignatureConfirmationMismatch(_)),
        "{e}"
    );
    // Without the request, a signing configuration cannot check a confirmation.
    let e = cfg
        .clone()
        .check_response(reply.as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::SignatureConfirmationMismatch(m) if m.contains("check_response_to")),
        "{e}"
    );
    // Against its own request: confirmed.
    let report = cfg
        .check_response_to(reply.as_bytes(), &signature_values, UtcTime::now())
        .unwrap_or_else(|e| panic!("{e}\n{reply}"));
    assert_eq!(report.confirmed_signatures, 1);
    // A Value changed in transit breaks the response's signature, which covers it.
    let at = reply.find("Value=\"").unwrap() + 7;
    let mut tampered = reply.clone().into_bytes();
    tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
    let e = signing(true)
        .check_response_to(&tampered, &signature_values, UtcTime::now())
        .unwrap_err();
    assert!(matches!(&e, WssError::InvalidSignature(_)), "{e}");
}

/// The raw bytes of each `ds:SignatureValue` of `envelope`, in document order.
fn signature_values(envelope: &str) -> Vec<Vec<u8>> {
    use base64::Engine as _;
    envelope
        .split("SignatureValue>")
        .skip(1)
        .step_by(2)
        .map(|v| {
            let text: String = v
                .split("</")
                .next()
                .unwrap_or_default()
                .split_whitespace()
                .collect();
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .expect("a base64 SignatureValue")
        })
        .collect()
}
