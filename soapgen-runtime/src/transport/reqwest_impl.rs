//! [`Transport`] over reqwest (hyper, rustls): pooled keep-alive connections, timeouts, gzip,
//! cookies, proxies from the environment (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`), client
//! certificates and private trust anchors ([`super::tls`]), and the challenge-response HTTP
//! authentication schemes of [`super::auth`] (Digest; NTLM and Negotiate with feature `ntlm`).

use std::sync::Arc;

use bytes::Bytes;

use super::auth::{Authenticator, Challenger, HttpAuth};
use super::reqwest_response::{body_stream, header_fields, map_error, read_whole};
use super::tls::{ClientIdentity, TlsError, TrustAnchors};
use super::tunnel::{authority, without_userinfo, Tunnel};
use super::{
    HttpMethod, HttpRequest, HttpResponse, StreamingFuture, StreamingResponse, Timeouts, Transport,
    TransportFuture,
};
use crate::error::{TransportError, TransportErrorKind};

/// The default reqwest-based transport. Cloning is cheap (the connection pool is shared).
#[derive(Debug, Clone)]
pub struct ReqwestTransport {
    client: reqwest::Client,
    auth: Option<Arc<AuthState>>,
    /// The whole request's timeout the client applies; a streamed call applies it to the
    /// header fields itself.
    request_timeout: Option<std::time::Duration>,
    /// A proxy's handshake for `http://` endpoints (its `407`s answered per request).
    proxy_auth: Option<Arc<AuthState>>,
    /// The forwarder that opens `https://` endpoints' tunnels through that proxy.
    tunnel: Option<Arc<Tunnel>>,
    /// The explicit proxy's URL (without credentials), named in connection errors.
    proxy_url: Option<String>,
    /// Whether reqwest may follow a redirect with the body again (`follow_redirects`, or a
    /// client of the user's own): the body is then handed over as one reqwest may keep.
    redirects: bool,
}

/// The authenticator and, for a connection-bound scheme (NTLM, Negotiate), the lock that keeps
/// one request at a time on the single pooled connection the handshake authenticated.
#[derive(Debug)]
struct AuthState {
    authenticator: Authenticator,
    one_at_a_time: Option<tokio::sync::Mutex<()>>,
    /// The proxy's URL, for a proxy's handshake.
    proxy_url: Option<String>,
}

impl AuthState {
    fn new(authenticator: Authenticator, proxy_url: Option<String>) -> Arc<Self> {
        let bound = authenticator.auth().is_connection_bound();
        Arc::new(AuthState {
            authenticator,
            one_at_a_time: bound.then(|| tokio::sync::Mutex::new(())),
            proxy_url,
        })
    }
}

/// Settings for a [`ReqwestTransport`].
#[derive(Debug)]
#[must_use]
pub struct ReqwestTransportBuilder {
    timeouts: Timeouts,
    cookies: bool,
    gzip: bool,
    proxy_from_env: bool,
    user_agent: String,
    accept_invalid_certs: bool,
    identity: Option<ClientIdentity>,
    trust_anchors: TrustAnchors,
    built_in_roots: bool,
    auth: Option<HttpAuth>,
    read_timeout: Option<std::time::Duration>,
    proxy: Option<Proxy>,
    redirects: usize,
}

/// An HTTP proxy every request goes through ([`ReqwestTransportBuilder::proxy`],
/// [`ClientBuilder::proxy`](crate::ClientBuilder::proxy)): `http://` endpoints by an
/// absolute-form request to it (RFC 9112 §3.2.2), `https://` ones through a `CONNECT` tunnel
/// (RFC 9110 §9.3.6), with Basic proxy authentication (RFC 9110 §11.7.1) or a handshake
/// scheme ([`Proxy::auth`]: NTLM, Negotiate, Digest) when given.
#[derive(Clone)]
pub struct Proxy {
    url: String,
    basic: Option<(String, String)>,
    auth: Option<HttpAuth>,
}

