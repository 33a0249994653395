//! Message layers: the protocols that work on the SOAP message itself rather than on an
//! operation's payload. WS-Security (which signs and encrypts the whole envelope and checks the
//! response's `wsse:Security` header) and WS-Addressing (which adds `wsa` header blocks and
//! relates the reply to the request) are layers; so is any protocol of a user's own, registered
//! with [`ClientBuilder::layer`](crate::ClientBuilder::layer).
//!
//! A client keeps its layers in an ordered list. For each exchange (each attempt of a call) it
//! asks every layer to [`start`](MessageLayer::start) a [`LayerCall`]: the layer's state in
//! that one exchange. The envelope is written with each started call's hooks, in list order
//! ([`namespace`](LayerCall::namespace) on the `Envelope`, [`write_header`](LayerCall::write_header)
//! first in the `Header`, [`start_body`](LayerCall::start_body) and
//! [`end_body`](LayerCall::end_body) around the `Body`'s content) and finished by each in
//! reverse order ([`finish`](LayerCall::finish): the first layer, which signs, sees the message
//! last). The response is given to each call before it is read ([`inbound`](LayerCall::inbound):
//! verified, decrypted, or refused), then read once, each header block offered to the calls
//! ([`header_block`](LayerCall::header_block): processed or not, for `mustUnderstand`, SOAP 1.1
//! §4.2.3, SOAP 1.2 Part 1 §5.2.3), and a result checked by each ([`reply`](LayerCall::reply)),
//! a fault annotated or refused ([`fault`](LayerCall::fault)).
//!
//! # Examples
//!
//! A layer that stamps every request with a header block of its own:
//!
//! ```
//! use soapgen_runtime::message::{LayerCall, MessageLayer, Outbound};
//! use soapgen_runtime::xml::{Name, XmlWriter};
//! use soapgen_runtime::{EncodeError, SoapVersion};
//!
//! #[derive(Debug)]
//! struct Tenant(&'static str);
//!
//! #[derive(Debug)]
//! struct TenantCall(&'static str);
//!
//! impl MessageLayer for Tenant {
//!     fn start(&self, _call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError> {
//!         Ok(Some(Box::new(TenantCall(self.0))))
//!     }
//! }
//!
//! impl LayerCall for TenantCall {
//!     fn write_header(&mut self, w: &mut XmlWriter, _: SoapVersion) -> Result<(), EncodeError> {
//!         w.simple_element(Name::new("urn:example:ctx", "Tenant"), self.0)
//!     }
//! }
//!
//! # #[cfg(feature = "reqwest")] {
//! let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/svc")
//!     .layer(Tenant("acme"))
//!     .build()?;
//! # }
//! # Ok::<(), soapgen_runtime::Error>(())
//! ```

use std::fmt;
use std::sync::Arc;

use super::{Operation, Request, RequestMessage, RequestWriter, SoapVersion};
use crate::error::{DecodeError, EncodeError, Error};
use crate::fault::Fault;
use crate::mime::Attachments;
use crate::types::AnyElement;
use crate::xml::{Limits, Name, StartTag, XmlReader, XmlWriter};

/// A protocol a client applies to the SOAP message of every call: see the [module](crate::message) docs.
pub trait MessageLayer: fmt::Debug + Send + Sync + 'static {
    /// Starts the layer's part in one exchange of `call` (each attempt of a call is an exchange of
    /// its own): what it writes into that request and checks in its response. `Ok(None)`: the
    /// layer has nothing to do for this call.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] when the layer cannot take part (a required value missing): the call
    /// fails with it, nothing is sent.
    fn start(&self, call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError>;

    /// Work the layer must do with the service before a call's request can be written (a
    /// session to establish, a token to fetch: WS-SecureConversation 1.3 §4), awaited before
    /// each exchange of `call`, with `client` to make such exchanges on (the client's
    /// transport and settings, with the layers those exchanges need). `None` (the default):
    /// nothing to do. Work that is done already should finish at once: this is awaited on
    /// every call.
    fn prepare<'a>(
        &'a self,
        _client: &'a dyn Exchanger,
        _call: Outbound<'a>,
    ) -> Option<LayerFuture<'a>> {
        None
    }

    /// Ends what the layer holds with the service (a session to cancel: WS-SecureConversation
    /// 1.3 §6), when the application closes the client ([`Client::close`](crate::Client::close)),
    /// with `client` to make the exchange on. `None` (the default): nothing to end.
    fn close<'a>(&'a self, _client: &'a dyn Exchanger) -> Option<LayerFuture<'a>> {
        None
    }
}

