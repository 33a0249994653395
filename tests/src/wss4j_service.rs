//! The service the WSS4J peer implements ([`crate::peers::wss4j`]): `Echo` over SOAP 1.1 and 1.2,
//! answering with what WSS4J's `processSecurityHeader` verified.

use soapgen_runtime::{soap_client, Error, FromXml, ToXml};

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
