//! Incremental re-validation: a [`Session`] keeps what a validation computed, per file and per
//! package, so that changing one file re-reads only that file and re-checks only the packages its
//! old and new blobs belong to. Its report always equals a full [`validate_files_with`] of the
//! catalog as edited (same findings, same order, same verdict, same opm message).
//!
//! The rules that make this exact:
//! - Loading is per file: a file's blobs and load findings depend on its bytes alone. Only the
//!   walk order (which files are read, in which order) is global; it changes only when a file is
//!   added or removed or an `.indexignore` changes, and then only the files that enter or leave
//!   it are (un)read: the walk order is a sort, so the others keep their relative order.
//! - Model building and checking are per package: a package's model, findings and error-tree node
//!   depend only on the blobs naming it (in load order). Blobs naming no package (key `""`) are
//!   errors only; the one message that counts across packages (`package name must be set for
//!   deprecation item N`, N counting every `olm.deprecations` blob) is recomputed on each change.
//! - A lint's level depends on the blobs of the file it points into, so the packages with a
//!   finding in a changed file are re-checked too.
//! - Findings of different packages never share a location, so merging them and sorting gives
//!   the full run's order; opm's one message is the first error in opm's phase order, and within
//!   a phase blobs are met in load order, which the finding's location gives (blobs never overlap).
//!
//! [`validate_files_with`]: super::validate_files_with

use crate::hash::{HashMap, HashMapExt};
use std::collections::{BTreeMap, BTreeSet};

use crate::declcfg::load::parse_file;
use crate::declcfg::{self, load_files, Blob, DeclarativeConfig, FileInput};
use crate::diagnostic::{sort_diagnostics, Code, Diagnostic};
use crate::model::{self, PhaseEnds};

use super::error_tree::ErrorTree;
use super::{apply_levels, check_package, last_channel_dangling_entries, Options, PackageIndex, Report};

/// A catalog validated once and kept, re-validated file by file as it is edited.
///
/// ```
/// use olm_catalog::validate::{validate_files, Options, Session};
/// use olm_catalog::FileInput;
///
/// let catalog = |version: &str| {
///     format!(
///         "schema: olm.package\nname: foo\ndefaultChannel: stable\n---\n\
///          schema: olm.channel\npackage: foo\nname: stable\nentries:\n- name: foo.v1\n---\n\
///          schema: olm.bundle\npackage: foo\nname: foo.v1\nimage: example.com/foo:1\nproperties:\n\
///          - {{type: olm.package, value: {{packageName: foo, version: {version}}}}}\n"
///     )
/// };
/// let mut session = Session::open(vec![FileInput::new("foo/catalog.yaml", catalog("1.0.0"))], Options::default());
/// assert!(session.report().valid);
/// // Only this file is read again, only package foo checked again.
/// let report = session.update("foo/catalog.yaml", catalog("1.0")).clone();
/// assert!(!report.valid);
/// assert_eq!(report, validate_files(&[FileInput::new("foo/catalog.yaml", catalog("1.0"))]).report);
/// ```
#[derive(Debug, Clone)]
pub struct Session {
    options: Options,
    /// Every file handed in, by path, ignored ones too (an `.indexignore` edit may bring them back).
    inputs: BTreeMap<String, Vec<u8>>,
    /// Each file read and its position in the walk order.
    rank: HashMap<String, usize>,
    /// What loading each file read gave.
    parsed: HashMap<String, FileParse>,
    /// The files holding blobs of each package (key `""`: blobs naming none).
    key_files: HashMap<String, BTreeSet<String>>,
    /// The results of each package, by name.
    groups: BTreeMap<String, Group>,
    /// The packages with a finding located in each file.
    located: HashMap<String, BTreeSet<String>>,
    report: Report,
    /// Keep each package's model in its group (for [`Session::open_with_model`]).
    keep_models: bool,
}

/// One file's blobs and load findings.
#[derive(Debug, Clone)]
struct FileParse {
    blobs: DeclarativeConfig,
    /// The load findings, as read (opm's message takes the first error of these).
    load: Vec<Diagnostic>,
    /// The same with lint levels applied.
    leveled: Vec<Diagnostic>,
    /// The packages its `olm.package`, `olm.channel`, `olm.bundle` and `olm.deprecations` blobs name.
    keys: BTreeSet<String>,
    /// For a YAML file read document by document: each document, where its blob is in `blobs`
    /// and its findings, so that the next version of the file re-reads only the documents that
    /// changed.
    docs: Option<Vec<DocSlot>>,
}

/// One YAML document of a file: its place in the file, where its blob went, its findings.
#[derive(Debug, Clone)]
struct DocSlot {
    span: std::ops::Range<usize>,
    first_line: u32,
    marker: bool,
    /// The bucket of `blobs` its blob went to and its index there.
    blob: Option<(Bucket, usize)>,
    diags: Vec<Diagnostic>,
}

/// A bucket of a [`DeclarativeConfig`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bucket {
    Package,
    Channel,
    Bundle,
    Deprecation,
    Other,
}

/// The blobs of an earlier version of a file, each taken out at most once.
struct Leftovers {
    packages: Vec<Option<crate::declcfg::Package>>,
    channels: Vec<Option<crate::declcfg::Channel>>,
    bundles: Vec<Option<crate::declcfg::Bundle>>,
    deprecations: Vec<Option<crate::declcfg::Deprecation>>,
    others: Vec<Option<crate::declcfg::Meta>>,
}

