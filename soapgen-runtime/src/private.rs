//! Support for macro-generated code. Not a public API: names and signatures change without notice.

use crate::error::{DecodeError, DecodeErrorKind, EncodeError};
use crate::types::Nillable;
use crate::xml::{FromXml, Name, StartTag, XmlReader, XmlWriter};

pub use crate::client::{
    result, send, send_stream, Decoder, ItemDecoder, ResponseContext, ResponseShape,
};
pub use crate::types::{collapse, FromXmlText, NoNamespaces, PrefixResolver, ToXmlText};
pub use crate::xml::read::content::{
    read_content, Element, NillableOne, Optional, Or, Particle, ReadAs, Repeated, RepeatedNillable,
    Required, Slot, Tristate, Wildcard, Wildcards,
};
pub use crate::xml::TextOut;

pub use crate::__if_arbitrary as if_arbitrary;

/// Reads a required, non-nillable element.
#[inline]
/// Binds the envelope namespace of `version` to the prefix the `Envelope` declares it with, in
/// the Body writer `w` before its first element: `soapenv:encodingStyle` on an rpc/encoded request
/// element then uses it instead of declaring it again (SOAP 1.1 §4.1.1).
pub fn inherit_envelope(w: &mut crate::xml::XmlWriter, version: crate::SoapVersion) {
    w.inherit_namespace(version.prefix(), version.envelope_namespace());
}

pub fn read_required<'i, T: FromXml>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
) -> Result<T, DecodeError> {
    if !T::NIL_CONTENT && r.is_nil(&child)? {
        return Err(r.error_at(DecodeErrorKind::UnexpectedNil, child.offset()));
    }
    T::read_xml(r, child)
}

/// Reads an optional, non-nillable element (`Option<T>`): `xsi:nil="true"` is an error (XML Schema
/// Part 1 §3.3.4 clause 3.1), or with [`Leniency::nil_on_non_nillable`](crate::xml::Leniency)
/// reads as `None` with a warning. A nillable optional element is `OptionalNillable<T>`, or
/// `Option<T>` of a type that keeps nil itself ([`FromXml::NIL_CONTENT`]).
#[inline]
pub fn read_optional<'i, T: FromXml>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
) -> Result<Option<T>, DecodeError> {
    if !T::NIL_CONTENT && r.is_nil(&child)? {
        r.nil_on_non_nillable(&child)?;
        return Ok(None);
    }
    T::read_xml(r, child).map(Some)
}

/// Reads a nillable element (XML Schema Part 1 §2.6.2): nil is `Nillable::Nil`, or, when the nil
/// element carries attributes, what [`FromXml::read_nil`] makes of them.
#[inline]
pub fn read_nillable<'i, T: FromXml>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
) -> Result<Nillable<T>, DecodeError> {
    if r.is_nil(&child)? {
        return read_nil(r, child);
    }
    T::read_xml(r, child).map(Nillable::Value)
}

/// A nil element: plain `Nil` without attributes, else [`FromXml::read_nil`].
fn read_nil<'i, T: FromXml>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
) -> Result<Nillable<T>, DecodeError> {
    if r.first_attribute_of(&child, &[], true)?.is_none() {
        r.skip_element()?;
        return Ok(Nillable::Nil);
    }
    Ok(match T::read_nil(r, child)? {
        Some(v) => Nillable::Value(v),
        None => Nillable::Nil,
    })
}

/// [`FromXml::read_nil`] of a derived struct with attributes whose content cannot be nil: plain
/// nil when none of its attributes (`known`, or any with a `wildcard`) is there, else
/// [`DecodeErrorKind::NilWithAttributes`] at the element (their values would be lost).
/// Not generic: one copy serves every struct (the caller returns `Ok(None)` after it).
pub fn nil_without_content<'i>(
    r: &mut XmlReader<'i>,
    start: StartTag<'i>,
    known: &[Name<'_>],
    wildcard: bool,
) -> Result<(), DecodeError> {
    if let Some(a) = r.first_attribute_of(&start, known, wildcard)? {
        return Err(r.error_at(
            DecodeErrorKind::NilWithAttributes(a.to_owned()),
            start.offset(),
        ));
    }
    r.skip_element()
}

