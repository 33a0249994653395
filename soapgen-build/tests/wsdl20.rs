//! WSDL 2.0 documents (W3C Recommendation 2007, namespace `http://www.w3.org/ns/wsdl`) held in memory
//! (`Builder::document`), read into the model a WSDL 1.1 document gives: in-out and in-only
//! operations, SOAP 1.1 and 1.2 bindings, an interface extending another, faults, SOAP headers, an
//! HTTP binding beside the SOAP ones; and the located errors for what a client cannot call.

use std::path::Path;

use soapgen_build::model::ir::{ClientDecl, Doc, Module, OperationDecl, SoapVersion, TypeDecl};
use soapgen_build::{Builder, Error, ErrorKind};

const PATH: &str = "/nonexistent/w2/service.wsdl";

/// A service of two interfaces (`Service` extends `Base`), bound to SOAP 1.2 (the default version),
/// SOAP 1.1 and HTTP, with an endpoint each.
const WSDL: &str = r#"<?xml version="1.0"?>
<description xmlns="http://www.w3.org/ns/wsdl" targetNamespace="urn:w2" xmlns:tns="urn:w2"
    xmlns:wsoap="http://www.w3.org/ns/wsdl/soap" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <documentation>The W2 service.</documentation>
  <types>
    <xs:schema targetNamespace="urn:w2" elementFormDefault="qualified">
      <xs:element name="Ping"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="PingResponse"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Notify"><xs:complexType><xs:sequence><xs:element name="event" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Bad"><xs:complexType><xs:sequence><xs:element name="reason" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
      <xs:element name="Token" type="xs:string"/>
    </xs:schema>
  </types>
  <interface name="Base">
    <fault name="BadFault" element="tns:Bad"/>
    <operation name="Ping" pattern="http://www.w3.org/ns/wsdl/in-out">
      <documentation>Answers with the text sent.</documentation>
      <input messageLabel="In" element="tns:Ping"/>
      <output messageLabel="Out" element="tns:PingResponse"/>
      <outfault ref="tns:BadFault" messageLabel="Out"/>
    </operation>
  </interface>
  <interface name="Service" extends="tns:Base">
    <operation name="Notify" pattern="http://www.w3.org/ns/wsdl/in-only">
      <input element="tns:Notify"/>
    </operation>
    <operation name="Report" pattern="http://www.w3.org/ns/wsdl/robust-in-only">
      <input element="tns:Notify"/>
      <infault ref="tns:BadFault"/>
    </operation>
  </interface>
  <binding name="Soap12" interface="tns:Service" type="http://www.w3.org/ns/wsdl/soap"
      wsoap:protocol="http://www.w3.org/2003/05/soap/bindings/HTTP/">
    <fault ref="tns:BadFault" wsoap:code="soap:Sender"/>
    <operation ref="tns:Ping" wsoap:action="urn:w2#Ping">
      <input><wsoap:header element="tns:Token"/></input>
    </operation>
  </binding>
  <binding name="Soap11" interface="tns:Service" type="http://www.w3.org/ns/wsdl/soap"
      wsoap:version="1.1" wsoap:protocol="http://www.w3.org/2006/01/soap11/bindings/HTTP/">
    <operation ref="tns:Notify" wsoap:action="urn:w2#Notify"/>
  </binding>
  <binding name="Http" interface="tns:Service" type="http://www.w3.org/ns/wsdl/http"/>
  <service name="W2" interface="tns:Service">
    <endpoint name="E12" binding="tns:Soap12" address="http://localhost/s12"/>
    <endpoint name="E11" binding="tns:Soap11" address="http://localhost/s11"/>
    <endpoint name="EHttp" binding="tns:Http" address="http://localhost/http"/>
  </service>
</description>"#;

fn generate(text: &str) -> Module {
    let g = Builder::new()
        .document(PATH, text)
        .generate_one(Path::new(PATH))
        .unwrap_or_else(|e| panic!("should generate, but:\n{e}"));
    // The code is valid Rust.
    syn::parse_file(&g.code).unwrap_or_else(|e| panic!("does not parse: {e}\n{}", g.code));
    g.module
}

