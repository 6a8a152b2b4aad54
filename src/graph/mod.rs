//! Upgrade graphs: per-channel graphs of `replaces`, `skips` and `skipRange` edges, heads, OLM v0's
//! channel order and one-step-at-a-time upgrade paths, OLM v1 successors, stranded versions, lints,
//! and Mermaid (opm-identical), DOT and JSON exports. Reads the model (and, for opm's Mermaid
//! writer, the raw catalog, as opm does).

mod channel_graph;
mod dot;
pub mod lint;
pub mod mermaid;
pub mod order;
pub mod upgrade;

pub use channel_graph::{ChannelGraph, EdgeKind, GraphEdge, GraphNode, PackageGraph};
pub use dot::to_dot;
pub use mermaid::{to_mermaid, MermaidOptions};
pub use order::{v0_order, v0_order_links, Links, OrderError};
pub use upgrade::{
    can_upgrade, channel_paths, legacy_successor, package_view, successors_v1, successors_v1_semver, upgrade_path,
    within_steps, ChannelOption, PathError, Semantics, Start, Step, UpgradePath,
};
