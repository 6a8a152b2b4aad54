//! The graph of one channel ([`ChannelGraph`], and [`PackageGraph`] for all of a package's): its
//! entries (and "virtual" nodes for `replaces`/`skips` targets that are not in the channel), typed
//! edges from the older bundle to the newer one, the head, and what OLM v0 makes of each entry (on
//! its channel order, skipped, stranded). skipRange edges are kept as ranges ([`GraphFan`]: one
//! entry and the runs of the version order its range covers), so a channel whose every entry
//! skips all earlier versions stays linear in size; [`ChannelGraph::expand_ranges`] turns them
//! into edges within a budget. This is the JSON the CLI and the bindings print, and what the DOT
//! export and the lints read.

use crate::hash::{HashMap, HashMapExt, HashSet};
use std::collections::BTreeMap;

use olm_graph_picture::fans::{Expanded, Shape};
use petgraph::graph::{DiGraph, NodeIndex};
use serde::Serialize;

use super::edge::EdgeKind;
use super::fan::Fans;
use super::order::{channel_order, OrderError};
use super::successors::outcomes;
use super::upgrade::V0Channel;
use crate::gotext::{quote as q, thousands};
use crate::model::{Bundle, Channel, Package};
use crate::property::Property;

/// How many upgrade edges expanding a graph's skipRange fans may produce, unless the caller
/// gives its own budget (the DOT export draws fans as ranges beyond it, Mermaid refuses).
pub const EXPANSION_BUDGET: usize = 1_000_000;

/// A node of a channel graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphNode {
    /// The bundle (entry) name.
    pub name: String,
    /// The bundle's version (with release, `1.0.0-2`), when known.
    pub version: Option<String>,
    /// A `replaces`/`skips` target that is not an entry of the channel.
    #[serde(rename = "virtual")]
    pub is_virtual: bool,
    /// Is the channel head.
    pub head: bool,
    /// The deprecation message (an `olm.deprecations` entry or a legacy `olm.deprecated` property).
    pub deprecated: Option<String>,
    /// Some entry of the channel skips it, so OLM v0 never upgrades through it.
    pub skipped: bool,
    /// On OLM v0's channel order (the head's replaces chain minus skipped entries): only these can
    /// be upgrade targets or dependency candidates in OLM v0.
    pub on_v0_chain: bool,
    /// OLM v0 has no path from this entry to the head.
    pub stranded: bool,
    /// Every channel of the package that lists this bundle; `None` in a [`PackageGraph`], which
    /// lists them once per bundle (`bundle_channels`) instead of once per channel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<String>>,
}

/// A typed edge, from the older bundle to the newer one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphEdge {
    /// The bundle upgraded from.
    pub from: String,
    /// The bundle upgraded to.
    pub to: String,
    /// Which field makes the edge.
    pub kind: EdgeKind,
}

/// One entry's skipRange kept as a range: it stands for a `skipRange` edge from each entry it
/// covers, the entries `by_version[start..end]` of each run except `to` itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphFan {
    /// The entry whose skipRange it is (the newer bundle).
    pub to: String,
    /// The skipRange as written.
    pub range: String,
    /// How many entries it covers: the `skipRange` edges it stands for.
    pub count: usize,
    /// `[start, end)` positions in the graph's `by_version`, ascending and disjoint.
    pub runs: Vec<[usize; 2]>,
}

/// One channel's upgrade graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelGraph {
    /// The package.
    pub package: String,
    /// The channel.
    pub channel: String,
    /// Is the package's default channel.
    pub is_default: bool,
    /// The channel's deprecation message, if deprecated.
    pub deprecated: Option<String>,
    /// The head, when the channel has exactly one.
    pub head: Option<String>,
    /// Why OLM v0 cannot order this channel (no head, several chains, a cycle), if so.
    pub order_error: Option<String>,
    /// Entries in channel order, then virtual nodes.
    pub nodes: Vec<GraphNode>,
    /// The `replaces` and `skips` edges, entry by entry; the `skipRange` edges too once
    /// [expanded](ChannelGraph::expand_ranges).
    pub edges: Vec<GraphEdge>,
    /// Indexes into `nodes` of the entries that have a version, ascending by version (ties in
    /// channel order): what the `runs` of `fans` index.
    pub by_version: Vec<usize>,
    /// The `skipRange` edges as ranges, one fan per entry whose skipRange covers another entry,
    /// in channel order; empty once expanded.
    pub fans: Vec<GraphFan>,
}

