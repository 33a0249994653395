//! SOAP envelopes, written and read: SOAP 1.1 §4 and SOAP 1.2 Part 1 §5 (Envelope, Header, Body).

use crate::error::{DecodeError, DecodeErrorKind, EncodeError, Error};
use crate::fault::Fault;
use crate::mime::{Attachments, RequestMessage};
use crate::xml::{Limits, Name, StartTag, XmlReader, XmlWriter};

/// The SOAP envelope namespace of SOAP 1.1 (§4.1.2).
pub const SOAP11_ENV_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// The SOAP envelope namespace of SOAP 1.2 (Part 1 §5.1).
pub const SOAP12_ENV_NS: &str = "http://www.w3.org/2003/05/soap-envelope";

/// The SOAP version of a binding: decides the envelope namespace, the Content-Type and how the action is
/// sent (WSDL 1.1 §3 `soap:binding`, and the SOAP 1.2 binding of WSDL 1.1 extensions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SoapVersion {
    /// SOAP 1.1: `text/xml; charset=utf-8` with a quoted `SOAPAction` header (SOAP 1.1 §6.1.1).
    Soap11,
    /// SOAP 1.2: `application/soap+xml; charset=utf-8; action="…"` (SOAP 1.2 Part 2 §7.1.4, RFC 3902).
    Soap12,
}

impl SoapVersion {
    /// The envelope namespace URI.
    pub const fn envelope_namespace(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => SOAP11_ENV_NS,
            SoapVersion::Soap12 => SOAP12_ENV_NS,
        }
    }

    /// The version whose envelope namespace is `ns`.
    pub fn from_envelope_namespace(ns: &[u8]) -> Option<SoapVersion> {
        match ns {
            b"http://schemas.xmlsoap.org/soap/envelope/" => Some(SoapVersion::Soap11),
            b"http://www.w3.org/2003/05/soap-envelope" => Some(SoapVersion::Soap12),
            _ => None,
        }
    }

    /// The HTTP headers that carry the content type and the action for this version:
    /// `(Content-Type, Some(SOAPAction))` for 1.1, `(Content-Type with action parameter, None)` for 1.2.
    pub fn http_headers(self, action: &str) -> (String, Option<String>) {
        match self {
            SoapVersion::Soap11 => (
                "text/xml; charset=utf-8".to_owned(),
                Some(format!("\"{}\"", action.replace('"', "%22"))),
            ),
            SoapVersion::Soap12 => {
                if action.is_empty() {
                    ("application/soap+xml; charset=utf-8".to_owned(), None)
                } else {
                    (
                        format!(
                            "application/soap+xml; charset=utf-8; action=\"{}\"",
                            action.replace('"', "%22")
                        ),
                        None,
                    )
                }
            }
        }
    }

    fn prefix(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "soapenv",
            SoapVersion::Soap12 => "soap",
        }
    }
}

impl std::fmt::Display for SoapVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SoapVersion::Soap11 => "SOAP 1.1",
            SoapVersion::Soap12 => "SOAP 1.2",
        })
    }
}

/// Writes a request envelope: `Envelope`, an optional `Header` with its entries, and `Body`.
///
/// Call [`header_entry`](Self::header_entry) for each header block (the `Header` element is written only
/// if there is one), then [`body`](Self::body) once, then [`finish`](Self::finish).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::envelope::{EnvelopeWriter, SoapVersion};
/// use soapgen_runtime::xml::Name;
/// let mut env = EnvelopeWriter::new(SoapVersion::Soap11, &[("tns", "urn:hello")])?;
/// env.body(|w| w.simple_element(Name::new("urn:hello", "ping"), "x"))?;
/// let xml = env.finish()?;
/// assert!(xml.contains("<soapenv:Body><tns:ping>x</tns:ping></soapenv:Body>"));
/// # Ok::<(), soapgen_runtime::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct EnvelopeWriter {
    w: XmlWriter,
    version: SoapVersion,
    in_header: bool,
    /// Between [`body_writer`](Self::body_writer) and [`end_body`](Self::end_body).
    in_body: bool,
    body_written: bool,
    /// The Body's content is written under default-namespace declarations
    /// ([`set_default_namespaces`](Self::set_default_namespaces)).
    default_namespaces: bool,
    /// The addressing version and `wsa:MessageID` written in the header, if addressed.
    addressed: Option<crate::addressing::Addressed>,
    /// The message layer's state (WS-Security: its `wsse:Security` block, the Body's `wsu:Id`),
    /// told where the Body is and given the finished document.
    layer: Option<Box<dyn crate::layer::EnvelopeLayer>>,
}

