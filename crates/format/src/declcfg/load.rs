//! Loading catalog files into a [`DeclarativeConfig`]: choosing JSON-stream or YAML reading per
//! file as opm does, the per-blob "meta" checks (case-folded duplicate keys, `schema`/`package`/
//! `name` strings, missing schema), dispatch on `schema`, and decoding of bundle objects.
//!
//! Unlike opm, a bad blob or file does not stop the load: every problem becomes a located
//! [`Diagnostic`] and the rest of the catalog is still read. The entry point works on in-memory
//! `(path, bytes)` pairs so that the same code serves the native CLI and WebAssembly.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::hash::BuildHasher as _;
use std::sync::Arc;

use super::decode::{self, Checked, DecodeError};
use super::file_bytes::FileBytes;
use super::go_type::GoType;
use super::indexignore::{sort_walk_order, IndexIgnore};
use super::json::JsonReader;
use super::value::{fold, Node, Pos, Value};
use super::yaml::utf8::InvalidUtf8;
use super::yaml::{self, YamlError};
use super::{Blob, DeclarativeConfig, Meta, PropertyValue, Source};
use super::{SCHEMA_BUNDLE, SCHEMA_CHANNEL, SCHEMA_DEPRECATIONS, SCHEMA_PACKAGE};
use crate::diagnostic::{sort_diagnostics, Code, Diagnostic, Location};
use crate::gotext::quote as go_quote;
use crate::hash::Sampled;

/// One file handed to the loader: its path relative to the catalog root (`/`-separated) and its
/// bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInput {
    /// The path, `/`-separated, relative to the catalog root.
    pub path: String,
    /// The bytes.
    pub content: Vec<u8>,
}

impl FileInput {
    /// A file at `path` with `content`.
    pub fn new(path: impl Into<String>, content: impl Into<Vec<u8>>) -> FileInput {
        FileInput { path: path.into(), content: content.into() }
    }
}

/// The result of loading: the blobs that could be read, and every problem found on the way.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// Every blob read.
    pub config: DeclarativeConfig,
    /// What went wrong while reading (each located).
    pub diagnostics: Vec<Diagnostic>,
    /// The files that were read, in walk order (ignored ones left out).
    pub files: Vec<String>,
}

/// Load a catalog tree given as in-memory files: apply `.indexignore`, read the remaining files in
/// the order opm walks them, and merge their blobs.
pub fn load_files(files: &[FileInput]) -> Loaded {
    load_files_with(files, Values::Checked)
}

/// How the loader reads property values.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Values {
    /// `olm.csv.metadata` values checked as they are read, their trees built when first asked
    /// for ([`PropertyValue`](super::PropertyValue)): for validation, which only checks them.
    #[default]
    Checked,
    /// Every value's tree built as it is read: for tools that read or write every value
    /// (render, templates), which would otherwise read those values twice.
    Trees,
}

/// [`load_files`], reading property values as `values` says.
pub fn load_files_with(files: &[FileInput], values: Values) -> Loaded {
    let ignore = IndexIgnore::new(
        files
            .iter()
            .filter(|f| f.path.rsplit('/').next() == Some(".indexignore"))
            .map(|f| (f.path.as_str(), std::str::from_utf8(&f.content).unwrap_or(""))),
    );
    let by_path: BTreeMap<&str, &FileInput> = crate::sort::btree_map(files.iter().map(|f| (f.path.as_str(), f)));
    let order: Vec<String> = by_path.keys().filter(|p| !ignore.is_ignored(p)).map(|p| p.to_string()).collect();
    let parse = |p: &str| parse_file_with(p, by_path.get(p).map(|f| f.content.as_slice()).unwrap_or(&[]), values);
    load_in_order(order, |p| Ok(parse(p))).unwrap_or_else(|e: std::convert::Infallible| match e {})
}

