//! Hostile and broken responses: every truncation of real responses is an error, documents
//! in other encodings are read, every limit holds at and past its value, entity bombs end fast, and
//! slow servers end at the configured timeouts.

use std::time::{Duration, Instant};

use bytes::Bytes;
use soapgen_runtime::envelope::{read_response, read_response_with_attachments, BodyContent};
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::mime::parse_multipart_related;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::{soap_client, Client, Error, FromXml, ToXml};
use soapgen_tests::canned::{http, serve, Behaviour};

mod globalweather {
    soapgen_runtime::include_client!("globalweather");
}

mod mtom {
    soapgen_runtime::include_client!("mtom");
}

/// The wrapper of GetCitiesByCountry's result (the generated client unwraps it to a `String`).
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "http://www.webserviceX.NET")]
struct CitiesResponse {
    #[xml(rename = "GetCitiesByCountryResult")]
    result: String,
}

const CAPTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/captures");

fn capture(path: &str) -> Vec<u8> {
    std::fs::read(format!("{CAPTURES}/{path}")).unwrap()
}

/// Whether a (possibly truncated) response is accepted as the complete message.
type Accepts = fn(&[u8]) -> bool;

/// The length of `doc` up to the end of its root element's end tag.
fn complete_length(doc: &[u8]) -> usize {
    doc.iter().rposition(|&b| b == b'>').map_or(0, |i| i + 1)
}

#[test]
fn every_truncation_of_real_responses_is_an_error() {
    let cases: [(&str, Accepts); 4] = [
        ("globalweather/GetWeather-soap11-response.xml", |d| {
            read_response(
                d,
                Limits::default(),
                Some(200),
                globalweather::types::GetWeatherResponse::read_xml,
            )
            .is_ok()
        }),
        (
            "globalweather/GetCitiesByCountry-soap12-response.xml",
            |d| read_response(d, Limits::default(), Some(200), CitiesResponse::read_xml).is_ok(),
        ),
        (
            "globalweather/GetWeather_notfound-soap11-response.xml",
            |d| {
                // The service's "not found" answer, with its extra StatusCode element.
                read_response(d, Limits::default(), Some(200), |r, _| r.skip_element()).is_ok()
            },
        ),
        ("gsoap-mtom/EchoData-soap11-inline-response.xml", |d| {
            read_response(
                d,
                Limits::default(),
                Some(200),
                mtom::types::EchoDataResponse::read_xml,
            )
            .is_ok()
        }),
    ];
    for (path, accepted) in cases {
        let doc = capture(path);
        let end = complete_length(&doc);
        assert!(accepted(&doc), "{path}: the whole response is accepted");
        for len in 0..end {
            assert!(
                !accepted(&doc[..len]),
                "{path}: the first {len} of {end} bytes were accepted"
            );
        }
    }
}