impl EnvelopeWriter {
    /// Starts an envelope of `version`, declaring each `(prefix, namespace)` on the `Envelope` so the
    /// whole message shares one declaration per namespace.
    ///
    /// # Errors
    ///
    /// Never in practice; see [`XmlWriter`].
    pub fn new(version: SoapVersion, namespaces: &[(&str, &str)]) -> Result<Self, EncodeError> {
        Self::with_writer(XmlWriter::with_capacity(1024), version, namespaces)
    }

    /// As [`new`](Self::new), writing into a writer configured by the caller (capacity, MIME base64).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the writer already holds content.
    pub fn with_writer(
        mut w: XmlWriter,
        version: SoapVersion,
        namespaces: &[(&str, &str)],
    ) -> Result<Self, EncodeError> {
        let env_ns = version.envelope_namespace();
        w.declaration()?;
        w.start_element_prefixed(Name::new(env_ns, "Envelope"), Some(version.prefix()))?;
        // xsi is declared once here so nil and type attributes do not redeclare it on each element.
        w.declare_namespace("xsi", crate::xml::XSI_NS)?;
        for (p, ns) in namespaces {
            w.declare_namespace(p, ns)?;
        }
        Ok(EnvelopeWriter {
            w,
            version,
            in_header: false,
            in_body: false,
            body_written: false,
            default_namespaces: false,
            addressed: None,
            layer: None,
        })
    }

    /// Gives this envelope its message layer, made by `make` from the byte offset just inside the
    /// `Header`, which it starts (the layer's block goes first; WS-Security, WSS 1.1 §5).
    ///
    /// # Errors
    ///
    /// [`EncodeError::misuse`] with `misuse` if a header entry or the body was already written
    /// or the envelope has a layer; what `make` returns.
    #[cfg_attr(not(feature = "wss"), allow(dead_code))] // called by the layers: WS-Security's
    pub(crate) fn start_layer(
        &mut self,
        misuse: &str,
        make: impl FnOnce(usize) -> Result<Box<dyn crate::layer::EnvelopeLayer>, EncodeError>,
    ) -> Result<(), EncodeError> {
        if self.in_header || self.in_body || self.body_written || self.layer.is_some() {
            return Err(EncodeError::misuse(misuse));
        }
        self.w
            .start_element(Name::new(self.version.envelope_namespace(), "Header"))?;
        self.w.raw("")?; // closes the Header start tag
        self.in_header = true;
        self.layer = Some(make(self.w.as_str().len())?);
        Ok(())
    }

    /// Writes one header block (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2) with `f`.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from `f`, or if the body was already written.
    pub fn header_entry(
        &mut self,
        f: impl FnOnce(&mut XmlWriter) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        f(self.header_writer()?)
    }

    /// The writer, positioned in the `Header` (started if this is its first block), for one header
    /// block (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2): write exactly one element with it. The form of
    /// [`header_entry`](Self::header_entry) that generated code uses, so that no closure type is
    /// instantiated per operation.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the body was already written.
    pub fn header_writer(&mut self) -> Result<&mut XmlWriter, EncodeError> {
        if self.body_written || self.in_body {
            return Err(EncodeError::misuse("header entry after the body"));
        }
        if !self.in_header {
            self.w
                .start_element(Name::new(self.version.envelope_namespace(), "Header"))?;
            self.in_header = true;
        }
        Ok(&mut self.w)
    }

