//! The raw File-Based Catalog, as opm's `declcfg` reads it: blobs of the schemas `olm.package`,
//! `olm.channel`, `olm.bundle` and `olm.deprecations`, and every other schema kept as an opaque
//! [`Meta`] blob. Nothing here is checked beyond what opm checks while loading; every blob and
//! field remembers its file and position so findings can point at it.

mod decode;
mod documents;
mod file_bytes;
pub mod go_type;
/// `.indexignore` rules (crates/indexignore, compiled for size in WebAssembly).
use olm_catalog_indexignore as indexignore;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod json_brackets;
#[doc(hidden)]
pub mod json_syntax;
#[doc(hidden)]
pub mod load;
mod property_value;
mod spans;
#[doc(hidden)]
pub mod value;
#[cfg(not(target_arch = "wasm32"))]
mod walk;
pub mod write;
mod yaml;

use std::sync::Arc;

pub use documents::{read_documents, Document};
#[doc(hidden)]
pub use load::parse_file;
pub use load::{load_files, load_files_with, FileInput, Loaded, Values};
pub use property_value::PropertyValue;
pub use spans::{spans, Quoting, Span, SpanError, SpanFile, SpanKind, SpanMember};
pub use value::{Member, Node, Pos, Str, Value};
#[cfg(not(target_arch = "wasm32"))]
pub use walk::{load_dir, read_catalog};

use crate::diagnostic::Location;

/// The schema names opm knows.
pub const SCHEMA_PACKAGE: &str = "olm.package";
/// `olm.channel`.
pub const SCHEMA_CHANNEL: &str = "olm.channel";
/// `olm.bundle`.
pub const SCHEMA_BUNDLE: &str = "olm.bundle";
/// `olm.deprecations`.
pub const SCHEMA_DEPRECATIONS: &str = "olm.deprecations";

/// The property type names the catalog format defines.
pub mod property_types {
    /// `olm.package`: the bundle's package, version and release.
    pub const TYPE_PACKAGE: &str = "olm.package";
    /// `olm.package.required`: a dependency on a package within a version range.
    pub const TYPE_PACKAGE_REQUIRED: &str = "olm.package.required";
    /// `olm.gvk`: an API the bundle provides.
    pub const TYPE_GVK: &str = "olm.gvk";
    /// `olm.gvk.required`: an API the bundle needs.
    pub const TYPE_GVK_REQUIRED: &str = "olm.gvk.required";
    /// `olm.label`: a label the bundle carries.
    pub const TYPE_LABEL: &str = "olm.label";
    /// `olm.label.required`: a label a dependency must carry.
    pub const TYPE_LABEL_REQUIRED: &str = "olm.label.required";
    /// `olm.bundle.object`: a manifest embedded as base64.
    pub const TYPE_BUNDLE_OBJECT: &str = "olm.bundle.object";
    /// `olm.csv.metadata`: the CSV's metadata, in place of the embedded CSV.
    pub const TYPE_CSV_METADATA: &str = "olm.csv.metadata";
    /// `olm.channel` (internal use upstream).
    pub const TYPE_CHANNEL: &str = "olm.channel";
    /// `olm.constraint`: a generic dependency (GVK, package, CEL, compound).
    pub const TYPE_CONSTRAINT: &str = "olm.constraint";
    /// `olm.deprecated`: the legacy deprecation marker.
    pub const TYPE_DEPRECATED: &str = "olm.deprecated";
}

/// A value with the position it was read at.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was read.
    pub pos: Pos,
}

impl<T> Spanned<T> {
    /// `value` read at `pos`.
    pub fn new(value: T, pos: Pos) -> Spanned<T> {
        Spanned { value, pos }
    }
}

impl AsRef<str> for Spanned<String> {
    fn as_ref(&self) -> &str {
        &self.value
    }
}

impl Spanned<String> {
    /// The text.
    pub fn as_str(&self) -> &str {
        &self.value
    }
}

/// Where a blob came from: its file and the position of its first byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The file, as given to the loader.
    pub file: Arc<str>,
    /// Where the blob starts.
    pub pos: Pos,
}

