//! The soapgen side of every comparison, one mode per child process (so that process start-up,
//! peak memory and allocator state belong to one measurement): the generated async and blocking
//! clients of `large_objects.wsdl`, with soapgen's reqwest transport or [`HyperTransport`].

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use soapgen_runtime::envelope::{read_response, BodyContent, EnvelopeWriter};
use soapgen_runtime::xml::{Limits, Name};
use soapgen_runtime::SoapVersion;
use soapgen_runtime::{Client, FromXml, ToXml};
use soapgen_tests::large_objects::{self as hand, Echo, NS};

use crate::stats::median;
use soapgen_runtime::transport::HyperTransport;

/// The client generated at build time from `large_objects.wsdl` (see build.rs).
#[allow(missing_docs, clippy::all)]
mod lo {
    soapgen_runtime::include_client!("large_objects");
}
use lo::types::{Address, LargeObject};

/// Which HTTP transport a soapgen client uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transport {
    /// soapgen's default (reqwest, rustls, gzip, cookies, proxies).
    Reqwest,
    /// soapgen's lean plain-HTTP/1.1 transport (`transport::HyperTransport`, feature `hyper`).
    Hyper,
}

impl Transport {
    /// `reqwest` or `hyper`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "reqwest" => Ok(Transport::Reqwest),
            "hyper" => Ok(Transport::Hyper),
            _ => Err(format!("unknown transport {s:?} (reqwest|hyper)")),
        }
    }
}

fn client(url: &str, transport: Transport) -> Client {
    let b = Client::builder(url);
    match transport {
        Transport::Reqwest => b,
        Transport::Hyper => b.transport(Arc::new(HyperTransport::new())),
    }
    .build()
    .expect("soapgen client")
}

/// The 100 objects of `soapgen_tests::large_objects::sample` as the generated types.
pub fn sample() -> Vec<LargeObject> {
    hand::sample(100)
        .item
        .into_iter()
        .map(|o| LargeObject {
            id: o.id,
            name: o.name,
            description: o.description,
            price: o.price,
            quantity: o.quantity,
            ratio: o.ratio,
            active: o.active,
            created: o.created,
            address: Address {
                street: o.address.street,
                city: o.address.city,
                postal_code: o.address.postal_code,
                country: o.address.country,
            },
            tags: o.tags,
        })
        .collect()
}

fn check(got: &[LargeObject], sent: &[LargeObject]) {
    assert_eq!(got.len(), sent.len(), "Echo returned {} items", got.len());
    assert_eq!(got[0].id, sent[0].id, "Echo returned other items");
}

/// The generated async client, speaking the SOAP version asked for (one client for both
/// bindings, which differ only in version).
#[derive(Clone)]
struct AsyncLo(lo::LargeObjectsServiceClient);

impl AsyncLo {
    fn new(url: &str, version: SoapVersion, transport: Transport) -> Self {
        let c = client(url, transport);
        AsyncLo(lo::LargeObjectsServiceClient::from_client(c).with_soap_version(version))
    }

    async fn echo(&self, items: Vec<LargeObject>) -> Vec<LargeObject> {
        self.0.echo(items).await.expect("Echo")
    }

    async fn ping(&self, value: String) -> String {
        self.0.ping(value).await.expect("Ping")
    }
}

/// The soak's caller (bench/harness/src/soak.rs): Echo of the sample objects through one shared
/// generated async client, and whether it came back whole.
#[derive(Clone)]
pub struct SoakClient {
    client: lo::LargeObjectsServiceClient,
    items: Arc<Vec<LargeObject>>,
}

