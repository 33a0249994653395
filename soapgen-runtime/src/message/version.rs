//! The SOAP version of a binding and the envelope namespaces that tell the versions apart.

/// The SOAP envelope namespace of SOAP 1.1 (§4.1.2).
pub const SOAP11_ENV_NS: &str = "http://schemas.xmlsoap.org/soap/envelope/";
/// The SOAP envelope namespace of SOAP 1.2 (Part 1 §5.1).
pub const SOAP12_ENV_NS: &str = "http://www.w3.org/2003/05/soap-envelope";

/// The SOAP version of a binding: decides the envelope namespace, the Content-Type and how the action is
/// sent (WSDL 1.1 §3 `soap:binding`, and the SOAP 1.2 binding of WSDL 1.1 extensions).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SoapVersion {
    /// SOAP 1.1: `text/xml; charset=utf-8` with a quoted `SOAPAction` header (SOAP 1.1 §6.1.1).
    Soap11,
    /// SOAP 1.2: `application/soap+xml; charset=utf-8; action="…"` (SOAP 1.2 Part 2 §7.1.4, RFC 3902).
    Soap12,
}

impl SoapVersion {
    /// The envelope namespace URI.
    pub const fn envelope_namespace(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => SOAP11_ENV_NS,
            SoapVersion::Soap12 => SOAP12_ENV_NS,
        }
    }

    /// The version whose envelope namespace is `ns`.
    pub fn from_envelope_namespace(ns: &[u8]) -> Option<SoapVersion> {
        match ns {
            b"http://schemas.xmlsoap.org/soap/envelope/" => Some(SoapVersion::Soap11),
            b"http://www.w3.org/2003/05/soap-envelope" => Some(SoapVersion::Soap12),
            _ => None,
        }
    }

    /// The HTTP headers that carry the content type and the action for this version:
    /// `(Content-Type, Some(SOAPAction))` for 1.1, `(Content-Type with action parameter, None)` for 1.2.
    pub fn http_headers(self, action: &str) -> (String, Option<String>) {
        match self {
            SoapVersion::Soap11 => (
                "text/xml; charset=utf-8".to_owned(),
                Some(format!("\"{}\"", action.replace('"', "%22"))),
            ),
            SoapVersion::Soap12 => {
                if action.is_empty() {
                    ("application/soap+xml; charset=utf-8".to_owned(), None)
                } else {
                    (
                        format!(
                            "application/soap+xml; charset=utf-8; action=\"{}\"",
                            action.replace('"', "%22")
                        ),
                        None,
                    )
                }
            }
        }
    }

    /// The media types a client of this version accepts in a response (its envelope's, and
    /// `multipart/related` for MTOM and SwA).
    pub const fn accept(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "text/xml, multipart/related",
            SoapVersion::Soap12 => "application/soap+xml, multipart/related",
        }
    }

    /// The value of `mustUnderstand` that means true in this version: `1` (SOAP 1.1 §4.2.3),
    /// `true` (SOAP 1.2 Part 1 §5.2.3).
    pub const fn must_understand_true(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "1",
            SoapVersion::Soap12 => "true",
        }
    }

    /// The local name of the attribute that targets a header block: `actor` (SOAP 1.1 §4.2.2),
    /// `role` (SOAP 1.2 Part 1 §5.2.2).
    pub const fn role_attribute(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "actor",
            SoapVersion::Soap12 => "role",
        }
    }

    /// The prefix requests bind the envelope namespace to.
    pub(crate) const fn prefix(self) -> &'static str {
        match self {
            SoapVersion::Soap11 => "soapenv",
            SoapVersion::Soap12 => "soap",
        }
    }
}

impl std::fmt::Display for SoapVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SoapVersion::Soap11 => "SOAP 1.1",
            SoapVersion::Soap12 => "SOAP 1.2",
        })
    }
}
