//! soapgen's inbound WS-Security checks (`WssConfig::check_response`) on responses signed and
//! encrypted outside soapgen: the signatures here are made by the `openssl` command line (RSA
//! PKCS#1 v1.5 over the canonical SignedInfo, digests by `openssl dgst`) and by xmlsec1, the
//! encryption with the XML-Enc primitives and `openssl`'s keys, so that each attack is
//! a message with a *valid* signature that must still be refused for the reason named.
//!
//! Certificates: `soapgen_tests::pki` (a test CA; `server.pem` signs responses, `client.pem` is
//! the client's own key, `stranger.pem` is self-signed and untrusted).

use std::time::Duration;

use soapgen_runtime::wss::{
    exclusive_c14n, AlgorithmPolicy, BlockEncryption, Certificate, KeyTransport, MessagePart,
    TrustStore, UsernameToken, UtcTime, WssConfig, WssError, X509Signer, STR_TRANSFORM,
};
use soapgen_runtime::xml::{Limits, XmlReader};
use soapgen_tests::pki::openssl_with_stdin;
use soapgen_tests::pki::test_pki;
use soapgen_tests::wss::client_wss;
use soapgen_tests::wss::uri::{
    B64, DS, EXC, RSA_SHA1, RSA_SHA256, SHA256, SOAP11, WSSE, WSU, X509V3,
};
use soapgen_tests::wss::{cert, credential};

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// An unsigned response: Timestamp (created `age` ago, TTL 300 s), the signer's BST, and a Body
/// with `content`.
fn response_with(signer: &str, age_secs: u64, content: &str) -> String {
    response_with_ttl(signer, age_secs, Some(300), content)
}

/// [`response_with`] with a Timestamp that expires `ttl_secs` after its creation (no `Expires`:
/// `None`).
fn response_with_ttl(signer: &str, age_secs: u64, ttl_secs: Option<u64>, content: &str) -> String {
    let created = UtcTime::now().minus(Duration::from_secs(age_secs));
    let expires = ttl_secs
        .map(|t| {
            format!(
                "<wsu:Expires>{}</wsu:Expires>",
                created.plus(Duration::from_secs(t))
            )
        })
        .unwrap_or_default();
    let der = cert(&format!("{signer}.pem")).der().to_vec();
    format!(
        r#"<soap:Envelope xmlns:soap="{SOAP11}" xmlns:wsu="{WSU}"><soap:Header><wsse:Security xmlns:wsse="{WSSE}" soap:mustUnderstand="1"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>{created}</wsu:Created>{expires}</wsu:Timestamp><wsse:BinarySecurityToken EncodingType="{B64}" ValueType="{X509V3}" wsu:Id="X509-1">{}</wsse:BinarySecurityToken></wsse:Security></soap:Header><soap:Body wsu:Id="Body-1">{content}</soap:Body></soap:Envelope>"#,
        b64(&der)
    )
}

fn response(signer: &str) -> String {
    response_with(
        signer,
        0,
        r#"<r:EchoResponse xmlns:r="urn:r"><r:text>hello</r:text></r:EchoResponse>"#,
    )
}

/// How a test signature is made.
struct Sig<'a> {
    /// (Id referenced, Transform algorithm).
    refs: Vec<(&'a str, &'a str)>,
    method: &'a str,
    digest: &'a str,
    /// The KeyInfo content.
    key_info: String,
    /// The key that signs (`server`, `stranger`, `client`).
    key: &'a str,
    /// Extra content of SignatureMethod (an HMACOutputLength).
    method_extra: &'a str,
}

