//! Inbound WS-Security processing of a response: the `wsse:Security` header addressed to this
//! client is processed element by element in document order (WSS 1.1 §5: each element was
//! prepended, so document order undoes them): Timestamps read, BinarySecurityTokens collected,
//! signatures verified (XML-DSig §3.2 core validation, restricted to what WSS needs), EncryptedKeys
//! unwrapped and the EncryptedData they list decrypted in place (XML-Enc §4.2), standalone
//! ReferenceLists decrypted with the keys their EncryptedData name (WSS 1.1 §9.4), each where it
//! stands: a signature before a ReferenceList covers the ciphertext. Then the policy
//! is checked against what was found, by position in the envelope: the signed Body is the
//! envelope's one Body, the signed Timestamp the one in this Security header (signature wrapping
//! defence), with every Id in the document unique.

use std::borrow::Cow;

use crate::xml::read::tree::Node;

use super::symmetric::RequestKey;
use super::{
    Certificate, Timestamp, UtcTime, WssConfig, WssError, DS_NS, PASSWORD_DIGEST, PASSWORD_TEXT,
    WSSE11_NS, WSSE_NS, WSU_NS,
};
use crate::xml::Limits;

pub(crate) use super::xmlenc::XENC_NS;

mod algorithms;
mod derived;
mod document;
mod keyinfo;
mod layout;
mod signature;
mod tokens;

pub(crate) use derived::symmetric_key;
pub use document::MessagePart;
pub(crate) use document::{base64, child, elements, malformed, path, text};
use document::{ids, parse, position, shape};
pub(crate) use document::{Ids, Shape};
pub use layout::Layout;

use signature::verify_signature;
pub use signature::STR_TRANSFORM;
pub(crate) use tokens::tokens;
use tokens::*;
pub use tokens::{X509_PKCS7, X509_PKIPATH};

/// What the inbound check found in a response's `wsse:Security` header, all of it already checked
/// against the policy.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct InboundReport {
    /// Whether the response had a `wsse:Security` header for this recipient.
    pub security_header: bool,
    /// Its `wsu:Timestamp`, if any (already checked for freshness).
    pub timestamp: Option<Timestamp>,
    /// The certificate of the trusted signature that covers the Body, if the Body is signed.
    pub signer: Option<Certificate>,
    /// The parts covered by verified, trusted signatures.
    pub signed: Vec<MessagePart>,
    /// The parts that were decrypted.
    pub decrypted: Vec<MessagePart>,
    /// The user of a UsernameToken the response carried and the policy checked.
    pub username: Option<String>,
    /// Signatures not verified because the policy neither requires a signature nor has a trust
    /// store to verify against (they are counted, not dropped silently).
    pub unverified_signatures: usize,
    /// How many of the request's signatures the response confirmed with a signed
    /// `wsse11:SignatureConfirmation` (WSS 1.1 §8.5); 0 unless
    /// [`WssConfig::signature_confirmation`] is on.
    pub confirmed_signatures: usize,
}

/// The outcome of processing: the report, and the decrypted envelope when something was decrypted.
#[derive(Debug)]
pub(crate) struct Processed {
    pub(crate) report: InboundReport,
    pub(crate) decrypted: Option<String>,
}

/// Per-response state kept across the re-parses that decryption causes.
#[derive(Default)]
struct State {
    /// Index of the next Security child to process.
    cursor: usize,
    timestamp: Option<Timestamp>,
    /// (part, signer) of every verified signature reference.
    signed: Vec<(MessagePart, Certificate)>,
    decrypted: Vec<MessagePart>,
    /// Where each plaintext decrypted stands in the current document.
    decrypted_ranges: Vec<std::ops::Range<usize>>,
    /// The Ids of the targets of every verified signature reference.
    signed_ids: Vec<String>,
    /// A `Body` element somewhere else was referenced by a signature (a wrapping attempt).
    wrapped_body: bool,
    signature_values: Vec<Vec<u8>>,
    username: Option<String>,
    nonce: Option<Vec<u8>>,
    /// The `Created` of the UsernameToken checked, if it had one.
    username_created: Option<UtcTime>,
    unverified: usize,
    passes: usize,
    /// The `wsse11:SignatureConfirmation`s of the header.
    confirmations: Vec<Confirmation>,
    /// The wsu:Ids of the SignatureConfirmations a verified signature covered.
    signed_confirmations: Vec<String>,
    /// Keys of EncryptedKeys without a ReferenceList, for the standalone ReferenceLists after
    /// them (WSS 1.1 §9.4).
    keys: super::decrypt::KeyRing,
    /// The first verified signature whose token, in the message, it does not cover.
    unprotected_token: Option<String>,
    /// The request key of a SymmetricBinding: the only key symmetric signatures and encryption
    /// of the response may use.
    request_key: Option<RequestKey>,
    /// The first verified signature whose KeyInfo names its key otherwise than the policy
    /// allows: how, and where.
    wrong_reference: Option<(super::KeyReference, String)>,
}

