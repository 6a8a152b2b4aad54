//! OLM dependency resolution: OLM v0's SAT-based resolver (subscriptions, installed operators,
//! catalog priority, dependency preferences, invariants) and OLM v1's single-package selection.
//! Reads catalogs as resolver entries; never writes to the model.
//!
//! [`resolve`] takes a [`Cluster`] (checked catalogs, installed operators, subscriptions) and
//! returns what OLM v0 would install, or OLM's error with an [`explain::Explanation`] tree.

/// CEL rules of `olm.constraint` (crates/cel, compiled for size in WebAssembly).
#[doc(hidden)]
pub use olm_catalog_cel as cel;
mod explain;
mod matching;
mod predicate;
#[doc(hidden)]
pub mod snapshot;
#[doc(hidden)]
pub mod solver;
pub mod v1;
mod variables;

use std::fmt;

use serde::Serialize;

use crate::cluster::Cluster;
pub use cel::{CostExceeded, Evaluated, CEL_COST_LIMIT};
pub use explain::{Explanation, PickReason, Requirement};

use snapshot::Snapshot;
use solver::{SolveError, DEFAULT_CONFLICT_BUDGET};
use variables::Subject;

/// A bundle to install or upgrade to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Install {
    /// The bundle (CSV) name.
    pub name: String,
    /// The package.
    pub package: String,
    /// The bundle's version.
    pub version: String,
    /// The channel it comes from.
    pub channel: String,
    /// The catalog source's name.
    pub catalog: String,
    /// The catalog source's namespace.
    pub catalog_namespace: String,
    /// The installed CSV this upgrades, or the bundle's own `replaces`.
    pub replaces: Option<String>,
    /// Set when a subscription's `startingCSV` chose it.
    #[serde(rename = "startingCSV")]
    pub starting_csv: Option<String>,
}

/// What resolution decided.
#[derive(Debug, Clone, Serialize)]
pub struct Resolution {
    /// Bundles to install or upgrade to, sorted by name.
    pub install: Vec<Install>,
    /// Why each selected bundle (installed ones included) was chosen, in search order.
    pub picks: Vec<PickReason>,
}

/// Why resolution failed.
#[derive(Debug, Clone, PartialEq)]
pub enum ResolveError {
    /// No choice satisfies every constraint. `constraints` are the messages of a minimal
    /// conflicting set, sorted.
    NotSatisfiable {
        /// The messages of the conflicting constraints, sorted.
        constraints: Vec<String>,
        /// Each requirement of the conflict, its candidates and what excluded them.
        explanation: Explanation,
    },
    /// A problem in the input (OLM's plain errors, e.g. an unorderable channel or an invalid
    /// constraint); several are aggregated as OLM does.
    Invalid(Vec<String>),
    /// The solver's budget ran out.
    TooHard {
        /// The conflicts spent.
        conflicts: u64,
    },
}

impl ResolveError {
    /// `NotSatisfiable`, `Error` or `TooHard`.
    pub fn kind(&self) -> &'static str {
        match self {
            ResolveError::NotSatisfiable { .. } => "NotSatisfiable",
            ResolveError::Invalid(_) => "Error",
            ResolveError::TooHard { .. } => "TooHard",
        }
    }
}

/// The most all the CEL evaluations of one resolution may cost together: 50,000,000 units (of
/// [`CEL_COST_LIMIT`]: comprehension steps, elements and bytes handled, and the size of each
/// candidate's properties handed to a rule). OLM tests a CEL constraint against every bundle of
/// every visible catalog, so a resolution that explores many bundles with costly rules
/// multiplies them; past this budget it fails with an error naming the rule. A typical rule
/// against a typical bundle costs a few hundred units, so this allows about 150,000 such
/// evaluations (40 constraints against a cache of 4,000 bundles), a few seconds of work.
pub const CEL_RESOLUTION_COST_LIMIT: u64 = 50_000_000;

/// The most items a message lists (identifiers, constraints, errors); the rest are counted:
/// `a, b, c, and 1,950 more`. OLM lists them all; a problem with thousands of candidates would
/// otherwise give a message of hundreds of kilobytes.
pub const MAX_LISTED: usize = 50;

