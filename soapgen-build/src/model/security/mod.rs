//! The security each port's WS-SecurityPolicy demands of each operation's messages.
//!
//! The effective policy of a message (Web Services Policy 1.5 Attachment §4.1.2) is the merge of
//! the policies attached to its endpoint (the port, its binding and its portType), to its
//! operation (in the binding and in the portType) and to the message itself (the binding's and
//! the portType's `input`/`output`, and the `wsdl:message`). Each alternative of it is
//! [interpreted](interpret) into a [`MessagePolicy`] or refused; a client uses the first
//! alternative it can enforce (as CXF does). [`apply`] puts the result on each client's ports
//! ([`PortDecl::security`](crate::model::ir::PortDecl::security)), refuses a port whose
//! policy has no alternative soapgen can enforce (a located error naming each assertion and its
//! binding), unless the user configures that port's security by hand, and says what it leaves
//! out.

pub mod describe;
pub mod interpret;
pub mod runtime;
pub mod types;
mod xpath;

use std::collections::BTreeSet;

use crate::error::{Error, ErrorKind, Warning};
use crate::model::ir::ClientDecl;
use crate::read::components::{Definitions, OperationPolicies, Policy, QName};

pub use types::{
    Interpretation, MessagePolicy, MessageSecurity, OperationSecurity, PortSecurity, Refusal,
};

/// Which ports to generate (by port name; all when `None`): the others are left out of the
/// clients, their policies neither enforced nor refused.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PortSelection(pub Option<BTreeSet<String>>);

impl PortSelection {
    fn selects(&self, port: &str) -> bool {
        self.0.as_ref().is_none_or(|s| s.contains(port))
    }

    /// Checks that every name given is a port of `defs`.
    ///
    /// # Errors
    ///
    /// An unknown name, listing the ports there are.
    pub fn check(&self, defs: &Definitions) -> Result<(), crate::error::Errors> {
        let Some(names) = &self.0 else {
            return Ok(());
        };
        let known: BTreeSet<&str> = defs
            .services
            .iter()
            .flat_map(|s| s.ports.iter().map(|p| p.name.as_str()))
            .collect();
        unknown_names(names.iter(), &known, |n, known| {
            format!("no port named {n:?}; the ports are: {known}")
        })
    }

    /// Leaves out of `clients` the ports not selected, the bindings no selected port uses, and
    /// the clients left with no binding; a client's default endpoint is its first selected
    /// port's address.
    pub fn apply(&self, clients: &mut Vec<ClientDecl>) {
        if self.0.is_none() {
            return;
        }
        for c in clients.iter_mut() {
            c.ports.retain(|p| self.selects(&p.port));
            let used: Vec<QName> = c.ports.iter().map(|p| p.binding.clone()).collect();
            c.bindings.retain(|(b, _)| used.contains(b));
            c.versions
                .retain(|v| c.bindings.iter().any(|(_, bv)| bv == v));
            c.endpoint = c
                .ports
                .first()
                .and_then(|p| p.usable_address())
                .map(str::to_owned);
        }
        clients.retain(|c| !c.bindings.is_empty());
    }
}

/// Which ports' security the user configures by hand (their policy is reported but neither
/// enforced nor refused): port or binding local names; `*` for every port whose policy soapgen
/// cannot enforce (the others keep theirs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManualSecurity(pub BTreeSet<String>);

impl ManualSecurity {
    /// Whether the port or its binding is named.
    fn names(&self, port: &str, binding: &QName) -> bool {
        self.0.contains(port) || self.0.contains(&binding.local)
    }

    /// Whether `*` was given.
    fn every_refused(&self) -> bool {
        self.0.contains("*")
    }

