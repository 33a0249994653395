//! A call in flight ([`Call`], [`WithResponse`]): the request, encoded when the call was made,
//! sent when it is first polled by one non-generic exchange, and its response read by a decoder
//! generic over the result type only (WSDL 1.1 §2.4 request-response and one-way operations,
//! SOAP 1.1 §6 and SOAP 1.2 Part 2 §7 HTTP binding). The hand-written calls of [`Client`] take
//! the same path.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::exchange::Exchanged;
use super::{Client, Decoder, ResponseContext, ResponseShape};
use crate::error::{DecodeError, DecodeErrorKind, EncodeError, Error, Location};
use crate::header::{Response, ResponseHeader, ResponseHeaders};
use crate::message::{Operation, Request};
use crate::mime::Attachments;
use crate::xml::{StartTag, XmlReader};

/// The exchange of a call in flight: the request sent and the response read in full.
type Exchange = Pin<Box<dyn Future<Output = Result<Exchanged, Error>> + Send>>;

/// A SOAP call in flight, returned by the methods of generated clients: a [`Future`] of the
/// operation's result `T` or the method's error `E` (soapgen's [`Error`], or a type converting from
/// it such as [`FaultError`](crate::FaultError)). The request was encoded when the call was made; it
/// is put in an envelope and sent when the call is first polled (or [`wait`](Self::wait)ed on).
/// Owns what it needs (`'static`): it can be spawned.
#[must_use = "a Call does nothing until awaited"]
pub struct Call<T, E = Error> {
    state: State<T>,
    error: PhantomData<fn() -> E>,
}

// `Done` is the moment after the response is taken: boxing `Pending` to shrink it would cost
// every call an allocation and save nothing (a `Call` is `Pending` for all its life).
#[allow(clippy::large_enum_variant)]
enum State<T> {
    /// Built or sent: the exchange (not generic) and how the result is read.
    Pending {
        core: Core,
        shape: &'static ResponseShape,
        decode: Decoder<T>,
    },
    Done,
}

/// What a call needs to exchange its request for a response: nothing in it depends on the result
/// type, so the state machine that drives it is compiled once.
struct Core {
    client: Client,
    op: Operation,
    stage: Stage,
}

enum Stage {
    /// Built, not yet polled: the request, or why it could not be encoded.
    Ready(Result<Request, EncodeError>),
    /// Sent, awaiting the response.
    Sending(Exchange),
    /// The response was read (or the exchange failed).
    Finished,
}

