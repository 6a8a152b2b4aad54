//! `olm-catalog graph`: a package's upgrade graph as JSON, Mermaid or Graphviz DOT (the SVG
//! picture is `graph_svg`'s).

use std::path::PathBuf;

use clap::ValueEnum;
use olm_catalog::graph::{to_dot_within, to_mermaid_within, ChannelGraph, MermaidOptions, PackageGraph};
use olm_catalog::model;

use super::graph_svg;
use crate::args::SemanticsArg;
use crate::catalog::{load_built, package};
use crate::output::{push_json, Fail, SUCCESS};

pub const EXIT_CODES: &str = "Exit codes:
- 0: drawn (a stranded path in a picture is drawn too, with its reason)
- 2: usage or I/O error: no such package, channel or --from bundle, or a --from version several \
bundles have (they are named); a graph over --max-edges once \
its skipRanges are expanded; a picture over 10,000 nodes or 50,000 edges even when collapsed";

#[derive(clap::Args)]
pub struct Args {
    /// Catalog directory, file or image.
    pub path: PathBuf,
    /// The package.
    #[arg(long)]
    pub package: String,
    /// Only this channel.
    #[arg(long)]
    pub channel: Option<String>,
    /// Output format: JSON graph (nodes, typed edges, flags), Mermaid (as `opm alpha
    /// render-graph`), Graphviz DOT, or SVG (one channel: `--channel`, else the default).
    #[arg(long, value_enum, default_value_t = GraphFormat::Json)]
    pub format: GraphFormat,
    /// SVG: highlight the upgrade path from this installed bundle or version to the head.
    ///
    /// A version (1.2.0, v1.2.0) is the bundle of that version, as in `path --from`. The steps
    /// are also listed under the graph.
    #[arg(long)]
    pub from: Option<String>,
    /// SVG: the rules the highlighted path follows.
    #[arg(long, value_enum, default_value_t = SemanticsArg::V0)]
    pub semantics: SemanticsArg,
    /// SVG: colours (`auto` follows the reader's light or dark preference).
    #[arg(long, value_enum, default_value_t = ThemeArg::Light)]
    pub theme: ThemeArg,
    /// SVG: keep this collapsed z-stream group expanded (its id, `group:NAME`; repeatable).
    #[arg(long, value_name = "GROUP")]
    pub expand: Vec<String>,
    /// SVG: never collapse z-stream runs (graphs of 100+ nodes collapse them by default).
    ///
    /// A run is z-stream releases of the same major.minor, entered only at the oldest and left
    /// only from the newest; the path's nodes and the head are never collapsed.
    #[arg(long)]
    pub no_collapse: bool,
    /// Mermaid: only edges at or above this bundle's version (`--minimum-edge` of opm).
    #[arg(long)]
    pub minimum_edge: Option<String>,
    /// Mermaid: mark what OLM v0 skips (`--draw-v0-semantics` of opm).
    #[arg(long)]
    pub v0_semantics: bool,
    /// JSON: list every skipRange edge in `edges` instead of keeping each skipRange as a
    /// range (`fans`); refused beyond `--max-edges`. SVG: draw every skipRange edge instead
    /// of one fan per range (fans stay beyond 2,000 edges, with a note).
    #[arg(long)]
    pub expand_ranges: bool,
    /// The most edges a graph may have once skipRanges are expanded (`--expand-ranges`,
    /// Mermaid; DOT draws skipRanges as ranges beyond it).
    #[arg(long, value_name = "N", default_value_t = olm_catalog::graph::EXPANSION_BUDGET)]
    pub max_edges: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    /// Per channel, `nodes` (name, version, `virtual`, `head`, `deprecated`, `skipped`,
    /// `onV0Chain`, `stranded`, `channels`) and typed `edges` (`replaces`, `skips`, `skipRange`),
    /// each from the older bundle to the newer one.
    Json,
    /// Mermaid, byte-identical to `opm alpha render-graph`.
    Mermaid,
    /// Graphviz, one cluster per channel; head, default channel, deprecated, skipped and stranded
    /// entries highlighted.
    Dot,
    /// One channel as a standalone, accessible SVG document: the site's drawing.
    Svg,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ThemeArg {
    /// Dark lines on a light background.
    Light,
    /// Light lines on a dark background.
    Dark,
    /// The reader's `prefers-color-scheme`.
    Auto,
}

pub fn run(a: Args, out: &mut String) -> Result<u8, Fail> {
    if a.format == GraphFormat::Svg {
        return graph_svg::run(a, out);
    }
    let m = load_built(&a.path)?;
    let p = package(&m, &a.package, &a.path)?;
    let channel = match &a.channel {
        Some(c) => Some(p.channel(c).ok_or_else(|| Fail(format!("package {:?} has no channel {c:?}", a.package)))?),
        None => None,
    };
    match a.format {
        GraphFormat::Mermaid => {
            let opts = MermaidOptions {
                minimum_edge: a.minimum_edge,
                package: Some(a.package),
                channel: a.channel,
                v0_semantics: a.v0_semantics,
            };
            out.push_str(&to_mermaid_within(&m, &opts, a.max_edges).map_err(|e| Fail(e.to_string()))?);
        }
        GraphFormat::Dot => {
            let graphs: Vec<ChannelGraph> = match channel {
                Some(c) => vec![ChannelGraph::new(p, c)],
                None => PackageGraph::new(p).channels,
            };
            out.push_str(&to_dot_within(&graphs, a.max_edges));
        }
        // (SVG was drawn above.)
        GraphFormat::Json | GraphFormat::Svg => print_json(p, channel, &a, out)?,
    }
    Ok(SUCCESS)
}

/// The JSON graph of one channel, or of every channel of the package.
fn print_json(p: &model::Package, channel: Option<&model::Channel>, a: &Args, out: &mut String) -> Result<(), Fail> {
    let fail = |e: olm_catalog::graph::ExpansionError| Fail(e.to_string());
    match channel {
        Some(c) => {
            let mut g = ChannelGraph::new(p, c);
            if a.expand_ranges {
                g.expand_ranges(a.max_edges).map_err(fail)?;
            }
            push_json(out, &SortedKeys(&g))
        }
        None => {
            let mut g = PackageGraph::new(p);
            if a.expand_ranges {
                g.expand_ranges(a.max_edges).map_err(fail)?;
            }
            push_json(out, &SortedPackageGraph(&g))
        }
    }
}

/// A value written with its object keys sorted (through a `serde_json::Value`, whose maps
/// are sorted), as the graph JSON has always been printed.
struct SortedKeys<'a, T>(&'a T);

