//! Schemas as the Go values go-cmp walks: structs of fields in declaration order, pointers,
//! slices and maps (nil when empty, as the decoded CRD holds them), scalars, with the Go type
//! names go-cmp prints and, for pointers to Kubernetes API types, the text of their generated
//! `String` method (go-cmp prints that instead of the value).

use crate::crd_safety::schema::{ExternalDocs, Items, OrBool, OrStringArray, Schema, ValidationRule};
use crate::gotext::format_g;

/// A Go value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Gv {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    /// A pointer (`None`: nil) and, for API types, their `String()` text.
    Ptr(Option<Box<Gv>>, Option<String>),
    /// A slice of the named type (`None`: nil).
    Slice(&'static str, Option<Vec<Gv>>),
    /// A map of the named type, keys sorted (`None`: nil).
    Map(&'static str, Option<Vec<(String, Gv)>>),
    /// A struct of the named type.
    Struct(&'static str, Vec<(&'static str, Gv)>),
}

/// The kind of a value, for go-cmp's decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Bool,
    Int,
    Float,
    Str,
    Ptr,
    Slice,
    Map,
    Struct,
}

impl Gv {
    pub(crate) fn kind(&self) -> Kind {
        match self {
            Gv::Bool(_) => Kind::Bool,
            Gv::Int(_) => Kind::Int,
            Gv::Float(_) => Kind::Float,
            Gv::Str(_) => Kind::Str,
            Gv::Ptr(..) => Kind::Ptr,
            Gv::Slice(..) => Kind::Slice,
            Gv::Map(..) => Kind::Map,
            Gv::Struct(..) => Kind::Struct,
        }
    }

    /// Go's `reflect.Value.IsZero`.
    pub(crate) fn is_zero(&self) -> bool {
        match self {
            Gv::Bool(b) => !b,
            Gv::Int(i) => *i == 0,
            Gv::Float(f) => *f == 0.0,
            Gv::Str(s) => s.is_empty(),
            Gv::Ptr(p, _) => p.is_none(),
            Gv::Slice(_, s) => s.is_none(),
            Gv::Map(_, m) => m.is_none(),
            Gv::Struct(_, fields) => fields.iter().all(|(_, v)| v.is_zero()),
        }
    }

    /// The type name go-cmp prints for a slice, map or struct.
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Gv::Slice(t, _) | Gv::Map(t, _) | Gv::Struct(t, _) => t,
            _ => "",
        }
    }
}

fn ptr(v: Option<Gv>) -> Gv {
    Gv::Ptr(v.map(Box::new), None)
}

fn api_ptr(v: Option<(Gv, String)>) -> Gv {
    match v {
        Some((v, text)) => Gv::Ptr(Some(Box::new(v)), Some(text)),
        None => Gv::Ptr(None, None),
    }
}

fn strings(t: &'static str, v: &[String]) -> Gv {
    Gv::Slice(t, (!v.is_empty()).then(|| v.iter().map(|s| Gv::Str(s.clone())).collect()))
}

fn json(raw: &str) -> Gv {
    let bytes = (!raw.is_empty()).then(|| raw.bytes().map(|b| Gv::Int(i64::from(b))).collect());
    Gv::Struct("v1.JSON", vec![("Raw", Gv::Slice("[]uint8", bytes))])
}

/// `JSON.String()`: `&JSON{Raw:*[123 34 …],}`.
fn json_text(raw: &str) -> String {
    let bytes: Vec<String> = raw.bytes().map(|b| b.to_string()).collect();
    format!("&JSON{{Raw:*[{}],}}", bytes.join(" "))
}

fn schemas(t: &'static str, v: &[Schema]) -> Gv {
    Gv::Slice(t, (!v.is_empty()).then(|| v.iter().map(|s| schema(s, false)).collect()))
}

fn schema_map(t: &'static str, m: &[(String, Schema)]) -> Gv {
    Gv::Map(t, (!m.is_empty()).then(|| m.iter().map(|(k, s)| (k.clone(), schema(s, false))).collect()))
}

