//! What a WS-SecurityPolicy 1.2 demands of one port's messages, as generated code describes it:
//! static data built with `const` constructors (§ numbers are SP 1.2's). Only what the runtime
//! can produce and check is here; soapgen-build refuses the rest when it generates the client.

use super::tokens::{
    EndorsingToken, SecureConversationPolicy, SupportingX509Token, UsernameTokenPolicy,
};
use crate::wss::{
    AttachmentCoverage, BlockEncryption, DigestAlgorithm, KeyTransport, Layout, SecureConversation,
    SignatureAlgorithm,
};

/// When a token is put in the message (§5.1.1 `sp:IncludeToken`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Inclusion {
    /// Never sent: referenced by issuer/serial, thumbprint or key identifier.
    Never,
    /// Sent in the first message only.
    Once,
    /// Sent in the requests.
    AlwaysToRecipient,
    /// Sent in the responses.
    AlwaysToInitiator,
    /// Sent in every message.
    Always,
}

impl Inclusion {
    /// Whether a request carries the token.
    pub const fn in_requests(self) -> bool {
        matches!(
            self,
            Inclusion::Always | Inclusion::AlwaysToRecipient | Inclusion::Once
        )
    }
}

/// The X.509 token profile of a token (§5.4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum X509TokenType {
    /// One X.509 v3 certificate (`WssX509V3Token10/11`, or no profile named).
    V3,
    /// A PkiPath certificate chain (`WssX509PkiPathV1Token10/11`).
    PkiPath,
}

/// An `sp:X509Token` (§5.4.3): its profile, inclusion and the reference styles it requires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct X509Token {
    /// The profile.
    pub token_type: X509TokenType,
    /// When it is sent.
    pub inclusion: Inclusion,
    /// `sp:RequireIssuerSerialReference`.
    pub issuer_serial: bool,
    /// `sp:RequireThumbprintReference`.
    pub thumbprint: bool,
    /// `sp:RequireKeyIdentifierReference`.
    pub key_identifier: bool,
    /// `sp:RequireDerivedKeys`: keys derived from this token's, as `wsc:DerivedKeyToken`s of this
    /// WS-SecureConversation version (a symmetric binding's protection token).
    pub derived_keys: Option<SecureConversation>,
}

impl X509Token {
    /// A token of `token_type` included as `inclusion`, no reference style required.
    pub const fn new(token_type: X509TokenType, inclusion: Inclusion) -> Self {
        X509Token {
            token_type,
            inclusion,
            issuer_serial: false,
            thumbprint: false,
            key_identifier: false,
            derived_keys: None,
        }
    }

    /// Requires references by issuer name and serial number.
    pub const fn issuer_serial(mut self) -> Self {
        self.issuer_serial = true;
        self
    }

    /// Requires references by SHA-1 thumbprint.
    pub const fn thumbprint(mut self) -> Self {
        self.thumbprint = true;
        self
    }

    /// Requires references by SubjectKeyIdentifier.
    pub const fn key_identifier(mut self) -> Self {
        self.key_identifier = true;
        self
    }

    /// Requires keys derived from the token's (WS-SecureConversation `version`).
    pub const fn derived_keys(mut self, version: SecureConversation) -> Self {
        self.derived_keys = Some(version);
        self
    }
}

/// An algorithm suite (§6.1) with the runtime's algorithms for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Suite {
    /// Its name as the policy writes it (`Basic128`, `Basic256Sha256Rsa15`…).
    pub name: &'static str,
    /// `[Dig]`.
    pub digest: DigestAlgorithm,
    /// `[Enc]`.
    pub encryption: BlockEncryption,
    /// `[Asym KW]`.
    pub key_transport: KeyTransport,
    /// `[AsymSig]`.
    pub signature: SignatureAlgorithm,
}

impl Suite {
    /// The suite `name` with these algorithms.
    pub const fn new(
        name: &'static str,
        digest: DigestAlgorithm,
        encryption: BlockEncryption,
        key_transport: KeyTransport,
        signature: SignatureAlgorithm,
    ) -> Self {
        Suite {
            name,
            digest,
            encryption,
            key_transport,
            signature,
        }
    }
}

