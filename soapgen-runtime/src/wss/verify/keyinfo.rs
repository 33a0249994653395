//! Finding the signer's key (XML-DSig §4.5 KeyInfo, WSS 1.1 §7 SecurityTokenReference): a
//! direct reference to a BinarySecurityToken, a KeyIdentifier (SKI, thumbprint), an
//! X509IssuerSerial, every child of `ds:X509Data`, or a certificate known without being sent.

use std::collections::HashMap;

use super::document::{base64, child, elements, malformed, path, text, Ids};
use crate::wss::{
    Certificate, WssConfig, WssError, DS_NS, THUMBPRINT_SHA1, WSSE_NS, X509V3, X509_SKI,
};
use crate::xml::read::tree::Node;

/// The token a SecurityTokenReference points at by a `wsse:Reference URI="#…"` (STR-Transform,
/// WSS 1.1 §8.3).
pub(super) fn dereference_str<'a, 'i>(
    str_node: Node<'a, 'i>,
    ids: &Ids<'a, 'i>,
) -> Result<Node<'a, 'i>, WssError> {
    if !str_node.has_tag_name((WSSE_NS, "SecurityTokenReference")) {
        return Err(malformed(
            str_node,
            "an STR-Transform must reference a SecurityTokenReference",
        ));
    }
    let reference = child(str_node, WSSE_NS, "Reference")
        .and_then(|r| r.attribute("URI"))
        .and_then(|u| u.strip_prefix('#'))
        .ok_or_else(|| {
            malformed(
                str_node,
                "STR-Transform is supported for a wsse:Reference to a token in the message only",
            )
        })?;
    ids.get(reference)
        .copied()
        .ok_or_else(|| WssError::InvalidSignature(format!("STR points at no element #{reference}")))
}

/// The signer's certificate from `ds:KeyInfo` (WSS 1.1 §7, X.509 Token Profile 1.1 §3.2, XML-DSig
/// §4.4.4): a SecurityTokenReference (Reference to a BinarySecurityToken; KeyIdentifier by SKI,
/// SHA-1 thumbprint or the certificate itself; X509IssuerSerial) or `ds:X509Data`
/// (`X509Certificate`, `X509SKI`, `X509IssuerSerial`). A bare `ds:KeyValue` is refused.
pub(super) fn signer_certificate(
    cfg: &WssConfig,
    key_info: Option<Node<'_, '_>>,
    tokens: &HashMap<String, Certificate>,
    sig: Node<'_, '_>,
) -> Result<Certificate, WssError> {
    let key_info =
        key_info.ok_or_else(|| WssError::UntrustedKey(format!("{} has no KeyInfo", path(sig))))?;
    let mut it = elements(key_info);
    let first = it
        .next()
        .ok_or_else(|| WssError::UntrustedKey("an empty KeyInfo".to_owned()))?;
    if it.next().is_some() {
        return Err(WssError::UntrustedKey(
            "KeyInfo holds more than one key reference (ambiguous)".to_owned(),
        ));
    }
    resolve_key(cfg, first, tokens)
}

/// A certificate named by a SecurityTokenReference or `ds:X509Data` (also used for the recipient of
/// an EncryptedKey).
pub(crate) fn resolve_key(
    cfg: &WssConfig,
    n: Node<'_, '_>,
    tokens: &HashMap<String, Certificate>,
) -> Result<Certificate, WssError> {
    let untrusted = |s: String| WssError::UntrustedKey(s);
    let known = || cfg.trust_store().known().chain(tokens.values());
    match (n.tag_name().namespace().unwrap_or(""), n.tag_name().name()) {
        (WSSE_NS, "SecurityTokenReference") => {
            let inner = elements(n)
                .next()
                .ok_or_else(|| untrusted("an empty SecurityTokenReference".to_owned()))?;
            match (
                inner.tag_name().namespace().unwrap_or(""),
                inner.tag_name().name(),
            ) {
                (WSSE_NS, "Reference") => {
                    let uri = inner.attribute("URI").unwrap_or("");
                    let id = uri.strip_prefix('#').ok_or_else(|| {
                        untrusted(format!("the token reference {uri:?} is not in the message"))
                    })?;
                    tokens.get(id).cloned().ok_or_else(|| {
                        untrusted(format!(
                            "#{id} is not an X.509 BinarySecurityToken of the Security header"
                        ))
                    })
                }
                (WSSE_NS, "KeyIdentifier") => {
                    let value = base64(inner).map_err(|r| malformed(inner, &r))?;
                    let kind = inner.attribute("ValueType").unwrap_or("");
                    let found = match kind {
                        X509_SKI => known().find(|c| c.subject_key_identifier() == Some(&value)),
                        THUMBPRINT_SHA1 => known().find(|c| c.sha1_thumbprint()[..] == value[..]),
                        X509V3 => {
                            return Certificate::from_der(&value, "KeyIdentifier X509v3");
                        }
                        other => {
                            return Err(untrusted(format!(
                                "KeyIdentifier ValueType {other:?} is not supported"
                            )))
                        }
                    };
                    found.cloned().ok_or_else(|| {
                        untrusted(format!(
                            "no configured certificate has the KeyIdentifier {} (add it to the TrustStore with .known_certificate(), or .certificate() to pin it)",
                            super::super::hex(&value)
                        ))
                    })
                }
                (DS_NS, "X509Data") => x509_data(inner, &known().collect::<Vec<_>>()),
                (ns, name) => Err(untrusted(format!(
                    "SecurityTokenReference by {{{ns}}}{name} is not supported"
                ))),
            }
        }
        (DS_NS, "X509Data") => x509_data(n, &known().collect::<Vec<_>>()),
        (DS_NS, "KeyValue") => Err(untrusted(
            "a bare ds:KeyValue names no certificate and is never trusted".to_owned(),
        )),
        (ns, name) => Err(untrusted(format!(
            "KeyInfo by {{{ns}}}{name} is not supported"
        ))),
    }
}