/// A schema as a Go value; `top` leaves out what crdify's checks took out before comparing
/// (the handled fields, `properties` and `items`).
pub(crate) fn schema(s: &Schema, top: bool) -> Gv {
    let keep = |v: Gv| if top { zero_of(&v) } else { v };
    let fields = vec![
        ("ID", Gv::Str(s.id.clone())),
        ("Schema", Gv::Str(s.schema.clone())),
        ("Ref", ptr(s.ref_.clone().map(Gv::Str))),
        ("Description", keep(Gv::Str(s.description.clone()))),
        ("Type", keep(Gv::Str(s.type_.clone()))),
        ("Format", Gv::Str(s.format.clone())),
        ("Title", Gv::Str(s.title.clone())),
        ("Default", keep(api_ptr(s.default.as_deref().map(|d| (json(d), json_text(d)))))),
        ("Maximum", keep(ptr(s.maximum.map(Gv::Float)))),
        ("ExclusiveMaximum", Gv::Bool(s.exclusive_maximum)),
        ("Minimum", keep(ptr(s.minimum.map(Gv::Float)))),
        ("ExclusiveMinimum", Gv::Bool(s.exclusive_minimum)),
        ("MaxLength", keep(ptr(s.max_length.map(Gv::Int)))),
        ("MinLength", keep(ptr(s.min_length.map(Gv::Int)))),
        ("Pattern", keep(Gv::Str(s.pattern.clone()))),
        ("MaxItems", keep(ptr(s.max_items.map(Gv::Int)))),
        ("MinItems", keep(ptr(s.min_items.map(Gv::Int)))),
        ("UniqueItems", Gv::Bool(s.unique_items)),
        ("MultipleOf", ptr(s.multiple_of.map(Gv::Float))),
        (
            "Enum",
            keep(Gv::Slice("[]v1.JSON", (!s.enum_.is_empty()).then(|| s.enum_.iter().map(|e| json(e)).collect()))),
        ),
        ("MaxProperties", keep(ptr(s.max_properties.map(Gv::Int)))),
        ("MinProperties", keep(ptr(s.min_properties.map(Gv::Int)))),
        ("Required", keep(strings("[]string", &s.required))),
        ("Items", keep(api_ptr(s.items.as_ref().map(items)))),
        ("AllOf", schemas("[]v1.JSONSchemaProps", &s.all_of)),
        ("OneOf", schemas("[]v1.JSONSchemaProps", &s.one_of)),
        ("AnyOf", schemas("[]v1.JSONSchemaProps", &s.any_of)),
        ("Not", api_ptr(s.not.as_deref().map(|n| (schema(n, false), schema_text(n))))),
        ("Properties", keep(schema_map("map[string]v1.JSONSchemaProps", &s.properties))),
        ("AdditionalProperties", api_ptr(s.additional_properties.as_ref().map(or_bool))),
        ("PatternProperties", schema_map("map[string]v1.JSONSchemaProps", &s.pattern_properties)),
        ("Dependencies", dependencies(s)),
        ("AdditionalItems", api_ptr(s.additional_items.as_ref().map(or_bool))),
        ("Definitions", schema_map("v1.JSONSchemaDefinitions", &s.definitions)),
        ("ExternalDocs", api_ptr(s.external_docs.as_ref().map(external_docs))),
        ("Example", api_ptr(s.example.as_deref().map(|d| (json(d), json_text(d))))),
        ("Nullable", keep(Gv::Bool(s.nullable))),
        ("XPreserveUnknownFields", ptr(s.x_preserve_unknown_fields.map(Gv::Bool))),
        ("XEmbeddedResource", Gv::Bool(s.x_embedded_resource)),
        ("XIntOrString", Gv::Bool(s.x_int_or_string)),
        ("XListMapKeys", strings("[]string", &s.x_list_map_keys)),
        ("XListType", ptr(s.x_list_type.clone().map(Gv::Str))),
        ("XMapType", ptr(s.x_map_type.clone().map(Gv::Str))),
        (
            "XValidations",
            Gv::Slice(
                "v1.ValidationRules",
                (!s.x_validations.is_empty()).then(|| s.x_validations.iter().map(rule).collect()),
            ),
        ),
    ];
    Gv::Struct("v1.JSONSchemaProps", fields)
}

