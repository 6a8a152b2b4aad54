//! The RBAC preview of one catalog bundle, as the surfaces (CLI `rbac`, JS `previewRbac`) ask for
//! it: the bundle named, or the head of the package's default channel; a preview under each
//! install mode asked for, or else under each mode the CSV supports.

use super::install_modes::{InstallModeSet, InstallModeType};
use super::rbac::{preview_rbac, RbacPreview, RbacTarget};
use crate::model::csv::CsvView;
use crate::model::Model;

/// What is asked: the bundle and the OperatorGroup assumed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RbacRequest {
    /// The package.
    pub package: String,
    /// The bundle; `None`: the head of the package's default channel.
    pub bundle: Option<String>,
    /// The install mode; `None`: each mode the CSV supports.
    pub install_mode: Option<InstallModeType>,
    /// The operator's namespace (and its OperatorGroup's).
    pub namespace: String,
    /// The OperatorGroup's name.
    pub operator_group: String,
    /// The group's target namespaces; `None`: an example for each mode ([`RbacTarget::for_mode`]).
    pub target_namespaces: Option<Vec<String>>,
}

impl RbacRequest {
    /// A request for `package` with the CLI's defaults: its default head, every supported mode,
    /// namespace `operators`, group `operator-group`.
    pub fn new(package: impl Into<String>) -> RbacRequest {
        RbacRequest {
            package: package.into(),
            bundle: None,
            install_mode: None,
            namespace: "operators".into(),
            operator_group: "operator-group".into(),
            target_namespaces: None,
        }
    }
}

/// The previews of one bundle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BundleRbac {
    /// The bundle previewed.
    pub bundle: String,
    /// One preview per install mode (empty: the CSV supports no mode and none was asked for).
    pub previews: Vec<RbacPreview>,
    /// Whether the CSV carries its install strategy (not so for `olm.csv.metadata`).
    pub permissions_known: bool,
}

/// Why no preview can be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RbacRequestError {
    /// No such package.
    UnknownPackage(String),
    /// The package has no default channel (and no bundle was named).
    NoDefaultChannel(String),
    /// The default channel has no single head: the channel and why.
    NoHead(String, String),
    /// No such bundle in the package.
    UnknownBundle(String, String),
    /// The bundle has no CSV.
    NoCsv(String),
    /// The target namespaces do not fit the install mode.
    Target(String),
    /// Manifests were asked for several install modes at once (the modes previewed; none when the
    /// CSV supports no mode).
    SeveralModes(Vec<InstallModeType>),
}

impl std::fmt::Display for RbacRequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RbacRequestError::UnknownPackage(p) => write!(f, "no package {p:?} in the catalog"),
            RbacRequestError::NoDefaultChannel(p) => write!(f, "package {p:?} has no default channel"),
            RbacRequestError::NoHead(c, e) => write!(f, "channel {c:?}: {e}"),
            RbacRequestError::UnknownBundle(p, b) => write!(f, "package {p:?} has no bundle {b:?}"),
            RbacRequestError::NoCsv(b) => write!(
                f,
                "bundle {b:?} has no ClusterServiceVersion (no olm.bundle.object CSV, no olm.csv.metadata): no permissions to preview"
            ),
            RbacRequestError::Target(m) => f.write_str(m),
            RbacRequestError::SeveralModes(modes) if modes.is_empty() => {
                f.write_str("no install mode to write manifests for: the CSV supports none; name one")
            }
            RbacRequestError::SeveralModes(modes) => {
                let modes: Vec<String> = modes.iter().map(ToString::to_string).collect();
                write!(f, "manifests are for one install mode and the CSV supports {}: name one", modes.join(", "))
            }
        }
    }
}

impl std::error::Error for RbacRequestError {}

impl BundleRbac {
    /// Why the previews are incomplete, as the CLI reports it: no install mode to preview, or
    /// permissions unknown (`None` when neither).
    pub fn problem(&self) -> Option<String> {
        let name = &self.bundle;
        if self.previews.is_empty() {
            Some(format!("the CSV of {name:?} supports no install mode: OLM installs it under no OperatorGroup"))
        } else if !self.permissions_known {
            Some(format!("the CSV of {name:?} comes from olm.csv.metadata, which carries no install strategy: its permissions are unknown"))
        } else {
            None
        }
    }
}

impl BundleRbac {
    /// The previews as plain text, one after another, a blank line between.
    pub fn to_text(&self) -> String {
        let texts: Vec<String> = self.previews.iter().map(RbacPreview::to_text).collect();
        texts.join("\n")
    }

    /// The objects of the one install mode previewed as a stream of Kubernetes manifests
    /// ([`RbacPreview::to_manifest_yaml`]); several modes' objects would clash (same names, other
    /// scopes), so several previews are an error naming the modes.
    pub fn to_manifest_yaml(&self) -> Result<String, RbacRequestError> {
        match self.previews.as_slice() {
            [one] => Ok(one.to_manifest_yaml()),
            previews => Err(RbacRequestError::SeveralModes(previews.iter().map(|p| p.target.install_mode).collect())),
        }
    }
}

