use super::*;

fn kind(doc: &str) -> DecodeErrorKind {
    let mut r = XmlReader::new(doc);
    let res = (|| {
        r.root()?;
        r.skip_element()?;
        r.finish()
    })();
    res.unwrap_err().kind
}

#[test]
fn text_is_borrowed_when_it_is_one_run() {
    let doc = "<a>hello world</a>";
    let mut r = XmlReader::new(doc);
    r.root().unwrap();
    let t = r.read_text().unwrap();
    assert!(matches!(t, Cow::Borrowed(_)));
    assert_eq!(t, "hello world");
}

#[test]
fn references_cdata_and_line_ends() {
    let doc = "<a>x &amp; y &#13;&#x41;\r\nz<![CDATA[<raw>]]></a>";
    let mut r = XmlReader::new(doc);
    r.root().unwrap();
    assert_eq!(r.read_text().unwrap(), "x & y \rA\nz<raw>");
}

#[test]
fn refuses_doctype_and_unknown_entities() {
    assert_eq!(
        kind("<!DOCTYPE a [<!ENTITY x \"y\">]><a>&x;</a>"),
        DecodeErrorKind::DocType
    );
    let mut r = XmlReader::new("<a>&x;</a>");
    r.root().unwrap();
    assert!(matches!(
        r.read_text().unwrap_err().kind,
        DecodeErrorKind::Entity(_)
    ));
}

#[test]
fn truncation_is_an_error() {
    for doc in ["<a><b>x</b>", "<a><b>x</b", "<a><b x='1", "<a>"] {
        let k = kind(doc);
        assert!(
            matches!(k, DecodeErrorKind::Truncated | DecodeErrorKind::Syntax(_)),
            "{doc}: {k:?}"
        );
    }
    assert_eq!(kind("<a><b>x</b>"), DecodeErrorKind::Truncated);
}

#[test]
fn trailing_content_and_empty() {
    assert_eq!(kind("<a/><b/>"), DecodeErrorKind::TrailingContent);
    assert_eq!(kind("  "), DecodeErrorKind::Empty);
}

#[test]
fn depth_limit() {
    let doc = "<a>".repeat(10) + &"</a>".repeat(10);
    let mut r = XmlReader::with_limits(&doc, Limits::default().with_max_depth(5));
    r.root().unwrap();
    let e = r.skip_element().unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::DepthLimit(5));
}

#[test]
fn namespaces_and_attributes() {
    let doc = r#"<r xmlns="urn:d" xmlns:p="urn:p" p:at="a&amp;b" plain=" x
y "><c/><p:c xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"/><u xmlns=""/></r>"#;
    let mut r = XmlReader::new(doc);
    let root = r.root().unwrap();
    assert!(r.matches(&root, Name::new("urn:d", "r")));
    assert_eq!(
        r.attribute(&root, Name::new("urn:p", "at"))
            .unwrap()
            .unwrap(),
        "a&b"
    );
    assert_eq!(
        r.attribute(&root, Name::unqualified("plain"))
            .unwrap()
            .unwrap(),
        " x y "
    );
    assert!(r
        .attribute(&root, Name::unqualified("at"))
        .unwrap()
        .is_none());
    let c = r.next_child().unwrap().unwrap();
    assert!(r.matches(&c, Name::new("urn:d", "c")));
    assert!(!r.is_nil(&c).unwrap());
    r.skip_element().unwrap();
    let pc = r.next_child().unwrap().unwrap();
    assert!(r.matches(&pc, Name::new("urn:p", "c")));
    assert!(r.is_nil(&pc).unwrap());
    r.skip_element().unwrap();
    let u = r.next_child().unwrap().unwrap();
    assert!(r.matches(&u, Name::unqualified("u")));
    r.skip_element().unwrap();
    assert!(r.next_child().unwrap().is_none());
    r.finish().unwrap();
}

