//! SOAP header blocks both ways: typed blocks added to requests (per client and per call, one
//! block per element: a later setting replaces the client's), the response's blocks returned
//! with the result, and `mustUnderstand` enforced on responses (SOAP 1.1 §4.2, SOAP 1.2 Part 1
//! §5.2).
//!
//! A response header block that is targeted at the client (no `actor`/`role`, or SOAP 1.1's
//! `…/actor/next`, SOAP 1.2's `…/role/next` or `…/role/ultimateReceiver`) and carries
//! `mustUnderstand="1"` (or `"true"`) must be understood, or the call fails with
//! [`HeaderErrorKind::MustUnderstand`] naming it (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3). The
//! client understands the WS-Addressing headers of the version it addresses in, `wsse:Security`
//! when WS-Security is configured, and every block named with
//! [`ClientBuilder::understood_header`](crate::ClientBuilder::understood_header): the caller's
//! promise to process it, from [`Response::headers`] of
//! [`Call::with_response`](crate::Call::with_response).
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "reqwest")] {
//! use soapgen_runtime::header::HeaderBlock;
//! use soapgen_runtime::xml::Name;
//! let tenant = HeaderBlock::new("acme", Name::new("urn:example:ctx", "Tenant"))?
//!     .must_understand(true);
//! let client = soapgen_runtime::Client::builder("http://127.0.0.1:8080/svc")
//!     .soap_header(tenant)
//!     .understood_header("urn:example:ctx", "Session")
//!     .build()?;
//! # }
//! # Ok::<(), soapgen_runtime::Error>(())
//! ```

use crate::addressing::AddressingVersion;
use crate::error::{DecodeError, EncodeError};
use crate::message::SoapVersion;
use crate::types::AnyElement;
use crate::xml::{FromXml, Name, ToXml, XmlWriter};

/// SOAP 1.1's "next" actor (§4.2.2): the block is for whoever receives the message.
pub const SOAP11_ACTOR_NEXT: &str = "http://schemas.xmlsoap.org/soap/actor/next";
/// SOAP 1.2's "next" role (Part 1 §5.2.2).
pub const SOAP12_ROLE_NEXT: &str = "http://www.w3.org/2003/05/soap-envelope/role/next";
/// SOAP 1.2's "ultimateReceiver" role (Part 1 §5.2.2), what an absent `role` means.
pub const SOAP12_ROLE_ULTIMATE_RECEIVER: &str =
    "http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver";
/// SOAP 1.2's "none" role (Part 1 §5.2.2): a block no node processes.
pub const SOAP12_ROLE_NONE: &str = "http://www.w3.org/2003/05/soap-envelope/role/none";

/// A header block to send: any [`ToXml`] value as an element, with `mustUnderstand` and the
/// `actor` (SOAP 1.1 §4.2.2) or `role` (SOAP 1.2 Part 1 §5.2.2) it targets, written in the
/// request's SOAP version. Encoded once, when made; cheap to clone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderBlock {
    namespace: String,
    local_name: String,
    element: AnyElement,
    must_understand: bool,
    role: Option<String>,
}

impl HeaderBlock {
    /// `value` written as the element `name` (SOAP 1.1 §4.2.1: a header block is a namespace
    /// qualified element), not `mustUnderstand`, for the ultimate receiver.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from `value`'s writer, or if `name` has no namespace (SOAP 1.1 §4.2.1,
    /// SOAP 1.2 Part 1 §5.2.1 require one).
    pub fn new<T: ToXml + ?Sized>(value: &T, name: Name<'_>) -> Result<Self, EncodeError> {
        if name.namespace.is_empty() {
            return Err(EncodeError::invalid_value(
                "SOAP header block",
                &format!(
                    "{:?} has no namespace (SOAP 1.1 §4.2.1: header blocks are qualified)",
                    name.local
                ),
            ));
        }
        Ok(HeaderBlock {
            namespace: name.namespace.to_owned(),
            local_name: name.local.to_owned(),
            element: AnyElement::encode(value, name)?,
            must_understand: false,
            role: None,
        })
    }

