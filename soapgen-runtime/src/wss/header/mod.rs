//! The outgoing `wsse:Security` header block (WSS 1.1 §5), assembled from a [`WssConfig`] once
//! the rest of the envelope is written.

use super::encrypt::{EncryptionOrder, StrRef, X509Encryptor};
use super::{random_bytes, WssConfig, WssError, WSSE11_NS, WSU_NS};
use crate::message::SoapVersion;
use crate::mime::OutgoingAttachment;
use crate::xml::read::tree::{Document, Node};

mod attachments;
mod block;
mod symmetric;
mod username;
use block::{BodyDigests, Encrypted};

/// What a request's Security block leaves for the check of its response: the raw bytes of each
/// `ds:SignatureValue` (which `wsse11:SignatureConfirmation`s echo, WSS 1.1 §8.5) and, under a
/// SymmetricBinding, the request key the response must be protected with.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    pub(crate) signature_values: Vec<Vec<u8>>,
    pub(crate) request_key: Option<super::symmetric::RequestKey>,
}

/// WS-Security state of one envelope being written: the configuration, where the Security block
/// goes, and the Body's `wsu:Id` when the Body is signed.
#[derive(Debug)]
pub(crate) struct Outgoing {
    cfg: WssConfig,
    /// Byte offset just inside `Header`, where the Security block is inserted.
    header_at: usize,
    /// Per-message random suffix of every `wsu:Id`, so they cannot collide with the body's Ids.
    suffix: String,
    /// Byte offset of the Body start tag, once written.
    body_at: Option<usize>,
    /// Byte range of the Body's content, once written, when it is to be encrypted.
    body_content: Option<(usize, usize)>,
    /// The WS-SecureConversation context the request is endorsed with
    /// ([`WssConfig::secure_conversation`]).
    context: Option<std::sync::Arc<super::context::SecurityContext>>,
}

impl Outgoing {
    /// The state of one envelope secured by `cfg`; the Security block goes at byte 0 until
    /// [`set_header_at`](Self::set_header_at) says where.
    ///
    /// # Errors
    ///
    /// [`WssError::Random`]; [`WssError::Encode`] when the configuration has a
    /// WS-SecureConversation token and no context is established (a call establishes it before
    /// its request is written; [`Client::message`](crate::Client::message) does not).
    pub(crate) fn new(cfg: WssConfig) -> Result<Outgoing, WssError> {
        let context = match cfg.context_token() {
            Some(sc) => Some(sc.current().ok_or_else(|| {
                WssError::Encode(
                    "no WS-SecureConversation security context is established: a call \
                     establishes one before its request is written"
                        .to_owned(),
                )
            })?),
            None => None,
        };
        Ok(Outgoing {
            context,
            cfg,
            header_at: 0,
            suffix: super::hex(&random_bytes::<8>()?),
            body_at: None,
            body_content: None,
        })
    }

    /// Forgets the request's WS-SecureConversation context when `fault` shows the service no
    /// longer knows it or cannot use it, so that the next call establishes a new one: a fault
    /// code of WS-SecureConversation 1.3 §9 (`wsc:BadContextToken`, `UnsupportedContextToken`,
    /// `UnknownDerivationSource`) or WSS 1.1 §12 (`wsse:FailedCheck`, `InvalidSecurityToken`,
    /// `SecurityTokenUnavailable`, …: CXF's, once it has forgotten a context), or, under a
    /// SymmetricBinding the context protects, a fault not protected under it (`unverified`: a
    /// service that knows the context protects its faults with it; CXF's `Missing argument`
    /// is not).
    pub(crate) fn context_refused(&self, fault: &crate::fault::Fault, unverified: bool) {
        let (Some(context), Some(sc)) = (&self.context, self.cfg.context_token()) else {
            return;
        };
        let by_code = std::iter::once(&fault.code)
            .chain(&fault.subcodes)
            .any(|c| {
                matches!(
                    c.local_name.as_str(),
                    "BadContextToken"
                        | "UnsupportedContextToken"
                        | "UnknownDerivationSource"
                        | "FailedCheck"
                        | "InvalidSecurityToken"
                        | "SecurityTokenUnavailable"
                        | "InvalidSecurity"
                        | "UnsupportedSecurityToken"
                        | "FailedAuthentication"
                )
            });
        let protected_by_it = self
            .cfg
            .symmetric_binding()
            .is_some_and(|b| b.context.is_some());
        if by_code || (unverified && protected_by_it) {
            tracing::debug!(
                identifier = %context.identifier,
                code = %fault.code.local_name,
                "WS-SecureConversation: the service refused the context; the next call establishes another"
            );
            sc.slot.forget(&context.identifier);
        }
    }

