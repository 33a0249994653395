//! Verify alone and sign alone against their raw-crypto floors, in the same run.
//!
//! The message: a signed SOAP 1.1 envelope of about 5 KB — a `wsu:Timestamp`, the signer's
//! certificate as a BinarySecurityToken, a `ds:Signature` with 2 References (Timestamp, Body;
//! exclusive C14N, SHA-256, RSA-SHA256 with a 2048-bit key; WSS 1.1 §8) and a 1 KB Body — as
//! soapgen's envelope writer makes it with the test PKI's `server` key.
//!
//! * `verify`: `WssConfig::check_response` of that message by a client that requires a signed
//!   Body and Timestamp from a certificate the test CA issued (parse, structure and Id checks,
//!   C14N and digests of both References, C14N of SignedInfo and the RSA verification, the
//!   certificate found in the token (its path to the CA cached across messages, as a client's
//!   configuration does), Timestamp and replay checks). A fresh message per iteration (made
//!   outside the timing): the replay check refuses a second look. Messages are verified back to
//!   back; `verify_interleaved` verifies each right after it was signed (the verifier's caches
//!   cold), against `floor_verify_interleaved`, the floor in the same conditions.
//! * `floor_verify_parsed`: the same with the public key parsed once, outside the timing (what
//!   soapgen does with a cached peer certificate).
//! * `floor_verify`: aws-lc-rs alone on the same bytes: SHA-256 of the canonical Timestamp and
//!   Body, one RSA-2048 PKCS#1 v1.5 SHA-256 verification of the canonical SignedInfo (the hash of
//!   SignedInfo is inside it).
//! * `sign`: the signed envelope written by a client configured to sign (Timestamp, BST,
//!   Signature, Body with its `wsu:Id`).
//! * `floor_sign`: SHA-256 of the canonical Timestamp and Body, one RSA-2048 PKCS#1 v1.5 SHA-256
//!   signature of the canonical SignedInfo.
//!
//! ```text
//! cargo bench -p soapgen-tests --bench wss_verify
//! bash bench/wss_verify_bench.sh      # this, plus callgrind instruction counts, with ratios
//! ```
//!
//! With `WSS_VERIFY_COUNT=<case>:<n>` in the environment the binary instead runs `<case>`
//! (`verify`, `floor_verify`, `sign`, `floor_sign`) `n` times inside `measured_<case>` and exits:
//! what `bench/wss_verify_bench.sh` runs under `valgrind --tool=callgrind
//! --toggle-collect=measured_*` to count instructions per operation. Goals: verify at most 1.5x
//! its floor, sign at most 1.1x.

use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{criterion_group, BatchSize, Criterion};
use soapgen_runtime::wss::{exclusive_c14n, TrustStore, UtcTime, WssConfig, X509Signer};
use soapgen_runtime::{Client, Operation, SoapVersion};
use soapgen_tests::wss::{cert, credential, offline_client, text_envelope};

const NS: &str = "urn:bench";
const OP: Operation = Operation::new("Echo", "urn:bench#Echo", SoapVersion::Soap11);
const BODY: usize = 1024;

/// Everything the cases need, made once.
struct Fixture {
    signer: Client,
    policy: WssConfig,
    text: String,
    key: aws_lc_rs::signature::RsaKeyPair,
    public: aws_lc_rs::signature::UnparsedPublicKey<Vec<u8>>,
    /// The same key parsed once (aws-lc keeps its Montgomery context), as soapgen keeps it with
    /// a peer's cached certificate.
    parsed: aws_lc_rs::signature::ParsedPublicKey,
    rng: aws_lc_rs::rand::SystemRandom,
    /// The canonical SignedInfo, Timestamp and Body of one message, and its SignatureValue.
    signed_info: Vec<u8>,
    timestamp: Vec<u8>,
    body: Vec<u8>,
    signature: Vec<u8>,
}

