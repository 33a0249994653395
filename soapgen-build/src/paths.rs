//! Paths as the kernel resolves them: what `soapgen generate` writes into a crate and the notes of a
//! generated client name documents relative to a directory, so that they read the same on every
//! machine.

use std::path::{Component, Path, PathBuf};

/// `path` absolute, as the kernel (and so Cargo, from the directory it runs in) resolves it:
/// its longest part that exists with symbolic links and `..` followed on disk, the rest (which
/// does not exist yet) with `.` and `..` taken by their text.
pub fn physical(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let parts: Vec<Component<'_>> = abs.components().collect();
    for i in (0..=parts.len()).rev() {
        let prefix: PathBuf = parts[..i].iter().collect();
        let Ok(mut out) = std::fs::canonicalize(&prefix) else {
            continue;
        };
        for c in &parts[i..] {
            match c {
                Component::ParentDir => {
                    out.pop();
                }
                Component::CurDir => {}
                c => out.push(c),
            }
        }
        return out;
    }
    abs
}

/// `path` relative to the directory `base` (both resolved as [`physical`] does).
pub fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let (path, base) = (physical(path), physical(base));
    let common = path
        .components()
        .zip(base.components())
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = PathBuf::new();
    for _ in base.components().skip(common) {
        rel.push("..");
    }
    for c in path.components().skip(common) {
        rel.push(c);
    }
    if rel.as_os_str().is_empty() {
        rel.push(".");
    }
    rel
}
