//! A CRD version's OpenAPI schema as Kubernetes' `JSONSchemaProps` holds it, decoded from a
//! value tree the way Go's `encoding/json` decodes it into that struct: keys bound to fields
//! case-insensitively, unknown keys ignored, `null` leaving a field at its zero value, a value of
//! the wrong JSON type an error naming its path. `default`, `example` and `enum` values are kept
//! as the raw JSON Kubernetes compares (compact, keys sorted, HTML-escaped, as `json.Marshal`
//! re-encodes the document). Decoding is bounded: a schema nested deeper than [`MAX_DEPTH`] or
//! holding more than [`MAX_SCHEMAS`] sub-schemas is refused with an error, never a stack
//! overflow.
//!
//! Empty lists and maps equal absent ones (`Vec`/`BTreeMap` empty), as Kubernetes' semantic
//! equality treats nil and empty alike; derived `PartialEq` is that equality.

use std::fmt;

use crate::declcfg::{Node, Value};
use crate::gotext;

/// The deepest nesting of sub-schemas read.
pub const MAX_DEPTH: usize = 100;
/// The most sub-schemas read in one CRD.
pub const MAX_SCHEMAS: usize = 500_000;

/// The JSON names of `JSONSchemaProps`' fields.
const FIELDS: [&str; 44] = [
    "id",
    "$schema",
    "$ref",
    "description",
    "type",
    "format",
    "title",
    "default",
    "maximum",
    "exclusiveMaximum",
    "minimum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "enum",
    "maxProperties",
    "minProperties",
    "required",
    "items",
    "allOf",
    "oneOf",
    "anyOf",
    "not",
    "properties",
    "additionalProperties",
    "patternProperties",
    "dependencies",
    "additionalItems",
    "definitions",
    "externalDocs",
    "example",
    "nullable",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-list-type",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

/// A map of sub-schemas by key (`properties`, `patternProperties`, `definitions`), sorted by
/// key: sized to its entries (a tree map's nodes would hold eleven schemas each).
pub type SchemaMap = Vec<(String, Schema)>;

/// The positions of `properties` and `items` in [`FIELDS`].
const PROPERTIES: usize = slot_of("properties");
const ITEMS: usize = slot_of("items");

/// The position of `name` in [`FIELDS`] (a name not there does not compile where it is asked
/// for in a constant, as [`slot!`] does).
const fn slot_of(name: &str) -> usize {
    let mut i = 0;
    while i < FIELDS.len() {
        let (field, name) = (FIELDS[i].as_bytes(), name.as_bytes());
        let mut k = 0;
        while k < field.len() && k < name.len() && field[k] == name[k] {
            k += 1;
        }
        if k == field.len() && k == name.len() {
            return i;
        }
        i += 1;
    }
    panic!("not a field of JSONSchemaProps")
}

/// The position of a field's name in [`FIELDS`], found when compiling.
macro_rules! slot {
    ($name:literal) => {{
        const SLOT: usize = slot_of($name);
        SLOT
    }};
}

/// `JSONSchemaProps`, field for field, in Go's declaration order.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Schema {
    pub id: String,
    pub schema: String,
    pub ref_: Option<String>,
    pub description: String,
    pub type_: String,
    pub format: String,
    pub title: String,
    pub default: Option<String>,
    pub maximum: Option<f64>,
    pub exclusive_maximum: bool,
    pub minimum: Option<f64>,
    pub exclusive_minimum: bool,
    pub max_length: Option<i64>,
    pub min_length: Option<i64>,
    pub pattern: String,
    pub max_items: Option<i64>,
    pub min_items: Option<i64>,
    pub unique_items: bool,
    pub multiple_of: Option<f64>,
    pub enum_: Vec<String>,
    pub max_properties: Option<i64>,
    pub min_properties: Option<i64>,
    pub required: Vec<String>,
    pub items: Option<Items>,
    pub all_of: Vec<Schema>,
    pub one_of: Vec<Schema>,
    pub any_of: Vec<Schema>,
    pub not: Option<Box<Schema>>,
    pub properties: SchemaMap,
    pub additional_properties: Option<OrBool>,
    pub pattern_properties: SchemaMap,
    pub dependencies: Vec<(String, OrStringArray)>,
    pub additional_items: Option<OrBool>,
    pub definitions: SchemaMap,
    pub external_docs: Option<ExternalDocs>,
    pub example: Option<String>,
    pub nullable: bool,
    pub x_preserve_unknown_fields: Option<bool>,
    pub x_embedded_resource: bool,
    pub x_int_or_string: bool,
    pub x_list_map_keys: Vec<String>,
    pub x_list_type: Option<String>,
    pub x_map_type: Option<String>,
    pub x_validations: Vec<ValidationRule>,
}

