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

/// Standard base64 (the embedding of `olm.bundle.object` data).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            out.push(if i <= c.len() { A[(n >> (18 - 6 * i)) as usize & 63] as char } else { '=' });
        }
    }
    out
}

/// A catalog `p` whose 1.1.0 replaces 1.0.0, each bundle embedding `widgets.example.com` with
/// this schema of `spec.size` (JSON).
fn crd_catalog(dir: &Path, old_size: &str, new_size: &str) -> PathBuf {
    let crd_json = |size: &str| {
        format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"widgets.example.com"}},"spec":{{"group":"example.com","scope":"Namespaced","names":{{"kind":"Widget","plural":"widgets"}},"versions":[{{"name":"v1","served":true,"storage":true,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"spec":{{"type":"object","properties":{{"size":{size}}}}}}}}}}}}}]}}}}"#
        )
    };
    let bundle = |v: &str, size: &str| {
        format!(
            "---\nschema: olm.bundle\npackage: p\nname: p.v{v}\nimage: example.com/p:{v}\nproperties:\n- type: olm.package\n  value: {{packageName: p, version: {v}}}\n- type: olm.bundle.object\n  value: {{data: {}}}\n",
            base64(crd_json(size).as_bytes())
        )
    };
    let catalog = dir.join("catalog");
    std::fs::create_dir_all(&catalog).unwrap();
    let text = format!(
        "schema: olm.package\nname: p\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: p\nname: stable\nentries:\n- name: p.v1.0.0\n- name: p.v1.1.0\n  replaces: p.v1.0.0\n{}{}",
        bundle("1.0.0", old_size),
        bundle("1.1.0", new_size)
    );
    std::fs::write(catalog.join("catalog.yaml"), text).unwrap();
    catalog
}

