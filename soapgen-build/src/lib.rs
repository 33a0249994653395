//! soapgen-build: reads WSDL 1.1 and XSD at build time and emits statically typed soapgen clients.
//!
//! This crate is the engine of the WSDL route (a `build.rs` `Builder` and the `soapgen` CLI). Its
//! readers, resolved model and emitter are being built; until they land, clients are written with
//! `#[soap_client]` on a trait (see `soapgen-runtime`).
#![deny(missing_docs)]
