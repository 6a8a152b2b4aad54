//! Decoding a blob's generic [`Node`] into the typed schema structs, the way Go's
//! `encoding/json` fills `declcfg` structs: keys match fields case-insensitively, unknown keys are
//! ignored, `null` leaves the zero value, and a JSON type mismatch is an error worded like Go's
//! (`json: cannot unmarshal number into Go struct field Channel.entries of type ...`).

use std::sync::Arc;

use super::go_type::{self, GoType};
use super::value::{field_indexes, Node, Pos, Str, Value};
use super::PropertyValue;
use super::{
    Bundle, Channel, ChannelEntry, Deprecation, DeprecationEntry, Icon, Package, Property, RelatedImage, Source,
    Spanned,
};

/// A decoding failure and where it is.
#[derive(Debug, Clone, PartialEq)]
pub struct DecodeError {
    pub message: String,
    pub pos: Pos,
    pub pointer: String,
}

type R<T> = Result<T, DecodeError>;

/// The Go struct being filled and the JSON path to it, for error messages. Built as a chain of
/// borrowed segments so that the success path allocates nothing.
#[derive(Clone, Copy)]
struct Ctx<'a> {
    go_struct: &'static str,
    parent: Option<&'a Ctx<'a>>,
    seg: Seg<'a>,
}

#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Field(&'a str),
    Index(usize),
}

impl<'a> Ctx<'a> {
    fn root(go_struct: &'static str) -> Ctx<'static> {
        Ctx { go_struct, parent: None, seg: Seg::Root }
    }

    fn field(&'a self, name: &'a str) -> Ctx<'a> {
        Ctx { go_struct: self.go_struct, parent: Some(self), seg: Seg::Field(name) }
    }

    fn index(&'a self, i: usize, go_struct: &'static str) -> Ctx<'a> {
        Ctx { go_struct, parent: Some(self), seg: Seg::Index(i) }
    }

    fn segments(&self) -> Vec<Seg<'a>> {
        let mut segs = vec![self.seg];
        let mut cur = self.parent;
        while let Some(c) = cur {
            segs.push(c.seg);
            cur = c.parent;
        }
        segs.reverse();
        segs
    }

    /// Go's dotted field path (indexes are not part of it).
    fn path(&self) -> String {
        let names: Vec<&str> =
            self.segments().into_iter().filter_map(|s| if let Seg::Field(f) = s { Some(f) } else { None }).collect();
        names.join(".")
    }

    /// The JSON pointer of the value.
    fn pointer(&self) -> String {
        let mut p = String::new();
        for s in self.segments() {
            match s {
                Seg::Root => {}
                Seg::Field(f) => {
                    p.push('/');
                    p.push_str(f);
                }
                Seg::Index(i) => {
                    p.push('/');
                    p.push_str(&i.to_string());
                }
            }
        }
        p
    }

    fn mismatch(&self, node: &Node, go_type: &str) -> DecodeError {
        let path = self.path();
        let message = if path.is_empty() {
            format!("json: cannot unmarshal {} into Go value of type {}", node.kind_name(), go_type)
        } else {
            format!(
                "json: cannot unmarshal {} into Go struct field {}.{} of type {}",
                node.kind_name(),
                self.go_struct,
                path,
                go_type
            )
        };
        DecodeError { message, pos: node.pos, pointer: self.pointer() }
    }
}

/// The indexes of `fields` among `obj`'s members, found in one pass ([`field_indexes`]); all
/// `None` when `obj` is not an object.
fn fields_of<const N: usize>(obj: &Node, fields: [&str; N]) -> [Option<usize>; N] {
    match &obj.value {
        Value::Object(members) => field_indexes(members, fields),
        _ => [None; N],
    }
}

/// Member `i` of `obj` (an index from [`fields_of`]), unless it is `null`.
fn member_at(obj: &mut Node, i: Option<usize>) -> Option<&mut Node> {
    let (Value::Object(members), Some(i)) = (&mut obj.value, i) else { return None };
    Some(&mut members[i].value).filter(|n| n.value != Value::Null)
}

fn member_mut<'a>(obj: &'a mut Node, name: &str) -> Option<&'a mut Node> {
    let [i] = fields_of(obj, [name]);
    member_at(obj, i)
}

