#![warn(missing_docs)]
// The WebAssembly build (scripts/build-pkg.sh, nightly) sets `olm_wasm_size` to compile the cold
// code of the on-demand modules (render, templates, diff, edits, OperatorGroups, RBAC, deps, report
// formats, writing FBC, Mermaid and DOT; the resolver's explanations, messages, CEL rules' checks
// and glue, OLM v1's pick and the problem's JSON, but never its search) and the core's cold code
// (the graph picture and its SVG, the lint configuration, OLM v1 lints, the opm error tree's text,
// baselines, `.indexignore`) for size: `#[cfg_attr(olm_wasm_size, optimize(size))]` on their
// functions, with `inline(never)` where a hot caller would otherwise absorb them
// (docs/performance.md, "WebAssembly size"). Stable and native builds never set it. Node's module,
// whose size has no target, is built with `olm_wasm_speed` instead (the standard library's sort at
// each call site, `sort.rs`; docs/performance.md, "(seventh session): the resolver in Node").
#![cfg_attr(olm_wasm_size, feature(optimize_attribute))]
// Stable since the 1.101 nightlies; kept (and its lint allowed) for the nightlies before them.
#![cfg_attr(olm_wasm_size, allow(stable_features))]
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

pub mod cluster;
pub mod declcfg;
pub mod deps;
mod diagnostic;
pub mod diff;
mod dns_label;
pub mod edit;
mod gotext;
pub mod graph;
mod hash;
mod image_ref;
pub mod model;
pub mod operatorgroup;
pub mod property;
pub mod render;
pub mod report_formats;
#[cfg(feature = "resolver")]
pub mod resolve;
mod sort;
pub mod synth;
pub mod validate;
pub mod version;
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod wasm;
/// The byte copies of Node's WebAssembly module (`wasm/copy.rs`), compiled natively for their
/// unit tests.
#[cfg(all(test, not(target_arch = "wasm32")))]
#[path = "wasm/copy.rs"]
mod wasm_copy;

pub use cluster::{CatalogSource, Cluster, InstalledCsv, Subscription, SystemConstraint};
#[cfg(not(target_arch = "wasm32"))]
pub use declcfg::{load_dir, read_catalog};
pub use declcfg::{load_files, DeclarativeConfig, FileInput, Loaded};
pub use diagnostic::{Code, Diagnostic, Location, Related, Severity};
pub use graph::{to_dot, to_mermaid, upgrade_path, ChannelGraph, MermaidOptions, Semantics, Start, UpgradePath};
pub use model::{build as build_model, Model};
pub use property::Property;
#[cfg(feature = "resolver")]
pub use resolve::v1::{resolve_v1, V1Pick};
#[cfg(feature = "resolver")]
pub use resolve::{resolve, Outcome, Resolution, ResolveError};
pub use validate::{validate_files, validate_files_with, Report, Validated};
pub use version::{Version, VersionRange};

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
