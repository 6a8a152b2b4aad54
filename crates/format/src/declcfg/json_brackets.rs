//! Where each object and array of JSON text opens and closes, found 64 bytes at a time: the
//! index a reader of JSON text keeps to step over a value without scanning it again (the CRD
//! lints read embedded manifests one level at a time this way).
//!
//! Each block of 64 bytes becomes four bit masks (quotes, backslashes, opening and closing
//! brackets), sixteen bytes at a time with SIMD where there is some. From them: the bytes an odd
//! run of backslashes escapes, then the quotes left, whose running parity marks the bytes inside
//! strings, and the brackets outside strings. Only the brackets are then visited one by one; in
//! a CRD's JSON they are about one byte in forty, and most bytes are inside strings.
//!
//! The text is meant to be valid JSON (checked beforehand, [`super::json_syntax::is_json`]); on
//! any other bytes the answer is some pairing of them, without a panic.

/// The brackets of a JSON text: for each `{` and `[` outside strings, in order, its offset
/// (`opens`) and its closing bracket's (`closes`, the text's length when it is not closed).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Brackets {
    pub opens: Vec<u32>,
    pub closes: Vec<u32>,
}

/// The brackets of `b` (at most 4 GiB: offsets are `u32`).
pub fn brackets(b: &[u8]) -> Brackets {
    let mut scan = Scan::default();
    let mut out = Brackets::default();
    let mut stack = Vec::new();
    let mut blocks = b.chunks_exact(64);
    let mut base = 0u32;
    for block in &mut blocks {
        let (open, close) = scan.structural(classify(block.try_into().expect("64 bytes")));
        out.record(base, open, close, &mut stack, b.len() as u32);
        base += 64;
    }
    let rest = blocks.remainder();
    if !rest.is_empty() {
        let mut last = [b' '; 64];
        last[..rest.len()].copy_from_slice(rest);
        let (open, close) = scan.structural(classify(&last));
        out.record(base, open, close, &mut stack, b.len() as u32);
    }
    out
}

impl Brackets {
    /// Record a block's brackets (`open`, `close`: bit `i` is byte `base + i`) in order;
    /// `stack` holds the indices of the brackets still open.
    #[inline(always)]
    fn record(&mut self, base: u32, open: u64, close: u64, stack: &mut Vec<usize>, len: u32) {
        let mut each = open | close;
        while each != 0 {
            let i = each.trailing_zeros();
            each &= each - 1;
            if open >> i & 1 == 1 {
                stack.push(self.opens.len());
                self.opens.push(base + i);
                self.closes.push(len);
            } else if let Some(k) = stack.pop() {
                self.closes[k] = base + i;
            }
        }
    }
}

/// A block's bytes of interest: bit `i` of each mask is byte `i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Masks {
    quote: u64,
    backslash: u64,
    /// `{` and `[`.
    open: u64,
    /// `}` and `]`.
    close: u64,
}

/// What one block hands the next.
#[derive(Default)]
struct Scan {
    /// The next block's first byte is escaped (this one ends with an odd run of backslashes).
    escaped: bool,
    /// All ones when this block ends inside a string.
    inside: u64,
}

impl Scan {
    /// The brackets of a block outside strings: (opening, closing).
    fn structural(&mut self, m: Masks) -> (u64, u64) {
        let quotes = m.quote & !self.escaped_bytes(m.backslash);
        // Bit i: an odd number of quotes at or before i (the opening quote counts as inside).
        let inside = prefix_xor(quotes) ^ self.inside;
        self.inside = ((inside as i64) >> 63) as u64;
        (m.open & !inside, m.close & !inside)
    }

    /// The bytes escaped by a backslash: each backslash not itself escaped escapes the next byte.
    /// Backslashes are rare in manifests, so they are taken one at a time.
    fn escaped_bytes(&mut self, backslash: u64) -> u64 {
        let mut escaped = u64::from(self.escaped);
        self.escaped = false;
        let mut each = backslash;
        while each != 0 {
            let i = each.trailing_zeros();
            each &= each - 1;
            if escaped >> i & 1 == 0 {
                match i {
                    63 => self.escaped = true,
                    _ => escaped |= 1 << (i + 1),
                }
            }
        }
        escaped
    }
}

/// Bit `i` of the answer: the parity of bits `0..=i` of `x`.
fn prefix_xor(mut x: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        x ^= x << shift;
    }
    x
}

/// The masks of a block, one byte at a time (where there is no SIMD, and the reference the
/// SIMD classification is tested against).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_bytes(block: &[u8; 64]) -> Masks {
    let mut m = Masks { quote: 0, backslash: 0, open: 0, close: 0 };
    for (i, &c) in block.iter().enumerate() {
        let bit = 1u64 << i;
        match c {
            b'"' => m.quote |= bit,
            b'\\' => m.backslash |= bit,
            b'{' | b'[' => m.open |= bit,
            b'}' | b']' => m.close |= bit,
            _ => {}
        }
    }
    m
}

