//! A channel's upgrade graph as a picture ([`Picture`]): what to draw and where, the same for the
//! SVG export ([`super::svg`]), the site and the `<olm-upgrade-graph>` element (which read the
//! same value through the wasm bindings).
//!
//! Two steps. [`picture_draft`] reads the catalog: the channel's [`ChannelGraph`], every node with
//! its flags (head, deprecated, skipped, stranded, on the highlighted path), every `replaces` and
//! `skips` edge, each skipRange **fan** as one edge (kind `fan`) from the newest entry it covers
//! to the entry whose range it is, labelled with the range and how many entries it covers, unless
//! fans are expanded (within [`PictureOptions::fan_budget`], else they stay fans and a note says
//! why); a skipRange edge the highlighted path takes is always drawn; with a start (`from`), the
//! path OLM takes to the head ([`upgrade_path`], the same function as `olm-catalog path`, v0 or v1
//! rules), its nodes and edges marked and its steps as text. That is a [`Draft`], plain data.
//! Then `olm_graph_picture::draw` (`crates/graph-picture`) collapses z-stream runs of graphs of
//! [`COLLAPSE_THRESHOLD`] nodes or more, sizes and lays the nodes out, routes the edges and
//! writes the text: [`graph_picture`] does both. The browsers' core module does the first step
//! (`Catalog.pictureDraft`) and their small picture module the second (docs/performance.md,
//! "WebAssembly size").

use super::channel_graph::ChannelGraph;
use super::upgrade::{upgrade_path, PathError, Semantics, Start, UpgradePath};
use crate::gotext::quote as q;
use crate::model::{Channel, Model, Package};
use olm_graph_picture::{channel_draft, GraphData, GraphDataEdge, GraphDataFan, GraphDataNode, PathData};
pub use olm_graph_picture::{
    draw, Draft, DraftEdge, DraftNode, DraftOptions, NodeGroup, NodeKind, Picture, PictureEdge, PictureEdgeKind,
    PictureNode, PicturePath, TooLarge, COLLAPSE_THRESHOLD, FAN_EXPANSION_BUDGET, MAX_PICTURE_EDGES, MAX_PICTURE_NODES,
    PATH_KEPT_EXPANDED,
};

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureOptions {
    /// The package.
    pub package: String,
    /// The channel; `None` for the package's default channel (else its first).
    pub channel: Option<String>,
    /// Highlight the path from this start to the head. Read a user's text with
    /// [`Start::from_input`] (a typed version is read against the channel drawn).
    pub from: Option<Start>,
    /// How to draw: whose rules the path follows, fans, collapsing, direction.
    pub drawing: DraftOptions,
}

impl PictureOptions {
    /// The default channel of `package`, no path, OLM v0 rules, fans as ranges, collapsing on.
    pub fn new(package: impl Into<String>) -> PictureOptions {
        PictureOptions { package: package.into(), channel: None, from: None, drawing: DraftOptions::default() }
    }
}

/// Why no picture could be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PictureError {
    /// The catalog has no such package.
    UnknownPackage(String),
    /// The package has no such channel.
    UnknownChannel {
        /// The package.
        package: String,
        /// The channel asked for.
        channel: String,
    },
    /// The package has no channels at all.
    NoChannels(String),
    /// The start of the path is not usable (`path` gives the same error).
    Path(PathError),
    /// Even collapsed, the picture would be too large to draw.
    TooLarge {
        /// Nodes it would have.
        nodes: usize,
        /// Edges it would have.
        edges: usize,
    },
}

impl std::fmt::Display for PictureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PictureError::UnknownPackage(p) => write!(f, "no package {} in the catalog", q(p)),
            PictureError::UnknownChannel { package, channel } => {
                write!(f, "package {} has no channel {}", q(package), q(channel))
            }
            PictureError::NoChannels(p) => write!(f, "package {} has no channels", q(p)),
            PictureError::Path(e) => e.fmt(f),
            PictureError::TooLarge { nodes, edges } => TooLarge { nodes: *nodes, edges: *edges }.fmt(f),
        }
    }
}

impl std::error::Error for PictureError {}

impl From<TooLarge> for PictureError {
    fn from(e: TooLarge) -> PictureError {
        PictureError::TooLarge { nodes: e.nodes, edges: e.edges }
    }
}

