//! Smoke test of the binary-data peers, over raw HTTP (std `TcpStream`), with
//! no soapgen code in the loop: the gSOAP MTOM server
//! (`tests/peers/gsoap/mtom/`) and the line-broken base64 server
//! (`tests/peers/linebreak_server.py`).  They check that the peers send what
//! `tests/peers/README.md` promises, so that the runtime's MTOM and base64
//! tests can rely on it.  A missing peer makes these tests fail (the harness
//! panics), never skip.

use base64::Engine as _;
use soapgen_tests::http::{post, RawResponse};
use soapgen_tests::peers::{self, pattern_bytes, Peer};

const SOAP11: &str = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12: &str = "http://www.w3.org/2003/05/soap-envelope";
const XOP: &str = "http://www.w3.org/2004/08/xop/include";

// --------------------------------------------------------------------------
// requests
// --------------------------------------------------------------------------

fn envelope(soap_ns: &str, body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
         <soap:Envelope xmlns:soap=\"{soap_ns}\" xmlns:m=\"urn:soapgen:mtom\">\
         <soap:Body>{body}</soap:Body></soap:Envelope>"
    )
}

fn soap_content_type(soap_ns: &str) -> &'static str {
    if soap_ns == SOAP12 {
        "application/soap+xml; charset=utf-8"
    } else {
        "text/xml; charset=utf-8"
    }
}

fn get_data(peer: &Peer, path: &str, soap_ns: &str, size: usize) -> RawResponse {
    let env = envelope(
        soap_ns,
        &format!("<m:GetData><m:size>{size}</m:size></m:GetData>"),
    );
    post(
        peer,
        path,
        &[("Content-Type", soap_content_type(soap_ns))],
        env.as_bytes(),
    )
}

fn echo_data_inline(peer: &Peer, path: &str, name: &str, b64: &str) -> RawResponse {
    let env = envelope(
        SOAP11,
        &format!("<m:EchoData><m:name>{name}</m:name><m:data>{b64}</m:data></m:EchoData>"),
    );
    post(
        peer,
        path,
        &[("Content-Type", soap_content_type(SOAP11))],
        env.as_bytes(),
    )
}

/// An MTOM EchoData request (SOAP 1.1) carrying `data` as a binary part.
fn echo_data_mtom(peer: &Peer, path: &str, name: &str, data: &[u8]) -> RawResponse {
    let boundary = "MIMEBoundary_soapgen_smoke";
    let env = envelope(
        SOAP11,
        &format!(
            "<m:EchoData><m:name>{name}</m:name><m:data>\
             <xop:Include xmlns:xop=\"{XOP}\" href=\"cid:data%40soapgen.test\"/>\
             </m:data></m:EchoData>"
        ),
    );
    let mut body = format!(
        "--{boundary}\r\n\
         Content-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\n\
         Content-Transfer-Encoding: binary\r\n\
         Content-ID: <root@soapgen.test>\r\n\
         \r\n\
         {env}\r\n\
         --{boundary}\r\n\
         Content-Type: application/octet-stream\r\n\
         Content-Transfer-Encoding: binary\r\n\
         Content-ID: <data@soapgen.test>\r\n\
         \r\n"
    )
    .into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    let ct = format!(
        "multipart/related; boundary=\"{boundary}\"; type=\"application/xop+xml\"; \
         start=\"<root@soapgen.test>\"; start-info=\"text/xml\""
    );
    post(peer, path, &[("Content-Type", &ct)], &body)
}

// --------------------------------------------------------------------------
// MIME
// --------------------------------------------------------------------------

/// The parameters of a header value such as `multipart/related; a="x"; b=y`
/// (names lowercased, quotes removed).  Quoted values may contain `;`.
fn params(value: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = match value.find(';') {
        Some(i) => &value[i + 1..],
        None => return out,
    };
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';']);
        if rest.is_empty() {
            return out;
        }
        let eq = rest.find('=').expect("parameter without '='");
        let name = rest[..eq].trim().to_ascii_lowercase();
        rest = &rest[eq + 1..];
        let val;
        if let Some(q) = rest.strip_prefix('"') {
            let end = q.find('"').expect("unterminated quoted parameter");
            val = q[..end].to_string();
            rest = &q[end + 1..];
        } else {
            let end = rest.find(';').unwrap_or(rest.len());
            val = rest[..end].trim().to_string();
            rest = &rest[end..];
        }
        out.push((name, val));
    }
}

