//! X.509 signatures of soapgen requests (WSS 1.1 §8, X.509 Token Profile 1.1) checked by real
//! verifiers: xmlsec1 1.2.37 (`xmlsec1 --verify`, with the Body and Timestamp located by their
//! `wsu:Id`) and Apache WSS4J 1.6.19 (`WSSecurityEngine.processSecurityHeader` with the test CA as
//! trust anchor). Also soapgen's exclusive C14N against `xmllint --exc-c14n`, and the typed errors
//! of bad certificates and keys. Certificates come from `soapgen_tests::pki` (openssl, at test time).

use std::process::Command;
use std::time::Duration;

use soapgen_runtime::wss::{
    exclusive_c14n, Certificate, DigestAlgorithm, KeyReference, SignatureAlgorithm, UsernameToken,
    WssConfig, WssError, X509Credential, X509Signer,
};
use soapgen_runtime::{Client, SoapVersion};
use soapgen_tests::peers;
use soapgen_tests::pki::{openssl, test_pki};
use soapgen_tests::wss::str_as_x509data;
use soapgen_tests::wss::{cert, credential, request};
use soapgen_tests::wss4j_service::{echo11, Echo11Client, Echo12Client};
use soapgen_tests::xmlsec::{xmlsec1_verify, xmlsec1_verify_with_cert};

/// Signs requests. The WSS4J peer's `/echo` profile does not sign its responses, so the default
/// inbound requirement of a signing client (a signed response) is turned off here; response
/// signatures are tested in wss_verify.rs.
fn signing(digest: DigestAlgorithm) -> WssConfig {
    WssConfig::new()
        .require_signature(false)
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")).digest(digest))
}

#[test]
fn xmlsec1_verifies_soapgen_signatures() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let ca = ca.to_str().unwrap();
    let cert = pki.path("client.pem");
    let cert = cert.to_str().unwrap();
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        for digest in [DigestAlgorithm::Sha256, DigestAlgorithm::Sha1] {
            for text in ["hello", "ünïcödé & <markup> \"quoted\"\r\n\ttabs", ""] {
                let xml = request(signing(digest), version, text);
                assert!(xml.contains(digest.uri()), "{xml}");
                // The message as sent, with the signer's key given to xmlsec1.
                xmlsec1_verify(&xml, &["--pubkey-cert-pem", cert])
                    .unwrap_or_else(|e| panic!("xmlsec1 refused:\n{e}\n{xml}"));
                // The key taken from the message, trusted through the CA only.
                let x509 = str_as_x509data(&xml);
                xmlsec1_verify(&x509, &["--enabled-key-data", "x509", "--trusted-pem", ca])
                    .unwrap_or_else(|e| panic!("xmlsec1 refused:\n{e}\n{x509}"));
            }
        }
    }
    // Negative controls: a changed Body, a changed Timestamp, an untrusted CA.
    let xml = request(
        signing(DigestAlgorithm::Sha256),
        SoapVersion::Soap11,
        "pay 10",
    );
    let tampered = xml.replace(">pay 10<", ">pay 99<");
    assert!(xmlsec1_verify(&tampered, &["--pubkey-cert-pem", cert]).is_err());
    let created = xml.find("<wsu:Created>").unwrap() + "<wsu:Created>".len();
    let mut tampered = xml.clone();
    tampered.replace_range(created..created + 4, "2099");
    assert!(xmlsec1_verify(&tampered, &["--pubkey-cert-pem", cert]).is_err());
    let stranger = pki.path("stranger.pem");
    assert!(xmlsec1_verify(
        &str_as_x509data(&xml),
        &[
            "--enabled-key-data",
            "x509",
            "--trusted-pem",
            stranger.to_str().unwrap()
        ]
    )
    .is_err());
}

