//! Whether bytes are one JSON text, answered as `serde_json::from_slice::<IgnoredAny>` answers
//! it, without building anything: the check the loader makes on every `olm.bundle.object`
//! payload (most of a catalog's bytes where bundles embed their manifests).
//!
//! The grammar is serde_json's: whitespace is space, tab, line feed and carriage return; strings
//! hold no control character below 0x20 and only the escapes `\" \\ \/ \b \f \n \r \t` and `\u`
//! with four hex digits (any code unit: lone surrogates pass, as serde_json only skips them);
//! bytes from 0x80 are not checked as UTF-8 inside strings, as serde_json's `IgnoredAny` does
//! not; numbers are `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; nesting has no limit (serde
//! skips a value with a stack of its own). Written here rather than left to serde_json because
//! strings are passed over sixteen bytes at a time ([`json_string_stop`]), twice serde's speed on
//! manifests, whose bytes are mostly descriptions and embedded examples.

use super::yaml::json_string_stop;

/// Whether `b` is one JSON value, with only whitespace around it.
pub fn is_json(b: &[u8]) -> bool {
    Syntax { b, open: Vec::new() }.text().is_some()
}

/// A check in progress: the bytes and the brackets open at the current byte (`true`: an object).
struct Syntax<'b> {
    b: &'b [u8],
    open: Vec<bool>,
}

impl Syntax<'_> {
    /// The whole text: a value, then after each value either the end of the text (nothing open)
    /// or what may follow it in the innermost open bracket. Brackets are kept in `open`, not on
    /// the call stack, so that no nesting overflows it.
    fn text(&mut self) -> Option<()> {
        let mut k = self.space(0);
        loop {
            let (next, whole) = self.value(k)?;
            k = next;
            if !whole {
                continue;
            }
            loop {
                k = self.space(k);
                let Some(&object) = self.open.last() else {
                    return (k == self.b.len()).then_some(());
                };
                match (self.b.get(k)?, object) {
                    (b',', true) => {
                        k = self.key(k + 1)?;
                        break;
                    }
                    (b',', false) => {
                        k = self.space(k + 1);
                        break;
                    }
                    (b'}', true) | (b']', false) => {
                        self.open.pop();
                        k += 1;
                    }
                    _ => return None,
                }
            }
        }
    }

    /// The value that starts at `k`: after it and `true`, or, when it opens a non-empty object
    /// or array, where its first value starts (a first key read) and `false`.
    fn value(&mut self, k: usize) -> Option<(usize, bool)> {
        let b = self.b;
        let after = match b.get(k)? {
            b'"' => self.string(k + 1)?,
            b'{' | b'[' => {
                let object = b[k] == b'{';
                let j = self.space(k + 1);
                if b.get(j) == Some(if object { &b'}' } else { &b']' }) {
                    return Some((j + 1, true));
                }
                self.open.push(object);
                return Some((if object { self.key(j)? } else { j }, false));
            }
            b't' => literal(b, k, b"true")?,
            b'f' => literal(b, k, b"false")?,
            b'n' => literal(b, k, b"null")?,
            b'-' | b'0'..=b'9' => number(b, k)?,
            _ => return None,
        };
        Some((after, true))
    }

    /// A member's key at or after `k` (whitespace first), its colon and the whitespace after
    /// it: where the member's value starts.
    fn key(&mut self, k: usize) -> Option<usize> {
        let k = self.space(k);
        if self.b.get(k) != Some(&b'"') {
            return None;
        }
        let k = self.space(self.string(k + 1)?);
        (self.b.get(k) == Some(&b':')).then(|| self.space(k + 1))
    }

    /// After the string whose first byte (past its opening quote) is at `k`.
    #[inline(always)]
    fn string(&self, mut k: usize) -> Option<usize> {
        let b = self.b;
        loop {
            k = json_string_stop(b, k);
            match *b.get(k)? {
                b'"' => return Some(k + 1),
                b'\\' => k = escape(b, k + 1)?,
                0..=0x1f => return None,
                _ => k += 1,
            }
        }
    }

    /// The first byte at or after `k` that is not whitespace.
    fn space(&self, mut k: usize) -> usize {
        while matches!(self.b.get(k), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            k += 1;
        }
        k
    }
}

/// Where the string whose opening quote is at `i` ends in JSON text already checked: after its
/// closing quote, or at the text's end when there is none. Passes over the string sixteen bytes
/// at a time, as [`is_json`] does.
#[inline(always)]
pub fn string_end(b: &[u8], i: usize) -> usize {
    let mut k = i + 1;
    loop {
        k = json_string_stop(b, k);
        match b.get(k) {
            None => return b.len(),
            Some(b'"') => return k + 1,
            Some(b'\\') => k += 2,
            Some(_) => k += 1,
        }
    }
}

/// After the escape whose letter is at `k` (past the backslash).
fn escape(b: &[u8], k: usize) -> Option<usize> {
    match b.get(k)? {
        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => Some(k + 1),
        b'u' => b.get(k + 1..k + 5)?.iter().all(u8::is_ascii_hexdigit).then_some(k + 5),
        _ => None,
    }
}

/// After the literal `word` when it is at `k`.
fn literal(b: &[u8], k: usize, word: &[u8]) -> Option<usize> {
    b[k..].starts_with(word).then_some(k + word.len())
}