/// Runs the whole inbound processing of `envelope` (UTF-8) at `now`.
///
/// `sent`: the request's raw SignatureValues, when known (WSS 1.1 §8.5); `key`: the request key
/// of a SymmetricBinding.
pub(crate) fn process(
    cfg: &WssConfig,
    envelope: &str,
    sent: Option<&[Vec<u8>]>,
    key: Option<&RequestKey>,
    now: UtcTime,
    limits: Limits,
) -> Result<Processed, WssError> {
    let mut doc: Cow<'_, str> = Cow::Borrowed(envelope);
    let mut st = State {
        request_key: key.cloned(),
        ..State::default()
    };
    let mut report = InboundReport::default();
    loop {
        st.passes += 1;
        // After a decryption, a document that no longer parses failed because of the plaintext:
        // that is the one DecryptionFailed (XML-Enc 1.1 §6.1), not a parse error to learn from.
        let d = match parse(&doc, limits) {
            Ok(d) => d,
            Err(_) if !st.decrypted.is_empty() => return Err(WssError::DecryptionFailed),
            Err(e) => return Err(e),
        };
        let shape = shape(&d)?;
        let ids = ids(&d)?;
        report.security_header = shape.security.is_some();
        let mut replaced = None;
        if let Some(sec) = shape.security {
            if st.passes == 1 {
                layout::check(cfg.required_layout(), sec, &ids)?;
            }
            let (tokens, sent_chain) = cached_tokens(sec, cfg.certificate_cache())?;
            let children: Vec<Node<'_, '_>> = sec.children().filter(Node::is_element).collect();
            while let Some(child) = children.get(st.cursor).copied() {
                st.cursor += 1;
                let ns = child.tag_name().namespace().unwrap_or("");
                match (ns, child.tag_name().name()) {
                    (WSU_NS, "Timestamp") => {
                        if st.timestamp.is_some() {
                            return Err(WssError::DuplicateTimestamp);
                        }
                        st.timestamp = Some(read_timestamp(child)?);
                    }
                    (DS_NS, "Signature") => {
                        if !cfg.requires_signature() && cfg.trust_store().is_empty() {
                            st.unverified += 1;
                            continue;
                        }
                        let v = verify_signature(
                            cfg,
                            &doc,
                            &shape,
                            &ids,
                            (&tokens, &sent_chain),
                            child,
                            st.request_key.as_ref(),
                            now,
                        )?;
                        record_signature(cfg, &mut st, v, child);
                    }
                    (WSSE_NS, "UsernameToken") => read_username(cfg, child, &mut st, now)?,
                    (WSSE11_NS, "SignatureConfirmation") => {
                        st.confirmations.push(read_confirmation(child)?);
                    }
                    (XENC_NS, "EncryptedKey") => {
                        let later = super::decrypt::listed_by(&children[st.cursor..], &ids);
                        let edits = super::decrypt::encrypted_key(
                            cfg,
                            &shape,
                            &ids,
                            &tokens,
                            child,
                            &later,
                            &mut st.keys,
                        )?;
                        if !edits.is_empty() {
                            replaced = Some(edits);
                            break;
                        }
                    }
                    (XENC_NS, "ReferenceList") => {
                        let edits = super::decrypt::reference_list(
                            cfg,
                            &shape,
                            &ids,
                            &tokens,
                            child,
                            (&st.keys, st.request_key.as_ref()),
                        )?;
                        if !edits.is_empty() {
                            replaced = Some(edits);
                            break;
                        }
                    }
                    // BinarySecurityTokens were collected above; other elements
                    // (SecurityTokenReference, …) carry nothing to check.
                    _ => {}
                }
            }
        }
        if replaced.is_none() {
            let edits = super::decrypt::inline_encrypted_data(cfg, &shape)?;
            if !edits.is_empty() {
                replaced = Some(edits);
            }
        }
        if let Some(edits) = replaced {
            if st.passes > cfg.signature_reference_limit() {
                return Err(WssError::TooManyReferences {
                    count: st.passes,
                    limit: cfg.signature_reference_limit(),
                });
            }
            let applied = super::decrypt::apply(&doc, edits)?;
            // The plaintext decrypted before, where it is now; then this pass's.
            for r in &mut st.decrypted_ranges {
                // (A replacement inside one makes it longer by its change in length.)
                *r = applied.moved(r.start)..applied.moved(r.end);
            }
            st.decrypted_ranges
                .extend(applied.replaced.iter().map(|(_, new)| new.clone()));
            st.decrypted.extend(applied.parts);
            doc = Cow::Owned(applied.text);
            continue;
        }
        // Nothing left encrypted that was meant for us to read.
        if let Some(left) = d
            .descendants()
            .find(|n| n.has_tag_name((XENC_NS, "EncryptedData")))
        {
            if left.ancestors().any(|a| a == shape.body) {
                return Err(malformed(
                    left,
                    "EncryptedData that no EncryptedKey for this recipient decrypts",
                ));
            }
        }
        check_policy(cfg, &shape, &mut st, &mut report, sent, now)?;
        break;
    }
    Ok(Processed {
        report,
        decrypted: match doc {
            Cow::Owned(s) => Some(s),
            Cow::Borrowed(_) => None,
        },
    })
}

