//! The SymmetricBinding ports of `x509/DoubleItX509.wsdl` (WS-SecurityPolicy 1.2 §7.4, the
//! service's X.509 certificate as ProtectionToken) against the CXF peer of [`super`], both ways:
//! soapgen makes a key per request, wraps it for the service, signs with HMAC-SHA1 and encrypts
//! under it (or under keys derived from it); CXF answers under the same key, named by its
//! `#EncryptedKeySHA1`, which soapgen accepts only for the key it made for that request.
//!
//! * `DoubleItKeyIdentifierPort`, `DoubleItIssuerSerialPort`, `DoubleItThumbprintPort`: the
//!   service's certificate named by SubjectKeyIdentifier, IssuerSerial, SHA-1 thumbprint.
//! * `DoubleItKeyIdentifierEncryptBeforeSigningPort`: the signature over the encrypted Body.
//! * `DoubleItKeyIdentifierDerivedPort`, `DoubleItKeyIdentifierEncryptBeforeSigningDerivedPort`:
//!   `wsc:DerivedKeyToken`s (both WS-SecureConversation namespaces) both ways.
//! * `DoubleItSymmetric256Port` (Basic128Sha256) and `DoubleItSymmetricProtectTokensPort` (the
//!   service's certificate sent, the signature covering its tokens).
//! * `DoubleItSymmetricEndorsingEncryptedPort`: an endorsing X.509 token encrypted under the
//!   request key (`sp:EndorsingEncryptedSupportingTokens`), its signature and the message's too.
//! * Replies under another key, replayed from an earlier exchange, or with a changed HMAC are
//!   refused; an HMAC reply is refused by a client that sent no symmetric request; a reply naming
//!   the request key by its EncryptedKey's `Id` is read; DerivedKeyTokens too short or with both
//!   Offset and Generation are refused.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use soapgen_runtime::wss::{
    DigestAlgorithm, EncryptionOrder, Endorsement, KeyReference, SecureConversation,
    SignatureAlgorithm, SymmetricBinding, TrustStore, UtcTime, WssConfig, WssError, X509Signer,
    X509SupportingToken,
};
use soapgen_runtime::Error;
use soapgen_tests::recording::Recording;
use soapgen_tests::wss::{cert, credential};

use super::{double_it_via, doubled, doubled_on_the_wire, fault_reason, x509_port};

/// The service's certificate as ProtectionToken, named by `reference`; Basic128.
fn binding(reference: KeyReference) -> SymmetricBinding {
    SymmetricBinding::new(cert("server.pem"))
        .key_reference(reference)
        .expect("the server certificate has what the reference needs")
}

/// A client that sends a Timestamp and protects its requests with `b`.
fn symmetric(b: SymmetricBinding) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .symmetric(b)
}

const HMAC: &str = "SignatureMethod Algorithm=\"http://www.w3.org/2000/09/xmldsig#hmac-sha1\"";
const BY_SHA1: &str = "#EncryptedKeySHA1\"";

#[tokio::test]
async fn symmetric_x509_references_both_ways() {
    for (port, reference, marker) in [
        (
            "DoubleItKeyIdentifierPort",
            KeyReference::SubjectKeyIdentifier,
            "#X509SubjectKeyIdentifier\"",
        ),
        (
            "DoubleItIssuerSerialPort",
            KeyReference::X509IssuerSerial,
            "<ds:X509IssuerSerial>",
        ),
        (
            "DoubleItThumbprintPort",
            KeyReference::ThumbprintSha1,
            "#ThumbprintSHA1\"",
        ),
    ] {
        let url = x509_port(port);
        let wss = symmetric(binding(reference));
        let (value, request, response) = doubled_on_the_wire(url.clone(), wss.clone(), 31).await;
        assert_eq!(value, 62, "{port}");
        assert!(
            request.contains(HMAC) && request.contains(marker),
            "{port}: {request}"
        );
        assert!(
            response.contains(HMAC) && response.matches(BY_SHA1).count() >= 2,
            "{port}: {response}"
        );
        assert_eq!(doubled(url, wss, -1).await, -2, "{port}");
    }
}

