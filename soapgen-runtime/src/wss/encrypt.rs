//! Outgoing XML Encryption of the Body (WSS 1.1 §9, XML-Enc §3–4): the recipient, the
//! algorithms, and the `xenc:EncryptedKey` / `xenc:EncryptedData` elements written for them.

use super::sign::{KeyReference, DS_NS, THUMBPRINT_SHA1, X509_SKI};
use super::xmlenc::{BlockEncryption, KeyTransport, XENC_CONTENT, XENC_ELEMENT, XENC_NS};
use super::{Certificate, WssError, BASE64_BINARY, WSSE_NS};
use crate::xml::{Name, XmlWriter};

/// `TokenType` of a SecurityTokenReference to an `xenc:EncryptedKey` (WSS 1.1 §7.5, §9.4).
pub const ENCRYPTED_KEY_TOKEN: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#EncryptedKey";

/// `ValueType` of a `wsse:KeyIdentifier` naming an `xenc:EncryptedKey` by the SHA-1 of the octets
/// of its CipherValue, base64 (WSS 1.1 §7.3), as a SecurityTokenReference in an EncryptedData's
/// or a signature's `ds:KeyInfo`.
pub const ENCRYPTED_KEY_SHA1: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-soap-message-security-1.1#EncryptedKeySHA1";

/// Whether the Body is signed before or after it is encrypted, when a client does both
/// (WSS 1.1 §5: the recipient processes the Security header's blocks in document order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum EncryptionOrder {
    /// The signature covers the plaintext Body; the `xenc:EncryptedKey` precedes the
    /// `ds:Signature` in the header, so the recipient decrypts, then verifies. The default (as
    /// WSS4J's and WCF's `SignBeforeEncrypt`): the signature also proves what was meant, not
    /// only what was sent.
    #[default]
    SignThenEncrypt,
    /// The signature covers the Body holding the `xenc:EncryptedData`; the `ds:Signature`
    /// precedes the `xenc:EncryptedKey`, so the recipient verifies, then decrypts (the
    /// ciphertext is authenticated before it is decrypted).
    EncryptThenSign,
}

/// How a client encrypts the content of its requests' Body for a recipient (WSS 1.1 §9, XML-Enc
/// §3–4): each request gets a fresh content-encryption key of the
/// [`block_encryption`](Self::block_encryption) algorithm; the Body's content is replaced by an
/// `xenc:EncryptedData` (`Type` = [`XENC_CONTENT`]), and the key, wrapped for the recipient's RSA
/// public key with the [`key_transport`](Self::key_transport) algorithm, travels in an
/// `xenc:EncryptedKey` in the `wsse:Security` header whose `ReferenceList` points at the
/// EncryptedData and whose `ds:KeyInfo` names the recipient's certificate by a KeyIdentifier
/// ([`key_reference`](Self::key_reference)).
///
/// Defaults: AES-256-GCM (XML-Enc 1.1 §5.2.4: authenticated, so the CBC chosen-ciphertext attacks
/// on XML Encryption do not apply; decrypted by xmlsec1 1.2.37 and by WSS4J 1.6.19 with
/// Santuario 2.1.7 on Java 8 or later, both checked by the tests), RSA-OAEP-MGF1P
/// ([`KeyTransport::RsaOaepMgf1Sha1`]), the SubjectKeyIdentifier (the SHA-1 thumbprint when the
/// certificate has no SubjectKeyIdentifier extension), [`EncryptionOrder::SignThenEncrypt`].
/// Peers without XML-Enc 1.1 need [`BlockEncryption::Aes256Cbc`].
///
/// Attachments (MTOM, SwA) are not encrypted: a request with attachments is refused rather than
/// sent with them in the clear.
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::wss::{BlockEncryption, Certificate, WssConfig, X509Encryptor};
/// let server = Certificate::from_pem(&std::fs::read("server.pem")?, "server.pem")?;
/// let wss = WssConfig::new()
///     .encrypt(X509Encryptor::new(server).block_encryption(BlockEncryption::Aes256Cbc));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct X509Encryptor {
    pub(crate) recipient: Certificate,
    pub(crate) block: BlockEncryption,
    pub(crate) key_transport: KeyTransport,
    pub(crate) key_reference: KeyReference,
    pub(crate) order: EncryptionOrder,
    /// Header blocks encrypted besides the Body content: (namespace, local name).
    pub(crate) headers: Vec<(String, String)>,
    /// Header blocks encrypted when the request has them
    /// ([`X509Encryptor::encrypt_header_if_present`]).
    pub(crate) optional_headers: Vec<(String, String)>,
    /// Elements encrypted when the request has them ([`X509Encryptor::encrypt_element_if_present`]).
    pub(crate) encrypted_elements: Vec<super::ElementPath>,
    /// Whether the Body's content is encrypted ([`X509Encryptor::encrypt_body`]).
    pub(crate) encrypt_body: bool,
    /// Whether the request's `ds:Signature` is encrypted too (WS-SecurityPolicy 1.2 §6.3
    /// `sp:EncryptSignature`).
    pub(crate) encrypt_signature: bool,
    /// Whether the request's UsernameToken is encrypted too (WS-SecurityPolicy 1.2 §8.4
    /// `sp:EncryptedSupportingTokens`).
    pub(crate) encrypt_username_token: bool,
    /// Whether, and how, the request's SwA attachments are encrypted.
    pub(crate) attachments: Option<super::AttachmentCoverage>,
}

