//! SOAP 1.2's SOAP-response message exchange pattern on the trait route: a GET whose IRI holds
//! the parameters, with and without a `whttp:location` template.
use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", soap = "1.2")]
pub trait Rates {
    #[soap(soap_response)]
    async fn rate(&self, from: String, to: String) -> Result<f64, Error>;
    #[soap(soap_response(location = "rates/{from}", query_separator = ";"))]
    async fn rate_at(&self, from: String, day: String) -> Result<f64, Error>;
}

fn main() {
    let _ = RatesClient::new("http://localhost/").unwrap();
}
