//! WS-Addressing read from WSDL 1.1 documents held in memory: where it is said (a binding's own
//! `wsaw:UsingAddressing`, WS-Policy attached by `wsp:PolicyReference`, `wsp:PolicyURIs` or inline,
//! on a binding or a port; WS-Policy 1.2 and 1.5; the 2004/08 submission's assertion), what it
//! applies to (the SOAP versions whose binding says it), and each operation's action
//! (`wsam:Action`, else WS-Addressing Metadata §4.4.4's default pattern). The calls themselves
//! are tested against gSOAP's WS-Addressing plugin in tests/tests/addressing_wsdl.rs.

use soapgen_build::model::ir::SoapVersion;
use soapgen_build::read::components::AddressingVersion;
use soapgen_build::{Builder, Generated};

const WSDL: &str = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/"
  xmlns:wsp="http://www.w3.org/ns/ws-policy" xmlns:wsp12="http://schemas.xmlsoap.org/ws/2004/09/policy"
  xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:wsaw="http://www.w3.org/2006/05/addressing/wsdl" xmlns:wsam="http://www.w3.org/2007/05/addressing/metadata"
  xmlns:wsap="http://schemas.xmlsoap.org/ws/2004/08/addressing/policy"
  xmlns:t="http://example.com/orders" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="http://example.com/orders">
 POLICIES
 <types><xs:schema targetNamespace="http://example.com/orders" elementFormDefault="qualified">
   <xs:element name="Get"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="GetResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
 </xs:schema></types>
 <message name="In"><part name="p" element="t:Get"/></message>
 <message name="Out"><part name="p" element="t:GetResponse"/></message>
 <portType name="Orders"><operation name="Get"><input INPUT message="t:In"/><output message="t:Out"/></operation></portType>
 <binding name="B11" type="t:Orders" B11ATTRS>B11EXT<soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap:operation soapAction="ACTION"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
 <binding name="B12" type="t:Orders">B12EXT<soap12:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap12:operation soapAction="ACTION"/><input><soap12:body use="literal"/></input><output><soap12:body use="literal"/></output></operation></binding>
 <service name="S">
  <port name="P11" binding="t:B11">P11EXT<soap:address location="http://localhost/11"/></port>
  <port name="P12" binding="t:B12"><soap12:address location="http://localhost/12"/></port>
 </service>
</definitions>"#;

#[derive(Default)]
struct Doc<'a> {
    policies: &'a str,
    input: &'a str,
    action: &'a str,
    b11_attrs: &'a str,
    b11: &'a str,
    b12: &'a str,
    p11: &'a str,
}

/// The WSDL with `d`'s pieces in its placeholders.
fn wsdl(d: &Doc<'_>) -> String {
    WSDL.replace("POLICIES", d.policies)
        .replace("INPUT", d.input)
        .replace("ACTION", d.action)
        .replace("B11ATTRS", d.b11_attrs)
        .replace("B11EXT", d.b11)
        .replace("B12EXT", d.b12)
        .replace("P11EXT", d.p11)
}

fn generate(d: Doc<'_>) -> Generated {
    let doc = wsdl(&d);
    Builder::new()
        .document("/mem/addressing/a.wsdl", &doc)
        .generate_one(std::path::Path::new("/mem/addressing/a.wsdl"))
        .unwrap_or_else(|e| panic!("{e}\n{doc}"))
}

fn addressing(g: &Generated) -> Vec<(SoapVersion, AddressingVersion)> {
    assert_eq!(g.module.clients.len(), 1);
    g.module.clients[0].addressing.clone()
}

fn action(g: &Generated) -> String {
    g.module.clients[0].operations[0].action.clone()
}

const DEFAULT_ACTION: &str = "http://example.com/orders/Orders/GetRequest";

#[test]
fn without_a_word_of_addressing_nothing_is_addressed() {
    let g = generate(Doc {
        action: "urn:get",
        ..Default::default()
    });
    assert!(addressing(&g).is_empty());
    assert_eq!(action(&g), "urn:get");
    assert!(!g.code.contains("addressing"), "{}", g.code);
}

