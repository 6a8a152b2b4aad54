//! Writes a synthetic catalog (see `olm_catalog::synth`) to a directory, for trying the CLI on
//! catalogs of any size:
//!
//! ```text
//! cargo run --release --example synth -- /tmp/synth-20k 20000 [--json] [--seed N] [--per-package M]
//! olm-catalog validate /tmp/synth-20k
//! ```
//!
//! The second argument is the number of bundles (packages of `--per-package` bundles, 20 by
//! default).

use std::path::PathBuf;
use std::process::ExitCode;

use olm_catalog::synth::{Format, Synth};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("synth: {e}\nusage: synth DIR BUNDLES [--json] [--seed N] [--per-package M]");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<String, String> {
    let mut positional = Vec::new();
    let mut synth = Synth::default();
    let mut per_package = synth.bundles_per_package;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<u64, String> {
            let v = it.next().ok_or(format!("{name} needs a value"))?;
            v.parse().map_err(|_| format!("{name}: not a number: {v}"))
        };
        match a.as_str() {
            "--json" => synth.format = Format::Json,
            "--seed" => synth.seed = number("--seed")?,
            "--per-package" => per_package = number("--per-package")?.max(1) as usize,
            _ => positional.push(a.clone()),
        }
    }
    let [dir, bundles] = positional.as_slice() else {
        return Err("expected DIR and BUNDLES".into());
    };
    let bundles: usize = bundles.parse().map_err(|_| format!("BUNDLES: not a number: {bundles}"))?;
    synth.bundles_per_package = per_package;
    synth.packages = bundles.div_ceil(per_package).max(1);
    let dir = PathBuf::from(dir);
    let mut size = 0;
    for f in synth.files() {
        let path = dir.join(&f.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &f.content).map_err(|e| format!("{}: {e}", path.display()))?;
        size += f.content.len();
    }
    Ok(format!(
        "{}: {} packages × {} bundles, {:.1} MB",
        dir.display(),
        synth.packages,
        synth.bundles_per_package,
        size as f64 / 1e6
    ))
}
