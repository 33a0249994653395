//! An enum of a declared type and the types derived from it (XML Schema Part 1 §2.6.1
//! `xsi:type`, §3.4.6 Type Derivation OK): `#[xml(xsi_type, namespace = "…", rename = "Declared")]`,
//! one variant per type holding its struct (`T` or `Box<T>`). The variant of the declared type
//! itself is written without `xsi:type` and read when there is none; with no such variant the
//! declared type is abstract and `xsi:type` is required. Any other variant is written with, and
//! read by, its `xsi:type`.

use proc_macro2::TokenStream;
use quote::quote;

use super::impls::{from_xml_impl, to_xml_impl, Which};
use crate::internals::ast::Derivations;
use crate::internals::attr::Container;

/// The `which` impl of the derivation enum `ident` with types `d`.
pub(super) fn expand(
    ident: &syn::Ident,
    c: &Container,
    d: &Derivations,
    which: Which,
) -> TokenStream {
    let krate = &c.krate;
    let (declared_ns, declared_local) = (&d.declared_ns, &d.declared_local);
    let variants = &d.variants;
    let declared = variants.iter().find(|v| d.is_declared(v));
    let known = variants
        .iter()
        .map(|v| {
            if v.namespace.is_empty() {
                v.local.clone()
            } else {
                format!("{{{}}}{}", v.namespace, v.local)
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    match which {
        Which::ToXml => {
            let arms = variants.iter().map(|dv| {
                let (v, ns, l, ty) = (&dv.ident, &dv.namespace, &dv.local, &dv.ty);
                let value = if dv.boxed {
                    quote!(&**__v)
                } else {
                    quote!(__v)
                };
                let set_type = if d.is_declared(dv) {
                    // The declared type needs no xsi:type; an rpc/encoded writer may have set one.
                    TokenStream::new()
                } else {
                    quote!(__w.type_next_element(#krate::xml::Name::new(#ns, #l));)
                };
                quote! {
                    #ident::#v(__v) => {
                        #set_type
                        <#ty as #krate::ToXml>::write_xml(#value, __w, __name)
                    }
                }
            });
            let body = if variants.is_empty() {
                quote!(match *self {})
            } else {
                quote!(match self { #(#arms)* })
            };
            to_xml_impl(krate, ident, &syn::Generics::default(), body)
        }
        Which::FromXml => {
            let read = |v: &syn::Ident, ty: &syn::Type, boxed: bool| {
                let value = quote!(<#ty as #krate::FromXml>::read_xml(__r, __start)?);
                let value = if boxed {
                    quote!(::std::boxed::Box::new(#value))
                } else {
                    value
                };
                quote!(::core::result::Result::Ok(#ident::#v(#value)))
            };
            let arms = variants.iter().map(|dv| {
                let r = read(&dv.ident, &dv.ty, dv.boxed);
                let (ns, l) = (&dv.namespace, &dv.local);
                quote!((#ns, #l) => #r,)
            });
            let declared_name = quote!(#krate::xml::Name::new(#declared_ns, #declared_local));
            let (untyped, unknown) = match declared {
                Some(dv) => {
                    let r = read(&dv.ident, &dv.ty, dv.boxed);
                    (
                        r.clone(),
                        quote! {{
                            __r.lenient_type(&__start, &__t, #declared_name, #known)?;
                            #r
                        }},
                    )
                }
                None => (
                    quote!(::core::result::Result::Err(
                        __r.unexpected_type(&__start, ::core::option::Option::None, #declared_name, #known)
                    )),
                    quote!(::core::result::Result::Err(
                        __r.unexpected_type(&__start, ::core::option::Option::Some(&__t), #declared_name, #known)
                    )),
                ),
            };
            let body = quote! {
                let ::core::option::Option::Some(__t) = __r.xsi_type(&__start)? else {
                    return #untyped;
                };
                match (__t.namespace_uri(), __t.local_name.as_str()) {
                    #(#arms)*
                    _ => #unknown,
                }
            };
            from_xml_impl(
                krate,
                ident,
                &syn::Generics::default(),
                body,
                TokenStream::new(),
            )
        }
    }
}
