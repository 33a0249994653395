//! Every XSD kind against a live peer: the client generated at build time from
//! wsdl/kinds.wsdl (document/literal wrapped, one `EchoX(v)` per kind) calls a gSOAP server built
//! by `wsdl2h -c -d` + soapcpp2 from the same WSDL (tests/peers/gsoap/kinds), which decodes `v`
//! into its own C types and encodes it back. Each test sends values and compares the echo with
//! what was sent; where gSOAP's model of a kind loses or changes something, the test says so and
//! pins what gSOAP gives back instead.
//!
//! Kinds: substitution groups (an abstract head, a member in an imported namespace; in a sequence,
//! inside `xs:all`, repeated), complexContent extension and restriction, enumerations whose values
//! are not Rust identifiers, list and union types, facets, nillable (absent, nil, present; on a
//! simpleContent type too), default and fixed values, `xs:any` and `xs:anyAttribute`, mixed
//! content, `xs:anyType` and an element with no type, one name in two namespaces, `Foo` and `foo`,
//! an attributeGroup reference.

use soapgen_runtime::types::{
    AnyAttribute, AnyElement, AnyXml, Decimal, List, Nillable, OptionalNillable,
};
use soapgen_tests::peers::{gsoap_kinds, Peer};

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("kinds");
}
use generated::types::*;
use generated::KindsClient;
use soapgen_tests::peers::echoed;

const NS: &str = "urn:soapgen:kinds";

fn client(peer: &Peer) -> KindsClient {
    KindsClient::new(peer.url("/")).unwrap()
}

/// The value of a call, or a panic with the error and the peer's stderr.
fn dec(s: &str) -> Decimal {
    s.parse().unwrap()
}

// ------------------------------------------------------------------------------------------------
// XML compared by its information, not its spelling: gSOAP re-serialises kept XML with its own
// prefixes and soapgen's reader declares the bindings in scope on what it keeps.
// ------------------------------------------------------------------------------------------------

/// One node of XML content: an element (namespace, local name, attributes sorted, children) or
/// text (adjacent text merged).
#[derive(Debug, PartialEq)]
enum Node {
    Element {
        ns: String,
        local: String,
        attrs: Vec<(String, String, String)>,
        children: Vec<Node>,
    },
    Text(String),
}

fn nodes(parent: roxmltree::Node<'_, '_>) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::new();
    for c in parent.children() {
        if c.is_element() {
            let mut attrs: Vec<_> = c
                .attributes()
                .map(|a| {
                    (
                        a.namespace().unwrap_or("").to_owned(),
                        a.name().to_owned(),
                        a.value().to_owned(),
                    )
                })
                .collect();
            attrs.sort();
            out.push(Node::Element {
                ns: c.tag_name().namespace().unwrap_or("").to_owned(),
                local: c.tag_name().name().to_owned(),
                attrs,
                children: nodes(c),
            });
        } else if let Some(t) = c.text().filter(|_| c.is_text()) {
            if let Some(Node::Text(prev)) = out.last_mut() {
                prev.push_str(t);
            } else {
                out.push(Node::Text(t.to_owned()));
            }
        }
    }
    out
}

/// The content of `AnyXml`, read with the namespace bindings it carries.
fn content(x: &AnyXml) -> Vec<Node> {
    let decls: String = x
        .bindings
        .iter()
        .map(|(p, u)| {
            let u = u.replace('&', "&amp;").replace('"', "&quot;");
            if p.is_empty() {
                format!(" xmlns=\"{u}\"")
            } else {
                format!(" xmlns:{p}=\"{u}\"")
            }
        })
        .collect();
    let doc = format!("<wrapper{decls}>{}</wrapper>", x.content);
    let doc = roxmltree::Document::parse(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
    nodes(doc.root_element())
}

/// A kept element, as a one-node tree.
fn element(x: &AnyElement) -> Vec<Node> {
    let doc = format!("<wrapper>{}</wrapper>", x.xml);
    let doc = roxmltree::Document::parse(&doc).unwrap_or_else(|e| panic!("{e}: {doc}"));
    nodes(doc.root_element())
}

fn any_xml(content: &str) -> AnyXml {
    AnyXml {
        content: content.to_owned(),
        bindings: Vec::new(),
    }
}

// ------------------------------------------------------------------------------------------------
// Substitution groups (XML Schema Part 1 §3.3.6): gSOAP makes each reference to the head a C union
// of the members (Book, o:Disc) with a selector, and an array of such unions when it repeats.
// ------------------------------------------------------------------------------------------------

fn book(title: &str, isbn: &str) -> BookType {
    BookType {
        title: title.into(),
        isbn: isbn.into(),
    }
}

fn disc(title: &str, tracks: i32) -> DiscType {
    DiscType {
        title: title.into(),
        tracks,
    }
}

#[tokio::test]
async fn gsoap_echoes_each_member_of_a_head_referenced_in_a_sequence() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    for item in [
        SubstSeqItem::Book(book("Dune", "0441013597")),
        // The member declared in the other namespace's schema.
        SubstSeqItem::Disc(disc("Kind of Blue", 5)),
    ] {
        let v = SubstSeq {
            before: "b".into(),
            item,
            after: -1,
        };
        assert_eq!(echoed(c.echo_subst_seq(v.clone()).await, &peer), v);
    }
}

