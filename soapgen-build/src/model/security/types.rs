//! The security a message's effective policy demands, typed: the assertions of WS-SecurityPolicy
//! 1.2 (OASIS Standard 2007, namespace `…/ws-sx/ws-securitypolicy/200702`; SP 1.1 of 2005/07 and
//! SP 1.3 of 2008/02 read alike), one [`MessagePolicy`] per policy alternative. Section numbers
//! are SP 1.2's.

use std::fmt;

use crate::error::Loc;
use crate::read::components::QName;

/// Which WS-SecurityPolicy namespace an assertion was written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpVersion {
    /// `http://schemas.xmlsoap.org/ws/2005/07/securitypolicy` (SP 1.1, the submission).
    Sp11,
    /// `http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702` (SP 1.2).
    Sp12,
    /// `http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802` (SP 1.3 additions).
    Sp13,
}

/// When a token is put in the message (§5.1.1 `sp:IncludeToken`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Inclusion {
    /// Never included: referenced by an external reference (key identifier, issuer/serial…).
    Never,
    /// Included once, in the first message of an exchange.
    Once,
    /// Included in messages to the recipient (the service): the requests.
    AlwaysToRecipient,
    /// Included in messages to the initiator (the client): the responses.
    AlwaysToInitiator,
    /// Included in every message.
    Always,
}

impl Inclusion {
    /// Whether a request must carry the token.
    pub fn in_requests(self) -> bool {
        matches!(
            self,
            Inclusion::Always | Inclusion::AlwaysToRecipient | Inclusion::Once
        )
    }

    /// Whether a response carries the token.
    pub fn in_responses(self) -> bool {
        matches!(self, Inclusion::Always | Inclusion::AlwaysToInitiator)
    }
}

/// The X.509 token profile a token follows (§5.4.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum X509TokenType {
    /// `WssX509V3Token10` / `WssX509V3Token11`: one X.509 v3 certificate.
    V3,
    /// `WssX509V1Token11`: an X.509 v1 certificate.
    V1,
    /// `WssX509Pkcs7Token10` / `…11`: a PKCS#7 certificate bundle.
    Pkcs7,
    /// `WssX509PkiPathV1Token10` / `…11`: a PkiPath certificate chain.
    PkiPath,
    /// No profile named: any of them (the sender's choice, v3 by convention).
    Unspecified,
}

/// How a token may or must be referenced (§5.4.3 `sp:Require…Reference`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct KeyReferences {
    /// `RequireKeyIdentifierReference`: by SubjectKeyIdentifier.
    pub key_identifier: bool,
    /// `RequireIssuerSerialReference`: by issuer name and serial number.
    pub issuer_serial: bool,
    /// `RequireEmbeddedTokenReference`: the token embedded in the reference.
    pub embedded: bool,
    /// `RequireThumbprintReference`: by the SHA-1 thumbprint.
    pub thumbprint: bool,
}

/// A password requirement of a UsernameToken (§5.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PasswordRequirement {
    /// A password in clear text (the default).
    Text,
    /// `sp:HashPassword`: a password digest (UsernameToken Profile 1.0 §3.1).
    Hash,
    /// `sp:NoPassword`: no password.
    None,
}

/// What kind of token an assertion names (§5.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// `sp:X509Token` (§5.4.3).
    X509 {
        /// The token profile.
        token_type: X509TokenType,
        /// The reference styles required.
        references: KeyReferences,
    },
    /// `sp:UsernameToken` (§5.4.1).
    Username {
        /// The password requirement.
        password: PasswordRequirement,
        /// SP 1.3 `sp13:Created`: a Created element is required.
        created: bool,
        /// SP 1.3 `sp13:Nonce`: a Nonce element is required.
        nonce: bool,
        /// `WssUsernameToken11` rather than `…10` (or none).
        profile11: bool,
    },
    /// `sp:HttpsToken` (§5.4.10): TLS from the transport.
    Https {
        /// `sp:RequireClientCertificate`: mutual TLS.
        client_certificate: bool,
        /// `sp:HttpBasicAuthentication` / `sp:HttpDigestAuthentication`, if one is required.
        http_authentication: Option<HttpAuthentication>,
    },
    /// `sp:KeyValueToken` (§5.4.11): a bare RSA key.
    KeyValue,
    /// `sp:SecureConversationToken` (§5.4.7): a WS-SecureConversation security context the
    /// service issues itself, requested as its `sp:BootstrapPolicy` says.
    SecureConversation {
        /// What the token request (and its response) must be: the bootstrap policy's one
        /// alternative soapgen enforces.
        bootstrap: Box<MessagePolicy>,
        /// `sp:MustNotSendCancel`: the context is left to expire.
        no_cancel: bool,
    },
}

