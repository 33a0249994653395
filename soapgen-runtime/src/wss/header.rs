//! The outgoing `wsse:Security` header block (WSS 1.1 §5), assembled from a [`WssConfig`] once
//! the rest of the envelope is written.

use super::encrypt::{EncryptionOrder, X509Encryptor};
use super::sign::{KeyReference, X509Signer, DS_NS, EXC_C14N, THUMBPRINT_SHA1, X509V3, X509_SKI};
use super::{
    random_bytes, Timestamp, UtcTime, WssConfig, WssError, BASE64_BINARY, WSSE11_NS, WSSE_NS,
    WSU_NS,
};
use crate::message::SoapVersion;
use crate::xml::read::tree::{Document, Node};
use crate::xml::{Name, XmlWriter};

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
}

impl Outgoing {
    /// The state of one envelope secured by `cfg`; the Security block goes at byte 0 until
    /// [`set_header_at`](Self::set_header_at) says where.
    pub(crate) fn new(cfg: WssConfig) -> Result<Outgoing, WssError> {
        Ok(Outgoing {
            cfg,
            header_at: 0,
            suffix: super::hex(&random_bytes::<8>()?),
            body_at: None,
            body_content: None,
        })
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
        self.cfg.signer().map(|_| format!("id-{}", self.suffix))
    }

    /// Records where the Body start tag begins.
    pub(crate) fn set_body_at(&mut self, at: usize) {
        self.body_at = Some(at);
    }

    /// Whether the Body's content is encrypted: then the Body's start tag must be closed before
    /// its content, and [`set_body_content`](Self::set_body_content) called.
    pub(crate) fn encrypts_body(&self) -> bool {
        self.cfg.encryptor().is_some()
    }

    /// Records the byte range of the Body's content, `start..end`.
    pub(crate) fn set_body_content(&mut self, start: usize, end: usize) {
        self.body_content = Some((start, end));
    }

