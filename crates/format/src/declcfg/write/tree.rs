//! Each blob as the JSON value Go's `encoding/json` makes of opm's `declcfg` structs: fields in
//! struct order under their JSON names, `omitempty` fields left out when empty, the icon's bytes
//! in standard base64, and raw JSON (property values, whole other-schema blobs) written as it is
//! held: members in their order ([`RawKeys::AsGiven`]), or sorted at every level as opm's loader
//! leaves them after re-encoding each blob it reads ([`RawKeys::Sorted`]).
//!
//! Struct facts (`alpha/declcfg/declcfg.go`, `alpha/property/property.go`):
//! - `Package`: `schema`, `name`, `defaultChannel`, `icon` (omitempty), `description`
//!   (omitempty), `properties` (omitempty); `Icon`: `base64data`, `mediatype`.
//! - `Channel`: `schema`, `name`, `package`, `entries` (always; a nil slice is `null`),
//!   `properties` (omitempty); `ChannelEntry`: `name`, `replaces`, `skips`, `skipRange` (the last
//!   three omitempty).
//! - `Bundle`: `schema`, `name` (omitempty), `package` (omitempty), `image`, `properties`,
//!   `relatedImages` (both omitempty); `RelatedImage`: `name`, `image`.
//! - `Deprecation`: `schema`, `package`, `entries` (always); `DeprecationEntry`: `reference`
//!   (`schema`, `name` omitempty), `message`.
//! - `Property`: `type`, `value` (a missing value is a nil `RawMessage`, written `null`).
//!
//! A slice that is empty here may have been nil or empty in Go; both `entries` lists are written
//! `[]` when empty (what a blob read with `"entries": []`, or built in code, holds).

use ::base64::Engine as _;

use super::super::value::{Member, Node, Pos, Value};
use super::super::{Bundle, Channel, Deprecation, Meta, Package, Property};
use super::super::{SCHEMA_BUNDLE, SCHEMA_CHANNEL, SCHEMA_DEPRECATIONS, SCHEMA_PACKAGE};

/// The order the members of raw JSON values (property values, other-schema blobs) are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RawKeys {
    /// Object members in the order the value holds them (a value rendered from Go structs keeps
    /// its struct order; one read from a file, the file's order).
    AsGiven,
    /// Object keys sorted at every level, as opm holds every raw value of a blob it loaded.
    Sorted,
}

impl RawKeys {
    fn apply(self, node: &Node) -> Node {
        match self {
            RawKeys::AsGiven => node.clone(),
            RawKeys::Sorted => sorted(node),
        }
    }
}

/// An `olm.package` blob.
pub(super) fn package(p: &Package, raw: RawKeys) -> Node {
    let mut o = Obj::new(SCHEMA_PACKAGE);
    o.put("name", string(&p.name.value));
    o.put("defaultChannel", string(&p.default_channel.value));
    if let Some(icon) = &p.icon {
        let mut i = Obj::default();
        i.put("base64data", string(&::base64::engine::general_purpose::STANDARD.encode(&icon.data)));
        i.put("mediatype", string(&icon.media_type));
        o.put("icon", i.node());
    }
    o.put_nonempty("description", &p.description);
    o.put_properties(&p.properties, raw);
    o.node()
}

/// An `olm.channel` blob.
pub(super) fn channel(c: &Channel, raw: RawKeys) -> Node {
    let mut o = Obj::new(SCHEMA_CHANNEL);
    o.put("name", string(&c.name.value));
    o.put("package", string(&c.package.value));
    let entries = c.entries.iter().map(|e| {
        let mut eo = Obj::default();
        eo.put("name", string(&e.name.value));
        eo.put_nonempty("replaces", &e.replaces.value);
        if !e.skips.is_empty() {
            eo.put("skips", array(e.skips.iter().map(|s| string(&s.value))));
        }
        eo.put_nonempty("skipRange", &e.skip_range.value);
        eo.node()
    });
    o.put("entries", array(entries));
    o.put_properties(&c.properties, raw);
    o.node()
}

/// An `olm.bundle` blob.
pub(super) fn bundle(b: &Bundle, raw: RawKeys) -> Node {
    let mut o = Obj::new(SCHEMA_BUNDLE);
    o.put_nonempty("name", &b.name.value);
    o.put_nonempty("package", &b.package.value);
    o.put("image", string(&b.image.value));
    o.put_properties(&b.properties, raw);
    if !b.related_images.is_empty() {
        let items = b.related_images.iter().map(|r| {
            let mut ro = Obj::default();
            ro.put("name", string(&r.name.value));
            ro.put("image", string(&r.image.value));
            ro.node()
        });
        o.put("relatedImages", array(items));
    }
    o.node()
}

/// An `olm.deprecations` blob.
pub(super) fn deprecation(d: &Deprecation) -> Node {
    let mut o = Obj::new(SCHEMA_DEPRECATIONS);
    o.put("package", string(&d.package.value));
    let entries = d.entries.iter().map(|e| {
        let mut reference = Obj::default();
        reference.put("schema", string(&e.schema.value));
        reference.put_nonempty("name", &e.name.value);
        let mut eo = Obj::default();
        eo.put("reference", reference.node());
        eo.put("message", string(&e.message.value));
        eo.node()
    });
    o.put("entries", array(entries));
    o.node()
}

/// A blob of another schema: the whole blob, raw.
pub(super) fn meta(m: &Meta, raw: RawKeys) -> Node {
    raw.apply(&m.blob)
}

/// A copy of `node` with object keys in Go's map order (sorted by bytes) at every level.
pub(super) fn sorted(node: &Node) -> Node {
    let value = match &node.value {
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        Value::Object(members) => {
            let mut ms: Vec<Member> = members
                .iter()
                .map(|m| Member { key: m.key.clone(), key_pos: Pos::default(), value: sorted(&m.value) })
                .collect();
            crate::sort::sort_by(&mut ms, |a, b| a.key.cmp(&b.key));
            Value::Object(ms.into())
        }
        v => v.clone(),
    };
    Node::new(Pos::default(), value)
}

fn string(s: &str) -> Node {
    Node::new(Pos::default(), Value::String(s.into()))
}

fn array(items: impl Iterator<Item = Node>) -> Node {
    Node::new(Pos::default(), Value::Array(items.collect()))
}

fn property(p: &Property, raw: RawKeys) -> Node {
    let mut o = Obj::default();
    o.put("type", string(&p.type_.value));
    o.put("value", p.value.as_ref().map_or_else(|| Node::new(Pos::default(), Value::Null), |v| raw.apply(v)));
    o.node()
}

/// An object under construction, members in the order they are put.
#[derive(Default)]
struct Obj(Vec<Member>);

impl Obj {
    /// An object whose first member is `schema`.
    fn new(schema: &str) -> Obj {
        let mut o = Obj::default();
        o.put("schema", string(schema));
        o
    }

    fn put(&mut self, key: &str, value: Node) {
        self.0.push(Member { key: key.into(), key_pos: Pos::default(), value });
    }

    /// An `omitempty` string field.
    fn put_nonempty(&mut self, key: &str, value: &str) {
        if !value.is_empty() {
            self.put(key, string(value));
        }
    }

    /// The `omitempty` `properties` field.
    fn put_properties(&mut self, properties: &[Property], raw: RawKeys) {
        if !properties.is_empty() {
            self.put("properties", array(properties.iter().map(|p| property(p, raw))));
        }
    }

    fn node(self) -> Node {
        Node::new(Pos::default(), Value::Object(self.0.into()))
    }
}
