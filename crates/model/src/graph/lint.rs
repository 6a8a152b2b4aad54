//! Graph lints: upgrade graphs that opm accepts but that strand users or surprise authors. All are
//! warnings, and each message says what to change. One function per diagnostic code, each with
//! the rule it checks; [`package`] runs them channel by channel, in a fixed order. Channels opm
//! already rejects (empty, or without a single head) are not linted.

use crate::hash::{HashMap, HashMapExt, HashSet};
use std::ops::Range;

use super::channel_graph::{deprecation_of, stranded_entries as stranded_flags, Prepared};
use super::edge::entry_version;
use super::smallest::Smallest;
use super::upgrade::{v1_first_steps, V0Channel};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::gotext::{join_counted, quote as q, LIST_CAP};
use crate::model::{Channel, Entry, Package, ReplacesForest};
use crate::version::Version;

/// The graph lints of one package.
pub fn package(p: &Package) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for c in &p.channels {
        channel(p, c, &mut out);
    }
    out
}

/// The lints of one channel, in this order: stranded entries; then entry by entry, a replaces
/// target that is skipped, a version going backwards, a skipRange covering nothing; then the head
/// (not the highest, deprecated); then unreachable entries; then z-stream gaps.
fn channel(p: &Package, c: &Channel, out: &mut Vec<Diagnostic>) {
    let Some(cx) = ChannelLint::new(p, c) else { return };
    out.extend(stranded_entries(&cx));
    for (i, e) in c.entries.iter().enumerate() {
        out.extend(replaces_skipped(&cx, e));
        out.extend(version_goes_backwards(&cx, e));
        out.extend(skip_range_covers_nothing(&cx, i, e));
    }
    out.extend(head_not_highest(&cx));
    out.extend(deprecated_head(&cx));
    out.extend(c.entries.iter().enumerate().filter_map(|(i, e)| unreachable_entry(&cx, i, e)));
    let z = ZStreams::new(&cx);
    out.extend((0..c.entries.len()).filter_map(|i| z_stream_gap(&cx, &z, i)));
}

/// One channel as the lints read it.
struct ChannelLint<'a> {
    package: &'a Package,
    channel: &'a Channel,
    /// Whether OLM v0 can order the channel.
    ordered: bool,
    /// Per entry: whether OLM v0 has no path from it to the head (the graph's `stranded`).
    stranded: Vec<bool>,
    head: &'a Entry,
    /// The skipRange fans, OLM v0's order and (when it can order the channel) its view of it.
    prepared: Prepared<'a>,
    /// Entry index by name.
    by_name: HashMap<&'a str, usize>,
    /// Skipped name → the first entry (in channel order) that skips it.
    skipped_by: HashMap<&'a str, &'a str>,
    /// Entries that some entry of the channel upgrades to (by `replaces`, `skips` or
    /// `skipRange`).
    targets: HashSet<&'a str>,
    /// The lowest version in the channel.
    lowest: Option<&'a Version>,
    /// The channel name, quoted.
    quoted: String,
    /// Which entries' replaces chains reach which, for `replaces-skipped`'s advice.
    forest: std::cell::OnceCell<ReplacesForest>,
}

impl<'a> ChannelLint<'a> {
    /// `None` for a channel opm already rejects (no entries, or not exactly one head).
    fn new(package: &'a Package, channel: &'a Channel) -> Option<ChannelLint<'a>> {
        if channel.entries.is_empty() {
            return None;
        }
        let head = channel.head().ok()?;
        let prepared = Prepared::new(package, channel);
        let stranded = stranded_flags(channel, prepared.v0.as_ref(), Some(head.name.value.as_str()));
        let by_name: HashMap<&str, usize> =
            channel.entries.iter().enumerate().map(|(i, e)| (e.name.value.as_str(), i)).collect();
        let mut skipped_by: HashMap<&str, &str> = HashMap::new();
        for e in &channel.entries {
            for s in &e.skips {
                skipped_by.entry(s.value.as_str()).or_insert(e.name.value.as_str());
            }
        }
        // A fan only stands for edges from entries of the channel.
        let from_channel = |name: &str| !name.is_empty() && by_name.contains_key(name);
        let targets = (channel.entries.iter().enumerate())
            .filter(|&(i, e)| {
                from_channel(&e.replaces.value)
                    || e.skips.iter().any(|s| from_channel(&s.value))
                    || prepared.fans.count(i) > 0
            })
            .map(|(_, e)| e.name.value.as_str())
            .collect();
        let lowest = channel.entries.iter().filter_map(|e| entry_version(package, e.bundle)).min();
        let quoted = q(&channel.name);
        let forest = std::cell::OnceCell::new();
        Some(ChannelLint {
            package,
            channel,
            ordered: prepared.order.is_ok(),
            stranded,
            head,
            prepared,
            by_name,
            skipped_by,
            targets,
            lowest,
            quoted,
            forest,
        })
    }

    /// OLM v0's view of the channel, when it can order it.
    fn v0(&self) -> Option<&V0Channel<'a>> {
        self.prepared.v0.as_ref().filter(|_| self.ordered)
    }

    fn version(&self, e: &Entry) -> Option<&'a Version> {
        entry_version(self.package, e.bundle)
    }

    /// Whether `to` is on the replaces chain below `from` (the channel's forest, made on first use).
    fn chain_reaches(&self, from: &str, to: &str) -> bool {
        let forest = self.forest.get_or_init(|| ReplacesForest::new(self.channel));
        matches!((self.by_name.get(from), self.by_name.get(to)), (Some(&f), Some(&t)) if forest.below(f, t))
    }

    fn entry(&self, name: &str) -> Option<&'a Entry> {
        self.by_name.get(name).map(|&i| &self.channel.entries[i])
    }

    /// Where in the channel blob: the entry's `field` (`name`, `replaces` or `skipRange`).
    fn at(&self, e: &Entry, field: &str) -> Location {
        let pos = match field {
            "replaces" => e.replaces.pos,
            "skipRange" => e.skip_range.as_ref().map_or(e.name.pos, |s| s.text.pos),
            _ => e.name.pos,
        };
        self.channel.source.as_ref().map(|s| s.at(pos, format!("/entries/{}/{field}", e.index))).unwrap_or_default()
    }
}