fn param(value: &str, name: &str) -> Option<String> {
    params(value)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

struct Part {
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Part {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Splits a multipart body (RFC 2046) on `boundary`; strict about the
/// framing so that the peer's output is checked too.
fn split_multipart(body: &[u8], boundary: &str) -> Vec<Part> {
    let first = format!("--{boundary}\r\n");
    assert!(
        body.starts_with(first.as_bytes()),
        "multipart body does not start with {first:?}: {:?}",
        String::from_utf8_lossy(&body[..body.len().min(200)])
    );
    let delim = format!("\r\n--{boundary}");
    let mut parts = Vec::new();
    let mut pos = first.len();
    loop {
        let head_end = find(body, b"\r\n\r\n", pos).expect("part without header end");
        let head = std::str::from_utf8(&body[pos..head_end]).expect("ASCII part headers");
        let headers = head
            .split("\r\n")
            .map(|l| {
                let (k, v) = l.split_once(':').expect("part header line");
                (k.trim().to_string(), v.trim().to_string())
            })
            .collect();
        let content = head_end + 4;
        let end = find(body, delim.as_bytes(), content).expect("part without closing delimiter");
        parts.push(Part {
            headers,
            body: body[content..end].to_vec(),
        });
        let after = end + delim.len();
        if body[after..].starts_with(b"--") {
            return parts;
        }
        assert!(
            body[after..].starts_with(b"\r\n"),
            "no CRLF after a boundary delimiter"
        );
        pos = after + 2;
    }
}

/// `<id>` / `id` / `cid:id` (percent-encoded) -> `id`.
fn content_id_key(s: &str) -> String {
    let s = s.trim();
    let s = s.strip_prefix("cid:").unwrap_or(s);
    let s = s
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .unwrap_or(s);
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            let hex = std::str::from_utf8(&b[i + 1..i + 3]).unwrap();
            if let Ok(v) = u8::from_str_radix(hex, 16) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8(out).expect("UTF-8 Content-ID")
}

/// Checks that `resp` is an MTOM (XOP) message in the given SOAP version and
/// returns (root XML, bytes of the part its single `xop:Include` names).
fn mtom_parts(resp: &RawResponse, soap_ns: &str) -> (String, Vec<u8>) {
    assert_eq!(resp.status, 200, "{}", String::from_utf8_lossy(&resp.body));
    let ct = resp.content_type();
    assert!(
        ct.to_ascii_lowercase().starts_with("multipart/related"),
        "not multipart/related: {ct}"
    );
    assert_eq!(
        param(ct, "type").as_deref(),
        Some("application/xop+xml"),
        "{ct}"
    );
    let start_info = if soap_ns == SOAP12 {
        "application/soap+xml"
    } else {
        "text/xml"
    };
    assert_eq!(param(ct, "start-info").as_deref(), Some(start_info), "{ct}");
    let boundary = param(ct, "boundary").unwrap_or_else(|| panic!("no boundary in {ct}"));
    let start = param(ct, "start").unwrap_or_else(|| panic!("no start in {ct}"));

    let parts = split_multipart(&resp.body, &boundary);
    assert_eq!(parts.len(), 2, "root part and one attachment expected");
    let root = &parts[0];
    assert_eq!(
        root.header("Content-ID").map(content_id_key),
        Some(content_id_key(&start)),
        "the first part is the start part"
    );
    let root_ct = root.header("Content-Type").unwrap_or("");
    assert!(
        root_ct.starts_with("application/xop+xml"),
        "root part type: {root_ct}"
    );
    assert_eq!(param(root_ct, "type").as_deref(), Some(start_info));
    let xml = String::from_utf8(root.body.clone()).expect("UTF-8 root part");
    assert!(
        xml.contains(soap_ns),
        "root part is not SOAP {soap_ns}: {xml}"
    );
    assert!(xml.contains(XOP), "no xop namespace: {xml}");

    let href_at = xml.find("href=\"").expect("no xop:Include href") + 6;
    let href = &xml[href_at..href_at + xml[href_at..].find('"').unwrap()];
    assert!(href.starts_with("cid:"), "href {href}");
    let key = content_id_key(href);
    let attachment = parts[1..]
        .iter()
        .find(|p| p.header("Content-ID").map(content_id_key).as_deref() == Some(&key))
        .unwrap_or_else(|| panic!("no part with Content-ID {key}"));
    assert_eq!(
        attachment.header("Content-Type"),
        Some("application/octet-stream")
    );
    assert_eq!(
        attachment.header("Content-Transfer-Encoding"),
        Some("binary")
    );
    (xml, attachment.body.clone())
}

// --------------------------------------------------------------------------
// XML text
// --------------------------------------------------------------------------

/// The raw text (entity references kept) of the first element whose local
/// name is `local` (`<local>` or `<prefix:local>`, no attributes).
fn element_text<'a>(xml: &'a str, local: &str) -> &'a str {
    let mut from = 0;
    while let Some(lt) = xml[from..].find('<').map(|i| i + from) {
        let gt = lt + xml[lt..].find('>').expect("unterminated tag");
        let name = &xml[lt + 1..gt];
        let l = name.rsplit(':').next().unwrap();
        if l == local && !name.starts_with('/') {
            let close = format!("</{name}>");
            let end = gt + 1 + xml[gt + 1..].find(&close).expect("no closing tag");
            return &xml[gt + 1..end];
        }
        from = gt + 1;
    }
    panic!("no <{local}> element in {xml}");
}

/// Decodes base64 text from an XML element: `&#13;` / `&#xD;` become CR,
/// then all XML whitespace is removed.
fn decode_base64_text(text: &str) -> Vec<u8> {
    let text = text.replace("&#13;", "\r").replace("&#xD;", "\r");
    let compact: String = text
        .chars()
        .filter(|c| !matches!(c, ' ' | '\t' | '\r' | '\n'))
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .unwrap_or_else(|e| panic!("invalid base64 ({e})"))
}

// --------------------------------------------------------------------------
// gSOAP MTOM
// --------------------------------------------------------------------------

#[test]
fn gsoap_mtom_get_data_1024_is_an_xop_attachment() {
    let peer = peers::gsoap_mtom();
    for (soap_ns, path) in [(SOAP11, "/mtom"), (SOAP12, "/mtom/soap12")] {
        let resp = get_data(&peer, path, soap_ns, 1024);
        let (xml, bytes) = mtom_parts(&resp, soap_ns);
        assert!(xml.contains("GetDataResponse"), "{xml}");
        assert_eq!(bytes.len(), 1024);
        assert_eq!(bytes, pattern_bytes(1024), "attachment != pattern");
        // The document holds no base64 at all.
        assert!(element_text(&xml, "data").contains("xop:Include"), "{xml}");
    }
}

#[test]
fn gsoap_mtom_edge_sizes_are_attachments_too() {
    let peer = peers::gsoap_mtom();
    for size in [0, 1, 3, 1 << 20] {
        let resp = get_data(&peer, "/mtom", SOAP11, size);
        let (_, bytes) = mtom_parts(&resp, SOAP11);
        assert_eq!(bytes.len(), size);
        assert!(bytes == pattern_bytes(size), "{size} bytes != pattern");
    }
}

/// The largest payload the runtime's tests use, both ways through gSOAP.
#[test]
fn gsoap_mtom_64_mib_both_ways() {
    const SIZE: usize = 64 << 20;
    let peer = peers::gsoap_mtom();
    let want = pattern_bytes(SIZE);
    let resp = get_data(&peer, "/mtom", SOAP11, SIZE);
    let (_, bytes) = mtom_parts(&resp, SOAP11);
    assert!(
        bytes.len() == SIZE && bytes == want,
        "64 MiB GetData differs"
    );
    drop((resp, bytes));

    let resp = echo_data_mtom(&peer, "/auto", "big", &want);
    let (xml, bytes) = mtom_parts(&resp, SOAP11);
    assert_eq!(element_text(&xml, "size"), SIZE.to_string());
    assert!(bytes == want, "64 MiB EchoData differs");
}

#[test]
fn gsoap_inline_mode_answers_plain_base64() {
    let peer = peers::gsoap_mtom();
    for size in [0, 1, 2, 1024, 100_000] {
        for (soap_ns, path) in [(SOAP11, "/inline"), (SOAP12, "/inline"), (SOAP11, "/auto")] {
            let resp = get_data(&peer, path, soap_ns, size);
            assert_eq!(resp.status, 200, "{}", resp.text());
            let ct = resp.content_type();
            assert!(
                ct.starts_with(soap_content_type(soap_ns).split(';').next().unwrap()),
                "{ct}"
            );
            let text = element_text(resp.text(), "data");
            assert!(!text.contains("Include"), "{text}");
            assert!(
                !text.contains(['\r', '\n', ' ']),
                "gSOAP writes base64 in one line"
            );
            assert_eq!(
                decode_base64_text(text),
                pattern_bytes(size),
                "{size} bytes via {path}"
            );
        }
    }
}

#[test]
fn gsoap_echo_data_mtom_request_reply_follows_the_path() {
    let peer = peers::gsoap_mtom();
    let data = pattern_bytes(5000);

    // /auto and /mtom: MTOM in, MTOM out.
    for path in ["/auto", "/mtom"] {
        let resp = echo_data_mtom(&peer, path, "pic.bin", &data);
        let (xml, bytes) = mtom_parts(&resp, SOAP11);
        assert_eq!(element_text(&xml, "name"), "pic.bin");
        assert_eq!(element_text(&xml, "size"), "5000");
        assert!(bytes == data, "echoed attachment differs ({path})");
    }

    // /inline: MTOM in, base64 out.
    let resp = echo_data_mtom(&peer, "/inline", "pic.bin", &data);
    assert_eq!(resp.status, 200, "{}", resp.text());
    assert!(resp.content_type().starts_with("text/xml"));
    assert_eq!(element_text(resp.text(), "size"), "5000");
    assert_eq!(decode_base64_text(element_text(resp.text(), "data")), data);

    // Inline base64 in (with MIME line breaks), /mtom: MTOM out.
    let mut b64 = String::new();
    let plain = base64::engine::general_purpose::STANDARD.encode(&data);
    for (i, chunk) in plain.as_bytes().chunks(76).enumerate() {
        if i > 0 {
            b64.push_str("\r\n");
        }
        b64.push_str(std::str::from_utf8(chunk).unwrap());
    }
    let resp = echo_data_inline(&peer, "/mtom", "x", &b64);
    let (xml, bytes) = mtom_parts(&resp, SOAP11);
    assert_eq!(element_text(&xml, "size"), "5000");
    assert!(bytes == data);

    // Inline in, /auto: inline out.
    let resp = echo_data_inline(&peer, "/auto", "x", &b64);
    assert!(
        resp.content_type().starts_with("text/xml"),
        "{}",
        resp.content_type()
    );
    assert_eq!(decode_base64_text(element_text(resp.text(), "data")), data);
}

#[test]
fn gsoap_mtom_unknown_path_is_a_fault() {
    let peer = peers::gsoap_mtom();
    let resp = get_data(&peer, "/nowhere", SOAP11, 10);
    assert_eq!(resp.status, 500);
    assert!(
        resp.text().contains("unknown path /nowhere"),
        "{}",
        resp.text()
    );
}

// --------------------------------------------------------------------------
// line-broken base64 (Python)
// --------------------------------------------------------------------------

/// `text` cut into lines whose lengths cycle through `lengths`, line k ending
/// with `eols[k % eols.len()]`; the last line has no line end unless
/// `trailing`.  The rule linebreak_server.py documents.
fn lines(text: &str, lengths: &[usize], eols: &[&str], trailing: bool) -> String {
    let mut out = String::new();
    let mut pos = 0;
    let mut k = 0;
    while pos < text.len() {
        let end = pos
            .saturating_add(lengths[k % lengths.len()])
            .min(text.len());
        out.push_str(&text[pos..end]);
        pos = end;
        if pos < text.len() || trailing {
            out.push_str(eols[k % eols.len()]);
        }
        k += 1;
    }
    out
}

#[test]
fn linebreak_server_modes_have_the_promised_lines() {
    let peer = peers::linebreak_server();
    type Case = (
        &'static str,
        &'static [usize],
        &'static [&'static str],
        bool,
    );
    let cases: &[Case] = &[
        ("/none", &[usize::MAX], &[""], false),
        ("/crlf76", &[76], &["\r\n"], false),
        ("/lf76", &[76], &["\n"], false),
        ("/crlf73", &[73], &["\r\n"], false),
        ("/lf64", &[64], &["\n"], false),
        ("/mixed", &[76, 73, 10, 1, 200], &["\r\n", "\n"], false),
        ("/crref76", &[76], &["&#13;\n"], false),
        ("/crlf76?trailing=1", &[76], &["\r\n"], true),
        (
            "/mixed?trailing=1",
            &[76, 73, 10, 1, 200],
            &["\r\n", "\n"],
            true,
        ),
        ("/custom?cols=4&eol=space", &[4], &[" "], false),
        ("/custom?cols=57&eol=cr&trailing=1", &[57], &["\r"], true),
        ("/custom?cols=76&eol=crref", &[76], &["&#13;\n"], false),
    ];
    // 1000 bytes = 1336 base64 characters: several full cycles of /mixed
    // (360 characters); 1 and 2 bytes: a single short line.
    for size in [1000, 0, 1, 2, 57, 1 << 20] {
        let want = pattern_bytes(size);
        let plain = base64::engine::general_purpose::STANDARD.encode(&want);
        for &(path, lengths, eols, trailing) in cases {
            for soap_ns in [SOAP11, SOAP12] {
                let resp = get_data(&peer, path, soap_ns, size);
                assert_eq!(resp.status, 200, "{path}: {}", resp.text());
                assert!(
                    resp.content_type()
                        .starts_with(soap_content_type(soap_ns).split(';').next().unwrap()),
                    "{path}: {}",
                    resp.content_type()
                );
                let text = element_text(resp.text(), "data");
                let expected = lines(&plain, lengths, eols, trailing);
                assert!(
                    text == expected,
                    "{path}, {size} bytes: line structure differs\n got: {:?}\nwant: {:?}",
                    &text[..text.len().min(400)],
                    &expected[..expected.len().min(400)]
                );
                assert!(decode_base64_text(text) == want, "{path}, {size} bytes");
            }
        }
    }
}

