//! The standard W3C and OASIS schemas that real WSDLs import by absolute URL, shipped inside
//! soapgen-build so that generation works offline.
//!
//! Each [`BundledSchema`] is the text of the published schema document, unedited (CRLF line ends
//! and UTF-8 byte-order marks kept as found), taken from the package or repository named in
//! `soapgen-build/schemas/SOURCES.tsv`; the one exception, [`SOAP12_ENVELOPE`], is restored from
//! copies that had edited one import (see there). [`bundled_by_url`] finds one by any of the URLs it
//! is imported from; [`bundled_by_namespace`] finds one for an `xs:import` that names only a
//! namespace. Every absolute `schemaLocation` inside a bundled schema resolves to another bundled
//! schema, and none has a relative one.
//!
//! [`XMLDSIG`] and [`XMLENC`] begin with an internal DTD subset, as published: parse them with
//! `roxmltree::ParsingOptions { allow_dtd: true, .. }`.
//!
//! Not bundled, for want of an unmodified copy: the OASIS WS-BaseNotification `b-2.xsd`,
//! WS-BaseFaults `bf-2.xsd` and WS-Resource `r-2.xsd` (every copy found had its imports rewritten
//! to relative paths) and WS-Security `oasis-200401-wss-wssecurity-secext-1.0.xsd` (every copy
//! found had its import block edited). A WSDL that needs them maps them in the user's catalog.

/// A standard schema (or WSDL 1.1) document bundled with soapgen-build.
#[derive(Debug)]
pub struct BundledSchema {
    /// The document's `targetNamespace`.
    pub namespace: &'static str,
    /// The absolute URLs the document is published at and imported from, the canonical one first.
    /// [`bundled_by_url`] matches these after normalising (see there).
    pub urls: &'static [&'static str],
    /// The file's name in `soapgen-build/schemas/`.
    pub file_name: &'static str,
    /// The document's text, exactly as the file holds it (a leading byte-order mark included).
    pub text: &'static str,
}

macro_rules! bundled {
    ($file:literal, $namespace:literal, [$($url:literal),+ $(,)?]) => {
        BundledSchema {
            namespace: $namespace,
            urls: &[$($url),+],
            file_name: $file,
            text: include_str!(concat!("../../schemas/", $file)),
        }
    };
}

/// The XML namespace schema (`xml:lang`, `xml:space`, `xml:base`, `xml:id`), the 2009/01 edition
/// that `http://www.w3.org/2001/xml.xsd` serves. Namespace from Namespaces in XML 1.0 (Third
/// Edition, W3C Recommendation 8 December 2009) §3; the attributes from XML 1.0 (Fifth Edition)
/// §2.10 and §2.12, XML Base (Second Edition) and xml:id Version 1.0 (W3C Recommendation
/// 9 September 2005).
pub const XML_NAMESPACE: BundledSchema = bundled!(
    "xml.xsd",
    "http://www.w3.org/XML/1998/namespace",
    [
        "http://www.w3.org/2001/xml.xsd",
        "http://www.w3.org/2009/01/xml.xsd"
    ]
);

/// The SOAP 1.1 envelope schema (`soapenv:Envelope`, `Header`, `Body`, `Fault`, the
/// `mustUnderstand`, `actor` and `encodingStyle` attributes): Simple Object Access Protocol (SOAP)
/// 1.1, W3C Note 08 May 2000, §4.
pub const SOAP11_ENVELOPE: BundledSchema = bundled!(
    "soap11-envelope.xsd",
    "http://schemas.xmlsoap.org/soap/envelope/",
    ["http://schemas.xmlsoap.org/soap/envelope/"]
);

/// The SOAP 1.1 encoding schema (`soapenc:Array`, `soapenc:arrayType`, the `soapenc:string`
/// family used by rpc/encoded WSDLs): Simple Object Access Protocol (SOAP) 1.1, W3C Note
/// 08 May 2000, §5.
pub const SOAP11_ENCODING: BundledSchema = bundled!(
    "soap11-encoding.xsd",
    "http://schemas.xmlsoap.org/soap/encoding/",
    ["http://schemas.xmlsoap.org/soap/encoding/"]
);

