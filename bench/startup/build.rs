//! The client under test, generated at build time (the WSDL route) from the benchmark service's
//! WSDL, `tests/wsdl/large_objects.wsdl`, as the harness's.

fn main() {
    if let Err(e) = soapgen_build::Builder::new()
        .wsdl("../../tests/wsdl/large_objects.wsdl")
        .build()
    {
        panic!("soapgen: {e}");
    }
}