impl Leftovers {
    fn new(cfg: DeclarativeConfig) -> Leftovers {
        fn some<T>(v: Vec<T>) -> Vec<Option<T>> {
            v.into_iter().map(Some).collect()
        }
        Leftovers {
            packages: some(cfg.packages),
            channels: some(cfg.channels),
            bundles: some(cfg.bundles),
            deprecations: some(cfg.deprecations),
            others: some(cfg.others),
        }
    }

    fn take(&mut self, (bucket, i): (Bucket, usize)) -> Option<Blob> {
        match bucket {
            Bucket::Package => self.packages.get_mut(i)?.take().map(Blob::Package),
            Bucket::Channel => self.channels.get_mut(i)?.take().map(Blob::Channel),
            Bucket::Bundle => self.bundles.get_mut(i)?.take().map(Blob::Bundle),
            Bucket::Deprecation => self.deprecations.get_mut(i)?.take().map(Blob::Deprecation),
            Bucket::Other => self.others.get_mut(i)?.take().map(Blob::Other),
        }
    }
}

/// Append `blob` to `cfg`; where it went.
fn push_blob(cfg: &mut DeclarativeConfig, blob: Blob) -> (Bucket, usize) {
    let (bucket, len) = match &blob {
        Blob::Package(_) => (Bucket::Package, cfg.packages.len()),
        Blob::Channel(_) => (Bucket::Channel, cfg.channels.len()),
        Blob::Bundle(_) => (Bucket::Bundle, cfg.bundles.len()),
        Blob::Deprecation(_) => (Bucket::Deprecation, cfg.deprecations.len()),
        Blob::Other(_) => (Bucket::Other, cfg.others.len()),
    };
    cfg.push(blob);
    (bucket, len)
}

/// One package's results (or, for key `""`, those of the blobs naming no package).
#[derive(Debug, Clone)]
struct Group {
    /// The model's conversion findings, in opm's phase order.
    build: Vec<Diagnostic>,
    phases: PhaseEnds,
    /// The package's node of opm's error tree.
    tree: ErrorTree,
    /// opm's dangling-entry message for the package's last channel blob.
    dangling: Option<String>,
    /// Where the package's `olm.package` blob and its first `olm.channel` blob start: the order
    /// opm most often takes packages in for the tree and for the dangling-entry message.
    package_at: Option<declcfg::Source>,
    first_channel_at: Option<declcfg::Source>,
    /// Conversion findings, model findings and lints, levels applied.
    findings: Vec<Diagnostic>,
    /// The package's model, kept only while [`Session::open_with_model`] collects them.
    package: Option<model::Package>,
}

/// opm's conversion phases, in the order it runs them (default channels report nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Packages,
    Channels,
    Bundles,
    Dangling,
    Deprecations,
}

impl Group {
    /// The conversion findings of `phase`.
    fn phase(&self, phase: Phase) -> &[Diagnostic] {
        let p = &self.phases;
        let (start, end) = match phase {
            Phase::Packages => (0, p.packages),
            Phase::Channels => (p.packages, p.channels),
            Phase::Bundles => (p.channels, p.bundles),
            Phase::Dangling => (p.bundles, p.dangling),
            Phase::Deprecations => (p.dangling, self.build.len()),
        };
        &self.build[start..end]
    }
}

/// The package a model blob belongs to (`""`: it names none).
fn key_of(blob: BlobRef<'_>) -> &str {
    match blob {
        BlobRef::Package(p) => &p.name.value,
        BlobRef::Channel(c) => &c.package.value,
        BlobRef::Bundle(b) => &b.package.value,
        BlobRef::Deprecation(d) => &d.package.value,
    }
}

