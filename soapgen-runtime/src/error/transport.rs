//! The error of an HTTP exchange that got no response.

/// What kind of transport failure happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// The connection could not be made (refused, DNS, TLS handshake).
    Connect,
    /// A timeout expired.
    Timeout,
    /// The response body exceeded the configured size limit.
    TooLarge,
    /// The request could not be built (bad URL, bad header).
    Request,
    /// HTTP authentication failed (RFC 9110 §11): the server answered `401` to the credentials,
    /// or sent a challenge that cannot be answered; the message names the scheme, user and realm.
    Auth,
    /// TLS failed: an unusable client certificate, key or trust anchor, an untrusted server
    /// certificate (RFC 5280 §6), or a server that refused the client certificate (RFC 8446
    /// §4.4.2).
    Tls,
    /// A blocking client's call made on a thread where a tokio runtime is current (async code,
    /// or a `spawn_blocking` thread), where tokio's nested `block_on` would panic: nothing was
    /// sent. The message says what to use instead (the async client).
    BlockingInAsync,
    /// Any other I/O or protocol failure.
    Other,
}

/// A failure to exchange an HTTP request and response.
#[derive(Debug, thiserror::Error)]
#[error("{kind_text} ({url}): {message}")]
pub struct TransportError {
    /// The kind of failure.
    pub kind: TransportErrorKind,
    /// The endpoint URL of the call.
    pub url: String,
    /// Description, including the cause chain.
    pub message: String,
    kind_text: &'static str,
    /// The request never left the client (see [`not_sent`](Self::not_sent)).
    not_sent: bool,
    #[source]
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl TransportError {
    /// A transport error of `kind` for `url`, with the underlying cause.
    pub fn new(
        kind: TransportErrorKind,
        url: impl Into<String>,
        message: impl Into<String>,
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        let kind_text = match kind {
            TransportErrorKind::Connect => "connection failed",
            TransportErrorKind::Timeout => "timed out",
            TransportErrorKind::TooLarge => "response too large",
            TransportErrorKind::Request => "invalid request",
            TransportErrorKind::Auth => "HTTP authentication failed",
            TransportErrorKind::Tls => "TLS failed",
            TransportErrorKind::BlockingInAsync => "blocking call inside an async runtime",
            TransportErrorKind::Other => "transport error",
        };
        TransportError {
            kind,
            url: url.into(),
            message: message.into(),
            kind_text,
            not_sent: false,
            source,
        }
    }

    /// The same error, marked as one after which the request had provably not left the client:
    /// its connection could not be made, or not in time (a connect timeout, kind
    /// [`Timeout`](TransportErrorKind::Timeout)). A [`Failover`](crate::Failover) set goes on
    /// to its next address after such an error.
    #[must_use]
    pub fn not_sent(mut self) -> Self {
        self.not_sent = true;
        self
    }

    /// Whether the request had provably not left the client: kind
    /// [`Connect`](TransportErrorKind::Connect), or marked [`not_sent`](Self::not_sent).
    pub fn was_not_sent(&self) -> bool {
        self.not_sent || self.kind == TransportErrorKind::Connect
    }
}
