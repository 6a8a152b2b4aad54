//! `opm render PATH`: what kind of input a set of files is, and rendering it whatever it is.
//!
//! - files named `manifests/...` and `metadata/...` at the top: **one bundle directory** → one
//!   `olm.bundle` (no package or channel blobs, as `opm render` does);
//! - bundle directories or `*.package.yaml` deeper down: a **tree** in the community layout or
//!   package manifests → whole packages ([`legacy`](super::legacy));
//! - anything else: a **File-Based Catalog**, passed through (and migrated when asked).

use crate::declcfg::{load_files_with, FileInput, Values};
use crate::render::bundle::{migrate_to_csv_metadata, render_bundle_dir, BundleOptions};
use crate::render::{legacy, Rendered};

/// What one input of `render` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A File-Based Catalog (a directory of catalog files, or one file).
    Catalog,
    /// One registry+v1 bundle directory.
    BundleDirectory,
    /// Bundle directories in the community layout and/or package manifests.
    Tree,
}

/// The kind of input `files` (paths relative to the input's root) make.
pub fn input_kind(files: &[FileInput]) -> InputKind {
    let top = |dir: &str| files.iter().any(|f| f.path.strip_prefix(dir).is_some_and(|rest| rest.starts_with('/')));
    if top("manifests") && top("metadata") {
        InputKind::BundleDirectory
    } else if legacy::has_legacy_layout(files) {
        InputKind::Tree
    } else {
        InputKind::Catalog
    }
}

/// Render one input, whatever its kind: every problem is reported (located) and what can be
/// rendered is.
pub fn render_input(files: &[FileInput], options: &BundleOptions) -> (InputKind, Rendered) {
    let kind = input_kind(files);
    let rendered = match kind {
        InputKind::BundleDirectory => {
            let outcome = render_bundle_dir("", files, options);
            let mut out = Rendered { diagnostics: outcome.diagnostics, ..Rendered::default() };
            out.config.bundles.extend(outcome.bundle.map(|b| b.blob));
            out
        }
        InputKind::Tree => legacy::render_tree(files, options),
        InputKind::Catalog => {
            // Rendered blobs are written out whole: every value is read.
            let loaded = load_files_with(files, Values::Trees);
            let mut out = Rendered { config: loaded.config, diagnostics: loaded.diagnostics };
            if options.migrate_csv_metadata {
                out.diagnostics.extend(migrate_to_csv_metadata(&mut out.config));
            }
            out
        }
    };
    (kind, rendered)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(paths: &[&str]) -> InputKind {
        let files: Vec<FileInput> = paths.iter().map(|p| FileInput::new(*p, "")).collect();
        input_kind(&files)
    }

    #[test]
    fn a_bundle_directory_has_manifests_and_metadata_at_the_top() {
        assert_eq!(kind(&["manifests/csv.yaml", "metadata/annotations.yaml"]), InputKind::BundleDirectory);
    }

    #[test]
    fn bundle_directories_or_package_manifests_further_down_make_a_tree() {
        assert_eq!(kind(&["foo/0.1.0/manifests/csv.yaml", "foo/0.1.0/metadata/annotations.yaml"]), InputKind::Tree);
        assert_eq!(kind(&["etcd/etcd.package.yaml", "etcd/0.9.0/csv.yaml"]), InputKind::Tree);
    }

    #[test]
    fn anything_else_is_a_catalog() {
        assert_eq!(kind(&["foo/catalog.yaml", "bar/catalog.json"]), InputKind::Catalog);
        assert_eq!(kind(&["manifests/csv.yaml"]), InputKind::Catalog);
    }
}
