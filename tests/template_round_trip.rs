//! Round trip through the basic template, on every package of the real catalogs in
//! `../shared/catalogs/fbc`: FBC → `convert-template basic` (JSON and YAML, as opm prints them)
//! → `render-template` of that text, its bundle images looked up in the same FBC → the same
//! catalog again.
//!
//! "The same" is compared as data, per blob: each side is written with
//! [`write_by_package`] (opm's `WriteFS` JSON) and parsed back into JSON values, keyed by schema
//! and name (object key order does not count). Every `olm.package`, `olm.channel`, `olm.bundle`,
//! `olm.deprecations` and other blob must come back equal, and the expansion must report no
//! error. Each difference is named by catalog, package, format and blob.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use olm_catalog::declcfg::write::{write_by_package, Format};
use olm_catalog::declcfg::{load_files, read_catalog, DeclarativeConfig, FileInput};
use olm_catalog::render::convert::{to_basic_template, write_basic_template};
use olm_catalog::render::template::expand_template;
use olm_catalog::render::BundleSource;
use serde_json::Value;

fn fbc_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc")
}

/// The package directories of a catalog (`<catalog>/<package>/`), sorted.
fn package_dirs(catalog: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(catalog) else { return Vec::new() };
    let mut dirs: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    dirs
}

/// Every blob as data, keyed `package schema name` (blobs with the same key kept in order).
fn blobs(cfg: &DeclarativeConfig) -> BTreeMap<String, Vec<Value>> {
    let mut out: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    for (package, text) in write_by_package(cfg, Format::Json) {
        for value in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
            let value = value.unwrap_or_else(|e| panic!("{package}: the writer's JSON does not parse: {e}"));
            let field = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let key = format!("{package} {} {}", field("schema"), field("name"));
            out.entry(key).or_default().push(value);
        }
    }
    out
}

/// Every difference between the catalog and its round trip, one line each.
fn differences(before: &BTreeMap<String, Vec<Value>>, after: &BTreeMap<String, Vec<Value>>) -> Vec<String> {
    let mut out = Vec::new();
    for (key, values) in before {
        match after.get(key) {
            None => out.push(format!("{key}: lost")),
            Some(v) if v.len() != values.len() => out.push(format!("{key}: {} blobs, then {}", values.len(), v.len())),
            Some(v) => {
                for (a, b) in values.iter().zip(v) {
                    if a != b {
                        out.push(format!("{key}: differs in {}", field_diff(a, b)));
                    }
                }
            }
        }
    }
    out.extend(after.keys().filter(|k| !before.contains_key(*k)).map(|k| format!("{k}: appeared")));
    out
}

/// Which top-level fields of two blobs differ.
fn field_diff(a: &Value, b: &Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else { return "the whole blob".to_string() };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).map(|k| k.as_str()).collect::<Vec<_>>().join(", ")
}

/// A catalog through the round trip in both formats, its bundle images looked up in `source`;
/// how many blobs it has, and the differences found (each prefixed with `case`).
fn round_trip(case: &str, cfg: &DeclarativeConfig, source: &BundleSource) -> (usize, Vec<String>) {
    let template = to_basic_template(cfg);
    let before = blobs(cfg);
    let mut diffs = Vec::new();
    for format in [Format::Json, Format::Yaml] {
        let text = write_basic_template(&template, format);
        let file = FileInput::new(format!("template{}", format.extension()), text);
        let out = expand_template(&file, source);
        let case = format!("{case} ({format})");
        diffs.extend(out.diagnostics.iter().filter(|d| d.is_error()).map(|d| format!("{case}: {d}")));
        diffs.extend(differences(&before, &blobs(&out.config)).into_iter().map(|d| format!("{case}: {d}")));
    }
    (before.values().map(Vec::len).sum(), diffs)
}

/// One package directory of a catalog through the round trip, against its own bundles.
fn round_trip_package(catalog: &str, dir: &Path) -> (usize, Vec<String>) {
    let files = read_catalog(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let loaded = load_files(&files);
    let case = format!("{catalog}/{}", dir.file_name().unwrap_or_default().to_string_lossy());
    assert!(loaded.diagnostics.is_empty(), "{case}: {:?}", loaded.diagnostics.first());
    let mut source = BundleSource::new();
    source.add_catalog(&loaded.config);
    round_trip(&case, &loaded.config, &source)
}

/// Every package of the catalog at `fbc/<catalog>` (its package directories) through the round trip.
fn check_catalog(catalog: &str) {
    let start = Instant::now();
    let dirs = package_dirs(&fbc_dir().join(catalog));
    if dirs.is_empty() {
        eprintln!("skipped {catalog}: no shared catalogs");
        return;
    }
    let (mut blob_count, mut diffs) = (0, Vec::new());
    for dir in &dirs {
        let (n, d) = round_trip_package(catalog, dir);
        blob_count += n;
        diffs.extend(d);
    }
    eprintln!("{catalog}: {} packages, {blob_count} blobs, json and yaml, in {:?}", dirs.len(), start.elapsed());
    assert!(diffs.is_empty(), "{catalog}: {} differences:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn community_v4_20_round_trips_through_the_basic_template() {
    check_catalog("community-v4.20");
}

#[test]
fn community_v4_16_round_trips_through_the_basic_template() {
    check_catalog("community-v4.16");
}

#[test]
fn openshift_optional_v4_17_round_trips_through_the_basic_template() {
    check_catalog("openshift-optional-v4.17");
}

#[test]
fn kube_descheduler_round_trips_through_the_basic_template() {
    for release in ["v4.12", "v4.16", "v4.20", "v4.22"] {
        check_catalog(&format!("kube-descheduler/{release}/catalog"));
    }
}

/// The real catalogs hold no `olm.deprecations`; the rhacs template holds 20 channel
/// deprecations. It is expanded (against an `olm.bundle` built for each of its image references),
/// and that catalog goes through the round trip.
#[test]
fn an_expanded_catalog_with_deprecations_round_trips() {
    let path = fbc_dir().join("../templates/rhacs-basic-template.yaml");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipped: no shared templates");
        return;
    };
    let images: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            l.trim()
                .trim_start_matches("- ")
                .strip_prefix("image: ")
                .filter(|i| i.contains("rhacs-operator-bundle@sha256:"))
        })
        .collect();
    let bundles: String = images
        .iter()
        .enumerate()
        .map(|(i, image)| {
            serde_json::json!({"schema": "olm.bundle", "package": "rhacs-operator", "name": format!("rhacs-operator.b{i}"),
                "image": image, "properties": [{"type": "olm.package",
                "value": {"packageName": "rhacs-operator", "version": format!("4.0.{i}")}}]})
            .to_string()
                + "\n"
        })
        .collect();
    let loaded = load_files(&[FileInput::new("bundles.json", bundles)]);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics.first());
    let mut source = BundleSource::new();
    source.add_catalog(&loaded.config);
    let expanded = expand_template(&FileInput::new("rhacs-basic-template.yaml", text.as_str()), &source);
    assert!(expanded.diagnostics.iter().all(|d| !d.is_error()), "{:?}", expanded.diagnostics.first());
    assert_eq!(expanded.config.bundles.len(), images.len());
    assert_eq!(expanded.config.deprecations.iter().map(|d| d.entries.len()).sum::<usize>(), 20);
    let (count, diffs) = round_trip("rhacs", &expanded.config, &source);
    eprintln!("rhacs: {count} blobs, json and yaml");
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
}
