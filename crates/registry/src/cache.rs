//! A content-addressed cache of blobs (manifests, configs, layers) under
//! `$XDG_CACHE_HOME/olm-catalog` (else `$HOME/.cache/olm-catalog`): `blobs/ALG/HEX`. A blob is
//! written to a temporary file beside its place, checked against its digest and renamed into
//! place, so two processes filling the cache at once never see half a blob; it is checked again
//! when read, and a corrupted entry is removed (and fetched again by the caller).
//!
//! The files unpacked from an image are kept too (`trees/ALG/HEX` for the image's manifest
//! digest: the digest of an index blob listing each file's path and digest, the files being
//! blobs), so that a warm read unpacks no layer; every file is checked when read, and a tree with
//! a file missing or corrupted is read from its layers again.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use olm_catalog_image::{Digest, Hasher};

use crate::Error;

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The cache's root.
#[derive(Debug, Clone)]
pub struct Cache {
    root: PathBuf,
}

impl Cache {
    /// The cache at `root`.
    pub fn at(root: impl Into<PathBuf>) -> Cache {
        Cache { root: root.into() }
    }

    /// The user's cache (`None` when neither `XDG_CACHE_HOME` nor `HOME` is set).
    pub fn default_location() -> Option<Cache> {
        let base = std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
        Some(Cache::at(base.join("olm-catalog")))
    }

    fn path(&self, d: &Digest) -> PathBuf {
        self.root.join("blobs").join(d.algorithm().name()).join(d.hex())
    }

    /// The cached blob `d`, verified, positioned at its start; `None` when it is not cached or
    /// was corrupted (then it is removed).
    pub fn get(&self, d: &Digest) -> Option<File> {
        let path = self.path(d);
        let mut f = File::open(&path).ok()?;
        let mut h = Hasher::new(d.algorithm());
        let mut buf = vec![0u8; 256 * 1024];
        loop {
            match f.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => h.update(&buf[..n]),
                Err(_) => return None,
            }
        }
        if h.finish() != *d {
            let _ = std::fs::remove_file(&path);
            return None;
        }
        f.seek(SeekFrom::Start(0)).ok()?;
        Some(f)
    }

    /// Store what `r` gives as the blob `d` (refused, and nothing stored, when it is not `d`);
    /// the stored file, positioned at its start.
    pub fn put(&self, d: &Digest, mut r: impl Read) -> Result<File, Error> {
        let path = self.path(d);
        let dir = path.parent().expect("blobs/ALG");
        let io_err = |e: io::Error| Error::Cache { path: dir.display().to_string(), message: e.to_string() };
        std::fs::create_dir_all(dir).map_err(io_err)?;
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{}-{}-{n}.partial", d.hex(), std::process::id()));
        let written = (|| -> Result<Digest, Error> {
            let mut out = File::create(&temp).map_err(io_err)?;
            let mut h = Hasher::new(d.algorithm());
            let mut buf = vec![0u8; 256 * 1024];
            loop {
                let n =
                    r.read(&mut buf).map_err(|e| Error::Transfer { what: d.to_string(), message: e.to_string() })?;
                if n == 0 {
                    break;
                }
                h.update(&buf[..n]);
                out.write_all(&buf[..n]).map_err(io_err)?;
            }
            // No fsync: a cache entry torn by a crash fails its digest when read, and is fetched again.
            Ok(h.finish())
        })();
        let checked = written.and_then(|actual| d.check(&format!("blob {d}"), actual).map_err(Error::Image));
        if let Err(e) = checked {
            let _ = std::fs::remove_file(&temp);
            return Err(e);
        }
        std::fs::rename(&temp, &path).map_err(io_err)?;
        File::open(&path).map_err(io_err)
    }
}

impl Cache {
    fn tree_path(&self, image: &Digest) -> PathBuf {
        self.root.join("trees").join(image.algorithm().name()).join(image.hex())
    }

