//! HTTP authentication and TLS of the default (reqwest) transport against real peers:
//!
//! - HTTP Digest (RFC 7616) against gSOAP's `httpda` plugin (`tests/peers/gsoap/auth/`): SHA-256
//!   and MD5, qop=auth, the nonce count growing across calls on one nonce, a `stale=true`
//!   challenge answered once more, a wrong password as a typed authentication error;
//! - TLS client certificates against gSOAP built with gsoapssl requiring one
//!   (`SOAP_SSL_REQUIRE_CLIENT_AUTHENTICATION`): PEM and PKCS#12 identities, a private CA as the
//!   only trust anchor, the errors without a certificate, with an untrusted one, without the CA;
//! - NTLM (RFC 4559) against pyspnego's acceptor (`tests/peers/ntlm_server.py`),
//!   which keeps one security context per connection as IIS does, in front of the gSOAP echo
//!   peer: the handshake's legs on one connection, later calls reusing it, concurrent calls, a
//!   wrong password;
//! - Negotiate (RFC 4559 §4, SPNEGO of RFC 4178 with NTLM) against pyspnego's SPNEGO acceptor
//!   (the same peer, `--protocol negotiate`), which verifies the client's `mechListMIC` and
//!   sends its own on the `200`: SOAP calls through it, a wrong password, a final token whose
//!   `mechListMIC` was altered.

use std::path::PathBuf;

use soapgen_runtime::transport::{ClientIdentity, TrustAnchors};
use soapgen_runtime::{soap_client, Client, Error};
use soapgen_tests::peers::{self, Peer};
use soapgen_tests::pki;

#[soap_client(namespace = "urn:soapgen:gsoap", soap = "1.1")]
pub trait Echo11 {
    #[soap(action = "urn:soapgen:gsoap#echo", result = "text")]
    async fn echo(&self, text: String) -> Result<String, Error>;
}

#[soap_client(namespace = "urn:soapgen:gsoap", soap = "1.2")]
pub trait Echo12 {
    #[soap(action = "urn:soapgen:gsoap#echo", result = "text")]
    async fn echo(&self, text: String) -> Result<String, Error>;
}

/// The peer's stderr lines that start with `prefix`.
pub(crate) fn lines(peer: &Peer, prefix: &str) -> Vec<String> {
    // The peer's stderr is read by a thread: give the last lines time to arrive.
    std::thread::sleep(std::time::Duration::from_millis(300));
    peer.stderr_output()
        .lines()
        .filter(|l| l.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// The value of `key=` in a stderr line.
fn field<'a>(line: &'a str, key: &str) -> &'a str {
    let start = line
        .find(&format!("{key}="))
        .unwrap_or_else(|| panic!("no {key}= in {line:?}"))
        + key.len()
        + 1;
    line[start..].split_whitespace().next().unwrap_or("")
}

// ------------------------------------------------------------------------------------------
// HTTP Digest
// ------------------------------------------------------------------------------------------

fn digest_client(peer: &Peer, user: &str, password: &str) -> Echo11Client {
    Echo11Client::from_client(
        Client::builder(peer.url("/digest"))
            .digest_auth(user, password)
            .build()
            .unwrap(),
    )
}

#[tokio::test]
async fn digest_sha256_is_chosen_and_the_nonce_count_grows() {
    let peer = peers::gsoap_auth(&["--digest", "alice:s3cret"]);
    let c = digest_client(&peer, "alice", "s3cret");
    for i in 0..4 {
        let text = format!("call {i} & <more>");
        assert_eq!(c.echo(text.clone()).await.unwrap(), text);
    }
    let ok = lines(&peer, "digest ok");
    assert_eq!(ok.len(), 4, "{}", peer.stderr_output());
    for (i, l) in ok.iter().enumerate() {
        // The server offers SHA-256 first, then MD5 (RFC 7616 §3.7): the first is used.
        assert_eq!(field(l, "alg"), "SHA-256", "{l}");
        assert_eq!(field(l, "user"), "alice");
        assert_eq!(field(l, "nc"), format!("{:08x}", i + 1), "{l}");
    }
    // One challenge only: later calls answer the remembered nonce at once.
    assert_eq!(
        lines(&peer, "digest challenge").len(),
        1,
        "{}",
        peer.stderr_output()
    );
    // The same client over SOAP 1.2.
    let c12 = Echo12Client::from_client(c.client().clone());
    assert_eq!(c12.echo("soap 1.2".into()).await.unwrap(), "soap 1.2");
}