/// `a, b or c` (with `last` = `" or "`), capped at [`MAX_LISTED`] items: `a, b, …, x or 1,950
/// more`.
pub fn join_capped<S: AsRef<str>>(items: &[S], last: &str) -> String {
    join_counted(&items[..items.len().min(MAX_LISTED)], items.len(), last)
}

/// [`join_capped`] of a list of which only the first items are at hand: `shown` are the first
/// `min(total, MAX_LISTED)` of `total` items.
pub fn join_counted<S: AsRef<str>>(shown: &[S], total: usize, last: &str) -> String {
    let head = |items: &[S]| items.iter().map(AsRef::as_ref).collect::<Vec<&str>>().join(", ");
    match shown {
        [] => String::new(),
        [one] if total == 1 => one.as_ref().to_string(),
        _ if total > shown.len() => format!("{}{last}{} more", head(shown), thousands(total - shown.len())),
        [rest @ .., end] => format!("{}{last}{}", head(rest), end.as_ref()),
    }
}

/// `items` joined by `, `, capped at [`MAX_LISTED`]: `a, b, …, x, and 1,950 more`.
fn comma_capped<S: AsRef<str>>(items: &[S]) -> String {
    let shown: Vec<&str> = items.iter().take(MAX_LISTED).map(AsRef::as_ref).collect();
    match items.len().checked_sub(MAX_LISTED) {
        Some(more) if more > 0 => format!("{}, and {} more", shown.join(", "), thousands(more)),
        _ => shown.join(", "),
    }
}

/// `1950` as `1,950`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The errors once each, in first-seen order.
fn unique(errors: &[String]) -> Vec<&String> {
    let mut seen = std::collections::HashSet::new();
    errors.iter().filter(|e| seen.insert(e.as_str())).collect()
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NotSatisfiable { constraints, .. } if constraints.is_empty() => {
                f.write_str("constraints not satisfiable")
            }
            ResolveError::NotSatisfiable { constraints, .. } => {
                write!(f, "constraints not satisfiable: {}", comma_capped(constraints))
            }
            ResolveError::Invalid(errors) => match unique(errors).as_slice() {
                [one] => f.write_str(one),
                many => write!(f, "[{}]", comma_capped(many)),
            },
            ResolveError::TooHard { conflicts } => write!(f, "{}", SolveError::TooHard { conflicts: *conflicts }),
        }
    }
}

impl std::error::Error for ResolveError {}

/// Options for [`resolve_with`].
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// SAT conflicts the search may spend before giving up with [`ResolveError::TooHard`].
    pub conflict_budget: u64,
    /// Whether to work out why each bundle was picked ([`Resolution::picks`]); without, `picks`
    /// is empty (the npm façade's `resolve` works them out when they are first read).
    pub picks: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options { conflict_budget: DEFAULT_CONFLICT_BUDGET, picks: true }
    }
}

/// Resolve as OLM v0 does, with the default budget.
///
/// ```
/// use olm_catalog::cluster::problem_json::ProblemJson;
/// use olm_catalog::resolve;
///
/// let problem: ProblemJson = serde_json::from_str(r#"{
///   "namespace": "ns",
///   "catalogs": [{"name": "cat", "namespace": "ns", "packages": [{
///     "name": "foo", "defaultChannel": "stable",
///     "channels": [{"name": "stable", "entries": [{"name": "foo.v2", "replaces": "foo.v1"}, {"name": "foo.v1"}]}],
///     "bundles": [{"name": "foo.v1", "version": "1.0.0"}, {"name": "foo.v2", "version": "2.0.0"}]}]}],
///   "subscriptions": [{"name": "foo", "package": "foo", "channel": "stable", "catalog": "cat", "catalogNamespace": "ns"}]
/// }"#).unwrap();
/// let resolution = resolve(&problem.into_cluster().unwrap()).unwrap();
/// assert_eq!(resolution.install[0].name, "foo.v2");
/// ```
pub fn resolve(cluster: &Cluster) -> Result<Resolution, ResolveError> {
    resolve_with(cluster, Options::default())
}

