//! base64Binary element content through the streaming reader (line breaks, character references,
//! CDATA, errors with positions) and MTOM/XOP and SwA attachments resolved from multipart/related
//! messages, end to end through the derives.

use bytes::Bytes;
use soapgen_runtime::envelope::{read_response_with_attachments, BodyContent, EnvelopeWriter};
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::mime::{parse_multipart_related, Attachments};
use soapgen_runtime::types::Base64Binary;
use soapgen_runtime::xml::{Limits, Name, XmlReader, XmlWriter};
use soapgen_runtime::SoapVersion;
use soapgen_runtime::{DecodeError, FromXml, ToXml};

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:test")]
struct Foo {
    name: String,
    picture: Base64Binary,
    thumbnail: Option<Base64Binary>,
}

fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((i * 31 + 7) % 251) as u8).collect()
}

fn b64(data: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(data)
}

fn lines(text: &str, cols: usize, brk: &str) -> String {
    text.as_bytes()
        .chunks(cols)
        .map(|c| std::str::from_utf8(c).unwrap())
        .collect::<Vec<_>>()
        .join(brk)
}

fn read_foo(xml: &str, attachments: Option<&Attachments>) -> Result<Foo, DecodeError> {
    let mut r = XmlReader::new(xml);
    if let Some(a) = attachments {
        r.set_attachments(a);
    }
    let root = r.root()?;
    let v = Foo::read_xml(&mut r, root)?;
    r.finish()?;
    Ok(v)
}

fn foo_xml(picture_content: &str) -> String {
    format!(
        "<t:Foo xmlns:t=\"urn:test\" xmlns:xop=\"http://www.w3.org/2004/08/xop/include\">\
         <t:name>n</t:name><t:picture>{picture_content}</t:picture></t:Foo>"
    )
}

#[test]
fn line_breaks_references_and_cdata_decode_to_the_same_bytes() {
    let data = pattern(100_000);
    let enc = b64(&data);
    let forms = [
        enc.clone(),
        lines(&enc, 76, "\r\n"),
        lines(&enc, 76, "\n"),
        lines(&enc, 73, "\r\n"),
        lines(&enc, 64, "\n"),
        lines(&enc, 76, "&#13;\n"),
        lines(&enc, 76, "&#xD;&#xA;"),
        format!("<![CDATA[{}]]>", lines(&enc, 76, "\r\n")),
        format!("\n   {}\n  ", lines(&enc, 60, "\n   ")),
    ];
    for form in forms {
        let foo = read_foo(&foo_xml(&form), None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&foo.picture[..], &data[..]);
    }
}

#[test]
fn invalid_base64_names_the_element_and_the_position() {
    let enc = lines(&b64(&pattern(1000)), 76, "\n");
    let mut bad = enc.clone().into_bytes();
    bad[76 * 3 + 3 + 10] = b'*'; // line 4 (1-based), column 11
    let xml = foo_xml(std::str::from_utf8(&bad).unwrap());
    let e = read_foo(&xml, None).unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("invalid character '*' at offset 241 (offset in the element's text)"),
        "{msg}"
    );
    assert!(msg.contains("Foo/picture"), "{msg}");
    assert_eq!(e.location.line, 4, "{msg}");
    assert_eq!(e.location.column, 11, "{msg}");
    let e = read_foo(&foo_xml("QUJD=QUJD"), None).unwrap_err();
    assert!(e.to_string().contains("padding '=' at offset 4"), "{e}");
    let e = read_foo(&foo_xml("QUI=QUJD"), None).unwrap_err();
    assert!(
        e.to_string().contains("followed by data at offset 4"),
        "{e}"
    );
    let e = read_foo(&foo_xml("QUJDQQ"), None).unwrap_err();
    assert!(e.to_string().contains("padding"), "{e}");
    assert!(e.to_string().contains("Foo/picture"), "{e}");
}

const CT: &str = "multipart/related; type=\"application/xop+xml\"; boundary=\"MIMEBoundary\"; start=\"<root@example>\"; start-info=\"text/xml\"";

fn multipart(root: &str, parts: &[(&str, &[u8])]) -> Bytes {
    let mut out = Vec::new();
    out.extend_from_slice(
        b"--MIMEBoundary\r\nContent-Type: application/xop+xml; charset=UTF-8; type=\"text/xml\"\r\nContent-ID: <root@example>\r\n\r\n",
    );
    out.extend_from_slice(root.as_bytes());
    for (id, body) in parts {
        out.extend_from_slice(
            format!("\r\n--MIMEBoundary\r\nContent-Type: application/octet-stream\r\nContent-Transfer-Encoding: binary\r\nContent-ID: {id}\r\n\r\n").as_bytes(),
        );
        out.extend_from_slice(body);
    }
    out.extend_from_slice(b"\r\n--MIMEBoundary--\r\n");
    Bytes::from(out)
}