#[tokio::test]
async fn digest_md5() {
    let peer = peers::gsoap_auth(&["--digest", "bob:pw", "--digest-alg", "md5"]);
    let c = digest_client(&peer, "bob", "pw");
    assert_eq!(c.echo("md5".into()).await.unwrap(), "md5");
    assert_eq!(c.echo("again".into()).await.unwrap(), "again");
    let ok = lines(&peer, "digest ok");
    assert_eq!(ok.len(), 2, "{}", peer.stderr_output());
    assert!(ok.iter().all(|l| field(l, "alg") == "MD5"), "{ok:?}");
}

#[tokio::test]
async fn digest_stale_nonce_is_retried_once_with_the_new_nonce() {
    let peer = peers::gsoap_auth(&["--digest", "alice:s3cret", "--stale-after", "2"]);
    let c = digest_client(&peer, "alice", "s3cret");
    for i in 0..5 {
        assert_eq!(c.echo(format!("{i}")).await.unwrap(), format!("{i}"));
    }
    // Calls 3 and 5 found their nonce exhausted: stale=true, answered with the new nonce.
    assert_eq!(
        lines(&peer, "digest stale").len(),
        2,
        "{}",
        peer.stderr_output()
    );
    let nc: Vec<String> = lines(&peer, "digest ok")
        .iter()
        .map(|l| field(l, "nc").to_owned())
        .collect();
    assert_eq!(
        nc,
        ["00000001", "00000002", "00000001", "00000002", "00000001"],
        "{}",
        peer.stderr_output()
    );
}

#[tokio::test]
async fn digest_wrong_password_is_an_auth_error() {
    let peer = peers::gsoap_auth(&["--digest", "alice:s3cret"]);
    let c = digest_client(&peer, "alice", "Wr0ngPass");
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_auth(), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("Digest") && text.contains("'alice'") && text.contains("soapgen-tests"),
        "{text}"
    );
    assert!(
        !text.contains("Wr0ngPass"),
        "the password must not appear: {text}"
    );
    assert!(lines(&peer, "digest ok").is_empty());
    // A wrong user name too.
    let c = digest_client(&peer, "mallory", "s3cret");
    assert!(c.echo("x".into()).await.unwrap_err().is_auth());
}

// ------------------------------------------------------------------------------------------
// TLS client certificates
// ------------------------------------------------------------------------------------------

/// A server certificate for 127.0.0.1 issued by the test CA, and the file gSOAP reads (key +
/// certificate).
fn localhost_keyfile() -> PathBuf {
    static MADE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    MADE.get_or_init(make_localhost_keyfile).clone()
}

fn make_localhost_keyfile() -> PathBuf {
    let pki = pki::test_pki();
    let dir = pki.dir();
    let keyfile = dir.join("localhost-keyfile.pem");
    if keyfile.is_file() {
        return keyfile;
    }
    std::fs::write(
        dir.join("localhost.ext"),
        "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\n\
         extendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        pki::openssl(dir, args);
    };
    run(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-out",
        "localhost.key",
    ]);
    run(&[
        "req",
        "-new",
        "-key",
        "localhost.key",
        "-subj",
        "/O=soapgen tests/CN=127.0.0.1",
        "-out",
        "localhost.csr",
    ]);
    run(&[
        "x509",
        "-req",
        "-in",
        "localhost.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-set_serial",
        "4444",
        "-days",
        "2",
        "-extfile",
        "localhost.ext",
        "-out",
        "localhost.pem",
    ]);
    let mut both = std::fs::read(dir.join("localhost.key")).unwrap();
    both.extend(std::fs::read(dir.join("localhost.pem")).unwrap());
    let tmp = dir.join(format!(
        "localhost-keyfile.{:?}.tmp",
        std::thread::current().id()
    ));
    std::fs::write(&tmp, both).unwrap();
    std::fs::rename(&tmp, &keyfile).unwrap();
    keyfile
}

pub(crate) fn tls_peer(extra: &[&str]) -> Peer {
    let keyfile = localhost_keyfile();
    let ca = pki::test_pki().path("ca.pem");
    let mut args = vec!["--tls", keyfile.to_str().unwrap(), ca.to_str().unwrap()];
    args.extend_from_slice(extra);
    peers::gsoap_auth(&args)
}

