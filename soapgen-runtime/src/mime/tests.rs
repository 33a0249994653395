use super::*;
use crate::message::RequestMessage;
use crate::mime::{OutgoingAttachment, Packaging};

fn msg(parts: &[(&str, &str)], boundary: &str) -> Vec<u8> {
    let mut out = b"preamble\r\n".to_vec();
    for (headers, body) in parts {
        out.extend_from_slice(format!("--{boundary}\r\n{headers}\r\n\r\n{body}\r\n").as_bytes());
    }
    out.extend_from_slice(format!("--{boundary}--\r\nepilogue").as_bytes());
    out
}

const CT: &str = "multipart/related; type=\"application/xop+xml\"; boundary=\"b1\"; start=\"<root@x>\"; start-info=\"text/xml\"";

#[test]
fn splits_parts_and_finds_the_root_by_start() {
    let body = msg(
        &[
            (
                "Content-ID: <att%1@x>\r\nContent-Type: application/octet-stream",
                "\x00\x01binary\r\n--b1 not a delimiter",
            ),
            (
                "Content-Type: application/xop+xml\r\nContent-ID: <root@x>",
                "<Envelope/>",
            ),
        ],
        "b1",
    );
    let m = parse_multipart_related(CT, Bytes::from(body), 10).unwrap();
    assert_eq!(&m.root.body[..], b"<Envelope/>");
    assert_eq!(m.attachments.len(), 1);
    let a = m.attachments.get("cid:att%251@x").unwrap();
    assert_eq!(&a.body[..], b"\x00\x01binary\r\n--b1 not a delimiter");
    assert!(m.attachments.get("<att%1@x>").is_some());
    assert!(m.attachments.get("cid:other@x").is_none());
}

#[test]
fn decodes_transfer_encodings() {
    let body = msg(
        &[
            ("Content-ID: <root@x>", "<E/>"),
            (
                "Content-ID: <a@x>\r\nContent-Transfer-Encoding: base64",
                "SGVs\r\nbG8=",
            ),
            (
                "Content-ID: <b@x>\r\nContent-Transfer-Encoding: Quoted-Printable",
                "caf=C3=A9 =\r\nau lait=3D",
            ),
        ],
        "b1",
    );
    let m = parse_multipart_related(CT, Bytes::from(body), 10).unwrap();
    assert_eq!(&m.attachments.get("cid:a@x").unwrap().body[..], b"Hello");
    assert_eq!(
        std::str::from_utf8(&m.attachments.get("cid:b@x").unwrap().body).unwrap(),
        "café au lait="
    );
}

#[test]
fn bad_messages_are_errors() {
    let ok = msg(&[("Content-ID: <root@x>", "<E/>")], "b1");
    let e = parse_multipart_related("multipart/related; type=x", Bytes::from(ok.clone()), 10)
        .unwrap_err();
    assert!(e.message.contains("no boundary"), "{e}");
    let e =
        parse_multipart_related(&CT.replace("b1", "zz"), Bytes::from(ok.clone()), 10).unwrap_err();
    assert!(e.message.contains("does not occur"), "{e}");
    let truncated = &ok[..ok.len() - 20];
    let e = parse_multipart_related(CT, Bytes::copy_from_slice(truncated), 10).unwrap_err();
    assert!(e.message.contains("truncated"), "{e}");
    let e = parse_multipart_related(&CT.replace("root@x", "nope@x"), Bytes::from(ok.clone()), 10)
        .unwrap_err();
    assert!(e.message.contains("no part has"), "{e}");
    let many = msg(
        &[("Content-ID: <root@x>", "<E/>"), ("Content-ID: <a@x>", "a")],
        "b1",
    );
    let e = parse_multipart_related(CT, Bytes::from(many), 1).unwrap_err();
    assert!(e.message.contains("more than 1 parts"), "{e}");
    let bad = msg(
        &[
            ("Content-ID: <root@x>", "<E/>"),
            (
                "Content-ID: <a@x>\r\nContent-Transfer-Encoding: base64",
                "SG*s",
            ),
        ],
        "b1",
    );
    let e = parse_multipart_related(CT, Bytes::from(bad), 10).unwrap_err();
    assert!(
        e.message.contains("part 2") && e.message.contains("'*'"),
        "{e}"
    );
    let bad = msg(
        &[(
            "Content-ID: <root@x>\r\nContent-Transfer-Encoding: x-uue",
            "<E/>",
        )],
        "b1",
    );
    let e = parse_multipart_related(CT, Bytes::from(bad), 10).unwrap_err();
    assert!(e.message.contains("x-uue"), "{e}");
}

