//! Which algorithms a response may use (XML-DSig §6, XML-Enc §5), and the replay cache.

use std::collections::HashMap;
use std::sync::Mutex;

use super::{DigestAlgorithm, SignatureAlgorithm, UtcTime, C14N_10, C14N_11};

pub(crate) const RSA_SHA1: &str = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
pub(crate) const RSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
pub(crate) const RSA_SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha384";
pub(crate) const RSA_SHA512: &str = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512";
pub(crate) const RSA_PSS_SHA256: &str = "http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1";
pub(crate) const RSA_PSS_SHA384: &str = "http://www.w3.org/2007/05/xmldsig-more#sha384-rsa-MGF1";
pub(crate) const RSA_PSS_SHA512: &str = "http://www.w3.org/2007/05/xmldsig-more#sha512-rsa-MGF1";
pub(crate) const RSA_PSS: &str = "http://www.w3.org/2007/05/xmldsig-more#rsa-pss";
pub(crate) const ECDSA_SHA256: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256";
pub(crate) const ECDSA_SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384";
pub(crate) const ECDSA_SHA512: &str = "http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512";
pub(crate) const SHA1: &str = "http://www.w3.org/2000/09/xmldsig#sha1";
pub(crate) const SHA256: &str = "http://www.w3.org/2001/04/xmlenc#sha256";
pub(crate) const SHA384: &str = "http://www.w3.org/2001/04/xmldsig-more#sha384";
pub(crate) const SHA512: &str = "http://www.w3.org/2001/04/xmlenc#sha512";

pub(crate) const AES128_CBC: &str = "http://www.w3.org/2001/04/xmlenc#aes128-cbc";
pub(crate) const AES192_CBC: &str = "http://www.w3.org/2001/04/xmlenc#aes192-cbc";
pub(crate) const AES256_CBC: &str = "http://www.w3.org/2001/04/xmlenc#aes256-cbc";
pub(crate) const AES128_GCM: &str = "http://www.w3.org/2009/xmlenc11#aes128-gcm";
pub(crate) const AES192_GCM: &str = "http://www.w3.org/2009/xmlenc11#aes192-gcm";
pub(crate) const AES256_GCM: &str = "http://www.w3.org/2009/xmlenc11#aes256-gcm";
pub(crate) const TRIPLEDES_CBC: &str = "http://www.w3.org/2001/04/xmlenc#tripledes-cbc";
pub(crate) const RSA_OAEP_MGF1P: &str = "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p";
pub(crate) const RSA_OAEP_11: &str = "http://www.w3.org/2009/xmlenc11#rsa-oaep";
pub(crate) const RSA_1_5: &str = "http://www.w3.org/2001/04/xmlenc#rsa-1_5";

/// The algorithms a response may use, by URI; anything else is refused with
/// [`WssError::AlgorithmNotAllowed`](super::WssError::AlgorithmNotAllowed).
///
/// The default allows
/// - SignatureMethod RSA-SHA256, RSA-SHA384, RSA-SHA512 and RSA-SHA1 (XML-DSig §6.4.2, RFC 6931
///   §2.3.2), RSASSA-PSS with SHA-256/384/512 (RFC 6931 §2.3.11 `sha256-rsa-MGF1`…, and §2.3.10
///   `rsa-pss` with RSAPSSParams of one of those; RFC 9231 §2.3), ECDSA with SHA-256 on P-256, SHA-384
///   on P-384 and SHA-512 on P-521 (RFC 6931 §2.3.6); DigestMethod SHA-256, SHA-384, SHA-512 and
///   SHA-1: SHA-1 remains because WSS4J 1.6, zeep and most deployed services still sign with it;
///   [`without_sha1`](Self::without_sha1) drops it;
/// - CanonicalizationMethod and Transform Exclusive C14N 1.0 (WS-I BSP 1.1 R5404, R5412) and the
///   WSS STR-Transform;
/// - block encryption AES-128/192/256 in CBC (XML-Enc §5.2.2) and GCM (XML-Enc 1.1 §5.2.4);
/// - key transport RSA-OAEP (XML-Enc §5.4.2, MGF1 with SHA-1).
///
/// Not by default: inclusive Canonical XML 1.0 and 1.1 ([`C14N_10`], [`C14N_11`]; XML-DSig
/// §6.5 requires verifiers to support 1.0, WS-I BSP 1.1 R5404 and WSS4J refuse it, since a
/// signature over inclusive C14N breaks when the envelope's namespaces change), allowed with
/// [`allow_inclusive_c14n`](Self::allow_inclusive_c14n); and, for old peers only, 3DES-CBC and
/// RSA-1_5 key transport (attackable: DESIGN "Security defaults"), allowed with
/// [`allow`](Self::allow). HMAC signature methods are never accepted (no shared-key signatures),
/// nor are the `#WithComments` forms, XPath, XSLT or enveloped-signature transforms.
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct AlgorithmPolicy {
    allowed: Vec<&'static str>,
}

