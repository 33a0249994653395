//! `#[soap_client(...)]` on a trait: one async client method per trait method.
//!
//! The binding is described by the attribute (WSDL 1.1 §3: `soap:binding` style and version,
//! `soap:operation` soapAction, `soap:body use="literal"`, `soap:header` parts):
//! - document/literal wrapped (default): the request is an element named after the operation holding
//!   one child per parameter; the response element `{operation}Response` holds the result element.
//! - document/literal bare (`parameters = "bare"`): the single parameter is the body element.
//! - an empty request (`#[soap(empty_request)]` on a method; WSDL 1.1 §2.3.1, an input message with
//!   no parts): the method takes no body parameters and sends an empty Body (`<soap:Body/>`).
//! - rpc/literal (`style = "rpc"`): as wrapped, with unqualified part accessors (WSDL 1.1 §3.5).
//! - rpc/encoded (`#[soap(encoded)]` on a method, SOAP 1.1 §5 and §7): the operation element carries
//!   `soapenv:encodingStyle`, each part accessor `xsi:type` from its type's
//!   [`EncodedType`](soapgen_runtime::types::EncodedType); the single result is the response element's
//!   child whatever its name (§7.1: the return accessor's name is not significant).
//!
//! SOAP with Attachments (WSDL 1.1 §5 `mime:multipartRelated`): `#[soap(attachment = "part")]`
//! parameters become MIME parts of the request (Content-ID `part=…`, WS-I AP 1.0 R2933);
//! `#[soap(response_attachment = "part")]` methods return the body result and the response's parts
//! in a tuple.

mod fake;
mod method;
mod types;

use types::Names;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::spanned::Spanned;
use syn::{FnArg, ItemTrait, ReturnType, TraitItem};

use crate::internals::attr::{parse_args, take_soap_attrs};
use crate::internals::service::Operation;
use crate::internals::Errors;

/// `#[soap_client(args)]` on `item`: the trait (its `async fn`s declared `Send`), the client, and
/// with `blocking` the blocking client; or the trait and every mistake found, as errors.
pub fn expand(args: TokenStream, mut item: ItemTrait) -> TokenStream {
    let mut errs = Errors::default();
    let a = parse_args(args, &mut errs);
    let Some(ns) = a.namespace.clone() else {
        errs.push(syn::Error::new(
            Span::call_site(),
            "soap_client needs `namespace = \"…\"` (the target namespace of the operations' elements)",
        ));
        strip_attrs(&mut item);
        return errs.finish().unwrap_or_default();
    };
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        errs.push(syn::Error::new(
            item.generics.span(),
            "a soap_client trait cannot be generic",
        ));
    }
    let trait_ident = item.ident.clone();
    let mut operations = Vec::new();
    for ti in item.items.iter_mut() {
        let TraitItem::Fn(method) = ti else {
            errs.push(syn::Error::new(
                ti.span(),
                "a soap_client trait can only contain methods (one per operation)",
            ));
            continue;
        };
        operations.extend(Operation::read(method, &a, &ns, &trait_ident, &mut errs));
    }
    if let Some(e) = errs.finish() {
        strip_attrs(&mut item);
        return quote!(#item #e);
    }
    let n = Names {
        krate: a.krate.clone(),
        vis: item.vis.clone(),
        client: a
            .client_name
            .clone()
            .unwrap_or_else(|| format_ident!("{}Client", trait_ident)),
        blocking: format_ident!("{}BlockingClient", trait_ident),
        trait_ident,
    };
    let mut inherent = TokenStream::new();
    let mut trait_impl = TokenStream::new();
    let mut blocking_methods = TokenStream::new();
    for op in &operations {
        let m = method::methods(op, &a, &n);
        inherent.extend(m.inherent);
        trait_impl.extend(m.trait_impl);
        blocking_methods.extend(m.blocking);
    }
    let common = types::consts(&a, &ns, &n.krate);
    let ctors = types::constructors(&a, &n.krate);
    let client = types::async_client(&a, &n, &common, &ctors, &inherent, &trait_impl);
    let fake = if a.fake {
        fake::dispatcher(&operations, &n, a.blocking)
    } else {
        TokenStream::new()
    };
    let blocking = if a.blocking {
        types::blocking_client(&n, &common, &ctors, &blocking_methods)
    } else {
        TokenStream::new()
    };
    strip_attrs(&mut item);
    desugar_async(&mut item);
    if a.fake {
        fake::default_bodies(&mut item, &n.krate);
    }
    quote! {
        // The trait may be used only through the generated client (dead code in a binary).
        #[allow(dead_code)]
        #item

        #client

        #blocking

        #fake
    }
}

/// Declares each `async fn` of the trait as `fn … -> impl Future<Output = …> + Send`, so that
/// implementations (the generated client, and mocks) can be used from spawned tasks.
fn desugar_async(item: &mut ItemTrait) {
    for ti in item.items.iter_mut() {
        if let TraitItem::Fn(m) = ti {
            if m.sig.asyncness.take().is_some() {
                let ret = match &m.sig.output {
                    ReturnType::Type(_, t) => quote!(#t),
                    ReturnType::Default => quote!(()),
                };
                m.sig.output = syn::parse_quote!(
                    -> impl ::core::future::Future<Output = #ret> + ::core::marker::Send
                );
            }
        }
    }
}

fn strip_attrs(item: &mut ItemTrait) {
    for ti in item.items.iter_mut() {
        if let TraitItem::Fn(m) = ti {
            take_soap_attrs(&mut m.attrs);
            for arg in m.sig.inputs.iter_mut() {
                if let FnArg::Typed(pt) = arg {
                    take_soap_attrs(&mut pt.attrs);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The full expansion of one small client, so that growth in what every operation expands to
    //! shows in review. Update with `INSTA_UPDATE=always cargo test -p soapgen-macros --lib`.

    use super::*;

    #[test]
    fn expansion_of_a_small_client() {
        let args = quote!(
            namespace = "urn:calc",
            soap = "1.1, 1.2",
            endpoint = "http://127.0.0.1:8080/calc",
            addressing(version = "1.0", soap = "1.2"),
            blocking
        );
        let item: ItemTrait = syn::parse_quote! {
            pub trait Calculator {
                /// Adds two numbers: wrapped, one required result.
                #[soap(action = "urn:calc/Add")]
                async fn add(&self, a: i32, b: i32) -> Result<i32, soapgen_runtime::Error>;
                /// An optional result and a header.
                #[soap(action = "urn:calc/Last", result = "value")]
                async fn last(
                    &self,
                    #[soap(header, namespace = "urn:calc:h")] session: Option<String>,
                ) -> Result<Option<String>, soapgen_runtime::Error>;
                /// A one-way operation.
                #[soap(one_way)]
                async fn reset(&self) -> Result<(), soapgen_runtime::Error>;
            }
        };
        let out = expand(args, item);
        let file: syn::File = syn::parse2(out).expect("the expansion parses");
        insta::assert_snapshot!(prettyplease::unparse(&file));
    }
}
