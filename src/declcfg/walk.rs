//! Native only: reading a catalog directory (or a single file) from disk into [`FileInput`]s,
//! leaving out what `.indexignore` files ignore so ignored files are never read.

use std::io;
use std::path::Path;

use super::indexignore::IndexIgnore;
use super::load::FileInput;

/// Read every file under `root` (or `root` itself when it is a file). Paths are relative to
/// `root` with `/` separators; for a single file, its file name.
pub fn read_catalog(root: &Path) -> io::Result<Vec<FileInput>> {
    let meta = std::fs::metadata(root)?;
    if meta.is_file() {
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "catalog".into());
        return Ok(vec![FileInput::new(name, std::fs::read(root)?)]);
    }
    let mut paths = Vec::new();
    collect(root, "", &mut paths)?;
    let ignore_files: Vec<(String, String)> = paths
        .iter()
        .filter(|p| p.rsplit('/').next() == Some(".indexignore"))
        .map(|p| Ok((p.clone(), std::fs::read_to_string(root.join(p))?)))
        .collect::<io::Result<_>>()?;
    let ignore = IndexIgnore::new(ignore_files.iter().map(|(p, c)| (p.as_str(), c.as_str())));
    let mut out: Vec<FileInput> = ignore_files.iter().map(|(p, c)| FileInput::new(p.clone(), c.as_bytes())).collect();
    for p in paths {
        if ignore.is_ignored(&p) {
            continue;
        }
        let content = std::fs::read(root.join(&p))?;
        out.push(FileInput::new(p, content));
    }
    Ok(out)
}

fn collect(dir: &Path, rel: &str, out: &mut Vec<String>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
        // Like Go's fs.WalkDir, a symlink is not descended into; it is read as a file.
        if e.file_type()?.is_dir() {
            collect(&e.path(), &path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
