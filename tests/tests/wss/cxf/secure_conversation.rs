//! WS-SecureConversation against the CXF peer of [`super`]: CXF issues the security contexts
//! itself (its `SecureConversationInInterceptor`, no separate token service) on the ports of the
//! corpus's `wssc/DoubleItWSSC.wsdl`:
//!
//! * `DoubleItTransportSP12Port` (WS-SecurityPolicy 1.2, WS-SecureConversation 1.3) and
//!   `DoubleItTransportPort` (WS-SecurityPolicy 1.1, the February 2005 namespaces): over TLS, a
//!   `SecureConversationToken` endorsing supporting token bootstrapped by TLS alone with client
//!   and server entropy (a P_SHA-1 computed key). One context serves every call; it is
//!   cancelled at `Client::close`, after which CXF refuses it.

use std::sync::Arc;
use std::time::Duration;

use soapgen_runtime::transport::TrustAnchors;
use soapgen_runtime::wss::{
    EncryptionOrder, KeyReference, SecureConversation, SecureConversationToken, TrustStore,
    WssConfig,
};
use soapgen_runtime::Client;
use soapgen_tests::pki::test_pki;
use soapgen_tests::recording::Recording;
use soapgen_tests::wss::{cert, credential};

use super::{cxf, DoubleItClient};

fn endorsing(version: SecureConversation) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .secure_conversation(SecureConversationToken::new(WssConfig::new()).version(version))
        .require_timestamp(true)
}

fn client(url: &str, wss: WssConfig) -> (DoubleItClient, Arc<Recording>) {
    client_via(url, wss, over_tls())
}

