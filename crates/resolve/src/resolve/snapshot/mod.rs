//! The resolver's view of the catalogs (OLM's cache), read from the checked models of a
//! [`Cluster`]: one entry per (bundle, channel), with the facts the resolver reads (version,
//! provided GVKs, package properties, labels, deprecation), the virtual `@existing` catalog of
//! installed operators, and indexes by GVK and package name. Nothing here parses text: every
//! version, range and property was parsed when the model (or the cluster) was built.

use crate::hash::HashMap;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use crate::cluster::{Cluster, InstalledCsv};
use crate::declcfg::{self, Node, Spanned};
use crate::graph::order::{v0_order_links, Links};
use crate::model::Model;
use crate::property::{Gvk, PackageProperty, Property, TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA, TYPE_PACKAGE};
use crate::resolve::predicate::BundlePredicates;
use crate::version::{Version, VersionRange};

mod index;
pub use index::CatalogIndex;
use index::Lists;

/// Index of an entry of the snapshot (see [`Snapshot::entry`]).
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
    /// Its entries: catalogs' entries are numbered one catalog after the other, in snapshot order.
    pub entries: Range<EntryId>,
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
/// the cluster, and made when asked for ([`Snapshot::bundle`]): the snapshot keeps no per-bundle
/// data of a catalog beyond its [`CatalogIndex`]. The properties and what they give (GVKs,
/// packages, labels) are read from the model's parsed properties when asked, since a resolution
/// reads those of the few bundles it explores or tests.
#[derive(Debug, Clone, Copy)]
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

/// One (bundle, channel) pair of a catalog, or an installed CSV; made when asked for
/// ([`Snapshot::entry`]).
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    pub catalog: CatalogId,
    pub package: &'a str,
    pub channel: &'a str,
    pub name: &'a str,
    pub replaces: &'a str,
    pub skips: &'a [Spanned<String>],
    /// The skipRange, when set and valid (OLM ignores an invalid one).
    pub skip_range: Option<&'a VersionRange>,
    /// Its bundle's index (see [`Snapshot::bundle_at`]).
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

/// A visible catalog's model and index, and where its entries and bundles start in the snapshot.
#[derive(Debug)]
struct Part<'a> {
    model: &'a Model,
    index: Arc<CatalogIndex>,
    entries: usize,
    bundles: usize,
}

