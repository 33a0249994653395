//! The state of one lowering: the [`Options`], the components read, the Rust names given so far,
//! the declarations made, the queue of types still to declare, and what the lowering has to say
//! (notes, warnings, fault sets). Each step of the lowering (the files beside this one) is a
//! method of [`Builder`].

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::error::{Error, ErrorKind, Loc, Warning};
use crate::model::ir::{Doc, FaultVariant, Paragraph, TypeDecl};
use crate::model::names::Scope;
use crate::model::select::Selection;
use crate::read::components::{Definitions, Occurs, QName, SchemaSet, TypeRef};

/// Choices of the model builder.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Leave out operations that use unsupported constructs (each listed in the module docs), instead
    /// of failing.
    pub skip_unsupported: bool,
    /// Which WSDL operations to generate (default all); only the types they reach are generated.
    pub selection: Selection,
    /// Refuse `use="encoded"` under `style="document"` (SOAP 1.1 §5 encoding is for rpc style,
    /// WS-I Basic Profile 1.0 R2706) instead of reading it as literal with a warning.
    pub strict_use: bool,
    /// The ports whose security the user configures by hand (their WS-SecurityPolicy is
    /// reported, not enforced or refused).
    pub manual_security: crate::model::security::ManualSecurity,
    /// The ports to generate (all by default).
    pub ports: crate::model::security::PortSelection,
}

/// What a named or element-anonymous type is generated as.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum TypeKey {
    Named(QName),
    Element(QName),
    /// A named complexType with derived types, as an element's declared type: the enum of it and
    /// them (XML Schema Part 1 §2.6.1 `xsi:type`).
    Derivations(QName),
}

/// The lowering of one [`Definitions`] into a module.
pub(super) struct Builder<'d> {
    pub(super) defs: &'d Definitions,
    pub(super) opts: &'d Options,
    /// Rust names of every named type and every element with an anonymous type.
    pub(super) names: BTreeMap<TypeKey, String>,
    pub(super) scope: Scope,
    pub(super) decls: BTreeMap<String, TypeDecl>,
    pub(super) queue: VecDeque<TypeKey>,
    pub(super) queued: BTreeSet<TypeKey>,
    pub(super) notes: Vec<String>,
    /// What was generated otherwise than the WSDL reads, each located.
    pub(super) warnings: Vec<Warning>,
    /// The fault set of each portType operation (shared by the bindings of that portType): its
    /// index in `fault_sets`.
    pub(super) fault_types: BTreeMap<(QName, String), usize>,
    /// The distinct fault sets, in order of first use; named once the clients are
    /// ([`clients`](crate::model::clients)).
    pub(super) fault_sets: Vec<Vec<FaultVariant>>,
    /// SOAP-ENC array item types being resolved (an array of itself is refused, not recursed).
    pub(super) arrays: Vec<QName>,
    /// The direct members of each substitution group head (XML Schema Part 1 §3.3.2
    /// {substitution group affiliation}), over every schema read, in name order.
    pub(super) members: BTreeMap<QName, Vec<QName>>,
    /// The complexTypes derived directly from each named complexType (XML Schema Part 1 §3.4.2
    /// {base type definition}, by extension or restriction, complex or simple content), over every
    /// schema read, in name order.
    pub(super) derived: BTreeMap<QName, Vec<QName>>,
}

impl<'d> Builder<'d> {
    /// A lowering of `defs` that has named and declared nothing yet; the notes and warnings of
    /// the readers are its first.
    pub(super) fn new(defs: &'d Definitions, opts: &'d Options) -> Self {
        Builder {
            defs,
            opts,
            names: BTreeMap::new(),
            scope: Scope::new(),
            decls: BTreeMap::new(),
            queue: VecDeque::new(),
            queued: BTreeSet::new(),
            notes: defs.notes.clone(),
            warnings: defs.warnings.clone(),
            fault_types: BTreeMap::new(),
            fault_sets: Vec::new(),
            arrays: Vec::new(),
            members: BTreeMap::new(),
            derived: BTreeMap::new(),
        }
    }

    /// Every schema component read.
    pub(super) fn schemas(&self) -> &'d SchemaSet {
        &self.defs.schemas
    }
}

/// The result of one step of the lowering.
pub(super) type R<T> = Result<T, Error>;

/// A construct soapgen does not generate, where it is.
pub(super) fn unsupported(what: impl Into<String>, loc: &Loc) -> Error {
    Error::at(ErrorKind::Unsupported(what.into()), loc)
}

/// A reference to something not defined, where it is.
pub(super) fn undefined(what: impl Into<String>, loc: &Loc) -> Error {
    Error::at(ErrorKind::Undefined(what.into()), loc)
}

/// A child of a document/literal wrapper element: name, type, occurrence, nillable, location.
pub(super) type WrapperChild = (QName, Option<TypeRef>, Occurs, bool, Loc, Option<String>);

/// Adds a paragraph to an item's documentation.
pub(super) fn append_doc(doc: &mut Option<Doc>, paragraph: Paragraph) {
    doc.get_or_insert_with(Doc::default).push(paragraph);
}

/// Adds `text` (a document's prose) to `doc` as a paragraph of its own, after `label` and a colon
/// when given, unless `doc` already says the same (however indented or wrapped).
pub(super) fn add_prose(doc: &mut Option<Doc>, label: Option<&str>, text: &str) {
    let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    let said = words(text);
    if said.is_empty() {
        return;
    }
    let already = doc.as_ref().is_some_and(|d| {
        d.paragraphs.iter().any(|p| match p {
            Paragraph::Prose(t) => words(t).ends_with(&said),
            _ => false,
        })
    });
    if !already {
        let text = match label {
            Some(l) => format!("{l}: {text}"),
            None => text.to_owned(),
        };
        append_doc(doc, Paragraph::Prose(text));
    }
}

/// A component's documentation (prose as read) as an item's.
pub(super) fn prose(doc: Option<&String>) -> Option<Doc> {
    doc.map(Doc::prose)
}
