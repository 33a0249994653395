//! The signature and digest methods a response may use (XML-DSig §6, RFC 6931, RFC 9231): RSA
//! PKCS#1 v1.5, RSASSA-PSS and ECDSA, with the key-size floor.

use aws_lc_rs::signature::{self, VerificationAlgorithm};

use super::document::{child, elements, text};
use crate::wss::policy as alg;
use crate::wss::{Certificate, WssConfig, WssError, DS_NS};
use crate::xml::read::tree::Node;

/// The verification algorithm of a SignatureMethod URI for an RSA key of `bits`: PKCS#1 v1.5
/// (aws-lc-rs has RSA-SHA384 for 2048 bits and more only; below 1024 bits, none) or PSS (2048
/// bits and more).
pub(super) fn rsa_signature_algorithm(
    uri: &str,
    bits: usize,
) -> Option<&'static dyn VerificationAlgorithm> {
    let legacy = bits < 2048;
    if bits < 1024 {
        return None;
    }
    Some(match uri {
        alg::RSA_SHA1 if legacy => &signature::RSA_PKCS1_1024_8192_SHA1_FOR_LEGACY_USE_ONLY,
        alg::RSA_SHA1 => &signature::RSA_PKCS1_2048_8192_SHA1_FOR_LEGACY_USE_ONLY,
        alg::RSA_SHA256 if legacy => &signature::RSA_PKCS1_1024_8192_SHA256_FOR_LEGACY_USE_ONLY,
        alg::RSA_SHA256 => &signature::RSA_PKCS1_2048_8192_SHA256,
        alg::RSA_SHA384 if !legacy => &signature::RSA_PKCS1_2048_8192_SHA384,
        alg::RSA_SHA512 if legacy => &signature::RSA_PKCS1_1024_8192_SHA512_FOR_LEGACY_USE_ONLY,
        alg::RSA_SHA512 => &signature::RSA_PKCS1_2048_8192_SHA512,
        alg::RSA_PSS_SHA256 if !legacy => &signature::RSA_PSS_2048_8192_SHA256,
        alg::RSA_PSS_SHA384 if !legacy => &signature::RSA_PSS_2048_8192_SHA384,
        alg::RSA_PSS_SHA512 if !legacy => &signature::RSA_PSS_2048_8192_SHA512,
        _ => return None,
    })
}

/// The ECDSA verification algorithm of a SignatureMethod URI for a key on `curve` (as
/// [`Certificate::public_key_algorithm`] names it): the hash of the curve's size only
/// (XML-DSig 1.1 §6.4.3), the SignatureValue as `r || s`.
pub(super) fn ecdsa_signature_algorithm(
    uri: &str,
    curve: &str,
) -> Option<&'static dyn VerificationAlgorithm> {
    Some(match (uri, curve) {
        (alg::ECDSA_SHA256, "EC P-256") => &signature::ECDSA_P256_SHA256_FIXED,
        (alg::ECDSA_SHA384, "EC P-384") => &signature::ECDSA_P384_SHA384_FIXED,
        (alg::ECDSA_SHA512, "EC P-521") => &signature::ECDSA_P521_SHA512_FIXED,
        _ => return None,
    })
}

/// Whether soapgen verifies the SignatureMethod `uri` with some key.
pub(super) fn known_signature_method(uri: &str) -> bool {
    rsa_signature_algorithm(uri, 2048).is_some()
        || ["EC P-256", "EC P-384", "EC P-521"]
            .iter()
            .any(|c| ecdsa_signature_algorithm(uri, c).is_some())
}

