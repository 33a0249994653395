//! The client of one portType's SOAP bindings as Rust source: the `#[soap_client]` trait with one
//! method per operation (WSDL 1.1 §2.4, §3.4), its documentation (including SOAP with Attachments
//! parts, WSDL 1.1 §5), and the `DeclaredHeader` constants of the headers the WSDL declares
//! (WSDL 1.1 §3.7 `soap:header`): request headers are set on the client, not passed as
//! parameters, and response headers are read from the `Response`.

use proc_macro2::TokenStream;
use quote::quote;

use super::{doc_attrs, ident, occurs_arg, origin_line, Emitter};
use crate::model::clients::{header_consts, short_list, HeaderConst};
use crate::model::ir::*;
use soapgen_contract::keys;

/// The doc lines of an operation with MIME attachments (WSDL 1.1 §5), empty without.
fn attachments_doc(op: &OperationDecl) -> TokenStream {
    if op.attachments.is_empty() && op.response_attachments.is_empty() {
        return TokenStream::new();
    }
    let describe = |a: &AttachmentDecl| {
        if a.content_types.is_empty() {
            format!("`{}`", a.part)
        } else {
            let types: Vec<String> = a.content_types.iter().map(|t| format!("`{t}`")).collect();
            format!("`{}` ({})", a.part, types.join(" or "))
        }
    };
    let mut text = String::from("SOAP with Attachments (WSDL 1.1 §5 `mime:multipartRelated`):");
    if !op.attachments.is_empty() {
        let parts: Vec<String> = op.attachments.iter().map(describe).collect();
        text.push_str(&format!(
            " sends the parts {} as MIME attachments;",
            parts.join(", ")
        ));
    }
    if !op.response_attachments.is_empty() {
        let parts: Vec<String> = op.response_attachments.iter().map(describe).collect();
        text.push_str(&format!(
            " returns the body's result, then the response parts {}.",
            parts.join(", ")
        ));
    } else if text.ends_with(';') {
        text.pop();
        text.push('.');
    }
    let mut out = quote!(#[doc = ""]);
    out.extend(origin_line(&text, false));
    out
}

/// The doc lines of an operation's request headers (WSDL 1.1 §3.7): the constants to set them
/// with, empty without.
fn request_headers_doc(
    op: &OperationDecl,
    client: &str,
    consts: &[HeaderConst<'_>],
) -> TokenStream {
    if op.headers.is_empty() {
        return TokenStream::new();
    }
    let list: Vec<String> = op
        .headers
        .iter()
        .filter_map(|h| consts.iter().find(|k| k.xml == &h.xml))
        .map(|k| format!("[`{client}::{}`]", k.cname))
        .collect();
    let text = format!(
        "Request headers (`soap:header`, WSDL 1.1 §3.7), sent when set on the client with \
         `with_header`: {}.",
        list.join(", ")
    );
    let mut out = quote!(#[doc = ""]);
    out.extend(origin_line(&text, false));
    out
}

/// The doc lines of a client's ports (WSDL 1.1 §2.7): the default endpoint is the first's
/// address; the others are a constructor with the URL away.
fn ports_doc(c: &ClientDecl) -> TokenStream {
    let head = if c.ports.is_empty() {
        " No port uses its bindings: give the URL when constructing the client.".to_owned()
    } else if c.endpoint.is_some() {
        " Ports (the first is the default endpoint):".to_owned()
    } else {
        " Ports (no default endpoint: the first port's address is not an absolute HTTP(S) \
         URL):"
            .to_owned()
    };
    let lines = c.ports.iter().map(|p| {
        let at = format!(
            " - service `{}`, port `{}`, {}",
            p.service, p.port, p.version
        );
        let mut line = match (&p.address, &p.address_problem) {
            (Some(a), None) => format!("{at}: <{a}>"),
            (Some(a), Some(problem)) => {
                format!("{at}: `{}` (not used: it {problem})", a.replace('`', "'"))
            }
            (None, _) => format!("{at} (no address)"),
        };
        if let Some(sec) = &p.security {
            if sec.manual {
                line.push_str("; WS-SecurityPolicy configured by hand");
            } else {
                use crate::model::security::describe;
                line.push_str(&format!(
                    "; its WS-SecurityPolicy demands {}: build the client with \
                     `ClientBuilder::security_policy({}Client::port_policy(\"{}\")?, credentials)` \
                     (runtime feature `wss`; credentials: {})",
                    describe::summary(sec),
                    c.name,
                    p.port,
                    describe::credentials(sec).join(", ")
                ));
            }
        }
        quote!(#[doc = #line])
    });
    quote! {
        #[doc = ""]
        #[doc = #head]
        #(#lines)*
    }
}

/// The `addressing` argument of a client's `#[soap_client]`: for every SOAP version, or for the
/// addressed ones; nothing when the client's calls are not addressed.
fn addressing_arg(c: &ClientDecl) -> Option<TokenStream> {
    c.addressing.first().map(|&(_, a)| {
        let v = a.attr_value();
        if c.versions.iter().all(|sv| c.addressing.contains(&(*sv, a))) {
            quote!(addressing = #v,)
        } else {
            let soap: Vec<&str> = c
                .addressing
                .iter()
                .filter(|(_, x)| *x == a)
                .map(|(s, _)| s.number())
                .collect();
            let soap = soap.join(", ");
            quote!(addressing(version = #v, soap = #soap),)
        }
    })
}

/// The arguments of an operation's `#[soap(…)]`: its request element and action, the reply
/// action, the response element (or `one_way`), how the body is shaped (`encoded`, `rpc`,
/// `empty_request`, `bare`, `bare_response`), a GET of the SOAP-response MEP (`soap_response`), the result element and its occurrence, and the
/// response's attachments.
fn operation_args(op: &OperationDecl) -> Vec<TokenStream> {
    let mut args: Vec<TokenStream> = Vec::new();
    let req_local = &op.request.local;
    let req_ns = &op.request.ns;
    args.push(quote!(name = #req_local));
    // The runtime's operation name is the WSDL operation's, by which the port's policy names it
    // (a bare operation's request element is often named otherwise).
    if op.wsdl_name != *req_local {
        let wsdl_name = &op.wsdl_name;
        args.push(quote!(operation = #wsdl_name));
    }
    let action = &op.action;
    args.push(quote!(action = #action));
    if let Some(r) = &op.reply_action {
        args.push(quote!(reply_action = #r));
    }
    args.push(quote!(namespace = #req_ns));
    match &op.response {
        Some(r) => {
            let l = &r.local;
            let n = &r.ns;
            args.push(quote!(response = #l));
            if n != req_ns {
                args.push(quote!(response_namespace = #n));
            }
        }
        None => args.push(quote!(one_way)),
    }
    if op.encoded {
        args.push(quote!(encoded));
    } else if op.rpc {
        args.push(quote!(rpc));
    }
    if op.empty_request {
        args.push(quote!(empty_request));
    }
    if let Some(l) = &op.soap_response {
        let mut inner = Vec::new();
        if !l.template.is_empty() {
            let t = &l.template;
            inner.push(quote!(location = #t));
        }
        if l.query_separator != "&" {
            let q = &l.query_separator;
            inner.push(quote!(query_separator = #q));
        }
        args.push(if inner.is_empty() {
            quote!(soap_response)
        } else {
            quote!(soap_response(#(#inner),*))
        });
    }
    if op.bare {
        args.push(quote!(bare));
    } else if op.request_struct {
        args.push(quote!(request_struct));
    }
    if !op.bare && op.bare_response {
        args.push(quote!(bare_response));
    }
    if let Some(r) = &op.result {
        let l = &r.local;
        let n = &r.ns;
        args.push(quote!(result = #l));
        args.push(quote!(result_namespace = #n));
        if op.result_min > 0 {
            let m = proc_macro2::Literal::u64_unsuffixed(op.result_min);
            args.push(quote!(result_min = #m));
        }
    }
    if let Some(t) = &op.ret {
        args.extend(occurs_arg(keys::RESULT_OCCURS, t.card));
    }
    for a in &op.response_attachments {
        let part = &a.part;
        args.push(quote!(response_attachment = #part));
    }
    args
}

impl Emitter<'_> {
    /// The `#[soap_client]` trait of `c`, its documentation (the WSDL's, what soapgen says of it,
    /// its ports) and the constants of the response headers it declares.
    pub(super) fn client(&self, c: &ClientDecl) -> TokenStream {
        let rt = &self.rt;
        let name = ident(&c.name);
        let doc = doc_attrs(c.doc.as_ref(), self.opts.docs);
        let summary = origin_line(&c.summary, !doc.is_empty());
        let ports = ports_doc(c);
        let ns = &c.namespace;
        let versions: Vec<&str> = c.versions.iter().map(|v| v.number()).collect();
        let version = versions.join(", ");
        // Every port's address, by version, in port order (each version's first is its
        // endpoint): `endpoints` when they differ (WSDL 1.1 §2.7; WCF's SOAP 1.1 and 1.2 ports,
        // a backup port for failover), the default version's first being the default endpoint.
        let mut per_version: Vec<(&str, &str)> = Vec::new();
        for v in &c.versions {
            let first = c.endpoint_for(*v);
            let rest = c
                .ports
                .iter()
                .filter(|p| p.version == *v)
                .filter_map(|p| p.usable_address());
            for a in first.into_iter().chain(rest) {
                if !per_version.contains(&(v.number(), a)) {
                    per_version.push((v.number(), a));
                }
            }
        }
        let differ = per_version.windows(2).any(|w| w[0].1 != w[1].1);
        let endpoint = match (differ, per_version.first()) {
            (true, Some((_, first))) => {
                let all: Vec<String> = per_version
                    .iter()
                    .map(|(v, a)| format!("{v}={a}"))
                    .collect();
                let all = all.join(" ");
                quote!(endpoint = #first, endpoints = #all,)
            }
            _ => c
                .endpoint
                .as_ref()
                .map(|e| quote!(endpoint = #e,))
                .unwrap_or_default(),
        };
        let addressing = addressing_arg(c);
        let krate = self.crate_arg();
        let blocking = self.opts.blocking.then(|| quote!(blocking));
        let default_namespaces = self
            .opts
            .default_namespaces
            .then(|| quote!(default_namespaces,));
        let args = quote!(#krate namespace = #ns, soap = #version, #endpoint #addressing #default_namespaces #blocking);
        let attribute = match &self.opts.fake {
            super::Fake::Off => quote!(#[#rt::soap_client(#args)]),
            super::Fake::Always => quote!(#[#rt::soap_client(#args, fake)]),
            super::Fake::Feature(f) => quote! {
                #[cfg_attr(feature = #f, #rt::soap_client(#args, fake))]
                #[cfg_attr(not(feature = #f), #rt::soap_client(#args))]
            },
        };
        let consts = header_consts(c);
        let client = format!("{}Client", c.name);
        let methods = c
            .operations
            .iter()
            .map(|op| self.method(op, &client, &consts));
        let declared_headers = self.declared_headers(c, &consts);
        let policies = self.port_policies(c);
        quote! {
            #doc
            #summary
            #ports
            #[rustfmt::skip]
            #attribute
            pub trait #name {
                #(#methods)*
            }
            #declared_headers
            #policies
        }
    }

    /// The trait method of `op`: its documentation (with the request headers it declares, set
    /// on `client` from `consts`), its `#[soap(…)]` attribute ([`operation_args`]), its
    /// parameters (body parts, attachments) and its result.
    fn method(&self, op: &OperationDecl, client: &str, consts: &[HeaderConst<'_>]) -> TokenStream {
        let m = ident(&op.method);
        let odoc = doc_attrs(op.doc.as_ref(), self.opts.docs);
        let args = operation_args(op);
        let params = op.params.iter().map(|p| {
            let pi = ident(&p.name);
            let ty = self.type_expr(&p.ty, false);
            let occurs = occurs_arg(keys::OCCURS, p.ty.card);
            if op.bare || op.request_struct {
                match occurs {
                    Some(o) => quote!(#[soap(#o)] #pi: #ty),
                    None => quote!(#pi: #ty),
                }
            } else {
                let l = &p.xml.local;
                let n = &p.xml.ns;
                let occurs = occurs.map(|o| quote!(, #o));
                quote!(#[soap(rename = #l, namespace = #n #occurs)] #pi: #ty)
            }
        });
        let rt = &self.rt;
        let attachments = op.attachments.iter().map(|a| {
            let pi = ident(&a.name);
            let part = &a.part;
            let ct = a.default_content_type();
            quote!(#[soap(attachment = #part, content_type = #ct)] #pi: #rt::mime::Attachment)
        });
        let (ret, err) = self.method_result(op);
        let wsdl_doc = origin_line(
            &format!("WSDL operation `{}`.", op.wsdl_name),
            !odoc.is_empty(),
        );
        let swa_doc = attachments_doc(op);
        let headers_doc = request_headers_doc(op, client, consts);
        let params: Vec<TokenStream> = params.collect();
        let attachments: Vec<TokenStream> = attachments.collect();
        let streamed = op.stream.then(|| {
            let ms = ident(&format!("{}_stream", op.method));
            // An array result: its items are the stream's, read inside the result element.
            let (args, ret) = match &op.stream_items {
                Some(items) => {
                    let mut array = op.clone();
                    array.ret = Some(items.ty.clone());
                    array.result_min = items.min;
                    let mut args = operation_args(&array);
                    let (l, n) = (&items.xml.local, &items.xml.ns);
                    args.push(quote!(items = #l));
                    args.push(quote!(items_namespace = #n));
                    (args, Some(&items.ty))
                }
                None => (args.clone(), op.ret.as_ref()),
            };
            let item = ret.map(|t| {
                let mut one = t.clone();
                one.card = match t.card {
                    soapgen_contract::Occurrence::ManyNillable => {
                        soapgen_contract::Occurrence::Nillable
                    }
                    _ => soapgen_contract::Occurrence::One,
                };
                self.type_expr(&one, false)
            });
            let what = match &op.stream_items {
                Some(items) => format!("the `{}` elements of its array result", items.xml.local),
                None => "its result elements".to_owned(),
            };
            let doc = format!(
                " WSDL operation `{}`, streamed: {what} one by one as the response arrives (see \
                 [`{m}`](Self::{m})).",
                op.wsdl_name,
                m = op.method
            );
            quote! {
                #[doc = #doc]
                #headers_doc
                #[soap(#(#args),*)]
                async fn #ms(&self, #(#params,)* #(#attachments),*)
                    -> ::core::result::Result<#rt::ItemStream<#item, #err>, #err>;
            }
        });
        quote! {
            #odoc
            #wsdl_doc
            #headers_doc
            #swa_doc
            #[soap(#(#args),*)]
            async fn #m(&self, #(#params,)* #(#attachments),*) -> ::core::result::Result<#ret, #err>;
            #streamed
        }
    }

    /// What the method of `op` returns: its result (`()` without; a tuple with the response's
    /// attachments after it, SwA) and its error (`FaultError` of the fault set it declares, else
    /// `Error`).
    fn method_result(&self, op: &OperationDecl) -> (TokenStream, TokenStream) {
        let rt = &self.rt;
        let mut ret = match &op.ret {
            Some(t) => self.type_expr(t, false),
            None => quote!(()),
        };
        if !op.response_attachments.is_empty() {
            let atts = op
                .response_attachments
                .iter()
                .map(|_| quote!(#rt::mime::Attachment));
            ret = quote!((#ret, #(#atts),*));
        }
        let err = match &op.faults {
            Some(f) => {
                let fi = ident(f);
                quote!(#rt::FaultError<types::#fi>)
            }
            None => quote!(#rt::Error),
        };
        (ret, err)
    }

    /// The headers the client's operations declare (WSDL 1.1 §3.7 `soap:header`), as
    /// `DeclaredHeader` constants of the generated `{Trait}Client` ([`header_consts`]): set on
    /// the client for requests, read from a `Response` for responses. Nothing when there are
    /// none.
    fn declared_headers(&self, c: &ClientDecl, consts: &[HeaderConst<'_>]) -> TokenStream {
        if consts.is_empty() {
            return TokenStream::new();
        }
        let rt = &self.rt;
        let list = |ops: &[&str]| short_list(ops, true);
        let items = consts.iter().map(|k| {
            let cid = ident(&k.cname);
            // The element's type: a request header's parameter used to be optional.
            let ty = self.type_expr(
                &TypeExpr {
                    card: Occurrence::One,
                    ..k.ty.clone()
                },
                false,
            );
            let (l, ns) = (&k.xml.local, &k.xml.ns);
            // The element's own documentation first.
            let own = c
                .header_docs
                .iter()
                .find(|(q, _)| q == k.xml)
                .map(|(_, d)| doc_attrs(Some(&Doc::prose(d.clone())), self.opts.docs));
            let mut d = format!(
                " The `{{{ns}}}{l}` header block the WSDL declares (`soap:header`, WSDL 1.1 §3.7)."
            );
            if !k.sent_by.is_empty() {
                d.push_str(&format!(
                    " Sent in the requests of {} when set: `client.with_header(Self::{}, \
                     &value)`, for every call of that client or, on a copy, for one.",
                    list(&k.sent_by),
                    k.cname
                ));
            }
            if !k.received_by.is_empty() {
                d.push_str(&format!(
                    " In the responses of {}: `response.header(&Self::{})` reads it typed.",
                    list(&k.received_by),
                    k.cname
                ));
            }
            let own = own.map(|o| quote!(#o #[doc = ""]));
            quote! {
                #own
                #[doc = #d]
                pub const #cid: #rt::header::DeclaredHeader<#ty> =
                    #rt::header::DeclaredHeader::new(#ns, #l);
            }
        });
        let client = ident(&format!("{}Client", c.name));
        // A client included in a private module need not name every header it declares.
        quote! {
            #[allow(dead_code)]
            impl #client {
                #(#items)*
            }
        }
    }
}
