use soapgen_runtime::mime::Attachment;
use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    async fn header_attachment(&self, #[soap(header, attachment)] a: Attachment) -> Result<(), Error>;
    async fn renamed(&self, #[soap(attachment, rename = "b")] a: Attachment) -> Result<(), Error>;
    async fn stray_type(&self, #[soap(content_type = "image/png")] a: String) -> Result<(), Error>;
    #[soap(response_attachment = "a")]
    async fn not_a_tuple(&self) -> Result<Attachment, Error>;
    #[soap(response_attachment = "a", response_attachment = "b")]
    async fn short_tuple(&self) -> Result<(String, Attachment), Error>;
    #[soap(one_way, response_attachment = "a")]
    async fn one_way(&self) -> Result<(), Error>;
    async fn not_an_attachment(&self, #[soap(attachment)] a: String) -> Result<(), Error>;
}

fn main() {}
