//! The fast path's byte scanning: the stop sets (which bytes end a word, a line or a quoted
//! scalar, and which multi-byte characters send the document to the slow path), found sixteen
//! bytes at a time with SIMD (SSE2 on x86-64, simd128 in WebAssembly), else eight; and moving
//! over comments, line ends and blank lines.

use super::{Bail, Fast, R};

const fn stops(tab: bool, extra: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    // Control characters (line breaks included): the caller looks at what it stopped on.
    while i < 0x20 {
        if i != b'\t' as usize || tab {
            t[i] = true;
        }
        i += 1;
    }
    t[0x7f] = true;
    // Lead bytes of the characters we must look at: C1 controls and NEL (U+0080..U+009F),
    // the line and paragraph separators (U+2028, U+2029), the byte order mark (U+FEFF) and
    // the non-characters U+FFFE, U+FFFF.
    t[0xc2] = true;
    t[0xe2] = true;
    t[0xef] = true;
    let mut j = 0;
    while j < extra.len() {
        t[extra[j] as usize] = true;
        j += 1;
    }
    t
}

/// The stop sets [`Fast::scan`] knows.
pub(super) const PLAIN: u8 = 0;
pub(super) const LINE: u8 = 1;
pub(super) const SQ: u8 = 2;
pub(super) const DQ: u8 = 3;

/// Inside a plain scalar: where it may end (`: `, ` #`, the line break) or must be looked at.
static PLAIN_STOP: [bool; 256] = stops(true, b":#");
/// Block scalar lines and comments: the end of the line.
static LINE_STOP: [bool; 256] = stops(false, b"");
/// Single-quoted scalars.
static SQ_STOP: [bool; 256] = stops(false, b"'");
/// Double-quoted scalars.
static DQ_STOP: [bool; 256] = stops(false, b"\"\\");
/// JSON strings (tabs too: JSON strings hold no control character).
static JSON_STOP: [bool; 256] = stops(true, b"\"\\");

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// Non-zero when some byte of `x` is below `n` (`n` <= 0x80).
#[inline(always)]
fn any_below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * n as u64) & !x & HIGHS
}

/// Non-zero when some byte of `x` is 0x7f or above.
#[inline(always)]
fn any_7f_or_above(x: u64) -> u64 {
    ((x & !HIGHS).wrapping_add(ONES) | x) & HIGHS
}

/// Non-zero when some byte of `x` is `c`.
#[inline(always)]
fn any_eq(x: u64, c: u8) -> u64 {
    let y = x ^ (ONES * c as u64);
    y.wrapping_sub(ONES) & !y & HIGHS
}

/// For the eight bytes `x` (little-endian), a mask whose lowest set bit falls in the first
/// byte that may belong to stop set `KIND`: a superset test (tabs and every non-ASCII byte are
/// candidates too). Borrows only ever flag bytes above a real hit, so the lowest flag is exact.
#[inline(always)]
fn candidates<const KIND: u8>(x: u64) -> u64 {
    let common = any_below(x, 0x20) | any_7f_or_above(x);
    match KIND {
        PLAIN => common | any_eq(x, b':') | any_eq(x, b'#'),
        LINE => common,
        SQ => common | any_eq(x, b'\''),
        _ => common | any_eq(x, b'"') | any_eq(x, b'\\'),
    }
}

/// Whether the multi-byte character at `k` (whose lead byte is a stop byte) is one the fast
/// path leaves to the slow one: C1 controls and NEL, U+2028, U+2029 (line breaks for go-yaml,
/// not for saphyr), the byte order mark, U+FFFE and U+FFFF.
fn bad_multibyte(b: &[u8], k: usize) -> bool {
    let at = |o: usize| b.get(k + o).copied().unwrap_or(0);
    match at(0) {
        0xc2 => at(1) < 0xa0,
        0xe2 => at(1) == 0x80 && matches!(at(2), 0xa8 | 0xa9),
        0xef => (at(1) == 0xbb && at(2) == 0xbf) || (at(1) == 0xbf && matches!(at(2), 0xbe | 0xbf)),
        _ => true,
    }
}

