//! The plain-data half of building a [`Draft`]: marking the highlighted path on a draft
//! ([`mark_path`]) and the path's text ([`picture_path`]). They need no catalog, only the names
//! and steps `olm-catalog`'s channel graph and upgrade path already give, so native Rust and the
//! browsers' picture module can share them (issue 15: the core module is to carry no
//! picture-specific code; docs/performance.md, "WebAssembly size").

use std::collections::HashMap;

use serde::Deserialize;

use crate::fans::{Expanded, Shape};
use crate::layout::Direction;
use crate::picture::{Draft, DraftEdge, DraftNode, PictureEdgeKind, PicturePath};
use crate::text::thousands;
use crate::vocabulary::{EdgeKind, Semantics, Step};

/// A channel's graph as plain data, as `olm_catalog::graph::ChannelGraph` gives it (and its
/// `channelGraph` export serializes it): what [`draft`] reads.
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GraphData {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// The channel is the package's default.
    pub is_default: bool,
    /// The channel head, if it has one.
    pub head: Option<String>,
    /// Entries in channel order, then virtual nodes.
    pub nodes: Vec<GraphDataNode>,
    /// The `replaces`, `skips` (and expanded `skipRange`) edges.
    pub edges: Vec<GraphDataEdge>,
    /// Indexes into `nodes` of the entries with a version, ascending by version.
    pub by_version: Vec<usize>,
    /// The `skipRange` edges as ranges, one fan per entry whose range covers another.
    pub fans: Vec<GraphDataFan>,
}

/// A node of [`GraphData`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct GraphDataNode {
    /// The bundle name.
    pub name: String,
    /// Its version (`major.minor.patch`, maybe with a pre-release, build or release suffix).
    pub version: Option<String>,
    /// Not an entry of the channel.
    #[serde(rename = "virtual")]
    pub is_virtual: bool,
    /// The channel head.
    pub head: bool,
    /// The deprecation message, if deprecated.
    pub deprecated: Option<String>,
    /// Skipped by another entry.
    pub skipped: bool,
    /// No upgrade reaches the head from it.
    pub stranded: bool,
}

/// An edge of [`GraphData`], by node names.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GraphDataEdge {
    /// The entry upgraded from.
    pub from: String,
    /// The entry upgraded to.
    pub to: String,
    /// The kind of edge.
    pub kind: EdgeKind,
}

/// A skipRange fan of [`GraphData`].
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct GraphDataFan {
    /// The entry whose skipRange it is.
    pub to: String,
    /// The range, as written.
    pub range: String,
    /// How many entries it covers.
    pub count: usize,
    /// The covered entries: half-open runs of positions in `by_version`.
    pub runs: Vec<[usize; 2]>,
}

/// The most skipRange edges a picture draws when asked to expand its fans.
pub const FAN_EXPANSION_BUDGET: usize = 2_000;

impl GraphData {
    /// How many upgrade edges the graph has, each fan counted as the edges it stands for.
    pub fn edge_count(&self) -> usize {
        self.edges.len() + self.fans.iter().map(|f| f.count).sum::<usize>()
    }

    /// Turn the fans into `skipRange` edges ([`fans`](crate::fans): after each entry's explicit
    /// edges, one from each entry its range covers), if there are at most `budget` edges then;
    /// otherwise nothing changes and the error is how many there would be.
    pub fn expand_fans(&mut self, budget: usize) -> Result<(), usize> {
        let total = self.edge_count();
        if total > budget {
            return Err(total);
        }
        let shape = Shape {
            nodes: self.nodes.iter().map(|n| (n.name.as_str(), n.is_virtual)).collect(),
            edge_targets: self.edges.iter().map(|e| e.to.as_str()).collect(),
            fans: self.fans.iter().map(|f| (f.to.as_str(), &f.runs[..])).collect(),
            by_version: &self.by_version,
        };
        let edges = shape
            .expansion()
            .into_iter()
            .map(|e| match e {
                Expanded::Edge(k) => self.edges[k].clone(),
                Expanded::Fan { fan, from } => GraphDataEdge {
                    from: self.nodes[from].name.clone(),
                    to: self.fans[fan].to.clone(),
                    kind: EdgeKind::SkipRange,
                },
            })
            .collect();
        self.edges = edges;
        self.fans.clear();
        Ok(())
    }
}