impl<'a> Sig<'a> {
    fn new(refs: &[&'a str]) -> Self {
        Sig {
            refs: refs.iter().map(|r| (*r, EXC)).collect(),
            method: RSA_SHA256,
            digest: SHA256,
            key_info: format!(
                r##"<wsse:SecurityTokenReference xmlns:wsse="{WSSE}"><wsse:Reference URI="#X509-1" ValueType="{X509V3}"/></wsse:SecurityTokenReference>"##
            ),
            key: "server",
            method_extra: "",
        }
    }
}

/// Inserts a `ds:Signature` made by `openssl` into the Security header (at its end): digests of
/// the exclusive canonical form of each referenced element, the SignedInfo canonicalized in place
/// and signed with `sig.key`'s private key.
fn sign(doc: &str, sig: &Sig<'_>) -> String {
    let dgst = match sig.digest {
        SHA256 => "-sha256",
        _ => "-sha1",
    };
    let mut references = String::new();
    for (id, transform) in &sig.refs {
        // An STR-Transform (WSS 1.1 §8.3) digests the token the STR points at, not the STR.
        let digested = if *transform == STR_TRANSFORM {
            "X509-1"
        } else {
            id
        };
        let needle = format!("Id=\"{digested}\"");
        let at = doc.find(&needle).unwrap_or_else(|| panic!("no {needle}"));
        let apex = doc[..at].rfind('<').unwrap();
        let mut c14n = Vec::new();
        exclusive_c14n(doc, apex, &[], &mut c14n).unwrap();
        let digest = openssl_with_stdin(test_pki().dir(), &["dgst", dgst, "-binary"], &c14n);
        let params = if *transform == STR_TRANSFORM {
            format!(
                r#"<wsse:TransformationParameters xmlns:wsse="{WSSE}"><ds:CanonicalizationMethod Algorithm="{EXC}"/></wsse:TransformationParameters>"#
            )
        } else {
            String::new()
        };
        references.push_str(&format!(
            r##"<ds:Reference URI="#{id}"><ds:Transforms><ds:Transform Algorithm="{transform}">{params}</ds:Transform></ds:Transforms><ds:DigestMethod Algorithm="{}"/><ds:DigestValue>{}</ds:DigestValue></ds:Reference>"##,
            sig.digest,
            b64(&digest)
        ));
    }
    let signed_info = format!(
        r#"<ds:SignedInfo><ds:CanonicalizationMethod Algorithm="{EXC}"/><ds:SignatureMethod Algorithm="{}">{}</ds:SignatureMethod>{references}</ds:SignedInfo>"#,
        sig.method, sig.method_extra
    );
    let signature = |value: &str| {
        format!(
            r#"<ds:Signature xmlns:ds="{DS}" Id="SIG-1">{signed_info}<ds:SignatureValue>{value}</ds:SignatureValue><ds:KeyInfo>{}</ds:KeyInfo></ds:Signature>"#,
            sig.key_info
        )
    };
    let end = doc.find("</wsse:Security>").unwrap();
    let draft = format!("{}{}{}", &doc[..end], signature(""), &doc[end..]);
    let apex = draft.find("<ds:SignedInfo>").unwrap();
    let mut c14n = Vec::new();
    exclusive_c14n(&draft, apex, &[], &mut c14n).unwrap();
    let key = test_pki().path(&format!("{}.key", sig.key));
    let mdalg = if sig.method == RSA_SHA1 {
        "-sha1"
    } else {
        "-sha256"
    };
    let value = openssl_with_stdin(
        test_pki().dir(),
        &["dgst", mdalg, "-sign", key.to_str().unwrap()],
        &c14n,
    );
    format!("{}{}{}", &doc[..end], signature(&b64(&value)), &doc[end..])
}

fn check(cfg: &WssConfig, doc: &str) -> Result<soapgen_runtime::wss::InboundReport, WssError> {
    cfg.check_response(doc.as_bytes(), UtcTime::now())
}

fn signed_response() -> String {
    sign(&response("server"), &Sig::new(&["TS-1", "Body-1"]))
}

#[test]
fn a_signed_response_from_a_trusted_signer_is_accepted() {
    let report = check(&client_wss(), &signed_response()).unwrap();
    assert_eq!(
        report.signer.as_ref().map(|c| c.subject().to_owned()),
        Some(cert("server.pem").subject().to_owned())
    );
    assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
    // RSA-SHA1 with SHA-1 digests (WSS4J 1.6's and zeep's default) is accepted by default...
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.method = RSA_SHA1;
    s.digest = "http://www.w3.org/2000/09/xmldsig#sha1";
    let sha1 = sign(&response("server"), &s);
    check(&client_wss(), &sha1).unwrap();
    // ... but not by a policy without SHA-1.
    let strict = client_wss().algorithms(AlgorithmPolicy::default().without_sha1());
    let e = check(&strict, &sha1).unwrap_err();
    assert!(
        matches!(&e, WssError::AlgorithmNotAllowed { role: "SignatureMethod", uri } if uri == RSA_SHA1),
        "{e}"
    );
}

#[test]
fn the_signer_is_found_by_every_key_reference() {
    let server = cert("server.pem");
    let ski = b64(server.subject_key_identifier().unwrap());
    let thumb = b64(&server.sha1_thumbprint());
    let ski_type = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier";
    let thumb_type =
        "http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#ThumbprintSHA1";
    let str_ = |inner: String| {
        format!(
            r#"<wsse:SecurityTokenReference xmlns:wsse="{WSSE}">{inner}</wsse:SecurityTokenReference>"#
        )
    };
    let by_id = |vt: &str, v: &str| {
        str_(format!(
            r#"<wsse:KeyIdentifier EncodingType="{B64}" ValueType="{vt}">{v}</wsse:KeyIdentifier>"#
        ))
    };
    let issuer_serial = format!(
        r#"<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>{}</ds:X509IssuerName><ds:X509SerialNumber>4343</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>"#,
        server.issuer_rfc4514()
    );
    let embedded = format!(
        r#"<ds:X509Data><ds:X509Certificate>{}</ds:X509Certificate></ds:X509Data>"#,
        b64(server.der())
    );
    // Not carried in the message: found only in the configured store.
    for key_info in [
        by_id(ski_type, &ski),
        by_id(thumb_type, &thumb),
        str_(issuer_serial.clone()),
        issuer_serial,
    ] {
        // Without a BST in the message.
        let doc = response("server");
        let start = doc.find("<wsse:BinarySecurityToken").unwrap();
        let end = doc.find("</wsse:BinarySecurityToken>").unwrap() + 27;
        let doc = format!("{}{}", &doc[..start], &doc[end..]);
        let mut s = Sig::new(&["TS-1", "Body-1"]);
        s.key_info = key_info.clone();
        let signed = sign(&doc, &s);
        let e = check(&client_wss(), &signed).unwrap_err();
        assert!(matches!(e, WssError::UntrustedKey(_)), "{key_info}: {e}");
        let knows = client_wss().trust(
            TrustStore::new()
                .anchor(cert("ca.pem"))
                .certificate(server.clone()),
        );
        check(&knows, &signed).unwrap_or_else(|e| panic!("{key_info}: {e}"));
    }
    // The certificate embedded in X509Data: trusted through the CA like a BST.
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.key_info = embedded;
    check(&client_wss(), &sign(&response("server"), &s)).unwrap();
}

#[test]
fn signature_wrapping_is_refused() {
    let signed = signed_response();
    let body_start = signed.find("<soap:Body").unwrap();
    let body = &signed[body_start..signed.find("</soap:Envelope>").unwrap()];
    let evil_body = r#"<soap:Body><r:EchoResponse xmlns:r="urn:r"><r:text>evil</r:text></r:EchoResponse></soap:Body>"#;
    // 1. The signed Body moved into a header wrapper (Id kept), a new Body without an Id.
    let wrapped = format!(
        "{}<w:Wrapper xmlns:w=\"urn:w\">{body}</w:Wrapper></soap:Header>{evil_body}</soap:Envelope>",
        &signed[..signed.find("</soap:Header>").unwrap()]
    );
    let e = check(&client_wss(), &wrapped).unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, detail } if part == "Body" && detail.contains("wrapping")),
        "{e}"
    );
    // 2. The same, the new Body given the signed Id and the moved one another: the digest no
    //    longer matches.
    let moved = body.replacen("wsu:Id=\"Body-1\"", "wsu:Id=\"Body-2\"", 1);
    let wrapped = format!(
        "{}<w:Wrapper xmlns:w=\"urn:w\">{moved}</w:Wrapper></soap:Header>{}</soap:Envelope>",
        &signed[..signed.find("</soap:Header>").unwrap()],
        evil_body.replacen("<soap:Body>", "<soap:Body wsu:Id=\"Body-1\">", 1)
    );
    let e = check(&client_wss(), &wrapped).unwrap_err();
    assert!(
        matches!(&e, WssError::InvalidSignature(m) if m.contains("#Body-1")),
        "{e}"
    );
    // 3. Both with the signed Id: a duplicate Id.
    let wrapped = format!(
        "{}<w:Wrapper xmlns:w=\"urn:w\">{body}</w:Wrapper></soap:Header>{}</soap:Envelope>",
        &signed[..signed.find("</soap:Header>").unwrap()],
        evil_body.replacen("<soap:Body>", "<soap:Body wsu:Id=\"Body-1\">", 1)
    );
    let e = check(&client_wss(), &wrapped).unwrap_err();
    assert_eq!(e, WssError::DuplicateId("Body-1".to_owned()));
    // 4. A second Body after the signed one.
    let two = signed.replace("</soap:Body>", &format!("</soap:Body>{evil_body}"));
    let e = check(&client_wss(), &two).unwrap_err();
    assert!(
        matches!(&e, WssError::Malformed { reason, .. } if reason.contains("second Body")),
        "{e}"
    );
    // 5. A duplicate Id anywhere else (a Timestamp copy in another header).
    let dup = signed.replace(
        "</soap:Header>",
        "<x:Other xmlns:x=\"urn:x\" wsu:Id=\"TS-1\"/></soap:Header>",
    );
    assert_eq!(
        check(&client_wss(), &dup).unwrap_err(),
        WssError::DuplicateId("TS-1".to_owned())
    );
}

#[test]
fn missing_or_partial_signatures_are_refused() {
    // Signature removed.
    let e = check(&client_wss(), &response("server")).unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, .. } if part == "Body"),
        "{e}"
    );
    // The Body not referenced (only the Timestamp signed).
    let e = check(
        &client_wss(),
        &sign(&response("server"), &Sig::new(&["TS-1"])),
    )
    .unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, .. } if part == "Body"),
        "{e}"
    );
    // An unsigned Timestamp (only the Body signed).
    let e = check(
        &client_wss(),
        &sign(&response("server"), &Sig::new(&["Body-1"])),
    )
    .unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, .. } if part == "Timestamp"),
        "{e}"
    );
    // A tampered Body.
    let e = check(
        &client_wss(),
        &signed_response().replace(">hello<", ">hellO<"),
    )
    .unwrap_err();
    assert!(matches!(&e, WssError::InvalidSignature(_)), "{e}");
    // A tampered SignedInfo.
    let e = check(
        &client_wss(),
        &signed_response().replacen("URI=\"#TS-1\"", "URI=\"#TS-1\" ", 1),
    );
    assert!(e.is_ok(), "attribute whitespace is not significant: {e:?}");
    let tampered = signed_response().replacen("#TS-1\"", "#Body-1\"", 1);
    let e = check(&client_wss(), &tampered).unwrap_err();
    assert!(matches!(&e, WssError::InvalidSignature(_)), "{e}");
}

