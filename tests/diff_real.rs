//! `diff` on real catalogs: community-v4.16 → community-v4.20, the kube-descheduler releases,
//! a catalog against itself, and mutations of a real catalog made by editing its loaded blobs,
//! each with exactly the finding it should yield.

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::{load_files, DeclarativeConfig};
use olm_catalog::diff::{diff, diff_with, CatalogDiff, ChangeKind, DiffOptions};
use olm_catalog::{build_model, read_catalog, Code, Model};

fn fbc(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc").join(rel)
}

fn config(rel: &str) -> DeclarativeConfig {
    load_files(&read_catalog(&fbc(rel)).expect("catalog")).config
}

fn model(cfg: &DeclarativeConfig) -> Model {
    build_model(cfg).0
}

/// (code, package named in the message) of every finding.
fn codes(d: &CatalogDiff) -> Vec<(Code, String)> {
    d.findings
        .iter()
        .map(|f| {
            let pkg = f.message.split("package \"").nth(1).and_then(|s| s.split('"').next()).unwrap_or_default();
            (f.code, pkg.to_string())
        })
        .collect()
}

/// The diff of one package of `cfg` against the same catalog after `edit`.
fn mutated(cfg: &DeclarativeConfig, package: &str, edit: impl FnOnce(&mut DeclarativeConfig)) -> CatalogDiff {
    let mut new = cfg.clone();
    edit(&mut new);
    diff_with(&model(cfg), &model(&new), &DiffOptions { package: Some(package.into()) })
}

fn names(d: &CatalogDiff, code: Code) -> Vec<String> {
    codes(d).into_iter().filter(|(c, _)| *c == code).map(|(_, p)| p).collect()
}

#[test]
fn a_catalog_against_itself_is_empty() {
    for rel in ["community-v4.20", "kube-descheduler/v4.22/catalog"] {
        let m = model(&config(rel));
        let d = diff(&m, &m);
        assert!(d.is_empty(), "{rel}: {:#?}", d.packages.first());
        assert!(d.safety.iter().flat_map(|s| &s.rows).all(|r| !r.changed && r.findings.is_empty()));
    }
}

#[test]
fn community_v4_16_to_v4_20() {
    let d = diff(&model(&config("community-v4.16")), &model(&config("community-v4.20")));
    assert_eq!(
        names(&d, Code::UpdatePackageRemoved),
        ["odf-node-recovery-operator", "openstack-lightspeed-operator", "shipwright-operator"]
    );
    assert_eq!(names(&d, Code::UpdateChannelRemoved), ["multicluster-global-hub-operator"; 2]);
    assert_eq!(d.counts(), (5, 0));
    assert!(d.has_errors());
    let kind = |n: &str| d.packages.iter().find(|p| p.name == n).map(|p| p.kind);
    assert_eq!(kind("alloydb-omni-operator"), Some(ChangeKind::Added));
    assert_eq!(kind("shipwright-operator"), Some(ChangeKind::Removed));
    // apicurio-registry-3 moved its manifests from olm.bundle.object to olm.csv.metadata.
    let apicurio = d.packages.iter().find(|p| p.name == "apicurio-registry-3").expect("changed");
    let types: Vec<&str> = apicurio.bundles[0].properties.iter().map(|p| p.type_.as_str()).collect();
    assert_eq!(types, ["olm.bundle.object", "olm.csv.metadata"]);
    // Every (package, channel, entry) of the old catalog has a row.
    let old = model(&config("community-v4.16"));
    let entries: usize = old.packages.iter().flat_map(|p| &p.channels).map(|c| c.entries.len()).sum();
    assert_eq!(d.safety.iter().map(|s| s.rows.len()).sum::<usize>(), entries);
}

