//! olm-catalog's base layer (ARCHITECTURE.md): [`sort`], the stable sorts every layer calls (one
//! shared routine in the browsers' WebAssembly modules), and [`hash`], the maps keyed by catalog
//! names with a fast seeded hasher, and [`gosort`], Go's unstable sort where opm's order of equal
//! keys must be reproduced. Knows nothing of catalogs.
#![warn(missing_docs)]

pub mod gosort;
pub mod hash;
pub mod sort;

/// Whether this build takes the fast paths that cost code: `false` only in the browsers'
/// WebAssembly modules, which are built for size (their budget is in docs/performance.md), where
/// the general path alone decides (the same answers, more slowly). Native builds and Node's
/// module (`olm_wasm_speed`, set by scripts/build-pkg.sh) take them.
pub const FAST_PATHS: bool = cfg!(any(not(target_arch = "wasm32"), olm_wasm_speed));
