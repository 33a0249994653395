//! Base64 (RFC 4648 §4, the alphabet of XML Schema Part 2 §3.2.16 base64Binary) decoded while the text
//! streams past, whatever its line breaks.
//!
//! SOAP stacks send base64 in one unbroken run, in MIME lines (RFC 2045 §6.8: 76 columns, CRLF), in
//! 64-column lines, in irregular lines (73 columns is common), and sometimes with every CR written as
//! the character reference `&#13;`. [`Decoder`] takes the element's text in whatever pieces the XML
//! reader yields and writes the bytes straight into its output buffer:
//!
//! - there is no first attempt that fails on whitespace, and no pass that strips whitespace by copying;
//! - after the first line break it knows the line length and the line-end sequence, and decodes each
//!   following line as a whole with the vector kernel, carrying the one to three characters of an
//!   unfinished group from one line to the next (so 73-column lines cost nearly what 76-column ones
//!   do);
//! - anything irregular (a longer or shorter line, spaces, tabs) falls back to a per-character path
//!   that accepts XML whitespace (XML 1.0 §2.3 `S`) anywhere, then returns to the fast path.
//!
//! It is strict where XML Schema is: a character outside the alphabet, `=` anywhere but at the end, a
//! wrong amount of padding, or non-zero unused bits in the final group (XSD 1.0 only has canonical
//! final groups) are errors carrying the offset in the text.
//!
//! On x86-64 with AVX2 (detected at run time) 32 characters are decoded at a time with the
//! vectorised lookup of Muła and Lemire ("Faster Base64 Encoding and Decoding Using AVX2
//! Instructions", ACM TOW 2018); elsewhere a table decoder does four characters at a time.
//!
//! # Examples
//!
//! ```
//! use soapgen_runtime::base64::Decoder;
//! let mut d = Decoder::new();
//! d.feed(b"SGVsbG8s\r\nIHdvcmxk")?; // pieces as the XML reader yields them
//! d.feed(b"IQ==")?;
//! assert_eq!(d.finish()?, b"Hello, world!");
//! # Ok::<(), soapgen_runtime::base64::Base64Error>(())
//! ```

#[cfg(target_arch = "x86_64")]
mod avx2;

use std::fmt;
use std::mem::MaybeUninit;

/// Marks in [`DECODE`] for bytes that are not alphabet characters.
const INVALID: u8 = 0xFF;
const SPACE: u8 = 0xFE;
const PAD: u8 = 0xFD;

/// The 64-character alphabet (RFC 4648 Table 1).
const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Byte → 6-bit value, or [`SPACE`], [`PAD`] or [`INVALID`].
static DECODE: [u8; 256] = {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        t[ALPHABET[i] as usize] = i as u8;
        i += 1;
    }
    t[b' ' as usize] = SPACE;
    t[b'\t' as usize] = SPACE;
    t[b'\r' as usize] = SPACE;
    t[b'\n' as usize] = SPACE;
    t[b'=' as usize] = PAD;
    t
};

/// Output bytes a vector kernel may write past the bytes it produces (a 32-byte store of 24 bytes).
const SLACK: usize = 32;

/// Why base64 text was refused; [`Base64Error::offset`] is the byte offset in the text fed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Base64ErrorKind {
    /// A character outside the alphabet and not XML whitespace.
    InvalidCharacter(char),
    /// Data after the padding that ended the text (at the error offset); the padding began at
    /// `padding_at`.
    DataAfterPadding {
        /// Offset of the first `=`.
        padding_at: usize,
    },
    /// `=` where a data character was expected (at the start of a group, or after one character).
    MisplacedPadding,
    /// More `=` than the final group needs.
    ExcessPadding,
    /// The text ended in the middle of a group: `chars` characters of it (1–3) were given and the
    /// `=` padding to four is missing or incomplete.
    Incomplete {
        /// Characters of the unfinished group.
        chars: usize,
        /// `=` characters present.
        padding: usize,
    },
    /// The last data character (at the error offset) has non-zero bits that the final group does not
    /// use: not a canonical encoding (XML Schema Part 2 §3.2.16 lexical space).
    NonCanonical(char),
}

/// Base64 text that is not valid: what and where (byte offset in the text given to the decoder).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Base64Error {
    /// Byte offset in the text of the offending character (for [`Base64ErrorKind::Incomplete`], the
    /// length of the text).
    pub offset: usize,
    /// What is wrong.
    pub kind: Base64ErrorKind,
}

