//! The catalog the server keeps: the workspace folder's files in an `EditSession` (the edit
//! engine's, over the incremental `validate::Session`), the documents the editor has open (their
//! text is the truth while open), the lint configuration, the catalog templates among the files
//! ([`Templates`]), and what was last published per file, so that a change publishes exactly the
//! files whose findings changed.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use lsp_types::{PublishDiagnosticsParams, TextDocumentContentChangeEvent, Url};

use crate::convert::{self, Lines};
use crate::declcfg::FileInput;
use crate::edit::EditSession;
use crate::index::Index;
use crate::templates::Templates;
use crate::validate::{LintConfig, Options};
use crate::Diagnostic;

/// The lint configuration file names, looked for from the catalog upwards (as `validate` does).
const CONFIG_NAMES: [&str; 2] = [".olm-catalog.yaml", ".olm-catalog.yml"];

/// The catalog open in the editor.
pub struct Workspace {
    root: PathBuf,
    editor: EditSession,
    /// Open documents by catalog path.
    open: HashMap<String, String>,
    /// The findings last published, per file.
    published: HashMap<String, Vec<Diagnostic>>,
    /// The lint configuration file and its problems.
    config: Option<(PathBuf, Vec<Diagnostic>)>,
    /// The names each package's blobs spell, built on demand.
    index: Index,
    /// The catalog templates among the files, with their findings.
    templates: Templates,
}

impl Workspace {
    /// Read the catalog at `root` (a missing or unreadable folder is an empty catalog).
    pub fn open(root: PathBuf) -> Workspace {
        let mut ws = Workspace {
            editor: EditSession::open(Vec::new(), Options::default()),
            root,
            open: HashMap::new(),
            published: HashMap::new(),
            config: None,
            index: Index::default(),
            templates: Templates::default(),
        };
        ws.reopen();
        ws
    }

    /// The catalog folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The edit engine's session.
    pub fn editor(&mut self) -> &mut EditSession {
        &mut self.editor
    }

    /// The session, read only.
    pub fn session(&self) -> &EditSession {
        &self.editor
    }

    /// The names in file `path`.
    pub fn names_in(&mut self, path: &str) -> Vec<crate::index::Occurrence> {
        self.index.file(&self.editor, path)
    }

    /// The names in the blobs of package `name`.
    pub fn names_of(&mut self, name: &str) -> std::sync::Arc<Vec<crate::index::Occurrence>> {
        self.index.package(&self.editor, name)
    }

    /// The names of every package.
    pub fn all_names(&mut self) -> Vec<std::sync::Arc<Vec<crate::index::Occurrence>>> {
        self.index.all(&self.editor)
    }

    /// The catalog path of `uri`, when it is in the folder.
    pub fn path_of(&self, uri: &Url) -> Option<String> {
        convert::relative(&self.root, uri)
    }

    /// The text of catalog file `path` (the open document's, else what the session holds).
    pub fn text(&self, path: &str) -> Option<String> {
        self.text_cow(path).map(Cow::into_owned)
    }

