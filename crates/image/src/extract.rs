//! The catalog (or bundle) subtree of an image, built from its layers in order as a container
//! runtime would unpack them: later files replace earlier ones, whiteouts (`.wh.NAME`) delete
//! what lower layers had, opaque markers (`.wh..wh..opq`) empty a directory of lower content.
//! Only the subtrees asked for are kept; entries that could escape the image (absolute paths,
//! `..`, links leaving the root) and devices are skipped with a [`Finding`].

use std::collections::BTreeMap;
use std::fmt;
use std::io::Read;

use crate::budgets::Budgets;
use crate::Error;

const WHITEOUT: &str = ".wh.";
const OPAQUE: &str = ".wh..wh..opq";
const MAX_LINK_HOPS: usize = 16;

/// Something skipped while reading a layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The layer (its digest, or its file in an archive).
    pub layer: String,
    /// The entry's path as the tar stream spells it.
    pub path: String,
    pub kind: FindingKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FindingKind {
    AbsolutePath,
    ParentDirectory,
    /// A link whose target leaves the image's root.
    LinkEscapes {
        target: String,
    },
    /// A link whose target is not a file of the kept subtree.
    LinkUnresolved {
        target: String,
    },
    /// A device, FIFO or other special file.
    SpecialFile,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match &self.kind {
            FindingKind::AbsolutePath => "an absolute path".to_string(),
            FindingKind::ParentDirectory => "a path with `..`".to_string(),
            FindingKind::LinkEscapes { target } => format!("a link to {target:?}, outside the image"),
            FindingKind::LinkUnresolved { target } => {
                format!("a link to {target:?}, not a file of the image's catalog")
            }
            FindingKind::SpecialFile => "a device or special file".to_string(),
        };
        write!(f, "layer {}: tar entry {:?} is {why}; skipped", self.layer, self.path)
    }
}

/// A kept path's content.
#[derive(Debug, Clone)]
enum Node {
    File(Vec<u8>),
    /// A symbolic or hard link, its target resolved to a path from the image root.
    Link(String),
    Dir,
}

/// What one layer does to the tree: applied only once the layer's digest is verified.
#[derive(Debug, Default)]
pub struct LayerChanges {
    /// Paths deleted (with everything under them) from lower layers.
    removed: Vec<String>,
    /// Directories emptied of lower layers' content.
    emptied: Vec<String>,
    nodes: Vec<(String, Node)>,
    findings: Vec<Finding>,
}

/// The subtrees kept so far, layer after layer.
pub struct Extraction {
    /// The image directories kept (relative, no trailing `/`; empty: the whole image).
    roots: Vec<String>,
    tree: BTreeMap<String, Node>,
    findings: Vec<Finding>,
    kept_bytes: u64,
    budgets: Budgets,
}

impl Extraction {
    /// An empty tree keeping the image directories `roots` (`/configs`, `manifests/`).
    pub fn new(roots: &[&str], budgets: &Budgets) -> Extraction {
        let roots = roots.iter().map(|r| r.trim_matches('/').to_string()).collect();
        Extraction { roots, tree: BTreeMap::new(), findings: Vec::new(), kept_bytes: 0, budgets: budgets.clone() }
    }

    fn kept(&self, path: &str) -> bool {
        self.roots.iter().any(|r| within(path, r))
    }

