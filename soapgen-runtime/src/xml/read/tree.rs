//! A read-only element tree of a whole document, built in one pass of the reader's own tokenizer
//! (the one [`XmlReader`] decodes with, so verification and decoding cannot read a document two
//! ways): what WS-Security's inbound checks walk, where elements are found by Id and by position
//! and canonicalized in place.
//!
//! Nodes sit in one arena in document order: the root (the document itself), elements, text,
//! comments and processing instructions (XML 1.0 §2.5, §2.6). Element names keep their
//! qualified form as written and their namespace as resolved (Namespaces in XML 1.0 §6);
//! attribute values are normalised and unescaped (XML 1.0 §3.3.3) and namespace declarations are
//! not attributes (they are the element's scope, [`Node::lookup_namespace_uri`]); text runs —
//! character data, references and CDATA sections between two pieces of markup — are one text node
//! each, line ends normalised (§2.11) and references replaced (§4.1, §4.6), borrowed from the input
//! when nothing needed replacing. The reader's limits (depth, attributes per element) apply and a
//! DOCTYPE is refused, as everywhere in soapgen.

use super::*;

const NONE: u32 = u32::MAX;

/// A document parsed into a tree; [`Document::root_element`] is where walks start.
pub(crate) struct Document<'i> {
    input: &'i str,
    nodes: Vec<NodeData<'i>>,
    attributes: Vec<AttributeData<'i>>,
    /// Namespace declarations: (prefix, URI, the declaration in scope before it).
    scopes: Vec<(&'i str, &'i str, u32)>,
}

struct NodeData<'i> {
    kind: Kind<'i>,
    parent: u32,
    first_child: u32,
    last_child: u32,
    next_sibling: u32,
    /// Byte range in the input: an element from its `<` to just after its end tag.
    start: usize,
    end: usize,
}

enum Kind<'i> {
    Root,
    Element {
        qname: &'i str,
        local_start: usize,
        namespace: &'i str,
        /// Index range into `Document::attributes`.
        attributes: (u32, u32),
        /// The innermost namespace declaration in scope (index into `scopes`), or [`NONE`].
        scope: u32,
    },
    Text(Cow<'i, str>),
    Comment,
    Pi {
        target: &'i str,
        value: Option<&'i str>,
    },
}

struct AttributeData<'i> {
    qname: &'i str,
    local_start: usize,
    namespace: &'i str,
    value: Cow<'i, str>,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NodeType {
    /// The document itself, parent of the document element.
    Root,
    /// An element.
    Element,
    /// A text run.
    Text,
    /// A comment.
    Comment,
    /// A processing instruction.
    PI,
}

/// A node of a [`Document`]: a cheap handle (the document and an index).
#[derive(Clone, Copy)]
pub(crate) struct Node<'a, 'i> {
    doc: &'a Document<'i>,
    id: u32,
}

impl PartialEq for Node<'_, '_> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id && std::ptr::eq(self.doc, other.doc)
    }
}

impl Eq for Node<'_, '_> {}

impl std::fmt::Debug for Node<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Node({}, {:?})", self.id, self.node_type())
    }
}

/// An element's or attribute's expanded name (Namespaces in XML 1.0 §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ExpandedName<'a> {
    namespace: &'a str,
    name: &'a str,
}

impl<'a> ExpandedName<'a> {
    /// The namespace URI, `None` for no namespace.
    pub(crate) fn namespace(&self) -> Option<&'a str> {
        (!self.namespace.is_empty()).then_some(self.namespace)
    }

    /// The local name.
    pub(crate) fn name(&self) -> &'a str {
        self.name
    }
}

/// A name to look for: a local name alone (`"Id"`), or `(namespace, local name)`.
pub(crate) trait LookupName {
    /// (namespace, local name); `None` for the namespace when only a local name was given.
    fn parts(&self) -> (Option<&str>, &str);
}

impl LookupName for &str {
    fn parts(&self) -> (Option<&str>, &str) {
        (None, self)
    }
}

impl LookupName for (&str, &str) {
    fn parts(&self) -> (Option<&str>, &str) {
        (Some(self.0), self.1)
    }
}

