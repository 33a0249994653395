//! The parsed response envelope as verification reads it: parsed by the reader's tokenizer with
//! its limits applied and DTDs refused, its shape (Envelope, Header, Body, the Security header addressed to
//! this client: SOAP 1.1 §4.2.2 actor, SOAP 1.2 Part 1 §5.2.2 role), every `wsu:Id`/`Id`/`ID`
//! unique (WSS 1.1 §4, the signature-wrapping defence), element paths for errors, and text and
//! base64 content.

use std::borrow::Cow;

use crate::message::SoapVersion;
use crate::wss::{WssError, WSSE_NS, WSU_NS};
use crate::xml::read::tree::{Document, Node};
use crate::xml::Limits;
use crate::xml::XML_NS;

/// Parses with the reader's tokenizer and limits (depth, attributes per element); a DOCTYPE is
/// refused.
pub(super) fn parse(doc: &str, limits: Limits) -> Result<Document<'_>, WssError> {
    Document::parse(doc, limits).map_err(|e| WssError::Read(e.to_string()))
}

pub(super) fn position(n: Node<'_, '_>) -> String {
    let p = n.document().text_pos_at(n.range().start);
    format!("{} (line {}, column {})", path(n), p.row, p.col)
}

/// `/Envelope/Header/Security/Signature`-style path of an element.
pub(crate) fn path(n: Node<'_, '_>) -> String {
    let mut names: Vec<&str> = n
        .ancestors()
        .filter(Node::is_element)
        .map(|a| a.tag_name().name())
        .collect();
    names.reverse();
    let mut s = String::new();
    for name in names {
        s.push('/');
        s.push_str(name);
    }
    s
}

pub(crate) fn malformed(n: Node<'_, '_>, reason: &str) -> WssError {
    let p = n.document().text_pos_at(n.range().start);
    WssError::Malformed {
        path: format!("{} (line {}, column {})", path(n), p.row, p.col),
        reason: reason.to_owned(),
    }
}

pub(super) fn shape<'a, 'i>(d: &'a Document<'i>) -> Result<Shape<'a, 'i>, WssError> {
    let root = d.root_element();
    let version =
        SoapVersion::from_envelope_namespace(root.tag_name().namespace().unwrap_or("").as_bytes())
            .filter(|_| root.tag_name().name() == "Envelope")
            .ok_or_else(|| WssError::Read("the response is not a SOAP envelope".to_owned()))?;
    let env_ns = version.envelope_namespace();
    let mut header = None;
    let mut body = None;
    for (i, c) in root.children().filter(Node::is_element).enumerate() {
        if c.has_tag_name((env_ns, "Header")) {
            if i != 0 {
                return Err(malformed(c, "Header is not the first child of Envelope"));
            }
            header = Some(c);
        } else if c.has_tag_name((env_ns, "Body")) {
            if body.is_some() {
                return Err(malformed(c, "a second Body (refused: signature wrapping)"));
            }
            body = Some(c);
        }
    }
    let body = body.ok_or_else(|| WssError::Read("the envelope has no Body".to_owned()))?;
    let mut security = None;
    if let Some(h) = header {
        for c in h.children().filter(Node::is_element) {
            if c.has_tag_name((WSSE_NS, "Security")) && for_us(c, version) {
                if security.is_some() {
                    return Err(WssError::DuplicateSecurityHeader);
                }
                security = Some(c);
            }
        }
    }
    Ok(Shape {
        header,
        body,
        security,
    })
}

/// Whether a Security block is addressed to this client, the ultimate receiver of a response
/// (WSS 1.1 §5): no `actor`/`role` (or an empty one), SOAP 1.2's `…/role/ultimateReceiver`, or
/// the role every receiver plays — SOAP 1.1 §4.2.2 `http://schemas.xmlsoap.org/soap/actor/next`,
/// SOAP 1.2 Part 1 §5.2.2 `http://www.w3.org/2003/05/soap-envelope/role/next`. Two such blocks
/// are refused as [`WssError::DuplicateSecurityHeader`].
fn for_us(n: Node<'_, '_>, version: SoapVersion) -> bool {
    let ns = version.envelope_namespace();
    match version {
        SoapVersion::Soap11 => n.attribute((ns, "actor")).is_none_or(|a| {
            let a = a.trim();
            a.is_empty() || a == "http://schemas.xmlsoap.org/soap/actor/next"
        }),
        SoapVersion::Soap12 => n.attribute((ns, "role")).is_none_or(|a| {
            let a = a.trim();
            a.is_empty()
                || a == "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver"
                || a == "http://www.w3.org/2003/05/soap-envelope/role/next"
        }),
    }
}

