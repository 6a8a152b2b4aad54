//! olm-catalog: Operator Lifecycle Manager catalogs as data.
//!
//! Layers (data flows one way, see `../shared/spec/design.md`):
//! - [`declcfg`]: the raw, lossless File-Based Catalog with a source map;
//! - [`property`]: typed bundle properties;
//! - [`version`]: blang/semver-compatible versions, ranges and releases;
//! - [`model`]: the checked semantic model built from `declcfg`;
//! - [`validate`]: every check `opm validate` makes, as [`Diagnostic`]s.

pub mod declcfg;
pub mod diagnostic;
pub mod dns_label;
pub mod image_ref;
pub mod model;
pub mod property;
pub mod validate;
pub mod version;

pub use diagnostic::{Diagnostic, Location, Severity};