#[test]
fn errors_carry_path_and_position() {
    let doc = "<Envelope>\n<Body>\n  <Op>text<x/></Op></Body></Envelope>";
    let mut r = XmlReader::new(doc);
    r.set_path_skip(1);
    r.root().unwrap();
    r.next_child().unwrap();
    r.next_child().unwrap();
    let e = r.next_child().unwrap_err();
    assert_eq!(e.path(), "Body/Op");
    assert_eq!((e.location.line, e.location.column), (3, 7));
    assert!(
        e.to_string()
            .starts_with("Body/Op: unexpected text \"text\""),
        "{e}"
    );
}

#[test]
fn inner_xml_is_verbatim() {
    let doc = "<a><d><x:e xmlns:x='u'>t</x:e><f/></d><g/></a>";
    let mut r = XmlReader::new(doc);
    r.root().unwrap();
    r.next_child().unwrap().unwrap();
    assert_eq!(r.read_inner_xml().unwrap(), "<x:e xmlns:x='u'>t</x:e><f/>");
    let g = r.next_child().unwrap().unwrap();
    assert_eq!(g.local_name(), "g");
    assert_eq!(r.read_inner_xml().unwrap(), "");
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let mut r = XmlReader::from_bytes(
        b"\xEF\xBB\xBF<?xml version=\"1.0\"?><a>x</a>",
        Limits::default(),
    )
    .unwrap();
    let a = r.root().unwrap();
    assert_eq!(a.local_name(), "a");
    assert_eq!(r.read_text().unwrap(), "x");
}

