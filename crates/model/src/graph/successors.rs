//! One upgrade step from every entry of a channel at once, and where every walk of such steps
//! ends, in O((entries + edges + runs) log entries) for the whole channel instead of a scan of the
//! channel per entry: the entries that `replaces` or `skips` a name come from an index by name, the
//! skipRanges covering an entry from a sweep over the version order ([`Fans::sweep`]), and the
//! best of them by the caller's ranking (OLM v0's channel order, OLM v1's highest version).

use crate::hash::{HashMap, HashMapExt};

use super::edge::EdgeKind;
use super::fan::Fans;
use crate::model::Channel;

/// Which entries name another in their `replaces` or `skips`.
pub struct Declared<'a> {
    replaced_by: HashMap<&'a str, Vec<usize>>,
    skipped_by: HashMap<&'a str, Vec<usize>>,
}

impl<'a> Declared<'a> {
    /// Index the `replaces` and `skips` of every entry of `channel` (empty names ignored).
    pub fn new(channel: &'a Channel) -> Declared<'a> {
        let mut replaced_by: HashMap<&str, Vec<usize>> = HashMap::with_capacity(channel.entries.len());
        let mut skipped_by: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, e) in channel.entries.iter().enumerate() {
            if !e.replaces.value.is_empty() {
                replaced_by.entry(&e.replaces.value).or_default().push(i);
            }
            for s in e.skips.iter().filter(|s| !s.value.is_empty()) {
                skipped_by.entry(&s.value).or_default().push(i);
            }
        }
        Declared { replaced_by, skipped_by }
    }

    /// The first entry (in channel order) whose `skips` names `name`.
    pub fn skipper(&self, name: &str) -> Option<usize> {
        self.skipped_by.get(name).and_then(|v| v.first().copied())
    }

    /// The entries whose `replaces` or `skips` names `name`, with the edge (an entry may come
    /// twice, once per field).
    pub fn of<'s>(&'s self, name: &str) -> impl Iterator<Item = (usize, EdgeKind)> + 's {
        let replaced = self.replaced_by.get(name).into_iter().flatten().map(|&i| (i, EdgeKind::Replaces));
        let skipped = self.skipped_by.get(name).into_iter().flatten().map(|&i| (i, EdgeKind::Skips));
        replaced.chain(skipped)
    }
}

/// For every entry `q` of `channel`: among the other entries that upgrade it (replace it, skip
/// it, or cover its version with their skipRange) and have a `key`, the one with the lowest key,
/// and the edge (replaces before skips before skipRange when one entry declares several). Keys
/// must be distinct.
pub fn best_successors<K: Ord + Copy>(
    channel: &Channel,
    fans: &Fans,
    declared: &Declared<'_>,
    key: impl Fn(usize) -> Option<K>,
) -> Vec<Option<(usize, EdgeKind)>> {
    let n = channel.entries.len();
    let mut best: Vec<Option<(K, EdgeKind, usize)>> = vec![None; n];
    fans.sweep(&key, |q, covering| {
        best[q] = covering.iter().find(|&&(_, i)| i != q).map(|&(k, i)| (k, EdgeKind::SkipRange, i));
    });
    for (q, e) in channel.entries.iter().enumerate() {
        if e.name.value.is_empty() {
            continue;
        }
        for (i, kind) in declared.of(&e.name.value) {
            let Some(k) = key(i).filter(|_| i != q) else { continue };
            if best[q].is_none_or(|b| (k, kind, i) < b) {
                best[q] = Some((k, kind, i));
            }
        }
    }
    best.into_iter().map(|b| b.map(|(_, kind, i)| (i, kind))).collect()
}

/// Where a walk that follows `next` from an entry ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The last entry reached (the head, a dead end, or the last entry before the walk would
    /// come back to one it passed).
    pub end: usize,
    /// The first `blocked` entry met on the way (of the entries walked from, the head excluded).
    pub blocked: Option<usize>,
    /// The walk reached `head`.
    pub reached: bool,
}

