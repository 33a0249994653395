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
use soapgen_runtime::wss::{SecureConversation, SecureConversationToken, WssConfig};
use soapgen_runtime::Client;
use soapgen_tests::pki::test_pki;
use soapgen_tests::recording::Recording;

use super::{cxf, DoubleItClient};

fn endorsing(version: SecureConversation) -> WssConfig {
    WssConfig::new()
        .timestamp(Duration::from_secs(300))
        .secure_conversation(SecureConversationToken::new(WssConfig::new()).version(version))
        .require_timestamp(true)
}

fn client(url: &str, wss: WssConfig) -> (DoubleItClient, Arc<Recording>) {
    let anchors = TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem");
    let rec = Arc::new(Recording::trusting(anchors));
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
    for _ in 0..100 {
        if rec.requests().len() == 6 {
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
    let anchors = TrustAnchors::from_pem(&test_pki().read("ca.pem")).expect("ca.pem");
    let rec = Arc::new(Recording::trusting(anchors).with_request_rewrite(tamper_context_signature));
    let client = Client::builder(&url)
        .transport(rec.clone())
        .wss(endorsing(SecureConversation::V13))
        .build()
        .expect("client");
    let err = DoubleItClient::from_client(client)
        .double_it(1)
        .await
        .expect_err("a bad signature");
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