/// [`candidates`] for sixteen bytes with WebAssembly SIMD: bit `i` of the mask is set when byte
/// `i` may belong to stop set `KIND` (the same superset: every byte below 0x20, tabs included,
/// and every byte from 0x7f).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::*;

    use super::{LINE, PLAIN, SQ};

    #[inline(always)]
    pub(super) fn candidates<const KIND: u8>(chunk: &[u8]) -> u32 {
        debug_assert_eq!(chunk.len(), 16);
        // SAFETY: `chunk` holds 16 readable bytes; WebAssembly loads need no alignment.
        let x = unsafe { v128_load(chunk.as_ptr().cast::<v128>()) };
        // Below 0x20 or from 0x7f: `x - 0x20` (wrapping) above 0x5e, unsigned.
        let common = u8x16_gt(u8x16_sub(x, u8x16_splat(0x20)), u8x16_splat(0x5e));
        let eq = |c: u8| u8x16_eq(x, u8x16_splat(c));
        let m = match KIND {
            PLAIN => v128_or(common, v128_or(eq(b'#'), eq(b':'))),
            LINE => common,
            SQ => v128_or(common, eq(b'\'')),
            _ => v128_or(common, v128_or(eq(b'"'), eq(b'\\'))),
        };
        u32::from(u8x16_bitmask(m))
    }
}

/// [`candidates`] for sixteen bytes with SSE2 (every x86-64 processor has it): bit `i` of the
/// mask is set when byte `i` may belong to stop set `KIND` (the same superset).
#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    use super::{LINE, PLAIN, SQ};

    #[inline(always)]
    pub(super) fn candidates<const KIND: u8>(chunk: &[u8]) -> u32 {
        debug_assert_eq!(chunk.len(), 16);
        // SAFETY: `chunk` holds 16 readable bytes (an unaligned load); SSE2 is part of x86-64.
        unsafe {
            let x = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            // Below 0x20 or from 0x7f: `x - 0x20` (wrapping) above 0x5e unsigned, that is, with
            // the sign bit flipped, above 0x5e - 0x80 signed.
            let shifted = _mm_xor_si128(_mm_sub_epi8(x, _mm_set1_epi8(0x20)), _mm_set1_epi8(i8::MIN));
            let common = _mm_cmpgt_epi8(shifted, _mm_set1_epi8((0x5e_u8 ^ 0x80) as i8));
            let eq = |c: u8| _mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8));
            let m = match KIND {
                PLAIN => _mm_or_si128(common, _mm_or_si128(eq(b'#'), eq(b':'))),
                LINE => common,
                SQ => _mm_or_si128(common, eq(b'\'')),
                _ => _mm_or_si128(common, _mm_or_si128(eq(b'"'), eq(b'\\'))),
            };
            _mm_movemask_epi8(m) as u32
        }
    }
}

/// The first byte at or after `k` that may belong to stop set `KIND` (the superset
/// [`candidates`] tests: every control character and every byte from 0x7f), or the end. Sixteen
/// bytes at a time with SIMD first, where there is some (in WebAssembly, the fast path runs about
/// twice as slowly under V8 as natively; docs/performance.md), then eight, then one.
#[inline(always)]
fn next_candidate<const KIND: u8>(b: &[u8], mut k: usize, table: &[bool; 256]) -> usize {
    loop {
        #[cfg(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128")))]
        if let Some(chunk) = b.get(k..k + 16) {
            let m = simd::candidates::<KIND>(chunk);
            if m != 0 {
                return k + m.trailing_zeros() as usize;
            }
            k += 16;
            continue;
        }
        match b.get(k..k + 8) {
            Some(chunk) => {
                let mut word = [0u8; 8];
                word.copy_from_slice(chunk);
                let m = candidates::<KIND>(u64::from_le_bytes(word));
                if m != 0 {
                    return k + (m.trailing_zeros() / 8) as usize;
                }
                k += 8;
            }
            None => {
                while k < b.len() && !table[b[k] as usize] {
                    k += 1;
                }
                return k;
            }
        }
    }
}

/// The first byte at or after `k` that may end a JSON string or need a look there: a quote, a
/// backslash, a control character, or (a superset) any byte from 0x7f; else the end.
#[inline(always)]
pub(crate) fn json_string_stop(b: &[u8], k: usize) -> usize {
    next_candidate::<DQ>(b, k, &JSON_STOP)
}

