//! A transport that records every exchange around the reqwest transport: the request body and
//! Content-Type, and the response's, for tests that check what went over the wire (MTOM or plain
//! XML, SwA packaging, the request envelope as sent, a signed response as received). It can also
//! hold each request back a while (a Timestamp that has expired when it arrives), or change it
//! on the way as a man in the middle would (a tampered signed Body). Bodies of
//! [`MAX_KEPT_BODY`] bytes or more are not kept (their lengths are): the MTOM tests' 64 MiB
//! messages are not held for the transport's life.
//!
//! ```no_run
//! use std::sync::Arc;
//! use soapgen_tests::recording::Recording;
//!
//! let rec = Arc::new(Recording::new());
//! let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/soap")
//!     .transport(rec.clone())
//!     .build()
//!     .unwrap();
//! // … calls …
//! let sent = rec.last_request();
//! ```

use std::sync::Mutex;
use std::time::Duration;

use soapgen_runtime::transport::{HttpRequest, ReqwestTransport, Transport, TransportFuture};

/// Bodies this long or longer are recorded by length only.
pub const MAX_KEPT_BODY: usize = 1 << 20;

/// One request as sent, and its response if one came.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exchange {
    /// The request's Content-Type header (empty without one).
    pub request_content_type: String,
    /// The request body (lossy UTF-8; empty if it is [`MAX_KEPT_BODY`] bytes or longer).
    pub request: String,
    /// The request body's length in bytes.
    pub request_len: usize,
    /// The response's Content-Type (empty before or without a response).
    pub response_content_type: String,
    /// The response body (lossy UTF-8; empty before or without a response, or if it is
    /// [`MAX_KEPT_BODY`] bytes or longer).
    pub response: String,
    /// The response body's length in bytes.
    pub response_len: usize,
}

fn kept(body: &[u8]) -> String {
    if body.len() < MAX_KEPT_BODY {
        String::from_utf8_lossy(body).into_owned()
    } else {
        String::new()
    }
}

/// Sends through [`ReqwestTransport`] and records each [`Exchange`], in the order the requests
/// were sent.
#[derive(Debug)]
pub struct Recording {
    inner: ReqwestTransport,
    delay: Duration,
    /// What each request body is changed to on the way.
    rewrite: Option<fn(&str) -> String>,
    /// What each response body is changed to on the way back.
    rewrite_response: Option<fn(&str) -> String>,
    seen: Mutex<Vec<Exchange>>,
}

impl Recording {
    /// A recording transport with reqwest's defaults.
    pub fn new() -> Self {
        Self::with_delay(Duration::ZERO)
    }

    /// A recording transport that waits `delay` before sending each request (after recording
    /// it).
    pub fn with_delay(delay: Duration) -> Self {
        Recording {
            inner: ReqwestTransport::builder()
                .build()
                .expect("default reqwest transport"),
            delay,
            rewrite: None,
            rewrite_response: None,
            seen: Mutex::new(Vec::new()),
        }
    }

    /// A recording transport whose HTTPS connections trust `anchors` (and not the built-in
    /// roots): for peers with a certificate of the test CA.
    pub fn trusting(anchors: soapgen_runtime::transport::TrustAnchors) -> Self {
        Recording {
            inner: ReqwestTransport::builder()
                .trust_anchors(anchors)
                .built_in_roots(false)
                .build()
                .expect("reqwest transport with the trust anchors"),
            ..Self::new()
        }
    }

    /// This transport, sending each request body (UTF-8) as `rewrite` changes it (see
    /// [`rewriting`](Self::rewriting)).
    #[must_use]
    pub fn with_request_rewrite(mut self, rewrite: fn(&str) -> String) -> Self {
        self.rewrite = Some(rewrite);
        self
    }

    /// This transport, handing the client each response body (UTF-8) as `rewrite` changes it
    /// (see [`rewriting_responses`](Self::rewriting_responses)).
    #[must_use]
    pub fn with_response_rewrite(mut self, rewrite: fn(&str) -> String) -> Self {
        self.rewrite_response = Some(rewrite);
        self
    }

    /// A recording transport that sends each request body (UTF-8) as `rewrite` changes it, as
    /// a man in the middle would, and records what it sent.
    pub fn rewriting(rewrite: fn(&str) -> String) -> Self {
        Recording {
            rewrite: Some(rewrite),
            ..Self::new()
        }
    }

    /// A recording transport that hands the client each response body (UTF-8) as `rewrite`
    /// changes it, as a man in the middle would; what is recorded is the response as the peer
    /// sent it.
    pub fn rewriting_responses(rewrite: fn(&str) -> String) -> Self {
        Recording {
            rewrite_response: Some(rewrite),
            ..Self::new()
        }
    }

    /// A recording transport that changes each request body with `request` and each response
    /// body with `response` ([`rewriting`](Self::rewriting), [`rewriting_responses`](Self::rewriting_responses)).
    pub fn rewriting_both(request: fn(&str) -> String, response: fn(&str) -> String) -> Self {
        Recording {
            rewrite: Some(request),
            rewrite_response: Some(response),
            ..Self::new()
        }
    }

    /// Every exchange so far.
    pub fn exchanges(&self) -> Vec<Exchange> {
        self.seen.lock().unwrap().clone()
    }

    /// Every request body so far.
    pub fn requests(&self) -> Vec<String> {
        self.seen
            .lock()
            .unwrap()
            .iter()
            .map(|e| e.request.clone())
            .collect()
    }

    /// The last exchange (empty strings before any).
    pub fn last_exchange(&self) -> Exchange {
        self.seen
            .lock()
            .unwrap()
            .last()
            .cloned()
            .unwrap_or_default()
    }

    /// The Content-Types of the last exchange, request and response (empty strings before any).
    pub fn last_content_types(&self) -> (String, String) {
        let e = self.last_exchange();
        (e.request_content_type, e.response_content_type)
    }

    /// The last request body (empty before any).
    pub fn last_request(&self) -> String {
        self.last_exchange().request
    }

    /// The last response body (empty before any, or if the last request got none).
    pub fn last_response(&self) -> String {
        self.last_exchange().response
    }
}

impl Default for Recording {
    fn default() -> Self {
        Self::new()
    }
}

impl Transport for Recording {
    fn send(&self, mut request: HttpRequest) -> TransportFuture<'_> {
        if let Some(rewrite) = self.rewrite {
            let changed = rewrite(&String::from_utf8_lossy(&request.body));
            request.body = changed.into_bytes().into();
        }
        let index = {
            let mut seen = self.seen.lock().unwrap();
            seen.push(Exchange {
                request_content_type: request
                    .headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                    .map(|(_, v)| v.clone())
                    .unwrap_or_default(),
                request: kept(&request.body),
                request_len: request.body.len(),
                ..Exchange::default()
            });
            seen.len() - 1
        };
        Box::pin(async move {
            if !self.delay.is_zero() {
                tokio::time::sleep(self.delay).await;
            }
            let mut resp = self.inner.send(request).await?;
            {
                let mut seen = self.seen.lock().unwrap();
                let e = &mut seen[index];
                e.response_content_type = resp.content_type().unwrap_or_default().to_owned();
                e.response = kept(&resp.body);
                e.response_len = resp.body.len();
            }
            if let Some(rewrite) = self.rewrite_response {
                let changed = rewrite(&String::from_utf8_lossy(&resp.body));
                resp.body = changed.into_bytes().into();
            }
            Ok(resp)
        })
    }
}
