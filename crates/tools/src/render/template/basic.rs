//! The basic template (`olm.template.basic`): FBC blobs written out, except that each bundle is
//! only a reference `{schema: olm.bundle, image: ...}`, replaced by the bundle published under
//! that image. Every other blob passes through unchanged, at its template position.

use std::sync::Arc;

use super::locate::{child, error, object, relocate, type_error};
use crate::declcfg::load::decode_value;
use crate::declcfg::{Blob, Member, Node, Pos, Value};
use crate::diagnostic::{Code, Diagnostic};
use crate::render::{BundleSource, Rendered};

const SCHEMA: &str = "olm.template.basic";

/// Expand the template document `doc` of `file`.
pub(super) fn expand(file: &str, doc: Option<Node>, source: &BundleSource) -> Rendered {
    let mut out = Rendered::default();
    let entries = match spec(file, doc.as_ref(), SCHEMA, "basic.BasicTemplate") {
        Ok(entries) => entries,
        Err(d) => {
            out.diagnostics.push(d);
            return out;
        }
    };
    let file_arc: Arc<str> = Arc::from(file);
    for (i, blob) in load_entries(file, &entries, &mut out.diagnostics) {
        let Blob::Bundle(reference) = blob else {
            out.config.push(blob);
            continue;
        };
        let pointer = format!("/entries/{i}");
        if !is_reference(&reference) {
            let msg = "unexpected fields present in basic template bundle".to_string();
            out.diagnostics.push(error(file, Code::TemplateBundleReference, msg, reference.source.pos, &pointer));
            continue;
        }
        match source.get(&reference.image.value) {
            Some(found) => out.config.bundles.push(relocate(&found.blob, &file_arc, reference.image.pos)),
            None => {
                let pointer = format!("{pointer}/image");
                out.diagnostics.push(not_found(file, &reference.image.value, reference.image.pos, &pointer));
            }
        }
    }
    out
}

/// The `entries` of a template that holds FBC blobs (basic, substitutes), after opm's checks of
/// the document: an object whose `schema` is `schema` (`go_type` names its Go struct in errors).
pub(super) fn spec<'d>(
    file: &str,
    doc: Option<&'d Node>,
    schema: &str,
    go_type: &str,
) -> Result<Vec<(usize, &'d Node)>, Diagnostic> {
    let start = doc.map_or(Pos::new(1, 1), |d| d.pos);
    let invalid = |msg: String, pos: Pos, pointer: &str| {
        error(file, Code::TemplateInvalid, format!("unmarshalling template: {msg}"), pos, pointer)
    };
    let members: &[Member] = match doc {
        None => &[],
        Some(node) => object(node, go_type).map_err(|m| invalid(m, start, ""))?,
    };
    let doc_schema = match members.iter().rev().find(|m| m.key.eq_ignore_ascii_case("schema")) {
        None => String::new(),
        Some(m) => match &m.value.value {
            Value::String(s) => s.to_string(),
            Value::Null => String::new(),
            _ => {
                return Err(invalid(
                    type_error(&m.value, &format!("{}.schema", short(go_type)), "string"),
                    m.value.pos,
                    &child("", &m.key),
                ))
            }
        },
    };
    if doc_schema != schema {
        let msg = format!(
            "template has unknown schema ({}), should be {}",
            crate::gotext::quote(&doc_schema),
            crate::gotext::quote(schema)
        );
        return Err(error(file, Code::TemplateSchema, msg, start, ""));
    }
    let Some(entries) = doc.and_then(|d| d.field("entries")) else {
        return Ok(Vec::new());
    };
    match &entries.value.value {
        Value::Null => Ok(Vec::new()),
        Value::Array(items) => Ok(items.iter().enumerate().collect()),
        _ => Err(invalid(
            type_error(&entries.value, &format!("{}.entries", short(go_type)), "[]*declcfg.Meta"),
            entries.value.pos,
            &child("", &entries.key),
        )),
    }
}

/// `basic.BasicTemplate` → `BasicTemplate` (Go names the struct without its package in field errors).
fn short(go_type: &str) -> &str {
    go_type.rsplit('.').next().unwrap_or(go_type)
}

/// The entries decoded as FBC blobs, each with its index, as opm's `declcfg.LoadSlice` does; a
/// bad entry is reported (located at its template position) and left out.
pub(super) fn load_entries(file: &str, entries: &[(usize, &Node)], diags: &mut Vec<Diagnostic>) -> Vec<(usize, Blob)> {
    let mut blobs = Vec::new();
    for (i, node) in entries {
        let (blob, found) = decode_value(file, (*node).clone());
        for mut d in found {
            d.location.pointer = format!("/entries/{i}{}", d.location.pointer);
            diags.push(d);
        }
        blobs.extend(blob.map(|b| (*i, b)));
    }
    blobs
}

/// Whether a bundle entry is only a reference: a schema and an image, no package, properties or
/// related images.
fn is_reference(b: &crate::declcfg::Bundle) -> bool {
    !b.image.value.is_empty() && b.package.value.is_empty() && b.properties.is_empty() && b.related_images.is_empty()
}

/// An image the source does not hold: opm would pull it; we cannot, offline.
pub(super) fn not_found(file: &str, image: &str, pos: Pos, pointer: &str) -> Diagnostic {
    let msg = format!(
        "bundle image {} is not among the given bundles, so it is not expanded (opm pulls it from its registry): add a catalog, bundle directory or image that has it to the bundle sources, or correct the reference",
        crate::gotext::quote(image)
    );
    error(file, Code::TemplateImageNotFound, msg, pos, pointer)
}
