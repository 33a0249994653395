use soapgen_runtime::ToXml;

#[derive(ToXml)]
pub struct S {
    #[xml(text)]
    value: String,
    child: String,
}

fn main() {}