/// The one error of generating `text`.
fn error(text: &str) -> Error {
    match Builder::new()
        .document(PATH, text)
        .generate_one(Path::new(PATH))
    {
        Ok(_) => panic!("should not generate"),
        Err(mut es) => {
            assert_eq!(es.0.len(), 1, "expected one error, got:\n{es}");
            es.0.remove(0)
        }
    }
}

/// The 1-based (line, column) of the first `needle` in `text`, as the reader reports locations.
fn pos(text: &str, needle: &str) -> (u32, u32) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the document"));
    let before = &text[..at];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    (line, col)
}

#[track_caller]
fn assert_at(e: &Error, text: &str, needle: &str) {
    let loc = e
        .loc
        .as_ref()
        .unwrap_or_else(|| panic!("no location on: {e}"));
    assert_eq!(&*loc.file, PATH, "{e}");
    assert_eq!((loc.line, loc.column), pos(text, needle), "{e}");
    assert!(e
        .to_string()
        .starts_with(&format!("{PATH}:{}:{}: ", loc.line, loc.column)));
}

fn client<'m>(m: &'m Module, binding: &str) -> &'m ClientDecl {
    m.clients
        .iter()
        .find(|c| c.bindings.iter().any(|(b, _)| b.local == binding))
        .unwrap_or_else(|| panic!("no client of binding {binding}: {:?}", m.clients))
}

fn op<'c>(c: &'c ClientDecl, wsdl_name: &str) -> &'c OperationDecl {
    c.operations
        .iter()
        .find(|o| o.wsdl_name == wsdl_name)
        .unwrap_or_else(|| panic!("no operation {wsdl_name} in {}", c.name))
}

#[test]
fn in_out_and_in_only_over_soap_1_2_by_default() {
    let m = generate(WSDL);
    let c = client(&m, "Soap12");
    assert_eq!(
        c.versions,
        [SoapVersion::Soap12],
        "wsoap:version defaults to 1.2"
    );
    assert_eq!(c.endpoint.as_deref(), Some("http://localhost/s12"));
    let ports: Vec<_> = c
        .ports
        .iter()
        .map(|p| (p.service.as_str(), p.port.as_str(), p.address.as_deref()))
        .collect();
    assert_eq!(ports, [("W2", "E12", Some("http://localhost/s12"))]);
    // in-out, wrapped (the input element is named after the operation): a parameter per child.
    let ping = op(c, "Ping");
    assert_eq!(ping.action, "urn:w2#Ping");
    assert_eq!(ping.request.local, "Ping");
    assert_eq!(
        ping.response.as_ref().map(|q| q.local.as_str()),
        Some("PingResponse")
    );
    assert_eq!(ping.params.len(), 1);
    assert_eq!(ping.params[0].xml.local, "text");
    assert!(ping
        .doc
        .as_ref()
        .is_some_and(|d| d.to_string().contains("Answers with the text sent.")));
    // in-only and robust-in-only: no response; the operation without wsoap:action has none.
    for name in ["Notify", "Report"] {
        let o = op(c, name);
        assert_eq!(o.response, None, "{name}");
        assert_eq!(o.ret, None, "{name}");
        assert_eq!(o.action, "", "{name}");
    }
    assert!(
        !op(c, "Notify").bare,
        "Notify's element is named after it: wrapped"
    );
    assert!(
        op(c, "Report").bare,
        "Report's element is not named after it: bare"
    );
    assert_eq!(m.doc, Some(Doc::prose("The W2 service.")));
}

#[test]
fn wsoap_version_1_1_gives_a_soap_1_1_client() {
    let m = generate(WSDL);
    let c = client(&m, "Soap11");
    assert_eq!(c.versions, [SoapVersion::Soap11]);
    assert_eq!(c.endpoint.as_deref(), Some("http://localhost/s11"));
    // A binding with one operation element binds every interface operation (Part 2 §5 defaults).
    let names: Vec<&str> = c.operations.iter().map(|o| o.wsdl_name.as_str()).collect();
    assert_eq!(names, ["Ping", "Notify", "Report"]);
    assert_eq!(op(c, "Notify").action, "urn:w2#Notify");
    assert_eq!(op(c, "Ping").action, "");
    assert!(
        op(c, "Ping").headers.is_empty(),
        "the header is the SOAP 1.2 binding's"
    );
}

