//! Everything the macros accept, compiled with warnings as errors.
#![deny(warnings, missing_docs)]

use soapgen_runtime::types::{Decimal, Nillable, OptionalNillable};
use soapgen_runtime::{soap_client, Error, FromXml, ToXml};

/// A header block.
#[derive(Debug, Clone, ToXml, FromXml)]
#[xml(namespace = "urn:x")]
pub struct Auth {
    /// User.
    pub user: String,
}

/// A record.
#[derive(Debug, Clone, ToXml, FromXml)]
#[xml(namespace = "urn:x", rename_all = "PascalCase")]
pub struct Record {
    /// Attribute.
    #[xml(attribute)]
    pub id: u32,
    /// Optional attribute in a namespace.
    #[xml(attribute, namespace = "urn:attrs")]
    pub tag: Option<String>,
    /// Element.
    pub r#type: String,
    /// Optional nillable.
    pub note: Option<Nillable<String>>,
    /// Optional nillable, in one type.
    pub memo: OptionalNillable<Box<Record>>,
    /// Repeated nillable.
    pub values: Vec<Nillable<Decimal>>,
    /// Recursion.
    pub next: Option<Box<Record>>,
    /// Unqualified.
    #[xml(unqualified)]
    pub local: Nillable<Box<Record>>,
}

/// Simple content.
#[derive(Debug, Clone, ToXml, FromXml)]
pub struct Money {
    /// Currency.
    #[xml(attribute)]
    pub currency: String,
    /// Amount.
    #[xml(text)]
    pub amount: Decimal,
}

/// An enumeration.
#[derive(Debug, Clone, Copy, ToXml, FromXml)]
#[xml(rename_all = "lowercase")]
pub enum Kind {
    /// a
    Alpha,
    /// +
    #[xml(rename = "+")]
    Plus,
}

/// The parts of an rpc/encoded request: written by position, each with its `xsi:type`.
#[derive(Debug, Clone, ToXml, FromXml)]
#[xml(sequence, encoded)]
pub struct EncodedParts {
    /// A string part.
    pub name: String,
    /// An int part.
    pub count: i32,
}

/// An open content model (`xs:any`).
#[derive(Debug, Clone, ToXml, FromXml)]
#[xml(namespace = "urn:x")]
pub struct Open {
    /// Known.
    pub known: String,
    /// Everything else.
    #[xml(any)]
    pub rest: Vec<soapgen_runtime::types::AnyElement>,
}

soapgen_runtime::fault_details! {
    /// The faults `other` declares.
    pub enum OtherFault {
        /// A bad record.
        Bad(Record) = ("urn:x", "Bad"),
    }
}

/// A service.
#[soap_client(namespace = "urn:x", soap = "1.2", endpoint = "http://127.0.0.1:1/x", blocking)]
pub trait Service {
    /// Wrapped, with a header.
    #[soap(action = "urn:x/get", name = "Get", response = "GetResponse", result = "Record")]
    async fn get(&self, #[soap(header)] auth: Auth, id: u32, kind: Option<Kind>) -> Result<Record, Error>;
    /// Nothing back.
    async fn clear(&self, #[soap(header, rename = "Auth")] auth: Option<Auth>) -> Result<(), Error>;
    /// One-way.
    #[soap(one_way)]
    async fn notify(&self, money: Money) -> Result<(), Error>;
    /// Repeated result.
    async fn list(&self) -> Result<Vec<Record>, Error>;
    /// Bare, in another namespace, with typed faults.
    #[soap(namespace = "urn:other", bare)]
    async fn other(&self, o: Open) -> Result<Open, soapgen_runtime::FaultError<OtherFault>>;
    /// A wrapped request given as its struct (written whole), the result still unwrapped.
    #[soap(name = "Record", request_struct, response = "RecordResponse", result = "Id")]
    async fn record(&self, request: Record) -> Result<u32, Error>;
    /// Wrapped, result in no namespace.
    #[soap(namespace = "urn:other", result_namespace = "")]
    async fn unqualified_result(&self, a: String) -> Result<String, Error>;
    /// An input message with no parts: an empty Body, a header still sent.
    #[soap(empty_request, action = "urn:x/count", response = "CountResponse", result = "count")]
    async fn count(&self, #[soap(header)] auth: Option<Auth>) -> Result<u32, Error>;
    /// An empty request, one-way.
    #[soap(empty_request, one_way)]
    async fn ping(&self) -> Result<(), Error>;
}

/// A bare service with an empty request: the response is the whole body element.
#[soap_client(namespace = "urn:z", parameters = "bare", client = "BareEmptyClient")]
pub trait BareEmpty {
    /// No parts in, `Money` out.
    #[soap(empty_request, response = "Money")]
    async fn latest(&self) -> Result<Money, Error>;
}

/// An rpc/literal, bare-free service with a custom client name.
#[soap_client(namespace = "urn:y", style = "rpc", client = "RpcClient")]
pub trait Rpc {
    /// rpc call.
    async fn add(&self, a: i32, b: i32) -> soapgen_runtime::Result<i64>;
}

/// A document/literal bare service.
#[soap_client(namespace = "urn:z", parameters = "bare")]
pub trait Bare {
    /// bare call.
    #[soap(name = "Money", response = "Money")]
    async fn convert(&self, m: Money) -> Result<Money, Error>;
}

/// A WCF-style service: optional nillable parameters and result.
#[soap_client(namespace = "urn:w")]
pub trait Wcf {
    /// Absent, nil or a value, both ways.
    async fn find(&self, id: OptionalNillable<String>) -> Result<OptionalNillable<Record>, Error>;
}

/// A mock behind the trait: plain `async fn` in the impl.
struct MockRpc;

impl Rpc for MockRpc {
    async fn add(&self, a: i32, b: i32) -> soapgen_runtime::Result<i64> {
        Ok(i64::from(a) + i64::from(b))
    }
}

/// Code generic over the trait can move an implementation into a spawned task: the trait's futures
/// are `Send`.
fn spawnable<S: Rpc + Send + Sync + 'static>(
    s: std::sync::Arc<S>,
) -> impl std::future::Future<Output = ()> + Send + 'static {
    async move {
        let _ = s.add(1, 2).await;
    }
}

fn main() {
    let _ = spawnable(std::sync::Arc::new(MockRpc));
    let c = ServiceClient::from_client(
        soapgen_runtime::Client::builder("http://127.0.0.1:1/x")
            .transport(std::sync::Arc::new(NoTransport))
            .build()
            .unwrap(),
    );
    assert_eq!(ServiceClient::NAMESPACE, "urn:x");
    assert_eq!(ServiceClient::DEFAULT_ENDPOINT, Some("http://127.0.0.1:1/x"));
    let _ = c.client();
    let _ = RpcClient::NAMESPACE;
    let _ = BareClient::NAMESPACE;
    let _ = BareEmptyClient::NAMESPACE;
    let _ = WcfClient::NAMESPACE;
}

/// A transport that refuses everything, so the example needs no HTTP stack.
#[derive(Debug)]
struct NoTransport;

impl soapgen_runtime::transport::Transport for NoTransport {
    fn send(
        &self,
        _request: soapgen_runtime::transport::HttpRequest,
    ) -> soapgen_runtime::transport::TransportFuture<'_> {
        Box::pin(async {
            Err(soapgen_runtime::TransportError::new(
                soapgen_runtime::error::TransportErrorKind::Other,
                "",
                "no transport",
                None,
            ))
        })
    }
}
