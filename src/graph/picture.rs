//! A channel's upgrade graph as a picture ([`Picture`]): what to draw and where, computed once in
//! Rust so that the SVG export ([`super::svg`]), the site and the `<olm-upgrade-graph>` element
//! (which read the same value through the wasm bindings) all look the same.
//!
//! What is drawn, from [`ChannelGraph`]:
//! - every node (entries, and the `replaces`/`skips` targets outside the channel as "virtual"
//!   nodes), with its flags: head, deprecated, skipped, stranded, on the highlighted path;
//! - every `replaces` and `skips` edge; each skipRange **fan** as one edge (kind `fan`) from the
//!   newest entry it covers to the entry whose range it is, labelled with the range and how many
//!   entries it covers, unless fans are expanded (within [`PictureOptions::fan_budget`], else
//!   they stay fans and a note says why); a skipRange edge the highlighted path takes is always
//!   drawn;
//! - with a start (`from`), the path OLM takes to the head ([`upgrade_path`], the same function
//!   as `olm-catalog path`, v0 or v1 rules), its nodes and edges marked and its steps as text;
//! - in graphs of [`COLLAPSE_THRESHOLD`] nodes or more, runs of z-stream releases (same
//!   major.minor, next to each other in version order, three or more, entered only at the
//!   oldest, left only from the newest) as one group node `1.2.0 – 1.2.9 (10)`, unless its id is
//!   in [`PictureOptions::expand`]; the head, the path's start and the path's nodes are never
//!   collapsed (unless the path itself has more than [`PATH_KEPT_EXPANDED`] nodes: then runs
//!   wholly on it are, drawn as groups on the path).
//!
//! Positions come from [`super::layout`], nodes listed oldest version first, so ranks run from
//! the oldest version to the head.

use crate::hash::{HashMap, HashMapExt, HashSet, HashSetExt};

use serde::Serialize;

use super::channel_graph::ChannelGraph;
use super::edge::EdgeKind;
use super::layout::{layout, path_d, Direction, LayoutEdge, LayoutNode, LayoutOptions, Point};
use super::upgrade::{upgrade_path, PathError, Semantics, Start, Step, UpgradePath};
use crate::gotext::{quote as q, thousands};
use crate::model::{Channel, Model, Package};

/// Graphs with at least this many nodes have their z-stream runs collapsed.
pub const COLLAPSE_THRESHOLD: usize = 100;

/// The most skipRange edges a picture draws when asked to expand its fans.
pub const FAN_EXPANSION_BUDGET: usize = 2_000;

/// A highlighted path with at most this many nodes is never collapsed; a longer one may be, in
/// runs wholly on the path (drawn as groups on the path).
pub const PATH_KEPT_EXPANDED: usize = 500;

/// The most nodes a picture may have once collapsed.
pub const MAX_PICTURE_NODES: usize = 10_000;

/// The most edges a picture may have once collapsed.
pub const MAX_PICTURE_EDGES: usize = 50_000;

/// What to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct PictureOptions {
    /// The package.
    pub package: String,
    /// The channel; `None` for the package's default channel (else its first).
    pub channel: Option<String>,
    /// Highlight the path from this start to the head. Read a user's text with
    /// [`Start::from_input`].
    pub from: Option<Start>,
    /// Whose rules the highlighted path follows.
    pub semantics: Semantics,
    /// Draw every skipRange edge instead of one fan per range (within `fan_budget`).
    pub expand_fans: bool,
    /// The most skipRange edges expanding fans may draw.
    pub fan_budget: usize,
    /// Collapse z-stream runs in graphs of [`COLLAPSE_THRESHOLD`] nodes or more.
    pub collapse: bool,
    /// Ids of groups to keep expanded (`group:` and the oldest member's name).
    pub expand: Vec<String>,
    /// Which way the versions run.
    pub direction: Direction,
}

