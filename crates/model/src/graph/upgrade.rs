//! Upgrade paths: where an upgrade starts ([`Start`]), its steps and why a version is stranded
//! ([`UpgradePath`]), for OLM v0 and OLM v1. OLM v0 moves one edge per resolution: from the
//! installed bundle it takes the entry closest to the head (in its channel order) that replaces
//! it, skips it, or covers its version with `skipRange`, and repeats (`V0Channel`, which the
//! channel graph also reads for its stranded flags). OLM v1 allows any direct successor (plus
//! staying put) and picks the highest version ([`successors_v1`]). A version with no path to the
//! head is stranded, and we say why.

use std::sync::Arc;

use crate::hash::{HashMap, HashMapExt};

use serde::Serialize;

use super::edge::{entry_version, EdgeKind};
use super::fan::Fans;
use super::order::channel_order;
pub use super::start::Start;
use super::start::{read, Reading};
use super::successors::{best_successors, outcomes, Declared};
use crate::gotext::{join_counted, quote as q, LIST_CAP};
use crate::model::{Channel, Entry, Package};
use crate::property::Property;
use crate::version::{Version, VersionRange, VersionRelease};

/// Which OLM's rules to follow, and one upgrade (defined with the picture's data,
/// `crates/graph-picture`, which draws paths).
pub use olm_graph_picture::{Semantics, Step};

/// The upgrades OLM would make from a start to the channel head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UpgradePath {
    /// The start, as given (bundle name or version).
    pub from: Arc<str>,
    /// The channel head (the goal), when the channel has one.
    pub to: Option<Arc<str>>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// No path reaches the head.
    pub stranded: bool,
    /// Why, when stranded.
    pub reason: Option<String>,
    /// How a typed version was read (the bundle it is the version of, or that no bundle has it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// Why no path could be computed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// The start names no bundle of the package.
    UnknownBundle(String),
    /// OLM v0 cannot order the channel (the resolver's message).
    Order(String),
    /// Several bundles of the package have the version typed: the question asking which one is
    /// installed, and their names.
    SeveralBundles {
        /// The question, naming them.
        question: String,
        /// Their names.
        bundles: Vec<String>,
    },
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::UnknownBundle(b) => {
                write!(f, "{} is neither a bundle of this package nor a version (like 1.2.0)", q(b))
            }
            PathError::Order(m) | PathError::SeveralBundles { question: m, .. } => f.write_str(m),
        }
    }
}

impl std::error::Error for PathError {}

/// The installed state between steps, borrowed from the start or the channel's entries.
#[derive(Clone, Copy)]
struct Current<'a> {
    name: &'a str,
    version: Option<&'a Version>,
}

/// How `candidate` upgrades from `cur`, if it does (replaces, then skips, then skipRange).
fn edge_kind(candidate: &Entry, cur: &Current<'_>) -> Option<EdgeKind> {
    edge_kind_with(candidate, candidate.range(), cur)
}

/// How `candidate` upgrades from `cur` (replaces, then skips, then its already-parsed skipRange).
fn edge_kind_with(candidate: &Entry, range: Option<&VersionRange>, cur: &Current<'_>) -> Option<EdgeKind> {
    if !cur.name.is_empty() && candidate.replaces.value == cur.name {
        return Some(EdgeKind::Replaces);
    }
    if !cur.name.is_empty() && candidate.skips.iter().any(|s| s.value == cur.name) {
        return Some(EdgeKind::Skips);
    }
    let v = cur.version?;
    range.filter(|r| r.contains(v)).map(|_| EdgeKind::SkipRange)
}

fn start_state<'a>(package: &'a Package, start: &'a Start) -> Result<Current<'a>, PathError> {
    match start {
        Start::Version(v) | Start::Typed { version: Some(v), .. } => Ok(Current { name: "", version: Some(v) }),
        Start::Installed { name, version } => Ok(Current { name, version: version.as_ref() }),
        Start::Bundle(name) | Start::Typed { text: name, version: None } => {
            let known = package.bundle(name).is_some() || package.channels.iter().any(|c| c.entry(name).is_some());
            if !known {
                return Err(PathError::UnknownBundle(name.clone()));
            }
            Ok(Current { name, version: package.bundle(name).and_then(|b| b.version.as_ref()) })
        }
    }
}

/// The path OLM would take from `start` to the head of `channel`.
///
/// ```
/// use olm_catalog::{build_model, load_files, upgrade_path, FileInput, Semantics, Start};
///
/// let yaml = "\
/// schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
/// schema: olm.channel\npackage: foo\nname: stable\nentries:\n\
/// - name: foo.v3\n  replaces: foo.v2\n  skipRange: '<3.0.0'\n- name: foo.v2\n  replaces: foo.v1\n- name: foo.v1\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v2\nimage: example.com/foo:2\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 2.0.0}}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v3\nimage: example.com/foo:3\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 3.0.0}}\n";
/// let (model, _) = build_model(&load_files(&[FileInput::new("catalog.yaml", yaml)]).config);
/// let foo = model.package("foo").unwrap();
/// let stable = foo.channel("stable").unwrap();
/// // OLM v0 takes the skipRange straight to the head; OLM v1 does the same here.
/// let path = upgrade_path(foo, stable, &Start::Bundle("foo.v1".into()), Semantics::V0).unwrap();
/// let steps: Vec<&str> = path.steps.iter().map(|s| &*s.to).collect();
/// assert_eq!(steps, ["foo.v3"]);
/// ```
pub fn upgrade_path(
    package: &Package,
    channel: &Channel,
    start: &Start,
    semantics: Semantics,
) -> Result<UpgradePath, PathError> {
    let (mut note, named);
    let start = match start {
        Start::Typed { text, version } => match read(package, channel, text, version.as_ref()) {
            Reading::Bundle(name, said) => {
                (named, note) = (Start::Bundle(name), said);
                &named
            }
            // Walked as a bare version (`start_state`).
            Reading::Bare(said) => {
                note = Some(said);
                start
            }
            Reading::Several(question, bundles) => return Err(PathError::SeveralBundles { question, bundles }),
        },
        _ => {
            note = None;
            start
        }
    };
    let mut path = match semantics {
        Semantics::V0 => v0_path(package, channel, start),
        Semantics::V1 => v1_path(package, channel, start),
    }?;
    path.note = note.take();
    Ok(path)
}

