//! The general-purpose peers, spyne and gSOAP:
//!
//! - [`smoke`]: each peer started and called over raw HTTP, no soapgen in the loop;
//! - [`spyne`]: every operation of the spyne service through `#[soap_client]` traits;
//! - [`gsoap`]: echo, faults and headers against the gSOAP echo server.

mod gsoap;
mod smoke;
mod spyne;