#[tokio::test]
async fn symmetric_encrypt_before_signing_both_ways() {
    let url = x509_port("DoubleItKeyIdentifierEncryptBeforeSigningPort");
    let wss = symmetric(
        binding(KeyReference::SubjectKeyIdentifier).order(EncryptionOrder::EncryptThenSign),
    );
    let (value, request, _) = doubled_on_the_wire(url.clone(), wss, 8).await;
    assert_eq!(value, 16);
    assert!(
        request.contains("</ds:Signature><xenc:ReferenceList"),
        "the ReferenceList after the signature over the ciphertext: {request}"
    );
    let reason = fault_reason(
        url,
        symmetric(binding(KeyReference::SubjectKeyIdentifier)),
        1,
    )
    .await;
    assert!(reason.contains("EncryptBeforeSigning"), "{reason}");
}

#[tokio::test]
async fn symmetric_derived_keys_both_ways() {
    for (port, order) in [
        (
            "DoubleItKeyIdentifierDerivedPort",
            EncryptionOrder::SignThenEncrypt,
        ),
        (
            "DoubleItKeyIdentifierEncryptBeforeSigningDerivedPort",
            EncryptionOrder::EncryptThenSign,
        ),
    ] {
        for version in [SecureConversation::V13, SecureConversation::V2005] {
            let url = x509_port(port);
            let wss = symmetric(
                binding(KeyReference::SubjectKeyIdentifier)
                    .order(order)
                    .derived_keys(version),
            );
            let (value, request, response) = doubled_on_the_wire(url, wss, 6).await;
            assert_eq!(value, 12, "{port} {version:?}");
            let dkt = format!("DerivedKeyToken xmlns:wsc=\"{}\"", version.namespace());
            assert_eq!(request.matches(&dkt).count(), 2, "{port}: {request}");
            assert!(response.contains("DerivedKeyToken"), "{port}: {response}");
        }
    }
    // Without derived keys the port refuses the request.
    let url = x509_port("DoubleItKeyIdentifierDerivedPort");
    let reason = fault_reason(
        url,
        symmetric(binding(KeyReference::SubjectKeyIdentifier)),
        1,
    )
    .await;
    assert!(
        reason.contains("SymmetricBinding: Message fails the DerivedKeys requirement"),
        "{reason}"
    );
}

#[tokio::test]
async fn symmetric_basic128sha256_and_protect_tokens_both_ways() {
    let url = x509_port("DoubleItSymmetric256Port");
    let wss =
        symmetric(binding(KeyReference::SubjectKeyIdentifier).digest(DigestAlgorithm::Sha256));
    let (value, request, _) = doubled_on_the_wire(url, wss, 40).await;
    assert_eq!(value, 80);
    assert!(request.contains("xmlenc#sha256"), "{request}");

    let url = x509_port("DoubleItSymmetricProtectTokensPort");
    let wss = symmetric(binding(KeyReference::DirectReference).protect_tokens(true));
    let (value, request, _) = doubled_on_the_wire(url, wss, 41).await;
    assert_eq!(value, 82);
    assert!(
        request.contains("<wsse:BinarySecurityToken")
            && request.matches("<ds:Reference URI=").count() == 4,
        "Timestamp, the service's token, the EncryptedKey, the Body: {request}"
    );
}

/// The last good symmetric reply, for the replay below.
static LAST_REPLY: Mutex<String> = Mutex::new(String::new());

