use soapgen_runtime::ToXml;

#[derive(ToXml)]
#[xml(rename_all = "Camel")]
pub struct S {
    a: i32,
}

fn main() {}