/// A model blob of a [`DeclarativeConfig`], borrowed.
#[derive(Clone, Copy)]
enum BlobRef<'a> {
    Package(&'a crate::declcfg::Package),
    Channel(&'a crate::declcfg::Channel),
    Bundle(&'a crate::declcfg::Bundle),
    Deprecation(&'a crate::declcfg::Deprecation),
}

/// Every model blob of `cfg`, bucket by bucket.
fn model_blobs(cfg: &DeclarativeConfig) -> impl Iterator<Item = BlobRef<'_>> {
    let p = cfg.packages.iter().map(BlobRef::Package);
    let c = cfg.channels.iter().map(BlobRef::Channel);
    let b = cfg.bundles.iter().map(BlobRef::Bundle);
    let d = cfg.deprecations.iter().map(BlobRef::Deprecation);
    p.chain(c).chain(b).chain(d)
}

/// Whether `path` is an ignore file (always left unread; it decides which others are read).
fn is_indexignore(path: &str) -> bool {
    path.rsplit('/').next() == Some(".indexignore")
}

/// The files the loader reads, in its walk order: [`load_files`] over the paths alone (every
/// content emptied but the `.indexignore` files'), which reads no catalog text.
fn walk_order(inputs: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let probe: Vec<FileInput> = inputs
        .iter()
        .map(|(path, content)| {
            let content = if is_indexignore(path) { content.clone() } else { Vec::new() };
            FileInput::new(path.clone(), content)
        })
        .collect();
    load_files(&probe).files
}

/// Each diagnostic's lint level, taken (as [`apply_levels`] does over the whole catalog) from the
/// blobs of the file it points into.
fn level_by_file<'c>(
    diags: Vec<Diagnostic>,
    options: &Options,
    blobs_of: impl Fn(&str) -> Option<&'c DeclarativeConfig>,
) -> Vec<Diagnostic> {
    if !diags.iter().any(|d| d.code.is_lint()) {
        return diags;
    }
    // Findings in different files never tie in the final sort, so regrouping them by file keeps
    // the report's order; within a file their order is kept.
    let mut by_file: BTreeMap<String, Vec<Diagnostic>> = BTreeMap::new();
    for d in diags {
        by_file.entry(d.location.file.clone()).or_default().push(d);
    }
    let empty = DeclarativeConfig::default();
    let mut out = Vec::new();
    for (file, mut ds) in by_file {
        let index = PackageIndex::new(blobs_of(&file).unwrap_or(&empty));
        apply_levels(&mut ds, &options.config, &index);
        out.append(&mut ds);
    }
    out
}

impl FileParse {
    /// Load one file as [`load_files`] does.
    fn new(path: &str, bytes: &[u8], options: &Options) -> FileParse {
        FileParse::reread(path, bytes, options, None)
    }

    /// Load one file as [`load_files`] does; with the `previous` version of the file (its parse
    /// and its bytes), the YAML documents found unchanged in it (same text, first line and
    /// `---` marker) are taken from it instead of being parsed again.
    fn reread(path: &str, bytes: &[u8], options: &Options, previous: Option<(FileParse, &[u8])>) -> FileParse {
        let mut cfg = DeclarativeConfig::default();
        let mut load = Vec::new();
        let docs = match previous {
            Some((old, old_bytes)) => Self::documents(path, bytes, old, old_bytes),
            None => crate::declcfg::load::parse_file_documents(path, bytes, |_, _, _| None),
        };
        let docs = docs.map(|docs| {
            docs.into_iter()
                .map(|d| {
                    load.extend(d.diags.iter().cloned());
                    let blob = d.blob.map(|b| push_blob(&mut cfg, b));
                    DocSlot { span: d.span, first_line: d.first_line, marker: d.marker, blob, diags: d.diags }
                })
                .collect()
        });
        if docs.is_none() {
            let (blobs, diags) = parse_file(path, bytes);
            for b in blobs {
                cfg.push(b);
            }
            load = diags;
        }
        let keys = crate::sort::btree_set(model_blobs(&cfg).map(|b| key_of(b).to_string()));
        let leveled = level_by_file(load.clone(), options, |f| (f == path).then_some(&cfg));
        FileParse { blobs: cfg, load, leveled, keys, docs }
    }

    /// The documents of the file's new `bytes`, those unchanged since `old` taken from it.
    fn documents(
        path: &str,
        bytes: &[u8],
        old: FileParse,
        old_bytes: &[u8],
    ) -> Option<Vec<crate::declcfg::load::DocParse>> {
        let Some(old_docs) = old.docs else {
            return crate::declcfg::load::parse_file_documents(path, bytes, |_, _, _| None);
        };
        // Found by place and length (each line starts one document at most), then compared:
        // cheaper than hashing the texts.
        let by_place: HashMap<(u32, bool, usize), usize> =
            old_docs.iter().enumerate().map(|(i, d)| ((d.first_line, d.marker, d.span.len()), i)).collect();
        let mut leftovers = Leftovers::new(old.blobs);
        let mut slots: Vec<Option<DocSlot>> = old_docs.into_iter().map(Some).collect();
        crate::declcfg::load::parse_file_documents(path, bytes, |text, first_line, marker| {
            let i = *by_place.get(&(first_line, marker, text.len()))?;
            let same = slots.get(i)?.as_ref().is_some_and(|d| old_bytes.get(d.span.clone()) == Some(text.as_bytes()));
            let slot = if same { slots[i].take()? } else { return None };
            let blob = match slot.blob {
                Some(at) => Some(leftovers.take(at)?),
                None => None,
            };
            Some((blob, slot.diags))
        })
    }
}

/// What an editor reads of one package (issue 17: edits previewed without a full validation).
impl Session {
    /// The files holding blobs of `package`, in walk order.
    pub fn package_files(&self, package: &str) -> Vec<String> {
        let mut files: Vec<String> = self.key_files.get(package).into_iter().flatten().cloned().collect();
        crate::sort::sort_by_key(&mut files, |f| self.rank.get(f).copied().unwrap_or(usize::MAX));
        files
    }

    /// The blobs naming `package`, in load order (as the whole catalog's load would list them).
    pub fn package_blobs(&self, package: &str) -> DeclarativeConfig {
        self.blobs_of(package)
    }

    /// The packages file `path` has blobs of (`olm.package`, channels, bundles, deprecations).
    pub fn file_packages(&self, path: &str) -> BTreeSet<String> {
        self.parsed.get(path).map(|p| p.keys.clone()).unwrap_or_default()
    }

    /// The content of file `path`, when the session has it.
    pub fn file(&self, path: &str) -> Option<&[u8]> {
        self.inputs.get(path).map(Vec::as_slice)
    }

    /// The number of blobs loaded from file `path` (every schema; 0 for an unread file).
    pub fn blob_count(&self, path: &str) -> usize {
        self.parsed.get(path).map_or(0, |p| {
            let c = &p.blobs;
            c.packages.len() + c.channels.len() + c.bundles.len() + c.deprecations.len() + c.others.len()
        })
    }
}

/// Where a file's channel and bundle blobs sit among the whole catalog's, for [`Session::renumber`].
struct FileBlobs {
    channel_base: usize,
    bundle_base: usize,
    /// Each blob's (line, column) and index in the file, sorted.
    channels: Vec<((u32, u32), usize)>,
    bundles: Vec<((u32, u32), usize)>,
}

impl FileBlobs {
    fn new(channel_base: usize, bundle_base: usize, blobs: &DeclarativeConfig) -> FileBlobs {
        let sorted = |mut v: Vec<((u32, u32), usize)>| {
            v.sort_unstable();
            v
        };
        let at = |s: &crate::declcfg::Source| (s.pos.line, s.pos.column);
        FileBlobs {
            channel_base,
            bundle_base,
            channels: sorted(blobs.channels.iter().enumerate().map(|(i, c)| (at(&c.source), i)).collect()),
            bundles: sorted(blobs.bundles.iter().enumerate().map(|(i, b)| (at(&b.source), i)).collect()),
        }
    }

    /// The catalog-wide index of the channel (or bundle) blob starting at `pos`.
    fn index(&self, pos: crate::declcfg::Pos, bundle: bool) -> Option<usize> {
        let (list, base) = if bundle { (&self.bundles, self.bundle_base) } else { (&self.channels, self.channel_base) };
        let i = list.binary_search_by_key(&(pos.line, pos.column), |(at, _)| *at).ok()?;
        Some(base + list[i].1)
    }
}

/// Map `f` over `items`, in parallel natively.
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        items.par_iter().map(f).collect()
    }
    #[cfg(target_arch = "wasm32")]
    {
        items.iter().map(f).collect()
    }
}

