//! `declcfg` blobs for the inline catalogs of the JSON problem formats ([`super::problem_json`],
//! [`super::v1_problem`]): each blob located at the start of a file named for its catalog, so the
//! inline catalogs go through `model::build` exactly as catalogs read from files do.

use std::sync::Arc;

use crate::declcfg::{self, property_types::TYPE_PACKAGE, Node, Pos, Source, Spanned};

/// Text with no position of its own.
pub fn text(s: &str) -> Spanned<String> {
    Spanned::new(s.to_string(), Pos::default())
}

/// Where the blobs of the catalog named by `file` are said to be.
pub fn source(file: &str) -> Source {
    Source { file: Arc::from(file), pos: Pos::default() }
}

/// An `olm.package` blob.
pub fn package(source: &Source, name: &str, default_channel: &str) -> declcfg::Package {
    declcfg::Package {
        source: source.clone(),
        name: text(name),
        default_channel: text(default_channel),
        icon: None,
        description: String::new(),
        properties: Vec::new(),
    }
}

/// An `olm.channel` blob.
pub fn channel(source: &Source, package: &str, name: &str, entries: Vec<declcfg::ChannelEntry>) -> declcfg::Channel {
    declcfg::Channel {
        source: source.clone(),
        package: text(package),
        name: text(name),
        entries,
        properties: Vec::new(),
    }
}

/// A channel entry (an empty text is an unset field).
pub fn entry(name: &str, replaces: &str, skips: &[String], skip_range: &str) -> declcfg::ChannelEntry {
    declcfg::ChannelEntry {
        pos: Pos::default(),
        name: text(name),
        replaces: text(replaces),
        skips: skips.iter().map(|s| text(s)).collect(),
        skip_range: text(skip_range),
    }
}

/// An `olm.bundle` blob with no image.
pub fn bundle(source: &Source, package: &str, name: &str, properties: Vec<declcfg::Property>) -> declcfg::Bundle {
    declcfg::Bundle {
        source: source.clone(),
        package: text(package),
        name: text(name),
        image: Spanned::default(),
        properties: properties.into(),
        related_images: Default::default(),
        object_count: 0,
        properties_fit: false,
    }
}

/// A property with a JSON value.
pub fn property(type_: &str, value: &serde_json::Value) -> declcfg::Property {
    declcfg::Property {
        pos: Pos::default(),
        type_: Spanned::new(type_.into(), Pos::default()),
        value: Some(Node::from_json(value).into()),
    }
}

/// `olm.package {packageName, version}`.
pub fn package_property(package: &str, version: &str) -> declcfg::Property {
    property(TYPE_PACKAGE, &serde_json::json!({"packageName": package, "version": version}))
}