    /// `value` written as the block of the declared header `header` (WSDL 1.1 §3.7
    /// `soap:header`): its element name, not `mustUnderstand`, for the ultimate receiver.
    ///
    /// # Errors
    ///
    /// As [`new`](Self::new); the message names the header.
    pub fn declared<T: ToXml>(header: DeclaredHeader<T>, value: &T) -> Result<Self, EncodeError> {
        Self::new(value, header.name()).map_err(|e| EncodeError {
            message: format!("header {}: {}", header.name(), e.message),
        })
    }

    /// Sets `mustUnderstand` (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3): the receiver must
    /// process the block or fault.
    pub fn must_understand(mut self, on: bool) -> Self {
        self.must_understand = on;
        self
    }

    /// Targets the block at `uri`: the `actor` attribute in SOAP 1.1 (§4.2.2), `role` in SOAP 1.2
    /// (Part 1 §5.2.2), such as [`SOAP11_ACTOR_NEXT`] or [`SOAP12_ROLE_NEXT`].
    pub fn role(mut self, uri: impl Into<String>) -> Self {
        self.role = Some(uri.into());
        self
    }

    /// The block's element name: (namespace, local name).
    pub fn name(&self) -> (&str, &str) {
        (&self.namespace, &self.local_name)
    }

    /// Writes the block into the open `Header` of `w`, an envelope of `version`.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from the writer.
    pub fn write(&self, w: &mut XmlWriter, version: SoapVersion) -> Result<(), EncodeError> {
        let xml = self.element.xml.as_str();
        if !self.must_understand && self.role.is_none() {
            return w.raw(xml);
        }
        // The attributes go on the block's start tag, after its name.
        let name_end = xml
            .char_indices()
            .skip(1)
            .find(|(_, c)| c.is_ascii_whitespace() || *c == '>' || *c == '/')
            .map_or(xml.len(), |(i, _)| i);
        let tag_end = xml.find('>').unwrap_or(xml.len());
        let env = version.envelope_namespace();
        let mut prefix = w.prefix_for(env)?;
        let mut attrs = String::new();
        if xml[..tag_end].contains(&format!("xmlns:{prefix}=")) {
            // The block binds the envelope's prefix to something else: bind one of its own.
            prefix = "sgenv".to_owned();
            attrs.push_str(&format!(" xmlns:sgenv=\"{env}\""));
        }
        if self.must_understand {
            let one = version.must_understand_true();
            attrs.push_str(&format!(" {prefix}:mustUnderstand=\"{one}\""));
        }
        if let Some(role) = &self.role {
            let name = version.role_attribute();
            let esc = role
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('"', "&quot;");
            attrs.push_str(&format!(" {prefix}:{name}=\"{esc}\""));
        }
        let mut out = String::with_capacity(xml.len() + attrs.len());
        out.push_str(&xml[..name_end]);
        out.push_str(&attrs);
        out.push_str(&xml[name_end..]);
        w.raw(&out)
    }
}

/// `blocks` added to `to`, each replacing the blocks of its element name already in `to` (the
/// blocks of one `blocks` are all kept, in order).
pub(crate) fn replace_blocks(to: &mut Vec<HeaderBlock>, blocks: Vec<HeaderBlock>) {
    to.retain(|old| !blocks.iter().any(|b| b.name() == old.name()));
    to.extend(blocks);
}

/// One header block of a response, kept as XML with what SOAP says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHeader {
    /// The block's namespace.
    pub namespace: String,
    /// The block's local name.
    pub local_name: String,
    /// Its `mustUnderstand` (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3).
    pub must_understand: bool,
    /// Its `actor` (SOAP 1.1) or `role` (SOAP 1.2), if any.
    pub role: Option<String>,
    /// The block, self-contained (the namespace bindings it uses declared on it).
    pub element: AnyElement,
}

/// The header blocks of a response, in document order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResponseHeaders {
    blocks: Vec<ResponseHeader>,
}

