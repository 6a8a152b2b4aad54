//! Peak heap memory of validation, measured with a counting allocator around mimalloc.
//!
//! With `MEMORY_PHASES` set, also prints the peak of loading alone, what the loaded catalog and
//! the model keep, and the peak of checking (with the catalog), to find where a peak comes from.
//!
//! For every catalog in `../shared/catalogs/fbc`, a 57 MB `olm.bundle.object` catalog made from
//! them (`common::bundle_object_catalog`), and any given in `MEMORY_CATALOGS` (separated by `:`), prints the input's size and the peak of live heap bytes, with its ratio to the input's
//! size, of two ways to validate it:
//! - from disk, as the CLI does (`load_dir`: each file read, parsed and dropped, then
//!   `validate_loaded`). Target (issue 15): peak ≤ 2 × the input's size.
//! - in memory, as the bindings do (`validate_files` over files already read; the input itself
//!   is counted in the peak).

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};

#[path = "common/mod.rs"]
mod common;

struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(l) };
        if !p.is_null() {
            let now = LIVE.fetch_add(l.size(), Ordering::Relaxed) + l.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(p, l) };
        LIVE.fetch_sub(l.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        let q = unsafe { mimalloc::MiMalloc.realloc(p, l, new) };
        if !q.is_null() {
            if new >= l.size() {
                let now = LIVE.fetch_add(new - l.size(), Ordering::Relaxed) + new - l.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(l.size() - new, Ordering::Relaxed);
            }
        }
        q
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let fbc = common::fbc_dir();
    let mut dirs: Vec<std::path::PathBuf> = std::fs::read_dir(&fbc)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs.push(common::bundle_object_catalog());
    if let Some(extra) = std::env::var_os("MEMORY_CATALOGS") {
        dirs.extend(std::env::split_paths(&extra));
    }
    for dir in dirs {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let from_disk =
            peak_of(|| olm_catalog::validate::validate_loaded(olm_catalog::load_dir(&dir).expect("readable catalog")));
        if std::env::var_os("MEMORY_PHASES").is_some() {
            let base = LIVE.load(Ordering::Relaxed);
            let mut kept = 0;
            let load = peak_of(|| {
                let l = olm_catalog::load_dir(&dir).expect("readable catalog");
                kept = LIVE.load(Ordering::Relaxed) - base;
                l
            });
            let loaded = olm_catalog::load_dir(&dir).expect("readable catalog");
            let check = peak_of(|| olm_catalog::validate::validate_loaded(loaded));
            let loaded = olm_catalog::load_dir(&dir).expect("readable catalog");
            let base = LIVE.load(Ordering::Relaxed);
            let mut model_kept = 0;
            let build = peak_of(|| {
                let m = olm_catalog::model::build(&loaded.config);
                model_kept = LIVE.load(Ordering::Relaxed) - base;
                m
            });
            let v = olm_catalog::validate::validate_loaded(loaded);
            println!(
                "  model build peak {build} B, model kept {model_kept} B, {} findings",
                v.report.diagnostics.len()
            );
            println!("  phases: load peak {load} B, loaded catalog {kept} B, validate_loaded peak {check} B (with the catalog)");
        }
        let files = common::read(&dir);
        let input: usize = files.iter().map(|f| f.content.len()).sum();
        let in_memory = peak_of(|| olm_catalog::validate::validate_files(&files)) + input;
        let ratio = from_disk as f64 / input as f64;
        println!(
            "{name:28} input {:6.1} MB  from disk {:6.1} MB {:.2}x {:8}  in memory {:6.1} MB {:.2}x",
            input as f64 / 1e6,
            from_disk as f64 / 1e6,
            ratio,
            if ratio <= 2.0 { "met" } else { "NOT met" },
            in_memory as f64 / 1e6,
            in_memory as f64 / input as f64,
        );
        common::target(
            &format!("peak heap, validate {name} from disk ≤ 2× input"),
            &format!("{:.1} MB = {ratio:.2}× {:.1} MB", from_disk as f64 / 1e6, input as f64 / 1e6),
            ratio <= 2.0,
        );
    }
}

/// The peak of live heap bytes allocated by `f` (its result dropped only after the peak is read).
fn peak_of<T>(f: impl FnOnce() -> T) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    let peak = PEAK.load(Ordering::Relaxed) - base;
    drop(out);
    peak
}
