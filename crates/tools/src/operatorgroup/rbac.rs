//! The RBAC OLM generates for a CSV under one OperatorGroup, previewed from the catalog (seed 000
//! §2.3.6, and OLM's code where it differs from the docs):
//!
//! - per OperatorGroup, three ClusterRoles `olm.og.<group>.admin|edit|view-<hash>` whose
//!   aggregation rule selects the ClusterRoles of the group's provided APIs
//!   (`ensureOpGroupClusterRoles`);
//! - per provided API, ClusterRoles with verbs on it and aggregation labels: for an owned CRD
//!   `<plural>.<group>-<version>-admin|edit|view` and `-crdview` (get on the CRD object), for an
//!   owned API service `<plural>-<version>-admin|edit|view` (`ensureClusterRolesForCSV`; the docs
//!   write `<kind>.<group>` and `-view-crdview`, the code names them as here);
//! - from the install plan (`RBACForClusterServiceVersion`): per `permissions` entry a Role and a
//!   RoleBinding in the operator's namespace, per `clusterPermissions` entry a ClusterRole and a
//!   ClusterRoleBinding, for the entry's service account;
//! - then per target namespace (`ensureCSVsInNamespaces`, `ensureTenantRBAC`): the Roles and
//!   RoleBindings copied into each target namespace other than the operator's; or, for a group
//!   targeting all namespaces (`ensureRBACInTargetNamespace`, `ensureSingletonRBAC`), each Role
//!   lifted to a ClusterRole of the same name (its rules plus get/list/watch on namespaces) and
//!   each RoleBinding to a ClusterRoleBinding.
//!
//! [`preview_rbac`] builds all of it and a flattened table of what each service account may
//! touch; the text rendering is in [`super::rbac_text`], the Kubernetes manifests in
//! [`super::rbac_manifests`]. Every name and label OLM derives from a hash is reproduced
//! ([`super::rbac_names`]).

use std::collections::BTreeMap;

use serde::Serialize;

use super::install_modes::{InstallModeSet, InstallModeType};
use super::provided_apis::csv_provided_apis;
use super::rbac_check::permissions_met;
use super::rbac_names::{
    aggregation_label, binding_hash, cluster_role_name, group_cluster_role_name, role_name, rules_hash,
    PERMISSIONS_HASH_LABEL,
};
use crate::model::csv::{CsvView, StrategyPermissions};
use crate::property::Gvk;

/// The role types OLM aggregates, with the verbs each grants on a provided API.
pub const ROLE_VERBS: [(&str, &[&str]); 3] =
    [("admin", &["*"]), ("edit", &["create", "update", "patch", "delete"]), ("view", &["get", "list", "watch"])];

/// The OperatorGroup a preview assumes: where the operator runs and what its group targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RbacTarget {
    /// The install mode the group's targets call for.
    pub install_mode: InstallModeType,
    /// The namespace of the CSV and of its OperatorGroup.
    pub operator_namespace: String,
    /// The group's name.
    pub operator_group: String,
    /// The group's `status.namespaces`, sorted (`[""]` for all namespaces).
    pub target_namespaces: Vec<String>,
}

impl RbacTarget {
    /// The group `mode` calls for, for an operator in `namespace`: `targets` when given (checked
    /// against the mode), else an example (OwnNamespace: its namespace; SingleNamespace: `tenant-a`;
    /// MultiNamespace: `tenant-a`, `tenant-b`; AllNamespaces: all).
    pub fn for_mode(
        mode: InstallModeType,
        namespace: &str,
        group: &str,
        targets: Option<Vec<String>>,
    ) -> Result<RbacTarget, String> {
        let mut targets = match targets {
            Some(t) => t,
            None => match mode {
                InstallModeType::OwnNamespace => vec![namespace.to_string()],
                InstallModeType::SingleNamespace => vec!["tenant-a".into()],
                InstallModeType::MultiNamespace => vec!["tenant-a".into(), "tenant-b".into()],
                InstallModeType::AllNamespaces => vec![String::new()],
            },
        };
        crate::sort::sort(&mut targets);
        targets.dedup();
        let fits = match mode {
            InstallModeType::OwnNamespace => targets == [namespace],
            InstallModeType::SingleNamespace => targets.len() == 1 && !targets[0].is_empty(),
            InstallModeType::MultiNamespace => !targets.is_empty() && targets.iter().all(|t| !t.is_empty()),
            InstallModeType::AllNamespaces => targets == [""],
        };
        if !fits {
            return Err(format!("target namespaces {targets:?} do not make an {mode} OperatorGroup"));
        }
        Ok(RbacTarget {
            install_mode: mode,
            operator_namespace: namespace.to_string(),
            operator_group: group.to_string(),
            target_namespaces: targets,
        })
    }

