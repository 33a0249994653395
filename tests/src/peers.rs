//! Real SOAP peers for the interop tests: a spyne (Python) server and a gSOAP
//! (C) server, started as child processes on 127.0.0.1 with a free port.
//!
//! ```no_run
//! let spyne = soapgen_tests::peers::spyne();
//! let url = spyne.url("/soap11"); // http://127.0.0.1:PORT/soap11
//! let gsoap = soapgen_tests::peers::gsoap();
//! let url12 = gsoap.url("/soap12");
//! ```
//!
//! * spyne: `tests/peers/spyne_server.py`, run with `/usr/bin/python3`
//!   (override with `SOAPGEN_PYTHON`); paths `/soap11`, `/soap12` (+ `?wsdl`).
//! * gSOAP: `tests/peers/gsoap/` is built once per machine by `build.sh` into
//!   `<target-dir>/peers/gsoap/` and rebuilt only when `build.sh`, `echo.wsdl`
//!   or `server.c` change.  Any path works; the reply's SOAP version follows
//!   the request envelope.
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
/// How long to wait for another process that is building the gSOAP peer.
const BUILD_LOCK_TIMEOUT: Duration = Duration::from_secs(300);
/// A build lock older than this is considered abandoned.
const STALE_LOCK_AGE: Duration = Duration::from_secs(180);
/// Keep at most this much of a peer's stderr (the tail) for diagnostics.
const STDERR_KEEP: usize = 64 * 1024;

const SPYNE_INSTALL_HINT: &str =
    "apt-get install -y python3-spyne python3-lxml (see .ci/install-peers.sh)";
const GSOAP_INSTALL_HINT: &str =
    "apt-get install -y gsoap libgsoap-dev pkg-config gcc (see .ci/install-peers.sh)";

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

    /// `"spyne"` or `"gsoap"`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// What the server wrote to stderr so far (tail), for failure messages.
    pub fn stderr_output(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
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
// gSOAP
// --------------------------------------------------------------------------

/// Builds (if needed) and starts the gSOAP echo server (`urn:soapgen:gsoap`,
/// operations echo / fail / whoami, SOAP 1.1 and 1.2 on any path).
pub fn gsoap() -> Peer {
    let bin = gsoap_binary();
    let mut cmd = Command::new(bin);
    cmd.args(["--port", "0", "--exit-with-parent"]);
    start("gsoap", cmd, GSOAP_INSTALL_HINT)
}

/// Path of the built gSOAP server, building it if it is missing or stale.
/// Safe to call from several threads and several test binaries at once.
pub fn gsoap_binary() -> PathBuf {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(build_gsoap).clone()
}

const GSOAP_INPUTS: [&str; 3] = ["build.sh", "echo.wsdl", "server.c"];
/// Bump to force a rebuild when the build procedure changes outside the inputs.
const GSOAP_STAMP_VERSION: u64 = 1;

fn build_gsoap() -> PathBuf {
    let src = peers_dir().join("gsoap");
    let out = target_dir().join("peers").join("gsoap");
    let bin = out.join("echo-server");
    let stamp = out.join("inputs.stamp");
    let lock = out.join("build.lock");

    fs::create_dir_all(&out).unwrap_or_else(|e| panic!("cannot create {}: {e}", out.display()));
    let want = gsoap_inputs_hash(&src);
    let up_to_date =
        |bin: &Path| bin.is_file() && read_stamp(&stamp).as_deref() == Some(want.as_str());

    if up_to_date(&bin) {
        return bin;
    }

    let _guard = BuildLock::acquire(&lock);
    // Somebody else may have finished the build while we waited.
    if up_to_date(&bin) {
        return bin;
    }

    let _ = fs::remove_file(&stamp);
    let build_sh = src.join("build.sh");
    let output = Command::new("bash")
        .arg(&build_sh)
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash {} ({e}); install bash", build_sh.display()));
    if !output.status.success() {
        panic!(
            "building the gSOAP peer failed ({}): {} {}\n--- stdout ---\n{}\n--- stderr ---\n{}\n\
             The gSOAP peer needs wsdl2h/soapcpp2, libgsoap-dev, pkg-config and gcc: {}",
            output.status,
            build_sh.display(),
            out.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            GSOAP_INSTALL_HINT
        );
    }
    assert!(
        bin.is_file(),
        "gSOAP build succeeded but {} is missing",
        bin.display()
    );
    write_atomically(&stamp, want.as_bytes());
    bin
}

/// FNV-1a 64 over (name, length, bytes) of each input; std-only and stable
/// across Rust versions (unlike `DefaultHasher`).
fn gsoap_inputs_hash(src: &Path) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    feed(&GSOAP_STAMP_VERSION.to_le_bytes());
    for name in GSOAP_INPUTS {
        let path = src.join(name);
        let data = fs::read(&path)
            .unwrap_or_else(|e| panic!("gSOAP peer input {} unreadable: {e}", path.display()));
        feed(name.as_bytes());
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
    fn acquire(path: &Path) -> BuildLock {
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
                            "soapgen-tests: removing stale gSOAP build lock {} ({reason})",
                            path.display()
                        );
                        let _ = fs::remove_file(path);
                        continue;
                    }
                    if started.elapsed() > BUILD_LOCK_TIMEOUT {
                        panic!(
                            "timed out after {:?} waiting for the gSOAP build lock {} \
                             (held by another test process; delete it if no build is running)",
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
