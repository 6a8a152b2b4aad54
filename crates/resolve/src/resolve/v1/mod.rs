//! OLM v1 (operator-controller) bundle selection for one package.
//!
//! OLM v1 resolves one package at a time, with no dependencies and no solver
//! (spec resolver.md §8): every available catalog offers its best bundle that
//! passes the channel, version range (Masterminds syntax) and upgrade-edge
//! filters; non-deprecated bests beat deprecated ones, then catalog priority
//! decides, and anything but exactly one winner is an error with
//! operator-controller's text.
//!
//! [`select`] reads a [`V1Query`]: one checked [`Model`](crate::model::Model)
//! per catalog (entries with their parsed skipRanges, bundles with their
//! parsed version, release and deprecation), the parsed range and the
//! installed bundle's parsed (version, release). It parses no catalog text.
//! [`resolve_v1`] takes the self-contained JSON form, [`V1Problem`] (the
//! `v1-resolve` conformance case format), and builds the query with the
//! adapter in [`crate::cluster::v1_problem`] first.
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

mod error;
#[cfg(test)]
mod tests;

use crate::hash::HashSet;
use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::model::{Bundle, Channel, Entry, Package};
use crate::property::Property;
use crate::version::Constraints;
use crate::version::VersionRelease;

pub use crate::cluster::v1_problem::{
    InstalledBundle, UpgradeConstraintPolicy, V1Bundle, V1Catalog, V1Channel, V1Entry, V1Installed, V1Package,
    V1Problem, V1Query, V1Source, VersionConstraint,
};
pub use error::V1Error;

/// The chosen bundle.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct V1Pick {
    /// The bundle name.
    pub bundle: String,
    /// Its `olm.package` version, as written.
    pub version: String,
    /// The catalog it comes from.
    pub catalog: String,
    /// The package's channels (after channel filtering) that list it, in the
    /// model's order (by name).
    pub channels: Vec<String>,
    /// It is deprecated (chosen only when no catalog offers a
    /// non-deprecated candidate).
    pub deprecated: bool,
}

/// Chooses the bundle OLM v1 would install or upgrade to, for the JSON form of
/// the question: [`V1Problem::query`], then [`select`].
pub fn resolve_v1(problem: &V1Problem) -> Result<V1Pick, V1Error> {
    select(&problem.query())
}

/// The installed bundle as the successor test needs it.
struct Installed<'a> {
    name: &'a str,
    version: &'a VersionRelease,
}

impl Installed<'_> {
    /// operator-controller's `legacySuccessor` edge test for one entry: it
    /// replaces or skips the installed bundle, or its skipRange contains the
    /// installed version (an invalid skipRange is no edge). Names are compared
    /// literally, as upstream does. The range is tested against the version
    /// without a release taken from its build metadata; blang ranges ignore
    /// build metadata, so this is the strict version upstream tests.
    fn is_replaced_by(&self, entry: &Entry) -> bool {
        entry.replaces.value == self.name
            || entry.skips.iter().any(|s| s.value == self.name)
            || entry.range().is_some_and(|r| r.contains(&self.version.version))
    }
}

/// A catalog's best candidate.
struct Best<'a> {
    source: &'a V1Source,
    bundle: &'a Bundle,
    deprecated: bool,
    /// The channels (after filtering) that list it.
    channels: Vec<String>,
}

/// Chooses the bundle OLM v1 would install or upgrade to (spec §8.2).
///
/// Errors come in operator-controller's order: an invalid range first, then an
/// invalid installed version (only with `CatalogProvided`, and only once an
/// available catalog has the package), then no or several winners. The result
/// does not depend on the order of the catalogs. Within a catalog, bundles of
/// equal (version, release) keep the model's order.
pub fn select(query: &V1Query) -> Result<V1Pick, V1Error> {
    let range = match &query.version_range {
        None => None,
        Some(r) => Some(
            r.parsed.as_ref().map_err(|e| V1Error::InvalidRange { range: r.text.clone(), reason: e.to_string() })?,
        ),
    };
    let installed = match &query.installed {
        Some(i) if query.upgrade_constraint_policy != UpgradeConstraintPolicy::SelfCertified => Some(i),
        _ => None,
    };

    let mut bests: Vec<Best<'_>> = Vec::new();
    for source in query.catalogs.iter().filter(|c| !c.unavailable) {
        let Some(package) = source.model.package(&query.package_name) else { continue };
        let installed = match installed {
            Some(i) => Some(Installed {
                name: &i.name,
                version: i.version.as_ref().map_err(|e| V1Error::InstalledVersion(e.clone()))?,
            }),
            None => None,
        };
        let Some((bundle, deprecated, channels)) = catalog_best(query, package, range, installed.as_ref()) else {
            continue;
        };
        // Keep only the bests sharing the best deprecation status seen so far.
        if let Some(last) = bests.last() {
            match (deprecated, last.deprecated) {
                (true, false) => continue,
                (false, true) => bests.clear(),
                _ => {}
            }
        }
        bests.push(Best { source, bundle, deprecated, channels });
    }

    crate::sort::sort_by_key(&mut bests, |b| std::cmp::Reverse(b.source.priority));
    if let [first, second, ..] = bests.as_slice() {
        if first.source.priority != second.source.priority {
            bests.truncate(1);
        }
    }
    outcome(query, bests)
}

