//! CRD upgrade safety (ARCHITECTURE.md, analyses): whether the CustomResourceDefinitions of an
//! upgrade's new bundle may replace the old bundle's, as OLM v1's CRD Upgrade Safety preflight
//! judges it (operator-controller's `crdupgradesafety` running `sigs.k8s.io/crdify`'s default
//! checks) and as OLM v0 judges stored versions, for one pair of CRDs or for every upgrade edge
//! of a catalog ([`crd_safety`]). Cold code, read once per run: the WebAssembly profile compiles
//! this crate for size (Cargo.toml, `[profile.wasm.package.olm-catalog-crd-safety]`). The model
//! and format crates' modules are brought into this crate's root so that every module names them
//! as `crate::model`, `crate::declcfg`, and so on.
//!
//! The `olm-catalog` crate re-exports it.
#![warn(missing_docs)]

#[allow(unused_imports)]
use olm_catalog_format::{declcfg, diagnostic, gotext, hash, sort, version};
#[allow(unused_imports)]
use olm_catalog_model::{graph, model, property};
#[allow(unused_imports)]
use olm_catalog_validate::validate;

pub mod crd_safety;
