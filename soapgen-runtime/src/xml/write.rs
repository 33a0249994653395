//! The XML writer used for requests: namespace-aware, escaping, allocation-light.
//!
//! Follows XML 1.0 (Fifth Edition) §2.4 (character data), §3.1 (start tags and attribute values) and
//! Namespaces in XML 1.0 §3–§6. Element and attribute names are expanded names (namespace URI, local
//! name); prefixes are chosen by the writer and declared on first use, so every qualified name is bound
//! and every unqualified element is in no namespace. By default the writer never declares a default
//! namespace, so unqualified children of qualified parents (`elementFormDefault="unqualified"`)
//! stay unqualified; with [`XmlWriter::set_default_namespaces`] element names are written
//! unprefixed under default-namespace declarations instead (§6.2), `xmlns=""` undeclaring it for
//! an element in no namespace (§6.2 again), for servers that do not resolve element prefixes.
//! Attributes never take the default namespace (§6.2), so a qualified attribute keeps a prefix in
//! both forms.

mod escape;
mod text;

pub(crate) use escape::find_special;
use escape::{escape_into, push_undeclaring_default};
pub use text::{TextOut, ToXmlText};

use super::{is_ncname, AnyAttribute, Name, XML_NS, XSI_NS};
use crate::error::EncodeError;

#[derive(Debug)]
struct Binding {
    prefix: String,
    uri: String,
}

#[derive(Debug)]
struct OpenElement {
    /// Byte range in `buf` of the qualified name as written in the start tag, copied into the end tag.
    name_start: usize,
    name_len: usize,
    /// Length of `bindings` before this element's declarations.
    bindings_len: usize,
    /// Byte offset in `buf` of the `>` that closed the start tag, once it is closed: where a
    /// declaration a later QName value needs is inserted.
    tag_end: Option<usize>,
}

/// A streaming XML writer into an in-memory buffer.
///
/// Start tags stay open until content is written, so attributes and namespace declarations can still be
/// added after [`XmlWriter::start_element`]; an element with no content is written as an empty-element
/// tag (`<a/>`). Errors are [`EncodeError`]s: characters that XML 1.0 §2.2 cannot represent, or calls in
/// the wrong order (an attribute after content, an end without a start).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::xml::{Name, XmlWriter};
/// let mut w = XmlWriter::new();
/// w.start_element(Name::new("urn:a", "Greeting"))?;
/// w.attribute(Name::unqualified("lang"), "en")?;
/// w.text("1 < 2 & \"so\"")?;
/// w.end_element()?;
/// assert_eq!(
///     w.into_string()?,
///     r#"<ns1:Greeting xmlns:ns1="urn:a" lang="en">1 &lt; 2 &amp; "so"</ns1:Greeting>"#
/// );
/// # Ok::<(), soapgen_runtime::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct XmlWriter {
    buf: String,
    bindings: Vec<Binding>,
    /// The index in `bindings` of the last namespace found there: consecutive elements are mostly
    /// in one namespace, so one comparison usually answers; cleared when `bindings` changes.
    ns_cache: std::cell::Cell<Option<usize>>,
    open: Vec<OpenElement>,
    /// A start tag was written without its closing `>`.
    tag_open: bool,
    next_prefix: u32,
    /// Scratch space for attribute values (which may need namespace declarations first).
    scratch: String,
    /// Emit base64Binary in 76-column MIME lines (RFC 2045 §6.8) instead of one run (RFC 4648).
    mime_base64: bool,
    /// MTOM: base64Binary values of at least this many bytes become attachments.
    mtom_threshold: Option<usize>,
    attachments: Vec<crate::mime::OutgoingAttachment>,
    /// An `xop:Include` was written: the message is MTOM, not SwA.
    xop: bool,
    /// `xsi:type` for the next start tag (SOAP 1.1 §5 encoding), (namespace, local).
    next_type: Option<(&'static str, &'static str)>,
    /// Element names take the default namespace instead of a prefix
    /// ([`set_default_namespaces`](Self::set_default_namespaces)).
    default_namespaces: bool,
    /// The default namespace declarations written: (depth of the element that declares it,
    /// namespace URI, `""` for an undeclaration), outermost first; none in scope is no namespace.
    defaults: Vec<(usize, String)>,
}

