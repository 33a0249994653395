//! WSDL 2.0 services (Part 1 §2.15–§2.16): the endpoints, each with its binding and address.

use roxmltree::Node;

use super::description::{Endpoint, Service20};
use super::syntax::{check_extension, required, required_qname, unexpected};
use crate::error::Result;
use crate::read::components::{QName, WSDL20};
use crate::read::document::DocCtx;

pub(super) fn read_service(doc: &DocCtx, node: Node, tns: &str) -> Result<Service20> {
    let mut s = Service20 {
        name: QName::new(tns, required(doc, node, "name")?),
        interface: required_qname(doc, node, "interface")?,
        endpoints: Vec::new(),
        doc: doc.documentation(node),
        loc: doc.loc(node),
    };
    for c in node.children().filter(Node::is_element) {
        check_extension(doc, c)?;
        if c.tag_name().namespace() != Some(WSDL20) {
            continue;
        }
        match c.tag_name().name() {
            "documentation" => {}
            "endpoint" => {
                for e in c.children().filter(Node::is_element) {
                    check_extension(doc, e)?;
                }
                s.endpoints.push(Endpoint {
                    name: required(doc, c, "name")?.to_owned(),
                    binding: required_qname(doc, c, "binding")?,
                    address: c.attribute("address").map(|a| a.trim().to_owned()),
                    loc: doc.loc(c),
                })
            }
            _ => return Err(unexpected(doc, c, "service")),
        }
    }
    Ok(s)
}
