//! Request payloads under default-namespace declarations (Namespaces in XML 1.0 §6.2), from
//! `#[soap_client(default_namespaces)]` and from `ClientBuilder::default_namespaces`: the Body's
//! elements are unprefixed, `xmlns=""` undeclares the default for unqualified children, the
//! Envelope and Body keep their prefixes, and without the option nothing changes.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::{soap_client, Client, Error, FromXml, ToXml};

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:x")]
pub struct Query {
    #[xml(attribute)]
    pub lang: Option<String>,
    pub term: String,
    /// An unqualified local element (`form="unqualified"`).
    #[xml(unqualified)]
    pub note: Option<String>,
}

#[soap_client(namespace = "urn:x", default_namespaces)]
pub trait Always {
    #[soap(action = "urn:x#Get")]
    async fn get(&self, q: Query) -> Result<String, Error>;
}

#[soap_client(namespace = "urn:x")]
pub trait Plain {
    #[soap(action = "urn:x#Get")]
    async fn get(&self, q: Query) -> Result<String, Error>;
}

/// Answers `getResponse` with `getResult` `ok`, and keeps the requests.
#[derive(Debug, Default)]
struct Server {
    bodies: Mutex<Vec<String>>,
}

impl Transport for Server {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        self.bodies
            .lock()
            .unwrap()
            .push(String::from_utf8(request.body.to_vec()).unwrap());
        let body = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
                    <getResponse xmlns=\"urn:x\"><getResult>ok</getResult></getResponse>\
                    </s:Body></s:Envelope>";
        Box::pin(async move {
            Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body: Bytes::from_static(body.as_bytes()),
            })
        })
    }
}

fn query() -> Query {
    Query {
        lang: Some("en".into()),
        term: "a<b".into(),
        note: Some("n".into()),
    }
}

/// The Body's content of an envelope.
fn body(envelope: &str) -> &str {
    let start = envelope.find("<soapenv:Body>").unwrap() + "<soapenv:Body>".len();
    let end = envelope.find("</soapenv:Body>").unwrap();
    &envelope[start..end]
}

const DEFAULT_FORM: &str = "<get xmlns=\"urn:x\"><q lang=\"en\"><term>a&lt;b</term>\
                            <note xmlns=\"\">n</note></q></get>";
const PREFIXED_FORM: &str =
    "<tns:get><tns:q lang=\"en\"><tns:term>a&lt;b</tns:term><note>n</note></tns:q></tns:get>";

#[tokio::test]
async fn the_macro_option_writes_default_namespaces() {
    let server = Arc::new(Server::default());
    let client = Client::builder("http://127.0.0.1:1/x")
        .transport(server.clone())
        .build()
        .unwrap();
    assert_eq!(
        AlwaysClient::from_client(client.clone())
            .get(query())
            .await
            .unwrap(),
        "ok"
    );
    assert_eq!(
        PlainClient::from_client(client).get(query()).await.unwrap(),
        "ok"
    );
    let bodies = server.bodies.lock().unwrap();
    assert!(bodies[0].starts_with("<?xml"), "{}", bodies[0]);
    assert!(
        bodies[0].contains("<soapenv:Envelope xmlns:soapenv="),
        "{}",
        bodies[0]
    );
    assert_eq!(body(&bodies[0]), DEFAULT_FORM);
    assert_eq!(body(&bodies[1]), PREFIXED_FORM);
}

#[tokio::test]
async fn the_client_builder_option_writes_default_namespaces() {
    let server = Arc::new(Server::default());
    let on = Client::builder("http://127.0.0.1:1/x")
        .transport(server.clone())
        .default_namespaces(true)
        .build()
        .unwrap();
    let off = Client::builder("http://127.0.0.1:1/x")
        .transport(server.clone())
        .default_namespaces(false)
        .build()
        .unwrap();
    PlainClient::from_client(on).get(query()).await.unwrap();
    PlainClient::from_client(off).get(query()).await.unwrap();
    let bodies = server.bodies.lock().unwrap();
    assert_eq!(body(&bodies[0]), DEFAULT_FORM);
    assert_eq!(body(&bodies[1]), PREFIXED_FORM);
}
