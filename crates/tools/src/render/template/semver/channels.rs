//! Channels of a semver template, as opm's `generateChannels` and `linkChannels` make them:
//! one channel per archetype and major (or major.minor) version, entries in ascending version
//! order; only the highest version of each minor gets edges (it replaces the highest of the
//! previous minor and skips every other earlier bundle of its major); and the default channel
//! is the high-water mark of the channels as they are created.

use std::collections::{BTreeMap, BTreeSet};

use super::read::Stream;
use crate::declcfg::Pos;
use crate::version::Version;

/// One bundle of an archetype: its name, version, and the template element naming it.
#[derive(Debug, Clone)]
pub(super) struct Listed {
    /// The bundle name.
    pub name: String,
    /// Its version.
    pub version: Version,
    /// Where the template lists it.
    pub pos: Pos,
}

/// A generated channel, located at the bundle that created it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Generated {
    /// `<archetype>-v<major>[.<minor>]`.
    pub name: String,
    /// Where the template lists the bundle that created it.
    pub pos: Pos,
    /// Entries in ascending version order.
    pub entries: Vec<Entry>,
}

/// A generated entry.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Entry {
    /// The bundle name.
    pub name: String,
    /// Where the template lists it.
    pub pos: Pos,
    /// Empty when none.
    pub replaces: String,
    /// Sorted; empty when none.
    pub skips: Vec<String>,
}

/// The channels (sorted by name) and the default channel's name and position.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Channels {
    /// Sorted by name.
    pub channels: Vec<Generated>,
    /// The high-water mark (empty when there are no channels).
    pub default_channel: String,
}

/// The default-channel candidate: a channel as it is created.
#[derive(Debug, Clone)]
struct Mark {
    archetype: usize,
    kind: Stream,
    version: Version,
    name: String,
}

impl Mark {
    /// opm's `highwaterChannel.gt`: higher archetype, then higher version, then the preferred
    /// kind, then the kind opm ranks higher (minor > major > none).
    fn beats(&self, other: &Mark, preference: Stream) -> bool {
        if self.archetype != other.archetype {
            return self.archetype > other.archetype;
        }
        if self.version.compare(&other.version) != std::cmp::Ordering::Equal {
            return self.version.compare(&other.version).is_gt();
        }
        if self.kind != other.kind {
            if self.kind == preference {
                return true;
            }
            if other.kind == preference {
                return false;
            }
            return self.kind > other.kind;
        }
        false
    }
}

/// One entry as `linkChannels` walks them.
struct Tuple {
    archetype: usize,
    kind: Stream,
    channel: String,
    index: usize,
    version: Version,
    name: String,
}

/// The channel name for `version` in `archetype`.
fn channel_name(archetype: &str, kind: Stream, v: &Version) -> String {
    match kind {
        Stream::Minor => format!("{archetype}-v{}.{}", v.major(), v.minor()),
        _ => format!("{archetype}-v{}", v.major()),
    }
}

/// Generate and link the channels of the archetypes' bundles (each list sorted here).
pub(super) fn generate(archetypes: &[Vec<Listed>; 3], kinds: &[Stream], preference: Stream) -> Channels {
    let mut channels: BTreeMap<String, Generated> = BTreeMap::new();
    let mut tuples = Vec::new();
    let mut mark = Mark { archetype: 0, kind: Stream::None, version: Version::new(0, 0, 0), name: String::new() };
    for (archetype, listed) in archetypes.iter().enumerate() {
        let mut sorted: Vec<&Listed> = listed.iter().collect();
        crate::sort::sort_by(&mut sorted, |a, b| a.version.compare(&b.version));
        for b in sorted {
            for &kind in kinds {
                let name = channel_name(super::read::ARCHETYPES[archetype], kind, &b.version);
                let channel = channels.entry(name.clone()).or_insert_with(|| {
                    let candidate = Mark { archetype, kind, version: b.version.clone(), name: name.clone() };
                    if candidate.beats(&mark, preference) {
                        mark = candidate;
                    }
                    Generated { name: name.clone(), pos: b.pos, entries: Vec::new() }
                });
                let entry = Entry { name: b.name.clone(), pos: b.pos, replaces: String::new(), skips: Vec::new() };
                channel.entries.push(entry);
                let index = channel.entries.len() - 1;
                tuples.push(Tuple {
                    archetype,
                    kind,
                    channel: name,
                    index,
                    version: b.version.clone(),
                    name: b.name.clone(),
                });
            }
        }
    }
    link(&mut channels, &mut tuples);
    Channels { channels: channels.into_values().collect(), default_channel: mark.name }
}

