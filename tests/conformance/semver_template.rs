//! The `semver-template.json` suite: each case's template expanded as an `olm.semver` template
//! against the bundles the case lists (each loaded as an FBC blob); the package and channels
//! compared as data, or the expected error substrings found among the diagnostics.

use olm_catalog::declcfg::{self, load_files, FileInput};
use olm_catalog::render::template::{expand_template_as, TemplateKind};
use olm_catalog::render::BundleSource;
use serde_json::{json, Map, Value};

/// Run one case.
pub fn run(case: &Value) -> Result<(), String> {
    let input = &case["input"];
    let expect = &case["expect"];
    let source = bundle_source(&input["bundles"])?;
    let template = FileInput::new("template.yaml", input["template"].as_str().unwrap_or(""));
    let out = expand_template_as(TemplateKind::Semver, &template, &source);
    let errors: Vec<String> = out.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
    if expect["ok"].as_bool() == Some(false) {
        let wanted: Vec<&str> = expect["errors"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        if wanted.is_empty() && errors.is_empty() {
            return Err("expected an error".into());
        }
        for want in wanted {
            if !errors.iter().any(|e| e.contains(want)) {
                return Err(format!("no error contains {want:?}; got {errors:#?}"));
            }
        }
        return Ok(());
    }
    if !errors.is_empty() {
        return Err(format!("unexpected errors {errors:#?}"));
    }
    let package = out.config.packages.first().map(package_json).unwrap_or(Value::Null);
    if package != expect["package"] {
        return Err(format!("package differs:\n  want: {}\n  got:  {package}", expect["package"]));
    }
    let channels: Vec<Value> = out.config.channels.iter().map(channel_json).collect();
    let want = expect["channels"].as_array().cloned().unwrap_or_default();
    if channels != want {
        return Err(format!("channels differ:\n  want: {}\n  got:  {}", Value::from(want), Value::from(channels)));
    }
    Ok(())
}

/// The case's bundles, each loaded as an FBC blob.
fn bundle_source(bundles: &Value) -> Result<BundleSource, String> {
    let mut source = BundleSource::new();
    for (image, blob) in bundles.as_object().into_iter().flatten() {
        let loaded = load_files(&[FileInput::new(format!("bundles/{image}.json"), blob.to_string())]);
        if let Some(d) = loaded.diagnostics.first() {
            return Err(format!("bundle {image} does not load: {}", d.message));
        }
        source.add_catalog(&loaded.config);
    }
    Ok(source)
}

fn package_json(p: &declcfg::Package) -> Value {
    let mut o = Map::new();
    o.insert("schema".into(), json!("olm.package"));
    o.insert("name".into(), json!(p.name.value));
    if !p.default_channel.value.is_empty() {
        o.insert("defaultChannel".into(), json!(p.default_channel.value));
    }
    if !p.description.is_empty() {
        o.insert("description".into(), json!(p.description));
    }
    Value::Object(o)
}

fn channel_json(c: &declcfg::Channel) -> Value {
    let entries: Vec<Value> = c
        .entries
        .iter()
        .map(|e| {
            let mut o = Map::new();
            o.insert("name".into(), json!(e.name.value));
            if !e.replaces.value.is_empty() {
                o.insert("replaces".into(), json!(e.replaces.value));
            }
            if !e.skips.is_empty() {
                o.insert("skips".into(), json!(e.skips.iter().map(|s| s.value.clone()).collect::<Vec<_>>()));
            }
            if !e.skip_range.value.is_empty() {
                o.insert("skipRange".into(), json!(e.skip_range.value));
            }
            Value::Object(o)
        })
        .collect();
    json!({"schema": "olm.channel", "name": c.name.value, "package": c.package.value, "entries": entries})
}
