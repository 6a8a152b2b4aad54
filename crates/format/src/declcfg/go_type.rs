//! The Go struct shapes opm decodes property values into, as data, and a checker that reports a
//! JSON type mismatch the way Go's `encoding/json` does. Unknown keys are ignored and `null`
//! leaves the zero value, as in Go.
//!
//! The model parses properties with it; the loader checks each bundle's properties with it as
//! soon as the bundle is read ([`properties_fit`]), while the bundle's trees are still in the
//! processor's cache, so that the model need not walk them again.

use std::sync::OnceLock;

use super::property_types::*;
use super::value::{key_matches, prefetch, FieldTable, Member, Node, Value};
use super::Property;
use crate::FAST_PATHS;

/// A Go type, as far as JSON decoding cares.
#[derive(Debug, PartialEq)]
pub enum GoType {
    /// `string`.
    Str,
    /// `bool`.
    Bool,
    /// `int32` (a JSON number without a fraction).
    Int,
    /// `[]byte`: a base64 string.
    Bytes,
    /// `json.RawMessage` / `interface{}`: anything.
    Any,
    /// A slice (its Go name, its element); an empty name marks a struct-valued field.
    Slice(&'static str, &'static GoType),
    /// `map[string]T` (its Go name, its value type).
    Map(&'static str, &'static GoType),
    /// A struct: its package-qualified name and its JSON fields in Go's field order.
    Struct(&'static str, &'static [(&'static str, GoType)]),
}

use GoType::*;

/// `olm.package`.
pub static PACKAGE: GoType = Struct("property.Package", &[("packageName", Str), ("version", Str), ("release", Str)]);
/// `olm.package.required`.
pub static PACKAGE_REQUIRED: GoType =
    Struct("property.PackageRequired", &[("packageName", Str), ("versionRange", Str)]);
/// `olm.gvk`.
pub static GVK: GoType = Struct("property.GVK", &[("group", Str), ("kind", Str), ("version", Str)]);
/// `olm.gvk.required`.
pub static GVK_REQUIRED: GoType = Struct("property.GVKRequired", &[("group", Str), ("kind", Str), ("version", Str)]);
/// `olm.bundle.object`.
pub static BUNDLE_OBJECT: GoType = Struct("property.BundleObject", &[("data", Bytes)]);
/// `olm.channel`.
pub static CHANNEL: GoType = Struct("property.Channel", &[("channelName", Str)]);

static STRINGS: GoType = Slice("[]string", &Str);
static STRING_MAP: GoType = Map("map[string]string", &Str);
static INSTALL_MODE: GoType = Struct("v1alpha1.InstallMode", &[("type", Str), ("supported", Bool)]);
static LINK: GoType = Struct("v1alpha1.AppLink", &[("name", Str), ("url", Str)]);
static MAINTAINER: GoType = Struct("v1alpha1.Maintainer", &[("name", Str), ("email", Str)]);
static NATIVE_API: GoType = Struct("v1.GroupVersionKind", &[("group", Str), ("version", Str), ("kind", Str)]);
static PROVIDER: GoType = Struct("v1alpha1.AppLink", &[("name", Str), ("url", Str)]);
static DESCRIPTOR: GoType = Struct(
    "v1alpha1.SpecDescriptor",
    &[
        ("path", Str),
        ("displayName", Str),
        ("description", Str),
        ("x-descriptors", Slice("[]string", &Str)),
        ("value", Any),
    ],
);
static RESOURCE: GoType = Struct("v1alpha1.APIResourceReference", &[("name", Str), ("kind", Str), ("version", Str)]);
static CRD_DESCRIPTION: GoType = Struct(
    "v1alpha1.CRDDescription",
    &[
        ("name", Str),
        ("version", Str),
        ("kind", Str),
        ("displayName", Str),
        ("description", Str),
        ("resources", Slice("[]v1alpha1.APIResourceReference", &RESOURCE)),
        ("statusDescriptors", Slice("[]v1alpha1.StatusDescriptor", &DESCRIPTOR)),
        ("specDescriptors", Slice("[]v1alpha1.SpecDescriptor", &DESCRIPTOR)),
        ("actionDescriptors", Slice("[]v1alpha1.ActionDescriptor", &DESCRIPTOR)),
    ],
);
static CRD_DESCRIPTIONS: GoType = Struct(
    "v1alpha1.CustomResourceDefinitions",
    &[
        ("owned", Slice("[]v1alpha1.CRDDescription", &CRD_DESCRIPTION)),
        ("required", Slice("[]v1alpha1.CRDDescription", &CRD_DESCRIPTION)),
    ],
);
static API_SERVICE_DESCRIPTION: GoType = Struct(
    "v1alpha1.APIServiceDescription",
    &[
        ("name", Str),
        ("group", Str),
        ("version", Str),
        ("kind", Str),
        ("deploymentName", Str),
        ("containerPort", Int),
        ("displayName", Str),
        ("description", Str),
        ("resources", Slice("[]v1alpha1.APIResourceReference", &RESOURCE)),
        ("statusDescriptors", Slice("[]v1alpha1.StatusDescriptor", &DESCRIPTOR)),
        ("specDescriptors", Slice("[]v1alpha1.SpecDescriptor", &DESCRIPTOR)),
        ("actionDescriptors", Slice("[]v1alpha1.ActionDescriptor", &DESCRIPTOR)),
    ],
);
static API_SERVICE_DEFINITIONS: GoType = Struct(
    "v1alpha1.APIServiceDefinitions",
    &[
        ("owned", Slice("[]v1alpha1.APIServiceDescription", &API_SERVICE_DESCRIPTION)),
        ("required", Slice("[]v1alpha1.APIServiceDescription", &API_SERVICE_DESCRIPTION)),
    ],
);
/// `olm.csv.metadata`.
pub static CSV_METADATA: GoType = Struct(
    "property.CSVMetadata",
    &[
        ("annotations", Map("map[string]string", &Str)),
        ("apiServiceDefinitions", API_SERVICE_DEFINITIONS_REF),
        ("crdDescriptions", CRD_DESCRIPTIONS_REF),
        ("description", Str),
        ("displayName", Str),
        ("installModes", Slice("[]v1alpha1.InstallMode", &INSTALL_MODE)),
        ("keywords", Slice("[]string", &Str)),
        ("labels", Map("map[string]string", &Str)),
        ("links", Slice("[]v1alpha1.AppLink", &LINK)),
        ("maintainers", Slice("[]v1alpha1.Maintainer", &MAINTAINER)),
        ("maturity", Str),
        ("minKubeVersion", Str),
        ("nativeAPIs", Slice("[]v1.GroupVersionKind", &NATIVE_API)),
        ("provider", PROVIDER_REF),
    ],
);

// Struct-valued fields are written as one-element slices of fields would be awkward; these
// "references" wrap the statics so they can sit inside another static's field list.
#[allow(non_upper_case_globals)]
const API_SERVICE_DEFINITIONS_REF: GoType = Slice("", &API_SERVICE_DEFINITIONS);
#[allow(non_upper_case_globals)]
const CRD_DESCRIPTIONS_REF: GoType = Slice("", &CRD_DESCRIPTIONS);
#[allow(non_upper_case_globals)]
const PROVIDER_REF: GoType = Slice("", &PROVIDER);

const _: (&GoType, &GoType) = (&STRINGS, &STRING_MAP);

/// The Go struct opm decodes the value of a property of type `type_` into; `None` for a type
/// whose value is read another way (`olm.constraint`, `olm.label`, ...) or not at all.
pub fn of_property(type_: &str) -> Option<&'static GoType> {
    Some(match type_ {
        TYPE_PACKAGE => &PACKAGE,
        TYPE_PACKAGE_REQUIRED => &PACKAGE_REQUIRED,
        TYPE_GVK => &GVK,
        TYPE_GVK_REQUIRED => &GVK_REQUIRED,
        TYPE_BUNDLE_OBJECT => &BUNDLE_OBJECT,
        TYPE_CSV_METADATA => &CSV_METADATA,
        TYPE_CHANNEL => &CHANNEL,
        _ => return None,
    })
}

/// Whether every property of a type [`of_property`] knows has a value that decodes into its Go
/// struct (a property without a value does not).
pub fn properties_fit(properties: &[Property]) -> bool {
    prefetch(properties.iter().filter_map(|p| p.value.as_ref()?.built()));
    properties.iter().all(|p| match (of_property(&p.type_.value), &p.value) {
        (None, _) => true,
        // Checked by the reader, against the type's struct, without its tree.
        (Some(_), Some(value)) if value.checked_unread() => true,
        (Some(ty), Some(value)) => check(value, ty).is_ok(),
        (Some(_), None) => false,
    })
}

/// Check `node` against `ty`; the error is Go's `json: cannot unmarshal ...` text.
pub fn check(node: &Node, ty: &GoType) -> Result<(), String> {
    let top = match ty {
        Struct(name, _) => *name,
        _ => "",
    };
    let _ = top;
    walk(node, ty, "", &mut Vec::new())
}

/// What a scan of a value's text (without its tree) meets where `walk` would meet a node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ScalarKind {
    Null,
    Bool,
    /// A number; whether it has no fraction.
    Number {
        whole: bool,
    },
    String,
    /// The empty flow collections `[]` and `{}`.
    EmptyArray,
    EmptyObject,
}

/// `interface{}`: what an unknown key's value decodes into.
static ANY: GoType = Any;

/// The type itself, or the struct a struct-valued field wraps.
fn unwrapped(mut ty: &'static GoType) -> &'static GoType {
    while let Slice("", inner) = ty {
        ty = inner;
    }
    ty
}

/// Whether a scalar (or an empty flow collection) decodes into `ty` as `walk` would find.
pub(crate) fn scalar_fits(kind: ScalarKind, ty: &'static GoType) -> bool {
    match (unwrapped(ty), kind) {
        (_, ScalarKind::Null) | (Any, _) => true,
        (Str | Bytes, ScalarKind::String) | (Bool, ScalarKind::Bool) => true,
        (Int, ScalarKind::Number { whole }) => whole,
        (Slice(..), ScalarKind::EmptyArray) | (Map(..) | Struct(..), ScalarKind::EmptyObject) => true,
        _ => false,
    }
}

/// The type of a block sequence's items when a sequence decodes into `ty`; `None` when it does
/// not (the scan then leaves the value to the tree and `walk`).
pub(crate) fn items_of(ty: &'static GoType) -> Option<&'static GoType> {
    match unwrapped(ty) {
        Any => Some(&ANY),
        Slice(_, inner) => Some(inner),
        _ => None,
    }
}

/// A block mapping scanned as a `ty`: the type of each member's value, told key by key, as
/// `walk_struct` would pair them. `None` from [`ObjectScan::of`] or [`ObjectScan::value_of`]:
/// not sure (a mapping where no object fits, or two keys that may fold to one field), and the
/// scan leaves the value to the tree and `walk`.
pub(crate) struct ObjectScan {
    ty: &'static GoType,
    table: Option<&'static StructTable>,
    seen: u64,
}

impl ObjectScan {
    pub(crate) fn of(ty: &'static GoType) -> Option<ObjectScan> {
        let ty = unwrapped(ty);
        let table = match ty {
            Any | Map(..) => None,
            Struct(_, fields) if fields.len() <= 64 => Some(StructTable::of(fields)?),
            _ => return None,
        };
        Some(ObjectScan { ty, table, seen: 0 })
    }

    /// The type the value of the member named `key` decodes into.
    pub(crate) fn value_of(&mut self, key: &str) -> Option<&'static GoType> {
        let (Struct(_, fields), Some(table)) = (self.ty, self.table) else {
            return Some(match self.ty {
                Map(_, inner) => inner,
                _ => &ANY,
            });
        };
        let candidates = table.fields.candidates(key.as_bytes());
        if candidates & self.seen != 0 {
            return None;
        }
        self.seen |= candidates;
        let mut left = candidates;
        while left != 0 {
            let f = left.trailing_zeros() as usize;
            left &= left - 1;
            let (field, fty) = &fields[f];
            if key_matches(key, field) {
                return Some(fty);
            }
        }
        Some(&ANY)
    }
}

/// Most fields of one Go struct (`CRDDescription`'s are 9, `CSVMetadata`'s 14).
const MAX_FIELDS: usize = 16;

/// Whether `walk` would accept `node` as a `ty` at once: a value of a scalar type that fits it
/// (or `null`), so that the walk need not be entered for it (most of an `olm.csv.metadata`
/// value's nodes). `false` says nothing: the value must be walked.
#[inline(always)]
fn accepts(node: &Node, ty: &GoType) -> bool {
    match (ty, &node.value) {
        (_, Value::Null) | (Any, _) | (Str | Bytes, Value::String(_)) | (Bool, Value::Bool(_)) => true,
        (Int, Value::Number(n)) => n.fract() == 0.0,
        _ => false,
    }
}

/// `go_struct`: the innermost Go struct's name (package-qualified; messages use the part after
/// the last `.`); `path`: the JSON field names down to `node`.
fn walk(node: &Node, ty: &GoType, go_struct: &str, path: &mut Vec<&'static str>) -> Result<(), String> {
    if matches!(node.value, Value::Null) {
        return Ok(());
    }
    let fail = |go_type: &str| -> Result<(), String> {
        let path = path.join(".");
        if path.is_empty() {
            Err(format!("json: cannot unmarshal {} into Go value of type {}", node.kind_name(), go_type))
        } else {
            Err(format!(
                "json: cannot unmarshal {} into Go struct field {}.{} of type {}",
                node.kind_name(),
                go_struct.rsplit('.').next().unwrap_or(go_struct),
                path,
                go_type
            ))
        }
    };
    match ty {
        Any => Ok(()),
        Str => match node.value {
            Value::String(_) => Ok(()),
            _ => fail("string"),
        },
        Bool => match node.value {
            Value::Bool(_) => Ok(()),
            _ => fail("bool"),
        },
        Int => match node.value {
            Value::Number(n) if n.fract() == 0.0 => Ok(()),
            _ => fail("int32"),
        },
        Bytes => match &node.value {
            Value::String(_) => Ok(()),
            _ => fail("[]uint8"),
        },
        // A struct-valued field (see the *_REF constants): an empty name marks the wrapper.
        Slice("", inner) => walk(node, inner, go_struct, path),
        Slice(name, inner) => match &node.value {
            Value::Array(items) => {
                prefetch(items.iter());
                // A slice of structs looks its struct's table up once.
                let table = match inner {
                    Struct(_, fields) if FAST_PATHS => StructTable::of(fields),
                    _ => None,
                };
                items.iter().try_for_each(|i| match (&i.value, inner) {
                    _ if accepts(i, inner) => Ok(()),
                    (Value::Object(members), Struct(name, fields)) => walk_struct(members, name, fields, table, path),
                    _ => walk(i, inner, go_struct, path),
                })
            }
            _ => fail(name),
        },
        Map(name, inner) => match &node.value {
            Value::Object(members) => {
                prefetch(members.iter().map(|m| &m.value));
                members.iter().try_for_each(|m| {
                    if accepts(&m.value, inner) {
                        Ok(())
                    } else {
                        walk(&m.value, inner, go_struct, path)
                    }
                })
            }
            _ => fail(name),
        },
        Struct(name, fields) => match &node.value {
            Value::Object(members) => {
                let table = if FAST_PATHS { StructTable::of(fields) } else { None };
                walk_struct(members, name, fields, table, path)
            }
            _ => fail(name),
        },
    }
}

/// The members of an object decoded into the Go struct `name`; `table`, the struct's table where
/// the build takes its fast paths ([`FAST_PATHS`]).
fn walk_struct(
    members: &[Member],
    name: &str,
    fields: &'static [(&'static str, GoType)],
    table: Option<&StructTable>,
    path: &mut Vec<&'static str>,
) -> Result<(), String> {
    prefetch(members.iter().map(|m| &m.value));
    let built;
    let table = match table {
        Some(t) if FAST_PATHS && plainly_fine(members, name, fields, t, path) => return Ok(()),
        Some(t) if FAST_PATHS => &t.fields,
        _ => {
            built = FieldTable::new(fields, |(f, _)| *f);
            &built
        }
    };
    // Each field's member, found in one pass over the keys (Go's case-insensitive match, as
    // `Node::field`), walked in field order: the first error in that order is the one reported.
    let mut found = [None; MAX_FIELDS];
    let found = &mut found[..fields.len()];
    table.find(members, fields, |(f, _)| *f, found);
    for ((field, fty), &m) in fields.iter().zip(found.iter()) {
        if let Some(m) = m.filter(|&m| !accepts(&members[m].value, fty)) {
            path.push(field);
            let r = walk(&members[m].value, fty, name, path);
            path.pop();
            r?;
        }
    }
    Ok(())
}

