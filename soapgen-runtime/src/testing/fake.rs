//! The service side of the in-process fake: a request read back with the runtime's own reader,
//! handed to the operation's implementation, and its result or fault written back as a
//! service writes it (SOAP 1.1 §4, §6.2; SOAP 1.2 Part 1 §5, Part 2 §7.5).
//!
//! `#[soap_client(fake)]` (soapgen-build's `Builder::fake`, the CLI's `--fake`) generates the
//! [`Dispatch`] of a service trait; this module is what it runs on.

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;

use super::faults::IntoFault;
use crate::addressing::AddressingVersion;
use crate::error::{DecodeError, EncodeError};
use crate::fault::Fault;
use crate::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use crate::xml::{Name, StartTag, XmlReader, XmlWriter};
use crate::SoapVersion;

/// The future a [`Dispatch`] answers with: the whole HTTP response.
pub type DispatchFuture<'a> = Pin<Box<dyn Future<Output = HttpResponse> + Send + 'a>>;

/// A service that answers requests in process: the generated dispatcher of a
/// `#[soap_client(fake)]` trait, which finds the operation of a request
/// ([`ServiceRequest::is_operation`]), reads its parts, calls the user's implementation of the
/// trait and writes its result ([`ServiceRequest::reply`]) or fault ([`ServiceRequest::error`]).
pub trait Dispatch: Send + Sync {
    /// The response to `request`: a SOAP envelope, a fault, or `202 Accepted` for a one-way
    /// operation (SOAP 1.2 Part 2 §7.5.1.2 and the WS-I Basic Profile 1.1 §3.4.7).
    fn dispatch<'a>(&'a self, request: &'a ServiceRequest) -> DispatchFuture<'a>;
}

/// A shared service answers as the service does (a generated client's `fake_service` is one).
impl<D: Dispatch + ?Sized> Dispatch for std::sync::Arc<D> {
    fn dispatch<'a>(&'a self, request: &'a ServiceRequest) -> DispatchFuture<'a> {
        (**self).dispatch(request)
    }
}

/// A [`Transport`] whose requests a [`Dispatch`] answers in the same process: the client's whole
/// message path runs (envelope writing, WS-Addressing, the layers configured on it) and so does
/// the reader on the service side, with no socket between them.
pub struct InProcess<D> {
    service: D,
}

impl<D> InProcess<D> {
    /// The transport answering with `service`.
    pub fn new(service: D) -> Self {
        InProcess { service }
    }
}

impl<D> fmt::Debug for InProcess<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InProcess").finish_non_exhaustive()
    }
}

impl<D: Dispatch> Transport for InProcess<D> {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(async move {
            let request = match ServiceRequest::read(&request) {
                Ok(r) => r,
                Err(fault) => return Ok(fault_response(&fault)),
            };
            Ok(self.service.dispatch(&request).await)
        })
    }
}

/// The address of an in-process client: a name that resolves nowhere (RFC 2606 §2), since no
/// request leaves the process.
pub const IN_PROCESS_ENDPOINT: &str = "http://in-process.invalid/";

/// A client at [`IN_PROCESS_ENDPOINT`] with default settings on `transport` (an [`InProcess`]
/// one): what a generated client's `fake` constructor is built on.
pub fn in_process_client(transport: std::sync::Arc<dyn Transport>) -> crate::Client {
    match crate::Client::builder(IN_PROCESS_ENDPOINT)
        .transport(transport)
        .build()
    {
        Ok(client) => client,
        // A default builder with a transport of its own and a constant absolute URL passes
        // every check `build` makes (no addressing, security, failover or TLS options set).
        Err(e) => unreachable!("a default in-process client is refused: {e}"),
    }
}

