//! A channel's skipRange fans expanded into edges: which edges, in which order. One rule for
//! olm-catalog's channel graphs (`ChannelGraph::expanded_edges`: its JSON, DOT and diffs) and for
//! the pictures' drafts ([`GraphData::expand_fans`](crate::GraphData::expand_fans)).
//!
//! A fan stands for one `skipRange` edge to its entry from each entry its range covers (by
//! version: half-open runs of positions in `by_version`), its own entry left out. Expanded, a
//! graph lists after each entry's explicit (`replaces`, `skips`) edges the skipRange edges to it,
//! in channel order.

/// One edge of a graph whose fans are expanded ([`Shape::expansion`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expanded {
    /// The explicit edge at this position.
    Edge(usize),
    /// A skipRange edge from node `from` to the entry of fan `fan`.
    Fan {
        /// The fan's position.
        fan: usize,
        /// The covered node's position.
        from: usize,
    },
}

/// What the expansion reads of a graph, by position.
#[derive(Debug, Clone, Default)]
pub struct Shape<'a> {
    /// Each node's name and whether it is virtual (no entry of the channel), in channel order.
    pub nodes: Vec<(&'a str, bool)>,
    /// Each explicit edge's target, the edges grouped by target in channel order.
    pub edge_targets: Vec<&'a str>,
    /// Each fan's entry and covered runs, in channel order.
    pub fans: Vec<(&'a str, &'a [[usize; 2]])>,
    /// Positions of the nodes with a version, ascending by version.
    pub by_version: &'a [usize],
}

impl Shape<'_> {
    /// The nodes fan `fan` stands for an edge from (its own entry left out), in channel order.
    pub fn fan_sources(&self, fan: usize) -> Vec<usize> {
        let Some(&(to, runs)) = self.fans.get(fan) else { return Vec::new() };
        let mut sources: Vec<usize> = runs
            .iter()
            .flat_map(|&[start, end]| self.by_version.get(start..end).unwrap_or_default().iter().copied())
            .filter(|&i| self.nodes.get(i).is_some_and(|&(name, _)| name != to))
            .collect();
        sources.sort_unstable();
        sources
    }

    /// Every edge with the fans expanded: after each entry's explicit edges, the skipRange edges
    /// to it; explicit edges to no entry come last.
    pub fn expansion(&self) -> Vec<Expanded> {
        let mut out = Vec::with_capacity(self.edge_targets.len());
        let mut explicit = self.edge_targets.iter().enumerate().peekable();
        let mut fans = self.fans.iter().enumerate().peekable();
        for &(name, _) in self.nodes.iter().filter(|(_, is_virtual)| !is_virtual) {
            while let Some((k, _)) = explicit.next_if(|(_, to)| **to == name) {
                out.push(Expanded::Edge(k));
            }
            if let Some((f, _)) = fans.next_if(|(_, (to, _))| *to == name) {
                out.extend(self.fan_sources(f).into_iter().map(|from| Expanded::Fan { fan: f, from }));
            }
        }
        out.extend(explicit.map(|(k, _)| Expanded::Edge(k)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries a (1.0.0), b (1.0.1), c (1.0.2) in channel order c, b, a; c replaces b and its
    /// range covers a and b; b replaces a.
    fn shape() -> Shape<'static> {
        Shape {
            nodes: vec![("c", false), ("b", false), ("a", false)],
            edge_targets: vec!["c", "b"],
            fans: vec![("c", &[[0, 3]])],
            by_version: &[2, 1, 0],
        }
    }

    #[test]
    fn a_fan_stands_for_an_edge_from_each_covered_entry_but_its_own() {
        assert_eq!(shape().fan_sources(0), [1, 2]);
    }

    #[test]
    fn skip_range_edges_follow_their_entrys_explicit_edges() {
        let e = shape().expansion();
        assert_eq!(
            e,
            [
                Expanded::Edge(0),
                Expanded::Fan { fan: 0, from: 1 },
                Expanded::Fan { fan: 0, from: 2 },
                Expanded::Edge(1)
            ]
        );
    }

    #[test]
    fn edges_to_no_entry_come_last() {
        let mut s = shape();
        s.nodes.push(("z", true));
        s.edge_targets.push("z");
        assert_eq!(s.expansion().last(), Some(&Expanded::Edge(2)));
    }
}
