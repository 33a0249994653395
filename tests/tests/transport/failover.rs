//! Several addresses of one service (`Failover`): servers of the test's own on loopback, and
//! ports nothing listens on. A call goes on to the next address when a connection cannot be
//! made, and only then unless a retry policy says so; addresses that failed are skipped by later
//! calls; round-robin sets spread the calls.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use soapgen_runtime::addressing::{Addressing, AddressingVersion};
use soapgen_runtime::error::TransportErrorKind;
use soapgen_runtime::{Client, Failover, Retry};
use tokio::net::TcpListener;

use soapgen_tests::faulty::{recording_server, server, FaultyClient, Misbehaviour};

use super::faults::transport_kind;

/// A URL on 127.0.0.1 that nothing listens on (bound, then closed).
async fn refused() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/gone", listener.local_addr().expect("address"));
    drop(listener);
    url
}

async fn echo(client: Client) -> Result<String, soapgen_runtime::Error> {
    FaultyClient::from_client(client).echo("x".into()).await
}

#[tokio::test]
async fn an_address_that_cannot_be_reached_is_passed_over_and_then_skipped() {
    let gone = refused().await;
    let (live, requests, bodies) = recording_server(Misbehaviour::Answer).await;
    let (standby, standby_requests) = server(Misbehaviour::Answer).await;
    let client = Client::builder("http://unused.invalid/")
        .failover(Failover::ordered([
            gone.as_str(),
            live.as_str(),
            standby.as_str(),
        ]))
        .addressing(Addressing::on(AddressingVersion::W3C).check_reply_action(false))
        .build()
        .expect("client");
    assert_eq!(client.endpoint(), gone, "the set's first address");
    let started = Instant::now();
    for _ in 0..3 {
        assert_eq!(
            echo(client.clone()).await.expect("the live address"),
            "back"
        );
    }
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(
        requests.load(Ordering::SeqCst),
        3,
        "the first healthy one, each time"
    );
    assert_eq!(standby_requests.load(Ordering::SeqCst), 0);
    // WS-Addressing's To names the address the request went to.
    let body = bodies.lock().expect("bodies")[0].clone();
    assert!(body.contains(&format!(">{live}</wsa:To>")), "{body}");

    // Every address unreachable: the connection error, at once, each tried once.
    let client = Client::builder("http://unused.invalid/")
        .failover(Failover::ordered([refused().await, refused().await]))
        .build()
        .expect("client");
    let started = Instant::now();
    assert_eq!(
        transport_kind(echo(client).await),
        TransportErrorKind::Connect
    );
    assert!(started.elapsed() < Duration::from_secs(5));

    // An empty set is refused when the client is built.
    let e = Client::builder("http://127.0.0.1:9/")
        .failover(Failover::ordered(Vec::<String>::new()))
        .build()
        .unwrap_err();
    assert!(
        e.to_string().contains("failover set without an address"),
        "{e}"
    );
}

#[tokio::test]
async fn a_server_that_was_reached_is_not_passed_over_unless_retries_say_so() {
    // A 503 came from a server that read the request: without a retry policy it is the answer.
    let (busy, busy_requests) = server(Misbehaviour::Unavailable).await;
    let (live, live_requests) = server(Misbehaviour::Answer).await;
    let set = || Failover::ordered([busy.as_str(), live.as_str()]);
    let client = Client::builder(&busy)
        .failover(set())
        .build()
        .expect("client");
    let e = echo(client).await.unwrap_err();
    assert!(e.to_string().contains("503"), "{e}");
    assert_eq!(busy_requests.load(Ordering::SeqCst), 1);
    assert_eq!(live_requests.load(Ordering::SeqCst), 0);
    // With one, the attempt it allows after the 503 (and its Retry-After second) goes to the
    // next address.
    let (once, once_requests) = server(Misbehaviour::UnavailableOnce).await;
    let client = Client::builder(&once)
        .failover(Failover::ordered([once.as_str(), live.as_str()]))
        .retry(Retry::new(2))
        .build()
        .expect("client");
    assert_eq!(echo(client).await.expect("the next address"), "back");
    assert_eq!(once_requests.load(Ordering::SeqCst), 1);
    assert_eq!(live_requests.load(Ordering::SeqCst), 1);
    // A connection closed after the request was sent is not passed over, retries or not: the
    // request may have been processed (and the policy does not retry it).
    let (flaky, flaky_requests) = server(Misbehaviour::Close).await;
    let client = Client::builder(&flaky)
        .failover(Failover::ordered([flaky.as_str(), live.as_str()]))
        .retry(Retry::new(2).backoff(Duration::from_millis(10), Duration::from_millis(20)))
        .build()
        .expect("client");
    let answer = echo(client).await;
    let kind = transport_kind(answer);
    assert_eq!(
        kind,
        TransportErrorKind::Other,
        "a closed connection is not retried"
    );
    assert_eq!(flaky_requests.load(Ordering::SeqCst), 1);
    assert_eq!(live_requests.load(Ordering::SeqCst), 1, "as before");
}

