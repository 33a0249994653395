//! Errors of code generation, each with where it happened (file:line:col) and, where one helps, what
//! to do about it; and warnings, located the same way, of what was generated but may not work as
//! the WSDL reads.

use std::fmt;
use std::sync::Arc;

/// A position in a WSDL or schema document.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    /// The document: a file path, or the URL of a catalog or bundled schema.
    pub file: Arc<str>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// What went wrong while reading WSDL and XSD or generating code.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A document could not be read from disk.
    Io(String),
    /// Generated code could not be written (the message names the path and the reason), or the
    /// output would replace files soapgen did not write.
    Write(String),
    /// A document is not well-formed XML.
    Xml(String),
    /// An imported or included document could not be found.
    MissingImport {
        /// The location as written in the document.
        location: String,
        /// Where it was looked for.
        resolved: String,
    },
    /// A required attribute or element is absent (`name`, `message`, `type`…).
    Missing(String),
    /// A name is declared twice in one symbol space.
    Duplicate(String),
    /// A QName reference to something not declared.
    Undefined(String),
    /// A prefix with no namespace binding in scope.
    UnboundPrefix(String),
    /// A construct soapgen does not generate code for (yet).
    Unsupported(String),
    /// Anything else that is wrong with the input.
    Invalid(String),
    /// A document could not be downloaded (`soapgen fetch`): the message names the URL, the reason
    /// and the document that imported it.
    Fetch(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(m) => write!(f, "cannot read: {m}"),
            ErrorKind::Write(m) => write!(f, "cannot write: {m}"),
            ErrorKind::Xml(m) => write!(f, "not well-formed XML: {m}"),
            ErrorKind::MissingImport { location, resolved } => {
                write!(
                    f,
                    "imported document {location:?} not found (looked for {resolved})"
                )
            }
            ErrorKind::Missing(m) => write!(f, "missing {m}"),
            ErrorKind::Duplicate(m) => write!(f, "duplicate definition of {m}"),
            ErrorKind::Undefined(m) => write!(f, "undefined {m}"),
            ErrorKind::UnboundPrefix(p) => write!(f, "namespace prefix {p:?} is not bound"),
            ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
            ErrorKind::Invalid(m) | ErrorKind::Fetch(m) => f.write_str(m),
        }
    }
}

/// An error of code generation: what, where, and a hint.
///
/// Displays as `file:line:col: message` followed by `  hint: …` when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where, when known.
    pub loc: Option<Loc>,
    /// What to do about it.
    pub hint: Option<String>,
}

impl Error {
    /// An error of `kind` at `loc`.
    pub fn new(kind: ErrorKind, loc: Option<Loc>) -> Self {
        Error {
            kind,
            loc,
            hint: None,
        }
    }

    /// An error of `kind` at `loc`.
    pub fn at(kind: ErrorKind, loc: &Loc) -> Self {
        Self::new(kind, Some(loc.clone()))
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = &self.loc {
            write!(f, "{loc}: ")?;
        }
        write!(f, "{}", self.kind)?;
        if let Some(h) = &self.hint {
            write!(f, "\n  hint: {h}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// Errors of one generation run: reading stops at the first document error, but model errors of
/// independent definitions are all collected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Errors(pub Vec<Error>);

impl fmt::Display for Errors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Errors {}

impl From<Error> for Errors {
    fn from(e: Error) -> Self {
        Errors(vec![e])
    }
}

/// A problem in the WSDL that does not stop generation, with where it is: found by the readers
/// (a WSDL 2.0 SOAP binding without `wsoap:protocol`, a policy reference to nothing) and by the
/// model (a port address that is not an absolute HTTP(S) URL, `use="encoded"` under
/// `style="document"`), gathered in [`Module::warnings`](crate::model::ir::Module::warnings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// What is wrong and what soapgen did about it (lowercase, no location).
    pub message: String,
    /// Where it is.
    pub loc: Loc,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.loc, self.message)
    }
}

/// `Result` of one step.
pub type Result<T, E = Error> = std::result::Result<T, E>;
