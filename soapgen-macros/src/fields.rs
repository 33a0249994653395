//! Code generation for element, attribute and text fields, shared by the derives and `#[soap_client]`
//! (request wrappers are written, response wrappers read, with the same code as a derived struct).

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{GenericArgument, PathArguments, Type};

pub use soapgen_contract::Occurrence;

/// A field type taken apart: occurrence, whether the value is boxed, and the value type.
pub struct Shape {
    /// How often the element occurs: the field's `occurs = "…"`, or read from its type.
    pub card: Occurrence,
    /// An [`Occurrence::OptionalNillable`] field typed `OptionalNillable<T>` (one type of three
    /// states), not `Option<Nillable<T>>`; the same on the wire.
    pub tristate: bool,
    pub boxed: bool,
    /// The value type `T`; `_` (inferred from the field's own type) when `occurs` is given and the
    /// type hides its structure (a type alias of `Vec<T>`).
    pub inner: Type,
}

impl Shape {
    /// The value type was not written out (a type alias under an explicit `occurs`), so code that
    /// must name it (a model group's partial state, a result decoder) cannot be generated.
    pub fn inferred(&self) -> bool {
        matches!(self.inner, Type::Infer(_))
    }
}

fn single_generic<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    generic_arg(ty)
        .filter(|(seg, _)| *seg == name)
        .map(|(_, t)| t)
}

