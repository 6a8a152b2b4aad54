//! What a catalog update changes, and whether it keeps OLM's update promises (seeds 004,
//! §2.4.3.1.2–2.4.3.1.4): every version installed from the old catalog still has a single way to
//! the head in the new one, a bad release that was never installed is never installed later, and
//! z-stream releases lead to the newest patch.
//!
//! [`diff`] reads two models and returns a [`CatalogDiff`]: the changes package by package
//! (`changes.rs`), an update-safety row for every (package, channel, installed version) of the old
//! catalog with where OLM v0 and v1 take it in each catalog (`safety.rs`), and the broken
//! promises as `Diagnostic`s with `update-*` codes (`safety.rs`, and `apis.rs` for provided APIs
//! still required elsewhere). `text.rs` prints it. Plain serialisable values; nothing is printed
//! or read from files here.

mod apis;
mod changes;
mod locate;
mod safety;
mod text;

#[cfg(test)]
mod testing;

use serde::Serialize;

use crate::diagnostic::{sort_diagnostics, Diagnostic, Severity};
use crate::graph::GraphEdge;
use crate::model::Model;

/// What to compare.
#[derive(Debug, Clone, Default)]
pub struct DiffOptions {
    /// Only this package (changes, rows and findings about it).
    pub package: Option<String>,
}

/// How a package, channel or bundle changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// Only in the new catalog.
    Added,
    /// Only in the old catalog.
    Removed,
    /// In both, different.
    Changed,
}

/// A value before and after (`None` when unset or absent on that side).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueChange {
    /// In the old catalog.
    pub old: Option<String>,
    /// In the new catalog.
    pub new: Option<String>,
}

impl ValueChange {
    /// `Some` when `old` and `new` differ.
    pub fn of(old: Option<String>, new: Option<String>) -> Option<ValueChange> {
        (old != new).then_some(ValueChange { old, new })
    }
}

/// The whole comparison of two catalogs.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CatalogDiff {
    /// Packages that differ, by name.
    pub packages: Vec<PackageChange>,
    /// Broken update promises, sorted (errors and warnings with `update-*` codes).
    pub findings: Vec<Diagnostic>,
    /// Update safety of every package of the old catalog, by name.
    pub safety: Vec<PackageSafety>,
}

impl CatalogDiff {
    /// Nothing changed and nothing was found.
    pub fn is_empty(&self) -> bool {
        self.packages.is_empty() && self.findings.is_empty()
    }

    /// Whether some finding is an error (a broken update promise).
    pub fn has_errors(&self) -> bool {
        self.findings.iter().any(Diagnostic::is_error)
    }

    /// How many findings are errors and how many warnings.
    pub fn counts(&self) -> (usize, usize) {
        let errors = self.findings.iter().filter(|d| d.severity == Severity::Error).count();
        (errors, self.findings.len() - errors)
    }
}

/// How one package changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageChange {
    /// The package.
    pub name: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The default channel, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_channel: Option<ValueChange>,
    /// The package's deprecation message, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<ValueChange>,
    /// The description or the icon changed.
    pub metadata_changed: bool,
    /// Channels that differ, by name.
    pub channels: Vec<ChannelChange>,
    /// Bundles that differ, by name.
    pub bundles: Vec<BundleChange>,
}

/// How one channel changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelChange {
    /// The channel.
    pub name: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The head, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head: Option<ValueChange>,
    /// Entries only in the new channel, in its entry order.
    pub entries_added: Vec<String>,
    /// Entries only in the old channel, in its entry order.
    pub entries_removed: Vec<String>,
    /// Upgrade edges only in the new channel.
    pub edges_added: Vec<GraphEdge>,
    /// Upgrade edges only in the old channel.
    pub edges_removed: Vec<GraphEdge>,
    /// The channel's deprecation message, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<ValueChange>,
}

