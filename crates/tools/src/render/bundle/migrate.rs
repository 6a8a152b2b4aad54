//! `--migrate-level bundle-object-to-csv-metadata` over a whole catalog, as opm's migration
//! `bundle-object-to-csv-metadata` does (and `opm render` of a File-Based Catalog with that
//! level): a bundle that already has `olm.csv.metadata` gets it re-encoded through opm's struct
//! and nothing else changes; a bundle with an image and a CSV among its `olm.bundle.object`s
//! loses every `olm.bundle.object` and gains one `olm.csv.metadata` at the end.

use std::sync::Arc;

use super::csv_metadata;
use crate::declcfg::property_types::{TYPE_BUNDLE_OBJECT, TYPE_CSV_METADATA};
use crate::declcfg::{self, DeclarativeConfig, Node, Pos, Spanned};
use crate::diagnostic::{Code, Diagnostic};

/// Migrate every bundle of `cfg`; a bundle whose CSV or metadata does not decode is left as it
/// is and reported (opm stops the whole render there).
pub fn migrate_to_csv_metadata(cfg: &mut DeclarativeConfig) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    for bundle in &mut cfg.bundles {
        if let Err(e) = migrate_bundle(bundle) {
            let message = format!("migrate: bundle {:?}: {e}", bundle.name.value);
            diags.push(Diagnostic::error(Code::CsvMetadataInvalid, message, bundle.source.blob()));
        }
    }
    diags
}

fn migrate_bundle(bundle: &mut declcfg::Bundle) -> Result<(), String> {
    let mut props: Vec<declcfg::Property> = bundle.properties.to_vec();
    if props.iter().any(|p| p.type_.value == TYPE_CSV_METADATA) {
        for p in props.iter_mut().filter(|p| p.type_.value == TYPE_CSV_METADATA) {
            let value = p.value.as_deref().cloned().unwrap_or_else(|| Node::new(Pos::default(), declcfg::Value::Null));
            p.value = Some(csv_metadata::canonical(&value)?.value.into());
        }
        bundle.properties = Arc::from(props);
        return Ok(());
    }
    if bundle.image.value.is_empty() {
        return Ok(());
    }
    let Some(csv) = props.iter().rev().filter_map(declcfg::Property::bundle_object).find(declcfg::is_csv) else {
        return Ok(());
    };
    let metadata = csv_metadata::from_csv(&csv)?;
    props.retain(|p| p.type_.value != TYPE_BUNDLE_OBJECT);
    let none = Pos::default();
    props.push(declcfg::Property {
        pos: none,
        type_: Spanned::new(metadata.type_.into(), none),
        value: Some(metadata.value.into()),
    });
    bundle.properties = Arc::from(props);
    bundle.object_count = 0;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn catalog(image: &str, extra: &str) -> DeclarativeConfig {
        use base64::Engine as _;
        let csv = r#"{"kind":"ClusterServiceVersion","metadata":{"name":"a.v1"},"spec":{"displayName":"A"}}"#;
        let data = base64::engine::general_purpose::STANDARD.encode(csv);
        let blob = format!(
            r#"{{"schema":"olm.bundle","name":"a.v1","package":"a","image":"{image}","properties":[{{"type":"olm.package","value":{{"packageName":"a","version":"1.0.0"}}}},{{"type":"olm.bundle.object","value":{{"data":"{data}"}}}}{extra}]}}"#
        );
        load_files(&[FileInput::new("c.json", blob)]).config
    }

    fn types(cfg: &DeclarativeConfig) -> Vec<String> {
        cfg.bundles[0].properties.iter().map(|p| p.type_.value.to_string()).collect()
    }

    #[test]
    fn bundle_objects_become_csv_metadata_when_the_bundle_has_an_image() {
        let mut cfg = catalog("r/a:1", "");
        assert!(migrate_to_csv_metadata(&mut cfg).is_empty());
        assert_eq!(types(&cfg), ["olm.package", "olm.csv.metadata"]);
        let value = cfg.bundles[0].properties[1].value.as_ref().unwrap();
        assert_eq!(value.get("displayName").and_then(Node::as_str), Some("A"));
        let mut cfg = catalog("", "");
        migrate_to_csv_metadata(&mut cfg);
        assert_eq!(types(&cfg), ["olm.package", "olm.bundle.object"]);
    }

    #[test]
    fn existing_csv_metadata_is_only_re_encoded() {
        let mut cfg = catalog("r/a:1", r#",{"type":"olm.csv.metadata","value":{"unknown":1,"displayName":"B"}}"#);
        assert!(migrate_to_csv_metadata(&mut cfg).is_empty());
        assert_eq!(types(&cfg), ["olm.package", "olm.bundle.object", "olm.csv.metadata"]);
        let value = cfg.bundles[0].properties[2].value.as_ref().unwrap();
        let keys: Vec<&str> = value.as_object().unwrap().iter().map(|m| m.key.as_str()).collect();
        assert_eq!(keys, ["apiServiceDefinitions", "crdDescriptions", "displayName", "provider"]);
    }
}
