//! The in-process fake (`#[soap_client(fake)]`, `Builder::fake`): generated clients call a Rust
//! implementation of their own service trait through the whole message path on both sides (the
//! client's writer and reader, the fake's reader and writer), with typed results, typed declared
//! faults in the request's SOAP version, header parameters, one-way and empty requests, and
//! requests the service does not take answered as faults.

use soapgen_runtime::{soap_client, Error, FaultError, FromXml, SoapVersion, ToXml};

mod echo {
    soapgen_runtime::include_client!("echo");
}
mod kinds {
    soapgen_runtime::include_client!("kinds");
}
mod weather {
    soapgen_runtime::include_client!("globalweather");
}

use echo::types::{FailDetail, FailFaults};

/// The echo service, written as its users' code would be: echoes, refuses `fail` with the
/// declared fault, and says who is calling.
struct EchoFake;

impl echo::EchoService for EchoFake {
    async fn echo(&self, text: String) -> Result<String, Error> {
        Ok(format!("{text}!"))
    }

    async fn fail(&self, reason: String) -> Result<(), FaultError<FailFaults>> {
        let fault =
            soapgen_runtime::fault::Fault::sender(SoapVersion::Soap11, format!("no: {reason}"));
        let detail = FailDetail::new(reason, 7);
        Err(FaultError::declared(fault, FailFaults::FailFault(detail)))
    }

    async fn whoami(&self) -> Result<String, Error> {
        Ok("fake".into())
    }
}

#[tokio::test]
async fn a_generated_client_calls_its_fake_in_both_soap_versions() {
    for (version, status) in [(SoapVersion::Soap11, 500), (SoapVersion::Soap12, 400)] {
        let c = echo::EchoServiceClient::fake(EchoFake).with_soap_version(version);
        for text in ["hello", "", "ünïcödé ✓ & <markup> ]]>", "line\nbreaks\r\n"] {
            assert_eq!(c.echo(text.into()).await.unwrap(), format!("{text}!"));
        }
        assert_eq!(c.whoami().await.unwrap(), "fake");
        let e = c.fail("bad input".into()).await.unwrap_err();
        match &e.detail {
            Some(FailFaults::FailFault(d)) => {
                assert_eq!(d, &FailDetail::new("bad input".into(), 7), "{version}")
            }
            None => panic!("{version}: no typed detail: {e:?}"),
        }
        // The fault the implementation built for SOAP 1.1 goes out in the request's version.
        let f = e.fault().unwrap();
        assert!(
            f.is_sender() && f.reason == "no: bad input",
            "{version}: {f:?}"
        );
        assert_eq!((f.version, f.http_status), (version, Some(status)));
    }
}

#[tokio::test]
async fn a_request_the_service_does_not_take_is_answered_with_a_sender_fault() {
    // GlobalWeather's client sent to the echo service's fake.
    let transport = echo::EchoServiceClient::fake_transport(EchoFake);
    let client = soapgen_runtime::Client::builder(soapgen_runtime::testing::IN_PROCESS_ENDPOINT)
        .transport(transport)
        .build()
        .unwrap();
    let c = weather::GlobalWeatherClient::from_client(client);
    let e = c
        .get_cities_by_country(Some("Chile".into()))
        .await
        .unwrap_err();
    let f = e.fault().unwrap_or_else(|| panic!("{e}"));
    assert!(f.is_sender(), "{f:?}");
    assert!(
        f.reason.contains(
            "no operation of the service takes {http://www.webserviceX.NET}GetCitiesByCountry"
        ) && f.reason.contains("{urn:soapgen:gsoap}echo"),
        "{}",
        f.reason
    );
}

/// The kinds service echoing every value back.
struct Mirror;

