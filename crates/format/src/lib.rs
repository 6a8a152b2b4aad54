//! olm-catalog's lowest layers (ARCHITECTURE.md, L0–L2): the File-Based Catalog as opm reads it,
//! every value located ([`declcfg`]), the scalar values a catalog spells as strings ([`version`],
//! `dns_label`, `image_ref`), Go-compatible text (`gotext`) and the [`Diagnostic`] type, over
//! `olm-catalog-base` (sorting and hashing, re-exported here) and `olm-catalog-indexignore`. It knows nothing of packages, channels or the model.
//!
//! The `olm-catalog` crate re-exports it; its modules not part of that API are hidden here.
#![warn(missing_docs)]

pub mod declcfg;
#[doc(hidden)]
pub mod diagnostic;
#[doc(hidden)]
pub mod dns_label;
#[doc(hidden)]
pub mod gotext;
#[doc(hidden)]
pub mod image_ref;
#[cfg(test)]
mod test_rng;
pub mod version;

/// Sorting and hashing (crates/base), which every layer shares.
#[doc(hidden)]
pub use olm_catalog_base::{gosort, hash, sort, FAST_PATHS};

#[cfg(not(target_arch = "wasm32"))]
pub use declcfg::{load_dir, read_catalog};
pub use declcfg::{load_files, DeclarativeConfig, FileInput, Loaded};
pub use diagnostic::{Code, Diagnostic, Location, Related, Severity};
pub use version::{Version, VersionRange};