/// A path as `olm_catalog::graph::UpgradePath` gives it (and its `upgradePath` export
/// serializes it).
#[derive(Debug, Clone, PartialEq, Eq, Default, Deserialize)]
#[serde(default)]
pub struct PathData {
    /// The start, as given (bundle name or version).
    pub from: String,
    /// The channel head, when the channel has one.
    pub to: Option<String>,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// No path reaches the head.
    pub stranded: bool,
    /// Why, when stranded.
    pub reason: Option<String>,
    /// How a typed version was read (the bundle it is the version of, or that no bundle has it).
    pub note: Option<String>,
}

/// How to draft a channel's picture: what of the picture's options needs no catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct DraftOptions {
    /// Whose rules the highlighted path follows.
    pub semantics: Semantics,
    /// Draw every skipRange edge instead of one fan per range (within `fan_budget`).
    pub expand_fans: bool,
    /// The most skipRange edges expanding fans may draw.
    pub fan_budget: usize,
    /// Collapse z-stream runs in graphs of [`COLLAPSE_THRESHOLD`](crate::COLLAPSE_THRESHOLD)
    /// nodes or more.
    pub collapse: bool,
    /// Ids of groups to keep expanded (`group:` and the oldest member's name).
    pub expand: Vec<String>,
    /// Which way the versions run.
    pub direction: Direction,
}

impl Default for DraftOptions {
    /// OLM v0 rules, fans as ranges, collapsing on, left to right.
    fn default() -> DraftOptions {
        DraftOptions {
            semantics: Semantics::V0,
            expand_fans: false,
            fan_budget: FAN_EXPANSION_BUDGET,
            collapse: true,
            expand: Vec::new(),
            direction: Direction::LeftToRight,
        }
    }
}

/// The draft of channel graph `g` with `path` highlighted: its fans expanded if asked and
/// within the budget (else a note says why they stay fans), the path marked ([`draft`]) and
/// written out ([`picture_path`]), the options set.
pub fn channel_draft(mut g: GraphData, path: Option<PathData>, o: DraftOptions) -> Draft {
    let mut notes = Vec::new();
    if o.expand_fans && !g.fans.is_empty() {
        if let Err(edges) = g.expand_fans(o.fan_budget) {
            notes.push(format!(
                "skipRanges drawn as fans: expanding them would draw {} edges, more than {}",
                thousands(edges),
                thousands(o.fan_budget)
            ));
        }
    }
    let mut d = draft(&g, path.as_ref().map(|p| (p.from.as_str(), p.steps.as_slice())));
    d.path = path.map(picture_path);
    d.semantics = o.semantics;
    d.direction = o.direction;
    d.collapse = o.collapse;
    d.expand = o.expand;
    d.notes = notes;
    d
}

/// The draft of `g`: its nodes (each major.minor as a small number, only equality counting),
/// its edges, each fan as one edge from the newest entry it covers (other than its own), the
/// path from `from` along `steps` marked ([`mark_path`]); no path text, default options.
pub fn draft(g: &GraphData, path: Option<(&str, &[Step])>) -> Draft {
    let index = first_of_each(g.nodes.iter().map(|n| n.name.as_str()));
    let mut minors: HashMap<&str, usize> = HashMap::new();
    let nodes = g
        .nodes
        .iter()
        .map(|node| {
            let minor = node.version.as_deref().map(|v| {
                let next = minors.len();
                *minors.entry(major_minor(v)).or_insert(next)
            });
            DraftNode {
                name: node.name.clone(),
                version: node.version.clone(),
                is_virtual: node.is_virtual,
                head: node.head,
                deprecated: node.deprecated.clone(),
                skipped: node.skipped,
                stranded: node.stranded,
                minor,
                on_path: false,
                step: None,
            }
        })
        .collect();
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
    let mut d = Draft {
        package: g.package.clone(),
        channel: g.channel.clone(),
        is_default_channel: g.is_default,
        head: g.head.clone(),
        nodes,
        by_version: g.by_version.clone(),
        edges,
        start: None,
        path: None,
        semantics: Semantics::V0,
        direction: Direction::LeftToRight,
        collapse: true,
        expand: Vec::new(),
        notes: Vec::new(),
    };
    if let Some((from, steps)) = path {
        mark_path(&mut d, from, steps);
    }
    d
}