/// The SOAP 1.2 envelope schema: SOAP Version 1.2 Part 1: Messaging Framework (Second Edition),
/// W3C Recommendation 27 April 2007, §5. Imports [`XML_NAMESPACE`] (for `xml:lang` on fault
/// reasons).
///
/// The one bundled document that is restored rather than copied: every packaged copy found had its
/// `xml.xsd` import pointed at a local file; three independent copies give this same text once
/// that edit is undone (see `SOURCES.tsv`).
pub const SOAP12_ENVELOPE: BundledSchema = bundled!(
    "soap12-envelope.xsd",
    "http://www.w3.org/2003/05/soap-envelope",
    ["http://www.w3.org/2003/05/soap-envelope"]
);

/// The SOAP 1.2 encoding schema: SOAP Version 1.2 Part 2: Adjuncts (Second Edition), W3C
/// Recommendation 27 April 2007, §3 (SOAP Data Model encoding).
pub const SOAP12_ENCODING: BundledSchema = bundled!(
    "soap12-encoding.xsd",
    "http://www.w3.org/2003/05/soap-encoding",
    ["http://www.w3.org/2003/05/soap-encoding"]
);

/// The schema of WSDL 1.1 itself (the 2003-02-11 revision), which some WSDLs import for
/// `wsdl:arrayType`: Web Services Description Language (WSDL) 1.1, W3C Note 15 March 2001, §5 and
/// Appendix A.4.
pub const WSDL11: BundledSchema = bundled!(
    "wsdl11.xsd",
    "http://schemas.xmlsoap.org/wsdl/",
    [
        "http://schemas.xmlsoap.org/wsdl/",
        "http://schemas.xmlsoap.org/wsdl/2003-02-11.xsd",
    ]
);

/// The `xmime:contentType` / `xmime:expectedContentTypes` attributes and the `xmime:base64Binary`
/// type for MTOM: Describing Media Content of Binary Data in XML, W3C Working Group Note
/// 4 May 2005, §2–§4.
pub const XMLMIME: BundledSchema = bundled!(
    "xmlmime.xsd",
    "http://www.w3.org/2005/05/xmlmime",
    ["http://www.w3.org/2005/05/xmlmime"]
);

/// The `xop:Include` element: XML-binary Optimized Packaging, W3C Recommendation 25 January 2005,
/// §3.
pub const XOP_INCLUDE: BundledSchema = bundled!(
    "xop-include.xsd",
    "http://www.w3.org/2004/08/xop/include",
    ["http://www.w3.org/2004/08/xop/include"]
);

/// WS-Addressing 1.0 (`wsa:EndpointReference`, `wsa:Action`, `wsa:MessageID`, …): Web Services
/// Addressing 1.0 – Core and – SOAP Binding, W3C Recommendations 9 May 2006. Also published at
/// `http://www.w3.org/2006/03/addressing/ws-addr.xsd`.
pub const WS_ADDRESSING: BundledSchema = bundled!(
    "ws-addr.xsd",
    "http://www.w3.org/2005/08/addressing",
    [
        "http://www.w3.org/2005/08/addressing/ws-addr.xsd",
        "http://www.w3.org/2005/08/addressing/ws-addr",
        "http://www.w3.org/2006/03/addressing/ws-addr.xsd",
        "http://www.w3.org/2005/08/addressing",
    ]
);

/// The pre-standard WS-Addressing of August 2004 (used by WS-Discovery 2005/04, WS-Eventing and
/// ONVIF discovery): Web Services Addressing (WS-Addressing), W3C Member Submission
/// 10 August 2004.
pub const WS_ADDRESSING_200408: BundledSchema = bundled!(
    "ws-addressing-200408.xsd",
    "http://schemas.xmlsoap.org/ws/2004/08/addressing",
    ["http://schemas.xmlsoap.org/ws/2004/08/addressing"]
);

/// The WS-Security utility schema (`wsu:Id`, `wsu:Timestamp`, `wsu:Created`, `wsu:Expires`):
/// Web Services Security: SOAP Message Security 1.0 (WS-Security 2004), OASIS Standard 200401,
/// March 2004, §10.
pub const WSS_UTILITY: BundledSchema = bundled!(
    "oasis-200401-wss-wssecurity-utility-1.0.xsd",
    "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
    ["http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd"]
);

/// XML Signature (`ds:Signature`, `ds:KeyInfo`, …): XML-Signature Syntax and Processing, W3C
/// Recommendation 12 February 2002, §4 and Appendix (schema). Begins with an internal DTD subset.
pub const XMLDSIG: BundledSchema = bundled!(
    "xmldsig-core-schema.xsd",
    "http://www.w3.org/2000/09/xmldsig#",
    [
        "http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd",
        "http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd",
        "http://www.w3.org/2000/09/xmldsig#",
    ]
);