/// The next upgrade from a state (entry index and edge), and the first prohibited entry passed over.
type NextStep = (Option<(usize, EdgeKind)>, Option<usize>);

/// Where a walk from a start towards the head ended.
struct Walk<'a> {
    steps: Vec<Step>,
    cur: Current<'a>,
    reached: bool,
    /// The first prohibited entry passed over on the way.
    blocked: Option<usize>,
}

impl Walk<'_> {
    fn stranded(&self) -> bool {
        !self.reached
    }

    fn into_path(self, from: Arc<str>, head: Option<Arc<str>>, reason: Option<String>) -> UpgradePath {
        UpgradePath { from, to: head, steps: self.steps, stranded: !self.reached, reason, note: None }
    }
}

/// Where a walk begins: on an entry of the channel (a start that names an entry: the first entry
/// of that name), or from a start that is on no entry.
#[derive(Clone, Copy)]
enum Begin<'s> {
    Entry(usize),
    Elsewhere(&'s Start),
}

impl<'s> Begin<'s> {
    fn of(channel: &Channel, start: &'s Start) -> Begin<'s> {
        let on_entry = match start {
            Start::Bundle(name) => channel.entries.iter().position(|e| &e.name.value == name),
            _ => None,
        };
        on_entry.map_or(Begin::Elsewhere(start), Begin::Entry)
    }
}

/// For each entry, the first entry of the channel with its name.
fn first_of_names(channel: &Channel) -> Vec<usize> {
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(channel.entries.len());
    channel.entries.iter().enumerate().map(|(i, e)| *first.entry(e.name.value.as_str()).or_insert(i)).collect()
}

/// What the walks over one channel share, so that a step allocates nothing and hashes nothing:
/// each entry's name as one shared string (made on first use, then handed to every step and
/// path that names the entry), which entry first bears each name, and marks of the names the
/// current walk has been on (a walk stops at a name it was on: a cycle).
struct Walker {
    names: Vec<Option<Arc<str>>>,
    first: Vec<usize>,
    /// `seen[first[i]] == walk` when the current walk has been on the name of entry `i`.
    seen: Vec<u32>,
    /// The current walk's mark (walks are numbered from 1).
    walk: u32,
    /// The current walk's steps, copied out (one allocation of the right size) when it ends.
    steps: Vec<Step>,
}

impl Walker {
    fn new(channel: &Channel) -> Walker {
        let n = channel.entries.len();
        Walker { names: vec![None; n], first: first_of_names(channel), seen: vec![0; n], walk: 0, steps: Vec::new() }
    }

    /// Entry `i`'s name, shared.
    fn name(&mut self, channel: &Channel, i: usize) -> Arc<str> {
        self.names[i].get_or_insert_with(|| Arc::from(channel.entries[i].name.value.as_str())).clone()
    }

    /// The path's start, as given: a start on an entry is that entry's name, shared.
    fn start_name(&mut self, channel: &Channel, begin: Begin<'_>) -> Arc<str> {
        match begin {
            Begin::Entry(i) => self.name(channel, i),
            Begin::Elsewhere(start) => Arc::from(start.name()),
        }
    }

    /// Starts a new walk on the name `first` (an entry index, or none when no entry bears the
    /// start's name).
    fn begin(&mut self, first: Option<usize>) {
        self.walk = self.walk.wrapping_add(1);
        if self.walk == 0 {
            self.seen.fill(0);
            self.walk = 1;
        }
        self.steps.clear();
        if let Some(k) = first {
            self.seen[k] = self.walk;
        }
    }

    /// Marks entry `i`'s name as walked on; false when the walk was on it already.
    fn enter(&mut self, i: usize) -> bool {
        let k = self.first[i];
        let new = self.seen[k] != self.walk;
        self.seen[k] = self.walk;
        new
    }
}

/// Follow `next` (given the entry index the walk is at, if any, and the installed state) one
/// upgrade at a time from `begin` until the head, a dead end or a cycle.
fn walk<'a>(
    package: &'a Package,
    channel: &'a Channel,
    begin: Begin<'a>,
    head: Option<&str>,
    walker: &mut Walker,
    next: impl Fn(Option<usize>, &Current<'a>) -> NextStep,
) -> Result<Walk<'a>, PathError> {
    let (mut at, mut cur) = match begin {
        // A start on an entry of the channel: known, and its bundle is the entry's.
        Begin::Entry(i) => {
            let e = &channel.entries[i];
            (Some(i), Current { name: &e.name.value, version: entry_version(package, e.bundle) })
        }
        Begin::Elsewhere(start) => (None, start_state(package, start)?),
    };
    let first = match at {
        Some(i) => Some(walker.first[i]),
        None => channel.entries.iter().position(|e| e.name.value == cur.name),
    };
    walker.begin(first);
    let mut blocked_first = None;
    // Once on an entry of the channel, callers answer from their memo.
    while head != Some(cur.name) {
        let (step, blocked) = next(at, &cur);
        if blocked_first.is_none() {
            blocked_first = blocked;
        }
        let Some((i, kind)) = step else { break };
        if !walker.enter(i) {
            break;
        }
        let from = match at {
            Some(j) if !cur.name.is_empty() => walker.name(channel, j),
            _ => Arc::from(display_name(&cur)),
        };
        let to = walker.name(channel, i);
        walker.steps.push(Step { from, to, edge: kind });
        let e = &channel.entries[i];
        cur = Current { name: &e.name.value, version: entry_version(package, e.bundle) };
        at = Some(i);
    }
    let reached = head == Some(cur.name);
    Ok(Walk { steps: walker.steps.drain(..).collect(), cur, reached, blocked: blocked_first })
}

