//! A generic layered ("Sugiyama-style") layout: boxes and directed edges in, positions and edge
//! routes out. Knows nothing about catalogs; [`crate::draw`] feeds it channel graphs.
//!
//! The rules, in order:
//! 1. **Cycles** are broken by a depth-first search that starts from the lowest node index and
//!    reverses every edge that points back to a node on the search stack (self-loops are left
//!    out of the layering and drawn as loops). Callers list nodes oldest first, so an edge from
//!    a newer version back to an older one is the one reversed.
//! 2. **Ranks** follow the edges: a node's rank is the longest path to it from a source (so
//!    every edge points to a later rank, and the newest version, the head, comes last); a
//!    source is then pulled up to just before its nearest successor; a node with no edges at
//!    all sits in the rank of the nearest lower-indexed node that has edges (versions are the
//!    tie-break: the caller's order).
//! 3. **Long edges** get a dummy node per rank they cross, shortest edges first, within
//!    [`LayoutOptions::dummy_budget`]; an edge beyond the budget is routed straight from end to
//!    end and takes no part in ordering.
//! 4. **Crossings** are reduced by barycenter sweeps, down then up, at most
//!    [`LayoutOptions::sweeps`] of them; the order with the fewest crossings (counted exactly,
//!    O(E log V) per pair of ranks) wins.
//! 5. **Coordinates**: ranks are spaced by their widest node; within a rank each node moves
//!    towards the mean of its neighbours in the previous (then the next) rank, keeping its order
//!    and the gaps (a least-squares fit with order constraints, pool-adjacent-violators, linear
//!    per rank), a few rounds.
//! 6. **Routes**: a polyline from the source's side to the target's side through the edge's
//!    dummies; [`path_d`] draws one as cubic curves with tangents along the rank axis.
//!
//! Every step is deterministic (no hashing order, ties by index) and linear or `n log n` per
//! sweep, so a 5,000-node graph lays out in milliseconds.

use serde::{Deserialize, Serialize};

/// A box to place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayoutNode {
    /// Width in pixels.
    pub width: f64,
    /// Height in pixels.
    pub height: f64,
}

/// A directed edge between two nodes, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutEdge {
    /// The source node.
    pub from: usize,
    /// The target node.
    pub to: usize,
}

/// Which way ranks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    /// Rank 0 on the left, later ranks to the right.
    #[default]
    LeftToRight,
    /// Rank 0 at the top, later ranks below.
    TopToBottom,
}

/// Spacing and work bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LayoutOptions {
    /// Which way ranks run.
    pub direction: Direction,
    /// Space between ranks.
    pub rank_gap: f64,
    /// Space between nodes of one rank.
    pub node_gap: f64,
    /// Space reserved for an edge passing through a rank (a dummy node's thickness).
    pub edge_gap: f64,
    /// Space around the drawing.
    pub margin: f64,
    /// The most barycenter sweeps (each one pass down or up).
    pub sweeps: usize,
    /// The most dummy nodes for long edges, in all.
    pub dummy_budget: usize,
}

impl Default for LayoutOptions {
    fn default() -> LayoutOptions {
        LayoutOptions {
            direction: Direction::LeftToRight,
            rank_gap: 56.0,
            node_gap: 18.0,
            edge_gap: 10.0,
            margin: 24.0,
            sweeps: 8,
            dummy_budget: 20_000,
        }
    }
}

/// A point, in pixels from the top left.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Point {
    /// Horizontal.
    pub x: f64,
    /// Vertical.
    pub y: f64,
}

/// Where a node went.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct NodeBox {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub width: f64,
    /// Height.
    pub height: f64,
    /// Its rank (column when left to right).
    pub rank: usize,
    /// Its position within the rank.
    pub order: usize,
}

impl NodeBox {
    fn center(&self) -> Point {
        Point { x: self.x + self.width / 2.0, y: self.y + self.height / 2.0 }
    }
}

/// How an edge is drawn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EdgeRoute {
    /// From the source's side to the target's side.
    pub points: Vec<Point>,
    /// The edge was reversed to break a cycle (it runs against the ranks).
    pub reversed: bool,
}

