//! Documents that are not XML, or not what was asked for: malformed XML, the wrong Body element,
//! an invalid value (named by its path), a DOCTYPE (refused outright) and entity bombs, which end
//! fast with that error.

use std::time::{Duration, Instant};

use soapgen_runtime::envelope::read_response;
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::xml::Limits;
use soapgen_runtime::Error;
use soapgen_tests::canned::http;

use super::{call, envelope, kind, limited, wrap, GOOD};

#[tokio::test]
async fn malformed_xml() {
    let body = envelope("<q:get_quoteResponse><q:Quote></q:get_quoteResponse>");
    let e = call(http(200, "text/xml", body.as_bytes()))
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
    let e = call(http(200, "text/xml", body.as_bytes()))
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
    let e = call(http(200, "text/xml", body.as_bytes()))
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with(r#"Body/get_quoteResponse/Quote/price: invalid decimal "1,5""#),
        "{e}"
    );
}

#[tokio::test]
async fn doctype_is_refused() {
    let evil = format!(
        r#"<?xml version="1.0"?><!DOCTYPE s:Envelope [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>{}"#,
        envelope(&GOOD.replace("ACME", "&b;"))
    );
    let e = call(http(200, "text/xml", evil.as_bytes()))
        .await
        .unwrap_err();
    assert!(
        matches!(&e, Error::Xml(d) if d.kind == DecodeErrorKind::DocType),
        "{e}"
    );
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
