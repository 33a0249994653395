//! The front end of the macros, as serde_derive's `internals`: each macro's input read once
//! into a typed model, its attributes parsed and checked, every mistake collected with its span
//! ([`ctxt`]); the generators (`derive`, `client`, `arbitrary`) only turn a model into code.

pub(crate) mod ast;
pub(crate) mod attr;
pub(crate) mod check;
pub(crate) mod ctxt;
pub(crate) mod names;
pub(crate) mod occurs;
pub(crate) mod service;

pub(crate) use ctxt::{Errors, KeySite};
