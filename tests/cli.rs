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
