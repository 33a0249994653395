//! SOAP faults as typed values: SOAP 1.1 §4.4 (`faultcode`, `faultstring`, `faultactor`, `detail`) and
//! SOAP 1.2 Part 1 §5.4 (`Code` with its `Subcode` chain, `Reason` texts, `Node`, `Role`, `Detail`),
//! read into one [`Fault`] type.

use std::fmt;

use crate::error::EncodeError;
use crate::error::{DecodeError, DecodeErrorKind};
use crate::message::SoapVersion;
use crate::types::QName;
use crate::xml::{FromXml, Name, StartTag, ToXml, XmlReader, XmlWriter, XML_NS};

/// A SOAP fault, either version.
///
/// SOAP 1.1 fields map as: `faultcode` → [`code`](Fault::code), `faultstring` → [`reason`](Fault::reason)
/// (and one entry of [`reasons`](Fault::reasons)), `faultactor` → [`node`](Fault::node), `detail` →
/// [`detail`](Fault::detail). Codes are resolved QNames: `soap:Client` is
/// `{http://schemas.xmlsoap.org/soap/envelope/}Client`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fault {
    /// The envelope version the fault came in.
    pub version: SoapVersion,
    /// SOAP 1.1 `faultcode`, or SOAP 1.2 `Code/Value`.
    pub code: QName,
    /// SOAP 1.2 `Subcode/Value` chain, outermost first (empty for SOAP 1.1).
    pub subcodes: Vec<QName>,
    /// The reason text: SOAP 1.1 `faultstring`, or the first SOAP 1.2 `Reason/Text`.
    pub reason: String,
    /// Every reason text with its `xml:lang` (SOAP 1.2 allows one per language).
    pub reasons: Vec<FaultReason>,
    /// SOAP 1.1 `faultactor`, or SOAP 1.2 `Node`: the URI of the node that faulted.
    pub node: Option<String>,
    /// SOAP 1.2 `Role`: the role the faulting node was acting in.
    pub role: Option<String>,
    /// The application-specific detail, kept as XML.
    pub detail: Option<FaultDetail>,
    /// The HTTP status the fault arrived with (SOAP 1.1 servers send 500; SOAP 1.2 sends 400 for
    /// `Sender` faults and 500 otherwise).
    pub http_status: Option<u16>,
    /// Whether the client's WS-Security inbound policy vouched for the envelope the fault came
    /// in (WSS 1.1 §8.4; feature `wss`): an unsigned fault to a client that requires signed
    /// responses is [`FaultSecurity::NotVerified`].
    pub security: FaultSecurity,
    /// The fault's `wsa:Action`, when the call was addressed and the fault carries one: the
    /// WSDL fault's action (`wsam:Action` on `wsdl:fault`, or Metadata §4.4.4's default pattern
    /// `…/{portType}/{operation}/Fault/{fault name}`), or SOAP Binding §6's generic
    /// `…/addressing/soap/fault` (`…/fault` in the submission) for a fault of WS-Addressing
    /// itself. `None` for unaddressed calls.
    pub action: Option<String>,
}

/// What WS-Security says about the envelope a [`Fault`] came in (WSS 1.1 §8.4: the receiver
/// decides whether to trust a message; §10 Timestamps), for a client with an inbound policy
/// (feature `wss`, `ClientBuilder::wss`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum FaultSecurity {
    /// Nothing vouches for the fault: the client has no WS-Security inbound policy that
    /// requires signed responses (none at all, the feature off, or a policy without
    /// `require_signature`, whose other checks the envelope met), or the fault was read outside
    /// a client.
    #[default]
    NotChecked,
    /// The envelope met the client's whole inbound policy, which requires signed responses, as a
    /// successful response must: the fault's Body (and Timestamp) signed by a trusted certificate.
    Verified,
    /// The envelope did not meet the inbound policy (most often: an unsigned fault to a client
    /// that requires signed responses). The fault is returned as received, not verified by
    /// WS-Security; the text says why. `WssConfig::refuse_unverified_faults` refuses such faults
    /// instead.
    NotVerified(String),
}

