//! `fake_100`: the benchmark's Echo of 100 LargeObject values (`tests/wsdl/large_objects.wsdl`,
//! document/literal bare: `Echo` in, `EchoResponse` out) called on the in-process fake, against
//! the serialization that call cannot avoid, measured in the same run: the request written and
//! read back, the response written and read back (what the client and the service side each do
//! once). The goal: the fake call at most 1.2× the serialization alone, i.e. the fake's own
//! dispatch (finding the operation, the service's envelope, the future) adds at most a fifth.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use soapgen_runtime::{soap_client, Error};
use soapgen_tests::large_objects::{envelope as write, read_envelope as read, sample, Echo};

/// The benchmark's service, as `#[soap_client]` spells the WSDL's binding.
#[soap_client(namespace = "urn:soapgen:bench", parameters = "bare", fake)]
pub trait Bench {
    #[soap(
        name = "Echo",
        response = "EchoResponse",
        action = "urn:soapgen:bench#Echo"
    )]
    async fn echo(&self, echo: Echo) -> Result<Echo, Error>;
}

/// The service: answers what it was sent.
struct Mirror;

impl Bench for Mirror {
    async fn echo(&self, echo: Echo) -> Result<Echo, Error> {
        Ok(echo)
    }
}

/// Both directions of the exchange, serialized and read back: the floor of any call.
fn serialization(echo: &Echo) -> Echo {
    let request = read(&write(echo, "Echo"));
    read(&write(&request, "EchoResponse"))
}

fn bench(c: &mut Criterion) {
    let echo = sample(100);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let client = BenchClient::fake(Mirror);
    assert_eq!(rt.block_on(client.echo(echo.clone())).unwrap(), echo);
    assert_eq!(serialization(&echo), echo);
    let mut g = c.benchmark_group("fake_100");
    g.throughput(Throughput::Elements(1));
    g.bench_function("serialization both ways", |b| {
        b.iter(|| serialization(std::hint::black_box(&echo)))
    });
    g.bench_function("in-process fake call", |b| {
        b.iter(|| rt.block_on(client.echo(std::hint::black_box(&echo).clone())))
    });
    g.bench_function("clone of the request", |b| {
        b.iter(|| std::hint::black_box(&echo).clone())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
