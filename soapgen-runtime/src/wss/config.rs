//! A client's WS-Security configuration ([`WssConfig`]): what each request carries and the
//! inbound policy each response must meet.

use std::sync::Arc;
use std::time::Duration;

use super::*;

/// What a client does with WS-Security: the tokens it puts in every request and the policy its
/// responses must meet. Cheap to clone (shared). Consuming setters, as [`ClientBuilder`](crate::ClientBuilder).
///
/// Outgoing (each request, in this order inside `wsse:Security`): [`timestamp`](Self::timestamp),
/// the BinarySecurityToken of [`sign`](Self::sign), [`username_token`](Self::username_token),
/// then the `xenc:EncryptedKey` of [`encrypt`](Self::encrypt) and the `ds:Signature` in the
/// order the recipient processes them ([`EncryptionOrder`]).
///
/// Inbound policy (each response envelope, whatever its HTTP status; a SOAP fault that fails it is
/// still returned as [`Error::Fault`](crate::Error::Fault), marked
/// [`FaultSecurity::NotVerified`](crate::fault::FaultSecurity::NotVerified), unless
/// [`refuse_unverified_faults`](Self::refuse_unverified_faults)), by default what the client
/// itself sends:
/// - a Timestamp iff the client sends one ([`require_timestamp`](Self::require_timestamp)
///   overrides), checked against the local clock: `Created` at most
///   [`max_timestamp_age`](Self::max_timestamp_age) ago (300 s) and at most
///   [`clock_skew`](Self::clock_skew) ahead (60 s), `Expires` not passed by more than the skew;
/// - a Body and Timestamp signed by a certificate the [`trust`](Self::trust) store trusts iff the
///   client signs ([`require_signature`](Self::require_signature) overrides);
/// - an encrypted Body iff the client encrypts ([`require_encryption`](Self::require_encryption)
///   overrides), decrypted with [`decrypt_with`](Self::decrypt_with)'s key (by default the signing
///   credential);
/// - only the algorithms of [`algorithms`](Self::algorithms); at most
///   [`max_signature_references`](Self::max_signature_references) References per signature; no
///   replayed signature value or nonce.
///
/// See [`check_response`](Self::check_response) for the processing.
///
/// A service uses the same configuration from the other side (the fake's
/// [`SecuredService`](crate::testing::SecuredService), feature `testing`, and
/// [`process_request`](Self::process_request)): there "response" in these docs reads as the
/// request it receives and "request" as the answer it sends, and the defaults hold the same way
/// round: a service that signs its answers requires signed requests, one that encrypts them
/// requires encrypted requests, unless [`require_signature`](Self::require_signature) and
/// [`require_encryption`](Self::require_encryption) say otherwise.
#[derive(Clone, Debug, Default)]
#[must_use]
pub struct WssConfig {
    inner: Arc<ConfigInner>,
}

#[derive(Clone, Debug, Default)]
struct ConfigInner {
    username: Option<UsernameToken>,
    /// The UsernameToken's derived key endorses the request, with these digests.
    username_endorses: Option<super::DigestAlgorithm>,
    signer: Option<X509Signer>,
    endorsements: Vec<Endorsement>,
    supporting: Vec<super::X509SupportingToken>,
    symmetric: Option<SymmetricBinding>,
    secure_conversation: Option<super::SecureConversationToken>,
    layout: Layout,
    required_layout: Option<Layout>,
    encryptor: Option<X509Encryptor>,
    timestamp_ttl: Option<Duration>,
    require_timestamp: Option<bool>,
    clock_skew: Option<Duration>,
    max_age: Option<Duration>,
    trust: TrustStore,
    decryption: Option<X509Credential>,
    require_signature: Option<bool>,
    require_encryption: Option<bool>,
    require_encrypted_signature: Option<bool>,
    require_protected_token: Option<bool>,
    refuse_unverified_faults: bool,
    signature_confirmation: bool,
    signed_headers: Vec<(String, String)>,
    encrypted_headers: Vec<(String, String)>,
    signed_headers_if_present: Vec<(String, String)>,
    signer_references: Vec<super::KeyReference>,
    required_headers: Vec<(String, String)>,
    required_elements: Vec<super::ElementPath>,
    signed_elements_if_present: Vec<super::ElementPath>,
    encrypted_elements_if_present: Vec<super::ElementPath>,
    encrypted_headers_if_present: Vec<(String, String)>,
    /// Attachments of a response must be signed, encrypted (`sp:Attachments`).
    protected_attachments: (bool, bool),
    algorithms: AlgorithmPolicy,
    max_references: Option<usize>,
    min_rsa_bits: Option<usize>,
    expected_username: Option<UsernameToken>,
    replay: Arc<policy::ReplayCache>,
    certificates: Arc<policy::CertificateCache>,
}

