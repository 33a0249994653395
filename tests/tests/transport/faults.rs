//! What a server that misbehaves does to a call: a loopback HTTP server of the test's own (tokio)
//! that stalls, resets, truncates or refuses, and counts the requests it reads. Each call ends in
//! the documented typed error, well within its timeout plus a margin (these machines are shared:
//! the margin is generous, the point is that nothing hangs), and the server saw exactly one
//! request: nothing is retried.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use soapgen_runtime::error::TransportErrorKind;
use soapgen_runtime::transport::{HyperTransport, ReqwestTransport};
use soapgen_runtime::{soap_client, Client, Error};
use soapgen_tests::faulty::{echo_for, recording_server, server, FaultyClient, Misbehaviour};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The transport error of `result`, failing the test otherwise.
pub(crate) fn transport_kind<T: std::fmt::Debug>(result: Result<T, Error>) -> TransportErrorKind {
    match result {
        Err(Error::Transport(t)) => t.kind,
        other => panic!("expected a transport error, got {other:?}"),
    }
}

/// A margin over a timeout for a shared, noisy machine: what matters is that the call ends.
const MARGIN: Duration = Duration::from_secs(5);

#[tokio::test]
async fn a_server_that_never_answers_times_out_on_every_transport() {
    let timeout = Duration::from_millis(400);
    let (url, requests) = server(Misbehaviour::Stall).await;
    // The default transport; the hyper transport and a custom one with no timeout of their own:
    // ClientBuilder::timeout holds around them too.
    let hyper = HyperTransport::builder().timeout(None).build();
    let reqwest = ReqwestTransport::builder()
        .timeout(None)
        .build()
        .expect("reqwest transport");
    let clients = [
        ("default", Client::builder(&url).timeout(timeout).build()),
        (
            "hyper",
            Client::builder(&url)
                .transport(Arc::new(hyper))
                .timeout(timeout)
                .build(),
        ),
        (
            "custom",
            Client::builder(&url)
                .transport(Arc::new(reqwest))
                .timeout(timeout)
                .build(),
        ),
    ];
    for (i, (name, client)) in clients.into_iter().enumerate() {
        let client = FaultyClient::from_client(client.expect("client"));
        let started = Instant::now();
        let kind = transport_kind(client.echo("x".into()).await);
        assert_eq!(kind, TransportErrorKind::Timeout, "{name}");
        assert!(
            started.elapsed() < timeout + MARGIN,
            "{name}: {:?}",
            started.elapsed()
        );
        assert_eq!(
            requests.load(Ordering::SeqCst),
            i + 1,
            "{name}: one request each"
        );
    }
}

