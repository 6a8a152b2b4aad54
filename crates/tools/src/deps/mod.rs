//! The cross-package view of one package: what its bundles require (`olm.package.required`,
//! `olm.gvk.required`, `olm.label.required`, `olm.constraint`, compound and CEL ones shown as a
//! tree), which bundles of the catalog provide each requirement and with which versions, what
//! nothing in the catalog satisfies, and who requires the package (bundles of other packages that
//! name it, or a GVK its bundles provide).
//!
//! Matching follows OLM v0's predicates (resolver.md §2.3, §5): a GVK is provided by an
//! `olm.gvk` property equal in group, version and kind; a package requirement by a bundle of the
//! package (or with an `olm.package` property naming it) whose version is in the blang range;
//! `all`/`any`/`not` as OLM combines them. Bundles with the legacy `olm.deprecated` marker provide
//! nothing (OLM v0 never installs them). CEL rules are not evaluated here (the view is the same in
//! every build, the browsers' core module has no CEL): a requirement that depends on one is
//! `unknown` unless the rest of its constraint decides it. The view is of the catalog alone: the
//! resolver also drops entries off a channel's replaces chain, and looks in every catalog of the
//! cluster.
//!
//! Entry points: [`package_deps`] for one package, [`DepsIndex`] built once for many. Reads the
//! model only; parses nothing.

mod bits;
mod constraint;
mod index;
mod text;

use crate::hash::{HashMap, HashMapExt};
use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use self::bits::{Bits, Tri};
use self::index::{BundleId, Mention};
use crate::model::Model;
use crate::property::{Gvk, Property, TYPE_CONSTRAINT};

pub use index::DepsIndex;

/// The most providers listed per requirement (the count is always complete).
pub const MAX_PROVIDERS: usize = 100;

/// What to look at.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DepsOptions {
    /// Only the package's channel heads: their requirements, the APIs they provide, and who
    /// requires those.
    pub heads_only: bool,
}

/// Why there is no view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DepsError {
    /// The catalog has no such package.
    UnknownPackage(String),
}

impl fmt::Display for DepsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DepsError::UnknownPackage(p) => write!(f, "no package {p:?} in the catalog"),
        }
    }
}

impl std::error::Error for DepsError {}

/// Whether a requirement can be met from the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Some bundle of the catalog satisfies it.
    Satisfied,
    /// No bundle of the catalog satisfies it.
    Unsatisfied,
    /// No bundle certainly satisfies it, but a CEL rule (not evaluated) might be.
    Unknown,
    /// OLM cannot read it (a range that does not parse, a constraint OLM rejects): it fails
    /// every resolution that meets the bundle.
    Invalid,
}

/// What a requirement asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RequirementKind {
    /// A package within a version range.
    Package,
    /// An API (group, version, kind).
    Gvk,
    /// A bundle with an `olm.label`.
    Label,
    /// An `olm.constraint` (GVK, package, CEL or compound).
    Constraint,
}

/// A group/version/kind.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct GvkRef {
    /// The API group (empty for the core group).
    pub group: String,
    /// The API version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

impl From<&Gvk> for GvkRef {
    fn from(g: &Gvk) -> GvkRef {
        GvkRef { group: g.group.to_string(), version: g.version.to_string(), kind: g.kind.to_string() }
    }
}

/// The operator of a constraint node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintOp {
    /// Provides a GVK.
    Gvk,
    /// A package within a range.
    Package,
    /// A CEL rule over the candidate's properties (shown, not evaluated).
    Cel,
    /// Every child holds.
    All,
    /// Some child holds.
    Any,
    /// No child holds.
    Not,
}

impl ConstraintOp {
    /// The key OLM spells it with.
    pub fn name(self) -> &'static str {
        match self {
            ConstraintOp::Gvk => "gvk",
            ConstraintOp::Package => "package",
            ConstraintOp::Cel => "cel",
            ConstraintOp::All => "all",
            ConstraintOp::Any => "any",
            ConstraintOp::Not => "not",
        }
    }
}