impl ResponseHeaders {
    /// Every block, in document order.
    pub fn iter(&self) -> std::slice::Iter<'_, ResponseHeader> {
        self.blocks.iter()
    }

    /// How many blocks there are.
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The first block named `name`.
    pub fn find(&self, name: Name<'_>) -> Option<&ResponseHeader> {
        self.blocks
            .iter()
            .find(|b| b.namespace == name.namespace && b.local_name == name.local)
    }

    /// The first block named `name` decoded as `T` (a header the WSDL declares, read typed);
    /// `None` when there is no such block.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if the block does not match `T`.
    pub fn get<T: FromXml>(&self, name: Name<'_>) -> Result<Option<T>, DecodeError> {
        self.find(name).map(|b| b.element.decode()).transpose()
    }

    /// The first block of the declared header `header` decoded as its type `T`; `None` when
    /// the response has no such block (a declared header may be absent: WSDL 1.1 §3.7 does not
    /// make it required).
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if the block does not match `T`, its element path starting at `Header`
    /// (`Header/Session/expires`).
    pub fn typed<T: FromXml>(&self, header: &DeclaredHeader<T>) -> Result<Option<T>, DecodeError> {
        self.get(header.name).map_err(|mut e| {
            e.location.path = if e.location.path.is_empty() {
                "Header".to_owned()
            } else {
                format!("Header/{}", e.location.path)
            };
            e
        })
    }
}

/// A header block a service description declares for an operation's request or response
/// (WSDL 1.1 §3.7 `soap:header` in a binding operation's `input` or `output`, WSDL 2.0 Part 2
/// §5.8 `wsoap:header`): its element's qualified name and, as `T`, the Rust type of that
/// element. Generated clients carry one associated constant per declared header
/// (`EchoClient::SESSION_HEADER`): send it with
/// [`Client::with_header`](crate::Client::with_header), read it from a [`Response`] with
/// [`Response::header`]. A `const`: naming it costs nothing.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::header::DeclaredHeader;
/// const SESSION: DeclaredHeader<String> = DeclaredHeader::new("urn:example:ctx", "Session");
/// assert_eq!(SESSION.name().local, "Session");
/// ```
pub struct DeclaredHeader<T> {
    name: Name<'static>,
    // `fn() -> T`: the header names a type, it holds none (Send, Sync, Copy whatever `T`).
    ty: std::marker::PhantomData<fn() -> T>,
}

impl<T> DeclaredHeader<T> {
    /// The header whose element is `{namespace}local`, read as `T`.
    pub const fn new(namespace: &'static str, local: &'static str) -> Self {
        DeclaredHeader {
            name: Name::new(namespace, local),
            ty: std::marker::PhantomData,
        }
    }

    /// The header's element name.
    pub const fn name(&self) -> Name<'static> {
        self.name
    }
}

impl<T> Clone for DeclaredHeader<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for DeclaredHeader<T> {}

impl<T> std::fmt::Debug for DeclaredHeader<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "DeclaredHeader({{{}}}{}: {})",
            self.name.namespace,
            self.name.local,
            std::any::type_name::<T>()
        )
    }
}

impl From<Vec<ResponseHeader>> for ResponseHeaders {
    fn from(blocks: Vec<ResponseHeader>) -> Self {
        ResponseHeaders { blocks }
    }
}

impl<'a> IntoIterator for &'a ResponseHeaders {
    type Item = &'a ResponseHeader;
    type IntoIter = std::slice::Iter<'a, ResponseHeader>;
    fn into_iter(self) -> Self::IntoIter {
        self.blocks.iter()
    }
}

/// A call's typed result with what came with it: the response's SOAP header blocks, its HTTP
/// status and header fields. What [`Call::with_response`](crate::Call::with_response) yields.
#[derive(Debug, Clone)]
pub struct Response<T> {
    /// The operation's result.
    pub value: T,
    /// The response's SOAP header blocks (every one, understood or not).
    pub headers: ResponseHeaders,
    /// The HTTP status (2xx).
    pub status: u16,
    /// The HTTP header fields, names in lowercase, in order.
    pub http_headers: Vec<(String, String)>,
}

impl<T> Response<T> {
    /// The response's block of the declared header `header` (WSDL 1.1 §3.7 `soap:header` of the
    /// operation's output), decoded as its type; `None` when the response does not carry it.
    /// The other blocks are in [`headers`](Self::headers), as XML.
    ///
    /// # Errors
    ///
    /// As [`ResponseHeaders::typed`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run(call: soapgen_runtime::Call<i32>) -> Result<(), soapgen_runtime::Error> {
    /// use soapgen_runtime::header::DeclaredHeader;
    /// const SESSION: DeclaredHeader<String> = DeclaredHeader::new("urn:example:ctx", "Session");
    /// let resp = call.with_response().await?;
    /// let session: Option<String> = resp.header(&SESSION)?;
    /// # Ok(()) }
    /// ```
    pub fn header<H: FromXml>(&self, header: &DeclaredHeader<H>) -> Result<Option<H>, DecodeError> {
        self.headers.typed(header)
    }

