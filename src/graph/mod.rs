//! Upgrade graphs: per-channel graphs of `replaces`, `skips` and `skipRange` edges, heads, OLM v0's
//! channel order and one-step-at-a-time upgrade paths, OLM v1 successors, stranded versions, lints,
//! and Mermaid (opm-identical), DOT and JSON exports. Reads only the model.
//!
//! Imports inside this module run one way: `edge` and `order` read the model only; `upgrade` reads
//! them; `channel_graph` reads `upgrade` (for stranded entries); `lint` and `dot` read the channel
//! graph; `mermaid` reads the model alone.

mod channel_graph;
mod dot;
mod edge;
pub(crate) mod lint;
mod mermaid;
pub(crate) mod order;
mod upgrade;

#[cfg(test)]
mod testing;

pub use channel_graph::{ChannelGraph, GraphEdge, GraphNode, PackageGraph};
pub use dot::to_dot;
pub use edge::EdgeKind;
pub use mermaid::{to_mermaid, MermaidError, MermaidOptions};
pub use order::{v0_order, OrderError};
pub use upgrade::{
    channel_paths, legacy_successor, successors_v1, successors_v1_semver, upgrade_path, PathError, Semantics, Start,
    Step, UpgradePath,
};
