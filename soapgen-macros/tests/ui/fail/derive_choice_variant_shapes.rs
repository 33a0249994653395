use soapgen_runtime::types::{Nillable, OptionalNillable};
use soapgen_runtime::{FromXml, ToXml};

// An optional choice is an `Option` field of its parent, not an optional alternative.
#[derive(ToXml, FromXml)]
pub enum Choice {
    A(Option<i32>),
    B(Option<Nillable<String>>),
    C(OptionalNillable<String>),
    D(Nillable<String>),
}

fn main() {}
