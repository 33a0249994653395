//! Calls through a proxy that authenticates with a handshake (`Proxy::auth`), against Squid
//! (Debian's): NTLM and Negotiate checked by pyspnego as Squid's helper, Digest by Squid's own
//! `digest_file_auth`. The proxy offers Negotiate, NTLM and Digest at once, as corporate proxies
//! list them. Each scheme carries SOAP calls to a plain-HTTP gSOAP echo server (absolute-form
//! requests, the `407`s answered per request) and to a gSOAP server that requires a TLS client
//! certificate (a `CONNECT` tunnel opened by the transport's forwarder, TLS end to end through
//! it), one after another and concurrently; Squid's access log shows each call under the
//! user's name. A wrong password is a typed authentication error naming the proxy.

use std::path::PathBuf;

use soapgen_runtime::error::TransportErrorKind;
use soapgen_runtime::transport::{HttpAuth, Proxy};
use soapgen_runtime::{Client, Error};
use soapgen_tests::peers::{self, Peer};
use soapgen_tests::pki;

use super::http_auth::{ca, https_url, pem_identity, tls_peer, Echo11Client};

/// The proxy's accounts: `(NTLM/Negotiate file, Digest file)`.
fn accounts() -> (PathBuf, PathBuf) {
    let dir = pki::test_pki().dir();
    let users = dir.join("proxy-users");
    std::fs::write(&users, "SOAPGEN:alice:Passw0rd!\n").unwrap();
    let digest = dir.join("proxy-digest-users");
    std::fs::write(&digest, "carol:D1gest!\n").unwrap();
    (users, digest)
}

fn squid() -> Peer {
    let (users, digest) = accounts();
    peers::squid("negotiate,ntlm,digest", &users, &digest)
}

/// The proxy's log lines so far that start with `prefix`, which is cut off: `"access "` for
/// Squid's access log, `"helper "` for the helper's decisions (the peer copies both to its
/// stderr, polling the files: give the last lines time to arrive).
fn proxy_log(proxy: &Peer, prefix: &str) -> Vec<String> {
    std::thread::sleep(std::time::Duration::from_millis(500));
    proxy
        .stderr_output()
        .lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(str::to_owned)
        .collect()
}

fn access_log(proxy: &Peer) -> Vec<String> {
    proxy_log(proxy, "access ")
}

fn client(url: String, proxy: &Peer, auth: HttpAuth) -> Echo11Client {
    let mut b = Client::builder(url.clone()).proxy(Proxy::new(proxy.url("")).auth(auth));
    if url.starts_with("https:") {
        b = b
            .client_identity(pem_identity())
            .trust_anchors(ca())
            .built_in_roots(false);
    }
    Echo11Client::from_client(b.build().expect("client"))
}

/// Three calls, then four at once, through `proxy`, each echoed.
async fn calls(c: &Echo11Client, proxy: &Peer) {
    for i in 0..3 {
        let text = format!("call {i} <&>");
        let r = c.echo(text.clone()).await;
        assert_eq!(peers::echoed(r, proxy), text);
    }
    let at_once = |i: usize| c.echo(format!("at once {i}"));
    let (a, b, d, e) = tokio::join!(at_once(0), at_once(1), at_once(2), at_once(3));
    for (i, r) in [a, b, d, e].into_iter().enumerate() {
        assert_eq!(peers::echoed(r, proxy), format!("at once {i}"));
    }
}