/// HTTP authentication an `sp:HttpsToken` requires (§5.4.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpAuthentication {
    /// `sp:HttpBasicAuthentication`.
    Basic,
    /// `sp:HttpDigestAuthentication`.
    Digest,
}

/// `sp:TransportBinding` (§7.3) over HTTPS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct TransportBinding {
    /// `sp:RequireClientCertificate`.
    pub client_certificate: bool,
    /// HTTP authentication required, if any.
    pub http_authentication: Option<HttpAuthentication>,
    /// `sp:IncludeTimestamp`.
    pub timestamp: bool,
    /// The algorithm suite of the signatures endorsing supporting tokens make.
    pub suite: Option<Suite>,
    /// `sp:Layout`.
    pub layout: Layout,
}

impl TransportBinding {
    /// HTTPS, nothing more.
    pub const fn new() -> Self {
        TransportBinding {
            client_certificate: false,
            http_authentication: None,
            timestamp: false,
            suite: None,
            layout: Layout::Lax,
        }
    }

    /// The Security header's layout.
    pub const fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }

    /// The algorithm suite of endorsing signatures.
    pub const fn suite(mut self, suite: Suite) -> Self {
        self.suite = Some(suite);
        self
    }

    /// Requires a TLS client certificate.
    pub const fn client_certificate(mut self) -> Self {
        self.client_certificate = true;
        self
    }

    /// Requires HTTP authentication.
    pub const fn http_authentication(mut self, auth: HttpAuthentication) -> Self {
        self.http_authentication = Some(auth);
        self
    }

    /// Requires a Timestamp.
    pub const fn timestamp(mut self) -> Self {
        self.timestamp = true;
        self
    }
}

impl Default for TransportBinding {
    fn default() -> Self {
        Self::new()
    }
}

/// `sp:AsymmetricBinding` (§7.5): each side signs with its own key and encrypts to the
/// other's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct AsymmetricBinding {
    /// The token the client signs with.
    pub initiator_signature: Option<X509Token>,
    /// The token the service signs with.
    pub recipient_signature: Option<X509Token>,
    /// The token requests are encrypted for (the service's certificate).
    pub recipient_encryption: Option<X509Token>,
    /// The algorithm suite.
    pub suite: Suite,
    /// `sp:IncludeTimestamp`.
    pub timestamp: bool,
    /// `sp:EncryptBeforeSigning`.
    pub encrypt_before_signing: bool,
    /// `sp:EncryptSignature`.
    pub encrypt_signature: bool,
    /// `sp:ProtectTokens`.
    pub protect_tokens: bool,
    /// `sp:Layout`.
    pub layout: Layout,
}

impl AsymmetricBinding {
    /// A binding of `suite` with no token yet.
    pub const fn new(suite: Suite) -> Self {
        AsymmetricBinding {
            initiator_signature: None,
            recipient_signature: None,
            recipient_encryption: None,
            suite,
            timestamp: false,
            encrypt_before_signing: false,
            encrypt_signature: false,
            protect_tokens: false,
            layout: Layout::Lax,
        }
    }

    /// The client signs with `token`.
    pub const fn initiator_signature(mut self, token: X509Token) -> Self {
        self.initiator_signature = Some(token);
        self
    }

    /// The service signs with `token`.
    pub const fn recipient_signature(mut self, token: X509Token) -> Self {
        self.recipient_signature = Some(token);
        self
    }

    /// Requests are encrypted for `token`.
    pub const fn recipient_encryption(mut self, token: X509Token) -> Self {
        self.recipient_encryption = Some(token);
        self
    }

    /// Requires a Timestamp.
    pub const fn timestamp(mut self) -> Self {
        self.timestamp = true;
        self
    }

    /// Encrypts before signing.
    pub const fn encrypt_before_signing(mut self) -> Self {
        self.encrypt_before_signing = true;
        self
    }

    /// Encrypts the signature.
    pub const fn encrypt_signature(mut self) -> Self {
        self.encrypt_signature = true;
        self
    }

    /// The signature covers its own token.
    pub const fn protect_tokens(mut self) -> Self {
        self.protect_tokens = true;
        self
    }

    /// The Security header's layout.
    pub const fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }
}

