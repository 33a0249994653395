//! A certificate with its private key (RSA or ECDSA): read from PEM, DER or PKCS#12 (RFC
//! 7292), used to sign (RSASSA-PKCS1-v1_5, RSASSA-PSS, ECDSA) and to decrypt (RSA key
//! transport, XML-Enc §5.4).

use std::fmt;
use std::sync::{Arc, OnceLock};

use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::rsa::PrivateDecryptingKey;
use aws_lc_rs::signature::{EcdsaKeyPair, EcdsaSigningAlgorithm, KeyPair, RsaKeyPair};
use x509_parser::oid_registry::OID_PKCS1_RSAENCRYPTION;
use x509_parser::pem::Pem;

use super::Certificate;
use crate::wss::rsa_sha1::Sha1Key;
use crate::wss::{SignatureAlgorithm, WssError};

/// A certificate and the private key that belongs to it: what a client signs with — an RSA key
/// (RSASSA-PKCS1-v1_5 and RSASSA-PSS, RFC 8017 §8) or an ECDSA key on P-256, P-384 or P-521
/// (FIPS 186-4, RFC 6931 §2.3.6) — and, for RSA, what it decrypts with (XML-Enc §5.4). Cheap to
/// clone (shared). The `Debug` form shows the certificate, never the key.
#[derive(Clone)]
pub struct X509Credential {
    cert: Certificate,
    key: PrivateKey,
}

#[derive(Clone)]
enum PrivateKey {
    Rsa {
        key: Arc<RsaKeyPair>,
        /// The same private key, for RSA decryption (XML-Enc §5.4 key transport).
        decrypting: PrivateDecryptingKey,
        /// The key in AWS-LC's own form, made on the first RSA-SHA1 signature.
        sha1_key: Arc<OnceLock<Sha1Key>>,
    },
    Ec {
        key: Arc<EcdsaKeyPair>,
        curve: EcCurve,
    },
}

/// The NIST curves soapgen signs with (FIPS 186-4 §D.1.2), each with the hash of its size, as
/// XML-DSig 1.1 §6.4.3 recommends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EcCurve {
    P256,
    P384,
    P521,
}

impl EcCurve {
    /// The curve of a certificate's EC key (as [`Certificate::public_key_algorithm`] names it).
    fn of(cert: &Certificate) -> Option<EcCurve> {
        match cert.public_key_algorithm() {
            "EC P-256" => Some(EcCurve::P256),
            "EC P-384" => Some(EcCurve::P384),
            "EC P-521" => Some(EcCurve::P521),
            _ => None,
        }
    }

    fn signing(self) -> &'static EcdsaSigningAlgorithm {
        use aws_lc_rs::signature as s;
        match self {
            EcCurve::P256 => &s::ECDSA_P256_SHA256_FIXED_SIGNING,
            EcCurve::P384 => &s::ECDSA_P384_SHA384_FIXED_SIGNING,
            EcCurve::P521 => &s::ECDSA_P521_SHA512_FIXED_SIGNING,
        }
    }

    fn signature_algorithm(self) -> SignatureAlgorithm {
        match self {
            EcCurve::P256 => SignatureAlgorithm::EcdsaSha256,
            EcCurve::P384 => SignatureAlgorithm::EcdsaSha384,
            EcCurve::P521 => SignatureAlgorithm::EcdsaSha512,
        }
    }

    fn name(self) -> &'static str {
        match self {
            EcCurve::P256 => "P-256",
            EcCurve::P384 => "P-384",
            EcCurve::P521 => "P-521",
        }
    }
}

