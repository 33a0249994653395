//! WSDL 2.0 components resolved into the WSDL 1.1 model the builder reads: interfaces flattened
//! over their `extends` (WSDL 2.0 Part 1 §2.2.1), operations' message references turned into
//! messages, bindings and endpoints into bindings and ports; duplicates and undefined references
//! are located errors.

use std::collections::{BTreeMap, BTreeSet};

use super::binding::mep_reason;
use super::description::{
    Binding20, BindingOperation20, BindingType, ContentModel, Description, Interface,
    InterfaceFault, InterfaceOperation, Service20,
};
use super::syntax::{duplicate, undefined, SOAP_MEP_REQUEST_RESPONSE, SOAP_MEP_SOAP_RESPONSE};
use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::*;

/// An interface with everything it inherits (Part 1 §2.2.1): operations and faults, each once,
/// base interfaces' first.
pub(super) struct Flat<'a> {
    operations: Vec<&'a InterfaceOperation>,
    faults: BTreeMap<QName, &'a InterfaceFault>,
}

pub(super) fn flatten<'a>(d: &'a Description, name: &QName, at: &Loc) -> Result<Flat<'a>> {
    fn visit<'a>(
        d: &'a Description,
        name: &QName,
        at: &Loc,
        stack: &mut Vec<QName>,
        done: &mut BTreeSet<QName>,
        out: &mut Flat<'a>,
    ) -> Result<()> {
        if stack.contains(name) {
            return Err(Error::at(
                ErrorKind::Invalid(format!(
                    "interfaces extending each other in a cycle: {} → {} (WSDL 2.0 Part 1 §2.2.1 forbids it)",
                    stack
                        .iter()
                        .map(|q| q.local.as_str())
                        .collect::<Vec<_>>()
                        .join(" → "),
                    name.local
                )),
                at,
            ));
        }
        if !done.insert(name.clone()) {
            return Ok(());
        }
        let Some(i) = d.interfaces.get(name) else {
            return Err(undefined(format!("interface {name}"), at));
        };
        stack.push(name.clone());
        for base in &i.extends {
            visit(d, base, &i.loc, stack, done, out)?;
        }
        stack.pop();
        for f in &i.faults {
            if let Some(prev) = out.faults.insert(f.name.clone(), f) {
                return Err(duplicate("interface fault", &f.name, &prev.loc, &f.loc));
            }
        }
        for o in &i.operations {
            if let Some(prev) = out.operations.iter().find(|p| p.name == o.name) {
                return Err(duplicate("interface operation", &o.name, &prev.loc, &o.loc));
            }
            if let Some(prev) = out.operations.iter().find(|p| p.name.local == o.name.local) {
                return Err(Error::at(
                    ErrorKind::Unsupported(format!(
                        "two operations named {:?} in one interface, from the namespaces {:?} and {:?} (first at {})",
                        o.name.local, prev.name.ns, o.name.ns, prev.loc
                    )),
                    &o.loc,
                ));
            }
            out.operations.push(o);
        }
        Ok(())
    }
    let mut out = Flat {
        operations: Vec::new(),
        faults: BTreeMap::new(),
    };
    visit(d, name, at, &mut Vec::new(), &mut BTreeSet::new(), &mut out)?;
    Ok(out)
}

/// A message of one element part (or none), as WSDL 1.1 would have declared it.
pub(super) fn message(
    name: QName,
    content: &ContentModel,
    what: &str,
    loc: &Loc,
) -> Result<Message> {
    let parts = match content {
        ContentModel::Element(e) => vec![Part {
            name: e.local.clone(),
            kind: PartKind::Element(e.clone()),
            doc: None,
            loc: loc.clone(),
        }],
        ContentModel::None => Vec::new(),
        ContentModel::Any => {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                "{what} element=\"#any\" (any element, WSDL 2.0 Part 1 §2.5.1): name the element"
            )),
                loc,
            ))
        }
        ContentModel::Other => {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                "{what} with no `element` (content model #other, WSDL 2.0 Part 1 §2.5.1: a type \
                     system other than XML Schema)"
            )),
                loc,
            ))
        }
    };
    Ok(Message {
        name,
        parts,
        doc: None,
        loc: loc.clone(),
    })
}