impl FaultSecurity {
    /// Whether the fault's envelope met the inbound policy.
    pub fn is_verified(&self) -> bool {
        matches!(self, FaultSecurity::Verified)
    }
}

/// One SOAP 1.2 `Reason/Text` (or the SOAP 1.1 `faultstring`) with its language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultReason {
    /// The `xml:lang` of the text, if given.
    pub lang: Option<String>,
    /// The text.
    pub text: String,
}

/// The content of a fault's `detail` (SOAP 1.1) or `Detail` (SOAP 1.2), kept verbatim with the
/// namespace bindings in scope where it was found, so it can be decoded into a typed value later.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultDetail {
    /// The XML between `<detail>` and `</detail>`, as received.
    pub xml: String,
    /// Namespace bindings (prefix, URI) in scope at the `detail` element; `""` is the default namespace.
    pub bindings: Vec<(String, String)>,
}

impl FaultDetail {
    /// A detail holding `value` written as the element `name` (self-contained: the namespace
    /// bindings it uses declared on it): the typed detail of a declared fault (WSDL 1.1 §2.4.5),
    /// for a test double to answer with.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from `value`'s writer.
    pub fn encode<T: ToXml + ?Sized>(value: &T, name: Name<'_>) -> Result<Self, EncodeError> {
        Self::encode_typed(value, name, None)
    }

    /// [`encode`](Self::encode), the element carrying `xsi:type="xsi_type"` when given (XML
    /// Schema Part 1 §2.6.1): the detail of an rpc/encoded fault told apart by its type.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from `value`'s writer.
    pub fn encode_typed<T: ToXml + ?Sized>(
        value: &T,
        name: Name<'_>,
        xsi_type: Option<Name<'static>>,
    ) -> Result<Self, EncodeError> {
        let mut w = XmlWriter::new();
        if let Some(t) = xsi_type {
            w.type_next_element(t);
        }
        value.write_xml(&mut w, name)?;
        Ok(FaultDetail {
            xml: w.into_string()?,
            bindings: Vec::new(),
        })
    }

    /// Decodes the first child element of the detail named `name` as `T`; `Ok(None)` if there is none.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if that element does not decode as `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use soapgen_runtime::fault::FaultDetail;
    /// use soapgen_runtime::xml::Name;
    /// let d = FaultDetail {
    ///     xml: "<e:code>42</e:code>".into(),
    ///     bindings: vec![("e".into(), "urn:err".into())],
    /// };
    /// let code: Option<i32> = d.decode(Name::new("urn:err", "code"))?;
    /// assert_eq!(code, Some(42));
    /// # Ok::<(), soapgen_runtime::DecodeError>(())
    /// ```
    pub fn decode<T: FromXml>(&self, name: Name<'_>) -> Result<Option<T>, DecodeError> {
        let doc = self.as_document();
        let mut r = XmlReader::new(&doc);
        r.root()?;
        while let Some(child) = r.next_child()? {
            if r.matches(&child, name) {
                return T::read_xml(&mut r, child).map(Some);
            }
            r.skip_element()?;
        }
        Ok(None)
    }

    /// [`decode`](Self::decode), with the element's `xsi:type` (XML Schema Part 1 §2.6.1) held to
    /// `xsi_type` when given: an element of that name whose `xsi:type` is another is not this
    /// one (`Ok(None)`); one without `xsi:type` is.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if the element does not decode as `T`.
    pub fn decode_typed<T: FromXml>(
        &self,
        name: Name<'_>,
        xsi_type: Option<Name<'_>>,
    ) -> Result<Option<T>, DecodeError> {
        let doc = self.as_document();
        let mut r = XmlReader::new(&doc);
        r.root()?;
        while let Some(child) = r.next_child()? {
            if r.matches(&child, name) {
                if let (Some(want), Some(found)) = (xsi_type, r.xsi_type(&child)?) {
                    if found.namespace.as_deref().unwrap_or("") != want.namespace
                        || found.local_name != want.local
                    {
                        return Ok(None);
                    }
                }
                return T::read_xml(&mut r, child).map(Some);
            }
            r.skip_element()?;
        }
        Ok(None)
    }

