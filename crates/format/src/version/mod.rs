//! blang/semver v4.0.0-compatible versions, ranges and OLM release strings.
//!
//! This module owns everything about version text in a catalog:
//! - [`Version`]: strict (`Parse`) and tolerant (`ParseTolerant`) parsing with
//!   blang's exact error texts, and blang precedence (build metadata ignored);
//! - [`VersionRange`]: blang `ParseRange` (used for `skipRange` and dependency
//!   ranges), including its space-splitting and wildcard quirks;
//! - [`Release`] and [`VersionRelease`]: operator-registry's release strings and
//!   the (version, release) ordering used by OLM v1;
//! - [`Constraints`]: Masterminds version constraints, as OLM v1 reads a version range.
//!
//! The `semver` crate is only used to store parsed versions; parsing, ordering
//! and range semantics are blang's and are implemented here.

mod masterminds;
mod range;
mod release;
#[allow(clippy::module_inception)]
mod version;

pub use masterminds::{Constraints, MastermindsError, MastermindsVersion};
pub use range::{RangeError, VersionRange};
pub use release::{Release, ReleaseError, VersionRelease};
pub use version::{NumErrorKind, NumberField, Version, VersionError};