    /// Whether the group targets all namespaces.
    pub fn is_all_namespaces(&self) -> bool {
        self.target_namespaces == [""]
    }
}

pub use super::rbac_rule::Rule;

fn strings(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// A generated Role (namespaced) or ClusterRole (`namespace` `None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GeneratedRole {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, for a Role.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `metadata.labels`.
    pub labels: BTreeMap<String, String>,
    /// `rules`.
    pub rules: Vec<Rule>,
    /// `aggregationRule.clusterRoleSelectors`, each a `matchLabels` map (sorted; OLM's order
    /// follows a Go map and varies).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aggregation_selectors: Vec<BTreeMap<String, String>>,
    /// Whether this ClusterRole is a Role of the operator's namespace lifted to cluster scope
    /// (AllNamespaces).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub lifted: bool,
}

/// A generated RoleBinding (namespaced) or ClusterRoleBinding (`namespace` `None`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GeneratedBinding {
    /// `metadata.name`.
    pub name: String,
    /// `metadata.namespace`, for a RoleBinding.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `metadata.labels`.
    pub labels: BTreeMap<String, String>,
    /// `roleRef.kind`: `Role` or `ClusterRole`.
    pub role_kind: &'static str,
    /// `roleRef.name`.
    pub role_name: String,
    /// The bound service account's name (its namespace is the operator's).
    pub service_account: String,
    /// The service account's namespace.
    pub service_account_namespace: String,
}

/// One row of "what the operator may touch": a service account's verbs on one resource of one
/// API group, in one namespace or cluster-wide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Access {
    /// The service account.
    pub service_account: String,
    /// The namespace the grant holds in; `None` cluster-wide (all namespaces and cluster-scoped
    /// resources).
    pub namespace: Option<String>,
    /// The API group (`""` core); empty for a non-resource URL.
    pub api_group: String,
    /// The resource, or the non-resource URL.
    pub resource: String,
    /// `resourceNames` restricting the grant (empty: every object).
    pub resource_names: Vec<String>,
    /// The verbs, merged over the roles granting them, in first-seen order.
    pub verbs: Vec<String>,
    /// Whether `resource` is a non-resource URL.
    pub non_resource_url: bool,
}

/// Everything OLM would generate for the CSV under the [`RbacTarget`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RbacPreview {
    /// The CSV's name (`metadata.name`; the bundle name for `olm.csv.metadata`).
    pub csv_name: String,
    /// The group assumed.
    pub target: RbacTarget,
    /// OLM's message when the CSV does not support the target's install mode: the CSV then fails
    /// (`UnsupportedOperatorGroup`), and only the install plan's objects exist.
    pub unsupported: Option<String>,
    /// Whether the CSV carries its install strategy (an `olm.csv.metadata` does not: no
    /// permissions can be previewed).
    pub permissions_known: bool,
    /// The OperatorGroup's three ClusterRoles.
    pub group_cluster_roles: Vec<GeneratedRole>,
    /// The ClusterRoles of the CSV's provided APIs.
    pub api_cluster_roles: Vec<GeneratedRole>,
    /// The service accounts the permissions name, in first-seen order.
    pub service_accounts: Vec<String>,
    /// Roles, in the operator's namespace then each target namespace.
    pub roles: Vec<GeneratedRole>,
    /// RoleBindings, as the Roles.
    pub role_bindings: Vec<GeneratedBinding>,
    /// ClusterRoles from `clusterPermissions` (and lifted Roles under AllNamespaces).
    pub cluster_roles: Vec<GeneratedRole>,
    /// ClusterRoleBindings, as the ClusterRoles.
    pub cluster_role_bindings: Vec<GeneratedBinding>,
    /// OLM's error when its permission check (before copying or lifting the Roles) meets an
    /// invalid rule: it then neither copies nor lifts them, and retries.
    pub permission_check_error: Option<String>,
    /// What each service account may touch.
    pub access: Vec<Access>,
    /// Notes about names and assumptions (placeholders, the flavour).
    pub notes: Vec<String>,
}