    /// Writes the WS-Addressing request headers (`wsa:Action` = `action`, `wsa:MessageID`,
    /// anonymous `wsa:ReplyTo`, `wsa:To` = `to`; see [`crate::addressing`]) as header blocks, and
    /// records the MessageID for the reply's `wsa:RelatesTo` check.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if `action` is empty, if the body was already written, or if the
    /// envelope is already addressed.
    pub fn addressing(
        &mut self,
        version: crate::addressing::AddressingVersion,
        action: &str,
        to: &str,
    ) -> Result<(), EncodeError> {
        self.addressing_to(
            version,
            action,
            to,
            &crate::addressing::ResponseEndpoints::default(),
        )
    }

    /// [`addressing`](Self::addressing) with the reply and fault endpoints of `endpoints`
    /// (WS-Addressing 1.0 Core §3.2 `[reply endpoint]`, `[fault endpoint]`; see
    /// [`write_request_headers_to`](crate::addressing::write_request_headers_to)).
    ///
    /// # Errors
    ///
    /// As [`addressing`](Self::addressing), and if an address is not an absolute IRI.
    pub fn addressing_to(
        &mut self,
        version: crate::addressing::AddressingVersion,
        action: &str,
        to: &str,
        endpoints: &crate::addressing::ResponseEndpoints,
    ) -> Result<(), EncodeError> {
        if self.addressed.is_some() {
            return Err(EncodeError::misuse("WS-Addressing headers written twice"));
        }
        let soap = self.version;
        let id = crate::addressing::write_request_headers_to(
            self.header_writer()?,
            version,
            soap,
            action,
            to,
            endpoints,
        )?;
        self.addressed = Some(crate::addressing::Addressed {
            version,
            message_id: id,
            reply_to: endpoints.reply_to.clone(),
            reply_action: None,
        });
        Ok(())
    }

    /// The SOAP version of the envelope.
    pub fn version(&self) -> SoapVersion {
        self.version
    }

    /// Chooses how the Body's content names its elements: `false` (the default) with prefixes,
    /// `true` with default-namespace declarations (`<Get xmlns="urn:x">`, `xmlns=""` for an
    /// unqualified child), as [`XmlWriter::set_default_namespaces`] describes; the same expanded
    /// names either way (Namespaces in XML 1.0 §6.2). The Envelope, Header and Body elements and
    /// header blocks keep their prefixes. Call it before [`body_writer`](Self::body_writer).
    pub fn set_default_namespaces(&mut self, on: bool) {
        self.default_namespaces = on;
    }

    /// Writes the `Body` with `f` writing its content.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from `f`, or if called twice.
    pub fn body(
        &mut self,
        f: impl FnOnce(&mut XmlWriter) -> Result<(), EncodeError>,
    ) -> Result<(), EncodeError> {
        f(self.body_writer()?)?;
        self.end_body()
    }

    /// Starts the `Body` (closing the `Header` if one was started) and returns the writer for its
    /// content; [`end_body`](Self::end_body) closes it. The form of [`body`](Self::body) that
    /// generated code uses (no closure type per operation).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the body was already started.
    pub fn body_writer(&mut self) -> Result<&mut XmlWriter, EncodeError> {
        if self.body_written || self.in_body {
            return Err(EncodeError::misuse("body written twice"));
        }
        if self.in_header {
            self.w.end_element()?;
            self.in_header = false;
        }
        if let Some(layer) = &mut self.layer {
            layer.body_starting(self.w.as_str().len());
        }
        self.w
            .start_element(Name::new(self.version.envelope_namespace(), "Body"))?;
        if let Some(layer) = &mut self.layer {
            layer.body_started(&mut self.w)?;
        }
        self.in_body = true;
        self.w.set_default_namespaces(self.default_namespaces);
        Ok(&mut self.w)
    }

    /// Closes the `Body` started by [`body_writer`](Self::body_writer).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no body was started, or if its content left an element open.
    pub fn end_body(&mut self) -> Result<(), EncodeError> {
        if !self.in_body {
            return Err(EncodeError::misuse("end_body without body_writer"));
        }
        if let Some(layer) = &mut self.layer {
            layer.body_ended(&self.w);
        }
        self.w.set_default_namespaces(false);
        self.w.end_element()?;
        self.in_body = false;
        self.body_written = true;
        Ok(())
    }

