//! Broken and hostile responses over real HTTP on loopback: each is a clear, typed error, never a panic.

use std::time::Duration;

use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::{soap_client, Client, Error, FromXml, ToXml};
use soapgen_tests::canned::{http, refused_url, serve, Behaviour};

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:q")]
pub struct Quote {
    pub symbol: String,
    pub price: soapgen_runtime::types::Decimal,
}

#[soap_client(namespace = "urn:q", soap = "1.1")]
pub trait Quotes {
    #[soap(action = "urn:q#GetQuote", result = "Quote")]
    async fn get_quote(&self, symbol: String) -> Result<Quote, Error>;
}

#[soap_client(namespace = "urn:q", soap = "1.2", client = "Quotes12Client")]
pub trait Quotes12 {
    #[soap(action = "urn:q#GetQuote", result = "Quote")]
    async fn get_quote(&self, symbol: String) -> Result<Quote, Error>;
}

const ENV11: &str = "http://schemas.xmlsoap.org/soap/envelope/";

fn envelope(body: &str) -> String {
    format!(
        r#"<?xml version="1.0"?><s:Envelope xmlns:s="{ENV11}" xmlns:q="urn:q"><s:Body>{body}</s:Body></s:Envelope>"#
    )
}

const GOOD: &str = "<q:get_quoteResponse><q:Quote><q:symbol>ACME</q:symbol><q:price>12.50</q:price></q:Quote></q:get_quoteResponse>";

async fn call_with(resp: Vec<u8>) -> Result<Quote, Error> {
    let server = serve(Behaviour::Raw(resp));
    QuotesClient::new(server.url())?
        .get_quote("ACME".into())
        .await
}

#[tokio::test]
async fn good_response_and_request_shape() {
    let server = serve(Behaviour::Raw(http(
        200,
        "text/xml; charset=utf-8",
        envelope(GOOD).as_bytes(),
    )));
    let q = QuotesClient::new(server.url())
        .unwrap()
        .get_quote("ACME".into())
        .await
        .unwrap();
    assert_eq!(q.symbol, "ACME");
    assert_eq!(
        q.price,
        "12.5".parse::<soapgen_runtime::types::Decimal>().unwrap()
    );
    let req = server.last_request().to_ascii_lowercase();
    assert!(
        req.contains("content-type: text/xml; charset=utf-8"),
        "{req}"
    );
    assert!(req.contains("soapaction: \"urn:q#getquote\""), "{req}");

    let server = serve(Behaviour::Raw(http(
        200,
        "application/soap+xml",
        envelope(GOOD)
            .replace(ENV11, "http://www.w3.org/2003/05/soap-envelope")
            .as_bytes(),
    )));
    Quotes12Client::new(server.url())
        .unwrap()
        .get_quote("ACME".into())
        .await
        .unwrap();
    let req = server.last_request().to_ascii_lowercase();
    assert!(
        req.contains(
            "content-type: application/soap+xml; charset=utf-8; action=\"urn:q#getquote\""
        ),
        "{req}"
    );
    assert!(!req.contains("soapaction"), "{req}");
}

#[tokio::test]
async fn malformed_xml() {
    let body = envelope("<q:get_quoteResponse><q:Quote></q:get_quoteResponse>");
    let e = call_with(http(200, "text/xml", body.as_bytes()))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Xml(d) if matches!(d.kind, DecodeErrorKind::Syntax(_))),
        "{e}"
    );
    assert!(e.to_string().contains("line 1"), "{e}");
}

#[tokio::test]
async fn wrong_body_element() {
    let body = envelope("<q:SomethingElse/>");
    let e = call_with(http(200, "text/xml", body.as_bytes()))
        .await
        .unwrap_err();
    assert!(matches!(&e, Error::Decode(_)), "{e}");
    assert!(
        e.to_string()
            .contains("Body/SomethingElse: unexpected element {urn:q}SomethingElse"),
        "{e}"
    );
}

#[tokio::test]
async fn invalid_value_names_the_path() {
    let body = envelope(&GOOD.replace("12.50", "1,5"));
    let e = call_with(http(200, "text/xml", body.as_bytes()))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with(r#"Body/get_quoteResponse/Quote/price: invalid decimal "1,5""#),
        "{e}"
    );
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
        let e = call_with(http(200, "text/xml", &full.as_bytes()[..cut]))
            .await
            .unwrap_err();
        assert!(matches!(&e, Error::Xml(_)), "cut at {cut}: {e}");
    }
    // Content-Length promises more than the server sends: a transport error, not a partial value.
    let mut resp = http(200, "text/xml", full.as_bytes());
    resp.truncate(resp.len() - 20);
    let e = call_with(resp).await.unwrap_err();
    assert!(matches!(&e, Error::Transport(_)), "{e}");
}

#[tokio::test]
async fn non_utf8_bytes() {
    let mut body = envelope(GOOD).into_bytes();
    let at = body.windows(4).position(|w| w == b"ACME").unwrap();
    body[at] = 0xFF;
    let e = call_with(http(200, "text/xml", &body)).await.unwrap_err();
    assert!(
        matches!(&e, Error::Xml(d) if d.kind == DecodeErrorKind::InvalidUtf8 && d.location.offset == at as u64),
        "{e}"
    );
}

