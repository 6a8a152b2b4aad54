//! The substitutes template (`olm.template.substitutes`): FBC blobs plus substitutions, each a
//! bundle image (`name`) that takes the place of an existing bundle (`base`) in every channel,
//! as opm's `alpha/template/substitutes` does. The entries and the result after each
//! substitution are validated as opm's `ConvertToModel` does.

use std::collections::HashMap;
use std::sync::Arc;

use super::basic::{load_entries, not_found, spec};
use super::locate::{child, error, relocate, type_error};
use crate::declcfg::{self, DeclarativeConfig, Loaded, Node, Pos, Spanned, Value};
use crate::diagnostic::{Code, Diagnostic};
use crate::gotext::quote as q;
use crate::property::{self, Property};
use crate::render::{BundleSource, Rendered};
use crate::validate::{validate_loaded_with, Options};
use crate::version::VersionRelease;

const SCHEMA: &str = "olm.template.substitutes";
const GO_TYPE: &str = "substitutes.SubstitutesTemplateData";

/// One substitution and where the template writes it.
#[derive(Debug, Clone, PartialEq)]
struct Substitution {
    name: String,
    base: String,
    pos: Pos,
    pointer: String,
}

/// Expand the template document `doc` of `file`.
pub(super) fn expand(file: &str, doc: Option<Node>, source: &BundleSource) -> Rendered {
    let mut out = Rendered::default();
    let parsed = spec(file, doc.as_ref(), SCHEMA, GO_TYPE).and_then(|e| Ok((e, substitutions(file, doc.as_ref())?)));
    let (entries, subs) = match parsed {
        Ok(p) => p,
        Err(mut d) => {
            d.message = format!("render: unable to parse template: {}", d.message);
            out.diagnostics.push(d);
            return out;
        }
    };
    let mut load_diags = Vec::new();
    for (_, blob) in load_entries(file, &entries, &mut load_diags) {
        out.config.push(blob);
    }
    out.diagnostics.extend(prefixed(load_diags, "render: unable to create declarative config from entries: "));
    if !out.diagnostics.is_empty() {
        return out;
    }
    let invalid = model_errors(&out.config);
    if !invalid.is_empty() {
        out.diagnostics.extend(prefixed(invalid, "render: entries are not valid FBC: "));
        return out;
    }
    let mut bases_of: HashMap<&str, &str> = HashMap::new();
    let mut seen_bases: HashMap<&str, ()> = HashMap::new();
    let file_arc: Arc<str> = Arc::from(file);
    for s in &subs {
        let prefix = format!("render: error processing substitution {}->{}: ", s.base, s.name);
        let fail = |m: String| error(file, Code::TemplateSubstitution, format!("{prefix}{m}"), s.pos, &s.pointer);
        if let Err(m) = check_fields(s) {
            out.diagnostics.push(fail(m));
            continue;
        }
        if seen_bases.insert(&s.base, ()).is_some() {
            out.diagnostics.push(fail(format!("base bundle {} is already substituted", q(&s.base))));
            continue;
        }
        if let Some(other) = bases_of.insert(&s.name, &s.base) {
            out.diagnostics.push(fail(format!(
                "substitute {} already substitutes base bundle {}",
                q(&s.name),
                q(other)
            )));
            continue;
        }
        let Some(found) = source.get(&s.name) else {
            out.diagnostics.push(not_found(file, &s.name, s.pos, &child(&s.pointer, "name")));
            continue;
        };
        let substitute = relocate(&found.blob, &file_arc, s.pos);
        if let Err(m) = check_versions(&out.config, s, &substitute) {
            out.diagnostics.push(fail(m));
            continue;
        }
        apply(&mut out.config, s, &substitute);
        let invalid = model_errors(&out.config);
        if !invalid.is_empty() {
            out.diagnostics.extend(prefixed(invalid, &format!("{prefix}resulting config is not valid FBC: ")));
            return out;
        }
    }
    out
}

