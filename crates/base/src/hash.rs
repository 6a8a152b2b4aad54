//! The hash maps and sets of the crate: the standard library's, with a faster seeded hasher.
//!
//! Most maps are keyed by names read from a catalog (packages, channels, bundles, GVKs), so the
//! hasher is on the hot path of building the model, validating it and computing graphs and
//! paths. The standard library's SipHash-1-3 cost 10–15 % of the graphs phase in WebAssembly;
//! [`foldhash`]'s `fast` variant hashes a short string in a few multiplications.
//!
//! The keys come from untrusted input, so the hasher stays seeded: every map gets its own seed,
//! mixed with a process-wide one (natively from the address-space layout and the clock), so a
//! catalog cannot be written to collide in advance. In WebAssembly neither hasher has a source
//! of randomness (the standard library's `RandomState` on `wasm32-unknown-unknown` is seeded from
//! a stack and a heap address too), so this is no weaker there than SipHash was.
//!
//! Use `HashMap::new()` and `HashSet::new()` with [`HashMapExt`] and [`HashSetExt`] in scope,
//! or `default()`, `collect()` and `with_capacity_and_hasher`, as with the standard types.

pub use foldhash::{HashMapExt, HashSetExt};

/// The hasher state of every [`HashMap`] and [`HashSet`] here: seeded per map.
pub type RandomState = foldhash::fast::RandomState;

/// [`std::collections::HashMap`] with the crate's hasher.
pub type HashMap<K, V> = std::collections::HashMap<K, V, RandomState>;

/// [`std::collections::HashSet`] with the crate's hasher.
pub type HashSet<T> = std::collections::HashSet<T, RandomState>;

/// A long text (an embedded manifest's base64) as a key: equal when the whole text is, hashed
/// from its length and eight samples of 64 bytes, so that hashing costs the same on any length
/// (hashing every byte of a catalog's manifests cost as much as reading the distinct ones). Texts
/// that share the samples are told apart by the comparison, so a map of them bounds how many it
/// compares a text with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampled<'a>(pub &'a str);

impl std::hash::Hash for Sampled<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        const SAMPLE: usize = 64;
        let b = self.0.as_bytes();
        state.write_usize(b.len());
        if b.len() <= 8 * SAMPLE {
            return state.write(b);
        }
        for i in 0..8 {
            let at = (b.len() - SAMPLE) / 7 * i;
            state.write(&b[at..at + SAMPLE]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn maps_and_sets_work_as_the_standard_ones() {
        let mut m: HashMap<&str, usize> = HashMap::new();
        m.insert("etcd", 1);
        *m.entry("etcd").or_default() += 1;
        assert_eq!(m.get("etcd"), Some(&2));
        let s: HashSet<String> = ["a", "b", "a"].iter().map(|x| x.to_string()).collect();
        assert_eq!(s.len(), 2);
        assert!(s.contains("a"));
    }

    #[test]
    fn every_map_has_its_own_seed() {
        let (a, b) = (RandomState::default(), RandomState::default());
        let name = "etcdoperator.v0.9.4";
        assert_eq!(a.hash_one(name), a.hash_one(name));
        assert_ne!(a.hash_one(name), b.hash_one(name));
    }

    #[test]
    fn manifests_that_share_the_hashed_samples_are_still_told_apart() {
        let a = "A".repeat(10_000);
        let mut b = a.clone().into_bytes();
        b[5_000] = b'B'; // between the samples
        let b = String::from_utf8(b).unwrap();
        let mut map: HashMap<Sampled, usize> = HashMap::new();
        map.insert(Sampled(&a), 1);
        map.insert(Sampled(&b), 2);
        let same = a.clone();
        assert_eq!((map.len(), map.get(&Sampled(&same)), map.get(&Sampled(&b))), (2, Some(&1), Some(&2)));
    }
}
