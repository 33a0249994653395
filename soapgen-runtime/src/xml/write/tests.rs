use super::*;

/// Default namespaces (Namespaces in XML 1.0 §6.2): declared where the element's namespace
/// changes, undeclared for an element in no namespace, never used for attributes; QName values
/// keep prefixes; the prefixed form of the same calls has the same expanded names (checked by
/// reading both back).
#[test]
fn default_namespaces_declare_and_undeclare() {
    let write = |on: bool| {
        let mut w = XmlWriter::new();
        w.set_default_namespaces(on);
        w.start_element(Name::new("urn:x", "Get")).unwrap();
        w.start_element(Name::unqualified("q")).unwrap();
        w.attribute(Name::unqualified("plain"), "1").unwrap();
        w.attribute(Name::new("urn:x", "qual"), "2").unwrap();
        w.start_element(Name::new("urn:x", "deep")).unwrap();
        w.text("d").unwrap();
        w.end_element().unwrap();
        w.end_element().unwrap();
        w.start_element(Name::new("urn:x", "r")).unwrap();
        w.text_value(&crate::types::QName::new("urn:y", "T"))
            .unwrap();
        w.end_element().unwrap();
        w.start_element(Name::new("urn:y", "other")).unwrap();
        w.nil_attribute().unwrap();
        w.end_element().unwrap();
        w.start_element(Name::new("urn:x", "raw")).unwrap();
        w.raw("<a>1</a><!-- <c> --><p:b xmlns:p=\"urn:p\"/><d xmlns=\"urn:d\"><e/></d>")
            .unwrap();
        w.end_element().unwrap();
        w.end_element().unwrap();
        w.into_string().unwrap()
    };
    let default = write(true);
    assert_eq!(
        default,
        "<Get xmlns=\"urn:x\"><q xmlns=\"\" plain=\"1\" xmlns:ns1=\"urn:x\" ns1:qual=\"2\">\
             <deep xmlns=\"urn:x\">d</deep></q><r xmlns:ns2=\"urn:y\">ns2:T</r>\
             <other xmlns=\"urn:y\" xmlns:ns3=\"http://www.w3.org/2001/XMLSchema-instance\" \
             ns3:nil=\"true\"/><raw><a xmlns=\"\">1</a><!-- <c> --><p:b xmlns:p=\"urn:p\"/>\
             <d xmlns=\"urn:d\"><e/></d></raw></Get>"
    );
    let prefixed = write(false);
    assert!(
        prefixed.starts_with("<ns1:Get xmlns:ns1=\"urn:x\"><q "),
        "{prefixed}"
    );
    assert_eq!(expanded(&default), expanded(&prefixed));
}

/// One element: depth, namespace, local name, attributes as (namespace, local, value) without
/// namespace declarations, text.
type Element = (usize, String, String, Vec<(String, String, String)>, String);

/// The elements of `xml`, read with the runtime's reader.
fn expanded(xml: &str) -> Vec<Element> {
    use crate::xml::XmlReader;
    fn walk(
        r: &mut XmlReader<'_>,
        tag: crate::xml::StartTag<'_>,
        depth: usize,
        out: &mut Vec<Element>,
    ) {
        let mut attrs: Vec<(String, String, String)> = r
            .other_attributes(&tag, &[])
            .unwrap()
            .into_iter()
            .map(|a| (a.namespace, a.local, a.value))
            .collect();
        if r.is_nil(&tag).unwrap() {
            attrs.push((XSI_NS.into(), "nil".into(), "true".into()));
        }
        let i = out.len();
        out.push((
            depth,
            tag.namespace().to_owned(),
            tag.local_name().to_owned(),
            attrs,
            String::new(),
        ));
        // Text-only leaves: `d`, `1`, the QName; mixed content does not occur here.
        if matches!(tag.local_name(), "deep" | "a" | "r") {
            let t = r.read_text().unwrap();
            // A QName value compares by its expanded name.
            out[i].4 = match t.split_once(':') {
                Some((p, l)) => {
                    format!(
                        "{{{}}}{l}",
                        crate::types::PrefixResolver::resolve_prefix(r, p).unwrap_or_default()
                    )
                }
                None => t.into_owned(),
            };
            return;
        }
        while let Some(c) = r.next_child().unwrap() {
            walk(r, c, depth + 1, out);
        }
    }
    let mut r = XmlReader::new(xml);
    let root = r.root().unwrap();
    let mut out = Vec::new();
    walk(&mut r, root, 0, &mut out);
    out
}

#[test]
fn reuses_prefixes_and_scopes_declarations() {
    let mut w = XmlWriter::new();
    w.start_element(Name::new("urn:a", "r")).unwrap();
    w.start_element(Name::new("urn:a", "x")).unwrap();
    w.end_element().unwrap();
    w.start_element(Name::new("urn:b", "y")).unwrap();
    w.end_element().unwrap();
    w.start_element(Name::new("urn:b", "z")).unwrap();
    w.start_element(Name::unqualified("u")).unwrap();
    w.text("t").unwrap();
    w.end_element().unwrap();
    w.end_element().unwrap();
    w.end_element().unwrap();
    assert_eq!(
        w.into_string().unwrap(),
        "<ns1:r xmlns:ns1=\"urn:a\"><ns1:x/><ns2:y xmlns:ns2=\"urn:b\"/>\
             <ns3:z xmlns:ns3=\"urn:b\"><u>t</u></ns3:z></ns1:r>"
    );
}

