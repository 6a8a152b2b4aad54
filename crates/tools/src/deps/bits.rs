//! A fixed-size set of bundle ids (one bit each), and three-valued sets over it: the bundles for
//! which a requirement is certainly true, certainly false, or unknown (a CEL rule this analysis
//! does not evaluate). Compound constraints combine them with Kleene's logic, so a constraint of
//! thousands of leaves costs a few word operations per leaf, whatever the catalog's size.

/// A set of ids below a fixed bound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Bits {
    words: Vec<u64>,
    len: usize,
}

impl Bits {
    /// The empty set over ids `0..len`.
    pub(crate) fn empty(len: usize) -> Bits {
        Bits { words: vec![0; len.div_ceil(64)], len }
    }

    /// Every id in `0..len`.
    pub(crate) fn full(len: usize) -> Bits {
        let mut b = Bits { words: vec![u64::MAX; len.div_ceil(64)], len };
        b.trim();
        b
    }

    /// The set of `ids`.
    pub(crate) fn of(len: usize, ids: impl IntoIterator<Item = u32>) -> Bits {
        let mut b = Bits::empty(len);
        for i in ids {
            b.insert(i);
        }
        b
    }

    fn trim(&mut self) {
        let extra = self.words.len() * 64 - self.len;
        if let Some(last) = self.words.last_mut() {
            if extra > 0 {
                *last &= u64::MAX >> extra;
            }
        }
    }

    /// Add `i` (ignored when out of bounds).
    pub(crate) fn insert(&mut self, i: u32) {
        let i = i as usize;
        if i < self.len {
            self.words[i / 64] |= 1 << (i % 64);
        }
    }

    /// Whether `i` is in the set.
    #[cfg(test)]
    pub(crate) fn contains(&self, i: u32) -> bool {
        let i = i as usize;
        i < self.len && self.words[i / 64] & (1 << (i % 64)) != 0
    }

    /// `self ∩ other`.
    pub(crate) fn and(&self, other: &Bits) -> Bits {
        self.zip(other, |a, b| a & b)
    }

    /// `self ∪ other`.
    pub(crate) fn or(&self, other: &Bits) -> Bits {
        self.zip(other, |a, b| a | b)
    }

    /// `self \ other`.
    pub(crate) fn minus(&self, other: &Bits) -> Bits {
        self.zip(other, |a, b| a & !b)
    }

    fn zip(&self, other: &Bits, f: impl Fn(u64, u64) -> u64) -> Bits {
        let words = self.words.iter().zip(&other.words).map(|(a, b)| f(*a, *b)).collect();
        Bits { words, len: self.len }
    }

    /// Whether the set is empty.
    pub(crate) fn is_empty(&self) -> bool {
        self.words.iter().all(|w| *w == 0)
    }

    /// The ids in the set, ascending.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, w)| {
            let mut w = *w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let bit = w.trailing_zeros();
                w &= w - 1;
                Some((wi * 64) as u32 + bit)
            })
        })
    }

    /// How many ids are in the set.
    pub(crate) fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
}

/// A three-valued set: the ids for which something is certainly true (`yes`), unknown (`maybe`),
/// and, implicitly, certainly false (the rest).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Tri {
    /// Certainly true.
    pub(crate) yes: Bits,
    /// Unknown (disjoint from `yes`).
    pub(crate) maybe: Bits,
}

impl Tri {
    /// Known exactly: true for `yes`, false elsewhere.
    pub(crate) fn known(yes: Bits) -> Tri {
        let maybe = Bits::empty(yes.len);
        Tri { yes, maybe }
    }

    /// Unknown for every id.
    pub(crate) fn unknown(len: usize) -> Tri {
        Tri { yes: Bits::empty(len), maybe: Bits::full(len) }
    }

    /// Certainly false.
    fn no(&self) -> Bits {
        Bits::full(self.yes.len).minus(&self.yes.or(&self.maybe))
    }