/// Everything the resolver can see.
#[derive(Debug, Default)]
pub struct Snapshot<'a> {
    /// The visible catalogs, `@existing` first.
    pub catalogs: Vec<CatalogInfo>,
    /// The `@existing` catalog.
    pub existing: CatalogId,
    /// The installed CSVs' entries and bundles (the first entries and bundles of the snapshot).
    installed: Vec<Entry<'a>>,
    installed_bundles: Vec<Bundle<'a>>,
    installed_lists: Lists,
    /// The other catalogs (`catalogs[1..]`).
    parts: Vec<Part<'a>>,
    /// How many entries there are.
    len: usize,
    /// Each catalog's place in the order of their identifiers' `<catalog>/<namespace>/`
    /// prefixes, when no prefix begins another (names hold no `/`, and no two catalogs have the
    /// same name and namespace): then the identifiers of two catalogs compare as their prefixes
    /// do, and no two catalogs share one.
    places: Option<Vec<u32>>,
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
        let dropped = fail_forward_dropped(cluster)?;
        for (i, csv) in cluster.installed.iter().enumerate() {
            if !dropped.contains(&i) {
                s.add_installed(cluster, csv);
            }
        }
        s.catalogs.push(CatalogInfo {
            name: EXISTING.into(),
            namespace: ns.into(),
            priority: 0,
            is_virtual: true,
            entries: 0..s.installed.len(),
        });
        let own: Vec<(&str, usize)> = s.installed.iter().map(|e| (e.package, e.bundle)).collect();
        s.installed_lists = Lists::new(&own, s.installed_bundles.len(), |b| s.installed_bundles[b]);
        let (mut entries, mut bundles) = (s.installed.len(), s.installed_bundles.len());
        for cat in &cluster.catalogs {
            if !visible_ns.contains(&cat.namespace.as_str()) {
                continue;
            }
            let index = CatalogIndex::of(&cat.model);
            let n = index.entries.len();
            s.catalogs.push(CatalogInfo {
                name: cat.name.clone(),
                namespace: cat.namespace.clone(),
                priority: cat.priority,
                is_virtual: false,
                entries: entries..entries + n,
            });
            let next = bundles + index.bundles.len();
            s.parts.push(Part { model: &cat.model, index, entries, bundles });
            (entries, bundles) = (entries + n, next);
        }
        s.len = entries;
        s.places = s.prefix_places();
        Ok(s)
    }

    /// See [`Snapshot::places`].
    fn prefix_places(&self) -> Option<Vec<u32>> {
        let prefix = |c: usize| {
            let c = &self.catalogs[c];
            c.name.bytes().chain([b'/']).chain(c.namespace.bytes()).chain([b'/'])
        };
        let mut order: Vec<usize> = (0..self.catalogs.len()).collect();
        crate::sort::sort_by(&mut order, |&a, &b| prefix(a).cmp(prefix(b)));
        // Sorted, a prefix that begins others is followed by one of them.
        let begins = |a: usize, b: usize| prefix(a).zip(prefix(b)).all(|(x, y)| x == y);
        if order.windows(2).any(|w| begins(w[0], w[1])) {
            return None;
        }
        Some(crate::sort::places(&order))
    }

    /// Catalog `catalog`'s place among the catalogs ordered by identifier prefix, when the
    /// prefixes decide the order of identifiers (see [`Snapshot::places`]).
    pub fn identifier_place(&self, catalog: CatalogId) -> Option<u32> {
        self.places.as_ref().map(|p| p[catalog])
    }

    /// Whether no other entry of the snapshot has entry `id`'s identifier, known from the
    /// indexes (`false` also when not known: installed CSVs, catalogs whose identifiers may
    /// meet).
    #[inline]
    pub fn identifier_unique(&self, id: EntryId) -> bool {
        self.places.is_some() && self.part_of(id).is_some_and(|(_, p)| p.index.ranks(p.model).1)
    }

    fn add_installed(&mut self, cluster: &Cluster, csv: &'a InstalledCsv) {
        let bundle = Bundle::new(&csv.name, Some(&csv.version), &csv.properties, &csv.raw_properties, None);
        let package = bundle.packages().last().map(|(n, _, _)| n).unwrap_or_default();
        let subscription =
            cluster.subscriptions.iter().position(|sub| sub.installed_csv.as_deref() == Some(csv.name.as_str()));
        self.installed_bundles.push(bundle);
        self.installed.push(Entry {
            catalog: 0,
            package,
            channel: "",
            name: &csv.name,
            replaces: "",
            skips: &[],
            skip_range: None,
            bundle: self.installed_bundles.len() - 1,
            default_channel: false,
            subscription,
        });
    }

    /// How many entries there are (entries are `0..entries()`).
    pub fn entries(&self) -> usize {
        self.len
    }

    /// How many bundles there are (bundles are `0..bundles()`).
    pub fn bundles(&self) -> usize {
        self.parts.last().map_or(self.installed_bundles.len(), |p| p.bundles + p.index.bundles.len())
    }

    /// The catalog part holding entry `id` (`None`: an installed CSV).
    #[inline]
    fn part_of(&self, id: EntryId) -> Option<(CatalogId, &Part<'a>)> {
        let i = self.parts.partition_point(|p| p.entries <= id);
        (i > 0).then(|| (i, &self.parts[i - 1]))
    }

    /// The catalog part holding bundle `b` (`None`: an installed CSV's).
    #[inline]
    fn bundle_part(&self, b: usize) -> Option<&Part<'a>> {
        let i = self.parts.partition_point(|p| p.bundles <= b);
        i.checked_sub(1).map(|i| &self.parts[i])
    }

    /// Entry `id` (always inlined: the resolver's hot loops make a view per candidate entry, and
    /// since the crates split, left to itself the compiler made it a call, 3 % slower).
    #[inline(always)]
    pub fn entry(&self, id: EntryId) -> Entry<'a> {
        match self.part_of(id) {
            Some((cid, p)) => p.index.entry(p.model, id - p.entries, cid, p.bundles),
            None => self.installed[id],
        }
    }

    /// Entry `id`'s bundle (its [`Entry::bundle`]), read from the index alone: the hot loops
    /// that only test or look up a bundle skip making the whole view.
    #[inline]
    pub fn bundle_of(&self, id: EntryId) -> usize {
        match self.part_of(id) {
            Some((_, p)) => p.bundles + p.index.entries[id - p.entries].bundle as usize,
            None => self.installed[id].bundle,
        }
    }

    /// Whether entry `id`'s bundle may have dependencies: `false` when its catalog's index
    /// found no dependency property among its served properties (installed CSVs are read).
    #[inline]
    pub fn dependent(&self, id: EntryId) -> bool {
        match self.part_of(id) {
            Some((_, p)) => p.index.bundles[p.index.entries[id - p.entries].bundle as usize].dependent,
            None => true,
        }
    }

    /// Entry `id`'s catalog (its [`Entry::catalog`]), read from the index alone.
    #[inline]
    pub fn catalog_of(&self, id: EntryId) -> CatalogId {
        match self.part_of(id) {
            Some((cid, _)) => cid,
            None => self.installed[id].catalog,
        }
    }

    /// Entry `id`'s package (its [`Entry::package`]), read from the index alone.
    #[inline]
    pub fn package_of(&self, id: EntryId) -> &'a str {
        match self.part_of(id) {
            Some((_, p)) => &p.model.packages[p.index.entries[id - p.entries].package as usize].name,
            None => self.installed[id].package,
        }
    }

    /// What entry `id`'s bundle provides, as numbers of its catalog's index: `(catalog part,
    /// keys)`, each key `(true, gvk)` for each of [`Bundle::provides`], then `(false, package)`
    /// for each of [`Bundle::packages`], in their order (read them with [`Snapshot::gvk_key`] and
    /// [`Snapshot::package_key`]); `None` for an installed CSV. The invariants group bundles by
    /// these numbers, and compare names only once per GVK and package of each catalog.
    #[inline]
    pub fn invariant_keys(&self, id: EntryId) -> Option<(usize, &[(bool, u32)])> {
        let (cid, p) = self.part_of(id)?;
        let lists = &p.index.lists;
        let (from, to) = lists.key_runs[p.index.entries[id - p.entries].bundle as usize];
        Some((cid - 1, &lists.keys[from as usize..to as usize]))
    }

    /// GVK number `n` of catalog part `part` (see [`Snapshot::invariant_keys`]).
    pub fn gvk_key(&self, part: usize, n: u32) -> &Gvk {
        &self.parts[part].index.lists.gvks[n as usize]
    }

    /// Package number `n` of catalog part `part` (see [`Snapshot::invariant_keys`]).
    pub fn package_key(&self, part: usize, n: u32) -> &str {
        &self.parts[part].index.lists.packages[n as usize]
    }

    /// How many GVKs and packages catalog part `part` numbers (see [`Snapshot::invariant_keys`]).
    pub fn key_counts(&self, part: usize) -> (usize, usize) {
        let lists = &self.parts[part].index.lists;
        (lists.gvks.len(), lists.packages.len())
    }

    /// How many catalog parts there are (catalog sources, `@existing` aside).
    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// Whether entry `id`'s bundle is deprecated (its [`Bundle::deprecated`], without the view).
    #[inline]
    pub fn deprecated(&self, id: EntryId) -> bool {
        match self.part_of(id) {
            Some((_, p)) => p.index.bundles[p.index.entries[id - p.entries].bundle as usize].deprecated,
            None => self.installed_bundles[self.installed[id].bundle].deprecated,
        }
    }

    /// Bundle `b`'s dependency predicates: a catalog's are read once and kept with its index,
    /// for every resolution against the same model; an installed CSV's are read each time.
    pub(crate) fn predicates(&self, b: usize) -> index::Predicates {
        match self.bundle_part(b) {
            Some(p) => p.index.predicates(p.model, b - p.bundles),
            None => BundlePredicates::of(self.installed_bundles[b].served_parsed()).map(Arc::new),
        }
    }

    /// Bundle `b` (an [`Entry::bundle`]).
    #[inline]
    pub fn bundle_at(&self, b: usize) -> Bundle<'a> {
        match self.bundle_part(b) {
            Some(p) => p.index.bundle(p.model, b - p.bundles),
            None => self.installed_bundles[b],
        }
    }

    /// The entry's bundle facts.
    #[inline]
    pub fn bundle(&self, id: EntryId) -> Bundle<'a> {
        match self.part_of(id) {
            Some((_, p)) => p.index.bundle(p.model, p.index.entries[id - p.entries].bundle as usize),
            None => self.installed_bundles[self.installed[id].bundle],
        }
    }

    /// Entries that may match a predicate with this GVK / package hint (a superset), in snapshot
    /// order; every entry when there is no hint. Read from the indexes: no copy.
    pub fn candidates<'s>(
        &'s self,
        gvk: Option<&'s Gvk>,
        package: Option<&'s str>,
    ) -> impl Iterator<Item = EntryId> + 's {
        let all = if gvk.is_none() && package.is_none() { 0..self.len } else { 0..0 };
        let installed = self.installed_lists.get(gvk, package).iter().map(|&i| i as usize);
        let listed = self
            .parts
            .iter()
            .flat_map(move |p| p.index.lists.get(gvk, package).iter().map(|&i| p.entries + i as usize));
        installed.chain(listed).chain(all)
    }

    /// The (package, channel) group of entry `id` of a catalog source, as `(catalog, run)`;
    /// `None` for an installed CSV.
    #[inline]
    pub fn run_of(&self, id: EntryId) -> Option<(CatalogId, u32)> {
        let (cid, p) = self.part_of(id)?;
        Some((cid, p.index.entries[id - p.entries].run))
    }

    /// Run `run`'s place in OLM's `sortBundles` order of a catalog's groups (default channels
    /// first, then package and channel names).
    #[inline]
    pub fn run_rank(&self, catalog: CatalogId, run: u32) -> u32 {
        self.parts[catalog - 1].index.runs[run as usize].rank
    }

    /// The entries of run `run` of a catalog source (a (package, channel) group), in catalog
    /// order.
    #[inline]
    pub fn run_entries(&self, catalog: CatalogId, run: u32) -> Range<EntryId> {
        let p = &self.parts[catalog - 1];
        let r = &p.index.runs[run as usize].entries;
        p.entries + r.start as usize..p.entries + r.end as usize
    }

    /// OLM v0's order (`sortChannel`) of a whole (package, channel) group of a catalog source,
    /// head first, or OLM's error; computed once per catalog and kept with its index (the
    /// order depends on the catalog alone).
    pub fn run_order(&self, catalog: CatalogId, run: u32) -> Result<impl Iterator<Item = EntryId> + '_, &str> {
        let p = &self.parts[catalog - 1];
        let order = p.index.run_order(p.model, run)?;
        Ok(order.iter().map(move |&i| p.entries + i as usize))
    }

    /// Entry `id`'s catalog and its place among the entries of that catalog source ordered by
    /// identifier (they share the catalog's name and namespace, so the rest decides); `None` for
    /// an installed CSV. Computed once per catalog and kept with its index.
    #[inline]
    pub fn identifier_rank(&self, id: EntryId) -> Option<(CatalogId, u32)> {
        let (cid, p) = self.part_of(id)?;
        Some((cid, p.index.ranks(p.model).0[id - p.entries]))
    }

    /// `<catalog>/<namespace>/<channel>/<name>`, OLM's bundle variable identifier.
    pub fn identifier(&self, id: EntryId) -> String {
        self.identifier_of(&self.entry(id))
    }

    /// [`Snapshot::identifier`] of an entry already viewed.
    pub fn identifier_of(&self, e: &Entry) -> String {
        let c = &self.catalogs[e.catalog];
        let parts = [c.name.as_str(), &c.namespace, e.channel, e.name];
        let mut out = String::with_capacity(parts.iter().map(|p| p.len() + 1).sum());
        for (i, p) in parts.into_iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            out.push_str(p);
        }
        out
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

    /// The parsed properties the registry serves, in order, without the package property
    /// `EnsurePackageProperty` adds (which is no dependency): what a bundle's dependency
    /// predicates are read from, without making a [`Prop`] of each (in WebAssembly each of those
    /// moves was a `memory.copy`, a call out into the engine).
    pub fn served_parsed(&self) -> impl Iterator<Item = &'a Property> + 'a {
        self.served().map(|(_, parsed)| parsed)
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
                .as_deref()
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
/// OLM v0's order (`sortChannel`) of `entries`, all or some of one channel's (`package`,
/// `channel` name it in errors): indexes into `entries`, head first; errors are OLM's texts.
pub fn chain_order(package: &str, channel: &str, entries: &[Entry]) -> Result<Vec<usize>, String> {
    let links: Vec<Links<Spanned<String>>> =
        entries.iter().map(|e| Links { name: e.name, replaces: e.replaces, skips: e.skips }).collect();
    v0_order_links(package, channel, &links).map_err(|e| e.to_string())
}

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
