//! The scale curve and the resolver's hostile cases (issue 15).
//!
//! Scale curve: synthetic catalogs (`olm_catalog::synth`, packages of 20 bundles with replaces,
//! skips, skipRanges, several channels, dependencies and deprecations) from 1,000 to 200,000
//! bundles, and three phases timed on each:
//!
//! - load + validate: `validate_files` on the generated files (load, model, opm's checks, lints);
//! - graphs + paths: every channel's graph and every entry's OLM v0 and v1 path to its head;
//! - resolve: 50 subscriptions (packages spread evenly over the catalog, default channels).
//!
//! Target: the time per bundle of each phase stays within 1.5× from the smallest to the largest
//! size (no super-linear step). The table prints each size's wall time and CPU time (all
//! threads; from `/proc`, so only on Linux) and the CPU time per bundle, then per phase the
//! ratio of the largest size's time per bundle to the smallest's, "met" when at most 1.5. The
//! ratio uses CPU time where it is available: on a machine shared with other work, wall time
//! measures the other work too.
//!
//! Hostile cases: resolution problems with 2,000 mutually exclusive candidates, CEL rules
//! written to blow up, and a SAT problem too hard for the solver's budget, each timed once with
//! its peak heap (counted by the allocator below); target ≤ 5 s and ≤ 1 GiB each, with a result
//! or a clear error.
//!
//! `BENCH_RUNS` sets the runs (median; sizes from 50,000 use at most 3), `SCALE_MAX` caps the
//! size for quick runs (`SCALE_MAX=20000`), `SCALE_HOSTILE=0` skips the hostile cases.

#[path = "common/mod.rs"]
mod common;

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use olm_catalog::cluster::problem_json::ProblemJson;
use olm_catalog::cluster::Cluster;
use olm_catalog::internals::solver::{self, from_ids, IdConstraint, DEFAULT_CONFLICT_BUDGET};
use olm_catalog::resolve::{resolve, Outcome};
use olm_catalog::synth::Synth;
use olm_catalog::validate_files;
use serde_json::{json, Value};

/// mimalloc, counting the live heap and its peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { mimalloc::MiMalloc.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { mimalloc::MiMalloc.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const SIZES: [usize; 5] = [1_000, 5_000, 20_000, 50_000, 200_000];
const SUBSCRIPTIONS: usize = 50;
const TARGET: f64 = 1.5;
const NAMES: [&str; 3] = ["load + validate", "graphs + paths", "resolve 50 subs"];

/// Wall and CPU time of one measurement (CPU `None` where `/proc` is not there).
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Option<Duration>,
}

impl Timing {
    /// CPU time when known, else wall time.
    fn best(&self) -> Duration {
        self.cpu.unwrap_or(self.wall)
    }
}

struct Row {
    bundles: usize,
    packages: usize,
    megabytes: f64,
    /// load + validate, graphs + paths, resolve.
    phases: [Timing; 3],
}

fn main() {
    let runs = common::runs();
    let max: usize = std::env::var("SCALE_MAX").ok().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX);
    if std::env::var("SCALE_HOSTILE").as_deref() != Ok("0") {
        hostile();
    }
    let mut rows = Vec::new();
    for size in SIZES.into_iter().filter(|&s| s <= max) {
        rows.push(measure(size, if size >= 50_000 { runs.min(3) } else { runs }));
    }
    if rows.is_empty() {
        eprintln!("scale: SCALE_MAX={max} leaves no size (smallest is {})", SIZES[0]);
        std::process::exit(2);
    }
    print_table(&rows, runs);
}

/// CPU time of every thread of this process so far (Linux), in nanoseconds of run time.
fn cpu_now() -> Option<Duration> {
    let mut total = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(total))
}

/// Each timed sample runs at least this long (repeating the work), so that short phases are
/// measured to better than the clocks' resolution (the CPU clock read from `/proc` advances in
/// scheduler ticks).
const MIN_SAMPLE: Duration = Duration::from_millis(250);

