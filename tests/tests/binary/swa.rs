//! SOAP with Attachments against a real peer, through the client generated from
//! `tests/peers/gsoap/swa/swa.wsdl` (a WSDL 1.1 §5 `mime:multipartRelated` binding and a WS-I
//! `swaRef`), served by gSOAP (`tests/peers/gsoap/swa/server.c`):
//!
//! - `EchoPhoto`: two attachments sent as MIME parts of a `multipart/related` request with a
//!   `text/xml` root (SwA, not XOP) and Content-IDs `<photo=…>`, `<thumbnail=…>` (WS-I AP 1.0
//!   R2933; the server finds the parts by them), echoed back and read from the response by name
//!   (`/wsi`: named parts, thumbnail first) and by order (`/plain`: gSOAP's unnamed parts);
//!   0 B, 1 B and 1 MiB each way, bytes compared exactly.
//! - `EchoRef`: a swaRef sent as an attachment referenced by `cid:`, resolved by gSOAP, and the
//!   response's swaRef resolved to the attachment gSOAP sent back; the same sizes.
//!
//! What gSOAP covers here and what it does not: wsdl2h reads the MIME binding (the operations'
//! attachment parts and types are in the generated header) but turns it into documentation, not
//! parameters; the server reads and writes the attachments through gSOAP's MIME API
//! (`soap->mime.list`, `soap_set_mime_attachment`), as any gSOAP SwA application does. So the
//! MIME packaging, Content-IDs and swaRef resolution are gSOAP's own code on both sides of the
//! wire; the matching of attachments to WSDL parts on the server is `server.c`'s (by the R2933
//! Content-ID prefix).

use std::sync::Arc;

use soapgen_runtime::mime::Attachment;
use soapgen_runtime::types::SwaRef;
use soapgen_runtime::Client;
use soapgen_tests::peers;
use soapgen_tests::recording::Recording;

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("swa");
}

const SIZES: [usize; 3] = [0, 1, 1 << 20];

fn client(url: String) -> (generated::SwaServiceClient, Arc<Recording>) {
    let recording = Arc::new(Recording::new());
    let c = Client::builder(url)
        .transport(recording.clone())
        .build()
        .unwrap();
    (generated::SwaServiceClient::from_client(c), recording)
}

/// Another pattern than the photo's, so that swapped parts show.
fn thumbnail_bytes(len: usize) -> Vec<u8> {
    peers::pattern_bytes(len).iter().map(|b| b ^ 0xA5).collect()
}

#[tokio::test]
async fn gsoap_receives_mime_parts_and_echoes_them_by_name_and_by_order() {
    let peer = peers::gsoap_swa();
    for path in ["/wsi", "/plain"] {
        let (c, rec) = client(peer.url(path));
        for photo_size in SIZES {
            for thumb_size in SIZES {
                let photo = peers::pattern_bytes(photo_size);
                let thumb = thumbnail_bytes(thumb_size);
                let (body, got_photo, got_thumb) = c
                    .echo_photo(
                        format!("p{photo_size}"),
                        Attachment::from(photo.clone()),
                        Attachment::new("image/x-thumb", thumb.clone()),
                    )
                    .await
                    .unwrap_or_else(|e| {
                        panic!(
                            "{path} {photo_size}/{thumb_size}: {e}\n{}",
                            peer.stderr_output()
                        )
                    });
                let what = format!("{path} photo {photo_size} B, thumbnail {thumb_size} B");
                assert_eq!(body.name, format!("p{photo_size}"), "{what}");
                assert_eq!(
                    (body.photo_size, body.thumbnail_size),
                    (photo_size as i64, thumb_size as i64),
                    "{what}"
                );
                assert!(got_photo.data[..] == photo[..], "{what}: photo differs");
                assert!(got_thumb.data[..] == thumb[..], "{what}: thumbnail differs");
                assert_eq!(
                    got_photo.content_type.as_deref(),
                    Some("image/jpeg"),
                    "{what}"
                );
                assert_eq!(
                    got_thumb.content_type.as_deref(),
                    Some("image/png"),
                    "{what}"
                );
                // What gSOAP received: SwA with a text/xml root, R2933 Content-IDs, the types.
                let received = &body.received;
                assert!(
                    received.starts_with("Content-Type: multipart/related; type=\"text/xml\""),
                    "{what}: {received}"
                );
                assert!(!received.contains("xop"), "{what}: {received}");
                let line = |prefix: &str| {
                    received
                        .lines()
                        .find(|l| l.starts_with(prefix))
                        .unwrap_or_else(|| panic!("{what}: no {prefix} in {received}"))
                        .to_owned()
                };
                let p = line("<photo=");
                assert!(
                    p.contains("@soapgen> image/jpeg ") && p.ends_with(&format!(" {photo_size}")),
                    "{what}: {p}"
                );
                let t = line("<thumbnail=");
                assert!(
                    t.contains(" image/x-thumb ") && t.ends_with(&format!(" {thumb_size}")),
                    "{what}: {t}"
                );
                let (req_ct, resp_ct) = rec.last_content_types();
                assert!(
                    req_ct.contains("start=\"<root.message@soapgen>\""),
                    "{req_ct}"
                );
                assert!(resp_ct.starts_with("multipart/related"), "{resp_ct}");
            }
        }
    }
}

#[tokio::test]
async fn swa_refs_go_to_gsoap_and_come_back() {
    let peer = peers::gsoap_swa();
    let (c, rec) = client(peer.url("/wsi"));
    for size in SIZES {
        let data = peers::pattern_bytes(size);
        let r = c
            .echo_ref(format!("r{size}"), SwaRef::new("image/gif", data.clone()))
            .await
            .unwrap_or_else(|e| panic!("{size} B: {e}\n{}", peer.stderr_output()));
        assert_eq!(r.name, format!("r{size}"));
        assert_eq!(r.size, size as i64);
        assert!(r.photo.data[..] == data[..], "swaRef of {size} B differs");
        assert_eq!(r.photo.content_type.as_deref(), Some("image/gif"));
        let (req_ct, resp_ct) = rec.last_content_types();
        assert!(
            req_ct.starts_with("multipart/related; type=\"text/xml\""),
            "{req_ct}"
        );
        assert!(resp_ct.starts_with("multipart/related"), "{resp_ct}");
    }
}

#[tokio::test]
async fn a_swa_ref_naming_no_attachment_is_a_fault_from_gsoap() {
    // Written by hand: a swaRef whose cid: names nothing in the message (soapgen never sends one).
    let peer = peers::gsoap_swa();
    let (c, _) = client(peer.url("/wsi"));
    let op = soapgen_runtime::Operation::new(
        "EchoRef",
        "urn:soapgen:swa#EchoRef",
        soapgen_runtime::SoapVersion::Soap11,
    );
    let mut req = c.client().request(&[("p", "urn:soapgen:swa")]);
    let w = req.body_writer();
    {
        use soapgen_runtime::xml::Name;
        w.start_element(Name::new("urn:soapgen:swa", "EchoRef"))
            .unwrap();
        w.simple_element(Name::new("urn:soapgen:swa", "name"), "x")
            .unwrap();
        w.simple_element(Name::new("urn:soapgen:swa", "photo"), "cid:nothing@here")
            .unwrap();
        w.end_element().unwrap();
    }
    let e = c
        .client()
        .call(&op, req.finish().unwrap(), |r, _| {
            r.skip_element()?;
            Ok(())
        })
        .await
        .unwrap_err();
    let fault = e
        .fault()
        .unwrap_or_else(|| panic!("expected a fault, got {e}"));
    assert!(fault.to_string().contains("names no attachment"), "{fault}");
}
