//! The plain-data half of building a [`Draft`]: marking the highlighted path on a draft
//! ([`mark_path`]) and the path's text ([`picture_path`]). They need no catalog, only the names
//! and steps `olm-catalog`'s channel graph and upgrade path already give, so native Rust and the
//! browsers' picture module can share them (issue 15: the core module is to carry no
//! picture-specific code; docs/performance.md, "WebAssembly size").

use std::collections::HashMap;

use crate::picture::{Draft, DraftEdge, PictureEdgeKind, PicturePath};
use crate::vocabulary::Step;

/// Mark the path from `from` along `steps` on `d`: its nodes and edges, each step's number;
/// draw a step no drawn edge stands for. A start that is a bare version (`1.2.0`, in no channel
/// as a name) starts at the entry with that version, if there is one. The first node of a name
/// stands for it.
#[cfg_attr(olm_wasm_size, optimize(size))]
pub fn mark_path(d: &mut Draft, from: &str, steps: &[Step]) {
    let mut index: HashMap<&str, usize> = HashMap::new();
    for (i, node) in d.nodes.iter().enumerate() {
        index.entry(node.name.as_str()).or_insert(i);
    }
    // The positions only: the names are borrowed from `d`, which is changed below.
    let find = |name: &str| index.get(name).copied();
    let start = find(from).or_else(|| d.nodes.iter().position(|n| !n.is_virtual && n.version.as_deref() == Some(from)));
    let marks: Vec<(usize, Option<usize>, PictureEdgeKind)> = steps
        .iter()
        .filter_map(|step| {
            let to = find(&step.to)?;
            Some((to, find(&step.from).or(start.filter(|_| &*step.from == from)), step.edge.into()))
        })
        .collect();
    // `marks` skips steps whose target is not drawn; their numbers count all steps.
    let numbers: Vec<usize> =
        steps.iter().enumerate().filter(|(_, s)| find(&s.to).is_some()).map(|(k, _)| k + 1).collect();
    drop(index);
    if let Some(s) = start {
        d.nodes[s].on_path = true;
        d.start = Some(s);
    }
    for ((to, from, kind), k) in marks.into_iter().zip(numbers) {
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
/// head (`to`), or that `from` is the head, or why no path does (`stranded`, `reason`).
#[cfg_attr(olm_wasm_size, optimize(size))]
pub fn picture_path(
    from: String,
    to: Option<String>,
    steps: Vec<Step>,
    stranded: bool,
    reason: Option<String>,
) -> PicturePath {
    let lines = steps.iter().map(|s| format!("{} → {} ({})", s.from, s.to, s.edge.as_str())).collect();
    let head = to.as_deref().unwrap_or("(no head)");
    let summary = if stranded {
        format!("Stranded: no path from {from} to {head}: {}", reason.as_deref().unwrap_or(""))
    } else if steps.is_empty() {
        format!("{from} is the head of the channel")
    } else {
        let n = steps.len();
        format!("{n} upgrade{} from {from} to reach {head}", if n == 1 { "" } else { "s" })
    };
    PicturePath { from, to, steps, stranded, reason, lines, summary }
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

    fn draft() -> Draft {
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
        let mut d = draft();
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
        let mut d = draft();
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
    fn the_summary_counts_upgrades_or_says_why_there_are_none() {
        let p = picture_path("a".into(), Some("b".into()), vec![step("a", "b", EdgeKind::Skips)], false, None);
        assert_eq!((p.lines, p.summary.as_str()), (vec!["a → b (skips)".to_string()], "1 upgrade from a to reach b"));
        assert_eq!(
            picture_path("b".into(), Some("b".into()), vec![], false, None).summary,
            "b is the head of the channel"
        );
        let s = picture_path("a".into(), None, vec![], true, Some("no order".into())).summary;
        assert_eq!(s, "Stranded: no path from a to (no head): no order");
    }
}
