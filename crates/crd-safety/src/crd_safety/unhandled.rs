//! crdify's `unhandled` check: after every property check has taken its fields out of both
//! schemas, any difference left (`x-kubernetes-*` markers, `format`, `allOf`/`anyOf`/`oneOf`,
//! `not`, `additionalProperties`, validation rules, …) is refused, failing closed. Its message is
//! the preflight's concise form (`unhandled changes found (XListType nil -> &"atomic")`), the
//! details read from the diff go-cmp prints of the two schemas ([`super::gocmp`]).

use super::gocmp;
use super::schema::{ExternalDocs, OrBool, OrStringArray, Schema, SchemaMap, ValidationRule};

/// The fields no property check handles (children `properties` and `items` aside).
#[derive(Debug, PartialEq)]
struct Rest<'a> {
    id: &'a str,
    schema: &'a str,
    ref_: &'a Option<String>,
    format: &'a str,
    title: &'a str,
    exclusive_maximum: bool,
    exclusive_minimum: bool,
    unique_items: bool,
    multiple_of: Option<f64>,
    all_of: &'a [Schema],
    one_of: &'a [Schema],
    any_of: &'a [Schema],
    not: &'a Option<Box<Schema>>,
    additional_properties: &'a Option<OrBool>,
    pattern_properties: &'a SchemaMap,
    dependencies: &'a [(String, OrStringArray)],
    additional_items: &'a Option<OrBool>,
    definitions: &'a SchemaMap,
    external_docs: &'a Option<ExternalDocs>,
    example: &'a Option<String>,
    x_preserve_unknown_fields: Option<bool>,
    x_embedded_resource: bool,
    x_int_or_string: bool,
    x_list_map_keys: &'a [String],
    x_list_type: &'a Option<String>,
    x_map_type: &'a Option<String>,
    x_validations: &'a [ValidationRule],
}

fn rest(s: &Schema) -> Rest<'_> {
    Rest {
        id: &s.id,
        schema: &s.schema,
        ref_: &s.ref_,
        format: &s.format,
        title: &s.title,
        exclusive_maximum: s.exclusive_maximum,
        exclusive_minimum: s.exclusive_minimum,
        unique_items: s.unique_items,
        multiple_of: s.multiple_of,
        all_of: &s.all_of,
        one_of: &s.one_of,
        any_of: &s.any_of,
        not: &s.not,
        additional_properties: &s.additional_properties,
        pattern_properties: &s.pattern_properties,
        dependencies: &s.dependencies,
        additional_items: &s.additional_items,
        definitions: &s.definitions,
        external_docs: &s.external_docs,
        example: &s.example,
        x_preserve_unknown_fields: s.x_preserve_unknown_fields,
        x_embedded_resource: s.x_embedded_resource,
        x_int_or_string: s.x_int_or_string,
        x_list_map_keys: &s.x_list_map_keys,
        x_list_type: &s.x_list_type,
        x_map_type: &s.x_map_type,
        x_validations: &s.x_validations,
    }
}

/// Whether two schemas are equal once their `properties` and `items` are dropped (crdify
/// compares a property only then).
pub(crate) fn same_without_children(a: &Schema, b: &Schema) -> bool {
    rest(a) == rest(b)
        && a.description == b.description
        && a.type_ == b.type_
        && a.default == b.default
        && a.maximum == b.maximum
        && a.minimum == b.minimum
        && a.max_length == b.max_length
        && a.min_length == b.min_length
        && a.pattern == b.pattern
        && a.max_items == b.max_items
        && a.min_items == b.min_items
        && a.enum_ == b.enum_
        && a.max_properties == b.max_properties
        && a.min_properties == b.min_properties
        && a.required == b.required
        && a.nullable == b.nullable
}

/// The `unhandled` refusal for one property, when a difference is left: the preflight's concise
/// message, and an identity of the difference (the two projections), with which the served
/// versions' validator recognises an issue the old CRD already had.
pub(crate) fn unhandled(a: &Schema, b: &Schema) -> Option<(String, String)> {
    let (ra, rb) = (rest(a), rest(b));
    if ra == rb {
        return None;
    }
    let details = gocmp::unhandled_details(a, b);
    let message = if details.is_empty() {
        "unhandled changes found".to_string()
    } else {
        format!("unhandled changes found ({})", details.join("; "))
    };
    Some((message, format!("{ra:?}\u{0}{rb:?}")))
}
