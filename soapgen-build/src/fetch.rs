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

use crate::model::components::XS;
use crate::read::loader::{decode_text, join_url, normalize_url};
use crate::read::{catalog, too_deep, wsdl, MAX_DEPTH};
pub use crate::CATALOG_FILE_NAME;

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
    let text = decode_text(body.to_vec()).map_err(bad)?;
    if let Some(at) = too_deep(&text, MAX_DEPTH) {
        let line = text[..at].matches('\n').count() + 1;
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
        (wsdl::WSDL, "definitions") | (wsdl::WSDL20, "description") => DocKind::Wsdl,
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
            (wsdl::WSDL | wsdl::WSDL20, "import" | "include") => "location",
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

// ---------------------------------------------------------------------------------------------
// Local file names.

/// A local file name for the document at `url`: short, meaningful, and valid on every platform.
///
/// Built from the URL's last path segment (percent-decoded; the host when the path is empty), with
/// its `.wsdl`/`.xsd`/`.xml` extension replaced by `kind`'s, plus the query when it says more than
/// "wsdl" (`?xsd=xsd0` → `-xsd-xsd0`); a long segment or query is cut and a hash of it (8 hex
/// digits, FNV-1a) added, so the name stays within [`MAX_FILE_NAME_LEN`] bytes and distinct URLs
/// stay apart.
///
/// The name holds only ASCII letters, digits, `.`, `-` and `_` (so none of `<>:"/\|?*`, control
/// characters or spaces), does not begin with `.` or `-`, does not end with `.` or a space, and is
/// never a Windows reserved device name (CON, PRN, AUX, NUL, COM0–COM9, LPT0–LPT9, in any case,
/// with any extension): `con.service?wsdl` becomes `con_.service.wsdl`.
///
/// Two URLs can give one name (`a/types.xsd`, `b/types.xsd`): [`fetch`] tells them apart by the
/// parent folder or a hash.
///
/// # Examples
///
/// ```
/// use soapgen_build::fetch::{file_name_for, DocKind};
/// assert_eq!(file_name_for("http://server/service/?q=wsdl", DocKind::Wsdl), "service-q-wsdl.wsdl");
/// assert_eq!(file_name_for("http://server/Service.svc?wsdl", DocKind::Wsdl), "Service.svc.wsdl");
/// assert_eq!(file_name_for("http://server/Service.svc?xsd=xsd0", DocKind::Schema), "Service.svc-xsd-xsd0.xsd");
/// assert_eq!(file_name_for("http://server/x/con.service?wsdl", DocKind::Wsdl), "con_.service.wsdl");
/// assert_eq!(file_name_for("https://server:8443/?wsdl", DocKind::Wsdl), "server.wsdl");
/// ```
pub fn file_name_for(url: &str, kind: DocKind) -> String {
    let parts = UrlParts::of(url);
    compose(None, &parts.stem, &parts.suffix, kind)
}

/// The pieces of a URL a file name is made of.
struct UrlParts {
    host: String,
    parent: Option<String>,
    stem: String,
    suffix: String,
}

impl UrlParts {
    fn of(url: &str) -> Self {
        let url = url.trim();
        let after = url.split_once("://").map_or(url, |(_, r)| r);
        let after = after.split('#').next().unwrap_or("");
        let (before_query, query) = match after.split_once('?') {
            Some((b, q)) => (b, q),
            None => (after, ""),
        };
        let (authority, path) =
            before_query.split_at(before_query.find('/').unwrap_or(before_query.len()));
        let host = authority.rsplit('@').next().unwrap_or("");
        let host = match host.strip_prefix('[') {
            // An IPv6 literal: [::1]:8080.
            Some(v6) => v6.split(']').next().unwrap_or(""),
            None => host.split(':').next().unwrap_or(""),
        };
        let host = sanitize(host);
        let segments: Vec<String> = path
            .split('/')
            .filter(|s| !s.is_empty())
            .map(percent_decode)
            .collect();
        let last = segments.last().cloned().unwrap_or_default();
        let lower = last.to_ascii_lowercase();
        let without_ext = [".wsdl", ".xsd", ".xml"]
            .iter()
            .find(|e| lower.ends_with(*e) && lower.len() > e.len())
            .map_or(last.as_str(), |e| &last[..last.len() - e.len()]);
        let mut stem = sanitize(without_ext);
        if stem.is_empty() {
            stem = host.clone();
        }
        if stem.is_empty() {
            stem = "document".to_owned();
        }
        let parent = segments
            .len()
            .checked_sub(2)
            .map(|i| sanitize(&segments[i]))
            .filter(|p| !p.is_empty());
        let q = sanitize(&percent_decode(query));
        let suffix = if q.is_empty()
            || ["wsdl", "xsd", "singlewsdl"]
                .iter()
                .any(|w| q.eq_ignore_ascii_case(w))
        {
            String::new()
        } else if q.len() <= 24 {
            format!("-{q}")
        } else {
            let head = q[..15].trim_end_matches(['-', '_', '.']);
            format!("-{head}-{}", hash8(query.as_bytes()))
        };
        UrlParts {
            host,
            parent,
            stem,
            suffix,
        }
    }
}

/// `[prefix-]stem[suffix].ext`, within [`MAX_FILE_NAME_LEN`], never a reserved device name.
fn compose(prefix: Option<&str>, stem: &str, suffix: &str, kind: DocKind) -> String {
    let ext = kind.extension();
    let mut base = match prefix {
        Some(p) => format!("{p}-{stem}"),
        None => stem.to_owned(),
    };
    // Room for the suffix, the extension and a possible `_` after a reserved name.
    let room = MAX_FILE_NAME_LEN - ext.len() - 2;
    if base.len() + suffix.len() > room {
        let keep = room.saturating_sub(suffix.len() + 9).max(8).min(base.len());
        let hash = hash8(base.as_bytes());
        base.truncate(keep);
        let trimmed = base.trim_end_matches(['-', '_', '.']).len();
        base.truncate(trimmed);
        base = format!("{base}-{hash}");
    }
    // The suffix is at most 25 bytes (see `UrlParts::of`), so this fits.
    avoid_reserved(format!("{base}{suffix}.{ext}"))
}

/// Whether `first` (a name up to its first dot) is a Windows reserved device name.
fn is_reserved(first: &str) -> bool {
    let upper = first.trim_end_matches([' ', '.']).to_ascii_uppercase();
    match upper.as_str() {
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$" => true,
        s if s.len() == 4 && (s.starts_with("COM") || s.starts_with("LPT")) => {
            s.as_bytes()[3].is_ascii_digit()
        }
        _ => false,
    }
}

/// `con.service.wsdl` → `con_.service.wsdl`: Windows treats a reserved name with any extension as
/// the device.
fn avoid_reserved(mut name: String) -> String {
    let first_len = name.find('.').unwrap_or(name.len());
    if is_reserved(&name[..first_len]) {
        name.insert(first_len, '_');
    }
    name
}

/// ASCII letters, digits, `.`, `-`, `_` kept; `=` → `-`; anything else → `_`; runs of `_`
/// collapsed; no `.`, `-` or `_` at either end.
fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let c = match c {
            'a'..='z' | 'A'..='Z' | '0'..='9' | '.' | '-' | '_' => c,
            '=' => '-',
            _ => '_',
        };
        if c == '_' && out.ends_with('_') {
            continue;
        }
        out.push(c);
    }
    out.trim_matches(['.', '-', '_']).to_owned()
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            if let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// 8 hex digits of the 64-bit FNV-1a hash of `bytes`, folded to 32 bits: stable across platforms and
/// releases.
fn hash8(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{:08x}", (h ^ (h >> 32)) as u32)
}