/// The pick when exactly one best is left, otherwise operator-controller's error.
fn outcome(query: &V1Query, bests: Vec<Best<'_>>) -> Result<V1Pick, V1Error> {
    let version_range = query.version_range.as_ref().map(|r| r.text.clone()).unwrap_or_default();
    let installed_version = query.installed.as_ref().map(|i| i.version_text.clone());
    match bests.as_slice() {
        [best] => Ok(V1Pick {
            bundle: best.bundle.name.value.clone(),
            version: version_text(best.bundle),
            catalog: best.source.name.clone(),
            channels: best.channels.clone(),
            deprecated: best.deprecated,
        }),
        [] => Err(V1Error::NotFound {
            package: query.package_name.clone(),
            version_range,
            channels: query.channels.clone(),
            installed_version,
        }),
        many => {
            let mut catalogs: Vec<String> = many.iter().map(|b| b.source.name.clone()).collect();
            crate::sort::sort(&mut catalogs);
            Err(V1Error::Ambiguous {
                package: query.package_name.clone(),
                version_range,
                channels: query.channels.clone(),
                installed_version,
                catalogs,
            })
        }
    }
}

/// The best bundle of one catalog's package passing every filter, with its
/// deprecation and the selected channels listing it: not deprecated first,
/// then highest (version, release), unparsable versions last, ties in the
/// model's order.
fn catalog_best<'a>(
    query: &V1Query,
    package: &'a Package,
    range: Option<&Constraints>,
    installed: Option<&Installed<'_>>,
) -> Option<(&'a Bundle, bool, Vec<String>)> {
    // With a channel filter, the package's channel list itself is filtered,
    // so upgrade edges are read from the selected channels only.
    // In catalog order (the order the channels were written in), as OLM v1 lists them.
    let mut channels: Vec<&Channel> = package.channels_in_read_order();
    channels.retain(|c| query.channels.is_empty() || query.channels.contains(&c.name));
    let listed: HashSet<&str> = channels.iter().flat_map(|c| c.entries.iter().map(|e| e.name.value.as_str())).collect();
    let successors: Option<HashSet<&str>> = installed.map(|i| {
        channels
            .iter()
            .flat_map(|c| c.entries.iter())
            .filter(|e| i.is_replaced_by(e))
            .map(|e| e.name.value.as_str())
            .collect()
    });

    let mut candidates: Vec<(&Bundle, bool, Option<VersionRelease>)> = package
        .bundles
        .iter()
        .map(|b| (b, b.deprecation.is_some(), version_release(b)))
        .filter(|(b, _, vr)| {
            let in_channel = query.channels.is_empty() || listed.contains(b.name.value.as_str());
            let in_range = range.is_none_or(|r| vr.as_ref().is_some_and(|vr| r.matches(&vr.version)));
            let successor = match (installed, &successors) {
                (Some(i), Some(names)) => {
                    names.contains(b.name.value.as_str()) || vr.as_ref().is_some_and(|vr| vr == i.version)
                }
                _ => true,
            };
            in_channel && in_range && successor
        })
        .collect();
    crate::sort::sort_by(&mut candidates, |(_, dep_a, vr_a), (_, dep_b, vr_b)| {
        dep_a.cmp(dep_b).then_with(|| match (vr_a, vr_b) {
            (Some(a), Some(b)) => b.cmp(a),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => Ordering::Equal,
        })
    });
    let (bundle, deprecated, _) = candidates.into_iter().next()?;
    let listing = channels
        .iter()
        .filter(|c| c.entries.iter().any(|e| e.name.value == bundle.name.value))
        .map(|c| c.name.clone())
        .collect();
    Some((bundle, deprecated, listing))
}

/// A bundle's (version, release) as OLM v1 reads it from the model: the
/// explicit release of its `olm.package` property, or else valid build
/// metadata as the release (spec §8.4); `None` when the version is invalid.
fn version_release(bundle: &Bundle) -> Option<VersionRelease> {
    bundle.version.as_ref().map(|v| VersionRelease::from_parsed(v, bundle.release.as_ref()))
}

/// The `olm.package` version as written (empty when there is none).
fn version_text(bundle: &Bundle) -> String {
    bundle
        .properties
        .iter()
        .find_map(|(_, p)| match p {
            Property::Package(pp) => Some(pp.version.clone()),
            _ => None,
        })
        .unwrap_or_default()
}