/// Preview the RBAC OLM generates for `csv` in `target`'s group; `bundle` names the CSV when it
/// has no `metadata.name`.
pub fn preview_rbac(csv: &CsvView, bundle: &str, target: &RbacTarget) -> RbacPreview {
    let csv_name = csv.name.clone().filter(|n| !n.is_empty()).unwrap_or_else(|| bundle.to_string());
    let unsupported = match InstallModeSet::new(&csv.install_modes) {
        Ok(set) => set.supports(&target.operator_namespace, &target.target_namespaces).err().map(|e| e.to_string()),
        Err(e) => Some(e.to_string()),
    };
    let mut p = RbacPreview {
        csv_name,
        target: target.clone(),
        unsupported,
        permissions_known: csv.permissions.is_some(),
        group_cluster_roles: Vec::new(),
        api_cluster_roles: Vec::new(),
        service_accounts: Vec::new(),
        roles: Vec::new(),
        role_bindings: Vec::new(),
        cluster_roles: Vec::new(),
        cluster_role_bindings: Vec::new(),
        permission_check_error: None,
        access: Vec::new(),
        notes: Vec::new(),
    };
    install_plan_rbac(csv, &mut p);
    if p.unsupported.is_none() {
        let apis = csv_provided_apis(csv).unwrap_or_default();
        p.group_cluster_roles = group_roles(target, &apis);
        p.api_cluster_roles = api_roles(csv);
        if target.is_all_namespaces() {
            lift_to_cluster(csv, &mut p);
        } else {
            copy_to_targets(csv, &mut p);
        }
    }
    p.access = access_table(&p);
    notes(csv, &mut p);
    p
}

/// OLM's owner labels (`ownerutil.OwnerLabel`).
fn owner_labels(name: &str, namespace: &str, kind: &str) -> BTreeMap<String, String> {
    BTreeMap::from([
        ("olm.owner".to_string(), name.to_string()),
        ("olm.owner.namespace".to_string(), namespace.to_string()),
        ("olm.owner.kind".to_string(), kind.to_string()),
    ])
}

const CSV_KIND: &str = "ClusterServiceVersion";

/// The install plan's objects: a Role and RoleBinding per `permissions` entry in the operator's
/// namespace, a ClusterRole and ClusterRoleBinding per `clusterPermissions` entry, named and
/// labelled as OLM does (an entry repeated word for word makes the same objects once).
fn install_plan_rbac(csv: &CsvView, p: &mut RbacPreview) {
    let ns = p.target.operator_namespace.clone();
    let labels = owner_labels(&p.csv_name, &ns, CSV_KIND);
    for perm in csv.permissions.iter().flatten() {
        note_account(p, perm);
        let name = role_name(&p.csv_name, perm);
        if !p.roles.iter().any(|r| r.name == name) {
            p.roles.push(role(&name, Some(&ns), &labels, perm));
            p.role_bindings.push(binding(&name, Some(&ns), &labels, "Role", perm, &ns));
        }
    }
    for perm in csv.cluster_permissions.iter().flatten() {
        note_account(p, perm);
        let name = cluster_role_name(&p.csv_name, &ns, perm);
        if !p.cluster_roles.iter().any(|r| r.name == name) {
            p.cluster_roles.push(role(&name, None, &labels, perm));
            p.cluster_role_bindings.push(binding(&name, None, &labels, "ClusterRole", perm, &ns));
        }
    }
}

fn note_account(p: &mut RbacPreview, perm: &StrategyPermissions) {
    if !p.service_accounts.contains(&perm.service_account_name) {
        p.service_accounts.push(perm.service_account_name.clone());
    }
}

fn role(
    name: &str,
    namespace: Option<&str>,
    labels: &BTreeMap<String, String>,
    perm: &StrategyPermissions,
) -> GeneratedRole {
    let mut labels = labels.clone();
    labels.insert(PERMISSIONS_HASH_LABEL.into(), rules_hash(perm));
    GeneratedRole {
        name: name.to_string(),
        namespace: namespace.map(str::to_string),
        labels,
        rules: perm.rules.iter().map(Rule::from).collect(),
        aggregation_selectors: Vec::new(),
        lifted: false,
    }
}

fn binding(
    name: &str,
    namespace: Option<&str>,
    labels: &BTreeMap<String, String>,
    role_kind: &'static str,
    perm: &StrategyPermissions,
    account_namespace: &str,
) -> GeneratedBinding {
    let mut labels = labels.clone();
    let account = &perm.service_account_name;
    labels.insert(PERMISSIONS_HASH_LABEL.into(), binding_hash(role_kind, name, account, account_namespace));
    GeneratedBinding {
        name: name.to_string(),
        namespace: namespace.map(str::to_string),
        labels,
        role_kind,
        role_name: name.to_string(),
        service_account: account.clone(),
        service_account_namespace: account_namespace.to_string(),
    }
}

/// The group's admin, edit and view ClusterRoles, selecting the aggregation label of each API.
fn group_roles(target: &RbacTarget, apis: &std::collections::BTreeSet<Gvk>) -> Vec<GeneratedRole> {
    let (ns, group) = (&target.operator_namespace, &target.operator_group);
    let mut labels = owner_labels(group, ns, "OperatorGroup");
    labels.insert("olm.managed".into(), "true".into());
    ROLE_VERBS
        .iter()
        .map(|(role, _)| {
            let mut selectors: Vec<BTreeMap<String, String>> =
                apis.iter().map(|api| BTreeMap::from([(aggregation_label(api, role), "true".to_string())])).collect();
            crate::sort::sort(&mut selectors);
            GeneratedRole {
                name: group_cluster_role_name(ns, group, role),
                namespace: None,
                labels: labels.clone(),
                rules: Vec::new(),
                aggregation_selectors: selectors,
                lifted: false,
            }
        })
        .collect()
}

