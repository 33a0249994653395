//! Nil elements keep their attributes (XML Schema Part 1 §2.6.2, §3.3.4 clause 3.2: a nil element
//! has no content but may have attributes): `<price currency="EUR" xsi:nil="true"/>` reads as a
//! value whose attributes are read and whose content is `Nillable::Nil`, when the type's
//! `#[xml(text)]` field is `Nillable<T>`, and writes back the same. A type that declares the
//! attribute but cannot carry nil content refuses the element with a typed error naming its path.

use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::types::{AnyAttribute, Decimal, Nillable, OptionalNillable};
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{FromXml, ToXml};

const XSI: &str = "http://www.w3.org/2001/XMLSchema-instance";

/// A simpleContent type with an attribute whose content may be nil.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
struct Price {
    #[xml(attribute)]
    currency: Option<String>,
    #[xml(text)]
    value: Nillable<Decimal>,
}

/// The same type with content that cannot be nil.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
struct PlainPrice {
    #[xml(attribute)]
    currency: Option<String>,
    #[xml(text)]
    value: Decimal,
}

/// A complex type with an attribute and an attribute wildcard.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Tagged {
    #[xml(attribute)]
    id: Option<i32>,
    #[xml(any_attribute)]
    other: Vec<AnyAttribute>,
    label: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Quote {
    price: Nillable<Price>,
    alt: OptionalNillable<Price>,
    history: Vec<Nillable<Price>>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct PlainQuote {
    price: Nillable<PlainPrice>,
    simple: OptionalNillable<Decimal>,
    tagged: OptionalNillable<Tagged>,
}

fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

fn eur_nil() -> Price {
    Price {
        currency: Some("EUR".into()),
        value: Nillable::Nil,
    }
}

#[test]
fn a_nil_element_with_attributes_reads_as_a_value_with_nil_content() {
    let xml = format!(
        r#"<t:quote xmlns:t="urn:test" xmlns:xsi="{XSI}"><t:price currency="EUR" xsi:nil="true"/><t:alt xsi:nil="true"/><t:history currency="USD" xsi:nil="1"></t:history><t:history>2.5</t:history><t:history xsi:nil="true"/></t:quote>"#
    );
    let q: Quote = xml::from_str(&xml).unwrap();
    assert_eq!(
        q,
        Quote {
            price: Nillable::Value(eur_nil()),
            // No attributes: plain nil.
            alt: OptionalNillable::Nil,
            history: vec![
                Nillable::Value(Price {
                    currency: Some("USD".into()),
                    value: Nillable::Nil,
                }),
                Nillable::Value(Price {
                    currency: None,
                    value: Nillable::Value(dec("2.5")),
                }),
                Nillable::Nil,
            ],
        }
    );
}

#[test]
fn nil_content_with_attributes_round_trips() {
    let q = Quote {
        price: Nillable::Value(eur_nil()),
        alt: OptionalNillable::Value(Price {
            currency: Some("CHF".into()),
            value: Nillable::Value(dec("1.25")),
        }),
        history: vec![Nillable::Nil, Nillable::Value(eur_nil())],
    };
    let xml = xml::to_string(&q, Name::new("urn:test", "quote")).unwrap();
    // The attribute and xsi:nil on one empty element.
    assert!(
        xml.contains(r#"<ns1:price currency="EUR" xmlns:ns2="http://www.w3.org/2001/XMLSchema-instance" ns2:nil="true"/>"#),
        "{xml}"
    );
    assert!(
        xml.contains(r#"<ns1:alt currency="CHF">1.25</ns1:alt>"#),
        "{xml}"
    );
    assert_eq!(xml::from_str::<Quote>(&xml).unwrap(), q);
    // Written on its own, too.
    let alone = xml::to_string(&eur_nil(), Name::new("urn:test", "price")).unwrap();
    assert_eq!(xml::from_str::<Price>(&alone).unwrap(), eur_nil());
}

#[test]
fn a_type_that_cannot_carry_them_is_a_typed_error_with_the_path() {
    let xml = format!(
        r#"<t:quote xmlns:t="urn:test" xmlns:xsi="{XSI}"><t:price currency="EUR" xsi:nil="true"/></t:quote>"#
    );
    let e = xml::from_str::<PlainQuote>(&xml).unwrap_err();
    assert_eq!(
        e.kind,
        DecodeErrorKind::NilWithAttributes("currency".into()),
        "{e}"
    );
    assert_eq!(e.location.path, "quote/price");
    assert!(e.to_string().contains("Nillable<T>"), "{e}");

    // A complex type: its declared attribute, and one its wildcard takes.
    for (attrs, name) in [(r#"id="4""#, "id"), (r#"t:extra="x""#, "t:extra")] {
        let xml = format!(
            r#"<t:quote xmlns:t="urn:test" xmlns:xsi="{XSI}"><t:price xsi:nil="true"/><t:tagged {attrs} xsi:nil="true"/></t:quote>"#
        );
        let e = xml::from_str::<PlainQuote>(&xml).unwrap_err();
        assert_eq!(
            e.kind,
            DecodeErrorKind::NilWithAttributes(name.into()),
            "{e}"
        );
        assert_eq!(e.location.path, "quote/tagged");
    }
}

#[test]
fn namespace_declarations_and_xsi_attributes_do_not_count() {
    let xml = format!(
        r#"<t:quote xmlns:t="urn:test"><t:price xmlns:i="{XSI}" i:nil="true" i:type="t:PlainPrice"/><t:simple xmlns:xsi="{XSI}" xsi:nil="true" note="ignored"/></t:quote>"#
    );
    let q: PlainQuote = xml::from_str(&xml).unwrap();
    assert_eq!(
        q,
        PlainQuote {
            price: Nillable::Nil,
            // A simple type declares no attributes: an undeclared one is not read here either.
            simple: OptionalNillable::Nil,
            tagged: OptionalNillable::Absent,
        }
    );
}