/// `JSONSchemaPropsOrArray`: one schema for every item, or one per position.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Items {
    pub schema: Option<Box<Schema>>,
    pub schemas: Vec<Schema>,
}

/// `JSONSchemaPropsOrBool` (`additionalProperties`, `additionalItems`).
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrBool {
    pub allows: bool,
    pub schema: Option<Box<Schema>>,
}

/// `JSONSchemaPropsOrStringArray` (`dependencies`).
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OrStringArray {
    pub schema: Option<Box<Schema>>,
    pub property: Vec<String>,
}

/// `ExternalDocumentation`.
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ExternalDocs {
    pub description: String,
    pub url: String,
}

/// `ValidationRule` (`x-kubernetes-validations`).
#[allow(missing_docs)]
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ValidationRule {
    pub rule: String,
    pub message: String,
    pub message_expression: String,
    pub reason: Option<String>,
    pub field_path: String,
    pub optional_old_self: Option<bool>,
}

/// Why a schema could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// Where, as a dotted path from the CRD's root (`spec.versions[0].schema.openAPIV3Schema.properties.spec.type`).
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// The decoder's state: the path of the value being read and the budget left.
pub(crate) struct Reader {
    path: Vec<String>,
    depth: usize,
    schemas: usize,
}

impl Reader {
    /// A reader whose paths start at `root`.
    pub(crate) fn new(root: &str) -> Reader {
        Reader { path: vec![root.to_string()], depth: 0, schemas: 0 }
    }

    fn error(&self, message: impl Into<String>) -> SchemaError {
        SchemaError { path: self.path.concat(), message: message.into() }
    }

    fn mismatch(&self, node: &Node, want: &str) -> SchemaError {
        self.error(format!("cannot read a JSON {} as {want}", node.kind_name()))
    }

    fn at<T>(
        &mut self,
        step: String,
        read: impl FnOnce(&mut Reader) -> Result<T, SchemaError>,
    ) -> Result<T, SchemaError> {
        self.path.push(step);
        let out = read(self);
        self.path.pop();
        out
    }

    /// A schema object (`null` is the zero schema).
    pub(crate) fn schema(&mut self, node: &Node) -> Result<Schema, SchemaError> {
        self.schema_with(node, false)
    }

    /// A schema object without its `properties` and `items` (what crdify compares of one
    /// property: its children are compared by their own paths).
    pub(crate) fn shallow(&mut self, node: &Node) -> Result<Schema, SchemaError> {
        self.schema_with(node, true)
    }

