//! A derived type read into a typed model: a struct's fields sorted into elements, attributes
//! and content (XML Schema Part 1 §3.4 complexType), a choice enum's variants (§3.8), a
//! derivation enum's types (§2.6.1 `xsi:type`), an enumeration's values (Part 2 §4.3.5). Every
//! field and variant is checked against what its kind allows; the generators (`derive`) only
//! write code from the model.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::spanned::Spanned;
use syn::{DeriveInput, Fields, Type};

use super::attr::{parse_field_attrs, Container, FieldAttrs};
use super::names::{rename_all, slot_ident};
use super::occurs::{shape, Occurrence, Shape};
use super::Errors;

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

/// The element's content held by one field: simple content (`text`, XML Schema Part 1 §3.4.2)
/// or mixed content kept as XML (`content`).
pub(crate) struct Content {
    pub(crate) field: syn::Ident,
    pub(crate) slot: syn::Ident,
    pub(crate) ty: Type,
    /// `content`: kept as `AnyXml`.
    pub(crate) raw: bool,
    pub(crate) occurs: Option<Occurrence>,
}

/// A struct with named fields, sorted.
#[derive(Default)]
pub(crate) struct Struct {
    pub(crate) elements: Vec<ElementField>,
    pub(crate) attributes: Vec<AttributeField>,
    pub(crate) content: Option<Content>,
    /// The element fields' names and types, in order (a sequence's partial state).
    pub(crate) element_types: Vec<(syn::Ident, Type)>,
    /// `field: slot,` for every field: the struct built from the slots.
    pub(crate) ctor: TokenStream,
    /// `field: slot,` for the attribute fields.
    pub(crate) attr_ctor: TokenStream,
}

/// A field's or variant's element name: `rename`, else its Rust name by the container's
/// `rename_all` rule, else as written (without `r#`).
fn local_name(fa: &FieldAttrs, c: &Container, rust_name: &str) -> String {
    match (&fa.rename, &c.rename_all) {
        (Some(r), _) => r.clone(),
        (None, Some((rule, _))) => rename_all(rule, rust_name).unwrap_or_default(),
        (None, None) => rust_name.trim_start_matches("r#").to_owned(),
    }
}

/// A field's or variant's element namespace: none when `unqualified`, else its own or the
/// container's.
fn element_namespace(fa: &FieldAttrs, c: &Container) -> String {
    if fa.unqualified {
        String::new()
    } else {
        fa.namespace
            .clone()
            .or_else(|| c.namespace.clone())
            .unwrap_or_default()
    }
}

