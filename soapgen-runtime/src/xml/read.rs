//! The streaming XML reader used for responses.
//!
//! A pull reader over the whole response held in memory (`&str`), built on quick-xml's namespace-aware
//! reader. Nothing is copied unless it must be: element names, attribute values and text without
//! entity references are borrowed from the response buffer. It refuses document type declarations,
//! expands only the five predefined entities and character references (XML 1.0 §4.1, §4.6), normalises
//! line ends in text (§2.11) and attribute values (§3.3.3), limits element depth, and keeps the element
//! path for errors.

use std::borrow::Cow;

use quick_xml::events::attributes::Attributes;
use quick_xml::events::Event;
use quick_xml::name::{QName, ResolveResult};
use quick_xml::NsReader;

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

/// A start tag just read: its qualified name and attributes, borrowed from the document.
#[derive(Debug, Clone, Copy)]
pub struct StartTag<'i> {
    /// The text between `<` and `>` (name and attributes).
    content: &'i str,
    name_len: usize,
    /// Start of the local part within the name (after the colon, or 0).
    local_start: usize,
    /// Byte offset of the `<`.
    offset: u64,
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

    fn attributes(&self) -> Attributes<'i> {
        Attributes::new(self.content, self.name_len)
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
    inner: NsReader<&'i [u8]>,
    input: &'i str,
    /// Qualified names of the open elements.
    stack: Vec<&'i str>,
    /// Leading path entries left out of error paths (the SOAP Envelope).
    path_skip: usize,
    limits: Limits,
    /// Position before the last event read (its first byte).
    last_event_start: u64,
    root_seen: bool,
    /// MTOM/SwA parts that `xop:Include` and `href="cid:…"` resolve to.
    attachments: Option<&'i Attachments>,
}