/// Every Id of the document (`wsu:Id`, unqualified `Id`, `xml:id`), each on one element only;
/// looked up by value.
pub(crate) struct Ids<'a, 'i> {
    /// Sorted by Id.
    by_id: Vec<(&'a str, Node<'a, 'i>)>,
}

impl<'a, 'i> Ids<'a, 'i> {
    /// The element whose Id is `id`.
    pub(crate) fn get(&self, id: &str) -> Option<&Node<'a, 'i>> {
        self.by_id
            .binary_search_by(|(k, _)| (*k).cmp(id))
            .ok()
            .map(|i| &self.by_id[i].1)
    }
}

/// The Ids of `d`; one Id on two elements is [`WssError::DuplicateId`] (the same Id twice on
/// one element, as `wsu:Id` and `Id`, is one).
pub(super) fn ids<'a, 'i>(d: &'a Document<'i>) -> Result<Ids<'a, 'i>, WssError> {
    let mut by_id: Vec<(&'a str, Node<'a, 'i>)> = Vec::new();
    for n in d.descendants().filter(Node::is_element) {
        for a in n.attributes() {
            let is_id = matches!(
                (a.namespace(), a.name()),
                (Some(WSU_NS), "Id") | (None, "Id") | (Some(XML_NS), "id")
            );
            if is_id {
                by_id.push((a.value(), n));
            }
        }
    }
    by_id.sort_by_key(|(k, n)| (*k, n.index()));
    by_id.dedup_by(|b, a| a == b);
    if let Some(w) = by_id.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(WssError::DuplicateId(w[0].0.to_owned()));
    }
    Ok(Ids { by_id })
}

/// The base64 text content of an element (whitespace anywhere ignored: the decoder skips it).
pub(crate) fn base64(n: Node<'_, '_>) -> Result<Vec<u8>, String> {
    crate::base64::decode(text(n).as_bytes()).map_err(|e| format!("not base64: {e}"))
}

/// The text content of an element (text and CDATA children, comments skipped).
pub(crate) fn text<'a>(n: Node<'a, '_>) -> Cow<'a, str> {
    let mut parts = n.children().filter(Node::is_text).filter_map(|t| t.text());
    match (parts.next(), parts.next()) {
        (None, _) => Cow::Borrowed(""),
        (Some(one), None) => Cow::Borrowed(one),
        (Some(a), Some(b)) => {
            let mut s = String::from(a);
            s.push_str(b);
            for p in parts {
                s.push_str(p);
            }
            Cow::Owned(s)
        }
    }
}

pub(crate) fn child<'a, 'i>(n: Node<'a, 'i>, ns: &str, name: &str) -> Option<Node<'a, 'i>> {
    n.children().find(|c| c.has_tag_name((ns, name)))
}

pub(crate) fn elements<'a, 'i>(n: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    n.children().filter(Node::is_element)
}

/// A part of a response that a verified signature covered or that was decrypted, identified by
/// its position in the envelope.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MessagePart {
    /// The envelope's `Body` (the one child of `Envelope` of that name).
    Body,
    /// The `wsu:Timestamp` of the Security header addressed to this client.
    Timestamp,
    /// A header block (a child of `Header`), by namespace and local name.
    Header {
        /// Namespace URI (empty if none).
        namespace: String,
        /// Local name.
        name: String,
    },
    /// A token or other element of the Security header (BinarySecurityToken, UsernameToken,
    /// EncryptedKey…), by local name.
    SecurityToken(String),
    /// Any other element, by its path: not a part any policy can ask for (a signed `Body`
    /// that is not the envelope's Body shows up here).
    Other(String),
}

impl std::fmt::Display for MessagePart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessagePart::Body => f.write_str("Body"),
            MessagePart::Timestamp => f.write_str("Timestamp"),
            MessagePart::Header { namespace, name } => write!(f, "header {{{namespace}}}{name}"),
            MessagePart::SecurityToken(n) => write!(f, "security token {n}"),
            MessagePart::Other(p) => write!(f, "element {p}"),
        }
    }
}

/// The structural positions of an envelope.
pub(crate) struct Shape<'a, 'i> {
    pub(crate) header: Option<Node<'a, 'i>>,
    pub(crate) body: Node<'a, 'i>,
    pub(crate) security: Option<Node<'a, 'i>>,
}
