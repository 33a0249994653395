//! Finding and reading documents: files relative to the document that references them, absolute URLs
//! through a catalog (the user's entries first, then the standard schemas bundled with soapgen).
//! Offline always: nothing is fetched over the network.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::catalog;

/// Where a document comes from: its identity, so each is read once.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Source {
    /// A file on disk (made absolute and normalised).
    File(PathBuf),
    /// A schema bundled with soapgen, by its canonical URL.
    Bundled(&'static str),
}

impl Source {
    /// The name used in error locations.
    pub fn display(&self) -> String {
        match self {
            Source::File(p) => p.display().to_string(),
            Source::Bundled(url) => format!("{url} (bundled)"),
        }
    }
}

/// The name of the catalog file `soapgen fetch` writes beside the documents it downloads; a
/// [`Builder`](crate::Builder) reads one found next to the entry WSDL without being told.
pub const CATALOG_FILE_NAME: &str = "soapgen.catalog";

/// Maps absolute URLs of schemas and WSDLs to local files (an XML catalog in spirit).
///
/// A file mapped from a URL also takes that URL as its base: relative `location`s and
/// `schemaLocation`s inside it are joined to the URL (RFC 3986 §5.2) and looked up in the catalog
/// first, so a downloaded tree resolves as it did on its server (see [`Loader::resolve`]).
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    entries: BTreeMap<String, PathBuf>,
    /// (file made absolute and normalised, URL), in the order added: a file's base URL is the last
    /// URL mapped to it.
    bases: Vec<(PathBuf, String)>,
}

impl Catalog {
    /// Maps `url` to the file at `path` (a relative path is relative to the current directory).
    pub fn add(&mut self, url: impl Into<String>, path: impl Into<PathBuf>) {
        let url = url.into();
        let path = path.into();
        self.bases.push((absolute(&path), url.trim().to_owned()));
        self.entries.insert(normalize_url(&url), path);
    }

    /// The file mapped to `url`, if any.
    pub fn lookup(&self, url: &str) -> Option<&Path> {
        self.entries.get(&normalize_url(url)).map(PathBuf::as_path)
    }

    /// The URL a file was mapped from (the last one, if several map to it): the base against which
    /// its relative references resolve.
    pub fn base_url_of(&self, file: &Path) -> Option<&str> {
        let file = absolute(file);
        self.bases
            .iter()
            .rev()
            .find(|(p, _)| *p == file)
            .map(|(_, u)| u.as_str())
    }

    /// Reads a catalog file: one `URL=path` per line (`#` comments, blank lines ignored), paths
    /// relative to the file. The last `=` on a line separates the two, since URLs often carry `=` in
    /// their query (`?xsd=xsd0`) and local paths seldom do.
    ///
    /// # Errors
    ///
    /// An unreadable file or a line without `=`.
    pub fn read_file(&mut self, file: &Path) -> Result<()> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| Error::new(ErrorKind::Io(format!("{}: {e}", file.display())), None))?;
        let dir = file.parent().unwrap_or(Path::new("."));
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((url, path)) = line.rsplit_once('=') else {
                return Err(Error::new(
                    ErrorKind::Invalid(format!("catalog line is not URL=path: {line:?}")),
                    Some(Loc {
                        file: file.display().to_string().into(),
                        line: i as u32 + 1,
                        column: 1,
                    }),
                ));
            };
            self.add(url.trim(), dir.join(path.trim()));
        }
        Ok(())
    }
}

/// `p` made absolute (against the current directory) and lexically normalised.
fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        normalize_path(p)
    } else {
        match std::env::current_dir() {
            Ok(cwd) => normalize_path(&cwd.join(p)),
            Err(_) => normalize_path(p),
        }
    }
}

/// `url` as a key that names one document: http and https are the same document; a trailing `/`
/// or `#` does not change it.
pub fn normalize_url(url: &str) -> String {
    let u = url.trim();
    let u = u
        .strip_prefix("https://")
        .map(|r| format!("http://{r}"))
        .unwrap_or_else(|| u.to_owned());
    u.trim_end_matches(['/', '#']).to_owned()
}

fn is_absolute_url(s: &str) -> bool {
    match s.find(':') {
        // A one-letter scheme is a Windows drive letter, not a URL.
        Some(i) if i > 1 => s[..i]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')),
        _ => false,
    }
}

