//! XML Signature (XML-DSig, W3C 2008 Second Edition) of the outgoing Body and Timestamp, as WSS
//! 1.1 §8 uses it, with the signer's certificate in a BinarySecurityToken (X.509 Token Profile
//! 1.1 §3.1) referenced by a SecurityTokenReference DirectReference (WSS 1.1 §7.2).

use super::{exclusive_c14n, WssError, X509Credential};

/// `http://www.w3.org/2001/10/xml-exc-c14n#`: Exclusive XML Canonicalization 1.0, without
/// comments — the CanonicalizationMethod and the Reference transform (WSS 1.1 §8.1).
pub const EXC_C14N: &str = "http://www.w3.org/2001/10/xml-exc-c14n#";
/// The XML-DSig namespace (XML-DSig §4).
pub const DS_NS: &str = "http://www.w3.org/2000/09/xmldsig#";
/// `ValueType` of an X.509 v3 BinarySecurityToken (X.509 Token Profile 1.1 §3.1).
pub const X509V3: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509v3";

/// The DigestMethod of each Reference (XML-DSig §6.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DigestAlgorithm {
    /// SHA-1, `http://www.w3.org/2000/09/xmldsig#sha1` (XML-DSig §6.2.1), for old peers.
    Sha1,
    /// SHA-256, `http://www.w3.org/2001/04/xmlenc#sha256` (XML-Enc §5.7.2). The default.
    #[default]
    Sha256,
    /// SHA-512, `http://www.w3.org/2001/04/xmlenc#sha512` (XML-Enc §5.7.4), as the
    /// WS-SecurityPolicy suites with SHA-512 digests name it (CXF's `Basic128RsaSha512`).
    Sha512,
}

impl DigestAlgorithm {
    /// The algorithm URI.
    pub const fn uri(self) -> &'static str {
        match self {
            DigestAlgorithm::Sha1 => "http://www.w3.org/2000/09/xmldsig#sha1",
            DigestAlgorithm::Sha256 => "http://www.w3.org/2001/04/xmlenc#sha256",
            DigestAlgorithm::Sha512 => "http://www.w3.org/2001/04/xmlenc#sha512",
        }
    }

    /// The digest of `data` (20, 32 or 64 bytes).
    pub fn digest(self, data: &[u8]) -> Vec<u8> {
        let alg = match self {
            DigestAlgorithm::Sha1 => &aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY,
            DigestAlgorithm::Sha256 => &aws_lc_rs::digest::SHA256,
            DigestAlgorithm::Sha512 => &aws_lc_rs::digest::SHA512,
        };
        aws_lc_rs::digest::digest(alg, data).as_ref().to_vec()
    }
}

/// `ValueType` of a KeyIdentifier holding a certificate's SubjectKeyIdentifier (X.509 Token
/// Profile 1.1 §3.2.1).
pub const X509_SKI: &str = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509SubjectKeyIdentifier";
/// `ValueType` of a KeyIdentifier holding the SHA-1 of a certificate's DER (WSS 1.1 §7.3, X.509
/// Token Profile 1.1 §3.2.1 `ThumbprintSHA1`).
pub const THUMBPRINT_SHA1: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#ThumbprintSHA1";

/// How `ds:KeyInfo` points at the signer's certificate (WSS 1.1 §7, X.509 Token Profile 1.1 §3.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum KeyReference {
    /// The certificate travels in a `wsse:BinarySecurityToken` that a `wsse:Reference URI="#…"`
    /// points at (WSS 1.1 §7.2). The default: the recipient needs only the issuing CA.
    #[default]
    DirectReference,
    /// `wsse:KeyIdentifier` with the certificate's SubjectKeyIdentifier (X.509 Token Profile 1.1
    /// §3.2.1); the certificate is not sent, the recipient must already hold it.
    SubjectKeyIdentifier,
    /// `wsse:KeyIdentifier` with the SHA-1 thumbprint of the certificate (WSS 1.1 §7.3); the
    /// certificate is not sent.
    ThumbprintSha1,
    /// `ds:X509Data/ds:X509IssuerSerial` in the SecurityTokenReference (X.509 Token Profile 1.1
    /// §3.2.2, XML-DSig §4.4.4): the issuer's distinguished name as an RFC 4514 string
    /// ([`Certificate::issuer_rfc4514`](super::Certificate::issuer_rfc4514)) and the serial
    /// number in decimal; the certificate is not sent.
    X509IssuerSerial,
}

