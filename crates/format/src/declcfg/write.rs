//! Writing a [`DeclarativeConfig`] back out in opm's own forms: `declcfg.WriteJSON`,
//! `declcfg.WriteYAML` and `declcfg.WriteFS` (one `<package>/catalog.json|yaml` per package).
//!
//! This module owns the *order* of the blobs (opm's `writeToEncoder`); the rest is split by
//! concern:
//! - `tree`: each blob as the value Go's `encoding/json` makes of its struct (field order,
//!   `omitempty`, the icon in base64, raw values as given or with sorted keys);
//! - `json`: that value as `json.Encoder` with `SetIndent("", "    ")` and HTML escaping off
//!   prints it;
//! - `yaml`, `yaml_scalar` and `emitter`: the same value as sigs.k8s.io/yaml's `JSONToYAML`
//!   prints it (go-yaml v2: keys in go-yaml's order, its scalar styles, 80-column folding).
//!
//! Order (`alpha/declcfg/write.go` of operator-registry v1.73.0, `writeToEncoder` /
//! `configsByPackage`): blobs are grouped by package — a package blob by its name, channels,
//! bundles, deprecations and other blobs by their `package` — and groups are written in
//! package-name order. Within a group: package blobs as read, channels by name, bundles by name
//! (both with Go's unstable `sort.Slice`, reproduced by [`crate::gosort`], so that two blobs
//! with the same name come out in opm's order), other blobs by schema (stable), then
//! deprecations as read. Other blobs with no package come last, as read. opm drops the package,
//! channel, bundle and deprecation blobs that have no package; here they are kept, written with
//! the package-less other blobs.
//!
//! Raw JSON (property values, other-schema blobs) is written as given by [`write()`]: that is what
//! opm prints for blobs it rendered itself (Go struct order), and what a catalog file holds.
//! opm's loader re-encodes every blob it reads with sorted keys, so `opm render <catalog>` prints
//! loaded raw values sorted: [`write_loaded`] reproduces that. In YAML, keys are sorted anyway.

mod emitter;
mod json;
mod tree;
mod yaml;
mod yaml_scalar;

pub use tree::RawKeys;

use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use super::value::Node;
use super::{Bundle, Channel, DeclarativeConfig, Deprecation, Meta, Package, Source};

/// The two output formats of `opm render -o` and `WriteFS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A stream of indented JSON objects (`WriteJSON`).
    Json,
    /// A stream of YAML documents, each starting with `---` (`WriteYAML`).
    Yaml,
}

impl Format {
    /// The file extension opm's `WriteFS` uses (`.json` or `.yaml`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Json => ".json",
            Format::Yaml => ".yaml",
        }
    }
}

/// A format name that is neither `json` nor `yaml`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid output format {}, expected (json|yaml)", crate::gotext::quote(&self.0))
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Format, UnknownFormat> {
        match s {
            "json" => Ok(Format::Json),
            "yaml" => Ok(Format::Yaml),
            other => Err(UnknownFormat(other.to_string())),
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Yaml => "yaml",
        })
    }
}

/// The whole catalog as one stream, as opm's `WriteJSON` / `WriteYAML` print it, raw values as
/// given.
pub fn write(cfg: &DeclarativeConfig, format: Format) -> String {
    write_stream(cfg, format, RawKeys::AsGiven)
}

/// The whole catalog as `opm render <catalog> -o json|yaml` prints a catalog it loaded: like
/// [`write()`], with the keys of raw values sorted as opm's loader leaves them.
pub fn write_loaded(cfg: &DeclarativeConfig, format: Format) -> String {
    write_stream(cfg, format, RawKeys::Sorted)
}

fn write_stream(cfg: &DeclarativeConfig, format: Format, raw: RawKeys) -> String {
    let mut out = String::new();
    for (_, group) in &by_package(cfg) {
        write_group(group, format, raw, &mut out);
    }
    out
}

/// One text per package, as `WriteFS` lays a catalog out: `(package, text)` in package-name
/// order, for `<package>/catalog.json` or `<package>/catalog.yaml`. Blobs with no package come
/// last, under `""` (opm writes them to `catalog.<ext>` at the root). Raw values as given.
pub fn write_by_package(cfg: &DeclarativeConfig, format: Format) -> Vec<(String, String)> {
    by_package(cfg)
        .into_iter()
        .map(|(name, group)| {
            let mut out = String::new();
            write_group(&group, format, RawKeys::AsGiven, &mut out);
            (name.to_string(), out)
        })
        .collect()
}