#[test]
fn the_code_names_both_versions() {
    let g = Builder::new()
        .document(PATH, WSDL)
        .generate_one(Path::new(PATH))
        .unwrap();
    let code = g.code.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        // Bindings of one interface that differ in more than the version: one client each, named
        // after the service and the version.
        "pub trait W2Soap12 {",
        "pub trait W2Soap11 {",
        "soap = \"1.2\"",
        "soap = \"1.1\"",
        "action = \"urn:w2#Ping\"",
        "async fn notify(",
        "async fn report(",
        "async fn ping(",
    ] {
        assert!(code.contains(s), "{s:?} not in:\n{}", g.code);
    }
}

#[test]
fn bindings_that_differ_only_in_version_are_one_client() {
    let soap11 = r#"<binding name="Soap11" interface="tns:Service" type="http://www.w3.org/ns/wsdl/soap"
      wsoap:version="1.1" wsoap:protocol="http://www.w3.org/2006/01/soap11/bindings/HTTP/">
    <operation ref="tns:Notify" wsoap:action="urn:w2#Notify"/>
  </binding>"#;
    assert!(WSDL.contains(soap11));
    let wsdl = WSDL.replace(
        soap11,
        r#"<binding name="Soap11" interface="tns:Service" type="http://www.w3.org/ns/wsdl/soap"
      wsoap:version="1.1" wsoap:protocol="http://www.w3.org/2006/01/soap11/bindings/HTTP/">
    <operation ref="tns:Ping" wsoap:action="urn:w2#Ping">
      <input><wsoap:header element="tns:Token"/></input>
    </operation>
  </binding>"#,
    );
    let g = Builder::new()
        .document(PATH, wsdl.as_str())
        .generate_one(Path::new(PATH))
        .unwrap_or_else(|e| panic!("{e}"));
    let m = &g.module;
    assert_eq!(m.clients.len(), 1, "{:?}", m.clients);
    let c = &m.clients[0];
    // Named after the service; the first port (E12) gives the default version and endpoint.
    assert_eq!(c.name, "W2");
    assert_eq!(c.versions, [SoapVersion::Soap12, SoapVersion::Soap11]);
    assert_eq!(c.endpoint.as_deref(), Some("http://localhost/s12"));
    let ports: Vec<(&str, SoapVersion)> = c
        .ports
        .iter()
        .map(|p| (p.port.as_str(), p.version))
        .collect();
    assert_eq!(
        ports,
        [("E12", SoapVersion::Soap12), ("E11", SoapVersion::Soap11)]
    );
    let code = g.code.split_whitespace().collect::<Vec<_>>().join(" ");
    for s in [
        "pub trait W2 {",
        "soap = \"1.2, 1.1\"",
        "endpoint = \"http://localhost/s12\"",
        "/// - service `W2`, port `E11`, SOAP 1.1: <http://localhost/s11>",
    ] {
        assert!(code.contains(s), "{s:?} not in:\n{}", g.code);
    }
}

#[test]
fn a_relative_endpoint_address_is_a_located_warning_not_an_endpoint() {
    let wsdl = WSDL.replace(r#"address="http://localhost/s12""#, r#"address="s12""#);
    let g = Builder::new()
        .document(PATH, wsdl.as_str())
        .generate_one(Path::new(PATH))
        .unwrap_or_else(|e| panic!("{e}"));
    let c = client(&g.module, "Soap12");
    assert_eq!(c.endpoint, None);
    assert!(!g.code.contains("endpoint = \"s12\""), "{}", g.code);
    let [w] = g.module.warnings.as_slice() else {
        panic!("one warning expected: {:?}", g.module.warnings)
    };
    assert_eq!(&*w.loc.file, PATH);
    assert_eq!(
        (w.loc.line, w.loc.column),
        pos(&wsdl, "<endpoint name=\"E12\"")
    );
    assert!(
        w.message.contains("\"s12\"") && w.message.contains("relative URL"),
        "{w}"
    );
}

#[test]
fn an_interface_extending_another_has_its_operations_once() {
    // Diamond: Top extends Left and Right, both extend Base; Base's Ping is bound once.
    let wsdl = WSDL.replace(
        r#"<interface name="Service" extends="tns:Base">"#,
        r#"<interface name="Left" extends="tns:Base"/>
  <interface name="Right" extends="tns:Base"/>
  <interface name="Service" extends="tns:Left tns:Right">"#,
    );
    let m = generate(&wsdl);
    let c = client(&m, "Soap12");
    let names: Vec<&str> = c.operations.iter().map(|o| o.wsdl_name.as_str()).collect();
    assert_eq!(names, ["Ping", "Notify", "Report"]);
}

#[test]
fn an_interface_extending_itself_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<interface name="Base">"#,
        r#"<interface name="Base" extends="tns:Service">"#,
    );
    let e = error(&wsdl);
    let ErrorKind::Invalid(m) = &e.kind else {
        panic!("expected Invalid, got {e}")
    };
    assert!(m.contains("cycle: Base → Service → Base"), "{e}");
    // Located where the cycle closes: Service extends Base.
    assert_at(&e, &wsdl, "<interface name=\"Service\"");
}

