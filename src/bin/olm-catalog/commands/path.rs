//! `olm-catalog path`: the upgrades OLM v0 or v1 takes from an installed bundle to a channel's
//! head, or why there are none; and which steps fail the CRD checks (OLM v1's CRD Upgrade Safety
//! preflight, OLM v0's stored-version rule) when the catalog carries CRDs.

use std::path::PathBuf;

use olm_catalog::crd_safety::{check_path, CrdFinding, StepCheck};
use olm_catalog::graph::{upgrade_path, UpgradePath};
use serde::Serialize;

use crate::args::{SemanticsArg, TextOrJson};
use crate::catalog::{load_built, package, start};
use crate::output::{answer, push_json, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: the path reaches the head
- 1: the version is stranded (the reason says why)
- 2: usage or I/O error (no such package, channel or bundle included; a version several bundles
  have, which are named: give one of them)";

#[derive(clap::Args)]
pub struct Args {
    /// Catalog directory, file or image.
    path: PathBuf,
    /// The package.
    #[arg(long)]
    package: String,
    /// The channel whose head the path leads to.
    #[arg(long)]
    channel: String,
    /// Installed bundle name, or its version (1.2.0, v1.2.0): the bundle of that version, in the
    /// channel if it lists one; a version no bundle has is upgraded only by a skipRange.
    #[arg(long)]
    from: String,
    /// OLM v0 (one edge per resolution, closest to the head) or OLM v1 (highest successor).
    #[arg(long, value_enum, default_value_t = SemanticsArg::V0)]
    semantics: SemanticsArg,
    /// Output format: one line per upgrade (a step the CRD checks refuse is followed by their
    /// findings), then a summary; or JSON (`{from, to, steps: [{from, to, edge}], stranded, reason,
    /// crdSafety: [{from, to, crds, safe, findings}]}`, `crdSafety` one per step).
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    format: TextOrJson,
}

pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let m = load_built(&a.path)?;
    let p = package(&m, &a.package, &a.path)?;
    let channel = &a.channel;
    let c = p.channel(channel).ok_or_else(|| Fail(format!("package {:?} has no channel {channel:?}", a.package)))?;
    let up = upgrade_path(p, c, &start(&a.from), a.semantics.into()).map_err(|e| Fail(e.to_string()))?;
    let steps: Vec<(&str, &str)> = up.steps.iter().map(|s| (&*s.from, &*s.to)).collect();
    let crds = check_path(p, &steps);
    match a.format {
        TextOrJson::Json => {
            let crd_safety = crds.iter().map(StepJson::of).collect();
            push_json(out, &PathJson { path: &up, crd_safety })?
        }
        TextOrJson::Text => print_text(&up, &crds, channel, out),
    }
    Ok(answer(up.stranded))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PathJson<'a> {
    #[serde(flatten)]
    path: &'a UpgradePath,
    crd_safety: Vec<StepJson<'a>>,
}

#[derive(Serialize)]
struct StepJson<'a> {
    from: &'a str,
    to: &'a str,
    /// How many CRDs the old bundle carries (0: nothing to check, as in an olm.csv.metadata catalog).
    crds: usize,
    safe: bool,
    findings: Vec<CrdFinding>,
}

impl StepJson<'_> {
    fn of(s: &StepCheck) -> StepJson<'_> {
        StepJson { from: &s.from, to: &s.to, crds: s.crds.len(), safe: s.safe(), findings: s.findings() }
    }
}

/// How a typed version was read, then `a -> b (replaces)` per step, then how many upgrades reach
/// the head, or that the start is already there, or why no path does.
fn print_text(up: &UpgradePath, crds: &[StepCheck], channel: &str, out: &mut String) {
    let head = up.to.as_deref().unwrap_or("(no head)");
    if let Some(note) = &up.note {
        out.push_str(&format!("{note}\n"));
    }
    if up.steps.is_empty() && !up.stranded {
        out.push_str(&format!("{} is already at the head of channel {channel}\n", up.from));
    }
    for (s, c) in up.steps.iter().zip(crds) {
        let verdict = if c.safe() { "" } else { ": unsafe (CRD)" };
        out.push_str(&format!("{} -> {} ({}){verdict}\n", s.from, s.to, s.edge.as_str()));
        for f in c.findings() {
            out.push_str(&format!("  {}: {}[{}]: {}\n", f.location, f.severity, f.code, f.message));
        }
    }
    if up.stranded {
        out.push_str(&format!(
            "stranded: no path from {} to {head}: {}\n",
            up.from,
            up.reason.as_deref().unwrap_or("")
        ));
    } else if !up.steps.is_empty() {
        out.push_str(&format!(
            "{} upgrade{} to reach {head}\n",
            up.steps.len(),
            if up.steps.len() == 1 { "" } else { "s" }
        ));
    }
    let refused = crds.iter().filter(|c| !c.safe()).count();
    if refused > 0 {
        let plural = if refused == 1 { " fails" } else { "s fail" };
        out.push_str(&format!("{refused} step{plural} the CRD checks (OLM v1's preflight or OLM v0)\n"));
    }
}
