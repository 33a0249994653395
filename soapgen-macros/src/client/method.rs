//! The code of one operation: the client's method (its request written into a `Request`, the
//! response's layout as static data and the reader of its result; WSDL 1.1 §2.4, §3), the
//! trait's method forwarding to it, and the blocking client's.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{ReturnType, Type};

use super::types::Names;
use crate::fields::{self, ElementField};
use crate::internals::attr::ClientArgs;
use crate::internals::occurs::shape;
use crate::internals::service::{HeaderKind, Operation, Response};

/// The three methods of one operation: the async client's, the trait impl's, the blocking
/// client's.
pub(super) struct Methods {
    pub(super) inherent: TokenStream,
    pub(super) trait_impl: TokenStream,
    pub(super) blocking: TokenStream,
}

/// The methods of `op` on a client of arguments `a`.
pub(super) fn methods(op: &Operation, a: &ClientArgs, n: &Names) -> Methods {
    let krate = &n.krate;
    let client_ident = &n.client;
    let fn_ident = &op.fn_ident;
    let ok_ty = &op.ok_ty;
    let err_ty = result_err_type(&op.output, krate);
    let sig_params: Vec<TokenStream> = op.params.iter().map(|(id, ty)| quote!(#id: #ty)).collect();
    let arg_names: Vec<&syn::Ident> = op.params.iter().map(|(id, _)| id).collect();
    let doc = format!(
        "SOAP call: request element `{}`, soapAction `{}`.\n\n# Errors\n\n\
         Transport, HTTP, SOAP fault, XML and decode errors ([`Error`]({krate_s}::Error)), in the \
         error type the method declares.",
        op.name,
        op.action,
        krate_s = krate.to_string().replace(' ', "")
    );
    let body = call(op, a, n);
    let docs = &op.docs;
    let user_output = &op.output;
    let user_ret = match &op.output {
        ReturnType::Type(_, t) => quote!(#t),
        ReturnType::Default => quote!(()),
    };
    // A streamed method: its items as a `StreamCall`, a blocking iterator of them.
    let (doc, inherent_ret, blocking_ret) = match &op.stream {
        Some(item) => (
            format!(
                "{doc}\n\nStreamed: the call's `.await` gives the response's result elements as an \
                 [`ItemStream`]({krate_s}::ItemStream), each decoded as the body arrives.",
                krate_s = krate.to_string().replace(' ', "")
            ),
            quote!(-> #krate::StreamCall<#item, #err_ty>),
            quote!(-> ::core::result::Result<#krate::BlockingItems<#item, #err_ty>, #err_ty>),
        ),
        None => (
            doc,
            quote!(-> #krate::Call<#ok_ty, #err_ty>),
            quote!(#user_output),
        ),
    };
    Methods {
        inherent: quote! {
            #(#docs)*
            #[doc = ""]
            #[doc = #doc]
            pub fn #fn_ident(&self, #(#sig_params),*) #inherent_ret {
                #body
            }
        },
        trait_impl: quote! {
            fn #fn_ident(&self, #(#sig_params),*)
                -> impl ::core::future::Future<Output = #user_ret> + ::core::marker::Send {
                #client_ident::#fn_ident(self, #(#arg_names),*)
            }
        },
        blocking: quote! {
            #(#docs)*
            #[doc = ""]
            #[doc = #doc]
            pub fn #fn_ident(&self, #(#sig_params),*) #blocking_ret {
                #client_ident::#fn_ident(&self.inner, #(#arg_names),*).wait(&self.runtime)
            }
        },
    }
}

/// The body of the client's method: the operation, its request written, and the `Call` that
/// sends it and reads the result (with the response's attachments when it has some).
fn call(op: &Operation, a: &ClientArgs, n: &Names) -> TokenStream {
    let krate = &n.krate;
    let encode = encode(op, a, n);
    let (shape, decoder) = response(op, a, krate);
    let private = quote!(#krate::__private);
    if op.stream.is_some() {
        // A result element that holds the items (`items = "…"`): its layout and reader.
        let (shape, decoder) = match (&op.items, &op.response) {
            (Some((ns, local)), Response::Wrapped { marker, inner, min }) => {
                let items = fields::name_expr(krate, ns, local);
                let marker = if *marker == "ManyNillable" {
                    format_ident!("ItemsNillable")
                } else {
                    format_ident!("Items")
                };
                (
                    quote!(#shape.with_items(#items, #min)),
                    quote_spanned!(inner.span()=> #private::result::#marker::<#inner>::read),
                )
            }
            _ => (shape, decoder),
        };
        // The whole response's reader (`Many`), and the one item's.
        let item = match &op.response {
            Response::Wrapped {
                marker: "ManyNillable",
                inner,
                ..
            } => quote_spanned!(inner.span()=> #private::read_nillable::<#inner>),
            Response::Wrapped { inner, .. } => {
                quote_spanned!(inner.span()=> #private::read_required::<#inner>)
            }
            _ => quote!(::core::unreachable!()),
        };
        return quote! {
            #encode
            static __SHAPE: #private::ResponseShape = #shape;
            #private::send_stream(&self.client, __op, __message, &__SHAPE, #decoder, #item)
        };
    }
    if op.response_attachments.is_empty() {
        return quote! {
            #encode
            static __SHAPE: #private::ResponseShape = #shape;
            #private::send(&self.client, __op, __message, &__SHAPE, #decoder)
        };
    }
    // A result with MIME attachments (WSDL 1.1 §5): the body's result and the parts.
    let names: Vec<&String> = op.response_attachments.iter().map(|(n, _)| n).collect();
    let elem_spans: Vec<Span> = match &op.ok_ty {
        Type::Tuple(t) => t.elems.iter().skip(1).map(|e| e.span()).collect(),
        _ => Vec::new(),
    };
    let takes = names.iter().enumerate().map(|(i, name)| {
        let span = elem_spans.get(i).copied().unwrap_or_else(Span::call_site);
        quote_spanned! {span=>
            ::core::convert::From::from(#krate::__private::response_attachment(
                __cx, #name, #i, &[#(#names),*],
            )?)
        }
    });
    quote! {
        #encode
        static __SHAPE: #private::ResponseShape = #shape;
        #private::send(&self.client, __op, __message, &__SHAPE, |__child, __cx| {
            ::core::result::Result::Ok(((#decoder)(__child, __cx)?, #(#takes),*))
        })
    }
}

/// The operation `__op` (with the description's addressing facts on an addressed trait) and its
/// request `__message`, written when the method is called.
fn encode(op: &Operation, a: &ClientArgs, n: &Names) -> TokenStream {
    let krate = &n.krate;
    let client_ident = &n.client;
    let (name, action) = (&op.operation, &op.action);
    // What the description says of the operation's addressing, for the WS-Addressing layer:
    // a static of the method, given to its `Operation`.
    let facts = (a.addressing.is_some() || op.reply_action.is_some()).then(|| {
        let reply = match &op.reply_action {
            Some(r) => quote!(::core::option::Option::Some(#r)),
            None => quote!(::core::option::Option::None),
        };
        quote! {
            static __FACTS: [#krate::message::Fact; 1] = [&#krate::addressing::Described::new(
                #client_ident::ADDRESSING,
                #reply,
            )];
        }
    });
    let described = facts.as_ref().map(|_| quote!(.described(&__FACTS)));
    let one_way = op.one_way.then(|| quote!(.one_way()));
    let soap_response = op.soap_response.as_ref().map(|(location, separator)| {
        quote!(.soap_response({
            static __LOCATION: #krate::message::HttpLocation =
                #krate::message::HttpLocation::new(#location, #separator);
            &__LOCATION
        }))
    });
    let ns = &op.namespace;
    let env_ns = if op.encoded {
        quote!(&[
            ("tns", #ns),
            ("soapenc", #krate::types::SOAP_ENC_NS),
            ("xsd", #krate::types::XSD_NS),
        ])
    } else {
        quote!(&[("tns", #ns)])
    };
    let default_namespaces = a
        .default_namespaces
        .then(|| quote!(__req.set_default_namespaces(true);));
    let headers = headers(op, krate);
    let body_write = body(op, krate);
    let attach = attachments(op, krate);
    quote! {
        #facts
        let __op = #krate::Operation::new(#name, #action, self.version)
            #one_way #soap_response #described;
        let __message = (|| -> ::core::result::Result<#krate::message::Request, #krate::EncodeError> {
            let mut __req = self.client.request(#env_ns);
            #default_namespaces
            #headers
            {
                let __w = __req.body_writer();
                #body_write?;
            }
            #[allow(unused_mut)]
            let mut __request = __req.finish()?;
            #(#attach)*
            ::core::result::Result::Ok(__request)
        })();
    }
}

/// The header blocks (SOAP 1.1 §4.2): each header parameter, `Option<T>` ones only when `Some`.
fn headers(op: &Operation, krate: &TokenStream) -> TokenStream {
    let mut out = TokenStream::new();
    for (p, kind) in &op.headers {
        let (id, ty) = (&p.ident, &p.ty);
        let name = header_name(op, p, krate);
        out.extend(match kind {
            HeaderKind::Optional => quote_spanned! {ty.span()=>
                if let ::core::option::Option::Some(__h) = &#id {
                    #krate::ToXml::write_xml(__h, __req.header_block_writer(#name), #name)?;
                }
            },
            HeaderKind::One => quote_spanned! {ty.span()=>
                #krate::ToXml::write_xml(&#id, __req.header_block_writer(#name), #name)?;
            },
            // Absent: no block; nil: an empty block with xsi:nil (XML Schema Part 1 §2.6.2).
            HeaderKind::Tristate => quote_spanned! {ty.span()=>
                match &#id {
                    #krate::OptionalNillable::Absent => {}
                    #krate::OptionalNillable::Nil => {
                        #krate::__private::write_nil(__req.header_block_writer(#name), #name)?;
                    }
                    #krate::OptionalNillable::Value(__h) => {
                        #krate::ToXml::write_xml(__h, __req.header_block_writer(#name), #name)?;
                    }
                }
            },
        });
    }
    out
}

/// The Body's content, written into `__w`: nothing (an empty request, WSDL 1.1 §2.3.1), the
/// encoded operation element (SOAP 1.1 §7), the one body parameter (bare), or the wrapper with
/// one child per parameter (wrapped, rpc/literal).
fn body(op: &Operation, krate: &TokenStream) -> TokenStream {
    let op_elem = fields::name_expr(krate, &op.namespace, &op.name);
    if op.empty_request {
        return quote!(::core::result::Result::<(), #krate::EncodeError>::Ok(()));
    }
    if op.request_struct && (op.encoded || op.rpc) {
        // The struct's fields are the parts (a `sequence` struct, `encoded` when they carry
        // xsi:type): written as a group inside the operation element (SOAP 1.1 §7.1).
        let id = op.body.first().map(|p| &p.ident);
        let encoded = op.encoded.then(|| {
            quote! {
                __w.attribute(
                    #krate::xml::Name::new(__op.version.envelope_namespace(), "encodingStyle"),
                    #krate::types::SOAP_ENC_NS,
                )?;
            }
        });
        let inherit = op
            .encoded
            .then(|| quote!(#krate::__private::inherit_envelope(__w, __op.version);));
        return quote! {{
            #inherit
            __w.start_element(#op_elem)?;
            #encoded
            #krate::xml::ToXmlGroup::write_group(&#id, __w)?;
            __w.end_element()
        }};
    }
    if op.encoded {
        let writes = op.body.iter().map(|p| {
            let pns = p
                .attrs
                .namespace
                .clone()
                .unwrap_or_else(|| op.child_namespace.clone());
            let name = fields::name_expr(krate, &pns, &local_name(&p.ident, &p.attrs.rename));
            let (id, ty) = (&p.ident, &p.ty);
            quote_spanned! {ty.span()=>
                #krate::types::write_typed(__w, #name, &#id)?;
            }
        });
        return quote! {{
            #krate::__private::inherit_envelope(__w, __op.version);
            __w.start_element(#op_elem)?;
            __w.attribute(
                #krate::xml::Name::new(__op.version.envelope_namespace(), "encodingStyle"),
                #krate::types::SOAP_ENC_NS,
            )?;
            #(#writes)*
            __w.end_element()
        }};
    }
    if op.bare {
        return match op.body.first() {
            Some(p) => {
                let id = &p.ident;
                quote!(#krate::ToXml::write_xml(&#id, __w, #op_elem))
            }
            None => quote!(::core::result::Result::<(), #krate::EncodeError>::Ok(())),
        };
    }
    let efs = param_fields(op);
    let writes = fields::write_elements(krate, &efs);
    quote! {{
        __w.start_element(#op_elem)?;
        #writes
        __w.end_element()
    }}
}

/// The body parameters as the wrapper's element fields (wrapped, rpc/literal: WSDL 1.1 §3.5),
/// each named by its `rename` and `namespace` (else the wrapper children's namespace): what the
/// client writes and the fake service reads.
pub(super) fn param_fields(op: &Operation) -> Vec<ElementField> {
    op.body
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let id = &p.ident;
            ElementField {
                slot: crate::internals::names::slot_ident(i, &id.to_string()),
                access: quote!(&#id),
                namespace: p
                    .attrs
                    .namespace
                    .clone()
                    .unwrap_or_else(|| op.child_namespace.clone()),
                local: local_name(id, &p.attrs.rename),
                shape: shape(&p.ty, p.attrs.occurs),
                span: p.ty.span(),
                any: false,
                group: false,
                default: None,
                min: 0,
            }
        })
        .collect()
}

/// The element of header parameter `p` (SOAP 1.1 §4.2): its `namespace` (else the
/// operation's) and its `rename` (else its own name, without `r#`).
pub(super) fn header_name(
    op: &Operation,
    p: &crate::internals::service::Param,
    krate: &TokenStream,
) -> TokenStream {
    let ns = p
        .attrs
        .namespace
        .clone()
        .unwrap_or_else(|| op.namespace.clone());
    fields::name_expr(krate, &ns, &local_name(&p.ident, &p.attrs.rename))
}

/// A parameter's element name: `rename`, else its own (without `r#`).
pub(super) fn local_name(id: &syn::Ident, rename: &Option<String>) -> String {
    rename
        .clone()
        .unwrap_or_else(|| id.to_string().trim_start_matches("r#").to_owned())
}

/// The attachment parameters: MIME parts after the envelope (WSDL 1.1 §5, SwA).
fn attachments(op: &Operation, krate: &TokenStream) -> Vec<TokenStream> {
    op.attachments
        .iter()
        .map(|p| {
            let (id, ty) = (&p.ident, &p.ty);
            let part = attachment_part(p);
            let ct = p
                .attrs
                .content_type
                .as_ref()
                .map_or_else(|| "application/octet-stream".to_owned(), |(c, _)| c.clone());
            quote_spanned! {ty.span()=>
                __request.attach_part(
                    #part,
                    ::core::convert::Into::<#krate::mime::Attachment>::into(#id),
                    #ct,
                );
            }
        })
        .collect()
}

/// The response's layout as static data, and the reader of the result's occurrence: no decoding
/// code of its own per operation.
fn response(op: &Operation, a: &ClientArgs, krate: &TokenStream) -> (TokenStream, TokenStream) {
    let call = quote!(#krate::__private);
    let wrapper = fields::name_expr(krate, &op.response_namespace, &op.response_name);
    let result_elem = fields::name_expr(krate, &op.result_namespace, &op.result_name);
    // rpc style takes the response wrapper whatever its name (SOAP 1.1 §7.1).
    let wrapped = if op.rpc_response(a) {
        format_ident!("rpc")
    } else {
        format_ident!("wrapped")
    };
    let body_ty = &op.body_ty;
    match &op.response {
        Response::OneWay => (
            quote!(#call::ResponseShape::OneWay),
            quote!(#call::result::Unit::read),
        ),
        // rpc: the wrapper of several parts, whatever its name (SOAP 1.1 §7.1).
        Response::Whole if op.rpc_response(a) => (
            quote!(#call::ResponseShape::rpc_whole(#wrapper)),
            quote!(#call::result::Whole::<#body_ty>::read),
        ),
        Response::Whole => (
            quote!(#call::ResponseShape::Element(#wrapper)),
            quote!(#call::result::Whole::<#body_ty>::read),
        ),
        Response::Encoded => (
            quote!(#call::ResponseShape::encoded(#wrapper, #result_elem)),
            quote!(#call::result::Whole::<#body_ty>::read),
        ),
        Response::Unit => (
            quote!(#call::ResponseShape::#wrapped(#wrapper, #result_elem, 0)),
            quote!(#call::result::Unit::read),
        ),
        Response::Wrapped { marker, inner, min } => {
            let marker = format_ident!("{}", marker);
            (
                quote!(#call::ResponseShape::#wrapped(#wrapper, #result_elem, #min)),
                quote_spanned!(body_ty.span()=> #call::result::#marker::<#inner>::read),
            )
        }
    }
}

/// The `E` of `Result<T, E>`; for `Result<T>` (an alias with a default error), the alias's own
/// error type, named through `__private::ResultError`.
fn result_err_type(ret: &ReturnType, krate: &TokenStream) -> TokenStream {
    let ReturnType::Type(_, ty) = ret else {
        return quote!(#krate::Error);
    };
    if let Type::Path(tp) = &**ty {
        if let Some(seg) = tp.path.segments.last() {
            if let syn::PathArguments::AngleBracketed(args) = &seg.arguments {
                if let Some(syn::GenericArgument::Type(e)) = args.args.iter().nth(1) {
                    return quote!(#e);
                }
            }
        }
    }
    quote!(<#ty as #krate::__private::ResultError>::Error)
}

/// The part name of an attachment parameter (WSDL 1.1 §5): its `attachment = "…"`, else its own
/// name (without `r#`).
pub(super) fn attachment_part(p: &crate::internals::service::Param) -> String {
    match &p.attrs.attachment {
        Some((part, _)) if !part.is_empty() => part.clone(),
        _ => p.ident.to_string().trim_start_matches("r#").to_owned(),
    }
}
