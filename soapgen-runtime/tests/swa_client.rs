//! SOAP with Attachments through a `#[soap_client]` client and an in-memory server: the request is
//! `multipart/related` with the envelope as a `text/xml` root and `part=…` Content-IDs (WS-I AP 1.0
//! R2933); response parts are found by name, or by order when their Content-IDs do not say; swaRef
//! values travel as attachments both ways; a missing part is a decode error.

use std::sync::{Arc, Mutex};

use bytes::Bytes;
use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::mime::{parse_multipart_related, Attachment};
use soapgen_runtime::transport::{HttpRequest, HttpResponse, Transport, TransportFuture};
use soapgen_runtime::types::SwaRef;
use soapgen_runtime::{soap_client, Client, Error, FromXml, ToXml};

/// A body with a swaRef.
#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:photos")]
pub struct Album {
    pub name: String,
    pub cover: SwaRef,
}

#[soap_client(namespace = "urn:photos")]
pub trait Photos {
    #[soap(response_attachment = "photo", response_attachment = "thumbnail")]
    async fn echo(
        &self,
        name: String,
        #[soap(attachment, content_type = "image/jpeg")] photo: Attachment,
        #[soap(attachment = "thumbnail", content_type = "image/*")] thumb: Vec<u8>,
    ) -> Result<(String, Attachment, Vec<u8>), Error>;

    async fn album(&self, album: Album) -> Result<Album, Error>;
}

/// How the server names its reply's parts.
#[derive(Debug, Clone, Copy)]
enum Ids {
    /// `<photo=…>`, `<thumbnail=…>`, thumbnail first (only the names find them).
    Named,
    /// `<id1>`, `<id2>` in WSDL order (only the order finds them).
    Numbered,
    /// One part only.
    Missing,
}

#[derive(Debug)]
struct Server {
    ids: Ids,
    seen: Mutex<Vec<HttpRequest>>,
}

fn part(boundary: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!("--{boundary}\r\n{headers}\r\n\r\n").into_bytes();
    out.extend_from_slice(body);
    out.extend_from_slice(b"\r\n");
    out
}

impl Transport for Server {
    fn send(&self, request: HttpRequest) -> TransportFuture<'_> {
        let ct = request
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        self.seen.lock().unwrap().push(request.clone());
        let m =
            parse_multipart_related(&ct, request.body.clone(), 10).expect("a multipart request");
        let root = String::from_utf8(m.root.body.to_vec()).unwrap();
        let b = "srv-boundary";
        let mut body = Vec::new();
        if root.contains("<ns1:echo") || root.contains(":echo ") || root.contains(":echo>") {
            let envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
                <p:echoResponse xmlns:p=\"urn:photos\"><p:echoResult>back</p:echoResult></p:echoResponse>\
                </s:Body></s:Envelope>";
            body.extend(part(
                b,
                "Content-Type: text/xml; charset=utf-8\r\nContent-ID: <r>",
                envelope.as_bytes(),
            ));
            let photo = m
                .attachments
                .iter()
                .find(|p| p.content_id.as_deref().unwrap().starts_with("photo="))
                .unwrap();
            let thumb = m
                .attachments
                .iter()
                .find(|p| p.content_id.as_deref().unwrap().starts_with("thumbnail="))
                .unwrap();
            match self.ids {
                Ids::Named => {
                    body.extend(part(
                        b,
                        "Content-Type: image/png\r\nContent-ID: <thumbnail=2@srv>",
                        &thumb.body,
                    ));
                    body.extend(part(
                        b,
                        "Content-Type: image/jpeg\r\nContent-ID: <photo=1@srv>",
                        &photo.body,
                    ));
                }
                Ids::Numbered => {
                    body.extend(part(
                        b,
                        "Content-Type: image/jpeg\r\nContent-ID: <id1>",
                        &photo.body,
                    ));
                    body.extend(part(b, "Content-ID: <id2>", &thumb.body));
                }
                Ids::Missing => {
                    body.extend(part(b, "Content-ID: <photo=1@srv>", &photo.body));
                }
            }
        } else {
            // album: echo the swaRef'd part under a new Content-ID.
            let cover = m.attachments.iter().next().expect("the swaRef's part");
            let envelope = "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>\
                <p:albumResponse xmlns:p=\"urn:photos\"><p:albumResult><p:name>a</p:name>\
                <p:cover>cid:cover%201@srv</p:cover></p:albumResult></p:albumResponse></s:Body></s:Envelope>";
            body.extend(part(
                b,
                "Content-Type: text/xml\r\nContent-ID: <r>",
                envelope.as_bytes(),
            ));
            body.extend(part(
                b,
                "Content-Type: image/gif\r\nContent-ID: <cover 1@srv>",
                &cover.body,
            ));
        }
        body.extend_from_slice(format!("--{b}--\r\n").as_bytes());
        Box::pin(async move {
            Ok(HttpResponse {
                status: 200,
                headers: vec![(
                    "content-type".into(),
                    format!("multipart/related; type=\"text/xml\"; start=\"<r>\"; boundary={b}"),
                )],
                body: Bytes::from(body),
            })
        })
    }
}

