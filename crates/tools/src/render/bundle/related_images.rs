//! `relatedImages` as opm's `getRelatedImages` makes them: the CSV's `spec.relatedImages`, then
//! the bundle image (nameless) unless listed, then every container and init-container image of
//! the CSV's deployments (nameless) unless listed; finally sorted by image (stably here; opm's
//! sort is not stable, which only matters for an image listed twice).

use std::collections::BTreeSet;

use super::apis::spec_of;
use super::fields;
use crate::declcfg::Node;

/// One related image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// `name` (empty for the images opm adds).
    pub name: String,
    /// `image`.
    pub image: String,
}

/// The related images of a bundle whose CSV is `csv` and image `bundle_image`.
pub fn related_images(csv: &Node, bundle_image: &str) -> Result<Vec<Related>, String> {
    let spec = spec_of(csv)?;
    let mut out = Vec::new();
    if let Some(listed) = spec.and_then(|s| s.get("relatedImages")) {
        let items = listed.as_array().ok_or_else(|| fields::mismatch(listed, "[]declcfg.RelatedImage"))?;
        for item in items.iter().filter(|i| i.value != crate::declcfg::Value::Null) {
            if item.as_object().is_none() {
                return Err(fields::mismatch(item, "declcfg.RelatedImage"));
            }
            out.push(Related { name: fields::string(item, "name")?, image: fields::string(item, "image")? });
        }
    }
    let mut seen: BTreeSet<String> = out.iter().map(|r| r.image.clone()).collect();
    if !bundle_image.is_empty() && !seen.contains(bundle_image) {
        // opm does not record the bundle image as seen: an operator image equal to it is added again.
        out.push(Related { name: String::new(), image: bundle_image.to_string() });
    }
    for image in spec.map(operator_images).unwrap_or_default() {
        if seen.insert(image.clone()) {
            out.push(Related { name: String::new(), image });
        }
    }
    crate::sort::sort_by(&mut out, |a, b| a.image.cmp(&b.image));
    Ok(out)
}

/// The images of `install.spec.deployments[].spec.template.spec.(initC|c)ontainers[]`, when
/// the install strategy is `deployment` (a set, as opm's map).
fn operator_images(spec: &Node) -> BTreeSet<String> {
    let mut images = BTreeSet::new();
    let Some(install) = fields::get(spec, "install") else { return images };
    if fields::loose_string(install, "strategy") != "deployment" {
        return images;
    }
    let deployments = fields::path(install, &["spec", "deployments"]).and_then(Node::as_array).unwrap_or_default();
    for d in deployments {
        let Some(pod) = fields::path(d, &["spec", "template", "spec"]) else { continue };
        for list in ["containers", "initContainers"] {
            for c in fields::get(pod, list).and_then(Node::as_array).unwrap_or_default() {
                images.insert(fields::loose_string(c, "image"));
            }
        }
    }
    images
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::read_documents;

    fn csv(text: &str) -> Node {
        read_documents("c", text.as_bytes()).remove(0).unwrap().value.unwrap()
    }

    const CSV: &str =
        "spec:\n  relatedImages:\n  - {name: op, image: r/op:1}\n  install:\n    strategy: deployment\n    \
                       spec:\n      deployments:\n      - spec: {template: {spec: {containers: [{image: r/op:1}], \
                       initContainers: [{image: r/init:1}]}}}\n";

    #[test]
    fn listed_images_then_bundle_image_then_operator_images_sorted() {
        let images = related_images(&csv(CSV), "r/bundle:1").unwrap();
        let pairs: Vec<(&str, &str)> = images.iter().map(|r| (r.name.as_str(), r.image.as_str())).collect();
        assert_eq!(pairs, [("", "r/bundle:1"), ("", "r/init:1"), ("op", "r/op:1")]);
        assert_eq!(related_images(&csv(CSV), "").unwrap().len(), 2);
    }

    #[test]
    fn only_the_deployment_strategy_has_operator_images_and_bad_types_are_errors() {
        let other = CSV.replace("strategy: deployment", "strategy: other");
        assert_eq!(related_images(&csv(&other), "").unwrap().len(), 1);
        let bad = csv("spec:\n  relatedImages: {name: x}\n");
        assert!(related_images(&bad, "").unwrap_err().contains("cannot unmarshal object"));
    }
}
