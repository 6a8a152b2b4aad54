//! Whole processes, as a user runs them, side by side with upstream's own code: the release
//! `olm-catalog` against the reference harnesses of `../shared/upstream` (`opmh` = `opm validate`,
//! `opmr` = `opm render` of bundle directories, `opmt` = `opm alpha render-template`) on the same
//! inputs, in the same run.
//!
//! Each command runs 1 + 5 times as a child process (output to `/dev/null`); the first run warms
//! the page cache and is not counted. Of the 5 others: the best wall time, the best CPU time (user
//! and system of every thread) and the median peak resident set (`ru_maxrss` of the child, from
//! `wait4`). The peak is judged above a trivial one-package catalog's (`validate` of a package,
//! a channel and a bundle: the process' code, stacks and allocator before any catalog), against
//! the input's size.
//!
//! Rows: `validate` of every catalog of `../shared/catalogs/fbc` and of the 57 MB
//! `olm.bundle.object` catalog (`common::bundle_object_catalog`) against `opmh validate`; `render`
//! of the 332 bundle directories of `../shared/catalogs/bundles` in one process against `opmr
//! render DIRS -o json`; `template` of each real template of `../shared/catalogs/templates` that
//! both expand, its bundles from its package's directory in community-v4.20, against `opmt`.
//!
//! Upstream's binaries are found in `$OPMH`, `$OPMR`, `$OPMT`, else on `PATH`, else in
//! `../scratch/upstream/` (where `../shared/upstream/README.md` has them built); nothing here builds
//! them. Without one, its rows say that upstream was not measured, and only our own figures
//! (and the memory targets) are recorded.
//!
//! Targets (issue 39), on CPU time (the machine is shared; wall time printed beside): validate
//! ≥ 30× `opmh` on community-v4.20, ≥ 50× on
//! community-v4.16 and on the 57 MB catalog; render ≥ 5× `opmr` and template ≥ 5× `opmt` (their
//! totals over the inputs); peak RSS above the trivial catalog's ≤ 2× the input's size on every
//! validate row, ≤ 3× for render (its output, as large as its input, is held too); for templates,
//! whose inputs (10–100 KB of template and a package's catalog) are too small for a ratio to
//! them, peak RSS ≤ `opmt`'s on each.

#[path = "common/mod.rs"]
mod common;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Runs counted per command (after one warm-up run).
const RUNS: usize = 5;

/// What one command cost: best wall and CPU time (seconds) and the median peak RSS (bytes).
#[derive(Clone, Copy, Default)]
struct Cost {
    wall: f64,
    cpu: f64,
    rss: u64,
}

/// A program and its arguments.
struct Command {
    program: PathBuf,
    args: Vec<OsString>,
}

impl Command {
    fn new(program: &Path, args: &[&dyn AsRef<std::ffi::OsStr>]) -> Command {
        Command { program: program.to_path_buf(), args: args.iter().map(|a| a.as_ref().to_os_string()).collect() }
    }
}

/// Our release CLI, built by `cargo bench` with this benchmark.
fn ours() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_olm-catalog"))
}

/// An upstream harness: `$VAR`, else `name` on `PATH`, else `../scratch/upstream/name`.
fn upstream(name: &str, var: &str) -> Option<PathBuf> {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join(name));
    let scratch = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scratch/upstream").join(name);
    on_path.chain([scratch]).find(|p| p.is_file())
}

/// The bytes of every file under `path` (or of the file itself).
fn size_of(path: &Path) -> u64 {
    match std::fs::read_dir(path) {
        Ok(entries) => entries.filter_map(Result::ok).map(|e| size_of(&e.path())).sum(),
        Err(_) => std::fs::metadata(path).map_or(0, |m| m.len()),
    }
}

/// `cmd` run 1 + [`RUNS`] times; exits with the reason if it cannot run or fails (exit code > 1:
/// 1 is the negative answer of an invalid catalog, for both sides).
fn measure(cmd: &Command) -> Cost {
    let mut costs: Vec<Cost> = (0..=RUNS).map(|_| run(cmd)).skip(1).collect();
    let best = |f: fn(&Cost) -> f64| costs.iter().map(f).fold(f64::INFINITY, f64::min);
    let (wall, cpu) = (best(|c| c.wall), best(|c| c.cpu));
    costs.sort_by_key(|c| c.rss);
    Cost { wall, cpu, rss: costs[costs.len() / 2].rss }
}

