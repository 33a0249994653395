//! Decryption of a response (XML-Enc §4.2 "Decryption", WSS 1.1 §9.4): the content-encryption
//! key of an `xenc:EncryptedKey` addressed to this client is unwrapped with its private key, and
//! each `xenc:EncryptedData` it lists (or that carries it inline in its `ds:KeyInfo`, or that a
//! standalone `xenc:ReferenceList` lists and names it from its KeyInfo) is replaced by its
//! plaintext, which must be a well-formed XML fragment in the EncryptedData's context.
//!
//! Every failure after the recipient is identified — key transport, block decryption, padding, GCM
//! tag, plaintext that is not UTF-8 or not well-formed — is the one
//! [`WssError::DecryptionFailed`], so the error cannot serve as an oracle.

use std::collections::HashMap;
use std::ops::Range;

use crate::xml::read::tree::Node;

use super::verify::{base64, child, elements, malformed, Ids, Shape};
use super::verify::{MessagePart, XENC_NS};
use super::xmlenc::{BlockEncryption, KeyTransport};
use super::{
    Certificate, WssConfig, WssError, DS_NS, THUMBPRINT_SHA1, WSSE11_NS, WSSE_NS, X509V3, X509_SKI,
};

use super::encrypt::ENCRYPTED_KEY_SHA1;
use super::symmetric::RequestKey;
use super::xmlenc::{XENC11_NS, XENC_CONTENT as CONTENT, XENC_ELEMENT as ELEMENT};

/// One EncryptedData (or the EncryptedHeader around it) to replace by its plaintext.
#[derive(Debug)]
pub(crate) struct Edit {
    range: Range<usize>,
    plaintext: String,
    part: MessagePart,
}

/// Processes an `xenc:EncryptedKey` of the Security header (WSS 1.1 §9.4).
///
/// With a `xenc:ReferenceList` inside, the EncryptedData it lists are decrypted now (the key is
/// unwrapped first; an EncryptedKey listing nothing is skipped). Without one, the key is for the
/// EncryptedData whose `ds:KeyInfo` names it (a SecurityTokenReference by `#Id`, or by the
/// `#EncryptedKeySHA1` of its CipherValue, WSS 1.1 §7.3): those that a later standalone
/// ReferenceList of the header lists (`listed_later`) are left for it, since the header is
/// processed in order (a signature between the two covers the ciphertext); the others are
/// decrypted now. The key is then held in `ring` for that ReferenceList.
///
/// # Errors
///
/// [`WssError::Malformed`] for a ReferenceList that lists anything but EncryptedData, or an
/// EncryptedKey that is not for this client's certificate; [`WssError::AlgorithmNotAllowed`];
/// [`WssError::DecryptionFailed`].
pub(crate) fn encrypted_key<'a, 'i>(
    cfg: &WssConfig,
    shape: &Shape<'a, 'i>,
    ids: &Ids<'a, 'i>,
    tokens: &HashMap<String, Certificate>,
    ek: Node<'a, 'i>,
    listed_later: &[Node<'a, 'i>],
    ring: &mut KeyRing,
) -> Result<Vec<Edit>, WssError> {
    if let Some(list) = child(ek, XENC_NS, "ReferenceList") {
        let targets = data_references(list, ids)?;
        if targets.is_empty() {
            return Ok(Vec::new());
        }
        let key = Unwrapper::new(cfg, tokens, ek)?;
        return targets
            .into_iter()
            .map(|ed| decrypt_data(cfg, shape, &ContentKey::Wrapped(&key), ed))
            .collect();
    }
    let id = ek.attribute("Id");
    let sha1 = encrypted_key_sha1(ek);
    let targets: Vec<Node<'a, 'i>> = ek
        .document()
        .descendants()
        .filter(|n| n.has_tag_name((XENC_NS, "EncryptedData")))
        .filter(|ed| match key_ref(*ed) {
            Some(KeyRef::Id(r)) => Some(r) == id,
            Some(KeyRef::Sha1(v)) => sha1.is_some_and(|s| v[..] == s[..]),
            _ => false,
        })
        .collect();
    if targets.is_empty() {
        return Ok(Vec::new());
    }
    let key = Unwrapper::new(cfg, tokens, ek)?;
    let edits = targets
        .into_iter()
        .filter(|ed| !listed_later.contains(ed))
        .map(|ed| decrypt_data(cfg, shape, &ContentKey::Wrapped(&key), ed))
        .collect::<Result<Vec<_>, _>>()?;
    ring.keys.push(HeldKey {
        id: id.map(str::to_owned),
        sha1,
        key,
    });
    Ok(edits)
}

