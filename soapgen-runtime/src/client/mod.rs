//! The client generated code calls: endpoint, transport and per-client settings, and the one call
//! path every call takes (HTTP binding of SOAP 1.1 §6 and SOAP 1.2 Part 2 §7):
//!
//! 1. generated code writes the operation's [`Request`] ([`Client::request`]) and gets a
//!    [`Call`] ([`send`](crate::__private::send)) without sending anything;
//! 2. when the call is first polled, the client starts its message layers, puts the request in
//!    an envelope with them and sends it (`exchange.rs`: one non-generic future for every
//!    operation);
//! 3. the response is read once (`response.rs`: MIME unpacked, the layers' inbound checks, the
//!    envelope walked with its header blocks checked, the Body's child handed to the result's
//!    decoder, a fault annotated by the layers).
//!
//! [`Client::call`], [`call_with_attachments`](Client::call_with_attachments) and
//! [`call_one_way`](Client::call_one_way) are the same path for hand-written calls.

mod builder;
mod call;
mod exchange;
mod failover;
mod response;
#[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
mod retry;
mod shape;
mod stream;

use std::sync::Arc;

pub use builder::ClientBuilder;
pub use call::{send, Call, WithResponse};
pub use failover::{Failover, FailoverOrder};
#[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
pub use retry::Retry;
pub use shape::{result, Decoder, ResponseContext, ResponseShape};
#[cfg(feature = "blocking")]
pub use stream::BlockingItems;
pub use stream::{send_stream, ItemDecoder, ItemStream, StreamCall};

use crate::error::EncodeError;
use crate::header::{replace_blocks, DeclaredHeader, HeaderBlock};
use crate::message::{
    ExchangeFuture, Exchanger, MessageLayer, Operation, Request, RequestMessage, RequestWriter,
    WriterSettings,
};
use crate::transport::Transport;
use crate::xml::{Limits, ToXml};

/// Default for the largest response body accepted: 64 MiB.
pub const DEFAULT_MAX_RESPONSE_BYTES: usize = 64 * 1024 * 1024;

#[derive(Debug)]
struct Inner {
    endpoint: String,
    transport: Arc<dyn Transport>,
    settings: Settings,
}

/// What a client applies to every call, set by its [`ClientBuilder`] and kept by the clients
/// derived from it ([`Client::with_endpoint`], [`Client::with_soap_headers`]).
#[derive(Debug, Clone)]
struct Settings {
    /// Extra HTTP header fields.
    headers: Vec<(String, String)>,
    limits: Limits,
    max_response_bytes: usize,
    /// How requests are written (MIME base64, MTOM, default namespaces).
    writer: WriterSettings,
    /// The client's own SOAP header blocks, after the layers' and before the operation's; at
    /// most one run of blocks per element name (a later setting replaces an earlier one).
    soap_headers: Vec<HeaderBlock>,
    /// A typed header value that could not be written (`Client::with_header`): every call of
    /// this client fails with it, as the call it was meant for would have.
    header_error: Option<EncodeError>,
    /// Response header blocks the caller processes: (namespace, local name).
    understood: Vec<(String, String)>,
    /// The message layers of every call, in order (see `ClientBuilder::layer`).
    layers: Vec<Arc<dyn MessageLayer>>,
    /// The whole-exchange deadline around the transport, on every transport (see
    /// `ClientBuilder::timeout`; without a timer, as without tokio, none).
    #[cfg_attr(
        not(any(feature = "reqwest", feature = "hyper", feature = "blocking")),
        allow(dead_code)
    )]
    deadline: Option<std::time::Duration>,
    /// When a call is tried again (see `ClientBuilder::retry`); never when `None`.
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    retry: Option<retry::Retry>,
    /// The addresses each call tries (see `ClientBuilder::failover`); the endpoint alone when
    /// `None`.
    failover: Option<Arc<failover::Endpoints>>,
    /// Where large attachments of responses go (see `ClientBuilder::attachment_store`).
    attachment_store: Option<Arc<crate::mime::AttachmentStore>>,
}

/// A SOAP client for one endpoint: cheap to clone (an `Arc`), safe to share across tasks; clones share
/// the transport and its connection pool.
///
/// Generated clients wrap one. Build it with [`Client::builder`], or [`Client::new`] for defaults.
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "reqwest")] {
/// let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/soap")
///     .basic_auth("user", "secret")
///     .header("X-Tenant", "acme")
///     .build()?;
/// assert_eq!(client.endpoint(), "http://127.0.0.1:8080/soap");
/// # }
/// # Ok::<(), soapgen_runtime::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Client {
    inner: Arc<Inner>,
}

impl Client {
    /// Settings for a client of `endpoint`.
    pub fn builder(endpoint: impl Into<String>) -> ClientBuilder {
        ClientBuilder::new(endpoint.into())
    }

