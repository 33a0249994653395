//! soapgen as the client of Apache WSS4J, both directions in one exchange:
//!
//! * Apache WSS4J 1.6.19, "Scenario 3": soapgen sends a request with a Timestamp, the Body and
//!   Timestamp signed with a BinarySecurityToken (DirectReference) and the Body encrypted for the
//!   server's certificate; WSS4J processes it (`processSecurityHeader`, and the peer insists the
//!   Body was signed and encrypted) and answers Scenario 3 itself — Timestamp, signature with its
//!   own BST, Body encrypted for soapgen's certificate named by SKI — which soapgen's default policy
//!   (what the client sends, it requires) verifies and decrypts. Every symmetric algorithm, both
//!   signature algorithms, both key transports, both orders.
//! * WSS4J's UsernameToken PasswordDigest in a response, checked by soapgen.
//!
//! Keys: `soapgen_tests::pki` (openssl, at test time).

use std::time::Duration;

use soapgen_runtime::wss::{
    AlgorithmPolicy, BlockEncryption, EncryptionOrder, KeyTransport, MessagePart, TrustStore,
    UtcTime, WssConfig, WssError, X509Credential, X509Encryptor, X509Signer,
};
use soapgen_runtime::{Client, Error};
use soapgen_tests::peers::{self};
use soapgen_tests::pki::test_pki;
use soapgen_tests::wss::{cert, credential, path_str, wss4j_scenario3_server};
use soapgen_tests::wss4j_service::{echo11, echo12};

/// soapgen's Scenario-3 client configuration.
fn scenario3(block: BlockEncryption, transport: KeyTransport, order: EncryptionOrder) -> WssConfig {
    let pki = test_pki();
    let me = X509Credential::from_pkcs12(&pki.read("client.p12"), "changeit").unwrap();
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(me))
        .encrypt(
            X509Encryptor::new(cert("server.pem"))
                .block_encryption(block)
                .key_transport(transport)
                .order(order),
        )
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .algorithms(
            AlgorithmPolicy::default()
                .allow(BlockEncryption::TripleDesCbc.uri())
                .allow(KeyTransport::Rsa15.uri()),
        )
}

#[tokio::test]
async fn scenario3_both_ways_with_wss4j() {
    let peer = wss4j_scenario3_server(&[]);
    let variants: &[(&str, BlockEncryption, KeyTransport, EncryptionOrder)] = &[
        (
            "aes128-cbc",
            BlockEncryption::Aes128Cbc,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes256-cbc",
            BlockEncryption::Aes256Cbc,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "3des",
            BlockEncryption::TripleDesCbc,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes128-gcm",
            BlockEncryption::Aes128Gcm,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes256-gcm",
            BlockEncryption::Aes256Gcm,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes128-cbc?sig=rsa-sha256",
            BlockEncryption::Aes128Cbc,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "3des?kt=rsa15",
            BlockEncryption::TripleDesCbc,
            KeyTransport::Rsa15,
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "aes256-cbc?order=encrypt-sign",
            BlockEncryption::Aes256Cbc,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::EncryptThenSign,
        ),
    ];
    for (path, block, transport, order) in variants {
        let wss = scenario3(*block, *transport, *order);
        let v = echo11(
            peer.url(&format!("/scenario3/{path}")),
            wss.clone(),
            format!("scenario 3 {path} ünï & <x>"),
        )
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}\n--- peer ---\n{}", peer.stderr_output()));
        // WSS4J verified and decrypted soapgen's request...
        assert_eq!(v.text, format!("scenario 3 {path} ünï & <x>"));
        assert!(
            v.actions.contains("SIGN") && v.actions.contains("ENC"),
            "{path}: {v:?}"
        );
        assert!(
            v.signed.contains("Body") && v.signed.contains("Timestamp"),
            "{path}: {v:?}"
        );
        assert_eq!(v.encrypted, "Body", "{path}: {v:?}");
        assert!(v.signer.contains("soapgen test client"), "{path}: {v:?}");
        // ... and soapgen verified and decrypted WSS4J's reply (or the call above had failed).
    }
    // SOAP 1.2 too.
    let wss = scenario3(
        BlockEncryption::Aes128Cbc,
        KeyTransport::RsaOaepMgf1Sha1,
        EncryptionOrder::SignThenEncrypt,
    );
    let v = echo12(peer.url("/scenario3/aes128-cbc"), wss, "1.2".into())
        .await
        .unwrap();
    assert_eq!(v.encrypted, "Body");
}