#[test]
fn signed_message_shape() {
    let xml = request(
        signing(DigestAlgorithm::Sha256).username_token(UsernameToken::digest("alice", "pw")),
        SoapVersion::Soap11,
        "x",
    );
    let order: Vec<usize> = [
        "<wsu:Timestamp",
        "<wsse:BinarySecurityToken",
        "<wsse:UsernameToken",
        "<ds:Signature",
        "</wsse:Security>",
        "<soapenv:Body ",
    ]
    .iter()
    .map(|t| {
        xml.find(t)
            .unwrap_or_else(|| panic!("{t} missing in {xml}"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{xml}");
    for needle in [
        "<ds:CanonicalizationMethod Algorithm=\"http://www.w3.org/2001/10/xml-exc-c14n#\"/>",
        "<ds:SignatureMethod Algorithm=\"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256\"/>",
        "ValueType=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3\"",
        "<wsse:SecurityTokenReference",
    ] {
        assert!(xml.contains(needle), "{needle} missing in {xml}");
    }
    // The wire log shows the shape, not the token, nonce, password digest or signature value.
    let logged = soapgen_runtime::wire::envelope(xml.as_bytes()).to_string();
    for secret in [
        "<wsse:Password Type=",
        "<wsse:Nonce ",
        "<wsse:BinarySecurityToken ",
        "<ds:SignatureValue>",
    ] {
        let at = logged
            .find(secret)
            .unwrap_or_else(|| panic!("{secret} in {logged}"));
        let content = &logged[at..];
        let content = &content[content.find('>').unwrap() + 1..];
        assert!(content.starts_with("***redacted***<"), "{secret}: {logged}");
    }
    // Two references: the Timestamp's and the Body's Ids.
    let body_id = &xml[xml.find("<soapenv:Body ").unwrap()..];
    let body_id = &body_id[body_id.find("wsu:Id=\"").unwrap() + 8..];
    let body_id = &body_id[..body_id.find('"').unwrap()];
    assert!(xml.contains(&format!("URI=\"#{body_id}\"")), "{xml}");
    assert_eq!(xml.matches("<ds:Reference ").count(), 2);
    // Without a Timestamp, only the Body is signed.
    let xml = request(
        WssConfig::new().sign(X509Signer::new(credential("client"))),
        SoapVersion::Soap11,
        "x",
    );
    assert_eq!(xml.matches("<ds:Reference ").count(), 1);
    assert!(!xml.contains("<wsu:Timestamp"));
}

#[tokio::test]
async fn wss4j_verifies_soapgen_signatures() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let p = peers::wss4j(&["--user", "alice:pw", "--ca", ca.to_str().unwrap()]);
    for digest in [DigestAlgorithm::Sha256, DigestAlgorithm::Sha1] {
        let wss = signing(digest).username_token(UsernameToken::digest("alice", "pw"));
        let client = Client::builder(p.url("/echo")).wss(wss).build().unwrap();
        let v = Echo11Client::from_client(client.clone())
            .echo("signed ünïcödé & <x>".into())
            .await
            .unwrap_or_else(|e| panic!("{e}\n--- peer ---\n{}", p.stderr_output()));
        assert_eq!(v.text, "signed ünïcödé & <x>");
        assert_eq!(v.actions, "TS,BST,UT,SIGN", "{v:?}");
        assert_eq!(v.signed, "Timestamp,Body", "{v:?}");
        assert!(v.signer.contains("CN=soapgen test client"), "{v:?}");
        let v = Echo12Client::from_client(client)
            .echo("douze".into())
            .await
            .unwrap();
        assert_eq!(
            (v.actions.as_str(), v.signed.as_str()),
            ("TS,BST,UT,SIGN", "Timestamp,Body")
        );
    }
}

#[tokio::test]
async fn wss4j_finds_the_certificate_by_key_identifier() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let known = pki.path("client.pem");
    let knows = peers::wss4j(&[
        "--ca",
        ca.to_str().unwrap(),
        "--cert",
        known.to_str().unwrap(),
    ]);
    let stranger_to_it = peers::wss4j(&["--ca", ca.to_str().unwrap()]);
    for reference in [
        KeyReference::SubjectKeyIdentifier,
        KeyReference::ThumbprintSha1,
    ] {
        let signer = X509Signer::new(credential("client"))
            .key_reference(reference)
            .unwrap();
        let wss = WssConfig::new()
            .require_signature(false)
            .timestamp(Duration::from_secs(300))
            .sign(signer);
        let xml = request(wss.clone(), SoapVersion::Soap11, "x");
        assert!(!xml.contains("<wsse:BinarySecurityToken"), "{xml}");
        assert!(xml.contains("<wsse:KeyIdentifier "), "{xml}");
        let v = echo11(knows.url("/echo"), wss.clone(), "by key identifier".into())
            .await
            .unwrap_or_else(|e| panic!("{reference:?}: {e}\n{}", knows.stderr_output()));
        assert_eq!(
            (v.actions.as_str(), v.signed.as_str()),
            ("TS,SIGN", "Timestamp,Body"),
            "{reference:?}"
        );
        assert!(v.signer.contains("CN=soapgen test client"), "{v:?}");
        // A WSS4J that does not hold the certificate cannot verify.
        let e = echo11(stranger_to_it.url("/echo"), wss, "x".into())
            .await
            .unwrap_err();
        assert!(e.is_fault(), "{reference:?}: {e}");
    }
    // A certificate without a SubjectKeyIdentifier cannot be referred to by one.
    openssl(
        pki.dir(),
        &[
            "req",
            "-new",
            "-x509",
            "-key",
            "stranger.key",
            "-subj",
            "/CN=no ski",
            "-days",
            "1",
            "-addext",
            "subjectKeyIdentifier=none",
            "-addext",
            "authorityKeyIdentifier=none",
            "-out",
            "noski.pem",
        ],
    );
    let no_ski =
        X509Credential::from_pem(&pki.read("noski.pem"), &pki.read("stranger.key")).unwrap();
    assert_eq!(no_ski.certificate().subject_key_identifier(), None);
    let e = X509Signer::new(no_ski.clone())
        .key_reference(KeyReference::SubjectKeyIdentifier)
        .unwrap_err();
    assert!(matches!(e, WssError::Certificate { .. }), "{e}");
    assert!(e.to_string().contains("no SubjectKeyIdentifier"), "{e}");
    // The thumbprint needs nothing of the certificate.
    let thumbprint = X509Signer::new(no_ski)
        .key_reference(KeyReference::ThumbprintSha1)
        .unwrap();
    assert_eq!(thumbprint.credential().certificate().subject(), "CN=no ski");
}

/// xmlsec1 does not read SecurityTokenReferences: move the `ds:X509Data` soapgen wrote inside
/// the STR up into `ds:KeyInfo` itself, unchanged, so that xmlsec1 must find the certificate by
/// the X509IssuerName and X509SerialNumber soapgen wrote among those it is given.
fn issuer_serial_as_keyinfo(xml: &str) -> String {
    let data_start = xml.find("<ds:X509Data>").unwrap();
    let data_end = xml.find("</ds:X509Data>").unwrap() + "</ds:X509Data>".len();
    let data = &xml[data_start..data_end];
    let ki_start = xml.find("<ds:KeyInfo").unwrap();
    let ki_content = ki_start + xml[ki_start..].find('>').unwrap() + 1;
    let ki_end = xml.find("</ds:KeyInfo>").unwrap();
    format!("{}{data}{}", &xml[..ki_content], &xml[ki_end..])
}

#[tokio::test]
async fn xmlsec1_and_wss4j_find_the_certificate_by_issuer_serial() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let ca = ca.to_str().unwrap();
    let client_pem = pki.path("client.pem");
    let client_pem = client_pem.to_str().unwrap();
    let signer = X509Signer::new(credential("client"))
        .key_reference(KeyReference::X509IssuerSerial)
        .unwrap();
    let wss = WssConfig::new()
        .require_signature(false)
        .timestamp(Duration::from_secs(300))
        .sign(signer);
    let xml = request(wss.clone(), SoapVersion::Soap11, "by issuer and serial");
    assert!(!xml.contains("<wsse:BinarySecurityToken"), "{xml}");
    // The issuer as openssl writes it in RFC 2253 form, the serial as pki.rs set it.
    let issuer = openssl_out(&[
        "x509", "-in", client_pem, "-noout", "-issuer", "-nameopt", "RFC2253",
    ]);
    let issuer = issuer.trim().strip_prefix("issuer=").unwrap();
    assert!(
        xml.contains(&format!(
            "<wsse:SecurityTokenReference wsu:Id=\"STR-{}\"><ds:X509Data><ds:X509IssuerSerial>\
             <ds:X509IssuerName>{issuer}</ds:X509IssuerName>\
             <ds:X509SerialNumber>4242</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>\
             </wsse:SecurityTokenReference>",
            &xml[xml.find("STR-").unwrap() + 4..][..16]
        )),
        "{xml}"
    );
    // xmlsec1 finds the client's certificate among those given by issuer and serial, and checks
    // its chain to the CA.
    let lifted = issuer_serial_as_keyinfo(&xml);
    let stranger = pki.path("stranger.pem");
    let server = pki.path("server.pem");
    let with_certs = |untrusted: &[&str]| {
        let mut args = vec!["--enabled-key-data", "x509", "--trusted-pem", ca];
        for u in untrusted {
            args.extend(["--untrusted-pem", u]);
        }
        xmlsec1_verify(&lifted, &args)
    };
    with_certs(&[
        stranger.to_str().unwrap(),
        client_pem,
        server.to_str().unwrap(),
    ])
    .unwrap_or_else(|e| panic!("xmlsec1 refused:\n{e}\n{lifted}"));
    // Negative controls: without the certificate, or with the serial of another one.
    assert!(with_certs(&[server.to_str().unwrap()]).is_err());
    let other_serial = lifted.replace(">4242<", ">4343<");
    assert!(xmlsec1_verify(
        &other_serial,
        &[
            "--enabled-key-data",
            "x509",
            "--trusted-pem",
            ca,
            "--untrusted-pem",
            client_pem,
            "--untrusted-pem",
            server.to_str().unwrap()
        ]
    )
    .is_err());
    // WSS4J (Java's X500Principal reads the name) finds it in its crypto; one without it cannot.
    let knows = peers::wss4j(&["--ca", ca, "--cert", client_pem]);
    let v = echo11(
        knows.url("/echo"),
        wss.clone(),
        "by issuer and serial".into(),
    )
    .await
    .unwrap_or_else(|e| panic!("{e}\n{}", knows.stderr_output()));
    assert_eq!(
        (v.actions.as_str(), v.signed.as_str()),
        ("TS,SIGN", "Timestamp,Body")
    );
    assert!(v.signer.contains("CN=soapgen test client"), "{v:?}");
    let stranger_to_it = peers::wss4j(&["--ca", ca]);
    let e = echo11(stranger_to_it.url("/echo"), wss, "x".into())
        .await
        .unwrap_err();
    assert!(e.is_fault(), "{e}");
}

/// `ds:X509IssuerSerial` matching against names as openssl writes them, for a CA whose name has
/// a multi-valued RDN, characters RFC 4514 escapes, non-ASCII, an emailAddress, and a serial
/// wider than 64 bits.
#[test]
fn issuer_serial_matches_the_names_openssl_writes() {
    let pki = test_pki();
    let dir = pki.dir();
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-x509",
            "-key",
            "ca.key",
            "-multivalue-rdn",
            "-utf8",
            "-subj",
            "/C=FR/ST=Île-de-France/O=a\\, b; c <d>/OU=x+OU=y/CN=Tricky  CA/emailAddress=ca@example.org",
            "-days",
            "1",
            "-out",
            "tricky-ca.pem",
        ],
    );
    // A serial of 2^100 + 7.
    let serial = "1267650600228229401496703205383";
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "client.csr",
            "-CA",
            "tricky-ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            serial,
            "-days",
            "1",
            "-out",
            "tricky-leaf.pem",
        ],
    );
    let leaf = Certificate::from_pem(&pki.read("tricky-leaf.pem"), "tricky-leaf.pem").unwrap();
    assert_eq!(leaf.serial_decimal(), serial);
    let leaf_path = dir.join("tricky-leaf.pem");
    let leaf_path = leaf_path.to_str().unwrap();
    let hex_serial = openssl_out(&["x509", "-in", leaf_path, "-noout", "-serial"]);
    assert_eq!(
        hex_serial.trim(),
        format!("serial={}", leaf.serial().replace(':', "").to_uppercase())
    );
    for nameopt in [
        "RFC2253",
        "oneline",
        "esc_2253,utf8,sep_comma_plus_space,dn_rev,sname",
    ] {
        let name = openssl_out(&[
            "x509", "-in", leaf_path, "-noout", "-issuer", "-nameopt", nameopt,
        ]);
        let name = name.trim().strip_prefix("issuer=").unwrap().trim();
        assert!(
            leaf.matches_issuer_serial(name, serial),
            "{nameopt}: {name:?} vs {}",
            leaf.issuer_rfc4514()
        );
        assert!(leaf.matches_issuer_serial(name, &format!(" 000{serial}\n")));
        assert!(!leaf.matches_issuer_serial(name, "1267650600228229401496703205384"));
        assert!(!leaf.matches_issuer_serial(name, "0x10"));
        assert!(!leaf.matches_issuer_serial(&name.replacen("CA", "CB", 1), serial));
    }
    // Its own string reads back, in both orders, and as .NET writes such a name.
    let ours = leaf.issuer_rfc4514();
    assert!(leaf.matches_issuer_serial(&ours, serial), "{ours}");
    assert!(ours.starts_with("1.2.840.113549.1.9.1=#16"), "{ours}");
    assert!(leaf.matches_issuer_serial(
        "E=ca@example.org, CN=Tricky CA, OU=y + OU=x, O=\"a, b; c <d>\", S=Île-de-France, C=FR",
        serial
    ));
    assert!(leaf.matches_issuer_serial(
        "C=FR,ST=île-de-france,O=a\\, b\\; c \\<d\\>,OU=x+OU=y,CN=tricky ca,EMAILADDRESS=CA@example.org",
        serial
    ));
    assert!(!leaf.matches_issuer_serial("CN=Tricky CA,C=FR", serial));
    // The test CA's name, as the signing tests send it.
    let client = cert("client.pem");
    assert_eq!(
        client.issuer_rfc4514(),
        "CN=soapgen test CA,O=soapgen tests"
    );
    assert_eq!(client.serial_decimal(), "4242");
    assert!(client.matches_issuer_serial("O=soapgen tests, CN=soapgen test CA", "4242"));
    assert!(!client.matches_issuer_serial("CN=soapgen test CA,O=soapgen tests", "4343"));
    assert!(client.matches_issuer_serial("CN=soapgen test CA,O=soapgen tests", "+04242"));
    for bad in ["-4242", "42 42", "4_242", "", "0x1092", "4242.0"] {
        assert!(
            !client.matches_issuer_serial("CN=soapgen test CA,O=soapgen tests", bad),
            "{bad:?}"
        );
    }
    // A megabyte of digits is refused quickly (compared as text, not parsed as a number).
    let huge = "9".repeat(1 << 20);
    let started = std::time::Instant::now();
    assert!(!client.matches_issuer_serial("CN=soapgen test CA,O=soapgen tests", &huge));
    assert!(started.elapsed() < Duration::from_secs(1));
}

