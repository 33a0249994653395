//! The `wsse:Security` block itself (WSS 1.1 §5), written once the envelope's Body is secured:
//! its tokens, the EncryptedKey and the Signature in processing order, and the elements encrypted
//! inside it.

use super::super::encrypt::{EncryptionOrder, X509Encryptor};
use super::super::sign::{
    KeyReference, X509Signer, DS_NS, EXC_C14N, THUMBPRINT_SHA1, X509V3, X509_SKI,
};
use super::super::x509::pki_path_der;
use super::super::{Endorsement, Layout, X509SupportingToken};
use super::super::{
    Timestamp, UtcTime, WssConfig, WssError, BASE64_BINARY, WSSE11_NS, WSSE_NS, WSU_NS,
    X509_PKIPATH,
};
use super::attachments::AttachmentReference;
use crate::message::SoapVersion;
use crate::xml::{Name, XmlWriter};

mod endorsing;
pub(super) mod supporting;

pub(super) use endorsing::{
    data_id as endorsing_data_id, endorse_signature, endorsing_token_not_sent,
    endorsing_tokens_first, TokenWritten, Written,
};
use endorsing::{endorse, signed_endorsing_tokens};

/// The `wsse:Security` element, a self-contained fragment (it declares `wsse`, `wsu` and the
/// envelope prefix itself), in this order: Timestamp, BinarySecurityToken, UsernameToken (after
/// the EncryptedKey when it is encrypted, so that a recipient processing the header in order has
/// its key first), then EncryptedKey and Signature in processing order (WSS 1.1 §5: EncryptedKey
/// first when the plaintext was signed, Signature first when the ciphertext was).
/// `mustUnderstand` is `"1"` in SOAP 1.1 (§4.2.3), `"true"` in SOAP 1.2 (Part 1 §5.2.3).
/// `body_digest` is the Body Reference's DigestValue when signing; `encrypted` the encryptor, the
/// EncryptedKey's and EncryptedData's Ids and the keys when encrypting. The Signature and the
/// UsernameToken are then replaced in place by their EncryptedData when the encryptor says so.
/// Returns the block and the raw SignatureValues: the message signature's, then each endorsing one's.
#[allow(clippy::too_many_arguments)]
pub(super) fn security_header(
    cfg: &WssConfig,
    suffix: &str,
    version: SoapVersion,
    env_prefix: &str,
    header_digests: Vec<(String, String)>,
    body_digest: Option<BodyDigests>,
    encrypted: Option<Encrypted<'_>>,
    context: Option<ContextEndorsement<'_>>,
    mut scratch: Vec<u8>,
) -> Result<(String, Vec<Vec<u8>>), WssError> {
    let now = UtcTime::now();
    let signs_or_encrypts = cfg.signer().is_some() || encrypted.is_some();
    let mut w = XmlWriter::with_capacity(if signs_or_encrypts { 4096 } else { 1024 });
    start_security(&mut w, version, env_prefix)?;
    let ids = BlockIds::new(suffix, cfg.endorsements().len());
    // Byte offsets of the parts a signature may cover, once written.
    let mut at = Offsets::default();
    let timestamp = cfg.timestamp_ttl().map(|ttl| Timestamp::new(now, ttl));
    let timestamp_last = cfg.security_layout() == Layout::LaxTsLast;
    if let Some(ts) = &timestamp {
        if timestamp_last {
            at.timestamp_alone = Some(timestamp_alone(ts, &ids.timestamp)?);
        } else {
            at.timestamp = Some(offset(&mut w)?);
            ts.write(&mut w, &ids.timestamp)?;
        }
    }
    if let Some(signer) = cfg.signer() {
        at.token = write_token(&mut w, signer, &ids.primary.token)?;
    }
    // An encrypted endorsing token comes after the EncryptedKey whose ReferenceList names it.
    let token_encrypted = |e: &Endorsement| e.encrypted && encrypted.is_some();
    for (e, e_ids) in cfg.endorsements().iter().zip(&ids.endorsing) {
        let at_token = match token_encrypted(e) {
            true => None,
            false => write_token(&mut w, &e.signer, &e_ids.token)?,
        };
        at.endorsing_tokens.push(at_token);
    }
    let supporting_now = |t: &X509SupportingToken| !(t.encrypted && encrypted.is_some());
    supporting::write(&mut w, cfg, suffix, supporting_now, &mut at.supporting)?;
    let encrypts = |f: fn(&X509Encryptor) -> bool| encrypted.as_ref().is_some_and(|e| f(e.enc));
    let ut_encrypted = encrypts(|e| e.encrypt_username_token);
    let write_username = |w: &mut XmlWriter, at: &mut Offsets| match cfg.username() {
        Some(ut) => {
            let start = offset(w)?;
            at.username_key = ut.write(w, &ids.username, now)?;
            at.username = Some(start..w.as_str().len());
            Ok::<(), WssError>(())
        }
        None => Ok(()),
    };
    if !ut_encrypted {
        write_username(&mut w, &mut at)?;
    }
    if let Some(c) = &context {
        // WS-SecureConversation 1.3 §3: the token the signature's KeyInfo names, AlwaysToRecipient.
        w.raw(&c.context.token)?;
    }
    let write_encrypted_key = |w: &mut XmlWriter, at: &mut Offsets| -> Result<(), WssError> {
        if let Some(e) = &encrypted {
            e.enc
                .write_encrypted_key(w, &e.key_id, &e.data_ids, &e.wrapped, None)?;
            w.raw(&e.attachment_data)?;
            if ut_encrypted {
                write_username(w, at)?;
            }
            for (i, e) in cfg.endorsements().iter().enumerate() {
                if token_encrypted(e) {
                    let start = write_token(w, &e.signer, &ids.endorsing[i].token)?
                        .ok_or_else(endorsing_token_not_sent)?;
                    at.endorsing_tokens[i] = Some(start);
                    at.encrypted_tokens.push((i, start..w.as_str().len()));
                }
            }
            supporting::write(w, cfg, suffix, |t| t.encrypted, &mut at.supporting)?;
        }
        Ok(())
    };
    let standalone = encrypted.as_ref().filter(|e| e.standalone);
    // (the Signature's EncryptedData Id; the others')
    let lists: Option<(Vec<String>, Vec<String>)> = standalone.map(|e| {
        e.data_ids
            .iter()
            .cloned()
            .partition(|id| *id == ids.encrypted_signature)
    });
    let signature_first =
        standalone.is_none() && encrypts(|e| e.order == EncryptionOrder::EncryptThenSign);
    if let (Some(e), Some((first, _))) = (standalone, &lists) {
        e.enc
            .write_encrypted_key(&mut w, &e.key_id, &[], &e.wrapped, None)?;
        w.raw(&e.attachment_data)?;
        super::super::encrypt::write_reference_list(&mut w, first)?;
    } else if !signature_first {
        write_encrypted_key(&mut w, &mut at)?;
    }
    // The raw SignatureValues: the message signature's, then the endorsing ones'.
    let mut signature_values = match cfg.signer() {
        Some(signer) => sign_message(
            &mut w,
            (cfg, signer, suffix),
            (header_digests, body_digest),
            &mut at,
            &ids,
            &mut scratch,
        )?,
        None => Vec::new(),
    };
    if signature_first {
        write_encrypted_key(&mut w, &mut at)?;
    }
    if let Some((_, rest)) = &lists {
        super::super::encrypt::write_reference_list(&mut w, rest)?;
    }
    signature_values.extend(endorse_timestamp(
        &mut w,
        cfg,
        &at,
        &ids,
        suffix,
        &mut scratch,
    )?);
    if let Some(c) = context {
        signature_values.push(endorse_with_context(
            &mut w,
            c,
            &at,
            &ids,
            suffix,
            &mut scratch,
        )?);
    }
    if let Some(ts) = timestamp.filter(|_| timestamp_last) {
        // WS-SecurityPolicy 1.2 §7.7.4 LaxTsLast: the Timestamp after every other child.
        ts.write(&mut w, &ids.timestamp)?;
    }
    w.end_element()?;
    let mut security = w.into_string()?;
    if let Some(e) = &encrypted {
        let supporting = supporting::encrypted_ranges(cfg, suffix, &at.supporting);
        encrypt_inside(&mut security, e, (at, supporting), &ids, ut_encrypted)?;
    }
    Ok((security, signature_values))
}