    /// Closes the envelope and returns the document.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no body was written, or if attachments were recorded (MTOM or `swaRef`:
    /// they would be lost; use [`finish_message`](Self::finish_message)).
    pub fn finish(self) -> Result<String, EncodeError> {
        let message = self.finish_message()?;
        if !message.attachments.is_empty() {
            return Err(EncodeError::misuse(
                "the envelope references attachments (MTOM or swaRef): finish it with finish_message()",
            ));
        }
        Ok(message.envelope)
    }

    /// Closes the envelope and returns it with the attachments it references: MTOM attachments of
    /// its `xop:Include` elements (none unless the writer had MTOM on) and `swaRef` attachments;
    /// packaged as MTOM if there is an `xop:Include`, as SwA otherwise. Ready for
    /// [`Client::call`](crate::Client::call).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no body was written.
    pub fn finish_message(mut self) -> Result<RequestMessage, EncodeError> {
        if !self.body_written {
            return Err(EncodeError::misuse("envelope without a body"));
        }
        self.w.end_element()?;
        let packaging = self.w.packaging();
        let attachments = self.w.take_attachments();
        let mut message = RequestMessage {
            envelope: self.w.into_string()?,
            attachments,
            packaging,
            addressed: self.addressed,
            signature_values: Vec::new(),
        };
        if let Some(layer) = &self.layer {
            layer.finish(&mut message)?;
        }
        Ok(message)
    }
}

/// What a response envelope's `Body` held.
#[derive(Debug)]
pub enum BodyContent<T> {
    /// The expected payload.
    Payload(T),
    /// An empty `Body` (a one-way operation's acknowledgement).
    Empty,
}

/// Reads a response envelope: checks `Envelope` (either SOAP version), skips `Header`, and either
/// decodes the single `Body` child with `decode` or returns the `Fault` it holds as
/// [`Error::Fault`]. The whole document must end after the `Envelope` (truncation is an error).
///
/// `http_status` is recorded in a fault. `decode` gets the reader positioned just after the body
/// child's start tag.
///
/// # Errors
///
/// [`Error::Xml`] for malformed, refused or truncated XML; [`Error::Decode`] for a body that is not the
/// expected message (a wrong element, a missing Body); [`Error::Fault`] for a fault.
pub fn read_response<T>(
    body: &[u8],
    limits: Limits,
    http_status: Option<u16>,
    decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
) -> Result<BodyContent<T>, Error> {
    read_response_with_attachments(body, None, None, limits, http_status, decode)
}

/// [`read_response`] with what the HTTP layer knows: the `charset` of the Content-Type (which
/// overrides the XML declaration, RFC 7303 §3; see [`to_utf8`](crate::xml::to_utf8) for how the
/// encoding is found), and, for the root part of a multipart/related response (MTOM/XOP, SwA), the
/// attachments that base64Binary content given as `xop:Include` or `href="cid:…"` resolves to.
///
/// # Errors
///
/// As [`read_response`]; [`DecodeErrorKind::Attachment`] for a reference to no attachment; an
/// unknown encoding or bytes invalid in it.
pub fn read_response_with_attachments<T>(
    body: &[u8],
    attachments: Option<&Attachments>,
    http_charset: Option<&str>,
    limits: Limits,
    http_status: Option<u16>,
    decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
) -> Result<BodyContent<T>, Error> {
    decode_once(decode, |b| {
        let content = read_envelope(
            body,
            attachments,
            http_charset,
            limits,
            http_status,
            None,
            b,
        )?;
        Ok((content, ()))
    })
    .map(|(content, ())| content)
}

