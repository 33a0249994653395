//! The benchmark: the whole WS-Security path of a "Scenario 3" exchange against its floor,
//! the bare cryptography it needs through aws-lc-rs, in the same run, for 1 KB and 100 KB bodies.
//!
//! * `sign_encrypt_request`: a request with a Timestamp, Body and Timestamp signed (exclusive
//!   C14N, SHA-256, RSA-SHA256, BinarySecurityToken), then the Body encrypted (AES-256-GCM, key by
//!   RSA-OAEP for the server's certificate) — written by soapgen's envelope writer.
//!   Floor `floor_sign_encrypt`: SHA-256 of the body and of a Timestamp, one RSA-2048 PKCS#1 v1.5
//!   SHA-256 signature of a SignedInfo-sized input, AES-256-GCM of the body, one RSA-OAEP
//!   encryption of the 32-byte key, and the random key and IV.
//! * `verify_decrypt_response`: the same shape made by the server for the client, checked by the
//!   client's policy (`WssConfig::process_response`): parse, key unwrapped, Body decrypted and put
//!   back, the plaintext checked, signature verified (C14N, digests, RSA), the certificate's path
//!   to the CA verified, Timestamp and replay checked. Floor `floor_verify_decrypt`: one RSA-OAEP
//!   decryption, AES-256-GCM opening of the body, SHA-256 of body and Timestamp, one RSA-SHA256
//!   verification, and the CA's signature on the certificate (RSA-SHA256 verification).
//!
//! ```text
//! cargo bench -p soapgen-tests --bench wss_scenario3
//! bash bench/wss_bench.sh          # this and WSS4J's same messages in one run, with ratios
//! ```

use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion, Throughput};
use soapgen_runtime::wss::{TrustStore, UtcTime, WssConfig, X509Encryptor, X509Signer};
use soapgen_runtime::{Client, Operation, SoapVersion};
use soapgen_tests::wss::{cert, credential, offline_client, text_envelope};

const NS: &str = "urn:bench";
const OP: Operation = Operation::new("Echo", "urn:bench#Echo", SoapVersion::Soap11);

fn message(client: &Client, text: &str) -> String {
    text_envelope(client, &OP, &[("w", NS)], text)
}

