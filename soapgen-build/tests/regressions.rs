//! Generator edge cases (documents held in memory): derivation from itself, method names of
//! overloaded operations, and wrapper elements whose type has derived types (XML Schema Part 1
//! §2.6.1, §3.4.6; WSDL 1.1 §2.4.5).

use soapgen_build::Builder;

const WSDL: &str = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:t="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
   <xs:simpleType name="Colour"><xs:restriction base="xs:string"><xs:enumeration value="red"/></xs:restriction></xs:simpleType>
   TYPES
   <xs:element name="Get"><xs:complexType><xs:sequence><xs:element name="a" type="t:A"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="GetById"><xs:complexType><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="GetResponse"><xs:complexType><xs:sequence><xs:element name="r" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
 </xs:schema></types>
 <message name="In"><part name="p" element="t:Get"/></message>
 <message name="In2"><part name="p" element="t:GetById"/></message>
 <message name="Out"><part name="p" element="t:GetResponse"/></message>
 <portType name="PT">OPERATIONS</portType>
 <binding name="B" type="t:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>BOUND</binding>
 <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>"#;

const ONE_OP: &str =
    r#"<operation name="Get"><input message="t:In"/><output message="t:Out"/></operation>"#;

fn bound(name: &str, action: &str) -> String {
    format!(
        r#"<operation name="{name}"><soap:operation soapAction="{action}"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation>"#
    )
}

fn wsdl(types: &str, ops: &str, bound: &str) -> String {
    WSDL.replace("TYPES", types)
        .replace("OPERATIONS", ops)
        .replace("BOUND", bound)
}

fn generate(doc: &str) -> Result<String, String> {
    Builder::new()
        .document("/mem/probe/p.wsdl", doc)
        .generate_one(std::path::Path::new("/mem/probe/p.wsdl"))
        .map(|g| g.code)
        .map_err(|e| e.to_string())
}

/// A complexType derived from itself is a cycle (§3.4.6 Derivation Valid, no circular
/// derivation), as a two-type cycle already is ("type derivation deeper than 64 levels (a cycle of
/// bases?)").
#[test]
fn a_type_restricting_itself_is_an_error() {
    let types = r#"<xs:complexType name="A"><xs:complexContent><xs:restriction base="t:A"><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence></xs:restriction></xs:complexContent></xs:complexType>"#;
    let r = generate(&wsdl(types, ONE_OP, &bound("Get", "g")));
    assert!(r.is_err(), "generated:\n{}", r.unwrap());
}

