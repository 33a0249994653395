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

use crate::error::{DecodeError, DecodeErrorKind, Location};
use crate::mime::{Attachments, XOP_NS};
use crate::types::{AnyAttribute, FromXmlText, PrefixResolver};
use crate::xml::{Name, XSI_NS};

/// Bounds on what a response may make the reader do (see also the client's response size limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum element nesting depth, counting the Envelope (default 128).
    pub max_depth: usize,
    /// Maximum number of MIME parts in a multipart/related (MTOM, SwA) response, root included
    /// (default 1024).
    pub max_mime_parts: usize,
    /// Maximum number of attributes (namespace declarations included) on one element (default 256).
    pub max_attributes: usize,
    /// Maximum size in bytes of one element's text content as it appears in the document, references
    /// and CDATA included (default 256 MiB; the response size limit usually binds first). A 100 MB
    /// base64 value needs both limits raised above it.
    pub max_text_bytes: usize,
    /// Lenient decoding of unknown elements (default `false`: an element the expected message has no
    /// place for is [`DecodeErrorKind::UnexpectedElement`]). When `true`, such an element is skipped
    /// and reported as a `tracing` warning (target `soapgen::lenient`) with its path, position and
    /// XML (the first 512 bytes): for servers that added elements the WSDL does not have yet.
    /// Missing required elements and invalid values remain errors.
    pub lenient_unknown_elements: bool,
    /// Maximum number of SOAP 1.1 §5.4.1 `href="#id"` references followed in one response, in total
    /// (default 65,536): a bound on the work of resolving multi-reference values (rpc/encoded), so
    /// that a small document of shared references cannot expand exponentially. See
    /// [`multiref`](crate::xml::multiref).
    pub max_references: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_mime_parts: 1024,
            max_attributes: 256,
            max_text_bytes: 256 << 20,
            lenient_unknown_elements: false,
            max_references: 65_536,
        }
    }
}

impl Limits {
    /// Sets [`max_references`](Self::max_references).
    pub fn with_max_references(mut self, references: usize) -> Self {
        self.max_references = references;
        self
    }

    /// Sets [`lenient_unknown_elements`](Self::lenient_unknown_elements).
    pub fn with_lenient_unknown_elements(mut self, lenient: bool) -> Self {
        self.lenient_unknown_elements = lenient;
        self
    }

    /// Sets [`max_attributes`](Self::max_attributes).
    pub fn with_max_attributes(mut self, attributes: usize) -> Self {
        self.max_attributes = attributes;
        self
    }

    /// Sets [`max_text_bytes`](Self::max_text_bytes).
    pub fn with_max_text_bytes(mut self, bytes: usize) -> Self {
        self.max_text_bytes = bytes;
        self
    }

    /// Sets [`max_mime_parts`](Self::max_mime_parts).
    pub fn with_max_mime_parts(mut self, parts: usize) -> Self {
        self.max_mime_parts = parts;
        self
    }