impl Default for XmlWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl XmlWriter {
    /// An empty writer.
    pub fn new() -> Self {
        Self::with_capacity(1024)
    }

    /// An empty writer whose buffer has room for `bytes` bytes before it grows.
    pub fn with_capacity(bytes: usize) -> Self {
        XmlWriter {
            buf: String::with_capacity(bytes),
            bindings: Vec::new(),
            ns_cache: std::cell::Cell::new(None),
            open: Vec::new(),
            tag_open: false,
            next_prefix: 1,
            scratch: String::new(),
            mime_base64: false,
            mtom_threshold: None,
            attachments: Vec::new(),
            xop: false,
            next_type: None,
            default_namespaces: false,
            defaults: Vec::new(),
        }
    }

    /// Chooses how the names of the elements started from now on are written (Namespaces in XML
    /// 1.0 §6.2): `false` (the default) with a prefix bound to their namespace (`<ns1:Get
    /// xmlns:ns1="urn:x">`); `true` unprefixed, declaring the default namespace where it changes
    /// (`<Get xmlns="urn:x"><q>…</q></Get>`) and undeclaring it (`xmlns=""`) for an element in no
    /// namespace inside one that has a default namespace. Both give the same expanded names. Attribute
    /// names and QName values keep prefixes either way (an unprefixed attribute is in no namespace,
    /// §6.2). Raw XML written with [`raw`](Self::raw) inside a default namespace gets `xmlns=""` on
    /// each of its top-level elements that has no prefix and no default-namespace declaration of its
    /// own, so that it stays in no namespace as it was written.
    pub fn set_default_namespaces(&mut self, on: bool) {
        self.default_namespaces = on;
    }

    /// Whether element names are written under default-namespace declarations
    /// ([`set_default_namespaces`](Self::set_default_namespaces)).
    pub fn default_namespaces(&self) -> bool {
        self.default_namespaces
    }

    /// The default namespace in scope where the next element would start (`""`: none).
    fn default_namespace(&self) -> &str {
        self.defaults
            .last()
            .map(|(_, ns)| ns.as_str())
            .unwrap_or("")
    }

    /// Turns MTOM on (SOAP MTOM §3, XOP 1.0): base64Binary values of at least `threshold` bytes are
    /// written as `<xop:Include href="cid:…"/>` and kept as attachments
    /// ([`take_attachments`](Self::take_attachments)); smaller ones stay inline. `None` (default)
    /// writes every value inline.
    pub fn set_mtom(&mut self, threshold: Option<usize>) {
        self.mtom_threshold = threshold;
    }

    /// If MTOM is on and `data` is at or above the threshold: records it as an attachment and returns
    /// the `cid:` URL to reference it by; otherwise `None` (write it inline).
    pub fn mtom_attachment(&mut self, data: &bytes::Bytes) -> Option<String> {
        let threshold = self.mtom_threshold?;
        if data.len() < threshold {
            return None;
        }
        let content_id = format!("{}.attachment@soapgen", self.attachments.len() + 1);
        let url = crate::mime::cid_url(&content_id);
        self.attachments.push(crate::mime::OutgoingAttachment {
            content_id,
            content_type: "application/octet-stream".to_owned(),
            data: data.clone(),
        });
        self.xop = true;
        Some(url)
    }