pub(crate) fn https_url(peer: &Peer) -> String {
    format!("https://127.0.0.1:{}/tls", peer.port())
}

pub(crate) fn ca() -> TrustAnchors {
    TrustAnchors::from_pem(&pki::test_pki().read("ca.pem")).unwrap()
}

pub(crate) fn pem_identity() -> ClientIdentity {
    let pki = pki::test_pki();
    ClientIdentity::from_pem_pair(&pki.read("client.pem"), &pki.read("client.key")).unwrap()
}

#[tokio::test]
async fn mtls_with_a_pem_identity_and_a_private_ca() {
    let peer = tls_peer(&[]);
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .client_identity(pem_identity())
            .trust_anchors(ca())
            .built_in_roots(false)
            .build()
            .unwrap(),
    );
    assert_eq!(c.echo("over mTLS".into()).await.unwrap(), "over mTLS");
    assert_eq!(c.echo("again".into()).await.unwrap(), "again");
    let ok = lines(&peer, "tls ok");
    assert!(!ok.is_empty(), "{}", peer.stderr_output());
    assert!(
        ok[0].contains("CN=soapgen test client"),
        "{}",
        peer.stderr_output()
    );
}

#[tokio::test]
async fn mtls_with_a_pkcs12_identity_and_a_pkcs1_key() {
    let peer = tls_peer(&[]);
    let pki = pki::test_pki();
    let p12 = ClientIdentity::from_pkcs12(&pki.read("client.p12"), "changeit").unwrap();
    assert_eq!(p12.certificates(), 2, "leaf and CA from the store");
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .client_identity(p12)
            .trust_anchors(ca())
            .build()
            .unwrap(),
    );
    assert_eq!(c.echo("pkcs12".into()).await.unwrap(), "pkcs12");
    // The key in PKCS#1 (RSA PRIVATE KEY), certificate and key in one text.
    let mut one = pki.read("client-rsa.key");
    one.extend(pki.read("client.pem"));
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .client_identity(ClientIdentity::from_pem(&one).unwrap())
            .trust_anchors(ca())
            .build()
            .unwrap(),
    );
    assert_eq!(c.echo("pkcs1".into()).await.unwrap(), "pkcs1");
}

#[tokio::test]
async fn mtls_without_a_client_certificate_fails_with_a_tls_error() {
    let peer = tls_peer(&[]);
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .trust_anchors(ca())
            .build()
            .unwrap(),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_tls(), "{e:?}");
    assert!(e.to_string().contains("client certificate"), "{e}");
    assert!(
        lines(&peer, "tls ok").is_empty(),
        "{}",
        peer.stderr_output()
    );
    assert!(
        !lines(&peer, "tls refused").is_empty(),
        "{}",
        peer.stderr_output()
    );
}

#[tokio::test]
async fn mtls_with_an_untrusted_client_certificate_fails() {
    let peer = tls_peer(&[]);
    let pki = pki::test_pki();
    let stranger =
        ClientIdentity::from_pem_pair(&pki.read("stranger.pem"), &pki.read("stranger.key"))
            .unwrap();
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .client_identity(stranger)
            .trust_anchors(ca())
            .build()
            .unwrap(),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_tls(), "{e:?}");
    assert!(
        lines(&peer, "tls ok").is_empty(),
        "{}",
        peer.stderr_output()
    );
}

#[tokio::test]
async fn a_server_of_a_private_ca_is_not_trusted_without_its_root() {
    let peer = tls_peer(&[]);
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .client_identity(pem_identity())
            .build()
            .unwrap(),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_tls(), "{e:?}");
    assert!(e.to_string().contains("trust_anchors"), "{e}");
}

#[tokio::test]
async fn digest_over_mtls() {
    let peer = tls_peer(&["--digest", "carol:pa55"]);
    let c = Echo11Client::from_client(
        Client::builder(https_url(&peer))
            .client_identity(pem_identity())
            .trust_anchors(ca())
            .digest_auth("carol", "pa55")
            .build()
            .unwrap(),
    );
    assert_eq!(c.echo("both".into()).await.unwrap(), "both");
    assert_eq!(
        lines(&peer, "digest ok").len(),
        1,
        "{}",
        peer.stderr_output()
    );
}

