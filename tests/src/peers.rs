//! Real SOAP peers for the interop tests: a spyne (Python) server, six
//! gSOAP (C) servers, a WSS4J (Java) server and a stdlib-Python server of
//! line-broken base64, started as child processes on 127.0.0.1 with a free
//! port.
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

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

/// How long a peer may take to print `LISTENING <port>`.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// How long to wait for another process that is building a C peer.
const BUILD_LOCK_TIMEOUT: Duration = Duration::from_secs(300);
/// A build lock older than this is considered abandoned.
const STALE_LOCK_AGE: Duration = Duration::from_secs(180);
/// Keep at most this much of a peer's stderr (the tail) for diagnostics.
const STDERR_KEEP: usize = 64 * 1024;

const SPYNE_INSTALL_HINT: &str =
    "apt-get install -y python3-spyne python3-lxml (see .ci/install-peers.sh)";
const GSOAP_INSTALL_HINT: &str =
    "apt-get install -y gsoap libgsoap-dev pkg-config gcc g++ (see .ci/install-peers.sh)";
const PYTHON_INSTALL_HINT: &str = "apt-get install -y python3 (see .ci/install-peers.sh)";
const GSOAP_WSSE_INSTALL_HINT: &str =
    "apt-get install -y gsoap libgsoap-dev libssl-dev zlib1g-dev \
     pkg-config gcc openssl (see .ci/install-peers.sh)";
const WSS4J_INSTALL_HINT: &str = "apt-get install -y openjdk-17-jdk-headless libwss4j-java \
     libxml-security-java libcommons-logging-java libslf4j-java (see .ci/install-peers.sh)";

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
    /// `"gsoap-encoded"`, `"gsoap-wsse"`, `"wss4j"` or `"linebreak"`.
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

// --------------------------------------------------------------------------
// spyne
// --------------------------------------------------------------------------

/// Starts `tests/peers/spyne_server.py` (SOAP 1.1 at `/soap11`, SOAP 1.2 at
/// `/soap12`, namespace `urn:soapgen:test`).
pub fn spyne() -> Peer {
    let python = python();
    check_spyne_installed(&python);
    let script = peers_dir().join("spyne_server.py");
    assert!(
        script.is_file(),
        "spyne peer script missing: {}",
        script.display()
    );
    let mut cmd = Command::new(&python);
    cmd.arg(&script).args(["--port", "0", "--exit-with-parent"]);
    start("spyne", cmd, SPYNE_INSTALL_HINT)
}

/// The byte at offset `i` of the `GetData` pattern `mod251` served by
/// [`gsoap_mtom`] and [`linebreak_server`]: `(i * 31 + 7) mod 251`.
pub fn pattern_byte(i: u64) -> u8 {
    (((i % 251) * 31 + 7) % 251) as u8
}

/// The first `len` bytes of the `GetData` pattern `mod251`
/// (see [`pattern_byte`]).
pub fn pattern_bytes(len: usize) -> Vec<u8> {
    let period: Vec<u8> = (0..251).map(pattern_byte).collect();
    period.iter().copied().cycle().take(len).collect()
}

// --------------------------------------------------------------------------
// line-broken base64 (stdlib Python)
// --------------------------------------------------------------------------

/// Starts `tests/peers/linebreak_server.py` (Python 3, stdlib only; the
/// interpreter is `/usr/bin/python3` or `SOAPGEN_PYTHON`, as for spyne).
///
/// It implements `GetData` and `EchoData` of `tests/peers/gsoap/mtom/mtom.wsdl`
/// (namespace `urn:soapgen:mtom`, SOAP 1.1 and 1.2, reply version = request
/// version) and answers with the base64 value inline, in lines chosen by the
/// first path segment:
///
/// | path | lines |
/// |---|---|
/// | `/none` | no line breaks |
/// | `/crlf76` | 76 characters, CRLF |
/// | `/lf76` | 76 characters, LF |
/// | `/crlf73` | 73 characters, CRLF |
/// | `/lf64` | 64 characters, LF |
/// | `/mixed` | line k is 76, 73, 10, 1, 200 characters (k mod 5), ending CRLF, LF (k mod 2) |
/// | `/crref76` | 76 characters, each line end written `&#13;` + LF |
/// | `/custom?cols=N&eol=crlf\|lf\|cr\|crref\|space` | N characters, that line end |
///
/// Line ends separate lines (none after the last line) unless the query has
/// `trailing=1`.  `EchoData` takes inline base64 only (no MTOM).  Reply
/// envelopes look like WCF's: `<s:Envelope xmlns:s=…><s:Body><GetDataResponse
/// xmlns="urn:soapgen:mtom"><data>…</data></GetDataResponse>…`.
pub fn linebreak_server() -> Peer {
    let python = python();
    let script = peers_dir().join("linebreak_server.py");
    assert!(
        script.is_file(),
        "line-break peer script missing: {}",
        script.display()
    );
    let mut cmd = Command::new(&python);
    cmd.arg(&script).args(["--port", "0", "--exit-with-parent"]);
    start("linebreak", cmd, PYTHON_INSTALL_HINT)
}

fn python() -> PathBuf {
    std::env::var_os("SOAPGEN_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/python3"))
}

/// Once per process: fail loudly if Debian's python3 / spyne is missing.
fn check_spyne_installed(python: &Path) {
    static CHECKED: OnceLock<Result<(), String>> = OnceLock::new();
    let res = CHECKED.get_or_init(|| {
        let out = Command::new(python)
            .args(["-c", "import spyne, lxml; print(spyne.__version__)"])
            .stdin(Stdio::null())
            .output();
        match out {
            Err(e) => Err(format!(
                "cannot run {} ({e}); the spyne peer needs Debian's python3 with spyne: {}",
                python.display(),
                SPYNE_INSTALL_HINT
            )),
            Ok(o) if !o.status.success() => Err(format!(
                "{} cannot import spyne/lxml ({}):\n{}\ninstall it: {}",
                python.display(),
                o.status,
                String::from_utf8_lossy(&o.stderr).trim(),
                SPYNE_INSTALL_HINT
            )),
            Ok(_) => Ok(()),
        }
    });
    if let Err(msg) = res {
        panic!("spyne peer not available: {msg}");
    }
}