/// Runs `read` with a [`BodyReader`] that hands the Body's child to `decode` (a second child
/// is unexpected), and gives what `read` returned with the payload `decode` made: the shim
/// between a reader generic over the result type and the envelope walk, which is not.
pub(crate) fn decode_once<T, R>(
    decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    read: impl FnOnce(&mut BodyReader<'_>) -> Result<(BodyContent<()>, R), Error>,
) -> Result<(BodyContent<T>, R), Error> {
    let mut decode = Some(decode);
    let mut value = None;
    let (content, rest) = read(&mut |r, start| match decode.take() {
        Some(f) => {
            value = Some(f(r, start)?);
            Ok(())
        }
        None => Err(r.unexpected(&start)),
    })?;
    Ok(match (content, value) {
        (BodyContent::Payload(()), Some(v)) => (BodyContent::Payload(v), rest),
        _ => (BodyContent::Empty, rest),
    })
}

/// The body child's reader for [`read_envelope`]: gets the reader just after the child's start
/// tag and reads the child to its end.
pub type BodyReader<'d> =
    dyn for<'i> FnMut(&mut XmlReader<'i>, StartTag<'i>) -> Result<(), DecodeError> + 'd;

/// [`read_response_with_attachments`] without a type parameter: the body child is handed to
/// `decode`, which keeps what it read. Every generic reading function of the runtime is a thin
/// shim over this one, so the envelope walk (encodings, multiRef resolution, Header, Body, Fault,
/// trailing content) is compiled once, not once per result type.
///
/// With `expected` (the request's version), an envelope of the other version is refused with
/// [`DecodeErrorKind::VersionMismatch`] unless its Body holds a fault, which is returned as
/// [`Error::Fault`] (SOAP 1.2 Part 1 §5.4.7).
///
/// # Errors
///
/// As [`read_response_with_attachments`]; [`DecodeErrorKind::VersionMismatch`].
pub fn read_envelope(
    body: &[u8],
    attachments: Option<&Attachments>,
    http_charset: Option<&str>,
    limits: Limits,
    http_status: Option<u16>,
    expected: Option<SoapVersion>,
    decode: &mut BodyReader<'_>,
) -> Result<BodyContent<()>, Error> {
    let incoming = Incoming {
        body,
        attachments,
        http_charset,
        limits,
        http_status,
        expected,
    };
    read_envelope_with_headers(incoming, None, decode)
}

/// A response envelope to read, with what the HTTP layer knows of it: the arguments of
/// [`read_envelope`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Incoming<'a> {
    /// The document (the root part of a multipart/related response).
    pub(crate) body: &'a [u8],
    /// The other parts of a multipart/related response.
    pub(crate) attachments: Option<&'a Attachments>,
    /// The `charset` of the Content-Type.
    pub(crate) http_charset: Option<&'a str>,
    pub(crate) limits: Limits,
    /// Recorded in a fault.
    pub(crate) http_status: Option<u16>,
    /// The request's version: an envelope of the other is refused unless it holds a fault.
    pub(crate) expected: Option<SoapVersion>,
}

