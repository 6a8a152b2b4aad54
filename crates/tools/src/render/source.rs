//! Filling a [`BundleSource`] from a File-Based Catalog: every `olm.bundle` becomes a
//! [`RenderedBundle`] under its image, with its ClusterServiceVersion when the catalog embeds
//! it as an `olm.bundle.object` (the `olm.csv.metadata` flavour carries no CSV).

use crate::declcfg::{self, DeclarativeConfig};
use crate::render::{Annotations, BundleSource, RenderedBundle};

impl BundleSource {
    /// Add every bundle of a catalog under its image reference (bundles without an image are
    /// skipped: nothing can name them).
    pub fn add_catalog(&mut self, cfg: &DeclarativeConfig) {
        for b in cfg.bundles.iter().filter(|b| !b.image.value.is_empty()) {
            self.add(RenderedBundle {
                blob: b.clone(),
                csv: declcfg::embedded_csv(&b.properties).map(|(_, csv)| csv),
                annotations: Annotations::default(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    fn encode(text: &str) -> String {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(text)
    }

    #[test]
    fn every_bundle_is_added_under_its_image_with_its_embedded_csv() {
        let csv = encode("{\"kind\":\"ClusterServiceVersion\",\"spec\":{\"description\":\"hello\"}}");
        let crd = encode("kind: CustomResourceDefinition\n");
        let catalog = format!(
            "{{\"schema\":\"olm.bundle\",\"name\":\"a.v1\",\"package\":\"a\",\"image\":\"q/a:1\",\"properties\":[\
             {{\"type\":\"olm.bundle.object\",\"value\":{{\"data\":\"{crd}\"}}}},\
             {{\"type\":\"olm.bundle.object\",\"value\":{{\"data\":\"{csv}\"}}}}]}}\n\
             {{\"schema\":\"olm.bundle\",\"name\":\"a.v2\",\"package\":\"a\",\"image\":\"q/a:2\"}}\n\
             {{\"schema\":\"olm.bundle\",\"name\":\"a.v3\",\"package\":\"a\"}}\n"
        );
        let loaded = load_files(&[FileInput::new("c.json", catalog)]);
        assert!(loaded.diagnostics.is_empty(), "{:?}", loaded.diagnostics);
        let mut source = BundleSource::new();
        source.add_catalog(&loaded.config);
        assert_eq!(source.len(), 2);
        let a1 = source.get("q/a:1").unwrap();
        assert_eq!(a1.blob.name.value, "a.v1");
        let description = a1.csv.as_ref().and_then(|c| c.get("spec")?.get("description")?.as_str().map(String::from));
        assert_eq!(description.as_deref(), Some("hello"));
        assert!(source.get("q/a:2").unwrap().csv.is_none());
    }
}
