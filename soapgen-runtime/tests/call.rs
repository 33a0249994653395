//! The call path of generated clients (`soapgen_runtime::call`) against canned responses: the
//! response wrapper's name in rpc style (SOAP 1.1 §7.1: not significant) and in document style
//! (must match), one-way acknowledgements (WSDL 1.1 §2.4.1), calls spawned as `'static` tasks, the
//! blocking twin, and the SOAP version chosen per client.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::{soap_client, Client, Error, SoapVersion};

/// A request as sent: its HTTP headers and body.
type Sent = (Vec<(String, String)>, String);

/// Answers every request with `status` and `body` (as `text/xml`), and keeps the requests.
#[derive(Debug)]
struct Canned {
    status: u16,
    body: String,
    requests: Mutex<Vec<Sent>>,
}

impl Canned {
    fn new(status: u16, body: &str) -> Arc<Self> {
        Arc::new(Canned {
            status,
            body: body.to_owned(),
            requests: Mutex::new(Vec::new()),
        })
    }

    fn envelope(body: &str) -> String {
        format!(
            "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>{body}</s:Body></s:Envelope>"
        )
    }
}

impl Transport for Canned {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        self.requests.lock().unwrap().push((
            request.headers.clone(),
            String::from_utf8(request.body.to_vec()).unwrap(),
        ));
        let resp = HttpResponse {
            status: self.status,
            headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
            body: Bytes::from(self.body.clone()),
        };
        Box::pin(async move { Ok(resp) })
    }
}

fn client(t: &Arc<Canned>) -> Client {
    Client::builder("http://127.0.0.1:9/soap")
        .transport(t.clone())
        .build()
        .unwrap()
}

#[soap_client(namespace = "urn:calc", style = "rpc", soap = "1.1, 1.2", blocking)]
pub trait RpcCalc {
    #[soap(action = "urn:calc#add", result = "sum")]
    async fn add(&self, a: i32, b: i32) -> Result<i32, Error>;
}

/// An rpc reply of two parts, read whole as one struct.
#[derive(Debug, Clone, PartialEq, soapgen_runtime::ToXml, soapgen_runtime::FromXml)]
pub struct DivResult {
    quotient: i32,
    remainder: i32,
}

#[soap_client(namespace = "urn:calc", style = "rpc", blocking)]
pub trait RpcDiv {
    #[soap(action = "urn:calc#div", bare_response)]
    async fn div(&self, a: i32, b: i32) -> Result<DivResult, Error>;
}

/// rpc/literal operations as generated clients declare them: `#[soap(rpc)]` in a client of the
/// default (document) style.
#[soap_client(namespace = "urn:calc", blocking)]
pub trait RpcLiteral {
    #[soap(action = "urn:calc#add", rpc, result = "sum", result_namespace = "")]
    async fn add(&self, a: i32, b: i32) -> Result<i32, Error>;
    #[soap(action = "urn:calc#div", rpc, bare_response)]
    async fn div(&self, a: i32, b: i32) -> Result<DivResult, Error>;
}

#[soap_client(namespace = "urn:calc", blocking)]
pub trait DocCalc {
    #[soap(action = "urn:calc#add", result = "sum")]
    async fn add(&self, a: i32, b: i32) -> Result<i32, Error>;
    #[soap(action = "urn:calc#reset", one_way)]
    async fn reset(&self) -> Result<(), Error>;
}

#[tokio::test]
async fn an_rpc_response_wrapper_is_read_whatever_its_name() {
    // Not `addResponse`: SOAP 1.1 §7.1 makes the struct's name insignificant.
    let t = Canned::new(
        200,
        &Canned::envelope("<m:Result_Of_Add xmlns:m=\"urn:other\"><sum>3</sum></m:Result_Of_Add>"),
    );
    let c = RpcCalcClient::from_client(client(&t));
    assert_eq!(c.add(1, 2).await.unwrap(), 3);
}

#[tokio::test]
async fn an_rpc_reply_of_several_parts_is_read_whatever_its_name() {
    // An rpc/encoded service's reply named after its message (`Message`), not `divResponse`.
    let t = Canned::new(
        200,
        &Canned::envelope(
            "<snp:Message xmlns:snp=\"urn:MessageService\"><quotient>3</quotient><remainder>1</remainder></snp:Message>",
        ),
    );
    let c = RpcDivClient::from_client(client(&t));
    let r = c.div(7, 2).await.unwrap();
    assert_eq!((r.quotient, r.remainder), (3, 1));
}

