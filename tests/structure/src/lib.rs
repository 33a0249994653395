//! The structure of the crates' sources, measured from their code: the import graph between files
//! (which file's `use` lines and paths name items another file defines), its cycles, and the
//! functions and files that outgrow a reader. `tests/structure.rs` holds the crates to it;
//! `cargo run -p soapgen-structure --bin import-graph -- <crate>/src` prints it.
//!
//! A file imports another when it names (in a `use`, a path in code, or a path inside a macro
//! call) an item the other defines. Paths are followed through `pub use` re-exports to the file
//! that defines the item, so a module's facade does not join every file behind it into one
//! cycle; the re-exports themselves are not imports of the facade. `mod` declarations are not
//! imports; code under `#[cfg(test)]` is left out.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// One module: its file, the items it defines, and its re-exports.
#[derive(Debug, Default)]
struct Module {
    /// The file the module's items are written in (an inline module shares its parent's).
    file: PathBuf,
    /// Child modules by name.
    children: BTreeMap<String, Vec<String>>,
    /// Names of the items defined here (types, functions, constants, traits, macros).
    items: BTreeSet<String>,
    /// `use` of single names (re-exports or not: a child's `super::Name` sees both): the name
    /// as seen here, and the full path it stands for.
    imports: BTreeMap<String, Vec<String>>,
    /// `use path::*`: the modules whose items are seen here.
    globs: Vec<Vec<String>>,
}

/// The module tree of one crate and the paths each file names.
#[derive(Debug, Default)]
pub struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    /// Per file: the full paths it names (`crate` removed), from the module it is in.
    uses: BTreeMap<PathBuf, BTreeSet<Vec<String>>>,
    /// The crate's `src` folder.
    root: PathBuf,
}

/// What a path outside the crate (another crate, the prelude) is resolved to.
const EXTERN: &str = "::extern";

/// The import graph: for each file (relative to `src`), the files it imports.
pub type Graph = BTreeMap<PathBuf, BTreeSet<PathBuf>>;

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let t = a.meta.to_token_stream_string();
            t.contains("test") && !t.contains("not")
        }
    })
}

trait MetaText {
    fn to_token_stream_string(&self) -> String;
}

impl MetaText for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        quote_tokens(self)
    }
}

fn quote_tokens(t: &impl quote::ToTokens) -> String {
    let mut ts = proc_macro2::TokenStream::new();
    t.to_tokens(&mut ts);
    ts.to_string()
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("path") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) => Some(s.value()),
            _ => None,
        },
        _ => None,
    })
}

/// Reads `file`, parsed; `None` (with the reason printed) if it cannot be.
fn parse(file: &Path) -> Result<syn::File, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    syn::parse_file(&text).map_err(|e| format!("{}: {e}", file.display()))
}

impl Crate {
    /// Reads the crate whose sources are in `src` (from `lib.rs`, else `main.rs`).
    ///
    /// # Errors
    ///
    /// A file that cannot be read or parsed, named.
    pub fn read(src: &Path) -> Result<Crate, String> {
        let mut c = Crate {
            root: src.to_owned(),
            ..Default::default()
        };
        let top = ["lib.rs", "main.rs"]
            .iter()
            .map(|f| src.join(f))
            .find(|p| p.exists())
            .ok_or_else(|| format!("{}: no lib.rs or main.rs", src.display()))?;
        let file = parse(&top)?;
        c.module(Vec::new(), &top, src, &file.items)?;
        Ok(c)
    }

