//! WS-Addressing and SOAP headers both ways against gSOAP servers built with gSOAP's own
//! WS-Addressing plugin (`wsaapi`; `tests/peers/gsoap/wsa/`), which refuse requests without
//! the headers: WS-Addressing 1.0 (`import/wsa5.h`) and the 2004/08 submission (`import/wsa.h`),
//! SOAP 1.1 and 1.2 each. The client is a `#[soap_client(addressing = "…")]` trait.

use soapgen_runtime::addressing::{
    Addressing, AddressingMode, AddressingVersion, WSA_2004_NS, WSA_NS,
};
use soapgen_runtime::error::TransportErrorKind;
use soapgen_runtime::header::{HeaderBlock, HeaderErrorKind, SOAP12_ROLE_NONE};
use soapgen_runtime::xml::Name;
use soapgen_runtime::{soap_client, Client, Error, FromXml, SoapVersion, ToXml};
use soapgen_tests::peers;

const ACTION: &str = "urn:soapgen:wsa:AddressedEcho:EchoRequest";
const HEADERS_NS: &str = "urn:soapgen:wsa:headers";
const VERSIONS: [SoapVersion; 2] = [SoapVersion::Soap11, SoapVersion::Soap12];

/// What the peer received, echoed in its response body.
#[derive(Debug, Clone, PartialEq, Default, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:wsa")]
pub struct EchoResponse {
    pub text: String,
    pub action: Option<String>,
    pub to: Option<String>,
    #[xml(rename = "messageID")]
    pub message_id: Option<String>,
    #[xml(rename = "replyTo")]
    pub reply_to: Option<String>,
    pub tenant: Option<String>,
    pub locale: Option<String>,
}

/// No `action`: WS-Addressing Metadata §4.4.4's default action pattern names it,
/// `urn:soapgen:wsa` `:` `AddressedEcho` `:` `EchoRequest` (a URN's delimiter is `:`).
#[soap_client(
    namespace = "urn:soapgen:wsa",
    soap = "1.1, 1.2",
    addressing = "1.0",
    blocking
)]
pub trait AddressedEcho {
    #[soap(name = "Echo", bare_response, response = "EchoResponse")]
    async fn echo(&self, text: String) -> Result<EchoResponse, Error>;
}

fn client(
    url: &str,
    version: SoapVersion,
    f: impl FnOnce(soapgen_runtime::ClientBuilder) -> soapgen_runtime::ClientBuilder,
) -> AddressedEchoClient {
    let c = f(Client::builder(url)).build().expect("client");
    AddressedEchoClient::from_client(c).with_soap_version(version)
}

fn session_understood(b: soapgen_runtime::ClientBuilder) -> soapgen_runtime::ClientBuilder {
    b.understood_header(HEADERS_NS, "Session")
}

#[tokio::test]
async fn the_description_turns_addressing_on_and_the_wsa_server_accepts_it() {
    assert_eq!(
        AddressedEchoClient::ADDRESSING,
        [
            (SoapVersion::Soap11, AddressingVersion::W3C),
            (SoapVersion::Soap12, AddressingVersion::W3C)
        ]
    );
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let url = peer.url("/no-session");
    for v in VERSIONS {
        let r = client(&url, v, |b| b)
            .echo("hi".into())
            .await
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(r.text, "hi");
        assert_eq!(r.action.as_deref(), Some(ACTION), "{v}");
        assert_eq!(r.to.as_deref(), Some(url.as_str()), "{v}");
        assert_eq!(
            r.reply_to.as_deref(),
            Some(AddressingVersion::W3C.anonymous()),
            "{v}"
        );
        let id = r.message_id.unwrap();
        assert!(id.starts_with("urn:uuid:") && id.len() == 45, "{v}: {id}");
    }
}