#[tokio::test]
async fn wss4j_replies_that_break_the_policy_are_refused() {
    let peer = wss4j_scenario3_server(&[]);
    let wss = scenario3(
        BlockEncryption::Aes128Cbc,
        KeyTransport::RsaOaepMgf1Sha1,
        EncryptionOrder::SignThenEncrypt,
    );
    // The reply uses 3DES, which this client's policy does not allow.
    let strict = wss.clone().algorithms(AlgorithmPolicy::default());
    let e = echo11(peer.url("/scenario3/3des"), strict, "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(**w, WssError::AlgorithmNotAllowed { role: "block encryption", .. })),
        "{e}"
    );
    // A client that trusts another CA (only the stranger) refuses WSS4J's signature.
    let other = wss
        .clone()
        .trust(TrustStore::new().anchor(cert("stranger.pem")));
    let e = echo11(peer.url("/scenario3/aes128-cbc"), other, "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(**w, WssError::UntrustedCertificate { .. })),
        "{e}"
    );
    // The plain /echo profile answers with a Timestamp only: not signed, not encrypted.
    let e = echo11(peer.url("/echo"), wss, "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(&**w, WssError::NotSigned { part, .. } if part == "Body")),
        "{e}"
    );
}

#[tokio::test]
async fn username_token_digest_both_ways_with_wss4j() {
    let peer = peers::wss4j(&["--user", "alice:s3cret", "--reply-user", "server:srv-pw"]);
    let wss = WssConfig::new()
        .username_token(soapgen_runtime::wss::UsernameToken::digest(
            "alice", "s3cret",
        ))
        .expect_username_token("server", "srv-pw");
    let v = echo11(peer.url("/ut-digest-reply"), wss, "ut".into())
        .await
        .unwrap();
    assert_eq!(
        (v.user.as_str(), v.password_type.as_str()),
        ("alice", "PasswordDigest")
    );
    // The reply's password is not the one expected.
    let wrong = WssConfig::new()
        .username_token(soapgen_runtime::wss::UsernameToken::digest(
            "alice", "s3cret",
        ))
        .expect_username_token("server", "other");
    let e = echo11(peer.url("/ut-digest-reply"), wrong, "ut".into())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(&**w, WssError::UsernameToken(m) if m == "wrong password")),
        "{e}"
    );
}

