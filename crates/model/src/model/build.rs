//! Building the [`Model`] from a [`DeclarativeConfig`]: opm's conversion phases — packages,
//! channels, bundles, then dangling entries, default channels and deprecations — with opm's
//! checks and messages. opm stops at the first problem; here every problem is reported (in the
//! order opm would meet them) and the offending blob or field is left out so the rest can still
//! be checked.

use crate::hash::{HashMap, HashMapExt, HashSet, HashSetExt};
use std::collections::BTreeSet;

use super::valid_images::ValidImages;
use super::{Bundle, Channel, Deprecation, Entry, Model, Package};
use crate::declcfg::{self, DeclarativeConfig};
use crate::diagnostic::{Code, Diagnostic};
use crate::dns_label::dns1123_label_errors;
use crate::gotext::{quote as q, string_slice, string_slice_capped, OPM_LIST_CAP};
use crate::property::{self, PackageProperty, Property};
use crate::version::{Release, Version};

/// Convert a catalog into the model. The diagnostics come in opm's phase order (not sorted), so
/// the first one is the error opm itself would print.
///
/// ```
/// use olm_catalog::{build_model, load_files, FileInput};
///
/// let yaml = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
///     schema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n  skipRange: '<1.0.0'\n---\n\
///     schema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
///     - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n";
/// let (model, diagnostics) = build_model(&load_files(&[FileInput::new("catalog.yaml", yaml)]).config);
/// assert!(diagnostics.is_empty());
/// let foo = model.package("foo").unwrap();
/// let entry = &foo.channel("stable").unwrap().entries[0];
/// // Parsed once, here: the analyses read the range and the version, never the text.
/// assert!(entry.range().is_some_and(|r| r.as_str() == "<1.0.0"));
/// assert_eq!(foo.bundles[0].version.as_ref().unwrap().to_string(), "1.0.0");
/// ```
pub fn build(cfg: &DeclarativeConfig) -> (Model, Vec<Diagnostic>) {
    let (model, diags, _) = build_phased(cfg);
    (model, diags)
}

/// Where each of opm's conversion phases ends in [`build`]'s diagnostics (the deprecations'
/// phase runs to the end); the phase of a diagnostic tells which error opm meets first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PhaseEnds {
    /// End of the `olm.package` phase.
    pub packages: usize,
    /// End of the `olm.channel` phase.
    pub channels: usize,
    /// End of the `olm.bundle` phase.
    pub bundles: usize,
    /// End of the dangling-entry phase.
    pub dangling: usize,
}

/// [`build`], also saying where each conversion phase's diagnostics end.
pub fn build_phased(cfg: &DeclarativeConfig) -> (Model, Vec<Diagnostic>, PhaseEnds) {
    let mut b = Builder::default();
    let mut ends = PhaseEnds::default();
    b.packages(cfg);
    ends.packages = b.diags.len();
    b.channels(cfg);
    ends.channels = b.diags.len();
    b.bundles(cfg);
    ends.bundles = b.diags.len();
    b.dangling_entries();
    ends.dangling = b.diags.len();
    b.default_channels();
    b.deprecations(cfg);
    let mut packages = b.packages;
    for p in &mut packages {
        crate::sort::sort_by(&mut p.channels, |a, b| a.name.cmp(&b.name));
    }
    crate::sort::sort_by(&mut packages, |a, b| a.name.cmp(&b.name));
    (Model { packages }, b.diags, ends)
}

#[derive(Default)]
struct Builder {
    packages: Vec<Package>,
    by_name: HashMap<String, usize>,
    diags: Vec<Diagnostic>,
}

impl Builder {
    fn err(&mut self, code: Code, message: String, loc: crate::diagnostic::Location) {
        self.diags.push(Diagnostic::error(code, message, loc));
    }