    /// The first HTTP header field named `name` (case-insensitive).
    pub fn http_header(&self, name: &str) -> Option<&str> {
        self.http_headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A response whose SOAP headers break the rules of the client's call.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct HeaderError {
    /// What is wrong.
    pub kind: HeaderErrorKind,
}

/// What is wrong with a response's SOAP headers.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum HeaderErrorKind {
    /// A header block targeted at the client with `mustUnderstand` that it does not process
    /// (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3): name it with
    /// [`ClientBuilder::understood_header`](crate::ClientBuilder::understood_header) if the
    /// caller processes it.
    MustUnderstand {
        /// The block's namespace.
        namespace: String,
        /// The block's local name.
        local_name: String,
        /// Its `actor`/`role`, if any.
        role: Option<String>,
    },
    /// An addressed call's reply whose `wsa:RelatesTo` (reply relationship) is not the request's
    /// `wsa:MessageID` (WS-Addressing 1.0 Core §3.4), or is missing.
    RelatesTo {
        /// The request's MessageID.
        expected: String,
        /// What the reply said (`None`: no `wsa:RelatesTo` of the reply relationship).
        found: Option<String>,
        /// The addressing version of the call.
        version: AddressingVersion,
    },
    /// An addressed call's reply whose `wsa:Action` is not the operation's output action
    /// (WS-Addressing 1.0 Core §3.2 `[action]`; the action the WSDL gives the output, Metadata
    /// §4.4), or is missing. Switch the check off with
    /// [`Addressing::check_reply_action`](crate::addressing::Addressing::check_reply_action).
    Action {
        /// The output action the description gives.
        expected: String,
        /// What the reply said (`None`: no `wsa:Action`).
        found: Option<String>,
        /// The addressing version of the call.
        version: AddressingVersion,
    },
}

