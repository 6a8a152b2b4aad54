//! Incremental re-validation benchmark (issue 15): open a [`Session`] on community-v4.20, then
//! time `update` of one file — a bundle version changed, then changed back, so every update is a
//! real change — for files of every size, the largest included. Prints each file's median, the
//! median over all the edits against the target (≤ 10 ms), and, measured in the same run, a
//! full validation of the same catalog for comparison.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use olm_catalog::validate::{validate_files, Options, Session};

/// The text with the version of the first bundle whose `olm.package` property is written in
/// block style changed (a `9` appended to its patch number, say `1.2.3` → `1.2.39`).
fn bump_version(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let at = (1..lines.len()).find(|&i| lines[i - 1].contains("packageName: ") && lines[i].contains("version: "))?;
    let (key, value) = lines[at].split_once("version: ")?;
    let bumped = match value.split_once('-') {
        Some((core, pre)) => format!("{core}9-{pre}"),
        None => format!("{value}9"),
    };
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[at] = format!("{key}version: {bumped}");
    Some(out.join("\n"))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let runs = common::runs().max(5);
    let files = common::read(&common::fbc_dir().join("community-v4.20"));
    let mb = files.iter().map(|f| f.content.len()).sum::<usize>() as f64 / 1e6;
    let full = common::time(runs, || {
        std::hint::black_box(validate_files(&files));
    });
    let t = Instant::now();
    let mut session = Session::open(files.clone(), Options::default());
    let open = t.elapsed();
    assert_eq!(session.report(), &validate_files(&files).report, "the session's report is the full validation's");

    // Files of every size: the largest, then one at each fifth of the size ranking.
    let mut by_size: Vec<usize> = (0..files.len()).collect();
    by_size.sort_by_key(|&i| std::cmp::Reverse(files[i].content.len()));
    let picks: Vec<usize> = (0..6).map(|k| by_size[k * (by_size.len() - 1) / 5]).collect();

    println!("community-v4.20: {mb:.1} MB in {} files", files.len());
    println!("  full validate          {:8.2} ms  (baseline, same run)", ms(full));
    println!(
        "  session open           {:8.2} ms  {:.2}x full validate",
        ms(open),
        open.as_secs_f64() / full.as_secs_f64()
    );
    let mut all = Vec::new();
    let mut largest = None;
    for (k, i) in picks.into_iter().enumerate() {
        let f = &files[i];
        let original = String::from_utf8_lossy(&f.content).into_owned();
        let Some(edited) = bump_version(&original) else {
            println!("  {}: no block-style bundle version to edit", f.path);
            continue;
        };
        let mut times = Vec::new();
        for run in 0..2 * runs {
            let text = if run % 2 == 0 { &edited } else { &original };
            let t = Instant::now();
            std::hint::black_box(session.update(&f.path, text.as_bytes()));
            times.push(t.elapsed());
        }
        let m = median(times.clone());
        if k == 0 {
            largest = Some((f.path.clone(), f.content.len(), m));
        }
        all.extend(times);
        println!("  update {:<48} {:8.2} ms  ({:.0} KB)", f.path, ms(m), f.content.len() as f64 / 1024.0);
    }
    assert_eq!(session.report(), &validate_files(&files).report, "every edit was undone");
    let m = median(all);
    println!(
        "  update, median of all   {:8.2} ms  {:.1}x faster than full validate  ≤ 10 ms {}",
        ms(m),
        full.as_secs_f64() / m.as_secs_f64(),
        if ms(m) <= 10.0 { "met" } else { "NOT met" }
    );
    common::target(
        "session update ≤ 10 ms, median over files of every size (native)",
        &format!("{:.2} ms", ms(m)),
        ms(m) <= 10.0,
    );
    if let Some((path, size, m)) = largest {
        common::target(
            &format!("session update ≤ 10 ms, the largest file ({path}, {:.1} MB, native)", size as f64 / 1e6),
            &format!("{:.2} ms", ms(m)),
            ms(m) <= 10.0,
        );
    }
}
