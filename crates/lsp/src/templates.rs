//! Catalog templates (basic, semver, substitutes) among the workspace's files, served as
//! documents: each is expanded as `olm-catalog template` expands it, its bundle images looked up
//! in the lint configuration's `bundles` (paths from the configuration file's folder), and the
//! expansion is validated with the workspace's options (lint levels included). The template's
//! own problems and its expansion's findings are published on the template's lines: the
//! expansion keeps them (a blob the template writes is where the template writes it, a bundle
//! brought in for an image is at the element naming the image). Findings located in other files
//! (a bundle source's own) are that file's business and are left out.
//!
//! Templates are served when the configuration names `bundles`: without sources every image of
//! a template is missing, and a catalog folder that keeps templates beside their output would be
//! buried in those findings.
//!
//! A source outside the workspace folder is read once per configuration; one inside it is read
//! from the catalog as it is now (open documents included), and a change there expands the
//! templates again. A template's findings are kept until its text or its sources change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::declcfg::{read_catalog, FileInput};
use crate::edit::EditSession;
use crate::render::bundle::BundleOptions;
use crate::render::template::{expand_template, template_kind};
use crate::render::BundleSource;
use crate::validate::Options;
use crate::Diagnostic;

/// The templates of the workspace and where their bundles come from.
#[derive(Default)]
pub struct Templates {
    /// Whether the configuration names sources (templates are served only then).
    enabled: bool,
    /// Sources inside the workspace folder, as catalog paths (`""`: the whole folder).
    inside: Vec<String>,
    /// The bundles of the sources outside it.
    outside: BundleSource,
    /// Each template file's findings (`None`: to be computed).
    files: BTreeMap<String, Option<Vec<Diagnostic>>>,
}

impl Templates {
    /// The sources `bundles` names (paths relative to `config_dir`), for the catalog at `root`.
    pub fn new(root: &Path, config_dir: Option<&Path>, bundles: &[String]) -> Templates {
        let mut t = Templates { enabled: !bundles.is_empty(), ..Templates::default() };
        let Some(dir) = config_dir else { return Templates::default() };
        for b in bundles {
            let path = normalize(&dir.join(b));
            match path.strip_prefix(root) {
                Ok(rel) => t.inside.push(rel.to_string_lossy().replace('\\', "/")),
                Err(_) => {
                    if let Ok(mut files) = read_catalog(&path) {
                        let name = path.display().to_string();
                        let single = path.is_file();
                        for f in &mut files {
                            f.path = if single { name.clone() } else { format!("{name}/{}", f.path) };
                        }
                        t.outside.add_input(&files, &BundleOptions::default());
                    }
                }
            }
        }
        t
    }

    /// Every template among the catalog's files.
    pub fn scan(&mut self, editor: &EditSession) {
        for (path, content) in editor.files() {
            self.changed(path, content);
        }
    }

    /// File `path` now holds `content` (or is gone: `None`).
    pub fn changed(&mut self, path: &str, content: &[u8]) {
        if !self.enabled {
            return;
        }
        if self.is_source(path) {
            self.files.values_mut().for_each(|f| *f = None);
        }
        if template_kind(&FileInput::new(path, content.to_vec())).is_some() {
            self.files.insert(path.to_string(), None);
        } else {
            self.files.remove(path);
        }
    }

    /// File `path` is gone.
    pub fn removed(&mut self, path: &str) {
        if self.is_source(path) {
            self.files.values_mut().for_each(|f| *f = None);
        }
        self.files.remove(path);
    }

    /// Whether `path` is a template.
    pub fn is_template(&self, path: &str) -> bool {
        self.files.contains_key(path)
    }

    fn is_source(&self, path: &str) -> bool {
        self.inside
            .iter()
            .any(|p| p.is_empty() || path == p || path.strip_prefix(p.as_str()).is_some_and(|r| r.starts_with('/')))
    }

    /// Each template's findings, computed for those whose text or sources changed.
    pub fn findings(&mut self, editor: &EditSession) -> impl Iterator<Item = (&String, &Vec<Diagnostic>)> {
        if self.files.values().any(Option::is_none) {
            let source = self.source(editor);
            let options = editor.session().options().clone();
            for (path, findings) in self.files.iter_mut().filter(|(_, f)| f.is_none()) {
                let content = editor.session().file(path).unwrap_or_default().to_vec();
                *findings = Some(expand(FileInput::new(path.clone(), content), &source, &options));
            }
        }
        self.files.iter().filter_map(|(p, f)| Some((p, f.as_ref()?)))
    }

    /// The bundles of every source: those outside, then the catalog files inside (not templates).
    pub fn source(&self, editor: &EditSession) -> BundleSource {
        let mut source = self.outside.clone();
        if !self.inside.is_empty() {
            let files: Vec<FileInput> = editor
                .files()
                .filter(|(p, _)| self.is_source(p) && !self.is_template(p))
                .map(|(p, c)| FileInput::new(p, c.to_vec()))
                .collect();
            source.add_input(&files, &BundleOptions::default());
        }
        source
    }
}

