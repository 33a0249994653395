//! Certificate paths of the inbound WS-Security check (`TrustStore`, X.509 Token Profile 1.1 §3.1;
//! RFC 5280 §6 path validation, the parts soapgen does): a leaf issued by an intermediate CA that
//! an ECDSA root issued, made by the `openssl` command line at test time (nothing checked in).
//!
//! PKI of this file: `root` (ECDSA P-256, self-signed CA) issues `inter` (ECDSA P-384 CA, signed
//! ecdsa-with-SHA256) and `notca` (an end-entity certificate, `CA:FALSE`); `inter` issues `leaf`
//! (RSA 2048, signed ecdsa-with-SHA384), `notca` issues `rogue` (RSA); `fake-inter` has `inter`'s
//! name but its own key, and issues `forged` (RSA) in `inter`'s name.
//!
//! Each case asks `TrustStore::check` about one certificate; then messages signed with `leaf`'s
//! key: by soapgen (its BinarySecurityToken carries only the leaf), by WSS4J 1.6.19 with the whole
//! chain in an `X509PKIPathv1` BinarySecurityToken, and that message with the chain as a PKCS#7
//! token `openssl crl2pkcs7` made (X.509 Token Profile 1.1 §3.1); and responses that name their
//! signer by `ds:X509SKI` without carrying it (xmlsec1), trusted through its CA.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

use soapgen_runtime::wss::{
    Certificate, TrustStore, UtcTime, WssConfig, WssError, X509Credential, X509Signer,
};
use soapgen_runtime::wss::{MessagePart, X509_PKCS7, X509_PKIPATH};
use soapgen_runtime::SoapVersion;
use soapgen_tests::peers::wss4j_make_request;
use soapgen_tests::pki::{openssl, test_pki};
use soapgen_tests::wss::{path_str, request};
use soapgen_tests::xmlsec::{xmlsec1_sign_with_key_info, xmlsec1_verify};

/// The directory of this file's PKI, made once per test process.
fn pki() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(make)
}

fn make() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("soapgen-trust-paths-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    fs::write(
        dir.join("ca.ext"),
        "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n\
         subjectKeyIdentifier=hash\n",
    )
    .unwrap();
    fs::write(
        dir.join("leaf.ext"),
        "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n\
         subjectKeyIdentifier=hash\n",
    )
    .unwrap();
    let d = &dir;
    let ec_key = |name: &str, curve: &str| {
        openssl(
            d,
            &[
                "genpkey",
                "-algorithm",
                "EC",
                "-pkeyopt",
                &format!("ec_paramgen_curve:{curve}"),
                "-out",
                &format!("{name}.key"),
            ],
        );
    };
    let rsa_key = |name: &str| {
        openssl(
            d,
            &[
                "genpkey",
                "-algorithm",
                "RSA",
                "-pkeyopt",
                "rsa_keygen_bits:2048",
                "-out",
                &format!("{name}.key"),
            ],
        );
    };
    // `name`, with the subject `cn`, issued by `issuer` (its .pem and .key) with `digest`.
    let issue = |name: &str, cn: &str, issuer: &str, ext: &str, digest: &str, serial: &str| {
        openssl(
            d,
            &[
                "req",
                "-new",
                "-key",
                &format!("{name}.key"),
                "-subj",
                &format!("/CN={cn}"),
                "-out",
                &format!("{name}.csr"),
            ],
        );
        openssl(
            d,
            &[
                "x509",
                "-req",
                "-in",
                &format!("{name}.csr"),
                "-CA",
                &format!("{issuer}.pem"),
                "-CAkey",
                &format!("{issuer}.key"),
                "-set_serial",
                serial,
                "-days",
                "2",
                &format!("-{digest}"),
                "-extfile",
                ext,
                "-out",
                &format!("{name}.pem"),
            ],
        );
    };
    ec_key("root", "P-256");
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "root.key",
            "-subj",
            "/CN=soapgen test EC root",
            "-days",
            "2",
            "-sha256",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign,cRLSign",
            "-out",
            "root.pem",
        ],
    );
    ec_key("inter", "P-384");
    issue(
        "inter",
        "soapgen test EC intermediate",
        "root",
        "ca.ext",
        "sha256",
        "11",
    );
    ec_key("notca", "P-256");
    issue(
        "notca",
        "soapgen test not a CA",
        "root",
        "leaf.ext",
        "sha256",
        "12",
    );
    rsa_key("leaf");
    issue(
        "leaf",
        "soapgen test leaf",
        "inter",
        "leaf.ext",
        "sha384",
        "13",
    );
    rsa_key("rogue");
    issue(
        "rogue",
        "soapgen test rogue",
        "notca",
        "leaf.ext",
        "sha256",
        "14",
    );
    ec_key("fake-inter", "P-384");
    openssl(
        d,
        &[
            "req",
            "-x509",
            "-new",
            "-key",
            "fake-inter.key",
            "-subj",
            "/CN=soapgen test EC intermediate",
            "-days",
            "2",
            "-sha256",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-out",
            "fake-inter.pem",
        ],
    );
    rsa_key("forged");
    issue(
        "forged",
        "soapgen test leaf",
        "fake-inter",
        "leaf.ext",
        "sha384",
        "13",
    );
    dir
}

