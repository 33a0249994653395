//! The limits at and past their values: the response size over HTTP; element depth, attributes
//! per element and text size (string and base64) on read; a 100 MiB base64 text read when the
//! limits allow it.

use soapgen_runtime::envelope::{read_response, BodyContent};
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::{Client, Error, FromXml};
use soapgen_tests::canned::{http, serve, Behaviour};

use super::{envelope, kind, limited, wrap, Quote, QuotesClient, GOOD};

#[tokio::test]
async fn response_size_limit() {
    let big = envelope(&GOOD.replace("ACME", &"A".repeat(100_000)));
    let server = serve(Behaviour::Raw(http(200, "text/xml", big.as_bytes())));
    let client = Client::builder(server.url())
        .max_response_bytes(10_000)
        .build()
        .unwrap();
    let e = QuotesClient::from_client(client)
        .get_quote("A".into())
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Transport(t) if t.kind == soapgen_runtime::error::TransportErrorKind::TooLarge),
        "{e}"
    );
}

#[test]
fn limits_hold_at_and_past_their_values() {
    // Depth: Envelope, Body and the payload count; 10 levels allowed, 11 refused.
    let nested = |n: usize| wrap(&format!("{}{}", "<a>".repeat(n), "</a>".repeat(n)));
    let read = limited(Limits::default().with_max_depth(10));
    assert!(read(&nested(8)).is_ok());
    assert_eq!(
        kind(read(&nested(9)).unwrap_err()),
        DecodeErrorKind::DepthLimit(10)
    );
    // Attributes per element (namespace declarations count).
    let attrs = |n: usize| {
        wrap(&format!(
            "<a {}/>",
            (0..n)
                .map(|i| format!("x{i}=\"a=b\""))
                .collect::<Vec<_>>()
                .join(" ")
        ))
    };
    let read = limited(Limits::default().with_max_attributes(5));
    assert!(read(&attrs(5)).is_ok());
    assert_eq!(
        kind(read(&attrs(6)).unwrap_err()),
        DecodeErrorKind::AttributeLimit(5)
    );
    // Text size, through a typed read of a string and of base64.
    let text = |n: usize| {
        wrap(&format!(
            "<q:Quote xmlns:q=\"urn:q\"><q:symbol>{}</q:symbol><q:note/></q:Quote>",
            "x".repeat(n)
        ))
    };
    let read = |doc: &str, limit: usize| {
        read_response(
            doc.as_bytes(),
            Limits::default().with_max_text_bytes(limit),
            Some(200),
            Quote::read_xml,
        )
    };
    assert!(read(&text(100), 100).is_ok());
    assert_eq!(
        kind(read(&text(101), 100).unwrap_err()),
        DecodeErrorKind::TextLimit(100)
    );
    let b64 = |n: usize| {
        wrap(&format!(
            "<m:data xmlns:m=\"urn:m\">{}</m:data>",
            "QUJD".repeat(n / 4)
        ))
    };
    let read_b64 = |doc: &str, limit: usize| {
        read_response(
            doc.as_bytes(),
            Limits::default().with_max_text_bytes(limit),
            Some(200),
            soapgen_runtime::types::Base64Binary::read_xml,
        )
    };
    assert!(read_b64(&b64(400), 400).is_ok());
    assert_eq!(
        kind(read_b64(&b64(404), 400).unwrap_err()),
        DecodeErrorKind::TextLimit(400)
    );
}

#[test]
fn a_100_mb_base64_text_is_read_when_the_limits_allow_it() {
    let size = 75 << 20; // 100 MiB of base64 text
    let data: Vec<u8> = (0..size).map(|i: usize| (i % 251) as u8).collect();
    use base64::Engine as _;
    let text = base64::engine::general_purpose::STANDARD.encode(&data);
    assert_eq!(text.len(), 100 << 20);
    let doc = wrap(&format!("<m:data xmlns:m=\"urn:m\">{text}</m:data>"));
    let got = read_response(
        doc.as_bytes(),
        Limits::default().with_max_text_bytes(128 << 20),
        Some(200),
        soapgen_runtime::types::Base64Binary::read_xml,
    )
    .unwrap();
    match got {
        BodyContent::Payload(b) => assert!(b[..] == data[..]),
        BodyContent::Empty => panic!("empty"),
    }
    let e = read_response(
        doc.as_bytes(),
        Limits::default().with_max_text_bytes(64 << 20),
        Some(200),
        soapgen_runtime::types::Base64Binary::read_xml,
    )
    .unwrap_err();
    assert_eq!(kind(e), DecodeErrorKind::TextLimit(64 << 20));
}
