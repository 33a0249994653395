//! Local file names for fetched documents: short, meaningful, and valid on every platform
//! (no characters Windows or POSIX refuse, no Windows reserved device names), derived from the
//! document's URL (RFC 3986 §3.3 path segment, percent-decoded per §2.1, and §3.4 query), and
//! kept apart when two URLs give one name.

use percent_encoding::percent_decode_str;
use std::collections::HashSet;

use super::document::DocKind;

/// The longest file name [`file_name_for`] produces, in bytes (extension included).
pub const MAX_FILE_NAME_LEN: usize = 64;

/// A local file name for the document at `url`: short, meaningful, and valid on every platform.
///
/// Built from the URL's last path segment (percent-decoded; the host when the path is empty), with
/// its `.wsdl`/`.xsd`/`.xml` extension replaced by `kind`'s, plus the query when it says more than
/// "wsdl" (`?xsd=xsd0` → `-xsd-xsd0`); a long segment or query is cut and a hash of it (8 hex
/// digits, FNV-1a) added, so the name stays within [`MAX_FILE_NAME_LEN`] bytes and distinct URLs
/// stay apart.
///
/// The name holds only ASCII letters, digits, `.`, `-` and `_` (so none of `<>:"/\|?*`, control
/// characters or spaces), does not begin with `.` or `-`, does not end with `.` or a space, and is
/// never a Windows reserved device name (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, in any case,
/// with any extension): `con.service?wsdl` becomes `con_.service.wsdl`.
///
/// Two URLs can give one name (`a/types.xsd`, `b/types.xsd`): [`fetch`](super::fetch) tells them apart by the
/// parent folder or a hash.
///
/// # Examples
///
/// ```
/// use soapgen_cli::fetch::{file_name_for, DocKind};
/// assert_eq!(file_name_for("http://server/service/?q=wsdl", DocKind::Wsdl), "service-q-wsdl.wsdl");
/// assert_eq!(file_name_for("http://server/Service.svc?wsdl", DocKind::Wsdl), "Service.svc.wsdl");
/// assert_eq!(file_name_for("http://server/Service.svc?xsd=xsd0", DocKind::Schema), "Service.svc-xsd-xsd0.xsd");
/// assert_eq!(file_name_for("http://server/x/con.service?wsdl", DocKind::Wsdl), "con_.service.wsdl");
/// assert_eq!(file_name_for("https://server:8443/?wsdl", DocKind::Wsdl), "server.wsdl");
/// ```
pub fn file_name_for(url: &str, kind: DocKind) -> String {
    let parts = UrlParts::of(url);
    compose(None, &parts.stem, &parts.suffix, kind)
}

/// The pieces of a URL a file name is made of.
struct UrlParts {
    host: String,
    parent: Option<String>,
    stem: String,
    suffix: String,
}

impl UrlParts {
    fn of(url: &str) -> Self {
        let url = url.trim();
        let after = url.split_once("://").map_or(url, |(_, r)| r);
        let after = after.split('#').next().unwrap_or("");
        let (before_query, query) = match after.split_once('?') {
            Some((b, q)) => (b, q),
            None => (after, ""),
        };
        let (authority, path) =
            before_query.split_at(before_query.find('/').unwrap_or(before_query.len()));
        let host = authority.rsplit('@').next().unwrap_or("");
        let host = match host.strip_prefix('[') {
            // An IPv6 literal: [::1]:8080.
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => host.split(':').next().unwrap_or(""),
        };
        let host = sanitize(host);
        let segments: Vec<String> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(percent_decode)
            .collect();
        let last = segments.last().cloned().unwrap_or_default();
        let lower = last.to_ascii_lowercase();
        let without_ext = [".wsdl", ".xsd", ".xml"]
            .iter()
            .find(|e| lower.ends_with(*e) && lower.len() > e.len())
            .map_or(last.as_str(), |e| &last[..last.len() - e.len()]);
        let mut stem = sanitize(without_ext);
        if stem.is_empty() {
            stem = host.clone();
        }
        if stem.is_empty() {
            stem = "document".to_owned();
        }
        let parent = segments
            .len()
            .checked_sub(2)
            .map(|i| sanitize(&segments[i]))
            .filter(|p| !p.is_empty());
        let q = sanitize(&percent_decode(query));
        let suffix = if q.is_empty()
            || ["wsdl", "xsd", "singlewsdl"]
                .iter()
                .any(|w| q.eq_ignore_ascii_case(w))
        {
            String::new()
        } else if q.len() <= 24 {
            format!("-{q}")
        } else {
            let head = q[..15].trim_end_matches(['-', '_', '.']);
            format!("-{head}-{}", hash8(query.as_bytes()))
        };
        UrlParts {
            host,
            parent,
            stem,
            suffix,
        }
    }
}