/// Processes an `xenc:ReferenceList` standing in the Security header on its own (WSS 1.1 §9.4:
/// its EncryptedData were encrypted with a key named in their own `ds:KeyInfo`): each
/// EncryptedData it lists, decrypted with the key its KeyInfo names: an EncryptedKey met earlier
/// in the header (`ring`; by `#Id` or `#EncryptedKeySHA1`), or one carried inline.
///
/// # Errors
///
/// [`WssError::Malformed`] naming the EncryptedData when its KeyInfo names no key, or a key that
/// no EncryptedKey for this client before the ReferenceList carried (the header is processed in
/// document order, WSS 1.1 §5); as [`encrypted_key`] otherwise.
pub(crate) fn reference_list<'a, 'i>(
    cfg: &WssConfig,
    shape: &Shape<'a, 'i>,
    ids: &Ids<'a, 'i>,
    tokens: &HashMap<String, Certificate>,
    list: Node<'a, 'i>,
    (ring, request_key): (&KeyRing, Option<&RequestKey>),
) -> Result<Vec<Edit>, WssError> {
    let mut edits = Vec::new();
    for ed in data_references(list, ids)? {
        // Under a SymmetricBinding: the request key, or a key derived from it.
        let symmetric = || -> Result<Edit, WssError> {
            let str_node = child(ed, DS_NS, "KeyInfo")
                .and_then(|k| child(k, WSSE_NS, "SecurityTokenReference"))
                .ok_or_else(|| malformed(ed, "no SecurityTokenReference in its KeyInfo"))?;
            let key = super::verify::symmetric_key(str_node, ids, request_key)?;
            decrypt_data(cfg, shape, &ContentKey::Raw(key), ed)
        };
        let not_before = |what: String| {
            malformed(
                ed,
                &format!(
                    "its KeyInfo names {what}, which no EncryptedKey for this client before the \
                     ReferenceList carried (WSS 1.1 §5, §9.4: the Security header is processed in \
                     document order)"
                ),
            )
        };
        let edit = match key_ref(ed) {
            Some(KeyRef::Inline(ek)) => {
                let key = Unwrapper::new(cfg, tokens, ek)?;
                decrypt_data(cfg, shape, &ContentKey::Wrapped(&key), ed)?
            }
            Some(KeyRef::Id(id)) => match ring.keys.iter().find(|k| k.id.as_deref() == Some(id)) {
                Some(held) => decrypt_data(cfg, shape, &ContentKey::Wrapped(&held.key), ed)?,
                None if request_key.is_some() => symmetric()?,
                None => return Err(not_before(format!("the key #{id}"))),
            },
            Some(KeyRef::Sha1(v)) => {
                match ring
                    .keys
                    .iter()
                    .find(|k| k.sha1.is_some_and(|s| s[..] == v[..]))
                {
                    Some(held) => decrypt_data(cfg, shape, &ContentKey::Wrapped(&held.key), ed)?,
                    None if request_key.is_some() => symmetric()?,
                    None => return Err(not_before("an EncryptedKeySHA1".to_owned())),
                }
            }
            // Under a security context: named by the context's Identifier (WS-SecureConversation
            // 1.3 §8), which symmetric_key resolves.
            None if request_key.is_some_and(|k| k.context.is_some()) => symmetric()?,
            None => return Err(malformed(
                ed,
                "listed by a ReferenceList outside an EncryptedKey, it must name its key in its \
                     KeyInfo (a SecurityTokenReference to an EncryptedKey, WSS 1.1 §9.4)",
            )),
        };
        edits.push(edit);
    }
    Ok(edits)
}

/// The EncryptedData that the standalone `xenc:ReferenceList`s among `later` (Security header
/// children after the one being processed) list; Ids that name nothing are left to
/// [`reference_list`] to refuse.
pub(crate) fn listed_by<'a, 'i>(later: &[Node<'a, 'i>], ids: &Ids<'a, 'i>) -> Vec<Node<'a, 'i>> {
    later
        .iter()
        .filter(|c| c.has_tag_name((XENC_NS, "ReferenceList")))
        .flat_map(|l| elements(*l))
        .filter_map(|r| r.attribute("URI")?.strip_prefix('#'))
        .filter_map(|id| ids.get(id).copied())
        .collect()
}

