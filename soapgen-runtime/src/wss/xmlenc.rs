//! XML Encryption primitives (W3C XML Encryption Syntax and Processing 1.0, "XML-Enc", and 1.1,
//! "XML-Enc 1.1"): the block encryption algorithms of XML-Enc §5.2 that encrypt the content of an
//! `xenc:EncryptedData`, and the key transport algorithms of XML-Enc §5.4 that wrap its key for
//! the recipient in an `xenc:EncryptedKey`. Cryptography by aws-lc-rs.
//!
//! Byte layouts are those of `xenc:CipherValue` (before base64):
//!
//! - CBC (XML-Enc §5.2): `IV || ciphertext`, the IV one block long (16 bytes AES, 8 bytes 3DES),
//!   the plaintext padded to whole blocks with 1 to `block` bytes whose last byte is their count;
//! - GCM (XML-Enc 1.1 §5.2.4): `IV(12) || ciphertext || tag(16)`, no additional authenticated data.
//!
//! Failures to decrypt are all the single [`WssError::DecryptionFailed`], whatever the cause, so a
//! peer learns nothing from which check failed (padding-oracle and Bleichenbacher defence).
//!
//! Key material: content-encryption keys are plain `Vec<u8>` and are not zeroed when dropped
//! (no `zeroize` dependency); aws-lc-rs zeroes its own copies (IVs, expanded keys) on drop.

use aws_lc_rs::rand::SecureRandom;

use super::{Certificate, WssError, X509Credential};

/// The XML-Enc 1.0 namespace (XML-Enc §3.1), `xenc`.
pub const XENC_NS: &str = "http://www.w3.org/2001/04/xmlenc#";
/// The XML-Enc 1.1 namespace (XML-Enc 1.1 §1.3), `xenc11`: AES-GCM, `rsa-oaep`, MGF URIs.
pub const XENC11_NS: &str = "http://www.w3.org/2009/xmlenc11#";
/// `Type` of an `EncryptedData` replacing an element's content (XML-Enc §3.1).
pub const XENC_CONTENT: &str = "http://www.w3.org/2001/04/xmlenc#Content";
/// `Type` of an `EncryptedData` replacing a whole element (XML-Enc §3.1).
pub const XENC_ELEMENT: &str = "http://www.w3.org/2001/04/xmlenc#Element";
/// `xenc11#rsa-oaep` (XML-Enc 1.1 §5.5.2): RSA-OAEP with the digest and mask generation function
/// named by child elements (SHA-1 and MGF1-SHA1 when absent).
pub const RSA_OAEP_XENC11: &str = "http://www.w3.org/2009/xmlenc11#rsa-oaep";
/// `xenc11#mgf1sha1` (XML-Enc 1.1 §5.5.2): MGF1 with SHA-1, the default mask generation function.
pub const MGF1_SHA1: &str = "http://www.w3.org/2009/xmlenc11#mgf1sha1";
/// `xenc11#mgf1sha256` (XML-Enc 1.1 §5.5.2): MGF1 with SHA-256.
pub const MGF1_SHA256: &str = "http://www.w3.org/2009/xmlenc11#mgf1sha256";
/// The SHA-256 DigestMethod (XML-Enc §5.7.2).
const SHA256: &str = super::DigestAlgorithm::Sha256.uri();
/// The SHA-1 DigestMethod (XML-DSig §6.2.1), the default digest of RSA-OAEP (XML-Enc §5.4.2).
const SHA1: &str = super::DigestAlgorithm::Sha1.uri();

/// AES block length, bytes.
const AES_BLOCK: usize = 16;
/// DES/3DES block length, bytes.
const DES_BLOCK: usize = 8;
/// GCM IV length, bytes (XML-Enc 1.1 §5.2.4).
const GCM_IV: usize = 12;
/// GCM tag length, bytes (XML-Enc 1.1 §5.2.4).
const GCM_TAG: usize = 16;

