//! Upgrade graphs: per-channel graphs of `replaces`, `skips` and `skipRange` edges, heads, OLM v0's
//! channel order and one-step-at-a-time upgrade paths, OLM v1 successors, stranded versions, lints,
//! and Mermaid (opm-identical), DOT and JSON exports. Reads only the model.
//!
//! skipRange edges are kept as ranges ("fans", `fan`): an entry and the runs of the channel's
//! version order its range covers, so no step is quadratic in the channel's size; expanding them
//! into edges has a budget ([`EXPANSION_BUDGET`]).
//!
//! Imports inside this module run one way: `edge` and `order` read the model only; `fan` reads
//! `edge`; `successors` reads `fan` (one step from every entry at once); `start` reads the model (what a
//! user's `from` means); `upgrade` reads them;
//! `channel_graph` reads `upgrade` (for stranded entries); `lint` and `dot` read the channel
//! graph; `mermaid` reads the model and `fan`.
//!
//! The picture (issue 16): `picture` reads the channel graph and `upgrade` and says what to draw
//! ([`picture_draft`]); the crate `olm-graph-picture` (`crates/graph-picture`, re-exported here:
//! [`layout`], [`draw`], the picture's types, the SVG) lays it out and draws it, so that the
//! browsers can keep that code in a module of its own; `svg` draws a catalog's channel as a
//! standalone SVG document. The vocabulary the picture shares with the analyses
//! ([`EdgeKind`], [`Semantics`], [`Step`]) is defined in that crate.

mod channel_graph;
mod dot;
mod edge;
mod fan;
#[doc(hidden)]
pub mod lint;
mod mermaid;
#[doc(hidden)]
pub mod order;
mod picture;
mod smallest;
mod start;
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
/// The generic layered layout the pictures use (`crates/graph-picture`).
pub use olm_graph_picture::layout;
pub use order::{v0_order, OrderError};
pub use picture::{
    default_picture_channel, draw, graph_picture, picture_draft, Draft, DraftEdge, DraftNode, DraftOptions, NodeGroup,
    NodeKind, Picture, PictureEdge, PictureEdgeKind, PictureError, PictureNode, PictureOptions, PicturePath, TooLarge,
    COLLAPSE_THRESHOLD, FAN_EXPANSION_BUDGET, MAX_PICTURE_EDGES, MAX_PICTURE_NODES, PATH_KEPT_EXPANDED,
};
pub use svg::{escape as escape_xml, picture_svg, render_graph_svg, SvgOptions, SvgStyle, Theme};
pub use upgrade::{
    channel_paths, legacy_successor, successors_v1, successors_v1_semver, upgrade_path, PathError, Semantics, Start,
    Step, UpgradePath,
};
