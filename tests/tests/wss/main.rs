//! WS-Security: one test binary, a module per feature and a module per peer that only that peer
//! exercises. The certificates, request envelopes and peers they share are in `soapgen_tests`
//! (`pki`, `wss`, `xmlsec`, `signxml`, `peers`); the test PKI is made once per binary.
//!
//! Features, each checked by whichever real verifier or signer does it (xmlsec1, WSS4J, openssl,
//! signxml, xmllint):
//!
//! - [`sign`]: X.509 signatures of soapgen requests; exclusive C14N; bad certificates and keys;
//! - [`verify`]: the inbound checks on responses signed and encrypted outside soapgen (attacks);
//! - [`encrypt`]: XML Encryption, primitives and whole requests;
//! - [`algorithms`]: ECDSA, RSASSA-PSS, inclusive C14N;
//! - [`pkcs12`]: PKCS#12 stores of OpenSSL and keytool;
//! - [`trust_paths`]: certificate paths through intermediates, PKIPath and PKCS#7 tokens;
//! - [`signer_constraints`]: subject patterns and key usage of the signer;
//! - [`signature_confirmation`]: WSS 1.1 SignatureConfirmation;
//! - [`cert_extract`]: `soapgen cert extract`.
//!
//! Peers, both directions: [`wss4j`] (Apache WSS4J: UsernameToken and Timestamps, Scenario 3 as
//! fixtures and in exchanges with soapgen), [`zeep`] (zeep's UsernameToken and BinarySignature),
//! [`gsoap`] (gSOAP's wsse plugin), [`cxf`] (Apache CXF enforcing the WS-SecurityPolicy of its own
//! system tests' WSDLs).

mod algorithms;
mod cert_extract;
mod cxf;
mod encrypt;
mod gsoap;
mod pkcs12;
mod policy_driven;
mod policy_matrix;
mod sign;
mod signature_confirmation;
mod signer_constraints;
mod trust_paths;
mod verify;
mod wss4j;
mod zeep;