#[tokio::test]
async fn gsoap_echoes_each_member_of_a_head_referenced_inside_xs_all() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    for item in [
        SubstAllItem::Book(book("Emma", "x")),
        SubstAllItem::Disc(disc("", 0)),
    ] {
        let v = SubstAll {
            title: "t".into(),
            item,
        };
        assert_eq!(echoed(c.echo_subst_all(v.clone()).await, &peer), v);
    }
}

#[tokio::test]
async fn gsoap_echoes_a_repeated_reference_to_a_head_in_document_order() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    for item in [
        vec![],
        vec![SubstManyItem::Disc(disc("one", 1))],
        vec![
            SubstManyItem::Book(book("a", "1")),
            SubstManyItem::Disc(disc("b", 2)),
            SubstManyItem::Book(book("c", "3")),
            SubstManyItem::Disc(disc("d", 4)),
        ],
    ] {
        let v = SubstMany { item };
        assert_eq!(echoed(c.echo_subst_many(v.clone()).await, &peer), v);
    }
}

// ------------------------------------------------------------------------------------------------
// complexContent extension (two levels) and restriction (XML Schema Part 1 §3.4.2): without -F
// wsdl2h flattens a derived type into one C struct of all its fields (it warns that it ignores type
// inheritance in C), which is all the echo needs since only leaf types are declared.
// ------------------------------------------------------------------------------------------------

#[tokio::test]
async fn gsoap_echoes_an_extension_of_an_extension_and_a_restriction() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    for (legs, id, good) in [
        (Some(4), Some("p1"), Some(true)),
        (None, None, None),
        (Some(3), None, Some(false)),
    ] {
        let v = Derived {
            puppy: Puppy {
                name: "Rex".into(),
                legs,
                id: id.map(Into::into),
                breed: "lab".into(),
                good,
                weeks: 9,
            },
            biped: Biped {
                name: "Bob".into(),
                id: "b1".into(),
            },
        };
        assert_eq!(echoed(c.echo_derived(v.clone()).await, &peer), v);
    }
}

// ------------------------------------------------------------------------------------------------
// Simple types (XML Schema Part 2 §4.3, §2.5.1): enumerations, lists, unions, facets.
// ------------------------------------------------------------------------------------------------

fn simple() -> Simple {
    Simple {
        // Every value, twice in another order: `+`, `-`, empty, a leading digit, `A` and `a`.
        sign: vec![
            Sign::Plus,
            Sign::Minus,
            Sign::Empty,
            Sign::V1st,
            Sign::A,
            Sign::A2,
            Sign::A2,
            Sign::A,
            Sign::Empty,
        ],
        ints: List(vec![1, -2, 0, i32::MAX, i32::MIN]),
        sizes: List(vec![Size::Small, Size::Large]),
        either: vec!["5".into(), "small".into(), "-12".into()],
        code: "ABCDE".into(),
        percent: 100,
        money: dec("12345678.90"),
        sign_attr: Some(Sign::Minus),
        ints_attr: Some(List(vec![7, 8])),
    }
}

