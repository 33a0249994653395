//! The contract between soapgen's generator (`soapgen-build`) and its macros (`soapgen-macros`):
//! the values the generator writes into `#[xml(...)]`, `#[soap(...)]` and `#[soap_client(...)]`
//! attributes and the macros read back. Both crates use these definitions, so the generator cannot
//! write a key or value the macros do not know.
//!
//! - [`Occurrence`]: how often an element (or attribute, parameter, result) occurs, XML Schema Part 1
//!   §3.9.1 (particle minOccurs/maxOccurs) and §3.3.1 (nillable), with its attribute keyword;
//! - [`keys`]: every attribute key, by where it goes;
//! - [`RESERVED_METHODS`]: the generated clients' own method names, which no operation takes.
//!
//! What each key means is the `soapgen-macros` crate documentation (the attribute reference);
//! this crate only names them. It is a crate of its own because a proc-macro crate can export
//! nothing but macros.
#![no_std]
#![deny(missing_docs)]

mod location;
pub use location::{is_query_separator, location_template, TemplatePiece};

/// How many times an element occurs in its parent's content, and whether it may be nil: the
/// particle's minOccurs/maxOccurs (XML Schema Part 1 §3.9.1) and the element declaration's
/// nillable (§3.3.1, §2.6.2 `xsi:nil`). Attributes are [`One`](Occurrence::One) (`use="required"`, or
/// a `default`) or [`Optional`](Occurrence::Optional) (`use="optional"`, §3.2.1).
///
/// Written as `occurs = "…"` ([`keyword`](Occurrence::keyword)) on a field, choice variant or
/// parameter, `result_occurs = "…"` on a method. Each value has one Rust form, the field's type:
///
/// | value | minOccurs, maxOccurs, nillable | Rust type |
/// |---|---|---|
/// | `one` | 1, 1, false | `T` |
/// | `optional` | 0, 1, false | `Option<T>` |
/// | `many` | any, > 1 or unbounded, false | `Vec<T>` |
/// | `nillable` | 1, 1, true | `Nillable<T>` |
/// | `optional_nillable` | 0, 1, true | `OptionalNillable<T>` (or `Option<Nillable<T>>`) |
/// | `many_nillable` | any, > 1 or unbounded, true | `Vec<Nillable<T>>` |
///
/// (`T` may be `Box<T>`, a recursive type; a repeated element's minOccurs above 0 is `min = N`.)
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Occurrence {
    /// Exactly once (minOccurs = maxOccurs = 1): `T`.
    One,
    /// At most once (minOccurs 0, maxOccurs 1): `Option<T>`.
    Optional,
    /// Repeated (maxOccurs above 1 or unbounded): `Vec<T>`.
    Many,
    /// Exactly once, possibly `xsi:nil="true"`: `Nillable<T>`.
    Nillable,
    /// Absent, nil or a value (minOccurs 0, nillable): `OptionalNillable<T>`.
    OptionalNillable,
    /// Repeated, each occurrence possibly nil: `Vec<Nillable<T>>`.
    ManyNillable,
}

impl Occurrence {
    /// Every value, in the order of the table above.
    pub const ALL: [Occurrence; 6] = [
        Occurrence::One,
        Occurrence::Optional,
        Occurrence::Many,
        Occurrence::Nillable,
        Occurrence::OptionalNillable,
        Occurrence::ManyNillable,
    ];

    /// The attribute value: `one`, `optional`, `many`, `nillable`, `optional_nillable` or
    /// `many_nillable`.
    pub const fn keyword(self) -> &'static str {
        match self {
            Occurrence::One => "one",
            Occurrence::Optional => "optional",
            Occurrence::Many => "many",
            Occurrence::Nillable => "nillable",
            Occurrence::OptionalNillable => "optional_nillable",
            Occurrence::ManyNillable => "many_nillable",
        }
    }

    /// The value whose [`keyword`](Occurrence::keyword) is `keyword`; `None` for any other text.
    pub fn from_keyword(keyword: &str) -> Option<Occurrence> {
        Occurrence::ALL.into_iter().find(|o| o.keyword() == keyword)
    }

    /// minOccurs is 0: the element may be absent ([`Optional`](Occurrence::Optional),
    /// [`OptionalNillable`](Occurrence::OptionalNillable)). Repeated ones say their minOccurs with
    /// `min = N`.
    pub const fn is_optional(self) -> bool {
        matches!(self, Occurrence::Optional | Occurrence::OptionalNillable)
    }

    /// maxOccurs is above 1 ([`Many`](Occurrence::Many), [`ManyNillable`](Occurrence::ManyNillable)).
    pub const fn is_repeated(self) -> bool {
        matches!(self, Occurrence::Many | Occurrence::ManyNillable)
    }

    /// The element is nillable (§3.3.1): an occurrence may be `xsi:nil="true"`.
    pub const fn is_nillable(self) -> bool {
        matches!(
            self,
            Occurrence::Nillable | Occurrence::OptionalNillable | Occurrence::ManyNillable
        )
    }
}

