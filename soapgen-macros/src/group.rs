//! Model groups (XML Schema Part 1 §3.8) for the derives: a struct with `#[xml(sequence)]` read by
//! position (its elements in declaration order; one element name may appear in several fields), and
//! an enum of one-value variants as an `xs:choice`. Both implement the runtime's `ToXmlGroup` and
//! `FromXmlGroup`, so a parent holds them in `#[xml(group)]` fields, once or repeated.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::fields::{min_take, name_expr, stored_ty, ElementField};
use crate::internals::ast::Variant;
use crate::internals::occurs::Occurrence;

/// The per-field pieces of a positional reader.
struct Piece {
    /// Partial-struct fields.
    decl: TokenStream,
    /// Whether the current field (the last one filled) takes `__child` again: by its name, and as a
    /// wildcard (`xs:any`, tried only when no field takes the child by name).
    repeat: (Option<TokenStream>, Option<TokenStream>),
    /// Whether this field takes `__child` as its first item: by name, as a wildcard.
    start: (Option<TokenStream>, Option<TokenStream>),
    /// A required field: later fields cannot be reached before it.
    required: bool,
    /// Reads `__child` into the field.
    accept: TokenStream,
    /// Moves the field's final value out of `self` into a local named after the field.
    take: TokenStream,
}

/// The piece of element field `f`, read into the local `local`: a nested group, a wildcard or an
/// element.
fn piece(krate: &TokenStream, f: &ElementField, local: &syn::Ident) -> Piece {
    if f.group {
        group_piece(krate, f, local)
    } else if f.any {
        any_piece(krate, f, local)
    } else {
        element_piece(krate, f, local)
    }
}