impl X509Encryptor {
    /// Encrypts for `recipient` (its RSA public key, 2048 bits or more) with the defaults above.
    /// A certificate that is not RSA is reported when a request is encrypted
    /// ([`WssError::Certificate`]).
    pub fn new(recipient: Certificate) -> Self {
        let key_reference = if recipient.subject_key_identifier().is_some() {
            KeyReference::SubjectKeyIdentifier
        } else {
            KeyReference::ThumbprintSha1
        };
        X509Encryptor {
            recipient,
            block: BlockEncryption::Aes256Gcm,
            key_transport: KeyTransport::RsaOaepMgf1Sha1,
            key_reference,
            order: EncryptionOrder::default(),
            headers: Vec::new(),
            optional_headers: Vec::new(),
            encrypted_elements: Vec::new(),
            encrypt_body: true,
            encrypt_signature: false,
            encrypt_username_token: false,
            attachments: None,
        }
    }

    /// Also encrypts every SwA attachment of the request under the request's key (WSS SwA Profile
    /// 1.1 §5.5; WS-SecurityPolicy 1.2 §4.2.1 `sp:EncryptedParts/sp:Attachments`): each part then
    /// holds the IV and ciphertext (`application/octet-stream`, same Content-ID), described by an
    /// `xenc:EncryptedData` in the Security header whose `xenc:CipherReference` names it and
    /// whose `Type` is `coverage`'s; the EncryptedKey's ReferenceList lists them. A request
    /// without attachments encrypts none; one with MTOM attachments fails with
    /// [`WssError::Encode`].
    pub fn encrypt_attachments(mut self, coverage: super::AttachmentCoverage) -> Self {
        self.attachments = Some(coverage);
        self
    }

    /// The algorithm that encrypts the Body content (default [`BlockEncryption::Aes256Gcm`]).
    pub fn block_encryption(mut self, alg: BlockEncryption) -> Self {
        self.block = alg;
        self
    }

    /// The algorithm that wraps the content-encryption key (default
    /// [`KeyTransport::RsaOaepMgf1Sha1`]; [`KeyTransport::Rsa15`] only for peers that need it).
    pub fn key_transport(mut self, alg: KeyTransport) -> Self {
        self.key_transport = alg;
        self
    }

