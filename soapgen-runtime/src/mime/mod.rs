//! MIME packaging of SOAP messages: MTOM/XOP (SOAP MTOM §3, XOP 1.0) and SOAP Messages with
//! Attachments (SwA 1.0, WS-I AP 1.0 `swaRef`), read and written.
//!
//! A response whose Content-Type is `multipart/related` (RFC 2387) is split into its root part (the
//! envelope, `application/xop+xml` for MTOM or `text/xml` for SwA) and the other parts, the
//! [`Attachments`]. Splitting copies nothing: every part body is a [`Bytes`] slice of the response
//! body (unless the part itself is `Content-Transfer-Encoding: base64` or `quoted-printable`, which is
//! decoded). A base64Binary element whose content is `<xop:Include href="cid:…"/>`, or that carries an
//! `href="cid:…"` attribute (SwA), reads as the bytes of the part with that Content-ID (RFC 2392: the
//! `cid:` URL is percent-decoded; angle brackets around the Content-ID are not part of it).

mod attachment;
mod content_id;
pub(crate) mod spool;
mod store;
mod write;

use percent_encoding::percent_decode_str;
use std::fmt;

use bytes::Bytes;
use memchr::memmem;

pub use attachment::{Attachment, OutgoingAttachment, Packaging};
pub(crate) use content_id::{cid_url, unique_token};
pub use store::{file_of, AttachmentStore};
pub(crate) use write::{write_mtom, write_swa};

/// The XOP namespace of `xop:Include` (XOP 1.0 §2.1).
pub const XOP_NS: &str = "http://www.w3.org/2004/08/xop/include";

/// The most header bytes a part may have.
const MAX_HEADER_BYTES: usize = 64 * 1024;

/// A MIME multipart message that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MimeError {
    /// What is wrong, and where (part number, header).
    pub message: String,
    /// Byte offset in the HTTP body, when it is about a place in it.
    pub offset: Option<usize>,
}

impl MimeError {
    fn new(message: impl Into<String>, offset: Option<usize>) -> Self {
        MimeError {
            message: message.into(),
            offset,
        }
    }
}

impl fmt::Display for MimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed multipart/related message: {}", self.message)?;
        if let Some(o) = self.offset {
            write!(f, " (at byte {o})")?;
        }
        Ok(())
    }
}

impl std::error::Error for MimeError {}

/// One MIME body part (RFC 2045 §3, RFC 2046 §5.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part {
    /// Header fields in order, names as sent, values unfolded and trimmed.
    pub headers: Vec<(String, String)>,
    /// The Content-ID without angle brackets (RFC 2392 §2), if the part has one.
    pub content_id: Option<String>,
    /// The Content-Type, if any.
    pub content_type: Option<String>,
    /// The body after any Content-Transfer-Encoding was undone.
    pub body: Bytes,
}

impl Part {
    /// The first header named `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The parts of a multipart/related message other than its root: MTOM/XOP or SwA attachments.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attachments {
    parts: Vec<Part>,
}

impl Attachments {
    /// No attachments.
    pub fn new() -> Self {
        Self::default()
    }

    /// The part a `cid:` URL (RFC 2392) or a bare Content-ID (with or without angle brackets) names.
    pub fn get(&self, reference: &str) -> Option<&Part> {
        let wanted = content_id_of_reference(reference);
        self.parts
            .iter()
            .find(|p| p.content_id.as_deref() == Some(wanted.as_str()))
    }

    /// How many attachments there are.
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// The attachments in message order.
    pub fn iter(&self) -> impl Iterator<Item = &Part> {
        self.parts.iter()
    }
}

/// A `multipart/related` message split into its root part and attachments (RFC 2387 §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MultipartRelated {
    /// The root part: the one named by the `start` parameter, or the first.
    pub root: Part,
    /// Every other part.
    pub attachments: Attachments,
}

/// Whether a Content-Type is `multipart/related` (case-insensitive, parameters ignored).
pub(crate) fn is_multipart_related(content_type: &str) -> bool {
    media_type(content_type).eq_ignore_ascii_case("multipart/related")
}

/// The media type of a Content-Type value, without parameters.
pub(crate) fn media_type(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or("").trim()
}