/// A channel prepared for OLM v0 walks: its order, parsed skipRanges, which entries are
/// prohibited (legacy `olm.deprecated`), and where OLM v0 goes from each entry.
pub struct V0Channel<'a> {
    package: &'a Package,
    channel: &'a Channel,
    pub order: Vec<usize>,
    /// Each entry's position in `order`, when on it.
    rank: Vec<Option<usize>>,
    ranges: Vec<Option<VersionRange>>,
    prohibited: Vec<bool>,
    /// For each entry: where OLM v0 goes from it, and the first prohibited entry passed over.
    memo: Vec<NextStep>,
}

impl<'a> V0Channel<'a> {
    pub fn new(package: &'a Package, channel: &'a Channel) -> Result<V0Channel<'a>, PathError> {
        let order = channel_order(&package.name, channel).map_err(|e| PathError::Order(e.to_string()))?;
        Ok(V0Channel::with_order(package, channel, order, &Fans::new(package, channel)))
    }

    /// The channel with its (valid) OLM v0 order and its fans already computed.
    pub fn with_order(package: &'a Package, channel: &'a Channel, order: Vec<usize>, fans: &Fans) -> V0Channel<'a> {
        let mut rank = vec![None; channel.entries.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = Some(r);
        }
        let ranges = channel.entries.iter().map(|e| e.range().cloned()).collect();
        let prohibited: Vec<bool> = channel
            .entries
            .iter()
            .map(|e| {
                e.bundle
                    .and_then(|b| package.bundles.get(b))
                    .is_some_and(|b| b.properties.iter().any(|(_, p)| matches!(p, Property::Deprecated)))
            })
            .collect();
        // The closest entry to the head that upgrades each entry, among the installable entries
        // and among the prohibited ones: a prohibited one closer to the head is passed over.
        let declared = Declared::new(channel);
        let (r, p) = (&rank, &prohibited);
        let key = |want: bool| move |i: usize| r[i].filter(|_| p[i] == want);
        let allowed = best_successors(channel, fans, &declared, key(false));
        let barred = best_successors(channel, fans, &declared, key(true));
        let memo = allowed
            .into_iter()
            .zip(barred)
            .map(|(step, barred)| {
                let before = |b: &(usize, EdgeKind)| step.is_none_or(|(s, _)| rank[b.0] < rank[s]);
                (step, barred.filter(before).map(|(b, _)| b))
            })
            .collect();
        V0Channel { package, channel, order, rank, ranges, prohibited, memo }
    }

    fn kind(&self, i: usize, cur: &Current<'_>) -> Option<EdgeKind> {
        edge_kind_with(&self.channel.entries[i], self.ranges[i].as_ref(), cur)
    }

    /// The entry OLM v0 moves to from `cur` (a start that is no entry of the channel), and the
    /// first prohibited entry passed over.
    fn next(&self, cur: &Current<'_>) -> NextStep {
        let mut blocked = None;
        for &i in &self.order {
            if self.channel.entries[i].name.value == cur.name {
                continue;
            }
            let Some(kind) = self.kind(i, cur) else { continue };
            if self.prohibited[i] {
                blocked.get_or_insert(i);
                continue;
            }
            return (Some((i, kind)), blocked);
        }
        (None, blocked)
    }

    /// The entry OLM v0 moves to from entry `i` (by index), for every entry.
    pub fn next_of_entries(&self) -> Vec<Option<usize>> {
        self.memo.iter().map(|(n, _)| n.map(|(j, _)| j)).collect()
    }

    pub fn path(&self, start: &Start) -> Result<UpgradePath, PathError> {
        self.path_at(Begin::of(self.channel, start), &mut Walker::new(self.channel))
    }

    /// [`path`](V0Channel::path) from `begin`, with the channel's `walker`.
    fn path_at(&self, begin: Begin<'_>, walker: &mut Walker) -> Result<UpgradePath, PathError> {
        let head = self.order.first().copied();
        let head_name = head.map(|h| self.channel.entries[h].name.value.as_str());
        let walk = walk(self.package, self.channel, begin, head_name, walker, |at, cur| match at {
            Some(i) => self.memo[i],
            None => self.next(cur),
        })?;
        let blocked = walk.blocked.map(|b| self.channel.entries[b].name.value.clone());
        let reason = walk.stranded().then(|| {
            let off = if blocked.is_some() { (Vec::new(), 0) } else { self.off_order_upgraders(&walk.cur) };
            self.reason(&walk.cur, blocked, off, &Declared::new(self.channel))
        });
        let from = walker.start_name(self.channel, begin);
        Ok(walk.into_path(from, head.map(|h| walker.name(self.channel, h)), reason))
    }

    /// Why OLM v0 cannot reach the head from each entry (`None` for the entries that can), as
    /// [`path`](V0Channel::path) gives it, for the whole channel at once.
    pub fn stranded_reasons(&self, fans: &Fans) -> Vec<Option<String>> {
        let blocked: Vec<Option<usize>> = self.memo.iter().map(|m| m.1).collect();
        let outs = outcomes(&self.next_of_entries(), &blocked, self.order.first().copied());
        let n = self.channel.entries.len();
        let mut wanted = vec![false; n];
        for o in outs.iter().filter(|o| !o.reached && o.blocked.is_none()) {
            wanted[o.end] = true;
        }
        // The off-order entries whose skipRange covers each wanted end: the first ones by entry
        // index, and how many.
        let mut by_range: Vec<(Vec<usize>, usize)> = vec![(Vec::new(), 0); n];
        fans.sweep(
            |i| self.rank[i].is_none().then_some(i),
            |q, covering| {
                if wanted[q] {
                    let others = covering.iter().map(|&(_, i)| i).filter(|&i| i != q);
                    by_range[q] = (others.take(LIST_CAP).collect(), covering.len() - usize::from(fans.covers(q, q)));
                }
            },
        );
        let declared = Declared::new(self.channel);
        let mut memo: HashMap<(usize, Option<usize>), String> = HashMap::new();
        outs.iter()
            .map(|o| {
                if o.reached {
                    return None;
                }
                let reason = memo.entry((o.end, o.blocked)).or_insert_with(|| {
                    let cur = self.current(o.end);
                    let blocked = o.blocked.map(|b| self.channel.entries[b].name.value.clone());
                    let off = if blocked.is_some() {
                        (Vec::new(), 0)
                    } else {
                        let (first, count) = std::mem::take(&mut by_range[o.end]);
                        self.with_declared(o.end, &declared, fans, first, count)
                    };
                    self.reason(&cur, blocked, off, &declared)
                });
                Some(reason.clone())
            })
            .collect()
    }

    fn current(&self, i: usize) -> Current<'a> {
        let e = &self.channel.entries[i];
        Current { name: &e.name.value, version: entry_version(self.package, e.bundle) }
    }

    /// The off-order entries (other than `q`) that replace or skip entry `q`, merged with the
    /// first `by_range` of the `count` off-order entries whose skipRange covers it: the first
    /// [`LIST_CAP`] by entry index, and how many in all.
    fn with_declared(
        &self,
        q: usize,
        declared: &Declared<'_>,
        fans: &Fans,
        by_range: Vec<usize>,
        count: usize,
    ) -> (Vec<usize>, usize) {
        let name = &self.channel.entries[q].name.value;
        let mut named: Vec<usize> = if name.is_empty() {
            Vec::new()
        } else {
            declared.of(name).map(|(i, _)| i).filter(|&i| i != q && self.rank[i].is_none()).collect()
        };
        crate::sort::sort(&mut named);
        named.dedup();
        let extra = named.iter().filter(|&&i| !fans.covers(i, q)).count();
        let mut all = by_range;
        all.extend(named);
        crate::sort::sort(&mut all);
        all.dedup();
        all.truncate(LIST_CAP);
        (all, count + extra)
    }

    /// The off-order entries that upgrade `cur` (a scan of the channel, for one path): the first
    /// [`LIST_CAP`] by entry index, and how many.
    fn off_order_upgraders(&self, cur: &Current<'_>) -> (Vec<usize>, usize) {
        let all: Vec<usize> = (0..self.channel.entries.len())
            .filter(|&i| {
                self.rank[i].is_none() && self.channel.entries[i].name.value != cur.name && self.kind(i, cur).is_some()
            })
            .collect();
        let count = all.len();
        (all.into_iter().take(LIST_CAP).collect(), count)
    }

    /// A sentence saying why OLM v0 stops at `cur`: the prohibited entry passed over, else the
    /// entries off OLM v0's order that would upgrade it (`off`: the first ones and how many), the
    /// edge that keeps the first skipped one off (from `declared`), and the fix.
    fn reason(
        &self,
        cur: &Current<'_>,
        deprecated: Option<String>,
        off: (Vec<usize>, usize),
        declared: &Declared<'_>,
    ) -> String {
        let who = display_name(cur);
        if let Some(name) = deprecated {
            return format!(
                "{} would upgrade {} but carries the olm.deprecated property, which OLM v0 never installs",
                q(&name),
                q(&who)
            );
        }
        let (first, count) = off;
        let Some(head) = self.order.first().map(|&h| &self.channel.entries[h].name.value).filter(|_| count > 0) else {
            return format!(
                "no entry of channel {} on OLM v0's replaces chain {}",
                q(&self.channel.name),
                upgrades(cur)
            );
        };
        // When an entry skips the first upgrader, that edge and entry are named; else the
        // upgraders are off the chain, and the head is to skip the release.
        let e = &self.channel.entries;
        let (s, them, are) = if count == 1 { ("s", "it", "is") } else { ("", "them", "are") };
        let mut fix = head;
        let mut why = format!("{them} {are} not on the replaces chain from the head {}", q(head));
        let u = first.first().map_or(head, |&i| &e[i].name.value);
        if let Some(k) = declared.skipper(u) {
            fix = &e[k].name.value;
            why = format!("{} skips {}, so OLM v0 drops it", q(fix), q(u));
        }
        format!(
            "only {} upgrade{s} {who}, and OLM v0 never installs {them}: {why}; add {who} to the skips of {}",
            join_counted(first.iter().map(|&i| q(&e[i].name.value)), count, ", "),
            q(fix),
            who = q(&who)
        )
    }
}

