//! Model groups through the WSDL route (XML Schema Part 1 §3.8; "Cases that must work"):
//! the client generated at build time from wsdl/groups.wsdl, its types written and read back by the
//! runtime. Choices are generated enums (`Option` of one when optional), repeated choices `Vec`s of
//! them, repeated sequences `Vec`s of generated structs, occurrences kept in document order; an
//! element named twice in one sequence gets two fields, read by position. The same values also go
//! to a gSOAP server built from the same WSDL (tests/peers/gsoap/groups), which decodes them into its
//! own C types and echoes them back.

use soapgen_runtime::xml::{self, Name};

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("groups");
}
use generated::types::*;
use soapgen_tests::peers::echoed;

const NS: &str = "urn:soapgen:groups";

/// The local names of the child elements, in document order.
fn children(xml: &str) -> Vec<String> {
    xml.split('<')
        .skip(2)
        .filter(|t| !t.starts_with('/') && !t.is_empty())
        .filter_map(|t| t.split(['>', ' ', '/']).next())
        .map(|q| q.rsplit(':').next().unwrap_or(q).to_owned())
        .collect()
}

#[test]
fn two_repeated_choices_in_one_sequence_keep_values_from_both() {
    let v = TwoChoices {
        choice: vec![TwoChoicesChoice::B(-3), TwoChoicesChoice::A("x".into())],
        choice2: vec![TwoChoicesChoice2::D(true), TwoChoicesChoice2::C("y".into())],
    };
    let xml = xml::to_string(&v, Name::new(NS, "TwoChoices")).unwrap();
    assert_eq!(children(&xml), ["b", "a", "d", "c"], "{xml}");
    assert_eq!(xml::from_str::<TwoChoices>(&xml).unwrap(), v);
    // Read from a document written by hand, other prefixes, one occurrence of each.
    let doc = r#"<TwoChoices xmlns="urn:soapgen:groups"><a>p</a><c>q</c></TwoChoices>"#;
    assert_eq!(
        xml::from_str::<TwoChoices>(doc).unwrap(),
        TwoChoices {
            choice: vec![TwoChoicesChoice::A("p".into())],
            choice2: vec![TwoChoicesChoice2::C("q".into())],
        }
    );
    // An element of neither choice is an error naming it.
    let e = xml::from_str::<TwoChoices>(
        r#"<TwoChoices xmlns="urn:soapgen:groups"><a>p</a><e/></TwoChoices>"#,
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains('e') && e.contains("TwoChoices"), "{e}");
}

#[test]
fn an_extension_adding_an_optional_choice_of_three_element_references() {
    for colour in ["red", "green", "blue", ""] {
        let xml = match colour {
            "" => r#"<g:Colored xmlns:g="urn:soapgen:groups"><g:id>s1</g:id></g:Colored>"#.to_owned(),
            "red" => r#"<g:Colored xmlns:g="urn:soapgen:groups"><g:id>s1</g:id><g:red>dark</g:red></g:Colored>"#.to_owned(),
            "green" => r#"<g:Colored xmlns:g="urn:soapgen:groups"><g:id>s1</g:id><g:green>7</g:green></g:Colored>"#.to_owned(),
            _ => r#"<g:Colored xmlns:g="urn:soapgen:groups"><g:id>s1</g:id><g:blue>false</g:blue></g:Colored>"#.to_owned(),
        };
        let v: ColoredShape = xml::from_str(&xml).unwrap();
        assert_eq!(v.id, "s1");
        let expected = match colour {
            "" => None,
            "red" => Some(ColoredShapeChoice::Red("dark".into())),
            "green" => Some(ColoredShapeChoice::Green(7)),
            _ => Some(ColoredShapeChoice::Blue(false)),
        };
        assert_eq!(v.choice, expected, "{xml}");
        let back: ColoredShape =
            xml::from_str(&xml::to_string(&v, Name::new(NS, "Colored")).unwrap()).unwrap();
        assert_eq!(back, v);
        let written = xml::to_string(&v, Name::new(NS, "Colored")).unwrap();
        let kids = children(&written);
        assert_eq!(kids.first().map(String::as_str), Some("id"), "{written}");
        if colour.is_empty() {
            assert_eq!(kids.len(), 1, "{written}");
        } else {
            assert_eq!(kids.get(1).map(String::as_str), Some(colour), "{written}");
        }
    }
}

