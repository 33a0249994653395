//! WS-Security on the service side of the fake (`testing::SecuredService`): the request's
//! `wsse:Security` header checked against the service's policy before its implementation runs,
//! the answer signed; refusals as the faults of WSS 1.1 §12. Called by soapgen's own client in
//! process and by zeep 4.2 (its UsernameToken and BinarySignature plugins, python3-xmlsec) over a
//! loopback socket in both SOAP versions.

use std::sync::Arc;
use std::time::Duration;

use std::sync::Mutex;

use soapgen_runtime::testing::{
    Dispatch, DispatchFuture, InProcess, Loopback, SecuredService, ServiceRequest,
    IN_PROCESS_ENDPOINT,
};
use soapgen_runtime::wss::{
    InboundReport, MessagePart, TrustStore, UsernameToken, WssConfig, X509Signer,
};
use soapgen_runtime::{Client, Error, FaultError, SoapVersion};
use soapgen_tests::peers::zeep_call_with;
use soapgen_tests::pki::test_pki;
use soapgen_tests::wss::{cert, credential, path_str};

mod echo {
    soapgen_runtime::include_client!("echo");
}
use echo::types::FailFaults;

const WSSE: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd";

/// The echo service as its users write it.
struct Echo;

impl echo::EchoService for Echo {
    async fn echo(&self, text: String) -> Result<String, Error> {
        Ok(format!("{text}!"))
    }

    async fn fail(&self, reason: String) -> Result<(), FaultError<FailFaults>> {
        Err(FaultError::from(Error::from(
            soapgen_runtime::fault::Fault::sender(SoapVersion::Soap11, reason),
        )))
    }

    async fn whoami(&self) -> Result<String, Error> {
        Ok("secured".into())
    }
}

/// The service's policy: a UsernameToken of `user`/`password`, the Body signed by a certificate
/// the test CA issued, a Timestamp; its answers signed by `signer` with a Timestamp.
fn service_policy(user: &str, password: &str, signer: &str) -> WssConfig {
    WssConfig::new()
        .expect_username_token(user, password)
        .require_signature(true)
        .trust(TrustStore::new().anchor(cert("ca.pem")))
        .sign(X509Signer::new(credential(signer)))
        .timestamp(Duration::from_secs(300))
}

/// The service side behind the check: records what the check found in each request it passes
/// on, then answers with the generated fake.
struct Spy {
    inner: Arc<dyn Dispatch>,
    seen: Arc<Mutex<Vec<InboundReport>>>,
}

impl Dispatch for Spy {
    fn dispatch<'a>(&'a self, request: &'a ServiceRequest) -> DispatchFuture<'a> {
        let report = request
            .security_report()
            .cloned()
            .expect("a checked request");
        self.seen.lock().unwrap().push(report);
        self.inner.dispatch(request)
    }
}

/// The secured echo service with `policy`, and what its check found in the requests it passed.
fn service(policy: WssConfig) -> (SecuredService<Spy>, Arc<Mutex<Vec<InboundReport>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let spy = Spy {
        inner: echo::EchoServiceClient::fake_service(Echo),
        seen: seen.clone(),
    };
    (SecuredService::new(spy, policy).unwrap(), seen)
}

/// A client with WS-Security `wss` of `service` in process.
fn client(
    service: SecuredService<Spy>,
    wss: WssConfig,
    version: SoapVersion,
) -> echo::EchoServiceClient {
    let client = Client::builder(IN_PROCESS_ENDPOINT)
        .transport(Arc::new(InProcess::new(service)))
        .wss(wss)
        .build()
        .unwrap();
    echo::EchoServiceClient::from_client(client).with_soap_version(version)
}

/// The client's side: a UsernameToken digest of `alice`, the Body signed by the test PKI's
/// `client`, a Timestamp; the answer must be signed by a certificate the CA issued.
fn client_policy(password: &str) -> WssConfig {
    WssConfig::new()
        .username_token(UsernameToken::digest("alice", password))
        .timestamp(Duration::from_secs(300))
        .sign(X509Signer::new(credential("client")))
        .require_signature(true)
        .trust(TrustStore::new().anchor(cert("ca.pem")))
}

