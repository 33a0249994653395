//! What [`fetch`](super::fetch) downloads, and how: the entry URL and output folder, the timeout,
//! HTTP authentication (Basic, Digest, NTLM, Negotiate), TLS client certificates and trusted CAs.

use std::path::PathBuf;
use std::time::Duration;

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
    /// With [`AuthScheme::Kerberos`]: where the credentials come from (a cache, a keytab of
    /// [`basic_auth`](Self::basic_auth)'s user) and the service principal.
    pub kerberos: KerberosSource,
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
            kerberos: KerberosSource::default(),
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
    /// soapgen-cli's `ntlm` feature (soapgen-runtime's NTLM code); without it, a
    /// [`FetchError::Setup`](super::FetchError::Setup).
    Ntlm,
    /// Negotiate (RFC 4559 §4): SPNEGO (RFC 4178) with NTLM as its mechanism, both
    /// `mechListMIC`s checked, on one kept-alive connection as [`Ntlm`](Self::Ntlm). Needs the
    /// `ntlm` feature too.
    Negotiate,
    /// Negotiate (RFC 4559 §4) with Kerberos V5 in SPNEGO: the credentials
    /// [`FetchOptions::kerberos`] names (the default credential cache when it names none; with
    /// a keytab, [`FetchOptions::basic_auth`]'s user is the client principal), the server's
    /// AP-REP checked, each request authenticated. Needs soapgen-cli's `kerberos` feature;
    /// without it, a [`FetchError::Setup`](super::FetchError::Setup).
    Kerberos,
}

/// Where [`AuthScheme::Kerberos`] takes its credentials from, and the service principal.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KerberosSource {
    /// A credential cache (`FILE:/path`, `KEYRING:…`, or a path); `None` with no keytab: the
    /// default one.
    pub ccache: Option<String>,
    /// A client keytab, for the principal of [`FetchOptions::basic_auth`]'s user.
    pub keytab: Option<PathBuf>,
    /// The service principal (`HTTP/host`, `HTTP@host`); `None`: `HTTP@` the URL's host.
    pub service: Option<String>,
}

impl AuthScheme {
    /// The scheme's name as HTTP writes it (`Basic`, `Digest`, `NTLM`, `Negotiate`).
    pub fn name(self) -> &'static str {
        match self {
            AuthScheme::Basic => "Basic",
            AuthScheme::Digest => "Digest",
            AuthScheme::Ntlm => "NTLM",
            AuthScheme::Negotiate | AuthScheme::Kerberos => "Negotiate",
        }
    }
}