#[test]
fn untrusted_keys_are_refused() {
    // A self-signed stranger with its own BinarySecurityToken.
    let e = check(
        &client_wss(),
        &sign(&response("stranger"), &{
            let mut s = Sig::new(&["TS-1", "Body-1"]);
            s.key = "stranger";
            s
        }),
    )
    .unwrap_err();
    assert!(
        matches!(&e, WssError::UntrustedCertificate { subject, .. } if subject.contains("stranger")),
        "{e}"
    );
    // The server's certificate in the BST but the stranger's key: the signature does not verify.
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.key = "stranger";
    let e = check(&client_wss(), &sign(&response("server"), &s)).unwrap_err();
    assert!(matches!(&e, WssError::InvalidSignature(_)), "{e}");
    // An embedded KeyValue.
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.key_info = "<ds:KeyValue><ds:RSAKeyValue><ds:Modulus>AQAB</ds:Modulus><ds:Exponent>AQAB</ds:Exponent></ds:RSAKeyValue></ds:KeyValue>".to_owned();
    let e = check(&client_wss(), &sign(&response("server"), &s)).unwrap_err();
    assert!(
        matches!(&e, WssError::UntrustedKey(m) if m.contains("KeyValue")),
        "{e}"
    );
    // No trust configured at all.
    let e = check(
        &WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(credential("client"))),
        &signed_response(),
    )
    .unwrap_err();
    assert!(
        matches!(&e, WssError::UntrustedCertificate { reason, .. } if reason.contains("no trust anchor")),
        "{e}"
    );
    // The client's own CA does not make the CA-less stranger trusted by pinning something else.
    let pinned = client_wss().trust(TrustStore::new().certificate(cert("client.pem")));
    let e = check(&pinned, &signed_response()).unwrap_err();
    assert!(matches!(&e, WssError::UntrustedCertificate { .. }), "{e}");
    // Pinning the server's certificate is enough, without the CA.
    let pinned = client_wss().trust(TrustStore::new().certificate(cert("server.pem")));
    check(&pinned, &signed_response()).unwrap();
}

#[test]
fn weak_or_unknown_algorithms_and_transforms_are_refused() {
    // HMAC output truncation (CVE-2009-0217).
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.method = "http://www.w3.org/2000/09/xmldsig#hmac-sha1";
    s.method_extra = "<ds:HMACOutputLength>0</ds:HMACOutputLength>";
    // (signed with RSA: the method is refused before any key is used)
    let e = check(&client_wss(), &sign(&response("server"), &s)).unwrap_err();
    assert!(
        matches!(&e, WssError::AlgorithmNotAllowed { role: "SignatureMethod", uri } if uri.contains("HMACOutputLength")),
        "{e}"
    );
    // Transforms other than exclusive C14N and STR-Transform.
    for transform in [
        "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
        "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
        "http://www.w3.org/2001/10/xml-exc-c14n#WithComments",
        "http://www.w3.org/TR/1999/REC-xslt-19991116",
    ] {
        let mut s = Sig::new(&["TS-1", "Body-1"]);
        s.refs[1].1 = transform;
        let e = check(&client_wss(), &sign(&response("server"), &s)).unwrap_err();
        // (inclusive C14N, an opt-in, is refused with the name of the switch)
        assert!(
            matches!(&e, WssError::AlgorithmNotAllowed { role: "Transform", uri } if uri == transform || uri.starts_with(transform) && uri.contains("allow_inclusive_c14n")),
            "{e}"
        );
    }
    // More References than the limit.
    let many: Vec<&str> = std::iter::repeat_n("Body-1", 33).collect();
    let e = check(&client_wss(), &sign(&response("server"), &Sig::new(&many))).unwrap_err();
    assert_eq!(
        e,
        WssError::TooManyReferences {
            count: 33,
            limit: 32
        }
    );
    let few = client_wss().max_signature_references(2);
    // At the limit: accepted.
    check(
        &few,
        &sign(&response("server"), &Sig::new(&["TS-1", "Body-1"])),
    )
    .unwrap();
    let e = check(
        &few,
        &sign(
            &response("server"),
            &Sig::new(&["TS-1", "Body-1", "X509-1"]),
        ),
    )
    .unwrap_err();
    assert_eq!(e, WssError::TooManyReferences { count: 3, limit: 2 });
}

#[test]
fn doctype_and_entity_expansion_are_refused() {
    let signed = signed_response();
    for prolog in [
        "<!DOCTYPE soap:Envelope>",
        "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>",
    ] {
        let e = check(&client_wss(), &format!("{prolog}{signed}")).unwrap_err();
        assert!(matches!(&e, WssError::Read(m) if m.contains("DOCTYPE")), "{e}");
    }
}

#[test]
fn timestamps_are_checked() {
    let both = Sig::new(&["TS-1", "Body-1"]);
    let x = "<r:x xmlns:r=\"urn:r\"/>";
    // Created 20 min ago (TTL 5 min): older than the maximum age (5 min, WSS4J's timeStampTTL),
    // and, when older ones are allowed, expired (skew 1 min).
    let doc = sign(&response_with("server", 1200, x), &both);
    let e = check(&client_wss(), &doc).unwrap_err();
    assert!(
        matches!(
            e,
            WssError::TimestampTooOld {
                max_age_secs: 300,
                ..
            }
        ),
        "{e}"
    );
    let hour = client_wss().max_timestamp_age(Duration::from_secs(3600));
    let e = check(&hour, &doc).unwrap_err();
    assert!(
        matches!(e, WssError::TimestampExpired { skew_secs: 60, .. }),
        "{e}"
    );
    // Created 6 min ago, expiring in a day, or never: too old all the same.
    for ttl in [Some(86_400), None] {
        let doc = sign(&response_with_ttl("server", 360, ttl, x), &both);
        let e = check(&client_wss(), &doc).unwrap_err();
        assert!(
            matches!(e, WssError::TimestampTooOld { .. }),
            "{ttl:?}: {e}"
        );
        check(&hour, &doc).unwrap_or_else(|e| panic!("{ttl:?}: {e}"));
    }
    // Created 2 min in the future: beyond the default skew of 1 min (WSS4J's
    // timeStampFutureTTL), within a skew of 5 min.
    let ahead = {
        let doc = response("server");
        let c0 = doc.find("<wsu:Created>").unwrap() + 13;
        let c1 = doc.find("</wsu:Created>").unwrap();
        format!(
            "{}{}{}",
            &doc[..c0],
            UtcTime::now().plus(Duration::from_secs(120)),
            &doc[c1..]
        )
    };
    let ahead = sign(&ahead, &both);
    let e = check(&client_wss(), &ahead).unwrap_err();
    assert!(
        matches!(e, WssError::TimestampInFuture { skew_secs: 60, .. }),
        "{e}"
    );
    check(&client_wss().clock_skew(Duration::from_secs(300)), &ahead).unwrap();
    // Created 20 min in the future.
    let future = {
        let created = UtcTime::now().plus(Duration::from_secs(1200));
        let doc = response("server");
        let c0 = doc.find("<wsu:Created>").unwrap() + 13;
        let c1 = doc.find("</wsu:Created>").unwrap();
        let e0 = doc.find("<wsu:Expires>").unwrap() + 13;
        let e1 = doc.find("</wsu:Expires>").unwrap();
        format!(
            "{}{created}{}{}{}",
            &doc[..c0],
            &doc[c1..e0],
            created.plus(Duration::from_secs(300)),
            &doc[e1..]
        )
    };
    let e = check(&client_wss(), &sign(&future, &both)).unwrap_err();
    assert!(matches!(e, WssError::TimestampInFuture { .. }), "{e}");
    // Two Timestamps.
    let doc = response("server");
    let ts = &doc[doc.find("<wsu:Timestamp").unwrap()..doc.find("</wsu:Timestamp>").unwrap() + 16];
    let two = doc.replacen(ts, &format!("{ts}{}", ts.replace("TS-1", "TS-2")), 1);
    let e = check(
        &client_wss(),
        &sign(&two, &Sig::new(&["TS-1", "TS-2", "Body-1"])),
    )
    .unwrap_err();
    assert_eq!(e, WssError::DuplicateTimestamp);
}