/// XML Encryption (`xenc:EncryptedData`, `xenc:EncryptedKey`, …): XML Encryption Syntax and
/// Processing, W3C Recommendation 10 December 2002, §3. Imports [`XMLDSIG`]. Begins with an
/// internal DTD subset.
pub const XMLENC: BundledSchema = bundled!(
    "xenc-schema.xsd",
    "http://www.w3.org/2001/04/xmlenc#",
    [
        "http://www.w3.org/TR/2002/REC-xmlenc-core-20021210/xenc-schema.xsd",
        "http://www.w3.org/TR/xmlenc-core/xenc-schema.xsd",
        "http://www.w3.org/2001/04/xmlenc#",
    ]
);

/// WS-Topics (`wstop:TopicSet`, `wstop:TopicNamespace`), imported by ONVIF's event service: Web
/// Services Topics 1.3 (WS-Topics), OASIS Standard 1 October 2006.
pub const WSN_TOPICS: BundledSchema = bundled!(
    "wsn-t-1.xsd",
    "http://docs.oasis-open.org/wsn/t-1",
    ["http://docs.oasis-open.org/wsn/t-1.xsd"]
);

/// WS-BaseNotification (`wsnt:Notify`, `wsnt:Subscribe`, `wsnt:NotificationMessage`, …), which
/// ONVIF's event service imports: Web Services Base Notification 1.3 (WS-BaseNotification), OASIS
/// Standard 1 October 2006, its schema. Imports [`WS_ADDRESSING`], [`WSRF_BASE_FAULTS`] and
/// [`WSN_TOPICS`].
pub const WSN_BASE_NOTIFICATION: BundledSchema = bundled!(
    "wsn-b-2.xsd",
    "http://docs.oasis-open.org/wsn/b-2",
    ["http://docs.oasis-open.org/wsn/b-2.xsd"]
);

/// WS-BaseNotification's WSDL (its portTypes: NotificationConsumer, NotificationProducer,
/// PullPoint, SubscriptionManager…), which ONVIF's event WSDL imports with `wsdl:import`: Web
/// Services Base Notification 1.3, OASIS Standard 1 October 2006. Imports [`WSRF_RESOURCE_WSDL`]
/// and [`WSN_BASE_NOTIFICATION`].
pub const WSN_BASE_NOTIFICATION_WSDL: BundledSchema = bundled!(
    "wsn-bw-2.wsdl",
    "http://docs.oasis-open.org/wsn/bw-2",
    ["http://docs.oasis-open.org/wsn/bw-2.wsdl"]
);

/// WS-BaseFaults (`wsrf-bf:BaseFault`): Web Services Base Faults 1.2 (WS-BaseFaults), OASIS
/// Standard 1 April 2006. Imports [`WS_ADDRESSING`] and [`XML_NAMESPACE`].
pub const WSRF_BASE_FAULTS: BundledSchema = bundled!(
    "wsrf-bf-2.xsd",
    "http://docs.oasis-open.org/wsrf/bf-2",
    ["http://docs.oasis-open.org/wsrf/bf-2.xsd"]
);

/// WS-Resource (`wsrf-r:ResourceUnknownFault`, `wsrf-r:ResourceUnavailableFault`): Web Services
/// Resource 1.2 (WS-Resource), OASIS Standard 1 April 2006, its schema. Imports
/// [`WSRF_BASE_FAULTS`].
pub const WSRF_RESOURCE: BundledSchema = bundled!(
    "wsrf-r-2.xsd",
    "http://docs.oasis-open.org/wsrf/r-2",
    ["http://docs.oasis-open.org/wsrf/r-2.xsd"]
);

/// WS-Resource's WSDL (its fault messages), imported by [`WSN_BASE_NOTIFICATION_WSDL`]: Web
/// Services Resource 1.2, OASIS Standard 1 April 2006. Imports [`WSRF_RESOURCE`].
pub const WSRF_RESOURCE_WSDL: BundledSchema = bundled!(
    "wsrf-rw-2.wsdl",
    "http://docs.oasis-open.org/wsrf/rw-2",
    ["http://docs.oasis-open.org/wsrf/rw-2.wsdl"]
);