    /// Checks that every name given is `*` or a port or binding of `defs`.
    ///
    /// # Errors
    ///
    /// An unknown name, listing the ports and bindings there are.
    pub fn check(&self, defs: &Definitions) -> Result<(), crate::error::Errors> {
        let known: BTreeSet<&str> = defs
            .services
            .iter()
            .flat_map(|s| s.ports.iter().map(|p| p.name.as_str()))
            .chain(defs.bindings.keys().map(|b| b.local.as_str()))
            .collect();
        unknown_names(self.0.iter().filter(|n| *n != "*"), &known, |n, known| {
            format!(
                "manual security for {n:?}: no port or binding of that name; they are: {known} \
                 (or * for every port whose policy soapgen cannot enforce)"
            )
        })
    }
}

/// An error per name of `names` that `known` lacks, its message from `message(name, the known
/// names listed)`.
fn unknown_names<'a>(
    names: impl Iterator<Item = &'a String>,
    known: &BTreeSet<&str>,
    message: impl Fn(&str, &str) -> String,
) -> Result<(), crate::error::Errors> {
    let listed = known.iter().copied().collect::<Vec<_>>().join(", ");
    let errors: Vec<Error> = names
        .filter(|n| !known.contains(n.as_str()))
        .map(|n| {
            let e = Error::new(ErrorKind::Invalid(message(n, &listed)), None);
            match crate::model::select::closest(n, known) {
                Some(close) => e.with_hint(format!("did you mean {close:?}?")),
                None => e,
            }
        })
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(crate::error::Errors(errors))
    }
}

/// The effective policy of one message (Attachment §4.1.2), or `None` when the merge has too
/// many alternatives.
fn effective(parts: &[Option<&Policy>]) -> Option<Policy> {
    let mut p = Policy::default();
    for q in parts.iter().flatten() {
        p = p.merge(q)?;
    }
    Some(p)
}

/// Interprets every alternative of `policy`.
fn interpreted(policy: &Policy) -> MessageSecurity {
    MessageSecurity {
        alternatives: policy
            .alternatives
            .iter()
            .map(|a| {
                let mut i = interpret::interpret(a);
                // With a reference to no policy, what the rest lacks is beside the point.
                let unknown = i
                    .refused
                    .iter()
                    .any(|r| r.assertion.ns == crate::read::policy::link::REFERENCE);
                if !unknown {
                    i.refused.extend(runtime::unenforceable(&i.policy));
                }
                i
            })
            .collect(),
    }
}

/// Where [`apply`] reports: warnings (what is left out), errors (what cannot be enforced). What
/// each secured port demands is in its [`PortSecurity`], which the generated client's
/// documentation and `soapgen inspect` describe.
#[derive(Debug)]
pub struct Diagnostics<'a> {
    /// Located warnings.
    pub warnings: &'a mut Vec<Warning>,
    /// Located errors.
    pub errors: &'a mut Vec<Error>,
}

