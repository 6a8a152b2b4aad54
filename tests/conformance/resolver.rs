//! Runners for the resolver suites: `olm-resolver.json` (resolve, solver, sort-channel,
//! constraint-parse, cel), and the `v0-next` and `v1-resolve` cases of `olm-upgrade.json`.

use olm_catalog::cluster::problem_json::{InstalledJson as InstalledOperator, ProblemJson as Problem};
use olm_catalog::cluster::{Cluster, Subscription};
use olm_catalog::internals::solver::{self, from_ids, IdConstraint, SolveError, DEFAULT_CONFLICT_BUDGET};
use olm_catalog::internals::CelRule;
use olm_catalog::internals::{v0_order_links, Links};
use olm_catalog::property::parse_constraint as parse_raw;
use olm_catalog::resolve::v1::{resolve_v1, V1Problem};
use olm_catalog::resolve::{resolve, ResolveError};
use serde_json::Value;

fn strings(v: &Value) -> Vec<String> {
    v.as_array().map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// The cluster a problem describes (inline catalogs built into models).
fn cluster(problem: &Problem) -> Cluster {
    problem.clone().into_cluster().expect("inline catalogs")
}

fn problem_of(input: &Value) -> Result<Problem, String> {
    serde_json::from_value(input.clone()).map_err(|e| format!("input does not deserialize: {e}"))
}

/// Every expected substring must be in `text`.
fn contains_all(text: &str, want: &[String]) -> Result<(), String> {
    for w in want {
        if !text.contains(w.as_str()) {
            return Err(format!("error {text:?} lacks {w:?}"));
        }
    }
    Ok(())
}

pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    match case["kind"].as_str().unwrap_or("") {
        "resolve" => run_resolve(case),
        "solver" => {
            let mut vars = Vec::new();
            for v in input["variables"].as_array().cloned().unwrap_or_default() {
                let mut cs = Vec::new();
                for c in v["constraints"].as_array().cloned().unwrap_or_default() {
                    cs.push(match c["type"].as_str().unwrap_or("") {
                        "mandatory" => IdConstraint::Mandatory,
                        "prohibited" => IdConstraint::Prohibited,
                        "dependency" => IdConstraint::Dependency(strings(&c["ids"])),
                        "conflict" => IdConstraint::Conflict(c["id"].as_str().unwrap_or("").into()),
                        "atMost" => IdConstraint::AtMost(c["n"].as_u64().unwrap_or(0) as usize, strings(&c["ids"])),
                        other => return Err(format!("constraint type {other}")),
                    });
                }
                vars.push((v["id"].as_str().unwrap_or("").to_string(), cs));
            }
            let outcome = from_ids(&vars).and_then(|vs| match solver::solve(&vs, DEFAULT_CONFLICT_BUDGET) {
                Ok(s) => {
                    let mut names: Vec<String> = s.installed.iter().map(|&i| vs[i].id.clone()).collect();
                    names.sort();
                    Ok(names)
                }
                Err(SolveError::NotSatisfiable(core)) => Err(format!(
                    "constraints not satisfiable: {}",
                    core.iter().map(|a| solver::message(&vs, *a)).collect::<Vec<_>>().join(", ")
                )),
                Err(e) => Err(e.to_string()),
            });
            match (outcome, expect["installed"].is_null()) {
                (Ok(got), false) => {
                    let want = strings(&expect["installed"]);
                    if got == want {
                        Ok(())
                    } else {
                        Err(format!("installed {got:?}, want {want:?}"))
                    }
                }
                (Err(e), true) => contains_all(&e, &strings(&expect["errors"])),
                (Ok(got), true) => Err(format!("installed {got:?}, want an error")),
                (Err(e), false) => Err(format!("error {e}, want a solution")),
            }
        }
        "sort-channel" => {
            let entries = input["entries"].as_array().cloned().unwrap_or_default();
            let skips: Vec<Vec<String>> = entries.iter().map(|e| strings(&e["skips"])).collect();
            let links: Vec<Links<String>> = entries
                .iter()
                .zip(&skips)
                .map(|(e, s)| Links {
                    name: e["name"].as_str().unwrap_or(""),
                    replaces: e["replaces"].as_str().unwrap_or(""),
                    skips: s,
                })
                .collect();
            let got = v0_order_links(
                input["package"].as_str().unwrap_or(""),
                input["channel"].as_str().unwrap_or(""),
                &links,
            );
            match (got, expect["error"].as_str()) {
                (Ok(order), None) => {
                    let names: Vec<String> = order.iter().map(|&i| links[i].name.to_string()).collect();
                    let want = strings(&expect["order"]);
                    if names == want {
                        Ok(())
                    } else {
                        Err(format!("order {names:?}, want {want:?}"))
                    }
                }
                (Err(e), Some(want)) if e.to_string() == want => Ok(()),
                (got, want) => Err(format!("got {got:?}, want error {want:?}")),
            }
        }
        "constraint-parse" => {
            let raw = match &input["raw"] {
                Value::String(s) => s.clone(),
                Value::Object(g) if g.get("generate").and_then(Value::as_str) == Some("131073 arbitrary bytes") => {
                    "x".repeat(131_073)
                }
                other => return Err(format!("raw {other}")),
            };
            match (parse_raw(&raw), expect["error"].as_str()) {
                (Ok(c), None) => {
                    if c.to_json() == expect["parsed"] {
                        Ok(())
                    } else {
                        Err(format!("parsed {}, want {}", c.to_json(), expect["parsed"]))
                    }
                }
                (Err(e), Some(want)) if e.to_string() == want => Ok(()),
                (got, want) => Err(format!("got {got:?}, want error {want:?}")),
            }
        }
        "cel" => {
            let props = input["properties"].as_array().cloned().unwrap_or_default();
            let pairs: Vec<(&str, &Value)> =
                props.iter().map(|p| (p["type"].as_str().unwrap_or(""), &p["value"])).collect();
            match (CelRule::compile(input["rule"].as_str().unwrap_or("")), expect["compileError"].as_bool()) {
                (Err(e), Some(true)) => match expect["errorText"].as_str() {
                    Some(want) if e.to_string() != want => {
                        Err(format!("error text {:?}, want {want:?}", e.to_string()))
                    }
                    _ => Ok(()),
                },
                (Ok(rule), Some(false)) => {
                    let got = rule.matches(&pairs);
                    if Some(got) == expect["result"].as_bool() {
                        Ok(())
                    } else {
                        Err(format!("result {got}, want {}", expect["result"]))
                    }
                }
                (Ok(_), _) => Err("compiled, want a compile error".into()),
                (Err(e), _) => Err(format!("compile error {e}")),
            }
        }
        other => Err(format!("unknown kind {other}")),
    }
}

