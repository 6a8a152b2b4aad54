//! The bundles' image references, each distinct one checked once: a catalog names the same
//! operator image in many bundles (community-v4.20: 4,929 references, 2,325 distinct).

use crate::declcfg::{Bundle, DeclarativeConfig};
use crate::hash::{HashMap, HashMapExt};
use crate::image_ref::{validate_image_ref, ImageRefError};
use olm_catalog_format::FAST_PATHS;

/// Which of a catalog's image references (each bundle's `image`, then its `relatedImages`) are
/// known to be valid, told by position, so that no reference is hashed twice. Browsers' modules
/// ([`FAST_PATHS`]) keep none and check each reference where it is.
pub(super) struct ValidImages {
    /// Per reference, in the order above: whether it is known to be valid.
    valid: Vec<bool>,
    /// Where each bundle's references start in `valid` (one more entry than bundles).
    starts: Vec<usize>,
}

impl ValidImages {
    /// Every reference of `cfg`'s bundles, each distinct one checked once (in parallel natively).
    pub(super) fn of(cfg: &DeclarativeConfig) -> ValidImages {
        if !FAST_PATHS {
            return ValidImages { valid: Vec::new(), starts: Vec::new() };
        }
        // Most bundles name an image and a related image or two.
        let mut ids: HashMap<&str, usize> = HashMap::with_capacity(2 * cfg.bundles.len());
        let mut distinct: Vec<&str> = Vec::new();
        let mut refs = Vec::new();
        let mut starts = Vec::with_capacity(cfg.bundles.len() + 1);
        for bl in &cfg.bundles {
            starts.push(refs.len());
            for image in references(bl) {
                refs.push(*ids.entry(image).or_insert_with(|| {
                    distinct.push(image);
                    distinct.len() - 1
                }));
            }
        }
        starts.push(refs.len());
        let fine = valid_among(&distinct);
        ValidImages { valid: refs.into_iter().map(|id| fine[id]).collect(), starts }
    }

    /// [`validate_image_ref`] of reference `k` of bundle `bundle` (`image` is 0, related image `i`
    /// is `i + 1`), which is `image`; looked up when it is known to be valid.
    pub(super) fn check(&self, bundle: usize, k: usize, image: &str) -> Result<(), ImageRefError> {
        let known = match (self.starts.get(bundle), self.starts.get(bundle + 1)) {
            (Some(&start), Some(&end)) if start + k < end => self.valid[start + k],
            _ => false,
        };
        if known {
            Ok(())
        } else {
            validate_image_ref(image)
        }
    }
}

/// A bundle's image references, in the order [`ValidImages`] numbers them.
fn references(bl: &Bundle) -> impl Iterator<Item = &str> {
    std::iter::once(bl.image.value.as_str()).chain(bl.related_images.iter().map(|ri| ri.image.value.as_str()))
}

#[cfg(not(target_arch = "wasm32"))]
fn valid_among(refs: &[&str]) -> Vec<bool> {
    use rayon::prelude::*;
    refs.par_iter().map(|r| validate_image_ref(r).is_ok()).collect()
}

#[cfg(target_arch = "wasm32")]
fn valid_among(refs: &[&str]) -> Vec<bool> {
    refs.iter().map(|r| validate_image_ref(r).is_ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    /// A reference is valid by the lookup exactly when it is valid by itself, wherever it is.
    #[test]
    fn the_lookup_agrees_with_the_check() {
        let yaml = "schema: olm.bundle\npackage: p\nname: a\nimage: quay.io/a/b:1\nrelatedImages:\n\
            - {name: x, image: quay.io/a/b:1}\n- {name: y, image: 'Quay.io/A/B'}\n- {name: z, image: ''}\n\
            ---\nschema: olm.bundle\npackage: p\nname: b\nimage: 'Quay.io/A/B'\nrelatedImages:\n\
            - {name: x, image: quay.io/a/c:2}\n";
        let cfg = load_files(&[FileInput::new("c.yaml", yaml)]).config;
        let images = ValidImages::of(&cfg);
        for (b, bl) in cfg.bundles.iter().enumerate() {
            for (k, image) in references(bl).enumerate() {
                assert_eq!(images.check(b, k, image), validate_image_ref(image), "{b} {k} {image}");
            }
        }
        // A reference beyond those numbered is checked as it is.
        assert_eq!(images.check(9, 0, "Quay.io/A/B"), validate_image_ref("Quay.io/A/B"));
        assert_eq!(images.check(1, 1, "Quay.io/A/B"), validate_image_ref("Quay.io/A/B"));
    }
}
