//! olm-catalog's validation (ARCHITECTURE.md, L6): [`validate`] runs load, model build, opm's
//! checks and our lints into one report, and keeps a session for edits; and synthetic catalogs
//! ([`synth`], whose tests validate what they write). Built on the model and format crates and on
//! `olm-catalog-lints` (validation's cold parts), whose modules are brought into this crate's root
//! so that every module names them as `crate::model`, `crate::declcfg`, and so on.
//!
//! The `olm-catalog` crate re-exports it.
#![warn(missing_docs)]

#[allow(unused_imports)]
use olm_catalog_format::{
    declcfg, diagnostic, dns_label, gotext, hash, image_ref, load_files, sort, version, Diagnostic, Severity,
};
#[allow(unused_imports)]
use olm_catalog_lints::lint_config;
#[allow(unused_imports)]
use olm_catalog_model::{cluster, graph, model, property};

pub mod synth;
pub mod validate;
