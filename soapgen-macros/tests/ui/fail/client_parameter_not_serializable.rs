use soapgen_runtime::{soap_client, Error};

pub struct NotXml;

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    async fn ping(&self, v: NotXml) -> Result<(), Error>;
}

fn main() {}
