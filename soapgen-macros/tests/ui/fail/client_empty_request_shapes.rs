use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    #[soap(empty_request)]
    async fn with_body(&self, a: String) -> Result<String, Error>;
    #[soap(empty_request, encoded)]
    async fn encoded(&self) -> Result<String, Error>;
}

fn main() {}
