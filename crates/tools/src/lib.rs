//! olm-catalog's authoring and review tools (ARCHITECTURE.md, L6–L7): rendering bundle
//! directories, package manifests and templates to `declcfg` ([`render`]), OperatorGroup checks
//! and RBAC previews ([`operatorgroup`]), catalog diffs ([`diff`]), the cross-package view
//! ([`deps`]), in-place edits ([`edit`]), and the CI report formats ([`report_formats`]). Cold
//! code next to validation and graphs: the WebAssembly profile compiles this crate for size
//! (Cargo.toml, `[profile.wasm.package.olm-catalog-tools]`). Built on the model and format
//! crates and validation, whose modules are brought into this crate's root so that every module names them as
//! `crate::model`, `crate::declcfg`, and so on.
//!
//! The `olm-catalog` crate re-exports it.
#![warn(missing_docs)]

#[allow(unused_imports)]
use olm_catalog_crd_safety::crd_safety;
#[allow(unused_imports)]
use olm_catalog_format::{declcfg, diagnostic, gosort, gotext, hash, sort, version, Diagnostic, Severity};
#[allow(unused_imports)]
use olm_catalog_model::{cluster, graph, model, property};
#[allow(unused_imports)]
use olm_catalog_validate::validate;

pub mod deps;
pub mod diff;
pub mod edit;
pub mod operatorgroup;
pub mod render;
pub mod report_formats;