/// HTTP authentication an HttpsToken requires (§5.4.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum HttpAuthentication {
    /// `sp:HttpBasicAuthentication`.
    Basic,
    /// `sp:HttpDigestAuthentication`.
    Digest,
}

/// A token assertion, as used in a binding or among supporting tokens.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Token {
    /// What token.
    pub kind: TokenKind,
    /// When it is included.
    pub inclusion: Inclusion,
    /// `sp:RequireDerivedKeys` (WS-SecureConversation `DerivedKeyToken`s are used for it).
    pub derived_keys: bool,
    /// Written in SecurityPolicy 1.1's namespace: derived keys then use WS-SecureConversation
    /// of February 2005, 1.3 otherwise.
    pub sp11: bool,
    /// Where its assertion is.
    pub loc: Loc,
}

/// A digest algorithm of a suite (§6.1 `[Dig]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Digest {
    /// SHA-1 (`xmldsig#sha1`).
    Sha1,
    /// SHA-256 (`xmlenc#sha256`).
    Sha256,
    /// SHA-512 (`xmlenc#sha512`).
    Sha512,
}

/// A block encryption algorithm of a suite (§6.1 `[Enc]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Encryption {
    /// AES-128 in CBC mode.
    Aes128Cbc,
    /// AES-192 in CBC mode.
    Aes192Cbc,
    /// AES-256 in CBC mode.
    Aes256Cbc,
    /// Triple DES in CBC mode.
    TripleDesCbc,
    /// AES-128 in GCM mode (XML Encryption 1.1).
    Aes128Gcm,
    /// AES-192 in GCM mode.
    Aes192Gcm,
    /// AES-256 in GCM mode.
    Aes256Gcm,
}

/// The asymmetric key wrap of a suite (§6.1 `[Asym KW]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KeyTransport {
    /// RSA-OAEP with MGF1 and SHA-1 (`xmlenc#rsa-oaep-mgf1p`).
    RsaOaep,
    /// RSA-OAEP with SHA-1 and MGF1 over SHA-256 (XML Encryption 1.1 `rsa-oaep`; CXF's
    /// `Basic256GCMMGFSHA256`).
    RsaOaepMgf1Sha256,
    /// RSA-OAEP with SHA-256 and MGF1 over SHA-256 (XML Encryption 1.1 `rsa-oaep`; CXF's
    /// `Basic256GCMMGFSHA256Digest`).
    RsaOaepSha256Mgf1Sha256,
    /// RSA PKCS#1 v1.5 (`xmlenc#rsa-1_5`).
    Rsa15,
}

/// The asymmetric signature of a suite (§6.1 `[AsymSig]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AsymmetricSignature {
    /// `xmldsig#rsa-sha1`, every SP 1.2 suite's.
    RsaSha1,
    /// `xmldsig-more#rsa-sha512` (CXF's `Basic128RsaSha512`).
    RsaSha512,
}

/// An algorithm suite (§6.1): the algorithms a binding uses. The symmetric signature is
/// HMAC-SHA1 in every suite.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlgorithmSuite {
    /// The suite's name as the policy writes it (`Basic256Sha256`, `Basic128Rsa15`, CXF's
    /// `Basic128GCM`…).
    pub name: String,
    /// `[Dig]`.
    pub digest: Digest,
    /// `[Enc]`.
    pub encryption: Encryption,
    /// `[Asym KW]`.
    pub key_transport: KeyTransport,
    /// `[AsymSig]`.
    pub asymmetric_signature: AsymmetricSignature,
    /// `sp:InclusiveC14N` (Exclusive C14N otherwise).
    pub inclusive_c14n: bool,
    /// `sp:STRTransform10`.
    pub str_transform: bool,
}

/// The order of the Security header's children (§7.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Layout {
    /// Declare before use.
    Strict,
    /// Any order that is valid.
    Lax,
    /// Lax, with the Timestamp first.
    LaxTsFirst,
    /// Lax, with the Timestamp last.
    LaxTsLast,
}