impl Proxy {
    /// The proxy at `url` (`http://host:port`; checked when the transport is built).
    pub fn new(url: impl Into<String>) -> Self {
        Proxy {
            url: url.into(),
            basic: None,
            auth: None,
        }
    }

    /// Authenticates to the proxy with Basic credentials (`Proxy-Authorization`), sent with
    /// every request (replaces an [`auth`](Self::auth) given before).
    pub fn basic_auth(mut self, user: &str, password: &str) -> Self {
        self.basic = Some((user.to_owned(), password.to_owned()));
        self.auth = None;
        self
    }

    /// Answers the proxy's `407` challenges with `auth` (RFC 9110 §11.7.1): NTLM or Negotiate
    /// (feature `ntlm`) as corporate proxies ask, or Digest (replaces a
    /// [`basic_auth`](Self::basic_auth) given before).
    ///
    /// - `http://` endpoints: each request goes to the proxy and its `407`s are answered with
    ///   `Proxy-Authorization`; for NTLM and Negotiate, which authenticate a connection
    ///   (RFC 4559 §6), one request at a time on one kept-alive connection, as for
    ///   [`HttpAuth`] with a server.
    /// - `https://` endpoints: each `CONNECT` tunnel is opened by the transport's own forwarder on
    ///   `127.0.0.1`, which runs the handshake with the proxy on the tunnel's connection, then
    ///   passes the bytes of the TLS session through untouched (the server's certificate and a
    ///   client certificate are checked end to end, as through any proxy). Tunnels are opened
    ///   in parallel, each with its own handshake. The forwarder answers only this transport
    ///   (a random secret), and stops when the transport is dropped.
    ///
    /// The proxy is reached over `http://` (the common case); an `https://` proxy URL with a
    /// handshake scheme fails when the transport is built. A refused handshake fails the call
    /// with [`TransportErrorKind::Auth`], naming the proxy.
    pub fn auth(mut self, auth: HttpAuth) -> Self {
        self.auth = Some(auth);
        self.basic = None;
        self
    }
}

impl std::fmt::Debug for Proxy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxy")
            .field("url", &without_userinfo(&self.url))
            .field("user", &self.basic.as_ref().map(|(u, _)| u))
            .field("auth", &self.auth)
            .finish()
    }
}

impl PartialEq for Proxy {
    /// The same URL and credentials (a handshake scheme compares by scheme and user).
    fn eq(&self, other: &Self) -> bool {
        fn scheme(p: &Proxy) -> Option<(&'static str, &str)> {
            p.auth.as_ref().map(HttpAuth::scheme_and_user)
        }
        self.url == other.url && self.basic == other.basic && scheme(self) == scheme(other)
    }
}

impl Eq for Proxy {}

impl Default for ReqwestTransportBuilder {
    fn default() -> Self {
        ReqwestTransportBuilder {
            timeouts: Timeouts::default(),
            cookies: true,
            gzip: true,
            proxy_from_env: true,
            user_agent: concat!("soapgen/", env!("CARGO_PKG_VERSION")).to_owned(),
            accept_invalid_certs: false,
            identity: None,
            trust_anchors: TrustAnchors::default(),
            built_in_roots: true,
            auth: None,
            read_timeout: None,
            proxy: None,
            redirects: 0,
        }
    }
}

impl ReqwestTransportBuilder {
    timeout_setters!();

    /// Follow up to `max` redirects that keep the method and the body (`307 Temporary
    /// Redirect`, `308 Permanent Redirect`: RFC 9110 §15.4.8–9), POSTing the envelope again to
    /// the `Location` given; default 0, none followed.
    ///
    /// Off by default, as in Apache CXF: a SOAP request is not sent again to another address by
    /// surprise (a WS-Security header or a password in the body would go with it), and while a
    /// call waits for its response the transport keeps no copy of the envelope for a resend (at
    /// a thousand concurrent 74 KB calls, 74 MB). A redirect not followed is the call's
    /// [`Error::Http`](crate::Error::Http), its status and the `Location` in the message.
    /// `301`, `302` and `303` are never followed: they turn the POST into a GET. reqwest leaves
    /// `Authorization` and cookies out when a redirect leads to another host.
    pub fn follow_redirects(mut self, max: usize) -> Self {
        self.redirects = max;
        self
    }

