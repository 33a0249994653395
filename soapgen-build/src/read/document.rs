//! One parsed WSDL or schema document ([`DocCtx`]): where a node is (file:line:col), the QNames
//! its attributes hold, resolved in its scope, and its documentation text; and the parse itself,
//! with the nesting depth bounded before roxmltree recurses ([`MAX_DEPTH`]).

use std::sync::Arc;

use roxmltree::{Document, Node};

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::{QName, WSDL, WSDL20, XS};
use crate::read::loader;

/// A parsed document and its name, for locations and QName resolution.
pub struct DocCtx<'d> {
    /// Display name of the document.
    pub file: Arc<str>,
    /// The parsed document.
    pub doc: &'d Document<'d>,
    /// Byte offsets where lines start (roxmltree's own lookup scans from the start each time).
    line_starts: Vec<usize>,
}

impl<'d> DocCtx<'d> {
    /// A context for `doc`, named `file`.
    pub fn new(file: Arc<str>, doc: &'d Document<'d>) -> Self {
        let text = doc.input_text();
        let mut line_starts = vec![0];
        line_starts.extend(memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        DocCtx {
            file,
            doc,
            line_starts,
        }
    }

    /// The location of `node`'s start tag.
    pub fn loc(&self, node: Node) -> Loc {
        let pos = node.range().start;
        let line = self.line_starts.partition_point(|&s| s <= pos);
        let start = self.line_starts[line - 1];
        let text = self.doc.input_text();
        let column = text.get(start..pos).map_or(1, |t| t.chars().count() + 1);
        Loc {
            file: self.file.clone(),
            line: line as u32,
            column: column as u32,
        }
    }

    /// Resolves a QName written in `node`'s scope (`prefix:local`, or `local` in the default
    /// namespace, as XML Schema Part 1 §3.15.3 resolves QName-valued attributes).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnboundPrefix`].
    pub fn resolve_qname(&self, node: Node, text: &str) -> Result<QName> {
        let text = text.trim();
        match text.split_once(':') {
            Some((prefix, local)) => {
                let ns = if prefix == "xml" {
                    Some("http://www.w3.org/XML/1998/namespace")
                } else {
                    node.lookup_namespace_uri(Some(prefix))
                };
                let ns = ns.ok_or_else(|| {
                    Error::at(ErrorKind::UnboundPrefix(prefix.to_owned()), &self.loc(node))
                        .with_hint(format!(
                            "declare xmlns:{prefix}=\"…\" on this element or an ancestor"
                        ))
                })?;
                Ok(QName::new(ns, local))
            }
            None => Ok(QName::new(
                node.lookup_namespace_uri(None).unwrap_or_default(),
                text,
            )),
        }
    }

    /// The QName value of attribute `attr`, if present.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnboundPrefix`].
    pub fn qname_attr(&self, node: Node, attr: &str) -> Result<Option<QName>> {
        node.attribute(attr)
            .map(|v| self.resolve_qname(node, v))
            .transpose()
    }

    /// The text of `xs:annotation/xs:documentation` or `wsdl:documentation` children, whitespace
    /// tidied (common indentation removed, blank lines at the ends dropped), one paragraph each,
    /// separated by a blank line. It is prose as written, not Markdown: emission escapes it.
    pub fn documentation(&self, node: Node) -> Option<String> {
        let mut texts = Vec::new();
        for c in node.children().filter(Node::is_element) {
            let n = c.tag_name();
            if n.name() == "documentation" && matches!(n.namespace(), Some(WSDL | WSDL20)) {
                texts.push(collect_text(c));
            } else if n.name() == "annotation" && n.namespace() == Some(XS) {
                for d in c
                    .children()
                    .filter(|d| d.is_element() && d.tag_name().name() == "documentation")
                {
                    texts.push(collect_text(d));
                }
            }
        }
        let joined = texts
            .iter()
            .map(|t| tidy(t))
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("\n\n");
        (!joined.is_empty()).then_some(joined)
    }
}

fn memchr_iter(needle: u8, hay: &[u8]) -> impl Iterator<Item = usize> + '_ {
    hay.iter()
        .enumerate()
        .filter_map(move |(i, &b)| (b == needle).then_some(i))
}