fn run_resolve(case: &Value) -> Result<(), String> {
    let expect = &case["expect"];
    let problem = problem_of(&case["input"])?;
    let outcome = resolve(&cluster(&problem));
    let want_type = expect["errorType"].as_str();
    match outcome {
        Ok(r) => {
            if let Some(t) = want_type {
                return Err(format!(
                    "resolved {:?}, want a {t} error",
                    r.install.iter().map(|i| &i.name).collect::<Vec<_>>()
                ));
            }
            let got: Vec<String> = r.install.iter().map(|i| i.name.clone()).collect();
            if case["tieBreakDependent"].as_bool() == Some(true) {
                let options: Vec<Vec<String>> = expect["acceptableInstalls"]
                    .as_array()
                    .map(|a| a.iter().map(strings).collect())
                    .unwrap_or_default();
                if !options.contains(&got) {
                    return Err(format!("install {got:?}, want one of {options:?}"));
                }
            } else {
                let want = strings(&expect["install"]);
                if got != want {
                    return Err(format!("install {got:?}, want {want:?}"));
                }
            }
            for d in expect["installDetails"].as_array().cloned().unwrap_or_default() {
                let found = r.install.iter().any(|i| {
                    d["name"].as_str() == Some(&i.name)
                        && d["catalog"].as_str() == Some(&i.catalog)
                        && d["catalogNamespace"].as_str() == Some(&i.catalog_namespace)
                        && d["channel"].as_str() == Some(&i.channel)
                        && d["replaces"].as_str() == i.replaces.as_deref()
                        && (d.get("startingCSV").is_none() || d["startingCSV"].as_str() == i.starting_csv.as_deref())
                });
                if !found {
                    return Err(format!("no install matches {d}; got {:?}", r.install));
                }
            }
            Ok(())
        }
        Err(e) => {
            let text = e.to_string();
            match want_type {
                None => Err(format!("error {text}, want success")),
                Some(t) if t != e.kind() => Err(format!("{} error {text}, want {t}", e.kind())),
                Some(_) => contains_all(&text, &strings(&expect["errors"])),
            }
        }
    }
}

