use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", soap = "1.2")]
pub trait Svc {
    // A GET is answered with an envelope (SOAP 1.2 Part 2 §6.3): never one-way.
    #[soap(soap_response, one_way)]
    async fn fire(&self, a: String) -> Result<(), Error>;
    #[soap(soap_response(location = "x/{a}", method = "GET"))]
    async fn unknown_key(&self, a: String) -> Result<String, Error>;
}

fn main() {}

// SOAP 1.1 has no SOAP-response message exchange pattern.
#[soap_client(namespace = "urn:x")]
pub trait Soap11Only {
    #[soap(soap_response)]
    async fn rate(&self, from: String) -> Result<f64, Error>;
}

#[soap_client(namespace = "urn:x", soap = "1.2")]
pub trait Templates {
    // A malformed template, a name no parameter has, a header a GET cannot carry.
    #[soap(soap_response(location = "rates/{from"))]
    async fn malformed(&self, from: String) -> Result<f64, Error>;
    #[soap(soap_response(location = "rates/{to}"))]
    async fn uncited(&self, from: String) -> Result<f64, Error>;
    #[soap(soap_response)]
    async fn header(&self, #[soap(header)] session: Option<String>, from: String) -> Result<f64, Error>;
}

#[soap_client(namespace = "urn:x", soap = "1.2")]
pub trait Separators {
    #[soap(soap_response(query_separator = "&&"))]
    async fn two(&self, from: String) -> Result<f64, Error>;
}
