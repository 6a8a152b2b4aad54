//! Catalog edits that rewrite the files in place: an [`Operation`] (plain data: deprecate a
//! bundle, promote it into a channel, remove it and re-wire its neighbours...) is checked
//! against the model, turned into [`TextEdit`]s on the blobs it touches (every other byte of
//! every file stays as it was: comments, key order, quoting, indentation), and previewed by
//! [`plan_edit`]: the catalog diff of before and after, the update-safety and validation
//! findings the change introduces, and the affected channels' graphs before and after.
//! [`apply_edits`] writes the edits into in-memory files; the plan carries the edits that undo
//! them.
//!
//! A package maintained as a template is edited in its template ([`plan_template_edit`], or
//! [`plan_edit_with`] when the template is among the files): a basic template
//! (`olm.template.basic`) takes every operation (its blobs are the items of `entries`, a new
//! bundle is an `{schema: olm.bundle, image}` reference); a semver template (`olm.semver`) takes
//! `addBundle` (the image into the list of each channel's maturity), `promote` (into another
//! maturity's list) and `removeBundle` (out of every list), and refuses `setEdges` (the template
//! generates the edges), `deprecate`/`undeprecate` (its schema has no place for them) and the
//! channel operations (it generates the channels and the default one). The preview is computed
//! on the expansions of the original and the edited template.
//!
//! Layout: `text.rs` (edits, applying and inverting them), `emit.rs` (new text in a file's
//! style), `doc.rs` (one file's node ranges and the edits on them), `ops.rs` (each operation's
//! checks and edits), `edges.rs` (edge policies and re-wiring), `plan.rs` (the preview), `template.rs` (templates:
//! which file, the expansions), `semver.rs` (the semver template's lists).

mod doc;
mod edges;
mod emit;
mod entry;
mod incremental;
mod ops;
mod plan;
mod semver;
mod template;
mod text;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use entry::{plan_edit, plan_edit_with};
pub use incremental::EditSession;
pub use plan::{plan_on, EditPlan, GraphChange};
pub use template::plan_template_edit;
pub use text::{apply_edits, invert, lsp_position, ByteRange, LspPosition, LspRange, TextEdit};

/// One edit of a catalog, as plain data (`{"op": "deprecate", "package": …}` in JSON).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase", rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum Operation {
    /// Add a new bundle to one or more channels, its edges chosen by `edge`.
    AddBundle {
        /// The package.
        package: String,
        /// The bundle: a pasted blob, or an image with its name and version.
        bundle: NewBundle,
        /// The channels to list it in (created when missing).
        channels: Vec<String>,
        /// How its upgrade edges are chosen.
        #[serde(default)]
        edge: EdgePolicy,
    },
    /// List an existing bundle in another channel.
    Promote {
        /// The package.
        package: String,
        /// The bundle.
        bundle: String,
        /// The channel (created when missing).
        channel: String,
        /// How its edges in that channel are chosen.
        #[serde(default)]
        edge: EdgePolicy,
    },
    /// Create a channel listing existing bundles (in version order, edges by `edge`).
    CreateChannel {
        /// The package.
        package: String,
        /// The new channel.
        channel: String,
        /// Its bundles (at least one).
        bundles: Vec<String>,
        /// How each entry's edges are chosen.
        #[serde(default)]
        edge: EdgePolicy,
    },
    /// Rename a channel (and the default channel and deprecations that name it).
    RenameChannel {
        /// The package.
        package: String,
        /// The channel.
        channel: String,
        /// Its new name.
        to: String,
    },
    /// Remove a channel (not the default one; no bundle may be left in no channel).
    RemoveChannel {
        /// The package.
        package: String,
        /// The channel.
        channel: String,
    },
    /// Set the package's default channel.
    SetDefaultChannel {
        /// The package.
        package: String,
        /// An existing channel.
        channel: String,
    },
    /// Deprecate a bundle, a channel (one of them at most) or else the package.
    Deprecate {
        /// The package.
        package: String,
        /// The bundle to deprecate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bundle: Option<String>,
        /// The channel to deprecate.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        channel: Option<String>,
        /// Why.
        message: String,
    },
    /// Remove a deprecation.
    Undeprecate {
        /// The package.
        package: String,
        /// The bundle.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bundle: Option<String>,
        /// The channel.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        channel: Option<String>,
    },
    /// Remove a bundle from every channel and the catalog; entries that replaced or skipped it
    /// are re-wired so that every version that reached it still reaches each channel's head. A
    /// name only entries list (no bundle has it: `entry-without-bundle`) is removed from them.
    RemoveBundle {
        /// The package.
        package: String,
        /// The bundle.
        bundle: String,
    },
    /// Set an entry's edges; a field left out stays as it is, an empty one removes the key.
    SetEdges {
        /// The package.
        package: String,
        /// The channel.
        channel: String,
        /// The entry's bundle.
        bundle: String,
        /// The new `replaces` (empty: none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        replaces: Option<String>,
        /// The new `skips` (empty: none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skips: Option<Vec<String>>,
        /// The new `skipRange` (empty: none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skip_range: Option<String>,
    },
}