/// A block encryption algorithm (XML-Enc §5.2, XML-Enc 1.1 §5.2): what encrypts the content of
/// an `xenc:EncryptedData`, named by its `EncryptionMethod/@Algorithm`.
///
/// CBC modes are unauthenticated (XML-Enc 1.1 §6.1 warns of chosen-ciphertext attacks on them
/// unless the ciphertext is also signed); GCM is authenticated. 3DES is for interoperability only
/// (NIST SP 800-131A disallows it for new encryption).
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockEncryption {
    /// AES-128 in CBC mode, `xmlenc#aes128-cbc` (XML-Enc §5.2.2).
    Aes128Cbc,
    /// AES-192 in CBC mode, `xmlenc#aes192-cbc` (XML-Enc §5.2.2).
    Aes192Cbc,
    /// AES-256 in CBC mode, `xmlenc#aes256-cbc` (XML-Enc §5.2.2).
    Aes256Cbc,
    /// AES-128 in GCM mode, `xmlenc11#aes128-gcm` (XML-Enc 1.1 §5.2.4).
    Aes128Gcm,
    /// AES-192 in GCM mode, `xmlenc11#aes192-gcm` (XML-Enc 1.1 §5.2.4).
    Aes192Gcm,
    /// AES-256 in GCM mode, `xmlenc11#aes256-gcm` (XML-Enc 1.1 §5.2.4).
    Aes256Gcm,
    /// Triple DES (EDE, three keys) in CBC mode, `xmlenc#tripledes-cbc` (XML-Enc §5.2.1). Legacy.
    TripleDesCbc,
}

impl BlockEncryption {
    /// Every algorithm, in declaration order.
    pub const ALL: [BlockEncryption; 7] = [
        BlockEncryption::Aes128Cbc,
        BlockEncryption::Aes192Cbc,
        BlockEncryption::Aes256Cbc,
        BlockEncryption::Aes128Gcm,
        BlockEncryption::Aes192Gcm,
        BlockEncryption::Aes256Gcm,
        BlockEncryption::TripleDesCbc,
    ];

