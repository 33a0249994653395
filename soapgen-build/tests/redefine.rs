//! `xs:redefine` (XML Schema Part 1 §4.2.2), documents held in memory: a schema includes another
//! and redefines its complexType (extended by itself), simpleType (restricted by itself), model
//! group and attribute group (each referencing itself once). Every reference to a redefined name,
//! in either schema, means the redefinition; the original survives only as its base.

use soapgen_build::Builder;

const WSDL: &str = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:tns="urn:redef" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:redef">
  <types>SCHEMAS</types>
  <message name="In"><part name="p" element="tns:Card"/></message>
  <message name="Out"><part name="p" element="tns:Card"/></message>
  <portType name="P"><operation name="Echo"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="B" type="tns:P"><soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Echo"><soap:operation soapAction="echo"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="Port" binding="tns:B"><soap:address location="http://localhost/redef"/></port></service>
</definitions>"#;

const REDEFINE: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:redef" targetNamespace="urn:redef" elementFormDefault="qualified">
  <xs:redefine schemaLocation="xsd/base.xsd">
    <xs:annotation><xs:documentation>Version 2 of the card.</xs:documentation></xs:annotation>
    <xs:complexType name="Person">
      <xs:complexContent><xs:extension base="tns:Person"><xs:sequence>
        <xs:element name="email" type="xs:string"/>
      </xs:sequence></xs:extension></xs:complexContent>
    </xs:complexType>
    <xs:simpleType name="Level">
      <xs:restriction base="tns:Level"><xs:enumeration value="low"/><xs:enumeration value="high"/></xs:restriction>
    </xs:simpleType>
    <xs:group name="Contact">
      <xs:sequence><xs:group ref="tns:Contact"/><xs:element name="fax" type="xs:string" minOccurs="0"/></xs:sequence>
    </xs:group>
    <xs:attributeGroup name="Stamp">
      <xs:attributeGroup ref="tns:Stamp"/><xs:attribute name="author" type="xs:string"/>
    </xs:attributeGroup>
  </xs:redefine>
</xs:schema>"#;

const BASE: &str = r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="urn:redef" targetNamespace="urn:redef" elementFormDefault="qualified">
  <xs:complexType name="Person"><xs:sequence><xs:element name="name" type="xs:string"/></xs:sequence></xs:complexType>
  <xs:simpleType name="Level"><xs:restriction base="xs:string">
    <xs:enumeration value="low"/><xs:enumeration value="mid"/><xs:enumeration value="high"/>
  </xs:restriction></xs:simpleType>
  <xs:group name="Contact"><xs:sequence><xs:element name="phone" type="xs:string"/></xs:sequence></xs:group>
  <xs:attributeGroup name="Stamp"><xs:attribute name="version" type="xs:int"/></xs:attributeGroup>
  <xs:element name="Card">
    <xs:complexType>
      <xs:sequence>
        <xs:element name="owner" type="tns:Person"/>
        <xs:element name="level" type="tns:Level"/>
        <xs:group ref="tns:Contact"/>
      </xs:sequence>
      <xs:attributeGroup ref="tns:Stamp"/>
    </xs:complexType>
  </xs:element>
</xs:schema>"#;

fn generate(schemas: &str) -> String {
    Builder::new()
        .document("/mem/redef/service.wsdl", WSDL.replace("SCHEMAS", schemas))
        .document("/mem/redef/xsd/base.xsd", BASE)
        .document("/mem/redef/redef.xsd", REDEFINE)
        .generate_one(std::path::Path::new("/mem/redef/service.wsdl"))
        .unwrap_or_else(|e| panic!("{e}"))
        .code
}

/// The text of `pub struct {name}` / `pub enum {name}` up to its closing brace.
fn item<'c>(code: &'c str, kind: &str, name: &str) -> &'c str {
    let start = code
        .find(&format!("pub {kind} {name} "))
        .unwrap_or_else(|| panic!("no {kind} {name} in\n{code}"));
    let end = code[start..]
        .find("\n    }")
        .map_or(code.len(), |e| start + e);
    &code[start..end]
}

fn check(code: &str) {
    // The complexType: the original's element, then the redefinition's.
    let person = item(code, "struct", "Person");
    assert!(
        person.contains("pub name:") && person.contains("pub email:"),
        "{person}"
    );
    // The simpleType: the redefinition's two values, not the original's three.
    let level = item(code, "enum", "Level");
    assert!(level.contains("Low") && level.contains("High"), "{level}");
    assert!(!level.contains("Mid"), "{level}");
    // The group and the attribute group, where the original schema references them.
    let card = item(code, "struct", "Card");
    for field in [
        "pub owner: Person",
        "pub level: Level",
        "pub phone:",
        "pub fax:",
        "pub version:",
        "pub author:",
    ] {
        assert!(card.contains(field), "{field} missing in {card}");
    }
}

#[test]
fn redefined_components_replace_the_originals_everywhere() {
    check(&generate(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:import namespace="urn:redef" schemaLocation="redef.xsd"/></xs:schema>"#,
    ));
}

#[test]
fn a_schema_already_read_is_redefined_too() {
    // base.xsd is included (and read) by the first schema before the second redefines it.
    check(&generate(
        r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:redef"><xs:include schemaLocation="xsd/base.xsd"/></xs:schema>
           <xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:import namespace="urn:redef" schemaLocation="redef.xsd"/></xs:schema>"#,
    ));
}

#[test]
fn only_components_may_be_redefined() {
    let bad = REDEFINE.replace(
        "<xs:group name=\"Contact\">",
        "<xs:element name=\"Extra\" type=\"xs:string\"/><xs:group name=\"Contact\">",
    );
    let e = Builder::new()
        .document(
            "/mem/redef/service.wsdl",
            WSDL.replace(
                "SCHEMAS",
                r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:import namespace="urn:redef" schemaLocation="redef.xsd"/></xs:schema>"#,
            ),
        )
        .document("/mem/redef/xsd/base.xsd", BASE)
        .document("/mem/redef/redef.xsd", bad)
        .generate_one(std::path::Path::new("/mem/redef/service.wsdl"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("redef.xsd:") && e.contains("xs:element inside xs:redefine"),
        "{e}"
    );
}
