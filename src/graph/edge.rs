//! The vocabulary the channel graph, the upgrade paths and the lints share: how an upgrade edge is
//! declared ([`EdgeKind`]) and the version of the bundle an entry names. Depends on the model only,
//! so the other graph modules can all read it without importing each other.

use serde::Serialize;

use crate::model::Package;
use crate::version::Version;

/// How an upgrade edge is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum EdgeKind {
    /// The newer entry `replaces` the older one.
    Replaces,
    /// The newer entry lists the older one in `skips`.
    Skips,
    /// The older entry's version is in the newer entry's `skipRange`.
    SkipRange,
}

impl EdgeKind {
    /// The word used in text output.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Replaces => "replaces",
            EdgeKind::Skips => "skips",
            EdgeKind::SkipRange => "skipRange",
        }
    }
}

/// The version of the bundle an entry names (`Entry::bundle`), when known and valid.
pub(crate) fn entry_version(package: &Package, bundle: Option<usize>) -> Option<&Version> {
    bundle.and_then(|i| package.bundles.get(i)).and_then(|b| b.version.as_ref())
}