    /// The algorithm URI: `http://www.w3.org/2001/04/xmlenc#…` for the CBC modes,
    /// `http://www.w3.org/2009/xmlenc11#…` for GCM.
    pub const fn uri(self) -> &'static str {
        match self {
            BlockEncryption::Aes128Cbc => "http://www.w3.org/2001/04/xmlenc#aes128-cbc",
            BlockEncryption::Aes192Cbc => "http://www.w3.org/2001/04/xmlenc#aes192-cbc",
            BlockEncryption::Aes256Cbc => "http://www.w3.org/2001/04/xmlenc#aes256-cbc",
            BlockEncryption::Aes128Gcm => "http://www.w3.org/2009/xmlenc11#aes128-gcm",
            BlockEncryption::Aes192Gcm => "http://www.w3.org/2009/xmlenc11#aes192-gcm",
            BlockEncryption::Aes256Gcm => "http://www.w3.org/2009/xmlenc11#aes256-gcm",
            BlockEncryption::TripleDesCbc => "http://www.w3.org/2001/04/xmlenc#tripledes-cbc",
        }
    }

    /// The algorithm named by `uri` (exact match), or `None` for one not supported.
    pub fn from_uri(uri: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.uri() == uri)
    }

    /// The key length, in bytes: 16 (AES-128), 24 (AES-192, 3DES), 32 (AES-256).
    pub const fn key_len(self) -> usize {
        match self {
            BlockEncryption::Aes128Cbc | BlockEncryption::Aes128Gcm => 16,
            BlockEncryption::Aes192Cbc
            | BlockEncryption::Aes192Gcm
            | BlockEncryption::TripleDesCbc => 24,
            BlockEncryption::Aes256Cbc | BlockEncryption::Aes256Gcm => 32,
        }
    }

    /// A fresh random key of [`key_len`](Self::key_len) bytes, from aws-lc-rs's `SystemRandom`.
    ///
    /// # Errors
    ///
    /// [`WssError::Random`] if the system random generator fails.
    pub fn generate_key(self) -> Result<Vec<u8>, WssError> {
        random_vec(self.key_len())
    }

    /// Encrypts `plaintext` with `key` and a fresh random IV: returns `IV || ciphertext` for the
    /// CBC modes (plaintext padded as XML-Enc §5.2: `n` bytes, 1 ≤ `n` ≤ block, each equal to
    /// `n`, which both PKCS#7 and ISO 10126 readers accept), `IV(12) || ciphertext || tag(16)` for
    /// GCM (XML-Enc 1.1 §5.2.4, no additional authenticated data). The output is what
    /// `xenc:CipherValue` carries, before base64.
    ///
    /// # Errors
    ///
    /// [`WssError::Encryption`] for a key that is not [`key_len`](Self::key_len) bytes or a
    /// failure in aws-lc-rs; [`WssError::Random`] if no IV can be drawn.
    pub fn encrypt(self, key: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, WssError> {
        if key.len() != self.key_len() {
            return Err(WssError::Encryption);
        }
        if self.is_gcm() {
            gcm_seal(self.gcm_algorithm(), key, plaintext)
        } else {
            self.cbc_encrypt(key, plaintext)
        }
    }

    /// Decrypts what [`encrypt`](Self::encrypt) produced (or a peer did: the CBC padding bytes
    /// before the last are not checked, as XML-Enc §5.2 leaves them arbitrary and WSS4J/Santuario
    /// send random ones, ISO 10126 style; only the last byte `n`, 1 ≤ `n` ≤ block, is).
    ///
    /// # Errors
    ///
    /// [`WssError::DecryptionFailed`] for every failure: a key of the wrong length, input shorter
    /// than an IV and one block (CBC) or an IV and a tag (GCM), a CBC ciphertext that is not whole
    /// blocks, bad padding, a GCM tag mismatch. The error does not say which.
    pub fn decrypt(self, key: &[u8], data: &[u8]) -> Result<Vec<u8>, WssError> {
        if key.len() != self.key_len() {
            return Err(WssError::DecryptionFailed);
        }
        if self.is_gcm() {
            gcm_open(self.gcm_algorithm(), key, data)
        } else {
            self.cbc_decrypt(key, data)
        }
    }

    /// Whether this is a GCM mode (authenticated; XML-Enc 1.1 §5.2.4).
    pub const fn is_gcm(self) -> bool {
        matches!(
            self,
            BlockEncryption::Aes128Gcm | BlockEncryption::Aes192Gcm | BlockEncryption::Aes256Gcm
        )
    }

    fn gcm_algorithm(self) -> &'static aws_lc_rs::aead::Algorithm {
        match self {
            BlockEncryption::Aes128Gcm => &aws_lc_rs::aead::AES_128_GCM,
            BlockEncryption::Aes192Gcm => &aws_lc_rs::aead::AES_192_GCM,
            _ => &aws_lc_rs::aead::AES_256_GCM,
        }
    }

    #[allow(deprecated)] // DES_EDE3_FOR_LEGACY_USE_ONLY: 3DES is kept for interoperability only.
    fn cbc_algorithm(self) -> (&'static aws_lc_rs::cipher::Algorithm, usize) {
        use aws_lc_rs::cipher;
        match self {
            BlockEncryption::Aes128Cbc => (&cipher::AES_128, AES_BLOCK),
            BlockEncryption::Aes192Cbc => (&cipher::AES_192, AES_BLOCK),
            BlockEncryption::TripleDesCbc => (&cipher::DES_EDE3_FOR_LEGACY_USE_ONLY, DES_BLOCK),
            _ => (&cipher::AES_256, AES_BLOCK),
        }
    }

    fn cbc_encrypt(self, key: &[u8], plaintext: &[u8]) -> Result<Vec<u8>, WssError> {
        use aws_lc_rs::cipher::{EncryptingKey, EncryptionContext, UnboundCipherKey};
        use aws_lc_rs::iv::FixedLength;
        let (alg, block) = self.cbc_algorithm();
        // n in 1..=block: a whole block of padding when the plaintext fills its last block.
        let pad = block - plaintext.len() % block;
        let total = block
            .checked_add(plaintext.len())
            .and_then(|n| n.checked_add(pad))
            .ok_or(WssError::Encryption)?;
        let mut out = Vec::with_capacity(total);
        out.resize(block, 0);
        fill_random(&mut out)?;
        out.extend_from_slice(plaintext);
        // `pad` ≤ 16, so the cast is exact.
        out.resize(total, pad as u8);
        let (iv, body) = out.split_at_mut(block);
        let context = if block == AES_BLOCK {
            let iv: [u8; AES_BLOCK] = iv.try_into().map_err(|_| WssError::Encryption)?;
            EncryptionContext::Iv128(FixedLength::from(iv))
        } else {
            let iv: [u8; DES_BLOCK] = iv.try_into().map_err(|_| WssError::Encryption)?;
            EncryptionContext::Iv64(FixedLength::from(iv))
        };
        let key = UnboundCipherKey::new(alg, key).map_err(|_| WssError::Encryption)?;
        EncryptingKey::cbc(key)
            .and_then(|k| k.less_safe_encrypt(body, context))
            .map_err(|_| WssError::Encryption)?;
        Ok(out)
    }

    fn cbc_decrypt(self, key: &[u8], data: &[u8]) -> Result<Vec<u8>, WssError> {
        use aws_lc_rs::cipher::{DecryptingKey, DecryptionContext, UnboundCipherKey};
        use aws_lc_rs::iv::FixedLength;
        let (alg, block) = self.cbc_algorithm();
        let fail = |_| WssError::DecryptionFailed;
        let (iv, ciphertext) = data
            .split_at_checked(block)
            .ok_or(WssError::DecryptionFailed)?;
        if ciphertext.is_empty() || ciphertext.len() % block != 0 {
            return Err(WssError::DecryptionFailed);
        }
        let context = if block == AES_BLOCK {
            let iv: [u8; AES_BLOCK] = iv.try_into().map_err(fail)?;
            DecryptionContext::Iv128(FixedLength::from(iv))
        } else {
            let iv: [u8; DES_BLOCK] = iv.try_into().map_err(fail)?;
            DecryptionContext::Iv64(FixedLength::from(iv))
        };
        let mut buf = ciphertext.to_vec();
        let key = UnboundCipherKey::new(alg, key).map_err(|_| WssError::DecryptionFailed)?;
        let len = DecryptingKey::cbc(key)
            .and_then(|k| k.decrypt(&mut buf, context).map(|p| p.len()))
            .map_err(|_| WssError::DecryptionFailed)?;
        buf.truncate(len);
        let pad = usize::from(*buf.last().ok_or(WssError::DecryptionFailed)?);
        if pad == 0 || pad > block || pad > buf.len() {
            return Err(WssError::DecryptionFailed);
        }
        buf.truncate(buf.len() - pad);
        Ok(buf)
    }
}