/// The image reference under `pos` in a template's `text` (the value of an `image` key on that
/// line, YAML or JSON), with its range.
pub fn image_at(text: &str, pos: lsp_types::Position) -> Option<(String, lsp_types::Range)> {
    let lines = crate::convert::Lines::new(text);
    let line = lines.line(pos.line);
    let key = line.find("image\"").map(|i| i + 6).or_else(|| line.find("image:").map(|i| i + 5))?;
    let colon = key + line[key..].find(':')?;
    let value = colon + 1 + line[colon + 1..].len() - line[colon + 1..].trim_start().len();
    let column = line[..value].chars().count() as u32 + 1;
    let range = lines.token(crate::declcfg::Pos { line: pos.line + 1, column });
    let (start, end) = (lines.offset(range.start), lines.offset(range.end));
    (crate::convert::contains(&range, pos) && start < end).then(|| (text[start..end].to_string(), range))
}

/// The findings of template `file` and its expansion against `source`, located in the template.
pub fn expand(file: FileInput, source: &BundleSource, options: &Options) -> Vec<Diagnostic> {
    let validated = expand_template(&file, source).validate(options.clone());
    validated.report.diagnostics.into_iter().filter(|d| d.location.file == file.path).collect()
}

/// `path` without `.` and `..` components (the file need not exist).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(v: &str) -> String {
        format!(
            "{{\"schema\":\"olm.bundle\",\"name\":\"a.v{v}\",\"package\":\"a\",\"image\":\"r/a:{v}\",\
             \"properties\":[{{\"type\":\"olm.package\",\"value\":{{\"packageName\":\"a\",\"version\":\"{v}\"}}}}]}}\n"
        )
    }

    const SEMVER: &str = "schema: olm.semver\nstable:\n  bundles:\n  - image: r/a:1.0.0\n  - image: r/a:1.0.1\n";

    fn session(files: &[(&str, String)]) -> EditSession {
        EditSession::open(files.iter().map(|(p, c)| FileInput::new(*p, c.clone())).collect(), Options::default())
    }

    #[test]
    fn a_template_is_expanded_against_the_sources_in_the_folder() {
        let editor = session(&[("sem.yaml", SEMVER.into()), ("bundles/b.json", bundle("1.0.0") + &bundle("1.0.1"))]);
        let mut t = Templates::new(Path::new("/w"), Some(Path::new("/w")), &["./bundles".into()]);
        assert_eq!(t.inside, ["bundles"]);
        t.scan(&editor);
        let all: Vec<_> = t.findings(&editor).map(|(p, f)| (p.clone(), f.len())).collect();
        assert_eq!(all, [("sem.yaml".to_string(), 0)]);
    }

    #[test]
    fn an_image_no_source_has_is_located_at_its_element() {
        let editor = session(&[("sem.yaml", SEMVER.into()), ("bundles/b.json", bundle("1.0.0"))]);
        let mut t = Templates::new(Path::new("/w"), Some(Path::new("/w/sub")), &["../bundles".into()]);
        t.scan(&editor);
        let (_, findings) = t.findings(&editor).next().unwrap();
        assert!(!findings.is_empty());
        assert!(findings.iter().all(|d| d.location.file == "sem.yaml"));
        assert!(findings.iter().any(|d| d.location.line == 5 && d.message.contains("r/a:1.0.1")), "{findings:?}");
    }

    #[test]
    fn a_change_in_a_source_expands_the_templates_again_and_other_files_are_not_templates() {
        let mut editor = session(&[("sem.yaml", SEMVER.into()), ("bundles/b.json", bundle("1.0.0"))]);
        let mut t = Templates::new(Path::new("/w"), Some(Path::new("/w")), &["bundles".into()]);
        t.scan(&editor);
        assert!(!t.findings(&editor).next().unwrap().1.is_empty());
        let both = bundle("1.0.0") + &bundle("1.0.1");
        editor.update("bundles/b.json", both.clone());
        t.changed("bundles/b.json", both.as_bytes());
        assert!(t.findings(&editor).next().unwrap().1.is_empty());
        assert!(t.is_template("sem.yaml") && !t.is_template("bundles/b.json"));
        t.removed("sem.yaml");
        assert_eq!(t.findings(&editor).count(), 0);
    }

    #[test]
    fn the_image_under_the_cursor_yaml_or_json() {
        let at = |text: &str, line, character| image_at(text, lsp_types::Position { line, character }).map(|(i, _)| i);
        assert_eq!(at(SEMVER, 3, 14).as_deref(), Some("r/a:1.0.0"));
        assert_eq!(at(SEMVER, 3, 4), None, "on the key");
        assert_eq!(at(SEMVER, 2, 4), None);
        let json = "{\"entries\": [{\"schema\": \"olm.bundle\", \"image\": \"r/a:2\"}]}";
        assert_eq!(at(json, 0, 50).as_deref(), Some("r/a:2"));
    }

    #[test]
    fn without_sources_templates_are_not_served() {
        let editor = session(&[("sem.yaml", SEMVER.into())]);
        for mut t in [
            Templates::new(Path::new("/w"), Some(Path::new("/w")), &[]),
            Templates::new(Path::new("/w"), None, &["b".into()]),
        ] {
            t.scan(&editor);
            assert!(!t.is_template("sem.yaml"));
            assert_eq!(t.findings(&editor).count(), 0);
        }
    }
}