impl std::fmt::Debug for XmlReader<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XmlReader")
            .field("position", &self.inner.buffer_position())
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
        let mut inner = NsReader::from_str(input);
        let cfg = inner.config_mut();
        cfg.expand_empty_elements = true;
        cfg.check_end_names = true;
        cfg.trim_text(false);
        cfg.trim_markup_names_in_closing_tags = true;
        XmlReader {
            inner,
            input,
            stack: Vec::new(),
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
            match self.next_event()? {
                Event::Start(_) => return self.pushed_start().map(Some),
                Event::End(_) => {
                    self.stack.pop();
                    return Ok(None);
                }
                Event::Text(t) => {
                    let raw = self.borrowed(&t).unwrap_or_default();
                    if !is_xml_whitespace(raw) {
                        return Err(self.error_at(
                            DecodeErrorKind::UnexpectedText(excerpt(raw)),
                            self.last_event_start,
                        ));
                    }
                }
                Event::CData(c) => {
                    let raw = self.borrowed(&c).unwrap_or_default();
                    if !is_xml_whitespace(raw) {
                        return Err(self.error_at(
                            DecodeErrorKind::UnexpectedText(excerpt(raw)),
                            self.last_event_start,
                        ));
                    }
                }
                Event::GeneralRef(_) => {
                    return Err(self.error_at(
                        DecodeErrorKind::UnexpectedText("&…;".to_owned()),
                        self.last_event_start,
                    ))
                }
                Event::Eof => {
                    if self.stack.is_empty() {
                        return Ok(None);
                    }
                    return Err(self.error(DecodeErrorKind::Truncated));
                }
                // Comments, PIs and the declaration carry no data.
                _ => {}
            }
        }
    }

    /// Whether `tag` has the expanded name `name`. Call it right after the tag was read, before
    /// reading its content (namespace scope is that of the tag).
    pub fn matches(&self, tag: &StartTag<'i>, name: Name<'_>) -> bool {
        tag.local_name() == name.local && self.namespace_of(tag) == name.namespace.as_bytes()
    }

    /// The namespace URI of `tag` (empty for no namespace). Valid right after the tag was read.
    pub fn namespace_of(&self, tag: &StartTag<'i>) -> &[u8] {
        match self.inner.resolve_element(QName(tag.qname().as_bytes())).0 {
            ResolveResult::Bound(ns) => ns.into_inner(),
            ResolveResult::Unbound => b"",
            // next_child() refuses unbound prefixes, so this is not reached for tags it returned.
            ResolveResult::Unknown(_) => b"\0unbound",
        }
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
        let mut acc: Option<Cow<'i, str>> = None;
        loop {
            let piece: Cow<'i, str> = match self.next_event()? {
                Event::Text(t) => {
                    let raw = self.borrowed(&t).unwrap_or_default();
                    normalize_line_ends(raw)
                }
                Event::CData(c) => Cow::Borrowed(self.borrowed(&c).unwrap_or_default()),
                Event::GeneralRef(r) => {
                    let name = self.borrowed(&r).unwrap_or_default();
                    let c = resolve_reference(name).ok_or_else(|| {
                        self.error_at(
                            DecodeErrorKind::Entity(format!("&{name};")),
                            self.last_event_start,
                        )
                    })?;
                    let mut s = String::new();
                    s.push(c);
                    Cow::Owned(s)
                }
                Event::Start(_) => {
                    let tag = self.pushed_start()?;
                    return Err(self.error_at(
                        DecodeErrorKind::UnexpectedElement(format!(
                            "<{}> in simple content",
                            tag.qname()
                        )),
                        tag.offset,
                    ));
                }
                Event::End(_) => {
                    self.stack.pop();
                    return Ok(acc.unwrap_or(Cow::Borrowed("")));
                }
                Event::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                _ => continue,
            };
            let so_far = acc.as_ref().map_or(0, |a| a.len());
            if so_far + piece.len() > self.limits.max_text_bytes {
                return Err(self.error_at(
                    DecodeErrorKind::TextLimit(self.limits.max_text_bytes),
                    self.last_event_start,
                ));
            }
            acc = Some(match acc {
                None => piece,
                Some(prev) => {
                    let mut s = prev.into_owned();
                    s.push_str(&piece);
                    Cow::Owned(s)
                }
            });
        }
    }

    /// Reads the current element's text and parses it as a simple type (XML Schema Part 2).
    ///
    /// # Errors
    ///
    /// As [`read_text`](Self::read_text), and [`DecodeErrorKind::InvalidValue`] at the element.
    pub fn read_simple<T: FromXmlText>(&mut self, start: &StartTag<'i>) -> Result<T, DecodeError> {
        let text = self.read_text()?;
        T::from_xml_text(&text, self).map_err(|e| {
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
            let (fed, at) = match self.next_event()? {
                Event::Text(t) => {
                    let raw = self.borrowed(&t).unwrap_or_default();
                    (decoder.feed(raw.as_bytes()), self.last_event_start)
                }
                Event::CData(c) => {
                    let raw = self.borrowed(&c).unwrap_or_default();
                    (decoder.feed(raw.as_bytes()), self.last_event_start + 9)
                }
                Event::GeneralRef(r) => {
                    let name = self.borrowed(&r).unwrap_or_default();
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
                Event::Start(_) => {
                    let tag = self.pushed_start()?;
                    let is_include = tag.local_name() == "Include"
                        && self.namespace_of(&tag) == XOP_NS.as_bytes();
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
                Event::End(_) => {
                    self.stack.pop();
                    break;
                }
                Event::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                _ => continue,
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
            match self.next_event()? {
                Event::Start(_) => {
                    self.pushed_start()?;
                }
                Event::End(_) => {
                    self.stack.pop();
                    if self.stack.len() < target {
                        return Ok(());
                    }
                }
                Event::GeneralRef(r) => {
                    let name = self.borrowed(&r).unwrap_or_default();
                    if resolve_reference(name).is_none() {
                        return Err(self.error_at(
                            DecodeErrorKind::Entity(format!("&{name};")),
                            self.last_event_start,
                        ));
                    }
                }
                Event::Eof => return Err(self.error(DecodeErrorKind::Truncated)),
                _ => {}
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
        let begin = self.inner.buffer_position() as usize;
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
        let end = self.inner.buffer_position() as usize;
        Ok(self
            .input
            .get(start.offset as usize..end)
            .unwrap_or_default())
    }

    /// Namespace bindings in scope at the current element (prefix, URI); the default namespace has
    /// prefix `""`. Valid right after a start tag was read.
    pub fn bindings_in_scope(&self) -> Vec<(String, String)> {
        use quick_xml::name::PrefixDeclaration;
        self.inner
            .prefixes()
            .map(|(p, ns)| {
                let prefix = match p {
                    PrefixDeclaration::Default => String::new(),
                    PrefixDeclaration::Named(p) => String::from_utf8_lossy(p).into_owned(),
                };
                (
                    prefix,
                    String::from_utf8_lossy(ns.into_inner()).into_owned(),
                )
            })
            .collect()
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
            let a =
                a.map_err(|e| self.error_at(DecodeErrorKind::Syntax(e.to_string()), tag.offset))?;
            let key = a.key;
            if key.local_name().into_inner() != name.local.as_bytes() {
                continue;
            }
            let ns: &[u8] = if key.prefix().is_none() {
                // Unprefixed attributes are in no namespace (Namespaces in XML 1.0 §6.2).
                b""
            } else {
                match self.inner.resolve_attribute(key).0 {
                    ResolveResult::Bound(ns) => ns.into_inner(),
                    _ => b"\0unbound",
                }
            };
            if ns != name.namespace.as_bytes() {
                continue;
            }
            let raw: &'i str = match a.value {
                Cow::Borrowed(b) => self.reborrow(b).unwrap_or_default(),
                Cow::Owned(_) => "",
            };
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
            let a =
                a.map_err(|e| self.error_at(DecodeErrorKind::Syntax(e.to_string()), tag.offset))?;
            let key = a.key;
            if key.as_namespace_binding().is_some() {
                continue;
            }
            let local = String::from_utf8_lossy(key.local_name().into_inner()).into_owned();
            let namespace = if key.prefix().is_none() {
                String::new()
            } else {
                match self.inner.resolve_attribute(key).0 {
                    ResolveResult::Bound(ns) => {
                        String::from_utf8_lossy(ns.into_inner()).into_owned()
                    }
                    _ => {
                        let qname = String::from_utf8_lossy(key.into_inner());
                        let mut err = self.error_at(
                            DecodeErrorKind::Syntax(format!(
                                "the prefix of attribute {qname} is not bound to a namespace"
                            )),
                            tag.offset,
                        );
                        err.location.path.push_str("/@");
                        err.location.path.push_str(&qname);
                        return Err(err);
                    }
                }
            };
            if namespace == XSI_NS
                || known
                    .iter()
                    .any(|n| n.namespace == namespace && n.local == local)
            {
                continue;
            }
            let raw: &'i str = match a.value {
                Cow::Borrowed(b) => self.reborrow(b).unwrap_or_default(),
                Cow::Owned(_) => "",
            };
            let value = self.attribute_text(raw, tag.offset)?.into_owned();
            out.push(AnyAttribute {
                namespace,
                local,
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
    pub fn is_nil(&self, tag: &StartTag<'i>) -> Result<bool, DecodeError> {
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
            match self.next_event()? {
                Event::Eof => return Ok(()),
                Event::Text(t) if is_xml_whitespace(self.borrowed(&t).unwrap_or_default()) => {}
                Event::Comment(_) | Event::PI(_) => {}
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
        self.error_at(kind, self.inner.buffer_position())
    }

    /// An error of `kind` at byte `offset`, with the current path.
    pub fn error_at(&self, kind: DecodeErrorKind, offset: u64) -> DecodeError {
        let off = (offset as usize).min(self.input.len());
        let prefix = self.input.get(..off).unwrap_or(self.input);
        DecodeError::new(kind, location_in(prefix, offset, self.path()))
    }

    /// "Unexpected element" for `tag` (which was just read: its name is on the path).
    pub fn unexpected(&self, tag: &StartTag<'i>) -> DecodeError {
        let ns = self.namespace_of(tag);
        let name = if ns.is_empty() {
            tag.local_name().to_owned()
        } else {
            format!("{{{}}}{}", String::from_utf8_lossy(ns), tag.local_name())
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
        for q in self.stack.iter().skip(self.path_skip) {
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
        self.inner.buffer_position() as usize
    }

    /// Current depth (number of open elements).
    pub fn depth(&self) -> usize {
        self.stack.len()
    }

    fn next_event(&mut self) -> Result<Event<'i>, DecodeError> {
        self.last_event_start = self.inner.buffer_position();
        match self.inner.read_event() {
            Ok(Event::DocType(_)) => {
                Err(self.error_at(DecodeErrorKind::DocType, self.last_event_start))
            }
            Ok(Event::Decl(d)) => {
                if let Some(Ok(enc)) = d.encoding() {
                    let enc = String::from_utf8_lossy(&enc).to_ascii_lowercase();
                    if enc != "utf-8" && enc != "utf8" {
                        return Err(self.error_at(
                            DecodeErrorKind::Other(format!(
                                "document encoding {enc:?}: XmlReader reads UTF-8; transcode first with xml::to_utf8 (read_response does)"
                            )),
                            self.last_event_start,
                        ));
                    }
                }
                Ok(Event::Decl(d))
            }
            Ok(ev) => Ok(ev),
            Err(e) => {
                let pos = self.inner.error_position();
                use quick_xml::errors::SyntaxError as S;
                let kind = match &e {
                    quick_xml::Error::Syntax(
                        S::UnclosedTag
                        | S::UnclosedComment
                        | S::UnclosedCData
                        | S::UnclosedPIOrXmlDecl
                        | S::UnclosedDoctype,
                    ) => DecodeErrorKind::Truncated,
                    _ => DecodeErrorKind::Syntax(e.to_string()),
                };
                Err(self.error_at(kind, pos))
            }
        }
    }

    /// Bookkeeping after a Start event: depth limit, unbound prefixes, path.
    fn pushed_start(&mut self) -> Result<StartTag<'i>, DecodeError> {
        let offset = self.last_event_start;
        // The start tag spans from `offset` (`<`) to the current position (after `>`).
        let end = self.inner.buffer_position() as usize;
        let raw = self
            .input
            .get(offset as usize + 1..end.saturating_sub(1))
            .unwrap_or_default();
        let raw = raw.strip_suffix('/').unwrap_or(raw);
        let bytes = raw.as_bytes();
        let name_len = bytes
            .iter()
            .position(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .unwrap_or(bytes.len());
        let local_start = bytes[..name_len]
            .iter()
            .position(|&b| b == b':')
            .map_or(0, |i| i + 1);
        let tag = StartTag {
            content: raw,
            name_len,
            local_start,
            offset,
        };
        if tag.content.len() > tag.name_len
            && count_attributes(&tag.content.as_bytes()[tag.name_len..])
                > self.limits.max_attributes
        {
            return Err(self.error_at(
                DecodeErrorKind::AttributeLimit(self.limits.max_attributes),
                offset,
            ));
        }
        if self.stack.len() >= self.limits.max_depth {
            return Err(self.error_at(DecodeErrorKind::DepthLimit(self.limits.max_depth), offset));
        }
        self.stack.push(tag.qname());
        if let ResolveResult::Unknown(p) =
            self.inner.resolve_element(QName(tag.qname().as_bytes())).0
        {
            return Err(self.error_at(
                DecodeErrorKind::Syntax(format!(
                    "unbound namespace prefix {:?}",
                    String::from_utf8_lossy(&p)
                )),
                offset,
            ));
        }
        Ok(tag)
    }

    /// Re-borrows a slice of the input with the input's lifetime.
    fn reborrow(&self, s: &[u8]) -> Option<&'i str> {
        let base = self.input.as_ptr() as usize;
        let start = (s.as_ptr() as usize).checked_sub(base)?;
        let slice = self.input.get(start..start + s.len())?;
        (slice.as_ptr() == s.as_ptr()).then_some(slice)
    }

    fn borrowed(&self, e: &[u8]) -> Option<&'i str> {
        self.reborrow(e)
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
        if prefix == "xml" {
            return Some(crate::xml::XML_NS.to_owned());
        }
        let probe;
        let q: &[u8] = if prefix.is_empty() {
            b"x"
        } else {
            probe = format!("{prefix}:x");
            probe.as_bytes()
        };
        match self.inner.resolve_element(QName(q)).0 {
            ResolveResult::Bound(ns) => Some(String::from_utf8_lossy(ns.into_inner()).into_owned()),
            ResolveResult::Unbound if prefix.is_empty() => Some(String::new()),
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

/// The number of attributes in the attribute part of a start tag: `=` signs outside quoted values.
fn count_attributes(attrs: &[u8]) -> usize {
    let mut quote = None;
    let mut n = 0;
    for &b in attrs {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'=' => n += 1,
                _ => {}
            },
        }
    }
    n
}

fn is_xml_whitespace(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
}

/// XML 1.0 §2.11: `\r\n` and lone `\r` become `\n`.
fn normalize_line_ends(s: &str) -> Cow<'_, str> {
    if !s.contains('\r') {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.replace("\r\n", "\n").replace('\r', "\n"))
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
    fn invalid_utf8_has_offset() {
        let e = XmlReader::from_bytes(b"<a>\n ok \xff</a>", Limits::default()).unwrap_err();
        assert_eq!(e.kind, DecodeErrorKind::InvalidUtf8);
        assert_eq!(e.location.offset, 8);
        assert_eq!((e.location.line, e.location.column), (2, 5));
    }
}
