//! The character encoding of a response document (XML 1.0 §4.3.3 and Appendix F, RFC 7303 §3).
//!
//! The reader works on UTF-8. A response in another encoding is turned into UTF-8 once, before
//! reading: the encoding is taken from, in order, a byte order mark (UTF-8, UTF-16LE, UTF-16BE), the
//! HTTP `charset` parameter (RFC 7303 §3: it overrides the declaration), the `encoding` of the XML
//! declaration (found in the ASCII-compatible or UTF-16 form of its first bytes), else UTF-8. A
//! transcoded document's declaration is rewritten to say `UTF-8`, so the reader sees a consistent
//! document. UTF-8 input is borrowed, never copied.
//!
//! ISO-8859-1 (and its aliases `latin1`, `l1`, `iso_8859-1`, `cp819`, `ibm819`) is decoded as itself,
//! byte n → U+00nn, not as windows-1252 (which is what web browsers substitute); every other label is
//! decoded by `encoding_rs` (the WHATWG Encoding Standard's decoders).

use std::borrow::Cow;

use encoding_rs::Encoding;

use crate::error::{DecodeError, DecodeErrorKind, Location};

/// The encoding a document is in, as found by [`to_utf8`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Found {
    Utf8,
    Latin1,
    Other(&'static Encoding),
}

fn is_latin1_label(label: &str) -> bool {
    matches!(
        label.trim().to_ascii_lowercase().as_str(),
        "iso-8859-1"
            | "iso8859-1"
            | "iso_8859-1"
            | "latin1"
            | "l1"
            | "cp819"
            | "ibm819"
            | "iso-ir-100"
    )
}

fn for_label(label: &str) -> Option<Found> {
    if is_latin1_label(label) {
        return Some(Found::Latin1);
    }
    let e = Encoding::for_label(label.trim().as_bytes())?;
    Some(if e == encoding_rs::UTF_8 {
        Found::Utf8
    } else {
        Found::Other(e)
    })
}

