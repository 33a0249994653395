//! Reading: documents found through the [`loader`] and [`catalog`], parsed with roxmltree, read
//! into components by [`wsdl`] and [`xsd`]. [`read_wsdl`] drives it from an entry WSDL: every
//! `wsdl:import`, `xs:import` and `xs:include` is followed, relative to the document containing it,
//! each document read once (cycles end), chameleon includes take the includer's namespace.

pub mod catalog;
pub mod components;
pub mod loader;
pub mod policy;
pub mod wsdl;
pub mod wsdl20;
pub mod xsd;

use std::collections::BTreeSet;
use std::sync::Arc;

use roxmltree::{Document, Node};

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::{Definitions, QName, WSDL, WSDL20, XS};
use loader::{Loader, Source};

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
    /// tidied (common indentation removed, blank lines at the ends dropped), as Markdown that
    /// reads as written: indentation dropped, Markdown's special characters escaped, URLs made
    /// links.
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
            .map(|t| t.lines().map(markdown_line).collect::<Vec<_>>().join("\n"))
            .collect::<Vec<_>>()
            .join("\n\n");
        (!joined.is_empty()).then_some(joined)
    }
}

/// One line of a WSDL's or schema's documentation (prose, not Markdown) as a Markdown line that
/// reads as written and that rustdoc neither tests nor warns about: its indentation dropped (an
/// indented line would be a code block, compiled as a doctest); `[`, `]`, `` ` ``, `\`, `*`,
/// `~`, `|`, an underscore outside a word, a leading `#` and a line of `-` or `=` escaped; `<`,
/// `>`, `&` written as entities but in a `<br>` line break (no intra-doc links, code spans,
/// emphasis, tables, headings, HTML tags); each `http://` or `https://` URL made a link.
pub(crate) fn markdown_line(line: &str) -> String {
    let line = line.trim();
    let mut out = String::with_capacity(line.len() + 8);
    // A line of `-` or `=` alone would underline the line above into a heading (or be a rule).
    if !line.is_empty() && line.chars().all(|c| c == '-' || c == '=' || c == ' ') {
        out.push('\\');
    }
    let mut rest = line;
    while !rest.is_empty() {
        let url = ["http://", "https://"]
            .iter()
            .filter_map(|s| rest.find(s))
            .min();
        let (text, tail) = rest.split_at(url.unwrap_or(rest.len()));
        let mut chars = text.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '#' if out.is_empty() => out.push_str("\\#"), // not a heading
                '<' => match line_break(&text[i..]) {
                    // A line break as HTML writes it (`<br>`, `<br/>`, `<br />`) stays one.
                    Some(tag) => {
                        out.push_str(tag);
                        chars.nth(tag.len() - 2);
                    }
                    None => out.push_str("&lt;"),
                },
                '[' | ']' | '`' | '\\' | '*' | '~' | '|' => {
                    out.push('\\');
                    out.push(c);
                }
                // Inside a word (`a_b`) an underscore is not emphasis; elsewhere it could be.
                '_' if !(text[..i].ends_with(|p: char| p.is_alphanumeric())
                    && text[i + 1..].starts_with(|n: char| n.is_alphanumeric())) =>
                {
                    out.push_str("\\_");
                }
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                c => out.push(c),
            }
        }
        if tail.is_empty() {
            break;
        }
        // A URL runs to white space, a quote or an angle bracket; trailing punctuation is prose.
        let end = tail
            .find(|c: char| c.is_whitespace() || "\"'<>".contains(c))
            .unwrap_or(tail.len());
        let u = tail[..end].trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
        out.push('<');
        out.push_str(u);
        out.push('>');
        rest = &tail[u.len()..];
    }
    out
}

/// The HTML line break tag `text` starts with, `<br>`, `<br/>` or `<br />` (any case), if any.
fn line_break(text: &str) -> Option<&str> {
    if !text.get(..3)?.eq_ignore_ascii_case("<br") {
        return None;
    }
    let after = &text[3..];
    let spaces = after.len() - after.trim_start_matches(' ').len();
    let close = ["/>", ">"]
        .into_iter()
        .find(|c| after[spaces..].starts_with(c))?;
    Some(&text[..3 + spaces + close.len()])
}

