//! `olm-catalog crd-safety`: exit codes, the JSON shape, CRD pairs from files and bundle
//! directories, and every edge of real catalogs.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("olm-catalog-crd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs")
}

/// A CRD `widgets.example.com` whose `spec.size` has this schema.
fn crd(size: &str) -> String {
    format!(
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {{name: widgets.example.com}}\n\
         spec:\n  group: example.com\n  scope: Namespaced\n  names: {{kind: Widget, plural: widgets}}\n  versions:\n  \
         - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        \
         properties:\n          spec:\n            type: object\n            properties:\n              size: {size}\n"
    )
}

fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = bin().args(args).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn a_narrowed_crd_exits_1_with_the_preflights_findings() {
    let d = temp_dir("pair");
    std::fs::write(d.join("old.yaml"), crd("{type: integer}")).unwrap();
    std::fs::write(d.join("new.yaml"), crd("{type: integer, maximum: 10}")).unwrap();
    let (old, new) = (d.join("old.yaml"), d.join("new.yaml"));
    let args = ["crd-safety", "--old", old.to_str().unwrap(), "--new", new.to_str().unwrap(), "--format", "json"];
    let (code, out) = run(&args);
    assert_eq!(code, Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["safe"], false);
    let f = &v["findings"][0];
    assert_eq!(f["code"], "crd-maximum");
    assert_eq!(f["rule"], "maximum");
    assert_eq!(f["crd"], "widgets.example.com");
    assert_eq!(f["version"], "v1");
    assert_eq!(f["path"], "^.spec.size");
    assert_eq!(
        f["message"],
        "validating upgrade for CRD \"widgets.example.com\": v1: ^.spec.size: maximum: maximum constraint added when there was none previously : 10"
    );
    let (code, text) = run(&args[..5]);
    assert_eq!(code, Some(1));
    assert!(text.contains("widgets.example.com: unsafe\n") && text.contains("error[crd-maximum]"), "{text}");
}

#[test]
fn a_relaxed_crd_exits_0() {
    let d = temp_dir("relaxed");
    std::fs::write(d.join("old.yaml"), crd("{type: integer, maximum: 10, enum: [1, 2]}")).unwrap();
    std::fs::write(d.join("new.yaml"), crd("{type: integer, maximum: 20, enum: [1, 2, 3], description: more}"))
        .unwrap();
    let (old, new) = (d.join("old.yaml"), d.join("new.yaml"));
    let (code, out) =
        run(&["crd-safety", "--old", old.to_str().unwrap(), "--new", new.to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, Some(0), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!((&v["safe"], v["findings"].as_array().map(Vec::len)), (&Value::Bool(true), Some(0)));
}

#[test]
fn bundle_directories_pair_their_crds_by_name() {
    let root = shared().join("bundles/kube-green");
    let mut versions: Vec<PathBuf> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    versions.sort();
    let (old, new) = (&versions[0], &versions[1]);
    let (code, out) =
        run(&["crd-safety", "--old", old.to_str().unwrap(), "--new", new.to_str().unwrap(), "--format", "json"]);
    assert!(code == Some(0) || code == Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(!v["crds"].as_array().unwrap().is_empty(), "kube-green ships CRDs: {out}");
    assert_eq!(v["safe"], Value::Bool(code == Some(0)));
}

#[test]
fn a_catalog_edge_that_drops_a_stored_version_is_refused_by_both_olms() {
    let catalog = shared().join("fbc/community-v4.16");
    let args = ["crd-safety", catalog.to_str().unwrap(), "--package", "koku-metrics-operator", "--format", "json"];
    let (code, out) = run(&args);
    assert_eq!(code, Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let edge = v["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["from"] == "koku-metrics-operator.v0.9.4" && e["to"] == "koku-metrics-operator.v0.9.5")
        .expect("the 0.9.4 -> 0.9.5 edge");
    assert_eq!(edge["safe"], false);
    let rules: Vec<&str> = edge["findings"].as_array().unwrap().iter().filter_map(|f| f["rule"].as_str()).collect();
    assert!(rules.contains(&"storedVersionRemoval") && rules.contains(&"olmV0StoredVersion"), "{rules:?}");
    assert_eq!(v["unsafeEdgesByRule"]["storedVersionRemoval"], 2, "once per channel, where the version is dropped");

    // From 0.9.5 on, the edges that dropped the version are behind.
    let (_, out) = run(&[&args[..4], &["--from", "koku-metrics-operator.v0.9.5", "--format", "json"]].concat());
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["edges"].as_array().unwrap().iter().all(|e| e["from"] != "koku-metrics-operator.v0.9.4"));
}

#[test]
fn a_csv_metadata_catalog_says_once_it_carries_no_crds() {
    let catalog = shared().join("fbc/community-v4.20");
    let (code, out) = run(&["crd-safety", catalog.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("carries CRDs") && out.contains("--old and --new"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(run(&["crd-safety"]).0, Some(2));
    assert_eq!(run(&["crd-safety", "--old", "x.yaml"]).0, Some(2));
    let catalog = shared().join("fbc/community-v4.16");
    assert_eq!(run(&["crd-safety", catalog.to_str().unwrap(), "--package", "no-such-package"]).0, Some(2));
}