#[tokio::test]
async fn empty_200() {
    let e = call_with(http(200, "text/xml", b"")).await.unwrap_err();
    assert!(matches!(&e, Error::Http { status: 200, .. }), "{e}");
    assert!(e.to_string().contains("empty body"), "{e}");
}

#[tokio::test]
async fn fault_with_200_and_500() {
    let fault = envelope(
        "<s:Fault><faultcode>s:Server</faultcode><faultstring>boom</faultstring></s:Fault>",
    );
    for status in [200, 500] {
        let e = call_with(http(status, "text/xml", fault.as_bytes()))
            .await
            .unwrap_err();
        let f = e.fault().expect("a fault");
        assert_eq!(f.reason, "boom");
        assert!(f.is_receiver());
        assert_eq!(e.status(), Some(status));
    }
}

#[tokio::test]
async fn html_error_pages() {
    let page = b"<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>";
    for status in [500, 502, 200] {
        let e = call_with(http(status, "text/html; charset=utf-8", page))
            .await
            .unwrap_err();
        match &e {
            Error::Http {
                status: s,
                excerpt,
                content_type,
            } => {
                assert_eq!(*s, status);
                assert!(excerpt.contains("Bad Gateway"), "{excerpt}");
                assert_eq!(content_type.as_deref(), Some("text/html; charset=utf-8"));
            }
            other => panic!("expected an HTTP error, got {other}"),
        }
    }
    // An XML but non-SOAP body with an error status is an HTTP error too.
    let e = call_with(http(404, "text/xml", b"<error>not found</error>"))
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(404));
    assert!(matches!(e, Error::Http { .. }));
}

#[tokio::test]
async fn doctype_is_refused() {
    let evil = format!(
        r#"<?xml version="1.0"?><!DOCTYPE s:Envelope [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>{}"#,
        envelope(&GOOD.replace("ACME", "&b;"))
    );
    let e = call_with(http(200, "text/xml", evil.as_bytes()))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Xml(d) if d.kind == DecodeErrorKind::DocType),
        "{e}"
    );
}

#[tokio::test]
async fn connection_refused() {
    let e = QuotesClient::new(refused_url())
        .unwrap()
        .get_quote("A".into())
        .await
        .unwrap_err();
    assert!(e.is_connect(), "{e}");
    assert!(e.to_string().contains("connection failed"), "{e}");
}

#[tokio::test]
async fn timeout() {
    let server = serve(Behaviour::Stall(Duration::from_secs(5)));
    let client = Client::builder(server.url())
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let e = QuotesClient::from_client(client)
        .get_quote("A".into())
        .await
        .unwrap_err();
    assert!(e.is_timeout(), "{e}");
}

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

#[tokio::test]
async fn basic_auth_extra_headers_and_cookies() {
    let mut resp = http(200, "text/xml", envelope(GOOD).as_bytes());
    // Set a session cookie the client must send back on the next call.
    let at = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    resp.splice(
        at..at,
        b"\r\nSet-Cookie: session=abc123; Path=/".iter().copied(),
    );
    let server = serve(Behaviour::Raw(resp));
    let client = Client::builder(server.url())
        .basic_auth("alice", "s3cr3t")
        .header("X-Tenant", "acme")
        .build()
        .unwrap();
    let c = QuotesClient::from_client(client);
    c.get_quote("A".into()).await.unwrap();
    let first = server.last_request().to_ascii_lowercase();
    // base64("alice:s3cr3t")
    assert!(
        first.contains("authorization: basic ywxpy2u6cznjcjn0"),
        "{first}"
    );
    assert!(first.contains("x-tenant: acme"), "{first}");
    assert!(first.contains("accept-encoding: gzip"), "{first}");
    assert!(!first.contains("cookie:"), "{first}");
    c.get_quote("A".into()).await.unwrap();
    let second = server.last_request().to_ascii_lowercase();
    assert!(second.contains("cookie: session=abc123"), "{second}");
}

#[tokio::test]
async fn gzip_responses_are_decoded() {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(envelope(GOOD).as_bytes()).unwrap();
    let body = gz.finish().unwrap();
    let mut resp = http(200, "text/xml", &body);
    let at = resp.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    resp.splice(at..at, b"\r\nContent-Encoding: gzip".iter().copied());
    let q = call_with(resp).await.unwrap();
    assert_eq!(q.symbol, "ACME");
}

#[tokio::test]
async fn byte_order_mark_before_the_envelope() {
    let mut body = b"\xEF\xBB\xBF".to_vec();
    body.extend_from_slice(envelope(GOOD).as_bytes());
    let q = call_with(http(200, "text/xml; charset=utf-8", &body))
        .await
        .unwrap();
    assert_eq!(q.symbol, "ACME");
}

#[test]
fn invalid_endpoint_is_refused_when_the_client_is_built() {
    for bad in ["not a url", ""] {
        let e = QuotesClient::new(bad).unwrap_err();
        assert!(e.to_string().contains("invalid endpoint URL"), "{e}");
    }
}
