//! The Security block of a request under a SymmetricBinding with an X.509 ProtectionToken
//! (WS-SecurityPolicy 1.2 §7.4): the request key wrapped for the service, the HMAC-SHA1 signature
//! and the Body's encryption under it (or under keys derived from it), laid out Strict (§7.7.1).

use super::super::encrypt::{write_reference_list, EncryptionOrder, StrRef, X509Encryptor};
use super::super::sign::{KeyReference, DS_NS, X509V3};
use super::super::symmetric::{
    hmac_sha1, p_sha1, RequestKey, SecureConversation, SymmetricBinding, DEFAULT_LABEL, HMAC_SHA1,
};
use super::super::{
    random_bytes, Timestamp, UtcTime, WssConfig, WssError, BASE64_BINARY, WSSE_NS, WSU_NS,
};
use super::attachments::AttachmentReference;
use super::block::write_signed_info;
use super::{Outgoing, Sent};
use crate::message::SoapVersion;
use crate::mime::OutgoingAttachment;
use crate::xml::{Name, XmlWriter};

/// The Ids of one symmetric Security block.
struct Ids {
    /// The message's random suffix, which every Id ends with.
    suffix: String,
    timestamp: String,
    token: String,
    key: String,
    signing_key: String,
    encryption_key: String,
    data: String,
    signature: String,
    /// Of the EncryptedData that replaces the Signature (`sp:EncryptSignature`).
    signature_data: String,
    /// Of the EncryptedData that replaces each endorsing signature then.
    endorsing_data: Vec<String>,
    /// Of the EncryptedData that replaces the UsernameToken (`sp:EncryptedSupportingTokens`).
    username_data: String,
    /// Of the EncryptedData that replaces each encrypted endorsing token.
    endorsing_token_data: Vec<String>,
    /// Of the EncryptedData that replaces each encrypted supporting token that does not endorse.
    supporting_data: Vec<String>,
    body: String,
    username: String,
}

impl Ids {
    /// The Ids of one message, each ending with its random `s`, with the endorsing signatures
    /// and supporting tokens of `cfg`.
    fn new(s: &str, cfg: &WssConfig) -> Self {
        let endorsements = cfg.endorsements().len();
        Ids {
            suffix: s.to_owned(),
            timestamp: format!("TS-{s}"),
            token: format!("X509-{s}"),
            key: format!("EK-{s}"),
            signing_key: format!("DKS-{s}"),
            encryption_key: format!("DKE-{s}"),
            data: format!("ED-{s}"),
            signature: format!("SIG-{s}"),
            signature_data: format!("ESIG-{s}"),
            endorsing_data: (1..=endorsements)
                .map(|i| format!("ESIGE{i}-{s}"))
                .collect(),
            body: format!("id-{s}"),
            username: format!("UT-{s}"),
            username_data: format!("EUT-{s}"),
            endorsing_token_data: (0..endorsements)
                .map(|i| super::block::endorsing_data_id(s, i))
                .collect(),
            supporting_data: super::block::supporting::data_ids(cfg, s),
        }
    }
}

/// The keys a request is signed and encrypted with: the request key itself, or two keys derived
/// from it and the DerivedKeyTokens that say how.
struct Keys {
    signing: Vec<u8>,
    encryption: Vec<u8>,
    /// (version, signing nonce, encryption nonce) with derived keys.
    derived: Option<(SecureConversation, [u8; 16], [u8; 16])>,
    /// The security context whose key they are (or are derived from), instead of a fresh key
    /// wrapped in an EncryptedKey.
    context: Option<std::sync::Arc<super::super::context::SecurityContext>>,
}

impl Keys {
    /// The SecurityTokenReference to the key everything is protected with (or derived from):
    /// the EncryptedKey, or the security context's token.
    fn base_ref<'a>(&'a self, ids: &'a Ids) -> StrRef<'a> {
        match &self.context {
            Some(c) => StrRef::Context(&c.token_id, super::super::context::sct_type(c.version)),
            None => StrRef::EncryptedKey(&ids.key),
        }
    }
}