impl fmt::Display for Base64Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = self.offset;
        match &self.kind {
            Base64ErrorKind::InvalidCharacter(c) => {
                write!(f, "invalid character {c:?} at offset {at}")
            }
            Base64ErrorKind::DataAfterPadding { padding_at } => write!(
                f,
                "padding '=' at offset {padding_at} is followed by data at offset {at} ('=' may \
                 only end the text)"
            ),
            Base64ErrorKind::MisplacedPadding => write!(
                f,
                "padding '=' at offset {at} where a data character is expected (padding follows \
                 two or three characters of the last group)"
            ),
            Base64ErrorKind::ExcessPadding => {
                write!(f, "too much padding: extra '=' at offset {at}")
            }
            Base64ErrorKind::Incomplete { chars: 1, .. } => write!(
                f,
                "the text ends after one character of a group of four (offset {at}): \
                 base64 data is missing"
            ),
            Base64ErrorKind::Incomplete { chars, padding } => write!(
                f,
                "incorrect padding: the last group has {chars} characters and {padding} '=' \
                 at the end of the text (offset {at}); it must be padded to four with '='"
            ),
            Base64ErrorKind::NonCanonical(c) => write!(
                f,
                "character {c:?} at offset {at} has non-zero unused bits (not a canonical final \
                 group)"
            ),
        }
    }
}

impl std::error::Error for Base64Error {}

/// Decodes `text` (RFC 4648 §4 alphabet, XML whitespace ignored anywhere, `=` padding required).
///
/// # Errors
///
/// [`Base64Error`] with the byte offset of the first invalid character or the padding problem.
///
/// # Examples
///
/// ```
/// assert_eq!(soapgen_runtime::base64::decode(b"TWFu\r\nTWE=")?, b"ManMa");
/// assert!(soapgen_runtime::base64::decode(b"TW*u").is_err());
/// # Ok::<(), soapgen_runtime::base64::Base64Error>(())
/// ```
pub fn decode(text: &[u8]) -> Result<Vec<u8>, Base64Error> {
    let mut d = Decoder::with_capacity(text.len() / 4 * 3);
    d.feed(text)?;
    d.finish()
}

/// The padding seen at the end of the text.
#[derive(Debug, Clone, Copy)]
struct Padding {
    /// Offset of the first `=`.
    at: usize,
    /// `=` characters seen.
    count: usize,
    /// `=` characters the final group needs (1 or 2).
    needed: usize,
}

/// The line structure learnt from the last line break: `len` alphabet characters, then `brk`.
#[derive(Debug, Clone, Copy)]
struct LineModel {
    len: usize,
    brk: [u8; 2],
    brk_len: usize,
}

impl LineModel {
    fn brk(&self) -> &[u8] {
        &self.brk[..self.brk_len]
    }
}

/// A streaming base64 decoder: [`feed`](Self::feed) the text in pieces of any size (split anywhere,
/// even inside a group or a CRLF), then [`finish`](Self::finish).
///
/// Memory: the output buffer only (three bytes for every four characters, plus 32 bytes of slack).
#[derive(Debug, Clone)]
pub struct Decoder {
    out: Vec<u8>,
    /// 6-bit values of the unfinished group.
    quad: [u8; 4],
    /// How many of `quad` are set (0–3).
    n: usize,
    /// Offset of the next byte to be fed.
    fed: usize,
    padding: Option<Padding>,
    /// Offset and byte of the last data character (for the canonical-bits error).
    last_data: (usize, u8),
    /// Offset where the current run of alphabet characters began.
    run_start: usize,
    /// Length of the alphabet run before the current whitespace run.
    last_run: usize,
    /// The first two bytes of the current whitespace run, and its length.
    ws: [u8; 2],
    ws_len: usize,
    line: Option<LineModel>,
    at_line_start: bool,
    simd: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder with an empty output buffer.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// A decoder whose output buffer starts with room for `bytes` decoded bytes (saves growing it when
    /// the size is known, e.g. three quarters of the text length).
    pub fn with_capacity(bytes: usize) -> Self {
        Decoder {
            out: Vec::with_capacity(bytes.saturating_add(SLACK)),
            quad: [0; 4],
            n: 0,
            fed: 0,
            padding: None,
            last_data: (0, 0),
            run_start: 0,
            last_run: 0,
            ws: [0; 2],
            ws_len: 0,
            line: None,
            at_line_start: false,
            simd: simd_available(),
        }
    }

