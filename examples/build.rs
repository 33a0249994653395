//! The build.rs route: generate a typed client from a real-world WSDL at build time.
//! `cargo:rerun-if-changed` is printed for the WSDL and everything it imports.

fn main() {
    soapgen_build::Builder::new()
        .wsdl("wsdl/globalweather.wsdl")
        .build()
        .unwrap_or_else(|e| panic!("soapgen: {e}"));
}
