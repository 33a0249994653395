//! No documentation the WSDL gives is lost: for every entry document of the real-world corpus
//! (`tests/corpus`) that generates a client, each `wsdl:documentation` and
//! `xs:annotation/xs:documentation` (WSDL 1.1 §2.1.4, XML Schema Part 1 §3.13) of a component the
//! client is generated from is found in the generated code's documentation.
//!
//! What counts as generated from: the WSDL itself; its services, portTypes and SOAP bindings the
//! client names ("Generated from binding … of portType …"), their operations, the inputs,
//! outputs and faults of those, the messages they use and the messages' parts; every schema
//! (its own annotation); a top-level schema component a generated type names as its origin
//! ("Generated from complexType `{ns}Name`"), or an element an operation is wrapped in, with
//! everything inside either (particles, local elements, attributes, wildcards, enumerations,
//! derivations). Left out: documentation of components nothing is generated from (types no
//! operation reaches, HTTP bindings), of imports, and of named groups and attribute groups
//! (counted where a generated type uses them). A documentation is found when its first words
//! stand in the generated documentation, compared word by word (so the Markdown escaping and
//! autolinks of the emitted prose do not matter).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use soapgen_tests::corpus;

const XS: &str = "http://www.w3.org/2001/XMLSchema";
const WSDL: &str = "http://schemas.xmlsoap.org/wsdl/";
/// How many first words of a documentation must be found (all of a shorter one).
const WORDS: usize = 8;

