//! Escaping text and attribute values (XML 1.0 §2.4, §3.1, §2.2 characters) and raw content
//! under a default namespace declaration (Namespaces in XML 1.0 §6.2).

use crate::error::EncodeError;

/// Appends the well-formed XML content `xml` to `out`, adding `xmlns=""` to each top-level element
/// whose name has no prefix and whose start tag declares no default namespace (Namespaces in XML
/// 1.0 §6.2), so that it stays in no namespace under a default namespace declared outside it.
pub(super) fn push_undeclaring_default(out: &mut String, xml: &str) {
    let b = xml.as_bytes();
    let mut depth = 0usize;
    let mut copied = 0;
    let mut i = 0;
    while let Some(lt) = memchr::memchr(b'<', &b[i..]).map(|k| i + k) {
        let rest = &xml[lt..];
        // Comments, CDATA sections, processing instructions: skipped whole.
        let skip_to = if rest.starts_with("<!--") {
            rest.find("-->").map(|k| lt + k + 3)
        } else if rest.starts_with("<![CDATA[") {
            rest.find("]]>").map(|k| lt + k + 3)
        } else if rest.starts_with("<?") {
            rest.find("?>").map(|k| lt + k + 2)
        } else {
            None
        };
        if let Some(end) = skip_to {
            i = end;
            continue;
        }
        // The end of the tag: the first `>` outside a quoted attribute value.
        let mut j = lt + 1;
        let mut quote = None;
        while j < b.len() {
            match (quote, b[j]) {
                (None, q @ (b'"' | b'\'')) => quote = Some(q),
                (Some(q), c) if c == q => quote = None,
                (None, b'>') => break,
                _ => {}
            }
            j += 1;
        }
        let tag = &xml[lt..j.min(xml.len())];
        if tag.starts_with("</") {
            depth = depth.saturating_sub(1);
        } else {
            let empty = tag.ends_with('/');
            if depth == 0 {
                let name_end = tag[1..]
                    .find(|c: char| c.is_ascii_whitespace() || c == '/' || c == '>')
                    .map(|k| k + 1)
                    .unwrap_or(tag.len());
                let name = &tag[1..name_end];
                let declares = tag[name_end..].split_ascii_whitespace().any(|a| {
                    a.strip_prefix("xmlns")
                        .is_some_and(|r| r.trim_start().starts_with('='))
                });
                if !name.contains(':') && !declares {
                    out.push_str(&xml[copied..lt + name_end]);
                    out.push_str(" xmlns=\"\"");
                    copied = lt + name_end;
                }
            }
            if !empty {
                depth += 1;
            }
        }
        i = j + 1;
        if i >= b.len() {
            break;
        }
    }
    out.push_str(&xml[copied..]);
}

/// Escapes `s` into `out` (XML 1.0 §2.4 character data, §3.1 AttValue): `&`, `<`, `>` and `\r`
/// always, and in attribute mode (`attr`) `"`, `\t` and `\n` too, so that they survive attribute
/// value normalisation (§3.3.3).
///
/// Runs of bytes that need nothing are found eight at a time ([`find_special`]) and copied whole.
///
/// # Errors
///
/// [`EncodeError`] for a character XML 1.0 cannot represent (§2.2: C0 controls other than tab,
/// line feed and carriage return; U+FFFE, U+FFFF), with its byte offset in `s`.
pub(super) fn escape_into(out: &mut String, s: &str, attr: bool) -> Result<(), EncodeError> {
    let bytes = s.as_bytes();
    let mut last = 0;
    let mut from = 0;
    while let Some(k) = find_special(&bytes[from..], attr) {
        let i = from + k;
        from = i + 1;
        let b = bytes[i];
        let rep: &str = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'\r' => "&#13;",
            b'"' if attr => "&quot;",
            b'\n' if attr => "&#10;",
            b'\t' if attr => "&#9;",
            b'\t' | b'\n' => continue,
            0..=0x1f => {
                return Err(EncodeError::invalid_char(char::from(b), i));
            }
            0xEF if bytes.get(i + 1) == Some(&0xBF)
                && matches!(bytes.get(i + 2), Some(0xBE | 0xBF)) =>
            {
                let c = if bytes[i + 2] == 0xBE {
                    '\u{FFFE}'
                } else {
                    '\u{FFFF}'
                };
                return Err(EncodeError::invalid_char(c, i));
            }
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
    Ok(())
}

/// The offset of the first byte of `b` that [`escape_into`] must look at: a C0 control, `&`, `<`,
/// `>`, the lead byte `0xEF` of U+FFFE/U+FFFF, and `"` in attribute mode.
///
/// Eight bytes are tested at once with the usual word tricks (a byte below 0x20: `(x - 0x20…) &
/// !x & 0x80…`; a byte equal to `c`: the same test for zero on `x ^ c…`), so text without any of
/// them costs about a third of an instruction per byte.
#[inline]
pub(crate) fn find_special(b: &[u8], attr: bool) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    #[inline(always)]
    fn zero_byte(v: u64) -> u64 {
        v.wrapping_sub(LO) & !v & HI
    }
    let quot = if attr { b'"' } else { b'&' };
    let mut i = 0;
    while i + 8 <= b.len() {
        let mut word = [0u8; 8];
        word.copy_from_slice(&b[i..i + 8]);
        let x = u64::from_le_bytes(word);
        let hit = (x.wrapping_sub(LO * 0x20) & !x & HI)
            | zero_byte(x ^ (LO * u64::from(b'&')))
            | zero_byte(x ^ (LO * u64::from(b'<')))
            | zero_byte(x ^ (LO * u64::from(b'>')))
            | zero_byte(x ^ (LO * 0xEF))
            | zero_byte(x ^ (LO * u64::from(quot)));
        if hit != 0 {
            break;
        }
        i += 8;
    }
    b[i..]
        .iter()
        .position(|&c| c < 0x20 || matches!(c, b'&' | b'<' | b'>' | 0xEF) || c == quot)
        .map(|k| i + k)
}
