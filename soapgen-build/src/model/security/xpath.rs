//! The `sp:XPath`s of the elements assertions (WS-SecurityPolicy 1.2 §4.1.2, §4.2.2, §4.3.1) in
//! the subset [`XPathExpression`] documents, and the Body and header blocks they name.

use super::interpret::{is_sp, refuse};
use super::types::{HeaderPart, ProtectedParts, Refusal, XPathExpression, XPathStep};
use super::Interpretation;
use crate::read::components::{Assertion, QName};

/// The `sp:XPath` parameters of an elements assertion (§4.1.2).
pub(super) fn xpaths(cx: &mut Interpretation, a: &Assertion) -> Vec<XPathExpression> {
    if let Some(v) = a.attribute("XPathVersion") {
        if v.trim() != "http://www.w3.org/TR/1999/REC-xpath-19991116" {
            refuse(
                cx,
                a,
                format!("XPathVersion {v:?}: only XPath 1.0 is supported"),
            );
            return Vec::new();
        }
    }
    let mut out = Vec::new();
    for p in &a.parameters {
        if !is_sp(&p.name, "XPath") || p.text.is_empty() {
            cx.refused.push(Refusal {
                assertion: p.name.clone(),
                reason: "expected sp:XPath with an expression (§4.1.2)".to_owned(),
                loc: p.loc.clone(),
            });
            continue;
        }
        match xpath_steps(&p.text, &p.namespaces) {
            Ok(steps) => out.push(XPathExpression {
                expression: p.text.clone(),
                steps,
                loc: p.loc.clone(),
            }),
            Err(why) => cx.refused.push(Refusal {
                assertion: p.name.clone(),
                reason: format!("XPath {:?}: {why}", p.text),
                loc: p.loc.clone(),
            }),
        }
    }
    out
}

/// `sp:SignedElements` into `parts`: the Body or a header block as `sp:SignedParts` names them,
/// other elements by their XPath.
pub(super) fn signed_elements(parts: &mut ProtectedParts, xs: Vec<XPathExpression>) {
    for x in xs {
        match envelope_part(&x) {
            Some(EnvelopePart::Body) => parts.body = true,
            Some(EnvelopePart::Header(h)) => parts.headers.push(h),
            None => parts.elements.push(x),
        }
    }
}

/// `sp:EncryptedElements` into `parts`: a header block as `sp:EncryptedParts` names it (an
/// `EncryptedHeader`), other elements (the Body element itself among them) by their XPath.
pub(super) fn encrypted_elements(parts: &mut ProtectedParts, xs: Vec<XPathExpression>) {
    for x in xs {
        match envelope_part(&x) {
            Some(EnvelopePart::Header(h)) => parts.headers.push(h),
            _ => parts.elements.push(x),
        }
    }
}

/// What an absolute XPath of child steps names when it is the SOAP Body
/// (`/soap:Envelope/soap:Body`) or a header block (`/soap:Envelope/soap:Header/ns:Name`), SOAP
/// 1.1 or 1.2.
pub(super) enum EnvelopePart {
    Body,
    Header(HeaderPart),
}

pub(super) fn envelope_part(x: &XPathExpression) -> Option<EnvelopePart> {
    const ENVELOPES: [&str; 2] = [
        "http://schemas.xmlsoap.org/soap/envelope/",
        "http://www.w3.org/2003/05/soap-envelope",
    ];
    if x.steps.iter().any(|s| s.descendant) {
        return None;
    }
    let env = |s: &XPathStep, local: &str| {
        ENVELOPES.contains(&s.name.ns.as_str()) && s.name.local == local
    };
    match x.steps.as_slice() {
        [e, b] if env(e, "Envelope") && env(b, "Body") && e.name.ns == b.name.ns => {
            Some(EnvelopePart::Body)
        }
        [e, h, block] if env(e, "Envelope") && env(h, "Header") && e.name.ns == h.name.ns => {
            Some(EnvelopePart::Header(HeaderPart {
                namespace: block.name.ns.clone(),
                name: Some(block.name.local.clone()),
            }))
        }
        _ => None,
    }
}

/// The steps of an XPath expression in the subset [`XPathExpression`] documents.
fn xpath_steps(text: &str, namespaces: &[(String, String)]) -> Result<Vec<XPathStep>, String> {
    let text = text.trim();
    let (mut descendant, rest) = if let Some(r) = text.strip_prefix("//") {
        (true, r)
    } else if let Some(r) = text.strip_prefix('/') {
        (false, r)
    } else {
        (true, text)
    };
    let mut steps = Vec::new();
    for (i, step) in rest.split('/').enumerate() {
        if step.is_empty() {
            if i == 0 {
                return Err("an empty step".to_owned());
            }
            descendant = true;
            continue;
        }
        let valid = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                && !s.starts_with(|c: char| c.is_ascii_digit() || c == '-' || c == '.')
        };
        let name = match step.split_once(':') {
            Some((prefix, local)) if valid(prefix) && valid(local) => {
                let Some((_, ns)) = namespaces.iter().find(|(p, _)| p == prefix) else {
                    return Err(format!("the prefix {prefix:?} is not declared"));
                };
                QName::new(ns.clone(), local)
            }
            None if valid(step) => QName::new("", step),
            _ => {
                return Err(format!(
                    "the step {step:?} is not an element name (predicates, axes, wildcards and \
                     functions are not supported)"
                ))
            }
        };
        steps.push(XPathStep { descendant, name });
        descendant = false;
    }
    if steps.is_empty() {
        return Err("no step".to_owned());
    }
    Ok(steps)
}
