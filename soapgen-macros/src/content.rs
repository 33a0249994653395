//! A struct's element content (no model-group fields) read through the runtime's shared loop
//! (`__private::read_content`, XML Schema Part 1 §3.9): the particles as constant data, one slot
//! per field, and after the loop each field's final value taken out of its slot.
//!
//! Everything a reader does per child (name matching, duplicate and occurrence checks, the errors
//! naming the expected elements) lives in the runtime, compiled once; a derived type expands to
//! its slots and one call, which keeps the code per type small (the runtime's `Slot`
//! implementations are shared by every field of the same type and shape in the crate).

use proc_macro2::TokenStream;
use quote::quote;

use crate::fields::{name_expr, ElementField};
use crate::internals::occurs::Occurrence;

/// Code reading the children of `__start` into locals named after the fields' slots (their final
/// values, required ones present), for `fields` of which none is a model group.
pub fn read_by_name(krate: &TokenStream, fields: &[ElementField]) -> TokenStream {
    let p = quote!(#krate::__private);
    let named: Vec<&ElementField> = fields.iter().filter(|f| !f.any).collect();
    let mut decls = TokenStream::new();
    let mut particles = Vec::new();
    let mut finals = TokenStream::new();
    for (i, f) in named.iter().enumerate() {
        let slot = &f.slot;
        let inner = &f.shape.inner;
        let stored = crate::fields::stored_ty(f);
        let read = match &f.default {
            Some(d) => quote!(#p::Or(#d)),
            None => quote!(#p::Element),
        };
        let (kind, min) = match f.shape.card {
            Occurrence::One => (quote!(Required), 1),
            Occurrence::Optional => (quote!(Optional), 0),
            Occurrence::Many => (quote!(Repeated), f.min),
            Occurrence::Nillable => (quote!(NillableOne), 1),
            Occurrence::OptionalNillable if f.shape.tristate => (quote!(Tristate), 0),
            Occurrence::OptionalNillable => (quote!(NillableOne), 0),
            Occurrence::ManyNillable => (quote!(RepeatedNillable), f.min),
        };
        // Unboxed, what is read is what is kept (the one type may be `_`, an alias's).
        let new = if f.shape.boxed {
            quote!(#p::#kind::<#inner, #stored, _>::new(#read))
        } else {
            quote!(#p::#kind::<#inner, #inner, _>::same(#read))
        };
        decls.extend(quote::quote_spanned! {f.span=>
            let mut #slot = #new;
        });
        let same = |g: &&&ElementField| g.namespace == f.namespace && g.local == f.local;
        let shared = named.iter().filter(same).count() > 1;
        // A later particle of the same name, or a wildcard after this field.
        let yields = named[i + 1..].iter().any(|g| same(&g))
            || fields
                .iter()
                .skip_while(|g| g.slot != f.slot)
                .skip(1)
                .any(|g| g.any);
        let (ns, local) = (&f.namespace, &f.local);
        particles.push(quote! {
            #p::Particle::new(#ns, #local, #shared, #yields)
        });
        let repeated = matches!(f.shape.card, Occurrence::Many | Occurrence::ManyNillable);
        let name = name_expr(krate, &f.namespace, &f.local);
        finals.extend(match (min, repeated) {
            (0, _) => quote!(let #slot = #slot.value;),
            (_, false) => quote! {
                let #slot = match #slot.value {
                    ::core::option::Option::Some(__v) => __v,
                    ::core::option::Option::None => {
                        return ::core::result::Result::Err(__r.missing_in(&__start, #name));
                    }
                };
            },
            (min, true) => quote! {
                let #slot = #slot.value;
                if (#slot.len() as u64) < #min {
                    return ::core::result::Result::Err(
                        #p::too_few(__r, &__start, #name, #min, #slot.len()),
                    );
                }
            },
        });
    }
    // Each slot named with its field type's span: a type that cannot be read is reported there
    // (the cast to `dyn Slot` is where its `FromXml` bound is checked).
    let slots = named.iter().map(|f| {
        let span = syn::spanned::Spanned::span(&f.shape.inner);
        let slot = syn::Ident::new(&f.slot.to_string(), span);
        quote::quote_spanned!(span=> &mut #slot)
    });
    let (any_decl, any_arg, any_final) = match fields.iter().find(|f| f.any) {
        Some(f) => {
            let (slot, inner) = (&f.slot, &f.shape.inner);
            let kind = if f.shape.card == Occurrence::Many {
                quote!(Wildcards)
            } else {
                quote!(Wildcard)
            };
            (
                quote!(let mut #slot = #p::#kind::<#inner>::default();),
                quote!(::core::option::Option::Some(&mut #slot)),
                quote!(let #slot = #slot.value;),
            )
        }
        None => (
            TokenStream::new(),
            quote!(::core::option::Option::None),
            TokenStream::new(),
        ),
    };
    let read = crate::fields::tri(
        quote!(#p::read_content(__r, __PARTICLES, &mut [#(#slots),*], #any_arg)),
    );
    quote! {
        #decls
        #any_decl
        const __PARTICLES: &[#p::Particle] = &[#(#particles),*];
        #read;
        #finals
        #any_final
    }
}
