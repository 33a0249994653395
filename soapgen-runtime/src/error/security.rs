//! The error of WS-Security processing (feature `wss`): always defined, so that [`Error::Security`](crate::Error::Security) is one variant whatever the features.

/// What went wrong in WS-Security: configuring it, securing a request, or checking a message
/// against the inbound policy (a client's response; a service's request, with
/// [`WssConfig::process_request`](crate::wss::WssConfig::process_request)). Carried by
/// [`Error::Security`](crate::Error::Security) for a response, by
/// [`EncodeError`](crate::EncodeError) for a request.
///
/// Messages never contain a password, nonce or key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WssError {
    /// The system random generator failed (no nonce can be made).
    #[error("WS-Security: the system random number generator failed")]
    Random,
    /// Signatures are required of the messages this side receives
    /// ([`WssConfig::require_signature`](crate::wss::WssConfig::require_signature), on by default
    /// when it signs), but its [`TrustStore`](crate::wss::TrustStore) is empty and no symmetric
    /// key verifies them: every message would be refused. A service is refused it when it is
    /// built (`testing::SecuredService::new`); a client, which may only write messages
    /// (`Client::message`), when a response comes, as
    /// [`UntrustedCertificate`](Self::UntrustedCertificate).
    #[error("WS-Security: signatures are required of the messages received (WssConfig::require_signature, on by default when signing), but nothing is trusted to verify them: add a trust anchor or a known certificate (WssConfig::trust), or require_signature(false)")]
    NothingTrusted,
    /// A value could not be written into the Security header (a character XML cannot carry).
    #[error("WS-Security: cannot write the Security header: {0}")]
    Encode(String),
    /// A time value (`wsu:Created`, `wsu:Expires`) that is not an `xsd:dateTime` with a time zone
    /// (WSS 1.1 §10).
    #[error("WS-Security: malformed time {value:?}: {reason}")]
    MalformedTime {
        /// The value (at most 64 characters of it).
        value: String,
        /// Why it is refused.
        reason: String,
    },
    /// The response has no `wsse:Security` header block although the policy requires one.
    #[error(
        "WS-Security: the message has no wsse:Security header, but the policy requires {required}"
    )]
    MissingSecurityHeader {
        /// What the policy requires, e.g. `"a Timestamp"`.
        required: &'static str,
    },
    /// More than one `wsse:Security` header block for this recipient (WSS 1.1 §5: at most one
    /// without an `actor`/`role`).
    #[error("WS-Security: the message has more than one wsse:Security header")]
    DuplicateSecurityHeader,
    /// The response's Security header has no `wsu:Timestamp` although the policy requires one.
    #[error("WS-Security: the message's Security header has no wsu:Timestamp, but the policy requires one")]
    MissingTimestamp,
    /// More than one `wsu:Timestamp` in one Security header (WSS 1.1 §10: "MUST NOT" more than one).
    #[error("WS-Security: the message's Security header has more than one wsu:Timestamp")]
    DuplicateTimestamp,
    /// A `wsu:Timestamp` whose content breaks WSS 1.1 §10 (no or several `Created`, several
    /// `Expires`, an unknown child, `Expires` before `Created`).
    #[error("WS-Security: malformed wsu:Timestamp: {0}")]
    MalformedTimestamp(String),
    /// The response's Timestamp has expired: `Expires` plus the clock skew is before now.
    #[error("WS-Security: the message's Timestamp expired at {expires} (now {now}, clock skew {skew_secs} s)")]
    TimestampExpired {
        /// The `Expires` value, as UTC.
        expires: String,
        /// The local time of the check.
        now: String,
        /// The skew allowed, in seconds.
        skew_secs: u64,
    },
    /// The response's Timestamp was `Created` longer ago than the maximum age
    /// ([`WssConfig::max_timestamp_age`](crate::wss::WssConfig::max_timestamp_age), WSS4J's
    /// `timeStampTTL`), whatever its `Expires` says.
    #[error("WS-Security: the message's Timestamp was created at {created}, longer ago than the maximum age of {max_age_secs} s (now {now})")]
    TimestampTooOld {
        /// The `Created` value, as UTC.
        created: String,
        /// The local time of the check.
        now: String,
        /// The maximum age, in seconds.
        max_age_secs: u64,
    },
    /// The response's Timestamp was `Created` further in the future than the clock skew allows.
    #[error("WS-Security: the message's Timestamp is created in the future, at {created} (now {now}, clock skew {skew_secs} s)")]
    TimestampInFuture {
        /// The `Created` value, as UTC.
        created: String,
        /// The local time of the check.
        now: String,
        /// The skew allowed, in seconds.
        skew_secs: u64,
    },
    /// The response is not XML that the Security header can be read from.
    #[error("WS-Security: cannot read the message's Security header: {0}")]
    Read(String),
    /// A document that cannot be canonicalized (Exclusive XML Canonicalization 1.0): not
    /// well-formed, a DOCTYPE, an undefined entity or prefix, no element at the given offset.
    #[error("WS-Security: cannot canonicalize: {0}")]
    Canonicalization(String),
    /// A certificate that cannot be used (RFC 5280): not PEM or DER, not an X.509 certificate, a
    /// malformed extension, not an RSA key.
    #[error("WS-Security: certificate {name}: {reason}")]
    Certificate {
        /// Where it came from (file name, PEM block number or subject), for the message.
        name: String,
        /// What is wrong with it (the extension named, if one is).
        reason: String,
    },
    /// A private key that cannot be used: not PEM or DER PKCS#8 / PKCS#1, not RSA, too short
    /// (below 2048 bits), or not the key of the certificate it comes with; or a PKCS#12 store
    /// (RFC 7292) that is not one, does not open with the password, or holds no usable key.
    #[error("WS-Security: private key {name}: {reason}")]
    Key {
        /// Where it came from, for the message.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Signing failed in the cryptographic library.
    #[error("WS-Security: signing failed")]
    Sign,
    /// Encrypting failed (XML-Enc §4): a key of the wrong length for its algorithm, a key too
    /// long for the recipient's RSA modulus, or a failure in the cryptographic library.
    #[error("WS-Security: encryption failed")]
    Encryption,
    /// Decrypting failed (XML-Enc §4.2), for whatever reason: the message deliberately does not
    /// say which (wrong key, bad padding, authentication tag mismatch, truncated data), so that it
    /// cannot serve as a padding or Bleichenbacher oracle.
    #[error("WS-Security: decryption failed")]
    DecryptionFailed,
    /// A response's security elements break the structure WSS 1.1, XML-DSig or XML-Enc require
    /// (a `ds:Signature` without `SignedInfo`, a Reference that is not a same-document `#Id`, …).
    #[error("WS-Security: malformed {path}: {reason}")]
    Malformed {
        /// The element path in the response, e.g. `/Envelope/Header/Security/Signature`.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// Two elements of a response carry the same Id (`wsu:Id`, `Id` or `xml:id`): a Reference
    /// could be made to point at either, the signature-wrapping set-up (WSS 1.1 §4).
    #[error("WS-Security: the Id {0:?} is carried by more than one element (refused: signature wrapping)")]
    DuplicateId(String),
    /// An algorithm the inbound policy does not allow ([`AlgorithmPolicy`](crate::wss::AlgorithmPolicy)),
    /// or a parameter that weakens one (an `HMACOutputLength`, XML-DSig Errata E03).
    #[error("WS-Security: {role} {uri} is not allowed by the policy")]
    AlgorithmNotAllowed {
        /// Which algorithm: `"SignatureMethod"`, `"DigestMethod"`, `"Transform"`, ….
        role: &'static str,
        /// Its URI (or what was refused about it).
        uri: String,
    },
    /// A signature that does not verify: a Reference whose digest differs, a Reference to no
    /// element, a SignatureValue that the signer's key does not verify (XML-DSig §3.2).
    #[error("WS-Security: invalid signature: {0}")]
    InvalidSignature(String),
    /// A signer's RSA key shorter than the inbound policy's minimum
    /// ([`WssConfig::min_rsa_key_bits`](crate::wss::WssConfig::min_rsa_key_bits), default 2048 bits as
    /// NIST SP 800-131A; XML-DSig §6.4.2 RSA), or too short for its SignatureMethod (RSA-SHA384
    /// needs 2048 bits).
    #[error("WS-Security: the signer {subject} has a {bits}-bit RSA key, shorter than the minimum of {minimum} bits")]
    WeakKey {
        /// The signer certificate's subject.
        subject: String,
        /// The size of its RSA modulus.
        bits: usize,
        /// The minimum it fell short of.
        minimum: usize,
    },
    /// The signer's certificate is not trusted by the [`TrustStore`](crate::wss::TrustStore).
    #[error("WS-Security: certificate {subject} is not trusted: {reason}")]
    UntrustedCertificate {
        /// The certificate's subject.
        subject: String,
        /// Why: expired, not yet valid, no path to an anchor, a bad signature on the path.
        reason: String,
    },
    /// The signer's subject matches none of the trust store's subject patterns
    /// ([`TrustStore::subject_pattern`](crate::wss::TrustStore::subject_pattern); WSS4J's
    /// `sigSubjectCertConstraints`).
    #[error("WS-Security: the signer {subject} is not allowed: its subject matches none of the patterns {patterns:?}")]
    SubjectNotAllowed {
        /// The signer's subject, RFC 4514 form.
        subject: String,
        /// The patterns, as given.
        patterns: Vec<String>,
    },
    /// The signer's keyUsage extension allows neither digitalSignature nor nonRepudiation (RFC
    /// 5280 §4.2.1.3); [`TrustStore::check_key_usage`](crate::wss::TrustStore::check_key_usage)
    /// turns the check off.
    #[error("WS-Security: the signer {subject} may not sign: its keyUsage is {key_usage:?}, without digitalSignature or nonRepudiation (TrustStore::check_key_usage(false) accepts it)")]
    KeyUsageNotAllowed {
        /// The signer certificate's subject.
        subject: String,
        /// The keyUsage bits it has, by their RFC 5280 names.
        key_usage: Vec<String>,
    },
    /// The signer's extendedKeyUsage extension names no purpose a message signer may have (RFC
    /// 5280 §4.2.1.12; see [`TrustStore`](crate::wss::TrustStore));
    /// [`TrustStore::check_key_usage`](crate::wss::TrustStore::check_key_usage) turns the check off.
    #[error("WS-Security: the signer {subject} may not sign messages: its extendedKeyUsage is {purposes:?} (TrustStore::check_key_usage(false) accepts it)")]
    ExtendedKeyUsageNotAllowed {
        /// The signer certificate's subject.
        subject: String,
        /// The purposes it has (RFC 5280 names, or dotted OIDs).
        purposes: Vec<String>,
    },
    /// A subject pattern given to [`TrustStore::subject_pattern`](crate::wss::TrustStore::subject_pattern)
    /// that is not a regular expression.
    #[error("WS-Security: the subject pattern {pattern:?} is not a regular expression: {reason}")]
    InvalidPattern {
        /// The pattern.
        pattern: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The response lacks a header block or an element the policy requires present
    /// (WS-SecurityPolicy 1.2 §4.3.1 `sp:RequiredElements`, §4.3.2 `sp:RequiredParts`).
    #[error("WS-Security: the message has no {part}, which the policy requires ({assertion})")]
    MissingRequired {
        /// `"sp:RequiredParts"` or `"sp:RequiredElements"`.
        assertion: &'static str,
        /// The header block `{namespace}name`, or the element path as the policy wrote it.
        part: String,
    },
    /// The response's signature names its key otherwise than the policy requires (X.509 Token
    /// Profile 1.1 §3.2; WS-SecurityPolicy 1.2 §5.4.3 `sp:RequireIssuerSerialReference`,
    /// `sp:RequireThumbprintReference`, `sp:RequireKeyIdentifierReference`, and `sp:IncludeToken`
    /// `Never`: no BinarySecurityToken).
    #[error("WS-Security: the message's signature names its key by {found}, but the policy allows only {} (at {at})", allowed.join(", "))]
    KeyReference {
        /// How the signature's KeyInfo names the key: the name of the `wss::KeyReference` form
        /// (`"DirectReference"`, `"SubjectKeyIdentifier"`, `"ThumbprintSha1"`,
        /// `"X509IssuerSerial"`).
        found: &'static str,
        /// The forms the policy allows, named the same way.
        allowed: Vec<&'static str>,
        /// The signature: its path, line and column.
        at: String,
    },
    /// A signature whose key cannot be trusted at all, whatever the trust store holds: a key given
    /// as a bare `ds:KeyValue`, a KeyIdentifier naming no known certificate, a reference soapgen
    /// cannot resolve.
    #[error("WS-Security: the signing key cannot be trusted: {0}")]
    UntrustedKey(String),
    /// A part the policy requires signed (by a trusted signer) is not.
    #[error("WS-Security: the message's {part} is not signed by a trusted signature, but the policy requires it{detail}")]
    NotSigned {
        /// `"Body"`, `"Timestamp"`, or a header block's `{namespace}name`.
        part: String,
        /// More on why, starting with `" ("`, or empty.
        detail: String,
    },
    /// A part the policy requires encrypted is not.
    #[error("WS-Security: the message's {0} is not encrypted, but the policy requires it")]
    NotEncrypted(String),
    /// A response's Security header whose children are not in the order its layout requires
    /// ([`WssConfig::layout`](crate::wss::WssConfig::layout), WS-SecurityPolicy 1.2 §7.7): a
    /// token after the signature or EncryptedKey that uses it, a signed element of the header
    /// after the signature that covers it, an EncryptedKey after the ReferenceList that needs it
    /// (`Strict`, §7.7.1), the Timestamp not first (`LaxTsFirst`, §7.7.3) or not last
    /// (`LaxTsLast`, §7.7.4).
    #[error("WS-Security: the message's Security header breaks the {layout} layout (WS-SecurityPolicy 1.2 §7.7): {rule} (at {element})")]
    Layout {
        /// The layout: `"Strict"`, `"LaxTsFirst"` or `"LaxTsLast"`.
        layout: &'static str,
        /// The rule broken.
        rule: &'static str,
        /// The element that breaks it: its path, line and column.
        element: String,
    },
    /// A signature with more References than the policy's limit (denial of service by digest
    /// work).
    #[error("WS-Security: a signature has {count} References, more than the limit of {limit}")]
    TooManyReferences {
        /// How many the signature had (counted up to the limit plus one).
        count: usize,
        /// The limit ([`WssConfig::max_signature_references`](crate::wss::WssConfig::max_signature_references)).
        limit: usize,
    },
    /// The response does not confirm every signature of the request (WSS 1.1 §8.5, with
    /// [`WssConfig::signature_confirmation`](crate::wss::WssConfig::signature_confirmation) on): one
    /// `wsse11:SignatureConfirmation` per request `ds:SignatureValue` is required.
    #[error("WS-Security: the response has no wsse11:SignatureConfirmation for {unconfirmed} of the request's {sent} signature(s) (WSS 1.1 §8.5)")]
    MissingSignatureConfirmation {
        /// How many request signatures no confirmation names.
        unconfirmed: usize,
        /// How many signatures the request carried.
        sent: usize,
    },
    /// A `wsse11:SignatureConfirmation` whose `Value` is not a SignatureValue of the request (or
    /// is missing although the request was signed, or is present although it was not; WSS 1.1
    /// §8.5), or that is malformed; the detail says which.
    #[error("WS-Security: wrong wsse11:SignatureConfirmation (WSS 1.1 §8.5): {0}")]
    SignatureConfirmationMismatch(String),
    /// A `wsse11:SignatureConfirmation` not covered by a verified, trusted signature of the
    /// response (WSS 1.1 §8.5: it "MUST be included in the message signature").
    #[error("WS-Security: the response's wsse11:SignatureConfirmation{0} is not signed by a trusted signature (WSS 1.1 §8.5)")]
    UnsignedSignatureConfirmation(String),
    /// A response seen before within its validity window: a repeated signature value or UsernameToken
    /// Nonce (WSS UsernameToken Profile 1.1 §3.1 "replay").
    #[error("WS-Security: replayed message: the same {0} was accepted before")]
    Replay(&'static str),
    /// A response's UsernameToken does not match what the policy expects.
    #[error("WS-Security: UsernameToken refused: {0}")]
    UsernameToken(String),
    /// No WS-SecureConversation security context: the token request (WS-SecureConversation 1.3
    /// §4) a concurrent call made while this one waited for it failed, as the text says (that
    /// call got the failure itself). Not retried at once, so that a burst of calls makes one
    /// failed request, not one each (a locked account, a server that does not answer).
    #[error(
        "WS-SecureConversation: no security context: the token request of a concurrent call failed: {0}"
    )]
    ContextNotEstablished(String),
    /// A port's WS-SecurityPolicy needs a credential that was not given
    /// ([`Credentials`](crate::policy::Credentials)): the first one, and in `also` every other
    /// one the policy needs and the Credentials lack, so that one build names them all.
    #[error("WS-SecurityPolicy of port {port} needs what the Credentials do not give: {assertion} needs {credential}{}", also_text(.also))]
    MissingCredential {
        /// The port.
        port: String,
        /// The assertion that needs it (`sp:InitiatorToken`…).
        assertion: &'static str,
        /// What is missing, in words.
        credential: &'static str,
        /// The other (assertion, credential) pairs missing, in the order the policy is applied;
        /// empty when one is.
        also: Vec<(&'static str, &'static str)>,
    },
    /// A port's `sp:TransportBinding` needs HTTPS; the endpoint is not (WS-SecurityPolicy 1.2
    /// §7.3).
    #[error("WS-SecurityPolicy of port {port}: sp:TransportBinding needs an https endpoint, not {endpoint}")]
    HttpsRequired {
        /// The port.
        port: String,
        /// The endpoint given.
        endpoint: String,
    },
    /// A response that falls short of the port's WS-SecurityPolicy: the assertion it does not
    /// meet, and what the check found.
    #[error("the response does not meet {assertion} of the port's WS-SecurityPolicy: {cause}")]
    PolicyNotMet {
        /// The assertion (`sp:IncludeTimestamp`, `sp:SignedParts`…).
        assertion: &'static str,
        /// What the check found.
        cause: Box<WssError>,
    },
}

impl From<WssError> for crate::EncodeError {
    fn from(e: WssError) -> Self {
        crate::EncodeError {
            message: e.to_string(),
        }
    }
}

impl From<crate::EncodeError> for WssError {
    fn from(e: crate::EncodeError) -> Self {
        WssError::Encode(e.message)
    }
}

/// The other missing credentials of [`WssError::MissingCredential`], as the message says them.
fn also_text(also: &[(&'static str, &'static str)]) -> String {
    also.iter()
        .map(|(assertion, credential)| format!("; {assertion} needs {credential}"))
        .collect()
}