    fn from_yes_no(yes: Bits, no: Bits) -> Tri {
        let maybe = Bits::full(yes.len).minus(&yes.or(&no));
        Tri { yes, maybe }
    }

    /// Every child holds (true for no children).
    pub(crate) fn all(len: usize, children: &[Tri]) -> Tri {
        let yes = children.iter().fold(Bits::full(len), |acc, c| acc.and(&c.yes));
        let no = children.iter().fold(Bits::empty(len), |acc, c| acc.or(&c.no()));
        Tri::from_yes_no(yes, no)
    }

    /// Some child holds (false for no children).
    pub(crate) fn any(len: usize, children: &[Tri]) -> Tri {
        let yes = children.iter().fold(Bits::empty(len), |acc, c| acc.or(&c.yes));
        let no = children.iter().fold(Bits::full(len), |acc, c| acc.and(&c.no()));
        Tri::from_yes_no(yes, no)
    }

    /// No child holds (true for no children), as OLM's `not`.
    pub(crate) fn none(len: usize, children: &[Tri]) -> Tri {
        let yes = children.iter().fold(Bits::full(len), |acc, c| acc.and(&c.no()));
        let no = children.iter().fold(Bits::empty(len), |acc, c| acc.or(&c.yes));
        Tri::from_yes_no(yes, no)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tri(len: usize, yes: &[u32], maybe: &[u32]) -> Tri {
        Tri { yes: Bits::of(len, yes.iter().copied()), maybe: Bits::of(len, maybe.iter().copied()) }
    }

    fn ids(b: &Bits) -> Vec<u32> {
        b.iter().collect()
    }

    #[test]
    fn bits_hold_ids_across_words_and_ignore_out_of_range() {
        let b = Bits::of(130, [0, 63, 64, 129, 130, 500]);
        assert_eq!(ids(&b), vec![0, 63, 64, 129]);
        assert_eq!(b.count(), 4);
        assert!(b.contains(129) && !b.contains(130));
        assert_eq!(Bits::full(130).count(), 130);
        assert!(Bits::empty(0).is_empty() && Bits::full(0).is_empty());
    }

    #[test]
    fn all_is_true_only_where_every_child_is_and_false_where_one_is_false() {
        // ids: 0 (T,T) 1 (T,?) 2 (T,F) 3 (?,?)
        let (a, b) = (tri(4, &[0, 1, 2], &[3]), tri(4, &[0], &[1, 3]));
        let r = Tri::all(4, &[a, b]);
        assert_eq!((ids(&r.yes), ids(&r.maybe)), (vec![0], vec![1, 3]));
        assert_eq!(ids(&Tri::all(4, &[]).yes), vec![0, 1, 2, 3], "all of nothing is true");
    }

    #[test]
    fn any_is_true_where_one_child_is_and_unknown_only_without_a_true_child() {
        let (a, b) = (tri(4, &[0], &[1, 3]), tri(4, &[1], &[2]));
        let r = Tri::any(4, &[a, b]);
        assert_eq!((ids(&r.yes), ids(&r.maybe)), (vec![0, 1], vec![2, 3]));
        assert!(Tri::any(4, &[]).yes.is_empty() && Tri::any(4, &[]).maybe.is_empty(), "any of nothing is false");
    }

    #[test]
    fn none_is_true_where_every_child_is_false() {
        let (a, b) = (tri(4, &[0], &[1]), tri(4, &[], &[2]));
        let r = Tri::none(4, &[a, b]);
        assert_eq!((ids(&r.yes), ids(&r.maybe)), (vec![3], vec![1, 2]));
        assert_eq!(ids(&Tri::none(4, &[]).yes), vec![0, 1, 2, 3], "not of nothing is true");
        assert_eq!(ids(&Tri::none(4, &[Tri::unknown(4)]).maybe), vec![0, 1, 2, 3]);
    }
}
