//! Update safety: for every (channel, installed version) of a package of the old catalog, where
//! OLM v0 and OLM v1 take it in the old catalog and in the new one ([`SafetyRow`]), and the
//! promises the new catalog breaks, each a `Diagnostic` located in the new catalog (or in the old
//! one when what it is about is gone, said in `related`). A finding is reported only when the
//! change introduced it: what the old catalog already did wrong is not the update's fault.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::fix::{self, SkipsFix};
use super::locate::{self, bundle_of, is_deprecated, version_of};
use super::{stranded_cause, PackageSafety, Route, Routes, SafetyRow};
use crate::diagnostic::{Code, Diagnostic};
use crate::gotext::quote as q;
use crate::graph::{channel_paths, upgrade_path, PathError, Semantics, Start, UpgradePath};
use crate::model::{Channel, Entry, Package};
use crate::version::Version;

/// A finding and the operation that fixes it (`olm-catalog edit … json --op`).
pub(crate) type Fixed = (Diagnostic, String);

/// The rows, findings and fixes of one package of the old catalog (`new` is the same package in
/// the new catalog, if any; `changed` whether it differs).
pub(crate) fn package(
    old: &Package,
    new: Option<&Package>,
    changed: bool,
) -> (PackageSafety, Vec<Diagnostic>, Vec<Fixed>) {
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    let mut fixes = Vec::new();
    let Some(new) = new else {
        findings.push(package_removed(old));
        for c in old.channels.iter().filter(|c| !c.entries.is_empty()) {
            let start = rows.len();
            rows.extend(old_rows(old, c));
            rows[start..].iter_mut().for_each(|r: &mut SafetyRow| r.findings.push(Code::UpdatePackageRemoved));
        }
        return (PackageSafety { package: old.name.clone(), changed, rows }, findings, fixes);
    };
    for c in old.channels.iter().filter(|c| !c.entries.is_empty()) {
        let mut check = ChannelCheck::new(old, c, new);
        check.run();
        findings.append(&mut check.findings);
        fixes.append(&mut check.fixes);
        rows.append(&mut check.rows);
    }
    (PackageSafety { package: old.name.clone(), changed, rows }, findings, fixes)
}

/// `update-package-removed`: the whole package is gone, so nobody gets an update.
fn package_removed(old: &Package) -> Diagnostic {
    let installed: usize = old.channels.iter().map(|c| c.entries.len()).sum();
    Diagnostic::error(
        Code::UpdatePackageRemoved,
        format!(
            "package {} is gone from the new catalog, but {installed} channel entries of the old one may be installed: OLM v0 and v1 leave their users where they are, with no more updates; deprecate the package (olm.deprecations) for a release before removing it, so they are told to move",
            q(&old.name)
        ),
        locate::package(old),
    )
    .with_related("the package in the old catalog (not in the new one)", locate::package(old))
}

fn route(path: Result<UpgradePath, PathError>) -> Route {
    match path {
        Ok(p) => Route {
            next: p.steps.first().map(|s| s.to.to_string()),
            path: p.steps.iter().map(|s| s.to.to_string()).collect(),
            head: p.to.map(|h| h.to_string()),
            stranded: p.stranded,
            reason: p.reason,
        },
        Err(e) => Route { next: None, path: Vec::new(), head: None, stranded: true, reason: Some(e.to_string()) },
    }
}

/// Every entry's route in channel `c`, by entry index.
fn channel_routes(p: &Package, c: &Channel, semantics: Semantics) -> Vec<Route> {
    match channel_paths(p, c, semantics) {
        Ok(paths) => paths.into_iter().map(|x| route(Ok(x))).collect(),
        Err(e) => c.entries.iter().map(|_| route(Err(e.clone()))).collect(),
    }
}

