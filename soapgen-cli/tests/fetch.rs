//! `soapgen fetch` against a loopback HTTP server serving a WSDL tree: nested relative and absolute
//! imports, an include cycle, query-string URLs (`/service/?wsdl`, `?xsd=extra`), a reserved device
//! name (`con.service?wsdl`), two documents named `types.xsd`, a bundled standard schema; then
//! `generate` and `inspect` on the copy with the server stopped. And the failures: a 404 import, a
//! 404 entry, HTML instead of XML, credentials, a timeout, a non-HTTP import.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use clap::Parser;
use soapgen_cli::{run, Cli};

fn cli(args: &[&str]) -> Result<String, soapgen_build::Errors> {
    let mut all = vec!["soapgen"];
    all.extend_from_slice(args);
    run(Cli::parse_from(all))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("soapgen-fetch-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

// ------------------------------------------------------------------------------------------------
// The server.

/// One request as the server saw it.
#[derive(Debug, Clone)]
struct Seen {
    host: String,
    target: String,
    authorization: Option<String>,
}

/// A loopback HTTP/1.1 server on 127.0.0.1:0 answering GETs from `documents` (keyed by path and
/// query, `{BASE}` in a body replaced by `http://127.0.0.1:<port>`), one connection at a time.
struct Server {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

const PROTECTED: &str = "/secure/?wsdl";
/// `user:pw` in base64 (RFC 7617).
const GOOD_AUTH: &str = "Basic dXNlcjpwdw==";

impl Server {
    fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let base = format!("http://127.0.0.1:{}", addr.port());
        let docs: BTreeMap<&'static str, String> = documents()
            .into_iter()
            .map(|(k, v)| {
                (
                    k,
                    v.replace("{BASE}", &base)
                        .replace("{PORT}", &addr.port().to_string()),
                )
            })
            .collect();
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (stop2, seen2) = (stop.clone(), seen.clone());
        let thread = std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(stream) = conn {
                    serve(stream, &docs, &seen2);
                }
            }
        });
        Server {
            addr,
            stop,
            thread: Some(thread),
            seen,
        }
    }

    fn url(&self, target: &str) -> String {
        format!("http://127.0.0.1:{}{target}", self.addr.port())
    }

    fn base(&self) -> String {
        self.url("")
    }

    /// Stops accepting and waits for the thread: the port is closed afterwards.
    fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr);
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

fn serve(mut stream: TcpStream, docs: &BTreeMap<&str, String>, seen: &Mutex<Vec<Seen>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
    let mut request = Vec::new();
    let mut buf = [0u8; 4096];
    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => request.extend_from_slice(&buf[..n]),
        }
    }
    let text = String::from_utf8_lossy(&request).into_owned();
    let mut lines = text.lines();
    let target = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .unwrap_or("/")
        .to_owned();
    let header = |name: &str| {
        text.lines().find_map(|l| {
            let (n, v) = l.split_once(':')?;
            n.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
        })
    };
    let authorization = header("authorization");
    seen.lock().unwrap().push(Seen {
        host: header("host").unwrap_or_default(),
        target: target.clone(),
        authorization: authorization.clone(),
    });
    let (status, content_type, body, extra) = if target == "/slow?wsdl" {
        std::thread::sleep(Duration::from_secs(3));
        ("200 OK", "text/xml", "<x/>".to_owned(), String::new())
    } else if target == "/moved?wsdl" {
        (
            "301 Moved Permanently",
            "text/plain",
            String::new(),
            "Location: /service/?wsdl\r\n".to_owned(),
        )
    } else if target == PROTECTED && authorization.as_deref() != Some(GOOD_AUTH) {
        (
            "401 Unauthorized",
            "text/plain",
            "who are you?".to_owned(),
            "WWW-Authenticate: Basic realm=\"metadata\"\r\n".to_owned(),
        )
    } else {
        match docs.get(target.as_str()) {
            Some(body) if body.starts_with("<html") => {
                ("200 OK", "text/html", body.clone(), String::new())
            }
            Some(body) => (
                "200 OK",
                "text/xml; charset=utf-8",
                body.clone(),
                String::new(),
            ),
            None => (
                "404 Not Found",
                "text/plain",
                "no such document".to_owned(),
                String::new(),
            ),
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{extra}Connection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body.as_bytes());
}

