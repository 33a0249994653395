//! Binary data against real peers, through the client generated from `tests/peers/gsoap/mtom/mtom.wsdl`:
//!
//! - gSOAP built with MTOM (`SOAP_ENC_MTOM`): attachments of 0 B, 1 B, 1 KiB, 1 MiB and 64 MiB received
//!   (GetData) and sent and echoed back (EchoData with the client's MTOM on), over SOAP 1.1 and 1.2,
//!   bytes compared exactly; the request really goes as MTOM (the `/auto` path answers MTOM only to
//!   MTOM requests, and the transport records both Content-Types).
//! - The same payloads inline as base64 from a server that breaks lines every 76 and every 73
//!   characters (CRLF and LF, 64 columns, irregular lines, `&#13;` references), compared exactly.

use std::sync::Arc;

use soapgen_runtime::types::Base64Binary;
use soapgen_runtime::{Client, SoapVersion};
use soapgen_tests::peers;
use soapgen_tests::recording::Recording;

/// The client generated at build time (`tests/build.rs`).
mod generated {
    soapgen_runtime::include_client!("mtom");
}

const SIZES: [usize; 5] = [0, 1, 1024, 1 << 20, 64 << 20];

fn client(url: String, mtom: bool) -> (Client, Arc<Recording>) {
    let recording = Arc::new(Recording::new());
    let mut b = Client::builder(url)
        .transport(recording.clone())
        .max_response_bytes(256 << 20);
    if mtom {
        b = b.mtom(0);
    }
    (b.build().unwrap(), recording)
}

#[tokio::test]
async fn gsoap_sends_attachments_of_every_size_over_both_versions() {
    let peer = peers::gsoap_mtom();
    for size in SIZES {
        let expected = peers::pattern_bytes(size);
        let (c, rec) = client(peer.url("/mtom"), false);
        let c11 = generated::MtomServiceClient::from_client(c.clone());
        let got = c11.get_data(size as i64, None).await.unwrap();
        assert!(got[..] == expected[..], "1.1, {size} bytes differ");
        assert!(
            rec.last_content_types().1.starts_with("multipart/related"),
            "{:?}",
            rec.last_content_types()
        );
        let c12 =
            generated::MtomServiceClient::from_client(c).with_soap_version(SoapVersion::Soap12);
        let got = c12
            .get_data(size as i64, Some("mod251".into()))
            .await
            .unwrap();
        assert!(got[..] == expected[..], "1.2, {size} bytes differ");
    }
}

#[tokio::test]
async fn gsoap_receives_mtom_attachments_and_echoes_them() {
    let peer = peers::gsoap_mtom();
    for size in SIZES {
        let data = Base64Binary::from(peers::pattern_bytes(size));
        // `/auto` answers with MTOM only when the request was MTOM.
        let (c, rec) = client(peer.url("/auto"), true);
        let c11 = generated::MtomServiceClient::from_client(c.clone());
        let r = c11
            .echo_data(format!("n{size}"), data.clone())
            .await
            .unwrap();
        assert_eq!(
            (r.name.as_str(), r.size),
            (format!("n{size}").as_str(), size as i64)
        );
        assert!(r.data == data, "1.1 echo of {size} bytes differs");
        let (req_ct, resp_ct) = rec.last_content_types();
        assert!(
            req_ct.starts_with("multipart/related") && req_ct.contains("application/xop+xml"),
            "{req_ct}"
        );
        assert!(resp_ct.starts_with("multipart/related"), "{resp_ct}");
        let c12 =
            generated::MtomServiceClient::from_client(c).with_soap_version(SoapVersion::Soap12);
        let r = c12.echo_data("v12".into(), data.clone()).await.unwrap();
        assert_eq!(r.size, size as i64);
        assert!(r.data == data, "1.2 echo of {size} bytes differs");
        let (req_ct, _) = rec.last_content_types();
        assert!(
            req_ct.contains("start-info=\"application/soap+xml"),
            "{req_ct}"
        );
    }
}

#[tokio::test]
async fn small_values_stay_inline_below_the_threshold() {
    let peer = peers::gsoap_mtom();
    let recording = Arc::new(Recording::new());
    let c = Client::builder(peer.url("/auto"))
        .transport(recording.clone())
        .mtom(4096)
        .build()
        .unwrap();
    let c11 = generated::MtomServiceClient::from_client(c);
    let small = Base64Binary::from(peers::pattern_bytes(4095));
    let r = c11.echo_data("small".into(), small.clone()).await.unwrap();
    assert!(r.data == small);
    let (req_ct, resp_ct) = recording.last_content_types();
    assert!(req_ct.starts_with("text/xml"), "{req_ct}");
    assert!(resp_ct.starts_with("text/xml"), "{resp_ct}");
    let big = Base64Binary::from(peers::pattern_bytes(4096));
    let r = c11.echo_data("big".into(), big.clone()).await.unwrap();
    assert!(r.data == big);
    assert!(recording
        .last_content_types()
        .0
        .starts_with("multipart/related"));
}

#[tokio::test]
async fn gsoap_inline_base64_is_read_too() {
    let peer = peers::gsoap_mtom();
    let (c, rec) = client(peer.url("/inline"), true);
    let c11 = generated::MtomServiceClient::from_client(c);
    for size in [0, 1, 1024, 1 << 20] {
        let data = Base64Binary::from(peers::pattern_bytes(size));
        let r = c11.echo_data("i".into(), data.clone()).await.unwrap();
        assert!(r.data == data, "{size}");
        assert!(rec.last_content_types().1.starts_with("text/xml"));
    }
}

#[tokio::test]
async fn line_broken_base64_of_every_shape_decodes_exactly() {
    let peer = peers::linebreak_server();
    for mode in [
        "none", "crlf76", "lf76", "crlf73", "lf64", "mixed", "crref76",
    ] {
        let (c, _) = client(peer.url(&format!("/{mode}")), false);
        let c11 = generated::MtomServiceClient::from_client(c.clone());
        let c12 =
            generated::MtomServiceClient::from_client(c).with_soap_version(SoapVersion::Soap12);
        for size in [0, 1, 2, 57, 1024, 1 << 20] {
            let expected = peers::pattern_bytes(size);
            let got = c11.get_data(size as i64, None).await.unwrap();
            assert!(got[..] == expected[..], "{mode}, 1.1, {size} bytes differ");
            let got = c12.get_data(size as i64, None).await.unwrap();
            assert!(got[..] == expected[..], "{mode}, 1.2, {size} bytes differ");
        }
    }
}

#[tokio::test]
async fn sixty_four_mib_inline_in_76_and_73_column_lines() {
    let peer = peers::linebreak_server();
    let expected = peers::pattern_bytes(64 << 20);
    for mode in ["crlf76", "crlf73"] {
        let (c, _) = client(peer.url(&format!("/{mode}")), false);
        let c11 = generated::MtomServiceClient::from_client(c);
        let got = c11.get_data(64 << 20, None).await.unwrap();
        assert!(got[..] == expected[..], "{mode}: 64 MiB differ");
    }
}