/// The rows of a channel in the old catalog alone (its package or the channel is gone).
fn old_rows(p: &Package, c: &Channel) -> Vec<SafetyRow> {
    let (v0, v1) = (channel_routes(p, c, Semantics::V0), channel_routes(p, c, Semantics::V1));
    c.entries
        .iter()
        .zip(v0.into_iter().zip(v1))
        .map(|(e, (v0, v1))| SafetyRow {
            channel: c.name.clone(),
            installed: e.name.value.clone(),
            version: version_of(p, &e.name.value),
            old: Routes { v0, v1 },
            new: None,
            changed: true,
            findings: Vec::new(),
            blocked: None,
        })
        .collect()
}

/// What OLM v0 and v1 do with users on an old head whose channel's new head is `head` (version
/// `v`), from the old head's new routes.
fn old_head_fate(r: &Routes, head: &str, v: &Version) -> String {
    let one = |route: &Route| match route.next.as_deref() {
        Some(n) if n == head => format!("take users on the old head down to {} (version {v}), a downgrade", q(head)),
        Some(n) => format!("upgrade users on the old head to {}", q(n)),
        None => "leave users on the old head where they are, above the head, with no more updates".to_string(),
    };
    let (v0, v1) = (one(&r.v0), one(&r.v1));
    if v0 == v1 {
        format!("OLM v0 and v1 {v0}")
    } else {
        format!("OLM v0 will {v0}; OLM v1 will {v1}", v0 = v0, v1 = v1)
    }
}

/// Why `new` is below `old` when it is a pre-release of the same version (`1.0.1-1` after
/// `1.0.1`), with the versions a rebuild should use; empty otherwise.
fn prerelease_why(old: &Version, new: &Version) -> String {
    let (o, n) = (old.semver(), new.semver());
    if n.pre.is_empty() || (o.major, o.minor, o.patch) != (n.major, n.minor, n.patch) {
        return String::new();
    }
    format!(
        ". The \"-{}\" makes {new} a pre-release of {}.{}.{}, lower in semver; a rebuild of {old} is {}.{}.{}+{} (build metadata) or {}.{}.{}",
        n.pre,
        n.major,
        n.minor,
        n.patch,
        o.major,
        o.minor,
        o.patch,
        n.pre,
        o.major,
        o.minor,
        o.patch + 1
    )
}

/// Which OLMs a finding is about, as words.
fn olms(which: &[Semantics]) -> &'static str {
    match which {
        [Semantics::V0] => "OLM v0",
        [Semantics::V1] => "OLM v1",
        _ => "OLM v0 and v1",
    }
}

/// One channel of the old catalog checked against the new catalog.
struct ChannelCheck<'a> {
    old_p: &'a Package,
    old_c: &'a Channel,
    new_p: &'a Package,
    new_c: Option<&'a Channel>,
    rows: Vec<SafetyRow>,
    findings: Vec<Diagnostic>,
    fixes: Vec<Fixed>,
}

impl<'a> ChannelCheck<'a> {
    fn new(old_p: &'a Package, old_c: &'a Channel, new_p: &'a Package) -> ChannelCheck<'a> {
        let new_c = new_p.channel(&old_c.name).filter(|c| !c.entries.is_empty());
        ChannelCheck {
            old_p,
            old_c,
            new_p,
            new_c,
            rows: old_rows(old_p, old_c),
            findings: Vec::new(),
            fixes: Vec::new(),
        }
    }

    fn run(&mut self) {
        let Some(new_c) = self.new_c else {
            self.findings.push(self.channel_removed());
            self.rows.iter_mut().for_each(|r| r.findings.push(Code::UpdateChannelRemoved));
            return;
        };
        self.fill_new_routes(new_c);
        let backwards = self.head_backwards(new_c);
        for i in 0..self.rows.len() {
            if let Some((d, fix)) = self.stranded(new_c, i, backwards.as_deref()) {
                self.push_fixed(i, d, fix.map(|f| f.op(self.new_p, new_c)));
            }
            if let Some(d) = self.multiple_replacements(new_c, i) {
                self.push(i, d);
            }
            if let Some((d, op)) = self.z_stream(new_c, i) {
                self.push_fixed(i, d, op);
            }
        }
        self.through_deprecated(new_c);
        for r in &mut self.rows {
            crate::sort::sort(&mut r.findings);
            r.findings.dedup();
        }
    }

    fn push(&mut self, row: usize, d: Diagnostic) {
        self.rows[row].findings.push(d.code);
        self.findings.push(d);
    }

    fn push_fixed(&mut self, row: usize, d: Diagnostic, op: Option<String>) {
        if let Some(op) = op {
            self.fixes.push((d.clone(), op));
        }
        self.push(row, d);
    }

    fn old_entry(&self, i: usize) -> &'a Entry {
        &self.old_c.entries[i]
    }