#[test]
fn bad_identities_and_anchors_are_typed_errors() {
    let pki = pki::test_pki();
    let e = ClientIdentity::from_pkcs12(&pki.read("client.p12"), "not-it").unwrap_err();
    assert!(e.message.contains("wrong password"), "{e}");
    let e = ClientIdentity::from_pkcs12(b"not a store", "changeit").unwrap_err();
    assert!(e.message.contains("RFC 7292"), "{e}");
    let e = ClientIdentity::from_pem(&pki.read("client.pem")).unwrap_err();
    assert!(e.message.contains("no private key"), "{e}");
    let e = ClientIdentity::from_pem(&pki.read("client.key")).unwrap_err();
    assert!(e.message.contains("no CERTIFICATE"), "{e}");
    let mut two_keys = pki.read("client.key");
    two_keys.extend(pki.read("stranger.key"));
    two_keys.extend(pki.read("client.pem"));
    let e = ClientIdentity::from_pem(&two_keys).unwrap_err();
    assert!(e.message.contains("2 private keys"), "{e}");
    let encrypted = pki::openssl(
        pki.dir(),
        &[
            "pkcs8",
            "-topk8",
            "-in",
            "client.key",
            "-passout",
            "pass:x",
            "-v2",
            "aes-128-cbc",
        ],
    );
    let mut with_encrypted = encrypted;
    with_encrypted.extend(pki.read("client.pem"));
    let e = ClientIdentity::from_pem(&with_encrypted).unwrap_err();
    assert!(e.message.contains("ENCRYPTED PRIVATE KEY"), "{e}");
    let e = TrustAnchors::from_pem(b"no pem here").unwrap_err();
    assert!(e.message.contains("no CERTIFICATE"), "{e}");
    let e = TrustAnchors::from_pem(&pki.read("client.key")).unwrap_err();
    assert!(e.message.contains("not a CERTIFICATE"), "{e}");
    // Options of the default transport with a custom transport would be dropped: refused.
    let custom = std::sync::Arc::new(soapgen_runtime::transport::ReqwestTransport::new().unwrap());
    let e = Client::builder("http://127.0.0.1:9/")
        .transport(custom)
        .digest_auth("a", "b")
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("http_auth"), "{e}");
    let e = Client::builder("http://127.0.0.1:9/")
        .basic_auth("a", "b")
        .digest_auth("a", "b")
        .build()
        .unwrap_err();
    assert!(e.to_string().contains("choose one"), "{e}");
}

// ------------------------------------------------------------------------------------------
// NTLM and Negotiate
// ------------------------------------------------------------------------------------------

/// pyspnego's credential store with one account, SOAPGEN\alice.
fn user_file() -> PathBuf {
    let path = pki::test_pki().dir().join("ntlm-users");
    std::fs::write(&path, "SOAPGEN:alice:Passw0rd!\n").unwrap();
    path
}

fn ntlm_setup(protocol: &str) -> (Peer, Peer) {
    let backend = peers::gsoap();
    let acceptor = peers::ntlm_acceptor(&backend.url("/"), protocol, &user_file());
    (backend, acceptor)
}

#[tokio::test]
async fn ntlm_handshake_stays_on_one_connection_and_later_calls_reuse_it() {
    let (_backend, peer) = ntlm_setup("ntlm");
    let c = Echo11Client::from_client(
        Client::builder(peer.url("/ews"))
            .ntlm_auth("SOAPGEN\\alice", "Passw0rd!")
            .build()
            .unwrap(),
    );
    for i in 0..3 {
        assert_eq!(
            c.echo(format!("ntlm {i}")).await.unwrap(),
            format!("ntlm {i}")
        );
    }
    let out = peer.stderr_output();
    let ok = lines(&peer, "ok ");
    assert_eq!(ok.len(), 1, "one handshake: {out}");
    assert_eq!(field(&ok[0], "user"), "SOAPGEN\\alice", "{out}");
    let conn = field(&ok[0], "connection").to_owned();
    // The legs (challenge, CHALLENGE_MESSAGE) on the connection that was authenticated.
    for prefix in ["challenge", "leg"] {
        let l = lines(&peer, prefix);
        assert_eq!(l.len(), 1, "{out}");
        assert_eq!(field(&l[0], "connection"), conn, "{out}");
    }
    // The three calls were served on it.
    let served = lines(&peer, "served");
    assert_eq!(served.len(), 3, "{out}");
    assert!(
        served.iter().all(|l| field(l, "connection") == conn),
        "{out}"
    );
    assert!(lines(&peer, "refused").is_empty(), "{out}");
}