/// Overloaded operations without input names, beside an operation really named `Get2`: the
/// declared operation keeps the name `get2`; the overload's fallback name must not take it (else
/// `client.get2(…)` would call another operation than its name says).
#[test]
fn an_overload_fallback_name_does_not_take_a_declared_operation_name() {
    let types = r#"<xs:complexType name="A"><xs:sequence/></xs:complexType>"#;
    let ops = r#"<operation name="Get"><input message="t:In"/><output message="t:Out"/></operation>
      <operation name="Get"><input message="t:In2"/><output message="t:Out"/></operation>
      <operation name="Get2"><input message="t:In"/><output message="t:Out"/></operation>"#;
    let b = format!(
        "{}{}{}",
        bound("Get", "a1"),
        bound("Get", "a2"),
        bound("Get2", "a3")
    );
    let code = generate(&wsdl(types, ops, &b)).unwrap();
    let at = code.find("fn get2(").expect("a method get2");
    let attr = &code[code[..at].rfind("#[soap(").unwrap()..at];
    assert!(
        attr.contains(r#"action = "a3""#),
        "get2 is not operation Get2:\n{attr}"
    );
}

/// Request and response elements named as for document/literal wrapped (`Get`, `GetResponse`)
/// but typed by a named complexType that has derived types: unwrapping them into their children
/// drops the `xsi:type`, so the client can neither send a `Bottom` nor read one (a response
/// `<GetResponse xsi:type="Bottom"><id>1</id><bot>b</bot></GetResponse>` is an
/// `UnexpectedElement` error at `Body/GetResponse/bot`, and one with an unknown `xsi:type` is read
/// as if it had none). Such elements must stay whole: a `TopKind` parameter and result.
#[test]
fn wrapper_elements_of_a_type_with_derived_types_are_not_unwrapped() {
    let doc = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:t="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
   <xs:complexType name="Top"><xs:sequence><xs:element name="id" type="xs:int"/></xs:sequence></xs:complexType>
   <xs:complexType name="Bottom"><xs:complexContent><xs:extension base="t:Top"><xs:sequence><xs:element name="bot" type="xs:string"/></xs:sequence></xs:extension></xs:complexContent></xs:complexType>
   <xs:element name="Get" type="t:Top"/>
   <xs:element name="GetResponse" type="t:Top"/>
 </xs:schema></types>
 <message name="In"><part name="p" element="t:Get"/></message>
 <message name="Out"><part name="p" element="t:GetResponse"/></message>
 <portType name="PT"><operation name="Get"><input message="t:In"/><output message="t:Out"/></operation></portType>
 <binding name="B" type="t:PT"><soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap:operation soapAction="g"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
 <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>"#;
    let code = generate(doc).unwrap();
    let at = code.find("fn get(").expect("a method get");
    let sig = &code[at..];
    let sig = &sig[..sig.find(';').unwrap()];
    assert_eq!(sig.matches("TopKind").count(), 2, "{sig}");
}

/// A SOAP 1.1 port and a SOAP 1.2 port at different addresses: the client knows both, and the
/// default endpoint is its default version's (WSDL 1.1 §2.7; WCF's basicHttp and wsHttp ports).
#[test]
fn ports_of_two_versions_at_two_addresses_give_an_endpoint_per_version() {
    let doc = wsdl(
        r#"<xs:complexType name="A"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>"#,
        ONE_OP,
        &bound("Get", "urn:get"),
    )
    .replace(
        r#" <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/x"/></port></service>"#,
        &format!(
            r#" <binding name="B12" type="t:PT"><soap12:binding xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" style="document" transport="http://schemas.xmlsoap.org/soap/http"/>{}</binding>
 <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/basic"/></port>
 <port name="P12" binding="t:B12"><soap12:address xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" location="http://localhost/ws"/></port></service>"#,
            bound("Get", "urn:get").replace("soap:", "soap12:").replace(
                "<soap12:operation",
                r#"<soap12:operation xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/""#
            ).replace("<soap12:body", r#"<soap12:body xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/""#)
        ),
    );
    let code = generate(&doc).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        code.contains(r#"endpoint = "http://localhost/basic","#)
            && code
                .contains(r#"endpoints = "1.1=http://localhost/basic 1.2=http://localhost/ws","#),
        "{code}"
    );
    // One address for both: the one endpoint, as before.
    let same = doc.replace("http://localhost/ws", "http://localhost/basic");
    let code = generate(&same).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        code.contains(r#"endpoint = "http://localhost/basic","#) && !code.contains("endpoints ="),
        "{code}"
    );
}

/// Two ports of one binding at two addresses (a primary and a backup): the client lists both
/// for that version, the first being its endpoint, for a `Failover` set (WSDL 1.1 §2.7).
#[test]
fn a_backup_port_of_one_version_is_listed_after_the_first() {
    let doc = wsdl(
        r#"<xs:complexType name="A"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>"#,
        ONE_OP,
        &bound("Get", "urn:get"),
    )
    .replace(
        r#" <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/x"/></port></service>"#,
        r#" <service name="S"><port name="Primary" binding="t:B"><soap:address location="http://primary/s"/></port>
 <port name="Backup" binding="t:B"><soap:address location="http://backup/s"/></port>
 <port name="Again" binding="t:B"><soap:address location="http://primary/s"/></port></service>"#,
    );
    let code = generate(&doc).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        code.contains(r#"endpoint = "http://primary/s","#)
            && code.contains(r#"endpoints = "1.1=http://primary/s 1.1=http://backup/s","#),
        "{code}"
    );
}

/// An enumeration value's documentation reaches its variant (the EU VAT service's `matchCode`:
/// `1`, `2`, `3` mean VALID, INVALID, NOT_PROCESSED), its paragraphs kept.
#[test]
fn the_documentation_of_an_enumeration_value_is_its_variants() {
    let doc = wsdl(
        r#"<xs:simpleType name="MatchCode"><xs:restriction base="xs:string">
             <xs:enumeration value="1"><xs:annotation><xs:documentation>VALID</xs:documentation></xs:annotation></xs:enumeration>
             <xs:enumeration value="2"><xs:annotation><xs:documentation>INVALID

The trader does not match.</xs:documentation></xs:annotation></xs:enumeration>
             <xs:enumeration value="3"/>
           </xs:restriction></xs:simpleType>
           <xs:complexType name="A"><xs:sequence><xs:element name="m" type="t:MatchCode"/></xs:sequence></xs:complexType>"#,
        ONE_OP,
        &bound("Get", "urn:get"),
    );
    let code = generate(&doc).unwrap_or_else(|e| panic!("{e}"));
    let v1 = code.find("/// `1`").unwrap_or_else(|| panic!("{code}"));
    let after = &code[v1..];
    assert!(
        after.starts_with("/// `1`\n        ///\n        /// VALID\n"),
        "{after}"
    );
    let v2 = &code[code.find("/// `2`").unwrap()..];
    assert!(
        v2.contains("/// INVALID\n        ///\n        /// The trader does not match.\n"),
        "{v2}"
    );
    let v3 = &code[code.find("/// `3`").unwrap()..];
    assert!(
        v3.starts_with("/// `3`\n        #[xml(rename = \"3\")]"),
        "{v3}"
    );
}

/// Axis 1's rpc/encoded faults: every fault message's part is `fault`, its type tells them apart
/// (SOAP 1.1 §5); the variants carry the type.
#[test]
fn encoded_faults_of_one_accessor_name_carry_their_type() {
    let doc = r#"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
  xmlns:t="urn:t" xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:t">
 <types><xs:schema targetNamespace="urn:t">
   <xs:complexType name="NotFound"><xs:sequence><xs:element name="what" type="xs:string"/></xs:sequence></xs:complexType>
   <xs:complexType name="Denied"><xs:sequence><xs:element name="who" type="xs:string"/></xs:sequence></xs:complexType>
 </xs:schema></types>
 <message name="In"><part name="id" type="xs:string"/></message>
 <message name="Out"><part name="r" type="xs:string"/></message>
 <message name="NotFoundFault"><part name="fault" type="t:NotFound"/></message>
 <message name="DeniedFault"><part name="fault" type="t:Denied"/></message>
 <portType name="PT"><operation name="Get"><input message="t:In"/><output message="t:Out"/>
   <fault name="NotFound" message="t:NotFoundFault"/><fault name="Denied" message="t:DeniedFault"/></operation></portType>
 <binding name="B" type="t:PT"><soap:binding style="rpc" transport="http://schemas.xmlsoap.org/soap/http"/>
   <operation name="Get"><soap:operation soapAction="get"/>
     <input><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></input>
     <output><soap:body use="encoded" namespace="urn:t" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></output>
     <fault name="NotFound"><soap:fault name="NotFound" use="encoded" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></fault>
     <fault name="Denied"><soap:fault name="Denied" use="encoded" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"/></fault>
   </operation></binding>
 <service name="S"><port name="P" binding="t:B"><soap:address location="http://localhost/x"/></port></service>
</definitions>"#;
    let code = generate(doc).unwrap_or_else(|e| panic!("{e}"));
    // (The fault enum is the body of a macro call: spaces as the token stream left them.)
    let tight: String = code.split_whitespace().collect();
    assert!(
        tight.contains(r#"NotFound(NotFound)=("","fault","urn:t","NotFound"),"#)
            && tight.contains(r#"Denied(Denied)=("","fault","urn:t","Denied"),"#),
        "{code}"
    );
}

/// `stream_operations`: an operation whose result is a repeated element inside the response
/// wrapper, or an array type holding one, also gets a `…_stream` method of its items; one whose
/// result occurs once and is not an array, or an operation the WSDL does not have, is an error
/// saying why.
#[test]
fn a_repeated_result_is_streamed_on_request_and_anything_else_is_refused() {
    let a = r#"<xs:complexType name="A"><xs:sequence><xs:element name="v" type="xs:int"/></xs:sequence></xs:complexType>"#;
    let doc = wsdl(a, ONE_OP, &bound("Get", "urn:get")).replace(
        r#"<xs:element name="r" type="xs:int"/>"#,
        r#"<xs:element name="r" type="xs:int" maxOccurs="unbounded"/>"#,
    );
    let streamed = |doc: &str, names: &[&str]| {
        Builder::new()
            .document("/mem/probe/p.wsdl", doc)
            .stream_operations(names.iter().copied())
            .generate_one(std::path::Path::new("/mem/probe/p.wsdl"))
            .map(|g| g.code)
            .map_err(|e| e.to_string())
    };
    let code = streamed(&doc, &["get"]).unwrap_or_else(|e| panic!("{e}"));
    let at = code
        .find("async fn get_stream(")
        .unwrap_or_else(|| panic!("{code}"));
    assert!(
        code[at..].contains("ItemStream<i32, ::soapgen_runtime::Error>"),
        "{}",
        &code[at..]
    );
    assert!(code.contains("async fn get("), "the plain method stays");
    let once = wsdl(a, ONE_OP, &bound("Get", "urn:get"));
    let e = streamed(&once, &["Get"]).expect_err("a single result");
    assert!(
        e.contains("cannot be streamed: its result element occurs at most once"),
        "{e}"
    );
    let e = streamed(&doc, &["Fetch"]).expect_err("no such operation");
    assert!(e.contains("undefined operation \"Fetch\" to stream"), "{e}");
    // An array result (.NET's ArrayOf…: one repeated element, nothing else): its items stream.
    let array = format!(
        r#"{a}<xs:complexType name="ArrayOfA"><xs:sequence><xs:element name="A" type="t:A" minOccurs="0" maxOccurs="unbounded" nillable="true"/></xs:sequence></xs:complexType>"#
    );
    let doc = wsdl(&array, ONE_OP, &bound("Get", "urn:get")).replace(
        r#"<xs:element name="r" type="xs:int"/>"#,
        r#"<xs:element name="r" type="t:ArrayOfA" minOccurs="0" nillable="true"/>"#,
    );
    let code = streamed(&doc, &["Get"]).unwrap_or_else(|e| panic!("{e}"));
    let at = code
        .find("async fn get_stream(")
        .unwrap_or_else(|| panic!("{code}"));
    let attr = &code[code[..at].rfind("#[soap(").unwrap()..at];
    assert!(
        attr.contains(r#"items = "A""#) && attr.contains(r#"items_namespace = "urn:t""#),
        "{attr}"
    );
    assert!(
        code[at..]
            .contains("ItemStream<\n            ::soapgen_runtime::types::Nillable<types::A>,"),
        "{}",
        &code[at..at + 300]
    );
    // With an attribute beside the items, the type is not an array: refused, saying why.
    let not_array = array.replace(
        "</xs:sequence></xs:complexType>",
        r#"</xs:sequence><xs:attribute name="total" type="xs:int"/></xs:complexType>"#,
    );
    let doc = wsdl(&not_array, ONE_OP, &bound("Get", "urn:get")).replace(
        r#"<xs:element name="r" type="xs:int"/>"#,
        r#"<xs:element name="r" type="t:ArrayOfA"/>"#,
    );
    let e = streamed(&doc, &["Get"]).expect_err("not an array");
    assert!(e.contains("is not an array type"), "{e}");
}