/// Whether the members decode into the struct without an error, told in one pass over the
/// members (most objects): each member is compared only with the fields its key may fold to, and
/// not at all when every one of them accepts its value as it is (a string for a string field).
/// `false` when two members may fold to one field (only one of them is decoded) or a value does
/// not decode: the walk in field order then decides and words the error.
fn plainly_fine(
    members: &[Member],
    name: &str,
    fields: &'static [(&'static str, GoType)],
    table: &StructTable,
    path: &mut Vec<&'static str>,
) -> bool {
    if fields.len() > 64 {
        return false;
    }
    // A struct of strings and an object of strings (most of them): any key may fold to any field.
    if table.all_strings && members.iter().all(|m| matches!(m.value.value, Value::String(_) | Value::Null)) {
        return true;
    }
    let mut seen = 0u64;
    for m in members {
        let key = m.key.as_str();
        let candidates = table.fields.candidates(key.as_bytes());
        if candidates & seen != 0 {
            return false;
        }
        seen |= candidates;
        let fine = match m.value.value {
            Value::Null => u64::MAX,
            Value::String(_) => table.take_string,
            Value::Bool(_) => table.take_bool,
            _ => table.take_anything,
        };
        let mut left = candidates & !fine;
        while left != 0 {
            let f = left.trailing_zeros() as usize;
            left &= left - 1;
            let (field, fty) = &fields[f];
            if key_matches(key, field) && !accepts(&m.value, fty) {
                path.push(field);
                let r = walk(&m.value, fty, name, path);
                path.pop();
                if r.is_err() {
                    return false;
                }
            }
        }
    }
    true
}

