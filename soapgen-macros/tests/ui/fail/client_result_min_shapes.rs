use soapgen_runtime::{soap_client, Error};

// `result_min` (minOccurs of the result element) needs a `Vec<T>` result inside a response wrapper.
#[soap_client(namespace = "urn:x")]
trait Service {
    #[soap(result_min = 1)]
    async fn one(&self) -> Result<String, Error>;
    #[soap(result_min = 1)]
    async fn nothing(&self) -> Result<(), Error>;
    #[soap(bare_response, result_min = 2)]
    async fn whole(&self) -> Result<Vec<String>, Error>;
    #[soap(result_min = "1")]
    async fn quoted(&self) -> Result<Vec<String>, Error>;
}

fn main() {}
