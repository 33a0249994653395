use soapgen_runtime::ToXml;

pub struct Opaque;

#[derive(ToXml)]
pub struct S {
    inner: Opaque,
}

fn main() {}