/// Median wall and CPU time of one run of `f`, over `runs` samples after one warm-up.
fn time(runs: usize, mut f: impl FnMut()) -> Timing {
    let t = Instant::now();
    f();
    let once = t.elapsed().max(Duration::from_micros(1));
    let reps = (MIN_SAMPLE.as_secs_f64() / once.as_secs_f64()).ceil().clamp(1.0, 1000.0) as u32;
    let mut walls = Vec::new();
    let mut cpus = Vec::new();
    for _ in 0..runs.max(1) {
        let (c, t) = (cpu_now(), Instant::now());
        for _ in 0..reps {
            f();
        }
        walls.push(t.elapsed() / reps);
        if let (Some(before), Some(after)) = (c, cpu_now()) {
            cpus.push(after.saturating_sub(before) / reps);
        }
    }
    walls.sort();
    cpus.sort();
    let cpu = (cpus.len() == walls.len()).then(|| cpus[cpus.len() / 2]);
    Timing { wall: walls[walls.len() / 2], cpu }
}

fn measure(size: usize, runs: usize) -> Row {
    let synth = Synth::with_bundles(size);
    let files = synth.files();
    let megabytes = files.iter().map(|f| f.content.len()).sum::<usize>() as f64 / 1e6;
    let validated = validate_files(&files);
    if !validated.report.valid {
        let message = validated.report.opm_message.unwrap_or_default();
        eprintln!("scale: the generated catalog of {size} bundles is not valid: {message}");
        std::process::exit(1);
    }
    let model = validated.model.clone();
    drop(validated);
    let bundles = model.packages.iter().map(|p| p.bundles.len()).sum();
    let validate = time(runs, || {
        std::hint::black_box(validate_files(&files).report.valid);
    });
    let graphs = time(runs, || {
        std::hint::black_box(olm_catalog::internals::graphs_and_paths(&model));
    });
    let cluster = common::synth_cluster(model.clone(), SUBSCRIPTIONS);
    let outcome = Outcome::from(resolve(&cluster));
    if let Some(kind) = outcome.error_type {
        eprintln!("scale: resolving {SUBSCRIPTIONS} subscriptions failed ({kind}): {}", outcome.errors.join("; "));
        std::process::exit(1);
    }
    let resolving = time(runs, || {
        std::hint::black_box(resolve(&cluster).map(|r| r.install.len()).unwrap_or(0));
    });
    eprintln!(
        "scale: {bundles} bundles: validate {:.1} ms, graphs+paths {:.1} ms, resolve {:.1} ms ({} installs)",
        ms(validate.wall),
        ms(graphs.wall),
        ms(resolving.wall),
        outcome.install.len()
    );
    Row { bundles, packages: synth.packages, megabytes, phases: [validate, graphs, resolving] }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn micros_per_bundle(d: Duration, bundles: usize) -> f64 {
    d.as_secs_f64() * 1e6 / bundles as f64
}

fn print_table(rows: &[Row], runs: usize) {
    let cpu = rows.iter().all(|r| r.phases.iter().all(|p| p.cpu.is_some()));
    let clock = if cpu { "CPU" } else { "wall" };
    println!("scale curve: synthetic catalogs, packages of 20 bundles (median of {runs} runs, at most 3 from 50,000)");
    let heads = NAMES.map(|n| format!("{n}: wall ms | CPU ms | {clock} µs/bundle"));
    println!("| bundles | packages | MB | {} |", heads.join(" | "));
    println!("| ---: | ---: | ---: |{}", " ---: | ---: | ---: |".repeat(3));
    for r in rows {
        let cells: Vec<String> = r
            .phases
            .iter()
            .map(|t| {
                let cpu_ms = t.cpu.map_or("–".to_string(), |c| format!("{:.1}", ms(c)));
                format!("{:.1} | {cpu_ms} | {:.2}", ms(t.wall), micros_per_bundle(t.best(), r.bundles))
            })
            .collect();
        println!("| {} | {} | {:.1} | {} |", thousands(r.bundles), r.packages, r.megabytes, cells.join(" | "));
    }
    let (first, last) = (&rows[0], &rows[rows.len() - 1]);
    println!(
        "{clock} time per bundle, {} vs {} bundles (target ≤ {TARGET}×):",
        thousands(last.bundles),
        thousands(first.bundles)
    );
    for (i, name) in NAMES.iter().enumerate() {
        let ratio = micros_per_bundle(last.phases[i].best(), last.bundles)
            / micros_per_bundle(first.phases[i].best(), first.bundles);
        common::target(
            &format!(
                "scale curve: {name}, {clock} time per bundle, {} vs {} bundles ≤ {TARGET}×",
                thousands(last.bundles),
                thousands(first.bundles)
            ),
            &format!("{ratio:.2}×"),
            ratio <= TARGET,
        );
    }
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Hostile cases.

/// How many mutually exclusive candidates the hostile problems have.
const N: usize = 2_000;
const HOSTILE_SECONDS: f64 = 5.0;
const HOSTILE_BYTES: usize = 1 << 30;

/// A hostile case: runs and describes its outcome.
type Case = Box<dyn Fn() -> String>;

fn hostile() {
    println!("resolver hostile cases (target ≤ {HOSTILE_SECONDS} s and ≤ 1 GiB each, a result or a clear error):");
    println!("| case | outcome | wall s | CPU s | peak heap MB | verdict |");
    println!("| --- | --- | ---: | ---: | ---: | --- |");
    let cases: Vec<(&str, Case)> = vec![
        ("2,000 providers of one API, the last installable", Box::new(|| outcome(&providers(true)))),
        ("2,000 providers of one API, none installable", Box::new(|| outcome(&providers(false)))),
        ("2,000 versions of a subscribed package, the oldest installable", Box::new(|| outcome(&versions()))),
        (
            "CEL rule: 12 nested maps over 10 elements (10^12 steps)",
            Box::new(|| outcome(&cel_bundles(1, &nested_maps(12)))),
        ),
        ("CEL rule: a string doubled 30 times", Box::new(|| outcome(&cel_bundles(1, &doubling(30))))),
        (
            "CEL rules: 40 bundles × 40 candidates at 100,000 units each",
            Box::new(|| outcome(&cel_bundles(40, &nested_maps(4)))),
        ),
        ("SAT: 11 pigeons in 10 holes", Box::new(pigeonhole)),
    ];
    for (name, case) in cases {
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let (c, t) = (cpu_now(), Instant::now());
        let result = case();
        let wall = t.elapsed().as_secs_f64();
        let cpu = c.zip(cpu_now()).map_or("–".to_string(), |(a, b)| format!("{:.2}", (b - a).as_secs_f64()));
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(base);
        let met = wall <= HOSTILE_SECONDS && peak <= HOSTILE_BYTES;
        let shown: String = result.chars().take(90).collect();
        println!(
            "| {name} | {shown} | {wall:.2} | {cpu} | {:.1} | {} |",
            peak as f64 / 1e6,
            if met { "met" } else { "NOT met" }
        );
    }
}

/// A resolution's outcome in a few words.
fn outcome(cluster: &Cluster) -> String {
    match resolve(cluster) {
        Ok(r) => format!("installs {}", r.install.iter().map(|i| i.name.as_str()).collect::<Vec<_>>().join(", ")),
        Err(e) => format!("{}: {e}", e.kind()),
    }
}

fn problem(packages: Vec<Value>, subscribe_to: &str) -> Cluster {
    let problem = json!({
        "namespace": "ns",
        "catalogs": [{"name": "cat", "namespace": "ns", "packages": packages}],
        "subscriptions": [{"name": "sub", "package": subscribe_to, "channel": "stable", "catalog": "cat", "catalogNamespace": "ns"}],
    });
    let cluster = serde_json::from_value::<ProblemJson>(problem)
        .map_err(|e| e.to_string())
        .and_then(|p| p.into_cluster().map_err(|e| e.to_string()));
    cluster.unwrap_or_else(|e| {
        eprintln!("scale: a hostile problem did not build: {e}");
        std::process::exit(1)
    })
}

fn package(name: &str, entries: Value, bundles: Value) -> Value {
    json!({"name": name, "defaultChannel": "stable", "channels": [{"name": "stable", "entries": entries}], "bundles": bundles})
}

fn gvk() -> Value {
    json!({"group": "g.example.com", "version": "v1", "kind": "Thing"})
}

fn requires_absent() -> Value {
    json!({"type": "olm.package.required", "value": {"packageName": "absent", "versionRange": ">=1.0.0"}})
}

/// `app` requires an API `N` packages provide; each requires a package that does not exist,
/// except the last when `one_installable`.
fn providers(one_installable: bool) -> Cluster {
    let app =
        json!([{"name": "app.v1", "version": "1.0.0", "properties": [{"type": "olm.gvk.required", "value": gvk()}]}]);
    let mut packages = vec![package("app", json!([{"name": "app.v1"}]), app)];
    for i in 0..N {
        let name = format!("p{i:04}");
        let mut properties = vec![json!({"type": "olm.gvk", "value": gvk()})];
        if !(one_installable && i == N - 1) {
            properties.push(requires_absent());
        }
        let b = format!("{name}.v1");
        let bundles = json!([{"name": b, "version": "1.0.0", "properties": properties}]);
        packages.push(package(&name, json!([{"name": b}]), bundles));
    }
    problem(packages, "app")
}

/// One package of `n` versions in a replaces chain, each with `properties(i)`.
fn chain(n: usize, properties: impl Fn(usize) -> Value) -> Cluster {
    let names: Vec<String> = (0..n).map(|i| format!("a.v{i}")).collect();
    let entries: Vec<Value> = (0..n)
        .map(|i| match i {
            0 => json!({"name": names[0]}),
            _ => json!({"name": names[i], "replaces": names[i - 1]}),
        })
        .collect();
    let bundles: Vec<Value> =
        (0..n).map(|i| json!({"name": names[i], "version": format!("1.0.{i}"), "properties": properties(i)})).collect();
    problem(vec![package("a", json!(entries), json!(bundles))], "a")
}

/// `N` versions; all but the oldest require a package that does not exist.
fn versions() -> Cluster {
    chain(N, |i| if i == 0 { json!([]) } else { json!([requires_absent()]) })
}

/// `n` versions, each with an `olm.constraint` CEL `rule`.
fn cel_bundles(n: usize, rule: &str) -> Cluster {
    let constraint = json!({"type": "olm.constraint", "value": {"failureMessage": "x", "cel": {"rule": rule}}});
    chain(n, |_| json!([constraint]))
}

fn nested_maps(depth: usize) -> String {
    let ten = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    let mut rule = String::from("1");
    for i in 0..depth {
        rule = format!("{ten}.map(x{i}, {rule})");
    }
    format!("size({rule}) > 0")
}

fn doubling(times: usize) -> String {
    let mut s = String::from("'0123456789abcdef'");
    for i in 0..times {
        s = format!("[{s}].map(y{i}, y{i} + y{i})[0]");
    }
    format!("size({s}) > 0")
}

/// 11 pigeons in 10 holes with the default conflict budget.
fn pigeonhole() -> String {
    let holes = 10;
    let mut spec: Vec<(String, Vec<IdConstraint>)> = Vec::new();
    for p in 0..=holes {
        let ids: Vec<String> = (0..holes).map(|h| format!("p{p}h{h}")).collect();
        spec.push((format!("pigeon{p}"), vec![IdConstraint::Mandatory, IdConstraint::Dependency(ids)]));
    }
    for h in 0..holes {
        let ids: Vec<String> = (0..=holes).map(|p| format!("p{p}h{h}")).collect();
        spec.push((format!("hole{h}"), vec![IdConstraint::AtMost(1, ids)]));
    }
    for p in 0..=holes {
        for h in 0..holes {
            spec.push((format!("p{p}h{h}"), vec![]));
        }
    }
    match from_ids(&spec).map(|vars| solver::solve(&vars, DEFAULT_CONFLICT_BUDGET)) {
        Ok(Ok(_)) => "solved".into(),
        Ok(Err(e)) => e.to_string(),
        Err(e) => e,
    }
}
