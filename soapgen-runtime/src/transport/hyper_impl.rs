//! [`Transport`] over hyper 1 + hyper-util's pooled client (feature `hyper`): plain HTTP/1.1 on
//! keep-alive connections and nothing else — no TLS, proxies, cookies, gzip or redirects.
//!
//! For plain-HTTP endpoints (a service on loopback or inside a trusted network, behind a
//! TLS-terminating proxy) at the lowest per-call cost: `bash bench/run.sh` measured reqwest adding
//! 26–34% (10–15 µs; +59% instructions) to a call without payload on loopback, and little to the
//! 100-object Echo call (+1.5% instructions; see docs/benchmarks.md).

use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::{TokioExecutor, TokioTimer};

use super::{
    BodyStream, HttpMethod, HttpRequest, HttpResponse, StreamingFuture, StreamingResponse,
    Timeouts, Transport, TransportFuture,
};
use crate::error::{TransportError, TransportErrorKind};

/// The lean HTTP/1.1 transport. Cloning is cheap (the connection pool is shared).
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use soapgen_runtime::transport::HyperTransport;
///
/// let transport = HyperTransport::builder()
///     .timeout(Some(std::time::Duration::from_secs(5)))
///     .build();
/// let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/soap")
///     .transport(Arc::new(transport))
///     .build()?;
/// # Ok::<(), soapgen_runtime::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct HyperTransport {
    client: Client<HttpConnector, Full<Bytes>>,
    timeout: Option<Duration>,
}

/// Settings for a [`HyperTransport`].
#[derive(Debug)]
#[must_use]
#[derive(Default)]
pub struct HyperTransportBuilder {
    timeouts: Timeouts,
}

impl HyperTransportBuilder {
    timeout_setters!();

    /// Builds the transport (no I/O: connections are made by the first requests).
    pub fn build(self) -> HyperTransport {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(self.timeouts.connect);
        let client = Client::builder(TokioExecutor::new())
            .pool_timer(TokioTimer::new())
            .pool_idle_timeout(self.timeouts.pool_idle)
            .build(connector);
        HyperTransport {
            client,
            timeout: self.timeouts.request,
        }
    }
}

impl HyperTransport {
    /// A transport with default settings.
    pub fn new() -> Self {
        Self::builder().build()
    }

    /// Settings for a transport.
    pub fn builder() -> HyperTransportBuilder {
        HyperTransportBuilder::default()
    }

    async fn send_impl(&self, req: HttpRequest) -> Result<HttpResponse, TransportError> {
        let url = req.url.clone();
        let limit = req.max_response_bytes;
        let whole = async {
            let response = self.head(req).await?;
            read_whole(response, &url, limit).await
        };
        match self.timeout {
            Some(t) => match tokio::time::timeout(t, whole).await {
                Ok(r) => r,
                Err(_) => Err(timed_out(&url, t, "no complete response")),
            },
            None => whole.await,
        }
    }

    /// Sends `req` and returns the response with its body unread.
    async fn head(
        &self,
        req: HttpRequest,
    ) -> Result<http::Response<hyper::body::Incoming>, TransportError> {
        let url = req.url;
        if url.starts_with("https:") {
            return Err(TransportError::new(
                TransportErrorKind::Request,
                url,
                "HyperTransport speaks plain HTTP only; use the reqwest transport for https",
                None,
            ));
        }
        let mut builder = match req.method {
            HttpMethod::Get => http::Request::get(url.as_str()),
            _ => http::Request::post(url.as_str()),
        };
        for (k, v) in &req.headers {
            builder = builder.header(k.as_str(), v.as_str());
        }
        let request = builder.body(Full::new(req.body)).map_err(|e| {
            TransportError::new(
                TransportErrorKind::Request,
                url.as_str(),
                e.to_string(),
                Some(Box::new(e)),
            )
        })?;
        self.client.request(request).await.map_err(|e| {
            let kind = if e.is_connect() {
                TransportErrorKind::Connect
            } else {
                TransportErrorKind::Other
            };
            let message = super::with_causes(&e);
            TransportError::new(kind, url.as_str(), message, Some(Box::new(e)))
        })
    }
}

/// The `Timeout` error of a transport timeout `t` at `url`: `what` did not come in time.
fn timed_out(url: &str, t: Duration, what: &str) -> TransportError {
    TransportError::new(
        TransportErrorKind::Timeout,
        url,
        format!("{what} within {t:?} (HyperTransportBuilder::timeout)"),
        None,
    )
}

/// The header fields of `parts`, names lowercase.
fn header_fields(parts: &http::response::Parts) -> Vec<(String, String)> {
    super::header_pairs(
        parts
            .headers
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_bytes())),
    )
}

