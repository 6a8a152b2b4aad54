//! The multitenancy check (seed 002 §2.7.2): several instances of one operator, one per tenant,
//! each in its own operator namespace with an OperatorGroup scoped to the tenant's namespaces,
//! and the limits under which that pattern works, each reported as a finding with a
//! `multitenancy-*` code:
//!
//! - all instances on the same version ([`Code::MultitenancyVersionSkew`]);
//! - an older instance owning an older revision of CRDs the cluster already uses
//!   ([`Code::MultitenancyOlderCrd`]);
//! - owned CRDs are one cluster-wide object shared by every tenant ([`Code::MultitenancySharedCrds`]);
//! - no dependencies on other operators ([`Code::MultitenancyDependency`]);
//! - no CRD conversion webhooks ([`Code::MultitenancyConversionWebhook`]);
//! - the operator's namespace apart from the tenant's ([`Code::MultitenancyOperatorInTenantNamespace`]);
//! - each group scoped to its tenant only: groups whose targets intersect provide the same APIs
//!   ([`Code::MultitenancyOverlappingTargets`]).

use std::collections::BTreeSet;

use crate::diagnostic::{Code, Diagnostic, Location};
use crate::model::csv::CsvView;
use crate::model::Bundle;
use crate::property::Property;
use crate::version::Version;

/// One instance of the operator: a bundle installed in an operator namespace, watching targets.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The operator namespace.
    pub namespace: String,
    /// The group's target namespaces (`[""]` all namespaces), when known.
    pub targets: Option<Vec<String>>,
    /// The bundle name.
    pub bundle: String,
    /// The bundle's version.
    pub version: Option<Version>,
    /// The bundle's CSV, when it has one.
    pub csv: Option<CsvView>,
    /// What the bundle depends on, in words (`olm.package.required`, `olm.gvk.required`,
    /// `olm.constraint`, the CSV's required CRDs and API services).
    pub dependencies: Vec<String>,
    /// Where the bundle is (its CSV property when it has one).
    pub at: Location,
}

impl Instance {
    /// The instance of `bundle` in `namespace` watching `targets`.
    pub fn from_bundle(bundle: &Bundle, namespace: &str, targets: Option<Vec<String>>) -> Instance {
        let csv = CsvView::from_bundle(bundle);
        let at = match &csv {
            Some(c) => bundle.source.at(c.origin.pos, format!("/properties/{}", c.origin.property)),
            None => bundle.source.at(bundle.name.pos, "/name".to_string()),
        };
        let mut dependencies: Vec<String> = bundle.properties.iter().filter_map(|(_, p)| dependency(p)).collect();
        if let Some(c) = &csv {
            dependencies.extend(c.required_crds.iter().map(|r| format!("required CRD {} {}", r.name, r.version)));
            dependencies.extend(
                c.required_api_services
                    .iter()
                    .map(|r| format!("required API service {}.{} {}", r.name, r.group, r.version)),
            );
        }
        Instance {
            namespace: namespace.to_string(),
            targets,
            bundle: bundle.name.value.clone(),
            version: bundle.version.clone(),
            csv,
            dependencies,
            at,
        }
    }

    fn owned_crds(&self) -> BTreeSet<String> {
        self.csv.iter().flat_map(|c| c.owned_crds.iter().map(|d| d.name.clone())).collect()
    }

    fn label(&self) -> String {
        format!("{} in {:?}", self.bundle, self.namespace)
    }
}

fn dependency(p: &Property) -> Option<String> {
    match p {
        Property::PackageRequired(r) => Some(format!("olm.package.required {} {}", r.package_name, r.version_range)),
        Property::GvkRequired(g) => Some(format!("olm.gvk.required {}/{} {}", g.group, g.version, g.kind)),
        Property::Constraint(_) => Some("olm.constraint".to_string()),
        _ => None,
    }
}

/// The findings about `instances` (of one package) as tenants of one cluster; none for fewer
/// than two instances except the per-instance limits (dependencies, conversion webhooks, the
/// operator in its tenant's namespace).
pub fn multitenancy(instances: &[Instance]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    versions(instances, &mut out);
    shared_crds(instances, &mut out);
    for i in instances {
        per_instance(i, &mut out);
    }
    overlaps(instances, &mut out);
    out
}