impl PictureOptions {
    /// The default channel of `package`, no path, OLM v0 rules, fans as ranges, collapsing on.
    #[cfg_attr(olm_wasm_size, optimize(size))]
    pub fn new(package: impl Into<String>) -> PictureOptions {
        PictureOptions {
            package: package.into(),
            channel: None,
            from: None,
            semantics: Semantics::V0,
            expand_fans: false,
            fan_budget: FAN_EXPANSION_BUDGET,
            collapse: true,
            expand: Vec::new(),
            direction: Direction::LeftToRight,
        }
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
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PictureError::UnknownPackage(p) => write!(f, "no package {} in the catalog", q(p)),
            PictureError::UnknownChannel { package, channel } => {
                write!(f, "package {} has no channel {}", q(package), q(channel))
            }
            PictureError::NoChannels(p) => write!(f, "package {} has no channels", q(p)),
            PictureError::Path(e) => e.fmt(f),
            PictureError::TooLarge { nodes, edges } => write!(
                f,
                "the picture would have {} nodes and {} edges even with z-stream runs collapsed, more than the budget of {} nodes and {} edges",
                thousands(*nodes),
                thousands(*edges),
                thousands(MAX_PICTURE_NODES),
                thousands(MAX_PICTURE_EDGES)
            ),
        }
    }
}

impl std::error::Error for PictureError {}

/// What a node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum NodeKind {
    /// An entry of the channel.
    Bundle,
    /// A `replaces`/`skips` target that is not an entry of the channel.
    Virtual,
    /// A collapsed run of z-stream releases.
    Group,
}

/// A collapsed run of z-stream releases.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeGroup {
    /// How many entries it stands for.
    pub count: usize,
    /// The oldest member (the one edges enter).
    pub first: String,
    /// The newest member (the one edges leave).
    pub last: String,
    /// How many members are deprecated.
    pub deprecated: usize,
}

/// A node, placed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PictureNode {
    /// Unique within the picture: the bundle name (`#2`, `#3` … added to a repeated one), or
    /// `group:` and the oldest member's name.
    pub id: String,
    /// What it stands for.
    pub kind: NodeKind,
    /// The bundle name (the oldest member's, for a group).
    pub name: String,
    /// The version, when known (`1.2.0 – 1.2.9` for a group).
    pub version: Option<String>,
    /// The first line of text (the version, else the name).
    pub label: String,
    /// The second line of text (the name, shortened), if any.
    pub sublabel: Option<String>,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// The channel head.
    pub head: bool,
    /// The deprecation message, if deprecated.
    pub deprecated: Option<String>,
    /// Some entry skips it, so OLM v0 never upgrades through it.
    pub skipped: bool,
    /// OLM v0 has no path from it to the head.
    pub stranded: bool,
    /// On the highlighted path (its start included).
    pub on_path: bool,
    /// The start of the highlighted path.
    pub path_start: bool,
    /// Which step of the path reaches it (1-based), if one does.
    pub path_step: Option<usize>,
    /// For a group: what it stands for.
    pub group: Option<NodeGroup>,
    /// What a screen reader says for it.
    pub aria_label: String,
}

/// How an edge came to be drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum PictureEdgeKind {
    /// `replaces`.
    Replaces,
    /// `skips`.
    Skips,
    /// One `skipRange` edge (fans expanded, or a step of the path).
    SkipRange,
    /// A whole skipRange, drawn once from the newest entry it covers.
    Fan,
}

impl PictureEdgeKind {
    /// The word used in classes and text.
    #[cfg_attr(olm_wasm_size, optimize(size))]
    pub fn as_str(self) -> &'static str {
        match self {
            PictureEdgeKind::Replaces => "replaces",
            PictureEdgeKind::Skips => "skips",
            PictureEdgeKind::SkipRange => "skipRange",
            PictureEdgeKind::Fan => "fan",
        }
    }
}

impl From<EdgeKind> for PictureEdgeKind {
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn from(k: EdgeKind) -> PictureEdgeKind {
        match k {
            EdgeKind::Replaces => PictureEdgeKind::Replaces,
            EdgeKind::Skips => PictureEdgeKind::Skips,
            EdgeKind::SkipRange => PictureEdgeKind::SkipRange,
        }
    }
}

