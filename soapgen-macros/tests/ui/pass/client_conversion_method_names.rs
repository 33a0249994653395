//! Operations named `Into` and `TryInto`: the blocking client calls the async method by path
//! (`ConvClient::into(&self.inner, a)`), not as `self.inner.into(a)`, which method resolution
//! would bind to `core::convert::Into::into`; the client compiles like any other.
#![deny(warnings)]

use soapgen_runtime::{soap_client, Error};

#[soap_client(namespace = "urn:x", blocking)]
pub trait Conv {
    async fn into(&self, a: i32) -> Result<i32, Error>;
    async fn try_into(&self, a: i32) -> Result<i32, Error>;
}

fn main() {
    let _ = std::mem::size_of::<ConvBlockingClient>();
}