impl Session {
    /// Load and validate `files` (a path given twice: the last one counts), keeping everything
    /// needed to re-validate after an edit. Its [`report`](Session::report) equals
    /// [`validate_files_with`](super::validate_files_with)`(&files, options).report`.
    pub fn open(files: Vec<FileInput>, options: Options) -> Session {
        Session::open_keeping(files, options, false)
    }

    /// Open as [`open`](Session::open) does, and also give the catalog's model, made of the
    /// packages' models the validation built (equal to `validate_files_with(&files, options).model`),
    /// rather than building it a second time.
    pub fn open_with_model(files: Vec<FileInput>, options: Options) -> (Session, model::Model) {
        let mut s = Session::open_keeping(files, options, true);
        s.keep_models = false;
        let mut packages: Vec<model::Package> = s.groups.values_mut().filter_map(|g| g.package.take()).collect();
        crate::sort::sort_by(&mut packages, |a, b| a.name.cmp(&b.name));
        let mut model = model::Model { packages };
        s.renumber(&mut model);
        (s, model)
    }

    /// The files read, in walk order.
    fn files_in_walk_order(&self) -> Vec<&String> {
        let mut files: Vec<(&String, usize)> = self.rank.iter().map(|(f, r)| (f, *r)).collect();
        crate::sort::sort_by_key(&mut files, |(_, r)| *r);
        files.into_iter().map(|(f, _)| f).collect()
    }

    /// Set the read positions (`order`) of `model`'s packages, channels and bundles to those a
    /// build of the whole catalog gives them (a package built from its own blobs counts from 0):
    /// a package's rank among the packages in load order; a channel's or a bundle's index among
    /// every `olm.channel` or `olm.bundle` blob read, skipped ones too.
    pub fn renumber(&self, model: &mut model::Model) {
        let files = self.files_in_walk_order();
        let mut placed: HashMap<&str, FileBlobs> = HashMap::with_capacity(files.len());
        let (mut channels, mut bundles) = (0, 0);
        for f in files {
            let Some(p) = self.parsed.get(f) else { continue };
            let at = FileBlobs::new(channels, bundles, &p.blobs);
            channels += p.blobs.channels.len();
            bundles += p.blobs.bundles.len();
            placed.insert(f, at);
        }
        let index = |s: &crate::declcfg::Source, bundle: bool| {
            placed.get(&*s.file).and_then(|at| at.index(s.pos, bundle)).unwrap_or(usize::MAX)
        };
        for p in &mut model.packages {
            for c in &mut p.channels {
                if let Some(s) = &c.source {
                    c.order = index(s, false);
                }
            }
            for b in &mut p.bundles {
                b.order = index(&b.source, true);
            }
        }
        let mut read: Vec<((usize, u32, u32), usize)> = (model.packages.iter().enumerate())
            .map(|(i, p)| {
                let rank = self.rank.get(&*p.source.file).copied().unwrap_or(usize::MAX);
                ((rank, p.source.pos.line, p.source.pos.column), i)
            })
            .collect();
        crate::sort::sort_by_key(&mut read, |(at, _)| *at);
        for (order, (_, i)) in read.into_iter().enumerate() {
            model.packages[i].order = order;
        }
    }

    fn open_keeping(files: Vec<FileInput>, options: Options, keep_models: bool) -> Session {
        let inputs: BTreeMap<String, Vec<u8>> = crate::sort::btree_map(files.into_iter().map(|f| (f.path, f.content)));
        let mut s = Session {
            options,
            inputs,
            rank: HashMap::new(),
            parsed: HashMap::new(),
            key_files: HashMap::new(),
            groups: BTreeMap::new(),
            located: HashMap::new(),
            report: Report { valid: true, diagnostics: Vec::new(), opm_message: None },
            keep_models,
        };
        let order = walk_order(&s.inputs);
        s.set_order(&order);
        s.refresh(order);
        s
    }