impl X509Credential {
    /// A certificate and its private key, both as PEM text: the certificate's first
    /// `CERTIFICATE` block; the key's first `PRIVATE KEY` (PKCS#8, RFC 5208), `RSA PRIVATE KEY`
    /// (PKCS#1, RFC 8017) or `EC PRIVATE KEY` (RFC 5915) block. Both may be in one file (pass it
    /// twice). The key type follows the certificate's: RSA, or EC on P-256, P-384 or P-521.
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] as [`Certificate::from_pem`], or a certificate whose key is
    /// neither RSA nor EC on one of those curves; [`WssError::Key`]: no key block, an encrypted
    /// key, a key of another type or curve than the certificate's, rejected by aws-lc-rs
    /// (malformed, an RSA key shorter than 2048 bits), or not the certificate's key.
    pub fn from_pem(cert_pem: &[u8], key_pem: &[u8]) -> Result<X509Credential, WssError> {
        let cert = Certificate::from_pem(cert_pem, "certificate")?;
        for (i, block) in Pem::iter_from_buffer(key_pem).enumerate() {
            let block = block.map_err(|e| WssError::Key {
                name: format!("PEM block {}", i + 1),
                reason: format!("bad PEM ({e})"),
            })?;
            let name = format!("PEM block {} ({})", i + 1, block.label);
            match block.label.as_str() {
                "PRIVATE KEY" | "RSA PRIVATE KEY" | "EC PRIVATE KEY" => {
                    return Self::with_key_der(cert, &block.contents, &name)
                }
                "ENCRYPTED PRIVATE KEY" => {
                    return Err(WssError::Key {
                        name,
                        reason: "encrypted keys are not read; decrypt it first (openssl pkcs8)"
                            .to_owned(),
                    })
                }
                _ => continue,
            }
        }
        Err(WssError::Key {
            name: "key".to_owned(),
            reason: "no -----BEGIN PRIVATE KEY-----, -----BEGIN RSA PRIVATE KEY----- or -----BEGIN EC PRIVATE KEY----- block"
                .to_owned(),
        })
    }

    /// A certificate and its private key in DER: PKCS#8 (RFC 5208), PKCS#1 `RSAPrivateKey` or
    /// RFC 5915 `ECPrivateKey`, of the certificate's key type.
    ///
    /// # Errors
    ///
    /// As [`from_pem`](Self::from_pem).
    pub fn from_der(cert_der: &[u8], key_der: &[u8]) -> Result<X509Credential, WssError> {
        let cert = Certificate::from_der(cert_der, "certificate")?;
        Self::with_key_der(cert, key_der, "key")
    }

    /// `cert` with the private key `der` (PKCS#8, PKCS#1 or RFC 5915) of its key type.
    fn with_key_der(cert: Certificate, der: &[u8], name: &str) -> Result<X509Credential, WssError> {
        if let Some(curve) = EcCurve::of(&cert) {
            let key = EcdsaKeyPair::from_private_key_der(curve.signing(), der).map_err(|e| {
                WssError::Key {
                    name: name.to_owned(),
                    reason: format!(
                        "not a usable EC {} key (PKCS#8 or RFC 5915), as the certificate's is: {e}",
                        curve.name()
                    ),
                }
            })?;
            return Self::new_ec(cert, key, curve);
        }
        if cert.public_key_algorithm().starts_with("EC") {
            return Err(WssError::Certificate {
                name: cert.inner.subject.clone(),
                reason: format!(
                    "its key is {}: only P-256, P-384 and P-521 sign",
                    cert.public_key_algorithm()
                ),
            });
        }
        let key = RsaKeyPair::from_pkcs8(der)
            .or_else(|_| RsaKeyPair::from_der(der))
            .map_err(|e| WssError::Key {
                name: name.to_owned(),
                reason: format!("not a usable RSA key in PKCS#8 or PKCS#1 DER: {e}"),
            })?;
        Self::new(cert, key)
    }

    /// The private key of a PKCS#12 store (RFC 7292) and the certificate that belongs to it
    /// (the one whose public key is the key's; other certificates, such as the issuing CA, are
    /// ignored). Reads OpenSSL 3's default protection (PBES2/PBKDF2/AES-256-CBC, HMAC-SHA-256
    /// MAC), Java keytool's, and the legacy `openssl pkcs12 -legacy` one (PBE-SHA1-3DES,
    /// PBE-SHA1-RC2-40, HMAC-SHA-1 MAC). With several keys, the first that has its certificate
    /// in the store is taken. RSA keys and EC keys on P-256, P-384 and P-521 are read.
    ///
    /// # Errors
    ///
    /// [`WssError::Key`] naming `PKCS#12 store`: not PKCS#12 (DER `PFX`, version 3); a wrong
    /// password (the MAC does not verify, or the bags do not decrypt); no key bag; a key that is
    /// neither RSA (rsaEncryption, 1.2.840.113549.1.1.1) nor EC (id-ecPublicKey,
    /// 1.2.840.10045.2.1), or that aws-lc-rs refuses (an RSA key below 2048 bits); no certificate
    /// of the key. [`WssError::Certificate`] for a certificate in it that
    /// [`Certificate::from_der`] refuses. [`from_pkcs12_file`](Self::from_pkcs12_file) names the
    /// file instead.
    pub fn from_pkcs12(der: &[u8], password: &str) -> Result<X509Credential, WssError> {
        Self::from_pkcs12_named(der, password, "PKCS#12 store")
    }

    /// [`from_pkcs12`](Self::from_pkcs12) of the file at `path`, whose name the errors carry.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use soapgen_runtime::wss::{KeyReference, WssConfig, X509Credential, X509Signer};
    /// let cred = X509Credential::from_pkcs12_file("client.p12", "changeit")?;
    /// let signer = X509Signer::new(cred).key_reference(KeyReference::X509IssuerSerial)?;
    /// let wss = WssConfig::new().sign(signer);
    /// # Ok::<(), soapgen_runtime::wss::WssError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`from_pkcs12`](Self::from_pkcs12); [`WssError::Key`] when the file cannot be read.
    pub fn from_pkcs12_file(
        path: impl AsRef<std::path::Path>,
        password: &str,
    ) -> Result<X509Credential, WssError> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let der = std::fs::read(path).map_err(|e| WssError::Key {
            name: name.clone(),
            reason: format!("cannot read it: {e}"),
        })?;
        Self::from_pkcs12_named(&der, password, &name)
    }

    fn from_pkcs12_named(
        der: &[u8],
        password: &str,
        name: &str,
    ) -> Result<X509Credential, WssError> {
        let bad = |reason: String| WssError::Key {
            name: name.to_owned(),
            reason,
        };
        let archive = read_pkcs12(der, password).map_err(bad)?;
        if archive.keys.is_empty() {
            return Err(bad(
                "it holds no private key (no PKCS#8 ShroudedKeyBag or KeyBag)".to_owned(),
            ));
        }
        let certs = archive
            .certs
            .iter()
            .enumerate()
            .map(|(i, bag)| {
                Certificate::from_der(bag.cert.as_der(), &format!("{name} certificate {}", i + 1))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut first_error = None;
        for (i, bag) in archive.keys.iter().enumerate() {
            let oid = bag.key.oid().to_string();
            if oid == "1.2.840.10045.2.1" {
                // EC: the certificate with the same public point, on its curve.
                let found = certs.iter().find_map(|c| {
                    let curve = EcCurve::of(c)?;
                    let key = EcdsaKeyPair::from_private_key_der(curve.signing(), bag.key.as_der())
                        .ok()?;
                    (key.public_key().as_ref() == c.public_key_data()).then_some((c, key, curve))
                });
                match found {
                    Some((c, key, curve)) => return Self::new_ec(c.clone(), key, curve),
                    None => {
                        first_error.get_or_insert_with(|| {
                            bad(format!(
                                "no certificate in it belongs to EC key {} ({} certificates, none with its public key on P-256, P-384 or P-521)",
                                i + 1,
                                certs.len()
                            ))
                        });
                        continue;
                    }
                }
            }
            if oid != OID_PKCS1_RSAENCRYPTION.to_id_string() {
                first_error.get_or_insert_with(|| {
                    bad(format!(
                        "key {} is neither RSA nor EC (algorithm {oid}): it cannot sign",
                        i + 1,
                    ))
                });
                continue;
            }
            let key = match RsaKeyPair::from_pkcs8(bag.key.as_der()) {
                Ok(key) => key,
                Err(e) => {
                    first_error.get_or_insert_with(|| {
                        bad(format!("key {} is not a usable RSA key: {e}", i + 1))
                    });
                    continue;
                }
            };
            let public = key.public_key().as_ref();
            if let Some(cert) = certs
                .iter()
                .find(|c| c.inner.rsa_public_key.as_deref() == Some(public))
            {
                return Self::new(cert.clone(), key);
            }
            first_error.get_or_insert_with(|| {
                bad(format!(
                    "no certificate in it belongs to key {} ({} certificates, none with its public key)",
                    i + 1,
                    certs.len()
                ))
            });
        }
        Err(first_error.unwrap_or_else(|| bad("no usable key".to_owned())))
    }

    fn new(cert: Certificate, key: RsaKeyPair) -> Result<X509Credential, WssError> {
        let Some(public) = &cert.inner.rsa_public_key else {
            return Err(WssError::Certificate {
                name: cert.inner.subject.clone(),
                reason: "its public key is not RSA (rsaEncryption, 1.2.840.113549.1.1.1)"
                    .to_owned(),
            });
        };
        if key.public_key().as_ref() != public.as_slice() {
            return Err(WssError::Key {
                name: "key".to_owned(),
                reason: format!(
                    "it is not the key of the certificate {}",
                    cert.inner.subject
                ),
            });
        }
        let decrypting = key
            .as_der()
            .ok()
            .and_then(|der| PrivateDecryptingKey::from_pkcs8(der.as_ref()).ok())
            .ok_or_else(|| WssError::Key {
                name: "key".to_owned(),
                reason: "aws-lc-rs cannot use it for RSA decryption".to_owned(),
            })?;
        Ok(X509Credential {
            cert,
            key: PrivateKey::Rsa {
                key: Arc::new(key),
                decrypting,
                sha1_key: Arc::default(),
            },
        })
    }

    fn new_ec(
        cert: Certificate,
        key: EcdsaKeyPair,
        curve: EcCurve,
    ) -> Result<X509Credential, WssError> {
        if key.public_key().as_ref() != cert.public_key_data() {
            return Err(WssError::Key {
                name: "key".to_owned(),
                reason: format!(
                    "it is not the key of the certificate {}",
                    cert.inner.subject
                ),
            });
        }
        Ok(X509Credential {
            cert,
            key: PrivateKey::Ec {
                key: Arc::new(key),
                curve,
            },
        })
    }

    /// The certificate.
    pub fn certificate(&self) -> &Certificate {
        &self.cert
    }

    /// The SignatureMethod this key signs with unless told otherwise: RSA-SHA256 for an RSA key,
    /// ECDSA with the hash of the curve's size for an EC key (P-256 with SHA-256, P-384 with
    /// SHA-384, P-521 with SHA-512; XML-DSig 1.1 §6.4.3).
    pub fn default_signature_algorithm(&self) -> SignatureAlgorithm {
        match &self.key {
            PrivateKey::Rsa { .. } => SignatureAlgorithm::RsaSha256,
            PrivateKey::Ec { curve, .. } => curve.signature_algorithm(),
        }
    }

    /// Whether this key can sign with `alg`: an RSA key the RSA methods (PKCS#1 v1.5 and PSS),
    /// an EC key the ECDSA method of its curve's hash.
    pub fn can_sign_with(&self, alg: SignatureAlgorithm) -> bool {
        match &self.key {
            PrivateKey::Rsa { .. } => !alg.is_ecdsa(),
            PrivateKey::Ec { curve, .. } => curve.signature_algorithm() == alg,
        }
    }

    /// The RSA private key in AWS-LC's own form (made once), for what aws-lc-rs does not offer
    /// (RSA-SHA1 signatures, OAEP with SHA-1 and MGF1-SHA-256).
    ///
    /// # Errors
    ///
    /// As [`decrypting_key`](Self::decrypting_key) for a key that is not RSA;
    /// [`WssError::Sign`] if AWS-LC cannot read it.
    pub(crate) fn aws_lc_key(&self) -> Result<&Sha1Key, WssError> {
        self.decrypting_key()?;
        match &self.key {
            PrivateKey::Rsa { key, sha1_key, .. } => {
                if let Some(k) = sha1_key.get() {
                    return Ok(k);
                }
                let made = Sha1Key::new(key)?;
                Ok(sha1_key.get_or_init(|| made))
            }
            PrivateKey::Ec { .. } => Err(WssError::Sign),
        }
    }

    /// The private key for RSA decryption (XML-Enc §5.4 key transport). Cloning it is cheap
    /// (reference-counted).
    ///
    /// # Errors
    ///
    /// [`WssError::Key`] for an EC key: RSA key transport needs an RSA key.
    pub(crate) fn decrypting_key(&self) -> Result<&PrivateDecryptingKey, WssError> {
        match &self.key {
            PrivateKey::Rsa { decrypting, .. } => Ok(decrypting),
            PrivateKey::Ec { curve, .. } => Err(WssError::Key {
                name: self.cert.inner.subject.clone(),
                reason: format!(
                    "an EC {} key cannot decrypt an RSA key transport (XML-Enc §5.4)",
                    curve.name()
                ),
            }),
        }
    }

    /// The signature of `msg` with `alg` (XML-DSig §6.4): RSASSA-PKCS1-v1_5 or RSASSA-PSS (salt
    /// as long as the hash, MGF1 with the same hash, RFC 8017 §8.1) as many bytes as the
    /// modulus; ECDSA as the concatenation `r || s`, each as long as the curve's order (XML-DSig
    /// 1.1 §6.4.3, RFC 4050 §3.3).
    ///
    /// # Errors
    ///
    /// [`WssError::Key`] when this key cannot sign with `alg` (an RSA method with an EC key, an
    /// ECDSA method with an RSA key or another curve's); [`WssError::Sign`] if the
    /// cryptographic library fails.
    pub(crate) fn sign(&self, alg: SignatureAlgorithm, msg: &[u8]) -> Result<Vec<u8>, WssError> {
        use aws_lc_rs::signature as s;
        let rng = aws_lc_rs::rand::SystemRandom::new();
        match &self.key {
            PrivateKey::Rsa { key, .. } => {
                let padding: &'static dyn aws_lc_rs::signature::RsaEncoding = match alg {
                    SignatureAlgorithm::RsaSha1 => return self.aws_lc_key()?.sign(msg),
                    SignatureAlgorithm::RsaSha256 => &s::RSA_PKCS1_SHA256,
                    SignatureAlgorithm::RsaSha512 => &s::RSA_PKCS1_SHA512,
                    SignatureAlgorithm::RsaPssSha256 => &s::RSA_PSS_SHA256,
                    SignatureAlgorithm::RsaPssSha384 => &s::RSA_PSS_SHA384,
                    SignatureAlgorithm::RsaPssSha512 => &s::RSA_PSS_SHA512,
                    SignatureAlgorithm::EcdsaSha256
                    | SignatureAlgorithm::EcdsaSha384
                    | SignatureAlgorithm::EcdsaSha512 => {
                        return Err(WssError::Key {
                            name: self.cert.inner.subject.clone(),
                            reason: format!(
                                "an RSA key cannot sign with {} (an RSA SignatureMethod, such as {}, can)",
                                alg.uri(),
                                SignatureAlgorithm::RsaSha256.uri()
                            ),
                        })
                    }
                };
                let mut sig = vec![0u8; key.public_modulus_len()];
                key.sign(padding, &rng, msg, &mut sig)
                    .map_err(|_| WssError::Sign)?;
                Ok(sig)
            }
            PrivateKey::Ec { key, curve } => {
                if curve.signature_algorithm() != alg {
                    return Err(WssError::Key {
                        name: self.cert.inner.subject.clone(),
                        reason: format!(
                            "an EC {} key signs with {} only, not {}",
                            curve.name(),
                            curve.signature_algorithm().uri(),
                            alg.uri()
                        ),
                    });
                }
                key.sign(&rng, msg)
                    .map(|sig| sig.as_ref().to_vec())
                    .map_err(|_| WssError::Sign)
            }
        }
    }
}