/// What the verified signature `sig` covered, into the state.
fn record_signature(cfg: &WssConfig, st: &mut State, v: signature::Verified, sig: Node<'_, '_>) {
    // (Its position only when it will be reported: finding the line and column costs a scan of
    // the document.)
    if v.token_covered == Some(false)
        && cfg.requires_protected_token()
        && st.unprotected_token.is_none()
    {
        st.unprotected_token = Some(position(sig));
    }
    let allowed = cfg.allowed_signer_references();
    if let Some(found) = v.reference {
        if !allowed.is_empty() && !allowed.contains(&found) && st.wrong_reference.is_none() {
            st.wrong_reference = Some((found, position(sig)));
        }
    }
    st.wrapped_body |= v.wrapped_body;
    st.signed_confirmations.extend(v.confirmations);
    st.signature_values.push(v.value);
    for p in v.parts {
        st.signed.push((p, v.signer.clone()));
    }
    st.signed_ids.extend(v.ids);
}

/// A `wsse11:SignatureConfirmation` of the header: (wsu:Id, decoded Value, path).
type Confirmation = (Option<String>, Option<Vec<u8>>, String);

/// A `wsse11:SignatureConfirmation` (WSS 1.1 §8.5): its `wsu:Id`, its decoded `Value` (none
/// for an unsigned request's), and where it is.
fn read_confirmation(n: Node<'_, '_>) -> Result<Confirmation, WssError> {
    let value = match n.attribute("Value") {
        None => None,
        Some(v) => {
            let compact: Vec<u8> = v.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
            Some(crate::base64::decode(&compact).map_err(|e| {
                WssError::SignatureConfirmationMismatch(format!(
                    "the Value of {} is not base64: {e}",
                    position(n)
                ))
            })?)
        }
    };
    let id = n.attribute((WSU_NS, "Id")).map(str::to_owned);
    Ok((id, value, position(n)))
}

/// Whether the response's Header has a block `{ns}name`.
/// The header blocks of the response named by (`ns`, `name`), each as a part; an empty `name`
/// names every block of `ns` (WS-SecurityPolicy 1.2 §5.1.1 `sp:Header` without `Name`).
fn header_parts(shape: &Shape<'_, '_>, ns: &str, name: &str) -> Vec<MessagePart> {
    shape
        .header
        .iter()
        .flat_map(|h| h.children())
        .filter(|c| super::header::names_block(c, ns, name))
        .map(|c| MessagePart::Header {
            namespace: ns.to_owned(),
            name: c.tag_name().name().to_owned(),
        })
        .collect()
}