    /// Phase A: `olm.package` blobs.
    fn packages(&mut self, cfg: &DeclarativeConfig) {
        for p in &cfg.packages {
            let name = &p.name.value;
            let at = p.source.at(p.name.pos, "/name");
            if name.is_empty() {
                self.err(Code::PackageNoName, "config contains package with no name".into(), p.source.blob());
                continue;
            }
            if let Some(&i) = self.by_name.get(name) {
                let first = self.packages[i].source.at(self.packages[i].source.pos, "");
                self.diags.push(
                    Diagnostic::error(Code::DuplicatePackage, format!("duplicate package {}", q(name)), at)
                        .with_related("first defined here", first),
                );
                continue;
            }
            let errs = dns1123_label_errors(name);
            if !errs.is_empty() {
                self.err(
                    Code::InvalidPackageName,
                    format!("invalid package name {}: {}", q(name), string_slice(&errs)),
                    at,
                );
            }
            self.by_name.insert(name.clone(), self.packages.len());
            self.packages.push(Package {
                name: name.clone(),
                order: self.packages.len(),
                source: p.source.clone(),
                default_channel: p.default_channel.clone(),
                description: p.description.clone(),
                icon: p.icon.clone(),
                channels: Vec::new(),
                bundles: Vec::new(),
                deprecation: None,
                by_name: Vec::new(),
            });
        }
    }

    /// Phase B: `olm.channel` blobs.
    fn channels(&mut self, cfg: &DeclarativeConfig) {
        // (package, channel name) → position in the package's channels: duplicates are found
        // in constant time however many channels a package has.
        let mut seen_channels: HashMap<(usize, &str), usize> = HashMap::new();
        for (order, c) in cfg.channels.iter().enumerate() {
            let Some(&pi) = self.by_name.get(&c.package.value) else {
                self.err(
                    Code::UnknownPackage,
                    format!("unknown package {} for channel {}", q(&c.package.value), q(&c.name.value)),
                    c.source.at(c.package.pos, "/package"),
                );
                continue;
            };
            let pkg_name = c.package.value.clone();
            if c.name.value.is_empty() {
                self.err(
                    Code::ChannelNoName,
                    format!("package {} contains channel with no name", q(&pkg_name)),
                    c.source.at(c.name.pos, "/name"),
                );
                continue;
            }
            if let Some(&ci) = seen_channels.get(&(pi, c.name.value.as_str())) {
                let first = self.packages[pi].channels[ci].source.as_ref().map(|s| s.blob()).unwrap_or_default();
                self.diags.push(
                    Diagnostic::error(
                        Code::DuplicateChannel,
                        format!("package {} has duplicate channel {}", q(&pkg_name), q(&c.name.value)),
                        c.source.at(c.name.pos, "/name"),
                    )
                    .with_related("first defined here", first),
                );
                continue;
            }
            let mut seen = HashSet::new();
            let mut entries = Vec::with_capacity(c.entries.len());
            for (i, e) in c.entries.iter().enumerate() {
                if !seen.insert(e.name.value.as_str()) {
                    self.err(
                        Code::DuplicateEntry,
                        format!(
                            "invalid package {}, channel {}: duplicate entry {}",
                            q(&pkg_name),
                            q(&c.name.value),
                            q(&e.name.value)
                        ),
                        c.source.at(e.name.pos, format!("/entries/{i}/name")),
                    );
                    continue;
                }
                entries.push(Entry {
                    index: i,
                    pos: e.pos,
                    name: e.name.clone(),
                    replaces: e.replaces.clone(),
                    skips: e.skips.clone(),
                    skip_range: super::SkipRange::parse(&e.skip_range),
                    bundle: None,
                });
            }
            seen_channels.insert((pi, c.name.value.as_str()), self.packages[pi].channels.len());
            self.packages[pi].channels.push(Channel {
                name: c.name.value.clone(),
                order,
                source: Some(c.source.clone()),
                entries,
                properties: c.properties.clone(),
                deprecation: None,
            });
        }
    }