    /// Read-idle timeout (default none): a response that sends no byte for `t`, before its
    /// headers or within its body, fails with kind
    /// [`Timeout`](crate::error::TransportErrorKind::Timeout).
    pub fn read_timeout(mut self, t: Option<std::time::Duration>) -> Self {
        self.read_timeout = t;
        self
    }

    /// Keep cookies the server sets and send them back (default on; sessions of stateful services).
    pub fn cookies(mut self, on: bool) -> Self {
        self.cookies = on;
        self
    }

    /// Ask for and decode gzip responses (default on).
    pub fn gzip(mut self, on: bool) -> Self {
        self.gzip = on;
        self
    }

    /// Use proxies from `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` (default on; a
    /// [`proxy`](Self::proxy) given replaces them).
    pub fn proxy_from_env(mut self, on: bool) -> Self {
        self.proxy_from_env = on;
        self
    }

    /// Sends every request through `proxy`, whatever the environment says.
    pub fn proxy(mut self, proxy: Proxy) -> Self {
        self.proxy = Some(proxy);
        self
    }

    /// The User-Agent header (default `soapgen/<version>`).
    pub fn user_agent(mut self, ua: impl Into<String>) -> Self {
        self.user_agent = ua.into();
        self
    }

    /// Accept any TLS certificate. Only for test servers: it disables server authentication.
    pub fn danger_accept_invalid_certs(mut self, on: bool) -> Self {
        self.accept_invalid_certs = on;
        self
    }

    /// The client certificate to present when a server asks for one (TLS client authentication,
    /// RFC 8446 §4.3.2 and §4.4.2). Default: none.
    pub fn identity(mut self, identity: ClientIdentity) -> Self {
        self.identity = Some(identity);
        self
    }

    /// Also trust these CA certificates as roots for server certificates (RFC 5280 §6.1.1), for
    /// servers of a private CA. Adds to earlier calls.
    pub fn trust_anchors(mut self, anchors: TrustAnchors) -> Self {
        self.trust_anchors.extend(anchors);
        self
    }

    /// Whether the built-in Mozilla roots (the `webpki-roots` crate) are trusted too (default
    /// `true`). `false` with [`trust_anchors`](Self::trust_anchors) trusts only the private CA.
    pub fn built_in_roots(mut self, on: bool) -> Self {
        self.built_in_roots = on;
        self
    }

    /// Answers `401` challenges with `auth` (see [`HttpAuth`]): the request is sent again with an
    /// `Authorization` header (RFC 9110 §11.6.2) until the server accepts it or the scheme's
    /// handshake fails, which is a [`TransportErrorKind::Auth`] error. For the
    /// connection-bound NTLM and Negotiate, the transport keeps one HTTP/1.1 connection and sends
    /// one request at a time on it, so each handshake's legs share the connection
    /// (RFC 4559 §6). Default: none (a `401` is returned to the client as is).
    pub fn auth(mut self, auth: HttpAuth) -> Self {
        self.auth = Some(auth);
        self
    }