fn has_header(shape: &Shape<'_, '_>, ns: &str, name: &str) -> bool {
    shape.header.is_some_and(|h| {
        h.children()
            .any(|c| super::header::names_block(&c, ns, name))
    })
}

/// The parts the policy requires encrypted, and the header blocks and elements it requires
/// present (WS-SecurityPolicy 1.2 §4.2, §4.3).
fn check_encrypted_and_required(
    cfg: &WssConfig,
    shape: &Shape<'_, '_>,
    st: &State,
) -> Result<(), WssError> {
    if cfg.requires_encryption() && !st.decrypted.contains(&MessagePart::Body) {
        return Err(WssError::NotEncrypted("Body".to_owned()));
    }
    for (ns, name) in cfg.encrypted_headers() {
        let part = MessagePart::Header {
            namespace: ns.clone(),
            name: name.clone(),
        };
        if !st.decrypted.contains(&part) {
            return Err(WssError::NotEncrypted(part.to_string()));
        }
    }
    for (ns, name) in cfg.encrypted_headers_if_present() {
        for part in header_parts(shape, ns, name) {
            if !st.decrypted.contains(&part) {
                return Err(WssError::NotEncrypted(part.to_string()));
            }
        }
    }
    for (ns, name) in cfg.required_headers() {
        if !has_header(shape, ns, name) {
            return Err(WssError::MissingRequired {
                assertion: "sp:RequiredParts",
                part: if name.is_empty() {
                    format!("a header block of {ns}")
                } else {
                    format!("header block {{{ns}}}{name}")
                },
            });
        }
    }
    for path in cfg.encrypted_elements_if_present() {
        for n in path.select(shape.body.document().root()) {
            let r = n.range();
            if !st
                .decrypted_ranges
                .iter()
                .any(|d| d.start <= r.start && r.end <= d.end)
            {
                return Err(WssError::NotEncrypted(format!(
                    "element {} ({})",
                    path.expression,
                    super::verify::path(n)
                )));
            }
        }
    }
    for path in cfg.required_elements() {
        if !path.matches_in(shape.body.document().root()) {
            return Err(WssError::MissingRequired {
                assertion: "sp:RequiredElements",
                part: format!("element {}", path.expression),
            });
        }
    }
    Ok(())
}

/// Every element of the response a `sp:SignedElements` path names is signed: the target of a
/// verified reference, or inside one (WS-SecurityPolicy 1.2 §4.1.2).
fn check_signed_elements(
    cfg: &WssConfig,
    shape: &Shape<'_, '_>,
    st: &State,
) -> Result<(), WssError> {
    for path in cfg.signed_elements_if_present() {
        for n in path.select(shape.body.document().root()) {
            // Signed itself, or inside what a reference signed.
            let signed = n.ancestors().any(|a| {
                [a.attribute((WSU_NS, "Id")), a.attribute("Id")]
                    .into_iter()
                    .flatten()
                    .any(|id| st.signed_ids.iter().any(|s| s == id))
            });
            if !signed {
                return Err(WssError::NotSigned {
                    part: format!("element {}", path.expression),
                    detail: format!(" ({})", super::verify::path(n)),
                });
            }
        }
    }
    Ok(())
}