/// Whether a document starting with `head` is UTF-8 by its own account: no UTF-16 byte order
/// mark, and an XML declaration that declares UTF-8 or no encoding (XML 1.0 §4.3.3).
pub(crate) fn declares_utf8(head: &[u8]) -> bool {
    if head.starts_with(&[0xFE, 0xFF]) || head.starts_with(&[0xFF, 0xFE]) {
        return false;
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    match declared_encoding(head) {
        None => true,
        Some((e, _)) => e.eq_ignore_ascii_case("utf-8") || e.eq_ignore_ascii_case("utf8"),
    }
}

/// The `encoding` pseudo-attribute of an XML declaration at the start of `head` (ASCII bytes), with
/// the byte range of its value.
fn declared_encoding(head: &[u8]) -> Option<(String, std::ops::Range<usize>)> {
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let end = head.windows(2).position(|w| w == b"?>")?;
    let decl = &head[..end];
    let key = decl.windows(8).position(|w| w == b"encoding")?;
    let mut i = key + 8;
    while matches!(decl.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    if decl.get(i) != Some(&b'=') {
        return None;
    }
    i += 1;
    while matches!(decl.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    let quote = *decl.get(i)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let start = i + 1;
    let len = decl[start..].iter().position(|&b| b == quote)?;
    let value = std::str::from_utf8(&decl[start..start + len])
        .ok()?
        .to_owned();
    Some((value, start..start + len))
}

/// The document as UTF-8: borrowed when it already is (a UTF-8 byte order mark is left for the reader
/// to skip), transcoded otherwise. `http_charset` is the `charset` parameter of the response's
/// Content-Type, if any.
///
/// # Errors
///
/// [`DecodeErrorKind::Other`] naming the encoding if it is unknown, or if the bytes are not valid in
/// it (with the byte offset of the first bad sequence).
pub fn to_utf8<'b>(
    body: &'b [u8],
    http_charset: Option<&str>,
) -> Result<Cow<'b, [u8]>, DecodeError> {
    let error = |message: String, offset: usize| {
        DecodeError::new(
            DecodeErrorKind::Other(message),
            Location {
                offset: offset as u64,
                ..Location::default()
            },
        )
    };
    let (found, content) = if let Some((enc, bom_len)) = Encoding::for_bom(body) {
        let found = if enc == encoding_rs::UTF_8 {
            Found::Utf8
        } else {
            Found::Other(enc)
        };
        (
            found,
            if found == Found::Utf8 {
                body
            } else {
                &body[bom_len..]
            },
        )
    } else if let Some(label) = http_charset.filter(|c| !c.trim().is_empty()) {
        let found = for_label(label)
            .ok_or_else(|| error(format!("unknown charset {label:?} in the Content-Type"), 0))?;
        (found, body)
    } else if body.starts_with(&[0x4C, 0x6F, 0xA7, 0x94]) {
        // `<?xm` in EBCDIC (XML 1.0 Appendix F.1).
        return Err(error(
            "the response is in EBCDIC (it starts with `<?xm` in an EBCDIC code page, XML 1.0 \
             Appendix F.1), which soapgen does not read"
                .to_owned(),
            0,
        ));
    } else if body.starts_with(b"<\0?\0") {
        (Found::Other(encoding_rs::UTF_16LE), body)
    } else if body.starts_with(b"\0<\0?") {
        (Found::Other(encoding_rs::UTF_16BE), body)
    } else {
        match declared_encoding(&body[..body.len().min(256)]) {
            Some((label, _)) => {
                let found = for_label(&label).ok_or_else(|| {
                    error(
                        format!("unknown encoding {label:?} in the XML declaration"),
                        0,
                    )
                })?;
                (found, body)
            }
            None => (Found::Utf8, body),
        }
    };
    let text: String = match found {
        Found::Utf8 => return Ok(Cow::Borrowed(content)),
        Found::Latin1 => content.iter().map(|&b| char::from(b)).collect(),
        Found::Other(enc) => {
            let mut decoder = enc.new_decoder_without_bom_handling();
            let mut out = String::with_capacity(
                decoder
                    .max_utf8_buffer_length_without_replacement(content.len())
                    .unwrap_or(content.len().saturating_mul(3)),
            );
            let (result, read) =
                decoder.decode_to_string_without_replacement(content, &mut out, true);
            if let encoding_rs::DecoderResult::Malformed(_, _) = result {
                return Err(error(
                    format!("the document is not valid {}", enc.name()),
                    read,
                ));
            }
            out
        }
    };
    // Say UTF-8 in the declaration, which now describes a UTF-8 document.
    let mut bytes = text.into_bytes();
    if let Some((_, range)) = declared_encoding(&bytes[..bytes.len().min(256)]) {
        bytes.splice(range, b"UTF-8".iter().copied());
    }
    Ok(Cow::Owned(bytes))
}

/// The `charset` parameter of a Content-Type value, if any.
pub(crate) fn charset_of(content_type: &str) -> Option<String> {
    crate::mime::content_type_parameters(content_type)
        .into_iter()
        .find(|(k, _)| k == "charset")
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8(body: &[u8], charset: Option<&str>) -> String {
        String::from_utf8(to_utf8(body, charset).unwrap().into_owned()).unwrap()
    }

    #[test]
    fn an_ebcdic_response_is_named_as_such() {
        // `<?xml version="1.0" encoding="IBM037"?><a/>` in IBM037.
        let e = to_utf8(b"\x4c\x6f\xa7\x94\x93\x40\xa5\x85\x99\xa2\x89\x96\x95\x7e\x7f\xf1\x4b\xf0\x7f\x40\x85\x95\x83\x96\x84\x89\x95\x87\x7e\x7f\xc9\xc2\xd4\xf0\xf3\xf7\x7f\x6f\x6e\x4c\x81\x61\x6e", None).unwrap_err();
        assert!(e.to_string().contains("EBCDIC"), "{e}");
    }

    #[test]
    fn utf8_is_borrowed() {
        let doc = "<?xml version=\"1.0\" encoding=\"utf-8\"?><a>é</a>".as_bytes();
        assert!(matches!(to_utf8(doc, None).unwrap(), Cow::Borrowed(_)));
        assert!(matches!(
            to_utf8(doc, Some("UTF-8")).unwrap(),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn latin1_by_declaration_or_charset() {
        let doc = b"<?xml version='1.0' encoding='ISO-8859-1'?><a>caf\xe9 \x80</a>";
        assert_eq!(
            utf8(doc, None),
            "<?xml version='1.0' encoding='UTF-8'?><a>café \u{80}</a>"
        );
        let doc = b"<a>caf\xe9</a>";
        assert_eq!(utf8(doc, Some("latin1")), "<a>café</a>");
        // windows-1252 is a different table.
        assert_eq!(utf8(b"<a>\x80</a>", Some("windows-1252")), "<a>€</a>");
    }

    #[test]
    fn utf16_with_and_without_bom() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><a>ü</a>";
        let le: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        let expected = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><a>ü</a>";
        let mut with_bom = vec![0xFF, 0xFE];
        with_bom.extend_from_slice(&le);
        assert_eq!(utf8(&with_bom, None), expected);
        let mut with_bom = vec![0xFE, 0xFF];
        with_bom.extend_from_slice(&be);
        assert_eq!(utf8(&with_bom, Some("utf-8")), expected, "the BOM wins");
        assert_eq!(utf8(&le, None), expected);
        assert_eq!(utf8(&be, None), expected);
    }

    #[test]
    fn unknown_or_malformed_encodings_are_errors() {
        let e = to_utf8(b"<?xml version='1.0' encoding='x-klingon'?><a/>", None).unwrap_err();
        assert!(e.to_string().contains("x-klingon"), "{e}");
        let e = to_utf8(b"<a/>", Some("nope")).unwrap_err();
        assert!(e.to_string().contains("nope"), "{e}");
        let e = to_utf8(b"<a>\x81\xff</a>", Some("shift_jis")).unwrap_err();
        assert!(e.to_string().contains("Shift_JIS"), "{e}");
    }

    #[test]
    fn charset_parameter() {
        assert_eq!(
            charset_of("text/xml; charset=\"ISO-8859-1\"").as_deref(),
            Some("ISO-8859-1")
        );
        assert_eq!(charset_of("text/xml"), None);
    }
}