// --------------------------------------------------------------------------
// C peers built from source by their build.sh (gSOAP echo, GlobalWeather,
// gSOAP MTOM)
// --------------------------------------------------------------------------

/// A peer compiled by `bash <build_sh> <target-dir>/peers/<name>`, which must
/// leave `<binary>` there.  Built at most once per machine and input state:
/// `inputs.stamp` next to the binary holds [`inputs_hash`] of the inputs the
/// binary was built from; `build.lock` serialises builds across processes.
/// `scripts/globalweather-server.sh` re-implements this protocol in bash
/// (same stamp, same lock), keep the two in step.
struct BuiltPeer {
    /// Directory under `<target-dir>/peers/` and [`Peer::name`].
    name: &'static str,
    /// Human name for messages.
    title: &'static str,
    /// The build script, relative to the workspace root.
    build_sh: &'static str,
    /// File name of the server binary in the output directory.
    binary: &'static str,
    /// `(label, path relative to the workspace root)`, hashed in this order.
    inputs: &'static [(&'static str, &'static str)],
    /// Bump to force a rebuild when the build procedure changes outside the inputs.
    stamp_version: u64,
    /// Build into `<name>-<inputs hash>/` instead of `<name>/`, so that worktrees sharing one
    /// target directory with different versions of the peer each keep their own build instead of
    /// replacing each other's while tests run.
    dir_per_inputs: bool,
    install_hint: &'static str,
}

const GSOAP_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap",
    title: "gSOAP",
    build_sh: "tests/peers/gsoap/build.sh",
    binary: "echo-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/build.sh"),
        ("echo.wsdl", "tests/peers/gsoap/echo.wsdl"),
        ("server.c", "tests/peers/gsoap/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: false,
    install_hint: GSOAP_INSTALL_HINT,
};

const GLOBALWEATHER_PEER: BuiltPeer = BuiltPeer {
    name: "globalweather",
    title: "GlobalWeather (gSOAP)",
    build_sh: "tests/peers/globalweather/build.sh",
    binary: "globalweather-server",
    inputs: &[
        ("build.sh", "tests/peers/globalweather/build.sh"),
        ("server.c", "tests/peers/globalweather/server.c"),
        ("globalweather.wsdl", "examples/wsdl/globalweather.wsdl"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: false,
    install_hint: GSOAP_INSTALL_HINT,
};

const GSOAP_MTOM_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-mtom",
    title: "gSOAP MTOM",
    build_sh: "tests/peers/gsoap/mtom/build.sh",
    binary: "mtom-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/mtom/build.sh"),
        ("mtom.wsdl", "tests/peers/gsoap/mtom/mtom.wsdl"),
        ("server.c", "tests/peers/gsoap/mtom/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: false,
    install_hint: GSOAP_INSTALL_HINT,
};

const GSOAP_SWA_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-swa",
    title: "gSOAP SwA",
    build_sh: "tests/peers/gsoap/swa/build.sh",
    binary: "swa-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/swa/build.sh"),
        ("swa.wsdl", "tests/peers/gsoap/swa/swa.wsdl"),
        ("server.c", "tests/peers/gsoap/swa/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: false,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP echo server (`urn:soapgen:gsoap`,
/// operations echo / fail / whoami, SOAP 1.1 and 1.2 on any path).
pub fn gsoap() -> Peer {
    start_built(&GSOAP_PEER, gsoap_binary())
}

/// Path of the built gSOAP echo server, building it if it is missing or
/// stale.  Safe to call from several threads and several test binaries at once.
pub fn gsoap_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_PEER)).clone()
}

/// Builds (if needed) and starts the GlobalWeather server generated from
/// `examples/wsdl/globalweather.wsdl` (namespace `http://www.webserviceX.NET`,
/// `GetWeather(CityName)` and `GetCitiesByCountry(CountryName)`, SOAP 1.1
/// and 1.2 on any path, the WSDL's HTTP GET/POST ports under
/// `…/GetWeather` and `…/GetCitiesByCountry`, the WSDL at `?wsdl`).  See
/// `tests/peers/globalweather/server.c` for the data set.
pub fn globalweather() -> Peer {
    start_built(&GLOBALWEATHER_PEER, globalweather_binary())
}

/// Path of the built GlobalWeather server, building it if it is missing or
/// stale.  Safe to call from several threads and several test binaries at once.
pub fn globalweather_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GLOBALWEATHER_PEER)).clone()
}

/// Builds (if needed) and starts the gSOAP MTOM server generated from
/// `tests/peers/gsoap/mtom/mtom.wsdl` (namespace `urn:soapgen:mtom`, SOAP 1.1
/// and 1.2, reply version = request version):
///
/// * `EchoData(name, data)` -> `(name, size, data)`: the same name and bytes,
///   `size` = byte count received;
/// * `GetData(size, pattern?)` -> `data`: `size` bytes (0 ..= 256 MiB), pattern
///   `mod251` (default) = [`pattern_bytes`], or `zeros`.
///
/// Requests may be MTOM (`multipart/related; type="application/xop+xml"`)
/// or plain SOAP with inline base64 on every path.  The first path segment
/// chooses the reply: `/mtom` always MTOM (the bytes in a binary part
/// referenced by `<xop:Include href="cid:id1"/>`, also for 0 bytes), `/inline`
/// always inline base64 without line breaks, `/auto` MTOM iff the request was
/// MTOM.  Any other path is a Client/Sender fault.  Messages up to 512 MiB
/// are accepted.
pub fn gsoap_mtom() -> Peer {
    start_built(&GSOAP_MTOM_PEER, gsoap_mtom_binary())
}

/// Path of the built gSOAP MTOM server, building it if it is missing or
/// stale.  Safe to call from several threads and several test binaries at once.
pub fn gsoap_mtom_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_MTOM_PEER)).clone()
}