impl Core {
    /// Drives the exchange: sends the request when first polled, then waits for the response.
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Result<Exchanged, Error>> {
        loop {
            match std::mem::replace(&mut self.stage, Stage::Finished) {
                Stage::Ready(request) => {
                    self.stage = Stage::Sending(exchange(self.client.clone(), self.op, request));
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
    fn wait(&mut self, runtime: &crate::blocking::BlockingRuntime) -> Result<Exchanged, Error> {
        match std::mem::replace(&mut self.stage, Stage::Finished) {
            Stage::Ready(request) => runtime.run(
                self.client.endpoint(),
                exchange(self.client.clone(), self.op, request),
            ),
            Stage::Sending(exchange) => runtime.run(self.client.endpoint(), exchange),
            Stage::Finished => Err(done_error()),
        }
    }

    /// Reads the result from `exchanged`; with `kept`, the response's header blocks go there.
    fn finish<T>(
        &self,
        exchanged: &mut Exchanged,
        kept: Option<&mut Vec<ResponseHeader>>,
        shape: &ResponseShape,
        decode: Decoder<T>,
    ) -> Result<T, Error> {
        let op = &self.op;
        let mut value = None;
        self.client
            .read_result(op, exchanged, kept, &mut |child, attachments| {
                let cx = ResponseContext {
                    shape,
                    attachments,
                    operation: op,
                };
                value = Some(decode(child, &cx)?);
                Ok(())
            })?;
        value.ok_or_else(done_error)
    }

    /// The result alone.
    fn result<T>(
        &self,
        mut exchanged: Exchanged,
        shape: &ResponseShape,
        decode: Decoder<T>,
    ) -> Result<T, Error> {
        self.finish(&mut exchanged, None, shape, decode)
    }

    /// The result with what came with it.
    fn response<T>(
        &self,
        mut exchanged: Exchanged,
        shape: &ResponseShape,
        decode: Decoder<T>,
    ) -> Result<Response<T>, Error> {
        let mut kept = Vec::new();
        let value = self.finish(&mut exchanged, Some(&mut kept), shape, decode)?;
        Ok(Response {
            value,
            headers: ResponseHeaders::from(kept),
            status: exchanged.response.status,
            http_headers: exchanged.response.headers,
        })
    }
}

/// How a finished exchange becomes a call's output: [`Core::result`] or [`Core::response`].
type Read<T, R> = fn(&Core, Exchanged, &'static ResponseShape, Decoder<T>) -> Result<R, Error>;

impl<T> State<T> {
    /// Drives the exchange; once it is over, reads its output with `read` and is done.
    fn poll_read<R>(&mut self, cx: &mut Context<'_>, read: Read<T, R>) -> Poll<Result<R, Error>> {
        let out = match self {
            State::Pending {
                core,
                shape,
                decode,
            } => match core.poll(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Err(e)) => Err(e),
                Poll::Ready(Ok(exchanged)) => read(core, exchanged, shape, *decode),
            },
            State::Done => Err(done_error()),
        };
        *self = State::Done;
        Poll::Ready(out)
    }

    /// Runs the exchange to its end on `runtime`, then reads its output with `read`.
    #[cfg(feature = "blocking")]
    fn wait_read<R>(
        self,
        runtime: &crate::blocking::BlockingRuntime,
        read: Read<T, R>,
    ) -> Result<R, Error> {
        match self {
            State::Pending {
                mut core,
                shape,
                decode,
            } => {
                let exchanged = core.wait(runtime)?;
                read(&core, exchanged, shape, decode)
            }
            State::Done => Err(done_error()),
        }
    }
}

/// The exchange, boxed once: the future type is the same for every operation.
fn exchange(client: Client, op: Operation, request: Result<Request, EncodeError>) -> Exchange {
    Box::pin(async move {
        let request = request?;
        client.exchange(&op, request).await
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

impl<T, E> std::fmt::Debug for Call<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match &self.state {
            State::Pending { core, .. } => core.op.name,
            State::Done => "(done)",
        };
        f.debug_struct("Call").field("operation", &state).finish()
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
        self.state.wait_read(runtime, Core::result).map_err(E::from)
    }
}

impl<T, E: From<Error>> Future for Call<T, E> {
    type Output = Result<T, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // `State` is `Unpin` (every field is, and `T` is not stored), so `Call` is too.
        let this = self.get_mut();
        this.state
            .poll_read(cx, Core::result)
            .map(|out| out.map_err(E::from))
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
    /// As the call's `.await`.
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
        WithResponse {
            state: self.state,
            error: PhantomData,
        }
    }
}

/// A [`Call`] that yields a [`Response`]: the typed result with the response's SOAP headers and
/// HTTP status and header fields. Made by [`Call::with_response`].
#[must_use = "a call does nothing until awaited"]
pub struct WithResponse<T, E = Error> {
    state: State<T>,
    error: PhantomData<fn() -> E>,
}

impl<T, E> std::fmt::Debug for WithResponse<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WithResponse").finish_non_exhaustive()
    }
}

impl<T, E: From<Error>> Future for WithResponse<T, E> {
    type Output = Result<Response<T>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.get_mut();
        this.state
            .poll_read(cx, Core::response)
            .map(|out| out.map_err(E::from))
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
        self.state
            .wait_read(runtime, Core::response)
            .map_err(E::from)
    }
}

/// Starts the call of `op` on `client` with the encoded `request` (or the error that stopped its
/// encoding, reported when the call is awaited): the response is read as `shape` lays it out, by
/// `decode`. What generated client methods return.
pub fn send<T, E>(
    client: &Client,
    op: Operation,
    request: Result<Request, EncodeError>,
    shape: &'static ResponseShape,
    decode: Decoder<T>,
) -> Call<T, E> {
    Call {
        state: State::Pending {
            core: Core {
                client: client.clone(),
                op,
                stage: Stage::Ready(request),
            },
            shape,
            decode,
        },
        error: PhantomData,
    }
}

impl Client {
    /// Sends `request` for `op` and decodes the response body's single child with `decode`: a
    /// hand-written call, on the path every call takes.
    ///
    /// A response whose body holds a SOAP fault is [`Error::Fault`], whatever its HTTP status (SOAP
    /// 1.1 §6.2 uses 500, SOAP 1.2 Part 2 §7.5.2.2 uses 400 or 500); a response that is not a SOAP
    /// envelope (an HTML error page, an empty body) is [`Error::Http`] with status and an excerpt.
    ///
    /// # Errors
    ///
    /// Every variant of [`Error`]; see there.
    pub async fn call<T>(
        &self,
        op: &Operation,
        request: Request,
        decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<T, Error> {
        self.call_with_attachments(op, request, decode)
            .await
            .map(|(v, _)| v)
    }

    /// As [`call`](Self::call), also returning the response's attachments: the parts of a
    /// `multipart/related` response other than its root (none for a plain SOAP response), for the
    /// message parts a WSDL 1.1 §5 MIME binding binds to `mime:content` (find them with
    /// [`Attachments::find_part`]). The parts are slices of the response body: nothing is copied.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub async fn call_with_attachments<T>(
        &self,
        op: &Operation,
        request: Request,
        decode: impl for<'i> FnOnce(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>,
    ) -> Result<(T, Attachments), Error> {
        let mut exchanged = self.exchange(op, request).await?;
        let mut decode = Some(decode);
        let mut value = None;
        let attachments = self.read_result(op, &mut exchanged, None, &mut |child, _| {
            match (child, decode.take()) {
                (Some((r, start)), Some(f)) => value = Some(f(r, start)?),
                (Some((r, start)), None) => return Err(r.unexpected(&start)),
                (None, _) => {}
            }
            Ok(())
        })?;
        match value {
            Some(v) => Ok((v, attachments)),
            None => Err(Error::Decode(Box::new(DecodeError::new(
                DecodeErrorKind::MissingElement(format!("response element of {}", op.name)),
                Location {
                    path: "Body".to_owned(),
                    ..Default::default()
                },
            )))),
        }
    }

    /// Sends `request` for a one-way operation (WSDL 1.1 §2.4.1): success is any 2xx with an
    /// empty body or an envelope with an empty `Body` (a payload is skipped); a fault is still
    /// reported.
    ///
    /// # Errors
    ///
    /// As [`call`](Self::call).
    pub async fn call_one_way(&self, op: &Operation, request: Request) -> Result<(), Error> {
        send::<(), Error>(
            self,
            op.one_way(),
            Ok(request),
            &ResponseShape::OneWay,
            super::result::Unit::read,
        )
        .await
    }
}
