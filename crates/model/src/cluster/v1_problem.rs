//! OLM v1's single-package question, twice: as self-contained JSON ([`V1Problem`], the
//! `v1-resolve` conformance case format that the JS `resolveV1` also takes) and as the checked
//! query OLM v1's selection reads ([`V1Query`]: the filters, the installed bundle's parsed
//! (version, release), a parsed Masterminds range, and one [`Model`] per ClusterCatalog).
//!
//! [`V1Problem::query`] is the adapter between the two. For each catalog it writes the package's
//! slice as File-Based Catalog blobs ([`V1Package::declarative_config`]: one `olm.package`, one
//! `olm.channel` per channel, one `olm.bundle` per bundle with an `olm.package` property, and the
//! bundle deprecations as one `olm.deprecations`) and builds the model with [`model::build`], so
//! the selection reads the same checked model as every other analysis. It also parses the
//! installed version and the version range, keeping their errors as values: the selection
//! reports them with operator-controller's texts, at the point operator-controller meets them.
//!
//! Going through the model applies opm's conversion rules to the JSON. For inputs opm would
//! reject this drops what opm drops (the model's diagnostics are not reported here): a channel
//! with no name, a second channel of the same name, a second entry of the same name within a
//! channel, a second bundle of the same name, and the whole package when `packageName` is empty.
//! The channels of a pick come in the model's order (by name).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::blobs;
use crate::declcfg::{self, DeclarativeConfig, Pos, Source, Spanned};
use crate::model::{self, Model};
use crate::version::{Constraints, MastermindsError};
use crate::version::{Release, Version, VersionRelease};

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

/// OLM v1's question about one package, checked: what the selection
/// (`resolve::v1::select`) reads.
#[derive(Debug, Clone)]
pub struct V1Query {
    /// The package to install or upgrade.
    pub package_name: String,
    /// Only bundles listed in one of these channels, whose upgrade edges are
    /// then the only ones read; empty for all channels.
    pub channels: Vec<String>,
    /// The Masterminds constraint on bundle versions; `None` for any version.
    pub version_range: Option<VersionConstraint>,
    /// Whether the catalog's upgrade edges restrict the choice.
    pub upgrade_constraint_policy: UpgradeConstraintPolicy,
    /// The installed bundle, `None` for a new install.
    pub installed: Option<V1Installed>,
    /// The ClusterCatalogs matching the selector, in any order.
    pub catalogs: Vec<V1Source>,
}

/// A version range as given and as Masterminds parsed it.
#[derive(Debug, Clone, PartialEq)]
pub struct VersionConstraint {
    /// The text as given (quoted in messages).
    pub text: String,
    /// The parsed constraints, or Masterminds' error.
    pub parsed: Result<Constraints, MastermindsError>,
}

impl VersionConstraint {
    /// Parse `text` with Masterminds' rules.
    pub fn parse(text: &str) -> VersionConstraint {
        VersionConstraint { text: text.to_string(), parsed: Constraints::parse(text) }
    }
}

/// The installed bundle: its name and its (version, release).
#[derive(Debug, Clone)]
pub struct V1Installed {
    /// The bundle name, matched literally against `replaces` and `skips`.
    pub name: String,
    /// The version as given (quoted in messages).
    pub version_text: String,
    /// The (version, release), or why it is not one (blang's or
    /// operator-registry's error text).
    pub version: Result<VersionRelease, String>,
}

/// One ClusterCatalog and its content.
#[derive(Debug, Clone)]
pub struct V1Source {
    /// The catalog name.
    pub name: String,
    /// `spec.priority`: higher wins between equally (non-)deprecated bests.
    pub priority: i32,
    /// `spec.availabilityMode: Unavailable`: the catalog is not looked at.
    pub unavailable: bool,
    /// The catalog's model (only the queried package is read).
    pub model: Arc<Model>,
}

impl V1Problem {
    /// The checked query: every catalog built into a model, the range and
    /// the installed version parsed (errors kept for the selection to report).
    pub fn query(&self) -> V1Query {
        V1Query {
            package_name: self.package_name.clone(),
            channels: self.channels.clone(),
            version_range: Some(self.version_range.as_str()).filter(|r| !r.is_empty()).map(VersionConstraint::parse),
            upgrade_constraint_policy: self.upgrade_constraint_policy,
            installed: self.installed_bundle.as_ref().map(InstalledBundle::parsed),
            catalogs: self.catalogs.iter().map(|c| c.source(&self.package_name)).collect(),
        }
    }
}

