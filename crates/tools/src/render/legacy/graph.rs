//! The channels of one package built from its bundles, as the legacy loaders built them:
//! membership from each bundle's `channels.v1` annotation, upgrade edges from its CSV
//! (`replaces-mode`) or from version order (`semver-mode`), and the default channel.
//!
//! Sources of each rule:
//! - **replaces-mode** entries carry the CSV's `spec.replaces`, `spec.skips` and `olm.skipRange`
//!   (operator-registry `pkg/sqlite/load.go` stored all three per bundle, and
//!   `pkg/sqlite/conversion.go` `ToModel` put them on the FBC entries; `opm render` of a bundle
//!   drops them, we keep them).
//! - **semver-mode** (`opm index add --mode semver`, `pkg/registry/bundlegraphloader.go`
//!   `AddBundleToGraph` without skippatch): a new bundle is put between the greatest version below
//!   it and the lowest above it in each of its channels, so once every bundle is in, each entry
//!   of a channel replaces the next lower version of that channel and the highest is the head;
//!   CSV `spec.replaces` is ignored. The community pipeline reads the mode the same way
//!   (`operator-repo` `Operator.update_graph`: bundles of a channel sorted by version, each
//!   replaced by the next). `spec.skips` and `olm.skipRange` were stored per bundle whatever the
//!   mode and are kept.
//! - **default channel** (`pkg/registry/populator.go` `SemverPackageManifest`, and `operator-repo`
//!   `Operator.default_channel`): the `channel.default.v1` of the highest version that sets one;
//!   when no bundle sets one and the package has a single channel, that channel; otherwise
//!   opm's `unable to determine default channel among channel heads`.
//! - a channel's **head**, for the package icon: its highest version (the legacy loader's
//!   `currentCSV` in `SemverPackageManifest`).

use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::ci::UpdateGraph;
use super::csv::CsvEdges;
use crate::version::Version;

/// One bundle as the graph rules see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GraphBundle {
    /// The bundle (CSV) name.
    pub name: String,
    /// The channels its annotations list.
    pub channels: Vec<String>,
    /// Its `channel.default.v1` (empty when unset).
    pub default_channel: String,
    /// Its version, when it parses.
    pub version: Option<Version>,
    /// The edges its CSV declares.
    pub edges: CsvEdges,
}

/// One planned channel entry.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlannedEntry {
    /// The bundle name.
    pub name: String,
    /// The bundle it replaces (empty for none).
    pub replaces: String,
    /// The bundles it skips.
    pub skips: Vec<String>,
    /// Its skipRange (empty for none).
    pub skip_range: String,
}

/// One planned channel: its name and entries, lowest version first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedChannel {
    /// The channel name.
    pub name: String,
    /// The entries.
    pub entries: Vec<PlannedEntry>,
}

/// Version order, lowest first; a bundle without a version sorts below every version, and equal
/// versions by name.
fn by_version(a: &GraphBundle, b: &GraphBundle) -> Ordering {
    let version = match (&a.version, &b.version) {
        (Some(x), Some(y)) => x.compare(y),
        (x, y) => x.is_some().cmp(&y.is_some()),
    };
    version.then_with(|| a.name.cmp(&b.name))
}

/// The bundles in version order.
pub fn sorted(bundles: &[GraphBundle]) -> Vec<&GraphBundle> {
    let mut out: Vec<&GraphBundle> = bundles.iter().collect();
    crate::sort::sort_by(&mut out, |a, b| by_version(a, b));
    out
}

/// Every channel named by some bundle, sorted by name.
pub fn channel_names(bundles: &[GraphBundle]) -> BTreeSet<&str> {
    bundles.iter().flat_map(|b| b.channels.iter().map(String::as_str)).collect()
}

/// The channels of the package, sorted by name, each with its entries in version order.
pub fn channels(bundles: &[GraphBundle], mode: UpdateGraph) -> Vec<PlannedChannel> {
    let ordered = sorted(bundles);
    channel_names(bundles)
        .into_iter()
        .map(|name| {
            let members: Vec<&GraphBundle> =
                ordered.iter().copied().filter(|b| b.channels.iter().any(|c| c == name)).collect();
            let entries = members
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    let replaces = match mode {
                        UpdateGraph::Replaces => b.edges.replaces.value.clone(),
                        UpdateGraph::Semver => i.checked_sub(1).map(|j| members[j].name.clone()).unwrap_or_default(),
                    };
                    PlannedEntry {
                        name: b.name.clone(),
                        replaces,
                        skips: b.edges.skips.iter().map(|s| s.value.clone()).collect(),
                        skip_range: b.edges.skip_range.value.clone(),
                    }
                })
                .collect();
            PlannedChannel { name: name.to_string(), entries }
        })
        .collect()
}

/// The annotation naming a bundle's default channel.
const DEFAULT_KEY: &str = "operators.operatorframework.io.bundle.channel.default.v1";

/// Why no default channel could be chosen: the package's channels (opm's message lists the
/// channel heads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoDefaultChannel(pub Vec<String>);

impl std::fmt::Display for NoDefaultChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let channels = crate::gotext::string_slice(&self.0);
        write!(f, "unable to determine default channel among channel heads: no bundle sets {DEFAULT_KEY} and the package has channels {channels}")
    }
}

