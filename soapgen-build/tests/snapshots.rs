//! Snapshots of the generated code (`Generated::code`) for small WSDLs in `tests/wsdl/`, so that
//! changes to emission show up in review. Each WSDL illustrates one thing (see the comment at its
//! top); `globalweather.wsdl` and `zeep_soap.wsdl` are real ones (sources in `tests/wsdl/SOURCES.tsv`).
//!
//! Update with `INSTA_UPDATE=always cargo test -p soapgen-build --test snapshots`.

use std::path::PathBuf;

fn wsdl(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/wsdl")
        .join(name)
}

/// Generates `name` twice (the output must not change between runs) and returns the code.
fn generate(name: &str) -> String {
    let path = wsdl(name);
    let builder = soapgen_build::Builder::new();
    let first = builder
        .generate_one(&path)
        .unwrap_or_else(|e| panic!("{name} does not generate:\n{e}"));
    let second = builder
        .generate_one(&path)
        .unwrap_or_else(|e| panic!("{name} does not generate the second time:\n{e}"));
    assert_eq!(
        first.code, second.code,
        "{name}: output differs between runs"
    );
    // The generated code is valid Rust.
    syn::parse_file(&first.code)
        .unwrap_or_else(|e| panic!("{name}: the generated code does not parse: {e}"));
    first.code
}

macro_rules! snapshot {
    ($test:ident, $file:literal) => {
        #[test]
        fn $test() {
            insta::assert_snapshot!(stringify!($test), generate($file));
        }
    };
}

snapshot!(doc_wrapped, "doc_wrapped.wsdl");
snapshot!(doc_bare, "doc_bare.wsdl");
snapshot!(rpc_literal, "rpc_literal.wsdl");
snapshot!(enums, "enums.wsdl");
snapshot!(keywords, "keywords.wsdl");
snapshot!(case_collision, "case_collision.wsdl");
snapshot!(two_namespaces, "two_namespaces.wsdl");
snapshot!(recursive, "recursive.wsdl");
snapshot!(simple_content, "simple_content.wsdl");
snapshot!(optional_nillable, "optional_nillable.wsdl");
snapshot!(any, "any.wsdl");
snapshot!(mixed, "mixed.wsdl");
snapshot!(globalweather, "globalweather.wsdl");
snapshot!(zeep_soap, "zeep_soap.wsdl");
snapshot!(swa, "swa.wsdl");
snapshot!(rpc_encoded, "rpc_encoded.wsdl");
// The client surface: merged versions, names, fault sets, enumeration words, a relative address.
snapshot!(accounts, "accounts.wsdl");
// What WCF publishes: optional nillable members everywhere (OptionalNillable, Default, new).
snapshot!(wcf, "wcf.wsdl");
// The type-substitution WSDL of the live gSOAP test (tests/tests/polymorphism.rs).
snapshot!(polymorphism, "../../../tests/wsdl/polymorphism.wsdl");

/// Without documentation, the same WSDL gives the same code minus the doc comments from the WSDL.
#[test]
fn doc_wrapped_without_docs() {
    let g = soapgen_build::Builder::new()
        .docs(false)
        .generate_one(&wsdl("doc_wrapped.wsdl"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(generate("doc_wrapped.wsdl").contains("Places an order for one item."));
    assert!(!g.code.contains("Places an order for one item."));
    insta::assert_snapshot!("doc_wrapped_without_docs", g.code);
}

/// `Builder::default_namespaces(true)`: the same code, each client's `#[soap_client]` taking
/// `default_namespaces` (request payloads under default-namespace declarations).
#[test]
fn default_namespaces_is_a_client_argument() {
    let on = soapgen_build::Builder::new()
        .default_namespaces(true)
        .generate_one(&wsdl("doc_wrapped.wsdl"))
        .unwrap_or_else(|e| panic!("{e}"))
        .code;
    let off = generate("doc_wrapped.wsdl");
    assert!(!off.contains("default_namespaces"), "{off}");
    // One argument line in the one `#[soap_client(…)]`, right before `blocking`.
    assert_eq!(on.matches("default_namespaces").count(), 1, "{on}");
    assert!(
        on.contains("    default_namespaces,\n    blocking\n)]\npub trait OrdersService"),
        "{on}"
    );
    assert_eq!(on.replace("    default_namespaces,\n", ""), off);
}