    /// The local names of the detail's child elements, for diagnostics.
    pub fn entry_names(&self) -> Vec<String> {
        let doc = self.as_document();
        let mut r = XmlReader::new(&doc);
        let mut names = Vec::new();
        if r.root().is_err() {
            return names;
        }
        while let Ok(Some(child)) = r.next_child() {
            names.push(child.local_name().to_owned());
            if r.skip_element().is_err() {
                break;
            }
        }
        names
    }

    /// The detail as a standalone document: `<detail>` with the saved bindings re-declared.
    fn as_document(&self) -> String {
        let mut doc = String::with_capacity(self.xml.len() + 64);
        doc.push_str("<detail");
        for (p, uri) in &self.bindings {
            doc.push_str(" xmlns");
            if !p.is_empty() {
                doc.push(':');
                doc.push_str(p);
            }
            doc.push_str("=\"");
            doc.push_str(&uri.replace('&', "&amp;").replace('"', "&quot;"));
            doc.push('"');
        }
        doc.push('>');
        doc.push_str(&self.xml);
        doc.push_str("</detail>");
        doc
    }
}

impl Fault {
    /// A fault of `version` with code `code` and reason text `reason`: no subcodes, node, role
    /// or detail, not received over HTTP. What a test double answers with; the fields can be set
    /// after (`fault.node = Some(…)`).
    ///
    /// # Examples
    ///
    /// ```
    /// use soapgen_runtime::fault::Fault;
    /// use soapgen_runtime::types::QName;
    /// use soapgen_runtime::SoapVersion;
    /// let code = QName::new(SoapVersion::Soap11.envelope_namespace(), "Client.Auth");
    /// let f = Fault::new(SoapVersion::Soap11, code, "bad password");
    /// assert!(f.is_sender());
    /// ```
    pub fn new(version: SoapVersion, code: QName, reason: impl Into<String>) -> Fault {
        let reason = reason.into();
        Fault {
            version,
            code,
            subcodes: Vec::new(),
            reasons: vec![FaultReason {
                lang: None,
                text: reason.clone(),
            }],
            reason,
            node: None,
            role: None,
            detail: None,
            http_status: None,
            security: FaultSecurity::default(),
            action: None,
        }
    }

    /// A fault that blames the request: SOAP 1.1 `Client` (§4.4.1), SOAP 1.2 `Sender` (Part 1
    /// §5.4.6), with `reason`.
    pub fn sender(version: SoapVersion, reason: impl Into<String>) -> Fault {
        let local = match version {
            SoapVersion::Soap11 => "Client",
            SoapVersion::Soap12 => "Sender",
        };
        Fault::new(
            version,
            QName::new(version.envelope_namespace(), local),
            reason,
        )
    }

    /// A fault that blames the service: SOAP 1.1 `Server` (§4.4.1), SOAP 1.2 `Receiver` (Part 1
    /// §5.4.6), with `reason`.
    pub fn receiver(version: SoapVersion, reason: impl Into<String>) -> Fault {
        let local = match version {
            SoapVersion::Soap11 => "Server",
            SoapVersion::Soap12 => "Receiver",
        };
        Fault::new(
            version,
            QName::new(version.envelope_namespace(), local),
            reason,
        )
    }

