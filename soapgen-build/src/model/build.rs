//! From components to the Rust model: the operations of every SOAP binding become methods (with
//! document/literal wrapped parameters unwrapped, as svcutil and zeep present them), and the types
//! they reach become structs, enums and aliases. Only reachable types are generated. Bindings of one
//! portType that differ only in SOAP version become one client; [`clients`]
//! says when, and how clients and fault sets are named.
//!
//! SOAP with Attachments (WSDL 1.1 §5, WS-I Attachments Profile 1.0): in a `mime:multipartRelated`
//! binding the `mime:part` holding `soap:body` gives the envelope's parts, and each message part
//! bound by a `mime:content` becomes an attachment parameter (`mime::Attachment`, after the body's
//! parameters) or, in the output, an attachment after the body's result (the method returns a
//! tuple). The WS-I `swaRef` type becomes `types::SwaRef`, whether its schema is the bundled one or
//! declared inline.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::error::{Error, ErrorKind, Errors, Loc, Warning};
use crate::model::clients;
use crate::model::ir::*;
use crate::model::names::{self, Scope};
use crate::read::components::*;

mod attributes;
mod choice;
mod content;
mod derivation;
mod document;
mod elements;
#[cfg(test)]
mod fixture;
mod nil_content;
mod operations;
mod particles;
mod recursion;
mod rpc;
mod simple;
mod soapenc;
mod types;

use attributes::{push_any_attribute, value_constraint};
use particles::{first_element, majority_namespace, Collector};
use simple::enum_decl;
use soapenc::{is_soap_array, is_soap_enc_ns, is_swa_ref};
use types::card;

/// Choices of the model builder.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Leave out operations that use unsupported constructs (each listed in the module docs), instead
    /// of failing.
    pub skip_unsupported: bool,
    /// Which WSDL operations to generate (default all); only the types they reach are generated.
    pub selection: crate::model::select::Selection,
    /// Refuse `use="encoded"` under `style="document"` (SOAP 1.1 §5 encoding is for rpc style,
    /// WS-I Basic Profile 1.0 R2706) instead of reading it as literal with a warning.
    pub strict_use: bool,
}

/// What a named or element-anonymous type is generated as.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum TypeKey {
    Named(QName),
    Element(QName),
    /// A named complexType with derived types, as an element's declared type: the enum of it and
    /// them (XML Schema Part 1 §2.6.1 `xsi:type`).
    Derivations(QName),
}

struct Builder<'d> {
    defs: &'d Definitions,
    opts: &'d Options,
    /// Rust names of every named type and every element with an anonymous type.
    names: BTreeMap<TypeKey, String>,
    scope: Scope,
    decls: BTreeMap<String, TypeDecl>,
    queue: VecDeque<TypeKey>,
    queued: BTreeSet<TypeKey>,
    notes: Vec<String>,
    /// What was generated otherwise than the WSDL reads, each located.
    warnings: Vec<Warning>,
    /// The fault set of each portType operation (shared by the bindings of that portType): its
    /// index in `fault_sets`.
    fault_types: BTreeMap<(QName, String), usize>,
    /// The distinct fault sets, in order of first use; named once the clients are
    /// ([`clients`](crate::model::clients)).
    fault_sets: Vec<Vec<(String, Base, QName)>>,
    /// SOAP-ENC array item types being resolved (an array of itself is refused, not recursed).
    arrays: Vec<QName>,
    /// The direct members of each substitution group head (XML Schema Part 1 §3.3.2
    /// {substitution group affiliation}), over every schema read, in name order.
    members: BTreeMap<QName, Vec<QName>>,
    /// The complexTypes derived directly from each named complexType (XML Schema Part 1 §3.4.2
    /// {base type definition}, by extension or restriction, complex or simple content), over every
    /// schema read, in name order.
    derived: BTreeMap<QName, Vec<QName>>,
}

type R<T> = Result<T, Error>;

