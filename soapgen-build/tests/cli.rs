//! The `soapgen` CLI as a library: `inspect` shows services, ports, operations as Rust signatures
//! and types; `generate` writes a crate and is idempotent.
#![cfg(feature = "cli")]

use clap::Parser;
use soapgen_build::cli::{run, Cli};

fn cli(args: &[&str]) -> Result<String, soapgen_build::Errors> {
    let mut all = vec!["soapgen"];
    all.extend_from_slice(args);
    run(Cli::parse_from(all))
}

const WSDL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/wsdl/globalweather.wsdl");

#[test]
fn inspect_shows_services_ports_operations_and_types() {
    let out = cli(&["inspect", WSDL, "--types"]).unwrap();
    for line in [
        "trait GlobalWeatherSoap (SOAP 1.1; client GlobalWeatherSoapClient)",
        "  service GlobalWeather, port GlobalWeatherSoap: http://www.webservicex.com/globalweather.asmx",
        "  async fn get_weather(&self, city_name: Option<String>) -> Result<GetWeatherResponse, Error>;",
        "trait GlobalWeatherSoap12 (SOAP 1.2; client GlobalWeatherSoap12Client)",
        "  struct GetWeatherResponse (element {http://www.webserviceX.NET}GetWeatherResponse)",
        "    status_code: String",
        "note: binding GlobalWeatherHttpGet is an HTTP GET/POST binding",
    ] {
        assert!(out.contains(line), "missing {line:?} in:\n{out}");
    }
}

#[test]
fn generate_writes_a_crate_and_is_idempotent() {
    let dir = std::env::temp_dir().join(format!("soapgen-cli-test-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    let first = cli(&["generate", WSDL, "-o", d]).unwrap();
    assert!(first.contains("wrote crate globalweather"), "{first}");
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    let modified = std::fs::metadata(dir.join("src/lib.rs"))
        .unwrap()
        .modified()
        .unwrap();
    cli(&["generate", WSDL, "-o", d]).unwrap();
    assert_eq!(
        std::fs::read_to_string(dir.join("src/lib.rs")).unwrap(),
        lib
    );
    // Unchanged output is not rewritten (builds stay cached).
    assert_eq!(
        std::fs::metadata(dir.join("src/lib.rs"))
            .unwrap()
            .modified()
            .unwrap(),
        modified
    );
    let cargo = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    assert!(
        cargo.contains("soapgen-runtime = { version = \"0.1\""),
        "{cargo}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_name_the_file() {
    let e = cli(&["inspect", "/nonexistent/service.wsdl"])
        .unwrap_err()
        .to_string();
    assert!(e.contains("/nonexistent/service.wsdl"), "{e}");
    let e = cli(&[
        "generate",
        WSDL,
        "-o",
        "/tmp/x",
        "--catalog",
        "no-equals-sign",
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("--catalog takes URL=PATH"), "{e}");
}