    /// A client of `endpoint` with default settings.
    ///
    /// # Errors
    ///
    /// As [`ClientBuilder::build`].
    pub fn new(endpoint: impl Into<String>) -> Result<Client, crate::Error> {
        Self::builder(endpoint).build()
    }

    /// The same client (transport, settings) for another endpoint, that one alone (a
    /// [`Failover`] set is not kept). O(1) apart from copying settings.
    pub fn with_endpoint(&self, endpoint: impl Into<String>) -> Client {
        let mut c = self.with_settings(endpoint.into(), self.inner.settings.soap_headers.clone());
        if let Some(inner) = Arc::get_mut(&mut c.inner) {
            inner.settings.failover = None;
        }
        c
    }

    /// The same client (transport, settings) with `blocks` on every request (SOAP 1.1 §4.2,
    /// SOAP 1.2 Part 1 §5.2), for one call or a few with headers of their own (a session
    /// token, a tenant). A block replaces the client's blocks of the same element name, so a
    /// per-call value never travels beside the client's; blocks of one `blocks` are all kept,
    /// in order. O(1) apart from copying settings. For a header the WSDL declares, see
    /// [`with_header`](Self::with_header).
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "reqwest")] {
    /// use soapgen_runtime::header::HeaderBlock;
    /// use soapgen_runtime::xml::Name;
    /// let client = soapgen_runtime::Client::new("http://127.0.0.1:8080/svc")?;
    /// let once = client.with_soap_headers([HeaderBlock::new("fr-CH", Name::new("urn:ctx", "Locale"))?]);
    /// # }
    /// # Ok::<(), soapgen_runtime::Error>(())
    /// ```
    pub fn with_soap_headers(&self, blocks: impl IntoIterator<Item = HeaderBlock>) -> Client {
        let mut h = self.inner.settings.soap_headers.clone();
        replace_blocks(&mut h, blocks.into_iter().collect());
        self.with_settings(self.inner.endpoint.clone(), h)
    }

    /// The same client with `value` as the block of the declared header `header` on every
    /// request (WSDL 1.1 §3.7 `soap:header`; generated clients carry one `DeclaredHeader`
    /// constant per header their WSDL declares, `SESSION_HEADER` for `{ns}SessionHeader`). It
    /// replaces the client's block of that element, if any: set on a shared client, it is the
    /// session's header; set for one call (`svc.with_header(…).query(…)`), it overrides the
    /// shared one for that call alone, never sent beside it. A header parameter of a
    /// `#[soap_client]` method with a value replaces it in turn for its call.
    ///
    /// A value that cannot be written (a string with a character XML forbids) is not lost:
    /// every call of the returned client fails with its [`EncodeError`], naming the header.
    /// O(1) apart from writing `value` once and copying settings.
    ///
    /// # Examples
    ///
    /// ```
    /// # #[cfg(feature = "reqwest")] {
    /// use soapgen_runtime::header::DeclaredHeader;
    /// const TENANT: DeclaredHeader<String> = DeclaredHeader::new("urn:example:ctx", "Tenant");
    /// let client = soapgen_runtime::Client::new("http://127.0.0.1:8080/svc")?
    ///     .with_header(TENANT, &"acme".to_owned());
    /// let other = client.with_header(TENANT, &"globex".to_owned()); // one Tenant block, globex
    /// # }
    /// # Ok::<(), soapgen_runtime::Error>(())
    /// ```
    pub fn with_header<T: ToXml>(&self, header: DeclaredHeader<T>, value: &T) -> Client {
        match HeaderBlock::declared(header, value) {
            Ok(block) => self.with_soap_headers([block]),
            Err(e) => {
                let mut c = self.with_settings(
                    self.inner.endpoint.clone(),
                    self.inner.settings.soap_headers.clone(),
                );
                if let Some(inner) = Arc::get_mut(&mut c.inner) {
                    inner.settings.header_error.get_or_insert(e);
                }
                c
            }
        }
    }

    /// The same client (transport, endpoint, settings) with `layers` as its message layers
    /// instead of its own: for the exchanges a layer makes before or after the calls
    /// ([`MessageLayer::prepare`], [`MessageLayer::close`]), secured as those exchanges must
    /// be (a WS-SecureConversation token request under its bootstrap policy). O(1) apart from
    /// copying settings.
    pub fn with_layers(&self, layers: Vec<Arc<dyn MessageLayer>>) -> Client {
        let mut c = self.with_settings(
            self.inner.endpoint.clone(),
            self.inner.settings.soap_headers.clone(),
        );
        if let Some(inner) = Arc::get_mut(&mut c.inner) {
            inner.settings.layers = layers;
        }
        c
    }

    /// Ends what the client's message layers hold with the service: a WS-SecureConversation
    /// security context is cancelled (WS-SecureConversation 1.3 §6). Every layer is closed;
    /// the client stays usable (a later call establishes a new context). Without it, a context
    /// is cancelled when the last clone of the client is dropped on a tokio runtime, and left
    /// to expire otherwise.
    ///
    /// # Errors
    ///
    /// The first layer's [`Error`](crate::Error) (a Cancel the service refused); the others are closed even so.
    pub async fn close(&self) -> Result<(), crate::Error> {
        let mut first = Ok(());
        for l in &self.inner.settings.layers {
            if let Some(f) = l.close(self as &dyn Exchanger) {
                let r = f.await;
                if first.is_ok() {
                    first = r;
                }
            }
        }
        first
    }

    /// Awaits each message layer's [`MessageLayer::prepare`] for a call of `op` at `endpoint`.
    pub(crate) async fn prepare_layers(
        &self,
        op: &Operation,
        endpoint: &str,
    ) -> Result<(), crate::Error> {
        for l in &self.inner.settings.layers {
            let call = crate::message::Outbound::new(op, endpoint);
            if let Some(f) = l.prepare(self as &dyn Exchanger, call) {
                f.await?;
            }
        }
        Ok(())
    }

    fn with_settings(&self, endpoint: String, soap_headers: Vec<HeaderBlock>) -> Client {
        let settings = Settings {
            soap_headers,
            ..self.inner.settings.clone()
        };
        Client {
            inner: Arc::new(Inner {
                endpoint,
                transport: self.inner.transport.clone(),
                settings,
            }),
        }
    }

    /// The endpoint URL.
    pub fn endpoint(&self) -> &str {
        &self.inner.endpoint
    }

    /// Starts writing an operation's request, whose elements may use the `(prefix,
    /// namespace)`s of `namespaces` (declared on the `Envelope`), as this client writes
    /// (MIME base64, MTOM, default namespaces). Send it with [`call`](Self::call) (or, from
    /// generated code, as a [`Call`]); the client puts it in an envelope with its message
    /// layers' header blocks when it sends it.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run(client: soapgen_runtime::Client) -> Result<(), soapgen_runtime::Error> {
    /// use soapgen_runtime::xml::Name;
    /// use soapgen_runtime::{Operation, SoapVersion};
    /// let op = Operation::new("Add", "urn:calc/Add", SoapVersion::Soap11);
    /// let mut req = client.request(&[("tns", "urn:calc")]);
    /// let w = req.body_writer();
    /// w.start_element(Name::new("urn:calc", "Add"))?;
    /// w.simple_element(Name::new("urn:calc", "a"), "1")?;
    /// w.simple_element(Name::new("urn:calc", "b"), "2")?;
    /// w.end_element()?;
    /// let sum: String = client
    ///     .call(&op, req.finish()?, |r, _start| Ok(r.read_inner_xml()?.to_owned()))
    ///     .await?;
    /// # Ok(()) }
    /// ```
    pub fn request(&self, namespaces: &'static [(&'static str, &'static str)]) -> RequestWriter {
        RequestWriter::with_settings(namespaces, self.inner.settings.writer)
    }

    /// The message this client would send for `request` to `op` now: the envelope with the
    /// message layers' header blocks (fresh: each call gets its own `wsa:MessageID`,
    /// Timestamp, Nonce), secured as its layers say, and the attachments. For inspecting or
    /// sending elsewhere; a call puts its request in an envelope of its own when it is sent.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from a layer (an addressed operation without an action, a signing key
    /// that fails).
    pub fn message(
        &self,
        op: &Operation,
        request: &Request,
    ) -> Result<RequestMessage, EncodeError> {
        self.envelope(op, request).map(|(m, _)| m)
    }
}

/// A client makes the exchanges of its layers' [`prepare`](MessageLayer::prepare) and
/// [`close`](MessageLayer::close) on its own transport and settings.
impl Exchanger for Client {
    fn request(&self, namespaces: &'static [(&'static str, &'static str)]) -> RequestWriter {
        Client::request(self, namespaces)
    }

    fn exchange<'a>(
        &'a self,
        op: &'a Operation,
        request: Request,
        layers: Vec<Arc<dyn MessageLayer>>,
    ) -> ExchangeFuture<'a> {
        Box::pin(async move {
            self.with_layers(layers)
                .call(
                    op,
                    request,
                    <crate::types::AnyElement as crate::xml::FromXml>::read_xml,
                )
                .await
        })
    }

    /// The same client without its layers (each exchange gives its own): a layer that keeps
    /// it holds no reference to itself.
    fn detach(&self) -> Arc<dyn Exchanger> {
        Arc::new(self.with_layers(Vec::new()))
    }
}