/// Builds the model of `defs`.
///
/// # Errors
///
/// Every unsupported construct and undefined reference found, each with its location (all
/// operations are tried, so one run reports them all).
pub fn build(defs: &Definitions, source: &str, opts: &Options) -> Result<Module, Errors> {
    let mut b = Builder {
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
    };
    for (q, e) in &defs.schemas.elements {
        if let Some(head) = &e.substitution_group {
            b.members.entry(head.clone()).or_default().push(q.clone());
        }
    }
    // Names for every named type first, then elements with anonymous types, each in sorted order:
    // the names do not depend on which operations reach them.
    for q in defs.schemas.types.keys() {
        let n = b.scope.unique(&names::type_name(&q.local));
        b.names.insert(TypeKey::Named(q.clone()), n);
    }
    for (q, e) in &defs.schemas.elements {
        if matches!(e.ty, Some(TypeRef::Anonymous(_))) {
            let n = b.scope.unique(&names::type_name(&q.local));
            b.names.insert(TypeKey::Element(q.clone()), n);
        }
    }
    for (q, t) in &defs.schemas.types {
        let TypeDef::Complex(ct) = t else { continue };
        let (Content::Complex { base, .. } | Content::Simple { base, .. }) = &ct.content else {
            continue;
        };
        let complex_base = matches!(defs.schemas.types.get(base), Some(TypeDef::Complex(_)));
        if complex_base && base != q && !is_soap_enc_ns(&base.ns) && !is_soap_array(ct) {
            b.derived.entry(base.clone()).or_default().push(q.clone());
        }
    }
    // Last, so that the names above do not depend on them.
    for q in b.derived.keys() {
        let n = b
            .scope
            .unique(&format!("{}Kind", b.names[&TypeKey::Named(q.clone())]));
        b.names.insert(TypeKey::Derivations(q.clone()), n);
    }
    opts.selection.check(defs, source)?;
    let mut errors = Vec::new();
    let mut clients = Vec::new();
    for binding in defs.bindings.values() {
        match binding.kind {
            BindingKind::Soap11 | BindingKind::Soap12 => match b.client(binding) {
                Ok(c) => clients.push(c),
                Err(mut es) => errors.append(&mut es),
            },
            BindingKind::Http => b.notes.push(format!(
                "binding {} is an HTTP GET/POST binding (WSDL 1.1 §4): not generated; use a SOAP binding of the same portType",
                binding.name.local
            )),
            BindingKind::Other(ref ns) => b.notes.push(format!(
                "binding {} uses the protocol namespace {ns:?}: not generated",
                binding.name.local
            )),
        }
    }
    if !opts.selection.is_all() {
        // Bindings left without operations are left out (before clients are merged and named).
        clients.retain(|c| !c.operations.is_empty());
        let ops = defs
            .bindings
            .values()
            .filter(|b| matches!(b.kind, BindingKind::Soap11 | BindingKind::Soap12))
            .flat_map(|b| b.operations.iter());
        let (all, left_out) = ops.fold((0, 0), |(n, l), o| {
            (n + 1, l + usize::from(!opts.selection.selects(&o.name)))
        });
        b.notes.push(format!(
            "{left_out} of the {all} operations of the SOAP bindings (not selected), and the types \
             only they reach"
        ));
    }
    // One client per portType and set of bindings that differ only in SOAP version, named; then
    // the fault sets, named after them (before the types the queue below names).
    let mut clients = clients::merge(clients, defs);
    let port_type_names = clients::name(&mut clients, defs, &mut b.scope);
    b.name_fault_sets(&mut clients, &port_type_names);
    crate::model::addressing::apply(defs, &mut clients, &mut b.warnings);
    let mut warnings = std::mem::take(&mut b.warnings);
    warnings.extend(clients::warnings(&clients));
    warnings.extend(clients::unbound_ports(defs));
    let mut failed: BTreeMap<String, Error> = BTreeMap::new();
    let schema_only =
        defs.bindings.is_empty() && defs.port_types.is_empty() && defs.services.is_empty();
    if schema_only {
        // A schema given on its own (no WSDL): every type and element it defines.
        let keys: Vec<TypeKey> = b
            .names
            .keys()
            .filter(|k| !matches!(k, TypeKey::Named(q) if is_swa_ref(q)))
            .cloned()
            .collect();
        for k in keys {
            b.enqueue(k);
        }
        for e in defs.schemas.elements.values() {
            if let Some(TypeRef::Named(t, loc)) = &e.ty {
                if let Err(err) = b.named_type(t, loc) {
                    errors.push(err);
                }
            }
        }
        b.notes
            .push("no WSDL bindings: the schema's types only, no client".to_owned());
    }
    while let Some(key) = b.queue.pop_front() {
        if let Err(e) = b.type_decl(&key) {
            if opts.skip_unsupported && matches!(e.kind, ErrorKind::Unsupported(_)) {
                failed.insert(b.names[&key].clone(), e);
            } else {
                errors.push(e);
            }
        }
    }
    if !failed.is_empty() {
        b.drop_unsupported(&mut clients, &failed);
    }
    if !errors.is_empty() {
        errors.sort_by(|a, b| a.loc.cmp(&b.loc));
        errors.dedup();
        return Err(Errors(errors));
    }
    if !schema_only && clients.iter().all(|c| c.operations.is_empty()) {
        return Err(no_client(defs, &clients, &b.notes).into());
    }
    b.box_cycles();
    b.nil_content(&clients);
    Ok(Module {
        source: source.to_owned(),
        doc: defs.doc.clone(),
        types: b.decls.into_values().collect(),
        encoded: clients
            .iter()
            .any(|c| c.operations.iter().any(|o| o.encoded)),
        clients,
        notes: b.notes,
        warnings,
    })
}

