//! The `soapgen` command-line tool as a library function, so it is testable without a process.
//!
//! - `soapgen fetch <url> -o <dir>`: downloads a WSDL and everything it imports, with a catalog, so
//!   that the other commands work offline on the copy ([`crate::fetch`]).
//! - `soapgen generate <wsdl> -o <dir>`: writes a standalone crate (Cargo.toml + src/lib.rs) to check
//!   in; running it twice gives no diff.
//! - `soapgen inspect <wsdl>`: prints services, ports, operations with their Rust signatures, and the
//!   types, for finding one's way in a big WSDL; `--operation <name>` prints a sample request.
//! - `soapgen cert extract <message.xml> [--out DIR]`: writes the X.509 certificates a captured
//!   message carries as `.cer` files and describes them ([`crate::cert`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::paths::{physical, relative_to};
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use crate::emit::sample;
use crate::fetch::{self, FetchOptions};
use crate::model::ir::{Base, Module, Occurrence, SoapVersion, TypeDecl, TypeExpr};
use crate::{write_if_changed, Builder, Error, ErrorKind, Errors};

const AFTER_HELP: &str = "\
Examples:
  soapgen fetch 'https://example.com/Weather.svc?wsdl' -o wsdl
  soapgen inspect wsdl/Weather.svc.wsdl
  soapgen inspect wsdl/Weather.svc.wsdl --operation GetWeather
  soapgen generate wsdl/Weather.svc.wsdl -o weather-client --runtime 0.1
  soapgen cert extract captured-response.xml --out certs

Generated clients log every request and response envelope, with passwords, nonces and key
material redacted, at the tracing target soapgen::wire: RUST_LOG=soapgen::wire=trace";

/// soapgen: statically typed SOAP clients from WSDL, generated ahead of time.
///
/// Everything works offline: `fetch` downloads a WSDL and the documents it imports once, then
/// `inspect` and `generate` read the local copy.
#[derive(Debug, Parser)]
#[command(name = "soapgen", version, about, after_help = AFTER_HELP, term_width = 100)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Download a WSDL and every document it imports or includes, with a catalog for offline use.
    ///
    /// Follows wsdl:import, xs:import, xs:include and xs:redefine (in wsdl:types too), relative and
    /// absolute, transitively; each document is downloaded once and stored unmodified under a short
    /// name taken from its URL. The catalog soapgen.catalog maps each URL to its copy; `generate`
    /// and `inspect` read it when it sits beside the WSDL they are given. Nothing is written unless
    /// every document could be downloaded.
    Fetch(FetchArgs),
    /// Write a standalone client crate (Cargo.toml and src/lib.rs) for a WSDL.
    ///
    /// Running it twice gives no diff, and unchanged files are not rewritten.
    Generate(GenerateArgs),
    /// Print the services, ports, operations (as Rust signatures) and types of a WSDL, or a sample
    /// request for one operation.
    Inspect(InspectArgs),
    /// Work with the X.509 certificates of WS-Security messages.
    #[command(subcommand)]
    Cert(CertCommand),
}

/// `soapgen cert` subcommands.
#[derive(Debug, Subcommand)]
pub enum CertCommand {
    /// Write the X.509 certificates a captured SOAP message carries as DER files, and describe
    /// them.
    ///
    /// Reads every wsse:BinarySecurityToken with an X509v3 ValueType and every ds:X509Certificate
    /// (any namespace prefix) and writes each as <wsu:Id or index>.cer. Prints subject, issuer,
    /// serial (decimal and hex), SubjectKeyIdentifier (hex), SHA-1 thumbprint (base64, as a
    /// ThumbprintSHA1 KeyIdentifier carries it), validity (RFC 3339) and key type and size. A
    /// malformed certificate is reported with the reason and the exit status is 1; the other
    /// tokens are still written and printed.
    Extract(CertExtractArgs),
}