    /// Records where the Security block goes: byte `at`, just inside the `Header`.
    pub(crate) fn set_header_at(&mut self, at: usize) {
        self.header_at = at;
    }

    /// The configuration.
    pub(crate) fn config(&self) -> &WssConfig {
        &self.cfg
    }

    /// The `wsu:Id` the Body start tag must carry, if the Body is signed.
    pub(crate) fn body_id(&self) -> Option<String> {
        let context_signs = self
            .cfg
            .secure_conversation_token()
            .is_some_and(|sc| sc.sign_body);
        (self.cfg.signer().is_some() || self.cfg.symmetric_binding().is_some() || context_signs)
            .then(|| format!("id-{}", self.suffix))
    }

    /// Records where the Body start tag begins.
    pub(crate) fn set_body_at(&mut self, at: usize) {
        self.body_at = Some(at);
    }

    /// Whether the Body's content is encrypted: then the Body's start tag must be closed before
    /// its content, and [`set_body_content`](Self::set_body_content) called.
    pub(crate) fn encrypts_body(&self) -> bool {
        self.cfg.encryptor().is_some_and(|e| e.encrypt_body)
            || self.cfg.symmetric_binding().is_some_and(|b| b.encrypt_body)
    }

    /// Whether the request's SwA attachments are signed, and whether they are encrypted.
    pub(crate) fn protects_attachments(&self) -> (bool, bool) {
        let cfg = &self.cfg;
        match cfg.symmetric_binding() {
            Some(b) => (
                b.signed_attachments.is_some(),
                b.encrypted_attachments.is_some(),
            ),
            None => (
                cfg.signer().is_some_and(|s| s.attachments.is_some()),
                cfg.encryptor().is_some_and(|e| e.attachments.is_some()),
            ),
        }
    }

    /// Records the byte range of the Body's content, `start..end`.
    pub(crate) fn set_body_content(&mut self, start: usize, end: usize) {
        self.body_content = Some((start, end));
    }

