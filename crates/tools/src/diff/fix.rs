//! The edits the diff offers to fix a finding. Most add names to one entry's `skips` (so the
//! users on those versions upgrade straight to that entry); a z-stream fix sets the newest
//! patch's `skipRange`. Each is offered as the operation
//! `olm-catalog edit CATALOG json --op '…'` takes: a `setEdges` of the entry with its skips as
//! they are plus the names added. A fix for stranded users is checked before it is offered: in
//! the channel so edited, OLM v0 and v1 take them to the head.

use serde::Serialize;

use super::locate::bundle_of;
use crate::declcfg::Spanned;
use crate::gotext::quote as q;
use crate::graph::{upgrade_path, Semantics, Start};
use crate::model::{Channel, Entry, Package};
use crate::version::Version;

/// Add `add` to the skips of entry `entry` of a channel.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SkipsFix {
    /// The entry to edit.
    pub entry: String,
    /// The names to add to its skips.
    pub add: Vec<String>,
}

/// The `setEdges` operation, in the JSON `olm-catalog edit … json --op` reads.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SetEdges<'a> {
    op: &'static str,
    package: &'a str,
    channel: &'a str,
    bundle: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    skips: Option<Vec<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    skip_range: Option<&'a str>,
}

/// The operation that sets the `skipRange` of entry `entry` of channel `c` of package `p`.
pub(crate) fn skip_range_op(p: &Package, c: &Channel, entry: &str, range: &str) -> String {
    let op = SetEdges {
        op: "setEdges",
        package: &p.name,
        channel: &c.name,
        bundle: entry,
        skips: None,
        skip_range: Some(range),
    };
    serde_json::to_string(&op).unwrap_or_default()
}

/// At most this many names are listed in a sentence; more are shown as `first … last (N)`.
const NAMES_SHOWN: usize = 3;

impl SkipsFix {
    /// `add "a", "b" to the skips of "t"`.
    pub(crate) fn words(&self) -> String {
        let names: Vec<String> = self.add.iter().map(|n| q(n)).collect();
        let list = match names.as_slice() {
            [first, .., last] if names.len() > NAMES_SHOWN => format!("{first} … {last} ({} entries)", names.len()),
            _ => names.join(", "),
        };
        format!("add {list} to the skips of {}", q(&self.entry))
    }

    /// The operation, for `olm-catalog edit CATALOG json --op`, in channel `c` of package `p`.
    pub(crate) fn op(&self, p: &Package, c: &Channel) -> String {
        let old = c.entry(&self.entry).map(|e| e.skips.as_slice()).unwrap_or_default();
        let mut skips: Vec<&str> = old.iter().map(|s| s.value.as_str()).collect();
        skips.extend(self.add.iter().map(String::as_str).filter(|n| !old.iter().any(|s| s.value == *n)));
        let op = SetEdges {
            op: "setEdges",
            package: &p.name,
            channel: &c.name,
            bundle: &self.entry,
            skips: Some(skips),
            skip_range: None,
        };
        serde_json::to_string(&op).unwrap_or_default()
    }

    /// Channel `c` with the fix made.
    fn applied(&self, c: &Channel) -> Channel {
        let mut fixed = c.clone();
        if let Some(e) = fixed.entries.iter_mut().find(|e| e.name.value == self.entry) {
            let pos = e.name.pos;
            e.skips.extend(self.add.iter().map(|n| Spanned::new(n.clone(), pos)));
        }
        fixed
    }

    /// Whether, in channel `c` of package `p` so edited, OLM v0 and v1 take users on `installed`
    /// (version `version`) to the head.
    pub(crate) fn works(&self, p: &Package, c: &Channel, installed: &str, version: Option<&Version>) -> bool {
        let fixed = self.applied(c);
        let start = match fixed.entry(installed) {
            Some(_) => Start::Bundle(installed.to_string()),
            None => Start::Installed { name: installed.to_string(), version: version.cloned() },
        };
        [Semantics::V0, Semantics::V1]
            .into_iter()
            .all(|s| upgrade_path(p, &fixed, &start, s).is_ok_and(|path| !path.stranded))
    }
}

/// The fix for users on `installed` (version `version`), an entry removed from channel `c`: add
/// it to the skips of the first entry that works among `before` (where the old catalog took
/// them), the next higher versions (the first few) and the head.
pub(crate) fn removed(
    p: &Package,
    c: &Channel,
    installed: &str,
    version: Option<&Version>,
    before: &[Option<&str>],
) -> Option<SkipsFix> {
    let mut above: Vec<(&Entry, &Version)> = c
        .entries
        .iter()
        .filter_map(|e| bundle_of(p, e).and_then(|b| b.version.as_ref()).map(|v| (e, v)))
        .filter(|(_, v)| version.is_some_and(|r| *v > r))
        .collect();
    crate::sort::sort_by(&mut above, |a, b| a.1.cmp(b.1));
    let head = c.head().ok();
    let before = before.iter().filter_map(|n| n.and_then(|n| c.entry(n)));
    let candidates = before.chain(above.into_iter().map(|(e, _)| e).take(NAMES_SHOWN)).chain(head);
    candidates
        .map(|e| SkipsFix { entry: e.name.value.clone(), add: vec![installed.to_string()] })
        .find(|f| f.works(p, c, installed, version))
}
