//! The derives, end to end: write → read round trips, the three nillable states, attributes, simple
//! content, enumerations, recursion, and decode errors with element paths.

use proptest::prelude::*;
use soapgen_runtime::types::{Base64Binary, Decimal, Nillable};
use soapgen_runtime::xml::{self, Name};
use soapgen_runtime::{FromXml, ToXml};

const NS: &str = "urn:test";

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Address {
    street: String,
    city: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ToXml, FromXml)]
enum Sign {
    #[xml(rename = "+")]
    Plus,
    #[xml(rename = "-")]
    Minus,
    #[xml(rename = "")]
    Empty,
    #[xml(rename = "1st")]
    First,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test", rename_all = "camelCase")]
struct Person {
    #[xml(attribute)]
    id: i32,
    #[xml(attribute, rename = "lang")]
    language: Option<String>,
    first_name: String,
    age: Option<i64>,
    nickname: Option<Nillable<String>>,
    middle: Nillable<String>,
    emails: Vec<String>,
    address: Option<Address>,
    #[xml(unqualified)]
    note: Option<String>,
    sign: Sign,
    balance: Option<Decimal>,
    picture: Option<Base64Binary>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
struct Price {
    #[xml(attribute)]
    currency: String,
    #[xml(text)]
    amount: Decimal,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Tree {
    label: String,
    children: Vec<Tree>,
    next: Option<Box<Tree>>,
}

fn person() -> Person {
    Person {
        id: 7,
        language: Some("en".into()),
        first_name: "Ada <&> \"Lovelace\"".into(),
        age: Some(36),
        nickname: Some(Nillable::Nil),
        middle: Nillable::Value("King".into()),
        emails: vec!["a@x".into(), "b@x".into()],
        address: Some(Address {
            street: "1 St".into(),
            city: "London".into(),
        }),
        note: Some("n".into()),
        sign: Sign::Empty,
        balance: Some("-12.50".parse().unwrap()),
        picture: Some(Base64Binary::from(vec![0u8, 1, 2, 255])),
    }
}

#[test]
fn struct_round_trip_and_wire_shape() {
    let p = person();
    let xml = xml::to_string(&p, Name::new(NS, "person")).unwrap();
    assert!(xml.starts_with(r#"<ns1:person xmlns:ns1="urn:test" id="7" lang="en"><ns1:firstName>Ada &lt;&amp;&gt; "Lovelace"</ns1:firstName>"#), "{xml}");
    assert!(xml.contains(r#"<ns1:nickname xmlns:ns2="http://www.w3.org/2001/XMLSchema-instance" ns2:nil="true"/>"#), "{xml}");
    assert!(xml.contains("<note>n</note>"), "unqualified child: {xml}");
    assert!(
        xml.contains("<ns1:sign/>"),
        "empty enumeration value: {xml}"
    );
    assert_eq!(xml::from_str::<Person>(&xml).unwrap(), p);
}

#[test]
fn nillable_has_three_states() {
    let mut p = person();
    for nick in [
        None,
        Some(Nillable::Nil),
        Some(Nillable::Value(String::new())),
    ] {
        p.nickname = nick.clone();
        let back: Person =
            xml::from_str(&xml::to_string(&p, Name::new(NS, "person")).unwrap()).unwrap();
        assert_eq!(back.nickname, nick);
    }
}

#[test]
fn simple_content_and_enumerations() {
    let price = Price {
        currency: "EUR".into(),
        amount: "1.5".parse().unwrap(),
    };
    let xml = xml::to_string(&price, Name::new(NS, "price")).unwrap();
    assert_eq!(
        xml,
        r#"<ns1:price xmlns:ns1="urn:test" currency="EUR">1.5</ns1:price>"#
    );
    assert_eq!(xml::from_str::<Price>(&xml).unwrap(), price);
    for s in [Sign::Plus, Sign::Minus, Sign::Empty, Sign::First] {
        assert_eq!(
            xml::from_str::<Sign>(&xml::to_string(&s, Name::new(NS, "s")).unwrap()).unwrap(),
            s
        );
    }
    let e = xml::from_str::<Sign>(r#"<s xmlns="urn:test">*</s>"#).unwrap_err();
    assert!(e.to_string().contains(r#"invalid Sign "*""#), "{e}");
}

#[test]
fn recursive_types() {
    let t = Tree {
        label: "root".into(),
        children: vec![Tree {
            label: "a".into(),
            children: vec![],
            next: None,
        }],
        next: Some(Box::new(Tree {
            label: "b".into(),
            children: vec![],
            next: None,
        })),
    };
    assert_eq!(
        xml::from_str::<Tree>(&xml::to_string(&t, Name::new(NS, "tree")).unwrap()).unwrap(),
        t
    );
}

#[test]
fn decode_errors_name_the_element_path() {
    let xml = r#"<t:person xmlns:t="urn:test" id="1"><t:firstName>x</t:firstName><t:middle>m</t:middle>
        <t:sign>+</t:sign><t:balance>1,5</t:balance></t:person>"#;
    let e = xml::from_str::<Person>(xml).unwrap_err();
    assert_eq!(e.path(), "person/balance");
    assert!(
        e.to_string()
            .starts_with(r#"person/balance: invalid decimal "1,5""#),
        "{e}"
    );
    assert_eq!(e.location.line, 2);

    let missing = r#"<t:person xmlns:t="urn:test" id="1"><t:middle>m</t:middle><t:sign>+</t:sign></t:person>"#;
    let e = xml::from_str::<Person>(missing).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("person: missing required element firstName"),
        "{e}"
    );

    let dup = r#"<t:person xmlns:t="urn:test" id="1"><t:firstName>a</t:firstName><t:firstName>b</t:firstName></t:person>"#;
    assert!(xml::from_str::<Person>(dup)
        .unwrap_err()
        .to_string()
        .contains("more than once"));

    let unknown = r#"<t:person xmlns:t="urn:test" id="1"><t:surprise/></t:person>"#;
    let e = xml::from_str::<Person>(unknown).unwrap_err();
    assert!(
        e.to_string()
            .contains("unexpected element {urn:test}surprise"),
        "{e}"
    );

    let wrong_ns = r#"<t:person xmlns:t="urn:test" id="1"><firstName>a</firstName></t:person>"#;
    assert!(xml::from_str::<Person>(wrong_ns)
        .unwrap_err()
        .to_string()
        .contains("unexpected element firstName"));

    let no_attr = r#"<t:person xmlns:t="urn:test"><t:firstName>a</t:firstName></t:person>"#;
    assert!(xml::from_str::<Person>(no_attr)
        .unwrap_err()
        .to_string()
        .contains("missing required attribute id"));

    let nil_required = r#"<t:person xmlns:t="urn:test" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="1"><t:firstName xsi:nil="true"/></t:person>"#;
    assert!(xml::from_str::<Person>(nil_required)
        .unwrap_err()
        .to_string()
        .contains("not nillable"));
}

#[test]
fn reads_default_namespaces_and_other_prefixes() {
    let xml = r#"<person xmlns="urn:test" id="3"><firstName>x</firstName><middle xmlns:i="http://www.w3.org/2001/XMLSchema-instance" i:nil="1"/>
        <sign>-</sign><note xmlns="">n</note></person>"#;
    let p: Person = xml::from_str(xml).unwrap();
    assert_eq!(p.first_name, "x");
    assert_eq!(p.middle, Nillable::Nil);
    assert_eq!(p.note.as_deref(), Some("n"));
}

fn arb_text() -> impl Strategy<Value = String> {
    // Any XML 1.0 character except CR (normalised to LF by XML parsers unless escaped, which the
    // writer does, so include it too).
    proptest::collection::vec(
        prop_oneof![
            Just('\r'),
            Just('\n'),
            Just('\t'),
            Just('&'),
            Just('<'),
            Just('>'),
            Just('"'),
            Just(']'),
            proptest::char::range(' ', '\u{D7FF}'),
            proptest::char::range('\u{E000}', '\u{FFFD}'),
            proptest::char::range('\u{10000}', '\u{10FFFF}'),
        ],
        0..24,
    )
    .prop_map(|v| v.into_iter().collect())
}

prop_compose! {
    fn arb_person()(
        id in any::<i32>(),
        language in proptest::option::of(arb_text()),
        first_name in arb_text(),
        age in proptest::option::of(any::<i64>()),
        nickname in proptest::option::of(proptest::option::of(arb_text())),
        middle in proptest::option::of(arb_text()),
        emails in proptest::collection::vec(arb_text(), 0..4),
        address in proptest::option::of((arb_text(), arb_text())),
        note in proptest::option::of(arb_text()),
        sign in 0..4u8,
        balance in proptest::option::of((any::<i64>(), 0..20i64)),
        picture in proptest::option::of(proptest::collection::vec(any::<u8>(), 0..64)),
    ) -> Person {
        Person {
            id,
            language,
            first_name,
            age,
            nickname: nickname.map(|n| n.map_or(Nillable::Nil, Nillable::Value)),
            middle: middle.map_or(Nillable::Nil, Nillable::Value),
            emails,
            address: address.map(|(street, city)| Address { street, city }),
            note,
            sign: [Sign::Plus, Sign::Minus, Sign::Empty, Sign::First][sign as usize],
            balance: balance.map(|(m, s)| Decimal::new(m.into(), s)),
            picture: picture.map(Base64Binary::from),
        }
    }
}

proptest! {
    #[test]
    fn derived_types_round_trip(p in arb_person()) {
        let xml = xml::to_string(&p, Name::new(NS, "person")).unwrap();
        let back: Person = xml::from_str(&xml).map_err(|e| TestCaseError::fail(format!("{e}\n{xml}")))?;
        prop_assert_eq!(back, p);
    }
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Open {
    known: String,
    #[xml(any)]
    rest: Vec<soapgen_runtime::types::AnyElement>,
}

#[test]
fn any_elements_are_kept_self_contained() {
    let xml = r#"<t:open xmlns:t="urn:test" xmlns:e="urn:ext"><t:known>k</t:known><e:x a="1"><e:y>deep</e:y></e:x><t:other/></t:open>"#;
    let open: Open = xml::from_str(xml).unwrap();
    assert_eq!(open.known, "k");
    assert_eq!(open.rest.len(), 2);
    // Bindings from ancestors that the element uses are declared on the kept element, so it parses
    // on its own; `t`, unused in it, is not (the same element read elsewhere is the same value).
    assert_eq!(
        open.rest[0].xml,
        r#"<e:x xmlns:e="urn:ext" a="1"><e:y>deep</e:y></e:x>"#
    );
    assert_eq!(open.rest[1].xml, r#"<t:other xmlns:t="urn:test"/>"#);
    let y: Address = soapgen_runtime::types::AnyElement {
        xml: r#"<a:addr xmlns:a="urn:test"><a:street>s</a:street><a:city>c</a:city></a:addr>"#
            .into(),
    }
    .decode()
    .unwrap();
    assert_eq!(y.city, "c");
    // It is written back as received; reading adds the declarations in scope there (harmless), and
    // after one cycle the text is stable.
    let once: Open = xml::from_str(&xml::to_string(&open, Name::new(NS, "open")).unwrap()).unwrap();
    assert!(
        once.rest[0].xml.ends_with(r#"a="1"><e:y>deep</e:y></e:x>"#),
        "{}",
        once.rest[0].xml
    );
    let twice: Open =
        xml::from_str(&xml::to_string(&once, Name::new(NS, "open")).unwrap()).unwrap();
    assert_eq!(twice, once);
}

/// A record as the CRM partner API's query results send it: `sequence(Id?, any*)` whose
/// wildcard takes the record's fields, the Id among them once more.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Record {
    #[xml(rename = "Id")]
    id: Option<String>,
    #[xml(any)]
    fields: Vec<soapgen_runtime::types::AnyElement>,
}

/// `sequence(a?, b?, a?)` without a wildcard: the second `a` is the third particle's.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Twice {
    a: Option<i32>,
    b: Option<i32>,
    #[xml(rename = "a")]
    a2: Option<i32>,
}

#[test]
fn a_repeated_single_element_goes_to_the_next_particle_that_takes_it() {
    // XML Schema Part 1 §3.9.4: the second Id cannot be the first particle's again; the
    // wildcard after it takes it (the document is schema-valid).
    let xml =
        r#"<t:r xmlns:t="urn:test"><t:Id>001</t:Id><t:Id>001</t:Id><t:Name>Acme</t:Name></t:r>"#;
    let r: Record = xml::from_str(xml).unwrap();
    assert_eq!(r.id.as_deref(), Some("001"));
    assert_eq!(r.fields.len(), 2);
    assert_eq!(r.fields[0].xml, r#"<t:Id xmlns:t="urn:test">001</t:Id>"#);
    // A later field of the same name takes the repeat; a third has no particle left.
    let t: Twice =
        xml::from_str(r#"<t:t xmlns:t="urn:test"><t:a>1</t:a><t:b>2</t:b><t:a>3</t:a></t:t>"#)
            .unwrap();
    assert_eq!((t.a, t.b, t.a2), (Some(1), Some(2), Some(3)));
    let e = xml::from_str::<Twice>(
        r#"<t:t xmlns:t="urn:test"><t:a>1</t:a><t:a>3</t:a><t:a>4</t:a></t:t>"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("appears more than once"), "{e}");
    // A required element repeated goes to the wildcard after it as well.
    let o: Open = xml::from_str(
        r#"<t:open xmlns:t="urn:test"><t:known>k</t:known><t:known>k2</t:known></t:open>"#,
    )
    .unwrap();
    assert_eq!((o.known.as_str(), o.rest.len()), ("k", 1));
}

/// Salesforce's `sObject` as generated: `sequence(type, fieldsToNull*, Id?, any*)`, read by
/// position since a wildcard follows the elements.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test", sequence)]
struct SObject {
    r#type: String,
    #[xml(rename = "fieldsToNull")]
    fields_to_null: Vec<String>,
    #[xml(rename = "Id")]
    id: Option<String>,
    #[xml(any)]
    any: Vec<soapgen_runtime::types::AnyElement>,
}

#[test]
fn an_element_whose_particle_has_passed_is_the_wildcards() {
    // XML Schema Part 1 §3.9.4: after Id, a fieldsToNull can only be the wildcard's.
    let o: SObject = xml::from_str(
        r#"<t:o xmlns:t="urn:test"><t:type>A</t:type><t:fieldsToNull>X</t:fieldsToNull><t:Id>1</t:Id><t:fieldsToNull>Y</t:fieldsToNull><t:Id>1</t:Id><t:Name>N</t:Name></t:o>"#,
    )
    .unwrap();
    assert_eq!(o.fields_to_null, ["X"]);
    assert_eq!(o.id.as_deref(), Some("1"));
    let kept: Vec<&str> = o.any.iter().map(|a| a.xml.as_str()).collect();
    assert_eq!(
        kept,
        [
            r#"<t:fieldsToNull xmlns:t="urn:test">Y</t:fieldsToNull>"#,
            r#"<t:Id xmlns:t="urn:test">1</t:Id>"#,
            r#"<t:Name xmlns:t="urn:test">N</t:Name>"#,
        ]
    );
    // Written back in the same order.
    let again: SObject = xml::from_str(&xml::to_string(&o, Name::new(NS, "o")).unwrap()).unwrap();
    assert_eq!(again.any.len(), 3);
    assert_eq!(again.fields_to_null, ["X"]);
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct OpenAttributes {
    #[xml(attribute)]
    id: String,
    #[xml(attribute, namespace = "urn:ext")]
    known: Option<i32>,
    #[xml(any_attribute)]
    rest: Vec<soapgen_runtime::types::AnyAttribute>,
    #[xml(text)]
    value: String,
}

#[test]
fn any_attributes_keep_what_no_field_names_by_expanded_name() {
    use soapgen_runtime::types::AnyAttribute;
    let xml = r#"<t:o xmlns:t="urn:test" xmlns:e="urn:ext" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" e:a="1 &amp; &lt;2&gt;" id="i" e:known="5" b="x&#9;y" xsi:type="t:O" t:known="t" xml:lang="en">v</t:o>"#;
    let o: OpenAttributes = xml::from_str(xml).unwrap();
    assert_eq!(
        (o.id.as_str(), o.known, o.value.as_str()),
        ("i", Some(5), "v")
    );
    // Declarations, xsi:* and the declared attributes are not taken; an attribute with a declared
    // local name in another namespace is; values unescaped, in document order.
    assert_eq!(
        o.rest,
        [
            AnyAttribute::new("urn:ext", "a", "1 & <2>"),
            AnyAttribute::new("", "b", "x\ty"),
            AnyAttribute::new(NS, "known", "t"),
            AnyAttribute::new("http://www.w3.org/XML/1998/namespace", "lang", "en"),
        ]
    );
    let back = xml::to_string(&o, Name::new(NS, "o")).unwrap();
    assert_eq!(xml::from_str::<OpenAttributes>(&back).unwrap(), o, "{back}");
    // A prefix bound to nothing is an error naming the attribute.
    let e = xml::from_str::<OpenAttributes>(r#"<o xmlns="urn:test" id="i" z:a="1"/>"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("z:a"), "{e}");
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct WithDefaults {
    #[xml(default = "+")]
    sign: Sign,
    #[xml(default = "5")]
    many: Vec<i32>,
    #[xml(default = "n")]
    nil: Option<Nillable<String>>,
}

#[test]
fn empty_elements_with_a_default_read_as_the_default() {
    let v: WithDefaults = xml::from_str(r#"<t:d xmlns:t="urn:test" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><t:sign/><t:many/><t:many>2</t:many><t:many></t:many><t:nil xsi:nil="true"/></t:d>"#)
    .unwrap();
    assert_eq!(
        v,
        WithDefaults {
            sign: Sign::Plus,
            many: vec![5, 2, 5],
            nil: Some(Nillable::Nil),
        }
    );
    let v: WithDefaults = xml::from_str(r#"<d xmlns="urn:test"><sign>-</sign><nil/></d>"#).unwrap();
    assert_eq!((v.sign, v.many.len()), (Sign::Minus, 0));
    assert_eq!(v.nil, Some(Nillable::Value("n".into())));
    // Written as held, so an empty value goes out empty, and an empty element with a default is
    // that default (§3.3.4 item 5.1): the empty enumeration value reads back as `+`.
    let w = WithDefaults {
        sign: Sign::Empty,
        many: vec![],
        nil: None,
    };
    let back: WithDefaults =
        xml::from_str(&xml::to_string(&w, Name::new(NS, "d")).unwrap()).unwrap();
    assert_eq!(back.sign, Sign::Plus);
}

/// A `tracing` writer into a shared buffer.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn unknown_elements_are_errors_or_with_lenient_decoding_skipped_with_a_warning() {
    use soapgen_runtime::envelope::{read_response, BodyContent};
    use soapgen_runtime::xml::Limits;
    let doc = r#"<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><t:Address xmlns:t="urn:test"><t:street>Main</t:street><t:added since="v2">new <b>data</b></t:added><t:city>X</t:city></t:Address></s:Body></s:Envelope>"#;
    let strict = read_response(doc.as_bytes(), Limits::default(), None, Address::read_xml)
        .unwrap_err()
        .to_string();
    assert!(
        strict.contains("unexpected element {urn:test}added"),
        "{strict}"
    );
    let out = Captured::default();
    let writer = out.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || writer.clone())
        .with_ansi(false)
        .finish();
    let lenient = tracing::subscriber::with_default(subscriber, || {
        read_response(
            doc.as_bytes(),
            Limits::default().with_lenient_unknown_elements(true),
            None,
            Address::read_xml,
        )
    });
    match lenient.unwrap() {
        BodyContent::Payload(a) => assert_eq!((a.street.as_str(), a.city.as_str()), ("Main", "X")),
        BodyContent::Empty => panic!("empty"),
    }
    let log = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(
        log.contains("WARN") && log.contains("soapgen::lenient"),
        "{log}"
    );
    assert!(log.contains("Body/Address/added"), "{log}");
    assert!(
        log.contains(r#"<t:added since=\"v2\">new <b>data</b></t:added>"#),
        "{log}"
    );
}

/// Attributes with a value constraint (XML Schema Part 1 §3.2.1): absent reads as the `default` or
/// `fixed` value; a present value is kept, unless it differs from the fixed one.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Constrained {
    #[xml(attribute, default = "2")]
    precision: i32,
    #[xml(attribute, default = "-")]
    sign: Sign,
    #[xml(attribute, fixed = "1.0")]
    version: Decimal,
    value: String,
}

#[test]
fn attribute_defaults_and_fixed_values_apply_when_absent() {
    let v: Constrained = xml::from_str(r#"<c xmlns="urn:test"><value>x</value></c>"#).unwrap();
    assert_eq!(
        v,
        Constrained {
            precision: 2,
            sign: Sign::Minus,
            version: "1.0".parse().unwrap(),
            value: "x".into(),
        }
    );
    let v: Constrained = xml::from_str(
        r#"<c xmlns="urn:test" precision="5" sign="+" version="1.00"><value>y</value></c>"#,
    )
    .unwrap();
    assert_eq!((v.precision, v.sign), (5, Sign::Plus));
    // Written always, read back equal.
    assert_eq!(
        xml::from_str::<Constrained>(&xml::to_string(&v, Name::new(NS, "c")).unwrap()).unwrap(),
        v
    );
    // Another value than the fixed one is an error at the attribute.
    let e = xml::from_str::<Constrained>(r#"<c xmlns="urn:test" version="2"><value>y</value></c>"#)
        .unwrap_err()
        .to_string();
    assert!(e.contains("c/@version") && e.contains("fixes"), "{e}");
}

/// A default the schema gives that is not of the attribute's type is an error when it is needed.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
struct BadDefault {
    #[xml(attribute, default = "two")]
    n: i32,
}

#[test]
fn a_default_that_is_not_of_the_type_is_a_located_error() {
    assert_eq!(xml::from_str::<BadDefault>(r#"<b n="3"/>"#).unwrap().n, 3);
    let e = xml::from_str::<BadDefault>("<b/>").unwrap_err().to_string();
    assert!(e.contains("b/@n") && e.contains("two"), "{e}");
}

/// Two elements of one local name in two namespaces (Namespaces in XML 1.0 §2.1: expanded names
/// differ), each its own particle.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:x")]
struct TwoNamespaces {
    a: Option<i32>,
    #[xml(rename = "a", namespace = "urn:y")]
    b: Option<i32>,
}

#[test]
fn a_child_is_matched_by_its_expanded_name_whatever_prefix_it_is_written_with() {
    let read = |xml: &str| xml::from_str::<TwoNamespaces>(xml);
    let want = TwoNamespaces {
        a: Some(1),
        b: Some(2),
    };
    for xml in [
        r#"<r xmlns:x="urn:x" xmlns:y="urn:y"><x:a>1</x:a><y:a>2</y:a></r>"#,
        // The same prefix bound to the other namespace on the second child.
        r#"<r xmlns:p="urn:x"><p:a>1</p:a><p:a xmlns:p="urn:y">2</p:a></r>"#,
        // The other way round, and the default namespace.
        r#"<r xmlns="urn:y"><a>2</a><a xmlns="urn:x">1</a></r>"#,
    ] {
        assert_eq!(read(xml).unwrap(), want, "{xml}");
    }
    // Twice in one namespace: a duplicate; in a third: not expected, and said why.
    let e = read(r#"<r xmlns:p="urn:x"><p:a>1</p:a><p:a>2</p:a></r>"#).unwrap_err();
    assert!(e.to_string().contains("appears more than once"), "{e}");
    let e = read(r#"<r xmlns:p="urn:x"><p:a>1</p:a><p:a xmlns:p="urn:z">2</p:a></r>"#).unwrap_err();
    assert!(e.to_string().contains("the namespaces differ"), "{e}");
}
