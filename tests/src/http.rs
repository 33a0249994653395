//! Raw HTTP/1.1 to a peer, with no soapgen code in the loop: for the tests that check what a
//! peer itself sends ([`post`]) before soapgen is judged by it, and for fixtures posted as they
//! are.
//!
//! ```no_run
//! let peer = soapgen_tests::peers::gsoap();
//! let resp = soapgen_tests::http::post(
//!     &peer,
//!     "/soap11",
//!     &[("Content-Type", "text/xml; charset=utf-8"), ("SOAPAction", "\"urn:x#echo\"")],
//!     b"<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"/>",
//! );
//! assert_eq!(resp.status, 500);
//! println!("{} {}", resp.content_type(), resp.text());
//! ```

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::peers::Peer;

/// How long [`post`] waits for the peer to accept or send a byte.
const IO_TIMEOUT: Duration = Duration::from_secs(60);

/// An HTTP response as received: the status code, the header fields in order, the body (with
/// chunked transfer coding removed).
#[derive(Debug, Clone)]
pub struct RawResponse {
    /// The status code.
    pub status: u16,
    /// The header fields, names as sent.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl RawResponse {
    /// The first header field named `name` (ASCII case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The Content-Type (empty without one).
    pub fn content_type(&self) -> &str {
        self.header("Content-Type").unwrap_or("")
    }

    /// The body as UTF-8. Panics if it is not.
    pub fn text(&self) -> &str {
        std::str::from_utf8(&self.body).expect("UTF-8 response body")
    }
}

/// POSTs `body` to `path` on `peer` over one HTTP/1.1 connection (`Connection: close`) with the
/// header fields `headers` (Host and Content-Length are added), and reads the response: its body
/// by Content-Length, chunked transfer coding, or to the end of the connection. Panics with the
/// peer's stderr when the exchange fails or the answer is not HTTP.
pub fn post(peer: &Peer, path: &str, headers: &[(&str, &str)], body: &[u8]) -> RawResponse {
    let fail = |what: String| -> ! {
        panic!(
            "{} peer, POST {path}: {what}\n--- peer stderr ---\n{}",
            peer.name(),
            peer.stderr_output()
        )
    };
    let stream = TcpStream::connect(peer.addr())
        .unwrap_or_else(|e| fail(format!("connect to {}: {e}", peer.addr())));
    stream.set_read_timeout(Some(IO_TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(IO_TIMEOUT)).unwrap();
    let mut head = format!("POST {path} HTTP/1.1\r\nHost: {}\r\n", peer.addr());
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str(&format!(
        "Content-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    ));
    (&stream)
        .write_all(head.as_bytes())
        .and_then(|()| (&stream).write_all(body))
        .unwrap_or_else(|e| fail(format!("writing the request: {e}")));

    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .unwrap_or_else(|e| fail(format!("reading the status line: {e}")));
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .unwrap_or_else(|| fail(format!("bad status line {line:?}")));
    let mut fields = Vec::new();
    loop {
        line.clear();
        reader
            .read_line(&mut line)
            .unwrap_or_else(|e| fail(format!("reading headers: {e}")));
        let l = line.trim_end_matches(['\r', '\n']);
        if l.is_empty() {
            break;
        }
        let (k, v) = l
            .split_once(':')
            .unwrap_or_else(|| fail(format!("bad header line {l:?}")));
        fields.push((k.trim().to_string(), v.trim().to_string()));
    }
    let mut resp = RawResponse {
        status,
        headers: fields,
        body: Vec::new(),
    };
    let chunked = resp
        .header("Transfer-Encoding")
        .is_some_and(|v| v.eq_ignore_ascii_case("chunked"));
    if let Some(len) = resp.header("Content-Length").filter(|_| !chunked) {
        let len: usize = len
            .parse()
            .unwrap_or_else(|_| fail(format!("bad Content-Length {len:?}")));
        resp.body = vec![0; len];
        reader
            .read_exact(&mut resp.body)
            .unwrap_or_else(|e| fail(format!("reading {len} body bytes: {e}")));
    } else if chunked {
        loop {
            line.clear();
            reader
                .read_line(&mut line)
                .unwrap_or_else(|e| fail(format!("reading a chunk size: {e}")));
            let size = line.trim().split(';').next().unwrap_or("");
            let size = usize::from_str_radix(size, 16)
                .unwrap_or_else(|_| fail(format!("bad chunk size {line:?}")));
            if size == 0 {
                break;
            }
            let at = resp.body.len();
            resp.body.resize(at + size + 2, 0);
            reader
                .read_exact(&mut resp.body[at..])
                .unwrap_or_else(|e| fail(format!("reading a chunk of {size} bytes: {e}")));
            resp.body.truncate(at + size);
        }
    } else {
        reader
            .read_to_end(&mut resp.body)
            .unwrap_or_else(|e| fail(format!("reading the body: {e}")));
    }
    resp
}