/// Load the files at `paths` (already filtered by `.indexignore`) in opm's walk order: each one
/// parsed by `parse` (in parallel natively), the blobs merged in order and the diagnostics
/// sorted. `parse` may fail (a file that cannot be read); the first failure in walk order is
/// returned.
pub fn load_in_order<E: Send>(
    mut order: Vec<String>,
    parse: impl Fn(&str) -> Result<(Vec<Blob>, Vec<Diagnostic>), E> + Sync,
) -> Result<Loaded, E> {
    sort_walk_order(&mut order);
    #[cfg(not(target_arch = "wasm32"))]
    let parsed: Vec<_> = {
        use rayon::prelude::*;
        order.par_iter().map(|p| parse(p)).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let parsed: Vec<_> = order.iter().map(|p| parse(p)).collect();
    let mut loaded = Loaded { files: order, ..Loaded::default() };
    for result in parsed {
        let (blobs, diags) = result?;
        for b in blobs {
            loaded.config.push(b);
        }
        loaded.diagnostics.extend(diags);
    }
    sort_diagnostics(&mut loaded.diagnostics);
    Ok(loaded)
}

/// Parse every file into value trees with the same readers as [`load_files`] (JSON stream or YAML
/// documents, fast path first), without any blob decoding or checks; returns how many documents
/// parsed. The baseline the benchmarks compare loading and validation with.
pub fn parse_only(files: &[FileInput]) -> usize {
    let one = |f: &FileInput| -> usize {
        let text = text_of(&f.content);
        if text.trim_start().starts_with('{') {
            let mut r = JsonReader::new(&text, 1);
            let mut n = 0;
            while !r.at_end() && r.next_value().is_ok() {
                n += 1;
            }
            n
        } else {
            let docs = yaml::split_documents(&text, 1).unwrap_or_default();
            let parse = |d: &yaml::Document<'_>| yaml::parse(d).is_ok();
            #[cfg(not(target_arch = "wasm32"))]
            {
                use rayon::prelude::*;
                docs.par_iter().filter(|d| parse(d)).count()
            }
            #[cfg(target_arch = "wasm32")]
            {
                docs.iter().filter(|d| parse(d)).count()
            }
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    {
        use rayon::prelude::*;
        files.par_iter().map(one).sum()
    }
    #[cfg(target_arch = "wasm32")]
    {
        files.iter().map(one).sum()
    }
}

/// The value trees of a catalog and of its embedded manifests, as [`parse_and_decode`] keeps them.
#[derive(Debug, Default)]
pub struct ParsedTrees {
    /// Every document of every file that parsed, in file order.
    pub documents: Vec<Node>,
    /// Every `olm.bundle.object` manifest that decoded and parsed.
    pub manifests: Vec<Node>,
}

/// The work any validator must do before it checks anything: every file parsed into value trees
/// that are kept (as [`parse_only`], but not dropped document by document), and every
/// `olm.bundle.object` payload (`properties[].value.data` of any document) decoded from base64
/// and parsed into a tree (JSON, else YAML), kept too. The baseline the validation benchmarks
/// compare with (docs/performance.md, the validate row of "The targets").
pub fn parse_and_decode(files: &[FileInput]) -> ParsedTrees {
    let one = |f: &FileInput| -> ParsedTrees {
        let text = text_of(&f.content);
        let documents: Vec<Node> = if text.trim_start().starts_with('{') {
            let mut r = JsonReader::new(&text, 1);
            std::iter::from_fn(|| if r.at_end() { None } else { r.next_value().ok() }).collect()
        } else {
            let docs = yaml::split_documents(&text, 1).unwrap_or_default();
            let parse = |d: &yaml::Document<'_>| yaml::parse(d).ok().flatten();
            #[cfg(not(target_arch = "wasm32"))]
            {
                use rayon::prelude::*;
                docs.par_iter().filter_map(parse).collect()
            }
            #[cfg(target_arch = "wasm32")]
            {
                docs.iter().filter_map(parse).collect()
            }
        };
        let manifests = documents.iter().flat_map(embedded_objects).filter_map(manifest_tree).collect();
        ParsedTrees { documents, manifests }
    };
    #[cfg(not(target_arch = "wasm32"))]
    let parts: Vec<ParsedTrees> = {
        use rayon::prelude::*;
        files.par_iter().map(one).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let parts: Vec<ParsedTrees> = files.iter().map(one).collect();
    let mut all = ParsedTrees::default();
    for p in parts {
        all.documents.extend(p.documents);
        all.manifests.extend(p.manifests);
    }
    all
}

/// The `data` strings of a document's `olm.bundle.object` properties.
fn embedded_objects(doc: &Node) -> impl Iterator<Item = &str> {
    let properties = doc.get("properties").and_then(Node::as_array).unwrap_or(&[]);
    properties
        .iter()
        .filter(|p| p.get("type").and_then(Node::as_str) == Some(super::property_types::TYPE_BUNDLE_OBJECT))
        .filter_map(|p| p.get("value")?.get("data")?.as_str())
}

/// An `olm.bundle.object` payload decoded and parsed into a tree (JSON first, then YAML).
fn manifest_tree(base64: &str) -> Option<Node> {
    let bytes = crate::gotext::decode_base64(base64).ok()?;
    let text = text_of(&bytes);
    let mut json = JsonReader::new(&text, 1);
    match json.next_value() {
        Ok(node) => Some(node),
        Err(_) => yaml::parse(&yaml::Document::new(&text, 1)).ok().flatten(),
    }
}

/// Read one file into blobs. A file whose first non-space byte (within the first 4096) is `{` is
/// a JSON stream, anything else YAML documents; a JSON stream that fails after at most one
/// object is read again as YAML from the end of that object, as Kubernetes' decoder does.
pub fn parse_file(path: &str, bytes: &[u8]) -> (Vec<Blob>, Vec<Diagnostic>) {
    parse_file_with(path, bytes, Values::Checked)
}

/// [`parse_file`], reading property values as `values` says.
pub fn parse_file_with(path: &str, bytes: &[u8], values: Values) -> (Vec<Blob>, Vec<Diagnostic>) {
    parse_text(FileBlobs::new(Arc::from(path), values), bytes, text_of(bytes))
}

/// A file's blobs and findings.
type Parsed = (Vec<Blob>, Vec<Diagnostic>);

/// [`parse_file_with`] on bytes that the values checked without their trees may keep their
/// text in, shared rather than copied (native: the files `load_dir` maps).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn parse_file_shared(path: &str, bytes: Arc<FileBytes>, values: Values) -> Parsed {
    match simdutf8::basic::from_utf8(&bytes) {
        Ok(text) => {
            let known = Some(Arc::default());
            let out = FileBlobs { shared: Some(bytes.clone()), known, ..FileBlobs::new(Arc::from(path), values) };
            parse_text(out, &bytes, Cow::Borrowed(text))
        }
        Err(_) => parse_file_with(path, &bytes, values),
    }
}

/// A file's blobs: `text` is `bytes` as UTF-8.
fn parse_text(mut out: FileBlobs, bytes: &[u8], text: Cow<'_, str>) -> Parsed {
    // go-yaml refuses invalid UTF-8 (encoding/json replaces it): YAML documents holding some fail.
    let invalid = if matches!(text, Cow::Owned(_)) { yaml::utf8::invalid_utf8(bytes) } else { Vec::new() };
    let head = &bytes[..bytes.len().min(4096)];
    let is_json = head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if is_json {
        let mut reader = JsonReader::new(&text, 1);
        let mut good: Vec<Node> = Vec::new();
        let mut last_end = 0usize;
        loop {
            if reader.at_end() {
                break;
            }
            match reader.next_value() {
                Ok(node) => {
                    good.push(node);
                    last_end = reader.offset();
                }
                Err(e) if good.len() < 2 => {
                    // Fall back to YAML for the rest, from the end of the last good object.
                    let mut start = last_end;
                    let rest = text.as_bytes();
                    while let Some(&b) = rest.get(start) {
                        if b == b'\n' {
                            start += 1;
                            break;
                        }
                        if !b.is_ascii_whitespace() {
                            break;
                        }
                        start += 1;
                    }
                    let _ = e;
                    for n in good.drain(..) {
                        out.blob(n, false);
                    }
                    let first_line = 1 + yaml::line_breaks(&text[..start]);
                    let invalid: Vec<_> = invalid
                        .iter()
                        .filter(|i| i.at >= start)
                        .map(|i| InvalidUtf8 { at: i.at - start, ..*i })
                        .collect();
                    out.yaml(text.get(start..).unwrap_or(""), first_line, &invalid);
                    return out.finish();
                }
                Err(e) => {
                    for n in good.drain(..) {
                        out.blob(n, false);
                    }
                    let loc = out.loc(e.pos, "");
                    out.diags.push(Diagnostic::error(Code::JsonSyntax, e.message, loc));
                    return out.finish();
                }
            }
        }
        for n in good {
            out.blob(n, false);
        }
    } else {
        out.yaml(&text, 1, &invalid);
    }
    out.finish()
}

/// One YAML document of a file and what loading it gave: at most one blob, and its findings.
#[derive(Debug, Clone)]
pub struct DocParse {
    /// The document's text, as a byte range of the file.
    pub span: std::ops::Range<usize>,
    /// The file line of its first line.
    pub first_line: u32,
    /// Whether a `---` line started it.
    pub marker: bool,
    /// Its blob, when it made one.
    pub blob: Option<Blob>,
    /// Its findings.
    pub diags: Vec<Diagnostic>,
}

/// [`parse_file`] document by document, for a YAML file of valid UTF-8 (`None` for any other
/// file: a JSON stream, invalid UTF-8, a bad separator line; use [`parse_file`]). A document's
/// result depends only on its text, first line and marker, so `reuse(text, first_line, marker)`
/// may answer it from an earlier parse of the same document; the others are parsed (in
/// parallel natively). The documents' blobs and findings, in order, are [`parse_file`]'s.
pub fn parse_file_documents(
    path: &str,
    bytes: &[u8],
    mut reuse: impl FnMut(&str, u32, bool) -> Option<(Option<Blob>, Vec<Diagnostic>)>,
) -> Option<Vec<DocParse>> {
    let text = simdutf8::basic::from_utf8(bytes).ok()?;
    let head = &bytes[..bytes.len().min(4096)];
    if head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
        return None;
    }
    let docs = yaml::split_documents(text, 1).ok()?;
    let offset = |d: &yaml::Document<'_>| d.text.as_ptr() as usize - text.as_ptr() as usize;
    let mut out: Vec<DocParse> = Vec::with_capacity(docs.len());
    let mut missing = Vec::new();
    for (i, d) in docs.iter().enumerate() {
        let start = offset(d);
        let (blob, diags) = reuse(d.text, d.first_line, d.marker).unwrap_or_else(|| {
            missing.push(i);
            (None, Vec::new())
        });
        out.push(DocParse {
            span: start..start + d.text.len(),
            first_line: d.first_line,
            marker: d.marker,
            blob,
            diags,
        });
    }
    let file: Arc<str> = Arc::from(path);
    let one = |&i: &usize| {
        let mut part = FileBlobs::new(file.clone(), Values::Checked);
        part.yaml_document(&docs[i]);
        part
    };
    #[cfg(not(target_arch = "wasm32"))]
    let parts: Vec<FileBlobs> = {
        use rayon::prelude::*;
        missing.par_iter().map(one).collect()
    };
    #[cfg(target_arch = "wasm32")]
    let parts: Vec<FileBlobs> = missing.iter().map(one).collect();
    for (i, part) in missing.into_iter().zip(parts) {
        out[i].blob = part.blobs.into_iter().next();
        out[i].diags = part.diags;
    }
    Some(out)
}

/// Decode one value tree as a catalog blob, with the loader's meta checks and schema dispatch, as
/// opm's `declcfg.LoadSlice` does for the entries of a catalog template; every problem is located
/// in `file` at the node's own positions. `None` when the value is not a usable blob.
pub fn decode_value(file: &str, node: Node) -> (Option<Blob>, Vec<Diagnostic>) {
    let mut out = FileBlobs::new(Arc::from(file), Values::Trees);
    out.blob(node, true);
    (out.blobs.pop(), out.diags)
}

struct FileBlobs {
    file: Arc<str>,
    blobs: Vec<Blob>,
    diags: Vec<Diagnostic>,
    values: Values,
    /// The file's bytes, when they can be shared by the values checked in it
    /// ([`parse_file_shared`]); else each checked value copies its text.
    shared: Option<Arc<FileBytes>>,
    /// The payloads of the shared bytes checked so far, by all the file's documents.
    known: Option<Arc<KnownPayloads>>,
}

/// The `olm.bundle.object` payloads of one shared file found valid so far, shared by its
/// documents as they are parsed in parallel: a bundle that embeds the same manifest as another
/// of the file (a CRD unchanged from one release to the next, about a seventh of
/// community-v4.16's payload bytes) is not decoded and checked again. Each entry is where a
/// payload is in the file and whether it is JSON, by the [`Sampled`] hash of its text; a hash
/// keeps at most [`KnownPayloads::PER_HASH`], so that a text is compared with a few at most.
#[derive(Default)]
struct KnownPayloads {
    state: crate::hash::RandomState,
    found: std::sync::Mutex<crate::hash::HashMap<u64, Vec<KnownPayload>>>,
}

/// Where a payload is in its file, and whether it is JSON.
type KnownPayload = (std::ops::Range<usize>, bool);

impl KnownPayloads {
    const PER_HASH: usize = 4;

    /// Whether the payload `data`, at `at` in `file`, is JSON, from an equal one found before.
    fn get(&self, file: &[u8], data: &str) -> Option<bool> {
        let found = self.found.lock().ok()?;
        let same = found.get(&self.state.hash_one(Sampled(data)))?;
        same.iter().find(|(at, _)| file.get(at.clone()) == Some(data.as_bytes())).map(|&(_, json)| json)
    }

    fn insert(&self, data: &str, at: std::ops::Range<usize>, json: bool) {
        if let Ok(mut found) = self.found.lock() {
            let same = found.entry(self.state.hash_one(Sampled(data))).or_default();
            if same.len() < Self::PER_HASH {
                same.push((at, json));
            }
        }
    }
}

impl FileBlobs {
    fn new(file: Arc<str>, values: Values) -> FileBlobs {
        FileBlobs { file, blobs: Vec::new(), diags: Vec::new(), values, shared: None, known: None }
    }

    /// A value checked in `doc`: a span of the shared bytes when `doc`'s text lies in them.
    fn checked_value(&self, doc: &yaml::Document<'_>, c: yaml::CheckedValue) -> (Pos, &'static GoType, PropertyValue) {
        let moved = |r: &std::ops::Range<usize>, by: usize| r.start.wrapping_add(by)..r.end.wrapping_add(by);
        let shared = self.shared.as_ref().and_then(|file| {
            let offset = (doc.text.as_ptr() as usize).wrapping_sub(file.as_ptr() as usize);
            let inside = offset.checked_add(doc.text.len()).is_some_and(|end| end <= file.len());
            let string = c.string.as_ref().map(|r| moved(r, offset));
            inside.then(|| PropertyValue::checked_in(file.clone(), moved(&c.span, offset), c.first_line, string))
        });
        let value = shared.unwrap_or_else(|| {
            // The string lies in the value's text.
            let string = c.string.as_ref().map(|r| r.start - c.span.start..r.end - c.span.start);
            PropertyValue::checked_text(&doc.text[c.span.clone()], c.first_line, string)
        });
        (c.pos, c.ty, value)
    }

    fn finish(self) -> (Vec<Blob>, Vec<Diagnostic>) {
        (self.blobs, self.diags)
    }

    fn loc(&self, pos: Pos, pointer: &str) -> Location {
        Location { file: self.file.to_string(), line: pos.line, column: pos.column, pointer: pointer.to_string() }
    }

    fn yaml_error(&mut self, e: YamlError) {
        let loc = self.loc(e.pos, "");
        self.diags.push(Diagnostic::error(Code::YamlSyntax, e.message, loc));
    }

    fn yaml(&mut self, text: &str, first_line: u32, invalid_utf8: &[InvalidUtf8]) {
        let docs = match yaml::split_documents(text, first_line) {
            Ok(d) => d,
            Err(e) => return self.yaml_error(e),
        };
        let one = |doc: &yaml::Document<'_>| {
            let (shared, known) = (self.shared.clone(), self.known.clone());
            let mut part = FileBlobs { shared, known, ..FileBlobs::new(self.file.clone(), self.values) };
            match yaml::utf8::check(text, doc, invalid_utf8) {
                Ok(()) => part.yaml_document(doc),
                Err(e) => part.yaml_error(e),
            }
            part
        };
        #[cfg(not(target_arch = "wasm32"))]
        let parts: Vec<FileBlobs> = {
            use rayon::prelude::*;
            docs.par_iter().map(one).collect()
        };
        #[cfg(target_arch = "wasm32")]
        let parts: Vec<FileBlobs> = docs.iter().map(one).collect();
        for part in parts {
            self.blobs.extend(part.blobs);
            self.diags.extend(part.diags);
        }
    }

    fn yaml_document(&mut self, doc: &yaml::Document<'_>) {
        // The fast path reads the block YAML real catalogs use; anything else goes to the full
        // parser. Bundles' `olm.csv.metadata` values are checked, not built.
        let (parsed, checked) = match self.values {
            Values::Checked => yaml::parse_checking(doc),
            Values::Trees => (yaml::parse(doc), Vec::new()),
        };
        // (None in the browsers' modules, which read every tree: `crate::FAST_PATHS`.)
        let checked = if crate::FAST_PATHS {
            checked.into_iter().map(|c| self.checked_value(doc, c)).collect()
        } else {
            Vec::new()
        };
        let mut checked = Checked(checked);
        let before = (self.blobs.len(), self.diags.len());
        match parsed {
            Ok(Some(node)) => {
                self.blob_checked(node, true, &mut checked);
                if !checked.0.is_empty() {
                    // A checked value that is not a bundle property's: read the whole tree.
                    self.blobs.truncate(before.0);
                    self.diags.truncate(before.1);
                    if let Ok(Some(node)) = yaml::parse(doc) {
                        self.blob(node, true);
                    }
                }
            }
            // An empty document (blank, comments only, or a lone `---` line) is null for go-yaml.
            Ok(None) => {
                let loc = self.loc(Pos::new(doc.line(), 1), "");
                self.diags.push(Diagnostic::error(Code::MissingSchema, "object '' is missing root schema field", loc));
            }
            Err(e) => self.yaml_error(e),
        }
    }

    /// The meta checks and schema dispatch for one top-level value.
    fn blob(&mut self, node: Node, from_yaml: bool) {
        self.blob_checked(node, from_yaml, &mut Checked::default());
    }

    /// [`FileBlobs::blob`] of a tree whose reader left `checked` values in it.
    fn blob_checked(&mut self, node: Node, from_yaml: bool, checked: &mut Checked) {
        let Some(members) = self.object_members(&node, from_yaml) else {
            return;
        };
        if !self.keys_unique_by_case(&node, members) {
            return;
        }
        let Some([schema, package, name]) = self.meta_strings(&node) else {
            return;
        };
        self.dispatch_on_schema(node, schema, package, name, checked);
    }

    /// The members of a top-level object; a null or any other non-object value is reported.
    fn object_members<'n>(&mut self, node: &'n Node, from_yaml: bool) -> Option<&'n [super::Member]> {
        if node.value == Value::Null {
            // A null is no object, yet opm does not say so. From YAML, sigs.k8s.io/yaml decodes
            // the JSON `null` into an interface holding the *Meta, which encoding/json sets to
            // nil without calling Meta.UnmarshalJSON: the Meta stays empty. In a JSON stream the
            // decoder fills the *Meta itself, whose UnmarshalJSON reads `null` into a nil map
            // and re-encodes that as `null`.
            let blob = if from_yaml { "" } else { "null\n" };
            let loc = self.loc(node.pos, "");
            let msg = format!("object '{blob}' is missing root schema field");
            self.diags.push(Diagnostic::error(Code::MissingSchema, msg, loc));
            return None;
        }
        let Some(members) = node.as_object() else {
            let msg = format!(
                "{}json: cannot unmarshal {} into Go value of type map[string]interface {{}}",
                if from_yaml { "error unmarshaling JSON: while decoding JSON: " } else { "" },
                node.kind_name()
            );
            let loc = self.loc(node.pos, "");
            self.diags.push(Diagnostic::error(Code::NotAnObject, msg, loc));
            return None;
        };
        Some(members)
    }

    /// Whether no two keys of `members` differ only by case; each such group is reported.
    fn keys_unique_by_case(&mut self, node: &Node, members: &[super::Member]) -> bool {
        // Most blobs: a few ASCII keys, no two the same but for case (no folding needed).
        if olm_catalog_base::FAST_PATHS && members.len() <= 16 && members.iter().all(|m| m.key.is_ascii()) {
            let clash =
                |(i, a): (usize, &super::Member)| members[..i].iter().any(|b| a.key.eq_ignore_ascii_case(&b.key));
            if !members.iter().enumerate().any(clash) {
                return true;
            }
        }
        let mut groups: BTreeMap<String, Vec<&super::Member>> = BTreeMap::new();
        if members.iter().any(|m| !m.key.is_ascii() || m.key.bytes().any(|b| b.is_ascii_uppercase())) {
            for m in members {
                groups.entry(fold(&m.key)).or_default().push(m);
            }
        }
        let mut bad = false;
        for (folded, ms) in &groups {
            if ms.len() > 1 {
                let mut keys: Vec<&str> = ms.iter().map(|m| m.key.as_str()).collect();
                crate::sort::sort(&mut keys);
                let msg = format!("duplicate keys for key {}: [{}]", go_quote(folded), keys.join(" "));
                let second = ms.iter().map(|m| m.key_pos).max().unwrap_or(node.pos);
                let loc = self.loc(second, &format!("/{}", escape_pointer(ms[ms.len() - 1].key.as_str())));
                self.diags.push(Diagnostic::error(Code::DuplicateKey, msg, loc));
                bad = true;
            }
        }
        !bad
    }

    /// The `schema`, `package` and `name` strings (empty when absent); each non-string is reported.
    fn meta_strings(&mut self, node: &Node) -> Option<[String; 3]> {
        let mut meta = [String::new(), String::new(), String::new()];
        let mut bad = false;
        for (i, key) in ["schema", "package", "name"].iter().enumerate() {
            if let Some(m) = node.field(key) {
                match &m.value.value {
                    Value::String(s) => meta[i] = String::from(s.as_str()),
                    _ => {
                        let msg = format!(
                            "expected value for key {} to be a string, got {}: {}",
                            go_quote(key),
                            go_fmt_t(&m.value),
                            go_fmt_v(&m.value)
                        );
                        let loc = self.loc(m.value.pos, &format!("/{}", escape_pointer(&m.key)));
                        self.diags.push(Diagnostic::error(Code::MetaKeyNotString, msg, loc));
                        bad = true;
                    }
                }
            }
        }
        if bad {
            None
        } else {
            Some(meta)
        }
    }

    /// Decode a blob of a known schema, keep one of any other, report one without a schema.
    fn dispatch_on_schema(&mut self, node: Node, schema: String, package: String, name: String, checked: &mut Checked) {
        let decoded: Result<Blob, (DecodeError, &str)> = match schema.as_str() {
            "" => {
                let msg = format!("object '{}\n' is missing root schema field", node.to_go_json());
                let loc = self.loc(node.pos, "");
                self.diags.push(Diagnostic::error(Code::MissingSchema, msg, loc));
                return;
            }
            SCHEMA_PACKAGE => decode::package(node, &self.file).map(Blob::Package).map_err(|e| (e, "parse package")),
            SCHEMA_CHANNEL => decode::channel(node, &self.file).map(Blob::Channel).map_err(|e| (e, "parse channel")),
            SCHEMA_BUNDLE => {
                decode::bundle(node, &self.file, checked).map(Blob::Bundle).map_err(|e| (e, "parse bundle"))
            }
            SCHEMA_DEPRECATIONS => {
                decode::deprecation(node, &self.file).map(Blob::Deprecation).map_err(|e| (e, "parse deprecation"))
            }
            _ => {
                let source = Source { file: self.file.clone(), pos: node.pos };
                self.blobs.push(Blob::Other(Meta { source, schema, package, name, blob: node }));
                return;
            }
        };
        self.push_decoded(decoded);
    }

    /// Keep a decoded blob (a bundle only when its objects decode too), or report why it failed.
    fn push_decoded(&mut self, decoded: Result<Blob, (DecodeError, &str)>) {
        match decoded {
            Ok(Blob::Bundle(mut b)) => {
                if self.bundle_objects(&mut b) {
                    self.blobs.push(Blob::Bundle(b));
                }
            }
            Ok(blob) => self.blobs.push(blob),
            Err((e, what)) => {
                let code = if e.pointer == "/icon/base64data" { Code::InvalidIcon } else { Code::InvalidField };
                let loc = self.loc(e.pos, &e.pointer);
                self.diags.push(Diagnostic::error(code, format!("{what}: {}", e.message), loc));
            }
        }
    }

    /// Decode every `olm.bundle.object` property (base64, then YAML or JSON), as opm does at load
    /// time. Returns false (and reports) when one fails.
    fn bundle_objects(&mut self, b: &mut super::Bundle) -> bool {
        let mut ok = true;
        for (i, p) in b.properties.iter().enumerate() {
            if p.type_.value != super::property_types::TYPE_BUNDLE_OBJECT {
                continue;
            }
            let data = match (&p.value, p.bundle_object_data()) {
                (_, Some(data)) => Ok(data),
                (None, _) => Err("unexpected end of JSON input".to_string()),
                (Some(v), None) => match &v.value {
                    Value::Null => Ok(""),
                    Value::Object(_) => match v.field("data").map(|m| &m.value) {
                        None | Some(Node { value: Value::Null, .. }) => Ok(""),
                        Some(other) => Err(format!(
                            "json: cannot unmarshal {} into Go struct field BundleObject.data of type []uint8",
                            other.kind_name()
                        )),
                    },
                    _ => Err(format!(
                        "json: cannot unmarshal {} into Go value of type property.BundleObject",
                        v.kind_name()
                    )),
                },
            };
            // `Err((decoded, message))`: the base64 did not decode, or its manifest did not read.
            match data.map_err(|m| (false, m)).and_then(|data| self.check_payload_once(data)) {
                Ok(json) => {
                    b.object_count += 1;
                    // Readers of the payload (CRD lints) need not check its JSON again.
                    if let (true, Some(v)) = (json, &p.value) {
                        v.mark_payload_json();
                    }
                }
                Err((decoded, m)) => {
                    let (package, name) = (go_quote(&b.package.value), go_quote(&b.name.value));
                    let what = if decoded {
                        format!("convert bundle object property at index {i} to JSON")
                    } else {
                        format!("parse property at index {i} as bundle object")
                    };
                    let message = format!("read bundle objects: package {package}, bundle {name}: {what}: {m}");
                    let pos = p.value.as_ref().map(|v| v.pos).unwrap_or(p.pos);
                    let loc = b.source.at(pos, format!("/properties/{i}/value"));
                    self.diags.push(Diagnostic::error(Code::InvalidBundleObject, message, loc));
                    ok = false;
                }
            }
        }
        ok
    }
}