/// [`read_envelope`], with each header block handed to `headers` (`None`: skipped unread).
pub(crate) fn read_envelope_with_headers(
    incoming: Incoming<'_>,
    mut headers: Option<&mut crate::header::HeaderCheck<'_>>,
    decode: &mut BodyReader<'_>,
) -> Result<BodyContent<()>, Error> {
    let limits = incoming.limits;
    let document = crate::xml::to_utf8(incoming.body, incoming.http_charset)?;
    // rpc/encoded: multi-reference values (SOAP 1.1 §5.4.1) inlined first, when there are any.
    let text = std::str::from_utf8(&document).ok();
    let resolved = match text {
        Some(text) => crate::xml::multiref::resolve(text.trim_start_matches('\u{feff}'), limits)?,
        None => None,
    };
    // UTF-8 is checked once: the reader takes the text validated above (it skips a BOM itself);
    // only invalid bytes go through from_bytes, which locates them.
    let mut r = match (&resolved, text) {
        (Some(resolved), _) => XmlReader::with_limits(resolved, limits),
        (None, Some(text)) => XmlReader::with_limits(text, limits),
        (None, None) => XmlReader::from_bytes(&document, limits)?,
    };
    if let Some(a) = incoming.attachments {
        r.set_attachments(a);
    }
    r.set_path_skip(1);
    let root = r.root()?;
    let Some(version) = SoapVersion::from_envelope_namespace(r.namespace_of(&root)) else {
        return Err(r
            .error_at(
                DecodeErrorKind::NotAnEnvelope(format!(
                    "root element is {{{}}}{}",
                    r.namespace_str(&root),
                    root.local_name()
                )),
                root.offset(),
            )
            .into());
    };
    if root.local_name() != "Envelope" {
        return Err(r
            .error_at(
                DecodeErrorKind::NotAnEnvelope(format!("root element is {}", root.local_name())),
                root.offset(),
            )
            .into());
    }
    let env_ns = version.envelope_namespace();
    let mut result = None;
    let mut seen_body = false;
    while let Some(child) = r.next_child()? {
        if r.matches(&child, Name::new(env_ns, "Header")) && !seen_body {
            match headers.as_deref_mut() {
                Some(h) => {
                    while let Some(block) = r.next_child()? {
                        h.block(&mut r, block, version)?;
                    }
                }
                None => r.skip_element()?,
            }
        } else if r.matches(&child, Name::new(env_ns, "Body")) && !seen_body {
            seen_body = true;
            result = Some(match incoming.expected {
                Some(expected) if expected != version => {
                    let mismatch = |r: &mut XmlReader<'_>, start: StartTag<'_>| {
                        Err(r.error_at(
                            DecodeErrorKind::VersionMismatch {
                                expected,
                                found: version,
                            },
                            start.offset(),
                        ))
                    };
                    match read_body(&mut r, version, incoming.http_status, &mut |r, s| {
                        mismatch(r, s)
                    })? {
                        Err(fault) => Err(fault),
                        Ok(_) => {
                            return Err(r
                                .error_at(
                                    DecodeErrorKind::VersionMismatch {
                                        expected,
                                        found: version,
                                    },
                                    root.offset(),
                                )
                                .into())
                        }
                    }
                }
                _ => read_body(&mut r, version, incoming.http_status, decode)?,
            });
            break;
        } else {
            return Err(r.unexpected(&child).into());
        }
    }
    if !seen_body {
        return Err(r
            .error(DecodeErrorKind::MissingElement("Body".to_owned()))
            .into());
    }
    // After Body: SOAP 1.1 allows trailing elements in the envelope (§4.3); SOAP 1.2 does not.
    while let Some(child) = r.next_child()? {
        if version == SoapVersion::Soap12 {
            return Err(r.unexpected(&child).into());
        }
        r.skip_element()?;
    }
    r.finish()?;
    match result {
        Some(Ok(c)) => Ok(c),
        Some(Err(f)) => Err(Error::Fault(Box::new(f))),
        None => unreachable_body(),
    }
}

fn read_body(
    r: &mut XmlReader<'_>,
    version: SoapVersion,
    http_status: Option<u16>,
    decode: &mut BodyReader<'_>,
) -> Result<Result<BodyContent<()>, Fault>, DecodeError> {
    let Some(first) = r.next_child()? else {
        return Ok(Ok(BodyContent::Empty));
    };
    let out = if r.matches(&first, Name::new(version.envelope_namespace(), "Fault")) {
        let mut fault = Fault::read(r, first, version)?;
        fault.http_status = http_status;
        Err(fault)
    } else {
        decode(r, first)?;
        Ok(BodyContent::Payload(()))
    };
    if let Some(extra) = r.next_child()? {
        return Err(r.unexpected(&extra));
    }
    Ok(out)
}