/// Gives each document a name no other has, compared without case (Windows and macOS folders are
/// case-insensitive). On a clash the parent folder (or the host) is put in front; then a hash of the
/// whole URL is added.
#[derive(Debug, Default)]
struct Namer {
    taken: HashSet<String>,
}

impl Namer {
    fn assign(&mut self, url: &str, kind: DocKind) -> String {
        let parts = UrlParts::of(url);
        let mut candidates = vec![compose(None, &parts.stem, &parts.suffix, kind)];
        let context = parts.parent.as_deref().unwrap_or(&parts.host);
        if !context.is_empty() {
            candidates.push(compose(Some(context), &parts.stem, &parts.suffix, kind));
        }
        let hashed = format!("{}-{}", parts.stem, hash8(url.as_bytes()));
        candidates.push(compose(None, &hashed, &parts.suffix, kind));
        for c in candidates {
            if self.taken.insert(c.to_ascii_lowercase()) {
                return c;
            }
        }
        (2u32..)
            .map(|n| compose(None, &format!("{hashed}-{n}"), &parts.suffix, kind))
            .find(|c| self.taken.insert(c.to_ascii_lowercase()))
            .unwrap_or_else(|| unreachable!("an unbounded counter finds a free name"))
    }
}

/// Whether `name` is a file name valid on Windows, macOS and Linux alike (the test of
/// [`file_name_for`]'s promises).
#[cfg(test)]
fn is_portable(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_FILE_NAME_LEN
        && !name
            .chars()
            .any(|c| c.is_control() || "<>:\"/\\|?*".contains(c) || !c.is_ascii())
        && !name.ends_with(['.', ' '])
        && !name.starts_with(['.', '-', ' '])
        && !is_reserved(name.split('.').next().unwrap_or(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_urls() {
        for (url, kind, name) in [
            (
                "http://server/service/?q=wsdl",
                DocKind::Wsdl,
                "service-q-wsdl.wsdl",
            ),
            ("http://server/service/?wsdl", DocKind::Wsdl, "service.wsdl"),
            ("http://server/service/?WSDL", DocKind::Wsdl, "service.wsdl"),
            (
                "http://server/Service.svc?singleWsdl",
                DocKind::Wsdl,
                "Service.svc.wsdl",
            ),
            (
                "http://server/Service.svc?xsd=xsd0",
                DocKind::Schema,
                "Service.svc-xsd-xsd0.xsd",
            ),
            ("http://server/a/b/types.xsd", DocKind::Schema, "types.xsd"),
            ("http://server/a/b/Types.XSD", DocKind::Schema, "Types.xsd"),
            (
                "http://server/a/my%20types.xsd",
                DocKind::Schema,
                "my_types.xsd",
            ),
            ("http://server/a/types.xml", DocKind::Schema, "types.xsd"),
            (
                "http://server/a/service.wsdl#frag",
                DocKind::Wsdl,
                "service.wsdl",
            ),
            ("https://server:8443/?wsdl", DocKind::Wsdl, "server.wsdl"),
            ("http://user:pw@server/", DocKind::Wsdl, "server.wsdl"),
            ("http://server/.hidden.xsd", DocKind::Schema, "hidden.xsd"),
            ("http://server/a/..wsdl", DocKind::Wsdl, "server.wsdl"),
            ("http://server/a/b.xsd?", DocKind::Schema, "b.xsd"),
            (
                "http://server/x/con.service?wsdl",
                DocKind::Wsdl,
                "con_.service.wsdl",
            ),
            ("http://server/%E2%82%AC.xsd", DocKind::Schema, "server.xsd"),
        ] {
            let got = file_name_for(url, kind);
            assert_eq!(got, name, "{url}");
            assert!(is_portable(&got), "{got}");
        }
        for odd in [
            "http://[::1]:8080/",
            "http://",
            "",
            "?",
            "http:///",
            "http://h/%",
            "http://h/%zz",
        ] {
            let got = file_name_for(odd, DocKind::Wsdl);
            assert!(is_portable(&got), "{odd:?} gave {got:?}");
        }
    }

    #[test]
    fn reserved_device_names_in_any_case_with_any_extension_are_avoided() {
        let mut reserved: Vec<String> = ["con", "prn", "aux", "nul"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for n in 0..=9 {
            reserved.push(format!("com{n}"));
            reserved.push(format!("lpt{n}"));
        }
        for r in reserved {
            for spelled in [r.clone(), r.to_ascii_uppercase(), {
                let mut c = r.clone();
                c[..1].make_ascii_uppercase();
                c
            }] {
                for tail in [
                    "",
                    ".xsd",
                    ".wsdl",
                    ".service",
                    ".tar.gz",
                    "?wsdl",
                    ".txt?xsd=1",
                ] {
                    let url = format!("http://h/dir/{spelled}{tail}");
                    for kind in [DocKind::Wsdl, DocKind::Schema] {
                        let name = file_name_for(&url, kind);
                        assert!(is_portable(&name), "{url} gave {name}");
                        assert!(
                            name.to_ascii_lowercase().starts_with(&format!("{r}_")),
                            "{url} gave {name}"
                        );
                    }
                }
            }
        }
        // Near misses stay as they are.
        for ok in ["console", "com10", "lpt", "nul1", "auxiliary", "comx"] {
            let name = file_name_for(&format!("http://h/{ok}.xsd"), DocKind::Schema);
            assert_eq!(name, format!("{ok}.xsd"));
        }
        assert!(is_reserved("CON"));
        assert!(is_reserved("Lpt9"));
        assert!(is_reserved("nul "));
        assert!(!is_reserved("COM"));
    }

    #[test]
    fn characters_invalid_on_windows_are_replaced() {
        for url in [
            "http://h/a<b>c.xsd",
            "http://h/a%3Cb%3Ec.xsd",
            "http://h/a:b.xsd",
            "http://h/a%22b%7Cc%3F*.xsd",
            "http://h/a%5Cb.xsd",
            "http://h/a%2Fb.xsd",
            "http://h/a%00b%1F%7F.xsd",
            "http://h/a%20.xsd",
            "http://h/trailing.%20",
            "http://h/x.xsd?a<b>|c=\"d\"*",
            "http://h/dots...",
        ] {
            for kind in [DocKind::Wsdl, DocKind::Schema] {
                let name = file_name_for(url, kind);
                assert!(is_portable(&name), "{url} gave {name:?}");
            }
        }
        assert_eq!(
            file_name_for("http://h/a%3Cb%3Ec.xsd", DocKind::Schema),
            "a_b_c.xsd"
        );
    }

    #[test]
    fn long_queries_and_paths_give_short_unique_names() {
        let long_a = format!("http://h/service/search?wsdl&token={}", "a".repeat(900));
        let long_b = format!("http://h/service/search?wsdl&token={}", "b".repeat(900));
        let a = file_name_for(&long_a, DocKind::Wsdl);
        let b = file_name_for(&long_b, DocKind::Wsdl);
        assert!(a.starts_with("search-wsdl_token-"), "{a}");
        assert!(a.len() <= MAX_FILE_NAME_LEN && b.len() <= MAX_FILE_NAME_LEN);
        assert!(is_portable(&a) && is_portable(&b));
        assert_ne!(a, b);
        let long_path_a = format!("http://h/{}.xsd", "segment".repeat(40));
        let long_path_b = format!("http://h/{}x.xsd", "segment".repeat(40));
        let pa = file_name_for(&long_path_a, DocKind::Schema);
        let pb = file_name_for(&long_path_b, DocKind::Schema);
        assert!(pa.starts_with("segmentsegment"), "{pa}");
        assert!(pa.len() <= MAX_FILE_NAME_LEN && is_portable(&pa), "{pa}");
        assert_ne!(pa, pb);
        // Both long at once.
        let both = format!("http://h/{}?{}", "p".repeat(300), "q=".repeat(450));
        let n = file_name_for(&both, DocKind::Wsdl);
        assert!(n.len() <= MAX_FILE_NAME_LEN && is_portable(&n), "{n}");
        // Deterministic.
        assert_eq!(file_name_for(&long_a, DocKind::Wsdl), a);
    }

    #[test]
    fn clashing_names_are_told_apart() {
        let mut namer = Namer::default();
        let names: Vec<String> = [
            ("http://h/v1/types.xsd", DocKind::Schema),
            ("http://h/v2/types.xsd", DocKind::Schema),
            ("http://other/v2/Types.xsd", DocKind::Schema),
            ("http://h/v2/types.xsd?x", DocKind::Schema),
            ("http://h/service/?wsdl", DocKind::Wsdl),
            ("http://h/service?wsdl", DocKind::Wsdl),
        ]
        .iter()
        .map(|(u, k)| namer.assign(u, *k))
        .collect();
        assert_eq!(names[0], "types.xsd");
        assert_eq!(names[1], "v2-types.xsd");
        assert!(names[2].starts_with("Types-"), "{}", names[2]);
        assert_eq!(names[3], "types-x.xsd");
        assert_eq!(names[4], "service.wsdl");
        assert_eq!(names[5], "h-service.wsdl");
        let lower: HashSet<String> = names.iter().map(|n| n.to_ascii_lowercase()).collect();
        assert_eq!(lower.len(), names.len());
        for n in &names {
            assert!(is_portable(n), "{n}");
        }
        // Many clashes still end in distinct names.
        let mut namer = Namer::default();
        let mut all = HashSet::new();
        for i in 0..50 {
            let n = namer.assign(&format!("http://h/d{}/x/types.xsd", i % 3), DocKind::Schema);
            assert!(all.insert(n.to_ascii_lowercase()), "{n} given twice");
        }
    }

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
