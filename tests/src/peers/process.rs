//! What every peer shares: starting a child process that prints `LISTENING <port>`, and building
//! a peer from source once per machine (an inputs hash as stamp, a lock between processes).

use std::fs::{self, File};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use super::{Peer, STARTUP_TIMEOUT, STDERR_KEEP};

/// How long to wait for another process that is building a C peer.
const BUILD_LOCK_TIMEOUT: Duration = Duration::from_secs(300);
/// A build lock older than this is considered abandoned.
const STALE_LOCK_AGE: Duration = Duration::from_secs(180);

pub(super) struct BuiltPeer {
    /// Directory under `<target-dir>/peers/` and [`Peer::name`].
    pub(super) name: &'static str,
    /// Human name for messages.
    pub(super) title: &'static str,
    /// The build script, relative to the workspace root.
    pub(super) build_sh: &'static str,
    /// File name of the server binary in the output directory.
    pub(super) binary: &'static str,
    /// `(label, path relative to the workspace root)`, hashed in this order.
    pub(super) inputs: &'static [(&'static str, &'static str)],
    /// Bump to force a rebuild when the build procedure changes outside the inputs.
    pub(super) stamp_version: u64,
    /// Build into `<name>-<inputs hash>/` instead of `<name>/`, so that worktrees sharing one
    /// target directory with different versions of the peer each keep their own build instead of
    /// replacing each other's while tests run.
    pub(super) dir_per_inputs: bool,
    pub(super) install_hint: &'static str,
}

pub(super) fn start_built(spec: &BuiltPeer, bin: PathBuf) -> Peer {
    let mut cmd = Command::new(bin);
    cmd.args(["--port", "0", "--exit-with-parent"]);
    start(spec.name, cmd, spec.install_hint)
}

pub(super) fn build_peer(spec: &BuiltPeer) -> PathBuf {
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

/// `tests/peers` in the source tree.
pub(super) fn peers_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("peers")
}

/// The workspace root (the repository's top folder).
pub(super) fn workspace_root() -> PathBuf {
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
pub(super) fn start(name: &'static str, cmd: Command, install_hint: &str) -> Peer {
    start_within(name, cmd, install_hint, STARTUP_TIMEOUT)
}

/// [`start`], waiting up to `timeout` for the `LISTENING <port>` line (for peers slower to start
/// than [`STARTUP_TIMEOUT`] allows on a loaded machine).
pub(super) fn start_within(
    name: &'static str,
    mut cmd: Command,
    install_hint: &str,
    timeout: Duration,
) -> Peer {
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

    match rx.recv_timeout(timeout) {
        Ok(Ok(port)) => Peer {
            name,
            child,
            port,
            stderr,
        },
        Ok(Err(msg)) => fail(&mut child, msg),
        Err(mpsc::RecvTimeoutError::Timeout) => fail(
            &mut child,
            format!("no `LISTENING <port>` line within {timeout:?}"),
        ),
        Err(mpsc::RecvTimeoutError::Disconnected) => fail(
            &mut child,
            "it exited before printing `LISTENING <port>`".into(),
        ),
    }
}
