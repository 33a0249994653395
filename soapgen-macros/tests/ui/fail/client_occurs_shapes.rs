use soapgen_runtime::{soap_client, Error};

type Names = Vec<String>;

#[soap_client(namespace = "urn:x")]
pub trait Lists {
    #[soap(result_occurs = "many")]
    async fn aliased_result(&self) -> Result<Names, Error>;
    async fn unknown_value(&self, #[soap(occurs = "twice")] a: String) -> Result<(), Error>;
}

fn main() {}