/// Every channel graph of a package.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageGraph {
    /// The package.
    pub package: String,
    /// The default channel, when set.
    pub default_channel: Option<String>,
    /// One graph per channel, by name (their nodes leave `channels` out).
    pub channels: Vec<ChannelGraph>,
    /// Every channel of the package listing each bundle name.
    pub bundle_channels: BTreeMap<String, Vec<String>>,
}

/// Expanding a graph's skipRange fans into edges would go over the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpansionError {
    /// The package.
    pub package: String,
    /// The channel (`None` for a whole package's graph).
    pub channel: Option<String>,
    /// How many edges the expanded graph would have.
    pub edges: usize,
    /// The budget.
    pub budget: usize,
}

impl std::fmt::Display for ExpansionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(c) = &self.channel {
            write!(f, "channel {} of ", q(c))?;
        }
        write!(
            f,
            "package {} has {} upgrade edges once its skipRanges are expanded, more than the budget of {}; keep the skipRanges as ranges (fans) or raise the budget",
            q(&self.package),
            thousands(self.edges),
            thousands(self.budget)
        )
    }
}

impl std::error::Error for ExpansionError {}

/// Every channel's graph and every entry's OLM v0 and v1 path to its head, over a whole
/// catalog: the "graphs + paths" phase the scale benchmark and the wasm-vs-native benchmark time
/// (the same code natively and in WebAssembly). Returns the number of nodes and paths computed,
/// so the work cannot be optimised away; a channel whose paths cannot be computed counts none.
#[doc(hidden)]
pub fn graphs_and_paths(model: &crate::model::Model) -> usize {
    let mut n = 0;
    for p in &model.packages {
        for c in &p.channels {
            n += ChannelGraph::new(p, c).nodes.len();
            for s in [super::Semantics::V0, super::Semantics::V1] {
                n += super::channel_paths(p, c, s).map(|v| v.len()).unwrap_or(0);
            }
        }
    }
    n
}

impl PackageGraph {
    /// Graphs of every channel of `package`.
    pub fn new(package: &Package) -> PackageGraph {
        let mut bundle_channels: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for ch in &package.channels {
            for e in &ch.entries {
                bundle_channels.entry(e.name.value.clone()).or_default().push(ch.name.clone());
            }
        }
        PackageGraph {
            package: package.name.clone(),
            default_channel: (!package.default_channel.value.is_empty()).then(|| package.default_channel.value.clone()),
            channels: package
                .channels
                .iter()
                .map(|c| ChannelGraph::build(package, c, &Prepared::new(package, c), None))
                .collect(),
            bundle_channels,
        }
    }

    /// How many upgrade edges all channels have, skipRange fans counted as the edges they stand
    /// for.
    pub fn edge_count(&self) -> usize {
        self.channels.iter().map(ChannelGraph::edge_count).sum()
    }

    /// Expand every channel's skipRange fans into edges, if all of them together stay within
    /// `budget` edges; otherwise nothing changes.
    pub fn expand_ranges(&mut self, budget: usize) -> Result<(), ExpansionError> {
        let total = self.edge_count();
        if total > budget {
            return Err(ExpansionError { package: self.package.clone(), channel: None, edges: total, budget });
        }
        for c in &mut self.channels {
            c.expand_ranges(budget)?;
        }
        Ok(())
    }
}

