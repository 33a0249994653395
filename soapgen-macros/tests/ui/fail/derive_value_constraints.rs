use soapgen_runtime::ToXml;

#[derive(ToXml)]
pub struct S {
    // A default goes on an attribute or an element, not on a wildcard.
    #[xml(any, default = "1")]
    a: Vec<soapgen_runtime::types::AnyElement>,
    // An attribute with a default always has a value.
    #[xml(attribute, default = "1")]
    b: Option<i32>,
    // One constraint per attribute.
    #[xml(attribute, default = "1", fixed = "2")]
    c: i32,
}

fn main() {}
