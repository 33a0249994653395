//! Which certificates a client trusts to sign its responses: trust anchors (CAs), intermediate
//! certificates, and pinned peer certificates, with path validation (RFC 5280 §6, simplified as
//! below) and the RSA/ECDSA signature checks it needs, through aws-lc-rs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use aws_lc_rs::signature::{self, UnparsedPublicKey, VerificationAlgorithm};
use x509_parser::oid_registry::{self as oids, Oid};
use x509_parser::prelude::FromDer;

use super::{Certificate, UtcTime, WssError};

/// The longest chain accepted from a signer certificate to a trust anchor (intermediates between).
const MAX_CHAIN: usize = 6;

/// The certificates a client trusts for the signatures of its responses (WSS 1.1 §8.4: "the
/// receiver MUST determine whether the key is trusted"), and where it looks up certificates a
/// response names without carrying them (a `wsse:KeyIdentifier` or `ds:X509IssuerSerial`, X.509
/// Token Profile 1.1 §3.2).
///
/// A signer certificate is trusted when, at the time of the check, it is valid (`notBefore` ≤ now ≤
/// `notAfter`) and either
/// - it is one of the [`certificate`](Self::certificate)s (pinned: byte-for-byte the same DER), or
/// - it was issued, directly or through [`intermediate`](Self::intermediate)s (at most 5), by one
///   of the [`anchor`](Self::anchor)s: each certificate's signature verifies with its issuer's key,
///   its issuer name equals the issuer's subject, and each issuer is valid and (for intermediates)
///   a CA (basicConstraints `cA`, RFC 5280 §4.2.1.9).
///
/// Then the signer (the leaf) must meet the store's constraints, each refusal its own error:
/// - its subject matches one of the [`subject_pattern`](Self::subject_pattern)s, if there are
///   any ([`WssError::SubjectNotAllowed`]; WSS4J's `sigSubjectCertConstraints`);
/// - its keyUsage, when it has that extension, includes digitalSignature or nonRepudiation
///   (RFC 5280 §4.2.1.3; [`WssError::KeyUsageNotAllowed`]), and its extendedKeyUsage, when it has
///   that extension, includes a purpose a message signer may have — anyExtendedKeyUsage,
///   serverAuth, clientAuth, emailProtection, RFC 9336 documentSigning or Microsoft's document
///   signing (RFC 5280 §4.2.1.12; [`WssError::ExtendedKeyUsageNotAllowed`]) — unless
///   [`check_key_usage(false)`](Self::check_key_usage) is set for peers whose certificates get
///   it wrong.
///
/// Revocation (CRL, OCSP) is not checked. An empty store trusts nothing.
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::wss::{Certificate, TrustStore};
/// let ca = Certificate::from_pem(&std::fs::read("ca.pem")?, "ca.pem")?;
/// let server = Certificate::from_pem(&std::fs::read("server.pem")?, "server.pem")?;
/// let trust = TrustStore::new().anchor(ca).certificate(server);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct TrustStore {
    anchors: Vec<Certificate>,
    intermediates: Vec<Certificate>,
    certificates: Vec<Certificate>,
    /// Certificates a response may name without carrying, trusted only through an anchor.
    known: Vec<Certificate>,
    /// Regular expressions one of which the signer's subject must match (none: any subject).
    subject_patterns: Vec<regex::Regex>,
    /// Whether the signer's keyUsage / extendedKeyUsage are not checked.
    ignore_key_usage: bool,
    /// Certificates whose path to an anchor was verified, with the end of the validity of the
    /// shortest-lived certificate on that path: later messages signed by them skip the path's
    /// signature checks (validity is still checked). Shared by the clones of a configuration,
    /// emptied whenever the store changes.
    verified: PathCache,
}

/// Verified paths by the signer certificate's DER; at most [`PATH_CACHE_CAPACITY`] entries.
#[derive(Clone, Default)]
struct PathCache(Arc<Mutex<HashMap<Vec<u8>, i64>>>);

const PATH_CACHE_CAPACITY: usize = 1024;