impl Struct {
    /// The fields `named` of `input`, a struct with container attributes `c`.
    pub(crate) fn read(
        input: &DeriveInput,
        c: &Container,
        named: &syn::FieldsNamed,
        errs: &mut Errors,
    ) -> Struct {
        let mut s = Struct::default();
        for (i, field) in named.named.iter().enumerate() {
            let Some(fident) = field.ident.clone() else {
                continue;
            };
            let fa = parse_field_attrs(&field.attrs, errs);
            let rust_name = fident.to_string();
            let local = local_name(&fa, c, &rust_name);
            let slot = slot_ident(i, &rust_name);
            s.ctor.extend(quote!(#fident: #slot,));
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
            if fa.any_attribute || fa.attribute {
                let a = if fa.any_attribute {
                    any_attribute(field, &fident, &fa, slot, errs)
                } else {
                    attribute(field, &fident, &fa, slot, local, errs)
                };
                if let Some(a) = a {
                    let slot = &a.slot;
                    s.attr_ctor.extend(quote!(#fident: #slot,));
                    s.attributes.push(a);
                }
            } else if fa.text || fa.content {
                s.read_content(field, &fident, &fa, slot, errs);
            } else if let Some(e) = element(field, &fident, &fa, c, slot, local, errs) {
                s.elements.push(e);
                s.element_types.push((fident.clone(), field.ty.clone()));
            }
        }
        s.check(input, c, errs);
        s
    }

    /// The `text` or `content` field: the element's content, which occurs once (a `text` field's
    /// may be nil, XML Schema Part 1 §2.6.2: nil content, attributes kept).
    fn read_content(
        &mut self,
        field: &syn::Field,
        fident: &syn::Ident,
        fa: &FieldAttrs,
        slot: syn::Ident,
        errs: &mut Errors,
    ) {
        let nillable_ok = fa.text && fa.occurs == Some(Occurrence::Nillable);
        if fa.occurs.is_some_and(|o| o != Occurrence::One) && !nillable_ok {
            errs.push(syn::Error::new(
                field.ty.span(),
                "a `text` or `content` field is the element's content: it occurs once \
                 (a `text` field may be `occurs = \"nillable\"`)",
            ));
            return;
        }
        if self.content.is_some() {
            errs.push(syn::Error::new(
                fident.span(),
                "only one field can be `text` or `content` (the element's content)",
            ));
            return;
        }
        self.content = Some(Content {
            field: fident.clone(),
            slot,
            ty: field.ty.clone(),
            raw: fa.content,
            occurs: fa.occurs,
        });
    }

    /// Content and child elements do not mix; a `sequence` struct holds elements only and is not
    /// generic.
    fn check(&self, input: &DeriveInput, c: &Container, errs: &mut Errors) {
        if let (Some(t), Some(first)) = (&self.content, self.elements.first()) {
            errs.push(syn::Error::new(
                t.field.span(),
                "a struct with a `text` or `content` field cannot have element fields",
            ));
            errs.push(syn::Error::new(
                first.span,
                "this field would be a child element",
            ));
        }
        // Read by name, a child no field takes goes to the wildcard: there is one (a `sequence`
        // struct reads by position and may hold several).
        if !c.sequence {
            for extra in self.elements.iter().filter(|e| e.any).skip(1) {
                errs.push(syn::Error::new(
                    extra.span,
                    "a struct takes one `any` field: it collects every child element no other \
                     field takes (XML Schema Part 1 §3.10); for wildcards at several positions, \
                     use a `sequence` struct",
                ));
            }
        }
        if c.sequence {
            if self.content.is_some() {
                errs.push(syn::Error::new(
                    input.ident.span(),
                    "a `sequence` struct holds element, `any` and `group` fields only (no `text` or `content`)",
                ));
            }
            if !input.generics.params.is_empty() {
                errs.push(syn::Error::new(
                    input.generics.span(),
                    "a `sequence` struct cannot be generic",
                ));
            }
        }
    }

    /// The content's inner type when it is `Nillable<T>` simple content: nil content with the
    /// attributes kept (XML Schema Part 1 §2.6.2).
    pub(crate) fn nillable_text(&self) -> Option<Type> {
        match &self.content {
            Some(t) if !t.raw => {
                let shape = shape(&t.ty, t.occurs);
                (shape.card == Occurrence::Nillable && !shape.boxed).then_some(shape.inner)
            }
            _ => None,
        }
    }
}

/// An `any_attribute` field (`xs:anyAttribute`, XML Schema Part 1 §3.10): `Vec<AnyAttribute>`.
fn any_attribute(
    field: &syn::Field,
    fident: &syn::Ident,
    fa: &FieldAttrs,
    slot: syn::Ident,
    errs: &mut Errors,
) -> Option<AttributeField> {
    let shape = shape(&field.ty, fa.occurs);
    if fa.attribute
        || fa.text
        || fa.any
        || fa.content
        || fa.group
        || shape.card != Occurrence::Many
        || shape.boxed
    {
        errs.push(syn::Error::new(
            field.ty.span(),
            "an `any_attribute` field (xs:anyAttribute) is `Vec<AnyAttribute>` and takes no \
             other xml attribute",
        ));
        return None;
    }
    Some(AttributeField {
        slot,
        access: quote!(&self.#fident),
        namespace: String::new(),
        local: String::new(),
        optional: false,
        constraint: None,
        any: true,
        ty: shape.inner,
        span: field.ty.span(),
    })
}

/// An `attribute` field: a simple type `T` (required, or with a default) or `Option<T>`
/// (XML Schema Part 1 §3.2.1 use, default, fixed).
fn attribute(
    field: &syn::Field,
    fident: &syn::Ident,
    fa: &FieldAttrs,
    slot: syn::Ident,
    local: String,
    errs: &mut Errors,
) -> Option<AttributeField> {
    let shape = shape(&field.ty, fa.occurs);
    if fa.constraint.is_some() && (shape.card != Occurrence::One || shape.boxed) {
        errs.push(syn::Error::new(
            field.ty.span(),
            "an attribute with a `default` or `fixed` value is a `T` field (absent reads as \
             that value), not `Option<T>`",
        ));
        return None;
    }
    let (optional, ty) = match shape.card {
        Occurrence::One if !shape.boxed => (false, field.ty.clone()),
        Occurrence::Optional if !shape.boxed => (true, shape.inner.clone()),
        _ => {
            errs.push(syn::Error::new(
                field.ty.span(),
                "an attribute field must be a simple type `T` or `Option<T>`",
            ));
            return None;
        }
    };
    Some(AttributeField {
        slot,
        access: quote!(&self.#fident),
        // Attributes are unqualified unless a namespace is given (attributeFormDefault).
        namespace: fa.namespace.clone().unwrap_or_default(),
        local,
        optional,
        constraint: fa.constraint.as_ref().map(|(v, f, _)| (v.clone(), *f)),
        any: false,
        ty,
        span: field.ty.span(),
    })
}

/// An element field: an element, an `any` wildcard (`Vec` or `Option<AnyElement>`) or a
/// `group` (`G`, `Option<G>`, `Vec<G>`), with its minOccurs.
fn element(
    field: &syn::Field,
    fident: &syn::Ident,
    fa: &FieldAttrs,
    c: &Container,
    slot: syn::Ident,
    local: String,
    errs: &mut Errors,
) -> Option<ElementField> {
    let shape = shape(&field.ty, fa.occurs);
    let refuse = |errs: &mut Errors, at: Span, message: &str| {
        errs.push(syn::Error::new(at, message));
        None
    };
    if fa.group
        && (fa.any
            || !matches!(
                shape.card,
                Occurrence::One | Occurrence::Optional | Occurrence::Many
            ))
    {
        return refuse(
            errs,
            field.ty.span(),
            "a `group` field (a choice enum or sequence struct) is `G`, `Option<G>` or `Vec<G>`",
        );
    }
    if shape.inferred() && (fa.group || fa.any || c.sequence) {
        return refuse(
            errs,
            field.ty.span(),
            "with `occurs`, a `group` or `any` field, or a field of a `sequence` struct, \
             writes its container (`Vec<T>`, `Option<T>`, …), not a type alias: its reader \
             names the item type",
        );
    }
    if fa.any && !matches!(shape.card, Occurrence::Many | Occurrence::Optional) {
        return refuse(
            errs,
            field.ty.span(),
            "an `any` field (xs:any) is `Vec<AnyElement>` or `Option<AnyElement>`",
        );
    }
    let min = match fa.min {
        Some((_, at))
            if fa.any || !matches!(shape.card, Occurrence::Many | Occurrence::ManyNillable) =>
        {
            return refuse(
                errs,
                at,
                "`min` (minOccurs) is for a repeated element or group field: `Vec<T>`",
            );
        }
        Some((n, _)) => n,
        None => 0,
    };
    Some(ElementField {
        slot,
        access: quote!(&self.#fident),
        namespace: element_namespace(fa, c),
        local,
        shape,
        span: field.ty.span(),
        any: fa.any,
        group: fa.group,
        default: fa.constraint.as_ref().map(|(v, _, _)| v.clone()),
        min,
    })
}

/// An error at the generics unless `input` has none (`what` cannot be generic).
pub(crate) fn refuse_generics(input: &DeriveInput, what: &str, errs: &mut Errors) {
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

/// One alternative of a choice: its variant and the element (or group, or wildcard) it holds.
pub struct Variant {
    pub ident: syn::Ident,
    pub field: ElementField,
}

/// The variants of `e`, a choice enum with container attributes `c`: each an element (its name
/// from the variant, `rename`, `namespace`, `unqualified`), a nested group (`group`) or a
/// wildcard (`any`), XML Schema Part 1 §3.8.
pub(crate) fn choice_variants(c: &Container, e: &syn::DataEnum, errs: &mut Errors) -> Vec<Variant> {
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
        let shape = shape(&field.ty, fa.occurs);
        if shape.inferred() {
            errs.push(syn::Error::new(
                field.ty.span(),
                "with `occurs`, a choice variant writes its container (`Vec<T>`, `Nillable<T>`), \
                 not a type alias: its reader names the item type",
            ));
            continue;
        }
        let allowed = if fa.group || fa.any {
            shape.card == Occurrence::One
        } else {
            !matches!(
                shape.card,
                Occurrence::Optional | Occurrence::OptionalNillable
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
        variants.push(Variant {
            ident: v.ident.clone(),
            field: ElementField {
                slot: slot_ident(i, &vname),
                access: quote!(__v),
                namespace: element_namespace(&fa, c),
                local: local_name(&fa, c, &vname),
                shape,
                span: field.ty.span(),
                any: fa.any,
                group: fa.group,
                default: None,
                min: 0,
            },
        });
    }
    variants
}

/// One type of a derivation enum: its variant, the type's name (namespace, local), the value
/// type and whether it is boxed.
pub(crate) struct Derived {
    pub(crate) ident: syn::Ident,
    pub(crate) namespace: String,
    pub(crate) local: String,
    pub(crate) ty: Type,
    pub(crate) boxed: bool,
}

/// An enum of a declared type and the types derived from it (XML Schema Part 1 §2.6.1
/// `xsi:type`, §3.4.6): the declared type's name and one [`Derived`] per variant.
pub(crate) struct Derivations {
    pub(crate) declared_ns: String,
    pub(crate) declared_local: String,
    pub(crate) variants: Vec<Derived>,
}

impl Derivations {
    /// The types of `e`, an `xsi_type` enum named `ident` with container attributes `c`.
    pub(crate) fn read(
        ident: &syn::Ident,
        c: &Container,
        e: &syn::DataEnum,
        errs: &mut Errors,
    ) -> Derivations {
        let declared_ns = c.namespace.clone().unwrap_or_default();
        let declared_local = c.type_name.clone().unwrap_or_else(|| ident.to_string());
        let mut variants: Vec<Derived> = Vec::new();
        for v in &e.variants {
            let expected = "an `xsi_type` variant holds one value: `Type(T)` or `Type(Box<T>)`";
            let Some(field) = single_value(v, expected, errs) else {
                continue;
            };
            let fa = parse_field_attrs(&v.attrs, errs);
            if fa.attribute || fa.text || fa.content || fa.any || fa.group {
                errs.push(syn::Error::new(
                    v.ident.span(),
                    "an `xsi_type` variant takes `rename`, `namespace` or `unqualified` (its type's name)",
                ));
            }
            let shape = shape(&field.ty, fa.occurs);
            if shape.card != Occurrence::One {
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
                .any(|d| d.namespace == namespace && d.local == local)
            {
                errs.push(syn::Error::new(
                    v.ident.span(),
                    format!("two variants name the type {{{namespace}}}{local}"),
                ));
            }
            variants.push(Derived {
                ident: v.ident.clone(),
                namespace,
                local,
                ty: shape.inner,
                boxed: shape.boxed,
            });
        }
        Derivations {
            declared_ns,
            declared_local,
            variants,
        }
    }

    /// Whether `d` is the declared type itself (written without `xsi:type`).
    pub(crate) fn is_declared(&self, d: &Derived) -> bool {
        d.namespace == self.declared_ns && d.local == self.declared_local
    }
}

/// Whether `e` is a choice (every variant holds a value) rather than an enumeration.
pub(crate) fn is_choice(e: &syn::DataEnum) -> bool {
    !e.variants.is_empty() && e.variants.iter().all(|v| !matches!(v.fields, Fields::Unit))
}

/// The values of `e`, an enumeration (XML Schema Part 2 §4.3.5) with container attributes `c`:
/// each variant and its text (`rename`, or the `rename_all` rule).
pub(crate) fn enumeration_values(
    c: &Container,
    e: &syn::DataEnum,
    errs: &mut Errors,
) -> Vec<(syn::Ident, String)> {
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
            (None, Some((rule, _))) => rename_all(rule, &v.ident.to_string()).unwrap_or_default(),
            (None, None) => v.ident.to_string(),
        };
        values.push((v.ident.clone(), text));
    }
    values
}
