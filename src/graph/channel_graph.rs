//! The graph of one channel ([`ChannelGraph`], and [`PackageGraph`] for all of a package's): its
//! entries (and "virtual" nodes for `replaces`/`skips` targets that are not in the channel), typed
//! edges from the older bundle to the newer one, the head, and what OLM v0 makes of each entry (on
//! its channel order, skipped, stranded). This is the JSON the CLI and the bindings print, and what
//! the DOT export and the lints read.

use std::collections::{BTreeMap, HashMap, HashSet};

use petgraph::graph::{DiGraph, NodeIndex};
use serde::Serialize;

use super::edge::{entry_version, EdgeKind};
use super::order::channel_order;
use super::upgrade::V0Channel;
use crate::model::{Bundle, Channel, Package};
use crate::property::Property;

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
    /// Every channel of the package that lists this bundle.
    pub channels: Vec<String>,
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
    /// Every upgrade edge.
    pub edges: Vec<GraphEdge>,
}

/// Every channel graph of a package.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackageGraph {
    /// The package.
    pub package: String,
    /// The default channel, when set.
    pub default_channel: Option<String>,
    /// One graph per channel, by name.
    pub channels: Vec<ChannelGraph>,
}

impl PackageGraph {
    /// Graphs of every channel of `package`.
    pub fn new(package: &Package) -> PackageGraph {
        PackageGraph {
            package: package.name.clone(),
            default_channel: (!package.default_channel.value.is_empty()).then(|| package.default_channel.value.clone()),
            channels: package.channels.iter().map(|c| ChannelGraph::new(package, c)).collect(),
        }
    }
}

/// Which entries have no OLM v0 path to the head (following each entry's next step, memoized).
fn stranded_entries(c: &Channel, v0: Option<&V0Channel<'_>>, head: Option<&str>) -> Vec<bool> {
    let n = c.entries.len();
    let Some(v0) = v0 else { return vec![true; n] };
    let Some(head) = c.entries.iter().position(|e| Some(e.name.value.as_str()) == head) else { return vec![true; n] };
    let next = v0.next_of_entries();
    // 0 = unknown, 1 = reaches head, 2 = stranded, 3 = on the current walk.
    let mut state = vec![0u8; n];
    state[head] = 1;
    for start in 0..n {
        let mut walk = Vec::new();
        let mut cur = start;
        let result = loop {
            match state[cur] {
                1 => break 1,
                2 | 3 => break 2,
                _ => {}
            }
            state[cur] = 3;
            walk.push(cur);
            match next[cur] {
                Some(j) => cur = j,
                None => break 2,
            }
        };
        for i in walk {
            state[i] = result;
        }
    }
    state.iter().map(|&s| s != 1).collect()
}

/// A bundle's deprecation message, from `olm.deprecations` or a legacy `olm.deprecated` property.
fn deprecation_of(b: &Bundle) -> Option<String> {
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
/// the channel skips, and every channel of the package that lists each name.
struct NodeFacts<'a> {
    package: &'a Package,
    skipped: HashSet<&'a str>,
    channels_of: HashMap<&'a str, Vec<String>>,
}

impl<'a> NodeFacts<'a> {
    fn new(package: &'a Package, c: &'a Channel) -> NodeFacts<'a> {
        let skipped = c.entries.iter().flat_map(|e| e.skips.iter().map(|s| s.value.as_str())).collect();
        let mut channels_of: HashMap<&str, Vec<String>> = HashMap::new();
        for ch in &package.channels {
            for e in &ch.entries {
                channels_of.entry(e.name.value.as_str()).or_default().push(ch.name.clone());
            }
        }
        NodeFacts { package, skipped, channels_of }
    }

    fn channels(&self, name: &str) -> Vec<String> {
        self.channels_of.get(name).cloned().unwrap_or_default()
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
            channels: self.channels(&name),
            name,
        }
    }

    /// The node of a `replaces`/`skips` target that is not an entry of the channel.
    fn virtual_node(&self, name: &str) -> GraphNode {
        GraphNode {
            name: name.to_string(),
            version: self.package.bundle(name).and_then(Bundle::version_string),
            is_virtual: true,
            head: false,
            deprecated: None,
            skipped: self.skipped.contains(name),
            on_v0_chain: false,
            stranded: false,
            channels: self.channels(name),
        }
    }
}

/// Every declared edge of channel `c`, entry by entry (`replaces`, then `skips`, then the entries
/// its `skipRange` covers), and a virtual node for each source that is not an entry (by name).
fn edges(facts: &NodeFacts<'_>, c: &Channel) -> (Vec<GraphEdge>, BTreeMap<String, GraphNode>) {
    let package = facts.package;
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
        if let Some(range) = e.range() {
            for x in &c.entries {
                if x.name.value != to && entry_version(package, x.bundle).is_some_and(|v| range.contains(v)) {
                    add_edge(&x.name.value, to, EdgeKind::SkipRange);
                }
            }
        }
    }
    (edges, virtual_nodes)
}

impl ChannelGraph {
    /// Build the graph of channel `c` of `package`.
    pub fn new(package: &Package, c: &Channel) -> ChannelGraph {
        let head = c.head().ok().map(|e| e.name.value.clone());
        let order = channel_order(&package.name, c);
        let v0 = V0Channel::new(package, c).ok();
        let mut on_chain = vec![false; c.entries.len()];
        if let Ok(o) = &order {
            for &i in o {
                on_chain[i] = true;
            }
        }
        let stranded = stranded_entries(c, v0.as_ref(), head.as_deref());
        let facts = NodeFacts::new(package, c);
        let mut nodes: Vec<GraphNode> =
            (0..c.entries.len()).map(|i| facts.entry_node(c, i, head.as_deref(), &on_chain, &stranded)).collect();
        let (edges, virtual_nodes) = edges(&facts, c);
        nodes.extend(virtual_nodes.into_values());
        ChannelGraph {
            package: package.name.clone(),
            channel: c.name.clone(),
            is_default: package.default_channel.value == c.name,
            deprecated: c.deprecation.as_ref().map(|d| d.message.value.clone()),
            head,
            order_error: order.err().map(|e| e.to_string()),
            nodes,
            edges,
        }
    }

    /// The node named `name`.
    pub fn node(&self, name: &str) -> Option<&GraphNode> {
        self.nodes.iter().find(|n| n.name == name)
    }

    /// The graph as a petgraph `DiGraph` whose node weights are indexes into `nodes`.
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
