//! Distinguished names as strings (RFC 4514, "LDAP: String Representation of Distinguished
//! Names"), for `ds:X509IssuerName` (XML-DSig §4.4.4): written from a certificate's issuer, and
//! read back to compare with one.
//!
//! A name is kept as its sequence of RDNs in certificate (DER) order, each RDN a set of
//! attribute type and value pairs ([`Ava`]). Comparison follows what peers actually send rather
//! than X.520's full matching rules: attribute types by OID (names case-insensitive, with the
//! usual aliases), string values case-insensitively after whitespace folding, other values by
//! their DER bytes; the RDN order may be RFC 4514's (last RDN first) or the certificate's, since
//! WSS4J and .NET disagree on it.

use x509_parser::asn1_rs::{Any, Class, FromDer, Tag};
use x509_parser::x509::X509Name;

/// One attribute type and value of an RDN (RFC 5280 §4.1.2.4 `AttributeTypeAndValue`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ava {
    /// The attribute type, dotted decimal (`2.5.4.3`).
    oid: String,
    /// The value as text when it is a character string type (UTF8String, PrintableString,
    /// IA5String, NumericString, TeletexString read as Latin-1, BMPString, UniversalString).
    text: Option<String>,
    /// The value's DER encoding (tag, length, content), for `#hex` and non-string values.
    der: Vec<u8>,
}

/// A distinguished name: its RDNs in certificate (DER) order, each a set of [`Ava`]s.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct DistinguishedName(Vec<Vec<Ava>>);

/// Short names RFC 4514 §3 writes, with their OIDs.
const RFC4514_NAMES: &[(&str, &str)] = &[
    ("CN", "2.5.4.3"),
    ("L", "2.5.4.7"),
    ("ST", "2.5.4.8"),
    ("O", "2.5.4.10"),
    ("OU", "2.5.4.11"),
    ("C", "2.5.4.6"),
    ("STREET", "2.5.4.9"),
    ("DC", "0.9.2342.19200300.100.1.25"),
    ("UID", "0.9.2342.19200300.100.1.1"),
];

/// Further names read (never written): `E`/`EMAILADDRESS` (PKCS#9 emailAddress, as .NET and
/// Java write it), `S` (.NET's stateOrProvinceName), `SERIALNUMBER`.
const ALIASES: &[(&str, &str)] = &[
    ("E", "1.2.840.113549.1.9.1"),
    ("EMAILADDRESS", "1.2.840.113549.1.9.1"),
    ("S", "2.5.4.8"),
    ("SERIALNUMBER", "2.5.4.5"),
];

impl DistinguishedName {
    /// The name of a parsed certificate field.
    pub(crate) fn from_x509(name: &X509Name<'_>) -> DistinguishedName {
        DistinguishedName(
            name.iter_rdn()
                .map(|rdn| {
                    rdn.iter()
                        .map(|ava| Ava {
                            oid: ava.attr_type().to_id_string(),
                            text: value_text(ava.attr_value()),
                            der: value_der(ava.attr_value()),
                        })
                        .collect()
                })
                .collect(),
        )
    }

