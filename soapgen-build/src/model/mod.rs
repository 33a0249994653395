//! The model: the Rust-facing [`ir`] that [`build`] derives from the
//! [components](crate::read::components) read from WSDL and XSD, and emission writes out;
//! [`clients`] decides which bindings make one client and what clients and fault sets are called,
//! [`select`] which operations are generated, [`names`] what things are called in Rust, and
//! [`addressing`] which clients address their calls, and [`security`] what each port's
//! WS-SecurityPolicy demands.

pub mod addressing;
pub mod build;
pub mod clients;
pub mod ir;
pub mod names;
pub mod security;
pub mod select;