#[test]
fn xop_include_resolves_to_the_part_without_copying() {
    let data = pattern(1 << 20);
    let root = foo_xml(r#"<xop:Include href="cid:pic%2F1@example"/>"#);
    let m =
        parse_multipart_related(CT, multipart(&root, &[("<pic/1@example>", &data)]), 16).unwrap();
    let foo = read_foo(
        std::str::from_utf8(&m.root.body).unwrap(),
        Some(&m.attachments),
    )
    .unwrap();
    assert_eq!(&foo.picture[..], &data[..]);
    // The same memory as the part: shared, not copied.
    let part = m.attachments.get("cid:pic%2F1@example").unwrap();
    assert_eq!(foo.picture.0.as_ptr(), part.body.as_ptr());
}

#[test]
fn an_attachment_referenced_twice_is_read_twice() {
    let root = "<t:Foo xmlns:t=\"urn:test\" xmlns:xop=\"http://www.w3.org/2004/08/xop/include\"><t:name>n</t:name>\
        <t:picture><xop:Include href=\"cid:a@x\"/></t:picture><t:thumbnail><xop:Include href=\"cid:a@x\"/></t:thumbnail></t:Foo>";
    let m = parse_multipart_related(CT, multipart(root, &[("<a@x>", b"abc")]), 16).unwrap();
    let foo = read_foo(
        std::str::from_utf8(&m.root.body).unwrap(),
        Some(&m.attachments),
    )
    .unwrap();
    assert_eq!(&foo.picture[..], b"abc");
    assert_eq!(foo.thumbnail.as_deref(), Some(&b"abc"[..]));
}

#[test]
fn swa_href_attribute_resolves_to_the_part() {
    let root =
        "<t:Foo xmlns:t=\"urn:test\"><t:name>n</t:name><t:picture href=\"cid:photo@x\"/></t:Foo>";
    let m =
        parse_multipart_related(CT, multipart(root, &[("<photo@x>", b"\x00\xff")]), 16).unwrap();
    let foo = read_foo(
        std::str::from_utf8(&m.root.body).unwrap(),
        Some(&m.attachments),
    )
    .unwrap();
    assert_eq!(&foo.picture[..], b"\x00\xff");
}

#[test]
fn unresolvable_references_are_errors_with_the_element_path() {
    let root = foo_xml(r#"<xop:Include href="cid:missing@x"/>"#);
    let m = parse_multipart_related(CT, multipart(&root, &[("<a@x>", b"abc")]), 16).unwrap();
    let e = read_foo(
        std::str::from_utf8(&m.root.body).unwrap(),
        Some(&m.attachments),
    )
    .unwrap_err();
    assert!(matches!(e.kind, DecodeErrorKind::Attachment(_)), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("cid:missing@x") && msg.contains("<a@x>"),
        "{msg}"
    );
    assert!(msg.contains("Foo/picture"), "{msg}");
    // Without a multipart message at all.
    let e = read_foo(&root, None).unwrap_err();
    assert!(
        e.to_string().contains("not a multipart/related message"),
        "{e}"
    );
    // xop:Include beside base64 text, or another element.
    let e = read_foo(
        &foo_xml(r#"QUJD<xop:Include href="cid:a@x"/>"#),
        Some(&m.attachments),
    )
    .unwrap_err();
    assert!(e.to_string().contains("beside xop:Include"), "{e}");
    let e = read_foo(&foo_xml("<t:other/>"), None).unwrap_err();
    assert!(e.to_string().contains("in base64Binary content"), "{e}");
}

#[test]
fn mtom_writer_sends_large_values_as_attachments_and_small_ones_inline() {
    let mut w = XmlWriter::new();
    w.set_mtom(Some(1024));
    let mut env =
        EnvelopeWriter::with_writer(w, SoapVersion::Soap11, &[("t", "urn:test")]).unwrap();
    let foo = Foo {
        name: "n".into(),
        picture: Base64Binary::from(pattern(5000)),
        thumbnail: Some(Base64Binary::from(pattern(10))),
    };
    env.body(|w| foo.write_xml(w, Name::new("urn:test", "Foo")))
        .unwrap();
    let msg = env.finish_message().unwrap();
    assert_eq!(msg.attachments.len(), 1);
    assert_eq!(&msg.attachments[0].data[..], &pattern(5000)[..]);
    assert!(msg.envelope.contains("Include"), "{}", msg.envelope);
    assert!(
        msg.envelope.contains(&b64(&pattern(10))),
        "{}",
        msg.envelope
    );
    // Read back: the envelope plus the attachment as a multipart message.
    let id = format!("<{}>", msg.attachments[0].content_id);
    let root = msg.envelope.clone();
    let m = parse_multipart_related(CT, multipart(&root, &[(&id, &pattern(5000))]), 16).unwrap();
    let got = read_response_with_attachments(
        &m.root.body,
        Some(&m.attachments),
        None,
        Limits::default(),
        None,
        Foo::read_xml,
    )
    .unwrap();
    match got {
        BodyContent::Payload(f) => assert_eq!(f, foo),
        BodyContent::Empty => panic!("empty body"),
    }
    // finish() refuses to drop attachments.
    let mut w = XmlWriter::new();
    w.set_mtom(Some(0));
    let mut env = EnvelopeWriter::with_writer(w, SoapVersion::Soap12, &[]).unwrap();
    env.body(|w| foo.write_xml(w, Name::new("urn:test", "Foo")))
        .unwrap();
    assert!(env
        .finish()
        .unwrap_err()
        .to_string()
        .contains("finish_message"));
}