/// Builds (if needed) and starts the gSOAP SOAP-with-Attachments server
/// generated from `tests/peers/gsoap/swa/swa.wsdl` (namespace
/// `urn:soapgen:swa`, SOAP 1.1, a `mime:multipartRelated` binding):
///
/// * `EchoPhoto(name)` + attachments `photo`, `thumbnail` -> `(name,
///   photoSize, thumbnailSize, received)` + the same bytes back as
///   attachments `photo`, `thumbnail`.  The request's parts are found by
///   Content-IDs starting with `photo=` / `thumbnail=` (WS-I AP R2933; a
///   Client fault otherwise); `received` is the request's HTTP Content-Type
///   and one `<Content-ID> <type> <size>` line per MIME part (root included).
/// * `EchoRef(name, photo: swaRef)` -> `(name, size, photo: swaRef)`: the
///   attachment the swaRef names, sent back as a new attachment
///   `<echo-N@gsoap>` that the reply's swaRef references.
///
/// The first path segment chooses how the reply names its parts: `/wsi`
/// `<photo=1@gsoap>`, `<thumbnail=2@gsoap>` with the thumbnail first (only
/// the names tell them apart); `/plain` no Content-IDs, photo first (only the
/// order does).  Any other path is a Client fault.
pub fn gsoap_swa() -> Peer {
    start_built(&GSOAP_SWA_PEER, gsoap_swa_binary())
}

/// Path of the built gSOAP SwA server, building it if it is missing or
/// stale.  Safe to call from several threads and several test binaries at once.
pub fn gsoap_swa_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_SWA_PEER)).clone()
}

const GSOAP_GROUPS_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-groups",
    title: "gSOAP model groups",
    build_sh: "tests/peers/gsoap/groups/build.sh",
    binary: "groups-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/groups/build.sh"),
        ("groups.wsdl", "tests/wsdl/groups.wsdl"),
        ("server.c", "tests/peers/gsoap/groups/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP model-group echo server generated from
/// `tests/wsdl/groups.wsdl` (namespace `urn:soapgen:groups`, SOAP 1.1, document/literal bare):
/// each `EchoX(X)` returns the `X` it read, after gSOAP's own decoding of the choices, repeated
/// choices and sequences into its C types (unions with selectors, arrays of structs).
pub fn gsoap_groups() -> Peer {
    start_built(&GSOAP_GROUPS_PEER, gsoap_groups_binary())
}

/// Path of the built gSOAP model-group server, building it if it is missing or stale.  Safe to
/// call from several threads and several test binaries at once.
pub fn gsoap_groups_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_GROUPS_PEER)).clone()
}

const GSOAP_POLYMORPHISM_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-polymorphism",
    title: "gSOAP type substitution (C++)",
    build_sh: "tests/peers/gsoap/polymorphism/build.sh",
    binary: "polymorphism-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/polymorphism/build.sh"),
        ("polymorphism.wsdl", "tests/wsdl/polymorphism.wsdl"),
        ("server.cpp", "tests/peers/gsoap/polymorphism/server.cpp"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP type-substitution echo server generated, in C++, from
/// `tests/wsdl/polymorphism.wsdl` (namespace `urn:soapgen:poly`, SOAP 1.1, document/literal bare):
/// `EchoZoo(Zoo)` returns the `Zoo` it read, each `xsi:type` read into an instance of the class of
/// that type (derivation by extension is inheritance) and written back from it.
pub fn gsoap_polymorphism() -> Peer {
    start_built(&GSOAP_POLYMORPHISM_PEER, gsoap_polymorphism_binary())
}

/// Path of the built gSOAP type-substitution server, building it if it is missing or stale.  Safe
/// to call from several threads and several test binaries at once.
pub fn gsoap_polymorphism_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_POLYMORPHISM_PEER))
        .clone()
}

const GSOAP_NOPARTS_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-noparts",
    title: "gSOAP empty requests",
    build_sh: "tests/peers/gsoap/noparts/build.sh",
    binary: "noparts-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/noparts/build.sh"),
        ("noparts.wsdl", "tests/wsdl/noparts.wsdl"),
        ("server.c", "tests/peers/gsoap/noparts/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP server generated from `tests/wsdl/noparts.wsdl`
/// (namespace `urn:soapgen:noparts`, SOAP 1.1, document/literal; every input message has no parts):
/// it picks the operation by SOAPAction and, in strict mode, answers a Body that is not empty with a
/// Client fault. `Touch` counts a call (empty response Body), `GetCount` returns the count.
pub fn gsoap_noparts() -> Peer {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| build_peer(&GSOAP_NOPARTS_PEER)).clone();
    start_built(&GSOAP_NOPARTS_PEER, bin)
}

const GSOAP_WSA_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-wsa",
    title: "gSOAP WS-Addressing",
    build_sh: "tests/peers/gsoap/wsa/build.sh",
    binary: "wsa5-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/wsa/build.sh"),
        ("service.h.in", "tests/peers/gsoap/wsa/service.h.in"),
        ("server.c", "tests/peers/gsoap/wsa/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP server of `tests/peers/gsoap/wsa/` for `version`:
/// gSOAP's WS-Addressing plugin (`wsaapi.c`) with `import/wsa5.h` (WS-Addressing 1.0) or
/// `import/wsa.h` (the 2004/08 submission). Namespace `urn:soapgen:wsa`, document/literal, SOAP
/// 1.1 and 1.2, any path; `server.c` documents what it refuses and what each path changes in
/// the reply (`/no-session`, `/wrong-relates`, `/no-relates`).
pub fn gsoap_wsa(version: soapgen_runtime::addressing::AddressingVersion) -> Peer {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let wsa5 = BIN.get_or_init(|| build_peer(&GSOAP_WSA_PEER)).clone();
    let bin = match version {
        soapgen_runtime::addressing::AddressingVersion::W3C => wsa5,
        soapgen_runtime::addressing::AddressingVersion::Submission2004 => {
            wsa5.with_file_name("wsa-server")
        }
    };
    start_built(&GSOAP_WSA_PEER, bin)
}

const GSOAP_KINDS_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-kinds",
    title: "gSOAP XSD kinds",
    build_sh: "tests/peers/gsoap/kinds/build.sh",
    binary: "kinds-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/kinds/build.sh"),
        ("kinds.wsdl", "tests/wsdl/kinds.wsdl"),
        ("server.c", "tests/peers/gsoap/kinds/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP echo server of the XSD kinds, generated by
/// `wsdl2h -c -d` from `tests/wsdl/kinds.wsdl` (namespaces `urn:soapgen:kinds` and
/// `urn:soapgen:kinds:other`, SOAP 1.1, document/literal wrapped): each `EchoX(v)` returns the `v`
/// it read, after gSOAP's own decoding into its C types (substitution groups as unions, derived
/// types as flat structs, enumerations as C enums, wildcards, mixed content and `xs:anyType` as DOM
/// nodes). Any path works.
pub fn gsoap_kinds() -> Peer {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| build_peer(&GSOAP_KINDS_PEER)).clone();
    start_built(&GSOAP_KINDS_PEER, bin)
}