/// Writes the message signature by `signer` (over the parts of the block at `at`, the signed
/// endorsing and supporting tokens, the header blocks of `header_digests` and the Body), then
/// each endorsing signature over it: their raw SignatureValues, the message signature's first.
fn sign_message(
    w: &mut XmlWriter,
    (cfg, signer, suffix): (&WssConfig, &X509Signer, &str),
    (header_digests, body_digest): (Vec<(String, String)>, Option<BodyDigests>),
    at: &mut Offsets,
    ids: &BlockIds,
    scratch: &mut Vec<u8>,
) -> Result<Vec<Vec<u8>>, WssError> {
    let body_digest = body_digest
        .ok_or_else(|| WssError::Encode("the Body to sign was not written".to_owned()))?;
    let mut references = Vec::with_capacity(3 + header_digests.len());
    reference_parts(signer, w.as_str(), at, ids, &mut references, scratch)?;
    signed_endorsing_tokens(cfg, signer, w.as_str(), at, ids, &mut references, scratch)?;
    supporting::signed_references(
        cfg,
        suffix,
        w.as_str(),
        &at.supporting,
        |block, at| signer.reference_digest(block, at, scratch),
        &mut references,
    )?;
    references.extend(header_digests);
    references.push((ids.body.clone(), body_digest.primary));
    let (range, raw) = write_signature(
        w,
        signer,
        (&references, &body_digest.attachments),
        &ids.primary,
        scratch,
    )?;
    let primary_at = range.start;
    at.signature = Some(range);
    let mut signature_values = vec![raw];
    for (i, e) in cfg.endorsements().iter().enumerate() {
        let body = body_digest.endorsing.get(i).cloned().flatten();
        let (_, raw) = endorse(w, e, primary_at, body, at, ids, i, scratch)?;
        signature_values.push(raw);
    }
    Ok(signature_values)
}

