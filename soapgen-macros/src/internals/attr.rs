//! The attributes the macros read, parsed once into typed values: `#[xml(...)]` on derived
//! types and their fields or variants, `#[soap_client(...)]` on a trait and `#[soap(...)]` on
//! its methods and parameters (the vocabulary is `soapgen_contract::keys`). Unknown keys are
//! errors naming the keys the site takes.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{DeriveInput, LitStr};

use soapgen_contract::keys;

use super::names::rename_all;
use super::occurs::{one_of, parse_occurs, Occurrence};
use super::{Errors, KeySite};

/// The `#[xml(...)]` attributes of a derived type (see the crate's attribute reference).
pub(crate) struct Container {
    /// `namespace = "uri"`: of the child elements (`elementFormDefault="qualified"`).
    pub(crate) namespace: Option<String>,
    /// `rename_all = "rule"`, with the literal's span.
    pub(crate) rename_all: Option<(String, Span)>,
    /// `crate = "path"`: the path to `soapgen_runtime`.
    pub(crate) krate: TokenStream,
    /// `rename = "Name"`: the type's XSD name.
    pub(crate) type_name: Option<String>,
    /// `#[xml(sequence)]`: element fields read by position (XML Schema Part 1 §3.8 sequence).
    pub(crate) sequence: bool,
    /// `#[xml(encoded)]` on a `sequence` struct: each element field is written with its
    /// `xsi:type` (SOAP 1.1 §5.1 rule 2), as the parts of an rpc/encoded request are.
    pub(crate) encoded: bool,
    /// `#[xml(xsi_type)]` on an enum: a declared type and the types derived from it, one variant
    /// each, told apart by `xsi:type` (XML Schema Part 1 §2.6.1).
    pub(crate) xsi_type: bool,
}

