//! Upgrade edges: the edges a new entry gets under an [`EdgePolicy`], and the edges the
//! neighbours of a removed entry get instead (re-wiring). Pure functions over names and
//! versions, so the rules read as a table in the tests below.

use crate::model::{Channel, Package};
use crate::version::Version;

use super::{EdgePolicy, EditError, Operation};

/// An entry's edges.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Edges {
    /// `replaces` (empty: none).
    pub replaces: String,
    /// `skips`.
    pub skips: Vec<String>,
    /// `skipRange` (empty: none).
    pub skip_range: String,
}

/// A channel's entries as the policies see them: name and version, and the head.
pub struct Lineup<'a> {
    /// Every entry with its bundle's version.
    pub entries: Vec<(&'a str, Option<&'a Version>)>,
    /// The single head, or why there is none.
    pub head: Result<Option<&'a str>, String>,
}

impl<'a> Lineup<'a> {
    /// The entries of `channel` (`None`: a channel that does not exist yet).
    pub fn of(package: &'a Package, channel: Option<&'a Channel>) -> Lineup<'a> {
        let Some(c) = channel.filter(|c| !c.entries.is_empty()) else {
            return Lineup { entries: vec![], head: Ok(None) };
        };
        let version = |name: &str| package.bundle(name).and_then(|b| b.version.as_ref());
        Lineup {
            entries: c.entries.iter().map(|e| (e.name.value.as_str(), version(&e.name.value))).collect(),
            head: c.head().map(|h| Some(h.name.value.as_str())).map_err(|e| e.to_string()),
        }
    }
}

/// The edges of `name` (version `version`) entering `lineup` under `policy`.
pub fn choose(
    op: &Operation,
    policy: &EdgePolicy,
    lineup: &Lineup<'_>,
    name: &str,
    version: Option<&Version>,
) -> Result<Edges, EditError> {
    if let EdgePolicy::Explicit { replaces, skips, skip_range } = policy {
        return Ok(Edges {
            replaces: replaces.clone().unwrap_or_default(),
            skips: skips.clone(),
            skip_range: skip_range.clone().unwrap_or_default(),
        });
    }
    if lineup.entries.is_empty() {
        return Ok(Edges::default());
    }
    let Some(new) = version else {
        return Err(EditError::refused(op, format!("bundle {name:?} has no valid version to place it by")));
    };
    let unversioned: Vec<&str> = lineup.entries.iter().filter(|(_, v)| v.is_none()).map(|(n, _)| *n).collect();
    if let Some(n) = unversioned.first() {
        return Err(EditError::refused(op, format!("entry {n:?} has no valid version to compare with")));
    }
    let versioned = || lineup.entries.iter().filter_map(|(n, v)| v.map(|v| (*n, v)));
    if let Some((n, v)) = versioned().filter(|(_, v)| *v >= new).max_by(|a, b| a.1.cmp(b.1)) {
        return Err(EditError::refused(op, format!("{n:?} ({v}) is not below the new version {new}")));
    }
    match policy {
        EdgePolicy::Replaces => {
            let head = lineup.head.clone().map_err(|e| EditError::refused(op, format!("no head to replace: {e}")))?;
            Ok(Edges { replaces: head.unwrap_or_default().to_string(), ..Edges::default() })
        }
        EdgePolicy::SkipRange => {
            let lowest = versioned().map(|(_, v)| v).min().expect("entries are versioned");
            let head = lineup.head.clone().map_err(|e| EditError::refused(op, format!("no head to skip: {e}")))?;
            let skips = head.map(|h| vec![h.to_string()]).unwrap_or_default();
            Ok(Edges { skip_range: format!(">={lowest} <{new}"), skips, ..Edges::default() })
        }
        _ => {
            let same_major: Vec<(&str, &Version)> = versioned().filter(|(_, v)| v.major() == new.major()).collect();
            let replaces = same_major
                .iter()
                .filter(|(_, v)| v.minor() < new.minor())
                .max_by(|a, b| a.1.cmp(b.1))
                .map_or("", |(n, _)| *n);
            let mut skips: Vec<(&str, &Version)> = same_major.into_iter().filter(|(n, _)| *n != replaces).collect();
            skips.sort_by(|a, b| a.1.cmp(b.1));
            Ok(Edges {
                replaces: replaces.to_string(),
                skips: skips.into_iter().map(|(n, _)| n.to_string()).collect(),
                skip_range: String::new(),
            })
        }
    }
}

