use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", soap = "1.3", style = "literal", parameters = "unwrapped")]
pub trait Svc {
    async fn ping(&self) -> Result<(), Error>;
}

fn main() {}
