//! OLM v1 (operator-controller) bundle selection for one package.
//!
//! OLM v1 resolves one package at a time, with no dependencies and no solver
//! (spec resolver.md §8): every available catalog offers its best bundle that
//! passes the channel, version range (Masterminds syntax) and upgrade-edge
//! filters; non-deprecated bests beat deprecated ones, then catalog priority
//! decides, and anything but exactly one winner is an error with
//! operator-controller's text.
//!
//! The input, [`V1Problem`], is self-contained JSON (the `v1-resolve`
//! conformance case format): each catalog carries the package's channels,
//! bundles (name and `olm.package` version) and bundle-level deprecations.
//!
//! ```
//! use olm_catalog::resolve::v1::{resolve_v1, V1Problem};
//!
//! let problem: V1Problem = serde_json::from_str(r#"{
//!     "packageName": "foo",
//!     "installedBundle": {"name": "foo.v1.0.0", "version": "1.0.0"},
//!     "catalogs": [{"name": "main", "package": {
//!         "channels": [{"name": "stable", "entries": [
//!             {"name": "foo.v1.0.0"},
//!             {"name": "foo.v1.1.0", "replaces": "foo.v1.0.0"},
//!             {"name": "foo.v2.0.0", "skipRange": "<2.0.0"}]}],
//!         "bundles": [
//!             {"name": "foo.v1.0.0", "version": "1.0.0"},
//!             {"name": "foo.v1.1.0", "version": "1.1.0"},
//!             {"name": "foo.v2.0.0", "version": "2.0.0"}]}}]
//! }"#).unwrap();
//! let pick = resolve_v1(&problem).unwrap();
//! assert_eq!(pick.bundle, "foo.v2.0.0");
//! assert_eq!(pick.channels, ["stable"]);
//! ```

use std::cmp::Ordering;
use std::collections::HashSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::version::masterminds::Constraints;
use crate::gotext::quote as go_quote;
use crate::version::{Release, Version, VersionRange, VersionRelease};

/// What to resolve: one package, its filters, the installed bundle (if any)
/// and the catalogs to look in.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Problem {
    /// The package to install or upgrade.
    pub package_name: String,
    /// Only bundles listed in one of these channels; empty for all channels.
    /// Upgrade edges are then read from these channels only.
    #[serde(default)]
    pub channels: Vec<String>,
    /// A Masterminds/semver constraint on the bundle version; empty for any.
    #[serde(default)]
    pub version_range: String,
    /// Whether upgrade edges from the catalog restrict the choice.
    #[serde(default)]
    pub upgrade_constraint_policy: UpgradeConstraintPolicy,
    /// The installed bundle, or `None` for a new install.
    #[serde(default)]
    pub installed_bundle: Option<InstalledBundle>,
    /// The catalogs (ClusterCatalogs matching the selector), in any order.
    pub catalogs: Vec<V1Catalog>,
}

/// `spec.source.catalog.upgradeConstraintPolicy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
pub enum UpgradeConstraintPolicy {
    /// Only the installed bundle and its direct successors in the catalog's
    /// upgrade graph are candidates (the default).
    #[default]
    CatalogProvided,
    /// Any bundle passing the channel and version filters is a candidate,
    /// downgrades included.
    SelfCertified,
}

/// The installed bundle (`status.install.bundle`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstalledBundle {
    /// The bundle name, matched against `replaces` and `skips`.
    pub name: String,
    /// The bundle version, parsed strictly (blang); for registry+v1 bundles
    /// valid build metadata is the release.
    pub version: String,
    /// An explicit release. When set and non-empty it is the installed
    /// release and `version` keeps its build metadata; otherwise the release
    /// comes from `version` as above.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
}

/// One ClusterCatalog and its slice of the package.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Catalog {
    /// The catalog name (reported in ambiguity errors and in the pick).
    pub name: String,
    /// `spec.priority`: higher wins between catalogs offering equally
    /// (non-)deprecated bests.
    #[serde(default)]
    pub priority: i32,
    /// `spec.availabilityMode: Unavailable`: the catalog is not looked at.
    #[serde(default)]
    pub unavailable: bool,
    /// The package's content in this catalog, `None` if it has none.
    #[serde(default)]
    pub package: Option<V1Package>,
}