    /// The fault as a whole envelope of its version, as a service sends it: SOAP 1.1 §4.4
    /// (`faultcode`, `faultstring`, `faultactor`, `detail`) or SOAP 1.2 Part 1 §5.4 (`Code` with
    /// its `Subcode`s, `Reason` texts, `Node`, `Role`, `Detail`). The detail's XML goes in
    /// verbatim, its bindings declared on the detail element.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] if a text holds a character XML 1.0 cannot carry.
    pub fn to_envelope(&self) -> Result<String, EncodeError> {
        let env = self.version.envelope_namespace();
        let n = |local| Name::new(env, local);
        let mut w = XmlWriter::new();
        w.declaration()?;
        w.start_element_prefixed(n("Envelope"), Some(self.version.prefix()))?;
        w.start_element(n("Body"))?;
        self.write(&mut w)?;
        w.end_element()?;
        w.end_element()?;
        w.into_string()
    }

    /// Writes the `Fault` element of [`to_envelope`](Self::to_envelope) where `w` stands (in a
    /// Body of the fault's version).
    pub(crate) fn write(&self, w: &mut XmlWriter) -> Result<(), EncodeError> {
        let env = self.version.envelope_namespace();
        let n = |local| Name::new(env, local);
        w.start_element(n("Fault"))?;
        // A QName value: its prefix in scope, declared where none is (no namespace: bare).
        let qname = |w: &mut XmlWriter, q: &QName| -> Result<String, EncodeError> {
            let Some(ns) = q.namespace.as_deref().filter(|ns| !ns.is_empty()) else {
                return Ok(q.local_name.clone());
            };
            let p = w.prefix_for(ns)?;
            Ok(if p.is_empty() {
                q.local_name.clone()
            } else {
                format!("{p}:{}", q.local_name)
            })
        };
        let detail = |w: &mut XmlWriter, local: &str, d: &FaultDetail| {
            w.start_element(Name::new(if local == "detail" { "" } else { env }, local))?;
            for (p, uri) in &d.bindings {
                if p.is_empty() {
                    w.attribute(Name::new("", "xmlns"), uri)?;
                } else {
                    w.declare_namespace(p, uri)?;
                }
            }
            w.raw(&d.xml)?;
            w.end_element()
        };
        match self.version {
            SoapVersion::Soap11 => {
                // SOAP 1.1 §4.4: the fault's children are unqualified.
                w.start_element(Name::new("", "faultcode"))?;
                let code = qname(w, &self.code)?;
                w.text(&code)?;
                w.end_element()?;
                w.simple_element(Name::new("", "faultstring"), self.reason.as_str())?;
                if let Some(node) = &self.node {
                    w.simple_element(Name::new("", "faultactor"), node.as_str())?;
                }
                if let Some(d) = &self.detail {
                    detail(w, "detail", d)?;
                }
            }
            SoapVersion::Soap12 => {
                w.start_element(n("Code"))?;
                let codes = std::iter::once(&self.code).chain(&self.subcodes);
                let mut depth = 0;
                for (i, c) in codes.enumerate() {
                    if i > 0 {
                        w.start_element(n("Subcode"))?;
                        depth += 1;
                    }
                    w.start_element(n("Value"))?;
                    let v = qname(w, c)?;
                    w.text(&v)?;
                    w.end_element()?;
                }
                for _ in 0..depth {
                    w.end_element()?;
                }
                w.end_element()?;
                w.start_element(n("Reason"))?;
                let texts: Vec<(Option<&str>, &str)> = if self.reasons.is_empty() {
                    vec![(None, self.reason.as_str())]
                } else {
                    self.reasons
                        .iter()
                        .map(|r| (r.lang.as_deref(), r.text.as_str()))
                        .collect()
                };
                for (lang, text) in texts {
                    w.start_element(n("Text"))?;
                    // Part 1 §5.4.2.1: every Text carries xml:lang.
                    w.attribute(Name::new(XML_NS, "lang"), lang.unwrap_or("en"))?;
                    w.text(text)?;
                    w.end_element()?;
                }
                w.end_element()?;
                if let Some(node) = &self.node {
                    w.simple_element(n("Node"), node.as_str())?;
                }
                if let Some(role) = &self.role {
                    w.simple_element(n("Role"), role.as_str())?;
                }
                if let Some(d) = &self.detail {
                    detail(w, "Detail", d)?;
                }
            }
        }
        w.end_element()
    }

