//! Paths taken by their text: what `soapgen generate` writes into a crate and the notes of a
//! generated client name documents relative to a directory, so that they read the same on every
//! machine.

use std::path::{Component, Path, PathBuf};

/// `path` with `.` and `..` resolved by its text alone (no symbolic links followed: the path
/// may not exist yet), absolute (from the current directory) when it is relative.
pub(crate) fn lexical(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// `path` relative to the directory `base` (both taken lexically, see [`lexical`]).
pub(crate) fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let (path, base) = (lexical(path), lexical(base));
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