#[tokio::test]
async fn symmetric_replies_under_another_key_are_refused() {
    let url = x509_port("DoubleItKeyIdentifierPort");
    let wss = || symmetric(binding(KeyReference::SubjectKeyIdentifier));
    let (_, _, reply) = doubled_on_the_wire(url.clone(), wss(), 3).await;
    *LAST_REPLY.lock().unwrap() = reply.clone();
    let through = |rewrite: fn(&str) -> String| Arc::new(Recording::rewriting_responses(rewrite));
    let security_error = |r: Result<i32, Error>, wire: &str| match r {
        Err(Error::Security(e)) => *e,
        other => panic!("{other:?}\n{wire}"),
    };
    // The reply to an earlier request: its key is not this request's.
    let (r, wire) = double_it_via(
        &url,
        wss(),
        3,
        through(|_| LAST_REPLY.lock().unwrap().clone()),
    )
    .await;
    let e = security_error(r, &wire);
    assert!(
        matches!(&e, WssError::UntrustedKey(m) if m.contains("an EncryptedKeySHA1 of another key")),
        "{e}"
    );
    // The signature's key named by a Reference to an EncryptedKey put into the reply (a key
    // wrapped for this client's certificate, which anyone can make).
    fn own_key(reply: &str) -> String {
        let ki = reply
            .find("<ds:KeyInfo Id=")
            .expect("the signature's KeyInfo");
        let end = ki + reply[ki..].find("</ds:KeyInfo>").expect("its end");
        let ek = "<xenc:EncryptedKey xmlns:xenc=\"http://www.w3.org/2001/04/xmlenc#\" Id=\"EK-mine\"><xenc:EncryptionMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p\"/><xenc:CipherData><xenc:CipherValue>AAAA</xenc:CipherValue></xenc:CipherData></xenc:EncryptedKey>";
        let with_ref = format!(
            "{}<ds:KeyInfo><wsse:SecurityTokenReference><wsse:Reference URI=\"#EK-mine\"/></wsse:SecurityTokenReference>{}",
            &reply[..ki],
            &reply[end..]
        );
        with_ref.replacen("<wsu:Timestamp", &format!("{ek}<wsu:Timestamp"), 1)
    }
    let (r, wire) = double_it_via(&url, wss(), 3, through(own_key)).await;
    let e = security_error(r, &wire);
    assert!(
        matches!(&e, WssError::UntrustedKey(m) if m.contains("names a EncryptedKey element, not a DerivedKeyToken")),
        "{e}"
    );
    // A changed HMAC.
    fn flipped(reply: &str) -> String {
        let at = reply.find("<ds:SignatureValue>").expect("a SignatureValue") + 19;
        let c = if &reply[at..=at] == "A" { "B" } else { "A" };
        format!("{}{c}{}", &reply[..at], &reply[at + 1..])
    }
    let (r, wire) = double_it_via(&url, wss(), 3, through(flipped)).await;
    let e = security_error(r, &wire);
    assert!(
        matches!(&e, WssError::InvalidSignature(m) if m.contains("HMAC-SHA1")),
        "{e}"
    );
    // An HMAC reply to a client that sent no symmetric request.
    let asymmetric = WssConfig::new()
        .sign(X509Signer::new(credential("client")))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .decrypt_with(credential("client"));
    let now = UtcTime::now();
    let e = asymmetric
        .clone()
        .check_response(reply.as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&e, WssError::Malformed { reason, .. } if reason.contains("names an EncryptedKeySHA1")),
        "its Body's key is one it never made: {e}"
    );
    let list = reply.find("<xenc:ReferenceList").expect("a ReferenceList");
    let list_end = list
        + reply[list..]
            .find("</xenc:ReferenceList>")
            .expect("its end")
        + "</xenc:ReferenceList>".len();
    let unlisted = format!("{}{}", &reply[..list], &reply[list_end..]);
    let e = asymmetric
        .check_response(unlisted.as_bytes(), now)
        .unwrap_err();
    assert!(
        matches!(&e, WssError::AlgorithmNotAllowed { role: "SignatureMethod", uri } if uri.contains("hmac-sha1")),
        "{e}"
    );
}

/// The `Id` of the EncryptedKey of the last request sent through [`by_key_id`].
static REQUEST_KEY_ID: Mutex<String> = Mutex::new(String::new());