/// An attribute of an element.
#[derive(Clone, Copy)]
pub(crate) struct Attribute<'a, 'i> {
    data: &'a AttributeData<'i>,
}

impl<'a> Attribute<'a, '_> {
    /// The namespace URI, `None` for an unprefixed attribute (Namespaces in XML 1.0 §6.2).
    pub(crate) fn namespace(&self) -> Option<&'a str> {
        (!self.data.namespace.is_empty()).then_some(self.data.namespace)
    }

    /// The local name.
    pub(crate) fn name(&self) -> &'a str {
        &self.data.qname[self.data.local_start..]
    }

    /// The qualified name as written.
    pub(crate) fn qname(&self) -> &'a str {
        self.data.qname
    }

    /// The value, normalised and unescaped (XML 1.0 §3.3.3).
    pub(crate) fn value(&self) -> &'a str {
        &self.data.value
    }
}

/// A processing instruction's target and data.
pub(crate) struct Pi<'a> {
    /// The PITarget.
    pub(crate) target: &'a str,
    /// What follows it, if anything.
    pub(crate) value: Option<&'a str>,
}

/// A line and column (both from 1; columns in characters).
pub(crate) struct TextPos {
    pub(crate) row: u32,
    pub(crate) col: u32,
}

impl<'i> Document<'i> {
    /// Parses `input` with `limits` (depth, attributes per element); a DOCTYPE is refused.
    ///
    /// # Errors
    ///
    /// A [`DecodeError`] at the line and column (and element path) where the document is not
    /// well-formed or namespace-well-formed, a limit is exceeded, or a DOCTYPE appears.
    pub(crate) fn parse(input: &'i str, limits: Limits) -> Result<Document<'i>, DecodeError> {
        let mut r = XmlReader::with_limits(input, limits);
        if let Some(at) = first_non_char(input) {
            let c = input[at..].chars().next().unwrap_or('\0');
            return Err(r.error_at(
                DecodeErrorKind::Syntax(format!(
                    "character U+{:04X} is not allowed in XML (XML 1.0 §2.2 Char)",
                    c as u32
                )),
                at as u64,
            ));
        }
        let estimate = input.len() / 48 + 8;
        let mut doc = Document {
            input,
            nodes: Vec::with_capacity(estimate),
            attributes: Vec::with_capacity(estimate / 2),
            scopes: Vec::with_capacity(16),
        };
        doc.nodes.push(NodeData {
            kind: Kind::Root,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            start: 0,
            end: input.len(),
        });
        let mut open: u32 = 0;
        let mut scope: u32 = NONE;
        // The scope outside each open element, innermost last.
        let mut outer_scopes: Vec<u32> = Vec::with_capacity(16);
        let mut root_seen = false;
        let mut text = Text::default();
        loop {
            let at = r.pos;
            let token = r.next_token()?;
            if !matches!(
                token,
                Token::Text(_) | Token::Reference(_) | Token::CData(_)
            ) {
                text.flush(&mut doc, open);
            }
            match token {
                Token::Start(tag) => {
                    if open == 0 && root_seen {
                        return Err(r.error_at(DecodeErrorKind::TrailingContent, tag.offset));
                    }
                    root_seen = true;
                    // This element's own declarations sit at the end of the reader's bindings.
                    outer_scopes.push(scope);
                    let own = r.stack.last().map_or(r.bindings.len(), |o| o.bindings_len);
                    for b in &r.bindings[own..] {
                        doc.scopes.push((b.prefix, b.uri, scope));
                        scope = (doc.scopes.len() - 1) as u32;
                    }
                    let first = doc.attributes.len() as u32;
                    doc.read_attributes(&r, &tag)?;
                    let id = doc.push(
                        open,
                        Kind::Element {
                            qname: tag.qname(),
                            local_start: tag.local_start,
                            namespace: tag.namespace,
                            attributes: (first, doc.attributes.len() as u32),
                            scope,
                        },
                        at,
                    );
                    open = id;
                }
                Token::End => {
                    doc.nodes[open as usize].end = r.pos;
                    open = doc.nodes[open as usize].parent;
                    scope = outer_scopes.pop().unwrap_or(NONE);
                }
                Token::Text(raw) => {
                    if open == 0 {
                        if !is_xml_whitespace(raw) {
                            let kind = if root_seen {
                                DecodeErrorKind::TrailingContent
                            } else {
                                DecodeErrorKind::UnexpectedText(excerpt(raw))
                            };
                            return Err(r.error_at(kind, at as u64));
                        }
                    } else {
                        text.push_raw(at, r.pos, raw, memchr(b'\r', raw.as_bytes()).is_some());
                    }
                }
                Token::CData(raw) => {
                    if open == 0 {
                        return Err(r.error_at(DecodeErrorKind::TrailingContent, at as u64));
                    }
                    text.push_raw(at, r.pos, raw, true);
                }
                Token::Reference(name) => {
                    if open == 0 {
                        return Err(r.error_at(DecodeErrorKind::TrailingContent, at as u64));
                    }
                    let c = r.reference_char(name)?;
                    let mut buf = [0u8; 4];
                    text.push_copied(at, r.pos, c.encode_utf8(&mut buf), false);
                }
                Token::Other => {
                    let markup = &input[at..r.pos];
                    let kind = if markup.starts_with("<!--") {
                        Some(Kind::Comment)
                    } else if let Some(pi) =
                        markup.strip_prefix("<?").and_then(|m| m.strip_suffix("?>"))
                    {
                        let split = pi.bytes().position(is_space).unwrap_or(pi.len());
                        let target = &pi[..split];
                        let value = Some(&pi[split..]).filter(|v| !v.is_empty());
                        (target != "xml").then_some(Kind::Pi { target, value })
                    } else {
                        None
                    };
                    if let Some(kind) = kind {
                        let id = doc.push(open, kind, at);
                        doc.nodes[id as usize].end = r.pos;
                    }
                }
                Token::Eof => {
                    if open != 0 {
                        return Err(r.error(DecodeErrorKind::Truncated));
                    }
                    if !root_seen {
                        return Err(r.error(DecodeErrorKind::Empty));
                    }
                    return Ok(doc);
                }
            }
        }
    }

    /// The attributes of `tag` other than namespace declarations, resolved and unescaped; two with
    /// one expanded name are refused (Namespaces in XML 1.0 §6.3).
    fn read_attributes(
        &mut self,
        r: &XmlReader<'i>,
        tag: &StartTag<'i>,
    ) -> Result<(), DecodeError> {
        if tag.content.len() == tag.name_len {
            return Ok(());
        }
        let first = self.attributes.len();
        // The tokenizer kept the tag's attributes when it checked them.
        for &(qname, raw) in &r.attribute_names {
            if qname == "xmlns" || qname.starts_with("xmlns:") {
                continue;
            }
            let (prefix, local) = split_qname(qname);
            let namespace = match prefix {
                None => "",
                Some(p) => r.attribute_namespace(p).ok_or_else(|| {
                    r.error_at(
                        DecodeErrorKind::Syntax(format!(
                            "unbound namespace prefix {p:?} on attribute {qname}"
                        )),
                        tag.offset,
                    )
                })?,
            };
            let local_start = qname.len() - local.len();
            if self.attributes[first..]
                .iter()
                .any(|o| &o.qname[o.local_start..] == local && o.namespace == namespace)
            {
                return Err(r.error_at(
                    DecodeErrorKind::Syntax(format!(
                        "attribute {qname} names the same attribute as another one of its \
                         start tag (Namespaces in XML 1.0 §6.3)"
                    )),
                    tag.offset,
                ));
            }
            let value = r.attribute_text(raw, tag.offset)?;
            self.attributes.push(AttributeData {
                qname,
                local_start,
                namespace,
                value,
            });
        }
        Ok(())
    }

    /// Appends a node of `kind` starting at byte `start` as the last child of `parent`.
    fn push(&mut self, parent: u32, kind: Kind<'i>, start: usize) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(NodeData {
            kind,
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            start,
            end: start,
        });
        let p = &mut self.nodes[parent as usize];
        let previous = p.last_child;
        p.last_child = id;
        if previous == NONE {
            p.first_child = id;
        } else {
            self.nodes[previous as usize].next_sibling = id;
        }
        id
    }

    /// The document element.
    pub(crate) fn root_element(&self) -> Node<'_, 'i> {
        self.root()
            .children()
            .find(Node::is_element)
            .unwrap_or(self.root())
    }

    /// The document itself (the parent of the document element).
    pub(crate) fn root(&self) -> Node<'_, 'i> {
        Node { doc: self, id: 0 }
    }

    /// Every node in document order, the root first.
    pub(crate) fn descendants(&self) -> impl Iterator<Item = Node<'_, 'i>> + '_ {
        (0..self.nodes.len() as u32).map(move |id| Node { doc: self, id })
    }

    /// The line and column of byte `offset`.
    pub(crate) fn text_pos_at(&self, offset: usize) -> TextPos {
        let l = location_in(
            self.input.get(..offset).unwrap_or(self.input),
            offset as u64,
            String::new(),
        );
        TextPos {
            row: l.line,
            col: l.column,
        }
    }
}