/// The result: every node's box and every edge's route, in input order, and the canvas.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Layout {
    /// One per input node.
    pub nodes: Vec<NodeBox>,
    /// One per input edge.
    pub edges: Vec<EdgeRoute>,
    /// Canvas width, margins included.
    pub width: f64,
    /// Canvas height, margins included.
    pub height: f64,
    /// Edge crossings left between adjacent ranks (dummy-routed edges included).
    pub crossings: usize,
}

/// Lay out `nodes` and `edges` (see the module documentation for the rules).
///
/// ```
/// use olm_graph_picture::layout::{layout, LayoutEdge, LayoutNode, LayoutOptions};
///
/// let nodes = vec![LayoutNode { width: 80.0, height: 30.0 }; 3];
/// let edges = [LayoutEdge { from: 0, to: 1 }, LayoutEdge { from: 1, to: 2 }];
/// let l = layout(&nodes, &edges, &LayoutOptions::default());
/// let ranks: Vec<usize> = l.nodes.iter().map(|n| n.rank).collect();
/// assert_eq!(ranks, [0, 1, 2]);
/// assert!(l.nodes[0].x < l.nodes[1].x && l.nodes[1].x < l.nodes[2].x);
/// ```
pub fn layout(nodes: &[LayoutNode], edges: &[LayoutEdge], options: &LayoutOptions) -> Layout {
    let n = nodes.len();
    let edges: Vec<LayoutEdge> = edges.iter().map(|e| LayoutEdge { from: e.from.min(n), to: e.to.min(n) }).collect();
    let valid = |e: &LayoutEdge| e.from < n && e.to < n;
    let reversed = break_cycles(n, &edges);
    let dag: Vec<(usize, usize)> =
        edges.iter().zip(&reversed).map(|(e, &r)| if r { (e.to, e.from) } else { (e.from, e.to) }).collect();
    let layered: Vec<bool> = edges.iter().map(|e| valid(e) && e.from != e.to).collect();
    let rank = ranks(n, &dag, &layered);
    let mut g = Layered::new(nodes, &rank, &dag, &layered, options);
    let crossings = g.order(options.sweeps);
    g.coordinates(options);
    let boxes = g.boxes(nodes, options);
    let routes = g.routes(&boxes, &edges, &reversed, options);
    let (width, height) = canvas(&boxes, &routes, options.margin);
    Layout { nodes: boxes, edges: routes, width, height, crossings }
}

/// Which edges to reverse so that the rest is acyclic: a depth-first search from the lowest
/// index, reversing edges to a node on the stack. Self-loops and out-of-range edges are left.
fn break_cycles(n: usize, edges: &[LayoutEdge]) -> Vec<bool> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, e) in edges.iter().enumerate() {
        if e.from < n && e.to < n && e.from != e.to {
            out[e.from].push(i);
        }
    }
    for list in &mut out {
        list.sort_by_key(|&i| (edges[i].to, i));
    }
    // 0 unseen, 1 on the stack, 2 done.
    let mut state = vec![0u8; n];
    let mut reversed = vec![false; edges.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&ei) = out[v].get(*next) {
                *next += 1;
                let w = edges[ei].to;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => reversed[ei] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    reversed
}

/// Ranks on the acyclic edges `dag` (those marked in `layered`): longest path from a source,
/// sources pulled up to their nearest successor, nodes without edges beside the nearest
/// lower-indexed node that has edges.
fn ranks(n: usize, dag: &[(usize, usize)], layered: &[bool]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut indegree = vec![0usize; n];
    for (i, &(a, b)) in dag.iter().enumerate() {
        if layered[i] {
            out[a].push(b);
            indegree[b] += 1;
        }
    }
    let has_edges: Vec<bool> = (0..n).map(|v| indegree[v] > 0 || !out[v].is_empty()).collect();
    let mut rank = vec![0usize; n];
    let mut remaining = indegree.clone();
    let mut queue: Vec<usize> = (0..n).filter(|&v| remaining[v] == 0).collect();
    let mut head = 0;
    while let Some(&v) = queue.get(head) {
        head += 1;
        for &w in &out[v] {
            rank[w] = rank[w].max(rank[v] + 1);
            remaining[w] -= 1;
            if remaining[w] == 0 {
                queue.push(w);
            }
        }
    }
    for v in 0..n {
        if indegree[v] == 0 && !out[v].is_empty() {
            rank[v] = out[v].iter().map(|&w| rank[w]).min().unwrap_or(1).saturating_sub(1);
        }
    }
    let mut last = 0;
    for v in 0..n {
        if has_edges[v] {
            last = rank[v];
        } else {
            rank[v] = last;
        }
    }
    rank
}