/// The string field `name`, member `i` of `obj`, moved out of the tree (which is dropped after
/// decoding): a long string keeps its allocation.
fn string_at(obj: &mut Node, i: Option<usize>, name: &str, ctx: &Ctx<'_>) -> R<Spanned<String>> {
    let mut s = str_at(obj, i, name, ctx)?;
    Ok(Spanned::new(take_string(&mut s.value), s.pos))
}

/// [`string_at`], the string kept as the tree holds it (a short one inline, without an allocation).
fn str_at(obj: &mut Node, i: Option<usize>, name: &str, ctx: &Ctx<'_>) -> R<Spanned<Str>> {
    let pos = obj.pos;
    match member_at(obj, i) {
        None => Ok(Spanned::new(Str::default(), pos)),
        Some(n) => match &mut n.value {
            Value::String(s) => Ok(Spanned::new(std::mem::take(s), n.pos)),
            _ => Err(ctx.field(name).mismatch(n, "string")),
        },
    }
}

fn string(obj: &mut Node, name: &str, ctx: &Ctx<'_>) -> R<Spanned<String>> {
    let [i] = fields_of(obj, [name]);
    string_at(obj, i, name, ctx)
}

/// A string of the tree as a `String`: moved (a long one keeps its allocation) where the build
/// takes its fast paths, copied in the browsers' modules, which keep the smaller code.
fn take_string(s: &mut Str) -> String {
    if crate::FAST_PATHS {
        std::mem::take(s).into_string()
    } else {
        String::from(s.as_str())
    }
}

/// The array field `name`, member `i` of `obj`.
fn array_at<'a>(obj: &'a mut Node, i: Option<usize>, name: &str, ctx: &Ctx<'_>, go_type: &str) -> R<&'a mut [Node]> {
    match member_at(obj, i) {
        None => Ok(&mut []),
        Some(n) => match n.value {
            Value::Array(ref mut a) => Ok(a),
            _ => Err(ctx.field(name).mismatch(n, go_type)),
        },
    }
}

fn array<'a>(obj: &'a mut Node, name: &str, ctx: &Ctx<'_>, go_type: &str) -> R<&'a mut [Node]> {
    let [i] = fields_of(obj, [name]);
    array_at(obj, i, name, ctx, go_type)
}

fn object<'a>(node: &'a mut Node, ctx: &Ctx<'_>, go_type: &str) -> R<&'a mut Node> {
    match node.value {
        Value::Object(_) => Ok(node),
        _ => Err(ctx.mismatch(node, go_type)),
    }
}

/// The `properties` field, member `at` of `obj`. Each `value` is moved out of the tree (which is
/// dropped after decoding) into its [`Property`], not copied; an `olm.csv.metadata` value the
/// reader left as a null at the position of one of `checked` becomes that value, taken out of
/// `checked`.
fn properties(obj: &mut Node, at: Option<usize>, ctx: &Ctx<'_>, checked: &mut Checked) -> R<Vec<Property>> {
    let items = array_at(obj, at, "properties", ctx, "[]property.Property")?;
    let pctx = ctx.field("properties");
    let ctx = &pctx;
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter_mut().enumerate() {
        if item.value == Value::Null {
            out.push(Property { pos: item.pos, type_: Spanned::new(Str::default(), item.pos), value: None });
            continue;
        }
        let c = ctx.index(i, "Property");
        let pos = item.pos;
        let p = object(item, &c, "property.Property")?;
        let [t, v] = fields_of(p, ["type", "value"]);
        // `value` is raw JSON: any value is fine, `null` included; only absence is remembered.
        let type_ = str_at(p, t, "type", &c)?;
        let value = match (&mut p.value, v) {
            (Value::Object(members), Some(v)) => {
                let node = std::mem::replace(&mut members[v].value, Node::new(pos, Value::Null));
                // Only a value checked as the type the property has (else it is left in
                // `checked`, and the caller reads the blob again); the browsers' modules check
                // none (`crate::FAST_PATHS`).
                let ty = if crate::FAST_PATHS { go_type::of_property(&type_.value) } else { None };
                Some(checked.take(node, ty))
            }
            _ => None,
        };
        out.push(Property { pos, type_, value });
    }
    Ok(out)
}

