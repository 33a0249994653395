//! Streamed responses: a call whose result is a long run of one repeated element (a report's
//! rows, a search's hits) read item by item as the body arrives, in memory bounded by one window
//! of the body and the longest item, whatever the response's size ([`ItemStream`]).
//!
//! The response is read in three steps. The start of the envelope, up to the response wrapper's
//! start tag (WSDL 1.1 §3.5: the operation's response element of a document/literal wrapped or
//! rpc/literal binding), is read as a whole message with the closing tags added, so that
//! everything a buffered call checks is checked the same way: the HTTP status, the envelope, the
//! header blocks offered to the message layers and `mustUnderstand` (SOAP 1.1 §4.2.3, SOAP 1.2
//! Part 1 §5.2.3). Then the wrapper's children are read a window at a time, each result element
//! decoded as soon as it is whole, by the same reader and limits as a buffered call's, inside the
//! namespace declarations in scope at the wrapper. Last, what follows the wrapper must close the
//! `Body` and the `Envelope`.
//!
//! A response that cannot be read this way is read whole and its items handed out from memory,
//! bounded by [`ClientBuilder::max_response_bytes`](crate::ClientBuilder::max_response_bytes) as
//! any call: a fault (with a 2xx or an error status), a response that is not a SOAP envelope, a
//! `multipart/related` one (MTOM/XOP, SwA), a body in a character encoding other than UTF-8, and
//! a response a message layer checks as a whole (WS-Security's signatures and encryption cover the
//! Body, WSS 1.1 §8).

use std::collections::VecDeque;
use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use futures_core::Stream;

use super::{Client, Decoder, ResponseContext, ResponseShape};
use crate::error::{DecodeError, EncodeError, Error};
use crate::header::ResponseHeaders;
use crate::message::{Operation, Request};
use crate::xml::{StartTag, XmlReader};

/// Reads one result element of a streamed response, `start` just read, through its end tag: the
/// item's reader of generated code (`read_required::<T>`, `read_nillable::<T>`).
pub type ItemDecoder<T> = for<'i> fn(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>;

/// The most items decoded ahead of the caller.
const MAX_QUEUED: usize = 1024;

/// The items of a streamed response, decoded as the body arrives: a [`Stream`] of `Result<T,
/// E>` (and [`next`](Self::next) for a `while let` loop without a stream library), ending after
/// the last item with `None`. What a generated client's `…_stream` method gives (after the call's
/// `.await`): the call has then been answered, and the start of the response (status, envelope,
/// header blocks) checked.
///
/// An error ends the stream: the items before it are handed out first. Errors are the call's:
/// [`Error::Decode`] located in the whole body (byte offset, line, column, and the element path,
/// `Body/GetReportResponse/row/amount`), [`Error::Transport`] for a connection lost, reset or
/// idle past the client's [`timeout`](crate::ClientBuilder::timeout) between two chunks
/// ([`TransportErrorKind::Timeout`](crate::error::TransportErrorKind::Timeout)), or an item longer than
/// [`max_response_bytes`](crate::ClientBuilder::max_response_bytes)
/// ([`TransportErrorKind::TooLarge`](crate::error::TransportErrorKind::TooLarge)). A result element that occurs fewer times than its
/// `minOccurs` is [`DecodeErrorKind::TooFewElements`](crate::error::DecodeErrorKind::TooFewElements) at the end (XML Schema Part 1 §3.9.1).
///
/// Memory: one window of the body (256 KiB), the longest item, and up to 1,024 decoded items not
/// yet taken; [`max_response_bytes`](crate::ClientBuilder::max_response_bytes) bounds an item,
/// not the response. A response that must be read whole (see the module's documentation: a
/// fault, MTOM, WS-Security, a non-UTF-8 body) is bounded by it as a buffered call is.
///
/// # Examples
///
/// ```
/// # async fn f() -> Result<(), soapgen_runtime::Error> {
/// // What a generated client's `get_report_stream(query).await?` gives, here made of two rows.
/// let mut rows = soapgen_runtime::ItemStream::<String>::from_items(["a".to_owned(), "b".to_owned()]);
/// while let Some(row) = rows.next().await {
///     let row = row?;
///     println!("{row}");
/// }
/// # Ok(()) }
/// ```
#[must_use = "an ItemStream yields nothing unless polled"]
pub struct ItemStream<T, E = Error> {
    core: Core,
    decode: ItemDecoder<T>,
    queue: VecDeque<T>,
    error: PhantomData<fn() -> E>,
}

