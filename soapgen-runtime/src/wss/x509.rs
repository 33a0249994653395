//! X.509 certificates and RSA private keys for signing (WSS X.509 Certificate Token Profile 1.1),
//! read from PEM or DER.

use std::fmt;
use std::sync::{Arc, OnceLock};

use aws_lc_rs::encoding::AsDer;
use aws_lc_rs::rsa::{PrivateDecryptingKey, PublicEncryptingKey};
use aws_lc_rs::signature::{
    EcdsaKeyPair, EcdsaSigningAlgorithm, KeyPair, ParsedPublicKey, RsaKeyPair,
    VerificationAlgorithm,
};
use num_bigint::BigInt;
use x509_parser::extensions::ParsedExtension;
use x509_parser::oid_registry::{OID_PKCS1_RSAENCRYPTION, OID_X509_EXT_SUBJECT_KEY_IDENTIFIER};
use x509_parser::pem::Pem;
use x509_parser::prelude::FromDer;

use super::dn::DistinguishedName;
use super::rsa_sha1::Sha1Key;
use super::{SignatureAlgorithm, WssError};

mod chain;

pub(crate) use chain::{pkcs7_certificates, pki_path};

/// An X.509 v3 certificate (RFC 5280), kept in DER, parsed and checked once when loaded: its
/// subject, issuer, serial, validity and Subject Key Identifier are read, and a malformed
/// extension among those soapgen uses is an error naming it.
///
/// Travels as the content of a `wsse:BinarySecurityToken` with `ValueType="…#X509v3"` (X.509
/// Token Profile 1.1 §3.1).
#[derive(Clone, PartialEq, Eq)]
pub struct Certificate {
    /// Shared: a certificate is cloned into every report and signed part it stands for.
    inner: Arc<CertificateFields>,
}