impl Outgoing {
    /// Secures the finished `envelope` under the SymmetricBinding `b` (see
    /// [`SymmetricBinding`]): a fresh key wrapped for the service, the Body's content encrypted
    /// and the Timestamp and Body signed under it in `b`'s order, the Security block inserted.
    /// Returns the SignatureValue and the request key, which the response must be protected with.
    pub(super) fn finish_symmetric(
        &self,
        b: &SymmetricBinding,
        version: SoapVersion,
        env_prefix: &str,
        envelope: &mut String,
        attachments: &mut [OutgoingAttachment],
    ) -> Result<Sent, WssError> {
        let cfg = &self.cfg;
        refuse_unsupported(b, cfg)?;
        let s = &self.suffix;
        let ids = Ids::new(s, cfg);
        let enc = X509Encryptor {
            recipient: b.recipient.clone(),
            block: b.block,
            key_transport: b.key_transport,
            key_reference: b.key_reference,
            order: b.order,
            headers: Vec::new(),
            optional_headers: b.encrypted_headers.clone(),
            encrypted_elements: Vec::new(),
            encrypt_body: true,
            encrypt_signature: false,
            encrypt_username_token: false,
            attachments: b.encrypted_attachments,
        };
        let (key, wrapped) = self.protection_key(b, &enc)?;
        let mut keys = derive(b, &key)?;
        keys.context = self.context.clone().filter(|_| b.context.is_some());
        let mut scratch = Vec::new();
        let digest_at = |envelope: &str, at: usize, scratch: &mut Vec<u8>| {
            scratch.clear();
            super::super::exclusive_c14n(envelope, at, &[], scratch)?;
            Ok::<_, WssError>(super::super::base64(&b.digest.digest(scratch)))
        };
        let signed = (
            &b.headers[..],
            &b.optional_headers[..],
            &b.signed_elements[..],
        );
        let (refs, body_at, body_content) = self.identify_signed(signed, envelope)?;
        let body_at = body_at
            .ok_or_else(|| WssError::Encode("the Body to sign was not written".to_owned()))?;
        let mut header_digests = Vec::with_capacity(refs.len());
        for (id, at) in refs {
            header_digests.push((id, digest_at(envelope, at, &mut scratch)?));
        }
        let digest = |envelope: &str, scratch: &mut Vec<u8>| digest_at(envelope, body_at, scratch);
        // The Body as the endorsing signatures that cover it see it: as the message signature does.
        let endorsing_digests = |envelope: &str, scratch: &mut Vec<u8>| {
            cfg.endorsements()
                .iter()
                .map(|e| {
                    if !e.body {
                        return Ok(None);
                    }
                    scratch.clear();
                    super::super::exclusive_c14n(envelope, body_at, &[], scratch)?;
                    Ok(Some(super::super::base64(&e.signer.digest.digest(scratch))))
                })
                .collect::<Result<Vec<_>, WssError>>()
        };
        let attachment_digests = |attachments: &[OutgoingAttachment]| match b.signed_attachments {
            Some(c) => super::attachments::references(attachments, c, b.digest),
            None => Ok(Vec::new()),
        };
        let sign_first = b.order == EncryptionOrder::SignThenEncrypt;
        let mut body_digest = None;
        let mut endorsing_body = Vec::new();
        let mut attachment_refs = Vec::new();
        if sign_first || !b.encrypt_body {
            body_digest = Some(digest(envelope, &mut scratch)?);
            endorsing_body = endorsing_digests(envelope, &mut scratch)?;
            attachment_refs = attachment_digests(attachments)?;
        }
        let key_info = key_info(&keys, &ids);
        // SwA attachments encrypted under the encryption key (WSS SwA Profile 1.1 §5.5).
        let (attachment_data, attachment_ids) = match b.encrypted_attachments {
            Some(c) => super::attachments::encrypt(
                attachments,
                c,
                b.block,
                &keys.encryption,
                Some(&key_info),
                |i| format!("EDA{i}-{s}"),
            )?,
            None => Default::default(),
        };
        if b.encrypt_body {
            let (start, end, plaintext) = super::body_to_encrypt(body_content, envelope)?;
            let data = encrypted_under(&enc, &keys, &ids, plaintext, &ids.data, false)?;
            super::replace_range(envelope, start..end, &data);
            if !sign_first {
                body_digest = Some(digest(envelope, &mut scratch)?);
                endorsing_body = endorsing_digests(envelope, &mut scratch)?;
                attachment_refs = attachment_digests(attachments)?;
            }
        }
        let body_digest = body_digest.unwrap_or_default();
        // The header blocks and elements to encrypt: the Body's digest is taken already.
        let mut encrypted_parts = attachment_ids;
        if !b.encrypted_headers.is_empty() {
            encrypted_parts =
                self.encrypt_headers(&enc, &keys.encryption, Some(&key_info), envelope)?;
        }
        if !b.encrypted_elements.is_empty() {
            encrypted_parts.extend(self.encrypt_elements(
                &enc,
                (&keys.encryption, &key_info),
                &b.encrypted_elements,
                b.encrypt_body,
                envelope,
            )?);
        }
        let (security, signature_values) = security_block(
            cfg,
            b,
            &enc,
            &ids,
            (&keys, &wrapped),
            version,
            env_prefix,
            Digests {
                headers: header_digests,
                body: body_digest,
                endorsing_body,
                attachments: attachment_refs,
            },
            (&encrypted_parts, &attachment_data),
            scratch,
        )?;
        envelope.insert_str(self.header_at, &security);
        Ok(Sent {
            signature_values,
            request_key: Some(request_key(&keys, key, &wrapped, &ids)),
        })
    }

