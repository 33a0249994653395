//! The gSOAP (C) peers, each generated from its WSDL by wsdl2h and soapcpp2 and compiled once per
//! machine by its `build.sh`: echo, GlobalWeather, MTOM, SwA, model groups, polymorphism, empty
//! messages, WS-Addressing, every XSD kind, assorted cases, rpc/encoded, WS-Security (server and
//! client) and HTTP authentication.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use super::process::{build_peer, start, start_built, BuiltPeer};
use super::Peer;

const GSOAP_INSTALL_HINT: &str =
    "apt-get install -y gsoap libgsoap-dev pkg-config gcc g++ (see .ci/install-peers.sh)";
const GSOAP_WSSE_INSTALL_HINT: &str =
    "apt-get install -y gsoap libgsoap-dev libssl-dev zlib1g-dev \
     pkg-config gcc openssl (see .ci/install-peers.sh)";

const GSOAP_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap",
    title: "gSOAP",
    build_sh: "tests/peers/gsoap/build.sh",
    binary: "echo-server",
    inputs: &[
        ("build.sh", "tests/peers/gsoap/build.sh"),
        ("echo.wsdl", "tests/peers/gsoap/echo.wsdl"),
        ("server.c", "tests/peers/gsoap/server.c"),
        ("client.c", "tests/peers/gsoap/client.c"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 2,
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
        ("client.c", "tests/peers/globalweather/client.c"),
        (
            "common/peer_client.h",
            "tests/peers/gsoap/common/peer_client.h",
        ),
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
        ("client.c", "tests/peers/gsoap/mtom/client.c"),
        (
            "common/peer_client.h",
            "tests/peers/gsoap/common/peer_client.h",
        ),
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

/// Runs gSOAP's generated C client of `tests/peers/gsoap/echo.wsdl` (`echo-client`, built with
/// the echo server) once against `url`: `version` `"11"` or `"12"` picks the WSDL's SOAP 1.1 or
/// 1.2 binding, `op` is `echo` / `fail` / `whoami` with `arg` its one argument. Returns its line:
/// `result <text>` or `fault <code>|<reason>|<FailDetail reason>|<FailDetail code>` (`-` for a
/// missing detail).
///
/// # Panics
///
/// If the client cannot be built or run, or fails otherwise than with a SOAP fault.
pub fn gsoap_echo_client(url: &str, version: &str, op: &str, arg: &str) -> String {
    gsoap_client(GsoapClient::Echo, &[url, version, op, arg])
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
///   `mod251` (default) = [`pattern_bytes`](super::pattern_bytes), or `zeros`.
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
        ("client.c", "tests/peers/gsoap/encoded/client.c"),
        (
            "common/peer_client.h",
            "tests/peers/gsoap/common/peer_client.h",
        ),
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
    start_built(&GSOAP_ENCODED_PEER, gsoap_encoded_binary())
}

/// Path of the built gSOAP rpc/encoded server, building it if it is missing or stale. Safe to
/// call from several threads and several test binaries at once.
pub fn gsoap_encoded_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&GSOAP_ENCODED_PEER)).clone()
}

const GSOAP_BENCH_PEER: BuiltPeer = BuiltPeer {
    name: "gsoap-bench",
    title: "gSOAP benchmark client and server",
    build_sh: "bench/gsoap/build.sh",
    binary: "lo-client",
    inputs: &[
        ("build.sh", "bench/gsoap/build.sh"),
        ("server.c", "bench/gsoap/server.c"),
        ("client.c", "bench/gsoap/client.c"),
        ("large_objects.wsdl", "tests/wsdl/large_objects.wsdl"),
        ("common/lib.sh", "tests/peers/gsoap/common/lib.sh"),
        ("common/peer_main.h", "tests/peers/gsoap/common/peer_main.h"),
        ("common/peer_main.c", "tests/peers/gsoap/common/peer_main.c"),
    ],
    stamp_version: 1,
    dir_per_inputs: false,
    install_hint: GSOAP_INSTALL_HINT,
};

/// A client gSOAP generated from one of the peers' WSDLs (C, `wsdl2h -c` + `soapcpp2 -c`), built
/// beside its server: one call per run, for tests of servers (the loopback fake). Each
/// `client.c` documents its arguments and its one line of output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GsoapClient {
    /// `tests/peers/gsoap/client.c` (`echo-client`): echo.wsdl.
    Echo,
    /// `tests/peers/globalweather/client.c` (`weather-client`): GlobalWeather.
    GlobalWeather,
    /// `tests/peers/gsoap/encoded/client.c` (`encoded-client`): rpc/encoded.
    Encoded,
    /// `tests/peers/gsoap/mtom/client.c` (`mtom-client`): EchoData, MTOM or inline.
    Mtom,
    /// `bench/gsoap/client.c` (`lo-client`): the benchmark's WSDL (its `roundtrip` mode).
    Bench,
}

/// Runs the gSOAP client `client` with `args` (building it first if needed) and returns its
/// output line.
///
/// # Panics
///
/// If the client cannot be built or run, or exits with an error (a transport error, a bad
/// argument: a SOAP fault is an output line, not an error).
pub fn gsoap_client(client: GsoapClient, args: &[&str]) -> String {
    static BENCH: OnceLock<PathBuf> = OnceLock::new();
    let path = match client {
        GsoapClient::Echo => gsoap_binary().with_file_name("echo-client"),
        GsoapClient::GlobalWeather => globalweather_binary().with_file_name("weather-client"),
        GsoapClient::Encoded => gsoap_encoded_binary().with_file_name("encoded-client"),
        GsoapClient::Mtom => gsoap_mtom_binary().with_file_name("mtom-client"),
        GsoapClient::Bench => BENCH.get_or_init(|| build_peer(&GSOAP_BENCH_PEER)).clone(),
    };
    let out = std::process::Command::new(&path)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", path.display()));
    assert!(
        out.status.success(),
        "{} {args:?} failed ({}):\n{}",
        path.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
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
