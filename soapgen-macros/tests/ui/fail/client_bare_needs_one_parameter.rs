use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", parameters = "bare")]
pub trait Svc {
    async fn two(&self, a: String, b: String) -> Result<String, Error>;
}

fn main() {}