    /// Records the module `path` whose items `items` are written in `file`; `dir` is where its
    /// child modules' files are.
    fn module(
        &mut self,
        path: Vec<String>,
        file: &Path,
        dir: &Path,
        items: &[syn::Item],
    ) -> Result<(), String> {
        let rel = file.strip_prefix(&self.root).unwrap_or(file).to_owned();
        let mut m = Module {
            file: rel.clone(),
            ..Default::default()
        };
        let mut children = Vec::new();
        let mut collector = Uses {
            module: &path,
            found: BTreeSet::new(),
            children: BTreeSet::new(),
            names: BTreeSet::new(),
        };
        // Re-exports the module also uses itself are imports too: noted after the code is read.
        let mut facades: Vec<(String, Vec<String>)> = Vec::new();
        for item in items {
            if let syn::Item::Mod(md) = item {
                collector.children.insert(md.ident.to_string());
            }
        }
        for item in items {
            match item {
                syn::Item::Mod(md) => {
                    if is_cfg_test(&md.attrs) {
                        continue;
                    }
                    let name = md.ident.to_string();
                    let mut child = path.clone();
                    child.push(name.clone());
                    m.children.insert(name.clone(), child.clone());
                    children.push((md.clone(), child));
                }
                syn::Item::Use(u) => {
                    if is_cfg_test(&u.attrs) {
                        continue;
                    }
                    let mut flat = Vec::new();
                    flatten_use(&u.tree, Vec::new(), &mut flat);
                    // A re-export is a facade, not a dependency: paths through it are followed
                    // to the file that defines the item.
                    let facade = !matches!(u.vis, syn::Visibility::Inherited);
                    for (full, alias) in flat {
                        let resolved = collector.absolute(&full);
                        match &alias {
                            Some(a) if a == "*" => m.globs.push(resolved.clone()),
                            Some(a) => {
                                m.imports.insert(a.clone(), resolved.clone());
                            }
                            None => {}
                        }
                        if !facade {
                            collector.found.insert(resolved);
                        } else if let Some(a) = alias.filter(|a| a != "*") {
                            facades.push((a, resolved));
                        }
                    }
                }
                other => {
                    if let Some(name) = item_name(other) {
                        m.items.insert(name);
                    }
                    if !item_is_test(other) {
                        collector.visit_item(other);
                    }
                }
            }
        }
        for (alias, resolved) in facades {
            if collector.names.contains(&alias) {
                collector.found.insert(resolved);
            }
        }
        let found = std::mem::take(&mut collector.found);
        self.uses.entry(rel).or_default().extend(found);
        self.modules.insert(path.clone(), m);
        for (md, child) in children {
            let name = md.ident.to_string();
            match &md.content {
                Some((_, inner)) => {
                    self.module(child, file, &dir.join(&name), inner)?;
                }
                None => {
                    let candidates = match path_attr(&md.attrs) {
                        Some(p) => vec![dir.join(p)],
                        None => vec![
                            dir.join(format!("{name}.rs")),
                            dir.join(&name).join("mod.rs"),
                        ],
                    };
                    let Some(f) = candidates.into_iter().find(|p| p.exists()) else {
                        return Err(format!("module {} has no file", child.join("::")));
                    };
                    let parsed = parse(&f)?;
                    let sub = if f.file_name().is_some_and(|n| n == "mod.rs") {
                        f.parent().unwrap_or(dir).to_owned()
                    } else {
                        f.with_extension("")
                    };
                    self.module(child, &f, &sub, &parsed.items)?;
                }
            }
        }
        Ok(())
    }

    /// The file that defines what `path` (from the crate root) names, following re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<&Path> {
        if depth > 16 || path.first().is_some_and(|s| s == EXTERN) {
            return None;
        }
        // The deepest module the path walks through.
        let mut module: Vec<String> = Vec::new();
        let mut i = 0;
        while i < path.len() {
            let m = self.modules.get(&module)?;
            match m.children.get(&path[i]) {
                Some(child) if self.modules.contains_key(child) => {
                    module = child.clone();
                    i += 1;
                }
                _ => break,
            }
        }
        let m = self.modules.get(&module)?;
        let Some(name) = path.get(i) else {
            return Some(&m.file);
        };
        if m.items.contains(name) {
            return Some(&m.file);
        }
        if let Some(target) = m.imports.get(name) {
            if target.as_slice() != path {
                let mut t = target.clone();
                t.extend_from_slice(&path[i + 1..]);
                if let Some(f) = self.resolve(&t, depth + 1) {
                    return Some(f);
                }
            }
        }
        for g in &m.globs {
            let mut t = g.clone();
            t.extend_from_slice(&path[i..]);
            if t.as_slice() != path {
                if let Some(f) = self.resolve(&t, depth + 1) {
                    if f != m.file {
                        return Some(f);
                    }
                }
            }
        }
        Some(&m.file)
    }

    /// The paths `file` (relative to `src`) names and the file each resolves to: why it
    /// imports what it does.
    pub fn why(&self, file: &Path) -> Vec<(String, PathBuf)> {
        let mut out = Vec::new();
        for p in self.uses.get(file).into_iter().flatten() {
            if let Some(to) = self.resolve(p, 0) {
                if to != file {
                    out.push((p.join("::"), to.to_owned()));
                }
            }
        }
        out
    }

    /// The import graph between the crate's files.
    pub fn graph(&self) -> Graph {
        let mut g = Graph::new();
        for m in self.modules.values() {
            g.entry(m.file.clone()).or_default();
        }
        for (file, paths) in &self.uses {
            let edges = g.entry(file.clone()).or_default();
            for p in paths {
                if let Some(to) = self.resolve(p, 0) {
                    if to != file.as_path() {
                        edges.insert(to.to_owned());
                    }
                }
            }
        }
        g
    }
}

