//! The message shapes of the AsymmetricBinding ports that go beyond sign-and-encrypt, against the
//! CXF peer of [`super`], both ways:
//!
//! * `DoubleItAsymmetricEncryptBeforeSigningPort`: CXF's replies name the Body's key from a
//!   standalone ReferenceList after the signature (WSS 1.1 §9.4); copies with that list moved out
//!   of order, or whose EncryptedData names no key, are refused.
//! * `DoubleItAsymmetricEncryptSignaturePort` (`sp:EncryptSignature`): the signature encrypted
//!   under the Body's key, both ways; a reply with its signature in the clear is refused.
//! * `DoubleItAsymmetricProtectTokensPort` (`sp:ProtectTokens`): the signature covers its
//!   BinarySecurityToken; a reply whose signature leaves its token out is refused.
//! * `DoubleItAsymmetricUsernameTokenPort`: a UsernameToken encrypted as an
//!   `sp:EncryptedSupportingTokens`.
//! * `DoubleItAsymmetricPKIPathPort`: the signer's certificate path as a PKIPath token.
//! * `DoubleItAsymmetricEndorsingPort`: a second signature, by another key, over the first.
//! * `sp:Layout`: a LaxTsLast request; CXF's replies checked Strict, LaxTsFirst, LaxTsLast.

use std::time::Duration;

use base64::Engine as _;
use soapgen_runtime::wss::{
    DigestAlgorithm, EncryptionOrder, Endorsement, KeyReference, Layout, MessagePart,
    SignatureAlgorithm, TrustStore, UsernameToken, WssConfig, WssError, X509Signer, X509_PKIPATH,
};
use soapgen_runtime::SoapVersion;
use soapgen_tests::wss::{cert, credential};

use super::{
    asymmetric_basic128, basic128_encryptor, doubled, doubled_on_the_wire, fault_reason, x509_port,
    USER,
};

