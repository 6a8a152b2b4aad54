//! Edits of a package maintained as a template: the operation edits the template file in place
//! (the same text edits as on a catalog), and the preview compares the expansion of the edited
//! template with the expansion of the original, both against the same bundles (plus the one an
//! `addBundle` brings in). A basic template (`olm.template.basic`) takes every operation, its
//! blobs being the items of `entries` and its bundles references to their images; a semver
//! template (`olm.semver`) takes `addBundle`, `promote` and `removeBundle` (`semver.rs`);
//! substitutes templates are refused.

use std::borrow::Cow;

use crate::declcfg::{load_files, FileInput};
use crate::model::Model;
use crate::render::template::{expand_template_as, template_kind, TemplateKind};
use crate::render::BundleSource;
use crate::validate::{Options, Validated};

use super::doc::Doc;
use super::emit::Out;
use super::ops::{self, Ctx};
use super::plan::{finish, EditPlan, Sides};
use super::text::apply_edits;
use super::{semver, EditError, NewBundle, Operation};

/// Check `op` against the package a template file maintains, edit the template, and preview the
/// change on its expansion. The template's bundle images are looked up in `bundles` (as
/// `olm-catalog template --bundles` does); an image that is not there leaves its bundle out of
/// both expansions, so the preview shows only what can be rendered offline.
///
/// ```
/// use olm_catalog::edit::{plan_template_edit, Operation};
/// use olm_catalog::render::BundleSource;
/// use olm_catalog::FileInput;
/// let template = "schema: olm.semver\nstable:\n  bundles:\n  - image: r/a:1\n";
/// let bundle = |v: &str| format!(
///     "{{\"schema\":\"olm.bundle\",\"name\":\"a.v{v}\",\"package\":\"a\",\"image\":\"r/a:{v}\",\
///      \"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"a\",\"version\":\"{v}.0.0\"}}}}]}}\n");
/// let mut bundles = BundleSource::new();
/// bundles.add_catalog(&olm_catalog::load_files(&[FileInput::new("b.json", bundle("1"))]).config);
/// let op: Operation = serde_json::from_str(
///     r#"{"op":"addBundle","package":"a","bundle":{"image":"r/a:2","name":"a.v2","version":"2.0.0"},"channels":["stable"]}"#,
/// ).unwrap();
/// let plan = plan_template_edit(&FileInput::new("semver.yaml", template), &bundles, &op).unwrap();
/// assert_eq!(
///     String::from_utf8(plan.files[0].content.clone()).unwrap(),
///     "schema: olm.semver\nstable:\n  bundles:\n  - image: r/a:1\n  - image: r/a:2\n"
/// );
/// assert!(plan.graphs.iter().any(|g| g.channel == "stable-v2.0" && g.after.is_some()));
/// ```
pub fn plan_template_edit(template: &FileInput, bundles: &BundleSource, op: &Operation) -> Result<EditPlan, EditError> {
    let kind = template_kind(template).ok_or_else(|| {
        EditError::refused(op, format!("{} is not a basic, semver or substitutes template", template.path))
    })?;
    plan_template(template, kind, bundles, op)
}

/// The template among `files` that expands to the operation's package, with the bundles its
/// images are looked up in (`bundles` and the catalog files that are not templates).
pub(crate) fn template_for(
    files: &[FileInput],
    bundles: &BundleSource,
    op: &Operation,
) -> Option<(usize, TemplateKind, BundleSource)> {
    let templates: Vec<(usize, TemplateKind)> =
        files.iter().enumerate().filter_map(|(i, f)| Some((i, template_kind(f)?))).collect();
    if templates.is_empty() {
        return None;
    }
    let others: Vec<FileInput> = files
        .iter()
        .enumerate()
        .filter(|(i, _)| !templates.iter().any(|t| t.0 == *i))
        .map(|(_, f)| f.clone())
        .collect();
    let mut source = bundles.clone();
    source.add_catalog(&load_files(&others).config);
    let package = op.package();
    templates.into_iter().find_map(|(i, kind)| {
        let c = expand_template_as(kind, &files[i], &source).config;
        let names = c.packages.iter().any(|p| p.name.value == package)
            || c.channels.iter().any(|ch| ch.package.value == package)
            || c.bundles.iter().any(|b| b.package.value == package);
        names.then_some(i).map(|i| (i, kind, source.clone()))
    })
}

