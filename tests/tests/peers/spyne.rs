//! Interop with spyne 2.14 (Debian's python3-spyne), started by the test on loopback: every operation of
//! the test service, called from a `#[soap_client]` trait over SOAP 1.1 and SOAP 1.2, results compared
//! exactly. The service is `tests/peers/spyne_server.py`; wire captures are in `tests/peers/captures/spyne`.

use soapgen_runtime::types::{Base64Binary, Decimal, Nillable};
use soapgen_runtime::xml::Name;
use soapgen_runtime::{soap_client, Error, FromXml, SoapVersion, ToXml};
use soapgen_tests::peers;

const NS: &str = "urn:soapgen:test";

/// spyne's `Array(Unicode)` (`tns:stringArray`).
#[derive(Debug, Clone, PartialEq, Default, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct StringArray {
    pub string: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct Address {
    pub street: Option<String>,
    pub city: Option<String>,
}

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct Person {
    pub name: String,
    pub age: Option<i64>,
    pub nickname: Option<Nillable<String>>,
    pub emails: Vec<String>,
    pub address: Option<Address>,
    pub balance: Option<Decimal>,
    pub tags: Option<StringArray>,
}

/// The fault detail `raise_fault` sends.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct ErrorInfo {
    pub code: String,
}

macro_rules! service {
    ($name:ident, $version:literal $(, $option:ident)*) => {
        #[soap_client(namespace = "urn:soapgen:test", soap = $version $(, $option)*)]
        pub trait $name {
            #[soap(action = "say_hello")]
            async fn say_hello(&self, name: String, times: i64) -> Result<StringArray, Error>;
            #[soap(action = "echo_person")]
            async fn echo_person(&self, person: Person) -> Result<Person, Error>;
            #[soap(action = "echo_bytes")]
            async fn echo_bytes(&self, data: Base64Binary) -> Result<Base64Binary, Error>;
            #[soap(action = "raise_fault")]
            async fn raise_fault(&self, code: String) -> Result<String, Error>;
        }
    };
}

service!(Spyne11, "1.1", blocking);
service!(Spyne12, "1.2", blocking);
// Request payloads under default-namespace declarations (Namespaces in XML 1.0 §6.2).
service!(Spyne11Default, "1.1", default_namespaces);
service!(Spyne12Default, "1.2", default_namespaces);

fn ada() -> Person {
    Person {
        name: "Ada & <Co> Lovelace ✓".into(),
        age: Some(36),
        nickname: Some(Nillable::Nil),
        emails: vec!["ada@example.org".into(), "countess@example.org".into()],
        address: Some(Address {
            street: Some("12 St James's Square".into()),
            city: Some("London".into()),
        }),
        balance: Some("-12345678901234567890.0100".parse().unwrap()),
        tags: Some(StringArray {
            string: vec!["math".into(), String::new(), "engines".into()],
        }),
    }
}

fn minimal() -> Person {
    Person {
        name: "x".into(),
        age: None,
        nickname: None,
        emails: vec![],
        address: None,
        balance: None,
        tags: None,
    }
}

/// Checks that every operation works the same over either version.
macro_rules! exercise {
    ($client:expr, $version:expr) => {{
        let c = $client;
        let hello = c.say_hello("World".into(), 3).await.unwrap();
        assert_eq!(hello.string, vec!["Hello, World"; 3]);
        assert_eq!(
            c.say_hello("nobody".into(), 0).await.unwrap(),
            StringArray::default()
        );

        for p in [ada(), minimal()] {
            assert_eq!(c.echo_person(p.clone()).await.unwrap(), p);
        }
        let mut with_value = ada();
        with_value.nickname = Some(Nillable::Value("Countess".into()));
        assert_eq!(c.echo_person(with_value.clone()).await.unwrap(), with_value);

        for len in [0usize, 1, 2, 3, 57, 1000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let back = c
                .echo_bytes(Base64Binary::from(data.clone()))
                .await
                .unwrap();
            assert_eq!(&back[..], &data[..], "len {len}");
        }

        let err = c.raise_fault("E42".into()).await.unwrap_err();
        let fault = err
            .fault()
            .unwrap_or_else(|| panic!("expected a fault, got {err}"));
        assert_eq!(fault.version, $version);
        assert_eq!(fault.http_status, Some(500));
        assert_eq!(fault.reason, "invalid input: E42");
        assert!(fault.is_sender(), "{fault}");
        match $version {
            SoapVersion::Soap11 => {
                assert_eq!(fault.code.local_name, "Client.InvalidInput");
                assert_eq!(
                    fault.code.namespace.as_deref(),
                    Some(SoapVersion::Soap11.envelope_namespace())
                );
            }
            SoapVersion::Soap12 => {
                assert_eq!(fault.code.local_name, "Sender");
                assert_eq!(fault.subcodes.len(), 1);
                assert_eq!(fault.subcodes[0].local_name, "InvalidInput");
                assert_eq!(fault.reasons[0].lang.as_deref(), Some("en"));
            }
        }
        let info: ErrorInfo = fault
            .detail
            .as_ref()
            .expect("detail")
            .decode(Name::new(NS, "ErrorInfo"))
            .unwrap()
            .expect("ErrorInfo entry");
        assert_eq!(info.code, "E42");
    }};
}

