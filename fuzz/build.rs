//! Generates the client of a rich real-world WSDL (chromedata.wsdl from the corpus: 59 types) whose
//! response types the `response_reader` target decodes and writes again (so every type derives
//! both directions).

fn main() {
    if let Err(e) = soapgen_build::Builder::new()
        .wsdl("wsdl/chromedata.wsdl")
        .out_name("wsdl/chromedata.wsdl", "chromedata")
        .blocking(false)
        .docs(false)
        .both_directions(true)
        .build()
    {
        panic!("soapgen: {e}");
    }
}