/// One run of `cmd`, its cost; exits with the reason if it cannot run or fails.
///
/// The run is reaped by a fresh copy of this benchmark (`--spawn`), not by this process: a
/// child's `ru_maxrss` counts the resident set of the process it was spawned from (the memory it
/// shared until `exec`), and this one grows with the catalogs it writes; the copy stays a few MB,
/// below any run's own peak.
#[cfg(unix)]
fn run(cmd: &Command) -> Cost {
    let (cost, code) = spawned(cmd).unwrap_or_else(|e| {
        eprintln!("{}: {e}", cmd.program.display());
        std::process::exit(1);
    });
    if code > 1 {
        eprintln!("{} {:?}: exit code {code}", cmd.program.display(), cmd.args);
        std::process::exit(1);
    }
    cost
}

/// Whether `cmd` exits with 0.
#[cfg(unix)]
fn succeeds(cmd: &Command) -> bool {
    spawned(cmd).is_ok_and(|(_, code)| code == 0)
}

/// `cmd` run by `this-benchmark --spawn PROGRAM ARGS…`, which prints its cost and exit code.
#[cfg(unix)]
fn spawned(cmd: &Command) -> std::io::Result<(Cost, i32)> {
    let out = std::process::Command::new(std::env::current_exe()?)
        .arg("--spawn")
        .arg(&cmd.program)
        .args(&cmd.args)
        .stderr(std::process::Stdio::inherit())
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let f: Vec<&str> = text.split_whitespace().collect();
    let bad = || std::io::Error::other(format!("unexpected --spawn output {text:?}"));
    let [wall, cpu, rss, code] = f[..] else { return Err(bad()) };
    let cost = Cost {
        wall: wall.parse().map_err(|_| bad())?,
        cpu: cpu.parse().map_err(|_| bad())?,
        rss: rss.parse().map_err(|_| bad())?,
    };
    Ok((cost, code.parse().map_err(|_| bad())?))
}

/// `--spawn PROGRAM ARGS…`: run PROGRAM once (stdout and stderr to `/dev/null`), reap it with
/// `wait4` and print `WALL CPU RSS CODE` (seconds, seconds, bytes; CODE -1 when a signal ended it).
#[cfg(unix)]
fn spawn_main(program: &OsString, args: &[OsString]) -> std::io::Result<()> {
    use std::process::Stdio;
    let start = std::time::Instant::now();
    let child = std::process::Command::new(program).args(args).stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
    let mut status = 0;
    // SAFETY: `wait4` writes only the status and the `rusage` it is given (plain data); the child
    // is ours and not waited for elsewhere (`Child` does not wait when dropped).
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        if libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        usage
    };
    let wall = start.elapsed().as_secs_f64();
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -1 };
    // `ru_maxrss` is in KiB on Linux.
    let cpu = secs(usage.ru_utime) + secs(usage.ru_stime);
    println!("{wall} {cpu} {} {code}", usage.ru_maxrss as u64 * 1024);
    Ok(())
}

#[cfg(not(unix))]
fn run(_: &Command) -> Cost {
    eprintln!("whole_process: a child's peak RSS is measured with wait4, on Unix only");
    std::process::exit(0);
}

#[cfg(not(unix))]
fn succeeds(_: &Command) -> bool {
    false
}

/// One comparison: our command and upstream's on the same input.
struct Row {
    name: String,
    input: u64,
    ours: Cost,
    theirs: Option<Cost>,
}

/// The trivial catalog's peak RSS is subtracted from ours; upstream's from theirs.
struct Trivial {
    ours: u64,
    theirs: Option<u64>,
}

fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

impl Row {
    /// Our peak RSS above the trivial catalog's, over the input's size.
    fn rss_ratio(&self, trivial: &Trivial) -> f64 {
        self.ours.rss.saturating_sub(trivial.ours) as f64 / self.input as f64
    }

    fn print(&self, trivial: &Trivial) {
        let side = |c: &Cost, base: u64| {
            format!(
                "{:7.3} s {:7.3} s CPU {:6.1} MB (+{:6.1})",
                c.wall,
                c.cpu,
                mb(c.rss),
                mb(c.rss.saturating_sub(base))
            )
        };
        println!("{:40} {:7.1} MB  ours {}", self.name, mb(self.input), side(&self.ours, trivial.ours));
        match (&self.theirs, trivial.theirs) {
            (Some(t), Some(base)) => println!(
                "{:50} upstream {}  = {:.0}× wall, {:.0}× CPU",
                "",
                side(t, base),
                t.wall / self.ours.wall,
                t.cpu / self.ours.cpu.max(1e-3)
            ),
            _ => println!("{:50} upstream not measured", ""),
        }
    }

