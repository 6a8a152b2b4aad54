//! Mermaid output byte-identical to `opm alpha render-graph` (fbc.md §4.4): channels sorted by
//! name, entries by decreasing version (both with Go's unstable `sort.Slice`, [`crate::gosort`],
//! so equal keys end where opm leaves them), `replace`/`skip`/`skipRange(...)` edges from the older
//! bundle to the newer one, deprecation styling, and — with v0 semantics — the `skipped` class and
//! red links for edges OLM v0 never takes. Reads the model; like opm's writer it matches versions
//! and deprecations by name across the whole catalog, and refuses, with opm's words, a catalog
//! whose bundle versions it cannot read ([`MermaidError`]). opm draws one line per skipRange edge,
//! so a channel whose every entry covers all earlier versions has n²/2 lines: the edges are
//! counted first (each skipRange resolved against the channel's version order, without testing
//! every pair) and a graph of more than a budget of edges is refused ([`MermaidError::TooLarge`]).

use crate::hash::{HashMap, HashMapExt};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::channel_graph::EXPANSION_BUDGET;
use crate::gotext::{quote as q, thousands};
use crate::model::{Bundle, Channel, Entry, Model, Package, SkipRange};
use crate::property::{PackageProperty, Property, TYPE_PACKAGE};
use crate::version::Version;

/// Options of `render-graph`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MermaidOptions {
    /// Only draw edges at or above this bundle's version, within its package (`--minimum-edge`).
    pub minimum_edge: Option<String>,
    /// Only this package (`--package-name`).
    pub package: Option<String>,
    /// Only this channel of `package` (not an opm flag: our CLI's `--channel`); with no
    /// `package` it is ignored.
    pub channel: Option<String>,
    /// Mark what OLM v0 skips (`--draw-v0-semantics`; opm's CLI default is off).
    pub v0_semantics: bool,
}

/// Why `opm alpha render-graph` refuses to draw; `Display` gives opm's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MermaidError {
    /// A bundle's property does not decode (`parse properties for bundle ...`).
    InvalidProperty {
        /// The bundle.
        bundle: String,
        /// The property's index.
        index: usize,
        /// The property's type.
        type_: String,
        /// Go's decoding error.
        error: String,
    },
    /// A bundle has not exactly one `olm.package` property.
    PackagePropertyCount {
        /// The bundle.
        bundle: String,
    },
    /// A bundle's version does not parse.
    InvalidVersion {
        /// The bundle.
        bundle: String,
        /// The version text.
        version: String,
        /// blang's error.
        error: String,
    },
    /// `--minimum-edge` names no bundle.
    UnknownMinimumEdge(String),
    /// The graph has more edge lines than the budget (not an opm error: opm draws them all).
    TooLarge {
        /// How many edge lines the graph has.
        edges: usize,
        /// The budget.
        budget: usize,
    },
}

impl std::fmt::Display for MermaidError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MermaidError::InvalidProperty { bundle, index, type_, error } => {
                write!(
                    f,
                    "parse properties for bundle {}: parse property[{index}] of type {}: {error}",
                    q(bundle),
                    q(type_)
                )
            }
            MermaidError::PackagePropertyCount { bundle } => {
                write!(f, "bundle {} has multiple {} properties, expected exactly 1", q(bundle), q(TYPE_PACKAGE))
            }
            MermaidError::InvalidVersion { bundle, version, error } => {
                write!(f, "bundle {} has invalid version {}: {error}", q(bundle), q(version))
            }
            MermaidError::UnknownMinimumEdge(name) => write!(f, "unknown minimum edge name: {}", q(name)),
            MermaidError::TooLarge { edges, budget } => write!(
                f,
                "the Mermaid graph would have {} edges, more than the budget of {}: draw one package or channel, or a --minimum-edge",
                thousands(*edges),
                thousands(*budget)
            ),
        }
    }
}

impl std::error::Error for MermaidError {}