/// Reads the whole body of `response`, refusing one over `limit` bytes.
async fn read_whole(
    response: http::Response<hyper::body::Incoming>,
    url: &str,
    limit: usize,
) -> Result<HttpResponse, TransportError> {
    let (parts, body) = response.into_parts();
    let body = Limited::new(body, limit)
        .collect()
        .await
        .map_err(|e| {
            if e.is::<http_body_util::LengthLimitError>() {
                TransportError::new(
                    TransportErrorKind::TooLarge,
                    url,
                    format!("response body exceeds the limit of {limit} bytes"),
                    None,
                )
            } else {
                TransportError::new(TransportErrorKind::Other, url, e.to_string(), Some(e))
            }
        })?
        .to_bytes();
    Ok(HttpResponse {
        status: parts.status.as_u16(),
        headers: header_fields(&parts),
        body,
    })
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

    fn send_streaming(&self, request: HttpRequest) -> StreamingFuture<'_> {
        Box::pin(async move {
            let url = request.url.clone();
            let response = match self.timeout {
                Some(t) => tokio::time::timeout(t, self.head(request))
                    .await
                    .map_err(|_| timed_out(&url, t, "no response header fields"))??,
                None => self.head(request).await?,
            };
            let (parts, body) = response.into_parts();
            let data = body.into_data_stream();
            let body: BodyStream = Box::pin(MapErr { data, url });
            Ok(StreamingResponse {
                status: parts.status.as_u16(),
                headers: header_fields(&parts),
                body,
            })
        })
    }
}

/// The data frames of a response body as [`BodyStream`] chunks, hyper's errors made
/// [`TransportError`]s.
struct MapErr {
    data: http_body_util::BodyDataStream<hyper::body::Incoming>,
    url: String,
}

impl futures_core::Stream for MapErr {
    type Item = Result<Bytes, TransportError>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        let this = &mut *self;
        std::pin::Pin::new(&mut this.data)
            .poll_next(cx)
            .map(|item| {
                item.map(|r| {
                    r.map_err(|e| {
                        let message = super::with_causes(&e);
                        TransportError::new(
                            TransportErrorKind::Other,
                            this.url.as_str(),
                            message,
                            Some(Box::new(e)),
                        )
                    })
                })
            })
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;
    use std::thread;

    use super::*;

    /// Serves `responses.len()` requests on one keep-alive connection, answering each with the
    /// next raw response; returns the URL and a handle yielding the requests' bodies.
    fn server(responses: Vec<Vec<u8>>) -> (String, thread::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/soap", listener.local_addr().unwrap());
        let handle = thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut out = stream;
            let mut bodies = Vec::new();
            for response in responses {
                let mut len = 0;
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).unwrap();
                    if line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap();
                    }
                }
                let mut body = vec![0; len];
                reader.read_exact(&mut body).unwrap();
                bodies.push(String::from_utf8(body).unwrap());
                out.write_all(&response).unwrap();
            }
            bodies
        });
        (url, handle)
    }

    fn ok(body: &str) -> Vec<u8> {
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }

    fn request(url: &str, body: &str, max: usize) -> HttpRequest {
        HttpRequest {
            method: Default::default(),
            url: url.to_owned(),
            headers: vec![("Content-Type".to_owned(), "text/xml".to_owned())],
            body: Bytes::from(body.to_owned()),
            max_response_bytes: max,
        }
    }

    #[tokio::test]
    async fn two_calls_on_one_connection() {
        let (url, server) = server(vec![ok("<a/>"), ok("<b/>")]);
        let t = HyperTransport::new();
        let r = t.send(request(&url, "<x/>", 1024)).await.unwrap();
        assert_eq!(r.status, 200);
        assert_eq!(r.content_type(), Some("text/xml; charset=utf-8"));
        assert_eq!(&r.body[..], b"<a/>");
        let r = t.send(request(&url, "<y/>", 1024)).await.unwrap();
        assert_eq!(&r.body[..], b"<b/>");
        assert_eq!(server.join().unwrap(), ["<x/>", "<y/>"]);
    }

    #[tokio::test]
    async fn body_over_the_limit_is_too_large() {
        let (url, _server) = server(vec![ok(&"x".repeat(100))]);
        let e = HyperTransport::new()
            .send(request(&url, "<x/>", 10))
            .await
            .unwrap_err();
        assert_eq!(e.kind, TransportErrorKind::TooLarge, "{e}");
    }

    #[tokio::test]
    async fn refused_connection_timeout_and_https() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let e = HyperTransport::new()
            .send(request(&format!("http://127.0.0.1:{port}/"), "", 10))
            .await
            .unwrap_err();
        assert_eq!(e.kind, TransportErrorKind::Connect, "{e}");

        // A server that accepts and never answers.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let _hold = thread::spawn(move || {
            let conn = listener.accept();
            thread::sleep(Duration::from_secs(2));
            drop(conn);
        });
        let e = HyperTransport::builder()
            .timeout(Some(Duration::from_millis(200)))
            .build()
            .send(request(&url, "<x/>", 10))
            .await
            .unwrap_err();
        assert_eq!(e.kind, TransportErrorKind::Timeout, "{e}");

        let e = HyperTransport::new()
            .send(request("https://127.0.0.1:1/", "", 10))
            .await
            .unwrap_err();
        assert_eq!(e.kind, TransportErrorKind::Request, "{e}");
    }
}
