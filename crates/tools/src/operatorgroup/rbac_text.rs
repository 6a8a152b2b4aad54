//! The plain-text rendering of an [`RbacPreview`]: the group assumed, the generated roles and
//! bindings, and "what the operator may touch" as an aligned table.

use super::rbac::{Access, GeneratedRole, RbacPreview, Rule};

impl RbacPreview {
    /// The preview as text, for the CLI.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let t = &self.target;
        let targets = if t.is_all_namespaces() {
            "all namespaces".to_string()
        } else {
            t.target_namespaces.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
        };
        out.push_str(&format!(
            "{} as {}: OperatorGroup {}/{} in {:?} targeting {targets}\n",
            self.csv_name, t.install_mode, t.operator_group, t.operator_namespace, t.operator_namespace
        ));
        if let Some(m) = &self.unsupported {
            out.push_str(&format!("  not supported: {m}\n"));
        }
        roles_section(&mut out, "OperatorGroup ClusterRoles", &self.group_cluster_roles);
        roles_section(&mut out, "provided-API ClusterRoles", &self.api_cluster_roles);
        roles_section(&mut out, "Roles", &self.roles);
        bindings_section(&mut out, "RoleBindings", &self.role_bindings);
        roles_section(&mut out, "ClusterRoles", &self.cluster_roles);
        bindings_section(&mut out, "ClusterRoleBindings", &self.cluster_role_bindings);
        access_section(&mut out, &self.access);
        if !self.notes.is_empty() {
            out.push_str("notes:\n");
            for n in &self.notes {
                out.push_str(&format!("  - {n}\n"));
            }
        }
        out
    }
}

fn roles_section(out: &mut String, title: &str, roles: &[GeneratedRole]) {
    if roles.is_empty() {
        return;
    }
    out.push_str(&format!("{title}:\n"));
    for r in roles {
        let at = r.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
        let lifted = if r.lifted { " (the Role of the same name, lifted to cluster scope)" } else { "" };
        out.push_str(&format!("  {at}{}{lifted}\n", r.name));
        let labels: Vec<String> = r.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("    labels: {}\n", labels.join(", ")));
        for s in &r.aggregation_selectors {
            let sel: Vec<String> = s.iter().map(|(k, v)| format!("{k}={v}")).collect();
            out.push_str(&format!("    aggregates: {}\n", sel.join(", ")));
        }
        if r.aggregation_selectors.is_empty() && r.rules.is_empty() {
            out.push_str("    (no rules, no aggregation: the group provides no API)\n");
        }
        for rule in &r.rules {
            out.push_str(&format!("    {}\n", rule_text(rule)));
        }
    }
}

fn bindings_section(out: &mut String, title: &str, bindings: &[super::rbac::GeneratedBinding]) {
    if bindings.is_empty() {
        return;
    }
    out.push_str(&format!("{title}:\n"));
    for b in bindings {
        let at = b.namespace.as_deref().map(|n| format!("{n}/")).unwrap_or_default();
        out.push_str(&format!(
            "  {at}{} -> {} {} for ServiceAccount {}/{}\n",
            b.name, b.role_kind, b.role_name, b.service_account_namespace, b.service_account
        ));
    }
}

/// `verbs on group/resources [names]` or `verbs on URLs`.
fn rule_text(r: &Rule) -> String {
    let verbs = r.verbs.join(",");
    if !r.non_resource_urls.is_empty() {
        return format!("{verbs} on non-resource URLs {}", r.non_resource_urls.join(","));
    }
    let groups: Vec<&str> = r.api_groups.iter().map(|g| if g.is_empty() { "core" } else { g.as_str() }).collect();
    let names =
        if r.resource_names.is_empty() { String::new() } else { format!(" named {}", r.resource_names.join(",")) };
    format!("{verbs} on {} in {}{names}", r.resources.join(","), groups.join(","))
}

fn access_section(out: &mut String, access: &[Access]) {
    if access.is_empty() {
        return;
    }
    out.push_str("what the operator may touch:\n");
    let mut rows = vec![["SERVICE ACCOUNT", "NAMESPACE", "API GROUP", "RESOURCE", "VERBS"].map(String::from)];
    for a in access {
        let scope = a.namespace.clone().unwrap_or_else(|| "(cluster-wide)".into());
        let group = if a.non_resource_url {
            "(non-resource URL)".to_string()
        } else if a.api_group.is_empty() {
            "core".to_string()
        } else {
            a.api_group.clone()
        };
        let resource = if a.resource_names.is_empty() {
            a.resource.clone()
        } else {
            format!("{} ({})", a.resource, a.resource_names.join(","))
        };
        rows.push([a.service_account.clone(), scope, group, resource, a.verbs.join(",")]);
    }
    let mut widths = [0usize; 5];
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    for r in &rows {
        let cells: Vec<String> = r.iter().zip(widths).map(|(c, w)| format!("{c:<w$}")).collect();
        out.push_str(&format!("  {}\n", cells.join("  ").trim_end()));
    }
}
