//! Cost of signing a request (WSS 1.1 §8: Timestamp + Body, exclusive C14N, SHA-256 digests,
//! RSA-SHA256, BinarySecurityToken) against its floor, the bare cryptography through aws-lc-rs:
//! one RSA-2048 PKCS#1 v1.5 SHA-256 signature of a SignedInfo-sized input plus SHA-256 of the
//! body. Also the same request unsigned, for the XML writing that any request pays, and signed
//! with RSA-SHA1 (through aws-lc-sys, the key re-parsed per signature) and RSA-SHA512.
//!
//! ```text
//! cargo bench -p soapgen-tests --bench wss_sign
//! ```
//!
//! The goal: the full path at most 1.3x the floor at 1 KB.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use soapgen_runtime::wss::{SignatureAlgorithm, WssConfig, X509Credential, X509Signer};
use soapgen_runtime::{Client, Operation, SoapVersion};
use soapgen_tests::wss::{echo_operation, offline_client, text_envelope, ECHO_NS};

const OP: Operation = echo_operation(SoapVersion::Soap11);

fn request(client: &Client, text: &str) -> String {
    text_envelope(client, &OP, &[("tns", ECHO_NS)], text)
}

fn bench(c: &mut Criterion) {
    let pki = soapgen_tests::pki::test_pki();
    let cert = pki.read("client.pem");
    let key_pem = pki.read("client.key");
    let cred = X509Credential::from_pem(&cert, &key_pem).unwrap();
    let signed = offline_client(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(cred.clone())),
    );
    let plain = Client::builder("http://127.0.0.1:9/").build().unwrap();
    let signed_with = |alg: SignatureAlgorithm| {
        offline_client(
            WssConfig::new()
                .timestamp(Duration::from_secs(300))
                .sign(X509Signer::new(cred.clone()).signature_algorithm(alg)),
        )
    };
    let signed_sha1 = signed_with(SignatureAlgorithm::RsaSha1);
    let signed_sha512 = signed_with(SignatureAlgorithm::RsaSha512);

    // The floor's key: the same RSA key, straight into aws-lc-rs.
    let der = {
        let text = String::from_utf8(key_pem).unwrap();
        let b64: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(b64)
            .unwrap()
    };
    let key = aws_lc_rs::signature::RsaKeyPair::from_pkcs8(&der).unwrap();
    let rng = aws_lc_rs::rand::SystemRandom::new();
    let signed_info = vec![b'x'; 900]; // the canonical SignedInfo of two references is ~900 bytes

    let mut g = c.benchmark_group("wss_sign");
    for size in [1024usize, 100 * 1024] {
        let text = "a".repeat(size);
        g.throughput(Throughput::Bytes(size as u64));
        for (name, client) in [
            ("signed_request", &signed),
            ("signed_request_rsa_sha1", &signed_sha1),
            ("signed_request_rsa_sha512", &signed_sha512),
            ("unsigned_request", &plain),
        ] {
            g.bench_with_input(BenchmarkId::new(name, size), &text, |b, t| {
                b.iter(|| request(client, t))
            });
        }
        g.bench_with_input(BenchmarkId::new("floor_rsa_sha256", size), &text, |b, t| {
            let mut sig = vec![0u8; key.public_modulus_len()];
            b.iter(|| {
                let d = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, t.as_bytes());
                std::hint::black_box(d);
                key.sign(
                    &aws_lc_rs::signature::RSA_PKCS1_SHA256,
                    &rng,
                    &signed_info,
                    &mut sig,
                )
                .unwrap();
            })
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