/// Each name's first position.
fn first_of_each<'a>(names: impl Iterator<Item = &'a str>) -> HashMap<&'a str, usize> {
    let mut index = HashMap::new();
    for (i, name) in names.enumerate() {
        index.entry(name).or_insert(i);
    }
    index
}

/// `major.minor` of a version's text: up to its second dot (the version's numbers are written
/// without leading zeros, so equal text is equal numbers).
fn major_minor(v: &str) -> &str {
    let end = v.match_indices('.').nth(1).map_or(v.len(), |(i, _)| i);
    &v[..end]
}

/// Mark the path from `from` along `steps` on `d`: its nodes and edges, each step's number;
/// draw a step no drawn edge stands for. A start that is a bare version (`1.2.0`, in no channel
/// as a name) starts at the entry with that version, if there is one. The first node of a name
/// stands for it.
pub fn mark_path(d: &mut Draft, from: &str, steps: &[Step]) {
    let index = first_of_each(d.nodes.iter().map(|n| n.name.as_str()));
    // The positions only: the names are borrowed from `d`, which is changed below.
    let find = |name: &str| index.get(name).copied();
    let start = find(from).or_else(|| d.nodes.iter().position(|n| !n.is_virtual && n.version.as_deref() == Some(from)));
    // Steps whose target is not drawn are skipped; the numbers count all steps.
    let marks: Vec<(usize, Option<usize>, PictureEdgeKind, usize)> = steps
        .iter()
        .enumerate()
        .filter_map(|(k, step)| {
            let to = find(&step.to)?;
            Some((to, find(&step.from).or(start.filter(|_| &*step.from == from)), step.edge.into(), k + 1))
        })
        .collect();
    drop(index);
    if let Some(s) = start {
        d.nodes[s].on_path = true;
        d.start = Some(s);
    }
    for (to, from, kind, k) in marks {
        d.nodes[to].on_path = true;
        d.nodes[to].step.get_or_insert(k);
        let Some(from) = from else { continue };
        match d.edges.iter_mut().find(|e| e.from == from && e.to == to && e.kind == kind) {
            Some(e) => e.on_path = true,
            None => d.edges.push(DraftEdge { from, to, kind, on_path: true, range: None, covers: None }),
        }
    }
}

