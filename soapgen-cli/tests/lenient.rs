//! What the `soapgen` command does with the WSDLs soapgen-build's `tests/lenient.rs` reads: a
//! construct refused with `--strict-use`, and a WSDL that gives no client, are errors (exit status
//! 1), and no crate is written.

use std::path::PathBuf;

use soapgen_cli::main_with_args;

fn wsdl(name: &str) -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../soapgen-build/tests/wsdl"
    ))
    .join(name)
}

#[test]
fn document_encoded_with_strict_use_is_an_error() {
    let status = main_with_args(
        [
            "soapgen",
            "inspect",
            "--strict-use",
            wsdl("document_encoded.wsdl").to_str().unwrap(),
        ]
        .map(Into::into),
    );
    assert_eq!(status, 1);
}

#[test]
fn a_wsdl_without_a_client_is_an_error_and_writes_no_crate() {
    let out = std::env::temp_dir().join(format!("soapgen-no-client-{}", std::process::id()));
    let status = main_with_args(
        [
            "soapgen",
            "generate",
            wsdl("http_only.wsdl").to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]
        .map(Into::into),
    );
    assert_eq!(status, 1);
    assert!(!out.join("src/lib.rs").exists(), "no crate is written");
    let _ = std::fs::remove_dir_all(&out);
}
