//! `#[derive(ArbitraryXml)]`: arbitrary values of XML-bound structs and enums for property tests.
//!
//! The impl is wrapped in the runtime's `__private::if_arbitrary!`, which keeps it only when the
//! runtime's `proptest` feature is on: without it the derive costs one empty macro call.
//!
//! - a struct: every field arbitrary, one nesting level deeper; its non-empty form (used where a
//!   model group with nothing in it would read back as absent, XML Schema Part 1 §3.8) makes its
//!   first element, `group` or `any` field non-empty, so that items of a repeated group start
//!   with that field and never merge with the item before (past the depth limit it is the plain
//!   value, so that recursive groups end);
//! - an enum of one-value variants (an `xs:choice`, or any enum of newtype variants such as the
//!   xsi:type alternatives of a base type): one variant, its value non-empty;
//! - a unit-only enum (an enumeration, XML Schema Part 2 §4.3.5): one value; as an `xs:list` item
//!   (§2.5.1.2) only values without whitespace.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::internals::attr::{parse_container, parse_field_attrs};
use crate::internals::occurs::{shape, type_argument, Occurrence};
use crate::internals::Errors;

pub fn expand(input: DeriveInput) -> TokenStream {
    let mut errs = Errors::default();
    let c = parse_container(&input, &mut errs);
    let krate = &c.krate;
    let ident = &input.ident;
    let (impl_g, ty_g, where_c) = input.generics.split_for_impl();
    let body = match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => struct_body(krate, named, &mut errs),
            other => {
                errs.push(syn::Error::new(
                    other.span(),
                    "ArbitraryXml needs a struct with named fields (each field is an element or attribute)",
                ));
                TokenStream::new()
            }
        },
        Data::Enum(e) => enum_body(&c, e, &mut errs),
        Data::Union(u) => {
            errs.push(syn::Error::new(
                u.union_token.span,
                "ArbitraryXml cannot be derived for unions",
            ));
            TokenStream::new()
        }
    };
    if let Some(e) = errs.finish() {
        return e;
    }
    quote! {
        #krate::__private::if_arbitrary! {
            #[doc(hidden)]
            #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all)]
            const _: () = {
                use #krate::arbitrary::{ArbitraryXml as __A, Gen as __Gen};
                #[allow(unused_imports)]
                use #krate::__private::{FromXmlText as __FromText, NoNamespaces as __NoNs};
                #[automatically_derived]
                impl #impl_g #krate::arbitrary::ArbitraryXml for #ident #ty_g #where_c {
                    #body
                }
            };
        }
    }
}

