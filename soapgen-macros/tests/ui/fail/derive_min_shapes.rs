use soapgen_runtime::{FromXml, ToXml};

// `min` (minOccurs) is only for a repeated element or group field: `Vec<T>`.
#[derive(ToXml, FromXml)]
#[xml(namespace = "urn:x")]
struct NotRepeated {
    #[xml(min = 1)]
    one: String,
    #[xml(min = 1)]
    maybe: Option<String>,
    #[xml(min = "2")]
    quoted: Vec<String>,
    #[xml(any, min = 1)]
    wild: Vec<soapgen_runtime::types::AnyElement>,
}

#[derive(ToXml, FromXml)]
#[xml(namespace = "urn:x")]
enum Choice {
    #[xml(min = 2)]
    A(Vec<i32>),
    B(String),
}

fn main() {}