#[test]
fn replays_are_refused() {
    let cfg = client_wss();
    let signed = signed_response();
    check(&cfg, &signed).unwrap();
    assert_eq!(
        check(&cfg, &signed).unwrap_err(),
        WssError::Replay("signature value")
    );
    // A signed Timestamp without Expires: its signature is remembered for as long as the message
    // could be accepted (here an hour), not a fixed 6 minutes; after that it is too old.
    let hour = client_wss().max_timestamp_age(Duration::from_secs(3600));
    let open = sign(
        &response_with_ttl("server", 0, None, "<r:x xmlns:r=\"urn:r\"/>"),
        &Sig::new(&["TS-1", "Body-1"]),
    );
    let later = |mins: u64| UtcTime::now().plus(Duration::from_secs(60 * mins));
    hour.check_response(open.as_bytes(), UtcTime::now())
        .unwrap();
    for mins in [11, 59] {
        assert_eq!(
            hour.check_response(open.as_bytes(), later(mins))
                .unwrap_err(),
            WssError::Replay("signature value"),
            "{mins} min later"
        );
    }
    assert!(matches!(
        hour.check_response(open.as_bytes(), later(61)),
        Err(WssError::TimestampTooOld { .. })
    ));
    // A clone shares the cache (a client's configuration is cloned into each call).
    assert!(check(&cfg.clone(), &signed).is_err());
    // A UsernameToken Nonce replayed in another (unsigned) response.
    let created = UtcTime::now().to_string();
    let nonce = [7u8; 16];
    let digest = UsernameToken::password_digest(&nonce, &created, "pw");
    let ut = format!(
        r#"<wsse:UsernameToken><wsse:Username>server</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">{digest}</wsse:Password><wsse:Nonce EncodingType="{B64}">{}</wsse:Nonce><wsu:Created>{created}</wsu:Created></wsse:UsernameToken>"#,
        b64(&nonce)
    );
    let doc = response("server").replace("</wsse:Security>", &format!("{ut}</wsse:Security>"));
    let ut_cfg = WssConfig::new().expect_username_token("server", "pw");
    let report = check(&ut_cfg, &doc).unwrap();
    assert_eq!(report.username.as_deref(), Some("server"));
    assert_eq!(
        check(&ut_cfg, &doc.replace("TS-1", "TS-9")).unwrap_err(),
        WssError::Replay("UsernameToken Nonce")
    );
    // A wrong password, and a missing token.
    let wrong = WssConfig::new().expect_username_token("server", "other");
    assert!(
        matches!(check(&wrong, &doc), Err(WssError::UsernameToken(m)) if m == "wrong password")
    );
    assert!(matches!(
        check(&ut_cfg, &response("server")),
        Err(WssError::UsernameToken(_))
    ));
}

#[test]
fn comments_inside_signed_text_do_not_shorten_the_value_read() {
    // Canonical XML drops comments, so the signature covers "hello" whether or not a comment
    // splits it; the reader must then read the whole text, not the part before the comment.
    let doc = response_with(
        "server",
        0,
        r#"<r:EchoResponse xmlns:r="urn:r"><r:text>hel<!-- injected -->lo</r:text></r:EchoResponse>"#,
    );
    let with_comment = sign(&doc, &Sig::new(&["TS-1", "Body-1"]));
    check(&client_wss(), &with_comment).unwrap();
    let mut r = XmlReader::from_bytes(with_comment.as_bytes(), Limits::default()).unwrap();
    let mut text = None;
    let _root = r.root().unwrap();
    while let Some(tag) = r.next_child().unwrap() {
        if tag.local_name() == "Body" {
            let resp = r.next_child().unwrap().unwrap();
            assert_eq!(resp.local_name(), "EchoResponse");
            let t = r.next_child().unwrap().unwrap();
            assert_eq!(t.local_name(), "text");
            text = Some(r.read_text().unwrap().into_owned());
            break;
        }
        r.skip_element().unwrap();
    }
    assert_eq!(text.as_deref(), Some("hello"));
}

/// An encrypted response: the Body content encrypted with `block` under a fresh key, the key
/// wrapped for `recipient` with `transport` in an EncryptedKey (KeyIdentifier by SKI) of the
/// Security header; `tamper` edits the ciphertext before base64.
fn encrypted_response(
    recipient: &Certificate,
    block: BlockEncryption,
    transport: KeyTransport,
    plaintext: &str,
    tamper: impl FnOnce(&mut Vec<u8>, &mut Vec<u8>),
) -> String {
    let key = block.generate_key().unwrap();
    let mut data = block.encrypt(&key, plaintext.as_bytes()).unwrap();
    let mut wrapped = transport.wrap(recipient, &key).unwrap();
    tamper(&mut data, &mut wrapped);
    let ski = b64(recipient.subject_key_identifier().unwrap());
    let ek = format!(
        r##"<xenc:EncryptedKey xmlns:xenc="http://www.w3.org/2001/04/xmlenc#" Id="EK-1"><xenc:EncryptionMethod Algorithm="{}"/><ds:KeyInfo xmlns:ds="{DS}"><wsse:SecurityTokenReference><wsse:KeyIdentifier EncodingType="{B64}" ValueType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier">{ski}</wsse:KeyIdentifier></wsse:SecurityTokenReference></ds:KeyInfo><xenc:CipherData><xenc:CipherValue>{}</xenc:CipherValue></xenc:CipherData><xenc:ReferenceList><xenc:DataReference URI="#ED-1"/></xenc:ReferenceList></xenc:EncryptedKey>"##,
        transport.uri(),
        b64(&wrapped)
    );
    let ed = format!(
        r#"<xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#" Id="ED-1" Type="http://www.w3.org/2001/04/xmlenc#Content"><xenc:EncryptionMethod Algorithm="{}"/><xenc:CipherData><xenc:CipherValue>{}</xenc:CipherValue></xenc:CipherData></xenc:EncryptedData>"#,
        block.uri(),
        b64(&data)
    );
    let doc = response_with("server", 0, &ed);
    doc.replacen("<wsu:Timestamp", &format!("{ek}<wsu:Timestamp"), 1)
}

