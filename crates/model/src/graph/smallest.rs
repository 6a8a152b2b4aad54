//! The smallest values of a slice over a few of its intervals, without reading the intervals
//! whole: a sparse table answers "where is the minimum of `values[a..b]`" in O(1), and a heap of
//! intervals hands out the minima in increasing order, splitting an interval at each minimum
//! taken. Taking k values from intervals of any length costs O((k + intervals) log) after an
//! O(n log n) table. The lints use it to name the first entries (in channel order) of a set that
//! is a union of runs of the version order. A value of `usize::MAX` is a hole: never taken (it
//! ends a `take`, as every value after it is one too).

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

/// A read-only slice prepared for minimum queries over intervals.
pub struct Smallest<'v> {
    values: Cow<'v, [usize]>,
    /// `table[k][i]`: the position of the minimum of `values[i..i + 2^k]`.
    table: Vec<Vec<u32>>,
}

impl<'v> Smallest<'v> {
    pub fn new(values: impl Into<Cow<'v, [usize]>>) -> Smallest<'v> {
        let values = values.into();
        let mut table: Vec<Vec<u32>> = vec![(0..values.len() as u32).collect()];
        let mut width = 1;
        while 2 * width <= values.len() {
            let prev = &table[table.len() - 1];
            let row: Vec<u32> = (0..=values.len() - 2 * width)
                .map(|i| {
                    let (a, b) = (prev[i], prev[i + width]);
                    if values[b as usize] < values[a as usize] {
                        b
                    } else {
                        a
                    }
                })
                .collect();
            table.push(row);
            width *= 2;
        }
        Smallest { values, table }
    }

    /// The position of the minimum of `values[r]` (`r` not empty).
    fn argmin(&self, r: &Range<usize>) -> usize {
        let k = (usize::BITS - 1 - (r.end - r.start).leading_zeros()) as usize;
        let (a, b) = (self.table[k][r.start] as usize, self.table[k][r.end - (1 << k)] as usize);
        if self.values[b] < self.values[a] {
            b
        } else {
            a
        }
    }

    /// The values at the positions of `intervals`, in increasing order, skipping those `skip`
    /// rejects, at most `limit` of them.
    pub fn take(
        &self,
        intervals: impl IntoIterator<Item = Range<usize>>,
        limit: usize,
        skip: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let mut heap: BinaryHeap<Reverse<(usize, usize, usize, usize)>> = BinaryHeap::new();
        let push = |heap: &mut BinaryHeap<_>, r: Range<usize>| {
            if r.start < r.end {
                let m = self.argmin(&r);
                heap.push(Reverse((self.values[m], m, r.start, r.end)));
            }
        };
        for r in intervals {
            push(&mut heap, r.start..r.end.min(self.values.len()));
        }
        let mut out = Vec::new();
        while out.len() < limit {
            let Some(Reverse((value, m, start, end))) = heap.pop() else { break };
            if value == usize::MAX {
                break;
            }
            if !skip(value) {
                out.push(value);
            }
            push(&mut heap, start..m);
            push(&mut heap, m + 1..end);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_values_of_the_intervals_come_in_order() {
        let values = [9, 3, 7, 1, 8, 2, 6, 0, 5, 4];
        let s = Smallest::new(&values[..]);
        assert_eq!(s.take(std::iter::once(0..10), 3, |_| false), [0, 1, 2]);
        assert_eq!(s.take([0..3, 5..7], 10, |_| false), [2, 3, 6, 7, 9]);
        assert_eq!(s.take(std::iter::once(0..10), 4, |v| v % 2 == 0), [1, 3, 5, 7]);
        assert_eq!(s.take(std::iter::once(4..4), 4, |_| false), Vec::<usize>::new());
    }

    #[test]
    fn holes_are_never_taken_and_cost_nothing() {
        // Every value but the last two a hole: the take ends at the first hole it meets, instead
        // of skipping its way through all of them.
        let mut values = vec![usize::MAX; 100_000];
        values[70_000] = 5;
        values[99_999] = 3;
        let s = Smallest::new(values);
        assert_eq!(s.take(std::iter::once(0..100_000), 10, |_| false), [3, 5]);
        assert_eq!(s.take(std::iter::once(0..99_999), 10, |_| false), [5]);
    }

    #[test]
    fn agrees_with_sorting_on_every_interval() {
        let values: Vec<usize> = (0..37).map(|i| (i * 17 + 5) % 37).collect();
        let s = Smallest::new(&values[..]);
        for a in 0..values.len() {
            for b in a..=values.len() {
                let mut want = values[a..b].to_vec();
                crate::sort::sort(&mut want);
                want.truncate(5);
                assert_eq!(s.take(std::iter::once(a..b), 5, |_| false), want, "{a}..{b}");
            }
        }
    }
}