/// What a layer's [`prepare`](MessageLayer::prepare) and [`close`](MessageLayer::close) make
/// exchanges of their own with: the client's transport, endpoint and settings (HTTP
/// authentication, limits, timeouts), with the message layers such an exchange needs instead of
/// the client's. A [`Client`](crate::Client) is one.
pub trait Exchanger: fmt::Debug + Send + Sync {
    /// A request writer with the client's settings (see
    /// [`Client::request`](crate::Client::request)).
    fn request(&self, namespaces: &'static [(&'static str, &'static str)]) -> RequestWriter;

    /// Sends `request` for `op` to the client's endpoint with `layers` as its message layers,
    /// and gives the response Body's child (self-contained: its namespaces declared on it).
    ///
    /// # Errors
    ///
    /// As [`Client::call`](crate::Client::call): a fault, a transport failure, a response a
    /// layer refused.
    fn exchange<'a>(
        &'a self,
        op: &'a Operation,
        request: Request,
        layers: Vec<Arc<dyn MessageLayer>>,
    ) -> ExchangeFuture<'a>;

    /// An exchanger of its own on the same transport and settings, kept for a later exchange
    /// (a Cancel when the client goes). It must not hold the layer that keeps it (a
    /// [`Client`](crate::Client)'s holds none of its layers), or neither is ever dropped.
    fn detach(&self) -> Arc<dyn Exchanger>;
}

/// The response of [`Exchanger::exchange`].
pub type ExchangeFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<AnyElement, Error>> + Send + 'a>>;

/// The work of [`MessageLayer::prepare`] or [`MessageLayer::close`]: a future that fails the call
/// (or the close) with its [`Error`].
pub type LayerFuture<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<(), Error>> + Send + 'a>>;

/// What the layers are told of a call when its request is started.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Outbound<'a> {
    /// The operation called (with the description's facts about it, [`Operation::fact`]).
    pub operation: &'a Operation,
    /// The endpoint URL the request goes to.
    pub endpoint: &'a str,
}

impl<'a> Outbound<'a> {
    /// The call of `operation` at `endpoint`.
    pub fn new(operation: &'a Operation, endpoint: &'a str) -> Self {
        Outbound {
            operation,
            endpoint,
        }
    }
}

/// One layer's part in one exchange: its hooks on the way out (writing the request) and on the
/// way in (reading the response), each with a default that does nothing. See the
/// [module](crate::message) docs for when each is called.
pub trait LayerCall: fmt::Debug + Send {
    /// A `(prefix, namespace)` to declare on the request's `Envelope`, so that the layer's
    /// header blocks share one declaration (none by default).
    fn namespace(&self) -> Option<(&'static str, &'static str)> {
        None
    }

    /// Writes the layer's header blocks: `w` is inside the request's `Header` (of SOAP
    /// `version`), after the blocks of the layers before this one. A layer that inserts its
    /// block later ([`finish`](Self::finish)) notes the offset here (`w.as_str().len()`, after
    /// `w.raw("")` closes the `Header` start tag).
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from the writer; the call fails with it.
    fn write_header(
        &mut self,
        _w: &mut XmlWriter,
        _version: SoapVersion,
    ) -> Result<(), EncodeError> {
        Ok(())
    }

    /// The `Body` start tag, which begins at byte `at`, is open in `w` (the Envelope's
    /// namespace declarations in scope): attributes may be added, or the tag closed.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from the writer.
    fn start_body(&mut self, _w: &mut XmlWriter, _at: usize) -> Result<(), EncodeError> {
        Ok(())
    }

    /// The `Body`'s content is written; `w` is at its end.
    fn end_body(&mut self, _w: &XmlWriter) {}

    /// Rewrites the finished `message` (signs, encrypts); the layers finish last first.
    ///
    /// # Errors
    ///
    /// [`EncodeError`]: the call fails with it, nothing is sent.
    fn finish(&mut self, _message: &mut RequestMessage) -> Result<(), EncodeError> {
        Ok(())
    }

    /// Why a response without an envelope (an empty body) has none, when the layer knows (the
    /// reply was sent to `wsa:ReplyTo`); `ok`: the HTTP status was 2xx.
    fn no_envelope(&self, _ok: bool) -> Option<String> {
        None
    }

    /// Whether this layer checks a response as a whole document (a signature or encryption that
    /// covers the Body, WSS 1.1 §8): a streamed call then reads its response whole before
    /// handing out the items. Default `false`: the layer sees the response's start (its header
    /// blocks), which is read whole either way.
    fn whole_response(&self) -> bool {
        false
    }

    /// Checks the response envelope before anything is read from it (verifies, decrypts).
    fn inbound(&mut self, _response: &Incoming<'_>) -> Verdict {
        Verdict::Accept
    }

