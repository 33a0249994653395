//! A WSDL's WS-SecurityPolicy applied by the client (feature `wss`): generated clients describe
//! each secured port's policy as static data ([`PortPolicy`]: per operation, what the request
//! and the response must be, in WS-SecurityPolicy 1.2's terms); the user supplies the
//! [`Credentials`]; [`ClientBuilder::security_policy`](crate::ClientBuilder::security_policy)
//! makes them the WS-Security of each call: the request built as the policy says, the response
//! checked against it, and a response that falls short reported with the assertion it does not
//! meet ([`WssError::PolicyNotMet`](crate::wss::WssError::PolicyNotMet)).
//!
//! ```no_run
//! # fn run(policy: &'static soapgen_runtime::policy::PortPolicy) -> Result<(), Box<dyn std::error::Error>> {
//! use soapgen_runtime::policy::Credentials;
//! use soapgen_runtime::wss::{Certificate, TrustStore, X509Credential};
//! let credentials = Credentials::new()
//!     .signing(X509Credential::from_pem(&std::fs::read("client.pem")?, &std::fs::read("client.key")?)?)
//!     .service_certificate(Certificate::from_pem(&std::fs::read("service.pem")?, "service.pem")?)
//!     .trust(TrustStore::new().anchor(Certificate::from_pem(&std::fs::read("ca.pem")?, "ca.pem")?));
//! let client = soapgen_runtime::Client::builder("https://example.org/DoubleIt")
//!     .security_policy(policy, credentials)
//!     .build()?;
//! # Ok(()) }
//! ```

mod apply;
mod credentials;
mod find;
#[cfg(test)]
mod find_tests;
mod layer;
mod model;
mod tokens;

pub(crate) use apply::PolicyLayer;
pub use credentials::Credentials;
pub use find::UnknownPort;
pub use model::{
    AsymmetricBinding, Binding, HttpAuthentication, Inclusion, MessagePolicy, OperationPolicy,
    Parts, PortPolicy, Suite, SymmetricBinding, TransportBinding, X509Token, X509TokenType, XPath,
    XPathStep,
};
pub use tokens::{
    EndorsingToken, SecureConversationPolicy, SupportingX509Token, UsernameTokenPolicy,
};
