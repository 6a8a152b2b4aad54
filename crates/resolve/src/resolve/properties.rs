//! Property tests of the whole resolver on generated catalogs: every solution satisfies every
//! constraint OLM builds, reports exactly the new bundles it selected, and installs nothing
//! without a reason; failures carry a minimal core; nothing panics.

use super::snapshot::Snapshot;
use super::solver::{self, satisfies, ConstraintKind, SolveError, DEFAULT_CONFLICT_BUDGET};
use super::variables::{self, Subject};
use super::{resolve, ResolveError};
use crate::cluster::problem_json::{
    BundleJson as CatalogBundle, CatalogJson as Catalog, ChannelJson as CatalogChannel, EntryJson as CatalogEntry,
    InstalledJson as InstalledOperator, PackageJson as CatalogPackage, ProblemJson as Problem,
    PropertyJson as PropertyValue,
};
use crate::cluster::{Cluster, Subscription};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

fn prop(type_: &str, value: serde_json::Value) -> PropertyValue {
    PropertyValue { type_: type_.into(), value }
}

fn gvk(k: usize) -> serde_json::Value {
    serde_json::json!({"group": "g", "version": "v1", "kind": format!("K{k}")})
}

/// The packages of generated catalogs.
const PACKAGES: [&str; 4] = ["alpha", "beta", "gamma", "delta"];

/// A generated bundle and where it is listed: catalog, package, channel, name, version.
type Placed = (String, String, String, String, String);

/// A random problem: catalogs, packages, channels with edges, bundles with dependencies, installed
/// operators and subscriptions.
fn random_problem(rng: &mut Rng) -> Problem {
    let mut catalogs = Vec::new();
    let mut all_bundles: Vec<Placed> = Vec::new();
    for c in 0..1 + rng.below(2) {
        catalogs.push(random_catalog(rng, c, &mut all_bundles));
    }
    let (installed, subscriptions) = random_subscriptions(rng, &all_bundles);
    Problem { namespace: "ns".into(), catalogs, installed, subscriptions, ..Default::default() }
}

/// Catalog `cat{c}` with two to four packages; its bundles are added to `all_bundles`.
fn random_catalog(rng: &mut Rng, c: usize, all_bundles: &mut Vec<Placed>) -> Catalog {
    let cname = format!("cat{c}");
    let mut pkgs = Vec::new();
    for p in PACKAGES.iter().take(2 + rng.below(3)) {
        pkgs.push(random_package(rng, &cname, p, all_bundles));
    }
    Catalog { name: cname, namespace: "ns".into(), priority: rng.below(3) as i32, packages: pkgs, path: None }
}

/// Package `p` with one or two channels of one to four entries, each replacing the one before
/// and sometimes skipping or with a skipRange; each bundle once, with random properties.
fn random_package(rng: &mut Rng, cname: &str, p: &str, all_bundles: &mut Vec<Placed>) -> CatalogPackage {
    let mut channels = Vec::new();
    let mut bundles: Vec<CatalogBundle> = Vec::new();
    for ch in ["stable", "fast"].iter().take(1 + rng.below(2)) {
        let mut entries: Vec<CatalogEntry> = Vec::new();
        for v in 0..1 + rng.below(4) {
            let name = format!("{p}.v{v}");
            let replaces = (v > 0).then(|| format!("{p}.v{}", v - 1));
            let skips = if v > 1 && rng.chance(20) { vec![format!("{p}.v{}", v - 2)] } else { vec![] };
            let skip_range = (v > 0 && rng.chance(20)).then(|| format!("<{v}.0.0"));
            entries.push(CatalogEntry { name: name.clone(), replaces, skips, skip_range });
            if !bundles.iter().any(|b| b.name == name) {
                let version = format!("{v}.0.0");
                let properties = random_properties(rng, p, &version);
                all_bundles.push((cname.to_string(), p.to_string(), ch.to_string(), name.clone(), version.clone()));
                bundles.push(CatalogBundle { name, version, properties });
            }
        }
        channels.push(CatalogChannel { name: ch.to_string(), entries });
    }
    CatalogPackage { name: p.to_string(), default_channel: Some("stable".into()), channels, bundles }
}

