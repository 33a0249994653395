//! `#[xml(min = N)]` on `Vec` fields (XML Schema Part 1 §3.9.1 minOccurs, §3.9.4 Element Sequence
//! Locally Valid): reading refuses fewer than N occurrences with `TooFewElements`, naming the
//! element, the expected and the found counts, at the parent's path; N or more read and round-trip.
//! Covered: an element field read by name, a nillable one, a repeated group (choice enum), and an
//! element field of a positional (`sequence`) struct.

use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::types::Nillable;
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{DecodeError, FromXml, ToXml};

const NS: &str = "urn:min";

/// `<xs:element name="v" minOccurs="2" maxOccurs="unbounded"/>`, `<xs:element name="n"
/// nillable="true" maxOccurs="unbounded"/>` (minOccurs 1 by default), and a plain `Vec` with no
/// bound.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:min")]
struct Bounded {
    #[xml(min = 2)]
    v: Vec<i32>,
    #[xml(min = 1)]
    n: Vec<Nillable<String>>,
    any_number: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:min")]
enum Shape {
    #[xml(rename = "square")]
    Square(i32),
    #[xml(rename = "circle")]
    Circle(i32),
}

/// `<xs:choice minOccurs="2" maxOccurs="unbounded">`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:min")]
struct Drawing {
    #[xml(group, min = 2)]
    shapes: Vec<Shape>,
}

/// `<a/><b minOccurs="2" maxOccurs="3"/><a/>`: one name twice, read by position.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:min", sequence)]
struct Sandwich {
    a: String,
    #[xml(min = 2)]
    b: Vec<i32>,
    #[xml(rename = "a")]
    a2: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:min")]
struct Lunch {
    #[xml(group)]
    sandwich: Sandwich,
}

#[track_caller]
fn assert_too_few(e: &DecodeError, element: &str, min: u64, found: usize, path: &str) {
    assert_eq!(
        e.kind,
        DecodeErrorKind::TooFewElements {
            element: element.to_owned(),
            min,
            found
        },
        "{e}"
    );
    assert_eq!(e.location.path, path, "{e}");
    let text = e.to_string();
    assert!(
        text.contains(&format!("{element} occurs {found} times"))
            && text.contains(&format!("minOccurs of {min}")),
        "{text}"
    );
}

#[test]
fn element_fields_refuse_fewer_than_min() {
    let ok = Bounded {
        v: vec![1, 2, 3],
        n: vec![Nillable::Nil],
        any_number: vec![],
    };
    let xml = xml::to_string(&ok, Name::new(NS, "Bounded")).unwrap();
    assert_eq!(xml::from_str::<Bounded>(&xml).unwrap(), ok);
    let exactly = Bounded {
        v: vec![1, 2],
        n: vec![Nillable::Value("x".into())],
        any_number: vec![],
    };
    assert_eq!(
        xml::from_str::<Bounded>(&xml::to_string(&exactly, Name::new(NS, "Bounded")).unwrap())
            .unwrap(),
        exactly
    );

    let e = xml::from_str::<Bounded>(r#"<Bounded xmlns="urn:min"><v>1</v><n>x</n></Bounded>"#)
        .unwrap_err();
    assert_too_few(&e, "v", 2, 1, "Bounded");
    let e = xml::from_str::<Bounded>(r#"<Bounded xmlns="urn:min"/>"#).unwrap_err();
    assert_too_few(&e, "v", 2, 0, "Bounded");
    // A nil occurrence counts as one; none at all does not.
    let e = xml::from_str::<Bounded>(r#"<Bounded xmlns="urn:min"><v>1</v><v>2</v></Bounded>"#)
        .unwrap_err();
    assert_too_few(&e, "n", 1, 0, "Bounded");
    // Nested: the path leads to the parent that lacks them.
    #[derive(Debug, PartialEq, FromXml)]
    #[xml(namespace = "urn:min")]
    struct Outer {
        inner: Bounded,
    }
    let e = xml::from_str::<Outer>(
        r#"<Outer xmlns="urn:min"><inner><v>1</v><v>2</v><v>3</v></inner></Outer>"#,
    )
    .unwrap_err();
    assert_too_few(&e, "n", 1, 0, "Outer/inner");
}

#[test]
fn a_repeated_group_refuses_fewer_than_min() {
    let ok = Drawing {
        shapes: vec![Shape::Circle(1), Shape::Square(2)],
    };
    assert_eq!(
        xml::from_str::<Drawing>(&xml::to_string(&ok, Name::new(NS, "Drawing")).unwrap()).unwrap(),
        ok
    );
    let e = xml::from_str::<Drawing>(r#"<Drawing xmlns="urn:min"><circle>1</circle></Drawing>"#)
        .unwrap_err();
    assert_too_few(&e, "shapes", 2, 1, "Drawing");
}

#[test]
fn a_positional_field_refuses_fewer_than_min() {
    let ok = Lunch {
        sandwich: Sandwich {
            a: "top".into(),
            b: vec![1, 2],
            a2: Some("bottom".into()),
        },
    };
    let xml = xml::to_string(&ok, Name::new(NS, "Lunch")).unwrap();
    assert_eq!(xml::from_str::<Lunch>(&xml).unwrap(), ok);
    // One b: too few.
    let e = xml::from_str::<Lunch>(r#"<Lunch xmlns="urn:min"><a>t</a><b>1</b><a>u</a></Lunch>"#)
        .unwrap_err();
    assert_too_few(&e, "b", 2, 1, "Lunch");
    // No b at all: the second a is the last field's, and b is missing.
    let e =
        xml::from_str::<Lunch>(r#"<Lunch xmlns="urn:min"><a>t</a><a>u</a></Lunch>"#).unwrap_err();
    assert_too_few(&e, "b", 2, 0, "Lunch");
    let e = xml::from_str::<Lunch>(r#"<Lunch xmlns="urn:min"><a>t</a></Lunch>"#).unwrap_err();
    assert_too_few(&e, "b", 2, 0, "Lunch");
}
