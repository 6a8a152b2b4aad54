//! placeholder
use crate::declcfg::Node;
use crate::render::{BundleSource, Rendered};
pub(super) fn expand(_file: &str, _doc: Option<Node>, _source: &BundleSource) -> Rendered { Rendered::default() }
