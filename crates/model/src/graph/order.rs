//! OLM v0's channel order (`sortChannel`): the single replaces chain from the head, head first,
//! with skipped entries left out. Entries off that chain can never be picked by OLM v0, neither as
//! an upgrade target nor as a dependency.

use crate::hash::HashMap;

use crate::gotext::{join_capped, quote as q, OPM_LIST_CAP};
use crate::model::{Channel, Entry};

/// Why OLM v0 cannot order a channel; `Display` gives the resolver's message (naming at most
/// [`OPM_LIST_CAP`] chains).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// No entry is the head.
    NoHeads {
        /// The package.
        package: String,
        /// The channel.
        channel: String,
    },
    /// Following `replaces` from the head comes back to an entry.
    Cycle {
        /// The head the walk started from.
        head: String,
        /// The package.
        package: String,
        /// The channel.
        channel: String,
    },
    /// Each chain rendered as OLM does (`first`, `first...last`).
    MultipleChains {
        /// The package.
        package: String,
        /// The channel.
        channel: String,
        /// Each chain, rendered as OLM does.
        chains: Vec<String>,
    },
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OrderError::NoHeads { package, channel } => write!(
                f,
                "no channel heads (entries not replaced by another entry) found in channel {} of package {}",
                q(channel),
                q(package)
            ),
            OrderError::Cycle { head, package, channel } => write!(
                f,
                "a cycle exists in the chain of replacement beginning with {} in channel {} of package {}",
                q(head),
                q(channel),
                q(package)
            ),
            OrderError::MultipleChains { package, channel, chains } => write!(
                f,
                "a unique replacement chain within a channel is required to determine the relative order between channel entries, but {} replacement chains were found in channel {} of package {}: {}",
                chains.len(),
                q(channel),
                q(package),
                join_capped(chains, ", ", OPM_LIST_CAP)
            ),
        }
    }
}

impl std::error::Error for OrderError {}

/// The upgrade links of one entry, as [`v0_order_links`] reads them.
#[derive(Debug, Clone, Copy)]
pub struct Links<'a, S: AsRef<str>> {
    /// The entry name.
    pub name: &'a str,
    /// `replaces` (empty when unset).
    pub replaces: &'a str,
    /// `skips`.
    pub skips: &'a [S],
}

/// Order `entries` (all or a subset of one channel's) as OLM v0 does; returns indexes into
/// `entries`, head first.
pub fn v0_order(package: &str, channel: &str, entries: &[&Entry]) -> Result<Vec<usize>, OrderError> {
    let links: Vec<Links<_>> =
        entries.iter().map(|e| Links { name: &e.name.value, replaces: &e.replaces.value, skips: &e.skips }).collect();
    v0_order_links(package, channel, &links)
}

/// [`v0_order`] over plain links (the resolver's entries are not model entries).
pub fn v0_order_links<S: AsRef<str>>(
    package: &str,
    channel: &str,
    entries: &[Links<S>],
) -> Result<Vec<usize>, OrderError> {
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let by_name: HashMap<&str, usize> = entries.iter().enumerate().map(|(i, e)| (e.name, i)).collect();
    // Flags by entry index (no hashing: the indexes are dense).
    let mut replaced = vec![false; entries.len()];
    let mut skipped = vec![false; entries.len()];
    for e in entries {
        if let Some(&i) = by_name.get(e.replaces) {
            replaced[i] = true;
        }
        for s in e.skips {
            if let Some(&i) = by_name.get(s.as_ref()) {
                replaced[i] = true;
                skipped[i] = true;
            }
        }
    }
    let heads: Vec<usize> = (0..entries.len()).filter(|&i| !replaced[i]).collect();
    if heads.is_empty() {
        return Err(OrderError::NoHeads { package: package.into(), channel: channel.into() });
    }
    let mut chains: Vec<Vec<usize>> = Vec::new();
    // The walk from each head marks what it visits with its own number (one vector for all).
    let mut visited = vec![0usize; entries.len()];
    for (walk, &h) in heads.iter().enumerate() {
        let mut chain = Vec::new();
        let mut cur = Some(h);
        while let Some(i) = cur {
            if std::mem::replace(&mut visited[i], walk + 1) == walk + 1 {
                return Err(OrderError::Cycle {
                    head: entries[h].name.to_string(),
                    package: package.into(),
                    channel: channel.into(),
                });
            }
            if !skipped[i] {
                chain.push(i);
            }
            cur = by_name.get(entries[i].replaces).copied();
        }
        chains.push(chain);
    }
    if chains.len() > 1 {
        let render = |c: &Vec<usize>| match c.as_slice() {
            [] => "[]".to_string(),
            [one] => entries[*one].name.to_string(),
            [first, .., last] => format!("{}...{}", entries[*first].name, entries[*last].name),
        };
        return Err(OrderError::MultipleChains {
            package: package.into(),
            channel: channel.into(),
            chains: chains.iter().map(render).collect(),
        });
    }
    Ok(chains.pop().unwrap_or_default())
}

/// The v0 order of a whole model channel, as entry indexes.
pub fn channel_order(package: &str, c: &Channel) -> Result<Vec<usize>, OrderError> {
    let entries: Vec<&Entry> = c.entries.iter().collect();
    v0_order(package, &c.name, &entries)
}