    /// Phase C: `olm.bundle` blobs.
    fn bundles(&mut self, cfg: &DeclarativeConfig) {
        let mut checked = Self::check_bundles(cfg);
        self.reserve_bundles(cfg);
        let entries_of = self.entry_positions();
        let mut bundle_names: Vec<HashMap<String, usize>> = vec![HashMap::new(); self.packages.len()];
        for (bi_blob, bl) in cfg.bundles.iter().enumerate() {
            let Some(pi) = self.package_of(bl) else { continue };
            let (name, pkg) = (&bl.name.value, &bl.package.value);
            if let Some(&first) = bundle_names[pi].get(name) {
                let first = self.packages[pi].bundles[first].source.blob();
                self.diags.push(
                    Diagnostic::error(
                        Code::DuplicateBundle,
                        format!("package {} has duplicate bundle {}", q(pkg), q(name)),
                        bl.source.at(bl.name.pos, "/name"),
                    )
                    .with_related("first defined here", first),
                );
                continue;
            }
            let Some((mut bundle, diags)) = checked[bi_blob].take() else { continue };
            bundle.order = bi_blob;
            self.diags.extend(diags);
            let bi = self.packages[pi].bundles.len();
            bundle_names[pi].insert(name.clone(), bi);
            let positions = entries_of[pi].get(name.as_str()).map(Vec::as_slice).unwrap_or(&[]);
            for &(ci, ei) in positions {
                self.packages[pi].channels[ci].entries[ei].bundle = Some(bi);
            }
            let listed = !positions.is_empty();
            if !listed {
                let message = format!("package {}, bundle {} not found in any channel entries", q(pkg), q(name));
                let mut d = Diagnostic::error(Code::BundleNotInChannel, message, bl.source.at(bl.name.pos, "/name"));
                let p = &self.packages[pi];
                let default = p.channels.iter().find(|c| c.name == p.default_channel.value);
                if let Some((c, at)) = default.and_then(|c| Some((c, c.source.as_ref()?.blob()))) {
                    d = d.with_related(format!("add it to the entries of {}, the default channel", q(&c.name)), at);
                }
                self.diags.push(d);
            }
            self.packages[pi].bundles.push(bundle);
        }
        for p in &mut self.packages {
            p.index_bundles();
        }
    }

    /// The per-bundle checks, independent of each other: run first (in parallel natively), the
    /// bundles then registered in blob order.
    #[cfg(not(target_arch = "wasm32"))]
    fn check_bundles(cfg: &DeclarativeConfig) -> Vec<Option<(Bundle, Vec<Diagnostic>)>> {
        use rayon::prelude::*;
        let images = ValidImages::of(cfg);
        cfg.bundles.par_iter().enumerate().map(|(i, bl)| Some(Self::bundle(bl, &images, i))).collect()
    }

    /// The per-bundle checks, one after the other in WebAssembly.
    #[cfg(target_arch = "wasm32")]
    fn check_bundles(cfg: &DeclarativeConfig) -> Vec<Option<(Bundle, Vec<Diagnostic>)>> {
        let images = ValidImages::of(cfg);
        cfg.bundles.iter().enumerate().map(|(i, bl)| Some(Self::bundle(bl, &images, i))).collect()
    }

    /// Reserve each package's bundle list for the bundles that name it.
    fn reserve_bundles(&mut self, cfg: &DeclarativeConfig) {
        let mut counts = vec![0usize; self.packages.len()];
        for bl in &cfg.bundles {
            if let Some(&pi) = self.by_name.get(&bl.package.value) {
                counts[pi] += 1;
            }
        }
        for (p, n) in self.packages.iter_mut().zip(counts) {
            p.bundles.reserve_exact(n);
        }
    }

    /// Entry name → (channel, entry) positions, per package.
    fn entry_positions(&self) -> Vec<HashMap<String, Vec<(usize, usize)>>> {
        let mut entries_of: Vec<HashMap<String, Vec<(usize, usize)>>> = Vec::with_capacity(self.packages.len());
        for p in &self.packages {
            let mut m: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
            for (ci, c) in p.channels.iter().enumerate() {
                for (ei, e) in c.entries.iter().enumerate() {
                    m.entry(e.name.value.clone()).or_default().push((ci, ei));
                }
            }
            entries_of.push(m);
        }
        entries_of
    }

    /// The package a bundle blob names, or `None` (reported) when it names none or an unknown one.
    fn package_of(&mut self, bl: &declcfg::Bundle) -> Option<usize> {
        let (name, pkg) = (&bl.name.value, &bl.package.value);
        if pkg.is_empty() {
            self.err(
                Code::BundleNoPackage,
                format!("package name must be set for bundle {}", q(name)),
                bl.source.blob(),
            );
            return None;
        }
        let Some(&pi) = self.by_name.get(pkg) else {
            self.err(
                Code::UnknownPackage,
                format!("unknown package {} for bundle {}", q(pkg), q(name)),
                bl.source.at(bl.package.pos, "/package"),
            );
            return None;
        };
        Some(pi)
    }

