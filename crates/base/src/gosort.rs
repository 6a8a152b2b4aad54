//! Go's unstable sort, `sort.Slice` and `sort.Sort` (pattern-defeating quicksort, Go 1.19 and
//! later), so that elements with equal keys end in the places opm leaves them.
//!
//! opm orders some lists with `sort.Slice` by a key that two distinct elements can share (a
//! bundle's `relatedImages` by image, written blobs by name). The order it leaves them in is a
//! consequence of the algorithm's exact sequence of comparisons and swaps, which this module
//! follows step by step: insertion sort for 12 elements or fewer; otherwise a pivot from the
//! median of three (of three medians from 50 elements), a reversal when the samples were all
//! descending, a bounded partial insertion sort when they were all ascending, Hoare-style
//! partitioning (with an equal-elements partition when the pivot equals the element before the
//! range), a deterministic xorshift shuffle of three elements after an unbalanced partition, and
//! heapsort once `bits.Len(n)` unbalanced partitions have been made. `sort.Sort` runs the same
//! algorithm over `sort.Interface`; [`sort_slice`] serves both.
//!
//! The algorithm runs once, over a `dyn` [`LessSwap`] (Go's own shape), so the WebAssembly build
//! holds one copy of it whatever the element type.

/// Go's `lessSwap`/`sort.Interface`: compares and swaps elements by index.
trait LessSwap {
    fn less(&mut self, i: usize, j: usize) -> bool;
    fn swap(&mut self, i: usize, j: usize);
}

/// A slice and its strict "less than" comparison.
struct SliceLess<'a, T, F> {
    v: &'a mut [T],
    less: F,
}

impl<T, F: FnMut(&T, &T) -> bool> LessSwap for SliceLess<'_, T, F> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        (self.less)(&self.v[i], &self.v[j])
    }
    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }
}

/// Sorts `v` as Go's `sort.Slice(v, less)` does (and `sort.Sort` on a type whose `Less` is
/// `less`): the same final order, equal elements included. `less` is a strict order ("a before
/// b"), as in Go.
pub fn sort_slice<T>(v: &mut [T], less: impl FnMut(&T, &T) -> bool) {
    let n = v.len();
    pdqsort(&mut SliceLess { v, less }, 0, n, bits_len(n));
}