/// The default channel and the bundle that decided it (`None` when implied by a lone channel).
pub fn default_channel(bundles: &[GraphBundle]) -> Result<(String, Option<&GraphBundle>), NoDefaultChannel> {
    if let Some(b) = sorted(bundles).into_iter().rev().find(|b| !b.default_channel.is_empty()) {
        return Ok((b.default_channel.clone(), Some(b)));
    }
    let names = channel_names(bundles);
    match names.len() {
        1 => Ok((names.into_iter().next().unwrap_or_default().to_string(), None)),
        _ => Err(NoDefaultChannel(names.into_iter().map(str::to_string).collect())),
    }
}

/// The head of `channel`: its highest version.
pub fn head<'a>(bundles: &'a [GraphBundle], channel: &str) -> Option<&'a GraphBundle> {
    sorted(bundles).into_iter().rev().find(|b| b.channels.iter().any(|c| c == channel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::Spanned;

    fn bundle(name: &str, version: &str, channels: &str, default: &str, replaces: &str) -> GraphBundle {
        GraphBundle {
            name: name.into(),
            channels: channels.split(',').map(str::to_string).collect(),
            default_channel: default.into(),
            version: Version::parse(version).ok(),
            edges: CsvEdges { replaces: Spanned::new(replaces.into(), Default::default()), ..CsvEdges::default() },
        }
    }

    fn chain(c: &PlannedChannel) -> Vec<(&str, &str)> {
        c.entries.iter().map(|e| (e.name.as_str(), e.replaces.as_str())).collect()
    }

    #[test]
    fn replaces_mode_keeps_each_csvs_edges_and_lists_entries_by_version() {
        let mut b = vec![
            bundle("a.v1.10.0", "1.10.0", "stable", "", "a.v1.9.0"),
            bundle("a.v1.9.0", "1.9.0", "stable,fast", "", ""),
        ];
        b[0].edges.skips = vec![Spanned::new("a.v1.8.0".into(), Default::default())];
        b[0].edges.skip_range = Spanned::new("<1.10.0".into(), Default::default());
        let ch = channels(&b, UpdateGraph::Replaces);
        assert_eq!(ch.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(), ["fast", "stable"]);
        assert_eq!(chain(&ch[0]), [("a.v1.9.0", "")]);
        assert_eq!(chain(&ch[1]), [("a.v1.9.0", ""), ("a.v1.10.0", "a.v1.9.0")]);
        assert_eq!(
            (ch[1].entries[1].skips.clone(), ch[1].entries[1].skip_range.as_str()),
            (vec!["a.v1.8.0".to_string()], "<1.10.0")
        );
    }

    #[test]
    fn semver_mode_makes_each_entry_replace_the_next_lower_version_of_its_channel() {
        let b = vec![
            bundle("a.v0.3.0", "0.3.0", "candidate,stable", "", ""),
            bundle("a.v0.12.0", "0.12.0", "stable", "", "a.v0.11.0"),
            bundle("a.v0.5.0", "0.5.0", "stable", "", ""),
        ];
        let ch = channels(&b, UpdateGraph::Semver);
        assert_eq!(chain(&ch[0]), [("a.v0.3.0", "")]);
        // The CSV's own replaces (a.v0.11.0, not in the tree) gives way to version order.
        assert_eq!(chain(&ch[1]), [("a.v0.3.0", ""), ("a.v0.5.0", "a.v0.3.0"), ("a.v0.12.0", "a.v0.5.0")]);
    }

    #[test]
    fn the_default_channel_is_that_of_the_highest_version_setting_one() {
        let b = vec![
            bundle("m.1.0.1", "1.0.1", "1.0.x", "1.0.x", ""),
            bundle("m.v1.0.2", "1.0.2", "dev,stable", "", ""),
            bundle("m.v0.9.0", "0.9.0", "beta", "beta", ""),
        ];
        let (name, by) = default_channel(&b).unwrap();
        assert_eq!((name.as_str(), by.map(|b| b.name.as_str())), ("1.0.x", Some("m.1.0.1")));
    }

    #[test]
    fn a_lone_channel_is_the_default_when_no_bundle_names_one() {
        let b = vec![bundle("a.v1", "1.0.0", "alpha", "", ""), bundle("a.v2", "2.0.0", "alpha", "", "")];
        assert_eq!(default_channel(&b).unwrap(), ("alpha".to_string(), None));
        let two = vec![bundle("a.v1", "1.0.0", "alpha", "", ""), bundle("a.v2", "2.0.0", "beta", "", "")];
        let err = default_channel(&two).unwrap_err();
        assert_eq!(err.0, ["alpha", "beta"]);
        assert!(err.to_string().starts_with("unable to determine default channel among channel heads"));
    }

    #[test]
    fn the_head_of_a_channel_is_its_highest_version() {
        let b = vec![
            bundle("a.v2", "2.0.0", "alpha", "", ""),
            bundle("a.v10", "10.0.0", "alpha", "", ""),
            bundle("a.v1", "1.0.0", "beta", "", ""),
        ];
        assert_eq!(head(&b, "alpha").map(|b| b.name.as_str()), Some("a.v10"));
        assert!(head(&b, "gamma").is_none());
    }
}
