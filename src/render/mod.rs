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

/// The bundles a template's image references are looked up in, by image reference.
#[derive(Debug, Clone, Default)]
pub struct BundleSource {
    by_image: HashMap<String, RenderedBundle>,
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
        self.by_image.get(image)
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
