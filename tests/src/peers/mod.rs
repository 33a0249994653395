//! Real SOAP peers for the interop tests: a spyne (Python) server, six
//! gSOAP (C) servers, a WSS4J (Java) server, an Apache CXF (Java) server and a
//! stdlib-Python server of line-broken base64, started as child processes on
//! 127.0.0.1 with a free port.
//!
//! ```no_run
//! let spyne = soapgen_tests::peers::spyne();
//! let url = spyne.url("/soap11"); // http://127.0.0.1:PORT/soap11
//! let gsoap = soapgen_tests::peers::gsoap();
//! let url12 = gsoap.url("/soap12");
//! let weather = soapgen_tests::peers::globalweather();
//! let asmx = weather.url("/globalweather.asmx");
//! let swa = soapgen_tests::peers::gsoap_swa();
//! let named = swa.url("/wsi"); // or "/plain"
//! let mtom = soapgen_tests::peers::gsoap_mtom();
//! let attachments = mtom.url("/mtom"); // or "/inline", "/auto"
//! let lines = soapgen_tests::peers::linebreak_server();
//! let mime = lines.url("/crlf76"); // or "/lf76", "/crlf73", "/mixed", ...
//! let wss4j = soapgen_tests::peers::wss4j(&["--user", "alice:s3cret"]);
//! let secured = wss4j.url("/echo"); // or "/no-timestamp", "/expired", "/future", ...
//! let request = soapgen_tests::peers::wss4j_make_request("ut-digest", &["--user", "bob:pw"]);
//! let zeep = soapgen_tests::peers::zeep_wss_request(&["--key", "k.pem", "--cert", "c.pem",
//!     "--user", "bob", "--password", "pw"]);
//! let wsse = soapgen_tests::peers::gsoap_wsse();
//! let signed = wsse.url("/sign"); // or "/sign-encrypt/aes128-cbc", "/plain", ...
//! let wsdls = soapgen_tests::peers::cxf_policy_wsdls(&["org/apache/cxf/systest/ws/x509/DoubleItX509.wsdl"]);
//! let cxf = soapgen_tests::peers::cxf(&["--wsdl", wsdls[0].to_str().unwrap()]);
//! let port = cxf.url("/DoubleItX509/DoubleItAsymmetricIssuerSerialPort");
//! # let (users, digest_users) = (std::path::Path::new("u"), std::path::Path::new("d"));
//! let proxy = soapgen_tests::peers::squid("negotiate,ntlm,digest", users, digest_users);
//! ```
//!
//! * spyne: `tests/peers/spyne_server.py`, run with `/usr/bin/python3`
//!   (override with `SOAPGEN_PYTHON`); paths `/soap11`, `/soap12` (+ `?wsdl`).
//! * gSOAP echo: `tests/peers/gsoap/` is built once per machine by `build.sh`
//!   into `<target-dir>/peers/gsoap/` and rebuilt only when `build.sh`,
//!   `echo.wsdl`, `server.c` or the shared `common/` (`lib.sh`,
//!   `peer_main.{h,c}`, in every gSOAP peer's inputs) change.  Any path
//!   works; the reply's SOAP version follows the request envelope.
//! * GlobalWeather: `tests/peers/globalweather/` (a gSOAP server generated
//!   from the real-world `examples/wsdl/globalweather.wsdl`), built the same
//!   way into `<target-dir>/peers/globalweather/`; rebuilt when its
//!   `build.sh`, `server.c` or the WSDL change.  `scripts/globalweather-server.sh`
//!   builds into the same directory with the same stamp.  Any path works for
//!   SOAP 1.1/1.2; `…?wsdl` serves the WSDL.
//! * gSOAP MTOM: `tests/peers/gsoap/mtom/` (`mtom.wsdl`, `server.c`,
//!   `build.sh`), built the same way into `<target-dir>/peers/gsoap-mtom/`.
//!   `EchoData` / `GetData` (namespace `urn:soapgen:mtom`); the first path
//!   segment chooses the reply: `/mtom` (always MTOM), `/inline` (always
//!   inline base64), `/auto` (MTOM iff the request was).  See
//!   [`gsoap_mtom`].
//! * gSOAP SwA: `tests/peers/gsoap/swa/` (`swa.wsdl`, `server.c`,
//!   `build.sh`), built the same way into `<target-dir>/peers/gsoap-swa/`.
//!   `EchoPhoto` (two MIME attachments each way) / `EchoRef` (a swaRef), SOAP
//!   1.1; `/wsi` or `/plain` choose how the reply names its parts.  See
//!   [`gsoap_swa`].
//! * gSOAP WS-Security: `tests/peers/gsoap/wsse/` (`wsse.wsdl`, `server.c`,
//!   `client.c`, `peer_wsse.{c,h}`, `build.sh`), built the same way into
//!   `<target-dir>/peers/gsoap-wsse/` with gSOAP's wsse plugin (OpenSSL).
//!   `EchoText` (namespace `urn:soapgen:wsse`); the first path segment is the
//!   request policy: `/sign`, `/sign-encrypt[/<alg>]`, `/plain`; every
//!   response is signed.  Keys from [`crate::pki::test_pki`].  See
//!   [`gsoap_wsse`] and [`gsoap_wsse_client`].
//! * gSOAP XSD kinds: `tests/peers/gsoap/kinds/` (`server.c`, `build.sh`;
//!   the WSDL is `tests/wsdl/kinds.wsdl`), built the same way into
//!   `<target-dir>/peers/gsoap-kinds-<inputs hash>/`.  One echo operation
//!   per XSD kind (namespace `urn:soapgen:kinds`).  See
//!   [`gsoap_kinds`].
//! * WSS4J: `tests/peers/wss4j/Wss4jPeer.java` (Apache WSS4J 1.6.19 and
//!   Santuario 2.1.7 from Debian, OpenJDK), compiled by javac the same way
//!   into `<target-dir>/peers/wss4j-<inputs hash>/` (one directory per
//!   version of the peer: worktrees share the target directory); verifies each request's
//!   `wsse:Security` header with `WSSecurityEngine.processSecurityHeader`
//!   and secures its replies (Timestamp, UsernameToken, WSS "Scenario 3"
//!   sign + encrypt).  See [`wss4j`]; the same program builds secured
//!   requests ([`wss4j_make_request`]) and processes messages from stdin
//!   ([`wss4j_process`]).
//! * Apache CXF: `tests/peers/cxf/` (`CxfPeer.java`, `pom.xml`, `build.sh`), built
//!   by Maven into `<target-dir>/peers/cxf-<inputs hash>/` (Maven's repository
//!   `<target-dir>/peers/maven-repo`, downloaded once); every port of the WSDLs
//!   it is given (the CXF policy corpus, [`cxf_policy_wsdls`]) at
//!   `/<WSDL name>/<port name>`, CXF's policy engine enforcing each port's
//!   WS-SecurityPolicy.  See [`cxf`].
//! * zeep's WS-Security: `tests/peers/zeep_wss.py` prints a request secured
//!   by zeep 4.2's own `UsernameToken` + `BinarySignature` plugins.  See
//!   [`zeep_wss_request`].
//! * line-broken base64: `tests/peers/linebreak_server.py` (stdlib only),
//!   run with the same python as spyne; the same `GetData` / `EchoData`,
//!   base64 inline with the line structure named by the path.  See
//!   [`linebreak_server`].
//!
//! A peer that is not installed or does not build is a test FAILURE (panic
//! with the apt package to install), never a skip.  The child process is
//! killed and reaped when the [`Peer`] is dropped; the peers are also started
//! with `--exit-with-parent`, so they go away if the test binary is killed.

