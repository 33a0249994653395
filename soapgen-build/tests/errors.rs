//! Bad input: each case is a folder of documents under `tests/errors/<case>/`, and each test checks
//! the error's kind, its exact `file:line:col`, and the key words of its message and hint. Cases that
//! should generate (include resolution, catalogs) check the generated code and `files_read`.

use std::path::{Path, PathBuf};

use soapgen_build::{Builder, Error, ErrorKind, Generated};

/// The absolute path of `rel` under `tests/errors/`, as the generator names it in locations.
fn case(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/errors")
        .join(rel)
}

fn display(rel: &str) -> String {
    case(rel).display().to_string()
}

fn generate(rel: &str) -> Generated {
    generate_with(Builder::new(), rel)
}

fn generate_with(builder: Builder, rel: &str) -> Generated {
    builder
        .generate_one(&case(rel))
        .unwrap_or_else(|e| panic!("{rel} should generate, but:\n{e}"))
}

/// The one error of generating `rel`.
fn error(rel: &str) -> Error {
    error_with(Builder::new(), rel)
}

fn error_with(builder: Builder, rel: &str) -> Error {
    match builder.generate_one(&case(rel)) {
        Ok(_) => panic!("{rel} should not generate"),
        Err(mut es) => {
            assert_eq!(es.0.len(), 1, "expected one error, got:\n{es}");
            es.0.remove(0)
        }
    }
}

/// Asserts that `e` is located at `rel:line:column`.
#[track_caller]
fn assert_at(e: &Error, rel: &str, line: u32, column: u32) {
    let loc = e
        .loc
        .as_ref()
        .unwrap_or_else(|| panic!("no location on: {e}"));
    assert_eq!(
        (&*loc.file, loc.line, loc.column),
        (display(rel).as_str(), line, column),
        "wrong location of: {e}"
    );
    // The display starts with the same `file:line:col: `.
    assert!(
        e.to_string()
            .starts_with(&format!("{}:{line}:{column}: ", display(rel))),
        "{e}"
    );
}

#[track_caller]
fn assert_contains(text: &str, words: &[&str]) {
    for w in words {
        assert!(text.contains(w), "{w:?} not in:\n{text}");
    }
}

/// `files_read` as paths relative to `tests/errors/`, asserting each appears once.
fn files_read(g: &Generated) -> Vec<String> {
    let base = case("");
    let rel: Vec<String> = g
        .files_read
        .iter()
        .map(|f| {
            f.strip_prefix(&base)
                .unwrap_or_else(|_| panic!("{} is outside tests/errors", f.display()))
                .to_string_lossy()
                .replace('\\', "/")
        })
        .collect();
    let mut sorted = rel.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), rel.len(), "a file was read twice: {rel:?}");
    sorted
}

// Malformed documents.

#[test]
fn malformed_wsdl_is_an_xml_error_at_the_mismatched_end_tag() {
    // `<wsdl:part …>` on line 6 is never closed; the parser notices at `</wsdl:message>`.
    let e = error("malformed_wsdl/service.wsdl");
    let ErrorKind::Xml(m) = &e.kind else {
        panic!("expected ErrorKind::Xml, got {e}")
    };
    assert_contains(m, &["wsdl:part", "wsdl:message"]);
    assert_at(&e, "malformed_wsdl/service.wsdl", 7, 3);
    assert_contains(&e.to_string(), &["not well-formed XML"]);
}

#[test]
fn malformed_imported_xsd_is_an_xml_error_in_the_xsd() {
    let e = error("malformed_xsd/service.wsdl");
    let ErrorKind::Xml(m) = &e.kind else {
        panic!("expected ErrorKind::Xml, got {e}")
    };
    assert_contains(m, &["xs:sequence", "xs:complexType"]);
    assert_at(&e, "malformed_xsd/types.xsd", 6, 3);
}

// Missing documents.

#[test]
fn missing_relative_include_is_located_at_the_include_in_the_including_xsd() {
    // WSDL → xsd/main.xsd → include "parts/missing.xsd": looked for next to main.xsd.
    let e = error("missing_include/service.wsdl");
    assert_eq!(
        e.kind,
        ErrorKind::MissingImport {
            location: "parts/missing.xsd".into(),
            resolved: display("missing_include/xsd/parts/missing.xsd"),
        }
    );
    assert_at(&e, "missing_include/xsd/main.xsd", 4, 3);
    assert_contains(
        &e.to_string(),
        &["\"parts/missing.xsd\" not found", "hint:", "relative"],
    );
}

