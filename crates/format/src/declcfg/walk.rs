//! Native only: reading a catalog directory (or a single file) from disk, leaving out what
//! `.indexignore` files ignore so ignored files are never read: into [`FileInput`]s
//! ([`read_catalog`]), or straight into a [`Loaded`] catalog ([`load_dir`]), each file read,
//! parsed and dropped in turn so the whole input is never in memory at once.

use std::io::{self, Read as _};
use std::path::Path;
use std::sync::Mutex;

use super::indexignore::IndexIgnore;
use super::load::{load_files, load_in_order, parse_file, parse_file_owned, FileInput, Loaded, Values};

/// The largest read buffer [`load_dir`] keeps for the next file.
const KEPT_BUFFER: usize = 256 << 10;

/// Load the catalog at `root` (a directory or one file) as [`load_files`] would load
/// [`read_catalog`]'s files, with the same blobs and diagnostics, but reading each file only
/// when it is parsed (in parallel): peak memory is the blobs plus the files being parsed, not the
/// whole input on top. A file's bytes stay only as the text of the property values checked in it
/// without their trees (`olm.csv.metadata`, most of a large catalog's bytes), which share them
/// rather than copy them. Other files' bytes go once their blobs are made: they are read into
/// the same few buffers (one per file in flight), dropped at the end, since a fresh buffer per
/// file costs a page fault per 4 KiB of the input. A buffer that grew past [`KEPT_BUFFER`] is
/// freed once its file is parsed: kept, the largest files' buffers would sit beside the blobs to
/// the end, at the peak.
pub fn load_dir(root: &Path) -> io::Result<Loaded> {
    if std::fs::metadata(root)?.is_file() {
        return Ok(load_files(&read_catalog(root)?));
    }
    let (paths, ignore) = listing(root)?;
    let order: Vec<String> = paths.into_iter().filter(|p| !ignore.is_ignored(p)).collect();
    let buffers: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    load_in_order(order, |p| {
        let mut bytes = buffers.lock().ok().and_then(|mut b| b.pop()).unwrap_or_default();
        bytes.clear();
        let read = std::fs::File::open(root.join(p)).and_then(|mut f| f.read_to_end(&mut bytes));
        read.map_err(|e| io::Error::new(e.kind(), format!("{p}: {e}")))?;
        // A large file is read into a buffer of its own, which its checked values may keep; a
        // small one into a buffer kept for the next file, its checked values copied.
        let (parsed, back) = if bytes.len() > KEPT_BUFFER {
            parse_file_owned(p, bytes, Values::Checked)
        } else {
            (parse_file(p, &bytes), Some(bytes))
        };
        if let Some(bytes) = back.filter(|b| b.capacity() <= KEPT_BUFFER) {
            if let Ok(mut b) = buffers.lock() {
                b.push(bytes);
            }
        }
        Ok(parsed)
    })
}

/// Every file path under `root` (relative, `/`-separated) and the `.indexignore` rules found.
fn listing(root: &Path) -> io::Result<(Vec<String>, IndexIgnore)> {
    let mut paths = Vec::new();
    collect(root, "", &mut paths)?;
    let ignore_files: Vec<(String, String)> = paths
        .iter()
        .filter(|p| p.rsplit('/').next() == Some(".indexignore"))
        .map(|p| Ok((p.clone(), std::fs::read_to_string(root.join(p))?)))
        .collect::<io::Result<_>>()?;
    let ignore = IndexIgnore::new(ignore_files.iter().map(|(p, c)| (p.as_str(), c.as_str())));
    Ok((paths, ignore))
}

/// Read every file under `root` (or `root` itself when it is a file). Paths are relative to
/// `root` with `/` separators; for a single file, its file name.
pub fn read_catalog(root: &Path) -> io::Result<Vec<FileInput>> {
    let meta = std::fs::metadata(root)?;
    if meta.is_file() {
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "catalog".into());
        return Ok(vec![FileInput::new(name, std::fs::read(root)?)]);
    }
    let (paths, ignore) = listing(root)?;
    let mut out = Vec::new();
    for p in paths {
        if ignore.is_ignored(&p) && !p.ends_with(".indexignore") {
            continue;
        }
        let content = std::fs::read(root.join(&p)).map_err(|e| io::Error::new(e.kind(), format!("{p}: {e}")))?;
        out.push(FileInput::new(p, content));
    }
    Ok(out)
}

fn collect(dir: &Path, rel: &str, out: &mut Vec<String>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    crate::sort::sort_by_key(&mut entries, |e| e.file_name());
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
