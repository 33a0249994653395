//! What soapgen's runtime can produce and check of an understood policy (its `policy` module:
//! the transport binding over HTTPS, the asymmetric binding with X.509 v3 tokens, UsernameTokens,
//! X.509 endorsing tokens over TLS, Body and header parts, signature confirmation): the rest of
//! an alternative is refused at generation, each with the assertion and why.

use super::types::{
    AlgorithmSuite, Digest, Encryption, KeyTransport, Layout, MessagePolicy, PasswordRequirement,
    Refusal, SecurityBinding, SupportingRole, Token, TokenKind, X509TokenType,
};
use crate::error::Loc;
use crate::read::components::QName;

use super::interpret::SP12;

/// Collects refusals of one alternative, each at the assertion it is about.
struct Refusals(Vec<Refusal>);

impl Refusals {
    fn add(&mut self, assertion: &str, loc: &Loc, why: &str) {
        self.0.push(Refusal {
            assertion: QName::new(SP12, assertion),
            reason: format!("{why}: not in soapgen's runtime yet"),
            loc: loc.clone(),
        });
    }
}

/// What the runtime cannot produce or check of `policy`, although soapgen understands it.
pub fn unenforceable(policy: &MessagePolicy) -> Vec<Refusal> {
    let mut r = Refusals(Vec::new());
    let transport = matches!(policy.binding, Some(SecurityBinding::Transport { .. }));
    let mut at: Option<Loc> = None;
    match &policy.binding {
        Some(SecurityBinding::Transport {
            token, properties, ..
        }) => {
            at = Some(token.loc.clone());
            if properties.layout == Layout::LaxTsLast {
                r.add(
                    "LaxTsLast",
                    &token.loc,
                    "the Timestamp last in the Security header",
                );
            }
        }
        Some(SecurityBinding::Asymmetric {
            initiator_signature,
            initiator_encryption,
            recipient_signature,
            recipient_encryption,
            properties,
            protection,
        }) => {
            let tokens = [
                initiator_signature,
                initiator_encryption,
                recipient_signature,
                recipient_encryption,
            ];
            let Some(first) = tokens.iter().copied().flatten().next() else {
                return r.0;
            };
            at = Some(first.loc.clone());
            for t in tokens.into_iter().flatten() {
                x509(&mut r, t);
            }
            suite(&mut r, &properties.suite, &first.loc);
            if properties.layout == Layout::LaxTsLast {
                r.add(
                    "LaxTsLast",
                    &first.loc,
                    "the Timestamp last in the Security header",
                );
            }
            if protection.encrypt_signature {
                r.add("EncryptSignature", &first.loc, "an encrypted signature");
            }
            if protection.protect_tokens {
                r.add(
                    "ProtectTokens",
                    &first.loc,
                    "a signature over its own token",
                );
            }
        }
        Some(SecurityBinding::Symmetric { signature, .. }) => {
            r.add(
                "SymmetricBinding",
                &signature.loc,
                "symmetric keys and HMAC signatures",
            );
            return r.0;
        }
        None => {}
    }
    for s in &policy.supporting {
        for t in &s.tokens {
            match &t.kind {
                TokenKind::Username { password, .. } => {
                    if *password == PasswordRequirement::None {
                        r.add("NoPassword", &t.loc, "a UsernameToken without password");
                    }
                    let plain = matches!(s.role, SupportingRole::Supporting);
                    if !transport && !plain {
                        r.add(
                            s.role.local_name(),
                            &t.loc,
                            "a signed or encrypted UsernameToken",
                        );
                    }
                }
                TokenKind::X509 { .. } => {
                    let endorsing = matches!(
                        s.role,
                        SupportingRole::Endorsing | SupportingRole::SignedEndorsing
                    );
                    if !transport || !endorsing {
                        r.add(
                            s.role.local_name(),
                            &t.loc,
                            "X.509 supporting tokens other than an endorsing one over TLS",
                        );
                    }
                    x509(&mut r, t);
                }
                _ => r.add(s.role.local_name(), &t.loc, "this supporting token"),
            }
        }
    }
    let loc = at.unwrap_or_else(|| {
        policy
            .supporting
            .iter()
            .flat_map(|s| &s.tokens)
            .map(|t| t.loc.clone())
            .next()
            .unwrap_or_else(|| Loc {
                file: "".into(),
                line: 0,
                column: 0,
            })
    });
    for (what, p) in [
        ("SignedParts", &policy.signed),
        ("EncryptedParts", &policy.encrypted),
    ] {
        if p.attachments {
            r.add(what, &loc, "protected attachments");
        }
        if p.headers.iter().any(|h| h.name.is_none()) {
            r.add(what, &loc, "every header of a namespace");
        }
        for x in &p.elements {
            r.add(
                if what == "SignedParts" {
                    "SignedElements"
                } else {
                    "EncryptedElements"
                },
                &x.loc,
                "parts named by XPath",
            );
        }
    }
    for x in &policy.content_encrypted {
        r.add("ContentEncryptedElements", &x.loc, "parts named by XPath");
    }
    for x in &policy.required_elements {
        r.add("RequiredElements", &x.loc, "parts named by XPath");
    }
    if !policy.required_headers.is_empty() {
        r.add("RequiredParts", &loc, "checking that headers are present");
    }
    r.0
}

fn x509(r: &mut Refusals, t: &Token) {
    if let TokenKind::X509 { token_type, .. } = &t.kind {
        match token_type {
            X509TokenType::PkiPath => r.add("WssX509PkiPathV1Token11", &t.loc, "PkiPath tokens"),
            X509TokenType::V1 => r.add("WssX509V1Token11", &t.loc, "X.509 v1 tokens"),
            _ => {}
        }
    }
    if t.derived_keys {
        r.add("RequireDerivedKeys", &t.loc, "derived keys");
    }
}

fn suite(r: &mut Refusals, s: &AlgorithmSuite, loc: &Loc) {
    let name = s.name.as_str();
    if s.encryption == Encryption::Aes192Gcm {
        r.add(name, loc, "AES-192-GCM");
    }
    if s.key_transport == KeyTransport::RsaOaepMgf1Sha256 {
        r.add(name, loc, "RSA-OAEP with MGF1-SHA-256");
    }
    if s.digest == Digest::Sha512 {
        r.add(name, loc, "SHA-512 digests");
    }
    if s.str_transform {
        r.add("STRTransform10", loc, "the STR-Transform");
    }
    if s.inclusive_c14n {
        r.add("InclusiveC14N", loc, "signatures with inclusive C14N");
    }
}
