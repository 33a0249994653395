//! The derives for model groups (XML Schema Part 1 §3.8): a choice as an enum, a repeated choice as a
//! `Vec` of it, a repeated sequence as a `Vec` of a `#[xml(sequence)]` struct, an element appearing
//! twice in one sequence read by position; write → read round trips, document order kept, and decode
//! errors (never panics) for content that does not fit.

use proptest::prelude::*;
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{FromXml, ToXml};

/// `<xs:sequence><xs:element name="x"/><xs:element name="y" minOccurs="0"/></xs:sequence>`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:g", sequence)]
struct Pair {
    x: i32,
    y: Option<String>,
}

/// `<xs:choice><xs:element name="a"/><xs:element name="b" maxOccurs="3"/><xs:sequence>x, y?</xs:sequence></xs:choice>`.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:g")]
enum Alt {
    #[xml(rename = "a")]
    A(String),
    #[xml(rename = "b")]
    B(Vec<i32>),
    #[xml(group)]
    Pair(Pair),
}

/// A repeated choice between two others, then a repeated sequence, then one element.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:g")]
struct Holder {
    #[xml(group)]
    alts: Vec<Alt>,
    #[xml(group)]
    one: Option<Alt>,
    tail: String,
}

/// `<a/><b/><a/>`: the same element twice in one sequence, fields by position.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:g", sequence)]
struct Twice {
    #[xml(attribute)]
    id: Option<String>,
    #[xml(rename = "a")]
    a1: String,
    b: Vec<String>,
    #[xml(rename = "a")]
    a2: Option<String>,
}

#[test]
fn a_repeated_choice_keeps_document_order() {
    let h = Holder {
        alts: vec![
            Alt::B(vec![1, 2]),
            Alt::A("s".into()),
            Alt::Pair(Pair { x: 7, y: None }),
            Alt::Pair(Pair {
                x: 8,
                y: Some("z".into()),
            }),
            Alt::A("t".into()),
        ],
        one: None,
        tail: "end".into(),
    };
    let xml = xml::to_string(&h, Name::new("urn:g", "Holder")).unwrap();
    let order: Vec<&str> = xml
        .split('<')
        .filter(|t| !t.starts_with('/') && !t.is_empty())
        .map(|t| t.split(['>', ' ']).next().unwrap_or(""))
        .map(|q| q.rsplit(':').next().unwrap_or(q))
        .collect();
    assert_eq!(
        order,
        ["Holder", "b", "b", "a", "x", "x", "y", "a", "tail"],
        "{xml}"
    );
    let back: Holder = xml::from_str(&xml).unwrap();
    // The adjacent Pairs x=7 and x=8,y=z read back as written: x starts a new Pair once the first has
    // passed its x.
    assert_eq!(back, h);
}