/// An edge, routed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PictureEdge {
    /// The source node's id (the older bundle).
    pub from: String,
    /// The target node's id (the newer bundle).
    pub to: String,
    /// What it is.
    pub kind: PictureEdgeKind,
    /// A step of the highlighted path.
    pub on_path: bool,
    /// Runs against the versions (part of a cycle).
    pub reversed: bool,
    /// For a fan: the skipRange as written.
    pub range: Option<String>,
    /// For a fan: how many entries it covers.
    pub covers: Option<usize>,
    /// A short text to show beside it (fans: the range and count).
    pub label: Option<String>,
    /// The route, from the source's side to the target's side.
    pub points: Vec<Point>,
    /// The route as an SVG path.
    pub d: String,
}

/// The highlighted path.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PicturePath {
    /// The start, as given.
    pub from: String,
    /// The head, if the channel has one.
    pub to: Option<String>,
    /// The steps, as `path` gives them.
    pub steps: Vec<Step>,
    /// No path reaches the head.
    pub stranded: bool,
    /// Why, when stranded.
    pub reason: Option<String>,
    /// One line per step: `a → b (replaces)`.
    pub lines: Vec<String>,
    /// One sentence: how many upgrades reach the head, or why none do.
    pub summary: String,
}

/// A channel graph, laid out.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Picture {
    /// The package.
    pub package: String,
    /// The channel drawn.
    pub channel: String,
    /// The channel is the package's default.
    pub is_default_channel: bool,
    /// The channel head, if it has exactly one.
    pub head: Option<String>,
    /// Whose rules the path follows.
    pub semantics: Semantics,
    /// Which way versions run.
    pub direction: Direction,
    /// Canvas width (draw at 1:1; never scale up).
    pub width: f64,
    /// Canvas height.
    pub height: f64,
    /// Nodes, oldest version first.
    pub nodes: Vec<PictureNode>,
    /// Edges.
    pub edges: Vec<PictureEdge>,
    /// The highlighted path, when a start was given.
    pub path: Option<PicturePath>,
    /// A one-line title.
    pub title: String,
    /// A description for screen readers: size, head, the path in words.
    pub description: String,
    /// What was simplified and why (fans not expanded, runs collapsed).
    pub notes: Vec<String>,
    /// Nodes of the channel graph before collapsing.
    pub graph_nodes: usize,
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
#[cfg_attr(olm_wasm_size, optimize(size))]
pub fn graph_picture(model: &Model, options: &PictureOptions) -> Result<Picture, PictureError> {
    let p = model.package(&options.package).ok_or_else(|| PictureError::UnknownPackage(options.package.clone()))?;
    let c = pick_channel(p, options.channel.as_deref())?;
    let mut g = ChannelGraph::new(p, c);
    let mut notes = Vec::new();
    if options.expand_fans && !g.fans.is_empty() {
        if let Err(e) = g.expand_ranges(options.fan_budget) {
            notes.push(format!(
                "skipRanges drawn as fans: expanding them would draw {} edges, more than {}",
                thousands(e.edges),
                thousands(e.budget)
            ));
        }
    }
    let path = match &options.from {
        Some(start) => Some(path_or_stranded(p, c, start, options.semantics, g.head.clone())?),
        None => None,
    };
    let draft = Draft::new(p, c, &g, path.as_ref());
    let groups = if options.collapse && g.nodes.len() >= COLLAPSE_THRESHOLD {
        draft.z_stream_runs(&options.expand)
    } else {
        Vec::new()
    };
    if !groups.is_empty() {
        let members: usize = groups.iter().map(|r| r.len()).sum();
        notes.push(format!(
            "{} versions collapsed into {} z-stream group{}",
            thousands(members),
            thousands(groups.len()),
            if groups.len() == 1 { "" } else { "s" }
        ));
    }
    let picture = draft.draw(&groups, options, notes, path)?;
    Ok(picture)
}

/// The path from `start`; a channel OLM v0 cannot order gives a stranded path with the
/// resolver's reason (the picture is still drawn), an unknown start an error.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn path_or_stranded(
    p: &Package,
    c: &Channel,
    start: &Start,
    semantics: Semantics,
    head: Option<String>,
) -> Result<UpgradePath, PictureError> {
    match upgrade_path(p, c, start, semantics) {
        Ok(path) => Ok(path),
        Err(PathError::Order(reason)) => {
            let from = match start {
                Start::Bundle(b) | Start::Installed { name: b, .. } => b.clone(),
                Start::Version(v) => v.to_string(),
            };
            Ok(UpgradePath {
                from: from.into(),
                to: head.map(Into::into),
                steps: Vec::new(),
                stranded: true,
                reason: Some(reason),
            })
        }
        Err(e) => Err(PictureError::Path(e)),
    }
}

