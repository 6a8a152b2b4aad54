//! A tree of bundle directories in the community-operators layout → whole FBC packages: every
//! bundle directory rendered as `opm render` renders it, grouped by the package its annotations
//! name, then given the channels, edges and default channel of [`graph`](super::graph), in the
//! mode its operator's `ci.yaml` sets.

use std::collections::BTreeMap;

use super::ci::{self, UpdateGraph};
use super::graph::{self, GraphBundle};
use super::{blobs, csv, discover, DirOutcome};
use crate::declcfg::{self, FileInput, Pos, Spanned};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::property::{self, Property};
use crate::render::{Rendered, RenderedBundle};
use crate::version::Version;

/// One rendered bundle of the tree and where it came from.
struct TreeBundle {
    root: String,
    rendered: RenderedBundle,
    graph: GraphBundle,
}

/// Render every bundle directory of `files` with `render_dir`, then assemble each package.
pub fn render_bundles(files: &[FileInput], render_dir: &dyn Fn(&str, &[FileInput]) -> DirOutcome) -> Rendered {
    let mut out = Rendered::default();
    let mut by_package: BTreeMap<String, Vec<TreeBundle>> = BTreeMap::new();
    for root in discover::bundle_roots(files) {
        let outcome = render_dir(&root, &discover::files_under(files, &root));
        out.diagnostics.extend(outcome.diagnostics);
        match outcome.bundle {
            Some(rendered) => {
                let graph = graph_bundle(&rendered);
                by_package.entry(rendered.blob.package.value.clone()).or_default().push(TreeBundle { root, rendered, graph });
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
    let message = format!("bundle directory {} did not render and is left out of its package", if root.is_empty() { "." } else { root });
    Diagnostic::error(Code::LegacyBundleLeftOut, message, location)
}

/// The version a bundle's `olm.package` property gives, parsed.
pub fn blob_version(blob: &declcfg::Bundle) -> Option<Version> {
    property::parse_all(&blob.properties).into_iter().find_map(|(_, p)| match p {
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
    let icon = graph::head(&graphs, &default).and_then(|h| bundles.iter().find(|b| b.graph.name == h.name)).and_then(|h| {
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
    bundles.sort_by_key(|b| order.iter().position(|n| *n == b.graph.name));
    out.config.bundles.extend(bundles.into_iter().map(|b| b.rendered.blob));
}

/// In semver-mode a bundle needs a version to be placed (`AddBundleToGraph`: `Bundle version %s
/// is not valid`); one without is reported and left out.
fn placeable(b: &TreeBundle, out: &mut Rendered) -> bool {
    if b.graph.version.is_some() {
        return true;
    }
    let written = b.rendered.csv.as_ref().and_then(csv::version).unwrap_or("");
    let message = format!("Bundle version {written} is not valid: in semver-mode bundle {} cannot be placed and is left out", b.graph.name);
    out.diagnostics.push(Diagnostic::error(Code::LegacySemverInvalidVersion, message, b.rendered.blob.source.blob()));
    false
}
