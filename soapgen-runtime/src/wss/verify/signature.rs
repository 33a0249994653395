//! One `ds:Signature` verified (XML-DSig §3.2 core validation, restricted to what WSS 1.1 §8
//! uses): its SignedInfo read against the algorithm policy, its key found and trusted, its
//! SignatureValue and each Reference's digest checked, and what each Reference covers placed
//! in the envelope by position.

use std::collections::HashMap;

use super::algorithms::{check_key_size, digest_algorithm, known_signature_method, rsa_pss_params};
use super::derived::symmetric_key;
use super::document::{base64, child, elements, malformed, path, Ids, MessagePart, Shape};
use super::keyinfo::{dereference_str, signer_certificate};
use crate::wss::policy as alg;
use crate::wss::symmetric::{hmac_sha1_verify, RequestKey, HMAC_SHA1};
use crate::wss::trust::verify_with_certificate;
use crate::wss::{
    canonicalize, AlgorithmPolicy, C14nMethod, Certificate, UtcTime, WssConfig, WssError, DS_NS,
    EXC_C14N, WSSE11_NS, WSSE_NS, WSU_NS,
};
use crate::xml::read::tree::Node;

/// `http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#STR-Transform`
/// (WSS 1.1 §8.3): the Reference digests the security token an STR points at.
pub const STR_TRANSFORM: &str =
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-soap-message-security-1.0#STR-Transform";

/// What a verified signature covered.
pub(super) struct Verified {
    pub(super) parts: Vec<MessagePart>,
    /// The Ids its References name, each resolved to its target.
    pub(super) ids: Vec<String>,
    pub(super) signer: Certificate,
    pub(super) value: Vec<u8>,
    pub(super) wrapped_body: bool,
    /// The wsu:Ids of the Security header's SignatureConfirmations it covered.
    pub(super) confirmations: Vec<String>,
    /// Whether a Reference covers the token its KeyInfo points at in the message (directly, or
    /// through the STR-Transform; WS-SecurityPolicy 1.2 §6.5 `sp:ProtectTokens`); `None` when
    /// the key is not a token of the message (a KeyIdentifier, an IssuerSerial).
    pub(super) token_covered: Option<bool>,
    /// How its KeyInfo names the signer's certificate; `None` for an HMAC signature or a form
    /// outside [`KeyReference`].
    pub(super) reference: Option<super::super::KeyReference>,
}