#[cfg(not(target_arch = "x86_64"))]
use classify_bytes as classify;

/// The masks of a block, sixteen bytes at a time with SSE2 (every x86-64 processor has it).
#[cfg(target_arch = "x86_64")]
fn classify(block: &[u8; 64]) -> Masks {
    use core::arch::x86_64::*;
    let mut m = Masks { quote: 0, backslash: 0, open: 0, close: 0 };
    for (k, chunk) in block.chunks_exact(16).enumerate() {
        // SAFETY: `chunk` holds 16 readable bytes (an unaligned load); SSE2 is part of x86-64.
        unsafe {
            let x = _mm_loadu_si128(chunk.as_ptr().cast::<__m128i>());
            let mask = |v: __m128i, c: u8| {
                (_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u16 as u64) << (16 * k)
            };
            // `{` and `[` differ only in bit 0x20, as do `}` and `]`.
            let folded = _mm_or_si128(x, _mm_set1_epi8(0x20));
            m.quote |= mask(x, b'"');
            m.backslash |= mask(x, b'\\');
            m.open |= mask(folded, b'{');
            m.close |= mask(folded, b'}');
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json_syntax::string_end;

    /// The brackets found one byte at a time, strings passed over as a reader passes them.
    fn one_at_a_time(b: &[u8]) -> Brackets {
        let (mut out, mut stack) = (Brackets::default(), Vec::new());
        let mut i = 0;
        while let Some(&c) = b.get(i) {
            match c {
                b'"' => {
                    i = string_end(b, i);
                    continue;
                }
                b'{' | b'[' => {
                    stack.push(out.opens.len());
                    out.opens.push(i as u32);
                    out.closes.push(b.len() as u32);
                }
                b'}' | b']' => {
                    if let Some(k) = stack.pop() {
                        out.closes[k] = i as u32;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        out
    }

    #[test]
    fn brackets_pair_outside_strings_and_an_unclosed_one_closes_at_the_end() {
        let text = br#"{"a":[1,{"b":"[{"}],"c":"\"}"}"#;
        let got = brackets(text);
        assert_eq!(got.opens, [0, 5, 8]);
        assert_eq!(got.closes, [29, 18, 17]);
        assert_eq!(brackets(br#"{"a":["#), Brackets { opens: vec![0, 5], closes: vec![6, 6] });
        assert_eq!(brackets(b""), Brackets::default());
    }

    #[test]
    fn runs_of_backslashes_escape_by_their_parity_across_blocks() {
        // A string whose backslashes end at every offset around the 64- and 128-byte boundaries.
        for run in 1..6 {
            for at in 50..140 {
                let inner = format!("{}{}", "x".repeat(at), "\\".repeat(run));
                let inner = if run % 2 == 1 { format!("{inner}\"") } else { inner };
                let text = format!(r#"{{"k":["{inner}{{]"],"n":{{}}}}"#);
                assert_eq!(brackets(text.as_bytes()), one_at_a_time(text.as_bytes()), "{text}");
            }
        }
    }

    #[test]
    fn random_json_gets_the_brackets_a_reader_finds() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        for round in 0..20_000 {
            let v = crate::test_rng::json_value(&mut rng, 0);
            let text = match round % 2 {
                0 => serde_json::to_vec(&v).unwrap(),
                _ => serde_json::to_vec_pretty(&v).unwrap(),
            };
            assert_eq!(brackets(&text), one_at_a_time(&text), "{}", String::from_utf8_lossy(&text));
        }
    }

    #[test]
    fn any_bytes_give_some_pairing_without_a_panic() {
        let mut rng = crate::test_rng::Rng(0x5851_f42d_4c95_7f2d);
        let alphabet = b"{}[]\"\\ x";
        for _ in 0..20_000 {
            let len = rng.below(200);
            let text: Vec<u8> = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            let got = brackets(&text);
            assert_eq!(got.opens.len(), got.closes.len());
            assert!(got.opens.iter().zip(&got.closes).all(|(o, c)| o < c && *c as usize <= text.len()));
        }
    }

    #[test]
    fn the_simd_classification_is_the_bytewise_one() {
        let mut rng = crate::test_rng::Rng(0x1405_7b7e_f767_814f);
        let alphabet = b"{}[]\"\\ x;}{\x7b\x5b\x5d\x7d\x02\x3c\xfb\xfd\xdb";
        for _ in 0..20_000 {
            let block: [u8; 64] = std::array::from_fn(|_| alphabet[rng.below(alphabet.len())]);
            assert_eq!(classify(&block), classify_bytes(&block), "{block:?}");
        }
    }
}
