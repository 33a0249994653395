//! The AVX2 kernel: 32 base64 characters → 24 bytes per step.
//!
//! Validation and translation follow Muła and Lemire, "Faster Base64 Encoding and Decoding Using AVX2
//! Instructions" (ACM Transactions on the Web 12(3), 2018), §3.2: each character's high and low
//! nibbles index two bitmap tables whose AND is zero exactly for alphabet characters; the high nibble
//! (with `/` singled out) indexes the offset that turns a character into its 6-bit value; two
//! multiply-adds pack four 6-bit values into three bytes.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_blendv_epi8, _mm256_cmpeq_epi8,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_maddubs_epi16, _mm256_permutevar8x32_epi32,
    _mm256_set1_epi32, _mm256_set1_epi8, _mm256_setr_epi32, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_srli_epi32, _mm256_storeu_si256, _mm256_testz_si256,
};
use std::mem::MaybeUninit;

/// The constant vectors of the kernel, loaded once per call.
struct Kernel {
    lut_lo: __m256i,
    lut_hi: __m256i,
    lut_roll: __m256i,
    pack_bytes: __m256i,
    pack_lanes: __m256i,
    mask_2f: __m256i,
    merge_pairs: __m256i,
    merge_words: __m256i,
}

impl Kernel {
    #[target_feature(enable = "avx2")]
    fn new() -> Kernel {
        #[rustfmt::skip]
        let lut_lo = _mm256_setr_epi8(
            0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A,
            0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A,
        );
        #[rustfmt::skip]
        let lut_hi = _mm256_setr_epi8(
            0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
            0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10,
        );
        #[rustfmt::skip]
        let lut_roll = _mm256_setr_epi8(
            0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0,
        );
        #[rustfmt::skip]
        let pack_bytes = _mm256_setr_epi8(
            2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
            2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1,
        );
        Kernel {
            lut_lo,
            lut_hi,
            lut_roll,
            pack_bytes,
            pack_lanes: _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 7, 7),
            mask_2f: _mm256_set1_epi8(0x2F),
            merge_pairs: _mm256_set1_epi32(0x0140_0140),
            merge_words: _mm256_set1_epi32(0x0001_1000),
        }
    }

    /// 32 characters → 24 bytes in the low 24 bytes of the result; `None` if any character is not in
    /// the alphabet.
    #[inline]
    #[target_feature(enable = "avx2")]
    fn decode(&self, v: __m256i) -> Option<__m256i> {
        let hi = _mm256_and_si256(_mm256_srli_epi32(v, 4), self.mask_2f);
        let lo = _mm256_and_si256(v, self.mask_2f);
        let lo_bits = _mm256_shuffle_epi8(self.lut_lo, lo);
        let hi_bits = _mm256_shuffle_epi8(self.lut_hi, hi);
        if _mm256_testz_si256(lo_bits, hi_bits) == 0 {
            return None;
        }
        let eq_2f = _mm256_cmpeq_epi8(v, self.mask_2f);
        let roll = _mm256_shuffle_epi8(self.lut_roll, _mm256_add_epi8(eq_2f, hi));
        let sextets = _mm256_add_epi8(v, roll);
        let pairs = _mm256_maddubs_epi16(sextets, self.merge_pairs);
        let words = _mm256_madd_epi16(pairs, self.merge_words);
        Some(_mm256_permutevar8x32_epi32(
            _mm256_shuffle_epi8(words, self.pack_bytes),
            self.pack_lanes,
        ))
    }
}

/// How many 32-character blocks fit: both 32 bytes readable at `src[32 * k + extra..]` and 32 bytes
/// writable at `dst[24 * k..]` for every block `k` below the result.
fn block_budget(src_len: usize, extra: usize, dst_len: usize) -> usize {
    let by_src = src_len.saturating_sub(extra) / 32;
    let by_dst = if dst_len >= 32 {
        (dst_len - 32) / 24 + 1
    } else {
        0
    };
    by_src.min(by_dst)
}