impl std::fmt::Debug for PathCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map(|m| m.len()).unwrap_or(0);
        write!(f, "PathCache({n} verified)")
    }
}

impl TrustStore {
    /// An empty store: nothing is trusted.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a trust anchor: certificates it issued (directly or through intermediates) are trusted.
    pub fn anchor(mut self, ca: Certificate) -> Self {
        self.anchors.push(ca);
        self.verified = PathCache::default();
        self
    }

    /// Adds an intermediate CA certificate, used to build paths to an anchor; not trusted itself.
    pub fn intermediate(mut self, ca: Certificate) -> Self {
        self.intermediates.push(ca);
        self.verified = PathCache::default();
        self
    }

    /// Adds a peer certificate that is trusted as it is (pinned), and can be named by a
    /// KeyIdentifier or X509IssuerSerial in a response that does not carry it.
    pub fn certificate(mut self, cert: Certificate) -> Self {
        self.certificates.push(cert);
        self.verified = PathCache::default();
        self
    }

    /// Also requires the signer's subject distinguished name to match `pattern`, a regular
    /// expression (the `regex` crate's syntax, as Java's for WSS4J's
    /// `sigSubjectCertConstraints`) matched against the whole name — as RFC 4514 writes it
    /// (`CN=soapgen test server,O=soapgen tests`, [`Certificate::subject_rfc4514`]) or in
    /// certificate order ([`Certificate::subject`], `O=soapgen tests, CN=soapgen test server`),
    /// either matching. With several patterns, one match is enough; with none, any subject the
    /// anchors vouch for may sign. Pinned [`certificate`](Self::certificate)s must match too.
    ///
    /// # Errors
    ///
    /// [`WssError::InvalidPattern`] naming the pattern when it is not a regular expression.
    ///
    /// # Examples
    ///
    /// ```
    /// use soapgen_runtime::wss::TrustStore;
    /// let trust = TrustStore::new().subject_pattern(r"CN=billing\.example\.com,O=Example.*")?;
    /// # Ok::<(), soapgen_runtime::wss::WssError>(())
    /// ```
    pub fn subject_pattern(mut self, pattern: &str) -> Result<Self, WssError> {
        let anchored = format!("^(?:{pattern})$");
        let re = regex::RegexBuilder::new(&anchored)
            .size_limit(1 << 20)
            .build()
            .map_err(|e| WssError::InvalidPattern {
                pattern: pattern.to_owned(),
                reason: e.to_string(),
            })?;
        self.subject_patterns.push(re);
        Ok(self)
    }

    /// Whether the signer's keyUsage and extendedKeyUsage are checked (default `true`; see the
    /// type's documentation). `false` for peers whose signing certificates carry the wrong ones
    /// (a keyEncipherment-only server certificate, say).
    pub fn check_key_usage(mut self, check: bool) -> Self {
        self.ignore_key_usage = !check;
        self
    }

    /// Checks the leaf constraints (subject patterns, keyUsage, extendedKeyUsage) on `cert`.
    fn check_constraints(&self, cert: &Certificate) -> Result<(), WssError> {
        if !self.subject_patterns.is_empty() {
            let rfc4514 = cert.subject_rfc4514();
            let matched = self
                .subject_patterns
                .iter()
                .any(|p| p.is_match(&rfc4514) || p.is_match(cert.subject()));
            if !matched {
                return Err(WssError::SubjectNotAllowed {
                    subject: rfc4514,
                    patterns: self
                        .subject_patterns
                        .iter()
                        .map(|p| {
                            let s = p.as_str();
                            s.strip_prefix("^(?:")
                                .and_then(|s| s.strip_suffix(")$"))
                                .unwrap_or(s)
                                .to_owned()
                        })
                        .collect(),
                });
            }
        }
        if self.ignore_key_usage {
            return Ok(());
        }
        if let Some(bits) = cert.key_usage() {
            const DIGITAL_SIGNATURE: u16 = 1;
            const NON_REPUDIATION: u16 = 1 << 1;
            if bits & (DIGITAL_SIGNATURE | NON_REPUDIATION) == 0 {
                return Err(WssError::KeyUsageNotAllowed {
                    subject: cert.subject().to_owned(),
                    key_usage: key_usage_names(bits),
                });
            }
        }
        if let Some(purposes) = cert.extended_key_usage() {
            if !purposes
                .iter()
                .any(|p| SIGNING_PURPOSES.contains(&p.as_str()))
            {
                return Err(WssError::ExtendedKeyUsageNotAllowed {
                    subject: cert.subject().to_owned(),
                    purposes: purposes.iter().map(|p| purpose_name(p)).collect(),
                });
            }
        }
        Ok(())
    }