/// The container attributes of `input`.
pub(crate) fn parse_container(input: &DeriveInput, errs: &mut Errors) -> Container {
    let mut c = Container {
        namespace: None,
        rename_all: None,
        krate: quote!(::soapgen_runtime),
        type_name: None,
        sequence: false,
        encoded: false,
        xsi_type: false,
    };
    let site = KeySite {
        attribute: "xml",
        on: "a type",
        keys: keys::TYPE,
    };
    let xml = input.attrs.iter().filter(|a| a.path().is_ident("xml"));
    errs.parse_keys(xml, &site, |meta| {
        if meta.path.is_ident("namespace") {
            c.namespace = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("rename_all") {
            let s: LitStr = meta.value()?.parse()?;
            if rename_all(&s.value(), "a").is_none() {
                return Err(syn::Error::new(
                    s.span(),
                    "unknown rename_all rule; expected one of \"camelCase\", \"PascalCase\", \
                         \"snake_case\", \"lowercase\", \"UPPERCASE\", \"kebab-case\", \
                         \"SCREAMING_SNAKE_CASE\"",
                ));
            }
            c.rename_all = Some((s.value(), s.span()));
        } else if meta.path.is_ident("crate") {
            let s: LitStr = meta.value()?.parse()?;
            let p = s.parse::<syn::Path>()?;
            c.krate = quote!(#p);
        } else if meta.path.is_ident("rename") {
            c.type_name = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("sequence") {
            c.sequence = true;
        } else if meta.path.is_ident("encoded") {
            c.encoded = true;
        } else if meta.path.is_ident("xsi_type") {
            c.xsi_type = true;
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    c
}

/// The `#[xml(...)]` attributes of a field or variant (see the crate's attribute reference).
#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) rename: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) unqualified: bool,
    pub(crate) attribute: bool,
    pub(crate) text: bool,
    pub(crate) any: bool,
    pub(crate) any_attribute: bool,
    pub(crate) content: bool,
    pub(crate) group: bool,
    /// `default = "…"` / `fixed = "…"` (XML Schema Part 1 §3.2.1, §3.3.1): an attribute's value
    /// when absent, an element's when present and empty.
    pub(crate) constraint: Option<(String, bool, Span)>,
    /// `min = N`: minOccurs of a `Vec` field, with the literal's span.
    pub(crate) min: Option<(u64, proc_macro2::Span)>,
    /// `occurs = "…"`: the field's occurrence, instead of reading it from its type.
    pub(crate) occurs: Option<Occurrence>,
}

/// The field attributes among `attrs`.
pub(crate) fn parse_field_attrs(attrs: &[syn::Attribute], errs: &mut Errors) -> FieldAttrs {
    let mut f = FieldAttrs::default();
    let site = KeySite {
        attribute: "xml",
        on: "a field",
        keys: keys::FIELD,
    };
    let xml = attrs.iter().filter(|a| a.path().is_ident("xml"));
    errs.parse_keys(xml, &site, |meta| {
        if meta.path.is_ident("rename") {
            f.rename = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("namespace") {
            f.namespace = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("unqualified") {
            f.unqualified = true;
        } else if meta.path.is_ident("attribute") {
            f.attribute = true;
        } else if meta.path.is_ident("text") {
            f.text = true;
        } else if meta.path.is_ident("any") {
            f.any = true;
        } else if meta.path.is_ident("any_attribute") {
            f.any_attribute = true;
        } else if meta.path.is_ident("content") {
            f.content = true;
        } else if meta.path.is_ident("group") {
            f.group = true;
        } else if meta.path.is_ident("default") || meta.path.is_ident("fixed") {
            let fixed = meta.path.is_ident("fixed");
            let v: LitStr = meta.value()?.parse()?;
            if f.constraint.is_some() {
                return Err(meta.error("a field has one `default` or `fixed` value"));
            }
            f.constraint = Some((v.value(), fixed, v.span()));
        } else if meta.path.is_ident("min") {
            let lit = meta.value()?.parse::<syn::LitInt>()?;
            f.min = Some((lit.base10_parse::<u64>()?, lit.span()));
        } else if meta.path.is_ident(keys::OCCURS) {
            f.occurs = Some(parse_occurs(meta)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    f
}

/// `soap:binding style` (WSDL 1.1 §3.3).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    Document,
    Rpc,
}

/// The arguments of `#[soap_client(...)]`.
pub(crate) struct ClientArgs {
    pub(crate) namespace: Option<String>,
    /// The SOAP versions the client speaks (`soap = "1.1, 1.2"`), the default first.
    pub(crate) versions: Vec<&'static str>,
    pub(crate) style: Style,
    pub(crate) bare: bool,
    pub(crate) endpoint: Option<String>,
    /// `endpoints = "1.1=URL 1.2=URL"`: the service description's addresses per SOAP version (a
    /// version may have several, in the description's port order: the first is its default),
    /// where its ports of the two versions differ.
    pub(crate) endpoints: Vec<(&'static str, String)>,
    /// Where `endpoints` was written, for the errors checked once every argument is read.
    pub(crate) endpoints_span: Option<proc_macro2::Span>,
    pub(crate) client_name: Option<syn::Ident>,
    pub(crate) blocking: bool,
    /// `fake`: the trait's in-process service side, for tests (the runtime's `testing`
    /// feature).
    pub(crate) fake: bool,
    pub(crate) krate: TokenStream,
    pub(crate) qualified: Option<bool>,
    /// `addressing = "1.0" | "2004/08"`, or `addressing(version = …, soap = "1.2")`: the
    /// WS-Addressing version and the SOAP versions it applies to (empty: all).
    pub(crate) addressing: Option<(&'static str, Vec<&'static str>)>,
    /// `default_namespaces`: request payloads name their elements under default-namespace
    /// declarations instead of prefixes (Namespaces in XML 1.0 §6.2).
    pub(crate) default_namespaces: bool,
}

/// The arguments of `#[soap_client(...)]`; every one defaults (`namespace` is checked by the
/// caller), the SOAP version to 1.1.
pub(crate) fn parse_args(args: TokenStream, errs: &mut Errors) -> ClientArgs {
    let mut a = ClientArgs {
        namespace: None,
        versions: Vec::new(),
        style: Style::Document,
        bare: false,
        endpoint: None,
        endpoints: Vec::new(),
        endpoints_span: None,
        client_name: None,
        blocking: false,
        fake: false,
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
            for v in listed(&s) {
                let v = soap_version(v, &s, SOAP_VERSIONS)?;
                if a.versions.contains(&v) {
                    return Err(syn::Error::new(s.span(), "a SOAP version is listed twice"));
                }
                a.versions.push(v);
            }
        } else if meta.path.is_ident("style") {
            a.style = one_of_values(
                &meta.value()?.parse()?,
                &[("document", Style::Document), ("rpc", Style::Rpc)],
                "expected style = \"document\" or \"rpc\"",
            )?;
        } else if meta.path.is_ident("parameters") {
            a.bare = one_of_values(
                &meta.value()?.parse()?,
                &[("wrapped", false), ("bare", true)],
                "expected parameters = \"wrapped\" or \"bare\"",
            )?;
        } else if meta.path.is_ident("element_form") {
            a.qualified = Some(one_of_values(
                &meta.value()?.parse()?,
                &[("qualified", true), ("unqualified", false)],
                "expected element_form = \"qualified\" or \"unqualified\"",
            )?);
        } else if meta.path.is_ident("endpoint") {
            a.endpoint = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("endpoints") {
            let s: LitStr = meta.value()?.parse()?;
            // Separated by white space, which a URL cannot hold (RFC 3986 §2).
            const EXPECTED: &str = "expected endpoints = \"1.1=URL 1.2=URL\"";
            for item in s.value().split_whitespace() {
                let Some((v, url)) = item.split_once('=').filter(|(_, u)| !u.is_empty()) else {
                    return Err(syn::Error::new(s.span(), EXPECTED));
                };
                let v = soap_version(v.to_owned(), &s, EXPECTED)?;
                let url = url.trim().to_owned();
                if a.endpoints.iter().any(|(w, u)| *w == v && *u == url) {
                    return Err(syn::Error::new(
                        s.span(),
                        format!("SOAP {v}={url} is listed twice"),
                    ));
                }
                a.endpoints.push((v, url));
            }
            a.endpoints_span = Some(s.span());
        } else if meta.path.is_ident("client") {
            let s: LitStr = meta.value()?.parse()?;
            a.client_name = Some(s.parse()?);
        } else if meta.path.is_ident("addressing") {
            a.addressing = Some(parse_addressing(&meta)?);
        } else if meta.path.is_ident("blocking") {
            a.blocking = true;
        } else if meta.path.is_ident("fake") {
            a.fake = true;
        } else if meta.path.is_ident("default_namespaces") {
            a.default_namespaces = true;
        } else if meta.path.is_ident("crate") {
            let s: LitStr = meta.value()?.parse()?;
            let p: syn::Path = s.parse()?;
            a.krate = quote!(#p);
        } else {
            return Err(meta.error(format!(
                "unknown soap_client argument; expected {}",
                one_of(keys::CLIENT, "`")
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
    if let Some(span) = a.endpoints_span {
        if let Some((v, _)) = a.endpoints.iter().find(|(v, _)| !a.versions.contains(v)) {
            errs.push(syn::Error::new(
                span,
                format!("endpoints names SOAP {v}, which `soap = …` does not list"),
            ));
        }
    }
    a
}

/// The error of a `soap = "…"` list of SOAP versions.
const SOAP_VERSIONS: &str =
    "expected soap = \"1.1\", \"1.2\", or both as \"1.1, 1.2\" (the first is the default)";

/// The items of the comma-separated list `s`.
fn listed(s: &LitStr) -> Vec<String> {
    s.value()
        .split(',')
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .collect()
}

/// The SOAP version `v` (an item of `s`), or `error` at `s`.
fn soap_version(v: String, s: &LitStr, error: &str) -> syn::Result<&'static str> {
    match v.as_str() {
        "1.1" => Ok("1.1"),
        "1.2" => Ok("1.2"),
        _ => Err(syn::Error::new(s.span(), error)),
    }
}

/// The value `s` names among `values`, or `error` at `s`.
fn one_of_values<T: Copy>(s: &LitStr, values: &[(&str, T)], error: &str) -> syn::Result<T> {
    let v = s.value();
    values
        .iter()
        .find(|(name, _)| *name == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| syn::Error::new(s.span(), error))
}

/// `addressing = "1.0" | "2004/08"`, or `addressing(version = …, soap = "1.2")`: the
/// WS-Addressing version and the SOAP versions it applies to (empty: all).
fn parse_addressing(
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<(&'static str, Vec<&'static str>)> {
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
        return Ok((wsa(&meta.value()?.parse::<LitStr>()?)?, Vec::new()));
    }
    let mut version = None;
    let mut soap = Vec::new();
    meta.parse_nested_meta(|m| {
        let s: LitStr = m.value()?.parse()?;
        if m.path.is_ident("version") {
            version = Some(wsa(&s)?);
        } else if m.path.is_ident("soap") {
            for v in listed(&s) {
                soap.push(soap_version(
                    v,
                    &s,
                    "expected soap = \"1.1\", \"1.2\" or \"1.1, 1.2\"",
                )?);
            }
        } else {
            return Err(m.error("expected `version` or `soap` in addressing(…)"));
        }
        Ok(())
    })?;
    let Some(version) = version else {
        return Err(meta.error("addressing(…) needs version = \"1.0\" or \"2004/08\""));
    };
    Ok((version, soap))
}

/// The `#[soap(...)]` attributes of a trait method.
#[derive(Default)]
pub(crate) struct MethodAttrs {
    pub(crate) name: Option<String>,
    /// `operation = "…"`: the WSDL operation's name, when it is not the request element's.
    pub(crate) operation: Option<String>,
    pub(crate) namespace: Option<String>,
    pub(crate) result_namespace: Option<String>,
    pub(crate) response_namespace: Option<String>,
    pub(crate) bare: bool,
    /// `request_struct`: the one body parameter is the request wrapper element, written whole,
    /// and the response is read as a wrapped one (its result unwrapped).
    pub(crate) request_struct: bool,
    pub(crate) bare_response: bool,
    pub(crate) action: Option<String>,
    /// `reply_action = "…"`: the output's `wsa:Action` (WS-Addressing 1.0 Metadata §4.4), which
    /// an addressed call's reply must carry.
    pub(crate) reply_action: Option<String>,
    pub(crate) response: Option<String>,
    pub(crate) result: Option<String>,
    pub(crate) one_way: bool,
    /// `empty_request`: the input message has no parts (WSDL 1.1 §2.3.1), the Body is sent empty.
    pub(crate) empty_request: bool,
    /// `response_attachment = "part"`, in order: the response's MIME parts (WSDL 1.1 §5).
    pub(crate) response_attachments: Vec<(String, Span)>,
    /// `encoded`: SOAP 1.1 §5 encoding (`soap:body use="encoded"`), rpc style.
    pub(crate) encoded: bool,
    /// `rpc`: this operation is rpc style (WSDL 1.1 §3.5) in a document-style client: its
    /// response wrapper is read whatever its name (SOAP 1.1 §7.1).
    pub(crate) rpc: bool,
    /// `result_min = N`: minOccurs of a repeated (`Vec`) result element, with the literal's span.
    pub(crate) result_min: Option<(u64, Span)>,
    /// `result_occurs = "…"`: the result's occurrence, instead of reading it from the type.
    pub(crate) result_occurs: Option<Occurrence>,
    /// `items = "Row"`, with its span: a streamed result whose result element holds the
    /// repeated `Row` elements (.NET's `ArrayOf…`).
    pub(crate) items: Option<(String, Span)>,
    /// `items_namespace = "…"`: the items' namespace (default: the result element's).
    pub(crate) items_namespace: Option<String>,
    /// `soap_response` / `soap_response(location = "…", query_separator = "…")`: bound to SOAP
    /// 1.2's SOAP-response message exchange pattern (an HTTP GET, SOAP 1.2 Part 2 §6.3), with
    /// its `whttp:location` template and query separator (WSDL 2.0 Part 2 §6.8.1.1), and the
    /// key's span.
    pub(crate) soap_response: Option<(String, String, Span)>,
}

/// The `#[soap(...)]` attributes of a method parameter.
#[derive(Default)]
pub(crate) struct ParamAttrs {
    pub(crate) header: bool,
    pub(crate) rename: Option<String>,
    pub(crate) namespace: Option<String>,
    /// `attachment` / `attachment = "part"`: sent as a MIME part, not in the envelope.
    pub(crate) attachment: Option<(String, Span)>,
    pub(crate) content_type: Option<(String, Span)>,
    /// `occurs = "…"`: the parameter's occurrence, instead of reading it from the type.
    pub(crate) occurs: Option<Occurrence>,
}

/// Removes the `#[soap(...)]` attributes from `attrs` and returns them.
pub(crate) fn take_soap_attrs(attrs: &mut Vec<syn::Attribute>) -> Vec<syn::Attribute> {
    let (soap, rest): (Vec<_>, Vec<_>) = attrs.drain(..).partition(|a| a.path().is_ident("soap"));
    *attrs = rest;
    soap
}

/// The method attributes among `attrs`.
pub(crate) fn parse_method_attrs(attrs: &[syn::Attribute], errs: &mut Errors) -> MethodAttrs {
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
        } else if meta.path.is_ident("operation") {
            m.operation = Some(s()?);
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
        } else if meta.path.is_ident("request_struct") {
            m.request_struct = true;
        } else if meta.path.is_ident("bare_response") {
            m.bare_response = true;
        } else if meta.path.is_ident("response_namespace") {
            m.response_namespace = Some(s()?);
        } else if meta.path.is_ident("response_attachment") {
            let span = meta.path.span();
            m.response_attachments.push((s()?, span));
        } else if meta.path.is_ident("encoded") {
            m.encoded = true;
        } else if meta.path.is_ident("rpc") {
            m.rpc = true;
        } else if meta.path.is_ident("result_min") {
            let lit = meta.value()?.parse::<syn::LitInt>()?;
            m.result_min = Some((lit.base10_parse::<u64>()?, lit.span()));
        } else if meta.path.is_ident(keys::RESULT_OCCURS) {
            m.result_occurs = Some(parse_occurs(meta)?);
        } else if meta.path.is_ident("items") {
            let span = meta.path.span();
            m.items = Some((s()?, span));
        } else if meta.path.is_ident("items_namespace") {
            m.items_namespace = Some(s()?);
        } else if meta.path.is_ident("soap_response") {
            m.soap_response = Some(parse_soap_response(meta)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    m
}

/// `soap_response` or `soap_response(location = "…", query_separator = "…")`: the location
/// template (checked, WSDL 2.0 Part 2 §6.8.1.1), the separator (one character that parts pairs)
/// and the key's span.
fn parse_soap_response(
    meta: &syn::meta::ParseNestedMeta<'_>,
) -> syn::Result<(String, String, Span)> {
    let (mut location, mut separator) = (String::new(), "&".to_owned());
    if meta.input.peek(syn::token::Paren) {
        meta.parse_nested_meta(|n| {
            if n.path.is_ident("location") {
                let lit = n.value()?.parse::<LitStr>()?;
                soapgen_contract::location_template(&lit.value())
                    .map_err(|e| syn::Error::new(lit.span(), e))?;
                location = lit.value();
            } else if n.path.is_ident("query_separator") {
                let lit = n.value()?.parse::<LitStr>()?;
                let sep = lit.value();
                if !soapgen_contract::is_query_separator(&sep) {
                    return Err(syn::Error::new(
                        lit.span(),
                        "the query separator is one character that can part name=value pairs \
                         (`&`, `;`)",
                    ));
                }
                separator = sep;
            } else {
                return Err(n.error(
                    "soap_response(…) takes `location = \"…\"` (a whttp:location \
                     template) and `query_separator = \"…\"`",
                ));
            }
            Ok(())
        })?;
    }
    Ok((location, separator, meta.path.span()))
}

/// The parameter attributes among `attrs`, with the rules between them checked.
pub(crate) fn parse_param_attrs(attrs: &[syn::Attribute], errs: &mut Errors) -> ParamAttrs {
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
            p.occurs = Some(parse_occurs(meta)?);
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