// ------------------------------------------------------------------------------------------------
// The documents.

const ENTRY: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema"
    xmlns:tns="urn:example:orders"
    targetNamespace="urn:example:orders">
  <!-- The interface is in another document, at a URL whose name is a Windows device name. -->
  <wsdl:import namespace="urn:example:orders" location="con.service?wsdl"/>
  <wsdl:types>
    <xs:schema targetNamespace="urn:example:orders" elementFormDefault="qualified"
        xmlns:c="urn:example:common" xmlns:x="urn:example:extra">
      <xs:import namespace="urn:example:common" schemaLocation="../schemas/a.xsd"/>
      <xs:import namespace="urn:example:extra" schemaLocation="?xsd=extra"/>
      <xs:import namespace="http://www.w3.org/XML/1998/namespace"
          schemaLocation="http://www.w3.org/2001/xml.xsd"/>
      <xs:element name="PlaceOrder">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="item" type="c:Item" maxOccurs="unbounded"/>
            <xs:element name="note" type="x:Note" minOccurs="0"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
      <xs:element name="PlaceOrderResponse">
        <xs:complexType>
          <xs:sequence>
            <xs:element name="orderId" type="xs:long"/>
          </xs:sequence>
        </xs:complexType>
      </xs:element>
    </xs:schema>
  </wsdl:types>
  <wsdl:binding name="OrdersSoap" type="tns:OrdersPort">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http" style="document"/>
    <wsdl:operation name="PlaceOrder">
      <soap:operation soapAction="urn:example:orders/PlaceOrder"/>
      <wsdl:input><soap:body use="literal"/></wsdl:input>
      <wsdl:output><soap:body use="literal"/></wsdl:output>
    </wsdl:operation>
  </wsdl:binding>
  <wsdl:service name="Orders">
    <wsdl:port name="OrdersSoap" binding="tns:OrdersSoap">
      <soap:address location="{BASE}/service/"/>
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>
"#;

const INTERFACE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:tns="urn:example:orders" targetNamespace="urn:example:orders">
  <wsdl:message name="PlaceOrderIn"><wsdl:part name="parameters" element="tns:PlaceOrder"/></wsdl:message>
  <wsdl:message name="PlaceOrderOut"><wsdl:part name="parameters" element="tns:PlaceOrderResponse"/></wsdl:message>
  <wsdl:portType name="OrdersPort">
    <wsdl:operation name="PlaceOrder">
      <wsdl:input message="tns:PlaceOrderIn"/>
      <wsdl:output message="tns:PlaceOrderOut"/>
    </wsdl:operation>
  </wsdl:portType>
</wsdl:definitions>
"#;

/// Includes b.xsd, which includes a.xsd back; imports units by absolute URL.
const A_XSD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:u="urn:example:units"
    targetNamespace="urn:example:common" elementFormDefault="qualified">
  <xs:include schemaLocation="b.xsd"/>
  <xs:import namespace="urn:example:units" schemaLocation="{BASE}/common/units/units.xsd"/>
  <xs:simpleType name="Sku">
    <xs:restriction base="xs:string"><xs:pattern value="[A-Z]{3}-[0-9]+"/></xs:restriction>
  </xs:simpleType>
</xs:schema>
"#;

const B_XSD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    targetNamespace="urn:example:common" elementFormDefault="qualified">
  <xs:include schemaLocation="a.xsd"/>
  <xs:include schemaLocation="types.xsd"/>
</xs:schema>
"#;

/// `/schemas/types.xsd`: one of two documents named types.xsd.
const COMMON_TYPES_XSD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:c="urn:example:common"
    xmlns:u="urn:example:units"
    targetNamespace="urn:example:common" elementFormDefault="qualified">
  <xs:complexType name="Item">
    <xs:sequence>
      <xs:element name="sku" type="c:Sku"/>
      <xs:element name="quantity" type="u:Quantity"/>
    </xs:sequence>
  </xs:complexType>