/// Lexically normalises a path (`a/./b/../c` → `a/c`) without touching the file system.
fn normalize_path(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Joins a reference to a base URL (RFC 3986 §5.2.2, for the hierarchical `scheme://authority/path`
/// URLs WSDLs are served from): absolute references are returned as they are, `//host/…`
/// takes the base's scheme, `?query` keeps the base's path, `/path` its authority, and other
/// paths are merged with the base's directory and cleared of `.` and `..` segments. A fragment
/// on the reference is dropped (it names a part of a document, not another document).
pub fn join_url(base: &str, reference: &str) -> String {
    let reference = reference.trim();
    if is_absolute_url(reference) {
        return reference.to_owned();
    }
    let reference = reference.split('#').next().unwrap_or("");
    let (scheme, after) = match base.find("://") {
        Some(i) => (&base[..i], &base[i + 3..]),
        None => ("", base),
    };
    let authority_end = if scheme.is_empty() {
        0
    } else {
        after.find(['/', '?', '#']).unwrap_or(after.len())
    };
    let (authority, rest) = after.split_at(authority_end);
    let rest = rest.split('#').next().unwrap_or("");
    let (base_path, base_query) = match rest.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (rest, None),
    };
    if let Some(network) = reference.strip_prefix("//") {
        return format!("{scheme}://{network}");
    }
    let (ref_path, ref_query) = match reference.split_once('?') {
        Some((p, q)) => (p, Some(q)),
        None => (reference, None),
    };
    let (path, query) = if ref_path.is_empty() {
        (base_path.to_owned(), ref_query.or(base_query))
    } else if ref_path.starts_with('/') {
        (remove_dot_segments(ref_path), ref_query)
    } else {
        let merged = if !authority.is_empty() && base_path.is_empty() {
            format!("/{ref_path}")
        } else {
            match base_path.rfind('/') {
                Some(i) => format!("{}{ref_path}", &base_path[..=i]),
                None => ref_path.to_owned(),
            }
        };
        (remove_dot_segments(&merged), ref_query)
    };
    let mut out = if scheme.is_empty() {
        String::new()
    } else {
        format!("{scheme}://{authority}")
    };
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// RFC 3986 §5.2.4: `.` segments dropped, `..` removing the segment before it (never above the
/// root); a trailing `.` or `..` leaves a trailing `/`.
fn remove_dot_segments(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    let last = segments.len() - 1;
    for (i, seg) in segments.iter().enumerate() {
        match *seg {
            "." | ".." => {
                if *seg == ".." && parts.len() > 1 {
                    parts.pop();
                }
                if i == last {
                    parts.push("");
                }
            }
            s => parts.push(s),
        }
    }
    parts.join("/")
}

/// Reads documents and remembers every file read (for `cargo:rerun-if-changed`).
#[derive(Debug, Default)]
pub struct Loader {
    /// The user's catalog.
    pub catalog: Catalog,
    /// Every file read from disk, in order.
    pub files_read: Vec<PathBuf>,
    /// Documents held in memory, by absolute path: read instead of the file system.
    pub memory: std::collections::HashMap<PathBuf, Arc<str>>,
}

impl Loader {
    /// A loader with `catalog`.
    pub fn new(catalog: Catalog) -> Self {
        Loader {
            catalog,
            files_read: Vec::new(),
            memory: std::collections::HashMap::new(),
        }
    }

    /// The source of an entry document given by the user (a path).
    ///
    /// # Errors
    ///
    /// The file does not exist.
    pub fn entry(&self, path: &Path) -> Result<Source> {
        let text = path.to_string_lossy();
        if text.starts_with("http://") || text.starts_with("https://") {
            return Err(
                Error::new(ErrorKind::Io(format!("{text}: a URL, not a file")), None).with_hint(
                    "soapgen works offline: save the WSDL and what it imports to files first, \
                     then point it at the file",
                ),
            );
        }
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| Error::new(ErrorKind::Io(e.to_string()), None))?
                .join(path)
        };
        Ok(Source::File(normalize_path(&abs)))
    }

    /// Resolves `location` as written in `base` (an import's `location`/`schemaLocation`).
    ///
    /// Relative references resolve against the referencing document (not the entry WSDL): if the
    /// catalog maps a URL to that document, against the URL, looked up in the catalog (and the
    /// bundled schemas), else against the document's folder on disk. Absolute URLs go through the
    /// user's catalog, then the bundled standard schemas.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::MissingImport`] with a hint naming the catalog entry to add.
    pub fn resolve(&self, base: &Source, location: &str, at: &Loc) -> Result<Source> {
        let location = location.trim();
        if let Some(path) = location.strip_prefix("file://") {
            return Ok(Source::File(normalize_path(Path::new(path))));
        }
        if is_absolute_url(location) {
            return self.resolve_url(location, at);
        }
        match base {
            Source::File(p) => {
                // A file mapped from a URL (a downloaded tree): its references resolve against
                // that URL, through the catalog, as they did on the server.
                if let Some(url) = self.catalog.base_url_of(p) {
                    let joined = join_url(url, location);
                    if let Some(found) = self.catalog.lookup(&joined) {
                        return Ok(Source::File(absolute(found)));
                    }
                    if let Some(b) = catalog::bundled_by_url(&joined) {
                        return Ok(Source::Bundled(b.urls[0]));
                    }
                }
                let dir = p.parent().unwrap_or(Path::new("/"));
                // Relative references are URI references: undo percent-encoding of spaces etc.
                let decoded = percent_decode(location);
                let target =
                    normalize_path(&dir.join(decoded.split(['?', '#']).next().unwrap_or("")));
                // A location written relative to something else than its document (Apache
                // CXF's tests import `src/test/resources/…`, relative to their Maven module):
                // a catalog entry for the location as written maps it.
                if !target.exists() {
                    if let Some(found) = self.catalog.lookup(location) {
                        return Ok(Source::File(absolute(found)));
                    }
                }
                Ok(Source::File(target))
            }
            Source::Bundled(url) => self.resolve_url(&join_url(url, location), at),
        }
    }

    fn resolve_url(&self, url: &str, at: &Loc) -> Result<Source> {
        if let Some(p) = self.catalog.lookup(url) {
            return Ok(Source::File(absolute(p)));
        }
        if let Some(b) = catalog::bundled_by_url(url) {
            return Ok(Source::Bundled(b.urls[0]));
        }
        Err(Error::at(
            ErrorKind::MissingImport {
                location: url.to_owned(),
                resolved: "the catalog and the schemas bundled with soapgen".to_owned(),
            },
            at,
        )
        .with_hint(format!(
            "download it once and map it in the catalog: Builder::catalog_entry(\"{url}\", \"path/to/file.xsd\") \
             in build.rs, or `--catalog {url}=path/to/file.xsd` on the command line"
        )))
    }

    /// The bundled schema for a namespace imported without `schemaLocation`, if soapgen has one.
    pub fn bundled_for_namespace(&self, ns: &str) -> Option<Source> {
        catalog::bundled_by_namespace(ns).map(|b| Source::Bundled(b.urls[0]))
    }

    /// Reads a document's text and its display name.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::MissingImport`] if a file does not exist (with the referencing location),
    /// [`ErrorKind::Io`] for other read errors.
    pub fn read(
        &mut self,
        src: &Source,
        referenced_as: Option<(&str, &Loc)>,
    ) -> Result<(Arc<str>, Arc<str>)> {
        if let Source::File(p) = src {
            if let Some(text) = self.memory.get(p) {
                return Ok((p.display().to_string().into(), text.clone()));
            }
        }
        match src {
            Source::File(p) => match std::fs::read(p) {
                Ok(bytes) => {
                    self.files_read.push(p.clone());
                    let text = decode_text(bytes).map_err(|e| match e.at {
                        Some((line, column)) => Error::new(
                            ErrorKind::Xml(e.message),
                            Some(Loc {
                                file: p.display().to_string().into(),
                                line,
                                column,
                            }),
                        ),
                        None => Error::new(
                            ErrorKind::Io(format!("{}: {}", p.display(), e.message)),
                            None,
                        ),
                    })?;
                    Ok((p.display().to_string().into(), text.into()))
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => match referenced_as {
                    Some((location, loc)) => {
                        let hint = match self.catalog.base_url_of(p) {
                            // The catalog's own entry names a file that is not there.
                            Some(url) => format!(
                                "the catalog maps {url} to {}, which does not exist: correct \
                                 that entry's path (relative paths are taken from the working \
                                 directory, or from the catalog file's folder)",
                                p.display()
                            ),
                            None => "relative locations resolve against the folder of the \
                                     document that contains the import; to map one written \
                                     relative to something else, add a catalog entry for the \
                                     location as written (`--catalog LOCATION=PATH`)"
                                .to_owned(),
                        };
                        Err(Error::at(
                            ErrorKind::MissingImport {
                                location: location.to_owned(),
                                resolved: p.display().to_string(),
                            },
                            loc,
                        )
                        .with_hint(hint))
                    }
                    None => Err(Error::new(
                        ErrorKind::Io(format!("{}: no such file", p.display())),
                        None,
                    )),
                },
                Err(e) => Err(Error::new(
                    ErrorKind::Io(format!("{}: {e}", p.display())),
                    referenced_as.map(|(_, l)| l.clone()),
                )),
            },
            Source::Bundled(url) => {
                let b = catalog::bundled_by_url(url).ok_or_else(|| {
                    Error::new(ErrorKind::Io(format!("bundled schema {url} missing")), None)
                })?;
                Ok((src.display().into(), b.text.into()))
            }
        }
    }
}

/// A document's text (XML 1.0 §4.3.3 and Appendix F): UTF-16 with a byte order mark, or without
/// one when the document starts with `<?` in UTF-16; else the
/// encoding its XML declaration names (ISO-8859-1, windows-1252, Shift_JIS…: any label of the
/// WHATWG Encoding Standard, decoded by `encoding_rs`); else UTF-8 (a BOM is dropped). Bytes that
/// are not valid in the encoding are an error that gives their line and column.
///
/// # Errors
///
/// [`TextError`]: invalid UTF-16 or UTF-8, an unknown encoding label, a UTF-16 declaration on
/// 8-bit content, bytes that are not text in the declared encoding.
pub fn decode_text(bytes: Vec<u8>) -> std::result::Result<String, TextError> {
    let whole = |message: String| TextError { message, at: None };
    let utf16 = |le: bool, from: usize| {
        let units: Vec<u16> = bytes[from..]
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16(&units).map_err(|e| whole(format!("invalid UTF-16: {e}")))
    };
    match bytes.get(..4) {
        Some([0xFF, 0xFE, ..]) => return utf16(true, 2),
        Some([0xFE, 0xFF, ..]) => return utf16(false, 2),
        // `<?` in UTF-16 without a byte order mark (XML 1.0 Appendix F.1).
        Some([0x3C, 0, 0x3F, 0]) => return utf16(true, 0),
        Some([0, 0x3C, 0, 0x3F]) => return utf16(false, 0),
        // `<?xm` in EBCDIC (XML 1.0 Appendix F.1): a mainframe's file, not converted.
        Some([0x4C, 0x6F, 0xA7, 0x94]) => {
            return Err(TextError {
                message: "the document is in EBCDIC (it starts with `<?xm` in an EBCDIC code \
                          page, XML 1.0 Appendix F.1), which soapgen does not read: convert it \
                          to UTF-8 first, with the code page its XML declaration names (iconv \
                          -f IBM037 -t UTF-8, or IBM1047, IBM500…), and correct the declaration"
                    .to_owned(),
                at: Some(line_column(&bytes, 0)),
            })
        }
        _ => {}
    }
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(&bytes);
    let declared = declared_encoding(body);
    let encoding = match &declared {
        // The declaration was read as ASCII: a UTF-16 document would have needed a byte order
        // mark to be read so (XML 1.0 §4.3.3), so the declaration is wrong.
        Some(label) if label.to_ascii_lowercase().starts_with("utf-16") => {
            return Err(TextError {
                message: format!(
                    "the XML declaration says {label:?}, but the document has no byte order mark \
                     and 8-bit content (a UTF-16 document starts with FF FE or FE FF, XML 1.0 \
                     §4.3.3): correct the declaration (to UTF-8, if that is what the file is)"
                ),
                at: Some(line_column(body, 0)),
            })
        }
        None => encoding_rs::UTF_8,
        Some(label) => {
            encoding_rs::Encoding::for_label(label.as_bytes()).ok_or_else(|| TextError {
                message: format!("the XML declaration names the unknown encoding {label:?}"),
                at: Some(line_column(body, 0)),
            })?
        }
    };
    if encoding == encoding_rs::UTF_8 || body.len() < bytes.len() {
        return String::from_utf8(body.to_vec()).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            TextError {
                message: format!(
                    "invalid UTF-8 (byte {at}; a document in another encoding names it in its XML \
                     declaration, <?xml version=\"1.0\" encoding=\"…\"?>)"
                ),
                at: Some(line_column(body, at)),
            }
        });
    }
    match encoding.decode_without_bom_handling_and_without_replacement(body) {
        Some(text) => Ok(text.into_owned()),
        None => {
            // Where: the first byte the decoder cannot take.
            let mut decoder = encoding.new_decoder_without_bom_handling();
            let mut out = String::with_capacity(body.len() * 3);
            let (_, read) = decoder.decode_to_string_without_replacement(body, &mut out, true);
            Err(TextError {
                message: format!("bytes that are not {}", encoding.name()),
                at: Some(line_column(body, read.saturating_sub(1))),
            })
        }
    }
}

