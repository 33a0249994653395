//! The parsed response envelope as verification reads it: parsed with DTDs refused and the
//! reader's limits applied, its shape (Envelope, Header, Body, the Security header addressed to
//! this client: SOAP 1.1 §4.2.2 actor, SOAP 1.2 Part 1 §5.2.2 role), every `wsu:Id`/`Id`/`ID`
//! unique (WSS 1.1 §4, the signature-wrapping defence), element paths for errors, and text and
//! base64 content.

use super::*;

/// Parses with DTDs refused and the node count bounded, and checks the depth and attribute limits.
pub(super) fn parse(doc: &str, limits: Limits) -> Result<Document<'_>, WssError> {
    let opts = ParsingOptions {
        allow_dtd: false,
        nodes_limit: u32::try_from(doc.len().saturating_add(16)).unwrap_or(u32::MAX),
    };
    let d = Document::parse_with_options(doc, opts)
        .map_err(|e| WssError::Read(format!("{e} (a DOCTYPE is refused)")))?;
    // Depth and attribute count, the reader's limits (iterative: no recursion on input).
    // Depth of each element by node id (ids follow document order, so parents come first).
    let mut depth: Vec<usize> = Vec::new();
    for n in d.descendants().filter(Node::is_element) {
        let level = n
            .parent()
            .and_then(|p| depth.get(p.id().get_usize()).copied())
            .unwrap_or(0)
            + 1;
        if level > limits.max_depth {
            return Err(WssError::Read(format!(
                "element nesting deeper than {} at {}",
                limits.max_depth,
                position(n)
            )));
        }
        if n.attributes().len() > limits.max_attributes {
            return Err(WssError::Read(format!(
                "more than {} attributes at {}",
                limits.max_attributes,
                position(n)
            )));
        }
        if n.has_children() {
            let i = n.id().get_usize();
            if depth.len() <= i {
                depth.resize(i + 1, 0);
            }
            depth[i] = level;
        }
    }
    Ok(d)
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

/// Every Id of the document (`wsu:Id`, unqualified `Id`, `xml:id`), each on one element only.
pub(super) fn ids<'a, 'i>(d: &'a Document<'i>) -> Result<HashMap<&'a str, Node<'a, 'i>>, WssError> {
    let mut out: HashMap<&'a str, Node<'a, 'i>> = HashMap::new();
    for n in d.descendants().filter(Node::is_element) {
        for a in n.attributes() {
            let is_id = matches!(
                (a.namespace(), a.name()),
                (Some(WSU_NS), "Id") | (None, "Id") | (Some(XML_NS), "id")
            );
            if !is_id {
                continue;
            }
            if let Some(other) = out.insert(a.value(), n) {
                if other != n {
                    return Err(WssError::DuplicateId(a.value().to_owned()));
                }
            }
        }
    }
    Ok(out)
}

/// The base64 text content of an element (whitespace anywhere ignored).
pub(crate) fn base64(n: Node<'_, '_>) -> Result<Vec<u8>, String> {
    let mut compact: Vec<u8> = Vec::new();
    for t in n.children().filter(Node::is_text).filter_map(|t| t.text()) {
        compact.extend(t.bytes().filter(|b| !b.is_ascii_whitespace()));
    }
    crate::base64::decode(&compact).map_err(|e| format!("not base64: {e}"))
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
