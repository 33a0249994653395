//! WS-Policy in WSDL documents (Web Services Policy 1.5 Framework and Attachment; the 1.2
//! submission of 2004/09 alike): [`expression`] brings a policy expression to its normal form,
//! [`attach`] reads which policy is attached to which WSDL 1.1 subject, [`link`] resolves the
//! references to policies of other documents once every document is read, and [`read`] reads the
//! WS-Addressing facts (assertions and explicit actions) of a WSDL 1.1 or 2.0 document.

mod addressing;
pub mod attach;
pub mod expression;
pub mod link;

pub use addressing::read;

#[cfg(test)]
mod tests;