/// `DoubleItAsymmetricEncryptBeforeSigningPort` both ways: soapgen encrypts, then signs; CXF
/// lays its response's Security header out as Timestamp, EncryptedKey (without a ReferenceList),
/// BinarySecurityToken (RecipientToken `AlwaysToInitiator`), Signature (over the Timestamp and the
/// *encrypted* Body), then a standalone ReferenceList naming the Body's EncryptedData, whose
/// KeyInfo points at the EncryptedKey. soapgen processes it in that order: the signature is
/// verified over the ciphertext, then the ReferenceList decrypts the Body.
#[tokio::test]
async fn asymmetric_encrypt_before_signing_both_ways() {
    let url = x509_port("DoubleItAsymmetricEncryptBeforeSigningPort");
    let wss = asymmetric_basic128(
        KeyReference::SubjectKeyIdentifier,
        EncryptionOrder::EncryptThenSign,
    );
    let (value, _, response) = doubled_on_the_wire(url.clone(), wss.clone(), 7).await;
    assert_eq!(value, 14);
    let list_at = response
        .find("</ds:Signature><xenc:ReferenceList")
        .map(|at| at + "</ds:Signature>".len())
        .unwrap_or_else(|| panic!("no standalone ReferenceList after the Signature:\n{response}"));
    assert!(
        response.contains("#EncryptedKey") && !response[..list_at].contains("ReferenceList"),
        "{response}"
    );
    assert_eq!(doubled(url, wss, -8).await, -16);

    // The same reply with its ReferenceList moved: before the EncryptedKey, it names a key not
    // met yet; before the Signature, the Body is decrypted before the signature over its
    // ciphertext is checked. Each checked by a client of its own (no replay of the original).
    let list_end = list_at
        + response[list_at..]
            .find("</xenc:ReferenceList>")
            .expect("the ReferenceList ends")
        + "</xenc:ReferenceList>".len();
    let list = &response[list_at..list_end];
    let without = format!("{}{}", &response[..list_at], &response[list_end..]);
    let moved_before = |marker: &str| {
        let at = without.find(marker).expect(marker);
        format!("{}{list}{}", &without[..at], &without[at..])
    };
    let fresh = || {
        asymmetric_basic128(
            KeyReference::SubjectKeyIdentifier,
            EncryptionOrder::EncryptThenSign,
        )
    };
    let now = soapgen_runtime::wss::UtcTime::now();
    let early = fresh()
        .check_response(moved_before("<xenc:EncryptedKey").as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&early, WssError::Malformed { path, reason } if path.contains("/Body/EncryptedData")
            && reason.contains("no EncryptedKey for this client before the ReferenceList")),
        "{early}"
    );
    let before_signature = fresh()
        .check_response(moved_before("<ds:Signature").as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&before_signature, WssError::InvalidSignature(m) if m.contains("(/Envelope/Body) does not match")),
        "{before_signature}"
    );
    // Copies whose signature no longer verifies, checked by a client that decrypts only.
    let decrypting = || {
        WssConfig::new()
            .decrypt_with(credential("client"))
            .require_encryption(true)
    };
    // The Body's EncryptedData without its KeyInfo: nothing names its key.
    let ed_at = response
        .find("<xenc:EncryptedData")
        .expect("an EncryptedData");
    let ki_at = ed_at + response[ed_at..].find("<ds:KeyInfo").expect("its KeyInfo");
    let ki_end = ki_at
        + response[ki_at..]
            .find("</ds:KeyInfo>")
            .expect("KeyInfo ends")
        + "</ds:KeyInfo>".len();
    let no_key = format!("{}{}", &response[..ki_at], &response[ki_end..]);
    let e = decrypting()
        .check_response(no_key.as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&e, WssError::Malformed { path, reason } if path.contains("/Body/EncryptedData")
            && reason.contains("must name its key in its KeyInfo")),
        "{e}"
    );
    // Named by the EncryptedKeySHA1 of the EncryptedKey instead of its Id (WSS 1.1 §7.3): the
    // same key, found the other way.
    let cv_at = response
        .find("<xenc:CipherValue>")
        .expect("the EncryptedKey's CipherValue")
        + "<xenc:CipherValue>".len();
    let cv_end = cv_at + response[cv_at..].find('<').expect("CipherValue ends");
    let octets = soapgen_runtime::base64::decode(&response.as_bytes()[cv_at..cv_end]).unwrap();
    let sha1 =
        base64::engine::general_purpose::STANDARD.encode(DigestAlgorithm::Sha1.digest(&octets));
    let by_sha1 = format!(
        "{}<ds:KeyInfo xmlns:ds=\"http://www.w3.org/2000/09/xmldsig#\"><wsse:SecurityTokenReference xmlns:wsse=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd\"><wsse:KeyIdentifier ValueType=\"{}\">{sha1}</wsse:KeyIdentifier></wsse:SecurityTokenReference></ds:KeyInfo>{}",
        &response[..ki_at],
        soapgen_runtime::wss::ENCRYPTED_KEY_SHA1,
        &response[ki_end..]
    );
    let (report, plain) = decrypting()
        .process_response(by_sha1.as_bytes(), now)
        .expect("the key found by its EncryptedKeySHA1");
    assert!(
        plain.contains("<doubledNumber>14</doubledNumber>"),
        "{plain}"
    );
    assert!(report.decrypted.contains(&MessagePart::Body));
    // The original still passes a fresh client's check, and decrypts.
    let (report, plain) = fresh()
        .process_response(response.as_bytes(), now)
        .expect("CXF's reply");
    assert!(
        plain.contains("<doubledNumber>14</doubledNumber>"),
        "{plain}"
    );
    assert!(report.decrypted.contains(&MessagePart::Body));
}