    /// Secures the finished `envelope`, whose envelope namespace prefix is `env_prefix`: encrypts
    /// the Body's content if asked (signing the Body before or after, as the
    /// [`EncryptionOrder`] says), then inserts the Security block. Returns the raw bytes of each
    /// `ds:SignatureValue` the block carries (empty when not signed), which a response's
    /// `wsse11:SignatureConfirmation` must echo (WSS 1.1 §8.5).
    pub(crate) fn finish(
        &self,
        version: SoapVersion,
        env_prefix: &str,
        envelope: &mut String,
    ) -> Result<Vec<Vec<u8>>, WssError> {
        let cfg = &self.cfg;
        let mut scratch = Vec::new();
        // Header blocks to sign get a wsu:Id if they have none: later offsets move by `shift`.
        let (header_refs, shift) = match cfg.signer() {
            Some(signer) if !signer.headers.is_empty() => {
                self.identify_headers(&signer.headers, envelope)?
            }
            _ => (Vec::new(), 0),
        };
        let body_at = self.body_at.map(|a| a + shift);
        let body_content = self.body_content.map(|(s, e)| (s + shift, e + shift));
        let mut header_digests = Vec::with_capacity(header_refs.len());
        if let Some(signer) = cfg.signer() {
            for (id, at) in header_refs {
                header_digests.push((id, signer.reference_digest(envelope, at, &mut scratch)?));
            }
        }
        let body_digest = |envelope: &str, scratch: &mut Vec<u8>| -> Result<_, WssError> {
            match (cfg.signer(), body_at) {
                (Some(signer), Some(at)) => {
                    scratch.reserve(envelope.len().saturating_sub(at));
                    Ok(Some(signer.reference_digest(envelope, at, scratch)?))
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
            None => digest = body_digest(envelope, &mut scratch)?,
            Some(enc) => {
                let sign_first = enc.order == EncryptionOrder::SignThenEncrypt;
                if sign_first {
                    digest = body_digest(envelope, &mut scratch)?;
                }
                let (start, end) = body_content.ok_or_else(|| {
                    WssError::Encode("the Body to encrypt was not written".to_owned())
                })?;
                let plaintext = envelope.get(start..end).ok_or_else(|| {
                    WssError::Encode("the Body to encrypt is out of range".to_owned())
                })?;
                let data_id = format!("ED-{}", self.suffix);
                let key_id = format!("EK-{}", self.suffix);
                let key = enc.new_key()?;
                let data = enc.encrypted_data(&key, plaintext.as_bytes(), &data_id, false)?;
                // (not `replace_range`: its splice is byte by byte when the text grows)
                let tail = envelope.get(end..).unwrap_or_default().to_owned();
                envelope.truncate(start);
                envelope.reserve(data.len() + tail.len());
                envelope.push_str(&data);
                envelope.push_str(&tail);
                if !sign_first {
                    digest = body_digest(envelope, &mut scratch)?;
                }
                let mut data_ids = vec![data_id];
                if enc.encrypt_signature && cfg.signer().is_some() {
                    if !sign_first {
                        return Err(WssError::Encode(
                            "sp:EncryptSignature needs EncryptionOrder::SignThenEncrypt (the EncryptedKey must precede the Signature it decrypts)"
                                .to_owned(),
                        ));
                    }
                    data_ids.push(format!("ESIG-{}", self.suffix));
                }
                if !enc.headers.is_empty() {
                    if !sign_first
                        && cfg
                            .signer()
                            .is_some_and(|s| s.headers.iter().any(|h| enc.headers.contains(h)))
                    {
                        return Err(WssError::Encode(
                            "a header block both signed and encrypted needs EncryptionOrder::SignThenEncrypt"
                                .to_owned(),
                        ));
                    }
                    data_ids.extend(self.encrypt_headers(enc, &key, envelope)?);
                }
                let wrapped = enc.wrap(&key)?;
                encrypted = Some(Encrypted {
                    enc,
                    key_id,
                    data_ids,
                    wrapped,
                    key,
                });
            }
        }
        let (security, signature_value) = self.security_header(
            version,
            env_prefix,
            header_digests,
            digest,
            encrypted,
            scratch,
        )?;
        envelope.insert_str(self.header_at, &security);
        Ok(signature_value.into_iter().collect())
    }

    /// Replaces each header block `enc` encrypts by a `wsse11:EncryptedHeader` (WSS 1.1 §9.3) with
    /// its `xenc:EncryptedData` (Type Element) under `key`: the EncryptedData Ids, in document
    /// order. Everything it changes is before the Body, whose digest is already taken.
    fn encrypt_headers(
        &self,
        enc: &X509Encryptor,
        key: &[u8],
        envelope: &mut String,
    ) -> Result<Vec<String>, WssError> {
        let bad = |s: String| WssError::Encode(s);
        // (range of the block, attributes to copy as `name="value"` text).
        let mut found: Vec<(std::ops::Range<usize>, String)> = Vec::new();
        {
            let doc = Document::parse(envelope, crate::xml::Limits::default())
                .map_err(|e| bad(format!("cannot find the header blocks to encrypt: {e}")))?;
            let env_ns = doc.root_element().tag_name().namespace().unwrap_or("");
            for block in wanted_header_blocks(&doc, &enc.headers, "encrypt")? {
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
            let data = enc.encrypted_data(key, plaintext.as_bytes(), &data_id, true)?;
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
    fn identify_headers(
        &self,
        wanted: &[(String, String)],
        envelope: &mut String,
    ) -> Result<(Vec<(String, usize)>, usize), WssError> {
        let bad = |s: String| WssError::Encode(s);
        // (start offset, existing Id, insertion offset, prefix to declare) per signed block.
        let mut found: Vec<(usize, Option<String>, usize, Option<&str>)> = Vec::new();
        {
            let doc = Document::parse(envelope, crate::xml::Limits::default())
                .map_err(|e| bad(format!("cannot find the header blocks to sign: {e}")))?;
            for block in wanted_header_blocks(&doc, wanted, "sign")? {
                let start = block.range().start;
                let existing = block.attribute((WSU_NS, "Id")).map(str::to_owned);
                // Right after the element's qualified name in its start tag.
                let tag = envelope.get(start + 1..).unwrap_or_default();
                let name_len = tag
                    .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
                    .unwrap_or(tag.len());
                let prefix = match block.lookup_namespace_uri(Some("wsu")) {
                    Some(WSU_NS) => None,
                    Some(_) => Some("sgwsu"),
                    None => Some("wsu"),
                };
                found.push((start, existing, start + 1 + name_len, prefix));
            }
        }
        found.sort_by_key(|f| f.0);
        found.dedup_by_key(|f| f.0); // a block asked for twice is signed once
        let mut out = Vec::with_capacity(found.len());
        let mut shift = 0usize;
        for (i, (start, existing, insert_at, prefix)) in found.into_iter().enumerate() {
            let start = start + shift;
            match existing {
                Some(id) => out.push((id, start)),
                None => {
                    let id = format!("H{}-{}", i + 1, self.suffix);
                    let attr = match prefix {
                        Some(p) => format!(" xmlns:{p}=\"{WSU_NS}\" {p}:Id=\"{id}\""),
                        None => format!(" wsu:Id=\"{id}\""),
                    };
                    envelope.insert_str(insert_at + shift, &attr);
                    shift += attr.len();
                    out.push((id, start));
                }
            }
        }
        Ok((out, shift))
    }

    /// The `wsse:Security` element, a self-contained fragment (it declares `wsse`, `wsu` and the
    /// envelope prefix itself), in this order: Timestamp, BinarySecurityToken, UsernameToken,
    /// then EncryptedKey and Signature in processing order (WSS 1.1 §5: EncryptedKey first when
    /// the plaintext was signed, Signature first when the ciphertext was). `mustUnderstand` is
    /// `"1"` in SOAP 1.1 (§4.2.3), `"true"` in SOAP 1.2 (Part 1 §5.2.3). `body_digest` is the
    /// Body Reference's DigestValue when signing; `encrypted` the encryptor, the EncryptedKey's
    /// and EncryptedData's Ids and the wrapped key when encrypting. Returns the block and the
    /// raw SignatureValue, when signed.
    #[allow(clippy::too_many_arguments)]
    fn security_header(
        &self,
        version: SoapVersion,
        env_prefix: &str,
        header_digests: Vec<(String, String)>,
        body_digest: Option<String>,
        encrypted: Option<Encrypted<'_>>,
        mut scratch: Vec<u8>,
    ) -> Result<(String, Option<Vec<u8>>), WssError> {
        let cfg = &self.cfg;
        let suffix = &self.suffix;
        let now = UtcTime::now();
        let mut w = XmlWriter::with_capacity(if cfg.signer().is_some() || encrypted.is_some() {
            4096
        } else {
            1024
        });
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
        let ts_id = format!("TS-{suffix}");
        let mut ts_at = None;
        if let Some(ttl) = cfg.timestamp_ttl() {
            w.raw("")?; // close the open start tag so the offset is that of the next `<`
            ts_at = Some(w.as_str().len());
            Timestamp::new(now, ttl).write(&mut w, &ts_id)?;
        }
        let bst_id = format!("X509-{suffix}");
        let mut signature_value = None;
        let mut bst_at = None;
        if let Some(signer) = cfg
            .signer()
            .filter(|s| s.key_reference == KeyReference::DirectReference)
        {
            w.raw("")?;
            bst_at = Some(w.as_str().len());
            w.start_element(Name::new(WSSE_NS, "BinarySecurityToken"))?;
            w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
            w.attribute(Name::unqualified("ValueType"), X509V3)?;
            w.attribute(Name::new(WSU_NS, "Id"), &bst_id)?;
            w.text(&super::base64(signer.credential().certificate().der()))?;
            w.end_element()?;
        }
        if let Some(ut) = cfg.username() {
            ut.write(&mut w, &format!("UT-{suffix}"), now)?;
        }
        let write_encrypted_key = |w: &mut XmlWriter| match &encrypted {
            Some(e) => e
                .enc
                .write_encrypted_key(w, &e.key_id, &e.data_ids, &e.wrapped),
            None => Ok(()),
        };
        let signature_first = encrypted
            .as_ref()
            .is_some_and(|e| e.enc.order == EncryptionOrder::EncryptThenSign);
        let mut signature_range = None;
        if !signature_first {
            write_encrypted_key(&mut w)?;
        }
        if let Some(signer) = cfg.signer() {
            let body_digest = body_digest
                .ok_or_else(|| WssError::Encode("the Body to sign was not written".to_owned()))?;
            // Digests first: they do not depend on the Signature element.
            let mut references = Vec::with_capacity(2 + header_digests.len());
            if let Some(at) = ts_at {
                let digest = signer.reference_digest(w.as_str(), at, &mut scratch)?;
                references.push((ts_id.clone(), digest));
            }
            if signer.protect_token {
                // WS-SecurityPolicy 1.2 §6.5 sp:ProtectTokens: the signing token signed too.
                let at = bst_at.ok_or_else(|| {
                    WssError::Encode(
                        "sp:ProtectTokens (X509Signer::protect_token) needs the certificate in the message (KeyReference::DirectReference)"
                            .to_owned(),
                    )
                })?;
                let digest = signer.reference_digest(w.as_str(), at, &mut scratch)?;
                references.push((bst_id.clone(), digest));
            }
            references.extend(header_digests);
            references.push((format!("id-{suffix}"), body_digest));

            w.raw("")?;
            let signature_at = w.as_str().len();
            w.start_element_prefixed(Name::new(DS_NS, "Signature"), Some("ds"))?;
            w.attribute(Name::unqualified("Id"), &format!("SIG-{suffix}"))?;
            w.raw("")?;
            let signed_info_at = w.as_str().len();
            write_signed_info(&mut w, signer, &references)?;
            scratch.clear();
            super::exclusive_c14n(w.as_str(), signed_info_at, &[], &mut scratch)?;
            let raw = signer.sign_raw(&scratch)?;
            w.simple_element(
                Name::new(DS_NS, "SignatureValue"),
                super::base64(&raw).as_str(),
            )?;
            signature_value = Some(raw);
            write_key_info(&mut w, signer, suffix, &bst_id)?;
            w.end_element()?; // Signature
            signature_range = Some(signature_at..w.as_str().len());
        }
        if signature_first {
            write_encrypted_key(&mut w)?;
        }
        w.end_element()?;
        let mut security = w.into_string()?;
        if let (Some(range), Some(e)) = (signature_range, &encrypted) {
            if e.enc.encrypt_signature {
                encrypt_signature(&mut security, range, e, &format!("ESIG-{suffix}"))?;
            }
        }
        Ok((security, signature_value))
    }
}

/// What the Body's encryption left for the Security header: the encryptor, the EncryptedKey's
/// Id, the Ids of the EncryptedData its ReferenceList names, the wrapped key, and the content key
/// itself (for the Signature, with `sp:EncryptSignature`).
struct Encrypted<'a> {
    enc: &'a X509Encryptor,
    key_id: String,
    data_ids: Vec<String>,
    wrapped: Vec<u8>,
    key: Vec<u8>,
}

/// Replaces the `ds:Signature` at `range` of the finished Security block `security` by an
/// `xenc:EncryptedData` (`Type` Element, Id `data_id`) under the content key of `e`
/// (WS-SecurityPolicy 1.2 §6.3 `sp:EncryptSignature`). The Signature's start tag gets the
/// `wsse` and `wsu` declarations its KeyInfo relies on, so that the plaintext stands alone; the
/// SignedInfo's exclusive canonical form, which uses neither, is unchanged.
fn encrypt_signature(
    security: &mut String,
    range: std::ops::Range<usize>,
    e: &Encrypted<'_>,
    data_id: &str,
) -> Result<(), WssError> {
    const START: &str = "<ds:Signature";
    let signature = security
        .get(range.clone())
        .filter(|s| s.starts_with(START))
        .ok_or_else(|| WssError::Encode("the Signature to encrypt is out of range".to_owned()))?;
    let mut plaintext = String::with_capacity(signature.len() + 200);
    plaintext.push_str(START);
    plaintext.push_str(&format!(" xmlns:wsse=\"{WSSE_NS}\" xmlns:wsu=\"{WSU_NS}\""));
    plaintext.push_str(&signature[START.len()..]);
    let data = e
        .enc
        .encrypted_data(&e.key, plaintext.as_bytes(), data_id, true)?;
    security.replace_range(range, &data);
    Ok(())
}

/// The `ds:SignedInfo` of a signature by `signer` over `references` ((wsu:Id, digest) pairs):
/// Exclusive C14N, the signer's SignatureMethod, one Reference per part with an Exclusive C14N
/// Transform and the signer's DigestMethod (XML-DSig §4.4, WSS 1.1 §8).
fn write_signed_info(
    w: &mut XmlWriter,
    signer: &X509Signer,
    references: &[(String, String)],
) -> Result<(), WssError> {
    w.start_element(Name::new(DS_NS, "SignedInfo"))?;
    w.start_element(Name::new(DS_NS, "CanonicalizationMethod"))?;
    w.attribute(Name::unqualified("Algorithm"), EXC_C14N)?;
    w.end_element()?;
    w.start_element(Name::new(DS_NS, "SignatureMethod"))?;
    w.attribute(Name::unqualified("Algorithm"), signer.signature.uri())?;
    w.end_element()?;
    for (id, digest) in references {
        w.start_element(Name::new(DS_NS, "Reference"))?;
        w.attribute(Name::unqualified("URI"), &format!("#{id}"))?;
        w.start_element(Name::new(DS_NS, "Transforms"))?;
        w.start_element(Name::new(DS_NS, "Transform"))?;
        w.attribute(Name::unqualified("Algorithm"), EXC_C14N)?;
        w.end_element()?;
        w.end_element()?;
        w.start_element(Name::new(DS_NS, "DigestMethod"))?;
        w.attribute(Name::unqualified("Algorithm"), signer.digest.uri())?;
        w.end_element()?;
        w.simple_element(Name::new(DS_NS, "DigestValue"), digest.as_str())?;
        w.end_element()?;
    }
    w.end_element()?; // SignedInfo
    Ok(())
}

/// The signature's `ds:KeyInfo`: a SecurityTokenReference to the signer's certificate as its
/// key reference says (WSS 1.1 §7: a DirectReference to the BinarySecurityToken `bst_id`, a
/// KeyIdentifier, or `ds:X509IssuerSerial`, X.509 Token Profile 1.1 §3.2).
fn write_key_info(
    w: &mut XmlWriter,
    signer: &X509Signer,
    suffix: &str,
    bst_id: &str,
) -> Result<(), WssError> {
    w.start_element(Name::new(DS_NS, "KeyInfo"))?;
    w.attribute(Name::unqualified("Id"), &format!("KI-{suffix}"))?;
    w.start_element(Name::new(WSSE_NS, "SecurityTokenReference"))?;
    w.attribute(Name::new(WSU_NS, "Id"), &format!("STR-{suffix}"))?;
    let cert = signer.credential().certificate();
    let key_identifier = |w: &mut XmlWriter, value_type: &str, bytes: &[u8]| {
        w.start_element(Name::new(WSSE_NS, "KeyIdentifier"))?;
        w.attribute(Name::unqualified("EncodingType"), BASE64_BINARY)?;
        w.attribute(Name::unqualified("ValueType"), value_type)?;
        w.text(&super::base64(bytes))?;
        w.end_element()
    };
    match signer.key_reference {
        KeyReference::DirectReference => {
            w.start_element(Name::new(WSSE_NS, "Reference"))?;
            w.attribute(Name::unqualified("URI"), &format!("#{bst_id}"))?;
            w.attribute(Name::unqualified("ValueType"), X509V3)?;
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

/// The children of the SOAP `Header` of `doc` named by `wanted` ((namespace, local name) pairs),
/// for each pair in `wanted`'s order and then in document order: the header blocks a caller asked
/// to sign (WSS 1.1 §8) or encrypt (WSS 1.1 §9.3, `wsse11:EncryptedHeader`). A block named twice
/// comes twice. `purpose` (`"sign"`, `"encrypt"`) names the operation in the error.
///
/// # Errors
///
/// [`WssError::Encode`] for the first pair of `wanted` that names no block in the Header (or when
/// there is no Header).
fn wanted_header_blocks<'a, 'input>(
    doc: &'a Document<'input>,
    wanted: &[(String, String)],
    purpose: &str,
) -> Result<Vec<Node<'a, 'input>>, WssError> {
    let header = doc
        .root_element()
        .children()
        .find(|c| c.is_element() && c.tag_name().name() == "Header");
    let mut blocks = Vec::new();
    for (ns, name) in wanted {
        let before = blocks.len();
        blocks.extend(
            header
                .iter()
                .flat_map(|h| h.children())
                .filter(|c| c.has_tag_name((ns.as_str(), name.as_str()))),
        );
        if blocks.len() == before {
            return Err(WssError::Encode(format!(
                "the header block {{{ns}}}{name} to {purpose} is not in the request"
            )));
        }
    }
    Ok(blocks)
}
