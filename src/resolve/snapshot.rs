//! The resolver's view of the catalogs (OLM's cache), read from the checked models of a
//! [`Cluster`]: one entry per (bundle, channel), with the facts the resolver reads (version,
//! provided GVKs, package properties, labels, deprecation), the virtual `@existing` catalog of
//! installed operators, and indexes by GVK and package name. Nothing here parses text: every
//! version, range and property was parsed when the model (or the cluster) was built.

use crate::hash::HashMap;
use std::borrow::Cow;

use crate::cluster::{Cluster, InstalledCsv};
use crate::declcfg::{self, Node, Spanned};
use crate::model;
use crate::property::{Gvk, PackageProperty, Property, TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA, TYPE_PACKAGE};
use crate::version::{Version, VersionRange};

/// Index of an entry in [`Snapshot::entries`].
pub type EntryId = usize;
/// Index of a catalog in [`Snapshot::catalogs`].
pub type CatalogId = usize;

/// Name of the virtual catalog of installed operators.
pub const EXISTING: &str = "@existing";

/// Property types the registry does not serve to the resolver.
const NOT_SERVED: &[&str] = &[TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA];

/// A visible catalog.
#[derive(Debug)]
pub struct CatalogInfo {
    pub name: String,
    pub namespace: String,
    pub priority: i32,
    /// The `@existing` catalog.
    pub is_virtual: bool,
    /// Entries in snapshot order.
    pub entries: Vec<EntryId>,
}

/// One property as the resolver sees it: the raw value (what CEL reads) and the parsed one,
/// both borrowed from the model or the cluster.
#[derive(Debug)]
pub struct Prop<'a> {
    pub type_: Cow<'a, str>,
    pub value: Cow<'a, Node>,
    pub parsed: Cow<'a, Property>,
}

/// Facts about a bundle (or installed CSV), shared by its entries. Borrowed from the model or
/// the cluster: building the snapshot copies no text.
#[derive(Debug)]
pub struct Bundle<'a> {
    pub name: &'a str,
    /// The bundle's version; `None` when it has none that parses.
    pub version: Option<&'a Version>,
    /// The properties the registry serves, in order (with `EnsurePackageProperty` applied).
    pub properties: Vec<Prop<'a>>,
    pub provides: Vec<&'a Gvk>,
    /// `(packageName, version text, parsed version)` of every `olm.package` property.
    pub packages: Vec<(&'a str, &'a str, Option<&'a Version>)>,
    pub labels: Vec<&'a str>,
    /// Has the legacy `olm.deprecated` property.
    pub deprecated: bool,
}

/// One (bundle, channel) pair of a catalog, or an installed CSV.
#[derive(Debug)]
pub struct Entry<'a> {
    pub catalog: CatalogId,
    pub package: &'a str,
    pub channel: &'a str,
    pub name: &'a str,
    pub replaces: &'a str,
    pub skips: &'a [Spanned<String>],
    /// The skipRange, when set and valid (OLM ignores an invalid one).
    pub skip_range: Option<&'a VersionRange>,
    pub bundle: usize,
    /// The channel is the package's default channel.
    pub default_channel: bool,
    /// For installed CSVs: the subscription whose `installedCSV` names it.
    pub subscription: Option<usize>,
}

impl<'a> Entry<'a> {
    /// The skipRange, when present and valid.
    pub fn skip_range(&self) -> Option<&'a VersionRange> {
        self.skip_range
    }
}

/// One package's entries by channel name, then by catalog.
type ChannelGroups<'a> = HashMap<&'a str, Vec<(CatalogId, Vec<EntryId>)>>;

/// Everything the resolver can see.
#[derive(Debug, Default)]
pub struct Snapshot<'a> {
    /// The visible catalogs, `@existing` first.
    pub catalogs: Vec<CatalogInfo>,
    /// Every entry, in snapshot order.
    pub entries: Vec<Entry<'a>>,
    /// The bundles' facts, shared by their entries.
    pub bundles: Vec<Bundle<'a>>,
    /// The `@existing` catalog.
    pub existing: CatalogId,
    by_gvk: HashMap<&'a Gvk, Vec<EntryId>>,
    by_package: HashMap<&'a str, Vec<EntryId>>,
    /// Entries of each (catalog, package, channel), in snapshot order: package, then channel,
    /// then the few catalogs that have both.
    groups: HashMap<&'a str, ChannelGroups<'a>>,
}