    /// A header block of the response: whether this layer processes it (a `mustUnderstand`
    /// block no one processes fails the call). The layer may read what it needs of it.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] for a block the layer cannot read; the call fails with it.
    fn header_block(&mut self, _block: &mut InboundBlock<'_, '_>) -> Result<bool, DecodeError> {
        Ok(false)
    }

    /// Checks a successful reply, read.
    ///
    /// # Errors
    ///
    /// The call's error (a reply not related to the request).
    fn reply(&mut self) -> Result<(), Error> {
        Ok(())
    }

    /// Annotates a SOAP fault the response holds (what the layer found of it), or refuses it.
    ///
    /// # Errors
    ///
    /// The call's error instead of the fault.
    fn fault(&mut self, _fault: &mut Fault) -> Result<(), Error> {
        Ok(())
    }
}

/// What a [`LayerCall`] makes of a response before it is read.
#[derive(Debug)]
pub enum Verdict {
    /// Read the response as it is.
    Accept,
    /// Read this document (UTF-8) instead: the response as the layer rewrote it (decrypted).
    Rewrite(String),
    /// The response fails the layer: it is not read for a result. A SOAP fault in it is still
    /// read and given to [`LayerCall::fault`] (which may return this refusal instead); anything
    /// else fails the call with this error (or, with a status that is not 2xx, with the HTTP
    /// error).
    Refuse(Error),
}

/// A response envelope to read, with what the HTTP layer knows of it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Incoming<'a> {
    /// The document (the root part of a multipart/related response).
    pub body: &'a [u8],
    /// The other parts of a multipart/related response.
    pub attachments: Option<&'a Attachments>,
    /// The `charset` of the Content-Type, which overrides the XML declaration (RFC 7303 §3).
    pub http_charset: Option<&'a str>,
    /// The reader's limits.
    pub limits: Limits,
    /// The HTTP status, recorded in a fault.
    pub http_status: Option<u16>,
    /// The request's version: an envelope of the other is refused unless it holds a fault.
    pub expected: Option<SoapVersion>,
}

impl<'a> Incoming<'a> {
    /// The document `body` read with `limits`, outside any exchange.
    pub fn new(body: &'a [u8], limits: Limits) -> Self {
        Incoming {
            body,
            attachments: None,
            http_charset: None,
            limits,
            http_status: None,
            expected: None,
        }
    }

    /// Whether the HTTP status was 2xx (or there is none).
    pub fn ok(&self) -> bool {
        self.http_status.is_none_or(|s| (200..300).contains(&s))
    }
}

/// One header block of a response, offered to the [`LayerCall`]s: its name, attributes and
/// text.
#[derive(Debug)]
pub struct InboundBlock<'r, 'i> {
    reader: &'r mut XmlReader<'i>,
    start: &'r StartTag<'i>,
    namespace: &'r str,
    version: SoapVersion,
    kept: Option<&'r AnyElement>,
    text: Option<String>,
}

impl<'r, 'i> InboundBlock<'r, 'i> {
    /// The block whose start tag `start` was just read by `reader` (or, `kept`, read whole).
    pub(crate) fn new(
        reader: &'r mut XmlReader<'i>,
        start: &'r StartTag<'i>,
        namespace: &'r str,
        version: SoapVersion,
        kept: Option<&'r AnyElement>,
    ) -> Self {
        InboundBlock {
            reader,
            start,
            namespace,
            version,
            kept,
            text: None,
        }
    }

    /// The block's namespace.
    pub fn namespace(&self) -> &str {
        self.namespace
    }

    /// The block's local name.
    pub fn local_name(&self) -> &str {
        self.start.local_name()
    }

    /// The SOAP version of the envelope.
    pub fn version(&self) -> SoapVersion {
        self.version
    }

    /// The value of the block's attribute `name` (read it before [`text`](Self::text)).
    ///
    /// # Errors
    ///
    /// A malformed attribute.
    pub fn attribute(&self, name: Name<'_>) -> Result<Option<String>, DecodeError> {
        Ok(self
            .reader
            .attribute(self.start, name)?
            .map(|v| v.into_owned()))
    }

    /// The block's text content (the block must hold text only).
    ///
    /// # Errors
    ///
    /// [`DecodeError`] for a child element.
    pub fn text(&mut self) -> Result<&str, DecodeError> {
        if self.text.is_none() {
            let t = match self.kept {
                Some(e) => e.decode::<String>()?,
                None => self.reader.read_text()?.into_owned(),
            };
            self.text = Some(t);
        }
        Ok(self.text.as_deref().unwrap_or_default())
    }

    /// Whether [`text`](Self::text) read the block to its end.
    pub(crate) fn consumed(&self) -> bool {
        self.kept.is_none() && self.text.is_some()
    }
}