/// The layered graph: real nodes `0..n`, then dummies; each rank's order; neighbours.
struct Layered {
    /// Rank of every vertex (real, then dummy).
    rank: Vec<usize>,
    /// Extent along the order axis (height when left to right).
    size: Vec<f64>,
    /// Neighbours in the previous rank.
    up: Vec<Vec<usize>>,
    /// Neighbours in the next rank.
    down: Vec<Vec<usize>>,
    /// Each rank's vertices, in order.
    layers: Vec<Vec<usize>>,
    /// Center along the order axis.
    pos: Vec<f64>,
    /// Each layout edge's dummies, from its lower rank to its higher one.
    chains: Vec<Vec<usize>>,
    /// How many real nodes (the rest are dummies).
    real: usize,
}

impl Layered {
    fn new(
        nodes: &[LayoutNode],
        rank: &[usize],
        dag: &[(usize, usize)],
        layered: &[bool],
        options: &LayoutOptions,
    ) -> Layered {
        let n = nodes.len();
        let along = |node: &LayoutNode| match options.direction {
            Direction::LeftToRight => node.height,
            Direction::TopToBottom => node.width,
        };
        let mut g = Layered {
            rank: rank.to_vec(),
            size: nodes.iter().map(along).collect(),
            up: vec![Vec::new(); n],
            down: vec![Vec::new(); n],
            layers: Vec::new(),
            pos: Vec::new(),
            chains: vec![Vec::new(); dag.len()],
            real: n,
        };
        // Shortest edges get their dummies first, while the budget lasts.
        let mut by_span: Vec<usize> = (0..dag.len()).filter(|&i| layered[i]).collect();
        by_span.sort_by_key(|&i| (rank[dag[i].1] - rank[dag[i].0], i));
        let mut budget = options.dummy_budget;
        for i in by_span {
            let (a, b) = dag[i];
            let span = rank[b] - rank[a];
            if span > 1 && span - 1 > budget {
                continue;
            }
            budget -= span - 1;
            let mut prev = a;
            for r in rank[a] + 1..rank[b] {
                let d = g.rank.len();
                g.rank.push(r);
                g.size.push(options.edge_gap);
                g.up.push(vec![prev]);
                g.down.push(Vec::new());
                g.down[prev].push(d);
                g.chains[i].push(d);
                prev = d;
            }
            g.down[prev].push(b);
            g.up[b].push(prev);
        }
        let ranks = g.rank.iter().max().map_or(0, |r| r + 1);
        g.layers = vec![Vec::new(); ranks];
        for v in 0..g.rank.len() {
            g.layers[g.rank[v]].push(v);
        }
        g
    }

    /// Order every rank: a first down sweep from the input order, then alternating sweeps; the
    /// order with the fewest crossings is kept. Returns the crossings left.
    fn order(&mut self, sweeps: usize) -> usize {
        let mut position = vec![0usize; self.rank.len()];
        // Initial: dummies after their source in index order, then one down sweep.
        self.sweep(true, &mut position);
        let mut best = self.layers.clone();
        let mut best_crossings = self.crossings(&mut position);
        for s in 0..sweeps {
            if best_crossings == 0 {
                break;
            }
            self.sweep(s % 2 == 1, &mut position);
            let c = self.crossings(&mut position);
            if c < best_crossings {
                best_crossings = c;
                best = self.layers.clone();
            }
        }
        self.layers = best;
        best_crossings
    }