/// A request as the fake service received it: its SOAP version (from the envelope's
/// namespace), its action (SOAPAction, or SOAP 1.2's `action` media type parameter, RFC 3902)
/// and its envelope, read again by each accessor with the runtime's reader.
#[derive(Debug)]
pub struct ServiceRequest {
    version: SoapVersion,
    action: String,
    envelope: String,
    /// The parts after the root of a multipart/related request (MTOM, SwA, swaRef values).
    attachments: crate::mime::Attachments,
    /// Whether the request was MTOM (XOP 1.0 §3): the response is too.
    mtom: bool,
    /// The request's WS-Addressing version and `wsa:MessageID`, when it is addressed: the
    /// answer is then addressed too (WS-Addressing 1.0 SOAP Binding §5, Core §3.4).
    addressing: Option<(AddressingVersion, Option<String>)>,
    /// The Body's first element (namespace, local name); `None` for an empty Body.
    operation: Option<(String, String)>,
    /// The root part as received, before multi-reference values were inlined: what a
    /// [`SecuredService`](super::SecuredService) checks.
    raw: Bytes,
    /// The service's WS-Security configuration and what it found in the request, once a
    /// [`SecuredService`](super::SecuredService) checked the request: the answer is secured
    /// with it.
    #[cfg(feature = "wss")]
    security: Option<(crate::wss::WssConfig, crate::wss::InboundReport)>,
}

/// The most parts a multipart/related request may have.
const MAX_PARTS: usize = 1000;

/// The size from which the fake answers an MTOM request's binary values as MTOM parts (SOAP
/// MTOM §3), in bytes: what a service optimizes, the smaller ones staying inline.
pub const MTOM_THRESHOLD: usize = 1024;

impl ServiceRequest {
    /// Reads `request`: a SOAP envelope of either version in UTF-8.
    ///
    /// # Errors
    ///
    /// A `Sender` fault (SOAP 1.1 `Client`) the service answers with: a body that is not XML or
    /// not an envelope, a multipart/related request that does not parse, a GET (the fake does
    /// not serve SOAP 1.2's SOAP-response message exchange pattern).
    pub fn read(request: &HttpRequest) -> Result<ServiceRequest, Box<Fault>> {
        if request.method != crate::transport::HttpMethod::Post {
            return Err(Box::new(Fault::sender(
                SoapVersion::Soap12,
                format!(
                    "the fake takes POSTed envelopes; the {} of SOAP 1.2's SOAP-response message \
                     exchange pattern (Part 2 §6.3) is not served by it",
                    request.method
                ),
            )));
        }
        let content_type = request.header("Content-Type").unwrap_or_default();
        let guess = super::version_of(request);
        let action = super::soap_action(request);
        // MTOM (SOAP MTOM §3) and SwA (SwA 1.0 §3): the envelope is the root part.
        let (root, attachments) = if crate::mime::is_multipart_related(content_type) {
            let m =
                crate::mime::parse_multipart_related(content_type, request.body.clone(), MAX_PARTS)
                    .map_err(|e| {
                        Box::new(Fault::sender(
                            guess,
                            format!("the multipart request cannot be read: {e}"),
                        ))
                    })?;
            (m.root.body, m.attachments)
        } else {
            (request.body.clone(), crate::mime::Attachments::new())
        };
        let mtom = crate::mime::is_multipart_related(content_type)
            && crate::mime::content_type_parameters(content_type)
                .iter()
                .any(|(k, v)| k == "type" && v.eq_ignore_ascii_case("application/xop+xml"));
        Self::from_root(guess, action, root, attachments, mtom)
    }