impl Operation {
    /// The `op` name.
    pub fn name(&self) -> &'static str {
        match self {
            Operation::AddBundle { .. } => "addBundle",
            Operation::Promote { .. } => "promote",
            Operation::CreateChannel { .. } => "createChannel",
            Operation::RenameChannel { .. } => "renameChannel",
            Operation::RemoveChannel { .. } => "removeChannel",
            Operation::SetDefaultChannel { .. } => "setDefaultChannel",
            Operation::Deprecate { .. } => "deprecate",
            Operation::Undeprecate { .. } => "undeprecate",
            Operation::RemoveBundle { .. } => "removeBundle",
            Operation::SetEdges { .. } => "setEdges",
        }
    }

    /// The package the operation edits.
    pub fn package(&self) -> &str {
        match self {
            Operation::AddBundle { package, .. }
            | Operation::Promote { package, .. }
            | Operation::CreateChannel { package, .. }
            | Operation::RenameChannel { package, .. }
            | Operation::RemoveChannel { package, .. }
            | Operation::SetDefaultChannel { package, .. }
            | Operation::Deprecate { package, .. }
            | Operation::Undeprecate { package, .. }
            | Operation::RemoveBundle { package, .. }
            | Operation::SetEdges { package, .. } => package,
        }
    }
}

/// A bundle to add.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged, rename_all_fields = "camelCase", deny_unknown_fields)]
pub enum NewBundle {
    /// An `olm.bundle` blob: JSON or YAML text, or a JSON object.
    Blob {
        /// The blob.
        blob: serde_json::Value,
    },
    /// A bundle known by its image, name and version: the blob gets an `olm.package` property.
    Image {
        /// The bundle image.
        image: String,
        /// The bundle name.
        name: String,
        /// Its version.
        version: String,
    },
}

/// How a new entry's upgrade edges are chosen.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum EdgePolicy {
    /// `replaces` the channel's current head (whose version must be lower).
    #[default]
    Replaces,
    /// A `skipRange` from the channel's lowest version up to the new one, and `skips` of the
    /// current head (opm finds the one head by `replaces` and `skips` only).
    SkipRange,
    /// As the semver template: `replaces` the highest entry of an earlier minor, `skips` the
    /// other earlier entries of the same major.
    Semver,
    /// Exactly these edges.
    Explicit {
        /// `replaces`.
        #[serde(default)]
        replaces: Option<String>,
        /// `skips`.
        #[serde(default)]
        skips: Vec<String>,
        /// `skipRange`.
        #[serde(default)]
        skip_range: Option<String>,
    },
}