impl<T: serde::Serialize> serde::Serialize for SortedKeys<'_, T> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde_json::to_value(self.0).map_err(serde::ser::Error::custom)?.serialize(s)
    }
}

/// A package graph with sorted keys, one channel's `Value` at a time (a package of 5,000
/// channels never exists as one `Value` tree).
struct SortedPackageGraph<'a>(&'a PackageGraph);

impl serde::Serialize for SortedPackageGraph<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        struct Channels<'a>(&'a [ChannelGraph]);
        impl serde::Serialize for Channels<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for c in self.0 {
                    seq.serialize_element(&SortedKeys(c))?;
                }
                seq.end()
            }
        }
        let g = self.0;
        let mut map = s.serialize_map(Some(4))?;
        map.serialize_entry("bundleChannels", &g.bundle_channels)?;
        map.serialize_entry("channels", &Channels(&g.channels))?;
        map.serialize_entry("defaultChannel", &g.default_channel)?;
        map.serialize_entry("package", &g.package)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use olm_catalog::declcfg::{load_files, FileInput};

    #[test]
    fn a_package_graph_is_printed_as_its_sorted_value() {
        let yaml = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
            schema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n- {name: foo.v2, replaces: foo.v1, skipRange: '<2.0.0'}\n---\n\
            schema: olm.channel\npackage: foo\nname: fast\nentries:\n- name: foo.v2\n---\n\
            schema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
            - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n---\n\
            schema: olm.bundle\npackage: foo\nname: foo.v2\nimage: example.com/foo:2\nproperties:\n\
            - {type: olm.package, value: {packageName: foo, version: 2.0.0}}\n";
        let (m, _) = model::build(&load_files(&[FileInput::new("c.yaml", yaml)]).config);
        let g = PackageGraph::new(m.package("foo").expect("foo"));
        let want = serde_json::to_string_pretty(&serde_json::to_value(&g).expect("value")).expect("json");
        assert_eq!(serde_json::to_string_pretty(&SortedPackageGraph(&g)).expect("json"), want);
        let c = &g.channels[0];
        let want = serde_json::to_string_pretty(&serde_json::to_value(c).expect("value")).expect("json");
        assert_eq!(serde_json::to_string_pretty(&SortedKeys(c)).expect("json"), want);
    }
}
