//! Apache WSS4J 1.6.19 (Debian's libwss4j-java on OpenJDK), the peer in `tests/peers/wss4j/`
//! ([`soapgen_tests::peers::wss4j`]):
//!
//! - [`tokens`]: UsernameToken and Timestamps, WSS4J processing soapgen's and soapgen WSS4J's;
//! - [`scenario3`]: WSS4J's own Scenario 3 messages, proved without soapgen (fixtures);
//! - [`interop`]: soapgen and WSS4J both ways in one exchange (Scenario 3, UsernameToken
//!   digest, signed and encrypted headers, faults).

mod interop;
mod scenario3;
mod tokens;