    /// The key that protects the request, and how it travels: a fresh key of `b`'s size
    /// wrapped for the service by `enc`, or the security context's (nothing wrapped).
    fn protection_key(
        &self,
        b: &SymmetricBinding,
        enc: &X509Encryptor,
    ) -> Result<(Vec<u8>, Vec<u8>), WssError> {
        match &self.context {
            Some(c) if b.context.is_some() => Ok((c.key.clone(), Vec::new())),
            _ if b.context.is_some() => Err(WssError::Encode(
                "no WS-SecureConversation security context is established: a call establishes \
                 one before its request is written"
                    .to_owned(),
            )),
            _ => {
                let key = b.block.generate_key()?;
                let wrapped = enc.wrap(&key)?;
                Ok((key, wrapped))
            }
        }
    }
}

/// What the response's check needs of the request's `key`: the context's Identifier and token
/// Id, or the SHA-1 of the EncryptedKey's `wrapped` octets (`#EncryptedKeySHA1`) and its Id.
fn request_key(keys: &Keys, key: Vec<u8>, wrapped: &[u8], ids: &Ids) -> RequestKey {
    match &keys.context {
        Some(c) => RequestKey {
            key,
            sha1: None,
            id: c.token_id.clone(),
            context: Some(c.identifier.clone()),
        },
        None => {
            let sha1 =
                aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY, wrapped);
            let mut fingerprint = [0u8; 20];
            fingerprint.copy_from_slice(sha1.as_ref());
            RequestKey {
                key,
                sha1: Some(fingerprint),
                id: ids.key.clone(),
                context: None,
            }
        }
    }
}

/// The signing and encryption keys of a request protected by `key`: `key` itself, or two keys
/// derived from it by P_SHA-1 with fresh nonces (WS-SecureConversation 1.3 §7).
fn derive(b: &SymmetricBinding, key: &[u8]) -> Result<Keys, WssError> {
    let Some(version) = b.derived else {
        return Ok(Keys {
            signing: key.to_vec(),
            encryption: key.to_vec(),
            derived: None,
            context: None,
        });
    };
    let (sn, en) = (random_bytes::<16>()?, random_bytes::<16>()?);
    let seed = |nonce: &[u8]| [DEFAULT_LABEL.as_bytes(), nonce].concat();
    Ok(Keys {
        signing: p_sha1(key, &seed(&sn), 0, b.signature_key_len())?,
        encryption: p_sha1(key, &seed(&en), 0, b.block.key_len())?,
        derived: Some((version, sn, en)),
        context: None,
    })
}