macro_rules! mirror {
    ($($method:ident: $ty:ident),* $(,)?) => {
        impl kinds::Kinds for Mirror {
            $(
                async fn $method(&self, v: kinds::types::$ty) -> Result<kinds::types::$ty, Error> {
                    Ok(v)
                }
            )*
        }

        /// Arbitrary values of every kind (a fixed seed) come back from the fake equal: the
        /// client's writer, the fake's reader, the fake's writer and the client's reader agree
        /// on substitution groups, derivations, lists, unions, nils, defaults, wildcards, mixed
        /// content and names.
        #[tokio::test]
        async fn arbitrary_values_of_every_kind_round_trip_through_the_fake() {
            use proptest::test_runner::{RngAlgorithm, TestRng};
            use soapgen_runtime::arbitrary::{ArbitraryXml, Gen};
            let c = kinds::KindsClient::fake(Mirror);
            let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
            for case in 0..32 {
                $(
                    let v = kinds::types::$ty::arbitrary_xml(&mut Gen::new(&mut rng));
                    match c.$method(v.clone()).await {
                        Ok(back) => assert_eq!(back, v, "case {case}: {}", stringify!($method)),
                        Err(e) => panic!("case {case}: {} of {v:?}: {e}", stringify!($method)),
                    }
                )*
            }
        }
    };
}

mirror! {
    echo_subst_seq: SubstSeq,
    echo_subst_all: SubstAll,
    echo_subst_many: SubstMany,
    echo_derived: Derived,
    echo_simple: Simple,
    echo_nils: Nils,
    echo_defaults: Defaults,
    echo_open: Open,
    echo_mixed: Mixed,
    echo_anything: Anything,
    echo_names: Names,
}

/// A header block of the hand-written service.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:ledger")]
pub struct Auth {
    pub user: String,
}

/// A service without a WSDL, with header parameters (required and optional), a repeated
/// result, a one-way operation and an empty request.
#[soap_client(namespace = "urn:soapgen:ledger", soap = "1.1, 1.2", fake)]
pub trait Ledger {
    async fn post(
        &self,
        #[soap(header)] auth: Auth,
        #[soap(header)] trace: Option<String>,
        amounts: Vec<i64>,
        memo: Option<String>,
    ) -> Result<Vec<String>, Error>;

    #[soap(one_way)]
    async fn ping(&self, n: i32) -> Result<(), Error>;

    #[soap(empty_request)]
    async fn total(&self) -> Result<i64, Error>;

    /// A header that may be absent, nil or a value (XML Schema Part 1 §2.6.2).
    async fn tag(
        &self,
        #[soap(header)] label: soapgen_runtime::OptionalNillable<String>,
    ) -> Result<String, Error>;
}

/// Shared between the test and the fake: cloned into the client, its pings seen by both.
#[derive(Default, Clone)]
struct Books {
    pings: std::sync::Arc<std::sync::Mutex<Vec<i32>>>,
}

impl Ledger for Books {
    async fn post(
        &self,
        auth: Auth,
        trace: Option<String>,
        amounts: Vec<i64>,
        memo: Option<String>,
    ) -> Result<Vec<String>, Error> {
        let mut out = vec![
            auth.user,
            trace.unwrap_or_default(),
            memo.unwrap_or_default(),
        ];
        out.extend(amounts.iter().map(i64::to_string));
        Ok(out)
    }

    async fn ping(&self, n: i32) -> Result<(), Error> {
        self.pings.lock().unwrap().push(n);
        Ok(())
    }

    async fn total(&self) -> Result<i64, Error> {
        Ok(-42)
    }

    async fn tag(&self, label: soapgen_runtime::OptionalNillable<String>) -> Result<String, Error> {
        Ok(format!("{label:?}"))
    }
}

