//! The checks as text, and as diagnostics for the CI formats: per unsafe upgrade (or CRD pair),
//! its findings located `file:line:col`, then a summary with the unsafe edges counted by rule.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::catalog::{CatalogCheck, EdgeCheck};
use super::outcome::CrdCheck;
use crate::diagnostic::{Code, Diagnostic, Severity};

impl EdgeCheck {
    /// `package/channel: from -> to (via)`, the upgrade in a finding's context.
    pub fn title(&self) -> String {
        format!("{}/{}: {} -> {} ({})", self.package, self.channel, self.from, self.to, self.via.join(", "))
    }

    /// The edge's findings as diagnostics located at the new bundle's channel entry, the CRD's
    /// property related, added to `out`.
    pub fn diagnostics_into(&self, out: &mut Vec<Diagnostic>) {
        let title = self.title();
        for c in &self.crds {
            for f in c.findings() {
                let mut d = f.diagnostic(&title);
                d.location = self.location.clone();
                out.push(d.with_related(format!("CRD {} in bundle {}", c.crd, self.to), f.location.clone()));
            }
        }
    }
}

impl CatalogCheck {
    /// Whether every edge is safe.
    pub fn safe(&self) -> bool {
        self.edges.iter().all(EdgeCheck::safe)
    }

    /// How many unsafe edges each rule refuses (an edge counts once per rule).
    pub fn unsafe_edges_by_rule(&self) -> BTreeMap<&'static str, usize> {
        let mut out = BTreeMap::new();
        for e in self.edges.iter().filter(|e| !e.safe()) {
            let mut rules: Vec<&'static str> = e
                .crds
                .iter()
                .flat_map(|c| c.findings())
                .filter(|f| f.severity == Severity::Error)
                .map(|f| f.rule)
                .collect();
            rules.sort_unstable();
            rules.dedup();
            for r in rules {
                *out.entry(r).or_default() += 1;
            }
        }
        out
    }

    /// Every finding as a diagnostic located at the new bundle's channel entry, the CRD's
    /// property related; CRDs shared by packages; and a note when the catalog carries no CRDs.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for e in &self.edges {
            e.diagnostics_into(&mut out);
        }
        for s in &self.shared {
            let message = format!(
                "CRD {} is provided by bundles of several packages ({}): OLM v0 refuses to install the second",
                s.crd,
                s.packages.join(", ")
            );
            out.push(Diagnostic::warning(Code::CrdSharedOwnership, message, s.location.clone()));
        }
        if self.bundles_with_crds == 0 {
            out.push(Diagnostic::note(Code::CrdNoneInCatalog, self.no_crds_message(), Default::default()));
        }
        out
    }

    fn no_crds_message(&self) -> String {
        format!(
            "none of the {} bundles carries CRDs (olm.bundle.object properties): nothing to compare; an olm.csv.metadata \
             catalog keeps only the CSV, so give the bundles' directories with --bundles DIR, or compare two with --old and --new",
            self.bundles
        )
    }

    /// The checks as text: each unsafe edge and its findings, then a summary.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        if self.bundles_with_crds == 0 {
            let _ = writeln!(out, "{}", self.no_crds_message());
            return out;
        }
        for e in self.edges.iter().filter(|e| !e.safe()) {
            let _ = writeln!(out, "{}: unsafe", e.title());
            push_findings(&mut out, &e.crds);
        }
        for s in &self.shared {
            let _ = writeln!(
                out,
                "{}: warning[crd-shared-ownership]: CRD {} is provided by packages {}",
                s.location,
                s.crd,
                s.packages.join(", ")
            );
        }
        let unsafe_edges = self.edges.iter().filter(|e| !e.safe()).count();
        let rules: Vec<String> = self.unsafe_edges_by_rule().into_iter().map(|(r, n)| format!("{r} {n}")).collect();
        let by_rule = if rules.is_empty() { String::new() } else { format!(" (by rule: {})", rules.join(", ")) };
        let _ = writeln!(
            out,
            "{} edges with CRDs, {unsafe_edges} unsafe{by_rule}; {} distinct CRD pairs compared; {} of {} bundles carry CRDs",
            self.edges.len(),
            self.compared_pairs,
            self.bundles_with_crds,
            self.bundles
        );
        out
    }
}

/// The checks of CRD pairs (`--old`/`--new`) as text.
pub fn pairs_text(checks: &[CrdCheck]) -> String {
    let mut out = String::new();
    if checks.is_empty() {
        out.push_str("the old side has no CustomResourceDefinition: nothing to compare\n");
        return out;
    }
    for c in checks {
        let verdict = if !c.safe() {
            "unsafe"
        } else if c.findings().is_empty() {
            "safe"
        } else {
            "safe, with warnings"
        };
        let _ = writeln!(out, "{}: {verdict}", c.crd);
        push_findings(&mut out, std::slice::from_ref(c));
    }
    let unsafe_count = checks.iter().filter(|c| !c.safe()).count();
    let _ = writeln!(out, "{} CRDs compared, {unsafe_count} unsafe", checks.len());
    out
}

fn push_findings(out: &mut String, checks: &[CrdCheck]) {
    for c in checks {
        for f in c.findings() {
            let _ = writeln!(out, "  {}: {}[{}]: {}", f.location, f.severity, f.code, f.message);
        }
    }
}
