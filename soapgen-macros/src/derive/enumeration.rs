//! A unit-only enum: a simpleType restricted by enumeration (XML Schema Part 2 §4.3.5), written
//! and read as text (`ToXmlText`, `FromXmlText`), matched exactly and then collapsed.

use proc_macro2::TokenStream;
use quote::quote;

use super::impls::Which;
use crate::internals::attr::Container;

/// The `which` impl of the enumeration `ident` with `values` (variant, text).
pub(super) fn expand(
    ident: &syn::Ident,
    c: &Container,
    values: &[(syn::Ident, String)],
    which: Which,
) -> TokenStream {
    let krate = &c.krate;
    let type_name = c.type_name.clone().unwrap_or_else(|| ident.to_string());
    match which {
        Which::ToXml => {
            let arms = values.iter().map(|(v, t)| quote!(#ident::#v => #t,));
            let body = if values.is_empty() {
                quote!(match *self {})
            } else {
                quote!(__out.push_str(match self { #(#arms)* }))
            };
            quote! {
                #[automatically_derived]
                impl #krate::__private::ToXmlText for #ident {
                    fn write_xml_text(
                        &self,
                        __out: &mut #krate::__private::TextOut<'_>,
                    ) -> ::core::result::Result<(), #krate::EncodeError> {
                        #body
                    }
                }
            }
        }
        Which::FromXml => {
            let arms = values.iter().map(|(v, t)| quote!(#t => #ident::#v,));
            let arms2 = arms.clone();
            let allowed = values
                .iter()
                .map(|(_, t)| format!("{t:?}"))
                .collect::<Vec<_>>()
                .join(", ");
            quote! {
                #[automatically_derived]
                impl #krate::__private::FromXmlText for #ident {
                    fn from_xml_text(
                        __text: &str,
                        _: &dyn #krate::__private::PrefixResolver,
                    ) -> ::core::result::Result<Self, #krate::ValueError> {
                        // Exact match first (string-based enumerations preserve whitespace), then the
                        // collapsed form (token-based ones collapse it).
                        ::core::result::Result::Ok(match __text {
                            #(#arms)*
                            _ => match #krate::__private::collapse(__text) {
                                #(#arms2)*
                                _ => return ::core::result::Result::Err(
                                    #krate::__private::enumeration_error(#type_name, __text, #allowed)),
                            },
                        })
                    }
                }
            }
        }
    }
}