#[test]
fn linebreak_server_mixed_mode_really_mixes() {
    let peer = peers::linebreak_server();
    let resp = get_data(&peer, "/mixed", SOAP11, 1000);
    let text = element_text(resp.text(), "data");
    let mut lens = Vec::new();
    let mut ends = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find('\n') {
        let crlf = i > 0 && rest.as_bytes()[i - 1] == b'\r';
        lens.push(if crlf { i - 1 } else { i });
        ends.push(if crlf { "CRLF" } else { "LF" });
        rest = &rest[i + 1..];
    }
    assert_eq!(&lens[..6], &[76, 73, 10, 1, 200, 76]);
    assert_eq!(&ends[..4], &["CRLF", "LF", "CRLF", "LF"]);
    assert!(!rest.is_empty() && rest.len() < 200, "last line {rest:?}");
}

#[test]
fn linebreak_server_echo_data_round_trips_in_lines() {
    let peer = peers::linebreak_server();
    let data = pattern_bytes(3000);
    let plain = base64::engine::general_purpose::STANDARD.encode(&data);
    // Sent with LF lines of 64, answered with CRLF lines of 73.
    let sent = lines(&plain, &[64], &["\n"], true);
    let resp = echo_data_inline(&peer, "/crlf73", "a&amp;b", &sent);
    assert_eq!(resp.status, 200, "{}", resp.text());
    assert_eq!(element_text(resp.text(), "name"), "a&amp;b");
    assert_eq!(element_text(resp.text(), "size"), "3000");
    let text = element_text(resp.text(), "data");
    assert_eq!(text, lines(&plain, &[73], &["\r\n"], false));
    assert!(decode_base64_text(text) == data);
}

#[test]
fn linebreak_server_refuses_what_it_does_not_do() {
    let peer = peers::linebreak_server();
    let resp = get_data(&peer, "/crlf75", SOAP11, 10);
    assert_eq!(resp.status, 500);
    assert!(resp.text().contains("unknown path"), "{}", resp.text());
    let resp = echo_data_mtom(&peer, "/crlf76", "x", b"abc");
    assert_eq!(resp.status, 500);
    assert!(resp.text().contains("MTOM"), "{}", resp.text());
}