impl<T, E> std::fmt::Debug for ItemStream<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ItemStream")
            .field("items", &self.core.count)
            .field("queued", &self.queue.len())
            .field("offset", &(self.core.abs + self.core.start as u64))
            .finish_non_exhaustive()
    }
}

/// How a batch of items ended.
enum Batch {
    /// The queue is full.
    Queued,
    /// The wrapper's end tag was read.
    End,
    /// Reading failed at the token that starts at the offset: the window's end cut it, or the
    /// response is wrong there.
    Failed(usize, DecodeError),
}

impl<T, E: From<Error>> ItemStream<T, E> {
    /// The next item, or `None` after the last (or after an error).
    ///
    /// # Errors
    ///
    /// See [`ItemStream`]; after an error the stream ends.
    pub async fn next(&mut self) -> Option<Result<T, E>> {
        std::future::poll_fn(|cx| self.poll_item(cx)).await
    }

    /// A stream of `items`, already read: what a fake service's streamed method returns
    /// ([`testing`](crate::testing)), or a test's stand-in for a call.
    pub fn from_items(items: impl IntoIterator<Item = T>) -> Self {
        let queue: VecDeque<T> = items.into_iter().collect();
        let mut core = Core::new(
            Box::pin(
                crate::transport::StreamingResponse::whole(crate::transport::HttpResponse {
                    status: 200,
                    headers: Vec::new(),
                    body: Bytes::new(),
                })
                .body,
            ),
            None,
            200,
            Vec::new(),
        );
        core.count = queue.len() as u64;
        core.phase = Phase::Ended;
        ItemStream {
            core,
            decode: |r, start| Err(r.unexpected(&start)),
            queue,
            error: PhantomData,
        }
    }

    /// How many items were read so far (handed out or queued).
    pub fn items_read(&self) -> u64 {
        self.core.count
    }

    /// The response's SOAP header blocks (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2), read before the
    /// first item.
    pub fn headers(&self) -> &ResponseHeaders {
        &self.core.headers
    }

    /// The response's HTTP status.
    pub fn status(&self) -> u16 {
        self.core.status
    }

    /// The response's HTTP header fields (names lowercase).
    pub fn http_headers(&self) -> &[(String, String)] {
        &self.core.http_headers
    }

