//! Truncated responses are errors, never partial values: cuts of a response and a short
//! Content-Length over HTTP, and every truncation of real captured responses (plain and MTOM).

use bytes::Bytes;
use soapgen_runtime::envelope::{read_response, read_response_with_attachments, BodyContent};
use soapgen_runtime::mime::parse_multipart_related;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::{Error, FromXml, ToXml};
use soapgen_tests::canned::http;

use super::{call, envelope, GOOD};

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

#[tokio::test]
async fn truncated_response() {
    let full = envelope(GOOD);
    for cut in [
        full.len() / 3,
        full.len() / 2,
        full.len() - 12,
        full.len() - 1,
    ] {
        let e = call(http(200, "text/xml", &full.as_bytes()[..cut]))
            .await
            .unwrap_err();
        assert!(matches!(&e, Error::Xml(_)), "cut at {cut}: {e}");
    }
    // Content-Length promises more than the server sends: a transport error, not a partial value.
    let mut resp = http(200, "text/xml", full.as_bytes());
    resp.truncate(resp.len() - 20);
    let e = call(resp).await.unwrap_err();
    assert!(matches!(&e, Error::Transport(_)), "{e}");
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
