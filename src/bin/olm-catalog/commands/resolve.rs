//! `olm-catalog resolve`: a resolution problem read from JSON (its catalogs inline or loaded
//! from FBC directories), resolved as OLM v0 does, the outcome printed.

use std::path::{Path, PathBuf};

use olm_catalog_image::Transport;

use olm_catalog::cluster::problem_json::{ProblemError, ProblemJson};
use olm_catalog::cluster::Cluster;
use olm_catalog::model;
use olm_catalog::resolve::{resolve, Outcome};

use crate::args::TextOrJson;
use crate::catalog::load;
use crate::output::{answer, push_json, Fail};

pub const EXIT_CODES: &str = "Exit codes:
- 0: resolved
- 1: not satisfiable, or rejected (an unorderable channel, an invalid olm.constraint, …)
- 2: usage or I/O error";

#[derive(clap::Args)]
pub struct Args {
    /// The problem as JSON: namespace, catalogs (inline packages, or `path` naming an FBC
    /// directory relative to this file), installed operators, subscriptions.
    ///
    /// It has the shape of the `input` of the resolver conformance cases; optional fields:
    /// `resolutionNamespaces`, `systemConstraints`, `failForward`, per-subscription `startingCSV`
    /// and `installedCSV`, per-installed `phase` and `replaces`.
    problem: PathBuf,
    /// Output format: what to install and why each bundle was picked (or OLM's error and a tree
    /// of what excluded each candidate); or JSON (`{install, errors, errorType, explanation,
    /// picks}`).
    #[arg(long, value_enum, default_value_t = TextOrJson::Text)]
    format: TextOrJson,
}

pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let problem = read_problem(&a.problem)?;
    let outcome = Outcome::from(resolve(&problem));
    match a.format {
        TextOrJson::Json => push_json(out, &outcome.with_texts())?,
        TextOrJson::Text => out.push_str(&outcome.to_text()),
    }
    Ok(answer(outcome.error_type.is_some()))
}

/// A catalog `path` of a problem file in `base`: a path or an image's file relative to it, a
/// registry reference as it is.
pub(super) fn catalog_path(base: &Path, p: &str) -> PathBuf {
    let relative = |f: &str| base.join(f).display().to_string();
    match Transport::parse(p) {
        Some(Transport::Oci { dir, tag }) => {
            PathBuf::from(format!("oci:{}{}", relative(&dir), tag.map(|t| format!(":{t}")).unwrap_or_default()))
        }
        Some(Transport::OciArchive { file, tag }) => PathBuf::from(format!(
            "oci-archive:{}{}",
            relative(&file),
            tag.map(|t| format!(":{t}")).unwrap_or_default()
        )),
        Some(Transport::DockerArchive { file, reference }) if file != "-" => PathBuf::from(format!(
            "docker-archive:{}{}",
            relative(&file),
            reference.map(|r| format!(":{r}")).unwrap_or_default()
        )),
        Some(_) => PathBuf::from(p),
        None if !base.join(p).exists() && crate::image::transport(Path::new(p)).is_some() => PathBuf::from(p),
        None => base.join(p),
    }
}

/// Read a problem file; catalogs with a `path` are loaded from that FBC directory or file, or
/// that image (paths, in image references too, relative to the problem file).
fn read_problem(file: &Path) -> Result<Cluster, Fail> {
    let text = std::fs::read_to_string(file).map_err(|e| Fail::at(file, e))?;
    let problem: ProblemJson =
        serde_json::from_str(&text).map_err(|e| Fail::at(file, format!("not a resolution problem: {e}")))?;
    let base = file.parent().unwrap_or(Path::new("."));
    let mut failed = None;
    let cluster = problem.into_cluster_with(&mut |c, p| match load(&catalog_path(base, p)) {
        Ok(cfg) => Ok(model::build(&cfg).0),
        Err(Fail(m)) => {
            failed = Some(Fail(m.clone()));
            Err(ProblemError::Load { catalog: c.name.clone(), message: m })
        }
    });
    match (cluster, failed) {
        (Ok(c), _) => Ok(c),
        (Err(_), Some(f)) => Err(f),
        (Err(e), None) => Err(Fail(e.to_string())),
    }
}
