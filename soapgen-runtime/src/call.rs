//! The call path generated clients use: an operation's request is encoded synchronously into a
//! [`RequestMessage`], sent by one non-generic exchange, and its response read by a decoder that is
//! generic over the result type only (WSDL 1.1 §2.4 request-response and one-way operations, SOAP 1.1
//! §6 and SOAP 1.2 Part 2 §7 HTTP binding).
//!
//! What varies between operations is data, not code: the response's layout is a static
//! [`ResponseShape`] (bare element, wrapper with a result element and its minOccurs, rpc/encoded
//! accessor, one-way), and the way the result is read is one of the [`result`] markers, chosen by
//! the result's occurrence (`T`, `Option<T>`, `Vec<T>`, `Nillable<T>`, …). So a client with
//! thousands of operations instantiates the reading code once per distinct result type, and the
//! envelope walk, MIME unpacking, WS-Security and multiRef resolution once in all.
//!
//! # Examples
//!
//! What `#[soap_client]` expands an operation to, written by hand:
//!
//! ```no_run
//! use soapgen_runtime::call::{result, Call, ResponseShape};
//! use soapgen_runtime::xml::Name;
//! use soapgen_runtime::{Client, Error, Operation, SoapVersion};
//!
//! static SHAPE: ResponseShape = ResponseShape::wrapped(
//!     Name::new("urn:calc", "AddResponse"),
//!     Name::new("urn:calc", "AddResult"),
//!     0,
//! );
//!
//! fn add(client: &Client, a: i32, b: i32) -> Call<i32> {
//!     let op = Operation::new("Add", "urn:calc/Add", SoapVersion::Soap11);
//!     let message = (|| {
//!         let mut env = client.envelope(&op, &[("tns", "urn:calc")])?;
//!         let w = env.body_writer()?;
//!         w.start_element(Name::new("urn:calc", "Add"))?;
//!         w.simple_element(Name::new("urn:calc", "a"), &a.to_string())?;
//!         w.simple_element(Name::new("urn:calc", "b"), &b.to_string())?;
//!         w.end_element()?;
//!         env.end_body()?;
//!         env.finish_message()
//!     })();
//!     client.send(op, message, &SHAPE, result::One::<i32>::read)
//! }
//! # async fn run(client: Client) -> Result<(), Error> { let sum = add(&client, 1, 2).await?; Ok(()) }
//! ```

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::addressing::Addressed;
use crate::client::Client;
use crate::envelope::BodyContent;
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, Error, Location};
use crate::header::{Response, ResponseHeader, ResponseHeaders};
use crate::layer::Sent;
use crate::mime::RequestMessage;
use crate::transport::HttpResponse;
use crate::xml::{Name, StartTag, XmlReader};
use crate::Operation;

/// The layout of an operation's response Body, as the binding describes it (WSDL 1.1 §3.5
/// `soap:body`, §2.4.1 one-way). Static data in generated code, one per operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResponseShape {
    /// The Body's child is the result, read whole: document/literal bare (WSDL 1.1 §3.5, the part's
    /// element), or a response wrapper with several children read as one struct. The child must
    /// be this element.
    Element(Name<'static>),
    /// A response wrapper holding the result element: document/literal wrapped and rpc/literal
    /// (WSDL 1.1 §3.5, the part accessor inside the operation's response element). A repeated
    /// result has at least `min` occurrences (XML Schema Part 1 §3.9.1). With a `()` result the
    /// wrapper must hold nothing (unknown children are refused unless the reader is lenient).
    /// Built with [`ResponseShape::wrapped`] or [`ResponseShape::rpc`].
    #[non_exhaustive]
    Wrapped {
        /// The response wrapper element.
        wrapper: Name<'static>,
        /// The result element inside it.
        result: Name<'static>,
        /// minOccurs of a repeated result element; 0 otherwise.
        min: u64,
        /// rpc style: the wrapper is taken whatever its name, which SOAP 1.1 §7.1 says is not
        /// significant (`{operation}Response` is only the convention); document style: it must
        /// be `wrapper`.
        rpc: bool,
    },
    /// rpc/encoded (SOAP 1.1 §7.1): the response wrapper's single child, whatever its name (the
    /// return accessor's name is not significant); `result` names it in errors. The wrapper is
    /// taken whatever its name too. Built with [`ResponseShape::encoded`].
    #[non_exhaustive]
    Encoded {
        /// The response wrapper element (its conventional name).
        wrapper: Name<'static>,
        /// The declared result accessor, for "missing element" errors.
        result: Name<'static>,
    },
    /// A one-way operation (WSDL 1.1 §2.4.1): no response is expected; a 2xx with an empty body or
    /// an empty `Body` is success, a fault is still reported.
    OneWay,
}