/// For every entry, where the walk from it ends: follow `next` until `head`, an entry without a
/// next step, or an entry already walked through; `blocked[i]` is what entry `i` reports when
/// the walk passes it. Linear: each entry is resolved once, cycles as a whole.
pub fn outcomes(next: &[Option<usize>], blocked: &[Option<usize>], head: Option<usize>) -> Vec<Outcome> {
    const UNKNOWN: u8 = 0;
    const ON_WALK: u8 = 1;
    const DONE: u8 = 2;
    let n = next.len();
    let mut state = vec![UNKNOWN; n];
    let mut out = vec![Outcome { end: 0, blocked: None, reached: false }; n];
    let mut at_walk = vec![0usize; n];
    for start in 0..n {
        let mut walk: Vec<usize> = Vec::new();
        let mut cur = start;
        loop {
            if state[cur] == DONE {
                break;
            }
            if state[cur] == ON_WALK {
                // walk[k..] is a cycle: from each of its entries the walk goes round once and
                // ends at the entry before it.
                let cycle = walk.split_off(at_walk[cur]);
                resolve_cycle(&cycle, blocked, &mut out);
                for &c in &cycle {
                    state[c] = DONE;
                }
                break;
            }
            if Some(cur) == head {
                out[cur] = Outcome { end: cur, blocked: None, reached: true };
                state[cur] = DONE;
                break;
            }
            state[cur] = ON_WALK;
            at_walk[cur] = walk.len();
            walk.push(cur);
            match next[cur] {
                Some(j) => cur = j,
                None => {
                    walk.pop();
                    out[cur] = Outcome { end: cur, blocked: blocked[cur], reached: false };
                    state[cur] = DONE;
                    break;
                }
            }
        }
        // Everything left on the walk leads to `cur`, now resolved.
        let mut after = cur;
        for &w in walk.iter().rev() {
            let o = out[after];
            out[w] = Outcome { end: o.end, blocked: blocked[w].or(o.blocked), reached: o.reached };
            state[w] = DONE;
            after = w;
        }
    }
    out
}

/// The outcomes of the entries of a cycle (`cycle[j]` steps to `cycle[j + 1]`, the last to the
/// first): a walk from `cycle[j]` passes every entry once, ending at `cycle[j - 1]`; its first
/// blocked entry is the first one reported going round from `j`.
fn resolve_cycle(cycle: &[usize], blocked: &[Option<usize>], out: &mut [Outcome]) {
    let m = cycle.len();
    let mut first = None;
    for t in (0..2 * m).rev() {
        let c = cycle[t % m];
        if blocked[c].is_some() {
            first = blocked[c];
        }
        if t < m {
            out[c] = Outcome { end: cycle[(t + m - 1) % m], blocked: first, reached: false };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outcome of the walk from `start`, walked one step at a time as the definition says.
    fn walked(next: &[Option<usize>], blocked: &[Option<usize>], head: Option<usize>, start: usize) -> Outcome {
        let mut seen = vec![start];
        let mut cur = start;
        let mut first = None;
        while Some(cur) != head {
            first = first.or(blocked[cur]);
            match next[cur] {
                Some(j) if !seen.contains(&j) => {
                    seen.push(j);
                    cur = j;
                }
                _ => break,
            }
        }
        Outcome { end: cur, blocked: first, reached: Some(cur) == head }
    }

    #[test]
    fn every_walk_ends_where_stepping_one_entry_at_a_time_ends() {
        // 0 → 1 → 2 (head); 3 → 4 → 5 → 3 (a cycle) with 6 → 4 leading into it; 7 dead end;
        // 8 → 7; 9 → 9 (a self loop). Entries 4 and 8 report blocked entries.
        let next = [Some(1), Some(2), Some(0), Some(4), Some(5), Some(3), Some(4), None, Some(7), Some(9)];
        let blocked = [None, None, None, None, Some(40), None, None, None, Some(80), None];
        let got = outcomes(&next, &blocked, Some(2));
        for (start, o) in got.iter().enumerate() {
            assert_eq!(*o, walked(&next, &blocked, Some(2), start), "from {start}");
        }
        assert_eq!(got[6], Outcome { end: 3, blocked: Some(40), reached: false });
        assert_eq!(got[5], Outcome { end: 4, blocked: Some(40), reached: false });
    }

    #[test]
    fn a_long_chain_is_resolved_in_one_pass() {
        let n = 100_000;
        let next: Vec<Option<usize>> = (0..n).map(|i| (i + 1 < n).then_some(i + 1)).collect();
        let got = outcomes(&next, &vec![None; n], Some(n - 1));
        assert!(got.iter().all(|o| o.reached && o.end == n - 1));
    }
}
