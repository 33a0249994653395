use soapgen_runtime::types::AnyElement;
use soapgen_runtime::FromXml;

#[derive(FromXml)]
#[xml(namespace = "urn:t")]
pub struct TwoAny {
    #[xml(any)]
    first: Option<AnyElement>,
    a: Option<i32>,
    #[xml(any)]
    second: Vec<AnyElement>,
}

fn main() {}
