//! What the WS-Security call benchmarks share: a transport that answers from a queue of
//! prepared responses (no network), and whole calls through it, each answered by a fresh
//! response of the service's (the replay check refuses a second look at one).

use std::collections::VecDeque;
use std::sync::Mutex;

use criterion::{BatchSize, Bencher};
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::types::AnyElement;
use soapgen_runtime::{Client, FromXml, Operation};
use soapgen_tests::wss::{text_envelope, text_request};

/// Answers each request with the next response of its queue (a `500` when it is empty), or,
/// with [`token_answer`](Self::token_answer), a WS-Trust token request with what that makes of
/// the request.
#[derive(Debug, Default)]
pub struct Queue {
    responses: Mutex<VecDeque<String>>,
    token_answer: Option<fn(&str) -> String>,
}

impl Queue {
    /// A queue whose token requests (`RequestSecurityToken` in the body) `answer` answers.
    #[allow(dead_code)] // (each benchmark binary compiles the module; not every one asks tokens)
    pub fn answering_token_requests(answer: fn(&str) -> String) -> Self {
        Queue {
            token_answer: Some(answer),
            ..Queue::default()
        }
    }

    /// Queues `response` for the next request.
    pub fn push(&self, response: String) {
        self.responses.lock().unwrap().push_back(response);
    }
}

impl Transport for Queue {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let text = String::from_utf8_lossy(&request.body);
        let (status, body) = match self.token_answer {
            Some(answer) if text.contains("RequestSecurityToken") => (200, answer(&text)),
            _ => match self.responses.lock().unwrap().pop_front() {
                Some(b) => (200, b),
                None => (500, String::new()),
            },
        };
        Box::pin(async move {
            Ok(HttpResponse {
                status,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body: body.into_bytes().into(),
            })
        })
    }
}

/// One call of `op` with `text` by `client` per iteration, answered through `queue` by a fresh
/// response `service` makes (in the untimed setup); the call's decoding reads the result whole.
#[allow(clippy::too_many_arguments)]
pub fn calls(
    b: &mut Bencher<'_>,
    runtime: &tokio::runtime::Runtime,
    (client, service, queue): (&Client, &Client, &Queue),
    op: &Operation,
    namespaces: &'static [(&'static str, &'static str)],
    text: &str,
) {
    b.iter_batched(
        || {
            queue.push(text_envelope(service, op, namespaces, text));
            text_request(client, namespaces, op.name, text)
        },
        |request| {
            runtime
                .block_on(client.call(op, request, |r, tag| {
                    <AnyElement as FromXml>::read_xml(r, tag)
                }))
                .expect("the call")
        },
        BatchSize::SmallInput,
    )
}