fn openssl_out(args: &[&str]) -> String {
    String::from_utf8(openssl(test_pki().dir(), args)).unwrap()
}

#[tokio::test]
async fn xmlsec1_and_wss4j_verify_rsa_sha1_and_rsa_sha512() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let cert = pki.path("client.pem");
    let cert = cert.to_str().unwrap();
    let stranger = pki.path("stranger.pem");
    let p = peers::wss4j(&["--ca", ca.to_str().unwrap()]);
    for alg in [SignatureAlgorithm::RsaSha1, SignatureAlgorithm::RsaSha512] {
        for digest in [DigestAlgorithm::Sha1, DigestAlgorithm::Sha256] {
            // (the peer's /echo does not sign its responses)
            let wss = WssConfig::new()
                .require_signature(false)
                .timestamp(Duration::from_secs(300))
                .sign(
                    X509Signer::new(credential("client"))
                        .signature_algorithm(alg)
                        .digest(digest),
                );
            for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
                let xml = request(wss.clone(), version, "ünïcödé & <x>");
                assert!(
                    xml.contains(&format!(
                        "<ds:SignatureMethod Algorithm=\"{}\"/>",
                        alg.uri()
                    )),
                    "{xml}"
                );
                xmlsec1_verify(&xml, &["--pubkey-cert-pem", cert])
                    .unwrap_or_else(|e| panic!("{alg:?}: xmlsec1 refused:\n{e}\n{xml}"));
                // Negative controls: another key; a changed Body.
                assert!(xmlsec1_verify_with_cert(&xml, &stranger).is_err());
                let tampered = xml.replace("&amp; &lt;x&gt;", "&amp; &lt;y&gt;");
                assert_ne!(tampered, xml);
                assert!(xmlsec1_verify(&tampered, &["--pubkey-cert-pem", cert]).is_err());
            }
            let v = echo11(p.url("/echo"), wss, format!("{alg:?}"))
                .await
                .unwrap_or_else(|e| panic!("{alg:?}: {e}\n{}", p.stderr_output()));
            assert_eq!(v.text, format!("{alg:?}"));
            assert_eq!(
                (v.actions.as_str(), v.signed.as_str()),
                ("TS,BST,SIGN", "Timestamp,Body"),
                "{alg:?}"
            );
            assert!(v.signer.contains("CN=soapgen test client"), "{v:?}");
        }
    }
}