/// The parameters of a Content-Type value (RFC 2045 §5.1): names lowercased, quoted strings unquoted
/// (with `\` escapes undone).
pub(crate) fn content_type_parameters(content_type: &str) -> Vec<(String, String)> {
    let mut params = Vec::new();
    let Some((_, mut rest)) = content_type.split_once(';') else {
        return params;
    };
    loop {
        rest = rest.trim_start_matches([' ', '\t', ';', '\r', '\n']);
        let Some(eq) = rest.find('=') else { break };
        let name = rest[..eq].trim().to_ascii_lowercase();
        rest = rest[eq + 1..].trim_start();
        let value;
        if let Some(quoted) = rest.strip_prefix('"') {
            let mut v = String::new();
            let mut chars = quoted.char_indices();
            let mut end = quoted.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            v.push(n);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    _ => v.push(c),
                }
            }
            value = v;
            rest = &quoted[end.min(quoted.len())..];
        } else {
            let end = rest.find(';').unwrap_or(rest.len());
            value = rest[..end].trim().to_owned();
            rest = &rest[end..];
        }
        if !name.is_empty() {
            params.push((name, value));
        }
    }
    params
}

fn parameter<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// A Content-ID header value or `start` parameter without its angle brackets and spaces.
fn bare_content_id(value: &str) -> String {
    let v = value.trim();
    let v = v.strip_prefix('<').unwrap_or(v);
    let v = v.strip_suffix('>').unwrap_or(v);
    v.trim().to_owned()
}

/// The Content-ID a reference names: a `cid:` URL percent-decoded (RFC 2392 §2), or a bare
/// Content-ID.
fn content_id_of_reference(reference: &str) -> String {
    let r = reference.trim();
    match r.get(..4) {
        Some(scheme) if scheme.eq_ignore_ascii_case("cid:") => {
            bare_content_id(&percent_decode(&r[4..]))
        }
        _ => bare_content_id(r),
    }
}

/// Undoes `%XX` escapes (RFC 3986 §2.1); malformed escapes are kept as they are, bytes that are
/// not UTF-8 replaced.
fn percent_decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// Splits a `multipart/related` body (RFC 2046 §5.1.1, RFC 2387) into its root part and attachments.
///
/// `content_type` is the HTTP Content-Type (its `boundary` and `start` parameters are used). Part
/// bodies are slices of `body` (no copy) unless their Content-Transfer-Encoding is `base64` or
/// `quoted-printable` (RFC 2045 §6.7–6.8), which are decoded. At most `max_parts` parts are accepted.
///
/// # Errors
///
/// [`MimeError`]: no `boundary` parameter; the boundary never occurs in the body; a part without the
/// blank line that ends its headers; no closing delimiter (a truncated message); more than
/// `max_parts` parts; an unknown Content-Transfer-Encoding or one that does not decode; a `start`
/// parameter naming no part.
pub fn parse_multipart_related(
    content_type: &str,
    body: Bytes,
    max_parts: usize,
) -> Result<MultipartRelated, MimeError> {
    let (parts, root) = parse_parts(content_type, body, max_parts)?;
    Ok(split_root(parts, root))
}

/// `parts` as the root part (at `root`) and the attachments.
fn split_root(mut parts: Vec<Part>, root: usize) -> MultipartRelated {
    let root = parts.remove(root);
    MultipartRelated {
        root,
        attachments: Attachments { parts },
    }
}