/// Default of [`WssConfig::max_signature_references`]: 32 (a WSS message signs a handful of
/// parts; WSS4J's own default limit is 32 too).
pub const DEFAULT_MAX_SIGNATURE_REFERENCES: usize = 32;

/// Default of [`WssConfig::min_rsa_key_bits`]: 2048 bits (NIST SP 800-131A; WSS4J's default
/// AlgorithmSuite allows 1024).
pub const DEFAULT_MIN_RSA_KEY_BITS: usize = 2048;

impl WssConfig {
    /// An empty configuration: an empty `wsse:Security` header and no inbound requirement until
    /// something is added.
    pub fn new() -> Self {
        Self::default()
    }

    fn edit(mut self, f: impl FnOnce(&mut ConfigInner)) -> Self {
        f(Arc::make_mut(&mut self.inner));
        self
    }

    /// Sends `token` in every request (WSS UsernameToken Profile 1.1 §3); a `PasswordDigest`
    /// token gets a fresh 16-byte nonce and the current time as `Created` each time.
    pub fn username_token(self, token: UsernameToken) -> Self {
        self.edit(|c| c.username = Some(token))
    }

    /// The UsernameToken endorses the request (WS-SecurityPolicy 1.2 §8.3
    /// `sp:EndorsingSupportingTokens` with a UsernameToken): a signature with HMAC-SHA1 under
    /// the key its password derives (UsernameToken Profile 1.1 §4; the token must be
    /// [`UsernameToken::derived_key`]), its References digested with `digest`, its KeyInfo a
    /// SecurityTokenReference to the token. Under a
    /// [`SymmetricBinding`](super::SymmetricBinding) it signs the message signature, as CXF does;
    /// without one (over TLS) it signs the Timestamp, which is then required. With an X.509
    /// message signature ([`sign`](Self::sign)) a request fails with [`WssError::Encode`].
    pub fn username_token_endorses(self, digest: super::DigestAlgorithm) -> Self {
        self.edit(|c| c.username_endorses = Some(digest))
    }

    /// How the UsernameToken's endorsing signature digests, if it endorses
    /// ([`username_token_endorses`](Self::username_token_endorses)).
    pub fn username_endorsement(&self) -> Option<super::DigestAlgorithm> {
        self.inner.username_endorses
    }

    /// Sends a `wsu:Timestamp` (WSS 1.1 §10) in every request: `Created` = now (UTC, milliseconds),
    /// `Expires` = now + `ttl` (whole milliseconds; a zero `ttl` means [`DEFAULT_TIMESTAMP_TTL`]).
    /// Also makes the inbound policy require a Timestamp in responses, unless
    /// [`require_timestamp`](Self::require_timestamp) says otherwise.
    pub fn timestamp(self, ttl: Duration) -> Self {
        let ttl = if ttl.is_zero() {
            DEFAULT_TIMESTAMP_TTL
        } else {
            ttl
        };
        self.edit(|c| c.timestamp_ttl = Some(ttl))
    }

    /// Signs every request (WSS 1.1 §8): the Body (given a `wsu:Id`) and, if one is sent, the
    /// Timestamp, as [`X509Signer`] describes.
    ///
    /// Also makes the inbound policy require responses signed by a certificate the
    /// [`trust`](Self::trust) store trusts, unless [`require_signature`](Self::require_signature)
    /// says otherwise.
    pub fn sign(self, signer: X509Signer) -> Self {
        self.edit(|c| c.signer = Some(signer))
    }

    /// Protects every request with a SymmetricBinding (WS-SecurityPolicy 1.2 §7.4) as
    /// [`SymmetricBinding`] describes: a fresh key per request, wrapped for the service's
    /// certificate, signs (HMAC-SHA1) and encrypts the request, and the response must be signed
    /// (and encrypted, when the request was) under it. It takes the place of [`sign`](Self::sign)
    /// and [`encrypt`](Self::encrypt), which must not be set with it (requests then fail with
    /// [`WssError::Encode`]); the inbound policy requires a signed response (and an encrypted one
    /// when the binding encrypts) unless told otherwise.
    pub fn symmetric(self, binding: SymmetricBinding) -> Self {
        self.edit(|c| c.symmetric = Some(binding))
    }

