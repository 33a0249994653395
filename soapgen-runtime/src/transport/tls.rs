//! TLS settings of the default transport: a client certificate for TLS client authentication
//! (RFC 8446 §4.4.2; RFC 5246 §7.4.6 for TLS 1.2) from PEM (RFC 7468) or PKCS#12 (RFC 7292), and
//! private trust anchors (RFC 5280 §6.1.1) besides or instead of the built-in Mozilla roots.
//!
//! Both are read and checked when made, so a wrong file or password is a [`TlsError`] saying
//! which, not a failed call later.

use std::fmt;

use rustls_pki_types::pem::{self, SectionKind};

/// A bad certificate, key or store given for TLS; the message says which input and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsError {
    /// What was wrong, naming the input (`client identity PEM`, `PKCS#12 store`, `trust anchor
    /// PEM`) and the spec it breaks.
    pub message: String,
}

impl fmt::Display for TlsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TlsError {}

impl From<TlsError> for crate::Error {
    fn from(e: TlsError) -> Self {
        crate::Error::Transport(crate::error::TransportError::new(
            crate::error::TransportErrorKind::Tls,
            "",
            e.message.clone(),
            Some(Box::new(e)),
        ))
    }
}

fn tls_err(message: String) -> TlsError {
    TlsError { message }
}

/// A client certificate chain and its private key, presented when a server asks for one
/// (`CertificateRequest`, RFC 8446 §4.3.2). Cheap to clone.
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::transport::ClientIdentity;
/// let id = ClientIdentity::from_pem(&std::fs::read("client-with-key.pem")?)?;
/// let client = soapgen_runtime::Client::builder("https://service.example/soap")
///     .client_identity(id)
///     .build()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ClientIdentity {
    /// Normalised PEM: the key, then the certificates leaf first (what reqwest reads).
    pem: Vec<u8>,
    certificates: usize,
}

impl fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientIdentity")
            .field("certificates", &self.certificates)
            .field("key", &"<private key>")
            .finish()
    }
}

impl ClientIdentity {
    /// Reads PEM text (RFC 7468) holding exactly one unencrypted private key — `PRIVATE KEY`
    /// (PKCS#8, RFC 5958), `RSA PRIVATE KEY` (PKCS#1, RFC 8017) or `EC PRIVATE KEY` (SEC1,
    /// RFC 5915) — and one or more `CERTIFICATE`s, the leaf (the key's) first, then the
    /// intermediates to send. Text outside the PEM blocks (openssl's `Bag Attributes`) is ignored.
    ///
    /// # Errors
    ///
    /// [`TlsError`] when the text is not PEM, holds no certificate, no key or several keys, an
    /// encrypted key (`ENCRYPTED PRIVATE KEY`: decrypt it, or use PKCS#12), or another kind of
    /// block (a CRL, a CSR).
    pub fn from_pem(pem_text: &[u8]) -> Result<Self, TlsError> {
        Self::from_pem_parts(pem_text, None)
    }

    /// As [`from_pem`](Self::from_pem), with the certificates and the key in two PEM texts (the
    /// usual `client.pem` and `client.key`).
    ///
    /// # Errors
    ///
    /// As [`from_pem`](Self::from_pem), for the two texts together.
    pub fn from_pem_pair(certificates: &[u8], key: &[u8]) -> Result<Self, TlsError> {
        Self::from_pem_parts(certificates, Some(key))
    }

    fn from_pem_parts(first: &[u8], second: Option<&[u8]>) -> Result<Self, TlsError> {
        let mut keys: Vec<(SectionKind, Vec<u8>)> = Vec::new();
        let mut certs: Vec<Vec<u8>> = Vec::new();
        for (what, text) in [
            ("client identity PEM", Some(first)),
            ("private key PEM", second),
        ] {
            let Some(text) = text else { continue };
            let mut cursor = std::io::Cursor::new(text);
            let mut blocks = 0;
            loop {
                let item = pem::from_buf(&mut cursor)
                    .map_err(|e| tls_err(format!("{what}: not readable PEM (RFC 7468): {e:?}")))?;
                let Some((kind, der)) = item else { break };
                blocks += 1;
                match kind {
                    SectionKind::Certificate => certs.push(der),
                    SectionKind::PrivateKey
                    | SectionKind::RsaPrivateKey
                    | SectionKind::EcPrivateKey => keys.push((kind, der)),
                    other => {
                        return Err(tls_err(format!(
                            "{what}: block {blocks} is {other:?}, neither a CERTIFICATE nor a \
                             private key"
                        )))
                    }
                }
            }
            if blocks == 0 && begin_labels(text).is_empty() {
                return Err(tls_err(format!(
                    "{what}: no PEM block (-----BEGIN ...-----) in it"
                )));
            }
            unread_blocks(what, text)?;
        }
        if certs.is_empty() {
            return Err(tls_err(
                "client identity PEM: no CERTIFICATE block (the client certificate, leaf first)"
                    .to_owned(),
            ));
        }
        match keys.len() {
            0 => Err(tls_err(
                "client identity PEM: no private key block (PRIVATE KEY, RSA PRIVATE KEY or EC \
                 PRIVATE KEY)"
                    .to_owned(),
            )),
            1 => {
                let (kind, key) = keys.remove(0);
                Ok(Self::from_der_parts(kind, &key, &certs))
            }
            n => Err(tls_err(format!(
                "client identity PEM: {n} private keys; give exactly the one of the leaf \
                 certificate"
            ))),
        }
    }

