use soapgen_runtime::{FromXml, ToXml};

#[derive(ToXml, FromXml)]
pub struct Tuple(i32, String);

fn main() {}