/// The ClusterRoles of each owned CRD (admin, edit, view, crdview) and owned API service (admin,
/// edit, view). A CRD name without a dot makes OLM give up on the CSV: no roles for it.
fn api_roles(csv: &CsvView) -> Vec<GeneratedRole> {
    let mut out = Vec::new();
    for crd in &csv.owned_crds {
        let Some((plural, group)) = crd.plural_and_group() else { continue };
        let api = Gvk::new(group, &crd.version, &crd.kind);
        let prefix = format!("{}-{}-", crd.name, crd.version);
        for (role, verbs) in ROLE_VERBS {
            out.push(api_role(&format!("{prefix}{role}"), role, &api, rule(verbs, group, plural, &[])));
        }
        let crd_rule = rule(&["get"], "apiextensions.k8s.io", "customresourcedefinitions", &[&crd.name]);
        out.push(api_role(&format!("{prefix}crdview"), "view", &api, crd_rule));
    }
    for svc in &csv.owned_api_services {
        let api = Gvk::new(&svc.group, &svc.version, &svc.kind);
        let prefix = format!("{}-{}-", svc.name, svc.version);
        for (role, verbs) in ROLE_VERBS {
            out.push(api_role(&format!("{prefix}{role}"), role, &api, rule(verbs, &svc.group, &svc.name, &[])));
        }
    }
    out
}

fn rule(verbs: &[&str], group: &str, resource: &str, names: &[&str]) -> Rule {
    Rule {
        verbs: strings(verbs),
        api_groups: vec![group.to_string()],
        resources: vec![resource.to_string()],
        resource_names: strings(names),
        non_resource_urls: Vec::new(),
    }
}

fn api_role(name: &str, role: &str, api: &Gvk, rule: Rule) -> GeneratedRole {
    let labels = BTreeMap::from([
        (format!("rbac.authorization.k8s.io/aggregate-to-{role}"), "true".to_string()),
        (aggregation_label(api, role), "true".to_string()),
        ("olm.managed".to_string(), "true".to_string()),
    ]);
    GeneratedRole {
        name: name.to_string(),
        namespace: None,
        labels,
        rules: vec![rule],
        aggregation_selectors: Vec::new(),
        lifted: false,
    }
}

/// AllNamespaces: unless the service accounts already hold every permission and cluster
/// permission cluster-wide, each Role of the operator's namespace becomes a ClusterRole of the same
/// name and labels (its rules plus get/list/watch on namespaces), each RoleBinding a
/// ClusterRoleBinding; OLM creates neither when one of that name exists.
fn lift_to_cluster(csv: &CsvView, p: &mut RbacPreview) {
    let mut all: Vec<StrategyPermissions> = csv.cluster_permissions.clone().unwrap_or_default();
    all.extend(csv.permissions.iter().flatten().cloned());
    match permissions_met(&all, None, |account, ns| granted_rules(p, account, ns)) {
        Ok(false) => {}
        Ok(true) => return,
        Err(e) => return p.permission_check_error = Some(e),
    }
    for r in p.roles.clone() {
        if p.cluster_roles.iter().any(|c| c.name == r.name) {
            continue;
        }
        let mut rules = r.rules.clone();
        rules.push(rule(&["get", "list", "watch"], "", "namespaces", &[]));
        p.cluster_roles.push(GeneratedRole { namespace: None, rules, lifted: true, ..r });
    }
    for b in p.role_bindings.clone() {
        if p.cluster_role_bindings.iter().any(|c| c.name == b.name) {
            continue;
        }
        p.cluster_role_bindings.push(GeneratedBinding { namespace: None, role_kind: "ClusterRole", ..b });
    }
}

