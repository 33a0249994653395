//! A request: the operation's own part of it (header parts and Body content) as generated code
//! writes it, and the message that goes on the wire once the client has put it in an envelope.

use crate::error::EncodeError;
use crate::mime::{Attachment, OutgoingAttachment, Packaging};
use crate::xml::{Name, XmlWriter, XSI_NS};

/// A message ready to send: the envelope, and the attachments it goes with.
///
/// Without attachments it is sent as plain SOAP; with attachments as a `multipart/related`
/// message packaged as [`packaging`](Self::packaging) says.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestMessage {
    /// The SOAP envelope (with `xop:Include` elements when MTOM attachments are referenced).
    pub envelope: String,
    /// The attachments, in the order they are sent.
    pub attachments: Vec<OutgoingAttachment>,
    /// MTOM/XOP or SwA. [`EnvelopeWriter::finish_message`](crate::envelope::EnvelopeWriter::finish_message)
    /// chooses MTOM when the envelope holds an `xop:Include`, SwA otherwise.
    pub packaging: Packaging,
}

impl From<String> for RequestMessage {
    fn from(envelope: String) -> Self {
        RequestMessage {
            envelope,
            attachments: Vec::new(),
            packaging: Packaging::default(),
        }
    }
}

/// How a [`RequestWriter`] writes: what a client's settings say (MIME line breaks in base64,
/// the MTOM threshold, default-namespace declarations in the Body).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WriterSettings {
    /// `base64Binary` values in 76-column MIME lines.
    pub mime_base64: bool,
    /// MTOM: base64Binary values of at least this many bytes travel as attachments.
    pub mtom: Option<usize>,
    /// The Body's content names its elements with default-namespace declarations.
    pub default_namespaces: bool,
}

/// Writes an operation's own part of a request (WSDL 1.1 §2.3 message parts, as the binding
/// places them): its header blocks (§3.7 `soap:header`) and the content of its `Body` (§3.5
/// `soap:body`), in the namespaces the client declares on the `Envelope`. The client puts them
/// in an envelope with its message layers' header blocks when it sends the request, anew for
/// each attempt. What generated methods write; made by [`Client::request`](crate::Client::request).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::message::RequestWriter;
/// use soapgen_runtime::xml::Name;
/// let mut req = RequestWriter::new(&[("tns", "urn:hello")]);
/// req.body_writer().simple_element(Name::new("urn:hello", "ping"), "x")?;
/// let request = req.finish()?;
/// assert_eq!(request.body(), "<tns:ping>x</tns:ping>");
/// # Ok::<(), soapgen_runtime::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct RequestWriter {
    namespaces: &'static [(&'static str, &'static str)],
    settings: WriterSettings,
    header: Option<XmlWriter>,
    /// The elements of the header blocks written with `header_block_writer`.
    header_names: Vec<(&'static str, &'static str)>,
    body: XmlWriter,
}

impl RequestWriter {
    /// A request whose elements may use the `(prefix, namespace)`s of `namespaces` (declared
    /// once, on the `Envelope`), written with default settings.
    pub fn new(namespaces: &'static [(&'static str, &'static str)]) -> Self {
        Self::with_settings(namespaces, WriterSettings::default())
    }

    /// As [`new`](Self::new), written as `settings` say.
    pub fn with_settings(
        namespaces: &'static [(&'static str, &'static str)],
        settings: WriterSettings,
    ) -> Self {
        let mut body = Self::writer(namespaces, settings, 512);
        body.set_default_namespaces(settings.default_namespaces);
        RequestWriter {
            namespaces,
            settings,
            header: None,
            header_names: Vec::new(),
            body,
        }
    }

    /// A writer in the scope of the Envelope's declarations.
    fn writer(
        namespaces: &'static [(&'static str, &'static str)],
        settings: WriterSettings,
        capacity: usize,
    ) -> XmlWriter {
        let mut w = XmlWriter::with_capacity(capacity);
        w.set_mime_base64(settings.mime_base64);
        w.set_mtom(settings.mtom);
        w.inherit_namespace("xsi", XSI_NS);
        for (p, ns) in namespaces {
            w.inherit_namespace(p, ns);
        }
        w
    }

    /// Writes the Body's content with default-namespace declarations (`true`) or prefixes (the
    /// default), as [`XmlWriter::set_default_namespaces`] describes. Header blocks keep prefixes.
    pub fn set_default_namespaces(&mut self, on: bool) {
        self.settings.default_namespaces = on;
        self.body.set_default_namespaces(on);
    }

    /// The writer of the operation's header blocks (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2): each
    /// element written with it is one block, placed after the client's own.
    pub fn header_writer(&mut self) -> &mut XmlWriter {
        let (namespaces, settings) = (self.namespaces, self.settings);
        self.header
            .get_or_insert_with(|| Self::writer(namespaces, settings, 256))
    }

    /// The writer of the operation's header block `name` (WSDL 1.1 §3.7 `soap:header`; one
    /// element, written with it next): as [`header_writer`](Self::header_writer), and the
    /// client's own block of that element, if it has one, is not sent with this request (a
    /// call's header value replaces the client's).
    pub fn header_block_writer(&mut self, name: Name<'static>) -> &mut XmlWriter {
        let n = (name.namespace, name.local);
        if !self.header_names.contains(&n) {
            self.header_names.push(n);
        }
        self.header_writer()
    }

    /// The writer of the `Body`'s content.
    pub fn body_writer(&mut self) -> &mut XmlWriter {
        &mut self.body
    }

