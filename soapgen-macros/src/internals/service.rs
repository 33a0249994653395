//! A `#[soap_client]` trait read into a typed model: the client's settings ([`ClientArgs`]) and
//! one [`Operation`] per method, every name, namespace and layout decided and every rule checked,
//! so that generating the client only writes code (WSDL 1.1 §2.4 operations, §3 the SOAP
//! binding).

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{FnArg, Pat, ReturnType, TraitItemFn, Type};

use super::attr::{
    parse_method_attrs, parse_param_attrs, take_soap_attrs, ClientArgs, ParamAttrs, Style,
};
use super::check;
use super::occurs::{is_unit, shape, type_argument, Occurrence};
use super::Errors;

/// A parameter of an operation method.
pub(crate) struct Param {
    pub(crate) ident: syn::Ident,
    pub(crate) ty: Type,
    pub(crate) attrs: ParamAttrs,
}

/// How a header parameter is sent (SOAP 1.1 §4.2): always, when `Some`, or absent, nil or a
/// value.
#[derive(Clone, Copy)]
pub(crate) enum HeaderKind {
    /// `T`: always.
    One,
    /// `Option<T>`: only when `Some`.
    Optional,
    /// `OptionalNillable<T>`: absent, nil (`xsi:nil`, XML Schema Part 1 §2.6.2) or a value.
    Tristate,
}

/// How the response is read (WSDL 1.1 §3.5 `soap:body`, §2.4.1 one-way).
pub(crate) enum Response {
    /// No response (one-way).
    OneWay,
    /// The Body's child is the result, read whole (bare, or `bare_response`).
    Whole,
    /// rpc/encoded: the wrapper's single accessor, whatever its name (SOAP 1.1 §7.1).
    Encoded,
    /// A wrapper with no result (`()`).
    Unit,
    /// A wrapper holding the result element: its reader's marker (`One`, `Optional`, …), the
    /// value type, and minOccurs.
    Wrapped {
        marker: &'static str,
        inner: Box<Type>,
        min: u64,
    },
}

/// One trait method: the operation it calls, resolved from its attributes and signature.
pub(crate) struct Operation {
    pub(crate) fn_ident: syn::Ident,
    /// The method's doc attributes.
    pub(crate) docs: Vec<syn::Attribute>,
    /// The operation (request element) name.
    pub(crate) name: String,
    /// The WSDL operation's name (`operation = "…"`; default [`name`](Self::name)): the
    /// runtime's `Operation::name`, by which a port's WS-SecurityPolicy names the operation.
    pub(crate) operation: String,
    /// The soapAction; the default action pattern on an addressed trait.
    pub(crate) action: String,
    /// The `wsa:Action` the reply must carry, when checked.
    pub(crate) reply_action: Option<String>,
    pub(crate) one_way: bool,
    /// Bound to SOAP 1.2's SOAP-response message exchange pattern: the `whttp:location`
    /// template and the query separator of its GET (WSDL 2.0 Part 2 §6.8.1.1).
    pub(crate) soap_response: Option<(String, String)>,
    pub(crate) empty_request: bool,
    pub(crate) encoded: bool,
    /// rpc style in a document-style client (`#[soap(rpc)]`): the response wrapper is read
    /// whatever its name.
    pub(crate) rpc: bool,
    /// The request is the body element itself (document/literal bare, or a wrapped request
    /// given as its struct: `request_struct`).
    pub(crate) bare: bool,
    /// `request_struct`: the one body parameter holds the request wrapper's children (written
    /// whole when document style; inside the operation element, as a model group, when rpc).
    pub(crate) request_struct: bool,
    /// The request element's namespace.
    pub(crate) namespace: String,
    /// The namespace of the wrapper's children (empty when unqualified).
    pub(crate) child_namespace: String,
    pub(crate) result_namespace: String,
    pub(crate) response_namespace: String,
    pub(crate) response_name: String,
    pub(crate) result_name: String,
    /// The method's `T` in `Result<T, E>`.
    pub(crate) ok_ty: Type,
    /// A streamed result (`Result<ItemStream<X>, E>`): the item type `X`; the Body's result is
    /// then read as `Vec<X>` where it must be read whole.
    pub(crate) stream: Option<Type>,
    /// `items = "…"` of a streamed result: the items' element `(namespace, local name)` inside
    /// the result element.
    pub(crate) items: Option<(String, String)>,
    /// The result read from the Body (the first of the tuple with response attachments).
    pub(crate) body_ty: Type,
    pub(crate) response: Response,
    /// The response's MIME parts, in order (WSDL 1.1 §5).
    pub(crate) response_attachments: Vec<(String, Span)>,
    pub(crate) headers: Vec<(Param, HeaderKind)>,
    pub(crate) body: Vec<Param>,
    pub(crate) attachments: Vec<Param>,
    /// The parameters in the signature's order: (name, type).
    pub(crate) params: Vec<(syn::Ident, Type)>,
    /// The method's declared return type.
    pub(crate) output: ReturnType,
}

