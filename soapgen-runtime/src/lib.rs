//! The runtime of soapgen-generated SOAP clients.
//!
//! Everything a generated or `#[soap_client]` client calls at run time, and nothing that reads WSDL:
//!
//! - [`envelope`]: SOAP 1.1 and 1.2 envelopes, written and read;
//! - [`xml`]: the namespace-aware writer, the streaming reader, and the [`ToXml`] / [`FromXml`] traits;
//! - [`types`]: the XSD built-in types (decimal, unbounded integer, dateTime with offset, base64Binary…);
//! - [`fault`]: SOAP faults of both versions as typed values;
//! - [`transport`]: the HTTP transport trait and its reqwest implementation;
//! - [`Client`]: endpoint, transport and settings, shared by every generated client;
//! - [`Error`]: one error type with predicates.
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
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate self as soapgen_runtime;

#[cfg(feature = "blocking")]
pub mod blocking;
mod client;
pub mod envelope;
pub mod error;
pub mod fault;
pub mod transport;
pub mod types;
pub mod xml;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use client::{Client, ClientBuilder, Operation, DEFAULT_MAX_RESPONSE_BYTES};
pub use envelope::SoapVersion;
pub use error::{DecodeError, EncodeError, Error, TransportError, ValueError};
pub use fault::{Fault, FaultError};
pub use soapgen_macros::{soap_client, FromXml, ToXml};
pub use types::Nillable;
pub use xml::{FromXml, ToXml};

/// `Result` with soapgen's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