impl std::fmt::Display for HeaderErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HeaderErrorKind::MustUnderstand {
                namespace,
                local_name,
                role,
            } => {
                write!(
                    f,
                    "the response's header block {{{namespace}}}{local_name} is mustUnderstand \
                     and the client does not process it"
                )?;
                if let Some(r) = role {
                    write!(f, " (role {r})")?;
                }
                write!(
                    f,
                    " (SOAP 1.1 §4.2.3, SOAP 1.2 Part 1 §5.2.3); if the caller processes it, \
                     name it with ClientBuilder::understood_header"
                )
            }
            HeaderErrorKind::RelatesTo {
                expected,
                found,
                version,
            } => match found {
                Some(found) => write!(
                    f,
                    "the reply's wsa:RelatesTo is {found:?}, not the request's MessageID \
                     {expected:?} ({version}: a reply relates to its request)"
                ),
                None => write!(
                    f,
                    "the reply has no wsa:RelatesTo naming the request's MessageID {expected:?} \
                     ({version}: a reply relates to its request)"
                ),
            },
            HeaderErrorKind::Action {
                expected,
                found,
                version,
            } => {
                match found {
                    Some(found) => write!(
                        f,
                        "the reply's wsa:Action is {found:?}, not the operation's output action \
                         {expected:?}"
                    )?,
                    None => write!(
                        f,
                        "the reply has no wsa:Action; the operation's output action is \
                         {expected:?}"
                    )?,
                }
                write!(
                    f,
                    " ({version}, Metadata §4.4); to accept it, \
                     Addressing::check_reply_action(false)"
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_carry_must_understand_and_role_in_each_version() {
        let b = HeaderBlock::new("acme", Name::new("urn:t", "Tenant"))
            .unwrap()
            .must_understand(true)
            .role("urn:r&x");
        for (v, expect) in [
            (
                SoapVersion::Soap11,
                "soapenv:mustUnderstand=\"1\" soapenv:actor=\"urn:r&amp;x\"",
            ),
            (
                SoapVersion::Soap12,
                "soap:mustUnderstand=\"true\" soap:role=\"urn:r&amp;x\"",
            ),
        ] {
            let mut env = crate::envelope::EnvelopeWriter::new(v, &[]).unwrap();
            b.write(env.header_writer().unwrap(), v).unwrap();
            env.body(|_| Ok(())).unwrap();
            let xml = env.finish().unwrap();
            assert!(xml.contains(expect), "{xml}");
            assert!(xml.contains(">acme</"), "{xml}");
        }
    }

    /// One block per header element: a later setting (builder, `with_header`, `with_soap_headers`)
    /// replaces the client's, the operation's own block replaces the client's for its call, a
    /// value that cannot be written fails the call naming the header.
    #[cfg(feature = "reqwest")]
    #[test]
    fn a_header_set_again_replaces_the_block_of_its_element() {
        use crate::message::{Operation, RequestWriter};
        const TENANT: DeclaredHeader<String> = DeclaredHeader::new("urn:t", "Tenant");
        const LOCALE: DeclaredHeader<String> = DeclaredHeader::new("urn:t", "Locale");
        let op = Operation::new("Ping", "urn:t/Ping", SoapVersion::Soap11);
        let body = |w: &mut RequestWriter| {
            w.body_writer()
                .simple_element(Name::new("urn:t", "Ping"), "x")
                .unwrap();
        };
        let sent = |c: &crate::Client, own: Option<&str>| {
            let mut w = RequestWriter::new(&[("t", "urn:t")]);
            if let Some(v) = own {
                let name = TENANT.name();
                v.to_owned()
                    .write_xml(w.header_block_writer(name), name)
                    .unwrap();
            }
            body(&mut w);
            c.message(&op, &w.finish().unwrap()).map(|m| m.envelope)
        };
        // The text of each Tenant element, whatever its prefix and declarations.
        let tenants = |xml: &str| -> Vec<String> {
            let mut out = Vec::new();
            for tag in xml.split('<').skip(1) {
                let name = &tag[..tag.find([' ', '>', '/']).unwrap_or(tag.len())];
                if name.rsplit(':').next() == Some("Tenant") {
                    let text = &tag[tag.find('>').unwrap() + 1..];
                    out.push(text.to_owned());
                }
            }
            out
        };
        let base = crate::Client::builder("http://127.0.0.1:9/x")
            .declared_header(TENANT, &"built".to_owned())
            .declared_header(TENANT, &"acme".to_owned())
            .build()
            .unwrap();
        assert_eq!(tenants(&sent(&base, None).unwrap()), ["acme"]);
        let per_call = base.with_header(TENANT, &"globex".to_owned());
        assert_eq!(tenants(&sent(&per_call, None).unwrap()), ["globex"]);
        // The shared client is unchanged.
        assert_eq!(tenants(&sent(&base, None).unwrap()), ["acme"]);
        // A raw block of the same element replaces it too; another element is added.
        let raw = HeaderBlock::new("initech", TENANT.name()).unwrap();
        let locale = HeaderBlock::declared(LOCALE, &"fr-CH".to_owned()).unwrap();
        let both = per_call.with_soap_headers([raw, locale]);
        let xml = sent(&both, None).unwrap();
        assert_eq!(tenants(&xml), ["initech"]);
        assert!(xml.contains(":Locale xmlns:ns1=\"urn:t\">fr-CH</"), "{xml}");
        // The operation's own block (a header parameter's value) wins for its call.
        assert_eq!(tenants(&sent(&both, Some("own")).unwrap()), ["own"]);
        // A value XML cannot carry: each call fails, naming the header; nothing is sent.
        let bad = base.with_header(TENANT, &"a\u{1}b".to_owned());
        let e = sent(&bad, None).unwrap_err();
        assert!(e.message.contains("header {urn:t}Tenant"), "{e}");
        let e = crate::Client::builder("http://127.0.0.1:9/x")
            .declared_header(TENANT, &"\u{0}".to_owned())
            .build()
            .unwrap_err();
        assert!(e.to_string().contains("{urn:t}Tenant"), "{e}");
    }

    #[test]
    fn unqualified_blocks_are_refused() {
        let e = HeaderBlock::new("x", Name::new("", "Tenant")).unwrap_err();
        assert!(e.message.contains("no namespace"), "{e}");
    }
}
