//! Interop and end-to-end tests of soapgen against real peers (spyne, gSOAP, WSS4J, xmlsec1) and a
//! canned loopback server for broken responses; test certificates made by openssl ([`pki`]); xmlsec1
//! as an encrypting, signing and decrypting peer ([`xmlsec`]).

pub mod canned;
pub mod corpus;
pub mod large_objects;
pub mod peers;
pub mod pki;
pub mod recording;
pub mod wss4j_service;
pub mod xmlsec;
pub mod xmlsec1;
