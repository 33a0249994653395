//! Exclusive XML Canonicalization 1.0, without comments (W3C Recommendation 18 July 2002,
//! `http://www.w3.org/2001/10/xml-exc-c14n#`), of one element and its descendants; and the
//! inclusive Canonical XML 1.0 (W3C Recommendation 15 March 2001) and 1.1 (W3C Recommendation 2
//! May 2008), without comments, of the same document subset, for verifiers that opt in.
//!
//! The element (the apex) is found by its byte offset in a document that has no DOCTYPE (soapgen
//! refuses those). The output follows Canonical XML 1.0 §2.3 for what it writes — UTF-8, line
//! ends as `#xA`, attribute values normalised, character and entity references replaced, empty
//! elements as start-end pairs, namespace declarations then attributes in order, comments
//! removed, CDATA sections as text — and Exclusive C14N §3 for which namespace declarations it
//! writes: those visibly utilized by an element (its own prefix and its attributes' prefixes) or
//! named in the InclusiveNamespaces `PrefixList`, when the nearest output ancestor did not already
//! write the same one. `xml:` attributes of ancestors are not inherited (Exclusive C14N §3).
//!
//! The inclusive forms write every namespace declaration in scope on the apex (and below, where
//! one changes), and carry the `xml:` attributes of the apex's ancestors onto it (Canonical XML
//! 1.0 §2.4: all of them; 1.1 §2.4: `xml:lang` and `xml:space`, not `xml:id`; an inherited
//! `xml:base`, which 1.1 would have to resolve against the apex's, is refused).

use std::borrow::Cow;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::WssError;
use crate::xml::read::tree::{Node, NodeType};

/// Canonical XML 1.0 (inclusive, without comments), XML-DSig §6.5.1.
pub const C14N_10: &str = "http://www.w3.org/TR/2001/REC-xml-c14n-20010315";
/// Canonical XML 1.1 (inclusive, without comments), XML-DSig 1.1 §6.5.2.
pub const C14N_11: &str = "http://www.w3.org/2006/12/xml-c14n11";

const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";

/// Writes the exclusive canonical form (without comments) of the element whose start tag begins
/// at byte `apex` of `document` into `out`. `inclusive_prefixes` is the InclusiveNamespaces
/// `PrefixList` (Exclusive C14N §3): prefixes whose in-scope declaration is written on the apex
/// (and on descendants where it changes) even if not visibly utilized; `"#default"` names the
/// default namespace.
///
/// The namespace context of the apex comes from its ancestors in `document`, which is read from
/// its start to the end of the apex element (nothing after it).
///
/// # Errors
///
/// [`WssError::Canonicalization`] if `document` is not well-formed up to the end of the apex, has
/// a DOCTYPE or an undefined entity, uses an undeclared prefix, or has no start tag at `apex`.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::wss::exclusive_c14n;
/// let doc = r#"<a xmlns:x="urn:x" xmlns:y="urn:y"><x:b z="2" x:a="1"  y='&lt;'/></a>"#;
/// let apex = doc.find("<x:b").unwrap();
/// let mut out = Vec::new();
/// exclusive_c14n(doc, apex, &[], &mut out)?;
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     r#"<x:b xmlns:x="urn:x" y="&lt;" z="2" x:a="1"></x:b>"#
/// );
/// # Ok::<(), soapgen_runtime::wss::WssError>(())
/// ```
pub fn exclusive_c14n(
    document: &str,
    apex: usize,
    inclusive_prefixes: &[&str],
    out: &mut Vec<u8>,
) -> Result<(), WssError> {
    canonicalize(
        document,
        apex,
        C14nMethod::Exclusive,
        inclusive_prefixes,
        out,
    )
}

/// A canonicalization algorithm (XML-DSig §6.5), all without comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum C14nMethod {
    /// Exclusive XML Canonicalization 1.0, `http://www.w3.org/2001/10/xml-exc-c14n#` (the one
    /// WS-I BSP 1.1 R5404 allows).
    Exclusive,
    /// Canonical XML 1.0, `http://www.w3.org/TR/2001/REC-xml-c14n-20010315`.
    Inclusive10,
    /// Canonical XML 1.1, `http://www.w3.org/2006/12/xml-c14n11`.
    Inclusive11,
}

