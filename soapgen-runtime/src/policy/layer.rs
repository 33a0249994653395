//! A port's [`PolicyLayer`] as a message layer: each call's operation secured as its policy
//! says (an operation the policy does not name refused), the request checked for the parts the
//! policy requires, and a response that falls short reported with the assertion it does not meet
//! ([`WssError::PolicyNotMet`]).

use super::apply::{is_https, needs_https, PolicyLayer};
use super::model::{Binding, MessagePolicy};
use crate::error::{EncodeError, Error};
use crate::fault::Fault;
use crate::message::{
    Exchanger, InboundBlock, Incoming, LayerCall, LayerFuture, MessageLayer, Outbound,
    RequestMessage, SoapVersion, Verdict,
};
use crate::wss::WssError;
use crate::xml::XmlWriter;

/// Whether `request` has what `policy`'s `sp:RequiredParts` and `sp:RequiredElements` ask.
///
/// # Errors
///
/// The first header block or element missing, naming the assertion.
fn check_required(policy: &MessagePolicy, request: &str) -> Result<(), EncodeError> {
    if policy.required_headers.is_empty() && policy.required_elements.is_empty() {
        return Ok(());
    }
    let doc = crate::xml::read::tree::Document::parse(request, crate::xml::Limits::default())
        .map_err(|e| EncodeError {
            message: format!("the request to check against sp:RequiredParts: {e}"),
        })?;
    let root = doc.root();
    let header = root
        .children()
        .filter(|n| n.is_element())
        .flat_map(|envelope| envelope.children())
        .find(|n| n.is_element() && n.tag_name().name() == "Header");
    for (ns, name) in policy.required_headers {
        if !header.is_some_and(|h| h.children().any(|c| c.has_tag_name((*ns, *name)))) {
            return Err(EncodeError {
                message: format!(
                    "the request has no header block {{{ns}}}{name}, which its policy requires \
                     (sp:RequiredParts)"
                ),
            });
        }
    }
    for x in policy.required_elements {
        if !x.to_element_path().matches_in(root) {
            return Err(EncodeError {
                message: format!(
                    "the request has no element {}, which its policy requires \
                     (sp:RequiredElements)",
                    x.expression
                ),
            });
        }
    }
    Ok(())
}

/// The assertion of `resp`'s policy a response check failure means it does not meet.
fn assertion_of(e: &WssError, resp: &MessagePolicy) -> &'static str {
    match e {
        WssError::MissingTimestamp
        | WssError::MalformedTimestamp(_)
        | WssError::TimestampExpired { .. }
        | WssError::TimestampTooOld { .. }
        | WssError::TimestampInFuture { .. } => "sp:IncludeTimestamp",
        WssError::NotSigned { part, detail }
            if part.contains("ProtectTokens") || detail.contains("ProtectTokens") =>
        {
            "sp:ProtectTokens"
        }
        WssError::NotEncrypted(part) if part.contains("EncryptSignature") => "sp:EncryptSignature",
        WssError::NotSigned { part, .. } if part.starts_with("element ") => "sp:SignedElements",
        WssError::NotEncrypted(part) if part.starts_with("element ") => "sp:EncryptedElements",
        WssError::NotSigned { .. } | WssError::InvalidSignature(_) => "sp:SignedParts",
        WssError::NotEncrypted(_) | WssError::DecryptionFailed => "sp:EncryptedParts",
        WssError::MissingSignatureConfirmation { .. }
        | WssError::SignatureConfirmationMismatch(_)
        | WssError::UnsignedSignatureConfirmation(_) => "sp:RequireSignatureConfirmation",
        WssError::AlgorithmNotAllowed { .. } => "sp:AlgorithmSuite",
        WssError::MissingRequired { assertion, .. } => assertion,
        WssError::Layout { .. } => "sp:Layout",
        WssError::UntrustedCertificate { .. }
        | WssError::UntrustedKey(_)
        | WssError::KeyReference { .. } => "sp:RecipientToken",
        _ => match resp.binding {
            Some(Binding::Transport(_)) => "sp:TransportBinding",
            Some(Binding::Asymmetric(_)) => "sp:AsymmetricBinding",
            Some(Binding::Symmetric(_)) => "sp:SymmetricBinding",
            None => "sp:SupportingTokens",
        },
    }
}

/// `e` as a failure to meet `resp`'s policy, when it is a WS-Security check's.
fn annotate(e: Error, resp: &MessagePolicy) -> Error {
    match e {
        Error::Security(cause) if !matches!(*cause, WssError::PolicyNotMet { .. }) => {
            Error::Security(Box::new(WssError::PolicyNotMet {
                assertion: assertion_of(&cause, resp),
                cause,
            }))
        }
        other => other,
    }
}