/// The DigestValues the HMAC signature and the endorsing ones take from outside the Security
/// block: the header blocks' and elements' ((wsu:Id, DigestValue) pairs), the Body's (the message
/// signature's, each endorsing signature's if it covers it), and the SwA attachments' References.
struct Digests {
    headers: Vec<(String, String)>,
    body: String,
    endorsing_body: Vec<Option<String>>,
    attachments: Vec<AttachmentReference>,
}

/// The `wsse:Security` block of a symmetric request: Timestamp, the service's
/// BinarySecurityToken (DirectReference), EncryptedKey, DerivedKeyTokens, then the Signature (of
/// the Timestamp, the protected tokens, the signed header blocks and the Body: `digests` holds the
/// header blocks' Ids and digests and the Body's digest) followed by the endorsing signatures
/// over it, and the standalone ReferenceList in processing order. Returns it and the raw
/// SignatureValues (the message signature's, then each endorsing one's).
#[allow(clippy::too_many_arguments)]
fn security_block(
    cfg: &WssConfig,
    b: &SymmetricBinding,
    enc: &X509Encryptor,
    ids: &Ids,
    (keys, wrapped): (&Keys, &[u8]),
    version: SoapVersion,
    env_prefix: &str,
    digests: Digests,
    (encrypted_parts, attachment_data): (&[String], &str),
    mut scratch: Vec<u8>,
) -> Result<(String, Vec<Vec<u8>>), WssError> {
    let now = UtcTime::now();
    let mut w = XmlWriter::with_capacity(4096);
    super::block::start_security(&mut w, version, env_prefix)?;
    let mut references = Vec::with_capacity(4);
    let digest = |w: &mut XmlWriter, at: usize, scratch: &mut Vec<u8>| {
        scratch.clear();
        super::super::exclusive_c14n(w.as_str(), at, &[], scratch)?;
        Ok::<_, WssError>(super::super::base64(&b.digest.digest(scratch)))
    };
    if let Some(ttl) = cfg.timestamp_ttl() {
        let at = offset(&mut w)?;
        Timestamp::new(now, ttl).write(&mut w, &ids.timestamp)?;
        references.push((ids.timestamp.clone(), digest(&mut w, at, &mut scratch)?));
    }
    let direct = b.key_reference == KeyReference::DirectReference;
    if direct {
        let at = offset(&mut w)?;
        w.start_element(Name::new(WSSE_NS, "BinarySecurityToken"))?;
        w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
        w.attribute(Name::unqualified("ValueType"), X509V3)?;
        w.attribute(Name::new(WSU_NS, "Id"), &ids.token)?;
        w.text(&super::super::base64(b.recipient.der()))?;
        w.end_element()?;
        if b.protect_tokens {
            references.push((ids.token.clone(), digest(&mut w, at, &mut scratch)?));
        }
    }
    // An encrypted UsernameToken comes after the ReferenceList that names it: before the
    // Signature when that list precedes it (signing first, as CXF lays it out), else last.
    let encrypted_username = cfg.username().filter(|_| b.encrypt_username_token);
    let mut username_key = None;
    if let Some(ut) = cfg.username().filter(|_| encrypted_username.is_none()) {
        let at = offset(&mut w)?;
        username_key = ut.write(&mut w, &ids.username, now)?;
        if b.sign_username_token {
            references.push((ids.username.clone(), digest(&mut w, at, &mut scratch)?));
        }
    }
    let sign_first = b.order == EncryptionOrder::SignThenEncrypt;
    let mut data_ids = decrypted_with_the_key(b, cfg, ids, sign_first)?;
    data_ids.extend(encrypted_parts.iter().cloned());
    // The EncryptedKey lists them itself only when they are decrypted with its key directly
    // and before the signature is checked.
    let listed_inside =
        !data_ids.is_empty() && sign_first && keys.derived.is_none() && keys.context.is_none();
    let inside = if listed_inside {
        data_ids.clone()
    } else {
        Vec::new()
    };
    let at = offset(&mut w)?;
    match &keys.context {
        // WS-SecureConversation 1.3 §3: the context's token, AlwaysToRecipient.
        Some(c) => {
            w.raw(&c.token)?;
            if b.protect_tokens {
                references.push((c.token_id.clone(), digest(&mut w, at, &mut scratch)?));
            }
        }
        None => {
            let token = direct.then_some(ids.token.as_str());
            enc.write_encrypted_key(&mut w, &ids.key, &inside, wrapped, token)?;
            if b.protect_tokens {
                references.push((ids.key.clone(), digest(&mut w, at, &mut scratch)?));
            }
        }
    }
    write_derived_keys(&mut w, keys, ids)?;
    // The encrypted attachments' EncryptedData (their Ids are among `data_ids`).
    w.raw(attachment_data)?;
    let standalone = !data_ids.is_empty() && !listed_inside;
    if standalone && sign_first {
        write_reference_list(&mut w, &data_ids)?;
    }
    let mut encrypted = Vec::new();
    if let Some(ut) = encrypted_username.filter(|_| sign_first) {
        let at = offset(&mut w)?;
        username_key = ut.write(&mut w, &ids.username, now)?;
        if b.sign_username_token {
            references.push((ids.username.clone(), digest(&mut w, at, &mut scratch)?));
        }
        encrypted.push((at..offset(&mut w)?, ids.username_data.as_str()));
    }
    let written = endorsing_tokens(
        &mut w,
        cfg,
        b,
        ids,
        (&mut references, &mut encrypted),
        &mut scratch,
    )?;
    references.extend(digests.headers);
    if b.sign_body || references.is_empty() {
        references.push((ids.body.clone(), digests.body));
    }
    let signature_at = offset(&mut w)?;
    let value = write_hmac_signature(
        &mut w,
        b,
        (keys, ids),
        (&references, &digests.attachments),
        &mut scratch,
    )?;
    let signature_end = offset(&mut w)?;
    // Endorsing signatures over it (WS-SecurityPolicy 1.2 §8.3), each after its token.
    let endorsing = super::block::endorse_signature(
        &mut w,
        cfg,
        &ids.suffix,
        signature_at,
        &digests.endorsing_body,
        &written,
        &mut scratch,
    )?;
    // The UsernameToken's key signs the message signature, as CXF's endorsing tokens do.
    let username_signature = super::username::endorse(
        &mut w,
        cfg,
        username_key,
        (signature_at, &ids.signature),
        (&format!("SIGUT-{}", ids.suffix), &ids.username),
        &mut scratch,
    )?;
    if standalone && !sign_first {
        write_reference_list(&mut w, &data_ids)?;
    }
    if let Some(ut) = encrypted_username.filter(|_| !sign_first) {
        let at = offset(&mut w)?;
        ut.write(&mut w, &ids.username, now)?;
        encrypted.push((at..offset(&mut w)?, ids.username_data.as_str()));
    }
    w.end_element()?; // Security
    let signatures = std::iter::once((signature_at..signature_end, value)).chain(endorsing);
    let (security, mut values) = seal(w.into_string()?, b, enc, ids, keys, signatures, encrypted)?;
    values.extend(username_signature);
    Ok((security, values))
}