/// The attribute keys, by where they go; the `soapgen-macros` crate documentation says what each
/// means. The macros refuse any other key, naming these.
pub mod keys {
    /// The key of an element's, attribute's or parameter's [`Occurrence`](crate::Occurrence).
    pub const OCCURS: &str = "occurs";
    /// The key of a method's result's [`Occurrence`](crate::Occurrence).
    pub const RESULT_OCCURS: &str = "result_occurs";

    /// `#[xml(...)]` on a struct or enum deriving `ToXml`/`FromXml`.
    pub const TYPE: &[&str] = &[
        "namespace",
        "rename",
        "rename_all",
        "sequence",
        "encoded",
        "xsi_type",
        "crate",
    ];
    /// `#[xml(...)]` on a field (or a choice variant, which takes `rename`, `namespace`,
    /// `unqualified`, `group`, `any` and `occurs`).
    pub const FIELD: &[&str] = &[
        "rename",
        "namespace",
        "unqualified",
        "attribute",
        "text",
        "any",
        "any_attribute",
        "content",
        "group",
        "default",
        "fixed",
        "min",
        OCCURS,
    ];
    /// `#[soap_client(...)]` on a trait.
    pub const CLIENT: &[&str] = &[
        "namespace",
        "soap",
        "style",
        "parameters",
        "element_form",
        "endpoint",
        "endpoints",
        "client",
        "addressing",
        "blocking",
        "fake",
        "default_namespaces",
        "crate",
    ];
    /// `#[soap(...)]` on a method.
    pub const METHOD: &[&str] = &[
        "name",
        "operation",
        "action",
        "reply_action",
        "response",
        "result",
        "namespace",
        "result_namespace",
        "result_min",
        RESULT_OCCURS,
        "response_namespace",
        "bare",
        "request_struct",
        "bare_response",
        "one_way",
        "empty_request",
        "response_attachment",
        "encoded",
        "rpc",
        "soap_response",
    ];
    /// `#[soap(...)]` on a parameter.
    pub const PARAMETER: &[&str] = &[
        "header",
        "rename",
        "namespace",
        "attachment",
        "content_type",
        OCCURS,
    ];
}

/// The generated clients' own method names (constructors, accessors, and `clone`, `clone_from`
/// and `fmt`, which would shadow `Clone` and `Debug` in method-call syntax): `#[soap_client]`
/// refuses an operation method of one of these names, and soapgen-build names operations around
/// them.
pub const RESERVED_METHODS: &[&str] = &[
    "new",
    "from_client",
    "client",
    "as_async",
    "soap11",
    "soap12",
    "with_default_endpoint",
    "with_soap_version",
    "with_soap_headers",
    "with_header",
    "soap_version",
    // The in-process fake's constructors (`#[soap_client(fake)]`).
    "fake",
    "fake_transport",
    "fake_service",
    // The blocking client's `with_response(|c| c.op(..))`.
    "with_response",
    // Inherent methods shadow trait methods in method-call syntax: `c.clone()` and `{:?}` must
    // keep meaning `Clone::clone` and `Debug::fmt`.
    "clone",
    "clone_from",
    "fmt",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_round_trip_and_differ() {
        for o in Occurrence::ALL {
            assert_eq!(Occurrence::from_keyword(o.keyword()), Some(o));
        }
        for (i, a) in Occurrence::ALL.iter().enumerate() {
            for b in &Occurrence::ALL[i + 1..] {
                assert_ne!(a.keyword(), b.keyword());
            }
        }
        assert_eq!(Occurrence::from_keyword("Many"), None);
        assert_eq!(Occurrence::from_keyword(""), None);
    }

    #[test]
    fn predicates_follow_min_max_and_nillable() {
        let optional: [bool; 6] = Occurrence::ALL.map(Occurrence::is_optional);
        let repeated: [bool; 6] = Occurrence::ALL.map(Occurrence::is_repeated);
        let nillable: [bool; 6] = Occurrence::ALL.map(Occurrence::is_nillable);
        assert_eq!(optional, [false, true, false, false, true, false]);
        assert_eq!(repeated, [false, false, true, false, false, true]);
        assert_eq!(nillable, [false, false, false, true, true, true]);
    }

    #[test]
    fn key_lists_hold_each_key_once() {
        for list in [
            keys::TYPE,
            keys::FIELD,
            keys::CLIENT,
            keys::METHOD,
            keys::PARAMETER,
            RESERVED_METHODS,
        ] {
            for (i, k) in list.iter().enumerate() {
                assert!(!list[i + 1..].contains(k), "{k} twice");
            }
        }
    }
}
