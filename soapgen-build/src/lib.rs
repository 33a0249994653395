//! soapgen-build: reads WSDL 1.1 or 2.0 and XSD at build time and emits statically typed SOAP
//! clients.
//!
//! The pipeline, one folder a stage, each depending only on the ones before:
//!
//! 1. [`read`]: documents found relative to the document that references them or through a catalog
//!    (offline: the standard W3C/OASIS schemas are bundled), parsed into the
//!    [components](read::components) they define;
//! 2. [`model`]: components resolved into a Rust model ([`model::ir`]): structs, enums, aliases, one
//!    client trait per portType (its SOAP bindings that differ only in SOAP version are one client,
//!    see [`model::clients`]), document/literal wrapped operations unwrapped into parameters;
//! 3. [`emit`]: the model as formatted Rust: `#[derive(ToXml, FromXml)]` types and
//!    `#[soap_client]` traits, which the runtime's macros expand (and, for `soapgen inspect`,
//!    sample request envelopes).
//!
//! The `soapgen` command (fetch, generate, inspect, cert) is the `soapgen-cli` crate, built on this
//! one: `soapgen fetch` writes a catalog ([`CATALOG_FILE_NAME`]) beside the WSDL it downloads,
//! which the [`Builder`] reads.
//!
//! # In `build.rs`
//!
//! ```no_run
//! // build.rs
//! soapgen_build::Builder::new()
//!     .wsdl("wsdl/globalweather.wsdl")
//!     .build()
//!     .unwrap_or_else(|e| panic!("{e}"));
//! ```
//!
//! and in the crate: `soapgen_runtime::include_client!("globalweather");`.
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod emit;
pub use emit::Fake;
pub mod error;
pub mod model;
pub mod paths;
pub mod read;

use std::path::{Path, PathBuf};

pub use error::{Error, ErrorKind, Errors, Loc, Warning};
pub use read::loader::{Catalog, CATALOG_FILE_NAME};

/// Generates clients from WSDL files: the `build.rs` entry point (consuming setters).
#[derive(Debug, Clone, Default)]
#[must_use]
pub struct Builder {
    wsdls: Vec<PathBuf>,
    catalog: Catalog,
    catalog_files: Vec<PathBuf>,
    out_names: Vec<(PathBuf, String)>,
    runtime: Option<String>,
    skip_unsupported: bool,
    strict_use: bool,
    no_docs: bool,
    no_blocking: bool,
    default_namespaces: bool,
    both_directions: bool,
    fake: emit::Fake,
    documents: Vec<(PathBuf, std::sync::Arc<str>)>,
    selection: model::select::Selection,
    manual_security: model::security::ManualSecurity,
    ports: model::security::PortSelection,
}

/// The output of generating one WSDL.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The Rust source.
    pub code: String,
    /// Every file read (the WSDL, its imports and includes, catalog files).
    pub files_read: Vec<PathBuf>,
    /// The model the source was emitted from (for `inspect`).
    pub module: model::ir::Module,
}

impl Builder {
    /// A builder with no WSDL yet.
    pub fn new() -> Self {
        Builder::default()
    }

    /// Adds a WSDL 1.1 file to generate a client for (a relative path is relative to the current
    /// directory, which for `build.rs` is the package root).
    pub fn wsdl(mut self, path: impl Into<PathBuf>) -> Self {
        self.wsdls.push(path.into());
        self
    }

    /// Maps an absolute schema or WSDL URL to a local file, for imports by URL (resolved offline).
    pub fn catalog_entry(mut self, url: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        self.catalog.add(url, path);
        self
    }