/// The WSS 1.1 §12 code of a fault: SOAP 1.1's faultcode, SOAP 1.2's first Subcode.
fn wsse_code(e: &Error) -> String {
    let f = e.fault().unwrap_or_else(|| panic!("not a fault: {e}"));
    let code = match f.version {
        SoapVersion::Soap11 => &f.code,
        SoapVersion::Soap12 => {
            assert!(f.is_sender(), "{f:?}");
            &f.subcodes[0]
        }
    };
    assert_eq!(code.namespace.as_deref(), Some(WSSE), "{f:?}");
    code.local_name.clone()
}

#[tokio::test]
async fn the_secured_fake_checks_requests_and_signs_its_answers_in_process() {
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        // The client requires a signed answer by a certificate the CA issued: the call returning
        // is the proof it was.
        let (svc, seen) = service(service_policy("alice", "s3cret", "server"));
        let c = client(svc, client_policy("s3cret"), version);
        assert_eq!(c.echo("signed <&>".into()).await.unwrap(), "signed <&>!");
        let report = seen.lock().unwrap().pop().unwrap();
        assert_eq!(report.username.as_deref(), Some("alice"), "{version}");
        assert!(report.signed.contains(&MessagePart::Body), "{report:?}");
        assert!(report.timestamp.is_some(), "{report:?}");
        let signer = report.signer.expect("the request's signer");
        assert!(
            signer.subject().contains("soapgen test client"),
            "{signer:?}"
        );

        // A wrong password: FailedAuthentication, and the implementation is not called.
        let (svc, seen) = service(service_policy("alice", "s3cret", "server"));
        let c = client(svc, client_policy("guess"), version);
        let e = c.echo("x".into()).await.unwrap_err();
        assert_eq!(wsse_code(&e), "FailedAuthentication", "{version}: {e}");
        assert!(e.to_string().contains("wrong password"), "{e}");
        assert!(seen.lock().unwrap().is_empty());

        // The Body not signed: FailedCheck.
        let (svc, _) = service(service_policy("alice", "s3cret", "server"));
        let unsigned = WssConfig::new()
            .username_token(UsernameToken::digest("alice", "s3cret"))
            .timestamp(Duration::from_secs(300));
        let e = client(svc, unsigned, version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert_eq!(wsse_code(&e), "FailedCheck", "{version}: {e}");

        // No Security header at all: InvalidSecurity.
        let (svc, _) = service(service_policy("alice", "s3cret", "server"));
        let e = client(svc, WssConfig::new(), version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert_eq!(wsse_code(&e), "InvalidSecurity", "{version}: {e}");

        // Signed by a certificate the CA did not issue: FailedAuthentication.
        let (svc, _) = service(service_policy("alice", "s3cret", "server"));
        let stranger = client_policy("s3cret").sign(X509Signer::new(credential("stranger")));
        let e = client(svc, stranger, version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert_eq!(wsse_code(&e), "FailedAuthentication", "{version}: {e}");

        // An answer the client cannot trust is refused by the client: the service signs with a
        // key the client's trust store does not hold.
        let (svc, _) = service(service_policy("alice", "s3cret", "stranger"));
        let e = client(svc, client_policy("s3cret"), version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert!(e.fault().is_none(), "{e}");
        assert!(e.to_string().contains("trust"), "{e}");
    }
}

/// A SymmetricBinding's service side is refused when the service is built, not at a request.
#[test]
fn a_symmetric_binding_is_refused_on_the_service_side() {
    let policy = WssConfig::new().symmetric(soapgen_runtime::wss::SymmetricBinding::new(cert(
        "server.pem",
    )));
    let e = SecuredService::new(echo::EchoServiceClient::fake_service(Echo), policy).unwrap_err();
    assert!(e.to_string().contains("SymmetricBinding"), "{e}");
}

/// zeep 4.2, a client no one here wrote, calls the secured fake on a loopback socket from the
/// WSDL it serves, in both SOAP versions, with its own WS-Security plugins: a UsernameToken
/// (PasswordDigest) and a BinarySignature of the Body (RSA-SHA1, python3-xmlsec). zeep checks the
/// answer's signature with the certificate it signs with, so the service signs with that key
/// here.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeep_calls_the_secured_fake_with_a_username_token_and_a_signature() {
    let pki = test_pki();
    let wsdl = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/peers/gsoap/echo.wsdl"
    ))
    .unwrap();
    // zeep sends no Timestamp of its own.
    let policy = service_policy("zeep", "z33p & <pw>", "client").require_timestamp(false);
    let (svc, seen) = service(policy);
    let server = Loopback::serve(Arc::new(svc), Some(wsdl)).await.unwrap();
    let wsdl_url = server.wsdl_url();
    let (key, pem) = (pki.path("client.key"), pki.path("client.pem"));
    let sign = ["--key", path_str(&key), "--cert", path_str(&pem)];
    for port in ["EchoSoap11", "EchoSoap12"] {
        let call = |password: &str, signed: bool| {
            let mut options = vec!["--user", "zeep", "--password", password];
            if signed {
                options.extend_from_slice(&sign);
            }
            let args = r#"{"text": "h\u00e9llo <&>"}"#;
            zeep_call_with(&wsdl_url, "EchoService", port, "echo", args, &options)
        };
        // Verified by the service, and its signed answer verified by zeep.
        assert_eq!(
            call("z33p & <pw>", true),
            r#"{"result": "h\u00e9llo <&>!"}"#,
            "{port}"
        );
        let report = seen.lock().unwrap().pop().unwrap();
        assert_eq!(report.username.as_deref(), Some("zeep"), "{port}");
        assert_eq!(report.signed, [MessagePart::Body], "{port}");
        // Refused: a wrong password, an unsigned Body.
        let out = call("wrong", true);
        assert!(out.contains("FailedAuthentication"), "{port}: {out}");
        let out = call("z33p & <pw>", false);
        assert!(out.contains("FailedCheck"), "{port}: {out}");
        assert!(seen.lock().unwrap().is_empty(), "{port}");
    }
}