impl Source {
    /// A [`Location`] in this blob's file at `pos`, with the field's JSON `pointer`.
    pub fn at(&self, pos: Pos, pointer: impl Into<String>) -> Location {
        Location { file: self.file.to_string(), line: pos.line, column: pos.column, pointer: pointer.into() }
    }

    /// The location of the blob itself.
    pub fn blob(&self) -> Location {
        self.at(self.pos, "")
    }
}

/// `olm.package`.
#[derive(Debug, Clone, PartialEq)]
pub struct Package {
    /// The blob.
    pub source: Source,
    /// `name`.
    pub name: Spanned<String>,
    /// `defaultChannel` (empty when unset).
    pub default_channel: Spanned<String>,
    /// `icon`, decoded.
    pub icon: Option<Icon>,
    /// `description`.
    pub description: String,
    /// `properties`.
    pub properties: Vec<Property>,
}

/// A package icon; `data` is the decoded `base64data`.
#[derive(Debug, Clone, PartialEq)]
pub struct Icon {
    /// The image bytes (shared: the model's package holds the same icon without a copy).
    pub data: std::sync::Arc<[u8]>,
    /// `mediatype`.
    pub media_type: String,
}

/// `olm.channel`.
#[derive(Debug, Clone, PartialEq)]
pub struct Channel {
    /// The blob.
    pub source: Source,
    /// `package`.
    pub package: Spanned<String>,
    /// `name`.
    pub name: Spanned<String>,
    /// `entries`, in order.
    pub entries: Vec<ChannelEntry>,
    /// `properties`.
    pub properties: Vec<Property>,
}

/// One entry of a channel: a bundle name and its upgrade edges.
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelEntry {
    /// Where the entry starts.
    pub pos: Pos,
    /// `name`.
    pub name: Spanned<String>,
    /// Empty when absent.
    pub replaces: Spanned<String>,
    /// `skips`.
    pub skips: Vec<Spanned<String>>,
    /// Empty when absent.
    pub skip_range: Spanned<String>,
}

/// `olm.bundle`.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// The blob.
    pub source: Source,
    /// `package`.
    pub package: Spanned<String>,
    /// `name`.
    pub name: Spanned<String>,
    /// `image` (empty when unset).
    pub image: Spanned<String>,
    /// Shared with the model, which keeps the raw properties without copying them.
    pub properties: Arc<[Property]>,
    /// `relatedImages` (shared with the model, as `properties` is).
    pub related_images: Arc<[RelatedImage]>,
    /// How many `olm.bundle.object` properties decoded to a manifest.
    pub object_count: usize,
    /// Whether each property decodes into the Go struct of its type ([`go_type::properties_fit`]),
    /// as found when the bundle was read, so that the model does not check again. `false` says
    /// nothing: a property that does not decode, or a bundle made another way.
    pub properties_fit: bool,
}

/// Bundles are equal when what they hold is: [`Bundle::properties_fit`] only remembers a check.
impl PartialEq for Bundle {
    fn eq(&self, other: &Bundle) -> bool {
        let Bundle { source, package, name, image, properties, related_images, object_count, properties_fit: _ } = self;
        (source, package, name, image, properties, related_images, object_count)
            == (
                &other.source,
                &other.package,
                &other.name,
                &other.image,
                &other.properties,
                &other.related_images,
                &other.object_count,
            )
    }
}

/// A property: a type and a raw JSON value (`None` when the `value` key is missing).
#[derive(Debug, Clone, PartialEq)]
pub struct Property {
    /// Where the property starts.
    pub pos: Pos,
    /// `type`.
    pub type_: Spanned<Str>,
    /// `value`, as read.
    pub value: Option<PropertyValue>,
}

impl Property {
    /// The `data` string of an `olm.bundle.object` property (base64 of a manifest), read without
    /// building the value's tree when the reader checked it; `None` for another type, or when
    /// `data` is not a string.
    pub fn bundle_object_data(&self) -> Option<&str> {
        if self.type_.value != property_types::TYPE_BUNDLE_OBJECT {
            return None;
        }
        let value = self.value.as_ref()?;
        value.checked_string().or_else(|| value.field("data")?.value.as_str())
    }

