//! The in-process fake on a loopback socket (feature `testing-server`): an HTTP/1.1 server
//! (hyper) on `127.0.0.1` that answers SOAP requests with a [`Dispatch`] and serves the service's
//! WSDL at `?wsdl`, for tests of code that takes a URL, runs in another process, or is another
//! SOAP stack.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;

use super::fake::{fault_response, Dispatch, ServiceRequest};
use crate::transport::{HttpRequest, HttpResponse};

/// The largest request body the loopback server reads, in bytes (64 MiB); a larger one is
/// answered `413 Content Too Large` (RFC 9110 §15.5.14).
pub const MAX_REQUEST_BYTES: usize = 64 << 20;

/// A fake service listening on a loopback port until dropped: SOAP 1.1 and 1.2 requests (MTOM
/// and SwA too) answered by a [`Dispatch`] (a generated client's `fake_service(service)`), faults
/// with their HTTP status (500; 400 for a SOAP 1.2 `Sender` fault), one-way operations with
/// `202 Accepted`, and, when given one, the WSDL at `GET ?wsdl` with every `soap:address` and
/// `soap12:address` `location` rewritten to the server's URL (WSDL 1.1 §3.8), so that a client
/// that reads the WSDL calls the fake.
///
/// # Examples
///
/// ```no_run
/// # async fn run(service: std::sync::Arc<dyn soapgen_runtime::testing::Dispatch>) -> std::io::Result<()> {
/// use soapgen_runtime::testing::Loopback;
/// let server = Loopback::serve(service, None).await?;
/// let url = server.url(); // http://127.0.0.1:PORT/
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Loopback {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<()>,
}