impl C14nMethod {
    /// The algorithm URI.
    pub const fn uri(self) -> &'static str {
        match self {
            C14nMethod::Exclusive => "http://www.w3.org/2001/10/xml-exc-c14n#",
            C14nMethod::Inclusive10 => C14N_10,
            C14nMethod::Inclusive11 => C14N_11,
        }
    }

    /// The method of an algorithm URI, if it is one of these.
    pub fn from_uri(uri: &str) -> Option<C14nMethod> {
        [
            C14nMethod::Exclusive,
            C14nMethod::Inclusive10,
            C14nMethod::Inclusive11,
        ]
        .into_iter()
        .find(|m| m.uri() == uri)
    }
}

/// Writes the canonical form by `method` (without comments) of the element whose start tag
/// begins at byte `apex` of `document` into `out`, as [`exclusive_c14n`] does for
/// [`C14nMethod::Exclusive`]; `inclusive_prefixes` (the InclusiveNamespaces `PrefixList`) only
/// means something there, the inclusive methods render every namespace in scope anyway.
///
/// # Errors
///
/// As [`exclusive_c14n`]; for [`C14nMethod::Inclusive11`] also an `xml:base` on an ancestor of
/// the apex (Canonical XML 1.1 §2.4 would resolve it; soapgen does not).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::wss::{canonicalize, C14nMethod};
/// let doc = r#"<a xmlns:x="urn:x" xmlns:y="urn:y" xml:lang="en"><x:b/></a>"#;
/// let mut out = Vec::new();
/// canonicalize(doc, doc.find("<x:b").unwrap(), C14nMethod::Inclusive10, &[], &mut out)?;
/// assert_eq!(
///     String::from_utf8(out).unwrap(),
///     r#"<x:b xmlns:x="urn:x" xmlns:y="urn:y" xml:lang="en"></x:b>"#
/// );
/// # Ok::<(), soapgen_runtime::wss::WssError>(())
/// ```
pub fn canonicalize(
    document: &str,
    apex: usize,
    method: C14nMethod,
    inclusive_prefixes: &[&str],
    out: &mut Vec<u8>,
) -> Result<(), WssError> {
    let err = |what: String| WssError::Canonicalization(what);
    let mut reader = Reader::from_str(document);
    reader.config_mut().check_end_names = true;
    reader.config_mut().expand_empty_elements = true;

    // In-scope declarations of every open element: (prefix, uri), "" = default namespace.
    let mut scopes: Vec<Vec<(String, String)>> = Vec::new();
    // For each open element inside the output: the declarations the canonical form rendered on it.
    let mut rendered: Vec<Vec<(String, String)>> = Vec::new();
    let mut inside = false;
    let mut depth_in_apex = 0usize;
    // Inclusive methods: the `xml:` attributes of the open elements above the apex.
    let inclusive = method != C14nMethod::Exclusive;
    let mut xml_attrs: Vec<Vec<(String, String)>> = Vec::new();

    loop {
        let pos = reader.buffer_position() as usize;
        let event = reader
            .read_event()
            .map_err(|e| err(format!("at byte {pos}: {e}")))?;
        match event {
            Event::Start(start) => {
                let decls = declarations(&start)?;
                scopes.push(decls);
                let mut inherited = Vec::new();
                if !inside && pos == apex {
                    inside = true;
                    if inclusive {
                        inherited = inherited_xml_attributes(&xml_attrs, method)?;
                    }
                } else if !inside && inclusive {
                    xml_attrs.push(xml_attributes(&start)?);
                }
                if inside {
                    depth_in_apex += 1;
                    let how = Rendering {
                        inclusive,
                        prefixes: inclusive_prefixes,
                        inherited: &inherited,
                    };
                    write_start(&start, &scopes, &mut rendered, &how, out)?;
                }
            }
            Event::End(end) => {
                scopes.pop();
                if !inside && inclusive {
                    xml_attrs.pop();
                }
                if inside {
                    out.extend_from_slice(b"</");
                    out.extend_from_slice(end.name().as_ref());
                    out.push(b'>');
                    rendered.pop();
                    depth_in_apex -= 1;
                    if depth_in_apex == 0 {
                        return Ok(());
                    }
                }
            }
            Event::Text(t) if inside => {
                let raw = std::str::from_utf8(t.as_ref()).map_err(|e| err(e.to_string()))?;
                escape_text(&normalize_line_ends(raw), out);
            }
            Event::CData(c) if inside => {
                let raw = std::str::from_utf8(c.as_ref()).map_err(|e| err(e.to_string()))?;
                escape_text(&normalize_line_ends(raw), out);
            }
            Event::GeneralRef(r) if inside => {
                let name = std::str::from_utf8(r.as_ref()).map_err(|e| err(e.to_string()))?;
                let c = resolve_reference(name)
                    .ok_or_else(|| err(format!("undefined entity &{name};")))?;
                let mut buf = [0u8; 4];
                escape_text(c.encode_utf8(&mut buf), out);
            }
            Event::PI(pi) if inside => {
                out.extend_from_slice(b"<?");
                let raw = std::str::from_utf8(pi.as_ref()).map_err(|e| err(e.to_string()))?;
                let raw = normalize_line_ends(raw);
                // Target, then one space and the data if there is any (C14N §2.3).
                match raw.find(|c: char| c.is_ascii_whitespace()) {
                    Some(i) => {
                        out.extend_from_slice(raw[..i].as_bytes());
                        let data = raw[i..].trim_start();
                        if !data.is_empty() {
                            out.push(b' ');
                            out.extend_from_slice(data.as_bytes());
                        }
                    }
                    None => out.extend_from_slice(raw.as_bytes()),
                }
                out.extend_from_slice(b"?>");
            }
            Event::DocType(_) => return Err(err("a DOCTYPE is not accepted".to_owned())),
            Event::Eof => {
                return Err(err(if inside {
                    "the document ends inside the element".to_owned()
                } else {
                    format!("no element starts at byte {apex}")
                }))
            }
            Event::Empty(_) => unreachable_empty()?,
            _ => {}
        }
    }
}