/// opm's writer first maps every bundle name to its version (the first bundle of each name, in
/// the order the catalog was read), and refuses the catalog at the first bundle whose properties
/// do not decode, that has not exactly one `olm.package` property, or whose version is invalid.
fn check_versions(bundles: &[&Bundle]) -> Result<(), MermaidError> {
    let mut seen = crate::hash::HashSet::default();
    for b in bundles.iter().filter(|b| seen.insert(b.name.value.as_str())) {
        let bundle = b.name.value.clone();
        let invalid = b.properties.iter().find_map(|(i, p)| match p {
            Property::Invalid { type_, error } => Some((*i, type_, error)),
            _ => None,
        });
        if let Some((index, type_, error)) = invalid {
            return Err(MermaidError::InvalidProperty { bundle, index, type_: type_.clone(), error: error.clone() });
        }
        let packages: Vec<&PackageProperty> = b
            .properties
            .iter()
            .filter_map(|(_, p)| match p {
                Property::Package(pp) => Some(pp),
                _ => None,
            })
            .collect();
        let [pp] = packages.as_slice() else { return Err(MermaidError::PackagePropertyCount { bundle }) };
        if let Err(e) = &pp.parsed_version {
            return Err(MermaidError::InvalidVersion { bundle, version: pp.version.clone(), error: e.to_string() });
        }
    }
    Ok(())
}

/// Render the model as opm's Mermaid graph, or opm's refusal.
///
/// ```
/// use olm_catalog::{build_model, load_files, to_mermaid, FileInput, MermaidOptions};
///
/// let yaml = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
///     schema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n---\n\
///     schema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
///     - {type: olm.package, value: {packageName: foo, version: 1.0.0.1}}\n";
/// let (model, _) = build_model(&load_files(&[FileInput::new("catalog.yaml", yaml)]).config);
/// // Like opm, the writer refuses a catalog whose bundle versions it cannot read.
/// let refusal = to_mermaid(&model, &MermaidOptions::default()).unwrap_err();
/// assert!(refusal.to_string().starts_with("bundle \"foo.v1\" has invalid version \"1.0.0.1\""));
/// ```
pub fn to_mermaid(model: &Model, opts: &MermaidOptions) -> Result<String, MermaidError> {
    to_mermaid_within(model, opts, EXPANSION_BUDGET)
}

/// [`to_mermaid`] with the budget of edge lines (refused beyond it) given.
pub fn to_mermaid_within(model: &Model, opts: &MermaidOptions, budget: usize) -> Result<String, MermaidError> {
    let bundles = model.bundles_in_read_order();
    check_versions(&bundles)?;
    let names = Names::new(model, &bundles);
    let mut channels = visible_channels(model, opts);
    let min_edge = match opts.minimum_edge.as_deref().filter(|n| !n.is_empty()) {
        None => None,
        Some(name) => Some(MinimumEdge::new(name, &names, &channels)?),
    };
    // opm's `sort.Slice` by name: channels of the same name (in different packages) end where
    // Go's unstable sort leaves them, which numbers the links.
    crate::gosort::sort_slice(&mut channels, |a, b| a.1.name < b.1.name);
    let mut drawn = Vec::new();
    for (p, c) in channels {
        if opts.package.as_deref().is_some_and(|f| !f.is_empty() && f != p.name) {
            continue;
        }
        if min_edge.as_ref().is_some_and(|m| m.package != p.name) {
            continue;
        }
        let all: Vec<Drawn<'_>> = c.entries.iter().map(Drawn::of).collect();
        let entries = match &min_edge {
            None => all,
            Some(m) => m.filter(&all, &names),
        };
        if !entries.is_empty() {
            let ranges = Covered::new(&entries, &names);
            drawn.push((p, c, entries, ranges));
        }
    }
    let edges: usize = drawn.iter().map(|(_, _, entries, ranges)| ranges.edges(entries)).sum();
    if edges > budget {
        return Err(MermaidError::TooLarge { edges, budget });
    }
    let mut w = Writer { v0: opts.v0_semantics, ..Writer::default() };
    for (p, c, entries, ranges) in &drawn {
        w.channel(&p.name, c, entries, ranges, &names);
    }
    Ok(w.finish())
}

/// Every channel with the package it belongs to, in catalog order, without those `opts.channel`
/// leaves out.
fn visible_channels<'a>(model: &'a Model, opts: &MermaidOptions) -> Vec<(&'a Package, &'a Channel)> {
    let hidden = |p: &Package, c: &Channel| match (&opts.package, &opts.channel) {
        (Some(pkg), Some(ch)) => &p.name == pkg && &c.name != ch,
        _ => false,
    };
    let mut channels = model.channels_in_read_order();
    channels.retain(|(p, c)| !hidden(p, c));
    channels
}

