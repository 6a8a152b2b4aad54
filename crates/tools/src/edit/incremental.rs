//! Plans on a catalog kept open for editing: an [`EditSession`] holds the catalog's validation
//! session (`validate::Session`) and its model, so that a plan reads only the files of the
//! operation's package, re-validates only the files the edits touch (and the packages their blobs
//! name), and rebuilds only the package's model. Its plans equal [`plan_edit`](super::plan_edit)'s
//! (same edits, diff, findings and graphs); applying edits updates it the same way.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::declcfg::FileInput;
use crate::model::Model;
use crate::validate::{Options, Report, Session};

use super::ops::{self, Ctx};
use super::plan::{finish, EditPlan, Sides};
use super::text::{apply_edits, TextEdit};
use super::{EditError, Operation};

/// A catalog open for editing: plans in milliseconds after one full validation.
///
/// ```
/// use olm_catalog::edit::{EditSession, Operation};
/// use olm_catalog::validate::Options;
/// use olm_catalog::FileInput;
/// let yaml = "---\nschema: olm.package\nname: a\ndefaultChannel: stable\n---\nschema: olm.channel\npackage: a\nname: stable\nentries:\n- name: a.v1\n---\nschema: olm.bundle\npackage: a\nname: a.v1\nimage: r/a:1\nproperties:\n- type: olm.package\n  value: {packageName: a, version: 1.0.0}\n";
/// let mut editor = EditSession::open(vec![FileInput::new("a.yaml", yaml)], Options::default());
/// let op: Operation = serde_json::from_str(r#"{"op":"deprecate","package":"a","bundle":"a.v1","message":"old"}"#).unwrap();
/// let plan = editor.plan(&op).unwrap();
/// editor.apply(&plan.edits).unwrap();
/// assert!(editor.model().package("a").unwrap().bundle("a.v1").unwrap().deprecation.is_some());
/// ```
#[derive(Debug, Clone)]
pub struct EditSession {
    session: Session,
    model: Arc<Model>,
}

impl EditSession {
    /// Validate `files` once and keep what a plan needs.
    pub fn open(files: Vec<FileInput>, options: Options) -> EditSession {
        let (session, model) = Session::open_with_model(files, options);
        EditSession { session, model: Arc::new(model) }
    }

    /// The validation report of the catalog as it is now.
    pub fn report(&self) -> &Report {
        self.session.report()
    }

    /// The model of the catalog as it is now.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The validation session underneath (each file's blobs, the packages a file names).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Every file, by path.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.session.files()
    }

    /// Check `op` and preview it, as [`plan_edit`](super::plan_edit) does on the files.
    pub fn plan(&mut self, op: &Operation) -> Result<EditPlan, EditError> {
        let package = op.package().to_string();
        let paths = self.session.package_files(&package);
        let files: Vec<FileInput> =
            paths.iter().filter_map(|p| Some(FileInput::new(p.clone(), self.session.file(p)?.to_vec()))).collect();
        let config = self.session.package_blobs(&package);
        let mut ctx = Ctx::new(&files, &self.model, &config);
        ctx.blob_counts = Some(paths.iter().map(|p| (p.clone(), self.session.blob_count(p))).collect());
        let edits = ops::edits(&mut ctx, op)?;
        let after_files = apply_edits(&files, &edits)?;
        let before_findings = self.session.report().diagnostics.clone();
        let touched: BTreeSet<&str> = edits.iter().map(|e| e.file.as_str()).collect();
        let originals: Vec<(String, Option<Vec<u8>>)> =
            touched.iter().map(|p| (p.to_string(), self.session.file(p).map(<[u8]>::to_vec))).collect();
        for f in after_files.iter().filter(|f| touched.contains(f.path.as_str())) {
            self.session.update(&f.path, f.content.clone());
        }
        let after_findings = self.session.report().diagnostics.clone();
        let mut after = (*self.model).clone();
        replace_package(&mut after, &package, &self.session);
        self.session.renumber(&mut after);
        for (path, content) in originals {
            match content {
                Some(c) => self.session.update(&path, c),
                None => self.session.remove(&path),
            };
        }
        let sides = Sides {
            before: &self.model,
            after: &after,
            before_findings: &before_findings,
            after_findings: &after_findings,
        };
        finish(&files, after_files, edits, sides, op)
    }

    /// Apply edits (a plan's, or its undo) to the catalog.
    pub fn apply(&mut self, edits: &[TextEdit]) -> Result<(), EditError> {
        let paths: BTreeSet<&str> = edits.iter().map(|e| e.file.as_str()).collect();
        let files: Vec<FileInput> =
            paths.iter().filter_map(|p| Some(FileInput::new(p.to_string(), self.session.file(p)?.to_vec()))).collect();
        for f in apply_edits(&files, edits)? {
            self.update(&f.path, f.content);
        }
        Ok(())
    }

    /// Replace (or add) file `path`, re-validating it and rebuilding the packages it names.
    pub fn update(&mut self, path: &str, content: impl Into<Vec<u8>>) -> &Report {
        let before = self.session.file_packages(path);
        self.session.update(path, content);
        self.rebuild(before, path);
        self.session.report()
    }

    /// Remove file `path`.
    pub fn remove(&mut self, path: &str) -> &Report {
        let before = self.session.file_packages(path);
        self.session.remove(path);
        self.rebuild(before, path);
        self.session.report()
    }

    /// Rebuild the packages file `path` named before (`names`) and names now, also new ones.
    fn rebuild(&mut self, mut names: BTreeSet<String>, path: &str) {
        names.extend(self.session.file_packages(path));
        let model = Arc::make_mut(&mut self.model);
        for n in names {
            replace_package(model, &n, &self.session);
        }
        self.session.renumber(model);
    }
}

/// Rebuild package `name` of `model` from the session's blobs (dropped when none is left).
fn replace_package(model: &mut Model, name: &str, session: &Session) {
    let (built, _) = crate::model::build(&session.package_blobs(name));
    let fresh = built.packages.into_iter().find(|p| p.name == name);
    let at = model.packages.binary_search_by(|p| p.name.as_str().cmp(name));
    match (at, fresh) {
        (Ok(i), Some(p)) => model.packages[i] = p,
        (Ok(i), None) => {
            model.packages.remove(i);
        }
        (Err(i), Some(p)) => model.packages.insert(i, p),
        (Err(_), None) => {}
    }
}
