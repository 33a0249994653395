//! Finding a port's policy among a generated client's (`PORT_POLICIES`), and the error when it
//! has none.

use super::model::PortPolicy;

impl PortPolicy {
    /// The policy of the port named `port` among `policies` (a generated client's
    /// `PORT_POLICIES`).
    ///
    /// # Errors
    ///
    /// [`UnknownPort`], listing the secured ports, when none is named `port` (a port the
    /// client was generated without, or one whose WSDL demands no security).
    pub fn find(
        policies: &'static [PortPolicy],
        port: &str,
    ) -> Result<&'static PortPolicy, UnknownPort> {
        Self::find_among(policies, &[], port)
    }

    /// [`find`](Self::find), for a client whose ports `manual` have a policy soapgen does not
    /// apply (generated with `--manual-security`): the error then says so.
    ///
    /// # Errors
    ///
    /// [`UnknownPort`], as [`find`](Self::find).
    pub fn find_among(
        policies: &'static [PortPolicy],
        manual: &[&str],
        port: &str,
    ) -> Result<&'static PortPolicy, UnknownPort> {
        policies
            .iter()
            .find(|p| p.port == port)
            .ok_or_else(|| UnknownPort {
                port: port.to_owned(),
                secured: policies.iter().map(|p| p.port).collect(),
                manual: manual.contains(&port),
            })
    }
}

/// A port name a generated client has no WS-SecurityPolicy for ([`PortPolicy::find`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}: the client's secured ports are {}",
    if *manual {
        format!("port {port:?} has a WS-SecurityPolicy soapgen does not apply (its security is configured by hand, --manual-security: give its WssConfig to ClientBuilder::wss)")
    } else {
        format!("no WS-SecurityPolicy for port {port:?}")
    },
    secured.join(", ")
)]
pub struct UnknownPort {
    /// The name asked for.
    pub port: String,
    /// The ports the client has a policy for.
    pub secured: Vec<&'static str>,
    /// The port's policy is one soapgen does not apply: configured by hand.
    pub manual: bool,
}