impl KeyReference {
    /// The form's name, as written above (`"DirectReference"`, `"SubjectKeyIdentifier"`,
    /// `"ThumbprintSha1"`, `"X509IssuerSerial"`).
    pub const fn name(self) -> &'static str {
        match self {
            KeyReference::DirectReference => "DirectReference",
            KeyReference::SubjectKeyIdentifier => "SubjectKeyIdentifier",
            KeyReference::ThumbprintSha1 => "ThumbprintSha1",
            KeyReference::X509IssuerSerial => "X509IssuerSerial",
        }
    }
}

/// The SignatureMethod (XML-DSig §6.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SignatureAlgorithm {
    /// RSASSA-PKCS1-v1_5 with SHA-256, `http://www.w3.org/2001/04/xmldsig-more#rsa-sha256`
    /// (RFC 6931 §2.3.2). The default for an RSA key.
    #[default]
    RsaSha256,
    /// RSASSA-PKCS1-v1_5 with SHA-1, `http://www.w3.org/2000/09/xmldsig#rsa-sha1` (XML-DSig
    /// §6.4.2), for old peers only: SHA-1 is broken for collisions (chosen-prefix collisions
    /// are practical), so a signer that lets others choose signed content is at risk.
    RsaSha1,
    /// RSASSA-PKCS1-v1_5 with SHA-512, `http://www.w3.org/2001/04/xmldsig-more#rsa-sha512`
    /// (RFC 6931 §2.3.2).
    RsaSha512,
    /// RSASSA-PSS with SHA-256, MGF1 with SHA-256, a 32-byte salt and trailer field 1,
    /// `http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1` (RFC 6931 §2.3.11, RFC 9231
    /// §2.3, RFC 8017 §8.1). An RSA key of at least 2048 bits.
    RsaPssSha256,
    /// RSASSA-PSS with SHA-384 (MGF1-SHA-384, 48-byte salt),
    /// `http://www.w3.org/2007/05/xmldsig-more#sha384-rsa-MGF1` (RFC 6931 §2.3.11).
    RsaPssSha384,
    /// RSASSA-PSS with SHA-512 (MGF1-SHA-512, 64-byte salt),
    /// `http://www.w3.org/2007/05/xmldsig-more#sha512-rsa-MGF1` (RFC 6931 §2.3.11).
    RsaPssSha512,
    /// ECDSA on P-256 with SHA-256, `http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256`
    /// (RFC 6931 §2.3.6); the SignatureValue is `r || s`, 64 bytes (XML-DSig 1.1 §6.4.3). The
    /// default for a P-256 key.
    EcdsaSha256,
    /// ECDSA on P-384 with SHA-384, `http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384`
    /// (RFC 6931 §2.3.6); `r || s`, 96 bytes. The default for a P-384 key.
    EcdsaSha384,
    /// ECDSA on P-521 with SHA-512, `http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512`
    /// (RFC 6931 §2.3.6); `r || s`, 132 bytes. The default for a P-521 key.
    EcdsaSha512,
}