    /// Adds a peer certificate that a response may name without carrying it (a
    /// `wsse:KeyIdentifier`, `ds:X509IssuerSerial` or `ds:X509SKI`, X.509 Token Profile 1.1
    /// §3.2), trusted only as any other signer is: through a path to an [`anchor`](Self::anchor),
    /// within its validity, meeting the store's constraints. Unlike
    /// [`certificate`](Self::certificate), it is not pinned: with no anchor that issued it, it is
    /// refused with [`WssError::UntrustedCertificate`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use soapgen_runtime::wss::{Certificate, TrustStore};
    /// let ca = Certificate::from_pem(&std::fs::read("ca.pem")?, "ca.pem")?;
    /// let server = Certificate::from_pem(&std::fs::read("server.pem")?, "server.pem")?;
    /// // The server signs with a KeyIdentifier: its certificate is known here, its CA trusted.
    /// let trust = TrustStore::new().anchor(ca).known_certificate(server);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn known_certificate(mut self, cert: Certificate) -> Self {
        self.known.push(cert);
        self
    }

    /// Whether nothing at all is trusted.
    pub fn is_empty(&self) -> bool {
        self.anchors.is_empty() && self.certificates.is_empty()
    }

    /// The certificates a response may name without carrying: the pinned ones, the
    /// [`known_certificate`](Self::known_certificate)s, then the anchors and intermediates.
    pub(crate) fn known(&self) -> impl Iterator<Item = &Certificate> {
        self.certificates
            .iter()
            .chain(&self.known)
            .chain(&self.intermediates)
            .chain(&self.anchors)
    }

    /// Checks that `cert` is trusted at `now` (see the type's documentation).
    ///
    /// # Errors
    ///
    /// [`WssError::UntrustedCertificate`] naming the certificate and why: outside its validity,
    /// no path to an anchor, a bad signature on the path; [`WssError::SubjectNotAllowed`],
    /// [`WssError::KeyUsageNotAllowed`], [`WssError::ExtendedKeyUsageNotAllowed`] for a leaf
    /// that breaks the store's constraints.
    pub fn check(&self, cert: &Certificate, now: UtcTime) -> Result<(), WssError> {
        self.check_with_chain(cert, &[], now)
    }

    /// As [`check`](Self::check), with `sent` — certificates the message carried besides the
    /// signer's (a PKIPath or PKCS#7 BinarySecurityToken's chain, X.509 Token Profile 1.1 §3.1) —
    /// also used as intermediates to build the path: they are never trusted themselves, only
    /// links whose signatures and CA flags are checked like the configured
    /// [`intermediate`](Self::intermediate)s'.
    ///
    /// # Errors
    ///
    /// As [`check`](Self::check).
    pub fn check_with_chain(
        &self,
        cert: &Certificate,
        sent: &[Certificate],
        now: UtcTime,
    ) -> Result<(), WssError> {
        let untrusted = |reason: String| WssError::UntrustedCertificate {
            subject: cert.subject().to_owned(),
            reason,
        };
        check_validity(cert, now).map_err(untrusted)?;
        self.check_constraints(cert)?;
        if self.certificates.iter().any(|c| c.der() == cert.der()) {
            return Ok(());
        }
        if self.is_empty() {
            return Err(untrusted(
                "no trust anchor or certificate is configured (WssConfig::trust)".to_owned(),
            ));
        }
        let secs = now.unix_millis().div_euclid(1000);
        if let Ok(cache) = self.verified.0.lock() {
            if cache.get(cert.der()).is_some_and(|until| secs <= *until) {
                return Ok(());
            }
        }
        let mut path_end = cert.validity().1;
        let mut current = cert.clone();
        let mut last_problem = None;
        for _ in 0..MAX_CHAIN {
            if let Some(anchor) = self
                .anchors
                .iter()
                .find(|a| a.der() != current.der() && issued_by(&current, a).is_ok())
            {
                check_validity(anchor, now).map_err(|r| {
                    untrusted(format!("its trust anchor {}: {r}", anchor.subject()))
                })?;
                path_end = path_end.min(anchor.validity().1);
                if let Ok(mut cache) = self.verified.0.lock() {
                    if cache.len() >= PATH_CACHE_CAPACITY {
                        cache.clear();
                    }
                    cache.insert(cert.der().to_vec(), path_end);
                }
                return Ok(());
            }
            // An anchor with the right name whose signature does not verify is the news.
            if let Some(a) = self
                .anchors
                .iter()
                .find(|a| a.subject() == current.issuer())
            {
                last_problem = issued_by(&current, a).err();
            }
            let next =
                self.intermediates.iter().chain(sent).find(|i| {
                    i.der() != current.der() && is_ca(i) && issued_by(&current, i).is_ok()
                });
            match next {
                Some(i) => {
                    check_validity(i, now).map_err(|r| {
                        untrusted(format!("its intermediate CA {}: {r}", i.subject()))
                    })?;
                    path_end = path_end.min(i.validity().1);
                    current = i.clone();
                }
                None => break,
            }
        }
        Err(untrusted(last_problem.unwrap_or_else(|| {
            format!(
                "not issued by a trusted anchor (issuer {}) and not a pinned certificate",
                current.issuer()
            )
        })))
    }
}

