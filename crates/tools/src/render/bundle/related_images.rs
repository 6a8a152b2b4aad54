//! `relatedImages` as opm's `getRelatedImages` makes them: the CSV's `spec.relatedImages`, then
//! the bundle image (nameless) unless listed, then every container and init-container image of
//! the CSV's deployments (nameless) unless listed; finally sorted by image with Go's unstable
//! `sort.Slice`, as opm sorts them, so that an image listed twice (under two names) keeps the
//! order opm gives the pair. opm appends the deployments' images in Go's map order: for up to 8
//! images most often the order they were first met in (a rotation of it otherwise; see
//! `validate::model_checks`), which is the order used here. So when two or more of them are
//! added to a list of more than 12, opm's own order of such a pair can vary from run to run.

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
    crate::gosort::sort_slice(&mut out, |a, b| a.image < b.image);
    Ok(out)
}

/// The images of `install.spec.deployments[].spec.template.spec.(c|initC)ontainers[]`, when
/// the install strategy is `deployment`: each once, in the order first met (opm's map's
/// insertion order).
fn operator_images(spec: &Node) -> Vec<String> {
    let mut images = Vec::new();
    let Some(install) = fields::get(spec, "install") else { return images };
    if fields::loose_string(install, "strategy") != "deployment" {
        return images;
    }
    let deployments = fields::path(install, &["spec", "deployments"]).and_then(Node::as_array).unwrap_or_default();
    for d in deployments {
        let Some(pod) = fields::path(d, &["spec", "template", "spec"]) else { continue };
        for list in ["containers", "initContainers"] {
            for c in fields::get(pod, list).and_then(Node::as_array).unwrap_or_default() {
                let image = fields::loose_string(c, "image");
                if !images.contains(&image) {
                    images.push(image);
                }
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

    /// Real bundles listing their operator image twice (under two names): the pair ends in the
    /// order opm's `sort.Slice` leaves it, the whole list equal to opm's render of the bundle.
    #[test]
    fn an_image_listed_twice_keeps_the_order_opm_gives_it() {
        let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/sailoperator/");
        for nightly in ["1.31.0-nightly-2026-08-08", "1.31.0-nightly-2026-08-20"] {
            let text = std::fs::read_to_string(format!("{fixtures}{nightly}.clusterserviceversion.yaml")).unwrap();
            let opm = std::fs::read_to_string(format!("{fixtures}{nightly}.opm-related-images.json")).unwrap();
            let opm: Vec<serde_json::Value> = serde_json::from_str(&opm).unwrap();
            let expected: Vec<(String, String)> = opm
                .iter()
                .map(|r| (r["name"].as_str().unwrap_or("").to_string(), r["image"].as_str().unwrap().to_string()))
                .collect();
            let ours: Vec<(String, String)> =
                related_images(&csv(&text), "").unwrap().into_iter().map(|r| (r.name, r.image)).collect();
            assert_eq!(ours, expected, "{nightly}");
            let names: Vec<&str> = ours.iter().filter(|r| r.1.contains("sail-operator@")).map(|r| &*r.0).collect();
            assert!(names.len() == 2 && names[1] == "sail-operator", "{nightly}: {names:?}");
        }
    }

    /// Three entries share an image and four deployment images are appended: opm's order is
    /// then the one its map of operator images gives most often (16 runs of 24 of opm v1.73.0
    /// printed this one; the other 8 had `dup-b` before `r5`).
    #[test]
    fn operator_images_come_in_the_order_first_met_before_the_sort() {
        let mut listed: Vec<(String, String)> =
            (0..10).map(|i| (format!("r{i}"), format!("x/img{:02}:1", i * 3))).collect();
        listed.insert(4, ("dup-a".into(), "x/img15:1".into()));
        listed.insert(9, ("dup-b".into(), "x/img15:1".into()));
        let mut text = String::from("spec:\n  relatedImages:\n");
        for (name, image) in &listed {
            text.push_str(&format!("  - {{name: {name}, image: {image}}}\n"));
        }
        text.push_str("  install:\n    strategy: deployment\n    spec:\n      deployments:\n");
        for image in ["x/img25:2", "x/img07:2", "x/img16:2", "x/img01:2"] {
            text.push_str(&format!("      - spec: {{template: {{spec: {{containers: [{{image: {image}}}]}}}}}}\n"));
        }
        let names: Vec<String> = related_images(&csv(&text), "").unwrap().into_iter().map(|r| r.name).collect();
        let expected = "r0 - r1 r2 - r3 r4 dup-a r5 dup-b - r6 r7 r8 - r9";
        assert_eq!(names.iter().map(|n| if n.is_empty() { "-" } else { n }).collect::<Vec<_>>().join(" "), expected);
    }
}