/// Other groups: the Roles and RoleBindings copied into each target namespace but the
/// operator's where the service accounts do not already hold their permissions, owned by the
/// copied CSV there: their labels kept, the owner's namespace changed, `olm.copiedFrom` and
/// `olm.managed` added. An invalid rule stops OLM at its permission check, before any copy.
fn copy_to_targets(csv: &CsvView, p: &mut RbacPreview) {
    let own = p.target.operator_namespace.clone();
    let (perms, cluster_perms) = (csv.permissions.clone().unwrap_or_default(), csv.cluster_permissions.clone());
    let (roles, bindings) = (p.roles.clone(), p.role_bindings.clone());
    let (targets, csv_name) = (p.target.target_namespaces.clone(), p.csv_name.clone());
    for ns in targets.iter().filter(|ns| **ns != own) {
        let granted = |account: &str, ns: Option<&str>| granted_rules(p, account, ns);
        let met = permissions_met(&perms, Some(ns), granted)
            .and_then(|met| Ok(permissions_met(cluster_perms.as_deref().unwrap_or_default(), None, granted)? && met));
        match met {
            Ok(false) => {}
            Ok(true) => continue,
            Err(e) => return p.permission_check_error = Some(e),
        }
        let relabel = |labels: &BTreeMap<String, String>| {
            let mut labels = labels.clone();
            labels.extend(owner_labels(&csv_name, ns, CSV_KIND));
            labels.insert("olm.copiedFrom".into(), own.clone());
            labels.insert("olm.managed".into(), "true".into());
            labels
        };
        let copied: Vec<GeneratedRole> = roles
            .iter()
            .map(|r| GeneratedRole { namespace: Some(ns.clone()), labels: relabel(&r.labels), ..r.clone() })
            .collect();
        let copied_bindings: Vec<GeneratedBinding> = bindings
            .iter()
            .map(|b| GeneratedBinding { namespace: Some(ns.clone()), labels: relabel(&b.labels), ..b.clone() })
            .collect();
        p.roles.extend(copied);
        p.role_bindings.extend(copied_bindings);
    }
}

/// The rules granted to `account` in `namespace` (`None`: cluster-wide) by the objects so far: its
/// ClusterRoleBindings' ClusterRoles, and in a namespace its RoleBindings' Roles there.
fn granted_rules<'a>(p: &'a RbacPreview, account: &str, namespace: Option<&str>) -> Vec<&'a Rule> {
    let bound_rules = |roles: &'a [GeneratedRole], b: &GeneratedBinding| {
        let role = roles.iter().filter(|r| r.name == b.role_name && r.namespace == b.namespace);
        role.flat_map(|r| &r.rules).collect::<Vec<&'a Rule>>()
    };
    let mut rules: Vec<&Rule> = Vec::new();
    for b in p.cluster_role_bindings.iter().filter(|b| b.service_account == account) {
        rules.extend(bound_rules(&p.cluster_roles, b));
    }
    let Some(ns) = namespace else { return rules };
    for b in p.role_bindings.iter().filter(|b| b.service_account == account && b.namespace.as_deref() == Some(ns)) {
        rules.extend(bound_rules(&p.roles, b));
    }
    rules
}

/// What each bound service account may touch: every rule of every bound role, one row per
/// (namespace, API group, resource, resource names), verbs merged.
fn access_table(p: &RbacPreview) -> Vec<Access> {
    let mut rows: Vec<Access> = Vec::new();
    let bound = p
        .role_bindings
        .iter()
        .map(|b| (b, &p.roles))
        .chain(p.cluster_role_bindings.iter().map(|b| (b, &p.cluster_roles)));
    for (b, roles) in bound {
        let Some(r) = roles.iter().find(|r| r.name == b.role_name && r.namespace == b.namespace) else { continue };
        for rule in &r.rules {
            for row in rule_rows(&b.service_account, &b.namespace, rule) {
                merge(&mut rows, row);
            }
        }
    }
    rows
}

fn rule_rows(account: &str, namespace: &Option<String>, rule: &Rule) -> Vec<Access> {
    let row = |api_group: &str, resource: &str, non_resource_url: bool| Access {
        service_account: account.to_string(),
        namespace: namespace.clone(),
        api_group: api_group.to_string(),
        resource: resource.to_string(),
        resource_names: if non_resource_url { Vec::new() } else { rule.resource_names.clone() },
        verbs: rule.verbs.clone(),
        non_resource_url,
    };
    let mut rows = Vec::new();
    for group in &rule.api_groups {
        for resource in &rule.resources {
            rows.push(row(group, resource, false));
        }
    }
    rows.extend(rule.non_resource_urls.iter().map(|u| row("", u, true)));
    rows
}

fn merge(rows: &mut Vec<Access>, row: Access) {
    let same = |r: &&mut Access| {
        r.service_account == row.service_account
            && r.namespace == row.namespace
            && r.api_group == row.api_group
            && r.resource == row.resource
            && r.resource_names == row.resource_names
            && r.non_resource_url == row.non_resource_url
    };
    match rows.iter_mut().find(same) {
        Some(existing) => {
            for v in row.verbs {
                if !existing.verbs.contains(&v) {
                    existing.verbs.push(v);
                }
            }
        }
        None => rows.push(row),
    }
}

