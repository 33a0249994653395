//! The HTTP transport: a trait generated clients call through, a reqwest implementation (the
//! default, feature `reqwest`) and a lean hyper one for plain HTTP (feature `hyper`).
//!
//! SOAP 1.1 §6 and SOAP 1.2 Part 2 §7 bind SOAP to HTTP POST (and SOAP 1.2's SOAP-response
//! message exchange pattern, Part 2 §6.3, to a GET with no envelope). A [`Transport`] sends one request and
//! returns the status, headers and whole body; everything SOAP-specific (envelopes, faults, actions)
//! stays in [`Client`](crate::Client), so a transport is small to write (for tests, a custom TLS stack,
//! or another HTTP library).

/// The timeout setters of an HTTP transport's builder, on its `timeouts` field (`Timeouts`).
#[cfg(any(feature = "reqwest", feature = "hyper"))]
macro_rules! timeout_setters {
    () => {
        /// Whole-request timeout, from sending to the last body byte (default 60 s; `None` for none).
        pub fn timeout(mut self, t: Option<::std::time::Duration>) -> Self {
            self.timeouts.request = t;
            self
        }

        /// Connection timeout (default 10 s).
        pub fn connect_timeout(mut self, t: Option<::std::time::Duration>) -> Self {
            self.timeouts.connect = t;
            self
        }

        /// How long an idle pooled connection is kept (default 90 s).
        pub fn pool_idle_timeout(mut self, t: Option<::std::time::Duration>) -> Self {
            self.timeouts.pool_idle = t;
            self
        }
    };
}

#[cfg(feature = "reqwest")]
mod reqwest_impl;
#[cfg(feature = "reqwest")]
mod reqwest_response;
#[cfg(feature = "reqwest")]
mod tunnel;

#[cfg(feature = "reqwest")]
pub use reqwest_impl::{Proxy, ReqwestTransport, ReqwestTransportBuilder};

#[cfg(feature = "reqwest")]
pub mod auth;
#[cfg(feature = "kerberos")]
mod kerberos;
#[cfg(feature = "ntlm")]
mod ntlm;
#[cfg(feature = "kerberos")]
pub use kerberos::{Kerberos, KerberosCredentials};
#[cfg(any(feature = "ntlm", feature = "kerberos"))]
mod spnego;
#[cfg(feature = "reqwest")]
pub mod tls;

#[cfg(feature = "reqwest")]
pub use auth::HttpAuth;
#[cfg(feature = "reqwest")]
pub use tls::{ClientIdentity, TlsError, TrustAnchors};

#[cfg(feature = "hyper")]
mod hyper_impl;

#[cfg(feature = "hyper")]
pub use hyper_impl::{HyperTransport, HyperTransportBuilder};

#[cfg(feature = "tower")]
mod tower_impl;

#[cfg(feature = "tower")]
pub use tower_impl::{TowerTransport, TransportService};

use std::fmt;
use std::future::Future;
use std::pin::Pin;

use bytes::Bytes;
use futures_core::Stream;

use crate::error::TransportError;

/// The timeouts an HTTP transport's builder sets (`timeout_setters!`), `None` for none.
#[cfg(any(feature = "reqwest", feature = "hyper"))]
#[derive(Debug, Clone, Copy)]
struct Timeouts {
    /// The whole request, from sending to the last body byte.
    request: Option<std::time::Duration>,
    /// Making the connection.
    connect: Option<std::time::Duration>,
    /// How long an idle pooled connection is kept.
    pool_idle: Option<std::time::Duration>,
}

#[cfg(any(feature = "reqwest", feature = "hyper"))]
impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            request: Some(std::time::Duration::from_secs(60)),
            connect: Some(std::time::Duration::from_secs(10)),
            pool_idle: Some(std::time::Duration::from_secs(90)),
        }
    }
}

/// An HTTP library's error with its whole cause chain, `: `-separated: the top-level message
/// alone says little ("error sending request").
#[cfg(any(feature = "reqwest", feature = "hyper"))]
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut message = e.to_string();
    let mut src = e.source();
    while let Some(s) = src {
        message.push_str(": ");
        message.push_str(&s.to_string());
        src = s.source();
    }
    message
}

/// Header fields as `(name, value)` pairs: names as the HTTP library gives them (lowercase),
/// values that are not UTF-8 with their bytes replaced.
#[cfg(any(feature = "reqwest", feature = "hyper"))]
fn header_pairs<'a>(fields: impl Iterator<Item = (&'a str, &'a [u8])>) -> Vec<(String, String)> {
    fields
        .map(|(k, v)| (k.to_owned(), String::from_utf8_lossy(v).into_owned()))
        .collect()
}

/// The method of an [`HttpRequest`] (RFC 9110 §9.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum HttpMethod {
    /// POST, with the envelope as its body: every SOAP 1.1 call, and SOAP 1.2's request-response
    /// message exchange pattern (SOAP 1.2 Part 2 §7.4).
    #[default]
    Post,
    /// GET, with no body: SOAP 1.2's SOAP-response message exchange pattern (SOAP 1.2 Part 2
    /// §6.3, §7.4), whose request is the URL alone and whose response is an envelope.
    Get,
}

impl HttpMethod {
    /// The method's name as HTTP writes it: `POST`, `GET`.
    pub fn as_str(self) -> &'static str {
        match self {
            HttpMethod::Post => "POST",
            HttpMethod::Get => "GET",
        }
    }
}