/// A bundle's properties: its package, and at random a provided GVK, a required GVK, a
/// required package, an `any` constraint and a deprecation.
fn random_properties(rng: &mut Rng, p: &str, version: &str) -> Vec<PropertyValue> {
    let mut properties = vec![prop("olm.package", serde_json::json!({"packageName": p, "version": version}))];
    if rng.chance(50) {
        properties.push(prop("olm.gvk", gvk(rng.below(4))));
    }
    if rng.chance(30) {
        properties.push(prop("olm.gvk.required", gvk(rng.below(4))));
    }
    if rng.chance(20) {
        let other = PACKAGES[rng.below(PACKAGES.len())];
        let range = if rng.chance(50) { ">=1.0.0" } else { "<2.0.0" };
        properties.push(prop("olm.package.required", serde_json::json!({"packageName": other, "versionRange": range})));
    }
    if rng.chance(10) {
        let any = serde_json::json!({"any": {"constraints": [{"gvk": gvk(rng.below(4))}, {"package": {"packageName": PACKAGES[rng.below(4)], "versionRange": ">=0.0.0"}}]}});
        properties.push(prop("olm.constraint", any));
    }
    if rng.chance(5) {
        properties.push(prop("olm.deprecated", serde_json::json!({})));
    }
    properties
}

/// One to three subscriptions to generated bundles, some with their bundle installed.
fn random_subscriptions(rng: &mut Rng, all_bundles: &[Placed]) -> (Vec<InstalledOperator>, Vec<Subscription>) {
    let mut installed = Vec::new();
    let mut subscriptions = Vec::new();
    for s in 0..1 + rng.below(3) {
        let (cat, pkg, ch, name, version) = all_bundles[rng.below(all_bundles.len())].clone();
        let installed_csv = rng.chance(40).then(|| name.clone());
        if let Some(n) = &installed_csv {
            if !installed.iter().any(|i: &InstalledOperator| &i.name == n) {
                installed.push(InstalledOperator {
                    name: n.clone(),
                    version,
                    properties: vec![prop("olm.package", serde_json::json!({"packageName": pkg, "version": ""}))],
                    phase: None,
                    replaces: None,
                });
            }
        }
        subscriptions.push(Subscription {
            name: format!("sub{s}"),
            package: pkg,
            channel: if rng.chance(20) { String::new() } else { ch },
            catalog: cat,
            catalog_namespace: "ns".into(),
            installed_csv,
            starting_csv: None,
        });
    }
    (installed, subscriptions)
}

fn cluster(problem: &Problem) -> Cluster {
    problem.clone().into_cluster().expect("inline catalogs")
}

#[test]
fn generated_problems_keep_every_constraint() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let (mut ok, mut unsat, mut invalid) = (0, 0, 0);
    for _ in 0..1500 {
        let problem = random_problem(&mut rng);
        let cluster = cluster(&problem);
        let outcome = resolve(&cluster);
        let snap = Snapshot::build(&cluster).expect("snapshot");
        let built = match variables::build(&cluster, &snap) {
            Ok(b) => b,
            Err(_) => {
                invalid += 1;
                assert!(matches!(outcome, Err(ResolveError::Invalid(_))));
                continue;
            }
        };
        match solver::solve(&built.variables, DEFAULT_CONFLICT_BUDGET) {
            Ok(sol) => {
                ok += 1;
                let vars = &built.variables;
                let mut a = vec![false; vars.len()];
                for &i in &sol.installed {
                    a[i] = true;
                }
                assert!(satisfies(vars, &a), "{problem:?}");
                // The reported installs are exactly the selected catalog bundles.
                let mut want: Vec<String> = sol
                    .installed
                    .iter()
                    .filter_map(|&i| match built.subjects[i] {
                        Subject::Bundle(e) if !snap.catalogs[snap.entry(e).catalog].is_virtual => {
                            Some(snap.entry(e).name.to_string())
                        }
                        _ => None,
                    })
                    .collect();
                crate::sort::sort(&mut want);
                let got: Vec<String> = outcome.expect("resolves").install.into_iter().map(|i| i.name).collect();
                assert_eq!(got, want);
                // Nothing is installed without a reason.
                for &i in &sol.installed {
                    let anchor = vars[i].constraints.iter().any(|c| c.kind == ConstraintKind::Mandatory);
                    a[i] = false;
                    let needed = !satisfies(vars, &a);
                    a[i] = true;
                    let picked = sol.picks.iter().any(|p| p.variable == i && p.by.is_some());
                    assert!(anchor || needed || picked);
                }
                // One bundle per package among the installed bundles.
                let mut packages: Vec<&str> = sol
                    .installed
                    .iter()
                    .filter_map(|&i| match built.subjects[i] {
                        Subject::Bundle(e) => snap.bundle(e).packages().next().map(|(p, _, _)| p),
                        _ => None,
                    })
                    .collect();
                let n = packages.len();
                crate::sort::sort(&mut packages);
                packages.dedup();
                assert_eq!(n, packages.len(), "two bundles of one package: {problem:?}");
            }
            Err(SolveError::NotSatisfiable(core)) => {
                unsat += 1;
                assert!(!core.is_empty());
                assert!(matches!(outcome, Err(ResolveError::NotSatisfiable { .. })));
            }
            Err(e) => panic!("{e}"),
        }
    }
    assert!(ok > 300 && unsat > 50, "{ok} resolved, {unsat} unsatisfiable, {invalid} invalid");
}

