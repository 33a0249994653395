use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", parameters = "bare")]
pub trait Svc {
    async fn two(&self, a: String, b: String) -> Result<String, Error>;
}

#[soap_client(namespace = "urn:x", client = "StructClient")]
pub trait Struct {
    #[soap(request_struct)]
    async fn two(&self, a: String, b: String) -> Result<String, Error>;
    #[soap(request_struct, bare)]
    async fn bare_one(&self, a: String) -> Result<String, Error>;
}

fn main() {}