/// XML-DSig §3.2 core validation of one `ds:Signature`, restricted to what WSS 1.1 §8 uses, with
/// the key resolved from its KeyInfo and trusted by the client's TrustStore.
///
/// A symmetric signature (HMAC-SHA1, XML-DSig §6.3.1) is verified only under a SymmetricBinding,
/// with the request key `request_key` or a key derived from it (WS-SecurityPolicy 1.2 §7.4), its
/// value compared in constant time; its signer is then the binding's service certificate, whose
/// key alone could unwrap the request key.
#[allow(clippy::too_many_arguments)]
pub(super) fn verify_signature(
    cfg: &WssConfig,
    doc: &str,
    shape: &Shape<'_, '_>,
    ids: &Ids<'_, '_>,
    (tokens, sent_chain): (&HashMap<String, Certificate>, &[Certificate]),
    sig: Node<'_, '_>,
    request_key: Option<&RequestKey>,
    now: UtcTime,
) -> Result<Verified, WssError> {
    let (signed_info, value_node, key_info) = signature_children(sig)?;
    let (si_c14n, method_uri, references) = signed_info_of(cfg, signed_info)?;
    let value = base64(value_node).map_err(|r| malformed(value_node, &r))?;
    // One buffer for every canonical form of this signature, as large as the envelope: the
    // canonical Body is about that size, and grows no more.
    let mut buf = Vec::with_capacity(doc.len());
    let signer = if method_uri == HMAC_SHA1 {
        let binding = cfg
            .symmetric_binding()
            .ok_or_else(|| WssError::AlgorithmNotAllowed {
                role: "SignatureMethod",
                uri: format!(
                    "{method_uri} (HMAC signatures are refused without a SymmetricBinding)"
                ),
            })?;
        let str_node = key_info
            .and_then(|k| child(k, WSSE_NS, "SecurityTokenReference"))
            .ok_or_else(|| {
                WssError::UntrustedKey(
                    "a symmetric signature without a SecurityTokenReference".to_owned(),
                )
            })?;
        let key = symmetric_key(str_node, ids, request_key)?;
        si_c14n.apply(doc, signed_info, &mut buf)?;
        if !hmac_sha1_verify(&key, &buf, &value) {
            return Err(WssError::InvalidSignature(
                "the HMAC-SHA1 SignatureValue does not match".to_owned(),
            ));
        }
        binding.recipient().clone()
    } else {
        // The key, and whether it is trusted: before any digest work.
        let signer = signer_certificate(cfg, key_info, tokens, sig)?;
        let verification = check_key_size(cfg, &signer, method_uri)?;
        cfg.trust_store()
            .check_with_chain(&signer, sent_chain, now)?;
        // SignatureValue over the canonical SignedInfo.
        si_c14n.apply(doc, signed_info, &mut buf)?;
        verify_with_certificate(&signer, verification, &buf, &value)
            .map_err(WssError::InvalidSignature)?;
        signer
    };

    // Each Reference.
    let mut parts = Vec::with_capacity(references.len());
    let mut signed_ids = Vec::with_capacity(references.len());
    let mut wrapped_body = false;
    let mut confirmations = Vec::new();
    let policy = cfg.algorithm_policy();
    let token = key_info
        .and_then(|k| child(k, WSSE_NS, "SecurityTokenReference"))
        .and_then(|s| child(s, WSSE_NS, "Reference"))
        .and_then(|r| r.attribute("URI"))
        .and_then(|u| u.strip_prefix('#'))
        .and_then(|id| ids.get(id).copied());
    let mut token_covered = token.map(|_| false);
    for r in references {
        let (id, target) = reference_target(r, doc, ids, policy, &mut buf)?;
        if let (Some(t), Some(covered)) = (token, token_covered.as_mut()) {
            *covered |= target == t
                || (target.has_tag_name((WSSE_NS, "SecurityTokenReference"))
                    && dereference_str(target, ids).ok() == Some(t));
        }
        let part = classify(target, shape);
        if matches!(&part, MessagePart::Other(_)) && target.tag_name().name() == "Body" {
            wrapped_body = true;
        }
        // By position: a SignatureConfirmation of this Security header, named by its own wsu:Id.
        if target.has_tag_name((WSSE11_NS, "SignatureConfirmation"))
            && shape.security.is_some()
            && target.parent() == shape.security
            && target.attribute((WSU_NS, "Id")) == Some(id)
        {
            confirmations.push(id.to_owned());
        }
        parts.push(part);
        signed_ids.push(id.to_owned());
    }
    let reference = if method_uri == HMAC_SHA1 {
        None
    } else {
        key_info.and_then(reference_form)
    };
    Ok(Verified {
        parts,
        ids: signed_ids,
        signer,
        value,
        wrapped_body,
        confirmations,
        token_covered,
        reference,
    })
}