    /// Secures the finished `envelope`, whose envelope namespace prefix is `env_prefix`: encrypts
    /// the Body's content if asked (signing the Body before or after, as the
    /// [`EncryptionOrder`] says), then inserts the Security block; under a SymmetricBinding as
    /// [`SymmetricBinding`](super::SymmetricBinding) says. The SwA `attachments` are signed and
    /// encrypted in place when the configuration says so (WSS SwA Profile 1.1). Returns what the
    /// response's check needs ([`Sent`]).
    pub(crate) fn finish(
        &self,
        version: SoapVersion,
        env_prefix: &str,
        envelope: &mut String,
        attachments: &mut [OutgoingAttachment],
    ) -> Result<Sent, WssError> {
        let cfg = &self.cfg;
        if let Some(b) = cfg.symmetric_binding() {
            if cfg.secure_conversation_token().is_some() {
                return Err(WssError::Encode(
                    "a WS-SecureConversation context as the protection token of a \
                     SymmetricBinding is not supported yet: it endorses requests over TLS"
                        .to_owned(),
                ));
            }
            return self.finish_symmetric(b, version, env_prefix, envelope, attachments);
        }
        let mut scratch = Vec::new();
        // Header blocks and elements to sign get a wsu:Id if they have none.
        let (header_refs, body_at, body_content) = match cfg.signer() {
            Some(signer) => self.identify_signed(
                (
                    &signer.headers,
                    &signer.optional_headers,
                    &signer.signed_elements,
                ),
                envelope,
            )?,
            None => (Vec::new(), self.body_at, self.body_content),
        };
        let mut header_digests = Vec::with_capacity(header_refs.len());
        if let Some(signer) = cfg.signer() {
            for (id, at) in header_refs {
                header_digests.push((id, signer.reference_digest(envelope, at, &mut scratch)?));
            }
        }
        refuse_endorsements(cfg)?;
        let context = self.context_endorsement(envelope, &mut scratch)?;
        block::supporting::refuse(cfg, cfg.signer().is_some(), cfg.encryptor().is_some())?;
        let body_digest = |envelope: &str,
                           attachments: &[OutgoingAttachment],
                           scratch: &mut Vec<u8>|
         -> Result<_, WssError> {
            match (cfg.signer(), body_at) {
                (Some(signer), Some(at)) => {
                    scratch.clear();
                    scratch.reserve(envelope.len().saturating_sub(at));
                    super::exclusive_c14n(envelope, at, &[], scratch)?;
                    let digest = |s: &super::X509Signer| super::base64(&s.digest.digest(scratch));
                    Ok(Some(BodyDigests {
                        primary: digest(signer),
                        endorsing: cfg
                            .endorsements()
                            .iter()
                            .map(|e| e.body.then(|| digest(&e.signer)))
                            .collect(),
                        attachments: match signer.attachments {
                            Some(c) => attachments::references(attachments, c, signer.digest)?,
                            None => Vec::new(),
                        },
                    }))
                }
                (Some(_), None) => Err(WssError::Encode(
                    "the Body to sign was not written".to_owned(),
                )),
                (None, _) => Ok(None),
            }
        };
        let mut digest = None;
        let mut encrypted = None;
        match cfg.encryptor() {
            None => digest = body_digest(envelope, attachments, &mut scratch)?,
            Some(enc) => {
                let sign_first = enc.order == EncryptionOrder::SignThenEncrypt;
                if sign_first {
                    digest = body_digest(envelope, attachments, &mut scratch)?;
                }
                let data_id = format!("ED-{}", self.suffix);
                let key_id = format!("EK-{}", self.suffix);
                // An encrypted Signature over the ciphertext: every EncryptedData names its key.
                let standalone = !sign_first && enc.encrypt_signature && cfg.signer().is_some();
                let key_info = StrRef::EncryptedKey(&key_id);
                let key_info = standalone.then_some(&key_info);
                let key = enc.new_key()?;
                if enc.encrypt_body {
                    let (start, end, plaintext) = body_to_encrypt(body_content, envelope)?;
                    let data =
                        enc.encrypted_data(&key, plaintext.as_bytes(), &data_id, false, key_info)?;
                    replace_range(envelope, start..end, &data);
                }
                let (attachment_data, attachment_ids) = match enc.attachments {
                    Some(c) => attachments::encrypt(
                        attachments,
                        c,
                        enc.block,
                        &key,
                        Some(&StrRef::EncryptedKey(&key_id)),
                        |i| format!("EDA{i}-{}", self.suffix),
                    )?,
                    None => Default::default(),
                };
                if !sign_first {
                    digest = body_digest(envelope, attachments, &mut scratch)?;
                }
                let mut data_ids: Vec<String> =
                    enc.encrypt_body.then_some(data_id).into_iter().collect();
                data_ids.extend(attachment_ids);
                data_ids.extend(self.header_data_ids(enc, sign_first, standalone)?);
                if !enc.headers.is_empty() || !enc.optional_headers.is_empty() {
                    refuse_headers_signed_after_encryption(cfg, enc)?;
                    data_ids.extend(self.encrypt_headers(enc, &key, key_info, envelope)?);
                }
                data_ids.extend(self.encrypt_elements_signed(enc, (&key, &key_id), envelope)?);
                let wrapped = enc.wrap(&key)?;
                encrypted = Some(Encrypted {
                    enc,
                    key_id,
                    data_ids,
                    wrapped,
                    key,
                    attachment_data,
                    standalone,
                });
            }
        }
        let (security, signature_values) = block::security_header(
            &self.cfg,
            &self.suffix,
            version,
            env_prefix,
            header_digests,
            digest,
            encrypted,
            context,
            scratch,
        )?;
        envelope.insert_str(self.header_at, &security);
        Ok(Sent {
            signature_values,
            request_key: None,
        })
    }