    /// The files unpacked from the image `image` (its manifest's digest), each verified; `None`
    /// when they are not cached or one is missing or corrupted.
    pub fn get_tree(&self, image: &Digest) -> Option<Vec<(String, Vec<u8>)>> {
        let pointer = std::fs::read_to_string(self.tree_path(image)).ok()?;
        let index = Digest::parse(pointer.trim()).ok()?;
        let mut bytes = Vec::new();
        self.get(&index)?.read_to_end(&mut bytes).ok()?;
        let listed: Vec<(String, String)> = serde_json::from_slice(&bytes).ok()?;
        let mut files = Vec::with_capacity(listed.len());
        for (path, digest) in listed {
            let mut content = Vec::new();
            self.get(&Digest::parse(&digest).ok()?)?.read_to_end(&mut content).ok()?;
            files.push((path, content));
        }
        Some(files)
    }

    /// Keep the files unpacked from the image `image`.
    pub fn put_tree(&self, image: &Digest, files: &[(String, Vec<u8>)]) -> Result<(), Error> {
        let mut listed = Vec::with_capacity(files.len());
        for (path, content) in files {
            let d = Digest::sha256_of(content);
            if !self.path(&d).exists() {
                self.put(&d, content.as_slice())?;
            }
            listed.push((path.clone(), d.to_string()));
        }
        let index = serde_json::to_vec(&listed).expect("strings serialise");
        let index_digest = Digest::sha256_of(&index);
        self.put(&index_digest, index.as_slice())?;
        let pointer = self.tree_path(image);
        let dir = pointer.parent().expect("trees/ALG");
        let io_err = |e: io::Error| Error::Cache { path: dir.display().to_string(), message: e.to_string() };
        std::fs::create_dir_all(dir).map_err(io_err)?;
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{}-{}-{n}.partial", image.hex(), std::process::id()));
        std::fs::write(&temp, index_digest.to_string()).map_err(io_err)?;
        std::fs::rename(&temp, &pointer).map_err(io_err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("olm-catalog-cache-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn a_blob_is_stored_under_its_digest_and_read_back_verified() {
        let root = scratch("roundtrip");
        let c = Cache::at(&root);
        let d = Digest::sha256_of(b"blob");
        assert!(c.get(&d).is_none());
        c.put(&d, &b"blob"[..]).unwrap();
        let mut s = String::new();
        c.get(&d).unwrap().read_to_string(&mut s).unwrap();
        assert_eq!(s, "blob");
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_blob_that_is_not_its_digest_is_not_stored() {
        let root = scratch("mismatch");
        let c = Cache::at(&root);
        let d = Digest::sha256_of(b"blob");
        assert!(matches!(c.put(&d, &b"other"[..]), Err(Error::Image(_))));
        assert!(c.get(&d).is_none());
        let leftovers = std::fs::read_dir(root.join("blobs/sha256")).unwrap().count();
        assert_eq!(leftovers, 0);
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn an_images_files_are_kept_and_a_corrupted_one_spoils_the_tree() {
        let root = scratch("tree");
        let c = Cache::at(&root);
        let image = Digest::sha256_of(b"manifest");
        let files =
            vec![("a/catalog.json".to_string(), b"{}".to_vec()), ("b/catalog.yaml".to_string(), b"x: 1".to_vec())];
        assert!(c.get_tree(&image).is_none());
        c.put_tree(&image, &files).unwrap();
        assert_eq!(c.get_tree(&image).unwrap(), files);
        std::fs::write(root.join("blobs/sha256").join(Digest::sha256_of(b"x: 1").hex()), b"x: 2").unwrap();
        assert!(c.get_tree(&image).is_none());
        let _ = std::fs::remove_dir_all(root);
    }

    #[test]
    fn a_corrupted_entry_is_detected_and_removed() {
        let root = scratch("corrupt");
        let c = Cache::at(&root);
        let d = Digest::sha256_of(b"blob");
        c.put(&d, &b"blob"[..]).unwrap();
        std::fs::write(root.join("blobs/sha256").join(d.hex()), b"bad!").unwrap();
        assert!(c.get(&d).is_none());
        assert!(!root.join("blobs/sha256").join(d.hex()).exists());
        let _ = std::fs::remove_dir_all(root);
    }
}
