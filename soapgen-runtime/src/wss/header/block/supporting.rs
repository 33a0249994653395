//! X.509 supporting tokens that do not endorse (WS-SecurityPolicy 1.2 §8.1–8.2, §8.5–8.6) in a
//! Security block: each certificate's BinarySecurityToken, the References a signature makes to the
//! signed ones, and the ranges the request key encrypts.

use std::ops::Range;

use crate::wss::sign::X509V3;
use crate::wss::{WssConfig, WssError, X509SupportingToken, BASE64_BINARY, WSSE_NS, WSU_NS};
use crate::xml::{Name, XmlWriter};

/// The `wsu:Id` of the BinarySecurityToken of the `i`th supporting token (from 0) of the message
/// whose Ids end with `suffix`.
pub(crate) fn token_id(suffix: &str, i: usize) -> String {
    format!("X509S{}-{suffix}", i + 1)
}

/// The Id of the EncryptedData that replaces that token when it is encrypted.
pub(crate) fn data_id(suffix: &str, i: usize) -> String {
    format!("EX509S{}-{suffix}", i + 1)
}

/// Writes the BinarySecurityToken (X509v3, X.509 Token Profile 1.1 §3.1) of every supporting
/// token of `cfg` for which `now` holds, recording its byte range in `written` (by index).
pub(crate) fn write(
    w: &mut XmlWriter,
    cfg: &WssConfig,
    suffix: &str,
    now: impl Fn(&X509SupportingToken) -> bool,
    written: &mut Vec<Option<Range<usize>>>,
) -> Result<(), WssError> {
    written.resize(cfg.supporting_tokens().len(), None);
    for (i, t) in cfg.supporting_tokens().iter().enumerate() {
        if !now(t) || written[i].is_some() {
            continue;
        }
        w.raw("")?; // the open start tag closed: the token starts here
        let start = w.as_str().len();
        w.start_element(Name::new(WSSE_NS, "BinarySecurityToken"))?;
        w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
        w.attribute(Name::unqualified("ValueType"), X509V3)?;
        w.attribute(Name::new(WSU_NS, "Id"), &token_id(suffix, i))?;
        w.text(&crate::wss::base64(t.certificate().der()))?;
        w.end_element()?;
        w.raw("")?;
        written[i] = Some(start..w.as_str().len());
    }
    Ok(())
}

/// The References of a signature to the signed supporting tokens written in `block` at
/// `written`, each DigestValue from `digest` (the block and the token's start offset).
pub(crate) fn signed_references(
    cfg: &WssConfig,
    suffix: &str,
    block: &str,
    written: &[Option<Range<usize>>],
    mut digest: impl FnMut(&str, usize) -> Result<String, WssError>,
    references: &mut Vec<(String, String)>,
) -> Result<(), WssError> {
    for (i, t) in cfg.supporting_tokens().iter().enumerate() {
        if t.signed {
            let at = written.get(i).cloned().flatten().ok_or_else(|| {
                WssError::Encode(
                    "a signed supporting token (X509SupportingToken::signed) is written after \
                     the signature"
                        .to_owned(),
                )
            })?;
            references.push((token_id(suffix, i), digest(block, at.start)?));
        }
    }
    Ok(())
}

/// The ranges of the encrypted supporting tokens among `written`, each with the Id of the
/// EncryptedData that replaces it.
pub(crate) fn encrypted_ranges(
    cfg: &WssConfig,
    suffix: &str,
    written: &[Option<Range<usize>>],
) -> Vec<(Range<usize>, String)> {
    cfg.supporting_tokens()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.encrypted)
        .filter_map(|(i, _)| Some((written.get(i).cloned().flatten()?, data_id(suffix, i))))
        .collect()
}

/// The Ids of the EncryptedData of the encrypted supporting tokens of `cfg`.
pub(crate) fn data_ids(cfg: &WssConfig, suffix: &str) -> Vec<String> {
    cfg.supporting_tokens()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.encrypted)
        .map(|(i, _)| data_id(suffix, i))
        .collect()
}

/// What supporting tokens cannot be: signed with no message signature, encrypted with no
/// request encryption (`signs`, `encrypts`: whether the request has them).
pub(crate) fn refuse(cfg: &WssConfig, signs: bool, encrypts: bool) -> Result<(), WssError> {
    let tokens = cfg.supporting_tokens();
    if !signs && tokens.iter().any(|t| t.signed) {
        return Err(WssError::Encode(
            "a signed supporting token (X509SupportingToken::signed) needs a message signature \
             (WssConfig::sign or WssConfig::symmetric)"
                .to_owned(),
        ));
    }
    if !encrypts && tokens.iter().any(|t| t.encrypted) {
        return Err(WssError::Encode(
            "an encrypted supporting token (X509SupportingToken::encrypted) needs a request \
             encryption (WssConfig::encrypt or WssConfig::symmetric)"
                .to_owned(),
        ));
    }
    Ok(())
}