    fn index(&self, position: &mut [usize]) {
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                position[v] = i;
            }
        }
    }

    /// One barycenter sweep, down (each rank by its neighbours in the previous one) or up.
    fn sweep(&mut self, down: bool, position: &mut [usize]) {
        self.index(position);
        let ranks: Vec<usize> = if down {
            (1..self.layers.len()).collect()
        } else {
            (0..self.layers.len().saturating_sub(1)).rev().collect()
        };
        for r in ranks {
            let neighbours = if down { &self.up } else { &self.down };
            let mut keyed: Vec<(f64, usize, usize)> = self.layers[r]
                .iter()
                .map(|&v| {
                    let ns = &neighbours[v];
                    let bary = if ns.is_empty() {
                        position[v] as f64
                    } else {
                        ns.iter().map(|&w| position[w] as f64).sum::<f64>() / ns.len() as f64
                    };
                    (bary, position[v], v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            self.layers[r] = keyed.into_iter().map(|k| k.2).collect();
            for (i, &v) in self.layers[r].iter().enumerate() {
                position[v] = i;
            }
        }
    }

    /// Crossings between every pair of adjacent ranks.
    fn crossings(&self, position: &mut [usize]) -> usize {
        self.index(position);
        let mut total = 0;
        for r in 0..self.layers.len().saturating_sub(1) {
            let mut pairs: Vec<(usize, usize)> = self.layers[r]
                .iter()
                .flat_map(|&v| self.down[v].iter().map(move |&w| (v, w)))
                .map(|(v, w)| (position[v], position[w]))
                .collect();
            pairs.sort();
            total += inversions(pairs.iter().map(|p| p.1), self.layers[r + 1].len());
        }
        total
    }

    /// Order-axis centers: packed, then pulled towards neighbours a few rounds.
    fn coordinates(&mut self, options: &LayoutOptions) {
        self.pos = vec![0.0; self.rank.len()];
        for layer in &self.layers {
            let mut at = 0.0;
            for &v in layer {
                self.pos[v] = at + self.size[v] / 2.0;
                at += self.size[v] + options.node_gap;
            }
        }
        for round in 0..4 {
            let down = round % 2 == 0;
            let ranks: Vec<usize> =
                if down { (1..self.layers.len()).collect() } else { (0..self.layers.len()).rev().collect() };
            for r in ranks {
                self.align(r, down, options.node_gap);
            }
        }
        let min = self.layers.iter().flatten().map(|&v| self.pos[v] - self.size[v] / 2.0).fold(f64::INFINITY, f64::min);
        if min.is_finite() {
            for p in &mut self.pos {
                *p -= min;
            }
        }
    }

    /// Move rank `r`'s vertices towards the mean of their neighbours (previous rank when `down`),
    /// keeping order and gaps: least squares under order constraints (pool adjacent violators).
    fn align(&mut self, r: usize, down: bool, gap: f64) {
        let layer = &self.layers[r];
        if layer.is_empty() {
            return;
        }
        let neighbours = if down { &self.up } else { &self.down };
        let mut offset = Vec::with_capacity(layer.len());
        let mut at = 0.0;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                at += self.size[layer[i - 1]] / 2.0 + gap + self.size[v] / 2.0;
            }
            offset.push(at);
        }
        // Blocks of (weighted sum, weight, count), merged while out of order.
        let mut blocks: Vec<(f64, f64, usize)> = Vec::new();
        for (i, &v) in layer.iter().enumerate() {
            let ns = &neighbours[v];
            let (want, weight) = if ns.is_empty() {
                (self.pos[v], 0.01)
            } else {
                (ns.iter().map(|&w| self.pos[w]).sum::<f64>() / ns.len() as f64, if v >= self.real { 2.0 } else { 1.0 })
            };
            let z = want - offset[i];
            blocks.push((z * weight, weight, 1));
            while blocks.len() > 1 {
                let (s1, w1, c1) = blocks[blocks.len() - 1];
                let (s0, w0, c0) = blocks[blocks.len() - 2];
                if s0 / w0 <= s1 / w1 {
                    break;
                }
                blocks.pop();
                *blocks.last_mut().expect("two blocks") = (s0 + s1, w0 + w1, c0 + c1);
            }
        }
        let mut i = 0;
        for (s, w, c) in blocks {
            for _ in 0..c {
                self.pos[layer[i]] = s / w + offset[i];
                i += 1;
            }
        }
    }

    /// Boxes of the real nodes, ranks spaced by their widest member.
    fn boxes(&self, nodes: &[LayoutNode], options: &LayoutOptions) -> Vec<NodeBox> {
        let across = |node: &LayoutNode| match options.direction {
            Direction::LeftToRight => node.width,
            Direction::TopToBottom => node.height,
        };
        let mut extent = vec![0.0f64; self.layers.len()];
        for (v, node) in nodes.iter().enumerate() {
            extent[self.rank[v]] = extent[self.rank[v]].max(across(node));
        }
        let mut start = Vec::with_capacity(extent.len());
        let mut at = options.margin;
        for e in &extent {
            start.push(at);
            at += e + options.rank_gap;
        }
        let mut order = vec![0usize; self.rank.len()];
        for layer in &self.layers {
            for (i, &v) in layer.iter().enumerate() {
                order[v] = i;
            }
        }
        nodes
            .iter()
            .enumerate()
            .map(|(v, node)| {
                let r = self.rank[v];
                let a = start[r] + (extent[r] - across(node)) / 2.0;
                let b = options.margin + self.pos[v] - self.size[v] / 2.0;
                let (x, y) = match options.direction {
                    Direction::LeftToRight => (a, b),
                    Direction::TopToBottom => (b, a),
                };
                NodeBox { x, y, width: node.width, height: node.height, rank: r, order: order[v] }
            })
            .collect()
    }

    /// Every edge's route, from its source's side to its target's side.
    fn routes(
        &self,
        boxes: &[NodeBox],
        edges: &[LayoutEdge],
        reversed: &[bool],
        options: &LayoutOptions,
    ) -> Vec<EdgeRoute> {
        let lr = options.direction == Direction::LeftToRight;
        // Where a rank's dummies sit along the rank axis: the middle of the rank's column.
        let mut column = vec![(f64::INFINITY, f64::NEG_INFINITY); self.layers.len()];
        for b in boxes {
            let (lo, hi) = if lr { (b.x, b.x + b.width) } else { (b.y, b.y + b.height) };
            let c = &mut column[b.rank];
            *c = (c.0.min(lo), c.1.max(hi));
        }
        let dummy = |d: usize| {
            let (lo, hi) = column[self.rank[d]];
            let a = if lo.is_finite() { (lo + hi) / 2.0 } else { 0.0 };
            let b = options.margin + self.pos[d];
            if lr {
                Point { x: a, y: b }
            } else {
                Point { x: b, y: a }
            }
        };
        // Ports: the side facing later ranks, and the side facing earlier ones.
        let out_port = |b: &NodeBox| {
            let c = b.center();
            if lr {
                Point { x: b.x + b.width, y: c.y }
            } else {
                Point { x: c.x, y: b.y + b.height }
            }
        };
        let in_port = |b: &NodeBox| {
            let c = b.center();
            if lr {
                Point { x: b.x, y: c.y }
            } else {
                Point { x: c.x, y: b.y }
            }
        };
        let mut parallel: std::collections::BTreeMap<(usize, usize), Vec<usize>> = Default::default();
        for (i, e) in edges.iter().enumerate() {
            parallel.entry((e.from.min(e.to), e.from.max(e.to))).or_default().push(i);
        }
        let mut routes: Vec<EdgeRoute> = edges
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let (Some(fb), Some(tb)) = (boxes.get(e.from), boxes.get(e.to)) else {
                    return EdgeRoute { points: Vec::new(), reversed: false };
                };
                if e.from == e.to {
                    return EdgeRoute { points: self_loop(fb, lr), reversed: false };
                }
                let (lo, hi) = if reversed[i] { (tb, fb) } else { (fb, tb) };
                let mut points = vec![out_port(lo)];
                points.extend(self.chains[i].iter().map(|&d| dummy(d)));
                points.push(in_port(hi));
                if reversed[i] {
                    points.reverse();
                }
                EdgeRoute { points, reversed: reversed[i] }
            })
            .collect();
        // Edges between the same two nodes bow apart.
        for list in parallel.values().filter(|l| l.len() > 1) {
            let k = list.len() as f64;
            for (j, &i) in list.iter().enumerate() {
                let shift = (j as f64 - (k - 1.0) / 2.0) * options.edge_gap * 1.4;
                bow(&mut routes[i].points, shift, lr);
            }
        }
        routes
    }
}

