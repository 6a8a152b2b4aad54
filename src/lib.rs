//! olm-catalog: Operator Lifecycle Manager catalogs as data.
//!
//! Layers (data flows one way, see `../shared/spec/design.md`):
//! - [`declcfg`]: the raw, lossless File-Based Catalog with a source map;
//! - [`property`]: typed bundle properties;
//! - [`version`]: blang/semver-compatible versions, ranges and releases;
//! - [`model`]: the checked semantic model built from `declcfg`;
//! - [`validate`]: every check `opm validate` makes, as [`Diagnostic`]s.
//!
//! ```
//! use olm_catalog::declcfg::FileInput;
//! use olm_catalog::validate::validate_files;
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
pub mod diagnostic;
pub mod gotext;
pub mod dns_label;
pub mod graph;
pub mod image_ref;
pub mod model;
pub mod property;
#[cfg(feature = "resolver")]
pub mod resolve;
pub mod validate;
pub mod version;
#[cfg(target_arch = "wasm32")]
pub mod wasm;

pub use diagnostic::{Diagnostic, Location, Severity};
