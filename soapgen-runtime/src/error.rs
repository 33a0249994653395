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
//! - `Error::Security` (feature `wss`): a response that does not meet the WS-Security policy.

use std::borrow::Cow;
use std::fmt;

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
    /// A successful response that does not meet the client's WS-Security inbound policy (a
    /// required Timestamp missing or stale, WSS 1.1 §10), feature `wss`.
    #[cfg(feature = "wss")]
    #[error("{0}")]
    Security(Box<crate::wss::WssError>),
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

impl From<DecodeError> for Error {
    fn from(e: DecodeError) -> Self {
        if e.kind.is_well_formedness() {
            Error::Xml(Box::new(e))
        } else {
            Error::Decode(Box::new(e))
        }
    }
}

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
            source,
        }
    }
}

/// Where in a response an error was found.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// Byte offset from the start of the XML document.
    pub offset: u64,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters.
    pub column: u32,
    /// Local names of the open elements, outermost first, without the SOAP `Envelope`
    /// (`Body/GetQuoteResponse/Quote/price`).
    pub path: String,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}, byte {}",
            self.line, self.column, self.offset
        )
    }
}

/// What went wrong while reading a response.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// Not well-formed XML (XML 1.0 §2.1), as reported by the parser.
    Syntax(String),
    /// The body is not valid UTF-8.
    InvalidUtf8,
    /// The response body is empty.
    Empty,
    /// A document type declaration, refused (entity expansion attacks, XXE).
    DocType,
    /// An entity reference other than the five predefined ones (XML 1.0 §4.6) or a bad character
    /// reference.
    Entity(String),
    /// The document ended inside an element.
    Truncated,
    /// Elements nested deeper than the configured limit.
    DepthLimit(usize),
    /// An element with more attributes than the configured limit
    /// ([`Limits::max_attributes`](crate::xml::Limits::max_attributes)).
    AttributeLimit(usize),
    /// An element's text content longer than the configured limit in bytes
    /// ([`Limits::max_text_bytes`](crate::xml::Limits::max_text_bytes)).
    TextLimit(usize),
    /// Content after the end of the document element, or a second document element.
    TrailingContent,
    /// An element that the expected message has no place for.
    UnexpectedElement(String),
    /// A required element is absent.
    MissingElement(String),
    /// A required attribute is absent.
    MissingAttribute(String),
    /// An element allowed once appeared again.
    DuplicateElement(String),
    /// A repeated element occurred fewer times than its `minOccurs` (XML Schema Part 1 §3.9.4,
    /// Element Sequence Locally Valid (Particle)).
    TooFewElements {
        /// The element's local name.
        element: String,
        /// Its `minOccurs`.
        min: u64,
        /// How many times it occurred.
        found: usize,
    },
    /// Character data where only elements may appear.
    UnexpectedText(String),
    /// `xsi:nil="true"` on an element that is not nillable (XML Schema Part 1 §3.3.4 Element
    /// Locally Valid (Element) clause 3.1); see
    /// [`Leniency::nil_on_non_nillable`](crate::xml::Leniency::nil_on_non_nillable).
    UnexpectedNil,
    /// A nil element (`xsi:nil="true"`) with an attribute, named here, that its type declares but
    /// that the Rust type cannot carry without content (XML Schema Part 1 §2.6.2: a nil element
    /// has no content but may have attributes). A derived struct carries them when its
    /// `#[xml(text)]` field is `Nillable<T>`.
    NilWithAttributes(String),
    /// A simple value that is not in the lexical space of its type.
    InvalidValue(ValueError),
    /// The envelope is not a SOAP envelope of a known version.
    NotAnEnvelope(String),
    /// The response is an envelope of another SOAP version than the request's and not a fault
    /// (SOAP 1.2 Part 1 §5.4.7, SOAP 1.1 §4.4: a node answers in the version it was sent; a fault,
    /// such as a VersionMismatch fault, is reported as the fault).
    VersionMismatch {
        /// The request's SOAP version.
        expected: crate::SoapVersion,
        /// The response envelope's.
        found: crate::SoapVersion,
    },
    /// An MTOM/XOP `xop:Include` or SwA `href="cid:…"` that names no attachment of the message
    /// (XOP 1.0 §3.2, SwA 1.0 §3).
    Attachment(String),
    /// A SOAP 1.1 §5.4.1 multi-reference problem: an `href="#id"` to no `id`, a cycle, or more
    /// references than [`Limits::max_references`](crate::xml::Limits::max_references).
    Reference(String),
    /// An `xsi:type` (XML Schema Part 1 §2.6.1) that names neither the element's declared type nor
    /// a type derived from it that the client knows, or no `xsi:type` where the declared type is
    /// abstract (§3.4.1 {abstract}); the message names the types.
    UnexpectedType(String),
    /// Any other problem.
    Other(String),
}

