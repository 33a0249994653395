//! [`Transport`] over reqwest (hyper, rustls): pooled keep-alive connections, timeouts, gzip,
//! cookies, proxies from the environment (`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`).

use std::time::Duration;

use bytes::BytesMut;

use super::{HttpRequest, HttpResponse, Transport, TransportFuture};
use crate::error::{TransportError, TransportErrorKind};

/// The default reqwest-based transport. Cloning is cheap (the connection pool is shared).
#[derive(Debug, Clone)]
pub struct ReqwestTransport {
    client: reqwest::Client,
}

/// Settings for a [`ReqwestTransport`].
#[derive(Debug)]
#[must_use]
pub struct ReqwestTransportBuilder {
    timeout: Option<Duration>,
    connect_timeout: Option<Duration>,
    cookies: bool,
    gzip: bool,
    proxy_from_env: bool,
    user_agent: String,
    accept_invalid_certs: bool,
    pool_idle_timeout: Option<Duration>,
}

impl Default for ReqwestTransportBuilder {
    fn default() -> Self {
        ReqwestTransportBuilder {
            timeout: Some(Duration::from_secs(60)),
            connect_timeout: Some(Duration::from_secs(10)),
            cookies: true,
            gzip: true,
            proxy_from_env: true,
            user_agent: concat!("soapgen/", env!("CARGO_PKG_VERSION")).to_owned(),
            accept_invalid_certs: false,
            pool_idle_timeout: Some(Duration::from_secs(90)),
        }
    }
}

impl ReqwestTransportBuilder {
    /// Whole-request timeout, from sending to the last body byte (default 60 s; `None` for none).
    pub fn timeout(mut self, t: Option<Duration>) -> Self {
        self.timeout = t;
        self
    }

    /// Connection timeout (default 10 s).
    pub fn connect_timeout(mut self, t: Option<Duration>) -> Self {
        self.connect_timeout = t;
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

    /// Use proxies from `HTTP_PROXY`/`HTTPS_PROXY`/`NO_PROXY` (default on).
    pub fn proxy_from_env(mut self, on: bool) -> Self {
        self.proxy_from_env = on;
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

    /// How long an idle pooled connection is kept (default 90 s).
    pub fn pool_idle_timeout(mut self, t: Option<Duration>) -> Self {
        self.pool_idle_timeout = t;
        self
    }

    /// Builds the transport (loads the TLS roots: do it once and share the result).
    ///
    /// # Errors
    ///
    /// [`TransportError`] of kind `Request` if reqwest cannot build its client.
    pub fn build(self) -> Result<ReqwestTransport, TransportError> {
        let mut b = reqwest::Client::builder()
            .cookie_store(self.cookies)
            .gzip(self.gzip)
            .user_agent(self.user_agent)
            .pool_idle_timeout(self.pool_idle_timeout)
            .danger_accept_invalid_certs(self.accept_invalid_certs);
        if let Some(t) = self.timeout {
            b = b.timeout(t);
        }
        if let Some(t) = self.connect_timeout {
            b = b.connect_timeout(t);
        }
        if !self.proxy_from_env {
            b = b.no_proxy();
        }
        let client = b.build().map_err(|e| map_error(e, ""))?;
        Ok(ReqwestTransport { client })
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

    /// Wraps an existing reqwest client (its own settings apply).
    pub fn from_client(client: reqwest::Client) -> Self {
        ReqwestTransport { client }
    }

    async fn send_impl(&self, req: HttpRequest) -> Result<HttpResponse, TransportError> {
        let url = req.url;
        let mut rb = self.client.post(&url).body(req.body);
        for (k, v) in &req.headers {
            rb = rb.header(k.as_str(), v.as_str());
        }
        let mut resp = rb.send().await.map_err(|e| map_error(e, &url))?;
        let status = resp.status().as_u16();
        let headers = resp
            .headers()
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        let limit = req.max_response_bytes;
        if let Some(len) = resp.content_length() {
            if len > limit as u64 {
                return Err(too_large(&url, limit));
            }
        }
        let mut body = BytesMut::with_capacity(
            resp.content_length()
                .map(|l| l as usize)
                .unwrap_or(8 * 1024)
                .min(limit),
        );
        while let Some(chunk) = resp.chunk().await.map_err(|e| map_error(e, &url))? {
            if body.len() + chunk.len() > limit {
                return Err(too_large(&url, limit));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(HttpResponse {
            status,
            headers,
            body: body.freeze(),
        })
    }
}

impl Transport for ReqwestTransport {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(self.send_impl(request))
    }
}

fn too_large(url: &str, limit: usize) -> TransportError {
    TransportError::new(
        TransportErrorKind::TooLarge,
        url,
        format!("response body exceeds the limit of {limit} bytes"),
        None,
    )
}

fn map_error(e: reqwest::Error, url: &str) -> TransportError {
    let kind = if e.is_timeout() {
        TransportErrorKind::Timeout
    } else if e.is_connect() {
        TransportErrorKind::Connect
    } else if e.is_builder() || e.is_request() && e.url().is_none() {
        TransportErrorKind::Request
    } else {
        TransportErrorKind::Other
    };
    // The full cause chain: reqwest's top-level message alone says little ("error sending request").
    let mut message = e.to_string();
    let mut src = std::error::Error::source(&e);
    while let Some(s) = src {
        message.push_str(": ");
        message.push_str(&s.to_string());
        src = s.source();
    }
    TransportError::new(kind, url, message, Some(Box::new(e)))
}