#[tokio::test]
async fn header_parameters_one_way_and_empty_requests_reach_the_fake() {
    let books = Books::default();
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let c = LedgerClient::fake(books.clone()).with_soap_version(version);
        let auth = Auth { user: "ana".into() };
        let got = c
            .post(auth.clone(), Some("t-1".into()), vec![5, -3], None)
            .await
            .unwrap();
        assert_eq!(got, ["ana", "t-1", "", "5", "-3"]);
        let got = c.post(auth, None, vec![], Some("m".into())).await.unwrap();
        assert_eq!(got, ["ana", "", "m"]);
        c.ping(9).await.unwrap();
        assert_eq!(c.total().await.unwrap(), -42);
        use soapgen_runtime::OptionalNillable as On;
        for label in [On::Absent, On::Nil, On::Value("x <y>".to_owned())] {
            assert_eq!(c.tag(label.clone()).await.unwrap(), format!("{label:?}"));
        }
    }
    assert_eq!(*books.pings.lock().unwrap(), [9, 9]);
}

/// The same service without the required header: the trait cannot be called, and the fake
/// answers as a service does, with a `Sender` fault naming the block.
#[soap_client(
    namespace = "urn:soapgen:ledger",
    soap = "1.1, 1.2",
    client = "AnonymousClient"
)]
pub trait Anonymous {
    async fn post(
        &self,
        #[soap(header)] trace: Option<String>,
        amounts: Vec<i64>,
        memo: Option<String>,
    ) -> Result<Vec<String>, Error>;
}

#[tokio::test]
async fn a_missing_required_header_is_a_sender_fault() {
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let client =
            soapgen_runtime::Client::builder(soapgen_runtime::testing::IN_PROCESS_ENDPOINT)
                .transport(LedgerClient::fake_transport(Books::default()))
                .build()
                .unwrap();
        let c = AnonymousClient::from_client(client).with_soap_version(version);
        let e = c.post(None, vec![1], None).await.unwrap_err();
        let f = e.fault().unwrap_or_else(|| panic!("{e}"));
        assert!(f.is_sender() && f.version == version, "{f:?}");
        assert!(
            f.reason
                .contains("lacks the header block {urn:soapgen:ledger}auth"),
            "{}",
            f.reason
        );
    }
}

/// A fake implements what its test calls: the other methods answer with a `Receiver` fault
/// naming them.
#[tokio::test]
async fn a_fake_implements_only_the_operations_its_test_calls() {
    struct OnlyTotal;
    impl Ledger for OnlyTotal {
        async fn total(&self) -> Result<i64, Error> {
            Ok(1)
        }
    }
    let c = LedgerClient::fake(OnlyTotal);
    assert_eq!(c.total().await.unwrap(), 1);
    let auth = Auth { user: "ana".into() };
    let e = c.post(auth, None, vec![], None).await.unwrap_err();
    let f = e.fault().unwrap_or_else(|| panic!("{e}"));
    assert!(f.is_receiver(), "{f:?}");
    assert_eq!(f.reason, "the fake service does not implement `post`");
}

/// rpc/literal (WSDL 1.1 §3.5): the parts are unqualified children of the operation element,
/// the result an unqualified part of `{op}Response`.
#[soap_client(namespace = "urn:soapgen:calc", style = "rpc", soap = "1.1, 1.2", fake)]
pub trait Calc {
    #[soap(result = "sum")]
    async fn add(&self, a: i32, b: Option<i32>, rest: Vec<i32>) -> Result<i64, Error>;
}

#[tokio::test]
async fn rpc_literal_parts_reach_the_fake() {
    struct Adder;
    impl Calc for Adder {
        async fn add(&self, a: i32, b: Option<i32>, rest: Vec<i32>) -> Result<i64, Error> {
            let sum: i64 = rest.iter().map(|&x| i64::from(x)).sum();
            Ok(i64::from(a) + i64::from(b.unwrap_or(1000)) + sum)
        }
    }
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let c = CalcClient::fake(Adder).with_soap_version(version);
        assert_eq!(c.add(1, Some(2), vec![3, 4]).await.unwrap(), 10);
        assert_eq!(c.add(i32::MAX, None, vec![]).await.unwrap(), 2_147_484_647);
    }
}

mod mtom {
    soapgen_runtime::include_client!("mtom");
}

