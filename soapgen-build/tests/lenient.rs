//! Real-world WSDLs that soapgen once refused as a whole for one construct: each is generated where
//! it can be, and what cannot be is said per operation (a note) or per construct (a located
//! warning). A WSDL that gives no client at all is an error naming every reason.
//!
//! The documents (`tests/wsdl/`) are written here, modelled on what the named tools publish.

use std::path::{Path, PathBuf};

use soapgen_build::model::ir::SoapVersion;
use soapgen_build::{Builder, Error, ErrorKind, Generated, Warning};

fn wsdl(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/wsdl")
        .join(name)
}

fn generate_with(b: Builder, name: &str) -> Generated {
    b.generate_one(&wsdl(name))
        .unwrap_or_else(|e| panic!("{name} should generate, but:\n{e}"))
}

fn generate(name: &str) -> Generated {
    generate_with(Builder::new(), name)
}

fn error_with(b: Builder, name: &str) -> Error {
    match b.generate_one(&wsdl(name)) {
        Ok(g) => panic!("{name} should not generate, but gave:\n{}", g.code),
        Err(mut es) => {
            assert_eq!(es.0.len(), 1, "expected one error, got:\n{es}");
            es.0.remove(0)
        }
    }
}

#[track_caller]
fn assert_contains(text: &str, words: &[&str]) {
    for w in words {
        assert!(text.contains(w), "{w:?} not in:\n{text}");
    }
}

#[track_caller]
fn assert_warning_at(w: &Warning, name: &str, line: u32, column: u32) {
    assert_eq!(
        (&*w.loc.file, w.loc.line, w.loc.column),
        (wsdl(name).display().to_string().as_str(), line, column),
        "wrong location of: {w}"
    );
}

#[test]
fn wsdl20_soap_binding_without_protocol_is_soap_over_http_with_a_warning() {
    // Apache Axis2 writes wsoap:version but no wsoap:protocol (WSDL 2.0 Part 2 §5.3).
    let g = generate("axis2_no_protocol.wsdl");
    let [c] = &g.module.clients[..] else {
        panic!("expected one client, got {:?}", g.module.clients)
    };
    assert_eq!(c.versions, vec![SoapVersion::Soap11, SoapVersion::Soap12]);
    assert_eq!(c.operations.len(), 1);
    let [w11, w12] = &g.module.warnings[..] else {
        panic!("expected two warnings, got {:?}", g.module.warnings)
    };
    assert_contains(
        &w11.message,
        &[
            "EchoSoap11Binding",
            "no wsoap:protocol",
            "§5.3",
            "SOAP 1.1 over HTTP",
            "http://www.w3.org/2006/01/soap11/bindings/HTTP/",
        ],
    );
    assert_warning_at(w11, "axis2_no_protocol.wsdl", 33, 3);
    assert_contains(
        &w12.message,
        &[
            "EchoSoap12Binding",
            "SOAP 1.2 over HTTP",
            "http://www.w3.org/2003/05/soap/bindings/HTTP/",
        ],
    );
    assert_warning_at(w12, "axis2_no_protocol.wsdl", 37, 3);
    // In the generated file's header too.
    assert_contains(&g.code, &["// Warnings:", "no wsoap:protocol"]);
}

