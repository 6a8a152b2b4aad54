//! [`DepsIndex`]: every bundle of a model numbered once, with what it provides (`olm.gvk`,
//! `olm.package`, `olm.label`), the channels it is in and heads, and every requirement any bundle
//! declares (`olm.gvk.required`, `olm.package.required`, `olm.label.required`, and the `gvk` and
//! `package` leaves of `olm.constraint` values that are not negated), keyed by what it names.
//! Built in one pass over the model; each package's view then reads only the lists it needs.

use crate::hash::{HashMap, HashMapExt};

use super::bits::Bits;
use crate::model::{Bundle, Model, Package};
use crate::property::{Constraint, ConstraintValue, Gvk, Property};
use crate::version::VersionRange;

/// Deepest nesting of compound constraints read (as the resolver's conversion).
pub(crate) const MAX_DEPTH: usize = 64;

/// A bundle's number in a [`DepsIndex`].
pub(crate) type BundleId = u32;

/// Where a bundle is, and where it stands in its channels.
#[derive(Debug)]
pub(crate) struct BundleSlot<'a> {
    pub(crate) package: &'a Package,
    pub(crate) bundle: &'a Bundle,
    /// The channels listing it, by name.
    pub(crate) channels: Vec<&'a str>,
    /// The channels whose head it is.
    pub(crate) head_of: Vec<&'a str>,
    /// The legacy `olm.deprecated` marker: OLM v0 never installs it, so it provides nothing.
    pub(crate) deprecated: bool,
}

/// A requirement some bundle declares, for the reverse view: the bundle, the property's index in
/// its properties, and the leaf that names the target (the whole property for the plain types).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mention<'a> {
    pub(crate) bundle: BundleId,
    pub(crate) property: usize,
    /// For a package mention, the range it asks for (`None` when it did not parse).
    pub(crate) range: Option<&'a VersionRange>,
    /// The range as written.
    pub(crate) range_text: &'a str,
}

/// What a catalog provides and requires, indexed once for many [`DepsIndex::package_deps`](super::DepsIndex) calls.
///
/// ```
/// use olm_catalog::{build_model, load_files, FileInput};
/// use olm_catalog::deps::{DepsIndex, DepsOptions};
///
/// let text = "schema: olm.package\nname: a\n---\nschema: olm.channel\npackage: a\nname: s\nentries:\n- name: a.v1\n\
///     ---\nschema: olm.bundle\npackage: a\nname: a.v1\nimage: a:1\nproperties:\n\
///     - type: olm.package\n  value: {packageName: a, version: 1.0.0}\n\
///     - type: olm.package.required\n  value: {packageName: b, versionRange: '>=1.0.0'}\n";
/// let (model, _) = build_model(&load_files(&[FileInput::new("a.yaml", text)]).config);
/// let index = DepsIndex::new(&model);
/// let deps = index.package_deps("a", &DepsOptions::default()).unwrap();
/// assert_eq!(deps.summary.unsatisfied, 1);
/// assert_eq!(deps.requirements[0].text, "package b >=1.0.0");
/// ```
#[derive(Debug)]
pub struct DepsIndex<'a> {
    pub(crate) model: &'a Model,
    pub(crate) slots: Vec<BundleSlot<'a>>,
    /// The first id of each package's bundles (ids follow the model's packages, then bundles).
    pub(crate) first: Vec<BundleId>,
    pub(crate) by_gvk: HashMap<&'a Gvk, Vec<BundleId>>,
    /// Bundles that count as the package for OLM's package predicate: of that package, or with an
    /// `olm.package` property naming it.
    pub(crate) by_package: HashMap<&'a str, Vec<BundleId>>,
    pub(crate) by_label: HashMap<&'a str, Vec<BundleId>>,
    pub(crate) gvk_mentions: HashMap<&'a Gvk, Vec<Mention<'a>>>,
    pub(crate) package_mentions: HashMap<&'a str, Vec<Mention<'a>>>,
}