/// Replaces what `e` encrypts inside the finished Security block by its EncryptedData: the
/// Signature (`sp:EncryptSignature`), the UsernameToken when `ut_encrypted`, the encrypted
/// endorsing tokens, at their ranges of `at`, and the encrypted supporting tokens (ranges and
/// EncryptedData Ids).
fn encrypt_inside(
    security: &mut String,
    e: &Encrypted<'_>,
    (at, supporting): (Offsets, Vec<(std::ops::Range<usize>, String)>),
    ids: &BlockIds,
    ut_encrypted: bool,
) -> Result<(), WssError> {
    let mut inside = Vec::new();
    if let Some(r) = at.signature.filter(|_| e.enc.encrypt_signature) {
        inside.push((r, ids.encrypted_signature.as_str()));
    }
    if let Some(r) = at.username.filter(|_| ut_encrypted) {
        inside.push((r, ids.encrypted_username.as_str()));
    }
    for (i, r) in at.encrypted_tokens {
        inside.push((r, ids.encrypted_endorsing[i].as_str()));
    }
    for (r, id) in &supporting {
        inside.push((r.clone(), id.as_str()));
    }
    // From the end, so that the earlier ranges stay valid.
    inside.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let key_info = super::super::encrypt::StrRef::EncryptedKey(&e.key_id);
    let key_info = e.standalone.then_some(&key_info);
    for (range, data_id) in inside {
        encrypt_in_place(security, range, e, data_id, key_info)?;
    }
    Ok(())
}

/// Opens the `wsse:Security` header block in `w` (WSS 1.1 §5): `wsse` and `wsu` declared, the
/// envelope's prefix `env_prefix` too, `mustUnderstand` as `version` writes it.
pub(super) fn start_security(
    w: &mut XmlWriter,
    version: SoapVersion,
    env_prefix: &str,
) -> Result<(), WssError> {
    w.start_element_prefixed(Name::new(WSSE_NS, "Security"), Some("wsse"))?;
    w.declare_namespace("wsu", WSU_NS)?;
    w.declare_namespace(env_prefix, version.envelope_namespace())?;
    let must_understand = match version {
        SoapVersion::Soap11 => "1",
        SoapVersion::Soap12 => "true",
    };
    w.attribute(
        Name::new(version.envelope_namespace(), "mustUnderstand"),
        must_understand,
    )?;
    Ok(())
}

