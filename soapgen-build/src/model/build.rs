//! From components to the Rust model: the operations of every SOAP binding become methods (with
//! document/literal wrapped parameters unwrapped, as svcutil and zeep present them), and the types
//! they reach become structs, enums and aliases. Only reachable types are generated. Bindings of one
//! portType that differ only in SOAP version become one client; [`clients`]
//! says when, and how clients and fault sets are named.
//!
//! [`build`] runs the steps in order; the lowering's state is in `build/context.rs`, each kind of
//! component has its file (types, simple, derivation, elements, particles, choice, content,
//! attributes, soapenc, operations, document, rpc, recursion, nil_content), and `build/fields.rs`
//! holds what every kind of field shares.
//!
//! SOAP with Attachments (WSDL 1.1 §5, WS-I Attachments Profile 1.0): in a `mime:multipartRelated`
//! binding the `mime:part` holding `soap:body` gives the envelope's parts, and each message part
//! bound by a `mime:content` becomes an attachment parameter (`mime::Attachment`, after the body's
//! parameters) or, in the output, an attachment after the body's result (the method returns a
//! tuple). The WS-I `swaRef` type becomes `types::SwaRef`, whether its schema is the bundled one or
//! declared inline.

use std::collections::BTreeMap;

use crate::error::{Error, ErrorKind, Errors};
use crate::model::clients;
use crate::model::ir::{ClientDecl, Doc, Module};
use crate::model::names;
use crate::model::{addressing, security};
use crate::read::components::{BindingKind, Content, Definitions, TypeDef, TypeRef};
use context::{Builder, TypeKey};
use soapenc::{is_soap_array, is_soap_enc_ns, is_swa_ref};

mod attributes;
mod choice;
mod content;
mod context;
mod derivation;
mod docs;
mod document;
mod elements;
mod fields;
#[cfg(test)]
mod fixture;
mod nil_content;
mod operations;
mod particles;
mod recursion;
mod rpc;
mod simple;
mod soap_response;
mod soapenc;
mod types;
mod uses;

pub use context::Options;

/// Builds the model of `defs`: names every type first (so that names do not depend on which
/// operations reach a type), lowers the operations of every SOAP binding into clients, merges and
/// names the clients and their fault sets, then declares the types the operations reach (every
/// type, for a schema on its own) and boxes recursive fields.
///
/// # Errors
///
/// Every unsupported construct and undefined reference found, each with its location (all
/// operations are tried, so one run reports them all).
pub fn build(defs: &Definitions, source: &str, opts: &Options) -> Result<Module, Errors> {
    let mut b = Builder::new(defs, opts);
    b.index_derivations();
    b.name_types();
    // (the Builder resolved the selection's names already)
    opts.ports.check(defs)?;
    opts.manual_security.check(defs)?;
    let mut errors = Vec::new();
    let clients = b.binding_clients(&mut errors);
    let mut clients = b.merge_clients(clients);
    security::apply(
        defs,
        &mut clients,
        &opts.manual_security,
        &mut security::Diagnostics {
            warnings: &mut b.warnings,
            errors: &mut errors,
        },
    );
    let mut warnings = std::mem::take(&mut b.warnings);
    warnings.extend(clients::warnings(&clients));
    warnings.extend(clients::unbound_ports(defs));
    let schema_only =
        defs.bindings.is_empty() && defs.port_types.is_empty() && defs.services.is_empty();
    if schema_only {
        b.schema_types(&mut errors);
    }
    let failed = b.declare_queued(&mut errors);
    if !failed.is_empty() {
        b.drop_unsupported(&mut clients, &failed);
    }
    b.soap_response_operations(&mut clients, &mut errors);
    // Once the types are declared: an array result's items are its struct's one field.
    stream_operations(
        &mut clients,
        &opts.selection.stream,
        source,
        &b.decls,
        &mut errors,
    );
    // Selection and security change what a client's summary says.
    clients.iter_mut().for_each(clients::summarize);
    if !errors.is_empty() {
        errors.sort_by(|a, b| a.loc.cmp(&b.loc));
        errors.dedup();
        return Err(Errors(errors));
    }
    if !schema_only && clients.iter().all(|c| c.operations.is_empty()) {
        return Err(no_client(defs, &clients, &b.notes).into());
    }
    b.box_cycles();
    b.nil_content(&mut clients);
    b.mark_uses(&clients);
    Ok(Module {
        source: source.to_owned(),
        doc: defs.doc.as_ref().map(Doc::prose),
        schema_docs: defs.schemas.docs.clone(),
        types: b.decls.into_values().collect(),
        encoded: clients
            .iter()
            .any(|c| c.operations.iter().any(|o| o.encoded)),
        clients,
        notes: b.notes,
        warnings,
    })
}

