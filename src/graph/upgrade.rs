//! Upgrade paths. OLM v0 moves one edge per resolution: from the installed bundle it takes the
//! entry closest to the head (in its channel order) that replaces it, skips it, or covers its
//! version with `skipRange`, and repeats. OLM v1 allows any direct successor (plus staying put)
//! and picks the highest version. A version with no path to the head is stranded, and we say why.

use std::collections::HashSet;

use serde::Serialize;

use super::channel_graph::{entry_version, EdgeKind};
use super::order::channel_order;
use crate::model::{Channel, Entry, Package};
use crate::property::Property;
use crate::version::{go_quote as q, Version, VersionRange, VersionRelease};

/// Which OLM's rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Semantics {
    V0,
    V1,
}

/// Where an upgrade starts: an installed bundle, or a bare version that is in no channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Start {
    /// A bundle of the package.
    Bundle(String),
    /// A bare version.
    Version(Version),
    /// An installed bundle that need not belong to the package (a renamed package's CSV, say).
    Installed { name: String, version: Option<Version> },
}

impl Start {
    /// A bundle name, or a version when the text parses as one and names no bundle of `package`.
    pub fn parse(package: &Package, text: &str) -> Start {
        if package.bundle(text).is_none() && package.channels.iter().all(|c| c.entry(text).is_none()) {
            let t = text.strip_prefix('v').unwrap_or(text);
            if let Ok(v) = Version::parse(t) {
                return Start::Version(v);
            }
        }
        Start::Bundle(text.to_string())
    }
}

/// One upgrade.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    pub from: String,
    pub to: String,
    pub edge: EdgeKind,
}

/// The upgrades OLM would make from a start to the channel head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UpgradePath {
    /// The start, as given (bundle name or version).
    pub from: String,
    /// The channel head (the goal), when the channel has one.
    pub to: Option<String>,
    pub steps: Vec<Step>,
    /// No path reaches the head.
    pub stranded: bool,
    /// Why, when stranded.
    pub reason: Option<String>,
}