fn decrypting() -> WssConfig {
    WssConfig::new()
        .decrypt_with(credential("client"))
        .require_encryption(true)
}

#[test]
fn encrypted_responses_are_decrypted() {
    let me = cert("client.pem");
    let body =
        r#"<r:EchoResponse xmlns:r="urn:r"><r:text>secret &amp; more</r:text></r:EchoResponse>"#;
    for block in BlockEncryption::ALL {
        for transport in KeyTransport::ALL {
            let doc = encrypted_response(&me, block, transport, body, |_, _| {});
            let cfg = decrypting().algorithms(
                AlgorithmPolicy::default()
                    .allow(block.uri())
                    .allow(transport.uri()),
            );
            let processed = cfg.check_response(doc.as_bytes(), UtcTime::now());
            let report = processed.unwrap_or_else(|e| panic!("{block:?} {transport:?}: {e}"));
            assert_eq!(report.decrypted, [MessagePart::Body], "{block:?}");
        }
    }
    // 3DES and RSA-1_5 only when allowed.
    let doc = encrypted_response(
        &me,
        BlockEncryption::TripleDesCbc,
        KeyTransport::RsaOaepMgf1Sha1,
        body,
        |_, _| {},
    );
    assert!(matches!(
        check(&decrypting(), &doc),
        Err(WssError::AlgorithmNotAllowed {
            role: "block encryption",
            ..
        })
    ));
    let doc = encrypted_response(
        &me,
        BlockEncryption::Aes128Cbc,
        KeyTransport::Rsa15,
        body,
        |_, _| {},
    );
    assert!(matches!(
        check(&decrypting(), &doc),
        Err(WssError::AlgorithmNotAllowed {
            role: "key transport",
            ..
        })
    ));
    // An unencrypted Body when encryption is required.
    assert_eq!(
        check(&decrypting(), &response("server")).unwrap_err(),
        WssError::NotEncrypted("Body".to_owned())
    );
    // For another recipient: a clear error (the recipient is public, not an oracle).
    let doc = encrypted_response(
        &cert("server.pem"),
        BlockEncryption::Aes256Gcm,
        KeyTransport::RsaOaepMgf1Sha1,
        body,
        |_, _| {},
    );
    let e = check(&decrypting(), &doc).unwrap_err();
    assert!(
        matches!(&e, WssError::Malformed { reason, .. } if reason.contains("not for this client")),
        "{e}"
    );
}

#[test]
fn every_decryption_failure_is_the_same_error() {
    let me = cert("client.pem");
    let body = r#"<r:EchoResponse xmlns:r="urn:r"><r:text>secret</r:text></r:EchoResponse>"#;
    let policy = AlgorithmPolicy::default()
        .allow(KeyTransport::Rsa15.uri())
        .allow(BlockEncryption::TripleDesCbc.uri());
    let cfg = decrypting().algorithms(policy);
    let cases: Vec<(&str, String)> = vec![
        (
            "bad CBC padding",
            encrypted_response(
                &me,
                BlockEncryption::Aes128Cbc,
                KeyTransport::RsaOaepMgf1Sha1,
                body,
                |d, _| {
                    let n = d.len();
                    d[n - 1] ^= 0x5a;
                },
            ),
        ),
        (
            "GCM tag mismatch",
            encrypted_response(
                &me,
                BlockEncryption::Aes256Gcm,
                KeyTransport::RsaOaepMgf1Sha1,
                body,
                |d, _| {
                    d[20] ^= 1;
                },
            ),
        ),
        (
            "wrong key (OAEP)",
            encrypted_response(
                &me,
                BlockEncryption::Aes256Cbc,
                KeyTransport::RsaOaepMgf1Sha1,
                body,
                |_, k| {
                    k[5] ^= 1;
                },
            ),
        ),
        (
            "wrong key (RSA-1_5, implicit rejection)",
            encrypted_response(
                &me,
                BlockEncryption::Aes128Cbc,
                KeyTransport::Rsa15,
                body,
                |_, k| {
                    k[5] ^= 1;
                },
            ),
        ),
        (
            "invalid plaintext (unbalanced tags that would restructure the envelope)",
            encrypted_response(
                &me,
                BlockEncryption::Aes128Gcm,
                KeyTransport::RsaOaepMgf1Sha1,
                "</soap:Body><soap:Body>",
                |_, _| {},
            ),
        ),
        (
            "invalid plaintext (not UTF-8)",
            encrypted_response(
                &me,
                BlockEncryption::Aes128Gcm,
                KeyTransport::RsaOaepMgf1Sha1,
                "\u{0}",
                |_, _| {},
            ),
        ),
        (
            "invalid plaintext (a DOCTYPE)",
            encrypted_response(
                &me,
                BlockEncryption::TripleDesCbc,
                KeyTransport::RsaOaepMgf1Sha1,
                "<!DOCTYPE x><x/>",
                |_, _| {},
            ),
        ),
        (
            "truncated ciphertext",
            encrypted_response(
                &me,
                BlockEncryption::Aes256Cbc,
                KeyTransport::RsaOaepMgf1Sha1,
                body,
                |d, _| {
                    d.truncate(d.len() - 7);
                },
            ),
        ),
    ];
    for (what, doc) in cases {
        let e = check(&cfg, &doc).unwrap_err();
        assert_eq!(e, WssError::DecryptionFailed, "{what}: {e}");
        assert_eq!(e.to_string(), "WS-Security: decryption failed", "{what}");
    }
}