/// Writes the message's `ds:Signature` (Id `SIG-…`) over `references` and the SwA attachments'
/// References: HMAC-SHA1 under the signing key (XML-DSig §6.3.1), its KeyInfo naming that key
/// (the EncryptedKey, or its signing DerivedKeyToken). Returns the raw SignatureValue.
fn write_hmac_signature(
    w: &mut XmlWriter,
    b: &SymmetricBinding,
    (keys, ids): (&Keys, &Ids),
    (references, attachments): (&[(String, String)], &[AttachmentReference]),
    scratch: &mut Vec<u8>,
) -> Result<Vec<u8>, WssError> {
    w.start_element_prefixed(Name::new(DS_NS, "Signature"), Some("ds"))?;
    w.attribute(Name::unqualified("Id"), &ids.signature)?;
    let signed_info_at = offset(w)?;
    write_signed_info(w, HMAC_SHA1, b.digest, references, attachments)?;
    scratch.clear();
    super::super::exclusive_c14n(w.as_str(), signed_info_at, &[], scratch)?;
    let value = hmac_sha1(&keys.signing, scratch);
    w.simple_element(
        Name::new(DS_NS, "SignatureValue"),
        super::super::base64(&value).as_str(),
    )?;
    w.start_element(Name::new(DS_NS, "KeyInfo"))?;
    match keys.derived {
        Some((v, ..)) => StrRef::DerivedKey(&ids.signing_key, v.dk_value_type()).write(w)?,
        None => keys.base_ref(ids).write(w)?,
    }
    w.end_element()?; // KeyInfo
    w.end_element()?; // Signature
    Ok(value)
}