#[test]
fn using_addressing_on_one_binding_addresses_its_soap_version_only() {
    let g = generate(Doc {
        b12: "<wsaw:UsingAddressing/>",
        ..Default::default()
    });
    assert_eq!(
        addressing(&g),
        [(SoapVersion::Soap12, AddressingVersion::W3C)]
    );
    // The default action pattern (Metadata §4.4.4), a URL namespace: '/' delimiters.
    assert_eq!(action(&g), DEFAULT_ACTION);
    assert!(
        g.code
            .contains(r#"addressing(version = "1.0", soap = "1.2")"#),
        "{}",
        g.code
    );
}

#[test]
fn policy_references_uris_and_inline_policies_on_bindings_and_ports() {
    let policy = r#"<wsp:Policy wsu:Id="wsa"><wsp:ExactlyOne><wsp:All><wsam:Addressing wsp:Optional="true"><wsp:Policy/></wsam:Addressing></wsp:All></wsp:ExactlyOne></wsp:Policy>
      <wsp12:Policy wsu:Id="old"><wsp12:ExactlyOne><wsp12:All><wsap:UsingAddressing/></wsp12:All></wsp12:ExactlyOne></wsp12:Policy>"#;
    // By reference from both bindings.
    let g = generate(Doc {
        policies: policy,
        b11: r##"<wsp:PolicyReference URI="#wsa"/>"##,
        b12: r##"<wsp:PolicyReference URI="#wsa"/>"##,
        ..Default::default()
    });
    let both = [
        (SoapVersion::Soap11, AddressingVersion::W3C),
        (SoapVersion::Soap12, AddressingVersion::W3C),
    ];
    assert_eq!(addressing(&g), both);
    assert!(g.code.contains(r#"addressing = "1.0""#), "{}", g.code);
    // WS-Policy 1.2 by the PolicyURIs attribute: the 2004/08 submission.
    let g = generate(Doc {
        policies: policy,
        b11_attrs: r##"wsp12:PolicyURIs="#old""##,
        ..Default::default()
    });
    assert_eq!(
        addressing(&g),
        [(SoapVersion::Soap11, AddressingVersion::Submission2004)]
    );
    assert!(g.code.contains(r#"version = "2004/08""#), "{}", g.code);
    // Inline, on the port.
    let g = generate(Doc {
        p11: "<wsp:Policy><wsaw:UsingAddressing/></wsp:Policy>",
        ..Default::default()
    });
    assert_eq!(
        addressing(&g),
        [(SoapVersion::Soap11, AddressingVersion::W3C)]
    );
}

#[test]
fn a_reference_to_no_policy_refuses_the_port_at_the_reference() {
    // What the service demands there is unknown (Apache CXF refuses such an endpoint too): an
    // error at the reference, naming it, unless the port's security is configured by hand.
    let doc = WSDL
        .replace("POLICIES", "")
        .replace("INPUT", "")
        .replace("ACTION", "")
        .replace("B11ATTRS", "")
        .replace("B11EXT", r##"<wsp:PolicyReference URI="#nowhere"/>"##)
        .replace("B12EXT", "")
        .replace("P11EXT", "");
    let path = std::path::Path::new("/mem/addressing/a.wsdl");
    let e = Builder::new()
        .document("/mem/addressing/a.wsdl", &doc)
        .generate_one(path)
        .unwrap_err()
        .to_string();
    assert!(e.contains("#nowhere") && e.contains("a.wsdl:"), "{e}");
    let g = Builder::new()
        .document("/mem/addressing/a.wsdl", &doc)
        .manual_security(["*"])
        .generate_one(path)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(addressing(&g).is_empty());
    let w: Vec<String> = g.module.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|w| w.contains("#nowhere") && w.contains("a.wsdl:")),
        "{w:?}"
    );
}

#[test]
fn an_explicit_action_wins_and_a_differing_soap_action_is_warned() {
    let g = generate(Doc {
        input: r#"wsam:Action="http://example.com/orders/get""#,
        action: "http://example.com/orders/get",
        b11: "<wsaw:UsingAddressing/>",
        b12: "<wsaw:UsingAddressing/>",
        ..Default::default()
    });
    assert_eq!(action(&g), "http://example.com/orders/get");
    assert!(g.module.warnings.is_empty(), "{:?}", g.module.warnings);
    let g = generate(Doc {
        action: "urn:legacy",
        b11: "<wsaw:UsingAddressing/>",
        ..Default::default()
    });
    assert_eq!(action(&g), DEFAULT_ACTION);
    let w: Vec<String> = g.module.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|w| w.contains("\"urn:legacy\"") && w.contains(DEFAULT_ACTION)),
        "{w:?}"
    );
}

fn generate_text(doc: &str) -> Generated {
    Builder::new()
        .document("/mem/addressing/b.wsdl", doc)
        .generate_one(std::path::Path::new("/mem/addressing/b.wsdl"))
        .unwrap_or_else(|e| panic!("{e}\n{doc}"))
}

fn reply_action(g: &Generated) -> Option<String> {
    g.module.clients[0].operations[0].reply_action.clone()
}

/// The reply's action (Metadata §4.4): the output's `wsam:Action`, else the default pattern with
/// the output's name (`{operation}Response` by default); only for addressed clients.
#[test]
fn the_output_action_is_the_replys_expected_wsa_action() {
    let base = WSDL
        .replace("POLICIES", "")
        .replace("INPUT", "")
        .replace("ACTION", "")
        .replace("B11ATTRS", "")
        .replace("B11EXT", "<wsaw:UsingAddressing/>")
        .replace("B12EXT", "<wsaw:UsingAddressing/>")
        .replace("P11EXT", "");
    let g = generate_text(&base);
    let default = "http://example.com/orders/Orders/GetResponse";
    assert_eq!(reply_action(&g).as_deref(), Some(default));
    assert!(
        g.code.contains(&format!("reply_action = \"{default}\"")),
        "{}",
        g.code
    );
    let named = base.replace(
        r#"<output message="t:Out"/>"#,
        r#"<output name="Answer" message="t:Out"/>"#,
    );
    assert_eq!(
        reply_action(&generate_text(&named)).as_deref(),
        Some("http://example.com/orders/Orders/Answer")
    );
    let explicit = base.replace(
        r#"<output message="t:Out"/>"#,
        r#"<output wsam:Action="urn:orders:answer" message="t:Out"/>"#,
    );
    assert_eq!(
        reply_action(&generate_text(&explicit)).as_deref(),
        Some("urn:orders:answer")
    );
    // Not addressed: nothing to check.
    let g = generate(Doc::default());
    assert_eq!(reply_action(&g), None);
    assert!(!g.code.contains("reply_action"), "{}", g.code);
}

/// A `soap:header` of the output (WSDL 1.1 §3.7) is a response header of the operation, not a
/// body part: a `DeclaredHeader` constant of the client, each element once.
#[test]
fn output_soap_headers_become_declared_header_constants() {
    let doc = wsdl(&Doc::default())
        .replace(
            "</xs:schema></types>",
            r#"<xs:element name="Session" type="xs:string"/><xs:element name="Quota" type="xs:int"/></xs:schema></types>
 <message name="H"><part name="s" element="t:Session"/><part name="q" element="t:Quota"/></message>"#,
        )
        .replace(
            r#"<output><soap:body use="literal"/></output>"#,
            r#"<output><soap:body use="literal"/><soap:header message="t:H" part="s" use="literal"/><soap:header message="t:H" part="q" use="literal"/></output>"#,
        )
        .replace(
            r#"<output><soap12:body use="literal"/></output>"#,
            r#"<output><soap12:body use="literal"/><soap12:header message="t:H" part="s" use="literal"/></output>"#,
        );
    let g = generate_text(&doc);
    let op = &g.module.clients[0].operations[0];
    let names: Vec<(&str, &str)> = op
        .response_headers
        .iter()
        .map(|h| (h.name.as_str(), h.xml.local.as_str()))
        .collect();
    assert_eq!(names, [("session", "Session"), ("quota", "Quota")]);
    // Not parameters, not in the body.
    assert!(
        op.params.iter().all(|p| p.xml.local == "id"),
        "{:?}",
        op.params
    );
    let code = g
        .code
        .replace(char::is_whitespace, "")
        .replace(",)", ")")
        .replace(",>", ">");
    for c in [
        r#"pubconstSESSION_HEADER:::soapgen_runtime::header::DeclaredHeader<::std::string::String>=::soapgen_runtime::header::DeclaredHeader::new("http://example.com/orders","Session");"#,
        r#"pubconstQUOTA_HEADER:::soapgen_runtime::header::DeclaredHeader<i32>=::soapgen_runtime::header::DeclaredHeader::new("http://example.com/orders","Quota");"#,
    ] {
        assert!(code.contains(c), "{c} not in {}", g.code);
    }
}

/// A `soap:header` of the input (WSDL 1.1 §3.7) is set on the client, never a positional
/// parameter: the method takes the body parts alone, its documentation names the constant, and
/// an element declared in both directions is one constant. `SessionHeader` is not named
/// `SESSION_HEADER_HEADER`.
#[test]
fn input_soap_headers_are_client_constants_not_parameters() {
    let doc = wsdl(&Doc::default())
        .replace(
            "</xs:schema></types>",
            r#"<xs:element name="SessionHeader"><xs:complexType><xs:sequence><xs:element name="sessionId" type="xs:string"/></xs:sequence></xs:complexType></xs:element><xs:element name="Quota" type="xs:int"/></xs:schema></types>
 <message name="H"><part name="s" element="t:SessionHeader"/><part name="q" element="t:Quota"/></message>"#,
        )
        .replace(
            r#"<input><soap:body use="literal"/></input><output><soap:body use="literal"/></output>"#,
            r#"<input><soap:body use="literal"/><soap:header message="t:H" part="s" use="literal"/></input><output><soap:body use="literal"/><soap:header message="t:H" part="s" use="literal"/><soap:header message="t:H" part="q" use="literal"/></output>"#,
        )
        .replace(
            r#"<input><soap12:body use="literal"/></input><output><soap12:body use="literal"/></output>"#,
            r#"<input><soap12:body use="literal"/><soap12:header message="t:H" part="s" use="literal"/></input><output><soap12:body use="literal"/><soap12:header message="t:H" part="s" use="literal"/><soap12:header message="t:H" part="q" use="literal"/></output>"#,
        );
    let g = generate_text(&doc);
    let op = &g.module.clients[0].operations[0];
    assert_eq!(op.headers.len(), 1, "{:?}", op.headers);
    let code = g
        .code
        .replace(char::is_whitespace, "")
        .replace(",)", ")")
        .replace(",>", ">");
    // The method takes the body part alone.
    assert!(
        code.contains("asyncfnget(&self,#[soap(rename=\"id\""),
        "{}",
        g.code
    );
    assert!(!code.contains("#[soap(header"), "{}", g.code);
    assert_eq!(
        code.matches("pubconstSESSION_HEADER:").count(),
        1,
        "{}",
        g.code
    );
    for c in [
        r#"pubconstSESSION_HEADER:::soapgen_runtime::header::DeclaredHeader<types::SessionHeader>=::soapgen_runtime::header::DeclaredHeader::new("http://example.com/orders","SessionHeader");"#,
        r#"pubconstQUOTA_HEADER:::soapgen_runtime::header::DeclaredHeader<i32>="#,
        "`with_header`:[`SClient::SESSION_HEADER`].",
        "client.with_header(Self::SESSION_HEADER,&value)",
    ] {
        assert!(code.contains(c), "{c} not in {}", g.code);
    }
}