/// The RSASSA-PSS method of an `rsa-pss` SignatureMethod (RFC 6931 §2.3.10, RSASSA-PSS with parameters): its
/// `pss:RSAPSSParams` must name SHA-256, SHA-384 or SHA-512 (default SHA-256), MGF1 with the
/// same digest (the default), a salt as long as the digest (the default) and trailer field 1:
/// the parameters aws-lc-rs verifies, given as the parameterless `…-rsa-MGF1` URI of that digest
/// (RFC 6931 §2.3.11).
pub(super) fn rsa_pss_params(method: Node<'_, '_>) -> Result<&'static str, WssError> {
    const PSS_NS: &str = "http://www.w3.org/2007/05/xmldsig-more#";
    let bad = |why: &str| WssError::AlgorithmNotAllowed {
        role: "SignatureMethod",
        uri: format!("{} ({why})", alg::RSA_PSS),
    };
    let params = elements(method).find(|c| c.tag_name().name() == "RSAPSSParams");
    let Some(params) = params else {
        return Ok(alg::RSA_PSS_SHA256);
    };
    if params.tag_name().namespace() != Some(PSS_NS) {
        return Err(bad("RSAPSSParams in another namespace than RFC 9231's"));
    }
    let mut digest = alg::SHA256;
    let mut mgf_digest = None;
    let mut salt = None;
    for c in elements(params) {
        match (c.tag_name().namespace(), c.tag_name().name()) {
            (Some(DS_NS), "DigestMethod") => digest = c.attribute("Algorithm").unwrap_or(""),
            (Some(PSS_NS), "MaskGenerationFunction") => {
                if c.attribute("Algorithm") != Some("http://www.w3.org/2007/05/xmldsig-more#MGF1") {
                    return Err(bad("a mask generation function other than MGF1"));
                }
                mgf_digest =
                    child(c, DS_NS, "DigestMethod").map(|d| d.attribute("Algorithm").unwrap_or(""));
            }
            (Some(PSS_NS), "SaltLength") => {
                salt = Some(
                    text(c)
                        .trim()
                        .parse::<usize>()
                        .map_err(|_| bad("a SaltLength that is not a number"))?,
                );
            }
            (Some(PSS_NS), "TrailerField") => {
                if text(c).trim() != "1" {
                    return Err(bad("a TrailerField other than 1"));
                }
            }
            _ => return Err(bad("an unknown element in RSAPSSParams")),
        }
    }
    let (uri, len) = match digest {
        alg::SHA256 => (alg::RSA_PSS_SHA256, 32),
        alg::SHA384 => (alg::RSA_PSS_SHA384, 48),
        alg::SHA512 => (alg::RSA_PSS_SHA512, 64),
        _ => return Err(bad("a digest other than SHA-256, SHA-384 or SHA-512")),
    };
    if mgf_digest.is_some_and(|m| m != digest) {
        return Err(bad("MGF1 with another digest than the signature's"));
    }
    if salt.is_some_and(|s| s != len) {
        return Err(bad("a SaltLength other than the digest's length"));
    }
    Ok(uri)
}

/// The verification algorithm of `method_uri` for the signer's key: for RSA, after refusing a
/// key shorter than the policy's minimum ([`WssConfig::min_rsa_key_bits`], NIST SP 800-131A:
/// 2048 bits) with [`WssError::WeakKey`]; for EC, the ECDSA method of the key's curve.
pub(super) fn check_key_size(
    cfg: &WssConfig,
    signer: &Certificate,
    method_uri: &str,
) -> Result<&'static dyn VerificationAlgorithm, WssError> {
    let minimum = cfg.rsa_key_minimum();
    let key = signer.public_key_algorithm();
    let ecdsa_method = method_uri.contains("#ecdsa-");
    if key.starts_with("EC") {
        return ecdsa_signature_algorithm(method_uri, key).ok_or_else(|| {
            WssError::InvalidSignature(if ecdsa_method {
                format!(
                    "the signer {} has an {key} key, which {method_uri} does not go with (ECDSA with the hash of the curve's size: P-256 with SHA-256, P-384 with SHA-384, P-521 with SHA-512)",
                    signer.subject()
                )
            } else {
                format!(
                    "the certificate {} has no RSA key (rsaEncryption) for {method_uri}: its key is {key}",
                    signer.subject()
                )
            })
        });
    }
    if key != "RSA" {
        return Err(WssError::InvalidSignature(format!(
            "the certificate {} has a {key} key, which {method_uri} cannot verify",
            signer.subject()
        )));
    }
    if ecdsa_method {
        return Err(WssError::InvalidSignature(format!(
            "the certificate {} has an RSA key, not the EC key {method_uri} needs",
            signer.subject()
        )));
    }
    let bits = signer.public_key_bits().unwrap_or(0);
    if bits < minimum {
        return Err(WssError::WeakKey {
            subject: signer.subject().to_owned(),
            bits,
            minimum,
        });
    }
    rsa_signature_algorithm(method_uri, bits).ok_or_else(|| WssError::WeakKey {
        subject: signer.subject().to_owned(),
        bits,
        minimum: 2048,
    })
}

pub(super) fn digest_algorithm(uri: &str) -> Option<&'static aws_lc_rs::digest::Algorithm> {
    Some(match uri {
        alg::SHA1 => &aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY,
        alg::SHA256 => &aws_lc_rs::digest::SHA256,
        alg::SHA384 => &aws_lc_rs::digest::SHA384,
        alg::SHA512 => &aws_lc_rs::digest::SHA512,
        _ => return None,
    })
}