/// The edges of an entry once `removed` (whose own edges are `gone`) leaves its channel: what
/// replaced it now replaces what it replaced, and skips what it skipped and the removed version
/// itself (so that a cluster still running it has an upgrade); what skipped it no longer does.
pub fn rewire(entry: &Edges, removed: &str, gone: &Edges) -> Edges {
    let mut out = entry.clone();
    out.skips.retain(|s| s != removed);
    if entry.replaces == removed {
        out.replaces = gone.replaces.clone();
        for s in gone.skips.iter().chain([&removed.to_string()]) {
            if !out.skips.contains(s) && *s != out.replaces {
                out.skips.push(s.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        let parts: Vec<u64> = s.split('.').map(|p| p.parse().unwrap()).collect();
        Version::new(parts[0], parts[1], parts[2])
    }

    fn op() -> Operation {
        Operation::RemoveBundle { package: "p".into(), bundle: "b".into() }
    }

    fn pick(policy: EdgePolicy, entries: &[(&str, &Version)], head: &str, new: &Version) -> Result<Edges, EditError> {
        let lineup = Lineup { entries: entries.iter().map(|(n, v)| (*n, Some(*v))).collect(), head: Ok(Some(head)) };
        choose(&op(), &policy, &lineup, "new", Some(new))
    }

    #[test]
    fn replaces_names_the_head_and_skip_range_spans_the_channel() {
        let (a, b, c) = (v("1.0.0"), v("1.1.0"), v("1.2.0"));
        let e = pick(EdgePolicy::Replaces, &[("a", &a), ("b", &b)], "b", &c).unwrap();
        assert_eq!(e, Edges { replaces: "b".into(), ..Edges::default() });
        let e = pick(EdgePolicy::SkipRange, &[("a", &a), ("b", &b)], "b", &c).unwrap();
        assert_eq!((e.skip_range.as_str(), e.skips), (">=1.0.0 <1.2.0", vec!["b".to_string()]));
    }

    #[test]
    fn a_new_entry_must_be_above_every_entry() {
        let (a, b) = (v("1.0.0"), v("1.1.0"));
        let err = pick(EdgePolicy::Replaces, &[("b", &b)], "b", &a).unwrap_err();
        assert_eq!(err.to_string(), "removeBundle: \"b\" (1.1.0) is not below the new version 1.0.0");
        let explicit = EdgePolicy::Explicit { replaces: Some("b".into()), skips: vec![], skip_range: None };
        assert_eq!(pick(explicit, &[("b", &b)], "b", &a).unwrap().replaces, "b");
    }

    #[test]
    fn semver_replaces_the_previous_minors_highest_and_skips_the_rest_of_the_major() {
        let vs = [v("0.9.0"), v("1.0.0"), v("1.0.1"), v("1.1.0"), v("1.1.1")];
        let names = ["z", "a", "b", "c", "d"];
        let entries: Vec<(&str, &Version)> = names.iter().copied().zip(vs.iter()).collect();
        let e = pick(EdgePolicy::Semver, &entries, "d", &v("1.2.0")).unwrap();
        assert_eq!((e.replaces.as_str(), e.skips), ("d", vec!["a".to_string(), "b".into(), "c".into()]));
        let e = pick(EdgePolicy::Semver, &entries, "d", &v("1.1.2")).unwrap();
        assert_eq!((e.replaces.as_str(), e.skips), ("b", vec!["a".to_string(), "c".into(), "d".into()]));
    }

    #[test]
    fn rewiring_passes_the_removed_entrys_edges_on() {
        let gone = Edges { replaces: "a".into(), skips: vec!["x".into()], ..Edges::default() };
        let next = Edges { replaces: "b".into(), ..Edges::default() };
        let want = Edges { replaces: "a".into(), skips: vec!["x".into(), "b".into()], ..Edges::default() };
        assert_eq!(rewire(&next, "b", &gone), want);
        let skipper = Edges { replaces: "c".into(), skips: vec!["b".into(), "y".into()], ..Edges::default() };
        assert_eq!(rewire(&skipper, "b", &gone).skips, vec!["y".to_string()]);
    }
}