const GSOAP_CASES_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-cases",
    title: "gSOAP issue-4 cases",
    build_sh: "tests/peers/gsoap/cases/build.sh",
    binary: "cases-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/cases/build.sh"),
        ("subcode.wsdl", "tests/wsdl/cases/subcode.wsdl"),
        ("unqualified.wsdl", "tests/wsdl/cases/unqualified.wsdl"),
        ("no_namespace.wsdl", "tests/wsdl/cases/no_namespace.wsdl"),
        ("any_type.wsdl", "tests/wsdl/cases/any_type.wsdl"),
        ("xmime.wsdl", "tests/wsdl/cases/xmime.wsdl"),
        ("server.c", "tests/peers/gsoap/cases/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP server generated from five WSDLs of
/// `tests/wsdl/cases` at once (any path; it dispatches on the request element):
/// - `subcode.wsdl` (`urn:soapgen:cases:subcode`, SOAP 1.2): `Check(value)` echoes the value, and
///   answers `"bad"` with a Sender fault whose Subcode is `sc:Invalid` (prefix declared on the
///   Envelope), `"bad deep"` with the Subcode chain `sc:Invalid`,
///   `{urn:soapgen:cases:extra}TooDeep` (prefix declared on its enclosing Subcode), `sc:Last`;
///   `Repeat(value, times)` returns `times` items (none for 0, which the WSDL does not allow);
/// - `unqualified.wsdl`: `Echo(order)` returns the order gSOAP decoded;
/// - `no_namespace.wsdl`: `Ping(point...)` returns the sum of `x + y` over the points;
/// - `any_type.wsdl`: `Echo(holder)` returns the contents of `blob` and `Note` as `blob`s;
/// - `xmime.wsdl`: `Echo(photo)` returns `data` once per character of `name`.
pub fn gsoap_cases() -> Peer {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| build_peer(&GSOAP_CASES_PEER)).clone();
    start_built(&GSOAP_CASES_PEER, bin)
}

const GSOAP_ENCODED_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-encoded",
    title: "gSOAP rpc/encoded",
    build_sh: "tests/peers/gsoap/encoded/build.sh",
    binary: "encoded-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/encoded/build.sh"),
        ("encoded.wsdl", "tests/peers/gsoap/encoded/encoded.wsdl"),
        ("server.c", "tests/peers/gsoap/encoded/server.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: false,
    install_hint: GSOAP_INSTALL_HINT,
};

/// Builds (if needed) and starts the gSOAP rpc/encoded server generated from
/// `tests/peers/gsoap/encoded/encoded.wsdl` (namespace `urn:soapgen:encoded`,
/// SOAP 1.1 §5 encoding, rpc style): `echoItem`, `echoItems` (a SOAP-ENC array
/// of structs), `echoStrings` (a string array, `"n=<count>"` appended) and
/// `getPair(name, count)`, whose `first` and `second` are one pointer, which
/// gSOAP writes as a multi-reference value (`href="#_1"`, `<id id="_1">` in
/// Body).  Any path works.
pub fn gsoap_encoded() -> Peer {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    let bin = BIN.get_or_init(|| build_peer(&GSOAP_ENCODED_PEER)).clone();
    start_built(&GSOAP_ENCODED_PEER, bin)
}

const GSOAP_WSSE_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-wsse",
    title: "gSOAP WS-Security",
    build_sh: "tests/peers/gsoap/wsse/build.sh",
    binary: "wsse-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/wsse/build.sh"),
        ("wsse.wsdl", "tests/peers/gsoap/wsse/wsse.wsdl"),
        ("server.c", "tests/peers/gsoap/wsse/server.c"),
        ("client.c", "tests/peers/gsoap/wsse/client.c"),
        ("peer_wsse.h", "tests/peers/gsoap/wsse/peer_wsse.h"),
        ("peer_wsse.c", "tests/peers/gsoap/wsse/peer_wsse.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    install_hint: GSOAP_WSSE_INSTALL_HINT,
    dir_per_inputs: false,
};

/// Builds (if needed) and starts the gSOAP WS-Security server generated from
/// `tests/peers/gsoap/wsse/wsse.wsdl` and secured by gSOAP 2.8's own wsse plugin
/// (`wsseapi.c` on OpenSSL), with the keys of [`crate::pki::test_pki`]: `--cert server.pem
/// --key server.key --ca ca.pem --peer-cert client.pem`.  `tests/peers/gsoap/wsse/server.c`
/// documents the contract; in short:
///
/// * `EchoText(text)` (namespace `urn:soapgen:wsse`, document/literal, SOAP 1.1 and 1.2) ->
///   `EchoTextResponse(text, checked, signer)`: the text back, what the server verified
///   (`timestamp,signature,body-signed,timestamp-signed[,decrypted]`, or `none` on `/plain`)
///   and the signing certificate's subject in RFC 2253 form (`CN=soapgen test
///   client,O=soapgen tests`).
/// * Request policy by the first path segment: `/sign` needs a wsu:Timestamp whose Expires
///   has not passed (to the microsecond) and an XML signature covering Body and Timestamp,
///   made with a certificate sent as a BinarySecurityToken (DirectReference) that chains to
///   `ca.pem`; `/sign-encrypt[/<alg>]` also needs the Body encrypted for `server.pem`
///   (RSA-OAEP or RSA-1_5); `/plain` needs nothing.  A failure is an unsigned SOAP fault
///   with the plugin's message (`wsse:FailedCheck`, `wsu:MessageExpired`, ...).
/// * Every response carries a Timestamp (300 s), `server.pem` as a BinarySecurityToken and a
///   signature over exactly Body and Timestamp, RSA-SHA256 with SHA-256 digests (`?sig=rsa-sha1`:
///   RSA-SHA1 with SHA-1).  On `/sign-encrypt/<alg>`, `<alg>` one of `aes128-cbc`,
///   `aes192-cbc`, `aes256-cbc`, `3des`, `aes128-gcm`, `aes192-gcm`, `aes256-gcm`, the
///   signed response Body is then encrypted for `client.pem` (found by its
///   SubjectKeyIdentifier) with RSA-OAEP (`?kt=rsa-1_5`: RSA-1_5) key transport.
pub fn gsoap_wsse() -> Peer {
    let pki = crate::pki::test_pki();
    let path = |name: &str| pki.path(name).into_os_string();
    let mut cmd = Command::new(gsoap_wsse_binary());
    cmd.args(["--port", "0", "--exit-with-parent"])
        .arg("--cert")
        .arg(path("server.pem"))
        .arg("--key")
        .arg(path("server.key"))
        .arg("--ca")
        .arg(path("ca.pem"))
        .arg("--peer-cert")
        .arg(path("client.pem"));
    start(GSOAP_WSSE_PEER.name, cmd, GSOAP_WSSE_PEER.install_hint)
}

