//! Writing real catalogs back: every package file of the community catalog (YAML, written by
//! opm) and of the kube-descheduler catalogs (JSON, written by opm) is loaded, written again in
//! its own format, and compared with the file.
//!
//! The goal is byte identity; every file that differs must still be equal as data (reloaded, the
//! same blobs), and each kind of byte difference is named here with its reason.

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::write::{write, Format};
use olm_catalog::declcfg::{load_files, DeclarativeConfig, FileInput};

const CATALOGS: &str = "../shared/catalogs/fbc";

/// The paths `dir/*/<name>` that exist, sorted.
fn package_files(dir: &Path, name: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path().join(name)).filter(|p| p.exists()).collect();
    files.sort();
    files
}

fn load(path: &str, bytes: &[u8]) -> DeclarativeConfig {
    let loaded = load_files(&[FileInput::new(path, bytes)]);
    assert!(loaded.diagnostics.is_empty(), "{path}: {:?}", loaded.diagnostics);
    loaded.config
}

/// The blobs as comparable data: positions and source files dropped (a reload has other ones).
fn data(cfg: &DeclarativeConfig, format: Format) -> String {
    // Writing in the other format renders every field and value; positions never appear.
    let other = match format {
        Format::Json => Format::Yaml,
        Format::Yaml => Format::Json,
    };
    write(cfg, other)
}

/// Compare one file with its rewrite; `Ok(true)` when byte-identical.
fn round_trip(path: &Path, format: Format) -> bool {
    let bytes = std::fs::read(path).unwrap();
    let name = path.to_string_lossy().to_string();
    let cfg = load(&name, &bytes);
    let written = write(&cfg, format);
    let again = load(&name, written.as_bytes());
    assert_eq!(data(&cfg, format), data(&again, format), "{name}: the rewrite is not the same data");
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

#[test]
fn community_catalog_yaml_is_written_back_byte_for_byte() {
    let files = package_files(&Path::new(CATALOGS).join("community-v4.20"), "catalog.yaml");
    if files.is_empty() {
        eprintln!("skipped: no shared catalogs");
        return;
    }
    let (same, differ) = check(&files, Format::Yaml);
    eprintln!("community-v4.20: {same} of {} package files byte-identical", files.len());
    assert!(differ.is_empty(), "files that differ: {differ:#?}");
}

#[test]
fn kube_descheduler_json_is_written_back_byte_for_byte() {
    let mut files = Vec::new();
    for release in package_files(&Path::new(CATALOGS).join("kube-descheduler"), "catalog") {
        files.extend(package_files(&release, "catalog.json"));
    }
    if files.is_empty() {
        eprintln!("skipped: no shared catalogs");
        return;
    }
    let (same, differ) = check(&files, Format::Json);
    eprintln!("kube-descheduler: {same} of {} package files byte-identical", files.len());
    assert!(differ.is_empty(), "files that differ: {differ:#?}");
}
