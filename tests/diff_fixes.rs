//! The fixes `diff` offers, applied with the edit engine: on small catalogs reproducing real
//! changes (multi-nic-cni-operator's removed releases, clusterpulse's skipped release), each
//! finding's `--op` is a valid operation, and the catalog it edits no longer has that finding.

use olm_catalog::declcfg::load_files;
use olm_catalog::diff::{diff, CatalogDiff};
use olm_catalog::edit::{plan_edit, Operation};
use olm_catalog::{build_model, Code, FileInput, Model};

/// A catalog of package `foo` with one channel `stable` (entries as YAML lines) and a bundle of
/// version X.Y.Z for every entry `foo.vX.Y.Z`.
fn catalog(entries: &str) -> Vec<FileInput> {
    let mut yaml = String::from("---\nschema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n");
    let mut names = Vec::new();
    for line in entries.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(name) = line.strip_prefix("- name: ") {
            names.push(name.to_string());
            yaml.push_str(&format!("{line}\n"));
        } else {
            yaml.push_str(&format!("  {line}\n"));
        }
    }
    for name in names {
        let version = name.trim_start_matches("foo.v");
        yaml.push_str(&format!(
            "---\nschema: olm.bundle\npackage: foo\nname: {name}\nimage: example.com/foo:{version}\nproperties:\n- type: olm.package\n  value: {{packageName: foo, version: {version}}}\n"
        ));
    }
    vec![FileInput::new("catalog.yaml", yaml)]
}

fn model(files: &[FileInput]) -> Model {
    build_model(&load_files(files).config).0
}

/// (code, first quoted name) of each finding.
fn keys(d: &CatalogDiff) -> Vec<(Code, String)> {
    d.findings.iter().map(|f| (f.code, f.message.split('"').nth(1).unwrap_or_default().to_string())).collect()
}

/// Apply every fix of `diff(old, new)` on its own; each removes its finding. Returns how many.
fn every_fix_removes_its_finding(old: &str, new: &str) -> usize {
    let (old, new) = (catalog(old), catalog(new));
    let d = diff(&model(&old), &model(&new));
    let mut applied = 0;
    for (key, fix) in keys(&d).into_iter().zip(&d.fixes) {
        let Some(fix) = fix else { continue };
        let op: Operation = serde_json::from_str(fix).expect("an operation");
        let plan = plan_edit(&new, &op).expect("the operation applies");
        assert!(!plan.has_new_errors(), "{fix}: {:#?}", plan.findings);
        let fixed = diff(&model(&old), &model(&plan.files));
        assert!(!keys(&fixed).contains(&key), "{fix} leaves {key:?}: {:#?}", fixed.findings);
        applied += 1;
    }
    applied
}

#[test]
fn a_removed_release_is_skipped_by_the_next_one() {
    // multi-nic-cni-operator e1324c4f8: 1.2.7 removed, 1.2.8 now replaces 1.2.2.
    let old = "
        - name: foo.v1.2.2
        - name: foo.v1.2.7
          replaces: foo.v1.2.2
        - name: foo.v1.2.8
          replaces: foo.v1.2.7
        - name: foo.v1.2.9
          replaces: foo.v1.2.8
    ";
    let new = "
        - name: foo.v1.2.2
        - name: foo.v1.2.8
          replaces: foo.v1.2.2
        - name: foo.v1.2.9
          replaces: foo.v1.2.8
    ";
    assert_eq!(every_fix_removes_its_finding(old, new), 1);
    // The beta channel: the head 1.2.6 removed, 1.2.7 replacing 1.2.3 instead.
    let old = "
        - name: foo.v1.2.0
        - name: foo.v1.2.3
          replaces: foo.v1.2.0
        - name: foo.v1.2.6
          replaces: foo.v1.2.3
    ";
    let new = "
        - name: foo.v1.2.0
        - name: foo.v1.2.3
          replaces: foo.v1.2.0
        - name: foo.v1.2.7
          replaces: foo.v1.2.3
    ";
    assert_eq!(every_fix_removes_its_finding(old, new), 1);
}

#[test]
fn a_path_through_a_skipped_release_and_its_stranded_users() {
    // clusterpulse a2a9fcc84: 0.3.0 both replaces and skips 0.2.3, the only upgrade of 0.1.1–0.2.2.
    let old = "
        - name: foo.v0.1.1
        - name: foo.v0.2.0
        - name: foo.v0.2.1
        - name: foo.v0.2.2
        - name: foo.v0.2.3
          replaces: foo.v0.1.1
          skips: [foo.v0.1.1, foo.v0.2.0, foo.v0.2.1, foo.v0.2.2]
    ";
    let new = format!("{old}\n- name: foo.v0.3.0\n  replaces: foo.v0.2.3\n  skips: [foo.v0.2.3]");
    // Four stranded users and one path through the skipped release, each with its fix.
    assert_eq!(every_fix_removes_its_finding(old, &new), 5);
}

#[test]
fn a_path_through_a_deprecated_release() {
    let old = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
    ";
    let new = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
        - name: foo.v1.2.0
          replaces: foo.v1.1.0
    ";
    let mut files = catalog(new);
    files[0].content.extend_from_slice(
        b"---\nschema: olm.deprecations\npackage: foo\nentries:\n- reference: {schema: olm.bundle, name: foo.v1.1.0}\n  message: broken\n",
    );
    let (old, new) = (catalog(old), files);
    let d = diff(&model(&old), &model(&new));
    assert_eq!(keys(&d), [(Code::UpdatePathThroughDeprecated, "stable".to_string())]);
    assert!(
        d.findings[0].message.ends_with("; add \"foo.v1.0.0\" to the skips of \"foo.v1.2.0\""),
        "{}",
        d.findings[0].message
    );
    let op: Operation = serde_json::from_str(d.fixes[0].as_deref().expect("a fix")).expect("an operation");
    let plan = plan_edit(&new, &op).expect("applies");
    assert_eq!(diff(&model(&old), &model(&plan.files)).findings, []);
}

#[test]
fn a_z_stream_that_no_longer_converges_gets_its_skip_range() {
    let old = "
        - name: foo.v1.0.0
        - name: foo.v1.0.1
          replaces: foo.v1.0.0
        - name: foo.v1.0.2
          replaces: foo.v1.0.1
          skipRange: '>=1.0.0 <1.0.2'
    ";
    let new = "
        - name: foo.v1.0.0
        - name: foo.v1.0.1
          replaces: foo.v1.0.0
        - name: foo.v1.0.2
          replaces: foo.v1.0.1
    ";
    assert_eq!(every_fix_removes_its_finding(old, new), 1);
}
