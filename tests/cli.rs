//! The CLI contract: exit codes, compiler-style text, and the JSON shape.

use std::path::Path;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_olm-catalog"))
}

fn write(dir: &Path, rel: &str, content: &str) {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("olm-catalog-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const VALID: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1.0.0\nimage: quay.io/foo/bundle:v1.0.0\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 1.0.0\n";

#[test]
fn valid_catalog_exits_0() {
    let d = temp_dir("valid");
    write(&d, "foo/catalog.yaml", VALID);
    let out = bin().args(["validate"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stdout).contains("valid: 0 errors, 0 warnings"));
}

#[test]
fn invalid_catalog_exits_1_with_located_findings() {
    let d = temp_dir("invalid");
    write(&d, "foo/catalog.yaml", &VALID.replace("quay.io/foo/bundle", "quay.io/Foo/bundle"));
    let out = bin().args(["validate"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let file = d.join("foo/catalog.yaml");
    let want = format!(
        "{}:14:8: error[invalid-image]: package \"foo\" bundle \"foo.v1.0.0\" image: invalid image pull spec",
        file.display()
    );
    assert!(text.contains(&want), "{text}");

    let out = bin().args(["validate", "--format", "json"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], false);
    let d0 = &v["diagnostics"][0];
    for key in ["code", "severity", "message", "file", "line", "column", "pointer"] {
        assert!(d0.get(key).is_some(), "missing {key} in {d0}");
    }
    assert_eq!(d0["code"], "invalid-image");
    assert_eq!(d0["severity"], "error");
    assert_eq!(d0["line"], 14);
    assert_eq!(d0["pointer"], "/image");

    let out = bin().args(["validate", "--format", "opm"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("package \"foo\" bundle \"foo.v1.0.0\" image:"));
}

#[test]
fn usage_and_io_errors_exit_2() {
    let out = bin().args(["validate", "/nonexistent/catalog"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["validate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["frobnicate"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["validate", "--format", "xml", "."]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_single_file_can_be_validated() {
    let d = temp_dir("file");
    write(&d, "catalog.yaml", VALID);
    let out = bin().args(["validate"]).arg(d.join("catalog.yaml")).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn no_lints_reports_only_opm_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.20");
    let with = bin().args(["validate", "--format", "json"]).arg(&root).output().unwrap();
    let without = bin().args(["validate", "--format", "json", "--no-lints"]).arg(&root).output().unwrap();
    assert_eq!(with.status.code(), Some(0));
    assert_eq!(without.status.code(), Some(0));
    let count = |o: &std::process::Output| {
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()["diagnostics"].as_array().unwrap().len()
    };
    assert!(count(&with) > 0, "the lints warn on community-v4.20");
    assert_eq!(count(&without), 0);
}

#[test]
fn resolve_reports_installs_and_why_with_exit_0() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resolve/community.json");
    let out = bin().args(["resolve", "--format", "json"]).arg(&fixture).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = v["install"].as_array().unwrap().iter().map(|i| i["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["aws-neuron-operator.v1.2.0", "nfs-provisioner-operator.v0.0.9"]);
    assert_eq!(v["install"][1]["replaces"], "nfs-provisioner-operator.v0.0.8");
    assert!(v["errors"].as_array().unwrap().is_empty());
    assert!(v["errorType"].is_null() && v["explanation"].is_null());
    assert_eq!(v["picks"].as_array().unwrap().len(), 2);
    let text = bin().arg("resolve").arg(&fixture).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("install nfs-provisioner-operator.v0.0.9"), "{text}");
    assert!(text.contains("the head of channel Fast"), "{text}");
}

#[test]
fn unsatisfiable_resolution_exits_1_with_an_explanation() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resolve/unsatisfiable.json");
    let out = bin().args(["resolve", "--format", "json"]).arg(&fixture).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["errorType"], "NotSatisfiable");
    assert!(v["errors"][0].as_str().unwrap().starts_with("constraints not satisfiable: "));
    assert!(v["explanation"]["children"].as_array().unwrap().len() >= 2);
    let text = bin().arg("resolve").arg(&fixture).output().unwrap();
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.starts_with("error: constraints not satisfiable"), "{text}");
    assert!(text.contains("all 12 candidates"), "{text}");
}

#[test]
fn resolve_bad_input_exits_2() {
    let d = temp_dir("resolve-bad");
    write(&d, "p.json", "{\"namespace\": 3}");
    let out = bin().arg("resolve").arg(d.join("p.json")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a resolution problem"));
    let out = bin().arg("resolve").arg(d.join("missing.json")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    write(
        &d,
        "q.json",
        "{\"namespace\": \"ns\", \"catalogs\": [{\"name\": \"c\", \"namespace\": \"ns\", \"path\": \"nope\"}]}",
    );
    let out = bin().arg("resolve").arg(d.join("q.json")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

const CSV: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: foo.v0.2.0\n  annotations:\n    olm.skipRange: <0.2.0\nspec:\n  version: 0.2.0\n  replaces: foo.v0.1.0\n";

fn bundle_dir(dir: &Path, root: &str, name: &str, version: &str, replaces: Option<&str>) {
    let csv = CSV.replace("foo.v0.2.0", name).replace("0.2.0", version);
    let csv = match replaces {
        Some(r) => csv.replace("foo.v0.1.0", r),
        None => csv.replace("  replaces: foo.v0.1.0\n", ""),
    };
    write(dir, &format!("{root}/manifests/csv.yaml"), &csv);
    write(
        dir,
        &format!("{root}/metadata/annotations.yaml"),
        "annotations:\n  operators.operatorframework.io.bundle.package.v1: foo\n  operators.operatorframework.io.bundle.channels.v1: stable\n  operators.operatorframework.io.bundle.channel.default.v1: stable\n",
    );
}

#[test]
fn render_a_bundle_directory_gives_one_bundle_blob() {
    let d = temp_dir("render-bundle");
    bundle_dir(&d, "b", "foo.v0.2.0", "0.2.0", Some("foo.v0.1.0"));
    let out = bin().args(["render"]).arg(d.join("b")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["schema"], "olm.bundle");
    assert_eq!(v["name"], "foo.v0.2.0");
    assert_eq!(v["image"], "");
    // opm render keeps no edges: those are the catalog author's.
    assert!(!String::from_utf8_lossy(&out.stdout).contains("replaces"));

    let out = bin()
        .args(["render", "--format", "yaml", "--image-ref-template", "quay.io/x/{{.Package}}:v{{.Version}}"])
        .arg(d.join("b"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("---\nimage: quay.io/x/foo:v0.2.0\n"), "{text}");
}

#[test]
fn render_a_tree_keeps_edges_and_writes_one_directory_per_package() {
    let d = temp_dir("render-tree");
    bundle_dir(&d, "operators/foo/0.1.0", "foo.v0.1.0", "0.1.0", None);
    bundle_dir(&d, "operators/foo/0.2.0", "foo.v0.2.0", "0.2.0", Some("foo.v0.1.0"));
    let out_dir = d.join("out");
    let out = bin().args(["render", "--validate", "-o"]).arg(&out_dir).arg(d.join("operators")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(out_dir.join("foo/catalog.json")).unwrap();
    assert!(text.contains("\"replaces\": \"foo.v0.1.0\""), "{text}");
    assert!(text.contains("\"skipRange\": \"<0.2.0\""), "{text}");
    let out = bin().args(["validate"]).arg(&out_dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn a_broken_bundle_is_reported_with_its_path_and_exit_1() {
    let d = temp_dir("render-broken");
    bundle_dir(&d, "operators/foo/0.1.0", "foo.v0.1.0", "0.1.0", None);
    write(&d, "operators/foo/0.2.0/manifests/readme.yaml", "kind: ConfigMap\napiVersion: v1\n");
    write(&d, "operators/foo/0.2.0/metadata/annotations.yaml", "annotations: {}\n");
    let out = bin().args(["render"]).arg(d.join("operators")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("operators/foo/0.2.0"), "{err}");
    // The rest still renders.
    assert!(String::from_utf8_lossy(&out.stdout).contains("foo.v0.1.0"));
}

#[test]
fn template_expands_offline_and_locates_a_missing_image_in_the_template() {
    let d = temp_dir("template");
    write(&d, "catalog/foo/catalog.yaml", VALID);
    let template = "schema: olm.semver\nstable:\n  bundles:\n  - image: quay.io/foo/bundle:v1.0.0\n";
    write(&d, "semver.yaml", template);
    let out =
        bin().args(["template"]).arg(d.join("semver.yaml")).arg("--bundles").arg(d.join("catalog")).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("\"defaultChannel\": \"stable-v1.0\""), "{text}");

    write(&d, "semver.yaml", &format!("{template}  - image: quay.io/foo/bundle:v9.9.9\n"));
    let out =
        bin().args(["template"]).arg(d.join("semver.yaml")).arg("--bundles").arg(d.join("catalog")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let want = format!("{}:5:12: error[template-image-not-found]", d.join("semver.yaml").display());
    assert!(err.contains(&want), "{err}");
}

#[test]
fn convert_template_basic_reduces_bundles_to_their_image() {
    let d = temp_dir("convert");
    write(&d, "foo/catalog.yaml", VALID);
    let out = bin().args(["convert-template", "basic", "--format", "yaml"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("schema: olm.template.basic"), "{text}");
    assert!(text.contains("- image: quay.io/foo/bundle:v1.0.0\n  schema: olm.bundle\n"), "{text}");
    assert!(!text.contains("packageName"), "{text}");
}

/// An `operatorgroup` check file in `d`, checking a bundle of the community-v4.16 catalog.
fn og_check(d: &Path, bundle: &str, groups: &str) -> std::path::PathBuf {
    let package = bundle.split(".v").next().unwrap();
    let catalog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.16").join(package);
    assert!(catalog.is_dir(), "shared catalog missing: {}", catalog.display());
    let check = serde_json::json!({
        "path": catalog, "package": package, "bundle": bundle, "operatorNamespace": "operators",
        "namespaces": [{"name": "operators"}, {"name": "team-a", "labels": {"tenant": "a"}}],
        "operatorGroups": serde_json::from_str::<serde_json::Value>(groups).unwrap(),
    });
    let file = d.join(format!("{bundle}.json"));
    std::fs::write(&file, check.to_string()).unwrap();
    file
}

#[test]
fn operatorgroup_checks_a_real_bundle_csv() {
    let d = temp_dir("operatorgroup");
    // kube-green supports only AllNamespaces: a global group accepts it and records its API.
    let file = og_check(&d, "kube-green.v0.7.1", r#"[{"name": "global", "namespace": "operators"}]"#);
    let out = bin().args(["operatorgroup", "--format", "json"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["membership"];
    assert_eq!(m["outcome"]["outcome"], "supported");
    assert_eq!(m["csvAnnotations"]["olm.targetNamespaces"], "");
    assert_eq!(m["csvAnnotations"]["olm.operatorGroup"], "global");
    assert_eq!(m["providedApisAfter"], "SleepInfo.v1alpha1.kube-green.com");
    assert_eq!(v["installPlan"]["source"], "olm.bundle.object");

    // A group selecting one tenant namespace: OLM fails the CSV, with its message.
    let groups = r#"[{"name": "tenant", "namespace": "operators", "selector": {"matchLabels": {"tenant": "a"}}}]"#;
    let file = og_check(&d, "kube-green.v0.7.1", groups);
    let out = bin().args(["operatorgroup"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("kube-green.v0.7.1 in namespace \"operators\" (OperatorGroup tenant/operators): Failed, UnsupportedOperatorGroup: SingleNamespace InstallModeType not supported, cannot configure to watch one namespace\n"), "{text}");
    assert!(text.contains("  olm.targetNamespaces: \"team-a\"\n"), "{text}");

    // An intersecting global group already providing the operator's API: OLM fails the CSV.
    let api = "VisionOneContainerSecurity.v1alpha1.container-security.trendmicro.com";
    let groups = format!(
        r#"[{{"name": "own", "namespace": "operators", "targetNamespaces": ["operators"]}},
            {{"name": "other", "namespace": "team-a", "providedAPIsAnnotation": "{api}"}}]"#
    );
    let file = og_check(&d, "visionone-containersecurity.v0.0.5", &groups);
    let out = bin().args(["operatorgroup", "--format", "json"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let m = &v["membership"];
    assert_eq!(m["outcome"]["reason"], "InterOperatorGroupOwnerConflict");
    assert_eq!(m["outcome"]["message"], "intersecting operatorgroups provide the same apis");
    assert_eq!(m["intersectingGroups"], serde_json::json!(["other/team-a"]));
}

#[test]
fn operatorgroup_takes_a_conformance_case_input() {
    let d = temp_dir("operatorgroup-case");
    let file = d.join("check.json");
    let case = r#"{"installModes": {"MultiNamespace": true}, "operatorNamespace": "operators", "targetNamespaces": ["ns-0", "operators"]}"#;
    std::fs::write(&file, case).unwrap();
    let out = bin().args(["operatorgroup"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("UnsupportedOperatorGroup: OwnNamespace InstallModeType not supported, cannot configure to watch own namespace"), "{text}");
    assert!(text.contains("warning[operatorgroup-only-multinamespace]"), "{text}");

    std::fs::write(&file, r#"{"path": "nowhere", "operatorNamespace": "operators"}"#).unwrap();
    let out = bin().args(["operatorgroup"]).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs `package` and `bundle`"));
}

#[test]
fn rbac_previews_a_real_bundle_under_each_supported_mode() {
    let catalog =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.16/ecr-secret-operator");
    // Default bundle (the default channel's head) and every mode its CSV supports.
    let out =
        bin().args(["rbac", "--package", "ecr-secret-operator", "--format", "json"]).arg(&catalog).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let modes: Vec<&str> = v.as_array().unwrap().iter().map(|p| p["target"]["installMode"].as_str().unwrap()).collect();
    assert_eq!(modes, ["OwnNamespace", "SingleNamespace", "MultiNamespace", "AllNamespaces"]);
    assert_eq!(v[0]["csvName"], "ecr-secret-operator.v0.5.0");
    assert!(v[0]["groupClusterRoles"][0]["name"].as_str().unwrap().starts_with("olm.og.operator-group.admin-"));

    // One mode, chosen namespaces, text; the Role is named as OLM names it (cut to fit 63).
    let out = bin()
        .args(["rbac", "--package", "ecr-secret-operator", "--bundle", "ecr-secret-operator.v0.4.1"])
        .args(["--install-mode", "SingleNamespace", "--namespace", "op-a", "--target-namespaces", "team-a"])
        .arg(&catalog)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("ecr-secret-operator.v0.4.1 as SingleNamespace: OperatorGroup operator-group/op-a in \"op-a\" targeting \"team-a\"\n"), "{text}");
    assert!(text.contains("  team-a/ecr-secret-operator.v0.4.-5I8uEFBFfbzHYVv6Sq88V4UBWKlI5MLcMs9id\n"), "{text}");
    assert!(text.contains("what the operator may touch:"), "{text}");

    // YAML.
    // Targets that do not make the mode's group: usage error.
    let out = bin()
        .args([
            "rbac",
            "--package",
            "ecr-secret-operator",
            "--install-mode",
            "OwnNamespace",
            "--target-namespaces",
            "x",
        ])
        .arg(&catalog)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn rbac_without_permissions_exits_1_and_says_why() {
    // community-v4.20 carries olm.csv.metadata: no install strategy, so no permissions.
    let catalog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.20/kube-green");
    let out = bin().args(["rbac", "--package", "kube-green"]).arg(&catalog).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("olm.csv.metadata, which carries no install strategy"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("provided-API ClusterRoles:"));

    // kube-green supports only AllNamespaces: asking for OwnNamespace shows OLM's refusal.
    let catalog = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.16/kube-green");
    let out = bin()
        .args(["rbac", "--package", "kube-green", "--install-mode", "OwnNamespace"])
        .arg(&catalog)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("  not supported: OwnNamespace InstallModeType not supported")
    );
}

#[test]
fn operatorgroup_reports_multitenancy_findings_for_instances() {
    let d = temp_dir("operatorgroup-tenants");
    let catalog =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.16/ecr-secret-operator");
    let check = serde_json::json!({
        "path": catalog, "package": "ecr-secret-operator", "bundle": "ecr-secret-operator.v0.5.0",
        "operatorNamespace": "op-a",
        "operatorGroups": [
            {"name": "a", "namespace": "op-a", "targetNamespaces": ["team-a"]},
            {"name": "b", "namespace": "op-b", "targetNamespaces": ["team-b", "team-a"]}
        ],
        "instances": [
            {"namespace": "op-a", "bundle": "ecr-secret-operator.v0.5.0"},
            {"namespace": "op-b", "bundle": "ecr-secret-operator.v0.4.1"}
        ]
    });
    let file = d.join("tenants.json");
    std::fs::write(&file, check.to_string()).unwrap();
    let out = bin().args(["operatorgroup", "--format", "json"]).arg(&file).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> = v["multitenancy"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"multitenancy-version-skew"), "{codes:?}");
    assert!(codes.contains(&"multitenancy-shared-crds"), "{codes:?}");
    assert!(codes.contains(&"multitenancy-overlapping-targets"), "{codes:?}");
    let out = bin().args(["operatorgroup"]).arg(&file).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("warning[multitenancy-version-skew]: ecr-secret-operator.v0.4.1 in \"op-b\" runs version 0.4.1"));
}

#[test]
fn diff_exits_1_on_a_broken_update_promise_and_0_otherwise() {
    let d = temp_dir("diff");
    let two = format!("{VALID}---\nschema: olm.channel\npackage: foo\nname: fast\nentries:\n- name: foo.v1.0.0\n");
    write(&d, "old/foo/catalog.yaml", &two);
    write(&d, "new/foo/catalog.yaml", VALID);
    let out = bin().args(["diff"]).arg(d.join("old")).arg(d.join("old")).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "update safety: no installed version's path changes\n0 packages changed (0 added, 0 removed); 0 errors, 0 warnings\n");

    let out = bin().args(["diff"]).arg(d.join("old")).arg(d.join("new")).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with(
            "package foo (changed)\n  channel fast (removed): head \"foo.v1.0.0\" -> (none); entries +0 -1\n"
        ),
        "{text}"
    );
    let want = format!(
        "{}:1:1: error[update-channel-removed]: channel \"fast\" of package \"foo\" is gone from the new catalog: users subscribed to it on its 1 entry get no more updates. It looks like a rename to \"stable\", which holds every entry of it: users must change their Subscription's channel to \"stable\" to keep getting updates.\n",
        d.join("new/foo/catalog.yaml").display()
    );
    assert!(text.contains(&want), "{text}");
    assert!(
        text.contains(&format!(
            "  {}:21:1: note: the channel in the old catalog",
            d.join("old/foo/catalog.yaml").display()
        )),
        "{text}"
    );
    assert!(text.contains("update safety: foo\n  CHANNEL  INSTALLED   OLM v0 (old -> new)  OLM v1 (old -> new)  FINDINGS\n  fast     foo.v1.0.0  at head -> gone      at head -> gone      update-channel-removed\n"), "{text}");
    assert!(text.ends_with("1 packages changed (0 added, 0 removed); 1 errors, 0 warnings\n"), "{text}");

    let out = bin().args(["diff", "--format", "json"]).arg(d.join("old")).arg(d.join("new")).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"][0]["code"], "update-channel-removed");
    assert_eq!(v["packages"][0]["channels"][0]["kind"], "removed");
    assert_eq!(v["safety"][0]["rows"][0]["new"], serde_json::Value::Null);

    let out = bin().args(["diff", "--package", "bar"]).arg(d.join("old")).arg(d.join("new")).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let out = bin().args(["diff"]).arg(d.join("old")).arg(d.join("missing")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// A catalog whose channel head 1.0.0 replaces the higher 2.0.0: `head-not-highest` and
/// `version-goes-backwards` (warnings), `unreachable-entry` (a note by default).
const BACKWARDS: &str = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v2.0.0\n- name: foo.v1.0.0\n  replaces: foo.v2.0.0\n---\nschema: olm.bundle\npackage: foo\nname: foo.v2.0.0\nimage: quay.io/foo/bundle:v2.0.0\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 2.0.0\n---\nschema: olm.bundle\npackage: foo\nname: foo.v1.0.0\nimage: quay.io/foo/bundle:v1.0.0\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 1.0.0\n";

fn validate_text(args: &[&str], catalog: &Path) -> (Option<i32>, String) {
    let out = bin().arg("validate").args(args).arg(catalog).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

#[test]
fn lint_config_is_found_by_walking_up_from_the_catalog() {
    let d = temp_dir("lintcfg-walk");
    write(&d, "repo/catalog/foo/catalog.yaml", BACKWARDS);
    let catalog = d.join("repo/catalog");
    let (code, text) = validate_text(&[], &catalog);
    assert_eq!(code, Some(0));
    assert!(text.ends_with("valid: 0 errors, 2 warnings, 1 note\n"), "{text}");
    write(&d, "repo/.olm-catalog.yaml", "lints:\n  version-goes-backwards: off\n  unreachable-entry: warning\npackages:\n  foo:\n    head-not-highest: error\n");
    let (code, text) = validate_text(&[], &catalog);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("error[head-not-highest]"), "{text}");
    assert!(text.ends_with("invalid: 1 error, 1 warning\n"), "{text}");
    // The command line wins over the file; --config names another file.
    let (code, text) = validate_text(&["--lint", "head-not-highest=note"], &catalog);
    assert_eq!((code, text.ends_with("valid: 0 errors, 1 warning, 1 note\n")), (Some(0), true), "{text}");
    write(&d, "other.yaml", "{\"lints\": {\"unreachable-entry\": \"off\"}}");
    let other = d.join("other.yaml");
    let (_, text) = validate_text(&["--config", other.to_str().unwrap()], &catalog);
    assert!(text.ends_with("valid: 0 errors, 2 warnings\n"), "{text}");
    // opm's errors cannot be configured; a bad file is a usage error, located.
    let (code, text) = validate_text(&["--lint", "invalid-image=off"], &catalog);
    assert_eq!(code, Some(2));
    assert!(text.contains("invalid-image is one of opm validate's errors, not a lint"), "{text}");
    write(&d, "repo/.olm-catalog.yaml", "lints:\n  invalid-image: off\n");
    let (code, text) = validate_text(&[], &catalog);
    assert_eq!(code, Some(2));
    assert!(text.contains(".olm-catalog.yaml:2:3: error[lint-config-invalid]: invalid-image is one of"), "{text}");
}

#[test]
fn deny_warnings_fails_a_run_with_warnings_but_not_notes() {
    let d = temp_dir("lintcfg-deny");
    write(&d, "foo/catalog.yaml", BACKWARDS);
    assert_eq!(validate_text(&[], &d).0, Some(0));
    assert_eq!(validate_text(&["--deny-warnings"], &d).0, Some(1));
    let only_notes = ["--deny-warnings", "--lint", "head-not-highest=note", "--lint", "version-goes-backwards=off"];
    assert_eq!(validate_text(&only_notes, &d).0, Some(0));
    write(&d, ".olm-catalog.yaml", "denyWarnings: true\n");
    let sub = d.join("foo/catalog.yaml");
    assert_eq!(validate_text(&[], &sub).0, Some(1));
}

#[test]
fn baseline_reports_only_new_findings_on_a_real_pair() {
    let fbc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc");
    let (old, new) = (fbc.join("community-v4.16"), fbc.join("community-v4.20"));
    let json = |args: &[&str]| {
        let out = bin().args(["validate", "--format", "json"]).args(args).arg(&new).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["diagnostics"].as_array().unwrap().clone()
    };
    let all = json(&[]);
    let fresh = json(&["--baseline", old.to_str().unwrap()]);
    let old_count = {
        let out = bin().args(["validate", "--format", "json"]).arg(&old).output().unwrap();
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        // v4.16 carries CRDs (olm.bundle.object), v4.20 does not (olm.csv.metadata): the CRD
        // lints are only v4.16's.
        v["diagnostics"].as_array().unwrap().iter().filter(|d| !d["code"].as_str().unwrap().starts_with("crd-")).count()
    };
    // Every other finding of v4.16 is still in v4.20 (same subjects, other lines): exactly the rest is new.
    assert_eq!(fresh.len(), all.len() - old_count);
    let key = |d: &serde_json::Value| (d["code"].clone(), d["message"].clone());
    let fresh_keys: Vec<_> = fresh.iter().map(key).collect();
    // Packages only in v4.20 keep all their findings; e.g. kube-green's new release.
    assert!(fresh.iter().any(|d| d["file"].as_str().unwrap().contains("/infinispan/")));
    assert!(all
        .iter()
        .filter(|d| d["file"].as_str().unwrap().contains("/infinispan/"))
        .all(|d| fresh_keys.contains(&key(d))));
    // A catalog against itself reports nothing.
    let (code, text) = validate_text(&["--baseline", old.to_str().unwrap()], &old);
    assert_eq!((code, text.as_str()), (Some(0), "valid: 0 errors, 0 warnings\n"));
}

#[test]
fn olm_v1_lints_run_only_when_switched_on() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc/community-v4.20");
    let (_, without) = validate_text(&[], &root);
    let (code, with) = validate_text(&["--olm-v1"], &root);
    assert_eq!(code, Some(0));
    assert!(!without.contains("[olmv1-"));
    for c in ["olmv1-no-all-namespaces", "olmv1-gvk-required", "olmv1-package-required", "olmv1-zero-major"] {
        assert!(with.contains(&format!("[{c}]")), "no {c}");
    }
}

/// A `github` workflow command parsed back: (command, properties, message), unescaped.
fn parse_github(line: &str) -> (String, std::collections::BTreeMap<String, String>, String) {
    let unescape = |s: &str| {
        s.replace("%0D", "\r").replace("%0A", "\n").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
    };
    let rest = line.strip_prefix("::").expect("a workflow command");
    let (head, message) = rest.split_once("::").expect("`::` before the message");
    let (command, props) = head.split_once(' ').unwrap_or((head, ""));
    let props = props
        .split(',')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').expect("key=value");
            (k.to_string(), unescape(v))
        })
        .collect();
    (command.to_string(), props, unescape(message))
}

#[test]
fn validate_formats_for_ci_carry_every_finding() {
    let d = temp_dir("formats");
    write(&d, "foo/catalog.yaml", &BACKWARDS.replace("quay.io/foo/bundle:v1", "quay.io/Foo/bundle:v1"));
    let json = bin().args(["validate", "--format", "json"]).arg(&d).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let findings = v["diagnostics"].as_array().unwrap();
    let errors = findings.iter().filter(|f| f["severity"] == "error").count();
    assert!(errors >= 1 && findings.len() > errors, "{v}");
    let file = d.join("foo/catalog.yaml").display().to_string();

    // SARIF 2.1.0: the required structure.
    let out = bin().args(["validate", "--format", "sarif"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let s: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["version"], "2.1.0");
    assert!(s["$schema"].as_str().unwrap().contains("sarif-2.1.0"));
    assert_eq!(s["runs"][0]["tool"]["driver"]["name"], "olm-catalog");
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    for (r, f) in results.iter().zip(findings) {
        assert_eq!(r["ruleId"], f["code"]);
        assert_eq!(r["level"], f["severity"]);
        assert_eq!(r["message"]["text"], f["message"]);
        assert_eq!(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], file.as_str());
        assert_eq!(r["locations"][0]["physicalLocation"]["region"]["startLine"], f["line"]);
    }

    // GitHub workflow commands, parsed back.
    let out = bin().args(["validate", "--format", "github"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), findings.len());
    for (line, f) in lines.iter().zip(findings) {
        let (command, props, message) = parse_github(line);
        let want = match f["severity"].as_str().unwrap() {
            "note" => "notice",
            s => s,
        };
        assert_eq!(command, want);
        assert_eq!(props["file"], file);
        assert_eq!(props["line"], f["line"].to_string());
        assert_eq!(props["col"], f["column"].to_string());
        assert_eq!(props["title"], f["code"].as_str().unwrap());
        assert!(message.starts_with(f["message"].as_str().unwrap()), "{message}");
    }

    // Markdown: summary, header, one row per finding.
    let out = bin().args(["validate", "--format", "markdown"]).arg(&d).output().unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.starts_with("### olm-catalog validate\n\n**invalid: "), "{md}");
    assert!(md.contains("| Status | Code | Location | Message |\n| --- | --- | --- | --- |\n"));
    let rows = md.lines().filter(|l| l.starts_with("| ") && !l.starts_with("| Status") && !l.starts_with("| ---"));
    assert_eq!(rows.count(), findings.len());

    // JUnit: a testcase per finding, a failure per error, balanced tags.
    let out = bin().args(["validate", "--format", "junit"]).arg(&d).output().unwrap();
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    assert_eq!(xml.matches("<testcase ").count(), findings.len());
    assert_eq!(xml.matches("</testcase>").count(), findings.len());
    assert_eq!(xml.matches("<failure ").count(), errors);
    assert!(xml.contains(&format!("tests=\"{}\" failures=\"{errors}\"", findings.len())));
}

#[test]
fn diff_formats_for_ci() {
    let d = temp_dir("diff-formats");
    let two = format!("{VALID}---\nschema: olm.channel\npackage: foo\nname: fast\nentries:\n- name: foo.v1.0.0\n");
    write(&d, "old/foo/catalog.yaml", &two);
    write(&d, "new/foo/catalog.yaml", VALID);
    let run = |format: &str| {
        let out = bin().args(["diff", "--format", format]).arg(d.join("old")).arg(d.join("new")).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{format}");
        String::from_utf8(out.stdout).unwrap()
    };
    let md = run("markdown");
    assert!(
        md.starts_with("### olm-catalog diff\n\n**1 package changed (0 added, 0 removed); 1 error, 0 warnings**\n"),
        "{md}"
    );
    assert!(md.contains("| ❌ error | `update-channel-removed` | `"), "{md}");
    assert!(md.contains("\n#### Changes\n\n| Package | Change | Details |\n| --- | --- | --- |\n| `foo` | changed | channels: `fast` (removed) |\n"), "{md}");
    assert!(md.contains("\n#### Update safety: `foo`\n\n| Channel | Installed | OLM v0 (old → new) | OLM v1 (old → new) | Findings |\n| --- | --- | --- | --- | --- |\n| `fast` | `foo.v1.0.0` | at head → gone | at head → gone | `update-channel-removed` |\n"), "{md}");

    let gh = run("github");
    let (command, props, message) = parse_github(gh.trim_end());
    assert_eq!((command.as_str(), props["title"].as_str()), ("error", "update-channel-removed"));
    assert_eq!(props["file"], d.join("new/foo/catalog.yaml").display().to_string());
    assert!(message.contains("\n  ") && message.contains("note: the channel in the old catalog"), "{message}");

    let sarif: serde_json::Value = serde_json::from_str(&run("sarif")).unwrap();
    assert_eq!(sarif["runs"][0]["results"][0]["ruleId"], "update-channel-removed");
    let related = sarif["runs"][0]["results"][0]["relatedLocations"][0]["message"]["text"].as_str().unwrap();
    assert!(related.starts_with("the channel in the old catalog"), "{related}");
    let junit = run("junit");
    assert_eq!((junit.matches("<testcase ").count(), junit.matches("<failure ").count()), (1, 1));
}

// ---- deps: the cross-package view

const DEPS_CATALOG: &str = r#"{"schema":"olm.package","name":"app","defaultChannel":"stable"}
{"schema":"olm.channel","package":"app","name":"stable","entries":[{"name":"app.v1.0.0"},{"name":"app.v2.0.0","replaces":"app.v1.0.0"}]}
{"schema":"olm.bundle","package":"app","name":"app.v1.0.0","image":"quay.io/app/bundle:v1.0.0","properties":[{"type":"olm.package","value":{"packageName":"app","version":"1.0.0"}},{"type":"olm.package.required","value":{"packageName":"gone","versionRange":">=1.0.0"}}]}
{"schema":"olm.bundle","package":"app","name":"app.v2.0.0","image":"quay.io/app/bundle:v2.0.0","properties":[{"type":"olm.package","value":{"packageName":"app","version":"2.0.0"}},{"type":"olm.gvk.required","value":{"group":"db.io","version":"v1","kind":"Db"}},{"type":"olm.constraint","value":{"failureMessage":"needs <certified>","cel":{"rule":"properties.exists(p, p.type == 'certified')"}}}]}
{"schema":"olm.package","name":"db","defaultChannel":"stable"}
{"schema":"olm.channel","package":"db","name":"stable","entries":[{"name":"db.v1.0.0"}]}
{"schema":"olm.bundle","package":"db","name":"db.v1.0.0","image":"quay.io/db/bundle:v1.0.0","properties":[{"type":"olm.package","value":{"packageName":"db","version":"1.0.0"}},{"type":"olm.gvk","value":{"group":"db.io","version":"v1","kind":"Db"}}]}
"#;

#[test]
fn deps_exits_1_when_a_requirement_is_unsatisfied_and_0_with_heads_only() {
    let d = temp_dir("deps");
    write(&d, "catalog.json", DEPS_CATALOG);
    let out = bin().args(["deps", "--package", "app"]).arg(&d).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.starts_with("Package app: 2 bundles, 1 channel head\n"), "{text}");
    assert!(text.contains("  [UNSATISFIED] package gone >=1.0.0 (olm.package.required)\n      declared by 1 bundle: app.v1.0.0\n      nothing in the catalog satisfies it\n"), "{text}");
    assert!(text.contains("  [satisfied] GVK db.io/v1 Db (olm.gvk.required)\n"), "{text}");
    assert!(text.contains("        db: 1.0.0 (head of stable)\n"), "{text}");
    assert!(text.contains("  [unknown] cel(properties.exists(p, p.type == 'certified')) (olm.constraint)\n"), "{text}");
    assert!(text.contains("failure message: needs <certified>"), "{text}");

    // The head (app.v2.0.0) asks only for what the catalog has, or a CEL rule: not unmet.
    let out = bin().args(["deps", "--package", "app", "--heads-only"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn deps_json_has_requirements_providers_and_requirers() {
    let d = temp_dir("deps-json");
    write(&d, "catalog.json", DEPS_CATALOG);
    let out = bin().args(["deps", "--package", "db", "--format", "json"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["package"], "db");
    assert_eq!(v["requirements"].as_array().unwrap().len(), 0);
    assert_eq!(v["provides"][0]["text"], "GVK db.io/v1 Db");
    let r = &v["requiredBy"][0];
    assert_eq!(
        (r["package"].as_str(), r["property"].as_str(), r["satisfied"].as_bool()),
        (Some("app"), Some("olm.gvk.required"), Some(true))
    );
    assert_eq!(r["heads"], serde_json::json!(["app.v2.0.0"]));

    let out = bin().args(["deps", "--package", "app", "--format", "json"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let statuses: Vec<&str> =
        v["requirements"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, vec!["unsatisfied", "satisfied", "unknown"]);
    assert_eq!(v["requirements"][1]["providers"][0]["bundle"], "db.v1.0.0");
    assert_eq!(v["requirements"][2]["constraint"]["failureMessage"], "needs <certified>");
    assert_eq!(v["summary"]["unsatisfied"], 1);
}

#[test]
fn deps_of_an_unknown_package_or_a_missing_path_exits_2() {
    let d = temp_dir("deps-bad");
    write(&d, "catalog.json", DEPS_CATALOG);
    let out = bin().args(["deps", "--package", "nope"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no package \"nope\" in the catalog"));
    let out = bin().args(["deps", "--package", "app"]).arg(d.join("missing")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["deps"]).arg(&d).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "--package is required");
}

#[test]
fn edit_writes_in_place_plans_with_dry_run_and_refuses_with_exit_1() {
    let d = temp_dir("edit");
    let commented = VALID.replace("name: stable\n", "name: stable # the only channel\n");
    write(&d, "foo/catalog.yaml", &commented);
    let file = d.join("foo/catalog.yaml");
    let dry = bin()
        .args(["edit"])
        .arg(&d)
        .args([
            "deprecate",
            "--package",
            "foo",
            "--channel",
            "stable",
            "--message",
            "old",
            "--dry-run",
            "--format",
            "patch",
        ])
        .output()
        .unwrap();
    assert_eq!(dry.status.code(), Some(0), "{}", String::from_utf8_lossy(&dry.stderr));
    let patch = String::from_utf8_lossy(&dry.stdout);
    assert!(patch.starts_with("--- a/foo/catalog.yaml\n+++ b/foo/catalog.yaml\n"), "{patch}");
    assert!(patch.contains("+schema: olm.deprecations\n"), "{patch}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), commented, "--dry-run writes nothing");
    let op = r#"{"op":"deprecate","package":"foo","channel":"stable","message":"old"}"#;
    let done = bin().args(["edit"]).arg(&d).args(["json", "--op", op, "--format", "json"]).output().unwrap();
    assert_eq!(done.status.code(), Some(0));
    let plan: serde_json::Value = serde_json::from_slice(&done.stdout).unwrap();
    assert_eq!(plan["edits"][0]["file"], "foo/catalog.yaml");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.starts_with(&commented) && written.contains("name: stable # the only channel\n"));
    let again = bin().args(["edit"]).arg(&d).args(["json", "--op", op, "--format", "json"]).output().unwrap();
    assert_eq!(again.status.code(), Some(1));
    let err: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(err["error"]["code"], "refused");
    let bad = bin().args(["edit"]).arg(&d).args(["frobnicate", "--package", "foo"]).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn edit_add_bundle_takes_its_channel_as_channel_or_channels() {
    let d = temp_dir("edit-add-channel");
    write(&d, "foo/catalog.yaml", VALID);
    let bundle =
        ["--package", "foo", "--name", "foo.v1.1.0", "--version", "1.1.0", "--image", "quay.io/foo/bundle:v1.1.0"];
    for flag in ["--channel", "--channels"] {
        let out = bin()
            .args(["edit"])
            .arg(&d)
            .arg("addBundle")
            .args(bundle)
            .args([flag, "stable", "--dry-run", "--format", "patch"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{flag}: {}", String::from_utf8_lossy(&out.stderr));
        let patch = String::from_utf8_lossy(&out.stdout);
        assert!(patch.contains("+- name: foo.v1.1.0\n+  replaces: foo.v1.0.0\n"), "{flag}: {patch}");
    }
}

#[test]
fn edit_of_a_semver_template_writes_the_template_and_refuses_what_it_generates() {
    let d = temp_dir("edit-template");
    let original = std::fs::read_to_string("../shared/catalogs/templates/clusterpulse/semver.yaml").unwrap();
    write(&d, "semver.yaml", &original);
    let file = d.join("semver.yaml");
    let bundles = "../shared/catalogs/fbc/community-v4.20/clusterpulse";
    let promote = bin()
        .args(["edit"])
        .arg(&file)
        .args(["promote", "--package", "clusterpulse", "--bundle", "clusterpulse.v1.0.2", "--channel", "stable"])
        .args(["--template-bundles", bundles, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(promote.status.code(), Some(0), "{}", String::from_utf8_lossy(&promote.stderr));
    let plan: serde_json::Value = serde_json::from_slice(&promote.stdout).unwrap();
    assert_eq!(plan["edits"][0]["file"], "semver.yaml");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_ne!(written, original, "the template is written in place");
    let stable = &written[written.find("Stable:").expect("a Stable list")..];
    assert!(stable.contains("clusterpulse:1.0.2"), "{written}");
    assert!(written.starts_with("---\nSchema: olm.semver\n"), "the untouched lines stay: {written}");
    let deprecate = bin()
        .args(["edit"])
        .arg(&file)
        .args(["deprecate", "--package", "clusterpulse", "--bundle", "clusterpulse.v1.0.0", "--message", "old"])
        .args(["--template-bundles", bundles])
        .output()
        .unwrap();
    assert_eq!(deprecate.status.code(), Some(1), "a semver template has no place for deprecations");
    assert!(!String::from_utf8_lossy(&deprecate.stderr).is_empty());
    assert_eq!(std::fs::read_to_string(&file).unwrap(), written, "a refused edit writes nothing");
}
