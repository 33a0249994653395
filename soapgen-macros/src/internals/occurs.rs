//! Occurrence (XML Schema Part 1 §3.9.1 minOccurs/maxOccurs, §3.3.1 nillable) read from a field's
//! `occurs = "…"` or its type as written: the type taken apart into a [`Shape`].

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

/// Whether `ty` is `()`.
pub(crate) fn is_unit(ty: &Type) -> bool {
    matches!(ty, Type::Tuple(t) if t.elems.is_empty())
}