#[tokio::test]
async fn switched_off_per_client_the_wsa_server_refuses_the_request() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    for v in VERSIONS {
        let e = client(&peer.url("/no-session"), v, |b| {
            b.addressing(AddressingMode::Off)
        })
        .echo("hi".into())
        .await
        .unwrap_err();
        let Error::Fault(f) = &e else {
            panic!("{v}: {e:?}")
        };
        let codes: Vec<&str> = std::iter::once(&f.code)
            .chain(&f.subcodes)
            .map(|q| q.local_name.as_str())
            .collect();
        assert!(
            codes.contains(&"MessageAddressingHeaderRequired"),
            "{v}: {codes:?} {e}"
        );
    }
}

#[tokio::test]
async fn the_2004_08_submission_against_gsoaps_wsa_h_server() {
    let peer = peers::gsoap_wsa(AddressingVersion::Submission2004);
    let url = peer.url("/no-session");
    let on = AddressingMode::On(AddressingVersion::Submission2004);
    for v in VERSIONS {
        let r = client(&url, v, |b| b.addressing(on))
            .echo("old".into())
            .await
            .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(r.text, "old");
        assert_eq!(r.action.as_deref(), Some(ACTION), "{v}");
        assert_eq!(
            r.reply_to.as_deref(),
            Some(AddressingVersion::Submission2004.anonymous()),
            "{v}"
        );
        // The 1.0 headers do not pass for the submission (the peer wants its anonymous URI).
        let e = client(&url, v, |b| b).echo("new".into()).await.unwrap_err();
        assert!(e.is_fault(), "{v}: {e}");
    }
}

#[tokio::test]
async fn a_reply_not_related_to_the_request_is_a_typed_error() {
    for version in [AddressingVersion::W3C, AddressingVersion::Submission2004] {
        let peer = peers::gsoap_wsa(version);
        for v in VERSIONS {
            let mode = AddressingMode::On(version);
            let e = client(&peer.url("/wrong-relates/no-session"), v, |b| {
                b.addressing(mode)
            })
            .echo("x".into())
            .await
            .unwrap_err();
            let Error::Header(h) = &e else {
                panic!("{version} {v}: {e:?}")
            };
            let HeaderErrorKind::RelatesTo {
                expected, found, ..
            } = &h.kind
            else {
                panic!("{e}")
            };
            assert!(expected.starts_with("urn:uuid:"), "{e}");
            assert_eq!(
                found.as_deref(),
                Some("urn:uuid:00000000-0000-4000-8000-000000000000"),
                "{e}"
            );
            let e = client(&peer.url("/no-relates/no-session"), v, |b| {
                b.addressing(mode)
            })
            .echo("x".into())
            .await
            .unwrap_err();
            assert!(
                matches!(&e, Error::Header(h) if matches!(&h.kind, HeaderErrorKind::RelatesTo { found: None, .. })),
                "{version} {v}: {e:?}"
            );
        }
    }
}

#[tokio::test]
async fn a_must_understand_response_header_fails_the_call_unless_the_caller_names_it() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let url = peer.url("/");
    for v in VERSIONS {
        let e = client(&url, v, |b| b).echo("x".into()).await.unwrap_err();
        let Error::Header(h) = &e else {
            panic!("{v}: {e:?}")
        };
        assert_eq!(
            h.kind,
            HeaderErrorKind::MustUnderstand {
                namespace: HEADERS_NS.to_owned(),
                local_name: "Session".to_owned(),
                role: None
            },
            "{v}"
        );
        assert!(
            e.to_string().contains("{urn:soapgen:wsa:headers}Session"),
            "{e}"
        );
        // Addressed, the client processes gSOAP's mustUnderstand wsa:Action; unaddressed, the
        // same block would be refused: switched off, the (fault) reply is reported as the fault.
        let r = client(&url, v, session_understood)
            .echo("y".into())
            .await
            .unwrap();
        assert_eq!(r.text, "y");
    }
}