struct CertificateFields {
    der: Arc<[u8]>,
    /// The subject public key parsed for the first signature algorithm a signature was checked
    /// with (aws-lc then also keeps the key's Montgomery context): a peer's certificate, cached
    /// across responses, is not parsed again for each.
    parsed_key: OnceLock<(&'static dyn VerificationAlgorithm, Option<ParsedPublicKey>)>,
    subject: String,
    issuer: String,
    serial: String,
    not_before: i64,
    not_after: i64,
    ski: Option<Vec<u8>>,
    rsa_public_key: Option<Vec<u8>>,
    /// The subjectPublicKey BIT STRING content (RSA: `RSAPublicKey` DER; EC: the point).
    public_key: Vec<u8>,
    issuer_dn: DistinguishedName,
    serial_number: BigInt,
    subject_dn: DistinguishedName,
    key_algorithm: String,
    key_bits: Option<usize>,
    /// The keyUsage bits (RFC 5280 §4.2.1.3), bit 0 = digitalSignature, if the extension is there.
    key_usage: Option<u16>,
    /// The extendedKeyUsage purposes as dotted OIDs (RFC 5280 §4.2.1.12), if the extension is
    /// there.
    extended_key_usage: Option<Vec<String>>,
}

/// Two certificates are the same when their DER is (everything else is read from it).
impl PartialEq for CertificateFields {
    fn eq(&self, other: &Self) -> bool {
        self.der == other.der
    }
}

impl Eq for CertificateFields {}

impl Certificate {
    /// Reads a DER certificate. `name` says where it came from, for error messages.
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`]: not DER, not an X.509 certificate, trailing bytes, a
    /// SubjectKeyIdentifier extension (2.5.29.14) that is malformed or empty.
    pub fn from_der(der: &[u8], name: &str) -> Result<Certificate, WssError> {
        let bad = |reason: String| WssError::Certificate {
            name: name.to_owned(),
            reason,
        };
        let (rest, cert) = x509_parser::certificate::X509Certificate::from_der(der)
            .map_err(|e| bad(format!("not an X.509 certificate in DER ({e})")))?;
        if !rest.is_empty() {
            return Err(bad(format!("{} bytes after the certificate", rest.len())));
        }
        let subject = cert.subject().to_string();
        let label = if subject.is_empty() {
            name.to_owned()
        } else {
            format!("{name} ({subject})")
        };
        let bad = |reason: String| WssError::Certificate {
            name: label.clone(),
            reason,
        };
        let mut ski = None;
        for ext in cert.extensions() {
            if ext.oid != OID_X509_EXT_SUBJECT_KEY_IDENTIFIER {
                continue;
            }
            match ext.parsed_extension() {
                ParsedExtension::SubjectKeyIdentifier(k) if !k.0.is_empty() => {
                    ski = Some(k.0.to_vec())
                }
                ParsedExtension::SubjectKeyIdentifier(_) => {
                    return Err(bad(
                        "the SubjectKeyIdentifier extension (2.5.29.14) is empty".to_owned(),
                    ))
                }
                other => {
                    return Err(bad(format!(
                        "the SubjectKeyIdentifier extension (2.5.29.14) is malformed: {}",
                        other
                            .error()
                            .map(|e| e.to_string())
                            .unwrap_or_else(|| "not an OCTET STRING".to_owned())
                    )))
                }
            }
        }
        let key_usage = cert
            .key_usage()
            .map_err(|e| {
                bad(format!(
                    "the keyUsage extension (2.5.29.15) is malformed: {e}"
                ))
            })?
            .map(|k| k.value.flags);
        let extended_key_usage = cert
            .extended_key_usage()
            .map_err(|e| {
                bad(format!(
                    "the extendedKeyUsage extension (2.5.29.37) is malformed: {e}"
                ))
            })?
            .map(|e| extended_key_usage_oids(e.value));
        let spki = cert.public_key();
        let rsa_public_key = (spki.algorithm.algorithm == OID_PKCS1_RSAENCRYPTION)
            .then(|| spki.subject_public_key.data.to_vec());
        let (key_algorithm, key_bits) = key_algorithm_and_bits(spki);
        let validity = cert.validity();
        Ok(Certificate {
            inner: Arc::new(CertificateFields {
                parsed_key: OnceLock::new(),
                der: Arc::from(der),
                subject,
                issuer: cert.issuer().to_string(),
                serial: cert.raw_serial_as_string(),
                not_before: validity.not_before.timestamp(),
                not_after: validity.not_after.timestamp(),
                ski,
                rsa_public_key,
                public_key: spki.subject_public_key.data.to_vec(),
                issuer_dn: DistinguishedName::from_x509(cert.issuer()),
                serial_number: BigInt::from_signed_bytes_be(cert.raw_serial()),
                subject_dn: DistinguishedName::from_x509(cert.subject()),
                key_algorithm,
                key_bits,
                key_usage,
                extended_key_usage,
            }),
        })
    }

    /// Reads the first `CERTIFICATE` block of PEM text (RFC 7468 §5).
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`]: no `CERTIFICATE` block, bad base64, and as
    /// [`from_der`](Self::from_der).
    pub fn from_pem(pem: &[u8], name: &str) -> Result<Certificate, WssError> {
        Self::all_from_pem(pem, name)?
            .into_iter()
            .next()
            .ok_or_else(|| WssError::Certificate {
                name: name.to_owned(),
                reason: "no -----BEGIN CERTIFICATE----- block".to_owned(),
            })
    }

    /// Reads every `CERTIFICATE` block of PEM text, in order (a chain: leaf first). Other blocks
    /// are skipped.
    ///
    /// # Errors
    ///
    /// As [`from_pem`](Self::from_pem), for each block; an empty list is not an error.
    pub fn all_from_pem(pem: &[u8], name: &str) -> Result<Vec<Certificate>, WssError> {
        let mut out = Vec::new();
        for (i, block) in Pem::iter_from_buffer(pem).enumerate() {
            let block = block.map_err(|e| WssError::Certificate {
                name: format!("{name} block {}", i + 1),
                reason: format!("bad PEM ({e})"),
            })?;
            if block.label == "CERTIFICATE" {
                out.push(Self::from_der(
                    &block.contents,
                    &format!("{name} block {}", i + 1),
                )?);
            }
        }
        Ok(out)
    }

