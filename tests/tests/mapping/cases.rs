//! Mapping cases (unqualified and unprefixed elements, anyType, xmime, SOAP 1.2 fault Subcodes,
//! occurrence bounds), each from its own WSDL under wsdl/cases/ and generated at build time
//! (tests/build.rs): values written by the generated types, read back and compared, and what is
//! on the wire checked with a DOM nobody here wrote (roxmltree). A gSOAP server built from five of
//! these WSDLs (tests/peers/gsoap/cases) echoes the unqualified, no namespace, anyType and xmime
//! values, sends the SOAP 1.2 fault with a chain of QName Subcodes, and a result with fewer items
//! than its minOccurs; spyne does the latter for `#[soap_client]`.

use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::types::{AnyXml, Base64Binary, QName};
use soapgen_runtime::types::{Decimal, Nillable};
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{soap_client, DecodeError, Error, FromXml, SoapVersion, ToXml};

mod nested_include {
    soapgen_runtime::include_client!("nested_include");
}
mod include_cycle {
    soapgen_runtime::include_client!("include_cycle");
}
mod unqualified {
    soapgen_runtime::include_client!("unqualified");
}
mod no_namespace {
    soapgen_runtime::include_client!("no_namespace");
}
mod xmime {
    soapgen_runtime::include_client!("xmime");
}
mod any_type {
    soapgen_runtime::include_client!("any_type");
}
mod subcode {
    soapgen_runtime::include_client!("subcode");
}
mod min_occurs {
    soapgen_runtime::include_client!("min_occurs");
}