</xs:schema>
"#;

const UNITS_XSD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    targetNamespace="urn:example:units" elementFormDefault="qualified">
  <xs:include schemaLocation="sub/types.xsd"/>
</xs:schema>
"#;

/// `/common/units/sub/types.xsd`: a chameleon include (no targetNamespace), the other types.xsd.
const UNITS_TYPES_XSD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" elementFormDefault="qualified">
  <xs:simpleType name="Quantity">
    <xs:restriction base="xs:positiveInteger"/>
  </xs:simpleType>
</xs:schema>
"#;

const EXTRA_XSD: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"
    targetNamespace="urn:example:extra" elementFormDefault="qualified">
  <xs:complexType name="Note">
    <xs:simpleContent>
      <xs:extension base="xs:string">
        <xs:attribute name="lang" type="xs:language"/>
      </xs:extension>
    </xs:simpleContent>
  </xs:complexType>
</xs:schema>
"#;

const BROKEN: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:broken">
  <wsdl:types>
    <xs:schema targetNamespace="urn:broken">
      <xs:import namespace="urn:present" schemaLocation="present.xsd"/>
      <xs:import namespace="urn:missing" schemaLocation="missing.xsd"/>
    </xs:schema>
  </wsdl:types>
</wsdl:definitions>
"#;

const PRESENT: &str =
    r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:present"/>"#;

const FTP_IMPORT: &str = r#"<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:ftp">
  <xs:import namespace="urn:elsewhere" schemaLocation="ftp://files.example/x.xsd"/>
</xs:schema>
"#;

/// Protected; imports a schema from another origin (localhost, not 127.0.0.1).
const SECURE: &str = r#"<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:secure">
  <xs:import namespace="urn:present" schemaLocation="http://localhost:{PORT}/broken/present.xsd"/>
  <xs:include schemaLocation="part.xsd"/>
</xs:schema>
"#;

const SECURE_PART: &str =
    r#"<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:secure"/>"#;

fn documents() -> Vec<(&'static str, String)> {
    vec![
        ("/service/?wsdl", ENTRY.to_owned()),
        ("/service/con.service?wsdl", INTERFACE.to_owned()),
        ("/schemas/a.xsd", A_XSD.to_owned()),
        ("/schemas/b.xsd", B_XSD.to_owned()),
        ("/schemas/types.xsd", COMMON_TYPES_XSD.to_owned()),
        ("/common/units/units.xsd", UNITS_XSD.to_owned()),
        ("/common/units/sub/types.xsd", UNITS_TYPES_XSD.to_owned()),
        ("/service/?xsd=extra", EXTRA_XSD.to_owned()),
        ("/broken/?wsdl", BROKEN.to_owned()),
        ("/broken/present.xsd", PRESENT.to_owned()),
        ("/ftp.xsd", FTP_IMPORT.to_owned()),
        (
            "/html?wsdl",
            "<html><body>Please log in<br></body></html>".to_owned(),
        ),
        (PROTECTED, SECURE.to_owned()),
        ("/secure/part.xsd", SECURE_PART.to_owned()),
    ]
}

fn line_of(doc: &str, needle: &str) -> usize {
    doc.lines().position(|l| l.contains(needle)).unwrap() + 1
}