/// The keys of the EncryptedKeys without a ReferenceList met so far in a response's Security
/// header, for the standalone ReferenceLists after them (WSS 1.1 §9.4). Kept across the
/// re-parses that decryption causes.
#[derive(Default)]
pub(crate) struct KeyRing {
    keys: Vec<HeldKey>,
}

/// One key of a [`KeyRing`]: the EncryptedKey's `Id` and the SHA-1 of its CipherValue octets
/// (the two ways a KeyInfo names it), and the key, not yet unwrapped.
struct HeldKey {
    id: Option<String>,
    sha1: Option<[u8; 20]>,
    key: Unwrapper,
}

/// How an EncryptedData's `ds:KeyInfo` names its key.
enum KeyRef<'a, 'i> {
    /// A SecurityTokenReference `Reference` to `#Id`.
    Id(&'a str),
    /// A SecurityTokenReference `KeyIdentifier` of ValueType `#EncryptedKeySHA1`, decoded.
    Sha1(Vec<u8>),
    /// An `xenc:EncryptedKey` inside the KeyInfo (plain XML-Enc).
    Inline(Node<'a, 'i>),
}

fn key_ref<'a, 'i>(ed: Node<'a, 'i>) -> Option<KeyRef<'a, 'i>> {
    let key_info = child(ed, DS_NS, "KeyInfo")?;
    if let Some(ek) = child(key_info, XENC_NS, "EncryptedKey") {
        return Some(KeyRef::Inline(ek));
    }
    let str_ = child(key_info, WSSE_NS, "SecurityTokenReference")?;
    if let Some(r) = child(str_, WSSE_NS, "Reference") {
        return r.attribute("URI")?.strip_prefix('#').map(KeyRef::Id);
    }
    let k = child(str_, WSSE_NS, "KeyIdentifier")?;
    if k.attribute("ValueType") != Some(ENCRYPTED_KEY_SHA1) {
        return None;
    }
    base64(k).ok().map(KeyRef::Sha1)
}

/// SHA-1 of the octets of an EncryptedKey's CipherValue (WSS 1.1 §7.3 `#EncryptedKeySHA1`).
fn encrypted_key_sha1(ek: Node<'_, '_>) -> Option<[u8; 20]> {
    let cv = child(ek, XENC_NS, "CipherData").and_then(|c| child(c, XENC_NS, "CipherValue"))?;
    let octets = base64(cv).ok()?;
    let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA1_FOR_LEGACY_USE_ONLY, &octets);
    d.as_ref().try_into().ok()
}

/// The EncryptedData a ReferenceList lists (XML-Enc §3.6), in order.
fn data_references<'a, 'i>(
    list: Node<'a, 'i>,
    ids: &Ids<'a, 'i>,
) -> Result<Vec<Node<'a, 'i>>, WssError> {
    let mut targets = Vec::new();
    for r in elements(list) {
        if !r.has_tag_name((XENC_NS, "DataReference")) {
            return Err(malformed(
                r,
                "a ReferenceList may hold only DataReferences here",
            ));
        }
        let uri = r.attribute("URI").unwrap_or("");
        let id = uri
            .strip_prefix('#')
            .ok_or_else(|| malformed(r, "DataReference URI is not a same-document #Id"))?;
        let ed = ids
            .get(id)
            .copied()
            .filter(|n| n.has_tag_name((XENC_NS, "EncryptedData")))
            .ok_or_else(|| malformed(r, &format!("#{id} is not an EncryptedData")))?;
        targets.push(ed);
    }
    Ok(targets)
}

/// EncryptedData anywhere in the Body or Header that carry their EncryptedKey inline in
/// `ds:KeyInfo` (plain XML-Enc, as xmlsec1 writes it).
pub(crate) fn inline_encrypted_data(
    cfg: &WssConfig,
    shape: &Shape<'_, '_>,
) -> Result<Vec<Edit>, WssError> {
    let mut edits = Vec::new();
    let mut tokens = None;
    let mut roots = vec![shape.body];
    roots.extend(shape.header);
    for root in roots {
        for ed in root
            .descendants()
            .filter(|n| n.has_tag_name((XENC_NS, "EncryptedData")))
        {
            // Only the outermost: nested ones are decrypted in a later pass.
            if ed
                .ancestors()
                .skip(1)
                .any(|a| a.has_tag_name((XENC_NS, "EncryptedData")))
            {
                continue;
            }
            let Some(ek) =
                child(ed, DS_NS, "KeyInfo").and_then(|k| child(k, XENC_NS, "EncryptedKey"))
            else {
                continue;
            };
            let tokens = match &mut tokens {
                Some(t) => t,
                None => tokens.insert(match shape.security {
                    Some(s) => super::verify::tokens(s)?,
                    None => HashMap::new(),
                }),
            };
            let key = Unwrapper::new(cfg, tokens, ek)?;
            edits.push(decrypt_data(cfg, shape, &ContentKey::Wrapped(&key), ed)?);
        }
    }
    Ok(edits)
}

