use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", addressing = "2.0")]
pub trait UnknownVersion {
    async fn ping(&self) -> Result<(), Error>;
}

#[soap_client(namespace = "urn:x", addressing(soap = "1.2"))]
pub trait NoVersion {
    async fn ping(&self) -> Result<(), Error>;
}

#[soap_client(namespace = "urn:x", addressing(version = "1.0", soap = "1.3"))]
pub trait BadSoapVersion {
    async fn ping(&self) -> Result<(), Error>;
}

#[soap_client(namespace = "urn:x", addressing(version = "1.0", role = "x"))]
pub trait UnknownKey {
    async fn ping(&self) -> Result<(), Error>;
}

fn main() {}
