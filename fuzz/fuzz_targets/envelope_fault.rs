//! Any bytes as a SOAP response envelope of either version: the envelope and fault readers (Code and
//! Subcode chains, Reason texts, Detail) give a value or a typed error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use soapgen_runtime::envelope::read_response;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::Error;

fuzz_target!(|data: &[u8]| {
    let result = read_response(data, Limits::default(), Some(500), |r, _tag| {
        r.read_inner_xml().map(str::to_owned)
    });
    if let Err(Error::Fault(f)) = result {
        // Everything a caller may look at must be usable.
        let _ = f.to_string();
        if let Some(d) = f.detail.as_ref() {
            let _ = d.decode::<String>(soapgen_runtime::xml::Name::new("urn:x", "x"));
        }
    }
});
