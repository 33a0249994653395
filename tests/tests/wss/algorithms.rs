//! Signature and canonicalization algorithms both ways, against peers that implement them:
//!
//! * ECDSA on P-256 with SHA-256 and on P-384 with SHA-384 (RFC 6931 §2.3.6, the SignatureValue
//!   as `r || s`, XML-DSig 1.1 §6.4.3): soapgen signs and xmlsec1 1.2.37 verifies; xmlsec1 signs
//!   and soapgen verifies.
//! * RSASSA-PSS with SHA-256/384/512 (RFC 6931 §2.3.11 `sha*-rsa-MGF1`), which xmlsec1 1.2.37
//!   does not implement: signxml 5.2.0 instead, both ways; the parameterised `rsa-pss` form
//!   (RFC 6931 §2.3.10) signed by the `openssl` command line.
//! * Inclusive Canonical XML 1.0 and 1.1 (xmlsec1 signs with them): refused by default with an
//!   error naming `AlgorithmPolicy::allow_inclusive_c14n`, verified with it.
//!
//! Keys: `soapgen_tests::pki` (openssl, at test time), EC leaves from [`pki::ec_leaf`].

use std::time::Duration;

use soapgen_runtime::wss::{
    exclusive_c14n, AlgorithmPolicy, MessagePart, SignatureAlgorithm, UtcTime, WssConfig, WssError,
    X509Credential, X509Signer, C14N_10, C14N_11,
};
use soapgen_runtime::SoapVersion;
use soapgen_tests::pki::openssl_with_stdin;
use soapgen_tests::pki::{self, test_pki};
use soapgen_tests::signxml::{signxml_sign, signxml_verify};
use soapgen_tests::wss::client_wss;
use soapgen_tests::wss::str_as_x509data;
use soapgen_tests::wss::uri::{
    ECDSA_SHA256, ECDSA_SHA384, RSA_SHA256, SHA256, SHA384, SOAP11, WSSE, WSU,
};
use soapgen_tests::wss::{credential, echo_operation, offline_client, request, ECHO_NS};
use soapgen_tests::xmlsec::{xmlsec1_sign, xmlsec1_sign_c14n, xmlsec1_verify};

fn path(name: &str) -> std::path::PathBuf {
    test_pki().path(name)
}

/// An unsigned response with a Timestamp (`TS-1`) and a Body (`Body-1`); the Envelope also
/// declares a namespace nothing uses and carries `xml:lang`, which only inclusive C14N renders.
fn response() -> String {
    let created = UtcTime::now();
    let expires = created.plus(Duration::from_secs(300));
    format!(
        r#"<soap:Envelope xmlns:soap="{SOAP11}" xmlns:wsu="{WSU}" xmlns:unused="urn:unused" xml:lang="en"><soap:Header><wsse:Security xmlns:wsse="{WSSE}" soap:mustUnderstand="1"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>{created}</wsu:Created><wsu:Expires>{expires}</wsu:Expires></wsu:Timestamp></wsse:Security></soap:Header><soap:Body wsu:Id="Body-1"><r:EchoResponse xmlns:r="urn:r"><r:text>signed by a peer</r:text></r:EchoResponse></soap:Body></soap:Envelope>"#
    )
}

