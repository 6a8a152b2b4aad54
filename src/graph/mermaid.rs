//! Mermaid output byte-identical to `opm alpha render-graph` (fbc.md §4.4): channels sorted by
//! name, entries by decreasing version, `replace`/`skip`/`skipRange(...)` edges from the older
//! bundle to the newer one, deprecation styling, and — with v0 semantics — the `skipped` class and
//! red links for edges OLM v0 never takes. Like opm it reads the catalog as loaded, without
//! validating it.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

use crate::declcfg::{ChannelEntry, DeclarativeConfig, SCHEMA_BUNDLE, SCHEMA_CHANNEL, SCHEMA_PACKAGE};
use crate::property::{self, Property};
use crate::version::{go_quote as q, Version, VersionRange};

/// Options of `render-graph`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MermaidOptions {
    /// Only draw edges at or above this bundle's version, within its package (`--minimum-edge`).
    pub minimum_edge: Option<String>,
    /// Only this package (`--package-name`).
    pub package: Option<String>,
    /// Mark what OLM v0 skips (`--draw-v0-semantics`; opm's CLI default is off).
    pub v0_semantics: bool,
}

/// Render the catalog as opm's Mermaid graph. Errors carry opm's message.
pub fn to_mermaid(cfg: &DeclarativeConfig, opts: &MermaidOptions) -> Result<String, String> {
    let versions = version_map(cfg)?;
    let zero = Version::new(0, 0, 0);
    let version_of = |name: &str| versions.get(name).cloned().unwrap_or_else(|| zero.clone());

    let mut min_edge: Option<(Version, String)> = None;
    if let Some(name) = opts.minimum_edge.as_deref().filter(|n| !n.is_empty()) {
        let Some(v) = versions.get(name) else {
            return Err(format!("unknown minimum edge name: {}", q(name)));
        };
        let pkg = cfg
            .channels
            .iter()
            .find(|c| c.entries.iter().any(|e| e.name.value == name))
            .map(|c| c.package.value.clone())
            .unwrap_or_default();
        min_edge = Some((v.clone(), pkg));
    }

    // Deprecations, matched by name only, as opm does.
    let mut deprecated_packages = BTreeSet::new();
    let mut deprecated_channels = BTreeSet::new();
    let mut deprecated_bundles = BTreeSet::new();
    for d in &cfg.deprecations {
        for e in &d.entries {
            match e.schema.value.as_str() {
                SCHEMA_PACKAGE => {
                    deprecated_packages.insert(d.package.value.clone());
                }
                SCHEMA_CHANNEL => {
                    deprecated_channels.insert(e.name.value.clone());
                }
                SCHEMA_BUNDLE => {
                    deprecated_bundles.insert(e.name.value.clone());
                }
                _ => {}
            }
        }
    }

    let mut channels: Vec<&crate::declcfg::Channel> = cfg.channels.iter().collect();
    channels.sort_by(|a, b| a.name.value.cmp(&b.name.value));

    let mut buffers: BTreeMap<String, String> = BTreeMap::new();
    let mut link_id = 0usize;
    let mut skipped_links: Vec<usize> = Vec::new();
    let mut classes: BTreeMap<&'static str, BTreeSet<String>> = BTreeMap::new();
    let mut deprecated_package: Option<String> = None;
    let mut deprecated_channel_ids: Vec<String> = Vec::new();

    for c in channels {
        let pkg = c.package.value.as_str();
        if opts.package.as_deref().is_some_and(|p| !p.is_empty() && p != pkg) {
            continue;
        }
        if min_edge.as_ref().is_some_and(|(_, p)| p != pkg) {
            continue;
        }
        let entries: Vec<ChannelEntry> = match &min_edge {
            None => c.entries.clone(),
            Some((floor, _)) => {
                filter_entries(&c.entries, floor, opts.minimum_edge.as_deref().unwrap_or(""), &version_of)
            }
        };
        if entries.is_empty() {
            continue;
        }
        if deprecated_packages.contains(pkg) {
            deprecated_package = Some(pkg.to_string());
        }
        let channel_id = format!("{pkg}-{}", c.name.value);
        if deprecated_channels.contains(&c.name.value) {
            deprecated_channel_ids.push(channel_id.clone());
        }
        let buf = buffers.entry(pkg.to_string()).or_default();
        let _ = writeln!(buf, "    %% channel {}", q(&c.name.value));
        let _ = writeln!(buf, "    subgraph {channel_id}[{}]", q(&c.name.value));

        let mut sorted: Vec<&ChannelEntry> = entries.iter().collect();
        sorted.sort_by_key(|e| std::cmp::Reverse(version_of(&e.name.value)));
        let mut skipped: BTreeSet<&str> = BTreeSet::new();
        let node = |name: &str| format!("{channel_id}-{name}[{}]", q(name));
        for e in sorted {
            let name = e.name.value.as_str();
            let id = format!("{channel_id}-{name}");
            let _ = writeln!(buf, "      {id}[{}]", q(name));
            let deprecated = deprecated_bundles.contains(name);
            let in_skipped = opts.v0_semantics && skipped.contains(name);
            let class = match (deprecated, in_skipped) {
                (true, true) => Some("deprecatedskipped"),
                (true, false) => Some("deprecated"),
                (false, true) => Some("skipped"),
                (false, false) => None,
            };
            if let Some(class) = class {
                classes.entry(class).or_default().insert(id.clone());
            }
            let target = node(name);
            for s in &e.skips {
                let _ = writeln!(buf, "      {}-- skip --> {target}", node(&s.value));
                if opts.v0_semantics && !skipped.insert(s.value.as_str()) {
                    skipped_links.push(link_id);
                }
                link_id += 1;
            }
            if !e.skip_range.value.is_empty() {
                // An unparseable range is ignored (opm prints a warning on stderr).
                if let Ok(range) = VersionRange::parse(&e.skip_range.value) {
                    for x in &entries {
                        if range.contains(&version_of(&x.name.value)) {
                            let _ = writeln!(
                                buf,
                                "      {}-- {} --> {target}",
                                node(&x.name.value),
                                q(&format!("skipRange({})", e.skip_range.value))
                            );
                            if opts.v0_semantics && skipped.contains(name) {
                                skipped_links.push(link_id);
                            }
                            link_id += 1;
                        }
                    }
                }
            }
            if !e.replaces.value.is_empty() {
                let _ = writeln!(buf, "      {}-- replace --> {target}", node(&e.replaces.value));
                if opts.v0_semantics && skipped.contains(name) {
                    skipped_links.push(link_id);
                }
                link_id += 1;
            }
        }
        let _ = writeln!(buf, "    end");
    }

    let mut out = String::from(
        "graph LR\n  classDef deprecated fill:#E8960F\n  classDef skipped stroke:#FF0000,stroke-width:4px\n  classDef deprecatedskipped fill:#E8960F,stroke:#FF0000,stroke-width:4px\n",
    );
    for (pkg, buf) in &buffers {
        let _ = writeln!(out, "  %% package {}", q(pkg));
        let _ = writeln!(out, "  subgraph {}", q(pkg));
        out.push_str(buf);
        out.push_str("  end\n");
    }
    if let Some(p) = deprecated_package {
        let _ = writeln!(out, "style {p} fill:#989695");
    }
    for id in deprecated_channel_ids {
        let _ = writeln!(out, "style {id} fill:#DCD0FF");
    }
    for (class, ids) in &classes {
        let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
        let _ = writeln!(out, "class {} {class}", ids.join(","));
    }
    if !skipped_links.is_empty() {
        let ids: Vec<String> = skipped_links.iter().map(usize::to_string).collect();
        let _ = writeln!(out, "linkStyle {} stroke:#FF0000,stroke-width:3px,stroke-dasharray:5;", ids.join(","));
    }
    Ok(out)
}

