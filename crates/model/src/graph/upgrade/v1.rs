//! OLM v1's side of upgrade paths: a bundle's (version, release), its direct successors (legacy
//! and the former semver mode), and walks over a channel prepared once ([`V1Channel`]): at each
//! step the highest direct successor, non-deprecated first.

use super::*;

/// A bundle's (version, release) as OLM v1 reads it: an explicit release, or else build metadata
/// that parses as a release (resolver.md §8.4).
pub fn v1_version_release(package: &Package, e: &Entry) -> Option<VersionRelease> {
    let b = e.bundle.and_then(|i| package.bundles.get(i))?;
    Some(VersionRelease::from_parsed(b.version.as_ref()?, b.release.as_ref()))
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
    let cur = Current { name: installed, version: Some(version) };
    let installed_vr = Some(VersionRelease::from_parsed(version, None));
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
            let vr = b.version.as_ref().map(|v| VersionRelease::from_parsed(v, b.release.as_ref()));
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
    let cur = Current { name: installed, version: Some(version) };
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
pub(super) struct V1Channel<'a> {
    package: &'a Package,
    channel: &'a Channel,
    /// The channel head (opm's head: nothing replaces or skips it).
    head: Option<usize>,
    ranges: Vec<Option<VersionRange>>,
    vrs: Vec<Option<VersionRelease>>,
    deprecated: Vec<bool>,
    memo: Vec<Option<(usize, EdgeKind)>>,
}

impl<'a> V1Channel<'a> {
    pub(super) fn new(package: &'a Package, channel: &'a Channel) -> V1Channel<'a> {
        let mut v = V1Channel {
            package,
            channel,
            head: channel.head().ok().and_then(|h| channel.entries.iter().position(|e| std::ptr::eq(e, h))),
            ranges: channel.entries.iter().map(|e| e.range().cloned()).collect(),
            vrs: channel.entries.iter().map(|e| v1_version_release(package, e)).collect(),
            deprecated: channel
                .entries
                .iter()
                .map(|e| e.bundle.and_then(|b| package.bundles.get(b)).and_then(|b| b.deprecation.as_ref()).is_some())
                .collect(),
            memo: Vec::new(),
        };
        // Rank the entries with a version as `next` prefers them: not deprecated first, then the
        // highest (version, release), then the first listed.
        let mut ranked: Vec<usize> = (0..channel.entries.len()).filter(|&i| v.vrs[i].is_some()).collect();
        crate::sort::sort_by(&mut ranked, |&a, &b| {
            (v.deprecated[a], std::cmp::Reverse(&v.vrs[a]), a).cmp(&(v.deprecated[b], std::cmp::Reverse(&v.vrs[b]), b))
        });
        let mut rank = vec![None; channel.entries.len()];
        for (r, &i) in ranked.iter().enumerate() {
            rank[i] = Some(r);
        }
        let fans = Fans::new(package, channel);
        v.memo = best_successors(channel, &fans, &Declared::new(channel), |i| rank[i]);
        v
    }

    fn kind(&self, i: usize, cur: &Current<'_>) -> Option<EdgeKind> {
        edge_kind_with(&self.channel.entries[i], self.ranges[i].as_ref(), cur)
    }

    /// The highest (version, release) direct successor of `cur` (a start that is no entry of the
    /// channel), non-deprecated ones first.
    fn next(&self, cur: &Current<'_>) -> Option<(usize, EdgeKind)> {
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
        self.path_at(Begin::of(self.channel, start), &mut Walker::new(self.channel))
    }

    /// [`path`](V1Channel::path) from `begin`, with the channel's `walker`.
    pub(super) fn path_at(&self, begin: Begin<'_>, walker: &mut Walker) -> Result<UpgradePath, PathError> {
        let head_name = self.head.map(|h| self.channel.entries[h].name.value.as_str());
        let walk = walk(self.package, self.channel, begin, head_name, walker, |at, cur| match at {
            Some(i) => (self.memo[i], None),
            None => (self.next(cur), None),
        })?;
        let reason =
            walk.stranded().then(|| format!("no entry of channel {} {}", q(&self.channel.name), upgrades(&walk.cur)));
        let from = walker.start_name(self.channel, begin);
        Ok(walk.into_path(from, self.head.map(|h| walker.name(self.channel, h)), reason))
    }
}

pub(super) fn v1_path(package: &Package, channel: &Channel, start: &Start) -> Result<UpgradePath, PathError> {
    V1Channel::new(package, channel).path(start)
}

/// Where OLM v1 goes first from each entry of `channel` (the entry's index) and whether its walk
/// reaches the head, in entry order: what [`channel_paths`] says of each entry's OLM v1 path,
/// without the steps. Linear in the channel's size (each entry's walk is answered once and shared
/// by the walks that pass through it), where the paths themselves are quadratic on a long chain.
pub fn v1_first_steps(package: &Package, channel: &Channel) -> Vec<(Option<usize>, bool)> {
    const UNKNOWN: u8 = 0;
    const ON_CHAIN: u8 = 1;
    const REACHES: u8 = 2;
    const STRANDED: u8 = 3;
    let v1 = V1Channel::new(package, channel);
    let mut state = vec![UNKNOWN; channel.entries.len()];
    // The head is where every walk that reaches it stops.
    if let Some(h) = v1.head {
        state[h] = REACHES;
    }
    let mut chain = Vec::new();
    for start in 0..state.len() {
        let mut i = start;
        let reaches = loop {
            match state[i] {
                REACHES => break true,
                // A walk back onto its own chain goes round forever: OLM v1 never gets further.
                ON_CHAIN | STRANDED => break false,
                _ => {}
            }
            state[i] = ON_CHAIN;
            chain.push(i);
            match v1.memo[i] {
                Some((next, _)) => i = next,
                None => break false,
            }
        };
        for k in chain.drain(..) {
            state[k] = if reaches { REACHES } else { STRANDED };
        }
    }
    v1.memo.iter().zip(state).map(|(m, s)| (m.map(|(next, _)| next), s == REACHES)).collect()
}
