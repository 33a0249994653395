//! SOAP 1.1 §5 encoding (rpc/encoded): the `xsi:type` of values and SOAP-ENC arrays.
//!
//! - [`EncodedType`]: the XSD type a Rust type is written as, for the `xsi:type` attribute that
//!   rpc/encoded parts carry (SOAP 1.1 §5.1 rule 2, §7.1) and for `soapenc:arrayType`.
//! - [`SoapArray`]: a SOAP-ENC array (SOAP 1.1 §5.4.2), a `Vec<T>` written as
//!   `<name xsi:type="soapenc:Array" soapenc:arrayType="ns:T[n]"><item>…</item>…</name>` and read
//!   whatever its items are named.
//!
//! Multi-reference values (`href`/`id`, §5.4.1) are resolved before decoding; see
//! the envelope reader.

use std::ops::{Deref, DerefMut};

use crate::error::{DecodeError, EncodeError};
use crate::xml::{FromXml, Name, StartTag, ToXml, XmlReader, XmlWriter};

/// The SOAP 1.1 encoding namespace (SOAP 1.1 §5), also the `encodingStyle` URI of rpc/encoded.
pub const SOAP_ENC_NS: &str = "http://schemas.xmlsoap.org/soap/encoding/";

/// The XML Schema namespace, for built-in type names in `xsi:type` values.
pub const XSD_NS: &str = "http://www.w3.org/2001/XMLSchema";

/// The XSD type a value is written as in SOAP 1.1 §5 encoding: the `xsi:type` of an rpc/encoded part
/// and the item type in a SOAP-ENC array's `soapenc:arrayType`.
///
/// Implemented for the built-in types; generated code implements it for the types of an
/// rpc/encoded WSDL (`{namespace}name` of their complexType or simpleType). `None`: no named type
/// (anonymous types, `anyType` content), written without `xsi:type`.
pub trait EncodedType {
    /// The type's expanded name, or `None`.
    fn xsi_type() -> Option<Name<'static>>;
}

macro_rules! encoded_builtin {
    ($($ty:ty => $local:literal),* $(,)?) => {$(
        impl EncodedType for $ty {
            fn xsi_type() -> Option<Name<'static>> {
                Some(Name::new(XSD_NS, $local))
            }
        }
    )*};
}

encoded_builtin! {
    String => "string",
    bool => "boolean",
    f32 => "float",
    f64 => "double",
    i8 => "byte",
    i16 => "short",
    i32 => "int",
    i64 => "long",
    u8 => "unsignedByte",
    u16 => "unsignedShort",
    u32 => "unsignedInt",
    u64 => "unsignedLong",
    super::Decimal => "decimal",
    super::Integer => "integer",
    super::DateTime => "dateTime",
    super::Date => "date",
    super::Time => "time",
    super::Duration => "duration",
    super::GYear => "gYear",
    super::GYearMonth => "gYearMonth",
    super::GMonth => "gMonth",
    super::GMonthDay => "gMonthDay",
    super::GDay => "gDay",
    super::Base64Binary => "base64Binary",
    super::HexBinary => "hexBinary",
    super::QName => "QName",
}

impl EncodedType for super::AnyXml {
    fn xsi_type() -> Option<Name<'static>> {
        None
    }
}

impl EncodedType for super::SwaRef {
    fn xsi_type() -> Option<Name<'static>> {
        Some(Name::new(super::SWAREF_NS, "swaRef"))
    }
}

impl<T: EncodedType> EncodedType for super::List<T> {
    fn xsi_type() -> Option<Name<'static>> {
        None
    }
}

impl<T: EncodedType + ?Sized> EncodedType for Box<T> {
    fn xsi_type() -> Option<Name<'static>> {
        T::xsi_type()
    }
}

impl<T: EncodedType> EncodedType for Option<T> {
    fn xsi_type() -> Option<Name<'static>> {
        T::xsi_type()
    }
}

impl<T: EncodedType> EncodedType for super::Nillable<T> {
    fn xsi_type() -> Option<Name<'static>> {
        T::xsi_type()
    }
}

impl<T: EncodedType> EncodedType for super::OptionalNillable<T> {
    fn xsi_type() -> Option<Name<'static>> {
        T::xsi_type()
    }
}

impl<T> EncodedType for SoapArray<T> {
    fn xsi_type() -> Option<Name<'static>> {
        Some(Name::new(SOAP_ENC_NS, "Array"))
    }
}

