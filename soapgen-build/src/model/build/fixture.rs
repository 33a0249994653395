//! Test fixtures for the lowering files: a schema wrapped in a one-operation WSDL 1.1 document,
//! lowered to the [`Module`] the emitter would get, and lookups into it.

use crate::model::ir::*;
use crate::read::components::*;

/// The target namespace of [`lower`]'s schema and WSDL (prefix `tns`).
pub(super) const NS: &str = "urn:ir-test";

/// Lowers `schema` (the children of an `xs:schema` with targetNamespace [`NS`], prefixes `xs` and
/// `tns`, elementFormDefault qualified), which must declare the elements `Op` and `OpResponse`:
/// they are the input and output of the document/literal operation `Op`.
pub(super) fn lower(schema: &str) -> Module {
    lower_wsdl(&format!(
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="{NS}" targetNamespace="{NS}">
  <types><xs:schema targetNamespace="{NS}" elementFormDefault="qualified">{schema}</xs:schema></types>
  <message name="In"><part name="p" element="tns:Op"/></message>
  <message name="Out"><part name="p" element="tns:OpResponse"/></message>
  <portType name="Svc"><operation name="Op"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="SvcSoap" type="tns:Svc">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <operation name="Op"><soap:operation soapAction="urn:op"/>
      <input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S"><port name="P" binding="tns:SvcSoap"><soap:address location="http://h/s"/></port></service>
</definitions>"#
    ))
}

/// A WSDL 1.1 document with one rpc-style operation `op` (WSDL 1.1 §3.5; SOAP 1.1 binding `B`,
/// body namespace `urn:rpc`, `use_` = `literal` or `encoded` with the SOAP-ENC encodingStyle):
/// `types` is the content of `wsdl:types` (may be empty; prefixes `xs`, `tns`, `wsdl`, `soapenc`
/// are declared), `input` and `output` the `<part …/>`s of its messages.
pub(super) fn rpc_wsdl(op: &str, use_: &str, types: &str, input: &str, output: &str) -> String {
    format!(
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="{NS}" targetNamespace="{NS}">
  <types>{types}</types>
  <message name="In">{input}</message>
  <message name="Out">{output}</message>
  <portType name="Svc"><operation name="{op}"><input message="tns:In"/><output message="tns:Out"/></operation></portType>
  <binding name="B" type="tns:Svc"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="rpc"/>
    <operation name="{op}"><soap:operation soapAction=""/>
      <input><soap:body use="{use_}" namespace="urn:rpc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
      <output><soap:body use="{use_}" namespace="urn:rpc" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output>
    </operation></binding>
  <service name="S"><port name="P" binding="tns:B"><soap:address location="http://h/s"/></port></service>
</definitions>"#
    )
}

/// A WSDL 1.1 document of document/literal operations: `schema` is the content of an `xs:schema`
/// with targetNamespace [`NS`] (prefixes `xs` and `tns`), `port_type` the `message`s and the
/// `portType` `Svc`, `operations` the `operation`s of its SOAP 1.1 binding `Bnd`, served at
/// `http://h/s`.
pub(super) fn document_wsdl(schema: &str, port_type: &str, operations: &str) -> String {
    format!(
        r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:tns="{NS}" targetNamespace="{NS}">
  <types><xs:schema targetNamespace="{NS}">{schema}</xs:schema></types>
  {port_type}
  <binding name="Bnd" type="tns:Svc"><soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    {operations}
  </binding>
  <service name="S"><port name="P" binding="tns:Bnd"><soap:address location="http://h/s"/></port></service>
</definitions>"#
    )
}

/// A complex type `Price` of simple content: an `xs:decimal` with an optional `currency`
/// attribute (XML Schema Part 1 §3.4.2).
pub(super) const PRICE: &str = r#"<xs:complexType name="Price"><xs:simpleContent><xs:extension base="xs:decimal">
  <xs:attribute name="currency" type="xs:string"/></xs:extension></xs:simpleContent></xs:complexType>"#;

/// Lowers a whole WSDL document given as text.
pub(super) fn lower_wsdl(wsdl: &str) -> Module {
    let path = std::path::Path::new("/soapgen-ir-test/t.wsdl");
    crate::Builder::new()
        .document(path, wsdl)
        .generate_one(path)
        .unwrap_or_else(|e| panic!("lowering failed: {e}"))
        .module
}

/// The declaration named `name`.
pub(super) fn decl<'m>(m: &'m Module, name: &str) -> &'m TypeDecl {
    m.types
        .iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| {
            let names: Vec<&str> = m.types.iter().map(|t| t.name()).collect();
            panic!("no type {name}; there are {names:?}")
        })
}

/// The struct named `name`.
pub(super) fn strukt<'m>(m: &'m Module, name: &str) -> &'m StructDecl {
    match decl(m, name) {
        TypeDecl::Struct(s) => s,
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

/// The field named `name` of `s`.
pub(super) fn field<'s>(s: &'s StructDecl, name: &str) -> &'s FieldDecl {
    s.fields.iter().find(|f| f.name == name).unwrap_or_else(|| {
        let names: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
        panic!("{} has no field {name}; it has {names:?}", s.name)
    })
}

/// Each field of `s`: its name, occurrence and minOccurs.
pub(super) fn occurrences(s: &StructDecl) -> Vec<(&str, Occurrence, u64)> {
    s.fields
        .iter()
        .map(|f| (f.name.as_str(), f.ty.card, f.min_occurs))
        .collect()
}

/// `{NS}local`.
pub(super) fn q(local: &str) -> QName {
    QName {
        ns: NS.to_owned(),
        local: local.to_owned(),
    }
}

/// The name of a generated type.
pub(super) fn named(b: &Base) -> &str {
    match b {
        Base::Named(n) => n,
        other => panic!("not a generated type: {other:?}"),
    }
}

/// Lowers `schema`, which must declare the complexType `T`: the operation's request holds one
/// `T` (element `t`), so `T` is generated as a struct of its own (a wrapper's anonymous type is
/// unwrapped into parameters instead).
pub(super) fn lower_type(schema: &str) -> Module {
    lower(&format!(
        r#"{schema}
<xs:element name="Op"><xs:complexType><xs:sequence><xs:element name="t" type="tns:T"/></xs:sequence></xs:complexType></xs:element>
<xs:element name="OpResponse"><xs:complexType/></xs:element>"#
    ))
}

/// [`lower_type`] of a complexType `T` whose content is the sequence of `elements` (the
/// `xs:element`s, or other particles, of an `xs:sequence`).
pub(super) fn lower_sequence(elements: &str) -> Module {
    lower_type(&format!(
        r#"<xs:complexType name="T"><xs:sequence>{elements}</xs:sequence></xs:complexType>"#
    ))
}