fn gcm_seal(
    alg: &'static aws_lc_rs::aead::Algorithm,
    key: &[u8],
    plaintext: &[u8],
) -> Result<Vec<u8>, WssError> {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    let mut iv = [0u8; GCM_IV];
    fill_random(&mut iv)?;
    let key = LessSafeKey::new(UnboundKey::new(alg, key).map_err(|_| WssError::Encryption)?);
    let mut out = Vec::with_capacity(GCM_IV + plaintext.len() + GCM_TAG);
    out.extend_from_slice(&iv);
    out.extend_from_slice(plaintext);
    let tag = key
        .seal_in_place_separate_tag(
            Nonce::assume_unique_for_key(iv),
            Aad::empty(),
            out.get_mut(GCM_IV..).ok_or(WssError::Encryption)?,
        )
        .map_err(|_| WssError::Encryption)?;
    out.extend_from_slice(tag.as_ref());
    Ok(out)
}

fn gcm_open(
    alg: &'static aws_lc_rs::aead::Algorithm,
    key: &[u8],
    data: &[u8],
) -> Result<Vec<u8>, WssError> {
    use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey};
    let (iv, rest) = data
        .split_at_checked(GCM_IV)
        .ok_or(WssError::DecryptionFailed)?;
    if rest.len() < GCM_TAG {
        return Err(WssError::DecryptionFailed);
    }
    let nonce = Nonce::try_assume_unique_for_key(iv).map_err(|_| WssError::DecryptionFailed)?;
    let key = LessSafeKey::new(UnboundKey::new(alg, key).map_err(|_| WssError::DecryptionFailed)?);
    let mut buf = rest.to_vec();
    let len = key
        .open_in_place(nonce, Aad::empty(), &mut buf)
        .map_err(|_| WssError::DecryptionFailed)?
        .len();
    buf.truncate(len);
    Ok(buf)
}

/// A key transport algorithm (XML-Enc §5.4): how the content-encryption key is encrypted for the
/// recipient's RSA public key in an `xenc:EncryptedKey`.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeyTransport {
    /// RSAES-OAEP (RFC 8017 §7.1) with SHA-1 as digest and MGF1 with SHA-1, no OAEP parameters:
    /// `xmlenc#rsa-oaep-mgf1p` (XML-Enc §5.4.2), written with a `ds:DigestMethod` SHA-1 child.
    /// The default.
    RsaOaepMgf1Sha1,
    /// RSAES-PKCS1-v1_5 (RFC 8017 §7.2), `xmlenc#rsa-1_5` (XML-Enc §5.4.1). Opt-in only, for old
    /// peers: open to Bleichenbacher's attack, so [`unwrap`](Self::unwrap) uses implicit
    /// rejection.
    Rsa15,
    /// RSAES-OAEP with SHA-1 as digest and MGF1 with SHA-256: `xenc11#rsa-oaep` (XML-Enc 1.1
    /// §5.5.2) written with a SHA-1 `ds:DigestMethod` and an `xenc11:MGF` of [`MGF1_SHA256`], as
    /// Apache CXF's `Basic256GCMMGFSHA256` algorithm suite sends it.
    RsaOaepMgf1Sha256,
    /// RSAES-OAEP with SHA-256 as digest and MGF1 with SHA-256: `xenc11#rsa-oaep` with a SHA-256
    /// `ds:DigestMethod` and an `xenc11:MGF` of [`MGF1_SHA256`] (CXF's
    /// `Basic256GCMMGFSHA256Digest`).
    RsaOaepSha256Mgf1Sha256,
}

impl KeyTransport {
    /// The two algorithms of XML-Enc 1.0, each named by its URI alone, the default first.
    pub const ALL: [KeyTransport; 2] = [KeyTransport::RsaOaepMgf1Sha1, KeyTransport::Rsa15];

