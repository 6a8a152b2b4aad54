//! Graph abuse benchmark (issue 15): each hostile catalog of `tests/hostile/catalogs.rs` through
//! validate, the `graph` outputs (JSON, Mermaid, DOT) and the upgrade path of its oldest entry,
//! each from the catalog's bytes as the CLI does it, in a child process of its own so that its
//! peak resident memory (`VmHWM` of /proc/self/status) is its alone. Prints wall time, CPU time
//! (user + system) and peak memory against the budget: 5 s and 1 GiB per command. The catalog is
//! generated in the child before the clock starts; its bytes count in the peak, as the file would
//! for the CLI.
//!
//! `cargo bench --bench hostile` runs everything; `-- --write DIR` writes the catalogs as
//! `DIR/<case>/catalog.json` (to time the release CLI on them); `-- --case NAME --phase PHASE` is
//! the child.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

#[path = "../tests/hostile/catalogs.rs"]
mod catalogs;

use std::process::Command;
use std::time::Instant;

use catalogs::Hostile;
use olm_catalog::declcfg::load_files;
use olm_catalog::graph::{to_dot, to_mermaid, upgrade_path, MermaidOptions, PackageGraph, Semantics, Start};
use olm_catalog::model;
use olm_catalog::validate::validate_files;

const TIME_BUDGET_S: f64 = 5.0;
const MEMORY_BUDGET_KB: u64 = 1 << 20;
const PHASES: [&str; 6] = ["validate", "graph-json", "graph-mermaid", "graph-dot", "path-v0", "path-v1"];