    /// The RFC 4514 §2 string: RDNs last to first separated by `,`, multi-valued RDNs joined by
    /// `+`, types by their §3 short names or else dotted decimal with a `#`-hex DER value
    /// (§2.4), string values escaped as §2.4 says.
    pub(crate) fn to_rfc4514(&self) -> String {
        let mut out = String::new();
        for (i, rdn) in self.0.iter().rev().enumerate() {
            if i > 0 {
                out.push(',');
            }
            for (j, ava) in rdn.iter().enumerate() {
                if j > 0 {
                    out.push('+');
                }
                let short = RFC4514_NAMES
                    .iter()
                    .find(|(_, oid)| *oid == ava.oid)
                    .map(|(n, _)| *n);
                match (short, &ava.text) {
                    (Some(name), Some(text)) => {
                        out.push_str(name);
                        out.push('=');
                        escape_value(text, &mut out);
                    }
                    (name, _) => {
                        out.push_str(name.unwrap_or(&ava.oid));
                        out.push_str("=#");
                        for b in &ava.der {
                            out.push_str(&format!("{b:02X}"));
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether `s`, a distinguished name string (RFC 4514; also `;` between RDNs and quoted
    /// values as RFC 1779 and .NET write them), names this name, in either RDN order. A string
    /// that cannot be read matches nothing.
    pub(crate) fn matches_str(&self, s: &str) -> bool {
        let Some(parsed) = parse(s) else {
            return false;
        };
        let ours: Vec<Vec<Key>> = self.0.iter().map(|rdn| rdn_keys(rdn)).collect();
        let theirs: Vec<Vec<Key>> = parsed.iter().map(|rdn| rdn_keys(rdn)).collect();
        if ours.len() != theirs.len() {
            return false;
        }
        ours.iter().eq(theirs.iter()) || ours.iter().eq(theirs.iter().rev())
    }
}

/// What two AVAs are compared by: the type, then the folded text or the DER bytes.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Text(String, String),
    Der(String, Vec<u8>),
}

fn rdn_keys(rdn: &[Ava]) -> Vec<Key> {
    let mut keys: Vec<Key> = rdn
        .iter()
        .map(|a| match &a.text {
            Some(t) => Key::Text(a.oid.clone(), fold(t)),
            None => Key::Der(a.oid.clone(), a.der.clone()),
        })
        .collect();
    keys.sort();
    keys
}

/// Lower case, whitespace runs made one space, no leading or trailing whitespace.
fn fold(s: &str) -> String {
    s.split_whitespace()
        .flat_map(|w| std::iter::once(' ').chain(w.chars().flat_map(char::to_lowercase)))
        .skip(1)
        .collect()
}

/// RFC 4514 §2.4 escaping of a string value.
fn escape_value(v: &str, out: &mut String) {
    let last = v.chars().count().saturating_sub(1);
    for (i, c) in v.chars().enumerate() {
        match c {
            '"' | '+' | ',' | ';' | '<' | '>' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '#' | ' ' if i == 0 => {
                out.push('\\');
                out.push(c);
            }
            ' ' if i == last => out.push_str("\\ "),
            '\0' => out.push_str("\\00"),
            _ => out.push(c),
        }
    }
}

/// The text of a character string value, if it is one and decodes.
fn value_text(v: &Any<'_>) -> Option<String> {
    if v.class() != Class::Universal || v.header.is_constructed() {
        return None;
    }
    let data = v.data;
    match v.tag() {
        Tag::Utf8String | Tag::PrintableString | Tag::Ia5String | Tag::NumericString => {
            std::str::from_utf8(data).ok().map(str::to_owned)
        }
        Tag::TeletexString => Some(data.iter().map(|&b| char::from(b)).collect()),
        Tag::BmpString => {
            if !data.len().is_multiple_of(2) {
                return None;
            }
            let units = data
                .chunks_exact(2)
                .map(|p| u16::from_be_bytes([p[0], p[1]]));
            char::decode_utf16(units)
                .collect::<Result<String, _>>()
                .ok()
        }
        Tag::UniversalString => {
            if !data.len().is_multiple_of(4) {
                return None;
            }
            data.chunks_exact(4)
                .map(|p| char::from_u32(u32::from_be_bytes([p[0], p[1], p[2], p[3]])))
                .collect()
        }
        _ => None,
    }
}

/// The DER encoding of a value (its identifier octets, definite length, content).
fn value_der(v: &Any<'_>) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.data.len() + 6);
    match v.header.raw_tag() {
        Some(raw) => out.extend_from_slice(raw),
        None => {
            let class = (v.class() as u8) << 6;
            let constructed = if v.header.is_constructed() { 0x20 } else { 0 };
            // Tags above 30 always come with their raw octets from the parser.
            let number = u8::try_from(v.tag().0).unwrap_or(0x1f) & 0x1f;
            out.push(class | constructed | number);
        }
    }
    let len = v.data.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        let significant = bytes.get(skip..).unwrap_or(&[]);
        out.push(0x80 | significant.len() as u8);
        out.extend_from_slice(significant);
    }
    out.extend_from_slice(v.data);
    out
}

/// Parses a DN string into RDNs in the string's order; `None` if it is not one.
fn parse(s: &str) -> Option<Vec<Vec<Ava>>> {
    let mut rdns = Vec::new();
    let mut rdn = Vec::new();
    let mut chars = s.char_indices().peekable();
    if s.trim().is_empty() {
        return Some(rdns);
    }
    loop {
        // attributeType, up to '='.
        let mut ty = String::new();
        loop {
            match chars.next() {
                Some((_, '=')) => break,
                Some((_, c)) => ty.push(c),
                None => return None,
            }
        }
        let oid = attribute_oid(ty.trim())?;
        // Skip spaces after '='.
        while chars.next_if(|&(_, c)| c == ' ').is_some() {}
        let (text, der) = if chars.next_if(|&(_, c)| c == '#').is_some() {
            let mut hex = String::new();
            while let Some((_, c)) = chars.next_if(|&(_, c)| c.is_ascii_hexdigit()) {
                hex.push(c);
            }
            let der = decode_hex(&hex)?;
            let (rest, any) = Any::from_der(&der).ok()?;
            if !rest.is_empty() {
                return None;
            }
            (value_text(&any), der)
        } else if chars.next_if(|&(_, c)| c == '"').is_some() {
            let mut bytes = Vec::new();
            loop {
                match chars.next()? {
                    (_, '"') => break,
                    (_, '\\') => unescape(&mut chars, &mut bytes)?,
                    (_, c) => push_char(&mut bytes, c),
                }
            }
            (Some(String::from_utf8(bytes).ok()?), Vec::new())
        } else {
            let mut bytes = Vec::new();
            loop {
                match chars.peek().copied() {
                    None => break,
                    Some((_, ',' | ';' | '+')) => break,
                    Some((_, '\\')) => {
                        chars.next();
                        // An escaped trailing space is part of the value; folding drops it.
                        unescape(&mut chars, &mut bytes)?;
                    }
                    Some((_, c)) => {
                        chars.next();
                        push_char(&mut bytes, c);
                    }
                }
            }
            (Some(String::from_utf8(bytes).ok()?), Vec::new())
        };
        rdn.push(Ava { oid, text, der });
        // Spaces, then a separator or the end.
        while chars.next_if(|&(_, c)| c == ' ').is_some() {}
        match chars.next() {
            None => {
                rdns.push(rdn);
                return Some(rdns);
            }
            Some((_, '+')) => {}
            Some((_, ',' | ';')) => rdns.push(std::mem::take(&mut rdn)),
            Some(_) => return None,
        }
    }
}

fn push_char(bytes: &mut Vec<u8>, c: char) {
    let mut buf = [0u8; 4];
    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}

/// After a `\`: a special character, or two hex digits giving one byte (RFC 4514 §3 `pair`).
fn unescape(
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
    bytes: &mut Vec<u8>,
) -> Option<()> {
    let (_, c) = chars.next()?;
    if c.is_ascii_hexdigit() {
        let (_, d) = chars.next()?;
        let hi = c.to_digit(16)?;
        let lo = d.to_digit(16)?;
        bytes.push(u8::try_from(hi * 16 + lo).ok()?);
    } else {
        push_char(bytes, c);
    }
    Some(())
}

fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    if hex.is_empty() || !hex.len().is_multiple_of(2) {
        return None;
    }
    hex.as_bytes()
        .chunks_exact(2)
        .map(|p| {
            let hi = char::from(p[0]).to_digit(16)?;
            let lo = char::from(p[1]).to_digit(16)?;
            u8::try_from(hi * 16 + lo).ok()
        })
        .collect()
}

/// The OID of an attribute type: a name (case-insensitive) or dotted decimal, with an optional
/// `OID.` prefix (RFC 1779 §2.3).
fn attribute_oid(ty: &str) -> Option<String> {
    let bare = ty
        .strip_prefix("OID.")
        .or_else(|| ty.strip_prefix("oid."))
        .unwrap_or(ty);
    if !bare.is_empty()
        && bare.split('.').count() >= 2
        && bare
            .split('.')
            .all(|arc| !arc.is_empty() && arc.bytes().all(|b| b.is_ascii_digit()))
    {
        return Some(bare.to_owned());
    }
    RFC4514_NAMES
        .iter()
        .chain(ALIASES)
        .find(|(name, _)| name.eq_ignore_ascii_case(bare))
        .map(|(_, oid)| (*oid).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(oid: &str, v: &str) -> Ava {
        // A UTF8String.
        let mut der = vec![0x0c, v.len() as u8];
        der.extend_from_slice(v.as_bytes());
        Ava {
            oid: oid.to_owned(),
            text: Some(v.to_owned()),
            der,
        }
    }

    /// `O=soapgen tests, CN=soapgen test CA` in certificate order.
    fn ca() -> DistinguishedName {
        DistinguishedName(vec![
            vec![text("2.5.4.10", "soapgen tests")],
            vec![text("2.5.4.3", "soapgen test CA")],
        ])
    }

    #[test]
    fn writes_rfc4514_last_rdn_first() {
        assert_eq!(ca().to_rfc4514(), "CN=soapgen test CA,O=soapgen tests");
        let dn = DistinguishedName(vec![
            vec![text("2.5.4.6", "FR")],
            vec![
                text("2.5.4.3", " a,b+c;\"d\"<e>\\f "),
                text("1.2.840.113549.1.9.1", "x@y"),
            ],
            vec![text("2.5.4.11", "#hash")],
        ]);
        assert_eq!(
            dn.to_rfc4514(),
            "OU=\\#hash,CN=\\ a\\,b\\+c\\;\\\"d\\\"\\<e\\>\\\\f\\ +1.2.840.113549.1.9.1=#0C03784079,C=FR"
        );
        // What is written reads back.
        assert!(dn.matches_str(&dn.to_rfc4514()));
    }

    #[test]
    fn matches_either_order_spaces_case_and_aliases() {
        let dn = ca();
        for s in [
            "CN=soapgen test CA,O=soapgen tests",
            "O=soapgen tests,CN=soapgen test CA",
            "cn = soapgen test ca , o = SOAPGEN   TESTS",
            "CN=soapgen test CA; O=soapgen tests",
            "OID.2.5.4.3=soapgen test CA,2.5.4.10=soapgen tests",
            "CN=\"soapgen test CA\", O=soapgen\\20tests",
            "CN=#0C0F736F617067656E2074657374204341,O=soapgen tests",
        ] {
            assert!(dn.matches_str(s), "{s}");
        }
        for s in [
            "CN=soapgen test CA",
            "CN=soapgen test CA,O=soapgen tests,C=FR",
            "CN=soapgen test CB,O=soapgen tests",
            "O=soapgen tests+CN=soapgen test CA",
            "XX=soapgen test CA,O=soapgen tests",
            "CN=soapgen test CA,O",
            "CN=soapgen test CA,O=soapgen tests\\",
            "CN=#0C,O=soapgen tests",
            "",
        ] {
            assert!(!dn.matches_str(s), "{s}");
        }
    }

    #[test]
    fn multi_valued_rdns_and_email_aliases() {
        let dn = DistinguishedName(vec![
            vec![text("2.5.4.6", "DE")],
            vec![
                text("2.5.4.3", "Jürgen"),
                text("1.2.840.113549.1.9.1", "j@example.org"),
            ],
        ]);
        for s in [
            "E=j@example.org+CN=jürgen,C=DE",
            "CN=JÜRGEN+EMAILADDRESS=j@example.org, C=DE",
            "emailAddress=J@EXAMPLE.ORG+CN=J\\C3\\BCrgen,C=DE",
            "1.2.840.113549.1.9.1=#0C0D6A406578616D706C652E6F7267+CN=Jürgen,C=DE",
            "C=DE,CN=Jürgen+E=j@example.org",
        ] {
            assert!(dn.matches_str(s), "{s}");
        }
        assert!(!dn.matches_str("CN=Jürgen,E=j@example.org,C=DE"));
        assert!(!dn.matches_str("CN=J\\C3rgen+E=j@example.org,C=DE"));
    }

    #[test]
    fn folds_whitespace_and_case() {
        assert_eq!(fold("  A  b\t\nC "), "a b c");
        assert_eq!(fold(""), "");
    }
}