/// Maps the WSDL 2.0 components read into WSDL 1.1's: each interface a portType (its inherited
/// operations included) with one message per input, output and fault; each SOAP binding a
/// document/literal SOAP 1.1 or 1.2 binding of every operation of its interface; each endpoint a
/// port. HTTP and other bindings are skipped with a note in `defs.notes`.
///
/// The messages made up are named `<interface>.<operation>.In`/`.Out`, `<interface>.fault.<name>`
/// and `<binding>.<operation>.<In|Out>.header<N>` (not NCNames, so they cannot clash with a WSDL 1.1
/// message).
///
/// # Errors
///
/// [`ErrorKind::Undefined`] for a reference to an interface, operation, fault or binding not read;
/// [`ErrorKind::Invalid`] for an interface extending itself; [`ErrorKind::Unsupported`] for a
/// message of `#any` or `#other` content, or two inherited operations of one local name.
pub fn resolve(d: Description, defs: &mut Definitions) -> Result<()> {
    defs.warnings.extend(d.warnings.iter().cloned());
    defs.addressing.absorb(d.addressing.clone());
    let mut flats = BTreeMap::new();
    for i in d.interfaces.values() {
        let flat = flatten(&d, &i.name, &i.loc)?;
        let pt = port_type(i, &flat, defs)?;
        defs.port_types.insert(i.name.clone(), pt);
        flats.insert(i.name.clone(), flat);
    }
    for s in &d.services {
        let service = service(&d, s)?;
        defs.services.push(service);
    }
    for b in d.bindings.values() {
        if let Some(binding) = binding(&d, b, &flats, defs)? {
            defs.bindings.insert(b.name.clone(), binding);
        }
    }
    Ok(())
}

/// The portType of interface `i`, whose operations (its own and inherited) are `flat`'s, with
/// their input, output and fault messages added to `defs`.
fn port_type(i: &Interface, flat: &Flat, defs: &mut Definitions) -> Result<PortType> {
    let mut operations = Vec::new();
    for o in &flat.operations {
        let msg = |label: &str| {
            QName::new(
                &i.name.ns,
                format!("{}.{}.{label}", i.name.local, o.name.local),
            )
        };
        let mut input = None;
        let mut output = None;
        for (label, r, slot) in [
            ("In", &o.input, &mut input),
            ("Out", &o.output, &mut output),
        ] {
            if let Some(r) = r {
                let m = message(
                    msg(label),
                    &r.content,
                    &format!(
                        "operation {} {}",
                        o.name.local,
                        if label == "In" { "input" } else { "output" }
                    ),
                    &r.loc,
                )?;
                *slot = Some(m.name.clone());
                defs.messages.insert(m.name.clone(), m);
            }
        }
        operations.push(PortTypeOperation {
            input_name: None,
            name: o.name.local.clone(),
            input,
            output,
            faults: fault_messages(i, o, flat, defs)?,
            doc: o.doc.clone(),
            message_docs: Vec::new(),
            loc: o.loc.clone(),
        });
    }
    Ok(PortType {
        name: i.name.clone(),
        operations,
        doc: i.doc.clone(),
        loc: i.loc.clone(),
    })
}

/// The faults operation `o` of interface `i` references (`infault`/`outfault`), each a message
/// of its fault's element added to `defs`, by fault name.
fn fault_messages(
    i: &Interface,
    o: &InterfaceOperation,
    flat: &Flat,
    defs: &mut Definitions,
) -> Result<Vec<(String, QName)>> {
    let mut faults = Vec::new();
    for (f, at) in &o.faults {
        let Some(fault) = flat.faults.get(f) else {
            return Err(undefined(
                format!(
                    "interface fault {f} (in interface {} or those it extends)",
                    i.name
                ),
                at,
            ));
        };
        let name = QName::new(&i.name.ns, format!("{}.fault.{}", i.name.local, f.local));
        let m = message(
            name.clone(),
            &fault.content,
            &format!("fault {}", f.local),
            &fault.loc,
        )?;
        if m.parts.is_empty() {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                    "fault {} element=\"#none\" (a fault with no detail element)",
                    f.local
                )),
                &fault.loc,
            ));
        }
        defs.messages.insert(name.clone(), m);
        faults.push((f.local.clone(), name));
    }
    Ok(faults)
}