/// DER of a PEM file's content by the openssl command line (`args` after `-in <file>`).
fn openssl_der(path: &std::path::Path, cmd: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl")
        .args(cmd)
        .arg("-in")
        .arg(path)
        .args(["-outform", "DER"])
        .output()
        .expect("openssl (apt-get install -y openssl)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn bench(c: &mut Criterion) {
    let pki = soapgen_tests::pki::test_pki();
    let with = offline_client;
    let scenario3 = |me: &str, peer: &str| {
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(credential(me)))
            .encrypt(X509Encryptor::new(cert(&format!("{peer}.pem"))))
            .trust(TrustStore::new().anchor(cert("ca.pem")))
    };
    let client = with(scenario3("client", "server"));
    let server = with(scenario3("server", "client"));
    let client_policy = scenario3("client", "server");

    // The floor's keys, parsed once.
    let server_key = aws_lc_rs::signature::RsaKeyPair::from_pkcs8(&openssl_der(
        &pki.path("server.key"),
        &["pkcs8", "-topk8", "-nocrypt"],
    ))
    .unwrap();
    let client_key = aws_lc_rs::rsa::OaepPrivateDecryptingKey::new(
        aws_lc_rs::rsa::PrivateDecryptingKey::from_pkcs8(&openssl_der(
            &pki.path("client.key"),
            &["pkcs8", "-topk8", "-nocrypt"],
        ))
        .unwrap(),
    )
    .unwrap();
    let spki = |who: &str| -> Vec<u8> {
        Command::new("sh")
            .arg("-c")
            .arg("openssl x509 -pubkey -noout -in \"$1\" | openssl pkey -pubin -outform DER")
            .arg("sh")
            .arg(pki.path(who))
            .output()
            .unwrap()
            .stdout
    };
    let client_oaep = aws_lc_rs::rsa::OaepPublicEncryptingKey::new(
        aws_lc_rs::rsa::PublicEncryptingKey::from_der(&spki("client.pem")).unwrap(),
    )
    .unwrap();
    // RSA public keys for the signature checks (X.509 SubjectPublicKeyInfo DER).
    let (server_spki, ca_spki) = (spki("server.pem"), spki("ca.pem"));
    let verify_key = |spki: &[u8]| {
        aws_lc_rs::signature::UnparsedPublicKey::new(
            &aws_lc_rs::signature::RSA_PKCS1_2048_8192_SHA256,
            spki.to_vec(),
        )
    };
    let server_pub = verify_key(&server_spki);
    let ca_pub = verify_key(&ca_spki);
    let signed_info = vec![b'x'; 700];
    let timestamp = vec![b't'; 200];
    let mut sig = vec![0u8; server_key.public_modulus_len()];
    let rng = aws_lc_rs::rand::SystemRandom::new();
    server_key
        .sign(
            &aws_lc_rs::signature::RSA_PKCS1_SHA256,
            &rng,
            &signed_info,
            &mut sig,
        )
        .unwrap();
    let cert_der = cert("server.pem").der().to_vec();

    let mut g = c.benchmark_group("wss_scenario3");
    for size in [1024usize, 100 * 1024] {
        let text = "a".repeat(size);
        g.throughput(Throughput::Bytes(size as u64));
        g.bench_with_input(
            BenchmarkId::new("sign_encrypt_request", size),
            &text,
            |b, t| b.iter(|| message(&client, t)),
        );
        g.bench_with_input(
            BenchmarkId::new("floor_sign_encrypt", size),
            &text,
            |b, t| {
                use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM};
                use aws_lc_rs::rand::SecureRandom;
                let mut wrapped = vec![0u8; client_oaep.ciphertext_size()];
                let mut s = vec![0u8; server_key.public_modulus_len()];
                b.iter(|| {
                    let d1 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, t.as_bytes());
                    let d2 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &timestamp);
                    server_key
                        .sign(
                            &aws_lc_rs::signature::RSA_PKCS1_SHA256,
                            &rng,
                            &signed_info,
                            &mut s,
                        )
                        .unwrap();
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
                    client_oaep
                        .encrypt(
                            &aws_lc_rs::rsa::OAEP_SHA1_MGF1SHA1,
                            &key,
                            &mut wrapped,
                            None,
                        )
                        .unwrap();
                    std::hint::black_box((d1, d2, data, tag.as_ref().len()));
                })
            },
        );
        g.bench_with_input(
            BenchmarkId::new("verify_decrypt_response", size),
            &text,
            |b, t| {
                b.iter_batched(
                    // A fresh response each time: the replay check refuses a second look.
                    || message(&server, t),
                    |resp| {
                        let (report, doc) = client_policy
                            .process_response(resp.as_bytes(), UtcTime::now())
                            .unwrap();
                        std::hint::black_box((report, doc))
                    },
                    BatchSize::SmallInput,
                )
            },
        );
        g.bench_with_input(
            BenchmarkId::new("floor_verify_decrypt", size),
            &text,
            |b, t| {
                use aws_lc_rs::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM};
                // Inputs made once: a wrapped key, a sealed body.
                let key = [7u8; 32];
                let mut wrapped = vec![0u8; client_oaep.ciphertext_size()];
                client_oaep
                    .encrypt(
                        &aws_lc_rs::rsa::OAEP_SHA1_MGF1SHA1,
                        &key,
                        &mut wrapped,
                        None,
                    )
                    .unwrap();
                let k = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, &key).unwrap());
                let mut sealed = t.as_bytes().to_vec();
                let tag = k
                    .seal_in_place_separate_tag(
                        Nonce::assume_unique_for_key([1u8; 12]),
                        Aad::empty(),
                        &mut sealed,
                    )
                    .unwrap();
                sealed.extend_from_slice(tag.as_ref());
                let mut unwrapped = vec![0u8; client_key.min_output_size()];
                b.iter(|| {
                    let key = client_key
                        .decrypt(
                            &aws_lc_rs::rsa::OAEP_SHA1_MGF1SHA1,
                            &wrapped,
                            &mut unwrapped,
                            None,
                        )
                        .unwrap();
                    let k = LessSafeKey::new(UnboundKey::new(&AES_256_GCM, key).unwrap());
                    let mut data = sealed.clone();
                    let plain = k
                        .open_in_place(
                            Nonce::assume_unique_for_key([1u8; 12]),
                            Aad::empty(),
                            &mut data,
                        )
                        .unwrap();
                    let d1 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, plain);
                    let d2 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &timestamp);
                    server_pub.verify(&signed_info, &sig).unwrap();
                    // The CA's signature on the certificate (same cost as any RSA-2048 verify).
                    let _ = ca_pub.verify(&cert_der, &sig);
                    std::hint::black_box((d1, d2));
                })
            },
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = bench
}
criterion_main!(benches);