/// The extendedKeyUsage purposes a message signer may have: anyExtendedKeyUsage (RFC 5280
/// §4.2.1.12), serverAuth, clientAuth, emailProtection, documentSigning (RFC 9336) and
/// Microsoft's document signing (1.3.6.1.4.1.311.10.3.12).
const SIGNING_PURPOSES: &[&str] = &[
    "2.5.29.37.0",
    "1.3.6.1.5.5.7.3.1",
    "1.3.6.1.5.5.7.3.2",
    "1.3.6.1.5.5.7.3.4",
    "1.3.6.1.5.5.7.3.36",
    "1.3.6.1.4.1.311.10.3.12",
];

/// The RFC 5280 name of an extendedKeyUsage purpose OID, or the OID.
fn purpose_name(oid: &str) -> String {
    match oid {
        "2.5.29.37.0" => "anyExtendedKeyUsage",
        "1.3.6.1.5.5.7.3.1" => "serverAuth",
        "1.3.6.1.5.5.7.3.2" => "clientAuth",
        "1.3.6.1.5.5.7.3.3" => "codeSigning",
        "1.3.6.1.5.5.7.3.4" => "emailProtection",
        "1.3.6.1.5.5.7.3.8" => "timeStamping",
        "1.3.6.1.5.5.7.3.9" => "OCSPSigning",
        "1.3.6.1.5.5.7.3.36" => "documentSigning",
        other => other,
    }
    .to_owned()
}

/// The RFC 5280 §4.2.1.3 names of the keyUsage bits set in `bits`.
fn key_usage_names(bits: u16) -> Vec<String> {
    const NAMES: [&str; 9] = [
        "digitalSignature",
        "nonRepudiation",
        "keyEncipherment",
        "dataEncipherment",
        "keyAgreement",
        "keyCertSign",
        "cRLSign",
        "encipherOnly",
        "decipherOnly",
    ];
    NAMES
        .iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, n)| (*n).to_owned())
        .collect()
}

fn check_validity(cert: &Certificate, now: UtcTime) -> Result<(), String> {
    let (not_before, not_after) = cert.validity();
    let secs = now.unix_millis().div_euclid(1000);
    if secs < not_before {
        return Err(format!(
            "not valid yet (notBefore {})",
            UtcTime::from_unix_millis(not_before.saturating_mul(1000))
        ));
    }
    if secs > not_after {
        return Err(format!(
            "expired (notAfter {})",
            UtcTime::from_unix_millis(not_after.saturating_mul(1000))
        ));
    }
    Ok(())
}