/// Which channels of a package list each name, for the nodes of a channel's graph: found through
/// each entry's bundle, not by hashing names (the graphs phase hashed every entry name of the
/// package once per channel graph, a sixth of the graphs phase in WebAssembly).
pub struct ChannelListing<'a> {
    package: &'a Package,
    /// The channels (positions in `package.channels`) listing each bundle, by bundle position:
    /// `listing[starts[b]..starts[b + 1]]`, in channel order.
    starts: Vec<u32>,
    listing: Vec<u32>,
    /// The channels listing each name that no bundle of the package bears (a channel entry whose
    /// bundle is missing), in channel order.
    unbundled: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> ChannelListing<'a> {
    fn new(package: &'a Package) -> ChannelListing<'a> {
        let n = package.bundles.len();
        let bundle_of = |e: &crate::model::Entry| e.bundle.filter(|&b| b < n);
        let mut starts = vec![0u32; n + 1];
        let mut unbundled: HashMap<&str, Vec<&str>> = HashMap::new();
        for ch in &package.channels {
            for e in &ch.entries {
                match bundle_of(e) {
                    Some(b) => starts[b + 1] += 1,
                    None => unbundled.entry(e.name.value.as_str()).or_default().push(ch.name.as_str()),
                }
            }
        }
        for b in 0..n {
            starts[b + 1] += starts[b];
        }
        let mut next = starts.clone();
        let mut listing = vec![0u32; starts[n] as usize];
        for (ci, ch) in package.channels.iter().enumerate() {
            for b in ch.entries.iter().filter_map(bundle_of) {
                listing[next[b] as usize] = ci as u32;
                next[b] += 1;
            }
        }
        ChannelListing { package, starts, listing, unbundled }
    }

    /// The channels listing `name`, whose bundle is the package's bundle at `bundle` when known
    /// (an entry's); else those listing it without a bundle, else those listing its bundle.
    fn channels(&self, name: &str, bundle: Option<usize>) -> Vec<String> {
        let listed = |b: usize| self.listed(b).map(str::to_string).collect();
        match bundle.filter(|&b| b < self.package.bundles.len()) {
            Some(b) => listed(b),
            None => match self.unbundled.get(name) {
                Some(chans) => chans.iter().map(|c| c.to_string()).collect(),
                None => self.package.bundle_position(name).map_or_else(Vec::new, listed),
            },
        }
    }

    /// The names of the channels listing bundle `b`.
    fn listed(&self, b: usize) -> impl Iterator<Item = &'a str> + '_ {
        let range = self.starts[b] as usize..self.starts[b + 1] as usize;
        self.listing[range].iter().map(|&ci| self.package.channels[ci as usize].name.as_str())
    }
}

/// What a channel's graph and its lints are computed from, once: the skipRange fans, OLM v0's
/// order and its view of the channel.
pub struct Prepared<'a> {
    pub fans: Fans,
    pub order: Result<Vec<usize>, OrderError>,
    pub v0: Option<V0Channel<'a>>,
}

impl<'a> Prepared<'a> {
    pub fn new(package: &'a Package, c: &'a Channel) -> Prepared<'a> {
        let fans = Fans::new(package, c);
        let order = channel_order(&package.name, c);
        let v0 = order.as_ref().ok().map(|o| V0Channel::with_order(package, c, o.clone(), &fans));
        Prepared { fans, order, v0 }
    }
}

/// Which entries have no OLM v0 path to the head (following each entry's next step).
pub(super) fn stranded_entries(c: &Channel, v0: Option<&V0Channel<'_>>, head: Option<&str>) -> Vec<bool> {
    let n = c.entries.len();
    let Some(v0) = v0 else { return vec![true; n] };
    let Some(head) = c.entries.iter().position(|e| Some(e.name.value.as_str()) == head) else { return vec![true; n] };
    outcomes(&v0.next_of_entries(), &vec![None; n], Some(head)).iter().map(|o| !o.reached).collect()
}

/// A bundle's deprecation message, from `olm.deprecations` or a legacy `olm.deprecated` property.
pub(super) fn deprecation_of(b: &Bundle) -> Option<String> {
    if let Some(d) = &b.deprecation {
        return Some(d.message.value.clone());
    }
    b.properties.iter().find_map(|(i, p)| match p {
        Property::Deprecated => {
            Some(b.raw_properties.get(*i).and_then(|r| r.value.as_ref()).map(|v| v.to_go_json()).unwrap_or_default())
        }
        _ => None,
    })
}

/// What every node of one channel's graph is built from: the package, the names some entry of
/// the channel skips, and the channels listing each name when nodes list their channels.
struct NodeFacts<'a, 'p> {
    package: &'a Package,
    skipped: HashSet<&'a str>,
    listing: Option<&'p ChannelListing<'a>>,
}

impl NodeFacts<'_, '_> {
    fn channels(&self, name: &str, bundle: Option<usize>) -> Option<Vec<String>> {
        self.listing.map(|l| l.channels(name, bundle))
    }

    /// The node of entry `e` (the `i`th of channel `c`).
    fn entry_node(&self, c: &Channel, i: usize, head: Option<&str>, on_chain: &[bool], stranded: &[bool]) -> GraphNode {
        let e = &c.entries[i];
        let bundle = e.bundle.and_then(|b| self.package.bundles.get(b));
        let name = e.name.value.clone();
        GraphNode {
            version: bundle.and_then(Bundle::version_string),
            is_virtual: false,
            head: head == Some(name.as_str()),
            deprecated: bundle.and_then(deprecation_of),
            skipped: self.skipped.contains(name.as_str()),
            on_v0_chain: on_chain[i],
            stranded: stranded[i],
            channels: self.channels(&name, e.bundle),
            name,
        }
    }

