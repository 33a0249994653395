//! Binary built-in types: base64Binary (XML Schema Part 2 §3.2.16) and hexBinary (§3.2.15).

use std::ops::Deref;

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;
use bytes::Bytes;

use super::{collapse, FromXmlText, PrefixResolver, ToXmlText};
use crate::error::{DecodeError, EncodeError, ValueError};
use crate::xml::{Name, StartTag, TextOut, XmlReader, XmlWriter};

macro_rules! byte_wrapper {
    ($ty:ident) => {
        impl $ty {
            /// The bytes.
            pub fn into_bytes(self) -> Bytes {
                self.0
            }
        }

        impl From<Vec<u8>> for $ty {
            fn from(v: Vec<u8>) -> Self {
                $ty(Bytes::from(v))
            }
        }

        impl From<&[u8]> for $ty {
            fn from(v: &[u8]) -> Self {
                $ty(Bytes::copy_from_slice(v))
            }
        }

        impl From<Bytes> for $ty {
            fn from(v: Bytes) -> Self {
                $ty(v)
            }
        }

        impl From<$ty> for Bytes {
            fn from(v: $ty) -> Self {
                v.0
            }
        }

        impl Deref for $ty {
            type Target = [u8];

            fn deref(&self) -> &[u8] {
                &self.0
            }
        }

        impl AsRef<[u8]> for $ty {
            fn as_ref(&self) -> &[u8] {
                &self.0
            }
        }
    };
}

// ---------------------------------------------------------------------------------------------------
// base64Binary

/// xs:base64Binary (XML Schema Part 2 §3.2.16): binary data in the base64 encoding of RFC 2045 §6.8
/// (standard alphabet `A-Za-z0-9+/`, `=` padding).
///
/// Read: XML whitespace is ignored anywhere (MIME line breaks); the padding must be correct and only
/// at the end; the unused bits of the last character must be zero (the XSD 1.0 lexical space only
/// has the canonical final quantum). Written as one unbroken run (RFC 4648 §4), or in 76-column lines
/// ending with CRLF when [`XmlWriter::set_mime_base64`](crate::xml::XmlWriter::set_mime_base64) is on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Base64Binary(pub Bytes);

byte_wrapper!(Base64Binary);

impl From<Base64Binary> for crate::mime::Attachment {
    fn from(data: Base64Binary) -> Self {
        data.into_bytes().into()
    }
}

impl From<crate::mime::Attachment> for Base64Binary {
    fn from(a: crate::mime::Attachment) -> Self {
        Base64Binary(a.data)
    }
}

/// Decodes base64Binary text held in one piece (attribute values, list items); element content is
/// decoded while it streams by [`XmlReader::read_base64`](crate::xml::XmlReader::read_base64).
pub(crate) fn decode_base64(text: &str) -> Result<Vec<u8>, ValueError> {
    crate::base64::decode(text.as_bytes())
        .map_err(|e| ValueError::new("base64Binary", text).because(e.to_string()))
}

/// Base64 characters per MIME line (RFC 2045 §6.8).
const MIME_LINE: usize = 76;

/// Writes `data` in base64, in MIME lines if `out.mime_base64()`.
fn encode_base64(data: &[u8], out: &mut TextOut<'_>) {
    // 57 input bytes are one 76-character line; 54 lines per chunk keeps the buffer on the stack.
    const LINE_BYTES: usize = MIME_LINE / 4 * 3;
    const CHUNK_BYTES: usize = LINE_BYTES * 54;
    let mut buf = [0u8; CHUNK_BYTES / 3 * 4];
    let mime = out.mime_base64();
    let mut first_line = true;
    for chunk in data.chunks(CHUNK_BYTES) {
        let n = STANDARD
            .encode_slice(chunk, &mut buf)
            .expect("buffer sized for a full chunk");
        // Base64 output is ASCII.
        let encoded = std::str::from_utf8(&buf[..n]).unwrap_or_default();
        if mime {
            for line in encoded.as_bytes().chunks(MIME_LINE) {
                if !first_line {
                    out.push_ascii_safe("\r\n");
                }
                first_line = false;
                out.push_ascii_safe(std::str::from_utf8(line).unwrap_or_default());
            }
        } else {
            out.push_ascii_safe(encoded);
        }
    }
}