#[tokio::test]
async fn configured_header_blocks_are_signed_and_required() {
    use soapgen_runtime::wss::{DigestAlgorithm, InboundReport};
    use soapgen_runtime::xml::Name;
    use soapgen_runtime::{Operation, SoapVersion};
    const WSA: &str = "http://www.w3.org/2005/08/addressing";
    let pki = test_pki();
    let p = peers::wss4j(&["--ca", path_str(&pki.path("ca.pem"))]);
    let me = credential("client");
    let signer = X509Signer::new(me)
        .digest(DigestAlgorithm::Sha256)
        .sign_header(WSA, "MessageID")
        .sign_header(WSA, "To");
    let wss = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(signer)
        .require_signature(false); // the peer's /echo answers unsigned
    let client = Client::builder(p.url("/echo"))
        .wss(wss.clone())
        .build()
        .unwrap();
    let op = Operation::new("Echo", "urn:soapgen:wss#Echo", SoapVersion::Soap11);
    let request = |client: &Client, to_id: Option<&str>| {
        let mut req = client.request(&[("tns", "urn:soapgen:wss")]);
        let w = req.header_writer();
        w.simple_element(Name::new(WSA, "MessageID"), "urn:uuid:42")
            .unwrap();
        w.start_element(Name::new(WSA, "To")).unwrap();
        if let Some(id) = to_id {
            w.attribute(
                Name::new(
                    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
                    "Id",
                ),
                id,
            )
            .unwrap();
        }
        w.text("http://example.org/to").unwrap();
        w.end_element().unwrap();
        let w = req.body_writer();
        w.start_element(Name::new("urn:soapgen:wss", "Echo"))
            .unwrap();
        w.simple_element(Name::new("urn:soapgen:wss", "text"), "with headers")
            .unwrap();
        w.end_element().unwrap();
        req.finish().unwrap()
    };
    // The envelope `client` sends for `request` (its own Timestamp and signature each time).
    let envelope = |client: &Client, to_id: Option<&str>| {
        client
            .message(&op, &request(client, to_id))
            .unwrap()
            .envelope
    };
    // WSS4J verifies the signature and names every signed part; an Id the block already had is
    // kept.
    for to_id in [None, Some("to-1")] {
        let xml = envelope(&client, to_id);
        let reply = client
            .call(&op, request(&client, to_id), |r, _tag| {
                r.read_inner_xml().map(str::to_owned)
            })
            .await
            .unwrap_or_else(|e| panic!("{e}\n{xml}\n{}", p.stderr_output()));

        assert!(reply.contains(">Timestamp,MessageID,To,Body<"), "{reply}");
        if let Some(id) = to_id {
            assert!(xml.contains(&format!("URI=\"#{id}\"")), "{xml}");
        }
        // soapgen's own inbound check, asked to require the signed headers, accepts it ...
        let server_view = WssConfig::new()
            .trust(TrustStore::new().anchor(cert("ca.pem")))
            .require_signed_header(WSA, "MessageID")
            .require_signed_header(WSA, "To");
        let report: InboundReport = server_view
            .check_response(xml.as_bytes(), UtcTime::now())
            .unwrap();
        assert!(report.signed.contains(&MessagePart::Header {
            namespace: WSA.to_owned(),
            name: "To".to_owned()
        }));
    }
    // ... and refuses a message where one is not signed.
    let plain = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")));
    let c2 = Client::builder(p.url("/echo")).wss(plain).build().unwrap();
    let xml = envelope(&c2, None);
    let e = WssConfig::new()
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .require_signed_header(WSA, "To")
        .check_response(xml.as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, .. } if part.contains("To")),
        "{e}"
    );
    // A header to sign that the request lacks is an error, not a request signed less.
    let lacking = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")).sign_header(WSA, "ReplyTo"));
    let c3 = Client::builder(p.url("/echo"))
        .wss(lacking)
        .build()
        .unwrap();
    let mut req = c3.request(&[]);
    req.body_writer()
        .simple_element(Name::new("urn:x", "x"), "y")
        .unwrap();
    let e = c3.message(&op, &req.finish().unwrap()).unwrap_err();
    assert!(e.to_string().contains("ReplyTo"), "{e}");
    // A header a policy's sp:SignedParts names is signed when the request has it, and its
    // absence is no error (WS-SecurityPolicy 1.2 §5.1.1): WSS4J names what was signed.
    let if_present = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(
            X509Signer::new(credential("client"))
                .digest(DigestAlgorithm::Sha256)
                .sign_header_if_present(WSA, "ReplyTo")
                .sign_header_if_present(WSA, "To"),
        )
        .require_signature(false);
    let c4 = Client::builder(p.url("/echo"))
        .wss(if_present)
        .build()
        .unwrap();
    let reply = c4
        .call(&op, request(&c4, None), |r, _tag| {
            r.read_inner_xml().map(str::to_owned)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", p.stderr_output()));
    assert!(reply.contains(">Timestamp,To,Body<"), "{reply}");
}

#[tokio::test]
async fn encrypted_headers_and_an_issuer_serial_recipient() {
    use soapgen_runtime::wss::KeyReference;
    use soapgen_runtime::xml::Name;
    use soapgen_runtime::{Operation, SoapVersion};
    const WSA: &str = "http://www.w3.org/2005/08/addressing";
    let p = wss4j_scenario3_server(&[]);
    let op = Operation::new("Echo", "urn:soapgen:wss#Echo", SoapVersion::Soap11);
    let request = |client: &Client| {
        let mut req = client.request(&[("tns", "urn:soapgen:wss")]);
        let w = req.header_writer();
        w.start_element(Name::new(WSA, "MessageID")).unwrap();
        w.attribute(
            Name::new(
                "http://schemas.xmlsoap.org/soap/envelope/",
                "mustUnderstand",
            ),
            "1",
        )
        .unwrap();
        w.text("urn:uuid:secret-id").unwrap();
        w.end_element().unwrap();
        let w = req.body_writer();
        w.start_element(Name::new("urn:soapgen:wss", "Echo"))
            .unwrap();
        w.simple_element(Name::new("urn:soapgen:wss", "text"), "hidden header")
            .unwrap();
        w.end_element().unwrap();
        req.finish().unwrap()
    };
    // The envelope `client` sends for the request (its own keys and Ids each time).
    let envelope = |client: &Client| client.message(&op, &request(client)).unwrap().envelope;
    for reference in [
        KeyReference::X509IssuerSerial,
        KeyReference::SubjectKeyIdentifier,
    ] {
        let wss = scenario3(
            BlockEncryption::Aes256Gcm,
            KeyTransport::RsaOaepMgf1Sha1,
            EncryptionOrder::SignThenEncrypt,
        )
        .encrypt(
            X509Encryptor::new(cert("server.pem"))
                .key_reference(reference)
                .unwrap()
                .encrypt_header(WSA, "MessageID"),
        );
        let client = Client::builder(p.url("/scenario3/aes128-cbc"))
            .wss(wss)
            .build()
            .unwrap();
        let xml = envelope(&client);
        assert!(
            !xml.contains("secret-id") && xml.contains("wsse11:EncryptedHeader"),
            "{xml}"
        );
        assert!(xml.contains("sgenv:mustUnderstand=\"1\""), "{xml}");
        if reference == KeyReference::X509IssuerSerial {
            assert!(
                xml.contains("<ds:X509SerialNumber>4343</ds:X509SerialNumber>"),
                "{xml}"
            );
        }
        // WSS4J decrypts the header and the Body (and soapgen, WSS4J's signed+encrypted reply).
        let reply = client
            .call(&op, request(&client), |r, _tag| {
                r.read_inner_xml().map(str::to_owned)
            })
            .await
            .unwrap_or_else(|e| panic!("{reference:?}: {e}\n{xml}\n{}", p.stderr_output()));
        assert!(reply.contains(">Body,MessageID<"), "{reply}");
        assert!(reply.contains(">hidden header<"), "{reply}");
    }
    // soapgen reads an encrypted header and can require one.
    let server = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(
            X509Credential::from_pkcs12(&test_pki().read("server.p12"), "changeit").unwrap(),
        ))
        .encrypt(X509Encryptor::new(cert("client.pem")).encrypt_header(WSA, "MessageID"));
    let as_server = Client::builder("http://127.0.0.1:9/")
        .wss(server)
        .build()
        .unwrap();
    let response = envelope(&as_server);
    let me = scenario3(
        BlockEncryption::Aes256Gcm,
        KeyTransport::RsaOaepMgf1Sha1,
        EncryptionOrder::SignThenEncrypt,
    )
    .require_encrypted_header(WSA, "MessageID");
    let (report, doc) = me
        .process_response(response.as_bytes(), UtcTime::now())
        .unwrap();
    assert!(
        report.decrypted.contains(&MessagePart::Header {
            namespace: WSA.to_owned(),
            name: "MessageID".to_owned()
        }),
        "{report:?}"
    );
    assert!(
        doc.contains("urn:uuid:secret-id") && !doc.contains("EncryptedHeader"),
        "{doc}"
    );
    // Required but sent in the clear: refused.
    let clear = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(
            X509Credential::from_pkcs12(&test_pki().read("server.p12"), "changeit").unwrap(),
        ))
        .encrypt(X509Encryptor::new(cert("client.pem")));
    let as_server = Client::builder("http://127.0.0.1:9/")
        .wss(clear)
        .build()
        .unwrap();
    let e = me
        .process_response(envelope(&as_server).as_bytes(), UtcTime::now())
        .unwrap_err();
    assert!(
        matches!(&e, WssError::NotEncrypted(part) if part.contains("MessageID")),
        "{e}"
    );
}