/// One node of an `olm.constraint`, with what the catalog makes of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConstraintNode {
    /// The operator.
    pub op: ConstraintOp,
    /// `GVK g/v Kind`, `package p >=1.0.0`, the CEL rule, or `all(…)` of the children's texts.
    pub text: String,
    /// `failureMessage` (empty when unset; OLM shows it only for CEL rules).
    pub failure_message: String,
    /// Whether some bundle satisfies this node.
    pub status: Status,
    /// How many bundles certainly satisfy it.
    pub matches: usize,
    /// The children of `all`, `any` and `not`.
    pub children: Vec<ConstraintNode>,
}

/// A bundle of the catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Provider {
    /// Its package.
    pub package: String,
    /// The bundle name.
    pub bundle: String,
    /// Its version (with the release, as opm shows it), when valid.
    pub version: Option<String>,
    /// The channels listing it.
    pub channels: Vec<String>,
    /// The channels whose head it is.
    pub head_of: Vec<String>,
}

/// One requirement, merged over the package's bundles that declare it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Requirement {
    /// The property type (`olm.package.required`, `olm.gvk.required`, `olm.label.required`,
    /// `olm.constraint`).
    pub property: String,
    /// What it asks for.
    pub kind: RequirementKind,
    /// `package p >=1.0.0`, `GVK g/v Kind`, `label l`, or the constraint's text.
    pub text: String,
    /// The package asked for (package requirements and `package` constraints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package: Option<String>,
    /// The range as written (package requirements and `package` constraints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<String>,
    /// The API asked for (GVK requirements and `gvk` constraints).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gvk: Option<GvkRef>,
    /// The label asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The constraint as a tree (constraints OLM can read).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub constraint: Option<ConstraintNode>,
    /// The package's bundles that declare it, in the catalog's order.
    pub declared_by: Vec<String>,
    /// Those of them that head a channel.
    pub declared_by_heads: Vec<String>,
    /// Whether the catalog satisfies it.
    pub status: Status,
    /// Why OLM cannot read it (status `invalid`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The bundles that satisfy it: by package, newest version first; at most [`MAX_PROVIDERS`].
    pub providers: Vec<Provider>,
    /// How many bundles satisfy it.
    pub provider_count: usize,
    /// For a package requirement: the package's bundles whose version is outside the range.
    pub other_versions: Vec<Provider>,
}

/// An API the package's bundles provide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProvidedApi {
    /// The API.
    pub gvk: GvkRef,
    /// `GVK g/v Kind`.
    pub text: String,
    /// The bundles providing it.
    pub bundles: Vec<String>,
}

/// Bundles of another package that require this one, or an API it provides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Requirer {
    /// The requiring package.
    pub package: String,
    /// The property that asks (`olm.constraint` for a leaf of a constraint).
    pub property: String,
    /// What it asks of this package: `package p >=1.0.0` or `GVK g/v Kind`.
    pub text: String,
    /// Its bundles that ask, in the catalog's order.
    pub bundles: Vec<String>,
    /// Those of them that head a channel.
    pub heads: Vec<String>,
    /// Whether a bundle of this package (of its heads, with `heads_only`) satisfies what it asks.
    pub satisfied: bool,
}

/// Counts over the view.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DepsSummary {
    /// Bundles of the package looked at (its heads, with `heads_only`).
    pub bundles: usize,
    /// Distinct requirements.
    pub requirements: usize,
    /// Requirements the catalog satisfies.
    pub satisfied: usize,
    /// Requirements nothing in the catalog satisfies.
    pub unsatisfied: usize,
    /// Requirements that depend on a CEL rule.
    pub unknown: usize,
    /// Requirements OLM cannot read.
    pub invalid: usize,
    /// Distinct packages requiring this one.
    pub required_by: usize,
}

/// A bundle of the package looked at.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OwnBundle {
    /// The bundle name.
    pub name: String,
    /// Its version, when valid.
    pub version: Option<String>,
    /// The channels listing it.
    pub channels: Vec<String>,
    /// The channels whose head it is.
    pub head_of: Vec<String>,
    /// Carries the legacy `olm.deprecated` marker.
    pub deprecated: bool,
}