/// Why no path could be computed at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    UnknownBundle(String),
    Order(String),
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::UnknownBundle(b) => {
                write!(f, "{} is neither a bundle of this package nor a version (like 1.2.0)", q(b))
            }
            PathError::Order(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PathError {}

/// The installed state between steps.
struct Current {
    name: String,
    version: Option<Version>,
}

/// How `candidate` upgrades from `cur`, if it does (replaces, then skips, then skipRange).
fn edge_kind(candidate: &Entry, cur: &Current) -> Option<EdgeKind> {
    edge_kind_with(candidate, candidate.range(), cur)
}

/// How `candidate` upgrades from `cur` (replaces, then skips, then its already-parsed skipRange).
fn edge_kind_with(candidate: &Entry, range: Option<&VersionRange>, cur: &Current) -> Option<EdgeKind> {
    if !cur.name.is_empty() && candidate.replaces.value == cur.name {
        return Some(EdgeKind::Replaces);
    }
    if !cur.name.is_empty() && candidate.skips.iter().any(|s| s.value == cur.name) {
        return Some(EdgeKind::Skips);
    }
    let v = cur.version.as_ref()?;
    range.filter(|r| r.contains(v)).map(|_| EdgeKind::SkipRange)
}

fn start_state(package: &Package, start: &Start) -> Result<Current, PathError> {
    match start {
        Start::Version(v) => Ok(Current { name: String::new(), version: Some(v.clone()) }),
        Start::Installed { name, version } => Ok(Current { name: name.clone(), version: version.clone() }),
        Start::Bundle(name) => {
            let known = package.bundle(name).is_some() || package.channels.iter().any(|c| c.entry(name).is_some());
            if !known {
                return Err(PathError::UnknownBundle(name.clone()));
            }
            Ok(Current { name: name.clone(), version: package.bundle(name).and_then(|b| b.version.clone()) })
        }
    }
}

fn start_text(start: &Start) -> String {
    match start {
        Start::Bundle(b) | Start::Installed { name: b, .. } => b.clone(),
        Start::Version(v) => v.to_string(),
    }
}

/// The path OLM would take from `start` to the head of `channel`.
pub fn upgrade_path(
    package: &Package,
    channel: &Channel,
    start: &Start,
    semantics: Semantics,
) -> Result<UpgradePath, PathError> {
    match semantics {
        Semantics::V0 => v0_path(package, channel, start),
        Semantics::V1 => v1_path(package, channel, start),
    }
}

/// The next upgrade from a state (entry index and edge), and the first prohibited entry passed over.
type NextStep = (Option<(usize, EdgeKind)>, Option<usize>);

/// Where a walk from a start towards the head ended.
struct Walk {
    steps: Vec<Step>,
    cur: Current,
    reached: bool,
    /// The first prohibited entry passed over on the way.
    blocked: Option<usize>,
}

impl Walk {
    fn stranded(&self) -> bool {
        !self.reached
    }

    fn into_path(self, start: &Start, head: Option<String>, reason: Option<String>) -> UpgradePath {
        UpgradePath { from: start_text(start), to: head, steps: self.steps, stranded: !self.reached, reason }
    }
}

/// Follow `next` (given the entry index the walk is at, if any, and the installed state) one
/// upgrade at a time until the head, a dead end or a cycle.
fn walk(
    package: &Package,
    channel: &Channel,
    start: &Start,
    head: Option<&str>,
    next: impl Fn(Option<usize>, &Current) -> NextStep,
) -> Result<Walk, PathError> {
    let mut cur = start_state(package, start)?;
    let mut steps = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    seen.insert(cur.name.clone());
    let mut blocked_first = None;
    // Once on an entry of the channel, callers answer from their memo.
    let mut at: Option<usize> = match start {
        Start::Bundle(name) => channel.entries.iter().position(|e| &e.name.value == name),
        _ => None,
    };
    while head != Some(cur.name.as_str()) {
        let (step, blocked) = next(at, &cur);
        if blocked_first.is_none() {
            blocked_first = blocked;
        }
        let Some((i, kind)) = step else { break };
        let e = &channel.entries[i];
        if !seen.insert(e.name.value.clone()) {
            break;
        }
        steps.push(Step { from: display_name(&cur), to: e.name.value.clone(), edge: kind });
        cur = Current { name: e.name.value.clone(), version: entry_version(package, e.bundle).cloned() };
        at = Some(i);
    }
    let reached = head == Some(cur.name.as_str());
    Ok(Walk { steps, cur, reached, blocked: blocked_first })
}

/// A channel prepared for OLM v0 walks: its order, parsed skipRanges, and which entries are
/// prohibited (legacy `olm.deprecated`).
pub(crate) struct V0Channel<'a> {
    package: &'a Package,
    channel: &'a Channel,
    pub(crate) order: Vec<usize>,
    ranges: Vec<Option<VersionRange>>,
    prohibited: Vec<bool>,
    /// For each entry: where OLM v0 goes from it, and the first prohibited entry passed over.
    memo: Vec<NextStep>,
}