#[test]
fn kube_descheduler_releases() {
    let step = |a: &str, b: &str| {
        let cat = |v: &str| model(&config(&format!("kube-descheduler/{v}/catalog")));
        diff(&cat(a), &cat(b))
    };
    let count = |d: &CatalogDiff, code: Code| d.findings.iter().filter(|f| f.code == code).count();
    // v4.16 drops the 4.12 channel, and the stable channel's new head covers ">=4.12.0 <5.0.4",
    // which leaves out the 4.12.0-<build> pre-releases it no longer lists.
    let d = step("v4.12", "v4.16");
    assert_eq!(names(&d, Code::UpdateChannelRemoved), ["cluster-kube-descheduler-operator"]);
    assert_eq!(count(&d, Code::UpdateReleaseRemoved), 43);
    let f = d.findings.iter().find(|f| f.code == Code::UpdateChannelRemoved).expect("found");
    assert!(f.location.file.ends_with("catalog.json") && f.related[0].message.contains("old catalog"));
    let d = step("v4.16", "v4.20");
    assert_eq!((count(&d, Code::UpdateReleaseRemoved), count(&d, Code::UpdatePathThroughDeprecated)), (26, 1));
    assert_eq!(
        d.packages[0].channels[0].head.as_ref().and_then(|h| h.new.as_deref()),
        Some("clusterkubedescheduleroperator.v5.3.2")
    );
    // v4.22: 5.1.x are stranded for OLM v0 (only the skipped 5.2.x cover them) and go through the
    // skipped 5.2.1 with OLM v1 (the highest successor).
    let d = step("v4.20", "v4.22");
    let through = d.findings.iter().find(|f| f.code == Code::UpdatePathThroughDeprecated).expect("found");
    assert!(
        through.message.contains("OLM v1 now upgrades \"clusterkubedescheduleroperator.v5.1.0\""),
        "{}",
        through.message
    );
    assert!(through.message.contains("through \"clusterkubedescheduleroperator.v5.2.1\", which is skipped by \"clusterkubedescheduleroperator.v5.4.0\""), "{}", through.message);
    assert_eq!(names(&d, Code::UpdateChannelRemoved), ["cluster-kube-descheduler-operator"]);
    assert_eq!(count(&d, Code::UpdateReleaseRemoved), 8);
}

/// Remove bundle `name` of `package`: its blob and its entries.
fn delete_bundle(n: &mut DeclarativeConfig, package: &str, name: &str) {
    for ch in n.channels.iter_mut().filter(|c| c.package.value == package) {
        ch.entries.retain(|e| e.name.value != name);
    }
    n.bundles.retain(|b| b.name.value != name);
}

#[test]
fn moving_a_head_back_is_exactly_one_error() {
    let cfg = config("community-v4.20");
    let d = mutated(&cfg, "kube-green", |n| delete_bundle(n, "kube-green", "kube-green.v0.7.1"));
    let f: Vec<_> = d.findings.iter().map(|f| (f.code, f.message.as_str())).collect();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0].0, Code::UpdateHeadBackwards);
    assert!(
        f[0].1.contains("from \"kube-green.v0.7.1\" (version 0.7.1) to \"kube-green.v0.7.0\" (version 0.7.0)"),
        "{}",
        f[0].1
    );
    assert!(d.findings[0].location.file.ends_with("kube-green/catalog.yaml"));
}

#[test]
fn deleting_a_bundle_nothing_upgrades_from_is_exactly_one_error() {
    let cfg = config("community-v4.20");
    let d = mutated(&cfg, "kube-green", |n| {
        delete_bundle(n, "kube-green", "kube-green.v0.3.0");
        for e in n.channels.iter_mut().flat_map(|c| &mut c.entries) {
            if e.replaces.value == "kube-green.v0.3.0" {
                e.replaces.value.clear();
            }
        }
    });
    assert_eq!(codes(&d), [(Code::UpdateReleaseRemoved, "kube-green".to_string())]);
    assert!(
        d.findings[0].message.starts_with("\"kube-green.v0.3.0\" (version 0.3.0) was removed from channel \"alpha\""),
        "{}",
        d.findings[0].message
    );
    let bundle = &d.packages[0].bundles;
    assert_eq!((bundle[0].name.as_str(), bundle[0].kind), ("kube-green.v0.3.0", ChangeKind::Removed));
}

#[test]
fn dropping_a_skip_range_is_exactly_one_note() {
    let cfg = config("community-v4.20");
    let d = mutated(&cfg, "jumpstarter-operator", |n| {
        for e in n.channels.iter_mut().flat_map(|c| &mut c.entries) {
            if e.name.value == "jumpstarter-operator.v0.8.1" {
                e.skip_range.value.clear();
            }
        }
    });
    assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
    assert_eq!(d.findings[0].code, Code::UpdateZStreamNotConverging);
    assert_eq!(d.counts(), (0, 0), "a note, as validate's z-stream-gap");
    let c = &d.packages[0].channels[0];
    assert!(!c.edges_removed.is_empty() && c.edges_added.is_empty());
    assert!(c.edges_removed.iter().all(|e| e.to == "jumpstarter-operator.v0.8.1"));
    assert!(!d.has_errors());
}
