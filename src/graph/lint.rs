//! Graph lints: upgrade graphs that opm accepts but that strand users or surprise authors. All are
//! warnings; each message says what to change.

use std::collections::HashSet;

use super::channel_graph::{entry_version, ChannelGraph};
use super::upgrade::{Start, V0Channel};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::model::{Channel, Entry, Model, Package};
use crate::version::{go_quote as q, Version};

/// Run every graph lint over the model.
pub fn check(model: &Model) -> Vec<Diagnostic> {
    model.packages.iter().flat_map(package).collect()
}

/// The graph lints of one package.
pub fn package(p: &Package) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for c in &p.channels {
        channel(p, c, &mut out);
    }
    out
}

fn at(c: &Channel, e: &Entry, field: &str) -> Location {
    let pos = match field {
        "replaces" => e.replaces.pos,
        "skipRange" => e.skip_range.as_ref().map_or(e.name.pos, |s| s.text.pos),
        _ => e.name.pos,
    };
    c.source.as_ref().map(|s| s.at(pos, format!("/entries/{}/{field}", e.index))).unwrap_or_default()
}

fn channel(p: &Package, c: &Channel, out: &mut Vec<Diagnostic>) {
    if c.entries.is_empty() || c.head().is_err() {
        return; // opm already rejects the channel.
    }
    let graph = ChannelGraph::new(p, c);
    let version = |e: &Entry| entry_version(p, e.bundle);
    let by_name = |n: &str| c.entries.iter().find(|e| e.name.value == n);
    let skipped_by: Vec<(&str, &str)> =
        c.entries.iter().flat_map(|e| e.skips.iter().map(move |s| (s.value.as_str(), e.name.value.as_str()))).collect();
    let ch = q(&c.name);

    // Stranded entries: OLM v0 has no path from them to the head.
    if graph.order_error.is_none() {
        if let Ok(v0) = V0Channel::new(p, c) {
            for (e, n) in c.entries.iter().zip(&graph.nodes) {
                if n.stranded {
                    let reason = v0
                        .path(&Start::Bundle(e.name.value.clone()))
                        .ok()
                        .and_then(|path| path.reason)
                        .unwrap_or_default();
                    out.push(Diagnostic::warning(
                        Code::StrandedEntry,
                        format!(
                            "users on {} in channel {ch} cannot upgrade to the head {} with OLM v0: {reason}; add it to the skips or skipRange of an entry on the replaces chain",
                            q(&e.name.value),
                            q(graph.head.as_deref().unwrap_or(""))
                        ),
                        at(c, e, "name"),
                    ));
                }
            }
        }
    }

    for e in &c.entries {
        // A replaces target that another entry skips: two readings of the same graph.
        if !e.replaces.value.is_empty() && by_name(&e.replaces.value).is_some() {
            if let Some((_, skipper)) = skipped_by.iter().find(|(s, _)| *s == e.replaces.value) {
                out.push(Diagnostic::warning(
                    Code::ReplacesSkipped,
                    format!(
                        "{} replaces {}, which {} skips: opm 1.58 and later stop the replaces chain there (so what {} replaces must be skipped too), while older opm and OLM v0's channel order walk through it; replace the skipping entry instead",
                        q(&e.name.value),
                        q(&e.replaces.value),
                        q(skipper),
                        q(&e.replaces.value)
                    ),
                    at(c, e, "replaces"),
                ));
            }
        }
        // Versions going backwards along replaces.
        if let (Some(v), Some(r)) = (version(e), by_name(&e.replaces.value).and_then(version)) {
            if v < r {
                out.push(Diagnostic::warning(
                    Code::VersionGoesBackwards,
                    format!(
                        "{} (version {v}) replaces {} (version {r}), a newer version: upgrading would downgrade",
                        q(&e.name.value),
                        q(&e.replaces.value)
                    ),
                    at(c, e, "replaces"),
                ));
            }
        }
        // A skipRange that covers no entry of the channel (a single-entry channel whose head covers
        // pruned versions is normal).
        if let (true, Some(range)) = (c.entries.len() > 1, e.range()) {
            let covers =
                c.entries.iter().any(|x| x.name.value != e.name.value && version(x).is_some_and(|v| range.contains(v)));
            if !covers {
                out.push(Diagnostic::warning(
                    Code::SkipRangeCoversNothing,
                    format!(
                        "the skipRange {} of {} covers no entry of channel {ch}",
                        q(e.skip_range_text()),
                        q(&e.name.value)
                    ),
                    at(c, e, "skipRange"),
                ));
            }
        }
    }

    // The head should be the highest version.
    if let Ok(head) = c.head() {
        if let Some(hv) = version(head) {
            if let Some(max) = c.entries.iter().filter_map(|e| version(e).map(|v| (v, e))).max_by(|a, b| a.0.cmp(b.0)) {
                if max.0 > hv {
                    out.push(Diagnostic::warning(
                        Code::HeadNotHighest,
                        format!(
                            "the head of channel {ch} is {} (version {hv}), but {} has the higher version {}: new subscriptions get the older one",
                            q(&head.name.value),
                            q(&max.1.name.value),
                            max.0
                        ),
                        at(c, head, "name"),
                    ));
                }
            }
        }
        // A deprecated head.
        if let Some(msg) = graph.node(&head.name.value).and_then(|n| n.deprecated.clone()) {
            out.push(Diagnostic::warning(
                Code::DeprecatedHead,
                format!(
                    "the head {} of channel {ch} is deprecated ({msg}): new subscriptions install a deprecated bundle",
                    q(&head.name.value)
                ),
                at(c, head, "name"),
            ));
        }
    }

    // Entries nothing upgrades to, other than the oldest.
    let targets: HashSet<&str> =
        graph.edges.iter().filter(|e| c.entry(&e.from).is_some()).map(|e| e.to.as_str()).collect();
    let lowest: Option<&Version> = c.entries.iter().filter_map(version).min();
    for e in &c.entries {
        let is_lowest = version(e).is_some() && version(e) == lowest;
        if c.entries.len() > 1 && !is_lowest && !targets.contains(e.name.value.as_str()) {
            out.push(Diagnostic::warning(
                Code::UnreachableEntry,
                format!(
                    "no earlier version in channel {ch} upgrades to {}: it can only be installed fresh",
                    q(&e.name.value)
                ),
                at(c, e, "name"),
            ));
        }
    }

    // z-stream: a patch release should replace, skip or skipRange-cover every earlier patch of its
    // minor version.
    for e in &c.entries {
        let Some(v) = version(e) else { continue };
        let s = v.semver();
        if s.patch == 0 || v.is_prerelease() {
            continue;
        }
        let range = e.range();
        let missed: Vec<String> = c
            .entries
            .iter()
            .filter(|x| {
                version(x).is_some_and(|xv| {
                    let xs = xv.semver();
                    xs.major == s.major && xs.minor == s.minor && xv < v
                })
            })
            .filter(|x| {
                let covered = e.replaces.value == x.name.value
                    || e.skips.iter().any(|k| k.value == x.name.value)
                    || range.as_ref().zip(version(x)).is_some_and(|(r, xv)| r.contains(xv));
                !covered
            })
            .map(|x| q(&x.name.value))
            .collect();
        if !missed.is_empty() {
            out.push(Diagnostic::warning(
                Code::ZStreamGap,
                format!(
                    "{} does not replace, skip or cover with skipRange the earlier {}.{} patches {}: users on them upgrade one patch at a time (a skipRange like \">={}.{}.0 <{v}\" fixes it)",
                    q(&e.name.value),
                    s.major,
                    s.minor,
                    missed.join(", "),
                    s.major,
                    s.minor
                ),
                at(c, e, "name"),
            ));
        }
    }
}