fn check_policy(
    cfg: &WssConfig,
    shape: &Shape<'_, '_>,
    st: &mut State,
    report: &mut InboundReport,
    sent: Option<&[Vec<u8>]>,
    now: UtcTime,
) -> Result<(), WssError> {
    // Timestamp presence and freshness (WSS 1.1 §10).
    match st.timestamp {
        Some(ts) => ts.check(now, cfg.timestamp_age_limit(), cfg.skew())?,
        None if cfg.requires_timestamp() => {
            return Err(if shape.security.is_some() {
                WssError::MissingTimestamp
            } else {
                WssError::MissingSecurityHeader {
                    required: "a Timestamp",
                }
            })
        }
        None => {}
    }
    check_signed_elements(cfg, shape, st)?;
    let signed = |part: &MessagePart| st.signed.iter().find(|(p, _)| p == part);
    if cfg.requires_signature() {
        if shape.security.is_none() {
            return Err(WssError::MissingSecurityHeader {
                required: "a signature",
            });
        }
        let Some((_, signer)) = signed(&MessagePart::Body) else {
            return Err(WssError::NotSigned {
                part: "Body".to_owned(),
                detail: if st.wrapped_body {
                    " (a signature covers a Body element that is not the envelope's Body: signature wrapping)".to_owned()
                } else if st.signed.is_empty() {
                    " (no verified signature)".to_owned()
                } else {
                    String::new()
                },
            });
        };
        report.signer = Some(signer.clone());
        if st.timestamp.is_some() && signed(&MessagePart::Timestamp).is_none() {
            return Err(WssError::NotSigned {
                part: "Timestamp".to_owned(),
                detail: String::new(),
            });
        }
        for (ns, name) in cfg.signed_headers() {
            let part = MessagePart::Header {
                namespace: ns.clone(),
                name: name.clone(),
            };
            if signed(&part).is_none() {
                return Err(WssError::NotSigned {
                    part: part.to_string(),
                    detail: String::new(),
                });
            }
        }
        for (ns, name) in cfg.signed_headers_if_present() {
            for part in header_parts(shape, ns, name) {
                if signed(&part).is_none() {
                    return Err(WssError::NotSigned {
                        part: part.to_string(),
                        detail: " (the response has it)".to_owned(),
                    });
                }
            }
        }
    }
    if let Some((found, at)) = st.wrong_reference.take() {
        return Err(WssError::KeyReference {
            found: found.name(),
            allowed: cfg
                .allowed_signer_references()
                .iter()
                .map(|r| r.name())
                .collect(),
            at,
        });
    }
    if cfg.requires_protected_token() {
        if let Some(at) = &st.unprotected_token {
            return Err(WssError::NotSigned {
                part: "signing token (sp:ProtectTokens)".to_owned(),
                detail: format!(
                    " (the signature at {at} does not cover the BinarySecurityToken its KeyInfo references)"
                ),
            });
        }
    }
    if cfg.requires_signature_confirmation() {
        report.confirmed_signatures = check_confirmations(cfg, st, sent)?;
    }
    if cfg.requires_signature()
        && cfg.requires_encrypted_signature()
        && !st
            .decrypted
            .contains(&MessagePart::SecurityToken("Signature".to_owned()))
    {
        return Err(WssError::NotEncrypted(
            "Signature (sp:EncryptSignature)".to_owned(),
        ));
    }
    check_encrypted_and_required(cfg, shape, st)?;
    if cfg.expected_username().is_some() && st.username.is_none() {
        return Err(WssError::UsernameToken(
            "the response has no UsernameToken, but the policy expects one".to_owned(),
        ));
    }
    // Replay: a signature value or nonce seen before, remembered until the message could no
    // longer be accepted (its Timestamp and UsernameToken Created too old or expired); without
    // either, for as long as the cache has room.
    let mut until = UtcTime::from_unix_millis(i64::MAX);
    if let Some(t) = st.timestamp {
        until = until.min(t.accepted_until(cfg.timestamp_age_limit(), cfg.skew()));
    }
    if let Some(created) = st.username_created {
        until = until.min(created.plus(cfg.timestamp_age_limit()));
    }
    for v in &st.signature_values {
        if !cfg.replay_cache().check_and_insert(v, now, until) {
            return Err(WssError::Replay("signature value"));
        }
    }
    if let Some(n) = &st.nonce {
        let mut key = b"nonce:".to_vec();
        key.extend_from_slice(n);
        if !cfg.replay_cache().check_and_insert(&key, now, until) {
            return Err(WssError::Replay("UsernameToken Nonce"));
        }
    }
    report.timestamp = st.timestamp;
    report.signed = st.signed.iter().map(|(p, _)| p.clone()).collect();
    report.decrypted = std::mem::take(&mut st.decrypted);
    report.username = st.username.clone();
    report.unverified_signatures = st.unverified;
    Ok(())
}