impl<'a> V0Channel<'a> {
    pub(crate) fn new(package: &'a Package, channel: &'a Channel) -> Result<V0Channel<'a>, PathError> {
        let order = channel_order(&package.name, channel).map_err(|e| PathError::Order(e.to_string()))?;
        let ranges = channel.entries.iter().map(|e| e.range().cloned()).collect();
        let prohibited = channel
            .entries
            .iter()
            .map(|e| {
                e.bundle
                    .and_then(|b| package.bundles.get(b))
                    .is_some_and(|b| b.properties.iter().any(|(_, p)| matches!(p, Property::Deprecated)))
            })
            .collect();
        let mut v = V0Channel { package, channel, order, ranges, prohibited, memo: Vec::new() };
        v.memo = (0..channel.entries.len()).map(|i| v.next(&v.current(i))).collect();
        Ok(v)
    }

    fn current(&self, i: usize) -> Current {
        let e = &self.channel.entries[i];
        Current { name: e.name.value.clone(), version: entry_version(self.package, e.bundle).cloned() }
    }

    fn head(&self) -> Option<&'a str> {
        self.order.first().map(|&i| self.channel.entries[i].name.value.as_str())
    }

    fn kind(&self, i: usize, cur: &Current) -> Option<EdgeKind> {
        let e = &self.channel.entries[i];
        if !cur.name.is_empty() && e.replaces.value == cur.name {
            return Some(EdgeKind::Replaces);
        }
        if !cur.name.is_empty() && e.skips.iter().any(|s| s.value == cur.name) {
            return Some(EdgeKind::Skips);
        }
        let v = cur.version.as_ref()?;
        self.ranges[i].as_ref().filter(|r| r.contains(v)).map(|_| EdgeKind::SkipRange)
    }

    /// The entry OLM v0 moves to from `cur`, and the first prohibited entry passed over.
    fn next(&self, cur: &Current) -> NextStep {
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
    pub(crate) fn next_of_entries(&self) -> Vec<Option<usize>> {
        self.memo.iter().map(|(n, _)| n.map(|(j, _)| j)).collect()
    }

    pub(crate) fn path(&self, start: &Start) -> Result<UpgradePath, PathError> {
        let head = self.head().map(str::to_string);
        let walk = walk(self.package, self.channel, start, head.as_deref(), |at, cur| match at {
            Some(i) => self.memo[i],
            None => self.next(cur),
        })?;
        let blocked = walk.blocked.map(|b| self.channel.entries[b].name.value.clone());
        let reason = walk.stranded().then(|| self.reason(&walk.cur, blocked));
        Ok(walk.into_path(start, head, reason))
    }

    /// A sentence saying why OLM v0 stops at `cur`.
    fn reason(&self, cur: &Current, deprecated: Option<String>) -> String {
        let who = display_name(cur);
        if let Some(name) = deprecated {
            return format!(
                "{} would upgrade {} but carries the olm.deprecated property, which OLM v0 never installs",
                q(&name),
                q(&who)
            );
        }
        let on_order: HashSet<usize> = self.order.iter().copied().collect();
        let off: Vec<String> = (0..self.channel.entries.len())
            .filter(|i| {
                !on_order.contains(i) && self.channel.entries[*i].name.value != cur.name && self.kind(*i, cur).is_some()
            })
            .map(|i| q(&self.channel.entries[i].name.value))
            .collect();
        if !off.is_empty() {
            return format!(
                "only {} upgrade {}, and OLM v0 never installs them: they are skipped by another entry or not on the replaces chain from the head of channel {}",
                off.join(", "),
                q(&who),
                q(&self.channel.name)
            );
        }
        format!(
            "no entry of channel {} on OLM v0's replaces chain replaces or skips {}{}",
            q(&self.channel.name),
            q(&who),
            if cur.version.is_some() { " or covers its version with skipRange" } else { "" }
        )
    }
}

fn v0_path(package: &Package, channel: &Channel, start: &Start) -> Result<UpgradePath, PathError> {
    V0Channel::new(package, channel)?.path(start)
}

fn display_name(cur: &Current) -> String {
    if cur.name.is_empty() {
        cur.version.as_ref().map(Version::to_string).unwrap_or_default()
    } else {
        cur.name.clone()
    }
}

/// A bundle's (version, release) as OLM v1 reads it: an explicit release, or else build metadata
/// that parses as a release (resolver.md §8.4).
pub fn v1_version_release(package: &Package, e: &Entry) -> Option<VersionRelease> {
    let b = e.bundle.and_then(|i| package.bundles.get(i))?;
    let v = b.version.as_ref()?;
    match &b.release {
        Some(r) => Some(VersionRelease { version: v.clone(), release: Some(r.clone()) }),
        None => VersionRelease::from_legacy_version(&v.to_string()).ok(),
    }
}

