//! The faults a fake service answers with: a method it does not implement, an implementation's
//! error ([`IntoFault`]), and a fault carried over to the request's SOAP version.

use crate::fault::{Fault, FaultDetails, FaultError};
use crate::types::QName;
use crate::SoapVersion;

/// The error a `#[soap_client(fake)]` trait's method answers with when the fake does not
/// implement it (the trait's default body): a `Receiver` fault naming the method, so that a fake
/// implements only the operations its test calls.
pub fn not_implemented(method: &str) -> crate::Error {
    crate::Error::Fault(Box::new(Fault::receiver(
        SoapVersion::Soap11,
        format!("the fake service does not implement `{method}`"),
    )))
}

/// What an operation's implementation returns as its error, answered as a SOAP fault.
pub trait IntoFault {
    /// The fault the service answers with.
    fn into_fault(self) -> Fault;
}

impl IntoFault for crate::Error {
    /// A [`Fault`](crate::Error::Fault) as it is; any other error as a `Receiver` fault whose
    /// reason is the error's message.
    fn into_fault(self) -> Fault {
        match self {
            crate::Error::Fault(f) => *f,
            other => Fault::receiver(SoapVersion::Soap11, other.to_string()),
        }
    }
}

impl<D: FaultDetails> IntoFault for FaultError<D> {
    /// The error's fault carrying the declared detail written (WSDL 1.1 §2.4.5); a detail
    /// without a fault goes in a `Sender` fault (SOAP 1.1 `Client`) of the error's message.
    fn into_fault(self) -> Fault {
        let reason = self.error.to_string();
        let mut fault = match self.error {
            crate::Error::Fault(f) => *f,
            other if self.detail.is_none() => return other.into_fault(),
            _ => Fault::sender(SoapVersion::Soap11, reason),
        };
        if let Some(d) = &self.detail {
            match d.to_detail() {
                Ok(Some(detail)) => fault.detail = Some(detail),
                Ok(None) => {}
                Err(e) => {
                    return Fault::receiver(
                        fault.version,
                        format!("the fake service's fault detail cannot be written: {e}"),
                    )
                }
            }
        }
        fault
    }
}

impl Fault {
    /// The same fault in `version`: the codes of the envelope namespace renamed (SOAP 1.2 Part 1
    /// §5.4.6: `Client`↔`Sender`, `Server`↔`Receiver`), the other codes kept.
    pub(crate) fn in_version(mut self: Box<Self>, version: SoapVersion) -> Box<Fault> {
        if self.version == version {
            return self;
        }
        let from = self.version.envelope_namespace();
        if self.code.namespace.as_deref() == Some(from) {
            let local = match (version, self.code.local_name.as_str()) {
                (SoapVersion::Soap12, "Client") => "Sender",
                (SoapVersion::Soap12, "Server") => "Receiver",
                (SoapVersion::Soap11, "Sender") => "Client",
                (SoapVersion::Soap11, "Receiver") => "Server",
                (SoapVersion::Soap11, "DataEncodingUnknown") => "Client",
                (_, other) => other,
            }
            .to_owned();
            self.code = QName::new(version.envelope_namespace(), local);
        }
        self.version = version;
        self
    }
}
