//! Rendering: the authoring formats of a catalog turned into File-Based Catalog blobs, offline,
//! as `opm render` and `opm alpha render-template` make them — and with every problem located in
//! the file the author wrote.
//!
//! The output of every path here is raw [`declcfg`] (a [`DeclarativeConfig`]
//! plus [`Diagnostic`]s), which then goes through the same model and checks as a catalog read
//! from files. Nothing here reaches a registry: templates look their bundle images up in a
//! [`BundleSource`] the caller fills from catalogs and bundle directories it already has.
//!
//! The shared vocabulary lives in this file:
//! - [`RenderedBundle`]: one bundle as `opm render` makes it, with what the legacy formats keep
//!   beside the blob (its CSV and its bundle annotations);
//! - [`BundleSource`]: the bundles a template's image references are looked up in.

pub mod bundle;
pub mod convert;
mod input;
pub mod legacy;
mod source;
pub mod template;

pub use input::{input_kind, render_input, InputKind};

use std::collections::HashMap;

use crate::declcfg::{self, DeclarativeConfig, FileInput, Loaded, Node};
use crate::diagnostic::Diagnostic;
use crate::render::bundle::BundleOptions;
use crate::validate::{self, Validated};

/// What a rendering produced: the blobs, and every problem found on the way (a broken input is
/// reported and left out; the rest still renders).
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// The blobs.
    pub config: DeclarativeConfig,
    /// Errors and warnings, each located in the file it comes from.
    pub diagnostics: Vec<Diagnostic>,
}

impl Rendered {
    /// Name every file the blobs and findings point at as the user named the input: each file
    /// `f` of a directory input `name` becomes `name/f`; with `single_file`, the input is one file
    /// and every `f` becomes `name`. So findings (also those of a later validation) say where
    /// the problem is from where the user stands.
    pub fn name_files(&mut self, name: &str, single_file: bool) {
        let rename = |f: &str| -> String {
            if single_file {
                name.to_string()
            } else if name.is_empty() || f.starts_with('/') {
                f.to_string()
            } else if f.is_empty() || f == "." {
                name.to_string()
            } else {
                format!("{}/{f}", name.trim_end_matches('/'))
            }
        };
        let relocate = |s: &mut declcfg::Source| s.file = rename(&s.file).into();
        let c = &mut self.config;
        c.packages.iter_mut().for_each(|b| relocate(&mut b.source));
        c.channels.iter_mut().for_each(|b| relocate(&mut b.source));
        c.bundles.iter_mut().for_each(|b| relocate(&mut b.source));
        c.deprecations.iter_mut().for_each(|b| relocate(&mut b.source));
        c.others.iter_mut().for_each(|b| relocate(&mut b.source));
        for d in &mut self.diagnostics {
            if !d.location.file.is_empty() {
                d.location.file = rename(&d.location.file);
            }
            d.related.iter_mut().for_each(|r| r.location.file = rename(&r.location.file));
        }
    }

    /// The rendered blobs checked as a catalog read from files is checked (`opm validate`'s
    /// checks, plus lints unless `options` turn them off), the rendering's own findings first.
    /// Findings point at the files the blobs came from: a template's lines, a CSV.
    pub fn validate(self, options: validate::Options) -> Validated {
        let loaded = Loaded { config: self.config, diagnostics: self.diagnostics, files: Vec::new() };
        validate::validate_loaded_with(loaded, options)
    }
}

/// The bundle annotations of `metadata/annotations.yaml` that the legacy formats use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotations {
    /// `operators.operatorframework.io.bundle.package.v1`.
    pub package: String,
    /// `operators.operatorframework.io.bundle.channels.v1`, split at commas, trimmed.
    pub channels: Vec<String>,
    /// `operators.operatorframework.io.bundle.channel.default.v1` (empty when unset).
    pub default_channel: String,
}

/// One bundle as `opm render` makes it, plus what the legacy formats keep beside the blob.
#[derive(Debug, Clone)]
pub struct RenderedBundle {
    /// The `olm.bundle` blob, located at the CSV (for a bundle directory) or where it was read.
    pub blob: declcfg::Bundle,
    /// The ClusterServiceVersion manifest, when known (a bundle directory, or an
    /// `olm.bundle.object` holding a CSV).
    pub csv: Option<Node>,
    /// The bundle annotations (empty for a bundle read from a catalog).
    pub annotations: Annotations,
}