fn client(ids: Ids) -> (PhotosClient, Arc<Server>) {
    let server = Arc::new(Server {
        ids,
        seen: Mutex::new(Vec::new()),
    });
    let c = Client::builder("http://127.0.0.1:1/photos")
        .transport(server.clone())
        .build()
        .unwrap();
    (PhotosClient::from_client(c), server)
}

fn pattern(len: usize) -> Vec<u8> {
    (0..len).map(|i| ((i * 31 + 7) % 251) as u8).collect()
}

#[tokio::test]
async fn attachments_go_as_swa_parts_and_come_back_by_name_or_order() {
    for ids in [Ids::Named, Ids::Numbered] {
        let (c, server) = client(ids);
        for (p, t) in [(0, 1), (1, 0), (1 << 20, 3)] {
            let photo = pattern(p);
            let thumb: Vec<u8> = pattern(t).iter().map(|b| b ^ 0x55).collect();
            let (text, got_photo, got_thumb) = c
                .echo("n".into(), Attachment::from(photo.clone()), thumb.clone())
                .await
                .unwrap_or_else(|e| panic!("{ids:?} {p}: {e}"));
            assert_eq!(text, "back");
            assert_eq!(got_photo.data, photo, "{ids:?} {p}");
            assert_eq!(got_photo.content_type.as_deref(), Some("image/jpeg"));
            assert_eq!(got_thumb, thumb, "{ids:?} {t}");
        }
        let seen = server.seen.lock().unwrap();
        let req = &seen[0];
        let ct = &req
            .headers
            .iter()
            .find(|(k, _)| k == "Content-Type")
            .unwrap()
            .1;
        assert!(
            ct.starts_with("multipart/related; type=\"text/xml\""),
            "{ct}"
        );
        let m = parse_multipart_related(ct, req.body.clone(), 10).unwrap();
        assert_eq!(
            m.root.content_type.as_deref(),
            Some("text/xml; charset=utf-8")
        );
        let root = std::str::from_utf8(&m.root.body).unwrap();
        assert!(
            !root.contains(":photo>") && !root.contains("cid:"),
            "{root}"
        );
        let parts: Vec<_> = m.attachments.iter().collect();
        assert_eq!(parts.len(), 2);
        assert!(parts[0]
            .content_id
            .as_deref()
            .unwrap()
            .starts_with("photo="));
        assert!(parts[0]
            .content_id
            .as_deref()
            .unwrap()
            .ends_with("@soapgen"));
        assert_eq!(parts[0].content_type.as_deref(), Some("image/jpeg"));
        assert!(parts[1]
            .content_id
            .as_deref()
            .unwrap()
            .starts_with("thumbnail="));
        // `image/*` is not a media type to send.
        assert_eq!(
            parts[1].content_type.as_deref(),
            Some("application/octet-stream")
        );
    }
    // The attachment's own content type wins over the declared one.
    let (c, server) = client(Ids::Named);
    c.echo("n".into(), Attachment::new("image/x-own", vec![1]), vec![2])
        .await
        .unwrap();
    let seen = server.seen.lock().unwrap();
    let ct = &seen[0]
        .headers
        .iter()
        .find(|(k, _)| k == "Content-Type")
        .unwrap()
        .1;
    let m = parse_multipart_related(ct, seen[0].body.clone(), 10).unwrap();
    assert_eq!(
        m.attachments.iter().next().unwrap().content_type.as_deref(),
        Some("image/x-own")
    );
}

#[tokio::test]
async fn a_missing_part_is_a_decode_error_naming_it() {
    let (c, _) = client(Ids::Missing);
    let e = c
        .echo("n".into(), Attachment::from(vec![1, 2]), vec![3])
        .await
        .unwrap_err();
    let Error::Decode(d) = &e else {
        panic!("expected a decode error, got {e}")
    };
    assert!(matches!(d.kind, DecodeErrorKind::Attachment(_)), "{e}");
    let text = e.to_string();
    assert!(
        text.contains("\"thumbnail\"") && text.contains("<photo=1@srv>"),
        "{text}"
    );
}

#[tokio::test]
async fn swa_refs_travel_as_attachments_both_ways() {
    let (c, server) = client(Ids::Named);
    let data = pattern(1 << 20);
    let back = c
        .album(Album {
            name: "a".into(),
            cover: SwaRef::new("image/gif", data.clone()),
        })
        .await
        .unwrap();
    assert_eq!(back.cover.data, data);
    assert_eq!(back.cover.content_type.as_deref(), Some("image/gif"));
    let seen = server.seen.lock().unwrap();
    let ct = &seen[0]
        .headers
        .iter()
        .find(|(k, _)| k == "Content-Type")
        .unwrap()
        .1;
    assert!(
        ct.starts_with("multipart/related; type=\"text/xml\""),
        "{ct}"
    );
    let m = parse_multipart_related(ct, seen[0].body.clone(), 10).unwrap();
    let part = m.attachments.iter().next().unwrap();
    let root = std::str::from_utf8(&m.root.body).unwrap();
    assert!(
        root.contains(&format!("cid:{}<", part.content_id.as_deref().unwrap())),
        "{root}"
    );
    assert_eq!(part.content_type.as_deref(), Some("image/gif"));
}
