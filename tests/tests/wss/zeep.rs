//! zeep 4.2's WS-Security (`tests/peers/zeep_wss.py`: `UsernameToken(use_digest=True)` and
//! `BinarySignature`, applied as zeep applies them when it sends) as a fixture for soapgen's inbound
//! side, proved by two other implementations: xmlsec1 1.2.37 verifies zeep's signature of the Body
//! (XML-DSig §3.2) with the signer's certificate and no other, and Apache WSS4J 1.6.19 processes
//! the whole header (UsernameToken PasswordDigest, WSS UsernameToken Profile 1.1 §3.1; the
//! BinarySecurityToken signature, X.509 Token Profile 1.1 §3.3.2) with the test CA as trust anchor.
//! soapgen's own inbound check verifies zeep's `BinarySignature` and `Signature` (the certificate
//! in a `ds:X509Data` after an empty `ds:X509IssuerSerial`, XML-DSig §4.4.4), and zeep's
//! BinarySignature with a UsernameToken digest over both SOAP versions, refusing it tampered or
//! replayed.

use soapgen_runtime::wss::{Certificate, MessagePart, TrustStore, UtcTime, WssConfig, WssError};
use soapgen_runtime::SoapVersion;
use soapgen_tests::peers::{self, Peer};
use soapgen_tests::pki::{test_pki, Pki};
use soapgen_tests::wss::{cert, path_str, post_raw};
use soapgen_tests::xmlsec::xmlsec1_verify_with_cert;

const USER: &str = "zeep-user";
const PASSWORD: &str = "pä55 & <word>";

fn zeep_request(pki: &Pki, extra: &[&str]) -> String {
    let (key, cert) = (pki.path("client.key"), pki.path("client.pem"));
    let mut args = vec![
        "--key",
        key.to_str().unwrap(),
        "--cert",
        cert.to_str().unwrap(),
        "--user",
        USER,
        "--password",
        PASSWORD,
    ];
    args.extend_from_slice(extra);
    String::from_utf8(peers::zeep_wss_request(&args)).unwrap()
}

fn post(peer: &Peer, body: &str, soap12: bool) -> (u16, String) {
    let version = if soap12 {
        SoapVersion::Soap12
    } else {
        SoapVersion::Soap11
    };
    post_raw(peer, "/echo", version, body.as_bytes())
}

#[test]
fn xmlsec1_verifies_zeeps_signature() {
    let pki = test_pki();
    for (soap12, ns) in [
        (false, "http://schemas.xmlsoap.org/soap/envelope/"),
        (true, "http://www.w3.org/2003/05/soap-envelope"),
    ] {
        let extra: &[&str] = if soap12 { &["--soap12"] } else { &[] };
        let xml = zeep_request(pki, extra);
        assert!(xml.contains(ns), "{xml}");
        assert!(xml.contains("<wsse:BinarySecurityToken"), "{xml}");
        assert!(xml.contains("#PasswordDigest\""), "{xml}");
        assert!(!xml.contains("pä55"), "{xml}");
        xmlsec1_verify_with_cert(&xml, &pki.path("client.pem"))
            .unwrap_or_else(|e| panic!("xmlsec1 refused zeep's signature: {e}\n{xml}"));
        // Not with another key, and not once the Body changed.
        assert!(xmlsec1_verify_with_cert(&xml, &pki.path("stranger.pem")).is_err());
        assert!(xmlsec1_verify_with_cert(&xml, &pki.path("server.pem")).is_err());
        let tampered = xml.replacen(">hello<", ">hellO<", 1);
        assert_ne!(tampered, xml);
        assert!(xmlsec1_verify_with_cert(&tampered, &pki.path("client.pem")).is_err());
    }
}

