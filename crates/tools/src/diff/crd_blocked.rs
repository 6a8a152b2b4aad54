//! Update-safety rows blocked by CRDs: an installed version whose next OLM v1 step in the new
//! catalog fails OLM v1's CRD Upgrade Safety preflight (the installed bundle's CRDs, from the
//! old catalog's `olm.bundle.object` properties, against the next bundle's in the new catalog)
//! is blocked there: operator-controller refuses the upgrade. The cluster is taken to store each
//! CRD in its installed storage version. Catalogs without CRDs block nothing.

use serde::Serialize;

use super::SafetyRow;
use crate::crd_safety::{CrdCheck, CrdStore, Outcome, StoredCrd};
use crate::diagnostic::Code;
use crate::hash::{HashMap, HashMapExt};
use crate::model::Package;

/// Why OLM v1 refuses an installed version's next step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Blocked {
    /// The bundle OLM v1 would upgrade to.
    pub next: String,
    /// The first CRD the preflight refuses.
    pub crd: String,
    /// The preflight's error, as operator-controller words it.
    pub reason: String,
    /// The codes of its refusals (`crd-type`), sorted, once each.
    pub codes: Vec<Code>,
}

/// Mark the rows of `old`'s package whose next OLM v1 step in `new` fails the preflight; the
/// CRDs are read from `store`, which every package of the diff shares (each distinct CRD of
/// either catalog read once, each distinct pair compared once).
pub(super) fn mark<'m>(store: &mut CrdStore<'m>, old: &'m Package, new: &'m Package, rows: &mut [SafetyRow]) {
    let mut old_crds: HashMap<&str, Vec<StoredCrd>> = HashMap::new();
    let mut new_crds: HashMap<&str, Vec<StoredCrd>> = HashMap::new();
    let mut verdicts: HashMap<(String, String), Option<Blocked>> = HashMap::new();
    for row in rows.iter_mut() {
        let Some(next) = row.new.as_ref().and_then(|n| n.v1.next.clone()) else { continue };
        let (Some(from), Some(to)) = (old.bundle(&row.installed), new.bundle(&next)) else { continue };
        let key = (row.installed.clone(), next.clone());
        if let Some(known) = verdicts.get(&key) {
            row.blocked = known.clone();
            continue;
        }
        let o = old_crds.entry(&from.name.value).or_insert_with(|| store.bundle(from));
        let blocked = if o.is_empty() {
            None
        } else {
            let n = new_crds.entry(&to.name.value).or_insert_with(|| store.bundle(to));
            let mut checks: Vec<CrdCheck> = Vec::new();
            for c in o.iter() {
                if !checks.iter().any(|k| k.crd == c.name) {
                    checks.push(store.check(c, n, None));
                }
            }
            refusal(&next, &checks)
        };
        verdicts.insert(key, blocked.clone());
        row.blocked = blocked;
    }
}

/// The first refusal of the preflight among the checks of one step.
fn refusal(next: &str, checks: &[CrdCheck]) -> Option<Blocked> {
    checks.iter().find_map(|c| match &c.outcome {
        Outcome::Compared { verdict } if !verdict.preflight.safe() => {
            let mut codes: Vec<Code> = verdict.preflight.checks().into_iter().map(|c| c.code()).collect();
            codes.dedup();
            Some(Blocked {
                next: next.to_string(),
                crd: c.crd.clone(),
                reason: verdict.preflight.error_text().unwrap_or_default(),
                codes,
            })
        }
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use base64::Engine as _;

    use super::super::diff;
    use super::super::testing::Catalog;
    use crate::diagnostic::Code;

    /// `olm.bundle.object` of `widgets.example.com` whose `spec.size` has this schema (JSON).
    fn crd(size: &str) -> String {
        let manifest = format!(
            r#"{{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{{"name":"widgets.example.com"}},"spec":{{"group":"example.com","scope":"Namespaced","names":{{"kind":"Widget","plural":"widgets"}},"versions":[{{"name":"v1","served":true,"storage":true,"schema":{{"openAPIV3Schema":{{"type":"object","properties":{{"spec":{{"type":"object","properties":{{"size":{size}}}}}}}}}}}}}]}}}}"#
        );
        format!("{{data: {}}}", base64::engine::general_purpose::STANDARD.encode(manifest))
    }

    const CHAIN: &str = "
        - name: foo.v1.0.0
        - name: foo.v1.1.0
          replaces: foo.v1.0.0
    ";

    fn catalog(old_size: &str, new_size: &str) -> crate::model::Model {
        Catalog::new()
            .channel("foo", "stable", CHAIN)
            .property("foo.v1.0.0", "olm.bundle.object", &crd(old_size))
            .property("foo.v1.1.0", "olm.bundle.object", &crd(new_size))
            .build()
    }

    #[test]
    fn a_next_step_the_preflight_refuses_blocks_the_installed_version() {
        let int = r#"{"type":"integer"}"#;
        let d = diff(&catalog(int, int), &catalog(int, r#"{"type":"string"}"#));
        let rows = &d.safety[0].rows;
        let b = rows[0].blocked.as_ref().expect("1.0.0 is blocked");
        assert_eq!(
            (b.next.as_str(), b.crd.as_str(), b.codes.as_slice()),
            ("foo.v1.1.0", "widgets.example.com", &[Code::CrdType][..])
        );
        assert!(b
            .reason
            .starts_with("validating upgrade for CRD \"widgets.example.com\": v1: ^.spec.size: type: type changed"));
        assert_eq!(rows[1].blocked, None, "the head has no next step");
    }

    #[test]
    fn an_allowed_change_or_a_catalog_without_crds_blocks_nothing() {
        let relaxed = diff(
            &catalog(r#"{"type":"integer","maximum":1}"#, r#"{"type":"integer","maximum":2}"#),
            &catalog(r#"{"type":"integer","maximum":1}"#, r#"{"type":"integer","maximum":2}"#),
        );
        assert!(relaxed.safety[0].rows.iter().all(|r| r.blocked.is_none()));
        let plain = Catalog::new().channel("foo", "stable", CHAIN).build();
        assert!(diff(&plain, &plain).safety[0].rows.iter().all(|r| r.blocked.is_none()));
    }
}