/// opm's `linkChannels`: edges for the highest version of each minor.
fn link(channels: &mut BTreeMap<String, Generated>, tuples: &mut [Tuple]) {
    crate::sort::sort_by(tuples, |a, b| {
        (a.archetype, a.kind).cmp(&(b.archetype, b.kind)).then_with(|| a.version.compare(&b.version))
    });
    let mut zmax = String::new();
    let mut acc: BTreeSet<String> = BTreeSet::new();
    let same_major =
        |a: &Tuple, b: &Tuple| a.archetype == b.archetype && a.kind == b.kind && a.version.major() == b.version.major();
    for i in 1..tuples.len() {
        let (prev, cur) = (&tuples[i - 1], &tuples[i]);
        let same_minor = same_major(prev, cur) && prev.version.minor() == cur.version.minor();
        if !same_minor {
            set_edges(channels, prev, &zmax, &acc);
        }
        if !same_major(prev, cur) {
            zmax.clear();
            acc.clear();
        } else {
            if !same_minor {
                zmax = prev.name.clone();
            }
            acc.insert(prev.name.clone());
        }
    }
    if let [.., before, last] = &*tuples {
        if same_major(before, last) {
            set_edges(channels, last, &zmax, &acc);
        }
    }
}

fn set_edges(channels: &mut BTreeMap<String, Generated>, at: &Tuple, zmax: &str, acc: &BTreeSet<String>) {
    if let Some(entry) = channels.get_mut(&at.channel).and_then(|c| c.entries.get_mut(at.index)) {
        entry.replaces = zmax.to_string();
        entry.skips = acc.iter().filter(|s| s.as_str() != zmax).cloned().collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(versions: &[&str]) -> Vec<Listed> {
        versions
            .iter()
            .map(|v| Listed { name: format!("a-v{v}"), version: Version::parse(v).unwrap(), pos: Pos::default() })
            .collect()
    }

    fn show(c: &Generated) -> String {
        let entries: Vec<String> =
            c.entries.iter().map(|e| format!("{}<{}>{:?}", e.name, e.replaces, e.skips)).collect();
        format!("{}: {}", c.name, entries.join(" "))
    }

    #[test]
    fn the_highest_of_each_minor_replaces_the_previous_minors_highest_and_skips_the_rest() {
        let bundles = [Vec::new(), Vec::new(), listed(&["1.1.0", "1.2.1", "1.3.1", "1.3.1-beta", "2.1.0"])];
        let out = generate(&bundles, &[Stream::Major], Stream::Major);
        let shown: Vec<String> = out.channels.iter().map(show).collect();
        assert_eq!(
            shown,
            [
                "stable-v1: a-v1.1.0<>[] a-v1.2.1<a-v1.1.0>[] a-v1.3.1-beta<>[] a-v1.3.1<a-v1.2.1>[\"a-v1.1.0\", \"a-v1.3.1-beta\"]",
                "stable-v2: a-v2.1.0<>[]",
            ]
        );
        assert_eq!(out.default_channel, "stable-v2");
    }

    #[test]
    fn the_default_channel_prefers_stability_then_version_then_the_preferred_kind() {
        let bundles = [listed(&["2.0.0"]), Vec::new(), listed(&["1.0.0", "1.0.1"])];
        let out = generate(&bundles, &[Stream::Major, Stream::Minor], Stream::Major);
        assert_eq!(out.default_channel, "stable-v1");
        let out = generate(&bundles, &[Stream::Major, Stream::Minor], Stream::Minor);
        assert_eq!(out.default_channel, "stable-v1.0");
        // A channel created by a higher version wins whatever its kind.
        let bundles = [Vec::new(), Vec::new(), listed(&["1.0.0", "1.1.0"])];
        let out = generate(&bundles, &[Stream::Major, Stream::Minor], Stream::Major);
        assert_eq!(out.default_channel, "stable-v1.1");
    }
}