    /// Reads a PKCS#12 store (RFC 7292 PFX, DER; `.p12`/`.pfx` as OpenSSL, Windows and Java
    /// export them) protected by `password`: its private key and the certificates that go with it
    /// (leaf first). PBES2 (PBKDF2 with AES) and the legacy PBES1 3DES/RC2 protections are read.
    /// Feature `pkcs12`.
    ///
    /// # Errors
    ///
    /// [`TlsError`] for a wrong password (the MAC of RFC 7292 §5 does not verify), bytes that are
    /// not a PFX, an unsupported protection, or a store without a private key and certificate.
    #[cfg(feature = "pkcs12")]
    pub fn from_pkcs12(der: &[u8], password: &str) -> Result<Self, TlsError> {
        use p12_keystore::error::Error as P12;
        let store = p12_keystore::KeyStore::from_pkcs12(
            der,
            password,
            p12_keystore::Pkcs12ImportPolicy::Strict,
        )
        .map_err(|e| {
            tls_err(match e {
                P12::MacError(_) => "PKCS#12 store: wrong password (or a damaged store): its MAC \
                                     (RFC 7292 §5) does not verify"
                    .to_owned(),
                P12::UnpadError | P12::Pkcs5Error(_) => format!(
                    "PKCS#12 store: wrong password, or damaged: its bags do not decrypt ({e})"
                ),
                P12::DerError(_) | P12::InvalidVersion | P12::UnsupportedContentType => {
                    format!("PKCS#12 store: not a PFX in DER (RFC 7292 §4): {e}")
                }
                other => format!("PKCS#12 store: unreadable: {other}"),
            })
        })?;
        let Some((_alias, chain)) = store.private_key_chain() else {
            return Err(tls_err(
                "PKCS#12 store: no private key with its certificate in it (a trust store?)"
                    .to_owned(),
            ));
        };
        let certs: Vec<Vec<u8>> = chain.certs().iter().map(|c| c.as_der().to_vec()).collect();
        if certs.is_empty() {
            return Err(tls_err(
                "PKCS#12 store: the private key has no certificate".to_owned(),
            ));
        }
        Ok(Self::from_der_parts(
            SectionKind::PrivateKey,
            chain.key().as_der(),
            &certs,
        ))
    }

    fn from_der_parts(kind: SectionKind, key: &[u8], certs: &[Vec<u8>]) -> Self {
        let mut pem = Vec::new();
        let label = match kind {
            SectionKind::RsaPrivateKey => "RSA PRIVATE KEY",
            SectionKind::EcPrivateKey => "EC PRIVATE KEY",
            _ => "PRIVATE KEY",
        };
        write_pem(&mut pem, label, key);
        for c in certs {
            write_pem(&mut pem, "CERTIFICATE", c);
        }
        ClientIdentity {
            pem,
            certificates: certs.len(),
        }
    }

    /// How many certificates are sent (the leaf and its intermediates).
    pub fn certificates(&self) -> usize {
        self.certificates
    }

    /// The identity as reqwest's (rustls) `Identity`, for an HTTP client of one's own built on
    /// the same reqwest (`soapgen fetch` uses it); the default transport does this itself.
    ///
    /// # Errors
    ///
    /// [`TlsError`] if reqwest refuses the key or certificates.
    pub fn to_reqwest(&self) -> Result<reqwest::Identity, TlsError> {
        reqwest::Identity::from_pem(&self.pem)
            .map_err(|e| tls_err(format!("client identity: not usable for TLS: {e}")))
    }
}

/// CA certificates to trust as TLS server roots (trust anchors, RFC 5280 §6.1.1), for servers
/// whose certificates a private CA issued.
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::transport::TrustAnchors;
/// let roots = TrustAnchors::from_pem(&std::fs::read("corp-ca.pem")?)?;
/// let client = soapgen_runtime::Client::builder("https://intranet.example/soap")
///     .trust_anchors(roots)
///     .build()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Default)]
pub struct TrustAnchors {
    der: Vec<Vec<u8>>,
}