/// `soapgen cert extract`.
#[derive(Debug, Args)]
pub struct CertExtractArgs {
    /// The captured message: a SOAP envelope as it went over the wire (from a proxy or a packet
    /// capture; soapgen's own wire log redacts the tokens).
    pub message: PathBuf,
    /// The directory to write the .cer files to (created if missing; files of the same names
    /// are overwritten).
    #[arg(short, long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
}

/// Options shared by the subcommands that read a WSDL.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// The WSDL 1.1 file (or a standalone XSD). A catalog named soapgen.catalog beside it, as
    /// `soapgen fetch` writes, is read too.
    pub wsdl: PathBuf,
    /// Map an absolute schema or WSDL URL to a local file: `--catalog URL=PATH` (repeatable; the
    /// last `=` separates them). The common W3C and OASIS schemas are bundled and need no entry.
    #[arg(long = "catalog", value_name = "URL=PATH")]
    pub catalog: Vec<String>,
    /// Read catalog entries from a file of `URL=PATH` lines, paths relative to the file, `#`
    /// comments (repeatable).
    #[arg(long = "catalog-file", value_name = "FILE")]
    pub catalog_file: Vec<PathBuf>,
    /// Leave out operations that use unsupported constructs (listed in the output) instead of
    /// failing.
    #[arg(long)]
    pub skip_unsupported: bool,
    /// Refuse use="encoded" under style="document" (an unsupported construct) instead of reading
    /// it as use="literal" with a warning (WS-I Basic Profile 1.0 R2706 forbids encoded).
    #[arg(long)]
    pub strict_use: bool,
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
    #[arg(long, value_name = "VERSION|path:DIR", default_value = "0.1")]
    pub runtime: String,
    /// Leave documentation from the WSDL out of the generated code.
    #[arg(long)]
    pub no_docs: bool,
    /// Do not generate `…BlockingClient`s (then the runtime's `blocking` feature is not needed).
    #[arg(long)]
    pub no_blocking: bool,
    /// Replace a Cargo.toml or src/lib.rs in the crate directory that soapgen did not write (by
    /// default such files are left alone and nothing is written).
    #[arg(long)]
    pub force: bool,
    /// Generate only this operation, by its WSDL name, and the types it reaches (repeatable; as
    /// gSOAP's wsdl2h -Ow4, types derived from reached ones and substitution group members are
    /// kept). `soapgen inspect --operation NAME` shows what one keeps.
    #[arg(long = "operation", value_name = "NAME")]
    pub operation: Vec<String>,
    /// Leave out this operation, by its WSDL name, and the types only it reaches (repeatable).
    #[arg(long = "exclude-operation", value_name = "NAME")]
    pub exclude_operation: Vec<String>,
    /// The clients write request payloads with default-namespace declarations (`<Get
    /// xmlns="urn:x">`, `xmlns=""` on unqualified children) instead of prefixes, for servers that
    /// do not resolve element prefixes (the same names; Namespaces in XML 1.0 §6.2).
    #[arg(long)]
    pub default_namespaces: bool,
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
    /// Print a sample request for this operation instead: the HTTP headers and a SOAP envelope with
    /// placeholder values, for each binding that has it, and how many types generating only it
    /// (`generate --operation`) keeps. Takes the WSDL operation name or the Rust method name.
    #[arg(long, value_name = "NAME")]
    pub operation: Option<String>,
    /// With `--operation`: the request as a client generated with `--default-namespaces` writes
    /// it (default-namespace declarations instead of prefixes in the Body).
    #[arg(long)]
    pub default_namespaces: bool,
}