/// Why an operation does not apply, or its edits do not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub enum EditError {
    /// No such package.
    NoPackage {
        /// The package.
        package: String,
    },
    /// No such channel in the package.
    NoChannel {
        /// The package.
        package: String,
        /// The channel.
        channel: String,
    },
    /// No such bundle in the package (or channel).
    NoBundle {
        /// The package.
        package: String,
        /// The bundle.
        bundle: String,
        /// The channel, when the bundle was looked for in one.
        channel: Option<String>,
    },
    /// The operation does not apply to this catalog, and why.
    Refused {
        /// The operation.
        op: String,
        /// Why.
        reason: String,
        /// Where the thing in the way is (`file:line:col`), when it has a place.
        at: Option<String>,
    },
    /// Removing the bundle would leave these versions unable to reach a channel's head.
    Stranded {
        /// The bundle.
        bundle: String,
        /// The channel.
        channel: String,
        /// The entries that would be stranded.
        entries: Vec<String>,
    },
    /// The operation itself is malformed (a missing or contradictory field).
    Invalid {
        /// The operation.
        op: String,
        /// What is wrong.
        reason: String,
    },
    /// A file's text could not be read for editing.
    Unreadable {
        /// The file.
        file: String,
        /// The line.
        line: u32,
        /// Why.
        reason: String,
    },
    /// An edit does not apply to its file.
    BadEdit {
        /// The file.
        file: String,
        /// Why.
        reason: String,
    },
}

impl EditError {
    /// The stable code (`no-package`, `stranded`, …), as serialised.
    pub fn code(&self) -> &'static str {
        match self {
            EditError::NoPackage { .. } => "no-package",
            EditError::NoChannel { .. } => "no-channel",
            EditError::NoBundle { .. } => "no-bundle",
            EditError::Refused { .. } => "refused",
            EditError::Stranded { .. } => "stranded",
            EditError::Invalid { .. } => "invalid",
            EditError::Unreadable { .. } => "unreadable",
            EditError::BadEdit { .. } => "bad-edit",
        }
    }

    pub(crate) fn refused(op: &Operation, reason: impl Into<String>) -> EditError {
        EditError::Refused { op: op.name().into(), reason: reason.into(), at: None }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditError::NoPackage { package } => write!(f, "package {package:?} not found"),
            EditError::NoChannel { package, channel } => write!(f, "package {package:?} has no channel {channel:?}"),
            EditError::NoBundle { package, bundle, channel: None } => {
                write!(f, "package {package:?} has no bundle {bundle:?}")
            }
            EditError::NoBundle { package, bundle, channel: Some(c) } => {
                write!(f, "channel {c:?} of package {package:?} has no entry {bundle:?}")
            }
            EditError::Refused { op, reason, at: Some(at) } => write!(f, "{op}: {reason} ({at})"),
            EditError::Refused { op, reason, at: None } => write!(f, "{op}: {reason}"),
            EditError::Stranded { bundle, channel, entries } => write!(
                f,
                "removing {bundle:?} would leave {} in channel {channel:?} unable to reach the head: {}",
                if entries.len() == 1 { "1 entry" } else { "these entries" },
                crate::gotext::join_capped(entries, ", ", 10)
            ),
            EditError::Invalid { op, reason } => write!(f, "{op}: {reason}"),
            EditError::Unreadable { file, line, reason } => write!(f, "{file}:{line}: cannot edit this file: {reason}"),
            EditError::BadEdit { file, reason } => write!(f, "{file}: {reason}"),
        }
    }
}

impl std::error::Error for EditError {}

/// The [`NewBundle`] a rendered bundle directory makes (`files` relative to the directory:
/// `manifests/…`, `metadata/annotations.yaml`), as `opm render` renders it.
pub fn bundle_from_directory(files: &[crate::declcfg::FileInput]) -> Result<NewBundle, EditError> {
    use crate::render::{render_input, InputKind};
    let (kind, rendered) = render_input(files, &crate::render::bundle::BundleOptions::default());
    let bad = |reason: String| EditError::Invalid { op: "addBundle".into(), reason };
    if kind != InputKind::BundleDirectory || rendered.config.bundles.len() != 1 {
        let first = rendered.diagnostics.first().map_or(String::new(), |d| format!(": {}", d.message));
        return Err(bad(format!("not a bundle directory{first}")));
    }
    let text = crate::declcfg::write::write(&rendered.config, crate::declcfg::write::Format::Json);
    Ok(NewBundle::Blob { blob: serde_json::Value::String(text) })
}
