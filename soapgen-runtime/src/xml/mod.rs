//! XML writing and streaming reading, and the traits that map Rust types to elements.
//!
//! - [`XmlWriter`]: namespace-aware writer for requests.
//! - [`XmlReader`]: streaming pull reader for responses (no DOM: text is borrowed from the response
//!   buffer, line-broken base64 is never copied to be normalised).
//! - `multiref` (internal): SOAP 1.1 §5.4.1 `href`/`id` multi-reference values resolved before decoding
//!   (rpc/encoded responses).
//! - [`ToXmlGroup`] / [`FromXmlGroup`]: a choice (enum) or sequence (struct) among an element's
//!   children, once or repeated (XML Schema Part 1 §3.8).
//! - [`ToXml`] / [`FromXml`]: an element's content and attributes, implemented by the derives and by
//!   every simple type.
//! - [`to_string`] / [`from_str`]: one such value as a whole XML document and back, without an
//!   envelope.

mod document;
mod encoding;
mod group;
pub(crate) mod multiref;
mod name;
pub(crate) mod read;
mod simple;
pub(crate) mod write;

pub use document::{from_str, from_str_with_limits, to_string};
pub use encoding::to_utf8;
pub(crate) use encoding::{charset_of, declares_utf8};

pub use group::{FromXmlGroup, ToXmlGroup};
pub use name::{Name, XML_NS, XSI_NS};
pub use read::{FromXmlText, NoNamespaces, PrefixResolver};
pub use read::{Leniency, Limits, StartTag, XmlReader};
pub(crate) use simple::is_ncname;
pub use simple::{collapse, AnyAttribute};
pub use write::{TextOut, ToXmlText, XmlWriter};

use crate::error::{DecodeError, EncodeError};

/// A Rust value written as one XML element (XML Schema Part 1 §3.3: an element declaration's content).
///
/// Derive it with `#[derive(ToXml)]`; simple types get it from [`ToXmlText`]. A generated type
/// derives it when a request of its operations sends it; generate with `--both-directions`
/// (`Builder::both_directions`) for every type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be written as XML: it does not implement `ToXml`",
    note = "a type soapgen generated derives `ToXml` only when a request sends it; to write the \
            ones only received, generate with `--both-directions` (`Builder::both_directions(true)`)",
    note = "a type of your own: `#[derive(ToXml)]`"
)]
pub trait ToXml {
    /// Writes `self` as an element named `name`: start tag, attributes, content, end tag.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if a value cannot be written.
    fn write_xml(&self, w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError>;
}

/// A Rust value read from one XML element.
///
/// Derive it with `#[derive(FromXml)]`; simple types get it from [`FromXmlText`]. A generated
/// type derives it when a response, header or fault of its operations carries it; generate with
/// `--both-directions` (`Builder::both_directions`) for every type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be read from XML: it does not implement `FromXml`",
    note = "a type soapgen generated derives `FromXml` only when a response, header or fault \
            carries it; to read the ones only sent, generate with `--both-directions` \
            (`Builder::both_directions(true)`)",
    note = "a type of your own: `#[derive(FromXml)]`"
)]
pub trait FromXml: Sized {
    /// Whether the type keeps a nil element itself (XML Schema Part 1 §2.6.2): a derived struct
    /// whose `#[xml(text)]` field is `Nillable<T>` reads `<price xsi:nil="true"/>` as a value
    /// whose content is nil, so an element of it that is not wrapped in `Nillable` is handed to
    /// [`read_xml`](Self::read_xml) when nil instead of refused as not nillable. Default `false`.
    const NIL_CONTENT: bool = false;

    /// Reads the element whose start tag `start` was just returned by the reader, consuming everything
    /// up to and including its end tag.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] with the element path for content that does not match.
    fn read_xml<'i>(r: &mut XmlReader<'i>, start: StartTag<'i>) -> Result<Self, DecodeError>;

    /// Reads a nillable element that is nil (`xsi:nil="true"`) and carries other attributes too:
    /// XML Schema Part 1 §2.6.2 and §3.3.4 clause 3.2 give a nil element no content but allow its
    /// attributes (`<price currency="EUR" xsi:nil="true"/>`). Consumes through the end tag.
    /// `Some(value)`: a value holding the attributes, its content nil (derived structs whose
    /// `#[xml(text)]` field is `Nillable<T>`); `None`: the element reads as plain nil, which is
    /// right for a type that declares no attributes (attributes a type does not declare are not
    /// read on any element). The default skips the element and returns `None`.
    ///
    /// # Errors
    ///
    /// [`DecodeErrorKind::NilWithAttributes`](crate::error::DecodeErrorKind::NilWithAttributes)
    /// with the element path from a type that declares an attribute present here but cannot
    /// carry nil content; malformed XML.
    fn read_nil<'i>(
        r: &mut XmlReader<'i>,
        start: StartTag<'i>,
    ) -> Result<Option<Self>, DecodeError> {
        let _ = start;
        r.skip_element()?;
        Ok(None)
    }
}

impl<T: ToXmlText + ?Sized> ToXml for T {
    fn write_xml(&self, w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError> {
        self.write_element(w, name)
    }
}

impl<T: FromXmlText> FromXml for T {
    fn read_xml<'i>(r: &mut XmlReader<'i>, start: StartTag<'i>) -> Result<Self, DecodeError> {
        if r.is_nil(&start)? {
            r.skip_element()?;
            return Err(r.error(crate::error::DecodeErrorKind::UnexpectedNil));
        }
        T::read_element_content(r, &start)
    }
}