/// The path with its text: one line per step, and a sentence saying how many upgrades reach the
/// head (`to`), or that `from` is already the head, or why no path does (`stranded`, `reason`),
/// after the path's note when it has one.
pub fn picture_path(p: PathData) -> PicturePath {
    let PathData { from, to, steps, stranded, reason, note } = p;
    let lines = steps.iter().map(|s| format!("{} → {} ({})", s.from, s.to, s.edge.as_str())).collect();
    let head = to.as_deref().unwrap_or("(no head)");
    let said = if stranded {
        format!("Stranded: no path from {from} to {head}: {}", reason.as_deref().unwrap_or(""))
    } else if steps.is_empty() {
        format!("{from} is already at the head of the channel")
    } else {
        let n = steps.len();
        format!("{n} upgrade{} from {from} to reach {head}", if n == 1 { "" } else { "s" })
    };
    let summary = match &note {
        Some(n) => format!("{n}. {said}"),
        None => said,
    };
    PicturePath { from, to, steps, stranded, reason, note, lines, summary }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Direction;
    use crate::picture::DraftNode;
    use crate::vocabulary::{EdgeKind, Semantics};

    fn node(name: &str, version: &str) -> DraftNode {
        DraftNode {
            name: name.into(),
            version: Some(version.into()),
            is_virtual: false,
            head: false,
            deprecated: None,
            skipped: false,
            stranded: false,
            minor: None,
            on_path: false,
            step: None,
        }
    }

    fn three() -> Draft {
        Draft {
            package: "foo".into(),
            channel: "stable".into(),
            is_default_channel: true,
            head: Some("foo.v3".into()),
            nodes: vec![node("foo.v1", "1.0.0"), node("foo.v2", "2.0.0"), node("foo.v3", "3.0.0")],
            by_version: vec![0, 1, 2],
            edges: vec![DraftEdge {
                from: 0,
                to: 1,
                kind: PictureEdgeKind::Replaces,
                on_path: false,
                range: None,
                covers: None,
            }],
            start: None,
            path: None,
            semantics: Semantics::V0,
            direction: Direction::LeftToRight,
            collapse: true,
            expand: Vec::new(),
            notes: Vec::new(),
        }
    }

    fn step(from: &str, to: &str, edge: EdgeKind) -> Step {
        Step { from: from.into(), to: to.into(), edge }
    }

    #[test]
    fn a_path_marks_its_nodes_and_edges_and_draws_a_missing_step() {
        let mut d = three();
        mark_path(
            &mut d,
            "foo.v1",
            &[step("foo.v1", "foo.v2", EdgeKind::Replaces), step("foo.v2", "foo.v3", EdgeKind::SkipRange)],
        );
        assert_eq!(d.start, Some(0));
        assert!(d.nodes.iter().all(|n| n.on_path));
        assert_eq!(d.nodes.iter().map(|n| n.step).collect::<Vec<_>>(), [None, Some(1), Some(2)]);
        assert!(d.edges[0].on_path);
        assert_eq!((d.edges[1].from, d.edges[1].to, d.edges[1].kind), (1, 2, PictureEdgeKind::SkipRange));
    }

    #[test]
    fn a_bare_version_starts_at_its_entry_and_unknown_targets_keep_their_numbers() {
        let mut d = three();
        mark_path(
            &mut d,
            "1.0.0",
            &[step("1.0.0", "nope", EdgeKind::Replaces), step("1.0.0", "foo.v3", EdgeKind::SkipRange)],
        );
        assert_eq!(d.start, Some(0));
        assert_eq!(d.nodes[2].step, Some(2));
        assert_eq!((d.edges[1].from, d.edges[1].to), (0, 2));
    }

    #[test]
    fn a_fan_starts_at_the_newest_entry_it_covers_and_minors_are_numbered() {
        let n =
            |name: &str, v: &str| GraphDataNode { name: name.into(), version: Some(v.into()), ..Default::default() };
        let g = GraphData {
            package: "foo".into(),
            channel: "stable".into(),
            nodes: vec![n("foo.v3", "1.1.0"), n("foo.v2", "1.0.1+b.1"), n("foo.v1", "1.0.0")],
            by_version: vec![2, 1, 0],
            fans: vec![GraphDataFan { to: "foo.v3".into(), range: "<1.1.0".into(), count: 2, runs: vec![[0, 3]] }],
            ..Default::default()
        };
        let d = draft(&g, None);
        assert_eq!(d.nodes.iter().map(|n| n.minor).collect::<Vec<_>>(), [Some(0), Some(1), Some(1)]);
        assert_eq!((d.edges[0].from, d.edges[0].to, d.edges[0].covers), (1, 0, Some(2)));
        assert_eq!(major_minor("10.20.3-rc.1"), "10.20");
    }

    #[test]
    fn the_summary_counts_upgrades_or_says_why_there_are_none() {
        let path = |from: &str, to: Option<&str>, steps: Vec<Step>, reason: Option<&str>| PathData {
            from: from.into(),
            to: to.map(Into::into),
            steps,
            stranded: reason.is_some(),
            reason: reason.map(Into::into),
            note: None,
        };
        let p = picture_path(path("a", Some("b"), vec![step("a", "b", EdgeKind::Skips)], None));
        assert_eq!((p.lines, p.summary.as_str()), (vec!["a → b (skips)".to_string()], "1 upgrade from a to reach b"));
        assert_eq!(picture_path(path("b", Some("b"), vec![], None)).summary, "b is already at the head of the channel");
        let s = picture_path(path("a", None, vec![], Some("no order"))).summary;
        assert_eq!(s, "Stranded: no path from a to (no head): no order");
        let noted = PathData {
            note: Some("1.0.5 is not in this catalog".into()),
            ..path("1.0.5", Some("b"), vec![], Some("none"))
        };
        assert_eq!(
            picture_path(noted).summary,
            "1.0.5 is not in this catalog. Stranded: no path from 1.0.5 to b: none"
        );
    }
}