#[test]
fn missing_relative_xs_import_is_located_at_the_import() {
    let e = error("missing_import/service.wsdl");
    assert_eq!(
        e.kind,
        ErrorKind::MissingImport {
            location: "schemas/absent.xsd".into(),
            resolved: display("missing_import/schemas/absent.xsd"),
        }
    );
    assert_at(&e, "missing_import/service.wsdl", 7, 7);
    assert_contains(&e.to_string(), &["schemas/absent.xsd", "not found"]);
}

#[test]
fn missing_wsdl_import_is_located_at_the_wsdl_import() {
    let e = error("missing_wsdl_import/service.wsdl");
    assert_eq!(
        e.kind,
        ErrorKind::MissingImport {
            location: "messages.wsdl".into(),
            resolved: display("missing_wsdl_import/messages.wsdl"),
        }
    );
    assert_at(&e, "missing_wsdl_import/service.wsdl", 5, 5);
}

const REMOTE: &str = "http://schemas.example.invalid/remote/v1/remote.xsd";

#[test]
fn absolute_url_not_in_the_catalog_is_missing_with_a_catalog_hint() {
    let e = error("catalog/service.wsdl");
    let ErrorKind::MissingImport { location, resolved } = &e.kind else {
        panic!("expected MissingImport, got {e}")
    };
    assert_eq!(location, REMOTE);
    assert_contains(resolved, &["catalog"]);
    assert_at(&e, "catalog/service.wsdl", 9, 7);
    let hint = e.hint.as_deref().expect("a hint");
    assert_contains(hint, &["catalog", "catalog_entry", REMOTE]);
}

#[test]
fn absolute_url_mapped_in_the_catalog_generates() {
    let g = generate_with(
        Builder::new().catalog_entry(REMOTE, case("catalog/local/remote.xsd")),
        "catalog/service.wsdl",
    );
    assert_contains(
        &g.code,
        &["#[xml(namespace = \"urn:remote\")]", "pub struct Query {"],
    );
    assert_eq!(
        files_read(&g),
        ["catalog/local/remote.xsd", "catalog/service.wsdl"]
    );
}

// Duplicate definitions.

#[test]
fn duplicate_complex_type_in_two_included_files_names_both_locations() {
    let e = error("duplicate_type/service.wsdl");
    let ErrorKind::Duplicate(m) = &e.kind else {
        panic!("expected Duplicate, got {e}")
    };
    assert_contains(
        m,
        &[
            "{urn:t}Address",
            &format!("first defined at {}:3:3", display("duplicate_type/a.xsd")),
        ],
    );
    assert_at(&e, "duplicate_type/b.xsd", 8, 7);
}

#[test]
fn duplicate_message_names_both_locations() {
    let e = error("duplicate_message/service.wsdl");
    let ErrorKind::Duplicate(m) = &e.kind else {
        panic!("expected Duplicate, got {e}")
    };
    assert_contains(
        m,
        &[
            "message {urn:t}Request",
            &format!(
                "first defined at {}:7:3",
                display("duplicate_message/service.wsdl")
            ),
        ],
    );
    assert_at(&e, "duplicate_message/service.wsdl", 13, 5);
}

// Undefined QNames.

#[test]
fn element_with_undefined_type() {
    let e = error("undefined_type/service.wsdl");
    assert_eq!(e.kind, ErrorKind::Undefined("type {urn:t}Timestamp".into()));
    assert_at(&e, "undefined_type/service.wsdl", 12, 13);
    assert_contains(e.hint.as_deref().expect("a hint"), &["imported"]);
}

#[test]
fn fault_part_with_undefined_element() {
    let e = error("undefined_element/fault.wsdl");
    assert_eq!(
        e.kind,
        ErrorKind::Undefined("element {urn:t}GetError".into())
    );
    // The wsdl:part naming the element.
    assert_at(&e, "undefined_element/fault.wsdl", 32, 5);
    assert!(e.hint.is_some(), "{e}");
}

#[test]
fn operation_input_with_unknown_message() {
    let e = error("undefined_message/service.wsdl");
    assert_eq!(e.kind, ErrorKind::Undefined("message {urn:t}Nope".into()));
    // The portType operation whose wsdl:input (line 33) names the message.
    assert_at(&e, "undefined_message/service.wsdl", 32, 5);
}

