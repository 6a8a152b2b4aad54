//! Finding the inputs inside a tree of files: bundle directories (a directory holding both a
//! `manifests/` and a `metadata/` directory, as the community pipeline probes them: `Bundle.probe`
//! in `operator-repo`), package-manifest directories (holding a `*.package.yaml`), and the
//! `ci.yaml` that governs a directory. Paths are `/`-separated as the user names them.

use std::collections::BTreeSet;

use crate::declcfg::FileInput;

/// Directories that never hold bundles: the FBC templates of operators that moved on.
const IGNORED_DIRS: &[&str] = &["catalog-templates"];

/// The parent directory of `path` (`""` for a top-level name).
pub fn parent(path: &str) -> &str {
    path.trim_end_matches('/').rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// `dir/name`, or `name` when `dir` is empty.
pub fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{}/{name}", dir.trim_end_matches('/'))
    }
}

/// Whether `path` lies inside directory `dir` (every path lies inside `""`).
pub fn is_under(path: &str, dir: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    dir.is_empty() || path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/'))
}

/// The files inside directory `dir`.
pub fn files_under(files: &[FileInput], dir: &str) -> Vec<FileInput> {
    files.iter().filter(|f| is_under(&f.path, dir)).cloned().collect()
}

fn segments(dir: &str) -> impl Iterator<Item = &str> {
    dir.split('/').filter(|s| !s.is_empty())
}

fn ignored(dir: &str) -> bool {
    segments(dir).any(|s| IGNORED_DIRS.contains(&s))
}

/// Every bundle directory of the tree, sorted: a directory with a file under `manifests/` and a
/// file under `metadata/`. Directories inside another bundle's `manifests/` or `metadata/`, and
/// under `catalog-templates/`, are not bundles.
pub fn bundle_roots(files: &[FileInput]) -> Vec<String> {
    let (mut with_manifests, mut with_metadata) = (BTreeSet::new(), BTreeSet::new());
    for f in files {
        let mut dir = parent(&f.path);
        while !dir.is_empty() {
            let (up, name) = dir.rsplit_once('/').unwrap_or(("", dir));
            match name {
                "manifests" => with_manifests.insert(up.to_string()),
                "metadata" => with_metadata.insert(up.to_string()),
                _ => false,
            };
            dir = up;
        }
    }
    let inside_bundle_dirs = |d: &str| segments(d).any(|s| s == "manifests" || s == "metadata");
    with_manifests.intersection(&with_metadata).filter(|d| !ignored(d) && !inside_bundle_dirs(d)).cloned().collect()
}

/// Every `*.package.yaml` (or `.yml`) outside bundle directories and `catalog-templates/`,
/// sorted: each one's directory is a package-manifest root.
pub fn package_manifest_files<'a>(files: &'a [FileInput], bundle_roots: &[String]) -> Vec<&'a FileInput> {
    let mut found: Vec<&FileInput> = files
        .iter()
        .filter(|f| f.path.ends_with(".package.yaml") || f.path.ends_with(".package.yml"))
        .filter(|f| !ignored(parent(&f.path)) && !bundle_roots.iter().any(|r| is_under(&f.path, r)))
        .collect();
    crate::sort::sort_by(&mut found, |a, b| a.path.cmp(&b.path));
    found
}

/// The nearest `ci.yaml` governing directory `dir`: in `dir` or one of its ancestors.
pub fn ci_yaml_for<'a>(files: &'a [FileInput], dir: &str) -> Option<&'a FileInput> {
    let mut at = dir;
    loop {
        let wanted = join(at, "ci.yaml");
        if let Some(f) = files.iter().find(|f| f.path == wanted) {
            return Some(f);
        }
        if at.is_empty() {
            return None;
        }
        at = parent(at);
    }
}

/// The longest directory that holds every one of `dirs` (`""` when they share none).
pub fn common_dir<'a>(dirs: impl IntoIterator<Item = &'a str>) -> String {
    let mut common: Option<Vec<&str>> = None;
    for d in dirs {
        let parts: Vec<&str> = segments(d).collect();
        common = Some(match common {
            None => parts,
            Some(c) => c.iter().zip(&parts).take_while(|(a, b)| a == b).map(|(a, _)| *a).collect(),
        });
    }
    common.unwrap_or_default().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(paths: &[&str]) -> Vec<FileInput> {
        paths.iter().map(|p| FileInput::new(*p, "")).collect()
    }

    #[test]
    fn a_bundle_is_a_directory_with_manifests_and_metadata() {
        let files = tree(&[
            "ops/a/ci.yaml",
            "ops/a/0.1.0/manifests/a.csv.yaml",
            "ops/a/0.1.0/metadata/annotations.yaml",
            "ops/a/0.2.0/bundle/manifests/a.csv.yaml",
            "ops/a/0.2.0/bundle/metadata/annotations.yaml",
            "ops/a/0.2.0/release-config.yaml",
            "ops/a/0.3.0/certification/manifests/a.csv.yaml",
            "ops/a/0.3.0/certification/metadata/annotations.yaml",
            "ops/a/0.4.0/manifests/a.csv.yaml",
            "ops/a/catalog-templates/x/manifests/t.yaml",
            "ops/a/catalog-templates/x/metadata/t.yaml",
            "ops/a/0.1.0/manifests/sub/metadata/odd.yaml",
        ]);
        assert_eq!(bundle_roots(&files), ["ops/a/0.1.0", "ops/a/0.2.0/bundle", "ops/a/0.3.0/certification"]);
    }

    #[test]
    fn a_bundle_can_be_the_root_itself() {
        assert_eq!(bundle_roots(&tree(&["manifests/c.yaml", "metadata/a.yaml"])), [""]);
    }

    #[test]
    fn package_manifests_lie_outside_bundles() {
        let files =
            tree(&["etcd/etcd.package.yaml", "etcd/0.9.0/csv.yaml", "b/manifests/x.package.yaml", "b/metadata/a.yaml"]);
        let roots = bundle_roots(&files);
        let found: Vec<&str> = package_manifest_files(&files, &roots).iter().map(|f| f.path.as_str()).collect();
        assert_eq!(found, ["etcd/etcd.package.yaml"]);
    }

    #[test]
    fn the_nearest_ci_yaml_governs() {
        let files = tree(&["ci.yaml", "ops/a/ci.yaml"]);
        assert_eq!(ci_yaml_for(&files, "ops/a/0.2.0/bundle").map(|f| f.path.as_str()), Some("ops/a/ci.yaml"));
        assert_eq!(ci_yaml_for(&files, "ops/b/0.1.0").map(|f| f.path.as_str()), Some("ci.yaml"));
        assert!(ci_yaml_for(&tree(&["x.yaml"]), "a").is_none());
    }

    #[test]
    fn paths_and_directories() {
        assert_eq!(
            (parent("a/b/c"), parent("c"), join("", "x"), join("a/", "x")),
            ("a/b", "", "x".into(), "a/x".into())
        );
        assert!(is_under("a/b/c", "a/b") && !is_under("a/bc", "a/b") && is_under("x", ""));
        assert_eq!(common_dir(["ops/a/1", "ops/a/2/bundle"]), "ops/a");
        assert_eq!(common_dir(["x", "y"]), "");
    }
}