fn collect_text(node: Node) -> String {
    node.descendants()
        .filter(Node::is_text)
        .filter_map(|t| t.text())
        .collect()
}

fn tidy(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let indent = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: Vec<String> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            if i == 0 {
                l.trim().to_owned()
            } else {
                l.get(indent..)
                    .unwrap_or(l.trim_start())
                    .trim_end()
                    .to_owned()
            }
        })
        .collect();
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Deepest element nesting accepted in a WSDL or schema document. roxmltree parses recursively, so
/// a hostile or broken document nested thousands deep would overflow the stack; real documents stay
/// far below this.
pub const MAX_DEPTH: usize = 256;

/// The byte offset where element nesting first exceeds `max`, scanning tags only (comments, CDATA,
/// processing instructions, the DOCTYPE and quoted attribute values are skipped).
pub fn too_deep(text: &str, max: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(off) = b[i..].iter().position(|&c| c == b'<') {
        let start = i + off;
        let rest = &b[start..];
        let skip_to = |end: &[u8]| {
            rest.windows(end.len())
                .position(|w| w == end)
                .map_or(b.len(), |p| start + p + end.len())
        };
        if rest.starts_with(b"<!--") {
            i = skip_to(b"-->");
        } else if rest.starts_with(b"<![CDATA[") {
            i = skip_to(b"]]>");
        } else if rest.starts_with(b"<?") {
            i = skip_to(b"?>");
        } else if rest.starts_with(b"<!") {
            i = skip_to(b">");
        } else if rest.starts_with(b"</") {
            depth = depth.saturating_sub(1);
            i = skip_to(b">");
        } else {
            // A start tag: find its end outside quoted values; `/>` closes it at once.
            let mut j = start + 1;
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
            if j >= b.len() || b[j - 1] != b'/' {
                depth += 1;
                if depth > max {
                    return Some(start);
                }
            }
            i = j + 1;
        }
        if i >= b.len() {
            break;
        }
    }
    None
}

/// Parses `text`, the document named `name`, after checking its nesting depth.
///
/// # Errors
///
/// [`ErrorKind::Invalid`] for elements nested deeper than [`MAX_DEPTH`], [`ErrorKind::Xml`] for
/// text that is not well-formed XML; located.
pub fn parse<'t>(name: &Arc<str>, text: &'t str) -> Result<Document<'t>> {
    if let Some(at) = too_deep(text, MAX_DEPTH) {
        let (line, column) = loader::line_column(text.as_bytes(), at);
        return Err(Error::new(
            ErrorKind::Invalid(format!("elements nested deeper than {MAX_DEPTH} levels")),
            Some(Loc {
                file: name.clone(),
                line,
                column,
            }),
        ));
    }
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    Document::parse_with_options(text, opts).map_err(|e| {
        let pos = e.pos();
        // The location leads the message: roxmltree's own ` at row:col` is dropped.
        let text = e.to_string();
        let at = format!(" at {}:{}", pos.row, pos.col);
        let text = text.strip_suffix(&at).unwrap_or(&text).to_owned();
        Error::new(
            ErrorKind::Xml(text),
            Some(Loc {
                file: name.clone(),
                line: pos.row,
                column: pos.col,
            }),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::too_deep;

    #[test]
    fn nesting_depth_is_bounded() {
        let deep = "<a>".repeat(300) + &"</a>".repeat(300);
        assert_eq!(too_deep(&deep, 256), Some(3 * 256));
        let ok = "<a>".repeat(200) + &"</a>".repeat(200);
        assert_eq!(too_deep(&ok, 256), None);
        // Empty elements, comments, CDATA, PIs and quoted `>` do not nest.
        let flat = "<?xml version='1.0'?><!-- <a> --><r x='>'>".to_owned()
            + &"<e/><![CDATA[<a><a>]]>".repeat(500)
            + "</r>";
        assert_eq!(too_deep(&flat, 2), None);
    }
}
