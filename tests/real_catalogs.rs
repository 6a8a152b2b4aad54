//! Every real catalog in `../shared/catalogs/fbc` is valid for opm, so it must validate clean
//! here too: no error and no warning.

use std::path::{Path, PathBuf};

use olm_catalog::declcfg::walk::read_catalog;
use olm_catalog::validate::validate_files;

fn fbc_dir() -> PathBuf {
    std::env::var_os("CATALOGS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc"))
}

/// Catalog roots: each directory of `fbc/`, and for `kube-descheduler` each `vX.Y/catalog`.
fn catalog_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(fbc_dir())
        .expect("../shared/catalogs/fbc must exist")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        let mut nested: Vec<PathBuf> = std::fs::read_dir(&d)
            .expect("readable dir")
            .map(|e| e.expect("readable entry").path().join("catalog"))
            .filter(|p| p.is_dir())
            .collect();
        if nested.is_empty() {
            roots.push(d);
        } else {
            nested.sort();
            roots.extend(nested);
        }
    }
    roots
}

#[test]
fn every_real_catalog_validates_clean() {
    let roots = catalog_roots();
    assert!(roots.len() >= 7, "expected the shared catalogs, found {roots:?}");
    for root in roots {
        let files = read_catalog(&root).expect("catalog readable");
        let v = validate_files(&files);
        let shown: Vec<String> = v.report.diagnostics.iter().take(10).map(|d| d.to_string()).collect();
        assert!(v.report.valid, "{} is invalid: {shown:#?}", root.display());
        assert!(v.report.diagnostics.is_empty(), "{} has findings: {shown:#?}", root.display());
        assert!(!v.model.packages.is_empty(), "{} has no packages", root.display());
        for p in &v.model.packages {
            assert!(p.default_channel().is_some(), "{}: {} has no default channel", root.display(), p.name);
            for c in &p.channels {
                let head = c.head().expect("valid channels have a head");
                assert!(c.entries.iter().any(|e| e.name.value == head.name.value));
                assert!(c.entries.iter().all(|e| e.bundle.is_some()), "entries without bundles in {}", c.name);
            }
        }
    }
}

#[test]
fn the_bundled_example_catalog_is_valid() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/examples/community");
    let v = validate_files(&read_catalog(&root).expect("example readable"));
    assert!(v.report.valid);
    assert_eq!(v.model.packages.len(), 4);
}