/// The channel `name`, else the default channel, else the first.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn pick_channel<'a>(p: &'a Package, name: Option<&str>) -> Result<&'a Channel, PictureError> {
    match name {
        Some(n) => {
            p.channel(n).ok_or_else(|| PictureError::UnknownChannel { package: p.name.clone(), channel: n.to_string() })
        }
        None => p.default_channel().or(p.channels.first()).ok_or_else(|| PictureError::NoChannels(p.name.clone())),
    }
}

/// An edge between graph nodes (indexes into `ChannelGraph::nodes`).
#[derive(Debug, Clone)]
struct DraftEdge {
    from: usize,
    to: usize,
    kind: PictureEdgeKind,
    on_path: bool,
    range: Option<String>,
    covers: Option<usize>,
}

/// The graph's nodes and the edges to draw between them, before collapsing and layout.
struct Draft<'g> {
    g: &'g ChannelGraph,
    edges: Vec<DraftEdge>,
    /// (major, minor) of every node with a known version.
    minor: Vec<Option<(u64, u64)>>,
    /// Position in `g.by_version`.
    position: Vec<Option<usize>>,
    /// On the path (start included), and which step reaches it.
    on_path: Vec<bool>,
    step: Vec<Option<usize>>,
    start: Option<usize>,
}

