//! WS-Security interop with Apache WSS4J 1.6.19 (Debian's libwss4j-java on OpenJDK), the peer in
//! `tests/peers/wss4j/`: soapgen's `wsse:Security` header (UsernameToken PasswordText and
//! PasswordDigest, Timestamp) is processed by `WSSecurityEngine.processSecurityHeader`, which must
//! accept the right password and refuse a wrong one or an expired Timestamp; and WSS4J's own
//! response Timestamps (fresh, expired, from the future, absent) go through soapgen's inbound
//! policy (WSS 1.1 §10).

use std::sync::Arc;
use std::time::Duration;

use soapgen_runtime::wss::{UsernameToken, WssConfig, WssError};
use soapgen_runtime::{Client, Error};
use soapgen_tests::peers;
use soapgen_tests::recording::Recording;
use soapgen_tests::wss4j_service::{Echo11Client, Echo12Client};

const USER: &str = "alice";
/// A password with characters that need escaping in XML and are multi-byte in UTF-8.
const PASSWORD: &str = "s3cret & <ünïcödé>";

fn peer() -> peers::Peer {
    peers::wss4j(&["--user", &format!("{USER}:{PASSWORD}")])
}

fn client(url: String, wss: WssConfig, transport: Arc<Recording>) -> Client {
    Client::builder(url)
        .transport(transport)
        .wss(wss)
        .build()
        .unwrap()
}

fn security_error(e: &Error) -> &WssError {
    match e {
        Error::Security(s) => s,
        other => panic!("expected a WS-Security error, got {other:?}"),
    }
}

#[tokio::test]
async fn username_token_digest_and_timestamp_are_accepted() {
    let p = peer();
    let rec = Arc::new(Recording::new());
    let wss = WssConfig::new()
        .username_token(UsernameToken::digest(USER, PASSWORD))
        .timestamp(Duration::from_secs(300));
    let c = Echo11Client::from_client(client(p.url("/echo"), wss.clone(), rec.clone()));
    for _ in 0..3 {
        let v = c.echo("hello".into()).await.unwrap_or_else(|e| {
            panic!(
                "{e}\n--- request ---\n{}\n--- peer ---\n{}",
                rec.last_request(),
                p.stderr_output()
            )
        });
        assert_eq!(v.text, "hello");
        assert_eq!(v.user, USER);
        assert_eq!(v.password_type, "PasswordDigest");
        assert_eq!(
            v.actions, "TS,UT",
            "WSS4J processes the header in document order"
        );
    }
    // The header's shape: first in Header, mustUnderstand, Timestamp before the token, no
    // password in clear.
    let sent = rec.last_request();
    let header = &sent[sent.find("<soapenv:Header>").unwrap()..sent.find("<soapenv:Body").unwrap()];
    assert!(
        header.starts_with("<soapenv:Header><wsse:Security "),
        "{header}"
    );
    assert!(header.contains(" soapenv:mustUnderstand=\"1\""), "{header}");
    assert!(header.find("<wsu:Timestamp").unwrap() < header.find("<wsse:UsernameToken").unwrap());
    assert!(header.contains("#PasswordDigest\">"), "{header}");
    assert!(
        !sent.contains("s3cret"),
        "the digest must not carry the password: {sent}"
    );

    // SOAP 1.2: mustUnderstand="true".
    let c12 = Echo12Client::from_client(client(p.url("/echo"), wss, rec.clone()));
    let v = c12.echo("douze".into()).await.unwrap();
    assert_eq!((v.text.as_str(), v.actions.as_str()), ("douze", "TS,UT"));
    assert!(
        rec.last_request().contains(" soap:mustUnderstand=\"true\""),
        "{}",
        rec.last_request()
    );
}

#[tokio::test]
async fn username_token_text_is_accepted() {
    let p = peer();
    let rec = Arc::new(Recording::new());
    for token in [
        UsernameToken::text(USER, PASSWORD),
        UsernameToken::text(USER, PASSWORD).with_nonce(true),
    ] {
        let nonce = token.clone().with_nonce(false) != token;
        let wss = WssConfig::new().username_token(token);
        let c = Echo11Client::from_client(client(p.url("/no-timestamp"), wss, rec.clone()));
        let v = c.echo("plain".into()).await.unwrap();
        assert_eq!(v.user, USER);
        assert_eq!(v.password_type, "PasswordText");
        assert_eq!(v.actions, "UT");
        assert!(rec
            .last_request()
            .contains("#PasswordText\">s3cret &amp; &lt;ünïcödé&gt;</"));
        assert_eq!(rec.last_request().contains("<wsse:Nonce"), nonce);
    }
}

