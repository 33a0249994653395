//! The arguments of `soapgen fetch` and the [`FetchOptions`] they make.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use soapgen_build::{Error, ErrorKind, Errors};

use super::options::{AuthScheme, FetchOptions, KerberosSource};

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
    /// Authenticate with Negotiate (RFC 4559: SPNEGO). Without a password: Kerberos, from the
    /// default credential cache (as `kinit` left it), --ccache or --keytab (with --user as the
    /// client principal); needs soapgen built with its `kerberos` feature. With --user and
    /// --password (and no --keytab or --ccache): SPNEGO with NTLM on one kept-alive connection,
    /// with its `ntlm` feature.
    #[arg(long)]
    pub negotiate: bool,
    /// With --negotiate: the Kerberos credential cache to use (`FILE:/path`, `KEYRING:…`, or a
    /// path) instead of the default one.
    #[arg(
        long,
        value_name = "CACHE",
        requires = "negotiate",
        conflicts_with = "keytab"
    )]
    pub ccache: Option<String>,
    /// With --negotiate: the client keytab whose key of --user (the client principal) gets the
    /// tickets.
    #[arg(long, value_name = "FILE", requires_all = ["negotiate", "user"])]
    pub keytab: Option<PathBuf>,
    /// With --negotiate and Kerberos: the service principal to ask a ticket for (`HTTP/host` or
    /// `HTTP@host`) instead of `HTTP@` the URL's host.
    #[arg(long, value_name = "NAME", requires = "negotiate")]
    pub spn: Option<String>,
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

impl FetchArgs {
    /// The [`FetchOptions`] the arguments say: the client certificate and key files read.
    ///
    /// # Errors
    ///
    /// A client certificate, key or PKCS#12 file that cannot be read or holds no usable identity.
    pub fn options(&self) -> Result<FetchOptions, Errors> {
        let args = self;
        let invalid_early =
            |m: &str| -> Errors { Error::new(ErrorKind::Invalid(m.to_owned()), None).into() };
        use soapgen_runtime::transport::ClientIdentity;
        let mut o = FetchOptions::new(args.url.clone(), args.out.clone());
        o.timeout = Duration::from_secs(args.timeout);
        o.basic_auth = args.user.clone().map(|u| (u, args.password.clone()));
        o.kerberos = KerberosSource {
            ccache: args.ccache.clone(),
            keytab: args.keytab.clone(),
            service: args.spn.clone(),
        };
        o.auth_scheme = if args.digest {
            AuthScheme::Digest
        } else if args.ntlm {
            AuthScheme::Ntlm
        } else if args.negotiate
            && (args.password.is_none() || args.keytab.is_some() || args.ccache.is_some())
        {
            if args.password.is_some() {
                eprintln!("soapgen fetch: Kerberos from a keytab or cache takes no password: the one set (--password or SOAPGEN_PASSWORD) is not used");
            }
            AuthScheme::Kerberos
        } else if args.negotiate {
            if args.spn.is_some() {
                return Err(invalid_early(
                    "--spn names a Kerberos service principal, but --user with --password is \
                     SPNEGO with NTLM: leave out the password for Kerberos, or --spn for NTLM",
                ));
            }
            AuthScheme::Negotiate
        } else {
            AuthScheme::Basic
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
        if args.user.is_none() && args.password.is_some() && !args.negotiate {
            // Not an error (SOAPGEN_PASSWORD may be set for other fetches), but not silent either.
            eprintln!("soapgen fetch: a password is set (--password or SOAPGEN_PASSWORD) but no --user: no credentials are sent");
        }
        o.accept_invalid_certs = args.insecure;
        o.ca_certs = args.ca_cert.clone();
        o.include_bundled = args.include_bundled;
        o.progress = !args.quiet;
        Ok(o)
    }
}