/// A `ds:Signature`'s SignedInfo, SignatureValue and KeyInfo (if any), and nothing else (no
/// `ds:Object`).
fn signature_children<'a, 'i>(
    sig: Node<'a, 'i>,
) -> Result<(Node<'a, 'i>, Node<'a, 'i>, Option<Node<'a, 'i>>), WssError> {
    let mut kids = elements(sig);
    let signed_info = kids
        .next()
        .filter(|n| n.has_tag_name((DS_NS, "SignedInfo")))
        .ok_or_else(|| malformed(sig, "the first child is not SignedInfo"))?;
    let value_node = kids
        .next()
        .filter(|n| n.has_tag_name((DS_NS, "SignatureValue")))
        .ok_or_else(|| malformed(sig, "no SignatureValue after SignedInfo"))?;
    let key_info = kids.next();
    if let Some(k) = key_info {
        if !k.has_tag_name((DS_NS, "KeyInfo")) {
            return Err(malformed(
                k,
                "only a KeyInfo may follow SignatureValue (no ds:Object)",
            ));
        }
    }
    if let Some(extra) = kids.next() {
        return Err(malformed(
            extra,
            "ds:Object and other content after KeyInfo is refused",
        ));
    }
    Ok((signed_info, value_node, key_info))
}

/// SignedInfo's CanonicalizationMethod, SignatureMethod (what the policy allows; RSASSA-PSS by
/// its parameters) and References (at least one, at most the configured limit).
fn signed_info_of<'a, 'i>(
    cfg: &WssConfig,
    signed_info: Node<'a, 'i>,
) -> Result<(C14n, &'a str, Vec<Node<'a, 'i>>), WssError> {
    let policy = cfg.algorithm_policy();
    let mut si = elements(signed_info);
    let c14n = si
        .next()
        .filter(|n| n.has_tag_name((DS_NS, "CanonicalizationMethod")))
        .ok_or_else(|| malformed(signed_info, "no CanonicalizationMethod"))?;
    let si_c14n = c14n_of(c14n, "CanonicalizationMethod", policy)?;
    let method = si
        .next()
        .filter(|n| n.has_tag_name((DS_NS, "SignatureMethod")))
        .ok_or_else(|| malformed(signed_info, "no SignatureMethod"))?;
    let mut method_uri = method.attribute("Algorithm").unwrap_or("");
    let symmetric = method_uri == HMAC_SHA1 && cfg.symmetric_binding().is_some();
    if child(method, DS_NS, "HMACOutputLength").is_some()
        || (method_uri.contains("hmac") && !symmetric)
    {
        return Err(WssError::AlgorithmNotAllowed {
            role: "SignatureMethod",
            uri: format!(
                "{method_uri} (HMAC signatures, and HMACOutputLength truncation, are refused)"
            ),
        });
    }
    if symmetric {
        // Checked against the request key in verify_signature.
    } else if method_uri == alg::RSA_PSS && policy.allows(alg::RSA_PSS) {
        // RFC 6931 §2.3.10: the parameters say which PSS; verified as that §2.3.11 method.
        method_uri = rsa_pss_params(method)?;
    } else if !known_signature_method(method_uri) || !policy.allows(method_uri) {
        return Err(WssError::AlgorithmNotAllowed {
            role: "SignatureMethod",
            uri: method_uri.to_owned(),
        });
    }
    let references: Vec<Node<'_, '_>> = si.collect();
    if references.is_empty() {
        return Err(malformed(signed_info, "no Reference"));
    }
    let limit = cfg.signature_reference_limit();
    if references.len() > limit {
        return Err(WssError::TooManyReferences {
            count: references.len(),
            limit,
        });
    }
    Ok((si_c14n, method_uri, references))
}

