//! Upgrade graphs: per-channel graphs of `replaces`, `skips` and `skipRange` edges, heads, OLM v0's
//! channel order and one-step-at-a-time upgrade paths, OLM v1 successors, stranded versions, lints,
//! and Mermaid (opm-identical), DOT and JSON exports. Reads only the model.
//!
//! skipRange edges are kept as ranges ("fans", `fan`): an entry and the runs of the channel's
//! version order its range covers, so no step is quadratic in the channel's size; expanding them
//! into edges has a budget ([`EXPANSION_BUDGET`]).
//!
//! Imports inside this module run one way: `edge` and `order` read the model only; `fan` reads
//! `edge`; `successors` reads `fan` (one step from every entry at once); `upgrade` reads them;
//! `channel_graph` reads `upgrade` (for stranded entries); `lint` and `dot` read the channel
//! graph; `mermaid` reads the model and `fan`.
//!
//! The picture (issue 16): `layout` is a generic layered layout that knows nothing of catalogs;
//! `picture` reads the channel graph, `upgrade` and `layout` and says what to draw where
//! ([`Picture`]); `svg` draws a picture as a standalone SVG document.

mod channel_graph;
mod dot;
mod edge;
mod fan;
pub mod layout;
pub(crate) mod lint;
mod mermaid;
pub(crate) mod order;
mod picture;
mod smallest;
mod successors;
mod svg;
mod upgrade;

#[cfg(test)]
mod testing;

#[doc(hidden)]
pub use channel_graph::graphs_and_paths;
pub use channel_graph::{ChannelGraph, ExpansionError, GraphEdge, GraphFan, GraphNode, PackageGraph, EXPANSION_BUDGET};
pub use dot::{to_dot, to_dot_within};
pub use edge::EdgeKind;
pub use mermaid::{to_mermaid, to_mermaid_within, MermaidError, MermaidOptions};
pub use order::{v0_order, OrderError};
pub use picture::{
    graph_picture, NodeGroup, NodeKind, Picture, PictureEdge, PictureEdgeKind, PictureError, PictureNode,
    PictureOptions, PicturePath, COLLAPSE_THRESHOLD, FAN_EXPANSION_BUDGET, MAX_PICTURE_EDGES, MAX_PICTURE_NODES,
    PATH_KEPT_EXPANDED,
};
pub use svg::{escape as escape_xml, picture_svg, render_graph_svg, SvgOptions, Theme};
pub use upgrade::{
    channel_paths, legacy_successor, successors_v1, successors_v1_semver, upgrade_path, PathError, Semantics, Start,
    Step, UpgradePath,
};