impl<'a, 'i> Node<'a, 'i> {
    fn data(&self) -> &'a NodeData<'i> {
        &self.doc.nodes[self.id as usize]
    }

    fn at(&self, id: u32) -> Option<Node<'a, 'i>> {
        (id != NONE).then_some(Node { doc: self.doc, id })
    }

    /// The document this node is in.
    pub(crate) fn document(&self) -> &'a Document<'i> {
        self.doc
    }

    /// The node's index in document order (the root is 0).
    pub(crate) fn index(&self) -> usize {
        self.id as usize
    }

    /// What the node is.
    pub(crate) fn node_type(&self) -> NodeType {
        match self.data().kind {
            Kind::Root => NodeType::Root,
            Kind::Element { .. } => NodeType::Element,
            Kind::Text(_) => NodeType::Text,
            Kind::Comment => NodeType::Comment,
            Kind::Pi { .. } => NodeType::PI,
        }
    }

    /// Whether the node is an element.
    pub(crate) fn is_element(&self) -> bool {
        matches!(self.data().kind, Kind::Element { .. })
    }

    /// Whether the node is a text run.
    pub(crate) fn is_text(&self) -> bool {
        matches!(self.data().kind, Kind::Text(_))
    }

    /// An element's expanded name; empty for other nodes.
    pub(crate) fn tag_name(&self) -> ExpandedName<'a> {
        match &self.data().kind {
            Kind::Element {
                qname,
                local_start,
                namespace,
                ..
            } => ExpandedName {
                namespace,
                name: &qname[*local_start..],
            },
            _ => ExpandedName {
                namespace: "",
                name: "",
            },
        }
    }

    /// An element's qualified name as written; `""` for other nodes.
    pub(crate) fn qname(&self) -> &'a str {
        match &self.data().kind {
            Kind::Element { qname, .. } => qname,
            _ => "",
        }
    }

    /// Whether this is an element named `name`: a local name alone matches in any namespace,
    /// `(namespace, local name)` only in that one.
    pub(crate) fn has_tag_name(&self, name: impl LookupName) -> bool {
        if !self.is_element() {
            return false;
        }
        let t = self.tag_name();
        match name.parts() {
            (None, local) => t.name == local,
            (Some(ns), local) => t.name == local && t.namespace == ns,
        }
    }

    /// An element's attributes (namespace declarations excepted), in document order.
    pub(crate) fn attributes(&self) -> impl ExactSizeIterator<Item = Attribute<'a, 'i>> + 'a {
        let (first, end) = match self.data().kind {
            Kind::Element { attributes, .. } => attributes,
            _ => (0, 0),
        };
        self.doc.attributes[first as usize..end as usize]
            .iter()
            .map(|data| Attribute { data })
    }

    /// The value of the attribute named `name`: a local name alone is an attribute in no
    /// namespace; `(namespace, local name)` one in that namespace.
    pub(crate) fn attribute(&self, name: impl LookupName) -> Option<&'a str> {
        let (ns, local) = name.parts();
        let ns = ns.unwrap_or("");
        self.attributes()
            .find(|a| a.data.namespace == ns && a.name() == local)
            .map(|a| a.value())
    }

    /// The URI bound to `prefix` (`None`: the default namespace) in this element's scope; `None`
    /// when unbound or (the default namespace) undeclared. `xml` is always bound.
    pub(crate) fn lookup_namespace_uri(&self, prefix: Option<&str>) -> Option<&'a str> {
        let mut node = *self;
        while !node.is_element() {
            node = node.parent()?;
        }
        let Kind::Element { scope, .. } = node.data().kind else {
            return None;
        };
        let prefix = prefix.unwrap_or("");
        let mut s = scope;
        while s != NONE {
            let (p, uri, outer) = self.doc.scopes[s as usize];
            if p == prefix {
                return (!uri.is_empty()).then_some(uri);
            }
            s = outer;
        }
        (prefix == "xml").then_some(crate::xml::XML_NS)
    }

    /// A text node's text; an element's first child's text if that is a text node.
    pub(crate) fn text(&self) -> Option<&'a str> {
        match &self.data().kind {
            Kind::Text(t) => Some(t),
            Kind::Element { .. } => self.first_child().and_then(|c| match &c.data().kind {
                Kind::Text(t) => Some(&**t),
                _ => None,
            }),
            _ => None,
        }
    }

    /// A processing instruction's target and data.
    pub(crate) fn pi(&self) -> Option<Pi<'a>> {
        match self.data().kind {
            Kind::Pi { target, value } => Some(Pi { target, value }),
            _ => None,
        }
    }

    /// Byte range in the input: an element from its `<` to just after its end tag.
    pub(crate) fn range(&self) -> std::ops::Range<usize> {
        self.data().start..self.data().end
    }

    /// The parent (`None` for the root).
    pub(crate) fn parent(&self) -> Option<Node<'a, 'i>> {
        self.at(self.data().parent)
    }

    /// The first child.
    pub(crate) fn first_child(&self) -> Option<Node<'a, 'i>> {
        self.at(self.data().first_child)
    }

    /// The next sibling.
    pub(crate) fn next_sibling(&self) -> Option<Node<'a, 'i>> {
        self.at(self.data().next_sibling)
    }

    /// The children, in document order.
    pub(crate) fn children(&self) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
        std::iter::successors(self.first_child(), Node::next_sibling)
    }

    /// This node and its ancestors, innermost first.
    pub(crate) fn ancestors(&self) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
        std::iter::successors(Some(*self), Node::parent)
    }

    /// This node and every node inside it, in document order (arena order is document order,
    /// and a subtree is one run of it).
    pub(crate) fn descendants(&self) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
        let doc = self.doc;
        let first = self.id;
        let mut end = self.id + 1;
        // The subtree ends where the next node outside it starts: the first next sibling of
        // this node or an ancestor.
        let mut n = Some(*self);
        while let Some(x) = n {
            if let Some(s) = x.next_sibling() {
                end = s.id;
                break;
            }
            n = x.parent();
            if n.is_none() {
                end = doc.nodes.len() as u32;
            }
        }
        (first..end).map(move |id| Node { doc, id })
    }
}

