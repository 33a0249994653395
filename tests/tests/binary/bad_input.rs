//! Broken MTOM/XOP and SwA responses over real HTTP on loopback: each is a clear, typed error or the
//! correct value, never a panic (the bad-input list).

use soapgen_runtime::error::DecodeErrorKind;
use soapgen_runtime::types::Base64Binary;
use soapgen_runtime::{soap_client, Error, FromXml, ToXml};
use soapgen_tests::canned::{http, serve, Behaviour};

#[derive(Debug, Clone, PartialEq, ToXml, FromXml)]
#[xml(namespace = "urn:m")]
pub struct Photo {
    pub name: String,
    pub data: Base64Binary,
    pub thumb: Option<Base64Binary>,
}

#[soap_client(namespace = "urn:m", soap = "1.1")]
pub trait Photos {
    #[soap(action = "urn:m#Get", result = "Photo")]
    async fn get(&self, id: String) -> Result<Photo, Error>;
}

const CT: &str = "multipart/related; charset=utf-8; boundary=\"==b/+x==\"; type=\"application/xop+xml\"; start=\"<root@m>\"; start-info=\"text/xml\"";

fn root(data: &str, thumb: &str) -> String {
    format!(
        "<s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:m=\"urn:m\" \
         xmlns:xop=\"http://www.w3.org/2004/08/xop/include\"><s:Body><m:getResponse><m:Photo>\
         <m:name>p</m:name><m:data>{data}</m:data>{thumb}</m:Photo></m:getResponse></s:Body></s:Envelope>"
    )
}

fn multipart(root: &str, parts: &[(&str, &str, &[u8])]) -> Vec<u8> {
    let mut out = format!(
        "--==b/+x==\r\nContent-Type: application/xop+xml; type=\"text/xml\"\r\nContent-ID: <root@m>\r\n\r\n{root}"
    )
    .into_bytes();
    for (id, extra, body) in parts {
        out.extend_from_slice(
            format!("\r\n--==b/+x==\r\nContent-ID: {id}\r\n{extra}\r\n").as_bytes(),
        );
        out.extend_from_slice(body);
    }
    out.extend_from_slice(b"\r\n--==b/+x==--\r\n");
    out
}

async fn call(content_type: &str, body: &[u8]) -> Result<Photo, Error> {
    let server = serve(Behaviour::Raw(http(200, content_type, body)));
    PhotosClient::new(server.url())?.get("1".into()).await
}

const INCLUDE_A: &str = "<xop:Include href=\"cid:a@m\"/>";

#[tokio::test]
async fn good_and_odd_but_valid_messages() {
    // Referenced twice; parts base64 and quoted-printable encoded; a percent-encoded cid.
    let r = root(
        INCLUDE_A,
        "<m:thumb><xop:Include href=\"cid:a@m\"/></m:thumb>",
    );
    let p = call(CT, &multipart(&r, &[("<a@m>", "", b"\x00\x01\x02")]))
        .await
        .unwrap();
    assert_eq!(
        (&p.data[..], p.thumb.as_deref()),
        (&b"\x00\x01\x02"[..], Some(&b"\x00\x01\x02"[..]))
    );
    let r = root(
        "<xop:Include href=\"cid:b64%40m\"/>",
        "<m:thumb><xop:Include href=\"cid:qp@m\"/></m:thumb>",
    );
    let body = multipart(
        &r,
        &[
            (
                "<b64@m>",
                "Content-Transfer-Encoding: base64\r\n",
                b"AAEC\r\n/w==",
            ),
            (
                "<qp@m>",
                "Content-Transfer-Encoding: quoted-printable\r\n",
                b"=00=FFa=\r\nb",
            ),
        ],
    );
    let p = call(CT, &body).await.unwrap();
    assert_eq!(&p.data[..], b"\x00\x01\x02\xff");
    assert_eq!(p.thumb.as_deref(), Some(&b"\x00\xffab"[..]));
}

#[tokio::test]
async fn an_include_naming_no_part() {
    let body = multipart(
        &root("<xop:Include href=\"cid:nope@m\"/>", ""),
        &[("<a@m>", "", b"x")],
    );
    let e = call(CT, &body).await.unwrap_err();
    match &e {
        Error::Decode(d) => {
            assert!(matches!(d.kind, DecodeErrorKind::Attachment(_)), "{e}");
            assert!(d.location.path.ends_with("Photo/data/Include"), "{e}");
        }
        other => panic!("{other}"),
    }
    assert!(e.to_string().contains("cid:nope@m"), "{e}");
}

#[tokio::test]
async fn missing_or_wrong_boundary_and_truncation() {
    let good = multipart(&root(INCLUDE_A, ""), &[("<a@m>", "", b"xyz")]);
    let e = call("multipart/related; type=\"application/xop+xml\"", &good)
        .await
        .unwrap_err();
    assert!(
        matches!(e, Error::Mime(_)) && e.to_string().contains("no boundary"),
        "{e}"
    );
    let e = call(&CT.replace("==b/+x==", "other"), &good)
        .await
        .unwrap_err();
    assert!(
        matches!(e, Error::Mime(_)) && e.to_string().contains("does not occur"),
        "{e}"
    );
    let e = call(CT, &good[..good.len() - 10]).await.unwrap_err();
    assert!(
        matches!(e, Error::Mime(_)) && e.to_string().contains("truncated"),
        "{e}"
    );
    let cut = good.len() / 2;
    let e = call(CT, &good[..cut]).await.unwrap_err();
    assert!(matches!(e, Error::Mime(_)), "{e}");
}

#[tokio::test]
async fn bad_encodings_inside_parts_and_inline() {
    let body = multipart(
        &root(INCLUDE_A, ""),
        &[("<a@m>", "Content-Transfer-Encoding: base64\r\n", b"AA*C")],
    );
    let e = call(CT, &body).await.unwrap_err();
    assert!(
        matches!(e, Error::Mime(_)) && e.to_string().contains("'*'"),
        "{e}"
    );
    // Inline base64 in a plain response: an invalid character, '=' in the middle.
    for (data, needle) in [
        ("QUJD*UJD", "invalid character '*' at offset 4"),
        ("QU=DQUJD", "padding '=' at offset 2"),
    ] {
        let xml = root(data, "");
        let e = call("text/xml", xml.as_bytes()).await.unwrap_err();
        assert!(
            e.to_string().contains(needle) && e.to_string().contains("Photo/data"),
            "{e}"
        );
    }
}