    /// Establishes a WS-SecureConversation security context with the service before the first
    /// call and endorses every request with it, as [`SecureConversationToken`](super::SecureConversationToken)
    /// describes (WS-SecurityPolicy 1.2 §5.4.7 in an `sp:EndorsingSupportingTokens` over TLS).
    /// The request needs a Timestamp ([`timestamp`](Self::timestamp)), which the context's
    /// signature covers; with [`sign`](Self::sign), [`encrypt`](Self::encrypt) or
    /// [`symmetric`](Self::symmetric) a request fails with [`WssError::Encode`] (not supported
    /// yet). The context is cancelled at [`Client::close`](crate::Client::close).
    pub fn secure_conversation(self, token: super::SecureConversationToken) -> Self {
        self.edit(|c| c.secure_conversation = Some(token))
    }

    /// The security context configuration ([`secure_conversation`](Self::secure_conversation)).
    pub fn secure_conversation_token(&self) -> Option<&super::SecureConversationToken> {
        self.inner.secure_conversation.as_ref()
    }

    /// The WS-SecureConversation context of the requests, whether it endorses them
    /// ([`secure_conversation`](Self::secure_conversation)) or protects them
    /// ([`SymmetricBinding::secure_conversation`](super::SymmetricBinding::secure_conversation)).
    pub(crate) fn context_token(&self) -> Option<&super::SecureConversationToken> {
        self.inner
            .secure_conversation
            .as_ref()
            .or_else(|| self.inner.symmetric.as_ref()?.context.as_ref())
    }

    /// This configuration with the security context `context` fixed (a slot of its own) and the
    /// Body signed under it: what a Cancel of `context` is secured with, as the requests were.
    /// Its response must be signed as theirs are, not encrypted (WS-SecureConversation 1.3 §6
    /// asks the Cancel to prove the key; CXF signs its answer, and encrypts nothing).
    pub(crate) fn cancelling(
        &self,
        context: &std::sync::Arc<super::context::SecurityContext>,
    ) -> WssConfig {
        self.clone().edit(|c| {
            c.require_encryption = Some(false);
            if let Some(t) = c.secure_conversation.as_mut() {
                *t = t.cancelling(context);
            }
            if let Some(t) = c.symmetric.as_mut().and_then(|b| b.context.as_mut()) {
                *t = t.cancelling(context);
            }
        })
    }

    /// The SymmetricBinding of each request ([`symmetric`](Self::symmetric)).
    pub fn symmetric_binding(&self) -> Option<&SymmetricBinding> {
        self.inner.symmetric.as_ref()
    }

    /// Adds an endorsing signature to every signed request (WS-SecurityPolicy 1.2 §8.3–8.4):
    /// after the message signature of [`sign`](Self::sign), a second signature by the
    /// endorsement's key over it, as [`Endorsement`] describes. Repeatable: each endorsement
    /// signs in the order added. Responses are not asked to carry one.
    pub fn endorse(self, endorsement: Endorsement) -> Self {
        self.edit(|c| c.endorsements.push(endorsement))
    }

    /// Adds an X.509 supporting token that does not endorse to every request (WS-SecurityPolicy
    /// 1.2 §8.1–8.2, §8.5–8.6): its certificate as a BinarySecurityToken, signed and encrypted as
    /// [`X509SupportingToken`](super::X509SupportingToken) says. Repeatable.
    pub fn support(self, token: super::X509SupportingToken) -> Self {
        self.edit(|c| c.supporting.push(token))
    }

    /// The X.509 supporting tokens of each request that do not endorse ([`support`](Self::support)).
    pub fn supporting_tokens(&self) -> &[super::X509SupportingToken] {
        &self.inner.supporting
    }

    /// The order of the Security header's children both ways (WS-SecurityPolicy 1.2 §7.7,
    /// default [`Layout::Lax`]): requests are written in it ([`Layout::LaxTsLast`] puts the
    /// Timestamp last; every other layout is met by soapgen's own order: Timestamp, tokens,
    /// EncryptedKey and Signature in processing order), and responses must follow it, else
    /// [`WssError::Layout`] naming the rule (checked on the header as received, before
    /// anything is decrypted; `Lax` checks nothing), unless
    /// [`require_layout`](Self::require_layout) says otherwise.
    pub fn layout(self, layout: Layout) -> Self {
        self.edit(|c| c.layout = layout)
    }

    /// The layout responses must follow, whatever requests follow (default: the
    /// [`layout`](Self::layout)).
    pub fn require_layout(self, layout: Layout) -> Self {
        self.edit(|c| c.required_layout = Some(layout))
    }