/// A recording transport that trusts the test CA (the CXF peer's TLS certificate).
fn over_tls() -> Recording {
    Recording::trusting(TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem"))
}

/// The DoubleIt client at `url` secured by `wss`, through `rec`.
fn client_via(url: &str, wss: WssConfig, rec: Recording) -> (DoubleItClient, Arc<Recording>) {
    let rec = Arc::new(rec);
    let client = Client::builder(url)
        .transport(rec.clone())
        .wss(wss)
        .build()
        .expect("client");
    (DoubleItClient::from_client(client), rec)
}

async fn one_context_for_every_call(port: &str, version: SecureConversation, action: &str) {
    let url = cxf().https_url(&format!("/DoubleItWSSC/{port}"));
    let (svc, rec) = client(&url, endorsing(version));
    for n in [3, 4, 5] {
        let v = svc
            .double_it(n)
            .await
            .unwrap_or_else(|e| panic!("{e}\n{:#?}\n{}", rec.exchanges(), cxf().stderr_output()));
        assert_eq!(v, 2 * n);
    }
    let requests = rec.requests();
    assert_eq!(
        requests.len(),
        4,
        "one token request, three calls: {requests:#?}"
    );
    assert!(
        requests[0].contains(&format!(">{action}<")),
        "{}",
        requests[0]
    );
    let token = &rec.exchanges()[0].response;
    let identifier = token
        .split_once("Identifier>")
        .and_then(|(_, r)| r.split_once('<'))
        .map(|(id, _)| id.to_owned())
        .expect("the context's Identifier");
    for r in &requests[1..] {
        assert!(
            r.contains(&identifier) && r.contains("SignatureValue"),
            "{r}"
        );
    }
    // Cancelled: CXF forgets the context, and a request under it is refused.
    svc.client().close().await.expect("Cancel");
    let requests = rec.requests();
    assert_eq!(requests.len(), 5);
    assert!(requests[4].contains("/Cancel<"), "{}", requests[4]);
}

#[tokio::test]
async fn over_tls_one_context_serves_every_call_sp12() {
    one_context_for_every_call(
        "DoubleItTransportSP12Port",
        SecureConversation::V13,
        "http://docs.oasis-open.org/ws-sx/ws-trust/200512/RST/SCT",
    )
    .await;
}

#[tokio::test]
async fn over_tls_one_context_serves_every_call_sp11() {
    one_context_for_every_call(
        "DoubleItTransportPort",
        SecureConversation::V2005,
        "http://schemas.xmlsoap.org/ws/2005/02/trust/RST/SCT",
    )
    .await;
}

#[tokio::test]
async fn concurrent_first_calls_share_one_token_request() {
    let url = cxf().https_url("/DoubleItWSSC/DoubleItTransportSP12Port");
    let (svc, rec) = client(&url, endorsing(SecureConversation::V13));
    let calls: Vec<_> = (0..64)
        .map(|n| {
            let svc = svc.clone();
            tokio::spawn(async move { svc.double_it(n).await })
        })
        .collect();
    for (n, c) in calls.into_iter().enumerate() {
        let n = i32::try_from(n).expect("64 calls");
        assert_eq!(c.await.expect("task").expect("call"), 2 * n);
    }
    let issued = rec
        .requests()
        .iter()
        .filter(|r| r.contains("/RST/SCT<"))
        .count();
    assert_eq!(issued, 1, "64 callers, one RequestSecurityToken");
    assert_eq!(rec.requests().len(), 65);
}

#[tokio::test]
async fn after_close_the_next_call_establishes_a_new_context_and_drop_cancels() {
    let url = cxf().https_url("/DoubleItWSSC/DoubleItTransportSP12Port");
    let (svc, rec) = client(&url, endorsing(SecureConversation::V13));
    assert_eq!(svc.double_it(1).await.expect("call"), 2);
    svc.client().close().await.expect("Cancel");
    let cancelled = rec.exchanges()[2].response.clone();
    assert!(cancelled.contains("RequestedTokenCancelled"), "{cancelled}");
    assert_eq!(svc.double_it(2).await.expect("call"), 4);
    let requests = rec.requests();
    assert_eq!(requests.len(), 5, "{requests:#?}");
    assert!(
        requests[3].contains("/RST/SCT<"),
        "a new context: {}",
        requests[3]
    );
    // The last clone dropped on the runtime: the context is cancelled in the background.
    drop(svc);
    // Until CXF's answer to it is recorded (the request is, before it is sent).
    for _ in 0..200 {
        if rec
            .exchanges()
            .get(5)
            .is_some_and(|x| !x.response.is_empty())
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let requests = rec.requests();
    assert_eq!(requests.len(), 6, "a Cancel after the drop: {requests:#?}");
    assert!(requests[5].contains("/Cancel<"), "{}", requests[5]);
    assert!(
        rec.exchanges()[5]
            .response
            .contains("RequestedTokenCancelled"),
        "{}",
        rec.exchanges()[5].response
    );
}

/// Flips one bit of the context's SignatureValue in every request that has one (not the token
/// request, which has none).
fn tamper_context_signature(request: &str) -> String {
    let Some(sig) = request.find("Id=\"SIGSC-") else {
        return request.to_owned();
    };
    let at = sig
        + request[sig..]
            .find("SignatureValue>")
            .expect("a SignatureValue")
        + 15;
    let mut out = request.to_owned();
    let c = if &request[at..=at] == "A" { "B" } else { "A" };
    out.replace_range(at..=at, c);
    out
}

#[tokio::test]
async fn a_request_whose_context_signature_fails_is_refused() {
    let url = cxf().https_url("/DoubleItWSSC/DoubleItTransportSP12Port");
    let rec = over_tls().with_request_rewrite(tamper_context_signature);
    let (svc, _) = client_via(&url, endorsing(SecureConversation::V13), rec);
    let err = svc.double_it(1).await.expect_err("a bad signature");
    let fault = err.fault().unwrap_or_else(|| panic!("not a fault: {err}"));
    assert!(
        fault.reason.contains("signature") || fault.reason.contains("Signature"),
        "{}",
        fault.reason
    );
    // Without the endorsing signature at all: CXF's EndorsingSupportingTokens is not met.
    let (svc, _) = client_without_endorsement(&url);
    let reason = svc.double_it(1).await.expect_err("no token").to_string();
    assert!(reason.contains("EndorsingSupportingTokens"), "{reason}");
}

fn client_without_endorsement(url: &str) -> (DoubleItClient, Arc<Recording>) {
    client(
        url,
        WssConfig::new()
            .timestamp(Duration::from_secs(300))
            .require_timestamp(true),
    )
}

/// WCF's WS-SecureConversation interop services (`wssc/WSSecureConversation.wsdl`), every
/// port's security configured by hand here (the port policies it carries for the ports soapgen
/// applies go unused).
#[allow(dead_code)]
mod wssc {
    soapgen_runtime::include_client!("cxf_wssc");
}

/// `Ping` with `text` through `client`: the text CXF's answer carries back.
async fn ping(client: Client, text: &str) -> Result<String, soapgen_runtime::Error> {
    use soapgen_runtime::types::Nillable;
    let s = |v: &str| Nillable::from(v.to_owned());
    let r = wssc::PingServiceClient::from_client(client)
        .ping(wssc::types::PingRequest {
            ping: Some(wssc::types::Ping::new(s("soapgen"), s("test"), s(text))),
        })
        .await?;
    Ok(r.ping_response
        .and_then(|p| p.text.into_option())
        .unwrap_or_default())
}

/// The headers WCF's Ping input policy signs (WS-Addressing 2004/08).
const WSA_2004: &str = "http://schemas.xmlsoap.org/ws/2004/08/addressing";
const SIGNED_WSA: [&str; 7] = [
    "To",
    "From",
    "FaultTo",
    "ReplyTo",
    "MessageID",
    "RelatesTo",
    "Action",
];

/// The SymmetricBinding of WCF's Ping ports: the context `token` protects it (with keys derived
/// from it when `derived`), the WS-Addressing headers signed when present, a Timestamp.
fn wcf_symmetric(token: SecureConversationToken, derived: bool) -> WssConfig {
    use soapgen_runtime::wss::SymmetricBinding;
    let mut binding = SymmetricBinding::secure_conversation(cert("server.pem"), token);
    if derived {
        binding = binding.derived_keys(SecureConversation::V2005);
    }
    for h in SIGNED_WSA {
        binding = binding.sign_header_if_present(WSA_2004, h);
    }
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .symmetric(binding)
        .trust(TrustStore::new().anchor(cert("ca.pem")))
}

/// Two Pings at WCF's `port` through a client secured by `wss`, then a Cancel: each answered, one
/// token request; what went over the wire.
async fn two_pings_on_one_context(port: &str, wss: WssConfig) -> Vec<String> {
    let url = cxf_wssc().url(&format!("/WSSecureConversation/{port}"));
    let rec = Arc::new(Recording::new());
    let client = Client::builder(&url)
        .transport(rec.clone())
        .wss(wss)
        .build()
        .expect("client");
    for text in ["one", "two"] {
        let echoed = ping(client.clone(), text).await.unwrap_or_else(|e| {
            panic!(
                "{port}: {e}\n{:#?}\n{}",
                rec.exchanges(),
                cxf_wssc().stderr_output()
            )
        });
        assert_eq!(echoed, text);
    }
    client.close().await.expect("Cancel");
    let requests = rec.requests();
    assert_eq!(requests.len(), 4, "a token request, two calls, a Cancel");
    assert!(requests[0].contains("/RST/SCT<"), "{}", requests[0]);
    assert!(requests[3].contains("/RST/SCT/Cancel<"), "{}", requests[3]);
    requests
}

/// `_X10_IPingService`: a SymmetricBinding whose ProtectionToken is the context (Basic128, no
/// derived keys), bootstrapped by an AsymmetricBinding (the client's certificate signs, the
/// service's is named by IssuerSerial and encrypts; WSS 1.0). The context's token replaces the
/// EncryptedKey; CXF's responses, signed and encrypted under the context's key, name it by its
/// Identifier.
#[tokio::test]
async fn a_context_protects_a_symmetric_binding_bootstrapped_asymmetrically() {
    let bootstrap = super::asymmetric_basic128(
        KeyReference::X509IssuerSerial,
        EncryptionOrder::SignThenEncrypt,
    );
    let token = SecureConversationToken::new(bootstrap).version(SecureConversation::V2005);
    let requests = two_pings_on_one_context("_X10_IPingService", wcf_symmetric(token, false)).await;
    for call in &requests[1..3] {
        assert!(
            call.contains("SecurityContextToken") && !call.contains("EncryptedKey"),
            "{call}"
        );
    }
}

/// The context of `_XD_IPingService`: its bootstrap a SymmetricBinding with the service's
/// certificate (named by its thumbprint, derived keys) and the client's certificate endorsing.
fn xd_token() -> SecureConversationToken {
    use soapgen_runtime::wss::{
        DigestAlgorithm, Endorsement, SignatureAlgorithm, SymmetricBinding, X509Signer,
    };
    let bootstrap = WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .symmetric(
            SymmetricBinding::new(cert("server.pem"))
                .key_reference(KeyReference::ThumbprintSha1)
                .expect("a thumbprint")
                .derived_keys(SecureConversation::V2005),
        )
        .endorse(Endorsement::new(
            X509Signer::new(credential("client"))
                .signature_algorithm(SignatureAlgorithm::RsaSha1)
                .digest(DigestAlgorithm::Sha1),
        ))
        .trust(TrustStore::new().anchor(cert("ca.pem")));
    SecureConversationToken::new(bootstrap).version(SecureConversation::V2005)
}

/// `_XD_IPingService`: keys derived from the context (two DerivedKeyTokens naming its token),
/// bootstrapped by a SymmetricBinding with the service's certificate (named by its thumbprint,
/// derived keys) and the client's certificate endorsing.
#[tokio::test]
async fn keys_derived_from_a_context_bootstrapped_symmetrically() {
    let token = xd_token();
    let requests = two_pings_on_one_context("_XD_IPingService", wcf_symmetric(token, true)).await;
    let call = &requests[1];
    assert_eq!(call.matches("DerivedKeyToken ").count(), 2, "{call}");
    // The Cancel is secured as the port's requests are: derived keys, the Body encrypted.
    let cancel = &requests[3];
    assert!(
        cancel.matches("DerivedKeyToken ").count() == 2 && cancel.contains("EncryptedData"),
        "{cancel}"
    );
    assert!(
        call.contains("/sc/sct\"/></wsse:SecurityTokenReference><wsc:Offset>"),
        "{call}"
    );
}

/// A CXF peer publishing WCF's WS-SecureConversation interop services, with the keys of
/// [`super::cxf`].
fn cxf_wssc() -> &'static soapgen_tests::peers::Peer {
    static PEER: std::sync::OnceLock<soapgen_tests::peers::Peer> = std::sync::OnceLock::new();
    PEER.get_or_init(|| {
        super::start_cxf(&["wsdl_systest_wssec/wssc/WSSecureConversation.wsdl"], &[])
    })
}

/// While set, requests name their context by an Identifier CXF never issued: as if the service
/// had forgotten the context (a restart).
static FORGOTTEN_OVER_TLS: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);
static FORGOTTEN_SYMMETRIC: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

