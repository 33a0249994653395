//! Any bytes as the response to one of chromedata.wsdl's operations (the first byte picks which):
//! decoded into the generated types, never a panic; a value that decodes must write and read back
//! to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use soapgen_runtime::envelope::{read_response, BodyContent};
use soapgen_runtime::xml::{Limits, Name, XmlReader, XmlWriter};
use soapgen_runtime::{FromXml, ToXml};

mod chromedata {
    soapgen_runtime::include_client!("chromedata");
}
use chromedata::types as t;

fn check<T: FromXml + ToXml + PartialEq + std::fmt::Debug>(doc: &[u8]) {
    let Ok(BodyContent::Payload(v)) = read_response(doc, Limits::default(), Some(200), T::read_xml)
    else {
        return;
    };
    // Round trip: what was read writes and reads back equal.
    let mut w = XmlWriter::new();
    let name = Name::new("urn:fuzz", "v");
    if v.write_xml(&mut w, name).is_err() {
        return;
    }
    let Ok(xml) = w.into_string() else { return };
    let mut r = XmlReader::new(&xml);
    let root = r.root().expect("written XML has a root");
    let back = T::read_xml(&mut r, root).expect("written XML reads back");
    assert_eq!(back, v);
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, doc)) = data.split_first() else {
        return;
    };
    match which % 6 {
        0 => check::<t::VersionInfo>(doc),
        1 => check::<t::ModelYears>(doc),
        2 => check::<t::Divisions>(doc),
        3 => check::<t::Styles>(doc),
        4 => check::<t::VehicleDescription>(doc),
        _ => check::<t::TechnicalSpecificationDefinitions>(doc),
    }
});
