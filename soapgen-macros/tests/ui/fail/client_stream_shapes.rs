use soapgen_runtime::{soap_client, Error, ItemStream};

#[soap_client(namespace = "urn:x")]
pub trait Reports {
    /// The whole response element is the result: nothing repeats inside a wrapper.
    #[soap(bare_response)]
    async fn bare(&self, q: String) -> Result<ItemStream<String>, Error>;
    /// rpc/encoded: multiRef accessors may refer anywhere in the Body.
    #[soap(encoded)]
    async fn encoded(&self, q: String) -> Result<ItemStream<String>, Error>;
    /// `items` names the elements inside an array result, which only a stream reads apart.
    #[soap(items = "Row")]
    async fn rows(&self, q: String) -> Result<Vec<String>, Error>;
}

fn main() {}