fn unknown_context(request: &str, on: &std::sync::atomic::AtomicBool) -> String {
    if on.load(std::sync::atomic::Ordering::SeqCst) {
        request.replace("Identifier>uuid:", "Identifier>uuid:forgotten-")
    } else {
        request.to_owned()
    }
}

/// After the service forgets the context (it answers with its security fault), the next call
/// establishes a new one: over TLS, CXF's `wsse:FailedCheck`; under a SymmetricBinding, a fault
/// not protected under the context.
#[tokio::test]
async fn a_context_the_service_forgot_is_replaced_by_the_next_call() {
    use std::sync::atomic::Ordering::SeqCst;
    // Over TLS.
    let url = cxf().https_url("/DoubleItWSSC/DoubleItTransportSP12Port");
    let forgetting = over_tls().with_request_rewrite(|r| unknown_context(r, &FORGOTTEN_OVER_TLS));
    let (svc, rec) = client_via(&url, endorsing(SecureConversation::V13), forgetting);
    assert_eq!(svc.double_it(1).await.expect("call"), 2);
    FORGOTTEN_OVER_TLS.store(true, SeqCst);
    let e = svc.double_it(2).await.expect_err("an unknown context");
    assert!(e.fault().is_some(), "{e}");
    FORGOTTEN_OVER_TLS.store(false, SeqCst);
    assert_eq!(svc.double_it(3).await.expect("a new context"), 6);
    assert_eq!(token_requests(&rec), 2, "{:#?}", rec.requests());
    // Under a SymmetricBinding the context protects (derived keys).
    let rec = Arc::new(Recording::rewriting(|r| {
        unknown_context(r, &FORGOTTEN_SYMMETRIC)
    }));
    let client = Client::builder(cxf_wssc().url("/WSSecureConversation/_XD_IPingService"))
        .transport(rec.clone())
        .wss(wcf_symmetric(xd_token(), true))
        .build()
        .expect("client");
    assert_eq!(ping(client.clone(), "one").await.expect("call"), "one");
    FORGOTTEN_SYMMETRIC.store(true, SeqCst);
    let e = ping(client.clone(), "two")
        .await
        .expect_err("an unknown context");
    assert!(e.fault().is_some(), "{e}");
    FORGOTTEN_SYMMETRIC.store(false, SeqCst);
    assert_eq!(ping(client, "three").await.expect("a new context"), "three");
    assert_eq!(token_requests(&rec), 2, "{:#?}", rec.requests());
}

/// A Cancel whose response does not say the context is cancelled (`wst:RequestedTokenCancelled`
/// renamed on the way) fails `close`.
#[tokio::test]
async fn a_cancel_the_service_does_not_confirm_fails_close() {
    fn unconfirmed(response: &str) -> String {
        response.replace("RequestedTokenCancelled", "RequestedTokenKept")
    }
    let url = cxf().https_url("/DoubleItWSSC/DoubleItTransportSP12Port");
    let rec = over_tls().with_response_rewrite(unconfirmed);
    let (svc, _) = client_via(&url, endorsing(SecureConversation::V13), rec);
    assert_eq!(svc.double_it(4).await.expect("call"), 8);
    let e = svc
        .client()
        .close()
        .await
        .expect_err("not confirmed")
        .to_string();
    assert!(e.contains("does not say the context is cancelled"), "{e}");
}

/// How many token requests (`…/RST/SCT`) went through `rec`.
fn token_requests(rec: &Recording) -> usize {
    rec.requests()
        .iter()
        .filter(|r| r.contains("/RST/SCT<"))
        .count()
}