impl Default for AlgorithmPolicy {
    fn default() -> Self {
        AlgorithmPolicy {
            allowed: ALLOWED_BY_DEFAULT.to_vec(),
        }
    }
}

/// The algorithm URIs [`AlgorithmPolicy::default`] allows.
const ALLOWED_BY_DEFAULT: &[&str] = &[
    RSA_SHA256,
    RSA_SHA384,
    RSA_SHA512,
    RSA_SHA1,
    RSA_PSS_SHA256,
    RSA_PSS_SHA384,
    RSA_PSS_SHA512,
    RSA_PSS,
    ECDSA_SHA256,
    ECDSA_SHA384,
    ECDSA_SHA512,
    SHA256,
    SHA384,
    SHA512,
    SHA1,
    AES128_CBC,
    AES192_CBC,
    AES256_CBC,
    AES128_GCM,
    AES192_GCM,
    AES256_GCM,
    RSA_OAEP_MGF1P,
    RSA_OAEP_11,
];

/// The algorithm URIs soapgen implements but allows only when asked (3DES, RSA-1_5: DESIGN.md
/// "Security defaults"); with [`ALLOWED_BY_DEFAULT`], the ones [`AlgorithmPolicy::allow`] takes.
const ALLOWED_ON_REQUEST: &[&str] = &[TRIPLEDES_CBC, RSA_1_5, C14N_10, C14N_11];

impl AlgorithmPolicy {
    /// Also allows the algorithm with this URI (for example
    /// `"http://www.w3.org/2001/04/xmlenc#tripledes-cbc"` or `"…#rsa-1_5"` for an old peer). URIs
    /// soapgen does not implement are ignored: they could not be processed anyway.
    pub fn allow(mut self, uri: &str) -> Self {
        if let Some(known) = ALLOWED_BY_DEFAULT
            .iter()
            .chain(ALLOWED_ON_REQUEST)
            .find(|k| **k == uri)
        {
            if !self.allowed.contains(known) {
                self.allowed.push(known);
            }
        }
        self
    }

    /// Refuses the algorithm with this URI.
    pub fn deny(mut self, uri: &str) -> Self {
        self.allowed.retain(|a| *a != uri);
        self
    }

    /// Also allows inclusive Canonical XML 1.0 ([`C14N_10`], XML-DSig §6.5.1) and 1.1
    /// ([`C14N_11`], XML-DSig 1.1 §6.5.2), without comments, as CanonicalizationMethod and as
    /// a Reference's Transform, for peers that sign with them (.NET's `SignedXml` default,
    /// some Metro and SAML stacks). Off by default (WS-I BSP 1.1 R5404, WSS4J): such a message
    /// is refused with [`WssError::AlgorithmNotAllowed`](super::WssError::AlgorithmNotAllowed)
    /// naming this switch.
    pub fn allow_inclusive_c14n(self) -> Self {
        self.allow(C14N_10).allow(C14N_11)
    }

    /// Refuses RSA-SHA1 signatures and SHA-1 digests.
    pub fn without_sha1(self) -> Self {
        self.deny(RSA_SHA1).deny(SHA1)
    }

    /// Allows a signature algorithm soapgen signs with.
    pub fn allow_signature(self, alg: SignatureAlgorithm) -> Self {
        self.allow(alg.uri())
    }

    /// Allows a digest algorithm soapgen signs with.
    pub fn allow_digest(self, alg: DigestAlgorithm) -> Self {
        self.allow(alg.uri())
    }