/// Path of the built gSOAP WS-Security server, building it (and its client) if missing or
/// stale.  Safe to call from several threads and several test binaries at once.
pub fn gsoap_wsse_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_WSSE_PEER)).clone()
}

/// Path of the gSOAP WS-Security *client* built next to [`gsoap_wsse`]'s server
/// (`tests/peers/gsoap/wsse/client.c`, which documents its command line): it sends one signed
/// (and with `--encrypt <alg>`, encrypted) `EchoText` with the wsse plugin and verifies the
/// signed (and encrypted) response, printing `key=value` lines.
pub fn gsoap_wsse_client() -> PathBuf {
    let server = gsoap_wsse_binary();
    let client = server.with_file_name("wsse-client");
    assert!(
        client.is_file(),
        "the gSOAP WS-Security build left no {}: {}",
        client.display(),
        GSOAP_WSSE_INSTALL_HINT
    );
    client
}

const WSS4J_PEER: BuiltPeer = BuiltPeer {
    name: "wss4j",
    title: "WSS4J",
    build_sh: "tests/peers/wss4j/build.sh",
    binary: "wss4j-peer",
    inputs: &[
        ("build.sh", "tests/peers/wss4j/build.sh"),
        ("Wss4jPeer.java", "tests/peers/wss4j/Wss4jPeer.java"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: WSS4J_INSTALL_HINT,
};

/// Builds (if needed) and starts the WS-Security peer: Apache WSS4J 1.6.19 (Debian's
/// `libwss4j-java`, Santuario 2.1.7, OpenJDK) behind the JDK's HTTP server, with `args` added to
/// `--port 0 --exit-with-parent`:
///
/// * `--user NAME:PASSWORD` (repeatable): the accounts its password callback knows;
/// * `--ca ca.pem`: a trust anchor; signatures are then verified (Merlin crypto);
/// * `--cert known.pem` (repeatable, with `--ca`): a certificate the crypto holds, for signatures
///   that identify it by a KeyIdentifier (SKI, thumbprint) instead of sending it;
/// * `--keystore server.p12 --storepass changeit --alias server`: the peer's own key (PKCS#12): it
///   decrypts requests (EncryptedKey found by its SKI, issuer/serial or thumbprint) and signs
///   `/scenario3/*` replies;
/// * `--encrypt-for client.pem`: the certificate `/scenario3/*` replies are encrypted for;
/// * `--reply-user NAME:PASSWORD`: the UsernameToken of `/ut-digest-reply` replies.
///
/// Every POST (SOAP 1.1 or 1.2) goes through `WSSecurityEngine.processSecurityHeader`; a failure
/// or a request without `wsse:Security` is a fault (HTTP 500, `faultstring` = WSS4J's message).
/// Otherwise, for a body element `<X>`, the reply is `<XResponse><XResult>` with `text` (the
/// request's `text`, echoed), `actions` (what WSS4J processed, in order: `TS`, `BST`, `UT`, `SIGN`,
/// `ENC`), `user`, `passwordType` (`PasswordDigest` / `PasswordText`), `signed` (local names of the
/// signed elements), `signer` (the certificate's subject DN) and `encrypted` (local names of the
/// decrypted elements: `Body` for Body content), qualified in the request's namespace.
///
/// The path chooses the reply's own Security header: `/echo` a WSS4J Timestamp (300 s),
/// `/no-timestamp` none, `/expired` one that expired 300 s ago, `/future` one created an hour
/// ahead, `/ut-digest-reply` a Timestamp and a UsernameToken PasswordDigest (Nonce, Created) of
/// `--reply-user`, and `/scenario3/<alg>[?sig=rsa-sha1|rsa-sha256&kt=oaep|rsa15&order=sign-encrypt|
/// encrypt-sign]` (`alg` = `aes128-cbc`, `aes256-cbc`, `3des`, `aes128-gcm`, `aes256-gcm`) the WSS
/// Scenario 3 shape: a Timestamp; a signature of Body + Timestamp by the `--alias` key, certificate
/// in a BinarySecurityToken (DirectReference), RSA-SHA1/SHA-1 (WSS4J 1.6's default) or
/// RSA-SHA256/SHA-256 with `sig=rsa-sha256`; the Body content encrypted with `alg` under a key
/// transported by RSA-OAEP (default) or RSA-1_5 (`kt=rsa15`) to `--encrypt-for`, identified by its
/// SubjectKeyIdentifier; signed then encrypted (default) or `order=encrypt-sign`. A request to
/// `/scenario3/*` must itself have its Body signed and encrypted, or the reply is a fault (the
/// peer checks WSS4J's results by element; WSS4J alone would not insist).
pub fn wss4j(args: &[&str]) -> Peer {
    let mut cmd = Command::new(wss4j_binary());
    cmd.args(["--port", "0", "--exit-with-parent"]).args(args);
    start(WSS4J_PEER.name, cmd, WSS4J_PEER.install_hint)
}

/// Path of the WSS4J peer's launcher, building it if it is missing or stale.  Safe to call from
/// several threads and several test binaries at once.
pub fn wss4j_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&WSS4J_PEER)).clone()
}

