//! Diff benchmark on the real community catalogs in `../shared/catalogs/fbc`: community-v4.16 →
//! community-v4.20, every update path of every (package, channel, entry) of the old catalog in
//! both catalogs, OLM v0 and v1.
//!
//! Prints, in the same run, the time to load both catalogs (parse, blobs, model: the baseline),
//! the diff alone, and the ratio of the diff to the load.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::time::{Duration, Instant};

use olm_catalog::declcfg::{load_files, FileInput};
use olm_catalog::diff::diff;
use olm_catalog::{build_model, read_catalog, Model};

fn catalogs_dir() -> std::path::PathBuf {
    std::env::var_os("CATALOGS_DIR")
        .map(Into::into)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc"))
}

/// Median wall time of `runs` runs.
fn time<F: FnMut()>(runs: usize, mut f: F) -> Duration {
    f(); // warm up
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

fn read(name: &str) -> Vec<FileInput> {
    let dir = catalogs_dir().join(name);
    read_catalog(&dir).unwrap_or_else(|e| {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(1);
    })
}

fn model(files: &[FileInput]) -> Model {
    build_model(&load_files(files).config).0
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let (old_files, new_files) = (read("community-v4.16"), read("community-v4.20"));
    let load = time(runs, || {
        std::hint::black_box((model(&old_files), model(&new_files)));
    });
    let (old, new) = (model(&old_files), model(&new_files));
    let d = diff(&old, &new);
    let rows: usize = d.safety.iter().map(|s| s.rows.len()).sum();
    let run = time(runs, || {
        std::hint::black_box(diff(&old, &new));
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "community-v4.16 -> community-v4.20: {} packages changed, {rows} update rows (x2 catalogs x OLM v0, v1), {} findings",
        d.packages.len(),
        d.findings.len()
    );
    println!("  load both    {:8.1} ms  (baseline)", ms(load));
    println!("  diff         {:8.1} ms  {:.2}x baseline", ms(run), run.as_secs_f64() / load.as_secs_f64());
}
