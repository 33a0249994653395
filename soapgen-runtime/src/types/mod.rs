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
mod qname;
mod soapenc;
mod swaref;

pub use any::{AnyElement, AnyXml};
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

pub use crate::xml::{
    collapse, AnyAttribute, FromXmlText, NoNamespaces, PrefixResolver, ToXmlText,
};

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
