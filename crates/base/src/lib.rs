//! olm-catalog's base layer (ARCHITECTURE.md): [`sort`], the stable sorts every layer calls (one
//! shared routine in the browsers' WebAssembly modules), and [`hash`], the maps keyed by catalog
//! names with a fast seeded hasher. Knows nothing of catalogs.
#![warn(missing_docs)]

pub mod hash;
pub mod sort;
