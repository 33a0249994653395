//! xsi:type on derived types, fixed attributes and anyAttribute, with hand-written types through
//! the derives as generated code uses them (XML Schema Part 1 §3.4.6, §3.2.3, §3.10).

use soapgen_runtime::xml::{self, Name, XmlWriter};
use soapgen_runtime::{FromXml, ToXml};

const NS: &str = "urn:probe";

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:probe")]
pub struct Bottom {
    pub id: i32,
    pub bot: String,
}

/// The element's declared type, `Middle`, is abstract: `Bottom` is the only type to read.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(xsi_type, namespace = "urn:probe", rename = "Middle")]
pub enum MiddleKind {
    Bottom(Bottom),
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:probe")]
pub struct Holder {
    pub mid: MiddleKind,
}

/// A fixed attribute (XML Schema Part 1 §3.2.1) and a fixed element (read as its value when
/// present and empty; another value is not checked yet).
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:probe")]
pub struct Fixed {
    #[xml(fixed = "true")]
    pub flag: Option<bool>,
    #[xml(attribute, fixed = "green")]
    pub col: String,
}

#[test]
fn attribute_fixed_other_value_is_refused() {
    let r =
        xml::from_str::<Fixed>(r#"<Fixed xmlns="urn:probe" col="red"><flag>true</flag></Fixed>"#);
    let e = r.unwrap_err();
    assert_eq!(e.location.path, "Fixed/@col");
}

/// The xsi:type errors carry a run of spaces from a broken string continuation in
/// `soapgen-runtime/src/xml/read.rs` ("is                  needed").
#[test]
fn xsi_type_error_messages_have_no_runs_of_spaces() {
    let docs = [
        // no xsi:type on an element of an abstract type
        r#"<Holder xmlns="urn:probe"><mid><id>1</id><bot>b</bot></mid></Holder>"#,
        // an xsi:type that is not derived from the declared type
        r#"<Holder xmlns="urn:probe" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><mid xsi:type="Top"><id>1</id></mid></Holder>"#,
    ];
    for doc in docs {
        let e = xml::from_str::<Holder>(doc).unwrap_err();
        let msg = e.to_string();
        assert_eq!(e.location.path, "Holder/mid");
        assert!(!msg.contains("  "), "{msg}");
    }
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:probe")]
pub struct Open {
    #[xml(attribute)]
    pub bad: Option<i32>,
    #[xml(any_attribute)]
    pub any_attribute: Vec<soapgen_runtime::types::AnyAttribute>,
}

/// `AnyAttribute` names are data, checked when written: a name with `="` would inject markup
/// (`ns2:bad="x="v"`), `xmlns` in no namespace rebinds the default namespace of the element's
/// content, a name already written as a declared attribute duplicates it, and a name in the
/// xmlns namespace binds a reserved namespace. Each must be an `EncodeError`, not a document the
/// reader then refuses (or, for `xmlns`, reads with another meaning).
#[test]
fn any_attribute_names_that_are_not_attribute_names_are_refused_on_write() {
    for (ns, local) in [
        ("urn:o", "bad=\"x"),
        ("", "a b"),
        ("", ""),
        ("", "xmlns"),
        ("", "bad"),
        ("http://www.w3.org/2000/xmlns/", "p"),
    ] {
        let v = Open {
            bad: Some(1),
            any_attribute: vec![soapgen_runtime::types::AnyAttribute {
                namespace: ns.into(),
                local: local.into(),
                value: "v".into(),
            }],
        };
        let mut w = XmlWriter::new();
        let r = v.write_xml(&mut w, Name::new(NS, "Open"));
        assert!(
            r.is_err(),
            "{{{ns}}}{local} written: {:?}",
            w.into_string().map(|s| s.to_string())
        );
    }
}
