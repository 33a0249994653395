//! SOAP 1.2's SOAP-response message exchange pattern (SOAP 1.2 Part 2 §6.3) as WSDL 2.0 binds it
//! (WSDL 2.0 Part 2 §5.10.3): the request is an HTTP GET with no envelope, the input element's
//! children serialized into the request IRI as `application/x-www-form-urlencoded` does it
//! (WSDL 2.0 Part 2 §6.8.2.2.1, the `{http location}` template of §6.8.1.1), and the response an
//! envelope like any other.

use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use soapgen_contract::TemplatePiece;

use crate::error::EncodeError;
use crate::xml::read::tree::{Document, Node};

/// How a SOAP-response operation's request IRI is made (WSDL 2.0 Part 2 §6.8.1.1): the binding
/// operation's `whttp:location` template, resolved against the endpoint address (RFC 3986 §5.2),
/// and the separator of the query's `name=value` pairs (`whttp:queryParameterSeparator`, `&` by
/// default).
///
/// In the template, `{name}` stands for the input element's child `name`, percent-encoded
/// (RFC 3987 §3.1), `{!name}` for it as it is, `{{` and `}}` for the braces themselves; the
/// children the template does not cite follow as the query, `name=value` in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpLocation {
    /// The `whttp:location` template (empty: the endpoint address itself).
    pub template: &'static str,
    /// The separator between the query's pairs.
    pub query_separator: &'static str,
}

impl HttpLocation {
    /// The location `template` (empty for none) with the query pairs separated by
    /// `query_separator` (`"&"` unless the binding says otherwise).
    pub const fn new(template: &'static str, query_separator: &'static str) -> Self {
        HttpLocation {
            template,
            query_separator,
        }
    }
}

/// What `{name}` and query values escape: all but RFC 3986's unreserved characters (§2.3).
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// What `{!name}` escapes: only what no URI may hold as it is (controls, space, non-ASCII and
/// the delimiters RFC 3986 §2 excludes) and `#`, which would end the IRI's query and drop the
/// rest of the value (RFC 3986 §3.5); other reserved characters kept.
const RAW: &AsciiSet = &percent_encoding::CONTROLS
    .add(b' ')
    .add(b'#')
    .add(b'"')
    .add(b'<')
    .add(b'>')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

fn failed(message: String) -> EncodeError {
    EncodeError { message }
}

impl HttpLocation {
    /// The request IRI of a call at `endpoint` whose written request is `envelope`: what
    /// [`soap_response_iri`] makes with this template and separator.
    ///
    /// # Errors
    ///
    /// As [`soap_response_iri`].
    pub fn request_iri(&self, endpoint: &str, envelope: &str) -> Result<String, EncodeError> {
        soap_response_iri(endpoint, self.template, self.query_separator, envelope)
    }
}

/// The request IRI of a SOAP-response call (SOAP 1.2 Part 2 §6.3) at `endpoint` whose written
/// request is `envelope`: the Body's element's children serialized into the `whttp:location`
/// `template` and the query, pairs separated by `query_separator` (WSDL 2.0 Part 2 §6.8.1.1,
/// §6.8.2.2.1). What the client GETs; `soapgen inspect` shows it.
///
/// # Errors
///
/// An [`EncodeError`] when the envelope carries what a GET cannot: header blocks (WS-Security,
/// WS-Addressing, the operation's or the client's headers: SOAP 1.2 Part 2 §6.3 has no request
/// message), a child with element content, attributes or `xsi:nil` (not of the IRI style, WSDL 2.0
/// Part 2 §4.2); when the template names no child of the input or is malformed; or when
/// `endpoint` is not an absolute URL.
pub fn soap_response_iri(
    endpoint: &str,
    template: &str,
    query_separator: &str,
    envelope: &str,
) -> Result<String, EncodeError> {
    let doc = Document::parse(envelope, crate::xml::Limits::default())
        .map_err(|e| failed(format!("the request cannot be read back: {e}")))?;
    let mut input = None;
    for part in doc.root_element().children().filter(Node::is_element) {
        match part.tag_name().name() {
            "Header" => {
                let blocks: Vec<String> = part
                    .children()
                    .filter(Node::is_element)
                    .map(|b| expanded(&b))
                    .collect();
                if !blocks.is_empty() {
                    return Err(failed(format!(
                        "the header blocks {} cannot be sent: the operation is bound to the \
                         SOAP-response message exchange pattern, an HTTP GET with no request \
                         envelope (SOAP 1.2 Part 2 §6.3); remove them from the client and the call",
                        blocks.join(", ")
                    )));
                }
            }
            "Body" => input = part.children().find(Node::is_element),
            _ => {}
        }
    }
    let params = match input {
        Some(i) => parameters(&i)?,
        None => Vec::new(),
    };
    let (path, query) = expand(template, query_separator, &params)?;
    let base = url::Url::parse(endpoint).map_err(|e| {
        failed(format!(
            "the endpoint {endpoint:?} is not an absolute URL: {e}"
        ))
    })?;
    let mut iri = if path.is_empty() {
        base
    } else {
        base.join(&path).map_err(|e| {
            failed(format!(
                "the whttp:location {template:?} does not resolve against {endpoint:?}: {e}"
            ))
        })?
    };
    if !query.is_empty() {
        let q = match iri.query().filter(|q| !q.is_empty()) {
            Some(q) => format!("{q}{query_separator}{query}"),
            None => query,
        };
        iri.set_query(Some(&q));
    }
    Ok(iri.into())
}

