//! XSD built-in datatypes (XML Schema Part 2 §3) mapped to Rust types, and the traits for simple values.
//!
//! | XSD | Rust |
//! |---|---|
//! | string, normalizedString, token, language, Name, NCName, ID, IDREF, ENTITY, NMTOKEN, anyURI | [`String`] |
//! | boolean | [`bool`] |
//! | byte, short, int, long / unsignedByte … unsignedLong | `i8` … `i64` / `u8` … `u64` (range-checked) |
//! | integer, nonPositiveInteger, negativeInteger, nonNegativeInteger, positiveInteger | [`Integer`] (unbounded) |
//! | decimal | [`Decimal`] (arbitrary precision, never `f64`) |
//! | float, double | `f32`, `f64` (with `INF`, `-INF`, `NaN`) |
//! | dateTime, date, time, duration, gYear, gYearMonth, gMonth, gMonthDay, gDay | [`DateTime`], [`Date`], [`Time`], [`Duration`], [`GYear`], [`GYearMonth`], [`GMonth`], [`GMonthDay`], [`GDay`] (time-zone offset kept) |
//! | base64Binary, hexBinary | [`Base64Binary`], [`HexBinary`] |
//! | QName | [`QName`] (resolved: namespace URI + local name) |
//! | SOAP-ENC array (SOAP 1.1 §5.4.2, rpc/encoded) | [`SoapArray`] (a `Vec<T>`; see [`EncodedType`]) |
//! | WS-I `swaRef` (`{http://ws-i.org/profiles/basic/1.1/xsd}swaRef`) | [`SwaRef`] (the attachment's bytes) |
//!
//! Occurrence and nil (XML Schema Part 1 §3.9.1 minOccurs/maxOccurs, §3.3.1 {nillable}, §2.6.2
//! `xsi:nil`) are carried by a field's type: `T`, `Option<T>`, `Vec<T>`, [`Nillable<T>`] (present,
//! nil or a value), [`OptionalNillable<T>`] (absent, nil or a value: `minOccurs="0"
//! nillable="true"`) and `Vec<Nillable<T>>`.
//!
//! A simple value is read with [`FromXmlText`] and written with [`ToXmlText`]; every type implementing
//! both is usable as element content (through the blanket [`ToXml`](crate::ToXml) /
//! [`FromXml`](crate::FromXml) impls) and as an attribute value.

mod any;
mod binary;
mod datetime;
mod list;
mod nillable;
mod numeric;
pub(crate) mod qname;
mod soapenc;
mod swaref;

pub use any::{AnyAttribute, AnyElement, AnyXml};
pub use list::List;
pub use nillable::{Nillable, OptionalNillable};

pub use binary::{Base64Binary, HexBinary};
pub use datetime::{
    Date, DateTime, Duration, GDay, GMonth, GMonthDay, GYear, GYearMonth, Time, TimezoneOffset,
};
pub use numeric::{Decimal, Integer};
pub use qname::QName;
pub use soapenc::{write_typed, EncodedType, SoapArray, SOAP_ENC_NS, XSD_NS};
pub use swaref::{SwaRef, SWAREF_NS};

use crate::error::{DecodeError, EncodeError, ValueError};
use crate::xml::{StartTag, TextOut, XmlReader};

/// A simple-type value that can be written as text (XML Schema Part 2 §2.3, lexical space).
///
/// Implement it (or derive [`ToXml`](crate::ToXml) on a unit-only enum) for enumerations and other
/// simple types; element and attribute writing come with it.
pub trait ToXmlText {
    /// Writes the canonical lexical form (XML Schema Part 2 §2.3.1) of `self` into `out`, which escapes
    /// it for where it lands.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if the value has no lexical form (a character XML cannot carry, a date out of
    /// range).
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError>;

    /// Writes an element named `name` whose content is this value (the blanket
    /// [`ToXml`](crate::ToXml) impl calls it). The default writes the text
    /// ([`XmlWriter::simple_element`](crate::xml::XmlWriter::simple_element)); [`Base64Binary`]
    /// overrides it to send large values as MTOM attachments when the writer has MTOM on.
    ///
    /// # Errors
    ///
    /// As [`write_xml_text`](Self::write_xml_text).
    fn write_element(
        &self,
        w: &mut crate::xml::XmlWriter,
        name: crate::xml::Name<'_>,
    ) -> Result<(), EncodeError> {
        w.simple_element(name, self)
    }
}

