//! A channel's upgrade graph as a picture ([`Picture`]): what to draw and where, computed once so
//! that the SVG export ([`crate::picture_svg`]), the site and the `<olm-upgrade-graph>` element
//! (which read the same value through the wasm bindings) all look the same.
//!
//! The input is a [`Draft`]: the channel graph's nodes and the edges to draw between them (each
//! skipRange fan as one edge, the highlighted path marked), which olm-catalog builds from a
//! catalog (`olm_catalog::graph::picture_draft`). [`draw`] then, in graphs of
//! [`COLLAPSE_THRESHOLD`] nodes or more, collapses runs of z-stream releases (same major.minor,
//! next to each other in version order, three or more, entered only at the oldest, left only
//! from the newest) into one group node `1.2.0 – 1.2.9 (10)`, unless its id is in
//! [`Draft::expand`]; the head, the path's start and the path's nodes are never collapsed
//! (unless the path itself has more than [`PATH_KEPT_EXPANDED`] nodes: then runs wholly on it
//! are, drawn as groups on the path). It sizes the nodes to their text, lays them out with
//! [`crate::layout`] (nodes listed oldest version first, so ranks run from the oldest version
//! to the head), routes the edges and writes the text for screen readers.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::layout::{layout, path_d, Direction, LayoutEdge, LayoutNode, LayoutOptions, Point};
use crate::text::thousands;
use crate::vocabulary::{EdgeKind, Semantics, Step};

/// Graphs with at least this many nodes have their z-stream runs collapsed.
pub const COLLAPSE_THRESHOLD: usize = 100;

/// A highlighted path with at most this many nodes is never collapsed; a longer one may be, in
/// runs wholly on the path (drawn as groups on the path).
pub const PATH_KEPT_EXPANDED: usize = 500;

/// The most nodes a picture may have once collapsed.
pub const MAX_PICTURE_NODES: usize = 10_000;

/// The most edges a picture may have once collapsed.
pub const MAX_PICTURE_EDGES: usize = 50_000;

/// Even collapsed, the picture would be too large to draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    /// Nodes it would have.
    pub nodes: usize,
    /// Edges it would have.
    pub edges: usize,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the picture would have {} nodes and {} edges even with z-stream runs collapsed, more than the budget of {} nodes and {} edges",
            thousands(self.nodes),
            thousands(self.edges),
            thousands(MAX_PICTURE_NODES),
            thousands(MAX_PICTURE_EDGES)
        )
    }
}

impl std::error::Error for TooLarge {}

/// What a node stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// How a typed version was read (the bundle it is the version of, or that no bundle has it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
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

/// A node of the channel graph, to draw: an entry of the channel, or a `replaces`/`skips` target
/// that is not one ("virtual").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftNode {
    /// The bundle (entry) name.
    pub name: String,
    /// The bundle's version, when known.
    pub version: Option<String>,
    /// Not an entry of the channel.
    #[serde(rename = "virtual")]
    pub is_virtual: bool,
    /// The channel head.
    pub head: bool,
    /// The deprecation message, if deprecated.
    pub deprecated: Option<String>,
    /// Some entry skips it.
    pub skipped: bool,
    /// OLM v0 has no path from it to the head.
    pub stranded: bool,
    /// Its version's major.minor, as a number shared by the nodes of the same major.minor (only
    /// equality counts), when the version is known: z-stream runs keep to one.
    pub minor: Option<usize>,
    /// On the highlighted path (its start included).
    pub on_path: bool,
    /// Which step of the path reaches it (1-based), if one does.
    pub step: Option<usize>,
}

/// An edge to draw between draft nodes (indexes into [`Draft::nodes`]), older to newer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DraftEdge {
    /// The older node.
    pub from: usize,
    /// The newer node.
    pub to: usize,
    /// What it is.
    pub kind: PictureEdgeKind,
    /// A step of the highlighted path.
    pub on_path: bool,
    /// For a fan: the skipRange as written.
    pub range: Option<String>,
    /// For a fan: how many entries it covers.
    pub covers: Option<usize>,
}