/// WSS 1.1 §8.5: the response's SignatureConfirmations against the request's SignatureValues
/// `sent` (`None`: not known). Returns how many request signatures were confirmed.
fn check_confirmations(
    cfg: &WssConfig,
    st: &State,
    sent: Option<&[Vec<u8>]>,
) -> Result<usize, WssError> {
    let sent = match sent {
        Some(s) => s,
        None if cfg.signer().is_some() => {
            return Err(WssError::SignatureConfirmationMismatch(
                "the request's SignatureValues are needed to check the confirmations (WssConfig::check_response_to)"
                    .to_owned(),
            ))
        }
        None => &[],
    };
    let must_be_signed = !sent.is_empty() || cfg.requires_signature();
    let mut confirmed = vec![false; sent.len()];
    for (id, value, at) in &st.confirmations {
        if must_be_signed
            && !id
                .as_ref()
                .is_some_and(|i| st.signed_confirmations.contains(i))
        {
            return Err(WssError::UnsignedSignatureConfirmation(format!(" at {at}")));
        }
        match value {
            None if sent.is_empty() => {}
            None => {
                let why =
                    "has no Value (the form for an unsigned request), but the request was signed";
                return Err(WssError::SignatureConfirmationMismatch(format!(
                    "{at} {why}"
                )));
            }
            Some(_) if sent.is_empty() => {
                return Err(WssError::SignatureConfirmationMismatch(format!(
                    "{at} confirms a signature, but the request was not signed"
                )))
            }
            Some(v) => {
                let hit = sent.iter().enumerate().find(|(i, s)| {
                    !confirmed[*i]
                        && aws_lc_rs::constant_time::verify_slices_are_equal(s, v).is_ok()
                });
                match hit {
                    Some((i, _)) => confirmed[i] = true,
                    None => {
                        return Err(WssError::SignatureConfirmationMismatch(format!(
                            "the Value of {at} is not a SignatureValue of the request (or confirms one twice)"
                        )))
                    }
                }
            }
        }
    }
    let done = confirmed.iter().filter(|c| **c).count();
    if done < sent.len() {
        return Err(WssError::MissingSignatureConfirmation {
            unconfirmed: sent.len() - done,
            sent: sent.len(),
        });
    }
    Ok(done)
}

fn read_timestamp(n: Node<'_, '_>) -> Result<Timestamp, WssError> {
    let bad = |s: &str| WssError::MalformedTimestamp(s.to_owned());
    let mut created = None;
    let mut expires = None;
    for c in elements(n) {
        if c.has_tag_name((WSU_NS, "Created")) {
            if created.is_some() || expires.is_some() {
                return Err(bad("Created must come once, first"));
            }
            created = Some(text(c).trim().parse::<UtcTime>()?);
        } else if c.has_tag_name((WSU_NS, "Expires")) {
            if expires.is_some() {
                return Err(bad("more than one Expires"));
            }
            expires = Some(text(c).trim().parse::<UtcTime>()?);
        } else if c.tag_name().namespace() == Some(WSU_NS) {
            return Err(bad(&format!("unknown element wsu:{}", c.tag_name().name())));
        }
        // Extensibility elements of other namespaces (the schema's xsd:any ##other) are allowed.
    }
    let Some(created) = created else {
        return Err(bad("no Created"));
    };
    if let Some(e) = expires {
        if e < created {
            return Err(bad("Expires is before Created"));
        }
    }
    Ok(Timestamp { created, expires })
}

