//! Smoke test of the real peers: start each one and POST a hand-written
//! SOAP 1.1 request over a raw `TcpStream` (HTTP/1.1, `Connection: close`).
//! A missing peer makes these tests fail (the harness panics), never skip.

use std::net::TcpStream;

use soapgen_tests::http::{post, RawResponse};
use soapgen_tests::peers::{self, Peer};

/// POSTs a SOAP 1.1 `envelope` with `soap_action` to `path` on `peer`.
fn post_soap11(peer: &Peer, path: &str, soap_action: &str, envelope: &str) -> RawResponse {
    let action = format!("\"{soap_action}\"");
    post(
        peer,
        path,
        &[
            ("Content-Type", "text/xml; charset=utf-8"),
            ("SOAPAction", &action),
        ],
        envelope.as_bytes(),
    )
}

#[test]
fn spyne_say_hello_soap11() {
    let peer = peers::spyne();
    assert!(peer.url("/soap11").starts_with("http://127.0.0.1:"));
    assert!(peer.url("/soap11").ends_with("/soap11"));
    let envelope = r#"<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:tns="urn:soapgen:test">
  <soapenv:Body>
    <tns:say_hello>
      <tns:name>Smoke ✓</tns:name>
      <tns:times>2</tns:times>
    </tns:say_hello>
  </soapenv:Body>
</soapenv:Envelope>"#;
    let resp = post_soap11(&peer, "/soap11", "say_hello", envelope);
    assert!(
        resp.status == 200,
        "status {:?}\n{}",
        resp.status,
        resp.text()
    );
    assert_eq!(resp.header("Content-Type"), Some("text/xml; charset=utf-8"));
    assert!(
        resp.text()
            .contains("http://schemas.xmlsoap.org/soap/envelope/"),
        "{}",
        resp.text()
    );
    assert!(resp.text().contains("say_helloResponse"), "{}", resp.text());
    assert_eq!(
        resp.text().matches("Hello, Smoke ✓").count(),
        2,
        "{}",
        resp.text()
    );
}

#[test]
fn gsoap_echo_soap11() {
    let peer = peers::gsoap();
    let envelope = r#"<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:g="urn:soapgen:gsoap">
  <soapenv:Body>
    <g:echo>
      <g:text>smoke &amp; mirrors ✓</g:text>
    </g:echo>
  </soapenv:Body>
</soapenv:Envelope>"#;
    let resp = post_soap11(&peer, "/soap11", "urn:soapgen:gsoap#echo", envelope);
    assert!(
        resp.status == 200,
        "status {:?}\n{}",
        resp.status,
        resp.text()
    );
    assert_eq!(resp.header("Content-Type"), Some("text/xml; charset=utf-8"));
    assert!(
        resp.text()
            .contains("http://schemas.xmlsoap.org/soap/envelope/"),
        "{}",
        resp.text()
    );
    assert!(resp.text().contains("echoResponse"), "{}", resp.text());
    assert!(
        resp.text().contains("smoke &amp; mirrors ✓"),
        "{}",
        resp.text()
    );
}

#[test]
fn gsoap_fault_soap11() {
    let peer = peers::gsoap();
    let envelope = r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:g="urn:soapgen:gsoap"><soapenv:Body><g:fail><g:reason>nope</g:reason></g:fail></soapenv:Body></soapenv:Envelope>"#;
    let resp = post_soap11(&peer, "/soap11", "urn:soapgen:gsoap#fail", envelope);
    assert!(
        resp.status == 500,
        "status {:?}\n{}",
        resp.status,
        resp.text()
    );
    assert!(
        resp.text()
            .contains("<faultstring>failed: nope</faultstring>"),
        "{}",
        resp.text()
    );
    assert!(
        resp.text().contains("<g:code>42</g:code>"),
        "{}",
        resp.text()
    );
}

