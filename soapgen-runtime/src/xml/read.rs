//! The streaming XML reader used for responses.
//!
//! A pull reader over the whole response held in memory (`&str`), with its own tokenizer: markup is
//! found with `memchr` scans, each element's namespace is resolved once when its start tag is read
//! (Namespaces in XML 1.0 §6), and nothing is copied unless it must be: element names, attribute
//! values and text without entity references are borrowed from the response buffer. It checks that
//! the document is well-formed as far as reading needs (matching end tags, quoted attribute values,
//! unique attribute names, XML 1.0 §3.1; bound prefixes, Namespaces in XML 1.0 §5), refuses document
//! type declarations, expands only the five predefined entities and character references (XML 1.0
//! §4.1, §4.6), normalises line ends in text (§2.11) and attribute values (§3.3.3), limits element
//! depth, attributes and text size, and keeps the element path for errors.

use std::borrow::Cow;

use memchr::{memchr, memchr2, memchr3, memmem};

use bytes::Bytes;

use super::AnyAttribute;
use crate::error::{DecodeError, DecodeErrorKind, Location};
use crate::mime::{Attachments, XOP_NS};
use crate::xml::{Name, XSI_NS};
pub use limits::{Leniency, Limits};
pub use text::{FromXmlText, NoNamespaces, PrefixResolver};

mod attributes;
mod binary;
pub(crate) mod content;
mod errors;
mod limits;
mod text;
mod tokenizer;
// The tree WS-Security verifies and decrypts (the `wss` feature) is read by this reader's
// tokenizer; without that feature nothing reads one.
#[allow(dead_code)]
pub(crate) mod tree;

use tokenizer::*;

/// A start tag just read: its qualified name, the namespace URI its prefix resolved to and its
/// attributes, borrowed from the document.
#[derive(Debug, Clone, Copy)]
pub struct StartTag<'i> {
    /// The text between `<` and `>` (name and attributes), without the `/` of an empty-element tag.
    content: &'i str,
    name_len: usize,
    /// Start of the local part within the name (after the colon, or 0).
    local_start: usize,
    /// Byte offset of the `<`.
    offset: u64,
    /// The namespace URI of the element's name, resolved when the tag was read (Namespaces in XML
    /// 1.0 §6.2; `""`: no namespace).
    namespace: &'i str,
}

impl<'i> StartTag<'i> {
    /// The qualified name as written (`prefix:local` or `local`).
    pub fn qname(&self) -> &'i str {
        &self.content[..self.name_len]
    }

    /// The local part of the name.
    pub fn local_name(&self) -> &'i str {
        &self.content[self.local_start..self.name_len]
    }

    /// Byte offset of the start tag in the document.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The namespace URI of the element's name (`""` for no namespace), resolved once when the
    /// tag was read against the declarations in scope there (Namespaces in XML 1.0 §6.2: an
    /// unprefixed element name takes the default namespace).
    pub fn namespace(&self) -> &'i str {
        self.namespace
    }

    /// Whether the element's expanded name is `name` (namespace URI and local name compared as
    /// strings, Namespaces in XML 1.0 §2.1). Needs no reader: the namespace was resolved when the
    /// tag was read.
    #[inline]
    pub fn is(&self, name: Name<'_>) -> bool {
        self.local_name() == name.local && self.namespace == name.namespace
    }

    fn attributes(&self) -> Attributes<'i> {
        Attributes {
            s: &self.content[self.name_len..],
            pos: 0,
        }
    }
}

/// The attributes of a start tag, in document order: `(qualified name, raw value)`, the value as
/// written between its quotes (XML 1.0 §3.1 productions Attribute and AttValue).
struct Attributes<'i> {
    s: &'i str,
    pos: usize,
}