    /// The layout of requests ([`layout`](Self::layout)).
    pub fn security_layout(&self) -> Layout {
        self.inner.layout
    }

    /// The layout responses must follow ([`require_layout`](Self::require_layout)).
    pub fn required_layout(&self) -> Layout {
        self.inner.required_layout.unwrap_or(self.inner.layout)
    }

    /// The endorsing signatures of each request ([`endorse`](Self::endorse)).
    pub fn endorsements(&self) -> &[Endorsement] {
        &self.inner.endorsements
    }

    /// Encrypts the content of every request's Body for a recipient (WSS 1.1 §9, XML-Enc §3–4),
    /// as [`X509Encryptor`] describes: a fresh key per request, the Body content replaced by an
    /// `xenc:EncryptedData`, the key in an `xenc:EncryptedKey` in the Security header. With
    /// [`sign`](Self::sign) too, the [`EncryptionOrder`] decides what the signature covers.
    ///
    /// A request with attachments (MTOM, SwA) is then refused with an
    /// [`EncodeError`](crate::EncodeError): attachments are not encrypted.
    pub fn encrypt(self, encryptor: X509Encryptor) -> Self {
        self.edit(|c| c.encryptor = Some(encryptor))
    }

    /// Whether a successful response must carry a valid `wsu:Timestamp` in its `wsse:Security`
    /// header (WSS 1.1 §10). Default: `true` iff the client sends one ([`timestamp`](Self::timestamp)).
    /// A Timestamp that is present is always checked, required or not.
    pub fn require_timestamp(self, required: bool) -> Self {
        self.edit(|c| c.require_timestamp = Some(required))
    }

    /// The clock difference tolerated when checking an incoming Timestamp (WSS 1.1 §10; default
    /// [`DEFAULT_CLOCK_SKEW`], 60 s, WSS4J's `timeStampFutureTTL`): `Created` may be at most this
    /// far in the future, and `Expires` is honoured until this long after it passed. The same
    /// for the `Created` of the UsernameToken [`expect_username_token`](Self::expect_username_token)
    /// checks (UsernameToken Profile 1.1 §3.1, WSS4J's `utFutureTTL`).
    pub fn clock_skew(self, skew: Duration) -> Self {
        self.edit(|c| c.clock_skew = Some(skew))
    }

    /// How long ago an incoming Timestamp may have been `Created` (WSS 1.1 §10; default
    /// [`DEFAULT_MAX_TIMESTAMP_AGE`], 300 s, WSS4J's `timeStampTTL`), whatever its `Expires`
    /// says: older ones are refused with [`WssError::TimestampTooOld`], and a Timestamp without
    /// `Expires` is bounded by this. The same for the `Created` of the UsernameToken
    /// [`expect_username_token`](Self::expect_username_token) checks (UsernameToken Profile 1.1
    /// §3.1, WSS4J's `utTTL`). Signature values and nonces are
    /// remembered (replay) until the message could no longer be accepted.
    pub fn max_timestamp_age(self, age: Duration) -> Self {
        self.edit(|c| c.max_age = Some(age))
    }

    /// The certificates trusted to sign responses, and those a response may name without carrying
    /// (see [`TrustStore`]). Needed whenever responses must be signed.
    pub fn trust(self, store: TrustStore) -> Self {
        self.edit(|c| c.trust = store)
    }

    /// The key responses are encrypted for (XML-Enc §4.2): its certificate must be the one an
    /// `EncryptedKey` names. Default: the credential of [`sign`](Self::sign), if any.
    pub fn decrypt_with(self, credential: X509Credential) -> Self {
        self.edit(|c| c.decryption = Some(credential))
    }

    /// Whether responses (for a service: requests) must have their Body (and Timestamp, if they
    /// carry one) signed by a trusted certificate. Default: `true` iff this side signs what it
    /// sends ([`sign`](Self::sign)).
    pub fn require_signature(self, required: bool) -> Self {
        self.edit(|c| c.require_signature = Some(required))
    }

    /// Whether a SOAP fault that does not meet the inbound policy (an unsigned fault when
    /// signatures are required, WSS 1.1 §8.4) is refused with the policy's [`WssError`] as
    /// [`Error::Security`](crate::Error::Security) instead of returned. Default: `false`, the
    /// fault is returned as [`Error::Fault`](crate::Error::Fault) marked
    /// [`FaultSecurity::NotVerified`](crate::fault::FaultSecurity::NotVerified). (zeep 4.2 with a
    /// `Signature` plugin verifies every reply before it looks for a fault, so it refuses an
    /// unsigned one: `true` is zeep's behaviour.)
    pub fn refuse_unverified_faults(self, refuse: bool) -> Self {
        self.edit(|c| c.refuse_unverified_faults = refuse)
    }