    /// Reads catalog entries from a file of `URL=path` lines (paths relative to the file; the last
    /// `=` on a line separates URL and path).
    ///
    /// A catalog named [`CATALOG_FILE_NAME`] (`soapgen.catalog`, as `soapgen fetch` writes) next to
    /// a WSDL is read without being named here.
    pub fn catalog_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.catalog_files.push(path.into());
        self
    }

    /// The name of the generated file for `wsdl` (default: the WSDL's file stem), which
    /// `include_client!` takes.
    pub fn out_name(mut self, wsdl: impl Into<PathBuf>, name: impl Into<String>) -> Self {
        self.out_names.push((wsdl.into(), name.into()));
        self
    }

    /// The path of the runtime crate in generated code (default `::soapgen_runtime`), for crates that
    /// rename or re-export it.
    pub fn runtime_path(mut self, path: impl Into<String>) -> Self {
        self.runtime = Some(path.into());
        self
    }

    /// Leave out operations that use constructs soapgen does not support yet, listing them in the
    /// generated file, instead of failing (default: fail).
    pub fn skip_unsupported_operations(mut self, skip: bool) -> Self {
        self.skip_unsupported = skip;
        self
    }

    /// Refuse a binding operation that says `use="encoded"` under `style="document"` (default:
    /// read it as `use="literal"`, with a located [warning](model::ir::Module::warnings)). SOAP 1.1
    /// §5 encoding belongs to rpc style (§7) and WS-I Basic Profile 1.0 R2706 forbids encoded, so
    /// document/encoded in a published WSDL is an erratum for document/literal; with strict use it
    /// is an unsupported construct (left out with
    /// [`skip_unsupported_operations`](Self::skip_unsupported_operations)).
    pub fn strict_use(mut self, strict: bool) -> Self {
        self.strict_use = strict;
        self
    }

    /// Whether to generate a `…BlockingClient` beside each async client (default true; needs the
    /// runtime's `blocking` feature, which is on by default).
    pub fn blocking(mut self, on: bool) -> Self {
        self.no_blocking = !on;
        self
    }

    /// Whether the generated clients write request Body payloads with default-namespace
    /// declarations (`<Get xmlns="urn:x"><q>…</q></Get>`, `xmlns=""` on an unqualified child)
    /// instead of prefixes (`<tns:Get>`), for servers that do not resolve element prefixes
    /// (default false). The same expanded names either way (Namespaces in XML 1.0 §6.2); emitted
    /// as `#[soap_client(default_namespaces)]`. `soapgen inspect --operation` with
    /// `--default-namespaces` shows the request written this way.
    pub fn default_namespaces(mut self, on: bool) -> Self {
        self.default_namespaces = on;
        self
    }

    /// Whether every generated type is written and read (`ToXml`, `FromXml` and `ArbitraryXml`
    /// derived on each). Default off: a type gets the code of the directions the operations use
    /// it in (a type only sent, the writer; one only received, the reader), which is less to
    /// compile; a type no operation reaches, and with [`fake`](Self::fake) every type, gets both.
    /// Turn it on to serialize received values (or parse sent ones) yourself.
    pub fn both_directions(mut self, on: bool) -> Self {
        self.both_directions = on;
        self
    }

    /// Whether each client carries an in-process fake of its service, for testing the code that
    /// calls it: `Client::fake(service)` answers each request with the user's implementation of
    /// the service trait, through the real message path on both sides (the runtime's `testing`
    /// module, which needs its `testing` feature). Default [`Fake::Off`];
    /// [`Fake::Feature`] generates it only when the crate holding the
    /// generated code has that Cargo feature on, so that production builds compile none.
    pub fn fake(mut self, fake: emit::Fake) -> Self {
        self.fake = fake;
        self
    }

    /// A document held in memory at `path` (absolute, or relative to the current directory): a WSDL
    /// or schema read from here instead of the file system wherever the WSDL, an import or an include
    /// names that path. For tools that already hold the documents, and for fuzzing the reader.
    pub fn document(mut self, path: impl Into<PathBuf>, text: impl Into<String>) -> Self {
        self.documents
            .push((path.into(), std::sync::Arc::from(text.into())));
        self
    }

    /// Generates only these operations, by WSDL operation name (WSDL 1.1 §2.4: the `name` of the
    /// portType and binding `wsdl:operation`), in every SOAP binding that has them, and only the
    /// types they reach: through fields, choices, aliases and fault details, with the types derived
    /// from a reached complexType (`xsi:type`, XML Schema Part 1 §2.6.1) and the members of a
    /// reached substitution group head (§3.3.6), as gSOAP's `wsdl2h -Ow4` keeps them. Bindings left
    /// without operations are not generated. Calls add up; [`exclude_operations`] removes names
    /// again. Methods and the types named after schema components keep the names they have
    /// without a selection; a type soapgen names itself (an inner anonymous type, a choice, the
    /// fault enum of an operation) may get another numeric suffix when the type it shared a name
    /// with is no longer generated.
    ///
    /// A name is the WSDL name or the generated method's (`debtor_get_name` for
    /// `Debtor_GetName`). An unknown name is an error naming the operations there are (and the
    /// closest one).
    ///
    /// [`exclude_operations`]: Self::exclude_operations
    ///
    /// # Examples
    ///
    /// ```no_run
    /// soapgen_build::Builder::new()
    ///     .wsdl("wsdl/economic.wsdl")
    ///     .operations(["Connect", "Debtor_GetAll", "Debtor_GetData"])
    ///     .build()
    ///     .unwrap_or_else(|e| panic!("{e}"));
    /// ```
    pub fn operations<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.selection
            .only
            .get_or_insert_with(Default::default)
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Leaves out these operations (WSDL operation names, as for [`operations`]) and the types only
    /// they reach. An unknown name is an error.
    ///
    /// [`operations`]: Self::operations
    pub fn exclude_operations<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.selection
            .exclude
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Also generates, for each of these operations (WSDL operation names, or method names, as
    /// for [`operations`]), a `{method}_stream` method whose call gives the response's result
    /// elements one by one as the body arrives (`soapgen_runtime::ItemStream`), in memory
    /// bounded by one window of the body whatever the response's size: for the reports, exports
    /// and searches that answer with millions of rows. The operation's result must be the
    /// repeated element (maxOccurs above 1) of a document/literal wrapped or rpc/literal
    /// response; any other operation is an error saying why. Calls add up.
    ///
    /// [`operations`]: Self::operations
    ///
    /// ```no_run
    /// soapgen_build::Builder::new()
    ///     .wsdl("wsdl/reports.wsdl")
    ///     .stream_operations(["GetReport"])
    ///     .build()
    ///     .unwrap_or_else(|e| panic!("{e}"));
    /// ```
    pub fn stream_operations<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.selection
            .stream
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// Generates only these ports (`wsdl:port` names, WSDL 1.1 §2.7): the others are left out
    /// of the clients (their addresses, their WS-SecurityPolicy). An unknown name is an error
    /// listing the ports. Calls add up.
    pub fn ports<I, S>(mut self, names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.ports
            .0
            .get_or_insert_with(Default::default)
            .extend(names.into_iter().map(Into::into));
        self
    }

    /// The ports whose security the caller configures by hand (by port or binding local name;
    /// `"*"` for every port whose policy soapgen cannot enforce, the others keeping theirs). A
    /// port's WS-SecurityPolicy (WS-SecurityPolicy 1.2, attached as Web Services Policy 1.5
    /// Attachment §4.1 says) that has no alternative soapgen can enforce (an `sp:IssuedToken`,
    /// a Kerberos or SAML token, an assertion soapgen does not know) is otherwise an error
    /// naming each assertion and its binding; for these ports it is a warning, and the client
    /// is generated without it. A name that is no port or binding is an error. Calls add up.
    ///
    /// ```no_run
    /// soapgen_build::Builder::new()
    ///     .wsdl("wsdl/DoubleItSaml.wsdl")
    ///     .manual_security(["DoubleItSaml2TransportPort"])
    ///     .build()
    ///     .unwrap();
    /// ```
    pub fn manual_security<I, S>(mut self, ports: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.manual_security
            .0
            .extend(ports.into_iter().map(Into::into));
        self
    }

    /// Whether to carry documentation from the WSDL and schemas into doc comments (default true).
    pub fn docs(mut self, on: bool) -> Self {
        self.no_docs = !on;
        self
    }

    /// Generates the client of one WSDL in memory.
    ///
    /// # Errors
    ///
    /// [`Errors`] with file:line:col for documents that cannot be read or constructs that cannot be
    /// generated.
    pub fn generate_one(&self, wsdl: &Path) -> Result<Generated, Errors> {
        let mut catalog = self.catalog.clone();
        let mut files_read = Vec::new();
        let beside = wsdl
            .parent()
            .map(|d| d.join(CATALOG_FILE_NAME))
            .filter(|f| f.is_file() && !self.catalog_files.contains(f));
        // The catalog beside the WSDL first, so files named explicitly override its lines.
        for f in beside.iter().chain(&self.catalog_files) {
            catalog.read_file(f)?;
            files_read.push(f.clone());
        }
        if let Some(rt) = &self.runtime {
            if syn::parse_str::<syn::Path>(rt).is_err() {
                return Err(Error::new(
                    ErrorKind::Invalid(format!(
                        "the runtime path {rt:?} is not a Rust path (e.g. ::soapgen_runtime or \
                         crate::soap::runtime)"
                    )),
                    None,
                )
                .into());
            }
        }
        let mut loader = read::loader::Loader::new(catalog);
        for (path, text) in &self.documents {
            let abs = loader.entry(path)?;
            if let read::loader::Source::File(p) = abs {
                loader.memory.insert(p, text.clone());
            }
        }
        let entry = loader.entry(wsdl)?;
        let defs = read::read_wsdl(&mut loader, &entry)?;
        for f in loader.files_read {
            if !files_read.contains(&f) {
                files_read.push(f);
            }
        }
        let source = wsdl
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| wsdl.display().to_string());
        let module = model::build::build(
            &defs,
            &source,
            &model::build::Options {
                skip_unsupported: self.skip_unsupported,
                strict_use: self.strict_use,
                selection: self.selection.resolve(&defs, &source)?,
                manual_security: self.manual_security.clone(),
                ports: self.ports.clone(),
            },
        )?;
        let code = emit::emit(
            &module,
            &emit::EmitOptions {
                runtime: self
                    .runtime
                    .clone()
                    .unwrap_or_else(|| "::soapgen_runtime".to_owned()),
                docs: !self.no_docs,
                blocking: !self.no_blocking,
                default_namespaces: self.default_namespaces,
                both_directions: self.both_directions,
                fake: self.fake.clone(),
            },
        );
        Ok(Generated {
            code,
            files_read,
            module,
        })
    }

    /// The output file name (without `.rs`) for `wsdl`.
    pub fn out_name_for(&self, wsdl: &Path) -> String {
        self.out_names
            .iter()
            .find(|(w, _)| w == wsdl)
            .map(|(_, n)| n.clone())
            .unwrap_or_else(|| {
                wsdl.file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| "client".to_owned())
            })
    }

    /// Generates every WSDL into `$OUT_DIR/<name>.rs` and prints `cargo:rerun-if-changed` for every
    /// file read, and `cargo:warning` for every [warning](model::ir::Module::warnings). For
    /// `build.rs`.
    ///
    /// # Errors
    ///
    /// As [`generate_one`](Self::generate_one); also if `OUT_DIR` is unset or not writable.
    pub fn build(&self) -> Result<(), Errors> {
        let out_dir = std::env::var_os("OUT_DIR").ok_or_else(|| {
            Error::new(
                ErrorKind::Invalid("OUT_DIR is not set: Builder::build runs in build.rs (use generate_one elsewhere)".into()),
                None,
            )
        })?;
        self.write_to(Path::new(&out_dir), true)
    }

    /// Generates every WSDL into `dir/<name>.rs`; with `rerun`, prints `cargo:rerun-if-changed` lines
    /// and a `cargo:warning` line for every [warning](model::ir::Module::warnings).
    ///
    /// # Errors
    ///
    /// As [`generate_one`](Self::generate_one), and I/O errors writing.
    pub fn write_to(&self, dir: &Path, rerun: bool) -> Result<(), Errors> {
        if self.wsdls.is_empty() {
            return Err(Error::new(
                ErrorKind::Missing("a WSDL: call Builder::wsdl(path)".into()),
                None,
            )
            .into());
        }
        let mut names = std::collections::BTreeMap::new();
        for wsdl in &self.wsdls {
            let name = self.out_name_for(wsdl);
            if let Some(other) = names.insert(name.clone(), wsdl.clone()) {
                return Err(Error::new(
                    ErrorKind::Invalid(format!(
                        "{} and {} would both be written to {name}.rs",
                        other.display(),
                        wsdl.display()
                    )),
                    None,
                )
                .with_hint(format!(
                    "give one another name: Builder::out_name({:?}, \"…\")",
                    wsdl.display().to_string()
                ))
                .into());
            }
        }
        for wsdl in &self.wsdls {
            if rerun {
                // Even if generation fails, a fix to the WSDL must trigger a rebuild.
                println!("cargo:rerun-if-changed={}", wsdl.display());
            }
            let g = self.generate_one(wsdl)?;
            if rerun {
                for f in &g.files_read {
                    println!("cargo:rerun-if-changed={}", f.display());
                }
                for w in &g.module.warnings {
                    // One line each: Cargo shows a `cargo:warning` line as one warning.
                    println!(
                        "cargo:warning=soapgen: {}",
                        w.to_string().replace('\n', " ")
                    );
                }
            }
            let path = dir.join(format!("{}.rs", self.out_name_for(wsdl)));
            write_if_changed(&path, &g.code)?;
        }
        Ok(())
    }
}

/// Writes `contents` to `path` unless it already holds exactly that (keeps mtimes, and so builds,
/// stable).
///
/// # Errors
///
/// I/O errors.
pub fn write_if_changed(path: &Path, contents: &str) -> Result<(), Error> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::new(ErrorKind::Write(format!("{}: {e}", dir.display())), None))?;
    }
    std::fs::write(path, contents)
        .map_err(|e| Error::new(ErrorKind::Write(format!("{}: {e}", path.display())), None))
}