impl ResponseShape {
    /// Document/literal wrapped (WSDL 1.1 §3.5): the result element `result` inside the response
    /// wrapper `wrapper`, at least `min` times when repeated (XML Schema Part 1 §3.9.1
    /// minOccurs; 0 otherwise).
    pub const fn wrapped(wrapper: Name<'static>, result: Name<'static>, min: u64) -> Self {
        ResponseShape::Wrapped {
            wrapper,
            result,
            min,
            rpc: false,
        }
    }

    /// rpc/literal (WSDL 1.1 §3.5, SOAP 1.1 §7.1): as [`wrapped`](ResponseShape::wrapped), the
    /// wrapper taken whatever its name.
    pub const fn rpc(wrapper: Name<'static>, result: Name<'static>, min: u64) -> Self {
        ResponseShape::Wrapped {
            wrapper,
            result,
            min,
            rpc: true,
        }
    }

    /// rpc/encoded (SOAP 1.1 §7.1): the wrapper's single child, whatever its name; `wrapper` and
    /// `result` are the conventional names, for errors.
    pub const fn encoded(wrapper: Name<'static>, result: Name<'static>) -> Self {
        ResponseShape::Encoded { wrapper, result }
    }
}

/// Reads an operation's result from the Body's child (`Some`: the reader just after its start
/// tag) or from an empty Body (`None`), as `shape` lays it out. One of [`result`]'s `read`
/// functions: a plain function pointer, so [`Call`] is generic over the result type only.
pub type Decoder<T> = for<'i> fn(
    Option<(&mut XmlReader<'i>, StartTag<'i>)>,
    &ResponseShape,
) -> Result<T, DecodeError>;

/// The exchange of a call in flight: the request sent and the response read in full.
type Exchange = Pin<Box<dyn Future<Output = Result<HttpResponse, Error>> + Send>>;

/// A SOAP call in flight, returned by the methods of generated clients: a [`Future`] of the
/// operation's result `T` or the method's error `E` (soapgen's [`Error`], or a type converting from
/// it such as [`FaultError`](crate::FaultError)). The request was encoded when the call was made; it
/// is sent when the call is first polled (or [`wait`](Self::wait)ed on). Owns what it needs
/// (`'static`): it can be spawned.
#[must_use = "a Call does nothing until awaited"]
pub struct Call<T, E = Error> {
    state: State<T, E>,
}

enum State<T, E> {
    /// Built or sent: the exchange (not generic) and how the result is read.
    Plain {
        core: Core,
        shape: &'static ResponseShape,
        decode: Decoder<T>,
    },
    /// Any other future of the same output (operations returning attachments), and the
    /// endpoint it calls (for the blocking client's errors; may be empty).
    Boxed(
        Pin<Box<dyn Future<Output = Result<T, E>> + Send>>,
        #[cfg_attr(not(feature = "blocking"), allow(dead_code))] String,
    ),
    Done,
}

/// What a call needs to exchange its request for a response: nothing in it depends on the result
/// type, so the state machine that drives it is compiled once.
struct Core {
    client: Client,
    op: Operation,
    /// The request's addressing, for the reply's `wsa:RelatesTo` and `wsa:Action` (boxed: most
    /// calls are not addressed, and `Call` stays small).
    addressed: Option<Box<Addressed>>,
    /// The request's SignatureValues, for the reply's SignatureConfirmations (WSS 1.1 §8.5):
    /// boxed, and absent for an unsigned request, so that a call stays small.
    signature_values: Option<Box<SignatureValues>>,
    stage: Stage,
}