    /// The node of a `replaces`/`skips` target that is not an entry of the channel.
    fn virtual_node(&self, name: &str) -> GraphNode {
        GraphNode {
            name: name.to_string(),
            version: self.package.bundle(name).and_then(|b| b.version_string()),
            is_virtual: true,
            head: false,
            deprecated: None,
            skipped: self.skipped.contains(name),
            on_v0_chain: false,
            stranded: false,
            channels: self.channels(name, None),
        }
    }
}

/// Every `replaces` and `skips` edge of channel `c`, entry by entry, and a virtual node for each
/// source that is not an entry (by name).
fn edges(facts: &NodeFacts<'_, '_>, c: &Channel) -> (Vec<GraphEdge>, BTreeMap<String, GraphNode>) {
    let in_channel: HashSet<&str> = c.entries.iter().map(|e| e.name.value.as_str()).collect();
    let mut edges = Vec::new();
    let mut virtual_nodes: BTreeMap<String, GraphNode> = BTreeMap::new();
    let mut add_edge = |from: &str, to: &str, kind: EdgeKind| {
        if !in_channel.contains(from) && !virtual_nodes.contains_key(from) {
            virtual_nodes.insert(from.to_string(), facts.virtual_node(from));
        }
        edges.push(GraphEdge { from: from.to_string(), to: to.to_string(), kind });
    };
    for e in &c.entries {
        let to = e.name.value.as_str();
        if !e.replaces.value.is_empty() {
            add_edge(&e.replaces.value, to, EdgeKind::Replaces);
        }
        for s in e.skips.iter().filter(|s| !s.value.is_empty()) {
            add_edge(&s.value, to, EdgeKind::Skips);
        }
    }
    (edges, virtual_nodes)
}

/// The fan of every entry whose valid skipRange covers another entry of the channel.
fn graph_fans(c: &Channel, fans: &Fans) -> Vec<GraphFan> {
    c.entries
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let count = fans.count(i);
            (count > 0).then(|| GraphFan {
                to: e.name.value.clone(),
                range: e.skip_range_text().to_string(),
                count,
                runs: fans.runs[i].iter().map(|r| [r.start, r.end]).collect(),
            })
        })
        .collect()
}

impl ChannelGraph {
    /// Build the graph of channel `c` of `package`.
    pub fn new(package: &Package, c: &Channel) -> ChannelGraph {
        ChannelGraph::build(package, c, &Prepared::new(package, c), Some(&ChannelListing::new(package)))
    }

    /// The graph of `c` of `package` from its prepared view; nodes list their channels when given
    /// the package's `listing`.
    pub fn build(
        package: &Package,
        c: &Channel,
        prepared: &Prepared<'_>,
        listing: Option<&ChannelListing<'_>>,
    ) -> ChannelGraph {
        let head = c.head().ok().map(|e| e.name.value.clone());
        let mut on_chain = vec![false; c.entries.len()];
        if let Ok(o) = &prepared.order {
            for &i in o {
                on_chain[i] = true;
            }
        }
        let stranded = stranded_entries(c, prepared.v0.as_ref(), head.as_deref());
        let skipped = c.entries.iter().flat_map(|e| e.skips.iter().map(|s| s.value.as_str())).collect();
        let node_facts = NodeFacts { package, skipped, listing };
        let mut nodes: Vec<GraphNode> =
            (0..c.entries.len()).map(|i| node_facts.entry_node(c, i, head.as_deref(), &on_chain, &stranded)).collect();
        let (edges, virtual_nodes) = edges(&node_facts, c);
        nodes.extend(virtual_nodes.into_values());
        ChannelGraph {
            package: package.name.clone(),
            channel: c.name.clone(),
            is_default: package.default_channel.value == c.name,
            deprecated: c.deprecation.as_ref().map(|d| d.message.value.clone()),
            head,
            order_error: prepared.order.as_ref().err().map(|e| e.to_string()),
            nodes,
            edges,
            by_version: prepared.fans.sorted.clone(),
            fans: graph_fans(c, &prepared.fans),
        }
    }

