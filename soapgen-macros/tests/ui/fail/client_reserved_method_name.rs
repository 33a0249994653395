use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    async fn from_client(&self) -> Result<(), Error>;
}

fn main() {}
