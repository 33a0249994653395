//! Security from a WSDL's policy against the same security configured by hand, in one run: a
//! whole call (the request signed and encrypted, a fresh response of the service's verified and
//! decrypted) through a client built by `ClientBuilder::security_policy` from a port policy
//! (AsymmetricBinding, CXF's `Basic256GCM`: RSA-SHA1, SHA-1, AES-256-GCM, RSA-OAEP; Timestamp;
//! Body signed and encrypted both ways) and through one built by `ClientBuilder::wss` with the
//! `WssConfig` that policy stands for, over a transport that answers from a queue of responses
//! the service side made beforehand (no network). The goal: the policy's client within 5% of
//! the hand-built one.
//!
//! ```text
//! cargo bench -p soapgen-tests --bench wss_policy
//! ```

use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use soapgen_runtime::policy::{
    AsymmetricBinding, Binding, Credentials, Inclusion, MessagePolicy, OperationPolicy, Parts,
    PortPolicy, Suite, X509Token, X509TokenType,
};
use soapgen_runtime::wss::{
    BlockEncryption, DigestAlgorithm, KeyReference, KeyTransport, SignatureAlgorithm, TrustStore,
    WssConfig, X509Encryptor, X509Signer,
};
use soapgen_runtime::{Client, Operation, SoapVersion};
use soapgen_tests::wss::{cert, credential, offline_client};

mod queue;
use queue::Queue;

const NS: &str = "urn:bench";
const OP: Operation = Operation::new("Echo", "urn:bench#Echo", SoapVersion::Soap11);

const SUITE: Suite = Suite::new(
    "Basic256GCM",
    DigestAlgorithm::Sha1,
    BlockEncryption::Aes256Gcm,
    KeyTransport::RsaOaepMgf1Sha1,
    SignatureAlgorithm::RsaSha1,
);

const MESSAGE: MessagePolicy = MessagePolicy::new(Some(Binding::Asymmetric(
    AsymmetricBinding::new(SUITE)
        .initiator_signature(X509Token::new(
            X509TokenType::V3,
            Inclusion::AlwaysToRecipient,
        ))
        .recipient_signature(X509Token::new(
            X509TokenType::V3,
            Inclusion::AlwaysToInitiator,
        ))
        .recipient_encryption(X509Token::new(X509TokenType::V3, Inclusion::Never).issuer_serial())
        .timestamp(),
)))
.signed(Parts::new(true, &[]))
.encrypted(Parts::new(true, &[]));

static OPERATIONS: [OperationPolicy; 1] = [OperationPolicy::new("Echo", MESSAGE, MESSAGE)];
static PORT: PortPolicy = PortPolicy::new("BenchPort", "BenchBinding", &OPERATIONS);

/// The service's side: what the policy asks of the responses, made by soapgen for the client.
fn service() -> Client {
    offline_client(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(
                X509Signer::new(credential("server"))
                    .signature_algorithm(SignatureAlgorithm::RsaSha1)
                    .digest(DigestAlgorithm::Sha1),
            )
            .encrypt(
                X509Encryptor::new(cert("client.pem"))
                    .block_encryption(BlockEncryption::Aes256Gcm)
                    .key_transport(KeyTransport::RsaOaepMgf1Sha1)
                    .key_reference(KeyReference::X509IssuerSerial)
                    .expect("issuer/serial"),
            ),
    )
}

/// The `WssConfig` the port's policy stands for, written by hand.
fn by_hand() -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .sign(
            X509Signer::new(credential("client"))
                .signature_algorithm(SignatureAlgorithm::RsaSha1)
                .digest(DigestAlgorithm::Sha1),
        )
        .encrypt(
            X509Encryptor::new(cert("server.pem"))
                .block_encryption(BlockEncryption::Aes256Gcm)
                .key_transport(KeyTransport::RsaOaepMgf1Sha1)
                .key_reference(KeyReference::X509IssuerSerial)
                .expect("issuer/serial"),
        )
        .trust(
            TrustStore::new()
                .anchor(cert("ca.pem"))
                .known_certificate(cert("server.pem")),
        )
        .require_timestamp(true)
        .require_signature(true)
        .require_encryption(true)
}

fn client(queue: &Arc<Queue>, policy: bool) -> Client {
    let b = Client::builder("https://127.0.0.1:9/").transport(queue.clone());
    let b = if policy {
        b.security_policy(
            &PORT,
            Credentials::new()
                .signing(credential("client"))
                .service_certificate(cert("server.pem"))
                .trust(TrustStore::new().anchor(cert("ca.pem"))),
        )
    } else {
        b.wss(by_hand())
    };
    b.build().expect("client")
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let service = service();
    let mut g = c.benchmark_group("wss_policy");
    for size in [1024usize, 100 * 1024] {
        let text = "a".repeat(size);
        g.throughput(Throughput::Bytes(size as u64));
        for (name, policy) in [("call_by_hand", false), ("call_from_policy", true)] {
            let queue = Arc::new(Queue::default());
            let client = client(&queue, policy);
            g.bench_with_input(BenchmarkId::new(name, size), &text, |b, t| {
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
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