/// Writes `value` as the element `name` with `xsi:type` naming its [`EncodedType`] (SOAP 1.1 §5.1
/// rule 2: the accessor of an rpc/encoded part states its type). Used by `#[soap_client]` for
/// operations with `encoded`.
///
/// # Errors
///
/// Whatever `value` reports.
pub fn write_typed<T: ToXml + EncodedType + ?Sized>(
    w: &mut XmlWriter,
    name: Name<'_>,
    value: &T,
) -> Result<(), EncodeError> {
    if let Some(t) = T::xsi_type() {
        w.type_next_element(t);
    }
    let r = value.write_xml(w, name);
    w.type_next_element_clear();
    r
}

/// A SOAP-ENC array (SOAP 1.1 §5.4.2): the values of an rpc/encoded array type (a complexType
/// restricting `soapenc:Array` with `wsdl:arrayType="ns:T[]"`), in order.
///
/// Written as `<name xsi:type="soapenc:Array" soapenc:arrayType="ns:T[n]">` with one `<item>` per
/// value (unqualified, §5.4.2: the item names are not significant). Read from any child elements,
/// whatever their names; `soapenc:offset` and `soapenc:position` (partial and sparse arrays,
/// §5.4.2.1–2) are ignored: the values are taken in document order. Multi-dimensional arrays are
/// read as a flat list. It dereferences to the `Vec<T>`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct SoapArray<T>(pub Vec<T>);

impl<T> SoapArray<T> {
    /// The values.
    pub fn into_vec(self) -> Vec<T> {
        self.0
    }
}

impl<T> Deref for SoapArray<T> {
    type Target = Vec<T>;
    fn deref(&self) -> &Vec<T> {
        &self.0
    }
}

impl<T> DerefMut for SoapArray<T> {
    fn deref_mut(&mut self) -> &mut Vec<T> {
        &mut self.0
    }
}

impl<T> From<Vec<T>> for SoapArray<T> {
    fn from(v: Vec<T>) -> Self {
        SoapArray(v)
    }
}

impl<T> From<SoapArray<T>> for Vec<T> {
    fn from(a: SoapArray<T>) -> Self {
        a.0
    }
}

impl<T> FromIterator<T> for SoapArray<T> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        SoapArray(iter.into_iter().collect())
    }
}

impl<T> IntoIterator for SoapArray<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<T: ToXml + EncodedType> ToXml for SoapArray<T> {
    fn write_xml(&self, w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError> {
        w.type_next_element_clear();
        w.start_element(name)?;
        w.attribute_qname(Name::new(crate::xml::XSI_NS, "type"), SOAP_ENC_NS, "Array")?;
        let item = T::xsi_type().unwrap_or(Name::new(XSD_NS, "anyType"));
        let local = format!("{}[{}]", item.local, self.0.len());
        w.attribute_qname(Name::new(SOAP_ENC_NS, "arrayType"), item.namespace, &local)?;
        for v in &self.0 {
            v.write_xml(w, Name::unqualified("item"))?;
        }
        w.end_element()
    }
}

impl<T: FromXml> FromXml for SoapArray<T> {
    fn read_xml<'i>(r: &mut XmlReader<'i>, start: StartTag<'i>) -> Result<Self, DecodeError> {
        let _ = start;
        let mut out = Vec::new();
        while let Some(child) = r.next_child()? {
            out.push(T::read_xml(r, child)?);
        }
        Ok(SoapArray(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrays_round_trip_with_array_type() {
        let mut w = XmlWriter::new();
        let a: SoapArray<String> = vec!["a".to_owned(), "b".to_owned()].into();
        w.start_element(Name::new("urn:t", "op")).unwrap();
        write_typed(&mut w, Name::unqualified("names"), &a).unwrap();
        write_typed(&mut w, Name::unqualified("n"), &7i32).unwrap();
        w.end_element().unwrap();
        let xml = w.into_string().unwrap();
        assert!(
            xml.contains(r#"xsi:type="ns3:Array""#) || xml.contains(":Array\""),
            "{xml}"
        );
        assert!(xml.contains(":string[2]\""), "{xml}");
        assert!(xml.contains("<item>a</item><item>b</item>"), "{xml}");
        assert!(xml.contains(r#"<n xmlns:"#) || xml.contains("<n "), "{xml}");
        assert!(xml.contains(":int\">7</n>"), "{xml}");
        // Read back, items named otherwise.
        let doc = r#"<a xmlns:x="urn:x"><x:v>1</x:v><whatever>2</whatever></a>"#;
        let mut r = XmlReader::new(doc);
        let root = r.root().unwrap();
        let v = SoapArray::<i32>::read_xml(&mut r, root).unwrap();
        assert_eq!(v.0, vec![1, 2]);
    }
}