/// `soapgen fetch`.
#[derive(Debug, Args)]
pub struct FetchArgs {
    /// The URL of the WSDL (http or https), e.g. `https://example.com/Weather.svc?wsdl`.
    pub url: String,
    /// The directory to write the documents and soapgen.catalog to (created if missing; files of the
    /// same names are overwritten).
    #[arg(short, long, value_name = "DIR")]
    pub out: PathBuf,
    /// Give up on a request that takes longer than this, connecting included.
    #[arg(long, value_name = "SECONDS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout: u64,
    /// HTTP authentication user name (basic, or with --digest, --ntlm, --negotiate). Credentials
    /// are sent only to the entry URL's scheme, host and port, never to other hosts the documents
    /// import from.
    #[arg(short, long, value_name = "NAME")]
    pub user: Option<String>,
    /// HTTP authentication password (with --user). Prefer the SOAPGEN_PASSWORD environment
    /// variable, which keeps it out of the process list and shell history.
    #[arg(
        long,
        value_name = "PASSWORD",
        env = "SOAPGEN_PASSWORD",
        hide_env_values = true
    )]
    pub password: Option<String>,
    /// Answer the server's HTTP Digest challenge (RFC 7616: MD5, SHA-256, SHA-512-256) with
    /// --user and --password, instead of sending them as HTTP basic authentication.
    #[arg(long, requires = "user", conflicts_with_all = ["ntlm", "negotiate"])]
    pub digest: bool,
    /// Authenticate with NTLM (MS-NLMP over HTTP, RFC 4559) as --user (`DOMAIN\user`) and
    /// --password, on one kept-alive connection. Needs soapgen built with its `ntlm` feature.
    #[arg(long, requires = "user", conflicts_with = "negotiate")]
    pub ntlm: bool,
    /// Authenticate with Negotiate (RFC 4559: SPNEGO with NTLM; no Kerberos) as --user and
    /// --password, on one kept-alive connection. Needs soapgen built with its `ntlm` feature.
    #[arg(long, requires = "user")]
    pub negotiate: bool,
    /// Present this TLS client certificate: a PEM file with the certificate (then its
    /// intermediates) and, unless --client-key is given, its unencrypted private key.
    #[arg(long, value_name = "PEM_FILE", conflicts_with = "client_pkcs12")]
    pub client_cert: Option<PathBuf>,
    /// The private key of --client-cert (PEM: PKCS#8, PKCS#1 or SEC1, unencrypted).
    #[arg(long, value_name = "PEM_FILE", requires = "client_cert")]
    pub client_key: Option<PathBuf>,
    /// Present the TLS client certificate and key of this PKCS#12 file (.p12, .pfx), opened with
    /// --pkcs12-password or SOAPGEN_PKCS12_PASSWORD (empty if neither is set).
    #[arg(long, value_name = "FILE")]
    pub client_pkcs12: Option<PathBuf>,
    /// The password of --client-pkcs12. Prefer the SOAPGEN_PKCS12_PASSWORD environment variable.
    #[arg(
        long,
        value_name = "PASSWORD",
        env = "SOAPGEN_PKCS12_PASSWORD",
        hide_env_values = true
    )]
    pub pkcs12_password: Option<String>,
    /// Accept any TLS certificate: self-signed, expired or for another host. For test servers
    /// only: the documents could then come from anyone.
    #[arg(long)]
    pub insecure: bool,
    /// Trust the CA certificates in this PEM file besides the built-in roots, for servers with a
    /// private CA (repeatable).
    #[arg(long, value_name = "PEM_FILE")]
    pub ca_cert: Vec<PathBuf>,
    /// Also download the standard W3C and OASIS schemas that soapgen bundles (XML, SOAP envelope
    /// and encoding, WS-Addressing, XML-DSig, XML-Enc…), which are skipped by default.
    #[arg(long)]
    pub include_bundled: bool,
    /// No progress bar (it is drawn on stderr, and only when stderr is a terminal).
    #[arg(short, long)]
    pub quiet: bool,
}

