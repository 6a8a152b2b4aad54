//! One OperatorGroup check, as the CLI (and later the JS binding) runs it: a CSV's membership in
//! a cluster's groups and its install summary, together, with a plain-text rendering.

use super::install_plan::{install_plan_of, InstallPlan};
use super::membership::{membership, Membership};
use super::multitenancy::{multitenancy, Instance};
use super::targets::status_namespaces;
use super::Outcome;
use crate::cluster::operator_group_json::Check;
use crate::diagnostic::Diagnostic;

/// What a check finds.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckReport {
    /// The bundle checked, when it came from a catalog.
    pub bundle: Option<String>,
    /// The namespace the CSV is created in.
    pub namespace: String,
    /// What OLM does with the CSV there.
    pub membership: Membership,
    /// The CSV's install modes and what it would watch under each kind of group.
    pub install_plan: InstallPlan,
    /// The multitenancy findings about the check's `instances` (none without instances).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub multitenancy: Vec<Diagnostic>,
}

/// Run a check.
pub fn check(c: &Check) -> CheckReport {
    CheckReport {
        bundle: c.bundle.clone(),
        namespace: c.namespace.clone(),
        membership: membership(&c.csv, &c.namespace, &c.cluster),
        install_plan: install_plan_of(&c.csv, &c.namespace, &c.at),
        multitenancy: multitenancy(&instances(c)),
    }
}

/// The check's instances, each watching its given targets or its namespace's group's.
fn instances(c: &Check) -> Vec<Instance> {
    c.instances
        .iter()
        .map(|i| {
            let targets = i.target_namespaces.clone().or_else(|| {
                let mut groups = c.cluster.groups_in(&i.namespace);
                let group = groups.next().filter(|_| groups.next().is_none())?;
                status_namespaces(group, &c.cluster.namespaces).ok()
            });
            Instance::from_bundle(&i.bundle, &i.namespace, targets)
        })
        .collect()
}

impl CheckReport {
    /// A plain-text report: the verdict first, then the syncs, the annotations, the install
    /// modes and lints.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let name = self.bundle.as_deref().or(self.install_plan.csv_name.as_deref()).unwrap_or("the CSV");
        let m = &self.membership;
        let group = m.operator_group.as_deref().map(|g| format!(" (OperatorGroup {g})")).unwrap_or_default();
        out.push_str(&match &m.outcome {
            Outcome::Supported => format!("{name} in namespace {:?}{group}: supported\n", self.namespace),
            Outcome::Failed(f) => {
                format!(
                    "{name} in namespace {:?}{group}: Failed, {}: {}\n",
                    self.namespace,
                    f.reason.as_str(),
                    f.message
                )
            }
            Outcome::Stalled { message } | Outcome::InvalidGroup { message } => {
                format!("{name} in namespace {:?}{group}: not processed: {message}\n", self.namespace)
            }
        });
        for (i, s) in m.syncs.iter().enumerate() {
            out.push_str(&format!("  sync {}: {s}\n", i + 1));
        }
        if !m.csv_annotations.is_empty() {
            out.push_str("CSV annotations:\n");
            for (k, v) in &m.csv_annotations {
                out.push_str(&format!("  {k}: {}\n", crate::gotext::quote(v)));
            }
        }
        if let Some(after) = &m.provided_apis_after {
            let before = m.provided_apis_before.as_deref().unwrap_or("");
            out.push_str(&format!(
                "group olm.providedAPIs: {} -> {}\n",
                crate::gotext::quote(before),
                crate::gotext::quote(after)
            ));
        }
        if !m.intersecting_groups.is_empty() {
            out.push_str(&format!("intersecting groups: {}\n", m.intersecting_groups.join(", ")));
        }
        self.plan_text(&mut out);
        out
    }

    fn plan_text(&self, out: &mut String) {
        let p = &self.install_plan;
        let modes: Vec<String> =
            p.install_modes.iter().map(|m| format!("{} {}", m.mode, if m.supported { "yes" } else { "no" })).collect();
        out.push_str(&format!("install modes ({}): {}\n", p.source, modes.join(", ")));
        if !p.provided_apis.is_empty() {
            out.push_str(&format!("provided APIs: {}\n", p.provided_apis));
        }
        for w in &p.watches {
            let verdict = match &w.message {
                None => "supported".to_string(),
                Some(m) => format!("not supported: {m}"),
            };
            out.push_str(&format!("  {} group, watching {}: {verdict}\n", w.mode, w.watches));
        }
        for d in p.diagnostics.iter().chain(&self.multitenancy) {
            out.push_str(&format!("warning[{}]: {}\n", d.code.as_str(), d.message));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::operator_group_json::CheckJson;

    #[test]
    fn a_text_report_leads_with_the_verdict() {
        let json = r#"{"installModes":{"OwnNamespace":true},"operatorNamespace":"ops","targetNamespaces":["ns-0"]}"#;
        let c: CheckJson = serde_json::from_str(json).unwrap();
        let report = check(&c.into_check(&mut |_| Err(String::new())).unwrap());
        let text = report.to_text();
        assert!(
            text.starts_with("the CSV in namespace \"ops\" (OperatorGroup operator-group/ops): Failed, UnsupportedOperatorGroup: SingleNamespace InstallModeType not supported"),
            "{text}"
        );
        assert!(text.contains("  olm.targetNamespaces: \"ns-0\"\n"), "{text}");
        assert!(text.contains("  OwnNamespace group, watching its own namespace \"ops\": supported\n"), "{text}");
    }
}
