//! Writing an envelope: `Envelope`, an optional `Header` with the message layers' blocks first,
//! and `Body` (SOAP 1.1 §4, SOAP 1.2 Part 1 §5).

use crate::error::EncodeError;
use crate::message::{LayerCall, MessageLayer, Outbound, Request, RequestMessage, SoapVersion};
use crate::mime::{OutgoingAttachment, Packaging};
use crate::xml::{Name, XmlWriter};

/// Writes a request envelope: `Envelope`, an optional `Header` with its entries, and `Body`.
///
/// Call [`header_entry`](Self::header_entry) for each header block (the `Header` element is written only
/// if there is one), then [`body`](Self::body) once, then [`finish`](Self::finish). The message
/// layers given with [`layer`](Self::layer) write their blocks first and see the finished
/// message (WS-Security signs it).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::envelope::EnvelopeWriter;
/// use soapgen_runtime::xml::Name;
/// use soapgen_runtime::SoapVersion;
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
    /// A header entry of the caller's was written: layers can no longer go first.
    entries: bool,
    /// Between [`body_writer`](Self::body_writer) and [`end_body`](Self::end_body).
    in_body: bool,
    body_written: bool,
    /// The Body's content is written under default-namespace declarations
    /// ([`set_default_namespaces`](Self::set_default_namespaces)).
    default_namespaces: bool,
    /// The message layers' parts in this envelope, in order.
    layers: Vec<Box<dyn LayerCall>>,
    /// Attachments of content written elsewhere (a [`Request`]'s), sent with the envelope.
    attachments: Vec<OutgoingAttachment>,
    /// The packaging of those attachments, if any.
    packaging: Option<Packaging>,
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
        w: XmlWriter,
        version: SoapVersion,
        namespaces: &[(&str, &str)],
    ) -> Result<Self, EncodeError> {
        Self::with_layers(w, version, namespaces, Vec::new())
    }

    /// As [`with_writer`](Self::with_writer), with the message layers' parts `layers`: their
    /// namespaces declared on the `Envelope` (where the caller's `namespaces` do not already
    /// bind the prefix) and their header blocks written first, in order.
    pub(crate) fn with_layers(
        mut w: XmlWriter,
        version: SoapVersion,
        namespaces: &[(&str, &str)],
        layers: Vec<Box<dyn LayerCall>>,
    ) -> Result<Self, EncodeError> {
        let env_ns = version.envelope_namespace();
        w.declaration()?;
        w.start_element_prefixed(Name::new(env_ns, "Envelope"), Some(version.prefix()))?;
        // xsi is declared once here so nil and type attributes do not redeclare it on each element.
        w.declare_namespace("xsi", crate::xml::XSI_NS)?;
        for (p, ns) in namespaces {
            w.declare_namespace(p, ns)?;
        }
        for (p, ns) in layers.iter().filter_map(|l| l.namespace()) {
            if !namespaces.iter().any(|(q, _)| *q == p) {
                w.declare_namespace(p, ns)?;
            }
        }
        let mut env = EnvelopeWriter {
            w,
            version,
            in_header: false,
            entries: false,
            in_body: false,
            body_written: false,
            default_namespaces: false,
            layers: Vec::with_capacity(layers.len()),
            attachments: Vec::new(),
            packaging: None,
        };
        for l in layers {
            env.push_layer(l)?;
        }
        Ok(env)
    }

    /// An envelope of `request` for `operation`: the layers' parts `layers` first (see
    /// [`with_layers`](Self::with_layers)), then the client's own header blocks (`blocks`,
    /// written by `write_blocks`), the request's header blocks, and its Body content; finished,
    /// with the request's attachments.
    pub(crate) fn of_request(
        version: SoapVersion,
        request: &Request,
        layers: Vec<Box<dyn LayerCall>>,
        write_blocks: impl FnOnce(&mut Self) -> Result<(), EncodeError>,
    ) -> Result<(RequestMessage, Vec<Box<dyn LayerCall>>), EncodeError> {
        let capacity = request.header().len() + request.body().len() + 1024;
        let mut env = Self::with_layers(
            XmlWriter::with_capacity(capacity),
            version,
            request.namespaces(),
            layers,
        )?;
        write_blocks(&mut env)?;
        if !request.header().is_empty() {
            env.header_writer()?.raw(request.header())?;
        }
        env.body_writer()?.raw(request.body())?;
        env.end_body()?;
        if !request.attachments().is_empty() {
            env.attachments = request.attachments().to_vec();
            env.packaging = Some(request.packaging());
        }
        env.finish_with_layers()
    }

    /// Adds the part of `layer` in this envelope, started for `call`: its header blocks are
    /// written now, and it sees the Body and the finished message (WS-Security signs and
    /// encrypts it). Call it before any header entry of your own; a layer with nothing to do
    /// for `call` adds nothing.
    ///
    /// # Errors
    ///
    /// [`EncodeError::misuse`] after a header entry or the body; what the layer returns.
    pub fn layer(
        &mut self,
        layer: &dyn MessageLayer,
        call: &Outbound<'_>,
    ) -> Result<(), EncodeError> {
        match layer.start(call)? {
            Some(l) => self.push_layer(l),
            None => Ok(()),
        }
    }

    fn push_layer(&mut self, mut layer: Box<dyn LayerCall>) -> Result<(), EncodeError> {
        if self.entries || self.in_body || self.body_written {
            return Err(EncodeError::misuse(
                "a message layer added after a header entry or the body",
            ));
        }
        let version = self.version;
        let w = self.open_header()?;
        w.raw("")?; // closes the Header start tag: a layer may note where its block goes
        layer.write_header(w, version)?;
        self.layers.push(layer);
        Ok(())
    }

    /// Sends `attachments`, written elsewhere, with the envelope, packaged as `packaging` unless
    /// the Body's own (MTOM) parts decide otherwise.
    #[cfg(feature = "testing")]
    pub(crate) fn attach(
        &mut self,
        mut attachments: Vec<OutgoingAttachment>,
        packaging: Packaging,
    ) {
        self.attachments.append(&mut attachments);
        self.packaging = Some(packaging);
    }

    /// The writer inside the `Header`, which is started if it is not yet.
    fn open_header(&mut self) -> Result<&mut XmlWriter, EncodeError> {
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
    /// block (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2): write exactly one element with it.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the body was already written.
    pub fn header_writer(&mut self) -> Result<&mut XmlWriter, EncodeError> {
        self.entries = true;
        self.open_header()
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
    /// content; [`end_body`](Self::end_body) closes it.
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
        let at = self.w.as_str().len();
        self.w
            .start_element(Name::new(self.version.envelope_namespace(), "Body"))?;
        for l in &mut self.layers {
            l.start_body(&mut self.w, at)?;
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
        for l in &mut self.layers {
            l.end_body(&self.w);
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
    /// packaged as MTOM if there is an `xop:Include`, as SwA otherwise. The message layers finish
    /// it, the last added first.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if no body was written; what a layer returns.
    pub fn finish_message(self) -> Result<RequestMessage, EncodeError> {
        self.finish_with_layers().map(|(m, _)| m)
    }

    /// [`finish_message`](Self::finish_message), also giving back the layers' parts, which check
    /// the response.
    pub(crate) fn finish_with_layers(
        mut self,
    ) -> Result<(RequestMessage, Vec<Box<dyn LayerCall>>), EncodeError> {
        if !self.body_written {
            return Err(EncodeError::misuse("envelope without a body"));
        }
        self.w.end_element()?;
        let own = self.w.packaging();
        let mut attachments = self.w.take_attachments();
        let packaging = match self.packaging {
            Some(p) if attachments.is_empty() => p,
            Some(Packaging::Mtom) => Packaging::Mtom,
            _ => own,
        };
        attachments.append(&mut self.attachments);
        let mut message = RequestMessage {
            envelope: self.w.into_string()?,
            attachments,
            packaging,
        };
        for l in self.layers.iter_mut().rev() {
            l.finish(&mut message)?;
        }
        Ok((message, self.layers))
    }
}