/// Lay out the graph of one channel of `model`.
///
/// ```
/// use olm_catalog::graph::{graph_picture, PictureOptions, Start};
/// use olm_catalog::{build_model, load_files, FileInput};
///
/// let yaml = "\
/// schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
/// schema: olm.channel\npackage: foo\nname: stable\nentries:\n\
/// - {name: foo.v3, replaces: foo.v2}\n- {name: foo.v2, replaces: foo.v1}\n- {name: foo.v1}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 1.0.0}}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v2\nimage: example.com/foo:2\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 2.0.0}}\n\
/// ---\nschema: olm.bundle\npackage: foo\nname: foo.v3\nimage: example.com/foo:3\nproperties:\n\
/// - {type: olm.package, value: {packageName: foo, version: 3.0.0}}\n";
/// let (model, _) = build_model(&load_files(&[FileInput::new("catalog.yaml", yaml)]).config);
/// let mut options = PictureOptions::new("foo");
/// options.from = Some(Start::Bundle("foo.v1".into()));
/// let picture = graph_picture(&model, &options).unwrap();
/// let ids: Vec<&str> = picture.nodes.iter().map(|n| n.id.as_str()).collect();
/// assert_eq!(ids, ["foo.v1", "foo.v2", "foo.v3"]);
/// assert!(picture.nodes.iter().all(|n| n.on_path));
/// assert_eq!(picture.path.unwrap().lines, ["foo.v1 → foo.v2 (replaces)", "foo.v2 → foo.v3 (replaces)"]);
/// ```
pub fn graph_picture(model: &Model, options: &PictureOptions) -> Result<Picture, PictureError> {
    Ok(draw(&picture_draft(model, options)?)?)
}

/// What [`graph_picture`] draws, before collapsing and layout: the catalog's part of the work
/// (see the module's documentation); `olm_graph_picture::draw` does the rest.
pub fn picture_draft(model: &Model, options: &PictureOptions) -> Result<Draft, PictureError> {
    let p = model.package(&options.package).ok_or_else(|| PictureError::UnknownPackage(options.package.clone()))?;
    let c = pick_channel(p, options.channel.as_deref())?;
    let g = ChannelGraph::new(p, c);
    let path = match &options.from {
        Some(start) => Some(path_or_stranded(p, c, start, options.drawing.semantics, g.head.clone())?),
        None => None,
    };
    let path = path.map(|up| PathData {
        from: up.from.to_string(),
        to: up.to.map(|h| h.to_string()),
        steps: up.steps,
        stranded: up.stranded,
        reason: up.reason,
        note: up.note,
    });
    Ok(channel_draft(graph_data(&g), path, options.drawing.clone()))
}

/// The path from `start`; a channel OLM v0 cannot order gives a stranded path with the
/// resolver's reason (the picture is still drawn), an unknown start an error.
fn path_or_stranded(
    p: &Package,
    c: &Channel,
    start: &Start,
    semantics: Semantics,
    head: Option<String>,
) -> Result<UpgradePath, PictureError> {
    match upgrade_path(p, c, start, semantics) {
        Ok(path) => Ok(path),
        Err(PathError::Order(reason)) => Ok(UpgradePath {
            from: start.name().into(),
            to: head.map(Into::into),
            steps: Vec::new(),
            stranded: true,
            reason: Some(reason),
            note: None,
        }),
        Err(e) => Err(PictureError::Path(e)),
    }
}

/// The channel a package's picture draws when none is named: its default channel, else its
/// first.
pub fn default_picture_channel(p: &Package) -> Option<&Channel> {
    p.default_channel().or(p.channels.first())
}

/// The channel `name`, else the default channel, else the first.
fn pick_channel<'a>(p: &'a Package, name: Option<&str>) -> Result<&'a Channel, PictureError> {
    match name {
        Some(n) => {
            p.channel(n).ok_or_else(|| PictureError::UnknownChannel { package: p.name.clone(), channel: n.to_string() })
        }
        None => default_picture_channel(p).ok_or_else(|| PictureError::NoChannels(p.name.clone())),
    }
}

