//! `soapgen fetch`: downloads a WSDL and every document it imports or includes, transitively, into
//! one folder, with a catalog that maps each URL to its copy, so that generation then works offline.
//!
//! References followed (relative ones joined to the referencing document's URL, RFC 3986 §5.2):
//!
//! - `wsdl:import/@location` (WSDL 1.1 §2.1.1) and WSDL 2.0's `import`/`include` `@location`;
//! - `xs:import`, `xs:include`, `xs:redefine` and `xs:override` `@schemaLocation` (XML Schema Part 1
//!   §4.2), in schema documents and in the schemas inside `wsdl:types`.
//!
//! Each document is downloaded once (cycles end), stored byte for byte as served (nothing is
//! rewritten), under a short name derived from its URL ([`file_name_for`]) that is valid on every
//! platform. The catalog ([`CATALOG_FILE_NAME`]) lists `URL=file` lines in the format
//! [`Catalog::read_file`](soapgen_build::Catalog::read_file) reads; a [`Builder`](soapgen_build::Builder) finds it
//! beside the entry WSDL, and resolves relative references inside a copy against the URL it came
//! from, so the tree resolves as it did on the server. The standard W3C/OASIS schemas soapgen
//! bundles are not downloaded unless asked for ([`FetchOptions::include_bundled`]).
//!
//! Nothing is written unless every document was downloaded and is a WSDL or schema document.

mod args;
mod document;
mod error;
mod http;
mod names;
mod options;

pub use args::FetchArgs;
pub use document::DocKind;
pub use error::{FetchError, Referrer};
pub use http::MAX_DOCUMENT_BYTES;
pub use names::{file_name_for, MAX_FILE_NAME_LEN};
pub use options::{AuthScheme, FetchOptions, KerberosSource};
pub use soapgen_build::CATALOG_FILE_NAME;

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::io::IsTerminal as _;
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use soapgen_build::read::catalog;
use soapgen_build::read::loader::{join_url, normalize_url};
use soapgen_build::{Error, Errors};

use document::references;
use http::{authenticator, client, get, http_url, Pending};
use names::Namer;

/// Runs `soapgen fetch`: downloads the WSDL and its imports as the arguments say; returns the
/// report ([`FetchReport`]'s text).
///
/// # Errors
///
/// Unreadable client certificate or key files, and every [`fetch`] error.
pub fn run(args: &FetchArgs) -> Result<String, Errors> {
    let report = fetch(&args.options()?).map_err(Error::from)?;
    Ok(report.to_string())
}

/// One downloaded document.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// Its URL as referenced (joined to the referrer's URL if relative): the catalog's key.
    pub url: String,
    /// The URL it was finally served from, when a redirect led elsewhere (also in the catalog: the
    /// base of its relative references).
    pub redirected_to: Option<String>,
    /// Its file name in the output folder.
    pub file: String,
    /// WSDL or schema.
    pub kind: DocKind,
    /// Its size in bytes.
    pub bytes: usize,
    /// Who referenced it first (`None` for the entry).
    pub imported_by: Option<Referrer>,
}

/// What `fetch` did.
#[derive(Debug, Clone)]
pub struct FetchReport {
    /// The output folder.
    pub dir: PathBuf,
    /// The entry document's local copy (the path to give `soapgen generate`).
    pub entry: PathBuf,
    /// The catalog file written.
    pub catalog: PathBuf,
    /// Every document, the entry first, in the order found (breadth first).
    pub documents: Vec<Fetched>,
    /// URLs of standard schemas referenced but not downloaded, because soapgen bundles them.
    pub skipped_bundled: Vec<String>,
}

impl fmt::Display for FetchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.documents.len();
        writeln!(
            f,
            "fetched {n} document{} into {}",
            if n == 1 { "" } else { "s" },
            self.dir.display()
        )?;
        let width = self
            .documents
            .iter()
            .map(|d| d.file.len())
            .max()
            .unwrap_or(0);
        for d in &self.documents {
            writeln!(f, "  {:width$}  {}", d.file, d.url)?;
        }
        if !self.skipped_bundled.is_empty() {
            writeln!(f, "not downloaded, bundled with soapgen:")?;
            for u in &self.skipped_bundled {
                writeln!(f, "  {u}")?;
            }
        }
        writeln!(f, "catalog: {}", self.catalog.display())?;
        writeln!(
            f,
            "generate offline with: soapgen generate {} -o <crate dir>",
            self.entry.display()
        )
    }
}