/// The time of a check: after this file's PKI was made (its certificates are valid from then).
fn now() -> UtcTime {
    pki();
    UtcTime::now()
}

fn cert(name: &str) -> Certificate {
    let pem = fs::read(pki().join(format!("{name}.pem"))).unwrap();
    Certificate::from_pem(&pem, name).unwrap()
}

fn untrusted(r: Result<(), WssError>) -> String {
    match r {
        Err(e @ WssError::UntrustedCertificate { .. }) => e.to_string(),
        other => panic!("expected UntrustedCertificate, got {other:?}"),
    }
}

#[test]
fn a_leaf_reaches_an_ecdsa_root_through_an_intermediate() {
    let now = now();
    let store = TrustStore::new()
        .anchor(cert("root"))
        .intermediate(cert("inter"));
    store.check(&cert("leaf"), now).unwrap();
    // Checked again: from the path cache, same answer.
    store.check(&cert("leaf"), now).unwrap();
    // The intermediate itself chains to the root, but its keyUsage (keyCertSign, cRLSign) does
    // not let it sign messages; without the keyUsage check it is trusted through the root. The
    // intermediate as an anchor works.
    assert!(matches!(
        store.check(&cert("inter"), now),
        Err(WssError::KeyUsageNotAllowed { .. })
    ));
    store
        .clone()
        .check_key_usage(false)
        .check(&cert("inter"), now)
        .unwrap();
    TrustStore::new()
        .anchor(cert("inter"))
        .check(&cert("leaf"), now)
        .unwrap();
}

#[test]
fn a_missing_intermediate_or_another_root_leaves_the_leaf_untrusted() {
    let now = now();
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("root"))
            .check(&cert("leaf"), now),
    );
    assert!(e.contains("soapgen test EC intermediate"), "{e}");
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("notca"))
            .intermediate(cert("inter"))
            .check(&cert("leaf"), now),
    );
    assert!(e.contains("soapgen test leaf"), "{e}");
}

#[test]
fn an_end_entity_certificate_is_no_intermediate() {
    // notca signed rogue, and root signed notca, but notca says CA:FALSE.
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("notca"))
            .check(&cert("rogue"), now()),
    );
    assert!(
        e.contains("not issued by a trusted anchor (issuer CN=soapgen test not a CA)"),
        "{e}"
    );
}

#[test]
fn a_certificate_in_a_trusted_name_but_signed_by_another_key_is_refused() {
    let now = now();
    // Issued in the intermediate's name by a key that is not the intermediate's.
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("inter"))
            .check(&cert("forged"), now),
    );
    assert!(e.contains("does not verify"), "{e}");
    // The fake intermediate offered as an intermediate: root did not sign it.
    let e = untrusted(
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("fake-inter"))
            .check(&cert("forged"), now),
    );
    assert!(e.contains("soapgen test leaf"), "{e}");
}

#[test]
fn a_validity_window_outside_now_is_refused_along_the_path() {
    let store = TrustStore::new()
        .anchor(cert("root"))
        .intermediate(cert("inter"));
    let later = now().plus(Duration::from_secs(3 * 24 * 3600));
    let e = untrusted(store.check(&cert("leaf"), later));
    assert!(e.contains("expired"), "{e}");
    let earlier = now().minus(Duration::from_secs(24 * 3600));
    let e = untrusted(store.check(&cert("leaf"), earlier));
    assert!(e.contains("not valid yet"), "{e}");
}