impl<'a> Snapshot<'a> {
    /// Build the snapshot from the cluster's installed operators and visible catalogs; fails
    /// like OLM when the installed operators violate fail-forward.
    pub fn build(cluster: &'a Cluster) -> Result<Snapshot<'a>, String> {
        let ns = cluster.namespace.as_str();
        let visible_ns: Vec<&str> = match &cluster.resolution_namespaces {
            Some(list) => list.iter().map(String::as_str).collect(),
            None => vec![ns],
        };
        // The virtual catalog of installed operators comes first (`existing` is 0).
        let mut s = Snapshot::default();
        s.catalogs.push(CatalogInfo {
            name: EXISTING.into(),
            namespace: ns.into(),
            priority: 0,
            is_virtual: true,
            entries: Vec::new(),
        });
        let dropped = fail_forward_dropped(cluster)?;
        for (i, csv) in cluster.installed.iter().enumerate() {
            if !dropped.contains(&i) {
                s.add_installed(cluster, csv);
            }
        }
        for cat in &cluster.catalogs {
            if !visible_ns.contains(&cat.namespace.as_str()) {
                continue;
            }
            let cid = s.catalogs.len();
            s.catalogs.push(CatalogInfo {
                name: cat.name.clone(),
                namespace: cat.namespace.clone(),
                priority: cat.priority,
                is_virtual: false,
                entries: Vec::new(),
            });
            let packages = cat.model.packages_in_read_order();
            let size: usize = packages.iter().map(|p| p.channels.iter().map(|c| c.entries.len()).sum::<usize>()).sum();
            s.entries.reserve(size);
            s.catalogs[cid].entries.reserve(size);
            for p in packages {
                s.add_package(cid, p);
            }
        }
        s.index();
        Ok(s)
    }

    fn add_installed(&mut self, cluster: &Cluster, csv: &'a InstalledCsv) {
        let props = csv.properties.iter().map(|(i, parsed)| (&csv.raw_properties[*i], parsed));
        let bundle = bundle_facts(&csv.name, Some(&csv.version), props);
        let package = bundle.packages.last().map(|(n, _, _)| *n).unwrap_or_default();
        let subscription =
            cluster.subscriptions.iter().position(|sub| sub.installed_csv.as_deref() == Some(csv.name.as_str()));
        self.bundles.push(bundle);
        let id = self.entries.len();
        self.entries.push(Entry {
            catalog: 0,
            package,
            channel: "",
            name: &csv.name,
            replaces: "",
            skips: &[],
            skip_range: None,
            bundle: self.bundles.len() - 1,
            default_channel: false,
            subscription,
        });
        self.catalogs[0].entries.push(id);
    }

    /// A catalog package: its bundles' facts, then one entry per channel entry, channels in
    /// catalog order.
    fn add_package(&mut self, cid: CatalogId, p: &'a model::Package) {
        let first = self.bundles.len();
        for b in &p.bundles {
            self.bundles.push(catalog_bundle_facts(&p.name, b));
        }
        for ch in p.channels_in_read_order() {
            let default_channel = p.default_channel.value == ch.name;
            for e in &ch.entries {
                let bundle = match e.bundle {
                    Some(b) => first + b,
                    None => {
                        // An entry without a bundle blob: OLM would serve an entry with no
                        // properties beyond its package.
                        self.bundles
                            .push(bundle_facts(&e.name.value, None, std::iter::empty()).ensure_package(&p.name));
                        self.bundles.len() - 1
                    }
                };
                let id = self.entries.len();
                self.entries.push(Entry {
                    catalog: cid,
                    package: &p.name,
                    channel: &ch.name,
                    name: &e.name.value,
                    replaces: &e.replaces.value,
                    skips: &e.skips,
                    skip_range: e.range(),
                    bundle,
                    default_channel,
                    subscription: None,
                });
                self.catalogs[cid].entries.push(id);
            }
        }
    }

    /// The indexes by (catalog, package, channel), GVK and package name.
    fn index(&mut self) {
        for (id, e) in self.entries.iter().enumerate() {
            let by_catalog = self.groups.entry(e.package).or_default().entry(e.channel).or_default();
            match by_catalog.iter_mut().find(|(c, _)| *c == e.catalog) {
                Some((_, list)) => list.push(id),
                None => by_catalog.push((e.catalog, vec![id])),
            }
            let b = &self.bundles[e.bundle];
            for &g in &b.provides {
                let list = self.by_gvk.entry(g).or_default();
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
            let own = std::iter::once(e.package);
            let mut names: Vec<&'a str> = b.packages.iter().map(|(n, _, _)| *n).chain(own).collect();
            crate::sort::sort(&mut names);
            names.dedup();
            for n in names {
                self.by_package.entry(n).or_default().push(id);
            }
        }
    }

    /// The entry's bundle facts.
    pub fn bundle(&self, id: EntryId) -> &Bundle<'a> {
        &self.bundles[self.entries[id].bundle]
    }

    /// Entries that may match a predicate with this GVK / package hint (a superset), in snapshot
    /// order; every entry when there is no hint. Borrowed from the indexes: no copy.
    pub fn candidates(&self, gvk: Option<&Gvk>, package: Option<&str>) -> impl Iterator<Item = EntryId> + '_ {
        let none: &[EntryId] = &[];
        let (listed, all) = match (gvk, package) {
            (Some(g), _) => (self.by_gvk.get(g).map_or(none, Vec::as_slice), 0..0),
            (None, Some(p)) => (self.by_package.get(p).map_or(none, Vec::as_slice), 0..0),
            (None, None) => (none, 0..self.entries.len()),
        };
        listed.iter().copied().chain(all)
    }

