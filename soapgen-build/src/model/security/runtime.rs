//! What soapgen's runtime can produce and check of an understood policy (its `policy` module):
//! the rest of an alternative is refused at generation, each with the assertion and why.
//!
//! Applied: the transport binding over HTTPS; the asymmetric binding with X.509 v3 tokens (a
//! PkiPath signing token too), EncryptSignature, ProtectTokens, every layout; the symmetric
//! binding with an X.509 protection token, derived keys, ProtectTokens, EncryptSignature when
//! signing first; UsernameTokens, with or without password (signed and encrypted ones in an
//! asymmetric binding, signed ones in a symmetric binding); X.509 endorsing tokens over TLS
//! (encrypted ones too) and in an asymmetric or symmetric binding; Body and named header parts
//! (also as XPaths to them); required headers and elements; signature confirmation.

use super::types::{
    AlgorithmSuite, Layout, MessagePolicy, ProtectionOrder, Refusal, SecurityBinding,
    SupportingRole, Token, TokenKind, X509TokenType,
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

    /// A refusal that is no gap of the runtime: the policy does not say enough.
    fn add_as_is(&mut self, assertion: &str, loc: &Loc, why: &str) {
        self.0.push(Refusal {
            assertion: QName::new(SP12, assertion),
            reason: why.to_owned(),
            loc: loc.clone(),
        });
    }
}

/// A message applies one UsernameToken, one endorsing X.509 token and one X.509 token that does
/// not endorse: a second of a kind is refused at it, never dropped.
fn repeated(r: &mut Refusals, policy: &MessagePolicy) {
    let mut seen = [false; 4];
    for s in &policy.supporting {
        for t in &s.tokens {
            let (kind, what) = match (&t.kind, s.role.endorses()) {
                (TokenKind::Username { .. }, _) => (0, "a second UsernameToken in one message"),
                (TokenKind::X509 { .. }, true) => {
                    (1, "a second endorsing X.509 token in one message")
                }
                (TokenKind::X509 { .. }, false) => {
                    (2, "a second X.509 supporting token in one message")
                }
                (TokenKind::SecureConversation { .. }, _) => {
                    (3, "a second SecureConversationToken in one message")
                }
                _ => continue,
            };
            if std::mem::replace(&mut seen[kind], true) {
                r.add(s.role.local_name(), &t.loc, what);
            }
        }
    }
}

/// Which binding an alternative has, for the rules that depend on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Transport,
    Asymmetric,
    Symmetric,
    None,
}

