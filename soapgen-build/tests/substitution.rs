//! Substitution groups in the generated code (XML Schema Part 1 §3.3.6, §2.2.2.3): a reference to
//! a head element is an enum of the group's elements, with the reference's occurrence bounds; the
//! places that need one element (message parts) refuse an abstract one with a located error. The
//! generated code is compiled and round-tripped by tests/tests/substitution.rs.

use soapgen_build::Builder;

fn wsdl(schema_body: &str, part: &str) -> String {
    format!(
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:tns="urn:s" xmlns:o="urn:o" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:s">
  <types><xs:schema targetNamespace="urn:s" elementFormDefault="qualified">{schema_body}
    <xs:element name="OpResponse"><xs:complexType><xs:sequence/></xs:complexType></xs:element>
  </xs:schema>
  <xs:schema targetNamespace="urn:o" elementFormDefault="qualified"><xs:import namespace="urn:s"/>
    <xs:element name="Other" type="xs:long" substitutionGroup="tns:Head"/>
  </xs:schema></types>
  <message name="In"><part name="p" element="{part}"/></message>
  <message name="Out"><part name="p" element="tns:OpResponse"/></message>
  <portType name="P"><operation name="Op"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Op"><soap:operation soapAction="op"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="Port" binding="tns:B"><soap:address location="http://localhost/s"/></port></service>
</definitions>"#
    )
}

fn generate(schema_body: &str, part: &str) -> Result<String, String> {
    Builder::new()
        .document("/nonexistent/s/service.wsdl", wsdl(schema_body, part))
        .generate_one(std::path::Path::new("/nonexistent/s/service.wsdl"))
        .map(|g| g.code)
        .map_err(|e| e.to_string())
}

fn squash(code: &str) -> String {
    code.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_head_reference_is_an_enum_of_head_and_members_across_namespaces() {
    let code = generate(
        r#"<xs:element name="Head" type="xs:string"/>
           <xs:element name="Sub" substitutionGroup="tns:Head"/>
           <xs:element name="Mid" type="xs:int" abstract="true" substitutionGroup="tns:Head"/>
           <xs:element name="Leaf" type="xs:int" substitutionGroup="tns:Mid"/>
           <xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/>
             <xs:element ref="tns:Head" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element>"#,
        "tns:Op",
    )
    .unwrap();
    let s = squash(&code);
    for want in [
        "#[xml(group, occurs = \"many\")] pub head: ::std::vec::Vec<OpHead>",
        "pub enum OpHead",
        "Head(::std::string::String)",
        // No type of its own: the head's.
        "Sub(::std::string::String)",
        "Leaf(i32)",
        "#[xml(namespace = \"urn:o\")] Other(i64)",
    ] {
        assert!(s.contains(want), "missing {want:?} in\n{code}");
    }
    // The abstract member is no alternative; the fields are read by name, not position.
    assert!(!s.contains("Mid("), "{code}");
    assert!(!s.contains("sequence)] pub struct Op "), "{code}");
}

#[test]
fn an_optional_reference_to_an_abstract_head_is_an_option_of_the_members() {
    let code = generate(
        r#"<xs:element name="Head" type="xs:string" abstract="true"/>
           <xs:element name="A" type="xs:string" substitutionGroup="tns:Head"/>
           <xs:element name="Op"><xs:complexType><xs:all><xs:element ref="tns:Head" minOccurs="0"/>
             <xs:element name="x" type="xs:int"/></xs:all></xs:complexType></xs:element>"#,
        "tns:Op",
    )
    .unwrap();
    let s = squash(&code);
    assert!(
        s.contains("#[xml(group, occurs = \"optional\")] pub head: ::core::option::Option<OpHead>"),
        "{code}"
    );
    assert!(s.contains("A(::std::string::String)"), "{code}");
    assert!(!s.contains("Head(::std"), "{code}");
}

#[test]
fn an_abstract_element_as_a_message_part_is_a_located_error() {
    let e = generate(
        r#"<xs:element name="Head" type="xs:string" abstract="true"/>
           <xs:element name="Op"><xs:complexType><xs:sequence/></xs:complexType></xs:element>"#,
        "tns:Head",
    )
    .unwrap_err();
    assert!(e.contains("abstract element {urn:s}Head"), "{e}");
    assert!(e.contains("service.wsdl:"), "{e}");
}

#[test]
fn an_abstract_head_without_concrete_members_is_a_located_error() {
    let e = generate(
        r#"<xs:element name="Head" type="xs:string"/>
           <xs:element name="Lone" type="xs:string" abstract="true"/>
           <xs:element name="Op"><xs:complexType><xs:sequence><xs:element ref="tns:Lone"/>
           </xs:sequence></xs:complexType></xs:element>"#,
        "tns:Op",
    )
    .unwrap_err();
    assert!(
        e.contains("abstract element {urn:s}Lone with no concrete substitution group member"),
        "{e}"
    );
    assert!(e.contains("service.wsdl:"), "{e}");
}