impl FileBlobs {
    /// [`check_payload`], answered without decoding for a payload of the shared bytes equal to
    /// one found valid before ([`KnownPayloads`]). Browsers' modules share no bytes: their code
    /// leaves it out.
    fn check_payload_once(&self, data: &str) -> Result<bool, (bool, String)> {
        let (Some(file), Some(known)) = (&self.shared, &self.known) else { return check_payload(data) };
        if cfg!(target_arch = "wasm32") {
            return check_payload(data);
        }
        let offset = (data.as_ptr() as usize).wrapping_sub(file.as_ptr() as usize);
        let Some(at) = offset.checked_add(data.len()).filter(|&end| end <= file.len()).map(|end| offset..end) else {
            return check_payload(data);
        };
        if let Some(json) = known.get(file, data) {
            return Ok(json);
        }
        let json = check_payload(data)?;
        known.insert(data, at, json);
        Ok(json)
    }
}

/// Whether a bundle object's `data` is base64 of a YAML or JSON document. The bytes are decoded
/// into a buffer kept per thread: nothing is allocated per payload, and no fresh memory is
/// touched (the payloads of a big catalog add up to its size).
/// `Ok(true)`: JSON.
fn check_payload(base64: &str) -> Result<bool, (bool, String)> {
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with(|buffer| {
        let mut buffer = buffer.borrow_mut();
        crate::gotext::decode_base64_into(base64, &mut buffer).map_err(|e| (false, e.to_string()))?;
        let checked = check_manifest(&buffer).map_err(|m| (true, m));
        // A payload far larger than usual does not keep its memory.
        if buffer.capacity() > 16 << 20 {
            *buffer = Vec::new();
        }
        checked
    })
}