/// [`exclusive_c14n`] of `apex`, an element of a document already parsed
/// ([`crate::xml::read::tree`]): the same output, from the tree — no second reading of the text.
/// Element and attribute prefixes are as written in the source, namespaces from the tree's
/// in-scope declarations, text and attribute values as the parser
/// normalised them (XML 1.0 §2.11, §3.3.3), which is what Canonical XML 1.0 §2.3 writes.
///
/// # Errors
///
/// [`WssError::Canonicalization`] for a prefix without an in-scope declaration (which the parser
/// already refuses) or a node whose range is not in `document`.
pub(crate) fn exclusive_c14n_node(
    apex: Node<'_, '_>,
    inclusive_prefixes: &[&str],
    out: &mut Vec<u8>,
) -> Result<(), WssError> {
    // Declarations rendered by the open output elements: a flat list, and where each element's
    // own start (popped on its end tag).
    let mut rendered: Vec<(&str, &str)> = Vec::with_capacity(16);
    let mut frames: Vec<usize> = Vec::with_capacity(16);
    // Reused by every start tag: its attributes and the prefixes it utilizes.
    let mut scratch = (Vec::with_capacity(8), Vec::with_capacity(8));
    let mut node = apex;
    let mut entering = true;
    loop {
        if entering {
            match node.node_type() {
                NodeType::Element => {
                    frames.push(rendered.len());
                    node_start(node, inclusive_prefixes, &mut rendered, &mut scratch, out)?;
                    if let Some(c) = node.first_child() {
                        node = c;
                        continue;
                    }
                    node_end(node, &mut rendered, &mut frames, out);
                }
                NodeType::Text => escape_text(node.text().unwrap_or(""), out),
                NodeType::PI => {
                    if let Some(pi) = node.pi() {
                        out.extend_from_slice(b"<?");
                        out.extend_from_slice(pi.target.as_bytes());
                        let data = pi.value.map(|v| normalize_line_ends(v.trim_start()));
                        if let Some(d) = data.filter(|d| !d.is_empty()) {
                            out.push(b' ');
                            out.extend_from_slice(d.as_bytes());
                        }
                        out.extend_from_slice(b"?>");
                    }
                }
                NodeType::Comment | NodeType::Root => {}
            }
        }
        if node == apex {
            return Ok(());
        }
        if let Some(next) = node.next_sibling() {
            node = next;
            entering = true;
        } else {
            match node.parent() {
                Some(p) => node = p,
                None => return Ok(()),
            }
            node_end(node, &mut rendered, &mut frames, out);
            entering = false;
        }
    }
}

fn node_end(
    node: Node<'_, '_>,
    rendered: &mut Vec<(&str, &str)>,
    frames: &mut Vec<usize>,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(b"</");
    out.extend_from_slice(node.qname().as_bytes());
    out.push(b'>');
    rendered.truncate(frames.pop().unwrap_or(0));
}

