//! `roundtrip_100`: serialize then deserialize an Echo message of 100 LargeObject values (the types of
//! `tests/wsdl/large_objects.wsdl`, written by hand with the derives) as a whole SOAP 1.1
//! envelope, in memory. Also each direction alone.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use soapgen_tests::large_objects::{envelope, read_envelope as read, sample, Echo};

fn write(echo: &Echo) -> String {
    envelope(echo, "Echo")
}

fn bench(c: &mut Criterion) {
    let echo = sample(100);
    let xml = write(&echo);
    assert_eq!(read(&xml), echo);
    let mut g = c.benchmark_group("roundtrip_100");
    g.throughput(Throughput::Bytes(xml.len() as u64));
    g.bench_function("write+read", |b| {
        b.iter(|| read(&write(std::hint::black_box(&echo))))
    });
    g.bench_function("write", |b| b.iter(|| write(std::hint::black_box(&echo))));
    g.bench_function("read", |b| b.iter(|| read(std::hint::black_box(&xml))));
    g.finish();
    eprintln!("roundtrip_100: message size {} bytes", xml.len());
}

criterion_group!(benches, bench);
criterion_main!(benches);