/// Writes the supporting tokens that do not endorse (§8.1–§8.2, §8.5–§8.6) and the endorsing
/// tokens the Signature covers or the request key encrypts, which come before it
/// (WS-SecurityPolicy 1.2 §8.4, §8.7–§8.8), after the ReferenceList that names them: the signed
/// ones' References join `references`, the encrypted ones' ranges `encrypted`.
/// Returns what [`super::block::endorsing_tokens_first`] wrote.
#[allow(clippy::type_complexity)] // (References, ranges to encrypt)
fn endorsing_tokens<'a>(
    w: &mut XmlWriter,
    cfg: &WssConfig,
    b: &SymmetricBinding,
    ids: &'a Ids,
    (references, encrypted): (
        &mut Vec<(String, String)>,
        &mut Vec<(std::ops::Range<usize>, &'a str)>,
    ),
    scratch: &mut Vec<u8>,
) -> Result<Vec<Option<super::block::TokenWritten>>, WssError> {
    // A token's DigestValue, by the binding's DigestMethod.
    let mut digest = |block: &str, at: usize| {
        scratch.clear();
        super::super::exclusive_c14n(block, at, &[], scratch)?;
        Ok::<_, WssError>(super::super::base64(&b.digest.digest(scratch)))
    };
    let mut supporting = Vec::new();
    super::block::supporting::write(w, cfg, &ids.suffix, |_| true, &mut supporting)?;
    super::block::supporting::signed_references(
        cfg,
        &ids.suffix,
        w.as_str(),
        &supporting,
        &mut digest,
        references,
    )?;
    // `supporting_data` names the encrypted ones, in order.
    let to_encrypt = cfg.supporting_tokens().iter().zip(&supporting);
    let to_encrypt = to_encrypt.filter(|(t, _)| t.encrypted);
    for ((_, range), id) in to_encrypt.zip(&ids.supporting_data) {
        if let Some(range) = range {
            encrypted.push((range.clone(), id.as_str()));
        }
    }
    let written = super::block::endorsing_tokens_first(w, cfg, &ids.suffix)?;
    for ((e, token), data_id) in cfg
        .endorsements()
        .iter()
        .zip(&written)
        .zip(&ids.endorsing_token_data)
    {
        let Some((id, range)) = token else { continue };
        if e.signed {
            references.push((id.clone(), digest(w.as_str(), range.start)?));
        }
        if e.encrypted {
            encrypted.push((range.clone(), data_id.as_str()));
        }
    }
    Ok(written)
}

/// The finished Security block `security` with the elements at the ranges of `encrypted` and,
/// with `sp:EncryptSignature`, every signature of `signatures` (the message signature, then the
/// endorsing ones) replaced by their EncryptedData; and the signatures' raw SignatureValues.
fn seal<'a>(
    mut security: String,
    b: &SymmetricBinding,
    enc: &X509Encryptor,
    ids: &'a Ids,
    keys: &Keys,
    signatures: impl Iterator<Item = super::block::Written>,
    mut encrypted: Vec<(std::ops::Range<usize>, &'a str)>,
) -> Result<(String, Vec<Vec<u8>>), WssError> {
    let data_ids = std::iter::once(&ids.signature_data).chain(&ids.endorsing_data);
    let mut values = Vec::new();
    for ((range, raw), data_id) in signatures.zip(data_ids) {
        values.push(raw);
        if b.encrypt_signature {
            // Every signature, as CXF does with sp:EncryptSignature.
            encrypted.push((range, data_id.as_str()));
        }
    }
    // From the last, so that the earlier ranges stay valid.
    encrypted.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    for (range, data_id) in encrypted {
        encrypt_element(&mut security, range, enc, ids, keys, data_id)?;
    }
    Ok((security, values))
}

