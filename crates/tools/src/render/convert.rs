//! `opm alpha convert-template basic`: a File-Based Catalog turned back into the basic template it
//! could have come from — `{schema: olm.template.basic, entries: [...]}` where every bundle is cut
//! down to `{schema: olm.bundle, image}` and every other blob passes through.
//!
//! Facts (`alpha/template/basic/basic.go` `FromReader`, `alpha/template/converter/converter.go`):
//! - Entries are the blobs in the order they were read (opm walks one input stream); nothing is
//!   sorted or grouped.
//! - A bundle becomes `declcfg.Bundle{Schema, Image}` marshalled: `schema`, then `image` (name,
//!   package, properties and related images are dropped).
//! - Every other blob is written as opm holds it after reading: the whole blob re-encoded with
//!   sorted keys. Typed blobs are rebuilt here from their fields, so keys opm's structs do not
//!   know (and the exact spelling of case-insensitive keys) are not carried over.
//! - JSON: `json.MarshalIndent(t, "", "    ")` — four-space indent and, unlike `opm render`,
//!   HTML escaping on (`<`, `>`, `&` as `\u003c`...) — then a newline (`Println`).
//! - YAML: `---` and the JSON through `JSONToYAML`, then a newline (`Println`), so the output ends
//!   with a blank line.
//! - No blobs at all: `entries` is `null`.

use crate::declcfg::value::{Member, Node, Pos, Value};
use crate::declcfg::write::{blob_value, json_indent, yaml_document, BlobRef, Format, RawKeys};
use crate::declcfg::{DeclarativeConfig, SCHEMA_BUNDLE};

/// The schema of a basic template.
pub const SCHEMA_BASIC_TEMPLATE: &str = "olm.template.basic";

/// A basic template: its entries, each a blob as a JSON value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BasicTemplate {
    /// The entries, in read order.
    pub entries: Vec<Node>,
}

/// The basic template of a catalog, as `FromReader` builds it.
pub fn to_basic_template(cfg: &DeclarativeConfig) -> BasicTemplate {
    let entries = read_order(cfg)
        .into_iter()
        .map(|blob| match blob {
            BlobRef::Bundle(b) => object(vec![("schema", string(SCHEMA_BUNDLE)), ("image", string(&b.image.value))]),
            // opm's re-encoded blob: keys sorted at every level.
            other => sort_keys(blob_value(other, RawKeys::Sorted)),
        })
        .collect();
    BasicTemplate { entries }
}

/// The template as `opm alpha convert-template basic -o json|yaml` prints it.
pub fn write_basic_template(t: &BasicTemplate, format: Format) -> String {
    let entries = if t.entries.is_empty() { Value::Null } else { Value::Array(t.entries.clone().into()) };
    let value =
        object(vec![("schema", string(SCHEMA_BASIC_TEMPLATE)), ("entries", Node::new(Pos::default(), entries))]);
    match format {
        Format::Json => json_indent(&value, true) + "\n",
        Format::Yaml => format!("---\n{}\n", yaml_document(&value)),
    }
}

/// Every blob in the order it was read: files in order of first appearance, blobs by position
/// within a file. Blobs made in code (no position) keep their kind order.
fn read_order(cfg: &DeclarativeConfig) -> Vec<BlobRef<'_>> {
    let mut blobs: Vec<BlobRef<'_>> = cfg
        .packages
        .iter()
        .map(BlobRef::Package)
        .chain(cfg.channels.iter().map(BlobRef::Channel))
        .chain(cfg.bundles.iter().map(BlobRef::Bundle))
        .chain(cfg.deprecations.iter().map(BlobRef::Deprecation))
        .chain(cfg.others.iter().map(BlobRef::Other))
        .collect();
    let mut files: Vec<&str> = Vec::new();
    for b in &blobs {
        let f = &*b.source().file;
        if !files.contains(&f) {
            files.push(f);
        }
    }
    let file_index = |b: &BlobRef<'_>| files.iter().position(|f| *f == &*b.source().file).unwrap_or(0);
    crate::sort::sort_by_key(&mut blobs, |b| (file_index(b), b.source().pos));
    blobs
}

