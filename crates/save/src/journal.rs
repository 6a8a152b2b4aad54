//! The journal of a save in progress: which temporary file goes over which target, and how far
//! the save got. It lets the next run finish a save that a crash interrupted ([`recover`]), so
//! that after a crash a catalog is all old or all new, never a mix.
//!
//! The journal is the file [`JOURNAL`] in the operation's root folder. It is written (atomically)
//! before the first temporary file is made, in state `staging`: a crash then leaves the old files,
//! and recovery removes the temporaries. Once every temporary file is complete and on disk it is
//! rewritten in state `committing`: from then on recovery renames the temporaries that are left
//! over their targets, which completes the new version. The save removes it when done.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fault;

/// The journal's file name in the root folder.
pub const JOURNAL: &str = ".olm-catalog-save";

/// How far a save got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum State {
    /// Temporary files are being written; no target has been replaced.
    Staging,
    /// Every temporary file is complete; targets are being replaced.
    Committing,
}

/// One file of a save.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The file replaced (symlinks resolved).
    pub target: PathBuf,
    /// The temporary file with the new content, beside the target.
    pub temp: PathBuf,
    /// A hard link to the old file, beside it (none for a new file).
    pub backup: Option<PathBuf>,
}

/// A journal on disk.
#[derive(Debug, Serialize, Deserialize)]
pub struct Journal {
    #[serde(skip)]
    path: PathBuf,
    /// How far the save got.
    pub state: State,
    /// Its files.
    pub entries: Vec<Entry>,
}

impl Journal {
    /// Write a new journal in `root`, in state `staging`.
    pub fn begin(root: &Path, entries: Vec<Entry>) -> io::Result<Journal> {
        let journal = Journal { path: root.join(JOURNAL), state: State::Staging, entries };
        journal.store()?;
        Ok(journal)
    }

    /// Record that every temporary file is complete.
    pub fn commit(&mut self) -> io::Result<()> {
        self.state = State::Committing;
        self.store()
    }

    /// Remove the journal: the save is over.
    pub fn end(&self) -> io::Result<()> {
        fault::step()?;
        remove_if_there(&self.path)?;
        sync_dir(self.path.parent().unwrap_or(Path::new(".")))
    }

    /// Write the journal atomically (a temporary file renamed over it) and durably; on a
    /// failure the temporary file goes.
    fn store(&self) -> io::Result<()> {
        let new = self.path.with_extension("new");
        self.store_via(&new).inspect_err(|_| {
            let _ = remove_if_there(&new);
        })
    }

    fn store_via(&self, new: &Path) -> io::Result<()> {
        let text = serde_json::to_vec(self).map_err(io::Error::other)?;
        let mut f = std::fs::File::create(new)?;
        fault::step()?;
        f.write_all(&text)?;
        fault::step()?;
        f.sync_all()?;
        fault::step()?;
        std::fs::rename(new, &self.path)?;
        sync_dir(self.path.parent().unwrap_or(Path::new(".")))
    }
}

/// What [`recover`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovered {
    /// The save had not replaced anything: its temporary files were removed.
    RolledBack(usize),
    /// The save was replacing its targets: the rest were replaced.
    Finished(usize),
}

/// Finish or undo a save in `root` that a crash interrupted, if its journal is there.
pub fn recover(root: &Path) -> io::Result<Option<Recovered>> {
    let path = root.join(JOURNAL);
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            remove_if_there(&path.with_extension("new"))?;
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let journal: Journal = serde_json::from_slice(&text)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))?;
    let done = match journal.state {
        State::Staging => {
            for e in &journal.entries {
                remove_if_there(&e.temp)?;
            }
            Recovered::RolledBack(journal.entries.len())
        }
        State::Committing => {
            for e in &journal.entries {
                if e.temp.exists() {
                    std::fs::rename(&e.temp, &e.target)?;
                }
                if let Some(b) = &e.backup {
                    remove_if_there(b)?;
                }
            }
            Recovered::Finished(journal.entries.len())
        }
    };
    for e in &journal.entries {
        sync_dir(e.target.parent().unwrap_or(Path::new(".")))?;
    }
    remove_if_there(&path)?;
    remove_if_there(&path.with_extension("new"))?;
    Ok(Some(done))
}

/// Remove `path`; a file already gone is fine.
pub fn remove_if_there(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Flush a folder's entries (the renames in it) to disk.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::scratch;

    #[test]
    fn a_save_cut_while_staging_is_undone() {
        let dir = scratch("journal-staging");
        let (target, temp) = (dir.join("a.yaml"), dir.join(".a.yaml.1.olm-save"));
        std::fs::write(&target, "old").unwrap();
        std::fs::write(&temp, "ne").unwrap();
        Journal::begin(&dir, vec![Entry { target: target.clone(), temp: temp.clone(), backup: None }]).unwrap();
        assert_eq!(recover(&dir).unwrap(), Some(Recovered::RolledBack(1)));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert!(!temp.exists() && !dir.join(JOURNAL).exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_save_cut_while_committing_is_finished() {
        let dir = scratch("journal-committing");
        let entry = |n: &str| Entry {
            target: dir.join(n),
            temp: dir.join(format!(".{n}.1.olm-save")),
            backup: Some(dir.join(format!(".{n}.1.olm-backup"))),
        };
        let (a, b) = (entry("a.yaml"), entry("b.yaml"));
        // a was replaced before the crash, b was not.
        std::fs::write(&a.target, "new a").unwrap();
        std::fs::write(a.backup.as_ref().unwrap(), "old a").unwrap();
        std::fs::write(&b.target, "old b").unwrap();
        std::fs::hard_link(&b.target, b.backup.as_ref().unwrap()).unwrap();
        std::fs::write(&b.temp, "new b").unwrap();
        let mut j = Journal::begin(&dir, vec![a.clone(), b.clone()]).unwrap();
        j.commit().unwrap();
        assert_eq!(recover(&dir).unwrap(), Some(Recovered::Finished(2)));
        assert_eq!(std::fs::read_to_string(&a.target).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b.target).unwrap(), "new b");
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn no_journal_nothing_to_do() {
        let dir = scratch("journal-none");
        assert_eq!(recover(&dir).unwrap(), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