/// OLM v1's successors of an installed bundle (legacy semantics): entries that replace or skip it
/// or whose skipRange covers its version (parsed strictly, build metadata included), plus bundles
/// of exactly the same (version, release). With `channels`, only those channels are read (edges
/// and bundles alike), as OLM v1 filters the package's channels before reading edges; without, the
/// whole package.
pub fn successors_v1(
    package: &Package,
    channels: Option<&[&Channel]>,
    installed: &str,
    version: &Version,
) -> Vec<String> {
    let cur = Current { name: installed.to_string(), version: Some(version.clone()) };
    let installed_vr = VersionRelease::from_legacy_version(&version.to_string()).ok();
    let all: Vec<&Channel> = package.channels.iter().collect();
    let chans = channels.unwrap_or(&all);
    let mut out: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    };
    for c in chans {
        for e in &c.entries {
            if edge_kind(e, &cur).is_some()
                || (installed_vr.is_some() && v1_version_release(package, e) == installed_vr)
            {
                push(&e.name.value);
            }
        }
    }
    if channels.is_none() {
        for b in &package.bundles {
            let vr = match (&b.version, &b.release) {
                (Some(v), Some(r)) => Some(VersionRelease { version: v.clone(), release: Some(r.clone()) }),
                (Some(v), None) => VersionRelease::from_legacy_version(&v.to_string()).ok(),
                _ => None,
            };
            if installed_vr.is_some() && vr == installed_vr {
                push(&b.name.value);
            }
        }
    }
    out
}

/// OLM v1's `legacySuccessor` alone: whether `candidate` replaces or skips the installed bundle, or
/// covers its version with `skipRange`.
pub fn legacy_successor(candidate: &Entry, installed: &str, version: &Version) -> bool {
    let cur = Current { name: installed.to_string(), version: Some(version.clone()) };
    edge_kind(candidate, &cur).is_some()
}

/// The historical OLM v1 "semver" successors: every bundle of the package whose version matches
/// `^installed` (pre-releases excluded) other than the installed version, plus the installed one.
pub fn successors_v1_semver(package: &Package, version: &Version) -> Vec<String> {
    let v = version.semver();
    let upper = if v.major > 0 {
        Version::new(v.major + 1, 0, 0)
    } else if v.minor > 0 {
        Version::new(0, v.minor + 1, 0)
    } else {
        Version::new(0, 0, v.patch + 1)
    };
    let mut out = Vec::new();
    for b in &package.bundles {
        let Some(bv) = &b.version else { continue };
        let same = bv == version;
        let caret = !bv.is_prerelease() && bv >= version && *bv < upper;
        if same || caret {
            out.push(b.name.value.clone());
        }
    }
    out
}

/// A channel prepared for OLM v1 walks: parsed skipRanges, (version, release) and deprecation of
/// every entry, and each entry's best successor.
struct V1Channel<'a> {
    package: &'a Package,
    channel: &'a Channel,
    ranges: Vec<Option<VersionRange>>,
    vrs: Vec<Option<VersionRelease>>,
    deprecated: Vec<bool>,
    memo: Vec<Option<(usize, EdgeKind)>>,
}