    /// How the EncryptedKey's `ds:KeyInfo` names the recipient's certificate (X.509 Token Profile
    /// 1.1 §3.2): [`KeyReference::SubjectKeyIdentifier`] or [`KeyReference::ThumbprintSha1`], in a
    /// `wsse:SecurityTokenReference/wsse:KeyIdentifier`.
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] for the SubjectKeyIdentifier of a certificate without that
    /// extension (RFC 5280 §4.2.1.2); [`WssError::Encode`] for another reference
    /// ([`KeyReference::DirectReference`]: the recipient's certificate is not sent).
    pub fn key_reference(mut self, reference: KeyReference) -> Result<Self, WssError> {
        match reference {
            KeyReference::SubjectKeyIdentifier
                if self.recipient.subject_key_identifier().is_none() =>
            {
                return Err(WssError::Certificate {
                    name: self.recipient.subject().to_owned(),
                    reason: "no SubjectKeyIdentifier extension (2.5.29.14) to refer to it by"
                        .to_owned(),
                })
            }
            KeyReference::SubjectKeyIdentifier
            | KeyReference::ThumbprintSha1
            | KeyReference::X509IssuerSerial => {}
            _ => {
                return Err(WssError::Encode(format!(
                    "an EncryptedKey names its recipient by SubjectKeyIdentifier, \
                     ThumbprintSha1 or X509IssuerSerial, not {reference:?}"
                )))
            }
        }
        self.key_reference = reference;
        Ok(self)
    }

    /// Whether a signed Body is signed before or after encryption (default
    /// [`EncryptionOrder::SignThenEncrypt`]). No effect without [`WssConfig::sign`](super::WssConfig::sign).
    pub fn order(mut self, order: EncryptionOrder) -> Self {
        self.order = order;
        self
    }

    /// Also encrypts every header block `{namespace}local_name` of the request (WSS 1.1 §9.3): the
    /// block is replaced by a `wsse11:EncryptedHeader` (carrying a `wsu:Id` and the block's
    /// `mustUnderstand`, `actor`/`role` and `relay` attributes) holding an `xenc:EncryptedData` of
    /// `Type` Element, under the same content key as the Body, listed in the same EncryptedKey.
    /// A request without such a header block is an error ([`WssError::Encode`]). A block both
    /// signed ([`X509Signer::sign_header`](super::X509Signer::sign_header)) and encrypted needs
    /// [`EncryptionOrder::SignThenEncrypt`].
    pub fn encrypt_header(mut self, namespace: &str, local_name: &str) -> Self {
        self.headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Also encrypts every header block `{namespace}local_name` the request has, as
    /// [`encrypt_header`](Self::encrypt_header) does, and nothing when it has none: a header a
    /// WS-SecurityPolicy `sp:EncryptedParts/sp:Header` names is protected when it is in the
    /// message (WS-SecurityPolicy 1.2 §5.2.1).
    /// An empty local name names every block of the namespace (an `sp:Header` without `Name`).
    pub fn encrypt_header_if_present(mut self, namespace: &str, local_name: &str) -> Self {
        self.optional_headers
            .push((namespace.to_owned(), local_name.to_owned()));
        self
    }

    /// Whether the Body's content is encrypted (default `true`): `false` for a request whose
    /// policy encrypts only header blocks or elements (`sp:EncryptedParts` without `sp:Body`,
    /// `sp:EncryptedElements`), which are then encrypted under the request's key alone.
    pub fn encrypt_body(mut self, on: bool) -> Self {
        self.encrypt_body = on;
        self
    }

    /// Also encrypts every element of the request `path` names, and nothing when it names none
    /// (WS-SecurityPolicy 1.2 §4.2.2 `sp:EncryptedElements`): each replaced by an
    /// `xenc:EncryptedData` (Type Element) under the request's key, which the EncryptedKey's
    /// ReferenceList names; an element inside the Body is encrypted with the Body's content. It
    /// needs [`EncryptionOrder::SignThenEncrypt`] (requests fail with [`WssError::Encode`]
    /// otherwise).
    pub fn encrypt_element_if_present(mut self, path: super::ElementPath) -> Self {
        self.encrypted_elements.push(path);
        self
    }

    /// Also encrypts the request's `ds:Signature` (WS-SecurityPolicy 1.2 §6.3 and §7.3
    /// `sp:EncryptSignature`): once signed, the whole Signature element is replaced where it
    /// stands in the Security header by an `xenc:EncryptedData` (`Type` Element, XML-Enc §3.5)
    /// under the Body's content key, listed in the same EncryptedKey after the Body's, so that the
    /// recipient decrypts it before it verifies (the Signature declares the `wsse` and `wsu`
    /// prefixes its KeyInfo uses, so the plaintext stands alone). Default `false`; no effect
    /// without [`WssConfig::sign`](super::WssConfig::sign). It also makes the inbound policy
    /// require responses whose signature was encrypted
    /// ([`WssConfig::require_encrypted_signature`](super::WssConfig::require_encrypted_signature)).
    ///
    /// With [`EncryptionOrder::EncryptThenSign`] the EncryptedKey comes first and lists nothing:
    /// a ReferenceList after it names the Signature's EncryptedData, another after the Signature
    /// the Body's and the rest, and each EncryptedData names the key in its KeyInfo (WSS 1.1
    /// §9.4), so that a recipient processing the header in order decrypts the Signature, verifies
    /// it over the ciphertext, then decrypts the rest (what CXF sends). An encrypted
    /// UsernameToken is then refused ([`WssError::Encode`]).
    pub fn encrypt_signature(mut self, on: bool) -> Self {
        self.encrypt_signature = on;
        self
    }

    /// Also encrypts the request's `wsse:UsernameToken` (WS-SecurityPolicy 1.2 §8.4
    /// `sp:EncryptedSupportingTokens`, and with
    /// [`X509Signer::sign_username_token`](super::X509Signer::sign_username_token) §8.5
    /// `sp:SignedEncryptedSupportingTokens`): the token is written right after the
    /// `xenc:EncryptedKey`, so that a recipient processing the header in order has its key first,
    /// and replaced there by an `xenc:EncryptedData` (`Type` Element, XML-Enc §3.5) under the
    /// Body's content key, listed in the same EncryptedKey. Default `false`; no effect without
    /// [`WssConfig::username_token`](super::WssConfig::username_token).
    pub fn encrypt_username_token(mut self, on: bool) -> Self {
        self.encrypt_username_token = on;
        self
    }

    /// Whether the request's UsernameToken is encrypted
    /// ([`encrypt_username_token`](Self::encrypt_username_token)).
    pub fn encrypts_username_token(&self) -> bool {
        self.encrypt_username_token
    }

    /// Whether the request's signature is encrypted ([`encrypt_signature`](Self::encrypt_signature)).
    pub fn encrypts_signature(&self) -> bool {
        self.encrypt_signature
    }

    /// The recipient's certificate.
    pub fn recipient(&self) -> &Certificate {
        &self.recipient
    }

    /// The block encryption algorithm.
    pub fn block_algorithm(&self) -> BlockEncryption {
        self.block
    }

    /// The key transport algorithm.
    pub fn key_transport_algorithm(&self) -> KeyTransport {
        self.key_transport
    }

    /// The signing order.
    pub fn encryption_order(&self) -> EncryptionOrder {
        self.order
    }

    /// A fresh content-encryption key for one request.
    pub(crate) fn new_key(&self) -> Result<Vec<u8>, WssError> {
        self.block.generate_key()
    }

    /// The content key wrapped for the recipient (the EncryptedKey's CipherValue, before base64).
    pub(crate) fn wrap(&self, key: &[u8]) -> Result<Vec<u8>, WssError> {
        self.key_transport.wrap(&self.recipient, key)
    }

    /// Encrypts `plaintext` (the Body's content, or a whole header block when `element`) with
    /// `key`: the `xenc:EncryptedData` element that replaces it, a self-contained fragment with
    /// `Id` = `data_id` and `Type` Content or Element (XML-Enc §3.5).
    ///
    /// Without `key_info` the EncryptedData has no `ds:KeyInfo` pointing back at the
    /// EncryptedKey: the EncryptedKey's ReferenceList already names it (WSS 1.1 §9.4 allows
    /// either), and gSOAP 2.8's wsse plugin fails to decrypt when both are present. With it, a
    /// `ds:KeyInfo` holding that SecurityTokenReference (as a SymmetricBinding's EncryptedData
    /// name their key, or the DerivedKeyToken it comes from).
    pub(crate) fn encrypted_data(
        &self,
        key: &[u8],
        plaintext: &[u8],
        data_id: &str,
        element: bool,
        key_info: Option<&StrRef<'_>>,
    ) -> Result<String, WssError> {
        let cipher = self.block.encrypt(key, plaintext)?;
        let mut w = XmlWriter::with_capacity(cipher.len() / 3 * 4 + 1024);
        w.start_element_prefixed(Name::new(XENC_NS, "EncryptedData"), Some("xenc"))?;
        w.attribute(Name::unqualified("Id"), data_id)?;
        w.attribute(
            Name::unqualified("Type"),
            if element { XENC_ELEMENT } else { XENC_CONTENT },
        )?;
        w.start_element(Name::new(XENC_NS, "EncryptionMethod"))?;
        w.attribute(Name::unqualified("Algorithm"), self.block.uri())?;
        w.end_element()?;
        if let Some(r) = key_info {
            w.start_element_prefixed(Name::new(DS_NS, "KeyInfo"), Some("ds"))?;
            r.write(&mut w)?;
            w.end_element()?;
        }
        write_cipher_data(&mut w, &cipher)?;
        w.end_element()?; // EncryptedData
        Ok(w.into_string()?)
    }

    /// Writes the `xenc:EncryptedKey` (XML-Enc §3.5.1, WSS 1.1 §9.4.1) into a Security header
    /// being written by `w` (where `wsse` is in scope): `Id` = `key_id`, the key transport method
    /// (with a SHA-1 `ds:DigestMethod` for OAEP, XML-Enc §5.4.2), KeyInfo naming the recipient,
    /// `wrapped` as CipherValue, and a ReferenceList with a DataReference to each of `data_ids`
    /// (none when `data_ids` is empty: a standalone ReferenceList, or the EncryptedData's own
    /// KeyInfo, then names the key). With [`KeyReference::DirectReference`] the recipient's
    /// certificate is the BinarySecurityToken `token_id`.
    pub(crate) fn write_encrypted_key(
        &self,
        w: &mut XmlWriter,
        key_id: &str,
        data_ids: &[String],
        wrapped: &[u8],
        token_id: Option<&str>,
    ) -> Result<(), WssError> {
        w.start_element_prefixed(Name::new(XENC_NS, "EncryptedKey"), Some("xenc"))?;
        w.attribute(Name::unqualified("Id"), key_id)?;
        w.start_element(Name::new(XENC_NS, "EncryptionMethod"))?;
        w.attribute(Name::unqualified("Algorithm"), self.key_transport.uri())?;
        if let Some(digest) = self.key_transport.digest() {
            w.start_element_prefixed(Name::new(DS_NS, "DigestMethod"), Some("ds"))?;
            w.attribute(Name::unqualified("Algorithm"), digest)?;
            w.end_element()?;
        }
        if let Some(mgf) = self.key_transport.mgf() {
            w.start_element_prefixed(Name::new(super::xmlenc::XENC11_NS, "MGF"), Some("xenc11"))?;
            w.attribute(Name::unqualified("Algorithm"), mgf)?;
            w.end_element()?;
        }
        w.end_element()?; // EncryptionMethod
        w.start_element_prefixed(Name::new(DS_NS, "KeyInfo"), Some("ds"))?;
        w.start_element(Name::new(WSSE_NS, "SecurityTokenReference"))?;
        let key_identifier = |w: &mut XmlWriter, value_type: &str, id: &[u8]| {
            w.start_element(Name::new(WSSE_NS, "KeyIdentifier"))?;
            w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
            w.attribute(Name::unqualified("ValueType"), value_type)?;
            w.text(&super::base64(id))?;
            w.end_element()
        };
        match self.key_reference {
            KeyReference::SubjectKeyIdentifier => {
                let ski = self.recipient.subject_key_identifier().ok_or_else(|| {
                    WssError::Certificate {
                        name: self.recipient.subject().to_owned(),
                        reason: "no SubjectKeyIdentifier extension (2.5.29.14) to refer to it by"
                            .to_owned(),
                    }
                })?;
                key_identifier(w, X509_SKI, ski)?;
            }
            KeyReference::ThumbprintSha1 => {
                key_identifier(w, THUMBPRINT_SHA1, &self.recipient.sha1_thumbprint())?;
            }
            KeyReference::X509IssuerSerial => {
                // X.509 Token Profile 1.1 §3.2.2, XML-DSig §4.4.4.
                w.start_element_prefixed(Name::new(DS_NS, "X509Data"), Some("ds"))?;
                w.start_element(Name::new(DS_NS, "X509IssuerSerial"))?;
                let issuer = self.recipient.issuer_rfc4514();
                w.simple_element(Name::new(DS_NS, "X509IssuerName"), issuer.as_str())?;
                let serial = self.recipient.serial_decimal();
                w.simple_element(Name::new(DS_NS, "X509SerialNumber"), serial.as_str())?;
                w.end_element()?;
                w.end_element()?;
            }
            KeyReference::DirectReference if token_id.is_some() => {
                w.start_element(Name::new(WSSE_NS, "Reference"))?;
                w.attribute(
                    Name::unqualified("URI"),
                    &format!("#{}", token_id.unwrap_or_default()),
                )?;
                w.attribute(Name::unqualified("ValueType"), super::X509V3)?;
                w.end_element()?;
            }
            other => {
                return Err(WssError::Encode(format!(
                    "an EncryptedKey cannot name its recipient by {other:?}"
                )))
            }
        }
        w.end_element()?; // SecurityTokenReference
        w.end_element()?; // KeyInfo
        write_cipher_data(w, wrapped)?;
        if !data_ids.is_empty() {
            write_reference_list(w, data_ids)?;
        }
        w.end_element()?; // EncryptedKey
        Ok(())
    }
}