impl Loopback {
    /// Listens on `127.0.0.1` at a free port and answers with `service`, serving `wsdl` (its
    /// text) at `?wsdl` when given. Must be called inside a tokio runtime, which runs the
    /// server's tasks.
    ///
    /// # Errors
    ///
    /// The I/O error of binding the port.
    pub async fn serve(service: Arc<dyn Dispatch>, wsdl: Option<String>) -> std::io::Result<Self> {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let addr = listener.local_addr()?;
        let url: Arc<str> = Arc::from(format!("http://{addr}/"));
        let wsdl: Option<Arc<str>> = wsdl.map(|w| Arc::from(with_address(&w, &url)));
        let task = tokio::spawn(async move {
            // A failed accept (out of descriptors, a reset before accept) ends one connection,
            // not the server.
            while let Ok((stream, _)) = listener.accept().await {
                let (service, url, wsdl) = (service.clone(), url.clone(), wsdl.clone());
                tokio::spawn(async move {
                    let handler = hyper::service::service_fn(move |req| {
                        handle(req, service.clone(), url.clone(), wsdl.clone())
                    });
                    // A connection the client breaks off is its own business.
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), handler)
                        .await;
                });
            }
        });
        Ok(Loopback { addr, task })
    }

    /// The server's URL, `http://127.0.0.1:PORT/`: the endpoint to give a client (any path
    /// reaches the same service).
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The URL of the served WSDL, `http://127.0.0.1:PORT/?wsdl`.
    pub fn wsdl_url(&self) -> String {
        format!("http://{}/?wsdl", self.addr)
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Loopback {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// `wsdl` with the `location` of every SOAP address element (WSDL 1.1 §3.8, `soap:address` and
/// `soap12:address` whatever their prefix) set to `url`.
fn with_address(wsdl: &str, url: &str) -> String {
    let mut out = String::with_capacity(wsdl.len());
    let mut rest = wsdl;
    while let Some(start) = rest.find('<') {
        let (before, tag) = rest.split_at(start);
        out.push_str(before);
        let end = tag.find('>').map_or(tag.len(), |e| e + 1);
        let (element, after) = tag.split_at(end);
        let name = element[1..]
            .split(|c: char| c.is_whitespace() || c == '/' || c == '>')
            .next()
            .unwrap_or_default();
        let local = name.rsplit(':').next().unwrap_or_default();
        match (local == "address", element.find("location=")) {
            (true, Some(at)) => {
                let value = at + "location=".len();
                let quote = element[value..].chars().next().unwrap_or('"');
                let close = element[value + 1..]
                    .find(quote)
                    .map_or(element.len(), |c| value + 1 + c);
                out.push_str(&element[..value + 1]);
                out.push_str(url);
                out.push_str(&element[close..]);
            }
            _ => out.push_str(element),
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// One HTTP exchange: the WSDL for `GET ?wsdl`, the dispatcher's answer for a `POST`.
async fn handle(
    req: Request<Incoming>,
    service: Arc<dyn Dispatch>,
    url: Arc<str>,
    wsdl: Option<Arc<str>>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let plain = |status: u16, text: &str| {
        to_hyper(HttpResponse {
            status,
            headers: vec![("content-type".into(), "text/plain; charset=utf-8".into())],
            body: Bytes::from(text.to_owned()),
        })
    };
    if req.method() == Method::GET {
        let asks_wsdl = req
            .uri()
            .query()
            .is_some_and(|q| q.eq_ignore_ascii_case("wsdl"));
        return Ok(match (asks_wsdl, wsdl) {
            (true, Some(w)) => to_hyper(HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body: Bytes::from(w.as_bytes().to_vec()),
            }),
            (true, None) => plain(404, "this fake service was started without a WSDL"),
            (false, _) => plain(
                405,
                "the fake takes POSTed envelopes (and GET ?wsdl); a GET of SOAP 1.2's \
                 SOAP-response message exchange pattern is not served by it",
            ),
        });
    }
    if req.method() != Method::POST {
        return Ok(plain(405, "a SOAP service takes POST (and GET ?wsdl)"));
    }
    let headers: Vec<(String, String)> = req
        .headers()
        .iter()
        .filter_map(|(k, v)| Some((k.as_str().to_owned(), v.to_str().ok()?.to_owned())))
        .collect();
    let path = req.uri().path().trim_start_matches('/').to_owned();
    let body = match Limited::new(req.into_body(), MAX_REQUEST_BYTES)
        .collect()
        .await
    {
        Ok(b) => b.to_bytes(),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            return Ok(plain(
                413,
                "the request is larger than the fake reads (64 MiB)",
            ));
        }
        Err(e) => return Ok(plain(400, &format!("the request body cannot be read: {e}"))),
    };
    let request = HttpRequest {
        method: Default::default(),
        url: format!("{url}{path}"),
        headers,
        body,
        max_response_bytes: usize::MAX,
    };
    let response = match ServiceRequest::read(&request) {
        Ok(r) => service.dispatch(&r).await,
        Err(fault) => fault_response(&fault),
    };
    Ok(to_hyper(response))
}

fn to_hyper(r: HttpResponse) -> Response<Full<Bytes>> {
    let mut out = Response::new(Full::new(r.body));
    *out.status_mut() =
        hyper::StatusCode::from_u16(r.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    for (k, v) in r.headers {
        if let (Ok(k), Ok(v)) = (
            hyper::header::HeaderName::from_bytes(k.as_bytes()),
            hyper::header::HeaderValue::from_str(&v),
        ) {
            out.headers_mut().append(k, v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::with_address;

    #[test]
    fn every_soap_address_goes_to_the_server() {
        let wsdl = r#"<port name="a"><soap:address location="http://x/a"/></port><port><s12:address location='https://y/b' /></port><http:addressX location="z"/>"#;
        assert_eq!(
            with_address(wsdl, "http://127.0.0.1:9/"),
            r#"<port name="a"><soap:address location="http://127.0.0.1:9/"/></port><port><s12:address location='http://127.0.0.1:9/' /></port><http:addressX location="z"/>"#
        );
    }
}
