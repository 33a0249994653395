//! The transport and the headers around a call, against real peers:
//!
//! - [`http_auth`]: HTTP Digest, NTLM, Negotiate and TLS client certificates (reqwest transport,
//!   and `soapgen fetch`);
//! - [`addressing`]: WS-Addressing and SOAP headers both ways, `#[soap_client]` route;
//! - [`addressing_wsdl`]: WS-Addressing turned on by the WSDL;
//! - [`kerberos`]: Kerberos over HTTP Negotiate against MIT's KDC, Apache `mod_auth_gssapi` and
//!   pyspnego: keytab, credential cache and password, typed failures;
//! - [`layer`]: a message layer of the test's own, registered with one line;
//! - [`faults`]: a server that stalls, truncates, closes or refuses: timeouts on every
//!   transport, typed errors, one request each, retries only when asked;
//! - [`proxy`]: calls through an HTTP proxy with Basic authentication, `CONNECT` for https;
//! - [`proxy_auth`]: calls through Squid with NTLM, Negotiate and Digest proxy authentication,
//!   to plain-HTTP and (through tunnels) TLS endpoints;
//! - [`failover`]: several addresses of one service, ordered or round-robin;
//! - [`streaming`]: responses read item by item as the body arrives, over every chunking and
//!   over sockets;
//! - [`streaming_arrays`]: streamed results that are an array type (.NET's `ArrayOf…`);
//! - [`wire_faults`]: slow drip, cut-off chunked bodies, bodies over the limit, pooled
//!   connections closed by the server, resets, a TLS handshake with a plain HTTP server.

mod addressing;
mod addressing_wsdl;
mod failover;
mod faults;
mod http_auth;
mod kerberos;
mod layer;
mod proxy;
mod proxy_auth;
mod streaming;
mod streaming_arrays;
mod wire_faults;