/// The `ValueType` of the signer's BinarySecurityToken: `#X509v3`, or `#X509PKIPathv1` with
/// [`X509Signer::pki_path`] (X.509 Token Profile 1.1 §3.1).
fn token_type(signer: &X509Signer) -> &'static str {
    if signer.pki_path.is_some() {
        X509_PKIPATH
    } else {
        X509V3
    }
}

/// The `wsu:Id`s (and `Id`s) of one Security block, each with the message's random suffix.
pub(super) struct BlockIds {
    timestamp: String,
    username: String,
    body: String,
    /// Of the message signature and its token.
    primary: SignatureIds,
    /// Of each endorsing signature and its token, in [`WssConfig::endorsements`] order.
    endorsing: Vec<SignatureIds>,
    /// Of the EncryptedData that replaces the Signature (`sp:EncryptSignature`).
    pub(super) encrypted_signature: String,
    /// Of the EncryptedData that replaces the UsernameToken (an encrypted supporting token).
    pub(super) encrypted_username: String,
    /// Of the EncryptedData that replaces each endorsing token when it is encrypted
    /// ([`Endorsement::encrypted`](super::super::Endorsement::encrypted)).
    pub(super) encrypted_endorsing: Vec<String>,
}

/// The Ids of one signature: its `ds:Signature`, `ds:KeyInfo`, SecurityTokenReference, and the
/// BinarySecurityToken of its key.
struct SignatureIds {
    signature: String,
    key_info: String,
    str_id: String,
    token: String,
}

impl BlockIds {
    pub(super) fn new(suffix: &str, endorsements: usize) -> Self {
        let signature = |tag: &str| SignatureIds {
            signature: format!("SIG{tag}-{suffix}"),
            key_info: format!("KI{tag}-{suffix}"),
            str_id: format!("STR{tag}-{suffix}"),
            token: format!("X509{tag}-{suffix}"),
        };
        BlockIds {
            timestamp: format!("TS-{suffix}"),
            username: format!("UT-{suffix}"),
            body: format!("id-{suffix}"),
            primary: signature(""),
            endorsing: (1..=endorsements)
                .map(|i| signature(&format!("E{i}")))
                .collect(),
            encrypted_signature: format!("ESIG-{suffix}"),
            encrypted_username: format!("EUT-{suffix}"),
            encrypted_endorsing: (0..endorsements)
                .map(|i| endorsing::data_id(suffix, i))
                .collect(),
        }
    }
}

/// The Body's DigestValue for the message signature and, for each endorsement that covers the
/// Body, for its signature (each with its signer's DigestMethod).
pub(super) struct BodyDigests {
    pub(super) primary: String,
    pub(super) endorsing: Vec<Option<String>>,
    /// The message signature's References to the SwA attachments (after every other).
    pub(super) attachments: Vec<AttachmentReference>,
}

/// Where the parts of the block were written: start offsets of the Timestamp and the
/// BinarySecurityToken, byte ranges of the UsernameToken and the Signature.
#[derive(Default)]
struct Offsets {
    timestamp: Option<usize>,
    /// With the Timestamp written last: the same Timestamp in a Security block of its own and
    /// its offset there, for its digest before it is written.
    timestamp_alone: Option<(String, usize)>,
    token: Option<usize>,
    /// Of each endorsing signer's BinarySecurityToken, if it sends one.
    endorsing_tokens: Vec<Option<usize>>,
    username: Option<std::ops::Range<usize>>,
    /// The byte ranges of the endorsing tokens to encrypt, by their endorsement's index.
    encrypted_tokens: Vec<(usize, std::ops::Range<usize>)>,
    /// Of each supporting token that does not endorse, once written.
    supporting: Vec<Option<std::ops::Range<usize>>>,
    /// The key a derived-key UsernameToken derives (UsernameToken Profile 1.1 §4).
    username_key: Option<[u8; 20]>,
    signature: Option<std::ops::Range<usize>>,
}

/// Over TLS, the endorsing UsernameToken's signature of the Timestamp (CXF's), if `cfg` has one:
/// its raw SignatureValue.
fn endorse_timestamp(
    w: &mut XmlWriter,
    cfg: &WssConfig,
    at: &Offsets,
    ids: &BlockIds,
    suffix: &str,
    scratch: &mut Vec<u8>,
) -> Result<Option<Vec<u8>>, WssError> {
    if cfg.username_endorsement().is_none() {
        return Ok(None);
    }
    let ts = username_endorses_timestamp(cfg, at)?;
    super::username::endorse(
        w,
        cfg,
        at.username_key,
        (ts, &ids.timestamp),
        (&format!("SIGUT-{suffix}"), &ids.username),
        scratch,
    )
}