fn builder(input: &InputArgs) -> Result<Builder, Errors> {
    let mut b = Builder::new()
        .wsdl(&input.wsdl)
        .skip_unsupported_operations(input.skip_unsupported)
        .strict_use(input.strict_use);
    for entry in &input.catalog {
        let Some((url, path)) = entry.rsplit_once('=') else {
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
        Command::Fetch(args) => {
            let report = fetch::fetch(&fetch_options(&args)?).map_err(Error::from)?;
            Ok(report.to_string())
        }
        Command::Generate(args) => generate(&args),
        Command::Inspect(args) => {
            let b = builder(&args.input)?;
            let g = b.generate_one(&args.input.wsdl)?;
            match &args.operation {
                Some(op) => {
                    let mut out = sample_request(&g.module, op, args.default_namespaces)?;
                    out.push_str(&selection_summary(&b, &args.input.wsdl, &g.module, op)?);
                    Ok(out)
                }
                None => Ok(inspect(&g.module, args.types)),
            }
        }
        Command::Cert(CertCommand::Extract(args)) => {
            let x = cert_extract(&args)?;
            if x.failed > 0 {
                return Err(Error::new(
                    ErrorKind::Invalid(format!(
                        "{x_report}{n} of the certificates in {} could not be read",
                        args.message.display(),
                        x_report = x.report,
                        n = x.failed
                    )),
                    None,
                )
                .into());
            }
            Ok(x.report)
        }
    }
}

fn cert_extract(args: &CertExtractArgs) -> Result<crate::cert::Extracted, Errors> {
    crate::cert::extract(&args.message, &args.out)
        .map_err(|e| Error::new(ErrorKind::Invalid(e), None).into())
}

fn fetch_options(args: &FetchArgs) -> Result<FetchOptions, Errors> {
    use soapgen_runtime::transport::ClientIdentity;
    let mut o = FetchOptions::new(args.url.clone(), args.out.clone());
    o.timeout = Duration::from_secs(args.timeout);
    o.basic_auth = args.user.clone().map(|u| (u, args.password.clone()));
    o.auth_scheme = if args.digest {
        fetch::AuthScheme::Digest
    } else if args.ntlm {
        fetch::AuthScheme::Ntlm
    } else if args.negotiate {
        fetch::AuthScheme::Negotiate
    } else {
        fetch::AuthScheme::Basic
    };
    let invalid = |m: String| -> Errors { Error::new(ErrorKind::Invalid(m), None).into() };
    let read = |flag: &str, p: &PathBuf| {
        std::fs::read(p).map_err(|e| invalid(format!("{flag} {}: {e}", p.display())))
    };
    o.client_identity = match (&args.client_cert, &args.client_key, &args.client_pkcs12) {
        (Some(cert), key, _) => {
            let pem = read("--client-cert", cert)?;
            let id = match key {
                Some(k) => ClientIdentity::from_pem_pair(&pem, &read("--client-key", k)?),
                None => ClientIdentity::from_pem(&pem),
            };
            Some(id.map_err(|e| invalid(format!("--client-cert {}: {e}", cert.display())))?)
        }
        (None, _, Some(p12)) => {
            let der = read("--client-pkcs12", p12)?;
            let pw = args.pkcs12_password.as_deref().unwrap_or("");
            Some(
                ClientIdentity::from_pkcs12(&der, pw)
                    .map_err(|e| invalid(format!("--client-pkcs12 {}: {e}", p12.display())))?,
            )
        }
        (None, _, None) => None,
    };
    if args.user.is_none() && args.password.is_some() {
        // Not an error (SOAPGEN_PASSWORD may be set for other fetches), but not silent either.
        eprintln!("soapgen fetch: a password is set (--password or SOAPGEN_PASSWORD) but no --user: no credentials are sent");
    }
    o.accept_invalid_certs = args.insecure;
    o.ca_certs = args.ca_cert.clone();
    o.include_bundled = args.include_bundled;
    o.progress = !args.quiet;
    Ok(o)
}

/// The constructor of a client for SOAP `version` besides `new` (the default version's).
fn constructor(version: SoapVersion) -> &'static str {
    match version {
        SoapVersion::Soap11 => "soap11",
        SoapVersion::Soap12 => "soap12",
    }
}