/// The content of a derived struct whose `#[xml(text)]` field is `Nillable<T>` (a simpleContent
/// type whose elements may be nil and keep their attributes, XML Schema Part 1 §2.6.2): `Nil` for
/// `xsi:nil="true"` (the element's rest skipped), else the text read as `T`.
#[inline]
pub fn read_nillable_text<'i, T: FromXmlText>(
    r: &mut XmlReader<'i>,
    start: &StartTag<'i>,
) -> Result<Nillable<T>, DecodeError> {
    if r.is_nil(start)? {
        r.skip_element()?;
        return Ok(Nillable::Nil);
    }
    r.read_simple(start).map(Nillable::Value)
}

/// Writes the content of a derived struct whose `#[xml(text)]` field is `Nillable<T>`: `Nil` as
/// `xsi:nil="true"` on the open start tag (after the attributes), a value as text.
#[inline]
pub fn write_nillable_text<T: ToXmlText>(
    w: &mut XmlWriter,
    text: &Nillable<T>,
) -> Result<(), EncodeError> {
    match text {
        Nillable::Nil => w.nil_attribute(),
        Nillable::Value(v) => w.text_value(v),
    }
}

/// [`read_required`] for an element of a simple type whose declaration gives a default or fixed
/// value: empty content reads as `default` (XML Schema Part 1 §3.3.4 item 5.1).
#[inline]
pub fn read_required_or<'i, T: FromXmlText>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
    default: &str,
) -> Result<T, DecodeError> {
    if r.is_nil(&child)? {
        return Err(r.error_at(DecodeErrorKind::UnexpectedNil, child.offset()));
    }
    r.read_simple_or(&child, default)
}

/// [`read_optional`] with a default or fixed value for empty content.
#[inline]
pub fn read_optional_or<'i, T: FromXmlText>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
    default: &str,
) -> Result<Option<T>, DecodeError> {
    if r.is_nil(&child)? {
        r.nil_on_non_nillable(&child)?;
        return Ok(None);
    }
    r.read_simple_or(&child, default).map(Some)
}

/// [`read_nillable`] with a default or fixed value for empty content (a nil element stays nil).
#[inline]
pub fn read_nillable_or<'i, T: FromXmlText>(
    r: &mut XmlReader<'i>,
    child: StartTag<'i>,
    default: &str,
) -> Result<Nillable<T>, DecodeError> {
    if r.is_nil(&child)? {
        return read_nil(r, child);
    }
    r.read_simple_or(&child, default).map(Nillable::Value)
}

/// The value of a required element after the content loop of `parent`, or "missing required element"
/// located at `parent`.
#[inline]
pub fn required<T>(
    r: &XmlReader<'_>,
    parent: &StartTag<'_>,
    slot: Option<T>,
    name: Name<'_>,
) -> Result<T, DecodeError> {
    slot.ok_or_else(|| r.missing_in(parent, name))
}

/// The occurrences of a repeated element after the content loop of `parent`, or "too few" located
/// at `parent` (with it on the path) when there are fewer than `min` (XML Schema Part 1 §3.9.4).
#[inline]
pub fn min_occurs<T>(
    r: &XmlReader<'_>,
    parent: &StartTag<'_>,
    slot: Vec<T>,
    min: u64,
    name: Name<'_>,
) -> Result<Vec<T>, DecodeError> {
    if (slot.len() as u64) < min {
        return Err(too_few(r, parent, name, min, slot.len()));
    }
    Ok(slot)
}

/// "Too few" for the repeated element `name` inside `parent`, found `found` times where
/// `minOccurs` is `min` (XML Schema Part 1 §3.9.4): located at the parent's start tag, with the
/// parent on the path. Not generic: one copy serves every struct.
pub fn too_few(
    r: &XmlReader<'_>,
    parent: &StartTag<'_>,
    name: Name<'_>,
    min: u64,
    found: usize,
) -> DecodeError {
    let mut e = r.missing_in(parent, name);
    e.kind = DecodeErrorKind::TooFewElements {
        element: name.local.to_owned(),
        min,
        found,
    };
    e
}