/// Runs the WSS4J peer's `--make-request <profile>` mode with `args` and returns the request it
/// prints: a SOAP 1.1 envelope (`--soap12`: 1.2) whose Body is
/// `<w:Echo xmlns:w="urn:soapgen:wss"><w:text>T</w:text></w:Echo>` (`--text T`, default `hello`;
/// `--ns URI` changes the namespace), secured by WSS4J the way the server secures a reply to the
/// path `/<profile>` (see [`wss4j`]): `scenario3/<alg>[?...]` needs `--keystore`, `--storepass`,
/// `--alias` (the signer), `--encrypt-for` (the recipient) and `--ca`; `ut-digest` a Timestamp and
/// a UsernameToken PasswordDigest of `--reply-user` (or of the first `--user`); `echo` a Timestamp;
/// `signed/x509` and `signed/pkipath` (`?confirm=<base64>` for a SignatureConfirmation) a
/// Timestamp and Body signed with `--alias`, its certificate or whole chain in the token.
///
/// # Panics
///
/// If the peer cannot be built or run (with the packages to install), or exits unsuccessfully.
pub fn wss4j_make_request(profile: &str, args: &[&str]) -> Vec<u8> {
    let out = Command::new(wss4j_binary())
        .args(["--make-request", profile])
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run the WSS4J peer ({e}): {WSS4J_INSTALL_HINT}"));
    assert!(
        out.status.success(),
        "wss4j-peer --make-request {profile} {args:?} failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs the WSS4J peer's `--process [path]` mode on `message` with `args` (the server's key and
/// trust options, see [`wss4j`]): WSS4J processes the message's Security header as the server
/// does (with `path` = `/scenario3/...`, plus the server's check that Body was signed and
/// encrypted). `Ok` holds what it reported: `actions`, `user`, `passwordType`, `signed`, `signer`,
/// `encrypted` and `text` (the first `text` element in the processed Body); `Err` WSS4J's (or the
/// check's) message when it refused the message.
///
/// # Panics
///
/// If the peer cannot be built or run, or fails for another reason than refusing the message.
pub fn wss4j_process(
    path: Option<&str>,
    args: &[&str],
    message: &[u8],
) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut cmd = Command::new(wss4j_binary());
    cmd.arg("--process");
    if let Some(p) = path {
        cmd.arg(p);
    }
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run the WSS4J peer ({e}): {WSS4J_INSTALL_HINT}"));
    {
        let mut stdin = child.stdin.take().expect("stdin is piped");
        stdin
            .write_all(message)
            .unwrap_or_else(|e| panic!("cannot write to wss4j-peer --process: {e}"));
    }
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("wss4j-peer --process: {e}"));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return match stderr.lines().find_map(|l| l.strip_prefix("FAULT ")) {
            Some(msg) if out.status.code() == Some(1) => Err(msg.to_string()),
            _ => panic!(
                "wss4j-peer --process {args:?} failed ({}):\n{stderr}",
                out.status
            ),
        };
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect())
}

const ZEEP_WSS_INSTALL_HINT: &str =
    "apt-get install -y python3-zeep python3-xmlsec (see .ci/install-peers.sh)";

/// Runs `tests/peers/zeep_wss.py` with `args` (`--key PEM --cert PEM --user NAME --password PW
/// [--text T] [--soap12] [--no-sign] [--no-token]`) under Debian's python3 and returns the bytes
/// zeep 4.2 would POST for `Echo(text)` with `wsse=[UsernameToken(user, password,
/// use_digest=True), BinarySignature(key, cert)]`.
///
/// # Panics
///
/// If python3, zeep or python3-xmlsec is missing (with the packages to install) or the script
/// fails.
pub fn zeep_wss_request(args: &[&str]) -> Vec<u8> {
    let python = python();
    let script = peers_dir().join("zeep_wss.py");
    let out = Command::new(&python)
        .arg(&script)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): {PYTHON_INSTALL_HINT}; {ZEEP_WSS_INSTALL_HINT}",
                python.display()
            )
        });
    assert!(
        out.status.success(),
        "{} {} {args:?} failed ({}):\n{}\ninstall: {ZEEP_WSS_INSTALL_HINT}",
        python.display(),
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn start_built(spec: &BuiltPeer, bin: PathBuf) -> Peer {
    let mut cmd = Command::new(bin);
    cmd.args(["--port", "0", "--exit-with-parent"]);
    start(spec.name, cmd, spec.install_hint)
}

fn build_peer(spec: &BuiltPeer) -> PathBuf {
    let root = workspace_root();
    let want = inputs_hash(spec, &root);
    let out = if spec.dir_per_inputs {
        let hex = want.trim_end().trim_start_matches("fnv1a64:");
        target_dir()
            .join("peers")
            .join(format!("{}-{hex}", spec.name))
    } else {
        target_dir().join("peers").join(spec.name)
    };
    let bin = out.join(spec.binary);
    let stamp = out.join("inputs.stamp");
    let lock = out.join("build.lock");

    fs::create_dir_all(&out).unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));
    let up_to_date =
        |bin: &Path| bin.is_file() && read_stamp(&stamp).as_deref() == Some(want.as_str());

    if up_to_date(&bin) {
        return bin;
    }

    let _guard = BuildLock::acquire(&lock, spec.title);
    // Somebody else may have finished the build while we waited.
    if up_to_date(&bin) {
        return bin;
    }

    let _ = fs::remove_file(&stamp);
    let build_sh = root.join(spec.build_sh);
    let output = Command::new("bash")
        .arg(&build_sh)
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash {} ({e}); install bash", build_sh.display()));
    if !output.status.success() {
        panic!(
            "building the {} peer failed ({}): {} {}\n--- stdout ---\n{}\n--- stderr ---\n{}\n\
             Install what the {} peer needs: {}",
            spec.title,
            output.status,
            build_sh.display(),
            out.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            spec.title,
            spec.install_hint
        );
    }
    assert!(
        bin.is_file(),
        "{} build succeeded but {} is missing",
        spec.title,
        bin.display()
    );
    write_atomically(&stamp, want.as_bytes());
    bin
}