/// Resolve as OLM v0 does.
pub fn resolve_with(problem: &Cluster, options: Options) -> Result<Resolution, ResolveError> {
    if problem.namespace.is_empty() {
        return Err(ResolveError::Invalid(vec!["at least one namespace must be provided to resolution".into()]));
    }
    let snap = Snapshot::build(problem).map_err(|e| ResolveError::Invalid(vec![e]))?;
    let mut built = variables::build(problem, &snap).map_err(ResolveError::Invalid)?;
    match solver::solve(&built.variables, options.conflict_budget) {
        Ok(solution) => {
            let mut install: Vec<Install> = Vec::new();
            for &v in &solution.installed {
                let Subject::Bundle(e) = built.subjects[v] else { continue };
                let entry = snap.entry(e);
                let cat = &snap.catalogs[entry.catalog];
                if cat.is_virtual {
                    continue;
                }
                let bundle = snap.bundle(e);
                let replaces = built
                    .replaces
                    .get(&e)
                    .cloned()
                    .or_else(|| Some(entry.replaces.to_string()).filter(|r| !r.is_empty()));
                install.push(Install {
                    name: entry.name.to_string(),
                    package: entry.package.to_string(),
                    version: bundle
                        .packages()
                        .find(|(n, _, _)| *n == entry.package)
                        .map(|(_, v, _)| v.to_string())
                        .or_else(|| bundle.version.map(|v| v.to_string()))
                        .unwrap_or_default(),
                    channel: entry.channel.to_string(),
                    catalog: cat.name.clone(),
                    catalog_namespace: cat.namespace.clone(),
                    replaces,
                    starting_csv: built.starting_csv.get(&e).cloned(),
                });
            }
            crate::sort::sort_by(&mut install, |a, b| {
                a.name.cmp(&b.name).then(a.catalog.cmp(&b.catalog)).then(a.channel.cmp(&b.channel))
            });
            let picks = if options.picks { explain::picks(&snap, &mut built, &solution) } else { Vec::new() };
            Ok(Resolution { install, picks })
        }
        Err(SolveError::NotSatisfiable(core)) => {
            let constraints: Vec<String> = core.iter().map(|a| solver::message(&built.variables, *a)).collect();
            let explanation = explain::explain(&snap, &built, &core);
            Err(ResolveError::NotSatisfiable { constraints, explanation })
        }
        Err(SolveError::TooHard { conflicts }) => Err(ResolveError::TooHard { conflicts }),
    }
}

/// The outcome in the shape the JS API reports it; [`Outcome::with_texts`] adds each pick's
/// `requiredBy` text (the CLI's `--format json`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Outcome {
    /// Bundles to install or upgrade to (empty on failure).
    pub install: Vec<Install>,
    /// The error texts (empty on success).
    pub errors: Vec<String>,
    /// `NotSatisfiable`, `Error` or `TooHard`; `None` on success.
    pub error_type: Option<&'static str>,
    /// On `NotSatisfiable`: which requirements conflict and why each candidate was excluded.
    pub explanation: Option<Explanation>,
    /// On success: why each bundle was picked.
    pub picks: Vec<PickReason>,
}

impl From<Result<Resolution, ResolveError>> for Outcome {
    fn from(r: Result<Resolution, ResolveError>) -> Outcome {
        match r {
            Ok(res) => Outcome {
                install: res.install,
                errors: Vec::new(),
                error_type: None,
                explanation: None,
                picks: res.picks,
            },
            Err(e) => {
                let errors = match &e {
                    ResolveError::Invalid(list) => unique(list).into_iter().cloned().collect(),
                    other => vec![other.to_string()],
                };
                let explanation = match &e {
                    ResolveError::NotSatisfiable { explanation, .. } => Some(explanation.clone()),
                    _ => None,
                };
                Outcome { install: Vec::new(), errors, error_type: Some(e.kind()), explanation, picks: Vec::new() }
            }
        }
    }
}