    /// Whether responses must confirm the request's signatures (WSS 1.1 §8.5; WSS4J's
    /// `enableSignatureConfirmation`). Default: `false`, as WSS4J's.
    ///
    /// When on and the request was signed, the response's Security header must carry one
    /// `wsse11:SignatureConfirmation` per request `ds:SignatureValue`, its `Value` attribute the
    /// base64 of that SignatureValue, each covered by a verified signature from a trusted
    /// certificate: a request signature left unconfirmed is
    /// [`WssError::MissingSignatureConfirmation`], a `Value` that is no SignatureValue of the
    /// request (or a confirmation without `Value`, the form for an unsigned request) is
    /// [`WssError::SignatureConfirmationMismatch`], an unsigned confirmation
    /// [`WssError::UnsignedSignatureConfirmation`]. When the request was not signed, a
    /// confirmation without `Value` is accepted (§8.5: the responder's statement that there was
    /// no signature) and one with a `Value` refused; none is required.
    ///
    /// The client's WS-Security layer keeps each request's SignatureValues for the check of
    /// its response; for a captured message use
    /// [`check_response_to`](Self::check_response_to).
    pub fn signature_confirmation(self, required: bool) -> Self {
        self.edit(|c| c.signature_confirmation = required)
    }

    /// Whether responses must confirm the request's signatures (see
    /// [`signature_confirmation`](Self::signature_confirmation)).
    pub fn requires_signature_confirmation(&self) -> bool {
        self.inner.signature_confirmation
    }

    /// Whether faults that fail the inbound policy are refused (see
    /// [`refuse_unverified_faults`](Self::refuse_unverified_faults)).
    pub fn refuses_unverified_faults(&self) -> bool {
        self.inner.refuse_unverified_faults
    }

    /// Requires responses to carry the header block `{namespace}name`, signed (implies
    /// [`require_signature`](Self::require_signature)).
    pub fn require_signed_header(self, namespace: &str, name: &str) -> Self {
        self.edit(|c| {
            c.signed_headers
                .push((namespace.to_owned(), name.to_owned()));
            c.require_signature = Some(true);
        })
    }

    /// Requires responses to carry the header block `{namespace}name` encrypted for this client
    /// (a `wsse11:EncryptedHeader`, WSS 1.1 §9.3, decrypted with [`decrypt_with`](Self::decrypt_with)'s
    /// key).
    pub fn require_encrypted_header(self, namespace: &str, name: &str) -> Self {
        self.edit(|c| {
            c.encrypted_headers
                .push((namespace.to_owned(), name.to_owned()))
        })
    }

    /// The header blocks responses must carry encrypted.
    pub fn encrypted_headers(&self) -> &[(String, String)] {
        &self.inner.encrypted_headers
    }

    /// Requires the header block `{namespace}name` of a response, when it has one, to be signed
    /// (implies [`require_signature`](Self::require_signature)); a response without it passes:
    /// what a WS-SecurityPolicy `sp:SignedParts/sp:Header` asks (WS-SecurityPolicy 1.2 §5.1.1).
    /// A block present and unsigned fails the check with [`WssError::NotSigned`].
    /// An empty local name names every block of the namespace (an `sp:Header` without `Name`).
    pub fn require_signed_header_if_present(self, namespace: &str, name: &str) -> Self {
        self.edit(|c| {
            c.signed_headers_if_present
                .push((namespace.to_owned(), name.to_owned()));
            c.require_signature = Some(true);
        })
    }

    /// Requires every SwA attachment of a response to be signed (`signed`) and to have come
    /// encrypted (`encrypted`), as WS-SecurityPolicy's `sp:SignedParts/sp:Attachments` and
    /// `sp:EncryptedParts/sp:Attachments` ask (WSS SwA Profile 1.1): a response without
    /// attachments passes. soapgen does not verify or decrypt a response's attachments yet: a
    /// response that carries any under such a requirement is refused
    /// ([`WssError::NotSigned`] / [`WssError::NotEncrypted`] naming the attachment), never read
    /// with them unchecked.
    pub fn require_protected_attachments(self, signed: bool, encrypted: bool) -> Self {
        self.edit(|c| c.protected_attachments = (signed, encrypted))
    }