/// Downloads `opts.url` and everything it references, then writes the documents and the catalog
/// into `opts.out`.
///
/// Requests are sequential, with `opts.timeout` each; redirects are followed (up to 10).
///
/// # Errors
///
/// The first document that cannot be fetched or used, naming its URL and the document and line that
/// referenced it ([`FetchError`]); nothing is written then. Also bad CA files and write errors.
pub fn fetch(opts: &FetchOptions) -> Result<FetchReport, FetchError> {
    let entry_url = opts.url.trim().to_owned();
    let entry = http_url(&entry_url, &None)?;
    // The challenge-response scheme's state across the documents: Digest's challenge and nonce
    // count; NTLM and Negotiate authenticate the one kept-alive connection.
    let auth = authenticator(opts)?;
    let client = client(
        opts,
        auth.as_ref()
            .is_some_and(|a| a.auth().is_connection_bound()),
    )?;
    let bar = progress_bar(opts.progress);

    let mut queue = VecDeque::from([Pending {
        url: entry_url.clone(),
        imported_by: None,
    }]);
    let mut seen: HashSet<String> = HashSet::from([normalize_url(&entry_url)]);
    let mut namer = Namer::default();
    let mut documents = Vec::new();
    let mut bodies = Vec::new();
    let mut skipped_bundled = Vec::new();
    while let Some(p) = queue.pop_front() {
        bar.set_message(p.url.clone());
        let (base, redirected_to, body) = get(&client, &p, opts, &entry, auth.as_ref())?;
        let (kind, references) = references(&p, &body)?;
        for (location, line) in references {
            let url = join_url(&base, &location);
            if !seen.insert(normalize_url(&url)) {
                continue;
            }
            if !opts.include_bundled && catalog::bundled_by_url(&url).is_some() {
                skipped_bundled.push(url);
                continue;
            }
            queue.push_back(Pending {
                url,
                imported_by: Some(Referrer {
                    url: p.url.clone(),
                    line,
                }),
            });
            bar.inc_length(1);
        }
        let file = namer.assign(&p.url, kind);
        documents.push(Fetched {
            url: p.url,
            redirected_to,
            file,
            kind,
            bytes: body.len(),
            imported_by: p.imported_by,
        });
        bodies.push(body);
        bar.inc(1);
    }
    bar.finish_and_clear();

    let dir = &opts.out;
    std::fs::create_dir_all(dir).map_err(|e| FetchError::Write {
        path: dir.clone(),
        message: e.to_string(),
    })?;
    for (d, body) in documents.iter().zip(&bodies) {
        let path = dir.join(&d.file);
        std::fs::write(&path, body).map_err(|e| FetchError::Write {
            path,
            message: e.to_string(),
        })?;
    }
    let catalog = dir.join(CATALOG_FILE_NAME);
    std::fs::write(&catalog, catalog_text(&entry_url, &documents)).map_err(|e| {
        FetchError::Write {
            path: catalog.clone(),
            message: e.to_string(),
        }
    })?;
    Ok(FetchReport {
        dir: dir.clone(),
        entry: dir.join(&documents[0].file),
        catalog,
        documents,
        skipped_bundled,
    })
}

/// The catalog: a comment naming the entry, then `URL=file` per document (and per redirect target,
/// after its original URL, so that it is the copy's base URL).
fn catalog_text(entry_url: &str, documents: &[Fetched]) -> String {
    let mut out = format!(
        "# soapgen catalog, written by `soapgen fetch {entry_url}`.\n\
         # Each line maps a document's URL to its local copy (the last `=` separates them).\n\
         # Entry: {entry}. Generate offline with `soapgen generate {entry} -o <crate dir>`:\n\
         # this file is read because it sits beside the WSDL.\n",
        entry = documents.first().map_or("", |d| d.file.as_str()),
    );
    for d in documents {
        out.push_str(&format!("{}={}\n", d.url, d.file));
        if let Some(r) = &d.redirected_to {
            out.push_str(&format!("{r}={}\n", d.file));
        }
    }
    out
}

fn progress_bar(wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(1);
    let style = ProgressStyle::with_template("{spinner} fetching {pos}/{len} {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}
