//! WSDLs of several documents. A definition repeated across them (WSDL 1.1 §2.1.1: names are
//! unique in their symbol space): an overlay that imports the documents it redefines keeps the first
//! definition read, with a located warning, and the policies attached to the one left out are
//! left out with it; in one document a repeated name is an error; a schema component copied with
//! the same text into two documents is read once, a different one is an error. A policy
//! reference to another document's policy is linked (WS-Policy 1.5 Attachment §4.1); one to no
//! policy read refuses the port, naming it.

use std::path::{Path, PathBuf};

use soapgen_build::Builder;

const SCHEMA: &str = r#"<types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
   <xs:element name="Get"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="GetResponse"><xs:complexType><xs:sequence><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
 </xs:schema></types>"#;

const HEAD: &str = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:wsp="http://www.w3.org/ns/ws-policy"
  xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702"
  xmlns:t="urn:t" targetNamespace="urn:t">"#;

/// The service document: schema, messages, portType, service; imports `import`.
fn service(import: &str, schema: &str) -> String {
    format!(
        r#"{HEAD}
 <import namespace="urn:t" location="{import}"/>
 {schema}
 <message name="In"><part name="p" element="t:Get"/></message>
 <message name="Out"><part name="p" element="t:GetResponse"/></message>
 <portType name="PT"><operation name="Get"><input message="t:In"/><output message="t:Out"/></operation></portType>
 <service name="S"><port name="P" binding="t:B"><soap:address location="https://localhost/p"/></port></service>
</definitions>"#
    )
}