/// A package's channels, bundles and bundle-level deprecations in one catalog.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Package {
    /// The package's channels.
    #[serde(default)]
    pub channels: Vec<V1Channel>,
    /// The package's bundles, in catalog order (the tie order).
    #[serde(default)]
    pub bundles: Vec<V1Bundle>,
    /// Bundles named by `olm.bundle` entries of the package's
    /// `olm.deprecations` (package- and channel-level entries do not count).
    #[serde(default)]
    pub deprecated_bundles: Vec<String>,
}

/// An `olm.channel`.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Channel {
    /// The channel name.
    pub name: String,
    /// The channel entries.
    #[serde(default)]
    pub entries: Vec<V1Entry>,
}

/// A channel entry and its upgrade edges.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Entry {
    /// The bundle name.
    pub name: String,
    /// The bundle it replaces (empty for none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub replaces: String,
    /// Bundles it skips.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
    /// A blang range of versions it upgrades from (empty for none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub skip_range: String,
}

/// A bundle: its name and its `olm.package` version.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Bundle {
    /// The bundle name.
    pub name: String,
    /// The `olm.package` version (blang-strict; an unparsable one never
    /// matches a range or the installed version and sorts last).
    #[serde(default)]
    pub version: String,
}

/// The chosen bundle.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Pick {
    /// The bundle name.
    pub bundle: String,
    /// Its `olm.package` version, as given.
    pub version: String,
    /// The catalog it comes from.
    pub catalog: String,
    /// The package's channels (after channel filtering) that list it.
    pub channels: Vec<String>,
    /// It is deprecated (chosen only when no catalog offers a
    /// non-deprecated candidate).
    pub deprecated: bool,
}

/// Why no single bundle was chosen. `Display` gives operator-controller's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum V1Error {
    /// `desired version range "<range>" is invalid: <reason>` (the reason is
    /// Masterminds' parse error).
    InvalidRange {
        /// The range as given.
        range: String,
        /// Masterminds' error text.
        reason: String,
    },
    /// The installed version is not a valid (version, release):
    /// `error walking catalogs: error finding upgrade edges: failed to get
    /// version and release of installed bundle: <reason>`.
    InstalledVersion(String),
    /// No catalog offers a candidate: `[error upgrading from currently
    /// installed version "<v>": ]no bundles found for package "<p>"[ matching
    /// version "<range>"][ in channels [<c> ...]]`.
    NotFound {
        /// The package.
        package: String,
        /// The version range ("" for none).
        version_range: String,
        /// The channel filter.
        channels: Vec<String>,
        /// The installed version, for an upgrade.
        installed_version: Option<String>,
    },
    /// Several catalogs of the same top priority offer a candidate:
    /// `[error upgrading from currently installed version "<v>": ]found
    /// bundles for package "<p>"[ matching version "<range>"][ in channels
    /// [...]] in multiple catalogs with the same priority [<catalogs>]`.
    Ambiguous {
        /// The package.
        package: String,
        /// The version range ("" for none).
        version_range: String,
        /// The channel filter.
        channels: Vec<String>,
        /// The installed version, for an upgrade.
        installed_version: Option<String>,
        /// Every catalog whose best was kept (lower priorities included),
        /// sorted by name.
        catalogs: Vec<String>,
    },
}

impl fmt::Display for V1Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (package, version_range, channels, installed_version, catalogs) = match self {
            V1Error::InvalidRange { range, reason } => {
                return write!(f, "desired version range {} is invalid: {reason}", go_quote(range));
            }
            V1Error::InstalledVersion(reason) => {
                return write!(
                    f,
                    "error walking catalogs: error finding upgrade edges: failed to get version and release of installed bundle: {reason}"
                );
            }
            V1Error::NotFound { package, version_range, channels, installed_version } => {
                (package, version_range, channels, installed_version, None)
            }
            V1Error::Ambiguous { package, version_range, channels, installed_version, catalogs } => {
                (package, version_range, channels, installed_version, Some(catalogs))
            }
        };
        let mut parts: Vec<String> = Vec::new();
        if let Some(v) = installed_version {
            parts.push(format!("error upgrading from currently installed version {}:", go_quote(v)));
        }
        match catalogs {
            Some(_) => parts.push(format!("found bundles for package {}", go_quote(package))),
            None => parts.push(format!("no bundles found for package {}", go_quote(package))),
        }
        if !version_range.is_empty() {
            parts.push(format!("matching version {}", go_quote(version_range)));
        }
        if !channels.is_empty() {
            parts.push(format!("in channels [{}]", channels.join(" ")));
        }
        if let Some(catalogs) = catalogs.filter(|c| c.len() > 1) {
            parts.push(format!("in multiple catalogs with the same priority [{}]", catalogs.join(" ")));
        }
        f.write_str(parts.join(" ").trim())
    }
}

