//! Writing users' files so that none is ever lost: every command that writes (the CLI's `edit`,
//! `render` and `template` output folders, the language server) writes through [`save`].
//!
//! - **Atomic per file**: the new content goes to a temporary file beside the target, is flushed
//!   to disk, and is renamed over the target; the target's permission bits are kept; a symlink
//!   is written through (the link stays a link).
//! - **All or nothing per operation**: every file is staged before any is replaced; if a
//!   replacement fails, the files already replaced are put back. A crash in between is finished
//!   by the next run from the save's journal ([`recover`]), so a catalog is all old or all new.
//! - **No lost update**: each write says what it expects on disk ([`Expect`]): the file as it was
//!   read ([`Snapshot`]), no file, or anything. Every expectation is checked before staging and
//!   again just before the first replacement; one that fails means nothing is written.
//!
//! It knows nothing about catalogs; it sits below every layer, like a dependency.

mod fault;
mod journal;
mod snapshot;

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub use journal::{recover, Recovered, JOURNAL};
pub use snapshot::{Expect, Snapshot};

use journal::{remove_if_there, sync_dir, Entry, Journal};

/// One file to write.
#[derive(Debug, Clone)]
pub struct FileWrite {
    /// Where (a symlink is written through).
    pub path: PathBuf,
    /// The new content.
    pub content: Vec<u8>,
    /// What must be there now.
    pub expect: Expect,
}

/// Why a file may not be replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// It changed on disk since it was read.
    Changed,
    /// It was deleted since it was read.
    Deleted,
    /// It exists, and the operation would create it.
    Exists,
    /// It is read-only.
    ReadOnly,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Conflict::Changed => "changed on disk since it was read",
            Conflict::Deleted => "was deleted since it was read",
            Conflict::Exists => "exists and would be overwritten",
            Conflict::ReadOnly => "is read-only",
        })
    }
}

/// Why a save did not happen. In every case but [`SaveError::Incomplete`] no file changed.
#[derive(Debug)]
pub enum SaveError {
    /// Files that may not be replaced, each with the reason; nothing was written.
    Conflicts(Vec<(PathBuf, Conflict)>),
    /// A step failed (a full disk, a read-only folder, …); nothing was changed.
    Failed { path: PathBuf, action: &'static str, error: io::Error },
    /// A replacement failed and putting back the files already replaced failed too: these
    /// files hold their new content, the others their old one.
    Incomplete { path: PathBuf, error: io::Error, replaced: Vec<PathBuf> },
}

impl fmt::Display for SaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SaveError::Conflicts(list) => {
                f.write_str("nothing written: ")?;
                for (i, (path, why)) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{} {why}", path.display())?;
                }
                Ok(())
            }
            SaveError::Failed { path, action, error } => {
                write!(f, "cannot {action} {}: {error}; nothing was changed", path.display())
            }
            SaveError::Incomplete { path, error, replaced } => {
                write!(
                    f,
                    "cannot replace {}: {error}; and these files could not be put back, they hold the new content: ",
                    path.display()
                )?;
                let names: Vec<String> = replaced.iter().map(|p| p.display().to_string()).collect();
                f.write_str(&names.join(", "))
            }
        }
    }
}

impl std::error::Error for SaveError {}

/// What a save did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Saved {
    /// Files written, in order.
    pub written: Vec<PathBuf>,
    /// Files left as they were: they already held the new content.
    pub unchanged: Vec<PathBuf>,
}

