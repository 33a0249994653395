//! WSDL 2.0 SOAP bindings (WSDL 2.0 Part 2 §5): `wsoap:protocol`, `wsoap:version`, `wsoap:mep` and
//! `wsoap:action` per operation, `wsoap:header`s, and the checks that tell a WSDL 1.1 SOAP binding
//! element misplaced in a WSDL 2.0 document from a missing attribute.

use roxmltree::Node;

use super::description::{Binding20, BindingOperation20, BindingType};
use super::syntax::{
    check_extension, is_wsoap_element, required, required_qname, truthy, unexpected, unsupported,
    wsoap_attr, SOAP11_HTTP, SOAP12_HTTP, SOAP_MEP_REQUEST_RESPONSE, SOAP_MEP_SOAP_RESPONSE, WHTTP,
    WHTTP_DRAFTS, WSOAP, WSOAP_2004_SOAP12, WSOAP_DRAFTS,
};
use crate::error::{Error, ErrorKind, Result, Warning};
use crate::read::components::{QName, WSDL20};
use crate::read::document::DocCtx;

pub(super) fn read_binding(
    doc: &DocCtx,
    node: Node,
    tns: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Binding20> {
    let name = QName::new(tns, required(doc, node, "name")?);
    let loc = doc.loc(node);
    let ty = required(doc, node, "type")?.trim();
    let kind = if ty == WSOAP || WSOAP_DRAFTS.contains(&ty) {
        check_wsdl11_soap(doc, node)?;
        let version = wsoap_attr(node, "version").map(|(v, _)| v.trim());
        let soap12 = match version {
            None | Some("1.2") => true, // Part 2 §5.3: SOAP 1.2 by default
            Some("1.1") if ty != WSOAP_2004_SOAP12 => false,
            Some(v) => {
                return Err(unsupported(
                    doc,
                    node,
                    format!("wsoap:version {v:?} with binding type {ty} (SOAP 1.1 and 1.2 are)"),
                ))
            }
        };
        match wsoap_attr(node, "protocol") {
            // Part 2 §5.3 requires {soap underlying protocol}; Apache Axis2 writes SOAP bindings
            // without it, meaning SOAP over HTTP, the only protocol generated anyway.
            None => warnings.push(Warning {
                message: format!(
                    "SOAP binding {} has no wsoap:protocol (WSDL 2.0 Part 2 §5.3 requires one): \
                     read as SOAP {} over HTTP, {}/",
                    name.local,
                    if soap12 { "1.2" } else { "1.1" },
                    if soap12 { SOAP12_HTTP } else { SOAP11_HTTP }
                ),
                loc: loc.clone(),
            }),
            Some((p, _)) => {
                let p = p.trim().trim_end_matches('/');
                let expected = if soap12 { SOAP12_HTTP } else { SOAP11_HTTP };
                if p != SOAP12_HTTP && p != SOAP11_HTTP {
                    return Err(unsupported(
                        doc,
                        node,
                        format!(
                            "wsoap:protocol {p:?} (only SOAP over HTTP is: {SOAP12_HTTP}/ or {SOAP11_HTTP}/)"
                        ),
                    ));
                }
                if p != expected {
                    return Err(Error::at(
                        ErrorKind::Invalid(format!(
                            "wsoap:protocol {p:?} does not carry SOAP {}: use {expected}/",
                            if soap12 { "1.2" } else { "1.1" }
                        )),
                        &loc,
                    ));
                }
            }
        }
        BindingType::Soap { soap12 }
    } else if ty == WHTTP || WHTTP_DRAFTS.contains(&ty) {
        BindingType::Http
    } else {
        BindingType::Other(ty.to_owned())
    };
    let mut b = Binding20 {
        name,
        interface: doc.qname_attr(node, "interface")?,
        mep_default: None,
        query_separator_default: node
            .attribute((WHTTP, "queryParameterSeparatorDefault"))
            .map(str::to_owned),
        kind,
        operations: Vec::new(),
        faults: Vec::new(),
        loc,
    };
    let soap = matches!(b.kind, BindingType::Soap { .. });
    if soap {
        b.mep_default = soap_mep(node, "mepDefault");
    }
    for c in node.children().filter(Node::is_element) {
        if soap {
            check_soap_extension(doc, c)?;
        } else if c.tag_name().namespace() != Some(WSDL20) {
            continue; // HTTP and other bindings are not generated: their extensions do not matter
        }
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        match c.tag_name().name() {
            "documentation" => {}
            "fault" => b.faults.push((required_qname(doc, c, "ref")?, doc.loc(c))),
            "operation" => {
                let mut op = BindingOperation20 {
                    reference: required_qname(doc, c, "ref")?,
                    action: wsoap_attr(c, "action").map(|(a, _)| a.to_owned()),
                    mep: if soap { soap_mep(c, "mep") } else { None },
                    location: c.attribute((WHTTP, "location")).map(str::to_owned),
                    query_separator: c
                        .attribute((WHTTP, "queryParameterSeparator"))
                        .map(str::to_owned),
                    input_headers: Vec::new(),
                    output_headers: Vec::new(),
                    loc: doc.loc(c),
                };
                for m in c.children().filter(Node::is_element) {
                    if soap {
                        check_soap_extension(doc, m)?;
                    }
                    if m.tag_name().namespace() != Some(WSDL20) {
                        continue;
                    }
                    let headers = match m.tag_name().name() {
                        "documentation" => continue,
                        "input" => &mut op.input_headers,
                        "output" => &mut op.output_headers,
                        "infault" | "outfault" => {
                            required_qname(doc, m, "ref")?;
                            continue;
                        }
                        _ => return Err(unexpected(doc, m, "binding operation")),
                    };
                    for h in m.children().filter(Node::is_element) {
                        if soap {
                            check_soap_extension(doc, h)?;
                        }
                        if is_wsoap_element(&h, "header") {
                            headers.push((required_qname(doc, h, "element")?, doc.loc(h)));
                        }
                    }
                }
                b.operations.push(op);
            }
            _ => return Err(unexpected(doc, c, "binding")),
        }
    }
    Ok(b)
}

/// `wsoap:mep`/`wsoap:mepDefault` (Part 2 §5.4) in the Recommendation's namespace (the drafts used
/// other values: not read).
pub(super) fn soap_mep(node: Node, attr: &str) -> Option<String> {
    match wsoap_attr(node, attr) {
        Some((v, false)) => Some(v.trim().to_owned()),
        _ => None,
    }
}

/// Why an operation bound with the SOAP MEP `mep` (in a SOAP 1.2 binding when `soap12`) is not
/// generated.
pub(super) fn mep_reason(mep: &str, soap12: bool) -> String {
    if mep.trim_end_matches('/') == SOAP_MEP_SOAP_RESPONSE && !soap12 {
        format!(
            "its wsoap:mep is the SOAP-response MEP {mep}/, which SOAP 1.2 defines (SOAP 1.2 Part \
             2 §6.3) and SOAP 1.1 does not, in a binding of wsoap:version 1.1"
        )
    } else {
        format!(
            "its wsoap:mep {mep} is neither the request-response SOAP MEP, \
             {SOAP_MEP_REQUEST_RESPONSE}/, nor the SOAP-response one, {SOAP_MEP_SOAP_RESPONSE}/ \
             (WSDL 2.0 Part 2 §5.10.3), the two generated"
        )
    }
}

/// The namespaces of WSDL 1.1's SOAP 1.1 and SOAP 1.2 bindings (WSDL 1.1 §3, and the SOAP 1.2
/// binding note).
pub(super) const WSDL11_SOAP: &[&str] = &[
    "http://schemas.xmlsoap.org/wsdl/soap/",
    "http://schemas.xmlsoap.org/wsdl/soap12/",
];

/// In a WSDL 2.0 SOAP binding, an attribute or element in a WSDL 1.1 SOAP binding namespace
/// (`soap:version` with `xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/"`) is a prefix bound to
/// the wrong namespace: said so, rather than reading the binding as if it were absent.
pub(super) fn check_wsdl11_soap(doc: &DocCtx, n: Node) -> Result<()> {
    let wrong = |ns: &str, what: String| {
        Error::at(
            ErrorKind::Invalid(format!(
                "{what} is in the namespace {ns}, WSDL 1.1's SOAP binding (WSDL 1.1 §3), inside \
                 a WSDL 2.0 binding, whose SOAP attributes and elements are in {WSOAP} (WSDL 2.0 \
                 Part 2 §5)"
            )),
            &doc.loc(n),
        )
        .with_hint(format!(
            "bind the prefix to {WSOAP}: xmlns:wsoap=\"{WSOAP}\""
        ))
    };
    if let Some(ns) = n
        .tag_name()
        .namespace()
        .filter(|ns| WSDL11_SOAP.contains(ns))
    {
        return Err(wrong(ns, format!("the element {}", n.tag_name().name())));
    }
    for a in n.attributes() {
        if let Some(ns) = a.namespace().filter(|ns| WSDL11_SOAP.contains(ns)) {
            let prefix = n.lookup_prefix(ns).unwrap_or("soap");
            return Err(wrong(
                ns,
                format!(
                    "the attribute {prefix}:{} on {}",
                    a.name(),
                    n.tag_name().name()
                ),
            ));
        }
    }
    Ok(())
}

/// In a SOAP binding: `wsoap:module` required by the service (Part 2 §5.7) is refused by name, as is
/// any other extension marked required.
pub(super) fn check_soap_extension(doc: &DocCtx, n: Node) -> Result<()> {
    check_wsdl11_soap(doc, n)?;
    if is_wsoap_element(&n, "module") && truthy(n.attribute("required")) {
        return Err(unsupported(
            doc,
            n,
            format!(
                "the required SOAP module {} (wsoap:module, WSDL 2.0 Part 2 §5.7)",
                n.attribute("ref").unwrap_or("(no ref)")
            ),
        ));
    }
    check_extension(doc, n)
}