#[tokio::test]
async fn typed_headers_per_client_and_per_call_and_the_response_headers_back() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let url = peer.url("/");
    let tenant = HeaderBlock::new("acme", Name::new(HEADERS_NS, "Tenant"))
        .unwrap()
        .must_understand(true);
    for v in VERSIONS {
        let c = client(&url, v, |b| {
            session_understood(b).soap_header(tenant.clone())
        });
        let locale = HeaderBlock::new("fr-CH", Name::new(HEADERS_NS, "Locale")).unwrap();
        let resp = c
            .with_soap_headers([locale])
            .echo("z".into())
            .with_response()
            .await
            .unwrap();
        assert_eq!(resp.value.tenant.as_deref(), Some("acme"), "{v}");
        assert_eq!(resp.value.locale.as_deref(), Some("fr-CH"), "{v}");
        assert_eq!(resp.status, 200);
        assert!(
            resp.http_header("content-type")
                .is_some_and(|t| t.contains(match v {
                    SoapVersion::Soap11 => "text/xml",
                    SoapVersion::Soap12 => "application/soap+xml",
                })),
            "{v}: {:?}",
            resp.http_headers
        );
        let session: Option<String> = resp.headers.get(Name::new(HEADERS_NS, "Session")).unwrap();
        assert_eq!(session.as_deref(), Some("session-acme"), "{v}");
        let s = resp.headers.find(Name::new(HEADERS_NS, "Session")).unwrap();
        assert!(s.must_understand, "{v}");
        let note = resp.headers.find(Name::new(HEADERS_NS, "Note")).unwrap();
        assert!(!note.must_understand);
        assert!(
            note.element.xml.contains(">from gSOAP</"),
            "{}",
            note.element.xml
        );
        let relates: Option<String> = resp.headers.get(Name::new(WSA_NS, "RelatesTo")).unwrap();
        assert_eq!(relates, resp.value.message_id, "{v}");
        let action: Option<String> = resp.headers.get(Name::new(WSA_NS, "Action")).unwrap();
        assert_eq!(
            action.as_deref(),
            Some("urn:soapgen:wsa:AddressedEcho:EchoResponse")
        );
        // The per-call block went with that call only.
        let r = c.echo("w".into()).await.unwrap();
        assert_eq!(r.locale, None, "{v}");
        assert_eq!(r.tenant.as_deref(), Some("acme"), "{v}");
    }
    let _ = WSA_2004_NS;
}

#[tokio::test]
async fn a_must_understand_request_block_the_server_does_not_know_is_refused_by_it() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let url = peer.url("/no-session");
    for v in VERSIONS {
        let unknown = HeaderBlock::new("?", Name::new(HEADERS_NS, "Unknown")).unwrap();
        // Not mustUnderstand: ignored by gSOAP.
        let r = client(&url, v, |b| b)
            .with_soap_headers([unknown.clone()])
            .echo("a".into())
            .await;
        assert!(r.is_ok(), "{v}: {r:?}");
        // mustUnderstand: a MustUnderstand fault (SOAP 1.1 §4.4.1, SOAP 1.2 Part 1 §5.4.8).
        let e = client(&url, v, |b| b)
            .with_soap_headers([unknown.clone().must_understand(true)])
            .echo("b".into())
            .await
            .unwrap_err();
        let f = e.fault().unwrap_or_else(|| panic!("{v}: {e}"));
        assert_eq!(f.code.local_name, "MustUnderstand", "{v}: {e}");
        // Targeted at no node (SOAP 1.2's role "none"): not processed, so no fault.
        if v == SoapVersion::Soap12 {
            let r = client(&url, v, |b| b)
                .with_soap_headers([unknown.must_understand(true).role(SOAP12_ROLE_NONE)])
                .echo("c".into())
                .await;
            assert!(r.is_ok(), "{v}: {r:?}");
        }
    }
}