fn struct_body(krate: &TokenStream, named: &syn::FieldsNamed, errs: &mut Errors) -> TokenStream {
    // Element, group and any fields can make the struct's content non-empty; attributes, the text
    // and mixed content cannot.
    let mut plain = Vec::new();
    let mut nonempty = Vec::new();
    // Past the depth limit: the first content field present (an element at its smallest, a
    // group non-empty: group nesting is finite), the others as `plain`.
    let mut first: Option<TokenStream> = None;
    let mut k = 0usize;
    for field in &named.named {
        let Some(f) = &field.ident else { continue };
        let ty = &field.ty;
        let fa = parse_field_attrs(&field.attrs, errs);
        if fa.any_attribute {
            // Wildcard attributes: none (their names would have to avoid every declared one).
            plain.push(quote!(#f: ::std::vec::Vec::new(),));
            nonempty.push(quote!(#f: ::std::vec::Vec::new(),));
            continue;
        }
        if let (true, Some((literal, true, _))) = (fa.attribute, &fa.constraint) {
            // A fixed attribute (XML Schema Part 1 §3.2.1) holds its one value.
            let value = quote! {
                match <#ty as __FromText>::from_xml_text(#literal, &__NoNs) {
                    ::core::result::Result::Ok(__v) => __v,
                    ::core::result::Result::Err(_) => <#ty as __A>::arbitrary_xml(__g),
                }
            };
            plain.push(quote!(#f: #value,));
            nonempty.push(quote!(#f: #value,));
            continue;
        }
        if let (Some((min, _)), Some(item)) = (fa.min, vec_item(ty)) {
            // minOccurs above 0 (`min = N`): at least N items.
            let min = min as usize;
            let at_least = |start: TokenStream| {
                quote! {{
                    let __v: #ty = #start;
                    if __v.len() < #min {
                        <#item as __A>::arbitrary_items(__g, #min)
                    } else {
                        __v
                    }
                }}
            };
            if k == 0 {
                let v = at_least(present(fa.group, ty));
                first = Some(quote!(__v.#f = #v;));
            }
            let v = at_least(quote!(<#ty as __A>::arbitrary_xml(__g)));
            plain.push(quote!(#f: #v,));
            let v = at_least(if k == 0 {
                quote!(<#ty as __A>::arbitrary_nonempty(__g))
            } else {
                quote!(<#ty as __A>::arbitrary_xml(__g))
            });
            nonempty.push(quote!(#f: #v,));
            k += 1;
            continue;
        }
        let shape = shape(ty, fa.occurs);
        if fa.text && shape.card == Occurrence::Nillable && !shape.boxed {
            // Nillable content (XML Schema Part 1 §2.6.2): always a value, since a nil content
            // without attributes is the same XML as the element being nil, which reads back as
            // `Nillable::Nil` one level up.
            let inner = &shape.inner;
            let value = quote!(#f: #krate::Nillable::Value(<#inner as __A>::arbitrary_xml(__g)),);
            plain.push(value.clone());
            nonempty.push(value);
            continue;
        }
        if let (false, Some((literal, fixed, _))) = (fa.attribute, &fa.constraint) {
            // An element with a default or fixed value (XML Schema Part 1 §3.3.4 item 5.1):
            // each occurrence's empty text reads back as the value.
            let inner = &shape.inner;
            let each = quote!(|__v: #inner| #krate::arbitrary::constrained(__v, #literal, #fixed));
            let constrain = |v: TokenStream| match shape.card {
                Occurrence::One if !shape.boxed => quote!((#each)(#v)),
                Occurrence::Optional if !shape.boxed => quote!(#v.map(#each)),
                Occurrence::Many if !shape.boxed => {
                    quote!(#v.into_iter().map(#each).collect::<::std::vec::Vec<_>>())
                }
                _ => v,
            };
            let v = constrain(quote!(<#ty as __A>::arbitrary_xml(__g)));
            if k == 0 && !(fa.text || fa.content) {
                let present = constrain(quote!(<#ty as __A>::arbitrary_present(__g)));
                first = Some(quote!(__v.#f = #present;));
            }
            plain.push(quote!(#f: #v,));
            let start = if k == 0 && !(fa.text || fa.content) {
                quote!(<#ty as __A>::arbitrary_nonempty(__g))
            } else {
                quote!(<#ty as __A>::arbitrary_xml(__g))
            };
            let v = constrain(start);
            nonempty.push(quote!(#f: #v,));
            k += 1;
            continue;
        }
        if k == 0 && !(fa.attribute || fa.text || fa.content) {
            let v = present(fa.group, ty);
            first = Some(quote!(__v.#f = #v;));
        }
        plain.push(quote!(#f: <#ty as __A>::arbitrary_xml(__g),));
        if fa.attribute || fa.text || fa.content {
            nonempty.push(quote!(#f: <#ty as __A>::arbitrary_xml(__g),));
        } else {
            if k == 0 {
                nonempty.push(quote!(#f: <#ty as __A>::arbitrary_nonempty(__g),));
            } else {
                nonempty.push(quote!(#f: <#ty as __A>::arbitrary_xml(__g),));
            }
            k += 1;
        }
    }
    let nonempty_fn = (k > 0).then(|| {
        quote! {
            fn arbitrary_nonempty(__g: &mut __Gen<'_>) -> Self {
                // Past the depth limit, no deeper: the least content that is not empty.
                if __g.depth() == 0 {
                    let mut __v = <Self as __A>::arbitrary_xml(__g);
                    #first
                    return __v;
                }
                __g.nested(|__g| Self { #(#nonempty)* })
            }
        }
    });
    quote! {
        fn arbitrary_xml(__g: &mut __Gen<'_>) -> Self {
            __g.nested(|__g| Self { #(#plain)* })
        }
        #nonempty_fn
    }
}

/// A value of a content field of type `ty` that writes something past the depth limit: a group
/// non-empty (group nesting is finite), an element present at its smallest.
fn present(group: bool, ty: &syn::Type) -> TokenStream {
    if group {
        quote!(<#ty as __A>::arbitrary_nonempty(__g))
    } else {
        quote!(<#ty as __A>::arbitrary_present(__g))
    }
}

/// The item type of a `Vec<T>` field type (its last path segment's one type argument).
fn vec_item(ty: &syn::Type) -> Option<&syn::Type> {
    type_argument(ty, "Vec")
}

fn enum_body(
    c: &crate::internals::attr::Container,
    e: &syn::DataEnum,
    errs: &mut Errors,
) -> TokenStream {
    if e.variants.is_empty() {
        errs.push(syn::Error::new(
            e.enum_token.span,
            "ArbitraryXml needs at least one variant",
        ));
        return TokenStream::new();
    }
    let all_unit = e.variants.iter().all(|v| matches!(v.fields, Fields::Unit));
    let all_newtype = e
        .variants
        .iter()
        .all(|v| matches!(&v.fields, Fields::Unnamed(u) if u.unnamed.len() == 1));
    let n = e.variants.len();
    if all_newtype {
        let arms: Vec<TokenStream> = e
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let vi = &v.ident;
                let pat = arm_pattern(i, n);
                quote!(#pat => Self::#vi(__A::arbitrary_nonempty(__g)),)
            })
            .collect();
        // Alternatives whose neighbours of the same alternative would merge when read back: a
        // repeated element (`Vec<T>`), a nested group, a wildcard.
        let repeatable: Vec<usize> = e
            .variants
            .iter()
            .enumerate()
            .filter(|(_, v)| {
                let fa = parse_field_attrs(&v.attrs, errs);
                let is_vec = match &v.fields {
                    Fields::Unnamed(u) => u.unnamed.first().is_some_and(|f| {
                        matches!(&f.ty, syn::Type::Path(p)
                            if p.path.segments.last().is_some_and(|s| s.ident == "Vec"))
                    }),
                    _ => false,
                };
                is_vec || fa.group || fa.any
            })
            .map(|(i, _)| i)
            .collect();
        let items = (!repeatable.is_empty() && n > 1).then(|| {
            quote! {
                fn arbitrary_items(__g: &mut __Gen<'_>, __n: usize) -> ::std::vec::Vec<Self> {
                    let mut __out = ::std::vec::Vec::with_capacity(__n);
                    let mut __last: ::core::option::Option<usize> = ::core::option::Option::None;
                    while __out.len() < __n {
                        let __i = __g.index(#n);
                        if __last == ::core::option::Option::Some(__i) && [#(#repeatable),*].contains(&__i) {
                            continue;
                        }
                        __last = ::core::option::Option::Some(__i);
                        __out.push(match __i {
                            #(#arms)*
                        });
                    }
                    __out
                }
            }
        });
        return quote! {
            fn arbitrary_xml(__g: &mut __Gen<'_>) -> Self {
                match __g.index(#n) {
                    #(#arms)*
                }
            }
            #items
        };
    }
    if !all_unit {
        errs.push(syn::Error::new(
            e.enum_token.span,
            "ArbitraryXml on an enum needs unit variants (an enumeration) or one-value variants only \
             (a choice)",
        ));
        return TokenStream::new();
    }
    let arms = e.variants.iter().enumerate().map(|(i, v)| {
        let vi = &v.ident;
        let pat = arm_pattern(i, n);
        quote!(#pat => Self::#vi,)
    });
    // List items are separated by whitespace (XML Schema Part 2 §2.5.1.2): only values without any.
    let mut tokens = Vec::new();
    for v in &e.variants {
        let fa = parse_field_attrs(&v.attrs, errs);
        let text = match (&fa.rename, &c.rename_all) {
            (Some(r), _) => r.clone(),
            (None, Some((rule, _))) => {
                crate::internals::names::rename_all(rule, &v.ident.to_string()).unwrap_or_default()
            }
            (None, None) => v.ident.to_string(),
        };
        if !text.is_empty() && !text.contains([' ', '\t', '\r', '\n']) {
            let vi = &v.ident;
            tokens.push(quote!(Self::#vi));
        }
    }
    let list_item = (!tokens.is_empty() && tokens.len() < n).then(|| {
        let m = tokens.len();
        let arms = tokens.iter().enumerate().map(|(i, t)| {
            let pat = arm_pattern(i, m);
            quote!(#pat => #t,)
        });
        quote! {
            fn arbitrary_list_item(__g: &mut __Gen<'_>) -> Self {
                match __g.index(#m) {
                    #(#arms)*
                }
            }
        }
    });
    quote! {
        fn arbitrary_xml(__g: &mut __Gen<'_>) -> Self {
            match __g.index(#n) {
                #(#arms)*
            }
        }
        #list_item
    }
}

/// The pattern of arm `i` of `n` matching a random index: the last arm takes the rest, so the match
/// is exhaustive without a panic.
fn arm_pattern(i: usize, n: usize) -> TokenStream {
    if i + 1 == n {
        quote!(_)
    } else {
        quote!(#i)
    }
}