/// The offset of the first character XML 1.0 §2.2 does not allow (C0 controls other than tab,
/// line feed and carriage return; U+FFFE, U+FFFF; UTF-8 cannot hold surrogates), if any.
fn first_non_char(input: &str) -> Option<usize> {
    let b = input.as_bytes();
    // Blocks with nothing suspect (no byte below 0x20, no 0xEF lead byte) are skipped whole.
    let suspect = |x: u8| x < 0x20 || x == 0xEF;
    let mut i = 0;
    while i < b.len() {
        let end = (i + 32).min(b.len());
        if !b[i..end].iter().fold(false, |acc, &x| acc | suspect(x)) {
            i = end;
            continue;
        }
        for j in i..end {
            let x = b[j];
            let bad = match x {
                b'\t' | b'\n' | b'\r' => false,
                0..0x20 => true,
                0xEF => b.get(j + 1) == Some(&0xBF) && matches!(b.get(j + 2), Some(0xBE | 0xBF)),
                _ => false,
            };
            if bad {
                return Some(j);
            }
        }
        i = end;
    }
    None
}

/// The text run being read: its first piece borrowed, copied once a second piece, a reference or
/// a line end to normalise comes.
#[derive(Default)]
struct Text<'i> {
    /// Byte range of the run so far.
    range: Option<(usize, usize)>,
    borrowed: &'i str,
    owned: Option<String>,
}