/// `DoubleItAsymmetricEncryptSignaturePort` both ways (`sp:EncryptSignature`): soapgen's
/// signature travels encrypted under the Body's key, and CXF's reply carries its own signature
/// encrypted for the client, which soapgen decrypts, then verifies. A reply whose signature was
/// not encrypted is refused, and CXF refuses a request whose signature is in the clear.
#[tokio::test]
async fn asymmetric_encrypt_signature_both_ways() {
    let url = x509_port("DoubleItAsymmetricEncryptSignaturePort");
    let plain = asymmetric_basic128(
        KeyReference::SubjectKeyIdentifier,
        EncryptionOrder::SignThenEncrypt,
    );
    let wss = plain.clone().encrypt(
        basic128_encryptor(
            KeyReference::SubjectKeyIdentifier,
            EncryptionOrder::SignThenEncrypt,
        )
        .encrypt_signature(true),
    );
    let (value, request, response) = doubled_on_the_wire(url.clone(), wss.clone(), 9).await;
    assert_eq!(value, 18);
    for (what, message) in [("request", &request), ("response", &response)] {
        assert!(
            !message.contains("SignatureValue")
                && message.matches("<xenc:EncryptedData").count() >= 2,
            "the {what}'s signature is not encrypted:\n{message}"
        );
    }
    assert!(request.contains("URI=\"#ESIG-"), "{request}");
    assert_eq!(doubled(url.clone(), wss.clone(), -9).await, -18);

    // A reply whose signature is in the clear (the IssuerSerial port's) fails the requirement.
    let other = x509_port("DoubleItAsymmetricIssuerSerialPort");
    let issuer_serial = || {
        asymmetric_basic128(
            KeyReference::X509IssuerSerial,
            EncryptionOrder::SignThenEncrypt,
        )
    };
    let (_, _, clear) = doubled_on_the_wire(other, issuer_serial(), 2).await;
    let e = issuer_serial()
        .require_encrypted_signature(true)
        .check_response(clear.as_bytes(), soapgen_runtime::wss::UtcTime::now())
        .unwrap_err();
    assert_eq!(
        e,
        WssError::NotEncrypted("Signature (sp:EncryptSignature)".to_owned())
    );
    // CXF refuses a request whose signature is not encrypted.
    let reason = fault_reason(url.clone(), plain, 1).await;
    assert!(
        reason.contains("AsymmetricBinding: The signature is not protected"),
        "{reason}"
    );
    // An encrypted signature over the ciphertext, where the port signs first: CXF refuses it
    // for its order.
    let after = wss.encrypt(
        basic128_encryptor(
            KeyReference::SubjectKeyIdentifier,
            EncryptionOrder::EncryptThenSign,
        )
        .encrypt_signature(true),
    );
    let reason = fault_reason(url.clone(), after, 1).await;
    assert!(
        reason.contains("AsymmetricBinding: Not signed before encrypted"),
        "{reason}"
    );
}

