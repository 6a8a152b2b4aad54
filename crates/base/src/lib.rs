//! olm-catalog's base layer (ARCHITECTURE.md): [`sort`], the stable sorts every layer calls (one
//! shared routine in the browsers' WebAssembly modules), and [`hash`], the maps keyed by catalog
//! names with a fast seeded hasher, and [`gosort`], Go's unstable sort where opm's order of equal
//! keys must be reproduced. Knows nothing of catalogs.
#![warn(missing_docs)]

pub mod gosort;
pub mod hash;
pub mod sort;
