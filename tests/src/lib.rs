//! Interop and end-to-end tests of soapgen against real peers (spyne, gSOAP, WSS4J, xmlsec1) and a
//! canned loopback server for broken responses; test certificates made by openssl ([`pki`]); xmlsec1
//! as an encrypting, signing, verifying and decrypting peer ([`xmlsec`]), signxml for RSASSA-PSS
//! ([`signxml`]); the WS-Security tests'
//! shared certificates, request envelopes and WSS4J server ([`wss`]); raw HTTP to a peer
//! ([`http`]); a transport that records what went over the wire ([`recording`]); random content
//! models for the corpus check's round trips ([`content_models`]).

pub mod canned;
pub mod content_models;
pub mod corpus;
pub mod faulty;
pub mod http;
pub mod large_objects;
pub mod peers;
pub mod pki;
pub mod recording;
pub mod signxml;
pub mod wss;
pub mod wss4j_service;
pub mod xmlsec;
