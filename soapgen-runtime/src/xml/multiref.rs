//! SOAP 1.1 §5.4.1 multi-reference values (`href`/`id`), resolved before a response is decoded.
//!
//! rpc/encoded servers (Axis 1, gSOAP) serialise a value that is referenced more than once, or every
//! struct (Axis 1), as an independent element: `<return href="#id1"/>` in the response element and
//! `<multiRef id="id1">…</multiRef>` (any element name) as a later child of `Body`. [`resolve`] turns
//! such a Body into the tree the typed readers expect: each accessor with `href="#id"` receives the
//! attributes and content of the element with that `id`, and the independent elements are dropped.
//!
//! The resolved document is a new string; it is made only when the Body holds a `href="#…"`, so
//! literal responses are read in place as before. Errors carry the path and position in the original
//! document; positions of errors found later, while decoding, are those of the resolved document.
//!
//! Bounds: a reference followed more than [`Limits::max_references`] times in total, nesting deeper
//! than [`Limits::max_depth`], or a resolved document larger than [`Limits::max_text_bytes`] is an
//! error ([`DecodeErrorKind::Reference`]), so that a document of shared references cannot make the
//! reader do exponential work. A cycle (a value that contains itself) and an `href` to no `id` are
//! errors too.

use std::collections::BTreeMap;

use quick_xml::events::attributes::Attribute;
use quick_xml::events::{BytesStart, Event};

use crate::error::{DecodeError, DecodeErrorKind};
use crate::xml::read::location_in;
use crate::xml::{Limits, Name, XmlReader};

/// An independent element (a child of `Body` carrying `id`).
struct Target {
    /// Byte range of the whole element in the document.
    start: usize,
    end: usize,
    /// Namespace bindings in scope at the element, its own declarations included (prefix `""` is
    /// the default namespace).
    bindings: BTreeMap<String, String>,
}

/// Resolves the multi-reference values of the SOAP response `input` (SOAP 1.1 §5.4.1): returns the
/// document with every `href="#id"` accessor replaced by the referenced element's attributes and
/// content, and the `id` elements removed from `Body`; `None` when the Body holds no `href="#…"`
/// (nothing to do). `href` values that are not local (`cid:…` for attachments) are left alone.
///
/// # Errors
///
/// [`DecodeErrorKind::Reference`] with the element path and position for an `href` to no `id`, a
/// duplicate `id`, a cycle, an accessor with both `href` and content, a namespace prefix the
/// referenced element binds differently from the accessor's name, and the limits above; the reader's
/// errors for malformed XML.
pub fn resolve(input: &str, limits: Limits) -> Result<Option<String>, DecodeError> {
    // One scan for `href=` (memmem), then a look at the two bytes after each hit.
    let local_href = memchr::memmem::find_iter(input.as_bytes(), b"href=").any(|i| {
        matches!(
            input.as_bytes().get(i + 5..i + 7),
            Some(b"\"#") | Some(b"'#")
        )
    });
    if !local_href {
        return Ok(None);
    }
    // Pass 1: find Body and its children; collect the independent elements by id.
    let mut r = XmlReader::with_limits(input, limits);
    r.set_path_skip(1);
    let root = r.root()?;
    let mut body: Option<(usize, usize)> = None;
    let mut roots: Vec<(usize, usize, BTreeMap<String, String>)> = Vec::new();
    let mut targets: BTreeMap<String, Target> = BTreeMap::new();
    let _ = root;
    while let Some(child) = r.next_child()? {
        if child.local_name() != "Body" {
            r.skip_element()?;
            continue;
        }
        let content_start = input_position(input, &child);
        while let Some(c) = r.next_child()? {
            let id = r
                .attribute(&c, Name::unqualified("id"))?
                .map(|s| s.into_owned());
            let bindings: BTreeMap<String, String> = r.bindings_in_scope().into_iter().collect();
            let outer = r.read_outer_xml(&c)?;
            let start = c.offset() as usize;
            let end = start + outer.len();
            match id {
                Some(id) => {
                    if targets.contains_key(&id) {
                        let mut e = r.error_at(
                            DecodeErrorKind::Reference(format!("id {id:?} appears twice")),
                            c.offset(),
                        );
                        e.location.path.push('/');
                        e.location.path.push_str(c.local_name());
                        return Err(e);
                    }
                    targets.insert(
                        id,
                        Target {
                            start,
                            end,
                            bindings,
                        },
                    );
                }
                None => roots.push((start, end, bindings)),
            }
        }
        body = Some((content_start, r.position()));
        break;
    }
    let Some((body_start, body_end_tag)) = body else {
        return Ok(None);
    };
    if targets.is_empty() {
        // No independent elements: not a multi-reference document (an `href="#…"` in literal
        // content, such as an XHTML anchor inside `xs:any`, is left alone).
        return Ok(None);
    }
    // Pass 2: copy the document, expanding references in the Body's roots.
    let mut x = Expander {
        input,
        targets: &targets,
        limits,
        followed: 0,
        active: Vec::new(),
        out: String::with_capacity(input.len() * 2),
    };
    x.out.push_str(&input[..body_start]);
    for (start, end, bindings) in &roots {
        let mut scope = bindings.clone();
        x.copy_inner(*start, *end, &mut scope, &["Body".to_owned()], false)?;
    }
    // `body_end_tag` is just after Body's end tag; find its `</`.
    let close = input[..body_end_tag].rfind("</").unwrap_or(body_end_tag);
    x.out.push_str(&input[close..]);
    Ok(Some(x.out))
}