fn parse(cert: &Certificate) -> Option<x509_parser::certificate::X509Certificate<'_>> {
    x509_parser::certificate::X509Certificate::from_der(cert.der())
        .ok()
        .map(|(_, c)| c)
}

fn is_ca(cert: &Certificate) -> bool {
    parse(cert)
        .and_then(|c| c.basic_constraints().ok().flatten().map(|b| b.value.ca))
        .unwrap_or(false)
}

/// Whether `issuer` issued `cert`: names match and `cert`'s signature verifies with `issuer`'s key.
fn issued_by(cert: &Certificate, issuer: &Certificate) -> Result<(), String> {
    let c = parse(cert).ok_or("unreadable certificate")?;
    let i = parse(issuer).ok_or("unreadable issuer certificate")?;
    if c.issuer().as_raw() != i.subject().as_raw() {
        return Err(format!(
            "its issuer is {}, not {}",
            cert.issuer(),
            issuer.subject()
        ));
    }
    let alg =
        certificate_signature_algorithm(&c.signature_algorithm.algorithm, &i).ok_or_else(|| {
            format!(
                "its signature algorithm {} is not supported",
                c.signature_algorithm.algorithm
            )
        })?;
    let spki = i.public_key();
    UnparsedPublicKey::new(alg, spki.subject_public_key.data.as_ref())
        .verify(c.tbs_certificate.as_ref(), c.signature_value.data.as_ref())
        .map_err(|_| {
            format!(
                "its signature does not verify with {}'s key",
                issuer.subject()
            )
        })
}

/// The aws-lc-rs algorithm for a certificate signature OID (RFC 4055, RFC 5758) with the issuer's
/// key type.
fn certificate_signature_algorithm(
    oid: &Oid<'_>,
    issuer: &x509_parser::certificate::X509Certificate<'_>,
) -> Option<&'static dyn VerificationAlgorithm> {
    let spki = issuer.public_key();
    let curve = spki
        .algorithm
        .parameters
        .as_ref()
        .and_then(|p| p.as_oid().ok());
    let p256 = curve.as_ref() == Some(&oids::OID_EC_P256);
    let p384 = curve.as_ref() == Some(&oids::OID_NIST_EC_P384);
    Some(if *oid == oids::OID_PKCS1_SHA256WITHRSA {
        &signature::RSA_PKCS1_2048_8192_SHA256
    } else if *oid == oids::OID_PKCS1_SHA384WITHRSA {
        &signature::RSA_PKCS1_2048_8192_SHA384
    } else if *oid == oids::OID_PKCS1_SHA512WITHRSA {
        &signature::RSA_PKCS1_2048_8192_SHA512
    } else if *oid == oids::OID_PKCS1_SHA1WITHRSA {
        &signature::RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY
    } else if *oid == oids::OID_SIG_ECDSA_WITH_SHA256 && p256 {
        &signature::ECDSA_P256_SHA256_ASN1
    } else if *oid == oids::OID_SIG_ECDSA_WITH_SHA384 && p384 {
        &signature::ECDSA_P384_SHA384_ASN1
    } else {
        return None;
    })
}

/// Verifies the signature `sig` over `msg` with `cert`'s public key and `alg` (RSA PKCS#1 v1.5
/// or PSS, ECDSA `r || s`; XML-DSig §6.4), the key type already matched to `alg`.
///
/// # Errors
///
/// `Err(reason)` if the signature does not verify.
pub(crate) fn verify_with_certificate(
    cert: &Certificate,
    alg: &'static dyn VerificationAlgorithm,
    msg: &[u8],
    sig: &[u8],
) -> Result<(), String> {
    let verified = match cert.parsed_key(alg) {
        Some(key) => key.verify_sig(msg, sig),
        None => UnparsedPublicKey::new(alg, cert.public_key_data()).verify(msg, sig),
    };
    verified.map_err(|_| "the SignatureValue does not verify with the signer's key".to_owned())
}