/// Write `writes` all or nothing, with `root` the folder that holds the save's journal (the
/// catalog's root). See the crate's documentation for what it guarantees.
///
/// ```
/// use olm_catalog_save::{save, Expect, FileWrite, Snapshot};
/// let dir = std::env::temp_dir().join(format!("olm-save-doc-save-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("catalog.yaml");
/// std::fs::write(&path, "old\n").unwrap();
/// let (_, snap) = Snapshot::read(&path).unwrap();
/// std::fs::write(&path, "someone else's\n").unwrap();
/// let write = FileWrite { path: path.clone(), content: b"new\n".to_vec(), expect: Expect::Unchanged(snap) };
/// let err = save(&dir, &[write]).unwrap_err();
/// assert!(err.to_string().contains("changed on disk since it was read"));
/// assert_eq!(std::fs::read_to_string(&path).unwrap(), "someone else's\n");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn save(root: &Path, writes: &[FileWrite]) -> Result<Saved, SaveError> {
    let mut saved = Saved::default();
    let mut todo: Vec<(PathBuf, &FileWrite)> = Vec::new();
    let mut conflicts = Vec::new();
    for w in writes {
        let target =
            resolve(&w.path).map_err(|error| SaveError::Failed { path: w.path.clone(), action: "read", error })?;
        match check(&target, w) {
            Ok(true) => todo.push((target, w)),
            Ok(false) => saved.unchanged.push(w.path.clone()),
            Err(why) => conflicts.push((w.path.clone(), why)),
        }
    }
    if !conflicts.is_empty() {
        return Err(SaveError::Conflicts(conflicts));
    }
    if todo.is_empty() {
        return Ok(saved);
    }
    let mut staged = Staged::new(root, &todo)?;
    staged.write_all(&todo)?;
    let late: Vec<_> =
        todo.iter().filter_map(|(target, w)| check(target, w).err().map(|why| (w.path.clone(), why))).collect();
    if !late.is_empty() {
        return Err(SaveError::Conflicts(late));
    }
    staged.replace()?;
    saved.written = todo.iter().map(|(_, w)| w.path.clone()).collect();
    Ok(saved)
}

/// The file a path writes to: symlinks followed (a new file's folder resolved).
fn resolve(path: &Path) -> io::Result<PathBuf> {
    match std::fs::canonicalize(path) {
        Ok(p) => Ok(p),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(path.to_path_buf()),
        Err(e) => Err(e),
    }
}

/// Whether `w` may replace `target`: `Ok(true)` to write, `Ok(false)` when the file already
/// holds the new content, or the conflict. The file is read once.
fn check(target: &Path, w: &FileWrite) -> Result<bool, Conflict> {
    let Ok(meta) = std::fs::metadata(target) else {
        return match w.expect {
            Expect::Unchanged(_) => Err(Conflict::Deleted),
            _ => Ok(true),
        };
    };
    if meta.permissions().readonly() {
        return Err(Conflict::ReadOnly);
    }
    let current = std::fs::read(target).ok();
    let same = current.as_deref() == Some(w.content.as_slice());
    match &w.expect {
        Expect::Anything => Ok(!same),
        Expect::Unchanged(snap) if current.as_deref().is_some_and(|b| snap.is(&meta, b)) => Ok(true),
        Expect::Absent | Expect::Unchanged(_) if same => Ok(false),
        Expect::Absent => Err(Conflict::Exists),
        Expect::Unchanged(_) => Err(Conflict::Changed),
    }
}

/// Temporary files beside their targets, with the journal that names them; dropped before the
/// replacement, it removes them all (an error, a panic): nothing is left behind.
struct Staged {
    journal: Journal,
    /// Folders made for new files, deepest last.
    made: Vec<PathBuf>,
    done: bool,
}

impl Staged {
    /// Name the temporary files and write the journal.
    fn new(root: &Path, todo: &[(PathBuf, &FileWrite)]) -> Result<Staged, SaveError> {
        let stamp = format!("{}-{}", std::process::id(), nanos());
        let entries: Vec<Entry> = todo
            .iter()
            .enumerate()
            .map(|(i, (target, _))| {
                let beside = |kind: &str| {
                    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    target.with_file_name(format!(".{name}.{stamp}-{i}.{kind}"))
                };
                Entry {
                    target: target.clone(),
                    temp: beside("olm-save"),
                    backup: target.exists().then(|| beside("olm-backup")),
                }
            })
            .collect();
        let journal = Journal::begin(root, entries).map_err(|error| SaveError::Failed {
            path: root.join(JOURNAL),
            action: "write",
            error,
        })?;
        Ok(Staged { journal, made: Vec::new(), done: false })
    }

