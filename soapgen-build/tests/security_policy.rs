//! A WSDL's WS-SecurityPolicy at generation (WS-SecurityPolicy 1.2 attached as Web Services
//! Policy 1.5 Attachment §4.1 says): what each port demands is in the model, said in a warning
//! while generated clients do not apply it, and a policy with no alternative soapgen can enforce
//! is a located error naming the assertion and the binding, unless that port's security is
//! configured by hand.

use std::path::Path;

use soapgen_build::model::security::types::{SecurityBinding, SupportingRole};
use soapgen_build::{Builder, Generated};

const WSDL: &str = r##"<definitions xmlns="http://schemas.xmlsoap.org/wsdl/"
  xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:xs="http://www.w3.org/2001/XMLSchema"
  xmlns:wsp="http://www.w3.org/ns/ws-policy"
  xmlns:wsu="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"
  xmlns:sp="http://docs.oasis-open.org/ws-sx/ws-securitypolicy/200702"
  xmlns:t="urn:t" targetNamespace="urn:t">
 <wsp:Policy wsu:Id="Transport"><sp:TransportBinding><wsp:Policy>
   <sp:TransportToken><wsp:Policy><sp:HttpsToken/></wsp:Policy></sp:TransportToken>
   <sp:AlgorithmSuite><wsp:Policy><sp:Basic256/></wsp:Policy></sp:AlgorithmSuite>
   <sp:IncludeTimestamp/></wsp:Policy></sp:TransportBinding>
   <sp:SupportingTokens><wsp:Policy><sp:UsernameToken/></wsp:Policy></sp:SupportingTokens>
 </wsp:Policy>
 <wsp:Policy wsu:Id="Issued"><sp:SupportingTokens><wsp:Policy><sp:IssuedToken/></wsp:Policy></sp:SupportingTokens></wsp:Policy>
 <types><xs:schema targetNamespace="urn:t" elementFormDefault="qualified">
   <xs:element name="Get"><xs:complexType><xs:sequence><xs:element name="a" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
   <xs:element name="GetResponse"><xs:complexType><xs:sequence><xs:element name="b" type="xs:int"/></xs:sequence></xs:complexType></xs:element>
 </xs:schema></types>
 <message name="In"><part name="p" element="t:Get"/></message>
 <message name="Out"><part name="p" element="t:GetResponse"/></message>
 <portType name="PT"><operation name="Get"><input message="t:In"/><output message="t:Out"/></operation></portType>
 <binding name="Secure" type="t:PT"><wsp:PolicyReference URI="#Transport"/>
  <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap:operation soapAction="g"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
 <binding name="Sts" type="t:PT"><wsp:PolicyReference URI="#Issued"/>
  <soap:binding style="document" transport="http://schemas.xmlsoap.org/soap/http"/>
  <operation name="Get"><soap:operation soapAction="g"/><input><soap:body use="literal"/></input><output><soap:body use="literal"/></output></operation></binding>
 <service name="S">
  <port name="SecurePort" binding="t:Secure"><soap:address location="https://localhost/secure"/></port>
  STS_PORT
 </service>
</definitions>"##;

const STS_PORT: &str = r#"<port name="StsPort" binding="t:Sts"><soap:address location="https://localhost/sts"/></port>"#;

fn generate(doc: &str, manual: &[&str]) -> Result<Generated, String> {
    Builder::new()
        .document("/mem/policy/p.wsdl", doc)
        .manual_security(manual.iter().copied())
        .generate_one(Path::new("/mem/policy/p.wsdl"))
        .map_err(|e| e.to_string())
}

#[test]
fn a_port_demanding_an_unsupported_token_is_a_located_error_naming_it_and_its_binding() {
    let err = generate(&WSDL.replace("STS_PORT", STS_PORT), &[]).unwrap_err();
    assert!(err.starts_with("/mem/policy/p.wsdl:"), "{err}");
    assert!(err.contains("port StsPort (binding {urn:t}Sts)"), "{err}");
    assert!(err.contains("sp:IssuedToken"), "{err}");
    assert!(err.contains("--manual-security StsPort"), "{err}");
    assert!(!err.contains("SecurePort"), "{err}");
}

#[test]
fn a_port_configured_by_hand_is_a_warning() {
    let g = generate(&WSDL.replace("STS_PORT", STS_PORT), &["StsPort"]).unwrap();
    let w: Vec<String> = g.module.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|w| w.contains("StsPort") && w.contains("configured by hand")),
        "{w:?}"
    );
    // The binding's name covers its ports too.
    generate(&WSDL.replace("STS_PORT", STS_PORT), &["Sts"]).unwrap();
}

