//! Every bundle directory of `../shared/catalogs/bundles` (real community operators) renders, or
//! is refused for a named, real problem of its input; the warnings opm would only log are
//! located in the files they are about.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use olm_catalog::declcfg::write::{write, Format};
use olm_catalog::declcfg::{FileInput, Node};
use olm_catalog::render::bundle::{render_bundle_dir, BundleOptions};
use olm_catalog::render::render_input;
use olm_catalog::Diagnostic;

fn bundles_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/bundles")
}

/// Bundle roots: directories holding `manifests/`, relative to the bundles folder, sorted.
fn bundle_roots(dir: &Path, base: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    if dirs.iter().any(|d| d.file_name().is_some_and(|n| n == "manifests")) {
        out.push(dir.strip_prefix(base).unwrap_or(dir).to_string_lossy().replace('\\', "/"));
        return;
    }
    for d in dirs {
        bundle_roots(&d, base, out);
    }
}

/// The files of `manifests/` and `metadata/` under `root`, named relative to the bundles folder.
fn bundle_files(base: &Path, root: &str) -> Vec<FileInput> {
    let mut files = Vec::new();
    for folder in ["manifests", "metadata"] {
        let Ok(entries) = std::fs::read_dir(base.join(root).join(folder)) else { continue };
        for e in entries.filter_map(|e| e.ok()).filter(|e| e.path().is_file()) {
            let name = e.file_name().to_string_lossy().to_string();
            let content = std::fs::read(e.path()).unwrap_or_default();
            files.push(FileInput::new(format!("{root}/{folder}/{name}"), content));
        }
    }
    files
}

/// `code@file:line` of each finding.
fn summary(diags: &[Diagnostic]) -> Vec<String> {
    diags.iter().map(|d| format!("{}@{}:{}", d.code, d.location.file, d.location.line)).collect()
}

#[test]
fn every_bundle_directory_renders_or_reports_a_named_problem() {
    let base = bundles_dir();
    assert!(base.is_dir(), "{} not found: the shared catalogs are part of the test data", base.display());
    let mut roots = Vec::new();
    bundle_roots(&base, &base, &mut roots);
    assert!(roots.len() > 300, "found only {} bundle directories", roots.len());
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut warned: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for root in &roots {
        let out = render_bundle_dir(root, &bundle_files(&base, root), &BundleOptions::default());
        let (errors, warnings): (Vec<Diagnostic>, Vec<Diagnostic>) =
            out.diagnostics.into_iter().partition(|d| d.is_error());
        assert_eq!(out.bundle.is_none(), !errors.is_empty(), "{root}: {errors:?}");
        if !errors.is_empty() {
            refused.insert(root.clone(), summary(&errors));
        }
        if !warnings.is_empty() {
            warned.insert(root.clone(), summary(&warnings));
        }
    }
    // Every directory renders; none is refused.
    assert!(refused.is_empty(), "refused: {refused:#?}");
    // What opm would only log, located: eventing-kogito's dependencies.yaml does not parse (an
    // over-indented `value:` at line 22), so opm renders it without dependencies; pelorus's
    // properties.yaml holds a `dependencies:` list, which opm reads as the dependencies file.
    let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for v in ["1.1.0", "1.2.0"] {
        let root = format!("eventing-kogito/{v}");
        expected.insert(root.clone(), vec![format!("bundle-bad-dependencies@{root}/metadata/dependencies.yaml:22")]);
    }
    for v in 1..=9 {
        let root = format!("pelorus-operator/0.0.{v}");
        expected.insert(root.clone(), vec![format!("bundle-bad-properties@{root}/metadata/properties.yaml:1")]);
    }
    assert_eq!(warned, expected);
}

#[test]
fn the_wrong_key_and_the_broken_file_are_explained() {
    let base = bundles_dir();
    assert!(base.is_dir(), "{} not found: the shared catalogs are part of the test data", base.display());
    let pelorus = render_bundle_dir(
        "pelorus-operator/0.0.3",
        &bundle_files(&base, "pelorus-operator/0.0.3"),
        &BundleOptions::default(),
    );
    assert!(pelorus.diagnostics[0].message.contains("has no `properties` list but a `dependencies` one"));
    let required: Vec<String> = pelorus
        .bundle
        .unwrap()
        .blob
        .properties
        .iter()
        .filter(|p| p.type_.value == "olm.package.required")
        .map(|p| p.value.as_ref().map(|v| v.to_go_json()).unwrap_or_default())
        .collect();
    assert_eq!(
        required,
        [
            r#"{"packageName":"grafana-operator","versionRange":"4.8.0"}"#,
            r#"{"packageName":"prometheus","versionRange":"0.47.0"}"#
        ]
    );
    let kogito = render_bundle_dir(
        "eventing-kogito/1.1.0",
        &bundle_files(&base, "eventing-kogito/1.1.0"),
        &BundleOptions::default(),
    );
    let message = &kogito.diagnostics[0].message;
    assert!(message.starts_with("metadata/dependencies.yaml does not decode: "), "{message}");
    assert!(
        message.ends_with("opm skips it, so the bundle gets none of these dependencies: fix it, or remove it"),
        "{message}"
    );
    assert!(kogito.bundle.unwrap().blob.properties.iter().all(|p| p.type_.value != "olm.gvk.required"));
}

