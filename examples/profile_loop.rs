//! Runs one phase in a loop for profiling (`perf record`):
//! `cargo run --release --example profile_loop -- DIR parse|decode|load|validate|disk|session|crd-safety N`
//! (`decode`: the benchmark's parse+decode baseline)
//! (`session`: a session opened on DIR, its largest file edited and restored N times; `resolve`:
//! DIR is a synthetic catalog as `examples/native_phases.rs` writes it, resolved N times with the
//! 50 subscriptions of that benchmark; `graphs`: every channel's graph and every entry's v0 and v1
//! path of DIR, `internals::graphs_and_paths`, the benchmark's graphs phase; `crd-safety`: every
//! upgrade edge of DIR checked for CRD safety, `crd_safety::check_catalog`, the crd_safety benchmark's
//! phase).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(feature = "resolver")]
#[path = "../benches/common/mod.rs"]
mod common;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("usage: profile_loop DIR MODE N"));
    let mode = args.next().unwrap_or_else(|| "validate".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let files = olm_catalog::read_catalog(&dir).expect("readable catalog");
    if mode == "session" {
        let mut session = olm_catalog::validate::Session::open(files.clone(), Default::default());
        let big = files.iter().max_by_key(|f| f.content.len()).expect("a file");
        let original = String::from_utf8_lossy(&big.content).into_owned();
        let edited = original.replacen("version: ", "version: 9", 1);
        let (t, c) = (std::time::Instant::now(), cpu_now());
        for i in 0..n {
            let text = if i % 2 == 0 { &edited } else { &original };
            std::hint::black_box(session.update(&big.path, text.as_bytes()));
        }
        let cpu = (cpu_now() - c) as f64 / 1e6 / n as f64;
        println!("update {}: {:.2} ms wall, {cpu:.2} ms CPU", big.path, t.elapsed().as_secs_f64() * 1e3 / n as f64);
        return;
    }
    #[cfg(feature = "resolver")]
    if mode == "resolve" {
        let model = olm_catalog::validate_files(&files).model;
        let cluster = common::synth_cluster(model, 50);
        let (t, c) = (std::time::Instant::now(), cpu_now());
        for _ in 0..n {
            std::hint::black_box(olm_catalog::resolve::resolve(&cluster).map(|r| r.install.len()).unwrap_or(0));
        }
        let cpu = (cpu_now() - c) as f64 / 1e6 / n as f64;
        println!("resolve: {:.2} ms wall, {cpu:.2} ms CPU per run", t.elapsed().as_secs_f64() * 1e3 / n as f64);
        return;
    }
    if mode == "crd-safety" {
        let model = olm_catalog::validate_files(&files).model;
        let options = olm_catalog::crd_safety::CatalogOptions::default();
        let (t, c) = (std::time::Instant::now(), cpu_now());
        for _ in 0..n {
            std::hint::black_box(olm_catalog::crd_safety::check_catalog(&model, &options).edges.len());
        }
        let cpu = (cpu_now() - c) as f64 / 1e6 / n as f64;
        println!("crd-safety: {:.2} ms wall, {cpu:.2} ms CPU per run", t.elapsed().as_secs_f64() * 1e3 / n as f64);
        return;
    }
    if mode == "graphs" {
        let model = olm_catalog::validate_files(&files).model;
        let (t, c) = (std::time::Instant::now(), cpu_now());
        for _ in 0..n {
            std::hint::black_box(olm_catalog::internals::graphs_and_paths(&model));
        }
        let cpu = (cpu_now() - c) as f64 / 1e6 / n as f64;
        println!("graphs: {:.2} ms wall, {cpu:.2} ms CPU per run", t.elapsed().as_secs_f64() * 1e3 / n as f64);
        return;
    }
    let (t, c) = (std::time::Instant::now(), cpu_now());
    for _ in 0..n {
        match mode.as_str() {
            "parse" => {
                std::hint::black_box(olm_catalog::internals::parse_only(&files));
            }
            "decode" => {
                std::hint::black_box(olm_catalog::internals::parse_and_decode(&files));
            }
            "load" => {
                std::hint::black_box(olm_catalog::declcfg::load_files(&files));
            }
            "disk" => {
                std::hint::black_box(olm_catalog::validate::validate_loaded(
                    olm_catalog::load_dir(&dir).expect("readable"),
                ));
            }
            _ => {
                std::hint::black_box(olm_catalog::validate::validate_files(&files));
            }
        }
    }
    let cpu = (cpu_now() - c) as f64 / 1e6 / n as f64;
    println!("{mode}: {:.1} ms wall, {cpu:.1} ms CPU per run", t.elapsed().as_secs_f64() * 1e3 / n as f64);
}

/// CPU time of every thread of this process so far (Linux), in nanoseconds.
fn cpu_now() -> u64 {
    let tasks = std::fs::read_dir("/proc/self/task").into_iter().flatten().flatten();
    let stat = |t: std::fs::DirEntry| std::fs::read_to_string(t.path().join("schedstat")).unwrap_or_default();
    tasks.filter_map(|t| stat(t).split_whitespace().next()?.parse::<u64>().ok()).sum()
}
