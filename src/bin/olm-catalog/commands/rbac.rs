//! `olm-catalog rbac`: the RBAC OLM generates for a bundle's CSV under an OperatorGroup, for one
//! install mode or each mode the CSV supports.

use std::path::PathBuf;

use clap::ValueEnum;
use olm_catalog::operatorgroup::rbac_bundle::{preview_bundle_rbac, RbacRequest, RbacRequestError};
use olm_catalog::operatorgroup::InstallModeType;

use crate::catalog::load_built;
use crate::output::{answer, push_json, Fail, NEGATIVE};

pub const EXIT_CODES: &str = "Exit codes:
- 0: previewed
- 1: the permissions are unknown (no CSV, or an olm.csv.metadata CSV, which carries no install \
strategy; the provided APIs' roles are still printed), or a mode asked for is not supported (OLM's \
message is printed)
- 2: usage or I/O error, targets that do not make the mode's group included, and --format yaml \
for several install modes";

#[derive(clap::Args)]
pub struct Args {
    /// An FBC directory or file.
    path: PathBuf,
    /// The package.
    #[arg(long)]
    package: String,
    /// The bundle (default: the head of the package's default channel).
    #[arg(long)]
    bundle: Option<String>,
    /// The install mode (default: each mode the CSV supports).
    #[arg(long, value_enum)]
    install_mode: Option<InstallModeArg>,
    /// The operator's namespace (and its OperatorGroup's).
    #[arg(long, default_value = "operators")]
    namespace: String,
    /// The OperatorGroup's name.
    #[arg(long, default_value = "operator-group")]
    operator_group: String,
    /// The group's target namespaces, comma-separated (default: an example for the mode).
    #[arg(long, value_delimiter = ',')]
    target_namespaces: Option<Vec<String>>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RbacFormat::Text)]
    format: RbacFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RbacFormat {
    /// Per install mode, the ClusterRoles, Roles and bindings OLM creates, then what the operator
    /// may touch (service account × namespace × API group × resource → verbs).
    Text,
    /// The previews, one per install mode.
    Json,
    /// The objects as Kubernetes manifests, a multi-document YAML stream for `kubectl apply` (one
    /// install mode: name it with --install-mode when the CSV supports several).
    Yaml,
}

/// The install modes, in the order of `InstallModeType::ALL`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
#[value(rename_all = "PascalCase")]
enum InstallModeArg {
    /// The group targets the operator's own namespace.
    OwnNamespace,
    /// The group targets one other namespace.
    SingleNamespace,
    /// The group targets several namespaces.
    MultiNamespace,
    /// The group targets every namespace.
    AllNamespaces,
}

/// Preview a bundle's RBAC under each install mode asked for (or that the CSV supports); exit
/// 1 when the CSV's permissions are unknown or a mode asked for is not supported.
pub fn run(a: &Args, out: &mut String) -> Result<u8, Fail> {
    let m = load_built(&a.path)?;
    let request = RbacRequest {
        package: a.package.clone(),
        bundle: a.bundle.clone(),
        install_mode: a.install_mode.map(|m| InstallModeType::ALL[m as usize]),
        namespace: a.namespace.clone(),
        operator_group: a.operator_group.clone(),
        target_namespaces: a.target_namespaces.clone(),
    };
    let rbac = match preview_bundle_rbac(&m, &request) {
        Ok(r) => r,
        Err(RbacRequestError::UnknownPackage(p)) => {
            return Err(Fail(format!("no package {p:?} in {}", a.path.display())))
        }
        Err(e @ RbacRequestError::NoCsv(_)) => {
            eprintln!("olm-catalog: {e}");
            return Ok(NEGATIVE);
        }
        Err(e) => return Err(Fail(e.to_string())),
    };
    if rbac.previews.is_empty() {
        eprintln!("olm-catalog: {}", rbac.problem().unwrap_or_default());
        return Ok(NEGATIVE);
    }
    match a.format {
        RbacFormat::Text => out.push_str(&rbac.to_text()),
        RbacFormat::Json => push_json(out, &rbac.previews)?,
        RbacFormat::Yaml => out.push_str(&rbac.to_manifest_yaml().map_err(|e| Fail(format!("--format yaml: {e}")))?),
    }
    if !rbac.permissions_known {
        eprintln!("olm-catalog: {}", rbac.problem().unwrap_or_default());
        return Ok(NEGATIVE);
    }
    Ok(answer(rbac.previews.iter().any(|p| p.unsupported.is_some())))
}