    /// Builds the transport (loads the TLS roots: do it once and share the result).
    ///
    /// # Errors
    ///
    /// [`TransportError`] of kind `Tls` for a client identity or trust anchor reqwest cannot
    /// use, or `built_in_roots(false)` with no trust anchor (no server could be trusted); of kind
    /// `Request` if reqwest cannot build its client.
    pub fn build(self) -> Result<ReqwestTransport, TransportError> {
        let tls = |e: TlsError| TransportError::new(TransportErrorKind::Tls, "", e.message, None);
        let mut b = reqwest::Client::builder()
            .cookie_store(self.cookies)
            .gzip(self.gzip)
            .user_agent(self.user_agent.as_str())
            .pool_idle_timeout(self.timeouts.pool_idle)
            .danger_accept_invalid_certs(self.accept_invalid_certs);
        if let Some(id) = &self.identity {
            b = b.identity(id.to_reqwest().map_err(tls)?);
        }
        for c in self.trust_anchors.to_reqwest().map_err(tls)? {
            b = b.add_root_certificate(c);
        }
        if !self.built_in_roots {
            if self.trust_anchors.is_empty() && !self.accept_invalid_certs {
                return Err(TransportError::new(
                    TransportErrorKind::Tls,
                    "",
                    "built_in_roots(false) without trust_anchors: no TLS server could be trusted",
                    None,
                ));
            }
            b = b.tls_built_in_root_certs(false);
        }
        let connection_bound = self
            .auth
            .iter()
            .chain(self.proxy.as_ref().and_then(|p| p.auth.as_ref()))
            .any(HttpAuth::is_connection_bound);
        if self
            .auth
            .as_ref()
            .is_some_and(HttpAuth::uses_channel_bindings)
        {
            // The server's certificate, to bind Kerberos tickets to (RFC 5929 §4).
            b = b.tls_info(true);
        }
        if connection_bound {
            // One connection, HTTP/1.1 (RFC 4559 §6: the handshake authenticates a connection;
            // HTTP/2 would multiplex other requests onto it).
            b = b.http1_only().pool_max_idle_per_host(1);
        }
        if let Some(t) = self.timeouts.request {
            b = b.timeout(t);
        }
        if let Some(t) = self.timeouts.connect {
            b = b.connect_timeout(t);
        }
        if let Some(t) = self.read_timeout {
            b = b.read_timeout(t);
        }
        let mut proxy_auth = None;
        let mut tunnel = None;
        match &self.proxy {
            Some(p) => {
                // The URL as errors show it: credentials left out.
                let shown = without_userinfo(&p.url);
                let invalid = |why: String| {
                    TransportError::new(TransportErrorKind::Request, shown.clone(), why, None)
                };
                // An HTTP proxy: reqwest would pass other schemes by, or fail at the call.
                if !["http://", "https://"]
                    .iter()
                    .any(|s| p.url.to_ascii_lowercase().starts_with(s))
                {
                    return Err(invalid(format!(
                        "invalid proxy URL {:?}: an HTTP proxy is an http:// or https:// URL",
                        p.url
                    )));
                }
                if let Some(auth) = &p.auth {
                    // Credentials in the URL would go as Basic beside the handshake's: refused.
                    if authority(&p.url).contains('@') {
                        return Err(invalid(format!(
                            "proxy URL {}: user information in the URL and Proxy::auth: give the \
                             credentials once, in Proxy::auth",
                            without_userinfo(&p.url)
                        )));
                    }
                    // http:// endpoints: straight to the proxy, its 407s answered per request.
                    let direct = reqwest::Proxy::http(p.url.as_str())
                        .map_err(|e| invalid(format!("invalid proxy URL {shown:?}: {e}")))?;
                    // https:// endpoints: tunnels opened by the forwarder (module tunnel).
                    let t = Tunnel::start(
                        &p.url,
                        auth.clone(),
                        self.timeouts.connect,
                        &self.user_agent,
                    )
                    .map_err(invalid)?;
                    let via = reqwest::Proxy::https(t.url.as_str())
                        .map_err(|e| invalid(format!("the tunnel's URL {:?}: {e}", t.url)))?
                        .basic_auth(t.user, &t.secret);
                    b = b.no_proxy().proxy(direct).proxy(via);
                    proxy_auth = Some(AuthState::new(
                        Authenticator::for_proxy(auth.clone()),
                        Some(p.url.clone()),
                    ));
                    tunnel = Some(Arc::new(t));
                } else {
                    let mut proxy = reqwest::Proxy::all(p.url.as_str())
                        .map_err(|e| invalid(format!("invalid proxy URL {shown:?}: {e}")))?;
                    if let Some((user, password)) = &p.basic {
                        proxy = proxy.basic_auth(user, password);
                    }
                    b = b.no_proxy().proxy(proxy);
                }
            }
            None if !self.proxy_from_env => b = b.no_proxy(),
            None => {}
        }
        let max = self.redirects;
        b = b.redirect(if max == 0 {
            reqwest::redirect::Policy::none()
        } else {
            reqwest::redirect::Policy::custom(move |attempt| {
                if !matches!(attempt.status().as_u16(), 307 | 308) {
                    attempt.stop()
                } else if attempt.previous().len() > max {
                    attempt.error(format!("more than {max} redirects (follow_redirects)"))
                } else {
                    attempt.follow()
                }
            })
        });
        let client = b.build().map_err(|e| map_error(e, ""))?;
        let auth = self
            .auth
            .map(|a| AuthState::new(Authenticator::new(a), None));
        Ok(ReqwestTransport {
            client,
            auth,
            request_timeout: self.timeouts.request,
            proxy_auth,
            tunnel,
            proxy_url: self.proxy.as_ref().map(|p| without_userinfo(&p.url)),
            redirects: max > 0,
        })
    }
}