/// `stranded-entry`: OLM v0 must have a path from every entry to the head, one upgrade at a time
/// along its channel order (the head's replaces chain minus skipped entries). An entry from which
/// no such path exists strands its users; the message says where the walk stops and why. Not
/// checked when OLM v0 cannot order the channel at all.
fn stranded_entries(cx: &ChannelLint<'_>) -> Vec<Diagnostic> {
    let Some(v0) = cx.v0() else { return Vec::new() };
    let n = cx.channel.entries.len();
    if !cx.stranded.iter().any(|&s| s) {
        return Vec::new();
    }
    let reasons = v0.stranded_reasons(&cx.prepared.fans);
    // OLM v1 follows every direct edge: where it goes from each entry, for what it does instead.
    let v1 = v1_first_steps(cx.package, cx.channel);
    (0..n)
        .filter(|&i| cx.stranded[i])
        .map(|i| {
            let e = &cx.channel.entries[i];
            let reason = reasons[i].as_deref().unwrap_or_default();
            // A reason naming the upgraders off the chain ("only …") names the entry to edit.
            let fix = if reason.starts_with("only ") { "" } else { "; skip it from an entry on the replaces chain" };
            let v1 = match v1.get(i) {
                Some(&(Some(next), true)) => {
                    format!(" (OLM v1 can, through {})", q(&cx.channel.entries[next].name.value))
                }
                _ => " or OLM v1".into(),
            };
            Diagnostic::warning(
                Code::StrandedEntry,
                format!(
                    "users on {} in channel {} cannot upgrade to the head {} with OLM v0{v1}: {reason}{fix}",
                    q(&e.name.value),
                    cx.quoted,
                    q(&cx.head.name.value)
                ),
                cx.at(e, "name"),
            )
        })
        .collect()
}

/// `replaces-skipped`: an entry should not replace an entry of the channel that another entry
/// skips. opm 1.58 and later stop the replaces chain at a skipped target, while older opm and
/// OLM v0's channel order walk through it, so the same graph means two things.
fn replaces_skipped(cx: &ChannelLint<'_>, e: &Entry) -> Option<Diagnostic> {
    let target = e.replaces.value.as_str();
    if target.is_empty() || cx.entry(target).is_none() {
        return None;
    }
    // An entry that skips what it replaces names itself, and its replaces already upgrades the
    // target's users: the skip is what to drop.
    let own = e.skips.iter().any(|s| s.value == target);
    let skipper = if own { e.name.value.as_str() } else { cx.skipped_by.get(target)? };
    let fix = if own {
        format!("drop it from the skips of {}", q(skipper))
    } else if cx.chain_reaches(skipper, &e.name.value) {
        // The skip is a shortcut over a chain that goes on through `e`: its users reach the
        // skipping entry either way.
        format!(
            "users on it reach {0} either way: for one chain in every opm, drop it from the skips of {0} (its users then upgrade through {1})",
            q(skipper),
            q(&e.name.value)
        )
    } else {
        format!("have {} replace {} instead, which already upgrades its users", q(&e.name.value), q(skipper))
    };
    Some(Diagnostic::warning(
        Code::ReplacesSkipped,
        format!(
            "{} replaces {}, which {} skips: opm 1.58 and later stop the replaces chain there, older opm walks through it, and OLM v0 leaves it out of its order; {fix}",
            q(&e.name.value),
            q(target),
            q(skipper),
        ),
        cx.at(e, "replaces"),
    ))
}

