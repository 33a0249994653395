//! Any bytes as a multipart/related (MTOM/XOP, SwA) response: split into parts, then the root read
//! with base64Binary content resolved from the attachments; never a panic.
#![no_main]

use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use soapgen_runtime::envelope::read_response_with_attachments;
use soapgen_runtime::mime::parse_multipart_related;
use soapgen_runtime::types::Base64Binary;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::FromXml;

fuzz_target!(|data: &[u8]| {
    // The first line is the Content-Type, the rest the body.
    let Some(nl) = data.iter().position(|&b| b == b'\n') else {
        return;
    };
    let content_type = String::from_utf8_lossy(&data[..nl]);
    let Ok(m) = parse_multipart_related(&content_type, Bytes::copy_from_slice(&data[nl + 1..]), 64)
    else {
        return;
    };
    let _ = read_response_with_attachments(
        &m.root.body,
        Some(&m.attachments),
        None,
        Limits::default(),
        Some(200),
        Base64Binary::read_xml,
    );
});
