//! OLM v1 readiness lints (`olmv1-*`, run only when switched on): what operator-controller
//! refuses to install, or treats differently from OLM v0, so authors see what blocks the move.
//!
//! - Dependencies: OLM v1 resolves one package at a time and never installs a dependency; a
//!   bundle declaring `olm.package.required`, `olm.gvk.required` or `olm.constraint` is refused.
//! - Install modes: a registry+v1 bundle must support `AllNamespaces`; webhooks are allowed only
//!   for bundles supporting `AllNamespaces` alone; owned APIService definitions are refused.
//! - Versions: a 0.x upgrade that leaves its caret range (`^0.2.1` is `>=0.2.1 <0.3.0`), which
//!   OLM v1's version ranges and its former semver upgrade mode treat as breaking; build metadata
//!   that OLM v1 reads as a release (`1.0.0+2` above `1.0.0+1`) while OLM v0 ignores it.

use crate::diagnostic::{Code, Diagnostic, Location};
use crate::gotext::quote as q;
use crate::model::csv::CsvView;
use crate::model::{Bundle, Package};
use crate::property::Property;
use crate::version::Version;

/// The OLM v1 lints of one package.
pub fn package(p: &Package) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for b in &p.bundles {
        dependencies(b, &mut out);
        csv(b, &mut out);
        build_metadata(b, &mut out);
    }
    zero_major(p, &mut out);
    out
}

fn property_location(b: &Bundle, i: usize) -> Location {
    let raw = &b.raw_properties[i];
    b.source.at(raw.pos, format!("/properties/{i}"))
}

fn dependencies(b: &Bundle, out: &mut Vec<Diagnostic>) {
    for (i, prop) in &b.properties {
        let (code, what) = match prop {
            Property::PackageRequired(r) => (Code::Olmv1PackageRequired, format!("package {}", q(&r.package_name))),
            Property::GvkRequired(g) => (Code::Olmv1GvkRequired, format!("API {}/{} {}", g.group, g.version, g.kind)),
            Property::Constraint(_) => (Code::Olmv1Constraint, "an olm.constraint".to_string()),
            _ => continue,
        };
        out.push(Diagnostic::warning(
            code,
            format!(
                "bundle {} requires {what}: OLM v1 installs no dependencies and refuses bundles that declare them; a catalog for OLM v1 drops the property, and its users install what it names themselves first",
                q(&b.name.value)
            ),
            property_location(b, *i),
        ));
    }
}

fn csv(b: &Bundle, out: &mut Vec<Diagnostic>) {
    let Some(csv) = CsvView::from_bundle_without_permissions(b) else { return };
    let at = || property_location(b, csv.origin.property);
    let supported: Vec<&str> = csv.install_modes.iter().filter(|m| m.supported).map(|m| m.type_.as_str()).collect();
    let name = q(&b.name.value);
    if !supported.contains(&"AllNamespaces") {
        out.push(Diagnostic::warning(
            Code::Olmv1NoAllNamespaces,
            format!("bundle {name} does not support the AllNamespaces install mode, which OLM v1 requires of registry+v1 bundles (other modes only behind a feature gate): add {{\"type\": \"AllNamespaces\", \"supported\": true}} to the CSV's installModes if the operator can watch every namespace"),
            at(),
        ));
    }
    if csv.webhooks.as_ref().is_some_and(|w| !w.is_empty()) && supported.iter().any(|m| *m != "AllNamespaces") {
        out.push(Diagnostic::warning(
            Code::Olmv1Webhooks,
            format!("bundle {name} contains webhook definitions but supported install modes beyond AllNamespaces: OLM v1 refuses it; set \"supported\": false on the CSV's other install modes"),
            at(),
        ));
    }
    if !csv.owned_api_services.is_empty() {
        out.push(Diagnostic::warning(
            Code::Olmv1ApiService,
            format!(
                "bundle {name} owns APIService definitions: OLM v1 refuses it (apiServiceDefintions are not supported); no catalog edit fixes it: the operator must serve its APIs another way (CRDs)"
            ),
            at(),
        ));
    }
}

