//! The checked semantic model of a catalog: packages → channels → entries, and bundles, with
//! typed properties and parsed versions. It is built from a [`DeclarativeConfig`](crate::declcfg::DeclarativeConfig) by
//! [`build`], which performs opm's conversion checks and reports what it had to leave out.
//!
//! Analyses (validation, graphs, resolution) read only this model.

mod build;
pub mod csv;
mod replaces_chain;
mod valid_images;

pub use build::{build, build_phased, PhaseEnds};
pub use replaces_chain::{ChainError, ReplacesForest};

use crate::declcfg::{self, Icon, Pos, Source, Spanned};
use crate::property::Property;
use crate::version::{RangeError, Release, Version, VersionRange};

/// A catalog: every package, sorted by name.
#[derive(Debug, Clone, Default)]
pub struct Model {
    /// The packages, sorted by name.
    pub packages: Vec<Package>,
}

impl Model {
    /// The package named `name`.
    pub fn package(&self, name: &str) -> Option<&Package> {
        self.packages.binary_search_by(|p| p.name.as_str().cmp(name)).ok().map(|i| &self.packages[i])
    }

    /// The packages in the order their `olm.package` blobs were read.
    pub fn packages_in_read_order(&self) -> Vec<&Package> {
        in_read_order(self.packages.iter(), |p| p.order)
    }

    /// Every channel read from an `olm.channel` blob, with its package, in the order the blobs
    /// were read (the channel synthesized for a default channel that names none is left out).
    pub fn channels_in_read_order(&self) -> Vec<(&Package, &Channel)> {
        let read = self.packages.iter().flat_map(|p| p.channels.iter().map(move |c| (p, c)));
        in_read_order(read.filter(|(_, c)| c.source.is_some()), |(_, c)| c.order)
    }

    /// Every bundle, in the order the `olm.bundle` blobs were read.
    pub fn bundles_in_read_order(&self) -> Vec<&Bundle> {
        in_read_order(self.packages.iter().flat_map(|p| &p.bundles), |b| b.order)
    }
}

/// Items put back in read order by their read positions, which are distinct indices: each goes
/// to its slot, so no sort is needed (and no sort code is generated for it).
fn in_read_order<T>(items: impl Iterator<Item = T>, position: impl Fn(&T) -> usize) -> Vec<T> {
    let mut slots: Vec<Option<T>> = Vec::new();
    for item in items {
        let i = position(&item);
        if i >= slots.len() {
            slots.resize_with(i + 1, || None);
        }
        slots[i] = Some(item);
    }
    slots.into_iter().flatten().collect()
}

/// A deprecation message and where it was declared.
#[derive(Debug, Clone, PartialEq)]
pub struct Deprecation {
    /// The deprecation message and where it was written.
    pub message: Spanned<String>,
    /// The `olm.deprecations` blob.
    pub source: Source,
    /// Index of the entry inside that blob.
    pub entry: usize,
}

/// A package: its channels (sorted by name) and its bundles (in the order they were read).
#[derive(Debug, Clone)]
pub struct Package {
    /// The package name.
    pub name: String,
    /// Position of its `olm.package` blob among the catalog's packages, in load order (the
    /// order in which OLM's resolver lists a catalog's packages).
    pub order: usize,
    /// The `olm.package` blob.
    pub source: Source,
    /// The `defaultChannel` text as written (empty when unset).
    pub default_channel: Spanned<String>,
    /// The package description.
    pub description: String,
    /// The package icon, decoded.
    pub icon: Option<Icon>,
    /// Its channels, sorted by name.
    pub channels: Vec<Channel>,
    /// Its bundles, in the order they were read.
    pub bundles: Vec<Bundle>,
    /// The package's deprecation, when `olm.deprecations` names it.
    pub deprecation: Option<Deprecation>,
    /// Positions in `bundles`, sorted by bundle name: [`Package::bundle`] in O(log n). Set by
    /// [`build`], which is the only place a package is made.
    by_name: Vec<u32>,
}

impl Package {
    /// The channel named `name`.
    pub fn channel(&self, name: &str) -> Option<&Channel> {
        self.channels.binary_search_by(|c| c.name.as_str().cmp(name)).ok().map(|i| &self.channels[i])
    }

    /// The default channel, when `defaultChannel` is set (opm creates an empty channel for a
    /// default that names no channel, so this is then that empty channel).
    pub fn default_channel(&self) -> Option<&Channel> {
        if self.default_channel.value.is_empty() {
            None
        } else {
            self.channel(&self.default_channel.value)
        }
    }

    /// The channels read from `olm.channel` blobs, in the order the blobs were read.
    pub fn channels_in_read_order(&self) -> Vec<&Channel> {
        in_read_order(self.channels.iter().filter(|c| c.source.is_some()), |c| c.order)
    }

    /// The bundle named `name`, by binary search over the name index (by a scan if `bundles`
    /// was changed after the build).
    pub fn bundle(&self, name: &str) -> Option<&Bundle> {
        self.bundle_position(name).map(|i| &self.bundles[i])
    }

    /// The position in `bundles` of the bundle named `name`.
    pub fn bundle_position(&self, name: &str) -> Option<usize> {
        if self.by_name.len() != self.bundles.len() {
            return self.bundles.iter().position(|b| b.name.value == name);
        }
        let at = |i: &u32| self.bundles.get(*i as usize).map_or("", |b| b.name.value.as_str());
        let k = self.by_name.binary_search_by(|i| at(i).cmp(name)).ok()?;
        Some(self.by_name[k] as usize).filter(|&i| self.bundles[i].name.value == name)
    }