#[test]
fn what_a_port_demands_is_in_the_model_and_said() {
    let g = generate(&WSDL.replace("STS_PORT", ""), &[]).unwrap();
    let port = &g.module.clients[0].ports[0];
    let sec = port.security.as_ref().expect("the port's policy");
    let op = &sec.operations[0];
    assert_eq!(op.wsdl_name, "Get");
    let p = op.input.chosen().expect("an enforceable alternative");
    assert!(matches!(p.binding, Some(SecurityBinding::Transport { .. })));
    assert_eq!(p.supporting[0].role, SupportingRole::Supporting);
    // The client's documentation says what the port demands, the credentials and the call.
    let said = g
        .code
        .lines()
        .find(|l| l.contains("port `SecurePort`"))
        .unwrap_or_else(|| panic!("{}", g.code));
    assert!(said.contains("TransportBinding over HTTPS"), "{said}");
    assert!(said.contains("a username and password"), "{said}");
    assert!(
        said.contains("ClientBuilder::security_policy(")
            && said.contains("port_policy(\"SecurePort\")"),
        "{said}"
    );
    assert!(g.module.notes.is_empty(), "{:?}", g.module.notes);
}

#[test]
fn a_wsdl_without_policies_has_no_port_security() {
    let plain = WSDL
        .replace("STS_PORT", "")
        .replace(r##"<wsp:PolicyReference URI="#Transport"/>"##, "");
    let g = generate(&plain, &[]).unwrap();
    assert!(g.module.clients[0].ports[0].security.is_none());
    assert!(
        !g.module
            .warnings
            .iter()
            .any(|w| w.message.contains("SecurityPolicy")),
        "{:?}",
        g.module.warnings
    );
}

#[test]
fn a_fault_whose_policy_differs_from_the_response_is_a_warning() {
    // The operation gets a fault; the binding's output is signed by policy, its fault's own
    // policy asks for something else.
    let signed = r##"<wsp:Policy wsu:Id="SignedOut"><sp:SignedParts><sp:Body/></sp:SignedParts></wsp:Policy>
 <wsp:Policy wsu:Id="Other"><sp:EncryptedParts><sp:Body/></sp:EncryptedParts></wsp:Policy>"##;
    let doc = WSDL
        .replace("STS_PORT", "")
        .replace(
            r#"<output message="t:Out"/></operation></portType>"#,
            r#"<output message="t:Out"/><fault name="F" message="t:Out"/></operation></portType>"#,
        )
        .replace(" <types>", &format!(" {signed}\n <types>"))
        .replacen(
            r#"<output><soap:body use="literal"/></output></operation></binding>"#,
            r##"<output><wsp:PolicyReference URI="#SignedOut"/><soap:body use="literal"/></output><fault name="F"><wsp:PolicyReference URI="#Other"/><soap:fault name="F" use="literal"/></fault></operation></binding>"##,
            1,
        );
    let g = generate(&doc, &[]).unwrap_or_else(|e| panic!("{e}\n{doc}"));
    let w: Vec<String> = g.module.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter().any(|w| w.contains("SecurePort")
            && w.contains("fault F")
            && w.contains("differs from the response's")),
        "{w:?}"
    );
    // At the fault's own policy, not at the port.
    let other_line = doc
        .lines()
        .position(|l| l.contains(r#"wsu:Id="Other""#))
        .expect("the fault's policy")
        + 1;
    let warning = g
        .module
        .warnings
        .iter()
        .find(|w| w.message.contains("fault F"))
        .expect("the warning");
    assert_eq!(warning.loc.line as usize, other_line, "{warning}");
    // The same policy on the fault, or none of its own: nothing to say.
    for same in [
        doc.replace(r##"URI="#Other""##, r##"URI="#SignedOut""##),
        doc.replace(r##"<wsp:PolicyReference URI="#Other"/>"##, ""),
    ] {
        let g = generate(&same, &[]).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            !g.module
                .warnings
                .iter()
                .any(|w| w.message.contains("fault F")),
            "{:?}",
            g.module.warnings
        );
    }
}

#[test]
fn a_star_covers_only_the_ports_soapgen_cannot_secure_and_unknown_names_are_errors() {
    let doc = WSDL.replace("STS_PORT", STS_PORT);
    let g = generate(&doc, &["*"]).unwrap_or_else(|e| panic!("{e}"));
    let ports = &g.module.clients[0].ports;
    let security = |name: &str| {
        ports
            .iter()
            .find(|p| p.port == name)
            .and_then(|p| p.security.as_ref())
            .unwrap_or_else(|| panic!("{name}: {ports:?}"))
    };
    // The enforceable port keeps its policy; the other is configured by hand, with a warning.
    assert!(!security("SecurePort").manual);
    assert!(security("StsPort").manual);
    assert!(
        g.code.contains("port_policy"),
        "the secure port's policy is generated"
    );
    let e = generate(&doc, &["Nope"]).unwrap_err();
    assert!(e.contains("manual security for \"Nope\""), "{e}");
    // It lists the ports and bindings there are.
    assert!(e.contains("Secure, SecurePort, Sts, StsPort"), "{e}");
}
