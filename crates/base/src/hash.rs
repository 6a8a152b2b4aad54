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
}