    /// Records `data` as an attachment whatever the MTOM setting (a `swaRef` value, WS-I
    /// Attachments Profile 1.0 §4.4) and returns the `cid:` URL that references it. The part's
    /// Content-Type is `content_type` (`application/octet-stream` when empty); its Content-ID is
    /// unique (`<N.swaref.…@soapgen>`). A request with such attachments is sent as
    /// `multipart/related` (SwA, or MTOM when `xop:Include`s were written too).
    pub fn swa_attachment(&mut self, content_type: &str, data: &bytes::Bytes) -> String {
        let content_id = format!(
            "{}.swaref.{}@soapgen",
            self.attachments.len() + 1,
            crate::mime::unique_token()
        );
        let url = crate::mime::cid_url(&content_id);
        let content_type = content_type.trim();
        self.attachments.push(crate::mime::OutgoingAttachment {
            content_id,
            content_type: if content_type.is_empty() {
                "application/octet-stream".to_owned()
            } else {
                content_type.replace(['\r', '\n'], " ")
            },
            data: data.clone(),
        });
        url
    }

    /// The attachments recorded by [`mtom_attachment`](Self::mtom_attachment) and
    /// [`swa_attachment`](Self::swa_attachment), in order.
    pub fn take_attachments(&mut self) -> Vec<crate::mime::OutgoingAttachment> {
        std::mem::take(&mut self.attachments)
    }

    /// How the attachments recorded so far must be packaged: [`Packaging::Mtom`] once an
    /// `xop:Include` was written, [`Packaging::SwA`] otherwise.
    ///
    /// [`Packaging::Mtom`]: crate::mime::Packaging::Mtom
    /// [`Packaging::SwA`]: crate::mime::Packaging::SwA
    pub fn packaging(&self) -> crate::mime::Packaging {
        if self.xop {
            crate::mime::Packaging::Mtom
        } else {
            crate::mime::Packaging::SwA
        }
    }

    /// Chooses how `base64Binary` values are written: `false` (default) writes one unbroken run as
    /// RFC 4648 §4 specifies; `true` breaks lines every 76 characters with CRLF (RFC 2045 §6.8), for
    /// old servers that require it.
    pub fn set_mime_base64(&mut self, mime: bool) {
        self.mime_base64 = mime;
    }

    /// Whether `base64Binary` values are written in 76-column MIME lines.
    pub fn mime_base64(&self) -> bool {
        self.mime_base64
    }

    /// Writes the XML declaration `<?xml version="1.0" encoding="utf-8"?>` (XML 1.0 §2.8). Only valid
    /// before any element.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if anything was written already.
    pub fn declaration(&mut self) -> Result<(), EncodeError> {
        if !self.buf.is_empty() {
            return Err(EncodeError::misuse("XML declaration after content"));
        }
        self.buf
            .push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>");
        Ok(())
    }

    /// Binds `prefix` to `uri` on the element whose start tag is open, so descendants reuse it.
    ///
    /// Used to declare the SOAP envelope and service namespaces once on `Envelope` rather than on every
    /// element. If `prefix` is already bound to `uri` in scope, nothing is written.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no start tag is open.
    pub fn declare_namespace(&mut self, prefix: &str, uri: &str) -> Result<(), EncodeError> {
        if !self.tag_open {
            return Err(EncodeError::misuse(
                "namespace declaration outside a start tag",
            ));
        }
        if self.lookup_prefix(uri) == Some(prefix) {
            return Ok(());
        }
        self.push_binding(prefix.to_owned(), uri);
        Ok(())
    }

    /// Treats `prefix` as bound to `uri` by a declaration outside what this writer writes (on
    /// the `Envelope` the content goes into), so elements in `uri` use it without declaring it
    /// again. Only before any element.
    pub(crate) fn inherit_namespace(&mut self, prefix: &str, uri: &str) {
        if self.open.is_empty() && self.lookup_prefix(uri) != Some(prefix) {
            self.ns_cache.set(None);
            self.bindings.push(Binding {
                prefix: prefix.to_owned(),
                uri: uri.to_owned(),
            });
        }
    }