fn expand(kind: TemplateKind, file: &FileInput, bundles: &BundleSource) -> Validated {
    expand_template_as(kind, file, bundles).validate(Options::default())
}

/// Plan `op` on `template` (of `kind`), previewed on its expansions.
pub(crate) fn plan_template(
    template: &FileInput,
    kind: TemplateKind,
    bundles: &BundleSource,
    op: &Operation,
) -> Result<EditPlan, EditError> {
    let before = expand(kind, template, bundles);
    let files = std::slice::from_ref(template);
    let mut new_bundles = Vec::new();
    let edits =
        match kind {
            TemplateKind::Basic => {
                let mut ctx = Ctx::new(files, &before.model, &before.loaded.config);
                ctx.basic_template = true;
                let edits = ops::edits(&mut ctx, op)?;
                new_bundles = ctx.new_bundles;
                edits
            }
            TemplateKind::Semver => {
                let text = String::from_utf8(template.content.clone()).map_err(|_| EditError::Unreadable {
                    file: template.path.clone(),
                    line: 1,
                    reason: "not UTF-8".into(),
                })?;
                semver::edits(&Doc::new(&template.path, text)?, &before.model, op, &mut new_bundles)?
            }
            TemplateKind::Substitutes => return Err(EditError::refused(
                op,
                "substitutes templates are not edited: edit the catalog they substitute into, or its basic template",
            )),
        };
    let after_files = apply_edits(files, &edits)?;
    let source = with_new_bundles(op, bundles, new_bundles)?;
    let after = expand(kind, &after_files[0], &source);
    if kind == TemplateKind::Semver {
        check_placed(op, &before.model, &after.model)?;
    }
    let sides = Sides::of(&before, &after);
    finish(files, after_files, edits, sides, op)
}

/// `bundles` and the bundles an operation brings in (an image already among `bundles` must be
/// the same bundle).
fn with_new_bundles<'b>(
    op: &Operation,
    bundles: &'b BundleSource,
    new: Vec<Out>,
) -> Result<Cow<'b, BundleSource>, EditError> {
    let mut source = Cow::Borrowed(bundles);
    for blob in new {
        let Some(b) = ops::rendered_bundle(&blob) else {
            return Err(EditError::Invalid { op: op.name().into(), reason: "the bundle blob does not load".into() });
        };
        match bundles.get(&b.blob.image.value) {
            Some(known) if known.blob.name.value != b.blob.name.value => {
                return Err(EditError::refused(
                    op,
                    format!(
                        "image {:?} is bundle {:?} among the given bundles, not {:?}",
                        b.blob.image.value, known.blob.name.value, b.blob.name.value
                    ),
                ))
            }
            Some(_) => {}
            None => source.to_mut().add(b),
        }
    }
    Ok(source)
}

/// A semver template places a bundle by its version: each channel the operation names beyond a
/// maturity (`stable-v1`) must be one the bundle lands in.
fn check_placed(op: &Operation, before: &Model, after: &Model) -> Result<(), EditError> {
    let package = op.package();
    let (name, channels) = match op {
        Operation::Promote { bundle, channel, .. } => (bundle.clone(), vec![channel.clone()]),
        Operation::AddBundle { bundle: nb, channels, .. } => {
            let name = match nb {
                NewBundle::Image { name, .. } => name.clone(),
                NewBundle::Blob { .. } => match before.package(package) {
                    Some(p) => ops::bundle_blob_of(op, p, nb)?.0,
                    None => return Ok(()),
                },
            };
            (name, channels.clone())
        }
        _ => return Ok(()),
    };
    let Some(p) = after.package(package) else { return Ok(()) };
    let landed: Vec<&str> = p.channels.iter().filter(|c| c.entry(&name).is_some()).map(|c| c.name.as_str()).collect();
    for c in channels.iter().filter(|c| semver::archetype_of(c).is_some_and(|a| !c.eq_ignore_ascii_case(a))) {
        if !landed.contains(&c.as_str()) {
            return Err(EditError::refused(
                op,
                format!(
                    "the semver template places {name:?} by its version, into {}, not {c:?}",
                    if landed.is_empty() { "no channel".to_string() } else { landed.join(", ") }
                ),
            ));
        }
    }
    Ok(())
}