/// Shift a route's inner points across the rank axis by `shift` (adding a midpoint to a
/// two-point route).
fn bow(points: &mut Vec<Point>, shift: f64, lr: bool) {
    if shift == 0.0 || points.len() < 2 {
        return;
    }
    if points.len() == 2 {
        let (a, b) = (points[0], points[1]);
        points.insert(1, Point { x: (a.x + b.x) / 2.0, y: (a.y + b.y) / 2.0 });
    }
    let last = points.len() - 1;
    for p in &mut points[1..last] {
        if lr {
            p.y += shift;
        } else {
            p.x += shift;
        }
    }
}

/// A loop on a node's outer side (top when left to right, right side when top to bottom).
fn self_loop(b: &NodeBox, lr: bool) -> Vec<Point> {
    let c = b.center();
    if lr {
        vec![
            Point { x: c.x + 12.0, y: b.y },
            Point { x: c.x + 12.0, y: b.y - 16.0 },
            Point { x: c.x - 12.0, y: b.y - 16.0 },
            Point { x: c.x - 12.0, y: b.y },
        ]
    } else {
        let r = b.x + b.width;
        vec![
            Point { x: r, y: c.y - 10.0 },
            Point { x: r + 16.0, y: c.y - 10.0 },
            Point { x: r + 16.0, y: c.y + 10.0 },
            Point { x: r, y: c.y + 10.0 },
        ]
    }
}

