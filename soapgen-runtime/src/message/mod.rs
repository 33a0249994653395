//! What a SOAP message is, apart from how it is written, sent and read: the SOAP version and
//! its namespaces, the operation called, the request (the operation's part of it and the
//! message on the wire), what came back, and the message layers that work on it.
//!
//! - [`SoapVersion`], [`SOAP11_ENV_NS`], [`SOAP12_ENV_NS`]: SOAP 1.1 and 1.2;
//! - [`Operation`]: what generated code knows of an operation, with the description's facts
//!   for the layers, and [`HttpLocation`], the request IRI of one bound to SOAP 1.2's
//!   SOAP-response message exchange pattern;
//! - [`RequestWriter`] and [`Request`]: the operation's header blocks and Body content;
//!   [`RequestMessage`]: the envelope and attachments sent;
//! - [`MessageLayer`], [`LayerCall`]: the protocols on the message (WS-Security,
//!   WS-Addressing, your own), with what they are told ([`Outbound`], [`Incoming`],
//!   [`InboundBlock`]) and decide ([`Verdict`]).

mod layer;
mod location;
mod operation;
mod request;
mod version;

pub use layer::{
    ExchangeFuture, Exchanger, InboundBlock, Incoming, LayerCall, LayerFuture, MessageLayer,
    Outbound, Verdict,
};
pub use location::{soap_response_iri, HttpLocation};
pub use operation::{Fact, Operation};
#[cfg(feature = "testing")]
pub(crate) use request::part_attachment;
pub use request::{Request, RequestMessage, RequestWriter, WriterSettings};
pub use version::{SoapVersion, SOAP11_ENV_NS, SOAP12_ENV_NS};
