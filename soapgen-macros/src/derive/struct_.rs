//! A struct with named fields (XML Schema Part 1 §3.4 complexType): its attributes, then its
//! element fields or its content, written and read; a `sequence` struct's elements by position
//! (§3.8), as a model group too when it has no attributes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

use super::impls::{from_xml_impl, read_nil_fn, to_xml_impl, Which};
use crate::fields;
use crate::internals::ast::Struct;
use crate::internals::attr::Container;

/// The `which` impl of `input`, the struct `s` with container attributes `c`.
pub(super) fn expand(input: &DeriveInput, c: &Container, s: &Struct, which: Which) -> TokenStream {
    if c.sequence {
        return sequence(&input.ident, c, s, which);
    }
    let krate = &c.krate;
    let ident = &input.ident;
    // A `Nillable<T>` text field: the content may be nil while the attributes are kept (XML
    // Schema Part 1 §2.6.2).
    let nillable_text = s.nillable_text();
    match which {
        Which::ToXml => {
            let attrs = fields::write_attributes(krate, &s.attributes);
            let content = match &s.content {
                Some(t) if t.raw => {
                    let f = &t.field;
                    quote!(#krate::types::AnyXml::write_content(&self.#f, __w)?;)
                }
                Some(t) if nillable_text.is_some() => {
                    let f = &t.field;
                    quote!(#krate::__private::write_nillable_text(__w, &self.#f)?;)
                }
                Some(t) => {
                    let f = &t.field;
                    quote!(__w.text_value(&self.#f)?;)
                }
                None => fields::write_elements(krate, &s.elements),
            };
            let start = fields::tri(quote!(__w.start_element(__name)));
            let body = quote! {
                #start;
                #attrs
                #content
                __w.end_element()
            };
            to_xml_impl(krate, ident, &input.generics, body)
        }
        Which::FromXml => {
            let attrs = fields::read_attributes(krate, &s.attributes);
            let content = match &s.content {
                Some(t) if t.raw => {
                    let slot = &t.slot;
                    quote!(let #slot = #krate::types::AnyXml::read_content(__r)?;)
                }
                Some(t) => {
                    let (slot, ty) = (&t.slot, &t.ty);
                    match &nillable_text {
                        Some(inner) => quote! {
                            let #slot: #ty = #krate::__private::read_nillable_text::<#inner>(__r, &__start)?;
                        },
                        None => quote!(let #slot: #ty = __r.read_simple::<#ty>(&__start)?;),
                    }
                }
                None => fields::read_elements(krate, &s.elements),
            };
            let read_nil = read_nil_fn(krate, &s.attributes, nillable_text.is_some());
            let ctor = &s.ctor;
            let body = quote! {
                #attrs
                #content
                ::core::result::Result::Ok(#ident { #ctor })
            };
            from_xml_impl(krate, ident, &input.generics, body, read_nil)
        }
    }
}

/// A `#[xml(sequence)]` struct: `ToXml`/`FromXml` with its elements read by position, and, without
/// attributes, `ToXmlGroup`/`FromXmlGroup` so that it can occur inside another element's content.
fn sequence(ident: &syn::Ident, c: &Container, s: &Struct, which: Which) -> TokenStream {
    let krate = &c.krate;
    let (elements, attributes, element_types, attr_ctor) =
        (&s.elements, &s.attributes, &s.element_types, &s.attr_ctor);
    let locals: Vec<syn::Ident> = element_types.iter().map(|(i, _)| i.clone()).collect();
    let types: Vec<syn::Type> = element_types.iter().map(|(_, t)| t.clone()).collect();
    let partial = quote::format_ident!("__{}Partial", ident);
    match which {
        Which::ToXml => {
            let attrs = fields::write_attributes(krate, attributes);
            let content = fields::write_elements_as(krate, elements, c.encoded);
            let group = if attributes.is_empty() {
                let body = quote! {
                    #content
                    ::core::result::Result::Ok(())
                };
                crate::group::to_xml_group_impl(krate, ident, &body)
            } else {
                TokenStream::new()
            };
            let start = fields::tri(quote!(__w.start_element(__name)));
            let body = quote! {
                #start;
                #attrs
                #content
                __w.end_element()
            };
            let element = to_xml_impl(krate, ident, &syn::Generics::default(), body);
            quote! {
                #element
                #group
            }
        }
        Which::FromXml => {
            let attrs = fields::read_attributes(krate, attributes);
            let read_nil = read_nil_fn(krate, attributes, false);
            let part = crate::group::positional_partial(krate, &partial, elements, &locals, &types);
            let read = crate::group::positional_read(&partial, &locals);
            let group = if attributes.is_empty() {
                crate::group::sequence_from_group(krate, ident, &partial, &locals, elements)
            } else {
                TokenStream::new()
            };
            let body = quote! {
                #attrs
                #read
                ::core::result::Result::Ok(#ident { #attr_ctor #(#locals,)* })
            };
            let element = from_xml_impl(krate, ident, &syn::Generics::default(), body, read_nil);
            quote! {
                #part
                #element
                #group
            }
        }
    }
}