impl ReqwestTransport {
    /// A transport with default settings.
    ///
    /// # Errors
    ///
    /// As [`ReqwestTransportBuilder::build`].
    pub fn new() -> Result<Self, TransportError> {
        Self::builder().build()
    }

    /// Settings for a transport.
    pub fn builder() -> ReqwestTransportBuilder {
        ReqwestTransportBuilder::default()
    }

    /// Wraps an existing reqwest client (its own settings apply; no [`HttpAuth`]).
    pub fn from_client(client: reqwest::Client) -> Self {
        ReqwestTransport {
            client,
            auth: None,
            request_timeout: None,
            proxy_auth: None,
            tunnel: None,
            proxy_url: None,
            redirects: true,
        }
    }

    async fn send_impl(&self, mut req: HttpRequest) -> Result<HttpResponse, TransportError> {
        let resp = self.send_head(&mut req, false).await?;
        read_whole(resp, &req.url, req.max_response_bytes).await
    }

    /// Sends `req` (through the authentication handshakes of the server and of the proxy, if
    /// any) and returns the final response with its body unread. `streaming`: the body is read
    /// as it comes, so the whole-request timeout covers the exchange up to the header fields only.
    /// Without a handshake the body is not sent again: it is handed over and `req.body` left empty.
    async fn send_head(
        &self,
        req: &mut HttpRequest,
        streaming: bool,
    ) -> Result<reqwest::Response, TransportError> {
        // A proxy's 407s come for http:// endpoints; https:// ones go through the tunnel.
        let proxy = self.proxy_auth.as_deref().filter(|_| {
            req.url
                .get(..7)
                .is_some_and(|s| s.eq_ignore_ascii_case("http://"))
        });
        let server = self.auth.as_deref();
        if server.is_none() && proxy.is_none() {
            let body = std::mem::take(&mut req.body);
            return self.send_once(req, body, [None, None], streaming).await;
        }
        // The proxy's lock first, always in this order.
        let proxy_turn = match proxy.and_then(|p| p.one_at_a_time.as_ref()) {
            Some(m) => Some(m.lock().await),
            None => None,
        };
        let server_turn = match server.and_then(|s| s.one_at_a_time.as_ref()) {
            Some(m) => Some(m.lock().await),
            None => None,
        };
        let mut server_hs = server.map(|s| {
            may_block(s.authenticator.auth(), || {
                s.authenticator.start(req.method.as_str(), &req.url)
            })
        });
        let mut proxy_hs = proxy.map(|p| {
            let proxy_url = p.proxy_url.as_deref().unwrap_or_default();
            p.authenticator
                .start_proxy(req.method.as_str(), proxy_url, &req.url)
        });
        let auth_error = |e: super::auth::AuthError| {
            let message = e.to_string();
            TransportError::new(
                TransportErrorKind::Auth,
                req.url.clone(),
                message,
                Some(Box::new(e)),
            )
        };
        loop {
            let credentials = [
                server_hs.as_ref().and_then(|h| h.authorization()),
                proxy_hs.as_ref().and_then(|h| h.authorization()),
            ];
            let resp = self
                .send_once(req, req.body.clone(), credentials, streaming)
                .await?;
            let values = |field: &str| -> Vec<String> {
                resp.headers()
                    .get_all(field)
                    .iter()
                    .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                    .collect()
            };
            let (handshake, challenger) = match resp.status().as_u16() {
                401 if server_hs.is_some() => (&mut server_hs, Challenger::Server),
                407 if proxy_hs.is_some() => (&mut proxy_hs, Challenger::Proxy),
                _ => {
                    // A final token (Negotiate's mechListMIC, RFC 4559 §4.1) is checked first.
                    for (hs, c) in [
                        (&mut server_hs, Challenger::Server),
                        (&mut proxy_hs, Challenger::Proxy),
                    ] {
                        if let Some(hs) = hs.as_mut() {
                            let v = values(c.challenge_field());
                            let v: Vec<&str> = v.iter().map(String::as_str).collect();
                            hs.accepted(&v).map_err(auth_error)?;
                        }
                    }
                    return Ok(resp);
                }
            };
            let challenges = values(challenger.challenge_field());
            let challenges: Vec<&str> = challenges.iter().map(String::as_str).collect();
            if challenger == Challenger::Server {
                let cert = resp
                    .extensions()
                    .get::<reqwest::tls::TlsInfo>()
                    .and_then(reqwest::tls::TlsInfo::peer_certificate);
                if let (Some(der), Some(hs)) = (cert, handshake.as_mut()) {
                    hs.tls_server_certificate(der);
                }
            }
            // The challenge's body is read, so that its connection goes back to the pool.
            read_whole(resp, &req.url, req.max_response_bytes).await?;
            if proxy_turn.is_some() || server_turn.is_some() {
                // hyper hands the connection back to the pool from its connection task once the
                // body is read; let that task run so the next leg finds it there rather than
                // opening a new connection (which would have no handshake context).
                for _ in 0..8 {
                    tokio::task::yield_now().await;
                }
            }
            if let Some(hs) = handshake.as_mut() {
                let auth = match challenger {
                    Challenger::Server => server.map(|s| s.authenticator.auth()),
                    Challenger::Proxy => proxy.map(|p| p.authenticator.auth()),
                };
                match auth {
                    Some(a) => may_block(a, || hs.unauthorized(&challenges)),
                    None => hs.unauthorized(&challenges),
                }
                .map_err(auth_error)?;
            }
        }
    }