    /// Whether the fault blames the request: SOAP 1.1 `Client` (and dotted refinements such as
    /// `Client.Authentication`) or SOAP 1.2 `Sender`.
    pub fn is_sender(&self) -> bool {
        let local = self.code.local_name.as_str();
        local == "Sender" || local == "Client" || local.starts_with("Client.")
    }

    /// Whether the fault blames the server: SOAP 1.1 `Server…` or SOAP 1.2 `Receiver`.
    pub fn is_receiver(&self) -> bool {
        let local = self.code.local_name.as_str();
        local == "Receiver" || local == "Server" || local.starts_with("Server.")
    }

    /// Reads a `Fault` element (its start tag just read) of the given version.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if the fault is malformed: a missing code or reason, an unbound code prefix.
    pub fn read<'i>(
        r: &mut XmlReader<'i>,
        _start: StartTag<'i>,
        version: SoapVersion,
    ) -> Result<Fault, DecodeError> {
        let mut fault = Fault {
            version,
            code: QName::local(""),
            subcodes: Vec::new(),
            reason: String::new(),
            reasons: Vec::new(),
            node: None,
            role: None,
            detail: None,
            http_status: None,
            security: FaultSecurity::NotChecked,
            action: None,
        };
        let mut have_code = false;
        while let Some(child) = r.next_child()? {
            // Children are matched by local name: SOAP 1.1 has them unqualified, SOAP 1.2 in the
            // envelope namespace, and some servers qualify 1.1 children too.
            match (version, child.local_name()) {
                (SoapVersion::Soap11, "faultcode") => {
                    fault.code = r.read_simple(&child)?;
                    have_code = true;
                }
                (SoapVersion::Soap11, "faultstring") => {
                    let lang = r
                        .attribute(&child, Name::new(XML_NS, "lang"))?
                        .map(|l| l.into_owned());
                    let text = r.read_text()?.into_owned();
                    fault.reason.clone_from(&text);
                    fault.reasons.push(FaultReason { lang, text });
                }
                (SoapVersion::Soap11, "faultactor") => {
                    fault.node = Some(r.read_text()?.into_owned())
                }
                (SoapVersion::Soap11, "detail") | (SoapVersion::Soap12, "Detail") => {
                    let bindings = r.bindings_in_scope();
                    let xml = r.read_inner_xml()?.to_owned();
                    fault.detail = Some(FaultDetail { xml, bindings });
                }
                (SoapVersion::Soap12, "Code") => {
                    read_code_12(r, &mut fault)?;
                    have_code = true;
                }
                (SoapVersion::Soap12, "Reason") => {
                    while let Some(text) = r.next_child()? {
                        let lang = r
                            .attribute(&text, Name::new(XML_NS, "lang"))?
                            .map(|l| l.into_owned());
                        let t = r.read_text()?.into_owned();
                        if fault.reasons.is_empty() {
                            fault.reason.clone_from(&t);
                        }
                        fault.reasons.push(FaultReason { lang, text: t });
                    }
                }
                (SoapVersion::Soap12, "Node") => fault.node = Some(r.read_text()?.into_owned()),
                (SoapVersion::Soap12, "Role") => fault.role = Some(r.read_text()?.into_owned()),
                _ => return Err(r.unexpected(&child)),
            }
        }
        if !have_code {
            let what = match version {
                SoapVersion::Soap11 => "faultcode",
                SoapVersion::Soap12 => "Code",
            };
            return Err(r.error(DecodeErrorKind::MissingElement(what.to_owned())));
        }
        Ok(fault)
    }
}

