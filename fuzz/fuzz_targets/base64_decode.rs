//! Differential: soapgen's streaming base64 decoder (fed in two pieces split anywhere) against a
//! simple reference (strip XML whitespace, then the strict `base64` crate): the same bytes, or both
//! refuse.
#![no_main]

use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use soapgen_runtime::base64::Decoder;

fuzz_target!(|data: &[u8]| {
    let Some((&split, text)) = data.split_first() else {
        return;
    };
    let reference: Option<Vec<u8>> = {
        let compact: Vec<u8> = text
            .iter()
            .copied()
            .filter(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            .collect();
        base64::engine::general_purpose::STANDARD
            .decode(compact)
            .ok()
    };
    let at = usize::from(split) * text.len() / 256;
    let (a, b) = text.split_at(at);
    let mut d = Decoder::new();
    let ours = d
        .feed(a)
        .and_then(|()| d.feed(b))
        .and_then(|()| d.finish())
        .ok();
    assert_eq!(ours, reference, "input {:?}", String::from_utf8_lossy(text));
});
