//! Code generation for element, attribute and text fields, shared by the derives and `#[soap_client]`
//! (request wrappers are written, response wrappers read, with the same code as a derived struct).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

pub use crate::internals::ast::{AttributeField, ElementField};
use crate::internals::occurs::Occurrence;

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

/// `e` (a `Result` whose error is the caller's) unwrapped by a `match` rather than `?`: in an
/// unoptimized build `?` is two calls (`Try::branch`, `FromResidual::from_residual`, the latter
/// instantiated for each derived type's result), a `match` a branch.
pub fn tri(e: TokenStream) -> TokenStream {
    quote! {
        match #e {
            ::core::result::Result::Ok(__v) => __v,
            ::core::result::Result::Err(__e) => return ::core::result::Result::Err(__e),
        }
    }
}

pub fn name_expr(krate: &TokenStream, ns: &str, local: &str) -> TokenStream {
    quote!(#krate::xml::Name::new(#ns, #local))
}

/// Code that writes the element fields, in order.
pub fn write_elements(krate: &TokenStream, fields: &[ElementField]) -> TokenStream {
    write_elements_as(krate, fields, false)
}

/// [`write_elements`], each element with its `xsi:type` when `encoded` (SOAP 1.1 §5.1 rule 2:
/// the accessors of an rpc/encoded request state their types; the types implement
/// `EncodedType`).
pub fn write_elements_as(
    krate: &TokenStream,
    fields: &[ElementField],
    encoded: bool,
) -> TokenStream {
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
                tri(quote!(#krate::xml::ToXmlGroup::write_group(#v, __w)))
            } else if encoded {
                tri(quote!(#krate::types::write_typed(__w, #name, #v)))
            } else {
                tri(quote!(#krate::ToXml::write_xml(#v, __w, #name)))
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
            let w = tri(quote!(__w.other_attribute(__a, &[#(#declared),*])));
            quote!(for __a in (#access).iter() { #w; })
        } else if f.optional {
            let w = tri(quote!(__w.attribute_value(#name, __v)));
            quote!(if let ::core::option::Option::Some(__v) = #access { #w; })
        } else {
            let w = tri(quote!(__w.attribute_value(#name, #access)));
            quote!(#w;)
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
        let value = tri(quote!(__r.attribute_value::<#ty>(&__start, #name)));
        let code = if f.any {
            let known = fields
                .iter()
                .filter(|k| !k.any)
                .map(|k| name_expr(krate, &k.namespace, &k.local));
            let read = tri(quote!(__r.other_attributes(&__start, &[#(#known),*])));
            quote!(let #slot: ::std::vec::Vec<#ty> = #read;)
        } else if let Some((literal, fixed)) = &f.constraint {
            let read = tri(quote! {
                #krate::__private::constrained_attribute(
                    __r, &__start, #value, #name, #literal, #fixed)
            });
            quote!(let #slot: #ty = #read;)
        } else if f.optional {
            quote!(let #slot: ::core::option::Option<#ty> = #value;)
        } else {
            let read = tri(quote! {
                #krate::__private::required_attribute(__r, &__start, #value, #name)
            });
            quote!(let #slot: #ty = #read;)
        };
        out.extend(quote::quote_spanned!(f.span=> #code));
    }
    out
}

/// Code reading the children of `__start` into the element fields' slots; afterwards each slot holds
/// the field's final value (required ones checked). Children not declared are an error.
pub fn read_elements(krate: &TokenStream, fields: &[ElementField]) -> TokenStream {
    // Without groups every field is an element name or the wildcard: the runtime's shared loop.
    if !fields.iter().any(|f| f.group && !f.any) {
        return crate::content::read_by_name(krate, fields);
    }
    let mut decls = TokenStream::new();
    let mut arms = TokenStream::new();
    let mut finals = TokenStream::new();
    let mut any_arm: Option<TokenStream> = None;
    let mut arm_count = 0usize;
    for (idx, f) in fields.iter().enumerate() {
        // A child whose single-occurrence field is full goes to the next particle that can take
        // it (XML Schema Part 1 §3.9.4): a later field of the same name, else a later wildcard.
        let room = room(f).filter(|_| {
            fields[idx + 1..]
                .iter()
                .any(|g| g.any || (!g.group && g.namespace == f.namespace && g.local == f.local))
        });
        if f.any {
            let (decl, arm) = any_slot(krate, f);
            decls.extend(quote::quote_spanned!(f.span=> #decl));
            any_arm = Some(arm);
            continue;
        }
        let i = arm_count;
        arm_count += 1;
        let (decl, cond, arm, fin) = if f.group {
            group_arm(krate, f)
        } else {
            let (decl, arm, fin) = element_slot(krate, f);
            let room = room.map(|r| quote!(&& #r));
            let name = name_expr(krate, &f.namespace, &f.local);
            (decl, quote!(__child.is(#name) #room), arm, fin)
        };
        decls.extend(quote::quote_spanned!(f.span=> #decl));
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
    quote! {
        #decls
        while let ::core::option::Option::Some(__child) = __r.next_child()? {
            #arms
            else { #otherwise }
        }
        #finals
    }
}

/// Whether a name-matched element field's slot can take another occurrence, for a field that
/// takes one only (`None` for a repeated field or a group, which always can).
fn room(f: &ElementField) -> Option<TokenStream> {
    let slot = &f.slot;
    if f.any || f.group {
        return None;
    }
    match f.shape.card {
        Occurrence::Many | Occurrence::ManyNillable => None,
        Occurrence::OptionalNillable if f.shape.tristate => Some(quote!(#slot.is_absent())),
        _ => Some(quote!(#slot.is_none())),
    }
}

/// An `any` field's slot and what a child no other field takes does to it: pushed to a `Vec`,
/// or kept once in an `Option`.
fn any_slot(krate: &TokenStream, f: &ElementField) -> (TokenStream, TokenStream) {
    let (slot, inner) = (&f.slot, &f.shape.inner);
    match f.shape.card {
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
    }
}

/// An element field's slot, by its occurrence (XML Schema Part 1 §3.9.1, §3.3.1): its
/// declaration, what reading one occurrence does to it (a second single one is a duplicate), and
/// the check after the content loop (required, minOccurs).
fn element_slot(krate: &TokenStream, f: &ElementField) -> (TokenStream, TokenStream, TokenStream) {
    let slot = &f.slot;
    let inner = &f.shape.inner;
    let name = name_expr(krate, &f.namespace, &f.local);
    let boxed_ty = if f.shape.boxed {
        quote!(::std::boxed::Box<#inner>)
    } else {
        quote!(#inner)
    };
    let boxed = |read: TokenStream| {
        if f.shape.boxed {
            quote!(#read.map(::std::boxed::Box::new))
        } else {
            read
        }
    };
    let nillable_ty = quote!(#krate::Nillable<#boxed_ty>);
    let read_req = if f.shape.boxed {
        let read = read_call(krate, f, "required");
        quote!(::std::boxed::Box::new(#read))
    } else {
        read_call(krate, f, "required")
    };
    let read_nil = boxed(read_call(krate, f, "nillable"));
    let dup = quote! {
        if #slot.is_some() { return ::core::result::Result::Err(__r.duplicate(&__child)); }
    };
    match f.shape.card {
        Occurrence::One => (
            quote!(let mut #slot: ::core::option::Option<#boxed_ty> = ::core::option::Option::None;),
            quote!(#dup #slot = ::core::option::Option::Some(#read_req);),
            quote!(let #slot = #krate::__private::required(__r, &__start, #slot, #name)?;),
        ),
        Occurrence::Optional => {
            let read_opt = boxed(read_call(krate, f, "optional"));
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
    // A repeated model group's occurrences are marked in the document only when each is a fixed
    // run of single elements; otherwise a run of its content may split between occurrences in
    // more than one way (XML Schema Part 1 §3.9.4, e.g. `(a*)` twice holds `<a/><a/><a/>`), and
    // the reader takes as much as it can into each, so fewer occurrences than minOccurs may still
    // be a valid document: only the first is required.
    let n = f.min;
    let min = if f.group {
        let inner = &f.shape.inner;
        quote!(if <#inner as #krate::xml::FromXmlGroup>::FIXED_RUN { #n } else { 1 })
    } else {
        quote!(#n)
    };
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