/// Service `s` with a port per endpoint of a SOAP binding (the others' bindings are not
/// generated); each endpoint's binding must exist and be of the service's interface (Part 1
/// §2.16.1).
fn service(d: &Description, s: &Service20) -> Result<Service> {
    if !d.interfaces.contains_key(&s.interface) {
        return Err(undefined(format!("interface {}", s.interface), &s.loc));
    }
    let mut ports = Vec::new();
    for e in &s.endpoints {
        let Some(b) = d.bindings.get(&e.binding) else {
            return Err(undefined(format!("binding {}", e.binding), &e.loc));
        };
        if let Some(bi) = &b.interface {
            if bi != &s.interface {
                return Err(Error::at(
                    ErrorKind::Invalid(format!(
                        "endpoint {} uses binding {} of interface {bi}, but its service is of interface {} (WSDL 2.0 Part 1 §2.16.1)",
                        e.name, b.name.local, s.interface
                    )),
                    &e.loc,
                ));
            }
        }
        if !matches!(b.kind, BindingType::Soap { .. }) {
            continue; // its binding is not generated (see the notes of `binding`)
        }
        ports.push(Port {
            name: e.name.clone(),
            binding: e.binding.clone(),
            address: e.address.clone(),
            loc: e.loc.clone(),
        });
    }
    Ok(Service {
        name: s.name.clone(),
        ports,
        doc: s.doc.clone(),
        loc: s.loc.clone(),
    })
}

/// The WSDL 1.1 binding of SOAP binding `b`: every operation of its interface (`flats` holds
/// each interface's), document/literal, with the binding operations' actions and headers;
/// `None`, with a note in `defs`, for an HTTP or other binding and for a binding that names no
/// interface and that no endpoint uses.
fn binding(
    d: &Description,
    b: &Binding20,
    flats: &BTreeMap<QName, Flat>,
    defs: &mut Definitions,
) -> Result<Option<Binding>> {
    let soap12 = match &b.kind {
        BindingType::Soap { soap12 } => *soap12,
        BindingType::Http => {
            defs.notes.push(format!(
                "binding {} is a WSDL 2.0 HTTP binding (WSDL 2.0 Part 2 §6): not generated; use a SOAP binding of the same interface",
                b.name.local
            ));
            return Ok(None);
        }
        BindingType::Other(t) => {
            defs.notes.push(format!(
                "binding {} is of type {t:?} (not the WSDL 2.0 SOAP binding): not generated",
                b.name.local
            ));
            return Ok(None);
        }
    };
    // Part 1 §2.9: a binding without `interface` binds nothing itself; an endpoint's service
    // gives it one.
    let interface = match &b.interface {
        Some(i) => i.clone(),
        None => match d
            .services
            .iter()
            .find(|s| s.endpoints.iter().any(|e| e.binding == b.name))
        {
            Some(s) => s.interface.clone(),
            None => {
                defs.notes.push(format!(
                    "binding {} names no interface and no endpoint uses it: not generated",
                    b.name.local
                ));
                return Ok(None);
            }
        },
    };
    let Some(flat) = flats.get(&interface) else {
        return Err(undefined(format!("interface {interface}"), &b.loc));
    };
    let given = binding_operations(b, flat, &interface)?;
    let mut operations = Vec::new();
    for io in &flat.operations {
        if let Some(op) = binding_operation(b, io, given.get(&io.name).copied(), defs) {
            operations.push(op);
        }
    }
    Ok(Some(Binding {
        name: b.name.clone(),
        port_type: interface,
        kind: if soap12 {
            BindingKind::Soap12
        } else {
            BindingKind::Soap11
        },
        style: Some(Style::Document),
        operations,
        doc: None,
        loc: b.loc.clone(),
    }))
}

/// The binding operations `b` gives, by the interface operation each references; every fault and
/// operation it references must be of `interface` (`flat`), each operation bound once.
fn binding_operations<'b>(
    b: &'b Binding20,
    flat: &Flat,
    interface: &QName,
) -> Result<BTreeMap<&'b QName, &'b BindingOperation20>> {
    for (f, at) in &b.faults {
        if !flat.faults.contains_key(f) {
            return Err(undefined(
                format!("interface fault {f} of interface {interface}"),
                at,
            ));
        }
    }
    let mut given: BTreeMap<&QName, &BindingOperation20> = BTreeMap::new();
    for o in &b.operations {
        if !flat.operations.iter().any(|io| io.name == o.reference) {
            return Err(undefined(
                format!("operation {} of interface {interface}", o.reference),
                &o.loc,
            ));
        }
        if let Some(prev) = given.insert(&o.reference, o) {
            return Err(duplicate(
                "binding operation",
                &o.reference,
                &prev.loc,
                &o.loc,
            ));
        }
    }
    Ok(given)
}