impl DecodeErrorKind {
    /// Whether this is a well-formedness, encoding or limit problem (reported as [`Error::Xml`]) rather
    /// than a mismatch with the expected message ([`Error::Decode`]).
    pub fn is_well_formedness(&self) -> bool {
        matches!(
            self,
            DecodeErrorKind::Syntax(_)
                | DecodeErrorKind::InvalidUtf8
                | DecodeErrorKind::Empty
                | DecodeErrorKind::DocType
                | DecodeErrorKind::Entity(_)
                | DecodeErrorKind::Truncated
                | DecodeErrorKind::DepthLimit(_)
                | DecodeErrorKind::AttributeLimit(_)
                | DecodeErrorKind::TextLimit(_)
                | DecodeErrorKind::TrailingContent
        )
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Syntax(m) => write!(f, "malformed XML: {m}"),
            DecodeErrorKind::InvalidUtf8 => f.write_str("invalid UTF-8"),
            DecodeErrorKind::Empty => f.write_str("empty response body"),
            DecodeErrorKind::DocType => f.write_str("document type declaration (DOCTYPE) refused"),
            DecodeErrorKind::Entity(m) => write!(f, "entity reference refused: {m}"),
            DecodeErrorKind::Truncated => {
                f.write_str("document ends inside an element (truncated)")
            }
            DecodeErrorKind::DepthLimit(n) => {
                write!(f, "elements nested deeper than the limit of {n}")
            }
            DecodeErrorKind::AttributeLimit(n) => {
                write!(f, "an element with more attributes than the limit of {n}")
            }
            DecodeErrorKind::TextLimit(n) => {
                write!(f, "text content longer than the limit of {n} bytes")
            }
            DecodeErrorKind::TrailingContent => f.write_str("content after the document element"),
            DecodeErrorKind::UnexpectedElement(n) => write!(f, "unexpected element {n}"),
            DecodeErrorKind::MissingElement(n) => write!(f, "missing required element {n}"),
            DecodeErrorKind::MissingAttribute(n) => write!(f, "missing required attribute {n}"),
            DecodeErrorKind::DuplicateElement(n) => write!(f, "element {n} appears more than once"),
            DecodeErrorKind::TooFewElements {
                element,
                min,
                found,
            } => write!(
                f,
                "element {element} occurs {found} times, fewer than its minOccurs of {min}"
            ),
            DecodeErrorKind::UnexpectedText(t) => {
                write!(f, "unexpected text {t:?} in element-only content")
            }
            DecodeErrorKind::UnexpectedNil => f.write_str(
                "xsi:nil on an element that is not nillable (XML Schema Part 1 §3.3.4 \
                     clause 3.1; Leniency::nil_on_non_nillable reads it as absent where the \
                     element is optional)",
            ),
            DecodeErrorKind::NilWithAttributes(a) => write!(
                f,
                "xsi:nil element with attribute {a}, which this type cannot keep without content \
                 (make its text field Nillable<T> to read it)"
            ),
            DecodeErrorKind::InvalidValue(v) => write!(f, "{v}"),
            DecodeErrorKind::NotAnEnvelope(m) => write!(f, "not a SOAP envelope: {m}"),
            DecodeErrorKind::VersionMismatch { expected, found } => write!(
                f,
                "the response is a {found} envelope, the request was {expected}: the server does \
                 not speak {expected} at this endpoint (choose the client's SOAP version with \
                 with_soap_version, or the endpoint of a {expected} port)"
            ),
            DecodeErrorKind::Attachment(m) => write!(f, "unresolved attachment reference: {m}"),
            DecodeErrorKind::Reference(m) => write!(f, "multi-reference value (href/id): {m}"),
            DecodeErrorKind::UnexpectedType(m) => f.write_str(m),
            DecodeErrorKind::Other(m) => f.write_str(m),
        }
    }
}

/// An error reading XML, with where it happened.
///
/// Displays as `path: what (line L, column C, byte B)`, for example
/// `Body/GetQuoteResponse/Quote/price: invalid decimal "1,5": … (line 1, column 212, byte 211)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// Where.
    pub location: Location,
}

impl DecodeError {
    /// An error of `kind` at `location`.
    pub fn new(kind: DecodeErrorKind, location: Location) -> Self {
        DecodeError { kind, location }
    }

    /// The element path where the error was found (`Body/Op/field`).
    pub fn path(&self) -> &str {
        &self.location.path
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.location.path.is_empty() {
            write!(f, "{}: ", self.location.path)?;
        }
        write!(f, "{} ({})", self.kind, self.location)
    }
}

impl std::error::Error for DecodeError {}

/// A lexical value that its XSD type does not accept (XML Schema Part 2 §3: lexical spaces).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueError {
    /// The XSD type name (`decimal`, `int`, `dateTime`, or an enumeration's type name).
    pub type_name: Cow<'static, str>,
    /// The offending text (cut to 64 characters).
    pub value: String,
    /// Why it was refused, if more can be said than "not in the lexical space".
    pub reason: Option<Cow<'static, str>>,
}

impl ValueError {
    /// `value` is not a valid `type_name`.
    pub fn new(type_name: impl Into<Cow<'static, str>>, value: &str) -> Self {
        let mut v: String = value.chars().take(64).collect();
        if v.len() < value.len() {
            v.push('…');
        }
        ValueError {
            type_name: type_name.into(),
            value: v,
            reason: None,
        }
    }

    /// Adds why the value was refused.
    pub fn because(mut self, reason: impl Into<Cow<'static, str>>) -> Self {
        self.reason = Some(reason.into());
        self
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid {} {:?}", self.type_name, self.value)?;
        if let Some(r) = &self.reason {
            write!(f, ": {r}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValueError {}

/// A request that could not be written as XML.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot write request: {message}")]
pub struct EncodeError {
    /// What went wrong.
    pub message: String,
}

impl EncodeError {
    /// The writer was driven in an order that does not produce XML (a bug in hand-written
    /// [`ToXml`](crate::ToXml) code).
    pub fn misuse(what: &str) -> Self {
        EncodeError {
            message: format!("writer misuse: {what}"),
        }
    }

    /// `c`, at byte `offset` of a string value, cannot appear in XML 1.0 (§2.2).
    pub fn invalid_char(c: char, offset: usize) -> Self {
        EncodeError {
            message: format!(
                "character U+{:04X} at byte {offset} of a value cannot be represented in XML 1.0",
                c as u32
            ),
        }
    }

    /// A value that cannot be written, with the reason.
    pub fn invalid_value(type_name: &str, reason: &str) -> Self {
        EncodeError {
            message: format!("invalid {type_name} value: {reason}"),
        }
    }
}
