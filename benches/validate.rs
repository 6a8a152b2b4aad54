//! Load + validate benchmark on the real community catalogs in `../shared/catalogs/fbc`.
//!
//! Prints, per catalog, the time and MB/s of (a) a bare parse of the same files into our value
//! tree (the baseline measured in the same run), (b) load (parse + blob decoding), and (c) the
//! whole validation, with the ratio of (c) to (a). Targets (issue 2): community-v4.20 validated
//! in ≤ 0.10 s natively, validation ≤ 1.3 × the bare parse.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::time::{Duration, Instant};

use olm_catalog::declcfg::load_files;
use olm_catalog::internals::parse_only;
use olm_catalog::read_catalog;
use olm_catalog::validate::validate_files;

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

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    for name in ["community-v4.20", "community-v4.16"] {
        let dir = catalogs_dir().join(name);
        let files = match read_catalog(&dir) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("{}: {e}", dir.display());
                std::process::exit(1);
            }
        };
        let bytes: usize = files.iter().map(|f| f.content.len()).sum();
        let mb = bytes as f64 / 1e6;
        let parse = time(runs, || {
            std::hint::black_box(parse_only(&files));
        });
        let load = time(runs, || {
            std::hint::black_box(load_files(&files));
        });
        let validate = time(runs, || {
            std::hint::black_box(validate_files(&files));
        });
        let report = validate_files(&files).report;
        let secs = |d: Duration| d.as_secs_f64();
        println!("{name}: {:.1} MB in {} files, valid={}", mb, files.len(), report.valid);
        println!("  bare parse   {:8.1} ms  {:7.1} MB/s  (baseline)", secs(parse) * 1e3, mb / secs(parse));
        println!(
            "  load         {:8.1} ms  {:7.1} MB/s  {:.2}x baseline",
            secs(load) * 1e3,
            mb / secs(load),
            secs(load) / secs(parse)
        );
        println!(
            "  validate     {:8.1} ms  {:7.1} MB/s  {:.2}x baseline",
            secs(validate) * 1e3,
            mb / secs(validate),
            secs(validate) / secs(parse)
        );
    }
}
