//! Rust names for XML names: always valid identifiers, deterministic, and unique in their scope.
//!
//! Type names are PascalCase, fields, parameters and methods snake_case. Keywords become raw
//! identifiers (`r#type`), or get a trailing `_` where Rust forbids raw identifiers (`self`,
//! `Self`, `super`, `crate`). Names that would start with a digit are prefixed (`_1st`, `V1st`).
//! Collisions in one scope (`Foo` and `foo`, one name in two namespaces) get `2`, `3`… in the order
//! the caller asks, which is sorted, so output is the same on every run.

use std::collections::BTreeMap;

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "crate", "else", "enum", "extern", "false", "fn", "for",
    "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return",
    "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where",
    "while", "async", "await", "dyn", "abstract", "become", "box", "do", "final", "macro",
    "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
];

/// Splits an XML name into words at `_`, `-`, `.`, spaces, other punctuation and case changes
/// (`getHTTPResponse_v2` → `get`, `HTTP`, `Response`, `v2`).
pub fn words(name: &str) -> Vec<String> {
    let chars: Vec<char> = name.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if let Some(&prev) = cur.chars().last().as_ref() {
            let next = chars.get(i + 1).copied();
            // The small letters after `c`: a word goes on with two or more (`HTTPResponse`); one
            // alone is an acronym's plural (`IDs`, `URLs`) or part of it (`IPv4`, `XMLa`).
            let small = chars[i + 1..]
                .iter()
                .take_while(|c| c.is_lowercase())
                .count();
            let boundary = (c.is_uppercase() && prev.is_lowercase())
                || (c.is_uppercase() && prev.is_uppercase() && small >= 2)
                // After a digit, a capital starts a word unless it ends the name's run of
                // letters alone (`Sha256Hash`, `Dot1X`).
                || (c.is_uppercase()
                    && prev.is_ascii_digit()
                    && next.is_some_and(char::is_alphabetic));
            if boundary {
                words.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

fn capitalize(w: &str) -> String {
    let mut cs = w.chars();
    match cs.next() {
        Some(f) => f.to_uppercase().collect::<String>() + &cs.as_str().to_lowercase(),
        None => String::new(),
    }
}

/// Only ASCII letters, digits and `_` survive in identifiers (non-ASCII letters are valid Rust but
/// hard to type; they are transliterated to `_`).
fn ascii_ident(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A PascalCase type name for `name` (an XML NCName).
pub fn type_name(name: &str) -> String {
    let s: String = words(name).iter().map(|w| capitalize(w)).collect();
    let s = ascii_ident(&s);
    let s = if s.is_empty() { "Type".to_owned() } else { s };
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("T{s}")
    } else if s == "Self" {
        "Self_".to_owned()
    } else {
        s
    }
}

/// A snake_case field, parameter or method name for `name`.
pub fn field_name(name: &str) -> String {
    let s = words(name)
        .iter()
        .map(|w| w.to_lowercase())
        .collect::<Vec<_>>()
        .join("_");
    let s = ascii_ident(&s);
    let s = if s.is_empty() { "value".to_owned() } else { s };
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("_{s}")
    } else {
        s
    }
}

/// Makes `ident` usable: raw identifier for keywords, `_` suffix where raw is not allowed.
pub fn escape_keyword(ident: &str) -> String {
    match ident {
        "self" | "Self" | "super" | "crate" | "_" => format!("{ident}_"),
        k if KEYWORDS.contains(&k) => format!("r#{k}"),
        _ => ident.to_owned(),
    }
}

/// A variant name for an enumeration value (XML Schema Part 2 §4.3.5), which may be any string:
/// `+` → `Plus`, `` → `Empty`, `1st` → `V1st`, `a b` → `AB`.
///
/// Each of the value's [`words`] starts with a capital: a word in capitals only is one word
/// (`INVALID_LOGIN` → `InvalidLogin`, `USD` → `Usd`, as type names spell acronyms), a word with
/// small letters keeps its inner capitals (`iPhone` → `IPhone`).
pub fn variant_name(value: &str) -> String {
    let named = match value {
        "" => Some("Empty"),
        "+" => Some("Plus"),
        "-" => Some("Minus"),
        "*" => Some("Star"),
        "/" => Some("Slash"),
        "=" => Some("Equals"),
        "<" => Some("Less"),
        ">" => Some("Greater"),
        "<=" => Some("LessOrEqual"),
        ">=" => Some("GreaterOrEqual"),
        "!=" => Some("NotEqual"),
        "." => Some("Dot"),
        "%" => Some("Percent"),
        "&" => Some("Ampersand"),
        "#" => Some("Hash"),
        "@" => Some("At"),
        _ => None,
    };
    if let Some(n) = named {
        return n.to_owned();
    }
    let s: String = words(value)
        .iter()
        .map(|w| {
            let mut cs = w.chars();
            match cs.next() {
                // A word in capitals (`INVALID` of `INVALID_LOGIN`) is spelled as a type name
                // spells it; inner capitals of values such as `iPhone` are kept.
                Some(f) if w.chars().any(char::is_lowercase) => {
                    f.to_uppercase().collect::<String>() + cs.as_str()
                }
                Some(_) => capitalize(w),
                None => String::new(),
            }
        })
        .collect();
    let s = ascii_ident(&s);
    if s.is_empty() || s.chars().all(|c| c == '_') {
        // Punctuation only: spell the code points.
        return format!(
            "U{}",
            value
                .chars()
                .map(|c| format!("{:X}", c as u32))
                .collect::<Vec<_>>()
                .join("_")
        );
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("V{s}")
    } else if s == "Self" {
        "Self_".to_owned()
    } else {
        s
    }
}

/// Hands out unique names in one scope.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    used: BTreeMap<String, u32>,
}

impl Scope {
    /// An empty scope.
    pub fn new() -> Self {
        Scope::default()
    }

    /// A scope in which `reserved` names are taken already.
    pub fn with_reserved(reserved: &[&str]) -> Self {
        let mut s = Scope::new();
        for r in reserved {
            s.unique(r);
        }
        s
    }

    /// Whether `name` is taken (compared as [`unique`](Self::unique) compares).
    pub fn is_taken(&self, name: &str) -> bool {
        self.used
            .contains_key(&name.to_lowercase().replace('_', ""))
    }

    /// `base`, or `base2`, `base3`… if taken (`base_2`… when `base` ends with a digit:
    /// `soap12_2`, `Sha256_2`). Comparison ignores case and `_`, so `Foo` and `foo`, or `a_b`
    /// and `ab`, never meet.
    pub fn unique(&mut self, base: &str) -> String {
        let key = |s: &str| s.to_lowercase().replace('_', "");
        let sep = if base.ends_with(|c: char| c.is_ascii_digit()) {
            "_"
        } else {
            ""
        };
        let mut candidate = base.to_owned();
        let mut n = 1;
        while self.used.contains_key(&key(&candidate)) {
            n += 1;
            candidate = format!("{base}{sep}{n}");
        }
        self.used.insert(key(&candidate), 1);
        candidate
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(
            words("getHTTPResponse_v2"),
            ["get", "HTTP", "Response", "v2"]
        );
        assert_eq!(type_name("get_weather"), "GetWeather");
        assert_eq!(field_name("IPv4Address"), "ipv4_address");
        assert_eq!(field_name("Dot1X"), "dot1x");
        assert_eq!(field_name("Sha256Hash"), "sha256_hash");
        assert_eq!(field_name("HTTPResponse"), "http_response");
        assert_eq!(field_name("userIDs"), "user_ids");
        assert_eq!(type_name("IPv6"), "Ipv6");
        let mut scope = Scope::new();
        assert_eq!(scope.unique("soap12"), "soap12");
        assert_eq!(scope.unique("soap12"), "soap12_2");
        assert_eq!(scope.unique("Sha256"), "Sha256");
        assert_eq!(scope.unique("sha_256"), "sha_256_2");
        assert_eq!(type_name("HTTPHeader"), "HttpHeader");
        assert_eq!(type_name("3dPoint"), "T3dPoint");
        assert_eq!(field_name("CityName"), "city_name");
        assert_eq!(field_name("2ndLine"), "_2nd_line");
        assert_eq!(escape_keyword("type"), "r#type");
        assert_eq!(escape_keyword("self"), "self_");
        assert_eq!(variant_name("+"), "Plus");
        assert_eq!(variant_name(""), "Empty");
        assert_eq!(variant_name("1st"), "V1st");
        assert_eq!(variant_name("iPhone"), "IPhone");
        assert_eq!(variant_name("a b"), "AB");
        assert_eq!(variant_name("§"), "UA7");
        assert_eq!(words("INVALID_LOGIN"), ["INVALID", "LOGIN"]);
        assert_eq!(variant_name("INVALID_LOGIN"), "InvalidLogin");
        assert_eq!(
            variant_name("INVALID_LOGIN_CREDENTIALS"),
            "InvalidLoginCredentials"
        );
        assert_eq!(variant_name("USD"), "Usd");
        assert_eq!(variant_name("A"), "A");
        assert_eq!(variant_name("eBay"), "EBay");
        assert_eq!(variant_name("HTTP2"), "Http2");
        let mut s = Scope::new();
        assert_eq!(s.unique("Foo"), "Foo");
        assert_eq!(s.unique("foo"), "foo2");
        assert_eq!(s.unique("Foo"), "Foo3");
    }
}
