//! `roundtrip_100`: serialize then deserialize an Echo message of 100 LargeObject values (the types of
//! `tests/wsdl/large_objects.wsdl`, written by hand with the derives) as a whole SOAP 1.1
//! envelope, in memory. Also each direction alone.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use soapgen_runtime::envelope::{read_response, BodyContent, EnvelopeWriter};
use soapgen_runtime::xml::{Limits, Name};
use soapgen_runtime::SoapVersion;
use soapgen_runtime::{FromXml, ToXml};
use soapgen_tests::large_objects::{sample, Echo, NS};

fn write(echo: &Echo) -> String {
    let mut env = EnvelopeWriter::new(SoapVersion::Soap11, &[("tns", NS)]).unwrap();
    env.body(|w| echo.write_xml(w, Name::new(NS, "Echo")))
        .unwrap();
    env.finish().unwrap()
}

fn read(xml: &str) -> Echo {
    match read_response(xml.as_bytes(), Limits::default(), Some(200), |r, start| {
        Echo::read_xml(r, start)
    }) {
        Ok(BodyContent::Payload(e)) => e,
        other => panic!("unexpected: {other:?}"),
    }
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