/// FNV-1a 64 over the stamp version (u64 LE), then for each input its label,
/// its length (u64 LE) and its bytes; written as `fnv1a64:<16 hex>\n`.
/// std-only and stable across Rust versions (unlike `DefaultHasher`), and
/// simple enough to recompute in bash (`scripts/globalweather-server.sh`).
fn inputs_hash(spec: &BuiltPeer, root: &Path) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    feed(&spec.stamp_version.to_le_bytes());
    for (label, rel) in spec.inputs {
        let path = root.join(rel);
        let data = fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{} peer input {} unreadable: {e}",
                spec.title,
                path.display()
            )
        });
        feed(label.as_bytes());
        feed(&(data.len() as u64).to_le_bytes());
        feed(&data);
    }
    format!("fnv1a64:{h:016x}\n")
}

fn read_stamp(path: &Path) -> Option<String> {
    fs::read_to_string(path).ok()
}

fn write_atomically(path: &Path, data: &[u8]) {
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    fs::write(&tmp, data).unwrap_or_else(|e| panic!("cannot write {}: {e}", tmp.display()));
    fs::rename(&tmp, path)
        .unwrap_or_else(|e| panic!("cannot rename {} -> {}: {e}", tmp.display(), path.display()));
}

/// Inter-process lock: a file created with `create_new` holding
/// `pid <n>\n`.  Removed on drop (also when the build panics).  A lock whose
/// owner process no longer exists, or that is older than [`STALE_LOCK_AGE`],
/// is taken over.
struct BuildLock {
    path: PathBuf,
}

impl BuildLock {
    fn acquire(path: &Path, what: &str) -> BuildLock {
        let started = Instant::now();
        loop {
            match File::create_new(path) {
                Ok(mut f) => {
                    let _ = writeln!(f, "pid {}", std::process::id());
                    return BuildLock {
                        path: path.to_path_buf(),
                    };
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    if let Some(reason) = lock_is_stale(path) {
                        eprintln!(
                            "soapgen-tests: removing stale {what} build lock {} ({reason})",
                            path.display()
                        );
                        let _ = fs::remove_file(path);
                        continue;
                    }
                    if started.elapsed() > BUILD_LOCK_TIMEOUT {
                        panic!(
                            "timed out after {:?} waiting for the {what} build lock {} \
                             (held by another process; delete it if no build is running)",
                            BUILD_LOCK_TIMEOUT,
                            path.display()
                        );
                    }
                    thread::sleep(Duration::from_millis(100));
                }
                Err(e) => panic!("cannot create lock file {}: {e}", path.display()),
            }
        }
    }
}

impl Drop for BuildLock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

fn lock_is_stale(path: &Path) -> Option<String> {
    let age = fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok());
    let contents = fs::read_to_string(path).ok()?; // vanished: not stale, just retry
    let pid = contents
        .trim()
        .strip_prefix("pid ")
        .and_then(|p| p.trim().parse::<u32>().ok());
    match pid {
        Some(pid)
            if Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists() =>
        {
            Some(format!("owner pid {pid} is gone"))
        }
        // Unreadable/partial content: the owner may be between create and write.
        _ => match age {
            Some(age) if age > STALE_LOCK_AGE => Some(format!("{}s old", age.as_secs())),
            _ => None,
        },
    }
}

// --------------------------------------------------------------------------
// shared
// --------------------------------------------------------------------------

/// `tests/peers` in the source tree.
fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers")
}

fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Cargo's target directory: `CARGO_TARGET_DIR` if set (relative = to the
/// workspace root), else the ancestor of the running test binary that holds
/// cargo's `CACHEDIR.TAG`, else `<workspace>/target`.
fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        let dir = PathBuf::from(dir);
        return if dir.is_absolute() {
            dir
        } else {
            workspace_root().join(dir)
        };
    }
    if let Ok(exe) = std::env::current_exe() {
        for dir in exe.ancestors().skip(1) {
            if dir.join("CACHEDIR.TAG").is_file() {
                return dir.to_path_buf();
            }
        }
    }
    workspace_root().join("target")
}

/// Starts `cmd`, a server outside this crate that follows the peers' protocol (prints one line
/// `LISTENING <port>` once bound; `--exit-with-parent` is up to the caller), and returns it as a
/// [`Peer`], killed on drop.  Used by the benchmark harness (`bench/harness`) for its own servers.
pub fn start_command(name: &'static str, cmd: Command, install_hint: &str) -> Peer {
    start(name, cmd, install_hint)
}

/// Spawns `cmd`, waits for its `LISTENING <port>` line and returns the peer.
fn start(name: &'static str, mut cmd: Command, install_hint: &str) -> Peer {
    let program = cmd.get_program().to_os_string();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap_or_else(|e| {
        panic!(
            "cannot start the {name} peer ({}): {e}\ninstall: {install_hint}",
            Path::new(&program).display()
        )
    });

    let stderr = Arc::new(Mutex::new(Vec::new()));
    {
        let mut pipe = child.stderr.take().expect("stderr is piped");
        let sink = Arc::clone(&stderr);
        thread::Builder::new()
            .name(format!("{name}-peer-stderr"))
            .spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let mut s = sink.lock().unwrap_or_else(|e| e.into_inner());
                    s.extend_from_slice(&buf[..n]);
                    if s.len() > STDERR_KEEP {
                        let cut = s.len() - STDERR_KEEP;
                        s.drain(..cut);
                    }
                }
            })
            .expect("spawn stderr reader");
    }

    // Read stdout on a thread: first the LISTENING line (sent back), then
    // drain until EOF so the child can never block on a full pipe.
    let (tx, rx) = mpsc::channel::<Result<u16, String>>();
    {
        let pipe = child.stdout.take().expect("stdout is piped");
        thread::Builder::new()
            .name(format!("{name}-peer-stdout"))
            .spawn(move || {
                let mut reader = BufReader::new(pipe);
                let mut line = String::new();
                let mut sent = false;
                loop {
                    line.clear();
                    match reader.read_line(&mut line) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                    if sent {
                        continue;
                    }
                    let parsed = line
                        .trim_end()
                        .strip_prefix("LISTENING ")
                        .and_then(|p| p.trim().parse::<u16>().ok())
                        .filter(|p| *p != 0)
                        .ok_or_else(|| format!("unexpected first stdout line {line:?}"));
                    let _ = tx.send(parsed);
                    sent = true;
                }
            })
            .expect("spawn stdout reader");
    }

    let fail =
        |child: &mut Child, what: String| -> ! {
            let _ = child.kill();
            let status = child.wait().ok();
            // Give the stderr reader a moment to collect the last output.
            thread::sleep(Duration::from_millis(100));
            let err = String::from_utf8_lossy(&stderr.lock().unwrap_or_else(|e| e.into_inner()))
                .into_owned();
            panic!(
            "the {name} peer ({}) did not start: {what} (exit status: {})\n--- stderr ---\n{}\n\
             If something is missing, install it: {install_hint}",
            Path::new(&program).display(),
            status.map(|s| s.to_string()).unwrap_or_else(|| "unknown".into()),
            err.trim_end()
        )
        };

    match rx.recv_timeout(STARTUP_TIMEOUT) {
        Ok(Ok(port)) => Peer {
            name,
            child,
            port,
            stderr,
        },
        Ok(Err(msg)) => fail(&mut child, msg),
        Err(mpsc::RecvTimeoutError::Timeout) => fail(
            &mut child,
            format!("no `LISTENING <port>` line within {STARTUP_TIMEOUT:?}"),
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => fail(
            &mut child,
            "it exited before printing `LISTENING <port>`".into(),
        ),
    }
}

