//! Where template findings and expanded blobs point: diagnostics located in the template file,
//! JSON pointers into the template document, Go's decoding-error texts for template fields, and
//! bundles from the source moved onto the template element that names their image.

use std::sync::Arc;

use crate::declcfg::{self, Member, Node, Pos, Spanned, Value};
use crate::diagnostic::{Code, Diagnostic, Location};

/// An error at `pos` (with JSON `pointer`) in the template `file`.
pub(super) fn error(file: &str, code: Code, message: String, pos: Pos, pointer: &str) -> Diagnostic {
    let location =
        Location { file: file.to_string(), line: pos.line, column: pos.column, pointer: pointer.to_string() };
    Diagnostic::error(code, message, location)
}

/// `parent` extended by one key or index (escaped as JSON pointers require).
pub(super) fn child(parent: &str, key: &str) -> String {
    format!("{parent}/{}", key.replace('~', "~0").replace('/', "~1"))
}

/// Go's `encoding/json` text for a value of the wrong JSON type bound to a struct field:
/// `json: cannot unmarshal string into Go struct field T.path of type bool`.
pub(super) fn type_error(value: &Node, field_path: &str, go_type: &str) -> String {
    format!("json: cannot unmarshal {} into Go struct field {field_path} of type {go_type}", value.kind_name())
}

/// The members of an object, or Go's error for binding another value to the struct `go_type`.
pub(super) fn object<'n>(node: &'n Node, go_type: &str) -> Result<&'n [Member], String> {
    node.as_object()
        .ok_or_else(|| format!("json: cannot unmarshal {} into Go value of type {go_type}", node.kind_name()))
}

/// A copy of `bundle` located at the template element `pos` of `file`: the blob, its fields,
/// properties and related images all point there (the author wrote only the image reference).
pub(super) fn relocate(bundle: &declcfg::Bundle, file: &Arc<str>, pos: Pos) -> declcfg::Bundle {
    let spanned = |s: &Spanned<String>| Spanned::new(s.value.clone(), pos);
    let properties: Vec<declcfg::Property> = bundle
        .properties
        .iter()
        .map(|p| declcfg::Property {
            pos,
            type_: Spanned::new(p.type_.value.clone(), pos),
            value: p.value.as_deref().map(|v| reposition(v, pos).into()),
        })
        .collect();
    declcfg::Bundle {
        source: declcfg::Source { file: file.clone(), pos },
        package: spanned(&bundle.package),
        name: spanned(&bundle.name),
        image: spanned(&bundle.image),
        properties: properties.into(),
        related_images: bundle
            .related_images
            .iter()
            .map(|r| declcfg::RelatedImage { pos, name: spanned(&r.name), image: spanned(&r.image) })
            .collect(),
        object_count: bundle.object_count,
        properties_fit: bundle.properties_fit,
    }
}

/// `node` with every position set to `pos`.
fn reposition(node: &Node, pos: Pos) -> Node {
    let value = match &node.value {
        Value::Array(items) => Value::Array(items.iter().map(|n| reposition(n, pos)).collect()),
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|m| Member { key: m.key.clone(), key_pos: pos, value: reposition(&m.value, pos) })
                .collect(),
        ),
        other => other.clone(),
    };
    Node::new(pos, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_keys() {
        assert_eq!(child("/entries/0", "a/b~c"), "/entries/0/a~1b~0c");
    }

    #[test]
    fn type_errors_read_as_go_writes_them() {
        let n = Node::new(Pos::new(1, 1), Value::String("x".into()));
        assert_eq!(
            type_error(&n, "SemverTemplateData.generateMajorChannels", "bool"),
            "json: cannot unmarshal string into Go struct field SemverTemplateData.generateMajorChannels of type bool"
        );
    }
}