    /// The entries of one (catalog, package, channel), in snapshot order.
    pub fn group(&self, catalog: CatalogId, package: &str, channel: &str) -> &[EntryId] {
        let by_catalog = self.groups.get(package).and_then(|channels| channels.get(channel));
        by_catalog.and_then(|list| list.iter().find(|(c, _)| *c == catalog)).map_or(&[], |(_, ids)| ids.as_slice())
    }

    /// `<catalog>/<namespace>/<channel>/<name>`, OLM's bundle variable identifier.
    pub fn identifier(&self, id: EntryId) -> String {
        let e = &self.entries[id];
        let c = &self.catalogs[e.catalog];
        format!("{}/{}/{}/{}", c.name, c.namespace, e.channel, e.name)
    }
}

/// The facts of a catalog bundle: the properties the registry serves, with
/// `EnsurePackageProperty` applied.
fn catalog_bundle_facts<'a>(package: &'a str, b: &'a model::Bundle) -> Bundle<'a> {
    let served = b
        .properties
        .iter()
        .map(|(i, parsed)| (&b.raw_properties[*i], parsed))
        .filter(|(raw, _)| !NOT_SERVED.contains(&raw.type_.value.as_str()));
    bundle_facts(&b.name.value, b.version.as_ref(), served).ensure_package(package)
}

fn bundle_facts<'a>(
    name: &'a str,
    version: Option<&'a Version>,
    props: impl Iterator<Item = (&'a declcfg::Property, &'a Property)>,
) -> Bundle<'a> {
    let mut b = Bundle {
        name,
        version,
        // Room for every property and the `olm.package` one `ensure_package` may add: one
        // allocation instead of a few as the vector grows.
        properties: Vec::with_capacity(props.size_hint().1.unwrap_or(0) + 1),
        provides: Vec::new(),
        packages: Vec::new(),
        labels: Vec::new(),
        deprecated: false,
    };
    for (raw, parsed) in props {
        let value = raw
            .value
            .as_ref()
            .map(Cow::Borrowed)
            .unwrap_or_else(|| Cow::Owned(Node::new(raw.pos, declcfg::Value::Null)));
        b.add(raw.type_.value.as_str(), value, parsed);
    }
    b
}

impl<'a> Bundle<'a> {
    /// Record a property and the facts it gives.
    fn add(&mut self, type_: &'a str, value: Cow<'a, Node>, parsed: &'a Property) {
        match parsed {
            Property::Gvk(g) => self.provides.push(g),
            Property::Package(pp) => {
                self.packages.push((&pp.package_name, &pp.version, pp.parsed_version.as_ref().ok()))
            }
            Property::Label(l) => self.labels.push(l),
            Property::Deprecated => self.deprecated = true,
            _ => {}
        }
        self.properties.push(Prop { type_: Cow::Borrowed(type_), value, parsed: Cow::Borrowed(parsed) });
    }

    /// OLM's `EnsurePackageProperty`: a bundle without an `olm.package` property gets one naming
    /// its package (with an empty version).
    fn ensure_package(mut self, package: &'a str) -> Bundle<'a> {
        if self.packages.is_empty() {
            let value = serde_json::json!({"packageName": package, "version": ""});
            self.packages.push((package, "", None));
            self.properties.push(Prop {
                type_: Cow::Borrowed(TYPE_PACKAGE),
                value: Cow::Owned(Node::from_json(&value)),
                parsed: Cow::Owned(Property::Package(PackageProperty::new(package, ""))),
            });
        }
        self
    }
}

/// Installed CSVs that fail-forward leaves out (Replacing CSVs whose chain ends in a Failed
/// one), or the snapshot error OLM reports.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn fail_forward_dropped(cluster: &Cluster) -> Result<Vec<usize>, String> {
    if !cluster.fail_forward {
        return Ok(Vec::new());
    }
    let csvs = &cluster.installed;
    let replaced_by: HashMap<&str, usize> = csvs
        .iter()
        .enumerate()
        .filter_map(|(i, c)| c.replaces.as_deref().filter(|r| !r.is_empty()).map(|r| (r, i)))
        .collect();
    let phase = |i: usize| csvs[i].phase.as_deref().unwrap_or("");
    let wrap = |m: String| format!("error using catalogsource {}/{EXISTING}: {m}", cluster.namespace);
    let mut dropped = Vec::new();
    for start in 0..csvs.len() {
        let mut seen = vec![start];
        let mut cur = start;
        while let Some(&next) = replaced_by.get(csvs[cur].name.as_str()) {
            if phase(cur) != "Replacing" {
                return Err(wrap(format!(
                    "csv {}/{} in phase {} instead of Replacing",
                    cluster.namespace,
                    csvs[cur].name,
                    phase(cur)
                )));
            }
            if seen.contains(&next) {
                return Err(wrap(format!("csv {}/{} has already been seen", cluster.namespace, csvs[next].name)));
            }
            seen.push(next);
            cur = next;
        }
        if phase(start) == "Replacing" && phase(cur) == "Failed" && cur != start {
            dropped.push(start);
        }
    }
    Ok(dropped)
}
