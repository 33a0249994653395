use soapgen_runtime::{FromXml, ToXml};

#[derive(ToXml, FromXml)]
pub struct S {
    #[xml(attribute)]
    many: Vec<String>,
    #[xml(attribute, text)]
    both: String,
}

fn main() {}