    /// Writes the start tag of an element named `name`, declaring a prefix for its namespace if none is
    /// in scope. The tag stays open for [`attribute`](Self::attribute) calls until content is written.
    ///
    /// # Errors
    ///
    /// Never fails today; returns `Result` so that future limits can be enforced without API change.
    pub fn start_element(&mut self, name: Name<'_>) -> Result<(), EncodeError> {
        self.start_element_prefixed(name, None)
    }

    /// As [`start_element`](Self::start_element), using `prefix` (if given) when the element's
    /// namespace has no prefix in scope yet: `<soapenv:Envelope xmlns:soapenv="…">`.
    ///
    /// # Errors
    ///
    /// Never fails today.
    pub fn start_element_prefixed(
        &mut self,
        name: Name<'_>,
        prefix: Option<&str>,
    ) -> Result<(), EncodeError> {
        self.close_start_tag();
        if self.default_namespaces {
            return self.start_element_default(name);
        }
        let bindings_len = self.bindings.len();
        self.buf.push('<');
        let name_start = self.buf.len();
        let mut declare = None;
        if !name.namespace.is_empty() {
            match self.lookup_index(name.namespace) {
                Some(i) => {
                    // The prefix is copied from the binding: no allocation per element.
                    self.buf.push_str(&self.bindings[i].prefix);
                    self.buf.push(':');
                }
                None => {
                    let p = match prefix {
                        Some(p) if !self.bindings.iter().any(|b| b.prefix == p) => p.to_owned(),
                        _ => self.fresh_prefix(),
                    };
                    self.buf.push_str(&p);
                    self.buf.push(':');
                    declare = Some(p);
                }
            }
        }
        self.open_tag(name_start, bindings_len, name.local);
        if let Some(p) = declare {
            self.push_binding(p, name.namespace);
        }
        self.pending_type()
    }

    /// Ends the element name begun at `name_start` with `local` and records the open element
    /// (its start tag still open for attributes).
    fn open_tag(&mut self, name_start: usize, bindings_len: usize, local: &str) {
        self.buf.push_str(local);
        let name_len = self.buf.len() - name_start;
        self.open.push(OpenElement {
            name_start,
            name_len,
            bindings_len,
            tag_end: None,
        });
        self.tag_open = true;
    }

    /// Writes the `xsi:type` asked for the element just started, if any.
    fn pending_type(&mut self) -> Result<(), EncodeError> {
        if let Some((ns, local)) = self.next_type.take() {
            self.attribute_qname(Name::new(XSI_NS, "type"), ns, local)?;
        }
        Ok(())
    }

    /// [`start_element_prefixed`](Self::start_element_prefixed) with default namespaces on: the
    /// local name, and `xmlns="…"` where the element's namespace is not the default one in scope.
    fn start_element_default(&mut self, name: Name<'_>) -> Result<(), EncodeError> {
        let bindings_len = self.bindings.len();
        self.buf.push('<');
        let name_start = self.buf.len();
        self.open_tag(name_start, bindings_len, name.local);
        if self.default_namespace() != name.namespace {
            self.buf.push_str(" xmlns=\"");
            escape_into(&mut self.buf, name.namespace, true)?;
            self.buf.push('"');
            self.defaults
                .push((self.open.len(), name.namespace.to_owned()));
        }
        self.pending_type()
    }

    /// Makes the next start tag carry `xsi:type` naming `ty` (XML Schema Part 1 §2.6.1; SOAP 1.1
    /// §5.1: an rpc/encoded accessor states its value's type), with a prefix declared for its
    /// namespace if none is in scope.
    pub fn type_next_element(&mut self, ty: Name<'static>) {
        self.next_type = Some((ty.namespace, ty.local));
    }

    /// Cancels [`type_next_element`](Self::type_next_element) if no start tag consumed it.
    pub fn type_next_element_clear(&mut self) {
        self.next_type = None;
    }

