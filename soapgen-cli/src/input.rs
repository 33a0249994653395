//! What the commands that read a WSDL share (`generate`, `inspect`): the WSDL, its catalog
//! entries and files, and how lenient to be.

use std::path::PathBuf;

use clap::Args;
use soapgen_build::{Builder, Error, ErrorKind, Errors};

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
    /// Generate only this port (its `wsdl:port` name; repeatable): the others are left out of
    /// the clients, with their WS-SecurityPolicy.
    #[arg(long = "port", value_name = "NAME")]
    pub port: Vec<String>,
}

impl InputArgs {
    /// A [`Builder`] of the WSDL with these catalog entries and choices.
    ///
    /// # Errors
    ///
    /// A `--catalog` entry that is not `URL=PATH`.
    pub fn builder(&self) -> Result<Builder, Errors> {
        let mut b = Builder::new()
            .wsdl(&self.wsdl)
            .skip_unsupported_operations(self.skip_unsupported)
            .strict_use(self.strict_use);
        if !self.port.is_empty() {
            b = b.ports(&self.port);
        }
        for entry in &self.catalog {
            let Some((url, path)) = entry.rsplit_once('=') else {
                return Err(Error::new(
                    ErrorKind::Invalid(format!("--catalog takes URL=PATH, got {entry:?}")),
                    None,
                )
                .into());
            };
            b = b.catalog_entry(url, path);
        }
        for f in &self.catalog_file {
            b = b.catalog_file(f);
        }
        Ok(b)
    }
}