#[tokio::test]
async fn gsoap_echoes_enumerations_lists_unions_and_values_within_facets() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let v = simple();
    assert_eq!(echoed(c.echo_simple(v.clone()).await, &peer), v);
    // Each enumeration value as an attribute too (the empty one included).
    for sign in [Sign::Plus, Sign::Empty, Sign::V1st, Sign::A, Sign::A2] {
        let v = Simple {
            sign_attr: Some(sign),
            ints_attr: None,
            ints: List(vec![]),
            ..simple()
        };
        assert_eq!(echoed(c.echo_simple(v.clone()).await, &peer), v);
    }
}

/// gSOAP limitation: wsdl2h maps a list of an enumeration to a C bit mask (`enum *`), so it gives
/// the values back once each, in the enumeration's order, whatever order and repeats were sent.
#[tokio::test]
async fn gsoap_gives_a_list_of_an_enumeration_back_as_a_set_in_declaration_order() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let sent = vec![Size::Large, Size::Small, Size::Large];
    let v = Simple {
        sizes: List(sent.clone()),
        ..simple()
    };
    let back = echoed(c.echo_simple(v.clone()).await, &peer);
    let mut as_set = sent;
    as_set.sort_by_key(|s| *s as u8);
    as_set.dedup();
    assert_eq!(back.sizes, List(as_set));
    assert_eq!(
        Simple {
            sizes: v.sizes.clone(),
            ..back
        },
        v
    );
}

/// Facets are kept as documentation by soapgen (not checked when writing): gSOAP checks the length
/// and range facets on reading and answers with a Client fault naming the element; it does not
/// check `pattern` or `fractionDigits` (values that break them come back unchanged).
#[tokio::test]
async fn gsoap_refuses_values_outside_length_and_range_facets() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    for (v, element) in [
        (
            Simple {
                code: "TOOLONG".into(),
                ..simple()
            },
            "code",
        ),
        (
            Simple {
                code: "A".into(),
                ..simple()
            },
            "code",
        ),
        (
            Simple {
                percent: 101,
                ..simple()
            },
            "percent",
        ),
        (
            Simple {
                percent: -1,
                ..simple()
            },
            "percent",
        ),
    ] {
        let e = c.echo_simple(v).await.unwrap_err();
        let f = e.fault().unwrap_or_else(|| panic!("not a fault: {e}"));
        assert_eq!(f.code.local_name, "Client", "{f:?}");
        // The element's name as the request spelled it (gSOAP keeps the sender's prefix).
        assert!(f.reason.contains(&format!(":{element}'")), "{f:?}");
    }
    let unchecked = Simple {
        code: "ab".into(),
        money: dec("1.234"),
        ..simple()
    };
    assert_eq!(
        echoed(c.echo_simple(unchecked.clone()).await, &peer),
        unchecked
    );
}

// ------------------------------------------------------------------------------------------------
// Nillable (XML Schema Part 1 §2.6.2): absent, nil and present.
// ------------------------------------------------------------------------------------------------

fn price(value: &str, currency: Option<&str>) -> Price {
    Price {
        value: Nillable::Value(dec(value)),
        currency: currency.map(Into::into),
    }
}

/// A Price whose element is nil, keeping its `currency` if it has one (XML Schema Part 1
/// §2.6.2): the one shape of a nil Price.
fn nil_price(currency: Option<&str>) -> Price {
    Price {
        value: Nillable::Nil,
        currency: currency.map(Into::into),
    }
}

/// Answers every call with one fixed response body, and keeps the requests.
#[derive(Debug)]
struct Canned {
    response: String,
    requests: std::sync::Mutex<Vec<Vec<u8>>>,
}

impl soapgen_runtime::transport::Transport for Canned {
    fn send(
        &self,
        request: soapgen_runtime::transport::HttpRequest,
    ) -> soapgen_runtime::transport::TransportFuture<'_> {
        self.requests.lock().unwrap().push(request.body.to_vec());
        let body = bytes::Bytes::from(self.response.clone());
        Box::pin(async move {
            Ok(soapgen_runtime::transport::HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body,
            })
        })
    }
}