#[test]
fn an_undefined_base_interface_is_a_located_error() {
    let wsdl = WSDL.replace(r#"extends="tns:Base""#, r#"extends="tns:Nope""#);
    let e = error(&wsdl);
    assert_eq!(
        e.kind,
        ErrorKind::Undefined("interface {urn:w2}Nope".into())
    );
    assert_at(&e, &wsdl, "<interface name=\"Service\"");
}

#[test]
fn faults_become_typed_details() {
    let m = generate(WSDL);
    let c = client(&m, "Soap12");
    // in-out (outfault) and robust-in-only (infault) of the same interface fault: one type.
    let ping = op(c, "Ping").faults.clone().expect("Ping declares a fault");
    assert_eq!(op(c, "Report").faults.as_ref(), Some(&ping));
    assert_eq!(op(c, "Notify").faults, None, "in-only has no faults");
    let f = m
        .types
        .iter()
        .find_map(|t| match t {
            TypeDecl::Faults(f) if f.name == ping => Some(f),
            _ => None,
        })
        .expect("the fault type");
    assert_eq!(f.variants.len(), 1);
    assert_eq!(f.variants[0].0, "BadFault");
    assert_eq!(f.variants[0].2.local, "Bad");
    assert_eq!(f.variants[0].2.ns, "urn:w2");
}

#[test]
fn a_fault_in_an_in_only_operation_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<input element="tns:Notify"/>
    </operation>"#,
        r#"<input element="tns:Notify"/>
      <infault ref="tns:BadFault"/>
    </operation>"#,
    );
    let e = error(&wsdl);
    assert!(matches!(e.kind, ErrorKind::Invalid(_)), "{e}");
    assert!(
        e.to_string()
            .contains("`infault` in an operation of pattern in-only, which has no-faults"),
        "{e}"
    );
    // The first infault is the one added to Notify.
    assert_at(&e, &wsdl, "<infault");
}

#[test]
fn a_wsoap_header_is_a_header_parameter() {
    let m = generate(WSDL);
    let ping = op(client(&m, "Soap12"), "Ping");
    assert_eq!(ping.headers.len(), 1);
    assert_eq!(ping.headers[0].xml.local, "Token");
    assert_eq!(ping.headers[0].xml.ns, "urn:w2");
}

#[test]
fn an_http_binding_beside_soap_ones_is_a_note_not_an_error() {
    let m = generate(WSDL);
    assert_eq!(
        m.clients.len(),
        2,
        "{:?}",
        m.clients.iter().map(|c| &c.name).collect::<Vec<_>>()
    );
    assert!(m
        .clients
        .iter()
        .all(|c| c.bindings.iter().all(|(b, _)| b.local != "Http")));
    assert!(
        m.notes
            .iter()
            .any(|n| n.contains("binding Http is a WSDL 2.0 HTTP binding")
                && n.contains("not generated")),
        "{:?}",
        m.notes
    );
}

#[test]
fn an_operation_the_service_starts_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<operation name="Notify" pattern="http://www.w3.org/ns/wsdl/in-only">"#,
        r#"<operation name="Notify" pattern="http://www.w3.org/ns/wsdl/out-in">"#,
    );
    let e = error(&wsdl);
    let ErrorKind::Unsupported(m) = &e.kind else {
        panic!("expected Unsupported, got {e}")
    };
    assert!(m.contains("http://www.w3.org/ns/wsdl/out-in"), "{e}");
    assert_at(&e, &wsdl, "<operation name=\"Notify\"");
}

