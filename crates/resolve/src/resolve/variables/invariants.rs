//! The invariants over the bundle variables: at most one provider per GVK and one bundle per
//! package, each group listing its variables in identifier order.

use super::*;

impl Builder<'_> {
    /// One provider per GVK, one bundle per package, over every bundle variable so far.
    #[inline(never)] // a stage of its own: see `build`
    pub(super) fn invariants(&mut self) {
        let snap = self.snap;
        // The bundle variables in identifier order (identifiers are unique: one variable each),
        // so that each group's list is built in that order.
        let by_id = self.bundle_vars_by_identifier();
        let mut groups = InvariantGroups::new(snap);
        for &v in &by_id {
            let Subject::Bundle(e) = self.subjects[v] else { continue };
            match snap.invariant_keys(e) {
                // A catalog bundle: grouped by its index's numbers.
                Some((part, keys)) => {
                    for &(gvk, n) in keys {
                        groups.add_numbered(part, gvk, n, v);
                    }
                }
                // An installed CSV: by name.
                None => {
                    let b = snap.bundle(e);
                    for g in b.provides() {
                        groups.add(Key::Gvk(&g.kind, &g.group, &g.version), v);
                    }
                    for (p, _, _) in b.packages() {
                        groups.add(Key::Package(p), v);
                    }
                }
            }
        }
        // A key with one variable constrains nothing: no invariant, and no name to format or sort.
        let mut lists = groups.lists;
        lists.retain(|(_, refs)| refs.len() >= 2);
        // GVKs, then packages, each in name order (the order of the maps by name this replaces).
        crate::sort::sort_by(&mut lists, |a, b| a.0.cmp(&b.0));
        for (key, refs) in lists {
            let (id, gvk) = match key {
                Key::Gvk(kind, group, version) => (format!("{kind} ({group}/{version})"), true),
                Key::Package(p) => (p.to_string(), false),
            };
            let message = Message::Invariant { gvk };
            self.vars.push(Variable {
                id,
                constraints: vec![
                    Constraint { kind: ConstraintKind::Mandatory, message: message.clone() },
                    Constraint { kind: ConstraintKind::AtMost(1, refs), message },
                ],
            });
            self.subjects.push(Subject::Invariant);
        }
    }

    /// The bundle variables sorted by identifier (`<catalog>/<namespace>/<channel>/<name>`).
    /// The identifiers of one catalog share its `<catalog>/<namespace>/` prefix and are ordered
    /// by the rest, which each catalog's index ranks once ([`Snapshot::identifier_rank`]); when no
    /// catalog's prefix begins another's (names hold no `/`), the catalogs' prefixes decide
    /// between catalogs ([`Snapshot::identifier_place`]). Then every entry has a slot of its
    /// own in identifier order (its catalog's first slot, catalogs in place order, plus its
    /// rank), and the variables are put in their entries' slots: no comparison at all. Otherwise
    /// the identifiers themselves are compared.
    pub(super) fn bundle_vars_by_identifier(&self) -> Vec<usize> {
        let (snap, vars) = (self.snap, &self.vars);
        let bundles = (0..vars.len()).filter_map(|v| match self.subjects[v] {
            Subject::Bundle(e) => Some((v, e)),
            _ => None,
        });
        let Some(first) = identifier_slots(snap) else {
            let mut by_id: Vec<usize> = bundles.map(|(v, _)| v).collect();
            crate::sort::sort_by(&mut by_id, |&a, &b| vars[a].id.cmp(&vars[b].id));
            return by_id;
        };
        let mut slots = vec![NONE; snap.entries()];
        // Installed CSVs have no index: they are ranked among themselves by identifier.
        let mut installed: Vec<usize> = Vec::new();
        for (v, e) in bundles {
            match snap.identifier_rank(e) {
                Some((catalog, rank)) => slots[first[catalog] + rank as usize] = v,
                None => installed.push(v),
            }
        }
        crate::sort::sort_by(&mut installed, |&a, &b| vars[a].id.cmp(&vars[b].id));
        let existing = first[snap.existing];
        slots[existing..existing + installed.len()].copy_from_slice(&installed);
        slots.retain(|&v| v != NONE);
        slots
    }
}

