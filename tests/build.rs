//! Generates clients, at build time, from WSDLs published by the real peers: spyne's own `?wsdl`
//! (SOAP 1.1 and 1.2, as captured in tests/peers/captures/spyne, and checked against the live server
//! by tests/tests/generated_clients.rs) and the real-world GlobalWeather WSDL that the gSOAP peer is
//! built from; the MTOM WSDL the gSOAP MTOM peer and the line-break peer implement; the SOAP with
//! Attachments WSDL of the gSOAP SwA peer; the rpc/encoded WSDL of the gSOAP encoded peer; a WSDL 2.0
//! description of the gSOAP echo peer's service; the model-group cases of issue 4 (wsdl/groups.wsdl:
//! repeated choices and sequences); input messages with no parts (wsdl/noparts.wsdl); substitution
//! groups and abstract elements (wsdl/substitution.wsdl); type substitution with `xsi:type`
//! (wsdl/polymorphism.wsdl); one echo operation per XSD kind of issue 4 (wsdl/kinds.wsdl), which
//! the gSOAP kinds peer implements.

fn main() {
    let b = soapgen_build::Builder::new()
        .wsdl("peers/captures/spyne/soap11.wsdl")
        .out_name("peers/captures/spyne/soap11.wsdl", "spyne11")
        .wsdl("peers/captures/spyne/soap12.wsdl")
        .out_name("peers/captures/spyne/soap12.wsdl", "spyne12")
        .wsdl("../examples/wsdl/globalweather.wsdl")
        .wsdl("peers/gsoap/echo.wsdl")
        .wsdl("peers/gsoap/echo20.wsdl")
        .wsdl("peers/gsoap/mtom/mtom.wsdl")
        .wsdl("peers/gsoap/swa/swa.wsdl")
        .wsdl("peers/gsoap/encoded/encoded.wsdl")
        .wsdl("wsdl/groups.wsdl")
        .wsdl("wsdl/noparts.wsdl")
        .wsdl("wsdl/substitution.wsdl")
        .wsdl("wsdl/polymorphism.wsdl")
        .wsdl("wsdl/kinds.wsdl");
    if let Err(e) = b.build() {
        panic!("soapgen: {e}");
    }
}
