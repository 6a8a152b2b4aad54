//! The whole bundle rule set on small directories: what renders, what is refused, what is warned.

use super::*;

const CSV: &str = "apiVersion: operators.coreos.com/v1alpha1\nkind: ClusterServiceVersion\nmetadata:\n  name: foo.v0.2.0\n  \
                   annotations:\n    olm.properties: '[{\"type\":\"olm.maxOpenShiftVersion\",\"value\":\"4.9\"}]'\nspec:\n  version: 0.2.0\n  \
                   customresourcedefinitions:\n    owned:\n    - {group: test.foo, version: v1, kind: Foo, name: foos.test.foo}\n  \
                   relatedImages:\n  - {name: operator, image: r/foo:v0.2.0}\n";
const CRD: &str =
    "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: foos.test.foo\nspec:\n  \
                   group: test.foo\n  names: {kind: Foo, plural: foos}\n  versions: [{name: v1}]\n";
const ANNOTATIONS: &str = "annotations:\n  operators.operatorframework.io.bundle.package.v1: foo\n  \
                           operators.operatorframework.io.bundle.channels.v1: beta,stable\n  \
                           operators.operatorframework.io.bundle.channel.default.v1: beta\n";

fn dir(extra: &[(&str, &str)]) -> Vec<FileInput> {
    let mut files = vec![
        FileInput::new("ops/foo/0.2.0/manifests/foo.csv.yaml", CSV),
        FileInput::new("ops/foo/0.2.0/manifests/foos.crd.yaml", CRD),
        FileInput::new("ops/foo/0.2.0/metadata/annotations.yaml", ANNOTATIONS),
    ];
    files.extend(extra.iter().map(|(p, c)| FileInput::new(format!("ops/foo/0.2.0/{p}"), *c)));
    files
}

fn types(b: &RenderedBundle) -> Vec<&str> {
    b.blob.properties.iter().map(|p| p.type_.value.as_str()).collect()
}

#[test]
fn a_bundle_directory_renders_as_opm_does() {
    let out = render_bundle_dir("ops/foo/0.2.0", &dir(&[]), &BundleOptions::default());
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let b = out.bundle.unwrap();
    assert_eq!(
        (b.blob.name.value.as_str(), b.blob.package.value.as_str(), b.blob.image.value.as_str()),
        ("foo.v0.2.0", "foo", "")
    );
    assert_eq!(
        types(&b),
        ["olm.gvk", "olm.maxOpenShiftVersion", "olm.package", "olm.bundle.object", "olm.bundle.object"]
    );
    assert_eq!(b.blob.object_count, 2);
    assert_eq!(&*b.blob.source.file, "ops/foo/0.2.0/manifests/foo.csv.yaml");
    assert_eq!(b.annotations.channels, ["beta", "stable"]);
    assert_eq!(b.annotations.default_channel, "beta");
    assert!(b.csv.is_some());
    let images: Vec<&str> = b.blob.related_images.iter().map(|r| r.image.value.as_str()).collect();
    assert_eq!(images, ["r/foo:v0.2.0"]);
}

#[test]
fn the_image_template_fills_the_image_and_migration_replaces_the_objects() {
    let options = BundleOptions {
        image: None,
        image_ref_template: Some("r/{{.Package}}-bundle:v{{.Version}}".into()),
        migrate_csv_metadata: true,
    };
    let b = render_bundle_dir("ops/foo/0.2.0", &dir(&[]), &options).bundle.unwrap();
    assert_eq!(b.blob.image.value, "r/foo-bundle:v0.2.0");
    assert_eq!(types(&b), ["olm.gvk", "olm.maxOpenShiftVersion", "olm.package", "olm.csv.metadata"]);
    assert_eq!(b.blob.object_count, 0);
    assert_eq!(b.blob.related_images.len(), 2);
    let bad = BundleOptions { image_ref_template: Some("{{.Channel}}".into()), ..options };
    let out = render_bundle_dir("ops/foo/0.2.0", &dir(&[]), &bad);
    assert!(out.bundle.is_none());
    assert_eq!(out.diagnostics[0].code, Code::BundleImageTemplate);
}

#[test]
fn a_missing_owned_crd_refuses_the_bundle_with_opms_message() {
    let files: Vec<FileInput> = dir(&[]).into_iter().filter(|f| !f.path.ends_with("crd.yaml")).collect();
    let out = render_bundle_dir("ops/foo/0.2.0", &files, &BundleOptions::default());
    assert!(out.bundle.is_none());
    assert_eq!(out.diagnostics.len(), 1);
    let d = &out.diagnostics[0];
    assert_eq!(d.code, Code::BundleMissingCrd);
    assert_eq!(d.message, "error checking provided apis in bundle foo.v0.2.0: couldn't find test.foo/v1/Foo (foos) in bundle. found: map[]");
    assert_eq!((d.location.file.as_str(), d.location.line), ("ops/foo/0.2.0/manifests/foo.csv.yaml", 1));
}

#[test]
fn no_annotations_file_refuses_the_bundle() {
    let files: Vec<FileInput> = dir(&[]).into_iter().filter(|f| !f.path.contains("metadata")).collect();
    let out = render_bundle_dir("ops/foo/0.2.0", &files, &BundleOptions::default());
    assert!(out.bundle.is_none());
    assert_eq!(out.diagnostics[0].message, "Could not find annotations file");
    assert_eq!(out.diagnostics[0].location.file, "ops/foo/0.2.0/metadata");
}

#[test]
fn a_bad_olm_properties_annotation_is_a_located_warning() {
    let csv = CSV.replace(r#"'[{\"type\"#, r#"'{\"type\"#).replace("\"4.9\"}]'", "\"4.9\"}'");
    let csv = csv.replace(r#"\""#, "\"");
    let files = vec![
        FileInput::new("b/manifests/a.yaml", csv),
        FileInput::new("b/manifests/b.yaml", CRD),
        FileInput::new("b/metadata/annotations.yaml", ANNOTATIONS),
    ];
    let out = render_bundle_dir("b", &files, &BundleOptions::default());
    assert!(out.bundle.is_some());
    assert_eq!(out.diagnostics.len(), 1, "{:?}", out.diagnostics);
    assert_eq!(out.diagnostics[0].code, Code::BundleBadProperties);
    assert_eq!(out.diagnostics[0].location.line, 6);
}