fn sort_keys(node: Node) -> Node {
    let value = match node.value {
        Value::Array(items) => Value::Array(items.into_vec().into_iter().map(sort_keys).collect()),
        Value::Object(members) => {
            let mut ms: Vec<Member> =
                members.into_vec().into_iter().map(|m| Member { value: sort_keys(m.value), ..m }).collect();
            crate::sort::sort_by(&mut ms, |a, b| a.key.cmp(&b.key));
            Value::Object(ms.into())
        }
        v => v,
    };
    Node::new(node.pos, value)
}

fn string(s: &str) -> Node {
    Node::new(Pos::default(), Value::String(s.into()))
}

fn object(members: Vec<(&str, Node)>) -> Node {
    let members =
        members.into_iter().map(|(k, v)| Member { key: k.into(), key_pos: Pos::default(), value: v }).collect();
    Node::new(Pos::default(), Value::Object(members))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    const FBC: &str = r#"{"schema":"olm.package","name":"foo","defaultChannel":"stable"}
{"schema":"olm.bundle","package":"foo","name":"foo.v0.1.0","image":"quay.io/foo:v0.1.0","properties":[{"type":"olm.package","value":{"packageName":"foo","version":"0.1.0"}}]}
{"schema":"olm.channel","package":"foo","name":"stable","entries":[{"name":"foo.v0.1.0"}]}
{"schema":"custom.note","package":"foo","text":"a <b> & c","a":1}
"#;

    fn template() -> BasicTemplate {
        let loaded = load_files(&[FileInput::new("catalog.json", FBC)]);
        assert!(loaded.diagnostics.is_empty());
        to_basic_template(&loaded.config)
    }

    #[test]
    fn entries_keep_read_order_and_bundles_keep_only_schema_and_image() {
        let t = template();
        let schemas: Vec<&str> = t.entries.iter().filter_map(|e| e.get("schema")?.as_str()).collect();
        assert_eq!(schemas, ["olm.package", "olm.bundle", "olm.channel", "custom.note"]);
        assert_eq!(t.entries[1].to_go_json(), r#"{"image":"quay.io/foo:v0.1.0","schema":"olm.bundle"}"#);
        let keys: Vec<&str> = t.entries[1].as_object().unwrap().iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["schema", "image"]);
    }

    #[test]
    fn json_is_indented_with_html_escaping_and_sorted_blob_keys() {
        let out = write_basic_template(&template(), Format::Json);
        assert!(out.starts_with("{\n    \"schema\": \"olm.template.basic\",\n    \"entries\": [\n        {\n            \"defaultChannel\": \"stable\",\n"));
        assert!(out.contains("\"text\": \"a \\u003cb\\u003e \\u0026 c\""));
        assert!(out.contains(
            "{\n            \"schema\": \"olm.bundle\",\n            \"image\": \"quay.io/foo:v0.1.0\"\n        }"
        ));
        assert!(out.ends_with("}\n"));
    }

    #[test]
    fn yaml_starts_with_a_separator_and_ends_with_a_blank_line() {
        let out = write_basic_template(&template(), Format::Yaml);
        assert!(out.starts_with("---\nentries:\n- defaultChannel: stable\n  name: foo\n  schema: olm.package\n- image: quay.io/foo:v0.1.0\n  schema: olm.bundle\n"));
        assert!(out.ends_with("schema: olm.template.basic\n\n"));
    }

    #[test]
    fn an_empty_catalog_has_null_entries() {
        let out = write_basic_template(&BasicTemplate::default(), Format::Json);
        assert_eq!(out, "{\n    \"schema\": \"olm.template.basic\",\n    \"entries\": null\n}\n");
    }
}
