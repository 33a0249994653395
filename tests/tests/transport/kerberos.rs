//! Kerberos over HTTP `Negotiate` (RFC 4559 §4: Kerberos V5 in SPNEGO) against real peers: MIT
//! Kerberos' KDC with a realm made by the test ([`peers::kerberos_realm`]), and two acceptors in
//! front of the gSOAP echo peer: Apache httpd with `mod_auth_gssapi`, which authenticates every
//! request, and pyspnego's SPNEGO acceptor on MIT's GSS-API, which authenticates a connection.
//!
//! Credentials from a keytab, a credential cache (`kinit`'s) and a password (an AS exchange);
//! the server's AP-REP checked; a wrong password, an expired ticket, an unknown and a wrong
//! service principal, and a final token that does not verify, each a typed error.

use soapgen_runtime::transport::auth::AuthErrorKind;
use soapgen_runtime::transport::{Kerberos, KerberosCredentials};
use soapgen_runtime::{Client, Error};
use soapgen_tests::peers::{self, Peer, ALICE_PASSWORD};

use super::http_auth::{lines, Echo11Client as EchoClient};

/// `http://localhost:PORT/path` of `peer`: the host names the service principal
/// (`HTTP/localhost`).
fn localhost(peer: &Peer, path: &str) -> String {
    format!("http://localhost:{}{path}", peer.port())
}

fn client(peer: &Peer, kerberos: Kerberos) -> EchoClient {
    EchoClient::from_client(
        Client::builder(localhost(peer, "/soap"))
            .kerberos_auth(kerberos)
            .build()
            .unwrap(),
    )
}

fn password() -> KerberosCredentials {
    KerberosCredentials::Password {
        principal: "alice".into(),
        password: ALICE_PASSWORD.into(),
    }
}

/// The authentication error of a failed call, with its kind.
fn auth_error(e: &Error) -> (AuthErrorKind, String) {
    let a = e
        .auth_error()
        .unwrap_or_else(|| panic!("not an authentication error: {e:?}"));
    (a.kind, a.message.clone())
}

#[tokio::test]
async fn httpd_accepts_keytab_ccache_and_password_and_later_calls_take_one_round_trip() {
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let httpd = peers::kerberos_httpd(realm, &backend.url("/"));
    let ccache = realm.kinit("httpd.cc", "10h");
    let sources = [
        KerberosCredentials::Keytab {
            principal: "alice".into(),
            keytab: realm.alice_keytab(),
        },
        KerberosCredentials::Ccache(ccache.display().to_string()),
        password(),
    ];
    for (i, credentials) in sources.into_iter().enumerate() {
        let c = client(&httpd, Kerberos::new(credentials.clone()));
        for n in 0..3 {
            let text = format!("kerberos {i}.{n} & <é>");
            let got = c.echo(text.clone()).await;
            assert_eq!(peers::echoed(got, &httpd), text, "{credentials:?}");
        }
    }
    let access = lines(&httpd, "access ");
    // Per source: one challenge (401), then three 200s as alice; the 2nd and 3rd calls carried
    // their AP-REQ at once (mod_auth_gssapi authenticates every request).
    let ok: Vec<_> = access
        .iter()
        .filter(|l| l.starts_with("access 200 POST"))
        .collect();
    let challenged: Vec<_> = access
        .iter()
        .filter(|l| l.starts_with("access 401"))
        .collect();
    let out = httpd.stderr_output();
    assert_eq!(ok.len(), 9, "{out}");
    assert!(
        ok.iter().all(|l| l.ends_with(" alice@SOAPGEN.TEST")),
        "{out}"
    );
    assert_eq!(challenged.len(), 3, "{out}");
    // The password's and the keytab's AS exchanges, one each.
    let kdc = realm.kdc.stderr_output();
    assert!(
        kdc.lines()
            .any(|l| l.contains("AS_REQ") && l.contains("alice@SOAPGEN.TEST")),
        "{kdc}"
    );
}