/// What to draw, before collapsing and layout: a channel graph's nodes, the edges between them
/// (each skipRange fan as one edge, the path's steps marked), the path, and how to draw it.
/// Plain data: the browsers' core module builds it from a catalog, their picture module draws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// The channel is the package's default.
    pub is_default_channel: bool,
    /// The channel head, if it has exactly one.
    pub head: Option<String>,
    /// The nodes: the channel's entries in channel order, then virtual nodes.
    pub nodes: Vec<DraftNode>,
    /// Indexes into `nodes` of the nodes with a version, ascending by version.
    pub by_version: Vec<usize>,
    /// The edges to draw.
    pub edges: Vec<DraftEdge>,
    /// The path's start, when it is a node.
    pub start: Option<usize>,
    /// The highlighted path, when a start was given.
    pub path: Option<PicturePath>,
    /// Whose rules the path follows.
    pub semantics: Semantics,
    /// Which way the versions run.
    pub direction: Direction,
    /// Collapse z-stream runs in graphs of [`COLLAPSE_THRESHOLD`] nodes or more.
    pub collapse: bool,
    /// Ids of groups to keep expanded (`group:` and the oldest member's name).
    pub expand: Vec<String>,
    /// What was simplified so far, and why (fans not expanded).
    pub notes: Vec<String>,
}

impl Draft {
    /// Why the draft cannot be drawn: an index out of range (a draft built by hand, or by JS).
    pub fn check(&self) -> Result<(), String> {
        let n = self.nodes.len();
        if let Some((k, e)) = self.edges.iter().enumerate().find(|(_, e)| e.from >= n || e.to >= n) {
            return Err(format!("edges[{k}] joins {} and {}, but there are {n} nodes", e.from, e.to));
        }
        if let Some(i) = self.by_version.iter().chain(&self.start).find(|&&i| i >= n) {
            return Err(format!("node {i} is out of range: there are {n} nodes"));
        }
        Ok(())
    }
}

/// Collapse, lay out and describe `draft` (see the module's documentation); an error when even
/// collapsed it has more than [`MAX_PICTURE_NODES`] nodes or [`MAX_PICTURE_EDGES`] edges.
///
/// # Panics
///
/// When an index of `draft` is out of range ([`Draft::check`] says which).
pub fn draw(draft: &Draft) -> Result<Picture, TooLarge> {
    let d = Drawing::new(draft);
    let groups = if draft.collapse && draft.nodes.len() >= COLLAPSE_THRESHOLD {
        d.z_stream_runs(&draft.expand)
    } else {
        Vec::new()
    };
    let mut notes = draft.notes.clone();
    if !groups.is_empty() {
        let members: usize = groups.iter().map(|r| r.len()).sum();
        notes.push(format!(
            "{} versions collapsed into {} z-stream group{}",
            thousands(members),
            thousands(groups.len()),
            if groups.len() == 1 { "" } else { "s" }
        ));
    }
    d.draw(&groups, notes)
}

/// A draft with each node's position in version order.
struct Drawing<'g> {
    g: &'g Draft,
    /// Position in `g.by_version`.
    position: Vec<Option<usize>>,
}

