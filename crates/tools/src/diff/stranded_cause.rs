//! Why OLM v0 leaves an installed version stranded in a channel, in words that name the entries
//! and edges involved and the edit that fixes it: which entries upgrade the release where the walk
//! stops, why OLM v0 never installs each (the entry that skips it, or its being off the replaces
//! chain from the head), and which entry's `skips` to add that release to.

use super::locate::bundle_of;
use super::Route;
use crate::gotext::quote as q;
use crate::model::{Channel, Entry, Package};
use crate::version::Version;

/// The cause of OLM v0's `route` (stranded) from `installed` (version `version`) in channel `c`,
/// when entries upgrade the release where it stops and OLM v0 installs none of them; `None`
/// otherwise (the walk's own reason then says what there is to say).
pub(crate) fn v0_cause(
    p: &Package,
    c: &Channel,
    route: &Route,
    installed: &str,
    version: Option<&Version>,
) -> Option<String> {
    let cur = route.path.last().map_or(installed, String::as_str);
    let cur_version = match c.entry(cur).and_then(|e| bundle_of(p, e)) {
        Some(b) => b.version.as_ref(),
        None => version.filter(|_| cur == installed),
    };
    let upgraders: Vec<&Entry> =
        c.entries.iter().filter(|e| e.name.value != cur && upgrades(e, cur, cur_version)).collect();
    if upgraders.is_empty() {
        return None;
    }
    let head = c.head().ok()?;
    let mut target = None;
    let causes: Vec<String> = upgraders
        .iter()
        .map(|u| {
            let u_name = u.name.value.as_str();
            match c.entries.iter().find(|s| s.skips.iter().any(|x| x.value == u_name)) {
                Some(s) => {
                    target.get_or_insert(s);
                    if s.replaces.value == u_name {
                        format!(
                            "{} both replaces and skips {}, so OLM v0 drops it from the replaces chain",
                            q(&s.name.value),
                            q(u_name)
                        )
                    } else {
                        format!("{} skips {}", q(&s.name.value), q(u_name))
                    }
                }
                None => format!("{} is not on the replaces chain from the head {}", q(u_name), q(&head.name.value)),
            }
        })
        .collect();
    let target = target.unwrap_or(head);
    let names: Vec<String> = upgraders.iter().map(|u| q(&u.name.value)).collect();
    let (verb, them) = if upgraders.len() == 1 { ("upgrades", "it") } else { ("upgrade", "them") };
    Some(format!(
        "only {} {verb} {}, and OLM v0 never installs {them}: {}; add {} to the skips of {}",
        names.join(", "),
        q(cur),
        causes.join("; "),
        q(cur),
        q(&target.name.value)
    ))
}

/// Whether entry `e` upgrades `name` (version `v`): it replaces or skips it, or its skipRange
/// covers the version.
fn upgrades(e: &Entry, name: &str, v: Option<&Version>) -> bool {
    e.replaces.value == name
        || e.skips.iter().any(|s| s.value == name)
        || v.is_some_and(|v| e.range().is_some_and(|r| r.contains(v)))
}