/// A Go struct's field table, and the fields that take any string, any bool or any value at all
/// as it is (bit `f` for field `f`).
struct StructTable {
    fields: FieldTable,
    take_string: u64,
    take_bool: u64,
    take_anything: u64,
    /// Every field takes any string.
    all_strings: bool,
}

/// The tables of every struct the public types reach, by the address of the struct's field list,
/// built on first use.
static TABLES: OnceLock<Vec<(usize, StructTable)>> = OnceLock::new();

impl StructTable {
    /// The table of a struct the public types reach (every struct `walk` meets); `None` for
    /// another, whose walk builds its field table as it goes.
    fn of(fields: &'static [(&'static str, GoType)]) -> Option<&'static StructTable> {
        let at = fields.as_ptr() as usize;
        let tables = TABLES.get_or_init(|| {
            let mut tables = Vec::new();
            for root in [&CSV_METADATA, &PACKAGE, &PACKAGE_REQUIRED, &GVK, &GVK_REQUIRED, &BUNDLE_OBJECT, &CHANNEL] {
                collect_tables(root, &mut tables);
            }
            tables
        });
        tables.iter().find(|(a, _)| *a == at).map(|(_, t)| t)
    }

    fn new(fields: &[(&'static str, GoType)]) -> StructTable {
        let mut t = StructTable {
            fields: FieldTable::new(fields, |(f, _)| *f),
            take_string: 0,
            take_bool: 0,
            take_anything: 0,
            all_strings: false,
        };
        for (f, (_, ty)) in fields.iter().enumerate().take(64) {
            let bit = 1 << f;
            match ty {
                Any => {
                    t.take_string |= bit;
                    t.take_bool |= bit;
                    t.take_anything |= bit;
                }
                Str | Bytes => t.take_string |= bit,
                Bool => t.take_bool |= bit,
                _ => {}
            }
        }
        t.all_strings = fields.len() <= 64 && t.take_string.count_ones() as usize == fields.len();
        t
    }
}

fn collect_tables(ty: &'static GoType, tables: &mut Vec<(usize, StructTable)>) {
    match ty {
        Struct(_, fields) => {
            let at = fields.as_ptr() as usize;
            if tables.iter().all(|(a, _)| *a != at) {
                tables.push((at, StructTable::new(fields)));
                fields.iter().for_each(|(_, f)| collect_tables(f, tables));
            }
        }
        Slice(_, inner) | Map(_, inner) => collect_tables(inner, tables),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::declcfg::json::JsonReader;
    use crate::declcfg::Spanned;

    fn node(src: &str) -> Node {
        JsonReader::new(src, 1).next_value().unwrap()
    }

    /// `walk` looks a struct's fields up in an array of `MAX_FIELDS`.
    #[test]
    fn no_struct_has_more_fields_than_the_walk_holds() {
        fn widest(ty: &GoType) -> usize {
            match ty {
                Slice(_, inner) | Map(_, inner) => widest(inner),
                Struct(_, fields) => fields.iter().map(|(_, t)| widest(t)).fold(fields.len(), usize::max),
                _ => 0,
            }
        }
        for ty in [&PACKAGE, &PACKAGE_REQUIRED, &GVK, &GVK_REQUIRED, &BUNDLE_OBJECT, &CHANNEL, &CSV_METADATA] {
            assert!(widest(ty) <= MAX_FIELDS);
        }
    }

    /// Keys that differ only by case: Go keeps the last in sorted order, whatever the source order.
    #[test]
    fn of_two_bad_members_the_first_in_field_order_is_reported() {
        let descriptor = r#"{"x-descriptors":"one","path":2,"displayName":"d","description":"e","value":[1]}"#;
        let crd = format!(r#"{{"crdDescriptions":{{"owned":[{{"name":"a","specDescriptors":[{descriptor}]}}]}}}}"#);
        assert_eq!(
            check(&node(&crd), &CSV_METADATA).unwrap_err(),
            "json: cannot unmarshal number into Go struct field SpecDescriptor.crdDescriptions.owned.specDescriptors.path of type string"
        );
        let fine =
            r#"{"path":"p","displayName":"d","DESCRIPTION":"e","x-descriptors":["a"],"value":{"a":1},"other":1}"#;
        assert!(check(
            &node(&format!(r#"{{"crdDescriptions":{{"owned":[{{"specDescriptors":[{fine}]}}]}}}}"#)),
            &CSV_METADATA
        )
        .is_ok());
        assert!(check(
            &node(r#"{"installModes":[{"type":"t","supported":true},{"Supported":false,"type":null}]}"#),
            &CSV_METADATA
        )
        .is_ok());
        assert!(check(&node(r#"{"installModes":[{"type":"t","supported":1}]}"#), &CSV_METADATA).is_err());
    }

    #[test]
    fn of_keys_that_fold_together_the_last_in_sorted_order_is_checked() {
        assert!(check(&node(r#"{"version":"1","Version":1}"#), &PACKAGE).is_ok());
        assert_eq!(
            check(&node(r#"{"Version":"1","version":1}"#), &PACKAGE).unwrap_err(),
            "json: cannot unmarshal number into Go struct field Package.version of type string"
        );
    }

    /// An object of strings decodes into a struct of strings whatever its keys fold to.
    #[test]
    fn objects_of_strings_fit_structs_of_strings() {
        assert!(check(&node(r#"{"group":"g","Kind":"k","KIND":"l","version":null,"other":"x"}"#), &GVK).is_ok());
        assert!(check(&node(r#"{"group":"g","kind":1}"#), &GVK).is_err());
        assert!(check(&node(r#"{"provider":{"name":"x","url":"u"},"links":[{"name":"a","url":"b"}]}"#), &CSV_METADATA)
            .is_ok());
        assert!(check(&node(r#"{"links":[{"name":"a","url":["b"]}]}"#), &CSV_METADATA).is_err());
    }

    /// A bundle's properties fit when each one of a known type decodes into its Go struct.
    #[test]
    fn properties_fit_when_each_known_type_decodes() {
        let property = |type_: &str, value: Option<&str>| Property {
            pos: Default::default(),
            type_: Spanned::new(type_.into(), Default::default()),
            value: value.map(|v| node(v).into()),
        };
        let package = property(TYPE_PACKAGE, Some(r#"{"packageName":"p","version":"1.0.0"}"#));
        let custom = property("x.custom", Some("7"));
        let label = property(TYPE_LABEL, Some("[]"));
        assert!(properties_fit(&[package.clone(), custom, label]));
        assert!(properties_fit(&[]));
        assert!(!properties_fit(&[package.clone(), property(TYPE_GVK, Some(r#"{"kind":1}"#))]));
        assert!(!properties_fit(&[package, property(TYPE_CHANNEL, None)]));
    }

    #[test]
    fn go_messages() {
        assert_eq!(
            check(&node(r#"{"packageName":"foo","version":1}"#), &PACKAGE).unwrap_err(),
            "json: cannot unmarshal number into Go struct field Package.version of type string"
        );
        assert_eq!(
            check(&node(r#"{"group":"g","kind":"k","version":1}"#), &GVK).unwrap_err(),
            "json: cannot unmarshal number into Go struct field GVK.version of type string"
        );
        assert_eq!(
            check(&node(r#""x""#), &PACKAGE).unwrap_err(),
            "json: cannot unmarshal string into Go value of type property.Package"
        );
        assert!(check(&node(r#"{"installModes":[{"type":"OwnNamespace","supported":"yes"}]}"#), &CSV_METADATA).is_err());
        assert!(check(&node(r#"{"provider":{"name":"x"},"keywords":["a"],"annotations":{"a":"b"}}"#), &CSV_METADATA)
            .is_ok());
        assert!(check(&node(r#"{"provider":"x"}"#), &CSV_METADATA).is_err());
    }
}