    /// The same, borrowed when it can be.
    fn text_cow(&self, path: &str) -> Option<Cow<'_, str>> {
        if let Some(t) = self.open.get(path) {
            return Some(Cow::Borrowed(t));
        }
        self.editor.session().file(path).map(String::from_utf8_lossy)
    }

    /// A document opened with `text`.
    pub fn did_open(&mut self, path: &str, text: String) {
        self.open.insert(path.to_string(), text.clone());
        self.set(path, text);
    }

    /// Changes to an open document (whole or ranges), applied in order.
    pub fn did_change(&mut self, path: &str, changes: Vec<TextDocumentContentChangeEvent>) {
        if !self.open.contains_key(path) {
            let Some(text) = self.text(path) else { return };
            self.open.insert(path.to_string(), text);
        }
        let Some(text) = self.open.get_mut(path) else { return };
        for change in changes {
            match change.range {
                None => *text = change.text,
                Some(r) => {
                    let lines = Lines::new(text);
                    let (start, end) = (lines.offset(r.start), lines.offset(r.end));
                    text.replace_range(start.min(end)..end.max(start), &change.text);
                }
            }
        }
        let content = text.clone().into_bytes();
        self.set(path, content);
    }

    /// A document closed: the file on disk is the truth again (gone when it was deleted).
    pub fn did_close(&mut self, path: &str) {
        self.open.remove(path);
        self.reload(path);
    }

    /// File `path` changed on disk (created, changed or deleted); open documents keep their text.
    pub fn reload(&mut self, path: &str) {
        if self.open.contains_key(path) {
            return;
        }
        if self.is_config(path) {
            return self.reopen();
        }
        match std::fs::read(self.root.join(path)) {
            Ok(bytes) => self.set(path, bytes),
            Err(_) => self.remove(path),
        }
    }

    fn set(&mut self, path: &str, content: impl Into<Vec<u8>>) {
        // The configuration changes every level; an `.indexignore` may bring back files the
        // first reading left out: both read the catalog again.
        if self.is_config(path) || path.rsplit('/').next() == Some(".indexignore") {
            return self.reopen();
        }
        let before = self.editor.session().file_packages(path);
        self.editor.update(path, content);
        self.index.dirty(before.into_iter().chain(self.editor.session().file_packages(path)));
        self.templates.changed(path, self.editor.session().file(path).unwrap_or_default());
    }

    fn remove(&mut self, path: &str) {
        if self.editor.session().file(path).is_none() {
            return;
        }
        let before = self.editor.session().file_packages(path);
        self.editor.remove(path);
        self.index.dirty(before);
        self.templates.removed(path);
    }

    /// Whether `path` is the lint configuration file in use.
    fn is_config(&self, path: &str) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        CONFIG_NAMES.contains(&name) || self.config.as_ref().is_some_and(|(p, _)| *p == self.root.join(path))
    }

    /// Read the configuration and the catalog again (the open documents keep their text).
    fn reopen(&mut self) {
        let (options, config) = options_for(&self.root);
        let mut files: BTreeMap<String, Vec<u8>> =
            read_all(&self.root).into_iter().map(|f| (f.path, f.content)).collect();
        for (path, text) in &self.open {
            files.insert(path.clone(), text.clone().into_bytes());
        }
        let files = files.into_iter().map(|(p, c)| FileInput::new(p, c)).collect();
        let config_dir = config.as_ref().and_then(|(f, _)| f.parent());
        self.templates = Templates::new(&self.root, config_dir, &options.config.bundles);
        self.editor = EditSession::open(files, options);
        self.templates.scan(&self.editor);
        self.config = config;
        self.index = Index::default();
    }

    /// The catalog templates among the files.
    pub fn templates(&self) -> &Templates {
        &self.templates
    }

    /// The diagnostics to publish: every file whose findings differ from what was published
    /// last (a file with none left gets an empty list).
    pub fn diagnostics(&mut self) -> Vec<PublishDiagnosticsParams> {
        let mut now: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
        for d in &self.editor.report().diagnostics {
            now.entry(d.location.file.clone()).or_default().push(d.clone());
        }
        if let Some((path, problems)) = &self.config {
            for d in problems {
                let file = self.relative_or_absolute(path);
                now.entry(file).or_default().push(Diagnostic { location: d.location.clone(), ..d.clone() });
            }
        }
        for (file, findings) in self.templates.findings(&self.editor) {
            now.entry(file.clone()).or_default().extend(findings.iter().cloned());
        }
        let files: BTreeSet<String> = now.keys().chain(self.published.keys()).cloned().collect();
        let mut out = Vec::new();
        for file in files {
            let new = now.remove(&file).unwrap_or_default();
            if self.published.get(&file).map_or(new.is_empty(), |old| *old == new) {
                continue;
            }
            if let Some(params) = self.publish(&file, &new) {
                out.push(params);
            }
            if new.is_empty() {
                self.published.remove(&file);
            } else {
                self.published.insert(file, new);
            }
        }
        out
    }

    fn relative_or_absolute(&self, path: &Path) -> String {
        path.strip_prefix(&self.root).map_or_else(|_| path.display().to_string(), |p| p.display().to_string())
    }

    /// The LSP diagnostics of `file`: each file's text (this one and those of related
    /// locations) borrowed and indexed once.
    fn publish(&self, file: &str, findings: &[Diagnostic]) -> Option<PublishDiagnosticsParams> {
        let uri = self.uri(file)?;
        let mut texts: BTreeMap<&str, Cow<'_, str>> = BTreeMap::new();
        let related_files = findings.iter().flat_map(|d| d.related.iter().map(|r| r.location.file.as_str()));
        for f in std::iter::once(file).chain(related_files) {
            if !texts.contains_key(f) {
                let text = self.text_cow(f).or_else(|| std::fs::read_to_string(self.root.join(f)).ok().map(Cow::Owned));
                texts.insert(f, text.unwrap_or_default());
            }
        }
        let lines: BTreeMap<&str, Lines<'_>> = texts.iter().map(|(f, t)| (*f, Lines::new(t))).collect();
        let related = |l: &crate::diagnostic::Location| {
            Some(lsp_types::Location {
                uri: self.uri(&l.file)?,
                range: convert::location_range(l, lines.get(l.file.as_str())?),
            })
        };
        let diagnostics = findings.iter().map(|d| convert::diagnostic(d, &lines[file], related)).collect();
        Some(PublishDiagnosticsParams { uri, diagnostics, version: None })
    }

    /// The URI of catalog file `path` (an absolute path stays itself).
    pub fn uri(&self, path: &str) -> Option<Url> {
        if Path::new(path).is_absolute() {
            return Url::from_file_path(path).ok();
        }
        convert::uri(&self.root, path)
    }
}

/// The validation options for the catalog at `root`: its lint configuration file, found from the
/// folder upwards, and that file with its problems (a bad file leaves the defaults).
fn options_for(root: &Path) -> (Options, Option<(PathBuf, Vec<Diagnostic>)>) {
    let Some(file) = root.ancestors().find_map(|dir| CONFIG_NAMES.iter().map(|n| dir.join(n)).find(|f| f.is_file()))
    else {
        return (Options::default(), None);
    };
    let bytes = std::fs::read(&file).unwrap_or_default();
    match LintConfig::from_file(&file.display().to_string(), &bytes) {
        Ok(config) => (Options { lints: true, config }, Some((file, Vec::new()))),
        Err(problems) => (Options::default(), Some((file, problems))),
    }
}

/// Every file under `root` (relative, `/`-separated paths), those `.indexignore` ignores too: the
/// session reads only the others, and an edit of an `.indexignore` may bring them back. A
/// symbolic link is read as a file, never followed into a directory (as the loader's walk).
fn read_all(root: &Path) -> Vec<FileInput> {
    fn walk(dir: &Path, rel: &str, out: &mut Vec<FileInput>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = if rel.is_empty() { name } else { format!("{rel}/{name}") };
            if e.file_type().is_ok_and(|t| t.is_dir()) {
                walk(&e.path(), &path, out);
            } else if let Ok(bytes) = std::fs::read(e.path()) {
                out.push(FileInput::new(path, bytes));
            }
        }
    }
    let mut out = Vec::new();
    walk(root, "", &mut out);
    out
}