impl<'i> Text<'i> {
    /// Character data as written, from `at` to `end`; `normalize` when it has a `\r` or is a CDATA
    /// section's content.
    fn push_raw(&mut self, at: usize, end: usize, raw: &'i str, normalize: bool) {
        if self.range.is_none() && !normalize {
            self.range = Some((at, end));
            self.borrowed = raw;
            return;
        }
        self.push_copied(at, end, raw, true);
    }

    /// A piece that is copied into the run: character data with its line ends normalised, or
    /// the character a reference names (`normalize` false: `&#13;` stays a carriage return).
    fn push_copied(&mut self, at: usize, end: usize, piece: &str, normalize: bool) {
        let range = self.range.get_or_insert((at, end));
        range.1 = end;
        let borrowed = self.borrowed;
        let owned = self.owned.get_or_insert_with(|| {
            let mut s = String::with_capacity(borrowed.len() + piece.len());
            s.push_str(borrowed);
            s
        });
        if normalize {
            push_normalized(owned, piece);
        } else {
            owned.push_str(piece);
        }
    }

    fn flush(&mut self, doc: &mut Document<'i>, parent: u32) {
        let Some((start, end)) = self.range.take() else {
            return;
        };
        let text = match self.owned.take() {
            Some(s) => Cow::Owned(s),
            None => Cow::Borrowed(self.borrowed),
        };
        self.borrowed = "";
        let id = doc.push(parent, Kind::Text(text), start);
        doc.nodes[id as usize].end = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Document<'_>, DecodeError> {
        Document::parse(s, Limits::default())
    }