/// The newest version among the instances.
fn newest(instances: &[Instance]) -> Option<&Version> {
    instances.iter().filter_map(|i| i.version.as_ref()).max()
}

/// "同一 Operator 的所有实例都必须是相同的版本" and "实例不是 Operator 的最新版本 / 该实例提供了一个较老的
/// CRD 修订": every instance not on the newest version, and the older CRDs it would bring.
fn versions(instances: &[Instance], out: &mut Vec<Diagnostic>) {
    let Some(newest) = newest(instances) else { return };
    let Some(top) = instances.iter().find(|i| i.version.as_ref() == Some(newest)) else { return };
    for i in instances.iter().filter(|i| i.version.as_ref().is_some_and(|v| v < newest)) {
        let v = i.version.as_ref().map(ToString::to_string).unwrap_or_default();
        out.push(Diagnostic::warning(
            Code::MultitenancyVersionSkew,
            format!(
                "{} runs version {v} while {} runs {newest}: all instances of one operator must be the same \
                 version (one cluster cannot run different versions of the same operator); upgrade it to {} too",
                i.label(),
                top.label(),
                top.bundle
            ),
            i.at.clone(),
        ));
        let shared: Vec<String> = i.owned_crds().intersection(&top.owned_crds()).cloned().collect();
        if !shared.is_empty() {
            out.push(Diagnostic::warning(
                Code::MultitenancyOlderCrd,
                format!(
                    "{} is not the newest version and owns an older revision of {}, which {} already uses: \
                     installing it is blocked, or it would lack versions and fields the newer revision serves; \
                     install {} in {:?} instead",
                    i.label(),
                    shared.join(", "),
                    top.label(),
                    top.bundle,
                    i.namespace
                ),
                i.at.clone(),
            ));
        }
    }
}

/// Owned CRDs are cluster-scoped: one object for every tenant, with the newest schema.
fn shared_crds(instances: &[Instance], out: &mut Vec<Diagnostic>) {
    if instances.len() < 2 {
        return;
    }
    let crds: BTreeSet<String> = instances.iter().flat_map(Instance::owned_crds).collect();
    let Some(first) = instances.first() else { return };
    if crds.is_empty() {
        return;
    }
    let names: Vec<String> = crds.into_iter().collect();
    out.push(Diagnostic::warning(
        Code::MultitenancySharedCrds,
        format!(
            "the {} instances share the cluster-wide CRDs {}: one object each for every tenant, with the newest \
             schema any instance installs; tenants must stay on one version line so the CRDs do not change: \
             upgrade every instance together",
            instances.len(),
            names.join(", ")
        ),
        first.at.clone(),
    ));
}

/// "Operator 无法依赖于其他 Operator", "Operator 无法提供 CRD 转换 Webhook", and the operator
/// namespace apart from the tenant's.
fn per_instance(i: &Instance, out: &mut Vec<Diagnostic>) {
    if !i.dependencies.is_empty() {
        out.push(Diagnostic::warning(
            Code::MultitenancyDependency,
            format!(
                "{} depends on other operators ({}): an instance per tenant cannot depend on other operators; \
                 OLM v0 resolves dependencies in each operator namespace and installs a copy of each there; \
                 use a bundle without dependencies, or install the operator once for all tenants",
                i.label(),
                i.dependencies.join("; ")
            ),
            i.at.clone(),
        ));
    }
    let hooks: Vec<&str> = i
        .csv
        .iter()
        .flat_map(|c| c.webhooks.iter().flatten())
        .filter(|w| w.type_ == "ConversionWebhook")
        .map(|w| w.generate_name.as_str())
        .collect();
    if !hooks.is_empty() {
        out.push(Diagnostic::warning(
            Code::MultitenancyConversionWebhook,
            format!(
                "{} provides CRD conversion webhooks ({}): an operator installed per tenant cannot provide them; \
                 OLM runs conversion webhooks only for operators in an AllNamespaces group; install it once, \
                 in an AllNamespaces group, for all tenants",
                i.label(),
                hooks.join(", ")
            ),
            i.at.clone(),
        ));
    }
    if i.targets.as_ref().is_some_and(|t| t.contains(&i.namespace)) {
        out.push(Diagnostic::warning(
            Code::MultitenancyOperatorInTenantNamespace,
            format!(
                "{} watches its own namespace: create the tenant operator's namespace apart from the tenant's, \
                 so that the operator's pods and service account are not visible to the tenant; install it in \
                 a namespace of its own (such as {:?}) whose OperatorGroup targets {:?}",
                i.label(),
                format!("{}-operator", i.namespace),
                i.namespace
            ),
            i.at.clone(),
        ));
    }
}