impl std::error::Error for V1Error {}

/// The installed bundle as the successor test needs it.
struct Installed<'a> {
    name: &'a str,
    /// Strictly parsed, build metadata kept (for skipRange).
    version: Version,
    /// For "stay put".
    version_release: VersionRelease,
}

impl<'a> Installed<'a> {
    fn new(bundle: &'a InstalledBundle) -> Result<Installed<'a>, V1Error> {
        let error = |e: &dyn fmt::Display| V1Error::InstalledVersion(e.to_string());
        let version = Version::parse(&bundle.version).map_err(|e| error(&e))?;
        let version_release = match bundle.release.as_deref().filter(|r| !r.is_empty()) {
            Some(release) => {
                VersionRelease { version: version.clone(), release: Release::parse(release).map_err(|e| error(&e))? }
            }
            None => VersionRelease::from_legacy_version(&bundle.version).map_err(|e| error(&e))?,
        };
        Ok(Installed { name: &bundle.name, version, version_release })
    }

    /// operator-controller's `legacySuccessor` edge test for one entry: it
    /// replaces or skips the installed bundle, or its skipRange (blang)
    /// contains the installed version. (The same rule as
    /// `graph::upgrade::legacy_successor`, restated over this module's plain
    /// entry type; unlike that helper it compares names literally, as
    /// upstream does.)
    fn is_replaced_by(&self, entry: &V1Entry) -> bool {
        entry.replaces == self.name
            || entry.skips.iter().any(|s| s == self.name)
            || (!entry.skip_range.is_empty()
                && VersionRange::parse(&entry.skip_range).is_ok_and(|r| r.contains(&self.version)))
    }
}

/// A catalog's best candidate.
struct Best<'a> {
    catalog: &'a V1Catalog,
    bundle: &'a V1Bundle,
    deprecated: bool,
    /// The channels (after filtering) that list it.
    channels: Vec<String>,
}

/// Chooses the bundle OLM v1 would install or upgrade to (spec §8.2).
///
/// The result does not depend on the order of the catalogs. Within a catalog,
/// bundles of equal (version, release) keep their input order.
pub fn resolve_v1(problem: &V1Problem) -> Result<V1Pick, V1Error> {
    let range = match problem.version_range.as_str() {
        "" => None,
        text => Some(
            Constraints::parse(text)
                .map_err(|e| V1Error::InvalidRange { range: text.to_string(), reason: e.to_string() })?,
        ),
    };
    let use_edges = problem.upgrade_constraint_policy != UpgradeConstraintPolicy::SelfCertified;
    let installed = match (&problem.installed_bundle, use_edges) {
        (Some(bundle), true) => Some(Installed::new(bundle)),
        _ => None,
    };

    let mut bests: Vec<Best<'_>> = Vec::new();
    for catalog in problem.catalogs.iter().filter(|c| !c.unavailable) {
        let Some(package) = &catalog.package else { continue };
        let installed = match &installed {
            Some(Ok(i)) => Some(i),
            Some(Err(e)) => return Err(e.clone()),
            None => None,
        };
        let Some(best) = catalog_best(problem, catalog, package, range.as_ref(), installed) else { continue };
        // Keep only the bests sharing the best deprecation status seen so far.
        if let Some(last) = bests.last() {
            match (best.deprecated, last.deprecated) {
                (true, false) => continue,
                (false, true) => bests.clear(),
                _ => {}
            }
        }
        bests.push(best);
    }

    bests.sort_by_key(|b| std::cmp::Reverse(b.catalog.priority));
    if let [first, second, ..] = bests.as_slice() {
        if first.catalog.priority != second.catalog.priority {
            bests.truncate(1);
        }
    }

    let installed_version = problem.installed_bundle.as_ref().map(|b| b.version.clone());
    match bests.as_slice() {
        [best] => Ok(V1Pick {
            bundle: best.bundle.name.clone(),
            version: best.bundle.version.clone(),
            catalog: best.catalog.name.clone(),
            channels: best.channels.clone(),
            deprecated: best.deprecated,
        }),
        [] => Err(V1Error::NotFound {
            package: problem.package_name.clone(),
            version_range: problem.version_range.clone(),
            channels: problem.channels.clone(),
            installed_version,
        }),
        many => {
            let mut catalogs: Vec<String> = many.iter().map(|b| b.catalog.name.clone()).collect();
            catalogs.sort();
            Err(V1Error::Ambiguous {
                package: problem.package_name.clone(),
                version_range: problem.version_range.clone(),
                channels: problem.channels.clone(),
                installed_version,
                catalogs,
            })
        }
    }
}

