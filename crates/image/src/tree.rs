//! Named files an image is read from: an OCI layout's `index.json` and `blobs/`, a docker-archive's
//! `manifest.json` and layer files. [`TarTree`] reads them out of a tar archive (oci-archive,
//! docker-archive) without unpacking it, [`MemTree`] from memory (files a browser hands in);
//! the native `DirTree` from a directory.

use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Seek, SeekFrom};

use crate::Error;

/// A tree of files, read one at a time.
pub trait FileTree {
    /// The file at `path` (`/`-separated, relative to the tree's root), or `None` when there is none.
    fn open(&mut self, path: &str) -> Result<Option<Box<dyn Read + '_>>, Error>;
}

/// The files of a tar archive, indexed once, each read by seeking to it.
pub struct TarTree<R> {
    reader: R,
    files: HashMap<String, TarFile>,
}

enum TarFile {
    Data {
        offset: u64,
        size: u64,
    },
    /// A hard or symbolic link to another entry (the target's path, resolved).
    Link(String),
}

impl<R: Read + Seek> TarTree<R> {
    /// Index the regular files and links of the archive `reader` (their contents are skipped).
    pub fn new(mut reader: R) -> Result<TarTree<R>, Error> {
        let mut files = HashMap::new();
        {
            let mut archive = tar::Archive::new(&mut reader);
            let entries = archive.entries_with_seek().map_err(|e| Error::io("the archive", e))?;
            for entry in entries {
                let entry = entry.map_err(|e| Error::malformed("the archive", e))?;
                let path = entry.path().map_err(|e| Error::malformed("the archive", e))?;
                let Some(path) = clean(&path.to_string_lossy()) else { continue };
                let kind = entry.header().entry_type();
                let file = if kind.is_file() || kind == tar::EntryType::Continuous {
                    TarFile::Data { offset: entry.raw_file_position(), size: entry.size() }
                } else if kind.is_hard_link() || kind.is_symlink() {
                    let target = entry.link_name().ok().flatten().map(|t| t.to_string_lossy().into_owned());
                    let base = if kind.is_symlink() { path.rsplit_once('/').map_or("", |(d, _)| d) } else { "" };
                    match target.and_then(|t| resolve(base, &t)) {
                        Some(t) => TarFile::Link(t),
                        None => continue,
                    }
                } else {
                    continue;
                };
                files.insert(path, file);
            }
        }
        Ok(TarTree { reader, files })
    }
}

impl<R: Read + Seek> FileTree for TarTree<R> {
    fn open(&mut self, path: &str) -> Result<Option<Box<dyn Read + '_>>, Error> {
        let mut path = match clean(path) {
            Some(p) => p,
            None => return Ok(None),
        };
        // Links are followed a bounded number of times (a cycle ends as a missing file).
        for _ in 0..16 {
            match self.files.get(&path) {
                None => return Ok(None),
                Some(TarFile::Link(target)) => path = target.clone(),
                Some(TarFile::Data { offset, size }) => {
                    let size = *size;
                    self.reader.seek(SeekFrom::Start(*offset)).map_err(|e| Error::io(path.as_str(), e))?;
                    return Ok(Some(Box::new((&mut self.reader).take(size))));
                }
            }
        }
        Ok(None)
    }
}

/// Files held in memory, by path.
#[derive(Debug, Default, Clone)]
pub struct MemTree(pub BTreeMap<String, Vec<u8>>);

impl FileTree for MemTree {
    fn open(&mut self, path: &str) -> Result<Option<Box<dyn Read + '_>>, Error> {
        let Some(path) = clean(path) else { return Ok(None) };
        Ok(self.0.get(&path).map(|b| Box::new(b.as_slice()) as Box<dyn Read>))
    }
}

/// A directory on disk (an OCI layout).
#[cfg(not(target_arch = "wasm32"))]
pub struct DirTree(pub std::path::PathBuf);

#[cfg(not(target_arch = "wasm32"))]
impl FileTree for DirTree {
    fn open(&mut self, path: &str) -> Result<Option<Box<dyn Read + '_>>, Error> {
        let Some(path) = clean(path) else { return Ok(None) };
        let full = self.0.join(&path);
        match std::fs::File::open(&full) {
            Ok(f) => Ok(Some(Box::new(std::io::BufReader::new(f)))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io(full.display().to_string(), e)),
        }
    }
}

/// `path` relative and normalised (`./` and empty parts dropped), or `None` when it is absolute
/// or climbs out with `..`.
pub fn clean(path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    resolve("", path)
}

/// `target` read from directory `base` (both relative), normalised; `None` when it leaves the root
/// or is absolute.
fn resolve(base: &str, target: &str) -> Option<String> {
    if target.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn archive(entries: &[(&str, &[u8])], links: &[(&str, &str, tar::EntryType)]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (path, data) in entries {
            let mut h = tar::Header::new_gnu();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            b.append_data(&mut h, path, *data).unwrap();
        }
        for (path, target, kind) in links {
            let mut h = tar::Header::new_gnu();
            h.set_entry_type(*kind);
            h.set_size(0);
            b.append_link(&mut h, path, target).unwrap();
        }
        b.into_inner().unwrap()
    }

    fn read(t: &mut impl FileTree, p: &str) -> Option<String> {
        let mut s = String::new();
        t.open(p).unwrap()?.read_to_string(&mut s).unwrap();
        Some(s)
    }

    #[test]
    fn a_tar_tree_reads_files_by_path_and_follows_links_inside_it() {
        let bytes = archive(
            &[("./index.json", b"{}"), ("blobs/sha256/ab", b"blob")],
            &[
                ("l/layer.tar", "../blobs/sha256/ab", tar::EntryType::Symlink),
                ("h", "index.json", tar::EntryType::Link),
            ],
        );
        let mut t = TarTree::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(read(&mut t, "index.json").as_deref(), Some("{}"));
        assert_eq!(read(&mut t, "l/layer.tar").as_deref(), Some("blob"));
        assert_eq!(read(&mut t, "h").as_deref(), Some("{}"));
        assert_eq!(read(&mut t, "missing"), None);
    }

    #[test]
    fn paths_that_leave_the_root_are_never_opened() {
        assert_eq!(clean("./a//b/./c").as_deref(), Some("a/b/c"));
        assert_eq!(clean("a/../b").as_deref(), Some("b"));
        assert_eq!(clean("../etc/passwd"), None);
        assert_eq!(clean("/etc/passwd"), None);
        let bytes = archive(&[("a", b"x")], &[("up", "../../a", tar::EntryType::Symlink)]);
        let mut t = TarTree::new(std::io::Cursor::new(bytes)).unwrap();
        assert_eq!(read(&mut t, "up"), None);
    }
}
