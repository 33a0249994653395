use soapgen_runtime::mime::Attachment;
use soapgen_runtime::{soap_client, Error};

/// Neither bytes nor an attachment (a local type: the compiler's list of other `From` impls
/// then does not depend on which crates are in the build).
pub struct NotBytes;

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    async fn upload(&self, #[soap(attachment)] a: NotBytes) -> Result<(), Error>;
    #[soap(response_attachment = "a")]
    async fn download(&self) -> Result<((), NotBytes), Error>;
    async fn fine(&self, #[soap(attachment)] a: Attachment) -> Result<(), Error>;
}

fn main() {}