#[tokio::test]
async fn ntlm_concurrent_calls_share_the_authenticated_connection() {
    let (_backend, peer) = ntlm_setup("ntlm");
    let c = Echo11Client::from_client(
        Client::builder(peer.url("/"))
            .ntlm_auth("SOAPGEN\\alice", "Passw0rd!")
            .build()
            .unwrap(),
    );
    let calls = (0..6).map(|i| {
        let c = c.clone();
        tokio::spawn(async move { c.echo(format!("{i}")).await })
    });
    for (i, h) in calls.enumerate() {
        assert_eq!(h.await.unwrap().unwrap(), format!("{i}"));
    }
    let out = peer.stderr_output();
    assert_eq!(lines(&peer, "ok ").len(), 1, "{out}");
    assert_eq!(lines(&peer, "served").len(), 6, "{out}");
    assert!(lines(&peer, "refused").is_empty(), "{out}");
}

#[tokio::test]
async fn ntlm_wrong_password_is_an_auth_error() {
    let (_backend, peer) = ntlm_setup("ntlm");
    let c = Echo11Client::from_client(
        Client::builder(peer.url("/"))
            .ntlm_auth("SOAPGEN\\alice", "wrong")
            .build()
            .unwrap(),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_auth(), "{e:?}");
    assert!(e.to_string().contains("NTLM"), "{e}");
    assert!(
        !lines(&peer, "refused").is_empty(),
        "{}",
        peer.stderr_output()
    );
    assert!(lines(&peer, "served").is_empty());
}

/// pyspnego's SPNEGO acceptor (`ntlm_server.py --protocol negotiate`) with `extra` options, in
/// front of a gSOAP echo peer.
fn negotiate_setup(extra: &[&str]) -> (Peer, Peer) {
    let backend = peers::gsoap();
    let users = user_file();
    let acceptor = peers::spnego_acceptor(
        "ntlm-acceptor",
        &backend.url("/"),
        "negotiate",
        extra,
        &[("NTLM_USER_FILE", users.as_os_str())],
    );
    (backend, acceptor)
}

#[tokio::test]
async fn negotiate_spnego_with_ntlm_verifies_both_mech_list_mics() {
    let (_backend, peer) = negotiate_setup(&[]);
    let c = Echo11Client::from_client(
        Client::builder(peer.url("/ews"))
            .negotiate_auth("SOAPGEN\\alice", "Passw0rd!")
            .build()
            .unwrap(),
    );
    for i in 0..3 {
        let text = format!("negotiate {i} & <more>");
        assert_eq!(c.echo(text.clone()).await.unwrap(), text);
    }
    let out = peer.stderr_output();
    let ok = lines(&peer, "ok ");
    // pyspnego completes only once it verified the client's mechListMIC (RFC 4178 §5), and
    // it sent its own in a final token, which the client checked before taking the response.
    assert_eq!(ok.len(), 1, "one handshake: {out}");
    assert_eq!(field(&ok[0], "user"), "SOAPGEN\\alice", "{out}");
    assert_eq!(field(&ok[0], "protocol"), "ntlm", "{out}");
    assert_eq!(field(&ok[0], "final"), "yes", "{out}");
    let conn = field(&ok[0], "connection").to_owned();
    for prefix in ["challenge", "leg"] {
        let l = lines(&peer, prefix);
        assert_eq!(l.len(), 1, "{out}");
        assert_eq!(field(&l[0], "connection"), conn, "{out}");
    }
    let served = lines(&peer, "served");
    assert_eq!(served.len(), 3, "{out}");
    assert!(
        served.iter().all(|l| field(l, "connection") == conn),
        "{out}"
    );
    assert!(lines(&peer, "refused").is_empty(), "{out}");
}

