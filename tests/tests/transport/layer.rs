//! A message layer of the test's own, registered with one line (`ClientBuilder::layer`): it
//! stamps every request with the `g:Auth` header block the gSOAP echo peer reads (as a session
//! token plugin would) and times each call from the moment its request is written to its reply,
//! through the runtime's seam alone (`message::{MessageLayer, LayerCall}`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use soapgen_runtime::message::{LayerCall, MessageLayer, Outbound};
use soapgen_runtime::xml::{Name, XmlWriter};
use soapgen_runtime::{soap_client, Client, EncodeError, Error, SoapVersion};
use soapgen_tests::peers;
use soapgen_tests::recording::Recording;

const NS: &str = "urn:soapgen:gsoap";

/// The layer: the user it stamps, and each call's (operation, elapsed time), in order.
#[derive(Debug, Clone)]
struct TimedAuth {
    user: &'static str,
    calls: Arc<Mutex<Vec<(&'static str, Duration)>>>,
}

/// One call's part: when its request was written.
#[derive(Debug)]
struct Timed {
    layer: TimedAuth,
    operation: &'static str,
    started: Instant,
}

impl MessageLayer for TimedAuth {
    fn start(&self, call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError> {
        Ok(Some(Box::new(Timed {
            layer: self.clone(),
            operation: call.operation.name,
            started: Instant::now(),
        })))
    }
}

impl LayerCall for Timed {
    fn write_header(&mut self, w: &mut XmlWriter, _: SoapVersion) -> Result<(), EncodeError> {
        w.start_element(Name::new(NS, "Auth"))?;
        w.simple_element(Name::new(NS, "user"), self.layer.user)?;
        w.simple_element(Name::new(NS, "token"), "from the layer")?;
        w.end_element()
    }

    fn reply(&mut self) -> Result<(), Error> {
        let elapsed = self.started.elapsed();
        self.layer
            .calls
            .lock()
            .unwrap()
            .push((self.operation, elapsed));
        Ok(())
    }
}

#[soap_client(namespace = "urn:soapgen:gsoap", soap = "1.1")]
pub trait Stamped {
    #[soap(action = "urn:soapgen:gsoap#echo", result = "text")]
    async fn echo(&self, text: String) -> Result<String, Error>;
    /// The server answers with the user and token of the `g:Auth` header it received.
    #[soap(action = "urn:soapgen:gsoap#whoami", result = "user")]
    async fn whoami(&self) -> Result<String, Error>;
}

#[tokio::test]
async fn a_layer_of_ones_own_stamps_each_request_and_sees_each_reply() {
    let peer = peers::gsoap();
    let wire = Arc::new(Recording::new());
    let layer = TimedAuth {
        user: "layered",
        calls: Arc::default(),
    };
    let client = Client::builder(peer.url("/"))
        .transport(wire.clone())
        .layer(layer.clone())
        .build()
        .unwrap();
    let c = StampedClient::from_client(client);
    // The server read the header the layer wrote.
    assert_eq!(c.whoami().await.unwrap(), "layered/from the layer");
    assert_eq!(c.echo("hello".into()).await.unwrap(), "hello");
    // One block, first in the Header, on every request.
    for request in wire.requests() {
        assert_eq!(request.matches("<tns:Auth>").count(), 1, "{request}");
        assert!(request.contains("<soapenv:Header><tns:Auth>"), "{request}");
    }
    // Each reply went through the layer, timed from its own request.
    let calls = layer.calls.lock().unwrap().clone();
    assert_eq!(
        calls.iter().map(|(op, _)| *op).collect::<Vec<_>>(),
        ["whoami", "echo"]
    );
    assert!(calls.iter().all(|(_, d)| *d > Duration::ZERO), "{calls:?}");
}
