//! The native side of the wasm-vs-native benchmark (`tests/node/bench.mjs`, issue 15's
//! "wasm in Node ≤ 1.3× native"): times the phases the Node benchmark times in WebAssembly, on the
//! same input bytes, and prints them as one JSON object for it to read.
//!
//! ```text
//! cargo run --release --example native_phases -- CATALOG_DIR SYNTH_DIR [BUNDLES]
//! ```
//!
//! - **validate**: `validate_files` of CATALOG_DIR's files, already in memory;
//! - **graphs**: every channel's graph and every entry's v0 and v1 path of that catalog
//!   (`internals::graphs_and_paths`, the same function the wasm module runs);
//! - **resolve**: 50 subscriptions (packages spread evenly, default channels, as in
//!   `benches/scale.rs`) over a synthetic catalog of BUNDLES bundles (default 5,000), which is
//!   written to SYNTH_DIR first so that the Node side reads the same bytes: the resolution with
//!   its outcome built (`Outcome::from(resolve(..))`, the picks' requirement texts left to be
//!   formatted on demand, as the Node side's default outcome leaves them);
//! - for information (`resolveWithOutcome`, not a phase of the comparison): the same resolution
//!   with its outcome serialized as the JSON the Node side's `resolve` parses.
//!
//! Each phase is timed on one thread (a rayon pool of one, which runs every parallel loop
//! inline: WebAssembly has no threads, so this is the like-for-like figure) and on rayon's
//! default pool (every core, for information). Times are the best of at least `$BENCH_RUNS`
//! (default 7) runs and at least `$BENCH_MIN_MS` (default 0) milliseconds of runs, after one
//! warm-up, in milliseconds, as wall time and, on one thread, as CPU time of the
//! process (`getrusage`, as Node's `process.cpuUsage()`; `null` off Unix): the machine is shared, and the fastest run is the one least
//! disturbed by other work; CPU time leaves out the waits for a core (the Node side measures
//! both the same way). The output also carries the subscriptions and each
//! phase's work count (findings, nodes and paths, installs), which the Node side checks against
//! its own so that both did the same work.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "../benches/common/mod.rs"]
mod common;

use std::path::Path;
use std::time::Instant;

use olm_catalog::internals::graphs_and_paths;
use olm_catalog::resolve::{resolve, Outcome};
use olm_catalog::synth::Synth;
use olm_catalog::{read_catalog, validate_files, FileInput};
use serde_json::json;

const SUBSCRIPTIONS: usize = 50;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(catalog), Some(synth_dir)) = (args.first(), args.get(1)) else {
        eprintln!("usage: native_phases CATALOG_DIR SYNTH_DIR [BUNDLES]");
        std::process::exit(2);
    };
    let bundles: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(5_000);
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let min_ms: f64 = std::env::var("BENCH_MIN_MS").ok().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    let files = read(Path::new(catalog));
    write_synth(Path::new(synth_dir), bundles);
    let synth_files = read(Path::new(synth_dir));

    let model = validate_files(&files).model;
    let synth_model = validate_files(&synth_files).model;
    let cluster = common::synth_cluster(synth_model, SUBSCRIPTIONS);
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a thread pool of one");

    let validate = || validate_files(&files).report.diagnostics.len();
    let graphs = || graphs_and_paths(&model);
    let resolving = || Outcome::from(resolve(&cluster)).install.len();
    // For information: the resolution with its outcome written as the JSON text the façade's
    // `resolve` parses (without the requirement texts, as the module writes it), which the
    // `resolve` phase leaves out (it stops at the outcome's values).
    let with_outcome = || {
        let outcome = Outcome::from(resolve(&cluster));
        serde_json::to_string(&outcome).map_or(0, |_| outcome.install.len())
    };
    let phase = |f: &(dyn Fn() -> usize + Sync)| {
        let (one, count) = one.install(|| best(runs, min_ms, f));
        let (all, _) = best(runs, min_ms, f);
        json!({ "oneThread": one.wall, "oneThreadCpu": one.cpu, "allThreads": all.wall, "count": count })
    };
    let out = json!({
        "threads": rayon::current_num_threads(),
        "runs": runs,
        "synthBundles": bundles,
        "subscriptions": cluster.subscriptions.iter().map(|s| json!({
            "name": s.name, "package": s.package, "channel": s.channel,
            "catalog": s.catalog, "catalogNamespace": s.catalog_namespace,
        })).collect::<Vec<_>>(),
        "phases": {
            "validate": phase(&validate),
            "graphs": phase(&graphs),
            "resolve": phase(&resolving),
        },
        "resolveWithOutcome": phase(&with_outcome),
    });
    println!("{out}");
}

/// The fastest of several runs, in milliseconds.
struct Best {
    wall: f64,
    /// CPU time of the whole process (`None` off Unix).
    cpu: Option<f64>,
}

/// The fastest wall and CPU times of at least `runs` runs and at least `min_ms` of running, after
/// one warm-up, and the run's count (a phase of a millisecond needs hundreds of runs for its best
/// to settle; tests/node/bench.mjs measures the wasm side the same way).
fn best(runs: usize, min_ms: f64, f: &(dyn Fn() -> usize + Sync)) -> (Best, usize) {
    let count = f();
    let mut fastest = Best { wall: f64::INFINITY, cpu: cpu_ms().map(|_| f64::INFINITY) };
    let start = Instant::now();
    let mut done = 0;
    while done < runs.max(1) || start.elapsed().as_secs_f64() * 1e3 < min_ms {
        done += 1;
        let (t, c) = (Instant::now(), cpu_ms());
        std::hint::black_box(f());
        fastest.wall = fastest.wall.min(t.elapsed().as_secs_f64() * 1e3);
        if let (Some(before), Some(after), Some(cpu)) = (c, cpu_ms(), fastest.cpu.as_mut()) {
            *cpu = cpu.min(after - before);
        }
    }
    (fastest, count)
}

/// CPU time (user and system) of this process so far, in milliseconds: `getrusage`, the call
/// behind Node's `process.cpuUsage()`.
#[cfg(unix)]
fn cpu_ms() -> Option<f64> {
    // SAFETY: `getrusage` only writes the `rusage` it is given, which is plain data.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        (libc::getrusage(libc::RUSAGE_SELF, &mut usage) == 0).then_some(usage)
    }?;
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    Some(ms(usage.ru_utime) + ms(usage.ru_stime))
}

#[cfg(not(unix))]
fn cpu_ms() -> Option<f64> {
    None
}

fn read(dir: &Path) -> Vec<FileInput> {
    read_catalog(dir).unwrap_or_else(|e| {
        eprintln!("native_phases: {}: {e}", dir.display());
        std::process::exit(1)
    })
}

/// The synthetic catalog of `bundles` bundles (default seed), written afresh under `dir`.
fn write_synth(dir: &Path, bundles: usize) {
    let _ = std::fs::remove_dir_all(dir);
    for f in Synth::with_bundles(bundles).files() {
        let path = dir.join(&f.path);
        let written =
            path.parent().map_or(Ok(()), std::fs::create_dir_all).and_then(|_| std::fs::write(&path, &f.content));
        if let Err(e) = written {
            eprintln!("native_phases: {}: {e}", path.display());
            std::process::exit(1);
        }
    }
}