#[test]
fn sign_then_encrypt_and_encrypt_then_sign_responses() {
    let me = cert("client.pem");
    let plain = r#"<r:EchoResponse xmlns:r="urn:r"><r:text>both</r:text></r:EchoResponse>"#;
    let cfg = client_wss().require_encryption(true);
    // Encrypt-then-sign: the Signature covers the Body holding the EncryptedData, and comes
    // before the EncryptedKey in the header (header order is processing order, WSS 1.1 §5).
    let enc = encrypted_response(
        &me,
        BlockEncryption::Aes256Gcm,
        KeyTransport::RsaOaepMgf1Sha1,
        plain,
        |_, _| {},
    );
    // Put the Signature first in the header so it is processed before the EncryptedKey.
    let signed = sign(&enc, &Sig::new(&["TS-1", "Body-1"]));
    let s0 = signed.find("<ds:Signature").unwrap();
    let s1 = signed.find("</ds:Signature>").unwrap() + 15;
    let sig = &signed[s0..s1];
    let without = format!("{}{}", &signed[..s0], &signed[s1..]);
    let at = without.find("<xenc:EncryptedKey").unwrap();
    let enc_then_sign = format!("{}{sig}{}", &without[..at], &without[at..]);
    let report = check(&cfg, &enc_then_sign).unwrap();
    assert!(report.signed.contains(&MessagePart::Body));
    assert_eq!(report.decrypted, [MessagePart::Body]);
    // Sign-then-encrypt: the signature covers the plaintext Body; the EncryptedKey comes first.
    let plain_doc = response_with("server", 0, plain);
    let signed = sign(&plain_doc, &Sig::new(&["TS-1", "Body-1"]));
    let block = BlockEncryption::Aes128Cbc;
    let key = block.generate_key().unwrap();
    let data = block.encrypt(&key, plain.as_bytes()).unwrap();
    let wrapped = KeyTransport::RsaOaepMgf1Sha1.wrap(&me, &key).unwrap();
    let ek = format!(
        r##"<xenc:EncryptedKey xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"><xenc:EncryptionMethod Algorithm="{}"/><xenc:CipherData><xenc:CipherValue>{}</xenc:CipherValue></xenc:CipherData><xenc:ReferenceList><xenc:DataReference URI="#ED-7"/></xenc:ReferenceList></xenc:EncryptedKey>"##,
        KeyTransport::RsaOaepMgf1Sha1.uri(),
        b64(&wrapped)
    );
    let ed = format!(
        r#"<xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#" Id="ED-7" Type="http://www.w3.org/2001/04/xmlenc#Content"><xenc:EncryptionMethod Algorithm="{}"/><xenc:CipherData><xenc:CipherValue>{}</xenc:CipherValue></xenc:CipherData></xenc:EncryptedData>"#,
        block.uri(),
        b64(&data)
    );
    let sign_then_enc = signed
        .replacen("<wsu:Timestamp", &format!("{ek}<wsu:Timestamp"), 1)
        .replacen(plain, &ed, 1);
    let report = check(&cfg, &sign_then_enc).unwrap();
    assert!(report.signed.contains(&MessagePart::Body));
    assert_eq!(report.decrypted, [MessagePart::Body]);
    // The signature does not cover a ciphertext swapped for another plaintext.
    let other = sign_then_enc.replacen(
        &b64(&data),
        &b64(&block
            .encrypt(&key, plain.replace("both", "evil").as_bytes())
            .unwrap()),
        1,
    );
    assert!(matches!(
        check(&cfg, &other),
        Err(WssError::InvalidSignature(_))
    ));
}

#[test]
fn xmlsec1_signed_and_encrypted_responses_are_verified_and_decrypted() {
    use soapgen_tests::xmlsec::{xmlsec1_encrypt_body, xmlsec1_sign};
    let pki = test_pki();
    // Signatures: RSA-SHA1 and RSA-SHA256, SHA-1 and SHA-256 digests, the certificate in
    // ds:X509Data (trusted through the CA).
    for (sig, digest) in [
        (RSA_SHA256, SHA256),
        (RSA_SHA1, "http://www.w3.org/2000/09/xmldsig#sha1"),
        (
            "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
            "http://www.w3.org/2001/04/xmlenc#sha512",
        ),
    ] {
        let signed = xmlsec1_sign(
            &response("server"),
            &pki.path("server.key"),
            &pki.path("server.pem"),
            sig,
            digest,
            &["TS-1", "Body-1"],
        );
        let report =
            check(&client_wss(), &signed).unwrap_or_else(|e| panic!("{sig}: {e}\n{signed}"));
        assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
        // And xmlsec1's signature of the Body alone leaves the Timestamp unsigned: refused.
        let body_only = xmlsec1_sign(
            &response("server"),
            &pki.path("server.key"),
            &pki.path("server.pem"),
            sig,
            digest,
            &["Body-1"],
        );
        assert!(
            matches!(check(&client_wss(), &body_only), Err(WssError::NotSigned { part, .. }) if part == "Timestamp")
        );
    }
    // Encryption: every block cipher xmlsec1 has, OAEP and RSA-1_5 key transport, for the client's
    // certificate; the decrypted Body is the original.
    let content = r#"<r:EchoResponse xmlns:r="urn:r"><r:text>xmlsec1 &amp; soapgen ü</r:text></r:EchoResponse>"#;
    let plain = response_with("server", 0, content);
    for block in [
        "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes192-cbc",
        "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
        "http://www.w3.org/2009/xmlenc11#aes128-gcm",
        "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        "http://www.w3.org/2001/04/xmlenc#tripledes-cbc",
    ] {
        for transport in [
            "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
            "http://www.w3.org/2001/04/xmlenc#rsa-1_5",
        ] {
            let enc = xmlsec1_encrypt_body(&plain, &pki.path("client.pem"), block, transport);
            assert!(!enc.contains("xmlsec1 &amp;"), "not encrypted: {enc}");
            let cfg =
                decrypting().algorithms(AlgorithmPolicy::default().allow(block).allow(transport));
            let (report, doc) = cfg
                .process_response(enc.as_bytes(), UtcTime::now())
                .unwrap_or_else(|e| panic!("{block} {transport}: {e}\n{enc}"));
            assert_eq!(report.decrypted, [MessagePart::Body]);
            assert!(doc.contains(content), "{block} {transport}: {doc}");
            // Without the opt-in, 3DES and RSA-1_5 are refused.
            if block.ends_with("tripledes-cbc") || transport.ends_with("rsa-1_5") {
                assert!(matches!(
                    decrypting().process_response(enc.as_bytes(), UtcTime::now()),
                    Err(WssError::AlgorithmNotAllowed { .. })
                ));
            }
        }
    }
}

#[test]
fn an_str_transform_reference_covers_the_token() {
    // The SecurityTokenReference of KeyInfo carries an Id, and a Reference with the STR-Transform
    // signs the BinarySecurityToken it points at (as WSS4J does for "Token" parts).
    let mut s = Sig::new(&["TS-1", "Body-1", "STR-1"]);
    s.refs[2].1 = STR_TRANSFORM;
    s.key_info = format!(
        r##"<wsse:SecurityTokenReference xmlns:wsse="{WSSE}" wsu:Id="STR-1"><wsse:Reference URI="#X509-1" ValueType="{X509V3}"/></wsse:SecurityTokenReference>"##
    );
    let signed = sign(&response("server"), &s);
    let report = check(&client_wss(), &signed).unwrap();
    assert!(report.signed.contains(&MessagePart::Body));
    // The token swapped for another certificate the CA issued: refused as an invalid signature.
    let other = b64(cert("client.pem").der());
    let server = b64(cert("server.pem").der());
    let swapped = signed.replace(&server, &other);
    assert!(matches!(
        check(&client_wss(), &swapped),
        Err(WssError::InvalidSignature(_))
    ));
}