impl<'g> Draft<'g> {
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn new(p: &Package, c: &Channel, g: &'g ChannelGraph, path: Option<&UpgradePath>) -> Draft<'g> {
        let n = g.nodes.len();
        let mut index: HashMap<&str, usize> = HashMap::new();
        for (i, node) in g.nodes.iter().enumerate() {
            index.entry(node.name.as_str()).or_insert(i);
        }
        let minor = (0..n)
            .map(|i| {
                let bundle = if i < c.entries.len() {
                    c.entries[i].bundle.and_then(|b| p.bundles.get(b))
                } else {
                    p.bundle(&g.nodes[i].name)
                };
                bundle.and_then(|b| b.version.as_ref()).map(|v| (v.major(), v.minor()))
            })
            .collect();
        let mut position = vec![None; n];
        for (k, &i) in g.by_version.iter().enumerate() {
            if let Some(slot) = position.get_mut(i) {
                *slot = Some(k);
            }
        }
        let mut edges: Vec<DraftEdge> = g
            .edges
            .iter()
            .filter_map(|e| {
                Some(DraftEdge {
                    from: *index.get(e.from.as_str())?,
                    to: *index.get(e.to.as_str())?,
                    kind: e.kind.into(),
                    on_path: false,
                    range: None,
                    covers: None,
                })
            })
            .collect();
        for fan in &g.fans {
            let Some(&to) = index.get(fan.to.as_str()) else { continue };
            // The newest entry the range covers, other than its own entry.
            let newest = fan
                .runs
                .iter()
                .rev()
                .flat_map(|&[s, e]| g.by_version.get(s..e).unwrap_or_default().iter().rev())
                .find(|&&i| i != to);
            if let Some(&from) = newest {
                edges.push(DraftEdge {
                    from,
                    to,
                    kind: PictureEdgeKind::Fan,
                    on_path: false,
                    range: Some(fan.range.clone()),
                    covers: Some(fan.count),
                });
            }
        }
        let mut d = Draft { g, edges, minor, position, on_path: vec![false; n], step: vec![None; n], start: None };
        if let Some(path) = path {
            d.mark_path(path, &index);
        }
        d
    }

    /// Mark the path's nodes and edges; draw a skipRange step no drawn edge stands for.
    /// A start that is a bare version (`1.2.0`, in no channel as a name) starts at the entry
    /// with that version, if there is one.
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn mark_path(&mut self, path: &UpgradePath, index: &HashMap<&str, usize>) {
        let start = index
            .get(&*path.from)
            .copied()
            .or_else(|| self.g.nodes.iter().position(|n| !n.is_virtual && n.version.as_deref() == Some(&*path.from)));
        if let Some(s) = start {
            self.on_path[s] = true;
            self.start = Some(s);
        }
        for (k, step) in path.steps.iter().enumerate() {
            let Some(&to) = index.get(&*step.to) else { continue };
            self.on_path[to] = true;
            self.step[to].get_or_insert(k + 1);
            let from = index.get(&*step.from).copied().or(start.filter(|_| step.from == path.from));
            let Some(from) = from else { continue };
            let kind: PictureEdgeKind = step.edge.into();
            match self.edges.iter_mut().find(|e| e.from == from && e.to == to && e.kind == kind) {
                Some(e) => e.on_path = true,
                None => self.edges.push(DraftEdge { from, to, kind, on_path: true, range: None, covers: None }),
            }
        }
    }

    /// Runs of z-stream releases to collapse, each a list of node indexes in version order.
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn z_stream_runs(&self, keep: &[String]) -> Vec<Vec<usize>> {
        let n = self.g.nodes.len();
        let mut ins: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for e in &self.edges {
            outs[e.from].push(e.to);
            ins[e.to].push(e.from);
        }
        let order = &self.g.by_version;
        // A path longer than PATH_KEPT_EXPANDED nodes may collapse too, in runs wholly on it.
        let keep_path = self.on_path.iter().filter(|&&on| on).count() <= PATH_KEPT_EXPANDED;
        let eligible = |i: usize| {
            let node = &self.g.nodes[i];
            let kept = node.is_virtual || node.head || self.start == Some(i) || (keep_path && self.on_path[i]);
            !kept && self.minor[i].is_some()
        };
        let pos = |i: usize| self.position[i];
        let mut runs = Vec::new();
        // Work is bounded: a scan that fails is restarted after the last closed run, at most
        // `budget` node visits in all; past it, the rest stays expanded.
        let mut budget = 4 * (n + self.edges.len()) + 16;
        let mut a = 0;
        while a < order.len() && budget > 0 {
            if !eligible(order[a]) {
                a += 1;
                continue;
            }
            let mut closed = a;
            // The furthest position the run's members (but the newest) lead to.
            let mut need = outs[order[a]].iter().filter_map(|&t| pos(t)).max().unwrap_or(a);
            let mut leaves = outs[order[a]].iter().any(|&t| pos(t).is_none_or(|p| p < a));
            let mut b = a + 1;
            while b < order.len() && budget > 0 {
                budget -= 1;
                let (prev, v) = (order[b - 1], order[b]);
                let inside = |i: usize| pos(i).is_some_and(|p| p >= a && p < b);
                let joined = eligible(v)
                    && self.minor[v] == self.minor[order[a]]
                    && self.on_path[v] == self.on_path[order[a]]
                    && ins[v].iter().all(|&s| inside(s))
                    && (!ins[v].is_empty() || (ins[prev].is_empty() && outs[prev].is_empty() && outs[v].is_empty()))
                    && !leaves;
                if !joined {
                    break;
                }
                if need <= b {
                    closed = b;
                }
                need = need.max(outs[v].iter().filter_map(|&t| pos(t)).max().unwrap_or(b));
                leaves |= outs[v].iter().any(|&t| pos(t).is_none_or(|p| p < a));
                b += 1;
            }
            if closed - a + 1 >= 3 {
                let run: Vec<usize> = order[a..=closed].to_vec();
                let id = group_id(&self.g.nodes[run[0]].name);
                if !keep.contains(&id) {
                    runs.push(run);
                }
            }
            a = closed + 1;
        }
        runs
    }

    /// Collapse `groups`, lay out, and describe.
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn draw(
        &self,
        groups: &[Vec<usize>],
        options: &PictureOptions,
        notes: Vec<String>,
        path: Option<UpgradePath>,
    ) -> Result<Picture, PictureError> {
        let g = self.g;
        let n = g.nodes.len();
        // Drawn nodes: graph nodes oldest first (unversioned and virtual ones before the rest),
        // a group in place of its members.
        let mut group_of = vec![None; n];
        for (k, run) in groups.iter().enumerate() {
            for &i in run {
                group_of[i] = Some(k);
            }
        }
        let mut listed: Vec<usize> = (0..n).filter(|&i| self.position[i].is_none()).collect();
        listed.extend(g.by_version.iter().copied().filter(|&i| i < n));
        let mut drawn_of = vec![usize::MAX; n];
        let mut nodes: Vec<PictureNode> = Vec::new();
        let mut ids: HashSet<String> = HashSet::new();
        for i in listed {
            match group_of[i] {
                Some(k) if groups[k][0] != i => continue,
                Some(k) => {
                    for &m in &groups[k] {
                        drawn_of[m] = nodes.len();
                    }
                    nodes.push(self.group_node(&groups[k]));
                }
                None => {
                    drawn_of[i] = nodes.len();
                    nodes.push(self.node(i, &mut ids));
                }
            }
        }
        let edges: Vec<&DraftEdge> =
            self.edges.iter().filter(|e| group_of[e.from].is_none() || group_of[e.from] != group_of[e.to]).collect();
        if nodes.len() > MAX_PICTURE_NODES || edges.len() > MAX_PICTURE_EDGES {
            return Err(PictureError::TooLarge { nodes: nodes.len(), edges: edges.len() });
        }
        let layout_edges: Vec<LayoutEdge> =
            edges.iter().map(|e| LayoutEdge { from: drawn_of[e.from], to: drawn_of[e.to] }).collect();
        let boxes: Vec<LayoutNode> = nodes.iter().map(|n| LayoutNode { width: n.width, height: n.height }).collect();
        let opts = LayoutOptions { direction: options.direction, ..LayoutOptions::default() };
        let l = layout(&boxes, &layout_edges, &opts);
        for (node, b) in nodes.iter_mut().zip(&l.nodes) {
            node.x = b.x;
            node.y = b.y;
        }
        let picture_edges = edges
            .iter()
            .zip(l.edges)
            .map(|(e, route)| PictureEdge {
                from: nodes[drawn_of[e.from]].id.clone(),
                to: nodes[drawn_of[e.to]].id.clone(),
                kind: e.kind,
                on_path: e.on_path,
                reversed: route.reversed,
                range: e.range.clone(),
                covers: e.covers,
                label: e.range.as_ref().map(|r| format!("{} ({})", r, thousands(e.covers.unwrap_or(0)))),
                d: path_d(&route.points, options.direction),
                points: route.points,
            })
            .collect();
        let path = path.map(picture_path);
        let title = format!("Upgrade graph of {}, channel {}", g.package, g.channel);
        let description = describe(g, &nodes, path.as_ref());
        Ok(Picture {
            package: g.package.clone(),
            channel: g.channel.clone(),
            is_default_channel: g.is_default,
            head: g.head.clone(),
            semantics: options.semantics,
            direction: options.direction,
            width: l.width,
            height: l.height,
            nodes,
            edges: picture_edges,
            path,
            title,
            description,
            notes,
            graph_nodes: n,
        })
    }

    /// The drawn node of graph node `i`, with an id not in `ids`.
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn node(&self, i: usize, ids: &mut HashSet<String>) -> PictureNode {
        let node = &self.g.nodes[i];
        let mut id = node.name.clone();
        let mut k = 1;
        while ids.contains(&id) {
            k += 1;
            id = format!("{}#{k}", node.name);
        }
        ids.insert(id.clone());
        let (label, sublabel) = match &node.version {
            Some(v) => (shorten(v, 30), Some(shorten_name(&node.name, 30))),
            None => (shorten_name(&node.name, 30), node.is_virtual.then(|| "not in this channel".to_string())),
        };
        let mut picture = PictureNode {
            id,
            kind: if node.is_virtual { NodeKind::Virtual } else { NodeKind::Bundle },
            name: node.name.clone(),
            version: node.version.clone(),
            label,
            sublabel,
            x: 0.0,
            y: 0.0,
            width: 0.0,
            height: 0.0,
            head: node.head,
            deprecated: node.deprecated.clone(),
            skipped: node.skipped,
            stranded: node.stranded && !node.is_virtual,
            on_path: self.on_path[i],
            path_start: self.start == Some(i),
            path_step: self.step[i],
            group: None,
            aria_label: String::new(),
        };
        size(&mut picture);
        picture.aria_label = aria_label(&picture);
        picture
    }

    /// The drawn node of a collapsed run (graph node indexes, oldest first).
    #[cfg_attr(olm_wasm_size, optimize(size))]
    fn group_node(&self, run: &[usize]) -> PictureNode {
        let (first, last) = (&self.g.nodes[run[0]], &self.g.nodes[run[run.len() - 1]]);
        let versions = match (&first.version, &last.version) {
            (Some(a), Some(b)) => format!("{a} – {b}"),
            _ => format!("{} – {}", first.name, last.name),
        };
        let deprecated = run.iter().filter(|&&i| self.g.nodes[i].deprecated.is_some()).count();
        let mut picture = PictureNode {
            id: group_id(&first.name),
            kind: NodeKind::Group,
            name: first.name.clone(),
            version: Some(versions.clone()),
            label: format!("{versions} ({})", thousands(run.len())),
            sublabel: Some(format!("{} z-stream releases", thousands(run.len()))),
            x: 0.0,
            y: 0.0,
            width: 0.0,
            height: 0.0,
            head: false,
            deprecated: None,
            skipped: run.iter().all(|&i| self.g.nodes[i].skipped),
            stranded: run.iter().all(|&i| self.g.nodes[i].stranded),
            on_path: run.iter().all(|&i| self.on_path[i]),
            path_start: false,
            path_step: None,
            group: Some(NodeGroup { count: run.len(), first: first.name.clone(), last: last.name.clone(), deprecated }),
            aria_label: String::new(),
        };
        size(&mut picture);
        picture.aria_label = aria_label(&picture);
        picture
    }
}

/// A group's id: `group:` and its oldest member's name.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn group_id(first: &str) -> String {
    format!("group:{first}")
}