    fn schema_with(&mut self, node: &Node, drop_children: bool) -> Result<Schema, SchemaError> {
        let Some(members) = object_or_null(node) else {
            return Err(self.mismatch(node, "a schema object"));
        };
        self.depth += 1;
        self.schemas += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(format!("the schema is nested more than {MAX_DEPTH} levels deep")));
        }
        if self.schemas > MAX_SCHEMAS {
            return Err(self.error(format!("the CRD holds more than {MAX_SCHEMAS} schemas")));
        }
        let mut s = Schema::default();
        let mut slots = [None; FIELDS.len()];
        if let Some(m) = members {
            static TABLE: std::sync::OnceLock<crate::declcfg::value::FieldTable> = std::sync::OnceLock::new();
            let table = TABLE.get_or_init(|| crate::declcfg::value::FieldTable::new(&FIELDS, |f| f));
            table.find(m, &FIELDS, |f| f, &mut slots);
        }
        if drop_children {
            (slots[PROPERTIES], slots[ITEMS]) = (None, None);
        }
        let field = |i: usize| Some(&members?[slots[i]?].value);
        let out = self.fields(&field, &mut s);
        self.depth -= 1;
        out.map(|()| s)
    }

    fn fields<'n>(&mut self, field: &dyn Fn(usize) -> Option<&'n Node>, s: &mut Schema) -> Result<(), SchemaError> {
        self.scalars(field, s)?;
        self.bounds(field, s)?;
        if let Some(n) = field(slot!("items")) {
            s.items = self.at(".items".into(), |r| r.items(n))?;
        }
        s.all_of = self.list(field(slot!("allOf")), ".allOf")?;
        s.one_of = self.list(field(slot!("oneOf")), ".oneOf")?;
        s.any_of = self.list(field(slot!("anyOf")), ".anyOf")?;
        if let Some(n) = field(slot!("not")).filter(|n| !is_null(n)) {
            s.not = Some(Box::new(self.at(".not".into(), |r| r.schema(n))?));
        }
        s.properties = self.map(field(slot!("properties")), ".properties")?;
        if let Some(n) = field(slot!("additionalProperties")) {
            s.additional_properties = self.at(".additionalProperties".into(), |r| r.or_bool(n))?;
        }
        s.pattern_properties = self.map(field(slot!("patternProperties")), ".patternProperties")?;
        s.dependencies = self.dependencies(field(slot!("dependencies")))?;
        if let Some(n) = field(slot!("additionalItems")) {
            s.additional_items = self.at(".additionalItems".into(), |r| r.or_bool(n))?;
        }
        s.definitions = self.map(field(slot!("definitions")), ".definitions")?;
        if let Some(n) = field(slot!("externalDocs")).filter(|n| !is_null(n)) {
            s.external_docs = Some(self.at(".externalDocs".into(), |r| r.external_docs(n))?);
        }
        s.x_validations = self.validations(field(slot!("x-kubernetes-validations")))?;
        Ok(())
    }

    fn scalars<'n>(&mut self, field: &dyn Fn(usize) -> Option<&'n Node>, s: &mut Schema) -> Result<(), SchemaError> {
        s.id = self.string(field(slot!("id")), ".id")?;
        s.schema = self.string(field(slot!("$schema")), ".$schema")?;
        s.ref_ = self.opt_string(field(slot!("$ref")), ".$ref")?;
        s.description = self.string(field(slot!("description")), ".description")?;
        s.type_ = self.string(field(slot!("type")), ".type")?;
        s.format = self.string(field(slot!("format")), ".format")?;
        s.title = self.string(field(slot!("title")), ".title")?;
        s.default = field(slot!("default")).filter(|n| !is_null(n)).map(raw_json);
        s.pattern = self.string(field(slot!("pattern")), ".pattern")?;
        s.enum_ = self.enum_values(field(slot!("enum")))?;
        s.required = self.strings(field(slot!("required")), ".required")?;
        s.example = field(slot!("example")).filter(|n| !is_null(n)).map(raw_json);
        s.nullable = self.bool(field(slot!("nullable")), ".nullable")?;
        s.x_preserve_unknown_fields = self
            .opt_bool(field(slot!("x-kubernetes-preserve-unknown-fields")), ".x-kubernetes-preserve-unknown-fields")?;
        s.x_embedded_resource =
            self.bool(field(slot!("x-kubernetes-embedded-resource")), ".x-kubernetes-embedded-resource")?;
        s.x_int_or_string = self.bool(field(slot!("x-kubernetes-int-or-string")), ".x-kubernetes-int-or-string")?;
        s.x_list_map_keys = self.strings(field(slot!("x-kubernetes-list-map-keys")), ".x-kubernetes-list-map-keys")?;
        s.x_list_type = self.opt_string(field(slot!("x-kubernetes-list-type")), ".x-kubernetes-list-type")?;
        s.x_map_type = self.opt_string(field(slot!("x-kubernetes-map-type")), ".x-kubernetes-map-type")?;
        Ok(())
    }

    fn bounds<'n>(&mut self, field: &dyn Fn(usize) -> Option<&'n Node>, s: &mut Schema) -> Result<(), SchemaError> {
        s.maximum = self.float(field(slot!("maximum")), ".maximum")?;
        s.exclusive_maximum = self.bool(field(slot!("exclusiveMaximum")), ".exclusiveMaximum")?;
        s.minimum = self.float(field(slot!("minimum")), ".minimum")?;
        s.exclusive_minimum = self.bool(field(slot!("exclusiveMinimum")), ".exclusiveMinimum")?;
        s.max_length = self.int(field(slot!("maxLength")), ".maxLength")?;
        s.min_length = self.int(field(slot!("minLength")), ".minLength")?;
        s.max_items = self.int(field(slot!("maxItems")), ".maxItems")?;
        s.min_items = self.int(field(slot!("minItems")), ".minItems")?;
        s.unique_items = self.bool(field(slot!("uniqueItems")), ".uniqueItems")?;
        s.multiple_of = self.float(field(slot!("multipleOf")), ".multipleOf")?;
        s.max_properties = self.int(field(slot!("maxProperties")), ".maxProperties")?;
        s.min_properties = self.int(field(slot!("minProperties")), ".minProperties")?;
        Ok(())
    }

    fn string(&mut self, node: Option<&Node>, step: &str) -> Result<String, SchemaError> {
        Ok(self.opt_string(node, step)?.unwrap_or_default())
    }

    fn opt_string(&mut self, node: Option<&Node>, step: &str) -> Result<Option<String>, SchemaError> {
        match node.map(|n| (n, &n.value)) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::String(s))) => Ok(Some(s.to_string())),
            Some((n, _)) => self.at(step.into(), |r| Err(r.mismatch(n, "a string"))),
        }
    }

    fn bool(&mut self, node: Option<&Node>, step: &str) -> Result<bool, SchemaError> {
        Ok(self.opt_bool(node, step)?.unwrap_or(false))
    }

    fn opt_bool(&mut self, node: Option<&Node>, step: &str) -> Result<Option<bool>, SchemaError> {
        match node.map(|n| (n, &n.value)) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::Bool(b))) => Ok(Some(*b)),
            Some((n, _)) => self.at(step.into(), |r| Err(r.mismatch(n, "a boolean"))),
        }
    }

    fn float(&mut self, node: Option<&Node>, step: &str) -> Result<Option<f64>, SchemaError> {
        match node.map(|n| (n, &n.value)) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::Number(f))) => Ok(Some(*f)),
            Some((n, _)) => self.at(step.into(), |r| Err(r.mismatch(n, "a number"))),
        }
    }

    fn int(&mut self, node: Option<&Node>, step: &str) -> Result<Option<i64>, SchemaError> {
        match node.map(|n| (n, &n.value)) {
            None | Some((_, Value::Null)) => Ok(None),
            Some((_, Value::Number(f))) if f.fract() == 0.0 && f.abs() < 9.3e18 => Ok(Some(*f as i64)),
            Some((_, Value::Number(f))) => {
                let f = *f;
                self.at(step.into(), |r| {
                    Err(r.error(format!("cannot read the number {} as an integer", gotext::format_g(f, 64))))
                })
            }
            Some((n, _)) => self.at(step.into(), |r| Err(r.mismatch(n, "an integer"))),
        }
    }

    fn strings(&mut self, node: Option<&Node>, step: &str) -> Result<Vec<String>, SchemaError> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Ok(Vec::new()) };
        let Some(items) = node.as_array() else {
            return self.at(step.into(), |r| Err(r.mismatch(node, "a list of strings")));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(self.at(format!("{step}[{i}]"), |r| match &item.value {
                Value::String(s) => Ok(s.to_string()),
                Value::Null => Ok(String::new()),
                _ => Err(r.mismatch(item, "a string")),
            })?);
        }
        Ok(out)
    }

    fn enum_values(&mut self, node: Option<&Node>) -> Result<Vec<String>, SchemaError> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Ok(Vec::new()) };
        let Some(items) = node.as_array() else {
            return self.at(".enum".into(), |r| Err(r.mismatch(node, "a list")));
        };
        // A `null` value's raw JSON is empty, as Kubernetes' `JSON` type keeps it.
        Ok(items.iter().map(|n| if is_null(n) { String::new() } else { raw_json(n) }).collect())
    }

    fn list(&mut self, node: Option<&Node>, step: &str) -> Result<Vec<Schema>, SchemaError> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Ok(Vec::new()) };
        let Some(items) = node.as_array() else {
            return self.at(step.into(), |r| Err(r.mismatch(node, "a list of schemas")));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(self.at(format!("{step}[{i}]"), |r| r.schema(item))?);
        }
        Ok(out)
    }

    fn map(&mut self, node: Option<&Node>, step: &str) -> Result<SchemaMap, SchemaError> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Ok(Vec::new()) };
        let Some(members) = node.as_object() else {
            return self.at(step.into(), |r| Err(r.mismatch(node, "an object of schemas")));
        };
        let mut out = Vec::with_capacity(members.len());
        for m in members {
            let schema = self.at(format!("{step}.{}", m.key), |r| r.schema(&m.value))?;
            out.push((m.key.to_string(), schema));
        }
        Ok(sorted(out))
    }

    fn items(&mut self, node: &Node) -> Result<Option<Items>, SchemaError> {
        match &node.value {
            Value::Null => Ok(None),
            Value::Object(_) => Ok(Some(Items { schema: Some(Box::new(self.schema(node)?)), schemas: Vec::new() })),
            Value::Array(items) => {
                let mut schemas = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    schemas.push(self.at(format!("[{i}]"), |r| r.schema(item))?);
                }
                Ok(Some(Items { schema: None, schemas }))
            }
            _ => Err(self.mismatch(node, "a schema or a list of schemas")),
        }
    }

    fn or_bool(&mut self, node: &Node) -> Result<Option<OrBool>, SchemaError> {
        match &node.value {
            Value::Null => Ok(None),
            Value::Bool(b) => Ok(Some(OrBool { allows: *b, schema: None })),
            Value::Object(_) => Ok(Some(OrBool { allows: true, schema: Some(Box::new(self.schema(node)?)) })),
            _ => Err(self.mismatch(node, "a schema or a boolean")),
        }
    }

    fn dependencies(&mut self, node: Option<&Node>) -> Result<Vec<(String, OrStringArray)>, SchemaError> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Ok(Vec::new()) };
        let Some(members) = node.as_object() else {
            return self.at(".dependencies".into(), |r| Err(r.mismatch(node, "an object")));
        };
        let mut out = Vec::with_capacity(members.len());
        for m in members {
            let value = self.at(format!(".dependencies.{}", m.key), |r| match &m.value.value {
                Value::Object(_) => {
                    Ok(OrStringArray { schema: Some(Box::new(r.schema(&m.value)?)), property: Vec::new() })
                }
                Value::Array(_) => Ok(OrStringArray { schema: None, property: r.strings(Some(&m.value), "")? }),
                Value::Null => Ok(OrStringArray::default()),
                _ => Err(r.mismatch(&m.value, "a schema or a list of strings")),
            })?;
            out.push((m.key.to_string(), value));
        }
        Ok(sorted(out))
    }

    fn external_docs(&mut self, node: &Node) -> Result<ExternalDocs, SchemaError> {
        if node.as_object().is_none() {
            return Err(self.mismatch(node, "an object"));
        }
        let field = |name: &str| node.field(name).map(|m| &m.value);
        Ok(ExternalDocs {
            description: self.string(field("description"), ".description")?,
            url: self.string(field("url"), ".url")?,
        })
    }

    fn validations(&mut self, node: Option<&Node>) -> Result<Vec<ValidationRule>, SchemaError> {
        let Some(node) = node.filter(|n| !is_null(n)) else { return Ok(Vec::new()) };
        let Some(items) = node.as_array() else {
            return self.at(".x-kubernetes-validations".into(), |r| Err(r.mismatch(node, "a list of rules")));
        };
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            out.push(self.at(format!(".x-kubernetes-validations[{i}]"), |r| r.rule(item))?);
        }
        Ok(out)
    }

    fn rule(&mut self, node: &Node) -> Result<ValidationRule, SchemaError> {
        let Some(members) = object_or_null(node) else {
            return Err(self.mismatch(node, "a rule object"));
        };
        let field = |name: &str| members.and_then(|m| crate::declcfg::value::field_of(m, name)).map(|m| &m.value);
        Ok(ValidationRule {
            rule: self.string(field("rule"), ".rule")?,
            message: self.string(field("message"), ".message")?,
            message_expression: self.string(field("messageExpression"), ".messageExpression")?,
            reason: self.opt_string(field("reason"), ".reason")?,
            field_path: self.string(field("fieldPath"), ".fieldPath")?,
            optional_old_self: self.opt_bool(field("optionalOldSelf"), ".optionalOldSelf")?,
        })
    }
}