    /// The report of the catalog as it is now.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The options it validates with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Every file of the catalog (ignored ones too), by path.
    pub fn files(&self) -> impl Iterator<Item = (&str, &[u8])> {
        self.inputs.iter().map(|(p, c)| (p.as_str(), c.as_slice()))
    }

    /// Add the file `path` or replace its content, and re-validate.
    pub fn update(&mut self, path: &str, content: impl Into<Vec<u8>>) -> &Report {
        let previous = self.inputs.insert(path.to_string(), content.into());
        let changed = if previous.is_none() || is_indexignore(path) {
            self.reorder(path)
        } else if self.rank.contains_key(path) {
            vec![path.to_string()]
        } else {
            Vec::new()
        };
        self.refresh_with(changed, previous.map(|bytes| (path.to_string(), bytes)));
        &self.report
    }

    /// Remove the file `path` (nothing happens when there is none), and re-validate.
    pub fn remove(&mut self, path: &str) -> &Report {
        if self.inputs.remove(path).is_some() {
            let changed = self.reorder(path);
            self.refresh(changed);
        }
        &self.report
    }

    /// Recompute the walk order after `path` was added, removed or (an ignore file) changed; the
    /// files to (re)load: those that entered or left the order, and `path` when it is read.
    fn reorder(&mut self, path: &str) -> Vec<String> {
        let order = walk_order(&self.inputs);
        let now: BTreeSet<&String> = crate::sort::btree_set(&order);
        let mut changed: BTreeSet<String> =
            crate::sort::btree_set(self.rank.keys().filter(|p| !now.contains(p)).cloned());
        changed.extend(order.iter().filter(|p| !self.rank.contains_key(*p) || *p == path).cloned());
        self.set_order(&order);
        changed.into_iter().collect()
    }

    fn set_order(&mut self, order: &[String]) {
        self.rank = order.iter().enumerate().map(|(i, p)| (p.clone(), i)).collect();
    }

    /// Reload the `changed` files, re-check the packages they touch, and rebuild the report.
    fn refresh(&mut self, changed: Vec<String>) {
        self.refresh_with(changed, None);
    }

    /// [`refresh`](Session::refresh), given the `previous` content of one changed file (path and
    /// bytes): that file's unchanged documents are not parsed again.
    fn refresh_with(&mut self, changed: Vec<String>, previous: Option<(String, Vec<u8>)>) {
        let mut affected: BTreeSet<String> = BTreeSet::new();
        let mut old_parse = None;
        for f in &changed {
            if let Some(old) = self.parsed.remove(f) {
                for k in &old.keys {
                    if let Some(files) = self.key_files.get_mut(k) {
                        files.remove(f);
                    }
                }
                affected.extend(old.keys.iter().cloned());
                if previous.as_ref().is_some_and(|(p, _)| p == f) {
                    old_parse = Some(old);
                }
            }
            affected.extend(self.located.get(f).into_iter().flatten().cloned());
        }
        let reread: Vec<&String> = changed.iter().filter(|f| self.rank.contains_key(*f)).collect();
        let mut parses = Vec::with_capacity(reread.len());
        if let (Some(old), Some((path, bytes)), [only]) = (old_parse, &previous, reread.as_slice()) {
            if *only == path {
                parses.push(FileParse::reread(only, &self.inputs[*only], &self.options, Some((old, bytes))));
            }
        }
        if parses.is_empty() {
            parses = par_map(&reread, |f| FileParse::new(f, &self.inputs[*f], &self.options));
        }
        for (f, p) in reread.into_iter().zip(parses) {
            for k in &p.keys {
                self.key_files.entry(k.clone()).or_default().insert(f.clone());
            }
            affected.extend(p.keys.iter().cloned());
            self.parsed.insert(f.clone(), p);
        }
        // Blobs naming no package carry a catalog-wide count: always re-check them.
        if self.groups.contains_key("") || self.key_files.get("").is_some_and(|f| !f.is_empty()) {
            affected.insert(String::new());
        }
        let keys: Vec<String> = affected.into_iter().collect();
        let results = par_map(&keys, |k| self.check_group(k));
        for (k, g) in keys.into_iter().zip(results) {
            self.set_group(k, g);
        }
        self.report = self.assemble();
    }

    /// Replace (or, with `None`, drop) a package's results, keeping `located` in step.
    fn set_group(&mut self, key: String, group: Option<Group>) {
        if let Some(old) = self.groups.remove(&key) {
            for d in &old.findings {
                if let Some(set) = self.located.get_mut(&d.location.file) {
                    set.remove(&key);
                }
            }
        }
        if self.key_files.get(&key).is_some_and(BTreeSet::is_empty) {
            self.key_files.remove(&key);
        }
        let Some(group) = group else { return };
        for d in &group.findings {
            self.located.entry(d.location.file.clone()).or_default().insert(key.clone());
        }
        self.groups.insert(key, group);
    }