/// Bundle name → version over all bundles (first occurrence wins), as opm's mermaid writer
/// builds it.
fn version_map(cfg: &DeclarativeConfig) -> Result<HashMap<String, Version>, String> {
    let mut map = HashMap::new();
    for b in &cfg.bundles {
        if map.contains_key(&b.name.value) {
            continue;
        }
        let mut packages = Vec::new();
        for (i, p) in b.properties.iter().enumerate() {
            match property::parse(&p.type_.value, p.value.as_ref()) {
                Ok(Property::Package(pp)) => packages.push(pp),
                Ok(_) => {}
                Err(e) => {
                    return Err(format!(
                        "parse properties for bundle {}: parse property[{i}] of type {}: {e}",
                        q(&b.name.value),
                        q(&p.type_.value)
                    ))
                }
            }
        }
        if packages.len() != 1 {
            return Err(format!(
                "bundle {} has multiple {} properties, expected exactly 1",
                q(&b.name.value),
                q(property::TYPE_PACKAGE)
            ));
        }
        let v = Version::parse(&packages[0].version)
            .map_err(|e| format!("bundle {} has invalid version {}: {e}", q(&b.name.value), q(&packages[0].version)))?;
        map.insert(b.name.value.clone(), v);
    }
    Ok(map)
}

/// opm's `filterChannel` for a minimum edge: keep edges whose source is at or above the floor.
fn filter_entries(
    entries: &[ChannelEntry],
    floor: &Version,
    min_name: &str,
    version_of: &dyn Fn(&str) -> Version,
) -> Vec<ChannelEntry> {
    let mut out = Vec::new();
    for e in entries {
        if e.name.value == min_name {
            let mut kept = e.clone();
            kept.replaces.value.clear();
            kept.skips.clear();
            kept.skip_range.value.clear();
            out.push(kept);
            continue;
        }
        let had_edges = !e.replaces.value.is_empty() || !e.skips.is_empty() || !e.skip_range.value.is_empty();
        let mut kept = e.clone();
        if !kept.replaces.value.is_empty() && version_of(&kept.replaces.value) < *floor {
            kept.replaces.value.clear();
        }
        kept.skips.retain(|s| version_of(&s.value) >= *floor);
        if !kept.skip_range.value.is_empty() {
            let keep = VersionRange::parse(&kept.skip_range.value).is_ok_and(|r| r.contains(floor));
            if !keep {
                kept.skip_range.value.clear();
            }
        }
        let survived = !kept.replaces.value.is_empty() || !kept.skips.is_empty() || !kept.skip_range.value.is_empty();
        if survived || (!had_edges && version_of(&e.name.value) >= *floor) {
            out.push(kept);
        }
    }
    out
}