impl SignatureAlgorithm {
    /// The algorithm URI.
    pub const fn uri(self) -> &'static str {
        match self {
            SignatureAlgorithm::RsaSha256 => "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
            SignatureAlgorithm::RsaSha1 => "http://www.w3.org/2000/09/xmldsig#rsa-sha1",
            SignatureAlgorithm::RsaSha512 => "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
            SignatureAlgorithm::RsaPssSha256 => {
                "http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1"
            }
            SignatureAlgorithm::RsaPssSha384 => {
                "http://www.w3.org/2007/05/xmldsig-more#sha384-rsa-MGF1"
            }
            SignatureAlgorithm::RsaPssSha512 => {
                "http://www.w3.org/2007/05/xmldsig-more#sha512-rsa-MGF1"
            }
            SignatureAlgorithm::EcdsaSha256 => {
                "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256"
            }
            SignatureAlgorithm::EcdsaSha384 => {
                "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384"
            }
            SignatureAlgorithm::EcdsaSha512 => {
                "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512"
            }
        }
    }

    /// Whether this is an ECDSA method (an EC key signs with it, not an RSA key).
    pub const fn is_ecdsa(self) -> bool {
        matches!(
            self,
            SignatureAlgorithm::EcdsaSha256
                | SignatureAlgorithm::EcdsaSha384
                | SignatureAlgorithm::EcdsaSha512
        )
    }
}

/// How a client signs its requests (WSS 1.1 §8): with an [`X509Credential`], the Body and — when
/// the client sends one — the Timestamp, each a `ds:Reference` by `wsu:Id` with the exclusive
/// C14N transform; SignedInfo canonicalized with exclusive C14N; by default the certificate sent as
/// a `wsse:BinarySecurityToken` and referenced from `ds:KeyInfo` by a
/// `wsse:SecurityTokenReference` with a `wsse:Reference` (DirectReference, WSS 1.1 §7.2), or
/// identified by a KeyIdentifier ([`key_reference`](Self::key_reference)).
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::wss::{DigestAlgorithm, WssConfig, X509Credential, X509Signer};
/// let cred = X509Credential::from_pem(
///     &std::fs::read("client.pem")?,
///     &std::fs::read("client.key")?,
/// )?;
/// let wss = WssConfig::new()
///     .timestamp(std::time::Duration::from_secs(300))
///     .sign(X509Signer::new(cred).digest(DigestAlgorithm::Sha256));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct X509Signer {
    pub(crate) credential: X509Credential,
    pub(crate) signature: SignatureAlgorithm,
    pub(crate) digest: DigestAlgorithm,
    pub(crate) key_reference: KeyReference,
    /// Header blocks signed besides the Body and Timestamp: (namespace, local name).
    pub(crate) headers: Vec<(String, String)>,
    /// Header blocks signed when the request has them ([`X509Signer::sign_header_if_present`]).
    pub(crate) optional_headers: Vec<(String, String)>,
    /// Elements signed when the request has them ([`X509Signer::sign_element_if_present`]).
    pub(crate) signed_elements: Vec<super::ElementPath>,
    /// Whether the signature also covers the BinarySecurityToken of the signer's certificate
    /// (WS-SecurityPolicy 1.2 §6.5 `sp:ProtectTokens`).
    pub(crate) protect_token: bool,
    /// Whether the signature also covers the UsernameToken (WS-SecurityPolicy 1.2 §8.2
    /// `sp:SignedSupportingTokens`).
    pub(crate) sign_username_token: bool,
    /// The certificates that issued the signer's, from its issuer toward the trust anchor, when
    /// its token is a PKIPath (X.509 Token Profile 1.1 §3.1).
    pub(crate) pki_path: Option<Vec<super::Certificate>>,
    /// Whether, and how, the request's SwA attachments are signed.
    pub(crate) attachments: Option<super::AttachmentCoverage>,
}

impl X509Signer {
    /// Signs with `credential` and SHA-256 digests: RSA-SHA256 for an RSA key, ECDSA with the
    /// hash of the curve's size for an EC key
    /// ([`X509Credential::default_signature_algorithm`]).
    pub fn new(credential: X509Credential) -> Self {
        X509Signer {
            signature: credential.default_signature_algorithm(),
            credential,
            digest: DigestAlgorithm::default(),
            key_reference: KeyReference::default(),
            headers: Vec::new(),
            optional_headers: Vec::new(),
            signed_elements: Vec::new(),
            protect_token: false,
            sign_username_token: false,
            pki_path: None,
            attachments: None,
        }
    }