#[test]
fn a_wrapper_with_one_unbounded_child_used_unbounded() {
    let v = Lists {
        list: vec![
            ArrayOfItem {
                item: vec!["a".into(), "b".into()],
            },
            ArrayOfItem { item: vec![] },
            ArrayOfItem {
                item: vec!["c".into()],
            },
        ],
    };
    let xml = xml::to_string(&v, Name::new(NS, "Lists")).unwrap();
    assert_eq!(
        children(&xml),
        ["list", "item", "item", "list", "list", "item"],
        "{xml}"
    );
    assert_eq!(xml::from_str::<Lists>(&xml).unwrap(), v);
}

#[test]
fn a_choice_inside_a_sequence_inside_a_repeated_choice() {
    let v = Nested {
        choice: vec![
            NestedChoice::Plain("p1".into()),
            NestedChoice::Key(NestedChoiceKey {
                key: "k1".into(),
                choice: NestedChoiceKeyChoice::Num(4),
            }),
            NestedChoice::Key(NestedChoiceKey {
                key: "k2".into(),
                choice: NestedChoiceKeyChoice::Text("t".into()),
            }),
            NestedChoice::Plain("p2".into()),
        ],
    };
    let xml = xml::to_string(&v, Name::new(NS, "Nested")).unwrap();
    assert_eq!(
        children(&xml),
        ["plain", "key", "num", "key", "text", "plain"],
        "{xml}"
    );
    assert_eq!(xml::from_str::<Nested>(&xml).unwrap(), v);
    // A num with no key before it has no place; a key without its num or text misses the choice.
    let e = xml::from_str::<Nested>(r#"<Nested xmlns="urn:soapgen:groups"><num>1</num></Nested>"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("num"), "{e}");
    assert!(
        xml::from_str::<Nested>(r#"<Nested xmlns="urn:soapgen:groups"><key>k</key></Nested>"#)
            .is_err()
    );
    // Both alternatives of the inner choice at once: the second has no place.
    assert!(xml::from_str::<Nested>(
        r#"<Nested xmlns="urn:soapgen:groups"><key>k</key><num>1</num><text>t</text></Nested>"#
    )
    .is_err());
}

#[test]
fn a_choice_inside_a_sequence_inside_a_choice() {
    let cases = [
        (
            r#"<Picked xmlns="urn:soapgen:groups"><plain>p</plain></Picked>"#,
            PickedChoice::Plain("p".into()),
        ),
        (
            r#"<Picked xmlns="urn:soapgen:groups"><key>k</key><num>5</num></Picked>"#,
            PickedChoice::Key(PickedChoiceKey {
                key: "k".into(),
                choice: PickedChoiceKeyChoice::Num(5),
            }),
        ),
        (
            r#"<Picked xmlns="urn:soapgen:groups"><key>k</key><text>t</text></Picked>"#,
            PickedChoice::Key(PickedChoiceKey {
                key: "k".into(),
                choice: PickedChoiceKeyChoice::Text("t".into()),
            }),
        ),
    ];
    for (xml, choice) in cases {
        let v: Picked = xml::from_str(xml).unwrap();
        assert_eq!(v.choice, choice, "{xml}");
        let back = xml::to_string(&v, Name::new(NS, "Picked")).unwrap();
        assert_eq!(xml::from_str::<Picked>(&back).unwrap(), v, "{back}");
        assert_eq!(
            children(&back),
            children(xml),
            "{back} written back from {xml}"
        );
    }
    // Two alternatives of a choice that occurs once: the second has no place.
    assert!(xml::from_str::<Picked>(
        r#"<Picked xmlns="urn:soapgen:groups"><plain>p</plain><plain>q</plain></Picked>"#
    )
    .is_err());
    // Nothing at all: the choice is required.
    let e = xml::from_str::<Picked>(r#"<Picked xmlns="urn:soapgen:groups"/>"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("choice"), "{e}");
}

#[test]
fn an_element_twice_in_one_sequence_gets_two_fields_read_by_position() {
    let v = Twice {
        a: "first".into(),
        b: vec!["m".into()],
        a2: Some("second".into()),
        id: Some("i".into()),
    };
    let xml = xml::to_string(&v, Name::new(NS, "Twice")).unwrap();
    assert_eq!(children(&xml), ["a", "b", "a"], "{xml}");
    assert_eq!(xml::from_str::<Twice>(&xml).unwrap(), v);
    let v: Twice =
        xml::from_str(r#"<Twice xmlns="urn:soapgen:groups"><a>1</a><a>2</a></Twice>"#).unwrap();
    assert_eq!(
        (v.a.as_str(), v.b.len(), v.a2.as_deref()),
        ("1", 0, Some("2"))
    );
    assert!(xml::from_str::<Twice>(
        r#"<Twice xmlns="urn:soapgen:groups"><a>1</a><a>2</a><a>3</a></Twice>"#
    )
    .is_err());
}

#[test]
fn a_repeated_sequence_is_a_vec_of_structs_in_document_order() {
    let v = Rows {
        title: "t".into(),
        sequence: vec![
            RowsSequence {
                name: "x".into(),
                value: Some(1.5),
            },
            RowsSequence {
                name: "y".into(),
                value: None,
            },
            RowsSequence {
                name: "z".into(),
                value: Some(-2.0),
            },
        ],
    };
    let xml = xml::to_string(&v, Name::new(NS, "Rows")).unwrap();
    assert_eq!(
        children(&xml),
        ["title", "name", "value", "name", "name", "value"],
        "{xml}"
    );
    assert_eq!(xml::from_str::<Rows>(&xml).unwrap(), v);
    // A value before any name has no occurrence to go to.
    assert!(xml::from_str::<Rows>(
        r#"<Rows xmlns="urn:soapgen:groups"><title>t</title><value>1</value></Rows>"#
    )
    .is_err());
}

/// The value of a call, or a panic with the error and the peer's stderr.
/// Every case above sent to gSOAP (its own decoding of the groups into C unions and arrays) and
/// echoed back: the value read from gSOAP's reply equals the value sent.
#[tokio::test]
async fn gsoap_echoes_every_group_case() {
    let peer = soapgen_tests::peers::gsoap_groups();
    let c = generated::GroupsClient::new(peer.url("/")).unwrap();

    let two = TwoChoices {
        choice: vec![TwoChoicesChoice::B(-3), TwoChoicesChoice::A("x".into())],
        choice2: vec![TwoChoicesChoice2::D(true), TwoChoicesChoice2::C("y".into())],
    };
    assert_eq!(echoed(c.echo_two_choices(two.clone()).await, &peer), two);

    for choice in [
        None,
        Some(ColoredShapeChoice::Red("dark".into())),
        Some(ColoredShapeChoice::Green(7)),
        Some(ColoredShapeChoice::Blue(true)),
    ] {
        let v = ColoredShape {
            id: "s1".into(),
            choice,
        };
        assert_eq!(echoed(c.echo_colored(v.clone()).await, &peer), v);
    }

    let lists = Lists {
        list: vec![
            ArrayOfItem {
                item: vec!["a".into(), "b".into()],
            },
            ArrayOfItem { item: vec![] },
            ArrayOfItem {
                item: vec!["c".into()],
            },
        ],
    };
    assert_eq!(echoed(c.echo_lists(lists.clone()).await, &peer), lists);

    // gSOAP's C type for one occurrence of this choice is a struct with an optional `plain`, an
    // optional `key` and the inner union, written in that order, so it merges a `plain` that
    // follows a `key` into the key's occurrence and writes it first: the value keeps the plains
    // before the keys (the order gSOAP can give back).
    let nested = Nested {
        choice: vec![
            NestedChoice::Plain("p1".into()),
            NestedChoice::Plain("p2".into()),
            NestedChoice::Key(NestedChoiceKey {
                key: "k1".into(),
                choice: NestedChoiceKeyChoice::Num(4),
            }),
            NestedChoice::Key(NestedChoiceKey {
                key: "k2".into(),
                choice: NestedChoiceKeyChoice::Text("t".into()),
            }),
        ],
    };
    assert_eq!(echoed(c.echo_nested(nested.clone()).await, &peer), nested);

    for choice in [
        PickedChoice::Plain("p".into()),
        PickedChoice::Key(PickedChoiceKey {
            key: "k".into(),
            choice: PickedChoiceKeyChoice::Text("t".into()),
        }),
    ] {
        let v = Picked { choice };
        assert_eq!(echoed(c.echo_picked(v.clone()).await, &peer), v);
    }

    let twice = Twice {
        a: "first".into(),
        b: vec!["m".into(), "n".into()],
        a2: Some("second".into()),
        id: Some("i".into()),
    };
    assert_eq!(echoed(c.echo_twice(twice.clone()).await, &peer), twice);

    let rows = Rows {
        title: "t".into(),
        sequence: vec![
            RowsSequence {
                name: "x".into(),
                value: Some(1.5),
            },
            RowsSequence {
                name: "y".into(),
                value: None,
            },
        ],
    };
    assert_eq!(echoed(c.echo_rows(rows.clone()).await, &peer), rows);
}