    fn element<'a, 'i>(d: &'a Document<'i>, local: &str) -> Node<'a, 'i> {
        d.descendants()
            .find(|n| n.has_tag_name(local))
            .unwrap_or_else(|| panic!("no {local}"))
    }

    #[test]
    fn elements_text_and_order() {
        let doc = "<?xml version=\"1.0\"?>\n<!-- c --><a><b>x &amp; y<![CDATA[<z>]]>\r\nw</b><c/>t<?p d?></a>\n";
        let d = parse(doc).unwrap();
        let a = d.root_element();
        assert_eq!(a.qname(), "a");
        let kinds: Vec<NodeType> = a.children().map(|n| n.node_type()).collect();
        assert_eq!(
            kinds,
            [
                NodeType::Element,
                NodeType::Element,
                NodeType::Text,
                NodeType::PI
            ]
        );
        let b = element(&d, "b");
        // One run: references replaced, CDATA as text, CR LF as LF.
        assert_eq!(b.text(), Some("x & y<z>\nw"));
        assert_eq!(&doc[b.range()], "<b>x &amp; y<![CDATA[<z>]]>\r\nw</b>");
        assert_eq!(&doc[element(&d, "c").range()], "<c/>");
        let pi = a.children().last().unwrap().pi().unwrap();
        assert_eq!((pi.target, pi.value.map(str::trim)), ("p", Some("d")));
        // The comment before the root is a child of the root node.
        assert_eq!(
            d.root().children().next().unwrap().node_type(),
            NodeType::Comment
        );
        // Descendants of a subtree stop at its end; ancestors start at the node.
        let inside: Vec<&str> = b.descendants().map(|n| n.qname()).collect();
        assert_eq!(inside, ["b", ""]);
        assert_eq!(element(&d, "c").ancestors().count(), 3);
        // A plain run is borrowed from the input, not copied.
        let d = parse("<a>plain</a>").unwrap();
        assert!(matches!(
            &d.nodes[2].kind,
            Kind::Text(Cow::Borrowed("plain"))
        ));
        // A character reference to CR stays a CR; a literal CR becomes LF.
        let d = parse("<a>&#13;\r</a>").unwrap();
        assert_eq!(d.root_element().text(), Some("\r\n"));
    }