/// Marks the operations `names` (WSDL names) to stream (`Builder::stream_operations`): each also
/// gets a `{method}_stream` method, so its result must be the repeated element a response
/// wrapper holds (WSDL 1.1 §3.5 document/literal wrapped or rpc/literal; XML Schema Part 1
/// §3.9.1 maxOccurs above 1), or an array type holding it (a complexType of one repeated
/// element, .NET's `ArrayOf…`: its items are streamed). Every operation that cannot be streamed
/// is an error saying why.
fn stream_operations(
    clients: &mut [ClientDecl],
    names: &std::collections::BTreeSet<String>,
    source: &str,
    decls: &std::collections::BTreeMap<String, crate::model::ir::TypeDecl>,
    errors: &mut Vec<Error>,
) {
    use soapgen_contract::Occurrence;
    for name in names {
        let mut seen = false;
        for c in clients.iter_mut() {
            let methods: Vec<String> = c.operations.iter().map(|o| o.method.clone()).collect();
            for op in c.operations.iter_mut().filter(|o| &o.wsdl_name == name) {
                seen = true;
                let repeated = matches!(
                    op.ret.as_ref().map(|t| t.card),
                    Some(Occurrence::Many | Occurrence::ManyNillable)
                );
                let method = format!("{}_stream", op.method);
                let why = if op.response.is_none() {
                    "it is one-way: it has no response (WSDL 1.1 §2.4.1)".to_owned()
                } else if op.encoded {
                    "its response is rpc/encoded (SOAP 1.1 §5): multiRef accessors may refer \
                     anywhere in the Body"
                        .to_owned()
                } else if !op.response_attachments.is_empty() {
                    "its response has MIME parts (WSDL 1.1 §5)".to_owned()
                } else if op.result.is_none() || op.bare || op.bare_response {
                    "its result is the whole response element, not a repeated element inside \
                     a response wrapper"
                        .to_owned()
                } else if methods.contains(&method) {
                    format!("its streamed method's name, {method}, is another operation's")
                } else if !repeated {
                    match op.ret.as_ref().and_then(|t| array_items(t, decls)) {
                        Some(items) => {
                            op.stream = true;
                            op.stream_items = Some(items);
                            continue;
                        }
                        None => "its result element occurs at most once (maxOccurs 1) and its \
                                 type is not an array type (a complexType whose content is one \
                                 repeated element and no attribute)"
                            .to_owned(),
                    }
                } else {
                    op.stream = true;
                    continue;
                };
                errors.push(
                    Error::new(
                        ErrorKind::Invalid(format!(
                            "operation {name} of {source} cannot be streamed: {why}"
                        )),
                        None,
                    )
                    .with_hint(
                        "a streamed result is the repeated element (maxOccurs above 1) that a \
                         document/literal wrapped or rpc/literal response wrapper holds, or that \
                         the wrapper's one result element of an array type holds",
                    ),
                );
            }
        }
        // (An operation that failed to build has its own errors.)
        if !seen && errors.is_empty() {
            errors.push(Error::new(
                ErrorKind::Invalid(format!(
                    "operation {name} of {source} is to be streamed but is not generated (the \
                     operation selection or the port selection leaves it out)"
                )),
                None,
            ));
        }
    }
}

/// The repeated element of the array type `ty` (a struct of one element field that occurs more
/// than once, and nothing else: .NET's `ArrayOf…`, XML Schema Part 1 §3.9.1), if it is one.
fn array_items(
    ty: &crate::model::ir::TypeExpr,
    decls: &std::collections::BTreeMap<String, crate::model::ir::TypeDecl>,
) -> Option<crate::model::ir::StreamItems> {
    use crate::model::ir::{Base, FieldKind, TypeDecl};
    use soapgen_contract::Occurrence;
    let Base::Named(name) = &ty.base else {
        return None;
    };
    let TypeDecl::Struct(s) = decls.get(name)? else {
        return None;
    };
    let [field] = s.fields.as_slice() else {
        return None;
    };
    let many = matches!(field.ty.card, Occurrence::Many | Occurrence::ManyNillable);
    (field.kind == FieldKind::Element && many).then(|| crate::model::ir::StreamItems {
        xml: field.xml.clone(),
        ty: field.ty.clone(),
        min: field.min_occurs,
    })
}