impl<'a> V1Channel<'a> {
    fn new(package: &'a Package, channel: &'a Channel) -> V1Channel<'a> {
        let mut v = V1Channel {
            package,
            channel,
            ranges: channel.entries.iter().map(|e| e.range().cloned()).collect(),
            vrs: channel.entries.iter().map(|e| v1_version_release(package, e)).collect(),
            deprecated: channel
                .entries
                .iter()
                .map(|e| e.bundle.and_then(|b| package.bundles.get(b)).and_then(|b| b.deprecation.as_ref()).is_some())
                .collect(),
            memo: Vec::new(),
        };
        v.memo = (0..channel.entries.len())
            .map(|i| {
                let e = &channel.entries[i];
                v.next(&Current { name: e.name.value.clone(), version: entry_version(package, e.bundle).cloned() })
            })
            .collect();
        v
    }

    fn kind(&self, i: usize, cur: &Current) -> Option<EdgeKind> {
        edge_kind_with(&self.channel.entries[i], self.ranges[i].as_ref(), cur)
    }

    /// The highest (version, release) direct successor, non-deprecated ones first.
    fn next(&self, cur: &Current) -> Option<(usize, EdgeKind)> {
        let mut best: Option<(usize, EdgeKind)> = None;
        for i in 0..self.channel.entries.len() {
            if self.channel.entries[i].name.value == cur.name {
                continue;
            }
            let Some(kind) = self.kind(i, cur) else { continue };
            let Some(vr) = &self.vrs[i] else { continue };
            let better = match best {
                None => true,
                Some((b, _)) => {
                    let (d, bd) = (self.deprecated[i], self.deprecated[b]);
                    (!d && bd) || (d == bd && self.vrs[b].as_ref().is_some_and(|bvr| vr > bvr))
                }
            };
            if better {
                best = Some((i, kind));
            }
        }
        best
    }

    fn path(&self, start: &Start) -> Result<UpgradePath, PathError> {
        let head = self.channel.head().ok().map(|e| e.name.value.clone());
        let walk = walk(self.package, self.channel, start, head.as_deref(), |at, cur| match at {
            Some(i) => (self.memo[i], None),
            None => (self.next(cur), None),
        })?;
        let reason = walk.stranded().then(|| {
            format!(
                "no entry of channel {} replaces or skips {}{}",
                q(&self.channel.name),
                q(&display_name(&walk.cur)),
                if walk.cur.version.is_some() { " or covers its version with skipRange" } else { "" }
            )
        });
        Ok(walk.into_path(start, head, reason))
    }
}

fn v1_path(package: &Package, channel: &Channel, start: &Start) -> Result<UpgradePath, PathError> {
    V1Channel::new(package, channel).path(start)
}

/// Every entry's path to the head of `channel`, in entry order, preparing the channel once.
pub fn channel_paths(
    package: &Package,
    channel: &Channel,
    semantics: Semantics,
) -> Result<Vec<UpgradePath>, PathError> {
    let starts = channel.entries.iter().map(|e| Start::Bundle(e.name.value.clone()));
    match semantics {
        Semantics::V0 => {
            let v0 = V0Channel::new(package, channel)?;
            starts.map(|s| v0.path(&s)).collect()
        }
        Semantics::V1 => {
            let v1 = V1Channel::new(package, channel);
            starts.map(|s| v1.path(&s)).collect()
        }
    }
}

/// Every version that reaches the head in at most `max_steps` upgrades (OLM v0 or v1), with its path.
pub fn within_steps(
    package: &Package,
    channel: &Channel,
    semantics: Semantics,
    max_steps: usize,
) -> Result<Vec<UpgradePath>, PathError> {
    Ok(channel_paths(package, channel, semantics)?
        .into_iter()
        .filter(|p| !p.stranded && p.steps.len() <= max_steps)
        .collect())
}

/// Whether OLM (v0 or v1) takes an installed `from` through or to `to` on its way to the head.
pub fn can_upgrade(
    package: &Package,
    channel: &Channel,
    from: &Start,
    to: &str,
    semantics: Semantics,
) -> Result<bool, PathError> {
    Ok(upgrade_path(package, channel, from, semantics)?.steps.iter().any(|s| s.to == to))
}

/// What each channel of a package offers a given installed version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelOption {
    pub channel: String,
    /// The bundle is an entry of this channel.
    pub contains: bool,
    pub is_default: bool,
    /// OLM v0's path to this channel's head if the subscription switched to it.
    pub path: Option<UpgradePath>,
    pub error: Option<String>,
}

/// For an installed bundle or version: which channels list it, and where switching to each
/// channel would take it.
pub fn package_view(package: &Package, start: &Start) -> Vec<ChannelOption> {
    package
        .channels
        .iter()
        .map(|c| {
            let contains = matches!(start, Start::Bundle(b) if c.entry(b).is_some());
            let (path, error) = match v0_path(package, c, start) {
                Ok(p) => (Some(p), None),
                Err(e) => (None, Some(e.to_string())),
            };
            ChannelOption {
                channel: c.name.clone(),
                contains,
                is_default: package.default_channel.value == c.name,
                path,
                error,
            }
        })
        .collect()
}