    /// The request of root part `raw` (its version guessed `guess` from the HTTP request until
    /// the envelope says), `action`, and its other MIME parts `attachments`.
    fn from_root(
        guess: SoapVersion,
        action: String,
        raw: Bytes,
        attachments: crate::mime::Attachments,
        mtom: bool,
    ) -> Result<ServiceRequest, Box<Fault>> {
        let envelope = std::str::from_utf8(&raw)
            .map_err(|e| Fault::sender(guess, format!("the request is not UTF-8: {e}")))
            .map_err(Box::new)?
            .trim_start_matches('\u{feff}');
        // rpc/encoded multi-reference values (SOAP 1.1 §5.4.1), as gSOAP and Axis 1 send them,
        // inlined first.
        let envelope = match crate::xml::multiref::resolve(envelope, crate::xml::Limits::default())
        {
            Ok(Some(resolved)) => resolved,
            Ok(None) => envelope.to_owned(),
            Err(e) => {
                return Err(Box::new(Fault::sender(
                    guess,
                    format!("the request's multi-reference values cannot be resolved: {e}"),
                )))
            }
        };
        let mut version = guess;
        let operation = walk(&envelope, &attachments, |r, root_version| {
            version = root_version;
            let body = to_body(r, root_version)?;
            Ok(body.map(|s| {
                let ns = String::from_utf8_lossy(r.namespace_of(&s)).into_owned();
                (ns, s.local_name().to_owned())
            }))
        })
        .map_err(|e| {
            Box::new(Fault::sender(
                version,
                format!("the request is not a SOAP envelope: {e}"),
            ))
        })?;
        let addressing = walk(&envelope, &attachments, read_addressing).unwrap_or(None);
        Ok(ServiceRequest {
            version,
            action,
            envelope,
            attachments,
            mtom,
            addressing,
            operation,
            raw,
            #[cfg(feature = "wss")]
            security: None,
        })
    }

    /// The request's SOAP version: the fake answers in it.
    pub fn version(&self) -> SoapVersion {
        self.version
    }

    /// The request's action: its SOAPAction (SOAP 1.1 §6.1.1), or the `action` parameter of
    /// SOAP 1.2's media type (RFC 3902 §3); empty when it has none.
    pub fn action(&self) -> &str {
        &self.action
    }

    /// The root part of the request as it was received (the envelope, before multi-reference
    /// values were inlined): the bytes a signature covers.
    pub fn raw_envelope(&self) -> &[u8] {
        &self.raw
    }

    /// What the service's WS-Security check found in the request's `wsse:Security` header
    /// (its Timestamp, signer, UsernameToken user, the parts signed and decrypted), once a
    /// [`SecuredService`](super::SecuredService) checked it; `None` before.
    #[cfg(feature = "wss")]
    pub fn security_report(&self) -> Option<&crate::wss::InboundReport> {
        self.security.as_ref().map(|(_, report)| report)
    }

    /// This request as a [`SecuredService`](super::SecuredService) passes it on: its envelope
    /// `envelope` as the check left it (decrypted), answered with `config`'s security.
    #[cfg(feature = "wss")]
    pub(super) fn secured(
        &self,
        envelope: String,
        config: crate::wss::WssConfig,
        report: crate::wss::InboundReport,
    ) -> Result<ServiceRequest, Box<Fault>> {
        let mut secured = Self::from_root(
            self.version,
            self.action.clone(),
            Bytes::from(envelope),
            self.attachments.clone(),
            self.mtom,
        )?;
        secured.security = Some((config, report));
        Ok(secured)
    }

    /// Whether the request is for the operation whose request element is `{namespace}local`
    /// (none: `empty`, a request with an empty Body, WSDL 1.1 §2.3.1) and whose action is
    /// `action`: the element must match, and the actions too when both are given (two
    /// operations of one request element are told apart by action, WS-I Basic Profile 1.1
    /// §4.7.6).
    pub fn is_operation(&self, namespace: &str, local: &str, action: &str, empty: bool) -> bool {
        let element = match &self.operation {
            None => empty,
            Some((ns, l)) => !empty && ns == namespace && l == local,
        };
        element && (action.is_empty() || self.action.is_empty() || action == self.action)
    }