    #[test]
    fn names_namespaces_and_attributes() {
        let doc = r#"<p:a xmlns:p="urn:p" xmlns="urn:d" p:x="1" y="&lt;2&#9;	"><b xmlns="" p:z="3"><p:c xmlns:p="urn:q"/></b><e/></p:a>"#;
        let d = parse(doc).unwrap();
        let a = d.root_element();
        assert_eq!(a.tag_name().namespace(), Some("urn:p"));
        assert_eq!(a.tag_name().name(), "a");
        assert!(a.has_tag_name(("urn:p", "a")) && a.has_tag_name("a"));
        assert!(!a.has_tag_name(("urn:d", "a")));
        // Declarations are the scope, not attributes; values normalised and unescaped.
        let names: Vec<&str> = a.attributes().map(|at| at.qname()).collect();
        assert_eq!(names, ["p:x", "y"]);
        assert_eq!(a.attribute(("urn:p", "x")), Some("1"));
        assert_eq!(a.attribute("x"), None);
        assert_eq!(a.attribute("y"), Some("<2\t "));
        let b = element(&d, "b");
        assert_eq!(b.tag_name().namespace(), None);
        assert_eq!(b.lookup_namespace_uri(None), None);
        assert_eq!(b.lookup_namespace_uri(Some("p")), Some("urn:p"));
        let c = element(&d, "c");
        assert_eq!(c.tag_name().namespace(), Some("urn:q"));
        assert_eq!(c.lookup_namespace_uri(Some("p")), Some("urn:q"));
        assert_eq!(
            c.lookup_namespace_uri(Some("xml")),
            Some(crate::xml::XML_NS)
        );
        // Out of `c` and `b`, the outer scope again.
        let e = element(&d, "e");
        assert_eq!(e.tag_name().namespace(), Some("urn:d"));
        assert_eq!(e.lookup_namespace_uri(Some("p")), Some("urn:p"));
        assert_eq!(e.lookup_namespace_uri(Some("q")), None);
    }

    #[test]
    fn what_is_not_well_formed_is_refused_where_it_is() {
        for (doc, needle) in [
            ("<!DOCTYPE a><a/>", "DOCTYPE"),
            ("<a><p:b/></a>", "unbound namespace prefix"),
            ("<a p:x='1'/>", "unbound namespace prefix"),
            (
                "<a xmlns:p='urn:x' xmlns:q='urn:x' p:i='1' q:i='2'/>",
                "§6.3",
            ),
            ("<a x='1' x='2'/>", "twice"),
            ("text<a/>", "text"),
            ("<a/><b/>", ""),
            ("<a/>tail", ""),
            ("<a><b></a>", "does not match"),
            ("<a>", ""),
            ("", ""),
            ("<a>\u{0}</a>", "U+0000"),
            ("<a>\u{FFFF}</a>", "U+FFFF"),
            ("<a>&bogus;</a>", "bogus"),
        ] {
            let e = match parse(doc) {
                Ok(_) => panic!("{doc:?} parsed"),
                Err(e) => e.to_string(),
            };
            assert!(e.contains(needle), "{doc:?}: {e}");
        }
        let deep = "<a>".repeat(40) + &"</a>".repeat(40);
        assert!(Document::parse(&deep, Limits::default().with_max_depth(10)).is_err());
        assert!(Document::parse(&deep, Limits::default().with_max_depth(50)).is_ok());
        // Where: the line and column of the offending tag.
        let e = parse("<a>\n  <b p:c='1'/></a>").err().unwrap();
        assert_eq!((e.location.line, e.location.column), (2, 3), "{e}");
    }
}