/// The cross-package view of one package.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageDeps {
    /// The package.
    pub package: String,
    /// Whether only channel heads were looked at.
    pub heads_only: bool,
    /// The package's bundles looked at, in the catalog's order.
    pub bundles: Vec<OwnBundle>,
    /// What they require: package requirements, then GVKs, labels and constraints, each by text.
    pub requirements: Vec<Requirement>,
    /// The APIs they provide, by text.
    pub provides: Vec<ProvidedApi>,
    /// Who requires the package, by package and text.
    pub required_by: Vec<Requirer>,
    /// Counts.
    pub summary: DepsSummary,
}

impl PackageDeps {
    /// Whether a requirement is unsatisfied or unreadable (the CLI's exit code 1).
    pub fn has_unmet(&self) -> bool {
        self.summary.unsatisfied + self.summary.invalid > 0
    }

    /// The view as text for a reader.
    pub fn to_text(&self) -> String {
        text::render(self)
    }
}

/// The cross-package view of `package` (builds a [`DepsIndex`]; build one yourself for many
/// packages).
///
/// ```
/// use olm_catalog::{build_model, load_files, FileInput};
/// use olm_catalog::deps::{package_deps, DepsOptions, Status};
///
/// let text = r#"
/// {"schema": "olm.package", "name": "app"}
/// {"schema": "olm.channel", "package": "app", "name": "stable", "entries": [{"name": "app.v1"}]}
/// {"schema": "olm.bundle", "package": "app", "name": "app.v1", "image": "app:1", "properties": [
///   {"type": "olm.package", "value": {"packageName": "app", "version": "1.0.0"}},
///   {"type": "olm.gvk.required", "value": {"group": "db.io", "version": "v1", "kind": "Db"}}]}
/// {"schema": "olm.package", "name": "db"}
/// {"schema": "olm.channel", "package": "db", "name": "stable", "entries": [{"name": "db.v2"}]}
/// {"schema": "olm.bundle", "package": "db", "name": "db.v2", "image": "db:2", "properties": [
///   {"type": "olm.package", "value": {"packageName": "db", "version": "2.0.0"}},
///   {"type": "olm.gvk", "value": {"group": "db.io", "version": "v1", "kind": "Db"}}]}
/// "#;
/// let (model, _) = build_model(&load_files(&[FileInput::new("c.json", text)]).config);
/// let app = package_deps(&model, "app", &DepsOptions::default()).unwrap();
/// assert_eq!(app.requirements[0].status, Status::Satisfied);
/// assert_eq!(app.requirements[0].providers[0].bundle, "db.v2");
/// let db = package_deps(&model, "db", &DepsOptions::default()).unwrap();
/// assert_eq!(db.required_by[0].package, "app");
/// ```
pub fn package_deps(model: &Model, package: &str, options: &DepsOptions) -> Result<PackageDeps, DepsError> {
    DepsIndex::new(model).package_deps(package, options)
}

/// `GVK group/version Kind` (`GVK version Kind` for the core group).
pub(crate) fn gvk_text(g: &Gvk) -> String {
    if g.group.is_empty() {
        format!("GVK {} {}", g.version, g.kind)
    } else {
        format!("GVK {}/{} {}", g.group, g.version, g.kind)
    }
}

/// `package name range`.
pub(crate) fn package_text(name: &str, range: &str) -> String {
    format!("package {name} {range}")
}

/// A requirement being collected: the first declaring property, and every declaring bundle.
struct Draft<'a> {
    property: &'a Property,
    type_: &'a str,
    declared: Vec<BundleId>,
}