#[tokio::test]
async fn soap11_every_operation() {
    let peer = peers::spyne();
    exercise!(
        Spyne11Client::new(peer.url("/soap11")).unwrap(),
        SoapVersion::Soap11
    );
}

#[tokio::test]
async fn soap12_every_operation() {
    let peer = peers::spyne();
    exercise!(
        Spyne12Client::new(peer.url("/soap12")).unwrap(),
        SoapVersion::Soap12
    );
}

/// `#[soap_client(default_namespaces)]`: spyne (lxml, schema-validating) reads requests whose
/// payload is `<say_hello xmlns="urn:soapgen:test">…` the same as the prefixed ones, over both
/// versions.
#[tokio::test]
async fn default_namespace_requests_every_operation() {
    let peer = peers::spyne();
    exercise!(
        Spyne11DefaultClient::new(peer.url("/soap11")).unwrap(),
        SoapVersion::Soap11
    );
    exercise!(
        Spyne12DefaultClient::new(peer.url("/soap12")).unwrap(),
        SoapVersion::Soap12
    );
}

#[tokio::test]
async fn schema_violation_is_a_fault_from_the_server() {
    // spyne validates requests against its schema: an over-long decimal is refused with a fault, which
    // arrives as a typed fault, not a transport error.
    let peer = peers::spyne();
    let c = Spyne11Client::new(peer.url("/soap11")).unwrap();
    let mut p = minimal();
    p.balance = Some("1234567890123456789012345.5".parse().unwrap());
    let e = c.echo_person(p).await.unwrap_err();
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("expected a fault, got {e}"));
    assert!(f.is_sender(), "{f}");
}

#[test]
fn blocking_clients_of_both_versions() {
    let peer = peers::spyne();
    let c11 = Spyne11BlockingClient::new(peer.url("/soap11")).unwrap();
    let c12 = Spyne12BlockingClient::new(peer.url("/soap12")).unwrap();
    assert_eq!(
        c11.say_hello("b".into(), 2).unwrap().string,
        ["Hello, b", "Hello, b"]
    );
    assert_eq!(c12.echo_person(ada()).unwrap(), ada());
    assert!(c12.raise_fault("x".into()).unwrap_err().is_fault());
}

#[tokio::test]
async fn one_client_shared_by_many_tasks() {
    let peer = peers::spyne();
    let c = Spyne11Client::new(peer.url("/soap11")).unwrap();
    let mut tasks = Vec::new();
    for i in 0..16 {
        let c = c.clone();
        tasks.push(tokio::spawn(async move {
            let r = c.say_hello(format!("task {i}"), 2).await.unwrap();
            assert_eq!(r.string, vec![format!("Hello, task {i}"); 2]);
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
}

mod soap_response {
    soapgen_runtime::include_client!("soap_response");
}

/// SOAP 1.2's SOAP-response message exchange pattern (SOAP 1.2 Part 2 §6.3), generated from a
/// WSDL 2.0 binding (tests/wsdl/soap_response.wsdl, WSDL 2.0 Part 2 §5.10.3): the call is a GET of
/// `{endpoint}check_availability?checkInDate=…&checkOutDate=…&roomType=…`, which spyne's HttpRpc
/// reads into the operation's parameters, and the SOAP 1.2 envelope it answers is read as usual:
/// a result, and a fault.
#[tokio::test]
async fn soap_response_mep_is_a_get_answered_with_an_envelope() {
    use soap_response::AvailabilityServiceClient;
    let peer = peers::spyne();
    let c = AvailabilityServiceClient::new(peer.url("/get/")).unwrap();
    let date = |s: &str| s.parse().unwrap();
    // Three nights, and a room type that must be escaped in a query (`&`, `/`, a space, UTF-8).
    let price = c
        .check_availability(
            date("2026-12-24"),
            date("2026-12-27"),
            "double & sea/view ✓".into(),
        )
        .await
        .unwrap();
    assert_eq!(price, 3.0 * 80.5 + 20.0);
    let price = c
        .check_availability(date("2026-12-24"), date("2026-12-25"), "single".into())
        .await
        .unwrap();
    assert_eq!(price, 80.5);
    // spyne's fault for an empty room type: a SOAP 1.2 Sender fault, typed.
    let e = c
        .check_availability(date("2026-12-24"), date("2026-12-25"), String::new())
        .await
        .unwrap_err();
    let f = e
        .fault()
        .unwrap_or_else(|| panic!("expected a fault, got {e}"));
    assert!(
        f.is_sender() && f.reason.contains("no such room type"),
        "{f}"
    );
    assert_eq!(f.version, SoapVersion::Soap12);
    // A client that addresses its calls: a GET has no envelope for WS-Addressing's blocks, so
    // this call goes unaddressed (and a security layer's blocks would be an error, not dropped).
    use soapgen_runtime::addressing::{Addressing, AddressingVersion};
    let addressed = soapgen_runtime::Client::builder(peer.url("/get/"))
        .addressing(Addressing::on(AddressingVersion::W3C))
        .build()
        .unwrap();
    let price = AvailabilityServiceClient::from_client(addressed)
        .check_availability(date("2026-12-24"), date("2026-12-26"), "single".into())
        .await
        .unwrap();
    assert_eq!(price, 2.0 * 80.5);
}