/// zeep 4.2 writes a nillable Price that is nil with its `currency` as
/// `<reqPrice currency="EUR" xsi:nil="true"/>`: the generated `Price` (its text `Nillable`
/// because a nillable element has this type) reads it with the attribute kept and the content
/// nil, writes it back the same way, and zeep reads soapgen's request with the currency and the
/// nil intact.
#[tokio::test]
async fn nil_prices_keep_their_currency_both_ways_with_zeep() {
    let response = soapgen_tests::peers::zeep_nil("render", b"");
    assert!(
        response.contains(r#"currency="EUR" xsi:nil="true""#),
        "{response}"
    );
    let canned = std::sync::Arc::new(Canned {
        response,
        requests: Default::default(),
    });
    let c = KindsClient::from_client(
        soapgen_runtime::Client::builder("http://127.0.0.1:1/kinds")
            .transport(canned.clone())
            .build()
            .unwrap(),
    );
    let want = Nils {
        opt_num: OptionalNillable::Absent,
        req_text: Nillable::Nil,
        opt_price: Some(nil_price(Some("USD"))),
        req_price: nil_price(Some("EUR")),
    };
    assert_eq!(c.echo_nils(want.clone()).await.unwrap(), want);
    let request = canned.requests.lock().unwrap()[0].clone();
    let text = String::from_utf8(request.clone()).unwrap();
    assert!(
        text.contains(r#"currency="EUR""#) && text.contains(r#":nil="true""#),
        "{text}"
    );
    let parsed = soapgen_tests::peers::zeep_nil("parse", &request);
    assert_eq!(
        parsed.lines().collect::<Vec<_>>(),
        [
            "reqPrice currency=EUR nil=True value=None",
            "optPrice currency=USD nil=True value=None",
        ],
        "{text}"
    );
}

#[tokio::test]
async fn gsoap_echoes_present_and_nil_values_of_required_nillable_elements() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let present = Nils {
        opt_num: (-5).into(),
        req_text: Nillable::Value("t".into()),
        opt_price: Some(price("1.50", Some("EUR"))),
        req_price: price("2", None),
    };
    assert_eq!(echoed(c.echo_nils(present.clone()).await, &peer), present);
    // xsi:nil on a string and on a simpleContent type (a decimal with an attribute).
    let nil = Nils {
        opt_num: OptionalNillable::Absent,
        req_text: Nillable::Nil,
        opt_price: None,
        req_price: nil_price(None),
    };
    assert_eq!(echoed(c.echo_nils(nil.clone()).await, &peer), nil);
    // Present but empty is not nil.
    let empty = Nils {
        req_text: Nillable::Value(String::new()),
        ..nil
    };
    assert_eq!(echoed(c.echo_nils(empty.clone()).await, &peer), empty);
}

/// gSOAP limitation: an optional nillable element is one C pointer, NULL for both absent and nil,
/// and a NULL optional element is left out: nil comes back absent. soapgen keeps the three states
/// apart (`Absent`, `Nil`, `Value`) and sends nil as `xsi:nil="true"`.
#[tokio::test]
async fn gsoap_gives_nil_back_as_absent_for_optional_nillable_elements() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let v = Nils {
        opt_num: OptionalNillable::Nil,
        req_text: Nillable::Value("x".into()),
        opt_price: Some(nil_price(None)),
        req_price: price("0", Some("USD")),
    };
    let back = echoed(c.echo_nils(v.clone()).await, &peer);
    assert_eq!(
        back,
        Nils {
            opt_num: OptionalNillable::Absent,
            opt_price: None,
            ..v
        }
    );
}

// ------------------------------------------------------------------------------------------------
// Default and fixed values (XML Schema Part 1 §3.3.1, §3.2.1). soapgen generates an optional
// element with a default as `Option<T>`: absent is `None` (an element default applies only to an
// element present and empty, §3.3.4 item 5.1), present and empty is the default (or fixed) value.
// An attribute with a default or fixed value is a plain field: absent reads as that value, and a
// value other than the fixed one is an error on reading (gSOAP checks no fixed value).
// ------------------------------------------------------------------------------------------------

#[tokio::test]
async fn gsoap_echoes_given_values_of_elements_and_attributes_with_defaults() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let v = Defaults {
        color: Some("blue".into()),
        count: Some(3),
        unit: "cm".into(),
        level: Some(-3),
        mode: "manual".into(),
        version: "1.0".into(),
    };
    assert_eq!(echoed(c.echo_defaults(v.clone()).await, &peer), v);
}

