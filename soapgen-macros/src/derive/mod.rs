//! `#[derive(ToXml)]` and `#[derive(FromXml)]`: the type read into a model
//! ([`internals::ast`](crate::internals::ast)), then one generator per shape.
//!
//! A struct with named fields is a complexType (XML Schema Part 1 §3.4): each field is a child element
//! (in declaration order, the `sequence`), an attribute (`#[xml(attribute)]`) or the simple content
//! (`#[xml(text)]`) ([`struct_`]). An enum of one-value variants is a choice (§3.8, [`choice`]);
//! with `xsi_type`, a declared type and the types derived from it (§2.6.1, [`derivations`]); a
//! unit-only enum is a simpleType restricted by enumeration (Part 2 §4.3.5, [`enumeration`]).

mod choice;
mod derivations;
mod enumeration;
mod impls;
mod struct_;

pub use impls::Which;

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::internals::ast::{
    choice_variants, enumeration_values, is_choice, refuse_generics, Derivations, Struct,
};
use crate::internals::attr::parse_container;
use crate::internals::Errors;

/// `#[derive(ToXml)]` or `#[derive(FromXml)]` on `input`: the impl, in a `const _` block, or
/// every mistake found, as errors.
pub fn expand(input: DeriveInput, which: Which) -> TokenStream {
    let mut errs = Errors::default();
    let c = parse_container(&input, &mut errs);
    let body = match &input.data {
        Data::Struct(_) if c.xsi_type => {
            errs.push(syn::Error::new(
                input.ident.span(),
                "`xsi_type` goes on an enum with one variant per type (the declared type and the \
                 types derived from it)",
            ));
            TokenStream::new()
        }
        _ if c.encoded && !(matches!(&input.data, Data::Struct(_)) && c.sequence) => {
            errs.push(syn::Error::new(
                input.ident.span(),
                "`encoded` goes on a `sequence` struct: the parts of an rpc/encoded request, each \
                 written with its xsi:type (SOAP 1.1 §5.1)",
            ));
            TokenStream::new()
        }
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => {
                let s = Struct::read(&input, &c, named, &mut errs);
                struct_::expand(&input, &c, &s, which)
            }
            other => {
                errs.push(syn::Error::new(
                    other.span(),
                    "ToXml/FromXml need a struct with named fields (each field is an element or attribute)",
                ));
                TokenStream::new()
            }
        },
        Data::Enum(e) if c.xsi_type => {
            refuse_generics(&input, "an `xsi_type` enum", &mut errs);
            let d = Derivations::read(&input.ident, &c, e, &mut errs);
            derivations::expand(&input.ident, &c, &d, which)
        }
        Data::Enum(e) => {
            refuse_generics(&input, "an enumeration type", &mut errs);
            if is_choice(e) {
                refuse_generics(&input, "a choice enum", &mut errs);
                let variants = choice_variants(&c, e, &mut errs);
                choice::expand(&input.ident, &c, &variants, which)
            } else {
                let values = enumeration_values(&c, e, &mut errs);
                enumeration::expand(&input.ident, &c, &values, which)
            }
        }
        Data::Union(u) => {
            errs.push(syn::Error::new(
                u.union_token.span,
                "ToXml/FromXml cannot be derived for unions",
            ));
            TokenStream::new()
        }
    };
    if let Some(e) = errs.finish() {
        return e;
    }
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all)]
        const _: () = {
            #body
        };
    }
}
