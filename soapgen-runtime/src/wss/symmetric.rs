//! WS-SecurityPolicy 1.2 §7.4 SymmetricBinding with an X.509 ProtectionToken: the client makes a
//! key per request, sends it wrapped for the service's certificate in an `xenc:EncryptedKey`
//! (WSS 1.1 §9.4), and signs (HMAC-SHA1, XML-DSig §6.3) and encrypts with it, or with keys derived
//! from it (WS-SecureConversation `wsc:DerivedKeyToken`, P_SHA-1); the service answers under the
//! same key, which it names by the `#EncryptedKeySHA1` of that EncryptedKey (WSS 1.1 §7.3).

use super::encrypt::EncryptionOrder;
use super::sign::{DigestAlgorithm, KeyReference};
use super::xmlenc::{BlockEncryption, KeyTransport};
use super::{Certificate, ElementPath, WssError};

/// `http://www.w3.org/2000/09/xmldsig#hmac-sha1`: the symmetric SignatureMethod of every
/// WS-SecurityPolicy 1.2 algorithm suite (§6.1, XML-DSig §6.3.1).
pub const HMAC_SHA1: &str = "http://www.w3.org/2000/09/xmldsig#hmac-sha1";

/// The WS-SecureConversation 1.3 namespace (`wsc`, OASIS 2007) of `wsc:DerivedKeyToken`.
pub const WSC_13_NS: &str = "http://docs.oasis-open.org/ws-sx/ws-secureconversation/200512";

/// The WS-SecureConversation February 2005 namespace of `wsc:DerivedKeyToken`, as WS-SecurityPolicy
/// 1.1 peers write it.
pub const WSC_2005_NS: &str = "http://schemas.xmlsoap.org/ws/2005/02/sc";

/// The label P_SHA-1 mixes into a derived key when a DerivedKeyToken names none
/// (WS-SecureConversation 1.3 §7.3).
pub const DEFAULT_LABEL: &str = "WS-SecureConversationWS-SecureConversation";

/// Which WS-SecureConversation namespace a client's DerivedKeyTokens are written in (both are read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum SecureConversation {
    /// WS-SecureConversation 1.3 ([`WSC_13_NS`]), as WS-SecurityPolicy 1.2 and later write it.
    #[default]
    V13,
    /// The February 2005 submission ([`WSC_2005_NS`]), for WS-SecurityPolicy 1.1 peers.
    V2005,
}

impl SecureConversation {
    /// The namespace URI.
    pub const fn namespace(self) -> &'static str {
        match self {
            SecureConversation::V13 => WSC_13_NS,
            SecureConversation::V2005 => WSC_2005_NS,
        }
    }

    /// The `ValueType` of a SecurityTokenReference to a DerivedKeyToken of this version.
    pub const fn dk_value_type(self) -> &'static str {
        match self {
            SecureConversation::V13 => {
                "http://docs.oasis-open.org/ws-sx/ws-secureconversation/200512/dk"
            }
            SecureConversation::V2005 => "http://schemas.xmlsoap.org/ws/2005/02/sc/dk",
        }
    }
}

