//! Who may sign a response, beyond "issued by a trusted CA": subject-DN patterns per trust store
//! (as WSS4J's `sigSubjectCertConstraints`) and the leaf's keyUsage / extendedKeyUsage (RFC 5280
//! §4.2.1.3, §4.2.1.12), each refusal its own error, with `TrustStore::check_key_usage(false)`
//! for peers whose certificates get it wrong.
//!
//! The responses are signed by xmlsec1 1.2.37 (which itself checks none of these), with
//! certificates the test CA issues (`soapgen_tests::pki`).

use std::time::Duration;

use soapgen_runtime::wss::{MessagePart, TrustStore, UtcTime, WssConfig, WssError, X509Signer};
use soapgen_tests::pki::{leaf_with_extensions, test_pki};
use soapgen_tests::wss::uri::{RSA_SHA256, SHA256, SOAP11, WSSE, WSU};
use soapgen_tests::wss::{cert, credential};
use soapgen_tests::xmlsec::{xmlsec1_sign, xmlsec1_verify};

/// A client that signs and trusts through `trust`: it requires a signed Body and Timestamp.
fn client(trust: TrustStore) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")))
        .trust(trust)
}

fn ca() -> TrustStore {
    TrustStore::new().anchor(cert("ca.pem"))
}

/// A response signed by xmlsec1 with `<stem>.key`, the certificate `<stem>.pem` in
/// `ds:X509Data`.
fn signed_by(stem: &str) -> String {
    let created = UtcTime::now();
    let expires = created.plus(Duration::from_secs(300));
    let envelope = format!(
        r#"<soap:Envelope xmlns:soap="{SOAP11}" xmlns:wsu="{WSU}"><soap:Header><wsse:Security xmlns:wsse="{WSSE}"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>{created}</wsu:Created><wsu:Expires>{expires}</wsu:Expires></wsu:Timestamp></wsse:Security></soap:Header><soap:Body wsu:Id="Body-1"><r:R xmlns:r="urn:r">ok</r:R></soap:Body></soap:Envelope>"#
    );
    let pki = test_pki();
    let (key, pem) = (
        pki.path(&format!("{stem}.key")),
        pki.path(&format!("{stem}.pem")),
    );
    let signed = xmlsec1_sign(
        &envelope,
        &key,
        &pem,
        RSA_SHA256,
        SHA256,
        &["TS-1", "Body-1"],
    );
    // The peer's own check, through the CA: the signature is good, only the constraints differ.
    let ca = pki.path("ca.pem");
    xmlsec1_verify(&signed, &["--trusted-pem", ca.to_str().unwrap()])
        .unwrap_or_else(|e| panic!("xmlsec1 refused {stem}: {e}"));
    signed
}

fn check(trust: TrustStore, doc: &str) -> Result<(), WssError> {
    let report = client(trust).check_response(doc.as_bytes(), UtcTime::now())?;
    assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
    Ok(())
}

#[test]
fn subject_patterns_decide_who_may_sign() {
    let server = signed_by("server");
    let stranger_ca = signed_by(&leaf_with_extensions(
        "other-signer",
        "5151",
        "keyUsage=critical,digitalSignature\n",
    ));
    let pattern = |p: &str| ca().subject_pattern(p).unwrap();
    // No pattern: anyone the CA issued.
    check(ca(), &server).unwrap();
    check(ca(), &stranger_ca).unwrap();
    // The RFC 4514 form, the certificate-order form, a regular expression.
    check(pattern("CN=soapgen test server,O=soapgen tests"), &server).unwrap();
    check(pattern("O=soapgen tests, CN=soapgen test server"), &server).unwrap();
    check(
        pattern(r"CN=soapgen test (server|billing),O=soapgen tests"),
        &server,
    )
    .unwrap();
    // Another signer of the same CA is refused, naming its subject and the patterns.
    let e = check(
        pattern("CN=soapgen test server,O=soapgen tests"),
        &stranger_ca,
    )
    .unwrap_err();
    assert_eq!(
        e,
        WssError::SubjectNotAllowed {
            subject: "CN=soapgen test other-signer,O=soapgen tests".to_owned(),
            patterns: vec!["CN=soapgen test server,O=soapgen tests".to_owned()],
        }
    );
    // The whole name must match, not a part of it.
    let e = check(pattern("soapgen test server"), &server).unwrap_err();
    assert!(matches!(e, WssError::SubjectNotAllowed { .. }), "{e}");
    // Several patterns: one is enough.
    let two = ca()
        .subject_pattern("CN=nobody")
        .unwrap()
        .subject_pattern(".*CN=soapgen test other-signer.*")
        .unwrap();
    check(two.clone(), &stranger_ca).unwrap();
    assert!(matches!(
        check(two, &server),
        Err(WssError::SubjectNotAllowed { .. })
    ));
    // Pinned certificates too.
    let pinned = TrustStore::new()
        .certificate(cert("server.pem"))
        .subject_pattern("CN=nobody")
        .unwrap();
    assert!(matches!(
        check(pinned, &server),
        Err(WssError::SubjectNotAllowed { .. })
    ));
    // A pattern that is not a regular expression.
    let e = ca().subject_pattern("CN=(unclosed").unwrap_err();
    assert!(
        matches!(&e, WssError::InvalidPattern { pattern, .. } if pattern == "CN=(unclosed"),
        "{e}"
    );
}

#[test]
fn key_usage_and_extended_key_usage_of_the_signer_are_checked() {
    // keyEncipherment only: may not sign.
    let encipher = signed_by(&leaf_with_extensions(
        "ku-encipher",
        "5201",
        "keyUsage=critical,keyEncipherment\n",
    ));
    let e = check(ca(), &encipher).unwrap_err();
    assert_eq!(
        e,
        WssError::KeyUsageNotAllowed {
            subject: "O=soapgen tests, CN=soapgen test ku-encipher".to_owned(),
            key_usage: vec!["keyEncipherment".to_owned()],
        }
    );
    assert!(e.to_string().contains("check_key_usage(false)"), "{e}");
    check(ca().check_key_usage(false), &encipher).unwrap();
    // nonRepudiation alone is a signing use.
    let nr = signed_by(&leaf_with_extensions(
        "ku-nonrepudiation",
        "5202",
        "keyUsage=critical,nonRepudiation\n",
    ));
    check(ca(), &nr).unwrap();
    // No keyUsage extension: any use.
    let none = signed_by(&leaf_with_extensions(
        "ku-none",
        "5203",
        "basicConstraints=CA:FALSE\n",
    ));
    check(ca(), &none).unwrap();
    // extendedKeyUsage codeSigning / timeStamping only: not a message signer.
    let code = signed_by(&leaf_with_extensions(
        "eku-code",
        "5204",
        "keyUsage=digitalSignature\nextendedKeyUsage=codeSigning,timeStamping\n",
    ));
    let e = check(ca(), &code).unwrap_err();
    assert_eq!(
        e,
        WssError::ExtendedKeyUsageNotAllowed {
            subject: "O=soapgen tests, CN=soapgen test eku-code".to_owned(),
            purposes: vec!["codeSigning".to_owned(), "timeStamping".to_owned()],
        }
    );
    check(ca().check_key_usage(false), &code).unwrap();
    // serverAuth (a TLS server certificate that also signs, as WCF services use) is accepted.
    let server_auth = signed_by(&leaf_with_extensions(
        "eku-server",
        "5205",
        "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n",
    ));
    check(ca(), &server_auth).unwrap();
}