impl Outcome {
    /// The outcome serialized with each pick's `requiredBy` text after `installed` (`null` for a
    /// pick that was mandatory on its own): the CLI's `--format json`, and the JS API's
    /// `requiredBy` on demand.
    pub fn with_texts(&self) -> WithTexts<'_> {
        WithTexts(self)
    }

    /// A plain-text report: what to install and why, or the error and its explanation tree.
    pub fn to_text(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        if self.error_type.is_none() {
            if self.install.is_empty() {
                out.push_str("nothing to install or upgrade\n");
            }
            for i in &self.install {
                let _ = write!(
                    out,
                    "install {} ({} {}) from {}/{} channel {}",
                    i.name, i.package, i.version, i.catalog_namespace, i.catalog, i.channel
                );
                if let Some(r) = &i.replaces {
                    let _ = write!(out, ", replaces {r}");
                }
                out.push('\n');
            }
            for p in &self.picks {
                let _ = write!(out, "  {}: {}", p.name, p.why);
                if let Some(by) = &p.requester {
                    let _ = write!(out, " (required by {by}; candidate {} of {})", p.rank, p.candidates);
                }
                out.push('\n');
                for r in &p.rejected {
                    let _ = writeln!(out, "    passed over {r}: it cannot be installed with the rest");
                }
            }
            return out;
        }
        for e in &self.errors {
            let _ = writeln!(out, "error: {e}");
        }
        if let Some(x) = &self.explanation {
            fn walk(x: &Explanation, depth: usize, out: &mut String) {
                let _ = writeln!(out, "{}- {}", "  ".repeat(depth), x.message);
                for c in &x.children {
                    walk(c, depth + 1, out);
                }
            }
            for c in &x.children {
                walk(c, 0, &mut out);
            }
        }
        out
    }
}

/// An [`Outcome`] serialized with its picks' requirement texts ([`Outcome::with_texts`]).
pub struct WithTexts<'a>(&'a Outcome);

impl Serialize for WithTexts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let o = self.0;
        let mut s = serializer.serialize_struct("Outcome", 5)?;
        s.serialize_field("install", &o.install)?;
        s.serialize_field("errors", &o.errors)?;
        s.serialize_field("errorType", &o.error_type)?;
        s.serialize_field("explanation", &o.explanation)?;
        s.serialize_field("picks", &PicksWithTexts(&o.picks))?;
        s.end()
    }
}

/// Picks serialized with their `requiredBy` texts.
struct PicksWithTexts<'a>(&'a [PickReason]);

impl Serialize for PicksWithTexts<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(PickWithText))
    }
}

/// A pick with its `requiredBy` text, in the order of [`PickReason`]'s fields.
struct PickWithText<'a>(&'a PickReason);

impl Serialize for PickWithText<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let p = self.0;
        let mut s = serializer.serialize_struct("PickReason", 9)?;
        s.serialize_field("bundle", &p.bundle)?;
        s.serialize_field("name", &p.name)?;
        s.serialize_field("installed", &p.installed)?;
        s.serialize_field("requiredBy", &p.required_by)?;
        s.serialize_field("requester", &p.requester)?;
        s.serialize_field("rank", &p.rank)?;
        s.serialize_field("candidates", &p.candidates)?;
        s.serialize_field("rejected", &p.rejected)?;
        s.serialize_field("why", &p.why)?;
        s.end()
    }
}

#[cfg(test)]
mod properties;

#[cfg(test)]
mod tests {
    //! Long lists in messages are capped; requirement texts are formatted when read.

    use super::*;
    use crate::cluster::problem_json::ProblemJson;

    /// A subscription to `foo` (channel `stable` of `versions` entries, each replacing the
    /// previous), whose head depends on package `bar`.
    fn problem(versions: usize) -> Cluster {
        let entries: Vec<serde_json::Value> = (1..=versions)
            .rev()
            .map(|v| serde_json::json!({"name": format!("foo.v{v}"), "replaces": if v > 1 { format!("foo.v{}", v - 1) } else { String::new() }}))
            .collect();
        let mut bundles: Vec<serde_json::Value> = (1..versions)
            .map(|v| serde_json::json!({"name": format!("foo.v{v}"), "version": format!("{v}.0.0")}))
            .collect();
        bundles.push(serde_json::json!({"name": format!("foo.v{versions}"), "version": format!("{versions}.0.0"),
            "properties": [{"type": "olm.package.required", "value": {"packageName": "bar", "versionRange": ">=1.0.0"}}]}));
        let problem: ProblemJson = serde_json::from_value(serde_json::json!({
            "namespace": "ns",
            "catalogs": [{"name": "cat", "namespace": "ns", "packages": [
                {"name": "foo", "defaultChannel": "stable", "channels": [{"name": "stable", "entries": entries}], "bundles": bundles},
                {"name": "bar", "defaultChannel": "stable", "channels": [{"name": "stable", "entries": [{"name": "bar.v1"}]}],
                 "bundles": [{"name": "bar.v1", "version": "1.0.0"}]}]}],
            "subscriptions": [{"name": "foo", "package": "foo", "channel": "stable", "catalog": "cat", "catalogNamespace": "ns"}]
        }))
        .unwrap();
        problem.into_cluster().unwrap()
    }