/// A response UsernameToken, checked against the expected user and password when the policy has
/// one (UsernameToken Profile 1.1 §3.1: digest = Base64(SHA-1(nonce + created + password)),
/// `Created` fresh).
fn read_username(
    cfg: &WssConfig,
    n: Node<'_, '_>,
    st: &mut State,
    now: UtcTime,
) -> Result<(), WssError> {
    let Some((user, password)) = cfg.expected_username() else {
        return Ok(()); // not asked for: nothing to check it against
    };
    let refuse = |s: String| WssError::UsernameToken(s);
    if st.username.is_some() {
        return Err(refuse("more than one UsernameToken".to_owned()));
    }
    let name = child(n, WSSE_NS, "Username")
        .map(|u| text(u).trim().to_owned())
        .ok_or_else(|| refuse("no Username".to_owned()))?;
    if name != user {
        return Err(refuse(format!("unexpected user {name:?}")));
    }
    let pw = child(n, WSSE_NS, "Password").ok_or_else(|| refuse("no Password".to_owned()))?;
    let kind = pw.attribute("Type").unwrap_or(PASSWORD_TEXT);
    let nonce = match child(n, WSSE_NS, "Nonce") {
        Some(nn) => Some(base64(nn).map_err(|r| refuse(format!("Nonce {r}")))?),
        None => None,
    };
    let created_text = child(n, WSU_NS, "Created").map(|c| text(c).trim().to_owned());
    let given = text(pw);
    let ok = match kind {
        PASSWORD_DIGEST => {
            let (Some(nonce), Some(created)) = (&nonce, &created_text) else {
                return Err(refuse(
                    "a PasswordDigest needs a Nonce and Created".to_owned(),
                ));
            };
            let want = super::UsernameToken::password_digest(nonce, created, password);
            aws_lc_rs::constant_time::verify_slices_are_equal(
                want.as_bytes(),
                given.trim().as_bytes(),
            )
            .is_ok()
        }
        PASSWORD_TEXT => {
            aws_lc_rs::constant_time::verify_slices_are_equal(password.as_bytes(), given.as_bytes())
                .is_ok()
        }
        other => return Err(refuse(format!("unknown password Type {other}"))),
    };
    if !ok {
        return Err(refuse("wrong password".to_owned()));
    }
    // WSS4J's utFutureTTL and utTTL: the clock skew and the maximum age.
    if let Some(c) = &created_text {
        let created: UtcTime = c.parse()?;
        if created > now.plus(cfg.skew()) {
            return Err(refuse(format!(
                "Created {created} is in the future (now {now}, clock skew {} s)",
                cfg.skew().as_secs()
            )));
        }
        if created < now.minus(cfg.timestamp_age_limit()) {
            return Err(refuse(format!(
                "Created {created} is older than the maximum age of {} s (now {now})",
                cfg.timestamp_age_limit().as_secs()
            )));
        }
        st.username_created = Some(created);
    }
    st.username = Some(name);
    st.nonce = nonce;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A State holding `confirmations` (Id, Value), those with an Id in `signed` signed.
    fn state(confirmations: &[(&str, Option<&[u8]>)], signed: &[&str]) -> State {
        State {
            confirmations: confirmations
                .iter()
                .map(|(id, v)| {
                    (
                        Some((*id).to_owned()),
                        v.map(<[u8]>::to_vec),
                        format!("#{id}"),
                    )
                })
                .collect(),
            signed_confirmations: signed.iter().map(|s| (*s).to_owned()).collect(),
            ..State::default()
        }
    }

    #[test]
    fn every_request_signature_is_confirmed_once() {
        let cfg = WssConfig::new().require_signature(true);
        let (a, b) = (vec![1u8; 256], vec![2u8; 256]);
        let sent = [a.clone(), b.clone()];
        let both = state(&[("c1", Some(&b[..])), ("c2", Some(&a[..]))], &["c1", "c2"]);
        assert_eq!(check_confirmations(&cfg, &both, Some(&sent[..])), Ok(2));
        // The same value twice leaves the other unconfirmed: refused as a wrong confirmation.
        let twice = state(&[("c1", Some(&a[..])), ("c2", Some(&a[..]))], &["c1", "c2"]);
        assert!(matches!(
            check_confirmations(&cfg, &twice, Some(&sent[..])),
            Err(WssError::SignatureConfirmationMismatch(m)) if m.contains("twice")
        ));
        let one = state(&[("c1", Some(&a[..]))], &["c1"]);
        assert_eq!(
            check_confirmations(&cfg, &one, Some(&sent[..])),
            Err(WssError::MissingSignatureConfirmation {
                unconfirmed: 1,
                sent: 2
            })
        );
        let unsigned = state(&[("c1", Some(&a[..])), ("c2", Some(&b[..]))], &["c1"]);
        assert!(matches!(
            check_confirmations(&cfg, &unsigned, Some(&sent[..])),
            Err(WssError::UnsignedSignatureConfirmation(m)) if m.contains("#c2")
        ));
        // An unsigned request: the Value-less form only, none required.
        let none = state(&[("c1", None)], &["c1"]);
        assert_eq!(check_confirmations(&cfg, &none, Some(&[][..])), Ok(0));
        assert_eq!(
            check_confirmations(&cfg, &state(&[], &[]), Some(&[][..])),
            Ok(0)
        );
        assert!(matches!(
            check_confirmations(&cfg, &one, Some(&[][..])),
            Err(WssError::SignatureConfirmationMismatch(m)) if m.contains("not signed")
        ));
        assert!(matches!(
            check_confirmations(&cfg, &none, Some(&sent[..])),
            Err(WssError::SignatureConfirmationMismatch(m)) if m.contains("no Value")
        ));
    }
}
