//! Emission: the model as Rust source, formatted with prettyplease. The output is what a person would
//! write by hand for the trait route: structs and enums with `#[derive(ToXml, FromXml)]` in a `types`
//! module, and one `#[soap_client]` trait per client of the model (a portType's SOAP bindings that
//! differ only in version, `soap = "1.1, 1.2"`); the runtime's macros do the rest.
//! [`sample`] writes the model of one operation as a sample request envelope instead.
//!
//! # Building values
//!
//! Generated structs are built with constructors, not builders. A struct whose every field has a
//! natural default implements `Default`: optional elements (`Option`, `None`), repeated ones with
//! minOccurs 0 (`Vec`, empty), optional nillable ones (`OptionalNillable`, absent), optional
//! attributes, `xs:anyAttribute` and attributes with a `default` or `fixed` value (that value; XML
//! Schema Part 1 §3.9.1, §3.3.1, §3.2.1). Any other struct has `new` taking its required fields in
//! schema order (elements occurring at least once, nillable or not, the simple content, mixed
//! content, attributes without a default), every other field taking its default. More fields are
//! set with struct update syntax:
//!
//! ```text
//! let req = types::GetOrders { from: "2024-01-01".parse()?, ..types::GetOrders::new(customer_id) };
//! let all = types::ListCustomers { page: 2.into(), ..Default::default() };
//! ```
//!
//! An `xsi:type` enum (`…Kind`, XML Schema Part 1 §2.6.1) converts from each of its structs
//! (`From`, so `.into()`); choices and enumerations have no natural default and get neither.
//! Constructors are `#[inline]`, so that unused ones cost nothing to compile.

mod client;
mod codecs;
mod docs;
mod enums;
mod policy;
pub mod sample;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;

use crate::model::ir::*;
use soapgen_contract::keys;

/// Settings of emission.
#[derive(Debug, Clone)]
pub struct EmitOptions {
    /// Path of the runtime crate in generated code (default `::soapgen_runtime`).
    pub runtime: String,
    /// Carry `wsdl:documentation` and `xs:documentation` into doc comments.
    pub docs: bool,
    /// Also generate `…BlockingClient`s (needs the runtime's `blocking` feature, on by default).
    pub blocking: bool,
    /// Clients write request payloads with default-namespace declarations instead of prefixes
    /// (`#[soap_client(default_namespaces)]`; Namespaces in XML 1.0 §6.2).
    pub default_namespaces: bool,
    /// Every type derives both its writer and its reader, whatever directions the operations use
    /// it in ([`Uses`]).
    pub both_directions: bool,
    /// Whether each client carries its in-process fake service (`#[soap_client(fake)]`, the
    /// runtime's `testing` feature), and under which Cargo feature of the generated code's crate.
    pub fake: Fake,
}

/// Whether generated clients carry their in-process fake service: `fake`/`fake_transport`
/// constructors over a dispatcher of the service trait (the runtime's `testing` feature), and
/// readers for request types that would otherwise only be written.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Fake {
    /// No fake (the default).
    #[default]
    Off,
    /// Always generated.
    Always,
    /// Generated when the generated code's crate has this Cargo feature on (a
    /// `#[cfg_attr(feature = …)]` choosing between the two attributes): production builds
    /// compile no fake.
    Feature(String),
}

impl Default for EmitOptions {
    fn default() -> Self {
        EmitOptions {
            runtime: "::soapgen_runtime".to_owned(),
            docs: true,
            blocking: true,
            default_namespaces: false,
            both_directions: false,
            fake: Fake::Off,
        }
    }
}