/// Entries sorted by key (an object's keys are distinct: the reader keeps the last of a key
/// given twice).
fn sorted<T>(mut entries: Vec<(String, T)>) -> Vec<(String, T)> {
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    entries
}

/// The members of an object, `Some(None)` for `null`, `None` for any other value.
fn object_or_null(node: &Node) -> Option<Option<&[crate::declcfg::Member]>> {
    match &node.value {
        Value::Object(m) => Some(Some(m)),
        Value::Null => Some(None),
        _ => None,
    }
}

fn is_null(node: &Node) -> bool {
    matches!(node.value, Value::Null)
}

/// A value as `json.Marshal` re-encodes it: compact, object keys sorted, `<`, `>`, `&` escaped.
pub(crate) fn raw_json(node: &Node) -> String {
    let mut out = String::new();
    write_raw(node, &mut out);
    out
}

fn write_raw(node: &Node, out: &mut String) {
    match &node.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(f) => out.push_str(&gotext::json_number(*f).unwrap_or_else(|_| "null".into())),
        Value::String(s) => gotext::write_json_string(s, true, out),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_raw(item, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            sorted.sort_by(|a, b| a.key.cmp(&b.key));
            out.push('{');
            for (i, m) in sorted.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                gotext::write_json_string(&m.key, true, out);
                out.push(':');
                write_raw(&m.value, out);
            }
            out.push('}');
        }
    }
}