/// Whether decoded bundle-object bytes are a YAML or JSON document; `Ok(true)`: JSON.
fn check_manifest(bytes: &[u8]) -> Result<bool, String> {
    // The same answer either way; the browsers' modules keep serde_json's, the smaller code.
    let json = match crate::FAST_PATHS {
        true => super::json_syntax::is_json(bytes),
        false => serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok(),
    };
    if json {
        return Ok(true);
    }
    let text = text_of(bytes);
    let doc = yaml::Document::new(&text, 1);
    // The fast path first, as for catalog files (it answers as the event parser does).
    yaml::parse(&doc).map(|_| false).map_err(|e| e.message)
}

/// The text of a file: its bytes when they are UTF-8 (checked with a vectorized validator), else
/// with each invalid sequence replaced by U+FFFD.
pub fn text_of(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => std::borrow::Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Escape a key for use in a JSON pointer.
pub fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Go's `%v` of a generic JSON value.
fn go_fmt_v(n: &Node) -> String {
    match &n.value {
        Value::Null => "<nil>".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(f) => crate::gotext::format_g(*f, 64),
        Value::String(s) => String::from(s.as_str()),
        Value::Array(a) => format!("[{}]", a.iter().map(go_fmt_v).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut items: Vec<(&str, String)> = m.iter().map(|m| (m.key.as_str(), go_fmt_v(&m.value))).collect();
            crate::sort::sort(&mut items);
            format!("map[{}]", items.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" "))
        }
    }
}