/// A start tag's attributes (namespace URI, local name, qualified name, value) and the prefixes
/// it visibly utilizes, kept across start tags so that each reuses their room.
type Scratch<'a> = (Vec<(&'a str, &'a str, &'a str, &'a str)>, Vec<&'a str>);

/// The start tag of `node` (Exclusive C14N §3: the namespaces visibly utilized or listed, when
/// the nearest output ancestor did not render the same; then the attributes in order).
fn node_start<'a>(
    node: Node<'a, '_>,
    inclusive_prefixes: &[&'a str],
    rendered: &mut Vec<(&'a str, &'a str)>,
    scratch: &mut Scratch<'a>,
    out: &mut Vec<u8>,
) -> Result<(), WssError> {
    let err = |what: String| WssError::Canonicalization(what);
    let qname = node.qname();
    let elem_prefix = qname.split_once(':').map(|(p, _)| p).unwrap_or("");
    let (attrs, utilized) = scratch;
    attrs.clear();
    utilized.clear();
    utilized.push(elem_prefix);
    for a in node.attributes() {
        let q = a.qname();
        if let Some((p, _)) = q.split_once(':') {
            if p != "xml" {
                utilized.push(p);
            }
        }
        attrs.push((a.namespace().unwrap_or(""), a.name(), q, a.value()));
    }
    for p in inclusive_prefixes {
        utilized.push(if *p == "#default" { "" } else { p });
    }
    let frame = rendered.len();
    for (i, p) in utilized.iter().copied().enumerate() {
        if p == "xml" || utilized[..i].contains(&p) {
            continue;
        }
        // The element's own prefix resolved to its namespace when it was read.
        let own = if i == 0 {
            node.tag_name().namespace()
        } else {
            node.lookup_namespace_uri((!p.is_empty()).then_some(p))
        };
        let uri = match own {
            Some(u) => u,
            None if p.is_empty() => "",
            None if inclusive_prefixes.contains(&p) => continue,
            None => return Err(err(format!("undeclared prefix {p} on element {qname}"))),
        };
        let previous = rendered[..frame]
            .iter()
            .rev()
            .find(|(q, _)| *q == p)
            .map(|(_, u)| *u);
        let render = if p.is_empty() && uri.is_empty() {
            previous.is_some_and(|v| !v.is_empty())
        } else {
            previous != Some(uri)
        };
        if render {
            rendered.push((p, uri));
        }
    }
    rendered[frame..].sort_unstable_by_key(|r| r.0);
    attrs.sort_unstable_by_key(|a| (a.0, a.1));
    write_tag(
        out,
        qname,
        &rendered[frame..],
        attrs.iter().map(|(_, _, q, v)| (*q, *v)),
    );
    Ok(())
}

fn unreachable_empty() -> Result<(), WssError> {
    // `expand_empty_elements` turns every empty-element tag into Start + End.
    Err(WssError::Canonicalization(
        "internal: unexpanded empty element".to_owned(),
    ))
}

/// The namespace declarations on a start tag.
fn declarations(start: &BytesStart<'_>) -> Result<Vec<(String, String)>, WssError> {
    let mut decls = Vec::new();
    for a in start.attributes().with_checks(true) {
        let a = a.map_err(|e| WssError::Canonicalization(e.to_string()))?;
        let key = std::str::from_utf8(a.key.as_ref())
            .map_err(|e| WssError::Canonicalization(e.to_string()))?;
        let prefix = if key == "xmlns" {
            ""
        } else if let Some(p) = key.strip_prefix("xmlns:") {
            p
        } else {
            continue;
        };
        let raw =
            std::str::from_utf8(&a.value).map_err(|e| WssError::Canonicalization(e.to_string()))?;
        decls.push((prefix.to_owned(), attribute_value(raw)?.into_owned()));
    }
    Ok(decls)
}

fn lookup<'s>(scopes: &'s [Vec<(String, String)>], prefix: &str) -> Option<&'s str> {
    if prefix == "xml" {
        return Some(XML_NS);
    }
    for scope in scopes.iter().rev() {
        if let Some((_, uri)) = scope.iter().rev().find(|(p, _)| p == prefix) {
            return Some(uri);
        }
    }
    None
}

/// What the nearest output ancestor that rendered `prefix` rendered it as.
fn rendered_value<'r>(rendered: &'r [Vec<(String, String)>], prefix: &str) -> Option<&'r str> {
    for r in rendered.iter().rev() {
        if let Some((_, uri)) = r.iter().find(|(p, _)| p == prefix) {
            return Some(uri);
        }
    }
    None
}