#[test]
fn an_element_twice_in_one_sequence_is_read_by_position() {
    let t = Twice {
        id: Some("i".into()),
        a1: "first".into(),
        b: vec!["m".into(), "n".into()],
        a2: Some("second".into()),
    };
    let xml = xml::to_string(&t, Name::new("urn:g", "Twice")).unwrap();
    assert_eq!(xml::from_str::<Twice>(&xml).unwrap(), t);
    let t2 = Twice {
        id: None,
        a1: "only".into(),
        b: vec![],
        a2: Some("again".into()),
    };
    assert_eq!(
        xml::from_str::<Twice>(&xml::to_string(&t2, Name::new("urn:g", "Twice")).unwrap()).unwrap(),
        t2
    );
    // A third <a> has no place: an error with the path, not a panic.
    let e = xml::from_str::<Twice>(
        r#"<g:Twice xmlns:g="urn:g"><g:a>1</g:a><g:a>2</g:a><g:a>3</g:a></g:Twice>"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("Twice"), "{e}");
    // Out of order: b before the first a.
    assert!(xml::from_str::<Twice>(
        r#"<g:Twice xmlns:g="urn:g"><g:b>1</g:b><g:a>2</g:a></g:Twice>"#
    )
    .is_err());
}

#[test]
fn a_missing_required_element_of_a_group_is_an_error() {
    // A Pair alternative without its x: <y> alone does not start a Pair (x is required first).
    let e = xml::from_str::<Holder>(
        r#"<g:Holder xmlns:g="urn:g"><g:y>q</g:y><g:tail>t</g:tail></g:Holder>"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains('y'), "{e}");
    let e = xml::from_str::<Holder>(r#"<g:Holder xmlns:g="urn:g"><g:a>q</g:a></g:Holder>"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("tail"), "{e}");
}

fn alt() -> impl Strategy<Value = Alt> {
    prop_oneof![
        "[a-z]{0,4}".prop_map(Alt::A),
        prop::collection::vec(any::<i32>(), 1..4).prop_map(Alt::B),
        (any::<i32>(), prop::option::of("[a-z]{0,3}")).prop_map(|(x, y)| Alt::Pair(Pair { x, y })),
    ]
}

proptest! {
    #[test]
    fn groups_round_trip(alts in prop::collection::vec(alt(), 0..6), tail in "[a-z]{0,5}") {
        // Two adjacent B alternatives read back as one (b, b are one repeated element); the
        // schema cannot tell them apart either, so merge them before comparing.
        let mut expected: Vec<Alt> = Vec::new();
        for a in alts.clone() {
            match (expected.last_mut(), a) {
                (Some(Alt::B(prev)), Alt::B(more)) => prev.extend(more),
                (_, a) => expected.push(a),
            }
        }
        let h = Holder { alts, one: None, tail };
        let back: Holder = xml::from_str(&xml::to_string(&h, Name::new("urn:g", "Holder")).unwrap()).unwrap();
        prop_assert_eq!(back, Holder { alts: expected, ..h });
    }

    #[test]
    fn arbitrary_children_never_panic(names in prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("x"), Just("y"), Just("tail"), Just("zz")], 0..8)) {
        let mut xml = String::from(r#"<g:Holder xmlns:g="urn:g">"#);
        for n in &names {
            xml.push_str(&format!("<g:{n}>1</g:{n}>"));
        }
        xml.push_str("</g:Holder>");
        let _ = xml::from_str::<Holder>(&xml);
        let _ = xml::from_str::<Twice>(&xml.replace("Holder", "Twice"));
    }
}

/// `<xs:choice maxOccurs="unbounded"><xs:element name="k"/><xs:any/></xs:choice>` (as in
/// xmldsig's X509Data): named alternatives first, the wildcard takes the rest.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:g")]
enum KeyOrAny {
    #[xml(rename = "k")]
    K(String),
    #[xml(any)]
    Any(soapgen_runtime::types::AnyElement),
}

/// A repeated wildcard choice, then a named element the wildcard must not swallow, then a wildcard
/// field by position.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:g", sequence)]
struct Wild {
    #[xml(group)]
    items: Vec<KeyOrAny>,
    end: String,
    #[xml(any)]
    rest: Vec<soapgen_runtime::types::AnyElement>,
}

#[test]
fn wildcards_take_what_no_named_element_takes() {
    let xml = r#"<g:Wild xmlns:g="urn:g" xmlns:o="urn:o"><g:k>1</g:k><o:x>2</o:x><g:k>3</g:k><g:end>e</g:end><o:y/><o:z/></g:Wild>"#;
    let w: Wild = xml::from_str(xml).unwrap();
    assert_eq!(w.items.len(), 3, "{w:?}");
    assert_eq!(w.items[0], KeyOrAny::K("1".into()));
    assert!(
        matches!(&w.items[1], KeyOrAny::Any(a) if a.xml.contains("o:x")),
        "{w:?}"
    );
    assert_eq!(w.items[2], KeyOrAny::K("3".into()));
    assert_eq!(w.end, "e");
    assert_eq!(w.rest.len(), 2, "{w:?}");
    // Written back in the same order (an AnyElement carries the bindings in scope where it was
    // read, so its text gains the writer's prefix declaration: compare the shape).
    let back: Wild =
        xml::from_str(&xml::to_string(&w, Name::new("urn:g", "Wild")).unwrap()).unwrap();
    assert_eq!(back.items.len(), 3, "{back:?}");
    assert_eq!(back.items[2], KeyOrAny::K("3".into()));
    assert!(
        matches!(&back.items[1], KeyOrAny::Any(a) if a.xml.contains(">2</o:x>")),
        "{back:?}"
    );
    assert_eq!((back.end.as_str(), back.rest.len()), ("e", 2));
}