pub fn package(mut node: Node, file: &Arc<str>) -> R<Package> {
    let node = &mut node;
    let ctx = Ctx::root("Package");
    let [name, default_channel, icon, description, props] =
        fields_of(node, ["name", "defaultChannel", "icon", "description", "properties"]);
    let icon = match member_at(node, icon) {
        None => None,
        Some(n) => {
            let c = ctx.field("icon");
            let n = object(n, &c, "declcfg.Icon")?;
            let c = Ctx { go_struct: "Icon", ..c };
            let c = &c;
            let data = match member_mut(n, "base64data") {
                None => Vec::new(),
                Some(d) => match &d.value {
                    Value::String(s) => crate::gotext::decode_base64(s).map_err(|m| DecodeError {
                        message: m.to_string(),
                        pos: d.pos,
                        pointer: "/icon/base64data".into(),
                    })?,
                    _ => return Err(c.field("base64data").mismatch(d, "[]uint8")),
                },
            };
            let media_type = string(n, "mediatype", c)?.value;
            Some(Icon { data: data.into(), media_type })
        }
    };
    Ok(Package {
        source: Source { file: file.clone(), pos: node.pos },
        name: string_at(node, name, "name", &ctx)?,
        default_channel: string_at(node, default_channel, "defaultChannel", &ctx)?,
        icon,
        description: string_at(node, description, "description", &ctx)?.value,
        properties: properties(node, props, &ctx, &mut Checked::default())?,
    })
}

pub fn channel(mut node: Node, file: &Arc<str>) -> R<Channel> {
    let node = &mut node;
    let ctx = Ctx::root("Channel");
    let [entries_at, package, name, props] = fields_of(node, ["entries", "package", "name", "properties"]);
    let items = array_at(node, entries_at, "entries", &ctx, "[]declcfg.ChannelEntry")?;
    let ectx = ctx.field("entries");
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter_mut().enumerate() {
        let c = ectx.index(i, "ChannelEntry");
        if item.value == Value::Null {
            let empty = Spanned::new(String::new(), item.pos);
            entries.push(ChannelEntry {
                pos: item.pos,
                name: empty.clone(),
                replaces: empty.clone(),
                skips: Vec::new(),
                skip_range: empty,
            });
            continue;
        }
        let pos = item.pos;
        let e = object(item, &c, "declcfg.ChannelEntry")?;
        let [skips_at, name, replaces, skip_range] = fields_of(e, ["skips", "name", "replaces", "skipRange"]);
        let skips_nodes = array_at(e, skips_at, "skips", &c, "[]string")?;
        let sctx = c.field("skips");
        let mut skips = Vec::with_capacity(skips_nodes.len());
        for (j, s) in skips_nodes.iter_mut().enumerate() {
            match &mut s.value {
                Value::String(t) => skips.push(Spanned::new(take_string(t), s.pos)),
                Value::Null => skips.push(Spanned::new(String::new(), s.pos)),
                _ => return Err(sctx.index(j, "ChannelEntry").mismatch(s, "string")),
            }
        }
        entries.push(ChannelEntry {
            pos,
            name: string_at(e, name, "name", &c)?,
            replaces: string_at(e, replaces, "replaces", &c)?,
            skips,
            skip_range: string_at(e, skip_range, "skipRange", &c)?,
        });
    }
    Ok(Channel {
        source: Source { file: file.clone(), pos: node.pos },
        package: string_at(node, package, "package", &ctx)?,
        name: string_at(node, name, "name", &ctx)?,
        entries,
        properties: properties(node, props, &ctx, &mut Checked::default())?,
    })
}