fn notes(csv: &CsvView, p: &mut RbacPreview) {
    if !p.permissions_known {
        p.notes.push(
            "the CSV comes from olm.csv.metadata, which carries no install strategy: its permissions and \
             clusterPermissions are unknown"
                .into(),
        );
    }
    if let Some(m) = &p.unsupported {
        p.notes.push(format!(
            "the CSV fails under this group (UnsupportedOperatorGroup: {m}): only the install plan's Roles and \
             ClusterRoles are created, no group or API roles, nothing in target namespaces"
        ));
    }
    if csv_provided_apis(csv).is_err() {
        p.notes.push("a CRD name has no dot: OLM cannot read the CSV's APIs and never installs it".into());
    }
    if let Some(e) = &p.permission_check_error {
        p.notes.push(format!(
            "OLM's permission check fails ({e}): the Roles are neither copied into the target namespaces nor \
             lifted to cluster scope, and the CSV does not succeed"
        ));
    }
    if p.target.is_all_namespaces() && p.unsupported.is_none() && !p.roles.is_empty() {
        p.notes.push(if p.cluster_roles.iter().any(|r| r.lifted) {
            "AllNamespaces: OLM lifts each Role to a ClusterRole of the same name (adding get/list/watch on \
             namespaces), as the service accounts do not hold the permissions cluster-wide"
                .into()
        } else {
            "AllNamespaces: the service accounts hold every permission cluster-wide already (clusterPermissions), \
             so OLM lifts no Role to cluster scope"
                .into()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::csv::{ApiServiceDescription, CrdDescription, InstallMode, PolicyRule};

    fn csv(modes: &[&str]) -> CsvView {
        let perm = |sa: &str, rules: Vec<PolicyRule>| StrategyPermissions {
            service_account_name: sa.into(),
            rules,
            rules_null: false,
        };
        let pods = PolicyRule {
            api_groups: vec!["".into()],
            resources: vec!["pods".into(), "services".into()],
            verbs: vec!["get".into(), "list".into()],
            ..PolicyRule::default()
        };
        let metrics = PolicyRule {
            non_resource_urls: vec!["/metrics".into()],
            verbs: vec!["get".into()],
            ..PolicyRule::default()
        };
        CsvView {
            name: Some("etcd.v1".into()),
            install_modes: modes.iter().map(|m| InstallMode { type_: m.to_string(), supported: true }).collect(),
            owned_crds: vec![CrdDescription {
                name: "etcdclusters.etcd.io".into(),
                version: "v1".into(),
                kind: "EtcdCluster".into(),
            }],
            owned_api_services: vec![ApiServiceDescription {
                name: "backups".into(),
                group: "etcd.io".into(),
                version: "v2".into(),
                kind: "Backup".into(),
            }],
            permissions: Some(vec![perm("etcd-operator", vec![pods])]),
            cluster_permissions: Some(vec![perm("etcd-operator", vec![metrics])]),
            ..CsvView::default()
        }
    }

    fn target(mode: InstallModeType, targets: Option<&[&str]>) -> RbacTarget {
        let targets = targets.map(|t| t.iter().map(|s| s.to_string()).collect());
        RbacTarget::for_mode(mode, "operators", "og", targets).unwrap()
    }

    #[test]
    fn three_group_cluster_roles_aggregate_the_apis_of_the_group() {
        // Seed 000 §2.3.6: "创建 OperatorGroup 时，会生成三个 ClusterRole。每个 ClusterRole 均包含一个
        // AggregationRule"; OLM's code names them olm.og.<group>.<role>-<hash> and selects
        // olm.opgroup.permissions/aggregate-to-<gvk hash>-<role> per provided API.
        let p = preview_rbac(&csv(&["OwnNamespace"]), "b", &target(InstallModeType::OwnNamespace, None));
        let names: Vec<&str> = p.group_cluster_roles.iter().map(|r| r.name.as_str()).collect();
        assert!(names[0].starts_with("olm.og.og.admin-") && names[1].starts_with("olm.og.og.edit-"), "{names:?}");
        let admin = &p.group_cluster_roles[0];
        assert_eq!(admin.aggregation_selectors.len(), 2, "one per provided API");
        assert!(admin.aggregation_selectors.iter().all(|s| s.keys().all(|k| k.ends_with("-admin"))));
        assert_eq!(admin.labels["olm.owner.kind"], "OperatorGroup");
    }

    #[test]
    fn each_owned_crd_gets_admin_edit_view_and_crdview_cluster_roles() {
        // Seed 000 table 2.5: admin "*", edit create/update/patch/delete, view get/list/watch, and a
        // crdview role with get on the CRD object; labels rbac.authorization.k8s.io/aggregate-to-*.
        let p = preview_rbac(&csv(&["OwnNamespace"]), "b", &target(InstallModeType::OwnNamespace, None));
        let names: Vec<&str> = p.api_cluster_roles.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "etcdclusters.etcd.io-v1-admin",
                "etcdclusters.etcd.io-v1-edit",
                "etcdclusters.etcd.io-v1-view",
                "etcdclusters.etcd.io-v1-crdview",
                "backups-v2-admin",
                "backups-v2-edit",
                "backups-v2-view",
            ]
        );
        let edit = &p.api_cluster_roles[1];
        assert_eq!(edit.rules[0].verbs, ["create", "update", "patch", "delete"]);
        assert_eq!(
            (edit.rules[0].api_groups[0].as_str(), edit.rules[0].resources[0].as_str()),
            ("etcd.io", "etcdclusters")
        );
        assert_eq!(edit.labels["rbac.authorization.k8s.io/aggregate-to-edit"], "true");
        let crdview = &p.api_cluster_roles[3];
        assert_eq!(crdview.rules[0].resource_names, ["etcdclusters.etcd.io"]);
        assert!(crdview.labels.contains_key("rbac.authorization.k8s.io/aggregate-to-view"));
        // The group's view role selects exactly the labels the API roles carry.
        let selected: Vec<&String> =
            p.group_cluster_roles[2].aggregation_selectors.iter().flat_map(|s| s.keys()).collect();
        assert!(selected
            .iter()
            .all(|k| crdview.labels.contains_key(*k) || p.api_cluster_roles[6].labels.contains_key(*k)));
    }

    #[test]
    fn own_namespace_keeps_roles_in_the_operators_namespace() {
        let p = preview_rbac(&csv(&["OwnNamespace"]), "b", &target(InstallModeType::OwnNamespace, None));
        assert_eq!(p.roles.len(), 1);
        // Names and hashes as OLM's code (run offline on this CSV) makes them.
        assert_eq!(p.roles[0].name, "etcd.v1-etcd-operator-7a2G2IFULMnd804xfsJwjZqnNiel8zBwppyGnO");
        assert_eq!(p.roles[0].labels["olm.permissions.hash"], "2WAtIFef2jz2hymVgAuiqllsC1T6HW7yN1LVIg");
        assert_eq!(p.roles[0].namespace.as_deref(), Some("operators"));
        assert_eq!(p.cluster_roles.len(), 1, "clusterPermissions are cluster-wide in every mode");
        assert_eq!(p.cluster_roles[0].name, "etcd.v1-3XPDtaBxlMvwmz9bh3zTfNitgsY1qDPSaF1rJH");
        let binding = &p.cluster_role_bindings[0];
        assert_eq!(binding.labels["olm.permissions.hash"], "8U0QC4pSITipaDCmoNdrgYo4eS5Fd9vRE65XQh");
        let pods = p.access.iter().find(|a| a.resource == "pods").unwrap();
        assert_eq!(
            (pods.namespace.as_deref(), pods.verbs.clone()),
            (Some("operators"), vec!["get".to_string(), "list".into()])
        );
        assert!(p.access.iter().any(|a| a.non_resource_url && a.resource == "/metrics" && a.namespace.is_none()));
    }

    #[test]
    fn roles_are_copied_into_each_target_namespace() {
        // Seed 000 §2.3.6: "Operator 命名空间中所有带有 olm.owner: <csv_name> 和 olm.owner.namespace:
        // <csv_namespace> 标签的 Role 和 RoleBinding 均会被复制到目标命名空间中".
        let t = target(InstallModeType::MultiNamespace, Some(&["b", "a"]));
        let p = preview_rbac(&csv(&["MultiNamespace"]), "b", &t);
        let at: Vec<Option<&str>> = p.roles.iter().map(|r| r.namespace.as_deref()).collect();
        assert_eq!(at, [Some("operators"), Some("a"), Some("b")]);
        assert_eq!(p.roles[1].labels["olm.copiedFrom"], "operators");
        assert_eq!(p.roles[1].labels["olm.permissions.hash"], p.roles[0].labels["olm.permissions.hash"]);
        assert_eq!(p.roles[1].labels["olm.owner.namespace"], "a");
        assert_eq!(p.role_bindings[2].service_account_namespace, "operators");
        let scopes: Vec<Option<&str>> =
            p.access.iter().filter(|a| a.resource == "pods").map(|a| a.namespace.as_deref()).collect();
        assert_eq!(scopes, [Some("operators"), Some("a"), Some("b")]);
    }

    #[test]
    fn all_namespaces_lifts_permissions_to_cluster_roles() {
        // Seed 000 §2.3.6: "如果 CSV 精确定义了一个包含 * 的目标命名空间，则会针对 CSV 权限字段中定义的每个权限
        // 生成一个 ClusterRole 和相应的 ClusterRoleBinding"; OLM adds get/list/watch on namespaces.
        let p = preview_rbac(&csv(&["AllNamespaces"]), "b", &target(InstallModeType::AllNamespaces, None));
        let lifted = p.cluster_roles.iter().find(|r| r.name == p.roles[0].name).unwrap();
        assert!(lifted.lifted && lifted.labels == p.roles[0].labels, "the Role's labels, hash included, are kept");
        assert_eq!(lifted.rules.last().unwrap().resources, ["namespaces"]);
        assert!(p.cluster_role_bindings.iter().any(|b| b.role_name == lifted.name && b.role_kind == "ClusterRole"));
        let pods = p.access.iter().find(|a| a.resource == "pods" && a.namespace.is_none());
        assert!(pods.is_some(), "pods cluster-wide");
        assert!(p.to_text().contains(" (the Role of the same name, lifted to cluster scope)\n"));
    }

    #[test]
    fn permissions_held_cluster_wide_are_neither_lifted_nor_copied() {
        // OLM's permissionStatus: clusterPermissions granting everything already cover the Role.
        let mut c = csv(&["AllNamespaces", "MultiNamespace"]);
        let everything = PolicyRule {
            verbs: vec!["*".into()],
            api_groups: vec!["*".into()],
            resources: vec!["*".into()],
            ..PolicyRule::default()
        };
        c.cluster_permissions.as_mut().unwrap()[0].rules.push(everything);
        c.cluster_permissions.as_mut().unwrap()[0].rules[0].verbs = vec!["*".into()];
        let p = preview_rbac(&c, "b", &target(InstallModeType::AllNamespaces, None));
        assert!(!p.cluster_roles.iter().any(|r| r.lifted));
        let p = preview_rbac(&c, "b", &target(InstallModeType::MultiNamespace, Some(&["a", "b"])));
        assert_eq!(p.roles.len(), 1, "no copies");
        // A rule without verbs stops OLM's check: nothing is copied, and the preview says why.
        let mut c = csv(&["MultiNamespace"]);
        c.permissions.as_mut().unwrap()[0].rules[0].verbs.clear();
        let p = preview_rbac(&c, "b", &target(InstallModeType::MultiNamespace, Some(&["a", "b"])));
        assert_eq!(p.permission_check_error.as_deref(), Some("rule invalid: policy rule must have at least one verb"));
        assert_eq!(p.roles.len(), 1);
        assert!(p.notes.iter().any(|n| n.starts_with("OLM's permission check fails")));
    }

    #[test]
    fn an_unsupported_mode_keeps_only_the_install_plans_objects() {
        let p = preview_rbac(&csv(&["OwnNamespace"]), "b", &target(InstallModeType::AllNamespaces, None));
        assert_eq!(
            p.unsupported.as_deref(),
            Some("AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces")
        );
        assert!(p.group_cluster_roles.is_empty() && p.api_cluster_roles.is_empty());
        assert_eq!(p.cluster_roles.len(), 1, "no lifted roles");
    }

    #[test]
    fn csv_metadata_has_no_permissions_to_preview() {
        let mut c = csv(&["AllNamespaces"]);
        (c.permissions, c.cluster_permissions, c.name) = (None, None, None);
        let p = preview_rbac(&c, "etcd.v2", &target(InstallModeType::AllNamespaces, None));
        assert_eq!(p.csv_name, "etcd.v2");
        assert!(!p.permissions_known && p.roles.is_empty());
        assert!(p.notes[0].contains("olm.csv.metadata"));
        assert!(!p.api_cluster_roles.is_empty(), "the API roles come from the CRD descriptions");
    }

    #[test]
    fn targets_must_fit_the_mode() {
        let e = RbacTarget::for_mode(InstallModeType::OwnNamespace, "ops", "og", Some(vec!["x".into()]));
        assert!(e.is_err());
        assert!(RbacTarget::for_mode(
            InstallModeType::SingleNamespace,
            "ops",
            "og",
            Some(vec!["a".into(), "b".into()])
        )
        .is_err());
        assert!(RbacTarget::for_mode(InstallModeType::AllNamespaces, "ops", "og", None).unwrap().is_all_namespaces());
    }

    #[test]
    fn the_text_leads_with_the_group_and_ends_with_the_table() {
        let p = preview_rbac(&csv(&["OwnNamespace"]), "b", &target(InstallModeType::OwnNamespace, None));
        let text = p.to_text();
        assert!(
            text.starts_with(
                "etcd.v1 as OwnNamespace: OperatorGroup og/operators in \"operators\" targeting \"operators\"\n"
            ),
            "{text}"
        );
        assert!(text.contains("what the operator may touch:\n  SERVICE ACCOUNT"), "{text}");
        assert!(text.contains("etcd-operator    operators       core                pods"), "{text}");
    }
}