/// The HTTP headers and a sample envelope for operation `name` (WSDL or Rust name) in every
/// client that has it, for each SOAP version the client speaks.
///
/// # Errors
///
/// No operation of that name, with the names there are.
pub fn sample_request(m: &Module, name: &str, default_namespaces: bool) -> Result<String, Error> {
    let mut out = String::new();
    for c in &m.clients {
        for op in c
            .operations
            .iter()
            .filter(|o| o.wsdl_name == name || o.method.trim_start_matches("r#") == name)
        {
            for &v in &c.versions {
                if !out.is_empty() {
                    out.push('\n');
                }
                let how = if c.versions.len() == 1 {
                    String::new()
                } else if v == c.default_version() {
                    "the default; ".to_owned()
                } else {
                    format!("{}Client::{}; ", c.name, constructor(v))
                };
                let _ = writeln!(
                    out,
                    "operation {} in {}, {v} ({how}{}Client::{})",
                    op.wsdl_name, c.name, c.name, op.method
                );
                let endpoint = c
                    .ports
                    .iter()
                    .filter(|p| p.version == v)
                    .find_map(|p| p.usable_address())
                    .unwrap_or("<endpoint>");
                let _ = writeln!(out, "POST {endpoint}");
                for (h, value) in sample::request_headers(v, op) {
                    let _ = writeln!(out, "{h}: {value}");
                }
                out.push('\n');
                out.push_str(&sample::request_envelope(m, v, op, default_namespaces));
            }
        }
    }
    if out.is_empty() {
        let mut names: Vec<&str> = m
            .clients
            .iter()
            .flat_map(|c| c.operations.iter().map(|o| o.wsdl_name.as_str()))
            .collect();
        names.sort_unstable();
        names.dedup();
        return Err(Error::new(
            ErrorKind::Undefined(format!("operation {name:?} in {}", m.source)),
            None,
        )
        .with_hint(if names.is_empty() {
            "it has no SOAP operations".to_owned()
        } else {
            format!("its operations: {}", names.join(", "))
        }));
    }
    Ok(out)
}