#[tokio::test]
async fn pyspnego_accepts_kerberos_and_its_final_token_is_checked() {
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let acceptor = peers::kerberos_pyspnego(realm, &backend.url("/"), &[]);
    let c = client(&acceptor, Kerberos::new(password()));
    for n in 0..3 {
        let text = format!("spnego {n}");
        assert_eq!(peers::echoed(c.echo(text.clone()).await, &acceptor), text);
    }
    let out = acceptor.stderr_output();
    let ok = lines(&acceptor, "ok ");
    assert_eq!(ok.len(), 1, "one authenticated connection: {out}");
    assert!(ok[0].contains("user=alice@SOAPGEN.TEST"), "{out}");
    assert!(ok[0].contains("protocol=kerberos"), "{out}");
    assert!(ok[0].contains("final=yes"), "{out}");

    // Its final token altered (one bit of the AP-REP): the response is not taken.
    let tampered = peers::kerberos_pyspnego(realm, &backend.url("/"), &["--tamper-final-mic"]);
    let c = client(&tampered, Kerberos::new(password()));
    let e = c.echo("x".into()).await.unwrap_err();
    let (kind, message) = auth_error(&e);
    assert_eq!(kind, AuthErrorKind::MutualAuthentication, "{message}");
    assert!(message.contains("HTTP@localhost"), "{message}");
}

#[tokio::test]
async fn a_wrong_password_is_rejected_credentials() {
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let httpd = peers::kerberos_httpd(realm, &backend.url("/"));
    let c = client(
        &httpd,
        Kerberos::new(KerberosCredentials::Password {
            principal: "alice".into(),
            password: "Wr0ng-pw".into(),
        }),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    let (kind, message) = auth_error(&e);
    assert_eq!(kind, AuthErrorKind::CredentialsRejected, "{message}");
    assert!(
        message.contains("'alice'") && !message.contains("Wr0ng"),
        "{message}"
    );
    // Nobody the KDC does not know either.
    let c = client(
        &httpd,
        Kerberos::new(KerberosCredentials::Password {
            principal: "mallory".into(),
            password: "x".into(),
        }),
    );
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::CredentialsRejected, "{message}");
    assert!(lines(&httpd, "access 200").is_empty());
}

#[tokio::test]
async fn an_expired_ticket_and_a_missing_cache_are_typed() {
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let httpd = peers::kerberos_httpd(realm, &backend.url("/"));
    let short = realm.kinit("short.cc", "2s");
    std::thread::sleep(std::time::Duration::from_secs(3));
    let c = client(
        &httpd,
        Kerberos::new(KerberosCredentials::Ccache(short.display().to_string())),
    );
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::CredentialsExpired, "{message}");
    let missing = realm.dir().join("no-such.cc");
    let c = client(
        &httpd,
        Kerberos::new(KerberosCredentials::Ccache(missing.display().to_string())),
    );
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::CredentialsUnavailable, "{message}");
    assert!(message.contains("no-such.cc"), "{message}");
    // A keytab without the principal's key (the service's keytab asked for alice).
    let c = client(
        &httpd,
        Kerberos::new(KerberosCredentials::Keytab {
            principal: "alice".into(),
            keytab: realm.http_keytab(),
        }),
    );
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::CredentialsUnavailable, "{message}");
    assert!(message.contains("holds no key of 'alice'"), "{message}");
}

/// Twenty calls at once on one client through pyspnego's acceptor, which authenticates
/// connections: a ticket answering a 401 may travel on a connection another call authenticated
/// meanwhile, which the server answers without a final token; the origin proved itself on the
/// first, so every call succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_through_an_acceptor_that_authenticates_connections() {
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let acceptor = peers::kerberos_pyspnego(realm, &backend.url("/"), &[]);
    let c = client(&acceptor, Kerberos::new(password()));
    let calls: Vec<_> = (0..20)
        .map(|i| {
            let c = c.clone();
            tokio::spawn(async move { (i, c.echo(format!("call {i}")).await) })
        })
        .collect();
    for call in calls {
        let (i, r) = call.await.unwrap();
        assert_eq!(peers::echoed(r, &acceptor), format!("call {i}"));
    }
    let out = acceptor.stderr_output();
    assert_eq!(lines(&acceptor, "served ").len(), 20, "{out}");
    assert!(!lines(&acceptor, "ok ").is_empty(), "{out}");
}

