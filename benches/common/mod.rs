//! What the benchmarks share: where the real catalogs are, how many runs, the median timer, and
//! reading a catalog or fails loudly. Included by each benchmark with `#[path]`; not every
//! benchmark uses every helper.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use olm_catalog::declcfg::FileInput;
use olm_catalog::read_catalog;

/// The File-Based Catalogs: `$CATALOGS_DIR`, else `../shared/catalogs/fbc`. Bundle directories
/// and templates sit beside it (its parent).
pub fn fbc_dir() -> PathBuf {
    std::env::var_os("CATALOGS_DIR")
        .map(Into::into)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc"))
}

/// `$BENCH_RUNS`, else 7.
pub fn runs() -> usize {
    std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(7)
}

/// Median wall time of `runs` runs, after one warm-up run.
pub fn time<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// Every file of a catalog directory (or one file); exits with the reason when it cannot be read.
pub fn read(path: &Path) -> Vec<FileInput> {
    read_catalog(path).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(1);
    })
}