/// `version-goes-backwards`: an entry should have a higher version than the entry of the channel
/// it replaces; otherwise OLM v0 may take users down to it (OLM v1 never takes a lower version:
/// staying put is a higher candidate).
fn version_goes_backwards(cx: &ChannelLint<'_>, e: &Entry) -> Option<Diagnostic> {
    let v = cx.version(e)?;
    let r = cx.entry(&e.replaces.value).and_then(|r| cx.version(r))?;
    (v < r).then(|| {
        Diagnostic::warning(
            Code::VersionGoesBackwards,
            format!(
                "{} (version {v}) replaces {} (version {r}), a newer version, in channel {}: OLM v0 can downgrade users on {1} to it, OLM v1 never takes it; give {0} a version above {r}, or have it replace an older entry",
                q(&e.name.value),
                q(&e.replaces.value),
                cx.quoted
            ),
            cx.at(e, "replaces"),
        )
    })
}

/// `skip-range-covers-nothing`: a valid skipRange should cover the version of some other entry
/// of the channel. A channel with a single entry is exempt: a head covering pruned versions is
/// normal. The fix proposed covers the channel's versions below the entry's, when there are.
fn skip_range_covers_nothing(cx: &ChannelLint<'_>, i: usize, e: &Entry) -> Option<Diagnostic> {
    e.range().filter(|_| cx.channel.entries.len() > 1)?;
    let covers = cx.prepared.fans.count(i) > 0;
    (!covers).then(|| {
        let fix = match (cx.lowest, cx.version(e)) {
            (Some(low), Some(v)) if low < v => format!("make it \">={low} <{v}\" or remove it"),
            _ => "remove it".into(),
        };
        Diagnostic::warning(
            Code::SkipRangeCoversNothing,
            format!(
                "the skipRange {} of {} covers no entry of channel {}: OLM v0 and v1 upgrade through it only from versions outside the channel; {fix}",
                q(e.skip_range_text()),
                q(&e.name.value),
                cx.quoted
            ),
            cx.at(e, "skipRange"),
        )
    })
}

/// `head-not-highest`: the head, which new subscriptions install, should have the highest
/// version of the channel: OLM v0 installs the head, OLM v1 the highest version. The message
/// names the highest entry (the last of equal ones).
fn head_not_highest(cx: &ChannelLint<'_>) -> Option<Diagnostic> {
    let hv = cx.version(cx.head)?;
    let (max, highest) =
        cx.channel.entries.iter().filter_map(|e| cx.version(e).map(|v| (v, e))).max_by(|a, b| a.0.cmp(b.0))?;
    (max > hv).then(|| {
        Diagnostic::warning(
            Code::HeadNotHighest,
            format!(
                "the head of channel {} is {} (version {hv}), but {} has the higher version {max}: OLM v0 installs the older head on new subscriptions, OLM v1 installs {2}; give {1} a version above {max}",
                cx.quoted,
                q(&cx.head.name.value),
                q(&highest.name.value),
            ),
            cx.at(cx.head, "name"),
        )
    })
}

/// `deprecated-head`: the head should not be deprecated (by `olm.deprecations` or the legacy
/// `olm.deprecated` property), since new subscriptions install it: OLM v0 installs a bundle
/// deprecated by `olm.deprecations` (and never one with the legacy property), OLM v1 prefers the
/// highest one not deprecated (and ignores the legacy property).
fn deprecated_head(cx: &ChannelLint<'_>) -> Option<Diagnostic> {
    let name = &cx.head.name.value;
    let bundle = cx.head.bundle.and_then(|b| cx.package.bundles.get(b));
    let msg = bundle.and_then(deprecation_of)?;
    let listed = bundle.is_some_and(|b| b.deprecation.is_some());
    let olm = if listed {
        "OLM v0 installs it on new subscriptions, OLM v1 installs the highest version not deprecated"
    } else {
        "OLM v0 never installs it (olm.deprecated), OLM v1 ignores that property"
    };
    Some(Diagnostic::warning(
        Code::DeprecatedHead,
        format!(
            "the head {} of channel {} is deprecated ({msg}): {olm}; publish a release that replaces {0}",
            q(name),
            cx.quoted
        ),
        cx.at(cx.head, "name"),
    ))
}