#[tokio::test]
async fn wrong_password_is_rejected() {
    let p = peer();
    for token in [
        UsernameToken::digest(USER, "not the password"),
        UsernameToken::text(USER, "not the password"),
        UsernameToken::digest("mallory", PASSWORD),
    ] {
        let wss = WssConfig::new().username_token(token);
        let c = Echo11Client::from_client(client(
            p.url("/no-timestamp"),
            wss,
            Arc::new(Recording::new()),
        ));
        let e = c.echo("x".into()).await.unwrap_err();
        let f = e
            .fault()
            .unwrap_or_else(|| panic!("expected a fault, got {e}"));
        assert!(f.reason.contains("FailedAuthentication"), "{f}");
    }
}

#[tokio::test]
async fn expired_timestamp_is_rejected() {
    let p = peer();
    // A 1 ms time to live, and the request held back 50 ms on its way: expired on arrival.
    let wss = WssConfig::new()
        .username_token(UsernameToken::digest(USER, PASSWORD))
        .timestamp(Duration::from_millis(1));
    let c = Echo11Client::from_client(client(
        p.url("/echo"),
        wss.clone(),
        Arc::new(Recording::with_delay(Duration::from_millis(50))),
    ));
    let e = c.echo("late".into()).await.unwrap_err();
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("expected a fault, got {e}"));
    assert!(f.reason.contains("expired"), "{f}");

    // The same message on time is accepted: only the clock made the difference.
    let wss = wss.timestamp(Duration::from_secs(60));
    let c = Echo11Client::from_client(client(
        p.url("/echo"),
        wss,
        Arc::new(Recording::with_delay(Duration::from_millis(50))),
    ));
    assert_eq!(c.echo("on time".into()).await.unwrap().actions, "TS,UT");
}

#[tokio::test]
async fn a_request_without_security_is_refused_by_the_peer() {
    // The peer is not lenient: no Security header, no answer.
    let p = peer();
    let c = Echo11Client::new(p.url("/echo")).unwrap();
    let e = c.echo("x".into()).await.unwrap_err();
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("expected a fault, got {e}"));
    assert!(f.reason.contains("no wsse:Security"), "{f}");
}

// ------------------------------------------------------------------------------------------------
// Inbound: WSS4J's response Timestamps against soapgen's policy (WSS 1.1 §10).

#[tokio::test]
async fn response_timestamps_from_wss4j_are_checked() {
    let p = peer();
    let sending_ts = WssConfig::new()
        .username_token(UsernameToken::digest(USER, PASSWORD))
        .timestamp(Duration::from_secs(300));
    let call = |path: &str, wss: WssConfig| {
        let c = Echo11Client::from_client(client(p.url(path), wss, Arc::new(Recording::new())));
        async move { c.echo("in".into()).await }
    };

    // Fresh: accepted.
    assert_eq!(call("/echo", sending_ts.clone()).await.unwrap().text, "in");

    // The default policy requires what the client sends: a Timestamp.
    let e = call("/no-timestamp", sending_ts.clone()).await.unwrap_err();
    assert!(
        matches!(security_error(&e), WssError::MissingSecurityHeader { .. }),
        "{e}"
    );
    assert!(e.to_string().contains("requires a Timestamp"), "{e}");
    // ...unless told otherwise.
    let lax = sending_ts.clone().require_timestamp(false);
    assert_eq!(call("/no-timestamp", lax).await.unwrap().text, "in");
    // A client that sends no Timestamp requires none.
    let ut_only = WssConfig::new().username_token(UsernameToken::digest(USER, PASSWORD));
    assert_eq!(
        call("/no-timestamp", ut_only.clone()).await.unwrap().text,
        "in"
    );

    // Created 600 s ago, expired 300 s ago: refused with the defaults (a maximum age of 300 s,
    // WSS4J's own timeStampTTL, checked before Expires)...
    let e = call("/expired", sending_ts.clone()).await.unwrap_err();
    assert!(
        matches!(
            security_error(&e),
            WssError::TimestampTooOld {
                max_age_secs: 300,
                ..
            }
        ),
        "{e}"
    );
    // ...also when not required: a Timestamp that is there is always checked.
    let e = call("/expired", ut_only).await.unwrap_err();
    assert!(
        matches!(security_error(&e), WssError::TimestampTooOld { .. }),
        "{e}"
    );
    // ...still refused as expired when old Timestamps are allowed...
    let old = sending_ts
        .clone()
        .max_timestamp_age(Duration::from_secs(900));
    let e = call("/expired", old.clone()).await.unwrap_err();
    assert!(
        matches!(security_error(&e), WssError::TimestampExpired { .. }),
        "{e}"
    );
    // ...and accepted with a skew of 10 minutes too.
    let skewed = old.clock_skew(Duration::from_secs(600));
    assert_eq!(call("/expired", skewed).await.unwrap().text, "in");

    // Created an hour ahead: refused.
    let e = call("/future", sending_ts.clone()).await.unwrap_err();
    assert!(
        matches!(security_error(&e), WssError::TimestampInFuture { .. }),
        "{e}"
    );
    assert!(!e.is_fault());
}