/// The parts of a `multipart/related` body in order, and the root's position among them (see
/// [`parse_multipart_related`]).
fn parse_parts(
    content_type: &str,
    body: Bytes,
    max_parts: usize,
) -> Result<(Vec<Part>, usize), MimeError> {
    let params = content_type_parameters(content_type);
    let boundary = parameter(&params, "boundary")
        .filter(|b| !b.is_empty())
        .ok_or_else(|| {
            MimeError::new(
                format!("the Content-Type {content_type:?} has no boundary parameter"),
                None,
            )
        })?;
    if boundary.len() > 200 {
        return Err(MimeError::new(
            "the boundary is longer than 200 characters (RFC 2046 §5.1.1 allows 70)",
            None,
        ));
    }
    let delimiter = format!("--{boundary}");
    let finder = memmem::Finder::new(delimiter.as_bytes());
    let data: &[u8] = &body;
    // The first delimiter: at the very start or at the start of a line (after the preamble).
    let mut at = None;
    let mut from = 0;
    while let Some(i) = finder.find(&data[from..]).map(|i| i + from) {
        if i == 0 || data[i - 1] == b'\n' {
            at = Some(i);
            break;
        }
        from = i + 1;
    }
    let Some(mut at) = at else {
        return Err(MimeError::new(
            format!("the boundary {boundary:?} does not occur in the body"),
            None,
        ));
    };
    let mut parts: Vec<Part> = Vec::new();
    loop {
        let after = at + delimiter.len();
        if data.get(after..after + 2) == Some(b"--") {
            break;
        }
        // Transport padding, then the line end.
        let mut p = after;
        while matches!(data.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        match data.get(p..) {
            Some([b'\r', b'\n', ..]) => p += 2,
            Some([b'\n', ..]) => p += 1,
            _ => {
                return Err(MimeError::new(
                    format!(
                        "part {}: the delimiter is not followed by a line end (truncated message?)",
                        parts.len() + 1
                    ),
                    Some(after),
                ))
            }
        }
        if parts.len() >= max_parts {
            return Err(MimeError::new(
                format!("more than {max_parts} parts (the configured limit)"),
                Some(at),
            ));
        }
        // Headers end at the first empty line, within the first 64 KiB.
        let window = &data[p..data.len().min(p + MAX_HEADER_BYTES)];
        let header_end = memmem::find(window, b"\r\n\r\n")
            .map(|i| (p + i, 4))
            .into_iter()
            .chain(memmem::find(window, b"\n\n").map(|i| (p + i, 2)))
            .min_by_key(|&(i, _)| i);
        let (headers, body_start) = if data.get(p..p + 2) == Some(b"\r\n") {
            (Vec::new(), p + 2)
        } else if data.get(p) == Some(&b'\n') {
            (Vec::new(), p + 1)
        } else {
            let Some((h_end, sep)) = header_end else {
                return Err(MimeError::new(
                    format!(
                        "part {}: its headers do not end with an empty line (truncated message?)",
                        parts.len() + 1
                    ),
                    Some(p),
                ));
            };
            (parse_headers(&data[p..h_end]), h_end + sep)
        };
        // The body ends at the line end before the next delimiter.
        let mut search = body_start;
        let next = loop {
            let Some(i) = finder.find(&data[search..]).map(|i| i + search) else {
                return Err(MimeError::new(
                    format!(
                        "part {}: no closing delimiter \"--{boundary}--\" (truncated message)",
                        parts.len() + 1
                    ),
                    Some(data.len()),
                ));
            };
            if i > 0 && data[i - 1] == b'\n' && ends_delimiter_line(data, i + delimiter.len()) {
                break i;
            }
            search = i + 1;
        };
        // The line end before the delimiter belongs to it (RFC 2046 §5.1.1).
        let mut body_end = next.saturating_sub(1).max(body_start);
        if body_end > body_start && data[body_end - 1] == b'\r' {
            body_end -= 1;
        }
        let raw = body.slice(body_start..body_end);
        let number = parts.len() + 1;
        parts.push(make_part(headers, raw, number, body_start)?);
        at = next;
    }
    let start = parameter(&params, "start").map(bare_content_id);
    let root_index = match &start {
        Some(id) => parts
            .iter()
            .position(|p| p.content_id.as_deref() == Some(id.as_str()))
            .ok_or_else(|| {
                MimeError::new(
                    format!("the start parameter names <{id}>, which no part has as Content-ID"),
                    None,
                )
            })?,
        None => 0,
    };
    if parts.is_empty() {
        return Err(MimeError::new("the message has no parts", None));
    }
    Ok((parts, root_index))
}

/// Whether what follows a boundary at `after` completes a delimiter line: `--` (the close delimiter),
/// or optional transport padding and a line end (RFC 2046 §5.1.1).
fn ends_delimiter_line(data: &[u8], after: usize) -> bool {
    let rest = data.get(after..).unwrap_or_default();
    if rest.starts_with(b"--") {
        return true;
    }
    let padding = rest
        .iter()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    matches!(rest.get(padding), Some(b'\r' | b'\n'))
}

/// Header lines → (name, value) pairs, folded lines joined (RFC 5322 §2.2.3).
fn parse_headers(block: &[u8]) -> Vec<(String, String)> {
    let text = String::from_utf8_lossy(block);
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.split('\n') {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = out.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
            continue;
        }
        if let Some((name, value)) = line.split_once(':') {
            out.push((name.trim().to_owned(), value.trim().to_owned()));
        }
    }
    out
}

