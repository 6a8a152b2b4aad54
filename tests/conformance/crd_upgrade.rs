//! The `crd-upgrade.json` suite: real CRD pairs of community bundles judged by OLM v1's own CRD
//! Upgrade Safety preflight. Each case's verdict (`expect.safe`), the set of failing crdify
//! checks (`expect.rules`) and the preflight's error text with its lines in canonical order
//! (`expect.error`) must all be `crd_safety::preflight`'s.

use std::collections::BTreeSet;

use olm_catalog::crd_safety::{preflight, read_crd};
use olm_catalog::declcfg::{read_documents, Node};
use serde_json::Value;

/// Run one case.
pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let old = read_crd(&manifest(input, "old")?).map_err(|e| format!("old: {e}"))?;
    let new = read_crd(&manifest(input, "new")?).map_err(|e| format!("new: {e}"))?;
    // `oldStorageVersionIsStored: false` means the old CRD's status alone says what is stored.
    let as_shipped = input["oldStorageVersionIsStored"] == Value::Bool(false);
    let stored = as_shipped.then_some(old.stored_versions.as_slice());
    let got = preflight(&old, &new, stored).map_err(|e| format!("preflight: {e}"))?;
    let expect = &case["expect"];
    if Some(got.safe()) != expect["safe"].as_bool() {
        return Err(format!("safe = {}, want {}; error: {:?}", got.safe(), expect["safe"], got.error_text()));
    }
    let rules: BTreeSet<&str> = got.checks().iter().map(|c| c.name()).collect();
    let want: BTreeSet<&str> = expect["rules"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    if rules != want {
        return Err(format!("rules {rules:?}, want {want:?}"));
    }
    let text = got.error_text();
    if text.as_deref() != expect["error"].as_str() {
        return Err(format!(
            "error differs:\n--- want\n{}\n--- got\n{}",
            expect["error"].as_str().unwrap_or("null"),
            text.unwrap_or_default()
        ));
    }
    Ok(())
}

fn manifest(input: &Value, side: &str) -> Result<Node, String> {
    let text = input[side].as_str().ok_or(format!("input.{side} is not a string"))?;
    let docs = read_documents(&format!("{side}.yaml"), text.as_bytes());
    docs.into_iter()
        .filter_map(|d| d.ok().and_then(|d| d.value))
        .find(olm_catalog::crd_safety::is_crd)
        .ok_or(format!("input.{side} holds no CustomResourceDefinition"))
}