mod cxf;
mod gsoap;
mod kerberos;
mod linebreak;
mod process;
mod pyspnego;
mod spyne;
mod squid;
mod wss4j;
mod zeep;

pub use cxf::{cxf, cxf_binary, cxf_client, cxf_policy_corpus, cxf_policy_wsdls, OWN_POLICY_WSDLS};
pub use gsoap::*;
pub use kerberos::{
    kerberos_httpd, kerberos_pyspnego, kerberos_realm, Realm, ALICE_PASSWORD, REALM,
};
pub use linebreak::linebreak_server;
pub use process::start_command;
pub use pyspnego::{ntlm_acceptor, spnego_acceptor};
pub use spyne::{pattern_byte, pattern_bytes, spyne};
pub use squid::{squid, squid_kerberos};
pub use wss4j::{wss4j, wss4j_binary, wss4j_make_request, wss4j_process};
pub use zeep::{zeep_call, zeep_call_with, zeep_nil, zeep_wss_request};

use std::process::Child;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a peer may take to print `LISTENING <port>`.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// Keep at most this much of a peer's stderr (the tail) for diagnostics.
const STDERR_KEEP: usize = 64 * 1024;

/// A running peer server.  Killed (and waited for) on drop.
pub struct Peer {
    name: &'static str,
    child: Child,
    port: u16,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Peer {
    /// `http://127.0.0.1:PORT` + `path` (a leading `/` is added if missing).
    pub fn url(&self, path: &str) -> String {
        if path.is_empty() || path.starts_with('/') {
            format!("http://127.0.0.1:{}{}", self.port, path)
        } else {
            format!("http://127.0.0.1:{}/{}", self.port, path)
        }
    }

    /// `https://127.0.0.1:PORT` + `path`, for a peer that also speaks TLS on its port (the CXF peer
    /// with `--tls-keystore`).
    pub fn https_url(&self, path: &str) -> String {
        format!("https{}", &self.url(path)["http".len()..])
    }

    /// The TCP port the peer listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `host:port`, e.g. for `TcpStream::connect`.
    pub fn addr(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    /// Process id of the server.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `"spyne"`, `"gsoap"`, `"globalweather"`, `"gsoap-mtom"`, `"gsoap-swa"`,
    /// `"gsoap-encoded"`, `"gsoap-wsse"`, `"wss4j"`, `"cxf"` or `"linebreak"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What the server wrote to stderr so far (tail), for failure messages.
    pub fn stderr_output(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
}

/// `r`'s value; its error, with what `peer` wrote to stderr, as a panic otherwise: for the result
/// of a call to `peer` (an echo), whose failure the peer's log often explains.
pub fn echoed<T, E: std::fmt::Display>(r: Result<T, E>, peer: &Peer) -> T {
    r.unwrap_or_else(|e| panic!("{e}\n{}", peer.stderr_output()))
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl std::fmt::Debug for Peer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Peer")
            .field("name", &self.name)
            .field("pid", &self.child.id())
            .field("port", &self.port)
            .finish()
    }
}