    /// Whether the loader found an `olm.bundle.object`'s data to be base64 of JSON (it parsed
    /// it), so that a reader need not check the JSON again; `false` when it does not know.
    pub fn bundle_object_is_json(&self) -> bool {
        self.value.as_ref().is_some_and(PropertyValue::payload_is_json)
    }

    /// The manifest an `olm.bundle.object` property embeds (`data`: base64 of YAML or JSON);
    /// `None` for another type, or when it does not decode.
    pub fn bundle_object(&self) -> Option<Node> {
        let bytes = crate::gotext::decode_base64(self.bundle_object_data()?).ok()?;
        read_documents("olm.bundle.object", &bytes).into_iter().next()?.ok()?.value
    }
}

/// The first `olm.bundle.object` of `properties` whose manifest is a ClusterServiceVersion, with
/// the property's index.
pub fn embedded_csv(properties: &[Property]) -> Option<(usize, Node)> {
    properties.iter().enumerate().find_map(|(i, p)| Some((i, p.bundle_object().filter(is_csv)?)))
}

/// Whether a manifest's `kind` is `ClusterServiceVersion`.
pub fn is_csv(manifest: &Node) -> bool {
    manifest.get("kind").and_then(Node::as_str) == Some("ClusterServiceVersion")
}

/// One of a bundle's `relatedImages`.
#[derive(Debug, Clone, PartialEq)]
pub struct RelatedImage {
    /// Where the item starts.
    pub pos: Pos,
    /// `name`.
    pub name: Spanned<String>,
    /// `image`.
    pub image: Spanned<String>,
}

/// `olm.deprecations`.
#[derive(Debug, Clone, PartialEq)]
pub struct Deprecation {
    /// The blob.
    pub source: Source,
    /// `package`.
    pub package: Spanned<String>,
    /// `entries`.
    pub entries: Vec<DeprecationEntry>,
}

/// One deprecation: what is deprecated and why.
#[derive(Debug, Clone, PartialEq)]
pub struct DeprecationEntry {
    /// Where the entry starts.
    pub pos: Pos,
    /// `reference.schema`.
    pub schema: Spanned<String>,
    /// Empty for a package-level deprecation.
    pub name: Spanned<String>,
    /// `message`.
    pub message: Spanned<String>,
}

/// A blob of any other schema, kept as it was read.
#[derive(Debug, Clone, PartialEq)]
pub struct Meta {
    /// The blob.
    pub source: Source,
    /// `schema`.
    pub schema: String,
    /// `package` (empty when absent).
    pub package: String,
    /// `name` (empty when absent).
    pub name: String,
    /// The whole blob.
    pub blob: Node,
}

/// Every blob of a catalog, in load order (files in walk order, blobs in file order).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DeclarativeConfig {
    /// `olm.package` blobs.
    pub packages: Vec<Package>,
    /// `olm.channel` blobs.
    pub channels: Vec<Channel>,
    /// `olm.bundle` blobs.
    pub bundles: Vec<Bundle>,
    /// `olm.deprecations` blobs.
    pub deprecations: Vec<Deprecation>,
    /// Blobs of every other schema.
    pub others: Vec<Meta>,
}

/// One decoded blob.
#[derive(Debug, Clone, PartialEq)]
pub enum Blob {
    /// An `olm.package` blob.
    Package(Package),
    /// An `olm.channel` blob.
    Channel(Channel),
    /// An `olm.bundle` blob.
    Bundle(Bundle),
    /// An `olm.deprecations` blob.
    Deprecation(Deprecation),
    /// A blob of another schema.
    Other(Meta),
}

impl DeclarativeConfig {
    /// Append a blob to its bucket.
    pub fn push(&mut self, blob: Blob) {
        match blob {
            Blob::Package(p) => self.packages.push(p),
            Blob::Channel(c) => self.channels.push(c),
            Blob::Bundle(b) => self.bundles.push(b),
            Blob::Deprecation(d) => self.deprecations.push(d),
            Blob::Other(m) => self.others.push(m),
        }
    }

    /// Append every blob of another catalog.
    pub fn extend(&mut self, other: DeclarativeConfig) {
        self.packages.extend(other.packages);
        self.channels.extend(other.channels);
        self.bundles.extend(other.bundles);
        self.deprecations.extend(other.deprecations);
        self.others.extend(other.others);
    }
}