/// `DoubleItAsymmetricProtectTokensPort` (`sp:ProtectTokens`): soapgen's signature also covers
/// its BinarySecurityToken. CXF's replies are signed with a key named by IssuerSerial (the
/// RecipientToken is never included), so they carry no token to cover, and pass a client that
/// requires it. (CXF 4.2 accepts a request whose signature leaves its token out as well: it does
/// not check ProtectTokens on what it receives.) A reply whose signature leaves its
/// BinarySecurityToken out (the encrypt-before-signing port's) is refused by a client that
/// requires it; a message soapgen signed with the option passes that client, the same message
/// signed without it is refused.
#[tokio::test]
async fn asymmetric_protect_tokens_both_ways() {
    let url = x509_port("DoubleItAsymmetricProtectTokensPort");
    let signer = || {
        X509Signer::new(credential("client"))
            .signature_algorithm(SignatureAlgorithm::RsaSha1)
            .digest(DigestAlgorithm::Sha1)
    };
    let wss = asymmetric_basic128(
        KeyReference::X509IssuerSerial,
        EncryptionOrder::SignThenEncrypt,
    )
    .sign(signer().protect_token(true));
    assert!(wss.requires_protected_token());
    let (value, request, response) = doubled_on_the_wire(url.clone(), wss.clone(), 11).await;
    assert_eq!(value, 22);
    let bst_id = request
        .split("<wsse:BinarySecurityToken ")
        .nth(1)
        .and_then(|t| t.split("wsu:Id=\"").nth(1))
        .and_then(|t| t.split('"').next())
        .unwrap_or_else(|| panic!("no BinarySecurityToken Id:\n{request}"));
    assert!(
        request.contains(&format!("<ds:Reference URI=\"#{bst_id}\">")),
        "{request}"
    );
    assert!(!response.contains("BinarySecurityToken"), "{response}");
    assert_eq!(doubled(url, wss, 4).await, 8);

    // A CXF reply whose signature leaves its BinarySecurityToken out.
    let ebs = || {
        asymmetric_basic128(
            KeyReference::SubjectKeyIdentifier,
            EncryptionOrder::EncryptThenSign,
        )
    };
    let (_, _, reply) = doubled_on_the_wire(
        x509_port("DoubleItAsymmetricEncryptBeforeSigningPort"),
        ebs(),
        5,
    )
    .await;
    let now = soapgen_runtime::wss::UtcTime::now();
    let e = ebs()
        .require_protected_token(true)
        .check_response(reply.as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, detail } if part == "signing token (sp:ProtectTokens)"
            && detail.contains("/Envelope/Header/Security/Signature")),
        "{e}"
    );
    // Messages soapgen signed, with and without the token covered.
    let checker = || {
        WssConfig::new()
            .trust(TrustStore::new().anchor(cert("ca.pem")))
            .require_signature(true)
            .require_protected_token(true)
    };
    let signed = |protect: bool| {
        soapgen_tests::wss::request(
            WssConfig::new()
                .timestamp(Duration::from_secs(300))
                .sign(signer().protect_token(protect)),
            SoapVersion::Soap11,
            "protected?",
        )
    };
    let report = checker()
        .check_response(signed(true).as_bytes(), now)
        .expect("the token is covered");
    assert!(report.signed.contains(&MessagePart::SecurityToken(
        "BinarySecurityToken".to_owned()
    )));
    let e = checker()
        .check_response(signed(false).as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&e, WssError::NotSigned { part, .. } if part.contains("ProtectTokens")),
        "{e}"
    );
}

/// `DoubleItAsymmetricUsernameTokenPort`: a UsernameToken as an `sp:EncryptedSupportingTokens`
/// (encrypted under the Body's key, listed in the same EncryptedKey) of an encrypt-before-signing
/// AsymmetricBinding. CXF decrypts the token and checks the password; it refuses the token in the
/// clear, and a wrong password.
#[tokio::test]
async fn asymmetric_encrypted_username_token_both_ways() {
    let url = x509_port("DoubleItAsymmetricUsernameTokenPort");
    let base = || {
        asymmetric_basic128(
            KeyReference::SubjectKeyIdentifier,
            EncryptionOrder::EncryptThenSign,
        )
    };
    let with = |password: &str, encrypted: bool| {
        base()
            .username_token(UsernameToken::text(USER.0, password))
            .encrypt(
                basic128_encryptor(
                    KeyReference::SubjectKeyIdentifier,
                    EncryptionOrder::EncryptThenSign,
                )
                .encrypt_username_token(encrypted),
            )
    };
    let (value, request, _) = doubled_on_the_wire(url.clone(), with(USER.1, true), 13).await;
    assert_eq!(value, 26);
    assert!(
        !request.contains("UsernameToken") && request.contains("URI=\"#EUT-"),
        "{request}"
    );
    assert_eq!(doubled(url.clone(), with(USER.1, true), 1).await, 2);
    let reason = fault_reason(url.clone(), with(USER.1, false), 1).await;
    assert!(
        reason.contains("EncryptedSupportingTokens: The received token does not match the encrypted supporting token requirement"),
        "{reason}"
    );
    // Signed too (sp:SignedEncryptedSupportingTokens) needs the token before the signature, so
    // sign-then-encrypt: a message soapgen made so, read back with the service's key.
    let signed_encrypted = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .username_token(UsernameToken::digest(USER.0, USER.1))
        .sign(X509Signer::new(credential("client")).sign_username_token(true))
        .encrypt(
            basic128_encryptor(
                KeyReference::SubjectKeyIdentifier,
                EncryptionOrder::SignThenEncrypt,
            )
            .encrypt_username_token(true),
        );
    let message = soapgen_tests::wss::request(signed_encrypted, SoapVersion::Soap11, "ut");
    let report = WssConfig::new()
        .decrypt_with(credential("server"))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .require_signature(true)
        .require_encryption(true)
        .expect_username_token(USER.0, USER.1)
        .check_response(message.as_bytes(), soapgen_runtime::wss::UtcTime::now())
        .expect("a signed, encrypted UsernameToken");
    let token = MessagePart::SecurityToken("UsernameToken".to_owned());
    assert!(
        report.signed.contains(&token) && report.decrypted.contains(&token),
        "{report:?}"
    );
    assert_eq!(report.username.as_deref(), Some(USER.0));
    let reason = fault_reason(url, with("not the password", true), 1).await;
    assert_eq!(
        reason,
        "The security token could not be authenticated or authorized"
    );
}