    /// Sets the name index after `bundles` is complete.
    fn index_bundles(&mut self) {
        let mut by_name: Vec<u32> = (0..self.bundles.len() as u32).collect();
        by_name
            .sort_unstable_by(|&a, &b| self.bundles[a as usize].name.value.cmp(&self.bundles[b as usize].name.value));
        self.by_name = by_name;
    }
}

/// A channel: its entries in the order they were written.
#[derive(Debug, Clone)]
pub struct Channel {
    /// The channel name.
    pub name: String,
    /// Position of its `olm.channel` blob among the catalog's channels, in load order
    /// (`usize::MAX` for a synthesized channel).
    pub order: usize,
    /// The `olm.channel` blob; `None` for the empty channel opm synthesizes for a default channel
    /// that names no channel.
    pub source: Option<Source>,
    /// Its entries, in the order they were written.
    pub entries: Vec<Entry>,
    /// The channel's properties, as written.
    pub properties: Vec<declcfg::Property>,
    /// The channel's deprecation, when `olm.deprecations` names it.
    pub deprecation: Option<Deprecation>,
}

impl Channel {
    /// The entry named `name`.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name.value == name)
    }
}

/// One channel entry with its upgrade edges, and the bundle it names.
#[derive(Debug, Clone)]
pub struct Entry {
    /// Position of the entry in its channel blob's `entries`.
    pub index: usize,
    /// Where the entry starts.
    pub pos: Pos,
    /// The bundle name the entry lists.
    pub name: Spanned<String>,
    /// Empty when absent.
    pub replaces: Spanned<String>,
    /// `skips`, as written.
    pub skips: Vec<Spanned<String>>,
    /// The `skipRange`, when set (an empty text counts as unset, as in opm).
    pub skip_range: Option<SkipRange>,
    /// Index into the package's `bundles`; `None` when no `olm.bundle` has this name.
    pub bundle: Option<usize>,
}

impl Entry {
    /// The skipRange's range, when it is set and valid (OLM ignores an invalid one).
    #[inline]
    pub fn range(&self) -> Option<&VersionRange> {
        self.skip_range.as_ref().and_then(|s| s.range.as_ref().ok())
    }

    /// The skipRange text as written (empty when unset).
    pub fn skip_range_text(&self) -> &str {
        self.skip_range.as_ref().map_or("", |s| s.text.value.as_str())
    }
}

/// An entry's `skipRange`: the text as written, and the range it parsed to or why it did not.
#[derive(Debug, Clone)]
pub struct SkipRange {
    /// The text and where it was read.
    pub text: Spanned<String>,
    /// The parsed range, or blang's error.
    pub range: Result<VersionRange, RangeError>,
}

impl SkipRange {
    /// Parse `text`; `None` when it is empty.
    pub fn parse(text: &Spanned<String>) -> Option<SkipRange> {
        (!text.value.is_empty()).then(|| SkipRange { text: text.clone(), range: VersionRange::parse(&text.value) })
    }
}

/// A bundle, shared by every channel that lists it.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// Position of its `olm.bundle` blob among the catalog's bundles, in load order.
    pub order: usize,
    /// The bundle name.
    pub name: Spanned<String>,
    /// The package the bundle belongs to.
    pub package: String,
    /// The `olm.bundle` blob.
    pub source: Source,
    /// The bundle image (empty when unset).
    pub image: Spanned<String>,
    /// The properties as written.
    pub raw_properties: std::sync::Arc<[declcfg::Property]>,
    /// The properties that parsed, with their index in `raw_properties`.
    pub properties: Vec<(usize, Property)>,
    /// The version from the single `olm.package` property, when it is valid.
    pub version: Option<Version>,
    /// The release from `olm.package`, when set and valid.
    pub release: Option<Release>,
    /// How many `olm.package` properties the bundle has.
    pub package_property_count: usize,
    /// `relatedImages`, as written.
    pub related_images: std::sync::Arc<[declcfg::RelatedImage]>,
    /// How many `olm.bundle.object` manifests decoded.
    pub object_count: usize,
    /// The bundle's deprecation, when `olm.deprecations` names it.
    pub deprecation: Option<Deprecation>,
}

impl Bundle {
    /// The version string opm uses to detect duplicates: the version, then `-<release>` when a
    /// release is set.
    pub fn version_string(&self) -> Option<String> {
        let v = self.version.as_ref()?;
        Some(match &self.release {
            Some(r) => format!("{v}-{r}"),
            None => v.to_string(),
        })
    }
}

/// A version as a user types it for an installed operator (`0.3.0`, `v0.3.0`, `0.3.0+build`):
/// one leading `v` dropped, then blang's strict grammar; `None` when the text is no version. It
/// is user input, not catalog text, read here because this layer owns reading versions;
/// `graph::Start::from_input` says what it means for a package.
pub fn typed_version(text: &str) -> Option<Version> {
    let text = text.trim();
    Version::parse(text.strip_prefix('v').unwrap_or(text)).ok()
}

#[cfg(test)]
mod tests {
    use super::typed_version;

    #[test]
    fn a_typed_version_may_start_with_v_and_keeps_its_build_metadata() {
        let shown = |t: &str| typed_version(t).map(|v| v.to_string());
        assert_eq!(shown("0.3.0").as_deref(), Some("0.3.0"));
        assert_eq!(shown("v0.3.0").as_deref(), Some("0.3.0"));
        assert_eq!(shown(" 1.2.0+build.7 ").as_deref(), Some("1.2.0+build.7"));
        assert_eq!(shown("kube-green.v0.3.0"), None);
        assert_eq!(shown("0.3"), None, "a version is typed whole");
    }
}