    /// The per-bundle checks of Phase C (properties, `olm.package`, images, version, release) of
    /// bundle `at` of the catalog.
    fn bundle(bl: &declcfg::Bundle, images: &ValidImages, at: usize) -> (Bundle, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let properties = bundle_properties(bl, &mut diags);
        let packages: Vec<(usize, &PackageProperty)> = properties
            .iter()
            .filter_map(|(i, p)| match p {
                Property::Package(pp) => Some((*i, pp)),
                _ => None,
            })
            .collect();
        let package_count = bl.properties.iter().filter(|p| p.type_.value == property::TYPE_PACKAGE).count();
        let the_package = package_property(bl, package_count, &packages, &mut diags);
        bundle_images(bl, images, at, &mut diags);
        let (version, release) = match the_package {
            Some((i, pp)) => version_and_release(bl, i, pp, &mut diags),
            None => (None, None),
        };
        let bundle = Bundle {
            order: 0,
            name: bl.name.clone(),
            package: bl.package.value.clone(),
            source: bl.source.clone(),
            image: bl.image.clone(),
            raw_properties: bl.properties.clone(),
            properties,
            version,
            release,
            package_property_count: package_count,
            related_images: bl.related_images.clone(),
            object_count: bl.object_count,
            deprecation: None,
        };
        (bundle, diags)
    }

    /// Phase D.1: channel entries without a bundle. opm only reliably catches those of a
    /// package's last channel; we report every one (see DIFFERENCES.md).
    fn dangling_entries(&mut self) {
        for p in &self.packages {
            let mut names = BTreeSet::new();
            let mut first = None;
            let mut related = Vec::new();
            for c in &p.channels {
                for e in &c.entries {
                    if e.bundle.is_none() {
                        names.insert(e.name.value.as_str());
                        let loc = c.source.as_ref().map(|s| s.at(e.name.pos, format!("/entries/{}/name", e.index)));
                        match (&first, loc) {
                            (None, Some(l)) => first = Some(l),
                            (Some(_), Some(l)) => related.push(l),
                            _ => {}
                        }
                    }
                }
            }
            if names.is_empty() {
                continue;
            }
            let list: Vec<String> = names.iter().map(|s| s.to_string()).collect();
            let mut d = Diagnostic::error(
                Code::EntryWithoutBundle,
                format!(
                    "no olm.bundle blobs found in package {} for olm.channel entries {}",
                    q(&p.name),
                    string_slice_capped(&list, OPM_LIST_CAP)
                ),
                first.unwrap_or_default(),
            );
            for r in related {
                d = d.with_related("also without a bundle", r);
            }
            self.diags.push(d);
        }
    }

    /// Phase D.2: a `defaultChannel` that names no channel becomes an empty channel.
    fn default_channels(&mut self) {
        for p in &mut self.packages {
            let dc = &p.default_channel.value;
            if !dc.is_empty() && !p.channels.iter().any(|c| &c.name == dc) {
                p.channels.push(Channel {
                    name: dc.clone(),
                    order: usize::MAX,
                    source: None,
                    entries: Vec::new(),
                    properties: Vec::new(),
                    deprecation: None,
                });
            }
        }
    }

    /// Phase D.3: `olm.deprecations` blobs.
    fn deprecations(&mut self, cfg: &DeclarativeConfig) {
        let mut seen_packages = HashSet::new();
        for (di, d) in cfg.deprecations.iter().enumerate() {
            let Some(pi) = self.deprecated_package(di, d, &mut seen_packages) else { continue };
            let channels: HashMap<String, usize> =
                self.packages[pi].channels.iter().enumerate().map(|(i, c)| (c.name.clone(), i)).collect();
            let mut refs = HashSet::new();
            for (j, e) in d.entries.iter().enumerate() {
                self.deprecation_entry(pi, &channels, d, j, e, &mut refs);
            }
        }
    }

