//! skipRange edges kept as ranges ("fans"): a channel's entries sorted by version, and each
//! entry's skipRange resolved against that order as runs, so one entry covering 20,000 earlier
//! versions is one fan of a few runs, not 20,000 edges. Answers "which entries does this range
//! cover" (count, membership, list) and, by a sweep over the sorted order, "which ranges cover
//! this entry" for every entry at once, in O((entries + runs) log entries).

use std::collections::BTreeSet;
use std::ops::Range;

use super::edge::entry_version;
use crate::model::{Channel, Package};
use crate::version::Version;

/// One channel's entries in version order, and every entry's skipRange as runs of that order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fans {
    /// Indexes of the entries that have a version, ascending by version (ties by index).
    pub sorted: Vec<usize>,
    /// Each entry's position in `sorted` (`None` without a version).
    pub position: Vec<Option<usize>>,
    /// Each entry's valid skipRange as ascending, disjoint runs of `sorted` (empty without one).
    pub runs: Vec<Vec<Range<usize>>>,
}

impl Fans {
    /// Sort the entries of `channel` by version and resolve every skipRange against that order.
    pub fn new(package: &Package, channel: &Channel) -> Fans {
        let versions: Vec<Option<&Version>> =
            channel.entries.iter().map(|e| entry_version(package, e.bundle)).collect();
        let mut sorted: Vec<usize> = (0..versions.len()).filter(|&i| versions[i].is_some()).collect();
        crate::sort::sort_by(&mut sorted, |&a, &b| versions[a].cmp(&versions[b]).then(a.cmp(&b)));
        let mut position = vec![None; versions.len()];
        for (p, &i) in sorted.iter().enumerate() {
            position[i] = Some(p);
        }
        let in_order: Vec<&Version> = sorted.iter().filter_map(|&i| versions[i]).collect();
        let runs = channel
            .entries
            .iter()
            .map(|e| e.range().map(|r| r.runs_in(&in_order, |v: &&Version| *v)).unwrap_or_default())
            .collect();
        Fans { sorted, position, runs }
    }

    /// Whether entry `i`'s skipRange covers entry `j`'s version (`j` may be `i`).
    pub fn covers(&self, i: usize, j: usize) -> bool {
        let Some(p) = self.position[j] else { return false };
        let runs = &self.runs[i];
        let k = runs.partition_point(|r| r.end <= p);
        runs.get(k).is_some_and(|r| r.start <= p)
    }

    /// How many other entries entry `i`'s skipRange covers.
    pub fn count(&self, i: usize) -> usize {
        let all: usize = self.runs[i].iter().map(|r| r.len()).sum();
        all - usize::from(self.covers(i, i))
    }

    /// The other entries entry `i`'s skipRange covers, by entry index.
    #[cfg(test)]
    pub fn covered(&self, i: usize) -> Vec<usize> {
        let mut out: Vec<usize> =
            self.runs[i].iter().flat_map(|r| self.sorted[r.clone()].iter().copied()).filter(|&j| j != i).collect();
        crate::sort::sort(&mut out);
        out
    }

    /// For every entry with a version, in version order, `visit(entry, covering)`: `covering` is
    /// the set of `(key(i), i)` of the entries `i` whose skipRange covers it (the entry itself
    /// included when its own range covers it), for the entries whose `key` is `Some`. Ordering
    /// the set by a key answers "the first covering entry in some order" in O(log n).
    pub fn sweep<K: Ord + Copy>(
        &self,
        key: impl Fn(usize) -> Option<K>,
        mut visit: impl FnMut(usize, &BTreeSet<(K, usize)>),
    ) {
        // (position, is start, key, entry): at each position, runs ending there leave first.
        let mut events: Vec<(usize, bool, K, usize)> = Vec::new();
        for (i, runs) in self.runs.iter().enumerate() {
            let Some(k) = key(i) else { continue };
            for r in runs {
                events.push((r.start, true, k, i));
                events.push((r.end, false, k, i));
            }
        }
        events.sort_unstable_by_key(|e| (e.0, e.1));
        let mut active: BTreeSet<(K, usize)> = BTreeSet::new();
        let mut next = 0;
        for (p, &entry) in self.sorted.iter().enumerate() {
            while let Some(&(at, start, k, i)) = events.get(next).filter(|e| e.0 <= p) {
                debug_assert_eq!(at, p);
                if start {
                    active.insert((k, i));
                } else {
                    active.remove(&(k, i));
                }
                next += 1;
            }
            visit(entry, &active);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::{channel, foo, TestCatalog};

    /// Entries 1.0.0 … 1.0.4 listed newest first; 1.0.4 covers `<1.0.4`, 1.0.2 covers itself and
    /// 1.0.0 with `<=1.0.2 !=1.0.1`, 1.0.3 has an invalid range.
    fn fans() -> Fans {
        let m = TestCatalog::new()
            .channel(
                "stable",
                "
                - {name: foo.v1.0.4, skipRange: '<1.0.4'}
                - {name: foo.v1.0.3, skipRange: 'nonsense'}
                - {name: foo.v1.0.2, skipRange: '<=1.0.2 !=1.0.1'}
                - {name: foo.v1.0.1}
                - {name: foo.v1.0.0}
                ",
            )
            .build();
        Fans::new(foo(&m), channel(&m, "stable"))
    }

    #[test]
    fn entries_are_sorted_by_version_and_ranges_become_runs() {
        let f = fans();
        assert_eq!(f.sorted, [4, 3, 2, 1, 0]);
        assert_eq!((f.runs[0].len(), &f.runs[0][0]), (1, &(0..4)));
        assert!(f.runs[1].is_empty());
        assert_eq!(f.runs[2], [0..1, 2..3]);
    }

    #[test]
    fn a_fan_covers_other_entries_only() {
        let f = fans();
        assert_eq!((f.count(0), f.covered(0)), (4, vec![1, 2, 3, 4]));
        assert!(f.covers(2, 2) && f.covers(2, 4) && !f.covers(2, 3));
        assert_eq!((f.count(2), f.covered(2)), (1, vec![4]));
        assert_eq!(f.count(1), 0);
    }

    #[test]
    fn the_sweep_lists_the_ranges_covering_each_entry() {
        let f = fans();
        let mut got = Vec::new();
        f.sweep(Some, |e, covering| got.push((e, covering.iter().map(|&(_, i)| i).collect::<Vec<_>>())));
        assert_eq!(got, [(4, vec![0, 2]), (3, vec![0]), (2, vec![0, 2]), (1, vec![0]), (0, vec![])]);
    }
}