    /// Record the speed target: `min` × upstream, judged on CPU time (user and system of every
    /// thread: the machine is shared, and the wall time grows with what else runs), the wall time
    /// beside it; or that upstream was not measured.
    fn speed_target(&self, upstream: &str, min: f64) {
        let name = format!("whole process: {} ≥ {min}× {upstream} (CPU time, best of {RUNS})", self.name);
        match &self.theirs {
            Some(t) => {
                let ratio = t.cpu / self.ours.cpu.max(1e-3);
                let value = format!(
                    "{:.3} s vs {:.2} s = {ratio:.0}× (wall {:.3} s vs {:.2} s = {:.0}×)",
                    self.ours.cpu,
                    t.cpu,
                    self.ours.wall,
                    t.wall,
                    t.wall / self.ours.wall
                );
                common::target(&name, &value, ratio >= min);
            }
            None => common::info(
                &name,
                &format!("{upstream} not found (set {}): upstream not measured", upstream.to_uppercase()),
            ),
        }
    }

    /// Record the memory target: peak RSS above the trivial catalog's ≤ `max` × the input.
    fn memory_target(&self, trivial: &Trivial, max: f64) {
        let ratio = self.rss_ratio(trivial);
        let value =
            format!("{:.1} MB − {:.1} MB = {ratio:.2}× {:.1} MB", mb(self.ours.rss), mb(trivial.ours), mb(self.input));
        let name = format!("whole process: peak RSS of {} above the trivial catalog's ≤ {max}× input", self.name);
        common::target(&name, &value, ratio <= max);
    }

    /// Record the memory target of a row whose input is too small for a ratio to it (templates):
    /// peak RSS ≤ upstream's; or ours alone, for information.
    fn memory_against_upstream(&self, upstream: &str) {
        let name = format!("whole process: peak RSS of {} ≤ {upstream}'s", self.name);
        match &self.theirs {
            Some(t) => {
                let value = format!("{:.1} MB vs {:.1} MB", mb(self.ours.rss), mb(t.rss));
                common::target(&name, &value, self.ours.rss <= t.rss);
            }
            None => common::info(&name, &format!("{:.1} MB; {upstream} not measured", mb(self.ours.rss))),
        }
    }
}

fn main() {
    let args: Vec<OsString> = std::env::args_os().collect();
    #[cfg(unix)]
    if args.get(1).is_some_and(|a| a == "--spawn") && args.len() > 2 {
        if let Err(e) = spawn_main(&args[2], &args[3..]) {
            eprintln!("{}: {e}", args[2].to_string_lossy());
            std::process::exit(1);
        }
        return;
    }
    let bin = ours();
    let (opmh, opmr, opmt) = (upstream("opmh", "OPMH"), upstream("opmr", "OPMR"), upstream("opmt", "OPMT"));
    for (name, found) in [("opmh", &opmh), ("opmr", &opmr), ("opmt", &opmt)] {
        match found {
            Some(p) => println!("{name}: {}", p.display()),
            None => println!("{name}: not found (set {}): its rows are not measured", name.to_uppercase()),
        }
    }
    let scratch = std::env::temp_dir().join("olm-catalog-bench-whole-process");
    let trivial_dir = write_trivial(&scratch);
    let validate = |exe: &Path, dir: &Path| Command::new(exe, &[&"validate", &dir]);
    let trivial = Trivial {
        ours: measure(&validate(&bin, &trivial_dir)).rss,
        theirs: opmh.as_ref().map(|h| measure(&validate(h, &trivial_dir)).rss),
    };
    println!("trivial catalog: ours {:.1} MB, upstream {:?} MB\n", mb(trivial.ours), trivial.theirs.map(mb));

    for (name, dir) in catalogs() {
        let row = Row {
            name: format!("validate {name}"),
            input: size_of(&dir),
            ours: measure(&validate(&bin, &dir)),
            theirs: opmh.as_ref().map(|h| measure(&validate(h, &dir))),
        };
        row.print(&trivial);
        match name.as_str() {
            "community-v4.20" => row.speed_target("opmh", 30.0),
            "community-v4.16" | "bundle-object 57 MB" => row.speed_target("opmh", 50.0),
            _ => {}
        }
        row.memory_target(&trivial, 2.0);
    }

    let render = render_row(&bin, opmr.as_deref());
    render.print(&trivial);
    render.speed_target("opmr", 5.0);
    render.memory_target(&trivial, 3.0);

    let (templates, worst) = template_rows(&bin, opmt.as_deref());
    templates.print(&trivial);
    templates.speed_target("opmt", 5.0);
    if let Some(worst) = worst {
        worst.print(&trivial);
        worst.memory_against_upstream("opmt");
    }
    let _ = std::fs::remove_dir_all(&scratch);
}

/// Every catalog of `../shared/catalogs/fbc`, then the 57 MB `olm.bundle.object` one.
fn catalogs() -> Vec<(String, PathBuf)> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(common::fbc_dir())
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    dirs.sort();
    let mut named: Vec<(String, PathBuf)> =
        dirs.into_iter().map(|d| (d.file_name().unwrap_or_default().to_string_lossy().into_owned(), d)).collect();
    named.push(("bundle-object 57 MB".into(), common::bundle_object_catalog()));
    named
}

