//! X.509 certificates and RSA private keys for signing (WSS X.509 Certificate Token Profile 1.1),
//! read from PEM or DER.

use std::fmt;
use std::sync::{Arc, OnceLock};

use aws_lc_rs::rsa::PublicEncryptingKey;
use aws_lc_rs::signature::{ParsedPublicKey, VerificationAlgorithm};
use num_bigint::BigInt;
use x509_parser::extensions::ParsedExtension;
use x509_parser::oid_registry::{OID_PKCS1_RSAENCRYPTION, OID_X509_EXT_SUBJECT_KEY_IDENTIFIER};
use x509_parser::pem::Pem;
use x509_parser::prelude::FromDer;

use super::dn::DistinguishedName;
use super::WssError;

mod chain;
mod credential;

pub(crate) use chain::{pkcs7_certificates, pki_path, pki_path_der};
use credential::read_pkcs12;
pub use credential::X509Credential;

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

    /// The certificate's SubjectPublicKeyInfo, DER (RFC 5280 §4.1.2.7).
    ///
    /// # Errors
    ///
    /// [`WssError::Certificate`] if the certificate cannot be read back.
    pub(crate) fn spki_der(&self) -> Result<Vec<u8>, WssError> {
        let (_, cert) = x509_parser::certificate::X509Certificate::from_der(&self.inner.der)
            .map_err(|e| WssError::Certificate {
                name: self.inner.subject.clone(),
                reason: format!("not an X.509 certificate in DER ({e})"),
            })?;
        Ok(cert.public_key().raw.to_vec())
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
