//! Input messages with no parts (WSDL 1.1 §2.3.1; "a message with no parts"): the client
//! generated at build time from wsdl/noparts.wsdl sends an empty SOAP Body to a gSOAP server built
//! from the same WSDL (tests/peers/gsoap/noparts), which picks the operation by SOAPAction and, in
//! strict mode, refuses a Body that is not empty. Every request sent is also read back here.

use std::sync::Arc;

use soapgen_runtime::xml::XmlReader;
use soapgen_runtime::{soap_client, Client, Error};
use soapgen_tests::recording::Recording;

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("noparts");
}
use generated::NoPartsServiceClient;

fn client(url: String) -> (Client, Arc<Recording>) {
    let rec = Arc::new(Recording::new());
    let c = Client::builder(url).transport(rec.clone()).build().unwrap();
    (c, rec)
}

/// The number of child elements of the envelope's Body.
fn body_children(envelope: &str) -> usize {
    let mut r = XmlReader::new(envelope);
    let root = r.root().unwrap();
    assert_eq!(root.local_name(), "Envelope", "{envelope}");
    let mut body = None;
    while let Some(c) = r.next_child().unwrap() {
        if c.local_name() == "Body" {
            body = Some(c);
            break;
        }
        r.skip_element().unwrap();
    }
    assert!(body.is_some(), "no Body in {envelope}");
    let mut n = 0;
    while r.next_child().unwrap().is_some() {
        n += 1;
        r.skip_element().unwrap();
    }
    n
}

/// The same SOAPAction with a Body that is not empty, to show the peer checks.
#[soap_client(namespace = "urn:soapgen:noparts")]
trait WithBody {
    #[soap(name = "Touch", action = "urn:soapgen:noparts#Touch")]
    async fn touch(&self) -> Result<(), Error>;
}

#[tokio::test]
async fn empty_requests_reach_the_gsoap_peer_with_an_empty_body() {
    let peer = soapgen_tests::peers::gsoap_noparts();
    let (c, rec) = client(peer.url("/"));
    let c = NoPartsServiceClient::from_client(c);
    // Request-response with an empty request: the result is read from the response element.
    assert_eq!(c.get_count().await.unwrap(), 0);
    // Empty request, empty response.
    c.touch().await.unwrap();
    c.touch().await.unwrap();
    assert_eq!(c.get_count().await.unwrap(), 2);
    let bodies = rec.requests();
    assert_eq!(bodies.len(), 4);
    for b in &bodies {
        assert_eq!(body_children(b), 0, "{b}");
    }

    // A wrapper element in the Body is refused by the peer (strict mode), and not counted.
    let (c2, rec2) = client(peer.url("/"));
    let e = WithBodyClient::from_client(c2).touch().await.unwrap_err();
    assert!(e.is_fault(), "{e:?}");
    let sent = rec2.requests();
    assert_eq!(
        sent.iter().map(|b| body_children(b)).collect::<Vec<_>>(),
        [1]
    );
    assert_eq!(c.get_count().await.unwrap(), 2);
}