/// WS-Security signs the addressing headers when its signer is asked to
/// (`X509Signer::sign_addressing`); xmlsec1 verifies the signature, whose references then cover
/// the four headers by their `wsu:Id` besides Timestamp and Body, and refuses a changed `wsa:To`.
#[test]
fn ws_security_signs_the_addressing_headers_when_asked() {
    use soapgen_runtime::wss::{WssConfig, X509Signer};
    use soapgen_tests::wss::{credential, echo_operation, text_envelope, ECHO_NS};
    use soapgen_tests::xmlsec::xmlsec1_verify;
    let pki = soapgen_tests::pki::test_pki();
    let cert = pki.path("client.pem");
    let cert = cert.to_str().unwrap();
    for version in [AddressingVersion::W3C, AddressingVersion::Submission2004] {
        for v in VERSIONS {
            let wss = WssConfig::new()
                .timestamp(std::time::Duration::from_secs(300))
                .sign(X509Signer::new(credential("client")).sign_addressing(version));
            let client = Client::builder("http://127.0.0.1:9/signed")
                .addressing(AddressingMode::On(version))
                .wss(wss)
                .build()
                .unwrap();
            let xml = text_envelope(&client, &echo_operation(v), &[("tns", ECHO_NS)], "signed");
            xmlsec1_verify(&xml, &["--pubkey-cert-pem", cert])
                .unwrap_or_else(|e| panic!("{version} {v}: xmlsec1 refused:\n{e}\n{xml}"));
            let doc = roxmltree::Document::parse(&xml).unwrap();
            let refs: Vec<&str> = doc
                .descendants()
                .filter(|n| n.has_tag_name(("http://www.w3.org/2000/09/xmldsig#", "Reference")))
                .filter_map(|n| n.attribute("URI"))
                .collect();
            assert_eq!(refs.len(), 6, "{version} {v}: {refs:?}");
            for local in AddressingVersion::REQUEST_HEADERS {
                let h = doc
                    .descendants()
                    .find(|n| n.has_tag_name((version.namespace(), local)))
                    .unwrap_or_else(|| panic!("no wsa:{local} in {xml}"));
                let id = h
                    .attribute((soapgen_runtime::wss::WSU_NS, "Id"))
                    .unwrap_or_else(|| panic!("wsa:{local} has no wsu:Id: {xml}"));
                assert!(
                    refs.contains(&format!("#{id}").as_str()),
                    "{local}: {refs:?}"
                );
            }
            let tampered = xml.replace("http://127.0.0.1:9/signed<", "http://127.0.0.1:9/other<");
            assert_ne!(tampered, xml);
            assert!(xmlsec1_verify(&tampered, &["--pubkey-cert-pem", cert]).is_err());
        }
    }
    // Asked to sign addressing headers that a request does not carry: an error, not less signed.
    let wss = WssConfig::new()
        .sign(X509Signer::new(credential("client")).sign_addressing(AddressingVersion::W3C));
    let client = Client::builder("http://127.0.0.1:9/")
        .wss(wss)
        .build()
        .unwrap();
    let request = soapgen_tests::wss::text_request(&client, &[("tns", ECHO_NS)], "Echo", "x");
    assert!(client
        .message(&echo_operation(SoapVersion::Soap11), &request)
        .is_err());
}

/// The blocking form: `with_response().wait(…)` on a private runtime, outside async code.
#[test]
fn with_response_blocking() {
    let rt = soapgen_runtime::blocking::BlockingRuntime::new().unwrap();
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let c = client(&peer.url("/"), SoapVersion::Soap12, session_understood);
    let resp = c.echo("blocking".into()).with_response().wait(&rt).unwrap();
    assert_eq!(resp.value.text, "blocking");
    let session: Option<String> = resp.headers.get(Name::new(HEADERS_NS, "Session")).unwrap();
    assert_eq!(session.as_deref(), Some("session-"));
    assert_eq!(resp.status, 200);
    // And the plain blocking call of the same client fails on the same header when not named.
    let e = client(&peer.url("/"), SoapVersion::Soap12, |b| b)
        .echo("x".into())
        .wait(&rt)
        .unwrap_err();
    assert!(matches!(e, Error::Header(_)), "{e:?}");
}

fn blocking_client(
    url: &str,
    version: SoapVersion,
    f: impl FnOnce(soapgen_runtime::ClientBuilder) -> soapgen_runtime::ClientBuilder,
) -> AddressedEchoBlockingClient {
    let c = f(Client::builder(url)).build().expect("client");
    AddressedEchoBlockingClient::from_client(c)
        .expect("blocking client")
        .with_soap_version(version)
}