    #[test]
    fn requirement_texts_are_olm_messages_formatted_when_read() {
        let resolution = resolve(&problem(3)).unwrap();
        let texts: Vec<(&str, Option<String>)> =
            resolution.picks.iter().map(|p| (p.name.as_str(), p.required_by.as_ref().map(Requirement::text))).collect();
        assert_eq!(
            texts,
            [
                ("foo.v3", Some("subscription foo requires at least one of cat/ns/stable/foo.v3, cat/ns/stable/foo.v2 or cat/ns/stable/foo.v1".into())),
                ("bar.v1", Some("bundle foo.v3 requires an operator with package: bar and with version in range: >=1.0.0".into())),
            ]
        );
        // A pick's requirement is there exactly when it has a requester.
        assert!(resolution.picks.iter().all(|p| p.required_by.is_some() == p.requester.is_some()));
    }

    #[test]
    fn without_picks_the_same_installs_and_no_picks() {
        let with = resolve(&problem(3)).unwrap();
        let without = resolve_with(&problem(3), Options { picks: false, ..Options::default() }).unwrap();
        assert_eq!(without.install, with.install);
        assert!(without.picks.is_empty() && !with.picks.is_empty());
    }

    #[test]
    fn a_long_requirement_names_its_first_candidates_and_counts_the_rest() {
        let resolution = resolve(&problem(MAX_LISTED + 20)).unwrap();
        let text = resolution.picks[0].required_by.as_ref().unwrap().text();
        assert!(
            text.starts_with(&format!(
                "subscription foo requires at least one of cat/ns/stable/foo.v{}, ",
                MAX_LISTED + 20
            )),
            "{text}"
        );
        assert!(text.ends_with(" or 20 more"), "{text}");
        assert_eq!(text.matches("cat/ns/stable/").count(), MAX_LISTED);
    }

    #[test]
    fn the_outcome_serializes_requirement_texts_only_when_asked() {
        let outcome = Outcome::from(resolve(&problem(2)));
        let brief = serde_json::to_value(&outcome).unwrap();
        assert!(brief["picks"][0].get("requiredBy").is_none());
        let full = serde_json::to_string(&outcome.with_texts()).unwrap();
        let pick = &serde_json::from_str::<serde_json::Value>(&full).unwrap()["picks"][0];
        assert_eq!(
            pick["requiredBy"],
            "subscription foo requires at least one of cat/ns/stable/foo.v2 or cat/ns/stable/foo.v1"
        );
        // The same keys as the brief outcome's, `requiredBy` after `installed`.
        let keys = |s: &str| -> Vec<String> {
            let start = s.find("\"picks\":[{").unwrap();
            s[start..].split(",\"").take(9).map(|k| k.split('"').next().unwrap_or("").to_string()).collect()
        };
        assert_eq!(keys(&full)[3], "requiredBy");
        let mut brief_keys = keys(&serde_json::to_string(&outcome).unwrap());
        brief_keys.truncate(8);
        let mut full_keys = keys(&full);
        full_keys.remove(3);
        assert_eq!(full_keys, brief_keys);
        assert_eq!(serde_json::to_value(outcome.with_texts()).unwrap()["install"], brief["install"]);
    }

    #[test]
    fn lists_longer_than_max_listed_end_with_a_count() {
        let ids: Vec<String> = (0..2_000).map(|i| format!("b{i}")).collect();
        let text = join_capped(&ids, " or ");
        assert!(text.starts_with("b0, b1, "), "{text}");
        assert!(text.ends_with(&format!("b{} or 1,950 more", MAX_LISTED - 1)), "{text}");
        assert_eq!(join_capped(&ids[..3], " or "), "b0, b1 or b2");
        assert_eq!(join_capped(&ids[..MAX_LISTED], " and ").matches(", ").count(), MAX_LISTED - 2);
        let explanation = Explanation { message: String::new(), children: Vec::new() };
        let err = ResolveError::NotSatisfiable { constraints: ids.clone(), explanation };
        assert!(err.to_string().ends_with(", and 1,950 more"), "{err}");
        let err = ResolveError::Invalid(ids[..2].iter().chain(&ids[..2]).cloned().collect());
        assert_eq!(err.to_string(), "[b0, b1]");
    }
}