    fn quoted(&self) -> String {
        format!("{} of package {}", q(&self.old_c.name), q(&self.old_p.name))
    }

    /// The new routes of every row: the new channel's own paths for entries it still lists, a
    /// walk from the installed name and version for the others.
    fn fill_new_routes(&mut self, new_c: &Channel) {
        let v0 = channel_routes(self.new_p, new_c, Semantics::V0);
        let v1 = channel_routes(self.new_p, new_c, Semantics::V1);
        let index: HashMap<&str, usize> =
            new_c.entries.iter().enumerate().map(|(i, e)| (e.name.value.as_str(), i)).collect();
        for (row, e) in self.rows.iter_mut().zip(&self.old_c.entries) {
            let routes = match index.get(e.name.value.as_str()) {
                Some(&j) => Routes { v0: v0[j].clone(), v1: v1[j].clone() },
                None => {
                    let version = bundle_of(self.old_p, e).and_then(|b| b.version.clone());
                    let start = Start::Installed { name: e.name.value.clone(), version };
                    let walk = |s| route(upgrade_path(self.new_p, new_c, &start, s));
                    Routes { v0: walk(Semantics::V0), v1: walk(Semantics::V1) }
                }
            };
            row.changed = routes != row.old;
            row.new = Some(routes);
        }
    }

    /// `update-channel-removed`: a channel with entries is gone, so users subscribed to it get
    /// nothing. When another channel of the new catalog holds every one of its entries, it looks
    /// like a rename, and the message says users must change their Subscription's channel.
    fn channel_removed(&self) -> Diagnostic {
        let was_default = self.old_p.default_channel.value == self.old_c.name;
        let default = if was_default {
            format!(" It was the default channel; the new default is {}.", q(&self.new_p.default_channel.value))
        } else {
            String::new()
        };
        let n = self.old_c.entries.len();
        let entries = if n == 1 { "its 1 entry".to_string() } else { format!("any of its {n} entries") };
        let what = match self.renamed_to() {
            Some(to) => format!(
                " It looks like a rename to {}, which holds every entry of it: users must change their Subscription's channel to {} to keep getting updates.",
                q(to),
                q(to)
            ),
            None => String::new(),
        };
        let at = if was_default { locate::default_channel(self.new_p) } else { locate::package(self.new_p) };
        Diagnostic::error(
            Code::UpdateChannelRemoved,
            format!(
                "channel {} is gone from the new catalog: users subscribed to it on {entries} get no more updates.{what}{default}",
                self.quoted()
            ),
            at,
        )
        .with_related("the channel in the old catalog (not in the new one)", locate::channel(self.old_p, self.old_c))
    }

