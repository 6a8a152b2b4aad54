//! Graphviz DOT export: one cluster per channel, edges styled like the olm-docs legend (replaces
//! solid, skips with a crossed arrow head, skipRange with circle ends), the head, the default
//! channel, deprecated, skipped and stranded entries highlighted. skipRange fans are drawn as
//! edges while all graphs together stay within a budget of edges; beyond it each fan is one
//! dashed "range" node (the range, how many entries it covers, the lowest and highest of them)
//! with one edge to its entry, and a comment says so.

use std::fmt::Write as _;

use super::channel_graph::{ChannelGraph, GraphEdge, GraphFan, EXPANSION_BUDGET};
use super::edge::EdgeKind;
use crate::gotext::thousands;

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Render channel graphs (of one or several packages) as one DOT digraph.
pub fn to_dot(graphs: &[ChannelGraph]) -> String {
    to_dot_within(graphs, EXPANSION_BUDGET)
}

/// [`to_dot`], drawing skipRange fans as edges only if all graphs together have at most `budget`
/// edges.
pub fn to_dot_within(graphs: &[ChannelGraph], budget: usize) -> String {
    let total: usize = graphs.iter().map(ChannelGraph::edge_count).sum();
    let expand = total <= budget;
    let mut out = String::from("digraph upgrades {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"sans-serif\"];\n  edge [fontname=\"sans-serif\"];\n");
    if !expand {
        let _ = writeln!(
            out,
            "  // {} edges are more than the budget of {}: skipRange edges are drawn as ranges",
            thousands(total),
            thousands(budget)
        );
    }
    for (ci, g) in graphs.iter().enumerate() {
        let _ = writeln!(out, "  subgraph cluster_{ci} {{");
        let mut label = format!("{} / {}", g.package, g.channel);
        if g.is_default {
            label.push_str(" (default)");
        }
        if g.deprecated.is_some() {
            label.push_str(" (deprecated)");
        }
        let _ = writeln!(out, "    label={};", quote(&label));
        let _ = writeln!(out, "    style=\"rounded{}\";", if g.is_default { ",bold" } else { "" });
        if g.deprecated.is_some() {
            let _ = writeln!(out, "    bgcolor=\"#F3E5F5\";");
        }
        let id = |name: &str| quote(&format!("{}/{}/{}", g.package, g.channel, name));
        for n in &g.nodes {
            let mut attrs = vec![format!("label={}", quote(&n.name))];
            if n.is_virtual {
                attrs.push("style=\"rounded,dashed\"".into());
                attrs.push("fontcolor=gray40".into());
            }
            if n.head {
                attrs.push("penwidth=3".into());
                attrs.push("color=\"#2E7D32\"".into());
            }
            if n.deprecated.is_some() {
                attrs.push("fillcolor=\"#E8960F\"".into());
            } else if n.stranded && !n.is_virtual {
                attrs.push("fillcolor=\"#FFCDD2\"".into());
            }
            if n.skipped {
                attrs.push("color=\"#FF0000\"".into());
            }
            let _ = writeln!(out, "    {} [{}];", id(&n.name), attrs.join(", "));
        }
        let expanded: Vec<GraphEdge>;
        let edges = match expand {
            true => {
                expanded = g.expanded_edges(budget).unwrap_or_else(|_| g.edges.clone());
                &expanded
            }
            false => &g.edges,
        };
        for e in edges {
            let style = edge_style(e.kind);
            let _ =
                writeln!(out, "    {} -> {} [{style}, tooltip={}];", id(&e.from), id(&e.to), quote(e.kind.as_str()));
        }
        if !expand {
            for f in &g.fans {
                let span = fan_span(g, f).map(|(lo, hi)| format!("\n{lo} … {hi}")).unwrap_or_default();
                let label = format!("skipRange {}\n{} entries{span}", f.range, thousands(f.count));
                let range_id = id(&format!("skipRange:{}", f.to));
                let _ = writeln!(out, "    {range_id} [label={}, shape=note, style=dashed];", quote(&label));
                let style = edge_style(EdgeKind::SkipRange);
                let _ = writeln!(out, "    {range_id} -> {} [{style}, tooltip=\"skipRange\"];", id(&f.to));
            }
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}

fn edge_style(kind: EdgeKind) -> &'static str {
    match kind {
        EdgeKind::Replaces => "style=solid, arrowhead=normal",
        EdgeKind::Skips => "style=solid, arrowhead=teetee, color=\"#C62828\"",
        EdgeKind::SkipRange => "style=dashed, arrowhead=odot, arrowtail=odot, dir=both, color=\"#1565C0\"",
    }
}

/// The lowest and highest (by version) of the entries a fan covers.
fn fan_span<'g>(g: &'g ChannelGraph, f: &GraphFan) -> Option<(&'g str, &'g str)> {
    let name = |p: usize| {
        let n = g.by_version.get(p).and_then(|&i| g.nodes.get(i))?;
        (n.name != f.to).then_some(n.name.as_str())
    };
    let lowest = f.runs.iter().flat_map(|&[s, e]| s..e).find_map(name)?;
    let highest = f.runs.iter().rev().flat_map(|&[s, e]| (s..e).rev()).find_map(name)?;
    Some((lowest, highest))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::{channel, foo, TestCatalog};

    /// 1.0.0 <- 1.0.1 <- 1.0.2, the head also covering `<1.0.2`: 2 replaces and 2 skipRange edges.
    fn graph() -> ChannelGraph {
        let m = TestCatalog::new()
            .channel(
                "stable",
                "
                - name: foo.v1.0.0
                - {name: foo.v1.0.1, replaces: foo.v1.0.0}
                - {name: foo.v1.0.2, replaces: foo.v1.0.1, skipRange: '<1.0.2'}
                ",
            )
            .build();
        ChannelGraph::new(foo(&m), channel(&m, "stable"))
    }

    #[test]
    fn skip_range_edges_are_drawn_within_the_budget() {
        let dot = to_dot_within(&[graph()], 4);
        assert_eq!(dot.matches("tooltip=\"skipRange\"").count(), 2);
        assert!(!dot.contains("shape=note"));
    }

    #[test]
    fn beyond_the_budget_each_fan_is_one_range_node() {
        let dot = to_dot_within(&[graph()], 3);
        assert!(dot.contains("// 4 edges are more than the budget of 3: skipRange edges are drawn as ranges"), "{dot}");
        assert!(dot.contains(
            "\"foo/stable/skipRange:foo.v1.0.2\" [label=\"skipRange <1.0.2\\n2 entries\\nfoo.v1.0.0 … foo.v1.0.1\", shape=note, style=dashed];"
        ), "{dot}");
        assert_eq!(dot.matches("tooltip=\"skipRange\"").count(), 1);
        assert_eq!(dot.matches("tooltip=\"replaces\"").count(), 2);
    }
}
