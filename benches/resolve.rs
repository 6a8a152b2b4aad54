//! Resolver benchmark (issue 6): a subscription to every package of `community-v4.20` (its
//! default channel), with `community-v4.16` loaded as a second, lower-priority catalog. Target:
//! ≤ 50 ms natively. Baseline measured in the same run: indexing both catalogs for the resolver
//! (entries, facts, indexes by GVK, package and channel, read straight from the checked models),
//! which the first resolution against a catalog computes and later ones reuse
//! (`CatalogIndex::of`); here it is computed afresh each run.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::path::Path;
use std::time::{Duration, Instant};

use olm_catalog::cluster::{CatalogSource, Cluster, Subscription};
use olm_catalog::declcfg::load_files;
use olm_catalog::internals::CatalogIndex;
use olm_catalog::model;
use olm_catalog::read_catalog;
use olm_catalog::resolve::{resolve, Outcome};

fn time<F: FnMut() -> usize>(runs: usize, mut f: F) -> (Duration, usize) {
    let n = f();
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .collect();
    times.sort();
    (times[times.len() / 2], n)
}

fn load(dir: &Path) -> model::Model {
    let files = read_catalog(dir).unwrap_or_else(|e| {
        eprintln!("{}: {e}", dir.display());
        std::process::exit(1)
    });
    model::build(&load_files(&files).config).0
}

fn main() {
    let runs: usize = std::env::var("BENCH_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    let root = std::env::var_os("CATALOGS_DIR")
        .map(Into::into)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/catalogs/fbc"));
    let new = load(&root.join("community-v4.20"));
    let old = load(&root.join("community-v4.16"));
    let subscriptions: Vec<Subscription> = new
        .packages
        .iter()
        .map(|p| Subscription {
            name: p.name.clone(),
            package: p.name.clone(),
            channel: p.default_channel.value.clone(),
            catalog: "community-v4.20".into(),
            catalog_namespace: "olm".into(),
            ..Default::default()
        })
        .collect();
    let source = |name: &str, priority, model| CatalogSource {
        name: name.into(),
        namespace: "olm".into(),
        priority,
        model: std::sync::Arc::new(model),
    };
    let problem = Cluster {
        namespace: "olm".into(),
        catalogs: vec![source("community-v4.20", 10, new), source("community-v4.16", 0, old)],
        subscriptions,
        ..Default::default()
    };
    let index = || problem.catalogs.iter().map(|c| CatalogIndex::new(&c.model).entries()).sum();
    let (snapshot, entries) = time(runs, index);
    let (resolving, _) = time(runs, || match resolve(&problem) {
        Ok(r) => r.install.len(),
        Err(_) => 0,
    });
    let outcome = Outcome::from(resolve(&problem));
    // A satisfiable variant: only the packages whose own resolution succeeds.
    let mut ok_problem = problem.clone();
    ok_problem.subscriptions.retain(|s| {
        let mut one = problem.clone();
        one.subscriptions = vec![s.clone()];
        resolve(&one).is_ok()
    });
    let (resolving_ok, installs) = time(runs, || match resolve(&ok_problem) {
        Ok(r) => r.install.len(),
        Err(_) => 0,
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "resolve: {} subscriptions (every package of community-v4.20), community-v4.16 as a second catalog; {entries} entries",
        problem.subscriptions.len()
    );
    match outcome.error_type {
        None => println!("  outcome: {} bundles to install", outcome.install.len()),
        Some(t) => println!("  outcome: {t}: {}", outcome.errors.join("; ").chars().take(300).collect::<String>()),
    }
    println!("  catalog indexes (baseline)  {:8.2} ms", ms(snapshot));
    println!(
        "  resolve                     {:8.2} ms  {:.2}x baseline  (target ≤ 50 ms)",
        ms(resolving),
        ms(resolving) / ms(snapshot)
    );
    println!(
        "  resolve, {} satisfiable subscriptions ({installs} installs) {:8.2} ms  {:.2}x baseline",
        ok_problem.subscriptions.len(),
        ms(resolving_ok),
        ms(resolving_ok) / ms(snapshot)
    );
}