/// What is done first, signing or encrypting (§6.3, §7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProtectionOrder {
    /// `sp:SignBeforeEncrypting` (the default).
    SignBeforeEncrypting,
    /// `sp:EncryptBeforeSigning`.
    EncryptBeforeSigning,
}

/// The properties every security binding has (§7.1–§7.3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BindingProperties {
    /// The algorithm suite.
    pub suite: AlgorithmSuite,
    /// The header layout.
    pub layout: Layout,
    /// `sp:IncludeTimestamp`.
    pub include_timestamp: bool,
}

/// The protection properties of the symmetric and asymmetric bindings (§6.3–§6.6).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Protection {
    /// Sign then encrypt, or encrypt then sign.
    pub order: ProtectionOrder,
    /// `sp:EncryptSignature`.
    pub encrypt_signature: bool,
    /// `sp:ProtectTokens`: the signature covers the token that makes it.
    pub protect_tokens: bool,
    /// `sp:OnlySignEntireHeadersAndBody`.
    pub only_sign_entire_headers_and_body: bool,
}

/// A security binding (§7): how messages are protected.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SecurityBinding {
    /// `sp:TransportBinding` (§7.3): protection by the transport (TLS).
    Transport {
        /// The transport token (an HttpsToken).
        token: Token,
        /// Suite, layout, timestamp.
        properties: BindingProperties,
    },
    /// `sp:AsymmetricBinding` (§7.5): each side signs with its own key and encrypts to the
    /// other's.
    /// A binding that only signs has no encryption tokens, one that only encrypts no signature
    /// tokens (`sp:InitiatorSignatureToken` and the like, SP 1.2 §7.5).
    Asymmetric {
        /// The token the initiator (the client) signs with.
        initiator_signature: Option<Token>,
        /// The token the initiator's messages are encrypted for (the responses: the client's).
        initiator_encryption: Option<Token>,
        /// The token the recipient (the service) signs with.
        recipient_signature: Option<Token>,
        /// The token the requests are encrypted for (the service's).
        recipient_encryption: Option<Token>,
        /// Suite, layout, timestamp.
        properties: BindingProperties,
        /// Order and protection options.
        protection: Protection,
    },
    /// `sp:SymmetricBinding` (§7.4): one key, made by the client, protects both ways.
    Symmetric {
        /// The token of the signature key.
        signature: Token,
        /// The token of the encryption key.
        encryption: Token,
        /// Suite, layout, timestamp.
        properties: BindingProperties,
        /// Order and protection options.
        protection: Protection,
    },
}

/// A header named by `sp:Header` (§4.1.1): by namespace, and by local name unless all headers of
/// the namespace are meant.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HeaderPart {
    /// `Namespace`.
    pub namespace: String,
    /// `Name`; `None`: every header of the namespace.
    pub name: Option<String>,
}

/// An XPath expression naming elements (§4.1.2, §4.2.2, §4.3.1), in the subset soapgen
/// evaluates: an absolute location path of child steps (`/soap:Envelope/soap:Body/dns:DoubleIt`),
/// or a descendant step and child steps (`//ex:DoubleIt/numberToDouble`, or a relative
/// `wsse:Security`, read as `//wsse:Security`), each step an element name test (XPath 1.0 §2.3:
/// a prefix resolved where the expression is written; an unprefixed name is in no namespace).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct XPathExpression {
    /// The expression, as written.
    pub expression: String,
    /// Its steps.
    pub steps: Vec<XPathStep>,
    /// Where it is.
    pub loc: Loc,
}

/// One step of an [`XPathExpression`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct XPathStep {
    /// `//`: the element may be any descendant of the context, not only a child.
    pub descendant: bool,
    /// The element's expanded name.
    pub name: QName,
}

/// Parts and elements a message must have signed or encrypted (§4.1, §4.2).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ProtectedParts {
    /// `sp:Body`.
    pub body: bool,
    /// `sp:Header`s.
    pub headers: Vec<HeaderPart>,
    /// `sp:Attachments` (SwA, §4.1.1 and §4.2.1): every attachment, covered as it says.
    pub attachments: Option<AttachmentCoverage>,
    /// `sp:SignedElements` / `sp:EncryptedElements` XPaths.
    pub elements: Vec<XPathExpression>,
}

