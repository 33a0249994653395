//! Substitution groups and abstract elements through the WSDL route (XML Schema Part 1 §3.3.6,
//! §2.2.2.3; "an abstract head element with two substitution members, referenced inside
//! xs:all"): the client generated at build time from wsdl/substitution.wsdl, its types written and
//! read back by the runtime. A reference to a head is a generated enum with one variant per element
//! of the group (the head unless abstract, every member transitively, members declared in another
//! namespace's schema too); the reference's occurrence bounds make it `Option` or `Vec`.

use soapgen_runtime::xml::{self, Name, XmlReader};

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("substitution");
}
use generated::types::*;

const NS: &str = "urn:soapgen:subst";
const EXT: &str = "urn:soapgen:subst:ext";

/// The (namespace, local name) of the child elements, in document order, read back with the
/// runtime's own reader so prefixes do not matter.
fn children(xml: &str) -> Vec<(String, String)> {
    let mut r = XmlReader::new(xml);
    r.root().unwrap();
    let mut out = Vec::new();
    while let Some(child) = r.next_child().unwrap() {
        out.push((r.namespace_str(&child), child.local_name().to_owned()));
        r.skip_element().unwrap();
    }
    out
}

fn circle(name: &str, radius: f64) -> CircleType {
    CircleType {
        name: name.into(),
        radius,
    }
}

fn square(name: &str, side: i32) -> SquareType {
    SquareType {
        name: name.into(),
        side,
    }
}

#[test]
fn each_member_of_an_abstract_head_inside_xs_all_round_trips() {
    let cases = [
        (DrawingShape::Circle(circle("c", 1.5)), NS, "Circle"),
        (DrawingShape::Square(square("s", 4)), NS, "Square"),
        // A member of a member (Square is itself a head).
        (DrawingShape::Cube(square("k", -2)), NS, "Cube"),
        // A member of an abstract member declared in the other namespace's schema.
        (DrawingShape::Sphere(circle("o", 0.25)), EXT, "Sphere"),
    ];
    for (shape, ns, local) in cases {
        let v = Drawing {
            title: "t".into(),
            shape,
        };
        let xml = xml::to_string(&v, Name::new(NS, "Drawing")).unwrap();
        assert_eq!(
            children(&xml),
            [
                (NS.to_owned(), "title".to_owned()),
                (ns.to_owned(), local.to_owned())
            ],
            "{xml}"
        );
        assert_eq!(xml::from_str::<Drawing>(&xml).unwrap(), v, "{xml}");
    }
}

#[test]
fn xs_all_reads_the_member_before_the_other_element() {
    let doc = r#"<d:Drawing xmlns:d="urn:soapgen:subst" xmlns:x="urn:soapgen:subst:ext">
        <x:Sphere><d:name>ball</d:name><d:radius>2</d:radius></x:Sphere><d:title>first</d:title></d:Drawing>"#;
    assert_eq!(
        xml::from_str::<Drawing>(doc).unwrap(),
        Drawing {
            title: "first".into(),
            shape: DrawingShape::Sphere(circle("ball", 2.0)),
        }
    );
}

#[test]
fn the_abstract_head_itself_and_a_missing_member_are_errors() {
    // An abstract element may not appear in an instance (§3.3.4 Element Locally Valid, 1.2).
    let head = r#"<Drawing xmlns="urn:soapgen:subst"><title>t</title><Shape><name>n</name></Shape></Drawing>"#;
    let e = xml::from_str::<Drawing>(head).unwrap_err();
    assert!(e.to_string().contains("Shape"), "{e}");
    // The abstract member in the other namespace is not an alternative either.
    let solid = r#"<Drawing xmlns="urn:soapgen:subst"><title>t</title><Solid xmlns="urn:soapgen:subst:ext"><name xmlns="urn:soapgen:subst">n</name></Solid></Drawing>"#;
    assert!(xml::from_str::<Drawing>(solid).is_err());
    // The reference has minOccurs 1: one member is required.
    let none = r#"<Drawing xmlns="urn:soapgen:subst"><title>t</title></Drawing>"#;
    assert!(xml::from_str::<Drawing>(none).is_err());
}

#[test]
fn a_repeated_concrete_head_keeps_head_and_member_in_document_order() {
    let v = Board {
        label: vec![
            BoardLabel::Caption("below".into()),
            BoardLabel::Label("one".into()),
            BoardLabel::Caption("above".into()),
        ],
        shape: None,
    };
    let xml = xml::to_string(&v, Name::new(NS, "Board")).unwrap();
    assert_eq!(
        children(&xml),
        [
            (EXT.to_owned(), "Caption".to_owned()),
            (NS.to_owned(), "Label".to_owned()),
            (EXT.to_owned(), "Caption".to_owned()),
        ],
        "{xml}"
    );
    assert_eq!(xml::from_str::<Board>(&xml).unwrap(), v);
    let with_shape = Board {
        label: vec![BoardLabel::Label("l".into())],
        shape: Some(BoardShape::Cube(square("q", 9))),
    };
    let xml = xml::to_string(&with_shape, Name::new(NS, "Board")).unwrap();
    assert_eq!(xml::from_str::<Board>(&xml).unwrap(), with_shape, "{xml}");
}