/// Malformed and hostile input gives errors, never panics: cycles, duplicate names, invalid
/// versions and ranges, property values of the wrong JSON type, unknown catalogs and packages.
#[test]
fn hostile_problems_never_panic() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let junk = |rng: &mut Rng| -> serde_json::Value {
        match rng.below(7) {
            0 => serde_json::json!("string"),
            1 => serde_json::json!(42),
            2 => serde_json::json!(null),
            3 => serde_json::json!([1, 2]),
            4 => serde_json::json!({"packageName": 7, "versionRange": ""}),
            5 => serde_json::json!({"all": {"constraints": [{}]}}),
            _ => serde_json::json!({"cel": {"rule": "properties.exists(p, p.type == 'olm.gvk')"}, "gvk": 3}),
        }
    };
    for _ in 0..1500 {
        let mut problem = random_problem(&mut rng);
        for cat in &mut problem.catalogs {
            if rng.chance(20) {
                cat.namespace = String::new();
            }
            for p in &mut cat.packages {
                if rng.chance(15) {
                    p.default_channel = Some("missing".into());
                }
                for ch in &mut p.channels {
                    if rng.chance(20) && !ch.entries.is_empty() {
                        let first = ch.entries[0].name.clone();
                        let last = ch.entries.len() - 1;
                        ch.entries[last].skips.push(first.clone());
                        ch.entries[0].replaces = Some(ch.entries[last].name.clone());
                    }
                    if rng.chance(10) && !ch.entries.is_empty() {
                        let dup = ch.entries[0].clone();
                        ch.entries.push(dup);
                    }
                    for e in &mut ch.entries {
                        if rng.chance(10) {
                            e.skip_range = Some(">=banana".into());
                        }
                    }
                }
                for b in &mut p.bundles {
                    if rng.chance(10) {
                        b.version = "not.a.version".into();
                    }
                    if rng.chance(20) {
                        let t = [
                            "olm.gvk.required",
                            "olm.package.required",
                            "olm.constraint",
                            "olm.label.required",
                            "olm.gvk",
                            "olm.package",
                        ][rng.below(6)];
                        b.properties.push(prop(t, junk(&mut rng)));
                    }
                }
            }
        }
        if rng.chance(20) {
            problem.namespace = String::new();
        }
        if rng.chance(20) {
            problem.fail_forward = true;
            for i in &mut problem.installed {
                i.phase = Some(["Replacing", "Failed", "Succeeded"][rng.below(3)].into());
                i.replaces = Some(i.name.clone());
            }
        }
        for s in &mut problem.subscriptions {
            if rng.chance(10) {
                s.catalog = "unknown".into();
            }
            if rng.chance(10) {
                s.starting_csv = Some("nothing".into());
            }
        }
        let outcome = super::Outcome::from(resolve(&cluster(&problem)));
        let _ = outcome.to_text();
    }
}