/// The `substitutions` of the document (keys bound case-insensitively; unknown keys ignored).
fn substitutions(file: &str, doc: Option<&Node>) -> Result<Vec<Substitution>, Diagnostic> {
    let Some(m) = doc.and_then(|d| d.field("substitutions")) else {
        return Ok(Vec::new());
    };
    let pointer = child("", &m.key);
    let fail = |n: &Node, path: &str, ty: &str, ptr: &str| {
        let msg = format!("unmarshalling template: {}", type_error(n, path, ty));
        error(file, Code::TemplateInvalid, msg, n.pos, ptr)
    };
    let items = match &m.value.value {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        _ => return Err(fail(&m.value, "SubstitutesTemplateData.substitutions", "[]substitutes.Substitute", &pointer)),
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let ptr = child(&pointer, &i.to_string());
        let mut s = Substitution { name: String::new(), base: String::new(), pos: item.pos, pointer: ptr.clone() };
        match &item.value {
            Value::Null => {}
            Value::Object(_) => {
                for (field, slot) in [("name", &mut s.name), ("base", &mut s.base)] {
                    match item.field(field).map(|m| (m, &m.value.value)) {
                        None | Some((_, Value::Null)) => {}
                        Some((_, Value::String(v))) => *slot = v.to_string(),
                        Some((m, _)) => {
                            let path = format!("SubstitutesTemplateData.substitutions.{field}");
                            return Err(fail(&m.value, &path, "string", &child(&ptr, &m.key)));
                        }
                    }
                }
            }
            _ => return Err(fail(item, "SubstitutesTemplateData.substitutions", "substitutes.Substitute", &ptr)),
        }
        out.push(s);
    }
    Ok(out)
}

/// opm's checks of a substitution's own fields.
fn check_fields(s: &Substitution) -> Result<(), String> {
    if s.name.is_empty() {
        return Err("substitution name cannot be empty".into());
    }
    if s.base.is_empty() {
        return Err("substitution base cannot be empty".into());
    }
    if s.name == s.base {
        return Err("substitution name and base cannot be the same".into());
    }
    Ok(())
}

/// The base must exist and have a lower version (and release) than the substitute.
fn check_versions(config: &DeclarativeConfig, s: &Substitution, substitute: &declcfg::Bundle) -> Result<(), String> {
    let sub_version = composite_version(substitute)
        .map_err(|e| format!("failed to get composite version for substitute bundle {}: {e}", q(&s.name)))?;
    let Some(base) = config.bundles.iter().find(|b| b.name.value == s.base) else {
        return Err(format!("base bundle {} does not exist in catalog", q(&s.base)));
    };
    let base_version = composite_version(base)
        .map_err(|e| format!("failed to get composite version for base bundle {}: {e}", q(&s.base)))?;
    if base_version >= sub_version {
        return Err(format!("base bundle {} is not less than substitute bundle {}", q(&s.base), q(&s.name)));
    }
    Ok(())
}

/// A bundle's version and release from its single `olm.package` property.
fn composite_version(b: &declcfg::Bundle) -> Result<VersionRelease, String> {
    let packages: Vec<property::PackageProperty> = property::parse_bundle(b)
        .into_iter()
        .filter_map(|(_, p)| match p {
            Property::Package(pp) => Some(pp),
            _ => None,
        })
        .collect();
    let [pp] = packages.as_slice() else {
        return Err(format!("expected exactly one {} property, found {}", q("olm.package"), packages.len()));
    };
    let version = pp.parsed_version.as_ref().map_err(|e| e.to_string())?;
    let release = pp.parsed_release.as_ref().map_err(|e| e.to_string())?;
    Ok(VersionRelease::from_parsed(version, release.as_ref()))
}

/// Put `substitute` in the place of the base in every channel, and add it to the bundles.
fn apply(config: &mut DeclarativeConfig, s: &Substitution, substitute: &declcfg::Bundle) {
    let sub_name = &substitute.name.value;
    for channel in &mut config.channels {
        let original = channel.entries.len();
        let at: Vec<usize> = (0..original).filter(|&j| channel.entries[j].name.value == s.base).collect();
        for &j in at.iter().rev() {
            let old = &mut channel.entries[j];
            let mut skips = std::mem::take(&mut old.skips);
            skips.push(Spanned::new(s.base.clone(), s.pos));
            let entry = declcfg::ChannelEntry {
                pos: s.pos,
                name: Spanned::new(sub_name.clone(), s.pos),
                replaces: std::mem::take(&mut old.replaces),
                skips,
                skip_range: std::mem::take(&mut old.skip_range),
            };
            channel.entries.push(entry);
        }
        for entry in &mut channel.entries[..original] {
            if entry.replaces.value == s.base {
                entry.replaces.value = sub_name.clone();
                entry.skips.push(Spanned::new(s.base.clone(), entry.pos));
            } else if entry.skips.iter().any(|k| k.value == s.base) {
                entry.skips.push(Spanned::new(sub_name.clone(), entry.pos));
                entry.skips.retain(|k| k.value != s.base);
            }
        }
    }
    config.bundles.push(substitute.clone());
}