    /// Whether a response's SwA attachments must be signed, and encrypted
    /// ([`require_protected_attachments`](Self::require_protected_attachments)).
    pub fn protected_attachments(&self) -> (bool, bool) {
        self.inner.protected_attachments
    }

    /// Requires the header block `{namespace}name` of a response, when it has one, to come
    /// encrypted (a `wsse11:EncryptedHeader`, WSS 1.1 §9.3); a response without it passes: what a
    /// WS-SecurityPolicy `sp:EncryptedParts/sp:Header` asks (WS-SecurityPolicy 1.2 §5.2.1). A
    /// block in the clear fails the check with [`WssError::NotEncrypted`].
    /// An empty local name names every block of the namespace (an `sp:Header` without `Name`).
    pub fn require_encrypted_header_if_present(self, namespace: &str, name: &str) -> Self {
        self.edit(|c| {
            c.encrypted_headers_if_present
                .push((namespace.to_owned(), name.to_owned()))
        })
    }

    /// Allows a response's signatures to name their key only in these forms (X.509 Token
    /// Profile 1.1 §3.2: a BinarySecurityToken by direct reference, a KeyIdentifier, an issuer
    /// and serial number); every form when empty (the default). What a WS-SecurityPolicy
    /// RecipientToken's `sp:Require…Reference` and `sp:IncludeToken` ask of the service's
    /// signature. Another form fails the check with [`WssError::KeyReference`].
    pub fn allow_signer_references(self, forms: &[super::KeyReference]) -> Self {
        self.edit(|c| c.signer_references = forms.to_vec())
    }

    /// Requires responses to carry the header block `{namespace}name` (WS-SecurityPolicy 1.2
    /// §4.3.2 `sp:RequiredParts`), signed or not; one without it fails the check with
    /// [`WssError::MissingRequired`].
    /// An empty `name` asks for a block of the namespace, whichever its name (an `sp:Header`
    /// without `Name`).
    pub fn require_header(self, namespace: &str, name: &str) -> Self {
        self.edit(|c| {
            c.required_headers
                .push((namespace.to_owned(), name.to_owned()))
        })
    }

    /// Requires responses, once decrypted, to have an element `path` names (WS-SecurityPolicy
    /// 1.2 §4.3.1 `sp:RequiredElements`); one without fails the check with
    /// [`WssError::MissingRequired`].
    pub fn require_element(self, path: super::ElementPath) -> Self {
        self.edit(|c| c.required_elements.push(path))
    }

    /// Requires every element of a response that `path` names to be signed: the target of a
    /// verified signature reference, or inside one; a response without such an element passes:
    /// what WS-SecurityPolicy 1.2 §4.1.2 `sp:SignedElements` asks. An element unsigned fails the
    /// check with [`WssError::NotSigned`].
    pub fn require_signed_element_if_present(self, path: super::ElementPath) -> Self {
        self.edit(|c| c.signed_elements_if_present.push(path))
    }

    /// Requires every element of a response that `path` names to have come encrypted (itself,
    /// or inside encrypted content, decrypted with [`decrypt_with`](Self::decrypt_with)'s key or
    /// the request key); a response without such an element passes: what WS-SecurityPolicy 1.2
    /// §4.2.2 `sp:EncryptedElements` asks. An element in the clear fails the check with
    /// [`WssError::NotEncrypted`].
    pub fn require_encrypted_element_if_present(self, path: super::ElementPath) -> Self {
        self.edit(|c| c.encrypted_elements_if_present.push(path))
    }

    /// The elements responses must have signed when they have them
    /// ([`require_signed_element_if_present`](Self::require_signed_element_if_present)).
    pub fn signed_elements_if_present(&self) -> &[super::ElementPath] {
        &self.inner.signed_elements_if_present
    }

    /// The elements responses must have encrypted when they have them
    /// ([`require_encrypted_element_if_present`](Self::require_encrypted_element_if_present)).
    pub fn encrypted_elements_if_present(&self) -> &[super::ElementPath] {
        &self.inner.encrypted_elements_if_present
    }

    /// The header blocks responses must carry ([`require_header`](Self::require_header)).
    pub fn required_headers(&self) -> &[(String, String)] {
        &self.inner.required_headers
    }

    /// The elements responses must have ([`require_element`](Self::require_element)).
    pub fn required_elements(&self) -> &[super::ElementPath] {
        &self.inner.required_elements
    }

    /// The forms a response's signatures may name their key in; every form when empty
    /// ([`allow_signer_references`](Self::allow_signer_references)).
    pub fn allowed_signer_references(&self) -> &[super::KeyReference] {
        &self.inner.signer_references
    }

