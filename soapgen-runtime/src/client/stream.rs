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

use super::exchange::Exchanged;
use super::{Client, Decoder, ResponseContext, ResponseShape};
use crate::error::{
    DecodeError, DecodeErrorKind, EncodeError, Error, Location, TransportError, TransportErrorKind,
};
use crate::header::ResponseHeaders;
use crate::message::{Operation, Request};
use crate::transport::BodyStream;
use crate::xml::{Limits, Name, StartTag, XmlReader};

/// Reads one result element of a streamed response, `start` just read, through its end tag: the
/// item's reader of generated code (`read_required::<T>`, `read_nillable::<T>`).
pub type ItemDecoder<T> = for<'i> fn(&mut XmlReader<'i>, StartTag<'i>) -> Result<T, DecodeError>;

/// How much of the body is held ahead of the reader before items are decoded, in bytes: items
/// are decoded a window at a time, and an item cut by the window's end is decoded again once
/// the window has grown past it.
const WINDOW: usize = 256 * 1024;

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
/// ([`TransportErrorKind::Timeout`]), or an item longer than
/// [`max_response_bytes`](crate::ClientBuilder::max_response_bytes)
/// ([`TransportErrorKind::TooLarge`]). A result element that occurs fewer times than its
/// `minOccurs` is [`DecodeErrorKind::TooFewElements`] at the end (XML Schema Part 1 §3.9.1).
///
/// Memory: one window of the body (256 KiB), the longest item, and up to 1,024 decoded items not
/// yet taken; [`max_response_bytes`](crate::ClientBuilder::max_response_bytes) bounds an item,
/// not the response. A response that must be read whole (see the module's documentation: a
/// fault, MTOM, WS-Security, a non-UTF-8 body) is bounded by it as a buffered call is.
///
/// # Examples
///
/// ```no_run
/// # async fn f(client: &soapgen_runtime::Client) -> Result<(), soapgen_runtime::Error> {
/// # let call: soapgen_runtime::StreamCall<String> = todo!();
/// let mut rows = call.await?; // e.g. report_client.get_report_stream(query)
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

/// Where a streamed response's reading stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading the wrapper's children.
    Items,
    /// The wrapper's end tag was read: what follows must close the envelope.
    Tail,
    /// Everything was read, or an error ended the stream.
    Ended,
}

/// The part of an [`ItemStream`] that does not depend on the item type: the body's window,
/// where it stands in the document, and what the items are read inside.
struct Core {
    /// The body still to come; `None` once it ended (or cannot be read further).
    body: Option<BodyStream>,
    /// The window: bytes of the body from offset `abs`.
    buf: Vec<u8>,
    /// The first byte not yet read.
    start: usize,
    /// The end of the window's text: `buf[..valid]` is UTF-8 (a character cut by a chunk's end
    /// waits for the next chunk).
    valid: usize,
    /// The body's offset of `buf[0]`.
    abs: u64,
    /// Line breaks before `buf[start]`.
    lines: u32,
    /// Characters between the last line break and `buf[start]`.
    column: u32,
    /// How many bytes after `start` to hold before decoding.
    need: usize,
    /// The body holds bytes that are not UTF-8, at `valid`.
    bad_utf8: bool,
    /// The open elements the items are inside, qualified names as written (`Envelope`, `Body`,
    /// the wrapper).
    open: Vec<String>,
    /// The namespace declarations in scope at the wrapper.
    bindings: Vec<(String, String)>,
    /// The result element.
    item: Name<'static>,
    /// Its minOccurs.
    min: u64,
    /// Items read so far.
    count: u64,
    limits: Limits,
    /// The longest run of the body held at once (the client's `max_response_bytes`).
    cap: usize,
    endpoint: String,
    /// The client's timeout, here between two chunks of the body.
    #[cfg_attr(
        not(any(feature = "reqwest", feature = "hyper", feature = "blocking")),
        allow(dead_code)
    )]
    idle: Option<std::time::Duration>,
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    phase: Phase,
    /// An error found after the items queued before it: handed out once they are taken.
    failed: Option<Error>,
    /// The transport's error that cut the body short: reported once the items before it are
    /// read, in place of the reader's error at the cut.
    cut: Option<Error>,
    /// The body's offset up to which the window was tried by the last batch.
    tried: u64,
    /// The response's header blocks, its status and HTTP header fields.
    headers: ResponseHeaders,
    status: u16,
    http_headers: Vec<(String, String)>,
}