/// The decoded `ds:SignatureValue` of a signed document.
fn signature_value(xml: &str) -> Vec<u8> {
    use base64::Engine;
    let start = xml.find("SignatureValue>").unwrap() + "SignatureValue>".len();
    let end = start + xml[start..].find('<').unwrap();
    let compact: String = xml[start..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .unwrap()
}

/// The request a client with `signer` writes, or the error it gives.
fn try_request(signer: X509Signer) -> Result<String, String> {
    let client = offline_client(
        WssConfig::new()
            .require_signature(false)
            .timestamp(Duration::from_secs(300))
            .sign(signer),
    );
    let op = echo_operation(SoapVersion::Soap11);
    let request = soapgen_tests::wss::text_request(&client, &[("tns", ECHO_NS)], "Echo", "x");
    client
        .message(&op, &request)
        .map(|m| m.envelope)
        .map_err(|e| e.to_string())
}

#[test]
fn ecdsa_both_ways_with_xmlsec1() {
    let ca = path("ca.pem");
    let ca = ca.to_str().unwrap();
    for (curve, alg, sig_uri, digest_uri, value_len) in [
        (
            "P-256",
            SignatureAlgorithm::EcdsaSha256,
            ECDSA_SHA256,
            SHA256,
            64,
        ),
        (
            "P-384",
            SignatureAlgorithm::EcdsaSha384,
            ECDSA_SHA384,
            SHA384,
            96,
        ),
    ] {
        let stem = pki::ec_leaf(curve);
        let (pem, key, sec1) = (
            path(&format!("{stem}.pem")),
            path(&format!("{stem}.key")),
            path(&format!("{stem}-sec1.key")),
        );
        let pem_bytes = std::fs::read(&pem).unwrap();
        let cred = X509Credential::from_pem(&pem_bytes, &std::fs::read(&key).unwrap())
            .unwrap_or_else(|e| panic!("{curve} PKCS#8: {e}"));
        let from_sec1 = X509Credential::from_pem(&pem_bytes, &std::fs::read(&sec1).unwrap())
            .unwrap_or_else(|e| panic!("{curve} RFC 5915: {e}"));
        assert_eq!(cred.default_signature_algorithm(), alg);
        assert_eq!(from_sec1.certificate(), cred.certificate());

        // soapgen signs (the curve's method by default), xmlsec1 verifies.
        for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
            let wss = WssConfig::new()
                .require_signature(false)
                .timestamp(Duration::from_secs(300))
                .sign(X509Signer::new(cred.clone()));
            let xml = request(wss, version, "signed with ECDSA ü &");
            assert!(xml.contains(sig_uri), "{xml}");
            assert_eq!(signature_value(&xml).len(), value_len, "r || s on {curve}");
            xmlsec1_verify(&xml, &["--pubkey-cert-pem", pem.to_str().unwrap()])
                .unwrap_or_else(|e| panic!("xmlsec1 refused {curve}:\n{e}\n{xml}"));
            let x509 = str_as_x509data(&xml);
            xmlsec1_verify(&x509, &["--enabled-key-data", "x509", "--trusted-pem", ca])
                .unwrap_or_else(|e| panic!("xmlsec1 refused {curve} through the CA:\n{e}"));
            let tampered = xml.replace("signed with ECDSA", "signed with ECDSB");
            assert!(
                xmlsec1_verify(&tampered, &["--pubkey-cert-pem", pem.to_str().unwrap()]).is_err()
            );
        }

        // xmlsec1 signs, soapgen verifies (the certificate in ds:X509Data, trusted via the CA).
        let signed = xmlsec1_sign(
            &response(),
            &key,
            &pem,
            sig_uri,
            digest_uri,
            &["TS-1", "Body-1"],
        );
        assert_eq!(signature_value(&signed).len(), value_len);
        let report = client_wss()
            .check_response(signed.as_bytes(), UtcTime::now())
            .unwrap_or_else(|e| panic!("{curve}: {e}\n{signed}"));
        assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
        assert!(report.signer.unwrap().subject().contains(&stem));
        // A changed Body, a changed SignatureValue, a policy without the method.
        let e = client_wss()
            .check_response(
                signed
                    .replace("signed by a peer", "signed by a pier")
                    .as_bytes(),
                UtcTime::now(),
            )
            .unwrap_err();
        assert!(
            matches!(&e, WssError::InvalidSignature(m) if m.contains("digest")),
            "{e}"
        );
        let at = signed.find("SignatureValue>").unwrap() + "SignatureValue>".len();
        let mut flipped = signed.clone();
        let c = if &signed[at + 4..at + 5] == "A" {
            "B"
        } else {
            "A"
        };
        flipped.replace_range(at + 4..at + 5, c);
        let e = client_wss()
            .check_response(flipped.as_bytes(), UtcTime::now())
            .unwrap_err();
        assert!(
            matches!(&e, WssError::InvalidSignature(m) if m.contains("SignatureValue")),
            "{e}"
        );
        let e = client_wss()
            .algorithms(AlgorithmPolicy::default().deny(sig_uri))
            .check_response(signed.as_bytes(), UtcTime::now())
            .unwrap_err();
        assert!(
            matches!(&e, WssError::AlgorithmNotAllowed { role: "SignatureMethod", uri } if uri == sig_uri),
            "{e}"
        );
    }

    // A P-256 key with SHA-384 (xmlsec1 signs it) is refused, naming the curve.
    let p256 = pki::ec_leaf("P-256");
    let (key, pem) = (path(&format!("{p256}.key")), path(&format!("{p256}.pem")));
    let signed = xmlsec1_sign(
        &response(),
        &key,
        &pem,
        ECDSA_SHA384,
        SHA256,
        &["TS-1", "Body-1"],
    );
    xmlsec1_verify(&signed, &["--pubkey-cert-pem", pem.to_str().unwrap()]).unwrap();
    let e = client_wss()
        .check_response(signed.as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::InvalidSignature(m) if m.contains("EC P-256") && m.contains("P-384 with SHA-384")),
        "{e}"
    );
    // An RSA method with an EC key, and ECDSA with an RSA key, both ways.
    let signed = xmlsec1_sign(
        &response(),
        &key,
        &pem,
        ECDSA_SHA256,
        SHA256,
        &["TS-1", "Body-1"],
    );
    let rsa_uri = signed.replace(ECDSA_SHA256, RSA_SHA256);
    let e = client_wss()
        .check_response(rsa_uri.as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::InvalidSignature(m) if m.contains("no RSA key")),
        "{e}"
    );
    let server = xmlsec1_sign(
        &response(),
        &path("server.key"),
        &path("server.pem"),
        RSA_SHA256,
        SHA256,
        &["TS-1", "Body-1"],
    );
    let e = client_wss()
        .check_response(
            server.replace(RSA_SHA256, ECDSA_SHA256).as_bytes(),
            UtcTime::now(),
        )
        .unwrap_err();
    assert!(
        matches!(&e, WssError::InvalidSignature(m) if m.contains("not the EC key")),
        "{e}"
    );
    let cred =
        X509Credential::from_pem(&std::fs::read(&pem).unwrap(), &std::fs::read(&key).unwrap())
            .unwrap();
    let e = try_request(
        X509Signer::new(cred.clone()).signature_algorithm(SignatureAlgorithm::EcdsaSha384),
    )
    .unwrap_err();
    assert!(e.contains("P-256") && e.contains("ecdsa-sha256"), "{e}");
    let e = try_request(X509Signer::new(cred).signature_algorithm(SignatureAlgorithm::RsaSha256))
        .unwrap_err();
    assert!(e.contains("P-256"), "{e}");
    let e = try_request(
        X509Signer::new(credential("client")).signature_algorithm(SignatureAlgorithm::EcdsaSha256),
    )
    .unwrap_err();
    assert!(e.contains("an RSA key cannot sign"), "{e}");
}