/// The raw `ds:SignatureValue`s of a signed request (XML-DSig §4.3).
struct SignatureValues(Vec<Vec<u8>>);

enum Stage {
    /// Built, not yet polled: the request, or why it could not be encoded.
    Ready(Result<RequestMessage, EncodeError>),
    /// Sent, awaiting the response.
    Sending(Exchange),
    /// The response was read (or the exchange failed).
    Finished,
}

impl Core {
    fn new(client: Client, op: Operation, message: Result<RequestMessage, EncodeError>) -> Self {
        Core {
            addressed: message
                .as_ref()
                .ok()
                .and_then(|m| m.addressed.clone())
                .map(Box::new),
            signature_values: message
                .as_ref()
                .ok()
                .filter(|m| !m.signature_values.is_empty())
                .map(|m| Box::new(SignatureValues(m.signature_values.clone()))),
            client,
            op,
            stage: Stage::Ready(message),
        }
    }

    /// Drives the exchange: sends the request when first polled, then waits for the response.
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Result<HttpResponse, Error>> {
        loop {
            match std::mem::replace(&mut self.stage, Stage::Finished) {
                Stage::Ready(message) => {
                    self.stage = Stage::Sending(exchange(self.client.clone(), self.op, message));
                }
                Stage::Sending(mut exchange) => {
                    let out = exchange.as_mut().poll(cx);
                    if out.is_pending() {
                        self.stage = Stage::Sending(exchange);
                    }
                    return out;
                }
                Stage::Finished => return Poll::Ready(Err(done_error())),
            }
        }
    }

    /// Runs the exchange to completion on `runtime`.
    #[cfg(feature = "blocking")]
    fn wait(&mut self, runtime: &crate::blocking::BlockingRuntime) -> Result<HttpResponse, Error> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Ready(message) => runtime.run(
                self.client.endpoint(),
                exchange(self.client.clone(), self.op, message),
            ),
            Stage::Sending(exchange) => runtime.run(self.client.endpoint(), exchange),
            Stage::Finished => Err(done_error()),
        }
    }

    /// Reads the result from `resp`; with `kept`, the response's header blocks go there.
    fn finish<T>(
        &self,
        resp: &HttpResponse,
        kept: Option<&mut Vec<ResponseHeader>>,
        shape: &ResponseShape,
        decode: Decoder<T>,
    ) -> Result<T, Error> {
        finish(
            &self.client,
            &self.op,
            resp,
            Sent {
                addressed: self.addressed.as_deref(),
                signature_values: self
                    .signature_values
                    .as_deref()
                    .map_or(&[][..], |s| &s.0[..]),
            },
            kept,
            shape,
            decode,
        )
    }
}

impl<T, E> std::fmt::Debug for Call<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            State::Plain { core, .. } => core.op.name,
            State::Boxed(..) => "(boxed)",
            State::Done => "(done)",
        };
        f.debug_struct("Call").field("operation", &state).finish()
    }
}

impl<T, E> Call<T, E> {
    /// This call, whose reply must carry `action` as its `wsa:Action` when the call is
    /// addressed: the operation's output action (WS-Addressing 1.0 Metadata §4.4: the output's
    /// `wsam:Action`, else the default pattern, `{namespace}/{portType}/{output name}`). A reply
    /// with another action, or none, fails the call with
    /// [`HeaderErrorKind::Action`](crate::header::HeaderErrorKind::Action) unless the client says
    /// [`check_reply_action(false)`](crate::ClientBuilder::check_reply_action). No effect on an
    /// unaddressed call, nor on a call made with [`from_future`](Self::from_future). What
    /// `#[soap_client]` methods of addressed traits return.
    pub fn expect_reply_action(mut self, action: &'static str) -> Self {
        if let State::Plain { core, .. } = &mut self.state {
            if let Some(a) = &mut core.addressed {
                a.reply_action = Some(action.to_owned());
            }
        }
        self
    }

