//! A `multipart/related` body read as it arrives (RFC 2046 §5.1.1, RFC 2387), each part whose
//! body reaches the [`AttachmentStore`]'s threshold written to a file instead of memory: what
//! stays in memory is the message without those bodies (its delimiters, part headers and small
//! parts), which [`parse_multipart_related`](super::parse_multipart_related)'s rules then read,
//! the files' mappings put in place of the bodies left out.

use std::fs::File;
use std::io::Write as _;
use std::path::PathBuf;

use bytes::Bytes;
use memchr::memmem;

use super::store::{map, AttachmentStore};
use super::{
    content_type_parameters, parameter, parse_headers, parse_parts, MimeError, MultipartRelated,
    MAX_HEADER_BYTES,
};

/// A part's body going to a file.
struct Spilled {
    /// The part's position in the message (0: the first).
    ordinal: usize,
    path: PathBuf,
    file: File,
    len: u64,
    /// The last byte written: what precedes the bytes still in memory.
    last: u8,
}

/// Where the reading of the message stands.
enum State {
    /// Before a delimiter line and the headers of the part it opens.
    Outside,
    /// In the body of part `ordinal`, which starts at `start` in `kept`; `identity`: it has no
    /// Content-Transfer-Encoding to undo, so it may go to a file.
    Body {
        start: usize,
        ordinal: usize,
        identity: bool,
        file: Option<Spilled>,
    },
    /// After the close delimiter, or where the message stops following the rules: the rest is
    /// kept, for the parse to read (and report).
    Rest,
}

/// The reading of one `multipart/related` body.
pub(crate) struct Spool<'a> {
    store: &'a AttachmentStore,
    /// `--` and the boundary.
    delimiter: Vec<u8>,
    /// The message without the bodies written to files.
    kept: Vec<u8>,
    /// Where to look for the next delimiter in `kept`.
    scan: usize,
    state: State,
    parts: usize,
    spilled: Vec<Spilled>,
    /// The most bytes `kept` may hold.
    cap: usize,
}

/// Why the reading stopped.
#[derive(Debug)]
pub(crate) enum SpoolError {
    /// More than the limit in memory (`max_response_bytes`) or in one file (the store's).
    TooLarge(String),
    /// A file could not be made, written or mapped.
    Io(String),
    /// The message breaks the rules.
    Mime(MimeError),
}

impl<'a> Spool<'a> {
    /// The reading of a body of Content-Type `content_type`; `None` without a boundary (the
    /// parse reports it).
    pub(crate) fn new(store: &'a AttachmentStore, content_type: &str, cap: usize) -> Option<Self> {
        let params = content_type_parameters(content_type);
        let boundary =
            parameter(&params, "boundary").filter(|b| !b.is_empty() && b.len() <= 200)?;
        Some(Spool {
            store,
            delimiter: format!("--{boundary}").into_bytes(),
            kept: Vec::new(),
            scan: 0,
            state: State::Outside,
            parts: 0,
            spilled: Vec::new(),
            cap,
        })
    }