/// A binding document whose binding `B` references the policy `policy` it defines; imports
/// `import` when given.
fn binding(policy: &str, import: Option<&str>) -> String {
    let import = import
        .map(|i| format!(r#"<import namespace="urn:t" location="{i}"/>"#))
        .unwrap_or_default();
    format!(
        r##"{HEAD}
 {import}
 <wsp:Policy wsu:Id="Pol">{policy}</wsp:Policy>
 <binding name="B" type="t:PT"><wsp:PolicyReference URI="#Pol"/>
  <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap:operation soapAction="g"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
</definitions>"##
    )
}

const TRANSPORT: &str = r#"<sp:TransportBinding><wsp:Policy>
   <sp:TransportToken><wsp:Policy><sp:HttpsToken/></wsp:Policy></sp:TransportToken>
   <sp:AlgorithmSuite><wsp:Policy><sp:Basic128/></wsp:Policy></sp:AlgorithmSuite>
   <sp:IncludeTimestamp/></wsp:Policy></sp:TransportBinding>"#;

const ISSUED: &str =
    r#"<sp:SupportingTokens><wsp:Policy><sp:IssuedToken/></wsp:Policy></sp:SupportingTokens>"#;

/// Writes `files` into a fresh folder of this test; returns it.
fn lay_out(test: &str, files: &[(&str, String)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("soapgen-overlays-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

fn generate(entry: &Path) -> Result<soapgen_build::Generated, soapgen_build::Errors> {
    Builder::new().wsdl(entry).generate_one(entry)
}

#[test]
fn an_overlay_keeps_its_own_binding_and_policy_and_says_which_it_left_out() {
    // overlay.wsdl (service) -> restricted.wsdl (B, transport) -> base.wsdl (service again)
    // -> base-binding.wsdl (B again, with a policy soapgen refuses).
    let dir = lay_out(
        "overlay",
        &[
            ("overlay.wsdl", service("restricted.wsdl", SCHEMA)),
            ("restricted.wsdl", binding(TRANSPORT, Some("base.wsdl"))),
            ("base.wsdl", service("base-binding.wsdl", SCHEMA)),
            ("base-binding.wsdl", binding(ISSUED, None)),
        ],
    );
    let g = generate(&dir.join("overlay.wsdl")).unwrap_or_else(|e| panic!("{e}"));
    let port = &g.module.clients[0].ports[0];
    let sec = port.security.as_ref().expect("the overlay's policy");
    let chosen = sec.operations[0].input.chosen().expect("applied");
    assert!(chosen.binding.is_some(), "{chosen:?}");
    let said: Vec<String> = g.module.warnings.iter().map(|w| w.to_string()).collect();
    for what in [
        "message {urn:t}In",
        "portType {urn:t}PT",
        "service {urn:t}S",
        "binding {urn:t}B",
    ] {
        let w = said
            .iter()
            .find(|w| w.contains(what))
            .unwrap_or_else(|| panic!("no warning of {what}: {said:#?}"));
        assert!(w.contains("defined again in another document"), "{w}");
    }
    let b = said
        .iter()
        .find(|w| w.contains("binding {urn:t}B"))
        .unwrap();
    assert!(b.contains("base-binding.wsdl:"), "at the one left out: {b}");
    assert!(b.contains("restricted.wsdl:"), "naming the one used: {b}");
    // The identical schema in base.wsdl was read once: no error, no warning.
    assert!(!said.iter().any(|w| w.contains("element")), "{said:#?}");
}

#[test]
fn a_name_defined_twice_in_one_document_is_an_error() {
    let twice = binding(TRANSPORT, None).replace(
        "</definitions>",
        r#"<binding name="B" type="t:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/></binding></definitions>"#,
    );
    let dir = lay_out(
        "twice",
        &[("s.wsdl", service("b.wsdl", SCHEMA)), ("b.wsdl", twice)],
    );
    let e = generate(&dir.join("s.wsdl")).unwrap_err().to_string();
    assert!(
        e.contains("duplicate definition of binding {urn:t}B"),
        "{e}"
    );
    assert!(e.contains("b.wsdl:"), "{e}");
}

#[test]
fn a_schema_component_defined_differently_in_two_documents_is_an_error() {
    let other = SCHEMA.replace(r#"name="a" type="xs:int""#, r#"name="a" type="xs:string""#);
    let dir = lay_out(
        "schemas",
        &[
            ("s.wsdl", service("b.wsdl", SCHEMA)),
            ("b.wsdl", binding(TRANSPORT, Some("s2.wsdl"))),
            ("s2.wsdl", service("b.wsdl", &other)),
        ],
    );
    let e = generate(&dir.join("s.wsdl")).unwrap_err().to_string();
    assert!(
        e.contains("duplicate definition of element {urn:t}Get"),
        "{e}"
    );
    assert!(e.contains("s2.wsdl:") && e.contains("s.wsdl:"), "{e}");
}

/// A binding document whose binding `B` references `uri` and defines no policy.
fn referencing(uri: &str) -> String {
    binding("", None)
        .replace(r##"<wsp:Policy wsu:Id="Pol"></wsp:Policy>"##, "")
        .replace(r##"URI="#Pol""##, &format!(r#"URI="{uri}""#))
}

/// A document that defines the policy `Pol` (TRANSPORT) and nothing else.
fn policies() -> String {
    format!(r#"{HEAD}<wsp:Policy wsu:Id="Pol">{TRANSPORT}</wsp:Policy></definitions>"#)
}

#[test]
fn a_reference_to_a_policy_of_another_document_is_linked() {
    for uri in ["#Pol", "policies.wsdl#Pol", "./policies.wsdl#Pol"] {
        let dir = lay_out(
            "linked",
            &[
                ("s.wsdl", service("b.wsdl", SCHEMA)),
                (
                    "b.wsdl",
                    referencing(uri).replace(
                        "</definitions>",
                        r#"<import namespace="urn:t" location="policies.wsdl"/></definitions>"#,
                    ),
                ),
                ("policies.wsdl", policies()),
            ],
        );
        let g = generate(&dir.join("s.wsdl")).unwrap_or_else(|e| panic!("{uri}: {e}"));
        let sec = g.module.clients[0].ports[0]
            .security
            .as_ref()
            .unwrap_or_else(|| panic!("{uri}: the linked policy"));
        let chosen = sec.operations[0].input.chosen().expect("applied");
        assert!(chosen.binding.is_some(), "{uri}: {chosen:?}");
    }
}

#[test]
fn a_reference_to_no_policy_read_refuses_the_port_naming_it() {
    let dir = lay_out(
        "dangling",
        &[
            ("s.wsdl", service("b.wsdl", SCHEMA)),
            ("b.wsdl", referencing("#Nowhere")),
        ],
    );
    let e = generate(&dir.join("s.wsdl")).unwrap_err().to_string();
    assert!(e.contains("#Nowhere"), "{e}");
    assert!(e.contains("wsp:PolicyReference \"#Nowhere\""), "{e}");
    assert!(e.contains("no policy of the WSDL"), "{e}");
    assert!(!e.contains(":0:0"), "{e}");
    assert!(e.contains("b.wsdl:"), "at the reference: {e}");
    // Configured by hand, it is a warning.
    let g = Builder::new()
        .wsdl(dir.join("s.wsdl"))
        .manual_security(["P"])
        .generate_one(&dir.join("s.wsdl"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        g.module
            .warnings
            .iter()
            .any(|w| w.message.contains("#Nowhere")),
        "{:?}",
        g.module.warnings
    );
}

#[test]
fn a_port_name_in_the_wrong_case_suggests_the_port() {
    let dir = lay_out(
        "port_case",
        &[
            ("s.wsdl", service("b.wsdl", SCHEMA)),
            ("b.wsdl", referencing("#Nowhere")),
        ],
    );
    for (what, b) in [
        (
            "ports",
            Builder::new().wsdl(dir.join("s.wsdl")).ports(["p"]),
        ),
        (
            "manual_security",
            Builder::new()
                .wsdl(dir.join("s.wsdl"))
                .manual_security(["p"]),
        ),
    ] {
        let e = b.generate_one(&dir.join("s.wsdl")).unwrap_err().to_string();
        assert!(
            e.contains("\"p\"") && e.contains("hint: did you mean \"P\"?"),
            "{what}: {e}"
        );
    }
}