#[test]
fn every_truncation_of_a_real_mtom_response_is_an_error() {
    let head = String::from_utf8(capture("gsoap-mtom/EchoData-soap11-mtom-response.http")).unwrap();
    let ct = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Type: "))
        .unwrap()
        .trim()
        .to_owned();
    let body = capture("gsoap-mtom/EchoData-soap11-mtom-response.mime");
    let read = |b: &[u8]| -> bool {
        let Ok(m) = parse_multipart_related(&ct, Bytes::copy_from_slice(b), 16) else {
            return false;
        };
        matches!(
            read_response_with_attachments(
                &m.root.body,
                Some(&m.attachments),
                None,
                Limits::default(),
                Some(200),
                mtom::types::EchoDataResponse::read_xml,
            ),
            Ok(BodyContent::Payload(_))
        )
    };
    assert!(read(&body));
    // Complete once the close delimiter `--boundary--` is there.
    let close = body.windows(2).rposition(|w| w == b"--").unwrap() + 2;
    for len in 0..close {
        assert!(
            !read(&body[..len]),
            "the first {len} of {close} bytes were accepted"
        );
    }
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:q")]
pub struct Quote {
    pub symbol: String,
    pub note: String,
}

#[soap_client(namespace = "urn:q", soap = "1.1")]
pub trait Quotes {
    #[soap(action = "urn:q#GetQuote", result = "Quote")]
    async fn get_quote(&self, symbol: String) -> Result<Quote, Error>;
}

fn envelope(decl: &str, note: &str) -> String {
    format!(
        "{decl}<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:q=\"urn:q\"><s:Body>\
         <q:get_quoteResponse><q:Quote><q:symbol>Ä</q:symbol><q:note>{note}</q:note></q:Quote>\
         </q:get_quoteResponse></s:Body></s:Envelope>"
    )
}

async fn call(resp: Vec<u8>) -> Result<Quote, Error> {
    let server = serve(Behaviour::Raw(resp));
    QuotesClient::new(server.url())?.get_quote("x".into()).await
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
    let doc = latin1(&envelope(
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>",
        note,
    ));
    let q = call(http(200, "text/xml", &doc)).await.unwrap();
    assert_eq!((q.symbol.as_str(), q.note.as_str()), ("Ä", note));
    // ISO-8859-1 declared only in the HTTP charset.
    let doc = latin1(&envelope("", note));
    let q = call(http(200, "text/xml; charset=ISO-8859-1", &doc))
        .await
        .unwrap();
    assert_eq!(q.note, note);
    // UTF-16, both byte orders, with a byte order mark.
    let text = envelope("<?xml version=\"1.0\" encoding=\"UTF-16\"?>", note);
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
        assert_eq!(q.note, note, "UTF-16 {}", if le { "LE" } else { "BE" });
    }
    // Invalid UTF-8 in a UTF-8 response: an error with the byte offset.
    let mut doc = envelope("", "ok").into_bytes();
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

fn limited(limits: Limits) -> impl Fn(&str) -> Result<(), Error> {
    move |doc: &str| {
        read_response(doc.as_bytes(), limits, Some(200), |r, _| r.skip_element()).map(|_| ())
    }
}

fn wrap(body: &str) -> String {
    format!("<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{body}</s:Body></s:Envelope>")
}

fn kind(e: Error) -> DecodeErrorKind {
    match e {
        Error::Xml(d) | Error::Decode(d) => d.kind,
        other => panic!("{other}"),
    }
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

#[test]
fn entity_bombs_end_fast_with_an_error() {
    let laughs = format!(
        "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">{}]><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>&lol9;</s:Body></s:Envelope>",
        (1..10)
            .map(|i| format!("<!ENTITY lol{i} \"{}\">", format!("&lol{};", i - 1).repeat(10)))
            .collect::<String>()
    );
    let quadratic = format!(
        "<!DOCTYPE q [<!ENTITY a \"{}\">]><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{}</s:Body></s:Envelope>",
        "a".repeat(50_000),
        "&a;".repeat(50_000)
    );
    for doc in [laughs, quadratic] {
        let started = Instant::now();
        let e = read_response(doc.as_bytes(), Limits::default(), Some(200), |r, _| {
            r.skip_element()
        })
        .unwrap_err();
        assert_eq!(kind(e), DecodeErrorKind::DocType);
        assert!(started.elapsed() < Duration::from_secs(5));
    }
    // Without a DOCTYPE an undefined entity is an error too.
    let e = limited(Limits::default())(&wrap("<a>&lol9;</a>")).unwrap_err();
    assert!(e.to_string().contains("&lol9;"), "{e}");
}

#[tokio::test]
async fn slow_servers_end_at_the_timeouts() {
    let doc = envelope("", "slow");
    let response = http(200, "text/xml", doc.as_bytes());
    let head_len = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let cases = [
        // Headers, then silence.
        Behaviour::PartialThenStall(response[..head_len].to_vec(), Duration::from_secs(30)),
        // Headers and body one byte every 50 ms (the whole response would take ~20 s).
        Behaviour::Trickle(response.clone(), Duration::from_millis(50)),
    ];
    for behaviour in cases {
        let server = serve(behaviour.clone());
        let client = Client::builder(server.url())
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        let started = Instant::now();
        let e = QuotesClient::from_client(client)
            .get_quote("x".into())
            .await
            .unwrap_err();
        let took = started.elapsed();
        assert!(e.is_timeout(), "{behaviour:?}: {e}");
        assert!(
            took >= Duration::from_millis(1900) && took < Duration::from_secs(10),
            "{took:?}"
        );
    }
}
