//! SOAP with Attachments under WS-Security (WSS SwA Profile 1.1) against the CXF peer of
//! [`super`], on the ports of the corpus's `swa/DoubleItSwa.wsdl` (`DoubleIt3`: a number in the
//! Body, an `image/jpeg` MIME part beside it), with soapgen clients configured by hand:
//!
//! * `DoubleItSWASignatureContentPolicyPort` / `…CompletePolicyPort`: the attachment signed with
//!   the Attachment-Content / Attachment-Complete Signature Transform; a request whose attachment
//!   is changed on the way, or not signed, is refused by CXF.
//! * `DoubleItSWAEncryptionPolicyPort`: the attachment encrypted into its own part (its
//!   EncryptedData's CipherReference names it), both coverages; one sent in the clear is refused.
//! * `DoubleItSWACombinedAsymmetricPolicyPort`: signed, then encrypted, under an
//!   AsymmetricBinding.
//!
//! The peer answers only if the attachment it gets from CXF, verified and decrypted, starts with
//! the number and a space: the proof that the bytes arrived whole.

use std::sync::Arc;

use soapgen_runtime::mime::Attachment;
use soapgen_runtime::wss::{
    AttachmentCoverage, EncryptionOrder, KeyReference, SymmetricBinding, WssConfig,
};
use soapgen_runtime::{soap_client, Client, Error};
use soapgen_tests::recording::Recording;
use soapgen_tests::wss::cert;

use super::{asymmetric_basic128, basic128_encryptor, cxf};

/// The DoubleItSwaPortType of the corpus's `DoubleItLogical.wsdl`, bound with
/// `mime:multipartRelated`: `DoubleIt3` and its `attachment` part.
#[soap_client(
    namespace = "http://www.example.org/schema/DoubleIt",
    element_form = "unqualified"
)]
trait DoubleItSwa {
    #[soap(
        name = "DoubleIt3",
        action = "",
        response = "DoubleItResponse",
        result = "doubledNumber"
    )]
    async fn double_it3(
        &self,
        #[soap(rename = "numberToDouble")] number: i32,
        #[soap(attachment = "attachment", content_type = "image/jpeg")] attachment: Attachment,
    ) -> Result<i32, Error>;
}

/// The text every attachment of these tests carries after the number: ASCII, so that a
/// man-in-the-middle rewrite of the request as text keeps every other byte.
const TEXT: &str = "is the number, and this is the photo";

fn swa_port(port: &str) -> String {
    cxf().url(&format!("/DoubleItSwa/{port}"))
}

/// The corpus's `DoubleItSymmetricPolicy`: Basic128, the service's certificate by thumbprint
/// (`sp:RequireThumbprintReference`, never sent), a Timestamp, the Body signed.
fn symmetric(body_encrypted: bool) -> SymmetricBinding {
    SymmetricBinding::new(cert("server.pem"))
        .key_reference(KeyReference::ThumbprintSha1)
        .expect("a thumbprint")
        .encrypt_body(body_encrypted)
}

fn configured(binding: SymmetricBinding) -> WssConfig {
    WssConfig::new()
        .timestamp(std::time::Duration::from_secs(300))
        .symmetric(binding)
}

/// `DoubleIt3(number)` with an attachment `"{number} {TEXT}"` through `recording`.
async fn double_it3(
    url: &str,
    wss: WssConfig,
    number: i32,
    recording: Arc<Recording>,
) -> Result<i32, Error> {
    let photo = format!("{number} {TEXT}");
    call(url, Some(wss), number, &photo, recording).await
}

/// `DoubleIt3(number)` with the attachment `photo`, secured by `wss` if given.
async fn call(
    url: &str,
    wss: Option<WssConfig>,
    number: i32,
    photo: &str,
    recording: Arc<Recording>,
) -> Result<i32, Error> {
    let mut builder = Client::builder(url).transport(recording);
    if let Some(wss) = wss {
        builder = builder.wss(wss);
    }
    let photo = Attachment::new("image/jpeg", photo.as_bytes().to_vec());
    DoubleItSwaClient::from_client(builder.build().expect("client"))
        .double_it3(number, photo)
        .await
}

async fn doubled(url: &str, wss: WssConfig, number: i32) -> (i32, String) {
    let rec = Arc::new(Recording::new());
    match double_it3(url, wss, number, rec.clone()).await {
        Ok(v) => (v, rec.last_request()),
        Err(e) => panic!(
            "{url}: {e}\n{}\n--- CXF ---\n{}",
            rec.last_request(),
            cxf().stderr_output()
        ),
    }
}

async fn refused(url: &str, wss: WssConfig, recording: Recording) -> String {
    let rec = Arc::new(recording);
    match double_it3(url, wss, 5, rec.clone()).await {
        Ok(v) => panic!(
            "{url}: CXF accepted the request ({v})\n{}",
            rec.last_request()
        ),
        Err(e) => match e.fault() {
            Some(f) => f.reason.clone(),
            None => panic!("{url}: not a fault: {e}\n{}", rec.last_request()),
        },
    }
}

