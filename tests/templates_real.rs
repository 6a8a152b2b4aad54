//! Real catalog templates expanded offline against the catalogs they were published into
//! (`../shared/catalogs/`): the community templates of `templates/<operator>/` (their `ci.yaml`
//! says which catalogs each feeds) and the kube-descheduler templates of
//! `fbc/kube-descheduler/vX.Y/`. The expansion must equal the published `olm.package`,
//! `olm.channel` and `olm.bundle` blobs of the package as data, except for the differences
//! listed here with their reasons. The rhacs template expands against bundles built for its
//! image references.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use olm_catalog::declcfg::write::{blob_value, BlobRef, RawKeys};
use olm_catalog::declcfg::{load_files, read_catalog, read_documents, DeclarativeConfig, FileInput, Loaded};
use olm_catalog::render::template::expand_template;
use olm_catalog::render::{BundleSource, Rendered};
use serde_json::{json, Value};

fn catalogs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs")
}

fn load_catalog(dir: &Path) -> Loaded {
    let files = read_catalog(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let loaded = load_files(&files);
    assert!(loaded.diagnostics.is_empty(), "{}: {:?}", dir.display(), loaded.diagnostics.first());
    loaded
}

fn template_file(path: &Path) -> FileInput {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    FileInput::new(path.file_name().unwrap().to_string_lossy(), bytes)
}

/// Expand `template` against `catalog`; no error may be reported.
fn expand(template: &Path, catalog: &Loaded) -> Rendered {
    let mut source = BundleSource::new();
    source.add_catalog(&catalog.config);
    let out = expand_template(&template_file(template), &source);
    let errors: Vec<String> = out.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.to_string()).collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", template.display());
    out
}

/// A blob as opm's `-o json` prints it, as a JSON value (the writer's own encoding).
fn blob_json(blob: BlobRef<'_>) -> Value {
    blob_value(blob, RawKeys::AsGiven).to_json()
}

/// The package's blobs as data, keyed `schema name`.
fn blobs_of(cfg: &DeclarativeConfig, package: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for p in cfg.packages.iter().filter(|p| p.name.value == package) {
        out.insert(format!("olm.package {}", p.name.value), blob_json(BlobRef::Package(p)));
    }
    for c in cfg.channels.iter().filter(|c| c.package.value == package) {
        out.insert(format!("olm.channel {}", c.name.value), blob_json(BlobRef::Channel(c)));
    }
    for b in cfg.bundles.iter().filter(|b| b.package.value == package) {
        out.insert(format!("olm.bundle {}", b.name.value), blob_json(BlobRef::Bundle(b)));
    }
    out
}

/// Every difference between the expansion and the published blobs, one line each.
fn differences(expanded: &DeclarativeConfig, published: &DeclarativeConfig, package: &str) -> Vec<String> {
    let (ours, theirs) = (blobs_of(expanded, package), blobs_of(published, package));
    let mut out = Vec::new();
    for (key, value) in &ours {
        match theirs.get(key) {
            None => out.push(format!("{key}: only in the expansion")),
            Some(t) if t != value => out.push(format!("{key}: differs{}", field_diff(value, t))),
            Some(_) => {}
        }
    }
    out.extend(theirs.keys().filter(|k| !ours.contains_key(*k)).map(|k| format!("{k}: only in the published catalog")));
    out
}

/// Which top-level fields differ.
fn field_diff(a: &Value, b: &Value) -> String {
    let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else { return String::new() };
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    let differing: Vec<&str> = keys.into_iter().filter(|k| a.get(*k) != b.get(*k)).map(|k| k.as_str()).collect();
    format!(" in {}", differing.join(", "))
}

/// The catalogs a community template feeds, from its `ci.yaml`, that we hold.
fn mapped_catalogs(operator_dir: &Path) -> Vec<(String, String)> {
    let ci = std::fs::read(operator_dir.join("ci.yaml")).unwrap();
    let doc = read_documents("ci.yaml", &ci).remove(0).unwrap().value.unwrap().to_json();
    let mut out = Vec::new();
    for m in doc["fbc"]["catalog_mapping"].as_array().into_iter().flatten() {
        for name in m["catalog_names"].as_array().into_iter().flatten() {
            let dir = format!("community-{}", name.as_str().unwrap_or(""));
            if catalogs_dir().join("fbc").join(&dir).is_dir() {
                out.push((m["template_name"].as_str().unwrap_or("").to_string(), dir));
            }
        }
    }
    out
}

