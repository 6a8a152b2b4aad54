//! The `operatorgroup.json` suite (resolver.md §12.3): install-mode support, provided-API
//! reconciliation, the `olm.providedAPIs` annotation read and written, group targets and group
//! intersection, each case run through the `operatorgroup` analysis.

use std::collections::BTreeSet;

use olm_catalog::model::csv::InstallMode;
use olm_catalog::operatorgroup::{
    parse_provided_apis, reconcile_api_intersection, render_provided_apis, ApiSet, GroupSurface, InstallModeSet,
};
use olm_catalog::property::Gvk;
use serde_json::Value;

/// Run one case.
pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    match case["kind"].as_str().unwrap_or("") {
        "installmode-supports" => installmode_supports(input, expect),
        "og-api-reconcile" => {
            let got = reconcile_api_intersection(
                &apis(&input["add"]),
                &group(&input["group"]),
                &groups(&input["otherGroups"]),
            );
            same(got.as_str(), expect["result"].as_str().unwrap_or(""))
        }
        "gvk-string-parse" => {
            let got = parse_provided_apis(input["annotation"].as_str().unwrap_or(""));
            same(got, apis(&expect["apis"]))
        }
        "apiset-string" => {
            same(render_provided_apis(&apis(&input["apis"])), expect["annotation"].as_str().unwrap_or("").into())
        }
        "og-targets" => same(group(&input["group"]).targets, strings(&expect["targets"]).into_iter().collect()),
        "og-group-intersection" => {
            let others = groups(&input["otherGroups"]);
            let got: Vec<String> =
                group(&input["group"]).intersecting(&others).iter().map(|g| g.identifier()).collect();
            same(got, strings(&expect["intersecting"]))
        }
        other => Err(format!("kind {other} is unknown")),
    }
}

fn same<T: PartialEq + std::fmt::Debug>(got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("got {got:?}, want {want:?}"))
    }
}

/// `Supports` on `installModes` (a type → flag map) or `installModesList` (made into a set first,
/// which may fail); `expect.error` is null or a prefix of the message.
fn installmode_supports(input: &Value, expect: &Value) -> Result<(), String> {
    let set = match input["installModesList"].as_array() {
        Some(list) => {
            let modes: Vec<InstallMode> = list
                .iter()
                .map(|m| InstallMode {
                    type_: m["type"].as_str().unwrap_or("").into(),
                    supported: m["supported"] == true,
                })
                .collect();
            InstallModeSet::new(&modes).map_err(|e| e.to_string())
        }
        None => {
            let flags = input["installModes"].as_object().into_iter().flatten();
            Ok(InstallModeSet::from_flags(flags.map(|(t, s)| (t.as_str(), s == true))))
        }
    };
    let ns = input["operatorNamespace"].as_str().unwrap_or("");
    let got = set.and_then(|s| s.supports(ns, &strings(&input["targetNamespaces"])).map_err(|e| e.to_string()));
    match (got, expect["error"].as_str()) {
        (Ok(()), None) => Ok(()),
        (Err(e), Some(want)) if e.starts_with(want) => Ok(()),
        (got, want) => Err(format!("got {got:?}, want error {want:?}")),
    }
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().filter_map(|s| s.as_str().map(str::to_string)).collect()
}

fn apis(v: &Value) -> ApiSet {
    let text = |a: &Value, k: &str| a[k].as_str().unwrap_or("").to_string();
    v.as_array()
        .into_iter()
        .flatten()
        .map(|a| Gvk::new(&text(a, "group"), &text(a, "version"), &text(a, "kind")))
        .collect::<BTreeSet<_>>()
}

/// A group as the cases write it: `{namespace, name, statusNamespaces, providedAPIsAnnotation}`.
fn group(g: &Value) -> GroupSurface {
    let s = |k: &str| g[k].as_str().unwrap_or("");
    GroupSurface::new(s("name"), s("namespace"), &strings(&g["statusNamespaces"]), s("providedAPIsAnnotation"))
}

fn groups(v: &Value) -> Vec<GroupSurface> {
    v.as_array().into_iter().flatten().map(group).collect()
}