/// `Option<t>`.
fn opt(t: TokenStream) -> TokenStream {
    quote!(::core::option::Option<#t>)
}

/// `Vec<t>`.
fn vec(t: TokenStream) -> TokenStream {
    quote!(::std::vec::Vec<#t>)
}

/// `v` in a `Box` when `f` holds boxed values.
fn wrap(f: &ElementField, v: TokenStream) -> TokenStream {
    if f.shape.boxed {
        quote!(::std::boxed::Box::new(#v))
    } else {
        v
    }
}

/// A `group` field (a choice enum or sequence struct, XML Schema Part 1 §3.8) among a sequence's
/// fields: its partial state stays open while the group continues.
fn group_piece(krate: &TokenStream, f: &ElementField, local: &syn::Ident) -> Piece {
    let slot = &f.slot;
    let open = format_ident!("{}_open", slot);
    let inner = &f.shape.inner;
    let stored = stored_ty(f);
    let g = quote!(<#inner as #krate::xml::FromXmlGroup>);
    let many = f.shape.card == Occurrence::Many;
    let slot_ty = if many {
        vec(stored.clone())
    } else {
        opt(stored.clone())
    };
    let partial_ty = opt(quote!(#g::Partial));
    let continues = quote! {
        (match &self.#open {
            ::core::option::Option::Some(__p) => #g::continues(__p, __r, __child),
            ::core::option::Option::None => false,
        })
    };
    let continues_named = quote! {
        (match &self.#open {
            ::core::option::Option::Some(__p) => #g::continues_named(__p, __r, __child),
            ::core::option::Option::None => false,
        })
    };
    let repeat = if many {
        (
            quote!((#continues_named || #g::starts_named(__r, __child))),
            quote!((#continues || #g::starts(__r, __child))),
        )
    } else {
        (continues_named, continues.clone())
    };
    let store = |parent: TokenStream| {
        let v = wrap(f, quote!(#g::finish(__p, __r, #parent)?));
        if many {
            quote!(self.#slot.push(#v);)
        } else {
            quote!(self.#slot = ::core::option::Option::Some(#v);)
        }
    };
    let store_child = store(quote!(&__child));
    let dup = if many {
        quote!()
    } else {
        quote! {
            if self.#slot.is_some() || self.#open.is_some() {
                return ::core::result::Result::Err(__r.duplicate(&__child));
            }
        }
    };
    let accept = quote! {
        let __cont = match &self.#open {
            ::core::option::Option::Some(__p) => #g::continues(__p, __r, &__child),
            ::core::option::Option::None => false,
        };
        if __cont {
            if let ::core::option::Option::Some(__p) = self.#open.as_mut() {
                #g::extend(__p, __r, __child)?;
            }
        } else {
            if let ::core::option::Option::Some(__p) = self.#open.take() {
                #store_child
            }
            #dup
            self.#open = ::core::option::Option::Some(#g::begin(__r, __child)?);
        }
    };
    let store_parent = store(quote!(__parent));
    let gname = name_expr(krate, "", &f.local);
    let fin = match f.shape.card {
        Occurrence::One => {
            quote!(let #local = #krate::__private::required(__r, __parent, self.#slot, #gname)?;)
        }
        _ => min_take(
            krate,
            f,
            quote!(#local),
            quote!(self.#slot),
            quote!(__parent),
        )
        .unwrap_or_else(|| quote!(let #local = self.#slot;)),
    };
    Piece {
        decl: quote!(#slot: #slot_ty, #open: #partial_ty,),
        repeat: (Some(repeat.0), Some(repeat.1)),
        start: (
            Some(quote!(#g::starts_named(__r, __child))),
            Some(quote!(#g::starts(__r, __child))),
        ),
        required: f.shape.card == Occurrence::One,
        accept,
        take: quote! {
            if let ::core::option::Option::Some(__p) = self.#open.take() {
                #store_parent
            }
            #fin
        },
    }
}

/// An `any` field (`xs:any`, XML Schema Part 1 §3.10): a child no field takes by name.
fn any_piece(krate: &TokenStream, f: &ElementField, local: &syn::Ident) -> Piece {
    let slot = &f.slot;
    let inner = &f.shape.inner;
    let read = quote!(<#inner as #krate::FromXml>::read_xml(__r, __child)?);
    let many = f.shape.card == Occurrence::Many;
    let (slot_ty, accept) = if many {
        (vec(quote!(#inner)), quote!(self.#slot.push(#read);))
    } else {
        (
            opt(quote!(#inner)),
            quote! {
                if self.#slot.is_some() { return ::core::result::Result::Err(__r.unexpected(&__child)); }
                self.#slot = ::core::option::Option::Some(#read);
            },
        )
    };
    Piece {
        decl: quote!(#slot: #slot_ty,),
        repeat: (None, many.then(|| quote!(true))),
        start: (None, Some(quote!(true))),
        required: false,
        accept,
        take: quote!(let #local = self.#slot;),
    }
}

/// An element field, by its occurrence (XML Schema Part 1 §3.9.1).
fn element_piece(krate: &TokenStream, f: &ElementField, local: &syn::Ident) -> Piece {
    let slot = &f.slot;
    let stored = stored_ty(f);
    let name = name_expr(krate, &f.namespace, &f.local);
    let matches = quote!(__child.is(#name));
    let nillable = quote!(#krate::Nillable<#stored>);
    let read_req = wrap(f, crate::fields::read_call(krate, f, "required"));
    let read_nil = if f.shape.boxed {
        let read = crate::fields::read_call(krate, f, "nillable");
        quote!(#read.map(::std::boxed::Box::new))
    } else {
        crate::fields::read_call(krate, f, "nillable")
    };
    let read_opt = if f.shape.boxed {
        let read = crate::fields::read_call(krate, f, "optional");
        quote!(#read.map(::std::boxed::Box::new))
    } else {
        crate::fields::read_call(krate, f, "optional")
    };
    let dup = quote! {
        if self.#slot.is_some() { return ::core::result::Result::Err(__r.duplicate(&__child)); }
    };
    let many_take = || {
        min_take(
            krate,
            f,
            quote!(#local),
            quote!(self.#slot),
            quote!(__parent),
        )
        .unwrap_or_else(|| quote!(let #local = self.#slot;))
    };
    let (slot_ty, repeat, accept, fin) = match f.shape.card {
        Occurrence::One => (
            opt(stored),
            None,
            quote!(#dup self.#slot = ::core::option::Option::Some(#read_req);),
            quote!(let #local = #krate::__private::required(__r, __parent, self.#slot, #name)?;),
        ),
        Occurrence::Optional => (
            opt(stored),
            None,
            quote!(#dup self.#slot = #read_opt;),
            quote!(let #local = self.#slot;),
        ),
        Occurrence::Nillable => (
            opt(nillable),
            None,
            quote!(#dup self.#slot = ::core::option::Option::Some(#read_nil);),
            quote!(let #local = #krate::__private::required(__r, __parent, self.#slot, #name)?;),
        ),
        Occurrence::OptionalNillable if !f.shape.tristate => (
            opt(nillable),
            None,
            quote!(#dup self.#slot = ::core::option::Option::Some(#read_nil);),
            quote!(let #local = self.#slot;),
        ),
        Occurrence::OptionalNillable => (
            quote!(#krate::OptionalNillable<#stored>),
            None,
            quote! {
                if !self.#slot.is_absent() { return ::core::result::Result::Err(__r.duplicate(&__child)); }
                self.#slot = ::core::convert::From::from(#read_nil);
            },
            quote!(let #local = self.#slot;),
        ),
        Occurrence::Many => (
            vec(stored),
            Some(matches.clone()),
            quote!(self.#slot.push(#read_req);),
            many_take(),
        ),
        Occurrence::ManyNillable => (
            vec(nillable),
            Some(matches.clone()),
            quote!(self.#slot.push(#read_nil);),
            many_take(),
        ),
    };
    Piece {
        decl: quote!(#slot: #slot_ty,),
        repeat: (repeat, None),
        start: (Some(matches), None),
        // A `min` on a repeated field is checked when the content ends (so that the error gives
        // the counts), not by blocking later fields.
        required: matches!(f.shape.card, Occurrence::One | Occurrence::Nillable),
        accept,
        take: fin,
    }
}

/// A positional reader's partial type (`partial`) for the element fields `fields` (whose values come
/// out as locals named by `locals`): the struct, and its methods `__which` (the field a child goes
/// to, if any: the current field again when it repeats, else the next fields up to and including
/// the first required one), `__accept` and `__take`.
pub fn positional_partial(
    krate: &TokenStream,
    partial: &syn::Ident,
    fields: &[ElementField],
    locals: &[syn::Ident],
    types: &[syn::Type],
) -> TokenStream {
    let mut decls = TokenStream::new();
    let mut which = TokenStream::new();
    let mut accepts = TokenStream::new();
    let mut takes = TokenStream::new();
    for (i, (f, local)) in fields.iter().zip(locals).enumerate() {
        let p = piece(krate, f, local);
        decls.extend(p.decl);
        let il = Literal::usize_unsuffixed(i);
        let next = Literal::usize_unsuffixed(i.saturating_add(1));
        let either = |(named, wild): (Option<TokenStream>, Option<TokenStream>)| match (named, wild)
        {
            (Some(n), Some(w)) => Some(quote!((if __named { #n } else { #w }))),
            (Some(n), None) => Some(quote!((__named && #n))),
            (None, Some(w)) => Some(quote!((!__named && #w))),
            (None, None) => None,
        };
        if let Some(rep) = either(p.repeat) {
            which.extend(quote! {
                if __pos == #next && #rep { return ::core::option::Option::Some(#il); }
            });
        }
        if let Some(start) = either(p.start) {
            which.extend(quote! {
                if __reach && __pos <= #il && #start { return ::core::option::Option::Some(#il); }
            });
        }
        if p.required {
            which.extend(quote! {
                if __pos <= #il { __reach = false; }
            });
        }
        let accept = p.accept;
        accepts.extend(quote!(#il => { #accept self.__pos = #next; }));
        takes.extend(p.take);
    }
    quote! {
        #[doc(hidden)]
        #[derive(Default)]
        #[allow(non_snake_case, non_camel_case_types, dead_code)]
        pub struct #partial {
            __pos: usize,
            #decls
        }

        #[allow(unused_variables, unused_mut, unused_assignments, clippy::all)]
        impl #partial {
            /// The field `__child` goes to: by name first, then as a wildcard.
            fn __which<'i>(
                &self,
                __r: &#krate::xml::XmlReader<'i>,
                __child: &#krate::xml::StartTag<'i>,
            ) -> ::core::option::Option<usize> {
                self.__which_pass(__r, __child, true)
                    .or_else(|| self.__which_pass(__r, __child, false))
            }

            fn __which_pass<'i>(
                &self,
                __r: &#krate::xml::XmlReader<'i>,
                __child: &#krate::xml::StartTag<'i>,
                __named: bool,
            ) -> ::core::option::Option<usize> {
                let __pos = self.__pos;
                let mut __reach = true;
                #which
                ::core::option::Option::None
            }

            fn __accept<'i>(
                &mut self,
                __i: usize,
                __r: &mut #krate::xml::XmlReader<'i>,
                __child: #krate::xml::StartTag<'i>,
            ) -> ::core::result::Result<(), #krate::DecodeError> {
                match __i {
                    #accepts
                    _ => return ::core::result::Result::Err(__r.unexpected(&__child)),
                }
                ::core::result::Result::Ok(())
            }

            fn __take<'i>(
                mut self,
                __r: &#krate::xml::XmlReader<'i>,
                __parent: &#krate::xml::StartTag<'i>,
            ) -> ::core::result::Result<(#(#types,)*), #krate::DecodeError> {
                #takes
                ::core::result::Result::Ok((#(#locals,)*))
            }
        }
    }
}

/// The content loop of a positional (`#[xml(sequence)]`) struct: the element fields end up in locals
/// named after them.
pub fn positional_read(partial: &syn::Ident, locals: &[syn::Ident]) -> TokenStream {
    quote! {
        let mut __p = <#partial as ::core::default::Default>::default();
        while let ::core::option::Option::Some(__child) = __r.next_child()? {
            match __p.__which(__r, &__child) {
                ::core::option::Option::Some(__i) => __p.__accept(__i, __r, __child)?,
                ::core::option::Option::None => __r.unknown_element(&__child)?,
            }
        }
        let (#(#locals,)*) = __p.__take(__r, &__start)?;
    }
}

/// `impl FromXmlGroup` for a positional struct without attributes.
pub fn sequence_from_group(
    krate: &TokenStream,
    ident: &syn::Ident,
    partial: &syn::Ident,
    locals: &[syn::Ident],
    elements: &[ElementField],
) -> TokenStream {
    let fixed = fixed_run(elements.iter()).then(|| {
        quote!(
            const FIXED_RUN: bool = true;
        )
    });
    quote! {
        #[automatically_derived]
        impl #krate::xml::FromXmlGroup for #ident {
            type Partial = #partial;
            #fixed
            fn starts<'i>(__r: &#krate::xml::XmlReader<'i>, __child: &#krate::xml::StartTag<'i>) -> bool {
                <#partial as ::core::default::Default>::default().__which(__r, __child).is_some()
            }
            fn continues<'i>(
                __p: &#partial,
                __r: &#krate::xml::XmlReader<'i>,
                __child: &#krate::xml::StartTag<'i>,
            ) -> bool {
                __p.__which(__r, __child).is_some()
            }
            fn starts_named<'i>(__r: &#krate::xml::XmlReader<'i>, __child: &#krate::xml::StartTag<'i>) -> bool {
                <#partial as ::core::default::Default>::default().__which_pass(__r, __child, true).is_some()
            }
            fn continues_named<'i>(
                __p: &#partial,
                __r: &#krate::xml::XmlReader<'i>,
                __child: &#krate::xml::StartTag<'i>,
            ) -> bool {
                __p.__which_pass(__r, __child, true).is_some()
            }
            fn begin<'i>(
                __r: &mut #krate::xml::XmlReader<'i>,
                __child: #krate::xml::StartTag<'i>,
            ) -> ::core::result::Result<#partial, #krate::DecodeError> {
                let mut __p = <#partial as ::core::default::Default>::default();
                <Self as #krate::xml::FromXmlGroup>::extend(&mut __p, __r, __child)?;
                ::core::result::Result::Ok(__p)
            }
            fn extend<'i>(
                __p: &mut #partial,
                __r: &mut #krate::xml::XmlReader<'i>,
                __child: #krate::xml::StartTag<'i>,
            ) -> ::core::result::Result<(), #krate::DecodeError> {
                match __p.__which(__r, &__child) {
                    ::core::option::Option::Some(__i) => __p.__accept(__i, __r, __child),
                    ::core::option::Option::None => ::core::result::Result::Err(__r.unexpected(&__child)),
                }
            }
            fn finish<'i>(
                __p: #partial,
                __r: &#krate::xml::XmlReader<'i>,
                __parent: &#krate::xml::StartTag<'i>,
            ) -> ::core::result::Result<Self, #krate::DecodeError> {
                let (#(#locals,)*) = __p.__take(__r, __parent)?;
                ::core::result::Result::Ok(#ident { #(#locals,)* })
            }
        }
    }
}

/// `impl ToXmlGroup` for a choice enum: the chosen alternative's elements.
pub fn choice_to_group(
    krate: &TokenStream,
    ident: &syn::Ident,
    variants: &[Variant],
) -> TokenStream {
    let arms = variants.iter().map(|v| {
        let vi = &v.ident;
        let write = crate::fields::write_elements(krate, std::slice::from_ref(&v.field));
        quote!(#ident::#vi(__v) => { #write })
    });
    let body = if variants.is_empty() {
        quote!(match *self {})
    } else {
        quote! {
            match self { #(#arms)* }
            ::core::result::Result::Ok(())
        }
    };
    to_xml_group_impl(krate, ident, &body)
}

/// `impl ToXmlGroup for #ident`: `body` writes the group's elements into `__w`.
pub fn to_xml_group_impl(
    krate: &TokenStream,
    ident: &syn::Ident,
    body: &TokenStream,
) -> TokenStream {
    quote! {
        #[automatically_derived]
        impl #krate::xml::ToXmlGroup for #ident {
            fn write_group(
                &self,
                __w: &mut #krate::xml::XmlWriter,
            ) -> ::core::result::Result<(), #krate::EncodeError> {
                #body
            }
        }
    }
}

/// `impl FromXmlGroup` for a choice enum. The partial value is the chosen alternative: finished for
/// a single element, still open for a group or a repeated element.
pub fn choice_from_group(
    krate: &TokenStream,
    ident: &syn::Ident,
    partial: &syn::Ident,
    variants: &[Variant],
) -> TokenStream {
    let mut p = ChoiceReader::default();
    for v in variants {
        if v.field.any {
            p.wildcard(krate, ident, partial, v);
        } else if v.field.group {
            p.group(krate, ident, partial, v);
        } else {
            p.element(krate, ident, partial, v);
        }
    }
    let fixed = fixed_run(variants.iter().map(|v| &v.field));
    p.into_impl(krate, ident, partial, fixed)
}

/// Whether `fields` are each one element occurring exactly once (`T`, `Nillable<T>`): a group
/// of them is a fixed run ([`FromXmlGroup::FIXED_RUN`]).
fn fixed_run<'a>(mut fields: impl Iterator<Item = &'a ElementField>) -> bool {
    fields.all(|f| {
        !f.any && !f.group && matches!(f.shape.card, Occurrence::One | Occurrence::Nillable)
    })
}

/// The pieces of a choice's `FromXmlGroup` impl, gathered one variant at a time: the partial
/// enum's variants, and the arms or conditions of each method.
#[derive(Default)]
struct ChoiceReader {
    pvariants: TokenStream,
    starts: Vec<TokenStream>,
    starts_wild: Vec<TokenStream>,
    continues: TokenStream,
    continues_named: TokenStream,
    begins: TokenStream,
    begins_wild: TokenStream,
    extends: TokenStream,
    finishes: TokenStream,
}

impl ChoiceReader {
    /// An `any` variant: any child no other variant takes by name, read whole.
    fn wildcard(
        &mut self,
        krate: &TokenStream,
        ident: &syn::Ident,
        partial: &syn::Ident,
        v: &Variant,
    ) {
        let (vi, f) = (&v.ident, &v.field);
        let inner = &f.shape.inner;
        self.starts_wild.push(quote!(true));
        let read = wrap(
            f,
            quote!(<#inner as #krate::FromXml>::read_xml(__r, __child)?),
        );
        self.begins_wild.extend(quote! {
            return ::core::result::Result::Ok(#partial::__Done(#ident::#vi(#read)));
        });
    }

    /// A nested group: its own partial state, continued while it continues.
    fn group(
        &mut self,
        krate: &TokenStream,
        ident: &syn::Ident,
        partial: &syn::Ident,
        v: &Variant,
    ) {
        let (vi, f) = (&v.ident, &v.field);
        let inner = &f.shape.inner;
        let g = quote!(<#inner as #krate::xml::FromXmlGroup>);
        self.pvariants.extend(quote!(#vi(#g::Partial),));
        self.starts.push(quote!(#g::starts_named(__r, __child)));
        self.starts_wild.push(quote!(#g::starts(__r, __child)));
        self.continues
            .extend(quote!(#partial::#vi(__g) => #g::continues(__g, __r, __child),));
        self.continues_named
            .extend(quote!(#partial::#vi(__g) => #g::continues_named(__g, __r, __child),));
        self.begins.extend(quote! {
            if #g::starts_named(__r, &__child) {
                return ::core::result::Result::Ok(#partial::#vi(#g::begin(__r, __child)?));
            }
        });
        self.begins_wild.extend(quote! {
            if #g::starts(__r, &__child) {
                return ::core::result::Result::Ok(#partial::#vi(#g::begin(__r, __child)?));
            }
        });
        self.extends
            .extend(quote!(#partial::#vi(__g) => #g::extend(__g, __r, __child),));
        let fin = wrap(f, quote!(#g::finish(__g, __r, __parent)?));
        self.finishes
            .extend(quote!(#partial::#vi(__g) => #ident::#vi(#fin),));
    }

    /// An element: read at once (`T`, `Nillable<T>`), or its items gathered while they repeat.
    fn element(
        &mut self,
        krate: &TokenStream,
        ident: &syn::Ident,
        partial: &syn::Ident,
        v: &Variant,
    ) {
        let (vi, f) = (&v.ident, &v.field);
        let inner = &f.shape.inner;
        let stored = stored_ty(f);
        let name = name_expr(krate, &f.namespace, &f.local);
        let cond = quote!(__child.is(#name));
        self.starts.push(cond.clone());
        let begin_cond = quote!(__child.is(#name));
        let read_req = wrap(
            f,
            quote!(#krate::__private::read_required::<#inner>(__r, __child)?),
        );
        let read_nil = if f.shape.boxed {
            quote!(#krate::__private::read_nillable::<#inner>(__r, __child)?.map(::std::boxed::Box::new))
        } else {
            quote!(#krate::__private::read_nillable::<#inner>(__r, __child)?)
        };
        let many_item = match f.shape.card {
            Occurrence::Many => Some((stored.clone(), read_req.clone())),
            Occurrence::ManyNillable => Some((quote!(#krate::Nillable<#stored>), read_nil.clone())),
            _ => None,
        };
        match many_item {
            Some((item, read)) => {
                self.pvariants.extend(quote!(#vi(::std::vec::Vec<#item>),));
                self.continues.extend(quote!(#partial::#vi(_) => #cond,));
                self.continues_named
                    .extend(quote!(#partial::#vi(_) => #cond,));
                self.begins.extend(quote! {
                    if #begin_cond {
                        return ::core::result::Result::Ok(#partial::#vi(::std::vec![#read]));
                    }
                });
                self.extends.extend(quote! {
                    #partial::#vi(__v) => {
                        __v.push(#read);
                        ::core::result::Result::Ok(())
                    }
                });
                self.finishes
                    .extend(quote!(#partial::#vi(__v) => #ident::#vi(__v),));
            }
            None => {
                let read = if f.shape.card == Occurrence::Nillable {
                    read_nil
                } else {
                    read_req
                };
                self.begins.extend(quote! {
                    if #begin_cond {
                        return ::core::result::Result::Ok(#partial::__Done(#ident::#vi(#read)));
                    }
                });
            }
        }
    }

    /// The partial enum and the `FromXmlGroup` impl.
    fn into_impl(
        self,
        krate: &TokenStream,
        ident: &syn::Ident,
        partial: &syn::Ident,
        fixed: bool,
    ) -> TokenStream {
        let ChoiceReader {
            pvariants,
            starts,
            starts_wild,
            continues,
            continues_named,
            begins,
            begins_wild,
            extends,
            finishes,
        } = self;
        let starts = if starts.is_empty() {
            quote!(false)
        } else {
            quote!(#(#starts)||*)
        };
        let starts_wild = if starts_wild.is_empty() {
            quote!(false)
        } else {
            quote!(#(#starts_wild)||*)
        };
        let fixed = fixed.then(|| {
            quote!(
                const FIXED_RUN: bool = true;
            )
        });
        quote! {
            #[doc(hidden)]
            #[allow(non_snake_case, non_camel_case_types, dead_code, clippy::all)]
            pub enum #partial {
                __Done(#ident),
                #pvariants
            }

            #[automatically_derived]
            #[allow(unused_variables, unreachable_patterns, unreachable_code, clippy::all)]
            impl #krate::xml::FromXmlGroup for #ident {
                type Partial = #partial;
                #fixed
                fn starts<'i>(__r: &#krate::xml::XmlReader<'i>, __child: &#krate::xml::StartTag<'i>) -> bool {
                    (#starts) || (#starts_wild)
                }
                fn starts_named<'i>(__r: &#krate::xml::XmlReader<'i>, __child: &#krate::xml::StartTag<'i>) -> bool {
                    #starts
                }
                fn continues<'i>(
                    __p: &#partial,
                    __r: &#krate::xml::XmlReader<'i>,
                    __child: &#krate::xml::StartTag<'i>,
                ) -> bool {
                    match __p {
                        #continues
                        _ => false,
                    }
                }
                fn continues_named<'i>(
                    __p: &#partial,
                    __r: &#krate::xml::XmlReader<'i>,
                    __child: &#krate::xml::StartTag<'i>,
                ) -> bool {
                    match __p {
                        #continues_named
                        _ => false,
                    }
                }
                fn begin<'i>(
                    __r: &mut #krate::xml::XmlReader<'i>,
                    __child: #krate::xml::StartTag<'i>,
                ) -> ::core::result::Result<#partial, #krate::DecodeError> {
                    #begins
                    #begins_wild
                    ::core::result::Result::Err(__r.unexpected(&__child))
                }
                fn extend<'i>(
                    __p: &mut #partial,
                    __r: &mut #krate::xml::XmlReader<'i>,
                    __child: #krate::xml::StartTag<'i>,
                ) -> ::core::result::Result<(), #krate::DecodeError> {
                    match __p {
                        #extends
                        _ => ::core::result::Result::Err(__r.unexpected(&__child)),
                    }
                }
                fn finish<'i>(
                    __p: #partial,
                    __r: &#krate::xml::XmlReader<'i>,
                    __parent: &#krate::xml::StartTag<'i>,
                ) -> ::core::result::Result<Self, #krate::DecodeError> {
                    ::core::result::Result::Ok(match __p {
                        #partial::__Done(__v) => __v,
                        #finishes
                    })
                }
            }
        }
    }
}