    /// Adds an attribute whose value is the QName `{namespace}local` (XML Schema Part 2 §3.2.18):
    /// `prefix:local`, declaring a prefix for `namespace` on the open start tag if none is in scope.
    /// `local` may carry a suffix such as SOAP-ENC's `[n]` (SOAP 1.1 §5.4.2 `arrayType`).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no start tag is open, or `local` holds a character XML cannot represent.
    pub fn attribute_qname(
        &mut self,
        name: Name<'_>,
        namespace: &str,
        local: &str,
    ) -> Result<(), EncodeError> {
        if !self.tag_open {
            return Err(EncodeError::misuse("attribute outside a start tag"));
        }
        let value = if namespace.is_empty() {
            local.to_owned()
        } else {
            let p = self.prefix_on_open_tag(namespace);
            format!("{p}:{local}")
        };
        self.attribute(name, &value)
    }

    /// Adds an attribute to the open start tag, escaping `value` for a double-quoted attribute value
    /// (XML 1.0 §3.3.3: `\t`, `\n` and `\r` become character references so they survive normalisation).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no start tag is open or `value` holds a character XML cannot represent.
    pub fn attribute(&mut self, name: Name<'_>, value: &str) -> Result<(), EncodeError> {
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let r = escape_into(&mut scratch, value, true);
        let r = r.and_then(|()| self.attribute_escaped(name, &scratch));
        self.scratch = scratch;
        r
    }