fn v0_path(package: &Package, channel: &Channel, start: &Start) -> Result<UpgradePath, PathError> {
    V0Channel::new(package, channel)?.path(start)
}

/// What an entry would have to do to upgrade `cur`: replace or skip it, or cover its version
/// (a bare version has only its version).
fn upgrades(cur: &Current<'_>) -> String {
    match cur.version {
        Some(v) if cur.name.is_empty() => format!("covers {v} with skipRange"),
        v => format!(
            "replaces or skips {}{}",
            q(cur.name),
            if v.is_some() { " or covers its version with skipRange" } else { "" }
        ),
    }
}

/// The installed state's name, or its version when it has none (a start from a bare version).
fn display_name(cur: &Current<'_>) -> String {
    if cur.name.is_empty() {
        cur.version.map(Version::to_string).unwrap_or_default()
    } else {
        cur.name.to_string()
    }
}

mod v1;
pub use v1::{legacy_successor, successors_v1, successors_v1_semver, v1_first_steps};
use v1::{v1_path, V1Channel};

/// Every entry's path to the head of `channel`, in entry order, preparing the channel once.
pub fn channel_paths(
    package: &Package,
    channel: &Channel,
    semantics: Semantics,
) -> Result<Vec<UpgradePath>, PathError> {
    let mut walker = Walker::new(channel);
    let n = channel.entries.len();
    match semantics {
        Semantics::V0 => {
            let v0 = V0Channel::new(package, channel)?;
            (0..n).map(|i| v0.path_at(Begin::Entry(walker.first[i]), &mut walker)).collect()
        }
        Semantics::V1 => {
            let v1 = V1Channel::new(package, channel);
            (0..n).map(|i| v1.path_at(Begin::Entry(walker.first[i]), &mut walker)).collect()
        }
    }
}

