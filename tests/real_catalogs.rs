//! Every real catalog in `../shared/catalogs/fbc` is valid for opm, so it must validate clean
//! here too (no error; our lints may warn). Every package's graphs, Mermaid export and every
//! entry's upgrade path are computed, and their invariants checked.

use std::path::{Path, PathBuf};

use olm_catalog::graph::{to_dot, to_mermaid, upgrade_path, ChannelGraph, MermaidOptions, Semantics, Start};
use olm_catalog::read_catalog;
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
        let errors: Vec<String> =
            v.report.diagnostics.iter().filter(|d| d.is_error()).take(10).map(|d| d.to_string()).collect();
        assert!(v.report.valid, "{} is invalid: {errors:#?}", root.display());
        assert!(errors.is_empty(), "{} has errors: {errors:#?}", root.display());
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
    assert_eq!(v.model.packages.len(), 5);
}

#[test]
fn graphs_paths_and_exports_of_every_real_package() {
    for root in catalog_roots() {
        let files = read_catalog(&root).expect("catalog readable");
        let v = validate_files(&files);
        for p in &v.model.packages {
            let opts = MermaidOptions { package: Some(p.name.clone()), v0_semantics: true, ..Default::default() };
            let mermaid = to_mermaid(&v.model, &opts).expect("mermaid renders");
            assert!(mermaid.contains(&format!("subgraph \"{}\"", p.name)), "{}", p.name);
            let graphs: Vec<ChannelGraph> = p.channels.iter().map(|c| ChannelGraph::new(p, c)).collect();
            assert!(to_dot(&graphs).starts_with("digraph"));
            for (c, g) in p.channels.iter().zip(&graphs) {
                let head = c.head().expect("valid channel has a head").name.value.clone();
                assert_eq!(g.head.as_deref(), Some(head.as_str()));
                let edges = g.expanded_edges(usize::MAX).expect("no budget");
                for e in &c.entries {
                    for semantics in [Semantics::V0, Semantics::V1] {
                        let path = upgrade_path(p, c, &Start::Bundle(e.name.value.clone()), semantics)
                            .unwrap_or_else(|err| panic!("{}/{}: {err}", p.name, c.name));
                        // Steps chain, and each is a declared edge of the graph.
                        let mut at = e.name.value.clone();
                        for s in &path.steps {
                            assert_eq!(*s.from, at);
                            assert!(
                                edges.iter().any(|ge| *ge.from == *s.from && *ge.to == *s.to && ge.kind == s.edge),
                                "{}/{}: step {} -> {} ({:?}) is not an edge",
                                p.name,
                                c.name,
                                s.from,
                                s.to,
                                s.edge
                            );
                            at = s.to.to_string();
                        }
                        // A path that is not stranded ends at the head.
                        assert_eq!(!path.stranded, at == head, "{}/{} from {}", p.name, c.name, e.name.value);
                        if semantics == Semantics::V0 {
                            let node = g.node(&e.name.value).expect("entry has a node");
                            assert_eq!(node.stranded, path.stranded, "{}/{} {}", p.name, c.name, e.name.value);
                        }
                    }
                }
            }
        }
    }
}

/// Loading from disk file by file gives exactly what loading the files read into memory gives.
#[test]
fn load_dir_equals_loading_the_files_read() {
    for root in catalog_roots().into_iter().chain([fbc_dir().join("kube-descheduler")]) {
        let streamed = olm_catalog::load_dir(&root).expect("readable catalog");
        let files = read_catalog(&root).expect("readable catalog");
        let in_memory = olm_catalog::load_files(&files);
        assert_eq!(streamed.files, in_memory.files, "{}", root.display());
        assert_eq!(streamed.config, in_memory.config, "{}", root.display());
        assert_eq!(streamed.diagnostics, in_memory.diagnostics, "{}", root.display());
    }
}

/// A directory with an `.indexignore`: ignored files are neither read nor loaded.
#[test]
fn load_dir_honours_indexignore() {
    let dir = std::env::temp_dir().join(format!("olm-catalog-load-dir-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join(".indexignore"), "sub/skip.yaml\n").unwrap();
    std::fs::write(dir.join("a.yaml"), "schema: olm.package\nname: a\n").unwrap();
    std::fs::write(dir.join("sub/skip.yaml"), "{ not yaml").unwrap();
    let loaded = olm_catalog::load_dir(&dir).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(loaded.files, ["a.yaml"]);
    assert_eq!(loaded.config.packages.len(), 1);
    assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
}
