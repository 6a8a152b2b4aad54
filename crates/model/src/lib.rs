//! olm-catalog's model layers (ARCHITECTURE.md, L3–L5): typed bundle properties ([`property`]),
//! the checked catalog ([`model`]) and the cluster as OLM sees it ([`cluster`]), and upgrade
//! graphs ([`graph`]). Built on `olm-catalog-format`, whose modules are brought into this crate's
//! root so that every module names them as `crate::declcfg`, `crate::version`, and so on.
//!
//! The `olm-catalog` crate re-exports it.
#![warn(missing_docs)]

#[allow(unused_imports)]
use olm_catalog_format::{
    declcfg, diagnostic, dns_label, gosort, gotext, hash, image_ref, load_files, sort, version, Diagnostic, Severity,
};

pub mod cluster;
pub mod graph;
pub mod model;
pub mod property;