impl MessageLayer for PolicyLayer {
    /// The operation's WS-Security, if its policy has any.
    ///
    /// # Errors
    ///
    /// As [`WssConfig`]'s layer.
    fn start(&self, call: &Outbound<'_>) -> Result<Option<Box<dyn LayerCall>>, EncodeError> {
        let Some((op, cfg)) = self
            .operations
            .iter()
            .find(|(op, _)| op.operation == call.operation.name)
        else {
            // An operation the policy does not name would go without the security the port
            // demands: refused, never sent in clear.
            let known: Vec<&str> = self.operations.iter().map(|(op, _)| op.operation).collect();
            return Err(EncodeError::misuse(&format!(
                "operation {:?} is not in the WS-SecurityPolicy of port {} (its operations: {}): \
                 its request would go without the security the port demands; a generated \
                 client names each operation as its WSDL does (#[soap(operation = \"…\")] for a \
                 method whose request element is named otherwise)",
                call.operation.name,
                self.port,
                known.join(", ")
            )));
        };
        // Where this exchange goes (a failover address, `Client::with_endpoint`), not only the
        // address the client was built for: nothing a transport binding protects goes in clear.
        if needs_https(op) && !is_https(call.endpoint) {
            return Err(WssError::HttpsRequired {
                port: self.port.to_owned(),
                endpoint: call.endpoint.to_owned(),
            }
            .into());
        }
        let Some(cfg) = cfg else {
            return Ok(None);
        };
        Ok(cfg.start(call)?.map(|inner| {
            Box::new(Checked {
                inner,
                request: &op.request,
                response: &op.response,
            }) as Box<dyn LayerCall>
        }))
    }

    /// The operation's WS-SecureConversation context established, if its policy has one.
    fn prepare<'a>(
        &'a self,
        client: &'a dyn Exchanger,
        call: Outbound<'a>,
    ) -> Option<LayerFuture<'a>> {
        let (_, cfg) = self
            .operations
            .iter()
            .find(|(op, _)| op.operation == call.operation.name)?;
        cfg.as_ref()?.prepare(client, call)
    }

    /// The port's WS-SecureConversation context cancelled, if one is established (every
    /// operation shares it).
    fn close<'a>(&'a self, client: &'a dyn Exchanger) -> Option<LayerFuture<'a>> {
        let cfg = self
            .operations
            .iter()
            .find_map(|(_, cfg)| cfg.as_ref().filter(|c| c.context_token().is_some()))?;
        cfg.close(client)
    }
}

/// One exchange: WS-Security's own part, its response failures named by the policy's
/// assertion.
#[derive(Debug)]
struct Checked {
    inner: Box<dyn LayerCall>,
    request: &'static MessagePolicy,
    response: &'static MessagePolicy,
}

impl LayerCall for Checked {
    fn namespace(&self) -> Option<(&'static str, &'static str)> {
        self.inner.namespace()
    }

    /// The policy's required parts and elements are looked for in the whole response.
    fn whole_response(&self) -> bool {
        true
    }

    fn write_header(&mut self, w: &mut XmlWriter, version: SoapVersion) -> Result<(), EncodeError> {
        self.inner.write_header(w, version)
    }

    fn start_body(&mut self, w: &mut XmlWriter, at: usize) -> Result<(), EncodeError> {
        self.inner.start_body(w, at)
    }

    fn end_body(&mut self, w: &XmlWriter) {
        self.inner.end_body(w)
    }

    fn finish(&mut self, message: &mut RequestMessage) -> Result<(), EncodeError> {
        self.inner.finish(message)?;
        check_required(self.request, &message.envelope)
    }

    fn no_envelope(&self, ok: bool) -> Option<String> {
        self.inner.no_envelope(ok)
    }

    fn inbound(&mut self, response: &Incoming<'_>) -> Verdict {
        match self.inner.inbound(response) {
            Verdict::Refuse(e) => Verdict::Refuse(annotate(e, self.response)),
            v => v,
        }
    }

    fn header_block(
        &mut self,
        block: &mut InboundBlock<'_, '_>,
    ) -> Result<bool, crate::DecodeError> {
        self.inner.header_block(block)
    }

    fn reply(&mut self) -> Result<(), Error> {
        self.inner.reply().map_err(|e| annotate(e, self.response))
    }

    fn fault(&mut self, fault: &mut Fault) -> Result<(), Error> {
        self.inner
            .fault(fault)
            .map_err(|e| annotate(e, self.response))
    }
}