    /// Every certificate of a PKCS#12 store (RFC 7292), in the order of its bags — for a trust
    /// store; keys and secrets in it are ignored. Reads OpenSSL 3's default protection
    /// (PBES2/PBKDF2/AES-256-CBC, HMAC-SHA-256 MAC), Java keytool's, and the legacy
    /// `openssl pkcs12 -legacy` one (PBE-SHA1-3DES, PBE-SHA1-RC2-40, HMAC-SHA-1 MAC).
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] naming `PKCS#12 store`: not PKCS#12 (DER `PFX`, version 3), a
    /// wrong password (the MAC does not verify, or the bags do not decrypt), an unsupported
    /// protection; and as [`from_der`](Self::from_der) for each certificate. An empty list is
    /// not an error.
    pub fn all_from_pkcs12(der: &[u8], password: &str) -> Result<Vec<Certificate>, WssError> {
        let name = "PKCS#12 store";
        let archive = read_pkcs12(der, password).map_err(|reason| WssError::Certificate {
            name: name.to_owned(),
            reason,
        })?;
        archive
            .certs
            .iter()
            .enumerate()
            .map(|(i, bag)| {
                Certificate::from_der(bag.cert.as_der(), &format!("{name} certificate {}", i + 1))
            })
            .collect()
    }

    /// The DER encoding.
    pub fn der(&self) -> &[u8] {
        &self.inner.der
    }

    /// The subject distinguished name, RFC 4514 form (`CN=…, O=…`).
    pub fn subject(&self) -> &str {
        &self.inner.subject
    }

    /// The issuer distinguished name, RFC 4514 form.
    pub fn issuer(&self) -> &str {
        &self.inner.issuer
    }

    /// The serial number, as colon-separated hex bytes.
    pub fn serial(&self) -> &str {
        &self.inner.serial
    }

    /// Validity, `(notBefore, notAfter)` in seconds since 1970-01-01T00:00:00Z (RFC 5280 §4.1.2.5).
    pub fn validity(&self) -> (i64, i64) {
        (self.inner.not_before, self.inner.not_after)
    }

    /// The SubjectKeyIdentifier extension's key identifier (RFC 5280 §4.2.1.2), if present.
    pub fn subject_key_identifier(&self) -> Option<&[u8]> {
        self.inner.ski.as_deref()
    }

    /// The issuer distinguished name as RFC 4514 §2 writes it — RDNs from last to first, no
    /// spaces, `CN`/`O`/`OU`/`C`/`L`/`ST`/`STREET`/`DC`/`UID` by name and other attribute types
    /// as dotted decimal with a `#`-hex DER value (`CN=soapgen test CA,O=soapgen tests`,
    /// `…,1.2.840.113549.1.9.1=#16…`) — the form Java's `X500Principal.getName()` gives and
    /// `ds:X509IssuerName` carries (XML-DSig §4.4.4, X.509 Token Profile 1.1 §3.2.2).
    ///
    /// (Unlike [`issuer`](Self::issuer), which lists the RDNs in certificate order.)
    pub fn issuer_rfc4514(&self) -> String {
        self.inner.issuer_dn.to_rfc4514()
    }

    /// The subject distinguished name as RFC 4514 §2 writes it, as
    /// [`issuer_rfc4514`](Self::issuer_rfc4514) does the issuer's.
    pub fn subject_rfc4514(&self) -> String {
        self.inner.subject_dn.to_rfc4514()
    }

    /// The subject public key's algorithm (RFC 5280 §4.1.2.7): `RSA`, `EC P-256`, `EC P-384`,
    /// `EC P-521`, `EC <curve OID>`, `Ed25519`, `Ed448`, `DSA`, or the algorithm's OID.
    pub fn public_key_algorithm(&self) -> &str {
        &self.inner.key_algorithm
    }

    /// The subject public key's size in bits (RSA: the modulus; EC: the field), when known.
    pub fn public_key_bits(&self) -> Option<usize> {
        self.inner.key_bits
    }

    /// The keyUsage extension's bits (RFC 5280 §4.2.1.3: bit 0 digitalSignature, 1
    /// nonRepudiation (contentCommitment), 2 keyEncipherment, …, 5 keyCertSign), or `None` when
    /// the certificate has no keyUsage extension (any use).
    pub fn key_usage(&self) -> Option<u16> {
        self.inner.key_usage
    }

    /// The extendedKeyUsage extension's purposes as dotted OIDs (RFC 5280 §4.2.1.12, e.g.
    /// `1.3.6.1.5.5.7.3.1` serverAuth), or `None` when the certificate has none (any purpose).
    pub fn extended_key_usage(&self) -> Option<&[String]> {
        self.inner.extended_key_usage.as_deref()
    }

    /// The serial number in decimal (`4242`), as `ds:X509SerialNumber` carries it (XML-DSig
    /// §4.4.4, an `xsd:integer`). A (non-conforming) negative serial has a leading `-`.
    pub fn serial_decimal(&self) -> String {
        self.inner.serial_number.to_string()
    }

    /// Whether this certificate is the one a `ds:X509IssuerSerial` names (XML-DSig §4.4.4, X.509
    /// Token Profile 1.1 §3.2.2): `serial` (decimal, surrounding whitespace ignored) equals the
    /// serial number as an integer, and `issuer_name` — a distinguished name string, RFC 4514
    /// (escapes, spaces around separators), also with `;` between RDNs or quoted values as RFC
    /// 1779 and .NET write them — has the issuer's RDNs, in RFC 4514 order or in the
    /// certificate's (WSS4J and .NET disagree). Attribute types are compared by OID: names
    /// case-insensitively, with `E`/`EMAILADDRESS` for PKCS#9 emailAddress
    /// (1.2.840.113549.1.9.1) and `S` for stateOrProvinceName besides RFC 4514's own; string
    /// values case-insensitively after whitespace folding; `#`-hex values by their string
    /// content, or DER bytes when not a string. Malformed input matches nothing (no error).
    pub fn matches_issuer_serial(&self, issuer_name: &str, serial: &str) -> bool {
        // Compared as decimal text with leading zeros and a `+` dropped: linear in the input, so
        // a megabyte of digits costs no big-number parse.
        let serial = serial.trim();
        let (negative, digits) = match serial.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, serial.strip_prefix('+').unwrap_or(serial)),
        };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
        let digits = match digits.trim_start_matches('0') {
            "" => "0",
            d => d,
        };
        let ours = self.inner.serial_number.to_string();
        let (our_negative, our_digits) = match ours.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, ours.as_str()),
        };
        (digits == our_digits && (negative == our_negative || digits == "0"))
            && self.inner.issuer_dn.matches_str(issuer_name)
    }

    /// Whether `name`, a distinguished name string as `ds:X509SubjectName` carries it (XML-DSig
    /// §4.4.4), names this certificate's subject; compared as
    /// [`matches_issuer_serial`](Self::matches_issuer_serial) compares the issuer.
    pub fn matches_subject_name(&self, name: &str) -> bool {
        self.inner.subject_dn.matches_str(name)
    }

    /// The SHA-1 thumbprint of the DER encoding (X.509 Token Profile 1.1 §3.2.1,
    /// `ThumbprintSHA1`), 20 bytes.
    pub fn sha1_thumbprint(&self) -> [u8; 20] {
        let d = aws_lc_rs::digest::digest(
            &aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY,
            &self.inner.der,
        );
        let mut out = [0u8; 20];
        out.copy_from_slice(d.as_ref());
        out
    }

    /// The content of the subjectPublicKey BIT STRING (RFC 5280 §4.1.2.7): for RSA the
    /// `RSAPublicKey` DER, for EC the uncompressed point (SEC 1 §2.3.3), as aws-lc-rs verifies.
    pub(crate) fn public_key_data(&self) -> &[u8] {
        &self.inner.public_key
    }

    /// The subject public key parsed for `alg`, kept with the certificate; `None` when the key
    /// was first parsed for another algorithm or does not parse for this one (the caller then
    /// verifies with the unparsed key, which reports the same errors).
    pub(crate) fn parsed_key(
        &self,
        alg: &'static dyn VerificationAlgorithm,
    ) -> Option<&ParsedPublicKey> {
        let (first, key) = self
            .inner
            .parsed_key
            .get_or_init(|| (alg, ParsedPublicKey::new(alg, &self.inner.public_key).ok()));
        if std::ptr::addr_eq(*first, alg) {
            key.as_ref()
        } else {
            None
        }
    }

    /// The RSA public key as an aws-lc-rs encrypting key (XML-Enc §5.4 key transport), read from
    /// the certificate's SubjectPublicKeyInfo (RFC 5280 §4.1.2.7).
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`]: the key is not RSA, or aws-lc-rs refuses it (below 2048 bits).
    pub(crate) fn rsa_encrypting_key(&self) -> Result<PublicEncryptingKey, WssError> {
        let bad = |reason: String| WssError::Certificate {
            name: self.inner.subject.clone(),
            reason,
        };
        if self.inner.rsa_public_key.is_none() {
            return Err(bad(
                "its public key is not RSA (rsaEncryption, 1.2.840.113549.1.1.1): it cannot receive an encrypted key".to_owned(),
            ));
        }
        let (_, cert) = x509_parser::certificate::X509Certificate::from_der(&self.inner.der)
            .map_err(|e| bad(format!("not an X.509 certificate in DER ({e})")))?;
        PublicEncryptingKey::from_der(cert.public_key().raw)
            .map_err(|e| bad(format!("its RSA key cannot encrypt: {e}")))
    }
}

impl fmt::Debug for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Certificate")
            .field("subject", &self.inner.subject)
            .field("issuer", &self.inner.issuer)
            .field("serial", &self.inner.serial)
            .finish_non_exhaustive()
    }
}

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
            PrivateKey::Rsa { key, sha1_key, .. } => {
                let padding: &'static dyn aws_lc_rs::signature::RsaEncoding = match alg {
                    SignatureAlgorithm::RsaSha1 => {
                        if let Some(k) = sha1_key.get() {
                            return k.sign(msg);
                        }
                        let made = Sha1Key::new(key)?;
                        return sha1_key.get_or_init(|| made).sign(msg);
                    }
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

/// The name of a SubjectPublicKeyInfo's algorithm and its key size, as
/// [`Certificate::public_key_algorithm`] gives them.
fn key_algorithm_and_bits(
    spki: &x509_parser::x509::SubjectPublicKeyInfo<'_>,
) -> (String, Option<usize>) {
    let oid = spki.algorithm.algorithm.to_id_string();
    let bits = spki.parsed().ok().map(|k| k.key_size()).filter(|&b| b > 0);
    let name = match oid.as_str() {
        "1.2.840.113549.1.1.1" => "RSA".to_owned(),
        "1.2.840.10045.2.1" => {
            let curve = spki
                .algorithm
                .parameters
                .as_ref()
                .and_then(|p| p.as_oid().ok())
                .map(|o| o.to_id_string());
            match curve.as_deref() {
                Some("1.2.840.10045.3.1.7") => "EC P-256".to_owned(),
                Some("1.3.132.0.34") => "EC P-384".to_owned(),
                Some("1.3.132.0.35") => "EC P-521".to_owned(),
                Some(other) => format!("EC {other}"),
                None => "EC".to_owned(),
            }
        }
        "1.3.101.112" => return ("Ed25519".to_owned(), Some(256)),
        "1.3.101.113" => return ("Ed448".to_owned(), Some(456)),
        "1.2.840.10040.4.1" => "DSA".to_owned(),
        _ => oid,
    };
    (name, bits)
}

/// The purposes of an extendedKeyUsage extension as dotted OIDs (RFC 5280 §4.2.1.12).
fn extended_key_usage_oids(e: &x509_parser::extensions::ExtendedKeyUsage<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let known = [
        (e.any, "2.5.29.37.0"),
        (e.server_auth, "1.3.6.1.5.5.7.3.1"),
        (e.client_auth, "1.3.6.1.5.5.7.3.2"),
        (e.code_signing, "1.3.6.1.5.5.7.3.3"),
        (e.email_protection, "1.3.6.1.5.5.7.3.4"),
        (e.time_stamping, "1.3.6.1.5.5.7.3.8"),
        (e.ocsp_signing, "1.3.6.1.5.5.7.3.9"),
    ];
    for (present, oid) in known {
        if present {
            out.push(oid.to_owned());
        }
    }
    out.extend(e.other.iter().map(|o| o.to_id_string()));
    out
}

/// Opens a PKCS#12 `PFX` (RFC 7292 §4): checks the MAC with `password` and decrypts the bags; the
/// error says why not, in words.
fn read_pkcs12(der: &[u8], password: &str) -> Result<p12_keystore::Pkcs12Archive, String> {
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
