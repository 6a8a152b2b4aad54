//! Writing real catalogs back: every package file of the community catalog (YAML, written by
//! opm) and of the kube-descheduler catalogs (JSON, written by opm) is loaded, written again in
//! its own format, and compared with the file.
//!
//! The goal is byte identity; every file that differs must still be equal as data (reloaded, the
//! same blobs), and each kind of byte difference is named here with its reason.

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::write::{write, write_loaded, Format};
use olm_catalog::declcfg::{load_files, DeclarativeConfig, FileInput};

const CATALOGS: &str = "../shared/catalogs/fbc";

/// The paths `dir/*/<name>` that exist, sorted.
fn package_files(dir: &Path, name: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> =
        entries.filter_map(Result::ok).map(|e| e.path().join(name)).filter(|p| p.exists()).collect();
    files.sort();
    files
}

fn load(path: &str, bytes: &[u8]) -> DeclarativeConfig {
    let loaded = load_files(&[FileInput::new(path, bytes)]);
    assert!(loaded.diagnostics.is_empty(), "{path}: {:?}", loaded.diagnostics);
    loaded.config
}

/// The blobs as comparable data: every field and value, no positions or files, object keys of
/// raw values sorted (JSON objects are unordered).
fn data(cfg: &DeclarativeConfig) -> String {
    write_loaded(cfg, Format::Json)
}

/// Compare one file with its rewrite; `Ok(true)` when byte-identical.
fn round_trip(path: &Path, format: Format) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let name = path.to_string_lossy().to_string();
    let cfg = load(&name, &bytes);
    let written = write(&cfg, format);
    let again = load(&name, written.as_bytes());
    assert_eq!(data(&cfg), data(&again), "{name}: the rewrite is not the same data");
    written.as_bytes() == bytes.as_slice()
}

fn check(files: &[PathBuf], format: Format) -> (usize, Vec<String>) {
    let mut same = 0;
    let mut differ = Vec::new();
    for f in files {
        if round_trip(f, format) {
            same += 1;
        } else {
            differ.push(f.display().to_string());
        }
    }
    (same, differ)
}

/// Every YAML catalog: community v4.20 (`olm.csv.metadata`), v4.16 (`olm.bundle.object`) and the
/// OpenShift optional operators. Measured: 69 of 69 package files byte-identical.
#[test]
fn yaml_catalogs_are_written_back_byte_for_byte() {
    for catalog in ["community-v4.20", "community-v4.16", "openshift-optional-v4.17"] {
        let files = package_files(&Path::new(CATALOGS).join(catalog), "catalog.yaml");
        assert!(!files.is_empty(), "{catalog}: no shared catalogs found under {CATALOGS}");
        let (same, differ) = check(&files, Format::Yaml);
        eprintln!("{catalog}: {same} of {} package files byte-identical", files.len());
        assert!(differ.is_empty(), "files that differ: {differ:#?}");
    }
}

/// The JSON catalogs were written from freshly rendered bundles, so their property values keep Go
/// struct order (not sorted): [`write`] keeps raw values as given and matches them byte for byte
/// (4 of 4). `write_loaded` (opm's order after loading) may differ from them only in that order.
#[test]
fn kube_descheduler_json_is_written_back_byte_for_byte() {
    let mut files = Vec::new();
    for release in package_files(&Path::new(CATALOGS).join("kube-descheduler"), "catalog") {
        files.extend(package_files(&release, "catalog.json"));
    }
    assert!(!files.is_empty(), "kube-descheduler: no shared catalogs found under {CATALOGS}");
    let (same, differ) = check(&files, Format::Json);
    eprintln!("kube-descheduler: {same} of {} package files byte-identical", files.len());
    assert!(differ.is_empty(), "files that differ: {differ:#?}");
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let cfg = load("catalog.json", &bytes);
        let loaded = write_loaded(&cfg, Format::Json);
        assert_eq!(data(&load("again.json", loaded.as_bytes())), data(&cfg));
    }
}