/// The published blobs of `catalog` (a folder of `../shared/catalogs/fbc`), by bundle name.
fn published(catalog: &str, package: &str) -> BTreeMap<String, olm_catalog::declcfg::Bundle> {
    let path = bundles_dir().join("../fbc").join(catalog).join(package).join("catalog.yaml");
    let Ok(content) = std::fs::read(&path) else { return BTreeMap::new() };
    let loaded = olm_catalog::load_files(&[FileInput::new("catalog.yaml", content)]);
    loaded.config.bundles.into_iter().map(|b| (b.name.value.clone(), b)).collect()
}

fn as_data(b: &olm_catalog::declcfg::Bundle) -> (Vec<serde_json::Value>, Vec<(String, String)>) {
    let props = b
        .properties
        .iter()
        .map(|p| serde_json::json!({"type": p.type_.value.as_str(), "value": p.value.as_ref().map(|v| v.to_json())}))
        .collect();
    let related = b.related_images.iter().map(|r| (r.name.value.clone(), r.image.value.clone())).collect();
    (props, related)
}

#[test]
fn rendered_bundles_equal_the_blobs_the_community_pipeline_published() {
    // The pipeline renders each bundle image with opm (v4.16: olm.bundle.object, so the base64
    // manifests must match byte for byte; v4.20: migrated to olm.csv.metadata). Rendering the
    // same directories with the published image must give the same properties and images.
    let base = bundles_dir();
    assert!(base.is_dir(), "{} not found: the shared catalogs are part of the test data", base.display());
    for (catalog, package, migrate) in [
        ("community-v4.20", "dotvirt-operator", true),
        ("community-v4.20", "kube-green", true),
        ("community-v4.20", "rabbitmq-messaging-topology-operator", true),
        ("community-v4.16", "kube-green", false),
    ] {
        let blobs = published(catalog, package);
        let mut roots = Vec::new();
        bundle_roots(&base.join(package), &base, &mut roots);
        let mut compared = 0;
        for root in &roots {
            let files = bundle_files(&base, root);
            let probe = render_bundle_dir(root, &files, &BundleOptions::default());
            let Some(name) = probe.bundle.map(|b| b.blob.name.value) else { continue };
            let Some(want) = blobs.get(&name) else { continue };
            let options = BundleOptions {
                image: Some(want.image.value.clone()),
                migrate_csv_metadata: migrate,
                ..BundleOptions::default()
            };
            let got = render_bundle_dir(root, &files, &options).bundle.unwrap();
            let (gp, gr) = as_data(&got.blob);
            let (wp, wr) = as_data(want);
            assert_eq!(gp, wp, "{catalog}: {root}: properties differ");
            assert_eq!(gr, wr, "{catalog}: {root}: related images differ");
            compared += 1;
        }
        assert!(compared >= 4, "{catalog}/{package}: only {compared} bundles compared");
    }
}

/// The files of the bundle directory `tests/fixtures/<root>`, named relative to it (as the CLI
/// names the files of a directory it is given).
fn fixture_files(root: &str) -> Vec<FileInput> {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(root);
    let mut files = bundle_files(&base, "");
    for f in &mut files {
        f.path = f.path.trim_start_matches('/').to_string();
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    files
}

/// opendatahub-operator 1.4.1 and 1.4.2 (community-operators-prod, copied whole): three of their
/// CRDs have single-quoted descriptions whose lines go on at the key's column, which go-yaml
/// reads and YAML 1.2 does not. They render, every CRD with them, to the bytes `opm render`
/// gives (the SHA-256 of operator-registry v1.73.0's output on these directories).
#[test]
fn opendatahub_crds_with_quoted_lines_at_the_keys_column_render_as_opm_renders_them() {
    use sha2::{Digest, Sha256};
    for (root, opm_sha256) in [
        ("opendatahub-operator/1.4.1", "134fa4bb3fe482d6c5af0fdd091979815307ebe195c856e8fd16c65816ff8116"),
        ("opendatahub-operator/1.4.2", "9babaa4c50e321e89763524ccc0e05ebed8ec5d626a0a959222d28351ea78e2b"),
    ] {
        let (_, rendered) = render_input(&fixture_files(root), &BundleOptions::default());
        assert!(rendered.diagnostics.is_empty(), "{root}: {:?}", summary(&rendered.diagnostics));
        let objects: Vec<Node> =
            rendered.config.bundles[0].properties.iter().filter_map(|p| p.bundle_object()).collect();
        let crds: Vec<&Node> = objects
            .iter()
            .filter(|o| o.get("kind").and_then(Node::as_str) == Some("CustomResourceDefinition"))
            .collect();
        assert_eq!(crds.len(), 5, "{root}");
        let name = |crd: &Node| crd.get("metadata")?.get("name")?.as_str().map(str::to_string);
        let quickstarts = crds.iter().find(|c| name(c).as_deref() == Some("odhquickstarts.console.openshift.io"));
        let kind = ["spec", "versions"].iter().try_fold(*quickstarts.unwrap(), |n, k| n.get(k));
        let kind = kind.and_then(|v| v.as_array()?.first()).and_then(|v| {
            ["schema", "openAPIV3Schema", "properties", "kind", "description"].iter().try_fold(v, |n, k| n.get(k))
        });
        assert_eq!(
            kind.and_then(Node::as_str),
            Some(concat!(
                "Kind is a string value representing the REST resource this object represents. Servers may infer ",
                "this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ",
                "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"
            ))
        );
        let json = write(&rendered.config, Format::Json);
        let digest: String = Sha256::digest(json.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digest, opm_sha256, "{root}: not the bytes opm renders");
    }
}