#[test]
fn wsdl20_soap_response_mep_operation_is_generated_as_a_get() {
    // The WSDL 2.0 Primer's opCheckAvailability (a GET, SOAP 1.2 Part 2 §6.3) beside its
    // opMakeReservation (a POST).
    let g = generate("primer_soap_response.wsdl");
    let [c] = &g.module.clients[..] else {
        panic!("expected one client, got {:?}", g.module.clients)
    };
    let ops: Vec<(&str, Option<(&str, &str)>)> = c
        .operations
        .iter()
        .map(|o| {
            let get = o.soap_response.as_ref();
            let get = get.map(|l| (l.template.as_str(), l.query_separator.as_str()));
            (o.wsdl_name.as_str(), get)
        })
        .collect();
    assert_eq!(
        ops,
        [
            ("opCheckAvailability", Some(("", "&"))),
            ("opMakeReservation", None)
        ]
    );
    assert!(g.module.notes.is_empty(), "{:?}", g.module.notes);
    assert_contains(&g.code, &["soap_response"]);
    // The binding's location template and separator reach the attribute.
    let text = std::fs::read_to_string(wsdl("primer_soap_response.wsdl")).unwrap();
    let text = text
        .replace(
            r#"wsoap:mep="http://www.w3.org/2003/05/soap/mep/soap-response/"/>"#,
            r#"wsoap:mep="http://www.w3.org/2003/05/soap/mep/soap-response/"
                 whttp:location="rooms/{roomType}" whttp:queryParameterSeparator=";"/>"#,
        )
        .replace(
            "xmlns:wsoap=",
            r#"xmlns:whttp="http://www.w3.org/ns/wsdl/http" xmlns:wsoap="#,
        );
    let path = "/nonexistent/primer/located.wsdl";
    let g = Builder::new()
        .document(path, text)
        .generate_one(Path::new(path))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_contains(
        &g.code,
        &[r#"soap_response(location = "rooms/{roomType}", query_separator = ";")"#],
    );
}

#[test]
fn wsdl11_soap_namespace_in_a_wsdl20_binding_is_named_as_the_wrong_namespace() {
    let e = error_with(Builder::new(), "wsdl11_soap_prefix_in_wsdl20.wsdl");
    let ErrorKind::Invalid(m) = &e.kind else {
        panic!("expected Invalid, got {e}")
    };
    assert_contains(
        m,
        &[
            "soap:version",
            "http://schemas.xmlsoap.org/wsdl/soap/",
            "http://www.w3.org/ns/wsdl/soap",
        ],
    );
    assert!(!m.contains("missing"), "{m}");
    let loc = e.loc.as_ref().expect("a location");
    assert_eq!(
        (&*loc.file, loc.line, loc.column),
        (
            wsdl("wsdl11_soap_prefix_in_wsdl20.wsdl")
                .display()
                .to_string()
                .as_str(),
            19,
            3
        )
    );
    assert_contains(e.hint.as_deref().expect("a hint"), &["xmlns:wsoap="]);
}

#[test]
fn document_encoded_is_read_as_literal_with_a_located_warning() {
    let g = generate("document_encoded.wsdl");
    assert!(!g.module.encoded, "no operation is rpc/encoded");
    assert_contains(&g.code, &["async fn check_eligibility("]);
    let [w] = &g.module.warnings[..] else {
        panic!("expected one warning, got {:?}", g.module.warnings)
    };
    assert_contains(
        &w.message,
        &[
            "CheckEligibility",
            "use=\"encoded\" with style=\"document\" read as use=\"literal\"",
            "R2706",
        ],
    );
    // The binding operation's wsdl:input, whose soap:body says use="encoded".
    assert_warning_at(w, "document_encoded.wsdl", 41, 7);
}

#[test]
fn document_encoded_is_refused_with_strict_use() {
    let e = error_with(Builder::new().strict_use(true), "document_encoded.wsdl");
    let ErrorKind::Unsupported(m) = &e.kind else {
        panic!("expected Unsupported, got {e}")
    };
    assert_contains(m, &["encoded", "document"]);
    assert_eq!(e.loc.as_ref().map(|l| (l.line, l.column)), Some((41, 7)));
}

#[test]
fn vendor_extension_elements_before_the_soap_ones_are_ignored() {
    // The MS SOAP Toolkit's stk:binding before soap:binding, and vendor elements before
    // soap:operation and soap:body (WSDL 1.1 §2.1.3).
    let g = generate("ms_soap_toolkit.wsdl");
    let [c] = &g.module.clients[..] else {
        panic!("expected one client, got {:?}", g.module.clients)
    };
    assert_eq!(c.versions, vec![SoapVersion::Soap11]);
    let ops: Vec<(&str, &str, bool)> = c
        .operations
        .iter()
        .map(|o| (o.wsdl_name.as_str(), o.action.as_str(), o.encoded))
        .collect();
    assert_eq!(
        ops,
        [
            ("Add", "http://tempuri.org/Calc/action/Calc.Add", true),
            (
                "Subtract",
                "http://tempuri.org/Calc/action/Calc.Subtract",
                true
            ),
        ]
    );
    assert!(g.module.notes.is_empty(), "{:?}", g.module.notes);
}

#[test]
fn a_wsdl_without_a_client_is_an_error_naming_every_reason() {
    let e = error_with(Builder::new(), "http_only.wsdl");
    let ErrorKind::Unsupported(m) = &e.kind else {
        panic!("expected Unsupported, got {e}")
    };
    assert_contains(
        m,
        &[
            "no client to generate",
            "binding StockQuoteHttpGet is an HTTP GET/POST binding",
            "portType Unbound has no binding",
        ],
    );
    assert!(e.loc.is_some(), "{e}");
}

#[test]
fn a_soap_response_operation_that_cannot_be_a_get_is_left_out_or_refused_naming_why() {
    let text = std::fs::read_to_string(wsdl("primer_soap_response.wsdl")).unwrap();
    let generate_with = |b: Builder, text: String, name: &str| {
        let path = format!("/nonexistent/primer/{name}.wsdl");
        b.document(&path, text).generate_one(Path::new(&path))
    };
    let generate = |text: String, name: &str| generate_with(Builder::new(), text, name);
    // A child of complex content cannot be a `name=value` of the IRI (WSDL 2.0 Part 2 §4.2): a
    // located error, or (leaving unsupported operations out) a located note, the other
    // operation generated.
    let complex = text.replace(
        r#"<xs:element name="roomType" type="xs:string"/>"#,
        r#"<xs:element name="roomType" type="xs:anyType"/>"#,
    );
    let e = match generate(complex.clone(), "complex") {
        Ok(g) => panic!("should not generate:\n{}", g.code),
        Err(es) => es.to_string(),
    };
    assert_contains(
        &e,
        &["complex.wsdl:47:5", "roomType is not of a simple type"],
    );
    let skip = Builder::new().skip_unsupported_operations(true);
    let g = generate_with(skip, complex.clone(), "complex").unwrap_or_else(|e| panic!("{e}"));
    let ops: Vec<&str> = g.module.clients[0]
        .operations
        .iter()
        .map(|o| o.wsdl_name.as_str())
        .collect();
    assert_eq!(ops, ["opMakeReservation"]);
    assert_contains(
        &g.module.notes.join("\n"),
        &[
            "operation opCheckAvailability",
            "not generated",
            "roomType is not of a simple type",
            "complex.wsdl:47:5",
            "SOAP-response MEP",
            "§4.2",
        ],
    );
    // Every operation so: no client, each named.
    let all = complex.replace(
        "http://www.w3.org/2003/05/soap/mep/request-response/",
        "http://www.w3.org/2003/05/soap/mep/soap-response/",
    );
    let skip = Builder::new().skip_unsupported_operations(true);
    let e = match generate_with(skip, all, "all_get") {
        Ok(g) => panic!("should not generate:\n{}", g.code),
        Err(es) => es.to_string(),
    };
    assert_contains(
        &e,
        &[
            "no client to generate",
            "operation opCheckAvailability",
            "operation opMakeReservation",
            "SOAP-response MEP",
        ],
    );
    // A location template that is malformed, or cites no child of the input, or a separator
    // that cannot separate pairs: located errors at generation, not failures of every call.
    for (attrs, words) in [
        (
            r#"whttp:location="x/{nope}""#,
            &["{nope}", "no child of the input", "roomType"][..],
        ),
        (
            r#"whttp:location="x/{a""#,
            &["malformed at byte 2", "no `}`"],
        ),
        (
            r#"whttp:location="x/}a""#,
            &["malformed at byte 2", "a single `}`"],
        ),
        (r#"whttp:location="x/{}""#, &["no element name"]),
        (
            r#"whttp:queryParameterSeparator="&amp;&amp;""#,
            &["queryParameterSeparator \"&&\""],
        ),
    ] {
        let bad = text
            .replace(
                r#"wsoap:mep="http://www.w3.org/2003/05/soap/mep/soap-response/"/>"#,
                &format!(
                    r#"wsoap:mep="http://www.w3.org/2003/05/soap/mep/soap-response/" {attrs}/>"#
                ),
            )
            .replace(
                "xmlns:wsoap=",
                r#"xmlns:whttp="http://www.w3.org/ns/wsdl/http" xmlns:wsoap="#,
            );
        let e = match generate(bad, "template") {
            Ok(g) => panic!("{attrs}: should not generate:\n{}", g.code),
            Err(es) => es.to_string(),
        };
        assert_contains(&e, words);
        assert_contains(&e, &["template.wsdl:47:5"]);
    }
    // SOAP 1.1 has no SOAP-response MEP (SOAP 1.2 Part 2 §6.3): left out, said so.
    let soap11 = text.replace(
        r#"wsoap:protocol="http://www.w3.org/2003/05/soap/bindings/HTTP/">"#,
        r#"wsoap:version="1.1" wsoap:protocol="http://www.w3.org/2006/01/soap11/bindings/HTTP/">"#,
    );
    let g = generate(soap11, "soap11").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.module.clients[0].operations.len(), 1);
    assert_contains(
        &g.module.notes.join("\n"),
        &[
            "operation opCheckAvailability",
            "SOAP 1.1 does not",
            "wsoap:version 1.1",
        ],
    );
}

#[test]
fn a_schema_on_its_own_still_generates_its_types() {
    let dir = std::env::temp_dir();
    let path = dir.join("soapgen-lenient-schema-only.xsd");
    let g = Builder::new()
        .document(
            &path,
            r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:s">
                 <xs:complexType name="Point"><xs:sequence>
                   <xs:element name="x" type="xs:int"/>
                 </xs:sequence></xs:complexType>
               </xs:schema>"#,
        )
        .generate_one(&path)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(g.module.clients.is_empty());
    assert_eq!(g.module.types.len(), 1);
}
