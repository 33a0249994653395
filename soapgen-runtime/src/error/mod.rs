//! Errors: one [`Error`] for a call, with predicates, and the detailed errors it carries.
//!
//! A call fails in one of these ways, each its own variant:
//! - [`Error::Transport`]: the request did not get an HTTP response (connect, timeout, I/O, size limit);
//! - [`Error::Http`]: an HTTP response that is not a SOAP envelope (an HTML error page, an empty body);
//! - [`Error::Fault`]: a SOAP fault (SOAP 1.1 §4.4, SOAP 1.2 Part 1 §5.4), whatever the HTTP status;
//! - [`Error::Xml`]: the response is not acceptable XML (not well-formed, a DOCTYPE, invalid UTF-8,
//!   truncated, over a limit), with byte offset, line and column;
//! - [`Error::Decode`]: well-formed XML that does not match the expected types, with the element path;
//! - [`Error::Encode`]: the request could not be written (a character XML cannot carry);
//! - [`Error::Security`]: a response that does not meet the WS-Security policy (feature `wss`).

mod decode;
mod encode;
mod security;
mod transport;

pub use decode::{DecodeError, DecodeErrorKind, Location, ValueError};
pub use encode::EncodeError;
pub use security::WssError;
pub use transport::{TransportError, TransportErrorKind};

use crate::fault::Fault;

/// The error of a SOAP call. Cheap to move (large variants are boxed).
///
/// Predicates in the manner of reqwest's error: [`is_fault`](Error::is_fault),
/// [`is_timeout`](Error::is_timeout), [`status`](Error::status).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// No HTTP response was received.
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// An HTTP response that does not carry a SOAP envelope.
    #[error("HTTP {status}{}: {excerpt}", content_type.as_deref().map(|c| format!(" ({c})")).unwrap_or_default())]
    Http {
        /// HTTP status code.
        status: u16,
        /// The response's Content-Type, if any.
        content_type: Option<String>,
        /// The first bytes of the body (at most 512 characters, lossy UTF-8), or what was wrong with it.
        excerpt: String,
    },
    /// A SOAP fault returned by the server.
    #[error("{0}")]
    Fault(Box<Fault>),
    /// The response is not acceptable XML.
    #[error("{0}")]
    Xml(Box<DecodeError>),
    /// The response is XML that does not match the expected message.
    #[error("{0}")]
    Decode(Box<DecodeError>),
    /// A multipart/related response (MTOM/XOP, SwA) whose MIME structure is broken: no boundary, a
    /// truncated part, a bad Content-Transfer-Encoding (RFC 2046 §5.1, RFC 2387).
    #[error("{0}")]
    Mime(Box<crate::mime::MimeError>),
    /// The request could not be serialized.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A successful response whose SOAP headers break the call's rules: a `mustUnderstand`
    /// block the client does not process (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3), a reply
    /// not related to the addressed request (WS-Addressing 1.0 Core §3.4).
    #[error("{0}")]
    Header(Box<crate::header::HeaderError>),
    /// A response that does not meet the client's WS-Security inbound policy (a required
    /// Timestamp missing or stale, WSS 1.1 §10; a signature that does not verify, §8.4): only a
    /// client configured with WS-Security (feature `wss`) fails with it.
    #[error("{0}")]
    Security(Box<WssError>),
}

impl Error {
    /// Whether the server answered with a SOAP fault.
    pub fn is_fault(&self) -> bool {
        matches!(self, Error::Fault(_))
    }

    /// The fault, if the server answered with one.
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Error::Fault(f) => Some(f),
            _ => None,
        }
    }

    /// Whether the call ran out of time (connect or whole-request timeout).
    pub fn is_timeout(&self) -> bool {
        matches!(self, Error::Transport(t) if t.kind == TransportErrorKind::Timeout)
    }

    /// Whether HTTP authentication failed: the server refused the credentials of the
    /// transport's `HttpAuth` (Digest, NTLM, Negotiate) or its challenge could not be answered
    /// ([`TransportErrorKind::Auth`]).
    pub fn is_auth(&self) -> bool {
        matches!(self, Error::Transport(t) if t.kind == TransportErrorKind::Auth)
    }

    /// The [`AuthError`](crate::transport::auth::AuthError) of a failed HTTP authentication
    /// (its [`kind`](crate::transport::auth::AuthErrorKind): refused, expired or unavailable
    /// credentials, an unknown service principal, a failed mutual authentication…), `None` for
    /// any other error.
    #[cfg(feature = "reqwest")]
    pub fn auth_error(&self) -> Option<&crate::transport::auth::AuthError> {
        match self {
            Error::Transport(t) if t.kind == TransportErrorKind::Auth => {
                std::error::Error::source(t)?.downcast_ref()
            }
            _ => None,
        }
    }

    /// Whether TLS failed: a client certificate, key or trust anchor that cannot be used, a
    /// server certificate that is not trusted, or a server that refused the client's certificate
    /// ([`TransportErrorKind::Tls`]).
    pub fn is_tls(&self) -> bool {
        matches!(self, Error::Transport(t) if t.kind == TransportErrorKind::Tls)
    }

    /// Whether the connection could not be established.
    pub fn is_connect(&self) -> bool {
        matches!(self, Error::Transport(t) if t.kind == TransportErrorKind::Connect)
    }

    /// The HTTP status of the response, when one was received.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Http { status, .. } => Some(*status),
            Error::Fault(f) => f.http_status,
            _ => None,
        }
    }
}

/// A SOAP fault as the error of a call ([`Error::Fault`]): what a test double answers with.
impl From<Fault> for Error {
    fn from(f: Fault) -> Self {
        Error::Fault(Box::new(f))
    }
}

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Self {
        if e.kind.is_well_formedness() {
            Error::Xml(Box::new(e))
        } else {
            Error::Decode(Box::new(e))
        }
    }
}
