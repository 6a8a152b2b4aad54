//! WebAssembly bindings (compiled only for wasm32; on other targets this crate is empty):
//! translation between JS values and the library, no logic. Inputs are plain data (file lists of
//! `{path, content}`, option objects) and outputs plain JS objects. Validation findings come back
//! as data; unusable input throws a JS `Error` with `name`, `code` and, where relevant,
//! `diagnostics`. scripts/build-pkg.sh builds this crate's cdylib into the npm package's modules.
//!
//! Without the `tools` feature (the browsers' core module) the exports of render, templates,
//! OperatorGroup checks, RBAC previews, diffs, CRD upgrade safety, Mermaid and DOT output and
//! `formatDiagnostics` are left out, and so is their code (the crate `olm-catalog-tools`).
//!
//! One module per API area (`api`), the façade's conventions in `convert`; this root holds the
//! lower crates' modules (`crate::declcfg`, `crate::validate`, … for every module), the global
//! allocator and the region budgets, `start`, `hasResolver` and the test hooks.
#![cfg(target_arch = "wasm32")]
#![cfg_attr(not(feature = "tools"), allow(dead_code, unused_imports))]

mod convert;
#[cfg(all(olm_wasm_speed, not(target_feature = "bulk-memory")))]
mod copy;
mod mem;
mod region;

/// The exports, one module per API area. `Catalog`'s methods are in the areas that add them.
mod api {
    pub(crate) mod catalog;
    #[cfg(feature = "tools")]
    pub(crate) mod crd_safety;
    pub(crate) mod deps;
    pub(crate) mod diff;
    pub(crate) mod edit;
    #[cfg(feature = "tools")]
    pub(crate) mod image;
    pub(crate) mod operatorgroup;
    pub(crate) mod render;
    #[cfg(feature = "resolver")]
    pub(crate) mod resolver;
    pub(crate) mod validate;
}

#[cfg(feature = "tools")]
#[allow(unused_imports)]
use olm_catalog_crd_safety::crd_safety;
#[allow(unused_imports)]
use olm_catalog_format::{declcfg, diagnostic, gotext, hash, sort, version, Diagnostic, Severity};
#[allow(unused_imports)]
use olm_catalog_model::{cluster, graph, model, property};
#[cfg(feature = "resolver")]
#[allow(unused_imports)]
use olm_catalog_resolve::resolve;
#[cfg(feature = "tools")]
#[allow(unused_imports)]
use olm_catalog_tools::{deps, diff, edit, operatorgroup, render, report_formats};
#[allow(unused_imports)]
use olm_catalog_validate::validate;

use wasm_bindgen::prelude::*;

pub use api::catalog::{load_catalog, Catalog};
#[cfg(feature = "tools")]
pub use api::crd_safety::crd_safety;
#[cfg(feature = "tools")]
pub use api::diff::{diff_files, diff_files_text, format_diagnostics};
#[cfg(feature = "tools")]
pub use api::edit::{apply_edits_js, plan_edit_js, plan_edit_with_js};
#[cfg(feature = "tools")]
pub use api::image::read_image;
#[cfg(feature = "tools")]
pub use api::operatorgroup::{check_operator_groups, check_operator_groups_text};
#[cfg(feature = "tools")]
pub use api::render::{convert_to_basic_template, expand_template, render};
#[cfg(feature = "resolver")]
pub use api::resolver::{resolve_v1, Resolver};
pub use api::validate::validate;
#[cfg(feature = "tools")]
pub use api::validate::{open_catalog, CatalogSession};
#[cfg(all(feature = "resolver", feature = "tools"))]
pub use api::validate::{parse_and_decode, parse_only};

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

/// The global allocator: dlmalloc, with a region for `validate` (`region`'s documentation).
#[global_allocator]
static ALLOCATOR: region::Allocator = region::Allocator::new();

/// How much a validation's region may take from dlmalloc, per byte of input and at the least: a
/// validation of community-v4.20 (15 MB) takes about 40 MB of pages (the instance's memory grows
/// to 53 MB, against 40 MB with dlmalloc alone); beyond the budget, small blocks go to dlmalloc.
const REGION_BYTES_PER_INPUT_BYTE: usize = 4;
const REGION_MIN_BYTES: usize = 16 << 20;

/// How much a resolution's region may take from dlmalloc (pages whose blocks are all freed are
/// reused first, and handed back when the call ends). Beyond the budget, small blocks go to
/// dlmalloc, so a larger resolution is slower, never refused.
#[cfg(feature = "resolver")]
const RESOLVE_REGION_BYTES: usize = 16 << 20;

/// How much a graph, path or drawing call's region may take from dlmalloc: the channels' orders,
/// successor tables and steps it builds are all dropped before it returns (in the graphs phase of
/// the benchmark, dlmalloc's `malloc` and `free` were a sixth of the wasm time; docs/performance.md,
/// "WebAssembly against native").
const GRAPH_REGION_BYTES: usize = 16 << 20;

/// Whether this build has the resolver (the npm package ships a build without it for browsers,
/// and loads the full one on demand).
#[wasm_bindgen(js_name = hasResolver)]
pub fn has_resolver() -> bool {
    cfg!(feature = "resolver")
}

/// Test hook: panics on purpose, so tests can check that the façade recovers. Only in builds
/// with the `test-hooks` feature (the Node tests' build), never in the published package.
#[cfg(feature = "test-hooks")]
#[wasm_bindgen(js_name = __panicForTesting)]
pub fn panic_for_testing() {
    panic!("deliberate panic for testing");
}