/// The first type argument of `ty` when its last path segment is named `name` (`T` of `Vec<T>`
/// or of `Result<T, E>`), as a type is written.
pub fn type_argument<'a>(ty: &'a Type, name: &str) -> Option<&'a Type> {
    let Type::Path(tp) = ty else { return None };
    let seg = tp.path.segments.last()?;
    if seg.ident != name {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    match args.args.first()? {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

/// `X<T>`: the last path segment's name and its one type argument, whatever the name.
fn generic_arg(ty: &Type) -> Option<(&syn::Ident, &Type)> {
    let Type::Path(tp) = ty else { return None };
    if tp.qself.is_some() {
        return None;
    }
    let seg = tp.path.segments.last()?;
    let PathArguments::AngleBracketed(args) = &seg.arguments else {
        return None;
    };
    if args.args.len() != 1 {
        return None;
    }
    match args.args.first()? {
        GenericArgument::Type(t) => Some((&seg.ident, t)),
        _ => None,
    }
}

/// The shape of a field typed `ty` with `occurs` (its attribute, if any).
///
/// With `occurs` the occurrence is the attribute's and the type is taken apart by position only
/// (`occurs = "many"` reads `X<T>` as a list of `T`, whatever `X` is called; a type alias such as
/// `type Names = Vec<String>` leaves `T` to inference): no name changes what goes on the wire, and
/// a type that does not hold that occurrence is a type error. Without it, the occurrence is read
/// from the type as written ([`infer`]), the default for hand-written types.
pub fn shape(ty: &Type, occurs: Option<Occurrence>) -> Shape {
    let Some(card) = occurs else {
        return infer(ty);
    };
    let nested = |t: &Type| {
        generic_arg(t)
            .and_then(|(_, t)| generic_arg(t))
            .map(|(_, t)| t.clone())
    };
    let (rest, tristate) = match card {
        Occurrence::One => (Some(ty.clone()), false),
        Occurrence::Optional | Occurrence::Many | Occurrence::Nillable => {
            (generic_arg(ty).map(|(_, t)| t.clone()), false)
        }
        Occurrence::OptionalNillable => match single_generic(ty, "OptionalNillable") {
            Some(t) => (Some(t.clone()), true),
            None => match nested(ty) {
                Some(t) => (Some(t), false),
                // An alias: the runtime's one-type form, as generated code writes it.
                None => (None, true),
            },
        },
        Occurrence::ManyNillable => (nested(ty), false),
    };
    match rest {
        Some(rest) => unbox(card, tristate, &rest),
        None => Shape {
            card,
            tristate,
            boxed: false,
            inner: Type::Infer(syn::TypeInfer {
                underscore_token: Default::default(),
            }),
        },
    }
}

/// The occurrence read from the type as written, by the last path segment's name: `T`,
/// `Option<T>`, `Vec<T>`, `Nillable<T>`, `OptionalNillable<T>`, `Option<Nillable<T>>`,
/// `Vec<Nillable<T>>`, each `T` possibly `Box<T>`.
pub fn infer(ty: &Type) -> Shape {
    let (card, tristate, rest) = if let Some(t) = single_generic(ty, "OptionalNillable") {
        (Occurrence::OptionalNillable, true, t)
    } else if let Some(t) = single_generic(ty, "Option") {
        match single_generic(t, "Nillable") {
            Some(n) => (Occurrence::OptionalNillable, false, n),
            None => (Occurrence::Optional, false, t),
        }
    } else if let Some(t) = single_generic(ty, "Vec") {
        match single_generic(t, "Nillable") {
            Some(n) => (Occurrence::ManyNillable, false, n),
            None => (Occurrence::Many, false, t),
        }
    } else if let Some(t) = single_generic(ty, "Nillable") {
        (Occurrence::Nillable, false, t)
    } else {
        (Occurrence::One, false, ty)
    };
    unbox(card, tristate, rest)
}

/// `Box<T>` (a recursive type) around the value type.
fn unbox(card: Occurrence, tristate: bool, rest: &Type) -> Shape {
    match single_generic(rest, "Box") {
        Some(inner) => Shape {
            card,
            tristate,
            boxed: true,
            inner: inner.clone(),
        },
        None => Shape {
            card,
            tristate,
            boxed: false,
            inner: rest.clone(),
        },
    }
}

/// Parses `occurs = "…"` (the value of `meta`, whose key was [`keys::OCCURS`] or
/// [`keys::RESULT_OCCURS`]).
///
/// [`keys::OCCURS`]: soapgen_contract::keys::OCCURS
/// [`keys::RESULT_OCCURS`]: soapgen_contract::keys::RESULT_OCCURS
pub fn parse_occurs(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Occurrence> {
    let lit: syn::LitStr = meta.value()?.parse()?;
    match Occurrence::from_keyword(&lit.value()) {
        Some(o) => Ok(o),
        None => Err(syn::Error::new(
            lit.span(),
            format!(
                "unknown occurrence; expected {}",
                one_of(&Occurrence::ALL.map(Occurrence::keyword), "\"")
            ),
        )),
    }
}

/// `a`, `b` or `c` (each quoted with `quote`): the list an "expected" message names.
pub fn one_of(items: &[&str], quote: &str) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("{quote}{i}{quote}")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// An element-valued field: where its value comes from when writing, its slot when reading.
pub struct ElementField {
    /// Local variable holding the value while reading.
    pub slot: syn::Ident,
    /// An expression of type `&FieldType` for writing.
    pub access: TokenStream,
    pub namespace: String,
    pub local: String,
    pub shape: Shape,
    pub span: Span,
    /// An `xs:any` wildcard: collects the child elements no other field takes.
    pub any: bool,
    /// A model group (`#[xml(group)]`: a choice enum or a sequence struct), no element of its own.
    pub group: bool,
    /// `#[xml(default = "…")]`: the value of the element when it is present and empty (its
    /// declaration's default or fixed value, XML Schema Part 1 §3.3.4 item 5.1); simple types only.
    pub default: Option<String>,
    /// `#[xml(min = N)]` on a `Vec` field: its minOccurs (XML Schema Part 1 §3.9.1); fewer
    /// occurrences are an error when reading. 0 when not given.
    pub min: u64,
}

/// The call reading one occurrence of element field `f` (`which`: `required`, `optional` or
/// `nillable`, the `__private` reader of that name), or its `_or` form when `f` has a default.
pub fn read_call(krate: &TokenStream, f: &ElementField, which: &str) -> TokenStream {
    let inner = &f.shape.inner;
    match &f.default {
        None => {
            let id = quote::format_ident!("read_{}", which);
            quote!(#krate::__private::#id::<#inner>(__r, __child)?)
        }
        Some(d) => {
            let id = quote::format_ident!("read_{}_or", which);
            quote!(#krate::__private::#id::<#inner>(__r, __child, #d)?)
        }
    }
}

/// An attribute-valued field.
pub struct AttributeField {
    pub slot: syn::Ident,
    pub access: TokenStream,
    pub namespace: String,
    pub local: String,
    pub optional: bool,
    /// The schema's `default` or `fixed` value (`true`: fixed) read when the attribute is absent.
    pub constraint: Option<(String, bool)>,
    /// An `xs:anyAttribute` wildcard (`Vec<AnyAttribute>`): the attributes no other field takes.
    pub any: bool,
    pub ty: Type,
    pub span: Span,
}

pub fn name_expr(krate: &TokenStream, ns: &str, local: &str) -> TokenStream {
    quote!(#krate::xml::Name::new(#ns, #local))
}

/// Code that writes the element fields, in order.
pub fn write_elements(krate: &TokenStream, fields: &[ElementField]) -> TokenStream {
    let mut out = TokenStream::new();
    for f in fields {
        let name = name_expr(krate, &f.namespace, &f.local);
        let access = &f.access;
        let deref = |v: TokenStream| {
            if f.shape.boxed {
                quote!(&**#v)
            } else {
                v
            }
        };
        let group = f.group;
        let write_one = |v: TokenStream| {
            let v = deref(v);
            if group {
                quote!(#krate::xml::ToXmlGroup::write_group(#v, __w)?;)
            } else {
                quote!(#krate::ToXml::write_xml(#v, __w, #name)?;)
            }
        };
        let write_nillable = |v: TokenStream| {
            let inner = write_one(quote!(__x));
            quote! {
                match #v {
                    #krate::Nillable::Nil => #krate::__private::write_nil(__w, #name)?,
                    #krate::Nillable::Value(__x) => { #inner }
                }
            }
        };
        let code = match f.shape.card {
            Occurrence::One => write_one(access.clone()),
            Occurrence::Optional => {
                let w = write_one(quote!(__v));
                quote!(if let ::core::option::Option::Some(__v) = #access { #w })
            }
            Occurrence::Many => {
                let w = write_one(quote!(__v));
                quote!(for __v in (#access).iter() { #w })
            }
            Occurrence::Nillable => write_nillable(access.clone()),
            Occurrence::OptionalNillable if !f.shape.tristate => {
                let w = write_nillable(quote!(__v));
                quote!(if let ::core::option::Option::Some(__v) = #access { #w })
            }
            Occurrence::OptionalNillable => {
                let inner = write_one(quote!(__x));
                quote! {
                    match #access {
                        #krate::OptionalNillable::Absent => {}
                        #krate::OptionalNillable::Nil => #krate::__private::write_nil(__w, #name)?,
                        #krate::OptionalNillable::Value(__x) => { #inner }
                    }
                }
            }
            Occurrence::ManyNillable => {
                let w = write_nillable(quote!(__v));
                quote!(for __v in (#access).iter() { #w })
            }
        };
        out.extend(quote::quote_spanned!(f.span=> #code));
    }
    out
}

/// Code that writes attribute fields onto the open start tag.
pub fn write_attributes(krate: &TokenStream, fields: &[AttributeField]) -> TokenStream {
    let mut out = TokenStream::new();
    for f in fields {
        let name = name_expr(krate, &f.namespace, &f.local);
        let access = &f.access;
        let code = if f.any {
            let declared = fields
                .iter()
                .filter(|k| !k.any)
                .map(|k| name_expr(krate, &k.namespace, &k.local));
            quote!(for __a in (#access).iter() { __w.other_attribute(__a, &[#(#declared),*])?; })
        } else if f.optional {
            quote!(if let ::core::option::Option::Some(__v) = #access { __w.attribute_value(#name, __v)?; })
        } else {
            quote!(__w.attribute_value(#name, #access)?;)
        };
        out.extend(quote::quote_spanned!(f.span=> #code));
    }
    out
}

/// Code reading attribute fields into their slots (run right after the start tag, `__start`).
pub fn read_attributes(krate: &TokenStream, fields: &[AttributeField]) -> TokenStream {
    let mut out = TokenStream::new();
    for f in fields {
        let name = name_expr(krate, &f.namespace, &f.local);
        let slot = &f.slot;
        let ty = &f.ty;
        let code = if f.any {
            let known = fields
                .iter()
                .filter(|k| !k.any)
                .map(|k| name_expr(krate, &k.namespace, &k.local));
            quote! {
                let #slot: ::std::vec::Vec<#ty> = __r.other_attributes(&__start, &[#(#known),*])?;
            }
        } else if let Some((literal, fixed)) = &f.constraint {
            quote! {
                let #slot: #ty = #krate::__private::constrained_attribute(
                    __r, &__start, __r.attribute_value::<#ty>(&__start, #name)?, #name, #literal, #fixed)?;
            }
        } else if f.optional {
            quote!(let #slot: ::core::option::Option<#ty> = __r.attribute_value::<#ty>(&__start, #name)?;)
        } else {
            quote! {
                let #slot: #ty = #krate::__private::required_attribute(
                    __r, &__start, __r.attribute_value::<#ty>(&__start, #name)?, #name)?;
            }
        };
        out.extend(quote::quote_spanned!(f.span=> #code));
    }
    out
}

/// Code reading the children of `__start` into the element fields' slots; afterwards each slot holds
/// the field's final value (required ones checked). Children not declared are an error.
pub fn read_elements(krate: &TokenStream, fields: &[ElementField]) -> TokenStream {
    let mut decls = TokenStream::new();
    let mut arms = TokenStream::new();
    let mut finals = TokenStream::new();
    let mut any_arm: Option<TokenStream> = None;
    let mut arm_count = 0usize;
    // Without groups every arm is an element name: a `match` on the local name with the namespace
    // as a guard (the keys are constants; the tag's namespace was resolved when it was read).
    let by_name = !fields.iter().any(|f| f.group && !f.any);
    let mut name_arms = TokenStream::new();
    for f in fields.iter() {
        let slot = &f.slot;
        let inner = &f.shape.inner;
        let name = name_expr(krate, &f.namespace, &f.local);
        if f.any {
            let (decl, arm) = match f.shape.card {
                Occurrence::Many => (
                    quote!(let mut #slot: ::std::vec::Vec<#inner> = ::std::vec::Vec::new();),
                    quote!(#slot.push(<#inner as #krate::FromXml>::read_xml(__r, __child)?);),
                ),
                _ => (
                    quote!(let mut #slot: ::core::option::Option<#inner> = ::core::option::Option::None;),
                    quote! {
                        if #slot.is_some() { return ::core::result::Result::Err(__r.unexpected(&__child)); }
                        #slot = ::core::option::Option::Some(<#inner as #krate::FromXml>::read_xml(__r, __child)?);
                    },
                ),
            };
            decls.extend(quote::quote_spanned!(f.span=> #decl));
            any_arm = Some(arm);
            continue;
        }
        let i = arm_count;
        arm_count += 1;
        if f.group {
            let (decl, cond, arm, fin) = group_arm(krate, f);
            decls.extend(quote::quote_spanned!(f.span=> #decl));
            if i == 0 {
                arms.extend(quote!(if #cond { #arm }));
            } else {
                arms.extend(quote!(else if #cond { #arm }));
            }
            finals.extend(fin);
            continue;
        }
        let boxed_ty = if f.shape.boxed {
            quote!(::std::boxed::Box<#inner>)
        } else {
            quote!(#inner)
        };
        let wrap = |v: TokenStream| {
            if f.shape.boxed {
                quote!(::std::boxed::Box::new(#v))
            } else {
                v
            }
        };
        let nillable_ty = quote!(#krate::Nillable<#boxed_ty>);
        let read_req = wrap(read_call(krate, f, "required"));
        let read_nil = if f.shape.boxed {
            let read = read_call(krate, f, "nillable");
            quote!(#read.map(::std::boxed::Box::new))
        } else {
            read_call(krate, f, "nillable")
        };
        let dup = quote! {
            if #slot.is_some() { return ::core::result::Result::Err(__r.duplicate(&__child)); }
        };
        let (decl, arm, fin) = match f.shape.card {
            Occurrence::One => (
                quote!(let mut #slot: ::core::option::Option<#boxed_ty> = ::core::option::Option::None;),
                quote!(#dup #slot = ::core::option::Option::Some(#read_req);),
                quote!(let #slot = #krate::__private::required(__r, &__start, #slot, #name)?;),
            ),
            Occurrence::Optional => {
                let read_opt = if f.shape.boxed {
                    let read = read_call(krate, f, "optional");
                    quote!(#read.map(::std::boxed::Box::new))
                } else {
                    read_call(krate, f, "optional")
                };
                (
                    quote!(let mut #slot: ::core::option::Option<#boxed_ty> = ::core::option::Option::None;),
                    quote!(#dup #slot = #read_opt;),
                    quote!(),
                )
            }
            Occurrence::Many => (
                quote!(let mut #slot: ::std::vec::Vec<#boxed_ty> = ::std::vec::Vec::new();),
                quote!(#slot.push(#read_req);),
                min_check(krate, f),
            ),
            Occurrence::Nillable => (
                quote!(let mut #slot: ::core::option::Option<#nillable_ty> = ::core::option::Option::None;),
                quote!(#dup #slot = ::core::option::Option::Some(#read_nil);),
                quote!(let #slot = #krate::__private::required(__r, &__start, #slot, #name)?;),
            ),
            Occurrence::OptionalNillable if !f.shape.tristate => (
                quote!(let mut #slot: ::core::option::Option<#nillable_ty> = ::core::option::Option::None;),
                quote!(#dup #slot = ::core::option::Option::Some(#read_nil);),
                quote!(),
            ),
            Occurrence::OptionalNillable => (
                quote!(let mut #slot: #krate::OptionalNillable<#boxed_ty> = #krate::OptionalNillable::Absent;),
                quote! {
                    if !#slot.is_absent() { return ::core::result::Result::Err(__r.duplicate(&__child)); }
                    #slot = ::core::convert::From::from(#read_nil);
                },
                quote!(),
            ),
            Occurrence::ManyNillable => (
                quote!(let mut #slot: ::std::vec::Vec<#nillable_ty> = ::std::vec::Vec::new();),
                quote!(#slot.push(#read_nil);),
                min_check(krate, f),
            ),
        };
        decls.extend(quote::quote_spanned!(f.span=> #decl));
        if by_name {
            let (ns, local) = (&f.namespace, &f.local);
            name_arms.extend(quote!(#local if __child.namespace() == #ns => { #arm }));
            finals.extend(fin);
            continue;
        }
        let cond = quote!(__child.is(#name));
        if i == 0 {
            arms.extend(quote!(if #cond { #arm }));
        } else {
            arms.extend(quote!(else if #cond { #arm }));
        }
        finals.extend(fin);
    }
    // The element names, for an error that says when only the namespace differs.
    let expected = fields.iter().filter(|f| !f.any && !f.group).map(|f| {
        let (ns, local) = (&f.namespace, &f.local);
        quote!((#ns, #local))
    });
    let otherwise = match any_arm {
        Some(arm) => arm,
        None => quote!(__r.unknown_element_in(&__child, &[#(#expected),*])?;),
    };
    if by_name && arm_count > 0 {
        return quote! {
            #decls
            while let ::core::option::Option::Some(__child) = __r.next_child()? {
                match __child.local_name() {
                    #name_arms
                    _ => { #otherwise }
                }
            }
            #finals
        };
    }
    let fallback = if arm_count == 0 {
        otherwise
    } else {
        quote!(else { #otherwise })
    };
    quote! {
        #decls
        while let ::core::option::Option::Some(__child) = __r.next_child()? {
            #arms
            #fallback
        }
        #finals
    }
}

/// For a repeated field with `min > 0`: code after the content loop refusing fewer occurrences
/// (its slot, a `Vec`, rebound to itself); nothing otherwise.
pub fn min_check(krate: &TokenStream, f: &ElementField) -> TokenStream {
    let slot = &f.slot;
    min_take(krate, f, quote!(#slot), quote!(#slot), quote!(&__start)).unwrap_or_default()
}

/// `let #local = #value;` for a repeated field, refusing fewer than `min` occurrences inside
/// `parent` (an expression of type `&StartTag`); `None` when `min` is 0.
pub fn min_take(
    krate: &TokenStream,
    f: &ElementField,
    local: TokenStream,
    value: TokenStream,
    parent: TokenStream,
) -> Option<TokenStream> {
    if f.min == 0 {
        return None;
    }
    let min = f.min;
    let name = if f.group {
        group_name(krate, f)
    } else {
        name_expr(krate, &f.namespace, &f.local)
    };
    Some(quote!(let #local = #krate::__private::min_occurs(__r, #parent, #value, #min, #name)?;))
}

/// The value type of a field as stored (`Box<T>` when boxed).
pub fn stored_ty(f: &ElementField) -> TokenStream {
    let inner = &f.shape.inner;
    if f.shape.boxed {
        quote!(::std::boxed::Box<#inner>)
    } else {
        quote!(#inner)
    }
}

/// The name a missing group is reported by: its field's name.
fn group_name(krate: &TokenStream, f: &ElementField) -> TokenStream {
    name_expr(krate, "", &f.local)
}

/// `#[xml(group)]` field in a name-matched content loop: (declarations, condition, arm, final).
/// The open occurrence lives in `{slot}_open`; an occurrence is closed when a child starts another
/// one, and at the end of the parent's content.
fn group_arm(
    krate: &TokenStream,
    f: &ElementField,
) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
    let slot = &f.slot;
    let open = format_ident!("{}_open", slot);
    let inner = &f.shape.inner;
    let g = quote!(<#inner as #krate::xml::FromXmlGroup>);
    let stored = stored_ty(f);
    let many = f.shape.card == Occurrence::Many;
    let wrap = |v: TokenStream| {
        if f.shape.boxed {
            quote!(::std::boxed::Box::new(#v))
        } else {
            v
        }
    };
    let finished = wrap(quote!(#g::finish(__p, __r, &__start)?));
    let store = if many {
        quote!(#slot.push(#finished);)
    } else {
        quote!(#slot = ::core::option::Option::Some(#finished);)
    };
    let decl = if many {
        quote! {
            let mut #slot: ::std::vec::Vec<#stored> = ::std::vec::Vec::new();
            let mut #open: ::core::option::Option<#g::Partial> = ::core::option::Option::None;
        }
    } else {
        quote! {
            let mut #slot: ::core::option::Option<#stored> = ::core::option::Option::None;
            let mut #open: ::core::option::Option<#g::Partial> = ::core::option::Option::None;
        }
    };
    let cond = quote! {
        (match &#open {
            ::core::option::Option::Some(__p) => #g::continues(__p, __r, &__child),
            ::core::option::Option::None => false,
        } || #g::starts(__r, &__child))
    };
    let dup = if many {
        quote!()
    } else {
        quote! {
            if #slot.is_some() || #open.is_some() {
                return ::core::result::Result::Err(__r.duplicate(&__child));
            }
        }
    };
    let arm = quote! {
        let __cont = match &#open {
            ::core::option::Option::Some(__p) => #g::continues(__p, __r, &__child),
            ::core::option::Option::None => false,
        };
        if __cont {
            if let ::core::option::Option::Some(__p) = #open.as_mut() {
                #g::extend(__p, __r, __child)?;
            }
        } else {
            if let ::core::option::Option::Some(__p) = #open.take() {
                #store
            }
            #dup
            #open = ::core::option::Option::Some(#g::begin(__r, __child)?);
        }
    };
    let name = group_name(krate, f);
    let required = if f.shape.card == Occurrence::One {
        quote!(let #slot = #krate::__private::required(__r, &__start, #slot, #name)?;)
    } else {
        min_check(krate, f)
    };
    let fin = quote! {
        if let ::core::option::Option::Some(__p) = #open.take() {
            #store
        }
        #required
    };
    (decl, cond, arm, fin)
}

/// A slot identifier for field number `i` named `name`.
pub fn slot_ident(i: usize, name: &str) -> syn::Ident {
    format_ident!("__f{}_{}", i, name.trim_start_matches("r#"))
}

/// Converts a Rust identifier (snake_case field or PascalCase variant) by a `rename_all` rule.
pub fn rename_all(rule: &str, ident: &str) -> Option<String> {
    let ident = ident.trim_start_matches("r#");
    // Split into words at underscores and lower→upper boundaries.
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in ident.chars() {
        if c == '_' {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_uppercase() && prev_lower && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let cap = |w: &str| {
        let mut cs = w.chars();
        match cs.next() {
            Some(f) => f.to_uppercase().collect::<String>() + &cs.as_str().to_lowercase(),
            None => String::new(),
        }
    };
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    Some(match rule {
        "lowercase" => lower.concat(),
        "UPPERCASE" => lower.concat().to_uppercase(),
        "camelCase" => {
            let mut s = lower.first().cloned().unwrap_or_default();
            for w in &lower[1.min(lower.len())..] {
                s.push_str(&cap(w));
            }
            s
        }
        "PascalCase" => lower.iter().map(|w| cap(w)).collect(),
        "snake_case" => lower.join("_"),
        "SCREAMING_SNAKE_CASE" => lower.join("_").to_uppercase(),
        "kebab-case" => lower.join("-"),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::rename_all;

    #[test]
    fn renames() {
        assert_eq!(rename_all("camelCase", "first_name").unwrap(), "firstName");
        assert_eq!(rename_all("PascalCase", "first_name").unwrap(), "FirstName");
        assert_eq!(rename_all("camelCase", "FirstName").unwrap(), "firstName");
        assert_eq!(rename_all("kebab-case", "FirstName").unwrap(), "first-name");
        assert_eq!(rename_all("SCREAMING_SNAKE_CASE", "a_b").unwrap(), "A_B");
        assert!(rename_all("nope", "a").is_none());
    }
}
