//! A client generated at build time (tests/build.rs) from a WSDL 2.0 description,
//! `tests/peers/gsoap/echo20.wsdl`, calling the gSOAP echo peer, which gSOAP built from the WSDL 1.1
//! `echo.wsdl` of the same service: the wire messages of the WSDL 2.0 route must be the ones the
//! peer expects. Over SOAP 1.1 (`wsoap:version="1.1"`) and SOAP 1.2 (the default): an in-out
//! operation inherited from a base interface, an in-out operation with an outfault, a
//! robust-in-only operation with an infault, and a `wsoap:header`.

use soapgen_runtime::SoapVersion;
use soapgen_tests::peers;

mod echo20 {
    soapgen_runtime::include_client!("echo20");
}

use echo20::types::{Auth, Fail, FailDetail, FailFaults};

/// The `wsoap:header` the description declares for `whoami`, set on the client.
const AUTH: soapgen_runtime::header::DeclaredHeader<Auth> = echo20::EchoServiceClient::AUTH_HEADER;

/// Checks a call's error is the peer's `fail` fault: the SOAP version of the binding, the HTTP
/// status gSOAP gives it, and the declared `g:FailDetail` decoded into the generated type.
#[track_caller]
fn assert_fail_fault(
    e: &soapgen_runtime::FaultError<FailFaults>,
    version: SoapVersion,
    status: u16,
    reason: &str,
) {
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("expected a SOAP fault, got {}", e.error));
    assert_eq!(f.version, version, "{f}");
    assert_eq!(f.http_status, Some(status), "{f}");
    assert!(f.is_sender(), "{f}");
    assert_eq!(f.reason, format!("failed: {reason}"));
    match &e.detail {
        Some(FailFaults::FailFault(FailDetail { reason: r, code })) => {
            assert_eq!((r.as_str(), *code), (reason, 42));
        }
        other => panic!(
            "expected the typed FailDetail, got {other:?} ({:?})",
            e.detail_error
        ),
    }
}

macro_rules! exercise {
    ($client:expr, $version:expr, $fault_status:expr) => {{
        let c = $client;
        // in-out, declared in the base interface EchoBase.
        for text in ["hello", "", "ünïcödé ✓ & <markup>", "line\nbreaks"] {
            assert_eq!(c.echo(text.to_owned()).await.unwrap(), text);
        }
        // in-out with an outfault.
        let e = c.fail("bad input".into()).await.unwrap_err();
        assert_fail_fault(&e, $version, $fault_status, "bad input");
        // robust-in-only (no response message) with an infault: the peer answers `g:fail` with
        // its fault, which the one-way call reports typed.
        let e = c
            .report(Fail {
                reason: "reported".into(),
            })
            .await
            .unwrap_err();
        assert_fail_fault(&e, $version, $fault_status, "reported");
        // A wsoap:header the peer reads, and its absence.
        let auth = Auth {
            user: "alice".into(),
            token: "t0k & co".into(),
        };
        let authed = c.with_header(AUTH, &auth);
        assert_eq!(authed.whoami().await.unwrap(), "alice/t0k & co");
        let e = c.whoami().await.unwrap_err();
        assert!(
            e.fault()
                .is_some_and(|f| f.reason.contains("missing Auth header")),
            "{e}"
        );
    }};
}

#[tokio::test]
async fn soap11_binding_of_a_wsdl_2_0_description_calls_gsoap() {
    let peer = peers::gsoap();
    exercise!(
        echo20::EchoServiceClient::soap11(peer.url("/soap11")).unwrap(),
        SoapVersion::Soap11,
        500
    );
}

#[tokio::test]
async fn soap12_binding_of_a_wsdl_2_0_description_calls_gsoap() {
    let peer = peers::gsoap();
    exercise!(
        echo20::EchoServiceClient::soap12(peer.url("/soap12")).unwrap(),
        SoapVersion::Soap12,
        400
    );
}
