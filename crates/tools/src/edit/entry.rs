//! The entry points: a plan on catalog files, where a package may be maintained as a template
//! among them (then the template is edited, `template.rs`), else the catalog (`plan.rs`).

use crate::declcfg::FileInput;
use crate::render::BundleSource;
use crate::validate::validate_files;

use super::plan::{plan_on, EditPlan};
use super::{EditError, Operation};

/// Check `op` against the catalog in `files`, compute its edits, and preview the result.
///
/// ```
/// use olm_catalog::edit::{plan_edit, Operation};
/// use olm_catalog::FileInput;
/// let yaml = "---\nschema: olm.package\nname: a\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: a\nname: stable\nentries:\n- name: a.v1\n---\nschema: olm.bundle\npackage: a\nname: a.v1\nimage: r/a:1\nproperties:\n- type: olm.package\n  value: {packageName: a, version: 1.0.0}\n";
/// let files = vec![FileInput::new("a.yaml", yaml)];
/// let op: Operation = serde_json::from_str(r#"{"op":"deprecate","package":"a","bundle":"a.v1","message":"use v2"}"#).unwrap();
/// let plan = plan_edit(&files, &op).unwrap();
/// assert!(String::from_utf8(plan.files[0].content.clone()).unwrap().ends_with(
///     "---\nschema: olm.deprecations\npackage: a\nentries:\n- reference:\n    schema: olm.bundle\n    name: a.v1\n  message: use v2\n"));
/// ```
pub fn plan_edit(files: &[FileInput], op: &Operation) -> Result<EditPlan, EditError> {
    plan_edit_with(files, &BundleSource::new(), op)
}

/// [`plan_edit`], where a package may be maintained as a template among `files`: when a basic
/// (`olm.template.basic`) or semver (`olm.semver`) template expands to the operation's package,
/// the template is edited (see [`plan_template_edit`](super::plan_template_edit)), its bundle images looked up in `bundles`
/// and in the catalog files beside it.
pub fn plan_edit_with(files: &[FileInput], bundles: &BundleSource, op: &Operation) -> Result<EditPlan, EditError> {
    if let Some((i, kind, source)) = super::template::template_for(files, bundles, op) {
        return super::template::plan_template(&files[i], kind, &source, op);
    }
    let before = validate_files(files);
    plan_on(files, &before, op)
}