/// What one pass of decryption did to a document: the new text, the parts decrypted, and each
/// replacement as (the range replaced in the old text, the plaintext's range in the new one).
pub(crate) struct Applied {
    pub(crate) text: String,
    pub(crate) parts: Vec<MessagePart>,
    pub(crate) replaced: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)>,
}

impl Applied {
    /// Where offset `p` of the old text is in the new one (a replacement that ends at or before
    /// `p` moves it by its change in length).
    pub(crate) fn moved(&self, p: usize) -> usize {
        self.replaced
            .iter()
            .filter(|(old, _)| old.end <= p)
            .fold(p, |p, (old, new)| p + new.len() - old.len())
    }
}

/// Replaces each edited range by its plaintext.
pub(crate) fn apply(doc: &str, mut edits: Vec<Edit>) -> Result<Applied, WssError> {
    edits.sort_by_key(|e| e.range.start);
    let mut out = String::with_capacity(doc.len());
    let mut at = 0;
    let mut parts = Vec::with_capacity(edits.len());
    let mut replaced = Vec::with_capacity(edits.len());
    for e in edits {
        if e.range.start < at {
            return Err(WssError::Malformed {
                path: "EncryptedData".to_owned(),
                reason: "one EncryptedData is listed twice or nested in another".to_owned(),
            });
        }
        out.push_str(doc.get(at..e.range.start).unwrap_or_default());
        let start = out.len();
        out.push_str(&e.plaintext);
        replaced.push((e.range.clone(), start..out.len()));
        at = e.range.end;
        parts.push(e.part);
    }
    out.push_str(doc.get(at..).unwrap_or_default());
    Ok(Applied {
        text: out,
        parts,
        replaced,
    })
}

/// An EncryptedKey checked to be for this client, its key not yet unwrapped (the key length comes
/// from the EncryptedData's algorithm, needed by RSA-1_5's implicit rejection).
struct Unwrapper {
    transport: KeyTransport,
    cipher: Vec<u8>,
    credential: super::X509Credential,
}

impl Unwrapper {
    fn new(
        cfg: &WssConfig,
        tokens: &HashMap<String, Certificate>,
        ek: Node<'_, '_>,
    ) -> Result<Self, WssError> {
        let credential = cfg.decryption_credential().cloned().ok_or_else(|| {
            malformed(
                ek,
                "the message is encrypted for this party, but no decryption key is configured (WssConfig::decrypt_with)",
            )
        })?;
        let method = child(ek, XENC_NS, "EncryptionMethod")
            .ok_or_else(|| malformed(ek, "EncryptedKey without EncryptionMethod"))?;
        let uri = method.attribute("Algorithm").unwrap_or("");
        // RSA-OAEP parameters (XML-Enc §5.4.2, 1.1 §5.5.2): SHA-1 digest and MGF1-SHA1 only.
        let digest = child(method, DS_NS, "DigestMethod").and_then(|d| d.attribute("Algorithm"));
        let mgf = child(method, XENC11_NS, "MGF").and_then(|m| m.attribute("Algorithm"));
        let transport = KeyTransport::from_method(uri, digest, mgf)
            .filter(|_| cfg.algorithm_policy().allows(uri))
            .ok_or_else(|| WssError::AlgorithmNotAllowed {
                role: "key transport",
                uri: match (digest, mgf) {
                    (None, None) => uri.to_owned(),
                    _ => format!("{uri} (DigestMethod {digest:?}, MGF {mgf:?})"),
                },
            })?;
        if let Some(k) = child(ek, DS_NS, "KeyInfo") {
            let first = elements(k)
                .next()
                .ok_or_else(|| malformed(k, "an empty KeyInfo"))?;
            if !names(first, credential.certificate(), tokens) {
                return Err(malformed(
                    ek,
                    &format!(
                        "the EncryptedKey is not for this client's certificate {}",
                        credential.certificate().subject()
                    ),
                ));
            }
        }
        let cipher_value = child(ek, XENC_NS, "CipherData")
            .and_then(|c| child(c, XENC_NS, "CipherValue"))
            .ok_or_else(|| malformed(ek, "EncryptedKey without CipherData/CipherValue"))?;
        let cipher = base64(cipher_value).map_err(|r| malformed(cipher_value, &r))?;
        Ok(Unwrapper {
            transport,
            cipher,
            credential,
        })
    }