impl InstalledBundle {
    /// The installed bundle with its (version, release): the version parsed
    /// strictly, then an explicit non-empty release, else the release read
    /// from the build metadata (the first failure is the error).
    pub fn parsed(&self) -> V1Installed {
        let version = Version::parse(&self.version).map_err(|e| e.to_string()).and_then(|version| {
            let release = Release::parse(self.release.as_deref().unwrap_or("")).map_err(|e| e.to_string())?;
            Ok(VersionRelease::from_parsed(&version, release.as_ref()))
        });
        V1Installed { name: self.name.clone(), version_text: self.version.clone(), version }
    }
}

impl V1Catalog {
    /// The catalog with its model (an empty model when it has no package).
    pub fn source(&self, package_name: &str) -> V1Source {
        let model = match &self.package {
            Some(package) => model::build(&package.declarative_config(&self.name, package_name)).0,
            None => Model::default(),
        };
        V1Source {
            name: self.name.clone(),
            priority: self.priority,
            unavailable: self.unavailable,
            model: Arc::new(model),
        }
    }
}

impl V1Package {
    /// The package's slice as File-Based Catalog blobs, attributed to a file
    /// named after the catalog: `olm.package`, the channels, the bundles (each
    /// with one `olm.package` property) and an `olm.deprecations` naming the
    /// deprecated bundles.
    pub fn declarative_config(&self, catalog: &str, package_name: &str) -> DeclarativeConfig {
        let source = blobs::source(catalog);
        let mut cfg = DeclarativeConfig::default();
        cfg.packages.push(blobs::package(&source, package_name, ""));
        for c in &self.channels {
            let entries = c.entries.iter().map(|e| blobs::entry(&e.name, &e.replaces, &e.skips, &e.skip_range));
            cfg.channels.push(blobs::channel(&source, package_name, &c.name, entries.collect()));
        }
        cfg.bundles.extend(self.bundles.iter().map(|b| bundle(&source, package_name, b)));
        if !self.deprecated_bundles.is_empty() {
            cfg.deprecations.push(declcfg::Deprecation {
                source,
                package: blobs::text(package_name),
                entries: self.deprecated_bundles.iter().map(|name| bundle_deprecation(name)).collect(),
            });
        }
        cfg
    }
}

/// An `olm.bundle` whose only property is `olm.package {packageName, version}`.
///
/// The version text is written unchanged, with no `release`. The model parses it strictly
/// (blang `Parse`), exactly as the JSON-typed selection used to (`VersionRelease::
/// from_legacy_version`), and the selection reads the release out of the build metadata when a
/// bundle has no explicit release (`VersionRelease::from_parsed`), so `1.0.0+1` is still
/// (1.0.0, release 1) and `1.0.0+01` still 1.0.0+01 with no release. Splitting the build
/// metadata here instead would give the same picks for this input, but would hide the rule from
/// catalogs that reach the selection without this adapter.
fn bundle(source: &Source, package_name: &str, b: &V1Bundle) -> declcfg::Bundle {
    blobs::bundle(source, package_name, &b.name, vec![blobs::package_property(package_name, &b.version)])
}

