//! What a response may make the reader do ([`Limits`]), and the schema rules it may relax
//! ([`Leniency`]).

/// Bounds on what a response may make the reader do (see also the client's response size limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum element nesting depth, counting the Envelope (default 128).
    pub max_depth: usize,
    /// Maximum number of MIME parts in a multipart/related (MTOM, SwA) response, root included
    /// (default 1024).
    pub max_mime_parts: usize,
    /// Maximum number of attributes (namespace declarations included) on one element (default 256).
    pub max_attributes: usize,
    /// Maximum size in bytes of one element's text content as it appears in the document, references
    /// and CDATA included (default 256 MiB; the response size limit usually binds first). A 100 MB
    /// base64 value needs both limits raised above it.
    pub max_text_bytes: usize,
    /// Opt-in relaxations of schema rules for servers that break them (default: none, every rule
    /// enforced). See [`Leniency`].
    pub leniency: Leniency,
    /// Maximum number of SOAP 1.1 §5.4.1 `href="#id"` references followed in one response, in total
    /// (default 65,536): a bound on the work of resolving multi-reference values (rpc/encoded), so
    /// that a small document of shared references cannot expand exponentially. See
    /// the envelope reader.
    pub max_references: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_mime_parts: 1024,
            max_attributes: 256,
            max_text_bytes: 256 << 20,
            leniency: Leniency::STRICT,
            max_references: 65_536,
        }
    }
}

impl Limits {
    /// Sets [`max_references`](Self::max_references).
    pub fn with_max_references(mut self, references: usize) -> Self {
        self.max_references = references;
        self
    }

    /// Sets [`leniency`](Self::leniency): which schema rules the reader relaxes.
    pub fn with_leniency(mut self, leniency: Leniency) -> Self {
        self.leniency = leniency;
        self
    }

    /// Sets [`Leniency::unknown_elements`] (kept from before [`Leniency`] existed; the same as
    /// `with_leniency(self.leniency.with_unknown_elements(lenient))`).
    pub fn with_lenient_unknown_elements(mut self, lenient: bool) -> Self {
        self.leniency.unknown_elements = lenient;
        self
    }

    /// Sets [`max_attributes`](Self::max_attributes).
    pub fn with_max_attributes(mut self, attributes: usize) -> Self {
        self.max_attributes = attributes;
        self
    }

    /// Sets [`max_text_bytes`](Self::max_text_bytes).
    pub fn with_max_text_bytes(mut self, bytes: usize) -> Self {
        self.max_text_bytes = bytes;
        self
    }

    /// Sets [`max_mime_parts`](Self::max_mime_parts).
    pub fn with_max_mime_parts(mut self, parts: usize) -> Self {
        self.max_mime_parts = parts;
        self
    }

    /// Sets [`max_depth`](Self::max_depth).
    pub fn with_max_depth(mut self, depth: usize) -> Self {
        self.max_depth = depth;
        self
    }
}

/// Opt-in relaxations of XML Schema rules that the reader otherwise enforces, for servers whose
/// responses break them. All off by default ([`Leniency::STRICT`]): a response that breaks a rule is
/// a [`DecodeError`](crate::DecodeError) with the element path. Each switch, when it lets something through, logs a
/// `tracing` warning (target `soapgen::lenient`) with the element path, line and column, so that
/// the deviation stays visible.
///
/// Set on [`Limits::leniency`], or for a client with
/// [`ClientBuilder::leniency`](crate::ClientBuilder::leniency).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::xml::{Leniency, Limits};
/// let limits = Limits::default().with_leniency(
///     Leniency::STRICT.with_unknown_elements(true).with_nil_on_non_nillable(true),
/// );
/// assert!(limits.leniency.unknown_elements && limits.leniency.nil_on_non_nillable);
/// assert_eq!(Limits::default().leniency, Leniency::STRICT);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct Leniency {
    /// Skip elements the expected content has no place for (default `false`). Relaxes XML Schema
    /// Part 1 §3.4.4 Element Locally Valid (Complex Type) clause 2.4 (the children must match the
    /// content model) for unknown elements only: such an element is skipped with its content and
    /// logged with its path, position and XML (the first 512 bytes), for servers that added
    /// elements the WSDL does not have yet. Also relaxes §3.3.4 clause 4.3 (an `xsi:type` must be
    /// the declared type or derived from it) for a type the client does not know: the element is
    /// read as its declared type, the unknown extension's elements skipped. Missing required
    /// elements and invalid values remain errors. Off: [`DecodeErrorKind::UnexpectedElement`](crate::error::DecodeErrorKind::UnexpectedElement) or
    /// [`DecodeErrorKind::UnexpectedType`](crate::error::DecodeErrorKind::UnexpectedType).
    pub unknown_elements: bool,
    /// Read `xsi:nil="true"` on an element that is not declared nillable as the element being
    /// absent, where the field is optional (`Option<T>`, `minOccurs="0"`), and log it (default
    /// `false`). Relaxes XML Schema Part 1 §3.3.4 Element Locally Valid (Element) clause 3.1 (no
    /// `xsi:nil` unless {nillable} is true, §2.6.2), for servers that send nil for a null value
    /// whatever the schema says. A required element that is nil stays an error (it cannot be
    /// absent). Off: [`DecodeErrorKind::UnexpectedNil`](crate::error::DecodeErrorKind::UnexpectedNil).
    pub nil_on_non_nillable: bool,
}

impl Leniency {
    /// Every rule enforced (the default).
    pub const STRICT: Leniency = Leniency {
        unknown_elements: false,
        nil_on_non_nillable: false,
    };

    /// Sets [`unknown_elements`](Self::unknown_elements).
    pub const fn with_unknown_elements(mut self, on: bool) -> Self {
        self.unknown_elements = on;
        self
    }

    /// Sets [`nil_on_non_nillable`](Self::nil_on_non_nillable).
    pub const fn with_nil_on_non_nillable(mut self, on: bool) -> Self {
        self.nil_on_non_nillable = on;
        self
    }
}