    /// Write every temporary file, with its target's permission bits, and flush it to disk.
    fn write_all(&mut self, todo: &[(PathBuf, &FileWrite)]) -> Result<(), SaveError> {
        for (e, (_, w)) in self.journal.entries.iter().zip(todo) {
            let fail = |action, error| SaveError::Failed { path: w.path.clone(), action, error };
            if let Some(dir) = e.target.parent().filter(|d| !d.as_os_str().is_empty() && !d.exists()) {
                make_dirs(dir, &mut self.made).map_err(|err| fail("create the folder of", err))?;
            }
            write_temp(&e.temp, &e.target, &w.content).map_err(|err| fail("write", err))?;
        }
        self.journal.commit().map_err(|error| SaveError::Failed {
            path: self.journal.entries[0].target.clone(),
            action: "record the save of",
            error,
        })
    }

    /// Link each old file to its backup, then rename each temporary over its target; on a
    /// failure, put the replaced files back.
    fn replace(mut self) -> Result<(), SaveError> {
        for e in &self.journal.entries {
            if let Some(b) = &e.backup {
                link_or_copy(&e.target, b).map_err(|error| SaveError::Failed {
                    path: e.target.clone(),
                    action: "keep a copy of",
                    error,
                })?;
            }
        }
        for (i, e) in self.journal.entries.iter().enumerate() {
            if let Err(error) = fault::step().and_then(|()| std::fs::rename(&e.temp, &e.target)) {
                return Err(self.put_back(i, error));
            }
        }
        self.done = true;
        for e in &self.journal.entries {
            let _ = sync_dir(e.target.parent().unwrap_or(Path::new(".")));
            if let Some(b) = &e.backup {
                let _ = remove_if_there(b);
            }
        }
        let _ = self.journal.end();
        Ok(())
    }

    /// After replacing the first `n` files failed at the next: put those back.
    fn put_back(&mut self, n: usize, error: io::Error) -> SaveError {
        let path = self.journal.entries[n].target.clone();
        let mut stuck = Vec::new();
        for e in &self.journal.entries[..n] {
            let back = match &e.backup {
                Some(b) => std::fs::rename(b, &e.target),
                None => std::fs::remove_file(&e.target),
            };
            if back.is_err() {
                stuck.push(e.target.clone());
            }
        }
        if stuck.is_empty() {
            SaveError::Failed { path, action: "replace", error }
        } else {
            self.done = true; // keep the journal: the next run finishes the save
            SaveError::Incomplete { path, error, replaced: stuck }
        }
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        for e in &self.journal.entries {
            let _ = remove_if_there(&e.temp);
            if let Some(b) = &e.backup {
                let _ = remove_if_there(b);
            }
        }
        for d in self.made.iter().rev() {
            let _ = std::fs::remove_dir(d);
        }
        let _ = self.journal.end();
    }
}

/// Make `dir` and the folders above it that are missing, recording each in `made`.
fn make_dirs(dir: &Path, made: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut missing = Vec::new();
    let mut d = Some(dir);
    while let Some(p) = d.filter(|p| !p.as_os_str().is_empty() && !p.exists()) {
        missing.push(p.to_path_buf());
        d = p.parent();
    }
    for p in missing.into_iter().rev() {
        fault::step()?;
        std::fs::create_dir(&p)?;
        made.push(p);
    }
    Ok(())
}

/// Write `content` to the new file `temp`, with `target`'s permission bits (a new file's follow
/// the umask), and flush it to disk.
fn write_temp(temp: &Path, target: &Path, content: &[u8]) -> io::Result<()> {
    fault::step()?;
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).open(temp)?;
    for chunk in content.chunks(fault::CHUNK) {
        fault::step()?;
        f.write_all(chunk)?;
    }
    if let Ok(meta) = std::fs::metadata(target) {
        f.set_permissions(meta.permissions())?;
    }
    fault::step()?;
    f.sync_all()
}

/// A hard link from `backup` to `target`'s file, or a copy where links are not possible.
fn link_or_copy(target: &Path, backup: &Path) -> io::Result<()> {
    fault::step()?;
    std::fs::hard_link(target, backup).or_else(|_| std::fs::copy(target, backup).map(|_| ()))
}

/// Nanoseconds of the clock, for temporary names no other save uses.
fn nanos() -> u128 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos())
}

#[cfg(test)]
mod tests;
