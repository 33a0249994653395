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
//! [`Catalog::read_file`](crate::Catalog::read_file) reads; a [`Builder`](crate::Builder) finds it
//! beside the entry WSDL, and resolves relative references inside a copy against the URL it came
//! from, so the tree resolves as it did on the server. The standard W3C/OASIS schemas soapgen
//! bundles are not downloaded unless asked for ([`FetchOptions::include_bundled`]).
//!
//! Nothing is written unless every document was downloaded and is a WSDL or schema document.

use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::io::{IsTerminal as _, Read as _};
use std::path::PathBuf;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};

use crate::read::catalog;
use crate::read::components::{WSDL, WSDL20, XS};
use crate::read::document::{too_deep, MAX_DEPTH};
use crate::read::loader::{decode_text, join_url, normalize_url};
pub use crate::CATALOG_FILE_NAME;

mod names;
pub use names::file_name_for;
use names::Namer;

/// The largest document accepted, in bytes (256 MiB): the biggest real WSDLs are a few MiB.
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// The longest file name [`file_name_for`] produces, in bytes (extension included).
pub const MAX_FILE_NAME_LEN: usize = 64;

/// What `fetch` downloads, and how.
#[derive(Debug, Clone)]
pub struct FetchOptions {
    /// The entry document's URL (`http` or `https`), e.g. `http://host/Service.svc?wsdl`.
    pub url: String,
    /// The folder to write the documents and the catalog to (created if missing).
    pub out: PathBuf,
    /// Limit on each request, connecting included (default 30 s).
    pub timeout: Duration,
    /// HTTP authentication user name and password, sent only to the entry URL's origin (scheme,
    /// host and port), never to other hosts an import names, by the scheme
    /// [`auth_scheme`](Self::auth_scheme) says (HTTP basic, RFC 7617, by default).
    pub basic_auth: Option<(String, Option<String>)>,
    /// How [`basic_auth`](Self::basic_auth)'s credentials are sent: at once in each request
    /// (Basic), or in answer to the server's `401` challenge (Digest, RFC 7616), by the code the
    /// runtime's transport uses (`soapgen_runtime::transport::auth`).
    pub auth_scheme: AuthScheme,
    /// A TLS client certificate to present (RFC 8446 §4.4.2), read from PEM or PKCS#12 with
    /// `soapgen_runtime::transport::ClientIdentity`, to every host.
    pub client_identity: Option<soapgen_runtime::transport::ClientIdentity>,
    /// Accept any TLS certificate (self-signed, expired, another host's). For test servers only.
    pub accept_invalid_certs: bool,
    /// PEM files of CA certificates to trust besides the built-in (Mozilla) roots.
    pub ca_certs: Vec<PathBuf>,
    /// Also download the standard schemas soapgen bundles (XML, SOAP, WS-Addressing, XML-DSig…),
    /// which are otherwise skipped: generation finds them offline.
    pub include_bundled: bool,
    /// Show a progress bar on stderr when stderr is a terminal.
    pub progress: bool,
}

impl FetchOptions {
    /// Options for downloading `url` into `out`, with the defaults: 30 s timeout, no credentials,
    /// certificates checked against the built-in roots, bundled schemas skipped, progress shown on a
    /// terminal.
    pub fn new(url: impl Into<String>, out: impl Into<PathBuf>) -> Self {
        FetchOptions {
            url: url.into(),
            out: out.into(),
            timeout: Duration::from_secs(30),
            basic_auth: None,
            auth_scheme: AuthScheme::Basic,
            client_identity: None,
            accept_invalid_certs: false,
            ca_certs: Vec::new(),
            include_bundled: false,
            progress: true,
        }
    }
}

/// The HTTP authentication scheme of [`FetchOptions::basic_auth`]'s credentials.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum AuthScheme {
    /// HTTP basic (RFC 7617): `Authorization: Basic` on every request to the entry's origin.
    #[default]
    Basic,
    /// HTTP Digest (RFC 7616: MD5, SHA-256, SHA-512-256, `qop=auth`): the first request to the
    /// origin goes out without credentials, its `401` challenge is answered, and later requests
    /// answer the remembered challenge with the next nonce count.
    Digest,
    /// NTLM (MS-NLMP, framed as RFC 4559 §4; user `DOMAIN\user`): a three-leg handshake on one
    /// kept-alive connection, which then stays authenticated for the other documents. Needs
    /// soapgen-build's `ntlm` feature (soapgen-runtime's NTLM code); without it, a
    /// [`FetchError::Setup`].
    Ntlm,
    /// Negotiate (RFC 4559 §4): SPNEGO (RFC 4178) with NTLM as its mechanism, both
    /// `mechListMIC`s checked, on one kept-alive connection as [`Ntlm`](Self::Ntlm). Needs the
    /// `ntlm` feature too.
    Negotiate,
}

