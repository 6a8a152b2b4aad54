//! The JSON problem format (the `input` of the conformance `resolve` cases, the CLI's
//! `resolve PROBLEM.json`, the JS `resolve`): catalogs written inline as packages, channels and
//! bundles, installed CSVs, subscriptions. [`ProblemJson::into_cluster`] turns it into a
//! [`Cluster`]: each inline catalog becomes `declcfg` blobs and then a checked [`Model`], exactly
//! as a catalog read from files does, so the resolver has one input.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{blobs, CatalogSource, Cluster, InstalledCsv, Subscription, SystemConstraint};
use crate::declcfg::{self, DeclarativeConfig, Source};
use crate::model::{self, Model};
use crate::property::TYPE_PACKAGE;

/// A resolution problem as JSON.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProblemJson {
    /// The namespace being resolved.
    pub namespace: String,
    /// Namespaces whose catalogs are visible; default `[namespace]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolution_namespaces: Option<Vec<String>>,
    /// Catalog sources.
    #[serde(default)]
    pub catalogs: Vec<CatalogJson>,
    /// ClusterServiceVersions present in the namespace.
    #[serde(default)]
    pub installed: Vec<InstalledJson>,
    /// Subscriptions.
    #[serde(default)]
    pub subscriptions: Vec<Subscription>,
    /// Downstream system constraints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub system_constraints: Vec<SystemConstraint>,
    /// `upgradeStrategy: TechPreviewUnsafeFailForward`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fail_forward: bool,
}

/// A catalog source: inline packages, or (for the CLI) a `path` to an FBC directory or file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogJson {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `spec.priority`.
    #[serde(default)]
    pub priority: i32,
    /// The catalog's packages.
    #[serde(default)]
    pub packages: Vec<PackageJson>,
    /// An FBC directory or file to read instead of `packages` (resolved by the caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
}

/// A package of an inline catalog.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageJson {
    /// The package name.
    pub name: String,
    /// The default channel.
    #[serde(default)]
    pub default_channel: Option<String>,
    /// Channels, in catalog order.
    #[serde(default)]
    pub channels: Vec<ChannelJson>,
    /// Bundles, in catalog order.
    #[serde(default)]
    pub bundles: Vec<BundleJson>,
}

/// A channel: its entries in catalog order.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct ChannelJson {
    /// The channel name.
    pub name: String,
    /// Its entries.
    #[serde(default)]
    pub entries: Vec<EntryJson>,
}

/// A channel entry and its upgrade edges.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EntryJson {
    /// The bundle name.
    pub name: String,
    /// `replaces`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
    /// `skips`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skips: Vec<String>,
    /// `skipRange`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip_range: Option<String>,
}

/// A bundle: its version and properties.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct BundleJson {
    /// The bundle (CSV) name.
    pub name: String,
    /// The version (an `olm.package` property is added with it when the bundle has none, as
    /// OLM's `EnsurePackageProperty` does).
    #[serde(default)]
    pub version: String,
    /// Properties, values as JSON.
    #[serde(default)]
    pub properties: Vec<PropertyJson>,
}

/// One property: its type and JSON value.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PropertyJson {
    /// The property type.
    #[serde(rename = "type")]
    pub type_: String,
    /// The value.
    #[serde(default)]
    pub value: serde_json::Value,
}

/// An installed ClusterServiceVersion.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct InstalledJson {
    /// `metadata.name`.
    pub name: String,
    /// `spec.version` (empty means `0.0.0`).
    #[serde(default)]
    pub version: String,
    /// The properties OLM recorded or derived from the CSV.
    #[serde(default)]
    pub properties: Vec<PropertyJson>,
    /// `status.phase`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// `spec.replaces`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replaces: Option<String>,
}

/// Why a problem cannot become a [`Cluster`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemError {
    /// A catalog gives a `path` and the caller cannot read catalogs from paths.
    PathNotSupported {
        /// The catalog's name.
        catalog: String,
    },
    /// The caller could not load a catalog's `path`.
    Load {
        /// The catalog's name.
        catalog: String,
        /// Why.
        message: String,
    },
}

impl std::fmt::Display for ProblemError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProblemError::PathNotSupported { catalog } => {
                write!(f, "catalog {catalog:?} gives a path, which only the command line reads")
            }
            ProblemError::Load { catalog, message } => write!(f, "catalog {catalog:?}: {message}"),
        }
    }
}

impl std::error::Error for ProblemError {}

impl ProblemJson {
    /// The cluster this problem describes; a catalog with a `path` is an error.
    pub fn into_cluster(self) -> Result<Cluster, ProblemError> {
        self.into_cluster_with(&mut |c: &CatalogJson, _: &str| {
            Err(ProblemError::PathNotSupported { catalog: c.name.clone() })
        })
    }