/// A SymmetricBinding whose ProtectionToken is the service's X.509 certificate
/// (WS-SecurityPolicy 1.2 §7.4, §5.4.3), given to [`WssConfig::symmetric`](super::WssConfig::symmetric).
///
/// Each request gets a fresh key of the [`block_encryption`](Self::block_encryption) size,
/// wrapped for the service's certificate with the [`key_transport`](Self::key_transport) algorithm
/// in an `xenc:EncryptedKey` whose KeyInfo names the certificate as
/// [`key_reference`](Self::key_reference) says (the certificate itself sent in a
/// BinarySecurityToken with [`KeyReference::DirectReference`], `sp:IncludeToken` AlwaysToRecipient).
/// The Timestamp and Body (and the token, with [`protect_tokens`](Self::protect_tokens)) are signed
/// with HMAC-SHA1 under that key, the Body content encrypted under it, in the
/// [`order`](Self::order) given; with [`derived_keys`](Self::derived_keys), under two keys derived
/// from it instead (`sp:RequireDerivedKeys`). Requests are laid out Strict (§7.7.1):
///
/// - sign, then encrypt: Timestamp, EncryptedKey (its ReferenceList names the Body's EncryptedData;
///   with derived keys, DerivedKeyTokens and a standalone ReferenceList after them), Signature;
/// - encrypt, then sign: Timestamp, EncryptedKey, DerivedKeyTokens, Signature (over the Body's
///   EncryptedData), then a standalone ReferenceList.
///
/// Endorsing signatures ([`WssConfig::endorse`](super::WssConfig::endorse), WS-SecurityPolicy
/// 1.2 §8.3) follow the Signature, each after its BinarySecurityToken, and sign it (and the Body
/// when they cover it): WCF's mutual-certificate message security. The token of a signed
/// endorsement ([`Endorsement::signed`](super::Endorsement::signed), §8.4) or an encrypted one
/// ([`Endorsement::encrypted`](super::Endorsement::encrypted), §8.7: under the request key, which
/// needs signing first) comes before the Signature instead, where the Signature covers it.
/// [`Layout::LaxTsLast`](super::Layout::LaxTsLast) is not supported with it: such a request
/// fails with [`WssError::Encode`].
///
/// The response must be signed with HMAC-SHA1 under that key or a key derived from it, named by
/// the `#EncryptedKeySHA1` of the request's EncryptedKey (WSS 1.1 §7.3), and its Body encrypted
/// likewise (when the request's was): a symmetric signature under any other key — one wrapped for
/// this client in the response, say — is refused ([`WssError::UntrustedKey`]). HMACs are compared
/// in constant time. The decryption key ([`WssConfig::decrypt_with`](super::WssConfig::decrypt_with))
/// is not needed.
///
/// Defaults are those of the Basic128 suite: AES-128-CBC, RSA-OAEP (MGF1-SHA1), SHA-1 digests, the
/// certificate named by its SubjectKeyIdentifier, sign then encrypt, no derived keys.
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::wss::{Certificate, KeyReference, SymmetricBinding, WssConfig};
/// let service = Certificate::from_pem(&std::fs::read("service.pem")?, "service.pem")?;
/// let wss = WssConfig::new()
///     .timestamp(std::time::Duration::from_secs(300))
///     .symmetric(SymmetricBinding::new(service).key_reference(KeyReference::ThumbprintSha1)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct SymmetricBinding {
    pub(crate) recipient: Certificate,
    pub(crate) key_reference: KeyReference,
    pub(crate) block: BlockEncryption,
    pub(crate) key_transport: KeyTransport,
    pub(crate) digest: DigestAlgorithm,
    pub(crate) order: EncryptionOrder,
    pub(crate) encrypt_body: bool,
    /// Whether the signature covers the Body (`sp:SignedParts` Body).
    pub(crate) sign_body: bool,
    pub(crate) derived: Option<SecureConversation>,
    pub(crate) protect_tokens: bool,
    /// Header blocks signed besides the Timestamp and Body: (namespace, local name).
    pub(crate) headers: Vec<(String, String)>,
    /// Header blocks signed when the request has them.
    pub(crate) optional_headers: Vec<(String, String)>,
    /// Whether the signature also covers the UsernameToken (`sp:SignedSupportingTokens`).
    pub(crate) sign_username_token: bool,
    /// Whether the Signature is encrypted once written (`sp:EncryptSignature`).
    pub(crate) encrypt_signature: bool,
    /// Header blocks encrypted when the request has them: (namespace, local name).
    pub(crate) encrypted_headers: Vec<(String, String)>,
    /// Whether the UsernameToken is encrypted (`sp:EncryptedSupportingTokens`).
    pub(crate) encrypt_username_token: bool,
    /// Elements signed when the request has them (`sp:SignedElements`).
    pub(crate) signed_elements: Vec<ElementPath>,
    /// Elements encrypted when the request has them (`sp:EncryptedElements`).
    pub(crate) encrypted_elements: Vec<ElementPath>,
    /// Whether, and how, SwA attachments are signed (`sp:SignedParts/sp:Attachments`).
    pub(crate) signed_attachments: Option<super::AttachmentCoverage>,
    /// Whether, and how, SwA attachments are encrypted (`sp:EncryptedParts/sp:Attachments`).
    pub(crate) encrypted_attachments: Option<super::AttachmentCoverage>,
    /// The WS-SecureConversation context that protects the requests instead of a fresh key
    /// wrapped for the recipient ([`SymmetricBinding::secure_conversation`]).
    pub(crate) context: Option<super::SecureConversationToken>,
}

