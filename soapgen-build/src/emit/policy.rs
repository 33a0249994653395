//! Each secured port's WS-SecurityPolicy as static data of the generated client
//! (`{Trait}Client::PORT_POLICIES`, the runtime's `policy::PortPolicy`): per operation, the
//! alternative of the request's and of the response's effective policy that soapgen enforces.
//! Ports whose security is configured by hand, or whose policy soapgen refuses, have none.

use proc_macro2::TokenStream;
use quote::quote;

use super::{ident, Emitter};
use crate::model::ir::ClientDecl;
use crate::model::security::types::{
    AlgorithmSuite, AsymmetricSignature, AttachmentCoverage, Digest, Encryption,
    HttpAuthentication, Inclusion, KeyTransport, Layout, MessagePolicy, PasswordRequirement,
    PortSecurity, ProtectedParts, ProtectionOrder, SecurityBinding, SupportingRole,
    SupportingTokens, Token, TokenKind, X509TokenType,
};

impl Emitter<'_> {
    /// `PORT_POLICIES` and `port_policy` of `c`'s client, when a port of it is secured; kept by
    /// the runtime's `__if_wss!` (its `policy` module needs the `wss` feature).
    pub(super) fn port_policies(&self, c: &ClientDecl) -> TokenStream {
        let rt = &self.rt;
        let ports: Vec<TokenStream> = c
            .ports
            .iter()
            .filter_map(|p| {
                let sec = p.security.as_ref()?;
                let policy = self.port_policy(&p.port, &p.binding.local, sec)?;
                let client_addressed = c.addressing.iter().any(|(v, _)| *v == p.version);
                Some(if client_addressed && !p.addressed {
                    quote!(#policy.unaddressed())
                } else {
                    policy
                })
            })
            .collect();
        if ports.is_empty() {
            return TokenStream::new();
        }
        let manual: Vec<&str> = c
            .ports
            .iter()
            .filter(|p| p.security.as_ref().is_some_and(|s| s.manual))
            .map(|p| p.port.as_str())
            .collect();
        let client = ident(&format!("{}Client", c.name));
        let doc = format!(
            " The WS-SecurityPolicy of each secured port of `{}` (WS-SecurityPolicy 1.2, \
             attached as WS-Policy 1.5 Attachment §4.1 says): give one, with the credentials \
             `soapgen inspect` lists, to `ClientBuilder::security_policy` (runtime feature \
             `wss`).",
            c.name
        );
        quote! {
            #rt::__if_wss! {
                impl #client {
                    #[doc = #doc]
                    pub const PORT_POLICIES: &'static [#rt::policy::PortPolicy] = &[#(#ports),*];

                    /// The WS-SecurityPolicy of the port named `port`.
                    ///
                    /// # Errors
                    ///
                    /// `UnknownPort`, listing the secured ports, for a port with no policy here
                    /// (saying so for a port whose security is configured by hand).
                    pub fn port_policy(port: &str) -> ::core::result::Result<&'static #rt::policy::PortPolicy, #rt::policy::UnknownPort> {
                        #rt::policy::PortPolicy::find_among(Self::PORT_POLICIES, &[#(#manual),*], port)
                    }
                }
            }
        }
    }

    fn port_policy(&self, port: &str, binding: &str, sec: &PortSecurity) -> Option<TokenStream> {
        if sec.manual {
            return None;
        }
        let rt = &self.rt;
        let mut ops = Vec::new();
        for op in &sec.operations {
            let request = if op.input.is_unsecured() {
                quote!(#rt::policy::MessagePolicy::NONE)
            } else {
                self.message(op.input.chosen()?)
            };
            let response = if op.output.is_unsecured() {
                quote!(#rt::policy::MessagePolicy::NONE)
            } else {
                self.message(op.output.chosen()?)
            };
            let name = &op.wsdl_name;
            ops.push(quote!(#rt::policy::OperationPolicy::new(#name, #request, #response)));
        }
        Some(quote!(#rt::policy::PortPolicy::new(#port, #binding, &[#(#ops),*])))
    }

    /// One message's policy as runtime constructors (the subset `model::security::runtime`
    /// lets through).
    fn message(&self, p: &MessagePolicy) -> TokenStream {
        let rt = &self.rt;
        let binding = self.binding(p);
        let mut m = quote!(#rt::policy::MessagePolicy::new(#binding));
        m.extend(self.supporting(p));
        if !p.signed.is_empty() {
            let parts = self.parts(&p.signed);
            m.extend(quote!(.signed(#parts)));
        }
        if !p.encrypted.is_empty() {
            let parts = self.parts(&p.encrypted);
            m.extend(quote!(.encrypted(#parts)));
        }
        if p.wss.is_some_and(|w| w.require_signature_confirmation) {
            m.extend(quote!(.signature_confirmation()));
        }
        let required: Vec<TokenStream> = p
            .required_headers
            .iter()
            .map(|h| header(&h.namespace, h.name.as_deref()))
            .collect();
        if !required.is_empty() {
            m.extend(quote!(.required_headers(&[#(#required),*])));
        }
        for (method, xs) in [
            (quote!(required_elements), &p.required_elements),
            (quote!(signed_elements), &p.signed.elements),
            (quote!(encrypted_elements), &p.encrypted.elements),
        ] {
            if xs.is_empty() {
                continue;
            }
            let paths = xs.iter().map(|x| {
                let expression = &x.expression;
                let steps = x.steps.iter().map(|s| {
                    let (descendant, ns, name) = (s.descendant, &s.name.ns, &s.name.local);
                    quote!(#rt::policy::XPathStep { descendant: #descendant, namespace: #ns, name: #name })
                });
                quote!(#rt::policy::XPath { expression: #expression, steps: &[#(#steps),*] })
            });
            m.extend(quote!(.#method(&[#(#paths),*])));
        }
        m
    }

    /// The message's security binding, as an `Option<Binding>` expression.
    fn binding(&self, p: &MessagePolicy) -> TokenStream {
        let rt = &self.rt;
        match &p.binding {
            Some(SecurityBinding::Transport {
                token, properties, ..
            }) => {
                let mut b = quote!(#rt::policy::TransportBinding::new());
                if let TokenKind::Https {
                    client_certificate,
                    http_authentication,
                } = &token.kind
                {
                    if *client_certificate {
                        b.extend(quote!(.client_certificate()));
                    }
                    match http_authentication {
                        Some(HttpAuthentication::Basic) => b.extend(
                            quote!(.http_authentication(#rt::policy::HttpAuthentication::Basic)),
                        ),
                        Some(HttpAuthentication::Digest) => b.extend(
                            quote!(.http_authentication(#rt::policy::HttpAuthentication::Digest)),
                        ),
                        None => {}
                    }
                }
                if properties.include_timestamp {
                    b.extend(quote!(.timestamp()));
                }
                let suite = self.suite(&properties.suite);
                b.extend(quote!(.suite(#suite)));
                let layout = self.layout(properties.layout);
                b.extend(quote!(.layout(#layout)));
                quote!(::core::option::Option::Some(#rt::policy::Binding::Transport(#b)))
            }
            Some(SecurityBinding::Asymmetric {
                initiator_signature,
                recipient_signature,
                recipient_encryption,
                properties,
                protection,
                ..
            }) => {
                let suite = self.suite(&properties.suite);
                let mut b = quote!(#rt::policy::AsymmetricBinding::new(#suite));
                if let Some(t) = initiator_signature {
                    let t = self.x509(t);
                    b.extend(quote!(.initiator_signature(#t)));
                }
                if let Some(t) = recipient_signature {
                    let t = self.x509(t);
                    b.extend(quote!(.recipient_signature(#t)));
                }
                if let Some(t) = recipient_encryption {
                    let t = self.x509(t);
                    b.extend(quote!(.recipient_encryption(#t)));
                }
                if properties.include_timestamp {
                    b.extend(quote!(.timestamp()));
                }
                if protection.order == ProtectionOrder::EncryptBeforeSigning {
                    b.extend(quote!(.encrypt_before_signing()));
                }
                if protection.encrypt_signature {
                    b.extend(quote!(.encrypt_signature()));
                }
                if protection.protect_tokens {
                    b.extend(quote!(.protect_tokens()));
                }
                let layout = self.layout(properties.layout);
                b.extend(quote!(.layout(#layout)));
                quote!(::core::option::Option::Some(#rt::policy::Binding::Asymmetric(#b)))
            }
            Some(SecurityBinding::Symmetric {
                signature,
                properties,
                protection,
                ..
            }) => {
                let suite = self.suite(&properties.suite);
                let mut b = match &signature.kind {
                    // A security context as the protection token (§5.4.7), keys derived from it
                    // when its sp:RequireDerivedKeys says so.
                    TokenKind::SecureConversation { .. } => {
                        let sc = self.context(signature);
                        let derived = signature.derived_keys;
                        quote!(#rt::policy::SymmetricBinding::secure_conversation(#sc, #derived, #suite))
                    }
                    _ => {
                        let token = self.x509(signature);
                        quote!(#rt::policy::SymmetricBinding::new(#token, #suite))
                    }
                };
                if properties.include_timestamp {
                    b.extend(quote!(.timestamp()));
                }
                if protection.order == ProtectionOrder::EncryptBeforeSigning {
                    b.extend(quote!(.encrypt_before_signing()));
                }
                if protection.protect_tokens {
                    b.extend(quote!(.protect_tokens()));
                }
                if protection.encrypt_signature {
                    b.extend(quote!(.encrypt_signature()));
                }
                let layout = self.layout(properties.layout);
                b.extend(quote!(.layout(#layout)));
                quote!(::core::option::Option::Some(#rt::policy::Binding::Symmetric(#b)))
            }
            None => quote!(::core::option::Option::None),
        }
    }

    /// The setters of the message's supporting tokens: a UsernameToken, an endorsing token.
    fn supporting(&self, p: &MessagePolicy) -> TokenStream {
        let rt = &self.rt;
        let mut m = TokenStream::new();
        for s in &p.supporting {
            for t in &s.tokens {
                match &t.kind {
                    TokenKind::Username {
                        password,
                        created,
                        nonce,
                        ..
                    } => {
                        let mut u = match password {
                            PasswordRequirement::Hash => {
                                quote!(#rt::policy::UsernameTokenPolicy::digest())
                            }
                            PasswordRequirement::None => {
                                quote!(#rt::policy::UsernameTokenPolicy::no_password())
                            }
                            _ => quote!(#rt::policy::UsernameTokenPolicy::text()),
                        };
                        if *created || *nonce {
                            u.extend(quote!(.nonce()));
                        }
                        // Over TLS the transport protects it: signed and encrypted by the
                        // message's own protection only under a message-level binding.
                        let asymmetric =
                            matches!(p.binding, Some(SecurityBinding::Asymmetric { .. }));
                        let symmetric =
                            matches!(p.binding, Some(SecurityBinding::Symmetric { .. }));
                        let (signed, encrypted) = match s.role {
                            SupportingRole::Signed | SupportingRole::SignedEndorsing => {
                                (true, false)
                            }
                            SupportingRole::SignedEncrypted
                            | SupportingRole::SignedEndorsingEncrypted => (true, true),
                            SupportingRole::Encrypted | SupportingRole::EndorsingEncrypted => {
                                (false, true)
                            }
                            _ => (false, false),
                        };
                        // An endorsing token signs with the key its password derives.
                        if s.role.endorses() {
                            u.extend(quote!(.endorses()));
                        }
                        if (asymmetric || symmetric) && signed {
                            u.extend(quote!(.signed()));
                        }
                        if (asymmetric || symmetric) && encrypted {
                            u.extend(quote!(.encrypted()));
                        }
                        m.extend(quote!(.username_token(#u)));
                    }
                    TokenKind::X509 { .. } if s.role.endorses() => {
                        let t = self.x509(t);
                        let mut e = quote!(#rt::policy::EndorsingToken::new(#t));
                        if matches!(
                            s.role,
                            SupportingRole::SignedEndorsing
                                | SupportingRole::SignedEndorsingEncrypted
                        ) {
                            e.extend(quote!(.signed()));
                        }
                        // Over TLS an encrypted endorsing token is encrypted by the transport.
                        let message_security = matches!(
                            p.binding,
                            Some(
                                SecurityBinding::Asymmetric { .. }
                                    | SecurityBinding::Symmetric { .. }
                            )
                        );
                        if message_security
                            && matches!(
                                s.role,
                                SupportingRole::EndorsingEncrypted
                                    | SupportingRole::SignedEndorsingEncrypted
                            )
                        {
                            e.extend(quote!(.encrypted()));
                        }
                        if s.signed.body {
                            e.extend(quote!(.covers_body()));
                        }
                        e.extend(signed_headers(s));
                        m.extend(quote!(.endorsing(#e)));
                    }
                    // One that does not endorse: the client's certificate, signed and encrypted
                    // by a message-security binding as its role says (over TLS, by TLS).
                    TokenKind::X509 { .. } => {
                        let t = self.x509(t);
                        let mut x = quote!(#rt::policy::SupportingX509Token::new(#t));
                        let (signed, encrypted) = match s.role {
                            SupportingRole::Signed => (true, false),
                            SupportingRole::SignedEncrypted => (true, true),
                            SupportingRole::Encrypted => (false, true),
                            _ => (false, false),
                        };
                        if signed {
                            x.extend(quote!(.signed()));
                        }
                        if encrypted {
                            x.extend(quote!(.encrypted()));
                        }
                        m.extend(quote!(.supporting_x509(#x)));
                    }
                    // A security context endorsing the request over TLS, requested as its
                    // bootstrap policy says (that policy governs the token request and its
                    // response alike).
                    TokenKind::SecureConversation { .. } => {
                        let mut sc = self.context(t);
                        sc.extend(signed_headers(s));
                        m.extend(quote!(.secure_conversation(#sc)));
                    }
                    _ => {}
                }
            }
        }
        m
    }

    fn parts(&self, p: &ProtectedParts) -> TokenStream {
        let rt = &self.rt;
        let body = p.body;
        let headers = p
            .headers
            .iter()
            .map(|h| header(&h.namespace, h.name.as_deref()));
        let parts = quote!(#rt::policy::Parts::new(#body, &[#(#headers),*]));
        match p.attachments {
            None => parts,
            Some(AttachmentCoverage::Content) => {
                quote!(#parts.attachments(#rt::wss::AttachmentCoverage::Content))
            }
            Some(AttachmentCoverage::Complete) => {
                quote!(#parts.attachments(#rt::wss::AttachmentCoverage::Complete))
            }
        }
    }

    /// The runtime's `SecureConversationPolicy` of the context token `t`: its version (February
    /// 2005 for a WS-SecurityPolicy 1.1 token), its bootstrap policy (which governs the token
    /// request and its response alike), `sp:MustNotSendCancel`. Nothing for another token.
    fn context(&self, t: &Token) -> TokenStream {
        let rt = &self.rt;
        let TokenKind::SecureConversation {
            bootstrap,
            no_cancel,
        } = &t.kind
        else {
            return TokenStream::new();
        };
        let version = if t.sp11 {
            quote!(#rt::wss::SecureConversation::V2005)
        } else {
            quote!(#rt::wss::SecureConversation::V13)
        };
        let b = self.message(bootstrap);
        let mut sc = quote!(#rt::policy::SecureConversationPolicy::new(
            #version,
            &#rt::policy::OperationPolicy::new("RequestSecurityToken", #b, #b)
        ));
        if *no_cancel {
            sc.extend(quote!(.no_cancel()));
        }
        sc
    }

    fn x509(&self, t: &Token) -> TokenStream {
        let rt = &self.rt;
        let TokenKind::X509 {
            token_type,
            references,
        } = &t.kind
        else {
            return TokenStream::new();
        };
        let ty = match token_type {
            X509TokenType::PkiPath => quote!(#rt::policy::X509TokenType::PkiPath),
            _ => quote!(#rt::policy::X509TokenType::V3),
        };
        let inclusion = match t.inclusion {
            Inclusion::Never => quote!(Never),
            Inclusion::Once => quote!(Once),
            Inclusion::AlwaysToRecipient => quote!(AlwaysToRecipient),
            Inclusion::AlwaysToInitiator => quote!(AlwaysToInitiator),
            Inclusion::Always => quote!(Always),
        };
        let mut out = quote!(#rt::policy::X509Token::new(#ty, #rt::policy::Inclusion::#inclusion));
        if references.issuer_serial {
            out.extend(quote!(.issuer_serial()));
        }
        if references.thumbprint {
            out.extend(quote!(.thumbprint()));
        }
        if references.key_identifier {
            out.extend(quote!(.key_identifier()));
        }
        if t.derived_keys {
            let v = if t.sp11 { quote!(V2005) } else { quote!(V13) };
            out.extend(quote!(.derived_keys(#rt::wss::SecureConversation::#v)));
        }
        out
    }

    fn layout(&self, l: Layout) -> TokenStream {
        let rt = &self.rt;
        let l = match l {
            Layout::Strict => quote!(Strict),
            Layout::Lax => quote!(Lax),
            Layout::LaxTsFirst => quote!(LaxTsFirst),
            Layout::LaxTsLast => quote!(LaxTsLast),
        };
        quote!(#rt::wss::Layout::#l)
    }

    fn suite(&self, s: &AlgorithmSuite) -> TokenStream {
        let rt = &self.rt;
        let name = &s.name;
        let digest = match s.digest {
            Digest::Sha1 => quote!(Sha1),
            Digest::Sha256 => quote!(Sha256),
            Digest::Sha512 => quote!(Sha512),
        };
        let enc = match s.encryption {
            Encryption::Aes128Cbc => quote!(Aes128Cbc),
            Encryption::Aes192Cbc => quote!(Aes192Cbc),
            Encryption::Aes256Cbc => quote!(Aes256Cbc),
            Encryption::TripleDesCbc => quote!(TripleDesCbc),
            Encryption::Aes128Gcm => quote!(Aes128Gcm),
            Encryption::Aes192Gcm => quote!(Aes192Gcm),
            _ => quote!(Aes256Gcm),
        };
        let kt = match s.key_transport {
            KeyTransport::Rsa15 => quote!(Rsa15),
            KeyTransport::RsaOaep => quote!(RsaOaepMgf1Sha1),
            KeyTransport::RsaOaepMgf1Sha256 => quote!(RsaOaepMgf1Sha256),
            KeyTransport::RsaOaepSha256Mgf1Sha256 => quote!(RsaOaepSha256Mgf1Sha256),
        };
        let sig = match s.asymmetric_signature {
            AsymmetricSignature::RsaSha1 => quote!(RsaSha1),
            AsymmetricSignature::RsaSha512 => quote!(RsaSha512),
        };
        quote!(#rt::policy::Suite::new(
            #name,
            #rt::wss::DigestAlgorithm::#digest,
            #rt::wss::BlockEncryption::#enc,
            #rt::wss::KeyTransport::#kt,
            #rt::wss::SignatureAlgorithm::#sig
        ))
    }
}

/// A header block as the runtime's policy names it: `(namespace, local name)`, the name empty
/// for every block of the namespace (`sp:Header` without `Name`, WS-SecurityPolicy 1.2 §5.1.1).
fn header(namespace: &str, name: Option<&str>) -> TokenStream {
    let name = name.unwrap_or("");
    quote!((#namespace, #name))
}

/// `.headers(&[…])` of the header blocks a supporting token's own `sp:SignedParts` names, if any.
fn signed_headers(s: &SupportingTokens) -> TokenStream {
    let headers: Vec<TokenStream> = s
        .signed
        .headers
        .iter()
        .map(|h| header(&h.namespace, h.name.as_deref()))
        .collect();
    if headers.is_empty() {
        TokenStream::new()
    } else {
        quote!(.headers(&[#(#headers),*]))
    }
}