fn message(client: &Client, text: &str) -> String {
    text_envelope(client, &OP, &[("w", NS)], text)
}

fn openssl_der(sh: &str, path: &std::path::Path) -> Vec<u8> {
    let out = Command::new("sh")
        .arg("-c")
        .arg(sh)
        .arg("sh")
        .arg(path)
        .output()
        .expect("openssl (apt-get install -y openssl)");
    assert!(
        out.status.success() && !out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The canonical form (exclusive C14N) of the first element named `local` in `doc`.
fn canonical(doc: &str, local: &str) -> Vec<u8> {
    let d = roxmltree::Document::parse(doc).unwrap();
    let n = d
        .descendants()
        .find(|n| n.is_element() && n.tag_name().name() == local)
        .unwrap_or_else(|| panic!("no {local} in {doc}"));
    let mut out = Vec::new();
    exclusive_c14n(doc, n.range().start, &[], &mut out).unwrap();
    out
}

fn signature_value(doc: &str) -> Vec<u8> {
    let d = roxmltree::Document::parse(doc).unwrap();
    let n = d
        .descendants()
        .find(|n| n.is_element() && n.tag_name().name() == "SignatureValue")
        .unwrap();
    use base64::Engine;
    base64::engine::general_purpose::STANDARD
        .decode(n.text().unwrap().trim())
        .unwrap()
}

fn fixture() -> Fixture {
    let pki = soapgen_tests::pki::test_pki();
    let signer = offline_client(
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .sign(X509Signer::new(credential("server"))),
    );
    let policy = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .require_signature(true)
        .trust(TrustStore::new().anchor(cert("ca.pem")));
    let text = "a".repeat(BODY);
    let sample = message(&signer, &text);
    let key = aws_lc_rs::signature::RsaKeyPair::from_pkcs8(&openssl_der(
        "openssl pkcs8 -topk8 -nocrypt -in \"$1\" -outform DER",
        &pki.path("server.key"),
    ))
    .unwrap();
    let public = aws_lc_rs::signature::UnparsedPublicKey::new(
        &aws_lc_rs::signature::RSA_PKCS1_2048_8192_SHA256,
        openssl_der(
            "openssl x509 -pubkey -noout -in \"$1\" | openssl pkey -pubin -outform DER",
            &pki.path("server.pem"),
        ),
    );
    let parsed = public.parse().unwrap();
    let f = Fixture {
        signed_info: canonical(&sample, "SignedInfo"),
        timestamp: canonical(&sample, "Timestamp"),
        body: canonical(&sample, "Body"),
        signature: signature_value(&sample),
        signer,
        policy,
        text,
        key,
        public,
        parsed,
        rng: aws_lc_rs::rand::SystemRandom::new(),
    };
    // The inputs are what they claim: the floor verifies the real signature, the real path
    // accepts the real message.
    f.public.verify(&f.signed_info, &f.signature).unwrap();
    let report = f
        .policy
        .check_response(sample.as_bytes(), UtcTime::now())
        .unwrap();
    assert_eq!(report.signed.len(), 2);
    eprintln!(
        "wss_verify: message {} bytes, canonical SignedInfo {} B, Timestamp {} B, Body {} B",
        sample.len(),
        f.signed_info.len(),
        f.timestamp.len(),
        f.body.len()
    );
    f
}

#[inline(never)]
fn measured_verify(f: &Fixture, message: &str) {
    let report = f
        .policy
        .check_response(message.as_bytes(), UtcTime::now())
        .unwrap();
    std::hint::black_box(report);
}

#[inline(never)]
fn measured_floor_verify(f: &Fixture) {
    let d1 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &f.timestamp);
    let d2 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &f.body);
    f.public.verify(&f.signed_info, &f.signature).unwrap();
    std::hint::black_box((d1, d2));
}