#[test]
fn parameters_and_content_ids() {
    let p = content_type_parameters(
            "multipart/related; TYPE=\"application/xop+xml\";boundary=abc ; start-info=\"application/soap+xml; action=\\\"urn:a\\\"\"",
        );
    assert_eq!(parameter(&p, "type"), Some("application/xop+xml"));
    assert_eq!(parameter(&p, "boundary"), Some("abc"));
    assert_eq!(
        parameter(&p, "start-info"),
        Some("application/soap+xml; action=\"urn:a\"")
    );
    assert_eq!(content_id_of_reference("CID:a%20b@x"), "a b@x");
    assert_eq!(cid_url("a b@x"), "cid:a%20b@x");
    assert!(is_multipart_related("Multipart/Related; boundary=x"));
}

#[test]
fn mtom_requests_round_trip() {
    let m = RequestMessage {
        envelope: "<E/>".into(),
        attachments: vec![OutgoingAttachment {
            content_id: "1.a@soapgen".into(),
            content_type: "application/octet-stream".into(),
            data: Bytes::from_static(b"\r\n--x\r\n"),
        }],
        packaging: Packaging::Mtom,
    };
    let (ct, body) = write_mtom(&m, "text/xml");
    let parsed = parse_multipart_related(&ct, body, 10).unwrap();
    assert_eq!(&parsed.root.body[..], b"<E/>");
    assert_eq!(
        &parsed.attachments.get("cid:1.a@soapgen").unwrap().body[..],
        b"\r\n--x\r\n"
    );
}

#[test]
fn swa_requests_have_a_text_xml_root_and_part_named_ids() {
    let mut r = crate::message::RequestWriter::new(&[]).finish().unwrap();
    r.attach_part(
        "photo",
        Attachment::new("image/jpeg", vec![0xFFu8, 0xD8]),
        "image/*",
    );
    r.attach_part("thumb nail", Attachment::from(Vec::new()), "image/*");
    r.attach_part("doc", Attachment::from(&b"x"[..]), "text/xml");
    let m = RequestMessage {
        envelope: "<E/>".into(),
        attachments: r.attachments().to_vec(),
        packaging: r.packaging(),
    };
    assert_eq!(m.packaging, Packaging::SwA);
    assert_eq!(m.attachments[0].content_type, "image/jpeg");
    assert_eq!(m.attachments[1].content_type, "application/octet-stream");
    assert_eq!(m.attachments[2].content_type, "text/xml");
    assert!(m.attachments[1].content_id.starts_with("thumb%20nail="));
    let (ct, body) = write_swa(&m, "text/xml; charset=utf-8");
    let params = content_type_parameters(&ct);
    assert_eq!(parameter(&params, "type"), Some("text/xml"));
    assert_eq!(parameter(&params, "start"), Some("<root.message@soapgen>"));
    let text = String::from_utf8_lossy(&body).into_owned();
    assert!(
        text.contains("Content-Type: text/xml; charset=utf-8\r\n"),
        "{text}"
    );
    assert!(!text.contains("xop"), "{text}");
    let parsed = parse_multipart_related(&ct, body, 10).unwrap();
    assert_eq!(&parsed.root.body[..], b"<E/>");
    let names = ["photo", "thumb nail", "doc"];
    for (i, (name, data)) in names
        .iter()
        .zip([&[0xFFu8, 0xD8][..], b"", b"x"])
        .enumerate()
    {
        let part = parsed.attachments.find_part(name, i, &names).unwrap();
        assert_eq!(&part.body[..], data, "{name}");
    }
    assert_eq!(
        parsed
            .attachments
            .find_part("photo", 0, &names)
            .unwrap()
            .content_type
            .as_deref(),
        Some("image/jpeg")
    );
    // SOAP 1.2: the multipart's type is the media type, the root keeps the action parameter.
    let (ct, body) = write_swa(&m, "application/soap+xml; charset=utf-8; action=\"urn:a\"");
    assert!(
        ct.starts_with("multipart/related; type=\"application/soap+xml\""),
        "{ct}"
    );
    let parsed = parse_multipart_related(&ct, body, 10).unwrap();
    assert_eq!(
        parsed.root.content_type.as_deref(),
        Some("application/soap+xml; charset=utf-8; action=\"urn:a\"")
    );
}

