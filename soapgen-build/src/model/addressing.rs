//! WS-Addressing in the model: which clients address their calls, and in which version, as the
//! WSDL says (WS-Addressing 1.0 Metadata §3.1 `wsam:Addressing`, the WSDL Binding CR's
//! `wsaw:UsingAddressing`, the 2004/08 submission's policy assertion), and each operation's
//! `wsa:Action`: explicit (`wsam:Action`/`wsaw:Action`, Metadata §4.4.1), else the default
//! action pattern (Metadata §4.4.4).
//!
//! [`read::policy`](crate::read::policy) reads the facts into
//! [`AddressingFacts`](crate::read::components::AddressingFacts);
//! [`apply`] turns them into [`ClientDecl::addressing`] and
//! [`OperationDecl::action`](crate::model::ir::OperationDecl::action).

use crate::error::Warning;
use crate::model::ir::ClientDecl;
use crate::read::components::{Definitions, OperationActions};

/// The default action of a message (Metadata §4.4.4): `[target namespace][delimiter][port type
/// name][delimiter][message name]`, the delimiter `:` when the namespace is a URN (RFC 8141)
/// and `/` otherwise, and none added after a namespace already ending in it.
pub fn default_action(namespace: &str, port_type: &str, message: &str) -> String {
    let urn = namespace.len() > 4 && namespace[..4].eq_ignore_ascii_case("urn:");
    let d = if urn { ':' } else { '/' };
    let mut s = String::with_capacity(namespace.len() + port_type.len() + message.len() + 2);
    s.push_str(namespace);
    if !s.ends_with(d) {
        s.push(d);
    }
    s.push_str(port_type);
    s.push(d);
    s.push_str(message);
    s
}

/// The input message's name for the default pattern (Metadata §4.4.4, with WSDL 1.1 §2.4.5's
/// default names): the input's `name`, else the operation's name, followed by `Request` for a
/// request-response operation.
///
/// WSDL 2.0 (Metadata §4.4.2): the operation's name and the direction token `Request`, whatever
/// the message exchange pattern.
pub fn default_input_name(op: &str, acts: &OperationActions) -> String {
    if acts.wsdl20 {
        return format!("{op}Request");
    }
    match &acts.input_name {
        Some(n) => n.clone(),
        None if acts.has_output => format!("{op}Request"),
        None => op.to_owned(),
    }
}

/// The output message's name for the default pattern (Metadata §4.4.4, with WSDL 1.1 §2.4.5's
/// default names): the output's `name`, else the operation's name followed by `Response`.
/// WSDL 2.0 (Metadata §4.4.2): the operation's name and the direction token `Response`.
pub fn default_output_name(op: &str, acts: &OperationActions) -> String {
    match &acts.output_name {
        Some(n) if !acts.wsdl20 => n.clone(),
        _ => format!("{op}Response"),
    }
}

/// Sets each client's [`ClientDecl::addressing`] from its bindings and ports, and, for an
/// addressed client, each operation's action to its `wsa:Action`. A `soapAction` that differs
/// from the `wsa:Action` is replaced (WS-Addressing 1.0 SOAP Binding §3–§4: the SOAP action, when
/// not empty, equals the action) with a located warning.
pub fn apply(defs: &Definitions, clients: &mut [ClientDecl], warnings: &mut Vec<Warning>) {
    let facts = &defs.addressing;
    for c in clients.iter_mut() {
        for p in &mut c.ports {
            p.addressed = facts.bindings.contains_key(&p.binding)
                || facts
                    .ports
                    .keys()
                    .any(|(s, n)| s.local == p.service && *n == p.port);
        }
        // Per SOAP version: its binding's word, else one of its ports'.
        for v in c.versions.clone() {
            let from_binding = c
                .bindings
                .iter()
                .filter(|(_, bv)| *bv == v)
                .find_map(|(b, _)| facts.bindings.get(b).map(|a| a.0));
            let from_port = c.ports.iter().filter(|p| p.version == v).find_map(|p| {
                facts
                    .ports
                    .iter()
                    .find(|((s, n), _)| s.local == p.service && *n == p.port)
                    .map(|(_, a)| a.0)
            });
            if let Some(a) = from_binding.or(from_port) {
                c.addressing.push((v, a));
            }
        }
        let Some(&(_, version)) = c.addressing.first() else {
            continue;
        };
        let pt = &c.port_type;
        for op in &mut c.operations {
            let acts = facts
                .actions
                .get(&(pt.clone(), op.wsdl_name.clone()))
                .cloned()
                .unwrap_or_default();
            let action = acts.input.clone().unwrap_or_else(|| {
                default_action(&pt.ns, &pt.local, &default_input_name(&op.wsdl_name, &acts))
            });
            if !op.action.is_empty() && op.action != action {
                let loc = defs.port_types.get(pt).map(|p| {
                    p.operations
                        .iter()
                        .find(|o| o.name == op.wsdl_name)
                        .map_or_else(|| p.loc.clone(), |o| o.loc.clone())
                });
                if let Some(loc) = loc {
                    warnings.push(Warning {
                        message: format!(
                            "operation {}: soapAction {:?} is not its wsa:Action {action:?}; \
                             {version} sends the wsa:Action as the SOAP action too (SOAP \
                             Binding §3–§4)",
                            op.wsdl_name, op.action
                        ),
                        loc,
                    });
                }
            }
            op.action = action;
            // What the reply must carry (request-response operations only).
            op.reply_action = op.response.is_some().then(|| {
                acts.output.clone().unwrap_or_else(|| {
                    default_action(
                        &pt.ns,
                        &pt.local,
                        &default_output_name(&op.wsdl_name, &acts),
                    )
                })
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_action_pattern() {
        // Metadata §4.4.4's examples: a URL namespace, and a URN's ':' delimiter.
        assert_eq!(
            default_action("http://greath.example.com/2004/wsdl/resSvc", "reservationInterface", "opCheckAvailabilityRequest"),
            "http://greath.example.com/2004/wsdl/resSvc/reservationInterface/opCheckAvailabilityRequest"
        );
        assert_eq!(
            default_action("http://x/", "P", "opRequest"),
            "http://x/P/opRequest"
        );
        assert_eq!(
            default_action("urn:example:svc", "P", "GetRequest"),
            "urn:example:svc:P:GetRequest"
        );
        let acts = OperationActions {
            has_output: true,
            ..Default::default()
        };
        assert_eq!(default_input_name("Get", &acts), "GetRequest");
        let one_way = OperationActions::default();
        assert_eq!(default_input_name("Ping", &one_way), "Ping");
        let named = OperationActions {
            input_name: Some("In".into()),
            has_output: true,
            ..Default::default()
        };
        assert_eq!(default_input_name("Get", &named), "In");
    }
}
