//! A tree of bundle directories in the community-operators layout → whole FBC packages: every
//! bundle directory rendered as `opm render` renders it, grouped by the package its annotations
//! name, then given the channels, edges and default channel of [`graph`](super::graph), in the
//! mode its operator's `ci.yaml` sets.

use std::collections::BTreeMap;

use super::ci::{self, UpdateGraph};
use super::graph::{self, GraphBundle};
use super::{blobs, csv, discover};
use crate::declcfg::{self, FileInput, Pos, Spanned};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::property::{self, Property};
use crate::render::bundle::BundleOutcome;
use crate::render::{Rendered, RenderedBundle};
use crate::version::Version;

/// One rendered bundle of the tree and where it came from.
struct TreeBundle {
    root: String,
    rendered: RenderedBundle,
    graph: GraphBundle,
}

/// Render every bundle directory of `files` with `render_dir`, then assemble each package.
pub fn render_bundles(files: &[FileInput], render_dir: &dyn Fn(&str, &[FileInput]) -> BundleOutcome) -> Rendered {
    let mut out = Rendered::default();
    let mut by_package: BTreeMap<String, Vec<TreeBundle>> = BTreeMap::new();
    for root in discover::bundle_roots(files) {
        let outcome = render_dir(&root, &discover::files_under(files, &root));
        out.diagnostics.extend(outcome.diagnostics);
        match outcome.bundle {
            Some(rendered) => {
                let graph = graph_bundle(&rendered);
                by_package.entry(rendered.blob.package.value.clone()).or_default().push(TreeBundle {
                    root,
                    rendered,
                    graph,
                });
            }
            None => out.diagnostics.push(left_out(&root)),
        }
    }
    for (package, bundles) in by_package {
        assemble(&package, bundles, files, &mut out);
    }
    out
}

pub(super) fn left_out(root: &str) -> Diagnostic {
    let location = Location { file: root.to_string(), ..Location::default() };
    let message = format!(
        "bundle directory {} did not render and is left out of its package",
        if root.is_empty() { "." } else { root }
    );
    Diagnostic::error(Code::LegacyBundleLeftOut, message, location)
}

/// The version a bundle's `olm.package` property gives, parsed.
pub fn blob_version(blob: &declcfg::Bundle) -> Option<Version> {
    property::parse_bundle(blob).into_iter().find_map(|(_, p)| match p {
        Property::Package(pp) => pp.parsed_version.ok(),
        _ => None,
    })
}

/// What the graph rules need from a rendered bundle.
pub fn graph_bundle(b: &RenderedBundle) -> GraphBundle {
    GraphBundle {
        name: b.blob.name.value.clone(),
        channels: b.annotations.channels.clone(),
        default_channel: b.annotations.default_channel.clone(),
        version: blob_version(&b.blob),
        edges: b.csv.as_ref().map(csv::edges).unwrap_or_default(),
    }
}

/// One package: its mode, channels, default channel and icon, then its blobs.
fn assemble(package: &str, mut bundles: Vec<TreeBundle>, files: &[FileInput], out: &mut Rendered) {
    let dir = discover::common_dir(bundles.iter().map(|b| discover::parent(&b.root)));
    let ci_file = discover::ci_yaml_for(files, &dir);
    let mode = match ci_file {
        Some(f) => {
            let (mode, diags) = ci::update_graph(&f.path, &f.content);
            out.diagnostics.extend(diags);
            mode
        }
        None => UpdateGraph::Replaces,
    };
    if mode == UpdateGraph::Semver {
        bundles.retain(|b| placeable(b, out));
    }
    let graphs: Vec<GraphBundle> = bundles.iter().map(|b| b.graph.clone()).collect();
    let at = || blobs::source(if dir.is_empty() { "." } else { &dir }, Pos::default());
    let default = match graph::default_channel(&graphs) {
        Ok((name, _)) => name,
        Err(e) => {
            out.diagnostics.push(Diagnostic::error(Code::LegacyNoDefaultChannel, e.to_string(), at().blob()));
            String::new()
        }
    };
    let icon =
        graph::head(&graphs, &default).and_then(|h| bundles.iter().find(|b| b.graph.name == h.name)).and_then(|h| {
            let (data, media, pos) = csv::icon(h.rendered.csv.as_ref()?)?;
            let location = h.rendered.blob.source.at(pos, "/spec/icon/0");
            let (icon, warning) = blobs::icon(&h.graph.name, &data, &media, location);
            out.diagnostics.extend(warning);
            icon
        });
    out.config.packages.push(blobs::package(at(), package, Spanned::new(default, Pos::default()), icon));
    for planned in graph::channels(&graphs, mode) {
        out.config.channels.push(blobs::channel(at(), package, &planned, Pos::default()));
    }
    let order: Vec<String> = graph::sorted(&graphs).iter().map(|g| g.name.clone()).collect();
    crate::sort::sort_by_key(&mut bundles, |b| order.iter().position(|n| *n == b.graph.name));
    out.config.bundles.extend(bundles.into_iter().map(|b| b.rendered.blob));
}