/// The WS-I `swaRef` type (`wsi:swaRef`, a restriction of `xs:anyURI` holding a `cid:` URL that
/// names a MIME attachment): WS-I Attachments Profile 1.0, Final Material 2006-04-20, §4.4. The
/// copy Apache CXF ships (and resolves the URL to), which carries CXF's licence header comment above
/// the published schema; soapgen generates the type as the runtime's `types::SwaRef` whether this
/// document or an inline copy declares it.
pub const SWAREF: BundledSchema = bundled!(
    "swaref.xsd",
    "http://ws-i.org/profiles/basic/1.1/xsd",
    ["http://ws-i.org/profiles/basic/1.1/swaref.xsd"]
);

/// Every bundled schema; no two share a namespace or a (normalised) URL.
pub static BUNDLED: &[BundledSchema] = &[
    XML_NAMESPACE,
    SOAP11_ENVELOPE,
    SOAP11_ENCODING,
    SOAP12_ENVELOPE,
    SOAP12_ENCODING,
    WSDL11,
    XMLMIME,
    XOP_INCLUDE,
    SWAREF,
    WS_ADDRESSING,
    WS_ADDRESSING_200408,
    WSS_UTILITY,
    XMLDSIG,
    XMLENC,
    WSN_TOPICS,
    WSN_BASE_NOTIFICATION,
    WSN_BASE_NOTIFICATION_WSDL,
    WSRF_BASE_FAULTS,
    WSRF_RESOURCE,
    WSRF_RESOURCE_WSDL,
];

/// The bundled schema published at `url`, if any.
///
/// URLs are compared after normalising: `http` and `https` are the same, the scheme and host are
/// case-insensitive (a default port `:80`/`:443` is dropped), trailing `/` and `#` are ignored, and
/// the path is case-sensitive. So `https://www.w3.org/2003/05/soap-envelope/` finds
/// [`SOAP12_ENVELOPE`] and `http://schemas.xmlsoap.org/soap/encoding` finds [`SOAP11_ENCODING`].
/// Anything but an absolute `http`/`https` URL finds nothing.
pub fn bundled_by_url(url: &str) -> Option<&'static BundledSchema> {
    let key = normalize_url(url)?;
    BUNDLED.iter().find(|s| {
        s.urls
            .iter()
            .any(|u| normalize_url(u).as_deref() == Some(key.as_str()))
    })
}

/// The bundled schema whose `targetNamespace` is `ns`, for an `xs:import namespace="…"` without
/// a `schemaLocation` (leading and trailing whitespace ignored, as for any `xs:anyURI`).
pub fn bundled_by_namespace(ns: &str) -> Option<&'static BundledSchema> {
    let ns = ns.trim();
    BUNDLED.iter().find(|s| s.namespace == ns)
}

