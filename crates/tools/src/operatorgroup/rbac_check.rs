//! OLM's permission check (`permissionStatus` with its `CSVRuleChecker`): whether a CSV's service
//! accounts already hold their permissions in a namespace, or cluster-wide, through the RBAC OLM
//! has made so far. OLM asks it before copying the Roles into a target namespace and before
//! lifting them to cluster scope under an AllNamespaces group, and skips the step when they are
//! held.
//!
//! Each rule is expanded as OLM does (`toAttributesSet`: every verb × API group × resource ×
//! resource name, or verb × non-resource URL) and every request must be allowed by a rule of a
//! role bound to the service account (Kubernetes' RBAC authorizer: `*` wildcards, exact
//! resources, empty `resourceNames` allowing every name, URLs with a trailing `*` as prefixes).
//! The service account is a user without groups there, so only bindings naming it count.

use super::rbac_rule::Rule;
use crate::model::csv::{PolicyRule, StrategyPermissions};

/// Whether every rule of `perms` is allowed to its service account in `namespace` (`None`:
/// cluster-wide) by the rules `granted(account, namespace)` gives it; OLM's error text for an
/// invalid rule.
pub fn permissions_met<'a>(
    perms: &[StrategyPermissions],
    namespace: Option<&str>,
    granted: impl Fn(&str, Option<&str>) -> Vec<&'a Rule>,
) -> Result<bool, String> {
    let mut met = true;
    for perm in perms {
        let grants = granted(&perm.service_account_name, namespace);
        for rule in &perm.rules {
            rule_valid(rule)?;
            met &= requests(rule).iter().all(|r| grants.iter().any(|g| allows(g, r)));
        }
    }
    Ok(met)
}

/// OLM's `ruleValid`.
fn rule_valid(rule: &PolicyRule) -> Result<(), String> {
    if rule.verbs.is_empty() {
        return Err("rule invalid: policy rule must have at least one verb".into());
    }
    let resources = rule.api_groups.len() + rule.resources.len() + rule.resource_names.len();
    if resources > 0 && !rule.non_resource_urls.is_empty() {
        return Err("rule invalid: rule cannot apply to both regular resources and non-resource URLs".into());
    }
    Ok(())
}

/// One request of a rule's expansion.
struct Request<'a> {
    verb: &'a str,
    group: &'a str,
    resource: &'a str,
    name: &'a str,
    /// A non-resource URL; `""` for a resource request.
    url: &'a str,
}

/// OLM's `toAttributesSet`: an empty list stands for one empty string.
fn requests(rule: &PolicyRule) -> Vec<Request<'_>> {
    fn or_empty(items: &[String]) -> Vec<&str> {
        if items.is_empty() {
            vec![""]
        } else {
            items.iter().map(String::as_str).collect()
        }
    }
    let (groups, resources) = (or_empty(&rule.api_groups), or_empty(&rule.resources));
    let (names, urls) = (or_empty(&rule.resource_names), or_empty(&rule.non_resource_urls));
    let mut out = Vec::new();
    for verb in &rule.verbs {
        for &group in &groups {
            for &resource in &resources {
                for &name in &names {
                    out.extend(urls.iter().map(|&url| Request { verb, group, resource, name, url }));
                }
            }
        }
    }
    out
}

/// The RBAC authorizer's `RuleAllows` (the request carries no subresource: `pods/status` is
/// matched whole).
fn allows(rule: &Rule, r: &Request) -> bool {
    let any = |items: &[String], want: &str| items.iter().any(|i| i == "*" || i == want);
    if !any(&rule.verbs, r.verb) {
        return false;
    }
    if !r.url.is_empty() {
        return rule
            .non_resource_urls
            .iter()
            .any(|u| u == "*" || u == r.url || (u.ends_with('*') && r.url.starts_with(u.trim_end_matches('*'))));
    }
    any(&rule.api_groups, r.group)
        && any(&rule.resources, r.resource)
        && (rule.resource_names.is_empty() || rule.resource_names.iter().any(|n| n == r.name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> Rule {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect();
        Rule { verbs: s(verbs), api_groups: s(groups), resources: s(resources), ..Rule::default() }
    }

    fn policy(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
        let r = rule(verbs, groups, resources);
        PolicyRule { verbs: r.verbs, api_groups: r.api_groups, resources: r.resources, ..PolicyRule::default() }
    }

    fn all(granted: &Rule, wanted: &PolicyRule) -> bool {
        requests(wanted).iter().all(|r| allows(granted, r))
    }

    #[test]
    fn wildcards_grant_every_verb_group_and_resource() {
        let star = rule(&["*"], &["*"], &["*"]);
        assert!(all(&star, &policy(&["get", "delete"], &["", "apps"], &["pods", "deployments/scale"])));
    }

    #[test]
    fn resources_match_whole_and_names_restrict() {
        let pods = rule(&["get"], &[""], &["pods"]);
        assert!(!all(&pods, &policy(&["get"], &[""], &["pods/status"])), "a subresource is another resource");
        assert!(!all(&pods, &policy(&["get", "list"], &[""], &["pods"])), "every verb must be granted");
        let mut named = rule(&["get"], &[""], &["secrets"]);
        named.resource_names = vec!["a".into()];
        let mut want = policy(&["get"], &[""], &["secrets"]);
        assert!(!all(&named, &want), "a grant for one name does not cover every name");
        want.resource_names = vec!["a".into()];
        assert!(all(&named, &want));
    }

    #[test]
    fn non_resource_urls_match_exactly_or_by_a_trailing_star() {
        let mut metrics = rule(&["get"], &[], &[]);
        metrics.non_resource_urls = vec!["/metrics*".into()];
        let want = PolicyRule {
            verbs: vec!["get".into()],
            non_resource_urls: vec!["/metrics/cadvisor".into()],
            ..PolicyRule::default()
        };
        assert!(all(&metrics, &want));
        assert!(!all(&rule(&["get"], &["*"], &["*"]), &want), "resource grants do not cover URLs");
    }

    #[test]
    fn invalid_rules_fail_the_check_with_olms_text() {
        assert_eq!(
            rule_valid(&policy(&[], &[""], &["pods"])).unwrap_err(),
            "rule invalid: policy rule must have at least one verb"
        );
        let mut both = policy(&["get"], &[""], &["pods"]);
        both.non_resource_urls = vec!["/x".into()];
        assert!(rule_valid(&both).unwrap_err().contains("both regular resources and non-resource URLs"));
    }
}