/// The bundles a template's image references are looked up in, by image reference. It remembers
/// the images looked up and not found ([`BundleSource::missing`]), so that a caller that can
/// fetch images (the CLI pulls them, as opm does) can add them and expand again.
#[derive(Debug, Clone, Default)]
pub struct BundleSource {
    by_image: HashMap<String, RenderedBundle>,
    missed: std::cell::RefCell<std::collections::BTreeSet<String>>,
}

impl BundleSource {
    /// An empty source.
    pub fn new() -> BundleSource {
        BundleSource::default()
    }

    /// Add one bundle under its image reference (a later bundle with the same image wins).
    pub fn add(&mut self, bundle: RenderedBundle) {
        self.by_image.insert(bundle.blob.image.value.clone(), bundle);
    }

    /// Add the bundles of an input of any kind `render` reads (a catalog, a bundle directory, a
    /// tree), given as its files; returns the problems met while rendering it. Bundles are found
    /// by their `image`, so bundle directories need `options.image_ref_template` to have one.
    pub fn add_input(&mut self, files: &[FileInput], options: &BundleOptions) -> Vec<Diagnostic> {
        let (_, rendered) = render_input(files, options);
        self.add_catalog(&rendered.config);
        rendered.diagnostics
    }

    /// The bundle published under `image`.
    pub fn get(&self, image: &str) -> Option<&RenderedBundle> {
        let found = self.by_image.get(image);
        if found.is_none() {
            self.missed.borrow_mut().insert(image.to_string());
        }
        found
    }

    /// The images looked up since the source was made and not found in it, in name order.
    pub fn missing(&self) -> Vec<String> {
        self.missed.borrow().iter().filter(|i| !self.by_image.contains_key(*i)).cloned().collect()
    }

    /// How many bundles the source holds.
    pub fn len(&self) -> usize {
        self.by_image.len()
    }

    /// Whether the source holds no bundle.
    pub fn is_empty(&self) -> bool {
        self.by_image.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Code, Location};

    #[test]
    fn a_source_remembers_the_images_it_did_not_have() {
        let source = BundleSource::new();
        assert!(source.get("quay.io/a/b:1").is_none() && source.get("quay.io/a/b:0").is_none());
        assert_eq!(source.missing(), ["quay.io/a/b:0", "quay.io/a/b:1"]);
    }

    fn rendered(file: &str) -> Rendered {
        let mut out = Rendered::default();
        out.config.bundles.push(crate::declcfg::Bundle {
            source: declcfg::Source { file: file.into(), pos: declcfg::Pos::default() },
            package: Default::default(),
            name: Default::default(),
            image: Default::default(),
            properties: Vec::new().into(),
            related_images: Default::default(),
            object_count: 0,
            properties_fit: false,
        });
        let at = Location { file: file.to_string(), line: 1, column: 1, pointer: String::new() };
        out.diagnostics.push(Diagnostic::error(Code::BundleNoCsv, "no csv in bundle", at));
        out
    }

    #[test]
    fn files_of_a_directory_input_are_named_under_it() {
        let mut r = rendered("0.1.0/manifests/csv.yaml");
        r.name_files("operators/foo", false);
        assert_eq!(&*r.config.bundles[0].source.file, "operators/foo/0.1.0/manifests/csv.yaml");
        assert_eq!(r.diagnostics[0].location.file, "operators/foo/0.1.0/manifests/csv.yaml");
    }

    #[test]
    fn a_one_file_input_names_everything_after_itself() {
        let mut r = rendered("catalog.yaml");
        r.name_files("catalogs/foo.yaml", true);
        assert_eq!(&*r.config.bundles[0].source.file, "catalogs/foo.yaml");
        assert_eq!(r.diagnostics[0].location.file, "catalogs/foo.yaml");
    }

    #[test]
    fn a_blob_made_for_the_whole_input_is_named_after_it() {
        let mut r = rendered("");
        r.name_files("operators/foo/", false);
        assert_eq!(&*r.config.bundles[0].source.file, "operators/foo/");
    }
}