    fn key(&self, len: usize) -> Result<Vec<u8>, WssError> {
        self.transport.unwrap(&self.credential, &self.cipher, len)
    }
}

/// Whether a KeyInfo child names `cert` (WSS 1.1 §7, X.509 Token Profile 1.1 §3.2, XML-DSig
/// §4.4.4).
fn names(n: Node<'_, '_>, cert: &Certificate, tokens: &HashMap<String, Certificate>) -> bool {
    let by_x509_data = |d: Node<'_, '_>| -> bool {
        elements(d).any(|i| match i.tag_name().name() {
            "X509Certificate" => base64(i).is_ok_and(|der| der == cert.der()),
            "X509SKI" => {
                base64(i).is_ok_and(|s| Some(s.as_slice()) == cert.subject_key_identifier())
            }
            "X509IssuerSerial" => {
                let t = |name: &str| {
                    child(i, DS_NS, name)
                        .map(|x| super::verify::text(x).trim().to_owned())
                        .unwrap_or_default()
                };
                cert.matches_issuer_serial(&t("X509IssuerName"), &t("X509SerialNumber"))
            }
            _ => false,
        })
    };
    if n.has_tag_name((DS_NS, "X509Data")) {
        return by_x509_data(n);
    }
    if !n.has_tag_name((WSSE_NS, "SecurityTokenReference")) {
        return false;
    }
    elements(n).any(
        |i| match (i.tag_name().namespace().unwrap_or(""), i.tag_name().name()) {
            (WSSE_NS, "KeyIdentifier") => {
                let Ok(v) = base64(i) else { return false };
                match i.attribute("ValueType").unwrap_or("") {
                    X509_SKI => Some(v.as_slice()) == cert.subject_key_identifier(),
                    THUMBPRINT_SHA1 => v[..] == cert.sha1_thumbprint()[..],
                    X509V3 => v == cert.der(),
                    _ => false,
                }
            }
            (WSSE_NS, "Reference") => i
                .attribute("URI")
                .and_then(|u| u.strip_prefix('#'))
                .and_then(|id| tokens.get(id))
                .is_some_and(|t| t.der() == cert.der()),
            (DS_NS, "X509Data") => by_x509_data(i),
            _ => false,
        },
    )
}

/// The content-encryption key of an EncryptedData: wrapped in an EncryptedKey for this client,
/// or a SymmetricBinding's request key (or a key derived from it).
enum ContentKey<'k> {
    Wrapped(&'k Unwrapper),
    Raw(Vec<u8>),
}

impl ContentKey<'_> {
    /// The key for a cipher of `len`-byte keys; a raw key of another length is the one
    /// [`WssError::DecryptionFailed`].
    fn key(&self, len: usize) -> Result<Vec<u8>, WssError> {
        match self {
            ContentKey::Wrapped(u) => u.key(len),
            ContentKey::Raw(k) if k.len() == len => Ok(k.clone()),
            ContentKey::Raw(_) => Err(WssError::DecryptionFailed),
        }
    }
}