#[tokio::test]
async fn negotiate_soap12_and_concurrent_calls_share_one_handshake() {
    let (_backend, peer) = negotiate_setup(&[]);
    let c = Echo12Client::from_client(
        Client::builder(peer.url("/"))
            .negotiate_auth("SOAPGEN\\alice", "Passw0rd!")
            .build()
            .unwrap(),
    );
    let calls = (0..4).map(|i| {
        let c = c.clone();
        tokio::spawn(async move { c.echo(format!("1.2 call {i}")).await })
    });
    for (i, h) in calls.enumerate() {
        assert_eq!(h.await.unwrap().unwrap(), format!("1.2 call {i}"));
    }
    let out = peer.stderr_output();
    assert_eq!(lines(&peer, "ok ").len(), 1, "{out}");
    assert_eq!(lines(&peer, "served").len(), 4, "{out}");
    assert!(lines(&peer, "refused").is_empty(), "{out}");
}

#[tokio::test]
async fn negotiate_wrong_password_is_an_auth_error() {
    let (_backend, peer) = negotiate_setup(&[]);
    let c = Echo11Client::from_client(
        Client::builder(peer.url("/"))
            .negotiate_auth("SOAPGEN\\alice", "wrong")
            .build()
            .unwrap(),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_auth(), "{e:?}");
    let Error::Transport(t) = &e else {
        panic!("not a transport error: {e:?}")
    };
    assert_eq!(
        t.kind,
        soapgen_runtime::error::TransportErrorKind::Auth,
        "{e:?}"
    );
    let msg = e.to_string();
    assert!(
        msg.contains("Negotiate") && msg.contains("refused user"),
        "{msg}"
    );
    assert!(!msg.contains("wrong\""), "the password is not shown: {msg}");
    let refused = lines(&peer, "refused");
    assert_eq!(refused.len(), 1, "{}", peer.stderr_output());
    assert!(
        refused[0].contains("Invalid NTLM response"),
        "{}",
        peer.stderr_output()
    );
    assert!(lines(&peer, "served").is_empty());
}

#[tokio::test]
async fn negotiate_final_token_with_an_altered_mech_list_mic_is_an_auth_error() {
    let (_backend, peer) = negotiate_setup(&["--tamper-final-mic"]);
    let c = Echo11Client::from_client(
        Client::builder(peer.url("/"))
            .negotiate_auth("SOAPGEN\\alice", "Passw0rd!")
            .build()
            .unwrap(),
    );
    let e = c.echo("x".into()).await.unwrap_err();
    assert!(e.is_auth(), "{e:?}");
    assert!(e.to_string().contains("mechListMIC does not verify"), "{e}");
    // The acceptor took the client's tokens and served the call: only the client's check of
    // the server's final token failed.
    let out = peer.stderr_output();
    assert_eq!(lines(&peer, "ok ").len(), 1, "{out}");
    assert_eq!(lines(&peer, "served").len(), 1, "{out}");
}

// ------------------------------------------------------------------------------------------
// `soapgen fetch` with the same HTTP options, against the same gSOAP peer serving documents
// over HTTP GET (`--docs DIR`, behind its httpda Digest and gsoapssl mTLS).

pub(crate) const FETCH_WSDL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<wsdl:definitions targetNamespace="urn:soapgen:fetch" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"
    xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <wsdl:types>
    <xsd:schema targetNamespace="urn:soapgen:fetch">
      <xsd:import namespace="urn:soapgen:fetch:types" schemaLocation="types.xsd"/>
    </xsd:schema>
  </wsdl:types>
</wsdl:definitions>
"#;
pub(crate) const FETCH_XSD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<xsd:schema targetNamespace="urn:soapgen:fetch:types" xmlns:xsd="http://www.w3.org/2001/XMLSchema">
  <xsd:element name="Ping" type="xsd:string"/>
</xsd:schema>
"#;

/// A fresh folder under the test PKI's (kept per test run) holding the two documents.
pub(crate) fn fetch_docs(name: &str) -> (PathBuf, PathBuf) {
    let root = pki::test_pki()
        .dir()
        .join(format!("fetch-{name}-{}", std::process::id()));
    let docs = root.join("docs");
    std::fs::create_dir_all(&docs).unwrap();
    std::fs::write(docs.join("svc.wsdl"), FETCH_WSDL).unwrap();
    std::fs::write(docs.join("types.xsd"), FETCH_XSD).unwrap();
    (docs, root.join("out"))
}