/// Go's `%t` of a generic JSON value (only bools format cleanly).
fn go_fmt_t(n: &Node) -> String {
    match &n.value {
        Value::Null => "%!t(<nil>)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(f) => format!("%!t(float64={})", crate::gotext::format_g(*f, 64)),
        Value::String(s) => format!("%!t(string={s})"),
        Value::Array(a) => format!("[{}]", a.iter().map(go_fmt_t).collect::<Vec<_>>().join(" ")),
        Value::Object(m) => {
            let mut items: Vec<(&str, String)> = m.iter().map(|m| (m.key.as_str(), go_fmt_t(&m.value))).collect();
            crate::sort::sort(&mut items);
            format!("map[{}]", items.iter().map(|(k, v)| format!("{k}:{v}")).collect::<Vec<_>>().join(" "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(files: &[(&str, &str)]) -> Loaded {
        let inputs: Vec<FileInput> = files.iter().map(|(p, c)| FileInput::new(*p, c.as_bytes())).collect();
        load_files(&inputs)
    }

    fn messages(l: &Loaded) -> Vec<String> {
        l.diagnostics.iter().map(|d| d.message.clone()).collect()
    }

    #[test]
    fn json_then_yaml_in_one_file() {
        let l = load(&[("c.json", "{\"schema\":\"a.b\"}\n---\nschema: c.d\n")]);
        assert!(l.diagnostics.is_empty(), "{:?}", messages(&l));
        assert_eq!(l.config.others.len(), 2);
        assert_eq!(l.config.others[1].source.pos, Pos::new(3, 1));
    }

    #[test]
    fn json_stream_then_yaml_fails_after_two_objects() {
        let l = load(&[("c.json", "{\"schema\":\"a.b\"}{\"schema\":\"a.b\"}\n---\nschema: c.d\n")]);
        assert_eq!(messages(&l), vec!["invalid character '-' in numeric literal"]);
        assert_eq!(l.config.others.len(), 2);
    }

    #[test]
    fn meta_errors() {
        let l = load(&[("a.yaml", "hello: world")]);
        assert_eq!(messages(&l), vec!["object '{\"hello\":\"world\"}\n' is missing root schema field"]);
        let l = load(&[("a.json", "{\"schema\":\"olm.package\",\"Name\":\"foo\",\"name\":\"foo\"}")]);
        assert_eq!(messages(&l), vec!["duplicate keys for key \"name\": [Name name]"]);
        let l = load(&[("a.json", "{\"schema\":1}")]);
        assert_eq!(messages(&l), vec!["expected value for key \"schema\" to be a string, got %!t(float64=1): 1"]);
        let l = load(&[("a.json", "{\"schema\": \"olm.package\",\"name\": {}}")]);
        assert_eq!(messages(&l), vec!["expected value for key \"name\" to be a string, got map[]: map[]"]);
        let l = load(&[("a.json", "[]")]);
        assert_eq!(l.diagnostics[0].code, Code::NotAnObject);
    }

    #[test]
    fn every_bad_file_is_reported_and_the_rest_loads() {
        let l = load(&[
            ("a.yaml", "x: [\n"),
            ("b.yaml", "# only a comment\n"),
            ("c.yaml", "schema: olm.package\nname: foo\n"),
            ("README.md", "# Title\n"),
        ]);
        assert_eq!(l.diagnostics.len(), 3);
        assert_eq!(l.config.packages.len(), 1);
        assert_eq!(l.diagnostics[0].location.file, "README.md");
    }

    #[test]
    fn null_documents_are_objects_without_schema() {
        // Empty YAML documents, a lone `---`, and YAML nulls: go-yaml's null leaves opm's Meta
        // empty. A JSON-stream null is re-encoded by Meta.UnmarshalJSON.
        for (src, line) in
            [("---", 1), ("---\n---\n", 1), ("a: b\n---\n---\n", 3), ("# c\n", 1), ("null\n", 1), ("---\n~\n", 2)]
        {
            let l = load(&[("a.yaml", src)]);
            let last = l.diagnostics.last().unwrap();
            assert_eq!(last.message, "object '' is missing root schema field", "{src:?}");
            assert_eq!((last.code, last.location.line), (Code::MissingSchema, line), "{src:?}");
        }
        let l = load(&[("a.json", "{\"schema\":\"a.b\"}\nnull\n")]);
        assert_eq!(messages(&l), vec!["object 'null\n' is missing root schema field"]);
        assert_eq!(l.diagnostics[0].location.line, 2);
        assert!(load(&[("a.yaml", "---\nschema: a.b\n---\n")]).diagnostics.is_empty());
    }

    #[test]
    fn json_lines_after_a_byte_order_mark_are_one_yaml_document() {
        // Not `{` first: YAML. No `---` line: one document, of which go-yaml reads the first line.
        let l = load(&[("c.json", "\u{feff}{\"schema\":\"a.b\"}\n{\"schema\":\"c.d\"}\n{\"schema\":1}\n")]);
        assert!(l.diagnostics.is_empty(), "{:?}", messages(&l));
        assert_eq!(l.config.others.len(), 1);
        assert_eq!(l.config.others[0].schema, "a.b");
    }

    /// A bundle's `olm.csv.metadata` value is checked without its tree and read when asked for;
    /// one the reader checked but the blob does not keep as that property's value (a later
    /// duplicate key, a blob of another schema) leaves the whole document read as trees.
    #[test]
    fn csv_metadata_values_are_read_when_asked_for() {
        let csv = "- type: olm.csv.metadata\n  value:\n    displayName: a\n";
        let l = load(&[("c.yaml", &format!("schema: olm.bundle\nname: b\npackage: p\nproperties:\n{csv}"))]);
        let value = l.config.bundles[0].properties[0].value.as_ref().unwrap();
        assert!(value.checked_unread() && value.built().is_none());
        assert_eq!(value.get("displayName").and_then(Node::as_str), Some("a"));
        assert_eq!(value.pos, Pos::new(7, 5));
        assert!(l.config.bundles[0].properties_fit);
        let twice =
            format!("schema: olm.bundle\nname: b\npackage: p\nproperties:\n{csv}  value:\n    displayName: z\n");
        let l = load(&[("c.yaml", &twice)]);
        let value = l.config.bundles[0].properties[0].value.as_ref().unwrap();
        assert!(!value.checked_unread());
        assert_eq!(value.get("displayName").and_then(Node::as_str), Some("z"));
        // Tools that read every value read them as trees at once.
        let trees = load_files_with(
            &[FileInput::new("c.yaml", twice.replace("  value:\n    displayName: z\n", ""))],
            Values::Trees,
        );
        assert!(!trees.config.bundles[0].properties[0].value.as_ref().unwrap().checked_unread());
        let other = load(&[("c.yaml", &format!("schema: x.custom\nproperties:\n{csv}"))]);
        let value = &other.config.others[0].blob.get("properties").unwrap().as_array().unwrap()[0];
        assert_eq!(value.get("value").and_then(|v| v.get("displayName")).and_then(Node::as_str), Some("a"));
    }

    /// Shared bytes are kept by the values checked in them, which read as the ones that copy
    /// their text.
    #[test]
    fn checked_values_share_the_bytes_of_their_file() {
        let bundle = |n: &str| {
            format!("---\nschema: olm.bundle\nname: {n}\npackage: p\nproperties:\n- type: olm.csv.metadata\n  value:\n    displayName: {n}\n")
        };
        let text = format!("{}{}", bundle("a"), bundle("b"));
        let bytes = Arc::new(FileBytes::Copied(text.as_bytes().into()));
        let (blobs, diags) = parse_file_shared("c.yaml", bytes.clone(), Values::Checked);
        assert!(diags.is_empty());
        assert_eq!(Arc::strong_count(&bytes), 3, "kept by both values");
        let (copied, _) = parse_file("c.yaml", text.as_bytes());
        let values = |blobs: &[Blob]| -> Vec<PropertyValue> {
            let bundle = |b: &Blob| match b {
                Blob::Bundle(b) => b.properties[0].value.clone(),
                _ => None,
            };
            blobs.iter().filter_map(bundle).collect()
        };
        let (shared, copied) = (values(&blobs), values(&copied));
        assert_eq!(shared.len(), 2);
        assert!(shared.iter().all(PropertyValue::checked_unread));
        assert!(shared[0].shares_text_with(&shared[1]) && !copied[0].shares_text_with(&copied[1]));
        assert_eq!(shared, copied);
        assert_eq!(shared[1].get("displayName").and_then(Node::as_str), Some("b"));
        assert_eq!(shared[1].pos, copied[1].pos);
        drop((blobs, shared));
        assert_eq!(Arc::strong_count(&bytes), 1);
    }

    /// A payload repeated in a shared file is answered from the first one's check; the
    /// answers are those of a file read without sharing, an invalid payload included.
    #[test]
    fn a_payload_repeated_in_a_shared_file_gets_the_first_ones_answer() {
        let bundle = |n: &str, data: &str| {
            format!("---\nschema: olm.bundle\nname: {n}\npackage: p\nproperties:\n- type: olm.bundle.object\n  value:\n    data: {data}\n")
        };
        let (json, yaml) = ("eyJraW5kIjoiQ29uZmlnTWFwIn0=", "a2luZDogQ29uZmlnTWFwCg==");
        let text = [("a", json), ("b", yaml), ("c", json), ("d", "abc!"), ("e", yaml), ("f", "abc!")]
            .map(|(n, d)| bundle(n, d))
            .concat();
        let (blobs, diags) =
            parse_file_shared("c.yaml", Arc::new(FileBytes::Copied(text.as_bytes().into())), Values::Checked);
        let (copied, copied_diags) = parse_file("c.yaml", text.as_bytes());
        assert_eq!((&blobs, &diags), (&copied, &copied_diags));
        let is_json: Vec<bool> = blobs
            .iter()
            .filter_map(|b| match b {
                Blob::Bundle(b) => Some(b.properties[0].bundle_object_is_json()),
                _ => None,
            })
            .collect();
        assert_eq!((is_json, diags.len()), (vec![true, false, true, false], 2));

        let known = KnownPayloads::default();
        let file = format!("{json}{json}{yaml}");
        let (first, second) = (&file[..json.len()], &file[json.len()..2 * json.len()]);
        known.insert(first, 0..json.len(), true);
        assert_eq!((known.get(file.as_bytes(), second), known.get(file.as_bytes(), yaml)), (Some(true), None));
    }

    /// A bundle object's `data` checked by the reader is decoded from the file's text, with the
    /// tree left unbuilt, and reported as the tree's would be.
    #[test]
    fn checked_bundle_objects_are_decoded_without_their_trees() {
        let bundle = |data: &str| {
            format!("schema: olm.bundle\nname: b\npackage: p\nproperties:\n- type: olm.bundle.object\n  value:\n    data: {data}\n")
        };
        let l = load(&[("b.yaml", &bundle("eyJraW5kIjoiQ29uZmlnTWFwIn0="))]);
        let b = &l.config.bundles[0];
        assert!(l.diagnostics.is_empty() && b.object_count == 1);
        let value = b.properties[0].value.as_ref().unwrap();
        assert_eq!(b.properties[0].bundle_object_data(), Some("eyJraW5kIjoiQ29uZmlnTWFwIn0="));
        assert!(value.checked_unread() && value.built().is_none());
        assert_eq!(b.properties[0].bundle_object().unwrap().get("kind").and_then(Node::as_str), Some("ConfigMap"));
        // The payload was found to be JSON: its readers need not check it again (not so for YAML).
        assert!(b.properties[0].bundle_object_is_json());
        let yaml = load(&[("b.yaml", &bundle("a2luZDogQ29uZmlnTWFwCg=="))]);
        assert!(yaml.diagnostics.is_empty() && !yaml.config.bundles[0].properties[0].bundle_object_is_json());
        let (bad, quoted) = (load(&[("b.yaml", &bundle("abc!"))]), load(&[("b.yaml", &bundle("'abc!'"))]));
        assert!(bad.config.bundles.is_empty() && bad.diagnostics.len() == 1);
        assert!(bad.diagnostics[0].message.contains("parse property at index 0 as bundle object: illegal base64"));
        assert_eq!(bad.diagnostics, quoted.diagnostics);
    }

    #[test]
    fn bundle_objects_are_decoded() {
        let l = load(&[(
            "b.yaml",
            "schema: olm.bundle\nname: b\npackage: p\nproperties:\n- type: olm.bundle.object\n  value:\n    data: '!!!'\n",
        )]);
        assert_eq!(l.diagnostics.len(), 1);
        assert!(l.diagnostics[0].message.starts_with(
            "read bundle objects: package \"p\", bundle \"b\": parse property at index 0 as bundle object: illegal base64"
        ));
        assert_eq!(l.diagnostics[0].location.pointer, "/properties/0/value");
    }

    #[test]
    fn the_validation_baseline_keeps_every_tree_and_decodes_every_bundle_object() {
        use base64::Engine as _;
        let b64 = |t: &str| base64::engine::general_purpose::STANDARD.encode(t);
        let bundle = format!(
            "schema: olm.bundle\nname: b\npackage: p\nproperties:\n- type: olm.bundle.object\n  value:\n    data: {}\n- type: olm.bundle.object\n  value:\n    data: {}\n- type: olm.package\n  value:\n    packageName: p\n",
            b64(r#"{"kind": "ClusterServiceVersion"}"#),
            b64("kind: CustomResourceDefinition\n"),
        );
        let files = [
            FileInput::new("p/bundle.yaml", format!("{bundle}---\nschema: olm.package\nname: p\n")),
            FileInput::new(
                "q/catalog.json",
                r#"{"schema": "olm.package", "name": "q"} {"schema": "olm.channel", "name": "c"}"#,
            ),
        ];
        let trees = parse_and_decode(&files);
        assert_eq!(trees.documents.len(), 4);
        let kinds: Vec<&str> = trees.manifests.iter().filter_map(|m| m.get("kind")?.as_str()).collect();
        assert_eq!(kinds, ["ClusterServiceVersion", "CustomResourceDefinition"]);
        assert_eq!(parse_only(&files), trees.documents.len());
    }
}