impl fmt::Debug for TrustAnchors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TrustAnchors")
            .field("certificates", &self.der.len())
            .finish()
    }
}

impl TrustAnchors {
    /// Every `CERTIFICATE` block of PEM text (RFC 7468), a bundle of one or more.
    ///
    /// # Errors
    ///
    /// [`TlsError`] when the text is not PEM, holds no certificate, or holds another kind of
    /// block (a private key in a CA bundle is refused rather than ignored).
    pub fn from_pem(pem_text: &[u8]) -> Result<Self, TlsError> {
        let mut der = Vec::new();
        let mut cursor = std::io::Cursor::new(pem_text);
        loop {
            let item = pem::from_buf(&mut cursor)
                .map_err(|e| tls_err(format!("trust anchor PEM: not readable PEM: {e:?}")))?;
            let Some((kind, d)) = item else { break };
            if kind != SectionKind::Certificate {
                return Err(tls_err(format!(
                    "trust anchor PEM: block {} is {kind:?}, not a CERTIFICATE",
                    der.len() + 1
                )));
            }
            der.push(d);
        }
        unread_blocks("trust anchor PEM", pem_text)?;
        if der.is_empty() {
            return Err(tls_err(
                "trust anchor PEM: no CERTIFICATE block (-----BEGIN CERTIFICATE-----) in it"
                    .to_owned(),
            ));
        }
        Ok(TrustAnchors { der })
    }

    /// One DER-encoded X.509 certificate (RFC 5280 §4.1).
    ///
    /// # Errors
    ///
    /// [`TlsError`] when the bytes are empty or not a DER SEQUENCE.
    pub fn from_der(der: &[u8]) -> Result<Self, TlsError> {
        if der.first() != Some(&0x30) {
            return Err(tls_err(
                "trust anchor DER: not an X.509 certificate (no DER SEQUENCE)".to_owned(),
            ));
        }
        Ok(TrustAnchors {
            der: vec![der.to_vec()],
        })
    }

    /// Adds the certificates of `other`.
    pub fn extend(&mut self, other: TrustAnchors) {
        self.der.extend(other.der);
    }

    /// How many certificates.
    pub fn len(&self) -> usize {
        self.der.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.der.is_empty()
    }

    pub(crate) fn to_reqwest(&self) -> Result<Vec<reqwest::Certificate>, TlsError> {
        self.der
            .iter()
            .enumerate()
            .map(|(i, d)| {
                reqwest::Certificate::from_der(d).map_err(|e| {
                    tls_err(format!(
                        "trust anchor {}: not an X.509 certificate: {e}",
                        i + 1
                    ))
                })
            })
            .collect()
    }
}

/// The labels of the `-----BEGIN <label>-----` lines of `text`.
fn begin_labels(text: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(text);
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("-----BEGIN "))
        .filter_map(|l| l.strip_suffix("-----"))
        .map(str::to_owned)
        .collect()
}

/// Refuses blocks the PEM reader skips (it reads only the kinds it knows), so nothing given is
/// dropped unnoticed: an encrypted key above all.
fn unread_blocks(what: &str, text: &[u8]) -> Result<(), TlsError> {
    const KNOWN: &[&str] = &[
        "CERTIFICATE",
        "PRIVATE KEY",
        "RSA PRIVATE KEY",
        "EC PRIVATE KEY",
    ];
    for (i, label) in begin_labels(text).iter().enumerate() {
        if label == "ENCRYPTED PRIVATE KEY" {
            return Err(tls_err(format!(
                "{what}: block {} is an ENCRYPTED PRIVATE KEY (PKCS#8 EncryptedPrivateKeyInfo, \
                 RFC 5958 §3): decrypt it first (openssl pkcs8 -in key.pem -out plain.pem) or \
                 give a PKCS#12 store with its password",
                i + 1
            )));
        }
        if !KNOWN.contains(&label.as_str()) {
            return Err(tls_err(format!(
                "{what}: block {} is a {label}, neither a CERTIFICATE nor an unencrypted private \
                 key",
                i + 1
            )));
        }
    }
    Ok(())
}

fn write_pem(out: &mut Vec<u8>, label: &str, der: &[u8]) {
    use base64::Engine as _;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    out.extend_from_slice(format!("-----BEGIN {label}-----\n").as_bytes());
    for line in b64.as_bytes().chunks(64) {
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out.extend_from_slice(format!("-----END {label}-----\n").as_bytes());
}