impl SoakClient {
    /// One Echo: `Ok` if it answered the objects sent, else what went wrong.
    pub async fn call(&self) -> Result<(), String> {
        match self.client.echo(self.items.as_ref().clone()).await {
            Ok(got) if got.len() == self.items.len() && got[0].id == self.items[0].id => Ok(()),
            Ok(got) => Err(format!(
                "an echo of {} objects, not the ones sent",
                got.len()
            )),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// The soak's client of `url`.
pub fn soak_client(url: &str, version: SoapVersion, transport: Transport) -> SoakClient {
    SoakClient {
        client: AsyncLo::new(url, version, transport).0,
        items: Arc::new(sample()),
    }
}

/// The generated blocking client, speaking the SOAP version asked for.
struct BlockingLo(lo::LargeObjectsServiceBlockingClient);

impl BlockingLo {
    fn new(url: &str, version: SoapVersion, transport: Transport) -> Self {
        let c = client(url, transport);
        BlockingLo(
            lo::LargeObjectsServiceBlockingClient::from_client(c)
                .expect("blocking client")
                .with_soap_version(version),
        )
    }

    fn echo(&self, items: Vec<LargeObject>) -> Vec<LargeObject> {
        self.0.echo(items).expect("Echo")
    }

    fn ping(&self, value: String) -> String {
        self.0.ping(value).expect("Ping")
    }
}

/// `construct N`: in-process construction of the generated client.
pub fn construct(n: u64) {
    let url = "http://127.0.0.1:9/bench";
    let base = Client::builder(url)
        .transport(Arc::new(HyperTransport::new()))
        .build()
        .expect("client");
    for _ in 0..n / 10 {
        black_box(lo::LargeObjectsServiceClient::from_client(
            black_box(&base).clone(),
        ));
    }
    let mut from_client = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        for _ in 0..n {
            black_box(lo::LargeObjectsServiceClient::from_client(
                black_box(&base).clone(),
            ));
        }
        from_client.push(t.elapsed().as_nanos() as f64 / n as f64);
    }
    let runs = 100;
    let time = |f: &dyn Fn()| {
        let v: Vec<f64> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_nanos() as f64
            })
            .collect();
        (v[0], median(&v))
    };
    let (new_first, new_median) = time(&|| {
        black_box(lo::LargeObjectsServiceClient::from_client(
            Client::new(url).expect("client"),
        ));
    });
    let (hyper_first, hyper_median) = time(&|| {
        black_box(lo::LargeObjectsServiceClient::from_client(client(
            url,
            Transport::Hyper,
        )));
    });
    println!(
        "from_client_ns={:.1} new_ns={new_median:.0} new_first_ns={new_first:.0} \
         hyper_new_ns={hyper_median:.0} hyper_new_first_ns={hyper_first:.0}",
        median(&from_client)
    );
}

/// Which call a latency run makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// Echo of the 100 objects.
    Echo,
    /// Ping of a short string: the per-call cost without payload.
    Ping,
}

/// `latency URL VER async|blocking reqwest|hyper echo|ping WARMUP N FILE`: N timed calls after
/// WARMUP; one line of nanoseconds per call in FILE.  The argument is cloned before the clock
/// starts (the generated methods take it by value).
#[allow(clippy::too_many_arguments)]
pub fn latency(
    url: &str,
    version: SoapVersion,
    blocking: bool,
    transport: Transport,
    op: Op,
    warmup: usize,
    n: usize,
    file: &str,
) {
    let items = sample();
    let mut times = Vec::with_capacity(n);
    if blocking {
        let c = BlockingLo::new(url, version, transport);
        for i in 0..warmup + n {
            let t = match op {
                Op::Echo => {
                    let arg = items.clone();
                    let t = Instant::now();
                    let got = c.echo(arg);
                    let t = t.elapsed();
                    check(&got, &items);
                    t
                }
                Op::Ping => {
                    let arg = "ping".to_owned();
                    let t = Instant::now();
                    let got = c.ping(arg);
                    let t = t.elapsed();
                    assert_eq!(got, "ping");
                    t
                }
            };
            if i >= warmup {
                times.push(t);
            }
        }
    } else {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let c = AsyncLo::new(url, version, transport);
            for i in 0..warmup + n {
                let t = match op {
                    Op::Echo => {
                        let arg = items.clone();
                        let t = Instant::now();
                        let got = c.echo(arg).await;
                        let t = t.elapsed();
                        check(&got, &items);
                        t
                    }
                    Op::Ping => {
                        let arg = "ping".to_owned();
                        let t = Instant::now();
                        let got = c.ping(arg).await;
                        let t = t.elapsed();
                        assert_eq!(got, "ping");
                        t
                    }
                };
                if i >= warmup {
                    times.push(t);
                }
            }
        });
    }
    let out: String = times
        .iter()
        .map(|t| format!("{}\n", t.as_nanos()))
        .collect();
    std::fs::write(file, out).unwrap_or_else(|e| panic!("cannot write {file}: {e}"));
    println!("calls={n}");
}

