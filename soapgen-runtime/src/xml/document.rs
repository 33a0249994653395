//! One value as a whole XML document, and back: [`to_string`], [`from_str`] and
//! [`from_str_with_limits`].
//!
//! These drive the same [`XmlWriter`] and [`XmlReader`] a client uses for a SOAP body, without the
//! envelope: for tests, fixtures, logs, and values stored or exchanged as XML outside a call.

use crate::error::{DecodeError, EncodeError};

use super::{FromXml, Limits, Name, ToXml, XmlReader, XmlWriter};

/// Writes `value` as a document whose root element is named `name`.
///
/// The shape is what a client writes for the same value inside a SOAP Body: no XML declaration,
/// namespaces bound to prefixes the writer chooses (`ns1`, `ns2`, …, declared where first used),
/// unqualified children in no namespace. Any [`ToXml`] type goes: `#[derive(ToXml)]` structs and
/// enums, generated types, and simple types (`i32`, `String`, [`Nillable`](crate::Nillable)…).
///
/// # Errors
///
/// [`EncodeError`] if the value cannot be written: a string with a character XML 1.0 cannot
/// represent, an invalid value of a constrained type, an unbound or invalid name; or if the value
/// holds `swaRef` content, whose bytes travel as MIME attachments and cannot be part of a plain
/// document (write such a value with an [`XmlWriter`] and take its
/// [`attachments`](XmlWriter::take_attachments)).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::xml::{self, Name};
/// use soapgen_runtime::{FromXml, ToXml};
///
/// #[derive(Debug, PartialEq, ToXml, FromXml)]
/// #[xml(namespace = "urn:example")]
/// struct Point {
///     x: i32,
///     label: Option<String>,
/// }
///
/// let p = Point { x: 3, label: Some("a < b".into()) };
/// let text = xml::to_string(&p, Name::new("urn:example", "Point"))?;
/// assert_eq!(
///     text,
///     r#"<ns1:Point xmlns:ns1="urn:example"><ns1:x>3</ns1:x><ns1:label>a &lt; b</ns1:label></ns1:Point>"#
/// );
/// assert_eq!(xml::from_str::<Point>(&text)?, p);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_string<T: ToXml + ?Sized>(value: &T, name: Name<'_>) -> Result<String, EncodeError> {
    let mut w = XmlWriter::new();
    value.write_xml(&mut w, name)?;
    if !w.take_attachments().is_empty() {
        return Err(EncodeError::misuse(
            "the value has swaRef content, which needs a multipart message: \
             write it with an XmlWriter and send its attachments",
        ));
    }
    w.into_string()
}

/// Reads a `T` from a document whose root element is the value, with default [`Limits`].
///
/// The document may start with an XML declaration, comments, processing instructions and
/// whitespace, and end with comments and whitespace; anything else after the root element is an
/// error. Any prefixes and default namespace declarations are read. The root element's own name is
/// not checked — a type knows its content, not the name of the element that holds it (the same
/// type may be the content of several elements) — so compare
/// [`StartTag::is`](super::StartTag::is) with an [`XmlReader`] where the name matters.
///
/// # Errors
///
/// [`DecodeError`], with the byte offset, line and column and the element path: malformed or
/// truncated XML, a DOCTYPE (refused), an empty document, content after the root element, content
/// that does not match `T` (a missing required element, an unknown element, an invalid value);
/// a document past the default [`Limits`] (depth 128, 256 attributes per element).
///
/// # Examples
///
/// ```
/// use soapgen_runtime::xml;
/// use soapgen_runtime::FromXml;
///
/// #[derive(Debug, PartialEq, FromXml)]
/// #[xml(namespace = "urn:example")]
/// struct Point {
///     x: i32,
/// }
///
/// let p: Point = xml::from_str(r#"<?xml version="1.0"?><Point xmlns="urn:example"><x>3</x></Point>"#)?;
/// assert_eq!(p, Point { x: 3 });
///
/// let e = xml::from_str::<Point>(r#"<Point xmlns="urn:example"><x>three</x></Point>"#).unwrap_err();
/// assert!(e.to_string().contains("x"), "{e}"); // the path of the invalid value
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn from_str<T: FromXml>(xml: &str) -> Result<T, DecodeError> {
    from_str_with_limits(xml, Limits::default())
}

/// [`from_str`] with the given [`Limits`]: depth, attributes, text size, and the
/// [`Leniency`](super::Leniency) switches (unknown elements and `xsi:type`s skipped, nil read as
/// absent).
///
/// # Errors
///
/// As [`from_str`], with `limits` in place of the defaults.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::xml::{self, Limits};
///
/// let text = "<note>0123456789</note>";
/// assert_eq!(xml::from_str::<String>(text).unwrap(), "0123456789");
/// let tight = Limits::default().with_max_text_bytes(4);
/// assert!(xml::from_str_with_limits::<String>(text, tight).is_err());
/// ```
pub fn from_str_with_limits<T: FromXml>(xml: &str, limits: Limits) -> Result<T, DecodeError> {
    let mut r = XmlReader::with_limits(xml, limits);
    let root = r.root()?;
    let value = T::read_xml(&mut r, root)?;
    r.finish()?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simple_value_round_trips() {
        let text = to_string(&42i32, Name::unqualified("n")).unwrap();
        assert_eq!(text, "<n>42</n>");
        assert_eq!(from_str::<i32>(&text).unwrap(), 42);
    }

    #[test]
    fn trailing_content_and_empty_documents_are_errors() {
        assert!(from_str::<i32>("<n>1</n><n>2</n>").is_err());
        assert!(from_str::<i32>("").is_err());
        assert!(from_str::<i32>("<n>1").is_err());
        assert_eq!(
            from_str::<i32>("<?xml version=\"1.0\"?>\n<n>1</n>\n<!-- end -->\n").unwrap(),
            1
        );
    }

    #[test]
    fn swaref_content_is_refused_rather_than_dropped() {
        let photo = crate::types::SwaRef::new("image/png", vec![1u8, 2, 3]);
        let e = to_string(&photo, Name::unqualified("photo")).unwrap_err();
        assert!(e.message.contains("swaRef"), "{e}");
    }

    #[test]
    fn a_doctype_is_refused() {
        assert!(from_str::<String>("<!DOCTYPE n [<!ENTITY e \"x\">]><n>&e;</n>").is_err());
    }
}