    /// The RSA-OAEP variants with MGF1-SHA-256, named by [`RSA_OAEP_XENC11`] and the
    /// `EncryptionMethod`'s children ([`from_method`](Self::from_method)).
    pub const MGF1_SHA256: [KeyTransport; 2] = [
        KeyTransport::RsaOaepMgf1Sha256,
        KeyTransport::RsaOaepSha256Mgf1Sha256,
    ];

    /// The algorithm URI: `http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p`,
    /// `http://www.w3.org/2001/04/xmlenc#rsa-1_5`, or [`RSA_OAEP_XENC11`] for the MGF1-SHA-256
    /// variants (whose [`digest`](Self::digest) and [`mgf`](Self::mgf) are written as children).
    pub const fn uri(self) -> &'static str {
        match self {
            KeyTransport::RsaOaepMgf1Sha1 => "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
            KeyTransport::Rsa15 => "http://www.w3.org/2001/04/xmlenc#rsa-1_5",
            KeyTransport::RsaOaepMgf1Sha256 | KeyTransport::RsaOaepSha256Mgf1Sha256 => {
                RSA_OAEP_XENC11
            }
        }
    }

    /// The OAEP digest written as the `EncryptionMethod`'s `ds:DigestMethod` (XML-Enc §5.4.2):
    /// SHA-1 or SHA-256; `None` for PKCS#1 v1.5.
    pub const fn digest(self) -> Option<&'static str> {
        match self {
            KeyTransport::RsaOaepMgf1Sha1 | KeyTransport::RsaOaepMgf1Sha256 => Some(SHA1),
            KeyTransport::RsaOaepSha256Mgf1Sha256 => Some(SHA256),
            KeyTransport::Rsa15 => None,
        }
    }

    /// The mask generation function written as the `EncryptionMethod`'s `xenc11:MGF` (XML-Enc 1.1
    /// §5.5.2): [`MGF1_SHA256`] for the variants that need one, else `None` (MGF1-SHA1 implied).
    pub const fn mgf(self) -> Option<&'static str> {
        match self {
            KeyTransport::RsaOaepMgf1Sha256 | KeyTransport::RsaOaepSha256Mgf1Sha256 => {
                Some(MGF1_SHA256)
            }
            _ => None,
        }
    }

    /// The algorithm named by an `EncryptionMethod/@Algorithm` `uri`, or `None`.
    ///
    /// Besides the two URIs of [`uri`](Self::uri), `xmlenc11#rsa-oaep` ([`RSA_OAEP_XENC11`],
    /// XML-Enc 1.1 §5.5.2) maps to [`RsaOaepMgf1Sha1`](Self::RsaOaepMgf1Sha1): that is only right
    /// when its `ds:DigestMethod` is absent or SHA-1 and its `xenc11:MGF` is absent or
    /// [`MGF1_SHA1`]. A caller that reads those children should use
    /// [`from_method`](Self::from_method), which checks them.
    pub fn from_uri(uri: &str) -> Option<Self> {
        match uri {
            "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p" | RSA_OAEP_XENC11 => {
                Some(KeyTransport::RsaOaepMgf1Sha1)
            }
            "http://www.w3.org/2001/04/xmlenc#rsa-1_5" => Some(KeyTransport::Rsa15),
            _ => None,
        }
    }

    /// The algorithm of a whole `EncryptionMethod` (XML-Enc §5.4.2, XML-Enc 1.1 §5.5.2): its
    /// `Algorithm` `uri`, the `Algorithm` of its `ds:DigestMethod` child (`digest`) and of its
    /// `xenc11:MGF` child (`mgf`), `None` when absent. `None` unless it is one supported:
    /// `rsa-oaep-mgf1p` with SHA-1 (or no) digest and no MGF; `xenc11#rsa-oaep` with SHA-1 (or no)
    /// digest and MGF1-SHA1 (or no) MGF, with SHA-1 (or no) digest and MGF1-SHA-256, or with
    /// SHA-256 and MGF1-SHA-256; `rsa-1_5` with neither child.
    pub fn from_method(uri: &str, digest: Option<&str>, mgf: Option<&str>) -> Option<Self> {
        let sha1 = digest.is_none_or(|d| d == SHA1);
        match uri {
            "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p" if sha1 && mgf.is_none() => {
                Some(KeyTransport::RsaOaepMgf1Sha1)
            }
            RSA_OAEP_XENC11 if sha1 && mgf.is_none_or(|m| m == MGF1_SHA1) => {
                Some(KeyTransport::RsaOaepMgf1Sha1)
            }
            RSA_OAEP_XENC11 if sha1 && mgf == Some(MGF1_SHA256) => {
                Some(KeyTransport::RsaOaepMgf1Sha256)
            }
            RSA_OAEP_XENC11 if digest == Some(SHA256) && mgf == Some(MGF1_SHA256) => {
                Some(KeyTransport::RsaOaepSha256Mgf1Sha256)
            }
            "http://www.w3.org/2001/04/xmlenc#rsa-1_5" if digest.is_none() && mgf.is_none() => {
                Some(KeyTransport::Rsa15)
            }
            _ => None,
        }
    }

    /// Encrypts the content-encryption `key` for `recipient`'s RSA public key: the
    /// `xenc:CipherValue` of the `EncryptedKey` (before base64), as long as the modulus.
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] if the certificate's key is not RSA or aws-lc-rs refuses it
    /// (below 2048 bits); [`WssError::Encryption`] if the key is too long for the modulus or
    /// aws-lc-rs fails.
    pub fn wrap(self, recipient: &Certificate, key: &[u8]) -> Result<Vec<u8>, WssError> {
        use aws_lc_rs::rsa::{
            OaepPublicEncryptingKey, Pkcs1PublicEncryptingKey, OAEP_SHA1_MGF1SHA1,
            OAEP_SHA256_MGF1SHA256,
        };
        let public = recipient.rsa_encrypting_key()?;
        let mut out = vec![0u8; public.key_size_bytes()];
        let mut oaep = |alg| {
            OaepPublicEncryptingKey::new(public.clone())
                .and_then(|k| k.encrypt(alg, key, &mut out, None).map(|c| c.len()))
        };
        let len = match self {
            KeyTransport::RsaOaepMgf1Sha1 => oaep(&OAEP_SHA1_MGF1SHA1),
            KeyTransport::RsaOaepSha256Mgf1Sha256 => oaep(&OAEP_SHA256_MGF1SHA256),
            KeyTransport::RsaOaepMgf1Sha256 => {
                // The key was checked above to be RSA and usable.
                return super::oaep::encrypt(&recipient.spki_der()?, key)
                    .ok_or(WssError::Encryption);
            }
            KeyTransport::Rsa15 => Pkcs1PublicEncryptingKey::new(public)
                .and_then(|k| k.encrypt(key, &mut out).map(|c| c.len())),
        }
        .map_err(|_| WssError::Encryption)?;
        out.truncate(len);
        Ok(out)
    }

    /// Decrypts an `EncryptedKey`'s `encrypted_key` with `credential`'s private key, expecting a
    /// key of `key_len` bytes (that of the `EncryptedData`'s [`BlockEncryption`]).
    ///
    /// [`Rsa15`](Self::Rsa15) uses implicit rejection (RFC 8017 §7.2.2 note, as Santuario and
    /// xmlsec do): when decryption fails or yields a key of another length, `key_len` random bytes
    /// are returned instead of an error, so the failure surfaces later as the same
    /// [`WssError::DecryptionFailed`] as a wrong key would. (The substitute is drawn before
    /// decrypting; the RSA decryption itself is aws-lc-rs's, and the choice between its result and
    /// the substitute is an ordinary branch, not constant-time code.)
    ///
    /// # Errors
    ///
    /// [`WssError::DecryptionFailed`] for [`RsaOaepMgf1Sha1`](Self::RsaOaepMgf1Sha1) on any failure
    /// (wrong length, bad OAEP padding, a key of another length than `key_len`);
    /// [`WssError::Random`] if no random bytes can be drawn.
    pub fn unwrap(
        self,
        credential: &X509Credential,
        encrypted_key: &[u8],
        key_len: usize,
    ) -> Result<Vec<u8>, WssError> {
        use aws_lc_rs::rsa::{
            OaepPrivateDecryptingKey, Pkcs1PrivateDecryptingKey, OAEP_SHA1_MGF1SHA1,
            OAEP_SHA256_MGF1SHA256,
        };
        let private = credential.decrypting_key()?.clone();
        let mut out = vec![0u8; private.key_size_bytes()];
        // Every OAEP failure, and a key of another length than the data's, is the same error.
        let exact = |out: Option<Vec<u8>>| match out {
            Some(k) if k.len() == key_len => Ok(k),
            _ => Err(WssError::DecryptionFailed),
        };
        let mut oaep = |alg| {
            let len = OaepPrivateDecryptingKey::new(private.clone())
                .and_then(|k| {
                    k.decrypt(alg, encrypted_key, &mut out, None)
                        .map(|p| p.len())
                })
                .ok()?;
            out.truncate(len);
            Some(out.clone())
        };
        match self {
            KeyTransport::RsaOaepMgf1Sha1 => exact(oaep(&OAEP_SHA1_MGF1SHA1)),
            KeyTransport::RsaOaepSha256Mgf1Sha256 => exact(oaep(&OAEP_SHA256_MGF1SHA256)),
            KeyTransport::RsaOaepMgf1Sha256 => exact(
                credential
                    .aws_lc_key()?
                    .oaep_sha1_mgf1_sha256_decrypt(encrypted_key),
            ),
            KeyTransport::Rsa15 => {
                // Drawn before decrypting, so both outcomes do the same work.
                let substitute = random_vec(key_len)?;
                let len = Pkcs1PrivateDecryptingKey::new(private)
                    .and_then(|k| k.decrypt(encrypted_key, &mut out).map(|p| p.len()));
                match len {
                    Ok(len) if len == key_len => {
                        out.truncate(len);
                        Ok(out)
                    }
                    _ => Ok(substitute),
                }
            }
        }
    }
}