    /// The same decoder without the vector kernel (for tests comparing the two paths).
    #[doc(hidden)]
    pub fn without_simd(mut self) -> Self {
        self.simd = false;
        self
    }

    /// Whether any base64 character or `=` was fed (whitespace alone is no data).
    pub fn has_data(&self) -> bool {
        !self.out.is_empty() || self.n > 0 || self.padding.is_some()
    }

    /// Bytes fed so far.
    pub fn consumed(&self) -> usize {
        self.fed
    }

    /// Decodes the next piece of text. Pieces may split the text anywhere.
    ///
    /// # Errors
    ///
    /// [`Base64Error`] at the first invalid character or misplaced `=` (offset counted from the first
    /// byte ever fed). After an error the decoder should be dropped.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), Base64Error> {
        let base = self.fed;
        self.out.reserve(chunk.len() / 4 * 3 + 3 + SLACK);
        let mut i = 0;
        while i < chunk.len() {
            if self.ws_len > 0 && DECODE[usize::from(chunk[i])] < 64 {
                // A line break that ended the previous piece: the line shape is known now.
                self.end_whitespace(base + i);
            }
            if self.padding.is_none() {
                #[cfg(target_arch = "x86_64")]
                if self.n == 0 && self.ws_len == 0 && self.simd {
                    if let Some(model) = self.line {
                        let pos = base + i;
                        if let Some(in_line) =
                            pos.checked_sub(self.run_start).filter(|&c| c <= model.len)
                        {
                            i += self.simd_lines(&chunk[i..], pos, model, model.len - in_line);
                            if i >= chunk.len() {
                                break;
                            }
                        }
                    }
                }
                if self.at_line_start {
                    if let Some(model) = self.line {
                        let j = self.whole_lines(chunk, i, base, model);
                        if j != i {
                            // Back to the top: the vector path may take over.
                            i = j;
                            continue;
                        }
                    }
                }
                if self.n == 0 {
                    i += self.bulk(&chunk[i..]);
                    if i >= chunk.len() {
                        break;
                    }
                }
            }
            self.step(chunk, i, base)?;
            i += 1;
        }
        self.fed = base + chunk.len();
        Ok(())
    }

    /// Ends the text and returns the decoded bytes.
    ///
    /// # Errors
    ///
    /// [`Base64ErrorKind::Incomplete`] if the text stopped inside a group or its padding.
    pub fn finish(self) -> Result<Vec<u8>, Base64Error> {
        if let Some(p) = self.padding {
            if p.count < p.needed {
                return Err(Base64Error {
                    offset: self.fed,
                    kind: Base64ErrorKind::Incomplete {
                        chars: 4 - p.needed,
                        padding: p.count,
                    },
                });
            }
        } else if self.n != 0 {
            return Err(Base64Error {
                offset: self.fed,
                kind: Base64ErrorKind::Incomplete {
                    chars: self.n,
                    padding: 0,
                },
            });
        }
        Ok(self.out)
    }

    /// The vector path over regular lines (see [`avx2::decode_lines`]), from `s` at text offset `pos`,
    /// `to_break` characters before the next line break; returns the bytes consumed.
    #[cfg(target_arch = "x86_64")]
    fn simd_lines(&mut self, s: &[u8], pos: usize, model: LineModel, to_break: usize) -> usize {
        let start = self.out.len();
        let spare = self.out.spare_capacity_mut();
        // SAFETY: `simd` is only set when AVX2 was detected.
        let end = unsafe { avx2::decode_lines(s, spare, model.len, model.brk(), to_break) };
        // SAFETY: `decode_lines` initialised `written` bytes after `start`.
        unsafe { self.out.set_len(start + end.written) };
        if end.consumed > 0 {
            self.at_line_start = false;
            self.run_start = (pos + end.consumed).saturating_sub(model.len - end.to_break);
        }
        end.consumed
    }

    /// Consumes whole lines of `model`'s shape from `chunk[i..]`; returns the new position.
    fn whole_lines(&mut self, chunk: &[u8], mut i: usize, base: usize, model: LineModel) -> usize {
        let brk = model.brk();
        loop {
            let end = i + model.len;
            let Some(line) = chunk.get(i..end) else {
                return i;
            };
            let rest = &chunk[end..];
            let ends_chunk = rest.is_empty();
            if !ends_chunk && !rest.starts_with(brk) {
                return i;
            }
            if !self.decode_line(line, base + i) {
                return i;
            }
            if self.simd && self.n == 0 && model.len >= 32 && !ends_chunk {
                // No unfinished group: the vector path takes lines from here.
                i = end + brk.len();
                self.run_start = base + i;
                return i;
            }
            if ends_chunk {
                // The break (if any) comes in the next piece: the run continues until then.
                self.run_start = base + i;
                self.at_line_start = false;
                return end;
            }
            i = end + brk.len();
            self.run_start = base + i;
        }
    }

    /// Decodes one line known to hold only alphabet characters (checked: `false` and nothing
    /// consumed otherwise), completing the unfinished group and keeping the new one.
    fn decode_line(&mut self, line: &[u8], offset: usize) -> bool {
        let n = self.n;
        let need = (4 - n) % 4;
        if line.len() < need {
            return false;
        }
        let mut head = self.quad;
        for (k, &b) in line[..need].iter().enumerate() {
            let v = DECODE[usize::from(b)];
            if v >= 64 {
                return false;
            }
            head[n + k] = v;
        }
        let body = &line[need..];
        let aligned = body.len() & !3;
        let rest = &body[aligned..];
        let mut rest_values = [0u8; 3];
        for (k, &b) in rest.iter().enumerate() {
            let v = DECODE[usize::from(b)];
            if v >= 64 {
                return false;
            }
            rest_values[k] = v;
        }
        let start = self.out.len();
        self.out.reserve(3 + aligned / 4 * 3 + SLACK);
        let spare = self.out.spare_capacity_mut();
        let mut w = 0;
        if need > 0 {
            let [a, b, c] = group(head);
            spare[0].write(a);
            spare[1].write(b);
            spare[2].write(c);
            w = 3;
        }
        if !decode_aligned(&body[..aligned], &mut spare[w..], self.simd) {
            return false;
        }
        // SAFETY: `decode_aligned` initialised `aligned / 4 * 3` bytes after the `w` written above.
        unsafe { self.out.set_len(start + w + aligned / 4 * 3) };
        self.quad[..rest.len()].copy_from_slice(&rest_values[..rest.len()]);
        self.n = rest.len();
        if let Some(&last) = line.last() {
            self.last_data = (offset + line.len() - 1, last);
        }
        true
    }

    /// Decodes the longest prefix of whole groups of alphabet characters; returns its length.
    fn bulk(&mut self, s: &[u8]) -> usize {
        let start = self.out.len();
        let spare = self.out.spare_capacity_mut();
        let mut i = 0;
        let mut o = 0;
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only set when AVX2 was detected.
            i = unsafe { avx2::decode_blocks(s, spare) };
            o = i / 4 * 3;
        }
        while let (Some(q), Some(dst)) = (s.get(i..i + 4), spare.get_mut(o..o + 3)) {
            let Some(bytes) = quantum(q) else { break };
            for (d, b) in dst.iter_mut().zip(bytes) {
                d.write(b);
            }
            i += 4;
            o += 3;
        }
        // SAFETY: `o` bytes after `start` were written above.
        unsafe { self.out.set_len(start + o) };
        if i > 0 {
            self.at_line_start = false;
        }
        i
    }

    /// The per-character path: one byte at `chunk[i]`.
    fn step(&mut self, chunk: &[u8], i: usize, base: usize) -> Result<(), Base64Error> {
        let b = chunk[i];
        let offset = base + i;
        match DECODE[usize::from(b)] {
            v if v < 64 => {
                if let Some(p) = self.padding {
                    return Err(Base64Error {
                        offset,
                        kind: Base64ErrorKind::DataAfterPadding { padding_at: p.at },
                    });
                }
                if self.ws_len > 0 {
                    self.end_whitespace(offset);
                }
                self.at_line_start = false;
                self.last_data = (offset, b);
                self.quad[self.n] = v;
                self.n += 1;
                if self.n == 4 {
                    let bytes = group(self.quad);
                    self.out.extend_from_slice(&bytes);
                    self.n = 0;
                }
            }
            SPACE => {
                if self.ws_len == 0 {
                    self.last_run = offset - self.run_start;
                }
                if let Some(slot) = self.ws.get_mut(self.ws_len) {
                    *slot = b;
                }
                self.ws_len += 1;
                self.at_line_start = true;
                // Learn the line shape now if the next byte starts the next line.
                if chunk
                    .get(i + 1)
                    .is_some_and(|&next| DECODE[usize::from(next)] < 64)
                {
                    self.end_whitespace(offset + 1);
                }
            }
            PAD => {
                self.ws_len = 0;
                self.at_line_start = false;
                match &mut self.padding {
                    None => {
                        if self.n < 2 {
                            return Err(Base64Error {
                                offset,
                                kind: Base64ErrorKind::MisplacedPadding,
                            });
                        }
                        let needed = 4 - self.n;
                        self.padding = Some(Padding {
                            at: offset,
                            count: 1,
                            needed,
                        });
                        if needed == 1 {
                            self.final_group()?;
                        }
                    }
                    Some(p) => {
                        if p.count >= p.needed {
                            return Err(Base64Error {
                                offset,
                                kind: Base64ErrorKind::ExcessPadding,
                            });
                        }
                        p.count += 1;
                        if p.count == p.needed {
                            self.final_group()?;
                        }
                    }
                }
            }
            _ => {
                return Err(Base64Error {
                    offset,
                    kind: Base64ErrorKind::InvalidCharacter(char_at(chunk, i)),
                })
            }
        }
        Ok(())
    }

    /// At the first alphabet character (at `offset`) after whitespace: learn the line shape.
    fn end_whitespace(&mut self, offset: usize) {
        self.line = (self.ws_len <= 2 && self.last_run >= 4).then_some(LineModel {
            len: self.last_run,
            brk: self.ws,
            brk_len: self.ws_len,
        });
        self.ws_len = 0;
        self.run_start = offset;
    }

    /// Emits the one or two bytes of a padded final group, checking its unused bits.
    fn final_group(&mut self) -> Result<(), Base64Error> {
        let unused = match self.n {
            2 => self.quad[1] & 0x0F,
            _ => self.quad[2] & 0x03,
        };
        if unused != 0 {
            let (offset, b) = self.last_data;
            return Err(Base64Error {
                offset,
                kind: Base64ErrorKind::NonCanonical(char::from(b)),
            });
        }
        let mut q = self.quad;
        q[self.n..].fill(0);
        let bytes = group(q);
        self.out.extend_from_slice(&bytes[..self.n - 1]);
        self.n = 0;
        Ok(())
    }
}

