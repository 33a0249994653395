//! Interop and end-to-end tests of soapgen against real peers (spyne, gSOAP) and a canned loopback
//! server for broken responses.

pub mod canned;
pub mod corpus;
pub mod large_objects;
pub mod peers;
