//! The words a picture shares with olm-catalog's graph analyses (which re-export them): how an
//! upgrade edge is declared, whose rules a path follows, one step of a path.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// How an upgrade edge is declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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

/// Which OLM's rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Semantics {
    /// OLM v0: the resolver's one-step-at-a-time upgrades.
    V0,
    /// OLM v1: the highest successor, legacy rules.
    V1,
}

/// One upgrade. The names are shared (`Arc<str>`): every step and path computed over one channel
/// at once (`olm_catalog::graph::channel_paths`) holds the same copy of each entry's name, so a
/// step costs no allocation of its own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    /// The bundle upgraded from.
    pub from: Arc<str>,
    /// The bundle upgraded to.
    pub to: Arc<str>,
    /// The edge taken.
    pub edge: EdgeKind,
}