/// The blocking client's `with_response`: the typed result, the peer's header blocks (its
/// `mustUnderstand` `h:Session`, the reply's `wsa:RelatesTo` and `wsa:Action`), the HTTP status
/// and header fields, in both SOAP versions.
#[test]
fn the_blocking_client_returns_the_response_headers_status_and_fields() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    for v in VERSIONS {
        let tenant = HeaderBlock::new("blk", Name::new(HEADERS_NS, "Tenant")).unwrap();
        let c = blocking_client(&peer.url("/"), v, |b| {
            session_understood(b).soap_header(tenant)
        });
        let resp = c.with_response(|c| c.echo("blocking".into())).unwrap();
        assert_eq!(resp.value.text, "blocking", "{v}");
        assert_eq!(resp.status, 200, "{v}");
        let session: Option<String> = resp.headers.get(Name::new(HEADERS_NS, "Session")).unwrap();
        assert_eq!(session.as_deref(), Some("session-blk"), "{v}");
        let relates: Option<String> = resp.headers.get(Name::new(WSA_NS, "RelatesTo")).unwrap();
        assert!(relates.is_some(), "{v}: {:?}", resp.headers);
        assert_eq!(relates, resp.value.message_id, "{v}");
        let action: Option<String> = resp.headers.get(Name::new(WSA_NS, "Action")).unwrap();
        assert_eq!(
            action.as_deref(),
            Some("urn:soapgen:wsa:AddressedEcho:EchoResponse"),
            "{v}"
        );
        assert!(
            resp.http_header("content-type")
                .is_some_and(|t| t.contains(match v {
                    SoapVersion::Soap11 => "text/xml",
                    SoapVersion::Soap12 => "application/soap+xml",
                })),
            "{v}: {:?}",
            resp.http_headers
        );
        // The same rules as the plain call: the unnamed mustUnderstand block fails it.
        let e = blocking_client(&peer.url("/"), v, |b| b)
            .with_response(|c| c.echo("x".into()))
            .unwrap_err();
        assert!(matches!(e, Error::Header(_)), "{v}: {e:?}");
    }
}

fn assert_blocking_in_async(e: &Error, url: &str) {
    let Error::Transport(t) = e else {
        panic!("{e:?}")
    };
    assert_eq!(t.kind, TransportErrorKind::BlockingInAsync, "{e}");
    assert_eq!(t.url, url);
    let text = e.to_string();
    assert!(text.contains(url), "{text}");
    assert!(text.contains("async client of its own"), "{text}");
    assert!(text.contains("spawn_blocking"), "{text}");
}

/// Inside an async runtime a blocking call is a typed error naming the endpoint, not tokio's
/// nested-`block_on` panic; dropping the client there does not panic
/// either. The async client, and a thread outside the runtime, still reach the same peer.
#[tokio::test]
async fn a_blocking_call_inside_an_async_runtime_is_a_typed_error() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let url = peer.url("/");
    for v in VERSIONS {
        let c = blocking_client(&url, v, session_understood);
        assert_blocking_in_async(&c.echo("x".into()).unwrap_err(), &url);
        assert_blocking_in_async(&c.with_response(|c| c.echo("x".into())).unwrap_err(), &url);
        // An async client (of its own: a pooled connection opened by one runtime is driven
        // by that runtime) works here.
        let r = client(&url, v, session_understood)
            .echo("async".into())
            .await
            .unwrap();
        assert_eq!(r.text, "async");
        // On a thread outside the runtime, the blocking call works.
        let moved = c.clone();
        let r = std::thread::spawn(move || moved.echo("thread".into()))
            .join()
            .unwrap()
            .unwrap();
        assert_eq!(r.text, "thread");
        drop(c);
    }
}