    /// A call whose result comes from `fut` (for results that are more than the Body's content, such
    /// as a result with MIME attachments).
    pub fn from_future(fut: impl Future<Output = Result<T, E>> + Send + 'static) -> Self {
        Call {
            state: State::Boxed(Box::pin(fut), String::new()),
        }
    }

    /// [`from_future`](Self::from_future) for a future that calls `endpoint` (a URL): errors of
    /// the call that do not come from `fut` itself, such as a blocking
    /// [`wait`](Self::wait) refused inside an async runtime, name it.
    pub fn from_future_at(
        endpoint: impl Into<String>,
        fut: impl Future<Output = Result<T, E>> + Send + 'static,
    ) -> Self {
        Call {
            state: State::Boxed(Box::pin(fut), endpoint.into()),
        }
    }
}

impl<T, E: From<Error>> Call<T, E> {
    /// Runs the call to completion on `runtime`, blocking the calling thread (feature
    /// `blocking`): what generated `…BlockingClient`s do. The exchange is driven by one
    /// non-generic function and the result decoded synchronously, so no runtime entry point is
    /// instantiated per operation.
    ///
    /// # Errors
    ///
    /// As the call's `.await`; on a thread where a tokio runtime is current (async code, or a
    /// `spawn_blocking` thread), [`Error::Transport`] of kind
    /// [`BlockingInAsync`](crate::error::TransportErrorKind::BlockingInAsync) naming the
    /// endpoint, and nothing is sent (see [`BlockingRuntime::check`](crate::blocking::BlockingRuntime::check)).
    #[cfg(feature = "blocking")]
    pub fn wait(self, runtime: &crate::blocking::BlockingRuntime) -> Result<T, E> {
        match self.state {
            State::Plain {
                mut core,
                shape,
                decode,
            } => {
                let resp = core.wait(runtime)?;
                core.finish(&resp, None, shape, decode).map_err(E::from)
            }
            State::Boxed(fut, endpoint) => {
                // Driven through the one `()` future type, so that the runtime's entry point is
                // not instantiated per result type.
                let mut out = None;
                runtime.run_local(
                    &endpoint,
                    Box::pin(async {
                        out = Some(fut.await);
                    }),
                )?;
                out.unwrap_or_else(|| Err(E::from(done_error())))
            }
            State::Done => Err(E::from(done_error())),
        }
    }
}

fn boxed_error() -> Error {
    Error::Encode(EncodeError {
        message: "with_response is not available for an operation whose result has MIME \
                  attachments (its call is sent by Client::call_with_attachments)"
            .to_owned(),
    })
}

/// The exchange, boxed once: the future type is the same for every operation.
fn exchange(
    client: Client,
    op: Operation,
    message: Result<RequestMessage, EncodeError>,
) -> Exchange {
    Box::pin(async move {
        let message = message?;
        client.exchange(&op, message).await
    })
}

fn done_error() -> Error {
    Error::Transport(crate::error::TransportError::new(
        crate::error::TransportErrorKind::Other,
        "",
        "this call already completed: a Call yields its result once (make a new call to send again)",
        None,
    ))
}

impl<T, E: From<Error>> Future for Call<T, E> {
    type Output = Result<T, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // `State` is `Unpin` (every field is, and `T`/`E` are not stored), so `Call` is too.
        let this = self.get_mut();
        match &mut this.state {
            State::Plain {
                core,
                shape,
                decode,
            } => {
                let out = match core.poll(cx) {
                    Poll::Pending => return Poll::Pending,
                    Poll::Ready(Err(e)) => Err(e),
                    Poll::Ready(Ok(resp)) => core.finish(&resp, None, shape, *decode),
                };
                this.state = State::Done;
                Poll::Ready(out.map_err(E::from))
            }
            State::Boxed(fut, _) => {
                let out = fut.as_mut().poll(cx);
                if out.is_ready() {
                    this.state = State::Done;
                }
                out
            }
            State::Done => Poll::Ready(Err(E::from(done_error()))),
        }
    }
}

