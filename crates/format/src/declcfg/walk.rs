//! Native only: reading a catalog directory (or a single file) from disk, leaving out what
//! `.indexignore` files ignore so ignored files are never read: into [`FileInput`]s
//! ([`read_catalog`]), or straight into a [`Loaded`] catalog ([`load_dir`]), each file read (or
//! mapped), parsed and dropped in turn so the whole input is never in memory at once.

use std::fs::File;
use std::io::{self, Read as _};
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::file_bytes::FileBytes;
use super::indexignore::IndexIgnore;
use super::load::{load_files, load_in_order, parse_file, parse_file_shared, FileInput, Loaded, Values};

/// Files up to this size are read into a buffer kept for the next file; larger ones are mapped.
const KEPT_BUFFER: usize = 256 << 10;

/// Load the catalog at `root` (a directory or one file) as [`load_files`] would load
/// [`read_catalog`]'s files, with the same blobs and diagnostics, but reading each file only
/// when it is parsed (in parallel): peak memory is the blobs plus the files being parsed, not the
/// whole input on top.
///
/// Files larger than [`KEPT_BUFFER`] (most of a large catalog's bytes) are mapped read-only
/// rather than read: their pages are the system's file cache, neither copied nor zeroed first,
/// and the property values checked in them without their trees (`olm.csv.metadata`) keep their
/// text there instead of copying it; a map no value keeps is dropped once its file is parsed.
/// Another process that truncates such a file while it is mapped ends this process with
/// SIGBUS, as it would ripgrep or git, which map files the same way. Smaller files are read
/// into the same few buffers (one per file in flight): a fresh buffer per file costs a page
/// fault per 4 KiB.
pub fn load_dir(root: &Path) -> io::Result<Loaded> {
    if std::fs::metadata(root)?.is_file() {
        return Ok(load_files(&read_catalog(root)?));
    }
    let (paths, ignore) = listing(root)?;
    let order: Vec<String> = paths.into_iter().filter(|p| !ignore.is_ignored(p)).collect();
    let buffers: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
    load_in_order(order, |p| {
        let located = |e: io::Error| io::Error::new(e.kind(), format!("{p}: {e}"));
        let mut file = File::open(root.join(p)).map_err(located)?;
        if file.metadata().map_err(located)?.len() > KEPT_BUFFER as u64 {
            if let Some(map) = map(&file) {
                return Ok(parse_file_shared(p, Arc::new(FileBytes::Mapped(map)), Values::Checked));
            }
        }
        let mut bytes = buffers.lock().ok().and_then(|mut b| b.pop()).unwrap_or_default();
        bytes.clear();
        file.read_to_end(&mut bytes).map_err(located)?;
        let parsed = parse_file(p, &bytes);
        if bytes.capacity() <= KEPT_BUFFER {
            if let Ok(mut b) = buffers.lock() {
                b.push(bytes);
            }
        }
        Ok(parsed)
    })
}

/// `file` mapped read-only, or `None` where it cannot be (the caller reads it then).
fn map(file: &File) -> Option<memmap2::Mmap> {
    // SAFETY: a private read-only mapping of a regular file, which nothing in this process
    // writes. Another process writing the file while it is mapped changes the bytes under the
    // reader, which may then read a mix of old and new text (the UTF-8 check made on the whole
    // file no longer holds for it; a value's text read later is checked again); one truncating
    // it raises SIGBUS on reading past the new end (documented on `load_dir`).
    unsafe { memmap2::Mmap::map(file) }.ok()
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