/// Every case by name: the four of issue 15, then two that stress the message caps and the
/// stranded-entry lint. Each is generated only when asked for.
/// A case's name and how to build it.
type Case = (&'static str, fn() -> Hostile);

const CASES: [Case; 6] = [
    ("replaces-chain", || catalogs::long_chain(50_000)),
    ("skiprange-chain", || catalogs::skip_range_chain(20_000)),
    ("many-channels", || catalogs::many_channels(5_000, 50)),
    ("cycle-and-fan", || catalogs::cycle_and_fan(10_000, 3_000)),
    ("many-heads", || catalogs::many_heads(20_000)),
    ("blocked-chain", || catalogs::blocked_chain(50_000)),
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    if let Some(dir) = value("--write") {
        write(&dir);
    } else if let (Some(case), Some(phase)) = (value("--case"), value("--phase")) {
        child(&case, &phase);
    } else {
        parent();
    }
}

fn write(dir: &str) {
    for h in CASES.iter().map(|(_, make)| make()) {
        let d = std::path::Path::new(dir).join(h.name);
        std::fs::create_dir_all(&d).expect("create directory");
        std::fs::write(d.join("catalog.json"), &h.file.content).expect("write catalog");
        println!("{} --package {} --channel {} --from {}", d.display(), h.package, h.channel, h.oldest);
    }
}

/// Runs one phase, then prints `wall_s cpu_s peak_kb result`.
fn child(case: &str, phase: &str) {
    let make = CASES.iter().find(|(name, _)| *name == case).map(|(_, make)| make);
    let h = make.unwrap_or_else(|| panic!("no case {case}"))();
    let files = [h.file.clone()];
    let cpu0 = cpu_seconds();
    let t = Instant::now();
    let result = run(&h, &files, phase);
    let wall = t.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    println!("{wall:.3} {cpu:.3} {} {result}", peak_kb());
}

/// One command's work from the catalog's bytes, and a word on its result.
fn run(h: &Hostile, files: &[olm_catalog::FileInput], phase: &str) -> String {
    if phase == "validate" {
        let v = validate_files(files);
        let errors = v.report.diagnostics.iter().filter(|d| d.is_error()).count();
        let longest = v.report.diagnostics.iter().map(|d| d.message.len()).max().unwrap_or(0);
        let verdict = if v.report.valid { "valid" } else { "invalid" };
        return format!(
            "{verdict}, {errors} errors, {} findings, longest message {longest} B",
            v.report.diagnostics.len()
        );
    }
    let loaded = load_files(files);
    let (m, _) = model::build(&loaded.config);
    let p = m.package(&h.package).expect("package");
    let c = p.channel(&h.channel).expect("channel");
    match phase {
        "graph-json" => {
            let g = PackageGraph::new(p);
            let json = serde_json::to_string(&g).expect("serializes");
            format!(
                "{} edges ({} fans), JSON {} B",
                g.edge_count(),
                g.channels.iter().map(|c| c.fans.len()).sum::<usize>(),
                json.len()
            )
        }
        "graph-mermaid" => {
            let opts = MermaidOptions { package: Some(h.package.clone()), v0_semantics: true, ..Default::default() };
            match to_mermaid(&m, &opts) {
                Ok(text) => format!("Mermaid {} B", text.len()),
                Err(e) => format!("refused: {}", e.to_string().split(':').next().unwrap_or_default()),
            }
        }
        "graph-dot" => format!("DOT {} B", to_dot(&PackageGraph::new(p).channels).len()),
        "path-v0" | "path-v1" => {
            let semantics = if phase == "path-v0" { Semantics::V0 } else { Semantics::V1 };
            match upgrade_path(p, c, &Start::Bundle(h.oldest.clone()), semantics) {
                Ok(up) if up.stranded => format!("stranded after {} steps", up.steps.len()),
                Ok(up) => format!("{} steps", up.steps.len()),
                Err(e) => format!("no path: {} B message", e.to_string().len()),
            }
        }
        other => panic!("no phase {other}"),
    }
}

fn parent() {
    let exe = std::env::current_exe().expect("own path");
    println!(
        "Graph abuse (issue 15): each command from the catalog's bytes, in its own process; budget {TIME_BUDGET_S} s and 1 GiB each"
    );
    println!(
        "{:<16} {:<14} {:>8} {:>8} {:>9}  {:<8} result",
        "case", "command", "wall s", "cpu s", "peak MiB", "budget"
    );
    let mut all_met = true;
    let mut worst = (0.0f64, 0u64);
    for (case, _) in CASES {
        for phase in PHASES {
            let out = Command::new(&exe).args(["--case", case, "--phase", phase]).output().expect("child runs");
            let line = String::from_utf8_lossy(&out.stdout).lines().last().unwrap_or_default().to_string();
            let mut parts = line.splitn(4, ' ');
            let (wall, cpu, peak, result) = match (parts.next(), parts.next(), parts.next(), parts.next()) {
                (Some(w), Some(c), Some(p), Some(r)) if out.status.success() => (
                    w.parse().unwrap_or(f64::NAN),
                    c.parse().unwrap_or(f64::NAN),
                    p.parse().unwrap_or(u64::MAX),
                    r.to_string(),
                ),
                _ => (f64::NAN, f64::NAN, u64::MAX, format!("child failed: {}", String::from_utf8_lossy(&out.stderr))),
            };
            let met = wall <= TIME_BUDGET_S && peak <= MEMORY_BUDGET_KB;
            all_met &= met;
            worst = (worst.0.max(wall), worst.1.max(peak));
            println!(
                "{:<16} {:<14} {wall:>8.3} {cpu:>8.3} {:>9.1}  {:<8} {result}",
                case,
                phase,
                peak as f64 / 1024.0,
                if met { "met" } else { "NOT met" }
            );
        }
    }
    println!("graph abuse budget (5 s, 1 GiB per command): {}", if all_met { "met" } else { "NOT met" });
    common::target(
        "hostile catalogs: validate, graph, path each ≤ 5 s and 1 GiB",
        &format!("worst {:.2} s, {:.0} MiB", worst.0, worst.1 as f64 / 1024.0),
        all_met,
    );
}

/// The peak resident set of this process so far, in KiB (`VmHWM`).
fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// User plus system CPU time of this process so far, in seconds (`/proc/self/stat`, in clock
/// ticks of 1/100 s, Linux's USER_HZ).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which is in parentheses and may hold spaces).
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
    (ticks(11) + ticks(12)) as f64 / 100.0
}
