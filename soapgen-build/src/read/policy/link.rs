//! References to policies of other documents (Web Services Policy 1.5 Attachment §4.1, Framework
//! §4.3.5): a `wsp:PolicyReference` or `wsp:PolicyURIs` entry that names no policy of its own
//! document is read as a placeholder assertion ([`REFERENCE`]); once every document of the WSDL
//! is read, [`link`] replaces each by the normal form of the policy it names in another document:
//! `#id` in any document read (the first, in reading order), `location#id` in the document at
//! that location relative to the referencing one, a `Name` IRI in any document. A placeholder
//! that names nothing read stays: interpreting it refuses it, naming the reference, as Apache
//! CXF refuses an endpoint whose policy reference does not resolve.

use std::sync::Arc;

use crate::error::{Error, ErrorKind, Loc, Result};
use crate::read::components::{Alternative, Assertion, Policy, PolicyAttachments};

/// The namespace of a placeholder assertion: its local name is the reference's URI.
pub const REFERENCE: &str = "urn:soapgen:unresolved-wsp-policy-reference";

/// How deep references may go before a policy is refused as a loop.
const MAX_DEPTH: usize = 32;

/// Replaces the placeholders of every attached policy by the policies they name in other
/// documents ([`Policy`] in normal form: each alternative with a reference becomes one per
/// alternative of the policy it names).
///
/// # Errors
///
/// A policy whose normal form would then have more than
/// [`MAX_ALTERNATIVES`](crate::read::components::MAX_ALTERNATIVES) alternatives, or whose
/// references loop, at the reference.
pub fn link(att: &mut PolicyAttachments) -> Result<()> {
    let named = std::mem::take(&mut att.named);
    let each = |p: &mut Policy| -> Result<()> {
        if mentions(p) {
            *p = substitute(p, &named, 0)?;
        }
        Ok(())
    };
    for p in att
        .bindings
        .values_mut()
        .chain(att.port_types.values_mut())
        .chain(att.ports.values_mut())
        .chain(att.services.values_mut())
        .chain(att.messages.values_mut())
    {
        each(p)?;
    }
    for o in att
        .binding_operations
        .values_mut()
        .chain(att.port_type_operations.values_mut())
    {
        for p in [&mut o.operation, &mut o.input, &mut o.output]
            .into_iter()
            .chain(o.faults.values_mut())
        {
            each(p)?;
        }
    }
    att.named = named;
    Ok(())
}

/// Whether `p` holds a placeholder, at any depth.
fn mentions(p: &Policy) -> bool {
    p.alternatives.iter().any(mentioned)
}

fn mentioned(a: &Alternative) -> bool {
    a.assertions
        .iter()
        .any(|x| x.name.ns == REFERENCE || x.nested.as_ref().is_some_and(mentioned))
}

fn substitute(p: &Policy, named: &[(Arc<str>, String, Policy)], depth: usize) -> Result<Policy> {
    let mut out = Policy {
        alternatives: Vec::new(),
    };
    for alt in &p.alternatives {
        let mut acc = Policy::default();
        for a in &alt.assertions {
            let part = assertion(a, named, depth)?;
            acc = acc.merge(&part).ok_or_else(|| too_many(&a.loc))?;
        }
        out = out.or(acc).ok_or_else(|| {
            too_many(
                &alt.assertions
                    .first()
                    .map(|a| a.loc.clone())
                    .unwrap_or_else(nowhere),
            )
        })?;
    }
    Ok(out)
}

/// One assertion as a policy: a placeholder by what it names, an assertion whose nested policy
/// holds one as one alternative per alternative of its linked nested policy.
fn assertion(a: &Assertion, named: &[(Arc<str>, String, Policy)], depth: usize) -> Result<Policy> {
    let one = |a: Assertion| Policy {
        alternatives: vec![Alternative {
            assertions: vec![a],
        }],
    };
    if a.name.ns == REFERENCE {
        if depth > MAX_DEPTH {
            return Err(Error::at(
                ErrorKind::Unsupported(format!(
                    "WS-Policy references deeper than {MAX_DEPTH} (a reference loop?)"
                )),
                &a.loc,
            ));
        }
        return match lookup(named, &a.name.local, &a.loc.file) {
            Some(p) => substitute(p, named, depth + 1),
            None => Ok(one(a.clone())),
        };
    }
    match &a.nested {
        Some(n) if mentioned(n) => {
            let nested = substitute(
                &Policy {
                    alternatives: vec![n.clone()],
                },
                named,
                depth,
            )?;
            Ok(Policy {
                alternatives: nested
                    .alternatives
                    .into_iter()
                    .map(|n| Alternative {
                        assertions: vec![Assertion {
                            nested: Some(n),
                            ..a.clone()
                        }],
                    })
                    .collect(),
            })
        }
        _ => Ok(one(a.clone())),
    }
}

/// The policy `uri`, written in the document `from`, names in another document.
fn lookup<'n>(
    named: &'n [(Arc<str>, String, Policy)],
    uri: &str,
    from: &str,
) -> Option<&'n Policy> {
    match uri.split_once('#') {
        Some(("", _)) => named
            .iter()
            .find(|(file, key, _)| &**file != from && key == uri),
        Some((location, id)) => {
            let target = relative_to(from, location);
            let key = format!("#{id}");
            named
                .iter()
                .find(|(file, k, _)| *k == key && normalized(file) == target)
        }
        None => named.iter().find(|(_, key, _)| key == uri),
    }
    .map(|(_, _, p)| p)
}

/// `location` (a URI reference) resolved against the document `from` (a path or URL), its `.`
/// and `..` segments removed.
fn relative_to(from: &str, location: &str) -> String {
    if location.contains("://") || location.starts_with('/') {
        return normalized(location);
    }
    let base = match from.rfind(['/', '\\']) {
        Some(i) => &from[..=i],
        None => "",
    };
    normalized(&format!("{base}{location}"))
}

fn normalized(path: &str) -> String {
    let path = path.replace('\\', "/");
    let (scheme, rest) = match path.find("://") {
        Some(i) => path.split_at(i + 3),
        None => ("", path.as_str()),
    };
    let mut out: Vec<&str> = Vec::new();
    for (i, seg) in rest.split('/').enumerate() {
        match seg {
            "." => {}
            ".." if out.last().is_some_and(|l| !l.is_empty() && *l != "..") => {
                out.pop();
            }
            "" if i > 0 => {}
            s => out.push(s),
        }
    }
    format!("{scheme}{}", out.join("/"))
}

fn too_many(at: &Loc) -> Error {
    Error::at(
        ErrorKind::Unsupported(format!(
            "a WS-Policy expression with more than {} alternatives in normal form once its \
             references are linked (WS-Policy 1.5 §4.3)",
            crate::read::components::MAX_ALTERNATIVES
        )),
        at,
    )
}

fn nowhere() -> Loc {
    Loc {
        file: "".into(),
        line: 0,
        column: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::normalized;

    #[test]
    fn locations_are_normalized() {
        assert_eq!(normalized("/a/b/../c/./d.wsdl"), "/a/c/d.wsdl");
        assert_eq!(normalized("a\\b\\..\\c.wsdl"), "a/c.wsdl");
        assert_eq!(normalized("https://h/x/../y.wsdl"), "https://h/y.wsdl");
        assert_eq!(normalized("../up.wsdl"), "../up.wsdl");
    }
}