impl<T, E> Call<T, E> {
    /// This call, yielding with its result the response's SOAP header blocks (every one: those
    /// the WSDL declares read typed with [`ResponseHeaders::get`](crate::header::ResponseHeaders::get),
    /// the others as XML), its HTTP status and its HTTP header fields. `mustUnderstand` is
    /// enforced as for the plain call: name the blocks the caller processes with
    /// [`ClientBuilder::understood_header`](crate::ClientBuilder::understood_header).
    ///
    /// # Errors
    ///
    /// As the call's `.await`; an operation whose result has MIME attachments
    /// (`response_attachment`) is refused with [`Error::Encode`] before anything is sent.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run(call: soapgen_runtime::Call<i32>) -> Result<(), soapgen_runtime::Error> {
    /// use soapgen_runtime::xml::Name;
    /// let resp = call.with_response().await?;
    /// let session: Option<String> = resp.headers.get(Name::new("urn:example:ctx", "Session"))?;
    /// println!("{} {:?} {:?}", resp.value, session, resp.http_header("server"));
    /// # Ok(()) }
    /// ```
    pub fn with_response(self) -> WithResponse<T, E> {
        WithResponse { state: self.state }
    }
}

/// A [`Call`] that yields a [`Response`]: the typed result with the response's SOAP headers and
/// HTTP status and header fields. Made by [`Call::with_response`].
#[must_use = "a call does nothing until awaited"]
pub struct WithResponse<T, E = Error> {
    state: State<T, E>,
}

impl<T, E> std::fmt::Debug for WithResponse<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WithResponse").finish_non_exhaustive()
    }
}

/// The result with what came with it.
fn response<T>(
    core: &Core,
    resp: HttpResponse,
    shape: &ResponseShape,
    decode: Decoder<T>,
) -> Result<Response<T>, Error> {
    let mut kept = Vec::new();
    let value = core.finish(&resp, Some(&mut kept), shape, decode)?;
    Ok(Response {
        value,
        headers: ResponseHeaders::from(kept),
        status: resp.status,
        http_headers: resp.headers,
    })
}

impl<T, E: From<Error>> Future for WithResponse<T, E> {
    type Output = Result<Response<T>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        let out = match &mut this.state {
            State::Plain {
                core,
                shape,
                decode,
            } => match core.poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => Err(e),
                Poll::Ready(Ok(resp)) => response(core, resp, shape, *decode),
            },
            // Not sent: its result would be lost.
            State::Boxed(..) => Err(boxed_error()),
            State::Done => Err(done_error()),
        };
        this.state = State::Done;
        Poll::Ready(out.map_err(E::from))
    }
}

impl<T, E: From<Error>> WithResponse<T, E> {
    /// Runs the call to completion on `runtime`, blocking the calling thread (feature
    /// `blocking`), as [`Call::wait`].
    ///
    /// # Errors
    ///
    /// As the call's `.await`, and as [`Call::wait`] on a thread where a tokio runtime is
    /// current.
    #[cfg(feature = "blocking")]
    pub fn wait(self, runtime: &crate::blocking::BlockingRuntime) -> Result<Response<T>, E> {
        match self.state {
            State::Plain {
                mut core,
                shape,
                decode,
            } => {
                let resp = core.wait(runtime)?;
                response(&core, resp, shape, decode).map_err(E::from)
            }
            State::Boxed(..) => Err(E::from(boxed_error())),
            State::Done => Err(E::from(done_error())),
        }
    }
}

/// The response read: the only code of the call path that depends on `T`, a shim over
/// [`read_result`].
fn finish<T>(
    client: &Client,
    op: &Operation,
    resp: &HttpResponse,
    sent: Sent<'_>,
    kept: Option<&mut Vec<ResponseHeader>>,
    shape: &ResponseShape,
    decode: Decoder<T>,
) -> Result<T, Error> {
    let mut value = None;
    read_result(client, op, resp, sent, kept, &mut |child| {
        value = Some(decode(child, shape)?);
        Ok(())
    })?;
    value.ok_or_else(done_error)
}

/// What `read` gets: the Body's child, or `None` for an empty Body or a one-way acknowledgement.
type ResultReader<'d> =
    dyn for<'i> FnMut(Option<(&mut XmlReader<'i>, StartTag<'i>)>) -> Result<(), DecodeError> + 'd;