/// `sp:SymmetricBinding` (§7.4) with an X.509 protection token: a key the client makes for each
/// request, wrapped for the service's certificate, signs (HMAC-SHA1) and encrypts both ways; or
/// with a WS-SecureConversation context as its protection token
/// ([`secure_conversation`](Self::secure_conversation)): the context's key does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct SymmetricBinding {
    /// The protection token: the service's certificate (with a context, only its
    /// `derived_keys` counts: `sp:RequireDerivedKeys` of the SecureConversationToken).
    pub protection: X509Token,
    /// The protection token is this security context (§5.4.7), not the certificate.
    pub context: Option<super::tokens::SecureConversationPolicy>,
    /// The algorithm suite.
    pub suite: Suite,
    /// `sp:IncludeTimestamp`.
    pub timestamp: bool,
    /// `sp:EncryptBeforeSigning`.
    pub encrypt_before_signing: bool,
    /// `sp:ProtectTokens`.
    pub protect_tokens: bool,
    /// `sp:EncryptSignature`: the signature is encrypted under the request's key.
    pub encrypt_signature: bool,
    /// `sp:Layout`.
    pub layout: Layout,
}

impl SymmetricBinding {
    /// A binding protected by `protection`, of `suite`.
    pub const fn new(protection: X509Token, suite: Suite) -> Self {
        SymmetricBinding {
            protection,
            context: None,
            suite,
            timestamp: false,
            encrypt_before_signing: false,
            protect_tokens: false,
            encrypt_signature: false,
            layout: Layout::Lax,
        }
    }

    /// A binding whose protection token is the security context `token` (§5.4.7; with keys
    /// derived from it when `derived_keys`), of `suite`.
    pub const fn secure_conversation(
        token: super::tokens::SecureConversationPolicy,
        derived_keys: bool,
        suite: Suite,
    ) -> Self {
        let mut protection = X509Token::new(X509TokenType::V3, Inclusion::AlwaysToRecipient);
        if derived_keys {
            protection = protection.derived_keys(token.version);
        }
        SymmetricBinding {
            context: Some(token),
            ..SymmetricBinding::new(protection, suite)
        }
    }

    /// The signature is encrypted (`sp:EncryptSignature`).
    pub const fn encrypt_signature(mut self) -> Self {
        self.encrypt_signature = true;
        self
    }

    /// Requires a Timestamp.
    pub const fn timestamp(mut self) -> Self {
        self.timestamp = true;
        self
    }

    /// Encrypts before signing.
    pub const fn encrypt_before_signing(mut self) -> Self {
        self.encrypt_before_signing = true;
        self
    }

    /// The signature covers the protection token.
    pub const fn protect_tokens(mut self) -> Self {
        self.protect_tokens = true;
        self
    }

    /// The Security header's layout.
    pub const fn layout(mut self, layout: Layout) -> Self {
        self.layout = layout;
        self
    }
}

/// A security binding (§7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Binding {
    /// `sp:TransportBinding`.
    Transport(TransportBinding),
    /// `sp:AsymmetricBinding`.
    Asymmetric(AsymmetricBinding),
    /// `sp:SymmetricBinding`.
    Symmetric(SymmetricBinding),
}

/// What a message must have signed or encrypted (§4.1.1, §4.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Parts {
    /// `sp:Body`.
    pub body: bool,
    /// `sp:Header`s: (namespace, local name), the name empty for every block of the namespace
    /// (an `sp:Header` without `Name`, WS-SecurityPolicy 1.2 §5.1.1).
    pub headers: &'static [(&'static str, &'static str)],
    /// `sp:Attachments` (WS-SecurityPolicy 1.2 §4.1.1, §4.2.1; SP 1.3's signature transforms):
    /// every SwA attachment, covered as it says (WSS SwA Profile 1.1).
    pub attachments: Option<AttachmentCoverage>,
}

impl Parts {
    /// Nothing.
    pub const NONE: Parts = Parts {
        body: false,
        headers: &[],
        attachments: None,
    };

    /// The Body and `headers`.
    pub const fn new(body: bool, headers: &'static [(&'static str, &'static str)]) -> Self {
        Parts {
            body,
            headers,
            attachments: None,
        }
    }

