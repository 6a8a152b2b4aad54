//! The legacy authoring formats turned into whole File-Based Catalog packages:
//! - a **tree of bundle directories** in the community-operators layout
//!   (`operators/<pkg>/<version>/{manifests,metadata}`, also `<version>/bundle/` and
//!   `<version>/certification/`, each operator's `ci.yaml` choosing `replaces-mode` or
//!   `semver-mode`) → `olm.package`, `olm.channel`s and `olm.bundle`s per package (`tree`,
//!   `graph`);
//! - **package manifests** (`<pkg>.package.yaml` + one folder per version) → the same, by the
//!   sqlite loader's conventional mapping (`package_manifest`).
//!
//! Each bundle is rendered as `opm render` renders it; the channels, edges and default channel are
//! what the legacy loaders built, with the CSV's `olm.skipRange` kept. A broken bundle is reported
//! with its path and left out; the rest still renders.

mod blobs;
mod ci;
mod csv;
mod discover;
mod graph;
mod manifests_dir;
#[cfg(test)]
mod minimal;
mod package_manifest;
mod tree;

use crate::declcfg::FileInput;
use crate::render::bundle::{render_bundle_dir, BundleOptions};
use crate::render::Rendered;

pub use ci::UpdateGraph;

/// Whether `files` hold bundle directories or package manifests (the layouts this module reads).
pub fn has_legacy_layout(files: &[FileInput]) -> bool {
    let roots = discover::bundle_roots(files);
    !roots.is_empty() || !discover::package_manifest_files(files, &roots).is_empty()
}

/// Every file of a tree (bundle directories in the community layout, package manifests, or both),
/// paths as the user names them → FBC packages. Each bundle is rendered with `options`.
pub fn render_tree(files: &[FileInput], options: &BundleOptions) -> Rendered {
    let mut out = tree::render_bundles(files, &|root, files| render_bundle_dir(root, files, options));
    let roots = discover::bundle_roots(files);
    for manifest in discover::package_manifest_files(files, &roots) {
        let root = discover::parent(&manifest.path);
        let part = render_package_manifest(root, &discover::files_under(files, root), options);
        out.config.extend(part.config);
        out.diagnostics.extend(part.diagnostics);
    }
    out
}

/// The package-manifest directory `root` (its `<pkg>.package.yaml` and version folders, given in
/// `files`) → one FBC package. Each version folder is rendered as a bundle with `options`.
pub fn render_package_manifest(root: &str, files: &[FileInput], options: &BundleOptions) -> Rendered {
    package_manifest::render(root, files, &|dir, files, annotations| {
        manifests_dir::render(dir, files, annotations, &|root, files| render_bundle_dir(root, files, options))
    })
}
