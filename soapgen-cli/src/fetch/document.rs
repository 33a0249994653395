//! What a downloaded document is (a WSDL or a schema, from its root element) and which documents it
//! references: `wsdl:import`/WSDL 2.0 `import` and `include` `@location`, `xs:import`,
//! `xs:include`, `xs:redefine` and `xs:override` `@schemaLocation`, each with its line. The text
//! is decoded and its depth checked as soapgen-build reads documents.

use soapgen_build::read::components::{WSDL, WSDL20, XS};
use soapgen_build::read::document::{too_deep, MAX_DEPTH};
use soapgen_build::read::loader::{decode_text, line_column};

use super::error::FetchError;
use super::http::Pending;

/// What a document is, from its root element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// `wsdl:definitions` (WSDL 1.1) or `description` (WSDL 2.0): stored as `.wsdl`.
    Wsdl,
    /// `xs:schema`: stored as `.xsd`.
    Schema,
}

impl DocKind {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            DocKind::Wsdl => "wsdl",
            DocKind::Schema => "xsd",
        }
    }
}

/// The document's kind and the locations it references, with their lines.
pub(super) fn references(
    p: &Pending,
    body: &[u8],
) -> Result<(DocKind, Vec<(String, u32)>), FetchError> {
    let bad = |message: String| FetchError::Document {
        url: p.url.clone(),
        message,
        imported_by: p.imported_by.clone(),
    };
    let text = decode_text(body.to_vec()).map_err(|e| bad(e.to_string()))?;
    if let Some(at) = too_deep(&text, MAX_DEPTH) {
        let (line, _) = line_column(text.as_bytes(), at);
        return Err(bad(format!(
            "elements nested deeper than {MAX_DEPTH} levels at line {line}"
        )));
    }
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, opts).map_err(|e| {
        bad(format!(
            "not well-formed XML ({e}); the response begins {:?}",
            excerpt(&text)
        ))
    })?;
    let root = doc.root_element();
    let (ns, name) = (
        root.tag_name().namespace().unwrap_or(""),
        root.tag_name().name(),
    );
    let kind = match (ns, name) {
        (WSDL, "definitions") | (WSDL20, "description") => DocKind::Wsdl,
        (XS, "schema") => DocKind::Schema,
        _ => {
            return Err(bad(format!(
                "not a WSDL or XML Schema document (root element {{{ns}}}{name})"
            )))
        }
    };
    let mut refs = Vec::new();
    for node in doc.descendants().filter(roxmltree::Node::is_element) {
        let t = node.tag_name();
        let attr = match (t.namespace().unwrap_or(""), t.name()) {
            (WSDL | WSDL20, "import" | "include") => "location",
            (XS, "import" | "include" | "redefine" | "override") => "schemaLocation",
            _ => continue,
        };
        if let Some(location) = node.attribute(attr).map(str::trim) {
            if !location.is_empty() {
                let line = doc.text_pos_at(node.range().start).row;
                refs.push((location.to_owned(), line));
            }
        }
    }
    Ok((kind, refs))
}

/// The first characters of a document, whitespace collapsed, for error messages.
fn excerpt(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    let mut out: String = joined.chars().take(80).collect();
    if joined.chars().count() > 80 {
        out.push('…');
    }
    out
}