    /// The header blocks a response must have signed when it has them
    /// ([`require_signed_header_if_present`](Self::require_signed_header_if_present)).
    pub fn signed_headers_if_present(&self) -> &[(String, String)] {
        &self.inner.signed_headers_if_present
    }

    /// The header blocks a response must have encrypted when it has them
    /// ([`require_encrypted_header_if_present`](Self::require_encrypted_header_if_present)).
    pub fn encrypted_headers_if_present(&self) -> &[(String, String)] {
        &self.inner.encrypted_headers_if_present
    }

    /// Whether responses (for a service: requests) must have their Body encrypted for this side.
    /// Default: `true` iff this side encrypts what it sends ([`encrypt`](Self::encrypt)).
    pub fn require_encryption(self, required: bool) -> Self {
        self.edit(|c| c.require_encryption = Some(required))
    }

    /// Whether the signature of a response that must be signed must also have been encrypted
    /// for this client (WS-SecurityPolicy 1.2 §6.3 `sp:EncryptSignature`): its `ds:Signature`
    /// decrypted from an `xenc:EncryptedData` before it was verified, else
    /// [`WssError::NotEncrypted`] (`"Signature (sp:EncryptSignature)"`). Default: `true` iff the
    /// client encrypts its own signature ([`X509Encryptor::encrypt_signature`]).
    pub fn require_encrypted_signature(self, required: bool) -> Self {
        self.edit(|c| c.require_encrypted_signature = Some(required))
    }

    /// Whether responses' signatures must have been encrypted (see
    /// [`require_encrypted_signature`](Self::require_encrypted_signature)).
    pub fn requires_encrypted_signature(&self) -> bool {
        self.inner.require_encrypted_signature.unwrap_or(
            self.inner.signer.is_some()
                && self
                    .inner
                    .encryptor
                    .as_ref()
                    .is_some_and(|e| e.encrypt_signature),
        )
    }

    /// Whether every verified signature of a response must also cover the token its KeyInfo
    /// references in the message (WS-SecurityPolicy 1.2 §6.5 `sp:ProtectTokens`): the
    /// `wsse:BinarySecurityToken`, by a Reference to it or through the STR-Transform (WSS 1.1
    /// §8.3), else [`WssError::NotSigned`] (`"signing token (sp:ProtectTokens)"`, naming the
    /// signature). A signature whose key is named but not sent (KeyIdentifier, IssuerSerial) has
    /// no token in the message to cover. Default: `true` iff the client protects its own
    /// ([`X509Signer::protect_token`]).
    pub fn require_protected_token(self, required: bool) -> Self {
        self.edit(|c| c.require_protected_token = Some(required))
    }

    /// Whether responses' signatures must cover their tokens (see
    /// [`require_protected_token`](Self::require_protected_token)).
    pub fn requires_protected_token(&self) -> bool {
        self.inner
            .require_protected_token
            .unwrap_or(self.inner.signer.as_ref().is_some_and(|s| s.protect_token))
    }

    /// The algorithms responses may use (default [`AlgorithmPolicy::default`]).
    pub fn algorithms(self, policy: AlgorithmPolicy) -> Self {
        self.edit(|c| c.algorithms = policy)
    }

    /// The most References one response signature may have (default
    /// [`DEFAULT_MAX_SIGNATURE_REFERENCES`]); also bounds the decryption passes of a response.
    pub fn max_signature_references(self, limit: usize) -> Self {
        self.edit(|c| c.max_references = Some(limit))
    }

    /// The shortest RSA key a response signer may have (XML-DSig §6.4.2; default
    /// [`DEFAULT_MIN_RSA_KEY_BITS`], 2048 bits): a signer with a shorter key is refused with
    /// [`WssError::WeakKey`] before its signature is checked. Values below 1024 act as 1024 (the
    /// least the cryptographic library verifies); RSA-SHA384 always needs 2048.
    pub fn min_rsa_key_bits(self, bits: usize) -> Self {
        self.edit(|c| c.min_rsa_bits = Some(bits))
    }

    /// The minimum RSA key size of response signers (see [`min_rsa_key_bits`](Self::min_rsa_key_bits)).
    pub fn rsa_key_minimum(&self) -> usize {
        self.inner
            .min_rsa_bits
            .unwrap_or(DEFAULT_MIN_RSA_KEY_BITS)
            .max(1024)
    }

