//! The `whttp:location` template of WSDL 2.0 Part 2 §6.8.1.1, as the SOAP-response message
//! exchange pattern builds its request IRI with it: literal text, `{name}` (the input element's
//! child `name`, percent-encoded), `{!name}` (the same, as it is), `{{` and `}}` (a brace).

extern crate alloc;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// A piece of a location template, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TemplatePiece<'t> {
    /// Text written as it is (`{{` and `}}` give one brace each, as their own pieces).
    Literal(&'t str),
    /// `{name}` (`raw: false`) or `{!name}` (`raw: true`): the value of the child `name`.
    Param {
        /// The child element's local name.
        name: &'t str,
        /// Written without percent-encoding (`{!name}`).
        raw: bool,
    },
}

/// The pieces of `template`, or why it is malformed: a single `{` or `}` (with its byte offset),
/// an unterminated `{`, an empty name.
pub fn location_template(template: &str) -> Result<Vec<TemplatePiece<'_>>, String> {
    let mut out = Vec::new();
    let mut rest = template;
    let mut at = 0;
    while let Some(i) = rest.find(['{', '}']) {
        if i > 0 {
            out.push(TemplatePiece::Literal(&rest[..i]));
        }
        let brace = rest.as_bytes()[i];
        let after = &rest[i + 1..];
        if after.as_bytes().first() == Some(&brace) {
            out.push(TemplatePiece::Literal(&rest[i..i + 1]));
            at += i + 2;
            rest = &after[1..];
            continue;
        }
        let malformed = |why: &str| {
            format!(
                "the whttp:location {template:?} is malformed at byte {}: {why} (WSDL 2.0 Part 2 \
                 §6.8.1.1: write `{{{{` or `}}}}` for a brace)",
                at + i
            )
        };
        if brace == b'}' {
            return Err(malformed("a single `}`"));
        }
        let end = after
            .find('}')
            .ok_or_else(|| malformed("a `{` with no `}`"))?;
        let (raw, name) = match after[..end].strip_prefix('!') {
            Some(n) => (true, n),
            None => (false, &after[..end]),
        };
        if name.is_empty() || name.contains('{') {
            return Err(malformed("no element name between the braces"));
        }
        out.push(TemplatePiece::Param { name, raw });
        at += i + 1 + end + 1;
        rest = &after[end + 1..];
    }
    if !rest.is_empty() {
        out.push(TemplatePiece::Literal(rest));
    }
    Ok(out)
}

/// Whether `separator` can part the `name=value` pairs of a request IRI's query (WSDL 2.0 Part 2
/// §6.8.2.2.1, `whttp:queryParameterSeparator`): one character, not a letter, digit, space,
/// `=`, `#` or `%`.
pub fn is_query_separator(separator: &str) -> bool {
    let mut chars = separator.chars();
    let one = chars.next().filter(|_| chars.next().is_none());
    one.is_some_and(|c| !(c.is_alphanumeric() || c.is_whitespace() || "=#%".contains(c)))
}

#[cfg(test)]
mod tests {
    use super::alloc::format;
    use super::{is_query_separator, location_template, TemplatePiece::*};

    #[test]
    fn pieces_in_order() {
        assert_eq!(
            location_template("a{{b}}/{x}/{!y}?q").unwrap(),
            [
                Literal("a"),
                Literal("{"),
                Literal("b"),
                Literal("}"),
                Literal("/"),
                Param {
                    name: "x",
                    raw: false
                },
                Literal("/"),
                Param {
                    name: "y",
                    raw: true
                },
                Literal("?q"),
            ]
        );
        assert_eq!(location_template("").unwrap(), []);
    }

    #[test]
    fn malformed_templates_say_where() {
        for (t, at, why) in [
            ("x/}a", 2, "a single `}`"),
            ("x/{a", 2, "no `}`"),
            ("x/{}", 2, "no element name"),
            ("x/{!}", 2, "no element name"),
            ("{{a}}/{b", 6, "no `}`"),
        ] {
            let e = location_template(t).unwrap_err();
            assert!(
                e.contains(&format!("at byte {at}:")) && e.contains(why),
                "{t}: {e}"
            );
        }
    }

    #[test]
    fn separators_are_one_character_that_parts_pairs() {
        for ok in ["&", ";", "|", "!"] {
            assert!(is_query_separator(ok), "{ok}");
        }
        for bad in ["", "&&", "a", "1", " ", "=", "#", "%"] {
            assert!(!is_query_separator(bad), "{bad}");
        }
    }
}
