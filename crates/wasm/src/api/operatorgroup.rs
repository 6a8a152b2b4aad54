//! OperatorGroups and RBAC: `checkOperatorGroups` (inline or on a loaded `Catalog`'s bundle) and
//! `previewRbac`.

use wasm_bindgen::prelude::*;

use super::catalog::Catalog;
use crate::convert::{js_error, known_fields, to_js};

/// The fields of a JS OperatorGroup check (`catalog`, the loaded catalog, is taken out by the
/// package façade before the check reaches here).
const CHECK_FIELDS: [&str; 10] = [
    "package",
    "bundle",
    "installModes",
    "installModesList",
    "providedAPIs",
    "operatorNamespace",
    "targetNamespaces",
    "namespaces",
    "operatorGroups",
    "instances",
];

/// The fields of `previewRbac` options.
const RBAC_FIELDS: [&str; 6] = ["package", "bundle", "installMode", "namespace", "targetNamespaces", "operatorGroup"];

#[cfg(feature = "tools")]
/// A check as the CLI's CHECK file describes it, its bundle read from `catalog` when given.
fn operator_group_check(
    check: JsValue,
    catalog: Option<&crate::model::Model>,
) -> Result<crate::operatorgroup::CheckReport, JsValue> {
    use crate::cluster::operator_group_json::{CheckError, CheckJson};
    known_fields(&check, &CHECK_FIELDS, "checkOperatorGroups check")?;
    let json: CheckJson = serde_wasm_bindgen::from_value(check)
        .map_err(|e| js_error("invalid-input", &format!("checkOperatorGroups check: {e}"), None))?;
    if catalog.is_none() && (json.package.is_some() || json.bundle.is_some()) {
        let m = "checkOperatorGroups check: `package` and `bundle` name a bundle of `catalog`, which is missing";
        return Err(js_error("invalid-input", m, None));
    }
    let c = json.into_check_in(catalog).map_err(|e| {
        let code = match e {
            CheckError::UnknownPackage(_) => "unknown-package",
            CheckError::UnknownBundle(..) => "unknown-bundle",
            CheckError::NoCsv(_) => "no-csv",
            CheckError::MissingBundle | CheckError::Load(_) | CheckError::InstancesWithoutPath => "invalid-input",
        };
        js_error(code, &e.to_string(), None)
    })?;
    Ok(crate::operatorgroup::check(&c))
}

/// Check a CSV given inline (`installModes` or `installModesList`, `providedAPIs`) against a
/// cluster's OperatorGroups: the CLI's `operatorgroup --format json` object.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = checkOperatorGroups)]
pub fn check_operator_groups(check: JsValue) -> Result<JsValue, JsValue> {
    to_js(&operator_group_check(check, None)?)
}

/// `checkOperatorGroups`, rendered as the CLI's text report.
#[cfg(feature = "tools")]
#[wasm_bindgen(js_name = checkOperatorGroupsText)]
pub fn check_operator_groups_text(check: JsValue) -> Result<String, JsValue> {
    Ok(operator_group_check(check, None)?.to_text())
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RbacOpts {
    package: String,
    #[serde(default)]
    bundle: Option<String>,
    #[serde(default)]
    install_mode: Option<String>,
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    target_namespaces: Option<Vec<String>>,
    #[serde(default)]
    operator_group: Option<String>,
}

#[cfg(feature = "tools")]
impl Catalog {
    fn rbac(&self, options: JsValue) -> Result<crate::operatorgroup::rbac_bundle::BundleRbac, JsValue> {
        use crate::operatorgroup::rbac_bundle::{preview_bundle_rbac, RbacRequest, RbacRequestError};
        use crate::operatorgroup::InstallModeType;
        known_fields(&options, &RBAC_FIELDS, "previewRbac options")?;
        let o: RbacOpts = serde_wasm_bindgen::from_value(options)
            .map_err(|e| js_error("invalid-input", &format!("previewRbac options: {e}"), None))?;
        let install_mode = match o.install_mode.as_deref() {
            None => None,
            Some(m) => Some(InstallModeType::from_name(m).ok_or_else(|| {
                let m = format!(
                    "unknown install mode {m:?} (OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces)"
                );
                js_error("invalid-input", &m, None)
            })?),
        };
        let defaults = RbacRequest::new(o.package);
        let request = RbacRequest {
            bundle: o.bundle,
            install_mode,
            namespace: o.namespace.unwrap_or(defaults.namespace.clone()),
            operator_group: o.operator_group.unwrap_or(defaults.operator_group.clone()),
            target_namespaces: o.target_namespaces,
            ..defaults
        };
        preview_bundle_rbac(&self.inner.model, &request).map_err(|e| {
            let code = match e {
                RbacRequestError::UnknownPackage(_) => "unknown-package",
                RbacRequestError::NoDefaultChannel(_) | RbacRequestError::NoHead(..) => "unknown-channel",
                RbacRequestError::UnknownBundle(..) => "unknown-bundle",
                RbacRequestError::NoCsv(_) => "no-csv",
                RbacRequestError::Target(_) | RbacRequestError::SeveralModes(_) => "invalid-input",
            };
            js_error(code, &e.to_string(), None)
        })
    }
}

#[cfg(feature = "tools")]
#[wasm_bindgen]
impl Catalog {
    /// `checkOperatorGroups` of one of this catalog's bundles (`package`, `bundle`).
    #[wasm_bindgen(js_name = checkOperatorGroups)]
    pub fn check_operator_groups(&self, check: JsValue) -> Result<JsValue, JsValue> {
        to_js(&operator_group_check(check, Some(&self.inner.model))?)
    }

    /// `checkOperatorGroups` of one of this catalog's bundles, as the CLI's text report.
    #[wasm_bindgen(js_name = checkOperatorGroupsText)]
    pub fn check_operator_groups_text(&self, check: JsValue) -> Result<String, JsValue> {
        Ok(operator_group_check(check, Some(&self.inner.model))?.to_text())
    }

    /// The RBAC OLM generates for a bundle (`{package, bundle?, installMode?, namespace?,
    /// targetNamespaces?, operatorGroup?}`): one preview per install mode asked for, or per mode
    /// the CSV supports; the CLI's `rbac --format json` list.
    #[wasm_bindgen(js_name = previewRbac)]
    pub fn preview_rbac(&self, options: JsValue) -> Result<JsValue, JsValue> {
        to_js(&self.rbac(options)?.previews)
    }

    /// `previewRbac` as the CLI prints it: `format` `"text"` (default), or `"yaml"`: the objects of
    /// one install mode as Kubernetes manifests (`invalid-input` when several modes are previewed).
    #[wasm_bindgen(js_name = previewRbacText)]
    pub fn preview_rbac_text(&self, options: JsValue, format: Option<String>) -> Result<String, JsValue> {
        let rbac = self.rbac(options)?;
        match format.as_deref().unwrap_or("text") {
            "text" => Ok(rbac.to_text()),
            "yaml" => rbac.to_manifest_yaml().map_err(|e| js_error("invalid-input", &e.to_string(), None)),
            other => {
                Err(js_error("invalid-input", &format!("format must be \"text\" or \"yaml\", not {other:?}"), None))
            }
        }
    }
}
