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

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{FnArg, ItemTrait, LitStr, Pat, ReturnType, TraitItem, Type};

// RESERVED_METHODS: the generated clients' own method names, which no operation method may take
// (soapgen-build names operations around the same list).
use soapgen_contract::{keys, RESERVED_METHODS};

use crate::fields::{self, ElementField, Occurrence};
use crate::{Errors, KeySite};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    Document,
    Rpc,
}

struct ClientArgs {
    namespace: Option<String>,
    /// The SOAP versions the client speaks (`soap = "1.1, 1.2"`), the default first.
    versions: Vec<&'static str>,
    style: Style,
    bare: bool,
    endpoint: Option<String>,
    client_name: Option<syn::Ident>,
    blocking: bool,
    krate: TokenStream,
    qualified: Option<bool>,
    /// `addressing = "1.0" | "2004/08"`, or `addressing(version = …, soap = "1.2")`: the
    /// WS-Addressing version and the SOAP versions it applies to (empty: all).
    addressing: Option<(&'static str, Vec<&'static str>)>,
    /// `default_namespaces`: request payloads name their elements under default-namespace
    /// declarations instead of prefixes (Namespaces in XML 1.0 §6.2).
    default_namespaces: bool,
}

fn parse_args(args: TokenStream, errs: &mut Errors) -> ClientArgs {
    let mut a = ClientArgs {
        namespace: None,
        versions: Vec::new(),
        style: Style::Document,
        bare: false,
        endpoint: None,
        client_name: None,
        blocking: false,
        krate: quote!(::soapgen_runtime),
        qualified: None,
        addressing: None,
        default_namespaces: false,
    };
    let parser = syn::meta::parser(|meta| {
        if meta.path.is_ident("namespace") {
            a.namespace = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("soap") {
            let s: LitStr = meta.value()?.parse()?;
            for v in s
                .value()
                .split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
            {
                let v = match v {
                    "1.1" => "1.1",
                    "1.2" => "1.2",
                    _ => {
                        return Err(syn::Error::new(
                            s.span(),
                            "expected soap = \"1.1\", \"1.2\", or both as \"1.1, 1.2\" (the \
                             first is the default)",
                        ))
                    }
                };
                if a.versions.contains(&v) {
                    return Err(syn::Error::new(s.span(), "a SOAP version is listed twice"));
                }
                a.versions.push(v);
            }
        } else if meta.path.is_ident("style") {
            let s: LitStr = meta.value()?.parse()?;
            a.style = match s.value().as_str() {
                "document" => Style::Document,
                "rpc" => Style::Rpc,
                _ => {
                    return Err(syn::Error::new(
                        s.span(),
                        "expected style = \"document\" or \"rpc\"",
                    ))
                }
            };
        } else if meta.path.is_ident("parameters") {
            let s: LitStr = meta.value()?.parse()?;
            a.bare = match s.value().as_str() {
                "wrapped" => false,
                "bare" => true,
                _ => {
                    return Err(syn::Error::new(
                        s.span(),
                        "expected parameters = \"wrapped\" or \"bare\"",
                    ))
                }
            };
        } else if meta.path.is_ident("element_form") {
            let s: LitStr = meta.value()?.parse()?;
            a.qualified = Some(match s.value().as_str() {
                "qualified" => true,
                "unqualified" => false,
                _ => {
                    return Err(syn::Error::new(
                        s.span(),
                        "expected element_form = \"qualified\" or \"unqualified\"",
                    ))
                }
            });
        } else if meta.path.is_ident("endpoint") {
            a.endpoint = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("client") {
            let s: LitStr = meta.value()?.parse()?;
            a.client_name = Some(s.parse()?);
        } else if meta.path.is_ident("addressing") {
            let wsa = |s: &LitStr| match s.value().trim() {
                "1.0" => Ok("1.0"),
                "2004/08" => Ok("2004/08"),
                _ => Err(syn::Error::new(
                    s.span(),
                    "expected addressing = \"1.0\" (WS-Addressing 1.0, W3C 2006) or \"2004/08\" \
                     (the member submission)",
                )),
            };
            if meta.input.peek(syn::Token![=]) {
                a.addressing = Some((wsa(&meta.value()?.parse::<LitStr>()?)?, Vec::new()));
            } else {
                let mut version = None;
                let mut soap = Vec::new();
                meta.parse_nested_meta(|m| {
                    let s: LitStr = m.value()?.parse()?;
                    if m.path.is_ident("version") {
                        version = Some(wsa(&s)?);
                    } else if m.path.is_ident("soap") {
                        for v in s
                            .value()
                            .split(',')
                            .map(str::trim)
                            .filter(|v| !v.is_empty())
                        {
                            soap.push(match v {
                                "1.1" => "1.1",
                                "1.2" => "1.2",
                                _ => {
                                    return Err(syn::Error::new(
                                        s.span(),
                                        "expected soap = \"1.1\", \"1.2\" or \"1.1, 1.2\"",
                                    ))
                                }
                            });
                        }
                    } else {
                        return Err(m.error("expected `version` or `soap` in addressing(…)"));
                    }
                    Ok(())
                })?;
                let Some(version) = version else {
                    return Err(meta.error("addressing(…) needs version = \"1.0\" or \"2004/08\""));
                };
                a.addressing = Some((version, soap));
            }
        } else if meta.path.is_ident("blocking") {
            a.blocking = true;
        } else if meta.path.is_ident("default_namespaces") {
            a.default_namespaces = true;
        } else if meta.path.is_ident("crate") {
            let s: LitStr = meta.value()?.parse()?;
            let p: syn::Path = s.parse()?;
            a.krate = quote!(#p);
        } else {
            return Err(meta.error(format!(
                "unknown soap_client argument; expected {}",
                fields::one_of(keys::CLIENT, "`")
            )));
        }
        Ok(())
    });
    if let Err(e) = syn::parse::Parser::parse2(parser, args) {
        errs.push(e);
    }
    if a.versions.is_empty() {
        a.versions.push("1.1");
    }
    a
}

/// The default action of a message (WS-Addressing Metadata §4.4.4): namespace, port type and
/// message name joined by `:` when the namespace is a URN, `/` otherwise (none added after a
/// namespace already ending in it). soapgen-build applies the same rule to WSDLs.
fn default_action(namespace: &str, port_type: &str, message: &str) -> String {
    let urn = namespace.len() > 4 && namespace[..4].eq_ignore_ascii_case("urn:");
    let d = if urn { ':' } else { '/' };
    let mut s = namespace.to_owned();
    if !s.ends_with(d) {
        s.push(d);
    }
    format!("{s}{port_type}{d}{message}")
}

/// The runtime's `SoapVersion` for `"1.1"` or `"1.2"`.
fn version_expr(krate: &TokenStream, v: &str) -> TokenStream {
    if v == "1.2" {
        quote!(#krate::SoapVersion::Soap12)
    } else {
        quote!(#krate::SoapVersion::Soap11)
    }
}

#[derive(Default)]
struct MethodAttrs {
    name: Option<String>,
    namespace: Option<String>,
    result_namespace: Option<String>,
    response_namespace: Option<String>,
    bare: bool,
    bare_response: bool,
    action: Option<String>,
    /// `reply_action = "…"`: the output's `wsa:Action` (WS-Addressing 1.0 Metadata §4.4), which
    /// an addressed call's reply must carry.
    reply_action: Option<String>,
    response: Option<String>,
    result: Option<String>,
    one_way: bool,
    /// `empty_request`: the input message has no parts (WSDL 1.1 §2.3.1), the Body is sent empty.
    empty_request: bool,
    /// `response_attachment = "part"`, in order: the response's MIME parts (WSDL 1.1 §5).
    response_attachments: Vec<(String, Span)>,
    /// `encoded`: SOAP 1.1 §5 encoding (`soap:body use="encoded"`), rpc style.
    encoded: bool,
    /// `result_min = N`: minOccurs of a repeated (`Vec`) result element, with the literal's span.
    result_min: Option<(u64, Span)>,
    /// `result_occurs = "…"`: the result's occurrence, instead of reading it from the type.
    result_occurs: Option<Occurrence>,
}

#[derive(Default)]
struct ParamAttrs {
    header: bool,
    rename: Option<String>,
    namespace: Option<String>,
    /// `attachment` / `attachment = "part"`: sent as a MIME part, not in the envelope.
    attachment: Option<(String, Span)>,
    content_type: Option<(String, Span)>,
    /// `occurs = "…"`: the parameter's occurrence, instead of reading it from the type.
    occurs: Option<Occurrence>,
}

fn take_soap_attrs(attrs: &mut Vec<syn::Attribute>) -> Vec<syn::Attribute> {
    let (soap, rest): (Vec<_>, Vec<_>) = attrs.drain(..).partition(|a| a.path().is_ident("soap"));
    *attrs = rest;
    soap
}

fn parse_method_attrs(attrs: &[syn::Attribute], errs: &mut Errors) -> MethodAttrs {
    let mut m = MethodAttrs::default();
    let site = KeySite {
        attribute: "soap",
        on: "a method",
        keys: keys::METHOD,
    };
    errs.parse_keys(attrs, &site, |meta| {
        let s = || -> syn::Result<String> { Ok(meta.value()?.parse::<LitStr>()?.value()) };
        if meta.path.is_ident("name") {
            m.name = Some(s()?);
        } else if meta.path.is_ident("action") {
            m.action = Some(s()?);
        } else if meta.path.is_ident("reply_action") {
            m.reply_action = Some(s()?);
        } else if meta.path.is_ident("response") {
            m.response = Some(s()?);
        } else if meta.path.is_ident("result") {
            m.result = Some(s()?);
        } else if meta.path.is_ident("one_way") {
            m.one_way = true;
        } else if meta.path.is_ident("empty_request") {
            m.empty_request = true;
        } else if meta.path.is_ident("namespace") {
            m.namespace = Some(s()?);
        } else if meta.path.is_ident("result_namespace") {
            m.result_namespace = Some(s()?);
        } else if meta.path.is_ident("bare") {
            m.bare = true;
        } else if meta.path.is_ident("bare_response") {
            m.bare_response = true;
        } else if meta.path.is_ident("response_namespace") {
            m.response_namespace = Some(s()?);
        } else if meta.path.is_ident("response_attachment") {
            let span = meta.path.span();
            m.response_attachments.push((s()?, span));
        } else if meta.path.is_ident("encoded") {
            m.encoded = true;
        } else if meta.path.is_ident("result_min") {
            let lit = meta.value()?.parse::<syn::LitInt>()?;
            m.result_min = Some((lit.base10_parse::<u64>()?, lit.span()));
        } else if meta.path.is_ident(keys::RESULT_OCCURS) {
            m.result_occurs = Some(fields::parse_occurs(meta)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    m
}

fn parse_param_attrs(attrs: &[syn::Attribute], errs: &mut Errors) -> ParamAttrs {
    let mut p = ParamAttrs::default();
    let site = KeySite {
        attribute: "soap",
        on: "a parameter",
        keys: keys::PARAMETER,
    };
    errs.parse_keys(attrs, &site, |meta| {
        if meta.path.is_ident("header") {
            p.header = true;
        } else if meta.path.is_ident("rename") {
            p.rename = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("namespace") {
            p.namespace = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("attachment") {
            let span = meta.path.span();
            let part = if meta.input.peek(syn::Token![=]) {
                meta.value()?.parse::<LitStr>()?.value()
            } else {
                String::new()
            };
            p.attachment = Some((part, span));
        } else if meta.path.is_ident("content_type") {
            let span = meta.path.span();
            p.content_type = Some((meta.value()?.parse::<LitStr>()?.value(), span));
        } else if meta.path.is_ident(keys::OCCURS) {
            p.occurs = Some(fields::parse_occurs(meta)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    if let Some((_, span)) = &p.attachment {
        if p.header || p.rename.is_some() || p.namespace.is_some() {
            errs.push(syn::Error::new(
                *span,
                "an attachment parameter is a MIME part, not an element: it takes no `header`, \
                 `rename` or `namespace` (name its WSDL part with `attachment = \"part\"`)",
            ));
        }
    } else if let Some((_, span)) = &p.content_type {
        errs.push(syn::Error::new(
            *span,
            "`content_type` belongs to an `attachment` parameter",
        ));
    }
    p
}

/// The `T` of `Result<T, E>` / `Result<T>`.
fn result_ok_type(ret: &ReturnType) -> Option<&Type> {
    let ReturnType::Type(_, ty) = ret else {
        return None;
    };
    fields::type_argument(ty, "Result")
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

fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(t) if t.elems.is_empty())
}

pub fn expand(args: TokenStream, mut item: ItemTrait) -> TokenStream {
    let mut errs = Errors::default();
    let a = parse_args(args, &mut errs);
    let krate = a.krate.clone();
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
    let qualified = a.qualified.unwrap_or(a.style == Style::Document);
    let vis = item.vis.clone();
    let trait_ident = item.ident.clone();
    let client_ident = a
        .client_name
        .clone()
        .unwrap_or_else(|| format_ident!("{}Client", trait_ident));
    let blocking_ident = format_ident!("{}BlockingClient", trait_ident);

    let mut inherent = TokenStream::new();
    let mut trait_impl = TokenStream::new();
    let mut blocking_methods = TokenStream::new();

    for ti in item.items.iter_mut() {
        let TraitItem::Fn(method) = ti else {
            errs.push(syn::Error::new(
                ti.span(),
                "a soap_client trait can only contain methods (one per operation)",
            ));
            continue;
        };
        let soap_attrs = take_soap_attrs(&mut method.attrs);
        let ma = parse_method_attrs(&soap_attrs, &mut errs);
        let sig = &mut method.sig;
        if sig.asyncness.is_none() {
            errs.push(syn::Error::new(
                sig.fn_token.span,
                "operations must be `async fn` returning `Result<T, soapgen_runtime::Error>`",
            ));
        }
        if RESERVED_METHODS.contains(&sig.ident.to_string().as_str()) {
            errs.push(syn::Error::new(
                sig.ident.span(),
                format!(
                    "this name is taken by the generated client's own methods ({}): rename the \
                     method and keep the operation with `#[soap(name = \"…\")]`",
                    RESERVED_METHODS
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        if !sig.generics.params.is_empty() {
            errs.push(syn::Error::new(
                sig.generics.span(),
                "operations cannot be generic",
            ));
        }
        if method.default.is_some() {
            errs.push(syn::Error::new(
                method.default.span(),
                "operations are generated: remove the default body",
            ));
        }
        let mut inputs = sig.inputs.iter_mut();
        match inputs.next() {
            Some(FnArg::Receiver(r)) if r.reference.is_some() && r.mutability.is_none() => {}
            Some(other) => errs.push(syn::Error::new(
                other.span(),
                "the first parameter of an operation must be `&self`",
            )),
            None => errs.push(syn::Error::new(
                sig.ident.span(),
                "an operation needs `&self` as its first parameter",
            )),
        }
        let mut body_params: Vec<(syn::Ident, Type, ParamAttrs)> = Vec::new();
        let mut header_params: Vec<(syn::Ident, Type, ParamAttrs)> = Vec::new();
        let mut attachment_params: Vec<(syn::Ident, Type, ParamAttrs)> = Vec::new();
        for arg in inputs {
            let FnArg::Typed(pt) = arg else { continue };
            let pa_attrs = take_soap_attrs(&mut pt.attrs);
            let pa = parse_param_attrs(&pa_attrs, &mut errs);
            let Pat::Ident(pi) = &*pt.pat else {
                errs.push(syn::Error::new(
                    pt.pat.span(),
                    "operation parameters must be plain identifiers",
                ));
                continue;
            };
            let entry = (pi.ident.clone(), (*pt.ty).clone(), pa);
            if entry.2.attachment.is_some() {
                attachment_params.push(entry);
            } else if entry.2.header {
                header_params.push(entry);
            } else {
                body_params.push(entry);
            }
        }
        let Some(ok_ty) = result_ok_type(&sig.output).cloned() else {
            errs.push(syn::Error::new(
                sig.output.span(),
                "an operation must return `Result<T, soapgen_runtime::Error>` (or a `Result` whose \
                 error converts from it); the macro sees types by name, so write `Result<T, E>` \
                 out rather than another alias (`…::Result<T>` aliases are understood)",
            ));
            continue;
        };
        let fn_ident = sig.ident.clone();
        let op_name = ma
            .name
            .clone()
            .unwrap_or_else(|| fn_ident.to_string().trim_start_matches("r#").to_owned());
        // Addressed: no `action` is WS-Addressing Metadata §4.4.4's default action pattern, the
        // trait standing for the portType and `{operation}Request` (one-way: the operation's
        // name: WSDL 1.1 §2.4.5's default names) for the input's name.
        let action = match (&ma.action, &a.addressing) {
            (Some(action), _) => action.clone(),
            (None, Some(_)) => {
                let input = if ma.one_way {
                    op_name.clone()
                } else {
                    format!("{op_name}Request")
                };
                default_action(&ns, &trait_ident.to_string(), &input)
            }
            (None, None) => String::new(),
        };
        // The reply's action, checked on addressed calls: explicit, or (addressed trait, the
        // input's action by the default pattern too) the default pattern with
        // `{operation}Response` (WSDL 1.1 §2.4.5's default output name).
        let reply_action = match (&ma.reply_action, &a.addressing) {
            _ if ma.one_way => None,
            (Some(r), _) => Some(r.clone()),
            (None, Some(_)) if ma.action.is_none() => Some(default_action(
                &ns,
                &trait_ident.to_string(),
                &format!("{op_name}Response"),
            )),
            (None, _) => None,
        };
        // What the description says of the operation's addressing, for the WS-Addressing layer:
        // a static of the method, given to its `Operation`.
        let facts = (a.addressing.is_some() || reply_action.is_some()).then(|| {
            let reply = match &reply_action {
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
        let response_name = ma
            .response
            .clone()
            .unwrap_or_else(|| format!("{op_name}Response"));
        let result_name = ma
            .result
            .clone()
            .unwrap_or_else(|| format!("{op_name}Result"));
        let one_way = ma.one_way;
        if one_way && !is_unit(&ok_ty) {
            errs.push(syn::Error::new(
                ok_ty.span(),
                "a one_way operation returns `Result<(), …>`",
            ));
        }
        // With response attachments the result is (body result, attachment, …).
        let body_ty: Type = if ma.response_attachments.is_empty() {
            ok_ty.clone()
        } else if one_way {
            errs.push(syn::Error::new(
                ma.response_attachments[0].1,
                "a one_way operation has no response, so no response_attachment",
            ));
            ok_ty.clone()
        } else {
            let n = ma.response_attachments.len();
            match &ok_ty {
                Type::Tuple(t) if t.elems.len() == n + 1 => t.elems[0].clone(),
                _ => {
                    errs.push(syn::Error::new(
                        ok_ty.span(),
                        format!(
                            "with {n} response_attachment(s) an operation returns a tuple of {}: \
                             the body's result (or `()`), then one value per attachment in order \
                             (a `mime::Attachment`, or a type that converts from one)",
                            n + 1
                        ),
                    ));
                    ok_ty.clone()
                }
            }
        };
        let empty_request = ma.empty_request;
        if empty_request && ma.encoded {
            errs.push(syn::Error::new(
                sig.ident.span(),
                "`empty_request` sends no body element, so it is not `encoded` (rpc operations \
                 always send their operation element)",
            ));
        }
        if empty_request {
            if let Some((id, _, _)) = body_params.first() {
                errs.push(syn::Error::new(
                    id.span(),
                    "an `empty_request` operation sends an empty Body: it takes no body parameters \
                     (only `#[soap(header)]` and `#[soap(attachment)]` ones)",
                ));
            }
        }
        // With `bare`, the response is the whole body element (an empty request has no element).
        let bare = a.bare || ma.bare;
        let ns = ma.namespace.clone().unwrap_or_else(|| ns.clone());
        let child_ns = if qualified { ns.clone() } else { String::new() };
        let result_ns = ma
            .result_namespace
            .clone()
            .unwrap_or_else(|| child_ns.clone());
        if bare && !empty_request && body_params.len() != 1 {
            errs.push(syn::Error::new(
                sig.ident.span(),
                "with parameters = \"bare\" an operation takes exactly one body parameter (the body element)",
            ));
        }
        let one_way_op = one_way.then(|| quote!(.one_way()));
        let op_value = quote! {
            #facts
            let __op = #krate::Operation::new(#op_name, #action, self.version) #one_way_op #described;
        };
        // Headers: each a header block; Option<T> headers are sent only when Some.
        let mut headers = TokenStream::new();
        for (id, ty, pa) in &header_params {
            let hns = pa.namespace.clone().unwrap_or_else(|| ns.clone());
            let local = pa.rename.clone().unwrap_or_else(|| id.to_string());
            let name = fields::name_expr(&krate, &hns, &local);
            let shape = fields::shape(ty, pa.occurs);
            let code = match shape.card {
                Occurrence::Optional => quote_spanned! {ty.span()=>
                    if let ::core::option::Option::Some(__h) = &#id {
                        #krate::ToXml::write_xml(__h, __req.header_writer(), #name)?;
                    }
                },
                Occurrence::One => quote_spanned! {ty.span()=>
                    #krate::ToXml::write_xml(&#id, __req.header_writer(), #name)?;
                },
                // Absent: no block; nil: an empty block with xsi:nil (XML Schema Part 1 §2.6.2).
                Occurrence::OptionalNillable if shape.tristate => quote_spanned! {ty.span()=>
                    match &#id {
                        #krate::OptionalNillable::Absent => {}
                        #krate::OptionalNillable::Nil => {
                            #krate::__private::write_nil(__req.header_writer(), #name)?;
                        }
                        #krate::OptionalNillable::Value(__h) => {
                            #krate::ToXml::write_xml(__h, __req.header_writer(), #name)?;
                        }
                    }
                },
                _ => {
                    errs.push(syn::Error::new(
                        ty.span(),
                        "a header parameter is `T`, `Option<T>` or `OptionalNillable<T>`",
                    ));
                    TokenStream::new()
                }
            };
            headers.extend(code);
        }
        let op_elem = fields::name_expr(&krate, &ns, &op_name);
        let encoded = ma.encoded;
        if encoded && bare {
            errs.push(syn::Error::new(
                sig.ident.span(),
                "`encoded` operations are rpc style (SOAP 1.1 §7): not `bare`",
            ));
        }
        if let Some((_, at)) = ma.result_min {
            if bare || ma.bare_response || encoded || is_unit(&body_ty) {
                errs.push(syn::Error::new(
                    at,
                    "`result_min` is for the result element inside a response wrapper (not `bare`, \
                     `bare_response`, `encoded` or `()`)",
                ));
            }
        }
        let body_write = if empty_request {
            // WSDL 1.1 §2.3.1: no parts, an empty Body.
            quote!(::core::result::Result::<(), #krate::EncodeError>::Ok(()))
        } else if encoded {
            let writes = body_params.iter().map(|(id, ty, pa)| {
                let pns = pa.namespace.clone().unwrap_or_else(|| child_ns.clone());
                let local = pa
                    .rename
                    .clone()
                    .unwrap_or_else(|| id.to_string().trim_start_matches("r#").to_owned());
                let name = fields::name_expr(&krate, &pns, &local);
                quote_spanned! {ty.span()=>
                    #krate::types::write_typed(__w, #name, &#id)?;
                }
            });
            quote! {{
                __w.start_element(#op_elem)?;
                __w.attribute(
                    #krate::xml::Name::new(__op.version.envelope_namespace(), "encodingStyle"),
                    #krate::types::SOAP_ENC_NS,
                )?;
                #(#writes)*
                __w.end_element()
            }}
        } else if bare {
            match body_params.first() {
                Some((id, _, _)) => quote!(#krate::ToXml::write_xml(&#id, __w, #op_elem)),
                None => quote!(::core::result::Result::<(), #krate::EncodeError>::Ok(())),
            }
        } else {
            let efs: Vec<ElementField> = body_params
                .iter()
                .enumerate()
                .map(|(i, (id, ty, pa))| ElementField {
                    slot: fields::slot_ident(i, &id.to_string()),
                    access: quote!(&#id),
                    namespace: pa.namespace.clone().unwrap_or_else(|| child_ns.clone()),
                    local: pa
                        .rename
                        .clone()
                        .unwrap_or_else(|| id.to_string().trim_start_matches("r#").to_owned()),
                    shape: fields::shape(ty, pa.occurs),
                    span: ty.span(),
                    any: false,
                    group: false,
                    default: None,
                    min: 0,
                })
                .collect();
            let writes = fields::write_elements(&krate, &efs);
            quote! {{
                __w.start_element(#op_elem)?;
                #writes
                __w.end_element()
            }}
        };
        let response_ns = ma.response_namespace.clone().unwrap_or_else(|| ns.clone());
        let wrapper = fields::name_expr(&krate, &response_ns, &response_name);
        let result_elem = fields::name_expr(&krate, &result_ns, &result_name);
        let call = quote!(#krate::__private);
        // rpc style takes the response wrapper whatever its name (SOAP 1.1 §7.1).
        let wrapped = if a.style == Style::Rpc || encoded {
            quote!(rpc)
        } else {
            quote!(wrapped)
        };
        // The response's layout as static data, and the reader of the result's occurrence: no
        // decoding code of its own per operation.
        let (shape, decoder) = if one_way {
            (
                quote!(#call::ResponseShape::OneWay),
                quote!(#call::result::Unit::read),
            )
        } else if bare || ma.bare_response {
            (
                quote!(#call::ResponseShape::Element(#wrapper)),
                quote!(#call::result::Whole::<#body_ty>::read),
            )
        } else if encoded
            && !is_unit(&body_ty)
            && matches!(
                fields::shape(&body_ty, ma.result_occurs).card,
                Occurrence::One
            )
        {
            (
                quote!(#call::ResponseShape::encoded(#wrapper, #result_elem)),
                quote!(#call::result::Whole::<#body_ty>::read),
            )
        } else if is_unit(&body_ty) {
            (
                quote!(#call::ResponseShape::#wrapped(#wrapper, #result_elem, 0)),
                quote!(#call::result::Unit::read),
            )
        } else {
            let shape = fields::shape(&body_ty, ma.result_occurs);
            if shape.inferred() {
                errs.push(syn::Error::new(
                    body_ty.span(),
                    "with `result_occurs`, write the result's container (`Vec<T>`, `Option<T>`, …), \
                     not a type alias: the decoder names the item type",
                ));
            }
            let min = match ma.result_min {
                Some((n, at))
                    if !matches!(shape.card, Occurrence::Many | Occurrence::ManyNillable) =>
                {
                    errs.push(syn::Error::new(
                        at,
                        "`result_min` (minOccurs of the result element) needs a `Vec<T>` result",
                    ));
                    n
                }
                Some((n, _)) => n,
                None => 0,
            };
            if shape.boxed {
                errs.push(syn::Error::new(
                    body_ty.span(),
                    "a result cannot be boxed: return the type itself",
                ));
            }
            let inner = &shape.inner;
            let marker = match shape.card {
                Occurrence::One => quote!(One),
                Occurrence::Optional => quote!(Optional),
                Occurrence::Many => quote!(Many),
                Occurrence::Nillable => quote!(Nillable),
                Occurrence::OptionalNillable if shape.tristate => quote!(Tristate),
                Occurrence::OptionalNillable => quote!(OptionalNillable),
                Occurrence::ManyNillable => quote!(ManyNillable),
            };
            (
                quote!(#call::ResponseShape::#wrapped(#wrapper, #result_elem, #min)),
                quote_spanned!(body_ty.span()=> #call::result::#marker::<#inner>::read),
            )
        };
        let err_ty = result_err_type(&sig.output, &krate);
        // Attachment parameters: MIME parts after the envelope (WSDL 1.1 §5, SwA).
        let attach: Vec<TokenStream> = attachment_params
            .iter()
            .map(|(id, ty, pa)| {
                let part = match &pa.attachment {
                    Some((p, _)) if !p.is_empty() => p.clone(),
                    _ => id.to_string().trim_start_matches("r#").to_owned(),
                };
                let ct = pa
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
            .collect();
        let params: Vec<TokenStream> = header_params
            .iter()
            .chain(body_params.iter())
            .map(|(id, ty, _)| quote!(#id: #ty))
            .collect();
        // Keep the user's parameter order for signatures and forwarding.
        let ordered: Vec<(syn::Ident, Type)> = sig
            .inputs
            .iter()
            .filter_map(|a| match a {
                FnArg::Typed(pt) => match &*pt.pat {
                    Pat::Ident(pi) => Some((pi.ident.clone(), (*pt.ty).clone())),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        let _ = params;
        let sig_params: Vec<TokenStream> =
            ordered.iter().map(|(id, ty)| quote!(#id: #ty)).collect();
        let arg_names: Vec<&syn::Ident> = ordered.iter().map(|(id, _)| id).collect();
        let doc = format!(
            "SOAP call: request element `{op_name}`, soapAction `{action}`.\n\n# Errors\n\n\
             Transport, HTTP, SOAP fault, XML and decode errors ([`Error`]({krate_s}::Error)), in the \
             error type the method declares.",
            krate_s = krate.to_string().replace(' ', "")
        );
        let env_ns = if encoded {
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
        let user_output = &sig.output;
        let attrs = method.attrs.iter().filter(|a| a.path().is_ident("doc"));
        let attrs2 = method.attrs.iter().filter(|a| a.path().is_ident("doc"));
        let user_ret = match &sig.output {
            ReturnType::Type(_, t) => quote!(#t),
            ReturnType::Default => quote!(()),
        };
        let encode = quote! {
            #op_value
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
            static __SHAPE: #call::ResponseShape = #shape;
        };
        let body = if ma.response_attachments.is_empty() {
            quote! {
                #encode
                #krate::__private::send(&self.client, __op, __message, &__SHAPE, #decoder)
            }
        } else {
            // A result with MIME attachments (WSDL 1.1 §5): the body's result and the parts.
            let names: Vec<&String> = ma.response_attachments.iter().map(|(n, _)| n).collect();
            let elem_spans: Vec<Span> = match &ok_ty {
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
                #krate::__private::send(&self.client, __op, __message, &__SHAPE, |__child, __cx| {
                    ::core::result::Result::Ok(((#decoder)(__child, __cx)?, #(#takes),*))
                })
            }
        };
        inherent.extend(quote! {
            #(#attrs)*
            #[doc = ""]
            #[doc = #doc]
            pub fn #fn_ident(&self, #(#sig_params),*) -> #krate::Call<#ok_ty, #err_ty> {
                #body
            }
        });
        trait_impl.extend(quote! {
            fn #fn_ident(&self, #(#sig_params),*)
                -> impl ::core::future::Future<Output = #user_ret> + ::core::marker::Send {
                #client_ident::#fn_ident(self, #(#arg_names),*)
            }
        });
        blocking_methods.extend(quote! {
            #(#attrs2)*
            #[doc = ""]
            #[doc = #doc]
            pub fn #fn_ident(&self, #(#sig_params),*) #user_output {
                #client_ident::#fn_ident(&self.inner, #(#arg_names),*).wait(&self.runtime)
            }
        });
    }
    if let Some(e) = errs.finish() {
        strip_attrs(&mut item);
        return quote!(#item #e);
    }
    let default_endpoint = match &a.endpoint {
        Some(e) => quote!(::core::option::Option::Some(#e)),
        None => quote!(::core::option::Option::None),
    };
    let default_version = version_expr(&krate, a.versions[0]);
    let version_list = a.versions.join(", ");
    let versions = a.versions.iter().map(|v| version_expr(&krate, v));
    let client_doc = format!(
        "A SOAP client for [`{trait_ident}`] (SOAP {version_list}), generated by `#[soap_client]`. \
         Cheap to clone; share it across tasks."
    );
    // Constructors: one per SOAP version when there are several, and the WSDL's own address.
    let mut async_ctors = TokenStream::new();
    let mut blocking_ctors = TokenStream::new();
    if a.versions.len() > 1 {
        for v in &a.versions {
            let fname = format_ident!("soap{}", v.replace('.', ""));
            let ve = version_expr(&krate, v);
            let d = format!(
                "A client of `endpoint` speaking SOAP {v}, with default settings.\n\n# Errors\n\n\
                 If the HTTP transport cannot be created."
            );
            async_ctors.extend(quote! {
                #[doc = #d]
                pub fn #fname(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                    ::core::result::Result::Ok(Self::new(endpoint)?.with_soap_version(#ve))
                }
            });
            blocking_ctors.extend(quote! {
                #[doc = #d]
                pub fn #fname(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                    ::core::result::Result::Ok(Self::new(endpoint)?.with_soap_version(#ve))
                }
            });
        }
    }
    if let Some(e) = &a.endpoint {
        let d = format!(
            "A client of the default endpoint, `{e}` (the address the service description gives), \
             with default settings.\n\n# Errors\n\nIf the HTTP transport cannot be created."
        );
        async_ctors.extend(quote! {
            #[doc = #d]
            pub fn with_default_endpoint() -> #krate::Result<Self> {
                Self::new(#e)
            }
        });
        blocking_ctors.extend(quote! {
            #[doc = #d]
            pub fn with_default_endpoint() -> #krate::Result<Self> {
                Self::new(#e)
            }
        });
    }
    let krate_s = krate.to_string().replace(' ', "");
    let new_doc = format!(
        "A client of `endpoint` with default settings (see \
         [`Client::builder`]({krate_s}::Client::builder) for more), speaking the default SOAP \
         version.\n\n# Errors\n\nIf the HTTP transport cannot be created."
    );
    let from_client_doc = format!(
        "Wraps a configured [`Client`]({krate_s}::Client), speaking the default SOAP version. Does \
         no work: O(1)."
    );
    let blocking_from_client_doc = format!(
        "A blocking client over an existing [`Client`]({krate_s}::Client), speaking the default \
         SOAP version.\n\n# Errors\n\nIf the runtime cannot be created."
    );
    let addressing = match &a.addressing {
        None => Vec::new(),
        Some((wsa, soap)) => {
            let wsa = if *wsa == "2004/08" {
                quote!(#krate::addressing::AddressingVersion::Submission2004)
            } else {
                quote!(#krate::addressing::AddressingVersion::W3C)
            };
            a.versions
                .iter()
                .filter(|v| soap.is_empty() || soap.contains(v))
                .map(|v| {
                    let ve = version_expr(&krate, v);
                    quote!((#ve, #wsa))
                })
                .collect()
        }
    };
    let common_consts = quote! {
        /// The trait's default namespace for the operations' elements (`namespace = …`; methods
        /// may use another).
        pub const NAMESPACE: &'static str = #ns;
        /// The endpoint the service description gives (`endpoint = …`), if any.
        pub const DEFAULT_ENDPOINT: ::core::option::Option<&'static str> = #default_endpoint;
        /// The SOAP versions the client speaks, the default (what `new` uses) first.
        pub const SOAP_VERSIONS: &'static [#krate::SoapVersion] = &[#(#versions),*];
        /// The WS-Addressing the description asks for, per SOAP version (`addressing = …`;
        /// empty: none): requests in those versions are addressed unless the
        /// client's `ClientBuilder::addressing` mode says otherwise.
        pub const ADDRESSING: &'static [(#krate::SoapVersion, #krate::addressing::AddressingVersion)] = &[#(#addressing),*];
    };
    let blocking = if a.blocking {
        let bdoc = format!(
            "The blocking form of [`{client_ident}`]: each method drives the call on a private \
             single-threaded runtime. Do not call it from async code."
        );
        quote! {
            #[doc = #bdoc]
            #[derive(Debug, Clone)]
            #vis struct #blocking_ident {
                inner: #client_ident,
                runtime: #krate::blocking::BlockingRuntime,
            }

            impl #blocking_ident {
                #common_consts

                /// A blocking client of `endpoint` with default settings, speaking the default
                /// SOAP version.
                ///
                /// # Errors
                ///
                /// If the HTTP client or the runtime cannot be created.
                pub fn new(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                    Self::from_client(#krate::Client::new(endpoint)?)
                }

                #blocking_ctors

                #[doc = #blocking_from_client_doc]
                pub fn from_client(client: #krate::Client) -> #krate::Result<Self> {
                    let runtime = #krate::blocking::BlockingRuntime::new().map_err(|e| {
                        #krate::Error::Transport(#krate::TransportError::new(
                            #krate::error::TransportErrorKind::Other,
                            client.endpoint(),
                            ::std::format!("cannot start the blocking runtime: {e}"),
                            ::core::option::Option::None,
                        ))
                    })?;
                    ::core::result::Result::Ok(Self { inner: #client_ident::from_client(client), runtime })
                }

                /// The same client speaking SOAP `version` (one of
                /// [`SOAP_VERSIONS`](Self::SOAP_VERSIONS) unless you know the server takes another).
                #[must_use]
                pub fn with_soap_version(mut self, version: #krate::SoapVersion) -> Self {
                    self.inner = self.inner.with_soap_version(version);
                    self
                }

                /// The SOAP version requests are sent in.
                pub fn soap_version(&self) -> #krate::SoapVersion {
                    self.inner.soap_version()
                }

                /// The same client with `blocks` added to the SOAP Header of every request it
                /// sends (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2): for one call, or a few.
                #[must_use]
                pub fn with_soap_headers(
                    &self,
                    blocks: impl ::core::iter::IntoIterator<Item = #krate::header::HeaderBlock>,
                ) -> Self {
                    Self { inner: self.inner.with_soap_headers(blocks), runtime: ::core::clone::Clone::clone(&self.runtime) }
                }

                /// The async client this one drives.
                pub fn as_async(&self) -> &#client_ident {
                    &self.inner
                }

                /// Runs the call that `call` makes on the async client and returns it with what
                /// came with it: a `Response` (`header::Response`) holding the typed
                /// result, every SOAP header block of the response (SOAP 1.1 §4.2, SOAP 1.2
                /// Part 1 §5.2; typed with `Response::header`, the others as XML), the HTTP
                /// status and the HTTP header fields. The blocking form of
                /// `Call::with_response`:
                /// `svc.with_response(|c| c.get_order(id))`.
                ///
                /// # Errors
                ///
                /// As the plain method; an operation whose result has MIME attachments is
                /// refused before anything is sent (`Error::Encode`),
                /// and a call made where a tokio runtime is current is refused as every
                /// blocking call is (`TransportErrorKind::BlockingInAsync`).
                pub fn with_response<__T, __E: ::core::convert::From<#krate::Error>>(
                    &self,
                    call: impl ::core::ops::FnOnce(&#client_ident) -> #krate::Call<__T, __E>,
                ) -> ::core::result::Result<#krate::header::Response<__T>, __E> {
                    call(&self.inner).with_response().wait(&self.runtime)
                }

                #blocking_methods
            }
        }
    } else {
        TokenStream::new()
    };
    let client_tokens = quote! {
        #[doc = #client_doc]
        #[derive(Debug, Clone)]
        #vis struct #client_ident {
            client: #krate::Client,
            version: #krate::SoapVersion,
        }

        // Attachments convert to and from `mime::Attachment`, which may be the type itself.
        #[allow(clippy::useless_conversion)]
        impl #client_ident {
            #common_consts

            #[doc = #new_doc]
            pub fn new(endpoint: impl ::core::convert::Into<::std::string::String>) -> #krate::Result<Self> {
                ::core::result::Result::Ok(Self::from_client(#krate::Client::new(endpoint)?))
            }

            #async_ctors

            #[doc = #from_client_doc]
            pub const fn from_client(client: #krate::Client) -> Self {
                Self { client, version: #default_version }
            }

            /// The same client speaking SOAP `version` (one of
            /// [`SOAP_VERSIONS`](Self::SOAP_VERSIONS) unless you know the server takes another).
            /// The endpoint stays: where the service's port of that version has another address
            /// (WCF publishes its SOAP 1.2 `wsHttpBinding` port at its own URL), build the client
            /// for that address instead (`soap12(url)`).
            #[must_use]
            pub const fn with_soap_version(mut self, version: #krate::SoapVersion) -> Self {
                self.version = version;
                self
            }

            /// The SOAP version requests are sent in.
            pub const fn soap_version(&self) -> #krate::SoapVersion {
                self.version
            }

            /// The same client with `blocks` added to the SOAP Header of every request it sends
            /// (SOAP 1.1 §4.2, SOAP 1.2 Part 1 §5.2), after the client's own: for one call, or
            /// a few. O(1) apart from copying the client's settings.
            #[must_use]
            pub fn with_soap_headers(
                &self,
                blocks: impl ::core::iter::IntoIterator<Item = #krate::header::HeaderBlock>,
            ) -> Self {
                Self { client: self.client.with_soap_headers(blocks), version: self.version }
            }

            /// The underlying client.
            pub fn client(&self) -> &#krate::Client {
                &self.client
            }

            #inherent
        }

        impl #trait_ident for #client_ident {
            #trait_impl
        }
    };
    strip_attrs(&mut item);
    desugar_async(&mut item);
    quote! {
        // The trait may be used only through the generated client (dead code in a binary).
        #[allow(dead_code)]
        #item

        #client_tokens

        #blocking
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