/// `signed` with its SignatureMethod replaced by `method` (a whole element) and the SignedInfo
/// signed again by `openssl dgst -sign server.key` with RSASSA-PSS, SHA-256 and a `salt`-byte
/// salt.
fn resign_pss(signed: &str, method: &str, salt: usize) -> String {
    use base64::Engine;
    let m_start = signed.find("<ds:SignatureMethod").unwrap();
    let m_end = m_start + signed[m_start..].find("/>").unwrap() + 2;
    let doc = format!("{}{method}{}", &signed[..m_start], &signed[m_end..]);
    let apex = doc.find("<ds:SignedInfo").unwrap();
    let mut c14n = Vec::new();
    exclusive_c14n(&doc, apex, &[], &mut c14n).unwrap();
    let key = path("server.key");
    let salt = format!("rsa_pss_saltlen:{salt}");
    let value = openssl_with_stdin(
        test_pki().dir(),
        &[
            "dgst",
            "-sha256",
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sigopt",
            &salt,
            "-sign",
            key.to_str().unwrap(),
        ],
        &c14n,
    );
    let v_start = doc.find("SignatureValue>").unwrap() + "SignatureValue>".len();
    let v_end = v_start + doc[v_start..].find('<').unwrap();
    format!(
        "{}{}{}",
        &doc[..v_start],
        base64::engine::general_purpose::STANDARD.encode(value),
        &doc[v_end..]
    )
}