#[tokio::test]
async fn wss4j_refuses_an_untrusted_signer() {
    let pki = test_pki();
    let ca = pki.path("ca.pem");
    let p = peers::wss4j(&["--ca", ca.to_str().unwrap()]);
    let stranger = credential("stranger");
    let wss = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(stranger));
    let e = echo11(p.url("/echo"), wss, "x".into()).await.unwrap_err();
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("expected a fault, got {e}"));
    // WSS4J's word for a certificate that does not chain to its trust store.
    assert!(f.reason.contains("FailedAuthentication"), "{f}");
}

#[test]
fn keys_in_pkcs1_and_der_load_too() {
    let pki = test_pki();
    let a = X509Credential::from_pem(&pki.read("client.pem"), &pki.read("client-rsa.key")).unwrap();
    assert_eq!(
        a.certificate().subject(),
        "O=soapgen tests, CN=soapgen test client"
    );
    assert_eq!(
        a.certificate().issuer(),
        "O=soapgen tests, CN=soapgen test CA"
    );
    assert_eq!(a.certificate().serial(), "10:92");
    assert_eq!(
        a.certificate().subject_key_identifier().map(<[u8]>::len),
        Some(20)
    );
    // One PEM file holding both.
    let mut both = pki.read("client.key");
    both.extend_from_slice(&pki.read("client.pem"));
    X509Credential::from_pem(&both, &both).unwrap();
}