#[test]
fn binding_with_unknown_port_type() {
    let e = error("undefined_port_type/service.wsdl");
    assert_eq!(e.kind, ErrorKind::Undefined("portType {urn:t}Nope".into()));
    assert_at(&e, "undefined_port_type/service.wsdl", 37, 3);
}

#[test]
fn unbound_prefix_in_a_type_attribute() {
    let e = error("unbound_prefix/service.wsdl");
    assert_eq!(e.kind, ErrorKind::UnboundPrefix("x".into()));
    assert_at(&e, "unbound_prefix/service.wsdl", 12, 13);
    assert_contains(e.hint.as_deref().expect("a hint"), &["xmlns:x"]);
}

// Unsupported constructs.

#[test]
fn document_encoded_is_unsupported_with_strict_use() {
    // rpc/encoded generates; use="encoded" with style="document" does not when asked to be strict.
    let e = error_with(Builder::new().strict_use(true), "encoded/service.wsdl");
    let ErrorKind::Unsupported(m) = &e.kind else {
        panic!("expected Unsupported, got {e}")
    };
    assert_contains(m, &["encoded", "document"]);
    // The binding operation's wsdl:input, whose soap:body says use="encoded".
    assert_at(&e, "encoded/service.wsdl", 32, 7);
}

#[test]
fn document_encoded_operation_is_skipped_and_listed_when_asked() {
    let g = generate_with(
        Builder::new()
            .strict_use(true)
            .skip_unsupported_operations(true),
        "encoded/service.wsdl",
    );
    assert_contains(
        &g.code,
        &[
            "// Not generated:\n",
            "// - operation EchoEncoded of binding EchoBinding not generated: ",
            "encoded",
            "async fn echo(",
            "action = \"Echo\"",
        ],
    );
    assert!(!g.code.contains("async fn echo_encoded("), "{}", g.code);
    // The note is in the header comment, before the code.
    let header_end = g.code.find("pub mod types").expect("a types module");
    assert!(g.code[..header_end].contains("EchoEncoded"), "{}", g.code);
}

#[test]
fn wsdl_2_0_out_only_operation_is_unsupported() {
    let e = error("wsdl20/service.wsdl");
    let ErrorKind::Unsupported(m) = &e.kind else {
        panic!("expected Unsupported, got {e}")
    };
    assert_contains(
        m,
        &[
            "http://www.w3.org/ns/wsdl/out-only",
            "a client cannot call it",
        ],
    );
    assert_at(&e, "wsdl20/service.wsdl", 6, 5);
}

#[test]
fn wsdl_2_0_out_only_is_an_error_even_when_skipping_unsupported_operations() {
    let e = error_with(
        Builder::new().skip_unsupported_operations(true),
        "wsdl20/service.wsdl",
    );
    assert!(matches!(e.kind, ErrorKind::Unsupported(_)), "{e}");
}

// Include resolution.

#[test]
fn include_resolves_against_the_including_schema() {
    // WSDL → xsd/request.xsd → include elements/Type.xsd (→ xsd/elements/Type.xsd).
    let g = generate("nested_include/service.wsdl");
    assert_contains(
        &g.code,
        &[
            "Generated from complexType `{urn:t:request}NestedType`.",
            "pub struct NestedType {",
            "pub depth: i32,",
            "item: types::NestedType",
        ],
    );
    assert_eq!(
        files_read(&g),
        [
            "nested_include/service.wsdl",
            "nested_include/xsd/elements/Type.xsd",
            "nested_include/xsd/request.xsd",
        ]
    );
}

#[test]
fn include_cycle_terminates() {
    // The WSDL's schema includes a.xsd; a → b → c → a.
    let g = generate("include_cycle/service.wsdl");
    assert_contains(
        &g.code,
        &[
            "pub struct FromB {",
            "pub struct FromC {",
            "b: types::FromB",
            "c: types::FromC",
        ],
    );
    assert_eq!(
        files_read(&g),
        [
            "include_cycle/a.xsd",
            "include_cycle/b.xsd",
            "include_cycle/c.xsd",
            "include_cycle/service.wsdl",
        ]
    );
}