#[tokio::test]
async fn a_body_that_stops_coming_times_out_by_the_read_idle_timeout() {
    let (url, requests) = server(Misbehaviour::StallMidBody).await;
    let client = Client::builder(&url)
        .read_timeout(Duration::from_millis(400))
        .timeout(Duration::from_secs(600))
        .build()
        .expect("client");
    let started = Instant::now();
    let result = FaultyClient::from_client(client).echo("x".into()).await;
    // The error names the timeout that ended the call.
    let message = match &result {
        Err(e) => e.to_string(),
        Ok(_) => String::new(),
    };
    let kind = transport_kind(result);
    assert_eq!(kind, TransportErrorKind::Timeout);
    assert!(message.contains("ClientBuilder::read_timeout"), "{message}");
    assert!(started.elapsed() < Duration::from_millis(400) + MARGIN);
    assert_eq!(requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_truncated_body_or_a_closed_connection_is_a_transport_error_not_a_retry() {
    for how in [Misbehaviour::Truncate, Misbehaviour::Close] {
        let (url, requests) = server(how).await;
        let client = Client::builder(&url)
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client");
        let started = Instant::now();
        let kind = transport_kind(FaultyClient::from_client(client).echo("x".into()).await);
        assert_ne!(
            kind,
            TransportErrorKind::Timeout,
            "{how:?}: it ends at once"
        );
        assert!(
            started.elapsed() < MARGIN,
            "{how:?}: {:?}",
            started.elapsed()
        );
        assert_eq!(requests.load(Ordering::SeqCst), 1, "{how:?}: not retried");
    }
}

#[tokio::test]
async fn a_503_is_one_request_and_an_error_naming_the_status() {
    let (url, requests) = server(Misbehaviour::Unavailable).await;
    let client = Client::builder(&url).build().expect("client");
    let e = FaultyClient::from_client(client)
        .echo("x".into())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("503"), "{e}");
    assert_eq!(requests.load(Ordering::SeqCst), 1, "not retried");
}

#[tokio::test]
async fn a_refused_connection_fails_at_once() {
    // A port nothing listens on: bound, then closed.
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/faults", listener.local_addr().expect("address"));
    drop(listener);
    let client = Client::builder(&url).build().expect("client");
    let started = Instant::now();
    let kind = transport_kind(FaultyClient::from_client(client).echo("x".into()).await);
    assert_eq!(kind, TransportErrorKind::Connect);
    assert!(started.elapsed() < MARGIN);
}

#[test]
fn timeouts_a_custom_transport_would_not_apply_are_refused_at_build() {
    let custom = || Arc::new(ReqwestTransport::new().expect("transport"));
    for (name, builder) in [
        (
            "connect_timeout",
            Client::builder("http://127.0.0.1:9/")
                .transport(custom())
                .connect_timeout(Duration::from_secs(1)),
        ),
        (
            "read_timeout",
            Client::builder("http://127.0.0.1:9/")
                .transport(custom())
                .read_timeout(Duration::from_secs(1)),
        ),
    ] {
        let e = builder.build().unwrap_err();
        assert!(e.to_string().contains(name), "{e}");
    }
}

#[tokio::test]
async fn retries_are_asked_for_and_each_attempt_is_a_new_message() {
    use soapgen_runtime::addressing::{Addressing, AddressingVersion};
    use soapgen_runtime::Retry;
    // Without a Retry, the 503 is the answer.
    let (url, requests) = server(Misbehaviour::UnavailableOnce).await;
    let client = Client::builder(&url).build().expect("client");
    let e = FaultyClient::from_client(client)
        .echo("x".into())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("503"), "{e}");
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    // With one, the second attempt after the Retry-After second answers; each attempt is
    // addressed anew (its own MessageID).
    let (url, requests, bodies) = recording_server(Misbehaviour::UnavailableOnce).await;
    let client = Client::builder(&url)
        .addressing(Addressing::on(AddressingVersion::W3C).check_reply_action(false))
        .retry(Retry::new(3))
        .build()
        .expect("client");
    let started = Instant::now();
    let answer = FaultyClient::from_client(client).echo("x".into()).await;
    assert_eq!(answer.expect("the second attempt"), "back");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After honoured"
    );
    assert_eq!(requests.load(Ordering::SeqCst), 2);
    let ids: Vec<String> = bodies
        .lock()
        .expect("bodies")
        .iter()
        .map(|b| {
            let at = b.find("MessageID>").expect("a MessageID") + "MessageID>".len();
            b[at..at + 45].to_owned()
        })
        .collect();
    assert_ne!(ids[0], ids[1], "{ids:?}");
    // A Retry-After longer than the longest wait ends the retries; the attempts are counted.
    let (url, requests) = server(Misbehaviour::Unavailable).await;
    let client = Client::builder(&url)
        .retry(Retry::new(3))
        .build()
        .expect("client");
    let e = FaultyClient::from_client(client)
        .echo("x".into())
        .await
        .unwrap_err();
    assert!(e.to_string().contains("503"), "{e}");
    assert_eq!(
        requests.load(Ordering::SeqCst),
        1,
        "120 s is longer than 30 s"
    );
    // A stalled server is not tried again unless asked: the request may have been processed.
    let (url, requests) = server(Misbehaviour::Stall).await;
    let client = Client::builder(&url)
        .timeout(Duration::from_millis(300))
        .retry(Retry::new(3).backoff(Duration::from_millis(10), Duration::from_millis(20)))
        .build()
        .expect("client");
    let kind = transport_kind(FaultyClient::from_client(client).echo("x".into()).await);
    assert_eq!(kind, TransportErrorKind::Timeout);
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    let client = Client::builder(&url)
        .timeout(Duration::from_millis(300))
        .retry(
            Retry::new(3)
                .backoff(Duration::from_millis(10), Duration::from_millis(20))
                .timeouts(true),
        )
        .build()
        .expect("client");
    let kind = transport_kind(FaultyClient::from_client(client).echo("x".into()).await);
    assert_eq!(kind, TransportErrorKind::Timeout);
    assert_eq!(requests.load(Ordering::SeqCst), 4, "1 before, 3 now");
}