/// `{namespace}local` of element `e`.
fn expanded(e: &Node) -> String {
    let n = e.tag_name();
    match n.namespace() {
        Some(ns) => format!("{{{ns}}}{}", n.name()),
        None => n.name().to_owned(),
    }
}

/// The (local name, text) of each child of the input element `input`, in document order.
fn parameters(input: &Node) -> Result<Vec<(String, String)>, EncodeError> {
    let not_iri = |what: String| {
        failed(format!(
            "{what} of {} cannot go in a request IRI: the input of a SOAP-response operation \
             holds elements of simple types only (the IRI style, WSDL 2.0 Part 2 §4.2)",
            expanded(input)
        ))
    };
    let mut out = Vec::new();
    for c in input.children() {
        if c.is_text() {
            if c.text().is_some_and(|t| !t.trim().is_empty()) {
                return Err(not_iri("text".to_owned()));
            }
            continue;
        }
        if !c.is_element() {
            continue;
        }
        let name = c.tag_name().name().to_owned();
        if let Some(a) = c.attributes().next() {
            return Err(not_iri(format!("the attribute {} of {name}", a.qname())));
        }
        let mut text = String::new();
        for t in c.children() {
            if t.is_element() {
                return Err(not_iri(format!("the element content of {name}")));
            }
            if t.is_text() {
                text.push_str(t.text().unwrap_or_default());
            }
        }
        out.push((name, text));
    }
    Ok(out)
}