/// Reads the response to `op` and hands its Body's child (or `None` for a one-way operation's
/// empty acknowledgement, WSDL 1.1 §2.4.1) to `read`. Not generic. `sent` is what the request
/// carried (its addressing and SignatureValues).
fn read_result(
    client: &Client,
    op: &Operation,
    resp: &HttpResponse,
    sent: Sent<'_>,
    kept: Option<&mut Vec<ResponseHeader>>,
    read: &mut ResultReader<'_>,
) -> Result<(), Error> {
    if op.one_way
        && (200..300).contains(&resp.status)
        && resp.body.iter().all(u8::is_ascii_whitespace)
    {
        return read(None).map_err(|e| Error::Decode(Box::new(e)));
    }
    let (content, _) =
        client.decode_response(resp, Some(op.version), sent, kept, &mut |r, start| {
            read(Some((r, start)))
        })?;
    match content {
        BodyContent::Payload(()) => Ok(()),
        BodyContent::Empty if op.one_way => read(None).map_err(|e| Error::Decode(Box::new(e))),
        BodyContent::Empty => Err(Error::Decode(Box::new(DecodeError::new(
            DecodeErrorKind::MissingElement(format!("response element of {}", op.name)),
            Location {
                path: "Body".to_owned(),
                ..Default::default()
            },
        )))),
    }
}

impl Client {
    /// Starts the call of `op` with the encoded request `message` (or the error that stopped its
    /// encoding, reported when the call is awaited): the response is read as `shape` lays it out,
    /// by `decode` (one of the [`result`] markers' `read`). What generated client methods return.
    pub fn send<T, E>(
        &self,
        op: Operation,
        message: Result<RequestMessage, EncodeError>,
        shape: &'static ResponseShape,
        decode: Decoder<T>,
    ) -> Call<T, E> {
        Call {
            state: State::Plain {
                core: Core::new(self.clone(), op, message),
                shape,
                decode,
            },
        }
    }
}

/// How a result is read, one marker per occurrence of the result element (XML Schema Part 1
/// §3.9.1 minOccurs/maxOccurs, §3.3.1 nillable). `#[soap_client]` picks the marker from the result
/// type; each `read` is a [`Decoder`].
pub mod result {
    use super::*;
    use crate::types::Nillable as Nil;
    use crate::xml::FromXml;