#[tokio::test]
async fn an_unknown_and_a_wrong_service_principal_are_typed() {
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let httpd = peers::kerberos_httpd(realm, &backend.url("/"));
    // A principal the KDC does not know.
    let c = client(
        &httpd,
        Kerberos::new(password()).service("HTTP/nosuch.example"),
    );
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::UnknownService, "{message}");
    assert!(message.contains("HTTP/nosuch.example"), "{message}");
    // One it knows, whose key the server does not hold: the server refuses the ticket.
    let c = client(&httpd, Kerberos::new(password()).service("HTTP/elsewhere"));
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::Refused, "{message}");
    // The URL's host names the principal by default: 127.0.0.1 is no service of the realm.
    let c = EchoClient::from_client(
        Client::builder(httpd.url("/soap"))
            .kerberos_auth(Kerberos::new(password()))
            .build()
            .unwrap(),
    );
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::UnknownService, "{message}");
    assert!(message.contains("HTTP@127.0.0.1"), "{message}");
    assert!(lines(&httpd, "access 200").is_empty());
}

/// `soapgen fetch --negotiate` with Kerberos: a credential cache and a keytab, through httpd in
/// front of the gSOAP peer serving the documents; the WSDL and the schema it imports arrive byte
/// for byte, each request authenticated as alice. An expired cache is the typed Auth error.
#[test]
fn fetch_negotiates_kerberos_from_a_cache_and_a_keytab() {
    use super::http_auth::{fetch_docs, FETCH_WSDL, FETCH_XSD};
    use clap::Parser as _;
    let realm = peers::kerberos_realm();
    let (docs, out) = fetch_docs("kerberos");
    let backend = peers::gsoap_auth(&["--docs", docs.to_str().unwrap()]);
    let httpd = peers::kerberos_httpd(realm, &backend.url("/"));
    let url = localhost(&httpd, "/svc/svc.wsdl?wsdl");
    let cache = realm.kinit("fetch.cc", "10h");
    let keytab = realm.alice_keytab();
    let runs: [(&str, Vec<&str>); 2] = [
        ("ccache", vec!["--ccache", cache.to_str().unwrap()]),
        (
            "keytab",
            vec!["--keytab", keytab.to_str().unwrap(), "--user", "alice"],
        ),
    ];
    for (name, extra) in runs {
        let dir = out.join(name);
        let mut argv = vec!["soapgen", "fetch", &url, "-q", "-o", dir.to_str().unwrap()];
        argv.push("--negotiate");
        argv.extend(extra);
        let cli = soapgen_cli::Cli::try_parse_from(argv).unwrap();
        let report = soapgen_cli::run(cli)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{}", httpd.stderr_output()));
        assert!(report.contains("fetched 2 documents"), "{name}: {report}");
        let wsdl = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
            .collect::<Vec<_>>();
        assert!(wsdl.iter().any(|t| t == FETCH_WSDL), "{name}");
        assert!(wsdl.iter().any(|t| t == FETCH_XSD), "{name}");
    }
    let ok = lines(&httpd, "access 200 GET");
    assert_eq!(ok.len(), 4, "{}", httpd.stderr_output());
    assert!(ok.iter().all(|l| l.ends_with(" alice@SOAPGEN.TEST")));

    let short = realm.kinit("fetch-short.cc", "2s");
    std::thread::sleep(std::time::Duration::from_secs(3));
    let dir = out.join("expired");
    let cli = soapgen_cli::Cli::try_parse_from([
        "soapgen",
        "fetch",
        &url,
        "-q",
        "-o",
        dir.to_str().unwrap(),
        "--negotiate",
        "--ccache",
        short.to_str().unwrap(),
    ])
    .unwrap();
    let e = soapgen_cli::run(cli).unwrap_err().to_string();
    assert!(e.contains("Negotiate") && e.contains("expired"), "{e}");
}