    fn poll_item(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<T, E>>> {
        loop {
            if let Some(v) = self.queue.pop_front() {
                return Poll::Ready(Some(Ok(v)));
            }
            if let Some(e) = self.core.failed.take() {
                self.core.phase = Phase::Ended;
                return Poll::Ready(Some(Err(E::from(e))));
            }
            match self.core.phase {
                Phase::Ended => return Poll::Ready(None),
                Phase::Items if self.core.wants_more() => match self.core.poll_fill(cx) {
                    Poll::Ready(Ok(())) => {}
                    // Cut short: the items before the cut are read first.
                    Poll::Ready(Err(e)) => self.core.cut = Some(self.core.cut_at(e)),
                    Poll::Pending => {
                        // While the next bytes are on their way, the items already here
                        // (once a tag ended since the last try: nothing can end without one).
                        let core = &self.core;
                        let new = core.tried.saturating_sub(core.abs) as usize;
                        let new = &core.buf[new.max(core.start).min(core.buf.len())..];
                        if memchr::memchr(b'>', new).is_some() {
                            self.batch();
                            if !self.queue.is_empty() || self.core.failed.is_some() {
                                continue;
                            }
                        }
                        return Poll::Pending;
                    }
                },
                Phase::Items => self.batch(),
                Phase::Tail if !self.core.all_read() => {
                    // What follows the items is read whole (it closes two elements).
                    self.core.need = usize::MAX;
                    let unread = self.core.buf.len() - self.core.start;
                    if unread > self.core.cap.min(64 * 1024) {
                        self.core.body = None;
                    } else if let Err(e) = std::task::ready!(self.core.poll_fill(cx)) {
                        self.core.cut = Some(self.core.cut_at(e));
                    }
                }
                Phase::Tail => {
                    if let Err(e) = self.core.tail() {
                        self.core.failed = Some(self.core.or_cut(e));
                    }
                    self.core.phase = Phase::Ended;
                }
            }
        }
    }

    /// Decodes the items the window holds whole into the queue.
    fn batch(&mut self) {
        let core = &mut self.core;
        core.tried = core.abs + core.buf.len() as u64;
        let (outcome, read, items) = {
            let window = core.window();
            let mut r = XmlReader::inside(window, &core.open, &core.bindings, core.limits);
            let expected = [(core.item.namespace, core.item.local)];
            let mut read = 0;
            let mut items = 0u64;
            let outcome = loop {
                let before = r.position();
                let next = match r.next_child() {
                    Ok(Some(tag)) if tag.is(core.item) => (self.decode)(&mut r, tag).map(|v| {
                        self.queue.push_back(v);
                        items += 1;
                    }),
                    Ok(Some(tag)) => r.unknown_element_in(&tag, &expected),
                    Ok(None) => {
                        read = r.position();
                        break Batch::End;
                    }
                    Err(e) => Err(e),
                };
                match next {
                    Ok(()) => read = r.position(),
                    Err(e) => break Batch::Failed(before, e),
                }
                if self.queue.len() >= MAX_QUEUED {
                    break Batch::Queued;
                }
            };
            (outcome, read, items)
        };
        core.count += items;
        match outcome {
            Batch::Queued => {
                core.consume(read);
                core.need = core.window_size();
            }
            Batch::End => {
                core.consume(read);
                core.phase = Phase::Tail;
            }
            Batch::Failed(at, e) => {
                let complete = core.all_read() || ends_within(&core.window()[at..]);
                if complete {
                    // The response is wrong there (or ends there).
                    let e = if core.bad_utf8 && !ends_within(&core.window()[at..]) {
                        core.utf8_error()
                    } else {
                        core.locate(e)
                    };
                    core.consume(read);
                    core.failed = Some(core.or_cut(e));
                    core.body = None;
                    return;
                }
                core.consume(read);
                let have = core.buf.len() - core.start;
                let grown = if read > 0 {
                    core.need = core.window_size();
                    Ok(())
                } else {
                    core.grow(have)
                };
                if let Err(e) = grown {
                    core.failed = Some(e);
                    core.body = None;
                }
            }
        }
    }
}

impl<T, E: From<Error>> Stream for ItemStream<T, E> {
    type Item = Result<T, E>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        // Nothing in an ItemStream is pinned: its body stream and timer are boxed.
        self.get_mut().poll_item(cx)
    }
}

impl<T, E> Unpin for ItemStream<T, E> {}

/// A streamed call in flight, returned by a generated client's `…_stream` methods: a [`Future`]
/// of the [`ItemStream`] of its result elements, ready once the response's start was read and
/// checked (see [`ItemStream`]), or of the call's error `E` ([`Error`], or a type converting from
/// it). Owns what it needs (`'static`): it can be spawned.
#[must_use = "a StreamCall does nothing until awaited"]
pub struct StreamCall<T, E = Error> {
    fut: Opening<T, E>,
}

/// The start of a streamed call: sent, and the response's start read.
type Opening<T, E> = Pin<Box<dyn Future<Output = Result<ItemStream<T, E>, Error>> + Send>>;

impl<T, E> std::fmt::Debug for StreamCall<T, E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StreamCall").finish_non_exhaustive()
    }
}

