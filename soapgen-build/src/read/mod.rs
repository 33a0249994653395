//! Reading, the first stage: documents found through the [`loader`] and [`catalog`], parsed with
//! roxmltree ([`document`]), read into [`components`] by [`wsdl`], [`wsdl20`], [`xsd`] and
//! [`policy`]. [`read_wsdl`] drives it from an entry WSDL: every `wsdl:import`, `xs:import` and
//! `xs:include` is followed, relative to the document containing it, each document read once
//! (cycles end), chameleon includes take the includer's namespace. Nothing here knows the model
//! or the output.

pub mod catalog;
pub mod components;
pub mod document;
pub mod loader;
pub mod policy;
pub mod wsdl;
pub mod wsdl20;
pub mod xsd;

use std::collections::BTreeSet;

use roxmltree::Node;

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::{Definitions, WSDL, WSDL20, XS};
use document::{parse, DocCtx};
use loader::{Loader, Source};

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
    // References to policies of other documents, now that every document is read.
    policy::link::link(&mut d.defs.policies)?;
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