/// SOAP 1.2 Part 1 §5.4.1: `Code` holds `Value` and an optional `Subcode`, which nests likewise.
fn read_code_12(r: &mut XmlReader<'_>, fault: &mut Fault) -> Result<(), DecodeError> {
    let mut level = 0usize;
    let mut depth_open = 1usize; // the Code element itself
    loop {
        let Some(child) = r.next_child()? else {
            depth_open -= 1;
            if depth_open == 0 {
                return Ok(());
            }
            continue;
        };
        match child.local_name() {
            "Value" => {
                let v: QName = r.read_simple(&child)?;
                if level == 0 {
                    fault.code = v;
                } else {
                    fault.subcodes.push(v);
                }
            }
            "Subcode" => {
                level += 1;
                depth_open += 1;
            }
            _ => return Err(r.unexpected(&child)),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SOAP fault {}", self.code.local_name)?;
        for s in &self.subcodes {
            write!(f, "/{}", s.local_name)?;
        }
        if let Some(s) = self.http_status {
            write!(f, " (HTTP {s})")?;
        }
        write!(f, ": {}", self.reason)?;
        if let Some(n) = &self.node {
            write!(f, " [node {n}]")?;
        }
        Ok(())
    }
}

impl std::error::Error for Fault {}

/// The fault details an operation declares (WSDL 1.1 §2.4.2: its `wsdl:fault` messages), decoded from
/// a fault's `detail`. Generated code implements it with [`fault_details!`](crate::fault_details).
pub trait FaultDetails: Sized {
    /// The declared detail entry present in `detail`, if any.
    ///
    /// # Errors
    ///
    /// [`DecodeError`] if a declared entry is present but does not decode.
    fn from_detail(detail: &FaultDetail) -> Result<Option<Self>, DecodeError>;

    /// The detail a service sends for this value: its entry written as the declared element
    /// (with its `xsi:type` where the declaration tells variants apart by it). `Ok(None)`: the
    /// type cannot be written (the default, for a hand-written implementation); what
    /// [`fault_details!`](crate::fault_details) declares always can.
    ///
    /// # Errors
    ///
    /// [`EncodeError`] from the entry's writer.
    fn to_detail(&self) -> Result<Option<FaultDetail>, EncodeError> {
        Ok(None)
    }
}

/// The error of an operation that declares faults: the call's [`Error`](crate::Error), plus the fault
/// detail decoded into the declared type `D` when the server sent one of the declared faults.
///
/// Converts from [`Error`](crate::Error) (decoding the detail then), so `?` works in generated code.
#[derive(Debug)]
pub struct FaultError<D> {
    /// What happened.
    pub error: crate::Error,
    /// The declared fault detail, when the error is a fault carrying one.
    pub detail: Option<D>,
    /// Why a declared detail entry could not be decoded, if it could not.
    pub detail_error: Option<DecodeError>,
}

impl<D> FaultError<D> {
    /// The error of a call answered with `fault` carrying the declared detail `detail` (WSDL 1.1
    /// §2.4.5): what a test double of an operation that declares faults returns for one of
    /// them, as the client would have decoded it. The fault's raw `detail` is left as it is.
    ///
    /// # Examples
    ///
    /// ```
    /// use soapgen_runtime::fault::Fault;
    /// use soapgen_runtime::{FaultError, SoapVersion};
    /// #[derive(Debug, PartialEq)]
    /// enum Faults { NotFound(String) }
    /// let e = FaultError::declared(
    ///     Fault::sender(SoapVersion::Soap11, "no such order"),
    ///     Faults::NotFound("A-1".into()),
    /// );
    /// assert!(e.is_fault());
    /// assert_eq!(e.detail, Some(Faults::NotFound("A-1".into())));
    /// ```
    pub fn declared(fault: Fault, detail: D) -> Self {
        FaultError {
            error: crate::Error::Fault(Box::new(fault)),
            detail: Some(detail),
            detail_error: None,
        }
    }

    /// The SOAP fault, if the error is one.
    pub fn fault(&self) -> Option<&Fault> {
        self.error.fault()
    }

    /// The call's error, dropping the decoded detail (the raw detail stays in the fault).
    pub fn into_error(self) -> crate::Error {
        self.error
    }

    /// Whether the server answered with a SOAP fault.
    pub fn is_fault(&self) -> bool {
        self.error.is_fault()
    }

    /// Whether the call ran out of time.
    pub fn is_timeout(&self) -> bool {
        self.error.is_timeout()
    }

    /// The HTTP status of the response, when one was received.
    pub fn status(&self) -> Option<u16> {
        self.error.status()
    }
}

impl<D> From<FaultError<D>> for crate::Error {
    fn from(e: FaultError<D>) -> Self {
        e.error
    }
}

impl<D: FaultDetails> From<crate::Error> for FaultError<D> {
    fn from(error: crate::Error) -> Self {
        let (detail, detail_error) = match error.fault().and_then(|f| f.detail.as_ref()) {
            Some(d) => match D::from_detail(d) {
                Ok(v) => (v, None),
                Err(e) => (None, Some(e)),
            },
            None => (None, None),
        };
        FaultError {
            error,
            detail,
            detail_error,
        }
    }
}

impl<D> fmt::Display for FaultError<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        if let Some(e) = &self.detail_error {
            write!(f, " (declared fault detail not decoded: {e})")?;
        }
        Ok(())
    }
}

