//! Decode of 8 MiB of base64 in the line shapes SOAP stacks send: one run, CRLF every 76, LF every 76,
//! CRLF every 73 (the table). soapgen's streaming decoder against base64-simd (forgiving mode,
//! which strips whitespace) and the base64 crate (whitespace stripped first), in one run.
//!
//! `cargo bench -p soapgen-runtime --bench base64_decode`; throughput is of decoded bytes.

use base64::Engine as _;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const SIZE: usize = 8 << 20;

fn shapes() -> (Vec<u8>, Vec<(&'static str, Vec<u8>)>) {
    let data: Vec<u8> = (0..SIZE).map(|i| ((i * 31 + 7) % 251) as u8).collect();
    let enc = base64::engine::general_purpose::STANDARD.encode(&data);
    let wrap = |cols: usize, brk: &str| -> Vec<u8> {
        let lines: Vec<&str> = enc
            .as_bytes()
            .chunks(cols)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        lines.join(brk).into_bytes()
    };
    let shapes = vec![
        ("plain", enc.clone().into_bytes()),
        ("crlf76", wrap(76, "\r\n")),
        ("lf76", wrap(76, "\n")),
        ("crlf73", wrap(73, "\r\n")),
    ];
    (data, shapes)
}

fn bench(c: &mut Criterion) {
    let (data, shapes) = shapes();
    let mut g = c.benchmark_group("base64_decode_8MiB");
    g.throughput(Throughput::Bytes(SIZE as u64));
    g.sample_size(20);
    for (name, text) in &shapes {
        assert_eq!(soapgen_runtime::base64::decode(text).unwrap(), data);
        g.bench_with_input(BenchmarkId::new("soapgen", name), text, |b, t| {
            b.iter(|| soapgen_runtime::base64::decode(t).unwrap())
        });
        assert_eq!(base64_simd::forgiving_decode_to_vec(text).unwrap(), data);
        g.bench_with_input(BenchmarkId::new("base64-simd", name), text, |b, t| {
            b.iter(|| {
                if *name == "plain" {
                    base64_simd::STANDARD.decode_to_vec(t).unwrap()
                } else {
                    base64_simd::forgiving_decode_to_vec(t).unwrap()
                }
            })
        });
        g.bench_with_input(BenchmarkId::new("base64", name), text, |b, t| {
            b.iter(|| {
                let compact: Vec<u8> = t
                    .iter()
                    .copied()
                    .filter(|b| !b.is_ascii_whitespace())
                    .collect();
                base64::engine::general_purpose::STANDARD
                    .decode(compact)
                    .unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