// --------------------------------------------------------------------------
// HTTP authentication and TLS peers
// --------------------------------------------------------------------------

const GSOAP_AUTH_INSTALL_HINT: &str = "apt-get install -y gsoap libgsoap-dev libssl-dev \
     zlib1g-dev pkg-config gcc (see .ci/install-peers.sh)";

const GSOAP_AUTH_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-auth",
    title: "gSOAP HTTP-authentication",
    build_sh: "tests/peers/gsoap/auth/build.sh",
    binary: "auth-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/auth/build.sh"),
        ("server.c", "tests/peers/gsoap/auth/server.c"),
        ("echo.wsdl", "tests/peers/gsoap/echo.wsdl"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    install_hint: GSOAP_AUTH_INSTALL_HINT,
    dir_per_inputs: true,
};

/// Path of the built gSOAP HTTP-authentication server (`tests/peers/gsoap/auth/`), building
/// it if missing or stale.
pub fn gsoap_auth_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_AUTH_PEER)).clone()
}

/// Builds (if needed) and starts the gSOAP echo service of `tests/peers/gsoap/echo.wsdl`
/// behind HTTP Digest (gSOAP's `httpda` plugin, RFC 7616) and/or TLS requiring a client
/// certificate (gsoapssl), with `args` added to `--port 0 --exit-with-parent`:
/// `--digest USER:PASSWORD` (realm `soapgen-tests`), `--digest-alg md5|sha256` (the
/// challenges offered: MD5 alone, or SHA-256 then MD5), `--stale-after N` (a nonce serves N
/// requests, then a `stale=true` challenge), `--tls KEYFILE CAFILE` (HTTPS; KEYFILE = key +
/// certificate PEM; clients must present a certificate issued by CAFILE), `--docs DIR` (HTTP GET
/// serves DIR's files by the path's last segment, behind the same Digest and TLS; stderr
/// `get ok file=F`, `get missing file=F`).  Its stderr has one
/// line per decision (`digest ok user=U alg=A nc=N`, `digest challenge: ...`,
/// `digest stale nonce=X`, `tls ok subject=S`, `tls refused: ...`; see `server.c`).
pub fn gsoap_auth(args: &[&str]) -> Peer {
    let mut cmd = Command::new(gsoap_auth_binary());
    cmd.args(["--port", "0", "--exit-with-parent"]).args(args);
    start(GSOAP_AUTH_PEER.name, cmd, GSOAP_AUTH_PEER.install_hint)
}

const PYSPNEGO_INSTALL_HINT: &str =
    "/usr/bin/python3 -m pip install --break-system-packages pyspnego (see .ci/install-peers.sh)";

/// Starts `tests/peers/ntlm_server.py`: pyspnego's NTLM (`protocol` `"ntlm"`) or SPNEGO
/// (`"negotiate"`) acceptor over HTTP (RFC 4559), one security context per keep-alive
/// connection as IIS keeps them, the accounts of `user_file` (`DOMAIN:USER:PASSWORD` lines,
/// pyspnego's `NTLM_USER_FILE`); authenticated requests are forwarded to `backend` and its
/// replies returned.  Its stderr has one line per decision (`challenge connection=C`,
/// `leg connection=C`, `ok connection=C user=…`, `refused connection=C: …`,
/// `served connection=C request=R`).
pub fn ntlm_acceptor(backend: &str, protocol: &str, user_file: &Path) -> Peer {
    let python = python();
    let ok = Command::new(&python)
        .args(["-c", "import spnego"])
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    assert!(
        ok,
        "pyspnego is not installed for {}: {PYSPNEGO_INSTALL_HINT}",
        python.display()
    );
    let mut cmd = Command::new(&python);
    cmd.arg(peers_dir().join("ntlm_server.py"))
        .args(["--port", "0", "--exit-with-parent", "--backend", backend])
        .args(["--protocol", protocol])
        .env("NTLM_USER_FILE", user_file);
    start("ntlm-acceptor", cmd, PYSPNEGO_INSTALL_HINT)
}

/// Runs `tests/peers/zeep_nil.py MODE` under Debian's python3 with `input` on stdin and returns
/// its output: zeep 4.2 writing (`render`: an EchoNilsResponse envelope of `tests/wsdl/kinds.wsdl`
/// whose `reqPrice` and `optPrice` are nil with a `currency` attribute, XML Schema Part 1 §2.6.2)
/// or reading (`parse`: an EchoNils request, one line per Price element with its currency, nil
/// flag and value) nil elements that carry attributes.
///
/// # Panics
///
/// If python3 or zeep is missing (with the packages to install) or the script fails.
pub fn zeep_nil(mode: &str, input: &[u8]) -> String {
    let python = python();
    let script = peers_dir().join("zeep_nil.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .arg(mode)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): {PYTHON_INSTALL_HINT}; apt-get install -y python3-zeep",
                python.display()
            )
        });
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input).expect("write to zeep_nil.py");
    }
    let out = child.wait_with_output().expect("run zeep_nil.py");
    assert!(
        out.status.success(),
        "{} {} {mode} failed ({}):\n{}\ninstall: apt-get install -y python3-zeep",
        python.display(),
        script.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("zeep_nil.py prints UTF-8")
}
