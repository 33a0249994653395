//! MIT Kerberos (Debian's `krb5-kdc`) with a realm of the tests' own, and two HTTP acceptors in
//! front of another peer: Apache httpd with `mod_auth_gssapi`, and pyspnego's SPNEGO acceptor
//! with MIT's GSS-API (Python `gssapi`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::process::{peers_dir, start};
use super::spyne::python;
use super::Peer;

const KERBEROS_INSTALL_HINT: &str = "apt-get install krb5-kdc krb5-admin-server krb5-user \
     apache2 libapache2-mod-auth-gssapi, and /usr/bin/python3 -m pip install \
     --break-system-packages pyspnego gssapi krb5 (see .ci/install-peers.sh)";

/// The test realm `SOAPGEN.TEST`: its KDC (a [`Peer`] whose stderr has `kdc <line>` per line of
/// the KDC's log) and its folder (`krb5.conf`, `http.keytab` with `HTTP/localhost`,
/// `alice.keytab`). Principals: `alice` (password `alice-pw`), `HTTP/localhost`, and
/// `HTTP/elsewhere`, which the KDC knows and no acceptor holds.
pub struct Realm {
    /// The running KDC.
    pub kdc: Peer,
    dir: PathBuf,
}

/// The realm's name.
pub const REALM: &str = "SOAPGEN.TEST";
/// `alice`'s password.
pub const ALICE_PASSWORD: &str = "alice-pw";

impl Realm {
    /// The folder of the realm's files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// `krb5.conf`, which this process uses (`KRB5_CONFIG` is set to it when the realm starts).
    pub fn krb5_conf(&self) -> PathBuf {
        self.dir.join("krb5.conf")
    }

    /// The acceptors' keytab (`HTTP/localhost`).
    pub fn http_keytab(&self) -> PathBuf {
        self.dir.join("http.keytab")
    }

    /// `alice`'s client keytab.
    pub fn alice_keytab(&self) -> PathBuf {
        self.dir.join("alice.keytab")
    }

    /// A new credential cache `name` in the realm's folder with `alice`'s ticket-granting ticket,
    /// by MIT's `kinit` with her password, its lifetime `lifetime` (kinit's `-l`, e.g. `"10h"`,
    /// `"2s"`).
    pub fn kinit(&self, name: &str, lifetime: &str) -> PathBuf {
        let cache = self.dir.join(name);
        let _ = std::fs::remove_file(&cache);
        let mut child = Command::new("kinit")
            .args(["-l", lifetime, "-c"])
            .arg(&cache)
            .arg("alice")
            .env("KRB5_CONFIG", self.krb5_conf())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run kinit: {e}\ninstall: {KERBEROS_INSTALL_HINT}"));
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("piped");
        writeln!(stdin, "{ALICE_PASSWORD}").expect("kinit reads the password");
        drop(stdin);
        assert!(child.wait().expect("kinit").success(), "kinit failed");
        cache
    }
}

/// The realm, made and its KDC started once per test process; `KRB5_CONFIG` is set to its
/// `krb5.conf` before anything in the process uses Kerberos.
pub fn kerberos_realm() -> &'static Realm {
    static REALM_ONCE: OnceLock<Realm> = OnceLock::new();
    REALM_ONCE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("soapgen-krb5-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut cmd = Command::new(python());
        cmd.arg(peers_dir().join("kerberos_peer.py"))
            .args(["kdc", "--port", "0", "--exit-with-parent", "--dir"])
            .arg(&dir);
        let kdc = start("krb5kdc", cmd, KERBEROS_INSTALL_HINT);
        // Every Kerberos client of this process reads this configuration (MIT krb5 has no other
        // way to be given one); set before the first test uses Kerberos, which all do through
        // this function.
        std::env::set_var("KRB5_CONFIG", dir.join("krb5.conf"));
        Realm { kdc, dir }
    })
}

/// Apache httpd with `mod_auth_gssapi` (`AuthType GSSAPI`, Kerberos in SPNEGO, the realm's
/// `HTTP/localhost` key) in front of `backend`: every request must authenticate (no connection
/// is trusted after its first request). Its stderr has `access <status> <method> <path>
/// <principal>` per request and `error <line>` for httpd's error log.
pub fn kerberos_httpd(realm: &Realm, backend: &str) -> Peer {
    let mut cmd = Command::new(python());
    cmd.arg(peers_dir().join("kerberos_peer.py"))
        .args(["httpd", "--port", "0", "--exit-with-parent", "--dir"])
        .arg(realm.dir())
        .args(["--backend", backend]);
    start("httpd", cmd, KERBEROS_INSTALL_HINT)
}

/// pyspnego's SPNEGO acceptor (`tests/peers/ntlm_server.py --protocol negotiate`) with MIT's
/// GSS-API, the realm's `HTTP/localhost` key, in front of `backend`, with `extra` options
/// (`--tamper-final-mic` flips a bit at the end of its final token). Each keep-alive
/// connection authenticates once. Its stderr is `ntlm_server.py`'s (`ok connection=C
/// user=alice@SOAPGEN.TEST protocol=kerberos final=yes`, `refused connection=C: …`).
pub fn kerberos_pyspnego(realm: &Realm, backend: &str, extra: &[&str]) -> Peer {
    let (conf, keytab) = (realm.krb5_conf(), realm.http_keytab());
    super::spnego_acceptor(
        "pyspnego-kerberos",
        backend,
        "negotiate",
        extra,
        &[
            ("KRB5_CONFIG", conf.as_os_str()),
            ("KRB5_KTNAME", keytab.as_os_str()),
            ("NTLM_USER_FILE", "/dev/null".as_ref()),
        ],
    )
}