/// The package a template expands to: the name of its olm.package, or of its bundles' package.
fn package_of(out: &Rendered) -> String {
    out.config
        .packages
        .first()
        .map(|p| p.name.value.clone())
        .or_else(|| out.config.bundles.first().map(|b| b.package.value.clone()))
        .unwrap_or_default()
}

/// The differences the community catalogs hold, and why.
const KNOWN_COMMUNITY_DIFFERENCES: &[(&str, &str)] = &[
    // The v4.20 catalog is the `olm.csv.metadata` flavour: it embeds no CSV, so the package's
    // description and icon, which the semver template takes from the default channel head's CSV
    // (spec §5.2 step 6), cannot be known offline. In v4.16 (`olm.bundle.object`) they match.
    ("dotvirt-operator/semver.yaml -> community-v4.20", "olm.package dotvirt-operator: differs in description, icon"),
    ("kairos-operator/semver.yaml -> community-v4.20", "olm.package kairos-operator: differs in description, icon"),
    ("konflux/semver.yaml -> community-v4.20", "olm.package konflux-operator: differs in description, icon"),
    // Published by an older opm whose linkChannels kept the replaces target in `skips` and
    // restarted `skips` at each minor (fast-v0: 0.2.3 replaces and skips 0.1.1; 0.3.0 skips only
    // 0.2.3). Current opm (spec §5.2 step 4) skips every earlier bundle of the major but the
    // replaces target, as the other four semver templates' published channels show.
    ("clusterpulse/semver.yaml -> community-v4.20", "olm.channel fast-v0: differs in entries"),
];

#[test]
fn community_templates_expand_to_their_published_packages() {
    let mut report = Vec::new();
    let mut catalogs: BTreeMap<String, Loaded> = BTreeMap::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(catalogs_dir().join("templates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        for (template, catalog) in mapped_catalogs(&dir) {
            let loaded = catalogs
                .entry(catalog.clone())
                .or_insert_with(|| load_catalog(&catalogs_dir().join("fbc").join(&catalog)));
            let out = expand(&dir.join(&template), loaded);
            let package = package_of(&out);
            let operator = dir.file_name().unwrap().to_string_lossy().to_string();
            let case = format!("{operator}/{template} -> {catalog}");
            let blobs = blobs_of(&out.config, &package).len();
            assert!(blobs > 0, "{case}: nothing expanded");
            let diffs = differences(&out.config, &loaded.config, &package);
            let known: Vec<&str> = KNOWN_COMMUNITY_DIFFERENCES.iter().filter(|k| k.0 == case).map(|k| k.1).collect();
            assert_eq!(diffs, known, "{case}: differences other than the known ones");
            report.push(format!("{case} ({package}): {blobs} blobs, {} known differences", diffs.len()));
        }
    }
    println!("{}", report.join("\n"));
    assert_eq!(report.len(), 11, "every mapped template and catalog pair we hold is checked");
}

#[test]
fn kube_descheduler_templates_expand_to_their_published_catalogs() {
    let mut report = Vec::new();
    for version in ["v4.12", "v4.16", "v4.20", "v4.22"] {
        let dir = catalogs_dir().join("fbc/kube-descheduler").join(version);
        let loaded = load_catalog(&dir.join("catalog"));
        let out = expand(&dir.join("catalog-template.yaml"), &loaded);
        let package = package_of(&out);
        let blobs = blobs_of(&out.config, &package);
        assert_eq!(
            blobs,
            blobs_of(&loaded.config, &package),
            "{version}: {:#?}",
            differences(&out.config, &loaded.config, &package)
        );
        report.push(format!("{version} ({package}): {} blobs equal", blobs.len()));
    }
    println!("{}", report.join("\n"));
}

