//! A channel's head and its replaces chain, computed exactly as opm's model does: the head is the
//! one entry nothing replaces or skips (skipRange adds no edges), and every other entry must be
//! on the replaces chain walked from the head or skipped by some entry. Each step is linear in
//! the channel's size; the messages name at most [`OPM_LIST_CAP`] entries.

use crate::hash::{HashMap, HashMapExt, HashSet, HashSetExt};

use super::{Channel, Entry};
use crate::gotext::{join_capped, OPM_LIST_CAP};

/// Why a channel's graph is not a valid replaces chain. `Display` gives opm's text, naming at most
/// [`OPM_LIST_CAP`] entries (opm names them all).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainError {
    /// No entry is the head (every entry is replaced or skipped).
    NoHead,
    /// Sorted head names.
    MultipleHeads(Vec<String>),
    /// The cycle, starting and ending with the repeated entry.
    Cycle(Vec<String>),
    /// Sorted names of entries neither on the chain nor skipped.
    Stranded(Vec<String>),
}

impl std::fmt::Display for ChainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ChainError::NoHead => f.write_str("no channel head found in graph"),
            ChainError::MultipleHeads(h) => {
                write!(f, "multiple channel heads found in graph: {}", join_capped(h, ", ", OPM_LIST_CAP))
            }
            ChainError::Cycle(c) => {
                write!(f, "detected cycle in replaces chain of upgrade graph: {}", join_capped(c, " -> ", OPM_LIST_CAP))
            }
            ChainError::Stranded(s) => {
                write!(f, "channel contains one or more stranded bundles: {}", join_capped(s, ", ", OPM_LIST_CAP))
            }
        }
    }
}

impl std::error::Error for ChainError {}

impl Channel {
    /// The channel head: the single entry that no entry replaces or skips.
    pub fn head(&self) -> Result<&Entry, ChainError> {
        let mut incoming: HashSet<&str> = HashSet::with_capacity(self.entries.len());
        for e in &self.entries {
            if !e.replaces.value.is_empty() {
                incoming.insert(&e.replaces.value);
            }
            for s in &e.skips {
                incoming.insert(&s.value);
            }
        }
        let mut heads: Vec<&Entry> =
            self.entries.iter().filter(|e| !incoming.contains(e.name.value.as_str())).collect();
        match heads.len() {
            0 => Err(ChainError::NoHead),
            1 => Ok(heads.remove(0)),
            _ => {
                let mut names: Vec<String> = heads.iter().map(|e| e.name.value.clone()).collect();
                crate::sort::sort(&mut names);
                Err(ChainError::MultipleHeads(names))
            }
        }
    }

    /// The names on the replaces chain from the head, in order, stopping at a replaces target
    /// that some entry skips (opm ≥ 1.58) or that is not in the channel.
    pub fn replaces_chain(&self) -> Result<Vec<&str>, ChainError> {
        let head = self.head()?;
        let by_name: HashMap<&str, &Entry> = self.entries.iter().map(|e| (e.name.value.as_str(), e)).collect();
        let skipped: HashSet<&str> =
            self.entries.iter().flat_map(|e| e.skips.iter().map(|s| s.value.as_str())).collect();
        let mut chain = vec![head.name.value.as_str()];
        let mut on_chain: HashSet<&str> = chain.iter().copied().collect();
        let mut cur = head;
        loop {
            let next = cur.replaces.value.as_str();
            if next.is_empty() || skipped.contains(next) {
                break;
            }
            if on_chain.contains(next) {
                let start = chain.iter().position(|n| *n == next).unwrap_or(0);
                let mut cycle: Vec<String> = chain[start..].iter().map(|s| s.to_string()).collect();
                cycle.push(next.to_string());
                return Err(ChainError::Cycle(cycle));
            }
            match by_name.get(next) {
                Some(e) => {
                    chain.push(next);
                    on_chain.insert(next);
                    cur = e;
                }
                None => break,
            }
        }
        Ok(chain)
    }

    /// opm's replaces-chain check: head, cycle, then stranded entries.
    pub fn validate_replaces_chain(&self) -> Result<(), ChainError> {
        let chain = self.replaces_chain()?;
        let on_chain: HashSet<&str> = chain.into_iter().collect();
        let skipped: HashSet<&str> =
            self.entries.iter().flat_map(|e| e.skips.iter().map(|s| s.value.as_str())).collect();
        let mut stranded: Vec<String> = self
            .entries
            .iter()
            .map(|e| e.name.value.as_str())
            .filter(|n| !on_chain.contains(n) && !skipped.contains(n))
            .map(str::to_string)
            .collect();
        if stranded.is_empty() {
            return Ok(());
        }
        crate::sort::sort(&mut stranded);
        Err(ChainError::Stranded(stranded))
    }
}

/// Which entries are on which entries' replaces chains, each answered in constant time after one
/// linear pass: the entries as a forest whose parent is the entry each replaces (in the channel),
/// numbered by a depth-first walk from the entries that replace nothing in it. Entries on a
/// replaces cycle, and what replaces them, are on no chain and have none below them.
#[derive(Debug, Clone)]
pub struct ReplacesForest {
    /// Per entry, when the walk entered and left it (0: never reached).
    enter: Vec<u32>,
    exit: Vec<u32>,
}

