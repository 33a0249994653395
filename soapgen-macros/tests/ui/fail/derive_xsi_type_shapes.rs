use soapgen_runtime::{FromXml, ToXml};

#[derive(ToXml, FromXml)]
pub struct Shape {
    name: String,
}

#[derive(ToXml, FromXml)]
pub struct Circle {
    name: String,
    radius: f64,
}

// `encoded` is for a `sequence` struct (the parts of an rpc/encoded request).
#[derive(ToXml)]
#[xml(encoded)]
pub struct NotASequence {
    a: i32,
}

// `xsi_type` is for an enum of a declared type and its derived types.
#[derive(ToXml)]
#[xml(xsi_type)]
pub struct NotAnEnum {
    a: i32,
}

#[derive(ToXml, FromXml)]
#[xml(xsi_type, namespace = "urn:x", rename = "Shape")]
pub enum ShapeKind {
    Shape(Shape),
    // Occurrence belongs to the field holding the enum.
    Circles(Vec<Circle>),
    // One value per variant.
    Pair(Shape, Circle),
    // Names the same type as `Shape`.
    #[xml(rename = "Shape")]
    Again(Shape),
    // Not a type name.
    #[xml(attribute)]
    Attr(Circle),
}

fn main() {}