/// The values a reader checked without building their trees, each known by the position of the
/// null it left in their place, and the Go type it was checked against.
#[derive(Default)]
pub struct Checked(pub Vec<(Pos, &'static GoType, PropertyValue)>);

impl Checked {
    /// `node`, or the value checked as a `ty` that it holds the place of.
    fn take(&mut self, node: Node, ty: Option<&'static GoType>) -> PropertyValue {
        if let (Value::Null, Some(ty)) = (&node.value, ty) {
            if let Some(i) = self.0.iter().position(|(pos, t, _)| *pos == node.pos && std::ptr::eq(*t, ty)) {
                return self.0.swap_remove(i).2;
            }
        }
        node.into()
    }
}

/// A bundle blob; `checked`: the values its reader checked without building them (those left in
/// it were not where a bundle keeps property values).
pub fn bundle(mut node: Node, file: &Arc<str>, checked: &mut Checked) -> R<Bundle> {
    let node = &mut node;
    let ctx = Ctx::root("Bundle");
    let [related, package, name, image, props] =
        fields_of(node, ["relatedImages", "package", "name", "image", "properties"]);
    let items = array_at(node, related, "relatedImages", &ctx, "[]declcfg.RelatedImage")?;
    let rctx = ctx.field("relatedImages");
    let mut related_images = Vec::with_capacity(items.len());
    for (i, item) in items.iter_mut().enumerate() {
        let c = rctx.index(i, "RelatedImage");
        if item.value == Value::Null {
            let empty = Spanned::new(String::new(), item.pos);
            related_images.push(RelatedImage { pos: item.pos, name: empty.clone(), image: empty });
            continue;
        }
        let pos = item.pos;
        let r = object(item, &c, "declcfg.RelatedImage")?;
        let [name, image] = fields_of(r, ["name", "image"]);
        related_images.push(RelatedImage {
            pos,
            name: string_at(r, name, "name", &c)?,
            image: string_at(r, image, "image", &c)?,
        });
    }
    let properties = properties(node, props, &ctx, checked)?;
    Ok(Bundle {
        source: Source { file: file.clone(), pos: node.pos },
        package: string_at(node, package, "package", &ctx)?,
        name: string_at(node, name, "name", &ctx)?,
        image: string_at(node, image, "image", &ctx)?,
        // Checked now, while the document's trees are in the cache: the model's own walk of the
        // same values, long after the load, waited on memory (`go_type`'s documentation).
        properties_fit: super::go_type::properties_fit(&properties),
        properties: properties.into(),
        related_images: related_images.into(),
        object_count: 0,
    })
}

pub fn deprecation(mut node: Node, file: &Arc<str>) -> R<Deprecation> {
    let node = &mut node;
    let ctx = Ctx::root("Deprecation");
    let items = array(node, "entries", &ctx, "[]declcfg.DeprecationEntry")?;
    let ectx = ctx.field("entries");
    let mut entries = Vec::with_capacity(items.len());
    for (i, item) in items.iter_mut().enumerate() {
        let c = ectx.index(i, "DeprecationEntry");
        let empty = Spanned::new(String::new(), item.pos);
        if item.value == Value::Null {
            entries.push(DeprecationEntry {
                pos: item.pos,
                schema: empty.clone(),
                name: empty.clone(),
                message: empty,
            });
            continue;
        }
        let pos = item.pos;
        let e = object(item, &c, "declcfg.DeprecationEntry")?;
        let (schema, name) = match member_mut(e, "reference") {
            None => (empty.clone(), empty.clone()),
            Some(r) => {
                let rf = c.field("reference");
                let rc = Ctx { go_struct: "PackageScopedReference", ..rf };
                let r = object(r, &rc, "declcfg.PackageScopedReference")?;
                (string(r, "schema", &rc)?, string(r, "name", &rc)?)
            }
        };
        entries.push(DeprecationEntry { pos, schema, name, message: string(e, "message", &c)? });
    }
    Ok(Deprecation {
        source: Source { file: file.clone(), pos: node.pos },
        package: string(node, "package", &ctx)?,
        entries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json::JsonReader;

    fn node(src: &str) -> Node {
        JsonReader::new(src, 1).next_value().unwrap()
    }

    #[test]
    fn case_insensitive_fields() {
        let f: Arc<str> = Arc::from("f.json");
        let p = package(node(r#"{"Schema":"olm.package","Name":"foo","DefaultChannel":"alpha"}"#), &f).unwrap();
        assert_eq!(p.name.value, "foo");
        assert_eq!(p.default_channel.value, "alpha");
    }

    #[test]
    fn go_type_errors() {
        let f: Arc<str> = Arc::from("f.json");
        let e = channel(node(r#"{"entries":"x"}"#), &f).unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal string into Go struct field Channel.entries of type []declcfg.ChannelEntry"
        );
        let e = channel(node(r#"{"entries":[{"name":1}]}"#), &f).unwrap_err();
        assert_eq!(
            e.message,
            "json: cannot unmarshal number into Go struct field ChannelEntry.entries.name of type string"
        );
        assert_eq!(e.pointer, "/entries/0/name");
    }
}