#[test]
fn an_any_element_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<output messageLabel="Out" element="tns:PingResponse"/>"#,
        r##"<output messageLabel="Out" element="#any"/>"##,
    );
    let e = error(&wsdl);
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{e}");
    assert!(e.to_string().contains("#any"), "{e}");
    assert_at(&e, &wsdl, "<output messageLabel=\"Out\"");
}

#[test]
fn a_none_output_is_an_empty_response() {
    let wsdl = WSDL.replace(
        r#"<output messageLabel="Out" element="tns:PingResponse"/>"#,
        r##"<output messageLabel="Out" element="#none"/>"##,
    );
    let m = generate(&wsdl);
    let ping = op(client(&m, "Soap12"), "Ping");
    assert_eq!((&ping.response, &ping.ret), (&None, &None));
}

#[test]
fn a_required_extension_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<operation ref="tns:Ping" wsoap:action="urn:w2#Ping">"#,
        r#"<operation ref="tns:Ping" wsoap:action="urn:w2#Ping">
      <x:policy xmlns:x="urn:x" xmlns:w="http://www.w3.org/ns/wsdl" w:required="true"/>"#,
    );
    let e = error(&wsdl);
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{e}");
    assert!(e.to_string().contains("{urn:x}policy"), "{e}");
    assert_at(&e, &wsdl, "<x:policy");
}

#[test]
fn a_required_soap_module_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<fault ref="tns:BadFault" wsoap:code="soap:Sender"/>"#,
        r#"<wsoap:module ref="urn:reliable" required="true"/>"#,
    );
    let e = error(&wsdl);
    assert!(e.to_string().contains("urn:reliable"), "{e}");
    assert_at(&e, &wsdl, "<wsoap:module");
}

#[test]
fn a_protocol_other_than_http_is_a_located_error() {
    let wsdl = WSDL.replace(
        "wsoap:protocol=\"http://www.w3.org/2003/05/soap/bindings/HTTP/\"",
        "wsoap:protocol=\"urn:smtp\"",
    );
    let e = error(&wsdl);
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{e}");
    assert!(e.to_string().contains("urn:smtp"), "{e}");
    assert_at(&e, &wsdl, "<binding name=\"Soap12\"");
}

#[test]
fn a_binding_operation_of_another_interface_is_a_located_error() {
    let wsdl = WSDL.replace(
        r#"<operation ref="tns:Notify" wsoap:action"#,
        r#"<operation ref="tns:Missing" wsoap:action"#,
    );
    let e = error(&wsdl);
    assert!(matches!(e.kind, ErrorKind::Undefined(_)), "{e}");
    assert!(e.to_string().contains("{urn:w2}Missing"), "{e}");
    assert_at(&e, &wsdl, "<operation ref=\"tns:Missing\"");
}

#[test]
fn an_interface_and_binding_in_an_imported_description() {
    // The service document imports the one holding types, interfaces and bindings.
    let service = r#"<description xmlns="http://www.w3.org/ns/wsdl" targetNamespace="urn:w2svc"
        xmlns:w="urn:w2">
  <import namespace="urn:w2" location="parts/w2.wsdl"/>
  <service name="Only11" interface="w:Service">
    <endpoint name="E" binding="w:Soap11" address="http://localhost/only"/>
  </service>
</description>"#;
    let parts = WSDL.replace(
        r#"<service name="W2" interface="tns:Service">"#,
        r#"<service name="W2unused" interface="tns:Service">"#,
    );
    let g = Builder::new()
        .document("/nonexistent/w2/main.wsdl", service)
        .document("/nonexistent/w2/parts/w2.wsdl", parts)
        .generate_one(Path::new("/nonexistent/w2/main.wsdl"))
        .unwrap_or_else(|e| panic!("{e}"));
    let c = client(&g.module, "Soap11");
    assert!(c.ports.iter().any(
        |p| (p.service.as_str(), p.port.as_str(), p.address.as_deref())
            == ("Only11", "E", Some("http://localhost/only"))
    ));
}