/// The byte position just after `tag`'s start tag (`>`).
fn input_position(input: &str, tag: &crate::xml::StartTag<'_>) -> usize {
    let start = tag.offset() as usize;
    input[start..]
        .find('>')
        .map_or(input.len(), |i| start + i + 1)
}

struct Expander<'a> {
    input: &'a str,
    targets: &'a BTreeMap<String, Target>,
    limits: Limits,
    followed: usize,
    /// The ids being expanded (cycle detection).
    active: Vec<String>,
    out: String,
}

impl Expander<'_> {
    fn error(&self, msg: String, offset: usize, path: &[String]) -> DecodeError {
        let prefix = self.input.get(..offset).unwrap_or(self.input);
        DecodeError::new(
            DecodeErrorKind::Reference(msg),
            location_in(prefix, offset as u64, path.join("/")),
        )
    }

    fn push(&mut self, s: &str, offset: usize, path: &[String]) -> Result<(), DecodeError> {
        if self.out.len() + s.len() > self.limits.max_text_bytes {
            return Err(self.error(
                format!(
                    "the document with its references resolved exceeds {} bytes",
                    self.limits.max_text_bytes
                ),
                offset,
                path,
            ));
        }
        self.out.push_str(s);
        Ok(())
    }

    /// Copies the element in `input[start..end]` (in scope `scope`), expanding references;
    /// with `skip_outer` only its content (the start and end tags of an `id` element are left out).
    /// `path` is the output path above the element (for errors and the depth limit).
    fn copy_inner(
        &mut self,
        start: usize,
        end: usize,
        scope: &mut BTreeMap<String, String>,
        path: &[String],
        skip_outer: bool,
    ) -> Result<(), DecodeError> {
        let input = self.input;
        let slice = &input[start..end];
        let mut reader = quick_xml::Reader::from_str(slice);
        reader.config_mut().expand_empty_elements = false;
        reader.config_mut().check_end_names = false;
        // (scope saved on each start, path)
        let mut saved: Vec<BTreeMap<String, String>> = Vec::new();
        let mut path: Vec<String> = path.to_vec();
        let mut level = 0usize;
        loop {
            let ev_start = start + reader.buffer_position() as usize;
            let ev = reader
                .read_event()
                .map_err(|e| self.error(format!("malformed XML: {e}"), ev_start, &path))?;
            let ev_end = start + reader.buffer_position() as usize;
            let raw = &input[ev_start..ev_end];
            match ev {
                Event::Eof => return Ok(()),
                Event::Start(ref t) | Event::Empty(ref t) => {
                    let empty = matches!(ev, Event::Empty(_));
                    let name = String::from_utf8_lossy(t.name().as_ref()).into_owned();
                    let local = name.rsplit(':').next().unwrap_or(&name).to_owned();
                    let skip_this = skip_outer && level == 0;
                    if !skip_this {
                        path.push(local);
                    }
                    // Envelope, then the path.
                    if path.len() + 1 > self.limits.max_depth {
                        return Err(self.error(
                            format!(
                                "elements nested deeper than the limit of {} with references resolved",
                                self.limits.max_depth
                            ),
                            ev_start,
                            &path,
                        ));
                    }
                    let before = scope.clone();
                    let mut href = None;
                    for a in t.attributes().with_checks(false) {
                        let a = a.map_err(|e| {
                            self.error(format!("malformed attribute: {e}"), ev_start, &path)
                        })?;
                        note_binding(&a, scope);
                        if a.key.as_ref() == b"href" {
                            let v = String::from_utf8_lossy(&a.value).into_owned();
                            if let Some(id) = v.strip_prefix('#') {
                                href = Some(id.to_owned());
                            }
                        }
                    }
                    if skip_this && href.is_some() {
                        return Err(self.error(
                            "an element with id is itself a reference (href)".into(),
                            ev_start,
                            &path,
                        ));
                    }
                    match href {
                        None => {
                            if !skip_this {
                                self.push(raw, ev_start, &path)?;
                            }
                            if empty {
                                *scope = before;
                                path.pop();
                                if level == 0 {
                                    return Ok(());
                                }
                            } else {
                                saved.push(before);
                                level += 1;
                            }
                        }
                        Some(id) => {
                            self.reference(t, &name, &id, scope, ev_start, &path)?;
                            if !empty {
                                // The accessor must be empty: skip to its end tag.
                                let mut inner = 0usize;
                                loop {
                                    let at = start + reader.buffer_position() as usize;
                                    match reader.read_event() {
                                        Ok(Event::Start(_)) => inner += 1,
                                        Ok(Event::End(_)) if inner == 0 => break,
                                        Ok(Event::End(_)) => inner -= 1,
                                        Ok(Event::Text(tx))
                                            if tx.iter().all(|b| b.is_ascii_whitespace()) => {}
                                        Ok(Event::Comment(_)) | Ok(Event::PI(_)) => {}
                                        Ok(Event::Eof) | Err(_) => {
                                            return Err(self.error(
                                                "document ends inside an element".into(),
                                                at,
                                                &path,
                                            ))
                                        }
                                        Ok(_) => {
                                            return Err(self.error(
                                                format!(
                                                    "an element with href=\"#{id}\" has content \
                                                     (SOAP 1.1 §5.4.1: a reference accessor is empty)"
                                                ),
                                                at,
                                                &path,
                                            ))
                                        }
                                    }
                                }
                            }
                            *scope = before;
                            path.pop();
                            if level == 0 {
                                return Ok(());
                            }
                        }
                    }
                }
                Event::End(_) => {
                    level = level.saturating_sub(1);
                    if let Some(s) = saved.pop() {
                        *scope = s;
                    }
                    if skip_outer && level == 0 {
                        return Ok(());
                    }
                    self.push(raw, ev_start, &path)?;
                    path.pop();
                    if level == 0 {
                        return Ok(());
                    }
                }
                Event::DocType(_) => {
                    return Err(self.error("DOCTYPE refused".into(), ev_start, &path));
                }
                _ => {
                    if !(skip_outer && level == 0) {
                        self.push(raw, ev_start, &path)?;
                    }
                }
            }
        }
    }

    /// Writes the accessor `t` (named `name`, `href="#id"`) with the attributes and content of the
    /// element `id`.
    fn reference(
        &mut self,
        t: &BytesStart<'_>,
        name: &str,
        id: &str,
        outer: &BTreeMap<String, String>,
        at: usize,
        path: &[String],
    ) -> Result<(), DecodeError> {
        let input = self.input;
        let Some(target) = self.targets.get(id) else {
            return Err(self.error(
                format!("href=\"#{id}\" names no element of the Body with id=\"{id}\""),
                at,
                path,
            ));
        };
        if self.active.iter().any(|a| a == id) {
            return Err(self.error(
                format!(
                    "href=\"#{id}\" is a cycle: the value contains itself ({} → {id})",
                    self.active.join(" → ")
                ),
                at,
                path,
            ));
        }
        self.followed += 1;
        if self.followed > self.limits.max_references {
            return Err(self.error(
                format!(
                    "more than {} href references followed (limit max_references)",
                    self.limits.max_references
                ),
                at,
                path,
            ));
        }
        // The accessor's own prefix must keep its meaning inside the target's scope.
        let prefix = name.rsplit_once(':').map_or("", |(p, _)| p);
        if let Some(uri) = target.bindings.get(prefix) {
            if outer.get(prefix) != Some(uri) {
                return Err(self.error(
                    format!(
                        "the element with id=\"{id}\" binds the prefix {prefix:?} of the accessor \
                         <{name}> to another namespace"
                    ),
                    at,
                    path,
                ));
            }
        }
        let mut tag = format!("<{name}");
        copy_attributes(&mut tag, input, t, b"href");
        // The target's start tag: its attributes (but `id` and declarations).
        let ttext = &input[target.start..target.end];
        let mut tr = quick_xml::Reader::from_str(ttext);
        let (target_start, target_empty) = match tr.read_event() {
            Ok(Event::Start(s)) => (s, false),
            Ok(Event::Empty(s)) => (s, true),
            _ => {
                return Err(self.error(
                    format!("the element with id=\"{id}\" is not an element"),
                    target.start,
                    path,
                ))
            }
        };
        copy_attributes(&mut tag, input, &target_start, b"id");
        // Declarations: the target's scope where it differs from the accessor's, and the accessor's
        // own prefix where the target's scope lacks it.
        for (p, uri) in &target.bindings {
            if outer.get(p) != Some(uri) {
                push_decl(&mut tag, p, uri);
            }
        }
        let mut inner_scope = outer.clone();
        for (p, uri) in &target.bindings {
            inner_scope.insert(p.clone(), uri.clone());
        }
        tag.push('>');
        self.push(&tag, at, path)?;
        if !target_empty {
            self.active.push(id.to_owned());
            self.copy_inner(target.start, target.end, &mut inner_scope, path, true)?;
            self.active.pop();
        }
        self.push(&format!("</{name}>"), at, path)?;
        Ok(())
    }
}