/// What generating only operation `name` (WSDL or Rust name, found in `full`) keeps, as a line for
/// `inspect --operation`.
fn selection_summary(
    b: &Builder,
    wsdl: &std::path::Path,
    full: &Module,
    name: &str,
) -> Result<String, Errors> {
    let Some(op) = full
        .clients
        .iter()
        .flat_map(|c| &c.operations)
        .find(|o| o.wsdl_name == name || o.method.trim_start_matches("r#") == name)
    else {
        return Ok(String::new());
    };
    let selected = b
        .clone()
        .operations([op.wsdl_name.as_str()])
        .generate_one(wsdl)?;
    let m = &selected.module;
    let ops: usize = m.clients.iter().map(|c| c.operations.len()).sum();
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    Ok(format!(
        "\n`soapgen generate --operation {}` keeps {} of the {} types ({} in {})\n",
        op.wsdl_name,
        m.types.len(),
        full.types.len(),
        plural(ops, "operation", "operations"),
        plural(m.clients.len(), "client", "clients"),
    ))
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
    let mut b = builder(&args.input)?
        .docs(!args.no_docs)
        .blocking(!args.no_blocking)
        .default_namespaces(args.default_namespaces);
    if !args.operation.is_empty() {
        b = b.operations(&args.operation);
    }
    b = b.exclude_operations(&args.exclude_operation);
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
    let out = &args.out;
    let dep = runtime_dependency(&args.runtime, out, !args.no_blocking)?;
    let wsdl_name = args
        .input
        .wsdl
        .file_name()
        // A control character (a newline) would end the comment lines it stands in.
        .map(|s| {
            s.to_string_lossy()
                .chars()
                .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
                .collect::<String>()
        })
        .unwrap_or_default();
    let cargo = format!(
        "# @generated by soapgen {ver} from {wsdl_name}. Regenerate with, from this directory:\n\
         #   {command}\n\
         [package]\nname = {name:?}\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"src/lib.rs\"\n\n[dependencies]\nsoapgen-runtime = {dep}\n",
        ver = env!("CARGO_PKG_VERSION"),
        command = regenerate_command(args),
    );
    let lib = format!(
        "{LIB_START}{wsdl_name}{LIB_END}\n//!\n\
         //! The message types are in [`types`]; each trait has an async `…Client` (and a\n\
         //! `…BlockingClient` unless generated with --no-blocking).\n\n{}",
        g.code
    );
    if !args.force {
        refuse_foreign(&out.join("Cargo.toml"), |l| l.starts_with(CARGO_MARK))?;
        refuse_foreign(&out.join("src").join("lib.rs"), |l| {
            l.starts_with(LIB_START) && l.ends_with(LIB_END)
        })?;
    }
    // src/lib.rs first: a directory that cannot take it gets no Cargo.toml either.
    write_if_changed(&out.join("src").join("lib.rs"), &lib)?;
    write_if_changed(&out.join("Cargo.toml"), &cargo)?;
    let mut report = format!(
        "wrote crate {name} to {} ({} types, {} clients, {} operations)\n",
        out.display(),
        g.module.types.len(),
        g.module.clients.len(),
        g.module
            .clients
            .iter()
            .map(|c| c.operations.len())
            .sum::<usize>()
    );
    for w in &g.module.warnings {
        let _ = writeln!(report, "warning: {w}");
    }
    Ok(report)
}

/// What the first line of a Cargo.toml `soapgen generate` wrote starts with.
const CARGO_MARK: &str = "# @generated by soapgen ";
/// The first line of a lib.rs `soapgen generate` wrote: this, the WSDL's file name, then
/// [`LIB_END`].
const LIB_START: &str = "//! SOAP client for `";
/// How the first line of a lib.rs `soapgen generate` wrote ends.
const LIB_END: &str = "`, generated by soapgen.";