impl SymmetricBinding {
    /// A SymmetricBinding protected by `service`'s certificate (its RSA key wraps each request's
    /// key), with the Basic128 defaults above.
    pub fn new(service: Certificate) -> Self {
        let key_reference = if service.subject_key_identifier().is_some() {
            KeyReference::SubjectKeyIdentifier
        } else {
            KeyReference::ThumbprintSha1
        };
        SymmetricBinding {
            recipient: service,
            key_reference,
            block: BlockEncryption::Aes128Cbc,
            key_transport: KeyTransport::RsaOaepMgf1Sha1,
            digest: DigestAlgorithm::Sha1,
            order: EncryptionOrder::SignThenEncrypt,
            encrypt_body: true,
            sign_body: true,
            derived: None,
            protect_tokens: false,
            headers: Vec::new(),
            optional_headers: Vec::new(),
            sign_username_token: false,
            encrypt_signature: false,
            encrypted_headers: Vec::new(),
            encrypt_username_token: false,
            signed_elements: Vec::new(),
            encrypted_elements: Vec::new(),
            signed_attachments: None,
            encrypted_attachments: None,
            context: None,
        }
    }

    /// A SymmetricBinding whose ProtectionToken is a WS-SecureConversation security context
    /// (WS-SecurityPolicy 1.2 §7.4 with an `sp:SecureConversationToken`, §5.4.7: WCF's
    /// `wsHttpBinding`): the context `token` describes is established with the service before
    /// the first call (under its bootstrap), its `wsc:SecurityContextToken` sent in each request
    /// in place of an EncryptedKey, and the request signed (HMAC-SHA1) and its Body encrypted
    /// under the context's key, or under keys derived from it
    /// ([`derived_keys`](Self::derived_keys)), each KeyInfo a SecurityTokenReference to the
    /// token (WS-SecureConversation 1.3 §8). The responses must be protected under that key too,
    /// named by the token's Identifier. `service` is the service's certificate: the identity
    /// responses signed under the context are reported as signed by (the service the context
    /// was established with). The other settings are those of [`new`](Self::new).
    pub fn secure_conversation(
        service: Certificate,
        token: super::SecureConversationToken,
    ) -> Self {
        SymmetricBinding {
            context: Some(token),
            ..SymmetricBinding::new(service)
        }
    }

    /// The security context that protects the requests, if any
    /// ([`secure_conversation`](Self::secure_conversation)).
    pub fn context_token(&self) -> Option<&super::SecureConversationToken> {
        self.context.as_ref()
    }

    /// Also signs every SwA attachment of the request (WSS SwA Profile 1.1 §5.3,
    /// WS-SecurityPolicy 1.2 §4.1.1 `sp:SignedParts/sp:Attachments`), as
    /// [`X509Signer::sign_attachments`](super::X509Signer::sign_attachments) does, with the
    /// HMAC signature.
    pub fn sign_attachments(mut self, coverage: super::AttachmentCoverage) -> Self {
        self.signed_attachments = Some(coverage);
        self
    }

    /// Also encrypts every SwA attachment of the request under the request key (or the key
    /// derived for encryption), as
    /// [`X509Encryptor::encrypt_attachments`](super::X509Encryptor::encrypt_attachments) does
    /// (WSS SwA Profile 1.1 §5.5, `sp:EncryptedParts/sp:Attachments`).
    pub fn encrypt_attachments(mut self, coverage: super::AttachmentCoverage) -> Self {
        self.encrypted_attachments = Some(coverage);
        self
    }

