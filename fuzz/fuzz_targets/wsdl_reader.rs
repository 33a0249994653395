//! Any bytes as a WSDL and the two schemas it may import or include (pieces separated by a NUL byte),
//! held in memory: read, modelled and emitted, or a located error; never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut pieces = data.splitn(3, |&b| b == 0);
    let text = |p: Option<&[u8]>| String::from_utf8_lossy(p.unwrap_or_default()).into_owned();
    let wsdl = text(pieces.next());
    let a = text(pieces.next());
    let b = text(pieces.next());
    let builder = soapgen_build::Builder::new()
        .document("/fuzz/service.wsdl", wsdl)
        .document("/fuzz/a.xsd", a)
        .document("/fuzz/b.xsd", b);
    if let Ok(g) = builder.generate_one(std::path::Path::new("/fuzz/service.wsdl")) {
        assert!(!g.code.is_empty());
    }
});