fn zero_of(v: &Gv) -> Gv {
    match v {
        Gv::Bool(_) => Gv::Bool(false),
        Gv::Int(_) => Gv::Int(0),
        Gv::Float(_) => Gv::Float(0.0),
        Gv::Str(_) => Gv::Str(String::new()),
        Gv::Ptr(..) => Gv::Ptr(None, None),
        Gv::Slice(t, _) => Gv::Slice(t, None),
        Gv::Map(t, _) => Gv::Map(t, None),
        Gv::Struct(t, f) => Gv::Struct(t, f.iter().map(|(k, v)| (*k, zero_of(v))).collect()),
    }
}

/// The start of `JSONSchemaProps.String()`: go-cmp shows at most its first 256 bytes, and the
/// preflight's summary only whether it names `JSONSchemaProps`.
fn schema_text(s: &Schema) -> String {
    format!(
        "&JSONSchemaProps{{ID:{},Schema:{},Ref:{},Description:{},Type:{},…}}",
        s.id,
        s.schema,
        opt(&s.ref_),
        s.description,
        s.type_
    )
}

fn opt(v: &Option<String>) -> String {
    v.as_ref().map(|s| format!("*{s}")).unwrap_or_else(|| "nil".into())
}

fn items(i: &Items) -> (Gv, String) {
    let one = api_ptr(i.schema.as_deref().map(|s| (schema(s, false), schema_text(s))));
    let v = Gv::Struct(
        "v1.JSONSchemaPropsOrArray",
        vec![("Schema", one), ("JSONSchemas", schemas("[]v1.JSONSchemaProps", &i.schemas))],
    );
    let inner = i.schema.as_deref().map(schema_text).unwrap_or_else(|| "nil".into());
    (v, format!("&JSONSchemaPropsOrArray{{Schema:{inner},JSONSchemas:[]JSONSchemaProps{{…}},}}"))
}

fn or_bool(o: &OrBool) -> (Gv, String) {
    let one = api_ptr(o.schema.as_deref().map(|s| (schema(s, false), schema_text(s))));
    let v = Gv::Struct("v1.JSONSchemaPropsOrBool", vec![("Allows", Gv::Bool(o.allows)), ("Schema", one)]);
    let inner = o.schema.as_deref().map(schema_text).unwrap_or_else(|| "nil".into());
    (v, format!("&JSONSchemaPropsOrBool{{Allows:{},Schema:{inner},}}", o.allows))
}

fn dependencies(s: &Schema) -> Gv {
    let entry = |d: &OrStringArray| {
        let one = api_ptr(d.schema.as_deref().map(|s| (schema(s, false), schema_text(s))));
        Gv::Struct(
            "v1.JSONSchemaPropsOrStringArray",
            vec![("Schema", one), ("Property", strings("[]string", &d.property))],
        )
    };
    let m = &s.dependencies;
    Gv::Map(
        "v1.JSONSchemaDependencies",
        (!m.is_empty()).then(|| m.iter().map(|(k, d)| (k.clone(), entry(d))).collect()),
    )
}

fn external_docs(d: &ExternalDocs) -> (Gv, String) {
    let v = Gv::Struct(
        "v1.ExternalDocumentation",
        vec![("Description", Gv::Str(d.description.clone())), ("URL", Gv::Str(d.url.clone()))],
    );
    (v, format!("&ExternalDocumentation{{Description:{},URL:{},}}", d.description, d.url))
}

fn rule(r: &ValidationRule) -> Gv {
    Gv::Struct(
        "v1.ValidationRule",
        vec![
            ("Rule", Gv::Str(r.rule.clone())),
            ("Message", Gv::Str(r.message.clone())),
            ("MessageExpression", Gv::Str(r.message_expression.clone())),
            ("Reason", ptr(r.reason.clone().map(Gv::Str))),
            ("FieldPath", Gv::Str(r.field_path.clone())),
            ("OptionalOldSelf", ptr(r.optional_old_self.map(Gv::Bool))),
        ],
    )
}

/// `fmt.Sprint` of a scalar.
pub(crate) fn scalar_text(v: &Gv) -> Option<String> {
    match v {
        Gv::Bool(b) => Some(b.to_string()),
        Gv::Int(i) => Some(i.to_string()),
        Gv::Float(f) => Some(format_g(*f, 64)),
        _ => None,
    }
}