/// In semver-mode a bundle needs a version to be placed (`AddBundleToGraph`: `Bundle version %s
/// is not valid`); one without is reported and left out.
fn placeable(b: &TreeBundle, out: &mut Rendered) -> bool {
    if b.graph.version.is_some() {
        return true;
    }
    let written = b.rendered.csv.as_ref().and_then(csv::version).unwrap_or("");
    let message = format!(
        "Bundle version {written} is not valid: in semver-mode bundle {} cannot be placed and is left out",
        b.graph.name
    );
    out.diagnostics.push(Diagnostic::error(Code::LegacySemverInvalidVersion, message, b.rendered.blob.source.blob()));
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::legacy::minimal;

    fn bundle_files(dir: &str, name: &str, version: &str, channels: &str, default: &str, spec: &str) -> Vec<FileInput> {
        let csv =
            format!("kind: ClusterServiceVersion\nmetadata:\n  name: {name}\nspec:\n  version: {version}\n{spec}");
        let mut annotations = format!(
            "annotations:\n  operators.operatorframework.io.bundle.package.v1: op\n  operators.operatorframework.io.bundle.channels.v1: {channels}\n"
        );
        if !default.is_empty() {
            annotations += &format!("  operators.operatorframework.io.bundle.channel.default.v1: {default}\n");
        }
        vec![
            FileInput::new(format!("{dir}/manifests/csv.yaml"), csv),
            FileInput::new(format!("{dir}/metadata/annotations.yaml"), annotations),
        ]
    }

    fn tree(ci: &str) -> Vec<FileInput> {
        let mut files = vec![FileInput::new("ops/op/ci.yaml", ci)];
        files.extend(bundle_files("ops/op/1.0.0", "op.v1.0.0", "1.0.0", "stable", "stable", ""));
        files.extend(bundle_files(
            "ops/op/1.1.0/bundle",
            "op.v1.1.0",
            "1.1.0",
            "stable,fast",
            "stable",
            "  replaces: op.v1.0.0\n",
        ));
        files.extend(bundle_files(
            "ops/op/1.2.0",
            "op.v1.2.0",
            "1.2.0",
            "fast",
            "fast",
            "  skips: [op.v1.1.0]\n  icon:\n  - base64data: QUJD\n    mediatype: image/png\n",
        ));
        files
    }

    fn chains(r: &Rendered) -> Vec<(String, Vec<(String, String)>)> {
        r.config
            .channels
            .iter()
            .map(|c| {
                (
                    c.name.value.clone(),
                    c.entries.iter().map(|e| (e.name.value.clone(), e.replaces.value.clone())).collect(),
                )
            })
            .collect()
    }

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn replaces_mode_takes_the_edges_from_the_csvs() {
        let r = render_bundles(&tree("updateGraph: replaces-mode\n"), &minimal::render_bundle_dir);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(
            chains(&r),
            [
                ("fast".to_string(), pairs(&[("op.v1.1.0", "op.v1.0.0"), ("op.v1.2.0", "")])),
                ("stable".to_string(), pairs(&[("op.v1.0.0", ""), ("op.v1.1.0", "op.v1.0.0")])),
            ]
        );
        let p = &r.config.packages[0];
        // The highest version that names a default channel decides it; the icon is its head's.
        assert_eq!(
            (p.name.value.as_str(), p.default_channel.value.as_str(), &*p.source.file),
            ("op", "fast", "ops/op")
        );
        assert_eq!(p.icon.as_ref().map(|i| i.data.to_vec()), Some(b"ABC".to_vec()));
        let names: Vec<&str> = r.config.bundles.iter().map(|b| b.name.value.as_str()).collect();
        assert_eq!(names, ["op.v1.0.0", "op.v1.1.0", "op.v1.2.0"]);
    }

    #[test]
    fn semver_mode_chains_each_channel_by_version() {
        let r = render_bundles(&tree("updateGraph: semver-mode\n"), &minimal::render_bundle_dir);
        assert_eq!(
            chains(&r),
            [
                ("fast".to_string(), pairs(&[("op.v1.1.0", ""), ("op.v1.2.0", "op.v1.1.0")])),
                ("stable".to_string(), pairs(&[("op.v1.0.0", ""), ("op.v1.1.0", "op.v1.0.0")])),
            ]
        );
        // Skips stay.
        assert_eq!(r.config.channels[0].entries[1].skips[0].value, "op.v1.1.0");
    }

    #[test]
    fn in_semver_mode_a_bundle_without_a_valid_version_is_left_out() {
        let mut files = tree("updateGraph: semver-mode\n");
        files.extend(bundle_files("ops/op/bad", "op.bad", "one", "stable", "", ""));
        let r = render_bundles(&files, &minimal::render_bundle_dir);
        let d = r.diagnostics.iter().find(|d| d.code == Code::LegacySemverInvalidVersion).unwrap();
        assert_eq!(d.location.file, "ops/op/bad/manifests/csv.yaml");
        assert!(d.message.starts_with("Bundle version one is not valid"), "{}", d.message);
        assert!(r.config.bundles.iter().all(|b| b.name.value != "op.bad"));
    }

    #[test]
    fn a_broken_bundle_is_reported_with_its_path_and_the_rest_renders() {
        let mut files = tree("");
        files.push(FileInput::new("ops/op/2.0.0/manifests/notes.txt", "no csv here"));
        files.push(FileInput::new("ops/op/2.0.0/metadata/annotations.yaml", "annotations: {}\n"));
        let r = render_bundles(&files, &minimal::render_bundle_dir);
        let d: Vec<&Diagnostic> = r.diagnostics.iter().filter(|d| d.code == Code::LegacyBundleLeftOut).collect();
        assert_eq!((d.len(), d[0].location.file.as_str()), (1, "ops/op/2.0.0"));
        assert_eq!(r.config.bundles.len(), 3);
    }

    #[test]
    fn without_any_default_channel_and_with_several_channels_there_is_none() {
        let mut files = bundle_files("a/1", "op.v1", "1.0.0", "alpha", "", "");
        files.extend(bundle_files("a/2", "op.v2", "2.0.0", "beta", "", ""));
        let r = render_bundles(&files, &minimal::render_bundle_dir);
        let d = r.diagnostics.iter().find(|d| d.code == Code::LegacyNoDefaultChannel).unwrap();
        assert_eq!(d.location.file, "a");
        assert_eq!(r.config.packages[0].default_channel.value, "");
    }
}
