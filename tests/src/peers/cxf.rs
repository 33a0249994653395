//! Apache CXF (Java): `tests/peers/cxf/CxfPeer.java`, the ports of WSDLs with WS-SecurityPolicy
//! published by CXF 4.2 with its policy engine on, and the CXF policy corpus those WSDLs come from.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use super::process::{build_peer, start_within, workspace_root, BuiltPeer};
use super::Peer;

const CXF_INSTALL_HINT: &str = "apt-get install -y openjdk-17-jdk-headless maven; the first build \
     downloads Apache CXF from Maven Central (see .ci/install-peers.sh, which does it once)";

const CXF_PEER: BuiltPeer = BuiltPeer {
    name: "cxf",
    title: "Apache CXF",
    build_sh: "tests/peers/cxf/build.sh",
    binary: "cxf-peer",
    inputs: &[
        ("build.sh", "tests/peers/cxf/build.sh"),
        ("pom.xml", "tests/peers/cxf/pom.xml"),
        ("CxfPeer.java", "tests/peers/cxf/CxfPeer.java"),
        ("CxfClient.java", "tests/peers/cxf/CxfClient.java"),
    ],
    stamp_version: 1,
    dir_per_inputs: true,
    install_hint: CXF_INSTALL_HINT,
};

/// How long the CXF peer may take to print `LISTENING <port>`: a JVM that loads CXF and publishes
/// every port of its WSDLs (about a second for a hundred ports on an idle machine, many times that
/// on two cores busy compiling).
const CXF_STARTUP_TIMEOUT: Duration = Duration::from_secs(180);

/// Builds (if needed) and starts the Apache CXF peer (CXF 4.2.3 from Maven Central on OpenJDK 17,
/// Jetty 12 with CXF's servlet transport) with `args` added to `--port 0 --exit-with-parent`:
///
/// * `--wsdl FILE` (repeatable, at least one): every port of every service of FILE is published
///   at `/<FILE's name without .wsdl>/<port name>` (e.g. `/DoubleItX509/DoubleItAsymmetricIssuerSerialPort`;
///   `?wsdl` serves the WSDL), with CXF's WS-Policy engine on: CXF enforces the port's effective
///   policy (binding, operation and message policies) on each request and applies it to the
///   response. The WSDL's imports resolve relative to FILE ([`cxf_policy_wsdls`] lays corpus files
///   out so that they do). Every port runs DoubleIt: `numberToDouble` in,
///   `DoubleItResponse/doubledNumber` = twice that out (namespace
///   `http://www.example.org/schema/DoubleIt`, children unqualified); an `echo` payload (the
///   WS-Security interop WSDLs') is returned as `echoResult`, a `PingRequest` (WCF's
///   WS-SecureConversation interop WSDLs') as a `PingResponse` with its scenario, origin and text.
/// * `--keystore service.p12 --storepass changeit [--alias server]`: the service's own key
///   (PKCS#12; the store's first key without `--alias`): it signs responses, decrypts requests,
///   and is the certificate requests are encrypted for;
/// * `--ca ca.pem` (repeatable): a trust anchor for request signatures;
/// * `--cert known.pem` (repeatable): a certificate the peer holds (not an anchor), for request
///   signatures that name it by KeyIdentifier or IssuerSerial. Responses are encrypted for the
///   certificate that signed the request (CXF's `useReqSigCert`);
/// * `--encrypt-for client.pem`: responses are encrypted for this certificate (default: the
///   certificate that signed the request), for policies that encrypt requests without signing
///   them;
/// * `--user NAME:PASSWORD` (repeatable): the UsernameToken accounts its password callback knows;
/// * `--tls-keystore tls.p12 --tls-storepass changeit`: a TLS server key; the one port then speaks
///   HTTP and HTTPS (Jetty tells a TLS handshake from plain HTTP on each connection), so ports with
///   an `sp:HttpsToken` (TransportBinding) are called at [`Peer::https_url`], and CXF refuses them
///   over plain HTTP. No client certificate is asked for;
/// * `--generic-faults`: CXF's default fault text for WS-Security errors (one sentence for every
///   failure). Without it the peer sets CXF's `security.return.security.error`, so a fault names
///   what failed.
///
/// A request that fails the policy is answered with CXF's own SOAP 1.1 fault (HTTP 500), e.g.
/// `These policy alternatives can not be satisfied: {…200702}IncludeTimestamp …` naming each
/// assertion not met. Stderr has one line `PUBLISHED <path> <service> <port>` per port, and one
/// `SKIPPED <path>: <why>` per port the peer cannot serve (a policy with an IssuedToken,
/// SamlToken, KerberosToken or SpnegoContextToken, or one CXF refuses to publish), then CXF's
/// warnings (one line each).
///
/// The build runs Maven once per version of the peer into `<target-dir>/peers/cxf-<inputs hash>/`
/// with the Maven repository `<target-dir>/peers/maven-repo` (kept across versions: only the first
/// build downloads).
///
/// # Panics
///
/// If Java or Maven is missing, the build fails, or the peer does not start (with the packages to
/// install and the peer's stderr).
pub fn cxf(args: &[&str]) -> Peer {
    let mut cmd = Command::new(cxf_binary());
    cmd.args(["--port", "0", "--exit-with-parent"]).args(args);
    start_within(
        CXF_PEER.name,
        cmd,
        CXF_PEER.install_hint,
        CXF_STARTUP_TIMEOUT,
    )
}