/// Records an `xmlns`/`xmlns:p` attribute in `scope`.
fn note_binding(a: &Attribute<'_>, scope: &mut BTreeMap<String, String>) {
    let k = a.key.as_ref();
    let v = String::from_utf8_lossy(&a.value).into_owned();
    if k == b"xmlns" {
        scope.insert(String::new(), v);
    } else if let Some(p) = k.strip_prefix(b"xmlns:") {
        scope.insert(String::from_utf8_lossy(p).into_owned(), v);
    }
}

fn push_decl(tag: &mut String, prefix: &str, uri: &str) {
    let uri = uri
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;");
    if prefix.is_empty() {
        tag.push_str(&format!(" xmlns=\"{uri}\""));
    } else {
        tag.push_str(&format!(" xmlns:{prefix}=\"{uri}\""));
    }
}

/// The byte range of attribute `a` as written (`key="value"`), found from its borrowed key and
/// value slices.
/// Appends to `tag` the attributes of `start` as written in `input`, but `skip` (the accessor's
/// `href`, the target's `id`: SOAP 1.1 §5.4.1) and namespace declarations.
fn copy_attributes(tag: &mut String, input: &str, start: &BytesStart<'_>, skip: &[u8]) {
    for a in start.attributes().with_checks(false).flatten() {
        let k = a.key.as_ref();
        if k == skip || k == b"xmlns" || k.starts_with(b"xmlns:") {
            continue;
        }
        tag.push(' ');
        tag.push_str(&input[attr_span(input, &a)]);
    }
}

