//! Interpretation of WS-SecurityPolicy assertions: what each alternative demands, and what is
//! refused with its reason.

use std::sync::Arc;

use super::interpret::interpret;
use super::types::{
    Digest, Encryption, HeaderPart, Inclusion, KeyTransport, Layout, PasswordRequirement,
    ProtectionOrder, SecurityBinding, SupportingRole, TokenKind, X509TokenType,
};
use super::Interpretation;
use crate::read::components::{PolicyAttachments, QName};
use crate::read::document::DocCtx;
use crate::read::policy::attach;

/// The first alternative of the policy `body` (the content of a `wsp:Policy`), interpreted.
fn first(body: &str) -> Interpretation {
    all(body).remove(0)
}

/// Every alternative of the policy `body`, interpreted.
fn all(body: &str) -> Vec<Interpretation> {
    let text = format!(
        r##"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
             xmlns:wsp="http://www.w3.org/ns/ws-policy"
             xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702"
             xmlns:sp11="http://schemas.xmlsoap.org/ws/2005/07/securitypolicy"
             xmlns:sp13="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802"
             xmlns:tns="urn:t" targetNamespace="urn:t">
           <binding name="B" type="tns:P"><wsp:Policy>{body}</wsp:Policy></binding></definitions>"##
    );
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cx = DocCtx::new(Arc::from("t.wsdl"), &doc);
    let mut att = PolicyAttachments::default();
    attach::read(&cx, doc.root_element(), "urn:t", &[], &mut att).unwrap();
    att.bindings[&QName::new("urn:t", "B")]
        .alternatives
        .iter()
        .map(interpret)
        .collect()
}

const ASYMMETRIC: &str = r##"<sp:AsymmetricBinding><wsp:Policy>
  <sp:InitiatorToken><wsp:Policy>
    <sp:X509Token sp:IncludeToken="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702/IncludeToken/AlwaysToRecipient">
      <wsp:Policy><sp:WssX509V3Token10/><sp:RequireIssuerSerialReference/></wsp:Policy></sp:X509Token>
  </wsp:Policy></sp:InitiatorToken>
  <sp:RecipientToken><wsp:Policy>
    <sp:X509Token sp:IncludeToken="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702/IncludeToken/Never">
      <wsp:Policy><sp:WssX509V3Token10/><sp:RequireThumbprintReference/></wsp:Policy></sp:X509Token>
  </wsp:Policy></sp:RecipientToken>
  <sp:AlgorithmSuite><wsp:Policy><sp:Basic256Sha256Rsa15/></wsp:Policy></sp:AlgorithmSuite>
  <sp:Layout><wsp:Policy><sp:LaxTsLast/></wsp:Policy></sp:Layout>
  <sp:IncludeTimestamp/><sp:EncryptBeforeSigning/><sp:EncryptSignature/><sp:OnlySignEntireHeadersAndBody/>
</wsp:Policy></sp:AsymmetricBinding>"##;

#[test]
fn an_asymmetric_binding_is_read_whole() {
    let i = first(&format!(
        "{ASYMMETRIC}<sp:SignedParts><sp:Body/><sp:Header Namespace=\"urn:h\" Name=\"To\"/></sp:SignedParts>\
         <sp:EncryptedParts><sp:Body/></sp:EncryptedParts>\
         <sp:Wss11><wsp:Policy><sp:MustSupportRefThumbprint/><sp:RequireSignatureConfirmation/></wsp:Policy></sp:Wss11>"
    ));
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    let Some(SecurityBinding::Asymmetric {
        initiator_signature,
        recipient_encryption,
        properties,
        protection,
        ..
    }) = &i.policy.binding
    else {
        panic!("{:?}", i.policy.binding)
    };
    let (initiator_signature, recipient_encryption) = (
        initiator_signature.as_ref().unwrap(),
        recipient_encryption.as_ref().unwrap(),
    );
    assert_eq!(initiator_signature.inclusion, Inclusion::AlwaysToRecipient);
    assert!(matches!(
        initiator_signature.kind,
        TokenKind::X509 { token_type: X509TokenType::V3, references } if references.issuer_serial
    ));
    assert_eq!(recipient_encryption.inclusion, Inclusion::Never);
    assert!(matches!(
        recipient_encryption.kind,
        TokenKind::X509 { references, .. } if references.thumbprint
    ));
    assert_eq!(properties.suite.digest, Digest::Sha256);
    assert_eq!(properties.suite.encryption, Encryption::Aes256Cbc);
    assert_eq!(properties.suite.key_transport, KeyTransport::Rsa15);
    assert_eq!(properties.layout, Layout::LaxTsLast);
    assert!(properties.include_timestamp);
    assert_eq!(protection.order, ProtectionOrder::EncryptBeforeSigning);
    assert!(protection.encrypt_signature && protection.only_sign_entire_headers_and_body);
    assert!(i.policy.signed.body && i.policy.encrypted.body);
    assert_eq!(i.policy.signed.headers[0].name.as_deref(), Some("To"));
    let wss = i.policy.wss.unwrap();
    assert!(wss.wss11 && wss.require_signature_confirmation);
}