/// `DoubleItAsymmetricPKIPathPort` (`sp:WssX509PkiPathV1Token11`): soapgen's certificate travels
/// with its CA as a PKIPath BinarySecurityToken, which CXF verifies; a plain X.509 v3 token is
/// refused. A message soapgen signed so is verified by soapgen with the CA as its only anchor.
#[tokio::test]
async fn asymmetric_pki_path_both_ways() {
    let url = x509_port("DoubleItAsymmetricPKIPathPort");
    let signer = || {
        X509Signer::new(credential("client"))
            .signature_algorithm(SignatureAlgorithm::RsaSha1)
            .digest(DigestAlgorithm::Sha1)
    };
    let v3 = asymmetric_basic128(
        KeyReference::SubjectKeyIdentifier,
        EncryptionOrder::SignThenEncrypt,
    );
    let wss = v3.clone().sign(signer().pki_path(vec![cert("ca.pem")]));
    let (value, request, _) = doubled_on_the_wire(url.clone(), wss.clone(), 17).await;
    assert_eq!(value, 34);
    assert_eq!(
        request
            .matches(&format!("ValueType=\"{X509_PKIPATH}\""))
            .count(),
        2,
        "the token and the reference to it:\n{request}"
    );
    assert_eq!(doubled(url.clone(), wss, 0).await, 0);
    assert!(
        request.contains(&format!("wsse11:TokenType=\"{X509_PKIPATH}\"")),
        "WS-I BSP R5215:\n{request}"
    );
    let reason = fault_reason(url, v3, 1).await;
    assert!(
        reason.contains("X509Token: An incorrect X.509 Token Type is detected"),
        "{reason}"
    );
    let message = soapgen_tests::wss::request(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(signer().pki_path(vec![cert("ca.pem")])),
        SoapVersion::Soap11,
        "path",
    );
    let report = WssConfig::new()
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .require_signature(true)
        .check_response(message.as_bytes(), soapgen_runtime::wss::UtcTime::now())
        .expect("the PKIPath token verified through the CA");
    assert_eq!(
        report.signer.map(|c| c.subject().to_owned()),
        Some(credential("client").certificate().subject().to_owned())
    );
}

/// An RSA leaf of the test CA for endorsing signatures (digitalSignature only).
fn endorser() -> X509Signer {
    let stem = soapgen_tests::pki::leaf_with_extensions(
        "endorser",
        "5151",
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nsubjectKeyIdentifier=hash\n",
    );
    X509Signer::new(credential(&stem))
        .signature_algorithm(SignatureAlgorithm::RsaSha1)
        .digest(DigestAlgorithm::Sha1)
}

