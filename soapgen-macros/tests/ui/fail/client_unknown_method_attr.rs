use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    #[soap(acton = "urn:ping")]
    async fn ping(&self, #[soap(headr)] h: String) -> Result<(), Error>;
}

fn main() {}