    /// The element names of a shape that has a wrapper: (wrapper, result, min).
    fn wrapped<'i>(
        r: &XmlReader<'i>,
        start: &StartTag<'i>,
        shape: &ResponseShape,
    ) -> Result<(Name<'static>, u64), DecodeError> {
        match *shape {
            ResponseShape::Wrapped {
                wrapper,
                result,
                min,
                rpc,
            } if rpc || r.matches(start, wrapper) => Ok((result, min)),
            ResponseShape::Encoded { result, .. } => Ok((result, 0)),
            _ => Err(r.unexpected(start)),
        }
    }

    /// The "no response element" error of an empty Body where one was expected.
    fn empty(shape: &ResponseShape) -> DecodeError {
        let what = match shape {
            ResponseShape::Element(n) => n.local,
            ResponseShape::Wrapped { wrapper, .. } | ResponseShape::Encoded { wrapper, .. } => {
                wrapper.local
            }
            ResponseShape::OneWay => "",
        };
        DecodeError::new(
            DecodeErrorKind::MissingElement(what.to_owned()),
            Location {
                path: "Body".to_owned(),
                ..Default::default()
            },
        )
    }

    /// A response wrapper read by [`wrapped_children`]: the reader at its end, its start tag,
    /// and the result element's name and minOccurs.
    struct Wrapper<'r, 'i> {
        r: &'r mut XmlReader<'i>,
        start: StartTag<'i>,
        result: Name<'static>,
        min: u64,
    }

    /// Reads a wrapped (or encoded) response's wrapper, `child`: each result element into `slot`
    /// by `accept`, anything else refused (or skipped by a lenient reader).
    fn wrapped_children<'r, 'i, S>(
        child: Option<(&'r mut XmlReader<'i>, StartTag<'i>)>,
        shape: &ResponseShape,
        slot: &mut S,
        accept: fn(&mut S, &mut XmlReader<'i>, StartTag<'i>) -> Result<(), DecodeError>,
    ) -> Result<Wrapper<'r, 'i>, DecodeError> {
        let Some((r, start)) = child else {
            return Err(empty(shape));
        };
        let (result, min) = wrapped(r, &start, shape)?;
        while let Some(child) = r.next_child()? {
            if r.matches(&child, result) {
                accept(slot, r, child)?;
            } else {
                r.unknown_element(&child)?;
            }
        }
        Ok(Wrapper {
            r,
            start,
            result,
            min,
        })
    }

    /// `()`: a response wrapper with no result ([`ResponseShape::Wrapped`]), or no response at
    /// all ([`ResponseShape::OneWay`]).
    #[derive(Debug)]
    pub struct Unit;

    impl Unit {
        /// The [`Decoder`].
        ///
        /// # Errors
        ///
        /// A wrong or missing wrapper, content in it (unless lenient), a payload for a one-way
        /// operation.
        pub fn read<'i>(
            child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
            shape: &ResponseShape,
        ) -> Result<(), DecodeError> {
            match (child, shape) {
                (None, ResponseShape::OneWay) => Ok(()),
                (None, _) => Err(empty(shape)),
                // WSDL 1.1 §2.4.1 expects no response; some servers still send an (empty)
                // response element with a 200: there is nothing to read in it.
                (Some((r, start)), ResponseShape::OneWay) => {
                    tracing::debug!(
                        element = start.local_name(),
                        "one-way operation answered with a body element: skipped"
                    );
                    r.skip_element()
                }
                (child, _) => {
                    wrapped_children(child, shape, &mut (), |_, r, c| r.unknown_element(&c))?;
                    Ok(())
                }
            }
        }
    }

    /// `T` read whole: the Body's child ([`ResponseShape::Element`]), or the single accessor of an
    /// rpc/encoded wrapper whatever its name ([`ResponseShape::Encoded`], SOAP 1.1 §7.1).
    #[derive(Debug)]
    pub struct Whole<T>(PhantomData<T>);

    impl<T: FromXml> Whole<T> {
        /// The [`Decoder`].
        ///
        /// # Errors
        ///
        /// A wrong element; what `T`'s reader refuses; for an encoded wrapper, no child or more
        /// than one.
        pub fn read<'i>(
            child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
            shape: &ResponseShape,
        ) -> Result<T, DecodeError> {
            let Some((r, start)) = child else {
                return Err(empty(shape));
            };
            match *shape {
                ResponseShape::Element(name) if r.matches(&start, name) => T::read_xml(r, start),
                ResponseShape::Encoded { result, .. } => {
                    let Some(c) = r.next_child()? else {
                        return Err(r.missing(result));
                    };
                    let v = T::read_xml(r, c)?;
                    if let Some(x) = r.next_child()? {
                        return Err(r.unexpected(&x));
                    }
                    Ok(v)
                }
                _ => Err(r.unexpected(&start)),
            }
        }
    }

    /// A result marker of a wrapped response: the marker type, and its `read` (documented by
    /// `$read_doc`), which reads the wrapper's results into the slot `$slot` (first `$init`) by
    /// `$accept` with [`wrapped_children`], then gives `$value` by `$finish`, with the wrapper
    /// read as `$w`.
    macro_rules! wrapped_marker {
        (
            $(#[$doc:meta])* $marker:ident => $value:ty,
            $(#[$read_doc:meta])* read($slot:ident = $init:expr, $accept:expr, |$w:ident| $finish:expr)
        ) => {
            $(#[$doc])*
            #[derive(Debug)]
            pub struct $marker<T>(PhantomData<T>);

            impl<T: FromXml> $marker<T> {
                $(#[$read_doc])*
                pub fn read<'i>(
                    child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
                    shape: &ResponseShape,
                ) -> Result<$value, DecodeError> {
                    let mut $slot = $init;
                    let $w = wrapped_children(child, shape, &mut $slot, $accept)?;
                    $finish
                }
            }
        };
    }

    /// A marker of a result element that occurs at most once: read into the `Option` of `$item`
    /// `$slot` by `$read`, a second one an error, the value given by `$finish`.
    macro_rules! single {
        ($(#[$doc:meta])* $marker:ident, $item:ty => $value:ty, $read:path, |$slot:ident, $w:ident| $finish:expr) => {
            wrapped_marker!(
                $(#[$doc])* $marker => $value,
                /// The [`Decoder`] of a [`ResponseShape::Wrapped`] (or `Encoded`) response.
                ///
                /// # Errors
                ///
                /// A wrong or missing wrapper, a missing, duplicated or nil result where that
                /// is not allowed, unknown children (unless lenient), what `T`'s reader refuses.
                read($slot = None::<$item>,
                |slot, r, c| {
                    if slot.is_some() {
                        return Err(r.duplicate(&c));
                    }
                    *slot = Some($read(r, c)?);
                    Ok(())
                },
                |$w| $finish)
            );
        };
    }

    single!(
        /// `T`: exactly one result element, not nil.
        One, T => T, crate::__private::read_required,
        |slot, w| crate::__private::required(w.r, &w.start, slot, w.result)
    );
    single!(
        /// `Option<T>`: at most one result element, not nillable (nil is an error unless
        /// [`Leniency::nil_on_non_nillable`](crate::xml::Leniency::nil_on_non_nillable)).
        Optional, Option<T> => Option<T>, crate::__private::read_optional,
        |slot, _w| Ok(slot.flatten())
    );
    single!(
        /// `Nillable<T>`: exactly one result element, possibly nil (XML Schema Part 1 §2.6.2).
        Nillable, Nil<T> => Nil<T>, crate::__private::read_nillable,
        |slot, w| crate::__private::required(w.r, &w.start, slot, w.result)
    );
    single!(
        /// `Option<Nillable<T>>`: at most one result element, possibly nil.
        OptionalNillable, Nil<T> => Option<Nil<T>>, crate::__private::read_nillable,
        |slot, _w| Ok(slot)
    );

    /// `OptionalNillable<T>`: at most one result element, possibly nil, in one type (absent, nil
    /// or a value).
    #[derive(Debug)]
    pub struct Tristate<T>(PhantomData<T>);

    impl<T: FromXml> Tristate<T> {
        /// The [`Decoder`] of a [`ResponseShape::Wrapped`] response.
        ///
        /// # Errors
        ///
        /// As [`One::read`].
        pub fn read<'i>(
            child: Option<(&mut XmlReader<'i>, StartTag<'i>)>,
            shape: &ResponseShape,
        ) -> Result<crate::types::OptionalNillable<T>, DecodeError> {
            OptionalNillable::<T>::read(child, shape)
                .map(crate::types::OptionalNillable::from_nillable)
        }
    }

    /// A marker of a repeated result element: every one read by `$read` into a `Vec`, at least
    /// the shape's `min`.
    macro_rules! many {
        ($(#[$doc:meta])* $marker:ident, $item:ty, $read:path) => {
            wrapped_marker!(
                $(#[$doc])* $marker => Vec<$item>,
                /// The [`Decoder`] of a [`ResponseShape::Wrapped`] response: every result element,
                /// at least the shape's `min`.
                ///
                /// # Errors
                ///
                /// A wrong or missing wrapper, fewer than `min` results
                /// ([`DecodeErrorKind::TooFewElements`]), unknown children (unless lenient), what
                /// `T`'s reader refuses.
                read(slot = Vec::<$item>::new(),
                |slot, r, c| {
                    slot.push($read(r, c)?);
                    Ok(())
                },
                |w| crate::__private::min_occurs(w.r, &w.start, slot, w.min, w.result))
            );
        };
    }

    many!(
        /// `Vec<T>`: the repeated result element (none is an empty `Vec` unless `min` says otherwise).
        Many, T, crate::__private::read_required
    );
    many!(
        /// `Vec<Nillable<T>>`: the repeated result element, each possibly nil.
        ManyNillable, Nil<T>, crate::__private::read_nillable
    );
}