    /// The channel of the new catalog that holds every entry of the removed channel (the default
    /// channel first when several do).
    fn renamed_to(&self) -> Option<&'a str> {
        let holds_all = |c: &&Channel| self.old_c.entries.iter().all(|e| c.entry(&e.name.value).is_some());
        let mut candidates: Vec<&Channel> = self.new_p.channels.iter().filter(holds_all).collect();
        candidates.sort_by_key(|c| c.name != self.new_p.default_channel.value);
        candidates.first().map(|c| c.name.as_str())
    }

    /// `update-head-backwards`: the new head has a lower version than the old head. Returns the
    /// old head's name when so (its users are then told about this, not about being stranded).
    /// The message says what OLM v0 and v1 do with users on the old head (from its row), and why
    /// the version is lower when the new head is a pre-release of the old head's version.
    fn head_backwards(&mut self, new_c: &Channel) -> Option<String> {
        let (ho, hn) = (self.old_c.head().ok()?, new_c.head().ok()?);
        let vo: &Version = bundle_of(self.old_p, ho)?.version.as_ref()?;
        let vn: &Version = bundle_of(self.new_p, hn)?.version.as_ref()?;
        if vn >= vo {
            return None;
        }
        let i = self.old_c.entries.iter().position(|e| e.name.value == ho.name.value)?;
        let olm = self.rows[i].new.as_ref().map(|r| old_head_fate(r, &hn.name.value, vn)).unwrap_or_default();
        let why = match prerelease_why(vo, vn) {
            w if w.is_empty() => {
                format!(". Keep {} as the head, or give the new head a version above {vo}", q(&ho.name.value))
            }
            w => w,
        };
        let d = Diagnostic::error(
            Code::UpdateHeadBackwards,
            format!(
                "the head of channel {} moved backwards, from {} (version {vo}) to {} (version {vn}): {olm}; new subscriptions start at {}{}",
                self.quoted(),
                q(&ho.name.value),
                q(&hn.name.value),
                q(&hn.name.value),
                why
            ),
            locate::entry(new_c, hn),
        )
        .with_related("the old head (in the old catalog)", locate::entry(self.old_c, ho));
        self.push(i, d);
        Some(ho.name.value.clone())
    }

    /// `update-newly-stranded` (the entry is still listed) or `update-release-removed` (it is not,
    /// and nothing in the new channel upgrades from it): row `i` reached the head in the old
    /// catalog and does not in the new one. With the fix, when one is known to work.
    fn stranded(
        &self,
        new_c: &Channel,
        i: usize,
        old_head_backwards: Option<&str>,
    ) -> Option<(Diagnostic, Option<SkipsFix>)> {
        let row = &self.rows[i];
        let new = row.new.as_ref()?;
        let which: Vec<Semantics> = [(Semantics::V0, &row.old.v0, &new.v0), (Semantics::V1, &row.old.v1, &new.v1)]
            .into_iter()
            .filter(|(_, o, n)| !o.stranded && n.stranded)
            .map(|(s, _, _)| s)
            .collect();
        if which.is_empty() || old_head_backwards == Some(row.installed.as_str()) {
            return None;
        }
        let reason = if which[0] == Semantics::V0 { &new.v0.reason } else { &new.v1.reason };
        let reason = reason.as_deref().unwrap_or("no path");
        let e = self.old_entry(i);
        let v = bundle_of(self.old_p, e).and_then(|b| b.version.as_ref());
        let who = match &row.version {
            Some(v) => format!("{} (version {v})", q(&row.installed)),
            None => q(&row.installed),
        };
        let Some(ne) = new_c.entry(&row.installed) else {
            let before = [row.old.v0.next.as_deref(), row.old.v1.next.as_deref()];
            let fix = fix::removed(self.new_p, new_c, &row.installed, v, &before);
            let edit = fix
                .as_ref()
                .map_or_else(|| "add it to the skips (or skipRange) of an entry".to_string(), SkipsFix::words);
            let d = Diagnostic::error(
                Code::UpdateReleaseRemoved,
                format!(
                    "{who} was removed from channel {}, but users on it reached the head with {} in the old catalog and nothing in the new channel upgrades from it: {edit}",
                    self.quoted(),
                    olms(&which)
                ),
                locate::channel(self.new_p, new_c),
            )
            .with_related("the removed entry (in the old catalog)", locate::entry(self.old_c, e));
            return Some((d, fix));
        };
        // The walk's reason names the edge and the edit; the fix is offered when it works.
        let fix = (which[0] == Semantics::V0)
            .then(|| stranded_cause::v0_fix(self.new_p, new_c, &new.v0, &row.installed, v))
            .flatten()
            .filter(|f| f.works(self.new_p, new_c, &row.installed, v));
        let d = Diagnostic::error(
            Code::UpdateNewlyStranded,
            format!(
                "users on {who} in channel {} reached the head with {} in the old catalog, but are stranded in the new one: {reason}",
                self.quoted(),
                olms(&which)
            ),
            locate::entry(new_c, ne),
        );
        Some((d, fix))
    }

    /// `update-multiple-replacements`: more than one entry that no entry skips `replaces` row
    /// `i`'s bundle in the new channel, where the old one had at most one.
    fn multiple_replacements(&self, new_c: &Channel, i: usize) -> Option<Diagnostic> {
        let name = &self.rows[i].installed;
        let new = replacers(new_c, name);
        if new.len() < 2 || replacers(self.old_c, name).len() >= 2 {
            return None;
        }
        let routes = self.rows[i].new.as_ref()?;
        let names: Vec<String> = new.iter().map(|e| q(&e.name.value)).collect();
        let next = |r: &Route| r.next.as_deref().map_or_else(|| "nothing".to_string(), q);
        Some(
            Diagnostic::warning(
                Code::UpdateMultipleReplacements,
                format!(
                    "{} has {} replacements in channel {}: {}; OLM v0 upgrades it to {} and OLM v1 to {}: keep one replaces and skip the others",
                    q(name),
                    new.len(),
                    self.quoted(),
                    names.join(", "),
                    next(&routes.v0),
                    next(&routes.v1)
                ),
                locate::entry_replaces(new_c, new[1]),
            )
            .with_related("also replaces it", locate::entry_replaces(new_c, new[0])),
        )
    }

    /// `update-z-stream-not-converging` (a note, as `validate`'s `z-stream-gap`): row `i`'s
    /// version x.y.z first upgrades to a patch of x.y that is not the newest one in the new
    /// channel, and the change made that worse: it did not before, or its path to where it went
    /// got longer. A routine release appended after the old path (3.17.2 → 3.17.3 → new 3.17.4)
    /// is not reported: nobody's path got worse.
    fn z_stream(&self, new_c: &Channel, i: usize) -> Option<(Diagnostic, Option<String>)> {
        let row = &self.rows[i];
        let routes = row.new.as_ref()?;
        let v = bundle_of(self.old_p, self.old_entry(i))?.version.as_ref()?;
        if v.is_prerelease() {
            return None;
        }
        let (newest, newest_v) = newest_patch(self.new_p, new_c, v)?;
        let which: Vec<Semantics> =
            [(Semantics::V0, &routes.v0, &row.old.v0), (Semantics::V1, &routes.v1, &row.old.v1)]
                .into_iter()
                .filter(|(_, n, o)| {
                    lags(self.new_p, new_c, n, v)
                        && !extends(o, n)
                        && (!lags(self.old_p, self.old_c, o, v) || longer(o, n))
                })
                .map(|(s, _, _)| s)
                .collect();
        let first = which.first()?;
        let next = if *first == Semantics::V0 { &routes.v0.next } else { &routes.v1.next };
        let next = next.as_deref().unwrap_or_default();
        let s = v.semver();
        let at =
            new_c.entry(&row.installed).map_or_else(|| locate::channel(self.new_p, new_c), |e| locate::entry(new_c, e));
        // The fix is offered when the newest patch has no skipRange to lose.
        let range = format!(">={}.{}.0 <{newest_v}", s.major, s.minor);
        let op = newest.skip_range.is_none().then(|| fix::skip_range_op(self.new_p, new_c, &newest.name.value, &range));
        let d = Diagnostic::note(
                Code::UpdateZStreamNotConverging,
                format!(
                    "users on {} (version {v}) in channel {} upgrade first to {} with {}, not to the newest {}.{} patch {} (version {newest_v}): give {} a skipRange like \"{range}\"",
                    q(&row.installed),
                    self.quoted(),
                    q(next),
                    olms(&which),
                    s.major,
                    s.minor,
                    q(&newest.name.value),
                    q(&newest.name.value),
                ),
                at,
            )
            .with_related("the newest patch", locate::entry(new_c, newest));
        Some((d, op))
    }

    /// `update-path-through-deprecated`: the new routes pass through a release (not the head)
    /// that is deprecated or that an entry skips, and the old routes did not. One finding per
    /// such release, naming the installed versions whose route goes through it.
    fn through_deprecated(&mut self, new_c: &Channel) {
        let new_flags = Flags::new(self.new_p, new_c);
        let old_flags = Flags::new(self.old_p, self.old_c);
        // release -> (rows, OLMs)
        let mut hits: BTreeMap<usize, (Vec<usize>, Vec<Semantics>)> = BTreeMap::new();
        for (ri, row) in self.rows.iter().enumerate() {
            let Some(new) = &row.new else { continue };
            for (s, n, o) in [(Semantics::V0, &new.v0, &row.old.v0), (Semantics::V1, &new.v1, &row.old.v1)] {
                for name in intermediates(n) {
                    let Some(j) = new_flags.flagged(name) else { continue };
                    let before = intermediates(o).any(|x| x == name) && old_flags.flagged(name).is_some();
                    if !before {
                        let hit = hits.entry(j).or_default();
                        if !hit.0.contains(&ri) {
                            hit.0.push(ri);
                        }
                        if !hit.1.contains(&s) {
                            hit.1.push(s);
                        }
                    }
                }
            }
        }
        for (j, (rows, mut which)) in hits {
            crate::sort::sort_by_key(&mut which, |s| *s as u8);
            let e = &new_c.entries[j];
            let users: Vec<String> = rows.iter().map(|&r| q(&self.rows[r].installed)).collect();
            let why = new_flags.why(self.new_p, e);
            let fix = self.around(new_c, e, &rows);
            let edit = fix.as_ref().map_or_else(|| "skip it from the entry after it".to_string(), SkipsFix::words);
            let d = Diagnostic::warning(
                Code::UpdatePathThroughDeprecated,
                format!(
                    "in channel {}, {} now upgrades {} through {}, which {why}: the release was meant never to be installed again; {edit}",
                    self.quoted(),
                    olms(&which),
                    users.join(", "),
                    q(&e.name.value)
                ),
                locate::entry(new_c, e),
            );
            for &r in &rows {
                self.rows[r].findings.push(d.code);
            }
            if let Some(f) = fix {
                self.fixes.push((d.clone(), f.op(self.new_p, new_c)));
            }
            self.findings.push(d);
        }
    }

    /// The fix that takes the users of `rows` around release `e`: add them to the skips of the
    /// entry their route reaches after `e` (they then upgrade straight to it).
    fn around(&self, new_c: &Channel, e: &Entry, rows: &[usize]) -> Option<SkipsFix> {
        let name = e.name.value.as_str();
        let after = rows.iter().filter_map(|&r| self.rows[r].new.as_ref()).find_map(|n| {
            [&n.v0, &n.v1].into_iter().find_map(|route| {
                let at = route.path.iter().position(|x| x == name)?;
                route.path.get(at + 1)
            })
        })?;
        let target = new_c.entry(after)?;
        let add: Vec<String> = rows
            .iter()
            .map(|&r| self.rows[r].installed.clone())
            .filter(|u| u != after && !target.skips.iter().any(|s| s.value == *u))
            .collect();
        (!add.is_empty()).then(|| SkipsFix { entry: after.clone(), add })
    }
}