impl AuthScheme {
    /// The scheme's name as HTTP writes it (`Basic`, `Digest`, `NTLM`, `Negotiate`).
    pub fn name(self) -> &'static str {
        match self {
            AuthScheme::Basic => "Basic",
            AuthScheme::Digest => "Digest",
            AuthScheme::Ntlm => "NTLM",
            AuthScheme::Negotiate => "Negotiate",
        }
    }
}

/// The runtime's authenticator for the challenge-response schemes (`None` for Basic).
fn authenticator(
    scheme: AuthScheme,
    user: &str,
    password: &str,
) -> Result<Option<soapgen_runtime::transport::auth::Authenticator>, FetchError> {
    use soapgen_runtime::transport::auth::Authenticator;
    use soapgen_runtime::transport::HttpAuth;
    let auth = match scheme {
        AuthScheme::Basic => return Ok(None),
        AuthScheme::Digest => HttpAuth::digest(user, password),
        #[cfg(feature = "ntlm")]
        AuthScheme::Ntlm => HttpAuth::ntlm(user, password),
        #[cfg(feature = "ntlm")]
        AuthScheme::Negotiate => HttpAuth::negotiate(user, password),
        #[cfg(not(feature = "ntlm"))]
        AuthScheme::Ntlm | AuthScheme::Negotiate => {
            return Err(FetchError::Setup(format!(
                "{} authentication needs soapgen built with its `ntlm` feature \
                 (cargo install soapgen-build --features cli,ntlm)",
                scheme.name()
            )))
        }
    };
    Ok(Some(Authenticator::new(auth)))
}

/// The document that referenced another, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Referrer {
    /// The referencing document's URL.
    pub url: String,
    /// 1-based line of the `import`/`include` element in it.
    pub line: u32,
}

impl fmt::Display for Referrer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "imported by {} at line {}", self.url, self.line)
    }
}

/// " (imported by … at line …)", or nothing for the entry document.
struct By<'a>(&'a Option<Referrer>);

impl fmt::Display for By<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(r) => write!(f, " ({r})"),
            None => Ok(()),
        }
    }
}

/// Why `fetch` failed. Every variant about a document names its URL and, unless it is the entry, the
/// document that imported it.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FetchError {
    /// A URL that cannot be fetched: not absolute, or not `http`/`https`.
    #[error("cannot fetch {url:?}: {reason}{}", By(imported_by))]
    InvalidUrl {
        /// The URL (joined to its referrer's URL if it was relative).
        url: String,
        /// Why not.
        reason: String,
        /// Who referenced it.
        imported_by: Option<Referrer>,
    },
    /// The server answered with a status other than 2xx (after following redirects).
    #[error("GET {url} failed: {status} {reason}{}{}", By(imported_by), hint(*status))]
    Status {
        /// The URL requested.
        url: String,
        /// The HTTP status code.
        status: u16,
        /// Its reason phrase (`Not Found`).
        reason: String,
        /// Who referenced it.
        imported_by: Option<Referrer>,
    },
    /// HTTP authentication failed: the server refused the credentials (`401` again after an
    /// answer), or sent a challenge that cannot be answered (RFC 9110 §11). Names the scheme and
    /// user, never the password.
    #[error(
        "GET {url}: HTTP {scheme} authentication failed: {message}{}",
        By(imported_by)
    )]
    Auth {
        /// The URL requested.
        url: String,
        /// The scheme (`Digest`, `NTLM`, `Negotiate`).
        scheme: &'static str,
        /// What went wrong.
        message: String,
        /// Who referenced it.
        imported_by: Option<Referrer>,
    },
    /// No answer: connection refused, DNS, TLS, timeout.
    #[error("GET {url} failed: {message}{}", By(imported_by))]
    Transport {
        /// The URL requested.
        url: String,
        /// What went wrong, with its causes.
        message: String,
        /// Whether the request timed out.
        timeout: bool,
        /// Who referenced it.
        imported_by: Option<Referrer>,
    },
    /// A document was downloaded but is not usable: not well-formed XML, not UTF-8/UTF-16, neither
    /// a WSDL nor a schema, too large or too deeply nested.
    #[error("{url}: {message}{}", By(imported_by))]
    Document {
        /// The document's URL.
        url: String,
        /// What is wrong with it.
        message: String,
        /// Who referenced it.
        imported_by: Option<Referrer>,
    },
    /// A CA certificate file cannot be read or holds no PEM certificate, or the HTTP client cannot
    /// be set up.
    #[error("{0}")]
    Setup(String),
    /// Writing a document or the catalog failed.
    #[error("cannot write {}: {message}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        message: String,
    },
}