/// Decodes 32-character blocks from the start of `src` into `dst` for as long as every character of a
/// block is in the alphabet and `dst` has 32 bytes of room; returns the characters consumed (a
/// multiple of 32). Each block yields 24 bytes at `dst[24 * k..]`; the 8 bytes after them are
/// scratch (overwritten by the next block or left past the output's length).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn decode_blocks(src: &[u8], dst: &mut [MaybeUninit<u8>]) -> usize {
    let k = Kernel::new();
    let blocks = block_budget(src.len(), 0, dst.len());
    let input = src.as_ptr();
    let output = dst.as_mut_ptr().cast::<u8>();
    let mut b = 0;
    // Two blocks a step: one branch for both validity checks.
    while b + 2 <= blocks {
        // SAFETY: blocks `b` and `b + 1` are within the budget: 64 bytes readable at `32 * b`, 32
        // writable at `24 * b` and at `24 * (b + 1)`.
        unsafe {
            let v0 = _mm256_loadu_si256(input.add(32 * b).cast::<__m256i>());
            let v1 = _mm256_loadu_si256(input.add(32 * b + 32).cast::<__m256i>());
            let (Some(d0), Some(d1)) = (k.decode(v0), k.decode(v1)) else {
                break;
            };
            _mm256_storeu_si256(output.add(24 * b).cast::<__m256i>(), d0);
            _mm256_storeu_si256(output.add(24 * b + 24).cast::<__m256i>(), d1);
        }
        b += 2;
    }
    while b < blocks {
        // SAFETY: block `b` is within the budget.
        unsafe {
            let v = _mm256_loadu_si256(input.add(32 * b).cast::<__m256i>());
            let Some(d) = k.decode(v) else { break };
            _mm256_storeu_si256(output.add(24 * b).cast::<__m256i>(), d);
        }
        b += 1;
    }
    32 * b
}

/// `[0; 32]` then `[0xFF; 32]`: 32 bytes loaded at `32 - r` select the second source from byte `r`.
static BLEND_MASKS: [u8; 64] = {
    let mut m = [0u8; 64];
    let mut i = 32;
    while i < 64 {
        m[i] = 0xFF;
        i += 1;
    }
    m
};

/// Where [`decode_lines`] stopped.
pub(super) struct LinesEnd {
    /// Bytes of `src` consumed (characters and line breaks).
    pub consumed: usize,
    /// Bytes written to `dst` (24 per block of 32 characters).
    pub written: usize,
    /// Characters left before the next expected line break.
    pub to_break: usize,
}

/// Decodes text laid out in lines of `line_len` (≥ 32) characters each followed by `brk`, starting
/// `to_break` characters before a break, in blocks of 32 characters taken across the breaks: a block
/// that straddles a break is assembled from two loads, one `brk.len()` bytes after the other, blended
/// at the break. Every skipped break is checked to be exactly `brk`; every character is checked to be
/// in the alphabet. Stops at the first irregularity, at the end of `src`, or when `dst` lacks room, on
/// a block boundary (so a whole number of groups was consumed).
///
/// # Safety
///
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn decode_lines(
    src: &[u8],
    dst: &mut [MaybeUninit<u8>],
    line_len: usize,
    brk: &[u8],
    mut to_break: usize,
) -> LinesEnd {
    let k = Kernel::new();
    let bl = brk.len();
    let (b0, b1) = (
        brk.first().copied().unwrap_or(0),
        brk.last().copied().unwrap_or(0),
    );
    // Whether the `bl` bytes at `src[at..]` are the line break (false past the end).
    let is_break = |at: usize| -> bool {
        match src.get(at..at + bl) {
            Some([x]) => *x == b0,
            Some([x, y]) => *x == b0 && *y == b1,
            _ => false,
        }
    };
    let input = src.as_ptr();
    let output = dst.as_mut_ptr().cast::<u8>();
    // Every block reads at most 32 + bl bytes from `p`; `p` grows by at least 32 a block.
    let bounds = src
        .len()
        .checked_sub(32 + bl)
        .zip(dst.len().checked_sub(32));
    let mut p = 0;
    let mut o = 0;
    if let Some((max_p, max_o)) = bounds.filter(|_| line_len >= 32 && (1..=2).contains(&bl)) {
        while p <= max_p && o <= max_o {
            if to_break == 0 {
                if !is_break(p) {
                    break;
                }
                p += bl;
                to_break = line_len;
                if p > max_p {
                    break;
                }
            }
            // SAFETY: `p <= max_p`, so 32 + bl bytes are readable at `p`; `o <= max_o`, so 32 bytes
            // are writable at `o`; `32 - to_break` is in 1..=32 when read from BLEND_MASKS.
            unsafe {
                let (v, advance) = if to_break >= 32 {
                    (_mm256_loadu_si256(input.add(p).cast::<__m256i>()), 32)
                } else {
                    if !is_break(p + to_break) {
                        break;
                    }
                    let a = _mm256_loadu_si256(input.add(p).cast::<__m256i>());
                    let b = _mm256_loadu_si256(input.add(p + bl).cast::<__m256i>());
                    let mask = _mm256_loadu_si256(
                        BLEND_MASKS.as_ptr().add(32 - to_break).cast::<__m256i>(),
                    );
                    (_mm256_blendv_epi8(a, b, mask), 32 + bl)
                };
                let Some(bytes) = k.decode(v) else { break };
                _mm256_storeu_si256(output.add(o).cast::<__m256i>(), bytes);
                p += advance;
            }
            o += 24;
            to_break = if to_break >= 32 {
                to_break - 32
            } else {
                to_break + line_len - 32
            };
        }
    }
    LinesEnd {
        consumed: p,
        written: o,
        to_break,
    }
}