    /// Also every SwA attachment, covered as `coverage` says (`sp:Attachments`).
    pub const fn attachments(mut self, coverage: AttachmentCoverage) -> Self {
        self.attachments = Some(coverage);
        self
    }

    /// Whether nothing is demanded.
    pub const fn is_empty(&self) -> bool {
        !self.body && self.headers.is_empty() && self.attachments.is_none()
    }
}

/// One step of an [`XPath`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XPathStep {
    /// `//`: any descendant of the context, not only a child.
    pub descendant: bool,
    /// The element's namespace (`""`: none).
    pub namespace: &'static str,
    /// Its local name.
    pub name: &'static str,
}

/// An `sp:XPath` of the subset soapgen evaluates (WS-SecurityPolicy 1.2 §4.1.2): steps of
/// element names, the first from the document (a child step names the root element).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XPath {
    /// As the policy wrote it.
    pub expression: &'static str,
    /// Its steps.
    pub steps: &'static [XPathStep],
}

impl XPath {
    /// The runtime's path for it ([`crate::wss::ElementPath`]).
    pub fn to_element_path(&self) -> crate::wss::ElementPath {
        crate::wss::ElementPath::new(
            self.expression,
            self.steps
                .iter()
                .map(|s| {
                    if s.descendant {
                        crate::wss::PathStep::descendant(s.namespace, s.name)
                    } else {
                        crate::wss::PathStep::child(s.namespace, s.name)
                    }
                })
                .collect(),
        )
    }
}

/// What one message (a request or a response) of an operation must be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct MessagePolicy {
    /// The security binding, if any.
    pub binding: Option<Binding>,
    /// A UsernameToken (`sp:SupportingTokens`, or `sp:SignedSupportingTokens` under a transport
    /// binding, where TLS protects it).
    pub username_token: Option<UsernameTokenPolicy>,
    /// An X.509 endorsing supporting token (`sp:EndorsingSupportingTokens`,
    /// `sp:SignedEndorsingSupportingTokens`): under a transport binding, the client signs the
    /// Timestamp and Body with that key; under an asymmetric binding, it signs the message
    /// signature (§8.3, §8.4).
    pub endorsing: Option<EndorsingToken>,
    /// An X.509 supporting token that does not endorse (§8.1–§8.2, §8.5–§8.6).
    pub supporting_x509: Option<SupportingX509Token>,
    /// A WS-SecureConversation context endorsing the message over TLS (§5.4.7).
    pub secure_conversation: Option<SecureConversationPolicy>,
    /// `sp:SignedParts`.
    pub signed: Parts,
    /// `sp:EncryptedParts`.
    pub encrypted: Parts,
    /// `sp:Wss11/sp:RequireSignatureConfirmation`.
    pub signature_confirmation: bool,
    /// `sp:RequiredParts`: header blocks the message must carry (namespace, local name; an empty
    /// name asks for a block of the namespace, whichever its name).
    pub required_headers: &'static [(&'static str, &'static str)],
    /// `sp:RequiredElements`: elements the message must have.
    pub required_elements: &'static [XPath],
    /// `sp:SignedElements`: elements signed when the message has them (besides the parts).
    pub signed_elements: &'static [XPath],
    /// `sp:EncryptedElements`: elements encrypted when the message has them.
    pub encrypted_elements: &'static [XPath],
}

impl MessagePolicy {
    /// A message with no security.
    pub const NONE: MessagePolicy = MessagePolicy {
        binding: None,
        username_token: None,
        endorsing: None,
        supporting_x509: None,
        secure_conversation: None,
        signed: Parts::NONE,
        encrypted: Parts::NONE,
        signature_confirmation: false,
        required_headers: &[],
        required_elements: &[],
        signed_elements: &[],
        encrypted_elements: &[],
    };

    /// A message protected by `binding`.
    pub const fn new(binding: Option<Binding>) -> Self {
        MessagePolicy {
            binding,
            ..Self::NONE
        }
    }

    /// With a UsernameToken.
    pub const fn username_token(mut self, token: UsernameTokenPolicy) -> Self {
        self.username_token = Some(token);
        self
    }