    /// Reads the Body's first element with `read` (given the reader and that element's start
    /// tag): the operation's parts.
    ///
    /// # Errors
    ///
    /// The `Sender` fault the service answers a request it cannot read with, its reason the
    /// decode error (with the element path).
    pub fn read_body<T>(
        &self,
        read: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<T, Box<Fault>> {
        walk(&self.envelope, &self.attachments, |r, version| {
            let Some(start) = to_body(r, version)? else {
                return Err(r.error(crate::error::DecodeErrorKind::MissingElement(
                    "the operation's element in Body".to_owned(),
                )));
            };
            read(r, start)
        })
        .map_err(|e| self.bad_request(&e))
    }

    /// The header block `{namespace}local` read as `T` (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2);
    /// `None` when the request has none.
    ///
    /// # Errors
    ///
    /// The `Sender` fault the service answers a block it cannot read with.
    pub fn header<T: crate::xml::FromXml>(&self, name: Name<'_>) -> Result<Option<T>, Box<Fault>> {
        self.header_with(name, T::read_xml)
    }

    /// The header block `{namespace}local` that may be nil (XML Schema Part 1 §2.6.2):
    /// absent, nil, or a value.
    ///
    /// # Errors
    ///
    /// The `Sender` fault the service answers a block it cannot read with.
    pub fn nillable_header<T: crate::xml::FromXml>(
        &self,
        name: Name<'_>,
    ) -> Result<crate::OptionalNillable<T>, Box<Fault>> {
        Ok(self
            .header_with(name, crate::__private::read_nillable::<T>)?
            .map_or(crate::OptionalNillable::Absent, Into::into))
    }

    fn header_with<T>(
        &self,
        name: Name<'_>,
        read: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<Option<T>, Box<Fault>> {
        walk(&self.envelope, &self.attachments, |r, version| {
            let env = version.envelope_namespace();
            while let Some(child) = r.next_child()? {
                if !r.matches(&child, Name::new(env, "Header")) {
                    return Ok(None);
                }
                while let Some(block) = r.next_child()? {
                    if r.matches(&block, name) {
                        return read(r, block).map(Some);
                    }
                    r.skip_element()?;
                }
            }
            Ok(None)
        })
        .map_err(|e| self.bad_request(&e))
    }

    /// The MIME part `part` of a SwA request (WSDL 1.1 §5: a message part bound to
    /// `mime:content`): the one whose Content-ID starts `part=` (WS-I Attachments Profile 1.0
    /// §3.8), else the `position`-th of the parts no name in `names` claims.
    ///
    /// # Errors
    ///
    /// A `Sender` fault when the request has no such part.
    pub fn attachment(
        &self,
        part: &str,
        position: usize,
        names: &[&str],
    ) -> Result<crate::mime::Attachment, Box<Fault>> {
        match self.attachments.find_part(part, position, names) {
            Some(p) => Ok(crate::mime::Attachment::from_part(p)),
            None => Err(Box::new(Fault::sender(
                self.version,
                format!("the request lacks the MIME part `{part}` the operation takes"),
            ))),
        }
    }

    /// The header block `{namespace}local` a parameter requires.
    ///
    /// # Errors
    ///
    /// A `Sender` fault when it is missing or cannot be read.
    pub fn required_header<T: crate::xml::FromXml>(&self, name: Name<'_>) -> Result<T, Box<Fault>> {
        self.header(name)?.ok_or_else(|| {
            Box::new(Fault::sender(
                self.version,
                format!(
                    "the request lacks the header block {{{}}}{} the operation requires",
                    name.namespace, name.local
                ),
            ))
        })
    }

    /// The response of a request-response operation: an envelope of the request's version
    /// whose Body holds what `write` writes (the response element), HTTP 200. The answer to an
    /// MTOM request is MTOM (its binary values of [`MTOM_THRESHOLD`] bytes or more in parts),
    /// and `swaRef` values go in multipart/related parts (WS-I Attachments Profile 1.0 §4.4).
    ///
    /// `action` is the reply's action (WSDL 1.1 §2.4, WS-Addressing Metadata §4.4): sent as
    /// `wsa:Action` when the request was addressed, with `wsa:RelatesTo` its `wsa:MessageID`.
    pub fn reply(
        &self,
        action: &str,
        write: impl FnOnce(&mut XmlWriter) -> Result<(), EncodeError>,
    ) -> HttpResponse {
        self.reply_with_parts(action, Vec::new(), write)
    }

    /// [`reply`](Self::reply) with the response's MIME parts (WSDL 1.1 §5: message parts bound
    /// to `mime:content`), each `(part name, attachment, its declared content type)`: sent as
    /// SwA, each part's Content-ID `part=…` (WS-I Attachments Profile 1.0 §3.8).
    pub fn reply_with_parts(
        &self,
        action: &str,
        parts: Vec<(&str, crate::mime::Attachment, &str)>,
        write: impl FnOnce(&mut XmlWriter) -> Result<(), EncodeError>,
    ) -> HttpResponse {
        let version = self.version;
        let parts = parts
            .into_iter()
            .map(|(part, attachment, content_type)| {
                crate::message::part_attachment(part, attachment, content_type)
            })
            .collect();
        let message = self.answer(action, self.security(), self.mtom, parts, write);
        match message {
            Ok(message) if message.attachments.is_empty() => HttpResponse {
                status: 200,
                headers: vec![("content-type".to_owned(), content_type(version).to_owned())],
                body: Bytes::from(message.envelope),
            },
            // swaRef values (WS-I Attachments Profile 1.0 §4.4), MTOM and SwA parts:
            // multipart/related.
            Ok(message) => {
                let (ct, body) = match message.packaging {
                    crate::mime::Packaging::Mtom => {
                        let root = match version {
                            SoapVersion::Soap11 => "text/xml",
                            SoapVersion::Soap12 => "application/soap+xml",
                        };
                        crate::mime::write_mtom(&message, root)
                    }
                    crate::mime::Packaging::SwA => {
                        crate::mime::write_swa(&message, content_type(version))
                    }
                };
                HttpResponse {
                    status: 200,
                    headers: vec![("content-type".to_owned(), ct)],
                    body,
                }
            }
            Err(e) => fault_response(&Fault::receiver(
                version,
                format!("the fake service's result cannot be written: {e}"),
            )),
        }
    }

    /// An answer to this request, of its version: in the `Header`, the `wsse:Security` block
    /// of `security` (WSS 1.1 §5: first), then the WS-Addressing blocks of an answer when
    /// the request was addressed (`wsa:Action` `action`, `wsa:RelatesTo` the request's
    /// `wsa:MessageID`, `wsa:To` anonymous: WS-Addressing 1.0 SOAP Binding §5.2, Core §3.4);
    /// the Body written by `write`, MTOM when `mtom` (its binary values of [`MTOM_THRESHOLD`]
    /// bytes or more in parts), and the MIME parts `parts` (SwA unless MTOM).
    fn answer(
        &self,
        action: &str,
        security: Option<&Security>,
        mtom: bool,
        parts: Vec<crate::mime::OutgoingAttachment>,
        write: impl FnOnce(&mut XmlWriter) -> Result<(), EncodeError>,
    ) -> Result<crate::message::RequestMessage, EncodeError> {
        let mut w = XmlWriter::new();
        if mtom {
            w.set_mtom(Some(MTOM_THRESHOLD));
        }
        let layers = security_layer(security, self.version)?;
        let mut env = crate::envelope::EnvelopeWriter::with_layers(w, self.version, &[], layers)?;
        if let Some((v, message_id)) = &self.addressing {
            let wsa = |local| Name::new(v.namespace(), local);
            if !action.is_empty() {
                env.header_entry(|w| w.simple_element(wsa("Action"), action))?;
            }
            if let Some(id) = message_id {
                env.header_entry(|w| w.simple_element(wsa("RelatesTo"), id.as_str()))?;
            }
            env.header_entry(|w| w.simple_element(wsa("To"), v.anonymous()))?;
        }
        if !parts.is_empty() {
            env.attach(parts, crate::mime::Packaging::SwA);
        }
        env.body(write)?;
        env.finish_message()
    }

    /// The response of a one-way operation: `202 Accepted` and no body (WS-I Basic Profile 1.1
    /// §3.4.7, SOAP 1.2 Part 2 §7.5.1.2).
    pub fn accepted(&self) -> HttpResponse {
        HttpResponse {
            status: 202,
            headers: Vec::new(),
            body: Bytes::new(),
        }
    }

    /// The fault response of the implementation's error `error`, in the request's version.
    pub fn error<E: IntoFault>(&self, error: E) -> HttpResponse {
        self.fault(error.into_fault())
    }

    /// The fault response of `fault` (a request the fake cannot read or answer), in the
    /// request's version; addressed when the request was, with the fault action of SOAP Binding
    /// §6 (the submission's §5).
    pub fn fault(&self, fault: impl Into<Box<Fault>>) -> HttpResponse {
        self.fault_secured(fault.into(), self.security())
    }

    /// [`fault`](Self::fault), secured with `security`.
    pub(super) fn fault_secured(
        &self,
        fault: Box<Fault>,
        security: Option<&Security>,
    ) -> HttpResponse {
        let fault = fault.in_version(self.version);
        if self.addressing.is_none() && security.is_none() {
            return fault_response(&fault);
        }
        let action = match self.addressing {
            Some((v, _)) => v.fault_actions().last().copied().unwrap_or_default(),
            None => "",
        };
        match self.answer(action, security, false, Vec::new(), |w| fault.write(w)) {
            Ok(message) => HttpResponse {
                status: fault_status(&fault),
                headers: vec![(
                    "content-type".to_owned(),
                    content_type(fault.version).to_owned(),
                )],
                body: Bytes::from(message.envelope),
            },
            // A text XML cannot carry, or security that fails: the plain fault saying so.
            Err(e) => fault_response(&Fault::receiver(
                self.version,
                format!("the fault cannot be written: {e}"),
            )),
        }
    }

    /// The WS-Security configuration of this request's service, when a
    /// [`SecuredService`](super::SecuredService) checked it: its answers are secured with it.
    fn security(&self) -> Option<&Security> {
        #[cfg(feature = "wss")]
        return self.security.as_ref().map(|(config, _)| config);
        #[cfg(not(feature = "wss"))]
        None
    }

    /// The `Sender` fault answering a request for an operation the service does not have:
    /// `operations` are the request elements it takes.
    pub fn unknown_operation(&self, operations: &[(&str, &str)]) -> HttpResponse {
        let found = match &self.operation {
            Some((ns, l)) => format!("{{{ns}}}{l}"),
            None => "an empty Body".to_owned(),
        };
        let known: Vec<String> = operations
            .iter()
            .map(|(ns, l)| format!("{{{ns}}}{l}"))
            .collect();
        let action = if self.action.is_empty() {
            String::new()
        } else {
            format!(" (action `{}`)", self.action)
        };
        self.fault(Fault::sender(
            self.version,
            format!(
                "no operation of the service takes {found}{action}; it takes {}",
                known.join(", ")
            ),
        ))
    }

    fn bad_request(&self, e: &DecodeError) -> Box<Fault> {
        Box::new(Fault::sender(
            self.version,
            format!("the request cannot be read: {e}"),
        ))
    }
}

/// The WS-Addressing version and `wsa:MessageID` of a request's header blocks (the reader just
/// inside the Envelope); `None` when no block is in a WS-Addressing namespace.
fn read_addressing(
    r: &mut XmlReader<'_>,
    version: SoapVersion,
) -> Result<Option<(AddressingVersion, Option<String>)>, DecodeError> {
    let mut found: Option<(AddressingVersion, Option<String>)> = None;
    let Some(child) = r.next_child()? else {
        return Ok(None);
    };
    if !r.matches(&child, Name::new(version.envelope_namespace(), "Header")) {
        return Ok(None);
    }
    while let Some(block) = r.next_child()? {
        let ns = String::from_utf8_lossy(r.namespace_of(&block)).into_owned();
        if let Some(v) = AddressingVersion::from_namespace(&ns) {
            let entry = found.get_or_insert((v, None));
            if block.local_name() == "MessageID" {
                entry.1 = Some(<String as crate::xml::FromXml>::read_xml(r, block)?);
                continue;
            }
        }
        r.skip_element()?;
    }
    Ok(found)
}

/// Reads `envelope` to its root (an `Envelope` of either version) and runs `f` with the reader
/// just inside it, `xop:Include` and `swaRef` values resolved to `attachments`.
fn walk<T>(
    envelope: &str,
    attachments: &crate::mime::Attachments,
    f: impl FnOnce(&mut XmlReader<'_>, SoapVersion) -> Result<T, DecodeError>,
) -> Result<T, DecodeError> {
    let mut r = XmlReader::new(envelope);
    if !attachments.is_empty() {
        r.set_attachments(attachments);
    }
    let root = r.root()?;
    let version = SoapVersion::from_envelope_namespace(r.namespace_of(&root))
        .filter(|_| root.local_name() == "Envelope")
        .ok_or_else(|| {
            r.error_at(
                crate::error::DecodeErrorKind::NotAnEnvelope(format!(
                    "root element is {{{}}}{}",
                    r.namespace_str(&root),
                    root.local_name()
                )),
                root.offset(),
            )
        })?;
    f(&mut r, version)
}

/// Moves the reader, inside the Envelope, past the Header to the Body's first element.
fn to_body<'i>(
    r: &mut XmlReader<'i>,
    version: SoapVersion,
) -> Result<Option<StartTag<'i>>, DecodeError> {
    let env = version.envelope_namespace();
    while let Some(child) = r.next_child()? {
        if r.matches(&child, Name::new(env, "Body")) {
            return r.next_child();
        }
        if !r.matches(&child, Name::new(env, "Header")) {
            return Err(r.unexpected(&child));
        }
        r.skip_element()?;
    }
    Err(r.error(crate::error::DecodeErrorKind::MissingElement(
        "Body".to_owned(),
    )))
}

/// What secures a fake's answers: the service's WS-Security configuration.
#[cfg(feature = "wss")]
pub(super) type Security = crate::wss::WssConfig;
/// Without the `wss` feature, nothing secures a fake's answers.
#[cfg(not(feature = "wss"))]
pub(super) enum Security {}

/// The part of `security` in an answer of `version` (none without it).
fn security_layer(
    security: Option<&Security>,
    version: SoapVersion,
) -> Result<Vec<Box<dyn crate::message::LayerCall>>, EncodeError> {
    #[cfg(feature = "wss")]
    if let Some(config) = security {
        use crate::message::{MessageLayer, Operation, Outbound};
        let operation = Operation::new("answer", "", version);
        return Ok(config
            .start(&Outbound::new(&operation, ""))?
            .into_iter()
            .collect());
    }
    let _ = (security, version);
    Ok(Vec::new())
}

fn content_type(version: SoapVersion) -> &'static str {
    match version {
        SoapVersion::Soap11 => "text/xml; charset=utf-8",
        SoapVersion::Soap12 => "application/soap+xml; charset=utf-8",
    }
}

