//! SOAP Messages with Attachments under WS-Security (WSS SwA Profile 1.1): the References a
//! signature makes to attachments (§5.3, with the Attachment-Content and Attachment-Complete
//! Signature Transforms, §5.4) and attachments encrypted into their own MIME parts, each described
//! by an `xenc:EncryptedData` in the Security header whose `xenc:CipherReference` names the part
//! (§5.5).

/// The Attachment-Content-Signature-Transform (SwA Profile 1.1 §5.4.1).
pub const CONTENT_SIGNATURE_TRANSFORM: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Signature-Transform";
/// The Attachment-Complete-Signature-Transform (SwA Profile 1.1 §5.4.2).
pub const COMPLETE_SIGNATURE_TRANSFORM: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Complete-Signature-Transform";
/// The Attachment-Ciphertext-Transform of a `xenc:CipherReference` (SwA Profile 1.1 §5.5.2).
pub const CIPHERTEXT_TRANSFORM: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Ciphertext-Transform";
/// `xenc:EncryptedData/@Type` of an attachment whose content alone is encrypted (SwA Profile 1.1
/// §5.5.1).
pub const CONTENT_ONLY: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Content-Only";
/// `xenc:EncryptedData/@Type` of an attachment encrypted with its MIME headers (SwA Profile 1.1
/// §5.5.1).
pub const COMPLETE: &str =
    "http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Complete";

/// What of a SOAP-with-Attachments attachment a signature covers or encryption hides (WSS SwA
/// Profile 1.1 §5.4, §5.5).
///
/// Applies to SwA attachments (parts bound by a WSDL's `mime:multipartRelated`, or `swaRef`
/// values); a request with MTOM attachments and attachment protection is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AttachmentCoverage {
    /// The content alone: the Attachment-Content-Signature-Transform (§5.4.1) when signing (WS-SP
    /// 1.3 `sp13:ContentSignatureTransform`), `Attachment-Content-Only` when encrypting (§5.5.1).
    Content,
    /// The MIME headers (Content-Description, Content-Disposition, Content-ID, Content-Location,
    /// Content-Type) and the content: the Attachment-Complete-Signature-Transform (§5.4.2) when
    /// signing, `Attachment-Complete` when encrypting. The default of WS-SecurityPolicy's
    /// `sp:Attachments` (SP 1.3 §4.1.1), and CXF's.
    #[default]
    Complete,
}

impl AttachmentCoverage {
    /// The signature Transform of this coverage.
    pub const fn signature_transform(self) -> &'static str {
        match self {
            AttachmentCoverage::Content => CONTENT_SIGNATURE_TRANSFORM,
            AttachmentCoverage::Complete => COMPLETE_SIGNATURE_TRANSFORM,
        }
    }

    /// The `xenc:EncryptedData/@Type` of this coverage.
    pub const fn encrypted_data_type(self) -> &'static str {
        match self {
            AttachmentCoverage::Content => CONTENT_ONLY,
            AttachmentCoverage::Complete => COMPLETE,
        }
    }
}