/// `<xenc:ReferenceList>` with a DataReference to each of `data_ids` (XML-Enc §3.6), in an
/// EncryptedKey or standing in the Security header (WSS 1.1 §9.4).
pub(crate) fn write_reference_list(w: &mut XmlWriter, data_ids: &[String]) -> Result<(), WssError> {
    w.start_element_prefixed(Name::new(XENC_NS, "ReferenceList"), Some("xenc"))?;
    for data_id in data_ids {
        w.start_element(Name::new(XENC_NS, "DataReference"))?;
        w.attribute(Name::unqualified("URI"), &format!("#{data_id}"))?;
        w.end_element()?;
    }
    w.end_element()?;
    Ok(())
}

/// A `wsse:SecurityTokenReference` with a `wsse:Reference` to a token of the message (WSS 1.1
/// §7.2): to an `xenc:EncryptedKey` (its `wsse11:TokenType` `#EncryptedKey`, WSS 1.1 §7.5) or to
/// a `wsc:DerivedKeyToken` (its `ValueType`).
pub(crate) enum StrRef<'a> {
    /// `#Id` of an EncryptedKey.
    EncryptedKey(&'a str),
    /// `#Id` of a DerivedKeyToken, and the `ValueType` of its version.
    DerivedKey(&'a str, &'static str),
    /// `#Id` of a WS-SecureConversation SecurityContextToken in the message, and the `ValueType`
    /// of its version (WS-SecureConversation 1.3 §8).
    Context(&'a str, &'static str),
}

