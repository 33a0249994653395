//! Model groups in the generated code (XML Schema Part 1 §3.8): a choice is an enum, a repeated
//! choice a `Vec` of it, a repeated sequence a `Vec` of a generated `#[xml(sequence)]` struct, an
//! element named twice two fields of a struct read by position (never unwrapped into parameters).
//! The generated code is compiled and round-tripped by tests/tests/groups.rs.

use soapgen_build::Builder;

fn wsdl(schema_body: &str) -> String {
    format!(
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:tns="urn:g" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:g">
  <types><xs:schema targetNamespace="urn:g" elementFormDefault="qualified">{schema_body}
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="In"><part name="p" element="tns:Op"/></message>
  <message name="Out"><part name="p" element="tns:OpResponse"/></message>
  <portType name="P"><operation name="Op"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Op"><soap:operation soapAction="op"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="Port" binding="tns:B"><soap:address location="http://localhost/g"/></port></service>
</definitions>"#
    )
}

fn generate(schema_body: &str) -> Result<String, String> {
    Builder::new()
        .document("/nonexistent/g/service.wsdl", wsdl(schema_body))
        .generate_one(std::path::Path::new("/nonexistent/g/service.wsdl"))
        .map(|g| g.code)
        .map_err(|e| e.to_string())
}

#[test]
fn a_repeated_choice_is_a_vec_of_a_generated_enum() {
    let code = generate(
        r###"<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/>
           <xs:choice maxOccurs="unbounded"><xs:element name="a" type="xs:string"/>
             <xs:sequence><xs:element name="b" type="xs:int"/><xs:element name="c" type="xs:int" minOccurs="0"/></xs:sequence>
             <xs:any namespace="##other"/></xs:choice>
           </xs:sequence></xs:complexType></xs:element>"###,
    )
    .unwrap();
    let squashed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    for want in [
        "pub choice: ::std::vec::Vec<OpChoice>",
        "pub enum OpChoice",
        "A(::std::string::String)",
        "#[xml(group)] B(OpChoiceB)",
        "#[xml(any)] Any(::soapgen_runtime::types::AnyElement)",
        "pub struct OpChoiceB",
        "sequence)]",
    ] {
        assert!(squashed.contains(want), "missing {want:?} in\n{code}");
    }
}

#[test]
fn an_element_named_twice_is_two_fields_of_a_positional_struct_not_parameters() {
    let code = generate(
        r#"<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/>
           <xs:element name="b" type="xs:string"/><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType></xs:element>"#,
    )
    .unwrap();
    let squashed: String = code.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(squashed.contains("pub a: ::std::string::String"), "{code}");
    assert!(
        squashed.contains("#[xml(rename = \"a\")] pub a2: i32"),
        "{code}"
    );
    assert!(squashed.contains("sequence)] pub struct Op"), "{code}");
    // The wrapper is the parameter (two `a` parameters could not be read back by name).
    assert!(squashed.contains("p: types::Op,"), "{code}");
}

#[test]
fn a_repeated_all_is_a_located_error() {
    let e = generate(
        r#"<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="x" type="xs:int"/>
           <xs:group ref="tns:G" maxOccurs="2"/></xs:sequence></xs:complexType></xs:element>
           <xs:group name="G"><xs:all><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/></xs:all></xs:group>"#,
    )
    .unwrap_err();
    assert!(
        e.contains("service.wsdl:") && e.contains("repeated xs:all"),
        "{e}"
    );
}
