//! Stable sorting that costs one small routine per call site in the WebAssembly build.
//!
//! The standard library's stable sort (driftsort) is fast but is compiled again, about 9 KB of
//! wasm, for every comparator: with some seventy call sites it was the largest single item of
//! the modules. In the wasm build these functions sort a permutation of indices with one shared,
//! non-generic merge sort (the comparator behind `dyn`), then move the elements into place; each
//! call site only adds its comparator and a short permutation loop. The result is the same
//! stable order as `slice::sort_by`. Native builds, where size does not matter, call the
//! standard library directly.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// Sorts `v` stably by `cmp`: the same result as `v.sort_by(cmp)`.
#[inline]
pub fn sort_by<T>(v: &mut [T], cmp: impl FnMut(&T, &T) -> Ordering) {
    #[cfg(any(not(target_arch = "wasm32"), olm_wasm_speed))]
    v.sort_by(cmp);
    #[cfg(all(target_arch = "wasm32", not(olm_wasm_speed)))]
    compact_sort_by(v, cmp);
}

/// Sorts `v` stably by the key `key` gives each element: the same result as `v.sort_by_key(key)`.
#[inline]
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` in its natural order, stably: the same result as `v.sort()` (and, for the types
/// whose equal values are indistinguishable, as `v.sort_unstable()`).
#[inline]
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Collects `items` into a `BTreeMap`, a later pair replacing an earlier one with the same key:
/// the same map as `collect()`, which in the wasm build would sort with its own driftsort
/// instance per key and value type; there the pairs are inserted one by one instead.
#[inline]
pub fn btree_map<K: Ord, V>(items: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    #[cfg(not(target_arch = "wasm32"))]
    return items.into_iter().collect();
    #[cfg(target_arch = "wasm32")]
    {
        let mut map = BTreeMap::new();
        map.extend(items);
        map
    }
}

/// Collects `items` into a `BTreeSet`: the same set as `collect()`, without its sort in the wasm
/// build (see [`btree_map`]).
#[inline]
pub fn btree_set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    #[cfg(not(target_arch = "wasm32"))]
    return items.into_iter().collect();
    #[cfg(target_arch = "wasm32")]
    {
        let mut set = BTreeSet::new();
        set.extend(items);
        set
    }
}

/// Each item's place in `order` (a permutation of `0..order.len()`, such as a sorted list of
/// indices): `places(order)[order[k]] == k`, so an item's rank is read without a search.
pub fn places(order: &[usize]) -> Vec<u32> {
    let mut places = vec![0; order.len()];
    for (place, &i) in order.iter().enumerate() {
        places[i] = place as u32;
    }
    places
}

/// The wasm build's stable sort: an index permutation sorted by [`stable_order`], then applied.
#[cfg_attr(any(not(target_arch = "wasm32"), olm_wasm_speed), allow(dead_code))]
fn compact_sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = stable_order(v.len(), &mut |a, b| cmp(&v[a], &v[b]) == Ordering::Less);
    permute(v, order);
}

/// Runs that are sorted by insertion before the merges start.
const RUN: usize = 16;

/// The stable sorted order of `0..n` under `less` (a strict "sorts before" on indices): a
/// bottom-up merge sort over insertion-sorted runs, which skips merging runs already in order
/// (so sorted input costs one comparison per run boundary). Not generic, so compiled once.
#[cfg_attr(any(not(target_arch = "wasm32"), olm_wasm_speed), allow(dead_code))]
#[inline(never)]
fn stable_order(n: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    for start in (0..n).step_by(RUN) {
        let end = (start + RUN).min(n);
        for i in start + 1..end {
            let x = idx[i];
            let mut j = i;
            while j > start && less(x, idx[j - 1]) {
                idx[j] = idx[j - 1];
                j -= 1;
            }
            idx[j] = x;
        }
    }
    let mut left = Vec::new();
    let mut width = RUN;
    while width < n {
        let mut lo = 0;
        while lo + width < n {
            let mid = lo + width;
            let hi = (mid + width).min(n);
            if less(idx[mid], idx[mid - 1]) {
                merge(&mut idx[lo..hi], mid - lo, &mut left, less);
            }
            lo = hi;
        }
        width *= 2;
    }
    idx
}

/// Merges the sorted halves `run[..mid]` and `run[mid..]` in place, the left half first on ties
/// (which keeps the sort stable); `left` is scratch space for the left half.
fn merge(run: &mut [usize], mid: usize, left: &mut Vec<usize>, less: &mut dyn FnMut(usize, usize) -> bool) {
    left.clear();
    left.extend_from_slice(&run[..mid]);
    let (mut i, mut j, mut k) = (0, mid, 0);
    while i < left.len() && j < run.len() {
        if less(run[j], left[i]) {
            run[k] = run[j];
            j += 1;
        } else {
            run[k] = left[i];
            i += 1;
        }
        k += 1;
    }
    run[k..k + left.len() - i].copy_from_slice(&left[i..]);
}

/// Rearranges `v` so that its element `k` is the one that was at `order[k]`, by swaps along the
/// permutation's cycles (`order` is a permutation of `0..v.len()`).
#[cfg_attr(any(not(target_arch = "wasm32"), olm_wasm_speed), allow(dead_code))]
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len() {
        let mut cur = start;
        while order[cur] != cur {
            let src = order[cur];
            order[cur] = cur;
            if src == start {
                break;
            }
            v.swap(cur, src);
            cur = src;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic pseudo-random sequence (xorshift), so the tests need no dependency.
    fn numbers(n: usize, seed: u64, range: u64) -> Vec<u64> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % range
            })
            .collect()
    }

    #[test]
    fn equals_the_standard_stable_sort_on_every_size_and_tie_density() {
        for n in [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 257, 1000, 5000] {
            for range in [1, 3, 50, 1 << 40] {
                // Pairs of (key, original position): the positions reveal any instability.
                let items: Vec<(u64, usize)> = numbers(n, n as u64 * 31 + range, range).into_iter().zip(0..).collect();
                let mut ours = items.clone();
                compact_sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
                let mut std = items;
                std.sort_by_key(|a| a.0);
                assert_eq!(ours, std, "n = {n}, keys below {range}");
            }
        }
    }

    #[test]
    fn sorted_reversed_and_sawtooth_inputs() {
        let sorted: Vec<u32> = (0..1000).collect();
        let reversed: Vec<u32> = (0..1000).rev().collect();
        let sawtooth: Vec<u32> = (0..1000).map(|i| i % 37).collect();
        for input in [sorted, reversed, sawtooth] {
            let mut ours = input.clone();
            compact_sort_by(&mut ours, u32::cmp);
            let mut std = input;
            std.sort();
            assert_eq!(ours, std);
        }
    }

    #[test]
    fn moves_owned_values_without_losing_any() {
        let mut words: Vec<String> = ["pear", "fig", "apple", "kiwi", "date", "fig"].map(String::from).to_vec();
        compact_sort_by(&mut words, |a, b| a.len().cmp(&b.len()));
        assert_eq!(words, ["fig", "fig", "pear", "kiwi", "date", "apple"]);
    }

    #[test]
    fn the_public_functions_sort_like_the_standard_library() {
        let mut v = vec![3, 1, 2];
        sort(&mut v);
        assert_eq!(v, [1, 2, 3]);
        sort_by_key(&mut v, |&x| std::cmp::Reverse(x));
        assert_eq!(v, [3, 2, 1]);
        sort_by(&mut v, |a, b| a.cmp(b));
        assert_eq!(v, [1, 2, 3]);
    }

    #[test]
    fn an_items_place_is_where_the_order_lists_it() {
        assert_eq!(places(&[2, 0, 1]), vec![1, 2, 0]);
        assert_eq!(places(&[]), Vec::<u32>::new());
    }

    #[test]
    fn collecting_into_b_trees_keeps_the_last_value_of_a_key() {
        let pairs = [("b", 1), ("a", 2), ("b", 3)];
        assert_eq!(btree_map(pairs), pairs.into_iter().collect::<BTreeMap<_, _>>());
        assert_eq!(btree_map(pairs)["b"], 3);
        assert_eq!(btree_set([3, 1, 3, 2]).into_iter().collect::<Vec<_>>(), [1, 2, 3]);
    }
}