fn make_part(
    headers: Vec<(String, String)>,
    raw: Bytes,
    number: usize,
    offset: usize,
) -> Result<Part, MimeError> {
    let find = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
    };
    let encoding = find("content-transfer-encoding")
        .map(|e| e.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let body = match encoding.as_str() {
        "" | "binary" | "8bit" | "7bit" => raw,
        "base64" => crate::base64::decode(&raw).map(Bytes::from).map_err(|e| {
            MimeError::new(
                format!("part {number}: Content-Transfer-Encoding base64 does not decode: {e}"),
                Some(offset + e.offset),
            )
        })?,
        "quoted-printable" => Bytes::from(decode_quoted_printable(&raw)),
        other => {
            return Err(MimeError::new(
                format!("part {number}: unknown Content-Transfer-Encoding {other:?}"),
                Some(offset),
            ))
        }
    };
    Ok(Part {
        content_id: find("content-id").map(|v| bare_content_id(&v)),
        content_type: find("content-type"),
        headers,
        body,
    })
}

/// Decodes quoted-printable (RFC 2045 §6.7): `=XX` escapes and `=` soft line breaks; anything
/// malformed is kept literally (the RFC's robustness advice).
fn decode_quoted_printable(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if b == b'=' {
            match raw.get(i + 1..) {
                Some([b'\r', b'\n', ..]) => {
                    i += 3;
                    continue;
                }
                Some([b'\n', ..]) => {
                    i += 2;
                    continue;
                }
                Some([h, l, ..]) => {
                    let hex = [*h, *l];
                    if let Some(v) = std::str::from_utf8(&hex)
                        .ok()
                        .and_then(|s| u8::from_str_radix(s, 16).ok())
                    {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                }
                _ => {}
            }
        }
        out.push(b);
        i += 1;
    }
    out
}

impl Attachments {
    /// The attachment bound to the WSDL message part `name` of a response (WSDL 1.1 §5
    /// `mime:content part="…"`), found as WS-I Attachments Profile 1.0 §3.8 says (R2933, R2946):
    /// the first part whose Content-ID, percent-decoded, starts with `name=`. When no part follows
    /// that convention for `name`, by order instead: `names` are the parts the operation binds to
    /// `mime:content`, in the order of their `mime:part`s, and `name` is `names[position]`; the
    /// attachment is the `position`-th of those whose Content-ID follows the convention for none
    /// of `names` (servers such as gSOAP number their parts `<id1>`, `<id2>`…).
    ///
    /// # Examples
    ///
    /// ```
    /// # use bytes::Bytes;
    /// use soapgen_runtime::mime::parse_multipart_related;
    /// let body = "--b\r\nContent-ID: <root>\r\n\r\n<E/>\r\n\
    ///             --b\r\nContent-ID: <thumb=1@x>\r\n\r\nT\r\n\
    ///             --b\r\nContent-ID: <photo=2@x>\r\n\r\nP\r\n--b--\r\n";
    /// let m = parse_multipart_related("multipart/related; boundary=b", Bytes::from(body), 10)?;
    /// let names = ["photo", "thumb"];
    /// assert_eq!(&m.attachments.find_part("photo", 0, &names).unwrap().body[..], b"P");
    /// assert_eq!(&m.attachments.find_part("thumb", 1, &names).unwrap().body[..], b"T");
    /// # Ok::<(), soapgen_runtime::mime::MimeError>(())
    /// ```
    pub fn find_part(&self, name: &str, position: usize, names: &[&str]) -> Option<&Part> {
        let follows = |p: &Part, n: &str| {
            p.content_id.as_deref().is_some_and(|id| {
                let decoded = percent_decode(id);
                decoded.len() > n.len()
                    && decoded.starts_with(n)
                    && decoded.as_bytes()[n.len()] == b'='
            })
        };
        if let Some(p) = self.parts.iter().find(|p| follows(p, name)) {
            return Some(p);
        }
        self.parts
            .iter()
            .filter(|p| !names.iter().any(|n| follows(p, n)))
            .nth(position)
    }
}

#[cfg(test)]
mod tests;