    /// What the WS-SecureConversation context's endorsing signature covers, when the request has
    /// a context: the header blocks it signs (given a `wsu:Id` in `envelope` if they have none)
    /// and, for a Cancel, the Body, each with its DigestValue.
    fn context_endorsement(
        &self,
        envelope: &mut String,
        scratch: &mut Vec<u8>,
    ) -> Result<Option<block::ContextEndorsement<'_>>, WssError> {
        let cfg = &self.cfg;
        let (Some(context), Some(sc)) = (&self.context, cfg.secure_conversation_token()) else {
            return Ok(None);
        };
        if cfg.signer().is_some() || cfg.encryptor().is_some() {
            return Err(WssError::Encode(
                "a WS-SecureConversation context endorses a request without an X.509 signature \
                 or encryption (over TLS): WssConfig::sign and WssConfig::encrypt are not \
                 supported with it yet"
                    .to_owned(),
            ));
        }
        let (mut refs, body_at, _) = self.identify_signed((&[], &sc.headers, &[]), envelope)?;
        if sc.sign_body {
            let at = body_at
                .ok_or_else(|| WssError::Encode("the Body to sign was not written".to_owned()))?;
            refs.push((format!("id-{}", self.suffix), at));
        }
        let mut digests = Vec::with_capacity(refs.len());
        for (id, at) in refs {
            scratch.clear();
            super::exclusive_c14n(envelope, at, &[], scratch)?;
            digests.push((id, super::base64(&sc.digest.digest(scratch))));
        }
        Ok(Some(block::ContextEndorsement {
            context,
            digest: sc.digest,
            headers: digests,
        }))
    }

    /// The Ids of the EncryptedData inside the Security header under the Body's key, which its
    /// EncryptedKey's ReferenceList names: the Signature's (`sp:EncryptSignature`), the
    /// UsernameToken's, each encrypted endorsing and supporting token's. A standalone list
    /// (`standalone`: the Signature encrypted over the ciphertext) cannot have the
    /// UsernameToken's, and encrypting first cannot have a token's: the recipient would meet
    /// them after what needs them.
    fn header_data_ids(
        &self,
        enc: &X509Encryptor,
        sign_first: bool,
        standalone: bool,
    ) -> Result<Vec<String>, WssError> {
        let cfg = &self.cfg;
        let mut data_ids = Vec::new();
        if enc.encrypt_signature && cfg.signer().is_some() {
            data_ids.push(format!("ESIG-{}", self.suffix));
        }
        if enc.encrypt_username_token && cfg.username().is_some() {
            if standalone {
                return Err(WssError::Encode(
                    "an encrypted UsernameToken with sp:EncryptSignature needs \
                     EncryptionOrder::SignThenEncrypt"
                        .to_owned(),
                ));
            }
            data_ids.push(format!("EUT-{}", self.suffix));
        }
        let encrypted_token = cfg.endorsements().iter().any(|e| e.encrypted)
            || cfg.supporting_tokens().iter().any(|t| t.encrypted);
        if encrypted_token && !sign_first {
            return Err(WssError::Encode(
                "an encrypted endorsing or supporting token (Endorsement::encrypted, \
                 X509SupportingToken::encrypted) needs EncryptionOrder::SignThenEncrypt"
                    .to_owned(),
            ));
        }
        for (i, e) in cfg.endorsements().iter().enumerate() {
            if e.encrypted {
                data_ids.push(block::endorsing_data_id(&self.suffix, i));
            }
        }
        data_ids.extend(block::supporting::data_ids(cfg, &self.suffix));
        Ok(data_ids)
    }

    /// Replaces each header block `enc` encrypts by a `wsse11:EncryptedHeader` (WSS 1.1 §9.3) with
    /// its `xenc:EncryptedData` (Type Element) under `key`, its KeyInfo `key_info` if any: the
    /// EncryptedData Ids, in document order. Everything it changes is before the Body, whose
    /// digest is already taken.
    pub(super) fn encrypt_headers(
        &self,
        enc: &X509Encryptor,
        key: &[u8],
        key_info: Option<&StrRef<'_>>,
        envelope: &mut String,
    ) -> Result<Vec<String>, WssError> {
        let bad = |s: String| WssError::Encode(s);
        // (range of the block, attributes to copy as `name="value"` text).
        let mut found: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        {
            let doc = Document::parse(envelope, crate::xml::Limits::default())
                .map_err(|e| bad(format!("cannot find the header blocks to encrypt: {e}")))?;
            let env_ns = doc.root_element().tag_name().namespace().unwrap_or("");
            for block in wanted_header_blocks(&doc, &enc.headers, &enc.optional_headers, "encrypt")?
            {
                let mut copied = String::new();
                for a in block.attributes() {
                    if a.namespace() == Some(env_ns)
                        && matches!(a.name(), "mustUnderstand" | "actor" | "role" | "relay")
                    {
                        let esc = a
                            .value()
                            .replace('&', "&amp;")
                            .replace('<', "&lt;")
                            .replace('"', "&quot;");
                        copied.push_str(&format!(" sgenv:{}=\"{esc}\"", a.name()));
                    }
                }
                if !copied.is_empty() {
                    copied.insert_str(0, &format!(" xmlns:sgenv=\"{env_ns}\""));
                }
                found.push((block.range(), copied));
            }
        }
        found.sort_by_key(|f| f.0.start);
        found.dedup_by_key(|f| f.0.start);
        let mut ids = Vec::with_capacity(found.len());
        // Back to front, so that earlier ranges stay valid.
        for (i, (range, copied)) in found.into_iter().enumerate().rev() {
            let plaintext = envelope
                .get(range.clone())
                .ok_or_else(|| bad("a header block to encrypt is out of range".to_owned()))?;
            let data_id = format!("EDH{}-{}", i + 1, self.suffix);
            let data = enc.encrypted_data(key, plaintext.as_bytes(), &data_id, true, key_info)?;
            let wrapper = format!(
                "<wsse11:EncryptedHeader xmlns:wsse11=\"{WSSE11_NS}\" xmlns:wsu=\"{WSU_NS}\" wsu:Id=\"EH{}-{}\"{copied}>{data}</wsse11:EncryptedHeader>",
                i + 1,
                self.suffix
            );
            envelope.replace_range(range, &wrapper);
            ids.push(data_id);
        }
        ids.reverse();
        Ok(ids)
    }

    /// Finds each header block to sign among the children of the envelope's `Header` (in
    /// `envelope`, before the Security block is inserted) and gives it a `wsu:Id` if it has none:
    /// its (Id, start offset) pairs in document order, and how many bytes were inserted (all
    /// before the Body).
    pub(super) fn identify_headers(
        &self,
        wanted: &[(String, String)],
        optional: &[(String, String)],
        envelope: &mut String,
    ) -> Result<(Vec<(String, usize)>, usize), WssError> {
        if wanted.is_empty() && optional.is_empty() {
            return Ok((Vec::new(), 0));
        }
        let (refs, inserted) = self.identify(envelope, "H", |doc| {
            wanted_header_blocks(doc, wanted, optional, "sign")
        })?;
        Ok((refs, inserted.iter().map(|(_, len)| len).sum()))
    }

    /// Encrypts the elements `enc` names ([`X509Encryptor::encrypt_element_if_present`]) under
    /// `key`, their KeyInfo naming the EncryptedKey `key_id`, once they are signed: the
    /// EncryptedData Ids. Elements inside an encrypted Body go with it.
    fn encrypt_elements_signed(
        &self,
        enc: &X509Encryptor,
        (key, key_id): (&[u8], &str),
        envelope: &mut String,
    ) -> Result<Vec<String>, WssError> {
        if enc.encrypted_elements.is_empty() {
            return Ok(Vec::new());
        }
        if enc.order != EncryptionOrder::SignThenEncrypt {
            return Err(WssError::Encode(
                "encrypted elements (X509Encryptor::encrypt_element_if_present) need \
                 EncryptionOrder::SignThenEncrypt"
                    .to_owned(),
            ));
        }
        let names_key = StrRef::EncryptedKey(key_id);
        let paths = &enc.encrypted_elements;
        self.encrypt_elements(enc, (key, &names_key), paths, enc.encrypt_body, envelope)
    }

    /// Gives the header blocks (`headers`, and `optional` ones when present) and the elements
    /// (`elements`) a signature covers a `wsu:Id` where they have none: their (Id, start offset)
    /// pairs, headers first, and the Body's start and content range, all as they are once the
    /// Ids are in.
    #[allow(clippy::type_complexity)] // (refs, Body start, Body content)
    pub(super) fn identify_signed(
        &self,
        (headers, optional, elements): (
            &[(String, String)],
            &[(String, String)],
            &[super::ElementPath],
        ),
        envelope: &mut String,
    ) -> Result<(Vec<(String, usize)>, Option<usize>, Option<(usize, usize)>), WssError> {
        let (mut refs, shift) = self.identify_headers(headers, optional, envelope)?;
        let (elements, inserted) = self.identify_elements(elements, envelope)?;
        // Where an offset taken after the headers got their Ids is once the elements have
        // theirs (each insertion's offset counts the ones before it).
        let moved = |p: usize| {
            inserted
                .iter()
                .fold(p, |p, (at, len)| if *at < p { p + len } else { p })
        };
        for r in &mut refs {
            r.1 = moved(r.1);
        }
        refs.extend(elements);
        let body_at = self.body_at.map(|p| moved(p + shift));
        let content = self
            .body_content
            .map(|(start, end)| (moved(start + shift), moved(end + shift)));
        Ok((refs, body_at, content))
    }

    /// Finds each element of `envelope` (before the Security block is inserted) that `paths`
    /// name (WS-SecurityPolicy 1.2 §4.1.2 `sp:SignedElements`) and gives it a `wsu:Id` if it has
    /// none: its (Id, start offset) pairs in document order, and the (offset, length) of each
    /// insertion, in order.
    pub(super) fn identify_elements(
        &self,
        paths: &[super::ElementPath],
        envelope: &mut String,
    ) -> Result<Identified, WssError> {
        if paths.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        self.identify(envelope, "EL", |doc| {
            Ok(paths.iter().flat_map(|p| p.select(doc.root())).collect())
        })
    }

    /// Gives each element `select` finds in `envelope` a `wsu:Id` (`{tag}{n}-{suffix}`) if it
    /// has none: (Id, start offset) pairs in document order, and each insertion's (offset,
    /// length).
    fn identify(
        &self,
        envelope: &mut String,
        tag: &str,
        select: impl for<'a, 'i> Fn(&'a Document<'i>) -> Result<Vec<Node<'a, 'i>>, WssError>,
    ) -> Result<Identified, WssError> {
        let bad = |s: String| WssError::Encode(s);
        // (start offset, existing Id, insertion offset, prefix to declare) per element.
        let mut found: Vec<(usize, Option<String>, usize, Option<&str>)> = Vec::new();
        {
            let doc = Document::parse(envelope, crate::xml::Limits::default())
                .map_err(|e| bad(format!("cannot find the elements to sign: {e}")))?;
            for node in select(&doc)? {
                let start = node.range().start;
                let existing = node.attribute((WSU_NS, "Id")).map(str::to_owned);
                // Right after the element's qualified name in its start tag.
                let tag = envelope.get(start + 1..).unwrap_or_default();
                let name_len = tag
                    .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
                    .unwrap_or(tag.len());
                let prefix = match node.lookup_namespace_uri(Some("wsu")) {
                    Some(WSU_NS) => None,
                    Some(_) => Some("sgwsu"),
                    None => Some("wsu"),
                };
                found.push((start, existing, start + 1 + name_len, prefix));
            }
        }
        found.sort_by_key(|f| f.0);
        found.dedup_by_key(|f| f.0); // an element asked for twice is signed once
        let mut out = Vec::with_capacity(found.len());
        let mut inserted = Vec::new();
        let mut shift = 0usize;
        for (i, (start, existing, insert_at, prefix)) in found.into_iter().enumerate() {
            let start = start + shift;
            match existing {
                Some(id) => out.push((id, start)),
                None => {
                    let id = format!("{tag}{}-{}", i + 1, self.suffix);
                    let attr = match prefix {
                        Some(p) => format!(" xmlns:{p}=\"{WSU_NS}\" {p}:Id=\"{id}\""),
                        None => format!(" wsu:Id=\"{id}\""),
                    };
                    envelope.insert_str(insert_at + shift, &attr);
                    inserted.push((insert_at + shift, attr.len()));
                    shift += attr.len();
                    out.push((id, start));
                }
            }
        }
        Ok((out, inserted))
    }

    /// Replaces each element of `envelope` that `paths` name (WS-SecurityPolicy 1.2 §4.2.2
    /// `sp:EncryptedElements`) by its `xenc:EncryptedData` (Type Element) under `key`, its
    /// KeyInfo `key_info`; elements inside another one named, or inside the Body when
    /// `skip_body` (its content is encrypted whole), are left to it. The EncryptedData Ids, in
    /// document order.
    pub(super) fn encrypt_elements(
        &self,
        enc: &X509Encryptor,
        (key, key_info): (&[u8], &StrRef<'_>),
        paths: &[super::ElementPath],
        skip_body: bool,
        envelope: &mut String,
    ) -> Result<Vec<String>, WssError> {
        let mut ranges: Vec<std::ops::Range<usize>> = {
            let doc = Document::parse(envelope, crate::xml::Limits::default()).map_err(|e| {
                WssError::Encode(format!("cannot find the elements to encrypt: {e}"))
            })?;
            let body = doc
                .root_element()
                .children()
                .find(|c| c.is_element() && c.tag_name().name() == "Body");
            let in_body = |n: &Node<'_, '_>| n.ancestors().skip(1).any(|a| Some(a) == body);
            paths
                .iter()
                .flat_map(|p| p.select(doc.root()))
                .filter(|n| !(skip_body && in_body(n)))
                .map(|n| n.range())
                .collect()
        };
        ranges.sort_by_key(|r| r.start);
        // An element inside one already taken is encrypted with it.
        let mut outer: Vec<std::ops::Range<usize>> = Vec::with_capacity(ranges.len());
        for r in ranges {
            if outer.last().is_none_or(|o| r.start >= o.end) {
                outer.push(r);
            }
        }
        let mut ids = Vec::with_capacity(outer.len());
        // Back to front, so that earlier ranges stay valid.
        for (i, range) in outer.into_iter().enumerate().rev() {
            let plaintext = envelope.get(range.clone()).ok_or_else(|| {
                WssError::Encode("an element to encrypt is out of range".to_owned())
            })?;
            let data_id = format!("EDE{}-{}", i + 1, self.suffix);
            let data =
                enc.encrypted_data(key, plaintext.as_bytes(), &data_id, true, Some(key_info))?;
            envelope.replace_range(range, &data);
            ids.push(data_id);
        }
        ids.reverse();
        Ok(ids)
    }
}