/// On `https://`, the AP-REQ carries the RFC 5929 `tls-server-end-point` channel bindings of the
/// server's certificate: pyspnego's acceptor (MIT's GSS-API) requiring those of its own
/// certificate accepts three calls, and requiring those of another certificate refuses the
/// ticket (MIT ignores bindings only when the client sends none, so the refusal shows they were
/// sent).
#[tokio::test]
async fn on_https_the_ticket_is_bound_to_the_server_certificate() {
    use soapgen_tests::pki;
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let stem = pki::leaf_with_extensions(
        "kerberos-localhost",
        "7001",
        "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n",
    );
    let dir = pki::test_pki().dir();
    let cert = dir.join(format!("{stem}.pem"));
    let key = dir.join(format!("{stem}.key"));
    let tls = |bindings: &str| {
        peers::kerberos_pyspnego(
            realm,
            &backend.url("/"),
            &[
                "--tls-cert",
                cert.to_str().unwrap(),
                "--tls-key",
                key.to_str().unwrap(),
                "--channel-bindings",
                bindings,
            ],
        )
    };
    let https_client = |peer: &Peer| {
        EchoClient::from_client(
            Client::builder(format!("https://localhost:{}/soap", peer.port()))
                .trust_anchors(super::http_auth::ca())
                .kerberos_auth(Kerberos::new(password()))
                .build()
                .unwrap(),
        )
    };
    let bound = tls("ok");
    let c = https_client(&bound);
    for n in 0..3 {
        let text = format!("bound {n}");
        assert_eq!(peers::echoed(c.echo(text.clone()).await, &bound), text);
    }
    let ok = lines(&bound, "ok ");
    assert_eq!(ok.len(), 1, "{}", bound.stderr_output());

    let other = tls("wrong");
    let c = https_client(&other);
    let (kind, message) = auth_error(&c.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::Refused, "{message}");
    assert!(lines(&other, "ok ").is_empty(), "{}", other.stderr_output());
    assert!(
        !lines(&other, "refused ").is_empty(),
        "{}",
        other.stderr_output()
    );
}

/// Kerberos at a proxy (RFC 9110 §11.7: `407`, `Proxy-Authenticate: Negotiate`): Squid whose
/// Negotiate helper is pyspnego on MIT's GSS-API, reached as `localhost` (the principal
/// `HTTP/localhost`), carries calls to a plain-HTTP endpoint and, through `CONNECT` tunnels, to
/// a TLS one; every call passes as alice. Squid does not relay the helper's final token (the
/// AP-REP), so mutual authentication is turned off for it; left on, the first call says so.
#[tokio::test]
async fn kerberos_at_a_proxy_to_http_and_https_endpoints() {
    use soapgen_runtime::transport::{HttpAuth, Proxy};
    let realm = peers::kerberos_realm();
    let backend = peers::gsoap();
    let tls = super::http_auth::tls_peer(&[]);
    let proxy = peers::squid_kerberos(realm.dir());
    let proxy_url = format!("http://localhost:{}", proxy.port());
    let strict = EchoClient::from_client(
        Client::builder(backend.url("/"))
            .proxy(Proxy::new(&proxy_url).auth(HttpAuth::kerberos(Kerberos::new(password()))))
            .build()
            .unwrap(),
    );
    let (kind, message) = auth_error(&strict.echo("x".into()).await.unwrap_err());
    assert_eq!(kind, AuthErrorKind::MutualAuthentication, "{message}");
    assert!(message.contains("mutual(false)"), "{message}");
    let via = |url: String| {
        let mut b = Client::builder(url.clone()).proxy(
            Proxy::new(&proxy_url)
                .auth(HttpAuth::kerberos(Kerberos::new(password()).mutual(false))),
        );
        if url.starts_with("https:") {
            b = b
                .client_identity(super::http_auth::pem_identity())
                .trust_anchors(super::http_auth::ca())
                .built_in_roots(false);
        }
        EchoClient::from_client(b.build().unwrap())
    };
    for url in [backend.url("/"), super::http_auth::https_url(&tls)] {
        let c = via(url.clone());
        for n in 0..3 {
            let text = format!("via the proxy {n}");
            assert_eq!(
                peers::echoed(c.echo(text.clone()).await, &proxy),
                text,
                "{url}"
            );
        }
    }
    let helper = lines(&proxy, "helper ok ");
    assert!(!helper.is_empty(), "{}", proxy.stderr_output());
    assert!(
        helper
            .iter()
            .all(|l| l == "helper ok scheme=negotiate user=alice@SOAPGEN.TEST"),
        "{helper:?}"
    );
    let access = lines(&proxy, "access ");
    assert!(
        access
            .iter()
            .any(|l| l.contains(" POST http://127.0.0.1:") && l.contains("/200 ")),
        "{access:#?}"
    );
    assert!(
        access
            .iter()
            .any(|l| l.contains(&format!(" CONNECT 127.0.0.1:{} ", tls.port()))),
        "{access:#?}"
    );
}