    /// One request `req` (a POST of `body`, or a GET), with `credentials` as the `Authorization` and `Proxy-Authorization`
    /// fields where given (each replaces one among `req.headers`), up to the response's header
    /// fields.
    async fn send_once(
        &self,
        req: &HttpRequest,
        body: Bytes,
        credentials: [Option<&str>; 2],
        streaming: bool,
    ) -> Result<reqwest::Response, TransportError> {
        let url = &req.url;
        let body = if self.redirects {
            reqwest::Body::from(body)
        } else {
            // A body reqwest cannot replay, so it keeps no copy while the service answers.
            reqwest::Body::wrap(http_body_util::Full::new(body))
        };
        let mut rb = match req.method {
            HttpMethod::Get => self.client.get(url),
            _ => self.client.post(url).body(body),
        };
        let fields = [
            Challenger::Server.credentials_field(),
            Challenger::Proxy.credentials_field(),
        ];
        for (k, v) in &req.headers {
            let replaced = fields
                .iter()
                .zip(&credentials)
                .any(|(f, c)| c.is_some() && k.eq_ignore_ascii_case(f));
            if !replaced {
                rb = rb.header(k.as_str(), v.as_str());
            }
        }
        for (f, c) in fields.iter().zip(credentials) {
            if let Some(c) = c {
                rb = rb.header(*f, c);
            }
        }
        if !streaming {
            return rb.send().await.map_err(|e| self.send_error(e, url));
        }
        // A streamed body may take as long as it takes (the read timeout still applies): the
        // whole-request timeout is applied here, to the header fields, instead of by reqwest.
        let send = rb.timeout(UNBOUNDED).send();
        match self.request_timeout {
            Some(t) => match tokio::time::timeout(t, send).await {
                Ok(r) => r.map_err(|e| self.send_error(e, url)),
                Err(_) => Err(TransportError::new(
                    TransportErrorKind::Timeout,
                    url.as_str(),
                    format!(
                        "no response header fields within {t:?} (the whole request's timeout, \
                         ClientBuilder::timeout or ReqwestTransportBuilder::timeout)"
                    ),
                    None,
                )),
            },
            None => send.await.map_err(|e| self.send_error(e, url)),
        }
    }