/// The words of `text`, lowercase, letters and digits only, after the entities the emitter
/// writes for `<`, `>` and `&` are read back and markup is left out (the emitter drops the tags
/// of documentation written as HTML: `<b>`, `<font size='1'>`, `</p>`).
fn words(text: &str) -> Vec<String> {
    let mut t = text.to_owned();
    for _ in 0..4 {
        t = t
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&");
    }
    without_tags(&t)
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// `text` without what looks like markup: `<`, an optional `/`, a letter, then anything but an
/// angle bracket up to `>` (not an autolink, `<https://…>`).
fn without_tags(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tag = &rest[at + 1..];
        let name = tag.strip_prefix('/').unwrap_or(tag);
        let end = tag.find(['<', '>']);
        match end {
            Some(e)
                if tag.as_bytes()[e] == b'>'
                    && name.starts_with(|c: char| c.is_ascii_alphabetic())
                    && !tag[..e].contains("://") =>
            {
                out.push(' ');
                rest = &tag[e + 1..];
            }
            _ => {
                out.push('<');
                rest = tag;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The documentation text of generated code: its `///` and `//!` lines and `#[doc = "…"]`
/// attributes, as words joined by one space (with a space at each end).
fn code_docs(code: &str) -> String {
    let mut text = String::new();
    for line in code.lines() {
        let l = line.trim_start();
        if let Some(d) = l.strip_prefix("///").or_else(|| l.strip_prefix("//!")) {
            text.push_str(d);
            text.push('\n');
        } else if let Some(d) = l.strip_prefix("#[doc = \"") {
            text.push_str(&d.replace("\\\"", "\"").replace("\\\\", "\\"));
            text.push('\n');
        }
    }
    format!(" {} ", words(&text).join(" "))
}

/// A documentation element of a corpus document: its text and what it documents.
struct Documentation {
    text: String,
    /// Whether the code must carry it (see the module documentation).
    expected: bool,
    /// Where, for the failure message: file, line, the documented element's path.
    place: String,
}

/// The catalog of the corpus (`URL=path` lines, paths relative to the corpus folder).
fn catalog() -> BTreeMap<String, PathBuf> {
    let text = std::fs::read_to_string(corpus::dir().join("catalog.txt")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.rsplit_once('='))
        .map(|(u, p)| (u.trim().to_owned(), corpus::dir().join(p.trim())))
        .collect()
}

/// What the generated `code` names as generated from: types' origins, wrapper elements,
/// bindings and portTypes.
struct Generated {
    origins: BTreeSet<(String, String)>,
    code: String,
}

impl Generated {
    fn new(code: &str) -> Self {
        let mut origins = BTreeSet::new();
        for (i, _) in code.match_indices("Generated from ") {
            let rest = &code[i + "Generated from ".len()..];
            let Some((kind, rest)) = rest.split_once(" `") else {
                continue;
            };
            if let Some((name, _)) = rest.split_once('`') {
                origins.insert((kind.to_owned(), name.to_owned()));
            }
        }
        Generated {
            origins,
            code: code.to_owned(),
        }
    }

    /// A top-level schema component `{ns}name` of `kind` (`complexType`, `element`…).
    fn component(&self, kind: &str, ns: &str, name: &str) -> bool {
        let q = format!("{{{ns}}}{name}");
        self.origins.contains(&(kind.to_owned(), q))
            // An element an operation is wrapped in (its children are parameters or results).
            || (kind == "element"
                && (self.code.contains(&format!("name = \"{name}\""))
                    || self.code.contains(&format!("response = \"{name}\""))))
    }

    fn binding(&self, name: &str) -> bool {
        self.code.contains(&format!("`{name}` (SOAP 1."))
    }

    fn port_type(&self, name: &str) -> bool {
        self.code.contains(&format!("portType `{name}`"))
    }
}

/// Reads `path` and the documents it imports or includes (relative locations, and absolute ones
/// through `catalog`), each once, adding their documentation to `out`.
fn read(
    path: &Path,
    catalog: &BTreeMap<String, PathBuf>,
    generated: &Generated,
    seen: &mut BTreeSet<PathBuf>,
    out: &mut Vec<Documentation>,
) {
    let Ok(path) = path.canonicalize() else {
        return;
    };
    if !seen.insert(path.clone()) {
        return;
    }
    let Ok(text) = std::fs::read_to_string(&path) else {
        return;
    };
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let Ok(doc) = roxmltree::Document::parse_with_options(&text, opts) else {
        return;
    };
    let root = doc.root_element();
    // The WSDL's used portTypes' operations name their messages.
    let mut used_messages = BTreeSet::new();
    for pt in root.children().filter(|n| is(n, WSDL, "portType")) {
        if generated.port_type(pt.attribute("name").unwrap_or_default()) {
            for io in pt.descendants().filter(|n| {
                n.tag_name().namespace() == Some(WSDL)
                    && matches!(n.tag_name().name(), "input" | "output" | "fault")
            }) {
                if let Some(m) = io.attribute("message") {
                    used_messages.insert(m.rsplit(':').next().unwrap_or(m).to_owned());
                }
            }
        }
    }
    for d in doc.descendants().filter(|n| {
        n.tag_name().name() == "documentation"
            && matches!(n.tag_name().namespace(), Some(XS) | Some(WSDL))
    }) {
        let text: String = d
            .descendants()
            .filter(|n| n.is_text())
            .filter_map(|n| n.text())
            .collect();
        if words(&text).is_empty() {
            continue;
        }
        let chain: Vec<roxmltree::Node> =
            d.ancestors().skip(1).filter(|n| n.is_element()).collect();
        let expected = expected(&chain, generated, &used_messages);
        let pos = doc.text_pos_at(d.range().start);
        let names: Vec<&str> = chain.iter().rev().map(|n| n.tag_name().name()).collect();
        out.push(Documentation {
            text,
            expected,
            place: format!("{}:{}: {}", path.display(), pos.row, names.join("/")),
        });
    }
    for n in doc.descendants().filter(|n| {
        (n.tag_name().namespace() == Some(XS)
            && matches!(n.tag_name().name(), "import" | "include" | "redefine"))
            || is(n, WSDL, "import")
    }) {
        let Some(loc) = n.attribute("schemaLocation").or(n.attribute("location")) else {
            continue;
        };
        let next = match catalog.get(loc) {
            Some(p) => p.clone(),
            None if loc.contains("://") => continue,
            None => path.parent().unwrap_or(Path::new(".")).join(loc),
        };
        read(&next, catalog, generated, seen, out);
    }
}

fn is(n: &roxmltree::Node, ns: &str, name: &str) -> bool {
    n.is_element() && n.tag_name().namespace() == Some(ns) && n.tag_name().name() == name
}

/// Whether the documentation inside the elements `chain` (innermost first) must be in the code.
fn expected(chain: &[roxmltree::Node], generated: &Generated, used: &BTreeSet<String>) -> bool {
    // Inside a schema: by its top-level component.
    if let Some(i) = chain.iter().position(|n| is(n, XS, "schema")) {
        let schema = chain[i];
        if i == 0 {
            return false;
        }
        let top = chain[i - 1];
        let ns = schema.attribute("targetNamespace").unwrap_or_default();
        return match top.tag_name().name() {
            // The schema's own annotation.
            "annotation" => true,
            kind @ ("complexType" | "simpleType" | "element") => {
                generated.component(kind, ns, top.attribute("name").unwrap_or_default())
            }
            _ => false,
        };
    }
    // A WSDL component: by the portType, binding, service or message it is in.
    let Some(top_i) = chain.iter().position(|n| is(n, WSDL, "definitions")) else {
        return false;
    };
    if top_i == 0 {
        return true;
    }
    let top = chain[top_i - 1];
    let name = top.attribute("name").unwrap_or_default();
    match top.tag_name().name() {
        "portType" => generated.port_type(name),
        "binding" => generated.binding(name),
        "message" => used.contains(name),
        "service" => top
            .children()
            .filter(|p| is(p, WSDL, "port"))
            .filter_map(|p| p.attribute("binding"))
            .any(|b| generated.binding(b.rsplit(':').next().unwrap_or(b))),
        _ => false,
    }
}

#[test]
fn no_documentation_of_a_generated_component_is_lost() {
    let catalog = catalog();
    let mut lost = Vec::new();
    let (mut checked, mut entries) = (0usize, 0usize);
    for entry in corpus::entries() {
        let outcome = corpus::generate(&entry);
        let Ok(code) = &outcome.result else {
            continue;
        };
        entries += 1;
        let generated = Generated::new(code);
        let docs_text = code_docs(code);
        let mut docs = Vec::new();
        read(
            &corpus::dir().join(&entry.path),
            &catalog,
            &generated,
            &mut BTreeSet::new(),
            &mut docs,
        );
        for d in docs.iter().filter(|d| d.expected) {
            checked += 1;
            let w = words(&d.text);
            let first = w[..w.len().min(WORDS)].join(" ");
            if !docs_text.contains(&format!(" {first} ")) {
                let shown: String = d.text.split_whitespace().collect::<Vec<_>>().join(" ");
                let shown: String = shown.chars().take(100).collect();
                lost.push(format!("{}: {shown:?}", d.place));
            }
        }
    }
    assert!(entries >= 40, "entries that generate: {entries}");
    assert!(checked >= 5000, "documentation checked: {checked}");
    assert!(
        lost.is_empty(),
        "{} of {checked} documentation elements of generated components are not in the \
         generated code:\n{}",
        lost.len(),
        lost.join("\n")
    );
}