impl fmt::Display for HttpMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One HTTP request to send: a POST of an envelope, or (SOAP 1.2's SOAP-response message exchange
/// pattern) a GET with an empty body.
#[derive(Debug, Clone)]
pub struct HttpRequest {
    /// The method: [`HttpMethod::Post`] unless the operation is bound to the SOAP-response message
    /// exchange pattern.
    pub method: HttpMethod,
    /// The endpoint URL (for a GET, with the request's query).
    pub url: String,
    /// Header fields, in order (Content-Type, SOAPAction, Authorization, user headers).
    pub headers: Vec<(String, String)>,
    /// The request body (the envelope; empty for a GET).
    pub body: Bytes,
    /// The largest response body to accept, in bytes; a transport stops reading past it and returns
    /// a [`TransportErrorKind::TooLarge`](crate::error::TransportErrorKind::TooLarge) error.
    pub max_response_bytes: usize,
}

impl HttpRequest {
    /// The first header named `name` (case-insensitive, RFC 9110 §5.1).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The HTTP response to a [`HttpRequest`], body read in full.
#[derive(Debug, Clone)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// Header fields (names lowercase).
    pub headers: Vec<(String, String)>,
    /// The body, after content decoding (gzip).
    pub body: Bytes,
}

impl HttpResponse {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The Content-Type header.
    pub fn content_type(&self) -> Option<&str> {
        self.header("content-type")
    }
}

/// The future a [`Transport`] returns.
pub type TransportFuture<'a> =
    Pin<Box<dyn Future<Output = Result<HttpResponse, TransportError>> + Send + 'a>>;

/// A response body as it arrives: chunks of bytes in order, after content decoding (gzip), then
/// the end (`None`); an error ends it (a reset connection, a read timeout, a body cut short of
/// its `Content-Length` or last chunk, RFC 9112 §6.3).
pub type BodyStream = Pin<Box<dyn Stream<Item = Result<Bytes, TransportError>> + Send>>;

/// The HTTP response to a [`HttpRequest`] sent by [`Transport::send_streaming`]: status and
/// header fields as soon as they arrived, the body still to be read.
pub struct StreamingResponse {
    /// Status code.
    pub status: u16,
    /// Header fields (names lowercase).
    pub headers: Vec<(String, String)>,
    /// The body, read as it arrives.
    pub body: BodyStream,
}

impl StreamingResponse {
    /// A response read in full, as one chunk: what [`Transport::send_streaming`] gives by
    /// default.
    pub fn whole(response: HttpResponse) -> Self {
        let mut body = (!response.body.is_empty()).then_some(response.body);
        StreamingResponse {
            status: response.status,
            headers: response.headers,
            body: Box::pin(futures_core_stream(move || body.take().map(Ok))),
        }
    }
}

impl fmt::Debug for StreamingResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StreamingResponse")
            .field("status", &self.status)
            .field("headers", &self.headers)
            .finish_non_exhaustive()
    }
}

/// A stream of what `next` gives, until it gives `None`.
fn futures_core_stream<T, F: FnMut() -> Option<T> + Unpin>(next: F) -> impl Stream<Item = T> {
    struct FromFn<F>(F);
    impl<T, F: FnMut() -> Option<T> + Unpin> Stream for FromFn<F> {
        type Item = T;
        fn poll_next(
            mut self: Pin<&mut Self>,
            _cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<T>> {
            std::task::Poll::Ready((self.0)())
        }
    }
    FromFn(next)
}

/// The future [`Transport::send_streaming`] returns.
pub type StreamingFuture<'a> =
    Pin<Box<dyn Future<Output = Result<StreamingResponse, TransportError>> + Send + 'a>>;

/// Sends HTTP requests for a [`Client`](crate::Client). Implementations are shared across tasks.
pub trait Transport: Send + Sync + fmt::Debug {
    /// Sends `request` and reads the whole response body (up to `request.max_response_bytes`).
    ///
    /// # Errors
    ///
    /// [`TransportError`] when no complete response was received (connect failure, timeout, I/O error,
    /// a body over the limit). HTTP error statuses are not errors here.
    fn send(&self, request: HttpRequest) -> TransportFuture<'_>;

    /// Sends `request` and returns as soon as the status and header fields arrived, the body to
    /// be read as it comes (what streamed calls use, [`ItemStream`](crate::ItemStream)): the
    /// transport holds no more of it than one chunk, and `request.max_response_bytes` does not
    /// bound the body's total (the reader bounds what it keeps). A whole-request timeout of the
    /// transport's own covers the exchange up to the header fields; a read-idle timeout applies to
    /// every chunk.
    ///
    /// The default sends with [`send`](Self::send) and hands the whole body over as one chunk
    /// ([`StreamingResponse::whole`]): right for every transport, in bounded memory only for
    /// those that override it (the reqwest and hyper transports do).
    ///
    /// # Errors
    ///
    /// As [`send`](Self::send), for what happens before the header fields arrived; the body
    /// stream's items carry what happens after.
    fn send_streaming(&self, request: HttpRequest) -> StreamingFuture<'_> {
        let whole = self.send(request);
        Box::pin(async move { whole.await.map(StreamingResponse::whole) })
    }
}