fn fetch_options(url: String, out: &std::path::Path) -> soapgen_cli::fetch::FetchOptions {
    let mut o = soapgen_cli::fetch::FetchOptions::new(url, out);
    o.progress = false;
    o.timeout = std::time::Duration::from_secs(10);
    o
}

/// Digest (RFC 7616): the WSDL's GET is challenged once and answered, the imported schema's GET
/// answers the remembered challenge at once with the next nonce count; both arrive byte for
/// byte. A wrong password is the typed Auth error; the same credentials sent as basic are
/// refused with the server's 401.
#[test]
fn fetch_answers_the_peers_digest_challenge() {
    use soapgen_cli::fetch::{fetch, AuthScheme, FetchError};
    let (docs, out) = fetch_docs("digest");
    let peer = peers::gsoap_auth(&["--digest", "dave:s3cret", "--docs", docs.to_str().unwrap()]);
    let url = format!("http://127.0.0.1:{}/svc/svc.wsdl?wsdl", peer.port());
    let mut o = fetch_options(url.clone(), &out);
    o.basic_auth = Some(("dave".into(), Some("s3cret".into())));
    o.auth_scheme = AuthScheme::Digest;
    let report = fetch(&o).unwrap_or_else(|e| panic!("{e}\n{}", peer.stderr_output()));
    assert_eq!(report.documents.len(), 2, "{report}");
    for d in &report.documents {
        let got = std::fs::read_to_string(out.join(&d.file)).unwrap();
        let expected = if d.url.contains("types.xsd") {
            FETCH_XSD
        } else {
            FETCH_WSDL
        };
        assert_eq!(got, expected, "{}", d.url);
    }
    let ok = lines(&peer, "digest ok");
    assert_eq!(ok.len(), 2, "{}", peer.stderr_output());
    assert!(
        ok[0].contains("user=dave") && ok[0].ends_with("nc=00000001"),
        "{ok:?}"
    );
    assert!(ok[1].ends_with("nc=00000002"), "{ok:?}");
    assert_eq!(
        lines(&peer, "digest challenge").len(),
        1,
        "{}",
        peer.stderr_output()
    );
    assert_eq!(lines(&peer, "get ok").len(), 2, "{}", peer.stderr_output());

    o.basic_auth = Some(("dave".into(), Some("Xq9-not-it".into())));
    let e = fetch(&o).unwrap_err();
    assert!(
        matches!(
            &e,
            FetchError::Auth {
                scheme: "Digest",
                ..
            }
        ),
        "{e:?}"
    );
    assert!(
        e.to_string().contains("dave") && !e.to_string().contains("Xq9-not-it"),
        "{e}"
    );

    o.basic_auth = Some(("dave".into(), Some("s3cret".into())));
    o.auth_scheme = AuthScheme::Basic;
    let e = fetch(&o).unwrap_err();
    assert_eq!(e.status(), Some(401), "{e}");
}

/// TLS client certificates: PEM (through the CLI's flags, as a user types them) and PKCS#12
/// against the gsoapssl peer that requires one issued by the test CA, trusted as a private
/// root; with no certificate the handshake is refused.
#[test]
fn fetch_presents_a_client_certificate() {
    use clap::Parser as _;
    use soapgen_cli::fetch::fetch;
    let (docs, out) = fetch_docs("mtls");
    let keyfile = localhost_keyfile();
    let pki = pki::test_pki();
    let ca = pki.path("ca.pem");
    let peer = peers::gsoap_auth(&[
        "--tls",
        keyfile.to_str().unwrap(),
        ca.to_str().unwrap(),
        "--docs",
        docs.to_str().unwrap(),
    ]);
    let url = format!("https://127.0.0.1:{}/svc.wsdl", peer.port());
    let cli = soapgen_cli::Cli::try_parse_from([
        "soapgen",
        "fetch",
        &url,
        "-o",
        out.join("pem").to_str().unwrap(),
        "--quiet",
        "--ca-cert",
        ca.to_str().unwrap(),
        "--client-cert",
        pki.path("client.pem").to_str().unwrap(),
        "--client-key",
        pki.path("client.key").to_str().unwrap(),
    ])
    .unwrap();
    let report = soapgen_cli::run(cli).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.contains("fetched 2 documents"), "{report}");
    assert!(out.join("pem").join("types.xsd").is_file());

    let mut o = fetch_options(url.clone(), &out.join("p12"));
    o.ca_certs = vec![ca.clone()];
    o.client_identity =
        Some(ClientIdentity::from_pkcs12(&pki.read("client.p12"), "changeit").unwrap());
    let report = fetch(&o).unwrap_or_else(|e| panic!("{e}\n{}", peer.stderr_output()));
    assert_eq!(report.documents.len(), 2);
    assert!(
        lines(&peer, "tls ok subject=")
            .iter()
            .all(|l| l.contains("client")),
        "{}",
        peer.stderr_output()
    );

    o.client_identity = None;
    let e = fetch(&o).unwrap_err();
    assert!(
        matches!(e, soapgen_cli::fetch::FetchError::Transport { .. }),
        "{e:?}"
    );
    assert!(
        !lines(&peer, "tls refused").is_empty(),
        "{}",
        peer.stderr_output()
    );
    // A PKCS#12 store with the wrong password is refused before anything is sent.
    let cli = soapgen_cli::Cli::try_parse_from([
        "soapgen",
        "fetch",
        &url,
        "-o",
        out.join("bad").to_str().unwrap(),
        "--client-pkcs12",
        pki.path("client.p12").to_str().unwrap(),
        "--pkcs12-password",
        "not-it",
    ])
    .unwrap();
    let e = soapgen_cli::run(cli).unwrap_err();
    assert!(e.to_string().contains("--client-pkcs12"), "{e}");
}