/// A transport that notes each request's Content-Type and its response's, and passes it on.
#[derive(Debug)]
struct Spy(
    std::sync::Arc<dyn soapgen_runtime::transport::Transport>,
    std::sync::Mutex<Vec<String>>,
);

impl soapgen_runtime::transport::Transport for Spy {
    fn send(
        &self,
        request: soapgen_runtime::transport::HttpRequest,
    ) -> soapgen_runtime::transport::TransportFuture<'_> {
        let ct = request
            .header("content-type")
            .unwrap_or_default()
            .to_owned();
        self.1.lock().unwrap().push(ct);
        let response = self.0.send(request);
        Box::pin(async move {
            let r = response.await;
            if let Ok(r) = &r {
                let ct = format!("response: {}", r.content_type().unwrap_or_default());
                self.1.lock().unwrap().push(ct);
            }
            r
        })
    }
}

/// An MTOM request (SOAP MTOM §3: the binary in a MIME part, `xop:Include` in the envelope) is
/// read by the fake with its attachment resolved and answered in MTOM, in both SOAP versions.
#[tokio::test]
async fn an_mtom_request_reaches_the_fake_whole() {
    use mtom::types::EchoDataResponse;
    use soapgen_runtime::types::Base64Binary;
    struct Store;
    impl mtom::MtomService for Store {
        async fn echo_data(
            &self,
            name: String,
            data: Base64Binary,
        ) -> Result<EchoDataResponse, Error> {
            Ok(EchoDataResponse::new(name, data.len() as i64, data))
        }
    }
    let data: Vec<u8> = (0..70_000u32).map(|i| (i * 7 % 251) as u8).collect();
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let spy = std::sync::Arc::new(Spy(
            mtom::MtomServiceClient::fake_transport(Store),
            Default::default(),
        ));
        let client =
            soapgen_runtime::Client::builder(soapgen_runtime::testing::IN_PROCESS_ENDPOINT)
                .transport(spy.clone())
                .mtom(1024)
                .build()
                .unwrap();
        let c = mtom::MtomServiceClient::from_client(client).with_soap_version(version);
        let got = c
            .echo_data("blob".into(), data.clone().into())
            .await
            .unwrap();
        assert_eq!((got.name.as_str(), got.size), ("blob", 70_000));
        assert_eq!(&got.data[..], &data[..]);
        let sent = spy.1.lock().unwrap().clone();
        assert!(
            sent[0].starts_with("multipart/related; type=\"application/xop+xml\""),
            "{sent:?}"
        );
        // An MTOM request is answered in MTOM.
        assert!(
            sent[1].starts_with("response: multipart/related; type=\"application/xop+xml\""),
            "{sent:?}"
        );
        // The fake does not implement GetData: its default answer.
        let e = c.get_data(1, None).await.unwrap_err();
        assert!(
            e.to_string().contains("does not implement `get_data`"),
            "{e}"
        );
    }
}