fn build_metadata(b: &Bundle, out: &mut Vec<Diagnostic>) {
    let Some(v) = b.version.as_ref().filter(|v| v.has_build() && b.release.is_none()) else { return };
    let i = b.properties.iter().find(|(_, p)| matches!(p, Property::Package(_))).map_or(0, |(i, _)| *i);
    out.push(Diagnostic::note(
        Code::Olmv1BuildMetadata,
        format!(
            "bundle {} has version {v}: OLM v1 reads build metadata as a release and orders by it, OLM v0 ignores it; for one order in both, give a rebuild the next patch version ({}.{}.{})",
            q(&b.name.value),
            v.major(),
            v.minor(),
            v.patch() + 1
        ),
        property_location(b, i),
    ));
}

/// Whether an upgrade `from` → `to` stays inside `^from` (Masterminds' caret on 0.x versions).
fn within_caret(from: &Version, to: &Version) -> bool {
    match (from.major(), from.minor()) {
        (0, 0) => to.major() == 0 && to.minor() == 0 && to.patch() == from.patch(),
        (0, minor) => to.major() == 0 && to.minor() == minor,
        _ => true,
    }
}

fn zero_major(p: &Package, out: &mut Vec<Diagnostic>) {
    // By name, first bundle of each name as `Package::bundle` finds it (a map: one lookup per edge).
    let mut by_name: crate::hash::HashMap<&str, &Bundle> = crate::hash::HashMap::default();
    for b in &p.bundles {
        by_name.entry(b.name.value.as_str()).or_insert(b);
    }
    let version = |name: &str| by_name.get(name).and_then(|b| b.version.as_ref());
    for c in &p.channels {
        for e in &c.entries {
            let Some(to) = version(&e.name.value).filter(|v| v.major() == 0) else { continue };
            let sources = std::iter::once(&e.replaces).chain(&e.skips).filter(|s| !s.value.is_empty());
            let crossing: Vec<String> = sources
                .filter(|s| version(&s.value).is_some_and(|from| from.major() == 0 && !within_caret(from, to)))
                .map(|s| s.value.clone())
                .collect();
            if crossing.is_empty() {
                continue;
            }
            let Some(source) = &c.source else { continue };
            out.push(Diagnostic::note(
                Code::Olmv1ZeroMajor,
                format!(
                    "channel {} upgrades {} to {} ({to}), across a 0.x minor version: OLM v1 version ranges such as ^0.y.z treat that as a breaking change and do not follow it; users must widen their ClusterExtension's version range to reach it",
                    q(&c.name),
                    crate::gotext::join_capped(&crossing, ", ", crate::gotext::LIST_CAP),
                    q(&e.name.value)
                ),
                source.at(e.pos, format!("/entries/{}", e.index)),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn lints(bundle_props: &str, entries: &str) -> Vec<(Code, String)> {
        lints_at("0.2.0", bundle_props, entries)
    }

    fn lints_at(version: &str, bundle_props: &str, entries: &str) -> Vec<(Code, String)> {
        let cat = format!(
            r#"{{"schema":"olm.package","name":"foo","defaultChannel":"stable"}}
{{"schema":"olm.channel","package":"foo","name":"stable","entries":{entries}}}
{{"schema":"olm.bundle","name":"foo.v0.1.0","package":"foo","image":"foo:1","properties":[{{"type":"olm.package","value":{{"packageName":"foo","version":"0.1.0"}}}}]}}
{{"schema":"olm.bundle","name":"foo.v0.2.0","package":"foo","image":"foo:2","properties":[{{"type":"olm.package","value":{{"packageName":"foo","version":"{version}"}}}}{bundle_props}]}}
"#
        );
        let loaded = load_files(&[FileInput::new("c.json", cat.into_bytes())]);
        let (m, _) = crate::model::build(&loaded.config);
        package(&m.packages[0]).into_iter().map(|d| (d.code, d.message)).collect()
    }

    const CHAIN: &str = r#"[{"name":"foo.v0.1.0"},{"name":"foo.v0.2.0","replaces":"foo.v0.1.0"}]"#;
    const SAME_MINOR: &str = r#"[{"name":"foo.v0.2.0"}]"#;

    fn codes(props: &str) -> Vec<Code> {
        lints(props, SAME_MINOR).into_iter().map(|(c, _)| c).collect()
    }

    fn csv(modes: &str, extra: &str) -> String {
        use base64::Engine as _;
        let csv = format!(
            r#"{{"apiVersion":"operators.coreos.com/v1alpha1","kind":"ClusterServiceVersion","metadata":{{"name":"foo.v0.2.0"}},"spec":{{"installModes":{modes}{extra}}}}}"#
        );
        let data = base64::engine::general_purpose::STANDARD.encode(csv);
        format!(r#",{{"type":"olm.bundle.object","value":{{"data":"{data}"}}}}"#)
    }

    const ALL: &str = r#"[{"type":"AllNamespaces","supported":true},{"type":"OwnNamespace","supported":false}]"#;
    const OWN: &str = r#"[{"type":"AllNamespaces","supported":false},{"type":"OwnNamespace","supported":true}]"#;
    const BOTH: &str = r#"[{"type":"AllNamespaces","supported":true},{"type":"OwnNamespace","supported":true}]"#;
    const WEBHOOK: &str = r#","webhookdefinitions":[{"type":"ValidatingAdmissionWebhook","generateName":"v.foo.io","deploymentName":"foo"}]"#;
    const APISERVICE: &str =
        r#","apiservicedefinitions":{"owned":[{"name":"v1.foo.io","group":"foo.io","version":"v1","kind":"Foo"}]}"#;

    #[test]
    fn dependencies_are_refused() {
        let pkg = r#",{"type":"olm.package.required","value":{"packageName":"bar","versionRange":">=1.0.0"}}"#;
        let gvk = r#",{"type":"olm.gvk.required","value":{"group":"bar.io","version":"v1","kind":"Bar"}}"#;
        let cons = r#",{"type":"olm.constraint","value":{"failureMessage":"x","package":{"packageName":"bar","versionRange":">=1"}}}"#;
        assert_eq!(
            lints(pkg, SAME_MINOR),
            [(Code::Olmv1PackageRequired, "bundle \"foo.v0.2.0\" requires package \"bar\": OLM v1 installs no dependencies and refuses bundles that declare them; a catalog for OLM v1 drops the property, and its users install what it names themselves first".to_string())]
        );
        assert_eq!(codes(gvk), [Code::Olmv1GvkRequired]);
        assert_eq!(codes(cons), [Code::Olmv1Constraint]);
    }

    #[test]
    fn all_namespaces_is_required() {
        assert_eq!(codes(&csv(ALL, "")), []);
        assert_eq!(codes(&csv(OWN, "")), [Code::Olmv1NoAllNamespaces]);
        // No CSV at all: nothing to say.
        assert_eq!(codes(""), []);
    }

    #[test]
    fn webhooks_need_all_namespaces_alone() {
        assert_eq!(codes(&csv(ALL, WEBHOOK)), []);
        assert_eq!(codes(&csv(BOTH, WEBHOOK)), [Code::Olmv1Webhooks]);
        assert_eq!(codes(&csv(BOTH, "")), []);
    }

    #[test]
    fn api_services_are_refused() {
        assert_eq!(codes(&csv(ALL, APISERVICE)), [Code::Olmv1ApiService]);
    }

    #[test]
    fn zero_x_minor_upgrades_leave_the_caret_range() {
        let found = lints("", CHAIN);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Code::Olmv1ZeroMajor);
        assert!(found[0].1.contains("upgrades foo.v0.1.0 to \"foo.v0.2.0\""), "{}", found[0].1);
        assert!(within_caret(&Version::new(0, 2, 1), &Version::new(0, 2, 5)));
        assert!(!within_caret(&Version::new(0, 0, 1), &Version::new(0, 0, 2)));
        assert!(within_caret(&Version::new(1, 2, 1), &Version::new(1, 3, 0)));
    }

    #[test]
    fn build_metadata_is_a_release_for_olm_v1() {
        let found = lints_at("0.2.0+2", "", SAME_MINOR);
        assert_eq!(
            found,
            [(Code::Olmv1BuildMetadata, "bundle \"foo.v0.2.0\" has version 0.2.0+2: OLM v1 reads build metadata as a release and orders by it, OLM v0 ignores it; for one order in both, give a rebuild the next patch version (0.2.1)".to_string())]
        );
        assert_eq!(lints_at("0.2.0", "", SAME_MINOR), []);
    }
}