#[test]
fn bad_certificates_and_keys_are_typed_errors() {
    let pki = test_pki();
    let cert = pki.read("client.pem");
    let key = pki.read("client.key");
    let cert_err = |r: Result<X509Credential, WssError>| match r {
        Err(WssError::Certificate { reason, .. }) => reason,
        other => panic!("expected a certificate error, got {other:?}"),
    };
    let key_err = |r: Result<X509Credential, WssError>| match r {
        Err(WssError::Key { reason, .. }) => reason,
        other => panic!("expected a key error, got {other:?}"),
    };
    assert!(
        cert_err(X509Credential::from_pem(b"not pem", &key)).contains("no -----BEGIN CERTIFICATE")
    );
    assert!(cert_err(X509Credential::from_pem(
        b"-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        &key
    ))
    .contains("not an X.509 certificate"));
    assert!(key_err(X509Credential::from_pem(&cert, b"")).contains("no -----BEGIN PRIVATE KEY"));
    // The stranger's key with the client's certificate.
    assert!(
        key_err(X509Credential::from_pem(&cert, &pki.read("stranger.key")))
            .contains("not the key of the certificate")
    );
    assert!(key_err(X509Credential::from_pem(
        &cert,
        b"-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----\n"
    ))
    .contains("encrypted"));
    assert!(key_err(X509Credential::from_pem(
        &cert,
        b"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
    ))
    .contains("not a usable RSA key in PKCS#8 or PKCS#1"));
    // An EC certificate and key.
    let dir = pki.dir();
    openssl(
        dir,
        &[
            "ecparam",
            "-name",
            "prime256v1",
            "-genkey",
            "-noout",
            "-out",
            "ec.key",
        ],
    );
    openssl(
        dir,
        &[
            "req", "-new", "-x509", "-key", "ec.key", "-subj", "/CN=ec", "-days", "1", "-out",
            "ec.pem",
        ],
    );
    // An EC certificate with its RFC 5915 key signs (ECDSA, RFC 6931 §2.3.6); with an RSA key,
    // the key is refused as not of the certificate's type.
    let ec = X509Credential::from_pem(&pki.read("ec.pem"), &pki.read("ec.key"))
        .unwrap_or_else(|e| panic!("EC credential: {e}"));
    assert_eq!(ec.certificate().public_key_algorithm(), "EC P-256");
    assert!(key_err(X509Credential::from_pem(&pki.read("ec.pem"), &key))
        .contains("not a usable EC P-256 key"));
    // An RSA certificate with the EC key.
    assert!(key_err(X509Credential::from_pem(
        &pki.read("client.pem"),
        &pki.read("ec.key")
    ))
    .contains("RSA"));
    // A SubjectKeyIdentifier extension that is malformed (a BOOLEAN, not an OCTET STRING) or
    // present but empty names the certificate and the extension.
    let ski_cert = |name: &str, ext: &str| {
        std::fs::write(dir.join(format!("{name}.ext")), ext).unwrap();
        openssl(
            dir,
            &[
                "x509",
                "-req",
                "-in",
                "client.csr",
                "-CA",
                "ca.pem",
                "-CAkey",
                "ca.key",
                "-set_serial",
                "7",
                "-days",
                "1",
                "-extfile",
                &format!("{name}.ext"),
                "-outform",
                "DER",
                "-out",
                &format!("{name}.der"),
            ],
        );
        pki.read(&format!("{name}.der"))
    };
    let e = Certificate::from_der(
        &ski_cert("bad-ski", "2.5.29.14=DER:01:01:FF\n"),
        "bad-ski.der",
    )
    .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, WssError::Certificate { .. }), "{msg}");
    assert!(
        msg.contains("bad-ski.der")
            && msg.contains("SubjectKeyIdentifier")
            && msg.contains("malformed"),
        "{msg}"
    );
    // openssl will not write an empty one: write a one-byte key identifier and empty it in
    // place (04 01 00 -> 04 00 + one stray byte; the issuer's signature does not matter here).
    let mut der = ski_cert("empty-ski", "2.5.29.14=DER:04:01:00\n");
    let ext = [0x06, 0x03, 0x55, 0x1d, 0x0e, 0x04, 0x03, 0x04, 0x01, 0x00];
    let at = der
        .windows(ext.len())
        .position(|w| w == ext)
        .expect("the SKI extension");
    der[at + 8] = 0x00;
    let e = Certificate::from_der(&der, "empty-ski.der").unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("empty-ski.der")
            && msg.contains("SubjectKeyIdentifier")
            && (msg.contains("empty") || msg.contains("malformed")),
        "{msg}"
    );
}