impl StrRef<'_> {
    /// Writes the SecurityTokenReference (the `wsse` prefix declared on it when not in scope).
    pub(crate) fn write(&self, w: &mut XmlWriter) -> Result<(), WssError> {
        w.start_element_prefixed(Name::new(WSSE_NS, "SecurityTokenReference"), Some("wsse"))?;
        let (id, value_type) = match self {
            StrRef::EncryptedKey(id) => {
                w.declare_namespace("wsse11", super::WSSE11_NS)?;
                w.attribute(
                    Name::new(super::WSSE11_NS, "TokenType"),
                    ENCRYPTED_KEY_TOKEN,
                )?;
                (*id, None)
            }
            StrRef::DerivedKey(id, value_type) | StrRef::Context(id, value_type) => {
                (*id, Some(*value_type))
            }
        };
        w.start_element(Name::new(WSSE_NS, "Reference"))?;
        w.attribute(Name::unqualified("URI"), &format!("#{id}"))?;
        if let Some(v) = value_type {
            w.attribute(Name::unqualified("ValueType"), v)?;
        }
        w.end_element()?;
        w.end_element()?;
        Ok(())
    }
}

/// `<xenc:CipherData><xenc:CipherValue>base64</xenc:CipherValue></xenc:CipherData>` (XML-Enc §3.3).
fn write_cipher_data(w: &mut XmlWriter, bytes: &[u8]) -> Result<(), WssError> {
    w.start_element(Name::new(XENC_NS, "CipherData"))?;
    w.start_element(Name::new(XENC_NS, "CipherValue"))?;
    w.raw(&super::base64(bytes))?; // base64 needs no escaping
    w.end_element()?;
    w.end_element()?;
    Ok(())
}