/// What a symmetric request cannot be asked: a signer or encryptor of its own, the Timestamp
/// last; and when encrypting first, a UsernameToken both signed and encrypted, an encrypted
/// endorsing or supporting token, encrypted elements, a header block both signed and encrypted.
fn refuse_unsupported(b: &SymmetricBinding, cfg: &WssConfig) -> Result<(), WssError> {
    if cfg.signer().is_some() || cfg.encryptor().is_some() {
        return Err(WssError::Encode(
            "a SymmetricBinding (WssConfig::symmetric) signs and encrypts by itself: WssConfig::sign and WssConfig::encrypt must not be set with it"
                .to_owned(),
        ));
    }
    if cfg.security_layout() == super::super::Layout::LaxTsLast {
        return Err(WssError::Encode(
            "a SymmetricBinding writes its requests Strict: Layout::LaxTsLast is not supported with it"
                .to_owned(),
        ));
    }
    if b.encrypt_username_token
        && b.sign_username_token
        && cfg.username().is_some()
        && b.order == EncryptionOrder::EncryptThenSign
    {
        return Err(WssError::Encode(
            "a UsernameToken both signed and encrypted with a SymmetricBinding needs \
             EncryptionOrder::SignThenEncrypt"
                .to_owned(),
        ));
    }
    let signed = |h: &(String, String)| {
        b.headers
            .iter()
            .chain(&b.optional_headers)
            .any(|s| s.0 == h.0 && (s.1 == h.1 || s.1.is_empty() || h.1.is_empty()))
    };
    let encrypted_token = cfg.endorsements().iter().any(|e| e.encrypted)
        || cfg.supporting_tokens().iter().any(|t| t.encrypted);
    if b.order == EncryptionOrder::EncryptThenSign && encrypted_token {
        return Err(WssError::Encode(
            "an encrypted endorsing or supporting token (Endorsement::encrypted, \
             X509SupportingToken::encrypted) needs EncryptionOrder::SignThenEncrypt"
                .to_owned(),
        ));
    }
    if b.order == EncryptionOrder::EncryptThenSign && !b.encrypted_elements.is_empty() {
        return Err(WssError::Encode(
            "encrypted elements (SymmetricBinding::encrypt_element_if_present) need \
             EncryptionOrder::SignThenEncrypt"
                .to_owned(),
        ));
    }
    if b.order == EncryptionOrder::EncryptThenSign && b.encrypted_headers.iter().any(signed) {
        return Err(WssError::Encode(
            "a header block both signed and encrypted needs EncryptionOrder::SignThenEncrypt"
                .to_owned(),
        ));
    }
    Ok(())
}

/// The KeyInfo of what the request key encrypts: the EncryptedKey, or the DerivedKeyToken
/// derived from it for encryption.
fn key_info<'a>(keys: &'a Keys, ids: &'a Ids) -> StrRef<'a> {
    match keys.derived {
        Some((v, ..)) => StrRef::DerivedKey(&ids.encryption_key, v.dk_value_type()),
        None => keys.base_ref(ids),
    }
}