/// A SOAP 1.1 fault envelope with a fresh Timestamp (`TS-1`) and the server's certificate as a
/// BinarySecurityToken, the Body `Body-1`; unsigned.
fn fault_envelope() -> String {
    use base64::Engine as _;
    let created = UtcTime::now();
    let expires = created.plus(Duration::from_secs(300));
    let bst = base64::engine::general_purpose::STANDARD.encode(cert("server.pem").der());
    format!(
        r#"<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"><soap:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><wsu:Timestamp wsu:Id="TS-1"><wsu:Created>{created}</wsu:Created><wsu:Expires>{expires}</wsu:Expires></wsu:Timestamp><wsse:BinarySecurityToken EncodingType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#Base64Binary" ValueType="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3" wsu:Id="X509-1">{bst}</wsse:BinarySecurityToken></wsse:Security></soap:Header><soap:Body wsu:Id="Body-1"><soap:Fault><faultcode>soap:Server</faultcode><faultstring>out of coffee</faultstring></soap:Fault></soap:Body></soap:Envelope>"#
    )
}

#[tokio::test]
async fn unsigned_faults_are_marked_or_refused() {
    use soapgen_runtime::fault::FaultSecurity;
    use soapgen_tests::canned::{http, serve, Behaviour};
    use soapgen_tests::xmlsec::xmlsec1_sign;
    let peer = wss4j_scenario3_server(&[]);
    let wss = scenario3(
        BlockEncryption::Aes128Cbc,
        KeyTransport::RsaOaepMgf1Sha1,
        EncryptionOrder::SignThenEncrypt,
    );
    // A request signed by the stranger: WSS4J answers with its (unsigned) fault, HTTP 500. The
    // client, which requires signed responses, returns the fault marked as not verified...
    let pki = test_pki();
    let stranger =
        X509Credential::from_pem(&pki.read("stranger.pem"), &pki.read("stranger.key")).unwrap();
    let mut wrong = wss.clone().sign(X509Signer::new(stranger));
    wrong = wrong
        .decrypt_with(X509Credential::from_pkcs12(&pki.read("client.p12"), "changeit").unwrap());
    let e = echo11(peer.url("/scenario3/aes128-cbc"), wrong.clone(), "x".into())
        .await
        .unwrap_err();
    let fault = e.fault().unwrap_or_else(|| panic!("not a fault: {e}"));
    assert_eq!(fault.http_status, Some(500), "{e}");
    assert!(
        matches!(&fault.security, FaultSecurity::NotVerified(why) if why.contains("no wsse:Security header")),
        "{:?}",
        fault.security
    );
    assert!(!fault.security.is_verified());
    // ... or, when told to, refuses it for what the policy misses.
    let e = echo11(
        peer.url("/scenario3/aes128-cbc"),
        wrong.refuse_unverified_faults(true),
        "x".into(),
    )
    .await
    .unwrap_err();
    assert!(
        matches!(&e, Error::Security(w) if matches!(&**w, WssError::MissingSecurityHeader { .. })),
        "{e}"
    );
    // A fault signed by a trusted certificate (xmlsec1, Body and Timestamp) is verified.
    let signed = xmlsec1_sign(
        &fault_envelope(),
        &pki.path("server.key"),
        &pki.path("server.pem"),
        "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
        "http://www.w3.org/2001/04/xmlenc#sha256",
        &["TS-1", "Body-1"],
    );
    let signing = || {
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(credential("client")))
            .trust(TrustStore::new().anchor(cert("ca.pem")))
    };
    let server = serve(Behaviour::Raw(http(
        500,
        "text/xml; charset=utf-8",
        signed.as_bytes(),
    )));
    for refuse in [false, true] {
        let cfg = signing().refuse_unverified_faults(refuse);
        let e = echo11(server.url(), cfg.clone(), "x".into())
            .await
            .unwrap_err();
        let fault = e.fault().unwrap_or_else(|| panic!("not a fault: {e}"));
        assert_eq!(fault.reason, "out of coffee");
        assert_eq!(fault.security, FaultSecurity::Verified, "{e}");
        // The same signed fault again is a replay: not verified, or refused.
        let e = echo11(server.url(), cfg, "x".into()).await.unwrap_err();
        if refuse {
            assert!(
                matches!(&e, Error::Security(w) if matches!(**w, WssError::Replay(_))),
                "{e}"
            );
        } else {
            assert!(
                matches!(e.fault().map(|f| &f.security), Some(FaultSecurity::NotVerified(why)) if why.contains("replayed")),
                "{e:?}"
            );
        }
    }
    // The same fault unsigned (its Timestamp fresh): not verified.
    let server = serve(Behaviour::Raw(http(
        500,
        "text/xml; charset=utf-8",
        fault_envelope().as_bytes(),
    )));
    let e = echo11(server.url(), signing(), "x".into())
        .await
        .unwrap_err();
    assert!(
        matches!(e.fault().map(|f| &f.security), Some(FaultSecurity::NotVerified(why)) if why.contains("Body is not signed")),
        "{e:?}"
    );
    // A client without WS-Security says nothing about it.
    let plain = serve(Behaviour::Raw(http(
        500,
        "text/xml; charset=utf-8",
        fault_envelope().as_bytes(),
    )));
    let e = soapgen_tests::wss4j_service::echo11(plain.url(), WssConfig::new(), "x".into())
        .await
        .unwrap_err();
    assert_eq!(
        e.fault().map(|f| &f.security),
        Some(&FaultSecurity::NotChecked),
        "{e}"
    );
}