    /// Also signs every SwA attachment of the request (WSS SwA Profile 1.1 §5.3; WS-SecurityPolicy
    /// 1.2 §4.1.1 `sp:SignedParts/sp:Attachments`): one Reference per attachment, `cid:` and its
    /// Content-ID, with the transform `coverage` names, after every Reference into the envelope.
    /// The digest is of the attachment as sent when the Body is encrypted first
    /// ([`EncryptionOrder::EncryptThenSign`](super::EncryptionOrder)), of its plaintext otherwise.
    /// A request without attachments signs none; one with MTOM attachments fails with
    /// [`WssError::Encode`].
    pub fn sign_attachments(mut self, coverage: super::AttachmentCoverage) -> Self {
        self.attachments = Some(coverage);
        self
    }

    /// Also signs every header block `{namespace}local_name` of the request (WS-Addressing's
    /// `To`, `Action`, `MessageID`, a custom header…), each referenced by its `wsu:Id` (one is
    /// added to a block that has none, WSS 1.1 §4) with the exclusive C14N transform, after the
    /// Timestamp and before the Body in SignedInfo. A request without such a header block is an
    /// error ([`WssError::Encode`]), not a request signed less than asked.
    pub fn sign_header(mut self, namespace: &str, local_name: &str) -> Self {
        self.headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Also signs every header block `{namespace}local_name` the request has, as
    /// [`sign_header`](Self::sign_header) does, and nothing when it has none: a header a
    /// WS-SecurityPolicy `sp:SignedParts/sp:Header` names is protected when it is in the message
    /// (WS-SecurityPolicy 1.2 §5.1.1).
    /// An empty local name names every block of the namespace (an `sp:Header` without `Name`).
    pub fn sign_header_if_present(mut self, namespace: &str, local_name: &str) -> Self {
        self.optional_headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Also signs every element of the request `path` names, and nothing when it names none
    /// (WS-SecurityPolicy 1.2 §4.1.2 `sp:SignedElements`): each referenced by its `wsu:Id` (one
    /// is added to an element that has none, WSS 1.1 §4), before the Body in SignedInfo.
    pub fn sign_element_if_present(mut self, path: super::ElementPath) -> Self {
        self.signed_elements.push(path);
        self
    }

    /// Also signs the WS-Addressing request headers of `version` (`wsa:Action`, `wsa:MessageID`,
    /// `wsa:ReplyTo`, `wsa:To`, as [`crate::addressing`] writes them): [`sign_header`] for
    /// each, as WS-Addressing 1.0 SOAP Binding §7 (Security Considerations) advises. Requests must
    /// then be addressed (else [`WssError::Encode`] names the missing block).
    ///
    /// [`sign_header`]: Self::sign_header
    pub fn sign_addressing(mut self, version: crate::addressing::AddressingVersion) -> Self {
        for local in crate::addressing::AddressingVersion::REQUEST_HEADERS {
            self = self.sign_header(version.namespace(), local);
        }
        self
    }

    /// How KeyInfo refers to the certificate (default [`KeyReference::DirectReference`]).
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] for [`KeyReference::SubjectKeyIdentifier`] when the certificate
    /// has no SubjectKeyIdentifier extension (RFC 5280 §4.2.1.2).
    pub fn key_reference(mut self, reference: KeyReference) -> Result<Self, WssError> {
        if reference == KeyReference::SubjectKeyIdentifier
            && self
                .credential
                .certificate()
                .subject_key_identifier()
                .is_none()
        {
            return Err(WssError::Certificate {
                name: self.credential.certificate().subject().to_owned(),
                reason: "no SubjectKeyIdentifier extension (2.5.29.14) to refer to it by"
                    .to_owned(),
            });
        }
        self.key_reference = reference;
        Ok(self)
    }

    /// Also signs the token of the signature (WS-SecurityPolicy 1.2 §6.5 `sp:ProtectTokens`):
    /// one more Reference, after the Timestamp's, to the `wsse:BinarySecurityToken` carrying the
    /// certificate, by its `wsu:Id`, with the exclusive C14N transform. Default `false`. It also
    /// makes the inbound policy require responses whose signature covers its own token
    /// ([`WssConfig::require_protected_token`](super::WssConfig::require_protected_token)).
    ///
    /// Only a token in the message can be covered so: with another
    /// [`key_reference`](Self::key_reference) than [`KeyReference::DirectReference`] every
    /// request fails with [`WssError::Encode`].
    pub fn protect_token(mut self, on: bool) -> Self {
        self.protect_token = on;
        self
    }

    /// Also signs the request's `wsse:UsernameToken` (WS-SecurityPolicy 1.2 §8.2
    /// `sp:SignedSupportingTokens`; with
    /// [`X509Encryptor::encrypt_username_token`](super::X509Encryptor::encrypt_username_token),
    /// §8.5 `sp:SignedEncryptedSupportingTokens`, the plaintext token is signed, then encrypted):
    /// one more Reference, to the token's `wsu:Id`, with the exclusive C14N transform. Default
    /// `false`. A request without a UsernameToken
    /// ([`WssConfig::username_token`](super::WssConfig::username_token)), or whose encrypted
    /// token follows the Signature ([`EncryptionOrder::EncryptThenSign`](super::EncryptionOrder)),
    /// fails with [`WssError::Encode`].
    pub fn sign_username_token(mut self, on: bool) -> Self {
        self.sign_username_token = on;
        self
    }

    /// Whether the signature covers the UsernameToken
    /// ([`sign_username_token`](Self::sign_username_token)).
    pub fn signs_username_token(&self) -> bool {
        self.sign_username_token
    }

    /// Sends the signer's certificate path instead of its certificate alone (X.509 Token Profile
    /// 1.1 §3.1; WS-SecurityPolicy 1.2 §5.4.3 `sp:WssX509PkiPathV1Token11`): the
    /// `wsse:BinarySecurityToken` has `ValueType` [`X509_PKIPATH`](super::X509_PKIPATH) and holds
    /// a DER `PkiPath` (`SEQUENCE OF Certificate`) of `issuers` — the certificates that issued the
    /// signer's, from its issuer up toward the trust anchor, as a recipient needs them to build
    /// the path — written anchor-most first and the signer's certificate last; the KeyInfo's
    /// DirectReference carries the same ValueType. `issuers` may be empty (the path is then the
    /// certificate alone). Sets the key reference to [`KeyReference::DirectReference`]; a later
    /// [`key_reference`](Self::key_reference) to another form sends no token at all.
    pub fn pki_path(mut self, issuers: Vec<super::Certificate>) -> Self {
        self.pki_path = Some(issuers);
        self.key_reference = KeyReference::DirectReference;
        self
    }

    /// Whether the signature covers its own token ([`protect_token`](Self::protect_token)).
    pub fn protects_token(&self) -> bool {
        self.protect_token
    }

    /// The SignatureMethod (default: RSA-SHA256 for an RSA key, the ECDSA method of the curve
    /// for an EC key). One the key cannot sign with ([`X509Credential::can_sign_with`]) makes
    /// every request fail with [`WssError::Key`] naming both.
    pub fn signature_algorithm(mut self, alg: SignatureAlgorithm) -> Self {
        self.signature = alg;
        self
    }

    /// The DigestMethod of the References (default SHA-256).
    pub fn digest(mut self, alg: DigestAlgorithm) -> Self {
        self.digest = alg;
        self
    }

    /// The credential signed with.
    pub fn credential(&self) -> &X509Credential {
        &self.credential
    }

    /// The `ds:DigestValue` of a Reference to the element at byte `apex` of `document`:
    /// base64 of the digest of its exclusive canonical form.
    pub(crate) fn reference_digest(
        &self,
        document: &str,
        apex: usize,
        scratch: &mut Vec<u8>,
    ) -> Result<String, WssError> {
        scratch.clear();
        exclusive_c14n(document, apex, &[], scratch)?;
        Ok(super::base64(&self.digest.digest(scratch)))
    }

    /// The `ds:SignatureValue` over the canonical SignedInfo, raw bytes (XML-DSig §4.3).
    pub(crate) fn sign_raw(&self, canonical_signed_info: &[u8]) -> Result<Vec<u8>, WssError> {
        self.credential.sign(self.signature, canonical_signed_info)
    }
}
