//! The window of a streamed response's body: the bytes held ahead of the reader, where they
//! stand in the document (offset, line, column), the chunks read into it with the timeout
//! between them, and the scan that tells an item the window cut from one that is wrong.

#[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
use std::future::Future;
#[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
use std::pin::Pin;
use std::task::{Context, Poll};

use super::super::Client;
use crate::error::{
    DecodeError, DecodeErrorKind, Error, Location, TransportError, TransportErrorKind,
};
use crate::header::ResponseHeaders;
use crate::transport::BodyStream;
use crate::xml::{Limits, Name, XmlReader};

/// How much of the body is held ahead of the reader before items are decoded, in bytes: items
/// are decoded a window at a time, and an item cut by the window's end is decoded again once
/// the window has grown past it.
pub(super) const WINDOW: usize = 256 * 1024;

/// Where a streamed response's reading stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// Reading the wrapper's children.
    Items,
    /// The wrapper's end tag was read: what follows must close the envelope.
    Tail,
    /// Everything was read, or an error ended the stream.
    Ended,
}

/// The part of an [`ItemStream`] that does not depend on the item type: the body's window,
/// where it stands in the document, and what the items are read inside.
pub(super) struct Core {
    /// The body still to come; `None` once it ended (or cannot be read further).
    pub(super) body: Option<BodyStream>,
    /// The window: bytes of the body from offset `abs`.
    pub(super) buf: Vec<u8>,
    /// The first byte not yet read.
    pub(super) start: usize,
    /// The end of the window's text: `buf[..valid]` is UTF-8 (a character cut by a chunk's end
    /// waits for the next chunk).
    pub(super) valid: usize,
    /// The body's offset of `buf[0]`.
    pub(super) abs: u64,
    /// Line breaks before `buf[start]`.
    pub(super) lines: u32,
    /// Characters between the last line break and `buf[start]`.
    pub(super) column: u32,
    /// How many bytes after `start` to hold before decoding.
    pub(super) need: usize,
    /// The body holds bytes that are not UTF-8, at `valid`.
    pub(super) bad_utf8: bool,
    /// The open elements the items are inside, qualified names as written (`Envelope`, `Body`,
    /// the wrapper).
    pub(super) open: Vec<String>,
    /// The namespace declarations in scope at the wrapper.
    pub(super) bindings: Vec<(String, String)>,
    /// The result element.
    pub(super) item: Name<'static>,
    /// The element that holds the items, if they are inside one (`ResponseShape::with_items`).
    pub(super) holder: Option<Name<'static>>,
    /// Its minOccurs.
    pub(super) min: u64,
    /// Items read so far.
    pub(super) count: u64,
    pub(super) limits: Limits,
    /// The longest run of the body held at once (the client's `max_response_bytes`).
    pub(super) cap: usize,
    pub(super) endpoint: String,
    /// The client's timeout, here between two chunks of the body.
    #[cfg_attr(
        not(any(feature = "reqwest", feature = "hyper", feature = "blocking")),
        allow(dead_code)
    )]
    pub(super) idle: Option<std::time::Duration>,
    #[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
    pub(super) sleep: Option<Pin<Box<tokio::time::Sleep>>>,
    pub(super) phase: Phase,
    /// An error found after the items queued before it: handed out once they are taken.
    pub(super) failed: Option<Error>,
    /// The transport's error that cut the body short: reported once the items before it are
    /// read, in place of the reader's error at the cut.
    pub(super) cut: Option<Error>,
    /// The body's offset up to which the window was tried by the last batch.
    pub(super) tried: u64,
    /// The response's header blocks, its status and HTTP header fields.
    pub(super) headers: ResponseHeaders,
    pub(super) status: u16,
    pub(super) http_headers: Vec<(String, String)>,
}

