//! What generated code knows about an operation when it calls it.

use std::any::Any;

use super::{HttpLocation, SoapVersion};

/// A fact of a service description about an operation, for a message layer: each protocol's
/// own static value (WS-Addressing's [`Described`](crate::addressing::Described)), found by
/// its type with [`Operation::fact`].
pub type Fact = &'static (dyn Any + Send + Sync);

/// What generated code knows about an operation (WSDL 1.1 §2.4 portType operation plus §3.4
/// `soap:operation`): its name, `soapAction`, the binding's SOAP version, whether it is one-way,
/// and what the description says of it that a message layer acts on.
///
/// Built with [`Operation::new`] (and [`one_way`](Operation::one_way),
/// [`described`](Operation::described)), so that a field added here does not break generated
/// code.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Operation {
    /// Operation name, for tracing and errors.
    pub name: &'static str,
    /// The `soapAction` (may be empty).
    pub action: &'static str,
    /// SOAP version of the binding.
    pub version: SoapVersion,
    /// A one-way operation (WSDL 1.1 §2.4.1): no response message is expected.
    pub one_way: bool,
    /// The description's facts about the operation's binding that message layers read
    /// ([`fact`](Self::fact)): static data of generated code, empty by default.
    pub facts: &'static [Fact],
    /// Bound to SOAP 1.2's SOAP-response message exchange pattern (SOAP 1.2 Part 2 §6.3, WSDL 2.0
    /// Part 2 §5.10.3): sent as an HTTP GET whose IRI this makes of the request, with no
    /// envelope; `None` (the default): POSTed.
    pub soap_response: Option<&'static HttpLocation>,
}

impl Operation {
    /// A request-response operation (WSDL 1.1 §2.4.2) `name` with `soapAction` `action` (may be
    /// empty), in the binding's SOAP `version`.
    pub const fn new(name: &'static str, action: &'static str, version: SoapVersion) -> Self {
        Operation {
            name,
            action,
            version,
            one_way: false,
            facts: &[],
            soap_response: None,
        }
    }

    /// The same operation, one-way (WSDL 1.1 §2.4.1): no response message is expected.
    pub const fn one_way(self) -> Self {
        Operation {
            one_way: true,
            ..self
        }
    }

    /// The same operation with the description's `facts` about it (each protocol's static value,
    /// such as WS-Addressing's [`Described`](crate::addressing::Described)).
    pub const fn described(self, facts: &'static [Fact]) -> Self {
        Operation { facts, ..self }
    }

    /// The same operation bound to SOAP 1.2's SOAP-response message exchange pattern (SOAP 1.2
    /// Part 2 §6.3): called with an HTTP GET of the IRI `location` makes of the request's element
    /// (WSDL 2.0 Part 2 §6.8.2.2.1), answered with an envelope.
    pub const fn soap_response(self, location: &'static HttpLocation) -> Self {
        Operation {
            soap_response: Some(location),
            ..self
        }
    }

    /// The description's fact of type `T` about this operation, if it gives one.
    pub fn fact<T: Any>(&self) -> Option<&'static T> {
        self.facts.iter().find_map(|f| {
            let f: &'static (dyn Any + Send + Sync) = *f;
            f.downcast_ref::<T>()
        })
    }
}

/// Operations are equal when their name, action, version, one-way flag and request IRI are, and they carry
/// the same facts (the same static values).
impl PartialEq for Operation {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
            && self.action == other.action
            && self.version == other.version
            && self.one_way == other.one_way
            && self.soap_response == other.soap_response
            && self.facts.len() == other.facts.len()
            && self
                .facts
                .iter()
                .zip(other.facts)
                .all(|(a, b)| std::ptr::addr_eq(*a as *const _, *b as *const _))
    }
}

impl Eq for Operation {}