/// Elements given a `wsu:Id`: their (Id, start offset) pairs in document order, and each
/// insertion's (offset, length), in order.
pub(super) type Identified = (Vec<(String, usize)>, Vec<(usize, usize)>);

/// Whether the element `node` is the header block (`ns`, `name`); an empty `name` names every
/// block of `ns` (WS-SecurityPolicy 1.2 §5.1.1: `sp:Header` without `Name`).
pub(crate) fn names_block(node: &Node<'_, '_>, ns: &str, name: &str) -> bool {
    node.is_element()
        && node.tag_name().namespace().unwrap_or("") == ns
        && (name.is_empty() || node.tag_name().name() == name)
}

/// The children of the SOAP `Header` of `doc` named by `wanted` and `optional` ((namespace,
/// local name) pairs, an empty local name naming every block of the namespace), for each pair in `wanted`'s order, then `optional`'s, and then in document
/// order: the header blocks a caller asked to sign (WSS 1.1 §8) or encrypt (WSS 1.1 §9.3,
/// `wsse11:EncryptedHeader`). A block named twice comes twice. `purpose` (`"sign"`,
/// `"encrypt"`) names the operation in the error.
///
/// # Errors
///
/// [`WssError::Encode`] for the first pair of `wanted` (not `optional`) that names no block in
/// the Header (or when there is no Header).
fn wanted_header_blocks<'a, 'input>(
    doc: &'a Document<'input>,
    wanted: &[(String, String)],
    optional: &[(String, String)],
    purpose: &str,
) -> Result<Vec<Node<'a, 'input>>, WssError> {
    let header = doc
        .root_element()
        .children()
        .find(|c| c.is_element() && c.tag_name().name() == "Header");
    let mut blocks = Vec::new();
    let required = wanted.iter().map(|w| (w, true));
    for ((ns, name), required) in required.chain(optional.iter().map(|o| (o, false))) {
        let before = blocks.len();
        blocks.extend(
            header
                .iter()
                .flat_map(|h| h.children())
                .filter(|c| names_block(c, ns, name)),
        );
        if required && blocks.len() == before {
            return Err(WssError::Encode(format!(
                "the header block {{{ns}}}{name} to {purpose} is not in the request"
            )));
        }
    }
    Ok(blocks)
}

