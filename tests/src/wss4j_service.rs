//! The service the WSS4J peer implements ([`crate::peers::wss4j`]): `Echo` over SOAP 1.1 and 1.2,
//! answering with what WSS4J's `processSecurityHeader` verified.

use soapgen_runtime::wss::WssConfig;
use soapgen_runtime::{soap_client, Client, Error, FromXml, ToXml};

/// What the WSS4J peer verified: the echoed text, the WSS actions it processed, the UsernameToken's
/// user and password type, whether (and by whom) the message was signed, and what it decrypted.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:wss")]
pub struct Verified {
    /// The echoed text.
    pub text: String,
    /// The WS-Security actions WSS4J processed.
    pub actions: String,
    /// The UsernameToken's user, if any.
    pub user: String,
    /// `PasswordText` or `PasswordDigest`, if a UsernameToken came.
    #[xml(rename = "passwordType")]
    pub password_type: String,
    /// Whether the message was signed.
    pub signed: String,
    /// The signer's certificate subject, if signed.
    pub signer: String,
    /// The local names of the elements WSS4J decrypted (`Body` for Body content), comma
    /// separated; empty if nothing was encrypted.
    pub encrypted: String,
}

macro_rules! service {
    ($name:ident, $version:literal) => {
        /// The WSS4J peer's `Echo`.
        #[soap_client(namespace = "urn:soapgen:wss", soap = $version)]
        pub trait $name {
            /// Echoes `text` with what was verified.
            #[soap(action = "urn:soapgen:wss#Echo", name = "Echo")]
            async fn echo(&self, text: String) -> Result<Verified, Error>;
        }
    };
}

service!(Echo11, "1.1");
service!(Echo12, "1.2");

/// Calls the WSS4J peer's `Echo` at `url` over SOAP 1.1 with `text`, through a client configured
/// with `wss` (WSS 1.1 outgoing header, inbound policy on the reply).
///
/// # Errors
///
/// The client's [`Error`]: transport, fault, or [`Error::Security`] when the reply breaks `wss`'s
/// inbound policy.
///
/// # Panics
///
/// If `url` is not a URL.
pub async fn echo11(
    url: impl Into<String>,
    wss: WssConfig,
    text: String,
) -> Result<Verified, Error> {
    Echo11Client::from_client(wss_client(url, wss))
        .echo(text)
        .await
}

/// [`echo11`] over SOAP 1.2.
///
/// # Errors
///
/// As [`echo11`].
///
/// # Panics
///
/// As [`echo11`].
pub async fn echo12(
    url: impl Into<String>,
    wss: WssConfig,
    text: String,
) -> Result<Verified, Error> {
    Echo12Client::from_client(wss_client(url, wss))
        .echo(text)
        .await
}

/// A client for `url` with `wss`; panics if `url` is not one.
fn wss_client(url: impl Into<String>, wss: WssConfig) -> Client {
    Client::builder(url).wss(wss).build().expect("client")
}
