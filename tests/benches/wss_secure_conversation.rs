//! What a call costs on an established WS-SecureConversation context, against the same call's
//! security under a SymmetricBinding with an X.509 protection token (the key the client makes and
//! wraps for the service each time), in one run, over a transport that answers from a queue (no
//! network):
//!
//! * `request/x509_symmetric` and `request/context`: the request secured (`Client::message`):
//!   Timestamp, Body encrypted (AES-128-CBC) and signed (HMAC-SHA1) under the request key; the
//!   X.509 binding also makes the key and wraps it with RSA-OAEP, the context sends its token;
//! * `call/context`: a whole call on the context: the request secured, sent, and a fresh response
//!   of the service's (signed and encrypted under the context's key, naming its token) verified and
//!   decrypted.
//!
//! The context is the service's answer to the client's token request, canned (its key a
//! `wst:BinarySecret`); the service's responses are made by soapgen under the same context.
//!
//! ```text
//! cargo bench -p soapgen-tests --bench wss_secure_conversation
//! ```

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use soapgen_runtime::types::AnyElement;
use soapgen_runtime::wss::{
    SecureConversation, SecureConversationToken, SymmetricBinding, TrustStore, WssConfig, WST_13_NS,
};
use soapgen_runtime::{Client, FromXml, Operation, SoapVersion};
use soapgen_tests::wss::{cert, text_request};

mod queue;
use queue::Queue;

const NS: &str = "urn:bench";
const OP: Operation = Operation::new("Echo", "urn:bench#Echo", SoapVersion::Soap11);

/// The service's answer to the token `request` (related to its `wsa:MessageID`): one context,
/// its key given.
fn issued(request: &str) -> String {
    let id = request
        .split_once("MessageID>")
        .and_then(|(_, rest)| rest.split_once('<'))
        .map_or("", |(id, _)| id);
    format!(
        "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Header>\
         <wsa:RelatesTo xmlns:wsa=\"http://www.w3.org/2005/08/addressing\">{id}</wsa:RelatesTo>\
         </soap:Header><soap:Body>\
         <wst:RequestSecurityTokenResponseCollection xmlns:wst=\"{WST_13_NS}\">\
         <wst:RequestSecurityTokenResponse><wst:RequestedSecurityToken>\
         <wsc:SecurityContextToken xmlns:wsc=\"http://docs.oasis-open.org/ws-sx/ws-secureconversation/200512\" \
         xmlns:wsu=\"http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd\" \
         wsu:Id=\"sct-bench\"><wsc:Identifier>urn:uuid:bench-context</wsc:Identifier>\
         </wsc:SecurityContextToken></wst:RequestedSecurityToken><wst:RequestedProofToken>\
         <wst:BinarySecret>AAECAwQFBgcICQoLDA0ODw==</wst:BinarySecret></wst:RequestedProofToken>\
         </wst:RequestSecurityTokenResponse></wst:RequestSecurityTokenResponseCollection>\
         </soap:Body></soap:Envelope>"
    )
}

/// A client whose requests a context protects (Basic128), over `queue`.
fn context_client(queue: &Arc<Queue>) -> Client {
    let token = SecureConversationToken::new(WssConfig::new()).version(SecureConversation::V13);
    Client::builder("http://127.0.0.1:9/")
        .transport(queue.clone())
        .wss(
            WssConfig::new()
                .timestamp(Duration::from_secs(300))
                .symmetric(SymmetricBinding::secure_conversation(
                    cert("server.pem"),
                    token,
                ))
                .trust(TrustStore::new().anchor(cert("ca.pem"))),
        )
        .build()
        .expect("client")
}

/// A client of the same security with an X.509 protection token (a key wrapped each time).
fn x509_client() -> Client {
    Client::builder("http://127.0.0.1:9/")
        .wss(
            WssConfig::new()
                .timestamp(Duration::from_secs(300))
                .symmetric(SymmetricBinding::new(cert("server.pem"))),
        )
        .build()
        .expect("client")
}

/// Establishes `client`'s context: one call (its token request answered, the call itself
/// answered with nothing).
fn establish(runtime: &tokio::runtime::Runtime, client: &Client) {
    let request = text_request(client, &[("w", NS)], OP.name, "x");
    let r = runtime.block_on(client.call(&OP, request, |r, tag| {
        <AnyElement as FromXml>::read_xml(r, tag)
    }));
    assert!(
        matches!(&r, Err(soapgen_runtime::Error::Http { .. })),
        "the token request answered, the call not: {r:?}"
    );
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    // The service's side: the same context, its messages made by soapgen.
    let service = context_client(&Arc::new(Queue::answering_token_requests(issued)));
    establish(&runtime, &service);
    let queue = Arc::new(Queue::answering_token_requests(issued));
    let client = context_client(&queue);
    establish(&runtime, &client);
    let x509 = x509_client();
    let mut g = c.benchmark_group("wss_secure_conversation");
    for size in [1024usize, 100 * 1024] {
        let text = "a".repeat(size);
        g.throughput(Throughput::Bytes(size as u64));
        for (name, c) in [
            ("request/x509_symmetric", &x509),
            ("request/context", &client),
        ] {
            g.bench_with_input(BenchmarkId::new(name, size), &text, |b, t| {
                b.iter_batched(
                    || text_request(c, &[("w", NS)], OP.name, t),
                    |request| c.message(&OP, &request).expect("secured"),
                    BatchSize::SmallInput,
                )
            });
        }
        g.bench_with_input(BenchmarkId::new("call/context", size), &text, |b, t| {
            queue::calls(
                b,
                &runtime,
                (&client, &service, &queue),
                &OP,
                &[("w", NS)],
                t,
            )
        });
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