impl<'i> Iterator for Attributes<'i> {
    type Item = Result<(&'i str, &'i str), &'static str>;

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.s.as_bytes();
        let mut i = self.pos;
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        if i >= b.len() {
            self.pos = i;
            return None;
        }
        // On an error the rest is not read again.
        self.pos = b.len();
        let name_start = i;
        while i < b.len() && !is_space(b[i]) && !matches!(b[i], b'=' | b'"' | b'\'') {
            i += 1;
        }
        if i == name_start {
            return Some(Err("an attribute without a name"));
        }
        let name = &self.s[name_start..i];
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            return Some(Err("an attribute without `=` and a value"));
        }
        i += 1;
        while i < b.len() && is_space(b[i]) {
            i += 1;
        }
        let quote = match b.get(i) {
            Some(&q @ (b'"' | b'\'')) => q,
            _ => return Some(Err("an attribute value that is not quoted")),
        };
        let Some(len) = memchr(quote, &b[i + 1..]) else {
            return Some(Err("an unclosed attribute value"));
        };
        let value = &self.s[i + 1..i + 1 + len];
        self.pos = i + 2 + len;
        Some(Ok((name, value)))
    }
}

/// A streaming, namespace-aware pull reader over an XML document held in memory.
///
/// Generated and derived [`FromXml`](crate::FromXml) code drives it: [`next_child`](Self::next_child)
/// walks element-only content, [`read_text`](Self::read_text) reads simple content, attributes are read
/// from the [`StartTag`]. Every error carries the element path and line/column.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::xml::{Name, XmlReader};
/// let mut r = XmlReader::new(r#"<q:Quote xmlns:q="urn:q"><price>1.5</price></q:Quote>"#);
/// let root = r.root()?;
/// assert!(r.matches(&root, Name::new("urn:q", "Quote")));
/// let child = r.next_child()?.unwrap();
/// assert_eq!(child.local_name(), "price");
/// assert_eq!(r.read_text()?, "1.5");
/// assert!(r.next_child()?.is_none());
/// r.finish()?;
/// # Ok::<(), soapgen_runtime::DecodeError>(())
/// ```
pub struct XmlReader<'i> {
    input: &'i str,
    /// Byte position of the next token.
    pos: usize,
    /// The open elements.
    stack: Vec<Open<'i>>,
    /// Namespace declarations in scope, outermost first (Namespaces in XML 1.0 §6.1).
    bindings: Vec<Binding<'i>>,
    /// The last start tag was an empty-element tag (`<a/>`): its end is the next token.
    empty_pending: bool,
    /// The length `bindings` returns to once the token after an end tag is read: the declarations
    /// of an element stay in scope until then, for a QName value read with its end tag.
    pending_pop: Option<usize>,
    /// Attributes (qualified name, raw value) of the last start tag that had any, for the
    /// uniqueness check (reused) and for the element tree to take without scanning the tag again.
    attribute_names: Vec<(&'i str, &'i str)>,
    /// Leading path entries left out of error paths (the SOAP Envelope).
    path_skip: usize,
    limits: Limits,
    /// Position before the last token read (its first byte).
    last_event_start: u64,
    root_seen: bool,
    /// MTOM/SwA parts that `xop:Include` and `href="cid:…"` resolve to.
    attachments: Option<&'i Attachments>,
}

/// An open element.
#[derive(Debug, Clone, Copy)]
struct Open<'i> {
    /// The qualified name as written in the start tag.
    qname: &'i str,
    /// The length of `bindings` before the element's own declarations.
    bindings_len: usize,
}

/// A namespace declaration: `xmlns:prefix="uri"`, or `xmlns="uri"` with `prefix` `""`.
#[derive(Debug, Clone, Copy)]
struct Binding<'i> {
    prefix: &'i str,
    /// As written between the quotes; `""` undeclares the default namespace.
    uri: &'i str,
}

