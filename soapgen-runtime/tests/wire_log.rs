//! Wire logging end to end: a client call emits the request and response envelopes at target
//! `soapgen::wire`, level TRACE, with the password and the security token redacted.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};

use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::{soap_client, Client, Error};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};

#[soap_client(namespace = "urn:login", soap = "1.1")]
pub trait Login {
    #[soap(action = "login")]
    async fn login(
        &self,
        user: String,
        #[soap(rename = "Password")] password: String,
    ) -> Result<String, Error>;
}

const RESPONSE: &str = r#"<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"><soapenv:Header><wsse:Security xmlns:wsse="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"><wsse:BinarySecurityToken>MIIBsecretCert</wsse:BinarySecurityToken></wsse:Security></soapenv:Header><soapenv:Body><loginResponse xmlns="urn:login"><loginResult>welcome</loginResult></loginResponse></soapenv:Body></soapenv:Envelope>"#;

/// Answers every request with [`RESPONSE`].
#[derive(Debug)]
struct Canned;

impl Transport for Canned {
    fn send(&self, _request: HttpRequest) -> TransportFuture<'_> {
        Box::pin(async {
            Ok(HttpResponse {
                status: 200,
                headers: vec![("content-type".into(), "text/xml; charset=utf-8".into())],
                body: RESPONSE.as_bytes().to_vec().into(),
            })
        })
    }
}

/// Records every event: (target, level, fields).
#[derive(Default, Clone)]
struct Capture(Arc<Mutex<Vec<(String, Level, String)>>>);

struct Fields(String);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let _ = write!(self.0, "{}={:?};", field.name(), value);
    }
}

impl Subscriber for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let mut f = Fields(String::new());
        event.record(&mut f);
        let m = event.metadata();
        self.0
            .lock()
            .unwrap()
            .push((m.target().to_owned(), *m.level(), f.0));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[test]
fn envelopes_are_logged_at_soapgen_wire_with_secrets_redacted() {
    let capture = Capture::default();
    let client = Client::builder("http://127.0.0.1:1/login")
        .transport(Arc::new(Canned))
        .build()
        .unwrap();
    let client = LoginClient::from_client(client);
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let result = tracing::subscriber::with_default(capture.clone(), || {
        rt.block_on(client.login("alice".into(), "hunter2".into()))
    });
    assert_eq!(result.unwrap(), "welcome");

    let events = capture.0.lock().unwrap().clone();
    let wire: Vec<&(String, Level, String)> = events
        .iter()
        .filter(|(t, _, _)| t == "soapgen::wire")
        .collect();
    assert_eq!(wire.len(), 2, "{events:#?}");
    assert!(wire.iter().all(|(_, level, _)| *level == Level::TRACE));

    let request = &wire[0].2;
    assert!(request.contains("request=<"), "{request}");
    assert!(request.contains("alice"), "{request}");
    assert!(request.contains(">***redacted***</"), "{request}");
    assert!(!request.contains("hunter2"), "{request}");

    let response = &wire[1].2;
    assert!(response.contains("response=<"), "{response}");
    assert!(response.contains("welcome"), "{response}");
    assert!(!response.contains("MIIBsecretCert"), "{response}");

    // No other event carries the envelopes.
    for (target, _, fields) in &events {
        assert!(!fields.contains("hunter2"), "{target}: {fields}");
    }
}
