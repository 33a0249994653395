//! A transport that records the Content-Type of every request and response, around the reqwest
//! transport: for tests that check what went over the wire (MTOM or plain XML, SwA packaging).

use std::sync::Mutex;

use soapgen_runtime::transport::{HttpRequest, ReqwestTransport, Transport, TransportFuture};

/// Sends through [`ReqwestTransport`] and records `(request Content-Type, response Content-Type)`.
#[derive(Debug)]
pub struct Recording {
    inner: ReqwestTransport,
    seen: Mutex<Vec<(String, String)>>,
}

impl Recording {
    /// A recording transport with reqwest's defaults.
    pub fn new() -> Self {
        Recording {
            inner: ReqwestTransport::builder()
                .build()
                .expect("default reqwest transport"),
            seen: Mutex::new(Vec::new()),
        }
    }

    /// The Content-Types of the last exchange (empty strings before any).
    pub fn last(&self) -> (String, String) {
        self.seen
            .lock()
            .unwrap()
            .last()
            .cloned()
            .unwrap_or_default()
    }
}

impl Default for Recording {
    fn default() -> Self {
        Self::new()
    }
}

impl Transport for Recording {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(async move {
            let req_ct = request
                .headers
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
                .map(|(_, v)| v.clone())
                .unwrap_or_default();
            let resp = self.inner.send(request).await?;
            let resp_ct = resp.content_type().unwrap_or_default().to_owned();
            self.seen.lock().unwrap().push((req_ct, resp_ct));
            Ok(resp)
        })
    }
}