/// `text` cut to `max` characters with an ellipsis.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// A bundle name cut to `max` characters in the middle, so that its end (the version, which
/// tells siblings apart) stays.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn shorten_name(text: &str, max: usize) -> String {
    let n = text.chars().count();
    if n <= max {
        return text.to_string();
    }
    let tail = (max - 1) * 2 / 3;
    let head = max - 1 - tail;
    let mut s: String = text.chars().take(head).collect();
    s.push('…');
    s.extend(text.chars().skip(n - tail));
    s
}

/// An estimate of how wide `text` is at `size` pixels (sans-serif): the layout and the SVG
/// renderer agree on it, no font needed.
#[cfg_attr(olm_wasm_size, optimize(size))]
pub(crate) fn text_width(text: &str, size: f64) -> f64 {
    text.chars()
        .map(|c| match c {
            'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | ' ' => 0.3,
            'm' | 'w' | 'M' | 'W' => 0.85,
            c if c.is_ascii_uppercase() || c.is_ascii_digit() => 0.64,
            c if c.is_ascii() => 0.55,
            c if (c as u32) >= 0x1100 => 1.05,
            _ => 0.65,
        })
        .sum::<f64>()
        * size
}

/// The width of a node's first line (bold, so a little wider than [`text_width`] says).
#[cfg_attr(olm_wasm_size, optimize(size))]
pub(crate) fn label_width(text: &str) -> f64 {
    text_width(text, LABEL_SIZE) * 1.15
}

