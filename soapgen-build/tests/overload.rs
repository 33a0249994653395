//! Operations overloaded by name in one portType (WSDL 1.1 §2.4.5: told apart by the names of
//! their input and output), bound by one binding (§2.5) that two services expose: each binding
//! operation binds the portType operation with its input's name (or, without names, the one at
//! the same position), and each becomes a method named after its input.

use soapgen_build::Builder;

const WSDL: &str = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:tns="urn:ovl" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:ovl">
  <types><xs:schema targetNamespace="urn:ovl" elementFormDefault="qualified">
    <xs:element name="AddInts"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="AddIntsResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="AddStrings"><xs:complexType><xs:sequence><xs:element name="a" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
    <xs:element name="AddStringsResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:string"/></xs:sequence></xs:complexType></xs:element>
  </xs:schema></types>
  <message name="AddIntsIn"><part name="p" element="tns:AddInts"/></message>
  <message name="AddIntsOut"><part name="p" element="tns:AddIntsResponse"/></message>
  <message name="AddStringsIn"><part name="p" element="tns:AddStrings"/></message>
  <message name="AddStringsOut"><part name="p" element="tns:AddStringsResponse"/></message>
  <portType name="Calc">
    <operation name="Add"><input name="AddInts" message="tns:AddIntsIn"/><output name="AddIntsResponse" message="tns:AddIntsOut"/></operation>
    <operation name="Add"><input name="AddStrings" message="tns:AddStringsIn"/><output name="AddStringsResponse" message="tns:AddStringsOut"/></operation>
  </portType>
  <binding name="CalcSoap" type="tns:Calc"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
    <operation name="Add"><soap:operation soapAction="urn:ovl#AddInts"/><input name="AddInts"><soap:body use="literal"/></input><output name="AddIntsResponse"><soap:body use="literal"/></output></operation>
    <operation name="Add"><soap:operation soapAction="urn:ovl#AddStrings"/><input name="AddStrings"><soap:body use="literal"/></input><output name="AddStringsResponse"><soap:body use="literal"/></output></operation>
  </binding>
  <service name="S1"><port name="P1" binding="tns:CalcSoap"><soap:address location="http://a/1"/></port></service>
  <service name="S2"><port name="P2" binding="tns:CalcSoap"><soap:address location="http://b/2"/></port></service>
</definitions>"#;

fn generate(wsdl: &str) -> String {
    Builder::new()
        .document("/mem/ovl/o.wsdl", wsdl)
        .generate_one(std::path::Path::new("/mem/ovl/o.wsdl"))
        .unwrap_or_else(|e| panic!("{e}"))
        .code
}

/// The method `name`: its `#[soap(...)]` attribute and signature, from the doc comment that
/// opens it to the end of the signature.
fn method<'c>(code: &'c str, name: &str) -> &'c str {
    let at = code
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("no method {name} in\n{code}"));
    let start = code[..at].rfind("/// WSDL operation").unwrap_or(0);
    let end = code[at..].find(';').map_or(code.len(), |e| at + e);
    &code[start..end]
}

fn check(code: &str) {
    let ints = method(code, "add_ints");
    assert!(
        ints.contains("urn:ovl#AddInts") && ints.contains("p: types::AddInts,"),
        "{ints}"
    );
    assert!(ints.contains("AddIntsResponse"), "{ints}");
    let strings = method(code, "add_strings");
    assert!(
        strings.contains("urn:ovl#AddStrings") && strings.contains("p: types::AddStrings,"),
        "{strings}"
    );
    assert!(strings.contains("AddStringsResponse"), "{strings}");
}

#[test]
fn overloaded_operations_bind_by_input_name_and_get_one_method_each() {
    let code = generate(WSDL);
    check(&code);
    // Both services' ports are listed for the one client.
    assert!(
        code.contains("http://a/1") && code.contains("http://b/2"),
        "{code}"
    );
}

#[test]
fn the_binding_may_list_them_in_another_order() {
    // The binding names its inputs: order does not matter.
    let i = WSDL
        .find("<operation name=\"Add\"><soap:operation soapAction=\"urn:ovl#AddInts\"")
        .unwrap();
    let j = WSDL
        .find("<operation name=\"Add\"><soap:operation soapAction=\"urn:ovl#AddStrings\"")
        .unwrap();
    let k = WSDL[j..].find("</operation>").unwrap() + j + "</operation>".len();
    let swapped = format!(
        "{}{}\n    {}{}",
        &WSDL[..i],
        &WSDL[j..k],
        &WSDL[i..j].trim_end(),
        &WSDL[k..]
    );
    check(&generate(&swapped));
}
