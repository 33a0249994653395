//! Documentation written as Markdown: a [`Doc`]'s prose escaped line by line so that it reads as
//! written and rustdoc neither tests nor warns about it, soapgen's own paragraphs as they are.

use crate::model::ir::{Doc, Paragraph};

/// `doc` as Markdown: the paragraphs separated by blank lines; prose escaped line by line
/// ([`markdown_line`]); a list as its heading and one `` - `name`: prose `` line per item, the
/// item's prose on that one line.
pub(super) fn markdown(doc: &Doc) -> String {
    let prose = |text: &str, sep: &str| {
        text.lines()
            .map(markdown_line)
            .collect::<Vec<_>>()
            .join(sep)
    };
    doc.paragraphs
        .iter()
        .map(|p| match p {
            Paragraph::Prose(text) => prose(text, "\n"),
            Paragraph::Markdown(text) => text.clone(),
            Paragraph::List { heading, items } => {
                let mut out = heading.clone();
                for (name, text) in items {
                    out.push_str(&format!("\n- `{name}`: {}", prose(text, " ")));
                }
                out
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// One line of a WSDL's or schema's documentation (prose, not Markdown) as a Markdown line that
/// reads as written and that rustdoc neither tests nor warns about: its indentation dropped (an
/// indented line would be a code block, compiled as a doctest); `[`, `]`, `` ` ``, `\`, `*`,
/// `~`, `|`, an underscore outside a word, a leading `#` and a line of `-` or `=` escaped; `<`,
/// `>`, `&` written as entities but in a `<br>` line break (no intra-doc links, code spans,
/// emphasis, tables, headings, HTML tags); each `http://` or `https://` URL made a link.
fn markdown_line(line: &str) -> String {
    let line = line.trim();
    let mut out = String::with_capacity(line.len() + 8);
    // A line of `-` or `=` alone would underline the line above into a heading (or be a rule).
    if !line.is_empty() && line.chars().all(|c| c == '-' || c == '=' || c == ' ') {
        out.push('\\');
    }
    let mut rest = line;
    while !rest.is_empty() {
        let url = ["http://", "https://"]
            .iter()
            .filter_map(|s| rest.find(s))
            .min();
        let (text, tail) = rest.split_at(url.unwrap_or(rest.len()));
        let mut chars = text.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '#' if out.is_empty() => out.push_str("\\#"), // not a heading
                '<' => match line_break(&text[i..]) {
                    // A line break as HTML writes it (`<br>`, `<br/>`, `<br />`) stays one.
                    Some(tag) => {
                        out.push_str(tag);
                        chars.nth(tag.len() - 2);
                    }
                    None => match html_tag(&text[i..]) {
                        // Documentation written as HTML (.NET's ASMX services): its markup is
                        // not shown; a block's start or end is a line break.
                        Some((len, block)) => {
                            if block && !out.is_empty() && !out.ends_with("<br>") {
                                out.push_str("<br>");
                            }
                            chars.nth(len - 2);
                        }
                        None => out.push_str("&lt;"),
                    },
                },
                '[' | ']' | '`' | '\\' | '*' | '~' | '|' => {
                    out.push('\\');
                    out.push(c);
                }
                // Inside a word (`a_b`) an underscore is not emphasis; elsewhere it could be.
                '_' if !(text[..i].ends_with(|p: char| p.is_alphanumeric())
                    && text[i + 1..].starts_with(|n: char| n.is_alphanumeric())) =>
                {
                    out.push_str("\\_");
                }
                '>' => out.push_str("&gt;"),
                '&' => out.push_str("&amp;"),
                c => out.push(c),
            }
        }
        if tail.is_empty() {
            break;
        }
        // A URL runs to white space, a quote or an angle bracket; trailing punctuation is prose.
        let end = tail
            .find(|c: char| c.is_whitespace() || "\"'<>".contains(c))
            .unwrap_or(tail.len());
        let u = tail[..end].trim_end_matches(['.', ',', ';', ':', ')', '!', '?']);
        out.push('<');
        out.push_str(u);
        out.push('>');
        rest = &tail[u.len()..];
    }
    out
}

/// HTML elements whose tags documentation written as HTML uses for layout: a start or end tag
/// of a block element is a line break, an inline element's tags are dropped (their text kept).
const HTML_BLOCKS: &[&str] = &[
    "p",
    "div",
    "blockquote",
    "ul",
    "ol",
    "li",
    "dl",
    "dt",
    "dd",
    "table",
    "tr",
    "td",
    "th",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "hr",
    "pre",
    "center",
];
const HTML_INLINE: &[&str] = &[
    "b", "strong", "i", "em", "u", "font", "span", "small", "big", "tt", "code", "sub", "sup", "a",
    "s", "strike", "nobr",
];

/// The HTML start or end tag of a known element `text` starts with (`<b>`, `</font>`,
/// `<font color='#000080' size='1'>`, `<p/>`): its length, and whether it is a block's. `None`
/// for anything else (`<kind>`, `<T>`, a tag of a block element name that is not one), which
/// stays text.
fn html_tag(text: &str) -> Option<(usize, bool)> {
    let inner = text.strip_prefix('<')?;
    let close = inner.find('>')?;
    let tag = inner[..close].strip_prefix('/').unwrap_or(&inner[..close]);
    let tag = tag.strip_suffix('/').unwrap_or(tag).trim_end();
    let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
    let name = &tag[..name_end];
    // Attributes are `name=value` pairs: anything with another `<` is not a tag.
    if tag.contains('<') || (name_end < tag.len() && !tag[name_end..].contains('=')) {
        return None;
    }
    let known = |set: &[&str]| set.iter().any(|n| n.eq_ignore_ascii_case(name));
    let block = known(HTML_BLOCKS);
    (block || known(HTML_INLINE)).then_some((close + 2, block))
}

/// The HTML line break tag `text` starts with, `<br>`, `<br/>` or `<br />` (any case), if any.
fn line_break(text: &str) -> Option<&str> {
    if !text.get(..3)?.eq_ignore_ascii_case("<br") {
        return None;
    }
    let after = &text[3..];
    let spaces = after.len() - after.trim_start_matches(' ').len();
    let close = ["/>", ">"]
        .into_iter()
        .find(|c| after[spaces..].starts_with(c))?;
    Some(&text[..3 + spaces + close.len()])
}

#[cfg(test)]
mod tests {
    use super::{markdown, markdown_line};
    use crate::model::ir::{Doc, Paragraph};

    #[test]
    fn prose_is_escaped_line_by_line_and_soapgen_text_is_kept() {
        let doc = Doc {
            paragraphs: vec![
                Paragraph::Prose("The [id] of\n  *one* order.\n\nSee RFC 1.".into()),
                Paragraph::Markdown("Default when absent: `[x]`.".into()),
                Paragraph::List {
                    heading: "Parameters:".into(),
                    items: vec![("r_type".into(), "What <kind>\nof order.".into())],
                },
            ],
        };
        assert_eq!(
            markdown(&doc),
            "The \\[id\\] of\n\\*one\\* order.\n\nSee RFC 1.\n\n\
             Default when absent: `[x]`.\n\n\
             Parameters:\n- `r_type`: What &lt;kind&gt; of order."
        );
    }

    #[test]
    fn documentation_reads_as_written_without_doctests_or_rustdoc_warnings() {
        for (text, doc) in [
            ("\t\tIndented prose", "Indented prose"),
            (
                "See [RFC3927] & <b>bold</b>, a <kind> of <T>",
                r"See \[RFC3927\] &amp; bold, a &lt;kind&gt; of &lt;T&gt;",
            ),
            (
                "<br><b>Get the rate <b><br><p><b><font color='#000080' size='1'>\
                 <u>Codes</u></font></b></p><blockquote><p>AFA-Afghanistan Afghani</p>",
                "<br>Get the rate <br>Codes<br>AFA-Afghanistan Afghani<br>",
            ),
            ("a <p/> b </P> <a href=x>c</a> <b", "a <br> b <br> c &lt;b"),
            (
                "At http://example.com/a_b, or (https://x.org/y).",
                "At <http://example.com/a_b>, or (<https://x.org/y>).",
            ),
            ("```xml", r"\`\`\`xml"),
            ("# not a heading, #1", r"\# not a heading, #1"),
            (
                "2*3*4 ~~x~~ |a|b| a_b _c_ ___x___",
                r"2\*3\*4 \~\~x\~\~ \|a\|b\| a_b \_c\_ \_\_\_x\_\_\_",
            ),
            ("--------", r"\--------"),
            ("= =", r"\= ="),
            ("http://", "<http://>"),
            (
                "one<br />two<BR>three<brr>",
                "one<br />two<BR>three&lt;brr&gt;",
            ),
        ] {
            assert_eq!(markdown_line(text), doc, "{text:?}");
        }
    }
}