/// The Ids of the EncryptedData the service decrypts with the request's key: the Body's
/// content, the Signature and the endorsing signatures (`sp:EncryptSignature`, which needs
/// signing first), the UsernameToken and the endorsing and supporting tokens `cfg` encrypts.
fn decrypted_with_the_key(
    b: &SymmetricBinding,
    cfg: &WssConfig,
    ids: &Ids,
    sign_first: bool,
) -> Result<Vec<String>, WssError> {
    if b.encrypt_signature && !sign_first {
        return Err(WssError::Encode(
            "an encrypted signature (SymmetricBinding::encrypt_signature) needs \
             EncryptionOrder::SignThenEncrypt"
                .to_owned(),
        ));
    }
    let mut data_ids = Vec::new();
    if b.encrypt_body {
        data_ids.push(ids.data.clone());
    }
    if b.encrypt_signature {
        data_ids.push(ids.signature_data.clone());
        data_ids.extend(ids.endorsing_data.iter().cloned());
    }
    if cfg.username().is_some() && b.encrypt_username_token {
        data_ids.push(ids.username_data.clone());
    }
    for (e, id) in cfg.endorsements().iter().zip(&ids.endorsing_token_data) {
        if e.encrypted {
            data_ids.push(id.clone());
        }
    }
    data_ids.extend(ids.supporting_data.iter().cloned());
    Ok(data_ids)
}

/// Replaces the element at `range` of the finished Security block (a `ds:Signature`,
/// `sp:EncryptSignature`; the UsernameToken) by the EncryptedData `data_id` the ReferenceList
/// names, under the request's encryption key.
fn encrypt_element(
    security: &mut String,
    range: std::ops::Range<usize>,
    enc: &X509Encryptor,
    ids: &Ids,
    keys: &Keys,
    data_id: &str,
) -> Result<(), WssError> {
    let plaintext = super::block::standalone_plaintext(security, range.clone())?;
    let data = encrypted_under(enc, keys, ids, &plaintext, data_id, true)?;
    security.replace_range(range, &data);
    Ok(())
}

/// `plaintext` as an `xenc:EncryptedData` (`Type` Element when `element`, else Content) with
/// Id `data_id`, under the request's encryption key, its KeyInfo naming that key (the
/// EncryptedKey, or the DerivedKeyToken derived from it).
fn encrypted_under(
    enc: &X509Encryptor,
    keys: &Keys,
    ids: &Ids,
    plaintext: &str,
    data_id: &str,
    element: bool,
) -> Result<String, WssError> {
    let key_info = key_info(keys, ids);
    enc.encrypted_data(
        &keys.encryption,
        plaintext.as_bytes(),
        data_id,
        element,
        Some(&key_info),
    )
}

/// The two DerivedKeyTokens of `keys`, if they are derived: the signing key's, the encryption
/// key's.
fn write_derived_keys(w: &mut XmlWriter, keys: &Keys, ids: &Ids) -> Result<(), WssError> {
    if let Some((v, sn, en)) = &keys.derived {
        let base = keys.base_ref(ids);
        write_derived_key(w, *v, &ids.signing_key, &base, sn, keys.signing.len())?;
        let len = keys.encryption.len();
        write_derived_key(w, *v, &ids.encryption_key, &base, en, len)?;
    }
    Ok(())
}

/// A `wsc:DerivedKeyToken` (WS-SecureConversation 1.3 §7) of `version` with `wsu:Id` `id`: the
/// SecurityTokenReference `base` (to the EncryptedKey or the context's token), Offset 0, `length`
/// and `nonce` (the default label).
fn write_derived_key(
    w: &mut XmlWriter,
    version: SecureConversation,
    id: &str,
    base: &StrRef<'_>,
    nonce: &[u8],
    length: usize,
) -> Result<(), WssError> {
    let ns = version.namespace();
    w.start_element_prefixed(Name::new(ns, "DerivedKeyToken"), Some("wsc"))?;
    w.attribute(Name::new(WSU_NS, "Id"), id)?;
    base.write(w)?;
    w.simple_element(Name::new(ns, "Offset"), "0")?;
    w.simple_element(Name::new(ns, "Length"), length.to_string().as_str())?;
    w.simple_element(Name::new(ns, "Nonce"), super::super::base64(nonce).as_str())?;
    w.end_element()?;
    Ok(())
}

/// The offset of the next element `w` writes (its open start tag closed first).
fn offset(w: &mut XmlWriter) -> Result<usize, WssError> {
    w.raw("")?;
    Ok(w.as_str().len())
}
