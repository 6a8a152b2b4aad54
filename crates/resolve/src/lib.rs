//! olm-catalog's resolver (ARCHITECTURE.md, L6): [`resolve`](resolve::resolve) a cluster's
//! subscriptions as OLM v0's resolver does, and pick like OLM v1 ([`resolve::v1`]). Built on the
//! model crate and the format crate, whose modules are brought into this crate's root so that
//! every module names them as `crate::model`, `crate::declcfg`, and so on.
//!
//! The `olm-catalog` crate re-exports it (feature `resolver`).
#![warn(missing_docs)]

#[allow(unused_imports)]
use olm_catalog_format::{declcfg, diagnostic, gotext, hash, sort, version, Diagnostic, Severity};
#[allow(unused_imports)]
use olm_catalog_model::{cluster, graph, model, property};

pub mod resolve;