/// How one bundle changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleChange {
    /// The bundle.
    pub name: String,
    /// Added, removed or changed.
    pub kind: ChangeKind,
    /// The version (with release), on the side where the bundle is (the new one when both).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// The names of the fields that changed: `version`, `image`, `properties`, `relatedImages`,
    /// `edges`, `deprecation`.
    pub fields: Vec<&'static str>,
    /// The image, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<ValueChange>,
    /// Properties added and removed, by type.
    pub properties: Vec<PropertyChange>,
    /// Related images (`name=image`, or the image) only in the new bundle.
    pub related_images_added: Vec<String>,
    /// Related images only in the old bundle.
    pub related_images_removed: Vec<String>,
    /// Its entries' edges that changed, per channel listing it on both sides.
    pub edges: Vec<EntryChange>,
    /// The deprecation message, when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecation: Option<ValueChange>,
}

/// A property type whose values differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PropertyChange {
    /// The property type (`olm.gvk`).
    #[serde(rename = "type")]
    pub type_: String,
    /// How many values only the new bundle has.
    pub added: usize,
    /// How many values only the old bundle has.
    pub removed: usize,
    /// The values added, as compact JSON (left empty for manifests: `olm.bundle.object`,
    /// `olm.csv.metadata`).
    pub values_added: Vec<String>,
    /// The values removed, as compact JSON (empty for manifests).
    pub values_removed: Vec<String>,
}

/// One field of a bundle's entry in one channel, before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EntryChange {
    /// The channel.
    pub channel: String,
    /// `replaces`, `skips` or `skipRange`.
    pub field: &'static str,
    /// Before and after (`skips` joined with `, `).
    #[serde(flatten)]
    pub change: ValueChange,
}

/// The update-safety rows of one package of the old catalog.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageSafety {
    /// The package.
    pub package: String,
    /// Whether the package differs between the catalogs.
    pub changed: bool,
    /// One row per (channel, entry) of the old catalog, channels by name, entries in order.
    pub rows: Vec<SafetyRow>,
}

/// Where OLM takes one installed version, in the old catalog and in the new one.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SafetyRow {
    /// The channel subscribed to.
    pub channel: String,
    /// The installed bundle (an entry of the old channel).
    pub installed: String,
    /// Its version, when known.
    pub version: Option<String>,
    /// In the old catalog.
    pub old: Routes,
    /// In the new catalog; `None` when the channel (or the package) is gone.
    pub new: Option<Routes>,
    /// Whether a route differs between the catalogs.
    pub changed: bool,
    /// The codes of the findings about this row.
    pub findings: Vec<crate::diagnostic::Code>,
}

/// The routes of OLM v0 and OLM v1 from one installed version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Routes {
    /// OLM v0: one edge per resolution, the closest to the head.
    pub v0: Route,
    /// OLM v1: the highest direct successor.
    pub v1: Route,
}

/// Where one OLM takes an installed version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Route {
    /// The first upgrade, if any.
    pub next: Option<String>,
    /// Every bundle upgraded to, in order.
    pub path: Vec<String>,
    /// The channel head.
    pub head: Option<String>,
    /// No path reaches the head.
    pub stranded: bool,
    /// Why, when stranded (or why no path could be computed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Compare `old` with `new`: changes, update-safety rows and findings.
pub fn diff(old: &Model, new: &Model) -> CatalogDiff {
    diff_with(old, new, &DiffOptions::default())
}

/// [`diff`], with options.
pub fn diff_with(old: &Model, new: &Model, options: &DiffOptions) -> CatalogDiff {
    let wanted = |name: &str| options.package.as_deref().is_none_or(|p| p == name);
    let packages: Vec<PackageChange> =
        changes::packages(old, new).into_iter().filter(|p| wanted(&p.name)).collect();
    let mut findings = Vec::new();
    let mut safety: Vec<PackageSafety> = Vec::new();
    for p in old.packages.iter().filter(|p| wanted(&p.name)) {
        let changed = packages.iter().any(|c| c.name == p.name);
        let (s, mut found) = safety::package(p, new.package(&p.name), changed);
        safety.push(s);
        findings.append(&mut found);
    }
    findings.extend(apis::dropped(old, new).into_iter().filter(|(p, _)| wanted(p)).map(|(_, d)| d));
    sort_diagnostics(&mut findings);
    CatalogDiff { packages, findings, safety }
}

pub use text::to_text;