    /// The package an `olm.deprecations` blob applies to: it must name one that exists, once.
    fn deprecated_package(&mut self, di: usize, d: &declcfg::Deprecation, seen: &mut HashSet<String>) -> Option<usize> {
        let pkg = &d.package.value;
        if pkg.is_empty() {
            let message = format!("package name must be set for deprecation item {di}");
            self.err(Code::DeprecationNoPackage, message, d.source.blob());
            return None;
        }
        let at = d.source.at(d.package.pos, "/package");
        let Some(&pi) = self.by_name.get(pkg) else {
            let message = format!("cannot apply deprecations to an unknown package {}", q(pkg));
            self.err(Code::UnknownPackage, message, at);
            return None;
        };
        if !seen.insert(pkg.clone()) {
            let message = format!("expected a maximum of one deprecation per package: {}", q(pkg));
            self.err(Code::DuplicateDeprecations, message, at);
            return None;
        }
        Some(pi)
    }

    /// One deprecation entry `j`: its reference must be set and new, and name a bundle, a
    /// channel or (with no name) the package; the deprecation is attached to what it names.
    fn deprecation_entry(
        &mut self,
        pi: usize,
        channels: &HashMap<String, usize>,
        d: &declcfg::Deprecation,
        j: usize,
        e: &declcfg::DeprecationEntry,
        refs: &mut HashSet<(String, String)>,
    ) {
        let (pkg, schema, ename) = (&d.package.value, &e.schema.value, &e.name.value);
        let entry_at = d.source.at(e.pos, format!("/entries/{j}"));
        if schema.is_empty() {
            let message = format!("schema must be set for deprecation entry [{j}] for package {}", q(pkg));
            return self.err(Code::DeprecationNoSchema, message, entry_at);
        }
        let reference = format!("declcfg.PackageScopedReference{{Schema:{}, Name:{}}}", q(schema), q(ename));
        if !refs.insert((schema.clone(), ename.clone())) {
            let message = format!("duplicate deprecation entry {reference} for package {}", q(pkg));
            return self.err(Code::DuplicateDeprecationEntry, message, entry_at);
        }
        let note = Deprecation { message: e.message.clone(), source: d.source.clone(), entry: j };
        let name_at = d.source.at(e.name.pos, format!("/entries/{j}/reference/name"));
        let package = &mut self.packages[pi];
        let problem = match schema.as_str() {
            declcfg::SCHEMA_BUNDLE => match package.bundle_position(ename) {
                Some(i) => return package.bundles[i].deprecation = Some(note),
                None => (
                    Code::DeprecatedNotFound,
                    format!("cannot deprecate bundle {} for package {}: bundle not found", q(ename), q(pkg)),
                    name_at,
                ),
            },
            declcfg::SCHEMA_CHANNEL => match channels.get(ename.as_str()) {
                Some(&i) => return package.channels[i].deprecation = Some(note),
                None => (
                    Code::DeprecatedNotFound,
                    format!("cannot deprecate channel {} for package {}: channel not found", q(ename), q(pkg)),
                    name_at,
                ),
            },
            declcfg::SCHEMA_PACKAGE if ename.is_empty() => return package.deprecation = Some(note),
            declcfg::SCHEMA_PACKAGE => (
                Code::DeprecatedPackageNamed,
                format!("package name must be empty for deprecated package {} (specified {})", q(pkg), q(ename)),
                name_at,
            ),
            _ => (
                Code::DeprecationUnknownSchema,
                format!(
                    "cannot deprecate object {reference} referenced by entry {j} for package {}: object schema unknown",
                    q(pkg)
                ),
                d.source.at(e.schema.pos, format!("/entries/{j}/reference/schema")),
            ),
        };
        self.err(problem.0, problem.1, problem.2);
    }
}

