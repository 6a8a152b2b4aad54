#![warn(missing_docs)]
//! olm-catalog: Operator Lifecycle Manager catalogs as data — read File-Based Catalogs, check
//! them as `opm validate` does (every problem, located), draw their upgrade graphs, compute the
//! upgrades OLM makes, and resolve subscriptions as OLM's resolver does.
//!
//! Data flows one way (see `ARCHITECTURE.md`): files → [`declcfg`] (the raw catalog, every value
//! located) → [`model`] (the checked catalog: versions, skipRanges and properties parsed once)
//! → the analyses, which only read the model: [`validate`], [`graph`], [`mod@resolve`] (whose input,
//! [`Cluster`], holds catalog models and what is installed). The authoring formats (bundle
//! directories, package manifests, templates) enter through [`render`], which makes `declcfg`.
//!
//! # The API in one screen
//!
//! | to | call | get |
//! | --- | --- | --- |
//! | read files | [`FileInput::new`], [`read_catalog`] (a directory, natively) | the files |
//! | load them | [`load_files`] | [`Loaded`]: the raw [`DeclarativeConfig`] and load [`Diagnostic`]s |
//! | check a catalog | [`validate_files`], [`validate_files_with`] | [`Validated`]: the [`Model`] and its [`Report`] |
//! | build the model | [`build_model`] | the [`Model`] and conversion [`Diagnostic`]s |
//! | draw a channel | [`ChannelGraph::new`], [`to_mermaid`], [`to_dot`] | nodes and edges, Mermaid, DOT |
//! | upgrade from a version | [`upgrade_path`] | OLM v0's or v1's [`UpgradePath`] |
//! | resolve a namespace | [`resolve()`] on a [`Cluster`] | a [`Resolution`] or a [`ResolveError`] with its explanation |
//! | pick like OLM v1 | [`resolve_v1`] | a [`V1Pick`] |
//! | check a CSV against OperatorGroups | [`operatorgroup::membership()`] with a [`model::csv::CsvView`] and a [`cluster::operator_groups::GroupCluster`] | an [`operatorgroup::Membership`]: OLM's outcome, reason, annotations |
//! | preview the RBAC OLM generates | [`operatorgroup::rbac::preview_rbac`] for an install mode | an [`operatorgroup::rbac::RbacPreview`]: roles, bindings, what the operator may touch |
//! | render bundle directories, trees, package manifests | [`render::render_input`] | a [`render::Rendered`]: `declcfg` blobs and located findings |
//! | expand a template offline | [`render::template::expand_template`] against a [`render::BundleSource`] | a [`render::Rendered`], findings in the template's lines |
//! | check a CRD upgrade as OLM v1's preflight does | [`crd_safety::read_crd`], [`crd_safety::preflight`] | a [`crd_safety::Preflight`]: crdify's refusals, the preflight's error text |
//! | compare two catalogs | [`diff::diff`], [`diff::diff_with`] | a [`diff::CatalogDiff`]: changes, update-safety rows, findings |
//! | edit a catalog in place (deprecate, promote, remove and re-wire…) | [`edit::plan_edit`], [`edit::apply_edits`] | an [`edit::EditPlan`]: text edits, undo, diff, findings, graphs |
//! | print findings for CI (SARIF, GitHub, Markdown, JUnit) | [`report_formats::render_diagnostics`], [`report_formats::render_diff`] | text |
//! | generate a synthetic catalog of any size | [`synth::Synth::files`] | the files |
//! | write a catalog as opm does | [`declcfg::write::write`], [`declcfg::write::write_by_package`] | JSON or YAML text |
//!
//! Versions, ranges and properties are typed values ([`Version`], [`VersionRange`],
//! [`Property`]); every finding is a [`Diagnostic`] with a stable [`Code`] and a [`Location`].
//!
//! ```
//! use olm_catalog::{validate_files, FileInput};
//!
//! let catalog = "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
//!     schema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1.0.0\n";
//! let result = validate_files(&[FileInput::new("foo/catalog.yaml", catalog)]);
//! assert!(!result.report.valid);
//! let d = &result.report.diagnostics[0];
//! assert_eq!(d.code.as_str(), "entry-without-bundle");
//! assert_eq!((d.location.line, d.location.column), (9, 9));
//! assert_eq!(
//!     d.message,
//!     "no olm.bundle blobs found in package \"foo\" for olm.channel entries [foo.v1.0.0]"
//! );
//! ```

// The layers are crates (ARCHITECTURE.md); this crate is their public API in one place.
pub use olm_catalog_crd_safety::crd_safety;
pub use olm_catalog_format::{declcfg, version};
pub use olm_catalog_model::{cluster, graph, property};
#[cfg(feature = "resolver")]
pub use olm_catalog_resolve::resolve;
pub use olm_catalog_tools::{deps, diff, edit, operatorgroup, render, report_formats};
pub use olm_catalog_validate::{synth, validate};
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub use olm_catalog_wasm as wasm;

pub use cluster::{CatalogSource, Cluster, InstalledCsv, Subscription, SystemConstraint};
#[cfg(not(target_arch = "wasm32"))]
pub use declcfg::{load_dir, read_catalog};
pub use declcfg::{load_files, DeclarativeConfig, FileInput, Loaded};
pub use graph::{to_dot, to_mermaid, upgrade_path, ChannelGraph, MermaidOptions, Semantics, Start, UpgradePath};
pub use model::{build as build_model, Model};
pub use olm_catalog_format::{Code, Diagnostic, Location, Related, Severity};
pub use property::Property;
#[cfg(feature = "resolver")]
pub use resolve::v1::{resolve_v1, V1Pick};
#[cfg(feature = "resolver")]
pub use resolve::{resolve, Outcome, Resolution, ResolveError};
pub use validate::{validate_files, validate_files_with, Report, Validated};
pub use version::{Version, VersionRange};

/// The checked catalog: packages, channels, entries and bundles, built by [`model::build`]
/// (crates/model), and the lint configuration [`model::lint_config`] (crates/lints).
pub mod model {
    pub use olm_catalog_lints::lint_config;
    pub use olm_catalog_model::model::*;
}

/// The pieces of upstream's machinery that upstream's own tests exercise directly (the SAT
/// solver, channel ordering, `olm.constraint` parsing, CEL rules), re-exported so the
/// conformance suites can run those cases and the benchmarks can time one stage alone. Not part
/// of the API: undocumented, and free to change.
#[doc(hidden)]
pub mod internals {
    pub use crate::declcfg::load::{parse_and_decode, parse_only, ParsedTrees};
    pub use crate::graph::graphs_and_paths;
    pub use crate::graph::order::{channel_order, v0_order_links, Links};
    #[cfg(feature = "resolver")]
    pub use crate::resolve::{
        cel::CelRule,
        snapshot::{CatalogIndex, Snapshot},
    };
    /// OLM's SAT layer (`solver` conformance cases).
    #[cfg(feature = "resolver")]
    pub mod solver {
        pub use crate::resolve::solver::{from_ids, message, solve, IdConstraint, SolveError, DEFAULT_CONFLICT_BUDGET};
    }
}