impl ReplacesForest {
    /// The forest of `channel`'s entries (a replaces target named twice is its first entry).
    pub fn new(channel: &Channel) -> ReplacesForest {
        let n = channel.entries.len();
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(n);
        for (i, e) in channel.entries.iter().enumerate() {
            index.entry(e.name.value.as_str()).or_insert(i);
        }
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for (i, e) in channel.entries.iter().enumerate() {
            match index.get(e.replaces.value.as_str()).filter(|&&p| p != i) {
                Some(&p) => children[p].push(i),
                None => roots.push(i),
            }
        }
        let (mut enter, mut exit) = (vec![0u32; n], vec![0u32; n]);
        let mut clock = 0u32;
        for root in roots {
            let mut stack = vec![(root, 0usize)];
            clock += 1;
            enter[root] = clock;
            while let Some((node, next)) = stack.last_mut() {
                match children[*node].get(*next) {
                    Some(&child) => {
                        *next += 1;
                        clock += 1;
                        enter[child] = clock;
                        stack.push((child, 0));
                    }
                    None => {
                        clock += 1;
                        exit[*node] = clock;
                        stack.pop();
                    }
                }
            }
        }
        ReplacesForest { enter, exit }
    }

    /// Whether entry `to` (an index into the channel's entries) is on the replaces chain below
    /// entry `from`: `from` replaces it, or replaces an entry that does, and so on.
    pub fn below(&self, from: usize, to: usize) -> bool {
        let (Some(&ef), Some(&et)) = (self.enter.get(from), self.enter.get(to)) else { return false };
        et != 0 && et < ef && self.exit[from] <= self.exit[to]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{Pos, Spanned};

    fn entry(name: &str, replaces: &str, skips: &[&str]) -> Entry {
        let s = |t: &str| Spanned::new(t.to_string(), Pos::default());
        Entry {
            index: 0,
            pos: Pos::default(),
            name: s(name),
            replaces: s(replaces),
            skips: skips.iter().map(|t| s(t)).collect(),
            skip_range: None,
            bundle: None,
        }
    }

    fn channel(entries: Vec<Entry>) -> Channel {
        Channel { name: "c".into(), order: 0, source: None, entries, properties: vec![], deprecation: None }
    }

    #[test]
    fn head_and_chain() {
        let c = channel(vec![entry("a1", "", &[]), entry("a2", "a1", &[]), entry("a3", "a2", &["a1"])]);
        assert_eq!(c.head().unwrap().name.value, "a3");
        assert_eq!(c.replaces_chain().unwrap(), vec!["a3", "a2"]);
        assert!(c.validate_replaces_chain().is_ok());
    }

    #[test]
    fn cycles_and_strands() {
        let c = channel(vec![
            entry("a1", "a3", &[]),
            entry("a2", "a1", &[]),
            entry("a3", "a2", &[]),
            entry("a4", "a3", &[]),
        ]);
        assert_eq!(
            c.validate_replaces_chain().unwrap_err().to_string(),
            "detected cycle in replaces chain of upgrade graph: a3 -> a2 -> a1 -> a3"
        );
        let c = channel(vec![entry("a4", "a4", &[])]);
        assert_eq!(c.validate_replaces_chain().unwrap_err(), ChainError::NoHead);
        let c = channel(vec![entry("a1", "", &[]), entry("a2", "a1", &[]), entry("a3", "a2", &["a2"])]);
        assert_eq!(c.validate_replaces_chain().unwrap_err(), ChainError::Stranded(vec!["a1".into()]));
    }

    #[test]
    fn long_lists_are_capped_in_the_message_only() {
        let names: Vec<String> = (0..20_000).map(|i| format!("b{i:05}")).collect();
        let err = ChainError::Stranded(names.clone());
        let text = err.to_string();
        assert!(text.starts_with("channel contains one or more stranded bundles: b00000, b00001, "), "{text}");
        assert!(text.ends_with(", b00099 (and 19,900 more)"), "{text}");
        assert_eq!(err, ChainError::Stranded(names));
        // A replaces cycle through 10,000 entries is found without a quadratic walk.
        let n = 10_000;
        let entries = (0..n).map(|i| format!("c{i}")).collect::<Vec<_>>();
        let c = channel(
            (0..n)
                .map(|i| entry(&entries[i], &entries[(i + n - 1) % n], &[]))
                .chain([entry("top", "c9999", &[])])
                .collect(),
        );
        let text = c.validate_replaces_chain().unwrap_err().to_string();
        assert!(
            text.starts_with("detected cycle in replaces chain of upgrade graph: c9999 -> c9998 -> c9997"),
            "{text}"
        );
        assert!(text.len() < 1_500, "{}", text.len());
    }

    #[test]
    fn an_entry_is_below_every_entry_whose_replaces_chain_reaches_it() {
        // a1 <- a2 <- a3 (a chain), b1 <- a2' (a branch off a1), c1 <-> c2 (a cycle) <- c3.
        let c = channel(vec![
            entry("a1", "", &[]),
            entry("a2", "a1", &[]),
            entry("a3", "a2", &[]),
            entry("b1", "a1", &[]),
            entry("c1", "c2", &[]),
            entry("c2", "c1", &[]),
            entry("c3", "c1", &[]),
        ]);
        let f = ReplacesForest::new(&c);
        assert!(f.below(2, 1) && f.below(2, 0) && f.below(3, 0), "down the chain, however far");
        assert!(!f.below(1, 2) && !f.below(2, 3) && !f.below(2, 2), "not up, across or to itself");
        assert!(!f.below(4, 5) && !f.below(6, 4), "a cycle is no chain");
        assert!(!f.below(9, 0), "an index outside the channel");
    }
}
