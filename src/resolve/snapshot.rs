//! The resolver's view of the catalogs (OLM's cache), read from the checked models of a
//! [`Cluster`]: one entry per (bundle, channel), with the facts the resolver reads (version,
//! provided GVKs, package properties, labels, deprecation), the virtual `@existing` catalog of
//! installed operators, and indexes by GVK and package name. Nothing here parses text: every
//! version, range and property was parsed when the model (or the cluster) was built.

use crate::hash::{HashMap, HashMapExt};
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
/// the cluster: building the snapshot copies no text and allocates nothing per bundle. The
/// properties and what they give (GVKs, packages, labels) are read from the model's parsed
/// properties when asked, since a resolution reads those of the few bundles it explores or
/// tests, and the snapshot holds every bundle of every visible catalog.
#[derive(Debug)]
pub struct Bundle<'a> {
    pub name: &'a str,
    /// The bundle's version; `None` when it has none that parses.
    pub version: Option<&'a Version>,
    /// The parsed properties (each with its index into `raw`), the registry's unserved types
    /// included (see [`Bundle::served`]).
    parsed: &'a [(usize, Property)],
    raw: &'a [declcfg::Property],
    /// A catalog bundle (whose unserved property types are left out), not an installed CSV.
    catalog: bool,
    /// The package of the `olm.package` property `EnsurePackageProperty` adds (the bundle has
    /// none among its served properties).
    ensured: Option<&'a str>,
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
        let bundle = Bundle::new(&csv.name, Some(&csv.version), &csv.properties, &csv.raw_properties, None);
        let package = bundle.packages().last().map(|(n, _, _)| n).unwrap_or_default();
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
            self.bundles.push(Bundle::new(
                &b.name.value,
                b.version.as_ref(),
                &b.properties,
                &b.raw_properties,
                Some(&p.name),
            ));
        }
        for ch in p.channels_in_read_order() {
            let default_channel = p.default_channel.value == ch.name;
            for e in &ch.entries {
                let bundle = match e.bundle {
                    Some(b) => first + b,
                    None => {
                        // An entry without a bundle blob: OLM would serve an entry with no
                        // properties beyond its package.
                        self.bundles.push(Bundle::new(&e.name.value, None, &[], &[], Some(&p.name)));
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

    /// The indexes by (catalog, package, channel), GVK and package name. Names are hashed
    /// once per run of entries of one group (a catalog package's channel is one run) and once
    /// per bundle, not once per entry: a bundle listed in several channels reuses the lists
    /// its GVKs and packages were found at.
    fn index(&mut self) {
        let Snapshot { entries, bundles, groups, by_gvk, by_package, .. } = self;
        let mut start = 0;
        while start < entries.len() {
            let e = &entries[start];
            // Entries of one catalog channel borrow the same names: compared by address first.
            let eq = |a: &str, b: &str| std::ptr::eq(a, b) || a == b;
            let same = |x: &Entry<'_>| x.catalog == e.catalog && eq(x.package, e.package) && eq(x.channel, e.channel);
            let end = start + entries[start..].iter().take_while(|x| same(x)).count();
            let by_catalog = groups.entry(e.package).or_default().entry(e.channel).or_default();
            match by_catalog.iter_mut().find(|(c, _)| *c == e.catalog) {
                Some((_, list)) => list.extend(start..end),
                None => by_catalog.push((e.catalog, (start..end).collect())),
            }
            start = end;
        }
        // Each bundle's GVK lists, then package lists, as indexes into `lists` (found once).
        let mut slots: Vec<Option<(u32, u32)>> = vec![None; bundles.len()];
        let mut flat: Vec<(bool, usize)> = Vec::new();
        let mut gvk_at: HashMap<&'a Gvk, usize> = HashMap::new();
        let mut gvk_lists: Vec<(&'a Gvk, Vec<EntryId>)> = Vec::new();
        let mut package_at: HashMap<&'a str, usize> = HashMap::new();
        let mut package_lists: Vec<(&'a str, Vec<EntryId>)> = Vec::new();
        let mut package_slot = |n: &'a str, lists: &mut Vec<(&'a str, Vec<EntryId>)>| {
            *package_at.entry(n).or_insert_with(|| {
                lists.push((n, Vec::new()));
                lists.len() - 1
            })
        };
        for (id, e) in entries.iter().enumerate() {
            let (from, to) = *slots[e.bundle].get_or_insert_with(|| {
                let from = flat.len() as u32;
                let b = &bundles[e.bundle];
                for g in b.provides() {
                    let at = *gvk_at.entry(g).or_insert_with(|| {
                        gvk_lists.push((g, Vec::new()));
                        gvk_lists.len() - 1
                    });
                    flat.push((true, at));
                }
                for (n, _, _) in b.packages() {
                    flat.push((false, package_slot(n, &mut package_lists)));
                }
                (from, flat.len() as u32)
            });
            // Each list gets the entry once: its own package, then what its bundle names.
            let own = package_slot(e.package, &mut package_lists);
            let lists = std::iter::once((false, own)).chain(flat[from as usize..to as usize].iter().copied());
            for (gvk, at) in lists {
                let list = if gvk { &mut gvk_lists[at].1 } else { &mut package_lists[at].1 };
                if list.last() != Some(&id) {
                    list.push(id);
                }
            }
        }
        by_gvk.extend(gvk_lists);
        by_package.extend(package_lists);
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

impl<'a> Bundle<'a> {
    /// A bundle's facts from its parsed and raw properties; `package`: a catalog bundle's
    /// package, for which the properties the registry does not serve are left out and
    /// `EnsurePackageProperty` applies (installed CSVs pass `None`: all their properties count).
    fn new(
        name: &'a str,
        version: Option<&'a Version>,
        parsed: &'a [(usize, Property)],
        raw: &'a [declcfg::Property],
        package: Option<&'a str>,
    ) -> Bundle<'a> {
        let mut b = Bundle { name, version, parsed, raw, catalog: package.is_some(), ensured: None, deprecated: false };
        let mut has_package = false;
        for p in b.facts() {
            match p {
                Property::Package(_) => has_package = true,
                Property::Deprecated => b.deprecated = true,
                _ => {}
            }
        }
        b.ensured = package.filter(|_| !has_package);
        b
    }

    /// The parsed properties, unserved types included: what the GVKs, packages, labels and the
    /// deprecation are read from, since only `olm.gvk`, `olm.package`, `olm.label` and
    /// `olm.deprecated` properties parse to those (no unserved type does), and skipping the
    /// type comparison matters (every bundle's properties are read to index the snapshot).
    fn facts(&self) -> impl Iterator<Item = &'a Property> + 'a {
        self.parsed.iter().map(|(_, p)| p)
    }

    /// The served properties, raw and parsed, in order (without the ensured package).
    fn served(&self) -> impl Iterator<Item = (&'a declcfg::Property, &'a Property)> + 'a {
        let (raw, catalog) = (self.raw, self.catalog);
        self.parsed
            .iter()
            .map(move |(i, parsed)| (&raw[*i], parsed))
            .filter(move |(r, _)| !catalog || !NOT_SERVED.contains(&r.type_.value.as_str()))
    }

    /// The properties the registry serves, in order, with `EnsurePackageProperty` applied: a
    /// bundle without an `olm.package` property gets one naming its package (with an empty
    /// version) at the end.
    pub fn properties(&self) -> impl Iterator<Item = Prop<'a>> + 'a {
        let served = self.served().map(|(raw, parsed)| Prop {
            type_: Cow::Borrowed(raw.type_.value.as_str()),
            value: raw
                .value
                .as_ref()
                .map(Cow::Borrowed)
                .unwrap_or_else(|| Cow::Owned(Node::new(raw.pos, declcfg::Value::Null))),
            parsed: Cow::Borrowed(parsed),
        });
        served.chain(self.ensured.map(|package| Prop {
            type_: Cow::Borrowed(TYPE_PACKAGE),
            value: Cow::Owned(Node::from_json(&serde_json::json!({"packageName": package, "version": ""}))),
            parsed: Cow::Owned(Property::Package(PackageProperty::new(package, ""))),
        }))
    }

    /// The GVKs it provides (`olm.gvk`), in order.
    pub fn provides(&self) -> impl Iterator<Item = &'a Gvk> + 'a {
        self.facts().filter_map(|p| match p {
            Property::Gvk(g) => Some(g),
            _ => None,
        })
    }

    /// `(packageName, version text, parsed version)` of every `olm.package` property (the
    /// ensured one included).
    pub fn packages(&self) -> impl Iterator<Item = (&'a str, &'a str, Option<&'a Version>)> + 'a {
        let listed = self.facts().filter_map(|p| match p {
            Property::Package(pp) => {
                Some((pp.package_name.as_str(), pp.version.as_str(), pp.parsed_version.as_ref().ok()))
            }
            _ => None,
        });
        listed.chain(self.ensured.map(|package| (package, "", None)))
    }

    /// Its labels (`olm.label`), in order.
    pub fn labels(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.facts().filter_map(|p| match p {
            Property::Label(l) => Some(l.as_str()),
            _ => None,
        })
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