    /// Adds an attribute matched by an `xs:anyAttribute` wildcard (XML Schema Part 1 §3.10), whose
    /// name is data, checked before it is written: the local name must be an NCName (Namespaces in
    /// XML 1.0 §3), not a namespace declaration (`xmlns`, or in the xmlns namespace, §3), and not
    /// one of `declared` (the type's own attributes: XML 1.0 §3.1 Unique Att Spec).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] naming the attribute for a name that breaks one of those rules, and as
    /// [`attribute`](Self::attribute).
    pub fn other_attribute(
        &mut self,
        a: &AnyAttribute,
        declared: &[Name<'_>],
    ) -> Result<(), EncodeError> {
        const XMLNS_NS: &str = "http://www.w3.org/2000/xmlns/";
        let why = if !is_ncname(&a.local) {
            Some("its local name is not an NCName")
        } else if a.namespace == XMLNS_NS || (a.namespace.is_empty() && a.local == "xmlns") {
            Some("it would be a namespace declaration")
        } else if declared
            .iter()
            .any(|d| d.namespace == a.namespace && d.local == a.local)
        {
            Some("the type declares an attribute of that name")
        } else {
            None
        };
        match why {
            Some(why) => Err(EncodeError::invalid_value(
                "xs:anyAttribute",
                &format!("attribute {{{}}}{:?}: {why}", a.namespace, a.local),
            )),
            None => self.attribute(a.name(), &a.value),
        }
    }

    /// Adds an attribute whose value is produced by a simple type (XML Schema Part 2), which may need
    /// namespace declarations (a `QName` value) on this same start tag.
    ///
    /// # Errors
    ///
    /// As [`attribute`](Self::attribute), plus whatever `value` reports.
    pub fn attribute_value<T: ToXmlText + ?Sized>(
        &mut self,
        name: Name<'_>,
        value: &T,
    ) -> Result<(), EncodeError> {
        if !self.tag_open {
            return Err(EncodeError::misuse("attribute outside a start tag"));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        let r = value.write_xml_text(&mut TextOut {
            w: self,
            attr: Some(&mut scratch),
        });
        let r = r.and_then(|()| self.attribute_escaped(name, &scratch));
        self.scratch = scratch;
        r
    }

    fn attribute_escaped(&mut self, name: Name<'_>, escaped: &str) -> Result<(), EncodeError> {
        if !self.tag_open {
            return Err(EncodeError::misuse("attribute outside a start tag"));
        }
        let prefix = if name.namespace.is_empty() {
            None
        } else if name.namespace == XML_NS {
            Some("xml".to_owned())
        } else {
            Some(self.prefix_on_open_tag(name.namespace))
        };
        self.buf.push(' ');
        if let Some(p) = prefix {
            self.buf.push_str(&p);
            self.buf.push(':');
        }
        self.buf.push_str(name.local);
        self.buf.push_str("=\"");
        self.buf.push_str(escaped);
        self.buf.push('"');
        Ok(())
    }

    /// Writes `xsi:nil="true"` on the open start tag (XML Schema Part 1 §2.6.2).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no start tag is open.
    pub fn nil_attribute(&mut self) -> Result<(), EncodeError> {
        self.attribute_escaped(Name::new(XSI_NS, "nil"), "true")
    }

    /// Writes character data, escaping `&`, `<`, `>` and `\r` (XML 1.0 §2.4, §2.11).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if `text` holds a character XML 1.0 cannot represent (§2.2: C0 controls other
    /// than tab, line feed and carriage return; U+FFFE; U+FFFF).
    pub fn text(&mut self, text: &str) -> Result<(), EncodeError> {
        if text.is_empty() {
            return Ok(());
        }
        self.close_start_tag();
        escape_into(&mut self.buf, text, false)
    }

    /// Writes a simple-type value (XML Schema Part 2) as character data of the current element.
    ///
    /// # Errors
    ///
    /// Whatever `value` reports, or an unrepresentable character.
    pub fn text_value<T: ToXmlText + ?Sized>(&mut self, value: &T) -> Result<(), EncodeError> {
        value.write_xml_text(&mut TextOut {
            w: self,
            attr: None,
        })
    }

    /// Appends already-serialized, well-formed XML as content (an `xs:any` value kept as raw XML).
    ///
    /// The caller guarantees `xml` is well-formed and its prefixes are bound within it.
    ///
    /// # Errors
    ///
    /// Never fails today.
    pub fn raw(&mut self, xml: &str) -> Result<(), EncodeError> {
        self.close_start_tag();
        if self.default_namespace().is_empty() {
            self.buf.push_str(xml);
        } else {
            push_undeclaring_default(&mut self.buf, xml);
        }
        Ok(())
    }

    /// Closes the innermost open element: `/>` if it has no content, else an end tag.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no element is open.
    pub fn end_element(&mut self) -> Result<(), EncodeError> {
        let Some(el) = self.open.pop() else {
            return Err(EncodeError::misuse("end_element without an open element"));
        };
        if self.tag_open {
            self.buf.push_str("/>");
            self.tag_open = false;
        } else {
            self.buf.push_str("</");
            self.buf
                .extend_from_within(el.name_start..el.name_start + el.name_len);
            self.buf.push('>');
        }
        if self.bindings.len() > el.bindings_len {
            self.bindings.truncate(el.bindings_len);
            self.ns_cache.set(None);
        }
        if self
            .defaults
            .last()
            .is_some_and(|(depth, _)| *depth > self.open.len())
        {
            self.defaults.pop();
        }
        Ok(())
    }

    /// Writes a whole element whose content is a simple-type value: start tag, text, end tag.
    ///
    /// # Errors
    ///
    /// As [`text_value`](Self::text_value).
    pub fn simple_element<T: ToXmlText + ?Sized>(
        &mut self,
        name: Name<'_>,
        value: &T,
    ) -> Result<(), EncodeError> {
        self.start_element(name)?;
        self.text_value(value)?;
        self.end_element()
    }

    /// The prefix bound to `namespace` in scope, declaring a fresh one on the current element's start
    /// tag if none is. Used for `QName` values (XML Schema Part 2 §3.2.18), whose prefix must be in
    /// scope: when the start tag was already closed by earlier content (the first items of a list
    /// of QNames in several namespaces), the declaration is inserted into it, where it is in scope
    /// for the whole element (Namespaces in XML 1.0 §6.1).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the namespace is not in scope and no element is open to declare it on.
    pub fn prefix_for(&mut self, namespace: &str) -> Result<String, EncodeError> {
        if let Some(p) = self.lookup_prefix(namespace) {
            return Ok(p.to_owned());
        }
        if self.tag_open {
            return Ok(self.prefix_on_open_tag(namespace));
        }
        let Some(at) = self.open.last().and_then(|e| e.tag_end) else {
            return Err(EncodeError::misuse(
                "QName value needs a namespace declaration outside any element",
            ));
        };
        let prefix = self.fresh_prefix();
        let mut decl = format!(" xmlns:{prefix}=\"");
        escape_into(&mut decl, namespace, true)?;
        decl.push('"');
        self.buf.insert_str(at, &decl);
        self.ns_cache.set(None);
        self.bindings.push(Binding {
            prefix: prefix.clone(),
            uri: namespace.to_owned(),
        });
        Ok(prefix)
    }

    /// Depth of open elements.
    pub fn depth(&self) -> usize {
        self.open.len()
    }

    /// The document written so far, checking that every element was closed.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if an element is still open.
    pub fn into_string(mut self) -> Result<String, EncodeError> {
        if !self.open.is_empty() {
            return Err(EncodeError::misuse(
                "document ended with elements still open",
            ));
        }
        self.close_start_tag();
        Ok(self.buf)
    }

    /// The bytes written so far (start tags may still be open).
    pub fn as_str(&self) -> &str {
        &self.buf
    }

    fn close_start_tag(&mut self) {
        if self.tag_open {
            if let Some(e) = self.open.last_mut() {
                e.tag_end = Some(self.buf.len());
            }
            self.buf.push('>');
            self.tag_open = false;
        }
    }

    fn lookup_prefix(&self, uri: &str) -> Option<&str> {
        self.lookup_index(uri)
            .map(|i| self.bindings[i].prefix.as_str())
    }

    /// The index in `bindings` of the innermost binding of `uri` whose prefix is not rebound
    /// further in (Namespaces in XML 1.0 §6.1: a nested declaration shadows an outer one).
    #[inline]
    fn lookup_index(&self, uri: &str) -> Option<usize> {
        if let Some(i) = self.ns_cache.get() {
            // Still the innermost unshadowed binding of its URI: `bindings` has not changed.
            if self.bindings.get(i).is_some_and(|b| b.uri == uri) {
                return Some(i);
            }
        }
        for (i, b) in self.bindings.iter().enumerate().rev() {
            if b.uri == uri {
                let shadowed = self.bindings[i + 1..].iter().any(|o| o.prefix == b.prefix);
                if !shadowed {
                    self.ns_cache.set(Some(i));
                    return Some(i);
                }
            }
        }
        None
    }

    fn prefix_on_open_tag(&mut self, uri: &str) -> String {
        if let Some(p) = self.lookup_prefix(uri) {
            return p.to_owned();
        }
        let p = self.fresh_prefix();
        self.push_binding(p.clone(), uri);
        p
    }

    fn fresh_prefix(&mut self) -> String {
        loop {
            let p = format!("ns{}", self.next_prefix);
            self.next_prefix += 1;
            if !self.bindings.iter().any(|b| b.prefix == p) {
                return p;
            }
        }
    }

    fn push_binding(&mut self, prefix: String, uri: &str) {
        self.buf.push_str(" xmlns:");
        self.buf.push_str(&prefix);
        self.buf.push_str("=\"");
        // Namespace URIs are written by generated code from WSDL constants; escape anyway.
        let _ = escape_into(&mut self.buf, uri, true);
        self.buf.push('"');
        self.ns_cache.set(None);
        self.bindings.push(Binding {
            prefix,
            uri: uri.to_owned(),
        });
    }
}

#[cfg(test)]
mod tests;
