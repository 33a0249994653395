//! The model: [`components`] as read from WSDL and XSD (names resolved, locations kept), then the
//! Rust-facing [`ir`] that [`build`] derives from them and emission writes out; [`clients`] decides
//! which bindings make one client and what clients and fault sets are called.

pub mod addressing;
pub mod build;
pub mod clients;
pub mod components;
pub mod ir;
pub mod names;
pub mod select;