#[tokio::test]
async fn an_rpc_literal_operation_reads_its_wrapper_whatever_its_name() {
    let t = Canned::new(
        200,
        &Canned::envelope("<m:AddResult xmlns:m=\"urn:calc\"><sum>3</sum></m:AddResult>"),
    );
    assert_eq!(
        RpcLiteralClient::from_client(client(&t))
            .add(1, 2)
            .await
            .unwrap(),
        3
    );
    let t = Canned::new(
        200,
        &Canned::envelope(
            "<m:DivideResult xmlns:m=\"urn:calc\"><quotient>3</quotient><remainder>1</remainder></m:DivideResult>",
        ),
    );
    let r = RpcLiteralClient::from_client(client(&t))
        .div(7, 2)
        .await
        .unwrap();
    assert_eq!((r.quotient, r.remainder), (3, 1));
}

#[tokio::test]
async fn a_document_response_wrapper_must_be_the_declared_element() {
    let t = Canned::new(
        200,
        &Canned::envelope(
            "<m:somethingElse xmlns:m=\"urn:calc\"><m:sum>3</m:sum></m:somethingElse>",
        ),
    );
    let c = DocCalcClient::from_client(client(&t));
    let e = c.add(1, 2).await.unwrap_err();
    assert!(
        matches!(e, Error::Decode(_)) && e.to_string().contains("somethingElse"),
        "{e}"
    );
    let t = Canned::new(
        200,
        &Canned::envelope("<m:addResponse xmlns:m=\"urn:calc\"><m:sum>3</m:sum></m:addResponse>"),
    );
    let c = DocCalcClient::from_client(client(&t));
    assert_eq!(c.add(1, 2).await.unwrap(), 3);
}

#[tokio::test]
async fn a_result_or_wrapper_in_another_namespace_is_named_as_such() {
    // The result element unqualified where the client expects it qualified (or the other way):
    // the names match, the namespaces differ.
    let t = Canned::new(
        200,
        &Canned::envelope("<m:addResponse xmlns:m=\"urn:calc\"><sum>3</sum></m:addResponse>"),
    );
    let e = DocCalcClient::from_client(client(&t))
        .add(1, 2)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.contains(
            "expected sum in the namespace urn:calc: the names match, the namespaces differ"
        ),
        "{e}"
    );
    // The wrapper itself.
    let t = Canned::new(
        200,
        &Canned::envelope("<addResponse><m:sum xmlns:m=\"urn:calc\">3</m:sum></addResponse>"),
    );
    let e = DocCalcClient::from_client(client(&t))
        .add(1, 2)
        .await
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("expected addResponse in the namespace urn:calc: the names match"),
        "{e}"
    );
}

#[tokio::test]
async fn one_way_accepts_an_empty_202_or_a_body_and_reports_a_fault() {
    let t = Canned::new(202, "");
    DocCalcClient::from_client(client(&t))
        .reset()
        .await
        .unwrap();
    // A 200 with an (empty) response element: nothing to read, still success.
    let t = Canned::new(
        200,
        &Canned::envelope("<m:resetResponse xmlns:m=\"urn:calc\"/>"),
    );
    DocCalcClient::from_client(client(&t))
        .reset()
        .await
        .unwrap();
    let t = Canned::new(
        500,
        &Canned::envelope(
            "<s:Fault><faultcode>s:Server</faultcode><faultstring>busy</faultstring></s:Fault>",
        ),
    );
    let e = DocCalcClient::from_client(client(&t))
        .reset()
        .await
        .unwrap_err();
    assert_eq!(e.fault().map(|f| f.reason.as_str()), Some("busy"), "{e}");
}

#[tokio::test]
async fn a_call_is_a_static_send_future_sent_when_polled() {
    let t = Canned::new(
        200,
        &Canned::envelope("<m:addResponse xmlns:m=\"urn:calc\"><m:sum>7</m:sum></m:addResponse>"),
    );
    let c = DocCalcClient::from_client(client(&t));
    let call = c.add(3, 4);
    drop(c); // the call owns what it needs
    assert!(
        t.requests.lock().unwrap().is_empty(),
        "sent before it was polled"
    );
    assert_eq!(tokio::spawn(call).await.unwrap().unwrap(), 7);
    assert_eq!(t.requests.lock().unwrap().len(), 1);
    // A call never polled sends nothing.
    drop(DocCalcClient::from_client(client(&t)).add(1, 1));
    assert_eq!(t.requests.lock().unwrap().len(), 1);
}

