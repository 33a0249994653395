//! `soapgen generate`: a standalone client crate (Cargo.toml and src/lib.rs) for a WSDL, to check
//! in. Running it twice gives no diff: files are only written when they change, the Cargo.toml
//! names the command that regenerates the crate from its own directory (paths relative to it), and
//! files soapgen did not write are not replaced unless asked (`--force`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use soapgen_build::paths::{physical, relative_to};
use soapgen_build::{write_if_changed, Error, ErrorKind, Errors};

use crate::input::InputArgs;

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
    /// Generate only this operation, by its WSDL name or its method name, and the types it
    /// reaches (repeatable; as gSOAP's wsdl2h -Ow4, types derived from reached ones and
    /// substitution group members are kept). `soapgen inspect --operation NAME` shows what one
    /// keeps.
    #[arg(long = "operation", value_name = "NAME")]
    pub operation: Vec<String>,
    /// Leave out this operation, by its WSDL name or its method name, and the types only it
    /// reaches (repeatable).
    #[arg(long = "exclude-operation", value_name = "NAME")]
    pub exclude_operation: Vec<String>,
    /// Also give this operation (WSDL or method name, repeatable) a `…_stream` method whose
    /// result elements arrive one by one as the response is read (`ItemStream`), in bounded
    /// memory whatever the response's size; its result must be a repeated element of a wrapped
    /// response, or an array type holding one (.NET's `ArrayOf…`), whose items are streamed.
    #[arg(long = "stream", value_name = "NAME")]
    pub stream: Vec<String>,
    /// The clients write request payloads with default-namespace declarations (`<Get
    /// xmlns="urn:x">`, `xmlns=""` on unqualified children) instead of prefixes, for servers that
    /// do not resolve element prefixes (the same names; Namespaces in XML 1.0 §6.2).
    #[arg(long)]
    pub default_namespaces: bool,
    /// Configure this port's security by hand (port or binding name, repeatable; `*` for every
    /// port whose policy soapgen cannot enforce, the others keeping theirs): a WS-SecurityPolicy
    /// soapgen cannot enforce (an IssuedToken, a Kerberos or SAML token, an assertion it does
    /// not know) is then a warning instead of an error. A named port's policy is not applied.
    /// `soapgen inspect` shows what each port's policy demands.
    #[arg(long = "manual-security", value_name = "PORT")]
    pub manual_security: Vec<String>,
    /// Derive both the writer and the reader of every type (`ToXml`, `FromXml`): by default a
    /// type gets only the directions the operations use it in (sent: the writer; received: the
    /// reader), which compiles faster. Turn this on to serialize received values yourself.
    #[arg(long)]
    pub both_directions: bool,
    /// Give each client an in-process fake of its service for tests (`Client::fake(service)`,
    /// answering with an implementation of the service trait), behind the crate's Cargo
    /// feature `fake`, which enables soapgen-runtime's `testing`: production builds compile no
    /// fake. Turn it on in the dev-dependency: `features = ["fake"]`.
    #[arg(long)]
    pub fake: bool,
}

/// Runs `soapgen generate`: generates the client of the WSDL and writes the crate, unless a
/// `Cargo.toml` or `src/lib.rs` there was not written by soapgen (and `--force` is not given);
/// returns the report (what was written, the warnings).
///
/// # Errors
///
/// Generation errors (with locations), an invalid `--name` or `--runtime`, a file soapgen did not
/// write, I/O errors.
pub fn run(args: &GenerateArgs) -> Result<String, Errors> {
    let mut b = args
        .input
        .builder()?
        .docs(!args.no_docs)
        .blocking(!args.no_blocking)
        .default_namespaces(args.default_namespaces)
        .both_directions(args.both_directions)
        .manual_security(&args.manual_security);
    if args.fake {
        b = b.fake(soapgen_build::Fake::Feature("fake".to_owned()));
    }
    if !args.operation.is_empty() {
        b = b.operations(&args.operation);
    }
    b = b
        .exclude_operations(&args.exclude_operation)
        .stream_operations(&args.stream);
    let g = b.generate_one(&args.input.wsdl)?;
    let name = package_name(args)?;
    let out = &args.out;
    // A port whose WS-SecurityPolicy the client applies needs the runtime's `wss` feature.
    let secured = g
        .module
        .clients
        .iter()
        .flat_map(|c| &c.ports)
        .any(|p| p.security.as_ref().is_some_and(|s| !s.manual));
    let dep = runtime_dependency(&args.runtime, out, !args.no_blocking, secured)?;
    let wsdl_name = wsdl_file_name(&args.input.wsdl);
    let cargo = cargo_toml(args, &name, &wsdl_name, &dep);
    let lib = format!(
        "{LIB_START}{wsdl_name}{LIB_END}\n//!\n\
         //! The message types are in [`types`]; each trait has an async `…Client` (and a\n\
         //! `…BlockingClient` unless generated with --no-blocking).\n\n{}",
        g.code
    );
    // What no --force can write through: a file where the crate directory or one of its files
    // should be, a `..` after a directory that does not exist.
    check_destination(out)?;
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

/// The generated crate's name: `--name`, else the WSDL's file stem as a crate name.
///
/// # Errors
///
/// A `--name` that is not a crate name (ASCII letters, digits, `-` and `_`, not starting with a
/// digit).
fn package_name(args: &GenerateArgs) -> Result<String, Error> {
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
        ));
    }
    Ok(name)
}