impl<'a> DepsIndex<'a> {
    /// Index `model`: one pass over its bundles and their parsed properties.
    pub fn new(model: &'a Model) -> DepsIndex<'a> {
        let mut ix = DepsIndex {
            model,
            slots: Vec::new(),
            first: Vec::with_capacity(model.packages.len()),
            by_gvk: HashMap::new(),
            by_package: HashMap::new(),
            by_label: HashMap::new(),
            gvk_mentions: HashMap::new(),
            package_mentions: HashMap::new(),
        };
        for p in &model.packages {
            ix.first.push(ix.slots.len() as BundleId);
            let (channels, heads) = channel_places(p);
            for (i, b) in p.bundles.iter().enumerate() {
                let id = ix.slots.len() as BundleId;
                let deprecated = b.properties.iter().any(|(_, p)| matches!(p, Property::Deprecated));
                ix.index_bundle(id, p, b, deprecated);
                ix.slots.push(BundleSlot {
                    package: p,
                    bundle: b,
                    channels: channels[i].clone(),
                    head_of: heads[i].clone(),
                    deprecated,
                });
            }
        }
        ix
    }

    fn index_bundle(&mut self, id: BundleId, p: &'a Package, b: &'a Bundle, deprecated: bool) {
        if !deprecated {
            self.by_package.entry(p.name.as_str()).or_default().push(id);
        }
        for (i, prop) in &b.properties {
            match prop {
                Property::Gvk(g) if !deprecated => self.by_gvk.entry(g).or_default().push(id),
                Property::Package(pp) if !deprecated && pp.package_name != p.name => {
                    let list = self.by_package.entry(pp.package_name.as_str()).or_default();
                    if list.last() != Some(&id) {
                        list.push(id);
                    }
                }
                Property::Label(l) if !deprecated => self.by_label.entry(l.as_str()).or_default().push(id),
                Property::GvkRequired(g) => {
                    let m = Mention { bundle: id, property: *i, range: None, range_text: "" };
                    self.gvk_mentions.entry(g).or_default().push(m);
                }
                Property::PackageRequired(r) => {
                    let m = Mention {
                        bundle: id,
                        property: *i,
                        range: r.range.as_ref().ok(),
                        range_text: &r.version_range,
                    };
                    self.package_mentions.entry(r.package_name.as_str()).or_default().push(m);
                }
                Property::Constraint(Ok(c)) => self.index_constraint(id, *i, c, false, 0),
                _ => {}
            }
        }
    }

    /// The `gvk` and `package` leaves of a constraint that ask for something (not under an odd
    /// number of `not`s), each once per property.
    fn index_constraint(&mut self, id: BundleId, property: usize, c: &'a ConstraintValue, negated: bool, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let fresh = |list: &Vec<Mention>| !list.iter().any(|m| m.bundle == id && m.property == property);
        match &c.constraint {
            Constraint::Gvk(g) if !negated => {
                let list = self.gvk_mentions.entry(g).or_default();
                if fresh(list) {
                    list.push(Mention { bundle: id, property, range: None, range_text: "" });
                }
            }
            Constraint::Package { package_name, version_range, range } if !negated => {
                let list = self.package_mentions.entry(package_name.as_str()).or_default();
                if fresh(list) {
                    list.push(Mention { bundle: id, property, range: range.as_ref().ok(), range_text: version_range });
                }
            }
            Constraint::All(cs) | Constraint::Any(cs) => {
                cs.iter().for_each(|c| self.index_constraint(id, property, c, negated, depth + 1))
            }
            Constraint::Not(cs) => cs.iter().for_each(|c| self.index_constraint(id, property, c, !negated, depth + 1)),
            _ => {}
        }
    }

    /// How many bundles the index numbers.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// The ids of `package`'s bundles, in the model's order.
    pub(crate) fn ids_of(&self, package: &str) -> Option<std::ops::Range<BundleId>> {
        let i = self.model.packages.binary_search_by(|p| p.name.as_str().cmp(package)).ok()?;
        let start = self.first[i];
        Some(start..start + self.model.packages[i].bundles.len() as BundleId)
    }

    /// The bundles providing `g` (not deprecated).
    pub(crate) fn gvk_providers(&self, g: &Gvk) -> Bits {
        Bits::of(self.len(), self.by_gvk.get(g).into_iter().flatten().copied())
    }

    /// The bundles OLM's package predicate accepts: of `package` (as source package or
    /// `olm.package` name) and with a version in `range` (the bundle's, or any valid
    /// `olm.package` version); the rest of the package's bundles separately.
    pub(crate) fn package_matches(&self, package: &str, range: &VersionRange) -> (Bits, Vec<BundleId>) {
        let mut yes = Bits::empty(self.len());
        let mut other = Vec::new();
        for &id in self.by_package.get(package).into_iter().flatten() {
            if self.version_in(id, range) {
                yes.insert(id);
            } else {
                other.push(id);
            }
        }
        (yes, other)
    }

    fn version_in(&self, id: BundleId, range: &VersionRange) -> bool {
        let b = self.slots[id as usize].bundle;
        b.version.as_ref().is_some_and(|v| range.contains(v))
            || b.properties.iter().any(|(_, p)| match p {
                Property::Package(pp) => pp.parsed_version.as_ref().is_ok_and(|v| range.contains(v)),
                _ => false,
            })
    }

    /// The bundles with `olm.label` `label`.
    pub(crate) fn label_providers(&self, label: &str) -> Bits {
        Bits::of(self.len(), self.by_label.get(label).into_iter().flatten().copied())
    }
}

/// For each bundle of `p` (by position), the channels listing it and those it heads, by name.
type Places<'a> = Vec<Vec<&'a str>>;

fn channel_places(p: &Package) -> (Places<'_>, Places<'_>) {
    let mut channels: Places = vec![Vec::new(); p.bundles.len()];
    let mut heads: Places = vec![Vec::new(); p.bundles.len()];
    for c in &p.channels {
        for e in &c.entries {
            if let Some(list) = e.bundle.and_then(|i| channels.get_mut(i)) {
                if list.last() != Some(&c.name.as_str()) {
                    list.push(&c.name);
                }
            }
        }
        if let Some(list) = c.head().ok().and_then(|e| e.bundle).and_then(|i| heads.get_mut(i)) {
            list.push(&c.name);
        }
    }
    (channels, heads)
}
