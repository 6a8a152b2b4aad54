//! The drawing of OLM upgrade graphs, from plain data: what [`olm-catalog`] computes from a
//! catalog (a [`Draft`]: a channel's nodes and edges, the highlighted path) becomes a laid-out
//! [`Picture`] ([`draw`]: z-stream runs collapsed, node sizes, the generic layered [`layout`],
//! edge routes, the text for screen readers) and an SVG document ([`picture_svg`]).
//!
//! The browsers' picture module is this crate alone (feature `bindings`: `drawPicture`,
//! `drawSvg`, `layoutGraph`), so the module browsers load first, which reads and validates
//! catalogs, holds none of the layout or the SVG (docs/performance.md, "WebAssembly size").
//! It knows nothing of catalog files or the model; its vocabulary shared with the graph
//! analyses ([`EdgeKind`], [`Semantics`], [`Step`]) is defined here and re-exported by
//! `olm_catalog::graph`.
//!
//! [`olm-catalog`]: ../olm_catalog/index.html
#![warn(missing_docs)]

mod draft;
pub mod fans;
pub mod layout;
mod picture;
mod svg;
mod text;
mod vocabulary;
#[cfg(all(feature = "bindings", target_arch = "wasm32"))]
mod wasm;

pub use draft::{
    channel_draft, draft, mark_path, picture_path, DraftOptions, GraphData, GraphDataEdge, GraphDataFan, GraphDataNode,
    PathData, FAN_EXPANSION_BUDGET,
};
pub use picture::{
    draw, Draft, DraftEdge, DraftNode, NodeGroup, NodeKind, Picture, PictureEdge, PictureEdgeKind, PictureNode,
    PicturePath, TooLarge, COLLAPSE_THRESHOLD, MAX_PICTURE_EDGES, MAX_PICTURE_NODES, PATH_KEPT_EXPANDED,
};
pub use svg::{escape, picture_svg, SvgStyle, Theme};
pub use vocabulary::{EdgeKind, Semantics, Step};
