//! The bundles' image references, each distinct one checked once: a catalog names the same
//! operator image in many bundles (community-v4.20: 4,929 references, 2,325 distinct).

use crate::declcfg::DeclarativeConfig;
use crate::hash::{HashSet, HashSetExt};
use crate::image_ref::{validate_image_ref, ImageRefError};
use olm_catalog_format::FAST_PATHS;

/// The references of a catalog's bundles (`image` and `relatedImages`) known to be valid.
/// Browsers' modules ([`FAST_PATHS`]) keep none and check each reference where it is.
pub(super) struct ValidImages<'a>(HashSet<&'a str>);

impl<'a> ValidImages<'a> {
    /// Every distinct reference of `cfg`'s bundles that is valid, checked in parallel natively.
    pub(super) fn of(cfg: &'a DeclarativeConfig) -> ValidImages<'a> {
        let mut set = HashSet::new();
        if !FAST_PATHS {
            return ValidImages(set);
        }
        for bl in &cfg.bundles {
            set.insert(bl.image.value.as_str());
            set.extend(bl.related_images.iter().map(|ri| ri.image.value.as_str()));
        }
        let distinct: Vec<&str> = set.iter().copied().collect();
        for invalid in invalid_among(&distinct) {
            set.remove(invalid);
        }
        ValidImages(set)
    }

    /// [`validate_image_ref`] of `image`, looked up when it is known to be valid.
    pub(super) fn check(&self, image: &str) -> Result<(), ImageRefError> {
        if FAST_PATHS && self.0.contains(image) {
            return Ok(());
        }
        validate_image_ref(image)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn invalid_among<'a>(refs: &[&'a str]) -> Vec<&'a str> {
    use rayon::prelude::*;
    refs.par_iter().copied().filter(|r| validate_image_ref(r).is_err()).collect()
}

#[cfg(target_arch = "wasm32")]
fn invalid_among<'a>(refs: &[&'a str]) -> Vec<&'a str> {
    refs.iter().copied().filter(|r| validate_image_ref(r).is_err()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::{load_files, FileInput};

    /// A reference is valid by the lookup exactly when it is valid by itself.
    #[test]
    fn the_lookup_agrees_with_the_check() {
        let yaml = "schema: olm.bundle\npackage: p\nname: a\nimage: quay.io/a/b:1\nrelatedImages:\n\
            - {name: x, image: quay.io/a/b:1}\n- {name: y, image: 'Quay.io/A/B'}\n- {name: z, image: ''}\n";
        let cfg = load_files(&[FileInput::new("c.yaml", yaml)]).config;
        let images = ValidImages::of(&cfg);
        for image in ["quay.io/a/b:1", "Quay.io/A/B", "", "example.com/other:2"] {
            assert_eq!(images.check(image), validate_image_ref(image), "{image}");
        }
    }
}