/// Preview the RBAC of the bundle `request` names in `model`.
pub fn preview_bundle_rbac(model: &Model, request: &RbacRequest) -> Result<BundleRbac, RbacRequestError> {
    let package = &request.package;
    let p = model.package(package).ok_or_else(|| RbacRequestError::UnknownPackage(package.clone()))?;
    let name = match &request.bundle {
        Some(b) => b.clone(),
        None => {
            let c = p.default_channel().ok_or_else(|| RbacRequestError::NoDefaultChannel(package.clone()))?;
            let head = c.head().map_err(|e| RbacRequestError::NoHead(c.name.clone(), e.to_string()))?;
            head.name.value.clone()
        }
    };
    let b = p.bundle(&name).ok_or_else(|| RbacRequestError::UnknownBundle(package.clone(), name.clone()))?;
    let csv = CsvView::from_bundle(b).ok_or_else(|| RbacRequestError::NoCsv(name.clone()))?;
    let modes: Vec<InstallModeType> = match request.install_mode {
        Some(m) => vec![m],
        None => {
            let set = InstallModeSet::new(&csv.install_modes).unwrap_or_default();
            InstallModeType::ALL.into_iter().filter(|m| set.supported(*m)).collect()
        }
    };
    let mut previews = Vec::with_capacity(modes.len());
    for mode in modes {
        let targets = request.target_namespaces.clone();
        let target = RbacTarget::for_mode(mode, &request.namespace, &request.operator_group, targets)
            .map_err(RbacRequestError::Target)?;
        previews.push(preview_rbac(&csv, &name, &target));
    }
    Ok(BundleRbac { bundle: name, previews, permissions_known: csv.permissions.is_some() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn model(csv_modes: &str) -> Model {
        let csv = format!(
            r#"{{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{{"name":"op.v1.0.0"}},"spec":{{"installModes":{csv_modes},"install":{{"strategy":"deployment","spec":{{"permissions":[{{"serviceAccountName":"op","rules":[{{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}}]}}]}}}}}}}}"#
        );
        let data = {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD.encode(csv)
        };
        let text = format!(
            r#"{{"schema":"olm.package","name":"op","defaultChannel":"stable"}}
{{"schema":"olm.channel","package":"op","name":"stable","entries":[{{"name":"op.v1.0.0"}}]}}
{{"schema":"olm.bundle","package":"op","name":"op.v1.0.0","image":"q/op:1","properties":[{{"type":"olm.package","value":{{"packageName":"op","version":"1.0.0"}}}},{{"type":"olm.bundle.object","value":{{"data":"{data}"}}}}]}}
"#
        );
        let loaded = load_files(&[FileInput::new("c.json".to_string(), text.into_bytes())]);
        crate::model::build(&loaded.config).0
    }

    const OWN_AND_ALL: &str = r#"[{"type":"OwnNamespace","supported":true},{"type":"SingleNamespace","supported":false},{"type":"MultiNamespace","supported":false},{"type":"AllNamespaces","supported":true}]"#;

    #[test]
    fn without_a_bundle_or_mode_the_head_is_previewed_under_each_supported_mode() {
        let r = preview_bundle_rbac(&model(OWN_AND_ALL), &RbacRequest::new("op")).unwrap();
        assert_eq!(r.bundle, "op.v1.0.0");
        let modes: Vec<_> = r.previews.iter().map(|p| p.target.install_mode).collect();
        assert_eq!(modes, [InstallModeType::OwnNamespace, InstallModeType::AllNamespaces]);
        assert!(r.permissions_known);
        assert_eq!(r.problem(), None);
        let e = r.to_manifest_yaml().unwrap_err();
        assert_eq!(
            e.to_string(),
            "manifests are for one install mode and the CSV supports OwnNamespace, AllNamespaces: name one"
        );
        assert!(r.to_text().starts_with("op.v1.0.0 as OwnNamespace"), "{}", r.to_text());
    }

    #[test]
    fn a_mode_asked_for_is_previewed_even_when_unsupported() {
        let request = RbacRequest { install_mode: Some(InstallModeType::SingleNamespace), ..RbacRequest::new("op") };
        let r = preview_bundle_rbac(&model(OWN_AND_ALL), &request).unwrap();
        assert_eq!(r.previews.len(), 1);
        assert!(r.previews[0].unsupported.is_some());
        let yaml = r.to_manifest_yaml().unwrap();
        assert!(yaml.contains("\n# note: the CSV fails under this group"), "{yaml}");
        assert!(
            yaml.contains("\nkind: Role\n") && !yaml.contains("olm.og."),
            "only the install plan's objects: {yaml}"
        );
    }

    #[test]
    fn no_supported_mode_is_a_problem_not_an_error() {
        let r = preview_bundle_rbac(&model("[]"), &RbacRequest::new("op")).unwrap();
        assert!(r.previews.is_empty());
        assert!(r.problem().unwrap().contains("supports no install mode"));
    }

    #[test]
    fn unknown_names_and_misfit_targets_are_errors() {
        let m = model(OWN_AND_ALL);
        let e = preview_bundle_rbac(&m, &RbacRequest::new("nope")).unwrap_err();
        assert_eq!(e.to_string(), "no package \"nope\" in the catalog");
        let request = RbacRequest { bundle: Some("op.v2".into()), ..RbacRequest::new("op") };
        let e = preview_bundle_rbac(&m, &request).unwrap_err();
        assert_eq!(e, RbacRequestError::UnknownBundle("op".into(), "op.v2".into()));
        let request = RbacRequest {
            install_mode: Some(InstallModeType::OwnNamespace),
            target_namespaces: Some(vec!["elsewhere".into()]),
            ..RbacRequest::new("op")
        };
        assert!(matches!(preview_bundle_rbac(&m, &request), Err(RbacRequestError::Target(_))));
    }
}
