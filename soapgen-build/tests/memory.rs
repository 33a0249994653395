//! Documents held in memory (`Builder::document`): a WSDL and the schema it imports, read without
//! touching the file system; a missing in-memory import is the usual located error.

use soapgen_build::Builder;

const WSDL: &str = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:tns="urn:mem" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:mem">
  <types><xs:schema><xs:import namespace="urn:mem" schemaLocation="types/mem.xsd"/></xs:schema></types>
  <message name="In"><part name="p" element="tns:Ping"/></message>
  <message name="Out"><part name="p" element="tns:Pong"/></message>
  <portType name="P"><operation name="Ping"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Ping"><soap:operation soapAction="ping"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="Port" binding="tns:B"><soap:address location="http://localhost/mem"/></port></service>
</definitions>"#;

const XSD: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:mem" elementFormDefault="qualified">
  <xs:element name="Ping"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  <xs:element name="Pong"><xs:complexType><xs:sequence><xs:element name="text" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
</xs:schema>"#;

#[test]
fn a_wsdl_and_its_import_from_memory() {
    let g = Builder::new()
        .document("/nonexistent/mem/service.wsdl", WSDL)
        .document("/nonexistent/mem/types/mem.xsd", XSD)
        .generate_one(std::path::Path::new("/nonexistent/mem/service.wsdl"))
        .unwrap();
    assert!(g.code.contains("async fn ping("), "{}", g.code);
    assert!(g.files_read.is_empty(), "{:?}", g.files_read);
}

#[test]
fn a_missing_import_is_a_located_error() {
    let e = Builder::new()
        .document("/nonexistent/mem/service.wsdl", WSDL)
        .generate_one(std::path::Path::new("/nonexistent/mem/service.wsdl"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("types/mem.xsd") && e.contains("service.wsdl:3:"),
        "{e}"
    );
}

#[test]
fn an_invalid_runtime_path_is_an_error_not_a_silent_default() {
    let e = Builder::new()
        .document("/nonexistent/mem/service.wsdl", WSDL)
        .document("/nonexistent/mem/types/mem.xsd", XSD)
        .runtime_path("not a path!")
        .generate_one(std::path::Path::new("/nonexistent/mem/service.wsdl"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("\"not a path!\" is not a Rust path"), "{e}");
}

#[test]
fn an_output_message_with_no_parts_is_an_empty_response() {
    let wsdl = WSDL.replace(
        r#"<message name="Out"><part name="p" element="tns:Pong"/></message>"#,
        r#"<message name="Out"/>"#,
    );
    let g = Builder::new()
        .document("/nonexistent/mem/service.wsdl", wsdl)
        .document("/nonexistent/mem/types/mem.xsd", XSD)
        .generate_one(std::path::Path::new("/nonexistent/mem/service.wsdl"))
        .unwrap();
    let code = g.code.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(code.contains("one_way"), "{}", g.code);
    assert!(
        code.contains("-> Result<(), Error>") || code.contains("Result<(), "),
        "{}",
        g.code
    );
}

#[test]
fn an_input_message_with_no_parts_is_an_empty_request_body() {
    // WSDL 1.1 §2.3.1: a message may have no parts; as input, the Body is sent empty.
    let wsdl = WSDL.replace(
        r#"<message name="In"><part name="p" element="tns:Ping"/></message>"#,
        r#"<message name="In"/>"#,
    );
    let g = Builder::new()
        .document("/nonexistent/mem/service.wsdl", &wsdl)
        .document("/nonexistent/mem/types/mem.xsd", XSD)
        .generate_one(std::path::Path::new("/nonexistent/mem/service.wsdl"))
        .unwrap();
    let code = g.code.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(code.contains("empty_request"), "{}", g.code);
    // No parameters but `&self`.
    let bare: String = g.code.split_whitespace().collect();
    assert!(bare.contains("asyncfnping(&self,)->"), "{}", g.code);
    // The response element is still read, its one child the result.
    assert!(code.contains(r#"response = "Pong""#), "{}", g.code);
    assert!(
        code.contains("Result<::std::string::String, "),
        "{}",
        g.code
    );

    // Both messages empty: an empty request and a response read as an acknowledgement.
    let both = wsdl.replace(
        r#"<message name="Out"><part name="p" element="tns:Pong"/></message>"#,
        r#"<message name="Out"/>"#,
    );
    let g = Builder::new()
        .document("/nonexistent/mem/service.wsdl", both)
        .document("/nonexistent/mem/types/mem.xsd", XSD)
        .generate_one(std::path::Path::new("/nonexistent/mem/service.wsdl"))
        .unwrap();
    let code = g.code.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        code.contains("empty_request") && code.contains("one_way"),
        "{}",
        g.code
    );
}