fn hint(status: u16) -> &'static str {
    match status {
        401 => "; the server wants credentials: give --user and --password",
        _ => "",
    }
}

impl FetchError {
    /// The document that referenced the one that failed (`None` for the entry document and for
    /// errors not about one document).
    pub fn imported_by(&self) -> Option<&Referrer> {
        match self {
            FetchError::InvalidUrl { imported_by, .. }
            | FetchError::Status { imported_by, .. }
            | FetchError::Transport { imported_by, .. }
            | FetchError::Auth { imported_by, .. }
            | FetchError::Document { imported_by, .. } => imported_by.as_ref(),
            FetchError::Setup(_) | FetchError::Write { .. } => None,
        }
    }

    /// The HTTP status, for [`FetchError::Status`].
    pub fn status(&self) -> Option<u16> {
        match self {
            FetchError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether a request timed out.
    pub fn is_timeout(&self) -> bool {
        matches!(self, FetchError::Transport { timeout: true, .. })
    }
}

impl From<FetchError> for crate::Error {
    fn from(e: FetchError) -> Self {
        crate::Error::new(crate::ErrorKind::Fetch(e.to_string()), None)
    }
}

/// What a document is, from its root element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    /// `wsdl:definitions` (WSDL 1.1) or `description` (WSDL 2.0): stored as `.wsdl`.
    Wsdl,
    /// `xs:schema`: stored as `.xsd`.
    Schema,
}

impl DocKind {
    /// The file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            DocKind::Wsdl => "wsdl",
            DocKind::Schema => "xsd",
        }
    }
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