/// What the runtime cannot produce or check of `policy`, although soapgen understands it.
pub fn unenforceable(policy: &MessagePolicy) -> Vec<Refusal> {
    let mut r = Refusals(Vec::new());
    let (kind, at) = binding(&mut r, policy);
    repeated(&mut r, policy);
    for s in &policy.supporting {
        for t in &s.tokens {
            supporting(&mut r, policy, kind, s.role, t);
        }
        if let Some(loc) = s.tokens.first().map(|t| t.loc.clone()) {
            let endorsed_headers = !s.signed.headers.is_empty() && kind != Kind::Transport;
            if !s.signed.elements.is_empty()
                || s.signed.attachments.is_some()
                || !s.encrypted.is_empty()
                || endorsed_headers
            {
                r.add(
                    s.role.local_name(),
                    &loc,
                    "parts a supporting token protects beyond the Body (XPath, attachments, \
                     encryption, headers outside a transport binding)",
                );
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
    parts(&mut r, policy, kind);
    if kind == Kind::None {
        let protected = !policy.signed.is_empty() || !policy.encrypted.is_empty();
        let roles = policy
            .supporting
            .iter()
            .any(|s| s.role != SupportingRole::Supporting);
        if protected || roles {
            r.add_as_is(
                "SignedParts",
                &loc,
                "parts or tokens to protect, but no security binding in the WSDL says with which \
                 keys (WS-SecurityPolicy 1.2 §7; the service configures its binding elsewhere): \
                 configure this port's security by hand",
            );
        }
    }
    r.0
}

/// The binding's own refusals; its kind and where its first token is.
fn binding(r: &mut Refusals, policy: &MessagePolicy) -> (Kind, Option<Loc>) {
    match &policy.binding {
        Some(SecurityBinding::Transport { token, .. }) => {
            (Kind::Transport, Some(token.loc.clone()))
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
                return (Kind::Asymmetric, None);
            };
            for (i, t) in tokens.into_iter().enumerate() {
                if let Some(t) = t {
                    if !matches!(t.kind, TokenKind::X509 { .. }) {
                        r.add(
                            "AsymmetricBinding",
                            &t.loc,
                            "a binding token other than X.509",
                        );
                    }
                    // A PkiPath is sent by the client's signature, read in the service's; the
                    // client's own encryption token is never sent (its key decrypts).
                    x509(r, t, i != 3, false);
                }
            }
            suite(r, &properties.suite, &first.loc);
            let ut_encrypted = policy.supporting.iter().any(|s| {
                matches!(
                    s.role,
                    SupportingRole::Encrypted | SupportingRole::SignedEncrypted
                ) && s
                    .tokens
                    .iter()
                    .any(|t| matches!(t.kind, TokenKind::Username { .. }))
            });
            if protection.encrypt_signature
                && protection.order == ProtectionOrder::EncryptBeforeSigning
                && ut_encrypted
            {
                r.add(
                    "EncryptSignature",
                    &first.loc,
                    "an encrypted signature over an encrypted Body with an encrypted UsernameToken",
                );
            }
            (Kind::Asymmetric, Some(first.loc.clone()))
        }
        Some(SecurityBinding::Symmetric {
            signature,
            encryption,
            properties,
            protection,
        }) => {
            if signature != encryption {
                r.add(
                    "SignatureToken",
                    &signature.loc,
                    "separate signature and encryption tokens",
                );
            }
            match signature.kind {
                TokenKind::X509 { .. } => {}
                // A security context (WCF's wsHttpBinding), its keys derived or not.
                TokenKind::SecureConversation { .. } => {}
                _ => r.add(
                    "ProtectionToken",
                    &signature.loc,
                    "a symmetric binding protected by other than an X.509 token",
                ),
            }
            x509(r, signature, false, true);
            suite(r, &properties.suite, &signature.loc);
            if properties.layout == Layout::LaxTsLast {
                r.add(
                    "LaxTsLast",
                    &signature.loc,
                    "the Timestamp last with a symmetric binding",
                );
            }
            // A UsernameToken signed or endorsing and encrypted: written before the signature,
            // after the ReferenceList that names it, which encrypting first puts after it.
            let ut_signed_and_encrypted = policy.supporting.iter().any(|s| {
                matches!(
                    s.role,
                    SupportingRole::SignedEncrypted
                        | SupportingRole::EndorsingEncrypted
                        | SupportingRole::SignedEndorsingEncrypted
                ) && s
                    .tokens
                    .iter()
                    .any(|t| matches!(t.kind, TokenKind::Username { .. }))
            });
            if ut_signed_and_encrypted && protection.order == ProtectionOrder::EncryptBeforeSigning
            {
                r.add(
                    "EncryptBeforeSigning",
                    &signature.loc,
                    "a UsernameToken signed or endorsing and encrypted with a symmetric binding \
                     that encrypts first",
                );
            }
            // Encrypted once signed, under the request key, the endorsing signatures too.
            if protection.encrypt_signature
                && protection.order == ProtectionOrder::EncryptBeforeSigning
            {
                r.add(
                    "EncryptSignature",
                    &signature.loc,
                    "an encrypted signature with a symmetric binding that encrypts first",
                );
            }
            (Kind::Symmetric, Some(signature.loc.clone()))
        }
        None => (Kind::None, None),
    }
}

/// A supporting token's refusals.
fn supporting(
    r: &mut Refusals,
    policy: &MessagePolicy,
    kind: Kind,
    role: SupportingRole,
    t: &Token,
) {
    use SupportingRole::*;
    match &t.kind {
        TokenKind::Username { .. } => {
            let protected = !matches!(role, Supporting);
            // Its password derives the key of its endorsing signature (UsernameToken Profile
            // 1.1 §4): over TLS, or over a SymmetricBinding's signature (there, not encrypted).
            let endorsing_ok = matches!(kind, Kind::Transport | Kind::Symmetric);
            // Under a SymmetricBinding, signed, encrypted or both by the request key (signing
            // first: encrypting first is refused with the binding's order).
            let symmetric = kind == Kind::Symmetric;
            if (role.endorses() && !endorsing_ok)
                || (protected && !symmetric && !matches!(kind, Kind::Transport | Kind::Asymmetric))
            {
                r.add(
                    role.local_name(),
                    &t.loc,
                    "a UsernameToken in this role with this binding",
                );
            }
        }
        TokenKind::X509 { .. } => {
            let endorsing = role.endorses();
            // One that does not endorse carries the client's certificate (X509v3) alone.
            if kind == Kind::None {
                r.add(
                    role.local_name(),
                    &t.loc,
                    "X.509 supporting tokens with no security binding",
                );
            }
            // Encrypted under the request's key (over TLS, by the transport): after the
            // EncryptedKey, decrypted before the endorsing signature is checked, which signing
            // first allows. An AsymmetricBinding has such a key only when it encrypts a part or
            // an element.
            let encrypted = matches!(
                role,
                Encrypted | SignedEncrypted | EndorsingEncrypted | SignedEndorsingEncrypted
            );
            let (encrypts_first, has_key) = match &policy.binding {
                Some(SecurityBinding::Asymmetric { protection, .. }) => (
                    protection.order == ProtectionOrder::EncryptBeforeSigning,
                    !policy.encrypted.is_empty(),
                ),
                Some(SecurityBinding::Symmetric { protection, .. }) => (
                    protection.order == ProtectionOrder::EncryptBeforeSigning,
                    true,
                ),
                _ => (false, true),
            };
            if encrypted && encrypts_first {
                r.add(
                    role.local_name(),
                    &t.loc,
                    "an encrypted X.509 supporting token with a binding that encrypts first",
                );
            } else if encrypted && !has_key {
                r.add(
                    role.local_name(),
                    &t.loc,
                    "an encrypted X.509 supporting token under an AsymmetricBinding that \
                     encrypts nothing else",
                );
            }
            // An endorsing key pair signs with its private key under a message-security
            // binding: no key derives from it, so RequireDerivedKeys asks nothing more there
            // (what CXF and WCF send). Over TLS, CXF would wrap a key for it and derive from
            // that instead.
            let derived_ok = endorsing && matches!(kind, Kind::Asymmetric | Kind::Symmetric);
            x509(r, t, endorsing, derived_ok);
        }
        // A context endorses the request over TLS (signing the Timestamp with its key).
        TokenKind::SecureConversation { .. } => {
            if !role.endorses() || kind != Kind::Transport {
                r.add(
                    role.local_name(),
                    &t.loc,
                    "a SecureConversationToken other than endorsing over TLS (as a protection \
                     token, or with a message-security binding)",
                );
            }
            if t.derived_keys {
                r.add(
                    "RequireDerivedKeys",
                    &t.loc,
                    "keys derived from a security context",
                );
            }
            if matches!(
                role,
                SignedEndorsing | EndorsingEncrypted | SignedEndorsingEncrypted
            ) && kind != Kind::Transport
            {
                r.add(role.local_name(), &t.loc, "a signed or encrypted context");
            }
        }
        _ => r.add(role.local_name(), &t.loc, "this supporting token"),
    }
}

/// Parts the runtime cannot protect or check.
fn parts(r: &mut Refusals, policy: &MessagePolicy, kind: Kind) {
    // Elements by XPath: signed by a message-security binding's signature, encrypted under the
    // request's key once signed.
    let encrypts_first = matches!(
        &policy.binding,
        Some(
            SecurityBinding::Symmetric { protection, .. }
                | SecurityBinding::Asymmetric { protection, .. }
        ) if protection.order == ProtectionOrder::EncryptBeforeSigning
    );
    for (what, p) in [
        ("SignedParts", &policy.signed),
        ("EncryptedParts", &policy.encrypted),
    ] {
        let (element, first) = if what == "SignedParts" {
            ("SignedElements", false)
        } else {
            ("EncryptedElements", encrypts_first)
        };
        for x in &p.elements {
            if !matches!(kind, Kind::Symmetric | Kind::Asymmetric) {
                r.add(
                    element,
                    &x.loc,
                    "parts named by XPath without a message-security binding",
                );
            } else if first {
                r.add(
                    element,
                    &x.loc,
                    "parts named by XPath encrypted before signing",
                );
            }
        }
    }
    for x in &policy.content_encrypted {
        r.add("ContentEncryptedElements", &x.loc, "parts named by XPath");
    }
}

/// An X.509 token's refusals: a PkiPath where it cannot be one, v1 tokens, derived keys
/// outside a symmetric binding's protection token.
fn x509(r: &mut Refusals, t: &Token, pki_path_ok: bool, derived_ok: bool) {
    if let TokenKind::X509 { token_type, .. } = &t.kind {
        match token_type {
            X509TokenType::PkiPath if !pki_path_ok => {
                r.add("WssX509PkiPathV1Token11", &t.loc, "a PkiPath token here")
            }
            X509TokenType::V1 => r.add("WssX509V1Token11", &t.loc, "X.509 v1 tokens"),
            _ => {}
        }
    }
    if t.derived_keys && !derived_ok {
        r.add(
            "RequireDerivedKeys",
            &t.loc,
            "derived keys from a token other than a symmetric binding's protection token",
        );
    }
}

fn suite(r: &mut Refusals, s: &AlgorithmSuite, loc: &Loc) {
    if s.str_transform {
        r.add("STRTransform10", loc, "the STR-Transform");
    }
    if s.inclusive_c14n {
        r.add("InclusiveC14N", loc, "signatures with inclusive C14N");
    }
}