/// xs:base64Binary (XML Schema Part 2 §3.2.16): one unbroken run (RFC 4648), or 76-column CRLF lines
/// (RFC 2045) when the writer asks for MIME base64.
impl ToXmlText for Base64Binary {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        encode_base64(&self.0, out);
        Ok(())
    }

    /// With MTOM on and the value at or above the threshold: `<name><xop:Include
    /// href="cid:…"/></name>` (XOP 1.0 §3.1) and the bytes as an attachment; otherwise inline text.
    fn write_element(&self, w: &mut XmlWriter, name: Name<'_>) -> Result<(), EncodeError> {
        match w.mtom_attachment(&self.0) {
            Some(href) => {
                w.start_element(name)?;
                w.start_element(Name::new(crate::mime::XOP_NS, "Include"))?;
                w.attribute(Name::unqualified("href"), &href)?;
                w.end_element()?;
                w.end_element()
            }
            None => w.simple_element(name, self),
        }
    }
}

/// xs:base64Binary (XML Schema Part 2 §3.2.16): whitespace anywhere is ignored; padding required.
impl FromXmlText for Base64Binary {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        decode_base64(text).map(Base64Binary::from)
    }

    /// Decodes while the element's text streams, and resolves `xop:Include` / `href="cid:…"` to
    /// an attachment ([`XmlReader::read_base64`]).
    fn read_element_content<'i>(
        r: &mut XmlReader<'i>,
        start: &StartTag<'i>,
    ) -> Result<Self, DecodeError> {
        r.read_base64(start).map(Base64Binary)
    }
}

// ---------------------------------------------------------------------------------------------------
// hexBinary

/// xs:hexBinary (XML Schema Part 2 §3.2.15): binary data as pairs of hexadecimal digits
/// (`[0-9a-fA-F]{2}*`).
///
/// Read with surrounding whitespace collapsed (none is allowed inside); written in upper case, the
/// canonical form (§3.2.15.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct HexBinary(pub Bytes);

byte_wrapper!(HexBinary);

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Decodes hexBinary text (XML Schema Part 2 §3.2.15).
pub(crate) fn decode_hex(text: &str) -> Result<Vec<u8>, ValueError> {
    let t = collapse(text);
    let lead = text.len() - text.trim_start_matches([' ', '\t', '\r', '\n']).len();
    let error = |reason: String| ValueError::new("hexBinary", t).because(reason);
    if let Some((i, c)) = t.char_indices().find(|&(_, c)| !c.is_ascii_hexdigit()) {
        return Err(error(format!(
            "invalid character {c:?} at offset {}",
            lead + i
        )));
    }
    if !t.len().is_multiple_of(2) {
        return Err(error(format!("odd number of hex digits ({})", t.len())));
    }
    Ok(t.as_bytes()
        .chunks_exact(2)
        .map(|p| {
            // Checked above.
            let hi = hex_value(p[0]).unwrap_or(0);
            let lo = hex_value(p[1]).unwrap_or(0);
            (hi << 4) | lo
        })
        .collect())
}

/// xs:hexBinary (XML Schema Part 2 §3.2.15): upper-case hex digits, two per byte.
impl ToXmlText for HexBinary {
    fn write_xml_text(&self, out: &mut TextOut<'_>) -> Result<(), EncodeError> {
        const DIGITS: &[u8; 16] = b"0123456789ABCDEF";
        let mut buf = [0u8; 512];
        for chunk in self.0.chunks(buf.len() / 2) {
            for (pair, &b) in buf.chunks_exact_mut(2).zip(chunk) {
                pair[0] = DIGITS[usize::from(b >> 4)];
                pair[1] = DIGITS[usize::from(b & 0xF)];
            }
            // Hex digits are ASCII.
            out.push_ascii_safe(std::str::from_utf8(&buf[..chunk.len() * 2]).unwrap_or_default());
        }
        Ok(())
    }
}