/// After the number that starts at `k`.
fn number(b: &[u8], mut k: usize) -> Option<usize> {
    let digits = |mut k: usize| {
        let from = k;
        while b.get(k).is_some_and(u8::is_ascii_digit) {
            k += 1;
        }
        (k > from).then_some(k)
    };
    if b[k] == b'-' {
        k += 1;
    }
    k = match b.get(k)? {
        b'0' => k + 1,
        _ => digits(k)?,
    };
    if b.get(k) == Some(&b'.') {
        k = digits(k + 1)?;
    }
    if matches!(b.get(k), Some(b'e' | b'E')) {
        k += 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        k = digits(k)?;
    }
    Some(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serde_says(b: &[u8]) -> bool {
        serde_json::from_slice::<serde::de::IgnoredAny>(b).is_ok()
    }

    #[test]
    fn texts_read_as_serde_json_reads_them() {
        let valid = [
            "0",
            "-0",
            "1.5e+3",
            "-12.0E-2",
            "true",
            " null ",
            "\"\"",
            "[]",
            "{}",
            "[[],{}]",
            r#"{"a":[1,{"b":null}],"c":"x\"\\\/\b\f\n\r\t\u00e9\ud800"}"#,
            "\t[ 1 , 2 ]\r\n",
            "\"caf\u{e9} \u{7f}\"",
            r#"{"":{"":{"":[]}}}"#,
        ];
        let invalid = [
            "",
            " ",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "1e+",
            "+1",
            "tru",
            "truex",
            "nul",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\"}",
            "{\"a\" 1}",
            "{1:2}",
            "[1 2]",
            "[}",
            "{]",
            "\"a",
            "\"\\x\"",
            "\"\\u12g4\"",
            "\"\\u12\"",
            "\"a\u{1}b\"",
            "\"tab\tinside\"",
            "1 2",
            "{} x",
            "[",
            "[[]",
            "\u{feff}{}",
            "{\"a\":1}}",
            "NaN",
        ];
        for text in valid {
            assert!(is_json(text.as_bytes()), "{text:?} is JSON");
            assert!(serde_says(text.as_bytes()), "{text:?} is JSON for serde_json too");
        }
        for text in invalid {
            assert!(!is_json(text.as_bytes()), "{text:?} is not JSON");
            assert!(!serde_says(text.as_bytes()), "{text:?} is not JSON for serde_json either");
        }
    }

    #[test]
    fn invalid_utf8_inside_strings_passes_as_it_does_for_serde() {
        let text = b"[\"\xff\xfe\", \"\xc3\"]";
        assert_eq!((is_json(text), serde_says(text)), (true, true));
        assert_eq!((is_json(b"[\xff]"), serde_says(b"[\xff]")), (false, false));
    }

    #[test]
    fn nesting_has_no_limit_as_serde_skips_values() {
        let deep = format!("{}{}", "[{\"a\":".repeat(500_000), "}]".repeat(500_000));
        let deep = deep.replace(":}", ":0}");
        assert!(is_json(deep.as_bytes()) && serde_says(deep.as_bytes()));
        assert!(!is_json(&deep.as_bytes()[..deep.len() - 1]));
    }

    #[test]
    fn every_cut_and_every_byte_changed_of_a_manifest_gets_serdes_answer() {
        let manifest = br#"{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"name":"v1","served":true,"schema":{"openAPIV3Schema":{"description":"A long description, long enough to be scanned sixteen bytes at a time: \"quoted\" \\ and \u00e9.","type":"object","properties":{"n":{"type":"integer","minimum":-1.5e3,"default":0}},"required":["n"]}}}]},"list":[true,false,null,[],{}]}"#;
        for cut in 0..=manifest.len() {
            assert_eq!(is_json(&manifest[..cut]), serde_says(&manifest[..cut]), "cut at {cut}");
        }
        for at in 0..manifest.len() {
            for byte in
                [b' ', b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'0', b'-', b'e', b'.', 0x01, 0x7f, 0xc3, b'u']
            {
                let mut changed = manifest.to_vec();
                changed[at] = byte;
                assert_eq!(is_json(&changed), serde_says(&changed), "{byte:#x} at {at}");
            }
        }
    }

    #[test]
    fn random_texts_of_json_bytes_get_serdes_answer() {
        // A fixed xorshift sequence: every run checks the same 200,000 texts.
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let alphabet = b"{}[]:,\"\\ \t\nu0123456789abcdeftrunl-+.eE\x01\xff";
        // Random values written by serde_json (compact and indented), each also with one byte
        // changed.
        for round in 0..20_000 {
            let v = crate::test_rng::json_value(&mut rng, 0);
            let mut text = match round % 2 {
                0 => serde_json::to_vec(&v).unwrap(),
                _ => serde_json::to_vec_pretty(&v).unwrap(),
            };
            assert!(is_json(&text), "{}", String::from_utf8_lossy(&text));
            let at = rng.below(text.len());
            text[at] = alphabet[rng.below(alphabet.len())];
            assert_eq!(is_json(&text), serde_says(&text), "{:?}", String::from_utf8_lossy(&text));
        }
        for _ in 0..200_000 {
            let len = rng.below(90);
            let text: Vec<u8> = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
            assert_eq!(is_json(&text), serde_says(&text), "{:?}", String::from_utf8_lossy(&text));
        }
    }
}
