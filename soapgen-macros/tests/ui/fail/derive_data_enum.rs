use soapgen_runtime::ToXml;

#[derive(ToXml)]
pub enum Choice {
    A(i32),
    B { x: String },
}

fn main() {}