/// Whether the vector kernel can run here.
fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Four 6-bit values → three bytes.
fn group(q: [u8; 4]) -> [u8; 3] {
    let v = (u32::from(q[0]) << 18)
        | (u32::from(q[1]) << 12)
        | (u32::from(q[2]) << 6)
        | u32::from(q[3]);
    [(v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// Four alphabet characters → three bytes; `None` if any is not in the alphabet.
fn quantum(q: &[u8]) -> Option<[u8; 3]> {
    let a = DECODE[usize::from(q[0])];
    let b = DECODE[usize::from(q[1])];
    let c = DECODE[usize::from(q[2])];
    let d = DECODE[usize::from(q[3])];
    ((a | b | c | d) < 64).then(|| group([a, b, c, d]))
}

/// Decodes `src` (a multiple of four alphabet characters) into `dst`, which has room for the output
/// and [`SLACK`] more; `false` (with `dst` partly written) if any character is not in the alphabet.
fn decode_aligned(src: &[u8], dst: &mut [MaybeUninit<u8>], simd: bool) -> bool {
    let mut i = 0;
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is only set when AVX2 was detected.
        i = unsafe { avx2::decode_blocks(src, dst) };
        if i < src.len() && src.len() >= 32 && src.len() - i < 32 {
            // The tail: one block ending at the end, overlapping decoded characters (it rewrites
            // their bytes with the same values).
            let from = src.len() - 32;
            let tail = &src[from..];
            let Some(out) = dst.get_mut(from / 4 * 3..) else {
                return false;
            };
            // SAFETY: as above.
            if unsafe { avx2::decode_blocks(tail, out) } == 32 {
                return true;
            }
            return false;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = simd;
    let mut o = i / 4 * 3;
    while let Some(q) = src.get(i..i + 4) {
        let Some(bytes) = quantum(q) else {
            return false;
        };
        let Some(d) = dst.get_mut(o..o + 3) else {
            return false;
        };
        for (d, b) in d.iter_mut().zip(bytes) {
            d.write(b);
        }
        i += 4;
        o += 3;
    }
    true
}

/// The character starting at `chunk[i]` (for messages; a broken UTF-8 sequence gives U+FFFD).
fn char_at(chunk: &[u8], i: usize) -> char {
    let b = chunk[i];
    if b.is_ascii() {
        return char::from(b);
    }
    let end = (i + 4).min(chunk.len());
    let s = String::from_utf8_lossy(&chunk[i..end]);
    s.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER)
}

#[cfg(test)]
mod tests;
