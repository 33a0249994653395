//! The WSDL 2.0 vocabulary the readers share: the namespaces and URIs of the SOAP and HTTP
//! bindings (with the drafts' spellings) and of the message exchange patterns, required
//! attributes, `wsoap:` attributes and elements, and the checks on extension elements (Part 1
//! §6.1.1) and on elements the Recommendation does not have; located errors.

use roxmltree::Node;

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::{QName, WSDL20};
use crate::read::document::DocCtx;

/// The WSDL 2.0 SOAP binding type and `wsoap` namespace (Part 2 §5).
pub const WSOAP: &str = "http://www.w3.org/ns/wsdl/soap";
/// The WSDL 2.0 HTTP binding type (Part 2 §6).
pub const WHTTP: &str = "http://www.w3.org/ns/wsdl/http";
/// Namespaces of the WSDL 2.0 drafts (2004–2006) for the SOAP binding, still found in real documents
/// (Apache Axis2's samples): read as the Recommendation's. The 2004 one named SOAP 1.2 itself.
pub(super) const WSOAP_DRAFTS: &[&str] = &[
    "http://www.w3.org/2006/01/wsdl/soap",
    "http://www.w3.org/2005/08/wsdl/soap",
    "http://www.w3.org/2004/08/wsdl/soap12",
];
pub(super) const WSOAP_2004_SOAP12: &str = "http://www.w3.org/2004/08/wsdl/soap12";
pub(super) const WHTTP_DRAFTS: &[&str] = &[
    "http://www.w3.org/2006/01/wsdl/http",
    "http://www.w3.org/2005/08/wsdl/http",
    "http://www.w3.org/2004/08/wsdl/http",
];
/// Part 2 §2.2: the message exchange patterns, and their draft spellings' common prefixes.
pub(super) const MEP_PREFIXES: &[&str] = &[
    "http://www.w3.org/ns/wsdl/",
    "http://www.w3.org/2006/01/wsdl/",
    "http://www.w3.org/2005/08/wsdl/",
    "http://www.w3.org/2004/08/wsdl/",
];
/// SOAP 1.2 Part 2 §7: the SOAP HTTP binding (`wsoap:protocol` for SOAP 1.2).
pub(super) const SOAP12_HTTP: &str = "http://www.w3.org/2003/05/soap/bindings/HTTP";
/// The W3C Note "WSDL 2.0 SOAP 1.1 Binding" (2007) §2: `wsoap:protocol` for SOAP 1.1 over HTTP.
pub(super) const SOAP11_HTTP: &str = "http://www.w3.org/2006/01/soap11/bindings/HTTP";
/// SOAP 1.2 Part 2 §6.2: the request-response SOAP MEP (`wsoap:mep`, Part 2 §5.4).
pub(super) const SOAP_MEP_REQUEST_RESPONSE: &str =
    "http://www.w3.org/2003/05/soap/mep/request-response";
/// SOAP 1.2 Part 2 §6.3: the SOAP response MEP (a GET: no request envelope).
pub(super) const SOAP_MEP_SOAP_RESPONSE: &str = "http://www.w3.org/2003/05/soap/mep/soap-response";

pub(super) fn missing(doc: &DocCtx, node: Node, what: &str) -> Error {
    Error::at(
        ErrorKind::Missing(format!("`{what}` attribute on {}", node.tag_name().name())),
        &doc.loc(node),
    )
}

pub(super) fn required<'a>(doc: &DocCtx, node: Node<'a, '_>, attr: &str) -> Result<&'a str> {
    node.attribute(attr).ok_or_else(|| missing(doc, node, attr))
}

pub(super) fn required_qname(doc: &DocCtx, node: Node, attr: &str) -> Result<QName> {
    doc.qname_attr(node, attr)?
        .ok_or_else(|| missing(doc, node, attr))
}

pub(super) fn unsupported(doc: &DocCtx, node: Node, what: String) -> Error {
    Error::at(ErrorKind::Unsupported(what), &doc.loc(node))
}

/// A `wsoap:` attribute, in the Recommendation's namespace or a draft's.
pub(super) fn wsoap_attr<'a>(node: Node<'a, '_>, local: &str) -> Option<(&'a str, bool)> {
    node.attributes().find_map(|a| {
        let ns = a.namespace()?;
        (a.name() == local && (ns == WSOAP || WSOAP_DRAFTS.contains(&ns)))
            .then(|| (a.value(), ns != WSOAP))
    })
}

pub(super) fn is_wsoap_element(n: &Node, local: &str) -> bool {
    n.is_element()
        && n.tag_name().name() == local
        && n.tag_name()
            .namespace()
            .is_some_and(|ns| ns == WSOAP || WSOAP_DRAFTS.contains(&ns))
}

pub(super) fn truthy(v: Option<&str>) -> bool {
    matches!(v.map(str::trim), Some("true" | "1"))
}

/// Part 1 §6.1.1: an extension element marked `wsdl:required="true"` must be understood; none is
/// here but the SOAP binding's own, so such an element is refused by name.
pub(super) fn check_extension(doc: &DocCtx, n: Node) -> Result<()> {
    if n.is_element()
        && n.tag_name().namespace() != Some(WSDL20)
        && truthy(n.attribute((WSDL20, "required")))
    {
        return Err(unsupported(
            doc,
            n,
            format!(
                "the required extension {{{}}}{} (WSDL 2.0 Part 1 §6.1.1: a client must understand \
                 it)",
                n.tag_name().namespace().unwrap_or_default(),
                n.tag_name().name()
            ),
        ));
    }
    Ok(())
}

/// An element of the WSDL 2.0 namespace where the Recommendation allows none of that name
/// (the drafts' `feature` and `property`, a misspelling…).
pub(super) fn unexpected(doc: &DocCtx, n: Node, parent: &str) -> Error {
    unsupported(
        doc,
        n,
        format!(
            "the WSDL 2.0 element `{}` inside `{parent}` (not in the WSDL 2.0 Recommendation)",
            n.tag_name().name()
        ),
    )
}

/// A component named twice: where it is again, naming where it was first.
pub(super) fn duplicate(what: &str, name: &QName, first: &Loc, at: &Loc) -> Error {
    Error::at(
        ErrorKind::Duplicate(format!("{what} {name} (first defined at {first})")),
        at,
    )
}

/// A reference to a component not read.
pub(super) fn undefined(what: String, at: &Loc) -> Error {
    Error::at(ErrorKind::Undefined(what), at)
}
