//! Endorsing signatures (WS-SecurityPolicy 1.2 §8.3–§8.8) in a Security block: the message
//! signature's References to signed endorsing tokens, each endorsing signature over the message
//! signature, and under a SymmetricBinding the tokens written ahead of its signature.

use crate::wss::header::block::{offset, write_signature, write_token, BlockIds, Offsets};
use crate::wss::{Endorsement, WssConfig, WssError, X509Signer};
use crate::xml::XmlWriter;

/// The References of the message signature by `signer` to the tokens of the
/// [`Endorsement::signed`](crate::wss::Endorsement::signed) endorsements
/// (`sp:SignedEndorsingSupportingTokens`, WS-SecurityPolicy 1.2 §8.4).
pub(super) fn signed_endorsing_tokens(
    cfg: &WssConfig,
    signer: &X509Signer,
    block: &str,
    at: &Offsets,
    ids: &BlockIds,
    references: &mut Vec<(String, String)>,
    scratch: &mut Vec<u8>,
) -> Result<(), WssError> {
    for (i, e) in cfg.endorsements().iter().enumerate() {
        if !e.signed {
            continue;
        }
        let token = at.endorsing_tokens.get(i).copied().flatten().ok_or_else(|| {
            WssError::Encode(
                "a signed endorsing token (Endorsement::signed) must be in the message (KeyReference::DirectReference)"
                    .to_owned(),
            )
        })?;
        references.push((
            ids.endorsing[i].token.clone(),
            signer.reference_digest(block, token, scratch)?,
        ));
    }
    Ok(())
}

/// Writes the `i`th endorsing signature `e` (WS-SecurityPolicy 1.2 §8.3): References to the
/// message signature at byte `primary_at` (by its `Id`), to the endorser's own token with
/// [`X509Signer::protect_token`], and to the Body when `body` (its DigestValue) is given.
#[allow(clippy::too_many_arguments)]
pub(super) fn endorse(
    w: &mut XmlWriter,
    e: &Endorsement,
    primary_at: usize,
    body: Option<String>,
    at: &Offsets,
    ids: &BlockIds,
    i: usize,
    scratch: &mut Vec<u8>,
) -> Result<Written, WssError> {
    let signer = &e.signer;
    let own = &ids.endorsing[i];
    let mut references = vec![(
        ids.primary.signature.clone(),
        signer.reference_digest(w.as_str(), primary_at, scratch)?,
    )];
    if signer.protect_token {
        let token = at.endorsing_tokens[i].ok_or_else(|| {
            WssError::Encode(
                "sp:ProtectTokens of an endorsing signer needs its certificate in the message (KeyReference::DirectReference)"
                    .to_owned(),
            )
        })?;
        references.push((
            own.token.clone(),
            signer.reference_digest(w.as_str(), token, scratch)?,
        ));
    }
    if let Some(digest) = body {
        references.push((ids.body.clone(), digest));
    }
    write_signature(w, signer, (&references, &[]), own, scratch)
}

/// The Id of the EncryptedData that replaces the BinarySecurityToken of the `i`th endorsement
/// (from 0) when it is encrypted, in the message whose Ids end with `suffix`.
pub(crate) fn data_id(suffix: &str, i: usize) -> String {
    format!("EX509E{}-{suffix}", i + 1)
}

/// An endorsing BinarySecurityToken written ahead of the signatures: its `wsu:Id` and byte range.
pub(crate) type TokenWritten = (String, std::ops::Range<usize>);

/// Writes, before a SymmetricBinding's message signature, the BinarySecurityTokens of the
/// endorsements whose token that signature covers ([`Endorsement::signed`]) or that are
/// encrypted ([`Endorsement::encrypted`]): per endorsement, the token's `wsu:Id` and byte range
/// in `w`, or `None` for a token [`endorse_signature`] writes after it.
///
/// # Errors
///
/// [`WssError::Encode`] for such a token that its key reference keeps out of the message.
pub(crate) fn endorsing_tokens_first(
    w: &mut XmlWriter,
    cfg: &WssConfig,
    suffix: &str,
) -> Result<Vec<Option<TokenWritten>>, WssError> {
    let ids = BlockIds::new(suffix, cfg.endorsements().len());
    let mut written = Vec::with_capacity(ids.endorsing.len());
    for (e, e_ids) in cfg.endorsements().iter().zip(ids.endorsing) {
        if !(e.signed || e.encrypted) {
            written.push(None);
            continue;
        }
        let start =
            write_token(w, &e.signer, &e_ids.token)?.ok_or_else(endorsing_token_not_sent)?;
        written.push(Some((e_ids.token, start..offset(w)?)));
    }
    Ok(written)
}

/// The error of an endorsing token to sign or encrypt that its key reference keeps out of the message.
pub(crate) fn endorsing_token_not_sent() -> WssError {
    WssError::Encode(
        "a signed or encrypted endorsing token (Endorsement::signed, Endorsement::encrypted) \
         must be in the message (KeyReference::DirectReference)"
            .to_owned(),
    )
}

/// A `ds:Signature` written: its byte range, and its raw SignatureValue.
pub(crate) type Written = (std::ops::Range<usize>, Vec<u8>);

/// Writes the endorsing signatures of `cfg` (WS-SecurityPolicy 1.2 §8.3) after a message
/// signature that is not `cfg`'s signer's (a SymmetricBinding's, Id `SIG-{suffix}`) at byte
/// `primary_at` of `w`: each endorser's BinarySecurityToken when it is sent, then its signature
/// over the message signature, and over the Body when it covers it (`body`: the Body's
/// DigestValue for each endorsement, by its signer's DigestMethod). The tokens of `written`
/// ([`endorsing_tokens_first`]) are in `w` already. Returns the
/// byte range of each `ds:Signature` in `w` and its raw SignatureValue, which the response's
/// SignatureConfirmations confirm.
pub(crate) fn endorse_signature(
    w: &mut XmlWriter,
    cfg: &WssConfig,
    suffix: &str,
    primary_at: usize,
    body: &[Option<String>],
    written: &[Option<TokenWritten>],
    scratch: &mut Vec<u8>,
) -> Result<Vec<Written>, WssError> {
    let ids = BlockIds::new(suffix, cfg.endorsements().len());
    let mut at = Offsets::default();
    let mut values = Vec::with_capacity(cfg.endorsements().len());
    for (i, e) in cfg.endorsements().iter().enumerate() {
        let token = match written.get(i).cloned().flatten() {
            Some((_, range)) => Some(range.start),
            None => write_token(w, &e.signer, &ids.endorsing[i].token)?,
        };
        at.endorsing_tokens.push(token);
        let digest = body.get(i).cloned().flatten();
        values.push(endorse(w, e, primary_at, digest, &at, &ids, i, scratch)?);
    }
    Ok(values)
}
