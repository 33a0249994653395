//! The `soapgen` command-line tool as a library function, so it is testable without a process.
//!
//! - `soapgen generate <wsdl> -o <dir>`: writes a standalone crate (Cargo.toml + src/lib.rs) to check
//!   in; running it twice gives no diff.
//! - `soapgen inspect <wsdl>`: prints services, ports, operations with their Rust signatures, and the
//!   types, for finding one's way in a big WSDL.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::model::ir::{Base, Card, Module, TypeDecl, TypeExpr};
use crate::{write_if_changed, Builder, Error, ErrorKind, Errors};

/// soapgen: statically typed SOAP clients from WSDL, generated ahead of time.
#[derive(Debug, Parser)]
#[command(name = "soapgen", version, about, long_about = None)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Write a standalone client crate (Cargo.toml and src/lib.rs) for a WSDL.
    Generate(GenerateArgs),
    /// Print the services, ports, operations (as Rust signatures) and types of a WSDL.
    Inspect(InspectArgs),
}

/// Options shared by the subcommands that read a WSDL.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// The WSDL 1.1 file.
    pub wsdl: PathBuf,
    /// Map an absolute schema URL to a local file: `--catalog URL=PATH` (repeatable).
    #[arg(long = "catalog", value_name = "URL=PATH")]
    pub catalog: Vec<String>,
    /// Read catalog entries from a file of URL=PATH lines.
    #[arg(long = "catalog-file", value_name = "FILE")]
    pub catalog_file: Vec<PathBuf>,
    /// Leave out operations that use unsupported constructs (listed in the output) instead of failing.
    #[arg(long)]
    pub skip_unsupported: bool,
}

/// `soapgen generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The WSDL and catalog.
    #[command(flatten)]
    pub input: InputArgs,
    /// The crate directory to write (created if missing).
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// The crate's name (default: the WSDL's file stem, as a crate name).
    #[arg(long)]
    pub name: Option<String>,
    /// How the crate depends on soapgen-runtime: a version requirement ("0.1") or a path
    /// ("path:../soapgen-runtime", relative to the crate directory).
    #[arg(long, default_value = "0.1")]
    pub runtime: String,
    /// Leave documentation from the WSDL out of the generated code.
    #[arg(long)]
    pub no_docs: bool,
    /// Do not generate `…BlockingClient`s (then the runtime's `blocking` feature is not needed).
    #[arg(long)]
    pub no_blocking: bool,
}

/// `soapgen inspect`.
#[derive(Debug, Args)]
pub struct InspectArgs {
    /// The WSDL and catalog.
    #[command(flatten)]
    pub input: InputArgs,
    /// Also list every generated type with its fields.
    #[arg(long)]
    pub types: bool,
}

fn builder(input: &InputArgs) -> Result<Builder, Errors> {
    let mut b = Builder::new()
        .wsdl(&input.wsdl)
        .skip_unsupported_operations(input.skip_unsupported);
    for entry in &input.catalog {
        let Some((url, path)) = entry.split_once('=') else {
            return Err(Error::new(
                ErrorKind::Invalid(format!("--catalog takes URL=PATH, got {entry:?}")),
                None,
            )
            .into());
        };
        b = b.catalog_entry(url, path);
    }
    for f in &input.catalog_file {
        b = b.catalog_file(f);
    }
    Ok(b)
}

/// Runs the tool; returns what to print on success.
///
/// # Errors
///
/// Generation errors (with locations), I/O errors.
pub fn run(cli: Cli) -> Result<String, Errors> {
    match cli.command {
        Command::Generate(args) => generate(&args),
        Command::Inspect(args) => {
            let b = builder(&args.input)?;
            let g = b.generate_one(&args.input.wsdl)?;
            Ok(inspect(&g.module, args.types))
        }
    }
}

fn crate_name(stem: &str) -> String {
    let mut s: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    while s.contains("--") {
        s = s.replace("--", "-");
    }
    let s = s.trim_matches('-').to_owned();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        format!("soap-{s}")
    } else {
        s
    }
}