#[test]
fn rsa_pss_both_ways_with_signxml() {
    let (server_key, server_pem) = (path("server.key"), path("server.pem"));
    let client_pem = path("client.pem");
    for alg in [
        SignatureAlgorithm::RsaPssSha256,
        SignatureAlgorithm::RsaPssSha384,
        SignatureAlgorithm::RsaPssSha512,
    ] {
        let uri = alg.uri();
        // soapgen signs, signxml verifies both References.
        let wss = WssConfig::new()
            .require_signature(false)
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(credential("client")).signature_algorithm(alg));
        let xml = request(wss, SoapVersion::Soap11, "signed with PSS ü &");
        assert!(xml.contains(uri), "{xml}");
        let ok = signxml_verify(&xml, &client_pem, uri, 2)
            .unwrap_or_else(|e| panic!("signxml refused {uri}:\n{e}\n{xml}"));
        assert!(ok.starts_with("OK "), "{ok}");
        let tampered = xml.replace("signed with PSS", "signed with PSs");
        assert!(signxml_verify(&tampered, &client_pem, uri, 2).is_err());
        // Another key does not verify it.
        assert!(signxml_verify(&xml, &server_pem, uri, 2).is_err());

        // signxml signs, soapgen verifies.
        let signed = signxml_sign(
            &response(),
            &server_key,
            &server_pem,
            uri,
            SHA256,
            &["TS-1", "Body-1"],
        );
        assert!(signed.contains(uri), "{signed}");
        let report = client_wss()
            .check_response(signed.as_bytes(), UtcTime::now())
            .unwrap_or_else(|e| panic!("{uri}: {e}\n{signed}"));
        assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
        let e = client_wss()
            .check_response(
                signed
                    .replace("signed by a peer", "signed by a pear")
                    .as_bytes(),
                UtcTime::now(),
            )
            .unwrap_err();
        assert!(matches!(e, WssError::InvalidSignature(_)), "{e}");
        // PKCS#1 v1.5 is not PSS: the same value under rsa-sha256 does not verify.
        let e = client_wss()
            .check_response(signed.replace(uri, RSA_SHA256).as_bytes(), UtcTime::now())
            .unwrap_err();
        assert!(
            matches!(&e, WssError::InvalidSignature(m) if m.contains("SignatureValue")),
            "{e}"
        );
    }

    // The parameterised form (RFC 6931 §2.3.10), signed by openssl: SHA-256, MGF1-SHA-256, a
    // 32-byte salt, as written out; and a 20-byte salt, which it names, refused.
    let signed = signxml_sign(
        &response(),
        &server_key,
        &server_pem,
        SignatureAlgorithm::RsaPssSha256.uri(),
        SHA256,
        &["TS-1", "Body-1"],
    );
    let params = |salt: usize| {
        format!(
            r#"<ds:SignatureMethod Algorithm="http://www.w3.org/2007/05/xmldsig-more#rsa-pss" xmlns:pss="http://www.w3.org/2007/05/xmldsig-more#"><pss:RSAPSSParams><ds:DigestMethod Algorithm="{SHA256}"/><pss:MaskGenerationFunction Algorithm="http://www.w3.org/2007/05/xmldsig-more#MGF1"><ds:DigestMethod Algorithm="{SHA256}"/></pss:MaskGenerationFunction><pss:SaltLength>{salt}</pss:SaltLength><pss:TrailerField>1</pss:TrailerField></pss:RSAPSSParams></ds:SignatureMethod>"#
        )
    };
    let with_params = resign_pss(&signed, &params(32), 32);
    let report = client_wss()
        .check_response(with_params.as_bytes(), UtcTime::now())
        .unwrap_or_else(|e| panic!("rsa-pss: {e}\n{with_params}"));
    assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
    let defaults = resign_pss(
        &signed,
        r#"<ds:SignatureMethod Algorithm="http://www.w3.org/2007/05/xmldsig-more#rsa-pss"/>"#,
        32,
    );
    client_wss()
        .check_response(defaults.as_bytes(), UtcTime::now())
        .unwrap_or_else(|e| panic!("rsa-pss with the default parameters: {e}"));
    let salt20 = resign_pss(&signed, &params(20), 20);
    let e = client_wss()
        .check_response(salt20.as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::AlgorithmNotAllowed { uri, .. } if uri.contains("SaltLength")),
        "{e}"
    );
}

