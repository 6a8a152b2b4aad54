//! Graphviz DOT export: one cluster per channel, edges styled like the olm-docs legend (replaces
//! solid, skips with a crossed arrow head, skipRange with circle ends), the head, the default
//! channel, deprecated, skipped and stranded entries highlighted.

use std::fmt::Write as _;

use super::channel_graph::ChannelGraph;
use super::edge::EdgeKind;

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
    let mut out = String::from("digraph upgrades {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fillcolor=white, fontname=\"sans-serif\"];\n  edge [fontname=\"sans-serif\"];\n");
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
        for e in &g.edges {
            let style = match e.kind {
                EdgeKind::Replaces => "style=solid, arrowhead=normal",
                EdgeKind::Skips => "style=solid, arrowhead=teetee, color=\"#C62828\"",
                EdgeKind::SkipRange => "style=dashed, arrowhead=odot, arrowtail=odot, dir=both, color=\"#1565C0\"",
            };
            let _ =
                writeln!(out, "    {} -> {} [{style}, tooltip={}];", id(&e.from), id(&e.to), quote(e.kind.as_str()));
        }
        out.push_str("  }\n");
    }
    out.push_str("}\n");
    out
}