/// Font sizes and paddings the SVG renderer uses.
pub(crate) const LABEL_SIZE: f64 = 13.0;
pub(crate) const SUBLABEL_SIZE: f64 = 11.0;
pub(crate) const BADGE_SIZE: f64 = 9.5;
const PAD: f64 = 12.0;

/// The badges drawn after a node's label.
#[cfg_attr(olm_wasm_size, optimize(size))]
pub(crate) fn badges(n: &PictureNode) -> Vec<&'static str> {
    let mut b = Vec::new();
    if n.head {
        b.push("head");
    }
    if n.deprecated.is_some() {
        b.push("deprecated");
    }
    b
}

/// A badge's width.
#[cfg_attr(olm_wasm_size, optimize(size))]
pub(crate) fn badge_width(text: &str) -> f64 {
    text_width(text, BADGE_SIZE) + 10.0
}

/// Size a node to its text.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn size(n: &mut PictureNode) {
    let badges: f64 = badges(n).iter().map(|b| badge_width(b) + 4.0).sum();
    let line1 = label_width(&n.label) + badges;
    let line2 = n.sublabel.as_deref().map_or(0.0, |s| text_width(s, SUBLABEL_SIZE));
    n.width = (line1.max(line2) + 2.0 * PAD).clamp(72.0, 320.0).ceil();
    n.height = if n.sublabel.is_some() { 44.0 } else { 30.0 };
}

