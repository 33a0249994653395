//! `#[soap_client(fake)]`: the trait's service side, run in process. A dispatcher finds the
//! operation of a request by its element and action, reads its parts and header parameters with
//! the same field code a derived struct reads with, calls the user's implementation of the
//! trait, and writes the response element (WSDL 1.1 §3.5) or the error as a fault; and the
//! client's `fake` and `fake_transport` constructors over it.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;

use super::method::{attachment_part, header_name, param_fields};
use super::types::Names;
use crate::fields::{self, ElementField};
use crate::internals::occurs::{shape, Occurrence};
use crate::internals::service::{HeaderKind, Operation, Response};

/// The dispatcher of `operations` and the client's constructors over it.
pub(super) fn dispatcher(operations: &[Operation], n: &Names, blocking: bool) -> TokenStream {
    let krate = &n.krate;
    let (client, trait_ident, vis) = (&n.client, &n.trait_ident, &n.vis);
    let blocking_ident = &n.blocking;
    let blocking_fake = blocking.then(|| {
        let doc = format!(
            "The blocking form of [`{client}::fake`]: a blocking client whose requests `service` \
             answers in process.\n\n# Errors\n\nIf the blocking runtime cannot be created."
        );
        quote! {
            #[allow(dead_code)]
            impl #blocking_ident {
                #[doc = #doc]
                pub fn fake<__S: #trait_ident + ::core::marker::Send + ::core::marker::Sync + 'static>(
                    service: __S,
                ) -> #krate::Result<Self> {
                    Self::from_client(#krate::testing::in_process_client(#client::fake_transport(service)))
                }
            }
        }
    });
    let fake = format_ident!("__{}Fake", trait_ident);
    let mut arms = Vec::new();
    let mut methods = Vec::new();
    for (i, op) in operations.iter().enumerate() {
        // A streamed method of an operation that also has a plain one: the plain one answers.
        let plain_too = op.stream.is_some()
            && operations
                .iter()
                .any(|o| o.stream.is_none() && o.name == op.name && o.namespace == op.namespace);
        if plain_too {
            continue;
        }
        let (cond, body) = arm(op, n);
        let method = format_ident!("__op{}", i);
        arms.push(quote!(if #cond { return self.#method(__in); }));
        methods.push(quote! {
            fn #method<'__a>(
                &'__a self,
                __in: &'__a #krate::testing::ServiceRequest,
            ) -> #krate::testing::DispatchFuture<'__a> {
                ::std::boxed::Box::pin(async move { #body })
            }
        });
    }
    let elements = operations.iter().filter(|op| !op.empty_request).map(|op| {
        let (ns, name) = (&op.namespace, &op.name);
        quote!((#ns, #name))
    });
    let bound = quote!(#trait_ident + ::core::marker::Send + ::core::marker::Sync + 'static);
    let fake_doc = format!(
        "A client whose requests `service` answers in process: each call writes its request as \
         it would for the service, the fake reads it back (its operation by request element and \
         action, its parts and header parameters), calls `service`'s method of the \
         [`{trait_ident}`] trait, and writes its result, or its error as a SOAP fault (HTTP 500; \
         400 for a SOAP 1.2 `Sender` fault), which the client reads as it reads the service's. \
         A request the trait cannot take is answered with a `Sender` fault that says why.\n\n\
         Configure the client (WS-Addressing, headers, timeouts) by building it on \
         [`fake_transport`](Self::fake_transport) instead."
    );
    quote! {
        #[doc(hidden)]
        #vis struct #fake<__S>(__S);

        // One function and future per operation: a dispatcher of many operations is neither one
        // function to check nor one state machine with a variant per operation.
        // A part's value is converted from and into `Attachment`, which it may be already.
        #[allow(clippy::useless_conversion)]
        impl<__S: #bound> #fake<__S> {
            #(#methods)*
        }

        impl<__S: #bound> #krate::testing::Dispatch for #fake<__S> {
            fn dispatch<'__a>(
                &'__a self,
                __in: &'__a #krate::testing::ServiceRequest,
            ) -> #krate::testing::DispatchFuture<'__a> {
                #(#arms)*
                ::std::boxed::Box::pin(async move { __in.unknown_operation(&[#(#elements),*]) })
            }
        }

        #[allow(dead_code)]
        impl #client {
            #[doc = #fake_doc]
            pub fn fake<__S: #bound>(service: __S) -> Self {
                Self::from_client(#krate::testing::in_process_client(Self::fake_transport(service)))
            }

            /// The transport of [`fake`](Self::fake): a client built on it with
            /// `Client::builder(url).transport(…)` sends its requests, with what that builder
            /// configures, to `service` in process.
            pub fn fake_transport<__S: #bound>(
                service: __S,
            ) -> ::std::sync::Arc<dyn #krate::transport::Transport> {
                ::std::sync::Arc::new(#krate::testing::InProcess::new(#fake(service)))
            }

            /// The service side of [`fake`](Self::fake) alone: what reads a request, calls
            /// `service` and writes the answer, for a server of it (`testing::Loopback` on a
            /// loopback socket, with the runtime's `testing-server` feature).
            pub fn fake_service<__S: #bound>(
                service: __S,
            ) -> ::std::sync::Arc<dyn #krate::testing::Dispatch> {
                ::std::sync::Arc::new(#fake(service))
            }
        }

        #blocking_fake
    }
}

/// With a fake, a method the trait gives no body answers, when called, with the error of
/// [`testing::not_implemented`]: a fake implements the operations its test calls and no other.
pub(super) fn default_bodies(item: &mut syn::ItemTrait, krate: &TokenStream) {
    for ti in item.items.iter_mut() {
        let syn::TraitItem::Fn(m) = ti else { continue };
        if m.default.is_some() {
            continue;
        }
        let name = m.sig.ident.to_string();
        m.attrs.push(syn::parse_quote!(#[allow(unused_variables)]));
        m.default = Some(syn::parse_quote!({
            ::core::future::ready(::core::result::Result::Err(::core::convert::From::from(
                #krate::testing::not_implemented(#name),
            )))
        }));
    }
}

/// What one operation does in the dispatcher: whether the request is for it, and the body of
/// the future that reads, calls and answers.
fn arm(op: &Operation, n: &Names) -> (TokenStream, TokenStream) {
    let krate = &n.krate;
    let (ns, name, action) = (&op.namespace, &op.name, &op.action);
    let empty = op.empty_request || (op.bare && op.body.is_empty());
    let matches = quote!(__in.is_operation(#ns, #name, #action, #empty));
    let read = read_parts(op, krate, empty);
    let headers = op
        .headers
        .iter()
        .map(|(p, kind)| {
            let (id, ty) = (&p.ident, &p.ty);
            let hname = header_name(op, p, krate);
            let get = match kind {
                HeaderKind::One => quote!(__in.required_header(#hname)),
                HeaderKind::Optional => quote!(__in.header(#hname)),
                HeaderKind::Tristate => quote!(__in.nillable_header(#hname)),
            };
            quote_spanned! {ty.span()=>
                let #id: #ty = match #get {
                    ::core::result::Result::Ok(__v) => __v,
                    ::core::result::Result::Err(__f) => return __in.fault(__f),
                };
            }
        })
        .collect::<Vec<_>>();
    // SwA parts (WSDL 1.1 §5): by the part's name, else by position among the unnamed ones.
    let part_names: Vec<String> = op.attachments.iter().map(attachment_part).collect();
    let parts = op
        .attachments
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let (id, ty) = (&p.ident, &p.ty);
            let name = &part_names[i];
            quote_spanned! {ty.span()=>
                let #id: #ty = match __in.attachment(#name, #i, &[#(#part_names),*]) {
                    ::core::result::Result::Ok(__a) => ::core::convert::From::from(__a),
                    ::core::result::Result::Err(__f) => return __in.fault(__f),
                };
            }
        })
        .collect::<Vec<_>>();
    let trait_ident = &n.trait_ident;
    let fn_ident = &op.fn_ident;
    let args: Vec<&syn::Ident> = op.params.iter().map(|(id, _)| id).collect();
    let reply = reply(op, krate);
    let body = quote! {
        #read
        #(#headers)*
        #(#parts)*
        let __result = #trait_ident::#fn_ident(&self.0, #(#args),*).await;
        match __result {
            ::core::result::Result::Ok(__ok) => #reply,
            ::core::result::Result::Err(__e) => __in.error(__e),
        }
    };
    // A streamed result: the service's items, collected, are the reply's result elements.
    let body = if op.stream.is_some() {
        quote! {
            #read
            #(#headers)*
            #(#parts)*
            let __result = #trait_ident::#fn_ident(&self.0, #(#args),*).await;
            match __result {
                ::core::result::Result::Ok(mut __items) => {
                    let mut __ok = ::std::vec::Vec::new();
                    while let ::core::option::Option::Some(__item) = __items.next().await {
                        match __item {
                            ::core::result::Result::Ok(__v) => __ok.push(__v),
                            ::core::result::Result::Err(__e) => return __in.error(__e),
                        }
                    }
                    #reply
                }
                ::core::result::Result::Err(__e) => __in.error(__e),
            }
        }
    } else {
        body
    };
    (matches, body)
}

/// The Body's parts read into the parameters: nothing (an empty request), the one bare part
/// whole, or the wrapper's children (wrapped, rpc/literal).
fn read_parts(op: &Operation, krate: &TokenStream, empty: bool) -> TokenStream {
    if empty {
        return TokenStream::new();
    }
    let (ids, read) = if op.bare {
        let Some(p) = op.body.first() else {
            return TokenStream::new();
        };
        let (id, ty) = (&p.ident, &p.ty);
        (
            quote!(#id),
            quote_spanned!(ty.span()=> <#ty as #krate::FromXml>::read_xml(__r, __start)),
        )
    } else {
        // rpc with a parts struct (`request_struct`): the struct is the model group of the
        // operation element's children (SOAP 1.1 §7.1).
        let efs = if op.request_struct && (op.rpc || op.encoded) {
            op.body
                .iter()
                .enumerate()
                .map(|(i, p)| ElementField {
                    slot: crate::internals::names::slot_ident(i, &p.ident.to_string()),
                    access: {
                        let id = &p.ident;
                        quote!(&#id)
                    },
                    namespace: String::new(),
                    local: p.ident.to_string(),
                    shape: shape(&p.ty, None),
                    span: p.ty.span(),
                    any: false,
                    group: true,
                    default: None,
                    min: 0,
                })
                .collect()
        } else {
            param_fields(op)
        };
        let reads = fields::read_elements(krate, &efs);
        let slots: Vec<&syn::Ident> = efs.iter().map(|f| &f.slot).collect();
        let ids: Vec<&syn::Ident> = op.body.iter().map(|p| &p.ident).collect();
        let types = op.body.iter().map(|p| &p.ty);
        (
            quote!((#(#ids,)*)),
            quote! {{
                let _ = &__start;
                #reads
                ::core::result::Result::<(#(#types,)*), #krate::DecodeError>::Ok((#(#slots,)*))
            }},
        )
    };
    quote! {
        #[allow(unused_variables, unused_mut)]
        let #ids = match __in.read_body(|__r, __start| #read) {
            ::core::result::Result::Ok(__v) => __v,
            ::core::result::Result::Err(__f) => return __in.fault(__f),
        };
    }
}

/// The response of a call that returned `__ok`: `202 Accepted` (one-way), the result written
/// whole (bare), the empty wrapper (`()`), or the wrapper holding the result element.
fn reply(op: &Operation, krate: &TokenStream) -> TokenStream {
    if op.response_attachments.is_empty() {
        return reply_body(op, krate, quote!(::std::vec::Vec::new()));
    }
    // The result is a tuple: the body's, then one value per response part (WSDL 1.1 §5), sent
    // as SwA parts named after them.
    let vars: Vec<syn::Ident> = (0..op.response_attachments.len())
        .map(|i| format_ident!("__part{}", i))
        .collect();
    let names = op.response_attachments.iter().map(|(n, _)| n);
    let parts = quote! {
        ::std::vec![#((
            #names,
            ::core::convert::Into::<#krate::mime::Attachment>::into(#vars),
            "application/octet-stream",
        )),*]
    };
    let body = reply_body(op, krate, parts);
    quote! {{
        let (__ok, #(#vars),*) = __ok;
        #body
    }}
}

/// The response of a call that returned `__ok`, its Body alone.
fn reply_body(op: &Operation, krate: &TokenStream, parts: TokenStream) -> TokenStream {
    let wrapper = fields::name_expr(krate, &op.response_namespace, &op.response_name);
    // The reply's action, for an addressed request: the one the client checks, else WSDL's
    // default `{action}Response` (WS-Addressing Metadata §4.4.4 spells the same suffix).
    let reply_action = op
        .reply_action
        .clone()
        .unwrap_or_else(|| format!("{}Response", op.action));
    match &op.response {
        Response::OneWay => quote!({
            let _ = __ok;
            __in.accepted()
        }),
        Response::Whole => quote! {
            __in.reply_with_parts(#reply_action, #parts, |__w| #krate::ToXml::write_xml(&__ok, __w, #wrapper))
        },
        // rpc/encoded (SOAP 1.1 §7.1, §5.1): the accessor of the result carries its xsi:type,
        // the wrapper the encodingStyle.
        Response::Encoded => {
            let result = fields::name_expr(krate, &op.result_namespace, &op.result_name);
            quote! {
                __in.reply_with_parts(#reply_action, #parts, |__w| {
                    #krate::__private::inherit_envelope(__w, __in.version());
                    __w.start_element(#wrapper)?;
                    __w.attribute(
                        #krate::xml::Name::new(__in.version().envelope_namespace(), "encodingStyle"),
                        #krate::types::SOAP_ENC_NS,
                    )?;
                    #krate::types::write_typed(__w, #result, &__ok)?;
                    __w.end_element()
                })
            }
        }
        Response::Unit => quote!({
            let _ = __ok;
            __in.reply_with_parts(#reply_action, #parts, |__w| {
                __w.start_element(#wrapper)?;
                __w.end_element()
            })
        }),
        Response::Wrapped { marker, .. } => {
            let card = match *marker {
                "One" => Occurrence::One,
                "Optional" => Occurrence::Optional,
                "Many" => Occurrence::Many,
                "Nillable" => Occurrence::Nillable,
                "ManyNillable" => Occurrence::ManyNillable,
                _ => Occurrence::OptionalNillable,
            };
            let result = ElementField {
                slot: format_ident!("__result_slot"),
                access: quote!(&__ok),
                namespace: op.result_namespace.clone(),
                local: op.result_name.clone(),
                shape: shape(&op.body_ty, Some(card)),
                span: op.body_ty.span(),
                any: false,
                group: false,
                default: None,
                min: 0,
            };
            // A streamed result whose result element holds the items: they go inside it.
            let (result, holder) = match &op.items {
                Some((ns, local)) => {
                    let holder = fields::name_expr(krate, &op.result_namespace, &op.result_name);
                    let items = ElementField {
                        namespace: ns.clone(),
                        local: local.clone(),
                        ..result
                    };
                    (items, Some(holder))
                }
                None => (result, None),
            };
            let write = fields::write_elements(krate, std::slice::from_ref(&result));
            let write = match holder {
                Some(h) => quote! {
                    __w.start_element(#h)?;
                    #write
                    __w.end_element()?;
                },
                None => write,
            };
            quote! {
                __in.reply_with_parts(#reply_action, #parts, |__w| {
                    __w.start_element(#wrapper)?;
                    #write
                    __w.end_element()
                })
            }
        }
    }
}