#[test]
fn a_message_signed_by_the_leaf_verifies_only_with_its_path_configured() {
    let dir = pki();
    let leaf = X509Credential::from_pem(
        &fs::read(dir.join("leaf.pem")).unwrap(),
        &fs::read(dir.join("leaf.key")).unwrap(),
    )
    .unwrap();
    let signed = request(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(leaf)),
        SoapVersion::Soap11,
        "hello",
    );
    let verifier = |store: TrustStore| {
        WssConfig::new()
            .require_signature(true)
            .trust(store)
            .check_response(signed.as_bytes(), now())
    };
    let report = verifier(
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("inter")),
    )
    .unwrap();
    assert_eq!(
        report.signer.map(|c| c.subject().to_owned()),
        Some(cert("leaf").subject().to_owned())
    );
    let e = verifier(TrustStore::new().anchor(cert("root"))).unwrap_err();
    assert!(matches!(e, WssError::UntrustedCertificate { .. }), "{e}");
}

/// A response WSS4J signed with `leaf.p12` (the leaf's key and its chain to the root) by the
/// peer's `signed/<token>` profile.
fn wss4j_signed(token: &str) -> String {
    let dir = pki();
    static P12: OnceLock<()> = OnceLock::new();
    P12.get_or_init(|| {
        fs::write(
            dir.join("chain.pem"),
            [
                fs::read(dir.join("inter.pem")).unwrap(),
                fs::read(dir.join("root.pem")).unwrap(),
            ]
            .concat(),
        )
        .unwrap();
        openssl(
            dir,
            &[
                "pkcs12",
                "-export",
                "-in",
                "leaf.pem",
                "-inkey",
                "leaf.key",
                "-certfile",
                "chain.pem",
                "-name",
                "leaf",
                "-passout",
                "pass:changeit",
                "-out",
                "leaf.p12",
            ],
        );
    });
    let out = wss4j_make_request(
        &format!("signed/{token}"),
        &[
            "--keystore",
            path_str(&dir.join("leaf.p12")),
            "--storepass",
            "changeit",
            "--alias",
            "leaf",
            "--ca",
            path_str(&dir.join("root.pem")),
        ],
    );
    String::from_utf8(out).unwrap()
}

fn verify_with(
    store: TrustStore,
    doc: &str,
) -> Result<soapgen_runtime::wss::InboundReport, WssError> {
    WssConfig::new()
        .require_signature(true)
        .require_timestamp(true)
        .trust(store)
        .check_response(doc.as_bytes(), now())
}

/// `doc` with the content and ValueType of its (one) BinarySecurityToken replaced, and the
/// ValueType of the Reference to it.
fn with_token(doc: &str, value_type: &str, der: &[u8]) -> String {
    use base64::Engine;
    let start = doc.find("<wsse:BinarySecurityToken").unwrap();
    let open_end = start + doc[start..].find('>').unwrap() + 1;
    let close = open_end + doc[open_end..].find("</wsse:BinarySecurityToken>").unwrap();
    let open = doc[start..open_end].replace(X509_PKIPATH, value_type);
    let out = format!(
        "{}{open}{}{}",
        &doc[..start],
        base64::engine::general_purpose::STANDARD.encode(der),
        &doc[close..]
    );
    out.replace(
        &format!("ValueType=\"{X509_PKIPATH}\""),
        &format!("ValueType=\"{value_type}\""),
    )
}