/// The last path segment of a document's location (`xml.xsd`).
fn file_name(src: &Source) -> String {
    match src {
        Source::File(p) => p
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default(),
        Source::Bundled(url) => url
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(url)
            .to_owned(),
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
pub(crate) fn too_deep(text: &str, max: usize) -> Option<usize> {
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

fn parse<'t>(name: &Arc<str>, text: &'t str) -> Result<Document<'t>> {
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

struct Driver<'l> {
    loader: &'l mut Loader,
    defs: Definitions,
    /// Documents read, with the namespace a chameleon include was read into.
    seen: BTreeSet<(Source, Option<String>)>,
    /// Namespaces imported without a schemaLocation, to take from the bundled schemas if nothing
    /// else defines them.
    namespace_only: Vec<(String, Loc)>,
    /// Target namespaces of the schemas read.
    schema_namespaces: BTreeSet<String>,
    /// The document each (namespace, file name) was first imported from.
    imported: std::collections::BTreeMap<(String, String), Source>,
    /// WSDL 2.0 components of every `description` read, resolved at the end.
    wsdl20: wsdl20::Description,
    /// The entry document's folder: the notes name files relative to it (a generated crate's
    /// header then reads the same on every machine).
    entry_dir: Option<std::path::PathBuf>,
}

/// Reads an entry WSDL 1.1 or WSDL 2.0 document and everything it imports; WSDL 2.0 components are
/// mapped to WSDL 1.1's by [`wsdl20::resolve`].
///
/// # Errors
///
/// The first document error: unreadable or malformed XML, a missing import, a duplicate definition,
/// an undefined WSDL 2.0 reference, an unsupported construct in the documents' structure.
pub fn read_wsdl(loader: &mut Loader, entry: &Source) -> Result<Definitions> {
    let mut d = Driver {
        loader,
        defs: Definitions::default(),
        seen: BTreeSet::new(),
        namespace_only: Vec::new(),
        schema_namespaces: BTreeSet::new(),
        imported: std::collections::BTreeMap::new(),
        wsdl20: wsdl20::Description::default(),
        entry_dir: match entry {
            Source::File(p) => p.parent().map(std::path::Path::to_path_buf),
            Source::Bundled(_) => None,
        },
    };
    d.seen.insert((entry.clone(), None));
    d.document(entry, None, true)?;
    // Namespace-only imports of standard namespaces nobody defined: the bundled schema.
    for (ns, loc) in std::mem::take(&mut d.namespace_only) {
        if d.schema_namespaces.contains(&ns) {
            continue;
        }
        if let Some(src) = d.loader.bundled_for_namespace(&ns) {
            if d.seen.insert((src.clone(), None)) {
                d.document(&src, Some((&ns, &loc)), false)?;
            }
        }
    }
    if d.wsdl20.read {
        wsdl20::resolve(std::mem::take(&mut d.wsdl20), &mut d.defs)?;
    }
    Ok(d.defs)
}

impl Driver<'_> {
    /// `file` (a path or a URL) as a note names it: a path relative to the entry document's
    /// folder.
    fn shown(&self, file: &str) -> String {
        match &self.entry_dir {
            Some(dir) if std::path::Path::new(file).is_absolute() => {
                crate::paths::relative_to(std::path::Path::new(file), dir)
                    .display()
                    .to_string()
            }
            _ => file.to_owned(),
        }
    }

    /// Reads a WSDL or schema document (decided by its root element).
    fn document(
        &mut self,
        src: &Source,
        referenced_as: Option<(&str, &Loc)>,
        entry: bool,
    ) -> Result<()> {
        let (name, text) = self.loader.read(src, referenced_as)?;
        let doc = parse(&name, &text)?;
        let ctx = DocCtx::new(name.clone(), &doc);
        let root = doc.root_element();
        let root_ns = root.tag_name().namespace();
        let wsdl_ns = match (root_ns, root.tag_name().name()) {
            (Some(WSDL), "definitions") => Some(WSDL),
            (Some(WSDL20), "description") => Some(WSDL20),
            _ => None,
        };
        if let Some(wsdl_ns) = wsdl_ns {
            if entry {
                self.defs.target_namespace = root
                    .attribute("targetNamespace")
                    .unwrap_or_default()
                    .to_owned();
                self.defs.doc = ctx.documentation(root);
            }
            let imports = if wsdl_ns == WSDL {
                wsdl::read_definitions(&ctx, root, &mut self.defs)?
            } else {
                wsdl20::read_description(&ctx, root, &mut self.wsdl20)?
            };
            for types in root.children().filter(|c| {
                c.is_element()
                    && c.tag_name().namespace() == Some(wsdl_ns)
                    && c.tag_name().name() == "types"
            }) {
                self.types(&ctx, src, types)?;
            }
            for imp in imports {
                let target = self.loader.resolve(src, &imp.location, &imp.loc)?;
                if self.seen.insert((target.clone(), None)) {
                    self.document(&target, Some((&imp.location, &imp.loc)), false)?;
                }
            }
            Ok(())
        } else if xsd::is_schema(&root) {
            self.schema(&ctx, src, root, None)
        } else {
            Err(Error::at(
                ErrorKind::Invalid(format!(
                    "expected wsdl:definitions or xs:schema, found {{{}}}{}",
                    root_ns.unwrap_or_default(),
                    root.tag_name().name()
                )),
                &ctx.loc(root),
            ))
        }
    }

    /// Reads the `xs:schema` and `xs:import` children of a `wsdl:types` (WSDL 1.1 §2.2, WSDL 2.0
    /// Part 1 §3.1).
    fn types(&mut self, ctx: &DocCtx, src: &Source, types: Node) -> Result<()> {
        for schema in types.children().filter(xsd::is_schema) {
            self.schema(ctx, src, schema, None)?;
        }
        // Some services put xs:import straight into wsdl:types (no enclosing schema).
        for imp in types.children().filter(|c| {
            c.is_element()
                && c.tag_name().namespace() == Some(XS)
                && c.tag_name().name() == "import"
        }) {
            let loc = ctx.loc(imp);
            match imp.attribute("schemaLocation") {
                Some(location) => {
                    let target = self.loader.resolve(src, location, &loc)?;
                    if self.seen.insert((target.clone(), None)) {
                        self.schema_document(
                            &target,
                            location,
                            &loc,
                            None,
                            imp.attribute("namespace"),
                        )?;
                    }
                }
                None => {
                    if let Some(ns) = imp.attribute("namespace") {
                        self.namespace_only.push((ns.to_owned(), loc));
                    }
                }
            }
        }
        Ok(())
    }

    /// Reads one `xs:schema` element and what it imports and includes.
    fn schema(
        &mut self,
        ctx: &DocCtx,
        src: &Source,
        schema: Node,
        inherited_tns: Option<&str>,
    ) -> Result<()> {
        let refs = xsd::read_schema(ctx, schema, inherited_tns, &mut self.defs.schemas)?;
        let tns = schema
            .attribute("targetNamespace")
            .or(inherited_tns)
            .unwrap_or_default()
            .to_owned();
        self.schema_namespaces.insert(tns.clone());
        for r in refs {
            match (r.kind, &r.location) {
                (xsd::RefKind::Import, None) => {
                    if let Some(ns) = r.namespace {
                        self.namespace_only.push((ns, r.loc));
                    }
                }
                (kind, Some(location)) => {
                    let target = self.loader.resolve(src, location, &r.loc)?;
                    if kind == xsd::RefKind::Import {
                        // A copy of a document already read (same namespace and file name, another
                        // location, e.g. a local xml.xsd beside the bundled one) is not read again:
                        // the first wins, as in Xerces. Other documents of one namespace all load.
                        let ns = r.namespace.clone().unwrap_or_default();
                        let copy_of = self
                            .imported
                            .iter()
                            .find(|((n, name), first)| {
                                n == &ns && name == &file_name(&target) && *first != &target
                            })
                            .map(|(_, first)| first.clone());
                        if let Some(first) = copy_of {
                            let note = format!(
                                "{}:{}:{}: import of {ns:?} from {location:?} not read: a copy of {}, already imported",
                                self.shown(&r.loc.file),
                                r.loc.line,
                                r.loc.column,
                                self.shown(&first.display())
                            );
                            if !self.defs.notes.contains(&note) {
                                self.defs.notes.push(note);
                            }
                            continue;
                        }
                        self.imported
                            .entry((ns, file_name(&target)))
                            .or_insert_with(|| target.clone());
                    }
                    let chameleon = if kind == xsd::RefKind::Import {
                        None
                    } else {
                        Some(tns.clone())
                    };
                    if self.seen.insert((target.clone(), chameleon.clone())) {
                        let expected = if kind == xsd::RefKind::Import {
                            r.namespace.as_deref()
                        } else {
                            None
                        };
                        self.schema_document(
                            &target,
                            location,
                            &r.loc,
                            chameleon.as_deref(),
                            expected,
                        )?;
                    }
                }
                (_, None) => {}
            }
        }
        Ok(())
    }

    fn schema_document(
        &mut self,
        src: &Source,
        location: &str,
        at: &Loc,
        inherited_tns: Option<&str>,
        import_ns: Option<&str>,
    ) -> Result<()> {
        let (name, text) = self.loader.read(src, Some((location, at)))?;
        let doc = parse(&name, &text)?;
        let ctx = DocCtx::new(name.clone(), &doc);
        let root = doc.root_element();
        if xsd::is_schema(&root) {
            // A document with its own targetNamespace is the same whether included or imported:
            // read it once.
            if inherited_tns.is_some()
                && root.attribute("targetNamespace").is_some()
                && !self.seen.insert((src.clone(), None))
            {
                return Ok(());
            }
            let own_tns = root.attribute("targetNamespace").unwrap_or_default();
            if let Some(expected) = import_ns {
                if expected != own_tns {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "xs:import says namespace {expected:?}, but {location:?} has targetNamespace {own_tns:?} \
                             (XML Schema Part 1 §4.2.3 requires them to match)"
                        )),
                        at,
                    ));
                }
            }
            if let (Some(inherited), Some(own)) = (inherited_tns, root.attribute("targetNamespace"))
            {
                if inherited != own {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "included schema has targetNamespace {own:?}, the including schema {inherited:?} \
                             (XML Schema Part 1 §4.2.1: an include must share the namespace or have none)"
                        )),
                        at,
                    ));
                }
            }
            self.schema(&ctx, src, root, inherited_tns)
        } else if root.tag_name().namespace() == Some(WSDL) {
            // Some services point xs:import at a WSDL whose types hold the schema.
            for schema in root.descendants().filter(xsd::is_schema) {
                self.schema(&ctx, src, schema, None)?;
            }
            Ok(())
        } else {
            Err(Error::at(
                ErrorKind::Invalid(format!(
                    "{location:?} is not a schema (root element {})",
                    root.tag_name().name()
                )),
                at,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{markdown_line, too_deep};

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

    #[test]
    fn documentation_reads_as_written_without_doctests_or_rustdoc_warnings() {
        for (text, doc) in [
            ("\t\tIndented prose", "Indented prose"),
            (
                "See [RFC3927] & <b>bold</b>",
                r"See \[RFC3927\] &amp; &lt;b&gt;bold&lt;/b&gt;",
            ),
            (
                "At http://example.com/a_b, or (https://x.org/y).",
                "At <http://example.com/a_b>, or (<https://x.org/y>).",
            ),
            ("```xml", r"\`\`\`xml"),
            ("# not a heading, #1", r"\# not a heading, #1"),
            (
                "2*3*4 ~~x~~ |a|b| a_b _c_ ___x___",
                r"2\*3\*4 \~\~x\~\~ \|a\|b\| a_b \_c\_ \_\_\_x\_\_\_",
            ),
            ("--------", r"\--------"),
            ("= =", r"\= ="),
            ("http://", "<http://>"),
            (
                "one<br />two<BR>three<brr>",
                "one<br />two<BR>three&lt;brr&gt;",
            ),
        ] {
            assert_eq!(markdown_line(text), doc, "{text:?}");
        }
    }
}
