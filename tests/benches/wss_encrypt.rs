//! Cost of encrypting a request's Body (WSS 1.1 §9: a fresh AES-256-GCM key, the Body content
//! encrypted into an `xenc:EncryptedData`, the key wrapped with RSA-OAEP-MGF1P for the recipient
//! in an `xenc:EncryptedKey`) against its floor, the bare cryptography through aws-lc-rs: one
//! RSA-2048 OAEP encryption of a 32-byte key plus AES-256-GCM of the body. Also the same request
//! signed and encrypted (sign-then-encrypt), and plain.
//!
//! ```text
//! cargo bench -p soapgen-tests --bench wss_encrypt
//! ```

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use soapgen_runtime::wss::{BlockEncryption, KeyTransport, WssConfig, X509Encryptor, X509Signer};
use soapgen_runtime::{Client, Operation, SoapVersion};
use soapgen_tests::wss::{
    cert, credential, echo_operation, offline_client, text_envelope, ECHO_NS,
};

const OP: Operation = echo_operation(SoapVersion::Soap11);

fn request(client: &Client, text: &str) -> String {
    text_envelope(client, &OP, &[("tns", ECHO_NS)], text)
}

fn bench(c: &mut Criterion) {
    let pki = soapgen_tests::pki::test_pki();
    let server = cert("server.pem");
    let cred = credential("client");
    let client = offline_client;
    let encrypted = client(WssConfig::new().encrypt(X509Encryptor::new(server.clone())));
    let signed_encrypted = client(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(cred))
            .encrypt(X509Encryptor::new(server.clone())),
    );
    let plain = Client::builder("http://127.0.0.1:9/").build().unwrap();

    // The recipient's SubjectPublicKeyInfo, by openssl, for the floor.
    let spki = std::process::Command::new("sh")
        .arg("-c")
        .arg("openssl x509 -pubkey -noout -in \"$1\" | openssl pkey -pubin -outform DER")
        .arg("sh")
        .arg(pki.path("server.pem"))
        .output()
        .expect("openssl (apt-get install -y openssl)")
        .stdout;
    let oaep = aws_lc_rs::rsa::OaepPublicEncryptingKey::new(
        aws_lc_rs::rsa::PublicEncryptingKey::from_der(&spki).unwrap(),
    )
    .unwrap();

    let mut g = c.benchmark_group("wss_encrypt");
    for size in [1024usize, 100 * 1024] {
        let text = "a".repeat(size);
        g.throughput(Throughput::Bytes(size as u64));
        for (name, client) in [
            ("encrypted_request", &encrypted),
            ("signed_encrypted_request", &signed_encrypted),
            ("plain_request", &plain),
        ] {
            g.bench_with_input(BenchmarkId::new(name, size), &text, |b, t| {
                b.iter(|| request(client, t))
            });
        }
        // soapgen's primitives alone (a fresh key, AES-256-GCM, RSA-OAEP with the key read from
        // the certificate).
        g.bench_with_input(BenchmarkId::new("primitives", size), &text, |b, t| {
            b.iter(|| {
                let block = BlockEncryption::Aes256Gcm;
                let key = block.generate_key().unwrap();
                let c = block.encrypt(&key, t.as_bytes()).unwrap();
                let k = KeyTransport::RsaOaepMgf1Sha1.wrap(&server, &key).unwrap();
                std::hint::black_box((c, k));
            })
        });
        // The floor: bare aws-lc-rs, the RSA key parsed once.
        g.bench_with_input(BenchmarkId::new("floor_oaep_gcm", size), &text, |b, t| {
            use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM};
            use aws_lc_rs::rand::SecureRandom;
            let rng = aws_lc_rs::rand::SystemRandom::new();
            let mut out = vec![0u8; oaep.ciphertext_size()];
            b.iter(|| {
                let mut key = [0u8; 32];
                let mut iv = [0u8; 12];
                rng.fill(&mut key).unwrap();
                rng.fill(&mut iv).unwrap();
                let k = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &key).unwrap());
                let mut data = t.as_bytes().to_vec();
                let tag = k
                    .seal_in_place_separate_tag(
                        Nonce::assume_unique_for_key(iv),
                        Aad::empty(),
                        &mut data,
                    )
                    .unwrap();
                oaep.encrypt(&aws_lc_rs::rsa::OAEP_SHA1_MGF1SHA1, &key, &mut out, None)
                    .unwrap();
                std::hint::black_box((data, tag.as_ref().len()));
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