/// The entries of `c` that `replaces` `name` and that no entry skips.
fn replacers<'c>(c: &'c Channel, name: &str) -> Vec<&'c Entry> {
    let skipped: HashSet<&str> = c.entries.iter().flat_map(|e| e.skips.iter().map(|s| s.value.as_str())).collect();
    c.entries.iter().filter(|e| e.replaces.value == name && !skipped.contains(e.name.value.as_str())).collect()
}

/// The entry of `c` with the highest patch of `v`'s major.minor, when it is above `v`.
fn newest_patch<'c>(p: &Package, c: &'c Channel, v: &Version) -> Option<(&'c Entry, Version)> {
    let s = v.semver();
    c.entries
        .iter()
        .filter_map(|e| bundle_of(p, e).and_then(|b| b.version.clone()).map(|bv| (e, bv)))
        .filter(|(_, bv)| {
            let bs = bv.semver();
            bs.major == s.major && bs.minor == s.minor && !bv.is_prerelease() && bv > v
        })
        .max_by(|a, b| a.1.cmp(&b.1))
}

/// Whether `route` from version `v` first upgrades to a patch of `v`'s major.minor below the
/// newest one of channel `c`.
fn lags(p: &Package, c: &Channel, route: &Route, v: &Version) -> bool {
    let Some((_, newest)) = newest_patch(p, c, v) else { return false };
    let Some(next) = route.next.as_deref().and_then(|n| c.entry(n)).and_then(|e| bundle_of(p, e)) else {
        return false;
    };
    let Some(nv) = &next.version else { return false };
    let (s, ns) = (v.semver(), nv.semver());
    !route.stranded && ns.major == s.major && ns.minor == s.minor && *nv < newest
}