impl Core {
    fn new(
        body: BodyStream,
        client: Option<&Client>,
        status: u16,
        http_headers: Vec<(String, String)>,
    ) -> Self {
        let (limits, cap, endpoint, idle) = match client {
            Some(c) => (
                c.inner.settings.limits,
                c.inner.settings.max_response_bytes,
                c.inner.endpoint.clone(),
                c.inner.settings.deadline,
            ),
            None => (
                Limits::default(),
                super::DEFAULT_MAX_RESPONSE_BYTES,
                String::new(),
                None,
            ),
        };
        Core {
            body: Some(body),
            buf: Vec::new(),
            start: 0,
            valid: 0,
            abs: 0,
            lines: 0,
            column: 0,
            need: (16 * 1024).min(cap),
            bad_utf8: false,
            open: Vec::new(),
            bindings: Vec::new(),
            item: Name::new("", ""),
            min: 0,
            count: 0,
            limits,
            cap,
            endpoint,
            idle,
            #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
            sleep: None,
            phase: Phase::Items,
            failed: None,
            cut: None,
            tried: 0,
            headers: ResponseHeaders::default(),
            status,
            http_headers,
        }
    }

    /// The unread text of the window.
    fn window(&self) -> &str {
        // `buf[..valid]` was checked to be UTF-8 when it arrived, and `start` is always at the
        // end of a token the reader read from it, so on a character boundary.
        std::str::from_utf8(&self.buf[self.start..self.valid]).unwrap_or_default()
    }

    /// Whether nothing more of the body can be read (or decoded: after bytes that are not
    /// UTF-8).
    fn all_read(&self) -> bool {
        self.body.is_none() || self.bad_utf8
    }

    /// Whether to read more of the body before decoding.
    fn wants_more(&self) -> bool {
        !self.all_read() && self.buf.len() - self.start < self.need
    }

    /// The window's usual size: [`WINDOW`], or less under a smaller limit.
    fn window_size(&self) -> usize {
        WINDOW.min(self.cap)
    }

    /// `e`, or the transport's error that cut the body short before it.
    fn or_cut(&mut self, e: Error) -> Error {
        self.cut.take().unwrap_or(e)
    }