fn bundle_deprecation(name: &str) -> declcfg::DeprecationEntry {
    declcfg::DeprecationEntry {
        pos: Pos::default(),
        schema: blobs::text(declcfg::SCHEMA_BUNDLE),
        name: blobs::text(name),
        message: Spanned::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(json: &str) -> V1Problem {
        match serde_json::from_str(json) {
            Ok(p) => p,
            Err(e) => panic!("{e}"),
        }
    }

    /// One catalog `c` holding package `p` with the given bundles, all in channel `stable`.
    fn with_bundles(versions: &[&str]) -> V1Problem {
        let names: Vec<String> = (0..versions.len()).map(|i| format!("p.b{i}")).collect();
        V1Problem {
            package_name: "p".to_string(),
            channels: Vec::new(),
            version_range: String::new(),
            upgrade_constraint_policy: UpgradeConstraintPolicy::CatalogProvided,
            installed_bundle: None,
            catalogs: vec![V1Catalog {
                name: "c".to_string(),
                priority: 0,
                unavailable: false,
                package: Some(V1Package {
                    channels: vec![V1Channel {
                        name: "stable".to_string(),
                        entries: names.iter().map(|n| V1Entry { name: n.clone(), ..V1Entry::default() }).collect(),
                    }],
                    bundles: names
                        .iter()
                        .zip(versions)
                        .map(|(n, v)| V1Bundle { name: n.clone(), version: v.to_string() })
                        .collect(),
                    deprecated_bundles: Vec::new(),
                }),
            }],
        }
    }

    #[test]
    fn catalogs_become_models() {
        let query = problem(
            r#"{"packageName": "p", "catalogs": [
                {"name": "empty", "package": null},
                {"name": "c", "priority": 3, "unavailable": true, "package": {
                    "channels": [{"name": "stable", "entries": [
                        {"name": "p.v1"}, {"name": "p.v2", "replaces": "p.v1", "skips": ["p.v0"], "skipRange": "<2.0.0"}]}],
                    "bundles": [{"name": "p.v1", "version": "1.0.0"}, {"name": "p.v2", "version": "2.0.0+3"}],
                    "deprecatedBundles": ["p.v1"]}}]}"#,
        )
        .query();
        let [empty, c] = query.catalogs.as_slice() else { panic!("two catalogs") };
        assert!(empty.model.packages.is_empty());
        assert_eq!((c.name.as_str(), c.priority, c.unavailable), ("c", 3, true));
        let Some(p) = c.model.package("p") else { panic!("package p") };
        let Some(stable) = p.channel("stable") else { panic!("channel stable") };
        let Some(v2) = stable.entry("p.v2") else { panic!("entry p.v2") };
        assert_eq!((v2.replaces.value.as_str(), v2.skips[0].value.as_str()), ("p.v1", "p.v0"));
        assert_eq!(v2.range().map(|r| r.as_str()), Some("<2.0.0"));
        assert_eq!(v2.bundle, Some(1));
        let versions: Vec<String> =
            p.bundles.iter().filter_map(|b| b.version.as_ref().map(|v| v.to_string())).collect();
        assert_eq!(versions, ["1.0.0", "2.0.0+3"]);
        let deprecated: Vec<bool> = p.bundles.iter().map(|b| b.deprecation.is_some()).collect();
        assert_eq!(deprecated, [true, false]);
    }

    #[test]
    fn versions_read_as_before() {
        // The model's (version, release) is what `from_legacy_version` gives for the same text,
        // including for texts it rejects.
        let texts =
            ["1.0.0", "1.0.0+1", "1.0.0+01", "1.0.0-rc.1+a.b", "1.0.0+123456789012345678901", "v1.0.0", "1.0", ""];
        let query = with_bundles(&texts).query();
        let Some(p) = query.catalogs[0].model.package("p") else { panic!("package p") };
        for (text, b) in texts.iter().zip(&p.bundles) {
            let old = VersionRelease::from_legacy_version(text).ok();
            let new = b.version.as_ref().map(|v| VersionRelease::from_parsed(v, b.release.as_ref()));
            let shown = |x: &Option<VersionRelease>| x.as_ref().map(|x| (x.to_string(), x.release.clone()));
            assert_eq!(shown(&new), shown(&old), "{text:?}");
        }
    }

    #[test]
    fn range_and_installed_are_parsed_with_their_errors() {
        let mut p = with_bundles(&[]);
        assert!(p.query().version_range.is_none());
        p.version_range = ">=1.0.0, <2".to_string();
        let range = p.query().version_range.map(|r| (r.text, r.parsed.map(|c| c.to_string())));
        assert_eq!(range, Some((">=1.0.0, <2".to_string(), Ok(">=1.0.0, <2".to_string()))));
        p.version_range = "foobar".to_string();
        let range = p.query().version_range.map(|r| r.parsed.map_err(|e| e.to_string()).is_err());
        assert_eq!(range, Some(true));

        let installed = |version: &str, release: Option<&str>| {
            let bundle = InstalledBundle {
                name: "p.v1".to_string(),
                version: version.to_string(),
                release: release.map(str::to_string),
            };
            bundle.parsed().version.map(|vr| vr.to_string())
        };
        assert_eq!(installed("1.0.0+2", None), Ok("1.0.0-2".to_string()));
        assert_eq!(installed("1.0.0+2", Some("")), Ok("1.0.0-2".to_string()));
        assert_eq!(installed("1.0.0+2", Some("5")), Ok("1.0.0+2-5".to_string()));
        assert_eq!(
            installed("v1.0.0", Some("!")),
            Err("Invalid character(s) found in major number \"v1\"".to_string())
        );
        assert_eq!(
            installed("1.0.0", Some("!")),
            Err("invalid release \"!\": segment 0: Invalid character(s) found in prerelease \"!\"".to_string())
        );
    }

    #[test]
    fn duplicates_follow_opm_model() {
        // A second bundle of the same name is left out, as opm leaves it out.
        let mut p = with_bundles(&["1.0.0", "2.0.0"]);
        if let Some(pkg) = p.catalogs[0].package.as_mut() {
            pkg.bundles[1].name = "p.b0".to_string();
        }
        let query = p.query();
        let Some(pkg) = query.catalogs[0].model.package("p") else { panic!("package p") };
        assert_eq!(pkg.bundles.len(), 1);
        assert_eq!(pkg.bundles[0].version.as_ref().map(|v| v.to_string()), Some("1.0.0".to_string()));
    }
}