#[tokio::test]
async fn signed_attachments_reach_cxf_and_a_changed_one_is_refused() {
    for (port, coverage, transform) in [
        (
            "DoubleItSWASignatureContentPolicyPort",
            AttachmentCoverage::Content,
            "#Attachment-Content-Signature-Transform",
        ),
        (
            "DoubleItSWASignatureCompletePolicyPort",
            AttachmentCoverage::Complete,
            "#Attachment-Complete-Signature-Transform",
        ),
    ] {
        let url = swa_port(port);
        let wss = || configured(symmetric(false).sign_attachments(coverage));
        let (value, request) = doubled(&url, wss(), 21).await;
        assert_eq!(value, 42);
        assert!(
            request.contains(transform) && request.contains("URI=\"cid:attachment="),
            "{request}"
        );
        assert!(request.contains(&format!("21 {TEXT}")), "{request}");

        // Changed on the way after it was signed: CXF's digest of it no longer matches.
        let changed = refused(
            &url,
            wss(),
            Recording::rewriting(|r| r.replace(TEXT, &TEXT.to_uppercase())),
        )
        .await;
        assert!(
            changed.contains("The signature or decryption was invalid"),
            "{port}: {changed}"
        );
        // Not signed at all: CXF holds the request to its sp:SignedParts/sp:Attachments.
        let unsigned = refused(&url, configured(symmetric(false)), Recording::new()).await;
        assert!(unsigned.contains("SignedParts"), "{port}: {unsigned}");
    }
}

#[tokio::test]
async fn the_peer_checks_the_attachment_it_gets() {
    // A port without a policy (CXF's own test secures it with WSS4J actions configured
    // elsewhere): what the peer gets is what was sent.
    let url = swa_port("DoubleItSWASignatureContentActionPort");
    let rec = || Arc::new(Recording::new());
    let ok = call(&url, None, 5, &format!("5 {TEXT}"), rec()).await;
    assert_eq!(ok.unwrap_or_else(|e| panic!("{e}")), 10);
    let e = call(&url, None, 5, &format!("6 {TEXT}"), rec())
        .await
        .unwrap_err();
    let reason = e.fault().map(|f| f.reason.clone()).unwrap_or_default();
    assert!(reason.contains("no attachment starts with \"5 \""), "{e}");
}

#[tokio::test]
async fn encrypted_attachments_reach_cxf_and_a_clear_one_is_refused() {
    let url = swa_port("DoubleItSWAEncryptionPolicyPort");
    for (coverage, kind) in [
        (AttachmentCoverage::Complete, "#Attachment-Complete\""),
        (AttachmentCoverage::Content, "#Attachment-Content-Only\""),
    ] {
        // The port's policy signs nothing but the Timestamp: the responses' Body is not signed.
        let wss =
            configured(symmetric(true).encrypt_attachments(coverage)).require_signature(false);
        let (value, request) = doubled(&url, wss, 21).await;
        assert_eq!(value, 42);
        assert!(
            request.contains(kind)
                && request.contains("<xenc:CipherReference URI=\"cid:attachment=")
                && request.contains("MimeType=\"image/jpeg\""),
            "{request}"
        );
        // The part travels as ciphertext.
        assert!(!request.contains(TEXT), "{request}");
        assert!(
            request.contains("Content-Type: application/octet-stream"),
            "{request}"
        );
    }
    // The Body encrypted, the attachment not: soapgen does not send it.
    let rec = Arc::new(Recording::new());
    let e = double_it3(&url, configured(symmetric(true)), 5, rec.clone())
        .await
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("attachments would travel in the clear"),
        "{e}"
    );
    assert!(rec.exchanges().is_empty());
}

#[tokio::test]
async fn asymmetric_sign_then_encrypt_covers_the_attachment() {
    // The corpus's DoubleItAsymmetricPolicy: Basic128, the client's certificate sent, the
    // service's by IssuerSerial... as the X.509 tests configure it, plus the attachments.
    let url = swa_port("DoubleItSWACombinedAsymmetricPolicyPort");
    let base = asymmetric_basic128(
        KeyReference::X509IssuerSerial,
        EncryptionOrder::SignThenEncrypt,
    );
    let signer = base
        .signer()
        .cloned()
        .expect("a signer")
        .sign_attachments(AttachmentCoverage::Complete);
    let enc = basic128_encryptor(
        KeyReference::X509IssuerSerial,
        EncryptionOrder::SignThenEncrypt,
    )
    .encrypt_attachments(AttachmentCoverage::Complete);
    let wss = base.sign(signer).encrypt(enc);
    let (value, request) = doubled(&url, wss, 21).await;
    assert_eq!(value, 42);
    assert!(!request.contains(TEXT), "{request}");
    assert!(
        request.contains("#Attachment-Complete-Signature-Transform"),
        "{request}"
    );
}
