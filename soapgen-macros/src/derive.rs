//! `#[derive(ToXml)]` and `#[derive(FromXml)]`.
//!
//! A struct with named fields is a complexType (XML Schema Part 1 §3.4): each field is a child element
//! (in declaration order, the `sequence`), an attribute (`#[xml(attribute)]`) or the simple content
//! (`#[xml(text)]`). A unit-only enum is a simpleType restricted by enumeration (Part 2 §4.3.5).

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, LitStr};

use soapgen_contract::keys;

use crate::fields::{self, AttributeField, ElementField};
use crate::{Errors, KeySite};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Which {
    ToXml,
    FromXml,
}

pub(crate) struct Container {
    namespace: Option<String>,
    pub(crate) rename_all: Option<(String, Span)>,
    pub(crate) krate: TokenStream,
    type_name: Option<String>,
    /// `#[xml(sequence)]`: element fields read by position (XML Schema Part 1 §3.8 sequence).
    sequence: bool,
    /// `#[xml(xsi_type)]` on an enum: a declared type and the types derived from it, one variant
    /// each, told apart by `xsi:type` (XML Schema Part 1 §2.6.1).
    xsi_type: bool,
}

pub(crate) fn parse_container(input: &DeriveInput, errs: &mut Errors) -> Container {
    let mut c = Container {
        namespace: None,
        rename_all: None,
        krate: quote!(::soapgen_runtime),
        type_name: None,
        sequence: false,
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
            if fields::rename_all(&s.value(), "a").is_none() {
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
            c.krate = s.parse::<syn::Path>()?.into_token_stream_path();
        } else if meta.path.is_ident("rename") {
            c.type_name = Some(meta.value()?.parse::<LitStr>()?.value());
        } else if meta.path.is_ident("sequence") {
            c.sequence = true;
        } else if meta.path.is_ident("xsi_type") {
            c.xsi_type = true;
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    c
}

trait IntoTokens {
    fn into_token_stream_path(self) -> TokenStream;
}
impl IntoTokens for syn::Path {
    fn into_token_stream_path(self) -> TokenStream {
        quote!(#self)
    }
}

#[derive(Default)]
pub(crate) struct FieldAttrs {
    pub(crate) rename: Option<String>,
    namespace: Option<String>,
    unqualified: bool,
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
    pub(crate) occurs: Option<fields::Occurrence>,
}

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
            f.occurs = Some(fields::parse_occurs(meta)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    f
}

pub fn expand(input: DeriveInput, which: Which) -> TokenStream {
    let mut errs = Errors::default();
    let c = parse_container(&input, &mut errs);
    let body = match &input.data {
        Data::Struct(_) if c.xsi_type => {
            errs.push(syn::Error::new(
                input.ident.span(),
                "`xsi_type` goes on an enum with one variant per type (the declared type and the \
                 types derived from it)",
            ));
            TokenStream::new()
        }
        Data::Struct(s) => match &s.fields {
            Fields::Named(named) => expand_struct(&input, &c, named, which, &mut errs),
            other => {
                errs.push(syn::Error::new(
                    other.span(),
                    "ToXml/FromXml need a struct with named fields (each field is an element or attribute)",
                ));
                TokenStream::new()
            }
        },
        Data::Enum(e) if c.xsi_type => expand_derivations(&input, &c, e, which, &mut errs),
        Data::Enum(e) => expand_enum(&input, &c, e, which, &mut errs),
        Data::Union(u) => {
            errs.push(syn::Error::new(
                u.union_token.span,
                "ToXml/FromXml cannot be derived for unions",
            ));
            TokenStream::new()
        }
    };
    if let Some(e) = errs.finish() {
        return e;
    }
    quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals, unused_attributes, unused_qualifications, clippy::all)]
        const _: () = {
            #body
        };
    }
}