/// The HTTP response of `fault` (SOAP 1.1 §6.2: 500; SOAP 1.2 Part 2 §7.5.2.2: 400 for a
/// `Sender` fault, 500 otherwise). A fault that cannot be written (a text XML 1.0 cannot carry)
/// is answered with the plain `Receiver` fault saying so.
pub(super) fn fault_response(fault: &Fault) -> HttpResponse {
    let (body, fault) = match fault.to_envelope() {
        Ok(body) => (body, fault),
        Err(e) => {
            let plain = Fault::receiver(fault.version, format!("the fault cannot be written: {e}"));
            let body = plain.to_envelope().unwrap_or_default();
            return HttpResponse {
                status: 500,
                headers: vec![(
                    "content-type".to_owned(),
                    content_type(fault.version).to_owned(),
                )],
                body: Bytes::from(body),
            };
        }
    };
    HttpResponse {
        status: fault_status(fault),
        headers: vec![(
            "content-type".to_owned(),
            content_type(fault.version).to_owned(),
        )],
        body: Bytes::from(body),
    }
}

/// The HTTP status of a response carrying `fault`: SOAP 1.1 §6.2, 500; SOAP 1.2 Part 2
/// §7.5.2.2, 400 for a `Sender` fault and 500 otherwise.
fn fault_status(fault: &Fault) -> u16 {
    match fault.version {
        SoapVersion::Soap12 if fault.is_sender() => 400,
        _ => 500,
    }
}
