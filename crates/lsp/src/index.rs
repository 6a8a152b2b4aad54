//! The names the catalog's blobs spell, with where: each package's package, channel, bundle and
//! deprecation blobs (from the session's blobs of that package) read into [`Occurrence`]s — a
//! definition (a blob's own name) or a reference (`package`, `defaultChannel`, entries,
//! `replaces`, `skips`, deprecation references), a `skipRange`, a property's `type`. Built per
//! package on first use and dropped when a file naming the package changes.

use std::collections::HashMap;
use std::sync::Arc;

use crate::declcfg::{DeclarativeConfig, Pos, Spanned};
use crate::edit::EditSession;

/// What a name names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A package.
    Package(String),
    /// A channel of a package: (package, channel).
    Channel(String, String),
    /// A bundle of a package: (package, bundle).
    Bundle(String, String),
}

/// What an occurrence is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// The blob's own name (its definition).
    Definition(Target),
    /// A name referring to a blob; `field` is the key it is written under.
    Reference(Target, &'static str),
    /// An entry's `skipRange`: (package, channel, entry).
    SkipRange(String, String, String),
    /// A property's `type`: (package, bundle, index among the bundle's properties).
    Property(String, String, usize),
}

/// One name in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Occurrence {
    /// The file.
    pub file: Arc<str>,
    /// Where its scalar starts.
    pub pos: Pos,
    /// The text.
    pub text: String,
    /// What it is.
    pub kind: Kind,
    /// The channel whose entry it is in (for entry names, `replaces`, `skips`, `skipRange`).
    pub channel: Option<String>,
}

impl Occurrence {
    /// What it names, if it names a blob.
    pub fn target(&self) -> Option<&Target> {
        match &self.kind {
            Kind::Definition(t) | Kind::Reference(t, _) => Some(t),
            _ => None,
        }
    }

    /// Whether it is the definition of `t`.
    pub fn defines(&self, t: &Target) -> bool {
        matches!(&self.kind, Kind::Definition(d) if d == t)
    }
}

/// The occurrences of every package read so far.
#[derive(Default)]
pub struct Index {
    packages: HashMap<String, Arc<Vec<Occurrence>>>,
}

impl Index {
    /// Forget packages `names` (their files changed).
    pub fn dirty(&mut self, names: impl IntoIterator<Item = String>) {
        for n in names {
            self.packages.remove(&n);
        }
    }

    /// The occurrences of package `name`.
    pub fn package(&mut self, editor: &EditSession, name: &str) -> Arc<Vec<Occurrence>> {
        self.packages
            .entry(name.to_string())
            .or_insert_with(|| Arc::new(occurrences(&editor.session().package_blobs(name))))
            .clone()
    }

    /// The occurrences in file `path` (of every package its blobs name).
    pub fn file(&mut self, editor: &EditSession, path: &str) -> Vec<Occurrence> {
        let mut out = Vec::new();
        for p in editor.session().file_packages(path) {
            out.extend(self.package(editor, &p).iter().filter(|o| &*o.file == path).cloned());
        }
        out
    }

    /// Every occurrence of every package of the catalog.
    pub fn all(&mut self, editor: &EditSession) -> Vec<Arc<Vec<Occurrence>>> {
        let names: Vec<String> = editor.model().packages.iter().map(|p| p.name.clone()).collect();
        names.iter().map(|n| self.package(editor, n)).collect()
    }
}

/// Collects occurrences of one package's blobs.
struct Collect {
    out: Vec<Occurrence>,
    /// The channel whose entries are being read.
    channel: Option<String>,
}

impl Collect {
    fn push(&mut self, file: &Arc<str>, s: &Spanned<impl AsRef<str>>, kind: Kind) {
        let text = s.value.as_ref();
        if !text.is_empty() && s.pos.line > 0 {
            let channel = self.channel.clone();
            self.out.push(Occurrence { file: file.clone(), pos: s.pos, text: text.to_string(), kind, channel });
        }
    }
}

/// The occurrences of the blobs in `cfg`.
pub fn occurrences(cfg: &DeclarativeConfig) -> Vec<Occurrence> {
    let mut c = Collect { out: Vec::new(), channel: None };
    for p in &cfg.packages {
        let name = &p.name.value;
        c.push(&p.source.file, &p.name, Kind::Definition(Target::Package(name.clone())));
        let default = Target::Channel(name.clone(), p.default_channel.value.clone());
        c.push(&p.source.file, &p.default_channel, Kind::Reference(default, "defaultChannel"));
    }
    for ch in &cfg.channels {
        let (f, pkg) = (&ch.source.file, &ch.package.value);
        c.push(f, &ch.package, Kind::Reference(Target::Package(pkg.clone()), "package"));
        c.push(f, &ch.name, Kind::Definition(Target::Channel(pkg.clone(), ch.name.value.clone())));
        c.channel = Some(ch.name.value.clone());
        for e in &ch.entries {
            let bundle = |s: &Spanned<String>| Target::Bundle(pkg.clone(), s.value.clone());
            c.push(f, &e.name, Kind::Reference(bundle(&e.name), "name"));
            c.push(f, &e.replaces, Kind::Reference(bundle(&e.replaces), "replaces"));
            for s in &e.skips {
                c.push(f, s, Kind::Reference(bundle(s), "skips"));
            }
            let range = Kind::SkipRange(pkg.clone(), ch.name.value.clone(), e.name.value.clone());
            c.push(f, &e.skip_range, range);
        }
        c.channel = None;
    }
    for b in &cfg.bundles {
        let (f, pkg) = (&b.source.file, &b.package.value);
        c.push(f, &b.package, Kind::Reference(Target::Package(pkg.clone()), "package"));
        c.push(f, &b.name, Kind::Definition(Target::Bundle(pkg.clone(), b.name.value.clone())));
        for (i, p) in b.properties.iter().enumerate() {
            c.push(f, &p.type_, Kind::Property(pkg.clone(), b.name.value.clone(), i));
        }
    }
    for d in &cfg.deprecations {
        let (f, pkg) = (&d.source.file, &d.package.value);
        c.push(f, &d.package, Kind::Reference(Target::Package(pkg.clone()), "package"));
        for e in &d.entries {
            let target = match e.schema.value.as_str() {
                "olm.bundle" => Target::Bundle(pkg.clone(), e.name.value.clone()),
                "olm.channel" => Target::Channel(pkg.clone(), e.name.value.clone()),
                _ => continue,
            };
            c.push(f, &e.name, Kind::Reference(target, "reference"));
        }
    }
    c.out
}
