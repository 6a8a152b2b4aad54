//! A subscription's part of the variables (§2.5): its variable, the installed CSV it starts from,
//! its catalog queried stage by stage (catalog, package, channel, name), its candidates in
//! channel order, and its requirement.

use super::*;

impl Builder<'_> {
    /// One subscription's variable, candidates and requirement (§2.5); `Err` fails the resolution.
    #[inline(never)] // a stage of its own: see `build`
    pub(super) fn subscription(&mut self, si: usize) -> Result<(), String> {
        let snap = self.snap;
        let sub = &self.problem.subscriptions[si];
        // 1. The installed CSV.
        let current = self.installed_csv(sub)?;
        let v = self.subscription_variable(si);
        // 2. Query the subscription's catalog, stage by stage.
        let starting = sub.starting_csv.as_deref().filter(|s| !s.is_empty() && current.is_none());
        let stages = Stages::query(snap, sub, starting);
        if let Some(reason) = stages.invalid_reason(sub, starting) {
            self.vars[v].constraints.push(Self::constraint(ConstraintKind::Prohibited, reason));
            self.built.subscription_candidates.insert(v, (Vec::new(), current));
            return Ok(());
        }
        // 3. Order.
        let mut ordered = subscription_order(snap, &stages.named)?;
        if ordered.is_empty() && current.is_none() {
            return Err(format!("could not find any potential bundles for subscription: {}", sub.package));
        }
        // 4. Upgrades only from what directly replaces, skips or skipRange-covers current.
        if let Some(cur) = current {
            keep_direct_upgrades(snap, cur, &mut ordered);
        }
        // 5. Candidates.
        let ids = self.subscription_candidates(&ordered, current, starting)?;
        // 6. The requirement.
        self.subscription_requirement(v, ids);
        self.built.subscription_candidates.insert(v, (ordered, current));
        Ok(())
    }

    /// The subscription's installed CSV in `@existing`, if any; several is an error (§2.5 step 1).
    pub(super) fn installed_csv(&self, sub: &Subscription) -> Result<Option<EntryId>, String> {
        let snap = self.snap;
        let current: Vec<EntryId> = match sub.installed_csv.as_deref().filter(|s| !s.is_empty()) {
            Some(name) => {
                snap.catalogs[snap.existing].entries.clone().filter(|&i| snap.entry(i).name == name).collect()
            }
            None => Vec::new(),
        };
        if current.len() > 1 {
            let names: Vec<&str> = current.iter().map(|&i| snap.entry(i).name).collect();
            return Err(format!(
                "multiple name matches for status.installedCSV of subscription {}/{}: {}",
                self.problem.namespace,
                sub.name,
                names.join(", ")
            ));
        }
        Ok(current.first().copied())
    }

    /// The subscription's variable, `Mandatory` because the subscription exists.
    pub(super) fn subscription_variable(&mut self, si: usize) -> usize {
        let name = &self.problem.subscriptions[si].name;
        let v = self.vars.len();
        self.vars.push(Variable {
            id: format!("subscription:{name}"),
            constraints: vec![Self::constraint(ConstraintKind::Mandatory, format!("subscription {name} exists"))],
        });
        self.subjects.push(Subject::Subscription(si));
        v
    }

    /// Explore the candidates; upgrades conflict with the installed CSV, put last (§2.5 step 5).
    pub(super) fn subscription_candidates(
        &mut self,
        ordered: &[EntryId],
        current: Option<EntryId>,
        starting: Option<&str>,
    ) -> Result<Vec<usize>, String> {
        let mut ids = Vec::new();
        for &c in ordered {
            self.explore(&[c])?;
            let cv = self.bundle_var(c);
            if let Some(cur) = current {
                let cur_var = self.bundle_var(cur);
                let conflict = ConstraintKind::Conflict(cur_var);
                if !self.vars[cv].constraints.iter().any(|k| k.kind == conflict) {
                    let msg = format!("{} conflicts with {}", self.vars[cv].id, self.vars[cur_var].id);
                    self.vars[cv].constraints.push(Self::constraint(conflict, msg));
                }
                self.built.replaces.insert(c, self.snap.entry(cur).name.to_string());
            } else if let Some(s) = starting {
                self.built.starting_csv.insert(c, s.to_string());
            }
            ids.push(cv);
        }
        if let Some(cur) = current {
            ids.push(self.bundle_var(cur));
        }
        Ok(ids)
    }

    /// The subscription's Dependency on its candidates, with OLM's message for none, one or
    /// several (formatted when read).
    pub(super) fn subscription_requirement(&mut self, v: usize, ids: Vec<usize>) {
        let requirement = Constraint { kind: ConstraintKind::Dependency(ids), message: Message::Subscription };
        self.vars[v].constraints.push(requirement);
    }
}