impl Core {
    pub(super) fn new(
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
                super::super::DEFAULT_MAX_RESPONSE_BYTES,
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
            holder: None,
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
    pub(super) fn window(&self) -> &str {
        // `buf[..valid]` was checked to be UTF-8 when it arrived, and `start` is always at the
        // end of a token the reader read from it, so on a character boundary.
        std::str::from_utf8(&self.buf[self.start..self.valid]).unwrap_or_default()
    }

    /// Whether nothing more of the body can be read (or decoded: after bytes that are not
    /// UTF-8).
    pub(super) fn all_read(&self) -> bool {
        self.body.is_none() || self.bad_utf8
    }

    /// Whether to read more of the body before decoding.
    pub(super) fn wants_more(&self) -> bool {
        !self.all_read() && self.buf.len() - self.start < self.need
    }

    /// The window's usual size: [`WINDOW`], or less under a smaller limit.
    pub(super) fn window_size(&self) -> usize {
        WINDOW.min(self.cap)
    }

    /// The transport's error `e` that cut the body short, saying after how many of the body's
    /// bytes (all of them read: the items before the cut are decoded).
    pub(super) fn cut_at(&self, e: Error) -> Error {
        match e {
            Error::Transport(mut t) => {
                let at = self.abs + self.buf.len() as u64;
                t.message.push_str(&format!(
                    " (the response body was cut off after {at} bytes)"
                ));
                Error::Transport(t)
            }
            other => other,
        }
    }

    /// `e`, or the transport's error that cut the body short before it.
    pub(super) fn or_cut(&mut self, e: Error) -> Error {
        self.cut.take().unwrap_or(e)
    }

    /// Reads one more chunk of the body into the window (or notes its end).
    pub(super) fn poll_fill(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
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
    pub(super) fn poll_idle(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
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
    pub(super) fn poll_idle(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Error>> {
        Poll::Pending
    }

    /// Reads until at least `self.need` bytes are unread, or the body ended.
    pub(super) async fn fill(&mut self) -> Result<(), Error> {
        while self.wants_more() {
            std::future::poll_fn(|cx| self.poll_fill(cx)).await?;
        }
        Ok(())
    }

    /// Adds `chunk` to the window, its text checked as UTF-8 up to a character it cuts.
    pub(super) fn append(&mut self, chunk: &[u8]) {
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
    pub(super) fn consume(&mut self, n: usize) {
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
    pub(super) fn locate(&self, mut e: DecodeError) -> Error {
        let loc = &mut e.location;
        loc.offset += self.abs + self.start as u64;
        if loc.line <= 1 {
            loc.column += self.column;
        }
        loc.line += self.lines;
        Error::Decode(Box::new(e))
    }

    /// The error for the body's bytes that are not UTF-8, at the end of the window's text.
    pub(super) fn utf8_error(&self) -> Error {
        let text = self.window();
        let e = DecodeError::new(
            DecodeErrorKind::InvalidUtf8,
            crate::xml::read::location_in(text, text.len() as u64, self.path()),
        );
        self.locate(e)
    }

    /// The path of the wrapper (`Body/GetReportResponse`), for errors about it.
    pub(super) fn path(&self) -> String {
        self.open
            .iter()
            .skip(1)
            .map(|q| q.rsplit(':').next().unwrap_or(q))
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Makes the window hold more than the `have` unread bytes it holds (a token or an item
    /// did not end inside it), within the client's limit.
    pub(super) fn grow(&mut self, have: usize) -> Result<(), Error> {
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

    /// After the end tag of the element that holds the items (the wrapper, or the result element
    /// inside it): what follows must close the elements around it (the wrapper, the `Body`, the
    /// `Envelope`) with no other element, then only comments, processing instructions and white
    /// space; and the items must have occurred their minOccurs times.
    pub(super) fn tail(&mut self) -> Result<(), Error> {
        if self.bad_utf8 {
            return Err(self.utf8_error());
        }
        let window = self.window();
        let around = self.open.len().saturating_sub(1);
        let mut r = XmlReader::inside(window, &self.open[..around], &self.bindings, self.limits);
        let closed = (|| {
            for level in 0..around {
                if let Some(tag) = r.next_child()? {
                    // The element that held the items, again: as a buffered call reports it.
                    return Err(match self.holder {
                        Some(h) if level == 0 && tag.is(h) => r.duplicate(&tag),
                        _ => r.unexpected(&tag),
                    });
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
pub(super) fn char_count(text: &[u8]) -> u32 {
    text.iter().filter(|&&b| (b as i8) >= -0x40).count() as u32
}

/// Whether the markup that starts `text` (after white space, comments and processing
/// instructions) ends inside it: an end tag, or an element through its end tag. Used once an
/// item failed to decode, to tell a response that is wrong there from a window that cut it.
pub(super) fn ends_within(text: &str) -> bool {
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
pub(super) fn tag_end(text: &[u8]) -> Option<(usize, bool)> {
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