/// `v0-next`: resolve repeatedly, installing each step, until the followed subscription's
/// package gets nothing new.
pub fn run_v0_next(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    let follow = input["follow"].as_str().unwrap_or("");
    let mut problem = problem_of(input)?;
    let package = problem
        .subscriptions
        .iter()
        .find(|s| s.name == follow)
        .map(|s| s.package.clone())
        .ok_or("no followed subscription")?;
    let mut path: Vec<String> = Vec::new();
    for _ in 0..100 {
        let r = resolve(&cluster(&problem)).map_err(|e: ResolveError| format!("resolution failed: {e}"))?;
        let Some(step) = r.install.iter().find(|i| i.package == package) else { break };
        path.push(step.name.clone());
        for i in &r.install {
            // The new CSV takes the catalog bundle's properties; what it replaces goes away.
            let props = problem
                .catalogs
                .iter()
                .filter(|c| c.name == i.catalog && c.namespace == i.catalog_namespace)
                .flat_map(|c| c.packages.iter())
                .flat_map(|p| p.bundles.iter())
                .find(|b| b.name == i.name)
                .map(|b| (b.version.clone(), b.properties.clone()))
                .unwrap_or_default();
            // The replaced CSV goes away, and so does whatever it replaced, transitively.
            let mut gone = i.replaces.clone();
            while let Some(old) = gone.take() {
                if let Some(k) = problem.installed.iter().position(|c| c.name == old) {
                    gone = problem.installed[k].replaces.clone();
                    problem.installed.remove(k);
                }
            }
            problem.installed.push(InstalledOperator {
                name: i.name.clone(),
                version: props.0,
                properties: props.1,
                phase: Some("Succeeded".into()),
                replaces: i.replaces.clone(),
            });
            match problem.subscriptions.iter_mut().find(|s| {
                s.package == i.package
                    && (s.channel.is_empty() || s.channel == i.channel)
                    && (s.catalog.is_empty() || s.catalog == i.catalog)
            }) {
                Some(s) => s.installed_csv = Some(i.name.clone()),
                None => problem.subscriptions.push(Subscription {
                    name: format!("{}-{}-{}-{}", i.package, i.channel, i.catalog, i.catalog_namespace),
                    package: i.package.clone(),
                    channel: i.channel.clone(),
                    catalog: i.catalog.clone(),
                    catalog_namespace: i.catalog_namespace.clone(),
                    installed_csv: Some(i.name.clone()),
                    starting_csv: Some(i.name.clone()),
                }),
            }
        }
    }
    let want_next = expect["next"].as_str().map(str::to_string);
    if path.first().cloned() != want_next {
        return Err(format!("next {:?}, want {want_next:?}", path.first()));
    }
    let want_path = strings(&expect["path"]);
    if path != want_path {
        return Err(format!("path {path:?}, want {want_path:?}"));
    }
    Ok(())
}

/// `v1-resolve`.
pub fn run_v1(case: &Value) -> Result<(), String> {
    let expect = &case["expect"];
    let problem: V1Problem =
        serde_json::from_value(case["input"].clone()).map_err(|e| format!("input does not deserialize: {e}"))?;
    match (resolve_v1(&problem), expect["bundle"].as_str()) {
        (Ok(pick), Some(want)) if pick.bundle == want => Ok(()),
        (Err(e), None) => {
            let text = e.to_string();
            let want = expect["error"].as_str().unwrap_or("");
            let ok = if expect["errorExact"].as_bool() == Some(true) { text == want } else { text.contains(want) };
            if ok {
                Ok(())
            } else {
                Err(format!("error {text:?}, want {want:?}"))
            }
        }
        (Ok(pick), want) => Err(format!("bundle {}, want {want:?}", pick.bundle)),
        (Err(e), want) => Err(format!("error {e}, want {want:?}")),
    }
}