/// `host/path…` of an absolute http(s) URL: host lowercased and without a default port, trailing
/// `/` and `#` removed. `None` for anything else.
fn normalize_url(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (host, tail) = rest.split_at(host_end);
    let mut host = host.to_ascii_lowercase();
    for port in [":80", ":443"] {
        if let Some(len) = host.strip_suffix(port).map(str::len) {
            host.truncate(len);
        }
    }
    if host.is_empty() {
        return None;
    }
    let mut key = host;
    key.push_str(tail.trim_end_matches(['/', '#']));
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const XS: &str = "http://www.w3.org/2001/XMLSchema";

    fn parse(s: &BundledSchema) -> roxmltree::Document<'static> {
        let opts = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        };
        roxmltree::Document::parse_with_options(s.text, opts)
            .unwrap_or_else(|e| panic!("{} does not parse: {e}", s.file_name))
    }

    #[test]
    fn every_schema_parses_and_declares_its_namespace() {
        for s in BUNDLED {
            let doc = parse(s);
            let root = doc.root_element();
            // A schema, or a WSDL 1.1 document (WS-Notification's and WS-Resource's).
            let kind = (root.tag_name().namespace(), root.tag_name().name());
            assert!(
                kind == (Some(XS), "schema")
                    || kind == (Some("http://schemas.xmlsoap.org/wsdl/"), "definitions"),
                "{}: root is neither xs:schema nor wsdl:definitions",
                s.file_name
            );
            assert_eq!(
                root.attribute("targetNamespace"),
                Some(s.namespace),
                "{}",
                s.file_name
            );
        }
    }

    #[test]
    fn dtd_carrying_schemas_need_allow_dtd() {
        for s in [&XMLDSIG, &XMLENC] {
            assert!(
                roxmltree::Document::parse(s.text).is_err(),
                "{} parsed without allow_dtd",
                s.file_name
            );
        }
    }

    #[test]
    fn names_namespaces_and_urls_are_unique() {
        for (i, a) in BUNDLED.iter().enumerate() {
            assert!(!a.urls.is_empty(), "{} has no URL", a.file_name);
            for u in a.urls {
                assert!(
                    normalize_url(u).is_some(),
                    "{}: {u} is not an absolute http(s) URL",
                    a.file_name
                );
            }
            for b in &BUNDLED[i + 1..] {
                assert_ne!(a.file_name, b.file_name);
                assert_ne!(
                    a.namespace, b.namespace,
                    "{} and {}",
                    a.file_name, b.file_name
                );
                for u in a.urls {
                    for v in b.urls {
                        assert_ne!(
                            normalize_url(u),
                            normalize_url(v),
                            "{} and {} share {u}",
                            a.file_name,
                            b.file_name
                        );
                    }
                }
            }
        }
    }

    /// Spellings of `url` that must find the same schema.
    fn spellings(url: &str) -> Vec<String> {
        let swapped = match url.strip_prefix("http://") {
            Some(rest) => format!("https://{rest}"),
            None => format!("http://{}", url.strip_prefix("https://").unwrap()),
        };
        let bare = url.trim_end_matches(['/', '#']).to_owned();
        vec![
            url.to_owned(),
            swapped,
            format!("{bare}/"),
            bare.clone(),
            format!("  {bare}#\n"),
            bare.replacen("www.w3.org", "WWW.W3.ORG", 1)
                .replacen("http", "HTTP", 1),
        ]
    }

    #[test]
    fn every_url_spelling_finds_its_schema() {
        for s in BUNDLED {
            for url in s.urls {
                for spelling in spellings(url) {
                    let found = bundled_by_url(&spelling)
                        .unwrap_or_else(|| panic!("{spelling:?} not found"));
                    assert_eq!(found.file_name, s.file_name, "{spelling:?}");
                }
            }
            // The loader keys bundled documents by their first URL.
            assert_eq!(
                bundled_by_url(s.urls[0]).map(|b| b.file_name),
                Some(s.file_name)
            );
        }
    }

    #[test]
    fn corpus_spellings_are_found() {
        let cases = [
            ("http://www.w3.org/2001/xml.xsd", "xml.xsd"),
            ("http://www.w3.org/2009/01/xml.xsd", "xml.xsd"),
            ("http://schemas.xmlsoap.org/soap/envelope/", "soap11-envelope.xsd"),
            ("http://schemas.xmlsoap.org/soap/encoding/", "soap11-encoding.xsd"),
            ("http://schemas.xmlsoap.org/soap/encoding", "soap11-encoding.xsd"),
            ("https://www.w3.org/2003/05/soap-envelope", "soap12-envelope.xsd"),
            ("http://www.w3.org/2003/05/soap-encoding", "soap12-encoding.xsd"),
            ("http://schemas.xmlsoap.org/wsdl/", "wsdl11.xsd"),
            ("https://www.w3.org/2005/05/xmlmime", "xmlmime.xsd"),
            ("https://www.w3.org/2004/08/xop/include", "xop-include.xsd"),
            ("http://ws-i.org/profiles/basic/1.1/swaref.xsd", "swaref.xsd"),
            ("https://WS-I.org/profiles/basic/1.1/swaref.xsd", "swaref.xsd"),
            ("http://www.w3.org/2005/08/addressing/ws-addr.xsd", "ws-addr.xsd"),
            ("http://www.w3.org/2005/08/addressing/ws-addr", "ws-addr.xsd"),
            ("http://www.w3.org/2005/08/addressing", "ws-addr.xsd"),
            ("http://schemas.xmlsoap.org/ws/2004/08/addressing", "ws-addressing-200408.xsd"),
            (
                "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd",
                "oasis-200401-wss-wssecurity-utility-1.0.xsd",
            ),
            ("http://www.w3.org/2000/09/xmldsig#", "xmldsig-core-schema.xsd"),
            (
                "http://www.w3.org/TR/2002/REC-xmldsig-core-20020212/xmldsig-core-schema.xsd",
                "xmldsig-core-schema.xsd",
            ),
            ("http://www.w3.org/TR/xmldsig-core/xmldsig-core-schema.xsd", "xmldsig-core-schema.xsd"),
            ("http://www.w3.org/2001/04/xmlenc#", "xenc-schema.xsd"),
            ("http://docs.oasis-open.org/wsn/t-1.xsd", "wsn-t-1.xsd"),
            ("http://www.w3.org:80/2001/xml.xsd", "xml.xsd"),
            ("https://www.w3.org:443/2001/xml.xsd", "xml.xsd"),
        ];
        for (url, file) in cases {
            assert_eq!(
                bundled_by_url(url).map(|s| s.file_name),
                Some(file),
                "{url}"
            );
        }
    }

    #[test]
    fn other_urls_find_nothing() {
        for url in [
            "http://www.w3.org/2001/XML.xsd", // the path is case-sensitive
            "http://www.w3.org/2001/xml.xsd#lang",
            "http://www.w3.org/2001/xml.xsd?x",
            "http://www.w3.org:8080/2001/xml.xsd",
            "ftp://www.w3.org/2001/xml.xsd",
            "//www.w3.org/2001/xml.xsd",
            "xml.xsd",
            "urn:oasis:names:tc:SAML:2.0:assertion",
            "http://",
            "",
            "http://docs.oasis-open.org/wsn/b-2.xsd#x",
            "http://docs.oasis-open.org/wsrf/BF-2.xsd",
            "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd",
        ] {
            assert!(bundled_by_url(url).is_none(), "{url:?} found something");
        }
    }

    #[test]
    fn namespaces_find_their_schema() {
        for s in BUNDLED {
            assert_eq!(
                bundled_by_namespace(s.namespace).map(|b| b.file_name),
                Some(s.file_name)
            );
            assert_eq!(
                bundled_by_namespace(&format!(" {}\n", s.namespace)).map(|b| b.file_name),
                Some(s.file_name)
            );
        }
        // Namespace names are compared as strings: no slash or scheme folding.
        assert!(bundled_by_namespace("http://schemas.xmlsoap.org/soap/encoding").is_none());
        assert!(bundled_by_namespace("https://www.w3.org/2005/08/addressing").is_none());
        assert!(bundled_by_namespace("http://docs.oasis-open.org/wsn/b-2/").is_none());
        assert!(bundled_by_namespace("").is_none());
    }

    #[test]
    fn imports_inside_bundled_schemas_stay_inside_the_bundle() {
        let mut absolute = 0;
        for s in BUNDLED {
            let doc = parse(s);
            for node in doc.descendants().filter(|n| {
                n.is_element()
                    && n.tag_name().namespace() == Some(XS)
                    && matches!(
                        n.tag_name().name(),
                        "import" | "include" | "redefine" | "override"
                    )
            }) {
                let Some(location) = node.attribute("schemaLocation") else {
                    let ns = node.attribute("namespace").unwrap_or("");
                    assert!(
                        bundled_by_namespace(ns).is_some(),
                        "{}: namespace-only import of {ns:?}",
                        s.file_name
                    );
                    continue;
                };
                let target = bundled_by_url(location).unwrap_or_else(|| {
                    panic!(
                        "{}: schemaLocation {location:?} is not a bundled schema",
                        s.file_name
                    )
                });
                let expected = match node.tag_name().name() {
                    "import" => node.attribute("namespace").unwrap_or(""),
                    _ => s.namespace,
                };
                assert_eq!(target.namespace, expected, "{}: {location}", s.file_name);
                absolute += 1;
            }
        }
        // soap12-envelope imports xml.xsd, xenc imports xmldsig.
        assert!(absolute >= 2, "only {absolute} absolute imports checked");
    }

    #[test]
    fn sources_tsv_lists_every_bundled_schema() {
        let tsv = include_str!("../../schemas/SOURCES.tsv");
        let mut lines = tsv.lines();
        assert_eq!(
            lines.next(),
            Some("file\tnamespace\tcanonical_urls\torigin\tlicence")
        );
        let rows: Vec<Vec<&str>> = lines
            .filter(|l| !l.is_empty())
            .map(|l| l.split('\t').collect())
            .collect();
        assert_eq!(rows.len(), BUNDLED.len());
        for row in rows {
            assert_eq!(row.len(), 5, "{row:?}");
            let s = BUNDLED
                .iter()
                .find(|s| s.file_name == row[0])
                .unwrap_or_else(|| panic!("{} is in SOURCES.tsv but not bundled", row[0]));
            assert_eq!(s.namespace, row[1], "{}", row[0]);
            assert_eq!(s.urls, row[2].split(',').collect::<Vec<_>>(), "{}", row[0]);
            assert!(!row[3].is_empty() && !row[4].is_empty(), "{}", row[0]);
        }
    }
}
