//! The generated code speaks the macros' vocabulary (the `soapgen-contract` crate): every key of
//! every `#[xml(...)]`, `#[soap(...)]` and `#[soap_client(...)]` it writes is one the macros read
//! there, every `occurs`/`result_occurs` value is an `Occurrence`, and the occurrence of every
//! field, choice variant, parameter and result that is not `one` is written out, never left to
//! the macros to infer from the type's name.

use std::path::PathBuf;

use soapgen_contract::{keys, Occurrence};
use syn::{Attribute, FnArg, Item, ReturnType, TraitItem, Type};

/// Each key of attribute `attr` (`#[xml(a, b = "…", c(…))]`), with the value of
/// `occurs`/`result_occurs`.
fn keys_of(attr: &Attribute) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    attr.parse_nested_meta(|meta| {
        let key = meta.path.get_ident().expect("a plain key").to_string();
        let mut value = None;
        if meta.input.peek(syn::Token![=]) {
            let expr: syn::Expr = meta.value()?.parse()?;
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = expr
            {
                value = Some(s.value());
            }
        } else if meta.input.peek(syn::token::Paren) {
            meta.parse_nested_meta(|inner| {
                if inner.input.peek(syn::Token![=]) {
                    let _: syn::Expr = inner.value()?.parse()?;
                }
                Ok(())
            })?;
        }
        out.push((key, value));
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{}: {e}", quote::quote!(#attr)));
    out
}

/// What the macros would read from the type's name without `occurs` (their default).
fn by_name(ty: &Type) -> Occurrence {
    let Type::Path(p) = ty else {
        return Occurrence::One;
    };
    let seg = p.path.segments.last().expect("a path");
    let inner = match &seg.arguments {
        syn::PathArguments::AngleBracketed(a) => match a.args.first() {
            Some(syn::GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    };
    let named = |t: &Type, n: &str| matches!(t, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == n));
    match (seg.ident.to_string().as_str(), inner) {
        ("OptionalNillable", Some(_)) => Occurrence::OptionalNillable,
        ("Option", Some(t)) if named(t, "Nillable") => Occurrence::OptionalNillable,
        ("Option", Some(_)) => Occurrence::Optional,
        ("Vec", Some(t)) if named(t, "Nillable") => Occurrence::ManyNillable,
        ("Vec", Some(_)) => Occurrence::Many,
        ("Nillable", Some(_)) => Occurrence::Nillable,
        _ => Occurrence::One,
    }
}

#[derive(Default)]
struct Seen {
    /// (where, occurrence) of every field, variant, parameter and result checked.
    occurrences: Vec<(String, Occurrence)>,
}

impl Seen {
    /// Checks the attributes named `path` among `attrs` against `allowed`, and that the
    /// occurrence under `occurs_key` is the one the type holds (written unless `one`).
    fn check(
        &mut self,
        at: &str,
        attrs: &[Attribute],
        path: &str,
        allowed: &[&str],
        occurs_key: &str,
        ty: Option<&Type>,
    ) {
        let mut written = None;
        for a in attrs.iter().filter(|a| a.path().is_ident(path)) {
            for (k, v) in keys_of(a) {
                assert!(
                    allowed.contains(&k.as_str()),
                    "{at}: `{k}` is not a key of {allowed:?}"
                );
                if k == occurs_key {
                    let v = v.unwrap_or_default();
                    let o = Occurrence::from_keyword(&v)
                        .unwrap_or_else(|| panic!("{at}: `{occurs_key} = {v:?}` is no occurrence"));
                    written = Some(o);
                }
            }
        }
        let Some(ty) = ty else { return };
        let typed = by_name(ty);
        match written {
            Some(o) => {
                assert_ne!(o, Occurrence::One, "{at}: `one` is left implicit");
                assert_eq!(o, typed, "{at}: `{occurs_key}` and the type disagree");
            }
            None => assert_eq!(
                typed,
                Occurrence::One,
                "{at}: the {typed:?} occurrence is not written"
            ),
        }
        self.occurrences.push((at.to_owned(), typed));
    }

    fn items(&mut self, items: &[Item]) {
        for item in items {
            match item {
                Item::Mod(m) => self.items(m.content.as_ref().map_or(&[][..], |(_, i)| i)),
                Item::Struct(s) => {
                    self.check(&s.ident.to_string(), &s.attrs, "xml", keys::TYPE, "", None);
                    for f in &s.fields {
                        let at = format!("{}.{}", s.ident, f.ident.as_ref().expect("named"));
                        self.check(&at, &f.attrs, "xml", keys::FIELD, keys::OCCURS, Some(&f.ty));
                    }
                }
                Item::Enum(e) => {
                    self.check(&e.ident.to_string(), &e.attrs, "xml", keys::TYPE, "", None);
                    for v in &e.variants {
                        let at = format!("{}::{}", e.ident, v.ident);
                        let ty = v.fields.iter().next().map(|f| &f.ty);
                        self.check(&at, &v.attrs, "xml", keys::FIELD, keys::OCCURS, ty);
                    }
                }
                Item::Trait(t) => {
                    let client = t.attrs.iter().find(|a| {
                        a.path()
                            .segments
                            .last()
                            .is_some_and(|s| s.ident == "soap_client")
                    });
                    let client = client.expect("every generated trait is a #[soap_client]");
                    for (k, _) in keys_of(client) {
                        assert!(keys::CLIENT.contains(&k.as_str()), "{}: `{k}`", t.ident);
                    }
                    for ti in &t.items {
                        let TraitItem::Fn(m) = ti else { continue };
                        let at = format!("{}::{}", t.ident, m.sig.ident);
                        let result = match &m.sig.output {
                            ReturnType::Type(_, ty) => ok_type(ty),
                            ReturnType::Default => None,
                        };
                        self.check(
                            &at,
                            &m.attrs,
                            "soap",
                            keys::METHOD,
                            keys::RESULT_OCCURS,
                            result,
                        );
                        for arg in &m.sig.inputs {
                            let FnArg::Typed(pt) = arg else { continue };
                            let pat = &pt.pat;
                            let at = format!("{at}({})", quote::quote!(#pat));
                            let ty = Some(&*pt.ty);
                            self.check(&at, &pt.attrs, "soap", keys::PARAMETER, keys::OCCURS, ty);
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// `T` of `Result<T, E>`, the body's result (the first of a tuple with response attachments).
fn ok_type(ty: &Type) -> Option<&Type> {
    let Type::Path(p) = ty else { return None };
    let syn::PathArguments::AngleBracketed(a) = &p.path.segments.last()?.arguments else {
        return None;
    };
    match a.args.first()? {
        syn::GenericArgument::Type(Type::Tuple(t)) => t.elems.first(),
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    }
}

#[test]
fn generated_code_writes_only_contract_keys_and_every_occurrence() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/wsdl");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wsdl"))
        .collect();
    names.sort();
    let mut seen = Seen::default();
    let mut generated = 0;
    for path in &names {
        // Some fixtures are meant to fail (bad input); the others are checked.
        let Ok(g) = soapgen_build::Builder::new().generate_one(path) else {
            continue;
        };
        generated += 1;
        let file = syn::parse_file(&g.code).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        seen.items(&file.items);
    }
    assert!(
        generated >= 10,
        "only {generated} of {} fixtures generate",
        names.len()
    );
    // The fixtures hold every occurrence, so each was checked somewhere.
    for o in Occurrence::ALL {
        assert!(
            seen.occurrences.iter().any(|(_, s)| *s == o),
            "no fixture has a {o:?} field, variant, parameter or result"
        );
    }
}