    /// The request, written.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if an element was left open.
    pub fn finish(self) -> Result<Request, EncodeError> {
        let mut xop = self.body.packaging() == Packaging::Mtom;
        let (header, mut attachments) = match self.header {
            Some(mut h) => {
                xop |= h.packaging() == Packaging::Mtom;
                let a = h.take_attachments();
                (h.into_string()?, a)
            }
            None => (String::new(), Vec::new()),
        };
        let mut body = self.body;
        attachments.extend(body.take_attachments());
        Ok(Request {
            namespaces: self.namespaces,
            header,
            header_names: self.header_names,
            body: body.into_string()?,
            attachments,
            packaging: if xop { Packaging::Mtom } else { Packaging::SwA },
        })
    }
}

/// An operation's own part of a request, written ([`RequestWriter::finish`]): its header blocks,
/// its Body content, the namespaces they use and the attachments they reference. Cheap to
/// clone but for the text; the client puts it in an envelope for each attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    namespaces: &'static [(&'static str, &'static str)],
    header: String,
    header_names: Vec<(&'static str, &'static str)>,
    body: String,
    attachments: Vec<OutgoingAttachment>,
    packaging: Packaging,
}

impl Request {
    /// The `(prefix, namespace)`s to declare on the `Envelope`.
    pub fn namespaces(&self) -> &'static [(&'static str, &'static str)] {
        self.namespaces
    }

    /// The operation's header blocks, as XML (empty for none).
    pub fn header(&self) -> &str {
        &self.header
    }

    /// The elements `(namespace, local name)` of the header blocks written with
    /// [`RequestWriter::header_block_writer`]: the client's own blocks of these are not sent.
    pub fn header_names(&self) -> &[(&'static str, &'static str)] {
        &self.header_names
    }

    /// The `Body`'s content, as XML.
    pub fn body(&self) -> &str {
        &self.body
    }

    /// The attachments, in the order they are sent.
    pub fn attachments(&self) -> &[OutgoingAttachment] {
        &self.attachments
    }

    /// MTOM when the request holds an `xop:Include`, SwA otherwise.
    pub fn packaging(&self) -> Packaging {
        self.packaging
    }

    /// Adds `attachment` as the MIME part bound to the WSDL message part `part` (WSDL 1.1 §5.3
    /// `mime:content part="…"`), with the Content-ID WS-I Attachments Profile 1.0 §3.8 R2933
    /// prescribes: the part name, `=`, a unique value, `@soapgen` (e.g.
    /// `<photo=5f0c…@soapgen>`; the part name is percent-encoded where it holds characters a
    /// Content-ID cannot). Its Content-Type is the attachment's, or `default_content_type` (the
    /// WSDL's) when it has none.
    ///
    /// A request with attachments is sent as `multipart/related`; one that had none becomes
    /// [`Packaging::SwA`] (an MTOM request keeps its packaging: the part is added to the package).
    ///
    /// # Examples
    ///
    /// ```
    /// use soapgen_runtime::message::RequestWriter;
    /// use soapgen_runtime::mime::Packaging;
    /// use soapgen_runtime::mime::Attachment;
    /// let mut r = RequestWriter::new(&[]).finish()?;
    /// r.attach_part("photo", Attachment::from(vec![1, 2, 3]), "image/jpeg");
    /// assert_eq!(r.packaging(), Packaging::SwA);
    /// assert!(r.attachments()[0].content_id.starts_with("photo="));
    /// assert!(r.attachments()[0].content_id.ends_with("@soapgen"));
    /// assert_eq!(r.attachments()[0].content_type, "image/jpeg");
    /// # Ok::<(), soapgen_runtime::EncodeError>(())
    /// ```
    pub fn attach_part(&mut self, part: &str, attachment: Attachment, default_content_type: &str) {
        if self.attachments.is_empty() {
            self.packaging = Packaging::SwA;
        }
        self.attachments
            .push(part_attachment(part, attachment, default_content_type));
    }
}

/// The attachment of the message part `part` (WSDL 1.1 §5): its Content-ID `part=<unique>@soapgen`
/// (WS-I Attachments Profile 1.0 §3.8, the name percent-encoded where a Content-ID cannot hold
/// it), its own content type or else the declared one (a wildcard made concrete).
pub(crate) fn part_attachment(
    part: &str,
    attachment: Attachment,
    default_content_type: &str,
) -> OutgoingAttachment {
    let mut id = String::with_capacity(part.len() + 40);
    for b in part.bytes() {
        if b.is_ascii_alphanumeric() || b"!#$&'*+-/?^_`{|}~.".contains(&b) {
            id.push(char::from(b));
        } else {
            id.push_str(&format!("%{b:02X}"));
        }
    }
    id.push('=');
    id.push_str(&crate::mime::unique_token());
    id.push_str("@soapgen");
    OutgoingAttachment {
        content_id: id,
        // A line break would end the part's headers (or smuggle one in): one line, as the
        // multipart writer keeps it.
        content_type: attachment
            .content_type
            .filter(|t| !t.trim().is_empty())
            .unwrap_or_else(|| concrete_media_type(default_content_type))
            .replace(['\r', '\n'], " "),
        data: attachment.data,
    }
}

/// A media type to send for a `mime:content type="…"`: a wildcard (`image/*`, `*/*`, WSDL 1.1 §5.5)
/// or nothing says too little, and becomes `application/octet-stream`.
fn concrete_media_type(declared: &str) -> String {
    let t = declared.trim();
    if t.is_empty() || t.contains('*') {
        "application/octet-stream".to_owned()
    } else {
        t.to_owned()
    }
}