/// The `encoding` of an XML declaration at the start of `body` (an ASCII-compatible encoding's
/// bytes), if it names one (XML 1.0 §2.8 EncodingDecl).
fn declared_encoding(body: &[u8]) -> Option<String> {
    let decl = body.strip_prefix(b"<?xml")?;
    let end = decl.windows(2).position(|w| w == b"?>")?;
    let decl = std::str::from_utf8(&decl[..end]).ok()?;
    let at = decl.find("encoding")?;
    let rest = decl[at + "encoding".len()..]
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let quote = rest.chars().next().filter(|q| *q == '"' || *q == '\'')?;
    let value = &rest[1..];
    Some(value[..value.find(quote)?].to_owned())
}

/// Why a document's bytes are not text ([`decode_text`]), and where, as (line, column).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    /// What is wrong.
    pub message: String,
    /// The 1-based line and column of the first byte that is wrong, when one is.
    pub at: Option<(u32, u32)>,
}

impl std::error::Error for TextError {}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at {
            Some((line, column)) => write!(f, "{} at line {line}, column {column}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// The 1-based line and column of byte `at` of `text` (columns count characters: bytes that do
/// not continue a UTF-8 sequence).
pub fn line_column(text: &[u8], at: usize) -> (u32, u32) {
    let before = &text[..at.min(text.len())];
    let line_start = before
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let column = before[line_start..]
        .iter()
        .filter(|b| (**b & 0xC0) != 0x80)
        .count()
        + 1;
    (line as u32, column as u32)
}

/// Undoes `%XX` escapes (RFC 3986 §2.1); malformed escapes are kept as they are, and a
/// reference whose escapes are not UTF-8 is kept whole.
fn percent_decode(s: &str) -> String {
    percent_encoding::percent_decode_str(s)
        .decode_utf8()
        .map_or_else(|_| s.to_owned(), std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ebcdic_document_is_named_as_such() {
        // `<?xml version="1.0" encoding="IBM037"?><a/>` in IBM037.
        let e = decode_text(b"\x4c\x6f\xa7\x94\x93\x40\xa5\x85\x99\xa2\x89\x96\x95\x7e\x7f\xf1\x4b\xf0\x7f\x40\x85\x95\x83\x96\x84\x89\x95\x87\x7e\x7f\xc9\xc2\xd4\xf0\xf3\xf7\x7f\x6f\x6e\x4c\x81\x61\x6e".to_vec()).unwrap_err();
        assert_eq!(e.at, Some((1, 1)));
        let e = e.to_string();
        assert!(e.contains("EBCDIC") && e.contains("iconv"), "{e}");
    }

    #[test]
    fn documents_are_decoded_as_their_declaration_or_byte_order_mark_says() {
        let latin1 = b"<?xml version='1.0' encoding=\"ISO-8859-1\"?>\n<a>caf\xe9</a>".to_vec();
        assert!(decode_text(latin1).unwrap().ends_with("<a>caf\u{e9}</a>"));
        let plain = "<?xml version=\"1.0\"?><a>caf\u{e9}</a>"
            .as_bytes()
            .to_vec();
        assert!(decode_text(plain).unwrap().contains("caf\u{e9}"));
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(b"<a/>");
        assert_eq!(decode_text(bom).unwrap(), "<a/>");
        let mut le = vec![0xFF, 0xFE];
        le.extend("<a/>".encode_utf16().flat_map(u16::to_le_bytes));
        assert_eq!(decode_text(le).unwrap(), "<a/>");
        // Undeclared Latin-1 is not UTF-8: the error says where.
        let e = decode_text(b"<a>\n  caf\xe9</a>".to_vec()).unwrap_err();
        assert_eq!(e.at, Some((2, 6)));
        let e = e.to_string();
        assert!(
            e.contains("line 2, column 6") && e.contains("encoding="),
            "{e}"
        );
        let bare: Vec<u8> = "<?xml version='1.0'?><a/>"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(decode_text(bare).unwrap(), "<?xml version='1.0'?><a/>");
        let e = decode_text(b"<?xml version='1.0' encoding='utf-16'?><a/>".to_vec())
            .unwrap_err()
            .to_string();
        assert!(e.contains("no byte order mark"), "{e}");
        let e = decode_text(b"<?xml version='1.0' encoding='x-nonsense'?><a/>".to_vec())
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown encoding \"x-nonsense\""), "{e}");
        let e = decode_text(b"<?xml version='1.0' encoding='Shift_JIS'?>\n<a>\x81</a>".to_vec())
            .unwrap_err()
            .to_string();
        assert!(e.contains("Shift_JIS at line 2"), "{e}");
    }

    #[test]
    fn url_joining_and_normalising() {
        assert_eq!(
            join_url("http://a.org/x/y/z.xsd", "../w.xsd"),
            "http://a.org/x/w.xsd"
        );
        assert_eq!(
            join_url("http://a.org/x/y.xsd", "q.xsd"),
            "http://a.org/x/q.xsd"
        );
        assert_eq!(
            join_url("http://a.org/x/y.xsd", "/r.xsd"),
            "http://a.org/r.xsd"
        );
        for (base, reference, joined) in [
            // A query-only reference keeps the base's path (WCF's `?xsd=xsd0`).
            (
                "http://h/service/?wsdl",
                "?xsd=xsd1",
                "http://h/service/?xsd=xsd1",
            ),
            (
                "http://h/Service.svc?wsdl",
                "?xsd=xsd0",
                "http://h/Service.svc?xsd=xsd0",
            ),
            (
                "http://h/service/?wsdl",
                "../schemas/a.xsd",
                "http://h/schemas/a.xsd",
            ),
            // A `/` in the base's query is not a path separator.
            ("http://h/a/b?x=/y/z", "c.xsd", "http://h/a/c.xsd"),
            ("http://h?wsdl", "a.xsd", "http://h/a.xsd"),
            ("http://h/a/b.wsdl", "//other/x.xsd", "http://other/x.xsd"),
            ("http://h/a/b.wsdl", "c.xsd#part", "http://h/a/c.xsd"),
            ("http://h/a/b/c", "../../../../x", "http://h/x"),
            ("http://h/a/b/c", "..", "http://h/a/"),
            ("http://h/a/b.wsdl", "x.xsd?v=1", "http://h/a/x.xsd?v=1"),
            ("http://h/a/b.wsdl", "urn:x:y", "urn:x:y"),
        ] {
            assert_eq!(join_url(base, reference), joined, "{base} + {reference}");
        }
        assert_eq!(normalize_url("https://a.org/ns/"), "http://a.org/ns");
        assert!(is_absolute_url("http://x"));
        assert!(!is_absolute_url("C:\\x"));
        assert!(!is_absolute_url("../a.xsd"));
        assert_eq!(percent_decode("a%20b.xsd"), "a b.xsd");
        assert_eq!(percent_decode("a%2"), "a%2");
        assert_eq!(percent_decode("x%C3%A9%zz.xsd"), "xé%zz.xsd");
        assert_eq!(percent_decode("%FF.xsd"), "%FF.xsd");
        let mut c = Catalog::default();
        c.add("http://h/a.xsd", "/d/a.xsd");
        c.add("http://h/b.xsd", "/d/./b.xsd");
        c.add("https://h/b2.xsd", "/d/b.xsd");
        assert_eq!(c.lookup("https://h/a.xsd/"), Some(Path::new("/d/a.xsd")));
        assert_eq!(c.base_url_of(Path::new("/d/a.xsd")), Some("http://h/a.xsd"));
        // The last URL mapped to a file is its base.
        assert_eq!(
            c.base_url_of(Path::new("/d/b.xsd")),
            Some("https://h/b2.xsd")
        );
        assert_eq!(c.base_url_of(Path::new("/d/c.xsd")), None);
        assert_eq!(
            normalize_path(Path::new("/a/b/./c/../d.xsd")),
            PathBuf::from("/a/b/d.xsd")
        );
    }
}