    /// The blobs naming package `key`, in load order.
    fn blobs_of(&self, key: &str) -> DeclarativeConfig {
        let mut files: Vec<&String> = self.key_files.get(key).into_iter().flatten().collect();
        crate::sort::sort_by_key(&mut files, |f| self.rank.get(*f).copied().unwrap_or(usize::MAX));
        let mut cfg = DeclarativeConfig::default();
        for f in files {
            let Some(p) = self.parsed.get(f) else { continue };
            for b in model_blobs(&p.blobs).filter(|b| key_of(*b) == key) {
                cfg.push(match b {
                    BlobRef::Package(x) => Blob::Package(x.clone()),
                    BlobRef::Channel(x) => Blob::Channel(x.clone()),
                    BlobRef::Bundle(x) => Blob::Bundle(x.clone()),
                    BlobRef::Deprecation(x) => Blob::Deprecation(x.clone()),
                });
            }
        }
        cfg
    }

    /// Build and check one package from its blobs (`None` when no blob names it any more).
    fn check_group(&self, key: &str) -> Option<Group> {
        let mut cfg = self.blobs_of(key);
        if cfg == DeclarativeConfig::default() {
            return None;
        }
        // A deprecation naming no package is reported with its index among all of them.
        let unnamed_deprecations = key.is_empty() && !cfg.deprecations.is_empty();
        if unnamed_deprecations {
            cfg.deprecations.clear();
        }
        let (model, mut build, phases) = model::build_phased(&cfg);
        if unnamed_deprecations {
            build.extend(self.unnamed_deprecation_findings());
        }
        let mut findings = build.clone();
        let mut tree = ErrorTree::new("");
        for p in &model.packages {
            let (t, diags, lints) = check_package(p, &self.options);
            tree = t;
            findings.extend(diags);
            findings.extend(lints);
        }
        let dangling = last_channel_dangling_entries(&model);
        let package_at = cfg.packages.first().map(|p| p.source.clone());
        let first_channel_at = cfg.channels.first().map(|c| c.source.clone());
        let findings = level_by_file(findings, &self.options, |f| self.parsed.get(f).map(|p| &p.blobs));
        let package = if self.keep_models { model.packages.into_iter().find(|p| p.name == key) } else { None };
        Some(Group { build, phases, tree, dangling, package_at, first_channel_at, findings, package })
    }

    /// The findings about `olm.deprecations` blobs that name no package: the conversion of every
    /// deprecation blob of the catalog (nothing else), keeping only those findings.
    fn unnamed_deprecation_findings(&self) -> Vec<Diagnostic> {
        let files = self.files_in_walk_order();
        let mut cfg = DeclarativeConfig::default();
        for f in files {
            if let Some(p) = self.parsed.get(f) {
                cfg.deprecations.extend(p.blobs.deprecations.iter().cloned());
            }
        }
        let (_, diags) = model::build(&cfg);
        diags.into_iter().filter(|d| d.code == Code::DeprecationNoPackage).collect()
    }

    /// Where a finding sits in load order: its file's rank, then line and column.
    fn position(&self, d: &Diagnostic) -> (usize, u32, u32) {
        let rank = self.rank.get(&d.location.file).copied().unwrap_or(usize::MAX);
        (rank, d.location.line, d.location.column)
    }

    /// Where a blob sits in load order (last when there is none).
    fn blob_position(&self, at: Option<&declcfg::Source>) -> (usize, u32, u32) {
        let Some(s) = at else { return (usize::MAX, 0, 0) };
        (self.rank.get(&*s.file).copied().unwrap_or(usize::MAX), s.pos.line, s.pos.column)
    }

    /// Every finding, sorted, with the verdict and opm's message.
    fn assemble(&self) -> Report {
        let load = self.parsed.values().map(|p| p.leveled.len()).sum::<usize>();
        let mut diagnostics = Vec::with_capacity(load + self.groups.values().map(|g| g.findings.len()).sum::<usize>());
        for p in self.parsed.values() {
            diagnostics.extend(p.leveled.iter().cloned());
        }
        for g in self.groups.values() {
            diagnostics.extend(g.findings.iter().cloned());
        }
        sort_diagnostics(&mut diagnostics);
        let valid = !diagnostics.iter().any(Diagnostic::is_error);
        Report { valid, diagnostics, opm_message: self.opm_message() }
    }

    /// The one message `opm validate` prints, as the full run's `opm_message` finds it: the first
    /// load error; else the first conversion error in phase order (for a dangling entry, the
    /// last channels' dangling entries when there are any); else the model-error tree.
    fn opm_message(&self) -> Option<String> {
        let mut load: Vec<Diagnostic> =
            self.parsed.values().flat_map(|p| p.load.iter().filter(|d| d.is_error()).cloned()).collect();
        if !load.is_empty() {
            sort_diagnostics(&mut load);
            return Some(load.swap_remove(0).message);
        }
        let first = |phase: Phase| {
            let firsts = self.groups.values().filter_map(|g| g.phase(phase).iter().find(|d| d.is_error()));
            firsts.min_by_key(|d| self.position(d)).map(|d| d.message.clone())
        };
        for phase in [Phase::Packages, Phase::Channels, Phase::Bundles] {
            if let Some(m) = first(phase) {
                return Some(m);
            }
        }
        if self.groups.values().any(|g| g.phase(Phase::Dangling).iter().any(Diagnostic::is_error)) {
            let slotted = self.in_map_order(|g| g.first_channel_at.as_ref(), |g| g.dangling.as_ref());
            if let Some(m) = slotted.into_iter().next() {
                return Some(m.clone());
            }
        }
        if let Some(m) = first(Phase::Deprecations) {
            return Some(m);
        }
        let mut tree = ErrorTree::new("invalid index");
        let trees = self.in_map_order(|g| g.package_at.as_ref(), |g| (!g.tree.is_empty()).then_some(&g.tree));
        for t in trees {
            tree.child(t.clone());
        }
        (!tree.is_empty()).then(|| tree.render())
    }