/// An error if `path` exists and its first line is not one `ours` accepts: a file soapgen did
/// not write, which `generate` must not replace without `--force` (a directory, a file that is
/// not text, or a symbolic link to nothing, is refused too).
fn refuse_foreign(path: &Path, ours: impl Fn(&str) -> bool) -> Result<(), Error> {
    let first = match std::fs::read_to_string(path) {
        Ok(text) => {
            let first = text.lines().next().unwrap_or_default();
            first.strip_prefix('\u{feff}').unwrap_or(first).to_owned()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && path.symlink_metadata().is_ok() => {
            return Err(Error::new(
                ErrorKind::Write(format!(
                    "{} is a symbolic link to nothing: nothing written (remove it, or pass \
                     --force to write through it)",
                    path.display()
                )),
                None,
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => {
            let dir = path
                .ancestors()
                .skip(1)
                .find(|d| d.is_file())
                .unwrap_or(path);
            return Err(Error::new(
                ErrorKind::Write(format!(
                    "{}: not a directory (-o names the crate directory)",
                    dir.display()
                )),
                None,
            ));
        }
        Err(e) => {
            return Err(Error::new(
                ErrorKind::Write(format!("{}: {e}", path.display())),
                None,
            ))
        }
    };
    if ours(&first) {
        return Ok(());
    }
    Err(Error::new(
        ErrorKind::Write(format!(
            "{} exists and was not written by soapgen: nothing written (choose another -o \
             directory, or pass --force to replace it)",
            path.display()
        )),
        None,
    ))
}

/// The `soapgen-runtime` dependency line of a generated crate in `out`: `runtime` is a version
/// requirement (Cargo's syntax, `0.1`, `^0.1.2`, `=0.1.0`) or `path:DIR` (relative to `out`, or
/// absolute), which must hold a Cargo.toml.
fn runtime_dependency(runtime: &str, out: &Path, blocking: bool) -> Result<String, Error> {
    let features = if blocking {
        ", features = [\"blocking\"]"
    } else {
        ""
    };
    let invalid = |why: String| Error::new(ErrorKind::Invalid(why), None);
    match runtime.strip_prefix("path:") {
        Some("") => Err(invalid(
            "--runtime path: needs a directory (path:DIR)".into(),
        )),
        Some(p) => {
            // As Cargo will from the crate directory (which may not exist yet).
            let dir = physical(&out.join(p));
            if !dir.join("Cargo.toml").is_file() {
                return Err(invalid(format!(
                    "--runtime {runtime}: no Cargo.toml at {} (DIR is relative to the crate \
                     directory, {})",
                    dir.join("Cargo.toml").display(),
                    out.display()
                )));
            }
            Ok(format!("{{ path = {}{features} }}", toml_string(p)))
        }
        None => match semver::VersionReq::parse(runtime) {
            Ok(_) => Ok(format!(
                "{{ version = {}{features} }}",
                toml_string(runtime)
            )),
            Err(e) => Err(invalid(format!(
                "--runtime {runtime:?} is neither a version requirement (0.1) nor path:DIR: {e}"
            ))),
        },
    }
}

/// The `soapgen generate` command that rewrites a crate made with `args`, run from the crate's
/// directory (`-o .`; the WSDL, catalog and catalog-file paths made relative to it), so that a
/// checked-in crate says the same on every machine.
fn regenerate_command(args: &GenerateArgs) -> String {
    let mut words = vec!["soapgen".to_owned(), "generate".to_owned()];
    let mut push = |flag: &str, value: Option<String>| {
        words.push(flag.to_owned());
        words.extend(value);
    };
    let here = |p: &Path| relative_to(p, &args.out).display().to_string();
    // A path starting with `-` would read as an option.
    let wsdl = here(&args.input.wsdl);
    push(
        &if wsdl.starts_with('-') {
            format!("./{wsdl}")
        } else {
            wsdl
        },
        None,
    );
    push("-o", Some(".".to_owned()));
    for c in &args.input.catalog {
        // URL=PATH, split at the last `=` as the catalog reads it.
        let entry = match c.rsplit_once('=') {
            Some((url, path)) => format!("{url}={}", here(Path::new(path))),
            None => c.clone(),
        };
        push("--catalog", Some(entry));
    }
    for f in &args.input.catalog_file {
        push("--catalog-file", Some(here(f)));
    }
    if let Some(n) = &args.name {
        push("--name", Some(n.clone()));
    }
    push("--runtime", Some(args.runtime.clone()));
    for (on, flag) in [
        (args.input.skip_unsupported, "--skip-unsupported"),
        (args.input.strict_use, "--strict-use"),
        (args.no_docs, "--no-docs"),
        (args.no_blocking, "--no-blocking"),
        (args.default_namespaces, "--default-namespaces"),
    ] {
        if on {
            push(flag, None);
        }
    }
    for o in &args.operation {
        push("--operation", Some(o.clone()));
    }
    for o in &args.exclude_operation {
        push("--exclude-operation", Some(o.clone()));
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `s` as a TOML basic string (TOML 1.0 §String): `"` and `\\` escaped, control characters as
/// `\\uXXXX`, everything else as it is.
fn toml_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `w` quoted for a POSIX shell when it holds anything but plain path and flag characters
/// (`$'…'` when it holds a control character, so that the command stays on one line).
fn shell_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=@+,%".contains(c))
    {
        w.to_owned()
    } else if w.chars().any(char::is_control) {
        let mut out = String::from("$'");
        for c in w.chars() {
            match c {
                '\'' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
                c => out.push(c),
            }
        }
        out.push('\'');
        out
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

fn type_text(t: &TypeExpr) -> String {
    fn base(b: &Base) -> String {
        match b {
            Base::Std(s) => (*s).to_owned(),
            Base::Runtime(p) => p.rsplit("::").next().unwrap_or(p).to_owned(),
            Base::Named(n) => n.clone(),
            Base::List(i) => format!("List<{}>", base(i)),
            Base::SoapArray(i) => format!("SoapArray<{}>", base(i)),
        }
    }
    let mut inner = base(&t.base);
    if t.boxed {
        inner = format!("Box<{inner}>");
    }
    match t.card {
        Occurrence::One => inner,
        Occurrence::Optional => format!("Option<{inner}>"),
        Occurrence::Many => format!("Vec<{inner}>"),
        Occurrence::Nillable => format!("Nillable<{inner}>"),
        Occurrence::OptionalNillable => format!("OptionalNillable<{inner}>"),
        Occurrence::ManyNillable => format!("Vec<Nillable<{inner}>>"),
    }
}

/// A readable summary of a model: clients with their SOAP versions, bindings and ports, operations
/// as Rust signatures, notes and warnings; with `types`, every type and its fields.
pub fn inspect(m: &Module, types: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", m.source);
    for c in &m.clients {
        let versions = match c.versions.as_slice() {
            [one] => one.to_string(),
            vs => format!(
                "SOAP {}, {} by default",
                vs.iter()
                    .map(|v| v.number())
                    .collect::<Vec<_>>()
                    .join(" and "),
                c.default_version().number()
            ),
        };
        let _ = writeln!(
            out,
            "\ntrait {} ({versions}; client {}Client)",
            c.name, c.name
        );
        let bindings: Vec<String> = c
            .bindings
            .iter()
            .map(|(b, v)| format!("{} ({v})", b.local))
            .collect();
        let _ = writeln!(
            out,
            "  {} {} of portType {}",
            if bindings.len() == 1 {
                "binding"
            } else {
                "bindings"
            },
            bindings.join(", "),
            c.port_type.local
        );
        for p in &c.ports {
            let address = match (&p.address, &p.address_problem) {
                (Some(a), None) => a.clone(),
                (Some(a), Some(problem)) => format!("{a} (not the default endpoint: it {problem})"),
                (None, _) => "(no address)".to_owned(),
            };
            let _ = writeln!(
                out,
                "  service {}, port {} ({}): {address}",
                p.service, p.port, p.version
            );
        }
        if c.ports.is_empty() {
            let _ = writeln!(out, "  (no service port uses its bindings: give the endpoint when constructing the client)");
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
                TypeDecl::Derivations(d) => {
                    let _ = writeln!(out, "  xsi:type {} ({})", d.name, d.base);
                    for v in &d.variants {
                        let _ = writeln!(out, "    {}({})", v.name, v.xsd_type);
                    }
                }
                TypeDecl::Choice(c) => {
                    let _ = writeln!(out, "  choice {} ({})", c.name, c.origin);
                    for v in &c.variants {
                        let _ = writeln!(out, "    {}({})", v.name, type_text(&v.ty));
                    }
                }
            }
        }
    } else {
        let _ = writeln!(out, "\n{} types (list them with --types)", m.types.len());
    }
    for n in &m.notes {
        let _ = writeln!(out, "note: {n}");
    }
    for w in &m.warnings {
        let _ = writeln!(out, "warning: {w}");
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
    // `cert extract` prints what it could read even when some tokens fail, then exits with 1.
    if let Command::Cert(CertCommand::Extract(args)) = &cli.command {
        return match cert_extract(args) {
            Ok(x) => {
                print!("{}", x.report);
                if x.failed > 0 {
                    eprintln!(
                        "error: {} of the certificates in {} could not be read",
                        x.failed,
                        args.message.display()
                    );
                    1
                } else {
                    0
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                1
            }
        };
    }
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