/// `throughput URL VER reqwest|hyper CONCURRENCY SECS`: CONCURRENCY tasks share one generated async
/// client (clones of one `Client`: one connection pool) on tokio's multi-thread runtime and call
/// Echo until SECS have passed; prints `calls=… secs=…`.
pub fn throughput(url: &str, version: SoapVersion, transport: Transport, tasks: usize, secs: f64) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let c = AsyncLo::new(url, version, transport);
        let items = Arc::new(sample());
        let start = Instant::now();
        let deadline = start + Duration::from_secs_f64(secs);
        let handles: Vec<_> = (0..tasks)
            .map(|_| {
                let c = c.clone();
                let items = Arc::clone(&items);
                tokio::spawn(async move {
                    let mut calls = 0u64;
                    while Instant::now() < deadline {
                        let got = c.echo(items.as_ref().clone()).await;
                        check(&got, &items);
                        calls += 1;
                    }
                    calls
                })
            })
            .collect();
        let mut calls = 0;
        for h in handles {
            calls += h.await.expect("caller task");
        }
        println!("calls={calls} secs={:.6}", start.elapsed().as_secs_f64());
    });
}

fn write_envelope(echo: &Echo) -> String {
    let mut env = EnvelopeWriter::new(SoapVersion::Soap11, &[("tns", NS)]).expect("envelope");
    env.body(|w| echo.write_xml(w, Name::new(NS, "Echo")))
        .expect("body");
    env.finish().expect("finish")
}

fn read_envelope(xml: &str) -> Echo {
    match read_response(xml.as_bytes(), Limits::default(), Some(200), |r, start| {
        Echo::read_xml(r, start)
    }) {
        Ok(BodyContent::Payload(e)) => e,
        other => panic!("unexpected: {other:?}"),
    }
}

/// `serialize ITERS`: the SOAP 1.1 envelope of Echo(100 objects) written to a `String` and read
/// back into the types, in memory (as `tests/benches/roundtrip_100.rs`); medians of ITERS after
/// ITERS/10 of warm-up; the read time includes dropping the decoded values and the string.
pub fn serialize(iters: usize) {
    let echo = hand::sample(100);
    let xml = write_envelope(&echo);
    assert_eq!(read_envelope(&xml), echo, "round trip changed the message");
    let (mut tw, mut tr, mut tt) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..iters + iters / 10 {
        let t0 = Instant::now();
        let xml = write_envelope(black_box(&echo));
        let t1 = Instant::now();
        drop(black_box(read_envelope(black_box(&xml))));
        drop(xml);
        let t2 = Instant::now();
        if i >= iters / 10 {
            tw.push((t1 - t0).as_nanos() as f64);
            tr.push((t2 - t1).as_nanos() as f64);
            tt.push((t2 - t0).as_nanos() as f64);
        }
    }
    println!(
        "bytes={} write_ns={:.0} read_ns={:.0} roundtrip_ns={:.0} iters={iters}",
        xml.len(),
        median(&tw),
        median(&tr),
        median(&tt)
    );
}

/// `11` or `12`.
pub fn parse_version(s: &str) -> Result<SoapVersion, String> {
    match s {
        "11" => Ok(SoapVersion::Soap11),
        "12" => Ok(SoapVersion::Soap12),
        _ => Err(format!("unknown SOAP version {s:?} (11|12)")),
    }
}

/// The benchmark service answered by its generated fake: echoes what it is sent.
struct Mirror;

impl lo::LargeObjectsService for Mirror {
    async fn echo(
        &self,
        item: Vec<LargeObject>,
    ) -> Result<Vec<LargeObject>, soapgen_runtime::Error> {
        Ok(item)
    }

    async fn ping(&self, value: String) -> Result<String, soapgen_runtime::Error> {
        Ok(value)
    }
}

/// `fake-server`: the generated fake of the benchmark service on a loopback socket
/// (`testing::Loopback`, hyper HTTP/1.1) on tokio's multi-thread runtime (2 workers): prints
/// `LISTENING <port>` and serves until killed or its parent process ends.
pub fn fake_server() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    rt.block_on(async {
        let service = lo::LargeObjectsServiceClient::fake_service(Mirror);
        let server = soapgen_runtime::testing::Loopback::serve(service, None)
            .await
            .expect("bind a loopback port");
        println!("LISTENING {}", server.addr().port());
        let parent = std::os::unix::process::parent_id();
        // Ends with the harness that started it (the peer harness kills it; this is for a
        // harness that died).
        while std::os::unix::process::parent_id() == parent {
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    });
}