    /// Reads `chunk`, the next bytes of the body.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Result<(), SpoolError> {
        self.kept.extend_from_slice(chunk);
        while self.step()? {}
        if self.kept.len() > self.cap {
            return Err(SpoolError::TooLarge(format!(
                "the response's envelope, part headers and parts under the attachment store's \
                 threshold exceed the limit of {} bytes (ClientBuilder::max_response_bytes)",
                self.cap
            )));
        }
        Ok(())
    }

    /// Moves on as far as the bytes read allow; whether to go on.
    fn step(&mut self) -> Result<bool, SpoolError> {
        match self.state {
            State::Rest => Ok(false),
            State::Outside => self.outside(),
            State::Body { .. } => self.body(),
        }
    }

    /// A delimiter line and the headers of the part it opens, once read: the part's body
    /// begins; whether to go on.
    fn outside(&mut self) -> Result<bool, SpoolError> {
        let d = self.delimiter.len();
        let kept = &self.kept;
        let finder = memmem::Finder::new(&self.delimiter);
        let mut from = self.scan;
        let at = loop {
            match finder.find(&kept[from..]).map(|i| i + from) {
                Some(i) if i == 0 || kept[i - 1] == b'\n' => break i,
                Some(i) => from = i + 1,
                None => {
                    self.scan = kept.len().saturating_sub(d + 1).max(self.scan);
                    return Ok(false);
                }
            }
        };
        let after = at + d;
        let Some(next) = kept.get(after..after + 2) else {
            return Ok(false);
        };
        if next == b"--" {
            self.state = State::Rest;
            return Ok(false);
        }
        let mut p = after;
        while matches!(kept.get(p), Some(b' ' | b'\t')) {
            p += 1;
        }
        match kept.get(p..p + 2) {
            Some([b'\r', b'\n']) => p += 2,
            Some([b'\n', _]) => p += 1,
            Some(_) => {
                // Not a delimiter line: the parse says so.
                self.state = State::Rest;
                return Ok(false);
            }
            None => return Ok(false),
        }
        let body_start = if kept[p..].starts_with(b"\r\n") {
            Some((p, p + 2))
        } else if kept[p..].starts_with(b"\n") {
            Some((p, p + 1))
        } else {
            let window = &kept[p..kept.len().min(p + MAX_HEADER_BYTES)];
            memmem::find(window, b"\r\n\r\n")
                .map(|i| (p + i, p + i + 4))
                .into_iter()
                .chain(memmem::find(window, b"\n\n").map(|i| (p + i, p + i + 2)))
                .min_by_key(|&(i, _)| i)
        };
        let Some((headers_end, start)) = body_start else {
            if kept.len() - p >= MAX_HEADER_BYTES {
                self.state = State::Rest;
            }
            return Ok(false);
        };
        let headers = parse_headers(&kept[p..headers_end]);
        let identity = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-transfer-encoding"))
            .is_none_or(|(_, v)| {
                matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "binary" | "8bit" | "7bit" | ""
                )
            });
        self.state = State::Body {
            start,
            ordinal: self.parts,
            identity,
            file: None,
        };
        self.parts += 1;
        self.scan = start;
        Ok(true)
    }

    /// Body bytes: to memory or to the part's file, up to the delimiter that ends the part (or
    /// up to what may still begin one); whether to go on.
    fn body(&mut self) -> Result<bool, SpoolError> {
        let d = self.delimiter.len();
        let State::Body {
            start,
            ordinal,
            identity,
            file,
        } = &mut self.state
        else {
            return Ok(false);
        };
        let start = *start;
        let finder = memmem::Finder::new(&self.delimiter);
        let mut from = self.scan.max(start);
        // Where a delimiter may start whose line is not whole yet: nothing from its line
        // end on is part of the body until it is known.
        let mut undecided = usize::MAX;
        // The delimiter: at the start of a line, completed by `--` or a line end.
        // The byte before `i`: in the file when the bytes before it went there.
        let written = file.as_ref().filter(|s| s.len > 0).map(|s| s.last);
        let kept = &self.kept;
        let before = |i: usize| match written {
            Some(b) if i == start => b,
            _ => kept[i - 1],
        };
        let found = loop {
            match finder.find(&kept[from..]).map(|i| i + from) {
                Some(i) if i > 0 && before(i) == b'\n' => {
                    let rest = &kept[i + d..];
                    let pad = rest
                        .iter()
                        .take_while(|b| matches!(b, b' ' | b'\t'))
                        .count();
                    match rest.get(pad) {
                        _ if rest.starts_with(b"--") => break Some(i),
                        // `-`: the close delimiter's, or not a delimiter.
                        _ if rest == b"-" => {
                            undecided = i;
                            break None;
                        }
                        Some(b'\r' | b'\n') => break Some(i),
                        Some(_) => from = i + 1,
                        // Not known yet whether it is one.
                        None => {
                            undecided = i;
                            break None;
                        }
                    }
                }
                Some(i) => from = i + 1,
                None => break None,
            }
        };
        // The line end before the delimiter belongs to it.
        let (end, done) = match found {
            Some(i) => {
                let mut e = i - 1;
                if e > start && kept[e - 1] == b'\r' {
                    e -= 1;
                }
                (e.max(start), true)
            }
            // What may still be the start of a delimiter line stays.
            None => (
                self.kept
                    .len()
                    .saturating_sub(d + 2)
                    .min(undecided.saturating_sub(2))
                    .max(start),
                false,
            ),
        };
        // A part that would not fit in memory's limit goes to a file, whatever the
        // store's threshold.
        let threshold = self.store.threshold_bytes().min(self.cap / 4).max(1);
        let long = end - start >= threshold;
        if file.is_none() && *identity && long {
            let (path, f) = self.store.create().map_err(|e| {
                SpoolError::Io(format!(
                    "an attachment file in {}: {e}",
                    self.store.directory().display()
                ))
            })?;
            *file = Some(Spilled {
                ordinal: *ordinal,
                path,
                file: f,
                len: 0,
                last: 0,
            });
        }
        if let Some(s) = file.as_mut() {
            s.file
                .write_all(&self.kept[start..end])
                .map_err(|e| SpoolError::Io(format!("writing {}: {e}", s.path.display())))?;
            s.len += (end - start) as u64;
            if end > start {
                s.last = self.kept[end - 1];
            }
            if s.len > self.store.max_part_bytes() {
                let path = s.path.clone();
                let _ = std::fs::remove_file(&path);
                return Err(SpoolError::TooLarge(format!(
                    "an attachment is longer than the attachment store's limit of {} bytes \
                     (AttachmentStore::max_bytes)",
                    self.store.max_part_bytes()
                )));
            }
            self.kept.drain(start..end);
        }
        let kept_end = if file.is_some() { start } else { end };
        if !done {
            self.scan = kept_end;
            return Ok(false);
        }
        if let Some(s) = file.take() {
            self.spilled.push(s);
        }
        self.state = State::Outside;
        self.scan = kept_end;
        Ok(true)
    }

    /// The message read: its root part and attachments, the bodies written to files mapped from
    /// them (the parse's rules and errors are
    /// [`parse_multipart_related`](super::parse_multipart_related)'s).
    pub(crate) fn finish(
        mut self,
        content_type: &str,
        max_parts: usize,
    ) -> Result<MultipartRelated, SpoolError> {
        // A part cut short still has its file: the parse reports the truncation.
        if let State::Body { file: Some(s), .. } = std::mem::replace(&mut self.state, State::Rest) {
            let _ = std::fs::remove_file(&s.path);
        }
        let kept = Bytes::from(std::mem::take(&mut self.kept));
        let (mut parts, root) =
            parse_parts(content_type, kept, max_parts).map_err(SpoolError::Mime)?;
        for s in self.spilled {
            let Some(part) = parts.get_mut(s.ordinal).filter(|p| p.body.is_empty()) else {
                let _ = std::fs::remove_file(&s.path);
                return Err(SpoolError::Mime(MimeError::new(
                    format!("part {} could not be matched to its file", s.ordinal + 1),
                    None,
                )));
            };
            map(&s.file, s.len, s.path.clone())
                .map(|b| part.body = b)
                .map_err(|e| SpoolError::Io(format!("mapping {}: {e}", s.path.display())))?;
        }
        Ok(super::split_root(parts, root))
    }
}