/// A WS-SecureConversation context that endorses the request over TLS: the context, the digest
/// of the References, and the (Id, DigestValue) of each header block it signs.
pub(super) struct ContextEndorsement<'a> {
    pub(super) context: &'a super::super::context::SecurityContext,
    pub(super) digest: super::super::DigestAlgorithm,
    pub(super) headers: Vec<(String, String)>,
}

/// The context's endorsing signature (WS-SecurityPolicy 1.2 §8.3 with a
/// `sp:SecureConversationToken`, over TLS): HMAC-SHA1 under the context's key over the Timestamp
/// and the header blocks of `c`, its KeyInfo a Reference to the token (WS-SecureConversation 1.3
/// §8). Its raw SignatureValue.
fn endorse_with_context(
    w: &mut XmlWriter,
    c: ContextEndorsement<'_>,
    at: &Offsets,
    ids: &BlockIds,
    suffix: &str,
    scratch: &mut Vec<u8>,
) -> Result<Vec<u8>, WssError> {
    let ts = at.timestamp.ok_or_else(|| {
        WssError::Encode(
            "a WS-SecureConversation context signs the Timestamp: WssConfig::timestamp, not the \
             LaxTsLast layout"
                .to_owned(),
        )
    })?;
    scratch.clear();
    super::super::exclusive_c14n(w.as_str(), ts, &[], scratch)?;
    let mut references = vec![(
        ids.timestamp.clone(),
        super::super::base64(&c.digest.digest(scratch)),
    )];
    references.extend(c.headers);
    let token = (
        format!("#{}", c.context.token_id),
        super::super::context::sct_type(c.context.version),
    );
    super::username::write_signature(
        w,
        &c.context.key,
        c.digest,
        &references,
        &format!("SIGSC-{suffix}"),
        (&token.0, token.1),
        scratch,
    )
}

/// Where the Timestamp an endorsing UsernameToken signs without a message signature starts.
fn username_endorses_timestamp(cfg: &WssConfig, at: &Offsets) -> Result<usize, WssError> {
    if cfg.signer().is_some() {
        return Err(WssError::Encode(
            "an endorsing UsernameToken with an X.509 message signature (WssConfig::sign) is not \
             supported: endorse with an X.509 key instead (WssConfig::endorse), or sign with the \
             token alone over TLS, or under a SymmetricBinding"
                .to_owned(),
        ));
    }
    at.timestamp.ok_or_else(|| {
        WssError::Encode(
            "an endorsing UsernameToken without a message signature signs the Timestamp: \
             WssConfig::timestamp, not the LaxTsLast layout"
                .to_owned(),
        )
    })
}

/// `ts` with `wsu:Id` `id` in an otherwise empty Security block (the same namespace context as
/// the real one for what exclusive C14N renders), and its offset: what the Timestamp's digest is
/// taken from before it is written last (WS-SecurityPolicy 1.2 §7.7.4).
fn timestamp_alone(ts: &Timestamp, id: &str) -> Result<(String, usize), WssError> {
    let mut w = XmlWriter::with_capacity(512);
    w.start_element_prefixed(Name::new(WSSE_NS, "Security"), Some("wsse"))?;
    w.declare_namespace("wsu", WSU_NS)?;
    let at = offset(&mut w)?;
    ts.write(&mut w, id)?;
    w.end_element()?;
    Ok((w.into_string()?, at))
}

/// The offset of the next element `w` writes (its open start tag closed first).
fn offset(w: &mut XmlWriter) -> Result<usize, WssError> {
    w.raw("")?;
    Ok(w.as_str().len())
}

