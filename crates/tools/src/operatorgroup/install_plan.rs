//! The install summary of a bundle: its install modes, what it would watch under each kind of
//! OperatorGroup (and OLM's message where it cannot), the APIs it provides, and lints about its
//! install modes (none of the four supported, only MultiNamespace, duplicates, unknown types, CRD
//! names OLM cannot read).

use super::install_modes::{InstallModeSet, InstallModeType};
use super::provided_apis::{csv_provided_apis, render_provided_apis};
use crate::diagnostic::{Code, Diagnostic, Location};
use crate::model::csv::{CsvFlavour, CsvView};
use crate::model::Bundle;

/// A bundle's install summary.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallPlan {
    /// The CSV's `metadata.name`, when the flavour carries it.
    pub csv_name: Option<String>,
    /// The property the CSV was read from (`olm.bundle.object` or `olm.csv.metadata`).
    pub source: &'static str,
    /// The namespace the operator is installed in (the examples' own namespace).
    pub operator_namespace: String,
    /// The four install modes and whether each is supported (omitted means unsupported).
    pub install_modes: Vec<ModeSupport>,
    /// The APIs the CSV provides, as `olm.providedAPIs` would list them.
    pub provided_apis: String,
    /// One kind of OperatorGroup per install mode: what the operator would watch under it.
    pub watches: Vec<ModeWatch>,
    /// Lints about the install modes, located at the CSV's property.
    pub diagnostics: Vec<Diagnostic>,
}

/// One install mode and its flag.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ModeSupport {
    /// The mode.
    pub mode: InstallModeType,
    /// Whether the CSV supports it.
    pub supported: bool,
}

/// What the operator would watch under a group of one kind.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeWatch {
    /// The kind of group, named by the install mode it needs.
    pub mode: InstallModeType,
    /// The group's target namespaces in the example (`""` is all namespaces).
    pub target_namespaces: Vec<String>,
    /// In words.
    pub watches: String,
    /// Whether OLM accepts the CSV in such a group.
    pub supported: bool,
    /// OLM's message when it does not (the CSV's `UnsupportedOperatorGroup` or
    /// `InvalidInstallModes` message).
    pub message: Option<String>,
}

/// The summary of `bundle`'s CSV installed in `operator_namespace`; `None` when the bundle has no
/// CSV (no `olm.bundle.object` CSV, no `olm.csv.metadata`).
pub fn install_plan(bundle: &Bundle, operator_namespace: &str) -> Option<InstallPlan> {
    let csv = CsvView::from_bundle(bundle)?;
    let at = bundle.source.at(csv.origin.pos, format!("/properties/{}", csv.origin.property));
    Some(install_plan_of(&csv, operator_namespace, &at))
}

