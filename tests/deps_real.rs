//! The cross-package view on every real catalog in `../shared/catalogs/fbc`, checked against an
//! independent scan of the raw blobs: properties read as plain JSON (not through the model),
//! versions and the ranges the catalogs use compared with the `semver` crate. For every package,
//! the requirements, their providers, what is unsatisfied and who requires the package must agree.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use olm_catalog::declcfg::DeclarativeConfig;
use olm_catalog::deps::{DepsIndex, DepsOptions, PackageDeps, Status, MAX_PROVIDERS};
use olm_catalog::{build_model, load_dir};
use serde_json::Value;

fn fbc() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc")
}

/// The scan's view of one bundle.
struct Raw {
    package: String,
    name: String,
    version: Option<semver::Version>,
    gvks: BTreeSet<(String, String, String)>,
    needs_gvk: BTreeSet<(String, String, String)>,
    needs_package: BTreeSet<(String, String)>,
}

fn gvk_of(v: &Value) -> (String, String, String) {
    let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
    (s("group"), s("version"), s("kind"))
}

fn scan(config: &DeclarativeConfig) -> Vec<Raw> {
    config
        .bundles
        .iter()
        .map(|b| {
            let mut raw = Raw {
                package: b.package.value.clone(),
                name: b.name.value.clone(),
                version: None,
                gvks: BTreeSet::new(),
                needs_gvk: BTreeSet::new(),
                needs_package: BTreeSet::new(),
            };
            for p in b.properties.iter() {
                let v = p.value.as_ref().map(|n| n.to_json()).unwrap_or(Value::Null);
                match p.type_.value.as_str() {
                    "olm.package" => raw.version = v["version"].as_str().and_then(|s| semver::Version::parse(s).ok()),
                    "olm.gvk" => {
                        raw.gvks.insert(gvk_of(&v));
                    }
                    "olm.gvk.required" => {
                        raw.needs_gvk.insert(gvk_of(&v));
                    }
                    "olm.package.required" => {
                        let s = |k: &str| v[k].as_str().unwrap_or("").to_string();
                        raw.needs_package.insert((s("packageName"), s("versionRange")));
                    }
                    "olm.constraint" | "olm.label.required" => panic!("the scan does not model {}", p.type_.value),
                    _ => {}
                }
            }
            raw
        })
        .collect()
}

/// A blang range of the shapes the real catalogs use (`||` of space-separated comparators) as
/// `semver` requirements, one per alternative.
fn range(text: &str) -> Vec<semver::VersionReq> {
    text.split("||")
        .map(|alt| {
            let parts: Vec<&str> = alt.split_whitespace().collect();
            semver::VersionReq::parse(&parts.join(", ")).unwrap_or_else(|e| panic!("range {text:?}: {e}"))
        })
        .collect()
}

fn in_range(v: &semver::Version, alts: &[semver::VersionReq]) -> bool {
    // `semver` keeps pre-releases out unless asked; the real catalogs' versions have none.
    assert!(v.pre.is_empty(), "the scan does not model pre-releases: {v}");
    alts.iter().any(|r| r.matches(v))
}

fn gvk_text(g: &(String, String, String)) -> String {
    format!("GVK {}/{} {}", g.0, g.1, g.2)
}

/// What the scan expects for `package`: requirement text → provider bundles; and the requirers.
fn expected(all: &[Raw], package: &str) -> (BTreeMap<String, BTreeSet<String>>, BTreeSet<String>) {
    let own: Vec<&Raw> = all.iter().filter(|b| b.package == package).collect();
    let mut reqs = BTreeMap::new();
    for b in &own {
        for g in &b.needs_gvk {
            let providers = all.iter().filter(|p| p.gvks.contains(g)).map(|p| p.name.clone()).collect();
            reqs.insert(gvk_text(g), providers);
        }
        for (name, text) in &b.needs_package {
            let alts = range(text);
            let providers = all
                .iter()
                .filter(|p| &p.package == name && p.version.as_ref().is_some_and(|v| in_range(v, &alts)))
                .map(|p| p.name.clone())
                .collect();
            reqs.insert(format!("package {name} {text}"), providers);
        }
    }
    let provided: BTreeSet<&(String, String, String)> = own.iter().flat_map(|b| &b.gvks).collect();
    let requirers = all
        .iter()
        .filter(|b| b.package != package)
        .filter(|b| {
            b.needs_package.iter().any(|(n, _)| n == package) || b.needs_gvk.iter().any(|g| provided.contains(g))
        })
        .map(|b| b.package.clone())
        .collect();
    (reqs, requirers)
}