#[tokio::test]
async fn round_robin_sets_spread_the_calls() {
    let (a, a_requests) = server(Misbehaviour::Answer).await;
    let (b, b_requests) = server(Misbehaviour::Answer).await;
    let client = Client::builder(&a)
        .failover(Failover::round_robin([a.as_str(), b.as_str()]))
        .build()
        .expect("client");
    for _ in 0..4 {
        echo(client.clone()).await.expect("an answer");
    }
    assert_eq!(a_requests.load(Ordering::SeqCst), 2);
    assert_eq!(b_requests.load(Ordering::SeqCst), 2);
    // `with_endpoint` is that endpoint alone.
    let one = client.with_endpoint(&a);
    for _ in 0..2 {
        echo(one.clone()).await.expect("an answer");
    }
    assert_eq!(a_requests.load(Ordering::SeqCst), 4);
}

/// A URL whose connections are never accepted in time: a listener with a backlog of one, filled.
async fn unanswered() -> (String, Vec<tokio::net::TcpStream>) {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket.bind("127.0.0.1:0".parse().unwrap()).expect("bind");
    let address = socket.local_addr().expect("address");
    let listener = socket.listen(1).expect("listen");
    // Connections the listener never accepts: once its queue is full, further SYNs are dropped.
    let mut held = Vec::new();
    for _ in 0..8 {
        match tokio::time::timeout(
            Duration::from_millis(200),
            tokio::net::TcpStream::connect(address),
        )
        .await
        {
            Ok(Ok(s)) => held.push(s),
            _ => break,
        }
    }
    std::mem::forget(listener);
    (format!("http://{address}/full"), held)
}

#[tokio::test]
async fn a_connection_not_made_in_time_is_passed_over_too() {
    let (full, _held) = unanswered().await;
    let (live, requests) = server(Misbehaviour::Answer).await;
    let client = Client::builder(&full)
        .failover(Failover::ordered([full.as_str(), live.as_str()]))
        .connect_timeout(Duration::from_millis(300))
        .build()
        .expect("client");
    let started = Instant::now();
    assert_eq!(
        echo(client.clone()).await.expect("the next address"),
        "back"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    // Skipped by the next call.
    let started = Instant::now();
    assert_eq!(echo(client).await.expect("the next address"), "back");
    assert!(started.elapsed() < Duration::from_millis(300));
    assert_eq!(requests.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_set_is_checked_when_the_client_is_built_and_named_when_it_fails() {
    for bad in ["not a url", "ftp://127.0.0.1/x"] {
        let e = Client::builder("http://127.0.0.1:9/")
            .failover(Failover::ordered(["http://127.0.0.1:9/", bad]))
            .build()
            .unwrap_err();
        assert!(e.to_string().contains("invalid endpoint URL"), "{bad}: {e}");
    }
    // The set replaces the builder's address, which is then not checked.
    let (live, _) = server(Misbehaviour::Answer).await;
    assert!(Client::builder("")
        .failover(Failover::ordered([live.as_str()]))
        .build()
        .is_ok());
    // Every address unreachable: the error names the others too.
    let (a, b) = (refused().await, refused().await);
    let client = Client::builder(&a)
        .failover(Failover::ordered([a.as_str(), b.as_str()]))
        .build()
        .expect("client");
    let e = echo(client).await.unwrap_err();
    assert!(
        e.to_string()
            .contains(&format!("could not be reached either: {a}")),
        "{e}"
    );
}

/// A description with a backup port of the same version (`endpoints = …` lists both, as
/// soapgen-build writes it for two ports of one binding): the client starts at the first of its
/// version, `with_soap_version` moves to the other version's first, and the version's
/// addresses in order are the client's failover set, which reaches the backup when the primary
/// refuses connections.
#[tokio::test]
async fn a_descriptions_backup_port_is_a_failover_set() {
    #[soapgen_runtime::soap_client(
        namespace = "urn:soapgen:faults",
        soap = "1.1, 1.2",
        endpoints = "1.1=http://127.0.0.1:9/primary 1.1=http://127.0.0.1:9/backup 1.2=http://127.0.0.1:9/v12"
    )]
    trait Described {
        async fn echo(&self, text: String) -> Result<String, soapgen_runtime::Error>;
    }
    use soapgen_runtime::SoapVersion::{Soap11, Soap12};
    assert_eq!(
        DescribedClient::DEFAULT_ENDPOINT,
        Some("http://127.0.0.1:9/primary")
    );
    let of = |version| {
        DescribedClient::DEFAULT_ENDPOINTS
            .iter()
            .filter(move |(v, _)| *v == version)
            .map(|(_, a)| *a)
    };
    assert_eq!(
        of(Soap11).collect::<Vec<_>>(),
        ["http://127.0.0.1:9/primary", "http://127.0.0.1:9/backup"]
    );
    let c = DescribedClient::with_default_endpoint().unwrap();
    assert_eq!(
        c.with_soap_version(Soap12).client().endpoint(),
        "http://127.0.0.1:9/v12"
    );
    let set = Failover::ordered(of(Soap11));
    assert_eq!(
        set.urls(),
        ["http://127.0.0.1:9/primary", "http://127.0.0.1:9/backup"]
    );
    // The same shape with addresses that answer: the primary gone, the backup live.
    let gone = refused().await;
    let (live, requests, _) = recording_server(Misbehaviour::Answer).await;
    let client = Client::builder("http://unused.invalid/")
        .failover(Failover::ordered([gone.as_str(), live.as_str()]))
        .build()
        .expect("client");
    assert_eq!(echo(client).await.expect("the backup"), "back");
    assert_eq!(requests.load(Ordering::SeqCst), 1);
}