/// The `xml:` attributes of a start tag: (local name, value).
fn xml_attributes(start: &BytesStart<'_>) -> Result<Vec<(String, String)>, WssError> {
    let mut out = Vec::new();
    for a in start.attributes().with_checks(true) {
        let a = a.map_err(|e| WssError::Canonicalization(e.to_string()))?;
        let key = std::str::from_utf8(a.key.as_ref())
            .map_err(|e| WssError::Canonicalization(e.to_string()))?;
        if let Some(local) = key.strip_prefix("xml:") {
            let raw = std::str::from_utf8(&a.value)
                .map_err(|e| WssError::Canonicalization(e.to_string()))?;
            out.push((local.to_owned(), attribute_value(raw)?.into_owned()));
        }
    }
    Ok(out)
}

/// The `xml:` attributes the apex inherits (Canonical XML 1.0 §2.4, 1.1 §2.4): for each name,
/// the nearest ancestor's value.
fn inherited_xml_attributes(
    ancestors: &[Vec<(String, String)>],
    method: C14nMethod,
) -> Result<Vec<(String, String)>, WssError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (name, value) in ancestors.iter().rev().flatten() {
        if out.iter().any(|(n, _)| n == name) {
            continue;
        }
        if method == C14nMethod::Inclusive11 {
            match name.as_str() {
                "id" => continue,
                "base" => {
                    return Err(WssError::Canonicalization(
                        "an xml:base above the signed element: Canonical XML 1.1 §2.4 would resolve it, which soapgen does not".to_owned(),
                    ))
                }
                _ => {}
            }
        }
        out.push((name.clone(), value.clone()));
    }
    Ok(out)
}

/// How [`write_start`] renders namespaces and which `xml:` attributes the element inherits.
struct Rendering<'a> {
    /// Every namespace in scope (Canonical XML), not only the visibly utilized ones.
    inclusive: bool,
    /// Exclusive C14N's InclusiveNamespaces PrefixList.
    prefixes: &'a [&'a str],
    /// `xml:` attributes of the ancestors of the apex, written on it (inclusive methods).
    inherited: &'a [(String, String)],
}

fn write_start(
    start: &BytesStart<'_>,
    scopes: &[Vec<(String, String)>],
    rendered: &mut Vec<Vec<(String, String)>>,
    how: &Rendering<'_>,
    out: &mut Vec<u8>,
) -> Result<(), WssError> {
    let inclusive_prefixes = how.prefixes;
    let err = |what: String| WssError::Canonicalization(what);
    let qname = std::str::from_utf8(start.name().into_inner()).map_err(|e| err(e.to_string()))?;
    let elem_prefix = qname.split_once(':').map(|(p, _)| p).unwrap_or("");

    // Attributes (not namespace declarations): (namespace URI, local name, qname, value).
    let mut attrs: Vec<(String, String, String, String)> = Vec::new();
    let mut utilized: Vec<&str> = vec![elem_prefix];
    let mut attr_prefixes: Vec<String> = Vec::new();
    for a in start.attributes().with_checks(true) {
        let a = a.map_err(|e| err(e.to_string()))?;
        let key = std::str::from_utf8(a.key.as_ref()).map_err(|e| err(e.to_string()))?;
        if key == "xmlns" || key.starts_with("xmlns:") {
            continue;
        }
        let raw = std::str::from_utf8(&a.value).map_err(|e| err(e.to_string()))?;
        let value = attribute_value(raw)?.into_owned();
        let (ns, local) = match key.split_once(':') {
            Some((p, l)) => {
                let uri = lookup(scopes, p)
                    .ok_or_else(|| err(format!("undeclared prefix {p} on attribute {key}")))?;
                if p != "xml" {
                    attr_prefixes.push(p.to_owned());
                }
                (uri.to_owned(), l.to_owned())
            }
            None => (String::new(), key.to_owned()),
        };
        attrs.push((ns, local, key.to_owned(), value));
    }
    for (local, value) in how.inherited {
        if !attrs.iter().any(|(ns, l, _, _)| ns == XML_NS && l == local) {
            attrs.push((
                XML_NS.to_owned(),
                local.clone(),
                format!("xml:{local}"),
                value.clone(),
            ));
        }
    }
    utilized.extend(attr_prefixes.iter().map(String::as_str));
    for p in inclusive_prefixes {
        utilized.push(if *p == "#default" { "" } else { p });
    }
    if how.inclusive {
        // Canonical XML §2.3: every namespace node in scope.
        for scope in scopes {
            for (p, _) in scope {
                utilized.push(p);
            }
        }
    }

    // Namespace nodes to render (Exclusive C14N §3, rules for the "xmlns" of each prefix).
    let mut ns_out: Vec<(String, String)> = Vec::new();
    for p in utilized {
        if ns_out.iter().any(|(q, _)| q == p) || p == "xml" {
            continue;
        }
        let uri = match lookup(scopes, p) {
            Some(u) => u,
            None if p.is_empty() => "",
            None => {
                if inclusive_prefixes.contains(&p) {
                    continue; // a listed prefix not in scope: nothing to write
                }
                return Err(err(format!("undeclared prefix {p} on element {qname}")));
            }
        };
        let previous = rendered_value(rendered, p);
        let render = if p.is_empty() && uri.is_empty() {
            // xmlns="" only to undo a default namespace an output ancestor rendered.
            previous.is_some_and(|v| !v.is_empty())
        } else {
            previous != Some(uri)
        };
        if render {
            ns_out.push((p.to_owned(), uri.to_owned()));
        }
    }
    ns_out.sort_by(|a, b| a.0.cmp(&b.0));
    attrs.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));

    write_tag(
        out,
        qname,
        &ns_out,
        attrs.iter().map(|(_, _, q, v)| (q.as_str(), v.as_str())),
    );
    rendered.push(ns_out);
    Ok(())
}