#[test]
fn qname_list_items_in_new_namespaces_declare_them_on_the_start_tag() {
    use crate::types::{List, QName};
    let l = List(vec![
        QName::new("urn:a", "x"),
        QName::new("urn:b", "y"),
        QName::local("z"),
        QName::new("urn:a", "w"),
    ]);
    let mut w = XmlWriter::new();
    w.start_element(Name::new("urn:e", "types")).unwrap();
    w.text_value(&l).unwrap();
    w.end_element().unwrap();
    w.simple_element(Name::unqualified("after"), &QName::new("urn:b", "v"))
        .unwrap();
    let xml = w.into_string().unwrap();
    assert_eq!(
            xml,
            "<ns1:types xmlns:ns1=\"urn:e\" xmlns:ns2=\"urn:a\" xmlns:ns3=\"urn:b\">ns2:x ns3:y z ns2:w</ns1:types>\
             <after xmlns:ns4=\"urn:b\">ns4:v</after>"
        );
}

#[test]
fn escapes_text_and_attributes() {
    let mut w = XmlWriter::new();
    w.start_element(Name::unqualified("a")).unwrap();
    w.attribute(Name::unqualified("v"), "\"<&>\t\n\r'").unwrap();
    w.text("<&>\"'\r\n\t").unwrap();
    w.end_element().unwrap();
    assert_eq!(
        w.into_string().unwrap(),
        "<a v=\"&quot;&lt;&amp;&gt;&#9;&#10;&#13;'\">&lt;&amp;&gt;\"'&#13;\n\t</a>"
    );
}

#[test]
fn escaping_finds_every_special_byte_at_every_position() {
    // Each special character at each offset of a string longer than two words, against a
    // byte-by-byte reference.
    for attr in [false, true] {
        for special in ["&", "<", ">", "\r", "\"", "\t", "\n", "é", "\u{FFFD}"] {
            for at in 0..20 {
                let s = format!("{}{special}{}", "a".repeat(at), "b".repeat(20 - at));
                let mut got = String::new();
                escape_into(&mut got, &s, attr).unwrap();
                let mut want = String::new();
                for c in s.chars() {
                    match c {
                        '&' => want.push_str("&amp;"),
                        '<' => want.push_str("&lt;"),
                        '>' => want.push_str("&gt;"),
                        '\r' => want.push_str("&#13;"),
                        '"' if attr => want.push_str("&quot;"),
                        '\t' if attr => want.push_str("&#9;"),
                        '\n' if attr => want.push_str("&#10;"),
                        c => want.push(c),
                    }
                }
                assert_eq!(got, want, "{s:?} attr={attr}");
            }
        }
        for bad in ["\u{1}", "\u{1f}", "\u{FFFE}", "\u{FFFF}"] {
            let s = format!("{}{bad}", "a".repeat(13));
            let e = escape_into(&mut String::new(), &s, attr).unwrap_err();
            assert!(e.to_string().contains("13"), "{e}");
        }
    }
}

#[test]
fn refuses_unrepresentable_characters() {
    let mut w = XmlWriter::new();
    w.start_element(Name::unqualified("a")).unwrap();
    let e = w.text("ok\u{1}").unwrap_err();
    assert!(e.to_string().contains("U+0001"), "{e}");
    let e = w.text("\u{FFFF}").unwrap_err();
    assert!(e.to_string().contains("U+FFFF"), "{e}");
}

#[test]
fn misuse_is_an_error() {
    let mut w = XmlWriter::new();
    assert!(w.end_element().is_err());
    w.start_element(Name::unqualified("a")).unwrap();
    w.text("x").unwrap();
    assert!(w.attribute(Name::unqualified("b"), "c").is_err());
    let w2 = {
        let mut w2 = XmlWriter::new();
        w2.start_element(Name::unqualified("a")).unwrap();
        w2
    };
    assert!(w2.into_string().is_err());
}

#[test]
fn declared_namespace_is_reused_by_children() {
    let mut w = XmlWriter::new();
    w.start_element(Name::new("urn:env", "Envelope")).unwrap();
    w.declare_namespace("tns", "urn:svc").unwrap();
    w.start_element(Name::new("urn:svc", "op")).unwrap();
    w.attribute(Name::new(XSI_NS, "nil"), "true").unwrap();
    w.end_element().unwrap();
    w.end_element().unwrap();
    assert_eq!(
        w.into_string().unwrap(),
        "<ns1:Envelope xmlns:ns1=\"urn:env\" xmlns:tns=\"urn:svc\">\
             <tns:op xmlns:ns2=\"http://www.w3.org/2001/XMLSchema-instance\" ns2:nil=\"true\"/>\
             </ns1:Envelope>"
    );
}