/// An answer encrypted for the client that the client cannot decrypt (it has no key) is a
/// WS-Security error saying so, for a fault (HTTP 500) as for a result: the fault's envelope is
/// not readable, and the HTTP status alone would not say why.
#[tokio::test]
async fn an_encrypted_answer_the_client_cannot_decrypt_says_why() {
    use soapgen_runtime::wss::X509Encryptor;
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        // The service takes a UsernameToken alone, and signs and encrypts what it answers.
        let policy = service_policy("alice", "s3cret", "server")
            .encrypt(X509Encryptor::new(cert("client.pem")))
            .require_signature(false)
            .require_encryption(false);
        let no_key = |password: &str| {
            WssConfig::new()
                .username_token(UsernameToken::digest("alice", password))
                .timestamp(Duration::from_secs(300))
                .require_signature(true)
                .trust(TrustStore::new().anchor(cert("ca.pem")))
        };
        // A wrong password: a fault, encrypted for the client, which has no key.
        let (svc, _) = service(policy.clone());
        let e = client(svc, no_key("guess"), version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert!(matches!(e, Error::Security(_)), "{version}: {e:?}");
        assert!(e.to_string().contains("no decryption key"), "{e}");
        // The result too.
        let (svc, _) = service(policy.clone());
        let e = client(svc, no_key("s3cret"), version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert!(e.to_string().contains("no decryption key"), "{e}");
        // With its key, the client reads both.
        let with_key = |password| no_key(password).decrypt_with(credential("client"));
        let (svc, _) = service(policy.clone());
        let e = client(svc, with_key("guess"), version)
            .echo("x".into())
            .await
            .unwrap_err();
        assert_eq!(wsse_code(&e), "FailedAuthentication", "{version}: {e}");
        let (svc, _) = service(policy);
        let c = client(svc, with_key("s3cret"), version);
        assert_eq!(c.echo("x".into()).await.unwrap(), "x!", "{version}");
    }
}

/// A service that requires signed requests but trusts nothing to verify them would refuse every
/// request: it is refused when it is built.
#[test]
fn a_service_that_trusts_nothing_is_refused_when_built() {
    let policy = WssConfig::new().sign(X509Signer::new(credential("server")));
    let e = SecuredService::new(echo::EchoServiceClient::fake_service(Echo), policy).unwrap_err();
    assert_eq!(e, soapgen_runtime::wss::WssError::NothingTrusted);
    assert!(e.to_string().contains("WssConfig::trust"), "{e}");
    // Without requiring signatures, the same configuration serves.
    let policy = WssConfig::new()
        .sign(X509Signer::new(credential("server")))
        .require_signature(false);
    assert!(SecuredService::new(echo::EchoServiceClient::fake_service(Echo), policy).is_ok());
}