/// A valid catalog of one package, one channel and one bundle, under `scratch`.
fn write_trivial(scratch: &Path) -> PathBuf {
    let dir = scratch.join("trivial");
    std::fs::create_dir_all(dir.join("p")).expect("writable temp dir");
    let catalog = "schema: olm.package\nname: p\ndefaultChannel: stable\n---\n\
        schema: olm.channel\npackage: p\nname: stable\nentries:\n  - name: p.v1.0.0\n---\n\
        schema: olm.bundle\npackage: p\nname: p.v1.0.0\nimage: quay.io/example/p-bundle:v1.0.0\n\
        properties:\n  - type: olm.package\n    value:\n      packageName: p\n      version: 1.0.0\n";
    std::fs::write(dir.join("p/catalog.yaml"), catalog).expect("writable temp dir");
    dir
}

/// Every bundle directory (the folder holding `metadata/annotations.yaml`) under `dir`, sorted.
fn bundle_dirs(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("metadata/annotations.yaml").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    let mut subdirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_dir()).collect())
        .unwrap_or_default();
    subdirs.sort();
    for d in subdirs {
        bundle_dirs(&d, out);
    }
}

/// `render` of every bundle directory of `../shared/catalogs/bundles` in one process.
fn render_row(bin: &Path, opmr: Option<&Path>) -> Row {
    let mut dirs = Vec::new();
    bundle_dirs(&common::fbc_dir().join("../bundles"), &mut dirs);
    let input = dirs.iter().map(|d| size_of(d)).sum();
    let args = |pre: &[&str], post: &[&str]| -> Vec<OsString> {
        pre.iter()
            .map(OsString::from)
            .chain(dirs.iter().map(|d| d.clone().into_os_string()))
            .chain(post.iter().map(OsString::from))
            .collect()
    };
    let ours = measure(&Command { program: bin.to_path_buf(), args: args(&["render"], &[]) });
    let theirs = opmr.map(|r| measure(&Command { program: r.to_path_buf(), args: args(&["render"], &["-o", "json"]) }));
    Row { name: format!("render of {} bundle directories", dirs.len()), input, ours, theirs }
}

/// Each template of `../shared/catalogs/templates/<operator>/` (but `ci.yaml`) that both sides
/// expand, with the package's directory of community-v4.20 as its bundles: the sum of their
/// costs (times added, inputs added, the largest peak kept), and the template whose peak RSS is
/// the largest against upstream's (without upstream, the largest).
fn template_rows(bin: &Path, opmt: Option<&Path>) -> (Row, Option<Row>) {
    let mut total = Row { name: String::new(), input: 0, ours: Cost::default(), theirs: opmt.map(|_| Cost::default()) };
    let (mut worst, mut count): (Option<Row>, usize) = (None, 0);
    for (template, catalog) in template_cases() {
        let mine = Command::new(bin, &[&"template", &template, &"--offline", &"--bundles", &catalog]);
        let theirs = opmt.map(|t| Command::new(t, &[&template, &catalog]));
        // One template names a bundle its package's catalog does not have: both sides fail it.
        if !succeeds(&mine) || theirs.as_ref().is_some_and(|t| !succeeds(t)) {
            continue;
        }
        let name = template.strip_prefix(common::fbc_dir().join("../templates")).unwrap_or(&template);
        let row = Row {
            name: format!("template {}", name.display()),
            input: size_of(&template) + size_of(&catalog),
            ours: measure(&mine),
            theirs: theirs.as_ref().map(measure),
        };
        total.input += row.input;
        total.ours = add(total.ours, row.ours);
        total.theirs = total.theirs.zip(row.theirs).map(|(a, b)| add(a, b));
        count += 1;
        let against = |r: &Row| r.ours.rss as f64 / r.theirs.map_or(1.0, |t| t.rss as f64);
        if worst.as_ref().is_none_or(|w| against(&row) > against(w)) {
            worst = Some(row);
        }
    }
    total.name = format!("template of {count} real templates (sums)");
    (total, worst)
}

/// The real templates and the catalog directory of each one's package in community-v4.20.
fn template_cases() -> Vec<(PathBuf, PathBuf)> {
    let community = common::fbc_dir().join("community-v4.20");
    let mut cases: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(common::fbc_dir().join("../templates"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .flat_map(|d| std::fs::read_dir(d).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "yaml") && !p.ends_with("ci.yaml"))
        .filter_map(|t| {
            let package = t.parent()?.file_name()?.to_owned();
            Some((t.clone(), community.join(package))).filter(|(_, c)| c.is_dir())
        })
        .collect();
    cases.sort();
    cases
}

/// Times added, the larger peak kept.
fn add(a: Cost, b: Cost) -> Cost {
    Cost { wall: a.wall + b.wall, cpu: a.cpu + b.cpu, rss: a.rss.max(b.rss) }
}
