//! Where a finding points: an entry, a channel, a package or a bundle of one catalog, as a
//! `Location` (file, line, column, JSON pointer), and small facts several rules read (a bundle's
//! version text, whether it is deprecated).

use crate::diagnostic::Location;
use crate::model::{Bundle, Channel, Entry, Package};
use crate::property::Property;

/// Entry `e` of channel `c`: its `name` field.
pub(crate) fn entry(c: &Channel, e: &Entry) -> Location {
    entry_field(c, e, "name")
}

/// Entry `e` of channel `c`: its `replaces` field when set, else its name.
pub(crate) fn entry_replaces(c: &Channel, e: &Entry) -> Location {
    if e.replaces.value.is_empty() {
        entry(c, e)
    } else {
        entry_field(c, e, "replaces")
    }
}

fn entry_field(c: &Channel, e: &Entry, field: &str) -> Location {
    let pos = if field == "replaces" { e.replaces.pos } else { e.name.pos };
    c.source.as_ref().map(|s| s.at(pos, format!("/entries/{}/{field}", e.index))).unwrap_or_default()
}

/// Channel `c`'s blob (its `entries` field's parent), or the package's blob for a synthesized one.
pub(crate) fn channel(p: &Package, c: &Channel) -> Location {
    c.source.as_ref().map_or_else(|| package(p), |s| s.blob())
}

/// The package's blob.
pub(crate) fn package(p: &Package) -> Location {
    p.source.blob()
}

/// The package's `defaultChannel` field.
pub(crate) fn default_channel(p: &Package) -> Location {
    p.source.at(p.default_channel.pos, "/defaultChannel")
}

/// The bundle's blob.
pub(crate) fn bundle(b: &Bundle) -> Location {
    b.source.blob()
}

/// Property `i` of bundle `b`.
pub(crate) fn property(b: &Bundle, i: usize) -> Location {
    match b.raw_properties.get(i) {
        Some(p) => b.source.at(p.pos, format!("/properties/{i}")),
        None => bundle(b),
    }
}

/// The bundle that entry `e` names.
pub(crate) fn bundle_of<'a>(p: &'a Package, e: &Entry) -> Option<&'a Bundle> {
    e.bundle.and_then(|i| p.bundles.get(i))
}

/// The version text (`1.2.0`, `1.2.0-2` with a release) of the bundle `name`, when known.
pub(crate) fn version_of(p: &Package, name: &str) -> Option<String> {
    p.bundle(name).and_then(Bundle::version_string)
}

/// Whether the bundle is deprecated (by `olm.deprecations` or the legacy `olm.deprecated`).
pub(crate) fn is_deprecated(b: &Bundle) -> bool {
    b.deprecation.is_some() || b.properties.iter().any(|(_, p)| matches!(p, Property::Deprecated))
}