/// The request unchanged, its EncryptedKey's `Id` noted.
fn note_key_id(request: &str) -> String {
    let at = request
        .find("<xenc:EncryptedKey ")
        .expect("an EncryptedKey");
    let id = request[at..]
        .split(" Id=\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .expect("its Id");
    *REQUEST_KEY_ID.lock().unwrap() = id.to_owned();
    request.to_owned()
}

/// The reply with every `#EncryptedKeySHA1` KeyIdentifier replaced by a Reference to the
/// request's EncryptedKey by its `Id` (the other way WSS 1.1 §7 names it).
fn by_key_id(reply: &str) -> String {
    let id = REQUEST_KEY_ID.lock().unwrap().clone();
    let mut out = String::new();
    let mut rest = reply;
    while let Some(at) = rest.find("<wsse:KeyIdentifier ") {
        let end = at + rest[at..].find("</wsse:KeyIdentifier>").expect("its end") + 21;
        out.push_str(&rest[..at]);
        out.push_str(&format!("<wsse:Reference URI=\"#{id}\"/>"));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// [`by_key_id`], and a DerivedKeyToken of the reply's own carrying that `Id`, derived from an
/// EncryptedKey the reply carries (a key anyone can wrap for this client).
fn by_key_id_shadowed(reply: &str) -> String {
    let id = REQUEST_KEY_ID.lock().unwrap().clone();
    let own = format!(
        "<xenc:EncryptedKey xmlns:xenc=\"http://www.w3.org/2001/04/xmlenc#\" Id=\"EK-mine\"><xenc:EncryptionMethod Algorithm=\"http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p\"/><xenc:CipherData><xenc:CipherValue>AAAA</xenc:CipherValue></xenc:CipherData></xenc:EncryptedKey>\
         <wsc:DerivedKeyToken xmlns:wsc=\"http://docs.oasis-open.org/ws-sx/ws-secureconversation/200512\" wsu:Id=\"{id}\"><wsse:SecurityTokenReference><wsse:Reference URI=\"#EK-mine\"/></wsse:SecurityTokenReference><wsc:Length>16</wsc:Length><wsc:Nonce>AAAAAAAAAAAAAAAAAAAAAA==</wsc:Nonce></wsc:DerivedKeyToken>"
    );
    by_key_id(reply).replacen("<wsu:Timestamp", &format!("{own}<wsu:Timestamp"), 1)
}

/// A reply that names the request key by its EncryptedKey's `Id` is read; one that also carries
/// an element of that `Id` (a key derived from one of its own) is refused.
#[tokio::test]
async fn symmetric_reply_naming_the_request_key_by_id() {
    let url = x509_port("DoubleItKeyIdentifierPort");
    let wss = || symmetric(binding(KeyReference::SubjectKeyIdentifier));
    let (r, wire) = double_it_via(
        &url,
        wss(),
        21,
        Arc::new(Recording::rewriting_both(note_key_id, by_key_id)),
    )
    .await;
    assert_eq!(r.unwrap_or_else(|e| panic!("{e}\n{wire}")), 42);
    let (r, wire) = double_it_via(
        &url,
        wss(),
        21,
        Arc::new(Recording::rewriting_both(note_key_id, by_key_id_shadowed)),
    )
    .await;
    match r {
        Err(Error::Security(e)) => assert!(
            matches!(&*e, WssError::UntrustedKey(m) if m.contains("#EK-mine names a EncryptedKey element, not a DerivedKeyToken")),
            "{e}"
        ),
        other => panic!("{other:?}\n{wire}"),
    }
}

/// CXF's DerivedKeyTokens with their `Length` made 8 bytes (a key too short to sign with).
fn short_derived_key(reply: &str) -> String {
    let re = |s: &str| {
        let at = s.find(":Length>").expect("a Length") + ":Length>".len();
        let end = at + s[at..].find('<').expect("its end");
        format!("{}8{}", &s[..at], &s[end..])
    };
    re(reply)
}

/// CXF's first DerivedKeyToken with a Generation beside its Offset.
fn offset_and_generation(reply: &str) -> String {
    let at = reply.find(":Length>").expect("a Length");
    let open = reply[..at].rfind('<').expect("its start tag");
    let prefix = &reply[open + 1..at];
    reply.replacen(
        &format!("<{prefix}:Length>"),
        &format!("<{prefix}:Generation>1</{prefix}:Generation><{prefix}:Length>"),
        1,
    )
}

/// CXF's DerivedKeyTokens broken against WS-SecureConversation 1.3 §7 are refused, naming the
/// token.
#[tokio::test]
async fn malformed_derived_keys_are_refused() {
    let url = x509_port("DoubleItKeyIdentifierDerivedPort");
    let wss = || {
        symmetric(binding(KeyReference::SubjectKeyIdentifier).derived_keys(SecureConversation::V13))
    };
    let (_, _, reply) = doubled_on_the_wire(url.clone(), wss(), 2).await;
    assert!(
        reply.contains(":Offset>") && reply.contains(":Length>"),
        "CXF's DerivedKeyTokens carry an Offset and a Length: {reply}"
    );
    for (rewrite, reason) in [
        (
            short_derived_key as fn(&str) -> String,
            "a Length of 8 bytes (16 to 64 are accepted)",
        ),
        (offset_and_generation, "both Offset and Generation"),
    ] {
        let (r, wire) = double_it_via(
            &url,
            wss(),
            2,
            Arc::new(Recording::rewriting_responses(rewrite)),
        )
        .await;
        match r {
            Err(Error::Security(e)) => assert!(
                matches!(&*e, WssError::Malformed { path, reason: r }
                    if path.contains("/Security/DerivedKeyToken") && r == reason),
                "{e}"
            ),
            other => panic!("{other:?}\n{wire}"),
        }
    }
}

#[tokio::test]
async fn a_body_left_unsigned_is_refused_by_a_port_that_signs_it() {
    // SymmetricBinding::sign_body(false) (a policy without sp:SignedParts Body): the signature
    // covers the Timestamp only, which this port's policy does not accept.
    let url = x509_port("DoubleItKeyIdentifierPort");
    let wss = symmetric(binding(KeyReference::SubjectKeyIdentifier).sign_body(false));
    let reason = fault_reason(url, wss, 1).await;
    assert!(reason.contains("SignedParts"), "{reason}");
}

/// `DoubleItSymmetricEndorsingEncryptedPort` (derived keys, `sp:EncryptSignature`, an X.509
/// `sp:EndorsingEncryptedSupportingTokens` token sent to the recipient), configured by hand: the
/// client's certificate never travels in the clear (its BinarySecurityToken is an EncryptedData
/// the request key's ReferenceList names), CXF decrypts it before it checks the endorsing
/// signature, and refuses the same request with the token in the clear. A binding that encrypts
/// first, or no encryption at all, fails before anything is sent.
#[tokio::test]
async fn an_encrypted_endorsing_token_by_hand() {
    let url = x509_port("DoubleItSymmetricEndorsingEncryptedPort");
    let b = || {
        binding(KeyReference::ThumbprintSha1)
            .derived_keys(SecureConversation::V13)
            .encrypt_signature(true)
    };
    let endorsement = |encrypted: bool| {
        // Basic128: RSA-SHA1 and SHA-1 digests.
        let signer = X509Signer::new(credential("client"))
            .signature_algorithm(SignatureAlgorithm::RsaSha1)
            .digest(DigestAlgorithm::Sha1);
        Endorsement::new(signer).encrypted(encrypted)
    };
    let (value, request, _) =
        doubled_on_the_wire(url.clone(), symmetric(b()).endorse(endorsement(true)), 8).await;
    assert_eq!(value, 16);
    let certificate = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(credential("client").certificate().der())
    };
    assert!(!request.contains(&certificate[..64]), "{request}");
    let list = request
        .split("<xenc:ReferenceList")
        .nth(1)
        .expect("a ReferenceList");
    assert!(list.contains("URI=\"#EX509E1-"), "{request}");
    assert!(request.contains("Id=\"EX509E1-"), "{request}");
    // In the clear, CXF refuses it, naming the assertion.
    let reason = fault_reason(url.clone(), symmetric(b()).endorse(endorsement(false)), 1).await;
    assert!(
        reason.contains("EndorsingEncryptedSupportingTokens"),
        "{reason}"
    );
    // What cannot be sent is not.
    let first = symmetric(
        b().encrypt_signature(false)
            .order(EncryptionOrder::EncryptThenSign),
    )
    .endorse(endorsement(true));
    let plain = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")))
        .endorse(endorsement(true));
    for (wss, needs) in [(first, "SignThenEncrypt"), (plain, "request encryption")] {
        refused_before_sending(&url, wss, needs).await;
    }
}

/// An X.509 supporting token that does not endorse (`wss::X509SupportingToken`) asked to be
/// signed with no message signature, or encrypted with no request encryption or by a
/// SymmetricBinding that encrypts first, fails before anything is sent, naming what it needs.
/// (Sent, it round-trips against CXF in the policy matrix: `tests/wsdl/policy`.)
#[tokio::test]
async fn supporting_tokens_that_cannot_be_protected_are_not_sent() {
    let url = x509_port("DoubleItSymmetricEndorsingEncryptedPort");
    let token = || X509SupportingToken::new(cert("client.pem"));
    let timestamped = || WssConfig::new().timestamp(Duration::from_secs(300));
    for (wss, needs) in [
        (
            timestamped().support(token().signed(true)),
            "message signature",
        ),
        (
            timestamped().support(token().encrypted(true)),
            "request encryption",
        ),
        (
            symmetric(
                binding(KeyReference::ThumbprintSha1).order(EncryptionOrder::EncryptThenSign),
            )
            .support(token().encrypted(true)),
            "SignThenEncrypt",
        ),
    ] {
        refused_before_sending(&url, wss, needs).await;
    }
}

/// A call with `wss` that fails before anything is sent, its `Error::Encode` naming `needs`.
async fn refused_before_sending(url: &str, wss: WssConfig, needs: &str) {
    let recording = Arc::new(Recording::new());
    let (result, _) = double_it_via(url, wss, 1, recording.clone()).await;
    let e = result.expect_err("not sent");
    assert!(matches!(e, Error::Encode(_)), "{e:?}");
    assert!(e.to_string().contains(needs), "{e}");
    assert!(recording.exchanges().is_empty());
}