impl<D: fmt::Debug> std::error::Error for FaultError<D> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Declares an enum of the fault details an operation may return, each variant an element
/// (namespace, local name) of the `detail`, and implements [`FaultDetails`] for it. Variants that
/// share an element (Axis 1's rpc/encoded faults, all named after their part) add its `xsi:type`,
/// `(namespace, local name, type namespace, type local name)`, which the entry must carry. The
/// enum derives `Debug`; attributes given before `enum` (more derives, docs) are kept.
///
/// # Examples
///
/// ```
/// use soapgen_runtime::fault::{FaultDetail, FaultDetails};
/// soapgen_runtime::fault_details! {
///     /// Faults of `divide`.
///     #[derive(PartialEq)]
///     pub enum DivideFault {
///         /// The divisor was zero.
///         DivideByZero(String) = ("urn:calc", "DivideByZero"),
///     }
/// }
/// let d = FaultDetail { xml: "<c:DivideByZero xmlns:c='urn:calc'>n/0</c:DivideByZero>".into(), bindings: vec![] };
/// assert_eq!(DivideFault::from_detail(&d)?, Some(DivideFault::DivideByZero("n/0".into())));
/// # Ok::<(), soapgen_runtime::DecodeError>(())
/// ```
#[macro_export]
macro_rules! fault_details {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident($ty:ty) = ($ns:expr, $local:expr $(, $tns:expr, $tlocal:expr)?) ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant($ty), )*
        }

        impl $crate::fault::FaultDetails for $name {
            fn from_detail(
                detail: &$crate::fault::FaultDetail,
            ) -> ::core::result::Result<::core::option::Option<Self>, $crate::DecodeError> {
                $(
                    let xsi_type: ::core::option::Option<$crate::xml::Name<'static>> =
                        ::core::option::Option::None $(.or(::core::option::Option::Some($crate::xml::Name::new($tns, $tlocal))))?;
                    if let ::core::option::Option::Some(v) =
                        detail.decode_typed::<$ty>($crate::xml::Name::new($ns, $local), xsi_type)?
                    {
                        return ::core::result::Result::Ok(::core::option::Option::Some($name::$variant(v)));
                    }
                )*
                ::core::result::Result::Ok(::core::option::Option::None)
            }

            fn to_detail(
                &self,
            ) -> ::core::result::Result<::core::option::Option<$crate::fault::FaultDetail>, $crate::EncodeError> {
                match *self {
                    $(
                        $name::$variant(ref v) => {
                            let xsi_type: ::core::option::Option<$crate::xml::Name<'static>> =
                                ::core::option::Option::None $(.or(::core::option::Option::Some($crate::xml::Name::new($tns, $tlocal))))?;
                            $crate::fault::FaultDetail::encode_typed(
                                v,
                                $crate::xml::Name::new($ns, $local),
                                xsi_type,
                            )
                            .map(::core::option::Option::Some)
                        }
                    )*
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::{FaultDetail, FaultDetails};

    crate::fault_details! {
        /// Axis 1's rpc/encoded faults: every one is the accessor `fault`, told apart by type.
        #[derive(PartialEq)]
        pub enum AxisFault {
            NotFound(String) = ("", "fault", "urn:svc", "NotFoundException"),
            Denied(String) = ("", "fault", "urn:svc", "DeniedException"),
        }
    }

    fn detail(xml: &str) -> FaultDetail {
        FaultDetail {
            xml: xml.to_owned(),
            bindings: vec![
                ("x".into(), "urn:svc".into()),
                (
                    "xsi".into(),
                    "http://www.w3.org/2001/XMLSchema-instance".into(),
                ),
            ],
        }
    }

    #[test]
    fn variants_of_one_element_are_told_apart_by_xsi_type() {
        let denied = detail(r#"<fault xsi:type="x:DeniedException">no</fault>"#);
        assert_eq!(
            AxisFault::from_detail(&denied).unwrap(),
            Some(AxisFault::Denied("no".into()))
        );
        let not_found = detail(r#"<fault xsi:type="x:NotFoundException">gone</fault>"#);
        assert_eq!(
            AxisFault::from_detail(&not_found).unwrap(),
            Some(AxisFault::NotFound("gone".into()))
        );
        // Without xsi:type, the first; of another type, none.
        let untyped = detail("<fault>?</fault>");
        assert_eq!(
            AxisFault::from_detail(&untyped).unwrap(),
            Some(AxisFault::NotFound("?".into()))
        );
        let other = detail(r#"<fault xsi:type="x:Other">?</fault>"#);
        assert_eq!(AxisFault::from_detail(&other).unwrap(), None);
    }

    /// A fault written as a whole envelope: SOAP 1.2's Code nests its Subcodes, every Reason
    /// Text carries xml:lang, the detail keeps its bindings; SOAP 1.1's children are unqualified
    /// and its faultcode a QName in scope.
    #[test]
    fn a_fault_is_written_as_its_version_lays_it_out() {
        use super::Fault;
        use crate::types::QName;
        use crate::SoapVersion;
        let mut f = Fault::sender(SoapVersion::Soap12, "bad <input>");
        f.subcodes = vec![QName::new("urn:app", "Invalid")];
        f.detail = Some(detail("<x:code>7</x:code>"));
        let xml = f.to_envelope().unwrap();
        for part in [
            "<soap:Code><soap:Value>soap:Sender</soap:Value><soap:Subcode>",
            r#"<soap:Value xmlns:ns1="urn:app">ns1:Invalid</soap:Value></soap:Subcode></soap:Code>"#,
            r#"<soap:Text xml:lang="en">bad &lt;input&gt;</soap:Text>"#,
            r#"xmlns:x="urn:svc""#,
            "<x:code>7</x:code></soap:Detail>",
        ] {
            assert!(xml.contains(part), "{part} not in {xml}");
        }
        let f = Fault::new(
            SoapVersion::Soap11,
            QName::new("urn:app", "Quota"),
            "over quota",
        );
        let xml = f.to_envelope().unwrap();
        assert!(
            xml.contains("<faultstring>over quota</faultstring>"),
            "{xml}"
        );
        assert!(
            xml.contains(r#"xmlns:ns1="urn:app">ns1:Quota</faultcode>"#),
            "{xml}"
        );
    }
}