/// What the tokenizer read. Start and end tags have updated the stack of open elements already.
#[derive(Clone, Copy)]
enum Token<'i> {
    Start(StartTag<'i>),
    End,
    /// Character data up to the next `<` or `&`, as written.
    Text(&'i str),
    /// An entity or character reference: the name between `&` and `;`.
    Reference(&'i str),
    /// The content of a CDATA section.
    CData(&'i str),
    /// A comment, a processing instruction or the XML declaration.
    Other,
    Eof,
}

/// The namespace bound to the prefix `xmlns` (Namespaces in XML 1.0 §3).
const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";

impl std::fmt::Debug for XmlReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XmlReader")
            .field("position", &self.pos)
            .field("path", &self.path())
            .finish()
    }
}

impl<'i> XmlReader<'i> {
    /// A reader over `input` with default [`Limits`].
    pub fn new(input: &'i str) -> Self {
        Self::with_limits(input, Limits::default())
    }

    /// A reader over `input` with the given limits.
    pub fn with_limits(input: &'i str, limits: Limits) -> Self {
        XmlReader {
            input,
            // A UTF-8 byte order mark (XML 1.0 §4.3.3, sent by .NET and PHP servers) is not content.
            pos: if input.starts_with('\u{feff}') { 3 } else { 0 },
            stack: Vec::with_capacity(16),
            bindings: Vec::with_capacity(8),
            empty_pending: false,
            pending_pop: None,
            attribute_names: Vec::new(),
            path_skip: 0,
            limits,
            last_event_start: 0,
            root_seen: false,
            attachments: None,
        }
    }

    /// A reader over `input`, a run of content from the middle of a larger document, as if
    /// inside the open elements `open` (qualified names, outermost first) with the namespace
    /// declarations `bindings` (prefix, URI; `""` the default namespace) in scope: what a
    /// streamed response's items are read with, a window of the body at a time. Error paths
    /// start with the open elements (the first, the SOAP `Envelope`, left out); offsets, lines
    /// and columns are the window's, for the caller to shift.
    pub(crate) fn inside(
        input: &'i str,
        open: &'i [String],
        bindings: &'i [(String, String)],
        limits: Limits,
    ) -> Self {
        let mut r = Self::with_limits(input, limits);
        r.pos = 0;
        r.bindings
            .extend(bindings.iter().map(|(prefix, uri)| Binding {
                prefix: prefix.as_str(),
                uri: uri.as_str(),
            }));
        r.stack.extend(open.iter().map(|qname| Open {
            qname: qname.as_str(),
            bindings_len: 0,
        }));
        r.path_skip = 1;
        r.root_seen = true;
        r
    }

    /// Whether the last start tag read was an empty-element tag (`<a/>`), whose end is the next
    /// token.
    pub(crate) fn at_empty_element(&self) -> bool {
        self.empty_pending
    }

    /// The qualified names of the open elements, outermost first, as written.
    pub(crate) fn open_names(&self) -> Vec<String> {
        self.stack.iter().map(|o| o.qname.to_owned()).collect()
    }

    /// A reader over bytes that must be UTF-8.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::InvalidUtf8`] with the offset of the first invalid byte.
    pub fn from_bytes(input: &'i [u8], limits: Limits) -> Result<Self, DecodeError> {
        // A UTF-8 byte order mark (XML 1.0 §4.3.3, sent by .NET and PHP servers) is not content.
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        match utf8(input) {
            Ok(s) => Ok(Self::with_limits(s, limits)),
            Err(e) => {
                let valid = e.valid_up_to();
                // The valid prefix is a str: compute line and column on it.
                let prefix = std::str::from_utf8(&input[..valid]).unwrap_or_default();
                Err(DecodeError::new(
                    DecodeErrorKind::InvalidUtf8,
                    location_in(prefix, valid as u64, String::new()),
                ))
            }
        }
    }

    /// The attachments of a multipart/related response (MTOM/XOP, SwA), which base64Binary content
    /// given as `xop:Include` or `href="cid:…"` resolves to (see [`read_base64`](Self::read_base64)).
    pub fn set_attachments(&mut self, attachments: &'i Attachments) {
        self.attachments = Some(attachments);
    }

    /// Leaves the first `n` open elements out of error paths (the SOAP envelope leaves out `Envelope`).
    pub fn set_path_skip(&mut self, n: usize) {
        self.path_skip = n;
    }

    /// The schema rules this reader relaxes ([`Limits::leniency`]).
    pub fn leniency(&self) -> Leniency {
        self.limits.leniency
    }

    /// The whole document.
    pub fn input(&self) -> &'i str {
        self.input
    }

    /// Reads up to the document element and returns its start tag, skipping the XML declaration,
    /// comments, processing instructions and whitespace.
    ///
    /// # Errors
    ///
    /// A DOCTYPE, text before the root, an empty document, malformed XML.
    pub fn root(&mut self) -> Result<StartTag<'i>, DecodeError> {
        if self.root_seen || !self.stack.is_empty() {
            return Err(self.error(DecodeErrorKind::Other("root() called twice".to_owned())));
        }
        match self.next_child()? {
            Some(tag) => {
                self.root_seen = true;
                Ok(tag)
            }
            None => Err(self.error(DecodeErrorKind::Empty)),
        }
    }

    /// Reads the next child element of the current element, skipping whitespace, comments and
    /// processing instructions. Returns `None` after consuming the current element's end tag.
    ///
    /// # Errors
    ///
    /// Non-whitespace text (element-only content), malformed or truncated XML, the depth limit.
    pub fn next_child(&mut self) -> Result<Option<StartTag<'i>>, DecodeError> {
        loop {
            match self.next_token()? {
                Token::Start(tag) => return Ok(Some(tag)),
                Token::End => return Ok(None),
                Token::Text(raw) | Token::CData(raw) => {
                    if !is_xml_whitespace(raw) {
                        return Err(self.error_at(
                            DecodeErrorKind::UnexpectedText(excerpt(raw)),
                            self.last_event_start,
                        ));
                    }
                }
                Token::Reference(_) => {
                    return Err(self.error_at(
                        DecodeErrorKind::UnexpectedText("&…;".to_owned()),
                        self.last_event_start,
                    ))
                }
                Token::Eof => {
                    if self.stack.is_empty() {
                        return Ok(None);
                    }
                    return Err(self.error(DecodeErrorKind::Truncated));
                }
                // Comments, PIs and the declaration carry no data.
                Token::Other => {}
            }
        }
    }

    /// Whether `tag` has the expanded name `name` (as [`StartTag::is`]: the tag's namespace was
    /// resolved when it was read).
    #[inline]
    pub fn matches(&self, tag: &StartTag<'i>, name: Name<'_>) -> bool {
        tag.is(name)
    }

    /// The namespace URI of `tag` (empty for no namespace), as [`StartTag::namespace`].
    pub fn namespace_of(&self, tag: &StartTag<'i>) -> &'i [u8] {
        tag.namespace.as_bytes()
    }

    /// The namespace of `tag` as text, for messages.
    pub fn namespace_str(&self, tag: &StartTag<'i>) -> String {
        String::from_utf8_lossy(self.namespace_of(tag)).into_owned()
    }

    /// Reads the text content of the current element up to and including its end tag: character data,
    /// CDATA sections and references, concatenated. Borrowed from the document when it is one run.
    ///
    /// # Errors
    ///
    /// A child element (simple content has none), an undefined entity, truncation.
    pub fn read_text(&mut self) -> Result<Cow<'i, str>, DecodeError> {
        if let Some(text) = self.text_and_end_tag() {
            return Ok(Cow::Borrowed(text));
        }
        // Built once: the first piece that needs an owned string reserves the length of the text
        // up to the next markup, which references and line-end normalisation only shorten.
        let mut acc: Option<Cow<'i, str>> = None;
        loop {
            let token = self.next_token()?;
            let mut buf = [0u8; 4];
            let piece: &str = match token {
                Token::Text(raw) | Token::CData(raw) => {
                    let plain =
                        matches!(token, Token::CData(_)) || memchr(b'\r', raw.as_bytes()).is_none();
                    if acc.is_none() && plain {
                        if raw.len() > self.limits.max_text_bytes {
                            return Err(self.error_at(
                                DecodeErrorKind::TextLimit(self.limits.max_text_bytes),
                                self.last_event_start,
                            ));
                        }
                        acc = Some(Cow::Borrowed(raw));
                        continue;
                    }
                    raw
                }
                Token::Reference(name) => {
                    let c = self.reference_char(name)?;
                    c.encode_utf8(&mut buf)
                }
                Token::Start(tag) => {
                    return Err(self.error_at(
                        DecodeErrorKind::UnexpectedElement(format!(
                            "<{}> in simple content",
                            tag.qname()
                        )),
                        tag.offset,
                    ));
                }
                Token::End => return Ok(acc.unwrap_or(Cow::Borrowed(""))),
                Token::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                Token::Other => continue,
            };
            let s = match acc.take() {
                None => String::with_capacity(self.run_length(self.last_event_start as usize)),
                Some(Cow::Borrowed(b)) => {
                    let reserve = self.run_length(self.last_event_start as usize);
                    let mut s = String::with_capacity(b.len() + reserve);
                    s.push_str(b);
                    s
                }
                Some(Cow::Owned(s)) => s,
            };
            let s = acc.insert(Cow::Owned(s)).to_mut();
            if matches!(token, Token::Text(_)) {
                push_normalized(s, piece);
            } else {
                s.push_str(piece);
            }
            if s.len() > self.limits.max_text_bytes {
                return Err(self.error_at(
                    DecodeErrorKind::TextLimit(self.limits.max_text_bytes),
                    self.last_event_start,
                ));
            }
        }
    }

    /// The fast path of [`read_text`](Self::read_text): text without references, CDATA, comments
    /// or carriage returns, directly followed by the current element's end tag, which is consumed.
    /// `None` (nothing consumed) otherwise.
    #[inline]
    fn text_and_end_tag(&mut self) -> Option<&'i str> {
        if self.empty_pending {
            return None;
        }
        let bytes = self.input.as_bytes();
        let start = self.pos;
        let lt = start + memchr3(b'<', b'&', b'\r', bytes.get(start..)?)?;
        if bytes[lt] != b'<' || lt - start > self.limits.max_text_bytes {
            return None;
        }
        let open = *self.stack.last()?;
        let q = open.qname.as_bytes();
        let after = bytes.get(lt + 1..)?;
        if after.len() < q.len() + 2
            || after[0] != b'/'
            || &after[1..=q.len()] != q
            || after[q.len() + 1] != b'>'
        {
            return None;
        }
        if let Some(n) = self.pending_pop.take() {
            self.bindings.truncate(n);
        }
        self.stack.pop();
        self.pending_pop = Some(open.bindings_len);
        self.last_event_start = lt as u64;
        self.pos = lt + q.len() + 3;
        Some(&self.input[start..lt])
    }

    /// Bytes from `from` to the next `<` (or the end): a bound on the text a run of character
    /// data and references there can produce.
    fn run_length(&self, from: usize) -> usize {
        let rest = self.input.as_bytes().get(from..).unwrap_or_default();
        memchr(b'<', rest).unwrap_or(rest.len())
    }

    fn push_path(&self, path: &mut String, tag: &StartTag<'i>) {
        if self.stack.len() >= self.path_skip {
            if !path.is_empty() {
                path.push('/');
            }
            path.push_str(tag.local_name());
        }
    }

    /// Skips the rest of the current element, including its end tag.
    ///
    /// # Errors
    ///
    /// Malformed or truncated XML.
    pub fn skip_element(&mut self) -> Result<(), DecodeError> {
        let target = self.stack.len();
        loop {
            match self.next_token()? {
                Token::End => {
                    if self.stack.len() < target {
                        return Ok(());
                    }
                }
                Token::Reference(name) => {
                    if resolve_reference(name).is_none() {
                        return Err(self.error_at(
                            DecodeErrorKind::Entity(format!("&{name};")),
                            self.last_event_start,
                        ));
                    }
                }
                Token::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                Token::Start(_) | Token::Text(_) | Token::CData(_) | Token::Other => {}
            }
        }
    }

    /// The raw XML between the current element's start and end tags, consuming through the end tag.
    /// Kept verbatim (`xs:any`, fault detail); prefixes bound on ancestors are not included.
    ///
    /// # Errors
    ///
    /// Malformed or truncated XML.
    pub fn read_inner_xml(&mut self) -> Result<&'i str, DecodeError> {
        let begin = self.pos;
        self.skip_element()?;
        let end = self.last_event_start as usize;
        Ok(self.input.get(begin..end).unwrap_or_default())
    }

    /// The whole element `start` (just read), start tag to end tag, verbatim; consumes through its end
    /// tag.
    ///
    /// # Errors
    ///
    /// Malformed or truncated XML.
    pub fn read_outer_xml(&mut self, start: &StartTag<'i>) -> Result<&'i str, DecodeError> {
        self.skip_element()?;
        let end = self.pos;
        Ok(self
            .input
            .get(start.offset as usize..end)
            .unwrap_or_default())
    }

    /// Namespace bindings in scope at the current element (prefix, URI); the default namespace has
    /// prefix `""`. Valid right after a start tag was read.
    pub fn bindings_in_scope(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for (i, b) in self.bindings.iter().enumerate() {
            let overridden = self.bindings[i + 1..].iter().any(|o| o.prefix == b.prefix);
            if !overridden && !b.uri.is_empty() {
                out.push((b.prefix.to_owned(), b.uri.to_owned()));
            }
        }
        out
    }

    /// After the document element was read: checks that only comments, PIs and whitespace follow.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::TrailingContent`] or [`DecodeErrorKind::Truncated`].
    pub fn finish(&mut self) -> Result<(), DecodeError> {
        if !self.stack.is_empty() {
            return Err(self.error(DecodeErrorKind::Truncated));
        }
        loop {
            match self.next_token()? {
                Token::Eof => return Ok(()),
                Token::Text(t) if is_xml_whitespace(t) => {}
                Token::Other => {}
                _ => {
                    return Err(
                        self.error_at(DecodeErrorKind::TrailingContent, self.last_event_start)
                    )
                }
            }
        }
    }

    /// Byte position just after the last event read.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// Current depth (number of open elements).
    pub fn depth(&self) -> usize {
        self.stack.len()
    }
}