/// On a multi-threaded runtime too, and in `spawn_blocking` (tokio does not tell its blocking
/// threads from its workers, so the blocking client refuses there as well), where the advice of
/// the error, the async call run with `Handle::current().block_on`, works against the peer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_spawn_blocking_the_error_says_what_works() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let url = peer.url("/");
    let c = blocking_client(&url, SoapVersion::Soap12, session_understood);
    assert_blocking_in_async(&c.echo("x".into()).unwrap_err(), &url);
    let r = tokio::task::spawn_blocking(move || {
        let refused = c.echo("x".into()).unwrap_err();
        let done = tokio::runtime::Handle::current()
            .block_on(c.as_async().echo("in spawn_blocking".into()));
        (refused, done)
    })
    .await
    .unwrap();
    assert_blocking_in_async(&r.0, &url);
    assert_eq!(r.1.unwrap().text, "in spawn_blocking");
}

/// The reply's `wsa:Action` must be the operation's output action (here the default pattern,
/// `urn:soapgen:wsa:AddressedEcho:EchoResponse`, Metadata §4.4.4): the peer's `/wrong-action`
/// reply is the typed error, in both addressing versions and both SOAP versions, unless the
/// client switches the check off.
#[tokio::test]
async fn a_reply_with_another_action_is_a_typed_error_unless_switched_off() {
    for version in [AddressingVersion::W3C, AddressingVersion::Submission2004] {
        let peer = peers::gsoap_wsa(version);
        let url = peer.url("/wrong-action/no-session");
        let mode = AddressingMode::On(version);
        for v in VERSIONS {
            let e = client(&url, v, |b| b.addressing(mode))
                .echo("x".into())
                .await
                .unwrap_err();
            let Error::Header(h) = &e else {
                panic!("{version} {v}: {e:?}")
            };
            assert_eq!(
                h.kind,
                HeaderErrorKind::Action {
                    expected: "urn:soapgen:wsa:AddressedEcho:EchoResponse".to_owned(),
                    found: Some("urn:soapgen:wsa:AddressedEcho:OtherResponse".to_owned()),
                    version,
                },
                "{version} {v}"
            );
            assert!(e.to_string().contains("check_reply_action(false)"), "{e}");
            let r = client(&url, v, |b| {
                b.addressing(Addressing::from(mode).check_reply_action(false))
            })
            .echo("accepted".into())
            .await
            .unwrap_or_else(|e| panic!("{version} {v}: {e}"));
            assert_eq!(r.text, "accepted");
            // The right action passes the check.
            let r = client(&peer.url("/no-session"), v, |b| b.addressing(mode))
                .echo("right".into())
                .await
                .unwrap_or_else(|e| panic!("{version} {v}: {e}"));
            assert_eq!(r.text, "right");
        }
    }
}

/// A fault of an addressed call carries its `wsa:Action`: gSOAP's plugin gives its own faults
/// SOAP Binding §6's `…/soap/fault` (the submission's `…/fault`), and the peer's
/// `/refuse-declared` fault the WSDL fault's action.
#[tokio::test]
async fn faults_carry_their_wsa_action() {
    for version in [AddressingVersion::W3C, AddressingVersion::Submission2004] {
        let peer = peers::gsoap_wsa(version);
        let mode = AddressingMode::On(version);
        for v in VERSIONS {
            let e = client(&peer.url("/refuse"), v, |b| b.addressing(mode))
                .echo("x".into())
                .await
                .unwrap_err();
            let f = e.fault().unwrap_or_else(|| panic!("{version} {v}: {e:?}"));
            assert!(f.reason.contains("refused as asked"), "{f}");
            let action = f.action.as_deref().expect("the fault's wsa:Action");
            assert!(
                version.fault_actions().contains(&action),
                "{version} {v}: {action}"
            );
            let e = client(&peer.url("/refuse-declared"), v, |b| b.addressing(mode))
                .echo("x".into())
                .await
                .unwrap_err();
            let f = e.fault().unwrap_or_else(|| panic!("{version} {v}: {e:?}"));
            assert_eq!(
                f.action.as_deref(),
                Some("urn:soapgen:wsa:AddressedEcho:Echo:Fault:Refused"),
                "{version} {v}"
            );
        }
    }
    // Unaddressed, a fault has no action to report (the peer then refuses for the headers).
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    let e = client(&peer.url("/"), SoapVersion::Soap11, |b| {
        b.addressing(AddressingMode::Off)
    })
    .echo("x".into())
    .await
    .unwrap_err();
    assert_eq!(e.fault().map(|f| f.action.clone()), Some(None), "{e:?}");
}