fn attr_span(input: &str, a: &Attribute<'_>) -> std::ops::Range<usize> {
    let base = input.as_ptr() as usize;
    let k = a.key.as_ref();
    let start = (k.as_ptr() as usize).saturating_sub(base);
    let vend = (a.value.as_ptr() as usize).saturating_sub(base) + a.value.len();
    // Include the closing quote.
    let end = (vend + 1).min(input.len());
    if start >= end || !input.is_char_boundary(start) || !input.is_char_boundary(end) {
        return 0..0;
    }
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;

    const ENV: &str = r#"xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/""#;

    fn doc(body: &str) -> String {
        format!("<soapenv:Envelope {ENV}><soapenv:Body>{body}</soapenv:Body></soapenv:Envelope>")
    }

    fn kind_msg(e: &DecodeError) -> String {
        match &e.kind {
            DecodeErrorKind::Reference(m) => m.clone(),
            k => panic!("not a reference error: {k:?}"),
        }
    }

    #[test]
    fn nothing_to_do_without_href() {
        assert!(resolve(&doc("<a>1</a>"), Limits::default())
            .unwrap()
            .is_none());
        // Literal content with an anchor, and no id elements in Body: left alone.
        let d = doc(
            r##"<r><html:a xmlns:html="http://www.w3.org/1999/xhtml" href="#top">t</html:a></r>"##,
        );
        assert!(resolve(&d, Limits::default()).unwrap().is_none());
    }

    #[test]
    fn axis_style_multirefs_are_inlined() {
        // As Axis 1.4 writes them: every struct an independent multiRef, shared values once.
        let d = doc(
            r##"<ns1:getPairResponse soapenv:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/" xmlns:ns1="urn:t"><getPairReturn href="#id0"/></ns1:getPairResponse><multiRef id="id0" soapenc:root="0" xsi:type="ns2:Pair" xmlns:ns2="urn:types"><left href="#id1"/><right href="#id1"/></multiRef><multiRef id="id1" soapenc:root="0" xsi:type="ns3:Point" xmlns:ns3="urn:types"><x xsi:type="xsd:int" xmlns:xsd="http://www.w3.org/2001/XMLSchema">1</x><y>2</y></multiRef>"##,
        );
        let out = resolve(&d, Limits::default()).unwrap().unwrap();
        assert!(!out.contains("multiRef"), "{out}");
        assert!(!out.contains("href"), "{out}");
        assert!(out.contains(r#"<getPairReturn soapenc:root="0" xsi:type="ns2:Pair" xmlns:ns2="urn:types"><left soapenc:root="0" xsi:type="ns3:Point" xmlns:ns3="urn:types"><x xsi:type="xsd:int" xmlns:xsd="http://www.w3.org/2001/XMLSchema">1</x><y>2</y></left><right"#), "{out}");
        // The result is a well-formed envelope the reader accepts.
        let mut r = XmlReader::new(&out);
        r.root().unwrap();
        let body = r.next_child().unwrap().unwrap();
        assert_eq!(body.local_name(), "Body");
        let resp = r.next_child().unwrap().unwrap();
        assert_eq!(resp.local_name(), "getPairResponse");
        r.skip_element().unwrap();
        assert!(r.next_child().unwrap().is_none());
    }

    #[test]
    fn gsoap_style_with_default_namespace_declarations() {
        let d = doc(
            r##"<ns:echoResponse xmlns:ns="urn:e"><a href="#_1"/><b href="#_1"></b></ns:echoResponse><id xmlns="" id="_1" xsi:type="ns:Item"><name>x</name></id>"##,
        );
        let out = resolve(&d, Limits::default()).unwrap().unwrap();
        assert!(out.contains(r#"<a xsi:type="ns:Item"><name>x</name></a><b xsi:type="ns:Item"><name>x</name></b>"#), "{out}");
    }

    #[test]
    fn missing_ids_cycles_and_bombs_are_errors() {
        let e = resolve(
            &doc(r##"<r><v href="#nope"/></r><m id="other">1</m>"##),
            Limits::default(),
        )
        .unwrap_err();
        assert!(kind_msg(&e).contains("names no element"), "{e}");
        assert_eq!(e.location.path, "Body/r/v");

        let e = resolve(
            &doc(r##"<r><v href="#a"/></r><m id="a"><n href="#b"/></m><m id="b"><n href="#a"/></m>"##),
            Limits::default(),
        )
        .unwrap_err();
        assert!(kind_msg(&e).contains("cycle"), "{e}");

        // A doubling chain: 2^k expansions from a small document.
        let mut body = String::from(r##"<r><v href="#l0"/></r>"##);
        for i in 0..40 {
            body.push_str(&format!(
                r##"<m id="l{i}"><a href="#l{n}"/><b href="#l{n}"/></m>"##,
                n = i + 1
            ));
        }
        body.push_str(r#"<m id="l40">x</m>"#);
        let e = resolve(&doc(&body), Limits::default()).unwrap_err();
        assert!(matches!(e.kind, DecodeErrorKind::Reference(_)), "{e}");

        let e = resolve(
            &doc(r##"<r><v href="#a">text</v></r><m id="a">1</m>"##),
            Limits::default(),
        )
        .unwrap_err();
        assert!(kind_msg(&e).contains("has content"), "{e}");
    }
}