/// `DoubleItAsymmetricEndorsingPort` (`sp:EndorsingSupportingTokens` with an X.509 token and
/// `sp:SignedParts` Body): after soapgen's message signature, a second signature by another key
/// of the test CA covers it and the Body. The port has no message policy of its own: CXF's
/// replies carry a Timestamp signed with the service's key. CXF refuses the request without the
/// endorsing signature (it accepts one that leaves the Body out: it does not check the
/// supporting token's SignedParts). A signed endorsement soapgen made is read back by soapgen.
#[tokio::test]
async fn asymmetric_endorsing_both_ways() {
    let url = x509_port("DoubleItAsymmetricEndorsingPort");
    // A fresh configuration each time (clones share their replay cache).
    let plain = || {
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(
                X509Signer::new(credential("client"))
                    .signature_algorithm(SignatureAlgorithm::RsaSha1)
                    .digest(DigestAlgorithm::Sha1),
            )
            .trust(
                TrustStore::new()
                    .anchor(cert("ca.pem"))
                    .known_certificate(cert("server.pem")),
            )
            .require_signature(false)
            .require_timestamp(true)
    };
    let wss = plain().endorse(Endorsement::new(endorser()).cover_body(true));
    let (value, request, response) = doubled_on_the_wire(url.clone(), wss.clone(), 19).await;
    assert_eq!(value, 38);
    assert_eq!(request.matches("<ds:Signature ").count(), 2, "{request}");
    // The reply: the Timestamp signed by the service's key, nothing else.
    let report = plain()
        .check_response(response.as_bytes(), soapgen_runtime::wss::UtcTime::now())
        .expect("CXF's reply");
    assert_eq!(report.signed, vec![MessagePart::Timestamp]);
    assert_eq!(
        report.signer, None,
        "the Body is not signed, so no signer vouches for it"
    );
    let reason = fault_reason(url, plain(), 1).await;
    assert!(
        reason.contains("EndorsingSupportingTokens: The received token does not match the endorsing supporting token requirement"),
        "{reason}"
    );
    // A message soapgen signed and endorsed (the endorsing token signed by the message
    // signature too, sp:SignedEndorsingSupportingTokens), read back: both signatures verify,
    // one covers the other.
    let message = soapgen_tests::wss::request(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(credential("client")))
            .endorse(
                Endorsement::new(endorser().protect_token(true))
                    .cover_body(true)
                    .signed(true),
            ),
        SoapVersion::Soap11,
        "endorsed",
    );
    let report = WssConfig::new()
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .require_signature(true)
        .check_response(message.as_bytes(), soapgen_runtime::wss::UtcTime::now())
        .expect("both signatures verify");
    let count = |part: &MessagePart| report.signed.iter().filter(|p| *p == part).count();
    assert_eq!(
        count(&MessagePart::SecurityToken("Signature".to_owned())),
        1
    );
    assert_eq!(count(&MessagePart::Body), 2, "{report:?}");
    assert_eq!(
        count(&MessagePart::SecurityToken(
            "BinarySecurityToken".to_owned()
        )),
        2,
        "the endorsing token, by both signatures: {report:?}"
    );
}

/// The children of the response's Security header, by local name, in order.
fn security_children(envelope: &str) -> Vec<String> {
    let start = envelope.find("<wsse:Security").expect("a Security header");
    let end = envelope.find("</wsse:Security>").expect("its end");
    let mut names = Vec::new();
    let mut depth = 0usize;
    let inner = &envelope[start..end];
    let body = &inner[inner.find('>').expect("start tag") + 1..];
    let mut rest = body;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        let close = rest.starts_with('/');
        let tag_end = rest.find('>').expect("tag end");
        let self_closing = rest[..tag_end].ends_with('/');
        if close {
            depth -= 1;
        } else {
            if depth == 0 {
                let name = rest[..tag_end]
                    .split(|c: char| c.is_ascii_whitespace() || c == '/')
                    .next()
                    .unwrap_or("");
                names.push(name.rsplit(':').next().unwrap_or(name).to_owned());
            }
            if !self_closing {
                depth += 1;
            }
        }
        rest = &rest[tag_end + 1..];
    }
    names
}