impl ProtectedParts {
    /// Whether nothing is required.
    pub fn is_empty(&self) -> bool {
        !self.body
            && self.headers.is_empty()
            && self.attachments.is_none()
            && self.elements.is_empty()
    }
}

/// What of an SwA attachment `sp:Attachments` protects (WS-SecurityPolicy 1.3 §4.1.1, WSS SwA
/// Profile 1.1 §5.4, §5.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttachmentCoverage {
    /// The content alone (`sp13:ContentSignatureTransform`: the
    /// Attachment-Content-Signature-Transform).
    Content,
    /// The MIME headers and the content (`sp13:AttachmentCompleteSignatureTransform`, and the
    /// default, as CXF reads it: the Attachment-Complete-Signature-Transform; encrypted as
    /// `Attachment-Complete`).
    Complete,
}

/// The kind of a supporting tokens assertion (§8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SupportingRole {
    /// `sp:SupportingTokens` (§8.1).
    Supporting,
    /// `sp:SignedSupportingTokens` (§8.2): covered by the message signature.
    Signed,
    /// `sp:EndorsingSupportingTokens` (§8.3): they sign the message signature.
    Endorsing,
    /// `sp:SignedEndorsingSupportingTokens` (§8.4).
    SignedEndorsing,
    /// `sp:SignedEncryptedSupportingTokens` (§8.5).
    SignedEncrypted,
    /// `sp:EncryptedSupportingTokens` (§8.6).
    Encrypted,
    /// `sp:EndorsingEncryptedSupportingTokens` (§8.7).
    EndorsingEncrypted,
    /// `sp:SignedEndorsingEncryptedSupportingTokens` (§8.8).
    SignedEndorsingEncrypted,
}

impl SupportingRole {
    /// The assertion's local name.
    pub fn local_name(self) -> &'static str {
        match self {
            SupportingRole::Supporting => "SupportingTokens",
            SupportingRole::Signed => "SignedSupportingTokens",
            SupportingRole::Endorsing => "EndorsingSupportingTokens",
            SupportingRole::SignedEndorsing => "SignedEndorsingSupportingTokens",
            SupportingRole::SignedEncrypted => "SignedEncryptedSupportingTokens",
            SupportingRole::Encrypted => "EncryptedSupportingTokens",
            SupportingRole::EndorsingEncrypted => "EndorsingEncryptedSupportingTokens",
            SupportingRole::SignedEndorsingEncrypted => "SignedEndorsingEncryptedSupportingTokens",
        }
    }

    /// Whether its tokens endorse: sign the message signature (§8.3–§8.6).
    pub fn endorses(self) -> bool {
        matches!(
            self,
            SupportingRole::Endorsing
                | SupportingRole::SignedEndorsing
                | SupportingRole::EndorsingEncrypted
                | SupportingRole::SignedEndorsingEncrypted
        )
    }

    /// The role for an assertion's local name.
    pub fn from_local_name(local: &str) -> Option<Self> {
        [
            SupportingRole::Supporting,
            SupportingRole::Signed,
            SupportingRole::Endorsing,
            SupportingRole::SignedEndorsing,
            SupportingRole::SignedEncrypted,
            SupportingRole::Encrypted,
            SupportingRole::EndorsingEncrypted,
            SupportingRole::SignedEndorsingEncrypted,
        ]
        .into_iter()
        .find(|r| r.local_name() == local)
    }
}

/// A supporting tokens assertion (§8).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SupportingTokens {
    /// Its kind.
    pub role: SupportingRole,
    /// The tokens.
    pub tokens: Vec<Token>,
    /// What the tokens sign, when they sign more than the message signature (§8.3).
    pub signed: ProtectedParts,
    /// What is encrypted with them.
    pub encrypted: ProtectedParts,
}

/// `sp:Wss10` / `sp:Wss11` (§9): the WSS version and the reference kinds the other side
/// supports, and whether signatures are to be confirmed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct WssOptions {
    /// `sp:Wss11` rather than `sp:Wss10`.
    pub wss11: bool,
    /// `sp:RequireSignatureConfirmation` (WSS 1.1 §8.5).
    pub require_signature_confirmation: bool,
}