/// The fake on a loopback socket, called by zeep 4.2 (a client no one here wrote) from the WSDL
/// the fake serves at `?wsdl`, and by gSOAP's C client generated from the same WSDL, through both
/// of its bindings (SOAP 1.1 and 1.2): results, the declared fault with its detail, and soapgen's
/// own client over HTTP.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zeep_and_gsoap_call_the_fake_on_a_loopback_socket_in_both_soap_versions() {
    use soapgen_runtime::testing::Loopback;
    use soapgen_tests::peers::{gsoap_echo_client, zeep_call};
    let wsdl = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/peers/gsoap/echo.wsdl"
    ))
    .unwrap();
    let service = echo::EchoServiceClient::fake_service(EchoFake);
    let server = Loopback::serve(service, Some(wsdl)).await.unwrap();
    let wsdl_url = server.wsdl_url();
    for port in ["EchoSoap11", "EchoSoap12"] {
        let call = |op: &str, args: &str| zeep_call(&wsdl_url, "EchoService", port, op, args);
        let out = call("echo", r#"{"text": "h\u00e9llo <&>"}"#);
        assert_eq!(out, r#"{"result": "h\u00e9llo <&>!"}"#, "{port}");
        assert_eq!(call("whoami", "{}"), r#"{"result": "fake"}"#, "{port}");
        let out = call("fail", r#"{"reason": "bad"}"#);
        assert!(out.starts_with(r#"{"fault": {"#), "{port}: {out}");
        assert!(out.contains(r#""message": "no: bad""#), "{port}: {out}");
        assert!(
            out.contains(">bad</") && out.contains(">7</") && out.contains("FailDetail"),
            "{port}: the declared detail: {out}"
        );
    }
    // gSOAP's generated C client of the same WSDL, through each binding.
    for version in ["11", "12"] {
        let call = |op: &str, arg: &str| gsoap_echo_client(&server.url(), version, op, arg);
        assert_eq!(
            call("echo", "gr\u{fc}\u{df} <&>"),
            "result gr\u{fc}\u{df} <&>!",
            "{version}"
        );
        assert_eq!(call("whoami", ""), "result fake", "{version}");
        // gSOAP's client names a SOAP 1.1 `Client` fault `Sender` too (it does so for its own
        // server's).
        assert_eq!(
            call("fail", "bad"),
            "fault SOAP-ENV:Sender|no: bad|bad|7",
            "{version}"
        );
    }
    let c = echo::EchoServiceClient::soap12(server.url()).unwrap();
    assert_eq!(c.echo("x".into()).await.unwrap(), "x!");
    let e = c.fail("y".into()).await.unwrap_err();
    assert!(
        matches!(&e.detail, Some(FailFaults::FailFault(d)) if d.code == 7),
        "{e:?}"
    );
    assert_eq!(e.fault().and_then(|f| f.http_status), Some(400));
}

mod encoded {
    soapgen_runtime::include_client!("encoded");
}

/// rpc/encoded (SOAP 1.1 §5, §7): parts with their `xsi:type`, structs and SOAP arrays, read by
/// the fake, the result written as an accessor with its type.
#[tokio::test]
async fn rpc_encoded_parts_and_arrays_reach_the_fake() {
    use encoded::types::{Item, Pair};
    use soapgen_runtime::types::SoapArray;
    struct Store;
    impl encoded::EncodedService for Store {
        async fn echo_item(&self, item: Item) -> Result<Item, Error> {
            Ok(Item::new(format!("{}!", item.name), item.count + 1))
        }
        async fn echo_items(&self, items: SoapArray<Item>) -> Result<SoapArray<Item>, Error> {
            Ok(items)
        }
        async fn echo_strings(
            &self,
            values: SoapArray<String>,
        ) -> Result<SoapArray<String>, Error> {
            Ok(values)
        }
        async fn get_pair(&self, name: String, count: i32) -> Result<Pair, Error> {
            Ok(Pair::new(
                Item::new(name.clone(), count),
                Item::new(name, -count),
            ))
        }
        async fn describe(&self, d: encoded::types::Describe) -> Result<String, Error> {
            Ok(format!(
                "{}|{}|{}|{}|{}",
                d.name, d.count, d.price, d.active, d.note
            ))
        }
    }
    let c = encoded::EncodedServiceClient::fake(Store);
    let back = c.echo_item(Item::new("a <b>".into(), 1)).await.unwrap();
    assert_eq!(back, Item::new("a <b>!".into(), 2));
    let items: SoapArray<Item> = vec![Item::new("x".into(), 1), Item::new("y".into(), 2)].into();
    assert_eq!(c.echo_items(items.clone()).await.unwrap(), items);
    let strings: SoapArray<String> = vec!["p".to_owned(), String::new(), "q r".into()].into();
    assert_eq!(c.echo_strings(strings.clone()).await.unwrap(), strings);
    let pair = c.get_pair("n".into(), 3).await.unwrap();
    assert_eq!(
        pair,
        Pair::new(Item::new("n".into(), 3), Item::new("n".into(), -3))
    );
    // More than four parts: a struct of them (a model group inside the operation element).
    let d = encoded::types::Describe::new("d <&>".into(), 1, 2.5, true, String::new());
    assert_eq!(c.describe(d).await.unwrap(), "d <&>|1|2.5|true|");
}

/// A service addressed with WS-Addressing 1.0 (its replies' `wsa:Action` checked).
#[soap_client(
    namespace = "urn:soapgen:addressed",
    soap = "1.2",
    addressing = "1.0",
    fake
)]
pub trait Addressed {
    async fn get(&self, key: String) -> Result<String, Error>;
    async fn put(&self, key: String, value: String) -> Result<(), Error>;
}

/// WS-Addressing 1.0 (SOAP Binding §5): the fake answers an addressed request with the reply's
/// `wsa:Action` and `wsa:RelatesTo` the request's `wsa:MessageID`, which the client checks.
#[tokio::test]
async fn an_addressed_client_gets_an_addressed_reply_from_the_fake() {
    struct Store;
    impl Addressed for Store {
        async fn get(&self, key: String) -> Result<String, Error> {
            Ok(format!("value of {key}"))
        }
    }
    let c = AddressedClient::fake(Store);
    assert_eq!(c.get("k".into()).await.unwrap(), "value of k");
    // A fault is addressed too (the fault action, RelatesTo the request): read as the fault.
    let e = c.put("k".into(), "v".into()).await.unwrap_err();
    let f = e.fault().unwrap_or_else(|| panic!("{e}"));
    assert_eq!(f.reason, "the fake service does not implement `put`");
}

mod partner {
    soapgen_runtime::include_client!("partner");
}

/// A WCF service's WSDL (the corpus's partner API): its wsHttpBinding port is SOAP 1.2 with
/// WS-Addressing 1.0 and `wsaw:Action`s, its basicHttpBinding port SOAP 1.1 without; the fake
/// answers both as WCF would, the client checking the reply action on the first.
#[tokio::test]
async fn a_wcf_client_calls_its_fake_on_both_bindings() {
    use partner::types::{ValidateMemberRequest, ValidateMemberResponse, ValidationFaults};
    use proptest::test_runner::{RngAlgorithm, TestRng};
    use soapgen_runtime::arbitrary::{ArbitraryXml, Gen};
    struct Desk(ValidateMemberRequest, ValidateMemberResponse);
    impl partner::PartnerService for Desk {
        async fn validate_member(
            &self,
            parameters: ValidateMemberRequest,
        ) -> Result<ValidateMemberResponse, FaultError<ValidationFaults>> {
            assert_eq!(parameters, self.0);
            Ok(self.1.clone())
        }
    }
    let mut rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    for version in [SoapVersion::Soap12, SoapVersion::Soap11] {
        for _ in 0..8 {
            let request = ValidateMemberRequest::arbitrary_xml(&mut Gen::new(&mut rng));
            let response = ValidateMemberResponse::arbitrary_xml(&mut Gen::new(&mut rng));
            let c = partner::PartnerServiceClient::fake(Desk(request.clone(), response.clone()))
                .with_soap_version(version);
            match c.validate_member(request).await {
                Ok(got) => assert_eq!(got, response, "{version}"),
                Err(e) => panic!("{version}: {e:?}"),
            }
        }
    }
}

mod swa {
    soapgen_runtime::include_client!("swa");
}

/// SOAP with Attachments (WSDL 1.1 §5): the request's parts bound by the WSDL reach the fake by
/// name, and its result's parts go back as SwA parts the client reads by name, in both
/// versions.
#[tokio::test]
async fn swa_parts_reach_the_fake_and_come_back() {
    use soapgen_runtime::mime::Attachment;
    use swa::types::EchoPhotoResponse;
    struct Studio;
    impl swa::SwaService for Studio {
        async fn echo_photo(
            &self,
            name: String,
            photo: Attachment,
            thumbnail: Attachment,
        ) -> Result<(EchoPhotoResponse, Attachment, Attachment), Error> {
            let received = format!(
                "{} {}",
                photo.content_type.clone().unwrap_or_default(),
                thumbnail.content_type.clone().unwrap_or_default()
            );
            let sizes = (photo.data.len() as i64, thumbnail.data.len() as i64);
            let response = EchoPhotoResponse::new(name, sizes.0, sizes.1, received);
            // The parts swapped, to tell them apart on the way back.
            Ok((response, thumbnail, photo))
        }
    }
    let photo: Vec<u8> = (0..5000u32).map(|i| (i % 251) as u8).collect();
    let thumb = b"\x89PNG small".to_vec();
    for version in [SoapVersion::Soap11, SoapVersion::Soap12] {
        let c = swa::SwaServiceClient::fake(Studio).with_soap_version(version);
        let (r, p, t) = c
            .echo_photo("cat".into(), photo.clone().into(), thumb.clone().into())
            .await
            .unwrap();
        assert_eq!((r.photo_size, r.thumbnail_size), (5000, 10), "{version}");
        assert_eq!(r.received, "image/jpeg image/png", "{version}");
        assert_eq!(
            (&p.data[..], &t.data[..]),
            (&thumb[..], &photo[..]),
            "{version}"
        );
    }
}

mod doorcontrol {
    soapgen_runtime::include_client!("doorcontrol");
}

/// The ONVIF door controller of the docs ("Testing your client"), as written there: a fake of
/// two operations of the nineteen, paged door lists, a fault, and the application's code run on
/// the client of the fake.
#[tokio::test]
async fn the_docs_onvif_door_controller_runs_as_written() {
    use doorcontrol::types::{Door, DoorCapabilities, GetDoorListResponse, Timings};
    use doorcontrol::{DoorControl, DoorControlClient};
    use soapgen_runtime::fault::Fault;

    struct Building;

    impl DoorControl for Building {
        async fn get_door_list(
            &self,
            _: Option<i32>,
            start: Option<String>,
        ) -> Result<GetDoorListResponse, Error> {
            let door = |t: &str| {
                Door::new(
                    t.into(),
                    t.into(),
                    DoorCapabilities::default(),
                    "Door".into(),
                    Timings::new("PT5S".parse().unwrap(), "PT5S".parse().unwrap()),
                )
            };
            Ok(match start {
                None => GetDoorListResponse {
                    next_start_reference: Some("p2".into()),
                    door: vec![door("a"), door("b")],
                },
                Some(_) => GetDoorListResponse {
                    next_start_reference: None,
                    door: vec![door("c")],
                },
            })
        }
        async fn lock_door(&self, token: String) -> Result<(), Error> {
            match token.as_str() {
                "c" => Err(Fault::receiver(SoapVersion::Soap12, "door c is jammed").into()),
                _ => Ok(()),
            }
        }
    }

    // The application: every door of every page locked, the first failure returned.
    async fn lock_all(doors: &impl DoorControl) -> Result<Vec<String>, Error> {
        let mut locked = Vec::new();
        let mut start = None;
        loop {
            let page = doors.get_door_list(None, start).await?;
            for d in page.door {
                doors.lock_door(d.token.clone()).await?;
                locked.push(d.token);
            }
            match page.next_start_reference {
                Some(next) => start = Some(next),
                None => return Ok(locked),
            }
        }
    }

    let err = lock_all(&DoorControlClient::fake(Building))
        .await
        .unwrap_err();
    assert_eq!(err.fault().unwrap().reason, "door c is jammed");
    // Through the fake, what its default bodies answer: an operation it does not implement.
    let e = DoorControlClient::fake(Building)
        .unlock_door("a".into())
        .await
        .unwrap_err();
    assert!(
        e.to_string().contains("does not implement `unlock_door`"),
        "{e}"
    );
}
