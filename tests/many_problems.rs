//! A catalog with many problems reports every one of them, each located, in a stable order —
//! where opm stops at the first.

use olm_catalog::declcfg::FileInput;
use olm_catalog::validate::validate_files;
use olm_catalog::Code;

fn catalog_with_bad_images(n: usize) -> Vec<FileInput> {
    let mut text = String::from("schema: olm.package\nname: foo\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: foo\nname: stable\nentries:\n");
    for i in 0..n {
        if i == 0 {
            text.push_str(&format!("- name: foo.v1.0.{i}\n"));
        } else {
            text.push_str(&format!("- name: foo.v1.0.{i}\n  replaces: foo.v1.0.{}\n", i - 1));
        }
    }
    for i in 0..n {
        text.push_str(&format!(
            "---\nschema: olm.bundle\npackage: foo\nname: foo.v1.0.{i}\nimage: quay.io/Foo/bar:v{i}\nproperties:\n- type: olm.package\n  value:\n    packageName: foo\n    version: 1.0.{i}\n"
        ));
    }
    vec![FileInput::new("foo/catalog.yaml", text.into_bytes())]
}

#[test]
fn five_hundred_problems_are_five_hundred_diagnostics() {
    let v = validate_files(&catalog_with_bad_images(500));
    let bad: Vec<_> = v.report.diagnostics.iter().filter(|d| d.code == Code::InvalidImage).collect();
    assert_eq!(bad.len(), 500);
    assert!(!v.report.valid);
    // Each one points at its own `image:` line, in file order.
    let lines: Vec<u32> = bad.iter().map(|d| d.location.line).collect();
    let mut sorted = lines.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(lines, sorted);
    assert!(bad.iter().all(|d| d.location.pointer == "/image" && d.location.file == "foo/catalog.yaml"));
    // opm would print only the first.
    assert_eq!(
        v.report.opm_message.as_deref(),
        Some("package \"foo\" bundle \"foo.v1.0.0\" image: invalid image pull spec \"quay.io/Foo/bar:v0\": invalid reference format: repository name must be lowercase")
    );
}

#[test]
fn output_is_deterministic() {
    let files = catalog_with_bad_images(50);
    let a = serde_json::to_string(&validate_files(&files).report).unwrap();
    let b = serde_json::to_string(&validate_files(&files).report).unwrap();
    assert_eq!(a, b);
}

#[test]
fn problems_in_several_files_and_phases_are_all_reported() {
    let files = vec![
        FileInput::new("a/broken.yaml", "schema: olm.package\nname: [\n"),
        FileInput::new("b/catalog.yaml", "schema: olm.package\nname: Bad_Name\ndefaultChannel: x\n---\nschema: olm.channel\npackage: nope\nname: c\n"),
        FileInput::new("c/catalog.json", "{\"schema\":\"olm.package\",\"name\":\"ok\",\"defaultChannel\":\"stable\"}\n{\"schema\":\"olm.channel\",\"package\":\"ok\",\"name\":\"stable\",\"entries\":[{\"name\":\"ok.v1\",\"skipRange\":\">v1\"}]}\n"),
        FileInput::new("README.md", "# not a catalog\n"),
    ];
    let v = validate_files(&files);
    let codes: Vec<Code> = v.report.diagnostics.iter().map(|d| d.code).collect();
    for want in [
        Code::YamlSyntax,
        Code::InvalidPackageName,
        Code::UnknownPackage,
        Code::EntryWithoutBundle,
        Code::MissingSchema,
    ] {
        assert!(codes.contains(&want), "missing {want}: {codes:?}");
    }
    let files: Vec<&str> = v.report.diagnostics.iter().map(|d| d.location.file.as_str()).collect();
    let mut sorted = files.clone();
    sorted.sort();
    assert_eq!(files, sorted, "diagnostics are sorted by file");
}