/// Waits (at most 10 s) until `listener` received a request, and returns it.
fn relayed(listener: &soapgen_tests::canned::Canned) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let got = listener.last_request();
        if !got.is_empty() || std::time::Instant::now() > deadline {
            return got;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn accepting_listener() -> soapgen_tests::canned::Canned {
    soapgen_tests::canned::serve(soapgen_tests::canned::Behaviour::Raw(
        soapgen_tests::canned::http(202, "text/xml", b""),
    ))
}

/// A non-anonymous `wsa:FaultTo` set by the caller: gSOAP's plugin relays its fault there (a
/// POST of the fault envelope, related to the request) and answers the call with an empty 202,
/// which the call reports as `Error::Http` naming the FaultTo. Replies still come back.
#[tokio::test]
async fn a_fault_to_address_gets_the_fault() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    for v in VERSIONS {
        let listener = accepting_listener();
        let sink = format!("{}faults", listener.url().trim_end_matches("soap"));
        let e = client(&peer.url("/refuse"), v, |b| {
            b.addressing(Addressing::new().fault_to(&sink))
        })
        .echo("x".into())
        .await
        .unwrap_err();
        assert_eq!(e.status(), Some(202), "{v}: {e:?}");
        assert!(e.to_string().contains(&sink), "{e}");
        let got = relayed(&listener);
        assert!(got.contains("refused as asked"), "{v}: {got}");
        assert!(got.contains("RelatesTo"), "{v}: {got}");
        assert!(
            got.contains(&sink),
            "{v}: wsa:To of the relayed fault: {got}"
        );
        // With the same FaultTo, a call that succeeds gets its reply on the HTTP response.
        let r = client(&peer.url("/no-session"), v, |b| {
            b.addressing(Addressing::new().fault_to(&sink))
        })
        .echo("replied".into())
        .await
        .unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(r.text, "replied");
    }
}

/// A non-anonymous `wsa:ReplyTo` set by the caller: the peer's plugin relays the reply there
/// and answers the call with an empty 202 (`Error::Http` naming the ReplyTo).
#[tokio::test]
async fn a_reply_to_address_gets_the_reply() {
    let peer = peers::gsoap_wsa(AddressingVersion::W3C);
    for v in VERSIONS {
        let listener = accepting_listener();
        let sink = format!("{}replies", listener.url().trim_end_matches("soap"));
        let e = client(&peer.url("/relay/no-session"), v, |b| {
            b.addressing(Addressing::new().reply_to(&sink))
        })
        .echo("relayed".into())
        .await
        .unwrap_err();
        assert_eq!(e.status(), Some(202), "{v}: {e:?}");
        assert!(e.to_string().contains(&sink), "{e}");
        let got = relayed(&listener);
        assert!(got.contains(">relayed<"), "{v}: {got}");
        assert!(got.contains(&format!(">{sink}<")), "{v}: {got}");
        assert!(got.contains("RelatesTo"), "{v}: {got}");
    }
    // Not an absolute IRI: refused when the client is built.
    for bad in ["replies", "http://a b/"] {
        let e = Client::builder(peer.url("/"))
            .addressing(Addressing::new().reply_to(bad))
            .build()
            .unwrap_err();
        assert!(matches!(e, Error::Encode(_)), "{bad}: {e:?}");
        assert!(e.to_string().contains("wsa:ReplyTo"), "{e}");
        let e = Client::builder(peer.url("/"))
            .addressing(Addressing::new().fault_to(bad))
            .build()
            .unwrap_err();
        assert!(e.to_string().contains("wsa:FaultTo"), "{e}");
    }
}