/// The References to parts of the Security block a signature by `signer` covers, in this order:
/// the Timestamp; the BinarySecurityToken with `sp:ProtectTokens` (WS-SecurityPolicy 1.2 §6.5);
/// the UsernameToken when the signer signs it (a signed supporting token, §8.2).
fn reference_parts(
    signer: &X509Signer,
    block: &str,
    at: &Offsets,
    ids: &BlockIds,
    references: &mut Vec<(String, String)>,
    scratch: &mut Vec<u8>,
) -> Result<(), WssError> {
    if let Some(ts) = at.timestamp {
        references.push((
            ids.timestamp.clone(),
            signer.reference_digest(block, ts, scratch)?,
        ));
    } else if let Some((alone, ts)) = &at.timestamp_alone {
        references.push((
            ids.timestamp.clone(),
            signer.reference_digest(alone, *ts, scratch)?,
        ));
    }
    if signer.protect_token {
        let token = at.token.ok_or_else(|| {
            WssError::Encode(
                "sp:ProtectTokens (X509Signer::protect_token) needs the certificate in the message (KeyReference::DirectReference)"
                    .to_owned(),
            )
        })?;
        references.push((
            ids.primary.token.clone(),
            signer.reference_digest(block, token, scratch)?,
        ));
    }
    if signer.sign_username_token {
        let ut = at.username.as_ref().ok_or_else(|| {
            WssError::Encode(
                "X509Signer::sign_username_token needs a UsernameToken (WssConfig::username_token) written before the Signature"
                    .to_owned(),
            )
        })?;
        references.push((
            ids.username.clone(),
            signer.reference_digest(block, ut.start, scratch)?,
        ));
    }
    Ok(())
}

/// Writes the BinarySecurityToken of `signer`'s certificate with `wsu:Id` `id` (its certificate
/// path with [`X509Signer::pki_path`]) when its key reference is a DirectReference; its offset.
fn write_token(
    w: &mut XmlWriter,
    signer: &X509Signer,
    id: &str,
) -> Result<Option<usize>, WssError> {
    if signer.key_reference != KeyReference::DirectReference {
        return Ok(None);
    }
    let at = offset(w)?;
    w.start_element(Name::new(WSSE_NS, "BinarySecurityToken"))?;
    w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
    w.attribute(Name::unqualified("ValueType"), token_type(signer))?;
    w.attribute(Name::new(WSU_NS, "Id"), id)?;
    let leaf = signer.credential().certificate();
    match &signer.pki_path {
        None => w.text(&super::super::base64(leaf.der()))?,
        Some(issuers) => {
            // X.509 Token Profile 1.1 §3.1: anchor-most first, the signer's last.
            let path: Vec<_> = issuers.iter().rev().chain([leaf]).collect();
            w.text(&super::super::base64(&pki_path_der(&path)))?;
        }
    }
    w.end_element()?;
    Ok(Some(at))
}

/// Writes the `ds:Signature` of `signer` over `references` ((Id, DigestValue) pairs): SignedInfo,
/// its SignatureValue, KeyInfo (XML-DSig §4, WSS 1.1 §8). Returns its byte range in `w` and the
/// raw SignatureValue.
fn write_signature(
    w: &mut XmlWriter,
    signer: &X509Signer,
    (references, attachments): (&[(String, String)], &[AttachmentReference]),
    ids: &SignatureIds,
    scratch: &mut Vec<u8>,
) -> Result<(std::ops::Range<usize>, Vec<u8>), WssError> {
    let start = offset(w)?;
    w.start_element_prefixed(Name::new(DS_NS, "Signature"), Some("ds"))?;
    w.attribute(Name::unqualified("Id"), &ids.signature)?;
    let signed_info_at = offset(w)?;
    write_signed_info(
        w,
        signer.signature.uri(),
        signer.digest,
        references,
        attachments,
    )?;
    scratch.clear();
    super::super::exclusive_c14n(w.as_str(), signed_info_at, &[], scratch)?;
    let raw = signer.sign_raw(scratch)?;
    w.simple_element(
        Name::new(DS_NS, "SignatureValue"),
        super::super::base64(&raw).as_str(),
    )?;
    write_key_info(w, signer, ids)?;
    w.end_element()?; // Signature
    Ok((start..w.as_str().len(), raw))
}