/// A simple-type value that can be read from text (XML Schema Part 2 §2.3, lexical space).
pub trait FromXmlText: Sized {
    /// Parses `text` (already unescaped, with line ends normalised per XML 1.0 §2.11), applying the
    /// type's whiteSpace facet (§4.3.6: `collapse` for everything but the string family). `ns`
    /// resolves prefixes for `QName` values.
    ///
    /// # Errors
    ///
    /// [`ValueError`] naming the type and the offending text.
    fn from_xml_text(text: &str, ns: &dyn PrefixResolver) -> Result<Self, ValueError>;

    /// As [`from_xml_text`](Self::from_xml_text), given the text as the reader holds it: borrowed
    /// from the document, or owned when the reader had to build it (references expanded, CDATA
    /// sections joined, line ends normalised: XML 1.0 §4.6, §2.7, §2.11). [`String`] takes an
    /// owned text as it is instead of copying it; the default parses the borrowed form.
    ///
    /// # Errors
    ///
    /// As [`from_xml_text`](Self::from_xml_text).
    fn from_xml_cow(
        text: std::borrow::Cow<'_, str>,
        ns: &dyn PrefixResolver,
    ) -> Result<Self, ValueError> {
        Self::from_xml_text(&text, ns)
    }

    /// Reads an element whose content is a value of this type, from just after its start tag up to
    /// and including its end tag (the blanket [`FromXml`](crate::FromXml) impl calls it).
    ///
    /// The default reads the text ([`XmlReader::read_simple`]); [`Base64Binary`] overrides it to
    /// decode while the text streams and to resolve MTOM/SwA attachments.
    ///
    /// # Errors
    ///
    /// As [`XmlReader::read_simple`].
    fn read_element_content<'i>(
        r: &mut XmlReader<'i>,
        start: &StartTag<'i>,
    ) -> Result<Self, DecodeError> {
        r.read_simple(start)
    }
}

/// Resolves namespace prefixes in scope where a simple value was read (Namespaces in XML 1.0 §6).
pub trait PrefixResolver {
    /// The namespace URI bound to `prefix` (`""` for the default namespace), or `None` if unbound.
    fn resolve_prefix(&self, prefix: &str) -> Option<String>;

    /// The attachment of the message that a `cid:` URL (RFC 2392) names, for [`SwaRef`] values
    /// read from attributes or lists; `None` outside a multipart/related message (the default).
    fn attachment(&self, reference: &str) -> Option<crate::mime::Attachment> {
        let _ = reference;
        None
    }
}

/// A [`PrefixResolver`] with no bindings, for values read outside any document.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoNamespaces;

impl PrefixResolver for NoNamespaces {
    fn resolve_prefix(&self, _prefix: &str) -> Option<String> {
        None
    }
}

/// Trims the XML whitespace characters (space, tab, CR, LF: XML 1.0 §2.3 production S) from both ends;
/// the `collapse` whiteSpace facet for single tokens (XML Schema Part 2 §4.3.6).
pub fn collapse(text: &str) -> &str {
    text.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

impl ToXmlText for str {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        out.push_str(self)
    }
}

impl ToXmlText for String {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        out.push_str(self)
    }
}

impl FromXmlText for String {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        Ok(text.to_owned())
    }

    fn from_xml_cow(
        text: std::borrow::Cow<'_, str>,
        _ns: &dyn PrefixResolver,
    ) -> Result<Self, ValueError> {
        Ok(text.into_owned())
    }
}

impl<T: ToXmlText + ?Sized> ToXmlText for Box<T> {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        (**self).write_xml_text(out)
    }
}

/// Test helpers of the type modules.
#[cfg(test)]
pub(crate) mod testing {
    use super::ToXmlText;
    use crate::xml::{Name, XmlWriter};

    /// The text `v` writes as element content (empty for an empty element), `mime`: base64 in
    /// MIME lines (RFC 2045 §6.8).
    pub(crate) fn text_of<T: ToXmlText + ?Sized>(v: &T, mime: bool) -> String {
        let mut w = XmlWriter::new();
        w.set_mime_base64(mime);
        w.start_element(Name::unqualified("v")).unwrap();
        w.text_value(v).unwrap();
        w.end_element().unwrap();
        let s = w.into_string().unwrap();
        if s == "<v/>" {
            return String::new();
        }
        s.strip_prefix("<v>")
            .unwrap()
            .strip_suffix("</v>")
            .unwrap()
            .to_owned()
    }
}