    /// Requires every message received (a client's responses; a service's requests, as a
    /// [`SecuredService`](crate::testing::SecuredService) checks them) to carry a UsernameToken
    /// for `user` with `password` (text or digest, UsernameToken Profile 1.1 §3.1), its
    /// `Created` fresh and its Nonce, when it has one, not seen before (a token without a Nonce
    /// cannot be told from its replay).
    pub fn expect_username_token(
        self,
        user: impl Into<String>,
        password: impl Into<String>,
    ) -> Self {
        let token = UsernameToken::text(user, password);
        self.edit(|c| c.expected_username = Some(token))
    }

    /// Why this configuration cannot verify what it receives, if it cannot:
    /// [`WssError::NothingTrusted`] when signatures are required
    /// ([`requires_signature`](Self::requires_signature)) but the trust store is empty and no
    /// SymmetricBinding or UsernameToken key verifies them.
    pub fn unverifiable(&self) -> Option<WssError> {
        (self.requires_signature()
            && self.trust_store().is_empty()
            && self.symmetric_binding().is_none()
            && self.username_endorsement().is_none())
        .then_some(WssError::NothingTrusted)
    }

    /// The trust store.
    pub fn trust_store(&self) -> &TrustStore {
        &self.inner.trust
    }

    /// The key responses are decrypted with, if any.
    pub fn decryption_credential(&self) -> Option<&X509Credential> {
        self.inner
            .decryption
            .as_ref()
            .or_else(|| self.inner.signer.as_ref().map(X509Signer::credential))
    }

    /// Whether responses must be signed (see [`require_signature`](Self::require_signature)).
    pub fn requires_signature(&self) -> bool {
        self.inner
            .require_signature
            .unwrap_or(self.inner.signer.is_some() || self.inner.symmetric.is_some())
    }

    /// Whether responses must be encrypted (see [`require_encryption`](Self::require_encryption)).
    pub fn requires_encryption(&self) -> bool {
        self.inner.require_encryption.unwrap_or(
            self.inner.encryptor.is_some()
                || self
                    .inner
                    .symmetric
                    .as_ref()
                    .is_some_and(|s| s.encrypt_body),
        )
    }

    /// The header blocks responses must carry signed.
    pub fn signed_headers(&self) -> &[(String, String)] {
        &self.inner.signed_headers
    }

    /// The algorithm policy for responses.
    pub fn algorithm_policy(&self) -> &AlgorithmPolicy {
        &self.inner.algorithms
    }

    /// The References limit per response signature.
    pub fn signature_reference_limit(&self) -> usize {
        self.inner
            .max_references
            .unwrap_or(DEFAULT_MAX_SIGNATURE_REFERENCES)
    }

    /// The expected response UsernameToken's user and password.
    pub(crate) fn expected_username(&self) -> Option<(&str, &str)> {
        self.inner
            .expected_username
            .as_ref()
            .map(|t| (t.username(), t.password()))
    }

    pub(crate) fn replay_cache(&self) -> &policy::ReplayCache {
        &self.inner.replay
    }

    pub(crate) fn certificate_cache(&self) -> &policy::CertificateCache {
        &self.inner.certificates
    }

    /// The UsernameToken sent, if any.
    pub fn username(&self) -> Option<&UsernameToken> {
        self.inner.username.as_ref()
    }

    /// How requests are signed, if they are.
    pub fn signer(&self) -> Option<&X509Signer> {
        self.inner.signer.as_ref()
    }

    /// How requests are encrypted, if they are.
    pub fn encryptor(&self) -> Option<&X509Encryptor> {
        self.inner.encryptor.as_ref()
    }

    /// The time to live of the Timestamp sent, if one is.
    pub fn timestamp_ttl(&self) -> Option<Duration> {
        self.inner.timestamp_ttl
    }

    /// Whether responses must carry a Timestamp (see [`require_timestamp`](Self::require_timestamp)).
    pub fn requires_timestamp(&self) -> bool {
        self.inner
            .require_timestamp
            .unwrap_or(self.inner.timestamp_ttl.is_some())
    }

    /// The clock skew tolerated for incoming Timestamps (see [`clock_skew`](Self::clock_skew)).
    pub fn skew(&self) -> Duration {
        self.inner.clock_skew.unwrap_or(DEFAULT_CLOCK_SKEW)
    }

    /// The maximum age of incoming Timestamps (see [`max_timestamp_age`](Self::max_timestamp_age)).
    pub fn timestamp_age_limit(&self) -> Duration {
        self.inner.max_age.unwrap_or(DEFAULT_MAX_TIMESTAMP_AGE)
    }
}