#[test]
fn a_signer_with_a_short_rsa_key_is_refused_by_its_size() {
    use soapgen_tests::pki::openssl;
    use soapgen_tests::xmlsec::{xmlsec1_sign, xmlsec1_verify};
    // A 1024-bit key with a certificate from the test CA (so only the size is wrong).
    let pki = test_pki();
    let dir = pki.dir();
    openssl(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:1024",
            "-out",
            "weak1024.key",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-key",
            "weak1024.key",
            "-subj",
            "/O=soapgen tests/CN=soapgen test weak1024",
            "-out",
            "weak1024.csr",
        ],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "weak1024.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            "1024",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            "weak1024.pem",
        ],
    );
    for (sig, digest) in [
        (RSA_SHA256, SHA256),
        (RSA_SHA1, "http://www.w3.org/2000/09/xmldsig#sha1"),
    ] {
        let signed = xmlsec1_sign(
            &response("server"),
            &pki.path("weak1024.key"),
            &pki.path("weak1024.pem"),
            sig,
            digest,
            &["TS-1", "Body-1"],
        );
        // xmlsec1 itself accepts the signature (it sets no minimum key size)...
        let ca = pki.path("ca.pem");
        xmlsec1_verify(&signed, &["--trusted-pem", ca.to_str().unwrap()])
            .unwrap_or_else(|e| panic!("xmlsec1: {e}"));
        // ... soapgen refuses it for the key's size, not as an invalid signature.
        let e = check(&client_wss(), &signed).unwrap_err();
        assert!(
            matches!(&e, WssError::WeakKey { bits: 1024, minimum: 2048, subject } if subject.contains("weak1024")),
            "{sig}: {e}"
        );
        assert!(e.to_string().contains("1024-bit"), "{e}");
        // A policy that allows 1024-bit signers verifies it.
        let lenient = client_wss().min_rsa_key_bits(1024);
        let report = check(&lenient, &signed).unwrap_or_else(|e| panic!("{sig}: {e}"));
        assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
        // And a 2048-bit signer still passes a stricter minimum only if it meets it.
        let strict = client_wss().min_rsa_key_bits(3072);
        assert!(matches!(
            check(&strict, &signed_response()),
            Err(WssError::WeakKey {
                bits: 2048,
                minimum: 3072,
                ..
            })
        ));
    }
}

/// The `ds:KeyInfo` of a signed document.
fn key_info_of(doc: &str) -> &str {
    let start = doc.find("<ds:KeyInfo>").unwrap();
    let end = doc.find("</ds:KeyInfo>").unwrap() + 13;
    &doc[start..end]
}

#[test]
fn every_child_of_x509_data_is_considered() {
    use soapgen_tests::xmlsec::xmlsec1_sign_with_key_info;
    let pki = test_pki();
    let server = cert("server.pem");
    let issuer_serial = |c: &Certificate| {
        format!(
            "<ds:X509IssuerSerial><ds:X509IssuerName>{}</ds:X509IssuerName><ds:X509SerialNumber>{}</ds:X509SerialNumber></ds:X509IssuerSerial>",
            c.issuer_rfc4514(),
            c.serial_decimal()
        )
    };
    let sign = |template: &str| {
        xmlsec1_sign_with_key_info(
            &response("server"),
            &pki.path("server.key"),
            &pki.path("server.pem"),
            RSA_SHA256,
            SHA256,
            &["TS-1", "Body-1"],
            template,
        )
    };
    let accepted = |signed: &str, what: &str| {
        let report = check(&client_wss(), signed)
            .unwrap_or_else(|e| panic!("{what}: {e}\n{}", key_info_of(signed)));
        assert_eq!(report.signer.as_ref(), Some(&server), "{what}");
        assert_eq!(report.signed, [MessagePart::Timestamp, MessagePart::Body]);
    };
    // xmlsec1 fills only the certificate of these templates and leaves the other children empty
    // (zeep's Signature gives libxmlsec1 the first one); or they come filled, and name the
    // certificate carried.
    for template in [
        "<ds:X509Data><ds:X509IssuerSerial/><ds:X509Certificate/></ds:X509Data>".to_owned(),
        "<ds:X509Data><ds:X509SKI/><ds:X509Certificate/></ds:X509Data>".to_owned(),
        "<ds:X509Data><ds:X509SubjectName/><ds:X509Certificate/></ds:X509Data>".to_owned(),
        format!(
            "<ds:X509Data>{}<ds:X509Certificate/></ds:X509Data>",
            issuer_serial(&server)
        ),
        format!(
            "<ds:X509Data><ds:X509SubjectName>{}</ds:X509SubjectName><ds:X509Certificate/></ds:X509Data>",
            server.subject_rfc4514()
        ),
        format!(
            "<ds:X509Data><ds:X509SKI>{}</ds:X509SKI>{}<ds:X509Certificate/></ds:X509Data>",
            b64(server.subject_key_identifier().unwrap()),
            issuer_serial(&server)
        ),
    ] {
        let signed = sign(&template);
        assert!(signed.contains("<ds:X509Certificate>MII"), "{signed}");
        accepted(&signed, &template);
        // zeep moves the X509Data into a SecurityTokenReference after signing (KeyInfo is not
        // signed, so the signature still verifies).
        let x509 = {
            let k = key_info_of(&signed);
            k["<ds:KeyInfo>".len()..k.len() - "</ds:KeyInfo>".len()].to_owned()
        };
        let in_str = signed.replacen(
            &x509,
            &format!(r#"<wsse:SecurityTokenReference xmlns:wsse="{WSSE}">{x509}</wsse:SecurityTokenReference>"#),
            1,
        );
        accepted(&in_str, &format!("in an STR: {template}"));
    }
    // The certificate after the CA's (a chain, leaf last): the leaf signed.
    let signed = sign("<ds:X509Data><ds:X509Certificate/></ds:X509Data>");
    let chain = signed.replacen(
        "<ds:X509Data>",
        &format!(
            "<ds:X509Data><ds:X509Certificate>{}</ds:X509Certificate>",
            b64(cert("ca.pem").der())
        ),
        1,
    );
    accepted(&chain, "CA certificate, then the signer's");
    // An IssuerSerial or SKI that names another certificate than the one carried: refused.
    for other in [
        issuer_serial(&cert("client.pem")),
        format!(
            "<ds:X509SKI>{}</ds:X509SKI>",
            b64(cert("client.pem").subject_key_identifier().unwrap())
        ),
    ] {
        let signed = sign(&format!(
            "<ds:X509Data>{other}<ds:X509Certificate/></ds:X509Data>"
        ));
        let e = check(&client_wss(), &signed).unwrap_err();
        assert!(
            matches!(&e, WssError::UntrustedKey(m) if m.contains("names none of the certificates")),
            "{other}: {e}"
        );
    }
    // The signer carried but untrusted (self-signed stranger) is still refused, as a BST is.
    let stranger = xmlsec1_sign_with_key_info(
        &response("server"),
        &pki.path("stranger.key"),
        &pki.path("stranger.pem"),
        RSA_SHA256,
        SHA256,
        &["TS-1", "Body-1"],
        "<ds:X509Data><ds:X509IssuerSerial/><ds:X509Certificate/></ds:X509Data>",
    );
    assert!(matches!(
        check(&client_wss(), &stranger),
        Err(WssError::UntrustedCertificate { .. })
    ));
    // A long list of certificates is not searched.
    let many = signed.replacen(
        "<ds:X509Data>",
        &format!(
            "<ds:X509Data>{}",
            format!(
                "<ds:X509Certificate>{}</ds:X509Certificate>",
                b64(cert("ca.pem").der())
            )
            .repeat(16)
        ),
        1,
    );
    let e = check(&client_wss(), &many).unwrap_err();
    assert!(
        matches!(&e, WssError::UntrustedKey(m) if m.contains("more than 16")),
        "{e}"
    );
    // Only empty children: nothing names a key.
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.key_info =
        "<ds:X509Data><ds:X509IssuerSerial/><ds:X509Certificate/></ds:X509Data>".to_owned();
    let e = check(&client_wss(), &sign_with(&s)).unwrap_err();
    assert!(
        matches!(&e, WssError::UntrustedKey(m) if m.contains("empty X509Data")),
        "{e}"
    );
}

fn sign_with(s: &Sig<'_>) -> String {
    sign(&response("server"), s)
}

#[test]
fn a_signer_without_an_rsa_key_is_refused_by_its_key_type() {
    use soapgen_tests::pki::openssl;
    // An EC P-256 leaf from the test CA: RSA SignatureMethods cannot use it, whatever its size.
    let dir = test_pki().dir();
    openssl(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "EC",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
            "-out",
            "ec256.key",
        ],
    );
    openssl(
        dir,
        &[
            "req",
            "-new",
            "-key",
            "ec256.key",
            "-subj",
            "/O=soapgen tests/CN=soapgen test ec256",
            "-out",
            "ec256.csr",
        ],
    );
    openssl(
        dir,
        &[
            "x509",
            "-req",
            "-in",
            "ec256.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-set_serial",
            "256",
            "-days",
            "2",
            "-extfile",
            "leaf.ext",
            "-out",
            "ec256.pem",
        ],
    );
    let mut s = Sig::new(&["TS-1", "Body-1"]);
    s.key = "ec256";
    let e = check(&client_wss(), &sign(&response("ec256"), &s)).unwrap_err();
    assert!(
        matches!(&e, WssError::InvalidSignature(m) if m.contains("no RSA key")),
        "{e}"
    );
}

