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