/// What gSOAP does with absent values: an absent element with a default stays absent; a present,
/// empty element gets its default (§3.3.4 5.1, as soapgen reads it, see
/// `empty_elements_with_a_default_or_fixed_value_read_as_that_value`). A value that breaks `fixed`
/// comes back unchanged from gSOAP, and soapgen refuses it, naming the attribute.
#[tokio::test]
async fn gsoap_fills_in_defaults_of_empty_elements() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let absent = Defaults {
        color: None,
        count: None,
        unit: "cm".into(),
        level: None,
        mode: "auto".into(),
        version: "1.0".into(),
    };
    let back = echoed(c.echo_defaults(absent.clone()).await, &peer);
    assert_eq!(back, absent);
    let empty = Defaults {
        color: Some(String::new()),
        ..absent.clone()
    };
    let back = echoed(c.echo_defaults(empty).await, &peer);
    assert_eq!(back.color.as_deref(), Some("red"));
    let wrong = Defaults {
        unit: "mm".into(),
        version: "2.0".into(),
        ..absent
    };
    let e = c.echo_defaults(wrong).await.unwrap_err().to_string();
    assert!(e.contains("@version") && e.contains("fixes"), "{e}");
}

/// soapgen's reader applies the declaration's default or fixed value to an element that is present
/// and empty (§3.3.4 item 5.1), and leaves an absent one absent.
#[test]
fn empty_elements_with_a_default_or_fixed_value_read_as_that_value() {
    use soapgen_runtime::xml;
    let read =
        |doc: &str| -> Defaults { xml::from_str(doc).unwrap_or_else(|e| panic!("{e}: {doc}")) };
    let empty = read(r#"<v xmlns="urn:soapgen:kinds"><color/><count></count><unit/><level/></v>"#);
    assert_eq!(
        (
            empty.color.as_deref(),
            empty.count,
            empty.unit.as_str(),
            empty.level
        ),
        (Some("red"), Some(7), "cm", Some(3))
    );
    let absent = read(r#"<v xmlns="urn:soapgen:kinds"><unit>m</unit></v>"#);
    assert_eq!(
        (
            absent.color,
            absent.count,
            absent.unit.as_str(),
            absent.level,
            absent.mode.as_str(),
            absent.version.as_str()
        ),
        (None, None, "m", None, "auto", "1.0")
    );
    // Whitespace is content for a string, and collapsed to nothing for an int: an error there.
    let spaced = read(r#"<v xmlns="urn:soapgen:kinds"><color> </color><unit>cm</unit></v>"#);
    assert_eq!(spaced.color.as_deref(), Some(" "));
    assert!(xml::from_str::<Defaults>(
        r#"<v xmlns="urn:soapgen:kinds"><count> </count><unit/></v>"#
    )
    .is_err());
}

// ------------------------------------------------------------------------------------------------
// Wildcards (XML Schema Part 1 §3.10), mixed content (§3.4.2), anyType (§3.4.7).
// ------------------------------------------------------------------------------------------------

#[tokio::test]
async fn gsoap_echoes_elements_matched_by_xs_any_as_xml() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let sent = vec![
        AnyElement {
            xml: r#"<x:ext xmlns:x="urn:x" x:a="1" b="two &amp; &lt;three&gt;">hi &amp; bye<x:in/><y:deep xmlns:y="urn:y">t</y:deep></x:ext>"#.into(),
        },
        AnyElement {
            xml: r#"<e xmlns="urn:y"/>"#.into(),
        },
    ];
    let v = Open {
        id: "1".into(),
        any: sent.clone(),
        any_attribute: vec![],
    };
    let back = echoed(c.echo_open(v).await, &peer);
    assert_eq!(back.id, "1");
    assert_eq!(back.any_attribute, []);
    assert_eq!(back.any.len(), sent.len(), "{back:?}");
    for (b, s) in back.any.iter().zip(&sent) {
        assert_eq!(element(b), element(s), "{} sent as {}", b.xml, s.xml);
    }
    let none = Open {
        id: "2".into(),
        any: vec![],
        any_attribute: vec![],
    };
    assert_eq!(echoed(c.echo_open(none.clone()).await, &peer), none);
}

/// `xs:anyAttribute namespace="##other"`: gSOAP (wsdl2h -d) keeps the attributes as DOM attribute
/// nodes and writes them back, under its own prefixes; soapgen keeps them by expanded name. (Without
/// -d, wsdl2h makes the wildcard "a placeholder that has no effect" and gSOAP drops them.)
#[tokio::test]
async fn gsoap_echoes_attributes_matched_by_xs_any_attribute() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let mut sent = vec![
        AnyAttribute::new("urn:x", "at", "v & <w> \"q\""),
        AnyAttribute::new("urn:y", "b", ""),
        AnyAttribute::new("urn:x", "c", "3"),
    ];
    let v = Open {
        id: "1".into(),
        any: vec![AnyElement {
            xml: r#"<x:e xmlns:x="urn:x"/>"#.into(),
        }],
        any_attribute: sent.clone(),
    };
    let mut back = echoed(c.echo_open(v.clone()).await, &peer);
    back.any_attribute.sort();
    sent.sort();
    assert_eq!(back.any_attribute, sent);
    assert_eq!(back.any.len(), 1);
    assert_eq!(element(&back.any[0]), element(&v.any[0]));
}

#[tokio::test]
async fn gsoap_echoes_an_any_type_element_and_an_element_with_no_type() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    // gSOAP keeps the xs:anyType one as a DOM tree and the one with no type as a literal string.
    let cases = [
        (
            r#"<x:p xmlns:x="urn:x" a="1">t<x:q/></x:p>"#,
            r#"just <i>text</i> &amp; more"#,
        ),
        ("plain text", ""),
        (
            r#"<k:Note xmlns:k="urn:soapgen:kinds">7</k:Note><Note xmlns="urn:soapgen:kinds:other">x</Note>"#,
            r#"<a xmlns="urn:a"><b>1</b></a>"#,
        ),
    ];
    for (typed, untyped) in cases {
        let v = Anything {
            typed: any_xml(typed),
            untyped: any_xml(untyped),
        };
        let back = echoed(c.echo_anything(v.clone()).await, &peer);
        assert_eq!(content(&back.typed), content(&v.typed), "{back:?}");
        assert_eq!(content(&back.untyped), content(&v.untyped), "{back:?}");
    }
}