#[test]
fn the_blocking_client_and_the_soap_version_per_client() {
    // A fault is a fault in either version (a VersionMismatch fault comes in the server's).
    let t = Canned::new(
        500,
        &Canned::envelope(
            "<s:Fault><faultcode>s:VersionMismatch</faultcode><faultstring>1.1 only</faultstring></s:Fault>",
        ),
    );
    let runtime = soapgen_runtime::blocking::BlockingRuntime::new().unwrap();
    let e = RpcCalcClient::from_client(client(&t))
        .with_soap_version(SoapVersion::Soap12)
        .add(1, 1)
        .wait(&runtime)
        .unwrap_err();
    assert_eq!(
        e.fault().map(|f| f.reason.as_str()),
        Some("1.1 only"),
        "{e}"
    );
    let t = Canned::new(
        200,
        &Canned::envelope("<m:addResponse xmlns:m=\"urn:calc\"><sum>5</sum></m:addResponse>"),
    );
    let c = RpcCalcBlockingClient::from_client(client(&t)).unwrap();
    assert_eq!(c.soap_version(), SoapVersion::Soap11);
    assert_eq!(c.add(2, 3).unwrap(), 5);
    let c12 = c.clone().with_soap_version(SoapVersion::Soap12);
    // A SOAP 1.1 reply to a SOAP 1.2 request: the versions differ, and the error says so.
    let e = c12.add(2, 3).unwrap_err();
    assert!(
        matches!(&e, Error::Decode(d) if d.kind == soapgen_runtime::error::DecodeErrorKind::VersionMismatch {
            expected: SoapVersion::Soap12,
            found: SoapVersion::Soap11,
        }),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("SOAP 1.1 envelope, the request was SOAP 1.2"),
        "{e}"
    );
    let requests = t.requests.lock().unwrap();
    let content_type = |i: usize| {
        requests[i]
            .0
            .iter()
            .find(|(k, _)| k == "Content-Type")
            .map(|(_, v)| v.clone())
            .unwrap()
    };
    assert!(
        content_type(0).starts_with("text/xml"),
        "{}",
        content_type(0)
    );
    assert!(requests[0]
        .1
        .contains("http://schemas.xmlsoap.org/soap/envelope/"));
    assert!(
        content_type(1).starts_with("application/soap+xml")
            && content_type(1).contains("urn:calc#add"),
        "{}",
        content_type(1)
    );
    assert!(requests[1]
        .1
        .contains("http://www.w3.org/2003/05/soap-envelope"));
}

/// A service with its SOAP 1.1 and 1.2 ports at different addresses (WCF's basicHttpBinding
/// and wsHttpBinding).
#[soap_client(
    namespace = "urn:calc",
    soap = "1.1, 1.2",
    endpoints = "1.1=http://127.0.0.1:9/basic 1.2=http://127.0.0.1:9/ws"
)]
pub trait TwoPorts {
    #[soap(action = "urn:calc#add", result = "sum")]
    async fn add(&self, a: i32, b: i32) -> Result<i32, Error>;
}

#[test]
fn a_version_switch_follows_its_port() {
    assert_eq!(
        TwoPortsClient::DEFAULT_ENDPOINT,
        Some("http://127.0.0.1:9/basic")
    );
    assert_eq!(
        TwoPortsClient::DEFAULT_ENDPOINTS,
        &[
            (SoapVersion::Soap11, "http://127.0.0.1:9/basic"),
            (SoapVersion::Soap12, "http://127.0.0.1:9/ws")
        ]
    );
    let c = TwoPortsClient::with_default_endpoint()
        .unwrap()
        .with_soap_version(SoapVersion::Soap12);
    assert_eq!(c.client().endpoint(), "http://127.0.0.1:9/ws");
    let back = c.with_soap_version(SoapVersion::Soap11);
    assert_eq!(back.client().endpoint(), "http://127.0.0.1:9/basic");
    // An address of one's own stays, and so does the one a versioned constructor is given.
    let own = TwoPortsClient::new("http://127.0.0.1:9/mine")
        .unwrap()
        .with_soap_version(SoapVersion::Soap12);
    assert_eq!(own.client().endpoint(), "http://127.0.0.1:9/mine");
    let given = TwoPortsClient::soap12("http://127.0.0.1:9/basic").unwrap();
    assert_eq!(
        (given.client().endpoint(), given.soap_version()),
        ("http://127.0.0.1:9/basic", SoapVersion::Soap12)
    );
}
