//! The vocabulary the channel graph, the upgrade paths and the lints share: how an upgrade edge is
//! declared ([`EdgeKind`]) and the version of the bundle an entry names. Depends on the model only,
//! so the other graph modules can all read it without importing each other.

use crate::model::Package;
use crate::version::Version;

/// How an upgrade edge is declared (defined with the picture's data, `crates/graph-picture`).
pub use olm_graph_picture::EdgeKind;

/// The version of the bundle an entry names (`Entry::bundle`), when known and valid.
pub fn entry_version(package: &Package, bundle: Option<usize>) -> Option<&Version> {
    bundle.and_then(|i| package.bundles.get(i)).and_then(|b| b.version.as_ref())
}