    /// [`map_error`], with the reason a proxy tunnel was not opened where that is the cause.
    fn send_error(&self, e: reqwest::Error, url: &str) -> TransportError {
        let failure = match &self.tunnel {
            Some(t) if e.is_connect() => t.take_failure(),
            _ => None,
        };
        let Some(failure) = failure else {
            let connect = e.is_connect();
            let mut err = map_error(e, url);
            if let (true, Some(p)) = (connect, &self.proxy_url) {
                // The connection that failed may be the proxy's, not the service's.
                err.message.push_str(&format!(
                    " (through the proxy at {p}: it or the service is unreachable)"
                ));
            }
            return err;
        };
        let kind = if failure.auth {
            TransportErrorKind::Auth
        } else {
            TransportErrorKind::Connect
        };
        TransportError::new(
            kind,
            url,
            format!("no tunnel through the proxy: {}", failure.message),
            Some(Box::new(e)),
        )
        .not_sent()
    }
}

/// A per-request timeout that never fires within a process's life (136 years): a streamed
/// body has none of its own, only the read timeout between chunks.
const UNBOUNDED: std::time::Duration = std::time::Duration::from_secs(u32::MAX as u64);

impl Transport for ReqwestTransport {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(self.send_impl(request))
    }

    fn send_streaming(&self, request: HttpRequest) -> StreamingFuture<'_> {
        Box::pin(async move {
            let mut request = request;
            let resp = self.send_head(&mut request, true).await?;
            Ok(StreamingResponse {
                status: resp.status().as_u16(),
                headers: header_fields(&resp),
                body: body_stream(resp, request.url),
            })
        })
    }
}

/// Runs `f`, a step of `auth`'s handshake, where it may block: Kerberos asks the KDC for tickets
/// (the first time, and once per service) inside the GSS-API library, synchronously. On a
/// multi-threaded tokio runtime the worker hands its other tasks over first
/// (`block_in_place`); elsewhere, and for the other schemes (computation only), `f` runs as it
/// is.
fn may_block<T>(auth: &HttpAuth, f: impl FnOnce() -> T) -> T {
    #[cfg(feature = "kerberos")]
    if matches!(auth, HttpAuth::Kerberos(_)) {
        if let Ok(h) = tokio::runtime::Handle::try_current() {
            if h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread {
                return tokio::task::block_in_place(f);
            }
        }
    }
    let _ = auth;
    f()
}