/// Validates one Reference (XML-DSig §3.2.1): a same-document `#Id`, one canonicalization (or
/// the STR-Transform, WSS 1.1 §8.3), a digest the policy allows and that matches; its Id and
/// target. `buf` is scratch space for the canonical form.
fn reference_target<'a, 'i>(
    r: Node<'a, 'i>,
    doc: &str,
    ids: &Ids<'a, 'i>,
    policy: &AlgorithmPolicy,
    buf: &mut Vec<u8>,
) -> Result<(&'a str, Node<'a, 'i>), WssError> {
    if !r.has_tag_name((DS_NS, "Reference")) {
        return Err(malformed(
            r,
            "SignedInfo may hold only References after SignatureMethod",
        ));
    }
    let uri = r.attribute("URI").unwrap_or("");
    let id = uri
        .strip_prefix('#')
        .filter(|i| !i.is_empty() && !i.starts_with("xpointer("))
        .ok_or_else(|| {
            malformed(
                r,
                &format!("Reference URI {uri:?} is not a same-document #Id (XPointer, external and whole-document references are refused)"),
            )
        })?;
    let target = *ids.get(id).ok_or_else(|| {
        WssError::InvalidSignature(format!("Reference #{id} points at no element"))
    })?;
    let mut transforms = None;
    let mut digest_method = None;
    let mut digest_value = None;
    for c in elements(r) {
        match (c.tag_name().namespace().unwrap_or(""), c.tag_name().name()) {
            (DS_NS, "Transforms") if transforms.is_none() => transforms = Some(c),
            (DS_NS, "DigestMethod") if digest_method.is_none() => digest_method = Some(c),
            (DS_NS, "DigestValue") if digest_value.is_none() => digest_value = Some(c),
            _ => return Err(malformed(c, "unexpected element in Reference")),
        }
    }
    let digest_method =
        digest_method.ok_or_else(|| malformed(r, "Reference without DigestMethod"))?;
    let digest_value = digest_value.ok_or_else(|| malformed(r, "Reference without DigestValue"))?;
    let digest_uri = digest_method.attribute("Algorithm").unwrap_or("");
    let digest_alg = digest_algorithm(digest_uri)
        .filter(|_| policy.allows(digest_uri))
        .ok_or_else(|| WssError::AlgorithmNotAllowed {
            role: "DigestMethod",
            uri: digest_uri.to_owned(),
        })?;
    let transforms = transforms.ok_or_else(|| {
        malformed(
            r,
            "Reference without Transforms (a canonicalization is required)",
        )
    })?;
    let list: Vec<Node<'_, '_>> = elements(transforms).collect();
    let [t] = list.as_slice() else {
        return Err(malformed(
            transforms,
            "exactly one Transform (a canonicalization or the STR-Transform) is accepted",
        ));
    };
    let t_uri = t.attribute("Algorithm").unwrap_or("");
    buf.clear();
    if t_uri == STR_TRANSFORM {
        let params = child(*t, WSSE_NS, "TransformationParameters")
            .and_then(|p| child(p, DS_NS, "CanonicalizationMethod"))
            .ok_or_else(|| {
                malformed(
                    *t,
                    "STR-Transform without TransformationParameters/CanonicalizationMethod",
                )
            })?;
        let c14n = c14n_of(params, "CanonicalizationMethod", policy)?;
        let token = dereference_str(target, ids)?;
        c14n.apply(doc, token, buf)?;
    } else {
        c14n_of(*t, "Transform", policy)?.apply(doc, target, buf)?;
    }
    let want = base64(digest_value).map_err(|e| malformed(digest_value, &e))?;
    let got = aws_lc_rs::digest::digest(digest_alg, buf);
    if aws_lc_rs::constant_time::verify_slices_are_equal(got.as_ref(), &want).is_err() {
        return Err(WssError::InvalidSignature(format!(
            "the digest of Reference #{id} ({}) does not match",
            path(target)
        )));
    }
    Ok((id, target))
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// A canonicalization named by a CanonicalizationMethod or Transform (XML-DSig §6.5):
/// Exclusive C14N with its InclusiveNamespaces PrefixList, or inclusive Canonical XML 1.0 / 1.1
/// when the policy allows them ([`AlgorithmPolicy::allow_inclusive_c14n`](crate::wss::AlgorithmPolicy::allow_inclusive_c14n)).
struct C14n {
    method: C14nMethod,
    prefixes: Vec<String>,
}

impl C14n {
    /// Canonicalizes `apex`, an element of the tree parsed from `doc`, into `out`: Exclusive
    /// C14N from the tree itself (no second reading of the text), the inclusive forms from the
    /// text at its offset.
    fn apply(&self, doc: &str, apex: Node<'_, '_>, out: &mut Vec<u8>) -> Result<(), WssError> {
        match self.method {
            C14nMethod::Exclusive => {
                crate::wss::c14n::exclusive_c14n_node(apex, &refs(&self.prefixes), out)
            }
            _ => canonicalize(
                doc,
                apex.range().start,
                self.method,
                &refs(&self.prefixes),
                out,
            ),
        }
    }
}

/// The canonicalization of a CanonicalizationMethod / Transform element (`role` names which, for
/// the error): Exclusive C14N always, inclusive C14N 1.0 / 1.1 when `policy` allows them, nothing
/// else (no `#WithComments`).
fn c14n_of(
    n: Node<'_, '_>,
    role: &'static str,
    policy: &AlgorithmPolicy,
) -> Result<C14n, WssError> {
    let uri = n.attribute("Algorithm").unwrap_or("");
    match uri {
        EXC_C14N => Ok(C14n {
            method: C14nMethod::Exclusive,
            prefixes: child(n, EXC_C14N, "InclusiveNamespaces")
                .and_then(|i| i.attribute("PrefixList"))
                .map(|l| l.split_ascii_whitespace().map(str::to_owned).collect())
                .unwrap_or_default(),
        }),
        crate::wss::C14N_10 | crate::wss::C14N_11 if policy.allows(uri) => Ok(C14n {
            method: C14nMethod::from_uri(uri).unwrap_or(C14nMethod::Exclusive),
            prefixes: Vec::new(),
        }),
        crate::wss::C14N_10 | crate::wss::C14N_11 => Err(WssError::AlgorithmNotAllowed {
            role,
            uri: format!(
                "{uri} (inclusive C14N is off by default, WS-I BSP 1.1 R5404; AlgorithmPolicy::allow_inclusive_c14n allows it)"
            ),
        }),
        _ => Err(WssError::AlgorithmNotAllowed {
            role,
            uri: uri.to_owned(),
        }),
    }
}

/// Where a referenced element sits in the envelope.
fn classify(target: Node<'_, '_>, shape: &Shape<'_, '_>) -> MessagePart {
    if target == shape.body {
        return MessagePart::Body;
    }
    let parent = target.parent();
    if let Some(sec) = shape.security {
        if parent == Some(sec) {
            return if target.has_tag_name((WSU_NS, "Timestamp")) {
                MessagePart::Timestamp
            } else {
                MessagePart::SecurityToken(target.tag_name().name().to_owned())
            };
        }
    }
    if parent.is_some() && parent == shape.header {
        return MessagePart::Header {
            namespace: target.tag_name().namespace().unwrap_or("").to_owned(),
            name: target.tag_name().name().to_owned(),
        };
    }
    MessagePart::Other(path(target))
}

/// How a signature's `ds:KeyInfo` names the signer's certificate (X.509 Token Profile 1.1 §3.2).
fn reference_form(key_info: Node<'_, '_>) -> Option<super::super::KeyReference> {
    use super::super::KeyReference;
    let str_node = child(key_info, WSSE_NS, "SecurityTokenReference")?;
    if child(str_node, WSSE_NS, "Reference").is_some() {
        return Some(KeyReference::DirectReference);
    }
    if let Some(k) = child(str_node, WSSE_NS, "KeyIdentifier") {
        return match k.attribute("ValueType").unwrap_or("") {
            v if v.ends_with("#X509SubjectKeyIdentifier") => {
                Some(KeyReference::SubjectKeyIdentifier)
            }
            v if v.ends_with("#ThumbprintSHA1") => Some(KeyReference::ThumbprintSha1),
            _ => None,
        };
    }
    let data = child(str_node, DS_NS, "X509Data")?;
    child(data, DS_NS, "X509IssuerSerial").map(|_| KeyReference::X509IssuerSerial)
}
