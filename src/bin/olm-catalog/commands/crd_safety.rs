//! `olm-catalog crd-safety`: whether CRDs may be upgraded, as OLM v1's CRD Upgrade Safety
//! preflight and OLM v0 judge it: on every upgrade edge of a catalog, or between an old and a
//! new CRD file or bundle directory.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use olm_catalog::crd_safety::{
    bundle_dir_crds, check_catalog, compare_crd_sets, crds_in_file, pairs_text, CatalogOptions, CrdCheck, CrdFinding,
    FoundCrd,
};
use olm_catalog::report_formats::render_findings;
use olm_catalog::Diagnostic;
use serde::Serialize;

use crate::catalog::{load_built, start};
use crate::output::{answer, push_json, report, report_format, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: every CRD upgrade is safe (OLM v0 and v1 take it; a CRD the new bundle drops is a warning),
  or the catalog carries no CRDs (said once)
- 1: an upgrade is unsafe: OLM v1's preflight or OLM v0 refuses it, or a CRD cannot be compared
- 2: usage or I/O error, an unknown package included";

#[derive(clap::Args)]
pub struct Args {
    /// Catalog directory or file: check every upgrade edge OLM v0 or v1 can take (replaces,
    /// skips, skipRange), with the CRDs of its `olm.bundle.object` properties.
    #[arg(required_unless_present = "old", conflicts_with_all = ["old", "new"])]
    catalog: Option<PathBuf>,
    /// The old side: a CRD file (YAML or JSON, several documents allowed) or a bundle directory
    /// (every YAML and JSON file under it); CRDs are paired with the new side's by name.
    #[arg(long, requires = "new")]
    old: Option<PathBuf>,
    /// The new side (as `--old`).
    #[arg(long, requires = "old")]
    new: Option<PathBuf>,
    /// Only this package (catalog mode).
    #[arg(long, requires = "catalog")]
    package: Option<String>,
    /// Only the edges on the way up from this bundle, or version (catalog mode).
    #[arg(long, requires = "catalog")]
    from: Option<String>,
    /// Bundle directories, or trees of them (catalog mode): the CRDs of a catalog bundle that
    /// carries none (an `olm.csv.metadata` catalog) are taken from the bundle directory (one with
    /// a `manifests/` folder) whose ClusterServiceVersion has the bundle's name.
    #[arg(long, num_args = 1.., value_name = "DIR", requires = "catalog")]
    bundles: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CrdFormat::Text)]
    format: CrdFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum CrdFormat {
    /// Each unsafe upgrade (or CRD) and its findings `file:line:col: error[code]: message`, then a
    /// summary with the unsafe edges counted by rule.
    Text,
    /// `{"safe": bool, "findings": [{"code", "rule", "crd", "version", "path", "message",
    /// "severity", "location"}]}`; in catalog mode also `edges` (each with `package`,
    /// `channel`, `from`, `to`, `via`, `safe`, `findings`), `shared`, `unsafeEdgesByRule`.
    Json,
    /// SARIF 2.1.0 (GitHub code scanning).
    Sarif,
    /// GitHub Actions workflow commands.
    Github,
    /// A pull-request comment: summary and a table of the findings.
    Markdown,
    /// JUnit XML: a testcase per finding, a failure per error.
    Junit,
}

const TOOL: &str = "olm-catalog crd-safety";

/// Check a catalog's edges, or two sides' CRDs; exit 1 when an upgrade is unsafe.
pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    match (&a.catalog, &a.old, &a.new) {
        (Some(catalog), _, _) => run_catalog(a, catalog, out),
        (None, Some(old), Some(new)) => run_pairs(a, old, new, out),
        _ => Err(Fail("give a catalog, or --old and --new".into())),
    }
}

#[derive(Serialize)]
struct PairsJson<'a> {
    safe: bool,
    findings: Vec<CrdFinding>,
    crds: &'a [CrdCheck],
}