/// `occurs = "…"` (or `key = "…"`: `result_occurs` on a method) for an occurrence other than
/// [`Occurrence::One`]: the occurrence is written out, never left to the macros to infer from the
/// type's name (a field without it is `one`; the generated types it holds are not generic).
fn occurs_arg(key: &str, card: Occurrence) -> Option<TokenStream> {
    (card != Occurrence::One).then(|| {
        let key = Ident::new(key, Span::call_site());
        let value = card.keyword();
        quote!(#key = #value)
    })
}

fn ident(name: &str) -> Ident {
    match name.strip_prefix("r#") {
        Some(raw) => Ident::new_raw(raw, Span::call_site()),
        None => Ident::new(name, Span::call_site()),
    }
}

fn doc_attrs(doc: Option<&Doc>, enabled: bool) -> TokenStream {
    let Some(doc) = doc.filter(|_| enabled) else {
        return TokenStream::new();
    };
    let mut out = TokenStream::new();
    for line in docs::markdown(doc).lines() {
        // A leading space reads as `/// text`.
        let l = format!(" {line}");
        out.extend(quote!(#[doc = #l]));
    }
    out
}

/// `/// Generated from …` (after a blank doc line when there is documentation above).
fn origin_attrs(origin: &str, after_doc: bool) -> TokenStream {
    // `{namespace}name` in backticks: rustdoc would take the namespace URL for a bare link.
    let origin = match origin.split_once(' ') {
        // A kind and a name: the name in code (`complexType `{urn:x}Foo``).
        Some((kind, name)) if !name.contains(' ') => format!("{kind} `{name}`"),
        // A phrase (`the 2 parts of the rpc response of operation Divide`): as it is.
        Some(_) => origin.to_owned(),
        None => format!("`{origin}`"),
    };
    origin_line(&format!("Generated from {origin}."), after_doc)
}

/// One doc line soapgen writes itself (kept with `docs(false)`), after a blank line when there is
/// documentation above.
fn origin_line(text: &str, after_doc: bool) -> TokenStream {
    let line = format!(" {text}");
    if after_doc {
        quote!(#[doc = ""] #[doc = #line])
    } else {
        quote!(#[doc = #line])
    }
}

/// How a struct field is filled when `new` does not take it.
enum FieldInit {
    /// `Default::default()`: absent (`None`, `OptionalNillable::Absent`) or empty (`Vec`).
    Default,
    /// An attribute's `default` or `fixed` value (XML Schema Part 1 §3.2.1), as a Rust expression.
    Value(TokenStream),
    /// A parameter of `new`.
    Required,
}

/// The XML whitespace characters trimmed (XML Schema Part 2 §4.3.6 `collapse` of one token).
fn collapse(text: &str) -> &str {
    text.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// The value the runtime reads `literal` as for a `base` (XML Schema Part 2 §3.2 lexical spaces), as
/// a Rust expression: strings, booleans, bounded integers, floats, enumeration values and aliases
/// of these. `None` for other types, or a literal that is not of the type (the runtime then reports
/// it when reading): the field is then a parameter of `new`.
fn constant(base: &Base, literal: &str, types: &[TypeDecl], depth: usize) -> Option<TokenStream> {
    use proc_macro2::Literal;
    let t = collapse(literal);
    let negated = |neg: bool, lit: TokenStream| if neg { quote!(-#lit) } else { lit };
    match base {
        Base::Std("String") => Some(quote!(::std::string::String::from(#literal))),
        Base::Std("bool") => match t {
            "true" | "1" => Some(quote!(true)),
            "false" | "0" => Some(quote!(false)),
            _ => None,
        },
        Base::Std(int @ ("i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64")) => {
            let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let v: i128 = t.parse().ok()?;
            let fits = match *int {
                "i8" => i8::try_from(v).is_ok(),
                "i16" => i16::try_from(v).is_ok(),
                "i32" => i32::try_from(v).is_ok(),
                "i64" => i64::try_from(v).is_ok(),
                "u8" => u8::try_from(v).is_ok(),
                "u16" => u16::try_from(v).is_ok(),
                "u32" => u32::try_from(v).is_ok(),
                _ => u64::try_from(v).is_ok(),
            };
            let lit = Literal::u128_unsuffixed(v.unsigned_abs());
            fits.then(|| negated(v < 0, quote!(#lit)))
        }
        Base::Std(float @ ("f32" | "f64")) => {
            let ty = ident(float);
            let special = match t {
                "INF" | "+INF" => Some(quote!(::core::primitive::#ty::INFINITY)),
                "-INF" => Some(quote!(::core::primitive::#ty::NEG_INFINITY)),
                "NaN" => Some(quote!(::core::primitive::#ty::NAN)),
                _ => None,
            };
            if special.is_some() {
                return special;
            }
            // The XSD form `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([Ee][+-]?[0-9]+)?`, which Rust's
            // parser reads the same way once the characters are these.
            if !t.bytes().any(|b| b.is_ascii_digit())
                || !t
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b"+-.eE".contains(&b))
            {
                return None;
            }
            let (neg, lit) = if *float == "f32" {
                let v: f32 = t.parse().ok()?;
                (v.is_sign_negative(), Literal::f32_unsuffixed(v.abs()))
            } else {
                let v: f64 = t.parse().ok()?;
                (v.is_sign_negative(), Literal::f64_unsuffixed(v.abs()))
            };
            Some(negated(neg, quote!(#lit)))
        }
        Base::Named(n) => match types.iter().find(|d| d.name() == n)? {
            TypeDecl::Enum(e) => {
                // As the derive reads it: the exact text first, then the collapsed one.
                let (variant, _) = e
                    .values
                    .iter()
                    .find(|(_, v)| v == literal)
                    .or_else(|| e.values.iter().find(|(_, v)| v == t))?;
                let (ty, variant) = (ident(&e.name), ident(variant));
                Some(quote!(#ty::#variant))
            }
            TypeDecl::Alias(a) if depth < 16 => constant(&a.target, literal, types, depth + 1),
            _ => None,
        },
        _ => None,
    }
}

struct Emitter<'a> {
    opts: &'a EmitOptions,
    rt: TokenStream,
    /// The runtime path as a string, for attribute arguments.
    rt_attr: Option<String>,
}

impl Emitter<'_> {
    fn base(&self, b: &Base, in_types: bool) -> TokenStream {
        let rt = &self.rt;
        match b {
            Base::Std("String") => quote!(::std::string::String),
            Base::Std(p) => {
                let i = ident(p);
                quote!(#i)
            }
            Base::Runtime(p) => {
                let path: syn::Path = syn::parse_str(p).expect("runtime paths are valid");
                quote!(#rt::#path)
            }
            Base::Named(n) => {
                let i = ident(n);
                if in_types {
                    quote!(#i)
                } else {
                    quote!(types::#i)
                }
            }
            Base::List(item) => {
                let item = self.base(item, in_types);
                quote!(#rt::types::List<#item>)
            }
            Base::SoapArray(item) => {
                let item = self.base(item, in_types);
                quote!(#rt::types::SoapArray<#item>)
            }
        }
    }

    fn type_expr(&self, t: &TypeExpr, in_types: bool) -> TokenStream {
        let rt = &self.rt;
        let mut inner = self.base(&t.base, in_types);
        if t.boxed {
            inner = quote!(::std::boxed::Box<#inner>);
        }
        match t.card {
            Occurrence::One => inner,
            Occurrence::Optional => quote!(::core::option::Option<#inner>),
            Occurrence::Many => quote!(::std::vec::Vec<#inner>),
            Occurrence::Nillable => quote!(#rt::types::Nillable<#inner>),
            Occurrence::OptionalNillable => quote!(#rt::types::OptionalNillable<#inner>),
            Occurrence::ManyNillable => quote!(::std::vec::Vec<#rt::types::Nillable<#inner>>),
        }
    }

    fn crate_arg(&self) -> TokenStream {
        match &self.rt_attr {
            Some(p) => quote!(crate = #p,),
            None => TokenStream::new(),
        }
    }

    /// How `new` and `Default` fill field `f` (XML Schema Part 1 §3.9.1 minOccurs, §3.3.1
    /// {nillable}, §3.2.1 attribute {value constraint}).
    fn field_init(&self, f: &FieldDecl, types: &[TypeDecl]) -> FieldInit {
        match f.kind {
            FieldKind::AnyAttribute => FieldInit::Default,
            FieldKind::Attribute => match (&f.constraint, f.ty.card) {
                (_, Occurrence::Optional) => FieldInit::Default,
                (Some((literal, _)), Occurrence::One) if !f.ty.boxed => {
                    match constant(&f.ty.base, literal, types, 0) {
                        Some(v) => FieldInit::Value(v),
                        None => FieldInit::Required,
                    }
                }
                _ => FieldInit::Required,
            },
            _ => match f.ty.card {
                Occurrence::Optional | Occurrence::OptionalNillable => FieldInit::Default,
                Occurrence::Many | Occurrence::ManyNillable if f.min_occurs == 0 => {
                    FieldInit::Default
                }
                Occurrence::One
                | Occurrence::Nillable
                | Occurrence::Many
                | Occurrence::ManyNillable => FieldInit::Required,
            },
        }
    }

    /// `impl Default` or `new` for a struct (see the module docs, "Building values"), and whether
    /// `#[derive(Default)]` gives the right value instead.
    fn struct_ctor(&self, s: &StructDecl, types: &[TypeDecl]) -> (bool, TokenStream) {
        let name = ident(&s.name);
        let inits: Vec<(&FieldDecl, FieldInit)> = s
            .fields
            .iter()
            .map(|f| (f, self.field_init(f, types)))
            .collect();
        if inits.iter().all(|(_, i)| matches!(i, FieldInit::Default)) {
            return (true, TokenStream::new());
        }
        let values = inits.iter().map(|(f, i)| {
            let fname = ident(&f.name);
            match i {
                FieldInit::Default => quote!(#fname: ::core::default::Default::default()),
                FieldInit::Value(v) => quote!(#fname: #v),
                FieldInit::Required => quote!(#fname),
            }
        });
        let required: Vec<TokenStream> = inits
            .iter()
            .filter(|(_, i)| matches!(i, FieldInit::Required))
            .map(|(f, _)| {
                let fname = ident(&f.name);
                let ty = self.type_expr(&f.ty, true);
                quote!(#fname: #ty)
            })
            .collect();
        let constrained = inits.iter().any(|(_, i)| matches!(i, FieldInit::Value(_)));
        let rest = if constrained {
            " (XML Schema Part 1 §3.9.1), attributes at the schema's `default` or `fixed` value \
             (§3.2.1)."
        } else {
            " (XML Schema Part 1 §3.9.1)."
        };
        if required.is_empty() {
            let doc = " Every field absent or empty";
            return (
                false,
                quote! {
                    impl ::core::default::Default for #name {
                        #[doc = #doc]
                        #[doc = #rest]
                        #[inline]
                        fn default() -> Self {
                            Self { #(#values),* }
                        }
                    }
                },
            );
        }
        let doc = " Builds the value from its required fields, in schema order; the other fields absent or empty";
        (
            false,
            quote! {
                impl #name {
                    #[doc = #doc]
                    #[doc = #rest]
                    #[inline]
                    pub fn new(#(#required),*) -> Self {
                        Self { #(#values),* }
                    }
                }
            },
        )
    }

    fn struct_decl(&self, s: &StructDecl, types: &[TypeDecl]) -> TokenStream {
        let name = ident(&s.name);
        let doc = doc_attrs(s.doc.as_ref(), self.opts.docs);
        let origin = origin_attrs(&s.origin, !doc.is_empty());
        let ns = &s.namespace;
        let krate = self.crate_arg();
        let mut cargs: Vec<TokenStream> = Vec::new();
        if !ns.is_empty() {
            cargs.push(quote!(namespace = #ns));
        }
        if s.sequence {
            cargs.push(quote!(sequence));
        }
        if s.encoded {
            cargs.push(quote!(encoded));
        }
        let container = if cargs.is_empty() && self.rt_attr.is_none() {
            TokenStream::new()
        } else {
            quote!(#[xml(#krate #(#cargs),*)])
        };
        let fields = s.fields.iter().map(|f| {
            let fname = ident(&f.name);
            let ty = self.type_expr(&f.ty, true);
            let fdoc = doc_attrs(f.doc.as_ref(), self.opts.docs);
            let local = &f.xml.local;
            let needs_rename = f.name.trim_start_matches("r#") != local;
            let mut args: Vec<TokenStream> = Vec::new();
            match f.kind {
                FieldKind::Attribute => {
                    args.push(quote!(attribute));
                    if needs_rename {
                        args.push(quote!(rename = #local));
                    }
                    if !f.xml.ns.is_empty() {
                        let n = &f.xml.ns;
                        args.push(quote!(namespace = #n));
                    }
                    match &f.constraint {
                        Some((v, true)) => args.push(quote!(fixed = #v)),
                        Some((v, false)) => args.push(quote!(default = #v)),
                        None => {}
                    }
                }
                FieldKind::Text => args.push(quote!(text)),
                FieldKind::Any => args.push(quote!(any)),
                FieldKind::AnyAttribute => args.push(quote!(any_attribute)),
                FieldKind::Content => args.push(quote!(content)),
                FieldKind::Group => args.push(quote!(group)),
                FieldKind::Element => {
                    if needs_rename {
                        args.push(quote!(rename = #local));
                    }
                    match &f.constraint {
                        Some((v, true)) => args.push(quote!(fixed = #v)),
                        Some((v, false)) => args.push(quote!(default = #v)),
                        None => {}
                    }
                    if f.xml.ns != s.namespace {
                        if f.xml.ns.is_empty() {
                            args.push(quote!(unqualified));
                        } else {
                            let n = &f.xml.ns;
                            args.push(quote!(namespace = #n));
                        }
                    }
                }
            }
            args.extend(occurs_arg(keys::OCCURS, f.ty.card));
            // minOccurs of a repeated element or group (XML Schema Part 1 §3.9.1), only when above 0.
            if f.min_occurs > 0
                && matches!(f.kind, FieldKind::Element | FieldKind::Group)
                && matches!(f.ty.card, Occurrence::Many | Occurrence::ManyNillable)
            {
                let n = proc_macro2::Literal::u64_unsuffixed(f.min_occurs);
                args.push(quote!(min = #n));
            }
            let attr = if args.is_empty() {
                TokenStream::new()
            } else {
                quote!(#[xml(#(#args),*)])
            };
            quote! {
                #fdoc
                #attr
                pub #fname: #ty,
            }
        });
        let (derive_default, ctor) = self.struct_ctor(s, types);
        let default = derive_default.then(|| quote!(Default,));
        let (codecs, gated) = self.codecs(s.uses);
        quote! {
            #doc
            #origin
            #[derive(Debug, Clone, PartialEq, #default #codecs)]
            #gated
            #container
            pub struct #name {
                #(#fields)*
            }
            #ctor
        }
    }

    /// An `xs:choice` as an enum of one-value variants (XML Schema Part 1 §3.8).
    fn choice_decl(&self, c: &ChoiceDecl) -> TokenStream {
        let name = ident(&c.name);
        let doc = doc_attrs(c.doc.as_ref(), self.opts.docs);
        let origin = origin_line(
            &format!("One occurrence of the {} (one alternative).", c.origin),
            !doc.is_empty(),
        );
        let krate = self.crate_arg();
        let ns = &c.namespace;
        let container = if ns.is_empty() {
            if self.rt_attr.is_some() {
                quote!(#[xml(#krate)])
            } else {
                TokenStream::new()
            }
        } else {
            quote!(#[xml(#krate namespace = #ns)])
        };
        let variants = c.variants.iter().map(|v| {
            let vi = ident(&v.name);
            let ty = self.type_expr(&v.ty, true);
            let vdoc = doc_attrs(v.doc.as_ref(), self.opts.docs);
            let mut args: Vec<TokenStream> = Vec::new();
            match &v.xml {
                None if v.any => args.push(quote!(any)),
                None => args.push(quote!(group)),
                Some(q) => {
                    if v.name.trim_start_matches("r#") != q.local {
                        let local = &q.local;
                        args.push(quote!(rename = #local));
                    }
                    if q.ns != c.namespace {
                        if q.ns.is_empty() {
                            args.push(quote!(unqualified));
                        } else {
                            let n = &q.ns;
                            args.push(quote!(namespace = #n));
                        }
                    }
                }
            }
            args.extend(occurs_arg(keys::OCCURS, v.ty.card));
            let attr = if args.is_empty() {
                TokenStream::new()
            } else {
                quote!(#[xml(#(#args),*)])
            };
            quote! {
                #vdoc
                #attr
                #vi(#ty),
            }
        });
        let (codecs, gated) = self.codecs(c.uses);
        quote! {
            #doc
            #origin
            #[derive(Debug, Clone, PartialEq, #codecs)]
            #gated
            #container
            pub enum #name {
                #(#variants)*
            }
        }
    }

    /// A complexType and its derived types as an `xsi_type` enum (XML Schema Part 1 §2.6.1).
    fn derivations_decl(&self, d: &DerivationsDecl) -> TokenStream {
        let name = ident(&d.name);
        let doc = doc_attrs(d.doc.as_ref(), self.opts.docs);
        let krate = self.crate_arg();
        let ns = &d.base.ns;
        let local = &d.base.local;
        let container = if ns.is_empty() {
            quote!(#[xml(#krate xsi_type, rename = #local)])
        } else {
            quote!(#[xml(#krate xsi_type, namespace = #ns, rename = #local)])
        };
        let variants = d.variants.iter().map(|v| {
            let vi = ident(&v.name);
            let ty = self.type_expr(&v.ty, true);
            let mut args: Vec<TokenStream> = Vec::new();
            if v.name.trim_start_matches("r#") != v.xsd_type.local {
                let l = &v.xsd_type.local;
                args.push(quote!(rename = #l));
            }
            if v.xsd_type.ns != d.base.ns {
                if v.xsd_type.ns.is_empty() {
                    args.push(quote!(unqualified));
                } else {
                    let n = &v.xsd_type.ns;
                    args.push(quote!(namespace = #n));
                }
            }
            let attr = if args.is_empty() {
                TokenStream::new()
            } else {
                quote!(#[xml(#(#args),*)])
            };
            let vdoc = format!(" `xsi:type` `{}`.", v.xsd_type);
            quote! {
                #[doc = #vdoc]
                #attr
                #vi(#ty),
            }
        });
        // `.into()` from each type's struct (boxed when the types are recursive).
        let mut seen: Vec<&Base> = Vec::new();
        let froms = d.variants.iter().filter_map(|v| {
            if seen.contains(&&v.ty.base) {
                return None;
            }
            seen.push(&v.ty.base);
            let vi = ident(&v.name);
            let ty = self.base(&v.ty.base, true);
            let value = if v.ty.boxed {
                quote!(::std::boxed::Box::new(v))
            } else {
                quote!(v)
            };
            Some(quote! {
                impl ::core::convert::From<#ty> for #name {
                    #[inline]
                    fn from(v: #ty) -> Self {
                        #name::#vi(#value)
                    }
                }
            })
        });
        let (codecs, gated) = self.codecs(d.uses);
        quote! {
            #doc
            #[derive(Debug, Clone, PartialEq, #codecs)]
            #gated
            #container
            pub enum #name {
                #(#variants)*
            }
            #(#froms)*
        }
    }

    /// `impl EncodedType` (SOAP 1.1 §5: the `xsi:type` of rpc/encoded parts and array items) for a
    /// struct or enum of an rpc/encoded module.
    fn encoded_type(&self, t: &TypeDecl) -> TokenStream {
        let rt = &self.rt;
        let (name, xsd) = match t {
            TypeDecl::Struct(s) => (&s.name, &s.xsd_type),
            TypeDecl::Enum(e) => (&e.name, &e.xsd_type),
            // The declared type; a derived value's own xsi:type replaces it when written.
            TypeDecl::Derivations(d) => (&d.name, &Some(d.base.clone())),
            _ => return TokenStream::new(),
        };
        let name = ident(name);
        let value = match xsd {
            Some(q) => {
                let ns = &q.ns;
                let local = &q.local;
                quote!(::core::option::Option::Some(#rt::xml::Name::new(#ns, #local)))
            }
            None => quote!(::core::option::Option::None),
        };
        quote! {
            impl #rt::types::EncodedType for #name {
                fn xsi_type() -> ::core::option::Option<#rt::xml::Name<'static>> {
                    #value
                }
            }
        }
    }

    fn alias_decl(&self, a: &AliasDecl) -> TokenStream {
        let name = ident(&a.name);
        let doc = doc_attrs(a.doc.as_ref(), self.opts.docs);
        let origin = origin_attrs(&a.origin, !doc.is_empty());
        let target = self.base(&a.target, true);
        quote! {
            #doc
            #origin
            pub type #name = #target;
        }
    }
}

/// The Rust type of `t` as the client traits spell it (`types::Foo`, `::std::vec::Vec<types::Foo>`,
/// `::soapgen_runtime::types::Nillable<…>`): the paths resolve beside the `types` module that
/// [`emit`] writes, with the runtime at `opts.runtime`. For code placed next to generated clients,
/// such as tests of an operation's result type.
pub fn type_source(t: &TypeExpr, opts: &EmitOptions) -> String {
    let rt: TokenStream = syn::parse_str::<syn::Path>(&opts.runtime)
        .map(|p| quote!(#p))
        .unwrap_or_else(|_| quote!(::soapgen_runtime));
    let rt_attr = (opts.runtime != "::soapgen_runtime").then(|| opts.runtime.clone());
    let e = Emitter { opts, rt, rt_attr };
    e.type_expr(t, false).to_string()
}

/// Emits `module` as formatted Rust source: a `types` module and the client traits, to be
/// `include!`d or written as a crate's `lib.rs` body. Deterministic: the same model gives the same
/// bytes.
pub fn emit(module: &Module, opts: &EmitOptions) -> String {
    let rt: TokenStream = syn::parse_str::<syn::Path>(&opts.runtime)
        .map(|p| quote!(#p))
        .unwrap_or_else(|_| quote!(::soapgen_runtime));
    let rt_attr = (opts.runtime != "::soapgen_runtime").then(|| opts.runtime.clone());
    let e = Emitter { opts, rt, rt_attr };
    let types = module.types.iter().map(|t| {
        let decl = match t {
            TypeDecl::Struct(s) => e.struct_decl(s, &module.types),
            TypeDecl::Enum(en) => e.enum_decl(en),
            TypeDecl::Alias(a) => e.alias_decl(a),
            TypeDecl::Faults(f) => e.faults_decl(f),
            TypeDecl::Choice(c) => e.choice_decl(c),
            TypeDecl::Derivations(d) => e.derivations_decl(d),
        };
        if module.encoded {
            let encoded = e.encoded_type(t);
            quote!(#decl #encoded)
        } else {
            decl
        }
    });
    let clients = module.clients.iter().map(|c| e.client(c));
    // What the schemas say of themselves, each under its namespace.
    let schema_docs = module.schema_docs.iter().map(|(ns, d)| {
        let mut doc = Doc::markdown(if ns.is_empty() {
            "The schema without a target namespace:".to_owned()
        } else {
            format!("The schema of `{ns}`:")
        });
        doc.push(Paragraph::Prose(d.clone()));
        let attrs = doc_attrs(Some(&doc), opts.docs);
        quote!(#[doc = ""] #attrs)
    });
    let tokens = quote! {
        /// The types of the service's messages.
        ///
        /// Building values: a struct whose fields are all optional (absent, empty, or an attribute
        /// with a schema default) implements `Default`; any other has `new(required fields in
        /// schema order)`, the other fields taking their defaults. Set more fields with struct
        /// update syntax, `Foo { bar: "x".into(), ..Foo::new(id) }`. An `xsi:type` enum (`…Kind`)
        /// converts from each of its structs with `.into()`.
        #(#schema_docs)*
        #[allow(clippy::all, clippy::pedantic, non_camel_case_types, non_snake_case, dead_code, missing_docs)]
        #[rustfmt::skip]
        pub mod types {
            #(#types)*
        }
        #(#clients)*
    };
    let file: syn::File = match syn::parse2(tokens.clone()) {
        Ok(f) => f,
        // Emission builds tokens from identifiers it validated; should parsing ever fail, keep the
        // unformatted tokens rather than lose the output.
        Err(_) => return tokens.to_string(),
    };
    let mut out = String::new();
    out.push_str(&format!(
        "// @generated by soapgen {} from {}. Do not edit: regenerate instead.\n",
        env!("CARGO_PKG_VERSION"),
        module.source
    ));
    if !module.notes.is_empty() {
        out.push_str("//\n// Not generated:\n");
        for n in &module.notes {
            out.push_str(&format!("// - {n}\n"));
        }
    }
    if !module.warnings.is_empty() {
        // The message only: locations are absolute paths, which would differ between checkouts.
        out.push_str("//\n// Warnings:\n");
        for w in &module.warnings {
            out.push_str(&format!("// - {}\n", w.message));
        }
    }
    out.push('\n');
    out.push_str(&prettyplease::unparse(&file));
    out
}