/// The WSDL's file name as the generated files' first lines name it, a control character (a
/// newline would end the comment line it stands in) shown as U+FFFD.
fn wsdl_file_name(wsdl: &Path) -> String {
    wsdl.file_name()
        .map(|s| {
            s.to_string_lossy()
                .chars()
                .map(|c| if c.is_control() { '\u{FFFD}' } else { c })
                .collect::<String>()
        })
        .unwrap_or_default()
}

/// The generated crate's Cargo.toml: a header saying soapgen wrote it from `wsdl_name` and the
/// command that regenerates it, then the package `name` depending on the runtime (`dep`).
fn cargo_toml(args: &GenerateArgs, name: &str, wsdl_name: &str, dep: &str) -> String {
    format!(
        "# @generated by soapgen {ver} from {wsdl_name}. Regenerate with, from this directory:\n\
         #   {command}\n\
         [package]\nname = {name:?}\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\npath = \"src/lib.rs\"\n\n[dependencies]\nsoapgen-runtime = {dep}\n{features}",
        ver = env!("CARGO_PKG_VERSION"),
        command = regenerate_command(args),
        features = if args.fake {
            "\n[features]\n# The in-process fake of each client's service, for tests (soapgen generate --fake).\nfake = [\"soapgen-runtime/testing\"]\n"
        } else {
            ""
        },
    )
}

/// `stem` as a crate name: ASCII letters and digits lowercased, runs of anything else one `-`,
/// `soap-` before a name that would be empty or start with a digit.
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

/// What the first line of a Cargo.toml `soapgen generate` wrote starts with.
const CARGO_MARK: &str = "# @generated by soapgen ";
/// The first line of a lib.rs `soapgen generate` wrote: this, the WSDL's file name, then
/// [`LIB_END`].
const LIB_START: &str = "//! SOAP client for `";
/// How the first line of a lib.rs `soapgen generate` wrote ends.
const LIB_END: &str = "`, generated by soapgen.";

/// An error unless the crate can be written at `out`: `out` and `out/src` are directories or
/// absent, `out/Cargo.toml` and `out/src/lib.rs` are not directories, and no `..` of `out`
/// follows a directory that does not exist (which would be created only to be left: `nonex/../x`).
fn check_destination(out: &Path) -> Result<(), Error> {
    let write_error = |what: String| Err(Error::new(ErrorKind::Write(what), None));
    let mut prefix = std::path::PathBuf::new();
    for c in out.components() {
        if c == std::path::Component::ParentDir
            && !prefix.as_os_str().is_empty()
            && !prefix.is_dir()
        {
            return write_error(format!(
                "{}: {} does not exist, so `..` after it names nothing: nothing written",
                out.display(),
                prefix.display()
            ));
        }
        prefix.push(c);
    }
    for dir in [out.to_path_buf(), out.join("src")] {
        if dir.exists() && !dir.is_dir() {
            return write_error(format!(
                "{}: not a directory (-o names the crate directory): nothing written",
                dir.display()
            ));
        }
    }
    for file in [out.join("Cargo.toml"), out.join("src").join("lib.rs")] {
        if file.is_dir() {
            return write_error(format!(
                "{} is a directory, where soapgen writes a file: nothing written (remove it, or \
                 choose another -o directory)",
                file.display()
            ));
        }
    }
    Ok(())
}

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
fn runtime_dependency(
    runtime: &str,
    out: &Path,
    blocking: bool,
    wss: bool,
) -> Result<String, Error> {
    let features = match (blocking, wss) {
        (true, true) => ", features = [\"blocking\", \"wss\"]",
        (true, false) => ", features = [\"blocking\"]",
        (false, true) => ", features = [\"wss\"]",
        (false, false) => "",
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
        (args.both_directions, "--both-directions"),
        (args.fake, "--fake"),
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
    for o in &args.stream {
        push("--stream", Some(o.clone()));
    }
    for p in &args.input.port {
        push("--port", Some(p.clone()));
    }
    for p in &args.manual_security {
        push("--manual-security", Some(p.clone()));
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