    /// Reads one more chunk of the body into the window (or notes its end).
    fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        let Some(body) = self.body.as_mut() else {
            return Poll::Ready(Ok(()));
        };
        match body.as_mut().poll_next(cx) {
            Poll::Ready(Some(Ok(chunk))) => {
                #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
                {
                    self.sleep = None;
                }
                self.append(&chunk);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Some(Err(e))) => {
                self.body = None;
                Poll::Ready(Err(Error::Transport(e)))
            }
            Poll::Ready(None) => {
                self.body = None;
                if self.valid < self.buf.len() {
                    // The body ends inside a character.
                    self.bad_utf8 = true;
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending => self.poll_idle(cx),
        }
    }

    /// The timeout between chunks: an error once it passed without one.
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    fn poll_idle(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        let Some(d) = self.idle else {
            return Poll::Pending;
        };
        let sleep = self
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(d)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.body = None;
                Poll::Ready(Err(Error::Transport(TransportError::new(
                    TransportErrorKind::Timeout,
                    self.endpoint.clone(),
                    format!(
                        "no bytes of the streamed response for {d:?} after byte {} \
                         (ClientBuilder::timeout, between two chunks of a streamed body)",
                        self.abs + self.buf.len() as u64
                    ),
                    None,
                ))))
            }
            Poll::Pending => Poll::Pending,
        }
    }

    /// Without a timer (no tokio), no timeout.
    #[cfg(not(any(feature = "reqwest", feature = "hyper", feature = "blocking")))]
    fn poll_idle(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Poll::Pending
    }

    /// Reads until at least `self.need` bytes are unread, or the body ended.
    async fn fill(&mut self) -> Result<(), Error> {
        while self.wants_more() {
            std::future::poll_fn(|cx| self.poll_fill(cx)).await?;
        }
        Ok(())
    }

    /// Adds `chunk` to the window, its text checked as UTF-8 up to a character it cuts.
    fn append(&mut self, chunk: &[u8]) {
        self.buf.extend_from_slice(chunk);
        if self.bad_utf8 {
            return;
        }
        match simdutf8::compat::from_utf8(&self.buf[self.valid..]) {
            Ok(_) => self.valid = self.buf.len(),
            Err(e) => {
                self.valid += e.valid_up_to();
                // Not UTF-8: nothing after it is decoded (the items before it are).
                self.bad_utf8 = e.error_len().is_some();
            }
        }
    }

    /// Marks `n` more bytes of the window read, keeping count of lines and columns, and drops
    /// what was read once it is most of the window.
    fn consume(&mut self, n: usize) {
        let text = &self.buf[self.start..self.start + n];
        match memchr::memrchr(b'\n', text) {
            Some(i) => {
                self.lines += memchr::memchr_iter(b'\n', text).count() as u32;
                self.column = char_count(&text[i + 1..]);
            }
            None => self.column += char_count(text),
        }
        self.start += n;
        if self.start > WINDOW && self.start * 2 > self.buf.len() {
            self.buf.drain(..self.start);
            self.abs += self.start as u64;
            self.valid -= self.start;
            self.start = 0;
        }
    }

    /// `e`, found by a reader over the window from `start`, located in the whole body.
    fn locate(&self, mut e: DecodeError) -> Error {
        let loc = &mut e.location;
        loc.offset += self.abs + self.start as u64;
        if loc.line <= 1 {
            loc.column += self.column;
        }
        loc.line += self.lines;
        Error::Decode(Box::new(e))
    }

    /// The error for the body's bytes that are not UTF-8, at the end of the window's text.
    fn utf8_error(&self) -> Error {
        let text = self.window();
        let e = DecodeError::new(
            DecodeErrorKind::InvalidUtf8,
            crate::xml::read::location_in(text, text.len() as u64, self.path()),
        );
        self.locate(e)
    }

    /// The path of the wrapper (`Body/GetReportResponse`), for errors about it.
    fn path(&self) -> String {
        self.open
            .iter()
            .skip(1)
            .map(|q| q.rsplit(':').next().unwrap_or(q))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Makes the window hold more than the `have` unread bytes it holds (a token or an item
    /// did not end inside it), within the client's limit.
    fn grow(&mut self, have: usize) -> Result<(), Error> {
        self.need = (have * 2).max(WINDOW / 2).min(self.cap);
        if have >= self.cap {
            return Err(Error::Transport(TransportError::new(
                TransportErrorKind::TooLarge,
                self.endpoint.clone(),
                format!(
                    "a run of the streamed response from byte {} is longer than the limit of {} \
                     bytes held at once (ClientBuilder::max_response_bytes bounds one item of a \
                     streamed response)",
                    self.abs + self.start as u64,
                    self.cap
                ),
                None,
            )));
        }
        Ok(())
    }

    /// After the wrapper's end tag: what follows must close the `Body` and the `Envelope`, then
    /// only comments, processing instructions and white space; and the result element must have
    /// occurred its minOccurs times.
    fn tail(&mut self) -> Result<(), Error> {
        if self.bad_utf8 {
            return Err(self.utf8_error());
        }
        let window = self.window();
        let mut r = XmlReader::inside(window, &self.open[..2], &self.bindings, self.limits);
        let closed = (|| {
            for _ in 0..2 {
                if let Some(tag) = r.next_child()? {
                    return Err(r.unexpected(&tag));
                }
            }
            r.finish()
        })();
        closed.map_err(|e| self.locate(e))?;
        if self.count < self.min {
            return Err(Error::Decode(Box::new(DecodeError::new(
                DecodeErrorKind::TooFewElements {
                    element: self.item.local.to_owned(),
                    min: self.min,
                    found: self.count as usize,
                },
                Location {
                    path: self.path(),
                    ..Default::default()
                },
            ))));
        }
        Ok(())
    }
}

/// The characters of `text`, which is UTF-8 (a count of the bytes that start one).
fn char_count(text: &[u8]) -> u32 {
    text.iter().filter(|&&b| (b as i8) >= -0x40).count() as u32
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
                    Poll::Ready(Err(e)) => self.core.cut = Some(e),
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
                        self.core.cut = Some(e);
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

/// Whether the markup that starts `text` (after white space, comments and processing
/// instructions) ends inside it: an end tag, or an element through its end tag. Used once an
/// item failed to decode, to tell a response that is wrong there from a window that cut it.
fn ends_within(text: &str) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    loop {
        while i < b.len() && depth == 0 && matches!(b[i], b' ' | b'\t' | b'\r' | b'\n') {
            i += 1;
        }
        let Some(k) = memchr::memchr(b'<', &b[i..]) else {
            return false;
        };
        if depth == 0 && k > 0 {
            // Text where markup was due: the reader's error stands.
            return true;
        }
        i += k;
        let rest = &b[i..];
        let end = if rest.starts_with(b"<!--") {
            memchr::memmem::find(&rest[4..], b"-->").map(|e| 4 + e + 3)
        } else if rest.starts_with(b"<![CDATA[") {
            memchr::memmem::find(&rest[9..], b"]]>").map(|e| 9 + e + 3)
        } else if rest.starts_with(b"<?") {
            memchr::memmem::find(&rest[2..], b"?>").map(|e| 2 + e + 2)
        } else if rest.starts_with(b"</") {
            let e = memchr::memchr(b'>', rest);
            if let Some(e) = e {
                if depth <= 1 {
                    return e < rest.len();
                }
                depth -= 1;
            }
            e.map(|e| e + 1)
        } else if b"<!--".starts_with(rest) || b"<![CDATA[".starts_with(rest) {
            // Cut before it says what it is.
            return false;
        } else if rest.starts_with(b"<!") {
            // A DOCTYPE or other declaration: the reader refuses it.
            return true;
        } else {
            match tag_end(rest) {
                Some((e, empty)) => {
                    if !empty {
                        depth += 1;
                    } else if depth == 0 {
                        return true;
                    }
                    Some(e)
                }
                None => None,
            }
        };
        match end {
            Some(e) => i += e,
            None => return false,
        }
    }
}

/// The length of the start tag at the start of `text` through its `>` (quoted attribute values
/// may hold `>`), and whether it is an empty-element tag; `None` if it does not end in `text`.
fn tag_end(text: &[u8]) -> Option<(usize, bool)> {
    let mut i = 1;
    while i < text.len() {
        match text[i] {
            q @ (b'"' | b'\'') => i += 1 + memchr::memchr(q, &text[i + 1..])?,
            b'>' => return Some((i + 1, text[i - 1] == b'/')),
            _ => {}
        }
        i += 1;
    }
    None
}

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
    /// [`TransportErrorKind::BlockingInAsync`] and nothing is sent.
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
            let exchanged = client.exchange_as(&op, &request, true).await?;
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

/// How a streamed response is read: its items from the body as it comes, or the whole body.
enum Opened {
    Items(Box<Core>),
    Whole(Box<Exchanged>, Box<Core>),
}

/// What the start of a streamed response showed.
enum Prelude {
    /// The wrapper's start tag ends at this offset: the items follow.
    Items {
        at: usize,
        open: Vec<String>,
        bindings: Vec<(String, String)>,
    },
    /// Not a response to read item by item (a fault, an empty wrapper, another element).
    Whole,
}

/// Reads the start of a response, `text`, up to the response wrapper `wrapper` (any element
/// with `rpc`).
fn prelude(
    text: &str,
    wrapper: Name<'_>,
    rpc: bool,
    limits: Limits,
) -> Result<Prelude, DecodeError> {
    let mut r = XmlReader::with_limits(text, limits);
    let env = r.root()?;
    let soap = env.namespace();
    if env.local_name() != "Envelope" {
        return Ok(Prelude::Whole);
    }
    let Some(mut child) = r.next_child()? else {
        return Ok(Prelude::Whole);
    };
    if child.local_name() == "Header" && child.namespace() == soap {
        r.skip_element()?;
        match r.next_child()? {
            Some(c) => child = c,
            None => return Ok(Prelude::Whole),
        }
    }
    if child.local_name() != "Body" || child.namespace() != soap {
        return Ok(Prelude::Whole);
    }
    let Some(w) = r.next_child()? else {
        return Ok(Prelude::Whole);
    };
    let fault = w.local_name() == "Fault" && w.namespace() == soap;
    if fault || !(rpc || w.is(wrapper)) || r.at_empty_element() {
        return Ok(Prelude::Whole);
    }
    Ok(Prelude::Items {
        at: r.position(),
        open: r.open_names(),
        bindings: r.bindings_in_scope(),
    })
}

impl Client {
    /// Reads the start of the streamed response of `exchanged` (a call of `op` laid out as
    /// `shape`) and checks it as a buffered call's, or reads the whole response where it must
    /// be read whole. Not generic.
    async fn open_stream(
        &self,
        op: &Operation,
        mut exchanged: Exchanged,
        shape: &ResponseShape,
    ) -> Result<Opened, Error> {
        let body = exchanged.rest.take().unwrap_or_else(|| {
            let whole = exchanged.response.body.clone();
            crate::transport::StreamingResponse::whole(crate::transport::HttpResponse {
                status: 200,
                headers: Vec::new(),
                body: whole,
            })
            .body
        });
        let resp = &exchanged.response;
        let mut core = Box::new(Core::new(
            body,
            Some(self),
            resp.status,
            resp.headers.clone(),
        ));
        let mut streamable = (200..300).contains(&resp.status)
            && !resp
                .content_type()
                .is_some_and(crate::mime::is_multipart_related)
            && resp
                .content_type()
                .and_then(crate::xml::charset_of)
                .is_none_or(|c| c.eq_ignore_ascii_case("utf-8"))
            && !exchanged.layers.iter().any(|l| l.whole_response());
        let (wrapper, item, min, rpc) = match *shape {
            ResponseShape::Wrapped {
                wrapper,
                result,
                min,
                rpc,
            } => (wrapper, result, min, rpc),
            _ => {
                streamable = false;
                (Name::new("", ""), Name::new("", ""), 0, false)
            }
        };
        let mut found = None;
        #[allow(clippy::while_let_loop)]
        while streamable {
            core.fill().await?;
            if !crate::xml::declares_utf8(&core.buf[..core.buf.len().min(256)]) {
                break;
            }
            match prelude(core.window(), wrapper, rpc, core.limits) {
                Ok(Prelude::Items { at, open, bindings }) => {
                    found = Some((at, open, bindings));
                    break;
                }
                Ok(Prelude::Whole) => streamable = false,
                Err(_) if core.all_read() => streamable = false,
                Err(_) => {
                    let have = core.buf.len() - core.start;
                    core.grow(have)?;
                }
            }
            if core.bad_utf8 {
                streamable = false;
            }
        }
        let Some((at, open, bindings)) = found else {
            // Read whole, as a buffered call (its large attachments to the store's files).
            exchanged.rest = core.body.take();
            self.finish_body(&mut exchanged, std::mem::take(&mut core.buf))
                .await?;
            return Ok(Opened::Whole(Box::new(exchanged), core));
        };
        // The start of the response as a whole message: its elements closed after the wrapper's
        // start tag, and read as a buffered call's response is.
        let mut text = core.window()[..at].to_owned();
        for qname in open.iter().rev() {
            text.push_str("</");
            text.push_str(qname);
            text.push('>');
        }
        exchanged.response.body = Bytes::from(text);
        let mut kept = Vec::new();
        self.read_result(
            op,
            &mut exchanged,
            Some(&mut kept),
            &mut |child, _| match child {
                Some((r, _)) => r.skip_element(),
                None => Ok(()),
            },
        )?;
        core.headers = ResponseHeaders::from(kept);
        core.consume(at);
        core.open = open;
        core.bindings = bindings;
        core.item = item;
        core.min = min;
        core.need = core.window_size();
        Ok(Opened::Items(core))
    }
}

impl Client {
    /// Reads the rest of a streamed exchange's body, after the `prefix` already read: a
    /// `multipart/related` 2xx response through the client's
    /// [`AttachmentStore`](crate::mime::AttachmentStore) when it has one (its large parts to
    /// files, [`Exchanged::multipart`]), anything else whole into the response, within
    /// `max_response_bytes`. The client's timeout bounds each wait for a chunk. Not generic.
    pub(crate) async fn finish_body(
        &self,
        exchanged: &mut Exchanged,
        prefix: Vec<u8>,
    ) -> Result<(), Error> {
        let mut body = exchanged.rest.take();
        if body.is_none() && prefix.is_empty() {
            return Ok(());
        }
        let settings = &self.inner.settings;
        let cap = settings.max_response_bytes;
        let resp = &exchanged.response;
        let ok = (200..300).contains(&resp.status);
        let content_type = resp.content_type().unwrap_or_default().to_owned();
        let endpoint = self.inner.endpoint.as_str();
        let mut spool = match &settings.attachment_store {
            Some(store) if ok && crate::mime::is_multipart_related(&content_type) => {
                crate::mime::spool::Spool::new(store, &content_type, cap)
            }
            _ => None,
        };
        let too_large = |why: String| {
            Error::Transport(TransportError::new(
                TransportErrorKind::TooLarge,
                endpoint,
                why,
                None,
            ))
        };
        let spool_error = |e: crate::mime::spool::SpoolError| match e {
            crate::mime::spool::SpoolError::TooLarge(why) => too_large(why),
            crate::mime::spool::SpoolError::Io(why) => Error::Transport(TransportError::new(
                TransportErrorKind::Other,
                endpoint,
                why,
                None,
            )),
            crate::mime::spool::SpoolError::Mime(m) => Error::Mime(Box::new(m)),
        };
        let mut whole = prefix;
        let mut read = whole.len() as u64;
        if let Some(s) = spool.as_mut() {
            s.push(&whole).map_err(spool_error)?;
            whole = Vec::new();
        } else if whole.len() > cap {
            return Err(too_large(format!(
                "response body exceeds the limit of {cap} bytes"
            )));
        }
        while let Some(chunk) = match body.as_mut() {
            Some(b) => next_chunk(b, settings.deadline, endpoint, read).await?,
            None => None,
        } {
            read += chunk.len() as u64;
            match spool.as_mut() {
                Some(s) => s.push(&chunk).map_err(spool_error)?,
                None if whole.len() + chunk.len() > cap => {
                    return Err(too_large(format!(
                        "response body exceeds the limit of {cap} bytes"
                    )))
                }
                None => whole.extend_from_slice(&chunk),
            }
        }
        match spool {
            Some(s) => {
                let m = s
                    .finish(&content_type, settings.limits.max_mime_parts)
                    .map_err(spool_error)?;
                exchanged.multipart = Some(m);
            }
            None => exchanged.response.body = Bytes::from(whole),
        }
        Ok(())
    }
}

/// The next chunk of `body` (`None` at its end), waiting at most `idle` for it; `read`: the
/// bytes of the body read before it, for the error.
async fn next_chunk(
    body: &mut BodyStream,
    idle: Option<std::time::Duration>,
    endpoint: &str,
    read: u64,
) -> Result<Option<Bytes>, Error> {
    let next = std::future::poll_fn(|cx| body.as_mut().poll_next(cx));
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    if let Some(d) = idle {
        return match tokio::time::timeout(d, next).await {
            Ok(r) => r.transpose().map_err(Error::Transport),
            Err(_) => Err(Error::Transport(TransportError::new(
                TransportErrorKind::Timeout,
                endpoint,
                format!(
                    "no bytes of the response for {d:?} after byte {read} (ClientBuilder::timeout, \
                     between two chunks of a body read as it arrives)"
                ),
                None,
            ))),
        };
    }
    #[cfg(not(any(feature = "reqwest", feature = "hyper", feature = "blocking")))]
    let _ = (idle, endpoint, read);
    next.await.transpose().map_err(Error::Transport)
}

#[cfg(test)]
mod tests;