#[test]
fn wss4j_processes_zeeps_username_token_and_signature() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let peer = peers::wss4j(&[
        "--user",
        &format!("{USER}:{PASSWORD}"),
        "--ca",
        ca.to_str().unwrap(),
    ]);
    for soap12 in [false, true] {
        let extra: &[&str] = if soap12 {
            &["--soap12", "--text", "zeep & wss4j"]
        } else {
            &["--text", "zeep & wss4j"]
        };
        let xml = zeep_request(pki, extra);
        let (status, reply) = post(&peer, &xml, soap12);
        assert_eq!(status, 200, "{reply}\n--- request ---\n{xml}");
        let field = |name: &str| {
            let open = format!("<r:{name}>");
            let start = reply.find(&open).map(|i| i + open.len());
            start.map(|s| &reply[s..s + reply[s..].find('<').unwrap()])
        };
        assert_eq!(field("text"), Some("zeep &amp; wss4j"), "{reply}");
        assert_eq!(field("user"), Some(USER), "{reply}");
        assert_eq!(field("passwordType"), Some("PasswordDigest"), "{reply}");
        assert_eq!(field("signed"), Some("Body"), "{reply}");
        assert!(
            field("signer").unwrap().contains("CN=soapgen test client"),
            "{reply}"
        );
        let mut actions: Vec<&str> = field("actions").unwrap().split(',').collect();
        actions.sort_unstable();
        assert_eq!(actions, ["BST", "SIGN", "UT"], "{reply}");
    }

    // The wrong password, or a signer outside the CA, is refused.
    let wrong = peers::wss4j(&[
        "--user",
        &format!("{USER}:not-it"),
        "--ca",
        ca.to_str().unwrap(),
    ]);
    let (status, reply) = post(&wrong, &zeep_request(pki, &[]), false);
    assert_eq!(status, 500, "{reply}");
    assert!(reply.contains("FailedAuthentication"), "{reply}");
    let stranger = pki.path("stranger.pem");
    let untrusting = peers::wss4j(&[
        "--user",
        &format!("{USER}:{PASSWORD}"),
        "--ca",
        stranger.to_str().unwrap(),
    ]);
    let (status, reply) = post(&untrusting, &zeep_request(pki, &[]), false);
    assert_eq!(status, 500, "{reply}");
}

#[test]
fn soapgen_verifies_both_of_zeeps_signatures() {
    let pki = test_pki();
    let ca = Certificate::from_pem(&pki.read("ca.pem"), "ca.pem").unwrap();
    let client = Certificate::from_pem(&pki.read("client.pem"), "client.pem").unwrap();
    // The envelope zeep signs (a request, checked here as a response would be): the Body signed
    // by a certificate the CA issued; zeep sends no Timestamp.
    let cfg = || {
        WssConfig::new()
            .require_signature(true)
            .trust(TrustStore::new().anchor(ca.clone()))
    };
    for soap12 in [false, true] {
        for form in [&["--no-token"][..], &["--no-token", "--x509data"]] {
            let mut extra = form.to_vec();
            if soap12 {
                extra.push("--soap12");
            }
            let xml = zeep_request(pki, &extra);
            if form.contains(&"--x509data") {
                let empty = xml.find("<X509IssuerSerial/>").expect(&xml);
                assert!(xml[empty..].contains("<X509Certificate>"), "{xml}");
            }
            let report = cfg()
                .check_response(xml.as_bytes(), UtcTime::now())
                .unwrap_or_else(|e| panic!("{extra:?}: {e}\n{xml}"));
            assert_eq!(report.signed, [MessagePart::Body], "{extra:?}");
            assert_eq!(report.signer.as_ref(), Some(&client), "{extra:?}");
            let tampered = xml.replacen(">hello<", ">hellO<", 1);
            assert!(matches!(
                cfg().check_response(tampered.as_bytes(), UtcTime::now()),
                Err(WssError::InvalidSignature(_))
            ));
        }
    }
}

#[test]
fn zeep_binary_signature_and_username_token_are_verified() {
    let pki = test_pki();
    let (key, pem) = (pki.path("client.key"), pki.path("client.pem"));
    for soap12 in [false, true] {
        let mut args = vec![
            "--key",
            path_str(&key),
            "--cert",
            path_str(&pem),
            "--user",
            "zeepuser",
            "--password",
            "zeep-pw",
            "--text",
            "from zeep",
        ];
        if soap12 {
            args.push("--soap12");
        }
        let message = peers::zeep_wss_request(&args);
        // The server's view of zeep's request: a signature by a certificate the CA issued, and the
        // UsernameToken digest.
        let cfg = WssConfig::new()
            .require_signature(true)
            .trust(TrustStore::new().anchor(cert("ca.pem")))
            .expect_username_token("zeepuser", "zeep-pw");
        let report = cfg
            .check_response(&message, UtcTime::now())
            .unwrap_or_else(|e| panic!("{e}\n{}", String::from_utf8_lossy(&message)));
        assert!(report.signed.contains(&MessagePart::Body), "{report:?}");
        assert_eq!(report.username.as_deref(), Some("zeepuser"));
        assert!(report
            .signer
            .unwrap()
            .subject()
            .contains("soapgen test client"));
        // Tampered: refused.
        let text = String::from_utf8(message.clone()).unwrap();
        let tampered = text.replace("from zeep", "from evil");
        assert!(matches!(
            cfg.check_response(tampered.as_bytes(), UtcTime::now()),
            Err(WssError::InvalidSignature(_))
        ));
        // Replayed: refused.
        assert!(matches!(
            cfg.check_response(&message, UtcTime::now()),
            Err(WssError::Replay(_))
        ));
    }
}