struct Pending {
    url: String,
    imported_by: Option<Referrer>,
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
    let auth = match &opts.basic_auth {
        Some((user, password)) => authenticator(
            opts.auth_scheme,
            user,
            password.as_deref().unwrap_or_default(),
        )?,
        None => None,
    };
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

fn client(
    opts: &FetchOptions,
    connection_bound: bool,
) -> Result<reqwest::blocking::Client, FetchError> {
    let mut b = reqwest::blocking::Client::builder()
        .use_rustls_tls()
        .timeout(opts.timeout)
        .connect_timeout(opts.timeout)
        .user_agent(concat!("soapgen/", env!("CARGO_PKG_VERSION")))
        .danger_accept_invalid_certs(opts.accept_invalid_certs);
    if connection_bound {
        // NTLM and Negotiate authenticate a connection (RFC 4559 §6): every request goes out on
        // the one kept-alive HTTP/1.1 connection the handshake ran on.
        b = b.http1_only().pool_max_idle_per_host(1);
    }
    if let Some(id) = &opts.client_identity {
        let id = id
            .to_reqwest()
            .map_err(|e| FetchError::Setup(format!("the client certificate: {e}")))?;
        b = b.identity(id);
    }
    for file in &opts.ca_certs {
        let pem = std::fs::read(file)
            .map_err(|e| FetchError::Setup(format!("--ca-cert {}: {e}", file.display())))?;
        let certs = reqwest::Certificate::from_pem_bundle(&pem).map_err(|e| {
            FetchError::Setup(format!(
                "--ca-cert {}: not a PEM certificate file: {e}",
                file.display()
            ))
        })?;
        if certs.is_empty() {
            return Err(FetchError::Setup(format!(
                "--ca-cert {}: no PEM certificate (-----BEGIN CERTIFICATE-----) in it",
                file.display()
            )));
        }
        for c in certs {
            b = b.add_root_certificate(c);
        }
    }
    b.build()
        .map_err(|e| FetchError::Setup(format!("cannot set up the HTTP client: {e}")))
}

/// `url` parsed, if it is an absolute http(s) URL.
fn http_url(url: &str, by: &Option<Referrer>) -> Result<reqwest::Url, FetchError> {
    let invalid = |reason: String| FetchError::InvalidUrl {
        url: url.to_owned(),
        reason,
        imported_by: by.clone(),
    };
    // A URL parser drops tabs and line breaks silently; the catalog is line-based, so they are
    // refused rather than written into it.
    if url.chars().any(char::is_control) {
        return Err(invalid("it contains control characters".to_owned()));
    }
    let parsed = reqwest::Url::parse(url).map_err(|e| invalid(format!("not a URL ({e})")))?;
    match parsed.scheme() {
        "http" | "https" => Ok(parsed),
        other => Err(invalid(format!(
            "only http and https URLs are fetched, not {other}:"
        ))),
    }
}

/// Downloads one document: (the base URL of its references, the redirect target if any, its bytes).
fn get(
    client: &reqwest::blocking::Client,
    p: &Pending,
    opts: &FetchOptions,
    entry: &reqwest::Url,
    auth: Option<&soapgen_runtime::transport::auth::Authenticator>,
) -> Result<(String, Option<String>, Vec<u8>), FetchError> {
    let url = http_url(&p.url, &p.imported_by)?;
    let same_origin = url.origin() == entry.origin();
    let transport = |e: reqwest::Error| FetchError::Transport {
        url: p.url.clone(),
        message: describe(&e, opts.timeout),
        timeout: e.is_timeout(),
        imported_by: p.imported_by.clone(),
    };
    // Digest (RFC 7616), NTLM and Negotiate (RFC 4559): send, answer the 401's challenge, send
    // again (the runtime's handshake decides when to give up). Redirects are followed by reqwest
    // without credentials.
    let mut handshake = auth
        .filter(|_| same_origin)
        .map(|d| d.start("GET", url.as_str()));
    let auth_error = |e: soapgen_runtime::transport::auth::AuthError| FetchError::Auth {
        url: p.url.clone(),
        scheme: e.scheme,
        message: e.message,
        imported_by: p.imported_by.clone(),
    };
    let resp = loop {
        let mut req = client.get(url.clone());
        match (&handshake, &opts.basic_auth) {
            (Some(h), _) => {
                if let Some(a) = h.authorization() {
                    req = req.header(reqwest::header::AUTHORIZATION, a);
                }
            }
            (None, Some((user, password))) if same_origin && auth.is_none() => {
                req = req.basic_auth(user, password.as_ref());
            }
            _ => {}
        }
        let mut resp = req.send().map_err(transport)?;
        let Some(h) = handshake.as_mut() else {
            break resp;
        };
        let challenges: Vec<String> = resp
            .headers()
            .get_all(reqwest::header::WWW_AUTHENTICATE)
            .iter()
            .filter_map(|v| v.to_str().ok().map(str::to_owned))
            .collect();
        let challenges: Vec<&str> = challenges.iter().map(String::as_str).collect();
        if resp.status() != reqwest::StatusCode::UNAUTHORIZED {
            // A server's final Negotiate token (RFC 4559 §4.1) must verify.
            h.accepted(&challenges).map_err(auth_error)?;
            break resp;
        }
        h.unauthorized(&challenges).map_err(auth_error)?;
        // Read the 401's body to its end, so that its connection goes back to the pool and the
        // next leg of a connection-bound handshake travels on it.
        std::io::copy(
            &mut (&mut resp).take(MAX_DOCUMENT_BYTES),
            &mut std::io::sink(),
        )
        .map_err(|e| FetchError::Transport {
            url: p.url.clone(),
            message: format!("reading the 401 response: {e}"),
            timeout: e.kind() == std::io::ErrorKind::TimedOut,
            imported_by: p.imported_by.clone(),
        })?;
    };
    let status = resp.status();
    if !status.is_success() {
        return Err(FetchError::Status {
            url: p.url.clone(),
            status: status.as_u16(),
            reason: status.canonical_reason().unwrap_or("").to_owned(),
            imported_by: p.imported_by.clone(),
        });
    }
    let redirected_to = (resp.url() != &url).then(|| resp.url().to_string());
    let mut body = Vec::new();
    resp.take(MAX_DOCUMENT_BYTES + 1)
        .read_to_end(&mut body)
        .map_err(|e| FetchError::Transport {
            url: p.url.clone(),
            message: format!("reading the response: {e}"),
            timeout: e.kind() == std::io::ErrorKind::TimedOut,
            imported_by: p.imported_by.clone(),
        })?;
    if body.len() as u64 > MAX_DOCUMENT_BYTES {
        return Err(FetchError::Document {
            url: p.url.clone(),
            message: format!("larger than {} MiB", MAX_DOCUMENT_BYTES >> 20),
            imported_by: p.imported_by.clone(),
        });
    }
    let base = redirected_to.clone().unwrap_or_else(|| p.url.clone());
    Ok((base, redirected_to, body))
}

/// A reqwest error as one line: its causes, innermost last (the top level only repeats the URL).
fn describe(e: &reqwest::Error, timeout: Duration) -> String {
    if e.is_timeout() {
        return format!("timed out after {} s", timeout.as_secs_f64());
    }
    let mut parts: Vec<String> = Vec::new();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    if parts.is_empty() {
        e.to_string()
    } else {
        parts.join(": ")
    }
}

/// The document's kind and the locations it references, with their lines.
fn references(p: &Pending, body: &[u8]) -> Result<(DocKind, Vec<(String, u32)>), FetchError> {
    let bad = |message: String| FetchError::Document {
        url: p.url.clone(),
        message,
        imported_by: p.imported_by.clone(),
    };
    let text = decode_text(body.to_vec()).map_err(|e| bad(e.to_string()))?;
    if let Some(at) = too_deep(&text, MAX_DEPTH) {
        let (line, _) = crate::read::loader::line_column(text.as_bytes(), at);
        return Err(bad(format!(
            "elements nested deeper than {MAX_DEPTH} levels at line {line}"
        )));
    }
    let opts = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(&text, opts).map_err(|e| {
        bad(format!(
            "not well-formed XML ({e}); the response begins {:?}",
            excerpt(&text)
        ))
    })?;
    let root = doc.root_element();
    let (ns, name) = (
        root.tag_name().namespace().unwrap_or(""),
        root.tag_name().name(),
    );
    let kind = match (ns, name) {
        (WSDL, "definitions") | (WSDL20, "description") => DocKind::Wsdl,
        (XS, "schema") => DocKind::Schema,
        _ => {
            return Err(bad(format!(
                "not a WSDL or XML Schema document (root element {{{ns}}}{name})"
            )))
        }
    };
    let mut refs = Vec::new();
    for node in doc.descendants().filter(roxmltree::Node::is_element) {
        let t = node.tag_name();
        let attr = match (t.namespace().unwrap_or(""), t.name()) {
            (WSDL | WSDL20, "import" | "include") => "location",
            (XS, "import" | "include" | "redefine" | "override") => "schemaLocation",
            _ => continue,
        };
        if let Some(location) = node.attribute(attr).map(str::trim) {
            if !location.is_empty() {
                let line = doc.text_pos_at(node.range().start).row;
                refs.push((location.to_owned(), line));
            }
        }
    }
    Ok((kind, refs))
}

/// The first characters of a document, whitespace collapsed, for error messages.
fn excerpt(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    let mut out: String = joined.chars().take(80).collect();
    if joined.chars().count() > 80 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_document_and_its_importer() {
        let by = Some(Referrer {
            url: "http://h/a.wsdl".into(),
            line: 12,
        });
        let e = FetchError::Status {
            url: "http://h/b.xsd".into(),
            status: 404,
            reason: "Not Found".into(),
            imported_by: by.clone(),
        };
        assert_eq!(
            e.to_string(),
            "GET http://h/b.xsd failed: 404 Not Found (imported by http://h/a.wsdl at line 12)"
        );
        assert_eq!(e.status(), Some(404));
        assert_eq!(e.imported_by(), by.as_ref());
        // Line breaks (from `&#10;` in an attribute) would split a catalog line: refused.
        let e = http_url(
            "http://h/a.xsd\nhttp://www.w3.org/2001/xml.xsd=evil.xsd",
            &by,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("it contains control characters (imported by"),
            "{e}"
        );
        assert!(http_url("http://h/a%0A.xsd", &None).is_ok());
    }
}