#[test]
fn attributes_are_well_formed_and_unique() {
    let k = kind(r#"<a x="1" x="2"/>"#);
    assert!(
        matches!(&k, DecodeErrorKind::Syntax(m) if m.contains("twice")),
        "{k:?}"
    );
    for doc in [r#"<a x/>"#, r#"<a x=1/>"#, r#"<a ="1"/>"#] {
        let k = kind(doc);
        assert!(matches!(k, DecodeErrorKind::Syntax(_)), "{doc}: {k:?}");
    }
    // The same declaration twice (as gSOAP re-serialises kept content) is one binding; two
    // different ones for a prefix are an error.
    let mut r = XmlReader::new(r#"<p:a xmlns:p="urn:p" xmlns:p="urn:p"/>"#);
    assert_eq!(r.root().unwrap().namespace(), "urn:p");
    let k = kind(r#"<p:a xmlns:p="urn:p" xmlns:p="urn:q"/>"#);
    assert!(matches!(k, DecodeErrorKind::Syntax(_)), "{k:?}");
    let k = kind(r#"<a xmlns:xml="urn:x"/>"#);
    assert!(matches!(k, DecodeErrorKind::Syntax(_)), "{k:?}");
    assert!(matches!(kind("<p:a/>"), DecodeErrorKind::Syntax(m) if m.contains("unbound")));
    assert!(matches!(kind("<a></b>"), DecodeErrorKind::Syntax(m) if m.contains("</b>")));
    assert!(matches!(kind("<a>&amp</a>"), DecodeErrorKind::Syntax(_)));
    assert_eq!(kind("<a><!-- x"), DecodeErrorKind::Truncated);
    assert_eq!(kind("<a><![CDATA[x"), DecodeErrorKind::Truncated);
    assert_eq!(kind("<a b='>"), DecodeErrorKind::Truncated);
}

#[test]
fn an_element_keeps_its_declarations_while_its_value_is_parsed() {
    // A QName value is parsed after its end tag was read: the prefix declared on the element
    // itself must still resolve (Namespaces in XML 1.0 §6.1), and not after the next token.
    let doc = r#"<r><v xmlns:p="urn:p">p:x</v><w>p:y</w></r>"#;
    let mut r = XmlReader::new(doc);
    r.root().unwrap();
    let v = r.next_child().unwrap().unwrap();
    let q: crate::types::QName = r.read_simple(&v).unwrap();
    assert_eq!(q, crate::types::QName::new("urn:p", "x"));
    let w = r.next_child().unwrap().unwrap();
    let e = r.read_simple::<crate::types::QName>(&w).unwrap_err();
    assert!(matches!(e.kind, DecodeErrorKind::InvalidValue(_)), "{e}");
}

#[test]
fn text_in_pieces_is_joined_and_limited() {
    let doc = "<a>one\r\ntwo &lt;3&gt;\rfour<!--c--><![CDATA[\r]]></a>";
    let mut r = XmlReader::new(doc);
    r.root().unwrap();
    assert_eq!(r.read_text().unwrap(), "one\ntwo <3>\nfour\r");
    let doc = format!("<a>{}&amp;</a>", "x".repeat(10));
    let mut r = XmlReader::with_limits(&doc, Limits::default().with_max_text_bytes(10));
    r.root().unwrap();
    assert_eq!(
        r.read_text().unwrap_err().kind,
        DecodeErrorKind::TextLimit(10)
    );
    let doc = format!("<a>{}</a>", "x".repeat(11));
    let mut r = XmlReader::with_limits(&doc, Limits::default().with_max_text_bytes(10));
    r.root().unwrap();
    assert_eq!(
        r.read_text().unwrap_err().kind,
        DecodeErrorKind::TextLimit(10)
    );
    // An end tag with space before `>` and an empty-element tag take the general path.
    let mut r = XmlReader::new("<a><b>t</b ><c/></a>");
    r.root().unwrap();
    r.next_child().unwrap().unwrap();
    assert_eq!(r.read_text().unwrap(), "t");
    r.next_child().unwrap().unwrap();
    assert_eq!(r.read_text().unwrap(), "");
    assert!(r.next_child().unwrap().is_none());
    r.finish().unwrap();
}

#[test]
fn invalid_utf8_has_offset() {
    let e = XmlReader::from_bytes(b"<a>\n ok \xff</a>", Limits::default()).unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::InvalidUtf8);
    assert_eq!(e.location.offset, 8);
    assert_eq!((e.location.line, e.location.column), (2, 5));
}

/// The attributes a nil element keeps (XML Schema Part 1 §2.6.2): namespace declarations and
/// `xsi:*` never count; a declared name or, with a wildcard, any other attribute does.
#[test]
fn first_attribute_of_a_nil_element() {
    let doc = r#"<r xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns:a="urn:a"><p xmlns="urn:d" i:nil="true" i:type="x"/><q i:nil="true" a:cur="EUR" code="1"/><z q:x="1"/></r>"#;
    let mut r = XmlReader::new(doc);
    let root = r.root().unwrap();
    assert_eq!(r.first_attribute_of(&root, &[], true).unwrap(), None);
    let p = r.next_child().unwrap().unwrap();
    assert_eq!(r.first_attribute_of(&p, &[], true).unwrap(), None);
    r.skip_element().unwrap();
    let q = r.next_child().unwrap().unwrap();
    assert_eq!(r.first_attribute_of(&q, &[], true).unwrap(), Some("a:cur"));
    let code = [Name::unqualified("code")];
    assert_eq!(
        r.first_attribute_of(&q, &code, false).unwrap(),
        Some("code")
    );
    let cur = [Name::new("urn:a", "cur")];
    assert_eq!(
        r.first_attribute_of(&q, &cur, false).unwrap(),
        Some("a:cur")
    );
    // A name in another namespace is not the declared one.
    let other = [Name::new("urn:b", "cur")];
    assert_eq!(r.first_attribute_of(&q, &other, false).unwrap(), None);
    r.skip_element().unwrap();
    let z = r.next_child().unwrap().unwrap();
    let e = r.first_attribute_of(&z, &[], true).unwrap_err();
    assert!(e.location.path.ends_with("z/@q:x"), "{e}");
}
