//! Every port of Apache CXF's WS-SecurityPolicy test WSDLs whose policy soapgen applies, in the
//! WSDL that defines its service (the DoubleIt portTypes, and the IPingService of the WS-Security
//! interop WSDLs: tests/build.rs finds them and generates their clients), called through its
//! generated client configured by `ClientBuilder::security_policy` with the port's generated
//! policy and the test's credentials, against one CXF peer publishing every port of those WSDLs
//! with its policy engine on: CXF must accept each request, soapgen each response.

use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;

use soapgen_runtime::policy::{Binding, Credentials, PortPolicy};
use soapgen_runtime::transport::{ClientIdentity, TrustAnchors};
use soapgen_runtime::wss::TrustStore;
use soapgen_runtime::Client;
use soapgen_tests::peers::Peer;
use soapgen_tests::pki::test_pki;
use soapgen_tests::wss::{cert, credential, STOREPASS};

use super::cxf::{start_cxf, USER};

/// One port of the matrix: where the CXF peer serves it, its generated policy, and its operation
/// through its generated client.
pub struct MatrixPort {
    /// The WSDL, in the policy corpus.
    pub wsdl: &'static str,
    /// The peer's path of the port.
    pub path: &'static str,
    /// The port's name.
    pub port: &'static str,
    /// Its generated policy.
    pub policy: &'static PortPolicy,
    /// What its operation answers.
    pub answer: Answer,
    /// The credentials `soapgen inspect` lists for it: the names of the `Credentials` and
    /// `ClientBuilder` setters.
    pub credentials: &'static [&'static str],
    /// Its operation through its client, given a number.
    pub call: Call,
}

/// What a port's operation answers to `n`.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// `2n` (DoubleIt).
    Doubled,
    /// `n` (IPingService's echo).
    Echoed,
    /// Nothing (a one-way DoubleIt: the call succeeds once the service has taken the request).
    Nothing,
}

/// A port's operation through its generated client, given a number: the number its response
/// carries (none for a one-way operation), or the error as text.
pub type Call =
    fn(Client, i32) -> Pin<Box<dyn Future<Output = Result<Option<i32>, String>> + Send>>;

mod matrix {
    use super::{Answer, MatrixPort};
    include!(concat!(env!("OUT_DIR"), "/cxf_matrix.rs"));
}

fn peer() -> &'static Peer {
    static PEER: OnceLock<Peer> = OnceLock::new();
    // Ports that encrypt requests without signing them: responses encrypted for the client.
    let client = test_pki().path("client.pem").display().to_string();
    PEER.get_or_init(|| start_cxf(matrix::WSDLS, &["--encrypt-for".to_owned(), client]))
}

/// Every credential a port of the corpus may need: the UsernameToken account, the client's key
/// (its issuer for PkiPath tokens), the service's certificate, the test CA.
fn credentials() -> Credentials {
    Credentials::new()
        .username(USER.0, USER.1)
        .signing(credential("client"))
        .issuers(vec![cert("ca.pem")])
        .service_certificate(cert("server.pem"))
        .trust(TrustStore::new().anchor(cert("ca.pem")))
}

fn over_tls(p: &PortPolicy) -> bool {
    p.operations.iter().any(|o| {
        [o.request.binding, o.response.binding]
            .iter()
            .any(|b| matches!(b, Some(Binding::Transport(_))))
    })
}

#[tokio::test]
async fn every_port_whose_policy_soapgen_applies_round_trips_against_cxf() {
    let ports = matrix::ports();
    assert!(ports.len() >= 199, "{} ports", ports.len());
    let pki = test_pki();
    let mut failures = Vec::new();
    let log = peer().stderr_output();
    let mut not_served = Vec::new();
    for p in &ports {
        // A port CXF itself cannot serve: only those known, each with CXF's reason.
        if log.contains(&format!("SKIPPED {}:", p.path)) {
            not_served.push(p.path);
            continue;
        }
        let builder = if over_tls(p.policy) {
            Client::builder(peer().https_url(p.path))
                .trust_anchors(TrustAnchors::from_pem(&pki.read("ca.pem")).expect("ca.pem"))
                .client_identity(
                    ClientIdentity::from_pkcs12(&pki.read("client.p12"), STOREPASS)
                        .expect("client.p12"),
                )
        } else {
            Client::builder(peer().url(p.path))
        };
        let result = match builder.security_policy(p.policy, credentials()).build() {
            Ok(client) => (p.call)(client, 21).await,
            Err(e) => Err(format!("build: {e}")),
        };
        let expected = match p.answer {
            Answer::Doubled => Some(42),
            Answer::Echoed => Some(21),
            Answer::Nothing => None,
        };
        match result {
            Ok(v) if v == expected => {}
            Ok(v) => failures.push(format!("{} {}: {v:?}", p.wsdl, p.port)),
            Err(e) => failures.push(format!("{} {}: {e}", p.wsdl, p.port)),
        }
    }
    // CXF builds no policy for it (its binding's policy in WS-SecurityPolicy 1.2, its messages'
    // in 1.1; CXF's own test configures that port in Java): soapgen applies it.
    assert_eq!(
        not_served,
        ["/DoubleItWSSC/DoubleItSymmetricPort"],
        "ports the CXF peer does not serve:\n{log}"
    );
    assert!(
        log.contains("SKIPPED /DoubleItWSSC/DoubleItSymmetricPort: CXF cannot build its policy"),
        "{log}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} ports failed:\n{}\n--- CXF ---\n{}",
        failures.len(),
        ports.len(),
        failures.join("\n"),
        peer().stderr_output()
    );
}