/// The error of a WSDL (not a schema on its own) that gives no client with an operation: every
/// reason an operation, binding or portType was not generated, in one line, located at the binding,
/// portType or service that comes first.
fn no_client(defs: &Definitions, clients: &[ClientDecl], notes: &[String]) -> Error {
    let mut reasons: Vec<String> = notes.to_vec();
    for c in clients {
        let names: Vec<&str> = c.bindings.iter().map(|(b, _)| b.local.as_str()).collect();
        reasons.push(format!(
            "binding {} of portType {} has no operation to generate",
            names.join(", "),
            c.port_type.local
        ));
    }
    for pt in defs.port_types.values() {
        if !defs.bindings.values().any(|b| b.port_type == pt.name) {
            reasons.push(format!(
                "portType {} has no binding (an abstract WSDL: generate from the WSDL that binds \
                 it)",
                pt.name.local
            ));
        }
    }
    if reasons.is_empty() {
        reasons.push("the WSDL has no portType and no binding".to_owned());
    }
    let at = defs
        .bindings
        .values()
        .map(|b| &b.loc)
        .chain(defs.port_types.values().map(|p| &p.loc))
        .chain(defs.services.iter().map(|s| &s.loc))
        .min();
    Error::new(
        ErrorKind::Unsupported(format!(
            "no client to generate (WSDL 1.1 §2.5–§2.6, WSDL 2.0 Part 1 §2.9: a client calls the \
             operations of a SOAP binding): {}",
            reasons.join("; ")
        )),
        at.cloned(),
    )
    .with_hint(
        "a document of schemas only (no portType, binding or service) generates its types alone",
    )
}

fn unsupported(what: impl Into<String>, loc: &Loc) -> Error {
    Error::at(ErrorKind::Unsupported(what.into()), loc)
}

fn undefined(what: impl Into<String>, loc: &Loc) -> Error {
    Error::at(ErrorKind::Undefined(what.into()), loc)
}

/// A child of a document/literal wrapper element: name, type, occurrence, nillable, location.
type WrapperChild = (QName, Option<TypeRef>, Occurs, bool, Loc, Option<String>);

impl<'d> Builder<'d> {
    fn schemas(&self) -> &'d SchemaSet {
        &self.defs.schemas
    }
}

/// Adds a paragraph to a doc comment.
fn append_doc(doc: &mut Option<String>, paragraph: String) {
    *doc = Some(match doc.take() {
        Some(d) => format!("{d}\n\n{paragraph}"),
        None => paragraph,
    });
}
