//! SOAP with Attachments (WSDL 1.1 §5 MIME binding) through `#[soap_client]`, compiled with warnings
//! as errors.
#![deny(warnings, missing_docs)]

use soapgen_runtime::mime::Attachment;
use soapgen_runtime::types::{Base64Binary, SwaRef};
use soapgen_runtime::{soap_client, Error, FromXml, ToXml};

/// A body with a swaRef.
#[derive(Debug, Clone, ToXml, FromXml)]
#[xml(namespace = "urn:photos")]
pub struct Album {
    /// Its name.
    pub name: String,
    /// A photo as an attachment.
    pub cover: SwaRef,
}

/// A photo service.
#[soap_client(namespace = "urn:photos", blocking)]
pub trait Photos {
    /// Two attachments each way; the body result first.
    #[soap(response_attachment = "photo", response_attachment = "thumbnail")]
    async fn echo(
        &self,
        name: String,
        #[soap(attachment, content_type = "image/jpeg")] photo: Attachment,
        #[soap(attachment = "thumbnail", content_type = "image/*")] thumb: Base64Binary,
    ) -> Result<(String, Attachment, Vec<u8>), Error>;
    /// Attachments only back, and no body result.
    #[soap(response_attachment = "photo")]
    async fn get(&self, id: u32) -> Result<((), Base64Binary), Error>;
    /// One-way upload.
    #[soap(one_way)]
    async fn upload(&self, album: Album, #[soap(attachment)] raw: Vec<u8>) -> Result<(), Error>;
    /// Bare: the attachment does not count as a body parameter.
    #[soap(bare, name = "Album", response = "Album")]
    async fn bare(&self, album: Album, #[soap(attachment = "x")] x: Attachment) -> Result<Album, Error>;
}

fn main() {
    let _ = PhotosClient::NAMESPACE;
    let _ = std::mem::size_of::<PhotosBlockingClient>();
}