/// `sp:Layout` (WS-SecurityPolicy 1.2 §7.7) both ways against CXF's Lax ports: a request laid
/// out LaxTsLast (the Timestamp after the signature that covers it) is accepted (its Lax reply
/// too); CXF's
/// encrypt-before-signing reply meets Strict, and copies of it with the token moved after the
/// signature, or the Timestamp moved last, are refused under Strict (and the latter under
/// LaxTsFirst) with the rule named, while Lax and LaxTsLast accept what their rules allow.
#[tokio::test]
async fn security_header_layouts_both_ways() {
    let url = x509_port("DoubleItAsymmetricIssuerSerialPort");
    let last = asymmetric_basic128(
        KeyReference::X509IssuerSerial,
        EncryptionOrder::SignThenEncrypt,
    )
    .layout(Layout::LaxTsLast)
    .require_layout(Layout::Lax);
    let (value, request, _) = doubled_on_the_wire(url, last, 23).await;
    assert_eq!(value, 46);
    let order = security_children(&request);
    assert_eq!(
        order.last().map(String::as_str),
        Some("Timestamp"),
        "{order:?}"
    );
    assert_eq!(
        order.first().map(String::as_str),
        Some("BinarySecurityToken"),
        "{order:?}"
    );

    let ebs = |layout: Layout| {
        asymmetric_basic128(
            KeyReference::SubjectKeyIdentifier,
            EncryptionOrder::EncryptThenSign,
        )
        .layout(layout)
    };
    let url = x509_port("DoubleItAsymmetricEncryptBeforeSigningPort");
    let (_, _, reply) = doubled_on_the_wire(url, ebs(Layout::Strict), 3).await;
    assert_eq!(
        security_children(&reply),
        [
            "Timestamp",
            "EncryptedKey",
            "BinarySecurityToken",
            "Signature",
            "ReferenceList"
        ]
    );
    // Cut one child out (by its start and end markers) and put it back elsewhere.
    let take = |doc: &str, open: &str, close: &str| {
        let a = doc.find(open).expect(open);
        let b = a + doc[a..].find(close).expect(close) + close.len();
        (doc[a..b].to_owned(), format!("{}{}", &doc[..a], &doc[b..]))
    };
    let (token, without) = take(
        &reply,
        "<wsse:BinarySecurityToken",
        "</wsse:BinarySecurityToken>",
    );
    let token_late = without.replacen("</ds:Signature>", &format!("</ds:Signature>{token}"), 1);
    let (ts, without) = take(&reply, "<wsu:Timestamp", "</wsu:Timestamp>");
    let ts_last = without.replacen("</wsse:Security>", &format!("{ts}</wsse:Security>"), 1);
    let now = soapgen_runtime::wss::UtcTime::now();
    let check = |layout: Layout, doc: &str| ebs(layout).check_response(doc.as_bytes(), now);
    let refused = |layout: Layout, doc: &str, rule: &str| match check(layout, doc) {
        Err(WssError::Layout {
            layout: l,
            rule: r,
            element,
        }) => {
            assert_eq!((l, r), (layout.name(), rule), "{element}");
            element
        }
        other => panic!("{layout:?}: {other:?}"),
    };
    check(Layout::Strict, &reply).expect("CXF's reply is laid out Strict");
    let at = refused(
        Layout::Strict,
        &token_late,
        "a signature's token must come before the signature",
    );
    assert!(at.contains("/Security/Signature"), "{at}");
    let at = refused(
        Layout::Strict,
        &ts_last,
        "an element of the header must come before the signature that signs it",
    );
    assert!(at.contains("/Security/Signature"), "{at}");
    let at = refused(
        Layout::LaxTsFirst,
        &ts_last,
        "the wsu:Timestamp must be the first child",
    );
    assert!(at.contains("/Security/EncryptedKey"), "{at}");
    refused(
        Layout::LaxTsLast,
        &reply,
        "the wsu:Timestamp must be the last child",
    );
    let (list, without) = take(&reply, "<xenc:ReferenceList", "</xenc:ReferenceList>");
    let list_first = without.replacen(
        "<xenc:EncryptedKey",
        &format!("{list}<xenc:EncryptedKey"),
        1,
    );
    let at = refused(
        Layout::Strict,
        &list_first,
        "the EncryptedKey of a ReferenceList's EncryptedData must come before the ReferenceList",
    );
    assert!(at.contains("/Security/ReferenceList"), "{at}");
    check(Layout::Lax, &token_late).expect("Lax takes the token after the signature");
    check(Layout::LaxTsLast, &ts_last).expect("the Timestamp last");
}