/// The value of a required attribute, or "missing required attribute".
#[inline]
pub fn required_attribute<T>(
    r: &XmlReader<'_>,
    start: &StartTag<'_>,
    slot: Option<T>,
    name: Name<'_>,
) -> Result<T, DecodeError> {
    slot.ok_or_else(|| {
        r.error_at(
            DecodeErrorKind::MissingAttribute(name.local.to_owned()),
            start.offset(),
        )
    })
}

/// An attribute with a value constraint (XML Schema Part 1 §3.2.1 {value constraint}, §3.2.4
/// Attribute Locally Valid 3 and Schema-Validity Assessment): the value read (`slot`) or, when
/// absent, `literal` (the schema's `default` or `fixed`) read as `T`. With `fixed`, a value that is
/// present must equal it (compared in the value space).
///
/// # Errors
///
/// [`DecodeErrorKind::InvalidValue`] at `…/@name` when the literal is not a `T`, or a present value
/// differs from the fixed one.
pub fn constrained_attribute<T: FromXmlText + PartialEq>(
    r: &XmlReader<'_>,
    start: &StartTag<'_>,
    slot: Option<T>,
    name: Name<'_>,
    literal: &str,
    fixed: bool,
) -> Result<T, DecodeError> {
    let located = |e: crate::error::ValueError| {
        let mut err = r.error_at(DecodeErrorKind::InvalidValue(e), start.offset());
        err.location.path.push_str("/@");
        err.location.path.push_str(name.local);
        err
    };
    let constraint = || {
        T::from_xml_text(literal, r).map_err(|e| {
            located(e.because("the schema's default or fixed value is not of the attribute's type"))
        })
    };
    match slot {
        None => constraint(),
        Some(v) if !fixed || v == constraint()? => Ok(v),
        Some(_) => {
            let text = r
                .attribute(start, name)?
                .map(|c| c.into_owned())
                .unwrap_or_default();
            Err(located(
                crate::error::ValueError::new(name.local.to_owned(), &text)
                    .because(format!("the schema fixes this attribute to {literal:?}")),
            ))
        }
    }
}

/// Writes an empty element with `xsi:nil="true"` (XML Schema Part 1 §2.6.2).
#[inline]
pub fn write_nil(w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError> {
    w.start_element(name)?;
    w.nil_attribute()?;
    w.end_element()
}

/// An enumeration value that is not one of the allowed ones.
pub fn enumeration_error(
    type_name: &'static str,
    text: &str,
    allowed: &'static str,
) -> crate::ValueError {
    crate::ValueError::new(type_name, text).because(format!("expected one of {allowed}"))
}

/// The attachment bound to the WSDL message part `name` of the response `cx` reads (WSDL 1.1
/// §5 `mime:content`), found as [`Attachments::find_part`](crate::mime::Attachments::find_part)
/// says.
///
/// # Errors
///
/// [`DecodeErrorKind::Attachment`] when the response has no such part, naming the Content-IDs
/// it has.
pub fn response_attachment(
    cx: &ResponseContext<'_>,
    name: &str,
    position: usize,
    names: &[&str],
) -> Result<crate::mime::Attachment, DecodeError> {
    match cx.attachments.find_part(name, position, names) {
        Some(part) => Ok(crate::mime::Attachment::from_part(part)),
        None => {
            let ids: Vec<String> = cx
                .attachments
                .iter()
                .map(|p| format!("<{}>", p.content_id.as_deref().unwrap_or("none")))
                .collect();
            let have = if ids.is_empty() {
                "the response has no attachments".to_owned()
            } else {
                format!("the response's attachments are {}", ids.join(", "))
            };
            Err(DecodeError::new(
                DecodeErrorKind::Attachment(format!(
                    "no attachment for the part {name:?} of the {} response (WSDL mime:content; \
                     expected a Content-ID starting with \"{name}=\" or attachment number {}): {have}",
                    cx.operation.name,
                    position + 1
                )),
                crate::error::Location::default(),
            ))
        }
    }
}

/// The error type of a `Result` alias (`Result<T>` with a default error), for a generated method
/// whose declared return type names no error type.
pub trait ResultError {
    /// The `E` of `Result<T, E>`.
    type Error;
}

impl<T, E> ResultError for Result<T, E> {
    type Error = E;
}