/// XML 1.0 §2.11 line-end normalisation: CRLF and lone CR become LF.
/// A canonical start tag (Exclusive XML Canonicalization §3, C14N 1.0 §2.2): `<qname`, the
/// namespace declarations `ns` (prefix, URI; `""` the default namespace) and the attributes
/// `attrs` (qualified name, value), each list already in canonical order, then `>`.
fn write_tag<'a, N: AsRef<str>>(
    out: &mut Vec<u8>,
    qname: &str,
    ns: &[(N, N)],
    attrs: impl Iterator<Item = (&'a str, &'a str)>,
) {
    out.push(b'<');
    out.extend_from_slice(qname.as_bytes());
    for (p, uri) in ns {
        let p = p.as_ref();
        if p.is_empty() {
            out.extend_from_slice(b" xmlns=\"");
        } else {
            out.extend_from_slice(b" xmlns:");
            out.extend_from_slice(p.as_bytes());
            out.extend_from_slice(b"=\"");
        }
        escape_attr(uri.as_ref(), out);
        out.push(b'"');
    }
    for (q, v) in attrs {
        out.push(b' ');
        out.extend_from_slice(q.as_bytes());
        out.extend_from_slice(b"=\"");
        escape_attr(v, out);
        out.push(b'"');
    }
    out.push(b'>');
}

fn normalize_line_ends(s: &str) -> Cow<'_, str> {
    if s.contains('\r') {
        Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(s)
    }
}

/// An attribute value as the XML processor reports it (XML 1.0 §3.3.3 for CDATA attributes):
/// line ends normalised, each literal whitespace character a space, references replaced.
fn attribute_value(raw: &str) -> Result<Cow<'_, str>, WssError> {
    if !raw.contains(['&', '\t', '\n', '\r']) {
        return Ok(Cow::Borrowed(raw));
    }
    let raw = normalize_line_ends(raw);
    let mut out = String::with_capacity(raw.len());
    let mut rest: &str = &raw;
    while let Some(i) = rest.find(['&', '\t', '\n']) {
        out.push_str(&rest[..i]);
        if rest.as_bytes()[i] == b'&' {
            let end = rest[i..].find(';').ok_or_else(|| {
                WssError::Canonicalization("unterminated reference in an attribute".to_owned())
            })?;
            let name = &rest[i + 1..i + end];
            let c = resolve_reference(name)
                .ok_or_else(|| WssError::Canonicalization(format!("undefined entity &{name};")))?;
            out.push(c);
            rest = &rest[i + end + 1..];
        } else {
            out.push(' ');
            rest = &rest[i + 1..];
        }
    }
    out.push_str(rest);
    Ok(Cow::Owned(out))
}

