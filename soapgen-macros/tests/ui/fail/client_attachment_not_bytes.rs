use soapgen_runtime::mime::Attachment;
use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    async fn upload(&self, #[soap(attachment)] a: String) -> Result<(), Error>;
    #[soap(response_attachment = "a")]
    async fn download(&self) -> Result<((), String), Error>;
    async fn fine(&self, #[soap(attachment)] a: Attachment) -> Result<(), Error>;
}

fn main() {}
