//! Binary data: MTOM/XOP, SOAP with Attachments and line-broken base64, against gSOAP and the
//! line-break server (`soapgen_tests::peers`).
//!
//! - [`mtom`]: the generated MTOM client against gSOAP and against the line-break server;
//! - [`swa`]: SwA attachments and `swaRef` against gSOAP;
//! - [`bad_input`]: broken MTOM and SwA responses (typed errors, never panics);
//! - [`smoke`]: the two peers checked over raw HTTP, no soapgen in the loop.

mod bad_input;
mod mtom;
mod smoke;
mod swa;