/// The character of a predefined entity (XML 1.0 §4.6) or a character reference (§4.1).
fn resolve_reference(name: &str) -> Option<char> {
    match name {
        "lt" => Some('<'),
        "gt" => Some('>'),
        "amp" => Some('&'),
        "apos" => Some('\''),
        "quot" => Some('"'),
        _ => {
            let n = name.strip_prefix('#')?;
            let code = match n.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// Character data (C14N §2.3): `&` `<` `>` and CR as references.
fn escape_text(s: &str, out: &mut Vec<u8>) {
    escape(s, out, false);
}

/// Attribute values (C14N §2.3): `&` `<` `"` and TAB, LF, CR as references.
fn escape_attr(s: &str, out: &mut Vec<u8>) {
    escape(s, out, true);
}

/// Writes `s` with the references C14N §2.3 asks for, text or attribute value (`attr`); runs
/// without anything to replace are copied whole (the writer's word-at-a-time scan finds the
/// next byte worth a look).
fn escape(s: &str, out: &mut Vec<u8>, attr: bool) {
    let bytes = s.as_bytes();
    let (mut last, mut from) = (0, 0);
    while let Some(k) = crate::xml::write::find_special(&bytes[from..], attr) {
        let i = from + k;
        from = i + 1;
        let rep: &[u8] = match bytes[i] {
            b'&' => b"&amp;",
            b'<' => b"&lt;",
            b'>' if !attr => b"&gt;",
            b'"' if attr => b"&quot;",
            b'\t' if attr => b"&#x9;",
            b'\n' if attr => b"&#xA;",
            b'\r' => b"&#xD;",
            _ => continue,
        };
        out.extend_from_slice(&bytes[last..i]);
        out.extend_from_slice(rep);
        last = i + 1;
    }
    out.extend_from_slice(&bytes[last..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tree-based form equals the text-based one on every element of documents that exercise
    /// namespaces (redeclared, undeclared, default, unused, listed), attribute order and
    /// escapes, references, CDATA, CR/LF, tabs in attributes, PIs and comments.
    #[test]
    fn tree_and_text_forms_agree_on_every_element() {
        let docs = [
            r#"<e:Envelope xmlns:e="urn:e" xmlns:t="urn:t" xmlns:u="urn:u"><e:Body u:Id="b"><t:op><t:x>1</t:x><y xmlns="urn:d"><z/></y></t:op></e:Body></e:Envelope>"#,
            "<a xmlns=\"urn:a\" xmlns:p=\"urn:p\" p:z=\"1\" b=\"2\" a=\"&lt;&amp;&quot;\t&#9;&#xA;&#13;\r\n\"><b xmlns=\"\"><c xmlns=\"urn:c\" xmlns:p=\"urn:p2\"><p:d p:q=\"x\"/></c></b>\r\n<![CDATA[<&>]]> &#xD; &gt; x\ry<?pi  some data ?><!-- c --><?bare?></a>",
            r#"<r xmlns:x="urn:x" xml:lang="en"><x:s xml:space="preserve" xmlns:x="urn:x"><x:t xmlns:x="urn:other"> <u/> </x:t></x:s><v xmlns:y="urn:y"><w y:a="1" xmlns:y="urn:y"/></v></r>"#,
        ];
        for doc in docs {
            let d = crate::xml::read::tree::Document::parse(doc, crate::xml::Limits::default())
                .unwrap();
            for n in d.descendants().filter(|n| n.is_element()) {
                for prefixes in [&[][..], &["#default"], &["x", "p", "e"]] {
                    let mut text = Vec::new();
                    exclusive_c14n(doc, n.range().start, prefixes, &mut text).unwrap();
                    let mut tree = Vec::new();
                    exclusive_c14n_node(n, prefixes, &mut tree).unwrap();
                    assert_eq!(
                        String::from_utf8(tree).unwrap(),
                        String::from_utf8(text).unwrap(),
                        "{:?} with {prefixes:?} in {doc}",
                        n.tag_name()
                    );
                }
            }
        }
    }

    fn c14n(doc: &str, apex: &str, prefixes: &[&str]) -> String {
        let mut out = Vec::new();
        exclusive_c14n(doc, doc.find(apex).unwrap(), prefixes, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn namespaces_from_ancestors_only_when_used() {
        let doc = r#"<e:Envelope xmlns:e="urn:e" xmlns:t="urn:t" xmlns:u="urn:u"><e:Body u:Id="b"><t:op><t:x>1</t:x><y xmlns="urn:d"><z/></y></t:op></e:Body></e:Envelope>"#;
        assert_eq!(
            c14n(doc, "<e:Body", &[]),
            r#"<e:Body xmlns:e="urn:e" xmlns:u="urn:u" u:Id="b"><t:op xmlns:t="urn:t"><t:x>1</t:x><y xmlns="urn:d"><z></z></y></t:op></e:Body>"#
        );
        // PrefixList: t is written on the apex although not used there, and not again below.
        assert_eq!(
            c14n(doc, "<e:Body", &["t"]),
            r#"<e:Body xmlns:e="urn:e" xmlns:t="urn:t" xmlns:u="urn:u" u:Id="b"><t:op><t:x>1</t:x><y xmlns="urn:d"><z></z></y></t:op></e:Body>"#
        );
    }

    #[test]
    fn default_namespace_undeclaration() {
        let doc = r#"<a xmlns="urn:a"><b><c xmlns=""><d/></c></b></a>"#;
        assert_eq!(
            c14n(doc, "<b>", &[]),
            r#"<b xmlns="urn:a"><c xmlns=""><d></d></c></b>"#
        );
        // No default namespace rendered above: xmlns="" is superfluous.
        assert_eq!(c14n(doc, "<c ", &[]), r#"<c><d></d></c>"#);
    }

    #[test]
    fn text_and_attribute_escapes() {
        let doc = "<a b=\"x&#9;y\r\nz &amp; &lt; &gt; &quot;\" c='\"'>1 &lt; 2 &amp;&amp; 3 > 2\r\n&#13;<![CDATA[<&>]]><!-- gone --><?pi  data ?></a>";
        assert_eq!(
            c14n(doc, "<a", &[]),
            "<a b=\"x&#x9;y z &amp; &lt; > &quot;\" c=\"&quot;\">1 &lt; 2 &amp;&amp; 3 &gt; 2\n&#xD;&lt;&amp;&gt;<?pi data ?></a>"
        );
    }

    fn inclusive(doc: &str, apex: &str, method: C14nMethod) -> Result<String, WssError> {
        let mut out = Vec::new();
        canonicalize(doc, doc.find(apex).unwrap(), method, &[], &mut out)?;
        Ok(String::from_utf8(out).unwrap())
    }

    #[test]
    fn inclusive_c14n_renders_every_namespace_and_inherits_xml_attributes() {
        let doc = r#"<e:Envelope xmlns:e="urn:e" xmlns:t="urn:t" xmlns="urn:d" xml:lang="en" xml:id="i" xml:space="preserve"><e:Body><t:op xmlns:t="urn:t"><x xmlns:t="urn:t2"/></t:op></e:Body></e:Envelope>"#;
        assert_eq!(
            inclusive(doc, "<e:Body", C14nMethod::Inclusive10).unwrap(),
            r#"<e:Body xmlns="urn:d" xmlns:e="urn:e" xmlns:t="urn:t" xml:id="i" xml:lang="en" xml:space="preserve"><t:op><x xmlns:t="urn:t2"></x></t:op></e:Body>"#
        );
        // 1.1: xml:id is not inherited.
        assert_eq!(
            inclusive(doc, "<e:Body", C14nMethod::Inclusive11).unwrap(),
            r#"<e:Body xmlns="urn:d" xmlns:e="urn:e" xmlns:t="urn:t" xml:lang="en" xml:space="preserve"><t:op><x xmlns:t="urn:t2"></x></t:op></e:Body>"#
        );
        // The element's own xml:lang wins.
        let own = r#"<a xml:lang="en"><b xml:lang="fr"/></a>"#;
        assert_eq!(
            inclusive(own, "<b", C14nMethod::Inclusive10).unwrap(),
            r#"<b xml:lang="fr"></b>"#
        );
        // 1.1 refuses to guess an inherited xml:base.
        let base = r#"<a xml:base="http://x/"><b/></a>"#;
        assert!(matches!(
            inclusive(base, "<b", C14nMethod::Inclusive11),
            Err(WssError::Canonicalization(m)) if m.contains("xml:base")
        ));
        assert_eq!(
            inclusive(base, "<b", C14nMethod::Inclusive10).unwrap(),
            r#"<b xml:base="http://x/"></b>"#
        );
    }

    #[test]
    fn errors_are_typed() {
        let mut out = Vec::new();
        for (doc, apex) in [
            ("<a><b></a>", 0),
            ("<a>", 0),
            ("<a/>", 1),
            ("<!DOCTYPE a><a/>", 13),
            ("<p:a/>", 0),
            ("<a>&nbsp;</a>", 0),
        ] {
            let e = exclusive_c14n(doc, apex, &[], &mut out).unwrap_err();
            assert!(matches!(e, WssError::Canonicalization(_)), "{doc}: {e}");
        }
    }
}
