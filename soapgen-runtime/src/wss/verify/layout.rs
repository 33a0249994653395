//! The order of a Security header's children (WS-SecurityPolicy 1.2 §7.7 `sp:Layout`): the
//! [`Layout`] a client writes its requests in and checks its responses against.

use super::document::{child, elements, position, Ids};
use crate::wss::{WssError, DS_NS, WSSE_NS, WSU_NS};
use crate::xml::read::tree::Node;

use super::XENC_NS;

/// The order of the children of `wsse:Security` (WS-SecurityPolicy 1.2 §7.7), both ways: how a
/// client lays out its requests and what it requires of its responses
/// ([`WssConfig::layout`](crate::wss::WssConfig::layout)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Layout {
    /// §7.7.1 "declare before use": a token in the header before the signature or EncryptedKey
    /// that uses it, a signed element of the header (Timestamp, token, a signature an endorsing
    /// signature covers) before the signature that covers it, an EncryptedKey before the
    /// standalone ReferenceList whose EncryptedData it decrypts. soapgen's requests always
    /// follow it; responses are checked against it.
    Strict,
    /// §7.7.2: any order WSS 1.1 allows. Responses are not checked for order (their processing
    /// still needs a key before the ReferenceList that uses it). The default.
    #[default]
    Lax,
    /// §7.7.3: as `Lax`, the `wsu:Timestamp` first (soapgen's requests put it first always).
    LaxTsFirst,
    /// §7.7.4: as `Lax`, the `wsu:Timestamp` last: requests put it after every other child.
    LaxTsLast,
}

impl Layout {
    /// The assertion's local name: `"Strict"`, `"Lax"`, `"LaxTsFirst"`, `"LaxTsLast"`.
    pub const fn name(self) -> &'static str {
        match self {
            Layout::Strict => "Strict",
            Layout::Lax => "Lax",
            Layout::LaxTsFirst => "LaxTsFirst",
            Layout::LaxTsLast => "LaxTsLast",
        }
    }
}

/// Checks the children of the Security header `sec` against `layout`.
///
/// # Errors
///
/// [`WssError::Layout`] naming the rule and the first element that breaks it.
pub(super) fn check(layout: Layout, sec: Node<'_, '_>, ids: &Ids<'_, '_>) -> Result<(), WssError> {
    if layout == Layout::Lax {
        return Ok(());
    }
    let children: Vec<Node<'_, '_>> = elements(sec).collect();
    let broken = |rule: &'static str, at: Node<'_, '_>| WssError::Layout {
        layout: layout.name(),
        rule,
        element: position(at),
    };
    let is_timestamp = |n: &&Node<'_, '_>| n.has_tag_name((WSU_NS, "Timestamp"));
    match layout {
        Layout::Lax => Ok(()),
        Layout::LaxTsFirst => match children.first() {
            Some(first) if is_timestamp(&first) => Ok(()),
            first => Err(broken(
                "the wsu:Timestamp must be the first child",
                first.copied().unwrap_or(sec),
            )),
        },
        Layout::LaxTsLast => match children.last() {
            Some(last) if is_timestamp(&last) => Ok(()),
            last => Err(broken(
                "the wsu:Timestamp must be the last child",
                last.copied().unwrap_or(sec),
            )),
        },
        Layout::Strict => {
            // The index among the header's children of the child holding `n`, if any.
            let index = |n: Node<'_, '_>| {
                n.ancestors()
                    .find(|a| a.parent() == Some(sec))
                    .and_then(|c| children.iter().position(|x| *x == c))
            };
            let target = |uri: Option<&str>| {
                uri.and_then(|u| u.strip_prefix('#'))
                    .and_then(|id| ids.get(id).copied())
                    .and_then(index)
            };
            for (i, c) in children.iter().enumerate() {
                let after = |j: Option<usize>| j.is_some_and(|j| j >= i);
                let token = child(*c, DS_NS, "KeyInfo")
                    .and_then(|k| child(k, WSSE_NS, "SecurityTokenReference"))
                    .and_then(|s| child(s, WSSE_NS, "Reference"))
                    .and_then(|r| r.attribute("URI"));
                if c.has_tag_name((DS_NS, "Signature")) {
                    if after(target(token)) {
                        return Err(broken(
                            "a signature's token must come before the signature",
                            *c,
                        ));
                    }
                    let signed_after = child(*c, DS_NS, "SignedInfo")
                        .into_iter()
                        .flat_map(elements)
                        .filter(|r| r.has_tag_name((DS_NS, "Reference")))
                        .any(|r| after(target(r.attribute("URI"))));
                    if signed_after {
                        return Err(broken(
                            "an element of the header must come before the signature that signs it",
                            *c,
                        ));
                    }
                } else if c.has_tag_name((XENC_NS, "EncryptedKey")) && after(target(token)) {
                    return Err(broken(
                        "an EncryptedKey's token must come before the EncryptedKey",
                        *c,
                    ));
                } else if c.has_tag_name((XENC_NS, "ReferenceList")) {
                    let key_after = elements(*c)
                        .filter_map(|r| r.attribute("URI")?.strip_prefix('#'))
                        .filter_map(|id| ids.get(id).copied())
                        .filter_map(|ed| {
                            child(ed, DS_NS, "KeyInfo")
                                .and_then(|k| child(k, WSSE_NS, "SecurityTokenReference"))
                                .and_then(|s| child(s, WSSE_NS, "Reference"))
                                .and_then(|r| r.attribute("URI"))
                        })
                        .any(|u| after(target(Some(u))));
                    if key_after {
                        return Err(broken(
                            "the EncryptedKey of a ReferenceList's EncryptedData must come before the ReferenceList",
                            *c,
                        ));
                    }
                }
            }
            Ok(())
        }
    }
}