/// The upgrade rules, each shown on a small catalog of package `foo` whose entry `foo.vX.Y.Z` is
/// a bundle of version X.Y.Z. Paths are written as the CLI prints them, without the `foo.v`.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::{channel, foo, TestCatalog};
    use crate::model::Model;

    fn short(name: &str) -> &str {
        name.strip_prefix("foo.v").unwrap_or(name)
    }

    /// The path from `start` to the head of channel `stable`.
    fn path_from(m: &Model, semantics: Semantics, start: Start) -> UpgradePath {
        upgrade_path(foo(m), channel(m, "stable"), &start, semantics).expect("a path")
    }

    /// The steps from bundle `from`, as `1.0.0 -> 1.1.0 (replaces)`.
    fn steps(m: &Model, semantics: Semantics, from: &str) -> Vec<String> {
        render(&path_from(m, semantics, Start::Bundle(from.into())))
    }

    #[test]
    fn a_walk_remembers_every_name_it_was_on_and_a_new_walk_forgets_them() {
        // Entries 0 and 2 bear the same name (`first` says so; the model reports and drops such
        // duplicates, the walks do not rely on it): a walk on one has been on both.
        let mut w = Walker { names: vec![None; 3], first: vec![0, 1, 0], seen: vec![0; 3], walk: 0, steps: Vec::new() };
        w.begin(Some(0));
        assert!(!w.enter(0), "the start");
        assert!(!w.enter(2), "the start's name");
        assert!(w.enter(1));
        assert!(!w.enter(1));
        w.begin(None);
        assert!(w.enter(2));
        assert!(!w.enter(0));
        assert!(w.enter(1));
    }

    fn render(p: &UpgradePath) -> Vec<String> {
        p.steps.iter().map(|s| format!("{} -> {} ({})", short(&s.from), short(&s.to), s.edge.as_str())).collect()
    }

    fn version(text: &str) -> Version {
        Version::parse(text).expect("a version")
    }

    /// 1.0.0 <- 1.1.0 <- 1.2.0 along `replaces`.
    fn replaces_chain() -> Model {
        TestCatalog::new()
            .channel(
                "stable",
                "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
                ",
            )
            .build()
    }

    /// `v1_first_steps` says of every entry what its OLM v1 path says: where it goes first and
    /// whether it reaches the head.
    #[test]
    fn v1_first_steps_agree_with_the_v1_paths() {
        let shapes = [
            // a chain; a skip that leaves an entry behind; a loop off the head (1.1.0 skips 1.2.0);
            // a channel with two heads (no head: nothing reaches).
            "- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n- name: foo.v1.2.0\n  replaces: foo.v1.1.0",
            "- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n- name: foo.v1.2.0\n  skips: [foo.v1.1.0]",
            "- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n  skips: [foo.v1.2.0]\n- name: foo.v1.2.0\n  replaces: foo.v1.1.0\n- name: foo.v2.0.0\n  skipRange: '>=1.3.0'",
            "- name: foo.v1.0.0\n- name: foo.v1.1.0\n  replaces: foo.v1.0.0\n- name: foo.v1.2.0\n  replaces: foo.v1.0.0",
            "- name: foo.v1.0.0\n- name: foo.v1.1.0\n  skipRange: '<1.1.0'\n- name: foo.v1.2.0\n  replaces: foo.v1.1.0\n  skipRange: '<1.2.0'",
        ];
        for shape in shapes {
            let m = TestCatalog::new().channel("stable", shape).build();
            let (p, c) = (foo(&m), channel(&m, "stable"));
            let paths = channel_paths(p, c, Semantics::V1).expect("paths");
            let first = v1_first_steps(p, c);
            for (i, (path, &(next, reaches))) in paths.iter().zip(&first).enumerate() {
                assert_eq!(reaches, !path.stranded, "{shape}: entry {i}");
                if let Some(step) = path.steps.first() {
                    assert_eq!(next.map(|j| c.entries[j].name.value.as_str()), Some(&*step.to), "{shape}: entry {i}");
                }
            }
        }
    }

    mod replaces {
        use super::*;

        #[test]
        fn an_entry_upgrades_the_one_it_replaces() {
            let m = replaces_chain();
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.1.0"), ["1.1.0 -> 1.2.0 (replaces)"]);
            assert_eq!(steps(&m, Semantics::V1, "foo.v1.1.0"), ["1.1.0 -> 1.2.0 (replaces)"]);
        }

        #[test]
        fn a_chain_is_walked_one_version_at_a_time() {
            // replaces is not transitive: 1.2.0 does not upgrade 1.0.0 directly, in v0 or v1.
            let m = replaces_chain();
            let want = ["1.0.0 -> 1.1.0 (replaces)", "1.1.0 -> 1.2.0 (replaces)"];
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.0.0"), want);
            assert_eq!(steps(&m, Semantics::V1, "foo.v1.0.0"), want);
        }

        #[test]
        fn the_head_needs_no_upgrade() {
            let m = replaces_chain();
            let p = path_from(&m, Semantics::V0, Start::Bundle("foo.v1.2.0".into()));
            assert_eq!((p.steps.len(), p.stranded, p.to.as_deref()), (0, false, Some("foo.v1.2.0")));
        }

        #[test]
        fn an_installed_bundle_of_another_package_can_be_replaced() {
            // A renamed package: its first entry replaces the old package's bundle.
            let m = TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                      replaces: bar.v3.0.0
                    - name: foo.v1.1.0
                      replaces: foo.v1.0.0
                    ",
                )
                .build();
            let start = Start::Installed { name: "bar.v3.0.0".into(), version: Some(version("3.0.0")) };
            let p = path_from(&m, Semantics::V0, start);
            assert_eq!(render(&p), ["bar.v3.0.0 -> 1.0.0 (replaces)", "1.0.0 -> 1.1.0 (replaces)"]);
        }
    }

    mod skips {
        use super::*;

        /// 1.2.0 replaces 1.0.0 and skips 1.1.0, which also replaces 1.0.0.
        fn skipping() -> Model {
            TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                    - name: foo.v1.1.0
                      replaces: foo.v1.0.0
                    - name: foo.v1.2.0
                      replaces: foo.v1.0.0
                      skips: [foo.v1.1.0]
                    ",
                )
                .build()
        }

        #[test]
        fn an_entry_upgrades_every_entry_it_skips() {
            let m = skipping();
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.1.0"), ["1.1.0 -> 1.2.0 (skips)"]);
            assert_eq!(steps(&m, Semantics::V1, "foo.v1.1.0"), ["1.1.0 -> 1.2.0 (skips)"]);
        }

        #[test]
        fn v0_never_installs_a_skipped_entry() {
            // 1.1.0 replaces 1.0.0 too, but a skipped entry is off OLM v0's channel order.
            let m = skipping();
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.0.0"), ["1.0.0 -> 1.2.0 (replaces)"]);
        }

        #[test]
        fn v0_strands_a_version_whose_only_successor_is_skipped() {
            // 1.1.0 is the only entry that upgrades 1.0.0, and 1.2.0 skips it.
            let m = TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                    - name: foo.v1.1.0
                      replaces: foo.v1.0.0
                    - name: foo.v1.2.0
                      replaces: foo.v1.1.0
                      skips: [foo.v1.1.0]
                    ",
                )
                .build();
            let p = path_from(&m, Semantics::V0, Start::Bundle("foo.v1.0.0".into()));
            assert!(p.stranded && p.steps.is_empty());
            assert_eq!(
                p.reason.as_deref(),
                Some(
                    "only \"foo.v1.1.0\" upgrades \"foo.v1.0.0\", and OLM v0 never installs it: \"foo.v1.2.0\" skips \"foo.v1.1.0\", so OLM v0 drops it; add \"foo.v1.0.0\" to the skips of \"foo.v1.2.0\""
                )
            );
            // OLM v1 has no channel order: every declared edge counts, skipped entries included.
            assert_eq!(
                steps(&m, Semantics::V1, "foo.v1.0.0"),
                ["1.0.0 -> 1.1.0 (replaces)", "1.1.0 -> 1.2.0 (replaces)"]
            );
        }
    }

    mod skip_range {
        use super::*;

        /// The replaces chain, with a skipRange on the head.
        fn ranged(range: &str) -> Model {
            TestCatalog::new()
                .channel(
                    "stable",
                    &format!(
                        "
                        - name: foo.v1.0.0
                        - name: foo.v1.1.0
                          replaces: foo.v1.0.0
                        - name: foo.v1.2.0
                          replaces: foo.v1.1.0
                          skipRange: '{range}'
                        "
                    ),
                )
                .build()
        }

        #[test]
        fn an_entry_upgrades_every_version_its_range_covers() {
            let m = ranged(">=1.0.0 <1.2.0");
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.0.0"), ["1.0.0 -> 1.2.0 (skipRange)"]);
            assert_eq!(steps(&m, Semantics::V1, "foo.v1.0.0"), ["1.0.0 -> 1.2.0 (skipRange)"]);
        }

        #[test]
        fn replaces_and_skips_name_the_edge_before_skip_range() {
            // 1.1.0 is both replaced by the head and covered by its range.
            let m = ranged(">=1.0.0 <1.2.0");
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.1.0"), ["1.1.0 -> 1.2.0 (replaces)"]);
        }

        #[test]
        fn a_bare_version_upgrades_only_through_skip_range() {
            // A version in no channel (installed from elsewhere) has no name to replace or skip.
            let m = ranged(">=1.0.0 <1.2.0");
            let p = path_from(&m, Semantics::V0, Start::Version(version("1.0.5")));
            assert_eq!(render(&p), ["1.0.5 -> 1.2.0 (skipRange)"]);
            let p = path_from(&m, Semantics::V0, Start::Version(version("0.9.0")));
            assert!(p.stranded);
            assert_eq!(
                p.reason.as_deref(),
                Some("no entry of channel \"stable\" on OLM v0's replaces chain covers 0.9.0 with skipRange")
            );
        }

        #[test]
        fn an_invalid_range_declares_nothing() {
            let m = ranged("not a range");
            assert_eq!(
                steps(&m, Semantics::V0, "foo.v1.0.0"),
                ["1.0.0 -> 1.1.0 (replaces)", "1.1.0 -> 1.2.0 (replaces)"]
            );
        }
    }

    mod choosing {
        use super::*;

        /// The head 1.5.0 covers 1.0.0 with its range; 2.0.0 (a higher version, further from the
        /// head) replaces 1.0.0.
        fn head_not_highest() -> Model {
            TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                    - name: foo.v2.0.0
                      replaces: foo.v1.0.0
                    - name: foo.v1.5.0
                      replaces: foo.v2.0.0
                      skipRange: '>=1.0.0 <1.5.0'
                    ",
                )
                .build()
        }

        #[test]
        fn v0_takes_the_candidate_closest_to_the_head() {
            // OLM v0 never compares versions: its order is the replaces chain from the head.
            let m = head_not_highest();
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.0.0"), ["1.0.0 -> 1.5.0 (skipRange)"]);
        }

        #[test]
        fn v1_takes_the_highest_version() {
            let m = head_not_highest();
            assert_eq!(
                steps(&m, Semantics::V1, "foo.v1.0.0"),
                ["1.0.0 -> 2.0.0 (replaces)", "2.0.0 -> 1.5.0 (replaces)"]
            );
        }

        #[test]
        fn v0_needs_a_single_replaces_chain() {
            let m = TestCatalog::new().channel("stable", "[{name: foo.v1.0.0}, {name: foo.v1.1.0}]").build();
            let err = upgrade_path(foo(&m), channel(&m, "stable"), &Start::Bundle("foo.v1.0.0".into()), Semantics::V0)
                .expect_err("two heads");
            assert_eq!(
                err.to_string(),
                "a unique replacement chain within a channel is required to determine the relative order between channel entries, but 2 replacement chains were found in channel \"stable\" of package \"foo\": foo.v1.0.0, foo.v1.1.0"
            );
            // OLM v1 has no chain to build, but there is no single head to reach either.
            let p = path_from(&m, Semantics::V1, Start::Bundle("foo.v1.0.0".into()));
            assert_eq!((p.to, p.stranded), (None, true));
        }
    }

    mod deprecated {
        use super::*;

        #[test]
        fn v0_never_installs_a_bundle_with_the_olm_deprecated_property() {
            let m = TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                    - name: foo.v1.1.0
                      replaces: foo.v1.0.0
                    - name: foo.v1.2.0
                      replaces: foo.v1.1.0
                    ",
                )
                .olm_deprecated("foo.v1.1.0")
                .build();
            let p = path_from(&m, Semantics::V0, Start::Bundle("foo.v1.0.0".into()));
            assert!(p.stranded);
            assert_eq!(
                p.reason.as_deref(),
                Some("\"foo.v1.1.0\" would upgrade \"foo.v1.0.0\" but carries the olm.deprecated property, which OLM v0 never installs")
            );
        }

        /// 1.2.0, the head, covers 1.0.0 with its range and is deprecated.
        fn deprecated_head() -> Model {
            TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                    - name: foo.v1.1.0
                      replaces: foo.v1.0.0
                    - name: foo.v1.2.0
                      replaces: foo.v1.1.0
                      skipRange: '<1.1.0'
                    ",
                )
                .deprecate_bundle("foo.v1.2.0", "use 1.3")
                .build()
        }

        #[test]
        fn v1_prefers_a_successor_that_is_not_deprecated() {
            let m = deprecated_head();
            assert_eq!(
                steps(&m, Semantics::V1, "foo.v1.0.0"),
                ["1.0.0 -> 1.1.0 (replaces)", "1.1.0 -> 1.2.0 (replaces)"]
            );
        }

        #[test]
        fn v0_ignores_olm_deprecations() {
            let m = deprecated_head();
            assert_eq!(steps(&m, Semantics::V0, "foo.v1.0.0"), ["1.0.0 -> 1.2.0 (skipRange)"]);
        }
    }

    mod v1_successors {
        use super::*;

        #[test]
        fn direct_edges_and_the_same_version_are_successors() {
            // Staying put is allowed; 1.2.0 replaces 1.1.0, not 1.0.0, so it is not one.
            let m = replaces_chain();
            let got = successors_v1(foo(&m), None, "foo.v1.0.0", &version("1.0.0"));
            assert_eq!(got, ["foo.v1.0.0", "foo.v1.1.0"]);
            let entry = |n: &str| channel(&m, "stable").entry(n).expect("entry");
            assert!(legacy_successor(entry("foo.v1.1.0"), "foo.v1.0.0", &version("1.0.0")));
            assert!(!legacy_successor(entry("foo.v1.2.0"), "foo.v1.0.0", &version("1.0.0")));
        }

        #[test]
        fn build_metadata_is_read_as_a_release() {
            // An installed 1.0.0+1 is release 1 of 1.0.0: not the same as the bundle 1.0.0.
            let m = replaces_chain();
            let got = successors_v1(foo(&m), None, "elsewhere", &version("1.0.0+1"));
            assert!(got.is_empty(), "{got:?}");
        }

        #[test]
        fn only_the_given_channels_declare_edges() {
            let m = TestCatalog::new()
                .channel("stable", "[{name: foo.v1.0.0}]")
                .channel("fast", "[{name: foo.v1.0.0}, {name: foo.v1.1.0, replaces: foo.v1.0.0}]")
                .build();
            let stable = [channel(&m, "stable")];
            let only_stable = successors_v1(foo(&m), Some(&stable), "foo.v1.0.0", &version("1.0.0"));
            assert_eq!(only_stable, ["foo.v1.0.0"]);
            let all = successors_v1(foo(&m), None, "foo.v1.0.0", &version("1.0.0"));
            assert_eq!(all, ["foo.v1.0.0", "foo.v1.1.0"]);
        }

        #[test]
        fn historical_semver_successors_follow_the_caret() {
            let m = TestCatalog::new()
                .channel(
                    "stable",
                    "[{name: foo.v0.0.3}, {name: foo.v0.2.0}, {name: foo.v0.2.1}, {name: foo.v1.2.0},
                      {name: foo.v1.3.0-rc.1}, {name: foo.v1.4.0}, {name: foo.v2.0.0}]",
                )
                .build();
            let semver = |v: &str| successors_v1_semver(foo(&m), &version(v));
            assert_eq!(semver("1.2.0"), ["foo.v1.2.0", "foo.v1.4.0"]);
            assert_eq!(semver("0.2.0"), ["foo.v0.2.0", "foo.v0.2.1"]);
            assert_eq!(semver("0.0.3"), ["foo.v0.0.3"]);
        }
    }

    mod start {
        use super::*;

        /// The path from what a user typed, and its note.
        fn typed(m: &Model, semantics: Semantics, text: &str) -> (Vec<String>, bool, Option<String>, Option<String>) {
            let p = path_from(m, semantics, Start::from_input(text));
            (render(&p), p.stranded, p.reason, p.note)
        }

        #[test]
        fn a_typed_version_starts_at_its_bundle() {
            let m = replaces_chain();
            for semantics in [Semantics::V0, Semantics::V1] {
                let (steps, stranded, _, note) = typed(&m, semantics, "v1.0.0");
                assert_eq!(steps, ["1.0.0 -> 1.1.0 (replaces)", "1.1.0 -> 1.2.0 (replaces)"]);
                assert!(!stranded);
                assert_eq!(note.as_deref(), Some("1.0.0 is the version of foo.v1.0.0"));
            }
        }

        #[test]
        fn a_typed_version_of_the_head_is_already_there() {
            let m = replaces_chain();
            let p = path_from(&m, Semantics::V0, Start::from_input("1.2.0"));
            assert_eq!((p.from.as_ref(), p.steps.len(), p.stranded), ("foo.v1.2.0", 0, false));
        }

        #[test]
        fn a_bare_version_is_said_to_be_in_no_bundle_and_upgrades_only_by_a_skip_range() {
            let m = replaces_chain();
            let bare = "1.0.5 is not in this catalog; OLM can upgrade it only through a skipRange that covers it";
            let (steps, stranded, reason, note) = typed(&m, Semantics::V0, "1.0.5");
            assert!(steps.is_empty() && stranded);
            assert_eq!(
                reason.as_deref(),
                Some("no entry of channel \"stable\" on OLM v0's replaces chain covers 1.0.5 with skipRange")
            );
            assert_eq!(note.as_deref(), Some(bare));
            let (_, _, reason, _) = typed(&m, Semantics::V1, "1.0.5");
            assert_eq!(reason.as_deref(), Some("no entry of channel \"stable\" covers 1.0.5 with skipRange"));
            let covered = TestCatalog::new()
                .channel(
                    "stable",
                    "[{name: foo.v1.0.0}, {name: foo.v1.1.0, replaces: foo.v1.0.0, skipRange: '<1.1.0'}]",
                )
                .build();
            let (steps, stranded, _, note) = typed(&covered, Semantics::V0, "1.0.5");
            assert_eq!(
                (steps, stranded, note.as_deref()),
                (vec!["1.0.5 -> 1.1.0 (skipRange)".to_string()], false, Some(bare))
            );
        }

        #[test]
        fn a_version_several_bundles_have_is_asked_back() {
            let m = TestCatalog::new()
                .channel(
                    "stable",
                    "[{name: foo.a}, {name: foo.b, replaces: foo.a}, {name: foo.v2.0.0, replaces: foo.b}]",
                )
                .version("foo.a", "1.0.0+1")
                .version("foo.b", "1.0.0+2")
                .build();
            let err = upgrade_path(foo(&m), channel(&m, "stable"), &Start::from_input("1.0.0"), Semantics::V0)
                .expect_err("a question");
            assert_eq!(
                err.to_string(),
                "2 bundles of this package have version 1.0.0 in channel stable: foo.a, foo.b; which one is installed? Give its name instead of the version"
            );
        }

        #[test]
        fn an_unknown_bundle_is_an_error() {
            let m = replaces_chain();
            let err = upgrade_path(foo(&m), channel(&m, "stable"), &Start::Bundle("foo.v9".into()), Semantics::V0)
                .expect_err("unknown");
            assert_eq!(err.to_string(), "\"foo.v9\" is neither a bundle of this package nor a version (like 1.2.0)");
        }

        #[test]
        fn channel_paths_has_every_entrys_path() {
            // A chain; skips, a skipRange and an entry off the chain; a head that is not the
            // highest version; each entry's path alone equals its place in `channel_paths`.
            let off_chain = TestCatalog::new()
                .channel(
                    "stable",
                    "
                    - name: foo.v1.0.0
                    - name: foo.v1.1.0
                      replaces: foo.v1.0.0
                    - name: foo.v1.2.0
                      replaces: foo.v1.1.0
                      skips: [foo.v1.0.5]
                    - name: foo.v1.0.5
                    - name: foo.v2.0.0
                      replaces: foo.v1.2.0
                      skipRange: '>=1.0.0 <2.0.0'
                    - name: foo.v1.5.0
                    ",
                )
                .build();
            let low_head = TestCatalog::new()
                .channel("stable", "[{name: foo.v1.0.0, replaces: foo.v2.0.0}, {name: foo.v2.0.0}]")
                .build();
            for m in [replaces_chain(), off_chain, low_head] {
                for semantics in [Semantics::V0, Semantics::V1] {
                    let c = channel(&m, "stable");
                    let all = channel_paths(foo(&m), c, semantics);
                    let each: Result<Vec<UpgradePath>, PathError> = c
                        .entries
                        .iter()
                        .map(|e| upgrade_path(foo(&m), c, &Start::Bundle(e.name.value.clone()), semantics))
                        .collect();
                    assert_eq!(all.map_err(|e| e.to_string()), each.map_err(|e| e.to_string()));
                }
            }
        }
    }
}
