//! The rules a `#[soap_client]` trait's methods follow beyond their attributes' syntax: what an
//! operation's signature may be, and which attributes go together (WSDL 1.1 §2.3.1 empty
//! requests, §2.4.1 one-way operations, §5 MIME parts, SOAP 1.1 §7 rpc/encoded). Each reports
//! every mistake it finds, at its span.

use syn::spanned::Spanned;
use syn::{FnArg, TraitItemFn, Type};

// RESERVED_METHODS: the generated clients' own method names, which no operation method may take
// (soapgen-build names operations around the same list).
use soapgen_contract::RESERVED_METHODS;

use super::attr::MethodAttrs;
use super::occurs::is_unit;
use super::Errors;

/// An operation is a plain `async fn(&self, …)`: not generic, no default body, a name the client
/// does not use itself.
pub(crate) fn operation_signature(method: &TraitItemFn, errs: &mut Errors) {
    let sig = &method.sig;
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
    match sig.inputs.first() {
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
}

/// The result a method returning `Result<ok_ty, …>` reads from the Body: `ok_ty`, or with
/// response attachments the first of the tuple `(body result, attachment, …)`. A one-way
/// operation returns `()` and has no response attachments.
pub(crate) fn result_types(ma: &MethodAttrs, ok_ty: &Type, errs: &mut Errors) -> Type {
    if ma.one_way && !is_unit(ok_ty) {
        errs.push(syn::Error::new(
            ok_ty.span(),
            "a one_way operation returns `Result<(), …>`",
        ));
    }
    if ma.response_attachments.is_empty() {
        return ok_ty.clone();
    }
    if ma.one_way {
        errs.push(syn::Error::new(
            ma.response_attachments[0].1,
            "a one_way operation has no response, so no response_attachment",
        ));
        return ok_ty.clone();
    }
    let n = ma.response_attachments.len();
    match ok_ty {
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
}

/// An `empty_request` operation sends an empty Body (WSDL 1.1 §2.3.1): no body parameters, and
/// not `encoded` (rpc operations always send their operation element).
pub(crate) fn request(
    ma: &MethodAttrs,
    method: &syn::Ident,
    first_body: Option<&syn::Ident>,
    errs: &mut Errors,
) {
    if !ma.empty_request {
        return;
    }
    if ma.encoded {
        errs.push(syn::Error::new(
            method.span(),
            "`empty_request` sends no body element, so it is not `encoded` (rpc operations \
             always send their operation element)",
        ));
    }
    if let Some(p) = first_body {
        errs.push(syn::Error::new(
            p.span(),
            "an `empty_request` operation sends an empty Body: it takes no body parameters \
             (only `#[soap(header)]` and `#[soap(attachment)]` ones)",
        ));
    }
}

/// `encoded` operations are rpc style (not `bare`); `result_min` is for a result element inside
/// a response wrapper.
pub(crate) fn layout(
    ma: &MethodAttrs,
    method: &syn::Ident,
    bare: bool,
    body_ty: &Type,
    errs: &mut Errors,
) {
    if ma.encoded && bare {
        errs.push(syn::Error::new(
            method.span(),
            "`encoded` operations are rpc style (SOAP 1.1 §7): not `bare`",
        ));
    }
    if ma.request_struct && bare {
        errs.push(syn::Error::new(
            method.span(),
            "`request_struct` is for a wrapped or rpc request (its struct holds the wrapper's \
             children): not with `bare`",
        ));
    }
    if let Some((_, at)) = ma.result_min {
        if bare || ma.bare_response || ma.encoded || is_unit(body_ty) {
            errs.push(syn::Error::new(
                at,
                "`result_min` is for the result element inside a response wrapper (not `bare`, \
                 `bare_response`, `encoded` or `()`)",
            ));
        }
    }
}

/// A bare operation, or one given its request struct, takes exactly one body parameter (`body`
/// of them here): an error on the method `ident` in `errs` otherwise.
pub(crate) fn body_count(
    ma: &MethodAttrs,
    bare: bool,
    ident: &syn::Ident,
    body: usize,
    errs: &mut Errors,
) {
    if bare && !ma.empty_request && body != 1 {
        errs.push(syn::Error::new(
            ident.span(),
            "with parameters = \"bare\" an operation takes exactly one body parameter (the body element)",
        ));
    } else if ma.request_struct && (body != 1 || ma.empty_request) {
        errs.push(syn::Error::new(
            ident.span(),
            "with `request_struct` an operation takes exactly one body parameter (the request \
             wrapper element's struct)",
        ));
    }
}