impl Fast<'_> {
    /// The first byte at or after `k` that stop set `KIND` stops on and that needs a look
    /// (checked multi-byte characters are passed over), or the end.
    #[inline]
    pub(super) fn scan<const KIND: u8>(&self, mut k: usize) -> R<usize> {
        let table = match KIND {
            PLAIN => &PLAIN_STOP,
            LINE => &LINE_STOP,
            SQ => &SQ_STOP,
            _ => &DQ_STOP,
        };
        let b = self.b;
        loop {
            k = next_candidate::<KIND>(b, k, table);
            let Some(&c) = b.get(k) else { return Ok(k) };
            if !table[c as usize] {
                // A candidate that does not stop: a tab or a non-ASCII byte.
                k += 1;
                continue;
            }
            if matches!(c, 0xc2 | 0xe2 | 0xef) {
                if bad_multibyte(b, k) {
                    return Err(Bail);
                }
                k += 1;
                continue;
            }
            return Ok(k);
        }
    }

    /// How many spaces there are from `k` on, at most `max`. Eight bytes at a time: the
    /// indentation of every line is read this way, at least once.
    #[inline]
    pub(super) fn spaces(&self, k: usize, max: usize) -> usize {
        const SPACES: u64 = 0x2020_2020_2020_2020;
        let b = self.b;
        let mut n = 0;
        while n < max {
            let Some(chunk) = b.get(k + n..k + n + 8) else {
                while n < max && self.at(k + n) == b' ' {
                    n += 1;
                }
                return n;
            };
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            let other = u64::from_le_bytes(word) ^ SPACES;
            if other != 0 {
                return (n + (other.trailing_zeros() / 8) as usize).min(max);
            }
            n += 8;
        }
        max
    }

    /// The line break ending the comment that starts at `k`.
    pub(super) fn comment_end(&self, k: usize) -> R<usize> {
        let nl = self.scan::<LINE>(k)?;
        if self.at(nl) == b'\n' && nl < self.b.len() {
            Ok(nl)
        } else {
            Err(Bail)
        }
    }

    /// After a token ending at `k`: only spaces and a comment may follow on the line. Moves to
    /// the next line.
    pub(super) fn finish_line(&mut self, k: usize) -> R<()> {
        let mut j = k;
        while self.at(j) == b' ' {
            j += 1;
        }
        match self.at(j) {
            b'\n' if j < self.b.len() => {
                self.newline(j);
                Ok(())
            }
            b'#' if j > k => {
                let nl = self.comment_end(j)?;
                self.newline(nl);
                Ok(())
            }
            _ => Err(Bail),
        }
    }

    /// From a line start, pass blank and comment lines. Returns the indentation of the next
    /// content line (the cursor stays at its start), or `None` at the end.
    pub(super) fn skip_blank_lines(&mut self) -> R<Option<usize>> {
        loop {
            let start = self.i;
            let k = start + self.spaces(start, usize::MAX);
            if k >= self.b.len() {
                self.i = self.b.len();
                return Ok(None);
            }
            match self.b[k] {
                b'\n' => self.newline(k),
                b'#' => {
                    let nl = self.comment_end(k)?;
                    self.newline(nl);
                }
                c => {
                    let ind = k - start;
                    // Document markers and directives are for the slow path.
                    if ind == 0 && (c == b'%' || self.b[k..].starts_with(b"---") || self.b[k..].starts_with(b"...")) {
                        return Err(Bail);
                    }
                    return Ok(Some(ind));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether byte `c` may belong to stop set `KIND`: the superset every test above computes.
    fn is_candidate<const KIND: u8>(c: u8) -> bool {
        let extra: &[u8] = match KIND {
            PLAIN => b":#",
            LINE => b"",
            SQ => b"'",
            _ => b"\"\\",
        };
        !(0x20..0x7f).contains(&c) || extra.contains(&c)
    }

    /// Every byte value, at every place of a word or a chunk, among spaces and letters: the word
    /// test's lowest flag and every bit of the SIMD mask say what the byte-wise definition says.
    fn each_test_agrees<const KIND: u8>() {
        for c in 0..=255u8 {
            for at in 0..16 {
                let mut chunk = *b"ab cd:ef gh#ij k";
                chunk.iter_mut().for_each(|b| *b = if is_candidate::<KIND>(*b) { b'x' } else { *b });
                chunk[at] = c;
                let expected: Vec<usize> = (0..16).filter(|&i| is_candidate::<KIND>(chunk[i])).collect();
                if at < 8 {
                    let word = u64::from_le_bytes(chunk[..8].try_into().unwrap());
                    let lowest = (candidates::<KIND>(word).trailing_zeros() / 8) as usize;
                    assert_eq!(
                        Some(&lowest).filter(|&&i| i < 8),
                        expected.first().filter(|&&i| i < 8),
                        "{c:#x} at {at}"
                    );
                }
                #[cfg(target_arch = "x86_64")]
                {
                    let mask = simd::candidates::<KIND>(&chunk);
                    let found: Vec<usize> = (0..16).filter(|i| mask & (1 << i) != 0).collect();
                    assert_eq!(found, expected, "{c:#x} at {at}");
                }
            }
        }
    }

    #[test]
    fn the_word_and_simd_tests_find_the_bytes_each_stop_set_may_stop_on() {
        each_test_agrees::<PLAIN>();
        each_test_agrees::<LINE>();
        each_test_agrees::<SQ>();
        each_test_agrees::<DQ>();
    }
}