/// `template` with the cited parameters put in (the path and any query it
/// `template` with the cited parameters put in (the path and any query it writes), and the
/// query of the others (WSDL 2.0 Part 2 §6.8.1.1, §6.8.2.2.1).
fn expand(
    template: &str,
    query_separator: &str,
    params: &[(String, String)],
) -> Result<(String, String), EncodeError> {
    let pieces = soapgen_contract::location_template(template).map_err(failed)?;
    let mut cited = vec![false; params.len()];
    let mut out = String::with_capacity(template.len());
    for (i, piece) in pieces.iter().enumerate() {
        let (name, raw) = match *piece {
            TemplatePiece::Literal(text) => {
                out.push_str(text);
                continue;
            }
            TemplatePiece::Param { name, raw } => (name, raw),
        };
        let Some(k) = params.iter().position(|(n, _)| n == name) else {
            return Err(failed(format!(
                "the whttp:location {template:?} cites {{{name}}}, which the request does not \
                 hold (an optional element left absent, or no child of that name: WSDL 2.0 Part \
                 2 §6.8.1.1)"
            )));
        };
        cited[k] = true;
        let value = &params[k].1;
        // A whole path segment of `.` or `..` would be resolved away (RFC 3986 §5.2.4), taking
        // the value and the segments before it with it: refused rather than sent elsewhere.
        let next = match pieces.get(i + 1) {
            Some(TemplatePiece::Literal(t)) => t.chars().next(),
            Some(TemplatePiece::Param { .. }) => Some('x'),
            None => None,
        };
        let whole_segment =
            (out.is_empty() || out.ends_with('/')) && matches!(next, None | Some('/') | Some('?'));
        if !raw && whole_segment && !out.contains('?') && (value == "." || value == "..") {
            return Err(failed(format!(
                "the value {value:?} of {{{name}}} would be a path segment {value:?} in the \
                 whttp:location {template:?}, which IRI resolution removes (RFC 3986 §5.2.4): \
                 the request would go elsewhere"
            )));
        }
        let set = if raw { RAW } else { ESCAPED };
        out.extend(utf8_percent_encode(value, set));
    }
    let mut query = String::new();
    for ((name, value), _) in params.iter().zip(&cited).filter(|(_, c)| !**c) {
        if !query.is_empty() {
            query.push_str(query_separator);
        }
        query.extend(utf8_percent_encode(name, ESCAPED));
        query.push('=');
        query.extend(utf8_percent_encode(value, ESCAPED));
    }
    Ok((out, query))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENV: &str = "http://www.w3.org/2003/05/soap-envelope";

    fn envelope(header: &str, body: &str) -> String {
        format!(
            r#"<?xml version="1.0" encoding="utf-8"?><env:Envelope xmlns:env="{ENV}"><env:Header>{header}</env:Header><env:Body>{body}</env:Body></env:Envelope>"#
        )
    }

    const CHECK: &str = r#"<tns:checkAvailability xmlns:tns="urn:g"><tns:checkInDate>2026-12-24</tns:checkInDate><tns:checkOutDate>2026-12-27</tns:checkOutDate><tns:roomType>double &amp; sea/view</tns:roomType></tns:checkAvailability>"#;

    fn iri(endpoint: &str, template: &'static str, sep: &'static str, env: &str) -> String {
        HttpLocation::new(template, sep)
            .request_iri(endpoint, env)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn without_a_template_every_child_goes_into_the_query_in_order() {
        assert_eq!(
            iri("http://h/res", "", "&", &envelope("", CHECK)),
            "http://h/res?checkInDate=2026-12-24&checkOutDate=2026-12-27&roomType=double%20%26%20sea%2Fview"
        );
    }

    #[test]
    fn cited_children_go_into_the_path_and_the_others_into_the_query() {
        assert_eq!(
            iri(
                "http://h/svc/",
                "rooms/{roomType}/{!checkInDate}",
                ";",
                &envelope("", CHECK)
            ),
            "http://h/svc/rooms/double%20%26%20sea%2Fview/2026-12-24?checkOutDate=2026-12-27"
        );
        // A template with its own query: the uncited pairs follow it, after the separator.
        assert_eq!(
            iri("http://h/svc/x", "avail?in={checkInDate}", "&", &envelope("", CHECK)),
            "http://h/svc/avail?in=2026-12-24&checkOutDate=2026-12-27&roomType=double%20%26%20sea%2Fview"
        );
        // `{{` and `}}` are braces.
        assert_eq!(
            iri("http://h/", "a{{b}}/{checkOutDate}", "&", &envelope("", CHECK)),
            "http://h/a%7Bb%7D/2026-12-27?checkInDate=2026-12-24&roomType=double%20%26%20sea%2Fview"
        );
    }

    #[test]
    fn an_empty_body_or_element_is_the_endpoint_itself() {
        assert_eq!(
            iri("http://h/now", "", "&", &envelope("", "")),
            "http://h/now"
        );
        assert_eq!(
            iri(
                "http://h/now",
                "",
                "&",
                &envelope("", r#"<t:now xmlns:t="urn:t"/>"#)
            ),
            "http://h/now"
        );
    }

    #[test]
    fn what_a_get_cannot_carry_is_refused_by_name() {
        let e = |template: &'static str, env: String| {
            soap_response_iri("http://h/", template, "&", &env)
                .unwrap_err()
                .message
        };
        let m = e("", envelope(r#"<w:Security xmlns:w="urn:wsse"/>"#, CHECK));
        assert!(
            m.contains("{urn:wsse}Security") && m.contains("§6.3"),
            "{m}"
        );
        let m = e(
            "",
            envelope("", r#"<t:r xmlns:t="urn:t"><t:a><t:b>1</t:b></t:a></t:r>"#),
        );
        assert!(
            m.contains("element content of a") && m.contains("§4.2"),
            "{m}"
        );
        let m = e(
            "",
            envelope("", r#"<t:r xmlns:t="urn:t"><t:a n="1">1</t:a></t:r>"#),
        );
        assert!(m.contains("attribute n of a"), "{m}");
        let m = e("{nope}", envelope("", CHECK));
        assert!(m.contains("{nope}") && m.contains("does not hold"), "{m}");
        // `.` and `..` as a whole path segment would move the request elsewhere.
        let dots = |v: &str| {
            envelope(
                "",
                &format!(r#"<t:r xmlns:t="urn:t"><t:a>x</t:a><t:b>{v}</t:b></t:r>"#),
            )
        };
        for v in [".", ".."] {
            let m = e("d/{a}/{b}/end", dots(v));
            assert!(m.contains("RFC 3986 §5.2.4") && m.contains("{b}"), "{m}");
            let m = e("d/{b}", dots(v));
            assert!(m.contains("RFC 3986 §5.2.4"), "{m}");
        }
        // Within a segment, or in the query, they are plain characters.
        assert_eq!(
            soap_response_iri("http://h/s/", "d/x{b}/end", "&", &dots("..")).unwrap(),
            "http://h/s/d/x../end?a=x"
        );
        assert_eq!(
            soap_response_iri("http://h/s/", "d?b={b}", "&", &dots("..")).unwrap(),
            "http://h/s/d?b=..&a=x"
        );
        // `#` in a raw value is escaped: it would cut the IRI.
        assert_eq!(
            soap_response_iri("http://h/s/", "r/{!b}", "&", &dots("p?q#z")).unwrap(),
            "http://h/s/r/p?q%23z&a=x"
        );
        let m = e("a}b", envelope("", CHECK));
        assert!(m.contains("malformed at byte 1"), "{m}");
        let m = e("{roomType", envelope("", CHECK));
        assert!(m.contains("malformed at byte 0"), "{m}");
        let m = e("x/{}", envelope("", CHECK));
        assert!(m.contains("no element name"), "{m}");
    }
}