/// The channel graph as the picture crate's plain data.
fn graph_data(g: &ChannelGraph) -> GraphData {
    GraphData {
        package: g.package.clone(),
        channel: g.channel.clone(),
        is_default: g.is_default,
        head: g.head.clone(),
        nodes: g
            .nodes
            .iter()
            .map(|n| GraphDataNode {
                name: n.name.clone(),
                version: n.version.clone(),
                is_virtual: n.is_virtual,
                head: n.head,
                deprecated: n.deprecated.clone(),
                skipped: n.skipped,
                stranded: n.stranded,
            })
            .collect(),
        edges: g.edges.iter().map(|e| GraphDataEdge { from: e.from.clone(), to: e.to.clone(), kind: e.kind }).collect(),
        by_version: g.by_version.clone(),
        fans: g
            .fans
            .iter()
            .map(|f| GraphDataFan { to: f.to.clone(), range: f.range.clone(), count: f.count, runs: f.runs.clone() })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::TestCatalog;

    fn picture(m: &Model, options: &PictureOptions) -> Picture {
        graph_picture(m, options).expect("a picture")
    }

    fn ids(p: &Picture) -> Vec<&str> {
        p.nodes.iter().map(|n| n.id.as_str()).collect()
    }

    /// Entries 1.0.0 … 1.0.(n-1) of package foo, each replacing the previous one.
    fn chain(n: usize) -> Model {
        let entries: String = (0..n)
            .map(|i| {
                if i == 0 {
                    "- {name: foo.v1.0.0}\n".to_string()
                } else {
                    format!("- {{name: foo.v1.0.{i}, replaces: foo.v1.0.{}}}\n", i - 1)
                }
            })
            .collect();
        TestCatalog::new().channel("stable", &entries).build()
    }

    #[test]
    fn nodes_run_oldest_first_and_the_head_comes_last() {
        let m = chain(4);
        let p = picture(&m, &PictureOptions::new("foo"));
        assert_eq!(ids(&p), ["foo.v1.0.0", "foo.v1.0.1", "foo.v1.0.2", "foo.v1.0.3"]);
        assert!(p.nodes.windows(2).all(|w| w[0].x < w[1].x));
        assert!(p.nodes[3].head && !p.nodes[2].head);
        assert_eq!(p.edges.len(), 3);
        assert!(p.edges.iter().all(|e| e.kind == PictureEdgeKind::Replaces && e.d.starts_with('M')));
        assert_eq!(p.channel, "stable");
    }

    #[test]
    fn a_skip_range_is_one_fan_from_the_newest_entry_it_covers() {
        let m = TestCatalog::new()
            .channel(
                "stable",
                "
                - {name: foo.v1.0.3, replaces: foo.v1.0.2, skipRange: '<1.0.3'}
                - {name: foo.v1.0.2}
                - {name: foo.v1.0.1}
                - {name: foo.v1.0.0}",
            )
            .build();
        let p = picture(&m, &PictureOptions::new("foo"));
        let fans: Vec<&PictureEdge> = p.edges.iter().filter(|e| e.kind == PictureEdgeKind::Fan).collect();
        assert_eq!(fans.len(), 1);
        assert_eq!((fans[0].from.as_str(), fans[0].to.as_str(), fans[0].covers), ("foo.v1.0.2", "foo.v1.0.3", Some(3)));
        assert_eq!(fans[0].label.as_deref(), Some("<1.0.3 (3)"));
        let mut o = PictureOptions::new("foo");
        o.drawing.expand_fans = true;
        let p = picture(&m, &o);
        assert_eq!(p.edges.iter().filter(|e| e.kind == PictureEdgeKind::SkipRange).count(), 3);
        o.drawing.fan_budget = 2;
        let p = picture(&m, &o);
        assert_eq!(p.edges.iter().filter(|e| e.kind == PictureEdgeKind::Fan).count(), 1);
        assert!(p.notes[0].contains("more than 2"), "{:?}", p.notes);
    }

    #[test]
    fn the_path_is_marked_and_a_skip_range_step_is_drawn() {
        let m = TestCatalog::new()
            .channel(
                "stable",
                "
                - {name: foo.v1.0.3, replaces: foo.v1.0.2, skipRange: '<1.0.3'}
                - {name: foo.v1.0.2, replaces: foo.v1.0.1}
                - {name: foo.v1.0.1, replaces: foo.v1.0.0}
                - {name: foo.v1.0.0}",
            )
            .build();
        let mut o = PictureOptions::new("foo");
        o.from = Some(Start::Bundle("foo.v1.0.0".into()));
        let p = picture(&m, &o);
        let path = p.path.as_ref().expect("a path");
        assert_eq!(path.lines, ["foo.v1.0.0 → foo.v1.0.3 (skipRange)"]);
        assert_eq!(path.summary, "1 upgrade from foo.v1.0.0 to reach foo.v1.0.3");
        let on: Vec<&str> = p.nodes.iter().filter(|n| n.on_path).map(|n| n.id.as_str()).collect();
        assert_eq!(on, ["foo.v1.0.0", "foo.v1.0.3"]);
        let step: Vec<&PictureEdge> = p.edges.iter().filter(|e| e.on_path).collect();
        assert_eq!(step.len(), 1);
        assert_eq!((step[0].from.as_str(), step[0].kind), ("foo.v1.0.0", PictureEdgeKind::SkipRange));
        assert!(p.nodes[0].path_start && p.nodes[3].path_step == Some(1));
        assert!(p.description.contains("foo.v1.0.0 → foo.v1.0.3"), "{}", p.description);
        // OLM v1 takes the same single step here.
        o.drawing.semantics = Semantics::V1;
        assert_eq!(picture(&m, &o).path.expect("a path").steps.len(), 1);
    }

    #[test]
    fn a_bare_version_starts_at_the_entry_with_that_version() {
        let m = TestCatalog::new()
            .channel(
                "stable",
                "
                - {name: foo.v1.0.2, replaces: foo.v1.0.1, skipRange: '<1.0.2'}
                - {name: foo.v1.0.1, replaces: foo.v1.0.0}
                - {name: foo.v1.0.0}",
            )
            .build();
        let mut o = PictureOptions::new("foo");
        o.from = Some(Start::Version(crate::version::Version::new(1, 0, 0)));
        let p = picture(&m, &o);
        assert!(p.nodes[0].path_start && p.nodes[0].on_path);
        let step: Vec<(&str, &str)> =
            p.edges.iter().filter(|e| e.on_path).map(|e| (e.from.as_str(), e.to.as_str())).collect();
        assert_eq!(step, [("foo.v1.0.0", "foo.v1.0.2")]);
        assert_eq!(p.path.expect("a path").lines, ["1.0.0 → foo.v1.0.2 (skipRange)"]);
    }

    #[test]
    fn an_unknown_start_package_or_channel_is_an_error() {
        let m = chain(2);
        let mut o = PictureOptions::new("foo");
        o.from = Some(Start::Bundle("nope".into()));
        assert!(matches!(graph_picture(&m, &o), Err(PictureError::Path(PathError::UnknownBundle(_)))));
        assert_eq!(
            graph_picture(&m, &PictureOptions::new("bar")).unwrap_err().to_string(),
            "no package \"bar\" in the catalog"
        );
        let mut o = PictureOptions::new("foo");
        o.channel = Some("fast".into());
        assert_eq!(graph_picture(&m, &o).unwrap_err().to_string(), "package \"foo\" has no channel \"fast\"");
    }

    /// 1.0.0 … 1.0.59 then 1.1.0 … 1.1.59, one replaces chain.
    fn two_minors() -> Model {
        let versions: Vec<String> =
            (0..60).map(|i| format!("1.0.{i}")).chain((0..60).map(|i| format!("1.1.{i}"))).collect();
        let entries: String = versions
            .iter()
            .enumerate()
            .map(|(i, v)| match i {
                0 => format!("- {{name: foo.v{v}}}\n"),
                _ => format!("- {{name: foo.v{v}, replaces: foo.v{}}}\n", versions[i - 1]),
            })
            .collect();
        TestCatalog::new().channel("stable", &entries).build()
    }

    #[test]
    fn large_graphs_collapse_z_stream_runs_but_not_the_head_or_the_path() {
        let m = two_minors();
        let p = picture(&m, &PictureOptions::new("foo"));
        assert_eq!(ids(&p), ["group:foo.v1.0.0", "group:foo.v1.1.0", "foo.v1.1.59"]);
        assert_eq!(p.nodes[0].label, "1.0.0 – 1.0.59 (60)");
        assert_eq!(p.nodes[1].group.as_ref().map(|g| (g.count, g.last.as_str())), Some((59, "foo.v1.1.58")));
        let edges: Vec<(&str, &str)> = p.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())).collect();
        assert_eq!(edges, [("group:foo.v1.0.0", "group:foo.v1.1.0"), ("group:foo.v1.1.0", "foo.v1.1.59")]);
        assert_eq!(p.graph_nodes, 120);

        let mut o = PictureOptions::new("foo");
        o.from = Some(Start::Bundle("foo.v1.0.30".into()));
        let p = picture(&m, &o);
        // Every step's node stays expanded; what is before the start is still a run.
        assert_eq!(p.nodes.len(), 1 + 90);
        assert_eq!(p.nodes[0].id, "group:foo.v1.0.0");
        assert_eq!(p.nodes[0].group.as_ref().map(|g| g.count), Some(30));

        let mut o = PictureOptions::new("foo");
        o.drawing.expand = vec!["group:foo.v1.0.0".into()];
        assert_eq!(picture(&m, &o).nodes.len(), 60 + 2);
        o.drawing.collapse = false;
        assert_eq!(picture(&m, &o).nodes.len(), 120);
    }

    #[test]
    fn a_path_of_more_than_500_nodes_collapses_in_runs_on_the_path() {
        let m = chain(700);
        let mut o = PictureOptions::new("foo");
        o.from = Some(Start::Bundle("foo.v1.0.0".into()));
        let p = picture(&m, &o);
        assert_eq!(ids(&p), ["foo.v1.0.0", "group:foo.v1.0.1", "foo.v1.0.699"]);
        assert!(p.nodes.iter().all(|n| n.on_path));
        assert!(p.edges.iter().all(|e| e.on_path));
        assert_eq!(p.nodes[1].aria_label, "698 z-stream releases, 1.0.1 – 1.0.698, collapsed, on the upgrade path");
        assert_eq!(p.path.expect("a path").steps.len(), 699);
    }

    #[test]
    fn a_channel_without_an_order_still_draws_with_a_stranded_path() {
        let m = TestCatalog::new().channel("stable", "- {name: foo.v1.0.0}\n- {name: foo.v1.0.1}").build();
        let mut o = PictureOptions::new("foo");
        o.from = Some(Start::Bundle("foo.v1.0.0".into()));
        let p = picture(&m, &o);
        let path = p.path.expect("a path");
        assert!(path.stranded && path.summary.starts_with("Stranded: no path from foo.v1.0.0"), "{}", path.summary);
        assert_eq!(p.nodes.len(), 2);
    }

    #[test]
    fn a_run_is_not_collapsed_when_an_edge_leaves_from_its_middle() {
        // 1.0.5 is skipped by 1.1.0 too: the 1.0 run ends there.
        let mut versions: Vec<String> = (0..60).map(|i| format!("1.0.{i}")).collect();
        versions.extend((0..45).map(|i| format!("1.1.{i}")));
        let entries: String = versions
            .iter()
            .enumerate()
            .map(|(i, v)| match i {
                0 => format!("- {{name: foo.v{v}}}\n"),
                60 => format!("- {{name: foo.v{v}, replaces: foo.v{}, skips: [foo.v1.0.5]}}\n", versions[i - 1]),
                _ => format!("- {{name: foo.v{v}, replaces: foo.v{}}}\n", versions[i - 1]),
            })
            .collect();
        let m = TestCatalog::new().channel("stable", &entries).build();
        let p = picture(&m, &PictureOptions::new("foo"));
        let groups: Vec<(&str, usize)> =
            p.nodes.iter().filter_map(|n| n.group.as_ref().map(|g| (n.id.as_str(), g.count))).collect();
        assert_eq!(groups, [("group:foo.v1.0.0", 6), ("group:foo.v1.0.6", 54), ("group:foo.v1.1.0", 44)]);
    }

    #[test]
    fn the_same_input_gives_the_same_picture() {
        let m = two_minors();
        let o = PictureOptions::new("foo");
        assert_eq!(picture(&m, &o), picture(&m, &o));
    }

    #[test]
    fn node_labels_are_shortened_but_the_name_is_kept() {
        let long = format!("foo.v1.0.0-{}", "x".repeat(80));
        let entries = format!("- {{name: {long}}}\n");
        let m = TestCatalog::new().channel("stable", &entries).build();
        let p = picture(&m, &PictureOptions::new("foo"));
        assert_eq!(p.nodes[0].name, long);
        assert!(p.nodes[0].label.ends_with('…') && p.nodes[0].label.chars().count() == 30);
        let sub = p.nodes[0].sublabel.as_deref().expect("the name");
        assert_eq!(sub, format!("foo.v1.0.0…{}", "x".repeat(19)));
        assert!(p.nodes[0].width <= 320.0);
    }
}