/// The `T` of `Result<T, E>` / `Result<T>`.
fn result_ok_type(ret: &ReturnType) -> Option<&Type> {
    let ReturnType::Type(_, ty) = ret else {
        return None;
    };
    type_argument(ty, "Result")
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

impl Operation {
    /// The operation of `method` on a trait `trait_ident` of namespace `ns` with arguments `a`
    /// (its `#[soap]` attributes taken off it); `None` when its signature cannot be an
    /// operation's (no `Result`). Every mistake goes to `errs`, in the order the method reads.
    pub(crate) fn read(
        method: &mut TraitItemFn,
        a: &ClientArgs,
        ns: &str,
        trait_ident: &syn::Ident,
        errs: &mut Errors,
    ) -> Option<Operation> {
        let soap_attrs = take_soap_attrs(&mut method.attrs);
        let ma = parse_method_attrs(&soap_attrs, errs);
        check::operation_signature(method, errs);
        let (headers, body, attachments) = params(&mut method.sig, errs);
        let sig = &method.sig;
        let Some(ok_ty) = result_ok_type(&sig.output).cloned() else {
            errs.push(syn::Error::new(
                sig.output.span(),
                "an operation must return `Result<T, soapgen_runtime::Error>` (or a `Result` whose \
                 error converts from it); the macro sees types by name, so write `Result<T, E>` \
                 out rather than another alias (`…::Result<T>` aliases are understood)",
            ));
            return None;
        };
        let fn_ident = sig.ident.clone();
        let name = ma
            .name
            .clone()
            .unwrap_or_else(|| fn_ident.to_string().trim_start_matches("r#").to_owned());
        let port_type = trait_ident.to_string();
        // Addressed: no `action` is WS-Addressing Metadata §4.4.4's default action pattern, the
        // trait standing for the portType and `{operation}Request` (one-way: the operation's
        // name: WSDL 1.1 §2.4.5's default names) for the input's name.
        let action = match (&ma.action, &a.addressing) {
            (Some(action), _) => action.clone(),
            (None, Some(_)) => {
                let input = if ma.one_way {
                    name.clone()
                } else {
                    format!("{name}Request")
                };
                default_action(ns, &port_type, &input)
            }
            (None, None) => String::new(),
        };
        // The reply's action, checked on addressed calls: explicit, or (addressed trait, the
        // input's action by the default pattern too) the default pattern with
        // `{operation}Response` (WSDL 1.1 §2.4.5's default output name).
        let reply_action = match (&ma.reply_action, &a.addressing) {
            _ if ma.one_way => None,
            (Some(r), _) => Some(r.clone()),
            (None, Some(_)) if ma.action.is_none() => {
                Some(default_action(ns, &port_type, &format!("{name}Response")))
            }
            (None, _) => None,
        };
        check_soap_response(&ma, a, errs);
        check_soap_response_params(&ma, &headers, &body, &attachments, errs);
        let response_name = ma
            .response
            .clone()
            .unwrap_or_else(|| format!("{name}Response"));
        let result_name = ma.result.clone().unwrap_or_else(|| format!("{name}Result"));
        // A streamed result is the repeated result element, item by item: read as `Vec<X>`
        // where the whole response is read.
        let stream = type_argument(&ok_ty, "ItemStream").cloned();
        let result_ty = match &stream {
            Some(item) => syn::parse_quote_spanned!(ok_ty.span()=> ::std::vec::Vec<#item>),
            None => ok_ty.clone(),
        };
        let body_ty = check::result_types(&ma, &result_ty, errs);
        check::request(&ma, &sig.ident, body.first().map(|p| &p.ident), errs);
        let bare = a.bare || ma.bare;
        // The request written whole: bare, or a wrapped request given as its struct (whose
        // response is still read as wrapped).
        let whole_request = bare || ma.request_struct;
        let namespace = ma.namespace.clone().unwrap_or_else(|| ns.to_owned());
        let qualified = a.qualified.unwrap_or(a.style == Style::Document);
        let child_namespace = if qualified {
            namespace.clone()
        } else {
            String::new()
        };
        let result_namespace = ma
            .result_namespace
            .clone()
            .unwrap_or_else(|| child_namespace.clone());
        check::body_count(&ma, bare, &sig.ident, body.len(), errs);
        let headers = header_kinds(headers, errs);
        check::layout(&ma, &sig.ident, bare, &body_ty, errs);
        let response = response(&ma, bare, &body_ty, errs);
        let items = stream_items(
            &ma,
            stream.is_some(),
            &response,
            &ok_ty,
            &result_namespace,
            errs,
        );
        let response_namespace = ma
            .response_namespace
            .clone()
            .unwrap_or_else(|| namespace.clone());
        let params = sig
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
        Some(Operation {
            fn_ident,
            docs: method
                .attrs
                .iter()
                .filter(|a| a.path().is_ident("doc"))
                .cloned()
                .collect(),
            operation: ma.operation.clone().unwrap_or_else(|| name.clone()),
            name,
            action,
            reply_action,
            one_way: ma.one_way,
            soap_response: ma.soap_response.clone().map(|(l, s, _)| (l, s)),
            empty_request: ma.empty_request,
            encoded: ma.encoded,
            rpc: ma.rpc,
            bare: whole_request,
            request_struct: ma.request_struct,
            namespace,
            child_namespace,
            result_namespace,
            response_namespace,
            response_name,
            result_name,
            ok_ty,
            stream,
            items,
            body_ty,
            response,
            response_attachments: ma.response_attachments,
            headers,
            body,
            attachments,
            params,
            output: sig.output.clone(),
        })
    }

    /// The response wrapper is taken whatever its name: rpc style (SOAP 1.1 §7.1).
    pub(crate) fn rpc_response(&self, a: &ClientArgs) -> bool {
        a.style == Style::Rpc || self.encoded || self.rpc
    }
}

/// The parameters after `&self`, their `#[soap]` attributes taken off: (headers, body,
/// attachments).
fn params(sig: &mut syn::Signature, errs: &mut Errors) -> (Vec<Param>, Vec<Param>, Vec<Param>) {
    let mut headers = Vec::new();
    let mut body = Vec::new();
    let mut attachments = Vec::new();
    for arg in sig.inputs.iter_mut().skip(1) {
        let FnArg::Typed(pt) = arg else { continue };
        let pa_attrs = take_soap_attrs(&mut pt.attrs);
        let attrs = parse_param_attrs(&pa_attrs, errs);
        let Pat::Ident(pi) = &*pt.pat else {
            errs.push(syn::Error::new(
                pt.pat.span(),
                "operation parameters must be plain identifiers",
            ));
            continue;
        };
        let p = Param {
            ident: pi.ident.clone(),
            ty: (*pt.ty).clone(),
            attrs,
        };
        if p.attrs.attachment.is_some() {
            attachments.push(p);
        } else if p.attrs.header {
            headers.push(p);
        } else {
            body.push(p);
        }
    }
    (headers, body, attachments)
}

/// How each header parameter is sent, by its occurrence.
fn header_kinds(headers: Vec<Param>, errs: &mut Errors) -> Vec<(Param, HeaderKind)> {
    let mut out = Vec::with_capacity(headers.len());
    for p in headers {
        let shape = shape(&p.ty, p.attrs.occurs);
        let kind = match shape.card {
            Occurrence::Optional => HeaderKind::Optional,
            Occurrence::One => HeaderKind::One,
            Occurrence::OptionalNillable if shape.tristate => HeaderKind::Tristate,
            _ => {
                errs.push(syn::Error::new(
                    p.ty.span(),
                    "a header parameter is `T`, `Option<T>` or `OptionalNillable<T>`",
                ));
                continue;
            }
        };
        out.push((p, kind));
    }
    out
}

/// Checks a streamed result (`streamed`; see [`check_stream`]) and `items` (only on one), and
/// gives the items' element `(namespace, local name)`: `items_namespace`, else the result's.
fn stream_items(
    ma: &super::attr::MethodAttrs,
    streamed: bool,
    response: &Response,
    ok_ty: &Type,
    result_namespace: &str,
    errs: &mut Errors,
) -> Option<(String, String)> {
    if streamed {
        check_stream(ma, response, ok_ty, errs);
    } else if let Some((_, at)) = &ma.items {
        errs.push(syn::Error::new(
            *at,
            "`items` names the repeated element inside the result element of a streamed \
             result: the method returns `Result<ItemStream<T>, E>`",
        ));
    }
    ma.items.as_ref().map(|(local, _)| {
        let ns = ma
            .items_namespace
            .clone()
            .unwrap_or_else(|| result_namespace.to_owned());
        (ns, local.clone())
    })
}

/// A streamed result (`ItemStream<T>`, of type `ok_ty`) must be the repeated result element of a
/// wrapped response read as `response`: an error in `errs` otherwise.
fn check_stream(
    ma: &super::attr::MethodAttrs,
    response: &Response,
    ok_ty: &Type,
    errs: &mut Errors,
) {
    let many = matches!(
        response,
        Response::Wrapped {
            marker: "Many" | "ManyNillable",
            ..
        }
    );
    if !many || !ma.response_attachments.is_empty() || ma.encoded {
        errs.push(syn::Error::new(
            ok_ty.span(),
            "an `ItemStream<T>` result is the repeated result element of a wrapped response \
             (document/literal wrapped or rpc/literal, no MIME parts): its items are read one by \
             one from the response wrapper",
        ));
    }
}

/// How the response of an operation with attributes `ma` and Body result `body_ty` is read.
fn response(
    ma: &super::attr::MethodAttrs,
    bare: bool,
    body_ty: &Type,
    errs: &mut Errors,
) -> Response {
    if ma.one_way {
        return Response::OneWay;
    }
    if bare || ma.bare_response {
        return Response::Whole;
    }
    let result = shape(body_ty, ma.result_occurs);
    if ma.encoded && !is_unit(body_ty) && matches!(result.card, Occurrence::One) {
        return Response::Encoded;
    }
    if is_unit(body_ty) {
        return Response::Unit;
    }
    if result.inferred() {
        errs.push(syn::Error::new(
            body_ty.span(),
            "with `result_occurs`, write the result's container (`Vec<T>`, `Option<T>`, …), \
             not a type alias: the decoder names the item type",
        ));
    }
    let min = match ma.result_min {
        Some((n, at)) if !matches!(result.card, Occurrence::Many | Occurrence::ManyNillable) => {
            errs.push(syn::Error::new(
                at,
                "`result_min` (minOccurs of the result element) needs a `Vec<T>` result",
            ));
            n
        }
        Some((n, _)) => n,
        None => 0,
    };
    if result.boxed {
        errs.push(syn::Error::new(
            body_ty.span(),
            "a result cannot be boxed: return the type itself",
        ));
    }
    let marker = match result.card {
        Occurrence::One => "One",
        Occurrence::Optional => "Optional",
        Occurrence::Many => "Many",
        Occurrence::Nillable => "Nillable",
        Occurrence::OptionalNillable if result.tristate => "Tristate",
        Occurrence::OptionalNillable => "OptionalNillable",
        Occurrence::ManyNillable => "ManyNillable",
    };
    Response::Wrapped {
        marker,
        inner: Box::new(result.inner),
        min,
    }
}

/// `soap_response` on a method: a SOAP 1.2 client's (SOAP 1.2 Part 2 §6.3), never `one_way`.
fn check_soap_response(ma: &super::attr::MethodAttrs, a: &ClientArgs, errs: &mut Errors) {
    let Some((_, _, span)) = &ma.soap_response else {
        return;
    };
    if !a.versions.contains(&"1.2") {
        errs.push(syn::Error::new(
            *span,
            "`soap_response` needs a SOAP 1.2 client (`soap = \"1.2\"`): the SOAP-response \
             message exchange pattern is SOAP 1.2's (Part 2 §6.3); SOAP 1.1 has none",
        ));
    }
    if ma.one_way {
        errs.push(syn::Error::new(
            *span,
            "`soap_response` and `one_way` exclude each other: SOAP 1.2's SOAP-response \
             message exchange pattern is a GET answered with an envelope (Part 2 §6.3)",
        ));
    }
}

/// The parameters of a `soap_response` method: no header or attachment (a GET carries neither,
/// SOAP 1.2 Part 2 §6.3); every name its location template cites is one of its body parameters'
/// elements (WSDL 2.0 Part 2 §6.8.1.1), unless one struct parameter holds them.
fn check_soap_response_params(
    ma: &super::attr::MethodAttrs,
    headers: &[Param],
    body: &[Param],
    attachments: &[Param],
    errs: &mut Errors,
) {
    let Some((template, _, span)) = &ma.soap_response else {
        return;
    };
    if let Some(p) = headers.iter().chain(attachments).next() {
        errs.push(syn::Error::new(
            p.ident.span(),
            "a `soap_response` method sends no header block or attachment: its request is a GET \
             with no envelope (SOAP 1.2 Part 2 §6.3)",
        ));
    }
    if ma.bare || ma.request_struct {
        return;
    }
    let names: Vec<String> = body
        .iter()
        .map(|p| {
            p.attrs
                .rename
                .clone()
                .unwrap_or_else(|| p.ident.to_string().trim_start_matches("r#").to_owned())
        })
        .collect();
    let Ok(pieces) = soapgen_contract::location_template(template) else {
        return; // said where the attribute was read
    };
    for piece in pieces {
        if let soapgen_contract::TemplatePiece::Param { name, .. } = piece {
            if !names.iter().any(|n| n == name) {
                errs.push(syn::Error::new(
                    *span,
                    format!(
                        "the location cites {{{name}}}, which is no parameter of the method \
                         (its elements: {})",
                        names.join(", ")
                    ),
                ));
            }
        }
    }
}