impl<'a> DepsIndex<'a> {
    /// The cross-package view of `package`.
    pub fn package_deps(&self, package: &str, options: &DepsOptions) -> Result<PackageDeps, DepsError> {
        let ids = self.ids_of(package).ok_or_else(|| DepsError::UnknownPackage(package.to_string()))?;
        let own: Vec<BundleId> =
            ids.filter(|&id| !options.heads_only || !self.slots[id as usize].head_of.is_empty()).collect();
        let mut requirements: Vec<Requirement> = self.drafts(&own).into_iter().map(|d| self.requirement(d)).collect();
        crate::sort::sort_by(&mut requirements, |a, b| {
            (a.kind, &a.text, &a.property).cmp(&(b.kind, &b.text, &b.property))
        });
        let provides = self.provides(&own);
        let required_by = self.required_by(package, &own, &provides);
        let count = |s: Status| requirements.iter().filter(|r| r.status == s).count();
        let summary = DepsSummary {
            bundles: own.len(),
            requirements: requirements.len(),
            satisfied: count(Status::Satisfied),
            unsatisfied: count(Status::Unsatisfied),
            unknown: count(Status::Unknown),
            invalid: count(Status::Invalid),
            required_by: crate::sort::btree_set(required_by.iter().map(|r| &r.package)).len(),
        };
        let bundles = own.iter().map(|&id| self.own_bundle(id)).collect();
        Ok(PackageDeps {
            package: package.to_string(),
            heads_only: options.heads_only,
            bundles,
            requirements,
            provides: provides.into_iter().map(|(_, p)| p).collect(),
            required_by,
            summary,
        })
    }

