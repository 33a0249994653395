//! Writing a multipart/related request: MTOM/XOP (SOAP MTOM §3, XOP 1.0 §3) or SwA (SwA 1.0 §3,
//! WS-I Attachments Profile 1.0), and the Content-IDs its parts are named by.

use bytes::Bytes;
use memchr::memmem;

use super::media_type;
use crate::message::RequestMessage;

/// A boundary that occurs in none of the message's parts (RFC 2046 §5.1.1 requires it).
fn boundary_for(message: &RequestMessage) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let candidate = format!("uuid:soapgen-{nanos:08x}-{n:016x}");
        let occurs = |data: &[u8]| memmem::find(data, candidate.as_bytes()).is_some();
        if !occurs(message.envelope.as_bytes())
            && !message.attachments.iter().any(|a| occurs(&a.data))
        {
            return candidate;
        }
    }
}

/// Escapes a value for a quoted-string parameter (RFC 2045 §5.1).
fn quoted(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Writes a multipart/related body: the root part with `root_headers` and the envelope, then every
/// attachment as a binary part with its Content-Type and Content-ID.
fn write_multipart(message: &RequestMessage, boundary: &str, root_headers: &str) -> Bytes {
    let size = message.envelope.len()
        + message
            .attachments
            .iter()
            .map(|a| a.data.len() + a.content_id.len() + a.content_type.len() + 120)
            .sum::<usize>()
        + root_headers.len()
        + 100;
    let mut body = Vec::with_capacity(size);
    body.extend_from_slice(format!("--{boundary}\r\n{root_headers}\r\n\r\n").as_bytes());
    body.extend_from_slice(message.envelope.as_bytes());
    for a in &message.attachments {
        // A Content-Type with a line break would end the headers early: keep it on one line.
        let content_type = a.content_type.replace(['\r', '\n'], " ");
        body.extend_from_slice(
            format!(
                "\r\n--{boundary}\r\nContent-Type: {content_type}\r\n\
                 Content-Transfer-Encoding: binary\r\nContent-ID: <{}>\r\n\r\n",
                a.content_id
            )
            .as_bytes(),
        );
        body.extend_from_slice(&a.data);
    }
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    Bytes::from(body)
}

/// The Content-ID of the root part of requests.
const ROOT_ID: &str = "root.message@soapgen";

/// Packages an MTOM request (SOAP MTOM §3, XOP 1.0 §3): returns the HTTP Content-Type and the body.
///
/// The root part is `application/xop+xml` with `type` = `root_type` (`text/xml` for SOAP 1.1,
/// `application/soap+xml; action="…"` for 1.2, given by the caller); each attachment is a binary
/// part (`Content-Transfer-Encoding: binary`) with its Content-Type.
pub(crate) fn write_mtom(message: &RequestMessage, root_type: &str) -> (String, Bytes) {
    let boundary = &boundary_for(message);
    let escaped_type = quoted(root_type);
    let content_type = format!(
        "multipart/related; type=\"application/xop+xml\"; boundary=\"{boundary}\"; \
         start=\"<{ROOT_ID}>\"; start-info=\"{escaped_type}\""
    );
    let root_headers = format!(
        "Content-Type: application/xop+xml; charset=UTF-8; type=\"{escaped_type}\"\r\n\
         Content-Transfer-Encoding: 8bit\r\nContent-ID: <{ROOT_ID}>"
    );
    let body = write_multipart(message, boundary, &root_headers);
    (content_type, body)
}

/// Packages a SOAP Messages with Attachments request (SwA 1.0 §3, WS-I Attachments Profile 1.0
/// §3.2–§3.5, RFC 2387): returns the HTTP Content-Type and the body.
///
/// `root_content_type` is the envelope's own Content-Type (`text/xml; charset=utf-8` for SOAP 1.1,
/// `application/soap+xml; charset=utf-8; action="…"` for 1.2): the root part carries it unchanged,
/// the `type` parameter of the multipart names its media type (R2931: `text/xml` for SOAP 1.1),
/// and `start` names the root (R2922 is met either way: the root is the first part). Each
/// attachment is a binary part with its Content-Type and Content-ID.
pub(crate) fn write_swa(message: &RequestMessage, root_content_type: &str) -> (String, Bytes) {
    let boundary = &boundary_for(message);
    let root_media = media_type(root_content_type);
    let content_type = format!(
        "multipart/related; type=\"{}\"; boundary=\"{boundary}\"; start=\"<{ROOT_ID}>\"",
        quoted(root_media)
    );
    let root_headers = format!(
        "Content-Type: {}\r\nContent-Transfer-Encoding: 8bit\r\nContent-ID: <{ROOT_ID}>",
        root_content_type.replace(['\r', '\n'], " ")
    );
    let body = write_multipart(message, boundary, &root_headers);
    (content_type, body)
}