fn catalog_lines(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("soapgen.catalog"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

// ------------------------------------------------------------------------------------------------
// Tests.

#[test]
fn fetch_then_generate_offline() {
    let mut server = Server::start();
    let base = server.base();
    let dir = temp_dir("tree");
    let out = cli(&[
        "fetch",
        &server.url("/service/?wsdl"),
        "-o",
        dir.to_str().unwrap(),
    ])
    .unwrap();
    assert!(out.starts_with("fetched 8 documents into"), "{out}");
    assert!(
        out.contains("not downloaded, bundled with soapgen:\n  http://www.w3.org/2001/xml.xsd"),
        "{out}"
    );

    // Each document once (the include cycle ends), under a short portable name, in the order found.
    assert_eq!(
        catalog_lines(&dir),
        [
            format!("{base}/service/?wsdl=service.wsdl"),
            format!("{base}/service/con.service?wsdl=con_.service.wsdl"),
            format!("{base}/schemas/a.xsd=a.xsd"),
            format!("{base}/service/?xsd=extra=service-xsd-extra.xsd"),
            format!("{base}/schemas/b.xsd=b.xsd"),
            format!("{base}/common/units/units.xsd=units.xsd"),
            format!("{base}/schemas/types.xsd=types.xsd"),
            format!("{base}/common/units/sub/types.xsd=sub-types.xsd"),
        ]
    );
    // Stored byte for byte: nothing rewritten.
    assert_eq!(
        std::fs::read_to_string(dir.join("a.xsd")).unwrap(),
        A_XSD.replace("{BASE}", &base)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("service.wsdl")).unwrap(),
        ENTRY.replace("{BASE}", &base)
    );
    let requested: Vec<String> = server
        .seen
        .lock()
        .unwrap()
        .iter()
        .map(|s| s.target.clone())
        .collect();
    assert_eq!(requested.len(), 8, "{requested:?}");

    // Offline: the server is gone.
    server.stop();
    assert!(
        TcpStream::connect(server.addr).is_err(),
        "the server still answers"
    );

    let krate = temp_dir("tree-crate");
    let entry = dir.join("service.wsdl");
    let generated = cli(&[
        "generate",
        entry.to_str().unwrap(),
        "-o",
        krate.to_str().unwrap(),
    ])
    .unwrap();
    assert!(generated.contains("wrote crate service"), "{generated}");
    let lib = std::fs::read_to_string(krate.join("src/lib.rs")).unwrap();
    for needle in [
        "pub struct Item",   // from types.xsd, included by b.xsd, included by a.xsd
        "pub type Quantity", // from sub/types.xsd (chameleon), by absolute URL then relative
        "pub struct Note",   // from ?xsd=extra
        "pub type Sku",      // from a.xsd, despite the cycle
        "fn place_order",    // the portType from con.service?wsdl
        "urn:example:units",
    ] {
        assert!(
            lib.contains(needle),
            "missing {needle:?} in the generated code"
        );
    }

    // inspect reads the catalog beside the WSDL too, and shows a sample request.
    let sample = cli(&[
        "inspect",
        entry.to_str().unwrap(),
        "--operation",
        "PlaceOrder",
    ])
    .unwrap();
    for needle in [
        "SOAPAction: \"urn:example:orders/PlaceOrder\"",
        "xmlns:tns=\"urn:example:orders\"",
        "<!-- 0 or more -->",
        "<ns1:sku xmlns:ns1=\"urn:example:common\">string</ns1:sku>",
        "<ns2:quantity xmlns:ns2=\"urn:example:common\">0</ns2:quantity>",
        "<!-- optional -->",
        "<tns:note lang=\"string\">string</tns:note>",
    ] {
        assert!(sample.contains(needle), "missing {needle:?} in:\n{sample}");
    }

    // An explicit --catalog-file works the same.
    let again = cli(&[
        "inspect",
        entry.to_str().unwrap(),
        "--catalog-file",
        dir.join("soapgen.catalog").to_str().unwrap(),
    ])
    .unwrap();
    assert!(again.contains("async fn place_order"), "{again}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&krate);
}

#[test]
fn a_redirected_entry_resolves_against_its_final_url() {
    let mut server = Server::start();
    let base = server.base();
    let dir = temp_dir("moved");
    cli(&[
        "fetch",
        &server.url("/moved?wsdl"),
        "-o",
        dir.to_str().unwrap(),
        "--quiet",
    ])
    .unwrap();
    let lines = catalog_lines(&dir);
    assert_eq!(lines[0], format!("{base}/moved?wsdl=moved.wsdl"));
    assert_eq!(lines[1], format!("{base}/service/?wsdl=moved.wsdl"));
    assert!(
        lines.contains(&format!("{base}/schemas/a.xsd=a.xsd")),
        "{lines:?}"
    );
    server.stop();
    let out = cli(&["inspect", dir.join("moved.wsdl").to_str().unwrap()]).unwrap();
    assert!(out.contains("async fn place_order"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_import_names_it_and_its_importer_and_writes_nothing() {
    let server = Server::start();
    let dir = temp_dir("broken");
    let e = cli(&[
        "fetch",
        &server.url("/broken/?wsdl"),
        "-o",
        dir.to_str().unwrap(),
    ])
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        format!(
            "GET {} failed: 404 Not Found (imported by {} at line {})",
            server.url("/broken/missing.xsd"),
            server.url("/broken/?wsdl"),
            line_of(BROKEN, "missing.xsd")
        )
    );
    assert!(!dir.exists(), "something was written");
}

#[test]
fn a_missing_entry_is_a_plain_404() {
    let server = Server::start();
    let dir = temp_dir("nope");
    let e = cli(&[
        "fetch",
        &server.url("/nope?wsdl"),
        "-o",
        dir.to_str().unwrap(),
    ])
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        format!("GET {} failed: 404 Not Found", server.url("/nope?wsdl"))
    );
}

#[test]
fn html_instead_of_a_wsdl_is_named() {
    let server = Server::start();
    let e = cli(&[
        "fetch",
        &server.url("/html?wsdl"),
        "-o",
        temp_dir("html").to_str().unwrap(),
    ])
    .unwrap_err()
    .to_string();
    assert!(
        e.starts_with(&format!(
            "{}: not well-formed XML",
            server.url("/html?wsdl")
        )),
        "{e}"
    );
    assert!(e.contains("<html><body>Please log in"), "{e}");
}

#[test]
fn a_non_http_import_is_refused_with_its_importer() {
    let server = Server::start();
    let e = cli(&[
        "fetch",
        &server.url("/ftp.xsd"),
        "-o",
        temp_dir("ftp").to_str().unwrap(),
    ])
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        format!(
            "cannot fetch \"ftp://files.example/x.xsd\": only http and https URLs are fetched, not ftp: (imported by {} at line {})",
            server.url("/ftp.xsd"),
            line_of(FTP_IMPORT, "ftp://")
        )
    );
}

#[test]
fn basic_auth_goes_to_the_entry_origin_only() {
    let server = Server::start();
    let url = server.url(PROTECTED);
    let dir = temp_dir("secure");
    let e = cli(&["fetch", &url, "-o", dir.to_str().unwrap()])
        .unwrap_err()
        .to_string();
    assert_eq!(
        e,
        format!("GET {url} failed: 401 Unauthorized; the server wants credentials: give --user and --password (with --digest or --ntlm where it asks for those), or --negotiate for Kerberos")
    );
    let e = cli(&[
        "fetch",
        &url,
        "-o",
        dir.to_str().unwrap(),
        "--user",
        "user",
        "--password",
        "wrong",
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("401 Unauthorized"), "{e}");

    let out = cli(&[
        "fetch",
        &url,
        "-o",
        dir.to_str().unwrap(),
        "--user",
        "user",
        "--password",
        "pw",
    ])
    .unwrap();
    assert!(out.starts_with("fetched 3 documents"), "{out}");
    let seen = server.seen.lock().unwrap().clone();
    let last_three = &seen[seen.len() - 3..];
    assert_eq!(last_three[0].target, PROTECTED);
    assert_eq!(last_three[0].authorization.as_deref(), Some(GOOD_AUTH));
    // Same origin (127.0.0.1:port): credentials sent. Another origin (localhost:port): not sent.
    for s in &last_three[1..] {
        if s.host.starts_with("localhost") {
            assert_eq!(s.authorization, None, "{s:?}");
        } else {
            assert_eq!(s.authorization.as_deref(), Some(GOOD_AUTH), "{s:?}");
        }
    }
    assert!(
        last_three.iter().any(|s| s.host.starts_with("localhost")),
        "{last_three:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_slow_server_times_out() {
    let server = Server::start();
    let started = std::time::Instant::now();
    let e = cli(&[
        "fetch",
        &server.url("/slow?wsdl"),
        "-o",
        temp_dir("slow").to_str().unwrap(),
        "--timeout",
        "1",
    ])
    .unwrap_err()
    .to_string();
    assert_eq!(
        e,
        format!(
            "GET {} failed: timed out after 1 s",
            server.url("/slow?wsdl")
        )
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn bad_options_are_errors_not_panics() {
    let e = cli(&["fetch", "not a url", "-o", "/tmp/x"])
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("cannot fetch \"not a url\": not a URL"),
        "{e}"
    );
    let e = cli(&["fetch", "file:///etc/passwd", "-o", "/tmp/x"])
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("only http and https URLs are fetched, not file:"),
        "{e}"
    );
    let e = cli(&[
        "fetch",
        "http://127.0.0.1:9/x",
        "-o",
        "/tmp/x",
        "--ca-cert",
        "/nonexistent/ca.pem",
    ])
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("--ca-cert /nonexistent/ca.pem: "), "{e}");
    let not_pem = temp_dir("not-pem");
    std::fs::create_dir_all(&not_pem).unwrap();
    let pem = not_pem.join("ca.pem");
    std::fs::write(&pem, "hello").unwrap();
    let e = cli(&[
        "fetch",
        "http://127.0.0.1:9/x",
        "-o",
        "/tmp/x",
        "--ca-cert",
        pem.to_str().unwrap(),
    ])
    .unwrap_err()
    .to_string();
    assert!(e.contains("no PEM certificate"), "{e}");
    assert!(
        Cli::try_parse_from(["soapgen", "fetch", "http://h/", "-o", "d", "--timeout", "0"])
            .is_err()
    );
    assert!(Cli::try_parse_from([
        "soapgen",
        "fetch",
        "http://h/",
        "-o",
        "d",
        "--timeout",
        "-1"
    ])
    .is_err());
    let _ = std::fs::remove_dir_all(&not_pem);
}

/// A self-signed CA certificate (public part only), to check that --ca-cert and --insecure are
/// accepted alongside a plain-HTTP fetch.
const CA_PEM: &str = "-----BEGIN CERTIFICATE-----
MIIBizCCATGgAwIBAgIUDuugvfUaHpiuyjq4dW8UuHGWNXMwCgYIKoZIzj0EAwIw
GjEYMBYGA1UEAwwPc29hcGdlbiB0ZXN0IENBMCAXDTI2MTEzMDAzMDkxMFoYDzIx
MjYxMTA2MDMwOTEwWjAaMRgwFgYDVQQDDA9zb2FwZ2VuIHRlc3QgQ0EwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAS2LrCaZ7g4xykPXgwr60rEcwRQdj6fHtASvTgT
uwQVDlgqZFJYAD1xpHrkEAzOywcO6/nqrZlXdH4Gqy7t75G0o1MwUTAdBgNVHQ4E
FgQUu5/xXVG6rF048UHji9+ujzuzPbUwHwYDVR0jBBgwFoAUu5/xXVG6rF048UHj
i9+ujzuzPbUwDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiA19vOj
lXVyuPuLFu2PaN6FRjPO60d8PU3ZZjkGRRhJBAIhANGF0qt83MtP4QTBSnBsQDlv
wXua93UrIqcGXlgB4EQY
-----END CERTIFICATE-----
";

#[test]
fn tls_options_are_accepted() {
    let server = Server::start();
    let dir = temp_dir("tls");
    let pem = temp_dir("tls-ca");
    std::fs::create_dir_all(&pem).unwrap();
    let pem = pem.join("ca.pem");
    std::fs::write(&pem, CA_PEM).unwrap();
    let out = cli(&[
        "fetch",
        &server.url("/broken/present.xsd"),
        "-o",
        dir.to_str().unwrap(),
        "--ca-cert",
        pem.to_str().unwrap(),
        "--insecure",
    ])
    .unwrap();
    assert!(out.starts_with("fetched 1 document into"), "{out}");
    assert!(dir.join("present.xsd").is_file());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(pem.parent().unwrap());
}