/// The errors opm's `ConvertToModel` would give for `config` (model build and checks).
fn model_errors(config: &DeclarativeConfig) -> Vec<Diagnostic> {
    let loaded = Loaded { config: config.clone(), diagnostics: Vec::new(), files: Vec::new() };
    let validated = validate_loaded_with(loaded, Options { lints: false, ..Options::default() });
    validated.report.diagnostics.into_iter().filter(Diagnostic::is_error).collect()
}

fn prefixed(diags: Vec<Diagnostic>, prefix: &str) -> impl Iterator<Item = Diagnostic> + '_ {
    diags.into_iter().map(move |mut d| {
        d.message = format!("{prefix}{}", d.message);
        d
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    const ENTRIES: &str = "schema: olm.template.substitutes
entries:
- schema: olm.package
  name: p
  defaultChannel: stable
- schema: olm.channel
  package: p
  name: stable
  entries:
  - name: p.v1.0.0
  - name: p.v1.1.0
    replaces: p.v1.0.0
  - name: p.v1.2.0
    replaces: p.v1.1.0
- schema: olm.bundle
  name: p.v1.0.0
  package: p
  image: q/p:1.0.0
  properties: [{type: olm.package, value: {packageName: p, version: 1.0.0}}]
- schema: olm.bundle
  name: p.v1.1.0
  package: p
  image: q/p:1.1.0
  properties: [{type: olm.package, value: {packageName: p, version: 1.1.0}}]
- schema: olm.bundle
  name: p.v1.2.0
  package: p
  image: q/p:1.2.0
  properties: [{type: olm.package, value: {packageName: p, version: 1.2.0}}]
";

    fn source() -> BundleSource {
        let blob = r#"{"schema":"olm.bundle","name":"p.v1.1.1","package":"p","image":"q/p:1.1.1","properties":[{"type":"olm.package","value":{"packageName":"p","version":"1.1.1"}}]}"#;
        let mut s = BundleSource::new();
        s.add_catalog(&load_files(&[FileInput::new("b.json", blob)]).config);
        s
    }

    fn expand_text(subs: &str) -> Rendered {
        let text = format!("{ENTRIES}substitutions:\n{subs}");
        super::super::expand_template(&FileInput::new("t.yaml", text), &source())
    }

    #[test]
    fn the_substitute_takes_the_base_entrys_edges_and_references_move_to_it() {
        let out = expand_text("- {name: q/p:1.1.1, base: p.v1.1.0}\n");
        assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
        let e = &out.config.channels[0].entries;
        let shown: Vec<(String, String, Vec<String>)> = e
            .iter()
            .map(|e| {
                (e.name.value.clone(), e.replaces.value.clone(), e.skips.iter().map(|s| s.value.clone()).collect())
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("p.v1.0.0".into(), "".into(), vec![]),
                ("p.v1.1.0".into(), "".into(), vec![]),
                ("p.v1.2.0".into(), "p.v1.1.1".into(), vec!["p.v1.1.0".to_string()]),
                ("p.v1.1.1".into(), "p.v1.0.0".into(), vec!["p.v1.1.0".to_string()]),
            ]
        );
        assert_eq!(out.config.bundles.len(), 4);
        assert_eq!(out.config.bundles[3].source.pos.line, 31);
    }

    #[test]
    fn substitutions_are_checked_and_located() {
        let out = expand_text(
            "- {name: q/p:1.1.1, base: p.v1.2.0}\n- {name: '', base: x}\n- {name: q/p:9, base: p.v1.0.0}\n",
        );
        let messages: Vec<(u32, &str)> =
            out.diagnostics.iter().map(|d| (d.location.line, d.message.as_str())).collect();
        assert_eq!(
            messages,
            [
                (31, "render: error processing substitution p.v1.2.0->q/p:1.1.1: base bundle \"p.v1.2.0\" is not less than substitute bundle \"q/p:1.1.1\""),
                (32, "render: error processing substitution x->: substitution name cannot be empty"),
                (33, "bundle image \"q/p:9\" is not among the given bundles, so it is not expanded (opm pulls it from its registry): add a catalog, bundle directory or image that has it to the bundle sources, or correct the reference"),
            ]
        );
    }
}