/// What one child of `ds:X509Data` says about the signer's certificate (XML-DSig §4.4.4).
pub(super) enum X509Identifier {
    Ski(Vec<u8>),
    IssuerSerial(String, String),
    SubjectName(String),
}

/// The most non-empty children of one `ds:X509Data` read (a signer, its chain and a few
/// identifiers), so that the leaf search stays small.
pub(super) const MAX_X509_DATA_CHILDREN: usize = 16;

/// Whether an element has no text at all in it (`<ds:X509IssuerSerial/>`, as libxmlsec1 leaves
/// a template it did not fill).
pub(super) fn is_blank(n: Node<'_, '_>) -> bool {
    n.descendants()
        .filter(Node::is_text)
        .all(|t| t.text().is_none_or(|t| t.trim().is_empty()))
}

/// The signer's certificate from a `ds:X509Data` (XML-DSig §4.4.4, X.509 Token Profile 1.1 §3.3),
/// every child considered, empty ones skipped: a certificate carried in the message is preferred
/// (the one all the identifiers name, or the leaf of those carried; the trust store validates it
/// then as it does a BinarySecurityToken); without one, the identifiers (`X509SKI`,
/// `X509IssuerSerial`, `X509SubjectName`, all of which must name it) look it up among the
/// configured certificates.
pub(super) fn x509_data(n: Node<'_, '_>, known: &[&Certificate]) -> Result<Certificate, WssError> {
    let untrusted = |s: String| WssError::UntrustedKey(s);
    let mut carried = Vec::new();
    let mut identifiers = Vec::new();
    let mut unsupported = Vec::new();
    for (i, c) in elements(n).filter(|c| !is_blank(*c)).enumerate() {
        if i == MAX_X509_DATA_CHILDREN {
            return Err(untrusted(format!(
                "an X509Data with more than {MAX_X509_DATA_CHILDREN} entries"
            )));
        }
        if c.tag_name().namespace() != Some(DS_NS) {
            unsupported.push(c.tag_name().name());
            continue;
        }
        match c.tag_name().name() {
            "X509Certificate" => {
                let der = base64(c).map_err(|r| malformed(c, &r))?;
                carried.push(Certificate::from_der(&der, "ds:X509Certificate")?);
            }
            "X509SKI" => {
                let ski = base64(c).map_err(|r| malformed(c, &r))?;
                identifiers.push(X509Identifier::Ski(ski));
            }
            "X509IssuerSerial" => {
                let issuer = child(c, DS_NS, "X509IssuerName")
                    .map(|i| text(i).trim().to_owned())
                    .unwrap_or_default();
                let serial = child(c, DS_NS, "X509SerialNumber")
                    .map(|i| text(i).trim().to_owned())
                    .unwrap_or_default();
                identifiers.push(X509Identifier::IssuerSerial(issuer, serial));
            }
            "X509SubjectName" => {
                identifiers.push(X509Identifier::SubjectName(text(c).trim().to_owned()));
            }
            // Revocation lists say nothing about which certificate signed.
            "X509CRL" => {}
            other => unsupported.push(other),
        }
    }
    let named = |c: &Certificate| identifiers.iter().all(|i| i.matches(c));
    let names = || {
        identifiers
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !carried.is_empty() {
        if !identifiers.is_empty() {
            return carried.into_iter().find(named).ok_or_else(|| {
                untrusted(format!(
                    "the X509Data's {} names none of the certificates it carries",
                    names()
                ))
            });
        }
        // A chain: the signer is the certificate that issued none of the others.
        let leaves: Vec<&Certificate> = carried
            .iter()
            .filter(|c| {
                !carried
                    .iter()
                    .any(|o| o.der() != c.der() && o.issuer() == c.subject())
            })
            .collect();
        return match leaves.as_slice() {
            [one] => Ok((*one).clone()),
            _ => Err(untrusted(format!(
                "the X509Data carries {} certificates and does not say which one signed",
                carried.len()
            ))),
        };
    }
    if identifiers.is_empty() {
        return Err(untrusted(if unsupported.is_empty() {
            "an empty X509Data".to_owned()
        } else {
            format!("X509Data by {} is not supported", unsupported.join(", "))
        }));
    }
    known
        .iter()
        .find(|c| named(c))
        .map(|c| (*c).clone())
        .ok_or_else(|| {
            untrusted(format!(
                "no configured certificate has {} (add it to the TrustStore with .known_certificate(), or .certificate() to pin it)",
                names()
            ))
        })
}

impl X509Identifier {
    fn matches(&self, c: &Certificate) -> bool {
        match self {
            X509Identifier::Ski(ski) => c.subject_key_identifier() == Some(ski.as_slice()),
            X509Identifier::IssuerSerial(issuer, serial) => c.matches_issuer_serial(issuer, serial),
            X509Identifier::SubjectName(name) => c.matches_subject_name(name),
        }
    }
}

impl std::fmt::Display for X509Identifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            X509Identifier::Ski(ski) => write!(f, "X509SKI {}", super::super::hex(ski)),
            X509Identifier::IssuerSerial(issuer, serial) => {
                write!(f, "issuer {issuer:?} and serial {serial}")
            }
            X509Identifier::SubjectName(name) => write!(f, "X509SubjectName {name:?}"),
        }
    }
}