#[test]
fn a_transport_binding_with_supporting_username_tokens() {
    let i = first(
        r##"<sp:TransportBinding><wsp:Policy>
             <sp:TransportToken><wsp:Policy><sp:HttpsToken><wsp:Policy><sp:RequireClientCertificate/></wsp:Policy></sp:HttpsToken></wsp:Policy></sp:TransportToken>
             <sp:AlgorithmSuite><wsp:Policy><sp:Basic128/></wsp:Policy></sp:AlgorithmSuite>
             <sp:Layout><wsp:Policy><sp:Strict/></wsp:Policy></sp:Layout><sp:IncludeTimestamp/>
           </wsp:Policy></sp:TransportBinding>
           <sp:SignedSupportingTokens><wsp:Policy><sp:UsernameToken><wsp:Policy><sp:HashPassword/>
             <sp13:Created/><sp13:Nonce/><sp:WssUsernameToken11/></wsp:Policy></sp:UsernameToken></wsp:Policy></sp:SignedSupportingTokens>"##,
    );
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    let Some(SecurityBinding::Transport { token, properties }) = &i.policy.binding else {
        panic!("{:?}", i.policy.binding)
    };
    assert!(matches!(
        token.kind,
        TokenKind::Https {
            client_certificate: true,
            ..
        }
    ));
    assert_eq!(properties.layout, Layout::Strict);
    let s = &i.policy.supporting[0];
    assert_eq!(s.role, SupportingRole::Signed);
    assert_eq!(
        s.tokens[0].kind,
        TokenKind::Username {
            password: PasswordRequirement::Hash,
            created: true,
            nonce: true,
            profile11: true
        }
    );
}

#[test]
fn the_submission_namespace_reads_alike() {
    let i = first(
        r##"<sp11:TransportBinding><wsp:Policy>
             <sp11:TransportToken><wsp:Policy><sp11:HttpsToken RequireClientCertificate="false"/></wsp:Policy></sp11:TransportToken>
             <sp11:AlgorithmSuite><wsp:Policy><sp11:TripleDesRsa15/></wsp:Policy></sp11:AlgorithmSuite>
           </wsp:Policy></sp11:TransportBinding>"##,
    );
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    assert!(matches!(
        &i.policy.binding,
        Some(SecurityBinding::Transport { properties, .. })
            if properties.suite.encryption == Encryption::TripleDesCbc
    ));
}

#[test]
fn unsupported_tokens_and_unknown_assertions_are_refused_with_their_place() {
    let i = first(
        r##"<sp:SupportingTokens><wsp:Policy><sp:SamlToken/></wsp:Policy></sp:SupportingTokens>
           <x:Unknown xmlns:x="urn:unknown"/>"##,
    );
    let what: Vec<String> = i.refused.iter().map(|r| r.to_string()).collect();
    assert_eq!(i.refused.len(), 2, "{what:?}");
    assert!(what[0].starts_with("sp:SamlToken (t.wsdl:"), "{what:?}");
    assert!(what[0].contains("not supported by soapgen"), "{what:?}");
    assert!(what[1].starts_with("{urn:unknown}Unknown"), "{what:?}");
    assert!(what[1].contains("does not know"), "{what:?}");
}

#[test]
fn optional_and_ignorable_assertions_not_understood_are_left_out() {
    let alternatives = all(
        r##"<x:Maybe xmlns:x="urn:x" wsp:Optional="true"/><x:Skip xmlns:x="urn:x" wsp:Ignorable="true"/>"##,
    );
    assert_eq!(alternatives.len(), 2);
    for a in &alternatives {
        assert!(a.refused.is_empty(), "{:?}", a.refused);
    }
    assert_eq!(alternatives[0].ignored.len(), 2);
    assert_eq!(alternatives[1].ignored.len(), 1);
}

#[test]
fn xpaths_of_the_supported_subset_and_others() {
    let i = first(
        r##"<sp:SignedElements><sp:XPath xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:d="urn:d">/s:Envelope/s:Body/d:Op</sp:XPath>
             <sp:XPath xmlns:d="urn:d">//d:Op/numberToDouble</sp:XPath></sp:SignedElements>
           <sp:EncryptedElements><sp:XPath>//a[1]</sp:XPath><sp:XPath>//u:a</sp:XPath></sp:EncryptedElements>"##,
    );
    let e = &i.policy.signed.elements;
    assert_eq!(e.len(), 2);
    assert_eq!(e[0].steps.len(), 3);
    assert!(!e[0].steps[0].descendant);
    assert_eq!(e[0].steps[2].name, QName::new("urn:d", "Op"));
    assert!(e[1].steps[0].descendant && !e[1].steps[1].descendant);
    assert_eq!(e[1].steps[1].name, QName::new("", "numberToDouble"));
    let why: Vec<String> = i.refused.iter().map(|r| r.reason.clone()).collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(why[0].contains("not an element name"), "{why:?}");
    assert!(why[1].contains("prefix \"u\" is not declared"), "{why:?}");
}