/// Decrypts one EncryptedData with the key of `key`.
fn decrypt_data(
    cfg: &WssConfig,
    shape: &Shape<'_, '_>,
    key: &ContentKey<'_>,
    ed: Node<'_, '_>,
) -> Result<Edit, WssError> {
    let method = child(ed, XENC_NS, "EncryptionMethod")
        .ok_or_else(|| malformed(ed, "EncryptedData without EncryptionMethod"))?;
    let uri = method.attribute("Algorithm").unwrap_or("");
    let block = BlockEncryption::from_uri(uri)
        .filter(|_| cfg.algorithm_policy().allows(uri))
        .ok_or_else(|| WssError::AlgorithmNotAllowed {
            role: "block encryption",
            uri: uri.to_owned(),
        })?;
    let kind = ed.attribute("Type").unwrap_or(ELEMENT);
    if kind != CONTENT && kind != ELEMENT {
        return Err(malformed(
            ed,
            &format!("EncryptedData Type {kind:?} is not supported"),
        ));
    }
    let cipher_value = child(ed, XENC_NS, "CipherData")
        .and_then(|c| child(c, XENC_NS, "CipherValue"))
        .ok_or_else(|| {
            malformed(
                ed,
                "EncryptedData without CipherData/CipherValue (CipherReference is not supported)",
            )
        })?;
    let data = base64(cipher_value).map_err(|r| malformed(cipher_value, &r))?;
    let cek = key.key(block.key_len())?;
    let plain = block.decrypt(&cek, &data)?;
    let plaintext = String::from_utf8(plain).map_err(|_| WssError::DecryptionFailed)?;
    check_fragment(&plaintext, kind == ELEMENT)?;
    // A WSS 1.1 §9.3 EncryptedHeader is replaced as a whole by the header it hides.
    let parent = ed.parent().filter(|p| p.is_element());
    let outer = parent
        .filter(|p| p.has_tag_name((WSSE11_NS, "EncryptedHeader")))
        .unwrap_or(ed);
    let replaced_parent = outer.parent().filter(|p| p.is_element());
    let part = if replaced_parent == Some(shape.body) {
        MessagePart::Body
    } else if replaced_parent.is_some() && replaced_parent == shape.header {
        let (namespace, name) = first_element_name(ed, &plaintext);
        MessagePart::Header { namespace, name }
    } else if replaced_parent.is_some() && replaced_parent == shape.security {
        MessagePart::SecurityToken(first_element_name(ed, &plaintext).1)
    } else {
        MessagePart::Other(super::verify::path(outer))
    };
    Ok(Edit {
        range: outer.range(),
        plaintext,
        part,
    })
}

/// The namespace and local name of the first element of a plaintext fragment: its prefix
/// resolved by the element's own declarations, else in the EncryptedData's context.
fn first_element_name(ed: Node<'_, '_>, fragment: &str) -> (String, String) {
    use quick_xml::events::Event;
    let mut r = quick_xml::Reader::from_str(fragment);
    loop {
        match r.read_event() {
            Ok(Event::Start(t) | Event::Empty(t)) => {
                let qname = String::from_utf8_lossy(t.name().as_ref()).into_owned();
                let (prefix, local) = match qname.split_once(':') {
                    Some((p, l)) => (Some(p.to_owned()), l.to_owned()),
                    None => (None, qname.clone()),
                };
                let wanted = match &prefix {
                    Some(p) => format!("xmlns:{p}"),
                    None => "xmlns".to_owned(),
                };
                let own = t.attributes().flatten().find_map(|a| {
                    (a.key.as_ref() == wanted.as_bytes())
                        .then(|| String::from_utf8_lossy(&a.value).into_owned())
                });
                let ns = own
                    .or_else(|| {
                        ed.lookup_namespace_uri(prefix.as_deref())
                            .map(str::to_owned)
                    })
                    .unwrap_or_default();
                return (ns, local);
            }
            Ok(Event::Eof) | Err(_) => return (String::new(), String::new()),
            Ok(_) => {}
        }
    }
}

/// The plaintext must be balanced content (or exactly one element, for `Type=…#Element`): start
/// and end tags that match and never close an element opened outside the plaintext, no DOCTYPE, no
/// XML declaration — nothing that could restructure the envelope around it. Checked with a
/// streaming reader (no tree); the full well-formedness and namespace check is the re-parse of the
/// decrypted envelope, whose failure is reported as [`WssError::DecryptionFailed`] too. Any
/// failure here is [`WssError::DecryptionFailed`].
fn check_fragment(plaintext: &str, element: bool) -> Result<(), WssError> {
    use quick_xml::events::Event;
    let mut r = quick_xml::Reader::from_str(plaintext);
    r.config_mut().check_end_names = true;
    let mut depth = 0usize;
    let mut top_elements = 0usize;
    loop {
        match r.read_event().map_err(|_| WssError::DecryptionFailed)? {
            Event::Start(_) => {
                top_elements += usize::from(depth == 0);
                depth += 1;
            }
            Event::Empty(_) => top_elements += usize::from(depth == 0),
            Event::End(_) => {
                depth = depth.checked_sub(1).ok_or(WssError::DecryptionFailed)?;
            }
            Event::Text(t) if depth == 0 && element && !t.iter().all(u8::is_ascii_whitespace) => {
                return Err(WssError::DecryptionFailed);
            }
            Event::CData(_) | Event::GeneralRef(_) if depth == 0 && element => {
                return Err(WssError::DecryptionFailed);
            }
            Event::Decl(_) | Event::DocType(_) => return Err(WssError::DecryptionFailed),
            Event::Eof => break,
            _ => {}
        }
    }
    if depth != 0 || (element && top_elements != 1) {
        return Err(WssError::DecryptionFailed);
    }
    Ok(())
}