impl<T, E: From<Error>> Future for StreamCall<T, E> {
    type Output = Result<ItemStream<T, E>, E>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.fut.as_mut().poll(cx).map_err(E::from)
    }
}

impl<T: Send + 'static, E: From<Error>> StreamCall<T, E> {
    /// Runs the call up to its first item on `runtime`, blocking the calling thread (feature
    /// `blocking`): what generated `…BlockingClient`s do. The items are then read, blocking, by
    /// the [`BlockingItems`] iterator.
    ///
    /// # Errors
    ///
    /// As the call's `.await`; on a thread where a tokio runtime is current,
    /// [`TransportErrorKind::BlockingInAsync`](crate::error::TransportErrorKind::BlockingInAsync) and nothing is sent.
    #[cfg(feature = "blocking")]
    pub fn wait(
        self,
        runtime: &crate::blocking::BlockingRuntime,
    ) -> Result<BlockingItems<T, E>, E> {
        let endpoint = String::new();
        let stream = runtime.run(&endpoint, self.fut).map_err(E::from)?;
        Ok(BlockingItems {
            stream,
            runtime: runtime.clone(),
        })
    }
}

/// The items of a streamed response for a blocking client: an [`Iterator`] of `Result<T, E>`
/// that reads the body as it is iterated (see [`ItemStream`]; feature `blocking`).
#[cfg(feature = "blocking")]
#[derive(Debug)]
pub struct BlockingItems<T, E = Error> {
    stream: ItemStream<T, E>,
    runtime: crate::blocking::BlockingRuntime,
}

#[cfg(feature = "blocking")]
impl<T, E: From<Error>> BlockingItems<T, E> {
    /// The stream underneath, for its response's header blocks, status and counts.
    pub fn stream(&self) -> &ItemStream<T, E> {
        &self.stream
    }
}

#[cfg(feature = "blocking")]
impl<T, E: From<Error>> Iterator for BlockingItems<T, E> {
    type Item = Result<T, E>;

    fn next(&mut self) -> Option<Self::Item> {
        self.runtime.block_on(self.stream.next())
    }
}

/// Starts the streamed call of `op` on `client` with the encoded `request`: the result elements
/// of a response laid out as `shape` (a [`ResponseShape::Wrapped`] response: the wrapper's
/// repeated result element), each read by `item`; `whole` reads them all from a response that
/// must be read whole (see the module's documentation). What generated `…_stream` methods
/// return.
pub fn send_stream<T: Send + 'static, E>(
    client: &Client,
    op: Operation,
    request: Result<Request, EncodeError>,
    shape: &'static ResponseShape,
    whole: Decoder<Vec<T>>,
    item: ItemDecoder<T>,
) -> StreamCall<T, E> {
    let client = client.clone();
    StreamCall {
        fut: Box::pin(async move {
            let request = request?;
            let exchanged = client.exchange_as(&op, request, true).await?;
            match client.open_stream(&op, exchanged, shape).await? {
                Opened::Items(core) => Ok(ItemStream {
                    core: *core,
                    decode: item,
                    queue: VecDeque::new(),
                    error: PhantomData,
                }),
                Opened::Whole(mut exchanged, mut core) => {
                    let mut kept = Vec::new();
                    let mut items = None;
                    client.read_result(
                        &op,
                        &mut exchanged,
                        Some(&mut kept),
                        &mut |child, attachments| {
                            let cx = ResponseContext {
                                shape,
                                attachments,
                                operation: &op,
                            };
                            items = Some(whole(child, &cx)?);
                            Ok(())
                        },
                    )?;
                    let items: VecDeque<T> = items.unwrap_or_default().into();
                    core.count = items.len() as u64;
                    core.headers = ResponseHeaders::from(kept);
                    core.phase = Phase::Ended;
                    Ok(ItemStream {
                        core: *core,
                        decode: item,
                        queue: items,
                        error: PhantomData,
                    })
                }
            }
        }),
    }
}

mod open;
mod window;

use open::Opened;
use window::{ends_within, Core, Phase};

#[cfg(test)]
mod tests;