/// One blob of a catalog, borrowed.
#[derive(Debug, Clone, Copy)]
pub enum BlobRef<'a> {
    /// An `olm.package` blob.
    Package(&'a Package),
    /// An `olm.channel` blob.
    Channel(&'a Channel),
    /// An `olm.bundle` blob.
    Bundle(&'a Bundle),
    /// An `olm.deprecations` blob.
    Deprecation(&'a Deprecation),
    /// A blob of another schema.
    Other(&'a Meta),
}

impl<'a> BlobRef<'a> {
    /// Where the blob was read (or made).
    pub fn source(&self) -> &'a Source {
        match *self {
            BlobRef::Package(p) => &p.source,
            BlobRef::Channel(c) => &c.source,
            BlobRef::Bundle(b) => &b.source,
            BlobRef::Deprecation(d) => &d.source,
            BlobRef::Other(m) => &m.source,
        }
    }
}

/// A blob as the JSON value opm encodes for it (see `tree`), raw values in `raw` order.
pub fn blob_value(blob: BlobRef<'_>, raw: RawKeys) -> Node {
    match blob {
        BlobRef::Package(p) => tree::package(p, raw),
        BlobRef::Channel(c) => tree::channel(c, raw),
        BlobRef::Bundle(b) => tree::bundle(b, raw),
        BlobRef::Deprecation(d) => tree::deprecation(d),
        BlobRef::Other(m) => tree::meta(m, raw),
    }
}

/// A JSON value as Go's `json.MarshalIndent(v, "", "    ")` prints it (no final newline), with
/// `<`, `>` and `&` escaped as `\u003c`, `\u003e`, `\u0026` when `escape_html` (Go's default).
pub fn json_indent(value: &Node, escape_html: bool) -> String {
    let mut out = String::new();
    json::write_value(value, &mut out);
    out.pop();
    if escape_html {
        // Outside strings, JSON text never holds these characters.
        out = out.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026");
    }
    out
}

/// A JSON value as sigs.k8s.io/yaml's `JSONToYAML` prints it (one document, no `---`).
pub fn yaml_document(value: &Node) -> String {
    let mut out = String::new();
    yaml::write_document(value, &mut out);
    out
}

/// The blobs of one package, each kind in write order.
#[derive(Default)]
struct Group<'a> {
    packages: Vec<&'a Package>,
    channels: Vec<&'a Channel>,
    bundles: Vec<&'a Bundle>,
    deprecations: Vec<&'a Deprecation>,
    others: Vec<&'a Meta>,
}

/// opm's `configsByPackage`, with each group sorted as `writeToEncoder` sorts it: the groups
/// in package-name order, the blobs with no package (`""`) last.
fn by_package(cfg: &DeclarativeConfig) -> Vec<(&str, Group<'_>)> {
    let mut groups: BTreeMap<&str, Group<'_>> = BTreeMap::new();
    for p in &cfg.packages {
        groups.entry(p.name.as_str()).or_default().packages.push(p);
    }
    for c in &cfg.channels {
        groups.entry(c.package.as_str()).or_default().channels.push(c);
    }
    for b in &cfg.bundles {
        groups.entry(b.package.as_str()).or_default().bundles.push(b);
    }
    for d in &cfg.deprecations {
        groups.entry(d.package.as_str()).or_default().deprecations.push(d);
    }
    for o in &cfg.others {
        groups.entry(o.package.as_str()).or_default().others.push(o);
    }
    let unpackaged = groups.remove("");
    for g in groups.values_mut() {
        crate::gosort::sort_slice(&mut g.channels, |a, b| a.name.value < b.name.value);
        crate::gosort::sort_slice(&mut g.bundles, |a, b| a.name.value < b.name.value);
        crate::sort::sort_by(&mut g.others, |a, b| a.schema.cmp(&b.schema));
    }
    let mut out: Vec<(&str, Group<'_>)> = groups.into_iter().collect();
    out.extend(unpackaged.map(|g| ("", g)));
    out
}

fn write_group(g: &Group<'_>, format: Format, raw: RawKeys, out: &mut String) {
    let blobs = g
        .packages
        .iter()
        .map(|p| BlobRef::Package(p))
        .chain(g.channels.iter().map(|c| BlobRef::Channel(c)))
        .chain(g.bundles.iter().map(|b| BlobRef::Bundle(b)))
        .chain(g.others.iter().map(|m| BlobRef::Other(m)))
        .chain(g.deprecations.iter().map(|d| BlobRef::Deprecation(d)))
        .map(|b| blob_value(b, raw));
    for blob in blobs {
        write_blob(&blob, format, out);
    }
}

/// One blob as `Encoder.Encode` writes it.
fn write_blob(blob: &Node, format: Format, out: &mut String) {
    match format {
        Format::Json => json::write_value(blob, out),
        Format::Yaml => {
            out.push_str("---\n");
            yaml::write_document(blob, out);
        }
    }
}

#[cfg(test)]
mod tests;