/// A server that answers the echo after `delay`, and the most requests it held at once.
async fn slow_server(delay: Duration) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let url = format!("http://{}/slow", listener.local_addr().expect("address"));
    let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let seen = most.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let (now, most) = (now.clone(), seen.clone());
            tokio::spawn(async move {
                let mut buf = [0u8; 8192];
                loop {
                    // One request per read on this loopback (small bodies): answer each.
                    match socket.read(&mut buf).await {
                        Ok(0) | Err(_) => return,
                        Ok(_) => {}
                    }
                    let held = now.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(held, Ordering::SeqCst);
                    tokio::time::sleep(delay).await;
                    now.fetch_sub(1, Ordering::SeqCst);
                    let body = echo_for("");
                    let head = format!(
                        "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\n\r\n",
                        body.len()
                    );
                    let _ = socket.write_all(head.as_bytes()).await;
                    let _ = socket.write_all(body.as_bytes()).await;
                }
            });
        }
    });
    (url, most)
}

#[tokio::test]
async fn tower_layers_around_the_transport_limit_and_time_the_calls() {
    use soapgen_runtime::transport::{TowerTransport, TransportService};
    use tower::ServiceBuilder;
    let (url, most) = slow_server(Duration::from_millis(150)).await;
    let inner = || {
        TransportService::new(Arc::new(
            ReqwestTransport::builder()
                .timeout(None)
                .build()
                .expect("transport"),
        ))
    };
    // At most one call at a time, whatever the callers do.
    let limited = ServiceBuilder::new().concurrency_limit(1).service(inner());
    let client = FaultyClient::from_client(
        Client::builder(&url)
            .transport(Arc::new(TowerTransport::new(limited)))
            .build()
            .expect("client"),
    );
    let calls = (0..4).map(|_| {
        let c = client.clone();
        tokio::spawn(async move { c.echo("x".into()).await })
    });
    for call in calls {
        assert_eq!(call.await.expect("task").expect("echo"), "back");
    }
    assert_eq!(most.load(Ordering::SeqCst), 1, "one at a time");
    // Tower's timeout is a transport timeout.
    let timed = ServiceBuilder::new()
        .timeout(Duration::from_millis(50))
        .service(inner());
    let client = FaultyClient::from_client(
        Client::builder(&url)
            .transport(Arc::new(TowerTransport::new(timed)))
            .build()
            .expect("client"),
    );
    assert_eq!(
        transport_kind(client.echo("x".into()).await),
        TransportErrorKind::Timeout
    );
}

#[tokio::test]
async fn a_zero_timeout_is_no_timeout() {
    let (url, _) = slow_server(Duration::from_millis(100)).await;
    let client = Client::builder(&url)
        .timeout(Duration::ZERO)
        .read_timeout(Duration::ZERO)
        .build()
        .expect("client");
    let answer = FaultyClient::from_client(client).echo("x".into()).await;
    assert_eq!(answer.expect("no timeout"), "back");
}

#[soap_client(namespace = "urn:soapgen:faults", soap = "1.1", blocking)]
pub trait Shared {
    #[soap(action = "urn:soapgen:faults#echo", result = "text")]
    async fn echo(&self, text: String) -> Result<String, Error>;
}

#[test]
fn blocking_clients_sharing_a_client_share_its_connections() {
    // The server runs on a runtime of its own; the test thread has none current.
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let (url, _) = rt.block_on(slow_server(Duration::from_millis(10)));
    let shared = Client::builder(&url)
        .timeout(Duration::from_secs(20))
        .build()
        .expect("client");
    let first = SharedBlockingClient::from_client(shared.clone()).expect("first");
    let second = SharedBlockingClient::from_client(shared).expect("second");
    // Each one's call, one after the other and from two threads at once, reuses the pooled
    // connection the other opened: none waits on another runtime's connection.
    let started = Instant::now();
    assert_eq!(first.echo("a".into()).expect("first"), "back");
    assert_eq!(second.echo("b".into()).expect("second"), "back");
    let threads: Vec<_> = [first, second]
        .into_iter()
        .map(|c| std::thread::spawn(move || c.echo("c".into())))
        .collect();
    for t in threads {
        assert_eq!(t.join().expect("thread").expect("echo"), "back");
    }
    assert!(started.elapsed() < MARGIN, "{:?}", started.elapsed());
}