fn item_is_test(item: &syn::Item) -> bool {
    let attrs = match item {
        syn::Item::Fn(f) => &f.attrs,
        syn::Item::Impl(i) => &i.attrs,
        syn::Item::Const(c) => &c.attrs,
        syn::Item::Static(s) => &s.attrs,
        syn::Item::Struct(s) => &s.attrs,
        syn::Item::Enum(e) => &e.attrs,
        syn::Item::Macro(m) => &m.attrs,
        _ => return false,
    };
    is_cfg_test(attrs)
}

fn item_name(item: &syn::Item) -> Option<String> {
    Some(match item {
        syn::Item::Const(i) => i.ident.to_string(),
        syn::Item::Enum(i) => i.ident.to_string(),
        syn::Item::Fn(i) => i.sig.ident.to_string(),
        syn::Item::Static(i) => i.ident.to_string(),
        syn::Item::Struct(i) => i.ident.to_string(),
        syn::Item::Trait(i) => i.ident.to_string(),
        syn::Item::Type(i) => i.ident.to_string(),
        syn::Item::Union(i) => i.ident.to_string(),
        syn::Item::Macro(i) => i.ident.as_ref()?.to_string(),
        _ => return None,
    })
}

/// The paths of a `use` tree: each full path, with the name it is seen under (`*` for a glob).
fn flatten_use(
    tree: &syn::UseTree,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    match tree {
        syn::UseTree::Path(p) => {
            let mut pre = prefix;
            pre.push(p.ident.to_string());
            flatten_use(&p.tree, pre, out);
        }
        syn::UseTree::Name(n) => {
            let name = n.ident.to_string();
            let mut full = prefix;
            if name == "self" {
                let seen = full.last().cloned();
                out.push((full, seen));
            } else {
                full.push(name.clone());
                out.push((full, Some(name)));
            }
        }
        syn::UseTree::Rename(r) => {
            let mut full = prefix;
            full.push(r.ident.to_string());
            out.push((full, Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix, Some("*".to_owned()))),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten_use(t, prefix.clone(), out);
            }
        }
    }
}

/// Collects the crate-relative paths one module names.
struct Uses<'m> {
    module: &'m [String],
    found: BTreeSet<Vec<String>>,
    /// The module's child modules, which a path may start with.
    children: BTreeSet<String>,
    /// Every name the module's code uses (each segment of each path).
    names: BTreeSet<String>,
}

