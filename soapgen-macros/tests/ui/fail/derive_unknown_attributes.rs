use soapgen_runtime::ToXml;

#[derive(ToXml)]
#[xml(namespace = "urn:x", form = "qualified")]
pub struct S {
    #[xml(renamed = "x")]
    a: i32,
}

fn main() {}
