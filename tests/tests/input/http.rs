//! What HTTP brings around the envelope: status codes, HTML error pages, empty bodies, faults with
//! 200 and 500, refused connections and endpoints, basic auth, extra headers, cookies and gzip.

use soapgen_runtime::{Client, Error};
use soapgen_tests::canned::{http, refused_url, serve, Behaviour};

use super::{call, envelope, Quotes12Client, QuotesClient, ENV11, GOOD};

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
        Some("12.5".parse::<soapgen_runtime::types::Decimal>().unwrap())
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
async fn empty_200() {
    let e = call(http(200, "text/xml", b"")).await.unwrap_err();
    assert!(matches!(&e, Error::Http { status: 200, .. }), "{e}");
    assert!(e.to_string().contains("empty body"), "{e}");
}

#[tokio::test]
async fn fault_with_200_and_500() {
    let fault = envelope(
        "<s:Fault><faultcode>s:Server</faultcode><faultstring>boom</faultstring></s:Fault>",
    );
    for status in [200, 500] {
        let e = call(http(status, "text/xml", fault.as_bytes()))
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
        let e = call(http(status, "text/html; charset=utf-8", page))
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
    let e = call(http(404, "text/xml", b"<error>not found</error>"))
        .await
        .unwrap_err();
    assert_eq!(e.status(), Some(404));
    assert!(matches!(e, Error::Http { .. }));
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
    let q = call(resp).await.unwrap();
    assert_eq!(q.symbol, "ACME");
}

#[test]
fn invalid_endpoint_is_refused_when_the_client_is_built() {
    for bad in ["not a url", ""] {
        let e = QuotesClient::new(bad).unwrap_err();
        assert!(e.to_string().contains("invalid endpoint URL"), "{e}");
    }
}