    /// What `value` gives for the groups, in the order opm's Go map of packages yields them most
    /// often (`model_checks::go_map_order`), each package keyed where `key_at`'s blob was read.
    fn in_map_order<'a, T>(
        &'a self,
        key_at: impl Fn(&Group) -> Option<&declcfg::Source>,
        value: impl Fn(&'a Group) -> Option<T>,
    ) -> Vec<T> {
        let mut slots: Vec<(usize, u32, u32)> =
            self.groups.values().filter_map(|g| key_at(g).map(|s| self.blob_position(Some(s)))).collect();
        crate::sort::sort(&mut slots);
        let items = self
            .groups
            .values()
            .filter_map(|g| {
                let slot = slots.binary_search(&self.blob_position(Some(key_at(g)?))).ok()?;
                Some((slot, value(g)?))
            })
            .collect();
        super::model_checks::go_map_order(slots.len(), items)
    }
}

#[cfg(test)]
mod tests {
    //! The rules that keep a session's report equal to a full validation, one small catalog each.

    use super::*;
    use crate::validate::{validate_files_with, LintConfig};

    /// The full validation of the session's files.
    fn full(s: &Session) -> Report {
        let files: Vec<FileInput> = s.files().map(|(p, c)| FileInput::new(p, c)).collect();
        validate_files_with(&files, s.options().clone()).report
    }

    /// Open on `files` and check the report against the full validation.
    fn open(files: &[(&str, &str)], options: Options) -> Session {
        let s = Session::open(files.iter().map(|(p, c)| FileInput::new(*p, *c)).collect(), options);
        assert_eq!(s.report(), &full(&s));
        s
    }

    fn update(s: &mut Session, path: &str, content: &str) -> Report {
        let got = s.update(path, content).clone();
        assert_eq!(got, full(s), "after updating {path}");
        got
    }

    fn remove(s: &mut Session, path: &str) -> Report {
        let got = s.remove(path).clone();
        assert_eq!(got, full(s), "after removing {path}");
        got
    }

    fn package(name: &str) -> String {
        format!("schema: olm.package\nname: {name}\ndefaultChannel: stable\n")
    }

    fn channel(pkg: &str, entries: &[&str]) -> String {
        let entries: String = entries.iter().map(|e| format!("- name: {e}\n")).collect();
        format!("schema: olm.channel\npackage: {pkg}\nname: stable\nentries:\n{entries}")
    }

    fn bundle(pkg: &str, name: &str, version: &str) -> String {
        format!(
            "schema: olm.bundle\npackage: {pkg}\nname: {name}\nimage: example.com/{pkg}:{version}\nproperties:\n\
             - type: olm.package\n  value: {{packageName: {pkg}, version: {version:?}}}\n"
        )
    }

    /// A valid package in one file.
    fn whole(pkg: &str) -> String {
        format!(
            "{}---\n{}---\n{}",
            package(pkg),
            channel(pkg, &[&format!("{pkg}.v1")]),
            bundle(pkg, &format!("{pkg}.v1"), "1.0.0")
        )
    }

