//! BinarySecurityTokens (X.509 Token Profile 1.1 §3.1): a single certificate, a PKIPath or a
//! PKCS#7 chain, decoded once per message and cached by `wsu:Id`.

use std::collections::HashMap;

use super::document::{malformed, text};
use crate::wss::{Certificate, WssError, BASE64_BINARY, WSSE_NS, WSU_NS, X509V3};
use crate::xml::read::tree::Node;

/// [`tokens`], with certificates already read (same base64 text, in this response or an earlier
/// one) taken from the configuration's cache; and the other certificates of the PKIPath and
/// PKCS#7 tokens (the chains they carry), for building the signer's path.
pub(super) fn cached_tokens(
    sec: Node<'_, '_>,
    cache: &super::super::policy::CertificateCache,
) -> Result<(HashMap<String, Certificate>, Vec<Certificate>), WssError> {
    let mut chain = Vec::new();
    let tokens = tokens_with(
        sec,
        &mut |text, id| cache.get_or_read(text, || read_token(text, id)),
        &mut chain,
    )?;
    Ok((tokens, chain))
}

pub(super) fn token_der(text: &str, name: &str) -> Result<Vec<u8>, WssError> {
    crate::base64::decode(text.as_bytes()).map_err(|e| WssError::Certificate {
        name: name.to_owned(),
        reason: format!("not base64: {e}"),
    })
}

pub(super) fn read_token(text: &str, id: &str) -> Result<Certificate, WssError> {
    let name = format!("BinarySecurityToken {id}");
    Certificate::from_der(&token_der(text, &name)?, &name)
}

/// The certificates of the Security header's X.509 BinarySecurityTokens, by `wsu:Id` (for a
/// PKIPath or PKCS#7 token, its leaf).
pub(crate) fn tokens(sec: Node<'_, '_>) -> Result<HashMap<String, Certificate>, WssError> {
    tokens_with(sec, &mut read_token, &mut Vec::new())
}

/// `ValueType` of a BinarySecurityToken holding a certificate path as an ASN.1 `PkiPath` (X.509
/// Token Profile 1.1 §3.1).
pub const X509_PKIPATH: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#X509PKIPathv1";

/// `ValueType` of a BinarySecurityToken holding certificates as a PKCS#7 SignedData (X.509
/// Token Profile 1.1 §3.1, RFC 2315 §9.1).
pub const X509_PKCS7: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-x509-token-profile-1.0#PKCS7";

/// The most certificates one PKIPath or PKCS#7 token may carry.
pub(super) const MAX_TOKEN_CERTIFICATES: usize = 16;

/// Reads the X.509 BinarySecurityTokens of `sec` (X.509 Token Profile 1.1 §3.1): `X509v3` with
/// `read(base64 text, id)`; `X509PKIPathv1` and `PKCS7` as certificate chains,
/// whose leaf (the certificate that issued none of the others) stands for the token and whose
/// other certificates go to `chain`. Tokens of other types (Kerberos, SAML…) are skipped.
pub(super) fn tokens_with(
    sec: Node<'_, '_>,
    read: &mut dyn FnMut(&str, &str) -> Result<Certificate, WssError>,
    chain: &mut Vec<Certificate>,
) -> Result<HashMap<String, Certificate>, WssError> {
    let mut out = HashMap::new();
    for t in sec
        .children()
        .filter(|c| c.has_tag_name((WSSE_NS, "BinarySecurityToken")))
    {
        let value_type = t.attribute("ValueType").unwrap_or("");
        if ![X509V3, X509_PKIPATH, X509_PKCS7].contains(&value_type) {
            continue; // Kerberos…: not used for signatures here
        }
        if let Some(enc) = t.attribute("EncodingType") {
            if enc != BASE64_BINARY {
                return Err(malformed(t, "EncodingType is not Base64Binary"));
            }
        }
        let Some(id) = t.attribute((WSU_NS, "Id")).or_else(|| t.attribute("Id")) else {
            continue; // nothing can reference it
        };
        // The token's text as it is (the base64 decoder skips line breaks): a cache hit
        // allocates nothing.
        let raw = text(t);
        let cert = if value_type == X509V3 {
            read(&raw, id)?
        } else {
            let kind = if value_type == X509_PKIPATH {
                "X509PKIPathv1"
            } else {
                "PKCS7"
            };
            let name = format!("BinarySecurityToken {id} ({kind})");
            let der = token_der(&raw, &name)?;
            let certs = if value_type == X509_PKIPATH {
                super::super::x509::pki_path(&der, &name)?
            } else {
                super::super::x509::pkcs7_certificates(&der, &name)?
            };
            if certs.len() > MAX_TOKEN_CERTIFICATES {
                return Err(WssError::Certificate {
                    name,
                    reason: format!("more than {MAX_TOKEN_CERTIFICATES} certificates"),
                });
            }
            let mut leaves = certs.iter().filter(|c| {
                !certs
                    .iter()
                    .any(|o| o.der() != c.der() && o.issuer() == c.subject())
            });
            let leaf = match (leaves.next(), leaves.next()) {
                (Some(one), None) => one.clone(),
                (None, _) => {
                    return Err(WssError::Certificate {
                        name,
                        reason: "it carries no certificate".to_owned(),
                    })
                }
                (Some(_), Some(_)) => {
                    return Err(WssError::Certificate {
                        name,
                        reason: format!(
                            "its {} certificates are not one chain (more than one leaf)",
                            certs.len()
                        ),
                    })
                }
            };
            chain.extend(certs.into_iter().filter(|c| c.der() != leaf.der()));
            leaf
        };
        out.insert(id.to_owned(), cert);
    }
    Ok(out)
}