/// `unreachable-entry`: in a channel of several entries, every entry except the one with the
/// lowest version should be the target of some edge (replaces, skips or skipRange) from another
/// entry of the channel; otherwise OLM v0 and v1 only install it fresh. The fix proposed: replace
/// the entry of the next lower version.
fn unreachable_entry(cx: &ChannelLint<'_>, i: usize, e: &Entry) -> Option<Diagnostic> {
    let is_lowest = cx.version(e).is_some() && cx.version(e) == cx.lowest;
    if cx.channel.entries.len() <= 1 || is_lowest || cx.targets.contains(e.name.value.as_str()) {
        return None;
    }
    // The entry just below in the version order.
    let fans = &cx.prepared.fans;
    let below = fans.position[i].filter(|&p| p > 0).map(|p| &cx.channel.entries[fans.sorted[p - 1]].name.value);
    let fix = below.map(|b| format!("; have it replace {}, the next lower version", q(b))).unwrap_or_default();
    Some(Diagnostic::warning(
        Code::UnreachableEntry,
        format!(
            "no earlier version in channel {} upgrades to {}: OLM v0 and v1 only install it fresh{fix}",
            cx.quoted,
            q(&e.name.value)
        ),
        cx.at(e, "name"),
    ))
}

/// The channel's entries with a version grouped by `major.minor`, for `z-stream-gap`: each
/// group is a run of the version order, and the first entries of a union of runs (in channel
/// order) come from [`Smallest`], built only when some patch misses an earlier one.
struct ZStreams<'c> {
    /// For each position of the version order, where its `major.minor` group starts.
    group_start: Vec<usize>,
    /// The version order (entry indexes, a stranded entry's a hole: stranded-entry says its
    /// users get no upgrade at all), for minimum queries, prepared on first use.
    smallest: std::cell::OnceCell<Smallest<'static>>,
    cx: &'c ChannelLint<'c>,
}

impl<'c> ZStreams<'c> {
    fn new(cx: &'c ChannelLint<'c>) -> ZStreams<'c> {
        let sorted = &cx.prepared.fans.sorted;
        let minor = |p: usize| {
            let s = cx.version(&cx.channel.entries[sorted[p]]).map(|v| v.semver());
            s.map(|s| (s.major, s.minor))
        };
        let mut group_start = Vec::with_capacity(sorted.len());
        for p in 0..sorted.len() {
            let start = if p > 0 && minor(p) == minor(p - 1) { group_start[p - 1] } else { p };
            group_start.push(start);
        }
        ZStreams { group_start, smallest: std::cell::OnceCell::new(), cx }
    }

    fn smallest(&self) -> &Smallest<'static> {
        self.smallest.get_or_init(|| {
            let stranded = |x: usize| self.cx.stranded[x];
            let sorted = &self.cx.prepared.fans.sorted;
            Smallest::new(sorted.iter().map(|&x| if stranded(x) { usize::MAX } else { x }).collect::<Vec<_>>())
        })
    }
}

/// `z-stream-gap`: a patch release (`x.y.z`, z > 0, not a pre-release) should replace, skip or
/// cover with its skipRange every earlier patch of its `x.y` in the channel, so users on any of
/// them reach it in one upgrade.
fn z_stream_gap(cx: &ChannelLint<'_>, z: &ZStreams<'_>, i: usize) -> Option<Diagnostic> {
    let e = &cx.channel.entries[i];
    let v = cx.version(e)?;
    let s = v.semver();
    if s.patch == 0 || v.is_prerelease() {
        return None;
    }
    let fans = &cx.prepared.fans;
    let p = fans.position[i]?;
    // The earlier patches: the positions of the version order from the group's start to the
    // first one at version v.
    let start = z.group_start[p];
    let end =
        start + fans.sorted[start..p].partition_point(|&x| cx.version(&cx.channel.entries[x]).is_some_and(|xv| xv < v));
    let earlier = start..end;
    let clip = |r: &Range<usize>| r.start.max(earlier.start)..r.end.min(earlier.end);
    let by_range: Vec<Range<usize>> = fans.runs[i].iter().map(clip).filter(|r| r.start < r.end).collect();
    let in_range = |pos: usize| by_range.iter().any(|r| r.contains(&pos));
    // Entries named by replaces or skips that are earlier patches and not already in the range.
    let mut named: Vec<usize> = std::iter::once(&e.replaces)
        .chain(&e.skips)
        .filter_map(|n| cx.by_name.get(n.value.as_str()).copied())
        .filter(|&x| fans.position[x].is_some_and(|px| earlier.contains(&px) && !in_range(px)))
        .collect();
    crate::sort::sort(&mut named);
    named.dedup();
    let covered: usize = by_range.iter().map(|r| r.len()).sum::<usize>() + named.len();
    let missed = earlier.len() - covered;
    if missed == 0 {
        return None;
    }
    // The first missed entries in channel order: the smallest entry indexes over the earlier
    // positions outside the range, the named ones left out, and the stranded ones
    // (stranded-entry says their users get no upgrade at all, not one patch at a time).
    let mut gaps = Vec::new();
    let mut at = earlier.start;
    for r in &by_range {
        gaps.push(at..r.start);
        at = r.end;
    }
    gaps.push(at..earlier.end);
    let first = z.smallest().take(gaps, LIST_CAP, |x| named.binary_search(&x).is_ok());
    if first.is_empty() {
        return None;
    }
    // Past the names shown, the count is of every earlier patch not upgraded directly.
    let missed = if first.len() < LIST_CAP { first.len() } else { missed };
    let names = first.iter().map(|&x| q(&cx.channel.entries[x].name.value));
    Some(Diagnostic::warning(
        Code::ZStreamGap,
        format!(
            "{} in channel {} does not replace, skip or cover with skipRange the earlier {}.{} patches {}: users on them upgrade one patch at a time (a skipRange like \">={}.{}.0 <{v}\" fixes it)",
            q(&e.name.value),
            cx.quoted,
            s.major,
            s.minor,
            join_counted(names, missed, ", "),
            s.major,
            s.minor
        ),
        cx.at(e, "name"),
    ))
}