#[test]
fn validate_reports_unsafe_crd_upgrades_as_configurable_lints() {
    let d = temp_dir("validate");
    let catalog = crd_catalog(&d, r#"{"type":"integer"}"#, r#"{"type":"string"}"#);
    let c = catalog.to_str().unwrap();
    // The edge is refused by the crd-safety command...
    assert_eq!(run(&["crd-safety", c]).0, Some(1));
    // ... and is a warning of validate, at the new bundle's channel entry, the CRD related.
    let (code, out) = run(&["validate", c, "--format", "json"]);
    assert_eq!(code, Some(0), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let found: Vec<&Value> = v["diagnostics"].as_array().unwrap().iter().filter(|d| d["code"] == "crd-type").collect();
    assert_eq!(found.len(), 1, "{out}");
    let f = found[0];
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["pointer"], "/entries/1/name", "{f}");
    assert!(f["message"].as_str().unwrap().contains("p/stable: p.v1.0.0 -> p.v1.1.0 (replaces)"), "{f}");
    assert!(
        f["message"].as_str().unwrap().contains("^.spec.size: type: type changed : \"integer\" -> \"string\""),
        "{f}"
    );
    assert_eq!(f["related"][0]["pointer"], "/properties/1", "{f}");
    // Levels are configurable like the other lints'.
    let (code, out) = run(&["validate", c, "--lint", "crd-type=error"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("error[crd-type]"), "{out}");
    let (code, out) = run(&["validate", c, "--lint", "crd-type=off"]);
    assert_eq!(code, Some(0));
    assert!(!out.contains("crd-type"), "{out}");
    assert!(!run(&["validate", c, "--no-lints"]).1.contains("crd-"));
    // A safe upgrade adds nothing.
    let d = temp_dir("validate-safe");
    let catalog = crd_catalog(&d, r#"{"type":"integer","maximum":10}"#, r#"{"type":"integer","maximum":20}"#);
    assert!(!run(&["validate", catalog.to_str().unwrap()]).1.contains("crd-"));
}

#[test]
fn diff_shows_an_installed_version_whose_next_olm_v1_step_fails_the_preflight_as_blocked() {
    let (a, b) = (temp_dir("diff-old"), temp_dir("diff-new"));
    let old = crd_catalog(&a, r#"{"type":"integer"}"#, r#"{"type":"integer"}"#);
    let new = crd_catalog(&b, r#"{"type":"integer"}"#, r#"{"type":"string"}"#);
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (_, out) = run(&["diff", old, new, "--format", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let rows = v["safety"][0]["rows"].as_array().unwrap();
    let row = rows.iter().find(|r| r["installed"] == "p.v1.0.0").expect("the 1.0.0 row");
    let blocked = &row["blocked"];
    assert_eq!(blocked["next"], "p.v1.1.0", "{row}");
    assert_eq!(blocked["crd"], "widgets.example.com");
    assert_eq!(blocked["codes"], serde_json::json!(["crd-type"]));
    assert!(
        blocked["reason"]
            .as_str()
            .unwrap()
            .starts_with("validating upgrade for CRD \"widgets.example.com\": v1: ^.spec.size: type:"),
        "{blocked}"
    );
    assert!(rows.iter().find(|r| r["installed"] == "p.v1.1.0").unwrap().get("blocked").is_none());
    let (_, text) = run(&["diff", old, new]);
    assert!(
        text.contains("blocked (CRD)") && text.contains("blocked: p.v1.0.0 -> p.v1.1.0 (OLM v1): validating upgrade"),
        "{text}"
    );
    // The same catalogs without the narrowing block nothing.
    let (_, out) = run(&["diff", old, old, "--format", "json"]);
    assert!(!out.contains("\"blocked\""), "{out}");
}

#[test]
fn path_says_which_steps_fail_the_crd_checks() {
    let d = temp_dir("path");
    let catalog = crd_catalog(&d, r#"{"type":"integer"}"#, r#"{"type":"string"}"#);
    let c = catalog.to_str().unwrap();
    let args = ["path", c, "--package", "p", "--channel", "stable", "--from", "p.v1.0.0"];
    let (code, text) = run(&args);
    assert_eq!(code, Some(0), "the path reaches the head: {text}");
    assert!(text.contains("p.v1.0.0 -> p.v1.1.0 (replaces): unsafe (CRD)\n"), "{text}");
    assert!(text.contains("error[crd-type]: validating upgrade for CRD \"widgets.example.com\""), "{text}");
    assert!(text.ends_with("1 step fails the CRD checks (OLM v1's preflight or OLM v0)\n"), "{text}");
    let (_, out) = run(&[&args[..], &["--semantics", "v1", "--format", "json"]].concat());
    let v: Value = serde_json::from_str(&out).unwrap();
    let step = &v["crdSafety"][0];
    assert_eq!((&step["from"], &step["to"], &step["safe"]), (&"p.v1.0.0".into(), &"p.v1.1.0".into(), &false.into()));
    assert_eq!((&step["findings"][0]["rule"], &step["crds"]), (&"type".into(), &1.into()));
    assert_eq!(v["steps"].as_array().map(Vec::len), Some(1));
    // A safe path says nothing more.
    let d = temp_dir("path-safe");
    let catalog = crd_catalog(&d, r#"{"type":"integer"}"#, r#"{"type":"integer"}"#);
    let (_, text) =
        run(&["path", catalog.to_str().unwrap(), "--package", "p", "--channel", "stable", "--from", "p.v1.0.0"]);
    assert_eq!(text, "p.v1.0.0 -> p.v1.1.0 (replaces)\n1 upgrade to reach p.v1.1.0\n");
}

#[test]
fn a_csv_metadata_catalog_takes_its_crds_from_bundle_directories() {
    let catalog = shared().join("fbc/community-v4.20");
    let bundles = shared().join("bundles/kube-green");
    let args = ["crd-safety", catalog.to_str().unwrap(), "--package", "kube-green", "--format", "json"];
    let (code, out) = run(&args);
    assert_eq!(code, Some(0), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["bundlesWithCrds"].as_u64(), v["findings"][0]["code"].as_str()),
        (Some(0), Some("crd-none-in-catalog"))
    );
    let (code, out) = run(&[&args[..], &["--bundles", bundles.to_str().unwrap()]].concat());
    assert!(code == Some(0) || code == Some(1), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let with_dirs = std::fs::read_dir(&bundles).unwrap().count() as u64;
    assert!(v["bundlesWithCrds"].as_u64().unwrap() >= with_dirs.min(2), "{out}");
    let edges = v["edges"].as_array().unwrap();
    assert!(!edges.is_empty(), "{out}");
    // Findings point into the bundle directories' files.
    let files: Vec<&str> =
        edges.iter().flat_map(|e| e["findings"].as_array().unwrap()).filter_map(|f| f["file"].as_str()).collect();
    assert!(files.iter().all(|f| f.contains("bundles/kube-green/")), "{files:?}");
    assert!(v["findings"].as_array().unwrap().iter().all(|f| f["code"] != "crd-none-in-catalog"));
}
