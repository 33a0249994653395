//! The keys of a response under a SymmetricBinding (WS-SecurityPolicy 1.2 §7.4): the request key
//! the client made, named by the `#EncryptedKeySHA1` of its EncryptedKey (WSS 1.1 §7.3) or by a
//! Reference to that EncryptedKey's `Id` (which no element of the response may carry), or a key
//! derived from it by a `wsc:DerivedKeyToken` (WS-SecureConversation 1.3 §7, or the February
//! 2005 namespace). No other key is accepted for a symmetric signature or decryption: a key the
//! response itself carries, wrapped for this client's public key, proves nothing about its sender.

use super::document::{base64, child, elements, malformed, text, Ids};
use crate::wss::symmetric::{p_sha1, RequestKey, DEFAULT_LABEL, WSC_13_NS, WSC_2005_NS};
use crate::wss::{WssError, ENCRYPTED_KEY_SHA1, WSSE_NS};
use crate::xml::read::tree::Node;

/// The most derivation steps followed (a DerivedKeyToken based on another).
const MAX_DEPTH: usize = 4;

/// The key a `wsse:SecurityTokenReference` names under a SymmetricBinding: the request key
/// (`KeyIdentifier` `#EncryptedKeySHA1` equal to the request's, or a `Reference` to the request's
/// EncryptedKey `Id` when no element of the response has it), or the key a DerivedKeyToken of
/// the message derives from it (`Reference` to it).
///
/// # Errors
///
/// [`WssError::UntrustedKey`] when the request had no key (it was not sent under a
/// SymmetricBinding), or the reference names anything else; [`WssError::Malformed`] for a
/// DerivedKeyToken that breaks WS-SecureConversation 1.3 §7.
pub(crate) fn symmetric_key(
    str_node: Node<'_, '_>,
    ids: &Ids<'_, '_>,
    request: Option<&RequestKey>,
) -> Result<Vec<u8>, WssError> {
    let request = request.ok_or_else(|| {
        WssError::UntrustedKey(
            "a symmetric key, but the request was not sent under a SymmetricBinding (no key of this client's making to check it with)"
                .to_owned(),
        )
    })?;
    resolve(str_node, ids, request, 0)
}

fn resolve(
    str_node: Node<'_, '_>,
    ids: &Ids<'_, '_>,
    request: &RequestKey,
    depth: usize,
) -> Result<Vec<u8>, WssError> {
    let untrusted = |what: &str| {
        WssError::UntrustedKey(format!(
            "{what}: a symmetric key must be the request key this client made, named by its EncryptedKeySHA1, or derived from it"
        ))
    };
    if !str_node.has_tag_name((WSSE_NS, "SecurityTokenReference")) {
        return Err(untrusted("the KeyInfo holds no SecurityTokenReference"));
    }
    if let Some(k) = child(str_node, WSSE_NS, "KeyIdentifier") {
        if k.attribute("ValueType") != Some(ENCRYPTED_KEY_SHA1) {
            return Err(untrusted("a KeyIdentifier of another ValueType"));
        }
        let v = base64(k).map_err(|r| malformed(k, &r))?;
        // Public values (the SHA-1 of a ciphertext that travelled in the clear).
        if request.sha1.is_none_or(|sha1| v[..] != sha1[..]) {
            return Err(untrusted("an EncryptedKeySHA1 of another key"));
        }
        return Ok(request.key.clone());
    }
    let uri = child(str_node, WSSE_NS, "Reference")
        .and_then(|r| r.attribute("URI"))
        .ok_or_else(|| {
            untrusted("a SecurityTokenReference that is no KeyIdentifier or Reference")
        })?;
    // A security context named by its Identifier (WS-SecureConversation 1.3 §8: the token is
    // not in the response).
    if request.context.as_deref() == Some(uri) {
        return Ok(request.key.clone());
    }
    let id = uri.strip_prefix('#').ok_or_else(|| {
        untrusted("a Reference that is neither a same-document #Id nor the context's Identifier")
    })?;
    let Some(target) = ids.get(id).copied() else {
        // The request's own EncryptedKey or context token, by its Id (not an element of the
        // response).
        if id == request.id {
            return Ok(request.key.clone());
        }
        return Err(untrusted(&format!(
            "#{id} names no element of the response"
        )));
    };
    let ns = target.tag_name().namespace().unwrap_or("");
    // The context's token, sent back in the response: the context's key, when it is ours.
    if target.tag_name().name() == "SecurityContextToken" && (ns == WSC_13_NS || ns == WSC_2005_NS)
    {
        let identifier = child(target, ns, "Identifier").map(|i| text(i).trim().to_owned());
        if request.context.is_some() && identifier.as_deref() == request.context.as_deref() {
            return Ok(request.key.clone());
        }
        return Err(untrusted(&format!("#{id} names another security context")));
    }
    if target.tag_name().name() != "DerivedKeyToken" || (ns != WSC_13_NS && ns != WSC_2005_NS) {
        return Err(untrusted(&format!(
            "#{id} names a {} element, not a DerivedKeyToken",
            target.tag_name().name()
        )));
    }
    if depth >= MAX_DEPTH {
        return Err(malformed(target, "DerivedKeyTokens nested too deep"));
    }
    derive(target, ids, request, depth)
}

/// The key of a `wsc:DerivedKeyToken` (WS-SecureConversation 1.3 §7): P_SHA-1 over the key its
/// SecurityTokenReference names, seeded by `Label` (default [`DEFAULT_LABEL`]) and `Nonce`, from
/// `Offset` (or `Generation` × `Length`) for `Length` bytes (default 32).
fn derive(
    dkt: Node<'_, '_>,
    ids: &Ids<'_, '_>,
    request: &RequestKey,
    depth: usize,
) -> Result<Vec<u8>, WssError> {
    let ns = dkt.tag_name().namespace().unwrap_or("");
    let number = |name: &str| -> Result<Option<usize>, WssError> {
        match child(dkt, ns, name) {
            None => Ok(None),
            Some(n) => text(n)
                .trim()
                .parse::<usize>()
                .map(Some)
                .map_err(|_| malformed(n, &format!("{name} is not a non-negative integer"))),
        }
    };
    let base_ref = elements(dkt)
        .find(|c| c.has_tag_name((WSSE_NS, "SecurityTokenReference")))
        .ok_or_else(|| malformed(dkt, "a DerivedKeyToken without SecurityTokenReference"))?;
    let length = number("Length")?.unwrap_or(32);
    let offset = match (number("Offset")?, number("Generation")?) {
        (Some(_), Some(_)) => {
            return Err(malformed(dkt, "both Offset and Generation"));
        }
        (Some(o), None) => o,
        (None, Some(g)) => g
            .checked_mul(length)
            .ok_or_else(|| malformed(dkt, "Generation too large"))?,
        (None, None) => 0,
    };
    if !(16..=64).contains(&length) {
        return Err(malformed(
            dkt,
            &format!("a Length of {length} bytes (16 to 64 are accepted)"),
        ));
    }
    let nonce = child(dkt, ns, "Nonce")
        .ok_or_else(|| malformed(dkt, "a DerivedKeyToken without Nonce"))
        .and_then(|n| base64(n).map_err(|r| malformed(n, &r)))?;
    let label = child(dkt, ns, "Label").map(|l| text(l).into_owned());
    let mut seed = label
        .as_deref()
        .unwrap_or(DEFAULT_LABEL)
        .as_bytes()
        .to_vec();
    seed.extend_from_slice(&nonce);
    let base = resolve(base_ref, ids, request, depth + 1)?;
    p_sha1(&base, &seed, offset, length)
}