impl fmt::Debug for X509Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("X509Credential")
            .field("certificate", &self.cert)
            .field(
                "key",
                &match &self.key {
                    PrivateKey::Rsa { .. } => "RSA private key",
                    PrivateKey::Ec { .. } => "EC private key",
                },
            )
            .finish()
    }
}

/// Opens a PKCS#12 `PFX` (RFC 7292 §4): checks the MAC with `password` and decrypts the bags; the
/// error says why not, in words.
pub(super) fn read_pkcs12(
    der: &[u8],
    password: &str,
) -> Result<p12_keystore::Pkcs12Archive, String> {
    use p12_keystore::error::Error as P12;
    p12_keystore::Pkcs12Archive::from_pkcs12(der, password).map_err(|e| match e {
        P12::MacError(_) => {
            "wrong password (or a damaged store): its MAC (RFC 7292 §5) does not verify".to_owned()
        }
        P12::UnpadError | P12::Pkcs5Error(_) => {
            format!("wrong password, or damaged: its bags do not decrypt with it ({e})")
        }
        P12::DerError(_) | P12::InvalidVersion | P12::UnsupportedContentType => {
            format!("not a PKCS#12 store (RFC 7292 PFX in DER): {e}")
        }
        P12::UnsupportedEncryptionScheme | P12::UnsupportedMacAlgorithm => {
            format!("unsupported protection: {e}")
        }
        other => format!("unreadable PKCS#12 store: {other}"),
    })
}