/// Each catalog's first slot when the snapshot's entries are laid out in identifier order
/// (catalogs in the order of their places, each taking one slot per entry), if the catalogs have
/// places ([`Snapshot::identifier_place`]).
fn identifier_slots(snap: &Snapshot) -> Option<Vec<usize>> {
    let n = snap.catalogs.len();
    let mut at_place = vec![0; n];
    for c in 0..n {
        at_place[snap.identifier_place(c)? as usize] = c;
    }
    let mut first = vec![0; n];
    let mut next = 0;
    for c in at_place {
        first[c] = next;
        next += snap.catalogs[c].entries.len();
    }
    Some(first)
}

/// What an invariant is over: a GVK (kind, group, version) or a package. GVKs sort first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Key<'a> {
    Gvk(&'a str, &'a str, &'a str),
    Package(&'a str),
}

/// The bundle variables of each GVK and package, found by the catalog indexes' numbers: a name
/// is hashed once per GVK and package of each catalog, not once per variable.
pub(super) struct InvariantGroups<'a> {
    snap: &'a Snapshot<'a>,
    /// Each key's variables, in variable order, each once.
    lists: Vec<(Key<'a>, Vec<usize>)>,
    /// The list of each key, by name.
    by_key: HashMap<Key<'a>, usize>,
    /// Per catalog part, the list of each GVK and each package number (`NONE` before it is met).
    numbered: Vec<(Vec<usize>, Vec<usize>)>,
}

impl<'a> InvariantGroups<'a> {
    fn new(snap: &'a Snapshot<'a>) -> InvariantGroups<'a> {
        let numbered = (0..snap.parts())
            .map(|part| {
                let (gvks, packages) = snap.key_counts(part);
                (vec![NONE; gvks], vec![NONE; packages])
            })
            .collect();
        InvariantGroups { snap, lists: Vec::new(), by_key: HashMap::new(), numbered }
    }

    /// Add variable `v` to the list of GVK (`gvk`) or package number `n` of catalog part `part`.
    fn add_numbered(&mut self, part: usize, gvk: bool, n: u32, v: usize) {
        let (gvks, packages) = &self.numbered[part];
        let mut at = if gvk { gvks[n as usize] } else { packages[n as usize] };
        if at == NONE {
            let snap = self.snap;
            let key = if gvk {
                let g = snap.gvk_key(part, n);
                Key::Gvk(&g.kind, &g.group, &g.version)
            } else {
                Key::Package(snap.package_key(part, n))
            };
            at = self.list_of(key);
            let (gvks, packages) = &mut self.numbered[part];
            *(if gvk { &mut gvks[n as usize] } else { &mut packages[n as usize] }) = at;
        }
        self.push(at, v);
    }

    /// Add variable `v` to the list of `key`.
    fn add(&mut self, key: Key<'a>, v: usize) {
        let at = self.list_of(key);
        self.push(at, v);
    }

    fn list_of(&mut self, key: Key<'a>) -> usize {
        let lists = &mut self.lists;
        *self.by_key.entry(key).or_insert_with(|| {
            lists.push((key, Vec::new()));
            lists.len() - 1
        })
    }

    /// Each variable once per list, however often its bundle lists the GVK or package.
    fn push(&mut self, at: usize, v: usize) {
        let list = &mut self.lists[at].1;
        if list.last() != Some(&v) {
            list.push(v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::*;

    #[test]
    fn at_most_one_bundle_of_a_package_is_installed() {
        let a = package(
            "a",
            r#"{"name":"a.v1"},{"name":"a.v2","replaces":"a.v1"}"#,
            &[bundle("a.v1", "1.0.0", ""), bundle("a.v2", "2.0.0", "")].join(","),
        );
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{{"name":"cat","namespace":"ns","packages":[{a}]}}],
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"cat","catalogNamespace":"ns"}}]}}"#
        ));
        assert!(
            vars.iter().any(|l| l.contains("at most 1 of [cat/ns/stable/a.v2, cat/ns/stable/a.v1]")
                || l.contains("at most 1 of [cat/ns/stable/a.v1, cat/ns/stable/a.v2]")),
            "{vars:#?}"
        );
    }

    /// A problem where one bundle requires [`GVK`] and many bundles, in catalogs `cats` (name,
    /// namespace) and channels `channels`, provide it: the providers' invariant lists them all.
    fn providers_invariant(cats: &[(&str, &str)], channels: &[&str], installed: bool) -> Vec<String> {
        let provides = format!(r#"{{"type":"olm.gvk","value":{GVK}}}"#);
        let catalogs: Vec<String> = cats
            .iter()
            .enumerate()
            .map(|(ci, (name, ns))| {
                let mut packages = Vec::new();
                if ci == 0 {
                    let needs = format!(r#"{{"type":"olm.gvk.required","value":{GVK}}}"#);
                    packages.push(package("a", r#"{"name":"a.v1"}"#, &bundle("a.v1", "1.0.0", &needs)));
                }
                let channel_list: Vec<String> = channels
                    .iter()
                    .map(|c| {
                        format!(
                            r#"{{"name":"{c}","entries":[{{"name":"p-{c}.v1","replaces":"p.v1"}},{{"name":"p.v1"}}]}}"#
                        )
                    })
                    .collect();
                let mut bundles: Vec<String> =
                    channels.iter().map(|c| bundle(&format!("p-{c}.v1"), "1.0.0", &provides)).collect();
                bundles.push(bundle("p.v1", "1.0.0", &provides));
                packages.push(format!(
                    r#"{{"name":"p","defaultChannel":"{}","channels":[{}],"bundles":[{}]}}"#,
                    channels[0],
                    channel_list.join(","),
                    bundles.join(",")
                ));
                format!(r#"{{"name":"{name}","namespace":"{ns}","packages":[{}]}}"#, packages.join(","))
            })
            .collect();
        let installed = if installed {
            let csv = |n: &str| {
                format!(
                    r#"{{"name":"{n}","version":"1.0.0","properties":[{provides},{{"type":"olm.package","value":{{"packageName":"{n}","version":"1.0.0"}}}}]}}"#
                )
            };
            format!(r#""installed":[{},{}],"#, csv("z.v1"), csv("b.v1"))
        } else {
            String::new()
        };
        let vars = variables(&format!(
            r#"{{"namespace":"ns","catalogs":[{}],{installed}
            "subscriptions":[{{"name":"sub","package":"a","channel":"stable","catalog":"{}","catalogNamespace":"{}"}}]}}"#,
            catalogs.join(","),
            cats[0].0,
            cats[0].1
        ));
        let line = vars.iter().find(|l| l.starts_with("K (g/v1): at most 1 of [")).expect("the GVK's invariant");
        line.trim_start_matches("K (g/v1): at most 1 of [")
            .trim_end_matches(']')
            .split(", ")
            .map(String::from)
            .collect()
    }

    #[test]
    fn an_invariant_lists_its_bundles_in_identifier_order() {
        // `-` sorts before `/`, so `x-y/...` comes before `x/...` and catalog `c-d` before `c`.
        let cases: [(&[(&str, &str)], bool); 3] = [
            (&[("c", "ns"), ("c-d", "ns"), ("b", "ns")], false),
            (&[("c", "ns"), ("c-d", "ns"), ("b", "ns")], true),
            // A catalog's prefix `a/ns/` begins another's (`a/ns/ns/`): compared whole.
            (&[("a", "ns"), ("a/ns", "ns"), ("a-b", "ns")], true),
        ];
        for (cats, installed) in cases {
            let ids = providers_invariant(cats, &["x", "x-y", "xa", "x.y"], installed);
            let mut sorted = ids.clone();
            sorted.sort();
            assert_eq!(ids, sorted, "{cats:?}");
            let expected = cats.len() * 8 + if installed { 2 } else { 0 };
            assert_eq!(ids.len(), expected, "every provider: {ids:#?}");
        }
    }
}