/// xs:hexBinary (XML Schema Part 2 §3.2.15): an even number of hex digits, either case.
impl FromXmlText for HexBinary {
    fn from_xml_text(text: &str, _ns: &dyn PrefixResolver) -> Result<Self, ValueError> {
        decode_hex(text).map(HexBinary::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::NoNamespaces;
    use proptest::prelude::*;

    fn write_with<T: ToXmlText>(v: &T, mime: bool) -> String {
        crate::types::testing::text_of(v, mime)
    }

    fn write<T: ToXmlText>(v: &T) -> String {
        write_with(v, false)
    }

    fn read<T: FromXmlText>(s: &str) -> Result<T, ValueError> {
        T::from_xml_text(s, &NoNamespaces)
    }

    fn b64(s: &str) -> Vec<u8> {
        read::<Base64Binary>(s)
            .unwrap_or_else(|e| panic!("{e}"))
            .to_vec()
    }

    fn b64_err(s: &str) -> String {
        read::<Base64Binary>(s).unwrap_err().to_string()
    }

    #[test]
    fn wrapper_conversions() {
        let b = Base64Binary::from(vec![1u8, 2, 3]);
        assert_eq!(&*b, &[1, 2, 3]);
        assert_eq!(b.as_ref(), &[1, 2, 3]);
        assert_eq!(b.len(), 3);
        assert_eq!(Base64Binary::from(&[1u8, 2, 3][..]), b);
        assert_eq!(Base64Binary::from(Bytes::from_static(&[1, 2, 3])), b);
        assert_eq!(b.clone().into_bytes(), Bytes::from_static(&[1, 2, 3]));
        assert_eq!(Bytes::from(b), Bytes::from_static(&[1, 2, 3]));
        let h = HexBinary::from(vec![0xAB]);
        assert_eq!(h[0], 0xAB);
        assert_eq!(HexBinary::default().len(), 0);
    }

    #[test]
    fn base64_reads_standard_text() {
        assert_eq!(b64(""), b"");
        assert_eq!(b64("   "), b"");
        assert_eq!(b64("TWFu"), b"Man");
        assert_eq!(b64("TWE="), b"Ma");
        assert_eq!(b64("TQ=="), b"M");
        assert_eq!(b64("+/+/"), [0xfb, 0xff, 0xbf]);
        assert_eq!(b64(" TW\r\nFu\tTW E=\n"), b"ManMa");
        assert_eq!(b64("TQ= ="), b"M");
        let long = "QUJD".repeat(40);
        let mime: String = long
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect::<Vec<_>>()
            .join("\r\n");
        assert_eq!(b64(&mime), b"ABC".repeat(40));
    }

    #[test]
    fn base64_reports_offsets_of_bad_characters() {
        assert_eq!(
            b64_err("QUJDQUJDQUJDQUJD QUJ*"),
            "invalid base64Binary \"QUJDQUJDQUJDQUJD QUJ*\": invalid character '*' at offset 20"
        );
        assert!(b64_err("QU-D").contains("invalid character '-' at offset 2"));
        assert!(b64_err("QU_D").contains("invalid character '_' at offset 2"));
        assert!(b64_err("QUé=").contains("invalid character 'é' at offset 2"));
        assert!(b64_err("QU\u{a0}D").contains("offset 2"));
        assert!(b64_err("QUJD\u{c}").contains("offset 4"));
    }

    #[test]
    fn base64_rejects_misplaced_or_missing_padding() {
        let e = b64_err("TQ==TWFu");
        assert!(
            e.contains("padding '=' at offset 2 is followed by data at offset 4"),
            "{e}"
        );
        assert!(b64_err("T=Q=").contains("offset 1"));
        assert!(b64_err("TQ").contains("padding"), "{}", b64_err("TQ"));
        assert!(b64_err("TWE").contains("padding"));
        assert!(b64_err("TQ=").contains("padding"));
        assert!(b64_err("TQ===").starts_with("invalid base64Binary"));
        assert!(b64_err("T").starts_with("invalid base64Binary"));
        assert!(b64_err("TWFuT").starts_with("invalid base64Binary"));
        assert!(b64_err("====").starts_with("invalid base64Binary"));
        assert!(b64_err("=").starts_with("invalid base64Binary"));
    }

    #[test]
    fn base64_rejects_non_canonical_final_group() {
        // "TR==" decodes to 'M' with non-zero discarded bits; XSD's lexical space excludes it.
        let e = b64_err("TWFu TR==");
        assert!(e.contains("'R' at offset 6"), "{e}");
    }

    #[test]
    fn base64_writes_one_run_by_default() {
        let data = Base64Binary::from(vec![0u8; 100]);
        let s = write(&data);
        assert_eq!(s, "A".repeat(132) + "AA==");
        assert_eq!(write(&Base64Binary::from(&b"Man"[..])), "TWFu");
        assert_eq!(write(&Base64Binary::default()), "");
        assert_eq!(write(&Base64Binary::from(&[0xfb, 0xff, 0xbf][..])), "+/+/");
    }

    #[test]
    fn base64_writes_mime_lines_on_request() {
        let data: Vec<u8> = (0..=255).cycle().take(10_000).collect();
        let s = write_with(&Base64Binary::from(data.clone()), true);
        let lines: Vec<&str> = s.split("\r\n").collect();
        assert!(lines[..lines.len() - 1].iter().all(|l| l.len() == 76));
        assert!(!lines.last().unwrap().is_empty() && lines.last().unwrap().len() <= 76);
        assert!(!s.ends_with('\n'));
        assert_eq!(b64(&s), data);
        // Exactly one line: no line break.
        let s = write_with(&Base64Binary::from(vec![7u8; 57]), true);
        assert_eq!(s.len(), 76);
        assert!(!s.contains('\r'));
        // 57 * 54 bytes is exactly one internal chunk; a line break must join chunks too.
        let data = vec![9u8; 57 * 54 * 2 + 1];
        let s = write_with(&Base64Binary::from(data.clone()), true);
        assert!(s.split("\r\n").all(|l| l.len() <= 76 && !l.is_empty()));
        assert_eq!(b64(&s), data);
    }

    #[test]
    fn hex_reads_and_writes() {
        let h: HexBinary = read(" 0fB7\n").unwrap();
        assert_eq!(&*h, &[0x0f, 0xb7]);
        assert_eq!(write(&h), "0FB7");
        assert!(read::<HexBinary>("").unwrap().is_empty());
        assert_eq!(write(&HexBinary::default()), "");
        let long = HexBinary::from((0..=255u8).collect::<Vec<_>>().repeat(3));
        assert_eq!(read::<HexBinary>(&write(&long)).unwrap(), long);
    }

    #[test]
    fn hex_rejects_bad_text() {
        let e = read::<HexBinary>("0FB").unwrap_err().to_string();
        assert_eq!(e, "invalid hexBinary \"0FB\": odd number of hex digits (3)");
        let e = read::<HexBinary>("  0F G7").unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid hexBinary \"0F G7\": invalid character ' ' at offset 4"
        );
        assert!(read::<HexBinary>("0x0F")
            .unwrap_err()
            .to_string()
            .contains("'x' at offset 1"));
        assert!(read::<HexBinary>("0é").is_err());
    }

    proptest! {
        #[test]
        fn prop_base64(data: Vec<u8>, mime: bool) {
            let s = write_with(&Base64Binary::from(data.clone()), mime);
            prop_assert_eq!(&s, &STANDARD.encode(&data).as_bytes().chunks(if mime { 76 } else { usize::MAX })
                .map(|c| std::str::from_utf8(c).unwrap()).collect::<Vec<_>>().join("\r\n"));
            prop_assert_eq!(b64(&s), data);
        }

        #[test]
        fn prop_base64_with_whitespace(data: Vec<u8>, spaces in proptest::collection::vec((0usize..200, "[ \t\r\n]"), 0..10)) {
            let mut s = STANDARD.encode(&data);
            for (at, ws) in spaces {
                let at = at.min(s.len());
                s.insert_str(at, &ws);
            }
            prop_assert_eq!(b64(&s), data);
        }

        #[test]
        fn prop_base64_never_panics(s in "[A-Za-z0-9+/= \r\n*é]{0,40}") {
            if let Ok(v) = read::<Base64Binary>(&s) {
                prop_assert_eq!(STANDARD.encode(&v), s.replace([' ', '\r', '\n'], ""));
            }
        }

        #[test]
        fn prop_hex(data: Vec<u8>) {
            let h = HexBinary::from(data.clone());
            let s = write(&h);
            prop_assert_eq!(s.len(), data.len() * 2);
            prop_assert!(!s.bytes().any(|b| b.is_ascii_lowercase()));
            prop_assert_eq!(&read::<HexBinary>(&s).unwrap(), &h);
            prop_assert_eq!(&read::<HexBinary>(&s.to_lowercase()).unwrap(), &h);
        }
    }
}
