//! The cold parts of validation, compiled for size in WebAssembly (Cargo.toml,
//! `[profile.wasm.package.olm-catalog-lints]`): the lint configuration a run reads once
//! ([`lint_config`]), OLM v1's readiness lints, which run only when asked for ([`olm_v1`]), and
//! the text of opm's error tree, built once per report ([`error_tree`]). `olm-catalog-validate`
//! runs them; the model and format crates' modules are brought into this crate's root so that
//! every module names them as `crate::model`, `crate::declcfg`, and so on.
#![warn(missing_docs)]

#[allow(unused_imports)]
use olm_catalog_format::{declcfg, diagnostic, gotext, hash, sort, version};
#[allow(unused_imports)]
use olm_catalog_model::{model, property};

#[doc(hidden)]
pub mod error_tree;
pub mod lint_config;
#[doc(hidden)]
pub mod olm_v1;
