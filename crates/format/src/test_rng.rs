//! A small deterministic generator (xorshift) for the randomized tests: each seed gives the same
//! sequence on every run, and the tests need no dependency.

pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(crate) fn pick<'b>(&mut self, xs: &[&'b str]) -> &'b str {
        xs[self.below(xs.len())]
    }
}

/// A random JSON value up to five levels deep: every kind, strings with escapes, non-ASCII text
/// and control characters, some long enough to cross a scanner's blocks.
pub(crate) fn json_value(rng: &mut Rng, depth: u32) -> serde_json::Value {
    let words = ["", "a", "quote \" and \\", "tab\t", "é ☃", &"long ".repeat(20), "\u{1}", "\\\\\\\"{[", "}]"];
    match rng.below(if depth > 4 { 4 } else { 6 }) {
        0 => serde_json::Value::Null,
        1 => serde_json::json!(rng.below(3) == 0),
        2 => serde_json::json!(rng.below(2000) as f64 / 8.0 - 100.0),
        3 => serde_json::json!(rng.pick(&words)),
        4 => (0..rng.below(5)).map(|_| json_value(rng, depth + 1)).collect(),
        _ => (0..rng.below(5)).map(|i| (format!("k{i}{}", words[i]), json_value(rng, depth + 1))).collect(),
    }
}
