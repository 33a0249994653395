//! Why [`fetch`](super::fetch) failed: every error about a document names its URL and the
//! document (and line) that imported it.

use std::fmt;
use std::path::PathBuf;

use soapgen_build::{Error, ErrorKind};

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
        401 => {
            "; the server wants credentials: give --user and --password (with --digest or --ntlm \
             where it asks for those), or --negotiate for Kerberos"
        }
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

impl From<FetchError> for Error {
    fn from(e: FetchError) -> Self {
        Error::new(ErrorKind::Fetch(e.to_string()), None)
    }
}
