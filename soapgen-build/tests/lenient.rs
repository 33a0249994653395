//! Real-world WSDLs that soapgen once refused as a whole for one construct: each is generated where
//! it can be.
//!
//! The documents (`tests/wsdl/`) are written here, modelled on what the named tools publish.
#![cfg(feature = "cli")]

use std::path::{Path, PathBuf};

use soapgen_build::model::ir::SoapVersion;
use soapgen_build::{Builder, Generated};

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
