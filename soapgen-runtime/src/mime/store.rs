//! Attachments written to files as they arrive ([`AttachmentStore`]), their bytes then mapped
//! from the file: a response's gigabyte attachment costs disk, not memory.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;

/// Where a response's large MIME attachments go (MTOM/XOP parts, SOAP with Attachments parts,
/// RFC 2387 `multipart/related`): each part whose body reaches
/// [`threshold`](Self::threshold) bytes is written to a new file in a directory as it arrives,
/// and its bytes in the result (an [`Attachment`](super::Attachment), a `Base64Binary` read from
/// an `xop:Include`) are the file mapped into memory: nothing of it is held in the process's
/// memory until it is read, and reading it pages it in from the file. [`file_of`] gives the
/// file of such bytes, to move it where it belongs.
///
/// The files are kept when the values are dropped: the application moves or removes them (named
/// `soapgen-<process id>-<count>.part` in the directory). Set on a client with
/// [`ClientBuilder::attachment_store`](crate::ClientBuilder::attachment_store).
///
/// # Examples
///
/// ```no_run
/// use soapgen_runtime::mime::AttachmentStore;
/// let client = soapgen_runtime::Client::builder("https://example.org/archive")
///     .attachment_store(AttachmentStore::dir("/var/spool/archive").threshold(1 << 20))
///     .build()?;
/// # Ok::<(), soapgen_runtime::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct AttachmentStore {
    dir: PathBuf,
    threshold: usize,
    max_bytes: u64,
}

impl AttachmentStore {
    /// Parts of 1 MiB or more go to new files in `dir` (which must exist when a response comes).
    pub fn dir(dir: impl Into<PathBuf>) -> Self {
        AttachmentStore {
            dir: dir.into(),
            threshold: 1 << 20,
            max_bytes: 64 << 30,
        }
    }

    /// The size from which a part goes to a file, in bytes (default 1 MiB); smaller parts stay
    /// in memory, as without a store.
    pub fn threshold(mut self, bytes: usize) -> Self {
        self.threshold = bytes.max(1);
        self
    }

    /// The most bytes one part may write to its file (default 64 GiB): a longer part fails the
    /// call with [`TransportErrorKind::TooLarge`](crate::error::TransportErrorKind::TooLarge)
    /// and its file is removed.
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        self.max_bytes = bytes;
        self
    }

    /// The directory.
    pub fn directory(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn threshold_bytes(&self) -> usize {
        self.threshold
    }

    pub(crate) fn max_part_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// A new file for a part.
    pub(crate) fn create(&self) -> std::io::Result<(PathBuf, File)> {
        static COUNT: AtomicU64 = AtomicU64::new(0);
        loop {
            let n = COUNT.fetch_add(1, Ordering::Relaxed);
            let path = self
                .dir
                .join(format!("soapgen-{}-{n}.part", std::process::id()));
            match File::options()
                .read(true)
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(f) => return Ok((path, f)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
}

/// The mapped files, by the address range of their mapping: what [`file_of`] looks up.
static MAPPED: Mutex<BTreeMap<usize, (usize, Arc<PathBuf>)>> = Mutex::new(BTreeMap::new());

/// A file's mapping, owned by the [`Bytes`] of its part; its entry in [`MAPPED`] goes with it.
struct Mapped {
    map: memmap2::Mmap,
}

impl AsRef<[u8]> for Mapped {
    fn as_ref(&self) -> &[u8] {
        &self.map
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        if let Ok(mut m) = MAPPED.lock() {
            m.remove(&(self.map.as_ptr() as usize));
        }
    }
}

/// The bytes of `file` (`len` of them, all written), mapped read-only; `path` is where it is.
pub(crate) fn map(file: &File, len: u64, path: PathBuf) -> std::io::Result<Bytes> {
    if len == 0 {
        return Ok(Bytes::new());
    }
    // Safety: the file is one this process created for the part (`create_new`) and has
    // finished writing; nothing in the process writes it again. Another process changing it
    // would change the bytes seen, which is why `AttachmentStore`'s docs give the directory to
    // the application alone.
    let map = unsafe { memmap2::MmapOptions::new().len(len as usize).map(file)? };
    let start = map.as_ptr() as usize;
    if let Ok(mut m) = MAPPED.lock() {
        m.insert(start, (map.len(), Arc::new(path)));
    }
    Ok(Bytes::from_owner(Mapped { map }))
}

/// The file that `data` (bytes of an attachment an [`AttachmentStore`] wrote, or a part of
/// them) was mapped from, if it was: to rename or copy it where it belongs without reading it
/// into memory. `None` for bytes held in memory.
pub fn file_of(data: &[u8]) -> Option<PathBuf> {
    let at = data.as_ptr() as usize;
    let m = MAPPED.lock().ok()?;
    let (&start, (len, path)) = m.range(..=at).next_back()?;
    (at + data.len() <= start + len).then(|| (**path).clone())
}