/// Inversions of a sequence of values below `bound` (a Fenwick tree): the crossings of edges
/// listed by their upper end.
fn inversions(values: impl Iterator<Item = usize>, bound: usize) -> usize {
    let mut tree = vec![0usize; bound + 1];
    let mut count = 0;
    for (seen, v) in values.enumerate() {
        // How many seen values are <= v.
        let mut i = v + 1;
        let mut le = 0;
        while i > 0 {
            le += tree[i];
            i &= i - 1;
        }
        count += seen - le;
        let mut i = v + 1;
        while i <= bound {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    count
}

/// The canvas: every box and route point inside, plus the margin.
fn canvas(boxes: &[NodeBox], routes: &[EdgeRoute], margin: f64) -> (f64, f64) {
    let mut w: f64 = 0.0;
    let mut h: f64 = 0.0;
    for b in boxes {
        w = w.max(b.x + b.width);
        h = h.max(b.y + b.height);
    }
    for p in routes.iter().flat_map(|r| &r.points) {
        w = w.max(p.x);
        h = h.max(p.y);
    }
    ((w + margin).ceil(), (h + margin).ceil())
}

/// An SVG path (`d`) through a route's points: cubic curves whose tangents run along the rank
/// axis, so edges leave and enter nodes straight and bend smoothly through their dummies.
pub fn path_d(points: &[Point], direction: Direction) -> String {
    use std::fmt::Write as _;
    let mut d = String::new();
    let Some(first) = points.first() else { return d };
    let _ = write!(d, "M{} {}", num(first.x), num(first.y));
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (c1, c2) = match direction {
            Direction::LeftToRight => {
                let dx = (b.x - a.x) / 2.0;
                (Point { x: a.x + dx, y: a.y }, Point { x: b.x - dx, y: b.y })
            }
            Direction::TopToBottom => {
                let dy = (b.y - a.y) / 2.0;
                (Point { x: a.x, y: a.y + dy }, Point { x: b.x, y: b.y - dy })
            }
        };
        let _ = write!(d, "C{} {} {} {} {} {}", num(c1.x), num(c1.y), num(c2.x), num(c2.y), num(b.x), num(b.y));
    }
    d
}

/// A coordinate with at most one decimal, no trailing `.0`.
pub(crate) fn num(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize) -> Vec<LayoutNode> {
        vec![LayoutNode { width: 100.0, height: 30.0 }; n]
    }

    fn edges(list: &[(usize, usize)]) -> Vec<LayoutEdge> {
        list.iter().map(|&(from, to)| LayoutEdge { from, to }).collect()
    }

    fn run(n: usize, list: &[(usize, usize)]) -> Layout {
        layout(&boxes(n), &edges(list), &LayoutOptions::default())
    }

    fn overlaps(a: &NodeBox, b: &NodeBox) -> bool {
        a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
    }

    fn assert_no_overlaps(l: &Layout) {
        // Sort by x and compare only neighbours in range: fine for tests.
        for (i, a) in l.nodes.iter().enumerate() {
            for b in &l.nodes[i + 1..] {
                assert!(!overlaps(a, b), "{a:?} overlaps {b:?}");
            }
        }
    }

    /// A deterministic pseudo-random DAG of `n` nodes (edges from lower to higher index).
    fn random_dag(n: usize, per_node: usize, seed: u64) -> Vec<(usize, usize)> {
        let mut s = seed;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut out = Vec::new();
        for v in 1..n {
            for _ in 0..per_node {
                let back = 1 + (next() % 6) as usize;
                out.push((v.saturating_sub(back), v));
            }
        }
        out
    }

    #[test]
    fn a_chain_runs_left_to_right_on_one_line() {
        let l = run(4, &[(0, 1), (1, 2), (2, 3)]);
        assert_eq!(l.nodes.iter().map(|b| b.rank).collect::<Vec<_>>(), [0, 1, 2, 3]);
        assert!(l.nodes.windows(2).all(|w| w[0].x + w[0].width < w[1].x));
        assert!(l.nodes.iter().all(|b| b.y == l.nodes[0].y), "{:?}", l.nodes);
        assert_eq!(l.crossings, 0);
    }

    #[test]
    fn top_to_bottom_swaps_the_axes() {
        let o = LayoutOptions { direction: Direction::TopToBottom, ..Default::default() };
        let l = layout(&boxes(3), &edges(&[(0, 1), (1, 2)]), &o);
        assert!(l.nodes.windows(2).all(|w| w[0].y + w[0].height < w[1].y));
        assert!(l.nodes.iter().all(|b| b.x == l.nodes[0].x));
    }

    #[test]
    fn ranks_are_longest_paths_and_sources_sit_before_their_successor() {
        // 0 → 1 → 2 → 3, and 4 → 3: 4 is a source pulled up to rank 2.
        let l = run(5, &[(0, 1), (1, 2), (2, 3), (4, 3), (0, 3)]);
        assert_eq!(l.nodes.iter().map(|b| b.rank).collect::<Vec<_>>(), [0, 1, 2, 3, 2]);
    }

    #[test]
    fn a_node_without_edges_sits_with_the_nearest_earlier_node() {
        let l = run(4, &[(0, 1), (1, 3)]);
        assert_eq!(l.nodes[2].rank, l.nodes[1].rank);
        assert_no_overlaps(&l);
    }

    #[test]
    fn a_diamond_has_no_crossings_and_no_overlaps() {
        let l = run(4, &[(0, 1), (0, 2), (1, 3), (2, 3)]);
        assert_eq!(l.nodes.iter().map(|b| b.rank).collect::<Vec<_>>(), [0, 1, 1, 2]);
        assert_eq!(l.crossings, 0);
        assert_no_overlaps(&l);
    }

    #[test]
    fn sweeps_undo_a_crossing_of_the_input_order() {
        // Two parallel chains listed so that index order crosses them: 0→3, 1→2, 2→5, 3→4.
        let l = run(6, &[(0, 3), (1, 2), (3, 4), (2, 5)]);
        assert_eq!(l.crossings, 0);
        let above = |a: usize, b: usize| l.nodes[a].y < l.nodes[b].y;
        assert_eq!(above(0, 1), above(3, 2));
        assert_eq!(above(3, 2), above(4, 5));
    }

    #[test]
    fn a_cycle_is_broken_by_reversing_the_edge_back_to_an_older_node() {
        let l = run(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(l.nodes.iter().map(|b| b.rank).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(l.edges.iter().map(|e| e.reversed).collect::<Vec<_>>(), [false, false, true]);
        // The reversed edge still runs from its source (2) to its target (0).
        let r = &l.edges[2].points;
        assert!(r[0].x > r[r.len() - 1].x);
    }

    #[test]
    fn a_self_loop_is_a_loop_on_its_node() {
        let l = run(2, &[(0, 1), (1, 1)]);
        let r = &l.edges[1].points;
        assert_eq!(r.len(), 4);
        assert!(r.iter().all(|p| p.y <= l.nodes[1].y));
    }

    #[test]
    fn long_edges_pass_through_dummies_and_routes_end_on_the_node_sides() {
        let l = run(4, &[(0, 1), (1, 2), (2, 3), (0, 3)]);
        let long = &l.edges[3].points;
        assert_eq!(long.len(), 4, "{long:?}");
        assert_eq!(long[0].x, l.nodes[0].x + l.nodes[0].width);
        assert_eq!(long[3].x, l.nodes[3].x);
        assert_no_overlaps(&l);
    }

    #[test]
    fn beyond_the_dummy_budget_a_long_edge_is_routed_straight() {
        let chain: Vec<(usize, usize)> = (0..50).map(|i| (i, i + 1)).chain([(0, 50)]).collect();
        let o = LayoutOptions { dummy_budget: 10, ..Default::default() };
        let l = layout(&boxes(51), &edges(&chain), &o);
        assert_eq!(l.edges[50].points.len(), 2);
        let l = run(51, &chain);
        assert_eq!(l.edges[50].points.len(), 51);
    }

    #[test]
    fn parallel_edges_bow_apart() {
        let l = run(2, &[(0, 1), (0, 1)]);
        let (a, b) = (&l.edges[0].points, &l.edges[1].points);
        assert_eq!(a.len(), 3);
        assert_ne!(a[1].y, b[1].y);
    }

    #[test]
    fn random_graphs_never_overlap_and_lay_out_the_same_twice() {
        for seed in [1, 7, 42] {
            let list = random_dag(60, 2, seed);
            let l = run(60, &list);
            assert_no_overlaps(&l);
            assert_eq!(l, run(60, &list));
            for (e, r) in edges(&list).iter().zip(&l.edges) {
                assert!(l.nodes[e.from].rank < l.nodes[e.to].rank);
                assert!(r.points.len() >= 2);
            }
        }
    }

    #[test]
    fn a_5000_node_graph_lays_out() {
        // Size only: the time is measured by `benches/graph_svg.rs`.
        let list = random_dag(5_000, 2, 3);
        let l = run(5_000, &list);
        assert_eq!(l.nodes.len(), 5_000);
        assert!(l.width.is_finite() && l.height.is_finite());
    }

    #[test]
    fn crossings_are_counted_exactly() {
        assert_eq!(inversions([0, 1, 2].into_iter(), 3), 0);
        assert_eq!(inversions([2, 1, 0].into_iter(), 3), 3);
        assert_eq!(inversions([1, 0, 1].into_iter(), 2), 1);
    }

    #[test]
    fn paths_are_cubic_curves_along_the_rank_axis() {
        let d = path_d(&[Point { x: 0.0, y: 0.0 }, Point { x: 10.0, y: 5.0 }], Direction::LeftToRight);
        assert_eq!(d, "M0 0C5 0 5 5 10 5");
        assert_eq!(num(1.25), "1.3");
    }
}