// ------------------------------------------------------------------------------------------------
// Exclusive C14N against libxml2's (`xmllint --exc-c14n`, whole documents).

fn xmllint_exc_c14n(doc: &str) -> String {
    let dir = test_pki().dir();
    // One file per call: tests of this binary run in parallel threads of one process.
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = dir.join(format!("c14n-{}-{n}.xml", std::process::id()));
    std::fs::write(&file, doc).unwrap();
    let out = Command::new("xmllint")
        .arg("--exc-c14n")
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xmllint ({e}): apt-get install -y libxml2-utils"));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn exclusive_c14n_matches_xmllint() {
    let docs = [
        r#"<a xmlns:x="urn:x" xmlns:y="urn:y"><x:b z="2" x:a="1"  y='&lt;'/></a>"#,
        // (xmllint's canonical forms keep comments: none here.)
        "<a b=\"x&#9;y\r\nz &amp; &lt; &gt; &quot;\" c='\"'>1 &lt; 2 &amp;&amp; 3 > 2\r\n&#13;<![CDATA[<&>]]><?pi  data ?></a>",
        r#"<a xmlns="urn:a"><b><c xmlns=""><d/></c></b><e xmlns="urn:a"/></a>"#,
        r#"<p:a xmlns:p="urn:p" xmlns:q="urn:q" xml:lang="en"><p:b q:c="1" xmlns:p="urn:p2"><q:d xml:space="preserve"> </q:d></p:b></p:a>"#,
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<r>\n  <s a=\"&#x20AC;&#233;\">ünïcödé ✓</s>\n</r>\n",
        r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:tns="urn:t"><s:Body xmlns:wsu="urn:wsu" wsu:Id="id-1"><tns:op><tns:v xsi:nil="true"/><w>&#0013;</w></tns:op></s:Body></s:Envelope>"#,
    ];
    for doc in docs {
        // The document element: the first `<` that starts a name.
        let root = doc
            .match_indices('<')
            .map(|(i, _)| i)
            .find(|&i| doc[i + 1..].starts_with(|c: char| c.is_alphabetic()))
            .unwrap();
        let mut ours = Vec::new();
        exclusive_c14n(doc, root, &[], &mut ours).unwrap();
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            xmllint_exc_c14n(doc),
            "{doc}"
        );
    }
}
