//! Validation: every check `opm validate` makes, with opm's verdict and wording, plus lints opm
//! does not have. Loading and model building report their own problems; this module adds opm's
//! aggregated model checks ([`model_checks`]) and puts everything into one [`Report`].

pub mod error_tree;
mod lint;
mod model_checks;

use serde::Serialize;

use crate::declcfg::{load_files, FileInput, Loaded};
use crate::diagnostic::{sort_diagnostics, Diagnostic};
use crate::model::{self, Model};

pub use error_tree::ErrorTree;

/// Everything validation found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// Whether `opm validate` accepts the catalog: no finding has severity error.
    pub valid: bool,
    /// Every finding, sorted by file, line and column.
    pub diagnostics: Vec<Diagnostic>,
    /// The single error message `opm validate` would print, when invalid (the first problem opm
    /// meets, or its aggregated model-error tree).
    #[serde(skip)]
    pub opm_message: Option<String>,
}

/// The model and the findings of a full validation.
#[derive(Debug, Clone)]
pub struct Validated {
    pub loaded: Loaded,
    pub model: Model,
    pub report: Report,
}

/// What to check beyond `opm validate`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Run our lints (warnings); `false` reports exactly what `opm validate` checks.
    pub lints: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { lints: true }
    }
}

/// Load, build and check a catalog given as in-memory files.
pub fn validate_files(files: &[FileInput]) -> Validated {
    validate_files_with(files, Options::default())
}

/// [`validate_files`] with options.
pub fn validate_files_with(files: &[FileInput], options: Options) -> Validated {
    validate_loaded_with(load_files(files), options)
}

/// Build and check an already loaded catalog.
pub fn validate_loaded(loaded: Loaded) -> Validated {
    validate_loaded_with(loaded, Options::default())
}

/// [`validate_loaded`] with options.
pub fn validate_loaded_with(loaded: Loaded, options: Options) -> Validated {
    let (model, build_diags) = model::build(&loaded.config);
    // Each package's checks and lints are independent: run them in parallel natively.
    let per_package = |p: &model::Package| {
        let mut diags = Vec::new();
        let tree = model_checks::package(p, &mut diags);
        let mut lints = Vec::new();
        if options.lints {
            lints.extend(lint::package(p));
            lints.extend(crate::graph::lint::package(p));
        }
        (tree, diags, lints)
    };
    #[cfg(not(target_arch = "wasm32"))]
    let results: Vec<_> = {
        use rayon::prelude::*;
        model.packages.par_iter().map(per_package).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let results: Vec<_> = model.packages.iter().map(per_package).collect();
    let mut tree = ErrorTree::new("invalid index");
    let mut model_diags = Vec::new();
    let mut lints = Vec::new();
    for (t, d, l) in results {
        tree.child(t);
        model_diags.extend(d);
        lints.extend(l);
    }
    let opm_message = loaded
        .diagnostics
        .iter()
        .chain(build_diags.iter())
        .find(|d| d.is_error())
        .map(|d| d.message.clone())
        .or_else(|| (!tree.is_empty()).then(|| tree.render()));
    let mut diagnostics = loaded.diagnostics.clone();
    diagnostics.extend(build_diags);
    diagnostics.append(&mut model_diags);
    diagnostics.extend(lints);
    sort_diagnostics(&mut diagnostics);
    let valid = !diagnostics.iter().any(Diagnostic::is_error);
    Validated { loaded, model, report: Report { valid, diagnostics, opm_message } }
}