    /// How the EncryptedKey names the service's certificate (X.509 Token Profile 1.1 §3.2):
    /// [`KeyReference::SubjectKeyIdentifier`], [`KeyReference::ThumbprintSha1`] or
    /// [`KeyReference::X509IssuerSerial`] (`sp:IncludeToken` Never, `sp:Require…Reference`), or
    /// [`KeyReference::DirectReference`]: the certificate sent in a BinarySecurityToken
    /// (AlwaysToRecipient).
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] for the SubjectKeyIdentifier of a certificate without that
    /// extension (RFC 5280 §4.2.1.2).
    pub fn key_reference(mut self, reference: KeyReference) -> Result<Self, WssError> {
        if reference == KeyReference::SubjectKeyIdentifier
            && self.recipient.subject_key_identifier().is_none()
        {
            return Err(WssError::Certificate {
                name: self.recipient.subject().to_owned(),
                reason: "no SubjectKeyIdentifier extension (2.5.29.14) to refer to it by"
                    .to_owned(),
            });
        }
        self.key_reference = reference;
        Ok(self)
    }

    /// The Body's encryption, whose key size is also the request key's (default
    /// [`BlockEncryption::Aes128Cbc`]; AES-256-CBC for the Basic256 suites).
    pub fn block_encryption(mut self, alg: BlockEncryption) -> Self {
        self.block = alg;
        self
    }

    /// How the request key is wrapped for the service (default [`KeyTransport::RsaOaepMgf1Sha1`]).
    pub fn key_transport(mut self, alg: KeyTransport) -> Self {
        self.key_transport = alg;
        self
    }

    /// The DigestMethod of the signature's References (default SHA-1, as Basic128; SHA-256 for
    /// the `…Sha256` suites).
    pub fn digest(mut self, alg: DigestAlgorithm) -> Self {
        self.digest = alg;
        self
    }

    /// Whether the Body is signed before it is encrypted (default) or after (`sp:EncryptBeforeSigning`).
    pub fn order(mut self, order: EncryptionOrder) -> Self {
        self.order = order;
        self
    }

    /// Whether the signature covers the Body (default `true`; `sp:SignedParts` Body). Without
    /// it the Body is signed still when the signature would cover nothing else (no Timestamp,
    /// token, header or element to sign), as a signature needs a Reference (XML-DSig §4.4.3).
    pub fn sign_body(mut self, on: bool) -> Self {
        self.sign_body = on;
        self
    }

    /// Whether the Body's content is encrypted (default `true`; `sp:EncryptedParts` Body).
    pub fn encrypt_body(mut self, on: bool) -> Self {
        self.encrypt_body = on;
        self
    }

    /// Signs and encrypts under keys derived from the request key (`sp:RequireDerivedKeys`):
    /// two `wsc:DerivedKeyToken`s of `version`'s namespace, each referencing the EncryptedKey,
    /// with a fresh 16-byte Nonce, Offset 0 and the Length of the key it makes — the block
    /// cipher's key size for encryption, 16 bytes for the HMAC key with a 128-bit cipher and 24
    /// otherwise (WS-SecurityPolicy 1.2 §6.1 SignatureKeyDerivation P_SHA1L128 / L192) — derived
    /// by P_SHA-1 with the default label (WS-SecureConversation 1.3 §7).
    pub fn derived_keys(mut self, version: SecureConversation) -> Self {
        self.derived = Some(version);
        self
    }

    /// Whether the signature also covers the token it is made with (`sp:ProtectTokens`,
    /// WS-SecurityPolicy 1.2 §6.5): the EncryptedKey (and the service's BinarySecurityToken when
    /// it is sent). Default `false`.
    pub fn protect_tokens(mut self, on: bool) -> Self {
        self.protect_tokens = on;
        self
    }

    /// Also signs every header block `{namespace}local_name` of the request (WS-Addressing's
    /// `To`, `Action`, a custom header…) under the request key, each referenced by its `wsu:Id`
    /// (one is added to a block that has none, WSS 1.1 §4), after the Timestamp and tokens and
    /// before the Body in SignedInfo. A request without such a header block is an error
    /// ([`WssError::Encode`]).
    pub fn sign_header(mut self, namespace: &str, local_name: &str) -> Self {
        self.headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Also signs every header block `{namespace}local_name` the request has, and nothing when
    /// it has none (WS-SecurityPolicy 1.2 §5.1.1: a header `sp:SignedParts` names is protected
    /// when it is in the message).
    /// An empty local name names every block of the namespace (an `sp:Header` without `Name`).
    pub fn sign_header_if_present(mut self, namespace: &str, local_name: &str) -> Self {
        self.optional_headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Also encrypts every header block `{namespace}local_name` the request has under the
    /// request key (an empty local name: every block of the namespace), and nothing when it has
    /// none (WS-SecurityPolicy 1.2 §5.2.1): each replaced by a `wsse11:EncryptedHeader` (WSS 1.1
    /// §9.3). A block also signed needs [`EncryptionOrder::SignThenEncrypt`]; a request
    /// otherwise fails with [`WssError::Encode`].
    pub fn encrypt_header_if_present(mut self, namespace: &str, local_name: &str) -> Self {
        self.encrypted_headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Also signs every element of the request `path` names, and nothing when it names none
    /// (WS-SecurityPolicy 1.2 §4.1.2 `sp:SignedElements`): each referenced by its `wsu:Id` (one
    /// is added to an element that has none, WSS 1.1 §4), before the Body in SignedInfo.
    pub fn sign_element_if_present(mut self, path: ElementPath) -> Self {
        self.signed_elements.push(path);
        self
    }

    /// Also encrypts every element of the request `path` names under the request key, and
    /// nothing when it names none (WS-SecurityPolicy 1.2 §4.2.2 `sp:EncryptedElements`): each
    /// replaced by an `xenc:EncryptedData` (`Type` Element) that the ReferenceList names; one in
    /// a Body whose content is encrypted is encrypted with it. Needs
    /// [`EncryptionOrder::SignThenEncrypt`]; a request otherwise fails with [`WssError::Encode`].
    pub fn encrypt_element_if_present(mut self, path: ElementPath) -> Self {
        self.encrypted_elements.push(path);
        self
    }

    /// Whether the request's UsernameToken is encrypted under the request key
    /// (WS-SecurityPolicy 1.2 §8.4 `sp:EncryptedSupportingTokens`): written last in the
    /// Security header as an `xenc:EncryptedData` (`Type` Element) that the ReferenceList names.
    /// It cannot also be signed ([`sign_username_token`](Self::sign_username_token)); a request
    /// asking both fails with [`WssError::Encode`]. Default `false`.
    pub fn encrypt_username_token(mut self, on: bool) -> Self {
        self.encrypt_username_token = on;
        self
    }

    /// Whether the signature also covers the request's UsernameToken
    /// ([`WssConfig::username_token`](super::WssConfig::username_token); WS-SecurityPolicy 1.2
    /// §8.2 `sp:SignedSupportingTokens`, the UsernameToken-for-certificate pattern of WCF's
    /// message security). Default `false`.
    pub fn sign_username_token(mut self, on: bool) -> Self {
        self.sign_username_token = on;
        self
    }

    /// Whether the request's Signature is encrypted under the request key once written
    /// (WS-SecurityPolicy 1.2 §6.3 `sp:EncryptSignature`): replaced where it stands by an
    /// `xenc:EncryptedData` (`Type` Element) that the ReferenceList before it names, so the
    /// service decrypts it before it verifies. The endorsing signatures
    /// ([`WssConfig::endorse`](super::WssConfig::endorse)) sign it in the clear and are then
    /// encrypted the same way. Needs [`EncryptionOrder::SignThenEncrypt`]; a request otherwise
    /// fails with [`WssError::Encode`]. Default `false`.
    pub fn encrypt_signature(mut self, on: bool) -> Self {
        self.encrypt_signature = on;
        self
    }

    /// The service's certificate.
    pub fn recipient(&self) -> &Certificate {
        &self.recipient
    }

    /// The length of a derived signature key: 16 bytes with a 128-bit cipher, 24 otherwise
    /// (WS-SecurityPolicy 1.2 §6.1 SignatureKeyDerivation).
    pub(crate) fn signature_key_len(&self) -> usize {
        if self.block.key_len() == 16 {
            16
        } else {
            24
        }
    }
}

/// P_SHA-1 (RFC 2246 §5, WS-SecureConversation 1.3 §7): `length` bytes from byte `offset` of the
/// stream HMAC-SHA1(secret, A(i) + seed), A(0) = seed, A(i) = HMAC-SHA1(secret, A(i-1)).
///
/// # Errors
///
/// [`WssError::Malformed`] for more than 1 MiB of output (no derived key is that long).
pub(crate) fn p_sha1(
    secret: &[u8],
    seed: &[u8],
    offset: usize,
    length: usize,
) -> Result<Vec<u8>, WssError> {
    use aws_lc_rs::hmac;
    let end = offset
        .checked_add(length)
        .filter(|e| *e <= 1 << 20)
        .ok_or_else(|| WssError::Malformed {
            path: "DerivedKeyToken".to_owned(),
            reason: format!("Offset {offset} + Length {length} is more than 1 MiB"),
        })?;
    let key = hmac::Key::new(hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, secret);
    let mut out = Vec::with_capacity(end + 20);
    let mut a = hmac::sign(&key, seed);
    while out.len() < end {
        let mut ctx = hmac::Context::with_key(&key);
        ctx.update(a.as_ref());
        ctx.update(seed);
        out.extend_from_slice(ctx.sign().as_ref());
        a = hmac::sign(&key, a.as_ref());
    }
    Ok(out[offset..end].to_vec())
}

/// HMAC-SHA1 of `data` under `key` (XML-DSig §6.3.1), 20 bytes.
pub(crate) fn hmac_sha1(key: &[u8], data: &[u8]) -> Vec<u8> {
    let key = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, key);
    aws_lc_rs::hmac::sign(&key, data).as_ref().to_vec()
}

/// Whether `tag` is HMAC-SHA1 of `data` under `key`, compared in constant time.
pub(crate) fn hmac_sha1_verify(key: &[u8], data: &[u8], tag: &[u8]) -> bool {
    let key = aws_lc_rs::hmac::Key::new(aws_lc_rs::hmac::HMAC_SHA1_FOR_LEGACY_USE_ONLY, key);
    aws_lc_rs::hmac::verify(&key, data, tag).is_ok()
}

/// The key one symmetric request was protected with, kept for its response: the key itself, the
/// SHA-1 of its EncryptedKey's CipherValue octets, by which the service names it
/// (`#EncryptedKeySHA1`, WSS 1.1 §7.3), and that EncryptedKey's `Id`, by which it may name it
/// too (a Reference to an element of the request, not of the response); or, under a
/// WS-SecureConversation context, the context's key, its token's `wsu:Id` and its Identifier.
#[derive(Clone)]
pub(crate) struct RequestKey {
    pub(crate) key: Vec<u8>,
    /// The `#EncryptedKeySHA1` of the request's EncryptedKey; `None` under a security context.
    pub(crate) sha1: Option<[u8; 20]>,
    pub(crate) id: String,
    /// Under a WS-SecureConversation context: its `wsc:Identifier`, by which the service names
    /// it (WS-SecureConversation 1.3 §8: a Reference whose URI is the Identifier).
    pub(crate) context: Option<String>,
}

impl std::fmt::Debug for RequestKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestKey").finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_sha1_is_the_tls_prf_half() {
        // RFC 2246's P_SHA-1 written out: A(1) = HMAC(s, seed), block 1 = HMAC(s, A(1) + seed),
        // A(2) = HMAC(s, A(1)), block 2 = HMAC(s, A(2) + seed).
        let (secret, seed) = (b"secret key bytes", b"label and nonce");
        let a1 = hmac_sha1(secret, seed);
        let b1 = hmac_sha1(secret, &[&a1[..], seed].concat());
        let a2 = hmac_sha1(secret, &a1);
        let b2 = hmac_sha1(secret, &[&a2[..], seed].concat());
        let stream = [b1, b2].concat();
        assert_eq!(p_sha1(secret, seed, 0, 32).unwrap(), stream[..32]);
        assert_eq!(p_sha1(secret, seed, 16, 16).unwrap(), stream[16..32]);
        assert!(p_sha1(secret, seed, usize::MAX, 2).is_err());
        assert!(hmac_sha1_verify(secret, seed, &a1));
        let mut wrong = a1.clone();
        wrong[19] ^= 1;
        assert!(!hmac_sha1_verify(secret, seed, &wrong));
    }
}
