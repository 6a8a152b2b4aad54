//! Which kind a template is: opm reads the first YAML or JSON document of the file and binds its
//! `schema` (key matched case-insensitively, as Go's `encoding/json` does) to a registered kind.

use super::locate::{child, error};
use super::TemplateKind;
use crate::declcfg::{read_documents, FileInput, Node, Pos, Value};
use crate::diagnostic::{Code, Diagnostic};

/// The first document of a template file (`None` for an empty document, which opm reads as
/// `null`). An empty file or one whose first document does not parse is an error.
pub(super) fn first_document(file: &FileInput) -> Result<Option<Node>, Diagnostic> {
    match read_documents(&file.path, &file.content).into_iter().next() {
        None => Err(error(&file.path, Code::TemplateSchema, "decoding template input: EOF".into(), Pos::new(1, 1), "")),
        Some(Err(mut d)) => {
            d.message = format!("decoding template input: {}", d.message);
            Err(d)
        }
        Some(Ok(doc)) => Ok(doc.value),
    }
}

/// The kind named by the first document's `schema`.
pub(super) fn detect(file: &FileInput) -> Result<TemplateKind, Diagnostic> {
    let doc = first_document(file)?;
    let fail =
        |message: String, pos: Pos, pointer: &str| Err(error(&file.path, Code::TemplateSchema, message, pos, pointer));
    let start = doc.as_ref().map_or(Pos::new(1, 1), |d| d.pos);
    let schema = match &doc {
        None => None,
        Some(node) => match node.as_object() {
            Some(_) => node.field("schema"),
            None => {
                let msg = format!(
                    "unmarshalling template schema: json: cannot unmarshal {} into Go value of type struct {{ Schema string \"json:\\\"schema\\\"\" }}",
                    node.kind_name()
                );
                return fail(msg, start, "");
            }
        },
    };
    let Some(member) = schema else {
        return fail("template input missing required 'schema' field".into(), start, "");
    };
    let pointer = child("", &member.key);
    match &member.value.value {
        Value::String(s) if s.is_empty() => fail("template input missing required 'schema' field".into(), start, ""),
        Value::String(s) => match TemplateKind::from_schema(s) {
            Some(kind) => Ok(kind),
            None => fail(format!("unknown template schema: {s}"), member.value.pos, &pointer),
        },
        Value::Null => fail("template input missing required 'schema' field".into(), start, ""),
        _ => {
            let msg = format!(
                "unmarshalling template schema: json: cannot unmarshal {} into Go struct field .schema of type string",
                member.value.kind_name()
            );
            fail(msg, member.value.pos, &pointer)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn detected(text: &str) -> Result<TemplateKind, String> {
        detect(&FileInput::new("t.yaml", text)).map_err(|d| d.message)
    }

    #[test]
    fn the_first_documents_schema_selects_the_kind() {
        assert_eq!(detected("schema: olm.semver\n"), Ok(TemplateKind::Semver));
        assert_eq!(detected("Schema: olm.template.basic\n---\nschema: x\n"), Ok(TemplateKind::Basic));
        assert_eq!(detected("{\"schema\": \"olm.template.substitutes\"}"), Ok(TemplateKind::Substitutes));
    }

    #[test]
    fn a_missing_or_unknown_schema_is_reported_in_opms_words() {
        assert_eq!(detected("entries: []\n"), Err("template input missing required 'schema' field".into()));
        assert_eq!(detected("# nothing\n"), Err("template input missing required 'schema' field".into()));
        assert_eq!(detected("schema: olm.composite\n"), Err("unknown template schema: olm.composite".into()));
        let d = detect(&FileInput::new("t.yaml", "a: 1\nschema: nope\n")).unwrap_err();
        assert_eq!((d.location.line, d.location.column, d.location.pointer.as_str()), (2, 9, "/schema"));
    }
}