    /// Requiring these header blocks (namespace, local name) present (`sp:RequiredParts`).
    pub const fn required_headers(
        mut self,
        headers: &'static [(&'static str, &'static str)],
    ) -> Self {
        self.required_headers = headers;
        self
    }

    /// Requiring these elements present (`sp:RequiredElements`).
    pub const fn required_elements(mut self, elements: &'static [XPath]) -> Self {
        self.required_elements = elements;
        self
    }

    /// Signing these elements when the message has them (`sp:SignedElements`).
    pub const fn signed_elements(mut self, elements: &'static [XPath]) -> Self {
        self.signed_elements = elements;
        self
    }

    /// Encrypting these elements when the message has them (`sp:EncryptedElements`).
    pub const fn encrypted_elements(mut self, elements: &'static [XPath]) -> Self {
        self.encrypted_elements = elements;
        self
    }

    /// With an X.509 endorsing supporting token.
    pub const fn endorsing(mut self, token: EndorsingToken) -> Self {
        self.endorsing = Some(token);
        self
    }

    /// With an X.509 supporting token that does not endorse.
    pub const fn supporting_x509(mut self, token: SupportingX509Token) -> Self {
        self.supporting_x509 = Some(token);
        self
    }

    /// Endorsed by a WS-SecureConversation context.
    pub const fn secure_conversation(mut self, token: SecureConversationPolicy) -> Self {
        self.secure_conversation = Some(token);
        self
    }

    /// Signing `parts`.
    pub const fn signed(mut self, parts: Parts) -> Self {
        self.signed = parts;
        self
    }

    /// Encrypting `parts`.
    pub const fn encrypted(mut self, parts: Parts) -> Self {
        self.encrypted = parts;
        self
    }

    /// With signatures confirmed (WSS 1.1 §8.5).
    pub const fn signature_confirmation(mut self) -> Self {
        self.signature_confirmation = true;
        self
    }

    /// Whether the message needs no security.
    pub const fn is_empty(&self) -> bool {
        self.binding.is_none()
            && self.username_token.is_none()
            && self.endorsing.is_none()
            && self.supporting_x509.is_none()
            && self.secure_conversation.is_none()
            && self.signed.is_empty()
            && self.encrypted.is_empty()
            && self.required_headers.is_empty()
            && self.required_elements.is_empty()
            && self.signed_elements.is_empty()
            && self.encrypted_elements.is_empty()
    }
}

/// What one operation's request and response must be at a port.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct OperationPolicy {
    /// The WSDL operation name.
    pub operation: &'static str,
    /// Its request.
    pub request: MessagePolicy,
    /// Its response.
    pub response: MessagePolicy,
}

impl OperationPolicy {
    /// The policy of `operation`.
    pub const fn new(
        operation: &'static str,
        request: MessagePolicy,
        response: MessagePolicy,
    ) -> Self {
        OperationPolicy {
            operation,
            request,
            response,
        }
    }
}

/// The WS-SecurityPolicy of one port (WSDL 1.1 §2.7): what each operation's messages must be.
/// Generated clients have one per secured port (`…Client::PORT_POLICIES`); give it to
/// [`ClientBuilder::security_policy`](crate::ClientBuilder::security_policy) with the
/// [`Credentials`](super::Credentials) it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct PortPolicy {
    /// The port's name.
    pub port: &'static str,
    /// Its binding's local name.
    pub binding: &'static str,
    /// Each operation's policy.
    pub operations: &'static [OperationPolicy],
    /// The port is not addressed although other ports of its client are: the client addresses
    /// no call at it (WS-Addressing Metadata §3.1).
    pub unaddressed: bool,
}

impl PortPolicy {
    /// The policy of `port` (binding `binding`).
    pub const fn new(
        port: &'static str,
        binding: &'static str,
        operations: &'static [OperationPolicy],
    ) -> Self {
        PortPolicy {
            port,
            binding,
            operations,
            unaddressed: false,
        }
    }

    /// The port is not addressed (its client is, for its other ports).
    pub const fn unaddressed(mut self) -> Self {
        self.unaddressed = true;
        self
    }

    /// The policy of the operation named `name`.
    pub fn operation(&self, name: &str) -> Option<&'static OperationPolicy> {
        self.operations.iter().find(|o| o.operation == name)
    }
}
