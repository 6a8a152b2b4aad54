//! What a file held when it was read ([`Snapshot`]), and what a write expects to find on disk
//! before it replaces the file ([`Expect`]).

use std::io;
use std::path::Path;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

/// A file as it was read: its size, modification time and a hash of its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    len: u64,
    modified: Option<SystemTime>,
    sha256: [u8; 32],
}

impl Snapshot {
    /// The snapshot of `bytes`, just read from `path`: their hash, and the file's size and
    /// modification time as they are now. A change between the read and this call is caught
    /// later all the same: the hash is of the bytes that were read.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join(format!("olm-save-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("catalog.json");
    /// std::fs::write(&path, "{}").unwrap();
    /// let snap = olm_catalog_save::Snapshot::taken(&path, b"{}").unwrap();
    /// assert!(snap.matches(&path).unwrap());
    /// std::fs::write(&path, "{ }").unwrap();
    /// assert!(!snap.matches(&path).unwrap());
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// ```
    pub fn taken(path: &Path, bytes: &[u8]) -> io::Result<Snapshot> {
        let meta = std::fs::metadata(path)?;
        Ok(Snapshot { len: meta.len(), modified: meta.modified().ok(), sha256: hash(bytes) })
    }

    /// Read `path` and take its snapshot.
    pub fn read(path: &Path) -> io::Result<(Vec<u8>, Snapshot)> {
        let bytes = std::fs::read(path)?;
        let snap = Snapshot::taken(path, &bytes)?;
        Ok((bytes, snap))
    }

    /// Whether the file at `path` is still what was read: same size, same modification time and
    /// the same bytes. `false` when it is gone.
    pub fn matches(&self, path: &Path) -> io::Result<bool> {
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e),
        };
        if meta.len() != self.len || meta.modified().ok() != self.modified {
            return Ok(false);
        }
        Ok(self.is(&meta, &std::fs::read(path)?))
    }

    /// Whether a file with metadata `meta` and content `bytes` is what was read.
    pub(crate) fn is(&self, meta: &std::fs::Metadata, bytes: &[u8]) -> bool {
        meta.len() == self.len && meta.modified().ok() == self.modified && hash(bytes) == self.sha256
    }

    /// Whether `bytes` are what was read.
    pub fn holds(&self, bytes: &[u8]) -> bool {
        bytes.len() as u64 == self.len && hash(bytes) == self.sha256
    }
}

fn hash(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// What a write expects to find where it writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    /// The file as it was read (a file the operation read and changed).
    Unchanged(Snapshot),
    /// No file (a file the operation creates); a file there with exactly the new content is
    /// left as it is.
    Absent,
    /// Whatever is there is replaced (the user said so: `--force`).
    Anything,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::scratch;

    #[test]
    fn a_file_rewritten_with_the_same_length_no_longer_matches() {
        let dir = scratch("snapshot-same-len");
        let path = dir.join("a.yaml");
        std::fs::write(&path, "name: a\n").unwrap();
        let (bytes, snap) = Snapshot::read(&path).unwrap();
        assert!(snap.holds(&bytes));
        assert!(snap.matches(&path).unwrap());
        std::fs::write(&path, "name: b\n").unwrap();
        assert!(!snap.matches(&path).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_deleted_file_does_not_match() {
        let dir = scratch("snapshot-deleted");
        let path = dir.join("a.yaml");
        std::fs::write(&path, "x").unwrap();
        let (_, snap) = Snapshot::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert!(!snap.matches(&path).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