/// The best bundle of one catalog passing every filter, if any: not
/// deprecated first, then highest (version, release), unparsable versions
/// last, ties in input order.
fn catalog_best<'a>(
    problem: &V1Problem,
    catalog: &'a V1Catalog,
    package: &'a V1Package,
    range: Option<&Constraints>,
    installed: Option<&Installed<'_>>,
) -> Option<Best<'a>> {
    // With a channel filter, the package's channel list itself is filtered,
    // so upgrade edges are read from the selected channels only.
    let channels: Vec<&V1Channel> =
        package.channels.iter().filter(|c| problem.channels.is_empty() || problem.channels.contains(&c.name)).collect();
    let listed: HashSet<&str> = channels.iter().flat_map(|c| c.entries.iter().map(|e| e.name.as_str())).collect();
    let successors: Option<HashSet<&str>> = installed.map(|i| {
        channels
            .iter()
            .flat_map(|c| c.entries.iter())
            .filter(|e| i.is_replaced_by(e))
            .map(|e| e.name.as_str())
            .collect()
    });
    let deprecated: HashSet<&str> = package.deprecated_bundles.iter().map(String::as_str).collect();

    let mut candidates: Vec<(&V1Bundle, bool, Option<VersionRelease>)> = package
        .bundles
        .iter()
        .map(|b| (b, deprecated.contains(b.name.as_str()), VersionRelease::from_legacy_version(&b.version).ok()))
        .filter(|(b, _, vr)| {
            let in_channel = problem.channels.is_empty() || listed.contains(b.name.as_str());
            let in_range = range.is_none_or(|r| vr.as_ref().is_some_and(|vr| r.matches(&vr.version)));
            let successor = match (installed, &successors) {
                (Some(i), Some(names)) => {
                    names.contains(b.name.as_str()) || vr.as_ref().is_some_and(|vr| *vr == i.version_release)
                }
                _ => true,
            };
            in_channel && in_range && successor
        })
        .collect();
    candidates.sort_by(|(_, dep_a, vr_a), (_, dep_b, vr_b)| {
        dep_a.cmp(dep_b).then_with(|| match (vr_a, vr_b) {
            (Some(a), Some(b)) => b.cmp(a),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
    });
    let (bundle, deprecated, _) = candidates.into_iter().next()?;
    let mut listing: Vec<String> = Vec::new();
    for c in channels.iter().filter(|c| c.entries.iter().any(|e| e.name == bundle.name)) {
        if !listing.contains(&c.name) {
            listing.push(c.name.clone());
        }
    }
    Some(Best { catalog, bundle, deprecated, channels: listing })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> V1Entry {
        V1Entry { name: name.to_string(), ..V1Entry::default() }
    }

    fn bundle(name: &str, version: &str) -> V1Bundle {
        V1Bundle { name: name.to_string(), version: version.to_string() }
    }

    fn catalog(name: &str, priority: i32, package: V1Package) -> V1Catalog {
        V1Catalog { name: name.to_string(), priority, unavailable: false, package: Some(package) }
    }

    fn problem(catalogs: Vec<V1Catalog>) -> V1Problem {
        V1Problem {
            package_name: "p".to_string(),
            channels: Vec::new(),
            version_range: String::new(),
            upgrade_constraint_policy: UpgradeConstraintPolicy::CatalogProvided,
            installed_bundle: None,
            catalogs,
        }
    }

    fn installed(name: &str, version: &str) -> Option<InstalledBundle> {
        Some(InstalledBundle { name: name.to_string(), version: version.to_string(), release: None })
    }

    /// Channel `stable`: 1.0.0, 1.1.0 replaces 1.0.0, 2.0.0 skipRange <2.0.0.
    /// Channel `fast`: 1.0.0, 3.0.0 replaces 1.0.0.
    fn package(deprecated: &[&str]) -> V1Package {
        V1Package {
            channels: vec![
                V1Channel {
                    name: "stable".to_string(),
                    entries: vec![
                        entry("p.v1.0.0"),
                        V1Entry { replaces: "p.v1.0.0".to_string(), ..entry("p.v1.1.0") },
                        V1Entry { skip_range: "<2.0.0".to_string(), ..entry("p.v2.0.0") },
                    ],
                },
                V1Channel {
                    name: "fast".to_string(),
                    entries: vec![entry("p.v1.0.0"), V1Entry { replaces: "p.v1.0.0".to_string(), ..entry("p.v3.0.0") }],
                },
            ],
            bundles: vec![
                bundle("p.v1.0.0", "1.0.0"),
                bundle("p.v1.1.0", "1.1.0"),
                bundle("p.v2.0.0", "2.0.0"),
                bundle("p.v3.0.0", "3.0.0"),
            ],
            deprecated_bundles: deprecated.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn pick(p: &V1Problem) -> V1Pick {
        match resolve_v1(p) {
            Ok(pick) => pick,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }

    fn error(p: &V1Problem) -> String {
        match resolve_v1(p) {
            Ok(pick) => panic!("unexpected pick: {pick:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn highest_and_channels_of_pick() {
        let p = problem(vec![catalog("c", 0, package(&[]))]);
        let got = pick(&p);
        assert_eq!((got.bundle.as_str(), got.catalog.as_str()), ("p.v3.0.0", "c"));
        assert_eq!(got.channels, ["fast"]);
        assert!(!got.deprecated);
    }

    #[test]
    fn deprecation_beats_priority() {
        // The high-priority catalog only offers deprecated bundles.
        let high = catalog("high", 10, package(&["p.v1.0.0", "p.v1.1.0", "p.v2.0.0", "p.v3.0.0"]));
        let low = catalog("low", 0, package(&[]));
        for catalogs in [vec![high.clone(), low.clone()], vec![low, high]] {
            let got = pick(&problem(catalogs));
            assert_eq!((got.bundle.as_str(), got.catalog.as_str(), got.deprecated), ("p.v3.0.0", "low", false));
        }
        // Within a catalog too: a lower non-deprecated version beats a higher deprecated one.
        let got = pick(&problem(vec![catalog("c", 0, package(&["p.v3.0.0"]))]));
        assert_eq!(got.bundle, "p.v2.0.0");
    }

    #[test]
    fn priority_decides_and_ambiguity_lists_every_catalog() {
        let mut p = problem(vec![catalog("b", 1, package(&[])), catalog("a", 5, package(&[]))]);
        assert_eq!(pick(&p).catalog, "a");
        p.catalogs = vec![catalog("z", 0, package(&[])), catalog("y", 3, package(&[])), catalog("x", 3, package(&[]))];
        assert_eq!(error(&p), r#"found bundles for package "p" in multiple catalogs with the same priority [x y z]"#);
        p.version_range = ">=1.0.0".to_string();
        p.channels = vec!["stable".to_string(), "fast".to_string()];
        p.installed_bundle = installed("p.v1.0.0", "1.0.0");
        assert_eq!(
            error(&p),
            r#"error upgrading from currently installed version "1.0.0": found bundles for package "p" matching version ">=1.0.0" in channels [stable fast] in multiple catalogs with the same priority [x y z]"#
        );
    }

    #[test]
    fn channel_filter_limits_edges() {
        let mut p = problem(vec![catalog("c", 0, package(&[]))]);
        p.installed_bundle = installed("p.v1.0.0", "1.0.0");
        // All channels: 3.0.0 replaces 1.0.0 in fast.
        assert_eq!(pick(&p).bundle, "p.v3.0.0");
        // Only stable: the skipRange edge to 2.0.0 is the best.
        p.channels = vec!["stable".to_string()];
        let got = pick(&p);
        assert_eq!((got.bundle.as_str(), got.channels.as_slice()), ("p.v2.0.0", ["stable".to_string()].as_slice()));
        // 3.0.0 is listed in stable too, but its edge is only in fast.
        let mut pkg = package(&[]);
        if let Some(stable) = pkg.channels.first_mut() {
            stable.entries.push(entry("p.v3.0.0"));
        }
        p.catalogs = vec![catalog("c", 0, pkg)];
        assert_eq!(pick(&p).bundle, "p.v2.0.0");
        // Transitive edges do not count: from 1.1.0 nothing replaces it, only 2.0.0's range covers it.
        p.channels.clear();
        p.installed_bundle = installed("p.v1.1.0", "1.1.0");
        assert_eq!(pick(&p).bundle, "p.v2.0.0");
        // Stay put when nothing upgrades.
        p.installed_bundle = installed("p.v3.0.0", "3.0.0");
        assert_eq!(pick(&p).bundle, "p.v3.0.0");
    }

    #[test]
    fn self_certified_downgrade() {
        let mut p = problem(vec![catalog("c", 0, package(&[]))]);
        p.installed_bundle = installed("p.v3.0.0", "3.0.0");
        p.version_range = "<2.0.0".to_string();
        assert_eq!(
            error(&p),
            r#"error upgrading from currently installed version "3.0.0": no bundles found for package "p" matching version "<2.0.0""#
        );
        p.upgrade_constraint_policy = UpgradeConstraintPolicy::SelfCertified;
        assert_eq!(pick(&p).bundle, "p.v1.1.0");
    }

    #[test]
    fn release_in_build_metadata() {
        let mut pkg = package(&[]);
        pkg.bundles =
            vec![bundle("p.v1.0.0", "1.0.0"), bundle("p.v1.0.0-1", "1.0.0+1"), bundle("p.v1.0.0-2", "1.0.0+2")];
        let mut p = problem(vec![catalog("c", 0, pkg)]);
        // The highest release wins.
        assert_eq!(pick(&p).bundle, "p.v1.0.0-2");
        // Staying put means the same (version, release): 1.0.0+1 only.
        p.installed_bundle = installed("other", "1.0.0+1");
        assert_eq!(pick(&p).bundle, "p.v1.0.0-1");
        // An explicit release does the same.
        p.installed_bundle = Some(InstalledBundle {
            name: "other".to_string(),
            version: "1.0.0".to_string(),
            release: Some("2".to_string()),
        });
        assert_eq!(pick(&p).bundle, "p.v1.0.0-2");
    }

    #[test]
    fn errors() {
        let mut p = problem(vec![catalog("c", 0, package(&[]))]);
        p.version_range = "foobar".to_string();
        assert_eq!(error(&p), r#"desired version range "foobar" is invalid: improper constraint: "foobar""#);
        p.version_range = ">=9".to_string();
        assert_eq!(error(&p), r#"no bundles found for package "p" matching version ">=9""#);
        p.version_range.clear();
        p.channels = vec!["nope".to_string(), "never".to_string()];
        assert_eq!(error(&p), r#"no bundles found for package "p" in channels [nope never]"#);
        p.channels.clear();
        p.installed_bundle = installed("p.v1.0.0", "v1.0.0");
        assert_eq!(
            error(&p),
            "error walking catalogs: error finding upgrade edges: failed to get version and release of installed bundle: \
             Invalid character(s) found in major number \"v1\""
        );
        // Unavailable catalogs and catalogs without the package are skipped before that.
        p.catalogs = vec![V1Catalog { unavailable: true, ..catalog("c", 0, package(&[])) }];
        assert_eq!(
            error(&p),
            r#"error upgrading from currently installed version "v1.0.0": no bundles found for package "p""#
        );
        // SelfCertified never parses the installed version.
        p.catalogs = vec![catalog("c", 0, package(&[]))];
        p.upgrade_constraint_policy = UpgradeConstraintPolicy::SelfCertified;
        assert_eq!(pick(&p).bundle, "p.v3.0.0");
    }

    #[test]
    fn deserializes_case_shape() {
        let json = r#"{"packageName": "p", "channels": [], "versionRange": "", "upgradeConstraintPolicy": "SelfCertified",
            "installedBundle": null, "catalogs": [{"name": "a", "priority": 0, "package": null},
            {"name": "b", "priority": -1, "unavailable": true, "package": {"channels": [{"name": "s", "entries":
            [{"name": "x", "replaces": "w", "skips": ["v"], "skipRange": "<1.0.0"}]}],
            "bundles": [{"name": "x", "version": "1.0.0"}], "deprecatedBundles": ["x"]}}]}"#;
        let p: V1Problem = match serde_json::from_str(json) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(p.upgrade_constraint_policy, UpgradeConstraintPolicy::SelfCertified);
        assert_eq!(p.catalogs.len(), 2);
        assert_eq!(error(&p), r#"no bundles found for package "p""#);
    }
}
