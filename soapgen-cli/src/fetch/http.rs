//! The HTTP side of [`fetch`](super::fetch): the blocking reqwest client (timeouts, TLS client
//! certificate, extra CAs, one kept-alive connection for NTLM and Negotiate), URLs checked to be
//! absolute http(s), and one GET with its authentication handshake (the runtime's Digest, NTLM and
//! Negotiate code), status and size checks.

use std::io::Read as _;
use std::time::Duration;

use super::error::{FetchError, Referrer};
use super::options::{AuthScheme, FetchOptions};

/// The largest document accepted, in bytes (256 MiB): the biggest real WSDLs are a few MiB.
pub const MAX_DOCUMENT_BYTES: u64 = 256 << 20;

/// A document to download: its URL and who referenced it (`None` for the entry).
pub(super) struct Pending {
    pub(super) url: String,
    pub(super) imported_by: Option<Referrer>,
}

/// The runtime's authenticator for the challenge-response schemes (`None` for Basic).
pub(super) fn authenticator(
    opts: &FetchOptions,
) -> Result<Option<soapgen_runtime::transport::auth::Authenticator>, FetchError> {
    use soapgen_runtime::transport::auth::Authenticator;
    use soapgen_runtime::transport::HttpAuth;
    let scheme = opts.auth_scheme;
    if scheme == AuthScheme::Kerberos {
        return kerberos(opts).map(|a| Some(Authenticator::new(a)));
    }
    let Some((user, password)) = &opts.basic_auth else {
        return Ok(None);
    };
    let password = password.as_deref().unwrap_or_default();
    let auth = match scheme {
        AuthScheme::Basic | AuthScheme::Kerberos => return Ok(None),
        AuthScheme::Digest => HttpAuth::digest(user, password),
        #[cfg(feature = "ntlm")]
        AuthScheme::Ntlm => HttpAuth::ntlm(user, password),
        #[cfg(feature = "ntlm")]
        AuthScheme::Negotiate => HttpAuth::negotiate(user, password),
        #[cfg(not(feature = "ntlm"))]
        AuthScheme::Ntlm | AuthScheme::Negotiate => {
            return Err(FetchError::Setup(format!(
                "{} authentication needs soapgen built with its `ntlm` feature \
                 (cargo install soapgen-cli --features ntlm)",
                scheme.name()
            )))
        }
    };
    Ok(Some(Authenticator::new(auth)))
}

/// [`AuthScheme::Kerberos`]'s credentials, from `opts`' [`KerberosSource`](super::KerberosSource)
/// (the default credential cache when it names none).
#[cfg(feature = "kerberos")]
fn kerberos(opts: &FetchOptions) -> Result<soapgen_runtime::transport::HttpAuth, FetchError> {
    use soapgen_runtime::transport::{HttpAuth, Kerberos, KerberosCredentials};
    let source = &opts.kerberos;
    let credentials = match (&source.keytab, &source.ccache, &opts.basic_auth) {
        (Some(keytab), _, Some((user, _))) => KerberosCredentials::Keytab {
            principal: user.clone(),
            keytab: keytab.clone(),
        },
        (Some(_), _, None) => {
            return Err(FetchError::Setup(
                "a Kerberos keytab needs the client principal as the user (--user)".into(),
            ))
        }
        (None, Some(cache), _) => KerberosCredentials::Ccache(cache.clone()),
        (None, None, _) => KerberosCredentials::Default,
    };
    let mut k = Kerberos::new(credentials);
    if let Some(spn) = &source.service {
        k = k.service(spn.clone());
    }
    Ok(HttpAuth::kerberos(k))
}

#[cfg(not(feature = "kerberos"))]
fn kerberos(_: &FetchOptions) -> Result<soapgen_runtime::transport::HttpAuth, FetchError> {
    Err(FetchError::Setup(
        "Negotiate with Kerberos needs soapgen built with its `kerberos` feature \
         (cargo install soapgen-cli --features kerberos; building needs libkrb5-dev and \
         libclang-dev)"
            .into(),
    ))
}

/// The HTTP client of one fetch: `opts`' timeouts, client certificate and CAs; with
/// `connection_bound` (NTLM, Negotiate), one kept-alive HTTP/1.1 connection.
pub(super) fn client(
    opts: &FetchOptions,
    connection_bound: bool,
) -> Result<reqwest::blocking::Client, FetchError> {
    let mut b = reqwest::blocking::Client::builder()
        .use_rustls_tls()
        .timeout(opts.timeout)
        .connect_timeout(opts.timeout)
        .user_agent(concat!("soapgen/", env!("CARGO_PKG_VERSION")))
        .danger_accept_invalid_certs(opts.accept_invalid_certs)
        // Kerberos binds its tickets to the server's certificate (RFC 5929 §4).
        .tls_info(opts.auth_scheme == AuthScheme::Kerberos);
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
pub(super) fn http_url(url: &str, by: &Option<Referrer>) -> Result<reqwest::Url, FetchError> {
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
pub(super) fn get(
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
        if let Some(der) = resp
            .extensions()
            .get::<reqwest::tls::TlsInfo>()
            .and_then(reqwest::tls::TlsInfo::peer_certificate)
        {
            h.tls_server_certificate(der);
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