/// Every property of a bundle parsed; one that does not decode is reported (opm's
/// `parse properties for bundle ...` error) and kept as [`Property::Invalid`].
fn bundle_properties(bl: &declcfg::Bundle, diags: &mut Vec<Diagnostic>) -> Vec<(usize, Property)> {
    let props = property::parse_bundle(bl);
    for (i, p) in &props {
        let Property::Invalid { type_, error } = p else { continue };
        let raw = &bl.properties[*i];
        let (pos, pointer) = match &raw.value {
            Some(v) => (v.pos, format!("/properties/{i}/value")),
            None => (raw.pos, format!("/properties/{i}")),
        };
        diags.push(Diagnostic::error(
            Code::InvalidProperty,
            format!(
                "parse properties for bundle {}: parse property[{i}] of type {}: {error}",
                q(&bl.name.value),
                q(type_)
            ),
            bl.source.at(pos, pointer),
        ));
    }
    props
}

/// The bundle's one `olm.package` property: exactly one must be written (counting those that did
/// not parse), and it must name the bundle's package.
fn package_property<'p>(
    bl: &declcfg::Bundle,
    count: usize,
    parsed: &[(usize, &'p PackageProperty)],
    diags: &mut Vec<Diagnostic>,
) -> Option<(usize, &'p PackageProperty)> {
    let (name, pkg) = (&bl.name.value, &bl.package.value);
    if count != 1 {
        diags.push(Diagnostic::error(
            Code::PackagePropertyCount,
            format!(
                "package {} bundle {} must have exactly 1 {} property, found {count}",
                q(pkg),
                q(name),
                q(property::TYPE_PACKAGE)
            ),
            bl.source.at(bl.source.pos, "/properties"),
        ));
        return None;
    }
    let &(i, pp) = parsed.first()?;
    if &pp.package_name != pkg {
        diags.push(Diagnostic::error(
            Code::PackagePropertyMismatch,
            format!("package {} does not match {} property {}", q(pkg), q(property::TYPE_PACKAGE), q(&pp.package_name)),
            prop_field(bl, i, "packageName"),
        ));
    }
    Some((i, pp))
}

/// The bundle image and every related image must be valid pull specs when set.
fn bundle_images(bl: &declcfg::Bundle, valid: &ValidImages, at: usize, diags: &mut Vec<Diagnostic>) {
    let (name, pkg) = (&bl.name.value, &bl.package.value);
    let images = std::iter::once((None, &bl.image))
        .chain(bl.related_images.iter().enumerate().map(|(i, ri)| (Some(i), &ri.image)));
    for (i, image) in images {
        if image.value.is_empty() {
            continue;
        }
        let Err(e) = valid.check(at, i.map_or(0, |i| i + 1), &image.value) else { continue };
        let (field, pointer) = match i {
            None => ("image".to_string(), "/image".to_string()),
            Some(i) => (format!("relatedImages[{i}].image"), format!("/relatedImages/{i}/image")),
        };
        diags.push(Diagnostic::error(
            Code::InvalidImage,
            format!("package {} bundle {} {field}: invalid image pull spec {}: {e}", q(pkg), q(name), q(&image.value)),
            bl.source.at(image.pos, pointer),
        ));
    }
}

/// The version and release of the bundle's `olm.package` property (property `i`), each
/// reported where it does not parse.
fn version_and_release(
    bl: &declcfg::Bundle,
    i: usize,
    pp: &PackageProperty,
    diags: &mut Vec<Diagnostic>,
) -> (Option<Version>, Option<Release>) {
    let name = &bl.name.value;
    let version = match &pp.parsed_version {
        Ok(v) => Some(v.clone()),
        Err(e) => {
            diags.push(Diagnostic::error(
                Code::InvalidVersion,
                format!("error parsing bundle {} version {}: {e}", q(name), q(&pp.version)),
                prop_field(bl, i, "version"),
            ));
            None
        }
    };
    let release = match &pp.parsed_release {
        Ok(r) => r.clone(),
        Err(e) => {
            diags.push(Diagnostic::error(
                Code::InvalidRelease,
                format!("error parsing bundle {} release version {}: {e}", q(name), q(&pp.release)),
                prop_field(bl, i, "release"),
            ));
            None
        }
    };
    (version, release)
}

/// The location of a field inside the value of a bundle's property `i`.
fn prop_field(bl: &declcfg::Bundle, i: usize, field: &str) -> crate::diagnostic::Location {
    let pos = bl
        .properties
        .get(i)
        .map(|p| p.value.as_ref().map(|v| v.field(field).map(|m| m.value.pos).unwrap_or(v.pos)).unwrap_or(p.pos))
        .unwrap_or(bl.source.pos);
    bl.source.at(pos, format!("/properties/{i}/value/{field}"))
}

#[cfg(test)]
mod tests {
    //! The model's rules, one small catalog each: what opm's conversion accepts, what it reports,
    //! and what the model keeps parsed for the analyses.

    use super::*;
    use crate::declcfg::{load_files, FileInput};

    /// Build the model of one YAML file; the diagnostics as `code: message`.
    fn build_yaml(yaml: &str) -> (Model, Vec<String>) {
        let loaded = load_files(&[FileInput::new("catalog.yaml", yaml)]);
        assert!(loaded.diagnostics.is_empty(), "load: {:?}", loaded.diagnostics);
        let (model, diags) = build(&loaded.config);
        (model, diags.iter().map(|d| format!("{}: {}", d.code.as_str(), d.message)).collect())
    }

    const FOO: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\n";

    fn bundle(name: &str, version: &str) -> String {
        format!(
            "---\nschema: olm.bundle\npackage: foo\nname: {name}\nimage: example.com/foo:{version}\n\
             properties:\n- type: olm.package\n  value: {{packageName: foo, version: {version:?}}}\n"
        )
    }

    #[test]
    fn a_valid_catalog_is_built_without_findings_and_sorted_by_name() {
        let yaml = format!(
            "{FOO}---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v2\n  replaces: foo.v1\n- name: foo.v1\n\
             ---\nschema: olm.channel\npackage: foo\nname: beta\nentries:\n- name: foo.v2\n{}{}",
            bundle("foo.v2", "2.0.0"),
            bundle("foo.v1", "1.0.0")
        );
        let (model, diags) = build_yaml(&yaml);
        assert_eq!(diags, Vec::<String>::new());
        let p = model.package("foo").unwrap();
        // Channels are sorted by name; `order` remembers the order they were read in.
        let names: Vec<(&str, usize)> = p.channels.iter().map(|c| (c.name.as_str(), c.order)).collect();
        assert_eq!(names, [("beta", 1), ("stable", 0)]);
        // Entries point at the bundle of their name; versions are parsed once, here.
        let e = &p.channel("stable").unwrap().entries[0];
        let b = &p.bundles[e.bundle.unwrap()];
        assert_eq!((b.name.value.as_str(), b.version.as_ref().unwrap().to_string()), ("foo.v2", "2.0.0".into()));
    }

    #[test]
    fn skip_ranges_are_parsed_once_and_keep_their_error() {
        let yaml = format!(
            "{FOO}---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n\
             - name: foo.v2\n  skipRange: '>=1.0.0 <2.0.0'\n- name: foo.v1\n  skipRange: '>v1'\n{}{}",
            bundle("foo.v2", "2.0.0"),
            bundle("foo.v1", "1.0.0")
        );
        let (model, _) = build_yaml(&yaml);
        let c = model.package("foo").unwrap().channel("stable").unwrap();
        assert!(c.entries[0].range().is_some_and(|r| r.as_str() == ">=1.0.0 <2.0.0"));
        let bad = c.entries[1].skip_range.as_ref().unwrap();
        assert_eq!(
            bad.range.as_ref().unwrap_err().to_string(),
            "Could not parse Range \">v1\": Could not parse comparator \">v\" in \">v1\""
        );
        assert!(c.entries[1].range().is_none(), "an invalid range is no range to the analyses");
    }

    #[test]
    fn a_bundle_needs_exactly_one_package_property_with_a_valid_version() {
        let yaml = format!(
            "{FOO}---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n{}",
            bundle("foo.v1", "1.0")
        );
        let (model, diags) = build_yaml(&yaml);
        assert_eq!(
            diags,
            ["invalid-version: error parsing bundle \"foo.v1\" version \"1.0\": No Major.Minor.Patch elements found"]
        );
        assert!(model.package("foo").unwrap().bundles[0].version.is_none());
    }

    #[test]
    fn a_property_that_does_not_decode_is_reported_and_kept_as_invalid() {
        let yaml = format!(
            "{FOO}---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n{}\
             - type: olm.gvk\n  value: {{group: 1}}\n",
            bundle("foo.v1", "1.0.0")
        );
        let (model, diags) = build_yaml(&yaml);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert!(diags[0].starts_with("invalid-property: parse properties for bundle \"foo.v1\": parse property[1]"));
        let b = &model.package("foo").unwrap().bundles[0];
        assert!(matches!(&b.properties[1], (1, Property::Invalid { type_, .. }) if type_ == "olm.gvk"));
    }

    #[test]
    fn every_dangling_entry_is_reported_once_per_package() {
        let yaml = format!(
            "{FOO}---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v2\n  replaces: foo.v1\n- name: foo.v1\n\
             ---\nschema: olm.channel\npackage: foo\nname: beta\nentries:\n- name: foo.v3\n{}",
            bundle("foo.v1", "1.0.0")
        );
        let (_, diags) = build_yaml(&yaml);
        assert_eq!(
            diags,
            ["entry-without-bundle: no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v2 foo.v3]"]
        );
    }

    #[test]
    fn a_default_channel_that_names_no_channel_becomes_an_empty_one() {
        let (model, diags) = build_yaml(FOO);
        assert_eq!(diags, Vec::<String>::new());
        let p = model.package("foo").unwrap();
        let c = p.default_channel().unwrap();
        assert!(c.source.is_none() && c.entries.is_empty() && c.order == usize::MAX);
    }

    #[test]
    fn duplicates_are_reported_and_the_first_kept() {
        let yaml = format!("{FOO}---\n{FOO}---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n- name: foo.v1\n{}{}",
            bundle("foo.v1", "1.0.0"), bundle("foo.v1", "1.0.0"));
        let (model, diags) = build_yaml(&yaml);
        assert_eq!(
            diags,
            [
                "duplicate-package: duplicate package \"foo\"",
                "duplicate-entry: invalid package \"foo\", channel \"stable\": duplicate entry \"foo.v1\"",
                "duplicate-bundle: package \"foo\" has duplicate bundle \"foo.v1\"",
            ]
        );
        assert_eq!(model.package("foo").unwrap().bundles.len(), 1);
    }

    #[test]
    fn bundles_channels_and_deprecations_are_found_by_name_in_large_packages() {
        let n = 300;
        let mut yaml = FOO.to_string();
        for c in 0..n {
            yaml += &format!("---\nschema: olm.channel\npackage: foo\nname: c{c}\nentries:\n- name: foo.v{c}\n");
        }
        // A duplicate channel, found however many came before it.
        yaml += "---\nschema: olm.channel\npackage: foo\nname: c7\nentries:\n- name: foo.v7\n";
        for b in (0..n).rev() {
            yaml += &bundle(&format!("foo.v{b}"), &format!("1.0.{b}"));
        }
        yaml += "---\nschema: olm.package\nname: foo2\n";
        yaml += "---\nschema: olm.deprecations\npackage: foo\nentries:\n";
        yaml += "- reference: {schema: olm.bundle, name: foo.v123}\n  message: old\n";
        yaml += "- reference: {schema: olm.channel, name: c250}\n  message: gone\n";
        yaml += "- reference: {schema: olm.bundle, name: foo.v9999}\n  message: none\n";
        let (model, diags) = build_yaml(&yaml);
        assert_eq!(diags.len(), 2, "{diags:#?}");
        assert!(diags[0].starts_with("duplicate-channel: package \"foo\" has duplicate channel \"c7\""), "{diags:#?}");
        assert!(diags[1].contains("cannot deprecate bundle \"foo.v9999\""), "{diags:#?}");
        let foo = model.package("foo").unwrap();
        for b in 0..n {
            let name = format!("foo.v{b}");
            assert_eq!(foo.bundle(&name).map(|x| x.name.value.as_str()), Some(name.as_str()));
        }
        assert!(foo.bundle("foo.v9999").is_none() && foo.bundle("").is_none());
        assert!(foo.bundle("foo.v123").unwrap().deprecation.is_some());
        assert!(foo.channel("c250").unwrap().deprecation.is_some());
        assert!(foo.channel("c251").unwrap().deprecation.is_none());
    }
}