/// Interface operation `io` as bound by `b` (`bo` when the binding gives the operation, else
/// the defaults, Part 2 §5.1): document/literal, its action and its header messages (added to
/// `defs`). `None`, with a note, unless its SOAP MEP is request-response.
fn binding_operation(
    b: &Binding20,
    io: &InterfaceOperation,
    bo: Option<&BindingOperation20>,
    defs: &mut Definitions,
) -> Option<BindingOperation> {
    // The request-response SOAP MEP (SOAP 1.2 Part 2 §6.2) is a POSTed envelope; SOAP 1.2's
    // SOAP-response MEP (§6.3, WSDL 2.0 Part 2 §5.10.3) a GET of the IRI the input makes. Any
    // other leaves this operation out, the rest of the binding generated.
    let (mep, mep_at) = match bo.and_then(|o| o.mep.as_ref().map(|m| (m, &o.loc))) {
        Some(m) => (Some(m.0), m.1),
        None => (b.mep_default.as_ref(), &b.loc),
    };
    let mep = mep.map(|m| m.trim_end_matches('/'));
    let soap12 = matches!(b.kind, BindingType::Soap { soap12: true });
    let soap_response = (mep == Some(SOAP_MEP_SOAP_RESPONSE) && soap12).then(|| HttpLocation {
        template: bo.and_then(|o| o.location.clone()).unwrap_or_default(),
        query_separator: bo
            .and_then(|o| o.query_separator.clone())
            .or_else(|| b.query_separator_default.clone())
            .unwrap_or_else(|| "&".to_owned()),
        loc: mep_at.clone(),
    });
    if let Some(mep) = mep.filter(|m| *m != SOAP_MEP_REQUEST_RESPONSE && soap_response.is_none()) {
        defs.notes.push(format!(
            "operation {} of binding {} ({mep_at}) not generated: {}",
            io.name.local,
            b.name.local,
            mep_reason(mep, soap12)
        ));
        return None;
    }
    let at = bo.map_or(&b.loc, |o| &o.loc).clone();
    let bm = |headers: Vec<(QName, String, Loc)>| BindingMessage {
        use_: BodyUse::Literal,
        namespace: None,
        parts: None,
        headers,
        attachments: Vec::new(),
        loc: at.clone(),
    };
    let input = bm(header_messages(
        b,
        io,
        "In",
        bo.map(|o| &o.input_headers),
        defs,
    ));
    let output = io.output.is_some().then(|| {
        bm(header_messages(
            b,
            io,
            "Out",
            bo.map(|o| &o.output_headers),
            defs,
        ))
    });
    Some(BindingOperation {
        input_name: None,
        name: io.name.local.clone(),
        soap_action: bo.and_then(|o| o.action.clone()),
        style: Some(Style::Document),
        input: Some(input),
        output,
        doc: None,
        soap_response,
        loc: at.clone(),
    })
}

/// A message of one element part for each `wsoap:header` of the `label` (`In`, `Out`) message of
/// `io` in binding `b`, added to `defs`: the binding message's headers (message, part, where).
fn header_messages(
    b: &Binding20,
    io: &InterfaceOperation,
    label: &str,
    list: Option<&Vec<(QName, Loc)>>,
    defs: &mut Definitions,
) -> Vec<(QName, String, Loc)> {
    let mut out = Vec::new();
    for (n, (el, at)) in list.into_iter().flatten().enumerate() {
        let name = QName::new(
            &b.name.ns,
            format!("{}.{}.{label}.header{}", b.name.local, io.name.local, n + 1),
        );
        defs.messages.insert(
            name.clone(),
            Message {
                name: name.clone(),
                parts: vec![Part {
                    name: el.local.clone(),
                    kind: PartKind::Element(el.clone()),
                    doc: None,
                    loc: at.clone(),
                }],
                doc: None,
                loc: at.clone(),
            },
        );
        out.push((name, el.local.clone(), at.clone()));
    }
    out
}