#[test]
fn response_parts_by_name_then_by_order() {
    let body = msg(
        &[
            ("Content-ID: <root@x>", "<E/>"),
            ("Content-ID: <id1>", "first"),
            ("Content-ID: <b=1@x>", "named b"),
            ("Content-ID: <id2>", "second"),
            ("Content-ID: <other%3D@x>", "third"),
        ],
        "b1",
    );
    let m = parse_multipart_related(CT, Bytes::from(body), 10).unwrap();
    let names = ["a", "b", "c"];
    let get = |n: &str, i: usize| {
        m.attachments
            .find_part(n, i, &names)
            .map(|p| String::from_utf8_lossy(&p.body).into_owned())
    };
    // b by its name; a and c by their order among the parts no name claims.
    assert_eq!(get("b", 1).as_deref(), Some("named b"));
    assert_eq!(get("a", 0).as_deref(), Some("first"));
    assert_eq!(get("c", 2).as_deref(), Some("third"));
    assert_eq!(get("d", 3), None);
    // A prefix of a name is not the name.
    assert_eq!(
        m.attachments.find_part("", 9, &[""]).map(|p| p.body.len()),
        None
    );
}

mod spooled {
    use proptest::prelude::*;

    use super::super::spool::Spool;
    use super::super::{file_of, parse_multipart_related, AttachmentStore};
    use bytes::Bytes;

    /// Bodies made of what confuses a delimiter search: pieces of the delimiter, line ends,
    /// dashes and padding, at random.
    fn body() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            Just(b"--b1".to_vec()),
            Just(b"\r\n--b1X".to_vec()),
            Just(b"\n--b".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"-".to_vec()),
            Just(b"--".to_vec()),
            Just(b" \t".to_vec()),
            prop::collection::vec(any::<u8>(), 0..40),
        ];
        prop::collection::vec(piece, 0..30).prop_map(|v| v.concat())
    }

    /// A message of `bodies` (each a binary part; the first the root), as a sender would write
    /// it: no body holds a delimiter line.
    fn message(bodies: &[Vec<u8>]) -> Option<Vec<u8>> {
        let mut out = b"preamble\r\n".to_vec();
        for (i, b) in bodies.iter().enumerate() {
            let whole = [b"\n".as_ref(), b, b"\r\n"].concat();
            for (k, _) in whole.iter().enumerate() {
                if whole[k] == b'\n' && whole[k + 1..].starts_with(b"--b1") {
                    let rest = &whole[k + 5..];
                    let pad = rest
                        .iter()
                        .take_while(|c| matches!(c, b' ' | b'\t'))
                        .count();
                    if rest.starts_with(b"--")
                        || matches!(rest.get(pad), Some(b'\r' | b'\n') | None)
                    {
                        return None;
                    }
                }
            }
            out.extend_from_slice(
                format!(
                    "--b1\r\nContent-Type: application/octet-stream\r\nContent-ID: <p{i}>\r\n\r\n"
                )
                .as_bytes(),
            );
            out.extend_from_slice(b);
            out.extend_from_slice(b"\r\n");
        }
        out.extend_from_slice(b"--b1--\r\n");
        Some(out)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Whatever the chunks and the threshold, the parts are those of the whole message
        /// parsed at once; the long ones come from files.
        #[test]
        fn spooled_parts_are_the_parts(
            bodies in prop::collection::vec(body(), 1..4),
            chunk in 1usize..64,
            threshold in 1usize..80,
        ) {
            let Some(msg) = message(&bodies) else { return Ok(()) };
            let ct = "multipart/related; boundary=b1";
            let whole = parse_multipart_related(ct, Bytes::from(msg.clone()), 16).expect("parses");
            let dir = std::env::temp_dir().join(format!("soapgen-spool-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("dir");
            let store = AttachmentStore::dir(&dir).threshold(threshold);
            let mut spool = Spool::new(&store, ct, 1 << 20).expect("a boundary");
            for c in msg.chunks(chunk) {
                spool.push(c).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            }
            let spooled = spool.finish(ct, 16).map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
            prop_assert_eq!(&spooled.root.body, &whole.root.body);
            let a: Vec<&Bytes> = spooled.attachments.iter().map(|p| &p.body).collect();
            let b: Vec<&Bytes> = whole.attachments.iter().map(|p| &p.body).collect();
            prop_assert_eq!(a, b);
            for p in std::iter::once(&spooled.root).chain(spooled.attachments.iter()) {
                let file = file_of(&p.body);
                prop_assert_eq!(file.is_some(), !p.body.is_empty() && p.body.len() >= threshold);
                if let Some(f) = file {
                    let _ = std::fs::remove_file(f);
                }
            }
        }
    }
}