/// What opm's writer reads from the whole catalog by name alone: bundle versions (the first bundle
/// of each name in catalog order) and deprecated package, channel and bundle names.
struct Names<'a> {
    versions: HashMap<&'a str, Option<&'a Version>>,
    zero: Version,
    deprecated_packages: BTreeSet<&'a str>,
    deprecated_channels: BTreeSet<&'a str>,
    deprecated_bundles: BTreeSet<&'a str>,
}

impl<'a> Names<'a> {
    /// `bundles`: the model's bundles in read order.
    fn new(model: &'a Model, bundles: &[&'a Bundle]) -> Names<'a> {
        let mut versions = HashMap::new();
        for b in bundles {
            versions.entry(b.name.value.as_str()).or_insert(b.version.as_ref());
        }
        let packages = &model.packages;
        Names {
            versions,
            zero: Version::new(0, 0, 0),
            deprecated_packages: packages.iter().filter(|p| p.deprecation.is_some()).map(|p| p.name.as_str()).collect(),
            deprecated_channels: packages
                .iter()
                .flat_map(|p| &p.channels)
                .filter(|c| c.deprecation.is_some())
                .map(|c| c.name.as_str())
                .collect(),
            deprecated_bundles: bundles
                .iter()
                .filter(|b| b.deprecation.is_some())
                .map(|b| b.name.value.as_str())
                .collect(),
        }
    }

    /// The version opm's writer uses for a name: its bundle's, or 0.0.0.
    fn version(&self, name: &str) -> &Version {
        self.versions.get(name).copied().flatten().unwrap_or(&self.zero)
    }
}

/// An entry as drawn: its edges, after the minimum-edge filter.
#[derive(Debug, Clone)]
struct Drawn<'a> {
    name: &'a str,
    /// Empty when absent.
    replaces: &'a str,
    skips: Vec<&'a str>,
    skip_range: Option<&'a SkipRange>,
}

impl<'a> Drawn<'a> {
    fn of(e: &'a Entry) -> Drawn<'a> {
        Drawn {
            name: &e.name.value,
            replaces: &e.replaces.value,
            skips: e.skips.iter().map(|s| s.value.as_str()).collect(),
            skip_range: e.skip_range.as_ref(),
        }
    }

    fn has_edges(&self) -> bool {
        !self.replaces.is_empty() || !self.skips.is_empty() || self.skip_range.is_some()
    }
}

/// `--minimum-edge`: the bundle, its version (the floor) and the package whose channel lists it.
struct MinimumEdge<'a> {
    name: &'a str,
    floor: Version,
    package: &'a str,
}

impl<'a> MinimumEdge<'a> {
    /// The bundle must exist; its package is that of the first channel (in catalog order) listing
    /// it, or none.
    fn new(
        name: &'a str,
        names: &Names<'_>,
        channels: &[(&'a Package, &Channel)],
    ) -> Result<MinimumEdge<'a>, MermaidError> {
        if !names.versions.contains_key(name) {
            return Err(MermaidError::UnknownMinimumEdge(name.to_string()));
        }
        let package = channels
            .iter()
            .find(|(_, c)| c.entries.iter().any(|e| e.name.value == name))
            .map_or("", |(p, _)| p.name.as_str());
        Ok(MinimumEdge { name, floor: names.version(name).clone(), package })
    }

    /// opm's `filterChannel`: the minimum edge itself loses its edges; other entries keep the
    /// `replaces` and `skips` whose version is at or above the floor, and a valid skipRange that
    /// contains the floor. An entry stays if an edge survived, or if it never had one and its own
    /// version is at or above the floor.
    fn filter<'e>(&self, entries: &[Drawn<'e>], names: &Names<'_>) -> Vec<Drawn<'e>> {
        let mut out = Vec::new();
        for e in entries {
            let mut kept = e.clone();
            if e.name == self.name {
                kept.replaces = "";
                kept.skips.clear();
                kept.skip_range = None;
                out.push(kept);
                continue;
            }
            if !kept.replaces.is_empty() && *names.version(kept.replaces) < self.floor {
                kept.replaces = "";
            }
            kept.skips.retain(|s| *names.version(s) >= self.floor);
            kept.skip_range = kept.skip_range.filter(|s| s.range.as_ref().is_ok_and(|r| r.contains(&self.floor)));
            if kept.has_edges() || (!e.has_edges() && *names.version(e.name) >= self.floor) {
                out.push(kept);
            }
        }
        out
    }
}

