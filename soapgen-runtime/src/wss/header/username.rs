//! The signature of an endorsing UsernameToken (WS-SecurityPolicy 1.2 §8.3 with a
//! `sp:UsernameToken`): HMAC-SHA1 under the key the token's password derives (UsernameToken
//! Profile 1.1 §4), its KeyInfo a SecurityTokenReference to the token (UsernameToken Profile 1.1
//! §4, WS-I BSP R4214/R4215: a Reference with the token's ValueType).

use super::super::sign::DS_NS;
use super::super::symmetric::{hmac_sha1, HMAC_SHA1};
use super::super::{DigestAlgorithm, WssConfig, WssError, WSSE_NS};
use super::block::write_signed_info;
use crate::xml::{Name, XmlWriter};

/// `ValueType` of a SecurityTokenReference to a UsernameToken (UsernameToken Profile 1.1 §4).
const USERNAME_TOKEN: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#UsernameToken";

/// Writes into the Security block being written by `w` a `ds:Signature` (Id `id`) over
/// `references` ((wsu:Id, DigestValue) pairs, digested with `digest`) with HMAC-SHA1 under `key`,
/// its KeyInfo a SecurityTokenReference to the token `(URI, ValueType)` (a UsernameToken's
/// `#Id`, a SecurityContextToken's). Returns the raw SignatureValue.
pub(super) fn write_signature(
    w: &mut XmlWriter,
    key: &[u8],
    digest: DigestAlgorithm,
    references: &[(String, String)],
    id: &str,
    (uri, value_type): (&str, &str),
    scratch: &mut Vec<u8>,
) -> Result<Vec<u8>, WssError> {
    w.start_element_prefixed(Name::new(DS_NS, "Signature"), Some("ds"))?;
    w.attribute(Name::unqualified("Id"), id)?;
    w.raw("")?;
    let signed_info_at = w.as_str().len();
    write_signed_info(w, HMAC_SHA1, digest, references, &[])?;
    scratch.clear();
    super::super::exclusive_c14n(w.as_str(), signed_info_at, &[], scratch)?;
    let value = hmac_sha1(key, scratch);
    w.simple_element(
        Name::new(DS_NS, "SignatureValue"),
        super::super::base64(&value).as_str(),
    )?;
    w.start_element(Name::new(DS_NS, "KeyInfo"))?;
    w.start_element_prefixed(Name::new(WSSE_NS, "SecurityTokenReference"), Some("wsse"))?;
    w.start_element(Name::new(WSSE_NS, "Reference"))?;
    w.attribute(Name::unqualified("URI"), uri)?;
    w.attribute(Name::unqualified("ValueType"), value_type)?;
    w.end_element()?; // Reference
    w.end_element()?; // SecurityTokenReference
    w.end_element()?; // KeyInfo
    w.end_element()?; // Signature
    Ok(value)
}

/// The endorsing UsernameToken's signature, when `cfg` has one
/// ([`WssConfig::username_token_endorses`]): over the element that starts at byte `at` of the
/// Security block being written by `w`, whose Id is `target`, under `key` (the token's, if it
/// derived one), its own Id `id`, naming the token `token_id`. Its raw SignatureValue.
pub(super) fn endorse(
    w: &mut XmlWriter,
    cfg: &WssConfig,
    key: Option<[u8; 20]>,
    (at, target): (usize, &str),
    (id, token_id): (&str, &str),
    scratch: &mut Vec<u8>,
) -> Result<Option<Vec<u8>>, WssError> {
    let Some(digest) = cfg.username_endorsement() else {
        return Ok(None);
    };
    let key = key.ok_or_else(|| {
        WssError::Encode(
            "an endorsing UsernameToken (WssConfig::username_token_endorses) signs with the key \
             its password derives: set WssConfig::username_token(UsernameToken::derived_key(…)) \
             (and, under a SymmetricBinding that encrypts it, EncryptionOrder::SignThenEncrypt)"
                .to_owned(),
        )
    })?;
    scratch.clear();
    super::super::exclusive_c14n(w.as_str(), at, &[], scratch)?;
    let target_digest = super::super::base64(&digest.digest(scratch));
    let references = [(target.to_owned(), target_digest)];
    let token = format!("#{token_id}");
    write_signature(
        w,
        &key,
        digest,
        &references,
        id,
        (&token, USERNAME_TOKEN),
        scratch,
    )
    .map(Some)
}