#[test]
fn inclusive_c14n_is_an_opt_in() {
    let (key, pem) = (path("server.key"), path("server.pem"));
    let inclusive = || client_wss().algorithms(AlgorithmPolicy::default().allow_inclusive_c14n());
    for c14n in [C14N_10, C14N_11] {
        let signed = xmlsec1_sign_c14n(
            &response(),
            &key,
            &pem,
            RSA_SHA256,
            SHA256,
            c14n,
            &["TS-1", "Body-1"],
        );
        xmlsec1_verify(&signed, &["--pubkey-cert-pem", pem.to_str().unwrap()]).unwrap();
        // Refused by default, the error naming the switch.
        let e = client_wss()
            .check_response(signed.as_bytes(), UtcTime::now())
            .unwrap_err();
        assert!(
            matches!(&e, WssError::AlgorithmNotAllowed { role: "CanonicalizationMethod", uri } if uri.contains(c14n) && uri.contains("allow_inclusive_c14n")),
            "{e}"
        );
        assert!(e.to_string().contains("allow_inclusive_c14n"), "{e}");
        // Verified with the opt-in.
        let report = inclusive()
            .check_response(signed.as_bytes(), UtcTime::now())
            .unwrap_or_else(|e| panic!("{c14n}: {e}\n{signed}"));
        assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
        // Inclusive C14N covers the namespaces and xml:lang in scope: changing the unused
        // declaration or the Envelope's xml:lang breaks the signature (the canonical SignedInfo
        // inherits them too; for xmlsec1 as well), which Exclusive C14N would not notice.
        for (from, to) in [
            ("urn:unused", "urn:other"),
            ("xml:lang=\"en\"", "xml:lang=\"de\""),
        ] {
            let changed = signed.replacen(from, to, 1);
            assert_ne!(changed, signed);
            assert!(
                xmlsec1_verify(&changed, &["--pubkey-cert-pem", pem.to_str().unwrap()]).is_err()
            );
            let e = inclusive()
                .check_response(changed.as_bytes(), UtcTime::now())
                .unwrap_err();
            assert!(
                matches!(&e, WssError::InvalidSignature(_)),
                "{c14n} {from}: {e}"
            );
        }
        // Only the CanonicalizationMethod inclusive, the Transforms exclusive: still the opt-in.
        let exc = "http://www.w3.org/2001/10/xml-exc-c14n#";
        let transforms_only = signed.replace(
            &format!("<ds:Transform Algorithm=\"{c14n}\"/>"),
            &format!("<ds:Transform Algorithm=\"{exc}\"/>"),
        );
        assert_ne!(transforms_only, signed);
        let e = client_wss()
            .check_response(transforms_only.as_bytes(), UtcTime::now())
            .unwrap_err();
        assert!(
            matches!(
                &e,
                WssError::AlgorithmNotAllowed {
                    role: "CanonicalizationMethod",
                    ..
                }
            ),
            "{e}"
        );
    }
    // The comments forms stay refused even with the opt-in.
    let with_comments = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315#WithComments";
    let signed = xmlsec1_sign_c14n(
        &response(),
        &key,
        &pem,
        RSA_SHA256,
        SHA256,
        with_comments,
        &["TS-1", "Body-1"],
    );
    let e = inclusive()
        .check_response(signed.as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::AlgorithmNotAllowed { uri, .. } if uri == with_comments),
        "{e}"
    );
}