/// Only the credentials named (as `MatrixPort::credentials` names them) of [`credentials`].
fn only(names: &[&str]) -> Credentials {
    let mut c = Credentials::new();
    for n in names {
        c = match *n {
            "username" => c.username(USER.0, USER.1),
            "signing" => c.signing(credential("client")),
            "issuers" => c.issuers(vec![cert("ca.pem")]),
            "endorsing" => c.endorsing(credential("client")),
            "service_certificate" => c.service_certificate(cert("server.pem")),
            "trust" => c.trust(TrustStore::new().anchor(cert("ca.pem"))),
            // TLS settings of the builder, not credentials of the policy.
            "trust_anchors" | "client_identity" => c,
            other => panic!("a credential the test does not know: {other}"),
        };
    }
    c
}

#[test]
fn the_credentials_inspect_lists_are_the_ones_a_client_needs() {
    // For every port of the matrix: a client builds with exactly the credentials `soapgen
    // inspect` lists, and not without any one of them (but the endorsing key, for which the
    // signing one stands in). Building connects to nothing: the URLs lead nowhere.
    let mut problems = Vec::new();
    for p in matrix::ports() {
        let url = if over_tls(p.policy) {
            "https://127.0.0.1:9/x"
        } else {
            "http://127.0.0.1:9/x"
        };
        let build = |names: &[&str]| {
            Client::builder(url)
                .security_policy(p.policy, only(names))
                .build()
                .map(|_| ())
        };
        if let Err(e) = build(p.credentials) {
            problems.push(format!(
                "{} {}: not enough with {:?}: {e}",
                p.wsdl, p.port, p.credentials
            ));
            continue;
        }
        for left_out in p.credentials {
            let fewer: Vec<&str> = p
                .credentials
                .iter()
                .copied()
                .filter(|c| c != left_out)
                .collect();
            let stands_in = *left_out == "endorsing" && fewer.contains(&"signing");
            let tls = matches!(*left_out, "trust_anchors" | "client_identity");
            if !stands_in && !tls && build(&fewer).is_ok() {
                problems.push(format!(
                    "{} {}: builds without {left_out}, which inspect lists",
                    p.wsdl, p.port
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn a_security_context_s_bootstrap_with_a_wrong_password_fails_the_calls_with_one_request() {
    // WCF's SecureConversation over TLS: the token request carries the bootstrap's
    // UsernameToken; with a password CXF does not know, no context is issued and the call fails
    // with CXF's fault, nothing sent under a context. Twenty concurrent calls make one token
    // request (not one each, which would lock an account): the calls that waited for it fail
    // with its reason.
    let port = "SecureConversation_UserNameOverTransport_IPingService";
    let p = matrix::ports()
        .into_iter()
        .find(|p| p.port == port)
        .expect("the WCF port in the matrix");
    let pki = test_pki();
    let anchors = TrustAnchors::from_pem(&pki.read("ca.pem")).expect("ca.pem");
    let rec = std::sync::Arc::new(soapgen_tests::recording::Recording::trusting(anchors));
    let client = Client::builder(peer().https_url(p.path))
        .transport(rec.clone())
        .security_policy(
            p.policy,
            Credentials::new().username(USER.0, "not the password"),
        )
        .build()
        .expect("client");
    let calls: Vec<_> = (0..20)
        .map(|n| tokio::spawn((p.call)(client.clone(), n)))
        .collect();
    let mut errors = Vec::new();
    for c in calls {
        errors.push(c.await.expect("task").expect_err("refused"));
    }
    let authentication = "security token could not be authenticated";
    let waited = "the token request of a concurrent call failed";
    assert!(
        errors.iter().all(|e| e.contains(authentication)),
        "{errors:#?}"
    );
    let first_hand = errors.iter().filter(|e| !e.contains(waited)).count();
    assert!(first_hand >= 1, "{errors:#?}");
    // One token request per failure reported first-hand (one, unless a call came after the
    // first failure was known, when it may try again).
    assert_eq!(rec.requests().len(), first_hand, "{errors:#?}");
    assert!(
        first_hand < 20,
        "the waiting calls did not each send a request"
    );
    assert!(rec.requests().iter().all(|r| r.contains("/RST/SCT<")));
}

#[test]
fn every_credential_a_context_s_bootstrap_lacks_is_named_with_the_rest() {
    // WCF's _XD: the context protects a SymmetricBinding (the service's certificate); its
    // bootstrap is a SymmetricBinding with the client's certificate endorsing.
    let p = matrix::ports()
        .into_iter()
        .find(|p| p.port == "_XD_IPingService")
        .expect("the WCF port in the matrix");
    let e = Client::builder("http://127.0.0.1:9/x")
        .security_policy(p.policy, Credentials::new())
        .build()
        .expect_err("no credentials")
        .to_string();
    assert!(
        e.contains("Credentials::service_certificate") && e.contains("Credentials::endorsing"),
        "{e}"
    );
}