/// Go's `bits.Len`: the number of bits needed to write `n` (0 for 0).
fn bits_len(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// What the pivot samples said about the range's order.
#[derive(PartialEq, Clone, Copy)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

/// Sorts `[a, b)`; `limit` is how many unbalanced partitions remain before heapsort.
fn pdqsort(data: &mut dyn LessSwap, mut a: usize, mut b: usize, mut limit: u32) {
    const MAX_INSERTION: usize = 12;
    let (mut was_balanced, mut was_partitioned) = (true, true);
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(data, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(data, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(data, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(data, a, b);
        if hint == Hint::Decreasing {
            reverse_range(data, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced && was_partitioned && hint == Hint::Increasing && partial_insertion_sort(data, a, b) {
            return;
        }
        // The element before the range is not less than the pivot: the pivot's equals go left.
        if a > 0 && !data.less(a - 1, pivot) {
            a = partition_equal(data, a, b, pivot);
            continue;
        }
        let (mid, already) = partition(data, a, b, pivot);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let threshold = length / 8;
        if left < right {
            was_balanced = left >= threshold;
            pdqsort(data, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= threshold;
            pdqsort(data, mid + 1, b, limit);
            b = mid;
        }
    }
}

fn insertion_sort(data: &mut dyn LessSwap, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && data.less(j, j - 1) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Partitions `[a, b)` around the element at `pivot`, which ends at the returned index; `true`
/// when nothing had to be swapped.
fn partition(data: &mut dyn LessSwap, a: usize, b: usize, pivot: usize) -> (usize, bool) {
    data.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    while i <= j && data.less(i, a) {
        i += 1;
    }
    while i <= j && !data.less(j, a) {
        j -= 1;
    }
    if i > j {
        data.swap(j, a);
        return (j, true);
    }
    data.swap(i, j);
    i += 1;
    j -= 1;
    loop {
        while i <= j && data.less(i, a) {
            i += 1;
        }
        while i <= j && !data.less(j, a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
    data.swap(j, a);
    (j, false)
}

/// Moves the elements equal to the pivot (none is less) to the front; returns where the rest starts.
fn partition_equal(data: &mut dyn LessSwap, a: usize, b: usize, pivot: usize) -> usize {
    data.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    loop {
        while i <= j && !data.less(a, i) {
            i += 1;
        }
        while i <= j && data.less(a, j) {
            j -= 1;
        }
        if i > j {
            return i;
        }
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
}

/// Fixes a nearly sorted range with at most five out-of-place elements; `true` when it is sorted.
fn partial_insertion_sort(data: &mut dyn LessSwap, a: usize, b: usize) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !data.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        data.swap(i, i - 1);
        // The smaller one goes left (down to index 1 of the whole slice, as Go's loop does).
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 && data.less(j, j - 1) {
                data.swap(j, j - 1);
                j -= 1;
            }
        }
        // The greater one goes right.
        if b - i >= 2 {
            let mut j = i + 1;
            while j < b && data.less(j, j - 1) {
                data.swap(j, j - 1);
                j += 1;
            }
        }
    }
    false
}

/// Swaps the three elements around the middle with pseudo-random ones (xorshift seeded with the
/// length, reduced modulo the next power of two, then once more by the length).
fn break_patterns(data: &mut dyn LessSwap, a: usize, b: usize) {
    let length = b - a;
    if length < 8 {
        return;
    }
    let mut random = length as u64;
    let modulus = 1u64 << bits_len(length);
    let middle = a + (length / 4) * 2;
    for idx in middle - 1..=middle + 1 {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let mut other = (random & (modulus - 1)) as usize;
        if other >= length {
            other -= length;
        }
        data.swap(idx, a + other);
    }
}

/// The pivot's index and what the samples' order suggests.
fn choose_pivot(data: &mut dyn LessSwap, a: usize, b: usize) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let (mut i, mut j, mut k) = (a + l / 4, a + l / 4 * 2, a + l / 4 * 3);
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(data, i - 1, i, i + 1, &mut swaps);
            j = median(data, j - 1, j, j + 1, &mut swaps);
            k = median(data, k - 1, k, k + 1, &mut swaps);
        }
        j = median(data, i, j, k, &mut swaps);
    }
    let hint = match swaps {
        0 => Hint::Increasing,
        MAX_SWAPS => Hint::Decreasing,
        _ => Hint::Unknown,
    };
    (j, hint)
}

/// The index of the median of the elements at `a`, `b`, `c` (compared, not moved), counting
/// the out-of-order pairs met in `swaps`.
fn median(data: &mut dyn LessSwap, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
    let (a, b) = order2(data, a, b, swaps);
    let (b, _) = order2(data, b, c, swaps);
    let (_, b) = order2(data, a, b, swaps);
    b
}

fn order2(data: &mut dyn LessSwap, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
    if data.less(b, a) {
        *swaps += 1;
        return (b, a);
    }
    (a, b)
}

fn reverse_range(data: &mut dyn LessSwap, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
}

fn heap_sort(data: &mut dyn LessSwap, a: usize, b: usize) {
    let hi = b - a;
    for i in (0..=(hi - 1) / 2).rev() {
        sift_down(data, i, hi, a);
    }
    for i in (0..hi).rev() {
        data.swap(a, a + i);
        sift_down(data, 0, i, a);
    }
}

/// Restores the heap property of `[lo, hi)` (offsets from `first`) below `lo`.
fn sift_down(data: &mut dyn LessSwap, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            return;
        }
        if child + 1 < hi && data.less(first + child, first + child + 1) {
            child += 1;
        }
        if !data.less(first + root, first + child) {
            return;
        }
        data.swap(first + root, first + child);
        root = child;
    }
}

#[cfg(test)]
mod tests;
