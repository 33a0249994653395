use soapgen_runtime::FromXml;

pub struct Opaque;

#[derive(FromXml)]
pub struct S {
    name: String,
    inner: Opaque,
    many: Vec<Opaque>,
}

fn main() {}