    /// The cluster this problem describes; `load` reads the catalogs that give a `path`.
    pub fn into_cluster_with(
        self,
        load: &mut dyn FnMut(&CatalogJson, &str) -> Result<Model, ProblemError>,
    ) -> Result<Cluster, ProblemError> {
        let mut catalogs = Vec::with_capacity(self.catalogs.len());
        for c in &self.catalogs {
            let model = match &c.path {
                Some(path) => load(c, path)?,
                None => catalog_model(c),
            };
            catalogs.push(CatalogSource {
                name: c.name.clone(),
                namespace: c.namespace.clone(),
                priority: c.priority,
                model: Arc::new(model),
            });
        }
        Ok(Cluster {
            namespace: self.namespace,
            resolution_namespaces: self.resolution_namespaces,
            catalogs,
            installed: self.installed.iter().map(installed_csv).collect(),
            subscriptions: self.subscriptions,
            system_constraints: self.system_constraints,
            fail_forward: self.fail_forward,
        })
    }
}

fn installed_csv(i: &InstalledJson) -> InstalledCsv {
    let raw = i.properties.iter().map(raw_property).collect();
    InstalledCsv { phase: i.phase.clone(), replaces: i.replaces.clone(), ..InstalledCsv::new(&i.name, &i.version, raw) }
}

/// An inline catalog as a checked model (its diagnostics do not matter to the resolver).
pub fn catalog_model(c: &CatalogJson) -> Model {
    model::build(&catalog_blobs(c)).0
}

/// An inline catalog as `declcfg` blobs, every blob located in a file named after the catalog.
pub fn catalog_blobs(c: &CatalogJson) -> DeclarativeConfig {
    let source = blobs::source(&format!("<catalog {}>", c.name));
    let mut cfg = DeclarativeConfig::default();
    for p in &c.packages {
        cfg.packages.push(blobs::package(&source, &p.name, p.default_channel.as_deref().unwrap_or("")));
        for ch in &p.channels {
            cfg.channels.push(blobs::channel(&source, &p.name, &ch.name, ch.entries.iter().map(entry).collect()));
        }
        for b in &p.bundles {
            cfg.bundles.push(bundle(&p.name, b, &source));
        }
    }
    cfg
}

fn entry(e: &EntryJson) -> declcfg::ChannelEntry {
    let field = |f: &Option<String>| f.as_deref().unwrap_or("").to_string();
    blobs::entry(&e.name, &field(&e.replaces), &e.skips, &field(&e.skip_range))
}

/// A bundle with its properties, and `olm.package` from its version when it has none.
fn bundle(package: &str, b: &BundleJson, source: &Source) -> declcfg::Bundle {
    let mut properties: Vec<declcfg::Property> = b.properties.iter().map(raw_property).collect();
    if !b.properties.iter().any(|p| p.type_ == TYPE_PACKAGE) {
        properties.push(blobs::package_property(package, &b.version));
    }
    blobs::bundle(source, package, &b.name, properties)
}

fn raw_property(p: &PropertyJson) -> declcfg::Property {
    blobs::property(&p.type_, &p.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(json: &str) -> Cluster {
        serde_json::from_str::<ProblemJson>(json).unwrap().into_cluster().unwrap()
    }

    #[test]
    fn inline_catalogs_become_checked_models() {
        let c = problem(
            r#"{"namespace":"ns","catalogs":[{"name":"c","namespace":"ns","packages":[{"name":"p",
            "channels":[{"name":"stable","entries":[{"name":"p.v2","replaces":"p.v1","skipRange":"<2.0.0"},{"name":"p.v1"}]}],
            "bundles":[{"name":"p.v2","version":"2.0.0"},{"name":"p.v1","version":"1.0.0"}]}]}]}"#,
        );
        let model = &c.catalogs[0].model;
        let p = model.package("p").unwrap();
        let e = &p.channel("stable").unwrap().entries[0];
        assert!(e.range().is_some_and(|r| r.as_str() == "<2.0.0"));
        // EnsurePackageProperty: the version field becomes the bundle's olm.package property.
        assert_eq!(p.bundle("p.v1").unwrap().version.as_ref().unwrap().to_string(), "1.0.0");
    }

    #[test]
    fn installed_versions_are_read_tolerantly() {
        let c = problem(r#"{"namespace":"ns","installed":[{"name":"a","version":"v1.2"},{"name":"b"}]}"#);
        assert_eq!(c.installed[0].version.to_string(), "1.2.0");
        assert_eq!(c.installed[1].version.to_string(), "0.0.0");
    }

    #[test]
    fn a_path_needs_a_loader() {
        let p: ProblemJson =
            serde_json::from_str(r#"{"namespace":"ns","catalogs":[{"name":"c","namespace":"ns","path":"x"}]}"#)
                .unwrap();
        assert_eq!(p.into_cluster().unwrap_err(), ProblemError::PathNotSupported { catalog: "c".into() });
    }
}
