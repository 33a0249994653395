//! The trait route: a SOAP client for a service without a WSDL, written as a Rust trait.
//!
//! Talks to the spyne test service of `tests/peers/spyne_server.py`:
//!
//! ```text
//! /usr/bin/python3 tests/peers/spyne_server.py --port 8000 &
//! cargo run -p soapgen-examples --bin trait_client -- http://127.0.0.1:8000/soap11
//! ```

use soapgen_runtime::{soap_client, Error, FromXml, ToXml};

/// spyne's `Array(Unicode)`: a wrapper holding repeated `string` elements.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:soapgen:test")]
pub struct StringArray {
    /// The items.
    pub string: Vec<String>,
}

/// The operations we call, described as a trait.
#[soap_client(namespace = "urn:soapgen:test", soap = "1.1", blocking)]
pub trait Hello {
    /// Greets `name`, `times` times.
    #[soap(action = "say_hello")]
    async fn say_hello(&self, name: String, times: i64) -> Result<StringArray, Error>;
}

#[tokio::main]
async fn main() -> Result<(), Error> {
    let endpoint = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "http://127.0.0.1:8000/soap11".to_owned());
    let client = HelloClient::new(endpoint.clone())?;
    let greetings = client.say_hello("World".to_owned(), 3).await?;
    for g in &greetings.string {
        println!("{g}");
    }
    // The same operations, blocking (on a thread that is not inside the async runtime).
    let blocking = std::thread::spawn(move || -> Result<usize, Error> {
        let c = HelloBlockingClient::new(endpoint)?;
        Ok(c.say_hello("blocking".to_owned(), 1)?.string.len())
    })
    .join()
    .expect("thread");
    println!("blocking call returned {} greeting(s)", blocking?);
    Ok(())
}
