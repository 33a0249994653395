//! The `soapgen` command, as a library function so that it is testable without a process
//! ([`run`] takes the parsed [`Cli`]; [`main_with_args`] is the whole process: parse, run, print,
//! exit status). The binary `soapgen` is a one-line `main` over [`main_with_args`].
//!
//! - `soapgen fetch <url> -o <dir>`: downloads a WSDL and everything it imports, with a catalog, so
//!   that the other commands work offline on the copy ([`fetch`]).
//! - `soapgen generate <wsdl> -o <dir>`: writes a standalone crate (Cargo.toml + src/lib.rs) to check
//!   in; running it twice gives no diff ([`generate`]).
//! - `soapgen inspect <wsdl>`: prints services, ports, operations with their Rust signatures, and the
//!   types, for finding one's way in a big WSDL; `--operation <name>` prints a sample request
//!   ([`inspect`]).
//! - `soapgen cert extract <message.xml> [--out DIR]`: writes the X.509 certificates a captured
//!   message carries as `.cer` files and describes them ([`cert`]).
//!
//! The code generation itself is `soapgen-build`'s (its [`Builder`](soapgen_build::Builder), also
//! used from `build.rs`); this crate is the command line around it.
//!
//! # Examples
//!
//! ```no_run
//! use clap::Parser;
//! let cli = soapgen_cli::Cli::parse_from(["soapgen", "inspect", "wsdl/Service.wsdl"]);
//! print!("{}", soapgen_cli::run(cli)?);
//! # Ok::<(), soapgen_build::Errors>(())
//! ```
//!
//! # Cargo features
#![doc = document_features::document_features!()]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod cert;
pub mod fetch;
pub mod generate;
pub mod input;
pub mod inspect;

use clap::{Parser, Subcommand};
use soapgen_build::Errors;

use cert::CertCommand;
use fetch::FetchArgs;
use generate::GenerateArgs;
use inspect::InspectArgs;

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

/// Runs the tool; returns what to print on success.
///
/// # Errors
///
/// Generation errors (with locations), I/O errors.
pub fn run(cli: Cli) -> Result<String, Errors> {
    match cli.command {
        Command::Fetch(args) => fetch::run(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Inspect(args) => inspect::run(&args),
        Command::Cert(CertCommand::Extract(args)) => cert::run(&args),
    }
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
        return match cert::extract_files(args) {
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