    /// The requirement properties of `own`, merged when equal.
    fn drafts(&self, own: &[BundleId]) -> Vec<Draft<'a>> {
        let mut drafts: Vec<Draft> = Vec::new();
        let mut by_key: HashMap<(RequirementKind, String), usize> = HashMap::new();
        for &id in own {
            let b = self.slots[id as usize].bundle;
            for (i, p) in &b.properties {
                let type_ = b.raw_properties[*i].type_.value.as_str();
                let Some(key) = requirement_key(type_, p) else { continue };
                let at = *by_key.entry(key).or_insert_with(|| {
                    drafts.push(Draft { property: p, type_, declared: Vec::new() });
                    drafts.len() - 1
                });
                if drafts[at].declared.last() != Some(&id) {
                    drafts[at].declared.push(id);
                }
            }
        }
        drafts
    }

    /// What draft `d` requires, the bundles that satisfy it, and its status.
    fn requirement(&self, d: Draft) -> Requirement {
        let mut r = self.unresolved(&d);
        let found = self.resolve_draft(&mut r, &d);
        self.settle(&mut r, found);
        r
    }

    /// The requirement of `d` before it is looked up: who declares it, no providers yet.
    fn unresolved(&self, d: &Draft) -> Requirement {
        Requirement {
            property: d.type_.to_string(),
            kind: RequirementKind::Constraint,
            text: String::new(),
            package: None,
            range: None,
            gvk: None,
            label: None,
            constraint: None,
            declared_by: d.declared.iter().map(|&id| self.bundle_name(id)).collect(),
            declared_by_heads: d
                .declared
                .iter()
                .filter(|&&id| !self.slots[id as usize].head_of.is_empty())
                .map(|&id| self.bundle_name(id))
                .collect(),
            status: Status::Invalid,
            error: None,
            providers: Vec::new(),
            provider_count: 0,
            other_versions: Vec::new(),
        }
    }

    /// Fill in what `d` requires (kind, text, package, range, GVK, label or constraint) and
    /// find the bundles that satisfy it; `Err` when it cannot be read or evaluated.
    fn resolve_draft(&self, r: &mut Requirement, d: &Draft) -> Result<Tri, String> {
        match d.property {
            Property::PackageRequired(req) => {
                r.kind = RequirementKind::Package;
                r.text = package_text(&req.package_name, &req.version_range);
                r.package = Some(req.package_name.clone());
                r.range = Some(req.version_range.clone());
                match &req.range {
                    Ok(range) => {
                        let (yes, other) = self.package_matches(&req.package_name, range);
                        r.other_versions = self.providers(other.into_iter(), usize::MAX);
                        Ok(Tri::known(yes))
                    }
                    Err(e) => Err(e.to_string()),
                }
            }
            Property::GvkRequired(g) => {
                r.kind = RequirementKind::Gvk;
                r.text = gvk_text(g);
                r.gvk = Some(g.into());
                Ok(Tri::known(self.gvk_providers(g)))
            }
            Property::LabelRequired(l) => {
                r.kind = RequirementKind::Label;
                match l {
                    Ok(l) => {
                        r.text = format!("label {l}");
                        r.label = Some(l.clone());
                        Ok(Tri::known(self.label_providers(l)))
                    }
                    Err(e) => {
                        r.text = format!("{} (unreadable)", d.type_);
                        Err(e.clone())
                    }
                }
            }
            Property::Constraint(Ok(c)) => match constraint::evaluate(self, c) {
                Ok((node, tri)) => {
                    r.text = constraint::root_text(&node);
                    self.constraint_target(r, &node, c);
                    r.constraint = Some(node);
                    Ok(tri)
                }
                Err(e) => {
                    r.text = c.to_json().to_string();
                    Err(e)
                }
            },
            Property::Constraint(Err(e)) => {
                r.text = format!("{TYPE_CONSTRAINT} (unreadable)");
                Err(constraint::parse_error(e))
            }
            Property::Invalid { error, .. } => {
                r.kind = if d.type_ == crate::property::TYPE_GVK_REQUIRED {
                    RequirementKind::Gvk
                } else {
                    RequirementKind::Package
                };
                r.text = format!("{} (unreadable)", d.type_);
                Err(error.clone())
            }
            _ => Err(String::new()),
        }
    }

    /// The status and providers of a requirement once looked up, or its error.
    fn settle(&self, r: &mut Requirement, found: Result<Tri, String>) {
        match found {
            Ok(tri) => {
                r.status = constraint::status_of(&tri);
                r.provider_count = tri.yes.count();
                r.providers = self.providers(tri.yes.iter(), MAX_PROVIDERS);
            }
            Err(e) => {
                r.status = Status::Invalid;
                r.error = Some(e);
            }
        }
    }

    /// A constraint whose root is a `gvk` or `package` leaf also fills those fields.
    fn constraint_target(&self, r: &mut Requirement, node: &ConstraintNode, c: &crate::property::ConstraintValue) {
        match (&c.constraint, node.op) {
            (crate::property::Constraint::Gvk(g), _) => r.gvk = Some(g.into()),
            (crate::property::Constraint::Package { package_name, version_range, range }, _) => {
                r.package = Some(package_name.clone());
                r.range = Some(version_range.clone());
                if let Ok(range) = range {
                    r.other_versions =
                        self.providers(self.package_matches(package_name, range).1.into_iter(), usize::MAX);
                }
            }
            _ => {}
        }
    }

    /// Bundles as providers: by package, newest version first, then by name; the first `cap`.
    fn providers(&self, ids: impl Iterator<Item = BundleId>, cap: usize) -> Vec<Provider> {
        let mut ids: Vec<BundleId> = ids.collect();
        crate::sort::sort_by(&mut ids, |&a, &b| {
            let (a, b) = (&self.slots[a as usize], &self.slots[b as usize]);
            a.package
                .name
                .cmp(&b.package.name)
                .then_with(|| match (&b.bundle.version, &a.bundle.version) {
                    (Some(x), Some(y)) => x.compare(y),
                    (x, y) => x.is_some().cmp(&y.is_some()),
                })
                .then_with(|| a.bundle.name.value.cmp(&b.bundle.name.value))
        });
        ids.truncate(cap);
        ids.into_iter()
            .map(|id| {
                let s = &self.slots[id as usize];
                Provider {
                    package: s.package.name.clone(),
                    bundle: s.bundle.name.value.clone(),
                    version: s.bundle.version_string(),
                    channels: strings(&s.channels),
                    head_of: strings(&s.head_of),
                }
            })
            .collect()
    }

    /// The APIs `own` provides (deprecated bundles provide nothing), with the GVK as a key.
    fn provides(&self, own: &[BundleId]) -> Vec<(&'a Gvk, ProvidedApi)> {
        let mut by: BTreeMap<&Gvk, Vec<BundleId>> = BTreeMap::new();
        for &id in own {
            let s = &self.slots[id as usize];
            if s.deprecated {
                continue;
            }
            for (_, p) in &s.bundle.properties {
                if let Property::Gvk(g) = p {
                    let list = by.entry(g).or_default();
                    if list.last() != Some(&id) {
                        list.push(id);
                    }
                }
            }
        }
        let mut out: Vec<(&Gvk, ProvidedApi)> = by
            .into_iter()
            .map(|(g, ids)| {
                let bundles = ids.iter().map(|&id| self.bundle_name(id)).collect();
                (g, ProvidedApi { gvk: g.into(), text: gvk_text(g), bundles })
            })
            .collect();
        crate::sort::sort_by(&mut out, |a, b| a.1.text.cmp(&b.1.text));
        out
    }

    /// Bundles of other packages naming `package`, or one of the APIs `own` provides.
    fn required_by(&self, package: &str, own: &[BundleId], provides: &[(&'a Gvk, ProvidedApi)]) -> Vec<Requirer> {
        // (requiring package, property type, text) → (bundles, satisfied)
        let mut groups: BTreeMap<(String, String, String), (Vec<BundleId>, bool)> = BTreeMap::new();
        let mut add = |m: &Mention, text: String, satisfied: bool| {
            let s = &self.slots[m.bundle as usize];
            if s.package.name == package {
                return;
            }
            let type_ = s.bundle.raw_properties[m.property].type_.value.clone();
            let e = groups.entry((s.package.name.clone(), type_.to_string(), text)).or_insert((Vec::new(), satisfied));
            if e.0.last() != Some(&m.bundle) {
                e.0.push(m.bundle);
            }
        };
        let live: Vec<BundleId> = own.iter().copied().filter(|&id| !self.slots[id as usize].deprecated).collect();
        let own_bits = Bits::of(self.len(), live.iter().copied());
        // Many bundles ask for the same range: each range is checked once.
        let mut by_range: HashMap<&str, bool> = HashMap::new();
        for m in self.package_mentions.get(package).into_iter().flatten() {
            let satisfied = *by_range.entry(m.range_text).or_insert_with(|| {
                m.range.is_some_and(|r| !self.package_matches(package, r).0.and(&own_bits).is_empty())
            });
            add(m, package_text(package, m.range_text), satisfied);
        }
        for (g, api) in provides {
            for m in self.gvk_mentions.get(g).into_iter().flatten() {
                add(m, api.text.clone(), true);
            }
        }
        groups
            .into_iter()
            .map(|((package, property, text), (ids, satisfied))| Requirer {
                package,
                property,
                text,
                heads: ids
                    .iter()
                    .filter(|&&id| !self.slots[id as usize].head_of.is_empty())
                    .map(|&id| self.bundle_name(id))
                    .collect(),
                bundles: ids.iter().map(|&id| self.bundle_name(id)).collect(),
                satisfied,
            })
            .collect()
    }

    fn own_bundle(&self, id: BundleId) -> OwnBundle {
        let s = &self.slots[id as usize];
        OwnBundle {
            name: s.bundle.name.value.clone(),
            version: s.bundle.version_string(),
            channels: strings(&s.channels),
            head_of: strings(&s.head_of),
            deprecated: s.deprecated,
        }
    }

    fn bundle_name(&self, id: BundleId) -> String {
        self.slots[id as usize].bundle.name.value.clone()
    }
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The key under which equal requirements of different bundles merge; `None` for a property
/// that requires nothing.
fn requirement_key(type_: &str, p: &Property) -> Option<(RequirementKind, String)> {
    use crate::property::{TYPE_GVK_REQUIRED, TYPE_PACKAGE_REQUIRED};
    Some(match p {
        Property::PackageRequired(r) => (RequirementKind::Package, format!("{}\0{}", r.package_name, r.version_range)),
        Property::GvkRequired(g) => (RequirementKind::Gvk, format!("{}\0{}\0{}", g.group, g.version, g.kind)),
        Property::LabelRequired(Ok(l)) => (RequirementKind::Label, l.clone()),
        Property::LabelRequired(Err(e)) => (RequirementKind::Label, format!("\0{e}")),
        Property::Constraint(Ok(c)) => (RequirementKind::Constraint, c.to_json().to_string()),
        Property::Constraint(Err(e)) => (RequirementKind::Constraint, format!("\0{e}")),
        Property::Invalid { type_: t, error } if t == TYPE_GVK_REQUIRED || t == TYPE_PACKAGE_REQUIRED => {
            (RequirementKind::Constraint, format!("{type_}\0{error}"))
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests;