#[test]
fn xpaths_to_the_body_or_a_header_block_name_those_parts() {
    let i = first(
        r##"<sp:SignedElements><sp:XPath xmlns:s="http://www.w3.org/2003/05/soap-envelope">/s:Envelope/s:Body</sp:XPath>
             <sp:XPath xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:h="urn:h">/s:Envelope/s:Header/h:Session</sp:XPath></sp:SignedElements>
           <sp:ContentEncryptedElements><sp:XPath xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">/s:Envelope/s:Body</sp:XPath></sp:ContentEncryptedElements>
           <sp:EncryptedElements><sp:XPath xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:h="urn:h">/s:Envelope/s:Header/h:Session</sp:XPath>
             <sp:XPath xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">/s:Envelope/s:Body</sp:XPath></sp:EncryptedElements>
           <sp:RequiredElements><sp:XPath xmlns:s="http://schemas.xmlsoap.org/soap/envelope/" xmlns:h="urn:h">/s:Envelope/s:Header/h:Session</sp:XPath>
             <sp:XPath xmlns:h="urn:h">//h:Session</sp:XPath></sp:RequiredElements>"##,
    );
    assert!(i.refused.is_empty(), "{:?}", i.refused);
    let session = HeaderPart {
        namespace: "urn:h".to_owned(),
        name: Some("Session".to_owned()),
    };
    let p = &i.policy;
    assert!(p.signed.body && p.signed.headers == [session.clone()] && p.signed.elements.is_empty());
    assert!(p.encrypted.body && p.content_encrypted.is_empty());
    assert_eq!(p.encrypted.headers, std::slice::from_ref(&session));
    // Encrypting the Body element itself is not what sp:EncryptedParts names: kept as XPath.
    assert_eq!(p.encrypted.elements.len(), 1);
    assert_eq!(p.required_headers, [session]);
    // A descendant step may match anywhere: kept as XPath.
    assert_eq!(p.required_elements.len(), 1);
}

#[test]
fn cxfs_mgf1_sha256_suites_are_applied_with_their_oaep_digests() {
    for (suite, transport) in [
        ("Basic256GCMMGFSHA256", KeyTransport::RsaOaepMgf1Sha256),
        (
            "Basic256GCMMGFSHA256Digest",
            KeyTransport::RsaOaepSha256Mgf1Sha256,
        ),
    ] {
        let i = first(&format!(
            r##"<sp:AsymmetricBinding><wsp:Policy>
             <sp:InitiatorToken><wsp:Policy><sp:X509Token/></wsp:Policy></sp:InitiatorToken>
             <sp:RecipientToken><wsp:Policy><sp:X509Token/></wsp:Policy></sp:RecipientToken>
             <sp:AlgorithmSuite><wsp:Policy><c:{suite} xmlns:c="http://cxf.apache.org/custom/security-policy"/></wsp:Policy></sp:AlgorithmSuite>
           </wsp:Policy></sp:AsymmetricBinding>"##
        ));
        assert!(i.refused.is_empty(), "understood: {:?}", i.refused);
        let missing = super::runtime::unenforceable(&i.policy);
        assert!(missing.is_empty(), "{suite}: {missing:?}");
        let Some(SecurityBinding::Asymmetric { properties, .. }) = &i.policy.binding else {
            panic!("{suite}: {:?}", i.policy.binding);
        };
        assert_eq!(properties.suite.key_transport, transport, "{suite}");
    }
}

#[test]
fn embedded_token_references_are_refused_not_ignored() {
    let embedded = ASYMMETRIC.replace(
        "<sp:RequireIssuerSerialReference/>",
        "<sp:RequireEmbeddedTokenReference/>",
    );
    let i = first(&embedded);
    let what: Vec<String> = i.refused.iter().map(|r| r.to_string()).collect();
    assert_eq!(what.len(), 1, "{what:?}");
    assert!(
        what[0].starts_with("sp:RequireEmbeddedTokenReference (t.wsdl:"),
        "{what:?}"
    );
    assert!(what[0].contains("WSS 1.1 §7.4"), "{what:?}");
    // Optional, it is left out with a warning.
    let optional = ASYMMETRIC.replace(
        "<sp:RequireIssuerSerialReference/>",
        "<sp:RequireEmbeddedTokenReference wsp:Optional=\"true\"/>",
    );
    assert!(all(&optional).iter().all(|a| a.refused.is_empty()));
}
