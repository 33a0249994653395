//! Servers that never finish: one that stalls before answering, one that sends its headers then
//! nothing, one that trickles its response a byte at a time; each ends at the client's timeout.

use std::time::{Duration, Instant};

use soapgen_runtime::Client;
use soapgen_tests::canned::{http, serve, Behaviour};

use super::{note_envelope, QuotesClient};

#[tokio::test]
async fn timeout() {
    let server = serve(Behaviour::Stall(Duration::from_secs(5)));
    let client = Client::builder(server.url())
        .timeout(Duration::from_millis(300))
        .build()
        .unwrap();
    let e = QuotesClient::from_client(client)
        .get_quote("A".into())
        .await
        .unwrap_err();
    assert!(e.is_timeout(), "{e}");
}

#[tokio::test]
async fn slow_servers_end_at_the_timeouts() {
    let doc = note_envelope("", "slow");
    let response = http(200, "text/xml", doc.as_bytes());
    let head_len = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
    let cases = [
        // Headers, then silence.
        Behaviour::PartialThenStall(response[..head_len].to_vec(), Duration::from_secs(30)),
        // Headers and body one byte every 50 ms (the whole response would take ~20 s).
        Behaviour::Trickle(response.clone(), Duration::from_millis(50)),
    ];
    for behaviour in cases {
        let server = serve(behaviour.clone());
        let client = Client::builder(server.url())
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        let started = Instant::now();
        let e = QuotesClient::from_client(client)
            .get_quote("x".into())
            .await
            .unwrap_err();
        let took = started.elapsed();
        assert!(e.is_timeout(), "{behaviour:?}: {e}");
        assert!(
            took >= Duration::from_millis(1900) && took < Duration::from_secs(10),
            "{took:?}"
        );
    }
}
