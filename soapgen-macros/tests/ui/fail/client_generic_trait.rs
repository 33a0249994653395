use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc<T> {
    async fn ping(&self) -> Result<(), Error>;
}

fn main() {}
