//! WSS4J (Java): `tests/peers/wss4j/Wss4jPeer.java`, a WS-Security server, a request maker and a
//! message processor.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use super::process::{build_peer, start, BuiltPeer};
use super::Peer;

const WSS4J_INSTALL_HINT: &str = "apt-get install -y openjdk-17-jdk-headless libwss4j-java \
     libxml-security-java libcommons-logging-java libslf4j-java (see .ci/install-peers.sh)";

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