fn is_xml_whitespace(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// Appends `s` to `out` with its line ends normalised (XML 1.0 §2.11: `\r\n` and a lone `\r`
/// become `\n`).
fn push_normalized(out: &mut String, s: &str) {
    let mut rest = s;
    while let Some(i) = memchr(b'\r', rest.as_bytes()) {
        out.push_str(&rest[..i]);
        out.push('\n');
        rest = &rest[i + 1..];
        if let Some(r) = rest.strip_prefix('\n') {
            rest = r;
        }
    }
    out.push_str(rest);
}

fn excerpt(s: &str) -> String {
    let t = s.trim();
    let mut e: String = t.chars().take(40).collect();
    if e.len() < t.len() {
        e.push('…');
    }
    e
}

/// `input` as text: the SIMD check first, std's (for the offset of the first invalid byte) when
/// it fails.
pub(crate) fn utf8(input: &[u8]) -> Result<&str, std::str::Utf8Error> {
    match simdutf8::basic::from_utf8(input) {
        Ok(s) => Ok(s),
        Err(_) => std::str::from_utf8(input),
    }
}

/// Location of byte `offset`, given the document text before it.
pub(crate) fn location_in(prefix: &str, offset: u64, path: String) -> Location {
    let line = prefix.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
    let line_start = prefix.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = prefix[line_start..].chars().count() as u32 + 1;
    Location {
        offset,
        line,
        column,
        path,
    }
}

#[cfg(test)]
mod tests;
