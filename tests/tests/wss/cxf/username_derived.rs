//! UsernameTokens whose password derives the key of an endorsing signature (UsernameToken
//! Profile 1.1 §4; WS-SecurityPolicy 1.2 §8.3 with a `sp:UsernameToken`), against the CXF peer
//! of [`super`] on the ports of the corpus's `ut/DoubleItUtDerived.wsdl`:
//!
//! * `DoubleItTransportEndorsingPort`: over TLS, the token's key signs the Timestamp.
//! * `DoubleItSymmetricSignedEndorsingPort`: under a SymmetricBinding, the message signature
//!   covers the token and the token's key signs the message signature.
//!
//! CXF derives the key again from the password its callback knows (a non-ASCII one: UTF-8);
//! a token without the signature, or a key from another password, is refused.

use std::time::Duration;

use soapgen_runtime::wss::{
    DigestAlgorithm, KeyReference, SymmetricBinding, TrustStore, UsernameToken, WssConfig,
};
use soapgen_tests::wss::cert;

use super::{cxf, doubled_on_the_wire, fault_reason, USER};

fn transport(token: UsernameToken, endorses: bool) -> WssConfig {
    let cfg = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .username_token(token)
        .require_timestamp(true);
    if endorses {
        cfg.username_token_endorses(DigestAlgorithm::Sha1)
    } else {
        cfg
    }
}

#[tokio::test]
async fn over_tls_the_token_key_signs_the_timestamp() {
    let url = cxf().https_url("/DoubleItUtDerived/DoubleItTransportEndorsingPort");
    let wss = transport(UsernameToken::derived_key(USER.0, USER.1), true);
    let (value, _, _) = doubled_on_the_wire(url.clone(), wss, 4).await;
    assert_eq!(value, 8);
    // The token alone, no signature by its key: the endorsing token is not met.
    let alone = transport(UsernameToken::derived_key(USER.0, USER.1), false);
    let reason = fault_reason(url.clone(), alone, 1).await;
    assert!(reason.contains("EndorsingSupportingTokens"), "{reason}");
    // A key from another password.
    let wrong = transport(UsernameToken::derived_key(USER.0, "not the password"), true);
    let reason = fault_reason(url, wrong, 1).await;
    assert!(!reason.is_empty());
}

#[tokio::test]
async fn under_a_symmetric_binding_the_token_key_signs_the_message_signature() {
    let url = cxf().url("/DoubleItUtDerived/DoubleItSymmetricSignedEndorsingPort");
    let wss = |endorses: bool| {
        let cfg = WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .username_token(UsernameToken::derived_key(USER.0, USER.1))
            .symmetric(
                // AlwaysToRecipient: the service's certificate sent.
                SymmetricBinding::new(cert("server.pem"))
                    .key_reference(KeyReference::DirectReference)
                    .expect("the certificate")
                    .sign_username_token(true),
            )
            .trust(TrustStore::new().anchor(cert("ca.pem")));
        if endorses {
            cfg.username_token_endorses(DigestAlgorithm::Sha1)
        } else {
            cfg
        }
    };
    let (value, request, _) = doubled_on_the_wire(url.clone(), wss(true), 9).await;
    assert_eq!(value, 18);
    assert!(
        request.contains("<wsse11:Iteration>1000</wsse11:Iteration>")
            && request.contains("#UsernameToken\""),
        "{request}"
    );
    let reason = fault_reason(url, wss(false), 1).await;
    assert!(reason.contains("EndorsingSupportingTokens"), "{reason}");
}

#[tokio::test]
async fn an_encrypted_endorsing_token_comes_before_the_signatures_it_endorses() {
    // `DoubleItSymmetricEndorsingEncryptedPort`: the token is encrypted under the request key,
    // its EncryptedData after the list that names it and before the signatures, so that CXF
    // has it decrypted when it checks the endorsing signature that names it.
    let url = cxf().url("/DoubleItUtDerived/DoubleItSymmetricEndorsingEncryptedPort");
    let wss = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .username_token(UsernameToken::derived_key(USER.0, USER.1))
        .username_token_endorses(DigestAlgorithm::Sha1)
        .symmetric(
            SymmetricBinding::new(cert("server.pem"))
                .key_reference(KeyReference::DirectReference)
                .expect("the certificate")
                .encrypt_username_token(true),
        )
        .trust(TrustStore::new().anchor(cert("ca.pem")));
    let (value, request, _) = doubled_on_the_wire(url, wss, 12).await;
    assert_eq!(value, 24);
    let (token, signature) = (
        request
            .find("Id=\"EUT-")
            .expect("the token's EncryptedData"),
        request.find("<ds:Signature").expect("a signature"),
    );
    assert!(token < signature, "{request}");
    assert!(
        !request.contains("wsse11:Salt"),
        "the token travels encrypted: {request}"
    );
}