fn fill_random(buf: &mut [u8]) -> Result<(), WssError> {
    aws_lc_rs::rand::SystemRandom::new()
        .fill(buf)
        .map_err(|_| WssError::Random)
}

fn random_vec(len: usize) -> Result<Vec<u8>, WssError> {
    let mut out = vec![0u8; len];
    fill_random(&mut out)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flip(data: &[u8], at: usize) -> Vec<u8> {
        let mut d = data.to_vec();
        d[at] ^= 0x01;
        d
    }

    #[test]
    fn uris_round_trip() {
        for alg in BlockEncryption::ALL {
            assert_eq!(BlockEncryption::from_uri(alg.uri()), Some(alg));
            assert!(alg.uri().starts_with(XENC_NS) || alg.uri().starts_with(XENC11_NS));
        }
        for kt in KeyTransport::ALL {
            assert_eq!(KeyTransport::from_uri(kt.uri()), Some(kt));
            assert!(kt.uri().starts_with(XENC_NS));
        }
        assert_eq!(
            BlockEncryption::from_uri("http://www.w3.org/2001/04/xmlenc#aes512-cbc"),
            None
        );
        assert_eq!(
            KeyTransport::from_uri(RSA_OAEP_XENC11),
            Some(KeyTransport::RsaOaepMgf1Sha1)
        );
    }

    #[test]
    fn key_transport_methods_are_checked_whole() {
        let oaep = KeyTransport::RsaOaepMgf1Sha1.uri();
        let sha256 = "http://www.w3.org/2001/04/xmlenc#sha256";
        let mgf256 = "http://www.w3.org/2009/xmlenc11#mgf1sha256";
        assert_eq!(
            KeyTransport::from_method(oaep, Some(SHA1), None),
            Some(KeyTransport::RsaOaepMgf1Sha1)
        );
        assert_eq!(
            KeyTransport::from_method(oaep, None, None),
            Some(KeyTransport::RsaOaepMgf1Sha1)
        );
        assert_eq!(KeyTransport::from_method(oaep, Some(sha256), None), None);
        assert_eq!(
            KeyTransport::from_method(RSA_OAEP_XENC11, Some(SHA1), Some(MGF1_SHA1)),
            Some(KeyTransport::RsaOaepMgf1Sha1)
        );
        assert_eq!(
            KeyTransport::from_method(RSA_OAEP_XENC11, None, Some(mgf256)),
            Some(KeyTransport::RsaOaepMgf1Sha256)
        );
        assert_eq!(
            KeyTransport::from_method(RSA_OAEP_XENC11, Some(SHA1), Some(mgf256)),
            Some(KeyTransport::RsaOaepMgf1Sha256)
        );
        assert_eq!(
            KeyTransport::from_method(RSA_OAEP_XENC11, Some(sha256), Some(mgf256)),
            Some(KeyTransport::RsaOaepSha256Mgf1Sha256)
        );
        for kt in KeyTransport::MGF1_SHA256 {
            assert_eq!(
                KeyTransport::from_method(kt.uri(), kt.digest(), kt.mgf()),
                Some(kt)
            );
        }
        assert_eq!(
            KeyTransport::from_method(RSA_OAEP_XENC11, Some(sha256), None),
            None
        );
        assert_eq!(
            KeyTransport::from_method(KeyTransport::Rsa15.uri(), None, None),
            Some(KeyTransport::Rsa15)
        );
        assert_eq!(KeyTransport::from_method("urn:x", None, None), None);
    }

    #[test]
    fn every_block_algorithm_round_trips_every_length() {
        for alg in BlockEncryption::ALL {
            let key = alg.generate_key().unwrap();
            assert_eq!(key.len(), alg.key_len());
            for len in [0usize, 1, 7, 8, 15, 16, 17, 31, 32, 33, 1000] {
                let plain: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
                let c = alg.encrypt(&key, &plain).unwrap();
                let (block, overhead) = match alg {
                    a if a.is_gcm() => (1, GCM_IV + GCM_TAG),
                    BlockEncryption::TripleDesCbc => (8, 8 + 8 - len % 8),
                    _ => (16, 16 + 16 - len % 16),
                };
                assert_eq!(c.len(), len + overhead, "{alg:?} {len}");
                assert_eq!(c.len() % block, 0);
                assert_eq!(alg.decrypt(&key, &c).unwrap(), plain, "{alg:?} {len}");
                // A fresh IV each time.
                assert_ne!(alg.encrypt(&key, &plain).unwrap(), c);
            }
        }
    }

    #[test]
    fn every_tamper_is_the_same_error() {
        let plain = b"<m:Echo xmlns:m=\"urn:m\">secret text, two blocks and more</m:Echo>";
        for alg in BlockEncryption::ALL {
            let key = alg.generate_key().unwrap();
            let c = alg.encrypt(&key, plain).unwrap();
            let mut bad: Vec<Vec<u8>> = Vec::new();
            let last = c.len() - 1;
            match alg {
                a if a.is_gcm() => {
                    bad.push(flip(&c, 0)); // IV
                    bad.push(flip(&c, GCM_IV + 3)); // ciphertext
                    bad.push(flip(&c, last)); // tag
                    bad.push(c[..c.len() - 1].to_vec()); // tag cut
                    bad.push(c[..GCM_IV + GCM_TAG - 1].to_vec()); // shorter than IV + tag
                }
                _ => {
                    let (_, block) = alg.cbc_algorithm();
                    // Padding: a ciphertext whose last byte decrypts to 0 or more than a block.
                    // Flipping the IV only changes the first block, so use a one-block message
                    // encrypted with padding forged through the IV.
                    let one = alg.encrypt(&key, &[]).unwrap(); // IV || E(pad*block)
                    for forged_last in [0u8, block as u8 + 1, 0xff] {
                        let mut f = one.clone();
                        f[block - 1] ^= block as u8 ^ forged_last;
                        bad.push(f);
                    }
                    bad.push(c[..c.len() - 1].to_vec()); // not whole blocks
                    bad.push(c[..block].to_vec()); // IV only
                    bad.push(c[..block - 1].to_vec()); // shorter than the IV
                                                       // A flipped byte in the last block's predecessor changes the padding byte.
                    let mut f = c.clone();
                    f[last - block] ^= 0x80;
                    bad.push(f);
                }
            }
            bad.push(Vec::new());
            for (i, b) in bad.iter().enumerate() {
                assert_eq!(
                    alg.decrypt(&key, b),
                    Err(WssError::DecryptionFailed),
                    "{alg:?} #{i}"
                );
            }
            // A wrong key of the right length, and keys of wrong lengths.
            let other = alg.generate_key().unwrap();
            match alg.decrypt(&other, &c) {
                Err(WssError::DecryptionFailed) => {}
                // Unauthenticated CBC may decrypt to garbage with a valid-looking last byte.
                Ok(p) => assert_ne!(p, plain, "{alg:?}"),
                Err(e) => panic!("{alg:?}: {e}"),
            }
            assert_eq!(alg.decrypt(&key[1..], &c), Err(WssError::DecryptionFailed));
            assert_eq!(alg.encrypt(&key[1..], plain), Err(WssError::Encryption));
            let msg = WssError::DecryptionFailed.to_string();
            assert!(!msg.contains("padding") && !msg.contains("tag"), "{msg}");
        }
    }

    #[test]
    fn cbc_accepts_iso10126_padding() {
        use aws_lc_rs::cipher::{DecryptionContext, EncryptingKey, UnboundCipherKey};
        // Random pad bytes before the count byte, as Santuario writes them: encrypt raw blocks.
        let key = BlockEncryption::Aes128Cbc.generate_key().unwrap();
        let mut buf = b"hello".to_vec();
        buf.extend_from_slice(&[0x9a, 0x01, 0x77, 0x00, 0x42, 0xee, 0x13, 0x5c, 0xd0, 0x0b]);
        buf.push(11);
        let ctx =
            EncryptingKey::cbc(UnboundCipherKey::new(&aws_lc_rs::cipher::AES_128, &key).unwrap())
                .unwrap()
                .encrypt(&mut buf)
                .unwrap();
        let DecryptionContext::Iv128(iv) = ctx else {
            panic!("a 128-bit IV")
        };
        let mut data = iv.as_ref().to_vec();
        data.extend_from_slice(&buf);
        assert_eq!(
            BlockEncryption::Aes128Cbc.decrypt(&key, &data).unwrap(),
            b"hello"
        );
    }
}