fn expand_struct(
    input: &DeriveInput,
    c: &Container,
    named: &syn::FieldsNamed,
    which: Which,
    errs: &mut Errors,
) -> TokenStream {
    let krate = &c.krate;
    let ident = &input.ident;
    let mut elements = Vec::new();
    let mut attributes = Vec::new();
    let mut text: Option<(syn::Ident, syn::Ident, syn::Type)> = None;
    let mut text_occurs: Option<fields::Occurrence> = None;
    let mut raw_content = false;
    let mut ctor = TokenStream::new();
    let mut element_types: Vec<(syn::Ident, syn::Type)> = Vec::new();
    let mut attr_ctor = TokenStream::new();
    for (i, field) in named.named.iter().enumerate() {
        let Some(fident) = field.ident.clone() else {
            continue;
        };
        let fa = parse_field_attrs(&field.attrs, errs);
        let rust_name = fident.to_string();
        let local = match (&fa.rename, &c.rename_all) {
            (Some(r), _) => r.clone(),
            (None, Some((rule, _))) => fields::rename_all(rule, &rust_name).unwrap_or_default(),
            (None, None) => rust_name.trim_start_matches("r#").to_owned(),
        };
        let slot = fields::slot_ident(i, &rust_name);
        let span = field.ty.span();
        ctor.extend(quote!(#fident: #slot,));
        if fa.attribute && fa.text {
            errs.push(syn::Error::new(
                fident.span(),
                "a field cannot be both `attribute` and `text`",
            ));
            continue;
        }
        if let (Some((_, _, span)), true) = (
            &fa.constraint,
            fa.any_attribute || fa.text || fa.content || fa.any || fa.group,
        ) {
            errs.push(syn::Error::new(
                *span,
                "`default`/`fixed` go on an attribute (its value when absent) or an element field \
                 (its value when present and empty)",
            ));
            continue;
        }
        if fa.any_attribute {
            let shape = fields::shape(&field.ty, fa.occurs);
            if fa.attribute
                || fa.text
                || fa.any
                || fa.content
                || fa.group
                || shape.card != fields::Occurrence::Many
                || shape.boxed
            {
                errs.push(syn::Error::new(
                    field.ty.span(),
                    "an `any_attribute` field (xs:anyAttribute) is `Vec<AnyAttribute>` and takes no \
                     other xml attribute",
                ));
                continue;
            }
            attr_ctor.extend(quote!(#fident: #slot,));
            attributes.push(AttributeField {
                slot,
                access: quote!(&self.#fident),
                namespace: String::new(),
                local: String::new(),
                optional: false,
                constraint: None,
                any: true,
                ty: shape.inner.clone(),
                span,
            });
        } else if fa.attribute {
            let shape = fields::shape(&field.ty, fa.occurs);
            if fa.constraint.is_some() && (shape.card != fields::Occurrence::One || shape.boxed) {
                errs.push(syn::Error::new(
                    field.ty.span(),
                    "an attribute with a `default` or `fixed` value is a `T` field (absent reads as \
                     that value), not `Option<T>`",
                ));
                continue;
            }
            let (optional, ty) = match shape.card {
                fields::Occurrence::One if !shape.boxed => (false, field.ty.clone()),
                fields::Occurrence::Optional if !shape.boxed => (true, shape.inner.clone()),
                _ => {
                    errs.push(syn::Error::new(
                        field.ty.span(),
                        "an attribute field must be a simple type `T` or `Option<T>`",
                    ));
                    continue;
                }
            };
            attr_ctor.extend(quote!(#fident: #slot,));
            attributes.push(AttributeField {
                slot,
                access: quote!(&self.#fident),
                // Attributes are unqualified unless a namespace is given (attributeFormDefault).
                namespace: fa.namespace.clone().unwrap_or_default(),
                local,
                optional,
                constraint: fa.constraint.as_ref().map(|(v, f, _)| (v.clone(), *f)),
                any: false,
                ty,
                span,
            });
        } else if fa.text || fa.content {
            // The element's content occurs once; a `text` field's may be nil (XML Schema Part 1
            // §2.6.2: nil content, attributes kept).
            let nillable_ok = fa.text && fa.occurs == Some(fields::Occurrence::Nillable);
            if fa.occurs.is_some_and(|o| o != fields::Occurrence::One) && !nillable_ok {
                errs.push(syn::Error::new(
                    field.ty.span(),
                    "a `text` or `content` field is the element's content: it occurs once \
                     (a `text` field may be `occurs = \"nillable\"`)",
                ));
                continue;
            }
            if text.is_some() {
                errs.push(syn::Error::new(
                    fident.span(),
                    "only one field can be `text` or `content` (the element's content)",
                ));
                continue;
            }
            raw_content = fa.content;
            text_occurs = fa.occurs;
            text = Some((fident.clone(), slot, field.ty.clone()));
        } else {
            let namespace = if fa.unqualified {
                String::new()
            } else {
                fa.namespace
                    .clone()
                    .or_else(|| c.namespace.clone())
                    .unwrap_or_default()
            };
            let shape = fields::shape(&field.ty, fa.occurs);
            if fa.group
                && (fa.any
                    || !matches!(
                        shape.card,
                        fields::Occurrence::One
                            | fields::Occurrence::Optional
                            | fields::Occurrence::Many
                    ))
            {
                errs.push(syn::Error::new(
                    field.ty.span(),
                    "a `group` field (a choice enum or sequence struct) is `G`, `Option<G>` or `Vec<G>`",
                ));
                continue;
            }
            if shape.inferred() && (fa.group || fa.any || c.sequence) {
                errs.push(syn::Error::new(
                    field.ty.span(),
                    "with `occurs`, a `group` or `any` field, or a field of a `sequence` struct, \
                     writes its container (`Vec<T>`, `Option<T>`, …), not a type alias: its reader \
                     names the item type",
                ));
                continue;
            }
            if fa.any
                && !matches!(
                    shape.card,
                    fields::Occurrence::Many | fields::Occurrence::Optional
                )
            {
                errs.push(syn::Error::new(
                    field.ty.span(),
                    "an `any` field (xs:any) is `Vec<AnyElement>` or `Option<AnyElement>`",
                ));
                continue;
            }
            let min = match fa.min {
                Some((n, at)) => {
                    if fa.any
                        || !matches!(
                            shape.card,
                            fields::Occurrence::Many | fields::Occurrence::ManyNillable
                        )
                    {
                        errs.push(syn::Error::new(
                            at,
                            "`min` (minOccurs) is for a repeated element or group field: `Vec<T>`",
                        ));
                        continue;
                    }
                    n
                }
                None => 0,
            };
            elements.push(ElementField {
                slot,
                access: quote!(&self.#fident),
                namespace,
                local,
                shape,
                span,
                any: fa.any,
                group: fa.group,
                default: fa.constraint.as_ref().map(|(v, _, _)| v.clone()),
                min,
            });
            element_types.push((fident.clone(), field.ty.clone()));
        }
    }
    if let (Some((t, _, _)), Some(first)) = (&text, elements.first()) {
        errs.push(syn::Error::new(
            t.span(),
            "a struct with a `text` or `content` field cannot have element fields",
        ));
        errs.push(syn::Error::new(
            first.span,
            "this field would be a child element",
        ));
    }
    if c.sequence {
        if text.is_some() {
            errs.push(syn::Error::new(
                ident.span(),
                "a `sequence` struct holds element, `any` and `group` fields only (no `text` or `content`)",
            ));
        }
        if !input.generics.params.is_empty() {
            errs.push(syn::Error::new(
                input.generics.span(),
                "a `sequence` struct cannot be generic",
            ));
        }
        return expand_sequence(
            ident,
            c,
            &elements,
            &attributes,
            &element_types,
            &attr_ctor,
            which,
        );
    }
    // A `Nillable<T>` text field: the content may be nil while the attributes are kept (XML
    // Schema Part 1 §2.6.2).
    let nillable_text = match &text {
        Some((_, _, ty)) if !raw_content => {
            let shape = fields::shape(ty, text_occurs);
            (shape.card == fields::Occurrence::Nillable && !shape.boxed).then_some(shape.inner)
        }
        _ => None,
    };
    match which {
        Which::ToXml => {
            let attrs = fields::write_attributes(krate, &attributes);
            let content = match &text {
                Some((t, _, _)) if raw_content => {
                    quote!(#krate::types::AnyXml::write_content(&self.#t, __w)?;)
                }
                Some((t, _, _)) if nillable_text.is_some() => {
                    quote!(#krate::__private::write_nillable_text(__w, &self.#t)?;)
                }
                Some((t, _, _)) => quote!(__w.text_value(&self.#t)?;),
                None => fields::write_elements(krate, &elements),
            };
            let body = quote! {
                __w.start_element(__name)?;
                #attrs
                #content
                __w.end_element()
            };
            to_xml_impl(krate, ident, &input.generics, body)
        }
        Which::FromXml => {
            let attrs = fields::read_attributes(krate, &attributes);
            let content = match &text {
                Some((_, slot, _)) if raw_content => {
                    quote!(let #slot = #krate::types::AnyXml::read_content(__r)?;)
                }
                Some((_, slot, ty)) => match &nillable_text {
                    Some(inner) => quote! {
                        let #slot: #ty = #krate::__private::read_nillable_text::<#inner>(__r, &__start)?;
                    },
                    None => quote!(let #slot: #ty = __r.read_simple::<#ty>(&__start)?;),
                },
                None => fields::read_elements(krate, &elements),
            };
            let read_nil = read_nil_fn(krate, &attributes, nillable_text.is_some());
            let body = quote! {
                #attrs
                #content
                ::core::result::Result::Ok(#ident { #ctor })
            };
            from_xml_impl(krate, ident, &input.generics, body, read_nil)
        }
    }
}

/// A `#[xml(sequence)]` struct: `ToXml`/`FromXml` with its elements read by position, and, without
/// attributes, `ToXmlGroup`/`FromXmlGroup` so that it can occur inside another element's content.
fn expand_sequence(
    ident: &syn::Ident,
    c: &Container,
    elements: &[ElementField],
    attributes: &[AttributeField],
    element_types: &[(syn::Ident, syn::Type)],
    attr_ctor: &TokenStream,
    which: Which,
) -> TokenStream {
    let krate = &c.krate;
    let locals: Vec<syn::Ident> = element_types.iter().map(|(i, _)| i.clone()).collect();
    let types: Vec<syn::Type> = element_types.iter().map(|(_, t)| t.clone()).collect();
    let partial = quote::format_ident!("__{}Partial", ident);
    match which {
        Which::ToXml => {
            let attrs = fields::write_attributes(krate, attributes);
            let content = fields::write_elements(krate, elements);
            let group = if attributes.is_empty() {
                let body = quote! {
                    #content
                    ::core::result::Result::Ok(())
                };
                crate::group::to_xml_group_impl(krate, ident, &body)
            } else {
                TokenStream::new()
            };
            let body = quote! {
                __w.start_element(__name)?;
                #attrs
                #content
                __w.end_element()
            };
            let element = to_xml_impl(krate, ident, &syn::Generics::default(), body);
            quote! {
                #element
                #group
            }
        }
        Which::FromXml => {
            let attrs = fields::read_attributes(krate, attributes);
            let read_nil = read_nil_fn(krate, attributes, false);
            let part = crate::group::positional_partial(krate, &partial, elements, &locals, &types);
            let read = crate::group::positional_read(&partial, &locals);
            let group = if attributes.is_empty() {
                crate::group::sequence_from_group(krate, ident, &partial, &locals)
            } else {
                TokenStream::new()
            };
            let body = quote! {
                #attrs
                #read
                ::core::result::Result::Ok(#ident { #attr_ctor #(#locals,)* })
            };
            let element = from_xml_impl(krate, ident, &syn::Generics::default(), body, read_nil);
            quote! {
                #part
                #element
                #group
            }
        }
    }
}

/// `FromXml::read_nil` of a struct with attributes (XML Schema Part 1 §2.6.2: a nil element keeps
/// its attributes): with a `Nillable<T>` text field the struct itself, its content nil; otherwise
/// plain nil when none of its attributes is there, else a typed error (they would be lost). Nothing
/// (the trait's default, plain nil) for a struct without attributes.
fn read_nil_fn(
    krate: &TokenStream,
    attributes: &[AttributeField],
    nillable_text: bool,
) -> TokenStream {
    if attributes.is_empty() {
        return TokenStream::new();
    }
    let body = if nillable_text {
        quote!(<Self as #krate::FromXml>::read_xml(__r, __start).map(::core::option::Option::Some))
    } else {
        let wildcard = attributes.iter().any(|a| a.any);
        let known = attributes
            .iter()
            .filter(|a| !a.any)
            .map(|a| fields::name_expr(krate, &a.namespace, &a.local));
        quote!(#krate::__private::nil_without_content(__r, __start, &[#(#known),*], #wildcard))
    };
    quote! {
        fn read_nil<'__i>(
            __r: &mut #krate::xml::XmlReader<'__i>,
            __start: #krate::xml::StartTag<'__i>,
        ) -> ::core::result::Result<::core::option::Option<Self>, #krate::DecodeError> {
            #body
        }
    }
}

/// `impl ToXml for #ident`: `body` writes the value as the element `__name` into `__w`.
fn to_xml_impl(
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
fn from_xml_impl(
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

/// An error at the generics unless `input` has none (`what` cannot be generic).
fn refuse_generics(input: &DeriveInput, what: &str, errs: &mut Errors) {
    if !input.generics.params.is_empty() {
        errs.push(syn::Error::new(
            input.generics.span(),
            format!("{what} cannot be generic"),
        ));
    }
}

/// The one value of a `Name(T)` variant, or an error saying `shape` (what it must look like).
fn single_value<'v>(v: &'v syn::Variant, shape: &str, errs: &mut Errors) -> Option<&'v syn::Field> {
    let field = match &v.fields {
        Fields::Unnamed(un) if un.unnamed.len() == 1 => un.unnamed.first(),
        _ => None,
    };
    if field.is_none() {
        errs.push(syn::Error::new(v.fields.span(), shape));
    }
    field
}

/// An enum of one-value variants: an `xs:choice` (XML Schema Part 1 §3.8), each variant an element
/// (its name from the variant, `rename`, `namespace`, `unqualified`) or a nested group (`group`).
fn expand_choice(
    input: &DeriveInput,
    c: &Container,
    e: &syn::DataEnum,
    which: Which,
    errs: &mut Errors,
) -> TokenStream {
    let krate = &c.krate;
    let ident = &input.ident;
    refuse_generics(input, "a choice enum", errs);
    let mut variants = Vec::new();
    for (i, v) in e.variants.iter().enumerate() {
        let Some(field) = single_value(v, "a choice variant holds one value: `Name(T)`", errs)
        else {
            continue;
        };
        let fa = parse_field_attrs(&v.attrs, errs);
        if fa.attribute
            || fa.any_attribute
            || fa.constraint.is_some()
            || fa.min.is_some()
            || fa.text
            || fa.content
            || (fa.any && fa.group)
        {
            errs.push(syn::Error::new(
                v.ident.span(),
                "a choice variant takes `rename`, `namespace`, `unqualified`, `group`, `any` or \
                 `occurs`",
            ));
        }
        let shape = fields::shape(&field.ty, fa.occurs);
        if shape.inferred() {
            errs.push(syn::Error::new(
                field.ty.span(),
                "with `occurs`, a choice variant writes its container (`Vec<T>`, `Nillable<T>`), \
                 not a type alias: its reader names the item type",
            ));
            continue;
        }
        let allowed = if fa.group || fa.any {
            shape.card == fields::Occurrence::One
        } else {
            !matches!(
                shape.card,
                fields::Occurrence::Optional | fields::Occurrence::OptionalNillable
            )
        };
        if !allowed {
            errs.push(syn::Error::new(
                field.ty.span(),
                "a choice variant holds `T`, `Nillable<T>`, `Vec<T>`, or `G` (a group or `any`); an optional \
                 choice is an `Option` field of the parent",
            ));
            continue;
        }
        let vname = v.ident.to_string();
        let local = match (&fa.rename, &c.rename_all) {
            (Some(r), _) => r.clone(),
            (None, Some((rule, _))) => fields::rename_all(rule, &vname).unwrap_or_default(),
            (None, None) => vname.trim_start_matches("r#").to_owned(),
        };
        let namespace = if fa.unqualified {
            String::new()
        } else {
            fa.namespace
                .clone()
                .or_else(|| c.namespace.clone())
                .unwrap_or_default()
        };
        variants.push(crate::group::Variant {
            ident: v.ident.clone(),
            field: ElementField {
                slot: fields::slot_ident(i, &vname),
                access: quote!(__v),
                namespace,
                local,
                shape,
                span: field.ty.span(),
                any: fa.any,
                group: fa.group,
                default: None,
                min: 0,
            },
        });
    }
    let partial = quote::format_ident!("__{}Partial", ident);
    match which {
        Which::ToXml => crate::group::choice_to_group(krate, ident, &variants),
        Which::FromXml => crate::group::choice_from_group(krate, ident, &partial, &variants),
    }
}

/// An enum of a declared type and the types derived from it (XML Schema Part 1 §2.6.1 `xsi:type`,
/// §3.4.6 Type Derivation OK): `#[xml(xsi_type, namespace = "…", rename = "Declared")]`, one
/// variant per type holding its struct (`T` or `Box<T>`), named like the variant or by `rename` /
/// `namespace` / `unqualified`. The variant of the declared type itself is written without
/// `xsi:type` and read when there is none; with no such variant the declared type is abstract and
/// `xsi:type` is required. Any other variant is written with, and read by, its `xsi:type`.
fn expand_derivations(
    input: &DeriveInput,
    c: &Container,
    e: &syn::DataEnum,
    which: Which,
    errs: &mut Errors,
) -> TokenStream {
    let krate = &c.krate;
    let ident = &input.ident;
    refuse_generics(input, "an `xsi_type` enum", errs);
    let declared_ns = c.namespace.clone().unwrap_or_default();
    let declared_local = c.type_name.clone().unwrap_or_else(|| ident.to_string());
    // (variant, namespace, local, inner type, boxed)
    let mut variants: Vec<(syn::Ident, String, String, syn::Type, bool)> = Vec::new();
    for v in &e.variants {
        let shape = "an `xsi_type` variant holds one value: `Type(T)` or `Type(Box<T>)`";
        let Some(field) = single_value(v, shape, errs) else {
            continue;
        };
        let fa = parse_field_attrs(&v.attrs, errs);
        if fa.attribute || fa.text || fa.content || fa.any || fa.group {
            errs.push(syn::Error::new(
                v.ident.span(),
                "an `xsi_type` variant takes `rename`, `namespace` or `unqualified` (its type's name)",
            ));
        }
        let shape = fields::shape(&field.ty, fa.occurs);
        if shape.card != fields::Occurrence::One {
            errs.push(syn::Error::new(
                field.ty.span(),
                "an `xsi_type` variant holds `T` or `Box<T>`; occurrence goes on the field that holds \
                 the enum",
            ));
            continue;
        }
        let local = fa
            .rename
            .clone()
            .unwrap_or_else(|| v.ident.to_string().trim_start_matches("r#").to_owned());
        let namespace = if fa.unqualified {
            String::new()
        } else {
            fa.namespace.clone().unwrap_or_else(|| declared_ns.clone())
        };
        if variants
            .iter()
            .any(|(_, n, l, _, _)| *n == namespace && *l == local)
        {
            errs.push(syn::Error::new(
                v.ident.span(),
                format!("two variants name the type {{{namespace}}}{local}"),
            ));
        }
        variants.push((v.ident.clone(), namespace, local, shape.inner, shape.boxed));
    }
    let is_declared = |ns: &str, local: &str| ns == declared_ns && local == declared_local;
    let declared = variants
        .iter()
        .find(|(_, ns, l, _, _)| is_declared(ns, l))
        .cloned();
    let known = variants
        .iter()
        .map(|(_, ns, l, _, _)| {
            if ns.is_empty() {
                l.clone()
            } else {
                format!("{{{ns}}}{l}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    match which {
        Which::ToXml => {
            let arms = variants.iter().map(|(v, ns, l, ty, boxed)| {
                let value = if *boxed { quote!(&**__v) } else { quote!(__v) };
                let set_type = if is_declared(ns, l) {
                    // The declared type needs no xsi:type; an rpc/encoded writer may have set one.
                    TokenStream::new()
                } else {
                    quote!(__w.type_next_element(#krate::xml::Name::new(#ns, #l));)
                };
                quote! {
                    #ident::#v(__v) => {
                        #set_type
                        <#ty as #krate::ToXml>::write_xml(#value, __w, __name)
                    }
                }
            });
            let body = if variants.is_empty() {
                quote!(match *self {})
            } else {
                quote!(match self { #(#arms)* })
            };
            to_xml_impl(krate, ident, &syn::Generics::default(), body)
        }
        Which::FromXml => {
            let read = |v: &syn::Ident, ty: &syn::Type, boxed: bool| {
                let value = quote!(<#ty as #krate::FromXml>::read_xml(__r, __start)?);
                let value = if boxed {
                    quote!(::std::boxed::Box::new(#value))
                } else {
                    value
                };
                quote!(::core::result::Result::Ok(#ident::#v(#value)))
            };
            let arms = variants.iter().map(|(v, ns, l, ty, boxed)| {
                let r = read(v, ty, *boxed);
                quote!((#ns, #l) => #r,)
            });
            let declared_name = quote!(#krate::xml::Name::new(#declared_ns, #declared_local));
            let (untyped, unknown) = match &declared {
                Some((v, _, _, ty, boxed)) => {
                    let r = read(v, ty, *boxed);
                    (
                        r.clone(),
                        quote! {{
                            __r.lenient_type(&__start, &__t, #declared_name, #known)?;
                            #r
                        }},
                    )
                }
                None => (
                    quote!(::core::result::Result::Err(
                        __r.unexpected_type(&__start, ::core::option::Option::None, #declared_name, #known)
                    )),
                    quote!(::core::result::Result::Err(
                        __r.unexpected_type(&__start, ::core::option::Option::Some(&__t), #declared_name, #known)
                    )),
                ),
            };
            let body = quote! {
                let ::core::option::Option::Some(__t) = __r.xsi_type(&__start)? else {
                    return #untyped;
                };
                match (__t.namespace_uri(), __t.local_name.as_str()) {
                    #(#arms)*
                    _ => #unknown,
                }
            };
            from_xml_impl(
                krate,
                ident,
                &syn::Generics::default(),
                body,
                TokenStream::new(),
            )
        }
    }
}

fn expand_enum(
    input: &DeriveInput,
    c: &Container,
    e: &syn::DataEnum,
    which: Which,
    errs: &mut Errors,
) -> TokenStream {
    let krate = &c.krate;
    let ident = &input.ident;
    refuse_generics(input, "an enumeration type", errs);
    if !e.variants.is_empty() && e.variants.iter().all(|v| !matches!(v.fields, Fields::Unit)) {
        return expand_choice(input, c, e, which, errs);
    }
    let mut values = Vec::new();
    for v in &e.variants {
        if !matches!(v.fields, Fields::Unit) {
            errs.push(syn::Error::new(
                v.fields.span(),
                "ToXml/FromXml on an enum need unit variants (an XSD enumeration) or one-value \
                 variants only (an xs:choice)",
            ));
            continue;
        }
        let fa = parse_field_attrs(&v.attrs, errs);
        if fa.attribute
            || fa.any_attribute
            || fa.constraint.is_some()
            || fa.text
            || fa.any
            || fa.content
            || fa.namespace.is_some()
            || fa.unqualified
            || fa.min.is_some()
            || fa.occurs.is_some()
        {
            errs.push(syn::Error::new(
                v.ident.span(),
                "an enumeration value only takes `rename`",
            ));
        }
        let text = match (&fa.rename, &c.rename_all) {
            (Some(r), _) => r.clone(),
            (None, Some((rule, _))) => {
                fields::rename_all(rule, &v.ident.to_string()).unwrap_or_default()
            }
            (None, None) => v.ident.to_string(),
        };
        values.push((v.ident.clone(), text));
    }
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
