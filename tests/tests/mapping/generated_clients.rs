//! End to end through the WSDL route: clients generated at build time (tests/build.rs) from the WSDLs
//! the real peers publish, calling them on loopback.
//!
//! - spyne: its own `?wsdl` for SOAP 1.1 and 1.2 (checked in as captured; this test fetches the live
//!   one and compares), every operation.
//! - gSOAP: a server built by wsdl2h/soapcpp2 from the real-world GlobalWeather WSDL, which it also
//!   publishes at `?wsdl`; both operations over SOAP 1.1 and 1.2.

use std::io::{Read, Write};
use std::net::TcpStream;

use soapgen_runtime::types::{Base64Binary, Integer, Nillable, OptionalNillable};
use soapgen_tests::peers;

mod spyne11 {
    soapgen_runtime::include_client!("spyne11");
}
mod spyne12 {
    soapgen_runtime::include_client!("spyne12");
}
pub(crate) mod globalweather {
    soapgen_runtime::include_client!("globalweather");
}

/// A plain HTTP GET on loopback (the document a client would fetch).
fn http_get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let body = out
        .split_once("\r\n\r\n")
        .map(|(_, b)| b)
        .unwrap_or_default();
    body.to_owned()
}

/// The WSDL with `location="…"` addresses (which carry the port) blanked.
fn without_addresses(wsdl: &str) -> String {
    let mut out = String::new();
    let mut rest = wsdl;
    while let Some(i) = rest.find("location=\"") {
        out.push_str(&rest[..i + 10]);
        let after = &rest[i + 10..];
        let end = after.find('"').unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn checked_in_wsdls_are_what_the_peers_publish() {
    let spyne = peers::spyne();
    for v in ["11", "12"] {
        let live = http_get(&spyne.addr(), &format!("/soap{v}?wsdl"));
        let kept = std::fs::read_to_string(format!(
            "{}/peers/captures/spyne/soap{v}.wsdl",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap();
        assert_eq!(
            without_addresses(live.trim()),
            without_addresses(kept.trim()),
            "spyne soap{v} WSDL changed"
        );
    }
    let gw = peers::globalweather();
    let live = http_get(&gw.addr(), "/globalweather.asmx?WSDL");
    let kept = std::fs::read_to_string(format!(
        "{}/../examples/wsdl/globalweather.wsdl",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    assert_eq!(
        without_addresses(live.trim()),
        without_addresses(kept.trim()),
        "GlobalWeather WSDL served by gSOAP differs"
    );
}

macro_rules! spyne_every_operation {
    ($m:ident, $client:ident, $path:literal) => {{
        use $m::types::{Address, Person, StringArray};
        let peer = peers::spyne();
        let c = $m::$client::new(peer.url($path)).unwrap();
        let v = |s: &str| OptionalNillable::from(s);
        let hello = c
            .say_hello(v("World"), Integer::from(2).into())
            .await
            .unwrap();
        assert_eq!(
            hello,
            OptionalNillable::Value(StringArray {
                string: vec![Nillable::Value("Hello, World".into()); 2]
            })
        );
        let person = Person {
            name: "Ada & <Co> ✓".into(),
            age: Integer::from(36).into(),
            nickname: OptionalNillable::Nil,
            emails: vec!["a@x".into(), "b@x".into()],
            address: OptionalNillable::Value(Address {
                street: v("1 St"),
                city: v("London"),
            }),
            balance: OptionalNillable::Value("-12.50".parse().unwrap()),
            tags: OptionalNillable::Value(StringArray {
                string: vec!["x".into()],
            }),
        };
        let back = c.echo_person(person.clone().into()).await.unwrap();
        assert_eq!(back, OptionalNillable::Value(person));
        let data = Base64Binary::from((0u8..=255).collect::<Vec<u8>>());
        let back = c.echo_bytes(data.clone().into()).await.unwrap();
        assert_eq!(back, OptionalNillable::Value(data));
        // Six parameters: the method takes the request wrapper's struct, built with what the
        // call sets and `Default` for the rest (all six are optional in spyne's schema).
        let trader = c
            .register_trader($m::types::RegisterTrader {
                country: v("DE"),
                vat_number: v("123456789"),
                employees: Integer::from(12).into(),
                trader: true.into(),
                ..Default::default()
            })
            .await
            .unwrap();
        assert_eq!(trader, v("DE|123456789|-|12|true|-"));
        let e = c.raise_fault(v("E7")).await.unwrap_err();
        assert_eq!(
            e.fault().map(|f| f.reason.as_str()),
            Some("invalid input: E7"),
            "{e}"
        );
    }};
}

#[tokio::test]
async fn spyne_wsdl_client_soap11() {
    spyne_every_operation!(spyne11, TestServiceClient, "/soap11");
}

#[tokio::test]
async fn spyne_wsdl_client_soap12() {
    spyne_every_operation!(spyne12, TestServiceClient, "/soap12");
}

#[tokio::test]
async fn globalweather_wsdl_client_against_gsoap() {
    let peer = peers::globalweather();
    let url = peer.url("/globalweather.asmx");
    let c11 = globalweather::GlobalWeatherClient::new(url.clone()).unwrap();
    let c12 = globalweather::GlobalWeatherClient::soap12(url).unwrap();
    let w = c11.get_weather(Some("Sydney".into())).await.unwrap();
    assert_eq!(w.status_code, "200");
    assert!(
        w.get_weather_result.contains("<Status>Success</Status>"),
        "{}",
        w.get_weather_result
    );
    let w12 = c12.get_weather(Some("Sydney".into())).await.unwrap();
    assert_eq!(w12, w);
    let missing = c11.get_weather(Some("Atlantis".into())).await.unwrap();
    assert_eq!(missing.get_weather_result, "Data Not Found");
    let cities = c12
        .get_cities_by_country(Some("Australia".into()))
        .await
        .unwrap()
        .unwrap();
    assert!(
        cities.contains("<City>Sydney Airport</City>") || cities.contains("Sydney"),
        "{cities}"
    );
    let blocking = std::thread::spawn({
        let url = peer.url("/globalweather.asmx");
        move || {
            globalweather::GlobalWeatherBlockingClient::new(url)
                .unwrap()
                .get_cities_by_country(Some("Australia".into()))
                .unwrap()
        }
    })
    .join()
    .unwrap();
    assert_eq!(blocking.as_deref(), Some(cities.as_str()));
}

mod echo {
    soapgen_runtime::include_client!("echo");
}

#[tokio::test]
async fn declared_faults_arrive_as_typed_detail_from_gsoap() {
    // tests/peers/gsoap/echo.wsdl declares `fail`'s fault message with a FailDetail element; the
    // generated method's error carries it decoded.
    let peer = peers::gsoap();
    let c11 = echo::EchoServiceClient::new(peer.url("/")).unwrap();
    let c12 = echo::EchoServiceClient::soap12(peer.url("/")).unwrap();
    for (e, status) in [
        (c11.fail("bad input".into()).await.unwrap_err(), 500),
        (c12.fail("bad input".into()).await.unwrap_err(), 400),
    ] {
        assert_eq!(e.fault().and_then(|f| f.http_status), Some(status), "{e}");
        match e.detail {
            Some(echo::types::FailFaults::FailFault(d)) => {
                assert_eq!((d.reason.as_str(), d.code), ("bad input", 42));
            }
            other => panic!("expected the typed FailDetail, got {other:?} ({})", e.error),
        }
    }
    let auth = echo::types::Auth {
        user: "bob".into(),
        token: "t".into(),
    };
    let c12 = c12.with_header(echo::EchoServiceClient::AUTH_HEADER, &auth);
    assert_eq!(c12.whoami().await.unwrap(), "bob/t");
    assert_eq!(c11.echo("round trip".into()).await.unwrap(), "round trip");
}

/// A request header the WSDL declares (`whoami`'s `soap:header` Auth) is set on the client, not
/// passed positionally: set on a shared client it goes with every call; set again for one call
/// it replaces the shared value for that call alone, and exactly one Auth block travels.
#[tokio::test]
async fn a_declared_request_header_set_per_client_is_replaced_per_call() {
    use soapgen_tests::recording::Recording;
    use std::sync::Arc;
    const AUTH: soapgen_runtime::header::DeclaredHeader<echo::types::Auth> =
        echo::EchoServiceClient::AUTH_HEADER;
    let peer = peers::gsoap();
    let rec = Arc::new(Recording::new());
    let client = soapgen_runtime::Client::builder(peer.url("/"))
        .transport(rec.clone())
        .build()
        .unwrap();
    let auth = |user: &str| echo::types::Auth {
        user: user.into(),
        token: "t".into(),
    };
    let shared = echo::EchoServiceClient::from_client(client).with_header(AUTH, &auth("alice"));
    assert_eq!(shared.whoami().await.unwrap(), "alice/t");
    assert_eq!(
        shared
            .with_header(AUTH, &auth("bob"))
            .whoami()
            .await
            .unwrap(),
        "bob/t"
    );
    assert_eq!(shared.whoami().await.unwrap(), "alice/t");
    let sent = rec.exchanges();
    assert_eq!(sent.len(), 3);
    for (x, user) in sent.iter().zip(["alice", "bob", "alice"]) {
        assert_eq!(x.request.matches(":Auth>").count(), 1, "{}", x.request);
        assert!(x.request.contains(&format!(">{user}<")), "{}", x.request);
    }
    // Without the header the peer says so: nothing is sent that was not set.
    let bare = echo::EchoServiceClient::new(peer.url("/")).unwrap();
    let e = bare.whoami().await.unwrap_err();
    assert!(
        e.fault()
            .is_some_and(|f| f.reason.contains("missing Auth header")),
        "{e}"
    );
}

/// What an application writes against the generated trait: it takes any `EchoService`, so a test
/// passes a plain Rust fake (no socket, no XML) where production passes the client.
async fn shout_unless_refused<S: echo::EchoService>(svc: &S, text: &str) -> String {
    use echo::types::FailFaults;
    match svc.fail(text.to_owned()).await {
        Ok(()) => match svc.echo(text.to_uppercase()).await {
            Ok(s) => s,
            Err(e) => format!("error: {e}"),
        },
        Err(e) => match e.detail {
            Some(FailFaults::FailFault(d)) => format!("refused ({}): {}", d.code, d.reason),
            None => format!("error: {}", e.error),
        },
    }
}

/// The fake of that test: one `impl` of the generated trait, the typed results and the typed
/// declared fault built directly (`FaultError::declared`, `Fault::sender`).
struct FakeEcho;

impl echo::EchoService for FakeEcho {
    async fn echo(&self, text: String) -> Result<String, soapgen_runtime::Error> {
        Ok(text)
    }
    async fn fail(
        &self,
        reason: String,
    ) -> Result<(), soapgen_runtime::FaultError<echo::types::FailFaults>> {
        if reason == "fine" {
            return Ok(());
        }
        let detail = echo::types::FailDetail { reason, code: 7 };
        Err(soapgen_runtime::FaultError::declared(
            soapgen_runtime::fault::Fault::sender(soapgen_runtime::SoapVersion::Soap11, "no"),
            echo::types::FailFaults::FailFault(detail),
        ))
    }
    async fn whoami(&self) -> Result<String, soapgen_runtime::Error> {
        Err(
            soapgen_runtime::fault::Fault::receiver(soapgen_runtime::SoapVersion::Soap11, "nobody")
                .into(),
        )
    }
}

/// App code written against the generated trait runs on a plain fake in a test, both ways (a
/// result, a typed declared fault), and unchanged on the generated client against gSOAP, whose
/// `fail` always answers with its declared FailFault (code 42).
#[tokio::test]
async fn app_code_against_the_trait_runs_on_a_plain_fake_and_on_the_client() {
    use echo::EchoService;
    assert_eq!(shout_unless_refused(&FakeEcho, "fine").await, "FINE");
    assert_eq!(
        shout_unless_refused(&FakeEcho, "bad").await,
        "refused (7): bad"
    );
    let e = FakeEcho.whoami().await.unwrap_err();
    assert!(
        e.fault()
            .is_some_and(|f| f.is_receiver() && f.reason == "nobody"),
        "{e}"
    );
    let peer = peers::gsoap();
    let client = echo::EchoServiceClient::new(peer.url("/")).unwrap();
    assert_eq!(
        shout_unless_refused(&client, "bad").await,
        "refused (42): bad"
    );
}

/// The failures a caller must survive, scripted (`testing::Scripted`) and run through the
/// client's real message path in both SOAP versions: a declared fault whose detail arrives
/// typed, an HTTP 503, a dropped connection, a slow answer within and beyond the deadline.
#[tokio::test]
async fn scripted_faults_statuses_drops_and_delays_reach_the_caller_typed() {
    use soapgen_runtime::testing::{Answer, Scripted};
    use soapgen_runtime::xml::Name;
    use soapgen_runtime::SoapVersion;
    use std::sync::Arc;
    use std::time::Duration;
    let detail = echo::types::FailDetail {
        reason: "scripted <&>".into(),
        code: 9,
    };
    let fail_detail = Name::new("urn:soapgen:gsoap", "FailDetail");
    for (version, sender_status) in [(SoapVersion::Soap11, 500), (SoapVersion::Soap12, 400)] {
        let script = Arc::new(
            Scripted::new()
                .then(Answer::declared_fault("refused", &detail, fail_detail).unwrap())
                .then(Answer::Status(503))
                .then(Answer::Dropped)
                .then(Answer::receiver_fault("slow").after(Duration::from_millis(20)))
                .then(Answer::receiver_fault("too slow").after(Duration::from_secs(5))),
        );
        let client = soapgen_runtime::Client::builder("http://127.0.0.1:9/echo")
            .transport(script.clone())
            .timeout(Duration::from_millis(500))
            .build()
            .unwrap();
        let c = echo::EchoServiceClient::from_client(client).with_soap_version(version);
        let e = c.fail("x".into()).await.unwrap_err();
        match &e.detail {
            Some(echo::types::FailFaults::FailFault(d)) => assert_eq!(d, &detail, "{version}"),
            other => panic!("{version}: {other:?} ({e})"),
        }
        let f = e.fault().unwrap();
        assert!(f.is_sender() && f.reason == "refused", "{version}: {f:?}");
        assert_eq!((f.version, f.http_status), (version, Some(sender_status)));
        let e = c.echo("a".into()).await.unwrap_err();
        assert_eq!(e.status(), Some(503), "{version}: {e}");
        let e = c.echo("b".into()).await.unwrap_err();
        assert!(e.is_connect(), "{version}: {e}");
        let e = c.echo("c".into()).await.unwrap_err();
        assert!(
            e.fault()
                .is_some_and(|f| f.is_receiver() && f.reason == "slow"),
            "{e}"
        );
        let e = c.echo("d".into()).await.unwrap_err();
        assert!(e.is_timeout(), "{version}: {e}");
        assert_eq!(script.remaining(), 0);
        let e = c.echo("e".into()).await.unwrap_err();
        assert!(e.to_string().contains("script is used up"), "{e}");
    }
}

/// tests/peers/gsoap/echo.wsdl binds one portType with a SOAP 1.1 and a SOAP 1.2 binding: the
/// generator merges them into one client type, and that type calls the live gSOAP server in both
/// versions (gSOAP answers in the version of the request, so the fault's version and HTTP status
/// show which one was sent: SOAP 1.1 §6.2 uses 500, SOAP 1.2 Part 2 §7.5.2.2 uses 400 for Sender).
#[test]
fn one_client_type_calls_both_soap_versions_of_the_wsdl() {
    use soapgen_runtime::SoapVersion;
    assert_eq!(
        echo::EchoServiceClient::SOAP_VERSIONS,
        [SoapVersion::Soap11, SoapVersion::Soap12]
    );
    let peer = peers::gsoap();
    let url = peer.url("/");
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let clients = [
                echo::EchoServiceClient::new(url.clone()).unwrap(),
                echo::EchoServiceClient::soap12(url.clone()).unwrap(),
                echo::EchoServiceClient::new(url.clone())
                    .unwrap()
                    .with_soap_version(SoapVersion::Soap12),
            ];
            for (c, version, status) in [
                (&clients[0], SoapVersion::Soap11, 500),
                (&clients[1], SoapVersion::Soap12, 400),
                (&clients[2], SoapVersion::Soap12, 400),
            ] {
                assert_eq!(c.soap_version(), version);
                assert_eq!(c.echo("both ways".into()).await.unwrap(), "both ways");
                let e = c.fail("why".into()).await.unwrap_err();
                let f = e
                    .fault()
                    .unwrap_or_else(|| panic!("expected a fault, got {e}"));
                assert_eq!((f.version, f.http_status), (version, Some(status)), "{f}");
            }
        });
        // The blocking twin, both versions, through the same type.
        for (c, version) in [
            (
                echo::EchoServiceBlockingClient::new(url.clone()).unwrap(),
                SoapVersion::Soap11,
            ),
            (
                echo::EchoServiceBlockingClient::soap12(url.clone()).unwrap(),
                SoapVersion::Soap12,
            ),
        ] {
            assert_eq!(c.echo("blocking".into()).unwrap(), "blocking");
            let e = c.fail("why".into()).unwrap_err();
            assert_eq!(e.fault().map(|f| f.version), Some(version), "{e}");
        }
    })
    .join()
    .unwrap();
}