/// What a subscription's catalog query keeps at each stage: catalog, package, channel, name.
pub(super) struct Stages {
    /// The subscription's catalog has no entries (or does not exist).
    catalog_empty: bool,
    in_package: Vec<EntryId>,
    in_channel: Vec<EntryId>,
    named: Vec<EntryId>,
}

impl Stages {
    /// Query the subscription's catalog (all when it names none), stage by stage (§2.5 step 2),
    /// through the snapshot's package index: the work is the package's, not the catalog's.
    fn query(snap: &Snapshot, sub: &Subscription, starting: Option<&str>) -> Stages {
        let any_catalog = sub.catalog.is_empty() && sub.catalog_namespace.is_empty();
        let selected: Vec<bool> = snap
            .catalogs
            .iter()
            .map(|c| !c.is_virtual && (any_catalog || (c.name == sub.catalog && c.namespace == sub.catalog_namespace)))
            .collect();
        let catalog_empty = !snap.catalogs.iter().zip(&selected).any(|(c, &s)| s && !c.entries.is_empty());
        let in_package: Vec<EntryId> =
            snap.candidates(None, Some(&sub.package)).filter(|&i| selected[snap.catalog_of(i)]).collect();
        let in_channel: Vec<EntryId> = in_package
            .iter()
            .copied()
            .filter(|&i| sub.channel.is_empty() || snap.entry(i).channel == sub.channel)
            .collect();
        let named: Vec<EntryId> = match starting {
            Some(s) => in_channel.iter().copied().filter(|&i| snap.entry(i).name == s).collect(),
            None => in_channel.clone(),
        };
        Stages { catalog_empty, in_package, in_channel, named }
    }

    /// Why the subscription is invalid: OLM's message for the first stage that matched nothing.
    fn invalid_reason(&self, sub: &Subscription, starting: Option<&str>) -> Option<String> {
        if self.catalog_empty {
            Some(format!(
                "no operators found from catalog {} in namespace {} referenced by subscription {}",
                sub.catalog, sub.catalog_namespace, sub.name
            ))
        } else if self.in_package.is_empty() {
            Some(format!(
                "no operators found in package {} in the catalog referenced by subscription {}",
                sub.package, sub.name
            ))
        } else if self.in_channel.is_empty() {
            Some(format!(
                "no operators found in channel {} of package {} in the catalog referenced by subscription {}",
                sub.channel, sub.package, sub.name
            ))
        } else if self.named.is_empty() {
            Some(format!(
                "no operators found with name {} in channel {} of package {} in the catalog referenced by subscription {}",
                starting.unwrap_or(""),
                sub.channel,
                sub.package,
                sub.name
            ))
        } else {
            None
        }
    }
}

/// Default channel first, then channel name, each channel's run in chain order (§2.5 step 3).
pub(super) fn subscription_order(snap: &Snapshot, named: &[EntryId]) -> Result<Vec<EntryId>, String> {
    // Each entry's sort key read once (not two entry views per comparison).
    let mut keyed: Vec<(bool, &str, EntryId)> = named
        .iter()
        .map(|&i| {
            let e = snap.entry(i);
            (e.default_channel, e.channel, i)
        })
        .collect();
    crate::sort::sort_by(&mut keyed, |a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let sorted: Vec<EntryId> = keyed.into_iter().map(|(_, _, i)| i).collect();
    let mut ordered: Vec<EntryId> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let ch = snap.entry(sorted[i]).channel;
        let mut j = i;
        while j < sorted.len() && snap.entry(sorted[j]).channel == ch {
            j += 1;
        }
        let package = snap.entry(sorted[i]).package;
        ordered.extend(sort_channel(snap, package, ch, &sorted[i..j])?);
        i = j;
    }
    Ok(ordered)
}