/// What the Body's encryption left for the Security header: the encryptor, the EncryptedKey's
/// Id, the Ids of the EncryptedData its ReferenceList names, the wrapped key, and the content key
/// itself (for the Signature, with `sp:EncryptSignature`).
pub(super) struct Encrypted<'a> {
    pub(super) enc: &'a X509Encryptor,
    pub(super) key_id: String,
    pub(super) data_ids: Vec<String>,
    pub(super) wrapped: Vec<u8>,
    pub(super) key: Vec<u8>,
    /// The `xenc:EncryptedData` of the encrypted SwA attachments, written after the
    /// EncryptedKey (their Ids are among `data_ids`).
    pub(super) attachment_data: String,
    /// The Signature is encrypted while the ciphertext is signed (`sp:EncryptSignature` with
    /// `sp:EncryptBeforeSigning`): the EncryptedKey comes first and lists nothing, a ReferenceList
    /// after it names the Signature's EncryptedData, another after the Signature the rest, and
    /// every EncryptedData names the key in its KeyInfo (WSS 1.1 §9.4).
    pub(super) standalone: bool,
}

/// Replaces the element at `range` of the finished Security block `security` (the
/// `ds:Signature`, WS-SecurityPolicy 1.2 §6.3 `sp:EncryptSignature`; the UsernameToken, an
/// encrypted supporting token, §8.4) by an `xenc:EncryptedData` (`Type` Element, Id `data_id`)
/// under the content key of `e`. The element's start tag gets the `wsse` and `wsu` declarations
/// it or its children may rely on, so that the plaintext stands alone; the exclusive canonical
/// form of a SignedInfo, which uses neither, is unchanged.
fn encrypt_in_place(
    security: &mut String,
    range: std::ops::Range<usize>,
    e: &Encrypted<'_>,
    data_id: &str,
    key_info: Option<&super::super::encrypt::StrRef<'_>>,
) -> Result<(), WssError> {
    let plaintext = standalone_plaintext(security, range.clone())?;
    let data = e
        .enc
        .encrypted_data(&e.key, plaintext.as_bytes(), data_id, true, key_info)?;
    security.replace_range(range, &data);
    Ok(())
}

/// The element at `range` of a finished Security block as a fragment that stands alone once
/// decrypted: `wsse` and `wsu` declared on its start tag, after its qualified name (what it or
/// its children may rely on from the Security element; the exclusive canonical form of a
/// SignedInfo, which uses neither, is unchanged).
///
/// # Errors
///
/// [`WssError::Encode`] for a range that is not an element of `security`.
pub(super) fn standalone_plaintext(
    security: &str,
    range: std::ops::Range<usize>,
) -> Result<String, WssError> {
    let element = security
        .get(range)
        .ok_or_else(|| WssError::Encode("the element to encrypt is out of range".to_owned()))?;
    let name_len = element
        .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
        .filter(|n| *n > 1 && element.starts_with('<'))
        .ok_or_else(|| WssError::Encode("the element to encrypt has no start tag".to_owned()))?;
    let mut plaintext = String::with_capacity(element.len() + 200);
    plaintext.push_str(&element[..name_len]);
    plaintext.push_str(&format!(" xmlns:wsse=\"{WSSE_NS}\" xmlns:wsu=\"{WSU_NS}\""));
    plaintext.push_str(&element[name_len..]);
    Ok(plaintext)
}

/// The `ds:SignedInfo` of a signature over `references` ((wsu:Id, DigestValue) pairs): Exclusive
/// C14N, the SignatureMethod `method`, one Reference per part with an Exclusive C14N Transform
/// and the DigestMethod `digest` (XML-DSig §4.4, WSS 1.1 §8); then one per SwA attachment of
/// `attachments`, its `cid:` URI and SwA transform (WSS SwA Profile 1.1 §5.3).
pub(super) fn write_signed_info(
    w: &mut XmlWriter,
    method: &str,
    digest: super::super::DigestAlgorithm,
    references: &[(String, String)],
    attachments: &[AttachmentReference],
) -> Result<(), WssError> {
    w.start_element(Name::new(DS_NS, "SignedInfo"))?;
    w.start_element(Name::new(DS_NS, "CanonicalizationMethod"))?;
    w.attribute(Name::unqualified("Algorithm"), EXC_C14N)?;
    w.end_element()?;
    w.start_element(Name::new(DS_NS, "SignatureMethod"))?;
    w.attribute(Name::unqualified("Algorithm"), method)?;
    w.end_element()?;
    for (id, value) in references {
        w.start_element(Name::new(DS_NS, "Reference"))?;
        w.attribute(Name::unqualified("URI"), &format!("#{id}"))?;
        w.start_element(Name::new(DS_NS, "Transforms"))?;
        w.start_element(Name::new(DS_NS, "Transform"))?;
        w.attribute(Name::unqualified("Algorithm"), EXC_C14N)?;
        w.end_element()?;
        w.end_element()?;
        w.start_element(Name::new(DS_NS, "DigestMethod"))?;
        w.attribute(Name::unqualified("Algorithm"), digest.uri())?;
        w.end_element()?;
        w.simple_element(Name::new(DS_NS, "DigestValue"), value.as_str())?;
        w.end_element()?;
    }
    for a in attachments {
        w.start_element(Name::new(DS_NS, "Reference"))?;
        w.attribute(Name::unqualified("URI"), &a.uri)?;
        w.start_element(Name::new(DS_NS, "Transforms"))?;
        w.start_element(Name::new(DS_NS, "Transform"))?;
        w.attribute(Name::unqualified("Algorithm"), a.transform)?;
        w.end_element()?;
        w.end_element()?;
        w.start_element(Name::new(DS_NS, "DigestMethod"))?;
        w.attribute(Name::unqualified("Algorithm"), digest.uri())?;
        w.end_element()?;
        w.simple_element(Name::new(DS_NS, "DigestValue"), a.digest.as_str())?;
        w.end_element()?;
    }
    w.end_element()?; // SignedInfo
    Ok(())
}