/// Every element of `xml` in document order as (namespace URI or "", local name), resolved by
/// roxmltree.
fn expanded_names(xml: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    doc.descendants()
        .filter(|n| n.is_element())
        .map(|n| {
            let t = n.tag_name();
            (t.namespace().unwrap_or("").to_owned(), t.name().to_owned())
        })
        .collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

/// WSDL → xsd/request.xsd → include elements/Type.xsd: the include is resolved against
/// request.xsd's folder. The decoy elements/Type.xsd beside the WSDL declares a NestedType with
/// only `wrongFile`: the struct literal below would not compile had it been read.
#[test]
fn nested_include_resolves_against_the_including_schema() {
    use nested_include::types::NestedType;
    const NS: &str = "urn:soapgen:cases:include:request";
    let v = NestedType {
        depth: 3,
        label: "from xsd/elements/Type.xsd".into(),
    };
    let xml = xml::to_string(&v, Name::new(NS, "item")).unwrap();
    assert_eq!(
        expanded_names(&xml),
        pairs(&[(NS, "item"), (NS, "depth"), (NS, "label")]),
        "{xml}"
    );
    assert_eq!(xml::from_str::<NestedType>(&xml).unwrap(), v);
    // The decoy's element is unknown to the type that was generated.
    let decoy = format!(r#"<item xmlns="{NS}"><wrongFile>true</wrongFile></item>"#);
    let e = xml::from_str::<NestedType>(&decoy).unwrap_err().to_string();
    assert!(e.contains("wrongFile"), "{e}");
    // The client's signature takes the included type.
    fn takes<C: nested_include::Service>(c: &C, v: NestedType) {
        drop(c.echo(v));
    }
    let _ = takes::<nested_include::ServiceClient>;
}

/// A → B → C → A: each file's components are there once (the types module would not compile with
/// two `FromA`s), and values that go through all three round-trip.
#[test]
fn a_cycle_of_includes_gives_every_component_once() {
    use include_cycle::types::{FromA, FromB, FromC};
    const NS: &str = "urn:soapgen:cases:cycle";
    let v = FromA {
        a: "in a.xsd".into(),
        b: FromB {
            b: -7,
            c: FromC { c: true },
        },
    };
    let xml = xml::to_string(&v, Name::new(NS, "value")).unwrap();
    assert_eq!(
        expanded_names(&xml),
        pairs(&[
            (NS, "value"),
            (NS, "a"),
            (NS, "b"),
            (NS, "b"),
            (NS, "c"),
            (NS, "c")
        ]),
        "{xml}"
    );
    assert_eq!(xml::from_str::<FromA>(&xml).unwrap(), v);
    // The element tagC (c.xsd) in the request element Echo (a.xsd) is a parameter of the client.
    fn takes<C: include_cycle::Service>(c: &C, v: FromA) {
        drop(c.echo(Some("tag".into()), v));
    }
    let _ = takes::<include_cycle::ServiceClient>;
}

/// Local elements unqualified by elementFormDefault (absent) or by form="unqualified" under
/// qualified parents: written in no namespace, read back; the same child in the parent's
/// namespace is refused, the error naming its path.
#[test]
fn unqualified_children_under_a_qualified_parent() {
    use unqualified::types::{Item, Order};
    const NS: &str = "urn:soapgen:cases:unq";
    const Q: &str = "urn:soapgen:cases:unq:q";
    let v = Order {
        id: "o-1".into(),
        note: Some("qualified by form".into()),
        item: vec![
            Item {
                code: "c1".into(),
                name: "first".into(),
            },
            Item {
                code: "c2".into(),
                name: "second".into(),
            },
        ],
    };
    // The parent is a global element of the schema, so qualified.
    let xml = xml::to_string(&v, Name::new(NS, "Order")).unwrap();
    assert_eq!(
        expanded_names(&xml),
        pairs(&[
            (NS, "Order"),
            ("", "id"),
            (NS, "note"),
            ("", "item"),
            ("", "code"),
            (Q, "name"),
            ("", "item"),
            ("", "code"),
            (Q, "name"),
        ]),
        "{xml}"
    );
    assert_eq!(xml::from_str::<Order>(&xml).unwrap(), v);

    // Written by hand with a default namespace on the parent: the unqualified children must undo it.
    let doc = format!(
        r#"<Order xmlns="{NS}"><id xmlns="">o-2</id><note>n</note><item xmlns="" xmlns:q="{Q}"><code>c</code><q:name>x</q:name></item></Order>"#
    );
    let o: Order = xml::from_str(&doc).unwrap();
    assert_eq!((o.id.as_str(), o.item[0].code.as_str()), ("o-2", "c"));

    // `id` in the parent's namespace (qualified where unqualified is declared): refused.
    let doc = format!(
        r#"<o:Order xmlns:o="{NS}"><o:id>o-3</o:id><item><code>c</code><q:name xmlns:q="{Q}">x</q:name></item></o:Order>"#
    );
    let e = xml::from_str::<Order>(&doc).unwrap_err();
    assert!(
        matches!(&e.kind, DecodeErrorKind::UnexpectedElement(n)
            if n.contains("id (expected id in no namespace: the names match, the namespaces differ")),
        "the error says only the namespace differs: {e}"
    );
    assert!(e.location.path.ends_with("Order/id"), "{e}");
    // An element of a name not declared at all: the generic message.
    let doc = format!(r#"<o:Order xmlns:o="{NS}"><idx>o-3</idx></o:Order>"#);
    let e = xml::from_str::<Order>(&doc).unwrap_err();
    assert!(e.to_string().contains("not in the expected content"), "{e}");
    // `code` qualified (form="unqualified" in a qualified schema): refused at Order/item/code.
    let doc = format!(
        r#"<o:Order xmlns:o="{NS}" xmlns:q="{Q}"><id>o-4</id><item><q:code>c</q:code><q:name>x</q:name></item></o:Order>"#
    );
    let e = xml::from_str::<Order>(&doc).unwrap_err();
    assert!(e.location.path.ends_with("Order/item/code"), "{e}");
}

/// A schema without targetNamespace in wsdl:types: its type and the message elements are in no
/// namespace, and values written in no namespace read back.
#[test]
fn a_schema_without_target_namespace_names_nothing_in_a_namespace() {
    use no_namespace::types::Point;
    let v = Point {
        x: 1,
        y: -2,
        label: Some("origin-ish".into()),
    };
    let xml = xml::to_string(&v, Name::new("", "point")).unwrap();
    assert_eq!(
        expanded_names(&xml),
        pairs(&[("", "point"), ("", "x"), ("", "y")]),
        "{xml}"
    );
    assert!(
        !xml.contains("xmlns"),
        "no namespace declared at all: {xml}"
    );
    assert_eq!(xml::from_str::<Point>(&xml).unwrap(), v);
    // Children in some namespace are not the no-namespace ones declared.
    let e = xml::from_str::<Point>(r#"<point xmlns="urn:x"><x>1</x><y>2</y></point>"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains('x'), "{e}");
    // The request element is {}Ping: the client is generated with namespace "".
    fn takes<C: no_namespace::Service>(c: &C, v: Vec<Point>) {
        drop(c.ping(v));
    }
    let _ = takes::<no_namespace::ServiceClient>;
}

/// `xmime:expectedContentTypes` on element and attribute declarations of a schema that does not
/// import the xmime schema: the client generated (this file compiles), the attribute changed
/// nothing: the element is an ordinary base64Binary, the attribute an ordinary string.
#[test]
fn xmime_attributes_without_the_xmime_schema_generate() {
    use xmime::types::Photo;
    const NS: &str = "urn:soapgen:cases:xmime";
    let bytes: Vec<u8> = (0..=255u8).chain([0, 0xff, b'\n']).collect();
    let v = Photo {
        name: "all bytes".into(),
        data: Base64Binary::from(bytes.clone()),
        kind: Some("raw".into()),
    };
    let xml = xml::to_string(&v, Name::new(NS, "photo")).unwrap();
    assert_eq!(
        expanded_names(&xml),
        pairs(&[(NS, "photo"), (NS, "name"), (NS, "data")]),
        "{xml}"
    );
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert_eq!(doc.root_element().attribute("kind"), Some("raw"), "{xml}");
    let back: Photo = xml::from_str(&xml).unwrap();
    assert_eq!(back, v);
    assert_eq!(&back.data.0[..], &bytes[..], "the bytes themselves");
}

/// An element declared with no type, no ref and no content (`blob`, and the global `Note` referred
/// to): anyType, kept as XML with the bindings it needs, written back as it came.
#[test]
fn an_element_without_type_is_any_type_kept_as_xml() {
    use any_type::types::Holder;
    const NS: &str = "urn:soapgen:cases:anytype";
    let v = Holder {
        id: 9,
        blob: AnyXml {
            content: r#"text &amp; <x:thing a="1">in <x:b/>another</x:thing> namespace<y:z/>"#
                .into(),
            bindings: vec![
                ("x".into(), "urn:other".into()),
                ("y".into(), "urn:why".into()),
            ],
        },
        note: Some(AnyXml::text("just text, < and &")),
    };
    let xml = xml::to_string(&v, Name::new(NS, "holder")).unwrap();
    assert_eq!(
        expanded_names(&xml),
        pairs(&[
            (NS, "holder"),
            (NS, "id"),
            (NS, "blob"),
            ("urn:other", "thing"),
            ("urn:other", "b"),
            ("urn:why", "z"),
            (NS, "Note"),
        ]),
        "{xml}"
    );
    let back: Holder = xml::from_str(&xml).unwrap();
    assert_eq!(back.id, 9);
    assert_eq!(back.blob.content, v.blob.content);
    let note = back.note.as_ref().unwrap();
    assert_eq!(note.content, "just text, &lt; and &amp;");
    // The prefixes the content uses are bound as they were.
    for (p, uri) in &v.blob.bindings {
        assert!(
            back.blob.bindings.iter().any(|(q, u)| q == p && u == uri),
            "{p} not bound to {uri} in {:?}",
            back.blob.bindings
        );
    }
    // Written again, it is the same document.
    assert_eq!(xml::to_string(&back, Name::new(NS, "holder")).unwrap(), xml);
    // Absent: the element is required (minOccurs 1), whatever its type.
    let e = xml::from_str::<Holder>(&format!(r#"<holder xmlns="{NS}"><id>1</id></holder>"#))
        .unwrap_err()
        .to_string();
    assert!(e.contains("blob"), "{e}");
}

/// A SOAP 1.2 Sender fault whose Subcode Values are QNames, sent by gSOAP: the client error has the
/// Code and the whole Subcode chain resolved, the prefixes taken from the Envelope and from the
/// Subcode element around the Value.
#[tokio::test]
async fn soap12_fault_subcodes_are_resolved_qnames() {
    const NS: &str = "urn:soapgen:cases:subcode";
    let peer = soapgen_tests::peers::gsoap_cases();
    let c = subcode::SubcodeServiceClient::new(peer.url("/")).unwrap();
    assert_eq!(c.check("fine".into()).await.unwrap(), "fine");
    let qn = |ns: &str, local: &str| QName {
        namespace: Some(ns.to_owned()),
        local_name: local.to_owned(),
    };

    let e = c.check("bad".into()).await.unwrap_err();
    let f = e.fault().unwrap_or_else(|| panic!("expected a fault: {e}"));
    assert_eq!(f.version, SoapVersion::Soap12);
    assert_eq!(f.http_status, Some(400));
    assert_eq!(
        f.code,
        qn(SoapVersion::Soap12.envelope_namespace(), "Sender")
    );
    assert!(f.is_sender());
    assert_eq!(f.subcodes, [qn(NS, "Invalid")]);
    assert_eq!(f.reason, "invalid value: bad");

    let e = c.check("bad deep".into()).await.unwrap_err();
    let f = e.fault().unwrap_or_else(|| panic!("expected a fault: {e}"));
    assert_eq!(
        f.code,
        qn(SoapVersion::Soap12.envelope_namespace(), "Sender")
    );
    assert_eq!(
        f.subcodes,
        [
            qn(NS, "Invalid"),
            qn("urn:soapgen:cases:extra", "TooDeep"),
            qn(NS, "Last"),
        ]
    );
    assert_eq!(f.reason, "invalid value: bad deep");
    // The chain is in the error's text too.
    assert!(e.to_string().contains("Sender/Invalid/TooDeep/Last"), "{e}");
    // And the connection goes on.
    assert_eq!(c.check("again".into()).await.unwrap(), "again");
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
    assert!(e.location.path.ends_with(path), "{e}");
}

/// Generated `Vec` fields keep the schema's minOccurs: fewer occurrences are refused with the
/// element, the expected and the found counts, at the parent's path; the generated unqualified
/// `Order.item` (minOccurs 1 by default) too.
#[test]
fn generated_repeated_fields_refuse_fewer_than_min_occurs() {
    use min_occurs::types::{Readings, ReadingsChoice};
    const NS: &str = "urn:soapgen:cases:min";
    let v = Readings {
        value: vec![1, 2],
        missing: vec![Nillable::Nil],
        choice: vec![ReadingsChoice::High(9), ReadingsChoice::Low(0)],
        note: vec![],
    };
    let xml = xml::to_string(&v, Name::new(NS, "readings")).unwrap();
    assert_eq!(xml::from_str::<Readings>(&xml).unwrap(), v);
    let doc = |body: &str| format!(r#"<readings xmlns="{NS}">{body}</readings>"#);
    let e = xml::from_str::<Readings>(&doc(
        "<value>1</value><missing>3</missing><low>1</low><high>2</high>",
    ))
    .unwrap_err();
    assert_too_few(&e, "value", 2, 1, "readings");
    let e = xml::from_str::<Readings>(&doc(
        "<value>1</value><value>2</value><low>1</low><high>2</high>",
    ))
    .unwrap_err();
    assert_too_few(&e, "missing", 1, 0, "readings");
    let e = xml::from_str::<Readings>(&doc(
        "<value>1</value><value>2</value><missing>3</missing><low>1</low><note>n</note>",
    ))
    .unwrap_err();
    assert_too_few(&e, "choice", 2, 1, "readings");
    let e = xml::from_str::<Readings>(&doc(
        "<value>1</value><value>2</value><missing>3</missing><low>1</low>",
    ))
    .unwrap_err();
    assert_too_few(&e, "choice", 2, 1, "readings");

    use unqualified::types::Order;
    let e =
        xml::from_str::<Order>(r#"<o:Order xmlns:o="urn:soapgen:cases:unq"><id>o</id></o:Order>"#)
            .unwrap_err();
    assert_too_few(&e, "item", 1, 0, "Order");
}

/// spyne's `tns:stringArray`, declared here with `minOccurs="1"` on its items.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct NonEmptyStrings {
    #[xml(min = 1)]
    pub string: Vec<String>,
}

/// spyne's `tns:Person`, with at least two e-mail addresses required.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct TwoMailPerson {
    pub name: String,
    pub age: Option<i64>,
    pub nickname: Option<Nillable<String>>,
    #[xml(min = 2)]
    pub emails: Vec<String>,
    pub address: Option<AnyXml>,
    pub balance: Option<Decimal>,
    pub tags: Option<NonEmptyStrings>,
}

#[soap_client(namespace = "urn:soapgen:test", soap = "1.1")]
pub trait StrictSpyne {
    #[soap(action = "say_hello")]
    async fn say_hello(&self, name: String, times: i64) -> Result<NonEmptyStrings, Error>;
    #[soap(action = "echo_person")]
    async fn echo_person(&self, person: TwoMailPerson) -> Result<TwoMailPerson, Error>;
}

/// The `#[soap_client]` and derive route against spyne: a response with fewer occurrences than a
/// hand-written `#[xml(min = N)]` says is a decode error naming the element, the counts and its
/// path in the Body; enough occurrences read as usual.
#[tokio::test]
async fn soap_client_responses_with_too_few_occurrences_are_refused() {
    let peer = soapgen_tests::peers::spyne();
    let c = StrictSpyneClient::new(peer.url("/soap11")).unwrap();
    assert_eq!(
        c.say_hello("min".into(), 2).await.unwrap().string,
        ["Hello, min", "Hello, min"]
    );
    let e = c.say_hello("min".into(), 0).await.unwrap_err();
    let Error::Decode(d) = &e else {
        panic!("expected a decode error, got {e:?}")
    };
    assert_too_few(d, "string", 1, 0, "say_helloResponse/say_helloResult");

    let person = |emails: &[&str]| TwoMailPerson {
        name: "Grace".into(),
        age: Some(85),
        nickname: None,
        emails: emails.iter().map(|s| (*s).to_owned()).collect(),
        address: None,
        balance: None,
        tags: Some(NonEmptyStrings {
            string: vec!["cobol".into()],
        }),
    };
    let two = person(&["g@example.org", "h@example.org"]);
    assert_eq!(c.echo_person(two.clone()).await.unwrap(), two);
    // Sent with one address (the request is not checked), echoed with one: refused on reading.
    let e = c.echo_person(person(&["g@example.org"])).await.unwrap_err();
    let Error::Decode(d) = &e else {
        panic!("expected a decode error, got {e:?}")
    };
    assert_too_few(d, "emails", 2, 1, "echo_personResult");
}

/// A generated wrapped operation whose result element is repeated with minOccurs 1 (`Repeat`):
/// against gSOAP, which sends no item for `times` 0, the client refuses the response, naming the
/// element, the counts and its path.
#[tokio::test]
async fn generated_client_refuses_a_result_with_too_few_occurrences() {
    let peer = soapgen_tests::peers::gsoap_cases();
    let c = subcode::SubcodeServiceClient::new(peer.url("/")).unwrap();
    assert_eq!(c.repeat("r".into(), 2).await.unwrap(), ["r", "r"]);
    assert_eq!(c.repeat("once".into(), 1).await.unwrap(), ["once"]);
    let e = c.repeat("none".into(), 0).await.unwrap_err();
    let Error::Decode(d) = &e else {
        panic!("expected a decode error, got {e:?}")
    };
    assert_too_few(d, "item", 1, 0, "RepeatResponse");
}

/// `Order` with its `id` in the schema's namespace, where the schema says unqualified.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:cases:unq")]
pub struct QualifiedId {
    pub id: String,
    #[xml(unqualified)]
    pub item: Vec<AnyXml>,
}

#[soap_client(namespace = "urn:soapgen:cases:unq")]
pub trait UnqService {
    #[soap(
        name = "Echo",
        action = "Echo",
        result = "order",
        result_namespace = ""
    )]
    async fn echo(&self, #[soap(namespace = "")] order: QualifiedId) -> Result<QualifiedId, Error>;
}

/// The same values through gSOAP, built from the same WSDLs (tests/peers/gsoap/cases, strict
/// mode: an element where its schema has none is an error there): an order with unqualified
/// children echoed, points in no namespace summed, typeless content echoed as gSOAP keeps it
/// (literal XML), and base64Binary data with its xmime attributes ignored echoed.
#[tokio::test]
async fn the_cases_through_a_gsoap_server_built_from_the_same_wsdls() {
    let peer = soapgen_tests::peers::gsoap_cases();

    use unqualified::types::{Item, Order};
    let order = Order {
        id: "o-9".into(),
        note: Some("through gSOAP".into()),
        item: vec![
            Item {
                code: "c".into(),
                name: "n".into(),
            },
            Item {
                code: "".into(),
                name: "second & last".into(),
            },
        ],
    };
    let c = unqualified::ServiceClient::new(peer.url("/")).unwrap();
    assert_eq!(c.echo(order.clone()).await.unwrap(), order);
    // The peer checks: the same order with `id` qualified is refused, by name.
    let wrong = QualifiedId {
        id: "o-9".into(),
        item: vec![],
    };
    let e = UnqServiceClient::new(peer.url("/"))
        .unwrap()
        .echo(wrong)
        .await
        .unwrap_err();
    let f = e.fault().unwrap_or_else(|| panic!("expected a fault: {e}"));
    assert!(f.is_sender() && f.reason.contains(":id'"), "{f}");

    use no_namespace::types::Point;
    let c = no_namespace::ServiceClient::new(peer.url("/")).unwrap();
    let points = vec![
        Point {
            x: 1,
            y: 2,
            label: Some("a".into()),
        },
        Point {
            x: 30,
            y: -4,
            label: None,
        },
    ];
    assert_eq!(c.ping(points).await.unwrap(), 29);

    use any_type::types::Holder;
    let c = any_type::ServiceClient::new(peer.url("/")).unwrap();
    // gSOAP keeps the content as a string without the bindings in scope at the element, so the
    // content here declares what it uses.
    let blob = r#"text <x:thing xmlns:x="urn:other" a="1">in <x:b/>x</x:thing> &amp; tail"#;
    let holder = Holder {
        id: 1,
        blob: AnyXml {
            content: blob.into(),
            bindings: vec![],
        },
        note: Some(AnyXml::text("a note")),
    };
    let back = c.echo(holder).await.unwrap();
    let contents: Vec<&str> = back.iter().map(|a| a.content.as_str()).collect();
    assert_eq!(contents, [blob, "a note"]);

    use xmime::types::Photo;
    let c = xmime::ServiceClient::new(peer.url("/")).unwrap();
    let bytes: Vec<u8> = (0..=255u8).rev().collect();
    let photo = Photo {
        name: "abc".into(),
        data: Base64Binary::from(bytes.clone()),
        kind: Some("raw".into()),
    };
    let back = c.echo(photo).await.unwrap();
    assert_eq!(back.len(), 3);
    for d in &back {
        assert_eq!(&d.0[..], &bytes[..]);
    }
}

/// One element's information: expanded name, attributes (namespace, local name, value) sorted,
/// namespace declarations left out, and the content (children, text).
#[derive(Debug, PartialEq)]
enum Info {
    Element(String, String, Vec<(String, String, String)>, Vec<Info>),
    Text(String),
}

/// The information set of `xml`'s document element as roxmltree resolves it (Namespaces in XML
/// 1.0 §6: each name's namespace from the declarations in scope, whatever their prefixes or
/// whether they are default declarations).
fn infoset(xml: &str) -> Info {
    fn node(n: roxmltree::Node<'_, '_>) -> Info {
        let mut attrs: Vec<(String, String, String)> = n
            .attributes()
            .map(|a| {
                let ns = a.namespace().unwrap_or("").to_owned();
                (ns, a.name().to_owned(), a.value().to_owned())
            })
            .collect();
        attrs.sort();
        let children = n
            .children()
            .filter_map(|c| {
                if c.is_element() {
                    Some(node(c))
                } else {
                    c.text()
                        .filter(|_| c.is_text())
                        .map(|t| Info::Text(t.to_owned()))
                }
            })
            .collect();
        let t = n.tag_name();
        let ns = t.namespace().unwrap_or("").to_owned();
        Info::Element(ns, t.name().to_owned(), attrs, children)
    }
    let doc = roxmltree::Document::parse(xml).unwrap_or_else(|e| panic!("{e}: {xml}"));
    node(doc.root_element())
}

/// A client writing request payloads with default-namespace declarations
/// (`ClientBuilder::default_namespaces`, Namespaces in XML 1.0 §6.2) against the strict gSOAP
/// server: an order with unqualified children (`xmlns=""` under the qualified wrapper), a child
/// qualified again (`note`, a new `xmlns`) and one in a second namespace (`item/name`) is accepted
/// and echoed, and the request has the same information set as the prefixed one the default
/// client sends.
#[tokio::test]
async fn default_namespace_requests_are_accepted_by_gsoap_and_infoset_equal() {
    use unqualified::types::{Item, Order};
    let peer = soapgen_tests::peers::gsoap_cases();
    let order = Order {
        id: "o-10".into(),
        note: Some("default namespaces".into()),
        item: vec![Item {
            code: "c".into(),
            name: "n < m".into(),
        }],
    };
    let recording = std::sync::Arc::new(soapgen_tests::recording::Recording::new());
    let client = |default_namespaces: bool| {
        let c = soapgen_runtime::Client::builder(peer.url("/"))
            .transport(recording.clone())
            .default_namespaces(default_namespaces)
            .build()
            .unwrap();
        unqualified::ServiceClient::from_client(c)
    };
    let echoed = client(true).echo(order.clone()).await;
    assert_eq!(
        echoed.unwrap_or_else(|e| panic!("{e}\n{}", peer.stderr_output())),
        order
    );
    assert_eq!(client(false).echo(order.clone()).await.unwrap(), order);
    let bodies = recording.requests();
    let (default, prefixed) = (&bodies[0], &bodies[1]);
    assert!(
        default.contains(
            "<soapenv:Body><Echo xmlns=\"urn:soapgen:cases:unq\"><order xmlns=\"\"><id>o-10</id>\
             <note xmlns=\"urn:soapgen:cases:unq\">default namespaces</note><item>\
             <code>c</code><name xmlns=\"urn:soapgen:cases:unq:q\">n &lt; m</name></item>"
        ),
        "{default}"
    );
    assert!(prefixed.contains("<soapenv:Body><tns:Echo>"), "{prefixed}");
    assert_eq!(infoset(default), infoset(prefixed));

    // `soapgen inspect --operation Echo [--default-namespaces]` shows these start tags, with the
    // same prefixes and declarations (its values are placeholders).
    for (sent, flag) in [(default, true), (prefixed, false)] {
        let wsdl = concat!(env!("CARGO_MANIFEST_DIR"), "/wsdl/cases/unqualified.wsdl");
        let mut args = vec!["soapgen", "inspect", wsdl, "--operation", "Echo"];
        if flag {
            args.push("--default-namespaces");
        }
        use clap::Parser;
        let cli = soapgen_cli::Cli::parse_from(args);
        let out = soapgen_cli::run(cli).unwrap();
        let sample =
            &out[out.find("<soapenv:Envelope").unwrap()..out.find("</soapenv:Envelope>").unwrap()];
        assert_eq!(start_tags(sample), start_tags(sent), "{sample}\n{sent}");
    }
}

/// The start tags of `xml` with their names and namespace declarations only (attribute values
/// and content left out), comments and the XML declaration skipped.
fn start_tags(xml: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        if rest.starts_with(['/', '!', '?']) {
            continue;
        }
        let end = rest.find('>').unwrap();
        let tag = rest[..end].trim_end_matches('/');
        let mut parts = tag.split_whitespace();
        let mut kept = vec![parts.next().unwrap_or_default().to_owned()];
        kept.extend(parts.filter(|a| a.starts_with("xmlns")).map(str::to_owned));
        out.push(kept.join(" "));
        rest = &rest[end..];
    }
    out
}