/// The summary of `csv` installed in `operator_namespace`; findings are located at `at`.
pub fn install_plan_of(csv: &CsvView, operator_namespace: &str, at: &Location) -> InstallPlan {
    let modes = InstallModeSet::new(&csv.install_modes);
    let flags = modes.clone().unwrap_or_else(|_| first_flags(csv));
    let install_modes =
        InstallModeType::ALL.into_iter().map(|mode| ModeSupport { mode, supported: flags.supported(mode) }).collect();
    let watches = InstallModeType::ALL
        .into_iter()
        .map(|mode| {
            let (targets, words) = example_targets(mode, operator_namespace);
            let verdict = match &modes {
                Ok(set) => set.supports(operator_namespace, &targets).map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            ModeWatch {
                mode,
                target_namespaces: targets,
                watches: words,
                supported: verdict.is_ok(),
                message: verdict.err(),
            }
        })
        .collect();
    let provided = csv_provided_apis(csv);
    let mut diagnostics = lints(&modes, &flags, at);
    if let Err(e) = &provided {
        diagnostics.push(Diagnostic::warning(
            Code::OperatorgroupBadCrdName,
            format!("OLM cannot read the CSV's APIs ({e}): a CRD name must be <plural>.<group>; the CSV would never install"),
            at.clone(),
        ));
    }
    InstallPlan {
        csv_name: csv.name.clone(),
        source: match csv.origin.flavour {
            CsvFlavour::BundleObject => crate::property::TYPE_BUNDLE_OBJECT,
            CsvFlavour::CsvMetadata => crate::property::TYPE_CSV_METADATA,
        },
        operator_namespace: operator_namespace.to_string(),
        install_modes,
        provided_apis: provided.map(|a| render_provided_apis(&a)).unwrap_or_default(),
        watches,
        diagnostics,
    }
}

/// The flags of a list with duplicates, each type's first entry (for display only: OLM refuses
/// the list).
fn first_flags(csv: &CsvView) -> InstallModeSet {
    let mut seen = Vec::new();
    for m in &csv.install_modes {
        if !seen.iter().any(|(t, _): &(&str, bool)| *t == m.type_) {
            seen.push((m.type_.as_str(), m.supported));
        }
    }
    InstallModeSet::from_flags(seen)
}

/// An OperatorGroup of the kind `mode` needs, for an operator in `own`: its targets and what
/// they mean.
fn example_targets(mode: InstallModeType, own: &str) -> (Vec<String>, String) {
    let other = |n: u8| if own == format!("other-{n}") { format!("other-{n}-x") } else { format!("other-{n}") };
    match mode {
        InstallModeType::OwnNamespace => (vec![own.to_string()], format!("its own namespace {own:?}")),
        InstallModeType::SingleNamespace => (vec![other(1)], "one namespace other than its own".into()),
        InstallModeType::MultiNamespace => (vec![other(1), other(2)], "several namespaces".into()),
        InstallModeType::AllNamespaces => (vec![String::new()], "all namespaces".into()),
    }
}

fn lints(
    modes: &Result<InstallModeSet, super::install_modes::DuplicateInstallModes>,
    flags: &InstallModeSet,
    at: &Location,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let warn = |code, message: String| Diagnostic::warning(code, message, at.clone());
    if let Err(e) = modes {
        out.push(warn(
            Code::OperatorgroupDuplicateInstallModes,
            format!("OLM fails this CSV under every OperatorGroup (InvalidInstallModes): {e}; list each type once"),
        ));
    }
    for t in flags.unknown_types() {
        // A known type spelled in another case is named as the fix.
        let fix = InstallModeType::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(t))
            .map(|m| format!(": write it {}", crate::gotext::quote(m.as_str())))
            .unwrap_or_default();
        out.push(warn(
            Code::OperatorgroupUnknownInstallMode,
            format!(
                "install mode type {} is none of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces (types are case-sensitive); OLM ignores it{fix}",
                crate::gotext::quote(t)
            ),
        ));
    }
    let supported: Vec<InstallModeType> = InstallModeType::ALL.into_iter().filter(|&m| flags.supported(m)).collect();
    if supported.is_empty() {
        out.push(warn(
            Code::OperatorgroupNoInstallMode,
            "the CSV supports none of the four install modes: OLM fails it under every OperatorGroup (UnsupportedOperatorGroup); set `supported: true` on the modes the operator handles".into(),
        ));
    } else if supported == [InstallModeType::MultiNamespace] {
        out.push(warn(
            Code::OperatorgroupOnlyMultiNamespace,
            "the CSV supports only MultiNamespace, which OLM discourages (multiple target namespaces may be removed): support OwnNamespace, SingleNamespace or AllNamespaces too".into(),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::csv::InstallMode;

    fn plan(modes: &[(&str, bool)]) -> InstallPlan {
        let csv = CsvView {
            install_modes: modes.iter().map(|(t, s)| InstallMode { type_: t.to_string(), supported: *s }).collect(),
            ..CsvView::default()
        };
        install_plan_of(&csv, "ops", &Location::default())
    }

    fn codes(p: &InstallPlan) -> Vec<&str> {
        p.diagnostics.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn each_kind_of_group_is_checked() {
        let p = plan(&[("OwnNamespace", true), ("AllNamespaces", true)]);
        let verdicts: Vec<(InstallModeType, bool)> = p.watches.iter().map(|w| (w.mode, w.supported)).collect();
        use InstallModeType as T;
        assert_eq!(
            verdicts,
            [
                (T::OwnNamespace, true),
                (T::SingleNamespace, false),
                (T::MultiNamespace, false),
                (T::AllNamespaces, true)
            ]
        );
        assert_eq!(
            p.watches[2].message.as_deref(),
            Some("MultiNamespace InstallModeType not supported, cannot configure to watch 2 namespaces")
        );
        assert_eq!(p.watches[0].target_namespaces, ["ops"]);
        assert!(p.diagnostics.is_empty());
    }

    #[test]
    fn lints_on_install_modes() {
        assert_eq!(codes(&plan(&[])), ["operatorgroup-no-install-mode"]);
        assert_eq!(
            codes(&plan(&[("OwnNamespace", false), ("AllNamespaces", false)])),
            ["operatorgroup-no-install-mode"]
        );
        assert_eq!(codes(&plan(&[("MultiNamespace", true)])), ["operatorgroup-only-multinamespace"]);
        assert_eq!(
            codes(&plan(&[("AllNamespaces", true), ("allNamespaces", true)])),
            ["operatorgroup-unknown-install-mode"]
        );
        let messages = |p: InstallPlan| p.diagnostics.into_iter().map(|d| d.message).collect::<Vec<_>>();
        // A known type in another case: the message gives its spelling; another name gets none
        // (in the order of the types' names).
        assert_eq!(
            messages(plan(&[("AllNamespaces", true), ("allNamespaces", true), ("Cluster", true)])),
            [
                "install mode type \"Cluster\" is none of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces (types are case-sensitive); OLM ignores it",
                "install mode type \"allNamespaces\" is none of OwnNamespace, SingleNamespace, MultiNamespace, AllNamespaces (types are case-sensitive); OLM ignores it: write it \"AllNamespaces\"",
            ]
        );
        let dup = plan(&[("AllNamespaces", true), ("AllNamespaces", false)]);
        assert_eq!(codes(&dup), ["operatorgroup-duplicate-install-modes"]);
        assert!(dup.diagnostics[0].message.ends_with("; list each type once"), "{:?}", dup.diagnostics);
        assert!(dup.watches.iter().all(|w| !w.supported));
        assert!(dup.install_modes[3].supported, "the first entry is shown");
    }
}
