//! Smoke test of the real peers: start each one and POST a hand-written
//! SOAP 1.1 request over a raw `TcpStream` (HTTP/1.1, `Connection: close`).
//! A missing peer makes these tests fail (the harness panics), never skip.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use soapgen_tests::peers::{self, Peer};

struct Response {
    status_line: String,
    headers: String,
    body: String,
}

fn post_soap11(peer: &Peer, path: &str, soap_action: &str, envelope: &str) -> Response {
    let mut stream = TcpStream::connect(peer.addr())
        .unwrap_or_else(|e| panic!("connect to {} peer at {}: {e}", peer.name(), peer.addr()));
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    stream
        .set_write_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let request = format!(
        "POST {path} HTTP/1.1\r\n\
         Host: {addr}\r\n\
         Content-Type: text/xml; charset=utf-8\r\n\
         SOAPAction: \"{soap_action}\"\r\n\
         Content-Length: {len}\r\n\
         Connection: close\r\n\
         \r\n\
         {envelope}",
        addr = peer.addr(),
        len = envelope.len(),
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap_or_else(|e| {
        panic!(
            "reading {} response: {e}\nstderr:\n{}",
            peer.name(),
            peer.stderr_output()
        )
    });
    let raw = String::from_utf8(raw).expect("UTF-8 response");
    let (head, body) = raw
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no header/body separator in response: {raw:?}"));
    let (status_line, headers) = head.split_once("\r\n").unwrap_or((head, ""));
    Response {
        status_line: status_line.to_string(),
        headers: headers.to_string(),
        body: body.to_string(),
    }
}

fn header<'a>(resp: &'a Response, name: &str) -> Option<&'a str> {
    resp.headers.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
    })
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
        resp.status_line.contains(" 200 "),
        "status {:?}\n{}",
        resp.status_line,
        resp.body
    );
    assert_eq!(
        header(&resp, "Content-Type"),
        Some("text/xml; charset=utf-8")
    );
    assert!(
        resp.body
            .contains("http://schemas.xmlsoap.org/soap/envelope/"),
        "{}",
        resp.body
    );
    assert!(resp.body.contains("say_helloResponse"), "{}", resp.body);
    assert_eq!(
        resp.body.matches("Hello, Smoke ✓").count(),
        2,
        "{}",
        resp.body
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
        resp.status_line.contains(" 200 "),
        "status {:?}\n{}",
        resp.status_line,
        resp.body
    );
    assert_eq!(
        header(&resp, "Content-Type"),
        Some("text/xml; charset=utf-8")
    );
    assert!(
        resp.body
            .contains("http://schemas.xmlsoap.org/soap/envelope/"),
        "{}",
        resp.body
    );
    assert!(resp.body.contains("echoResponse"), "{}", resp.body);
    assert!(resp.body.contains("smoke &amp; mirrors ✓"), "{}", resp.body);
}

#[test]
fn gsoap_fault_soap11() {
    let peer = peers::gsoap();
    let envelope = r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:g="urn:soapgen:gsoap"><soapenv:Body><g:fail><g:reason>nope</g:reason></g:fail></soapenv:Body></soapenv:Envelope>"#;
    let resp = post_soap11(&peer, "/soap11", "urn:soapgen:gsoap#fail", envelope);
    assert!(
        resp.status_line.contains(" 500 "),
        "status {:?}\n{}",
        resp.status_line,
        resp.body
    );
    assert!(
        resp.body
            .contains("<faultstring>failed: nope</faultstring>"),
        "{}",
        resp.body
    );
    assert!(resp.body.contains("<g:code>42</g:code>"), "{}", resp.body);
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
        resp.status_line.contains(" 200 "),
        "status {:?}\n{}\nstderr:\n{}",
        resp.status_line,
        resp.body,
        peer.stderr_output()
    );
    assert_eq!(
        header(&resp, "Content-Type"),
        Some("text/xml; charset=utf-8")
    );
    let body = &resp.body;
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
    assert!(resp.status_line.contains(" 200 "), "{}", resp.body);
    assert!(
        resp.body.contains(
            "<gw:GetWeatherResponse><gw:GetWeatherResult>Data Not Found</gw:GetWeatherResult>\
             <gw:StatusCode>404</gw:StatusCode></gw:GetWeatherResponse>"
        ),
        "{}",
        resp.body
    );
}
