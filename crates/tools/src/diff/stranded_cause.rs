//! Which edit frees an installed version that OLM v0 leaves stranded in a channel because the
//! entries that upgrade the release where it stops are off OLM v0's replaces chain: add that
//! release to the skips of the entry that skips the first of them, or else of the head. The
//! walk's reason (`graph`) says the same in words, for `validate` and the diff alike.

use super::fix::SkipsFix;
use super::locate::bundle_of;
use super::Route;
use crate::model::{Channel, Entry, Package};
use crate::version::Version;

/// The fix of OLM v0's `route` (stranded) from `installed` (version `version`) in channel `c`,
/// when entries upgrade the release where it stops; `None` otherwise.
pub(crate) fn v0_fix(
    p: &Package,
    c: &Channel,
    route: &Route,
    installed: &str,
    version: Option<&Version>,
) -> Option<SkipsFix> {
    let cur = route.path.last().map_or(installed, String::as_str);
    let cur_version = match c.entry(cur).and_then(|e| bundle_of(p, e)) {
        Some(b) => b.version.as_ref(),
        None => version.filter(|_| cur == installed),
    };
    let first = c.entries.iter().find(|e| e.name.value != cur && upgrades(e, cur, cur_version))?;
    let skipper = c.entries.iter().find(|s| s.skips.iter().any(|x| x.value == first.name.value));
    let target = skipper.or(c.head().ok())?;
    Some(SkipsFix { entry: target.name.value.clone(), add: vec![cur.to_string()] })
}

/// Whether entry `e` upgrades `name` (version `v`): it replaces or skips it, or its skipRange
/// covers the version.
fn upgrades(e: &Entry, name: &str, v: Option<&Version>) -> bool {
    e.replaces.value == name
        || e.skips.iter().any(|s| s.value == name)
        || v.is_some_and(|v| e.range().is_some_and(|r| r.contains(v)))
}