fn generate(args: &GenerateArgs) -> Result<String, Errors> {
    let b = builder(&args.input)?
        .docs(!args.no_docs)
        .blocking(!args.no_blocking);
    let g = b.generate_one(&args.input.wsdl)?;
    let stem = args
        .input
        .wsdl
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "client".to_owned());
    let name = args.name.clone().unwrap_or_else(|| crate_name(&stem));
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        || name.starts_with(|c: char| c.is_ascii_digit())
    {
        return Err(Error::new(
            ErrorKind::Invalid(format!(
                "--name {name:?} is not a crate name (ASCII letters, digits, `-` and `_`, not starting with a digit)"
            )),
            None,
        )
        .into());
    }
    if args.runtime.is_empty() || args.runtime == "path:" {
        return Err(Error::new(
            ErrorKind::Invalid("--runtime takes a version (0.1) or path:DIR".into()),
            None,
        )
        .into());
    }
    let dep = match args.runtime.strip_prefix("path:") {
        Some(p) => format!("{{ path = {p:?}, features = [\"blocking\"] }}"),
        None => format!(
            "{{ version = {:?}, features = [\"blocking\"] }}",
            args.runtime
        ),
    };
    let wsdl_name = args
        .input
        .wsdl
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let cargo = format!(
        "# @generated by soapgen {ver} from {wsdl_name}. Regenerate with:\n\
         #   soapgen generate <path to {wsdl_name}> -o <this directory>\n\
         [package]\nname = {name:?}\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"src/lib.rs\"\n\n[dependencies]\nsoapgen-runtime = {dep}\n",
        ver = env!("CARGO_PKG_VERSION"),
    );
    let lib = format!(
        "//! SOAP client for `{wsdl_name}`, generated by soapgen.\n//!\n\
         //! The message types are in [`types`]; each trait has an async `…Client` (and a\n\
         //! `…BlockingClient` unless generated with --no-blocking).\n\n{}",
        g.code
    );
    let out = &args.out;
    write_if_changed(&out.join("Cargo.toml"), &cargo)?;
    write_if_changed(&out.join("src").join("lib.rs"), &lib)?;
    Ok(format!(
        "wrote crate {name} to {} ({} types, {} clients, {} operations)\n",
        out.display(),
        g.module.types.len(),
        g.module.clients.len(),
        g.module
            .clients
            .iter()
            .map(|c| c.operations.len())
            .sum::<usize>()
    ))
}

fn type_text(t: &TypeExpr) -> String {
    fn base(b: &Base) -> String {
        match b {
            Base::Std(s) => (*s).to_owned(),
            Base::Runtime(p) => p.rsplit("::").next().unwrap_or(p).to_owned(),
            Base::Named(n) => n.clone(),
            Base::List(i) => format!("List<{}>", base(i)),
        }
    }
    let mut inner = base(&t.base);
    if t.boxed {
        inner = format!("Box<{inner}>");
    }
    match t.card {
        Card::One => inner,
        Card::Optional => format!("Option<{inner}>"),
        Card::Many => format!("Vec<{inner}>"),
        Card::Nillable => format!("Nillable<{inner}>"),
        Card::OptionalNillable => format!("Option<Nillable<{inner}>>"),
        Card::ManyNillable => format!("Vec<Nillable<{inner}>>"),
    }
}

/// A readable summary of a model: clients, endpoints, operations as Rust signatures; with `types`,
/// every type and its fields.
pub fn inspect(m: &Module, types: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", m.source);
    for c in &m.clients {
        let _ = writeln!(
            out,
            "\ntrait {} ({}; client {}Client)",
            c.name,
            if c.soap12 { "SOAP 1.2" } else { "SOAP 1.1" },
            c.name
        );
        for (service, port, address) in &c.ports {
            let _ = writeln!(
                out,
                "  service {service}, port {port}: {}",
                address.as_deref().unwrap_or("(no address)")
            );
        }
        if c.ports.is_empty() {
            let _ = writeln!(out, "  (no service port uses this binding: give the endpoint when constructing the client)");
        }
        for op in &c.operations {
            let params: Vec<String> = op
                .headers
                .iter()
                .map(|p| format!("{}: {} /* header */", p.name, type_text(&p.ty)))
                .chain(
                    op.params
                        .iter()
                        .map(|p| format!("{}: {}", p.name, type_text(&p.ty))),
                )
                .collect();
            let ret = op
                .ret
                .as_ref()
                .map(type_text)
                .unwrap_or_else(|| "()".to_owned());
            let err = op
                .faults
                .clone()
                .map(|f| format!("FaultError<{f}>"))
                .unwrap_or_else(|| "Error".into());
            let _ = writeln!(
                out,
                "  async fn {}(&self{}{}) -> Result<{ret}, {err}>;{}",
                op.method,
                if params.is_empty() { "" } else { ", " },
                params.join(", "),
                if op.action.is_empty() {
                    String::new()
                } else {
                    format!("  // soapAction {}", op.action)
                }
            );
        }
    }
    if types {
        let _ = writeln!(out, "\ntypes:");
        for t in &m.types {
            match t {
                TypeDecl::Struct(s) => {
                    let _ = writeln!(out, "  struct {} ({})", s.name, s.origin);
                    for f in &s.fields {
                        let _ = writeln!(out, "    {}: {}", f.name, type_text(&f.ty));
                    }
                }
                TypeDecl::Enum(e) => {
                    let vals: Vec<&str> = e.values.iter().map(|(_, v)| v.as_str()).collect();
                    let _ = writeln!(out, "  enum {} = {:?}", e.name, vals);
                }
                TypeDecl::Alias(a) => {
                    let _ = writeln!(
                        out,
                        "  type {} = {}",
                        a.name,
                        type_text(&TypeExpr::one(a.target.clone()))
                    );
                }
                TypeDecl::Faults(f) => {
                    let _ = writeln!(
                        out,
                        "  faults {} = {:?}",
                        f.name,
                        f.variants.iter().map(|v| v.0.as_str()).collect::<Vec<_>>()
                    );
                }
            }
        }
    } else {
        let _ = writeln!(out, "\n{} types (list them with --types)", m.types.len());
    }
    for n in &m.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}

/// The process entry point: parses arguments, runs, prints; exit code 1 on errors.
pub fn main_with_args(args: impl IntoIterator<Item = std::ffi::OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(s) => {
            print!("{s}");
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}