/// "为租户 Operator 创建 Operator 组，范围仅限于租户的命名空间": groups whose targets intersect.
fn overlaps(instances: &[Instance], out: &mut Vec<Diagnostic>) {
    for (n, a) in instances.iter().enumerate() {
        for b in &instances[n + 1..] {
            let (Some(ta), Some(tb)) = (&a.targets, &b.targets) else { continue };
            let all = |t: &Vec<String>| t.iter().any(String::is_empty);
            let common: Vec<&String> = ta.iter().filter(|t| tb.contains(t)).collect();
            if common.is_empty() && !all(ta) && !all(tb) {
                continue;
            }
            let (what, fix) = if common.is_empty() {
                ("all namespaces".to_string(), "give each group its tenant's namespaces instead".to_string())
            } else {
                let names = common.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>().join(", ");
                (names.clone(), format!("remove {names} from one group's targetNamespaces"))
            };
            out.push(Diagnostic::warning(
                Code::MultitenancyOverlappingTargets,
                format!(
                    "{} and {} both watch {what}: each tenant's OperatorGroup must target only that tenant's \
                     namespaces; intersecting groups providing the same APIs fail the later CSV \
                     (InterOperatorGroupOwnerConflict); {fix}",
                    a.label(),
                    b.label()
                ),
                b.at.clone(),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    /// Bundles `p.v<version>` of package `p`, each with a CSV owning `widgets.example.com` and with
    /// `extra` properties.
    fn bundles(versions: &[(&str, &str)]) -> Vec<Bundle> {
        use ::base64::Engine as _;
        let mut text = String::from(r#"{"schema":"olm.package","name":"p","defaultChannel":"c"}"#);
        for (v, extra) in versions {
            let csv = format!(
                "kind: ClusterServiceVersion\nmetadata: {{name: p.v{v}}}\nspec:\n  customresourcedefinitions:\n    owned: [{{name: widgets.example.com, version: v1, kind: Widget}}]\n{extra}"
            );
            let data = ::base64::engine::general_purpose::STANDARD.encode(csv);
            text.push_str(&format!(
                r#"
{{"schema":"olm.bundle","package":"p","name":"p.v{v}","image":"x/p:{v}","properties":[{{"type":"olm.package","value":{{"packageName":"p","version":"{v}"}}}},{{"type":"olm.bundle.object","value":{{"data":"{data}"}}}}]}}"#
            ));
        }
        let (model, _) = crate::model::build(&load_files(&[FileInput::new("c.json", text)]).config);
        model.packages[0].bundles.clone()
    }

    fn tenant(b: &Bundle, ns: &str, targets: &[&str]) -> Instance {
        Instance::from_bundle(b, ns, Some(targets.iter().map(|t| t.to_string()).collect()))
    }

    fn codes(findings: &[Diagnostic]) -> Vec<&str> {
        findings.iter().map(|d| d.code.as_str()).collect()
    }

    #[test]
    fn all_instances_of_the_same_operator_must_be_the_same_version() {
        // Seed 002: "同一 Operator 的所有实例都必须是相同的版本。" and "该实例提供了一个较老的 CRD 修订，
        // 它缺少新修订版本已在集群中使用的信息或版本。"
        let b = bundles(&[("1.0.0", ""), ("1.1.0", "")]);
        let f = multitenancy(&[tenant(&b[0], "op-a", &["a"]), tenant(&b[1], "op-b", &["b"])]);
        assert_eq!(codes(&f), ["multitenancy-version-skew", "multitenancy-older-crd", "multitenancy-shared-crds"]);
        assert!(
            f[0].message.starts_with("p.v1.0.0 in \"op-a\" runs version 1.0.0 while p.v1.1.0 in \"op-b\" runs 1.1.0"),
            "{}",
            f[0].message
        );
        assert!(f[0].message.ends_with("upgrade it to p.v1.1.0 too"), "the fix: {}", f[0].message);
        assert!(f[1].message.contains("older revision of widgets.example.com"), "{}", f[1].message);
        assert!(f[1].message.ends_with("install p.v1.1.0 in \"op-a\" instead"), "the fix: {}", f[1].message);
        assert_eq!(f[0].location.pointer, "/properties/1", "located at the older bundle's CSV");
    }

    #[test]
    fn crds_are_shared_cluster_wide_even_on_one_version() {
        // Seed 002: "这些租户也必须强制使用 Operator 的同一版本行，以确保 CRD 不会改变。"
        let b = bundles(&[("1.0.0", "")]);
        let f = multitenancy(&[tenant(&b[0], "op-a", &["a"]), tenant(&b[0], "op-b", &["b"])]);
        assert_eq!(codes(&f), ["multitenancy-shared-crds"]);
        assert!(f[0].message.contains("share the cluster-wide CRDs widgets.example.com"));
        assert!(multitenancy(&[tenant(&b[0], "op-a", &["a"])]).is_empty(), "one instance alone is fine");
    }

    #[test]
    fn operators_cannot_depend_on_other_operators() {
        // Seed 002: "Operator 无法依赖于其他 Operator。"
        let b = bundles(&[("1.0.0", "    required: [{name: gadgets.example.com, version: v1, kind: Gadget}]\n")]);
        let f = multitenancy(&[tenant(&b[0], "op-a", &["a"])]);
        assert_eq!(codes(&f), ["multitenancy-dependency"]);
        assert!(f[0].message.contains("required CRD gadgets.example.com v1"), "{}", f[0].message);
    }

    #[test]
    fn operators_cannot_provide_crd_conversion_webhooks() {
        // Seed 002: "Operator 无法提供 CRD 转换 Webhook。"
        let hook = "  webhookdefinitions:\n  - {type: ConversionWebhook, generateName: cw.example.com, conversionCRDs: [widgets.example.com]}\n";
        let b = bundles(&[("1.0.0", hook)]);
        let f = multitenancy(&[tenant(&b[0], "op-a", &["a"])]);
        assert_eq!(codes(&f), ["multitenancy-conversion-webhook"]);
        assert!(f[0].message.contains("cw.example.com"));
    }

    #[test]
    fn the_operator_namespace_is_separate_from_the_tenants() {
        // Seed 002: "为租户 Operator 创建命名空间，与租户的命名空间分开。"
        let b = bundles(&[("1.0.0", "")]);
        let f = multitenancy(&[tenant(&b[0], "a", &["a"])]);
        assert_eq!(codes(&f), ["multitenancy-operator-in-tenant-namespace"]);
        assert!(
            f[0].message.ends_with("a namespace of its own (such as \"a-operator\") whose OperatorGroup targets \"a\""),
            "the fix: {}",
            f[0].message
        );
    }

    #[test]
    fn each_tenant_group_is_scoped_to_its_tenant_only() {
        // Seed 002: "为租户 Operator 创建 Operator 组，范围仅限于租户的命名空间。"
        let b = bundles(&[("1.0.0", "")]);
        let f = multitenancy(&[tenant(&b[0], "op-a", &["a", "shared"]), tenant(&b[0], "op-b", &["b", "shared"])]);
        assert_eq!(codes(&f), ["multitenancy-shared-crds", "multitenancy-overlapping-targets"]);
        assert!(f[1].message.contains("both watch \"shared\""), "{}", f[1].message);
        assert!(f[1].message.ends_with("remove \"shared\" from one group's targetNamespaces"), "{}", f[1].message);
        let f = multitenancy(&[tenant(&b[0], "op-a", &["a"]), tenant(&b[0], "op-all", &[""])]);
        assert!(f.iter().any(|d| d.message.contains("both watch all namespaces")));
    }
}
