//! OLM dependency resolution: OLM v0's SAT-based resolver (subscriptions, installed operators,
//! catalog priority, dependency preferences, invariants) and OLM v1's single-package selection.
//! Reads catalogs as resolver entries; never writes to the model.

pub mod cel;
pub mod v1;