/// gSOAP limitation: its C type for a mixed complexType holds the child elements and a DOM node
/// for the rest; it gives back the elements of element-only content, drops text, and drops
/// everything when text comes before the first element. soapgen keeps the whole content as XML.
#[tokio::test]
async fn gsoap_keeps_the_elements_of_mixed_content_and_drops_its_text() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    let b = |t: &str| format!(r#"<b xmlns="{NS}">{t}</b>"#);
    let elements_only = Mixed {
        content: any_xml(&format!("{}{}", b("one"), b("two"))),
    };
    let back = echoed(c.echo_mixed(elements_only.clone()).await, &peer);
    assert_eq!(content(&back.content), content(&elements_only.content));

    let text_after = Mixed {
        content: any_xml(&format!("{} tail", b("one"))),
    };
    let back = echoed(c.echo_mixed(text_after).await, &peer);
    assert_eq!(content(&back.content), content(&any_xml(&b("one"))));

    for sent in [format!("head {} tail", b("one")), "only text".to_owned()] {
        let back = echoed(
            c.echo_mixed(Mixed {
                content: any_xml(&sent),
            })
            .await,
            &peer,
        );
        assert_eq!(content(&back.content), [], "{sent} came back as {back:?}");
    }
}

// ------------------------------------------------------------------------------------------------
// Names: one type name (Point) and one element name (Note) in two namespaces, Foo and foo in one
// namespace, an attributeGroup reference.
// ------------------------------------------------------------------------------------------------

#[tokio::test]
async fn gsoap_echoes_names_shared_by_two_namespaces_and_by_case() {
    let peer = gsoap_kinds();
    let c = client(&peer);
    for (by, rev) in [(Some("me"), Some(3)), (None, None)] {
        let v = Names {
            here: Point { x: 1, y: -2 },
            there: Point2 {
                lat: 51.5,
                lon: -0.125,
            },
            note: 7,
            note2: "seven".into(),
            foo: Foo { upper: "U".into() },
            foo2: Foo2 { lower: 4 },
            by: by.map(Into::into),
            rev,
        };
        assert_eq!(echoed(c.echo_names(v.clone()).await, &peer), v);
    }
}
