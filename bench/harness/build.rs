//! The client under test, generated at build time (the WSDL route) from the benchmark service's
//! WSDL, `tests/wsdl/large_objects.wsdl`, with its in-process fake (served on a socket by the
//! `fake-server` mode: the server side of the comparison).

fn main() {
    if let Err(e) = soapgen_build::Builder::new()
        .wsdl("../../tests/wsdl/large_objects.wsdl")
        .fake(soapgen_build::Fake::Always)
        .build()
    {
        panic!("soapgen: {e}");
    }
}