/// `[prefix-]stem[suffix].ext`, within [`MAX_FILE_NAME_LEN`], never a reserved device name.
fn compose(prefix: Option<&str>, stem: &str, suffix: &str, kind: DocKind) -> String {
    let ext = kind.extension();
    let mut base = match prefix {
        Some(p) => format!("{p}-{stem}"),
        None => stem.to_owned(),
    };
    // Room for the suffix, the extension and a possible `_` after a reserved name.
    let room = MAX_FILE_NAME_LEN - ext.len() - 2;
    if base.len() + suffix.len() > room {
        let keep = room.saturating_sub(suffix.len() + 9).max(8).min(base.len());
        let hash = hash8(base.as_bytes());
        base.truncate(keep);
        let trimmed = base.trim_end_matches(['-', '_', '.']).len();
        base.truncate(trimmed);
        base = format!("{base}-{hash}");
    }
    // The suffix is at most 25 bytes (see `UrlParts::of`), so this fits.
    avoid_reserved(format!("{base}{suffix}.{ext}"))
}

/// Whether `first` (a name up to its first dot) is a Windows reserved device name.
fn is_reserved(first: &str) -> bool {
    let upper = first.trim_end_matches([' ', '.']).to_ascii_uppercase();
    match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$" => true,
        s if s.len() == 4 && (s.starts_with("COM") || s.starts_with("LPT")) => {
            s.as_bytes()[3].is_ascii_digit()
        }
        _ => false,
    }
}

/// `con.service.wsdl` → `con_.service.wsdl`: Windows treats a reserved name with any extension as
/// the device.
fn avoid_reserved(mut name: String) -> String {
    let first_len = name.find('.').unwrap_or(name.len());
    if is_reserved(&name[..first_len]) {
        name.insert(first_len, '_');
    }
    name
}

/// ASCII letters, digits, `.`, `-`, `_` kept; `=` → `-`; anything else → `_`; runs of `_`
/// collapsed; no `.`, `-` or `_` at either end.
fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' => c,
            '=' => '-',
            _ => '_',
        };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    out.trim_matches(['.', '-', '_']).to_owned()
}

/// Undoes `%XX` escapes (RFC 3986 §2.1); malformed escapes are kept as they are, bytes that are
/// not UTF-8 replaced.
fn percent_decode(s: &str) -> String {
    percent_decode_str(s).decode_utf8_lossy().into_owned()
}

/// 8 hex digits of the 64-bit FNV-1a hash of `bytes`, folded to 32 bits: stable across platforms and
/// releases.
fn hash8(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:08x}", (h ^ (h >> 32)) as u32)
}

/// Gives each document a name no other has, compared without case (Windows and macOS folders are
/// case-insensitive). On a clash the parent folder (or the host) is put in front; then a hash of the
/// whole URL is added.
#[derive(Debug, Default)]
pub(super) struct Namer {
    taken: HashSet<String>,
}

impl Namer {
    pub(super) fn assign(&mut self, url: &str, kind: DocKind) -> String {
        let parts = UrlParts::of(url);
        let mut candidates = vec![compose(None, &parts.stem, &parts.suffix, kind)];
        let context = parts.parent.as_deref().unwrap_or(&parts.host);
        if !context.is_empty() {
            candidates.push(compose(Some(context), &parts.stem, &parts.suffix, kind));
        }
        let hashed = format!("{}-{}", parts.stem, hash8(url.as_bytes()));
        candidates.push(compose(None, &hashed, &parts.suffix, kind));
        for c in candidates {
            if self.taken.insert(c.to_ascii_lowercase()) {
                return c;
            }
        }
        (2u32..)
            .map(|n| compose(None, &format!("{hashed}-{n}"), &parts.suffix, kind))
            .find(|c| self.taken.insert(c.to_ascii_lowercase()))
            .unwrap_or_else(|| unreachable!("an unbounded counter finds a free name"))
    }
}