#[test]
fn peer_is_killed_on_drop() {
    let peer = peers::spyne();
    let pid = peer.pid();
    let addr = peer.addr();
    drop(peer);
    // Reaped by Drop: /proc/<pid> is gone and nothing listens on the port.
    if std::path::Path::new("/proc/self").exists() {
        assert!(
            !std::path::Path::new(&format!("/proc/{pid}")).exists(),
            "pid {pid} still exists"
        );
    }
    assert!(
        TcpStream::connect(&addr).is_err(),
        "{addr} still accepts connections"
    );
}

#[test]
fn globalweather_get_weather_soap11() {
    let peer = peers::globalweather();
    assert_eq!(peer.name(), "globalweather");
    // As an .asmx client would send it: default namespace on the wrapper.
    let envelope = r#"<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <GetWeather xmlns="http://www.webserviceX.NET">
      <CityName>Sydney</CityName>
    </GetWeather>
  </soap:Body>
</soap:Envelope>"#;
    let resp = post_soap11(
        &peer,
        "/globalweather.asmx",
        "http://www.webserviceX.NET/GetWeather",
        envelope,
    );
    assert!(
        resp.status == 200,
        "status {:?}\n{}\nstderr:\n{}",
        resp.status,
        resp.text(),
        peer.stderr_output()
    );
    assert_eq!(resp.header("Content-Type"), Some("text/xml; charset=utf-8"));
    let body = resp.text();
    assert!(
        body.contains(r#"xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/""#),
        "{body}"
    );
    assert!(
        body.contains(r#"xmlns:gw="http://www.webserviceX.NET""#),
        "{body}"
    );
    // GetWeatherResult is the CurrentWeather document as an escaped string,
    // with the original service's utf-16 declaration; StatusCode follows.
    let result = body
        .split_once("<gw:GetWeatherResponse><gw:GetWeatherResult>")
        .and_then(|(_, rest)| rest.split_once("</gw:GetWeatherResult>"))
        .map(|(result, _)| result)
        .unwrap_or_else(|| panic!("no gw:GetWeatherResult in {body}"));
    assert!(
        result.starts_with(
            "&lt;?xml version=\"1.0\" encoding=\"utf-16\"?&gt;\n&lt;CurrentWeather&gt;\n"
        ),
        "{result}"
    );
    for needle in [
        "&lt;Location&gt;Sydney Airport, Australia (YSSY) 33-57S 151-11E 3M&lt;/Location&gt;",
        "&lt;Time&gt;Mar 14, 2017 - 07:00 PM EDT / 2017.03.14 2300 UTC&lt;/Time&gt;",
        "&lt;Wind&gt; from the SSE (160 degrees) at 9 MPH (8 KT):0&lt;/Wind&gt;",
        "&lt;Visibility&gt; greater than 7 mile(s):0&lt;/Visibility&gt;",
        "&lt;Temperature&gt; 71 F (22 C)&lt;/Temperature&gt;",
        "&lt;RelativeHumidity&gt; 73%&lt;/RelativeHumidity&gt;",
        "&lt;Pressure&gt; 29.97 in. Hg (1015 hPa)&lt;/Pressure&gt;",
        "&lt;Status&gt;Success&lt;/Status&gt;",
    ] {
        assert!(result.contains(needle), "missing {needle} in {result}");
    }
    assert!(result.ends_with("&lt;/CurrentWeather&gt;"), "{result}");
    assert!(
        body.contains(
            "</gw:GetWeatherResult><gw:StatusCode>200</gw:StatusCode></gw:GetWeatherResponse>"
        ),
        "{body}"
    );

    // Unknown city: "Data Not Found", like the original service.
    let unknown = envelope.replace("Sydney", "Atlantis");
    let resp = post_soap11(
        &peer,
        "/globalweather.asmx",
        "http://www.webserviceX.NET/GetWeather",
        &unknown,
    );
    assert!(resp.status == 200, "{}", resp.text());
    assert!(
        resp.text().contains(
            "<gw:GetWeatherResponse><gw:GetWeatherResult>Data Not Found</gw:GetWeatherResult>\
             <gw:StatusCode>404</gw:StatusCode></gw:GetWeatherResponse>"
        ),
        "{}",
        resp.text()
    );
}