/// Sets each client port's [`security`](crate::model::ir::PortDecl::security) from the policies
/// attached in `defs`. A port whose request or response policy has no alternative soapgen can
/// enforce is an error naming the assertions and the binding (unless `manual` covers it: then a
/// warning); ignorable or optional assertions left out are warnings.
pub fn apply(
    defs: &Definitions,
    clients: &mut [ClientDecl],
    manual: &ManualSecurity,
    diagnostics: &mut Diagnostics<'_>,
) {
    let Diagnostics { warnings, errors } = diagnostics;
    let att = &defs.policies;
    for c in clients.iter_mut() {
        for port in &mut c.ports {
            let Some(binding) = defs.bindings.get(&port.binding) else {
                continue;
            };
            let service = defs
                .services
                .iter()
                .find(|s| s.name.local == port.service)
                .map(|s| s.name.clone());
            let port_key = service.map(|s| (s, port.port.clone()));
            let endpoint = [
                port_key.as_ref().and_then(|k| att.ports.get(k)),
                att.bindings.get(&binding.name),
                att.port_types.get(&binding.port_type),
            ];
            let mut security = PortSecurity {
                manual: manual.names(&port.port, &binding.name),
                ..PortSecurity::default()
            };
            let none = OperationPolicies::default();
            for op in &binding.operations {
                let b = att
                    .binding_operations
                    .get(&(binding.name.clone(), op.name.clone()))
                    .unwrap_or(&none);
                let t = att
                    .port_type_operations
                    .get(&(binding.port_type.clone(), op.name.clone()))
                    .unwrap_or(&none);
                let pto = defs
                    .port_types
                    .get(&binding.port_type)
                    .and_then(|pt| pt.operations.iter().find(|o| o.name == op.name));
                let input_msg = pto
                    .and_then(|o| o.input.as_ref())
                    .and_then(|m| att.messages.get(m));
                let output_msg = pto
                    .and_then(|o| o.output.as_ref())
                    .and_then(|m| att.messages.get(m));
                let mut message = |m: [Option<&Policy>; 3]| {
                    let mut all: Vec<Option<&Policy>> = endpoint.to_vec();
                    all.extend([Some(&b.operation), Some(&t.operation)]);
                    all.extend(m);
                    match effective(&all) {
                        Some(p) => interpreted(&p),
                        None => {
                            errors.push(Error::at(
                                ErrorKind::Unsupported(format!(
                                    "the effective WS-Policy of operation {} at port {} has more \
                                     than {} alternatives (WS-Policy 1.5 §4.5)",
                                    op.name,
                                    port.port,
                                    crate::read::components::MAX_ALTERNATIVES
                                )),
                                &port.loc,
                            ));
                            MessageSecurity::default()
                        }
                    }
                };
                let input = message([Some(&b.input), Some(&t.input), input_msg]);
                let output = message([Some(&b.output), Some(&t.output), output_msg]);
                // A fault is checked against the response's policy (WSS 1.1 §8.4: marked
                // verified or not); a fault whose own policy asks otherwise is said.
                // One with no policy of its own asks less than the response: held to the
                // response's, it is only marked.
                for (fault, fault_message) in pto.map(|o| o.faults.as_slice()).unwrap_or(&[]) {
                    let own = [
                        b.faults.get(fault),
                        t.faults.get(fault),
                        att.messages.get(fault_message),
                    ];
                    if own.iter().flatten().all(|p| p.is_empty()) {
                        continue;
                    }
                    // At the fault's own policy (its first assertion), else at the port.
                    let at = own
                        .iter()
                        .flatten()
                        .flat_map(|p| p.alternatives.iter())
                        .flat_map(|a| a.assertions.iter())
                        .map(|a| a.loc.clone())
                        .next()
                        .unwrap_or_else(|| port.loc.clone());
                    let f = message(own);
                    let said = |m: &MessageSecurity| m.chosen().map(describe::response);
                    if said(&f) != said(&output) {
                        warnings.push(Warning {
                            message: format!(
                                "port {} operation {}: the WS-SecurityPolicy of fault {fault} \
                                 differs from the response's; a fault is checked against the \
                                 response's policy and marked verified or not (WSS 1.1 §8.4)",
                                port.port, op.name
                            ),
                            loc: at,
                        });
                    }
                }
                security.operations.push(OperationSecurity {
                    wsdl_name: op.name.clone(),
                    input,
                    output,
                });
            }
            if manual.every_refused() && !security.enforceable() {
                security.manual = true;
            }
            report(
                &port.port,
                &binding.name,
                &security,
                &mut Diagnostics { warnings, errors },
                &port.loc,
            );
            plain_http(port, &security, warnings);
            if !security.is_unsecured() {
                port.security = Some(security);
            }
        }
    }
}

/// A warning for a port whose policy's TransportBinding needs HTTPS at a plain HTTP address: a
/// client built for it refuses to build.
fn plain_http(
    port: &crate::model::ir::PortDecl,
    security: &PortSecurity,
    warnings: &mut Vec<Warning>,
) {
    let over_tls = security.operations.iter().any(|o| {
        [&o.input, &o.output].iter().any(|m| {
            matches!(
                m.chosen().and_then(|p| p.binding.as_ref()),
                Some(types::SecurityBinding::Transport { .. })
            )
        })
    });
    if !over_tls || security.manual {
        return;
    }
    if let Some(a) = port.address.as_deref().filter(|a| {
        a.get(..7)
            .is_some_and(|s| s.eq_ignore_ascii_case("http://"))
    }) {
        warnings.push(Warning {
            message: format!(
                "port {}: its address {a} is plain HTTP, but its WS-SecurityPolicy's \
                 TransportBinding needs HTTPS: a client built for that address fails \
                 (WssError::HttpsRequired); give it the service's https:// URL",
                port.port
            ),
            loc: port.loc.clone(),
        });
    }
}

