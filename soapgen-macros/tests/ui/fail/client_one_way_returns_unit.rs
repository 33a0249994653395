use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    #[soap(one_way)]
    async fn notify(&self, a: String) -> Result<String, Error>;
}

fn main() {}