    /// How many upgrade edges the graph has, each fan counted as the edges it stands for.
    pub fn edge_count(&self) -> usize {
        self.edges.len() + self.fans.iter().map(|f| f.count).sum::<usize>()
    }

    /// The nodes a fan stands for an edge from, in channel order.
    pub fn fan_sources(&self, fan: &GraphFan) -> Vec<&GraphNode> {
        let shape = Shape {
            nodes: self.nodes.iter().map(|n| (n.name.as_str(), n.is_virtual)).collect(),
            fans: vec![(fan.to.as_str(), &fan.runs[..])],
            by_version: &self.by_version,
            ..Shape::default()
        };
        shape.fan_sources(0).into_iter().filter_map(|i| self.nodes.get(i)).collect()
    }

    /// Every edge, the fans expanded in place (after each entry's `replaces` and `skips` edges, a
    /// `skipRange` edge from each entry its range covers, in channel order), if there are at most
    /// `budget` of them.
    pub fn expanded_edges(&self, budget: usize) -> Result<Vec<GraphEdge>, ExpansionError> {
        let total = self.edge_count();
        if total > budget {
            return Err(ExpansionError {
                package: self.package.clone(),
                channel: Some(self.channel.clone()),
                edges: total,
                budget,
            });
        }
        let edge = |e: Expanded| match e {
            Expanded::Edge(k) => self.edges[k].clone(),
            Expanded::Fan { fan, from } => GraphEdge {
                from: self.nodes[from].name.clone(),
                to: self.fans[fan].to.clone(),
                kind: EdgeKind::SkipRange,
            },
        };
        Ok(self.shape().expansion().into_iter().map(edge).collect())
    }

    /// What the fans' expansion reads (`olm_graph_picture::fans`, the rule the pictures share).
    fn shape(&self) -> Shape<'_> {
        Shape {
            nodes: self.nodes.iter().map(|n| (n.name.as_str(), n.is_virtual)).collect(),
            edge_targets: self.edges.iter().map(|e| e.to.as_str()).collect(),
            fans: self.fans.iter().map(|f| (f.to.as_str(), &f.runs[..])).collect(),
            by_version: &self.by_version,
        }
    }

    /// Turn the fans into `skipRange` edges ([`expanded_edges`](ChannelGraph::expanded_edges)),
    /// if there are at most `budget` edges; otherwise nothing changes.
    pub fn expand_ranges(&mut self, budget: usize) -> Result<(), ExpansionError> {
        self.edges = self.expanded_edges(budget)?;
        self.fans.clear();
        Ok(())
    }

    /// The node named `name`.
    pub fn node(&self, name: &str) -> Option<&GraphNode> {
        self.nodes.iter().find(|n| n.name == name)
    }

    /// The graph as a petgraph `DiGraph`: the first `nodes.len()` nodes have as weight their
    /// index into `nodes`; fans add helper nodes (weight `usize::MAX`) so that reachability is
    /// that of the expanded graph with O(n log n) edges: a segment tree over `by_version` whose
    /// nodes each reach their parent, and an edge from the tree nodes covering each run of a fan
    /// to the fan's entry. (An entry whose own range covers it so gains a self loop through the
    /// tree, which does not change reachability between distinct nodes.)
    pub fn petgraph(&self) -> DiGraph<usize, EdgeKind> {
        let mut g = DiGraph::new();
        let idx: Vec<NodeIndex> = (0..self.nodes.len()).map(|i| g.add_node(i)).collect();
        let by_name: HashMap<&str, NodeIndex> =
            self.nodes.iter().enumerate().map(|(i, n)| (n.name.as_str(), idx[i])).collect();
        for e in &self.edges {
            if let (Some(&a), Some(&b)) = (by_name.get(e.from.as_str()), by_name.get(e.to.as_str())) {
                g.add_edge(a, b, e.kind);
            }
        }
        if self.fans.is_empty() || self.by_version.is_empty() {
            return g;
        }
        let tree = SegmentTree::new(&mut g, &self.by_version, &idx);
        for f in &self.fans {
            let Some(&to) = by_name.get(f.to.as_str()) else { continue };
            for &[start, end] in &f.runs {
                for t in tree.cover(start, end) {
                    g.add_edge(t, to, EdgeKind::SkipRange);
                }
            }
        }
        g
    }

    /// Whether any sequence of declared edges leads from `from` to `to` (what OLM v1 can do when
    /// each step is a direct edge).
    pub fn reachable(&self, from: &str, to: &str) -> bool {
        let g = self.petgraph();
        let find = |name: &str| self.nodes.iter().position(|n| n.name == name).map(NodeIndex::new);
        match (find(from), find(to)) {
            (Some(a), Some(b)) => petgraph::algo::has_path_connecting(&g, a, b, None),
            _ => false,
        }
    }
}

