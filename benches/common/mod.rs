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
pub fn time<F: FnMut()>(runs: usize, f: F) -> Duration {
    wall_and_cpu(runs, f).0
}

/// Median wall and CPU time (user and system, every thread of the process: `getrusage`) of
/// `runs` runs, after one warm-up run. On a shared machine the CPU time is the steadier figure:
/// it does not grow while other processes hold the cores.
pub fn wall_and_cpu<F: FnMut()>(runs: usize, mut f: F) -> (Duration, Duration) {
    f();
    let (mut walls, mut cpus): (Vec<Duration>, Vec<Duration>) = (0..runs)
        .map(|_| {
            let (t, c) = (Instant::now(), cpu_time());
            f();
            (t.elapsed(), cpu_time().saturating_sub(c))
        })
        .unzip();
    walls.sort();
    cpus.sort();
    (walls[walls.len() / 2], cpus[cpus.len() / 2])
}

/// Two workloads timed in alternation (`a`, `b`, `a`, `b`, …, after a warm-up of each): the
/// median wall and CPU time of each over `runs` runs. For a ratio of the two: whatever else the
/// shared machine does in the meantime falls on both sides alike, which it does not when one side
/// is timed after the other.
pub fn paired<A: FnMut(), B: FnMut()>(runs: usize, mut a: A, mut b: B) -> [(Duration, Duration); 2] {
    a();
    b();
    let mut samples: [(Vec<Duration>, Vec<Duration>); 2] = Default::default();
    for _ in 0..runs {
        for (side, f) in [&mut a as &mut dyn FnMut(), &mut b].into_iter().enumerate() {
            let (t, c) = (Instant::now(), cpu_time());
            f();
            samples[side].0.push(t.elapsed());
            samples[side].1.push(cpu_time().saturating_sub(c));
        }
    }
    samples.map(|(mut walls, mut cpus)| {
        walls.sort();
        cpus.sort();
        (walls[walls.len() / 2], cpus[cpus.len() / 2])
    })
}

/// CPU time (user and system) of this process so far.
#[cfg(unix)]
fn cpu_time() -> Duration {
    // SAFETY: `getrusage` only writes the `rusage` it is given, which is plain data.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let of = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    of(usage.ru_utime) + of(usage.ru_stime)
}

/// Off Unix, no CPU time: the wall time stands in.
#[cfg(not(unix))]
fn cpu_time() -> Duration {
    Duration::ZERO
}

/// `time`, for a closure that returns a count (of nodes, bytes, …): the median and that count.
pub fn time_counted<F: FnMut() -> usize>(runs: usize, mut f: F) -> (Duration, usize) {
    let n = f();
    (
        time(runs, || {
            std::hint::black_box(f());
        }),
        n,
    )
}

/// Every file of a catalog directory (or one file); exits with the reason when it cannot be read.
pub fn read(path: &Path) -> Vec<FileInput> {
    read_catalog(path).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(1);
    })
}

/// A catalog of about 57 MB in the `olm.bundle.object` flavour (the size of the certified v4.14
/// catalog the issue measured opm on), made from `community-v4.16`: its package files copied
/// under new package names (`<name>-copyN`, every `: <name>` line value renamed) until the total
/// reaches 57 MB. Written once under the system's temp directory and reused.
pub fn bundle_object_catalog() -> PathBuf {
    const TARGET: usize = 57_000_000;
    let dir = std::env::temp_dir().join("olm-catalog-bench-bundle-object-57mb");
    if dir.join(".complete").exists() {
        return dir;
    }
    let source = read(&fbc_dir().join("community-v4.16"));
    let _ = std::fs::remove_dir_all(&dir);
    let mut total = 0;
    'copies: for copy in 0.. {
        for f in &source {
            let Some((package, _)) = f.path.split_once('/') else { continue };
            let name = format!("{package}-copy{copy}");
            let text = String::from_utf8_lossy(&f.content);
            let renamed = text.replace(&format!(": {package}\n"), &format!(": {name}\n"));
            let path = dir.join(&name).join("catalog.yaml");
            std::fs::create_dir_all(path.parent().expect("has a parent")).expect("writable temp dir");
            std::fs::write(&path, &renamed).expect("writable temp dir");
            total += renamed.len();
            if total >= TARGET {
                break 'copies;
            }
        }
    }
    std::fs::write(dir.join(".complete"), "").expect("writable temp dir");
    dir
}

/// Where the benchmarks record their targets, one tab-separated line each (`target`, `value`,
/// `met`): `$BENCH_TARGETS`, else `target/bench-targets.tsv`. `make bench` empties it first and
/// prints it as one table at the end (`scripts/bench-table.mjs`).
pub fn targets_file() -> PathBuf {
    std::env::var_os("BENCH_TARGETS")
        .map(Into::into)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-targets.tsv"))
}

/// Print one target with its measured value and whether it is met, and record it for the
/// summary table.
pub fn target(name: &str, value: &str, met: bool) {
    let verdict = if met { "met" } else { "NOT met" };
    println!("  target: {name}: {value} ({verdict})");
    record(name, value, verdict);
}

/// Print a measure without a target of its own and record it beside the targets ("for
/// information" in the summary table).
pub fn info(name: &str, value: &str) {
    println!("  for information: {name}: {value}");
    record(name, value, "info");
}

/// Append one line to the targets file.
fn record(name: &str, value: &str, verdict: &str) {
    use std::io::Write as _;
    let line = format!("{}\t{}\t{verdict}\n", name.replace('\t', " "), value.replace('\t', " "));
    if let Some(dir) = targets_file().parent() {
        let _ = std::fs::create_dir_all(dir); // a fresh checkout built elsewhere (CARGO_TARGET_DIR)
    }
    let file = std::fs::OpenOptions::new().create(true).append(true).open(targets_file());
    if let Err(e) = file.and_then(|mut f| f.write_all(line.as_bytes())) {
        eprintln!("cannot record the target in {}: {e}", targets_file().display());
    }
}

/// One catalog source, `synth` in `olm`, and `subscriptions` subscriptions to packages spread
/// evenly over it: the resolution problem of the scale benchmark and of `examples/native_phases`.
pub fn synth_cluster(model: std::sync::Arc<olm_catalog::Model>, subscriptions: usize) -> olm_catalog::cluster::Cluster {
    use olm_catalog::cluster::{CatalogSource, Cluster, Subscription};
    let n = model.packages.len();
    let k = subscriptions.min(n);
    let subscriptions = (0..k)
        .map(|i| {
            let p = &model.packages[i * n / k];
            Subscription {
                name: format!("sub-{}", p.name),
                package: p.name.clone(),
                channel: p.default_channel.value.clone(),
                catalog: "synth".into(),
                catalog_namespace: "olm".into(),
                ..Default::default()
            }
        })
        .collect();
    let source = CatalogSource { name: "synth".into(), namespace: "olm".into(), priority: 0, model };
    Cluster { namespace: "olm".into(), catalogs: vec![source], subscriptions, ..Default::default() }
}
