//! The install analyses on real bundles: `CsvView::from_bundle` reads every bundle of
//! community-v4.16 (`olm.bundle.object` CSVs) and community-v4.20 (`olm.csv.metadata`), and the RBAC
//! preview runs for every bundle of community-v4.16 under each install mode its CSV supports,
//! with a few bundles checked by hand against their CSV's `permissions` and `clusterPermissions`.

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::load_files;
use olm_catalog::model::csv::{CsvFlavour, CsvView};
use olm_catalog::model::{self, Model};
use olm_catalog::operatorgroup::rbac::{preview_rbac, Access, RbacPreview, RbacTarget};
use olm_catalog::operatorgroup::{InstallModeSet, InstallModeType};
use olm_catalog::read_catalog;

fn catalog(name: &str) -> Model {
    let dir: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc").join(name);
    let files = read_catalog(&dir).expect("the shared catalog is readable");
    model::build(&load_files(&files).config).0
}

fn preview(m: &Model, package: &str, bundle: &str, mode: InstallModeType) -> RbacPreview {
    let b = m.package(package).and_then(|p| p.bundle(bundle)).expect("the bundle");
    let csv = CsvView::from_bundle(b).expect("a CSV");
    preview_rbac(&csv, bundle, &RbacTarget::for_mode(mode, "operators", "og", None).unwrap())
}

fn row<'a>(p: &'a RbacPreview, ns: Option<&str>, group: &str, resource: &str) -> &'a Access {
    p.access
        .iter()
        .find(|a| a.namespace.as_deref() == ns && a.api_group == group && a.resource == resource)
        .unwrap_or_else(|| panic!("no row {ns:?} {group}/{resource} in {:#?}", p.access))
}

#[test]
fn every_bundle_of_both_community_catalogs_has_a_csv_view() {
    for (name, flavour) in [("community-v4.16", CsvFlavour::BundleObject), ("community-v4.20", CsvFlavour::CsvMetadata)]
    {
        let m = catalog(name);
        let bundles = m.bundles_in_read_order();
        assert!(bundles.len() > 100, "{name}: {} bundles", bundles.len());
        for b in bundles {
            let csv = CsvView::from_bundle(b).unwrap_or_else(|| panic!("{name}: {} has no CSV view", b.name.value));
            assert_eq!(csv.origin.flavour, flavour, "{name}: {}", b.name.value);
            assert_eq!(csv.permissions.is_some(), flavour == CsvFlavour::BundleObject);
        }
    }
}

#[test]
fn every_community_v4_16_bundle_previews_under_each_supported_mode() {
    let m = catalog("community-v4.16");
    let (mut previews, mut with_rules) = (0, 0);
    for b in m.bundles_in_read_order() {
        let csv = CsvView::from_bundle(b).expect("a CSV");
        let set = InstallModeSet::new(&csv.install_modes).unwrap_or_default();
        for mode in InstallModeType::ALL.into_iter().filter(|m| set.supported(*m)) {
            let target = RbacTarget::for_mode(mode, "operators", "og", None).unwrap();
            let p = preview_rbac(&csv, &b.name.value, &target);
            assert_eq!(p.unsupported, None, "{} {mode}", b.name.value);
            assert_eq!(p.group_cluster_roles.len(), 3);
            assert!(p.role_bindings.iter().all(|rb| p.roles.iter().any(|r| r.name == rb.role_name)));
            assert!(!p.to_text().is_empty());
            previews += 1;
            with_rules += usize::from(!p.access.is_empty());
        }
    }
    assert!(previews > 300 && with_rules > 300, "{previews} previews, {with_rules} with rules");
}

#[test]
fn kube_green_all_namespaces_by_hand() {
    // kube-green.v0.7.1 supports only AllNamespaces. Its CSV's permissions give
    // kube-green-controller-manager configmaps and leases (all verbs) and events (create, patch);
    // its clusterPermissions give secrets (create..watch), apps deployments/statefulsets and batch
    // cronjobs (get, list, patch, update, watch), and its own sleepinfos.
    let m = catalog("community-v4.16");
    let p = preview(&m, "kube-green", "kube-green.v0.7.1", InstallModeType::AllNamespaces);
    assert_eq!(p.roles.len(), 1);
    // The name OLM's code gives it (run offline on this CSV): the base cut so the name fits 63.
    assert_eq!(p.roles[0].name, "kube-green.v0.7.1-kube-gr-ZleTLia9qHxVbQPVF5GUmIYBhhlOaPepKSeAR");
    assert!(p.cluster_roles.iter().any(|r| r.lifted && r.name == p.roles[0].name));
    // Lifted: the Role's rules become cluster-wide, plus get/list/watch on namespaces.
    assert_eq!(row(&p, None, "", "configmaps").verbs, ["get", "list", "watch", "create", "update", "patch", "delete"]);
    assert_eq!(row(&p, None, "", "events").verbs, ["create", "patch"]);
    assert_eq!(row(&p, None, "", "namespaces").verbs, ["get", "list", "watch"]);
    assert_eq!(row(&p, None, "", "secrets").verbs, ["create", "delete", "get", "list", "patch", "update", "watch"]);
    assert_eq!(row(&p, None, "apps", "statefulsets").verbs, ["get", "list", "patch", "update", "watch"]);
    assert_eq!(row(&p, None, "batch", "cronjobs").verbs, ["get", "list", "patch", "update", "watch"]);
    assert_eq!(row(&p, None, "kube-green.com", "sleepinfos/status").verbs, ["get", "patch", "update"]);
    // One owned CRD: admin, edit, view and crdview roles, aggregated by the group's roles.
    let names: Vec<&str> = p.api_cluster_roles.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names[0], "sleepinfos.kube-green.com-v1alpha1-admin");
    assert_eq!(names[3], "sleepinfos.kube-green.com-v1alpha1-crdview");
    let label = "olm.opgroup.permissions/aggregate-to-b811a0371c0d261a-admin";
    assert!(p.api_cluster_roles[0].labels.contains_key(label));
    assert!(p.group_cluster_roles[0].aggregation_selectors[0].contains_key(label));
}

#[test]
fn ecr_secret_operator_multi_namespace_by_hand() {
    // ecr-secret-operator.v0.5.0 supports every mode; its permissions give its controller manager
    // configmaps and leases in its namespace. Under MultiNamespace the Role is copied into each
    // target namespace; its clusterPermissions stay cluster-wide.
    let m = catalog("community-v4.16");
    let p = preview(&m, "ecr-secret-operator", "ecr-secret-operator.v0.5.0", InstallModeType::MultiNamespace);
    let at: Vec<Option<&str>> = p.roles.iter().map(|r| r.namespace.as_deref()).collect();
    assert_eq!(at, [Some("operators"), Some("tenant-a"), Some("tenant-b")]);
    for ns in ["operators", "tenant-a", "tenant-b"] {
        let configmaps = row(&p, Some(ns), "", "configmaps");
        assert_eq!(configmaps.service_account, "ecr-secret-operator-controller-manager");
        assert_eq!(row(&p, Some(ns), "coordination.k8s.io", "leases").verbs.len(), 7);
    }
    assert_eq!(p.cluster_roles.len(), 1);
    assert!(p.access.iter().any(|a| a.namespace.is_none()), "clusterPermissions are cluster-wide");
}