/// The Body's content to encrypt: its byte range in `envelope`, `content`, and the text.
pub(super) fn body_to_encrypt(
    content: Option<(usize, usize)>,
    envelope: &str,
) -> Result<(usize, usize, &str), WssError> {
    let (start, end) = content
        .ok_or_else(|| WssError::Encode("the Body to encrypt was not written".to_owned()))?;
    let text = envelope
        .get(start..end)
        .ok_or_else(|| WssError::Encode("the Body to encrypt is out of range".to_owned()))?;
    Ok((start, end, text))
}

/// Replaces `range` of `envelope` by `text` (not `String::replace_range`: its splice goes byte by
/// byte when the text grows).
pub(super) fn replace_range(envelope: &mut String, range: std::ops::Range<usize>, text: &str) {
    let tail = envelope.get(range.end..).unwrap_or_default().to_owned();
    envelope.truncate(range.start);
    envelope.reserve(text.len() + tail.len());
    envelope.push_str(text);
    envelope.push_str(&tail);
}

/// A header block both signed and encrypted is signed as plaintext: not when the ciphertext is
/// signed ([`EncryptionOrder::EncryptThenSign`]).
fn refuse_headers_signed_after_encryption(
    cfg: &WssConfig,
    enc: &X509Encryptor,
) -> Result<(), WssError> {
    let both = |s: &super::X509Signer| {
        s.headers
            .iter()
            .chain(&s.optional_headers)
            .any(|h| enc.headers.contains(h) || enc.optional_headers.contains(h))
    };
    if enc.order == EncryptionOrder::EncryptThenSign && cfg.signer().is_some_and(both) {
        return Err(WssError::Encode(
            "a header block both signed and encrypted needs EncryptionOrder::SignThenEncrypt"
                .to_owned(),
        ));
    }
    Ok(())
}

/// What endorsements cannot be outside a SymmetricBinding: without a message signature to
/// endorse, or encrypted without a request encryption.
fn refuse_endorsements(cfg: &WssConfig) -> Result<(), WssError> {
    if !cfg.endorsements().is_empty() && cfg.signer().is_none() {
        return Err(WssError::Encode(
            "an endorsing signature (WssConfig::endorse) needs a message signature (WssConfig::sign)"
                .to_owned(),
        ));
    }
    if cfg.endorsements().iter().any(|e| e.encrypted) && cfg.encryptor().is_none() {
        return Err(WssError::Encode(
            "an encrypted endorsing token (Endorsement::encrypted) needs a request encryption \
             (WssConfig::encrypt or WssConfig::symmetric)"
                .to_owned(),
        ));
    }
    Ok(())
}