/// The signature's `ds:KeyInfo`: a SecurityTokenReference to the signer's certificate as its
/// key reference says (WSS 1.1 §7: a DirectReference to the BinarySecurityToken `ids.token`, of its ValueType, a
/// KeyIdentifier, or `ds:X509IssuerSerial`, X.509 Token Profile 1.1 §3.2).
fn write_key_info(
    w: &mut XmlWriter,
    signer: &X509Signer,
    ids: &SignatureIds,
) -> Result<(), WssError> {
    w.start_element(Name::new(DS_NS, "KeyInfo"))?;
    w.attribute(Name::unqualified("Id"), &ids.key_info)?;
    w.start_element(Name::new(WSSE_NS, "SecurityTokenReference"))?;
    w.attribute(Name::new(WSU_NS, "Id"), &ids.str_id)?;
    if signer.pki_path.is_some() && signer.key_reference == KeyReference::DirectReference {
        // WS-I BSP 1.1 R5215: a reference to a PKIPath token names its TokenType.
        w.declare_namespace("wsse11", WSSE11_NS)?;
        w.attribute(Name::new(WSSE11_NS, "TokenType"), X509_PKIPATH)?;
    }
    let cert = signer.credential().certificate();
    let key_identifier = |w: &mut XmlWriter, value_type: &str, bytes: &[u8]| {
        w.start_element(Name::new(WSSE_NS, "KeyIdentifier"))?;
        w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
        w.attribute(Name::unqualified("ValueType"), value_type)?;
        w.text(&super::super::base64(bytes))?;
        w.end_element()
    };
    match signer.key_reference {
        KeyReference::DirectReference => {
            w.start_element(Name::new(WSSE_NS, "Reference"))?;
            w.attribute(Name::unqualified("URI"), &format!("#{}", ids.token))?;
            w.attribute(Name::unqualified("ValueType"), token_type(signer))?;
            w.end_element()?;
        }
        KeyReference::SubjectKeyIdentifier => {
            let ski = cert.subject_key_identifier().ok_or_else(|| {
                WssError::Encode("the certificate has no SubjectKeyIdentifier".to_owned())
            })?;
            key_identifier(w, X509_SKI, ski)?;
        }
        KeyReference::ThumbprintSha1 => {
            key_identifier(w, THUMBPRINT_SHA1, &cert.sha1_thumbprint())?;
        }
        KeyReference::X509IssuerSerial => {
            w.start_element(Name::new(DS_NS, "X509Data"))?;
            w.start_element(Name::new(DS_NS, "X509IssuerSerial"))?;
            let issuer = cert.issuer_rfc4514();
            w.simple_element(Name::new(DS_NS, "X509IssuerName"), issuer.as_str())?;
            let serial = cert.serial_decimal();
            w.simple_element(Name::new(DS_NS, "X509SerialNumber"), serial.as_str())?;
            w.end_element()?;
            w.end_element()?;
        }
    }
    w.end_element()?;
    w.end_element()?; // KeyInfo
    Ok(())
}