/// The warnings and errors of one port.
fn report(
    port: &str,
    binding: &QName,
    security: &PortSecurity,
    d: &mut Diagnostics<'_>,
    loc: &crate::error::Loc,
) {
    let (warnings, errors) = (&mut *d.warnings, &mut *d.errors);
    if security.is_unsecured() {
        return;
    }
    let mut refused: Vec<String> = Vec::new();
    let mut first_loc = None;
    for op in &security.operations {
        for (what, m) in [("request", &op.input), ("response", &op.output)] {
            if m.is_unsecured() {
                continue;
            }
            match m.chosen() {
                Some(_) => {
                    for i in m
                        .alternatives
                        .iter()
                        .filter(|a| a.refused.is_empty())
                        .take(1)
                    {
                        for r in &i.ignored {
                            warnings.push(Warning {
                                message: format!(
                                    "port {port} (binding {binding}): {} is optional or \
                                     ignorable and not supported: left out of the {what} of \
                                     {} ({})",
                                    types::prefixed(&r.assertion),
                                    op.wsdl_name,
                                    r.reason
                                ),
                                loc: r.loc.clone(),
                            });
                        }
                    }
                }
                None => {
                    for a in &m.alternatives {
                        for r in &a.refused {
                            first_loc.get_or_insert_with(|| r.loc.clone());
                            let line = r.to_string();
                            if !refused.contains(&line) {
                                refused.push(line);
                            }
                        }
                    }
                }
            }
        }
    }
    if refused.is_empty() && !security.manual && clear_password(security) {
        warnings.push(Warning {
            message: format!(
                "port {port} (binding {binding}): the UsernameToken its policy asks for \
                 carries the password as text, neither hashed nor encrypted, outside a \
                 TransportBinding: call this port over https only"
            ),
            loc: loc.clone(),
        });
    }
    if !refused.is_empty() {
        let message = format!(
            "port {port} (binding {binding}): its WS-SecurityPolicy has no alternative soapgen \
             can enforce: {}",
            refused.join("; ")
        );
        if security.manual {
            warnings.push(Warning {
                message: format!("{message} (its security is configured by hand)"),
                loc: first_loc.unwrap_or_else(|| loc.clone()),
            });
        } else {
            errors.push(Error::at(
                ErrorKind::Unsupported(format!(
                    "{message}; leave the port out (generate the ports you call: --port, \
                     Builder::ports) or configure its security by hand (--manual-security \
                     {port}, or '*' for every port whose policy soapgen cannot enforce; \
                     Builder::manual_security)"
                )),
                &first_loc.unwrap_or_else(|| loc.clone()),
            ));
        }
    }
}

/// Whether a request's policy sends a UsernameToken's password as text, unencrypted, outside
/// a TransportBinding (UsernameToken Profile 1.1 §4.1 warns against it).
fn clear_password(security: &PortSecurity) -> bool {
    use types::{PasswordRequirement, SecurityBinding, SupportingRole, TokenKind};
    security
        .operations
        .iter()
        .filter_map(|o| o.input.chosen())
        .filter(|p| !matches!(p.binding, Some(SecurityBinding::Transport { .. })))
        .flat_map(|p| &p.supporting)
        .filter(|s| {
            !matches!(
                s.role,
                SupportingRole::Encrypted
                    | SupportingRole::SignedEncrypted
                    | SupportingRole::EndorsingEncrypted
                    | SupportingRole::SignedEndorsingEncrypted
            )
        })
        .flat_map(|s| &s.tokens)
        .any(|t| {
            matches!(
                t.kind,
                TokenKind::Username {
                    password: PasswordRequirement::Text,
                    ..
                }
            )
        })
}

#[cfg(test)]
mod tests;