/// Helper nodes over positions `0..n` of `by_version`: leaf `p` is reached from node
/// `by_version[p]`, each tree node reaches its parent, so a tree node is reached from every
/// entry in its span.
struct SegmentTree {
    n: usize,
    /// Tree node `t` (1-based heap layout over `size` leaves).
    nodes: Vec<NodeIndex>,
    size: usize,
}

impl SegmentTree {
    fn new(g: &mut DiGraph<usize, EdgeKind>, by_version: &[usize], idx: &[NodeIndex]) -> SegmentTree {
        let n = by_version.len();
        let size = n.next_power_of_two();
        let nodes: Vec<NodeIndex> = (0..2 * size).map(|_| g.add_node(usize::MAX)).collect();
        for (p, &i) in by_version.iter().enumerate() {
            if let Some(&from) = idx.get(i) {
                g.add_edge(from, nodes[size + p], EdgeKind::SkipRange);
            }
        }
        for t in 2..2 * size {
            g.add_edge(nodes[t], nodes[t / 2], EdgeKind::SkipRange);
        }
        SegmentTree { n, nodes, size }
    }

    /// The O(log n) tree nodes whose spans exactly cover positions `start..end`.
    fn cover(&self, start: usize, end: usize) -> Vec<NodeIndex> {
        let (mut lo, mut hi) = (start.min(self.n) + self.size, end.min(self.n) + self.size);
        let mut out = Vec::new();
        while lo < hi {
            if lo & 1 == 1 {
                out.push(self.nodes[lo]);
                lo += 1;
            }
            if hi & 1 == 1 {
                hi -= 1;
                out.push(self.nodes[hi]);
            }
            lo /= 2;
            hi /= 2;
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::{channel, foo, TestCatalog};

    /// 1.0.0 <- 1.0.1 <- 1.0.2 along `replaces`, the head 1.0.2 also covering `<1.0.2`, and
    /// 1.0.1 skipping 0.9.0, which is not in the channel.
    fn ranged() -> crate::model::Model {
        TestCatalog::new()
            .channel(
                "stable",
                "
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  replaces: foo.v1.0.0
                  skips: [foo.v0.9.0]
                - name: foo.v1.0.2
                  replaces: foo.v1.0.1
                  skipRange: '<1.0.2'
                ",
            )
            .build()
    }

    fn edge(from: &str, to: &str, kind: EdgeKind) -> GraphEdge {
        GraphEdge { from: from.into(), to: to.into(), kind }
    }

    #[test]
    fn skip_range_edges_are_kept_as_a_fan() {
        let m = ranged();
        let g = ChannelGraph::new(foo(&m), channel(&m, "stable"));
        assert_eq!(
            g.edges,
            [
                edge("foo.v1.0.0", "foo.v1.0.1", EdgeKind::Replaces),
                edge("foo.v0.9.0", "foo.v1.0.1", EdgeKind::Skips),
                edge("foo.v1.0.1", "foo.v1.0.2", EdgeKind::Replaces),
            ]
        );
        assert_eq!(g.by_version, [0, 1, 2]);
        assert_eq!(
            g.fans,
            [GraphFan { to: "foo.v1.0.2".into(), range: "<1.0.2".into(), count: 2, runs: vec![[0, 2]] }]
        );
        assert_eq!(g.edge_count(), 5);
    }

    #[test]
    fn expanding_puts_the_skip_range_edges_after_each_entrys_own() {
        let m = ranged();
        let mut g = ChannelGraph::new(foo(&m), channel(&m, "stable"));
        g.expand_ranges(EXPANSION_BUDGET).expect("small");
        assert_eq!(
            g.edges,
            [
                edge("foo.v1.0.0", "foo.v1.0.1", EdgeKind::Replaces),
                edge("foo.v0.9.0", "foo.v1.0.1", EdgeKind::Skips),
                edge("foo.v1.0.1", "foo.v1.0.2", EdgeKind::Replaces),
                edge("foo.v1.0.0", "foo.v1.0.2", EdgeKind::SkipRange),
                edge("foo.v1.0.1", "foo.v1.0.2", EdgeKind::SkipRange),
            ]
        );
        assert!(g.fans.is_empty());
    }

    #[test]
    fn expanding_beyond_the_budget_is_refused() {
        let m = ranged();
        let mut g = ChannelGraph::new(foo(&m), channel(&m, "stable"));
        let err = g.expand_ranges(4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "channel \"stable\" of package \"foo\" has 5 upgrade edges once its skipRanges are expanded, more than the budget of 4; keep the skipRanges as ranges (fans) or raise the budget"
        );
        assert_eq!(g.fans.len(), 1, "unchanged");
    }

    #[test]
    fn reachability_follows_fans() {
        let m = TestCatalog::new()
            .channel(
                "stable",
                "
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  skipRange: '<1.0.1'
                - name: foo.v1.0.3
                  skipRange: '>=1.0.1 <1.0.3'
                ",
            )
            .build();
        let g = ChannelGraph::new(foo(&m), channel(&m, "stable"));
        assert!(g.edges.is_empty());
        assert!(g.reachable("foo.v1.0.0", "foo.v1.0.3"));
        assert!(g.reachable("foo.v1.0.1", "foo.v1.0.3"));
        assert!(!g.reachable("foo.v1.0.3", "foo.v1.0.0"));
        assert!(!g.reachable("foo.v1.0.1", "foo.v1.0.0"));
    }

    #[test]
    fn a_package_graph_lists_each_bundles_channels_once() {
        let m = TestCatalog::new()
            .channel("stable", "[{name: foo.v1.0.0}, {name: foo.v1.1.0, replaces: foo.v1.0.0}]")
            .channel("fast", "[{name: foo.v1.1.0}]")
            .build();
        let p = PackageGraph::new(foo(&m));
        assert!(p.channels.iter().flat_map(|c| &c.nodes).all(|n| n.channels.is_none()));
        assert_eq!(p.bundle_channels["foo.v1.1.0"], ["fast", "stable"]);
        let g = ChannelGraph::new(foo(&m), channel(&m, "stable"));
        assert_eq!(g.node("foo.v1.1.0").and_then(|n| n.channels.clone()), Some(vec!["fast".into(), "stable".into()]));
    }

    #[test]
    fn nodes_list_the_channels_of_their_name_with_or_without_a_bundle() {
        let mut m = TestCatalog::new()
            .channel("stable", "[{name: foo.v1.2.0, replaces: foo.v1.1.0, skips: [foo.v0.9.0]}]")
            .channel("fast", "[{name: foo.v0.9.0}, {name: foo.v1.1.0, replaces: foo.v0.9.0}]")
            .build();
        // As if the catalog's foo.v0.9.0 entry named a bundle that is missing.
        let p = m.packages.iter_mut().find(|p| p.name == "foo").expect("foo");
        p.channels
            .iter_mut()
            .flat_map(|c| &mut c.entries)
            .filter(|e| e.name.value == "foo.v0.9.0")
            .for_each(|e| e.bundle = None);
        let g = ChannelGraph::new(foo(&m), channel(&m, "stable"));
        let node = |name: &str| g.node(name).cloned().expect(name);
        assert!(node("foo.v1.1.0").is_virtual);
        assert_eq!(node("foo.v1.1.0").channels, Some(vec!["fast".into()]));
        assert_eq!(node("foo.v1.1.0").version.as_deref(), Some("1.1.0"));
        assert_eq!(node("foo.v0.9.0").channels, Some(vec!["fast".into()]));
        assert_eq!(node("foo.v1.2.0").channels, Some(vec!["stable".into()]));
        let fast = ChannelGraph::new(foo(&m), channel(&m, "fast"));
        assert_eq!(fast.node("foo.v0.9.0").and_then(|n| n.channels.clone()), Some(vec!["fast".into()]));
        let whole = PackageGraph::new(foo(&m));
        let listed: Vec<(&str, &[String])> =
            whole.bundle_channels.iter().map(|(k, v)| (k.as_str(), v.as_slice())).collect();
        assert_eq!(
            listed,
            [
                ("foo.v0.9.0", &["fast".to_string()][..]),
                ("foo.v1.1.0", &["fast".to_string()][..]),
                ("foo.v1.2.0", &["stable".to_string()][..])
            ]
        );
    }
}