/// `auth` carries calls to both endpoints; Squid logs them as `logged_user`'s.
async fn through_squid(auth: HttpAuth, logged_user: &str) {
    let scheme = auth.scheme_and_user().0.to_ascii_lowercase();
    let backend = peers::gsoap();
    let tls = tls_peer(&[]);
    let proxy = squid();

    calls(&client(backend.url("/"), &proxy, auth.clone()), &proxy).await;
    let log = access_log(&proxy);
    let posts: Vec<&String> = log
        .iter()
        .filter(|l| l.contains(" POST http://127.0.0.1:") && l.contains(logged_user))
        .collect();
    // Each of the seven calls went through once as the user. Digest's nonce count may reach
    // Squid out of order from the four calls at once (RFC 7616 §3.4: it checks that it grows):
    // such a request is challenged again and answered on the next try, never failed.
    let passed = posts.iter().filter(|l| l.contains("/200 ")).count();
    assert_eq!(passed, 7, "{log:#?}");
    assert!(
        posts
            .iter()
            .all(|l| l.contains("/200 ") || l.contains("TCP_DENIED/407 ")),
        "{posts:#?}"
    );

    let c = client(https_url(&tls), &proxy, auth);
    calls(&c, &proxy).await;
    // Dropped, the client closes its pooled connections: Squid logs a tunnel when it ends.
    drop(c);
    let log = access_log(&proxy);
    let tunnels: Vec<&String> = log
        .iter()
        .filter(|l| l.contains(&format!(" CONNECT 127.0.0.1:{} ", tls.port())))
        .filter(|l| l.contains("TCP_TUNNEL/200"))
        .collect();
    assert!(!tunnels.is_empty(), "{log:#?}");
    assert!(
        tunnels.iter().all(|l| l.contains(logged_user)),
        "{tunnels:#?}"
    );
    // Each tunnel carried one TLS session with the server, which checked the client
    // certificate (a connection the pool opened and then did not need may end in its
    // handshake: reqwest's pool races a new connection against one coming back).
    let server_log = tls.stderr_output();
    let sessions = |prefix: &str| server_log.lines().filter(|l| l.starts_with(prefix)).count();
    assert!(sessions("tls ok") >= 1, "{server_log}");
    assert_eq!(
        sessions("tls ok") + sessions("tls refused"),
        tunnels.len(),
        "{server_log}\n{tunnels:#?}"
    );
    // The scheme asked for is the one pyspnego checked (Squid offers all three).
    let helper = proxy_log(&proxy, "helper ok ");
    if scheme == "digest" {
        assert!(helper.is_empty(), "{helper:?}");
    } else {
        // One handshake per tunnel, and one per connection the plain-HTTP calls took (one,
        // unless a call started before the last one's connection was back in the pool).
        assert!(helper.len() > tunnels.len(), "{helper:?}");
        let want = format!("scheme={scheme} user=SOAPGEN\\alice");
        assert!(helper.iter().all(|l| l == &want), "{helper:?}");
    }
}

#[tokio::test]
async fn ntlm_through_squid_to_http_and_https_endpoints() {
    through_squid(
        HttpAuth::ntlm("SOAPGEN\\alice", "Passw0rd!"),
        "SOAPGEN\\\\alice",
    )
    .await;
}

#[tokio::test]
async fn negotiate_through_squid_to_http_and_https_endpoints() {
    through_squid(
        HttpAuth::negotiate("SOAPGEN\\alice", "Passw0rd!"),
        "SOAPGEN\\\\alice",
    )
    .await;
}

#[tokio::test]
async fn digest_through_squid_to_http_and_https_endpoints() {
    through_squid(HttpAuth::digest("carol", "D1gest!"), " carol ").await;
}

#[tokio::test]
async fn a_wrong_password_at_the_proxy_is_an_auth_error_naming_it() {
    let backend = peers::gsoap();
    let tls = tls_peer(&[]);
    let proxy = squid();
    for auth in [
        HttpAuth::ntlm("SOAPGEN\\alice", "wrong"),
        HttpAuth::negotiate("SOAPGEN\\alice", "wrong"),
        HttpAuth::digest("carol", "wrong"),
    ] {
        let scheme = auth.scheme_and_user().0;
        for url in [backend.url("/"), https_url(&tls)] {
            let e = client(url.clone(), &proxy, auth.clone())
                .echo("x".into())
                .await
                .unwrap_err();
            let Error::Transport(t) = &e else {
                panic!("{scheme} {url}: {e:?}");
            };
            assert_eq!(t.kind, TransportErrorKind::Auth, "{scheme} {url}: {e}");
            let message = e.to_string();
            assert!(
                message.contains("the proxy refused user") && message.contains(scheme),
                "{scheme} {url}: {message}"
            );
        }
    }
    // Nothing reached either server.
    assert!(
        !tls.stderr_output().contains("tls ok"),
        "{}",
        tls.stderr_output()
    );
    // NTLM and Negotiate, each to both endpoints: pyspnego refused the password four times.
    let refused = proxy_log(&proxy, "helper refused").len();
    assert_eq!(refused, 4, "{}", proxy.stderr_output());
}