/// What a screen reader says for a node.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn aria_label(n: &PictureNode) -> String {
    let mut parts = vec![match (&n.kind, &n.version) {
        (NodeKind::Group, Some(v)) => {
            format!("{} z-stream releases, {v}, collapsed", thousands(n.group.as_ref().map_or(0, |g| g.count)))
        }
        (_, Some(v)) => format!("{}, version {v}", n.name),
        (_, None) => n.name.clone(),
    }];
    if n.kind == NodeKind::Virtual {
        parts.push("not in this channel".into());
    }
    if n.head {
        parts.push("channel head".into());
    }
    if let Some(d) = &n.deprecated {
        parts.push(if d.is_empty() { "deprecated".into() } else { format!("deprecated: {}", shorten(d, 200)) });
    }
    if n.skipped {
        parts.push("skipped".into());
    }
    if n.stranded {
        parts.push("stranded: no upgrade path to the head".into());
    }
    if n.path_start {
        parts.push("start of the upgrade path".into());
    } else if let Some(s) = n.path_step {
        parts.push(format!("step {s} of the upgrade path"));
    } else if n.on_path {
        parts.push("on the upgrade path".into());
    }
    parts.join(", ")
}

/// The path with its text.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn picture_path(up: UpgradePath) -> PicturePath {
    let lines = up.steps.iter().map(|s| format!("{} → {} ({})", s.from, s.to, s.edge.as_str())).collect();
    let head = up.to.as_deref().unwrap_or("(no head)");
    let summary = if up.stranded {
        format!("Stranded: no path from {} to {head}: {}", up.from, up.reason.as_deref().unwrap_or(""))
    } else if up.steps.is_empty() {
        format!("{} is the head of the channel", up.from)
    } else {
        let n = up.steps.len();
        format!("{n} upgrade{} from {} to reach {head}", if n == 1 { "" } else { "s" }, up.from)
    };
    PicturePath {
        from: up.from.to_string(),
        to: up.to.map(|h| h.to_string()),
        steps: up.steps,
        stranded: up.stranded,
        reason: up.reason,
        lines,
        summary,
    }
}

/// The description: size, head, the path in words.
#[cfg_attr(olm_wasm_size, optimize(size))]
fn describe(g: &ChannelGraph, nodes: &[PictureNode], path: Option<&PicturePath>) -> String {
    let versions = g.nodes.iter().filter(|n| !n.is_virtual).count();
    let mut d = format!(
        "{} version{} in channel {} of package {}",
        thousands(versions),
        if versions == 1 { "" } else { "s" },
        g.channel,
        g.package
    );
    match &g.head {
        Some(h) => d.push_str(&format!("; head {h}")),
        None => d.push_str("; no single head"),
    }
    let groups = nodes.iter().filter(|n| n.kind == NodeKind::Group).count();
    if groups > 0 {
        d.push_str(&format!("; {} collapsed group{}", thousands(groups), if groups == 1 { "" } else { "s" }));
    }
    d.push('.');
    if let Some(p) = path {
        d.push(' ');
        d.push_str(&p.summary);
        if !p.steps.is_empty() {
            d.push_str(": ");
            let mut names = vec![p.from.as_str()];
            names.extend(p.steps.iter().map(|s| &*s.to));
            d.push_str(&names.join(" → "));
        }
        d.push('.');
    }
    d
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
        o.expand_fans = true;
        let p = picture(&m, &o);
        assert_eq!(p.edges.iter().filter(|e| e.kind == PictureEdgeKind::SkipRange).count(), 3);
        o.fan_budget = 2;
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
        o.semantics = Semantics::V1;
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
        o.expand = vec!["group:foo.v1.0.0".into()];
        assert_eq!(picture(&m, &o).nodes.len(), 60 + 2);
        o.collapse = false;
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
        assert_eq!(shorten_name("local-storage-operator.v4.17.0-202406210743", 30), "local-stor…4.17.0-202406210743");
        assert!(p.nodes[0].width <= 320.0);
    }
}