/// Whether `name` is a file name valid on Windows, macOS and Linux alike (the test of
/// [`file_name_for`]'s promises).
#[cfg(test)]
fn is_portable(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_FILE_NAME_LEN
        && !name
            .chars()
            .any(|c| c.is_control() || "<>:\"/\\|?*".contains(c) || !c.is_ascii())
        && !name.ends_with(['.', ' '])
        && !name.starts_with(['.', '-', ' '])
        && !is_reserved(name.split('.').next().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_urls() {
        for (url, kind, name) in [
            (
                "http://server/service/?q=wsdl",
                DocKind::Wsdl,
                "service-q-wsdl.wsdl",
            ),
            ("http://server/service/?wsdl", DocKind::Wsdl, "service.wsdl"),
            ("http://server/service/?WSDL", DocKind::Wsdl, "service.wsdl"),
            (
                "http://server/Service.svc?singleWsdl",
                DocKind::Wsdl,
                "Service.svc.wsdl",
            ),
            (
                "http://server/Service.svc?xsd=xsd0",
                DocKind::Schema,
                "Service.svc-xsd-xsd0.xsd",
            ),
            ("http://server/a/b/types.xsd", DocKind::Schema, "types.xsd"),
            ("http://server/a/b/Types.XSD", DocKind::Schema, "Types.xsd"),
            (
                "http://server/a/my%20types.xsd",
                DocKind::Schema,
                "my_types.xsd",
            ),
            ("http://server/a/types.xml", DocKind::Schema, "types.xsd"),
            (
                "http://server/a/service.wsdl#frag",
                DocKind::Wsdl,
                "service.wsdl",
            ),
            ("https://server:8443/?wsdl", DocKind::Wsdl, "server.wsdl"),
            ("http://user:pw@server/", DocKind::Wsdl, "server.wsdl"),
            ("http://server/.hidden.xsd", DocKind::Schema, "hidden.xsd"),
            ("http://server/a/..wsdl", DocKind::Wsdl, "server.wsdl"),
            ("http://server/a/b.xsd?", DocKind::Schema, "b.xsd"),
            (
                "http://server/x/con.service?wsdl",
                DocKind::Wsdl,
                "con_.service.wsdl",
            ),
            ("http://server/%E2%82%AC.xsd", DocKind::Schema, "server.xsd"),
        ] {
            let got = file_name_for(url, kind);
            assert_eq!(got, name, "{url}");
            assert!(is_portable(&got), "{got}");
        }
        for odd in [
            "http://[::1]:8080/",
            "http://",
            "",
            "?",
            "http:///",
            "http://h/%",
            "http://h/%zz",
        ] {
            let got = file_name_for(odd, DocKind::Wsdl);
            assert!(is_portable(&got), "{odd:?} gave {got:?}");
        }
    }

    #[test]
    fn reserved_device_names_in_any_case_with_any_extension_are_avoided() {
        let mut reserved: Vec<String> = ["con", "prn", "aux", "nul"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for n in 0..=9 {
            reserved.push(format!("com{n}"));
            reserved.push(format!("lpt{n}"));
        }
        for r in reserved {
            for spelled in [r.clone(), r.to_ascii_uppercase(), {
                let mut c = r.clone();
                c[..1].make_ascii_uppercase();
                c
            }] {
                for tail in [
                    "",
                    ".xsd",
                    ".wsdl",
                    ".service",
                    ".tar.gz",
                    "?wsdl",
                    ".txt?xsd=1",
                ] {
                    let url = format!("http://h/dir/{spelled}{tail}");
                    for kind in [DocKind::Wsdl, DocKind::Schema] {
                        let name = file_name_for(&url, kind);
                        assert!(is_portable(&name), "{url} gave {name}");
                        assert!(
                            name.to_ascii_lowercase().starts_with(&format!("{r}_")),
                            "{url} gave {name}"
                        );
                    }
                }
            }
        }
        // Near misses stay as they are.
        for ok in ["console", "com10", "lpt", "nul1", "auxiliary", "comx"] {
            let name = file_name_for(&format!("http://h/{ok}.xsd"), DocKind::Schema);
            assert_eq!(name, format!("{ok}.xsd"));
        }
        assert!(is_reserved("CON"));
        assert!(is_reserved("Lpt9"));
        assert!(is_reserved("nul "));
        assert!(!is_reserved("COM"));
    }

    #[test]
    fn characters_invalid_on_windows_are_replaced() {
        for url in [
            "http://h/a<b>c.xsd",
            "http://h/a%3Cb%3Ec.xsd",
            "http://h/a:b.xsd",
            "http://h/a%22b%7Cc%3F*.xsd",
            "http://h/a%5Cb.xsd",
            "http://h/a%2Fb.xsd",
            "http://h/a%00b%1F%7F.xsd",
            "http://h/a%20.xsd",
            "http://h/trailing.%20",
            "http://h/x.xsd?a<b>|c=\"d\"*",
            "http://h/dots...",
        ] {
            for kind in [DocKind::Wsdl, DocKind::Schema] {
                let name = file_name_for(url, kind);
                assert!(is_portable(&name), "{url} gave {name:?}");
            }
        }
        assert_eq!(
            file_name_for("http://h/a%3Cb%3Ec.xsd", DocKind::Schema),
            "a_b_c.xsd"
        );
    }

    #[test]
    fn long_queries_and_paths_give_short_unique_names() {
        let long_a = format!("http://h/service/search?wsdl&token={}", "a".repeat(900));
        let long_b = format!("http://h/service/search?wsdl&token={}", "b".repeat(900));
        let a = file_name_for(&long_a, DocKind::Wsdl);
        let b = file_name_for(&long_b, DocKind::Wsdl);
        assert!(a.starts_with("search-wsdl_token-"), "{a}");
        assert!(a.len() <= MAX_FILE_NAME_LEN && b.len() <= MAX_FILE_NAME_LEN);
        assert!(is_portable(&a) && is_portable(&b));
        assert_ne!(a, b);
        let long_path_a = format!("http://h/{}.xsd", "segment".repeat(40));
        let long_path_b = format!("http://h/{}x.xsd", "segment".repeat(40));
        let pa = file_name_for(&long_path_a, DocKind::Schema);
        let pb = file_name_for(&long_path_b, DocKind::Schema);
        assert!(pa.starts_with("segmentsegment"), "{pa}");
        assert!(pa.len() <= MAX_FILE_NAME_LEN && is_portable(&pa), "{pa}");
        assert_ne!(pa, pb);
        // Both long at once.
        let both = format!("http://h/{}?{}", "p".repeat(300), "q=".repeat(450));
        let n = file_name_for(&both, DocKind::Wsdl);
        assert!(n.len() <= MAX_FILE_NAME_LEN && is_portable(&n), "{n}");
        // Deterministic.
        assert_eq!(file_name_for(&long_a, DocKind::Wsdl), a);
    }

    #[test]
    fn clashing_names_are_told_apart() {
        let mut namer = Namer::default();
        let names: Vec<String> = [
            ("http://h/v1/types.xsd", DocKind::Schema),
            ("http://h/v2/types.xsd", DocKind::Schema),
            ("http://other/v2/Types.xsd", DocKind::Schema),
            ("http://h/v2/types.xsd?x", DocKind::Schema),
            ("http://h/service/?wsdl", DocKind::Wsdl),
            ("http://h/service?wsdl", DocKind::Wsdl),
        ]
        .iter()
        .map(|(u, k)| namer.assign(u, *k))
        .collect();
        assert_eq!(names[0], "types.xsd");
        assert_eq!(names[1], "v2-types.xsd");
        assert!(names[2].starts_with("Types-"), "{}", names[2]);
        assert_eq!(names[3], "types-x.xsd");
        assert_eq!(names[4], "service.wsdl");
        assert_eq!(names[5], "h-service.wsdl");
        let lower: HashSet<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        assert_eq!(lower.len(), names.len());
        for n in &names {
            assert!(is_portable(n), "{n}");
        }
        // Many clashes still end in distinct names.
        let mut namer = Namer::default();
        let mut all = HashSet::new();
        for i in 0..50 {
            let n = namer.assign(&format!("http://h/d{}/x/types.xsd", i % 3), DocKind::Schema);
            assert!(all.insert(n.to_ascii_lowercase()), "{n} given twice");
        }
    }
}