/// NTLM and Negotiate (RFC 4559) in `soapgen fetch`: pyspnego's acceptor in front of the gSOAP
/// peer serving the documents; one handshake on one kept-alive connection, over which the WSDL
/// and the schema it imports both arrive byte for byte. A wrong password is the typed Auth
/// error, naming the user and not the password.
#[test]
fn fetch_authenticates_with_ntlm_and_negotiate() {
    use soapgen_cli::fetch::{fetch, AuthScheme, FetchError};
    for (protocol, scheme) in [
        ("ntlm", AuthScheme::Ntlm),
        ("negotiate", AuthScheme::Negotiate),
    ] {
        let (docs, out) = fetch_docs(protocol);
        let backend = peers::gsoap_auth(&["--docs", docs.to_str().unwrap()]);
        let peer = peers::ntlm_acceptor(&backend.url("/"), protocol, &user_file());
        let url = format!("http://127.0.0.1:{}/svc/svc.wsdl?wsdl", peer.port());
        let mut o = fetch_options(url, &out);
        o.basic_auth = Some(("SOAPGEN\\alice".into(), Some("Passw0rd!".into())));
        o.auth_scheme = scheme;
        let report =
            fetch(&o).unwrap_or_else(|e| panic!("{protocol}: {e}\n{}", peer.stderr_output()));
        assert_eq!(report.documents.len(), 2, "{protocol}: {report}");
        for d in &report.documents {
            let got = std::fs::read_to_string(out.join(&d.file)).unwrap();
            let expected = if d.url.contains("types.xsd") {
                FETCH_XSD
            } else {
                FETCH_WSDL
            };
            assert_eq!(got, expected, "{protocol}: {}", d.url);
        }
        let log = peer.stderr_output();
        let ok = lines(&peer, "ok ");
        assert_eq!(ok.len(), 1, "{protocol}: one handshake: {log}");
        assert!(
            ok[0].contains("user=SOAPGEN\\alice") && ok[0].contains("protocol=ntlm"),
            "{protocol}: {ok:?}"
        );
        let served = lines(&peer, "served ");
        assert_eq!(served.len(), 2, "{protocol}: {log}");
        let connection = |l: &str| l.split_whitespace().nth(1).map(str::to_owned);
        assert_eq!(
            connection(&served[0]),
            connection(&served[1]),
            "{protocol}: both documents on the authenticated connection: {log}"
        );
        assert_eq!(
            lines(&backend, "get ok").len(),
            2,
            "{}",
            backend.stderr_output()
        );

        o.basic_auth = Some(("SOAPGEN\\alice".into(), Some("Xq9-not-it".into())));
        let e = fetch(&o).unwrap_err();
        assert!(matches!(&e, FetchError::Auth { .. }), "{protocol}: {e:?}");
        assert!(
            e.to_string().contains("alice") && !e.to_string().contains("Xq9-not-it"),
            "{protocol}: {e}"
        );
    }
}