    /// Read one layer's (decompressed) tar stream into the changes it makes; `layer` names it in
    /// findings and errors.
    pub fn read_layer(&mut self, layer: &str, plain: impl Read) -> Result<LayerChanges, Error> {
        let what = || format!("layer {layer}");
        let mut changes = LayerChanges::default();
        let mut archive = tar::Archive::new(Padded { inner: plain, total: 0, zeros: None });
        let entries = archive.entries().map_err(|e| Error::reading(what(), e))?;
        for (n, entry) in entries.enumerate() {
            if n as u64 >= self.budgets.entries {
                return Err(Error::Budget { what: what(), message: format!("more than {} tar entries", n) });
            }
            let mut entry = entry.map_err(|e| Error::reading(what(), e))?;
            let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
            let skip = |kind| Finding { layer: layer.to_string(), path: raw.clone(), kind };
            let path = match entry_path(&raw) {
                Ok(p) => p,
                Err(kind) => {
                    changes.findings.push(skip(kind));
                    continue;
                }
            };
            let (dir, name) = path.rsplit_once('/').unwrap_or(("", &path));
            if name == OPAQUE {
                changes.emptied.push(dir.to_string());
                continue;
            }
            if let Some(gone) = name.strip_prefix(WHITEOUT) {
                changes.removed.push(join(dir, gone));
                continue;
            }
            if !self.kept(&path) {
                continue;
            }
            let kind = entry.header().entry_type();
            let node = if kind.is_file() || kind == tar::EntryType::Continuous {
                let size = entry.size();
                self.kept_bytes += size;
                if self.kept_bytes > self.budgets.extracted_bytes {
                    let message = format!("the files kept exceed {} bytes", self.budgets.extracted_bytes);
                    return Err(Error::Budget { what: what(), message });
                }
                let mut content = Vec::with_capacity(size.min(1 << 24) as usize);
                entry.read_to_end(&mut content).map_err(|e| Error::reading(format!("{}: {raw}", what()), e))?;
                Node::File(content)
            } else if kind.is_dir() {
                Node::Dir
            } else if kind.is_symlink() || kind.is_hard_link() {
                let target =
                    entry.link_name_bytes().map(|t| String::from_utf8_lossy(&t).into_owned()).unwrap_or_default();
                let base = if kind.is_symlink() { dir } else { "" };
                match link_target(base, &target) {
                    Some(t) => Node::Link(t),
                    None => {
                        changes.findings.push(skip(FindingKind::LinkEscapes { target }));
                        continue;
                    }
                }
            } else if kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
                continue;
            } else {
                changes.findings.push(skip(FindingKind::SpecialFile));
                continue;
            };
            changes.nodes.push((path, node));
        }
        Ok(changes)
    }

    /// Apply a verified layer's changes: its whiteouts to what lower layers left, then its files.
    pub fn commit(&mut self, changes: LayerChanges) {
        for dir in &changes.emptied {
            self.remove_under(dir);
        }
        for path in &changes.removed {
            self.tree.remove(path);
            self.remove_under(path);
        }
        for (path, node) in changes.nodes {
            if !matches!(node, Node::Dir) {
                // A file or link replaces a directory of that name (and all it held).
                self.remove_under(&path);
            }
            if matches!(node, Node::Dir) && matches!(self.tree.get(&path), Some(Node::Dir)) {
                continue;
            }
            self.tree.insert(path, node);
        }
        self.findings.extend(changes.findings);
    }

    fn remove_under(&mut self, dir: &str) {
        if dir.is_empty() {
            self.tree.clear();
            return;
        }
        let prefix = format!("{dir}/");
        let doomed: Vec<String> = self
            .tree
            .range(prefix.clone()..)
            .take_while(|(k, _)| k.starts_with(&prefix))
            .map(|(k, _)| k.clone())
            .collect();
        for k in doomed {
            self.tree.remove(&k);
        }
    }

    /// The kept files, each named by `rename` from its image path (`None` drops it), links
    /// resolved to their targets' content, and every finding. A file's bytes are moved out, not
    /// copied (a catalog image's configs can be tens of MB); a link's target is copied.
    pub fn finish(self, rename: impl Fn(&str) -> Option<String>) -> (Vec<(String, Vec<u8>)>, Vec<Finding>) {
        let mut findings = self.findings;
        let mut linked: BTreeMap<String, Option<Vec<u8>>> = (self.tree.iter())
            .filter_map(|(path, node)| match node {
                Node::Link(target) => Some((path.clone(), follow(&self.tree, target).cloned())),
                _ => None,
            })
            .collect();
        let mut files = Vec::new();
        for (path, node) in self.tree {
            let content = match node {
                Node::Dir => continue,
                Node::File(c) => c,
                Node::Link(target) => match linked.remove(&path).flatten() {
                    Some(c) => c,
                    None => {
                        let kind = FindingKind::LinkUnresolved { target };
                        findings.push(Finding { layer: "(all layers)".into(), path, kind });
                        continue;
                    }
                },
            };
            if let Some(name) = rename(&path) {
                files.push((name, content));
            }
        }
        (files, findings)
    }
}

/// A tar stream completed at its end: the last entry's padding to a 512-byte block and the two
/// zero blocks that end an archive, which some writers leave out (umoci 0.4.7's `insert`). Only
/// that much is added, so a stream cut short inside an entry is still an error (and a cut blob
/// fails its digest, which covers the bytes before this reader).
struct Padded<R> {
    inner: R,
    total: u64,
    /// Zeros still to give once the stream has ended.
    zeros: Option<u64>,
}

impl<R: Read> Read for Padded<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.zeros.is_none() {
            let n = self.inner.read(buf)?;
            if n > 0 || buf.is_empty() {
                self.total += n as u64;
                return Ok(n);
            }
            self.zeros = Some((512 - self.total % 512) % 512 + 1024);
        }
        let left = self.zeros.as_mut().expect("set above");
        let n = (*left).min(buf.len() as u64) as usize;
        buf[..n].fill(0);
        *left -= n as u64;
        Ok(n)
    }
}

/// The file a link's target is, following links a bounded number of times.
fn follow<'t>(tree: &'t BTreeMap<String, Node>, target: &str) -> Option<&'t Vec<u8>> {
    let mut at = target.to_string();
    for _ in 0..MAX_LINK_HOPS {
        match tree.get(&at)? {
            Node::File(c) => return Some(c),
            Node::Link(next) => at = next.clone(),
            Node::Dir => return None,
        }
    }
    None
}

/// A tar entry's path, relative and normalised; absolute paths and `..` are refused.
fn entry_path(raw: &str) -> Result<String, FindingKind> {
    if raw.starts_with('/') {
        return Err(FindingKind::AbsolutePath);
    }
    let parts: Vec<&str> = raw.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    if parts.contains(&"..") {
        return Err(FindingKind::ParentDirectory);
    }
    Ok(parts.join("/"))
}

/// A link's target as a path from the image root: absolute targets are from the root (as in a
/// container), relative ones from `base`; `None` when it climbs above the root.
fn link_target(base: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> =
        if target.starts_with('/') { Vec::new() } else { base.split('/').filter(|p| !p.is_empty()).collect() };
    for p in target.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn within(path: &str, root: &str) -> bool {
    root.is_empty() || path == root || path.strip_prefix(root).is_some_and(|rest| rest.starts_with('/'))
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

#[cfg(test)]
mod tests;