fn unreachable_body() -> Result<BodyContent<()>, Error> {
    // `seen_body` implies `result` is set; kept as an error rather than a panic.
    Err(Error::Decode(Box::new(DecodeError::new(
        DecodeErrorKind::MissingElement("Body".to_owned()),
        Default::default(),
    ))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_text(doc: &str) -> Result<BodyContent<String>, Error> {
        read_response(doc.as_bytes(), Limits::default(), Some(200), |r, _tag| {
            Ok(r.read_text()?.into_owned())
        })
    }

    #[test]
    fn writes_both_versions() {
        for v in [SoapVersion::Soap11, SoapVersion::Soap12] {
            let mut env = EnvelopeWriter::new(v, &[("tns", "urn:t")]).unwrap();
            env.header_entry(|w| w.simple_element(Name::new("urn:t", "h"), "1"))
                .unwrap();
            env.body(|w| w.simple_element(Name::new("urn:t", "b"), "2"))
                .unwrap();
            let xml = env.finish().unwrap();
            let p = v.prefix();
            assert_eq!(
                xml,
                format!(
                    "<?xml version=\"1.0\" encoding=\"utf-8\"?><{p}:Envelope xmlns:{p}=\"{ns}\" \
                     xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:tns=\"urn:t\"><{p}:Header><tns:h>1</tns:h></{p}:Header>\
                     <{p}:Body><tns:b>2</tns:b></{p}:Body></{p}:Envelope>",
                    ns = v.envelope_namespace()
                )
            );
            // And it reads back.
            assert!(matches!(
                decode_text(&xml).unwrap(),
                BodyContent::Payload(s) if s == "2"
            ));
        }
    }

    #[test]
    fn reads_faults_of_both_versions() {
        let f11 = r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>
            <faultcode>s:Client.Auth</faultcode><faultstring xml:lang="en">denied</faultstring>
            <faultactor>urn:a</faultactor><detail><e:x xmlns:e="urn:e">1</e:x></detail></s:Fault></s:Body></s:Envelope>"#;
        let Err(Error::Fault(f)) = decode_text(f11) else {
            panic!("expected fault")
        };
        assert_eq!(f.code.namespace.as_deref(), Some(SOAP11_ENV_NS));
        assert_eq!(f.code.local_name, "Client.Auth");
        assert!(f.is_sender());
        assert_eq!(f.reason, "denied");
        assert_eq!(f.reasons[0].lang.as_deref(), Some("en"));
        assert_eq!(f.node.as_deref(), Some("urn:a"));
        assert_eq!(f.http_status, Some(200));
        let x: Option<i32> = f
            .detail
            .as_ref()
            .unwrap()
            .decode(Name::new("urn:e", "x"))
            .unwrap();
        assert_eq!(x, Some(1));

        let f12 = r#"<env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" xmlns:m="urn:m">
          <env:Body><env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>m:Bad</env:Value>
          <env:Subcode><env:Value>m:Worse</env:Value></env:Subcode></env:Subcode></env:Code>
          <env:Reason><env:Text xml:lang="en">bad</env:Text><env:Text xml:lang="de">schlecht</env:Text></env:Reason>
          <env:Node>urn:n</env:Node><env:Role>urn:r</env:Role><env:Detail><m:d>z</m:d></env:Detail>
          </env:Fault></env:Body></env:Envelope>"#;
        let Err(Error::Fault(f)) = decode_text(f12) else {
            panic!("expected fault")
        };
        assert_eq!(f.version, SoapVersion::Soap12);
        assert_eq!(f.code.local_name, "Sender");
        assert_eq!(
            f.subcodes
                .iter()
                .map(|q| (q.namespace.as_deref().unwrap(), q.local_name.as_str()))
                .collect::<Vec<_>>(),
            [("urn:m", "Bad"), ("urn:m", "Worse")]
        );
        assert_eq!(f.reasons.len(), 2);
        assert_eq!(f.reasons[1].lang.as_deref(), Some("de"));
        assert_eq!(f.role.as_deref(), Some("urn:r"));
        assert_eq!(f.detail.as_ref().unwrap().entry_names(), ["d"]);
    }

    #[test]
    fn rejects_what_is_not_an_envelope() {
        assert!(matches!(
            decode_text("<html><body/></html>"),
            Err(Error::Decode(_))
        ));
        let e = decode_text(
            r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><a>x</a>"#,
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::Xml(d) if d.kind == DecodeErrorKind::Truncated),
            "{e}"
        );
        let e = decode_text(r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"/>"#)
            .unwrap_err();
        assert!(
            e.to_string().contains("missing required element Body"),
            "{e}"
        );
    }
}
