use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x")]
pub trait Svc {
    fn not_async(&self) -> Result<(), Error>;
    async fn no_result(&self) -> String;
    async fn no_self(x: i32) -> Result<(), Error>;
    async fn mut_self(&mut self) -> Result<(), Error>;
    async fn pattern(&self, (a, b): (i32, i32)) -> Result<(), Error>;
    async fn generic<T>(&self, t: T) -> Result<(), Error>;
    const X: i32;
}

fn main() {}