    /// Only the algorithms of a WS-SecurityPolicy algorithm suite (SP 1.2 §6.1): its signature
    /// method, digest, block encryption and key transport (3DES and RSA-1_5 too when the suite
    /// names them).
    pub fn only(
        signature: SignatureAlgorithm,
        digest: DigestAlgorithm,
        encryption: super::BlockEncryption,
        key_transport: super::KeyTransport,
    ) -> Self {
        AlgorithmPolicy {
            allowed: Vec::new(),
        }
        .allow(signature.uri())
        .allow(digest.uri())
        .allow(encryption.uri())
        .allow(key_transport.uri())
    }

    /// Whether the algorithm with this URI is allowed.
    pub fn allows(&self, uri: &str) -> bool {
        self.allowed.contains(&uri)
    }
}

/// Signature values and nonces accepted recently, each until the end of the window in which the
/// same message would still be accepted (WSS 1.1 §10: its Timestamp's `Created` plus the maximum
/// age, or its `Expires` plus the clock skew if earlier; without a Timestamp, as long as there is
/// room).
///
/// Each value is kept as two 64-bit hashes under keys drawn at random for this cache (16 bytes,
/// no allocation per message, instead of the 256-byte value): a collision, which would refuse a
/// fresh message as a replay, has a probability near 2^-128 and cannot be aimed at without the
/// keys; a replay always hashes the same.
#[derive(Default)]
pub(crate) struct ReplayCache {
    seen: Mutex<HashMap<(u64, u64), UtcTime>>,
    keys: (std::hash::RandomState, std::hash::RandomState),
}

impl std::fmt::Debug for ReplayCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.seen.lock().map(|s| s.len()).unwrap_or(0);
        write!(f, "ReplayCache({n} entries)")
    }
}

/// At most this many entries are kept; when full, expired ones are dropped first, then the
/// oldest half.
const REPLAY_CAPACITY: usize = 100_000;

impl ReplayCache {
    /// Records `value` until `until`; `false` if it was already there and not yet expired.
    pub(crate) fn check_and_insert(&self, value: &[u8], now: UtcTime, until: UtcTime) -> bool {
        use std::hash::BuildHasher;
        let key = (self.keys.0.hash_one(value), self.keys.1.hash_one(value));
        let Ok(mut seen) = self.seen.lock() else {
            return true;
        };
        if let Some(end) = seen.get(&key) {
            if *end >= now {
                return false;
            }
        }
        if seen.len() >= REPLAY_CAPACITY {
            seen.retain(|_, end| *end >= now);
            if seen.len() >= REPLAY_CAPACITY {
                let mut ends: Vec<UtcTime> = seen.values().copied().collect();
                ends.sort_unstable();
                let cut = ends[ends.len() / 2];
                seen.retain(|_, end| *end > cut);
            }
        }
        seen.insert(key, until);
        true
    }
}

/// Certificates read from BinarySecurityTokens, by their base64 text, so that a peer's certificate
/// sent in every response is parsed once (the bytes are compared whole: a changed token is a miss).
#[derive(Default)]
pub(crate) struct CertificateCache {
    /// (token text, its certificate): few entries, found by length and then bytes, which costs
    /// less than hashing a 1–2 KB token.
    seen: Mutex<Vec<(Box<str>, super::Certificate)>>,
}

/// At most this many certificates are kept; when full, the cache is emptied.
const CERTIFICATE_CACHE_CAPACITY: usize = 256;

impl std::fmt::Debug for CertificateCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.seen.lock().map(|s| s.len()).unwrap_or(0);
        write!(f, "CertificateCache({n} entries)")
    }
}

impl CertificateCache {
    /// The certificate of the token text `base64` (as written), read with `read` on a miss.
    pub(crate) fn get_or_read(
        &self,
        base64: &str,
        read: impl FnOnce() -> Result<super::Certificate, super::WssError>,
    ) -> Result<super::Certificate, super::WssError> {
        if let Ok(seen) = self.seen.lock() {
            if let Some((_, c)) = seen.iter().find(|(k, _)| **k == *base64) {
                return Ok(c.clone());
            }
        }
        let c = read()?;
        if let Ok(mut seen) = self.seen.lock() {
            if seen.len() >= CERTIFICATE_CACHE_CAPACITY {
                seen.clear();
            }
            seen.push((base64.into(), c.clone()));
        }
        Ok(c)
    }
}
