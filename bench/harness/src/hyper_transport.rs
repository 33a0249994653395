//! A minimal [`Transport`] over hyper 1 + hyper-util's pooled client: plain HTTP/1.1 on keep-alive
//! connections, nothing else (no TLS, proxies, cookies, gzip, redirects or timeouts).  The
//! benchmark's yardstick for what soapgen's default reqwest transport adds per call.

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use soapgen_runtime::error::{TransportError, TransportErrorKind};
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};

/// hyper's pooled HTTP/1.1 client with `TCP_NODELAY`.
#[derive(Debug, Clone)]
pub struct HyperTransport {
    client: Client<HttpConnector, Full<Bytes>>,
}

impl HyperTransport {
    /// A new client with its own connection pool.
    pub fn new() -> Self {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        HyperTransport {
            client: Client::builder(TokioExecutor::new()).build(connector),
        }
    }

    async fn send_impl(&self, req: HttpRequest) -> Result<HttpResponse, TransportError> {
        let url = req.url;
        let mut builder = http::Request::post(url.as_str());
        for (k, v) in &req.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        let request = builder
            .body(Full::new(req.body))
            .map_err(|e| error(TransportErrorKind::Request, &url, e))?;
        let response = self.client.request(request).await.map_err(|e| {
            let kind = if e.is_connect() {
                TransportErrorKind::Connect
            } else {
                TransportErrorKind::Other
            };
            error(kind, &url, e)
        })?;
        let (parts, body) = response.into_parts();
        let body = Limited::new(body, req.max_response_bytes)
            .collect()
            .await
            .map_err(|e| {
                let kind = if e.is::<http_body_util::LengthLimitError>() {
                    TransportErrorKind::TooLarge
                } else {
                    TransportErrorKind::Other
                };
                TransportError::new(kind, url.as_str(), e.to_string(), Some(e))
            })?
            .to_bytes();
        let headers = parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect();
        Ok(HttpResponse {
            status: parts.status.as_u16(),
            headers,
            body,
        })
    }
}

impl Default for HyperTransport {
    fn default() -> Self {
        Self::new()
    }
}

impl Transport for HyperTransport {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(self.send_impl(request))
    }
}

fn error<E>(kind: TransportErrorKind, url: &str, e: E) -> TransportError
where
    E: std::error::Error + Send + Sync + 'static,
{
    TransportError::new(kind, url, e.to_string(), Some(Box::new(e)))
}