/// Which drawn entries of a channel each drawn entry's skipRange covers (by the version opm's
/// writer gives each name), as runs of the drawn entries sorted by that version.
struct Covered {
    /// Indexes into the drawn entries, ascending by version.
    sorted: Vec<usize>,
    /// Per drawn entry, the runs of `sorted` its valid skipRange covers.
    runs: Vec<Vec<std::ops::Range<usize>>>,
}

impl Covered {
    fn new(entries: &[Drawn<'_>], names: &Names<'_>) -> Covered {
        let mut sorted: Vec<usize> = (0..entries.len()).collect();
        crate::sort::sort_by(&mut sorted, |&a, &b| {
            names.version(entries[a].name).cmp(names.version(entries[b].name)).then(a.cmp(&b))
        });
        let versions: Vec<&Version> = sorted.iter().map(|&i| names.version(entries[i].name)).collect();
        let runs = entries
            .iter()
            .map(|e| match e.skip_range {
                Some(SkipRange { range: Ok(range), .. }) => range.runs_in(&versions, |v: &&Version| *v),
                _ => Vec::new(),
            })
            .collect();
        Covered { sorted, runs }
    }

    /// The drawn entries entry `i`'s skipRange covers (itself included, as opm draws it), in
    /// drawn order.
    fn of(&self, i: usize) -> Vec<usize> {
        let mut out: Vec<usize> = self.runs[i].iter().flat_map(|r| self.sorted[r.clone()].iter().copied()).collect();
        crate::sort::sort(&mut out);
        out
    }

    /// How many edge lines the channel draws.
    fn edges(&self, entries: &[Drawn<'_>]) -> usize {
        let ranged: usize = self.runs.iter().flatten().map(|r| r.len()).sum();
        ranged + entries.iter().map(|e| e.skips.len() + usize::from(!e.replaces.is_empty())).sum::<usize>()
    }
}

/// The output being written: one buffer per package, link ids counted across all channels in
/// drawing order, and the styling collected on the way.
#[derive(Default)]
struct Writer {
    v0: bool,
    buffers: BTreeMap<String, String>,
    link_id: usize,
    skipped_links: Vec<usize>,
    classes: BTreeMap<&'static str, BTreeSet<String>>,
    deprecated_package: Option<String>,
    deprecated_channel_ids: Vec<String>,
}

impl Writer {
    /// One channel's subgraph, entries by decreasing version.
    fn channel(&mut self, pkg: &str, c: &Channel, entries: &[Drawn<'_>], ranges: &Covered, names: &Names<'_>) {
        if names.deprecated_packages.contains(pkg) {
            self.deprecated_package = Some(pkg.to_string());
        }
        let channel_id = format!("{pkg}-{}", c.name);
        if names.deprecated_channels.contains(c.name.as_str()) {
            self.deprecated_channel_ids.push(channel_id.clone());
        }
        let mut buf = self.buffers.remove(pkg).unwrap_or_default();
        let _ = writeln!(buf, "    %% channel {}", q(&c.name));
        let _ = writeln!(buf, "    subgraph {channel_id}[{}]", q(&c.name));
        // opm's `sort.Slice` by decreasing version (entries of equal versions where Go leaves them).
        let mut sorted: Vec<usize> = (0..entries.len()).collect();
        crate::gosort::sort_slice(&mut sorted, |&a, &b| {
            names.version(entries[a].name) > names.version(entries[b].name)
        });
        let mut skipped: BTreeSet<&str> = BTreeSet::new();
        for i in sorted {
            let covered: Vec<&str> = ranges.of(i).into_iter().map(|x| entries[x].name).collect();
            self.entry(&mut buf, &channel_id, &entries[i], &covered, names, &mut skipped);
        }
        let _ = writeln!(buf, "    end");
        self.buffers.insert(pkg.to_string(), buf);
    }

    /// An entry's node line and the edges into it: skips, then the entries of the (filtered)
    /// channel its skipRange covers (`covered`, in channel order), then replaces. An invalid
    /// skipRange draws nothing (opm warns on stderr). `skipped` is what the channel's skips named
    /// so far.
    fn entry<'e>(
        &mut self,
        buf: &mut String,
        channel_id: &str,
        e: &Drawn<'e>,
        covered: &[&str],
        names: &Names<'_>,
        skipped: &mut BTreeSet<&'e str>,
    ) {
        let node = |name: &str| format!("{channel_id}-{name}[{}]", q(name));
        let id = format!("{channel_id}-{}", e.name);
        let _ = writeln!(buf, "      {id}[{}]", q(e.name));
        let in_skipped = self.v0 && skipped.contains(e.name);
        let class = match (names.deprecated_bundles.contains(e.name), in_skipped) {
            (true, true) => Some("deprecatedskipped"),
            (true, false) => Some("deprecated"),
            (false, true) => Some("skipped"),
            (false, false) => None,
        };
        if let Some(class) = class {
            self.classes.entry(class).or_default().insert(id);
        }
        let target = node(e.name);
        for &s in &e.skips {
            let _ = writeln!(buf, "      {}-- skip --> {target}", node(s));
            let again = !skipped.insert(s);
            self.link(again);
        }
        if let Some(SkipRange { text, range: Ok(_) }) = e.skip_range {
            let label = q(&format!("skipRange({})", text.value));
            for x in covered {
                let _ = writeln!(buf, "      {}-- {label} --> {target}", node(x));
                self.link(skipped.contains(e.name));
            }
        }
        if !e.replaces.is_empty() {
            let _ = writeln!(buf, "      {}-- replace --> {target}", node(e.replaces));
            self.link(skipped.contains(e.name));
        }
    }

    /// Count an edge line; with v0 semantics, style it when `skipped_by_v0`.
    fn link(&mut self, skipped_by_v0: bool) {
        if self.v0 && skipped_by_v0 {
            self.skipped_links.push(self.link_id);
        }
        self.link_id += 1;
    }

    /// The header, each package's subgraph in name order, then the styles.
    fn finish(self) -> String {
        let mut out = String::from(
            "graph LR\n  classDef deprecated fill:#E8960F\n  classDef skipped stroke:#FF0000,stroke-width:4px\n  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n",
        );
        for (pkg, buf) in &self.buffers {
            let _ = writeln!(out, "  %% package {}", q(pkg));
            let _ = writeln!(out, "  subgraph {}", q(pkg));
            out.push_str(buf);
            out.push_str("  end\n");
        }
        if let Some(p) = self.deprecated_package {
            let _ = writeln!(out, "style {p} fill:#989695");
        }
        for id in self.deprecated_channel_ids {
            let _ = writeln!(out, "style {id} fill:#DCD0FF");
        }
        for (class, ids) in &self.classes {
            let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
            let _ = writeln!(out, "class {} {class}", ids.join(","));
        }
        if !self.skipped_links.is_empty() {
            let ids: Vec<String> = self.skipped_links.iter().map(usize::to_string).collect();
            let _ = writeln!(out, "linkStyle {} stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;", ids.join(","));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::TestCatalog;

    fn two_channels() -> TestCatalog {
        TestCatalog::new()
            .channel("stable", "[{name: foo.v1.0.0}, {name: foo.v1.1.0, replaces: foo.v1.0.0}]")
            .channel("fast", "[{name: foo.v1.1.0}, {name: foo.v1.2.0, skips: [foo.v1.1.0]}]")
    }

    #[test]
    fn channels_by_name_entries_by_decreasing_version_edges_from_old_to_new() {
        let m = two_channels().build();
        let out = to_mermaid(&m, &MermaidOptions { v0_semantics: true, ..Default::default() }).expect("renders");
        let body: Vec<&str> = out.lines().skip(4).collect();
        assert_eq!(
            body,
            [
                "  %% package \"foo\"",
                "  subgraph \"foo\"",
                "    %% channel \"fast\"",
                "    subgraph foo-fast[\"fast\"]",
                "      foo-fast-foo.v1.2.0[\"foo.v1.2.0\"]",
                "      foo-fast-foo.v1.1.0[\"foo.v1.1.0\"]-- skip --> foo-fast-foo.v1.2.0[\"foo.v1.2.0\"]",
                "      foo-fast-foo.v1.1.0[\"foo.v1.1.0\"]",
                "    end",
                "    %% channel \"stable\"",
                "    subgraph foo-stable[\"stable\"]",
                "      foo-stable-foo.v1.1.0[\"foo.v1.1.0\"]",
                "      foo-stable-foo.v1.0.0[\"foo.v1.0.0\"]-- replace --> foo-stable-foo.v1.1.0[\"foo.v1.1.0\"]",
                "      foo-stable-foo.v1.0.0[\"foo.v1.0.0\"]",
                "    end",
                "  end",
                "class foo-fast-foo.v1.1.0 skipped",
            ]
        );
    }

    #[test]
    fn the_channel_option_keeps_one_channel_of_the_package() {
        let m = two_channels().build();
        let opts = MermaidOptions { package: Some("foo".into()), channel: Some("stable".into()), ..Default::default() };
        let out = to_mermaid(&m, &opts).expect("renders");
        assert!(out.contains("subgraph foo-stable") && !out.contains("subgraph foo-fast"), "{out}");
        // Without a package it is ignored.
        let opts = MermaidOptions { channel: Some("stable".into()), ..Default::default() };
        assert!(to_mermaid(&m, &opts).expect("renders").contains("subgraph foo-fast"));
    }

    #[test]
    fn a_graph_beyond_the_edge_budget_is_refused() {
        // 1.2.0 covers both earlier versions and 1.1.0 covers 1.0.0: 3 skipRange lines, 1 replace.
        let m = TestCatalog::new()
            .channel(
                "stable",
                "[{name: foo.v1.0.0}, {name: foo.v1.1.0, skipRange: '<1.1.0'}, {name: foo.v1.2.0, replaces: foo.v1.1.0, skipRange: '<1.2.0'}]",
            )
            .build();
        let opts = MermaidOptions::default();
        let out = to_mermaid_within(&m, &opts, 4).expect("within budget");
        assert_eq!(out.matches("-- \"skipRange(").count(), 3);
        assert_eq!(out, to_mermaid(&m, &opts).expect("renders"));
        assert_eq!(to_mermaid_within(&m, &opts, 3).unwrap_err(), MermaidError::TooLarge { edges: 4, budget: 3 });
        assert_eq!(
            MermaidError::TooLarge { edges: 200_009_999, budget: 1_000_000 }.to_string(),
            "the Mermaid graph would have 200,009,999 edges, more than the budget of 1,000,000: draw one package or channel, or a --minimum-edge"
        );
    }

    #[test]
    fn an_unknown_minimum_edge_is_opms_error() {
        let m = two_channels().build();
        let opts = MermaidOptions { minimum_edge: Some("foo.v9".into()), ..Default::default() };
        assert_eq!(to_mermaid(&m, &opts).unwrap_err().to_string(), "unknown minimum edge name: \"foo.v9\"");
    }

    #[test]
    fn a_bundle_without_a_valid_version_is_refused() {
        let yaml = two_channels().version("foo.v1.1.0", "1.1.0.1").yaml();
        let loaded = crate::declcfg::load_files(&[crate::declcfg::FileInput::new("catalog.yaml", yaml)]);
        let (model, _) = crate::model::build(&loaded.config);
        assert_eq!(
            to_mermaid(&model, &MermaidOptions::default()).unwrap_err().to_string(),
            "bundle \"foo.v1.1.0\" has invalid version \"1.1.0.1\": Invalid character(s) found in patch number \"0.1\""
        );
    }

    /// Fifteen packages, each with a `stable` channel of 2 to 5 entries whose head skips the
    /// bundle it replaces, and an `alpha`, `fast` or `zeta` one holding the same. opm sorts all
    /// channels by name with `sort.Slice`, so the channels of one name in different packages
    /// come in Go's own order, which numbers the links.
    fn same_named_channels() -> String {
        let mut out = String::new();
        for k in 0..15 {
            let pk = format!("pkg{:02}", 14 - k);
            let n: Vec<String> = (0..k % 4 + 2).map(|i| format!("{pk}.v1.{i}.0")).collect();
            let mut entries = vec![format!(r#"{{"name":"{}"}}"#, n[0])];
            for i in 1..n.len() {
                let skips = if i == n.len() - 1 { format!(r#","skips":["{}"]"#, n[i - 1]) } else { String::new() };
                entries.push(format!(r#"{{"name":"{}","replaces":"{}"{skips}}}"#, n[i], n[i - 1]));
            }
            out.push_str(&format!("{{\"schema\":\"olm.package\",\"name\":\"{pk}\",\"defaultChannel\":\"stable\"}}\n"));
            for channel in ["stable", ["alpha", "fast", "zeta"][k % 3]] {
                out.push_str(&format!(
                    "{{\"schema\":\"olm.channel\",\"package\":\"{pk}\",\"name\":\"{channel}\",\"entries\":[{}]}}\n",
                    entries.join(",")
                ));
            }
            for (i, b) in n.iter().enumerate() {
                out.push_str(&format!(
                    "{{\"schema\":\"olm.bundle\",\"name\":\"{b}\",\"package\":\"{pk}\",\"image\":\"q/{b}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"{pk}\",\"version\":\"1.{i}.0\"}}}}]}}\n"
                ));
            }
        }
        out
    }

    #[test]
    fn channels_of_the_same_name_are_numbered_in_the_order_gos_sort_slice_leaves_them() {
        let loaded =
            crate::declcfg::load_files(&[crate::declcfg::FileInput::new("catalog.json", same_named_channels())]);
        let (m, _) = crate::model::build(&loaded.config);
        let out = to_mermaid(&m, &MermaidOptions { v0_semantics: true, ..Default::default() }).expect("renders");
        // opm v1.73.0's `opm alpha render-graph --draw-v0-semantics` of this catalog.
        // (The whole text is equal to opm's; its last line shows the numbering.)
        let want = "linkStyle 2,11,14,18,22,27,30,35,40,44,48,53,58,62,67,70,76,81,86,91,94,100 \
                    stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;";
        assert_eq!(out.lines().last(), Some(want));
    }

    #[test]
    fn entries_of_equal_versions_are_drawn_in_the_order_gos_sort_slice_leaves_them() {
        // 14 entries, four to a version (b00..b03 at 1.0.0, ...): more than 12, so Go's sort
        // is not an insertion sort and moves equal versions around.
        let mut text = String::from("{\"schema\":\"olm.package\",\"name\":\"dup\",\"defaultChannel\":\"stable\"}\n");
        let names: Vec<String> = (0..14).map(|i| format!("dup.b{i:02}")).collect();
        let mut entries = vec![format!(r#"{{"name":"{}"}}"#, names[0])];
        entries.extend((1..14).map(|i| format!(r#"{{"name":"{}","replaces":"{}"}}"#, names[i], names[i - 1])));
        text.push_str(&format!(
            "{{\"schema\":\"olm.channel\",\"package\":\"dup\",\"name\":\"stable\",\"entries\":[{}]}}\n",
            entries.join(",")
        ));
        for (i, b) in names.iter().enumerate() {
            text.push_str(&format!(
                "{{\"schema\":\"olm.bundle\",\"name\":\"{b}\",\"package\":\"dup\",\"image\":\"q/{b}\",\"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"dup\",\"version\":\"1.{}.0\"}}}}]}}\n",
                i / 4
            ));
        }
        let loaded = crate::declcfg::load_files(&[crate::declcfg::FileInput::new("catalog.json", text)]);
        let (m, _) = crate::model::build(&loaded.config);
        let out =
            to_mermaid(&m, &MermaidOptions { package: Some("dup".into()), ..Default::default() }).expect("renders");
        let drawn: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("      dup-stable-") && !l.contains("--"))
            .map(|l| l.trim_start().trim_start_matches("dup-stable-").split('[').next().unwrap_or(""))
            .collect();
        // The order opm v1.73.0's `opm alpha render-graph -p dup` draws them in.
        let want = "dup.b13 dup.b12 dup.b08 dup.b11 dup.b10 dup.b09 dup.b06 dup.b07 dup.b05 dup.b04 dup.b00 dup.b03 dup.b02 dup.b01";
        assert_eq!(drawn.join(" "), want);
    }
}
