//! The runtime of soapgen-generated SOAP clients.
//!
//! Everything a generated or `#[soap_client]` client calls at run time, and nothing that reads WSDL:
//!
//! - [`Client`]: endpoint, transport and settings, shared by every generated client; its calls
//!   are [`Call`]s, one call path for all;
//! - [`message`]: the SOAP version, the operation, the request, and the message layers that
//!   work on the message itself (yours too: [`ClientBuilder::layer`]);
//! - [`envelope`]: SOAP 1.1 and 1.2 envelopes, written and read;
//! - [`header`]: SOAP header blocks both ways, `mustUnderstand` enforced on responses;
//! - [`fault`]: SOAP faults of both versions as typed values;
//! - [`addressing`]: WS-Addressing 1.0 and 2004/08, as a message layer;
//! - `wss` (feature `wss`): WS-Security — UsernameToken, Timestamp, X.509 signatures and
//!   encryption, inbound verification — as a message layer, configured per client with
//!   `ClientBuilder::wss`;
//! - [`xml`]: the namespace-aware writer, the streaming reader, and the [`ToXml`] / [`FromXml`] traits;
//! - [`types`]: the XSD built-in types (decimal, unbounded integer, dateTime with offset, base64Binary…);
//! - [`base64`]: the streaming base64 decoder that never notices line breaks;
//! - [`mime`]: MTOM/XOP and SOAP-with-Attachments packaging, read and written;
//! - [`transport`]: the HTTP transport trait and its reqwest implementation;
//! - [`error`]: one [`Error`] type with predicates, and the errors it carries;
//! - [`wire`]: redaction and bounds for the logged request and response envelopes;
//! - `blocking` (feature `blocking`): the runtime a generated blocking client waits on;
//! - `arbitrary` (feature `proptest`): arbitrary values of XML-bound types for property tests
//!   (`#[derive(ArbitraryXml)]`, emitted on every generated type).
//!
//! # Example: a client from a trait
//!
//! ```no_run
//! use soapgen_runtime::{soap_client, Error, FromXml, ToXml};
//!
//! #[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
//! #[xml(namespace = "urn:soapgen:test")]
//! pub struct ArrayOfString {
//!     pub string: Vec<String>,
//! }
//!
//! #[soap_client(namespace = "urn:soapgen:test", soap = "1.1")]
//! pub trait Hello {
//!     #[soap(action = "say_hello")]
//!     async fn say_hello(&self, name: String, times: i64) -> Result<ArrayOfString, Error>;
//! }
//!
//! # async fn run() -> Result<(), Error> {
//! let client = HelloClient::new("http://127.0.0.1:8000/soap11")?;
//! let greetings = client.say_hello("World".to_owned(), 2).await?;
//! println!("{:?}", greetings.string);
//! # Ok(()) }
//! ```
//!
//! # Wire logging
//!
//! Every request and response envelope is a `tracing` event at level `TRACE` with the target
//! `soapgen::wire` ([`wire::TARGET`]). To see exactly these, with `tracing-subscriber`'s
//! `EnvFilter`:
//!
//! ```text
//! RUST_LOG=soapgen::wire=trace cargo run
//! ```
//!
//! `RUST_LOG=soapgen::wire=trace,soapgen_runtime=debug` adds their parent span, `soap_call`, with
//! the operation, endpoint, SOAP version and HTTP status.
//!
//! The content of WS-Security `Password`, `Nonce` and `BinarySecurityToken`, XML-Enc `CipherValue`,
//! XML-DSig `SignatureValue` and WS-Trust `BinarySecret` elements (any prefix) is replaced by
//! `***redacted***`, and at most 64 KiB of each envelope is logged, with a note of its full size
//! ([`wire::redact`], [`wire::envelope`]). HTTP headers are not logged, so neither is an
//! `Authorization` header.
//!
//! # Cargo features
#![doc = document_features::document_features!()]
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate self as soapgen_runtime;

pub mod addressing;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod arbitrary;
pub mod base64;
#[cfg(feature = "blocking")]
pub mod blocking;
mod client;
pub mod envelope;
pub mod error;
pub mod fault;
pub mod header;
pub mod message;
pub mod mime;
#[cfg(feature = "wss")]
#[cfg_attr(docsrs, doc(cfg(feature = "wss")))]
pub mod policy;
#[cfg(feature = "testing")]
#[cfg_attr(docsrs, doc(cfg(feature = "testing")))]
pub mod testing;
pub mod transport;
pub mod types;
pub mod wire;
#[cfg(feature = "wss")]
#[cfg_attr(docsrs, doc(cfg(feature = "wss")))]
pub mod wss;
pub mod xml;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

#[cfg(feature = "blocking")]
pub use client::BlockingItems;
#[cfg(any(feature = "reqwest", feature = "hyper", feature = "blocking"))]
pub use client::Retry;
pub use client::{
    Call, Client, ClientBuilder, Failover, FailoverOrder, ItemStream, StreamCall, WithResponse,
    DEFAULT_MAX_RESPONSE_BYTES,
};
pub use error::{DecodeError, EncodeError, Error, TransportError, ValueError};
pub use fault::{Fault, FaultError};
pub use message::{Operation, SoapVersion};
#[doc(hidden)]
pub use soapgen_macros::__include_client;
pub use soapgen_macros::{soap_client, ArbitraryXml, FromXml, ToXml};

/// Keeps its tokens with the `wss` feature and drops them without it: the WS-SecurityPolicy
/// of generated clients (`PORT_POLICIES`). Not a public API.
#[cfg(feature = "wss")]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_wss {
    ($($t:tt)*) => { $($t)* };
}

/// Keeps its tokens with the `wss` feature and drops them without it: the WS-SecurityPolicy
/// of generated clients (`PORT_POLICIES`). Not a public API.
#[cfg(not(feature = "wss"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_wss {
    ($($t:tt)*) => {};
}

/// Keeps its tokens with the `proptest` feature and drops them without it: the items
/// `#[derive(ArbitraryXml)]` emits. Not a public API.
#[cfg(feature = "proptest")]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_arbitrary {
    ($($t:tt)*) => { $($t)* };
}

/// Keeps its tokens with the `proptest` feature and drops them without it: the items
/// `#[derive(ArbitraryXml)]` emits. Not a public API.
#[cfg(not(feature = "proptest"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __if_arbitrary {
    ($($t:tt)*) => {};
}
pub use types::{Nillable, OptionalNillable};
pub use xml::{FromXml, ToXml};

/// `Result` with soapgen's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Includes a client generated by `soapgen_build::Builder` in `build.rs`: the file
/// `$OUT_DIR/<name>.rs` (the WSDL's file stem unless `Builder::out_name` set another). A name
/// build.rs did not generate is a compile error listing the ones it did.
///
/// # Examples
///
/// ```text
/// // build.rs: soapgen_build::Builder::new().wsdl("wsdl/globalweather.wsdl").build().unwrap();
/// mod globalweather {
///     soapgen_runtime::include_client!("globalweather");
/// }
/// ```
#[macro_export]
macro_rules! include_client {
    ($name:literal) => {
        $crate::__include_client!($name);
    };
}