#[test]
fn chameleon_include_takes_the_includers_namespace() {
    let g = generate("chameleon/service.wsdl");
    for ty in ["Shared", "Part"] {
        let at = g
            .code
            .find(&format!("pub struct {ty} {{"))
            .unwrap_or_else(|| panic!("no struct {ty} in:\n{}", g.code));
        let before = &g.code[..at];
        let attr = before.rfind("#[xml(").expect("an xml attribute");
        assert_eq!(
            &before[attr..].trim_end(),
            &"#[xml(namespace = \"urn:t\")]",
            "{ty} is not in the includer's namespace:\n{}",
            g.code
        );
    }
    // `type="Part"` (no prefix, no namespace) in the chameleon schema refers to {urn:t}Part.
    assert_contains(
        &g.code,
        &[
            "Generated from complexType `{urn:t}Shared`.",
            "Generated from complexType `{urn:t}Part`.",
            "pub part: Part,",
        ],
    );
}

#[test]
fn files_read_lists_each_file_once() {
    // Two imported schemas both import common.xsd: it is read once.
    let g = generate("diamond/service.wsdl");
    assert_eq!(
        files_read(&g),
        [
            "diamond/common.xsd",
            "diamond/left.xsd",
            "diamond/right.xsd",
            "diamond/service.wsdl",
        ]
    );
    assert_eq!(g.files_read[0], case("diamond/service.wsdl"));
    assert_contains(
        &g.code,
        &[
            "pub struct Left {",
            "pub struct Right {",
            "pub type Id = ::std::string::String;",
        ],
    );
}

// SOAP with Attachments: WSDL 1.1 §5 MIME bindings.

#[test]
fn mime_content_naming_no_part_is_undefined_at_its_mime_part() {
    let e = error("mime/unknown_part.wsdl");
    assert!(matches!(e.kind, ErrorKind::Undefined(_)), "{e}");
    assert_contains(&e.to_string(), &["part nope", "PutIn", "mime:content"]);
    assert_at(&e, "mime/unknown_part.wsdl", 37, 11);
}

#[test]
fn multipart_related_without_a_soap_body_part_is_missing_it() {
    let e = error("mime/no_root.wsdl");
    assert!(matches!(e.kind, ErrorKind::Missing(_)), "{e}");
    assert_contains(&e.to_string(), &["soap:body", "mime:multipartRelated"]);
    assert_at(&e, "mime/no_root.wsdl", 33, 9);
}

#[test]
fn mime_xml_is_unsupported_at_its_element() {
    let e = error("mime/mime_xml.wsdl");
    let ErrorKind::Unsupported(m) = &e.kind else {
        panic!("expected Unsupported, got {e}")
    };
    assert_contains(m, &["mime:mimeXml"]);
    assert_at(&e, "mime/mime_xml.wsdl", 38, 13);
}

#[test]
fn a_catalog_entry_naming_no_file_is_named() {
    // CXF's test WSDLs import `src/test/resources/DoubleItLogical.wsdl`; an entry for it whose
    // path is wrong is the entry to correct, not one to add.
    let wsdl = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/cxf-policy/src/test/resources/org/apache/cxf/systest/ws/ut/DoubleItUt.wsdl");
    let e = soapgen_build::Builder::new()
        .wsdl(&wsdl)
        .catalog_entry(
            "src/test/resources/DoubleItLogical.wsdl",
            "/nonexistent/DoubleItLogical.wsdl",
        )
        .generate_one(&wsdl)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("the catalog maps src/test/resources/DoubleItLogical.wsdl to /nonexistent/DoubleItLogical.wsdl, which does not exist"),
        "{e}"
    );
}

#[test]
fn a_transport_binding_at_a_plain_http_address_is_a_warning() {
    let resources = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus/cxf-policy/src/test/resources");
    let wsdl = resources.join("org/apache/cxf/systest/ws/security/DoubleIt.wsdl");
    let g = Builder::new()
        .wsdl(&wsdl)
        .catalog_entry(
            "src/test/resources/DoubleItLogical.wsdl",
            resources.join("DoubleItLogical.wsdl"),
        )
        .ports(["DoubleItPortHttp"])
        .generate_one(&wsdl)
        .unwrap_or_else(|e| panic!("{e}"));
    let w: Vec<String> = g.module.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter().any(|w| w.contains("port DoubleItPortHttp")
            && w.contains("is plain HTTP")
            && w.contains("HttpsRequired")),
        "{w:?}"
    );
}