#[inline(never)]
fn measured_floor_verify_parsed(f: &Fixture) {
    let d1 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &f.timestamp);
    let d2 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &f.body);
    f.parsed.verify_sig(&f.signed_info, &f.signature).unwrap();
    std::hint::black_box((d1, d2));
}

#[inline(never)]
fn measured_sign(f: &Fixture) -> String {
    message(&f.signer, &f.text)
}

#[inline(never)]
fn measured_floor_sign(f: &Fixture, out: &mut [u8]) {
    let d1 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &f.timestamp);
    let d2 = aws_lc_rs::digest::digest(&aws_lc_rs::digest::SHA256, &f.body);
    f.key
        .sign(
            &aws_lc_rs::signature::RSA_PKCS1_SHA256,
            &f.rng,
            &f.signed_info,
            out,
        )
        .unwrap();
    std::hint::black_box((d1, d2));
}

fn bench(c: &mut Criterion) {
    let f = fixture();
    let mut g = c.benchmark_group("wss_verify");
    g.bench_function("verify", |b| {
        // Back to back, as a client reading a stream of responses does (and as the floor runs):
        // messages made 256 at a time outside the timing, then verified in a row.
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                let n = left.min(256);
                let messages: Vec<String> = (0..n).map(|_| message(&f.signer, &f.text)).collect();
                let start = Instant::now();
                for m in &messages {
                    measured_verify(&f, m);
                }
                total += start.elapsed();
                left -= n;
            }
            total
        })
    });
    // Each message verified right after it was signed: the verifier's code and tables start cold
    // each time (what one call after a pause sees).
    g.bench_function("verify_interleaved", |b| {
        b.iter_batched(
            || message(&f.signer, &f.text),
            |m| measured_verify(&f, &m),
            BatchSize::PerIteration,
        )
    });
    g.bench_function("floor_verify", |b| b.iter(|| measured_floor_verify(&f)));
    g.bench_function("floor_verify_parsed", |b| {
        b.iter(|| measured_floor_verify_parsed(&f))
    });
    // The floor in the same conditions as `verify_interleaved`: right after a message was
    // signed, so that both pay for cold caches.
    g.bench_function("floor_verify_interleaved", |b| {
        b.iter_batched(
            || message(&f.signer, &f.text),
            |m| {
                measured_floor_verify(&f);
                m
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("sign", |b| b.iter(|| measured_sign(&f)));
    g.bench_function("floor_sign", |b| {
        let mut out = vec![0u8; f.key.public_modulus_len()];
        b.iter(|| measured_floor_sign(&f, &mut out))
    });
    g.finish();
}

/// `WSS_VERIFY_COUNT=<case>:<n>`: `n` runs of `<case>` for callgrind (messages to verify made
/// first, outside `measured_verify`).
fn count(spec: &str) {
    let (case, n) = spec.split_once(':').unwrap_or((spec, "100"));
    let n: usize = n.parse().expect("WSS_VERIFY_COUNT=<case>:<n>");
    let f = fixture();
    match case {
        "verify" => {
            let messages: Vec<String> = (0..n).map(|_| message(&f.signer, &f.text)).collect();
            for m in &messages {
                measured_verify(&f, m);
            }
        }
        "floor_verify" => (0..n).for_each(|_| measured_floor_verify(&f)),
        "floor_verify_parsed" => (0..n).for_each(|_| measured_floor_verify_parsed(&f)),
        "sign" => (0..n).for_each(|_| {
            std::hint::black_box(measured_sign(&f));
        }),
        "floor_sign" => {
            let mut out = vec![0u8; f.key.public_modulus_len()];
            (0..n).for_each(|_| measured_floor_sign(&f, &mut out))
        }
        other => panic!("unknown case {other} (verify, floor_verify, sign, floor_sign)"),
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(4));
    targets = bench
}

fn main() {
    if let Ok(spec) = std::env::var("WSS_VERIFY_COUNT") {
        count(&spec);
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}