/// Each rule on a small catalog of package `foo` (entry `foo.vX.Y.Z` is a bundle of version
/// X.Y.Z): a channel that breaks it, with the exact warning, and one that keeps it.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::testing::{foo, TestCatalog};

    /// The messages of the lints with `code`, over channel `stable` given as YAML entries.
    fn warnings(code: Code, entries: &str) -> Vec<String> {
        of(code, &TestCatalog::new().channel("stable", entries).build())
    }

    fn of(code: Code, m: &crate::model::Model) -> Vec<String> {
        package(foo(m)).into_iter().filter(|d| d.code == code).map(|d| d.message).collect()
    }

    /// 1.0.0 <- 1.1.0 <- 1.2.0 along `replaces`: no lint fires.
    const CHAIN: &str = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
        - name: foo.v1.2.0
          replaces: foo.v1.1.0
    ";

    #[test]
    fn a_plain_replaces_chain_is_clean() {
        let m = TestCatalog::new().channel("stable", CHAIN).build();
        assert_eq!(package(foo(&m)), []);
    }

    #[test]
    fn channels_opm_rejects_are_not_linted() {
        // Two heads (and 1.1.0 would be unreachable): opm reports the channel, the lints do not.
        let m = TestCatalog::new().channel("stable", "[{name: foo.v1.0.0}, {name: foo.v1.1.0}]").build();
        assert_eq!(package(foo(&m)), []);
    }

    /// 1.2.0 replaces 1.1.0 and skips it, so nothing on OLM v0's order upgrades 1.0.0.
    const REPLACES_WHAT_IT_SKIPS: &str = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
        - name: foo.v1.2.0
          replaces: foo.v1.1.0
          skips: [foo.v1.1.0]
    ";

    #[test]
    fn lints_come_in_a_fixed_order() {
        let m = TestCatalog::new().channel("stable", REPLACES_WHAT_IT_SKIPS).build();
        let codes: Vec<Code> = package(foo(&m)).iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::StrandedEntry, Code::ReplacesSkipped]);
    }

    mod stranded_entry {
        use super::*;

        #[test]
        fn the_entries_off_the_order_that_would_upgrade_are_named_ten_at_most() {
            // foo.v1.0.0 is upgraded by twelve entries that the head skips, and by nothing else.
            let skipped: Vec<String> = (1..=12).map(|i| format!("foo.v1.1.{i}")).collect();
            let mut entries = String::from("- name: foo.v1.0.0\n");
            for s in &skipped {
                entries.push_str(&format!("- {{name: {s}, replaces: foo.v1.0.0}}\n"));
            }
            entries.push_str(&format!("- {{name: foo.v2.0.0, skips: [{}]}}\n", skipped.join(", ")));
            let got = warnings(Code::StrandedEntry, &entries);
            let named: Vec<String> = skipped[..10].iter().map(|s| format!("\"{s}\"")).collect();
            assert_eq!(
                got,
                [format!(
                    "users on \"foo.v1.0.0\" in channel \"stable\" cannot upgrade to the head \"foo.v2.0.0\" with OLM v0 (OLM v1 can, through \"foo.v1.1.12\"): only {} (and 2 more) upgrade \"foo.v1.0.0\", and OLM v0 never installs them: \"foo.v2.0.0\" skips \"foo.v1.1.1\", so OLM v0 drops it; add \"foo.v1.0.0\" to the skips of \"foo.v2.0.0\"",
                    named.join(", ")
                )]
            );
            // The path explains itself in the same words.
            let m = TestCatalog::new().channel("stable", &entries).build();
            let path = crate::graph::upgrade_path(
                foo(&m),
                crate::graph::testing::channel(&m, "stable"),
                &crate::graph::Start::Bundle("foo.v1.0.0".into()),
                crate::graph::Semantics::V0,
            )
            .expect("a path");
            assert!(got[0].contains(path.reason.as_deref().expect("stranded")));
        }

        #[test]
        fn an_entry_without_an_olm_v0_path_to_the_head_is_stranded() {
            assert_eq!(
                warnings(Code::StrandedEntry, REPLACES_WHAT_IT_SKIPS),
                ["users on \"foo.v1.0.0\" in channel \"stable\" cannot upgrade to the head \"foo.v1.2.0\" with OLM v0 (OLM v1 can, through \"foo.v1.1.0\"): only \"foo.v1.1.0\" upgrades \"foo.v1.0.0\", and OLM v0 never installs it: \"foo.v1.2.0\" skips \"foo.v1.1.0\", so OLM v0 drops it; add \"foo.v1.0.0\" to the skips of \"foo.v1.2.0\""]
            );
        }

        #[test]
        fn an_upgrader_off_the_chain_from_the_head_is_named_and_the_head_is_to_skip_it() {
            // 1.1.0 upgrades 1.0.0, but the head 1.2.0 replaces 0.9.0 and skips what replaces
            // 1.1.0: 1.1.0 is on no chain.
            let entries = "
                - name: foo.v0.9.0
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.1.5
                  replaces: foo.v1.1.0
                - name: foo.v1.2.0
                  replaces: foo.v0.9.0
                  skips: [foo.v1.1.5]
            ";
            let got = warnings(Code::StrandedEntry, entries);
            assert!(got[0].ends_with(": only \"foo.v1.1.0\" upgrades \"foo.v1.0.0\", and OLM v0 never installs it: it is not on the replaces chain from the head \"foo.v1.2.0\"; add \"foo.v1.0.0\" to the skips of \"foo.v1.2.0\""), "{got:?}");
        }

        #[test]
        fn when_olm_v1_has_no_path_either_the_message_says_so() {
            // OLM v1 goes 1.0.0 -> 1.1.0 -> 1.2.0 -> 1.1.0 (1.1.0 skips 1.2.0): a loop; OLM v0's
            // chain is the head alone.
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                  skips: [foo.v1.2.0]
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
                - name: foo.v2.0.0
            ";
            let got = warnings(Code::StrandedEntry, entries);
            assert!(got[0].starts_with("users on \"foo.v1.0.0\" in channel \"stable\" cannot upgrade to the head \"foo.v2.0.0\" with OLM v0 or OLM v1: "), "{got:?}");
        }

        #[test]
        fn a_skipped_entry_is_not_stranded_when_its_skipper_is_on_the_chain() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.0.0
                  skips: [foo.v1.1.0]
            ";
            assert_eq!(warnings(Code::StrandedEntry, entries), Vec::<String>::new());
        }
    }

    mod replaces_skipped {
        use super::*;

        #[test]
        fn replacing_an_entry_that_is_skipped_is_reported() {
            assert_eq!(
                warnings(Code::ReplacesSkipped, REPLACES_WHAT_IT_SKIPS),
                ["\"foo.v1.2.0\" replaces \"foo.v1.1.0\", which \"foo.v1.2.0\" skips: opm 1.58 and later stop the replaces chain there, older opm walks through it, and OLM v0 leaves it out of its order; drop it from the skips of \"foo.v1.2.0\""]
            );
        }

        #[test]
        fn replacing_an_entry_a_newer_entry_skips_on_the_same_chain_asks_to_drop_the_shortcut() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
                - name: foo.v1.3.0
                  replaces: foo.v1.2.0
                  skips: [foo.v1.1.0]
            ";
            assert_eq!(
                warnings(Code::ReplacesSkipped, entries),
                ["\"foo.v1.2.0\" replaces \"foo.v1.1.0\", which \"foo.v1.3.0\" skips: opm 1.58 and later stop the replaces chain there, older opm walks through it, and OLM v0 leaves it out of its order; users on it reach \"foo.v1.3.0\" either way: for one chain in every opm, drop it from the skips of \"foo.v1.3.0\" (its users then upgrade through \"foo.v1.2.0\")"]
            );
        }

        #[test]
        fn replacing_an_entry_an_older_entry_skips_asks_to_replace_that_entry() {
            // dell-csm-operator: 1.8.1 takes 1.8.0's users, 1.9.0 still replaces 1.8.0.
            let entries = "
                - name: foo.v1.7.0
                - name: foo.v1.8.0
                  replaces: foo.v1.7.0
                - name: foo.v1.8.1
                  replaces: foo.v1.7.0
                  skips: [foo.v1.8.0]
                - name: foo.v1.9.0
                  replaces: foo.v1.8.0
                - name: foo.v1.9.1
                  replaces: foo.v1.8.1
                  skips: [foo.v1.9.0]
            ";
            let found = warnings(Code::ReplacesSkipped, entries);
            assert!(
                found.iter().any(|m| m
                    .starts_with("\"foo.v1.9.0\" replaces \"foo.v1.8.0\", which \"foo.v1.8.1\" skips")
                    && m.ends_with(
                        "have \"foo.v1.9.0\" replace \"foo.v1.8.1\" instead, which already upgrades its users"
                    )),
                "{found:?}"
            );
        }

        #[test]
        fn replacing_a_name_outside_the_channel_is_not() {
            // Pruned history: the tail replaces a bundle that is gone, and something skips it.
            let entries = "
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                - name: foo.v1.2.0
                  replaces: foo.v1.1.0
                  skips: [foo.v1.0.0]
            ";
            assert_eq!(warnings(Code::ReplacesSkipped, entries), Vec::<String>::new());
        }
    }

    mod version_goes_backwards {
        use super::*;

        #[test]
        fn replacing_a_higher_version_is_reported() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v0.9.0
                  replaces: foo.v1.0.0
            ";
            assert_eq!(
                warnings(Code::VersionGoesBackwards, entries),
                ["\"foo.v0.9.0\" (version 0.9.0) replaces \"foo.v1.0.0\" (version 1.0.0), a newer version, in channel \"stable\": OLM v0 can downgrade users on \"foo.v1.0.0\" to it, OLM v1 never takes it; give \"foo.v0.9.0\" a version above 1.0.0, or have it replace an older entry"]
            );
        }

        #[test]
        fn replacing_a_lower_version_is_not() {
            assert_eq!(warnings(Code::VersionGoesBackwards, CHAIN), Vec::<String>::new());
        }
    }

    mod skip_range_covers_nothing {
        use super::*;

        #[test]
        fn a_range_covering_no_other_entry_is_reported() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                  skipRange: '>=2.0.0 <2.1.0'
            ";
            assert_eq!(
                warnings(Code::SkipRangeCoversNothing, entries),
                ["the skipRange \">=2.0.0 <2.1.0\" of \"foo.v1.1.0\" covers no entry of channel \"stable\": OLM v0 and v1 upgrade through it only from versions outside the channel; make it \">=1.0.0 <1.1.0\" or remove it"]
            );
        }

        #[test]
        fn a_lone_head_covering_pruned_versions_is_not() {
            assert_eq!(
                warnings(Code::SkipRangeCoversNothing, "[{name: foo.v2.0.0, skipRange: '<2.0.0'}]"),
                Vec::<String>::new()
            );
        }

        #[test]
        fn a_range_covering_an_entry_is_not() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                  replaces: foo.v1.0.0
                  skipRange: '<1.1.0'
            ";
            assert_eq!(warnings(Code::SkipRangeCoversNothing, entries), Vec::<String>::new());
        }
    }

    mod head_not_highest {
        use super::*;

        #[test]
        fn a_head_below_another_entry_is_reported() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v2.0.0
                  replaces: foo.v1.0.0
                - name: foo.v1.5.0
                  replaces: foo.v2.0.0
            ";
            assert_eq!(
                warnings(Code::HeadNotHighest, entries),
                ["the head of channel \"stable\" is \"foo.v1.5.0\" (version 1.5.0), but \"foo.v2.0.0\" has the higher version 2.0.0: OLM v0 installs the older head on new subscriptions, OLM v1 installs \"foo.v2.0.0\"; give \"foo.v1.5.0\" a version above 2.0.0"]
            );
        }

        #[test]
        fn a_highest_head_is_not() {
            assert_eq!(warnings(Code::HeadNotHighest, CHAIN), Vec::<String>::new());
        }
    }

    mod deprecated_head {
        use super::*;

        #[test]
        fn a_head_deprecated_by_olm_deprecations_is_reported() {
            let m = TestCatalog::new().channel("stable", CHAIN).deprecate_bundle("foo.v1.2.0", "use 1.3").build();
            assert_eq!(
                of(Code::DeprecatedHead, &m),
                ["the head \"foo.v1.2.0\" of channel \"stable\" is deprecated (use 1.3): OLM v0 installs it on new subscriptions, OLM v1 installs the highest version not deprecated; publish a release that replaces \"foo.v1.2.0\""]
            );
        }

        #[test]
        fn a_head_with_the_legacy_olm_deprecated_property_is_reported() {
            let m = TestCatalog::new().channel("stable", CHAIN).olm_deprecated("foo.v1.2.0").build();
            let got = of(Code::DeprecatedHead, &m);
            assert!(got[0].contains(": OLM v0 never installs it (olm.deprecated), OLM v1 ignores that property; publish a release that replaces \"foo.v1.2.0\""), "{got:?}");
        }

        #[test]
        fn a_deprecated_entry_below_the_head_is_not() {
            let m = TestCatalog::new().channel("stable", CHAIN).deprecate_bundle("foo.v1.1.0", "old").build();
            assert_eq!(of(Code::DeprecatedHead, &m), Vec::<String>::new());
        }
    }

    mod unreachable_entry {
        use super::*;

        #[test]
        fn an_entry_nothing_upgrades_to_is_reported() {
            // 1.1.0 is skipped by the head, but no entry replaces, skips or covers an entry into it.
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.1.0
                - name: foo.v1.2.0
                  replaces: foo.v1.0.0
                  skips: [foo.v1.1.0]
            ";
            assert_eq!(
                warnings(Code::UnreachableEntry, entries),
                ["no earlier version in channel \"stable\" upgrades to \"foo.v1.1.0\": OLM v0 and v1 only install it fresh; have it replace \"foo.v1.0.0\", the next lower version"]
            );
        }

        #[test]
        fn the_lowest_version_is_not() {
            assert_eq!(warnings(Code::UnreachableEntry, CHAIN), Vec::<String>::new());
        }
    }

    mod z_stream_gap {
        use super::*;

        #[test]
        fn a_patch_that_misses_an_earlier_patch_is_reported() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  replaces: foo.v1.0.0
                - name: foo.v1.0.2
                  replaces: foo.v1.0.1
            ";
            assert_eq!(
                warnings(Code::ZStreamGap, entries),
                ["\"foo.v1.0.2\" in channel \"stable\" does not replace, skip or cover with skipRange the earlier 1.0 patches \"foo.v1.0.0\": users on them upgrade one patch at a time (a skipRange like \">=1.0.0 <1.0.2\" fixes it)"]
            );
        }

        #[test]
        fn stranded_earlier_patches_are_left_to_stranded_entry() {
            // clusterpulse: 0.3.0 both replaces and skips 0.2.3, the only upgrade of 0.2.0–0.2.2,
            // so their users get no upgrade at all, not one patch at a time.
            let entries = "
                - name: foo.v0.2.0
                - name: foo.v0.2.1
                - name: foo.v0.2.2
                - name: foo.v0.2.3
                  skips: [foo.v0.2.0, foo.v0.2.1, foo.v0.2.2]
                - name: foo.v0.3.0
                  replaces: foo.v0.2.3
                  skips: [foo.v0.2.3]
            ";
            assert_eq!(warnings(Code::StrandedEntry, entries).len(), 3);
            assert_eq!(warnings(Code::ZStreamGap, entries), Vec::<String>::new());
            // Earlier patches that are not stranded are still named, the stranded one is not.
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  replaces: foo.v1.0.0
                - name: foo.v1.0.2
                - name: foo.v1.0.3
                  replaces: foo.v1.0.2
                  skips: [foo.v1.0.1]
                - name: foo.v1.0.4
                  replaces: foo.v1.0.3
            ";
            assert_eq!(warnings(Code::StrandedEntry, entries).len(), 1);
            let got = warnings(Code::ZStreamGap, entries);
            assert_eq!(got.len(), 2, "{got:?}");
            assert!(got[0].starts_with("\"foo.v1.0.2\" in channel \"stable\" does not replace, skip or cover with skipRange the earlier 1.0 patches \"foo.v1.0.1\":"), "{got:?}");
            assert!(got[1].starts_with("\"foo.v1.0.4\" in channel \"stable\" does not replace, skip or cover with skipRange the earlier 1.0 patches \"foo.v1.0.1\", \"foo.v1.0.2\":"), "{got:?}");
        }

        #[test]
        fn a_patch_whose_range_covers_the_earlier_patches_is_not() {
            let entries = "
                - name: foo.v1.0.0
                - name: foo.v1.0.1
                  replaces: foo.v1.0.0
                - name: foo.v1.0.2
                  replaces: foo.v1.0.1
                  skipRange: '>=1.0.0 <1.0.2'
            ";
            assert_eq!(warnings(Code::ZStreamGap, entries), Vec::<String>::new());
        }

        #[test]
        fn minor_releases_and_pre_releases_are_not_checked() {
            // 1.1.2-rc.1 does not cover 1.1.0, but pre-releases are not checked; nor is 1.2.0,
            // the first release of its minor version.
            let entries = "
                - name: foo.v1.1.0
                - name: foo.v1.1.1
                  replaces: foo.v1.1.0
                - name: foo.v1.1.2-rc.1
                  replaces: foo.v1.1.1
                - name: foo.v1.2.0
                  replaces: foo.v1.1.2-rc.1
            ";
            assert_eq!(warnings(Code::ZStreamGap, entries), Vec::<String>::new());
        }
    }
}
