use soapgen_runtime::{soap_client, Error};

#[soap_client(soap = "1.1")]
pub trait Svc {
    async fn ping(&self) -> Result<(), Error>;
}

fn main() {}
