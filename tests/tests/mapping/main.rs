//! The WSDL and XSD mapping: clients and types generated at build time (`tests/build.rs`) from
//! the WSDLs in `tests/wsdl` and `tests/peers`, their values written and read back, and sent to
//! the gSOAP (and spyne) servers built from the same WSDLs.
//!
//! - [`cases`]: includes, unqualified and namespace-less schemas, xmime, anyType, Subcodes,
//!   minOccurs;
//! - [`groups`]: model groups (choices and sequences, repeated);
//! - [`kinds`]: every XSD kind echoed by gSOAP;
//! - [`polymorphism`]: type substitution with `xsi:type`;
//! - [`substitution`]: substitution groups and abstract elements;
//! - [`encoded`]: SOAP 1.1 encoding (rpc/encoded);
//! - [`noparts`]: input messages with no parts;
//! - [`selection`]: operation selection;
//! - [`values`]: building values (`Default`, `new`, `.into()`);
//! - [`wsdl20`]: a WSDL 2.0 description;
//! - [`regressions`]: XSD features through hand-written derives;
//! - [`generated_clients`]: clients from the peers' own WSDLs calling them;
//! - [`checked_in_client`]: the CLI route's checked-in crate regenerates without a diff;
//! - [`fake`]: generated clients calling their in-process fake service;
//! - [`record_replay`]: exchanges recorded against gSOAP replayed without it;
//! - [`real_services`]: the large public APIs of the corpus, called as their users write the
//!   calls, against responses shaped as those services send them.

mod cases;
mod checked_in_client;
mod encoded;
mod fake;
mod fake_clients;
mod fake_security;
mod generated_clients;
mod groups;
mod kinds;
mod noparts;
mod polymorphism;
mod real_services;
mod record_replay;
mod regressions;
mod selection;
mod substitution;
mod values;
mod wsdl20;