/// Path of the CXF peer's launcher, building it if it is missing or stale. Safe to call from
/// several threads and several test binaries at once.
pub fn cxf_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| build_peer(&CXF_PEER)).clone()
}

/// Runs CXF's dynamic JAX-WS client (`tests/peers/cxf/CxfClient.java`, CXF 4.2.3 on OpenJDK 17):
/// it reads the WSDL at `wsdl` (a URL), compiles the JAXB classes of its types as `wsdl2java`
/// would, binds `service`/`port` (local names in the WSDL's target namespace) and makes each
/// call of `calls`, `(operation, JSON)`: the request element (a document/literal operation's
/// wrapper) as a JSON object keyed by its children's names. Returns one JSON line per call:
/// `{"result": {…}}` (the response element, same conventions), `{"fault": {"code", "subcodes",
/// "message", "detail"}}` or `{"error": "…"}` (e.g. a response that fails WS-Security checks).
///
/// `options`: `--mtom` (send MTOM), `--user NAME --password PW` (a UsernameToken digest, by
/// WSS4J's interceptor), `--keystore client.p12 --storepass PW [--alias A] --ca ca.pem` (a
/// Timestamp and the Body signed, RSA-SHA256; responses must be signed by a certificate ca.pem
/// issued).
///
/// # Panics
///
/// If Java or Maven is missing, the build fails, or the client exits with an error (with its
/// stderr).
pub fn cxf_client(
    wsdl: &str,
    service: &str,
    port: &str,
    options: &[&str],
    calls: &[(&str, &str)],
) -> Vec<String> {
    let launcher = cxf_binary().with_file_name("cxf-client");
    let calls: Vec<String> = calls
        .iter()
        .map(|(op, json)| format!("{op}={json}"))
        .collect();
    let out = Command::new(&launcher)
        .args([wsdl, service, port])
        .args(options)
        .args(&calls)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run {} ({e}): {CXF_INSTALL_HINT}",
                launcher.display()
            )
        });
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{} failed ({}):\n{stdout}\n{}",
        launcher.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    // What the client logged (stack traces of calls that gave an error) goes to the test's
    // output, shown when it fails.
    eprintln!("{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<String> = stdout.lines().map(str::to_owned).collect();
    assert_eq!(
        lines.len(),
        calls.len(),
        "one line per call:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    lines
}

/// The CXF policy corpus: the WSDLs of Apache CXF's own WS-Security system tests
/// (`src/test/resources/…` of that module), in the shared corpus folder beside the repository
/// (`../shared/corpus/cxf-policy` from the workspace root). Panics when it is not there.
pub fn cxf_policy_corpus() -> PathBuf {
    let dir = workspace_root().join("../shared/corpus/cxf-policy");
    assert!(
        dir.join("src/test/resources/DoubleItLogical.wsdl")
            .is_file(),
        "the CXF policy corpus is missing: expected {} (the shared corpus folder beside the \
         repository, as CI lays it out)",
        dir.display()
    );
    dir
}

/// The prefix that names a WSDL of the repository's `tests/wsdl/policy/` (combinations the corpus
/// lacks, importing its DoubleIt portType as its WSDLs do) among the files of
/// [`cxf_policy_wsdls`]: `soapgen:DoubleItEndorsingX509.wsdl`.
pub const OWN_POLICY_WSDLS: &str = "soapgen:";

/// Copies the corpus WSDLs `files` (paths under the corpus's `src/test/resources/`, e.g.
/// `org/apache/cxf/systest/ws/x509/DoubleItX509.wsdl`, or [`OWN_POLICY_WSDLS`] and a file name of
/// the repository's `tests/wsdl/policy/`) into one folder of this process, each
/// under its own file name, with the documents they import: by a module-relative location
/// (`location="src/test/resources/…"`, as the DoubleIt WSDLs import `DoubleItLogical.wsdl`) at that
/// relative path, by a file name beside them (as the WS-Security interop WSDLs import each other)
/// beside the copy, and what those import in turn, so that their imports resolve there. Returns
/// the copies' paths, in order. The corpus itself is never changed. Panics if a file is missing or
/// two share a name.
pub fn cxf_policy_wsdls(files: &[&str]) -> Vec<PathBuf> {
    let corpus = cxf_policy_corpus();
    let resources = corpus.join("src/test/resources");
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("wsdl/policy");
    let dir = std::env::temp_dir().join(format!("soapgen-cxf-wsdl-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    let mut out: Vec<PathBuf> = Vec::new();
    for file in files {
        let src = match file.strip_prefix(OWN_POLICY_WSDLS) {
            Some(name) => own.join(name),
            None => resources.join(file),
        };
        let name = src.file_name().expect("a file name").to_owned();
        let dest = dir.join(&name);
        assert!(
            !out.contains(&dest),
            "two corpus WSDLs named {name:?}: {files:?}"
        );
        // (source, copy) of the file and everything it imports, each once.
        let mut todo = vec![(src, dest.clone())];
        let mut done: Vec<PathBuf> = Vec::new();
        while let Some((from, to)) = todo.pop() {
            if done.contains(&from) {
                continue;
            }
            let text = fs::read_to_string(&from)
                .unwrap_or_else(|e| panic!("corpus WSDL {} unreadable: {e}", from.display()));
            copy_if_changed(&text, &to);
            for import in imports(&text) {
                if let Some(rel) = import.strip_prefix("src/test/resources/") {
                    todo.push((resources.join(rel), dir.join(&import)));
                } else if !import.contains(['/', ':']) {
                    let beside = from.parent().expect("a folder").join(&import);
                    todo.push((beside, to.parent().expect("a folder").join(&import)));
                }
            }
            done.push(from);
        }
        out.push(dest);
    }
    out
}

/// The locations `wsdl` imports: the `location="…"` of its `wsdl:import`s and the
/// `schemaLocation="…"` of its schemas' `xsd:import`s and `xsd:include`s (not a soap:address's
/// location).
fn imports(wsdl: &str) -> Vec<String> {
    let mut found = Vec::new();
    for key in ["location=\"", "schemaLocation=\""] {
        let mut rest = wsdl;
        while let Some(at) = rest.find(key) {
            let before = &rest[..at];
            let tag = &before[before.rfind('<').unwrap_or(0)..];
            let value = &rest[at + key.len()..];
            let end = value.find('"').unwrap_or(value.len());
            // The attribute itself, not one that ends with its name.
            let own = before.ends_with(|c: char| c.is_ascii_whitespace());
            if own && (tag.contains(":import") || tag.contains(":include")) {
                let location = value[..end].to_owned();
                if !found.contains(&location) {
                    found.push(location);
                }
            }
            rest = &value[end..];
        }
    }
    found
}

/// Writes `text` to `dest` (creating its folder) unless it already holds exactly that; through a
/// temporary file and a rename, so that concurrent tests never see half a file.
fn copy_if_changed(text: &str, dest: &Path) {
    if fs::read_to_string(dest).is_ok_and(|old| old == text) {
        return;
    }
    let parent = dest.parent().expect("a folder");
    fs::create_dir_all(parent)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", parent.display()));
    let tmp = dest.with_extension(format!("tmp.{:?}", std::thread::current().id()));
    fs::write(&tmp, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", tmp.display()));
    fs::rename(&tmp, dest).unwrap_or_else(|e| panic!("cannot rename to {}: {e}", dest.display()));
}