/// The security one alternative of a message's effective policy demands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct MessagePolicy {
    /// The security binding, if one is asserted.
    pub binding: Option<SecurityBinding>,
    /// Supporting tokens.
    pub supporting: Vec<SupportingTokens>,
    /// `sp:SignedParts`, `sp:SignedElements`.
    pub signed: ProtectedParts,
    /// `sp:EncryptedParts`, `sp:EncryptedElements`.
    pub encrypted: ProtectedParts,
    /// `sp:ContentEncryptedElements`.
    pub content_encrypted: Vec<XPathExpression>,
    /// `sp:RequiredParts`: headers that must be present.
    pub required_headers: Vec<HeaderPart>,
    /// `sp:RequiredElements`.
    pub required_elements: Vec<XPathExpression>,
    /// `sp:Wss10` / `sp:Wss11`.
    pub wss: Option<WssOptions>,
}

impl MessagePolicy {
    /// Whether the alternative demands no security at all.
    pub fn is_empty(&self) -> bool {
        *self == MessagePolicy::default()
    }
}

/// A policy assertion soapgen does not enforce, and why: generation refuses the alternative
/// that holds it (or warns, when the assertion is optional or ignorable).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    /// The assertion (or parameter) refused.
    pub assertion: QName,
    /// Why.
    pub reason: String,
    /// Where it is.
    pub loc: Loc,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({}): {}",
            prefixed(&self.assertion),
            self.loc,
            self.reason
        )
    }
}

/// `sp:Local`, `wsp:Local`… for the namespaces every reader knows; `{ns}local` otherwise.
pub fn prefixed(name: &QName) -> String {
    let prefix = match name.ns.as_str() {
        "http://schemas.xmlsoap.org/ws/2005/07/securitypolicy"
        | "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702" => "sp",
        "http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200802" => "sp13",
        "http://www.w3.org/ns/ws-policy" | "http://schemas.xmlsoap.org/ws/2004/09/policy" => "wsp",
        // A reference to no policy read: shown as the reference it was.
        crate::read::policy::link::REFERENCE => {
            return format!("wsp:PolicyReference {:?}", name.local)
        }
        _ => return name.to_string(),
    };
    format!("{prefix}:{}", name.local)
}

/// What interpreting one alternative found: the policy, or why it cannot be enforced; and what
/// was let through with a warning (ignorable or optional assertions not understood).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Interpretation {
    /// The policy demanded (partial when [`refused`](Self::refused) is not empty).
    pub policy: MessagePolicy,
    /// Assertions that make the alternative unenforceable.
    pub refused: Vec<Refusal>,
    /// Ignorable or optional assertions not understood, left out.
    pub ignored: Vec<Refusal>,
}

/// The security of one message: every alternative of its effective policy, interpreted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageSecurity {
    /// The alternatives, in normal-form order. One empty alternative: no policy at all.
    pub alternatives: Vec<Interpretation>,
}

impl MessageSecurity {
    /// The alternative a client uses: the first one with nothing refused.
    pub fn chosen(&self) -> Option<&MessagePolicy> {
        self.alternatives
            .iter()
            .find(|a| a.refused.is_empty())
            .map(|a| &a.policy)
    }

    /// Whether the message's policy demands no security (every alternative is empty and
    /// nothing was refused, or there is no policy).
    pub fn is_unsecured(&self) -> bool {
        self.alternatives
            .iter()
            .all(|a| a.policy.is_empty() && a.refused.is_empty() && a.ignored.is_empty())
    }
}

/// The security of one operation at one port.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OperationSecurity {
    /// The WSDL operation name.
    pub wsdl_name: String,
    /// What its request must be.
    pub input: MessageSecurity,
    /// What its response must be (empty for a one-way operation).
    pub output: MessageSecurity,
}

/// The security a port's policy demands, per operation of the client.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PortSecurity {
    /// One entry per operation the binding binds, in binding order.
    pub operations: Vec<OperationSecurity>,
    /// The user configures this port's security by hand: its policy is reported, not enforced.
    pub manual: bool,
}

impl PortSecurity {
    /// Whether no operation's policy demands anything.
    pub fn is_unsecured(&self) -> bool {
        self.operations
            .iter()
            .all(|o| o.input.is_unsecured() && o.output.is_unsecured())
    }

    /// Whether soapgen can enforce every message's policy: each demands nothing or has an
    /// alternative nothing of which is refused.
    pub fn enforceable(&self) -> bool {
        self.operations.iter().all(|o| {
            [&o.input, &o.output]
                .iter()
                .all(|m| m.is_unsecured() || m.chosen().is_some())
        })
    }
}