impl Builder<'_> {
    /// The members of each substitution group head, and the complexTypes derived from each named
    /// complexType (not SOAP-ENC arrays, not SOAP-ENC's own types), over every schema read.
    fn index_derivations(&mut self) {
        let defs = self.defs;
        for (q, e) in &defs.schemas.elements {
            if let Some(head) = &e.substitution_group {
                self.members
                    .entry(head.clone())
                    .or_default()
                    .push(q.clone());
            }
        }
        for (q, t) in &defs.schemas.types {
            let TypeDef::Complex(ct) = t else { continue };
            let (Content::Complex { base, .. } | Content::Simple { base, .. }) = &ct.content else {
                continue;
            };
            let complex_base = matches!(defs.schemas.types.get(base), Some(TypeDef::Complex(_)));
            if complex_base && base != q && !is_soap_enc_ns(&base.ns) && !is_soap_array(ct) {
                self.derived
                    .entry(base.clone())
                    .or_default()
                    .push(q.clone());
            }
        }
    }

    /// Names every named type first, then elements with anonymous types, each in sorted order, so
    /// that the names do not depend on which operations reach them; last the enums of types with
    /// derivations, so that the names before do not depend on them.
    fn name_types(&mut self) {
        let defs = self.defs;
        for q in defs.schemas.types.keys() {
            let n = self.scope.unique(&names::type_name(&q.local));
            self.names.insert(TypeKey::Named(q.clone()), n);
        }
        for (q, e) in &defs.schemas.elements {
            if matches!(e.ty, Some(TypeRef::Anonymous(_))) {
                let n = self.scope.unique(&names::type_name(&q.local));
                self.names.insert(TypeKey::Element(q.clone()), n);
            }
        }
        for q in self.derived.keys() {
            let n = self
                .scope
                .unique(&format!("{}Kind", self.names[&TypeKey::Named(q.clone())]));
            self.names.insert(TypeKey::Derivations(q.clone()), n);
        }
    }

    /// The client of every SOAP binding (errors collected in `errors`), with a note for each
    /// binding of another protocol; with a selection, the clients left without operations are
    /// left out and a note counts the operations not selected.
    fn binding_clients(&mut self, errors: &mut Vec<Error>) -> Vec<ClientDecl> {
        let defs = self.defs;
        let mut clients = Vec::new();
        for binding in defs.bindings.values() {
            match binding.kind {
                BindingKind::Soap11 | BindingKind::Soap12 => match self.client(binding) {
                    Ok(c) => clients.push(c),
                    Err(mut es) => errors.append(&mut es),
                },
                BindingKind::Http => self.notes.push(format!(
                    "binding {} is an HTTP GET/POST binding (WSDL 1.1 §4): not generated; use a SOAP binding of the same portType",
                    binding.name.local
                )),
                BindingKind::Other(ref ns) => self.notes.push(format!(
                    "binding {} uses the protocol namespace {ns:?}: not generated",
                    binding.name.local
                )),
            }
        }
        let selection = &self.opts.selection;
        if !selection.is_all() {
            // (Bindings left without operations are left out once clients are named.)
            let ops = defs
                .bindings
                .values()
                .filter(|b| matches!(b.kind, BindingKind::Soap11 | BindingKind::Soap12))
                .flat_map(|b| b.operations.iter());
            let (all, left_out) = ops.fold((0, 0), |(n, l), o| {
                (n + 1, l + usize::from(!selection.selects(&o.name)))
            });
            self.notes.push(format!(
                "{left_out} of the {all} operations of the SOAP bindings (not selected), and the \
                 types only they reach"
            ));
        }
        clients
    }

    /// One client per portType and set of bindings that differ only in SOAP version, named; then
    /// the fault sets, named after them (before the types the queue names); then each client's
    /// WS-Addressing.
    fn merge_clients(&mut self, clients: Vec<ClientDecl>) -> Vec<ClientDecl> {
        let defs = self.defs;
        let mut clients = clients::merge(clients, defs);
        // Named among every port and binding first, so that a client keeps its name whichever
        // ports and operations are generated; then the ports not selected, and the clients the
        // operation selection leaves empty, are left out.
        let port_type_names = clients::name(&mut clients, defs, &mut self.scope);
        self.opts.ports.apply(&mut clients);
        if !self.opts.selection.is_all() {
            clients.retain(|c| !c.operations.is_empty());
        }
        self.name_fault_sets(&mut clients, &port_type_names);
        addressing::apply(defs, &mut clients, &mut self.warnings);
        clients
    }

    /// A schema given on its own (no WSDL): every type and element it defines is declared.
    fn schema_types(&mut self, errors: &mut Vec<Error>) {
        let keys: Vec<TypeKey> = self
            .names
            .keys()
            .filter(|k| !matches!(k, TypeKey::Named(q) if is_swa_ref(q)))
            .cloned()
            .collect();
        for k in keys {
            self.enqueue(k);
        }
        for e in self.defs.schemas.elements.values() {
            if let Some(TypeRef::Named(t, loc)) = &e.ty {
                if let Err(err) = self.named_type(t, loc) {
                    errors.push(err);
                }
            }
        }
        self.notes
            .push("no WSDL bindings: the schema's types only, no client".to_owned());
    }

    /// Declares every type queued, and those they queue in turn. Errors go to `errors`, but with
    /// `skip_unsupported` an unsupported construct is returned instead, by the name of the type
    /// that has it, for [`drop_unsupported`](Builder::drop_unsupported).
    fn declare_queued(&mut self, errors: &mut Vec<Error>) -> BTreeMap<String, Error> {
        let mut failed = BTreeMap::new();
        while let Some(key) = self.queue.pop_front() {
            if let Err(e) = self.type_decl(&key) {
                if self.opts.skip_unsupported && matches!(e.kind, ErrorKind::Unsupported(_)) {
                    failed.insert(self.names[&key].clone(), e);
                } else {
                    errors.push(e);
                }
            }
        }
        failed
    }
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