impl<'g> Drawing<'g> {
    fn new(g: &'g Draft) -> Drawing<'g> {
        let mut position = vec![None; g.nodes.len()];
        for (k, &i) in g.by_version.iter().enumerate() {
            if let Some(slot) = position.get_mut(i) {
                *slot = Some(k);
            }
        }
        Drawing { g, position }
    }

    fn z_stream_runs(&self, keep: &[String]) -> Vec<Vec<usize>> {
        let n = self.g.nodes.len();
        let mut ins: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut outs: Vec<Vec<usize>> = vec![Vec::new(); n];
        for e in &self.g.edges {
            outs[e.from].push(e.to);
            ins[e.to].push(e.from);
        }
        let order = &self.g.by_version;
        // A path longer than PATH_KEPT_EXPANDED nodes may collapse too, in runs wholly on it.
        let keep_path = self.g.nodes.iter().filter(|n| n.on_path).count() <= PATH_KEPT_EXPANDED;
        let eligible = |i: usize| {
            let node = &self.g.nodes[i];
            let kept = node.is_virtual || node.head || self.g.start == Some(i) || (keep_path && node.on_path);
            !kept && self.g.nodes[i].minor.is_some()
        };
        let pos = |i: usize| self.position[i];
        let mut runs = Vec::new();
        // Work is bounded: a scan that fails is restarted after the last closed run, at most
        // `budget` node visits in all; past it, the rest stays expanded.
        let mut budget = 4 * (n + self.g.edges.len()) + 16;
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
                    && self.g.nodes[v].minor == self.g.nodes[order[a]].minor
                    && self.g.nodes[v].on_path == self.g.nodes[order[a]].on_path
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

    /// The drawn nodes: graph nodes oldest first (unversioned and virtual ones before the rest),
    /// a group in place of its members; with each graph node's drawn node and group.
    fn drawn_nodes(&self, groups: &[Vec<usize>]) -> (Vec<PictureNode>, Vec<usize>, Vec<Option<usize>>) {
        let g = self.g;
        let n = g.nodes.len();
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
        let mut ids: BTreeSet<String> = BTreeSet::new();
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
        (nodes, drawn_of, group_of)
    }

    /// Collapse `groups`, lay out, and describe.
    fn draw(&self, groups: &[Vec<usize>], notes: Vec<String>) -> Result<Picture, TooLarge> {
        let g = self.g;
        let n = g.nodes.len();
        let (mut nodes, drawn_of, group_of) = self.drawn_nodes(groups);
        let edges: Vec<&DraftEdge> =
            g.edges.iter().filter(|e| group_of[e.from].is_none() || group_of[e.from] != group_of[e.to]).collect();
        if nodes.len() > MAX_PICTURE_NODES || edges.len() > MAX_PICTURE_EDGES {
            return Err(TooLarge { nodes: nodes.len(), edges: edges.len() });
        }
        let layout_edges: Vec<LayoutEdge> =
            edges.iter().map(|e| LayoutEdge { from: drawn_of[e.from], to: drawn_of[e.to] }).collect();
        let boxes: Vec<LayoutNode> = nodes.iter().map(|n| LayoutNode { width: n.width, height: n.height }).collect();
        let opts = LayoutOptions { direction: g.direction, ..LayoutOptions::default() };
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
                d: path_d(&route.points, g.direction),
                points: route.points,
            })
            .collect();
        let path = g.path.clone();
        let title = format!("Upgrade graph of {}, channel {}", g.package, g.channel);
        let description = describe(g, &nodes, path.as_ref());
        Ok(Picture {
            package: g.package.clone(),
            channel: g.channel.clone(),
            is_default_channel: g.is_default_channel,
            head: g.head.clone(),
            semantics: g.semantics,
            direction: g.direction,
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
    fn node(&self, i: usize, ids: &mut BTreeSet<String>) -> PictureNode {
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
            on_path: node.on_path,
            path_start: self.g.start == Some(i),
            path_step: node.step,
            group: None,
            aria_label: String::new(),
        };
        size(&mut picture);
        picture.aria_label = aria_label(&picture);
        picture
    }

    /// The drawn node of a collapsed run (graph node indexes, oldest first).
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
            on_path: run.iter().all(|&i| self.g.nodes[i].on_path),
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
fn group_id(first: &str) -> String {
    format!("group:{first}")
}

/// `text` cut to `max` characters with an ellipsis.
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
pub(crate) fn label_width(text: &str) -> f64 {
    text_width(text, LABEL_SIZE) * 1.15
}

/// Font sizes and paddings the SVG renderer uses.
pub(crate) const LABEL_SIZE: f64 = 13.0;
pub(crate) const SUBLABEL_SIZE: f64 = 11.0;
pub(crate) const BADGE_SIZE: f64 = 9.5;
const PAD: f64 = 12.0;

/// The badges drawn after a node's label.
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
pub(crate) fn badge_width(text: &str) -> f64 {
    text_width(text, BADGE_SIZE) + 10.0
}

/// Size a node to its text.
fn size(n: &mut PictureNode) {
    let badges: f64 = badges(n).iter().map(|b| badge_width(b) + 4.0).sum();
    let line1 = label_width(&n.label) + badges;
    let line2 = n.sublabel.as_deref().map_or(0.0, |s| text_width(s, SUBLABEL_SIZE));
    n.width = (line1.max(line2) + 2.0 * PAD).clamp(72.0, 320.0).ceil();
    n.height = if n.sublabel.is_some() { 44.0 } else { 30.0 };
}

/// What a screen reader says for a node.
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

/// The description: size, head, the path in words.
fn describe(g: &Draft, nodes: &[PictureNode], path: Option<&PicturePath>) -> String {
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

    fn node(name: &str, version: &str, minor: usize) -> DraftNode {
        DraftNode {
            name: name.into(),
            version: Some(version.into()),
            is_virtual: false,
            head: false,
            deprecated: None,
            skipped: false,
            stranded: false,
            minor: Some(minor),
            on_path: false,
            step: None,
        }
    }

    fn edge(from: usize, to: usize) -> DraftEdge {
        DraftEdge { from, to, kind: PictureEdgeKind::Replaces, on_path: false, range: None, covers: None }
    }

    /// A replaces chain of `n` z-stream releases of 1.0, then 2.0.0 as the head.
    fn chain(n: usize) -> Draft {
        let mut nodes: Vec<DraftNode> =
            (0..n).map(|i| node(&format!("foo.v1.0.{i}"), &format!("1.0.{i}"), 0)).collect();
        nodes.push(node("foo.v2.0.0", "2.0.0", 1));
        nodes[n].head = true;
        Draft {
            package: "foo".into(),
            channel: "stable".into(),
            is_default_channel: true,
            head: Some("foo.v2.0.0".into()),
            by_version: (0..=n).collect(),
            edges: (0..n).map(|i| edge(i, i + 1)).collect(),
            nodes,
            start: None,
            path: None,
            semantics: Semantics::V0,
            direction: Direction::LeftToRight,
            collapse: true,
            expand: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn nodes_are_drawn_oldest_first_with_routes_between_them() {
        let p = draw(&chain(3)).unwrap();
        let ids: Vec<&str> = p.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids, ["foo.v1.0.0", "foo.v1.0.1", "foo.v1.0.2", "foo.v2.0.0"]);
        assert!(p.nodes.windows(2).all(|w| w[0].x < w[1].x));
        assert_eq!(p.edges.len(), 3);
        assert!(p.edges.iter().all(|e| e.d.starts_with('M')));
        assert_eq!(p.description, "4 versions in channel stable of package foo; head foo.v2.0.0.");
    }

    #[test]
    fn large_drafts_collapse_their_z_stream_runs_unless_asked_not_to() {
        let p = draw(&chain(150)).unwrap();
        assert_eq!(p.nodes.len(), 2, "{:?}", p.nodes.iter().map(|n| &n.id).collect::<Vec<_>>());
        assert_eq!(p.nodes[0].kind, NodeKind::Group);
        assert_eq!(p.nodes[0].label, "1.0.0 – 1.0.149 (150)");
        assert_eq!(p.notes, ["150 versions collapsed into 1 z-stream group"]);
        let mut kept = chain(150);
        kept.expand = vec!["group:foo.v1.0.0".into()];
        assert_eq!(draw(&kept).unwrap().nodes.len(), 151);
        kept.collapse = false;
        kept.expand.clear();
        assert_eq!(draw(&kept).unwrap().nodes.len(), 151);
    }

    #[test]
    fn a_draft_with_an_index_out_of_range_is_refused_by_check() {
        let mut d = chain(2);
        assert_eq!(d.check(), Ok(()));
        d.edges.push(edge(0, 9));
        assert_eq!(d.check(), Err("edges[2] joins 0 and 9, but there are 3 nodes".into()));
        let mut d = chain(2);
        d.start = Some(3);
        assert_eq!(d.check(), Err("node 3 is out of range: there are 3 nodes".into()));
    }

    #[test]
    fn too_large_says_the_budget() {
        let e = TooLarge { nodes: 12_000, edges: 3 };
        assert!(e.to_string().contains("12,000 nodes and 3 edges"), "{e}");
    }

    #[test]
    fn node_labels_are_shortened_but_the_name_is_kept() {
        assert_eq!(shorten_name("local-storage-operator.v4.17.0-202406210743", 30), "local-stor…4.17.0-202406210743");
        assert_eq!(shorten("a-very-long-version-1.2.3-with-build-metadata", 10), "a-very-lo…");
    }
}