fn check(d: &PackageDeps, all: &[Raw]) {
    let (reqs, requirers) = expected(all, &d.package);
    let got: BTreeSet<&str> = d.requirements.iter().map(|r| r.text.as_str()).collect();
    assert_eq!(got, reqs.keys().map(String::as_str).collect(), "{}: requirements", d.package);
    for r in &d.requirements {
        let want = &reqs[&r.text];
        assert_eq!(r.provider_count, want.len(), "{} {}: provider count", d.package, r.text);
        assert_eq!(r.status == Status::Satisfied, !want.is_empty(), "{} {}: status", d.package, r.text);
        let listed: BTreeSet<String> = r.providers.iter().map(|p| p.bundle.clone()).collect();
        if want.len() <= MAX_PROVIDERS {
            assert_eq!(&listed, want, "{} {}: providers", d.package, r.text);
        }
        assert!(!r.declared_by.is_empty());
    }
    let got: BTreeSet<String> = d.required_by.iter().map(|r| r.package.clone()).collect();
    assert_eq!(got, requirers, "{}: required by", d.package);
}

/// Catalog roots: each directory of `fbc/`, and each `vX.Y/catalog` of the nested ones.
fn roots() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fbc()).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    for d in dirs {
        let mut nested: Vec<PathBuf> =
            std::fs::read_dir(&d).unwrap().map(|e| e.unwrap().path().join("catalog")).filter(|p| p.is_dir()).collect();
        nested.sort();
        if nested.is_empty() {
            out.push(d);
        } else {
            out.extend(nested);
        }
    }
    out
}

#[test]
fn every_package_of_every_real_catalog_agrees_with_a_scan_of_the_blobs() {
    let mut checked = 0;
    for root in roots() {
        let loaded = load_dir(&root).unwrap();
        let all = scan(&loaded.config);
        let (model, _) = build_model(&loaded.config);
        let t = Instant::now();
        let index = DepsIndex::new(&model);
        let built = t.elapsed();
        let t = Instant::now();
        for p in &model.packages {
            let d = index.package_deps(&p.name, &DepsOptions::default()).unwrap();
            check(&d, &all);
            checked += 1;
        }
        println!(
            "{}: {} packages, {} bundles: index {:?}, every package's view {:?}",
            root.display(),
            model.packages.len(),
            all.len(),
            built,
            t.elapsed()
        );
    }
    assert!(checked > 40, "{checked}");
}

fn community() -> olm_catalog::Model {
    build_model(&load_dir(&fbc().join("community-v4.20")).unwrap().config).0
}

#[test]
fn community_rabbitmq_topology_needs_the_cluster_operator_and_alloydb_needs_cert_manager() {
    let m = community();
    let index = DepsIndex::new(&m);
    let topo = index.package_deps("rabbitmq-messaging-topology-operator", &DepsOptions::default()).unwrap();
    assert!(!topo.has_unmet());
    assert!(topo.requirements.iter().all(|r| r.providers.iter().all(|p| p.package == "rabbitmq-cluster-operator")));
    let cluster = index.package_deps("rabbitmq-cluster-operator", &DepsOptions::default()).unwrap();
    let by: BTreeSet<(&str, &str)> =
        cluster.required_by.iter().map(|r| (r.package.as_str(), r.property.as_str())).collect();
    assert_eq!(
        by,
        BTreeSet::from([
            ("rabbitmq-messaging-topology-operator", "olm.gvk.required"),
            ("rabbitmq-messaging-topology-operator", "olm.package.required")
        ])
    );
    let alloy = index.package_deps("alloydb-omni-operator", &DepsOptions::default()).unwrap();
    assert_eq!((alloy.summary.unsatisfied, alloy.summary.satisfied), (4, 0));
    let cert = alloy.requirements.iter().find(|r| r.kind == olm_catalog::deps::RequirementKind::Package).unwrap();
    assert_eq!(cert.declared_by, vec!["alloydb-omni-operator.v1.3.0"], "only one old bundle asks for the package");
    assert!(cert.declared_by_heads.is_empty());
}

#[test]
fn heads_only_looks_at_the_channel_heads_alone() {
    let m = community();
    let index = DepsIndex::new(&m);
    for p in &m.packages {
        let all = index.package_deps(&p.name, &DepsOptions::default()).unwrap();
        let heads = index.package_deps(&p.name, &DepsOptions { heads_only: true }).unwrap();
        assert!(heads.bundles.iter().all(|b| !b.head_of.is_empty()), "{}", p.name);
        assert_eq!(heads.summary.bundles, all.bundles.iter().filter(|b| !b.head_of.is_empty()).count());
        for r in &heads.requirements {
            let full = all.requirements.iter().find(|x| x.text == r.text).expect("a head's requirement is a bundle's");
            assert_eq!(r.declared_by, full.declared_by_heads, "{} {}", p.name, r.text);
        }
    }
    let alloy = index.package_deps("alloydb-omni-operator", &DepsOptions { heads_only: true }).unwrap();
    assert_eq!(alloy.summary.unsatisfied, 3, "the head asks for the GVKs, not for the package");
}