    /// Sets [`max_depth`](Self::max_depth).
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }
}

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
    /// Attribute names of the tag being read, for the uniqueness check (reused).
    attribute_names: Vec<&'i str>,
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

    /// A reader over bytes that must be UTF-8.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::InvalidUtf8`] with the offset of the first invalid byte.
    pub fn from_bytes(input: &'i [u8], limits: Limits) -> Result<Self, DecodeError> {
        // A UTF-8 byte order mark (XML 1.0 §4.3.3, sent by .NET and PHP servers) is not content.
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        match std::str::from_utf8(input) {
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
                    let c = resolve_reference(name).ok_or_else(|| {
                        self.error_at(
                            DecodeErrorKind::Entity(format!("&{name};")),
                            self.last_event_start,
                        )
                    })?;
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

    /// Reads the current element's text and parses it as a simple type (XML Schema Part 2).
    ///
    /// # Errors
    ///
    /// As [`read_text`](Self::read_text), and [`DecodeErrorKind::InvalidValue`] at the element.
    pub fn read_simple<T: FromXmlText>(&mut self, start: &StartTag<'i>) -> Result<T, DecodeError> {
        let text = self.read_text()?;
        T::from_xml_cow(text, self).map_err(|e| {
            // The end tag is consumed: put the element back on the path (built only on error).
            let mut err = self.error_at(DecodeErrorKind::InvalidValue(e), start.offset);
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// As [`read_simple`](Self::read_simple), but empty content (no characters at all) is read as
    /// `default`: the value of an element whose declaration gives a default or fixed value (XML
    /// Schema Part 1 §3.3.1 {value constraint}, §3.3.4 item 5.1).
    ///
    /// # Errors
    ///
    /// As [`read_simple`](Self::read_simple); an invalid `default` is an invalid value at the element.
    pub fn read_simple_or<T: FromXmlText>(
        &mut self,
        start: &StartTag<'i>,
        default: &str,
    ) -> Result<T, DecodeError> {
        let text = self.read_text()?;
        let text: &str = if text.is_empty() { default } else { &text };
        T::from_xml_text(text, self).map_err(|e| {
            let mut err = self.error_at(DecodeErrorKind::InvalidValue(e), start.offset);
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// Reads the current element's base64Binary content (XML Schema Part 2 §3.2.16) up to and
    /// including its end tag, decoding while the text streams: character data, CDATA sections and
    /// character references (`&#13;`) go straight into the decoder, whatever the line breaks (see
    /// [`crate::base64`]).
    ///
    /// MTOM/XOP (XOP 1.0 §3.2): content that is a single `xop:Include href="cid:…"` element is the
    /// bytes of the attachment with that Content-ID. SwA: an element with an `href="cid:…"`
    /// attribute and no content is the bytes of that attachment. Attachments are shared, not
    /// copied; one part may be referenced more than once.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::InvalidValue`] for invalid base64, with the offset within the element's
    /// text and the document position of the offending character; [`DecodeErrorKind::Attachment`] for
    /// a `cid:` that names no part (or a response without attachments); an element other than
    /// `xop:Include`, or `xop:Include` mixed with text; truncation.
    pub fn read_base64(&mut self, start: &StartTag<'i>) -> Result<Bytes, DecodeError> {
        let href = self.attribute(start, Name::unqualified("href"))?;
        let mut decoder = crate::base64::Decoder::new();
        let mut include: Option<Bytes> = None;
        loop {
            let before = decoder.consumed();
            let (fed, at) = match self.next_token()? {
                Token::Text(raw) => (decoder.feed(raw.as_bytes()), self.last_event_start),
                Token::CData(raw) => (decoder.feed(raw.as_bytes()), self.last_event_start + 9),
                Token::Reference(name) => {
                    let c = resolve_reference(name).ok_or_else(|| {
                        self.error_at(
                            DecodeErrorKind::Entity(format!("&{name};")),
                            self.last_event_start,
                        )
                    })?;
                    let mut buf = [0u8; 4];
                    (
                        decoder.feed(c.encode_utf8(&mut buf).as_bytes()),
                        self.last_event_start,
                    )
                }
                Token::Start(tag) => {
                    let is_include = tag.is(Name::new(XOP_NS, "Include"));
                    if !is_include || include.is_some() {
                        return Err(self.error_at(
                            DecodeErrorKind::UnexpectedElement(format!(
                                "<{}> in base64Binary content (only one xop:Include may be there)",
                                tag.qname()
                            )),
                            tag.offset,
                        ));
                    }
                    let reference = self
                        .attribute(&tag, Name::unqualified("href"))?
                        .ok_or_else(|| {
                            self.error_at(
                                DecodeErrorKind::MissingAttribute("href of xop:Include".to_owned()),
                                tag.offset,
                            )
                        })?;
                    let bytes = self.attachment(&reference, tag.offset)?;
                    self.skip_element()?;
                    include = Some(bytes);
                    continue;
                }
                Token::End => break,
                Token::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                Token::Other => continue,
            };
            if decoder.consumed() > self.limits.max_text_bytes {
                return Err(self.error_at(
                    DecodeErrorKind::TextLimit(self.limits.max_text_bytes),
                    self.last_event_start,
                ));
            }
            if let Err(e) = fed {
                let in_piece = e.offset.saturating_sub(before) as u64;
                let mut err = self.error_at(
                    DecodeErrorKind::InvalidValue(
                        crate::ValueError::new("base64Binary", "…")
                            .because(format!("{e} (offset in the element's text)")),
                    ),
                    at + in_piece,
                );
                err.location.path = self.path();
                return Err(err);
            }
        }
        // The end tag is consumed from here on: errors put the element back on the path.
        if let Some(bytes) = include {
            if decoder.has_data() {
                return Err(self.error_at(
                    DecodeErrorKind::UnexpectedText(
                        "base64 text beside xop:Include in base64Binary content".to_owned(),
                    ),
                    start.offset,
                ));
            }
            return Ok(bytes);
        }
        if let Some(reference) = href {
            if !decoder.has_data() {
                return self
                    .attachment(&reference, start.offset)
                    .map_err(|mut err| {
                        self.push_path(&mut err.location.path, start);
                        err
                    });
            }
        }
        decoder.finish().map(Bytes::from).map_err(|e| {
            let mut err = self.error_at(
                DecodeErrorKind::InvalidValue(
                    crate::ValueError::new("base64Binary", "…")
                        .because(format!("{e} (offset in the element's text)")),
                ),
                start.offset,
            );
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// Reads the current element's text as a WS-I `swaRef` (Attachments Profile 1.0 §4.4: a `cid:`
    /// URL, RFC 2392) up to and including its end tag, and returns the attachment it names: the
    /// part's bytes (shared, not copied) and Content-Type.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::InvalidValue`] for text that is not a `cid:` URL;
    /// [`DecodeErrorKind::Attachment`] for a `cid:` that names no part (or a response without
    /// attachments); as [`read_text`](Self::read_text). Located at the element, with it on the path.
    pub(crate) fn read_swaref(
        &mut self,
        start: &StartTag<'i>,
    ) -> Result<crate::mime::Attachment, DecodeError> {
        let text = self.read_text()?;
        let reference = crate::types::collapse(&text);
        let result = if reference
            .get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case("cid:"))
        {
            self.attachment_part(reference, start.offset)
                .map(crate::mime::Attachment::from_part)
        } else {
            Err(self.error_at(
                DecodeErrorKind::InvalidValue(
                    crate::ValueError::new("swaRef", reference)
                        .because("a swaRef is a cid: URL naming an attachment (WS-I AP 1.0 §4.4)"),
                ),
                start.offset,
            ))
        };
        // The end tag is consumed: put the element back on the path.
        result.map_err(|mut err| {
            self.push_path(&mut err.location.path, start);
            err
        })
    }

    /// The attachment a `cid:` reference names.
    fn attachment(&self, reference: &str, offset: u64) -> Result<Bytes, DecodeError> {
        self.attachment_part(reference, offset)
            .map(|part| part.body.clone())
    }

    /// The part of the message a `cid:` reference names (RFC 2392), or an
    /// [`DecodeErrorKind::Attachment`] error at `offset` naming the Content-IDs there are.
    pub(crate) fn attachment_part(
        &self,
        reference: &str,
        offset: u64,
    ) -> Result<&'i crate::mime::Part, DecodeError> {
        let Some(attachments) = self.attachments else {
            return Err(self.error_at(
                DecodeErrorKind::Attachment(format!(
                    "{reference:?} refers to an attachment, but the response is not a \
                     multipart/related message"
                )),
                offset,
            ));
        };
        match attachments.get(reference) {
            Some(part) => Ok(part),
            None => Err(self.error_at(
                DecodeErrorKind::Attachment(format!(
                    "{reference:?} names no part of the message (Content-IDs: {})",
                    attachments
                        .iter()
                        .map(|p| format!("<{}>", p.content_id.as_deref().unwrap_or("none")))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                offset,
            )),
        }
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

    /// The value of the attribute named `name` on `tag`, normalised (XML 1.0 §3.3.3) and unescaped.
    ///
    /// # Errors
    ///
    /// A malformed attribute list or an undefined entity in a value.
    pub fn attribute<'t>(
        &self,
        tag: &'t StartTag<'i>,
        name: Name<'_>,
    ) -> Result<Option<Cow<'i, str>>, DecodeError> {
        if tag.content.len() == tag.name_len {
            return Ok(None); // no attributes at all: the common case
        }
        for a in tag.attributes() {
            let (qname, raw) =
                a.map_err(|e| self.error_at(DecodeErrorKind::Syntax(e.to_owned()), tag.offset))?;
            let (prefix, local) = split_qname(qname);
            if local != name.local {
                continue;
            }
            // Unprefixed attributes are in no namespace (Namespaces in XML 1.0 §6.2).
            let ns = match prefix {
                None => Some(""),
                Some(p) => self.attribute_namespace(p),
            };
            if ns != Some(name.namespace) {
                continue;
            }
            return self.attribute_text(raw, tag.offset).map(Some);
        }
        Ok(None)
    }

    /// Reads and parses the attribute `name` of `tag` as a simple type; `None` when absent.
    ///
    /// # Errors
    ///
    /// As [`attribute`](Self::attribute), and [`DecodeErrorKind::InvalidValue`].
    pub fn attribute_value<T: FromXmlText>(
        &self,
        tag: &StartTag<'i>,
        name: Name<'_>,
    ) -> Result<Option<T>, DecodeError> {
        match self.attribute(tag, name)? {
            None => Ok(None),
            Some(text) => T::from_xml_text(&text, self).map(Some).map_err(|e| {
                let mut err = self.error_at(DecodeErrorKind::InvalidValue(e), tag.offset);
                err.location.path.push_str("/@");
                err.location.path.push_str(name.local);
                err
            }),
        }
    }

    /// The attributes of `tag` that an `xs:anyAttribute` wildcard takes (XML Schema Part 1 §3.10,
    /// §3.4.4): every attribute except namespace declarations, those in the XML Schema instance
    /// namespace (`xsi:type`, `xsi:nil`, …, which are never matched by a wildcard) and those named in
    /// `known` (the declared attributes); in document order, values normalised and unescaped.
    ///
    /// # Errors
    ///
    /// A malformed attribute list, a prefix bound to no namespace (Namespaces in XML 1.0 §5), or an
    /// undefined entity in a value; the error's path ends in the attribute.
    pub fn other_attributes(
        &self,
        tag: &StartTag<'i>,
        known: &[Name<'_>],
    ) -> Result<Vec<AnyAttribute>, DecodeError> {
        let mut out = Vec::new();
        if tag.content.len() == tag.name_len {
            return Ok(out);
        }
        for a in tag.attributes() {
            let (qname, raw) =
                a.map_err(|e| self.error_at(DecodeErrorKind::Syntax(e.to_owned()), tag.offset))?;
            if qname == "xmlns" || qname.starts_with("xmlns:") {
                continue;
            }
            let (prefix, local) = split_qname(qname);
            let namespace = match prefix {
                None => "",
                Some(p) => match self.attribute_namespace(p) {
                    Some(ns) => ns,
                    None => {
                        let mut err = self.error_at(
                            DecodeErrorKind::Syntax(format!(
                                "the prefix of attribute {qname} is not bound to a namespace"
                            )),
                            tag.offset,
                        );
                        err.location.path.push_str("/@");
                        err.location.path.push_str(qname);
                        return Err(err);
                    }
                },
            };
            if namespace == XSI_NS
                || known
                    .iter()
                    .any(|n| n.namespace == namespace && n.local == local)
            {
                continue;
            }
            let value = self.attribute_text(raw, tag.offset)?.into_owned();
            out.push(AnyAttribute {
                namespace: namespace.to_owned(),
                local: local.to_owned(),
                value,
            });
        }
        Ok(out)
    }

    /// Whether `tag` carries `xsi:nil="true"` (or `"1"`), XML Schema Part 1 §2.6.2.
    ///
    /// # Errors
    ///
    /// A malformed attribute list, or an `xsi:nil` value that is not a boolean.
    #[inline]
    pub fn is_nil(&self, tag: &StartTag<'i>) -> Result<bool, DecodeError> {
        if tag.content.len() == tag.name_len {
            return Ok(false); // no attributes: the common case, decided inline
        }
        Ok(self
            .attribute_value::<NilFlag>(tag, Name::new(XSI_NS, "nil"))?
            .is_some_and(|f| f.0))
    }

    /// The `xsi:type` of `tag` (XML Schema Part 1 §2.6.1): the type the element's content claims,
    /// its prefix resolved against the bindings in scope at `tag` (declared on it or on any
    /// ancestor; an unprefixed value takes the default namespace). `None` when absent.
    ///
    /// # Errors
    ///
    /// A malformed attribute list, or a value that is not a QName or whose prefix is not bound
    /// ([`DecodeErrorKind::InvalidValue`], at `…/@type`).
    pub fn xsi_type(&self, tag: &StartTag<'i>) -> Result<Option<crate::types::QName>, DecodeError> {
        self.attribute_value(tag, Name::new(XSI_NS, "type"))
    }

    /// The error for an element of the declared type `declared` whose `xsi:type` is `found` (a
    /// type the client does not know as `declared` or derived from it), or, with `found` `None`,
    /// which has no `xsi:type` although `declared` is abstract (XML Schema Part 1 §3.3.4
    /// Element Locally Valid (Element) 4.3, §3.4.1 {abstract}). `known` lists the types accepted.
    pub fn unexpected_type(
        &self,
        tag: &StartTag<'i>,
        found: Option<&crate::types::QName>,
        declared: Name<'_>,
        known: &str,
    ) -> DecodeError {
        let declared = crate::types::QName::new(declared.namespace, declared.local);
        let message = match found {
            Some(t) => format!(
                "xsi:type {t} is not {declared} or a type derived from it that this client knows \
                 (known: {known})"
            ),
            None => format!(
                "no xsi:type on an element of the abstract type {declared}: one of {known} is \
                 needed"
            ),
        };
        self.error_at(DecodeErrorKind::UnexpectedType(message), tag.offset)
    }

    /// With [`Limits::lenient_unknown_elements`]: an element whose `xsi:type` is unknown (see
    /// [`unexpected_type`](Self::unexpected_type)) is read as its declared, non-abstract type
    /// instead, the elements of the unknown extension skipped, and a warning logged (target
    /// `soapgen::lenient`) with the path and both type names.
    ///
    /// # Errors
    ///
    /// Not lenient: the [`unexpected_type`](Self::unexpected_type) error.
    pub fn lenient_type(
        &self,
        tag: &StartTag<'i>,
        found: &crate::types::QName,
        declared: Name<'_>,
        known: &str,
    ) -> Result<(), DecodeError> {
        let err = self.unexpected_type(tag, Some(found), declared, known);
        if !self.limits.lenient_unknown_elements {
            return Err(err);
        }
        tracing::warn!(
            target: "soapgen::lenient",
            path = %err.location.path,
            line = err.location.line,
            column = err.location.column,
            xsi_type = %found,
            declared = %crate::types::QName::new(declared.namespace, declared.local),
            "unknown xsi:type read as the declared type (lenient decoding)"
        );
        Ok(())
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

    /// An error of `kind` at the current position and path.
    pub fn error(&self, kind: DecodeErrorKind) -> DecodeError {
        self.error_at(kind, self.pos as u64)
    }

    /// An error of `kind` at byte `offset`, with the current path.
    pub fn error_at(&self, kind: DecodeErrorKind, offset: u64) -> DecodeError {
        let off = (offset as usize).min(self.input.len());
        let prefix = self.input.get(..off).unwrap_or(self.input);
        DecodeError::new(kind, location_in(prefix, offset, self.path()))
    }

    /// "Unexpected element" for `tag` (which was just read: its name is on the path).
    pub fn unexpected(&self, tag: &StartTag<'i>) -> DecodeError {
        let ns = tag.namespace;
        let name = if ns.is_empty() {
            tag.local_name().to_owned()
        } else {
            format!("{{{ns}}}{}", tag.local_name())
        };
        self.error_at(DecodeErrorKind::UnexpectedElement(name), tag.offset)
    }

    /// An element that the expected content has no place for, just read: an error
    /// ([`unexpected`](Self::unexpected)), or with
    /// [`Limits::lenient_unknown_elements`] skipped (with its content) and logged as a warning.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::UnexpectedElement`] when not lenient; malformed XML while skipping.
    pub fn unknown_element(&mut self, tag: &StartTag<'i>) -> Result<(), DecodeError> {
        if !self.limits.lenient_unknown_elements {
            return Err(self.unexpected(tag));
        }
        let err = self.unexpected(tag);
        let xml = self.read_outer_xml(tag)?;
        let mut end = xml.len().min(512);
        while !xml.is_char_boundary(end) {
            end -= 1;
        }
        tracing::warn!(
            target: "soapgen::lenient",
            path = %err.location.path,
            line = err.location.line,
            column = err.location.column,
            xml = &xml[..end],
            "unknown element skipped (lenient decoding)"
        );
        Ok(())
    }

    /// "Missing required element" for `name`, inside the current element.
    pub fn missing(&self, name: Name<'_>) -> DecodeError {
        self.error(DecodeErrorKind::MissingElement(name.local.to_owned()))
    }

    /// "Missing required element" for `name` inside `parent`, whose content was just read (its end
    /// tag consumed): located at the parent's start tag, with the parent on the path.
    pub fn missing_in(&self, parent: &StartTag<'i>, name: Name<'_>) -> DecodeError {
        let mut e = self.error_at(
            DecodeErrorKind::MissingElement(name.local.to_owned()),
            parent.offset(),
        );
        self.push_path(&mut e.location.path, parent);
        e
    }

    /// "Element appears more than once" for `tag`.
    pub fn duplicate(&self, tag: &StartTag<'i>) -> DecodeError {
        self.error_at(
            DecodeErrorKind::DuplicateElement(tag.local_name().to_owned()),
            tag.offset,
        )
    }

    /// The current element path (`Body/Op/field`).
    pub fn path(&self) -> String {
        let mut p = String::new();
        for open in self.stack.iter().skip(self.path_skip) {
            let q = open.qname;
            if !p.is_empty() {
                p.push('/');
            }
            p.push_str(match q.find(':') {
                Some(i) => &q[i + 1..],
                None => q,
            });
        }
        p
    }

    /// Byte position just after the last event read.
    pub(crate) fn position(&self) -> usize {
        self.pos
    }

    /// Current depth (number of open elements).
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    /// Reads the next token: a start tag (pushed on the stack of open elements, its namespace
    /// declarations in scope), an end tag (checked against the start tag and popped), a run of
    /// character data, a reference, a CDATA section, or markup that carries no data.
    fn next_token(&mut self) -> Result<Token<'i>, DecodeError> {
        if let Some(n) = self.pending_pop.take() {
            self.bindings.truncate(n);
        }
        let start = self.pos;
        self.last_event_start = start as u64;
        if self.empty_pending {
            // XML 1.0 §3.1: an empty-element tag is the start and end of one element.
            self.empty_pending = false;
            self.close_element();
            return Ok(Token::End);
        }
        let bytes = self.input.as_bytes();
        let Some(&first) = bytes.get(start) else {
            return Ok(Token::Eof);
        };
        match first {
            b'<' => match bytes.get(start + 1) {
                Some(b'/') => self.end_tag(start),
                Some(b'!') => self.bang(start),
                Some(b'?') => self.processing_instruction(start),
                Some(_) => self.start_tag(start),
                None => Err(self.error_at(DecodeErrorKind::Truncated, start as u64)),
            },
            b'&' => self.reference(start),
            _ => {
                let end = memchr2(b'<', b'&', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                self.pos = end;
                Ok(Token::Text(&self.input[start..end]))
            }
        }
    }

    /// Pops the innermost open element; its declarations leave scope with the next token.
    fn close_element(&mut self) {
        if let Some(open) = self.stack.pop() {
            self.pending_pop = Some(open.bindings_len);
        }
    }

    /// `&name;` or `&#n;` at `start` (XML 1.0 §4.1); the name is checked by the caller.
    fn reference(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let rest = &self.input.as_bytes()[start + 1..];
        match memchr3(b';', b'<', b'&', rest) {
            Some(j) if j > 0 && rest[j] == b';' && !rest[..j].iter().any(|&b| is_space(b)) => {
                self.pos = start + 2 + j;
                Ok(Token::Reference(&self.input[start + 1..start + 1 + j]))
            }
            _ => Err(self.error_at(
                DecodeErrorKind::Syntax(
                    "unclosed reference: `&` starts no `&name;` or `&#n;` (XML 1.0 §4.1)"
                        .to_owned(),
                ),
                start as u64,
            )),
        }
    }

    /// An end tag at `start` (XML 1.0 §3.1 production ETag): it must name the innermost open
    /// element (§3 well-formedness constraint Element Type Match).
    fn end_tag(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let bytes = self.input.as_bytes();
        let Some(k) = memchr(b'>', &bytes[start + 2..]) else {
            return Err(self.error_at(DecodeErrorKind::Truncated, start as u64));
        };
        let gt = start + 2 + k;
        let name = self.input[start + 2..gt].trim_end_matches([' ', '\t', '\r', '\n']);
        let kind = match self.stack.last() {
            Some(open) if open.qname == name => None,
            Some(open) => Some(format!(
                "end tag </{name}> does not match the start tag <{}> (XML 1.0 §3)",
                open.qname
            )),
            None => Some(format!(
                "end tag </{name}> without a start tag (XML 1.0 §3)"
            )),
        };
        if let Some(message) = kind {
            return Err(self.error_at(DecodeErrorKind::Syntax(message), start as u64));
        }
        self.pos = gt + 1;
        self.close_element();
        Ok(Token::End)
    }

    /// Markup starting `<!` at `start`: a comment, a CDATA section, or a refused DOCTYPE.
    fn bang(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let rest = &self.input.as_bytes()[start..];
        let at = start as u64;
        if rest.starts_with(b"<!--") {
            // XML 1.0 §2.5.
            return match memmem::find(&rest[4..], b"-->") {
                Some(k) => {
                    self.pos = start + 4 + k + 3;
                    Ok(Token::Other)
                }
                None => Err(self.error_at(DecodeErrorKind::Truncated, at)),
            };
        }
        if rest.starts_with(b"<![CDATA[") {
            // XML 1.0 §2.7.
            return match memmem::find(&rest[9..], b"]]>") {
                Some(k) => {
                    self.pos = start + 9 + k + 3;
                    Ok(Token::CData(&self.input[start + 9..start + 9 + k]))
                }
                None => Err(self.error_at(DecodeErrorKind::Truncated, at)),
            };
        }
        let doctype = b"<!DOCTYPE";
        if rest.len() >= doctype.len() && rest[..doctype.len()].eq_ignore_ascii_case(doctype) {
            return Err(self.error_at(DecodeErrorKind::DocType, at));
        }
        let cut_short =
            |full: &[u8]| rest.len() < full.len() && full[..rest.len()].eq_ignore_ascii_case(rest);
        if cut_short(b"<!--") || cut_short(b"<![CDATA[") || cut_short(doctype) {
            return Err(self.error_at(DecodeErrorKind::Truncated, at));
        }
        Err(self.error_at(
            DecodeErrorKind::Syntax(
                "`<!` starts no comment, CDATA section or document type declaration".to_owned(),
            ),
            at,
        ))
    }

    /// A processing instruction at `start` (XML 1.0 §2.6), or the XML declaration (§2.8), whose
    /// encoding must be UTF-8 here (§4.3.3; [`to_utf8`](crate::xml::to_utf8) transcodes others).
    fn processing_instruction(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let bytes = self.input.as_bytes();
        let Some(k) = memmem::find(&bytes[start + 2..], b"?>") else {
            return Err(self.error_at(DecodeErrorKind::Truncated, start as u64));
        };
        let content = &self.input[start + 2..start + 2 + k];
        let target_len = content.bytes().position(is_space).unwrap_or(content.len());
        if &content[..target_len] == "xml" {
            let declaration = Attributes {
                s: &content[target_len..],
                pos: 0,
            };
            for a in declaration {
                let (name, value) = a.map_err(|e| {
                    self.error_at(
                        DecodeErrorKind::Syntax(format!("XML declaration: {e}")),
                        start as u64,
                    )
                })?;
                let enc = value.to_ascii_lowercase();
                if name == "encoding" && enc != "utf-8" && enc != "utf8" {
                    return Err(self.error_at(
                        DecodeErrorKind::Other(format!(
                            "document encoding {enc:?}: XmlReader reads UTF-8; transcode first with xml::to_utf8 (read_response does)"
                        )),
                        start as u64,
                    ));
                }
            }
        }
        self.pos = start + 2 + k + 2;
        Ok(Token::Other)
    }

    /// A start tag at `start` (XML 1.0 §3.1 productions STag, EmptyElemTag): its attributes are
    /// checked (syntax, uniqueness, the attribute limit), its namespace declarations put in scope,
    /// the depth limit applied, and its name's namespace resolved (Namespaces in XML 1.0 §6).
    fn start_tag(&mut self, start: usize) -> Result<Token<'i>, DecodeError> {
        let bytes = self.input.as_bytes();
        let offset = start as u64;
        // The `>` that ends the tag: the first one outside quoted attribute values.
        let mut i = start + 1;
        let gt = loop {
            let Some(k) = memchr3(b'>', b'"', b'\'', &bytes[i..]) else {
                return Err(self.error_at(DecodeErrorKind::Truncated, offset));
            };
            let j = i + k;
            if bytes[j] == b'>' {
                break j;
            }
            let Some(m) = memchr(bytes[j], &bytes[j + 1..]) else {
                return Err(self.error_at(DecodeErrorKind::Truncated, offset));
            };
            i = j + m + 2;
        };
        let mut content = &self.input[start + 1..gt];
        let empty = content.ends_with('/');
        if empty {
            content = &content[..content.len() - 1];
        }
        let cb = content.as_bytes();
        // One pass over the name: where it ends and where its local part starts.
        let mut name_len = cb.len();
        let mut local_start = 0;
        for (k, &b) in cb.iter().enumerate() {
            if b == b':' && local_start == 0 {
                local_start = k + 1;
            } else if is_space(b) {
                name_len = k;
                break;
            }
        }
        if name_len == 0 {
            return Err(self.error_at(
                DecodeErrorKind::Syntax("a start tag without an element name".to_owned()),
                offset,
            ));
        }
        let bindings_len = self.bindings.len();
        if name_len < cb.len() {
            if let Err(kind) = self.scan_attributes(&content[name_len..]) {
                self.bindings.truncate(bindings_len);
                return Err(self.error_at(kind, offset));
            }
        }
        if self.stack.len() >= self.limits.max_depth {
            self.bindings.truncate(bindings_len);
            return Err(self.error_at(DecodeErrorKind::DepthLimit(self.limits.max_depth), offset));
        }
        let qname = &content[..name_len];
        self.stack.push(Open {
            qname,
            bindings_len,
        });
        self.pos = gt + 1;
        self.empty_pending = empty;
        let namespace = if local_start == 0 {
            // Namespaces in XML 1.0 §6.2: the default namespace, if one is declared.
            self.lookup("").unwrap_or("")
        } else {
            let prefix = &qname[..local_start - 1];
            match self.lookup(prefix) {
                Some(ns) if !prefix.is_empty() => ns,
                None if prefix == "xml" => crate::xml::XML_NS,
                _ => {
                    return Err(self.error_at(
                        DecodeErrorKind::Syntax(format!("unbound namespace prefix {prefix:?}")),
                        offset,
                    ))
                }
            }
        };
        Ok(Token::Start(StartTag {
            content,
            name_len,
            local_start,
            offset,
            namespace,
        }))
    }

    /// Checks the attribute part of a start tag and puts its namespace declarations in scope
    /// (Namespaces in XML 1.0 §3: `xml` only for its own namespace, `xmlns` never declared).
    fn scan_attributes(&mut self, attrs: &'i str) -> Result<(), DecodeErrorKind> {
        let mut names = std::mem::take(&mut self.attribute_names);
        names.clear();
        let own = self.bindings.len();
        let mut result = Ok(());
        for a in (Attributes { s: attrs, pos: 0 }) {
            let (name, value) = match a {
                Ok(a) => a,
                Err(e) => {
                    result = Err(DecodeErrorKind::Syntax(e.to_owned()));
                    break;
                }
            };
            if names.len() >= self.limits.max_attributes {
                result = Err(DecodeErrorKind::AttributeLimit(self.limits.max_attributes));
                break;
            }
            let declared = name == "xmlns" || name.starts_with("xmlns:");
            if names.contains(&name) {
                // gSOAP repeats a namespace declaration on elements it re-serialises (kept
                // `xs:any` content): the same binding twice is read as one.
                let prefix = name.strip_prefix("xmlns:").unwrap_or("");
                if declared
                    && self.bindings[own..]
                        .iter()
                        .any(|b| b.prefix == prefix && b.uri == value)
                {
                    continue;
                }
                result = Err(DecodeErrorKind::Syntax(format!(
                    "attribute {name} appears twice in one start tag (XML 1.0 §3.1 Unique Att Spec)"
                )));
                break;
            }
            names.push(name);
            let prefix = if name == "xmlns" {
                ""
            } else if let Some(p) = name.strip_prefix("xmlns:") {
                p
            } else {
                continue;
            };
            let misuse = match prefix {
                "xml" if value == crate::xml::XML_NS => continue,
                "xml" => Some("the prefix xml bound to another namespace"),
                "xmlns" => Some("the prefix xmlns declared"),
                _ if value == crate::xml::XML_NS || value == XMLNS_NS => {
                    Some("a reserved namespace bound to another prefix")
                }
                _ => None,
            };
            if let Some(m) = misuse {
                result = Err(DecodeErrorKind::Syntax(format!(
                    "{m} in {name}=\"{value}\" (Namespaces in XML 1.0 §3)"
                )));
                break;
            }
            self.bindings.push(Binding { prefix, uri: value });
        }
        self.attribute_names = names;
        result
    }

    /// The URI bound to `prefix` (`""`: the default namespace) by the innermost declaration in
    /// scope, as written (`""` when the declaration undeclares it).
    fn lookup(&self, prefix: &str) -> Option<&'i str> {
        self.bindings
            .iter()
            .rev()
            .find(|b| b.prefix == prefix)
            .map(|b| b.uri)
    }

    /// The namespace of a prefixed attribute name (Namespaces in XML 1.0 §6.3; `xml` and `xmlns`
    /// are bound by definition, §3); `None` for an unbound prefix.
    fn attribute_namespace(&self, prefix: &str) -> Option<&'i str> {
        match prefix {
            "xml" => Some(crate::xml::XML_NS),
            "xmlns" => Some(XMLNS_NS),
            _ => self.lookup(prefix).filter(|u| !u.is_empty()),
        }
    }

    fn attribute_text(&self, raw: &'i str, offset: u64) -> Result<Cow<'i, str>, DecodeError> {
        // XML 1.0 §3.3.3: each literal whitespace character becomes a space (after §2.11 line-end
        // normalisation); references are then expanded (a `&#10;` stays a line feed).
        let normalized: Cow<'i, str> = if raw.bytes().any(|b| matches!(b, b'\t' | b'\n' | b'\r')) {
            Cow::Owned(raw.replace("\r\n", " ").replace(['\t', '\n', '\r'], " "))
        } else {
            Cow::Borrowed(raw)
        };
        if !normalized.contains('&') {
            return Ok(normalized);
        }
        let mut out = String::with_capacity(normalized.len());
        let mut rest: &str = &normalized;
        while let Some(i) = rest.find('&') {
            out.push_str(&rest[..i]);
            let after = &rest[i + 1..];
            let Some(j) = after.find(';') else {
                return Err(self.error_at(
                    DecodeErrorKind::Entity("unterminated reference in attribute value".to_owned()),
                    offset,
                ));
            };
            let name = &after[..j];
            match resolve_reference(name) {
                Some(c) => out.push(c),
                None => {
                    return Err(self.error_at(DecodeErrorKind::Entity(format!("&{name};")), offset))
                }
            }
            rest = &after[j + 1..];
        }
        out.push_str(rest);
        Ok(Cow::Owned(out))
    }
}

impl PrefixResolver for XmlReader<'_> {
    fn attachment(&self, reference: &str) -> Option<crate::mime::Attachment> {
        self.attachments?
            .get(reference)
            .map(crate::mime::Attachment::from_part)
    }

    fn resolve_prefix(&self, prefix: &str) -> Option<String> {
        match self.lookup(prefix) {
            Some(uri) if !uri.is_empty() => Some(uri.to_owned()),
            _ if prefix.is_empty() => Some(String::new()),
            _ if prefix == "xml" => Some(crate::xml::XML_NS.to_owned()),
            _ => None,
        }
    }
}

/// `xsi:nil` values: XSD boolean.
struct NilFlag(bool);

impl FromXmlText for NilFlag {
    fn from_xml_text(text: &str, _: &dyn PrefixResolver) -> Result<Self, crate::ValueError> {
        match crate::types::collapse(text) {
            "true" | "1" => Ok(NilFlag(true)),
            "false" | "0" => Ok(NilFlag(false)),
            _ => Err(crate::ValueError::new("boolean", text)),
        }
    }
}

/// The character a reference names: the five predefined entities (XML 1.0 §4.6) or a character
/// reference (§4.1) to a character allowed by §2.2.
fn resolve_reference(name: &str) -> Option<char> {
    let c = match name {
        "lt" => '<',
        "gt" => '>',
        "amp" => '&',
        "apos" => '\'',
        "quot" => '"',
        _ => {
            let n = if let Some(hex) = name.strip_prefix("#x") {
                u32::from_str_radix(hex, 16).ok()?
            } else if let Some(dec) = name.strip_prefix('#') {
                dec.parse::<u32>().ok()?
            } else {
                return None;
            };
            let c = char::from_u32(n)?;
            let allowed = matches!(c, '\t' | '\n' | '\r')
                || ('\u{20}'..='\u{D7FF}').contains(&c)
                || ('\u{E000}'..='\u{FFFD}').contains(&c)
                || c >= '\u{10000}';
            if !allowed {
                return None;
            }
            c
        }
    };
    Some(c)
}

/// `(prefix, local part)` of a qualified name (Namespaces in XML 1.0 §4).
fn split_qname(q: &str) -> (Option<&str>, &str) {
    match q.find(':') {
        Some(i) => (Some(&q[..i]), &q[i + 1..]),
        None => (None, q),
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

#[inline]
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn excerpt(s: &str) -> String {
    let t = s.trim();
    let mut e: String = t.chars().take(40).collect();
    if e.len() < t.len() {
        e.push('…');
    }
    e
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
mod tests {
    use super::*;

    fn kind(doc: &str) -> DecodeErrorKind {
        let mut r = XmlReader::new(doc);
        let res = (|| {
            r.root()?;
            r.skip_element()?;
            r.finish()
        })();
        res.unwrap_err().kind
    }

    #[test]
    fn text_is_borrowed_when_it_is_one_run() {
        let doc = "<a>hello world</a>";
        let mut r = XmlReader::new(doc);
        r.root().unwrap();
        let t = r.read_text().unwrap();
        assert!(matches!(t, Cow::Borrowed(_)));
        assert_eq!(t, "hello world");
    }

    #[test]
    fn references_cdata_and_line_ends() {
        let doc = "<a>x &amp; y &#13;&#x41;\r\nz<![CDATA[<raw>]]></a>";
        let mut r = XmlReader::new(doc);
        r.root().unwrap();
        assert_eq!(r.read_text().unwrap(), "x & y \rA\nz<raw>");
    }

    #[test]
    fn refuses_doctype_and_unknown_entities() {
        assert_eq!(
            kind("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>"),
            DecodeErrorKind::DocType
        );
        let mut r = XmlReader::new("<a>&x;</a>");
        r.root().unwrap();
        assert!(matches!(
            r.read_text().unwrap_err().kind,
            DecodeErrorKind::Entity(_)
        ));
    }

    #[test]
    fn truncation_is_an_error() {
        for doc in ["<a><b>x</b>", "<a><b>x</b", "<a><b x='1", "<a>"] {
            let k = kind(doc);
            assert!(
                matches!(k, DecodeErrorKind::Truncated | DecodeErrorKind::Syntax(_)),
                "{doc}: {k:?}"
            );
        }
        assert_eq!(kind("<a><b>x</b>"), DecodeErrorKind::Truncated);
    }

    #[test]
    fn trailing_content_and_empty() {
        assert_eq!(kind("<a/><b/>"), DecodeErrorKind::TrailingContent);
        assert_eq!(kind("  "), DecodeErrorKind::Empty);
    }

    #[test]
    fn depth_limit() {
        let doc = "<a>".repeat(10) + &"</a>".repeat(10);
        let mut r = XmlReader::with_limits(&doc, Limits::default().with_max_depth(5));
        r.root().unwrap();
        let e = r.skip_element().unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::DepthLimit(5));
    }

    #[test]
    fn namespaces_and_attributes() {
        let doc = r#"<r xmlns="urn:d" xmlns:p="urn:p" p:at="a&amp;b" plain=" x
y "><c/><p:c xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/><u xmlns=""/></r>"#;
        let mut r = XmlReader::new(doc);
        let root = r.root().unwrap();
        assert!(r.matches(&root, Name::new("urn:d", "r")));
        assert_eq!(
            r.attribute(&root, Name::new("urn:p", "at"))
                .unwrap()
                .unwrap(),
            "a&b"
        );
        assert_eq!(
            r.attribute(&root, Name::unqualified("plain"))
                .unwrap()
                .unwrap(),
            " x y "
        );
        assert!(r
            .attribute(&root, Name::unqualified("at"))
            .unwrap()
            .is_none());
        let c = r.next_child().unwrap().unwrap();
        assert!(r.matches(&c, Name::new("urn:d", "c")));
        assert!(!r.is_nil(&c).unwrap());
        r.skip_element().unwrap();
        let pc = r.next_child().unwrap().unwrap();
        assert!(r.matches(&pc, Name::new("urn:p", "c")));
        assert!(r.is_nil(&pc).unwrap());
        r.skip_element().unwrap();
        let u = r.next_child().unwrap().unwrap();
        assert!(r.matches(&u, Name::unqualified("u")));
        r.skip_element().unwrap();
        assert!(r.next_child().unwrap().is_none());
        r.finish().unwrap();
    }

    #[test]
    fn errors_carry_path_and_position() {
        let doc = "<Envelope>\n<Body>\n  <Op>text<x/></Op></Body></Envelope>";
        let mut r = XmlReader::new(doc);
        r.set_path_skip(1);
        r.root().unwrap();
        r.next_child().unwrap();
        r.next_child().unwrap();
        let e = r.next_child().unwrap_err();
        assert_eq!(e.path(), "Body/Op");
        assert_eq!((e.location.line, e.location.column), (3, 7));
        assert!(
            e.to_string()
                .starts_with("Body/Op: unexpected text \"text\""),
            "{e}"
        );
    }

    #[test]
    fn inner_xml_is_verbatim() {
        let doc = "<a><d><x:e xmlns:x='u'>t</x:e><f/></d><g/></a>";
        let mut r = XmlReader::new(doc);
        r.root().unwrap();
        r.next_child().unwrap().unwrap();
        assert_eq!(r.read_inner_xml().unwrap(), "<x:e xmlns:x='u'>t</x:e><f/>");
        let g = r.next_child().unwrap().unwrap();
        assert_eq!(g.local_name(), "g");
        assert_eq!(r.read_inner_xml().unwrap(), "");
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let mut r = XmlReader::from_bytes(
            b"\xEF\xBB\xBF<?xml version=\"1.0\"?><a>x</a>",
            Limits::default(),
        )
        .unwrap();
        let a = r.root().unwrap();
        assert_eq!(a.local_name(), "a");
        assert_eq!(r.read_text().unwrap(), "x");
    }

    #[test]
    fn attributes_are_well_formed_and_unique() {
        let k = kind(r#"<a x="1" x="2"/>"#);
        assert!(
            matches!(&k, DecodeErrorKind::Syntax(m) if m.contains("twice")),
            "{k:?}"
        );
        for doc in [r#"<a x/>"#, r#"<a x=1/>"#, r#"<a ="1"/>"#] {
            let k = kind(doc);
            assert!(matches!(k, DecodeErrorKind::Syntax(_)), "{doc}: {k:?}");
        }
        // The same declaration twice (as gSOAP re-serialises kept content) is one binding; two
        // different ones for a prefix are an error.
        let mut r = XmlReader::new(r#"<p:a xmlns:p="urn:p" xmlns:p="urn:p"/>"#);
        assert_eq!(r.root().unwrap().namespace(), "urn:p");
        let k = kind(r#"<p:a xmlns:p="urn:p" xmlns:p="urn:q"/>"#);
        assert!(matches!(k, DecodeErrorKind::Syntax(_)), "{k:?}");
        let k = kind(r#"<a xmlns:xml="urn:x"/>"#);
        assert!(matches!(k, DecodeErrorKind::Syntax(_)), "{k:?}");
        assert!(matches!(kind("<p:a/>"), DecodeErrorKind::Syntax(m) if m.contains("unbound")));
        assert!(matches!(kind("<a></b>"), DecodeErrorKind::Syntax(m) if m.contains("</b>")));
        assert!(matches!(kind("<a>&amp</a>"), DecodeErrorKind::Syntax(_)));
        assert_eq!(kind("<a><!-- x"), DecodeErrorKind::Truncated);
        assert_eq!(kind("<a><![CDATA[x"), DecodeErrorKind::Truncated);
        assert_eq!(kind("<a b='>"), DecodeErrorKind::Truncated);
    }

    #[test]
    fn an_element_keeps_its_declarations_while_its_value_is_parsed() {
        // A QName value is parsed after its end tag was read: the prefix declared on the element
        // itself must still resolve (Namespaces in XML 1.0 §6.1), and not after the next token.
        let doc = r#"<r><v xmlns:p="urn:p">p:x</v><w>p:y</w></r>"#;
        let mut r = XmlReader::new(doc);
        r.root().unwrap();
        let v = r.next_child().unwrap().unwrap();
        let q: crate::types::QName = r.read_simple(&v).unwrap();
        assert_eq!(q, crate::types::QName::new("urn:p", "x"));
        let w = r.next_child().unwrap().unwrap();
        let e = r.read_simple::<crate::types::QName>(&w).unwrap_err();
        assert!(matches!(e.kind, DecodeErrorKind::InvalidValue(_)), "{e}");
    }

    #[test]
    fn text_in_pieces_is_joined_and_limited() {
        let doc = "<a>one\r\ntwo &lt;3&gt;\rfour<!--c--><![CDATA[\r]]></a>";
        let mut r = XmlReader::new(doc);
        r.root().unwrap();
        assert_eq!(r.read_text().unwrap(), "one\ntwo <3>\nfour\r");
        let doc = format!("<a>{}&amp;</a>", "x".repeat(10));
        let mut r = XmlReader::with_limits(&doc, Limits::default().with_max_text_bytes(10));
        r.root().unwrap();
        assert_eq!(
            r.read_text().unwrap_err().kind,
            DecodeErrorKind::TextLimit(10)
        );
        let doc = format!("<a>{}</a>", "x".repeat(11));
        let mut r = XmlReader::with_limits(&doc, Limits::default().with_max_text_bytes(10));
        r.root().unwrap();
        assert_eq!(
            r.read_text().unwrap_err().kind,
            DecodeErrorKind::TextLimit(10)
        );
        // An end tag with space before `>` and an empty-element tag take the general path.
        let mut r = XmlReader::new("<a><b>t</b ><c/></a>");
        r.root().unwrap();
        r.next_child().unwrap().unwrap();
        assert_eq!(r.read_text().unwrap(), "t");
        r.next_child().unwrap().unwrap();
        assert_eq!(r.read_text().unwrap(), "");
        assert!(r.next_child().unwrap().is_none());
        r.finish().unwrap();
    }

    #[test]
    fn invalid_utf8_has_offset() {
        let e = XmlReader::from_bytes(b"<a>\n ok \xff</a>", Limits::default()).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::InvalidUtf8);
        assert_eq!(e.location.offset, 8);
        assert_eq!((e.location.line, e.location.column), (2, 5));
    }
}
