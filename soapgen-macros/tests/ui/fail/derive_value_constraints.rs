use soapgen_runtime::ToXml;

#[derive(ToXml)]
pub struct S {
    // A default goes on an attribute.
    #[xml(default = "1")]
    a: i32,
    // An attribute with a default always has a value.
    #[xml(attribute, default = "1")]
    b: Option<i32>,
    // One constraint per attribute.
    #[xml(attribute, default = "1", fixed = "2")]
    c: i32,
}

fn main() {}
