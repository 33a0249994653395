//! Reads WSDL 2.0 `description` documents (W3C Recommendation 2007: Part 1 "Core Language", Part 2
//! "Adjuncts") into the same [`Definitions`](crate::read::components::Definitions) a WSDL 1.1 document gives, so one model and one emitter
//! serve both:
//!
//! - an `interface` (Part 1 §2.2) becomes a portType holding its own operations and those of every
//!   interface it `extends` (§2.2.1, transitively, each once);
//! - an interface operation (§2.4) with `pattern` in-out becomes a request-response operation,
//!   in-only and robust-in-only (Part 2 §2.2.10–§2.2.11) a one-way one; its `input`/`output`
//!   `element` (§2.5) becomes a message with one element part (`#none`: no parts);
//! - an interface `fault` (§2.3) referenced by `outfault` (in-out, fault-replaces-message, Part 2
//!   §2.1.2) or `infault` (robust-in-only, message-triggers-fault, §2.1.3) becomes a fault message;
//! - a SOAP `binding` (Part 2 §5, `type="http://www.w3.org/ns/wsdl/soap"`) becomes a
//!   document/literal binding of SOAP 1.1 or 1.2 (`wsoap:version`, default 1.2, §5.3), every
//!   interface operation bound (defaults, §5.1), `wsoap:action` as the action, `wsoap:header` as
//!   header parts; without `wsoap:protocol` (§5.3, as Apache Axis2 writes them) SOAP over HTTP,
//!   with a located warning; an operation whose `wsoap:mep` (§5.4) is not the request-response
//!   SOAP MEP (the SOAP-response MEP is a GET, SOAP 1.2 Part 2 §6.3) is left out with a located
//!   note, the rest of the binding generated; an attribute or element of WSDL 1.1's SOAP binding
//!   namespace in it is a located error naming both namespaces;
//! - a `service` `endpoint` (§2.15–§2.16) becomes a port with its `address`.
//!
//! HTTP bindings (Part 2 §6) are listed in the notes as not generated. The SOAP binding's draft
//! namespaces (2004–2006, still in Apache Axis2's samples) are read as the Recommendation's. Components are collected
//! from every document first ([`Description`]) and resolved at the end ([`resolve`]), since an
//! interface, its base and the binding of it may live in different imported documents.

mod binding;
mod description;
mod interface;
mod resolve;
mod service;
mod syntax;

pub use description::{
    Binding20, BindingOperation20, BindingType, ContentModel, Description, Endpoint, Interface,
    InterfaceFault, InterfaceOperation, MessageRef, Pattern, Service20,
};
pub use resolve::resolve;
pub use syntax::{WHTTP, WSOAP};

use roxmltree::Node;

use crate::error::Result;
use crate::read::components::WSDL20;
use crate::read::document::DocCtx;
use crate::read::wsdl::WsdlImport;
use binding::read_binding;
use interface::read_interface;
use service::read_service;
use syntax::{check_extension, duplicate, missing, required, unexpected};

/// Reads the interfaces, bindings and services of one `description` (Part 1 §2.1) into `into`
/// and returns its `import`s (§4.2, those with a `location`) and `include`s (§4.1) to follow.
/// The `types` are read by the caller.
///
/// # Errors
///
/// [`ErrorKind::Missing`](crate::ErrorKind::Missing) for a required attribute, [`ErrorKind::Duplicate`](crate::ErrorKind::Duplicate) for a component named
/// twice, [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) for a message exchange pattern a client cannot call, a required
/// extension, a SOAP module or protocol not implemented, [`ErrorKind::Invalid`](crate::ErrorKind::Invalid) for an element the
/// operation's pattern does not allow or an attribute or element of WSDL 1.1's SOAP namespace in a
/// SOAP binding; each located. A SOAP binding without `wsoap:protocol` is read as SOAP over HTTP
/// with a warning in `into.warnings`.
pub fn read_description(
    doc: &DocCtx,
    root: Node,
    into: &mut Description,
) -> Result<Vec<WsdlImport>> {
    into.read = true;
    let tns = root
        .attribute("targetNamespace")
        .ok_or_else(|| missing(doc, root, "targetNamespace"))?
        .to_owned();
    let mut imports = Vec::new();
    for c in root.children().filter(Node::is_element) {
        check_extension(doc, c)?;
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        let loc = doc.loc(c);
        match c.tag_name().name() {
            "documentation" | "types" => {}
            "include" => imports.push(WsdlImport {
                location: required(doc, c, "location")?.to_owned(),
                loc,
            }),
            "import" => {
                required(doc, c, "namespace")?;
                if let Some(l) = c.attribute("location") {
                    imports.push(WsdlImport {
                        location: l.to_owned(),
                        loc,
                    });
                }
            }
            "interface" => {
                let i = read_interface(doc, c, &tns)?;
                if let Some(prev) = into.interfaces.get(&i.name) {
                    return Err(duplicate("interface", &i.name, &prev.loc, &loc));
                }
                into.interfaces.insert(i.name.clone(), i);
            }
            "binding" => {
                let b = read_binding(doc, c, &tns, &mut into.warnings)?;
                if let Some(prev) = into.bindings.get(&b.name) {
                    return Err(duplicate("binding", &b.name, &prev.loc, &loc));
                }
                into.bindings.insert(b.name.clone(), b);
            }
            "service" => {
                let s = read_service(doc, c, &tns)?;
                if let Some(prev) = into.services.iter().find(|p| p.name == s.name) {
                    return Err(duplicate("service", &s.name, &prev.loc, &loc));
                }
                into.services.push(s);
            }
            _ => return Err(unexpected(doc, c, "description")),
        }
    }
    crate::read::policy::read(doc, root, &tns, &[], &mut into.addressing);
    Ok(imports)
}