/// The KeyInfo forms that name the signer without carrying it, on signatures xmlsec1 makes:
/// `ds:X509IssuerSerial` and `ds:X509SKI` as xmlsec1 fills them from the certificate, and a
/// `wsse:SecurityTokenReference` with a KeyIdentifier (SKI, ThumbprintSHA1; X.509 Token Profile
/// 1.1 §3.2) or an X509IssuerSerial, which xmlsec1 keeps as the template gives them. With the CA
/// alone the signer is unknown; with the certificate known (and trusted through the CA) each is
/// accepted.
#[test]
fn xmlsec1_signatures_naming_a_known_signer_by_every_identifier() {
    use soapgen_tests::xmlsec::xmlsec1_sign_with_key_info;
    let pki = test_pki();
    let server = cert("server.pem");
    let ski_type = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier";
    let thumb_type =
        "http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#ThumbprintSHA1";
    let key_identifier = |vt: &str, v: &[u8]| {
        format!(
            r#"<wsse:SecurityTokenReference><wsse:KeyIdentifier EncodingType="{B64}" ValueType="{vt}">{}</wsse:KeyIdentifier></wsse:SecurityTokenReference>"#,
            b64(v)
        )
    };
    let without_token = {
        let doc = response("server");
        let start = doc.find("<wsse:BinarySecurityToken").unwrap();
        let end = doc.find("</wsse:BinarySecurityToken>").unwrap() + 27;
        format!("{}{}", &doc[..start], &doc[end..])
    };
    let issuer_serial = format!(
        "<ds:X509Data><ds:X509IssuerSerial><ds:X509IssuerName>{}</ds:X509IssuerName><ds:X509SerialNumber>{}</ds:X509SerialNumber></ds:X509IssuerSerial></ds:X509Data>",
        server.issuer_rfc4514(),
        server.serial_decimal()
    );
    for (form, template, filled) in [
        (
            "KeyIdentifier SKI",
            key_identifier(ski_type, server.subject_key_identifier().unwrap()),
            "<wsse:KeyIdentifier",
        ),
        (
            "KeyIdentifier ThumbprintSHA1",
            key_identifier(thumb_type, &server.sha1_thumbprint()),
            "<wsse:KeyIdentifier",
        ),
        (
            "X509IssuerSerial in a SecurityTokenReference",
            format!("<wsse:SecurityTokenReference>{issuer_serial}</wsse:SecurityTokenReference>"),
            "<ds:X509SerialNumber>",
        ),
        (
            "X509IssuerSerial (filled by xmlsec1)",
            "<ds:X509Data><ds:X509IssuerSerial/></ds:X509Data>".to_owned(),
            "<ds:X509SerialNumber>",
        ),
        (
            "X509SKI (filled by xmlsec1)",
            "<ds:X509Data><ds:X509SKI/></ds:X509Data>".to_owned(),
            "<ds:X509SKI>",
        ),
    ] {
        let signed = xmlsec1_sign_with_key_info(
            &without_token,
            &pki.path("server.key"),
            &pki.path("server.pem"),
            RSA_SHA256,
            SHA256,
            &["TS-1", "Body-1"],
            &template,
        );
        let key_info = key_info_of(&signed);
        assert!(key_info.contains(filled), "{form}: {key_info}");
        assert!(!key_info.contains("X509Certificate"), "{form}: {key_info}");
        // The CA alone: the signer is named, not sent, and not known.
        let e = check(&client_wss(), &signed).unwrap_err();
        assert!(
            matches!(&e, WssError::UntrustedKey(m) if m.contains("known_certificate")),
            "{form}: {e}"
        );
        // Known, and trusted through the CA.
        let knows = client_wss().trust(
            TrustStore::new()
                .anchor(cert("ca.pem"))
                .known_certificate(server.clone()),
        );
        let report = check(&knows, &signed).unwrap_or_else(|e| panic!("{form}: {e}\n{key_info}"));
        assert_eq!(report.signer.as_ref(), Some(&server), "{form}");
        assert_eq!(
            report.signed,
            [MessagePart::Timestamp, MessagePart::Body],
            "{form}"
        );
        // Known but issued by a CA not trusted: still refused.
        let untrusted = client_wss().trust(
            TrustStore::new()
                .anchor(cert("stranger.pem"))
                .known_certificate(server.clone()),
        );
        assert!(
            matches!(
                check(&untrusted, &signed),
                Err(WssError::UntrustedCertificate { .. })
            ),
            "{form}"
        );
    }
}

/// A signed response without `Expires`, replayed 11 minutes later under the defaults (maximum
/// age 300 s): refused for its age, never accepted again (the injected clock of
/// `check_response`; no sleeping).
#[test]
fn a_signed_response_without_expires_replayed_after_eleven_minutes_is_refused() {
    let cfg = client_wss();
    let open = sign(
        &response_with_ttl("server", 0, None, "<r:x xmlns:r=\"urn:r\"/>"),
        &Sig::new(&["TS-1", "Body-1"]),
    );
    let at = UtcTime::now();
    cfg.check_response(open.as_bytes(), at).unwrap();
    let later = at.plus(Duration::from_secs(4 * 60));
    assert_eq!(
        cfg.check_response(open.as_bytes(), later).unwrap_err(),
        WssError::Replay("signature value")
    );
    let eleven = at.plus(Duration::from_secs(11 * 60));
    let e = cfg.check_response(open.as_bytes(), eleven).unwrap_err();
    assert!(
        matches!(
            e,
            WssError::TimestampTooOld {
                max_age_secs: 300,
                ..
            }
        ),
        "{e}"
    );
    // Also for a configuration that never saw it (no cache to lean on).
    let e = client_wss()
        .check_response(open.as_bytes(), eleven)
        .unwrap_err();
    assert!(matches!(e, WssError::TimestampTooOld { .. }), "{e}");
}
