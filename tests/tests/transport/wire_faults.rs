//! More of what a misbehaving server (`soapgen_tests::faulty`) does to a call: a body dripping
//! in too slowly, a chunked body cut off, a body over the limit, a pooled connection closed
//! between calls, a connection reset before the request was read, while it was being read and
//! while the response was being written, a TLS handshake with a server that does not speak TLS,
//! redirects. Each ends as documented, within its timeout and a margin, after exactly the
//! requests the server counts.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use soapgen_runtime::error::TransportErrorKind;
use soapgen_runtime::Client;
use soapgen_tests::faulty::{recording_server, server, FaultyClient, Misbehaviour};

use super::faults::transport_kind;

const MARGIN: Duration = Duration::from_secs(5);

async fn echo(client: Client) -> Result<String, soapgen_runtime::Error> {
    FaultyClient::from_client(client).echo("x".into()).await
}

#[tokio::test]
async fn a_body_that_drips_in_is_ended_by_the_call_timeout_not_the_idle_one() {
    let (url, requests) = server(Misbehaviour::Drip).await;
    let timeout = Duration::from_millis(800);
    let client = Client::builder(&url)
        .read_timeout(Duration::from_millis(500))
        .timeout(timeout)
        .build()
        .expect("client");
    let started = Instant::now();
    let result = echo(client).await;
    let message = result
        .as_ref()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(transport_kind(result), TransportErrorKind::Timeout);
    assert!(message.contains("ClientBuilder::timeout"), "{message}");
    assert!(started.elapsed() < timeout + MARGIN);
    assert_eq!(requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_chunked_body_cut_off_is_a_transport_error_at_once() {
    let (url, requests) = server(Misbehaviour::TruncatedChunked).await;
    let client = Client::builder(&url)
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let started = Instant::now();
    let kind = transport_kind(echo(client).await);
    assert_eq!(kind, TransportErrorKind::Other);
    assert!(started.elapsed() < MARGIN);
    assert_eq!(requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_body_over_the_limit_is_too_large() {
    let (url, requests) = server(Misbehaviour::Huge).await;
    let client = Client::builder(&url)
        .max_response_bytes(10_000)
        .build()
        .expect("client");
    let result = echo(client).await;
    let message = result
        .as_ref()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert_eq!(transport_kind(result), TransportErrorKind::TooLarge);
    assert!(message.contains("10000"), "{message}");
    assert_eq!(requests.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_pooled_connection_the_server_closed_is_not_an_error() {
    let (url, requests) = server(Misbehaviour::AnswerThenClose).await;
    let client = Client::builder(&url).build().expect("client");
    assert_eq!(echo(client.clone()).await.expect("the first call"), "back");
    // The server has closed the kept-alive connection since.
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(echo(client).await.expect("the second call"), "back");
    assert_eq!(requests.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn a_connection_reset_before_during_or_after_the_request_fails_once() {
    for how in [
        Misbehaviour::ResetOnAccept,
        Misbehaviour::ResetDuringRequest,
        Misbehaviour::ResetDuringResponse,
    ] {
        let (url, requests) = server(how).await;
        let client = Client::builder(&url)
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client");
        let started = Instant::now();
        let kind = transport_kind(echo(client).await);
        assert_ne!(kind, TransportErrorKind::Timeout, "{how:?}");
        assert!(started.elapsed() < MARGIN, "{how:?}");
        assert_eq!(
            requests.load(Ordering::SeqCst),
            1,
            "{how:?}: not tried again"
        );
    }
}

#[tokio::test]
async fn a_tls_handshake_with_a_plain_http_server_fails_at_once() {
    let (url, accepted) = server(Misbehaviour::NotTls).await;
    let client = Client::builder(url.replacen("http://", "https://", 1))
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client");
    let started = Instant::now();
    let result = echo(client).await;
    let message = result
        .as_ref()
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    let kind = transport_kind(result);
    assert!(
        matches!(kind, TransportErrorKind::Tls | TransportErrorKind::Connect),
        "{kind:?}: {message}"
    );
    assert!(started.elapsed() < MARGIN);
    assert_eq!(accepted.load(Ordering::SeqCst), 1, "not tried again");
}

#[tokio::test]
async fn a_redirect_is_not_followed_by_default_and_names_where_it_leads() {
    let (url, requests, bodies) = recording_server(Misbehaviour::RedirectOnce(307)).await;
    let client = Client::builder(&url).build().expect("client");
    let err = echo(client).await.expect_err("a redirect not followed");
    let message = err.to_string();
    assert_eq!(err.status(), Some(307), "{message}");
    assert!(message.contains("redirected to http://"), "{message}");
    assert!(message.contains("/moved"), "{message}");
    assert!(message.contains("follow_redirects"), "{message}");
    assert_eq!(requests.load(Ordering::SeqCst), 1);
    // The envelope goes with its length (a body the transport does not keep is not chunked).
    let first = bodies.lock().expect("bodies")[0].to_ascii_lowercase();
    assert!(first.contains("\r\ncontent-length: "), "{first}");
    assert!(!first.contains("transfer-encoding"), "{first}");
}

#[tokio::test]
async fn follow_redirects_posts_the_envelope_again_on_307_and_308_only() {
    for (status, followed) in [
        (307, true),
        (308, true),
        (301, false),
        (302, false),
        (303, false),
    ] {
        let (url, requests, bodies) = recording_server(Misbehaviour::RedirectOnce(status)).await;
        let transport = soapgen_runtime::transport::ReqwestTransport::builder()
            .follow_redirects(3)
            .build()
            .expect("transport");
        let client = Client::builder(&url)
            .transport(std::sync::Arc::new(transport))
            .build()
            .expect("client");
        let result = echo(client).await;
        if followed {
            assert_eq!(result.expect("followed"), "back", "{status}");
            assert_eq!(requests.load(Ordering::SeqCst), 2, "{status}");
            let bodies = bodies.lock().expect("bodies");
            assert!(bodies[1].starts_with("POST /moved "), "{}", bodies[1]);
            let envelope = |r: &str| r[r.find("\r\n\r\n").expect("head") + 4..].to_owned();
            assert_eq!(envelope(&bodies[0]), envelope(&bodies[1]), "{status}");
        } else {
            let err = result.expect_err("not followed");
            assert_eq!(err.status(), Some(status), "{err}");
            assert_eq!(requests.load(Ordering::SeqCst), 1, "{status}");
        }
    }
}