/// Whether route `new` only continues route `old`: it takes the same steps, then more (a release
/// appended after where `old` went).
fn extends(old: &Route, new: &Route) -> bool {
    !old.stranded && !new.stranded && new.path.starts_with(&old.path)
}

/// Whether route `new` takes more steps than `old` to reach where `old` went (or, when it no longer
/// passes there, more steps in all).
fn longer(old: &Route, new: &Route) -> bool {
    match old.path.last().and_then(|end| new.path.iter().position(|x| x == end)) {
        Some(at) => at + 1 > old.path.len(),
        None => new.path.len() > old.path.len(),
    }
}

/// The bundles a route passes through before its last step's target when that is the head.
fn intermediates(r: &Route) -> impl Iterator<Item = &str> {
    let n = if r.path.last().is_some() && r.path.last() == r.head.as_ref() { r.path.len() - 1 } else { r.path.len() };
    r.path[..n].iter().map(String::as_str)
}

/// Which entries of a channel are deprecated or skipped.
struct Flags<'c> {
    channel: &'c Channel,
    deprecated: HashSet<&'c str>,
    skipped: HashSet<&'c str>,
}

impl<'c> Flags<'c> {
    fn new(p: &'c Package, c: &'c Channel) -> Flags<'c> {
        let deprecated = c
            .entries
            .iter()
            .filter(|e| bundle_of(p, e).is_some_and(is_deprecated))
            .map(|e| e.name.value.as_str())
            .collect();
        let skipped = c.entries.iter().flat_map(|e| e.skips.iter().map(|s| s.value.as_str())).collect();
        Flags { channel: c, deprecated, skipped }
    }

    /// The index of entry `name` when it is deprecated or skipped.
    fn flagged(&self, name: &str) -> Option<usize> {
        if !self.deprecated.contains(name) && !self.skipped.contains(name) {
            return None;
        }
        self.channel.entries.iter().position(|e| e.name.value == name)
    }

    fn why(&self, p: &Package, e: &Entry) -> String {
        let name = e.name.value.as_str();
        let mut parts = Vec::new();
        if let Some(b) = bundle_of(p, e).filter(|_| self.deprecated.contains(name)) {
            parts.push(match &b.deprecation {
                Some(d) => format!("is deprecated ({})", d.message.value),
                None => "carries the olm.deprecated property".to_string(),
            });
        }
        if self.skipped.contains(name) {
            let by: Vec<String> = self
                .channel
                .entries
                .iter()
                .filter(|x| x.skips.iter().any(|s| s.value == name))
                .map(|x| q(&x.name.value))
                .collect();
            parts.push(format!("is skipped by {}", by.join(", ")));
        }
        parts.join(" and ")
    }
}
