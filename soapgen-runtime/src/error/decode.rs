//! The error of reading XML, with where it happened, and of a value its XSD type does not accept.

use std::borrow::Cow;
use std::fmt;

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
    /// Whether this is a well-formedness, encoding or limit problem (reported as [`Error::Xml`](crate::Error::Xml)) rather
    /// than a mismatch with the expected message ([`Error::Decode`](crate::Error::Decode)).
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