/// Build an `olm.bundle` for each image reference of the rhacs template (their names are not
/// in the template: opm would read them from the images), expand the YAML and the JSON
/// template, and check that everything the template writes passes through: the package, the
/// channels (anchors and aliases resolved), the 20 deprecations, and one bundle per image,
/// located at its `image:` line.
#[test]
fn rhacs_template_expands_with_anchors_aliases_and_deprecations() {
    // The JSON copy comes from another fork (stackrox/operator-index), without deprecations.
    for (name, deprecations) in [("rhacs-basic-template.yaml", 20), ("rhacs-basic-template.json", 0)] {
        let path = catalogs_dir().join("templates").join(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let images: Vec<String> = text
            .lines()
            .filter_map(|l| {
                let at = l.find("rhacs-operator-bundle@sha256:")?;
                let start = l[..at].rfind([' ', '"']).map_or(0, |i| i + 1);
                Some(l[start..].trim_end_matches(['"', ',']).to_string())
            })
            .collect();
        let blobs: String = images
            .iter()
            .enumerate()
            .map(|(i, image)| {
                json!({"schema": "olm.bundle", "package": "rhacs-operator", "name": format!("rhacs-operator.b{i}"), "image": image,
                    "properties": [{"type": "olm.package", "value": {"packageName": "rhacs-operator", "version": format!("4.0.{i}")}}]})
                .to_string()
                    + "\n"
            })
            .collect();
        let loaded = load_files(&[FileInput::new("bundles.json", blobs)]);
        let out = expand(&path, &loaded);
        let cfg = &out.config;
        assert!(images.len() > 100, "{name}: {} images", images.len());
        assert_eq!(cfg.bundles.len(), images.len(), "{name}");
        assert_eq!(cfg.packages.len(), 1);
        assert_eq!(cfg.packages[0].default_channel.value, "stable");
        assert!(cfg.packages[0].icon.is_some());
        let deprecated: usize = cfg.deprecations.iter().map(|d| d.entries.len()).sum();
        assert_eq!(deprecated, deprecations, "{name}: the deprecations pass through");
        // Aliases: rhacs-3.65 repeats the anchored entries of 3.62, 3.63 and 3.64.
        let c365 = cfg.channels.iter().find(|c| c.name.value == "rhacs-3.65").expect("rhacs-3.65");
        let names: Vec<&str> = c365.entries.iter().map(|e| e.name.value.as_str()).collect();
        assert_eq!(
            names[..4],
            ["rhacs-operator.v3.62.0", "rhacs-operator.v3.63.0", "rhacs-operator.v3.64.0", "rhacs-operator.v3.65.0"]
        );
        assert_eq!(c365.entries[1].skip_range.value, ">= 3.62.0 < 3.63.0");
        // Each bundle points at the template line that names its image.
        for b in &cfg.bundles {
            let line = text.lines().nth(b.source.pos.line as usize - 1).unwrap_or("");
            assert!(line.contains(&b.image.value), "{name}: bundle {} located at {:?}", b.name.value, line);
            assert_eq!(&*b.source.file, name);
        }
        println!(
            "{name}: {} channels, {} bundles, {} deprecation entries",
            cfg.channels.len(),
            cfg.bundles.len(),
            deprecated
        );
    }
}

/// An image the source does not hold is an error located at its `image:` line, naming it.
#[test]
fn a_missing_image_is_located_in_the_template() {
    let template = "schema: olm.template.basic\nentries:\n- schema: olm.package\n  name: p\n- schema: olm.bundle\n  image: quay.io/x/p:1\n";
    let out = expand_template(&FileInput::new("t.yaml", template), &BundleSource::new());
    let d = &out.diagnostics[0];
    assert_eq!(
        (d.code.as_str(), d.location.line, d.location.column, d.location.pointer.as_str()),
        ("template-image-not-found", 6, 10, "/entries/1/image")
    );
    assert!(d.message.contains("\"quay.io/x/p:1\""));
    assert_eq!(out.config.packages.len(), 1, "the rest still expands");
}
