//! The CLI's writes of users' files, through `olm_catalog_save`: what each command expects on
//! disk, Ctrl-C held off while a save runs, and a save a crash interrupted finished before a
//! catalog is read again.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use olm_catalog_save::{recover, save, Expect, FileWrite, Recovered, SaveError, Saved, Snapshot};

use crate::output::Fail;

/// Write `writes` all or nothing (`root`: the folder that holds the save's journal). A conflict
/// names every file and says that `--force` overrides it. Ctrl-C (and SIGTERM, SIGHUP) during
/// the save lets it finish, or put everything back, and then ends the process (exit 130).
pub fn write(root: &Path, writes: &[FileWrite]) -> Result<Saved, Fail> {
    let interrupted = Arc::new(AtomicBool::new(false));
    let ids: Vec<_> = [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM, signal_hook::consts::SIGHUP]
        .into_iter()
        .filter_map(|s| signal_hook::flag::register(s, Arc::clone(&interrupted)).ok())
        .collect();
    let result = save(root, writes);
    for id in ids {
        signal_hook::low_level::unregister(id);
    }
    if interrupted.load(Ordering::SeqCst) {
        match &result {
            Ok(_) => eprintln!("olm-catalog: interrupted: the save had started and was finished"),
            Err(e) => eprintln!("olm-catalog: interrupted: {e}"),
        }
        std::process::exit(130);
    }
    result.map_err(|e| match e {
        SaveError::Conflicts(_) => Fail(format!("{e} (--force overwrites)")),
        other => Fail(other.to_string()),
    })
}

/// The snapshot of a file just read (its path on disk), for [`Expect::Unchanged`].
pub fn snapshot(path: &Path, content: &[u8]) -> Result<Expect, Fail> {
    Snapshot::taken(path, content).map(Expect::Unchanged).map_err(|e| Fail::at(path, e))
}

/// The folder whose journal a save of the catalog at `path` (a folder or a file) uses.
pub fn root_of(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf()
    }
}

/// Finish (or undo) a save of the catalog at `path` that a crash interrupted, saying so.
pub fn finish_interrupted(path: &Path) -> Result<(), Fail> {
    let root = root_of(path);
    match recover(&root).map_err(|e| Fail::at(&root, format!("cannot finish an interrupted save: {e}")))? {
        Some(Recovered::Finished(n)) => {
            eprintln!("olm-catalog: {}: finished a save of {n} file(s) that was interrupted", root.display())
        }
        Some(Recovered::RolledBack(n)) => {
            eprintln!(
                "olm-catalog: {}: undid a save of {n} file(s) that was interrupted before it changed anything",
                root.display()
            )
        }
        None => {}
    }
    Ok(())
}