/// The (catalog, run) whose entries `group` is, all of them in catalog order, if it is one.
pub(super) fn whole_run(snap: &Snapshot, group: &[EntryId]) -> Option<(usize, u32)> {
    let (cat, run) = snap.run_of(*group.first()?)?;
    snap.run_entries(cat, run).eq(group.iter().copied()).then_some((cat, run))
}

/// Keep what directly replaces, skips or skipRange-covers the installed CSV `cur` (§2.5 step 4).
pub(super) fn keep_direct_upgrades(snap: &Snapshot, cur: EntryId, ordered: &mut Vec<EntryId>) {
    let ce = snap.entry(cur);
    let cv = snap.bundle(cur).version;
    ordered.retain(|&i| {
        let e = snap.entry(i);
        e.skip_range().is_some_and(|r| cv.as_ref().is_some_and(|v| r.contains(v)))
            || e.replaces == ce.name
            || e.skips.iter().any(|s| s.value == ce.name)
    });
}

/// `sortChannel` over snapshot entries; errors are OLM's texts. A whole channel of one catalog
/// takes the order kept with the catalog's index.
pub(super) fn sort_channel(
    snap: &Snapshot,
    package: &str,
    channel: &str,
    list: &[EntryId],
) -> Result<Vec<EntryId>, String> {
    if let Some((cat, run)) = whole_run(snap, list) {
        return Ok(snap.run_order(cat, run).map_err(str::to_string)?.collect());
    }
    let views: Vec<_> = list.iter().map(|&i| snap.entry(i)).collect();
    chain_order(package, channel, &views).map(|o| o.into_iter().map(|k| list[k]).collect())
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;
    use super::*;
    use crate::cluster::problem_json::ProblemJson;

    #[test]
    fn a_subscription_needs_one_of_its_channel_entries_head_first() {
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", "")].join(","),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        let sub: Vec<&String> = vars.iter().filter(|l| !l.starts_with("cat/")).collect();
        assert!(sub.iter().any(|l| l.ends_with(": mandatory")), "{vars:#?}");
        assert!(
            sub.iter().any(|l| l.ends_with(": one of [cat/ns/stable/a.v2, cat/ns/stable/a.v1]")),
            "the channel head comes first: {vars:#?}"
        );
    }

    #[test]
    fn a_whole_channel_of_one_catalog_is_ordered_by_its_kept_run_order_and_a_part_of_it_afresh() {
        // Entries listed tail first: the order must come from the chain, not the listing.
        let a = package(
            "a",
            r#"{"name":"a.v3","replaces":"a.v2"},{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", ""), bundle("a.v3", "3.0.0", "")].join(","),
        );
        let problem = format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],"subscriptions":[]}}"#
        );
        let cluster = serde_json::from_str::<ProblemJson>(&problem).unwrap().into_cluster().unwrap();
        let snap = Snapshot::build(&cluster).unwrap();
        let cat = (0..snap.catalogs.len()).find(|&c| snap.catalogs[c].name == "cat").unwrap();
        let all: Vec<EntryId> = snap.catalogs[cat].entries.clone().collect();
        let names = |ids: &[EntryId]| ids.iter().map(|&i| snap.entry(i).name).collect::<Vec<_>>();
        assert!(whole_run(&snap, &all).is_some());
        assert_eq!(names(&subscription_order(&snap, &all).unwrap()), ["a.v3", "a.v2", "a.v1"]);
        // A part of the channel (a startingCSV's), or the entries in another order, is no run.
        assert_eq!(whole_run(&snap, &all[1..]), None);
        let reversed: Vec<EntryId> = all.iter().rev().copied().collect();
        assert_eq!(whole_run(&snap, &reversed), None);
        assert_eq!(names(&subscription_order(&snap, &all[2..]).unwrap()), ["a.v2"]);
    }

    #[test]
    fn an_installed_csv_is_upgraded_by_what_replaces_it_and_may_stay() {
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", "")].join(","),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "installed":[{{"name":"a.v1","version":"1.0.0","properties":[{{"type":"olm.package","value":{{"packageName":"a","version":"1.0.0"}}}}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns","installedCSV":"a.v1"}}]}}"#
        ));
        assert!(
            vars.iter().any(|l| l.ends_with(": one of [cat/ns/stable/a.v2, @existing/ns//a.v1]")),
            "the upgrade first, then the installed CSV itself: {vars:#?}"
        );
    }
}