impl Uses<'_> {
    /// `path` from the crate root: `crate::`, `super::`, `self::` or a child module resolved;
    /// anything else (another crate, the prelude) kept as is, and resolved to nothing later.
    fn absolute(&self, path: &[String]) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => rest = &rest[1..],
            Some("self") => {
                out.extend_from_slice(self.module);
                rest = &rest[1..];
            }
            Some("super") => {
                out.extend_from_slice(self.module);
                while rest.first().map(String::as_str) == Some("super") {
                    out.pop();
                    rest = &rest[1..];
                }
            }
            Some(first) if self.children.contains(first) => out.extend_from_slice(self.module),
            _ => return vec![EXTERN.to_owned()],
        }
        out.extend_from_slice(rest);
        out
    }

    fn note(&mut self, segments: Vec<String>) {
        // A lone `crate` or `super` is a visibility (`pub(crate)`), not a path to an item.
        if segments.len() > 1 {
            let abs = self.absolute(&segments);
            if abs.first().is_none_or(|s| s != EXTERN) {
                self.found.insert(abs);
            }
        }
    }

    /// `crate :: a :: b` sequences in a macro's tokens.
    fn scan_tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let flat: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        while i < flat.len() {
            match &flat[i] {
                proc_macro2::TokenTree::Group(g) => self.scan_tokens(g.stream()),
                proc_macro2::TokenTree::Ident(id) if id == "crate" || id == "super" => {
                    let mut segs = vec![id.to_string()];
                    let mut j = i + 1;
                    while j + 2 < flat.len() + 1 {
                        let colons = matches!(&flat.get(j), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':')
                            && matches!(&flat.get(j + 1), Some(proc_macro2::TokenTree::Punct(p)) if p.as_char() == ':');
                        match (colons, flat.get(j + 2)) {
                            (true, Some(proc_macro2::TokenTree::Ident(next))) => {
                                segs.push(next.to_string());
                                j += 3;
                            }
                            _ => break,
                        }
                    }
                    self.note(segs);
                    i = j;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.names.extend(segs.iter().cloned());
        self.note(segs);
        syn::visit::visit_path(self, p);
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Inline modules are modules of their own: read by `Crate::module`.
    }

    fn visit_item_use(&mut self, _: &'ast syn::ItemUse) {}

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.visit_path(&m.path);
        self.scan_tokens(m.tokens.clone());
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {
        // Doc links and attributes are not imports.
    }
}

/// The strongly connected components of `g` with more than one file: its import cycles, each
/// sorted, largest first.
pub fn cycles(g: &Graph) -> Vec<Vec<PathBuf>> {
    // Tarjan's algorithm, iterative over an index of the nodes.
    let nodes: Vec<&PathBuf> = g.keys().collect();
    let index_of: HashMap<&PathBuf, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = nodes
        .iter()
        .map(|n| {
            g[*n]
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = nodes.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next = 0;
    let mut out = Vec::new();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work = vec![(start, 0usize)];
        while let Some((v, edge)) = work.pop() {
            if edge == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = adj[v].get(edge) {
                work.push((v, edge + 1));
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp.push(nodes[w].clone());
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    out.push(comp);
                }
            }
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    out.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    out
}

/// A function longer than a reader takes in at once.
#[derive(Debug)]
pub struct LongFunction {
    /// Its file, relative to `src`.
    pub file: PathBuf,
    /// Its name.
    pub name: String,
    /// Its first line (1-based).
    pub line: usize,
    /// Its length in lines, signature to closing brace.
    pub lines: usize,
}

/// The functions of the crate in `src` longer than `max` lines, signature to closing brace,
/// outside `#[cfg(test)]` code, whose body does not start with a `// Long:` comment saying why.
///
/// # Errors
///
/// As [`Crate::read`].
pub fn long_functions(src: &Path, max: usize) -> Result<Vec<LongFunction>, String> {
    let c = Crate::read(src)?;
    let files: BTreeSet<&PathBuf> = c.modules.values().map(|m| &m.file).collect();
    let mut out = Vec::new();
    for rel in files {
        let path = src.join(rel);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = syn::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let lines: Vec<&str> = text.lines().collect();
        let mut v = Functions {
            lines: &lines,
            max,
            file: rel,
            out: &mut out,
        };
        v.visit_file(&file);
    }
    Ok(out)
}

struct Functions<'a> {
    lines: &'a [&'a str],
    max: usize,
    file: &'a Path,
    out: &'a mut Vec<LongFunction>,
}

impl Functions<'_> {
    fn check(&mut self, name: &syn::Ident, block: &syn::Block) {
        let start = name.span().start().line;
        let end = block.brace_token.span.close().end().line;
        let len = end.saturating_sub(start) + 1;
        let open = block.brace_token.span.open().start().line;
        let why = self
            .lines
            .get(open..(open + 2).min(self.lines.len()))
            .is_some_and(|ls| ls.iter().any(|l| l.trim_start().starts_with("// Long:")));
        if len > self.max && !why {
            self.out.push(LongFunction {
                file: self.file.to_owned(),
                name: name.to_string(),
                line: start,
                lines: len,
            });
        }
    }
}

impl<'ast> Visit<'ast> for Functions<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_cfg_test(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            self.check(&f.sig.ident, &f.block);
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !is_cfg_test(&f.attrs) {
            self.check(&f.sig.ident, &f.block);
            syn::visit::visit_impl_item_fn(self, f);
        }
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(b) = &f.default {
            self.check(&f.sig.ident, b);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

/// The files of the crate in `src` with more than `max` lines before their `#[cfg(test)]`
/// module: (file relative to `src`, lines).
///
/// # Errors
///
/// As [`Crate::read`].
pub fn long_files(src: &Path, max: usize) -> Result<Vec<(PathBuf, usize)>, String> {
    let c = Crate::read(src)?;
    let files: BTreeSet<&PathBuf> = c.modules.values().map(|m| &m.file).collect();
    let mut out = Vec::new();
    for rel in files {
        let text = std::fs::read_to_string(src.join(rel))
            .map_err(|e| format!("{}: {e}", rel.display()))?;
        let n = text
            .lines()
            .take_while(|l| !l.starts_with("#[cfg(test)]"))
            .count();
        if n > max {
            out.push((rel.clone(), n));
        }
    }
    Ok(out)
}