fn run_pairs(a: &Args, old: &Path, new: &Path, out: &mut String) -> Result<u8, Fail> {
    let (old_crds, mut problems) = read_side(old)?;
    let (new_crds, new_problems) = read_side(new)?;
    problems.extend(new_problems);
    report(&problems);
    let checks = compare_crd_sets(&old_crds, &new_crds);
    let safe = checks.iter().all(CrdCheck::safe);
    let findings: Vec<CrdFinding> = checks.iter().flat_map(CrdCheck::findings).collect();
    match a.format {
        CrdFormat::Text => out.push_str(&crate::colour::findings(&pairs_text(&checks), crate::colour::stdout())),
        CrdFormat::Json => push_json(out, &PairsJson { safe, findings, crds: &checks })?,
        f => {
            let diagnostics: Vec<Diagnostic> = findings.iter().map(|f| f.diagnostic("")).collect();
            out.push_str(&render_findings(report_format(f).expect("a CI format"), TOOL, &diagnostics, verdict(safe)));
        }
    }
    Ok(answer(!safe))
}

fn verdict(safe: bool) -> &'static str {
    if safe {
        "safe"
    } else {
        "unsafe"
    }
}

/// The CRDs of a file, or of every YAML and JSON file under a directory (in path order).
fn read_side(path: &Path) -> Result<(Vec<FoundCrd>, Vec<Diagnostic>), Fail> {
    let mut files = Vec::new();
    collect_files(path, &mut files).map_err(|e| Fail::at(path, e))?;
    let (mut found, mut problems) = (Vec::new(), Vec::new());
    for f in files {
        let bytes = std::fs::read(&f).map_err(|e| Fail::at(&f, e))?;
        let (crds, p) = crds_in_file(&f.display().to_string(), &bytes);
        found.extend(crds);
        problems.extend(p);
    }
    Ok((found, problems))
}

fn collect_files(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for p in entries {
        let manifest = p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json");
        if p.is_dir() {
            collect_files(&p, out)?;
        } else if manifest {
            out.push(p);
        }
    }
    Ok(())
}

/// The CRDs of every bundle directory (one with a `manifests/` folder) at or under `dir`, by the
/// name of its ClusterServiceVersion.
fn read_bundle_dirs(dir: &Path, out: &mut BTreeMap<String, Vec<FoundCrd>>) -> Result<(), Fail> {
    let manifests = dir.join("manifests");
    if manifests.is_dir() {
        let mut files = Vec::new();
        collect_files(&manifests, &mut files).map_err(|e| Fail::at(&manifests, e))?;
        let mut read = Vec::with_capacity(files.len());
        for f in files {
            read.push((f.display().to_string(), std::fs::read(&f).map_err(|e| Fail::at(&f, e))?));
        }
        let (csv, crds, problems) = bundle_dir_crds(&read);
        report(&problems);
        if let Some(name) = csv {
            out.entry(name).or_insert(crds);
        }
        return Ok(());
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Fail::at(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        read_bundle_dirs(&d, out)?;
    }
    Ok(())
}

fn run_catalog(a: &Args, path: &Path, out: &mut String) -> Result<u8, Fail> {
    let model = load_built(path)?;
    if let Some(p) = a.package.as_deref().filter(|p| model.package(p).is_none()) {
        return Err(Fail(format!("no package {p:?} in {}", path.display())));
    }
    let mut options =
        CatalogOptions { package: a.package.clone(), from: a.from.as_deref().map(start), ..Default::default() };
    for dir in &a.bundles {
        read_bundle_dirs(dir, &mut options.bundles)?;
    }
    let check = check_catalog(&model, &options);
    let safe = check.safe();
    match a.format {
        CrdFormat::Text => out.push_str(&crate::colour::findings(&check.to_text(), crate::colour::stdout())),
        CrdFormat::Json => push_json(out, &check.report())?,
        f => {
            let rendered =
                render_findings(report_format(f).expect("a CI format"), TOOL, &check.diagnostics(), verdict(safe));
            out.push_str(&rendered);
        }
    }
    Ok(answer(!safe))
}