/// A PKCS#7 certs-only SignedData of the `.pem` files `names`, by `openssl crl2pkcs7`.
fn pkcs7(names: &[&str]) -> Vec<u8> {
    let mut args = vec!["crl2pkcs7".to_owned(), "-nocrl".to_owned()];
    for n in names {
        args.push("-certfile".to_owned());
        args.push(format!("{n}.pem"));
    }
    args.extend(["-outform".to_owned(), "DER".to_owned()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    openssl(pki(), &args)
}

#[test]
fn pkipath_and_pkcs7_tokens_carry_the_chain_to_the_anchor() {
    let root_only = || TrustStore::new().anchor(cert("root"));
    // WSS4J with the whole chain as a PKIPath: the root alone suffices.
    let pkipath = wss4j_signed("pkipath");
    assert!(pkipath.contains(X509_PKIPATH), "{pkipath}");
    let report = verify_with(root_only(), &pkipath).unwrap_or_else(|e| panic!("{e}\n{pkipath}"));
    assert_eq!(report.signed, [MessagePart::Body, MessagePart::Timestamp]);
    assert_eq!(
        report.signer.map(|c| c.subject().to_owned()),
        Some(cert("leaf").subject().to_owned())
    );
    // The chain does not make another root trusted, nor a path through a non-CA.
    let e = verify_with(TrustStore::new().anchor(cert("notca")), &pkipath).unwrap_err();
    assert!(matches!(e, WssError::UntrustedCertificate { .. }), "{e}");
    // The same signer with its certificate alone (X509v3): the intermediate must be configured.
    let single = wss4j_signed("x509");
    let e = verify_with(root_only(), &single).unwrap_err();
    assert!(matches!(e, WssError::UntrustedCertificate { .. }), "{e}");
    verify_with(root_only().intermediate(cert("inter")), &single).unwrap();

    // The chain as PKCS#7 (openssl crl2pkcs7), leaf first or last: the same.
    for order in [["leaf", "inter", "root"], ["root", "inter", "leaf"]] {
        let doc = with_token(&pkipath, X509_PKCS7, &pkcs7(&order));
        let report =
            verify_with(root_only(), &doc).unwrap_or_else(|e| panic!("{order:?}: {e}\n{doc}"));
        assert_eq!(report.signed, [MessagePart::Body, MessagePart::Timestamp]);
    }
    // A forged intermediate (inter's name, another key) in the chain does not link to the root.
    let e = verify_with(
        root_only(),
        &with_token(&pkipath, X509_PKCS7, &pkcs7(&["leaf", "fake-inter"])),
    )
    .unwrap_err();
    assert!(matches!(e, WssError::UntrustedCertificate { .. }), "{e}");
    // Two leaves: which one signed is not said.
    let e = verify_with(
        root_only(),
        &with_token(&pkipath, X509_PKCS7, &pkcs7(&["leaf", "rogue", "inter"])),
    )
    .unwrap_err();
    assert!(
        matches!(&e, WssError::Certificate { reason, .. } if reason.contains("more than one leaf")),
        "{e}"
    );
    // Not a PKIPath / PKCS#7 at all: typed errors naming the token.
    for (value_type, der) in [
        (X509_PKIPATH, cert("leaf").der().to_vec()),
        (X509_PKCS7, cert("leaf").der().to_vec()),
        (X509_PKIPATH, vec![0x30, 0x84, 0xff]),
    ] {
        let e = verify_with(root_only(), &with_token(&pkipath, value_type, &der)).unwrap_err();
        assert!(
            matches!(&e, WssError::Certificate { name, .. } if name.contains("BinarySecurityToken")),
            "{value_type}: {e}"
        );
    }
}

#[test]
fn a_signer_not_sent_is_trusted_through_its_ca() {
    // The test PKI's server signs with xmlsec1, naming its certificate by ds:X509SKI only.
    let pki = test_pki();
    let ca =
        || TrustStore::new().anchor(Certificate::from_pem(&pki.read("ca.pem"), "ca.pem").unwrap());
    let server = Certificate::from_pem(&pki.read("server.pem"), "server.pem").unwrap();
    let stranger = Certificate::from_pem(&pki.read("stranger.pem"), "stranger.pem").unwrap();
    let sign_as = |who: &str, template: &str| {
        let created = UtcTime::now();
        let envelope = format!(
            r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><soap:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>{created}</wsu:Created><wsu:Expires>{}</wsu:Expires></wsu:Timestamp></wsse:Security></soap:Header><soap:Body wsu:Id="Body-1"><r:R xmlns:r="urn:r">ok</r:R></soap:Body></soap:Envelope>"#,
            created.plus(Duration::from_secs(300))
        );
        xmlsec1_sign_with_key_info(
            &envelope,
            &pki.path(&format!("{who}.key")),
            &pki.path(&format!("{who}.pem")),
            "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            "http://www.w3.org/2001/04/xmlenc#sha256",
            &["TS-1", "Body-1"],
            template,
        )
    };
    let sign = |who: &str| sign_as(who, "<ds:X509Data><ds:X509SKI/></ds:X509Data>");
    let signed = sign("server");
    assert!(
        signed.contains("<ds:X509SKI>") && !signed.contains("X509Certificate"),
        "{signed}"
    );
    xmlsec1_verify(
        &signed,
        &["--pubkey-cert-pem", path_str(&pki.path("server.pem"))],
    )
    .unwrap();
    // Known (not sent) and issued by the anchor: trusted.
    let report = verify_with(ca().known_certificate(server.clone()), &signed).unwrap();
    assert_eq!(report.signer.as_ref(), Some(&server));
    // Not known: nothing to verify with, and the error says how to make it known.
    let e = verify_with(ca(), &signed).unwrap_err();
    assert!(
        matches!(&e, WssError::UntrustedKey(m) if m.contains("known_certificate")),
        "{e}"
    );
    // Known but issued by no anchor: known is not trusted (pinning is .certificate()).
    let by_stranger = sign("stranger");
    let e = verify_with(ca().known_certificate(stranger.clone()), &by_stranger).unwrap_err();
    assert!(matches!(e, WssError::UntrustedCertificate { .. }), "{e}");
    verify_with(TrustStore::new().certificate(stranger), &by_stranger).unwrap();
    // xmlsec1's X509IssuerSerial alone (it fills the issuer name and serial): the same.
    let by_issuer_serial = sign_as(
        "server",
        "<ds:X509Data><ds:X509IssuerSerial/></ds:X509Data>",
    );
    assert!(
        by_issuer_serial.contains("<ds:X509SerialNumber>4343</ds:X509SerialNumber>"),
        "{by_issuer_serial}"
    );
    let report = verify_with(ca().known_certificate(server.clone()), &by_issuer_serial)
        .unwrap_or_else(|e| panic!("{e}\n{by_issuer_serial}"));
    assert_eq!(report.signer.as_ref(), Some(&server));
    assert!(matches!(
        verify_with(ca(), &by_issuer_serial),
        Err(WssError::UntrustedKey(_))
    ));
}

#[test]
fn a_security_header_for_the_next_actor_or_role_is_the_clients() {
    // WSS4J's signed response with its Security header addressed to SOAP 1.1's "next" actor (the
    // header is not signed; the Body and Timestamp are): processed as the client's own.
    let signed = wss4j_signed("x509");
    let store = || {
        TrustStore::new()
            .anchor(cert("root"))
            .intermediate(cert("inter"))
    };
    let at = signed.find("<wsse:Security").unwrap() + "<wsse:Security".len();
    let prefix = {
        let open = &signed[..signed.find(":Envelope").unwrap()];
        open[open.rfind('<').unwrap() + 1..].to_owned()
    };
    let with = |actor: &str| {
        let mut doc = signed.clone();
        doc.insert_str(at, &format!(" {prefix}:actor=\"{actor}\""));
        doc
    };
    let next = with("http://schemas.xmlsoap.org/soap/actor/next");
    let report = verify_with(store(), &next).unwrap_or_else(|e| panic!("{e}\n{next}"));
    assert!(report.security_header);
    assert_eq!(report.signed, [MessagePart::Body, MessagePart::Timestamp]);
    // Another actor's header is not ours: the response has no Security header for us.
    let other = with("urn:some:intermediary");
    let e = verify_with(store(), &other).unwrap_err();
    assert!(matches!(e, WssError::MissingSecurityHeader { .. }), "{e}");
    // Ours twice (none and "next"): refused.
    let sec_start = signed.find("<wsse:Security").unwrap();
    let sec_end = signed.find("</wsse:Security>").unwrap() + "</wsse:Security>".len();
    let mut twice = next.clone();
    let insert_at = twice.find("<wsse:Security").unwrap();
    twice.insert_str(
        insert_at,
        &signed[sec_start..sec_end].replace("wsu:Id=\"", "wsu:Id=\"copy-"),
    );
    let e = verify_with(store(), &twice).unwrap_err();
    assert_eq!(e, WssError::DuplicateSecurityHeader);
}
