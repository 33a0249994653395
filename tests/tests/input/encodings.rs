//! Encodings: a UTF-8 byte order mark, ISO-8859-1 declared in the document or only in the HTTP
//! charset, UTF-16 in both byte orders, and invalid UTF-8 (an error at its byte offset).

use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::Error;
use soapgen_tests::canned::http;

use super::{call, envelope, note_envelope, GOOD};

#[tokio::test]
async fn non_utf8_bytes() {
    let mut body = envelope(GOOD).into_bytes();
    let at = body.windows(4).position(|w| w == b"ACME").unwrap();
    body[at] = 0xFF;
    let e = call(http(200, "text/xml", &body)).await.unwrap_err();
    assert!(
        matches!(&e, Error::Xml(d) if d.kind == DecodeErrorKind::InvalidUtf8 && d.location.offset == at as u64),
        "{e}"
    );
}

#[tokio::test]
async fn byte_order_mark_before_the_envelope() {
    let mut body = b"\xEF\xBB\xBF".to_vec();
    body.extend_from_slice(envelope(GOOD).as_bytes());
    let q = call(http(200, "text/xml; charset=utf-8", &body))
        .await
        .unwrap();
    assert_eq!(q.symbol, "ACME");
}

fn latin1(s: &str) -> Vec<u8> {
    s.chars()
        .map(|c| u8::try_from(u32::from(c)).unwrap())
        .collect()
}

#[tokio::test]
async fn responses_in_other_encodings_are_decoded() {
    let note = "café ÿ";
    // ISO-8859-1 declared in the document.
    let doc = latin1(&note_envelope(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>",
        note,
    ));
    let q = call(http(200, "text/xml", &doc)).await.unwrap();
    assert_eq!((q.symbol.as_str(), q.note.as_deref()), ("Ä", Some(note)));
    // ISO-8859-1 declared only in the HTTP charset.
    let doc = latin1(&note_envelope("", note));
    let q = call(http(200, "text/xml; charset=ISO-8859-1", &doc))
        .await
        .unwrap();
    assert_eq!(q.note.as_deref(), Some(note));
    // UTF-16, both byte orders, with a byte order mark.
    let text = note_envelope("<?xml version=\"1.0\" encoding=\"UTF-16\"?>", note);
    for le in [true, false] {
        let mut doc = if le {
            vec![0xFF, 0xFE]
        } else {
            vec![0xFE, 0xFF]
        };
        for u in text.encode_utf16() {
            doc.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        let q = call(http(200, "text/xml", &doc)).await.unwrap();
        assert_eq!(
            q.note.as_deref(),
            Some(note),
            "UTF-16 {}",
            if le { "LE" } else { "BE" }
        );
    }
    // Invalid UTF-8 in a UTF-8 response: an error with the byte offset.
    let mut doc = note_envelope("", "ok").into_bytes();
    let at = doc.windows(2).position(|w| w == b"ok").unwrap();
    doc[at] = 0xC3;
    let e = call(http(200, "text/xml; charset=utf-8", &doc))
        .await
        .unwrap_err();
    match &e {
        Error::Xml(d) => {
            assert_eq!(d.kind, DecodeErrorKind::InvalidUtf8, "{e}");
            assert_eq!(d.location.offset, at as u64, "{e}");
        }
        other => panic!("{other}"),
    }
}
