//! Normal forms (WS-Policy 1.5 §4.3) and attachment (Attachment §4.1) of small documents.

use std::sync::Arc;

use super::attach;
use super::link::REFERENCE;
use crate::read::components::{Policy, PolicyAttachments, QName};
use crate::read::document::DocCtx;

const HEAD: &str = r##"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:wsp12="http://schemas.xmlsoap.org/ws/2004/09/policy"
  xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702"
  xmlns:tns="urn:t" targetNamespace="urn:t">"##;

/// The attachments of `body` in a WSDL.
fn read(body: &str) -> PolicyAttachments {
    let text = format!("{HEAD}{body}</definitions>");
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cx = DocCtx::new(Arc::from("t.wsdl"), &doc);
    let mut out = PolicyAttachments::default();
    attach::read(&cx, doc.root_element(), "urn:t", &[], &mut out).unwrap();
    out
}

fn binding(att: &PolicyAttachments) -> &Policy {
    &att.bindings[&QName::new("urn:t", "B")]
}

/// Each alternative as the local names of its assertions.
fn names(p: &Policy) -> Vec<Vec<String>> {
    p.alternatives
        .iter()
        .map(|a| a.assertions.iter().map(|x| x.name.local.clone()).collect())
        .collect()
}

#[test]
fn all_and_exactly_one_give_the_cross_product() {
    let att = read(
        r##"<binding name="B" type="tns:P"><wsp:Policy><sp:A/>
             <wsp:ExactlyOne><sp:B/><wsp:All><sp:C/><sp:D/></wsp:All></wsp:ExactlyOne>
             <wsp:ExactlyOne><sp:E/><sp:F/></wsp:ExactlyOne></wsp:Policy></binding>"##,
    );
    assert_eq!(
        names(binding(&att)),
        [
            vec!["A", "B", "E"],
            vec!["A", "B", "F"],
            vec!["A", "C", "D", "E"],
            vec!["A", "C", "D", "F"]
        ]
    );
}

#[test]
fn an_optional_assertion_gives_an_alternative_without_it() {
    let att = read(
        r##"<binding name="B" type="tns:P"><wsp:Policy><sp:A/><sp:B wsp:Optional="true"/></wsp:Policy></binding>"##,
    );
    assert_eq!(names(binding(&att)), [vec!["A", "B"], vec!["A"]]);
    let b = &binding(&att).alternatives[0].assertions[1];
    assert!(b.optional && !b.ignorable);
}

#[test]
fn nested_alternatives_become_assertions_of_their_own() {
    let att = read(
        r##"<binding name="B" type="tns:P"><wsp:Policy><sp:Binding><wsp:Policy>
             <wsp:ExactlyOne><sp:X/><sp:Y/></wsp:ExactlyOne></wsp:Policy></sp:Binding></wsp:Policy></binding>"##,
    );
    let p = binding(&att);
    assert_eq!(names(p), [vec!["Binding"], vec!["Binding"]]);
    let nested: Vec<&str> = p
        .alternatives
        .iter()
        .map(|a| a.assertions[0].nested_assertions()[0].name.local.as_str())
        .collect();
    assert_eq!(nested, ["X", "Y"]);
}

#[test]
fn references_ids_names_and_policy_uris_resolve_in_the_document() {
    let att = read(
        r##"<wsp:Policy wsu:Id="P1"><sp:A/></wsp:Policy>
           <wsp:Policy Name="urn:policy:two"><sp:B/></wsp:Policy>
           <wsp12:Policy wsu:Id="P3"><sp:C wsp12:Ignorable="true"/></wsp12:Policy>
           <binding name="B" type="tns:P" wsp:PolicyURIs="#P3">
             <wsp:PolicyReference URI="#P1"/><wsp:PolicyReference URI="urn:policy:two"/>
             <wsp:PolicyReference URI="#missing"/>
             <operation name="op"><input><wsp:PolicyReference URI="#P1"/></input></operation>
           </binding>"##,
    );
    // `#missing` names no policy of the document: a placeholder stays for the other documents.
    assert_eq!(names(binding(&att)), [vec!["A", "B", "#missing", "C"]]);
    assert_eq!(
        binding(&att).alternatives[0].assertions[2].name.ns,
        REFERENCE
    );
    assert!(binding(&att).alternatives[0].assertions[3].ignorable);
    let op = &att.binding_operations[&(QName::new("urn:t", "B"), "op".to_owned())];
    assert_eq!(names(&op.input), [vec!["A"]]);
    assert!(op.output.is_empty() && op.operation.is_empty());
}

#[test]
fn an_empty_exactly_one_admits_nothing_and_an_empty_policy_requires_nothing() {
    let att = read(
        r##"<binding name="B" type="tns:P"><wsp:Policy><wsp:ExactlyOne/></wsp:Policy></binding>
           <binding name="E" type="tns:P"><wsp:Policy/></binding>"##,
    );
    assert!(binding(&att).alternatives.is_empty());
    assert!(att.bindings[&QName::new("urn:t", "E")].is_empty());
}

/// The error reading `body` in a WSDL gives.
fn read_err(body: &str) -> String {
    let text = format!("{HEAD}{body}</definitions>");
    let doc = roxmltree::Document::parse(&text).unwrap();
    let cx = DocCtx::new(Arc::from("t.wsdl"), &doc);
    let mut out = PolicyAttachments::default();
    attach::read(&cx, doc.root_element(), "urn:t", &[], &mut out)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_reference_loop_is_an_error_with_its_place() {
    let text = read_err(
        "<wsp:Policy wsu:Id=\"L\"><wsp:PolicyReference URI=\"#L\"/></wsp:Policy>\
         <binding name=\"B\" type=\"tns:P\"><wsp:PolicyReference URI=\"#L\"/></binding>",
    );
    assert!(text.starts_with("t.wsdl:"), "{text}");
    assert!(text.contains("deeper than"), "{text}");
}

#[test]
fn too_many_alternatives_are_refused() {
    let choice = "<wsp:ExactlyOne><sp:A/><sp:B/><sp:C/><sp:D/></wsp:ExactlyOne>".repeat(7);
    let text = read_err(&format!(
        "<binding name=\"B\" type=\"tns:P\"><wsp:Policy>{choice}</wsp:Policy></binding>"
    ));
    assert!(text.contains("more than 4096 alternatives"), "{text}");
}

#[test]
fn parameters_keep_attributes_text_and_namespaces() {
    let att = read(
        r##"<binding name="B" type="tns:P"><wsp:Policy><sp:SignedParts><sp:Body/>
             <sp:Header Name="To" Namespace="urn:h"/></sp:SignedParts>
             <sp:SignedElements><sp:XPath xmlns:x="urn:x">//x:a</sp:XPath></sp:SignedElements>
           </wsp:Policy></binding>"##,
    );
    let a = &binding(&att).alternatives[0].assertions;
    assert_eq!(a[0].parameters[1].attribute("Name"), Some("To"));
    assert_eq!(a[0].parameters[1].attribute("Namespace"), Some("urn:h"));
    let x = &a[1].parameters[0];
    assert_eq!(x.text, "//x:a");
    assert!(x.namespaces.contains(&("x".to_owned(), "urn:x".to_owned())));
}
