//! The impls every derive writes: `ToXml` and `FromXml` around a generated body, and
//! `FromXml::read_nil` of a struct with attributes (XML Schema Part 1 §2.6.2).

use proc_macro2::TokenStream;
use quote::quote;

use crate::fields::name_expr;
use crate::internals::ast::AttributeField;

/// Which trait is derived.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Which {
    ToXml,
    FromXml,
}

/// `FromXml::read_nil` of a struct with attributes (XML Schema Part 1 §2.6.2: a nil element keeps
/// its attributes), and `NIL_CONTENT` of one with a `Nillable<T>` text field: with such a field
/// the struct itself, its content nil; otherwise
/// plain nil when none of its attributes is there, else a typed error (they would be lost). Nothing
/// (the trait's default, plain nil) for a struct without attributes.
pub(super) fn read_nil_fn(
    krate: &TokenStream,
    attributes: &[AttributeField],
    nillable_text: bool,
) -> TokenStream {
    // A struct whose content may be nil keeps a nil element itself.
    let nil_content = if nillable_text {
        quote!(
            const NIL_CONTENT: bool = true;
        )
    } else {
        TokenStream::new()
    };
    if attributes.is_empty() {
        return nil_content;
    }
    let body = if nillable_text {
        quote!(<Self as #krate::FromXml>::read_xml(__r, __start).map(::core::option::Option::Some))
    } else {
        let wildcard = attributes.iter().any(|a| a.any);
        let known = attributes
            .iter()
            .filter(|a| !a.any)
            .map(|a| name_expr(krate, &a.namespace, &a.local));
        quote! {
            #krate::__private::nil_without_content(__r, __start, &[#(#known),*], #wildcard)?;
            ::core::result::Result::Ok(::core::option::Option::None)
        }
    };
    quote! {
        #nil_content
        fn read_nil<'__i>(
            __r: &mut #krate::xml::XmlReader<'__i>,
            __start: #krate::xml::StartTag<'__i>,
        ) -> ::core::result::Result<::core::option::Option<Self>, #krate::DecodeError> {
            #body
        }
    }
}

/// `impl ToXml for #ident`: `body` writes the value as the element `__name` into `__w`.
pub(super) fn to_xml_impl(
    krate: &TokenStream,
    ident: &syn::Ident,
    generics: &syn::Generics,
    body: TokenStream,
) -> TokenStream {
    let method = quote! {
        fn write_xml(
            &self,
            __w: &mut #krate::xml::XmlWriter,
            __name: #krate::xml::Name<'_>,
        ) -> ::core::result::Result<(), #krate::EncodeError> {
            #body
        }
    };
    impl_for(quote!(#krate::ToXml), ident, generics, method)
}

/// `impl FromXml for #ident`: `body` reads the element whose start tag `__start` was just read
/// from `__r`; `more` holds the impl's other items (`read_nil`, or nothing).
pub(super) fn from_xml_impl(
    krate: &TokenStream,
    ident: &syn::Ident,
    generics: &syn::Generics,
    body: TokenStream,
    more: TokenStream,
) -> TokenStream {
    let method = quote! {
        fn read_xml<'__i>(
            __r: &mut #krate::xml::XmlReader<'__i>,
            __start: #krate::xml::StartTag<'__i>,
        ) -> ::core::result::Result<Self, #krate::DecodeError> {
            #body
        }
        #more
    };
    impl_for(quote!(#krate::FromXml), ident, generics, method)
}

/// `impl #trait_ for #ident` (with `generics`) holding `items`.
fn impl_for(
    trait_: TokenStream,
    ident: &syn::Ident,
    generics: &syn::Generics,
    items: TokenStream,
) -> TokenStream {
    let (impl_g, ty_g, where_c) = generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_g #trait_ for #ident #ty_g #where_c {
            #items
        }
    }
}