    fn messages(r: &Report) -> Vec<&str> {
        r.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.as_str()).collect()
    }

    #[test]
    fn an_edit_rechecks_the_packages_of_the_files_old_and_new_blobs() {
        let (foo, bar) = (whole("foo"), whole("bar"));
        let mut s = open(&[("foo.yaml", &foo), ("bar.yaml", &bar)], Options::default());
        assert!(s.report().valid);
        // foo's file now holds a bundle of bar: foo loses its bundle, bar gains a duplicate.
        let r = update(
            &mut s,
            "foo.yaml",
            &format!("{}---\n{}---\n{}", package("foo"), channel("foo", &["foo.v1"]), bundle("bar", "bar.v1", "1.0.0")),
        );
        assert!(messages(&r).contains(&"package \"bar\" has duplicate bundle \"bar.v1\""), "{:?}", messages(&r));
        update(&mut s, "foo.yaml", &foo);
        assert!(s.report().valid);
    }

    #[test]
    fn a_package_spread_over_files_is_built_from_all_of_them_in_walk_order() {
        // Walk order puts `a/z.yaml` before `b.yaml`: the bundle read first is the one kept.
        let mut s = open(
            &[
                ("b.yaml", &bundle("foo", "foo.v1", "1.0.0")),
                ("a/z.yaml", &format!("{}---\n{}", package("foo"), channel("foo", &["foo.v1"]))),
            ],
            Options::default(),
        );
        let r = update(&mut s, "a/y.yaml", &bundle("foo", "foo.v1", "2.0.0"));
        let dup = r.diagnostics.iter().find(|d| d.code == Code::DuplicateBundle).expect("a duplicate bundle");
        assert_eq!((dup.location.file.as_str(), dup.related[0].location.file.as_str()), ("b.yaml", "a/y.yaml"));
        remove(&mut s, "a/y.yaml");
    }

    #[test]
    fn an_indexignore_edit_reads_and_unreads_files() {
        let mut s =
            open(&[("foo/catalog.yaml", &whole("foo")), ("bar/catalog.yaml", &whole("Bar"))], Options::default());
        assert!(!s.report().valid);
        assert!(update(&mut s, ".indexignore", "bar/\n").valid);
        // An ignored file's edits change nothing.
        assert!(update(&mut s, "bar/catalog.yaml", "not: [yaml").valid);
        assert!(!update(&mut s, ".indexignore", "# nothing\n").valid);
        assert!(!remove(&mut s, ".indexignore").valid);
        assert!(remove(&mut s, "bar/catalog.yaml").valid);
        // Removing a file that is not there is no edit.
        assert!(remove(&mut s, "bar/catalog.yaml").valid);
    }

    #[test]
    fn a_deprecation_naming_no_package_is_counted_among_every_deprecation_blob() {
        let dep = |pkg: &str| {
            format!("schema: olm.deprecations\npackage: {pkg:?}\nentries:\n- reference: {{schema: olm.package}}\n  message: gone\n")
        };
        let mut s = open(&[("a.yaml", &whole("foo")), ("z.yaml", &dep(""))], Options::default());
        assert_eq!(messages(s.report()), ["package name must be set for deprecation item 0"]);
        let r = update(&mut s, "b.yaml", &dep("foo"));
        assert_eq!(messages(&r), ["package name must be set for deprecation item 1"]);
        assert_eq!(r.opm_message.as_deref(), Some("package name must be set for deprecation item 1"));
    }

    #[test]
    fn opms_message_is_the_first_error_in_phase_order_then_load_order() {
        // Package `a` (read second) has a bad version (bundle phase); `b` (read first) an unknown
        // package for a channel (channel phase): opm meets `b`'s first.
        let a = format!("{}---\n{}---\n{}", package("a"), channel("a", &["a.v1"]), bundle("a", "a.v1", "1.0"));
        let mut s = open(&[("2.yaml", &a), ("1.yaml", &whole("b"))], Options::default());
        assert_eq!(
            s.report().opm_message.as_deref(),
            Some("error parsing bundle \"a.v1\" version \"1.0\": No Major.Minor.Patch elements found")
        );
        let r = update(&mut s, "1.yaml", &format!("{}---\n{}", whole("b"), channel("nope", &["x"])));
        assert_eq!(r.opm_message.as_deref(), Some("unknown package \"nope\" for channel \"stable\""));
        // Within a phase, the blob read first: a bad version in `1.yaml` comes before `2.yaml`'s.
        let b = format!("{}---\n{}---\n{}", package("b"), channel("b", &["b.v1"]), bundle("b", "b.v1", "x"));
        let r = update(&mut s, "1.yaml", &b);
        assert_eq!(
            r.opm_message.as_deref(),
            Some("error parsing bundle \"b.v1\" version \"x\": No Major.Minor.Patch elements found")
        );
        // A load error comes before all of them.
        let r = update(&mut s, "3.yaml", "a: [\n");
        assert!(r.opm_message.is_some_and(|m| m.contains("yaml:")));
    }

    #[test]
    fn opms_dangling_entry_message_names_the_package_whose_channels_come_first() {
        let dangling = |pkg: &str| format!("{}---\n{}", package(pkg), channel(pkg, &[&format!("{pkg}.v9")]));
        let mut s = open(&[("1.yaml", &dangling("zed")), ("2.yaml", &whole("abe"))], Options::default());
        assert_eq!(
            s.report().opm_message.as_deref(),
            Some("no olm.bundle blobs found in package \"zed\" for olm.channel entries [zed.v9]")
        );
        let r = update(&mut s, "2.yaml", &dangling("abe"));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("no olm.bundle blobs found in package \"zed\" for olm.channel entries [zed.v9]")
        );
        let r = update(&mut s, "1.yaml", &whole("zed"));
        assert_eq!(
            r.opm_message.as_deref(),
            Some("no olm.bundle blobs found in package \"abe\" for olm.channel entries [abe.v9]")
        );
    }

    #[test]
    fn a_lints_level_follows_the_package_of_the_blob_it_points_into() {
        // Two versions, the head the lower: head-not-highest, an error for `foo` only.
        let pkg = |name: &str| {
            format!(
                "{}---\nschema: olm.channel\npackage: {name}\nname: stable\nentries:\n- name: {name}.v2\n- name: {name}.v1\n  replaces: {name}.v2\n---\n{}---\n{}",
                package(name),
                bundle(name, &format!("{name}.v2"), "2.0.0"),
                bundle(name, &format!("{name}.v1"), "1.0.0")
            )
        };
        let config = LintConfig::from_file("c.yaml", b"packages:\n  foo:\n    head-not-highest: error\n").unwrap();
        let mut s = open(&[("a.yaml", &pkg("foo")), ("b.yaml", &pkg("bar"))], Options { lints: true, config });
        assert!(!s.report().valid);
        // The same blobs in a file of their own: the level moves with them.
        update(&mut s, "a.yaml", &pkg("baz"));
        assert!(s.report().valid);
        update(&mut s, "b.yaml", &pkg("foo"));
        assert!(!s.report().valid);
    }

    #[test]
    fn a_path_given_twice_counts_once_the_last_content() {
        let s = Session::open(
            vec![FileInput::new("a.yaml", "x: [\n"), FileInput::new("a.yaml", whole("foo"))],
            Options::default(),
        );
        assert!(s.report().valid);
        assert_eq!(s.files().count(), 1);
    }
}
