//! The transport as a [`tower::Service`], and any such service as a transport (feature `tower`):
//! timeouts, concurrency and rate limits, load shedding and the like come from the tower layers
//! an application already uses, composed around the HTTP exchange of every call.
//!
//! ```no_run
//! # async fn f() -> Result<(), Box<dyn std::error::Error>> {
//! use std::sync::Arc;
//! use soapgen_runtime::transport::{ReqwestTransport, TowerTransport, TransportService};
//! use tower::ServiceBuilder;
//!
//! // Any tower layer: a timeout here; concurrency and rate limits with tower's `limit`.
//! let service = ServiceBuilder::new()
//!     .timeout(std::time::Duration::from_secs(30))
//!     .service(TransportService::new(Arc::new(ReqwestTransport::new()?)));
//! let client = soapgen_runtime::Client::builder("https://example.org/service")
//!     .transport(Arc::new(TowerTransport::new(service)))
//!     .build()?;
//! # Ok(()) }
//! ```

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tower::{BoxError, Service, ServiceExt};

use super::{HttpRequest, HttpResponse, Transport, TransportFuture};
use crate::error::{TransportError, TransportErrorKind};

/// A [`Transport`] as a [`tower::Service`] of [`HttpRequest`]s: always ready, cheap to clone.
#[derive(Debug, Clone)]
pub struct TransportService {
    transport: Arc<dyn Transport>,
}

impl TransportService {
    /// The service that sends each request through `transport`.
    pub fn new(transport: Arc<dyn Transport>) -> Self {
        TransportService { transport }
    }
}

impl Service<HttpRequest> for TransportService {
    type Response = HttpResponse;
    type Error = TransportError;
    type Future = Pin<Box<dyn Future<Output = Result<HttpResponse, TransportError>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), TransportError>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: HttpRequest) -> Self::Future {
        let transport = self.transport.clone();
        Box::pin(async move { transport.send(request).await })
    }
}

/// A [`tower::Service`] of [`HttpRequest`]s as a [`Transport`]: each request goes through a
/// clone of the service, once it is ready. Its errors become [`TransportError`]s: a
/// `TransportError` as it is, tower's timeout as kind
/// [`Timeout`](TransportErrorKind::Timeout), anything else (a load-shedding refusal) kind
/// [`Other`](TransportErrorKind::Other), its text kept.
pub struct TowerTransport<S> {
    service: S,
}

impl<S> TowerTransport<S> {
    /// The transport that sends through `service`.
    pub fn new(service: S) -> Self {
        TowerTransport { service }
    }
}

impl<S> std::fmt::Debug for TowerTransport<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TowerTransport").finish_non_exhaustive()
    }
}

impl<S> Transport for TowerTransport<S>
where
    S: Service<HttpRequest, Response = HttpResponse> + Clone + Send + Sync + 'static,
    S::Error: Into<BoxError>,
    S::Future: Send,
{
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let service = self.service.clone();
        let url = request.url.clone();
        Box::pin(async move {
            service
                .oneshot(request)
                .await
                .map_err(|e| transport_error(e.into(), url))
        })
    }
}

/// A tower error as a transport error of the call to `url`.
fn transport_error(e: BoxError, url: String) -> TransportError {
    match e.downcast::<TransportError>() {
        Ok(t) => *t,
        Err(e) if e.is::<tower::timeout::error::Elapsed>() => TransportError::new(
            TransportErrorKind::Timeout,
            url,
            "the tower timeout expired",
            Some(e),
        ),
        Err(e) => TransportError::new(TransportErrorKind::Other, url, e.to_string(), Some(e)),
    }
}
